/* leftovers.c: find and remove what a dead vbed left (see leftovers.h). */
#include "leftovers.h"

#include "hostarm.h"
#include "log.h"
#include "paths.h"
#include "process.h"
#include "session.h"
#include "storage.h"

#include <dirent.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

struct clean {
    struct hv *hv;
    bool dry_run;
    struct leftovers *out;
};

/* Whether a leftover belongs to a dead session (and so may go). */
static int is_orphan(struct clean *c, const char *name)
{
    char id[SESSION_ID_MAX];
    if (strncmp(name, "vbed-image-", 11) == 0 || strncmp(name, "vbed-probe-", 11) == 0)
        return 1;
    if (session_of_name(name, id) < 0)
        return 0;
    if (session_alive(id)) {
        c->out->kept++;
        return 0;
    }
    return 1;
}

static void clean_domains(struct clean *c)
{
    char **names;
    size_t n;
    if (hv_list_domains(c->hv, "vbed-", &names, &n) < 0) {
        c->out->failed++;
        return;
    }
    for (size_t i = 0; i < n; i++) {
        if (!is_orphan(c, names[i]))
            continue;
        if (c->dry_run) {
            printf("would remove domain %s\n", names[i]);
        } else if (hv_remove_domain(c->hv, names[i]) == 0) {
            printf("removed domain %s\n", names[i]);
            c->out->removed++;
        } else {
            c->out->failed++;
        }
    }
    storage_free_names(names, n);
}

static void clean_volumes(struct clean *c, const char *pool, bool images)
{
    virStoragePoolPtr p = virStoragePoolLookupByName(hv_conn(c->hv), pool);
    if (!p) {
        log_info("no storage pool '%s': no volumes to remove", pool);
        return;
    }
    virStoragePoolFree(p);
    struct storage *st = storage_open(c->hv, pool, "/nonexistent");
    if (!st) {
        c->out->failed++;
        return;
    }
    char **names;
    size_t n;
    if (storage_list(st, "vbed-", &names, &n) == 0) {
        for (size_t i = 0; i < n; i++) {
            if (!images && strncmp(names[i], "vbed-image-", 11) == 0)
                continue;
            if (!is_orphan(c, names[i]))
                continue;
            if (c->dry_run) {
                printf("would remove volume %s/%s\n", storage_path(st), names[i]);
            } else if (storage_delete(st, names[i]) == 0) {
                printf("removed volume %s/%s\n", storage_path(st), names[i]);
                c->out->removed++;
            } else {
                c->out->failed++;
            }
        }
        storage_free_names(names, n);
    }
    storage_close(st);
}

void leftovers_clean_libvirt(struct hv *hv, const char *pool, bool images, bool dry_run,
                             struct leftovers *out)
{
    struct clean c = {.hv = hv, .dry_run = dry_run, .out = out};
    clean_domains(&c);
    clean_volumes(&c, pool, images);
}

/* The pid in a host arm's mysqld.pid if that process is the arm's own
 * mariadbd (its executable, and --datadir=<dir>/data); -1 otherwise: after a
 * reboot the pid may belong to anything, which must not be signalled. */
static pid_t arm_mariadbd(const char *dir)
{
    char pidfile[PATH_MAX], datadir[PATH_MAX];
    path_join(pidfile, sizeof(pidfile), dir, "mysqld.pid");
    path_join(datadir, sizeof(datadir), dir, "data");
    FILE *f = fopen(pidfile, "r");
    int pid = 0;
    if (f) {
        if (fscanf(f, "%d", &pid) != 1)
            pid = 0;
        fclose(f);
    }
    if (pid <= 0 || kill(pid, 0) != 0)
        return -1;
    if (!process_is_mariadbd_of(pid, datadir)) {
        char exe[256] = "?";
        process_exe_name(pid, exe, sizeof(exe));
        log_warn("'%s' names pid %d, but that is '%s', not the mariadbd of '%s': not signalled.",
                 pidfile, pid, exe, datadir);
        return -1;
    }
    return (pid_t)pid;
}

static void remove_cgroups(const char *name, bool dry_run)
{
    static const char *const roots[] = {"/sys/fs/cgroup", "/sys/fs/cgroup/memory",
                                        "/sys/fs/cgroup/cpuset", NULL};
    for (int i = 0; roots[i]; i++) {
        char path[PATH_MAX];
        path_join(path, sizeof(path), roots[i], name);
        if (access(path, F_OK) != 0)
            continue;
        if (dry_run)
            printf("would remove cgroup %s\n", path);
        else if (rmdir(path) == 0)
            printf("removed cgroup %s\n", path);
    }
}

void leftovers_clean_host(const char *pool_dir, bool dry_run, struct leftovers *out)
{
    char base[PATH_MAX];
    hostarm_base(pool_dir, base, sizeof(base));
    DIR *d = opendir(base);
    if (!d)
        return;
    struct dirent *de;
    while ((de = readdir(d))) {
        char id[SESSION_ID_MAX], dir[PATH_MAX];
        if (session_of_name(de->d_name, id) < 0)
            continue;
        if (session_alive(id)) {
            out->kept++;
            continue;
        }
        path_join(dir, sizeof(dir), base, de->d_name);
        pid_t pid = arm_mariadbd(dir);
        if (dry_run) {
            if (pid > 0)
                printf("would stop mariadbd %d of %s\n", (int)pid, dir);
            printf("would remove host arm directory %s\n", dir);
            remove_cgroups(de->d_name, true);
            continue;
        }
        if (pid > 0) {
            kill(pid, SIGTERM);
            for (int i = 0; i < 300 && kill(pid, 0) == 0; i++)
                usleep(100000);
            if (kill(pid, 0) == 0)
                kill(pid, SIGKILL);
            printf("stopped mariadbd %d of %s\n", (int)pid, dir);
        }
        remove_cgroups(de->d_name, false);
        paths_remove_tree(dir);
        if (access(dir, F_OK) != 0) {
            printf("removed host arm directory %s\n", dir);
            out->removed++;
        } else {
            out->failed++;
        }
    }
    closedir(d);
}
