/* process.c: a process's executable and arguments from /proc (see process.h). */
#include "util/process.h"
#include "util/xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int process_exe_name(pid_t pid, char *buf, size_t len)
{
    char link[64], exe[PATH_MAX];
    snprintf(link, sizeof(link), "/proc/%d/exe", (int)pid);
    ssize_t n = readlink(link, exe, sizeof(exe) - 1);
    if (n <= 0)
        return -1;
    exe[n] = '\0';
    /* a binary replaced by an upgrade reads "/usr/sbin/mariadbd (deleted)" */
    char *deleted = strstr(exe, " (deleted)");
    if (deleted && deleted[10] == '\0')
        *deleted = '\0';
    const char *base = strrchr(exe, '/');
    snprintf(buf, len, "%s", base ? base + 1 : exe);
    return 0;
}

/* Whether pid's command line holds the argument want. */
static bool has_argument(pid_t pid, const char *want)
{
    char path[64];
    snprintf(path, sizeof(path), "/proc/%d/cmdline", (int)pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    const size_t cap = 1 << 16;
    char *buf = xcalloc(1, cap);
    size_t used = 0;
    ssize_t n;
    while (used < cap - 1 && (n = read(fd, buf + used, cap - 1 - used)) > 0)
        used += (size_t)n;
    close(fd);
    bool found = false;
    for (size_t i = 0; i < used && !found; i += strlen(buf + i) + 1)
        found = strcmp(buf + i, want) == 0;
    free(buf);
    return found;
}

bool process_is_mariadbd_of(pid_t pid, const char *datadir)
{
    char name[256];
    if (pid <= 0 || process_exe_name(pid, name, sizeof(name)) < 0)
        return false;
    if (strcmp(name, "mariadbd") != 0 && strcmp(name, "mysqld") != 0)
        return false;
    char want[PATH_MAX + 16];
    snprintf(want, sizeof(want), "--datadir=%s", datadir);
    return has_argument(pid, want);
}

long long process_start_time(pid_t pid)
{
    char path[64], buf[1024];
    snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t n = read(fd, buf, sizeof(buf) - 1);
    close(fd);
    if (n <= 0)
        return -1;
    buf[n] = '\0';
    /* the command name, field 2, is in parentheses and may hold spaces */
    const char *p = strrchr(buf, ')');
    if (!p)
        return -1;
    p++;
    for (int field = 3; field < 22 && p; field++)
        p = strchr(p + 1, ' ');
    long long t;
    return p && sscanf(p, " %lld", &t) == 1 ? t : -1;
}

bool process_running(pid_t pid)
{
    char path[64], buf[512];
    snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    ssize_t n = read(fd, buf, sizeof(buf) - 1);
    close(fd);
    if (n <= 0)
        return false;
    buf[n] = '\0';
    const char *p = strrchr(buf, ')');
    return p && p[1] == ' ' && p[2] != 'Z' && p[2] != 'X' && p[2] != '\0';
}

int process_is_vbed(pid_t pid)
{
    char name[256];
    if (pid <= 0 || (kill(pid, 0) != 0 && errno == ESRCH))
        return 0;
    if (process_exe_name(pid, name, sizeof(name)) < 0)
        return -1;
    return strcmp(name, "vbed") == 0;
}

int process_signal_group(pid_t pgid, int sig)
{
    if (pgid <= 1) {
        errno = EINVAL;
        return -1;
    }
    return kill(-pgid, sig);
}
