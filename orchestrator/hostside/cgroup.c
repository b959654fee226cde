/* cgroup.c: cpuset + memory limits for the host arm (see cgroup.h). */
#include "hostside/cgroup.h"
#include "util/xalloc.h"

#include "util/log.h"
#include "util/paths.h"
#include "util/textfile.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* $VBED_CGROUP_ROOT lets tests point vbed at a tree without controllers */
static const char *cg_root(void)
{
    const char *r = getenv("VBED_CGROUP_ROOT");
    return r && r[0] ? r : "/sys/fs/cgroup";
}

/* <root>/<rel> into buf */
static const char *cg_path(char *buf, size_t len, const char *rel)
{
    path_join(buf, len, cg_root(), rel);
    return buf;
}

struct cgroup {
    bool v2;
    char dirs[2][PATH_MAX];   /* v2: [0]; v1: memory, cpuset */
    char procs[2][PATH_MAX];
    const char *procs_list[3];
};

static bool exists(const char *p) { return access(p, F_OK) == 0; }

const char *cgroup_version(void)
{
    char buf[256] = "", p1[PATH_MAX], p2[PATH_MAX];
    FILE *f = fopen(cg_path(p1, sizeof(p1), "cgroup.controllers"), "r");
    if (f) {
        if (!fgets(buf, sizeof(buf), f))
            buf[0] = '\0';
        fclose(f);
        if (strstr(buf, "memory") && strstr(buf, "cpuset"))
            return "v2";
    }
    if (exists(cg_path(p1, sizeof(p1), "memory/memory.limit_in_bytes")) &&
        exists(cg_path(p2, sizeof(p2), "cpuset/cpuset.cpus")))
        return "v1";
    return NULL;
}

static int write_file(const char *dir, const char *file, const char *value)
{
    char path[PATH_MAX];
    path_join(path, sizeof(path), dir, file);
    return textfile_write_text(path, value);
}

static int read_file(const char *path, char *buf, size_t len)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    if (!fgets(buf, (int)len, f))
        buf[0] = '\0';
    fclose(f);
    buf[strcspn(buf, "\n")] = '\0';
    return 0;
}

static int make_dir(const char *dir)
{
    if (mkdir(dir, 0755) < 0 && errno != EEXIST) {
        log_error("Cannot create cgroup '%s': %s", dir, strerror(errno));
        return -1;
    }
    return 0;
}

struct cgroup *cgroup_create(const char *name, const char *cpus, long long memory)
{
    const char *v = cgroup_version();
    if (!v) {
        log_error("No cgroup with memory and cpuset controllers is mounted under %s; mount them "
                  "(cgroupfs-mount) or set host_match = none.",
                  cg_root());
        return NULL;
    }
    struct cgroup *cg = xcalloc(1, sizeof(*cg));
    char mem[32];
    snprintf(mem, sizeof(mem), "%lld", memory);
    cg->v2 = strcmp(v, "v2") == 0;
    if (cg->v2) {
        /* the root must hand both controllers down */
        write_file(cg_root(), "cgroup.subtree_control", "+cpuset +memory");
        path_join(cg->dirs[0], sizeof(cg->dirs[0]), cg_root(), name);
        if (make_dir(cg->dirs[0]) < 0 || write_file(cg->dirs[0], "cpuset.cpus", cpus) < 0 ||
            write_file(cg->dirs[0], "memory.max", mem) < 0 ||
            write_file(cg->dirs[0], "memory.swap.max", "0") < 0)
            goto fail;
        path_join(cg->procs[0], sizeof(cg->procs[0]), cg->dirs[0], "cgroup.procs");
        cg->procs_list[0] = cg->procs[0];
        return cg;
    }
    char mems[64] = "0", mem_root[PATH_MAX], cpuset_root[PATH_MAX], p[PATH_MAX];
    read_file(cg_path(p, sizeof(p), "cpuset/cpuset.mems"), mems, sizeof(mems));
    path_join(cg->dirs[0], sizeof(cg->dirs[0]), cg_path(mem_root, sizeof(mem_root), "memory"), name);
    path_join(cg->dirs[1], sizeof(cg->dirs[1]), cg_path(cpuset_root, sizeof(cpuset_root), "cpuset"),
              name);
    if (make_dir(cg->dirs[0]) < 0 || write_file(cg->dirs[0], "memory.limit_in_bytes", mem) < 0 ||
        make_dir(cg->dirs[1]) < 0 || write_file(cg->dirs[1], "cpuset.mems", mems) < 0 ||
        write_file(cg->dirs[1], "cpuset.cpus", cpus) < 0)
        goto fail;
    path_join(cg->procs[0], sizeof(cg->procs[0]), cg->dirs[0], "cgroup.procs");
    path_join(cg->procs[1], sizeof(cg->procs[1]), cg->dirs[1], "cgroup.procs");
    cg->procs_list[0] = cg->procs[0];
    cg->procs_list[1] = cg->procs[1];
    return cg;
fail:
    cgroup_destroy(cg);
    return NULL;
}

struct cgroup *cgroup_open(const char *name)
{
    const char *v = cgroup_version();
    if (!v)
        return NULL;
    struct cgroup *cg = xcalloc(1, sizeof(*cg));
    cg->v2 = strcmp(v, "v2") == 0;
    char root[PATH_MAX];
    if (cg->v2) {
        path_join(cg->dirs[0], sizeof(cg->dirs[0]), cg_root(), name);
    } else {
        path_join(cg->dirs[0], sizeof(cg->dirs[0]), cg_path(root, sizeof(root), "memory"), name);
        path_join(cg->dirs[1], sizeof(cg->dirs[1]), cg_path(root, sizeof(root), "cpuset"), name);
    }
    for (int i = 0; i < 2 && cg->dirs[i][0]; i++) {
        if (!exists(cg->dirs[i])) {
            free(cg);
            return NULL;
        }
        path_join(cg->procs[i], sizeof(cg->procs[i]), cg->dirs[i], "cgroup.procs");
        cg->procs_list[i] = cg->procs[i];
    }
    return cg;
}

const char *const *cgroup_procs_files(const struct cgroup *cg) { return cg->procs_list; }

static bool listed(const char *procs, pid_t pid)
{
    FILE *f = fopen(procs, "r");
    if (!f)
        return false;
    long p;
    bool found = false;
    while (!found && fscanf(f, "%ld", &p) == 1)
        found = p == (long)pid;
    fclose(f);
    return found;
}

int cgroup_check_member(const struct cgroup *cg, pid_t pid, const char *cpus, char *why, size_t len)
{
    for (int i = 0; cg->procs_list[i]; i++) {
        if (!listed(cg->procs_list[i], pid)) {
            snprintf(why, len, "process %d is not in '%s'", (int)pid, cg->procs_list[i]);
            return -1;
        }
    }
    char path[64], line[512], allowed[256] = "";
    snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(why, len, "cannot read '%s': %s", path, strerror(errno));
        return -1;
    }
    while (fgets(line, sizeof(line), f))
        if (sscanf(line, "Cpus_allowed_list: %255s", allowed) == 1)
            break;
    fclose(f);
    if (strcmp(allowed, cpus) != 0) {
        snprintf(why, len, "process %d may run on CPUs '%s', not only on '%s'", (int)pid, allowed,
                 cpus);
        return -1;
    }
    return 0;
}

long long cgroup_memory_peak(const struct cgroup *cg)
{
    char path[PATH_MAX], buf[64];
    path_join(path, sizeof(path), cg->dirs[0], cg->v2 ? "memory.peak" : "memory.max_usage_in_bytes");
    if (read_file(path, buf, sizeof(buf)) < 0)
        return -1;
    return atoll(buf);
}

void cgroup_free(struct cgroup *cg) { free(cg); }

void cgroup_destroy(struct cgroup *cg)
{
    if (!cg)
        return;
    for (int i = 0; i < 2; i++) {
        if (!cg->dirs[i][0] || !exists(cg->dirs[i]))
            continue;
        /* a just-killed process may take a moment to leave */
        for (int tries = 0; rmdir(cg->dirs[i]) < 0 && errno == EBUSY && tries < 50; tries++)
            usleep(100000);
        if (exists(cg->dirs[i]))
            log_warn("Cannot remove cgroup '%s': %s", cg->dirs[i], strerror(errno));
    }
    free(cg);
}
