/* paths.c: locate vbed's data directory and cache directory. */
#include "util/paths.h"

#include "util/log.h"
#include "util/spawn.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef VBED_DATADIR
#define VBED_DATADIR "/usr/local/share/vbed"
#endif

static char data_dir[PATH_MAX];
static char cache_dir[PATH_MAX];

static int is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

const char *paths_data_dir(void)
{
    if (data_dir[0])
        return data_dir;
    const char *env = getenv("VBED_DATA_DIR");
    if (env && *env) {
        snprintf(data_dir, sizeof(data_dir), "%s", env);
        return data_dir;
    }
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
    if (n > 0) {
        exe[n] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash)
            *slash = '\0';
        /* the binary sits at the top of the source tree, in build/<x>/, or
         * installed as <prefix>/bin/vbed (also under a DESTDIR) */
        const char *up[] = {"", "/../..", "/../share/vbed", NULL};
        for (int i = 0; up[i]; i++) {
            char cand[PATH_MAX], probe[PATH_MAX + 32];
            snprintf(cand, sizeof(cand), "%s%s", exe, up[i]);
            snprintf(probe, sizeof(probe), "%s/guest-images", cand);
            if (is_dir(probe) && realpath(cand, data_dir))
                return data_dir;
        }
    }
    snprintf(data_dir, sizeof(data_dir), "%s", VBED_DATADIR);
    return data_dir;
}

void paths_set_cache_dir(const char *dir) { snprintf(cache_dir, sizeof(cache_dir), "%s", dir); }

const char *paths_cache_dir(void)
{
    if (cache_dir[0])
        return cache_dir;
    const char *env = getenv("VBED_CACHE_DIR");
    snprintf(cache_dir, sizeof(cache_dir), "%s", env && *env ? env : "/var/cache/vbed");
    return cache_dir;
}

int path_join(char *buf, size_t len, const char *a, const char *b)
{
    size_t la = strlen(a);
    int n = snprintf(buf, len, "%s%s%s", a, (la && a[la - 1] == '/') ? "" : "/", b);
    return (n < 0 || (size_t)n >= len) ? -1 : 0;
}

void paths_remove_tree(const char *dir)
{
    if (access(dir, F_OK) != 0)
        return;
    const char *argv[] = {"rm", "-rf", "--one-file-system", dir, NULL};
    struct spawn_opts o = {.timeout = 600, .cleanup = 1};
    spawn_run(argv, &o);
}

int paths_mkdirs(const char *dir, unsigned mode)
{
    char tmp[PATH_MAX];
    snprintf(tmp, sizeof(tmp), "%s", dir);
    for (char *p = tmp + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(tmp, mode) < 0 && errno != EEXIST) {
            log_error("Cannot create directory '%s': %s", tmp, strerror(errno));
            return -1;
        }
        *p = '/';
    }
    if (mkdir(tmp, mode) < 0 && errno != EEXIST) {
        log_error("Cannot create directory '%s': %s", tmp, strerror(errno));
        return -1;
    }
    return 0;
}
