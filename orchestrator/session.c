/* session.c: session ids and pid files (see session.h). */
#include "session.h"

#include "log.h"
#include "paths.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#define SESSION_DIR "/run/vbed/sessions"

static void pid_path(const char *id, char *buf, size_t len)
{
    path_join(buf, len, SESSION_DIR, id);
}

int session_begin(const char *requested, char id[SESSION_ID_MAX])
{
    if (requested) {
        snprintf(id, SESSION_ID_MAX, "%s", requested);
    } else {
        static const char digits[] = "abcdefghijklmnopqrstuvwxyz0123456789";
        unsigned char rnd[6];
        if (getrandom(rnd, sizeof(rnd), 0) != (ssize_t)sizeof(rnd)) {
            log_error("Cannot make a session id: %s", strerror(errno));
            return -1;
        }
        for (size_t i = 0; i < sizeof(rnd); i++)
            id[i] = digits[rnd[i] % (sizeof(digits) - 1)];
        id[sizeof(rnd)] = '\0';
    }
    if (paths_mkdirs(SESSION_DIR, 0755) < 0)
        return -1;
    char path[PATH_MAX];
    pid_path(id, path, sizeof(path));
    FILE *f = fopen(path, "w");
    if (!f) {
        log_error("Cannot write '%s': %s", path, strerror(errno));
        return -1;
    }
    fprintf(f, "%d\n", (int)getpid());
    fclose(f);
    return 0;
}

void session_end(const char *id)
{
    char path[PATH_MAX];
    pid_path(id, path, sizeof(path));
    unlink(path);
}

bool session_alive(const char *id)
{
    char path[PATH_MAX];
    pid_path(id, path, sizeof(path));
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    int pid = 0;
    bool alive = fscanf(f, "%d", &pid) == 1 && pid > 0 && (kill(pid, 0) == 0 || errno == EPERM);
    fclose(f);
    return alive;
}

int session_of_name(const char *name, char id[SESSION_ID_MAX])
{
    if (strncmp(name, "vbed-", 5) != 0)
        return -1;
    const char *start = name + 5;
    size_t n = strcspn(start, "-");
    if (n == 0 || n >= SESSION_ID_MAX || start[n] != '-')
        return -1;
    memcpy(id, start, n);
    id[n] = '\0';
    return 0;
}
