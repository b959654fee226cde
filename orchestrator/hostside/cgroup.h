/* cgroup.h: a cgroup that limits the host arm to one guest's size:
 * its CPUs pinned (cpuset) and its memory capped, page cache included.
 * cgroup v2 (unified) or v1 (separate memory and cpuset hierarchies),
 * whichever the host has. */
#ifndef VBED_CGROUP_H
#define VBED_CGROUP_H

#include <stddef.h>
#include <sys/types.h>

struct cgroup;

/* Create /sys/fs/cgroup/.../<name> limited to cpus (e.g. "0-1") and
 * memory bytes. NULL reported. */
struct cgroup *cgroup_create(const char *name, const char *cpus, long long memory);
/* The cgroup name made earlier (by another process), if it exists;
 * NULL otherwise (not reported). Its limits are left as they are. */
struct cgroup *cgroup_open(const char *name);
/* The files a child writes its pid into (spawn_opts.cgroup_procs); up to
 * 3, NULL-terminated. */
const char *const *cgroup_procs_files(const struct cgroup *cg);
/* Is pid confined: listed in every hierarchy's cgroup.procs, and its
 * Cpus_allowed_list exactly cpus? 0, or -1 with the difference in why. */
int cgroup_check_member(const struct cgroup *cg, pid_t pid, const char *cpus, char *why, size_t len);
/* Peak memory use in bytes (v1 max_usage_in_bytes, v2 memory.peak), -1 unknown. */
long long cgroup_memory_peak(const struct cgroup *cg);
/* Forget cg, leaving the cgroup as it is; NULL-safe. */
void cgroup_free(struct cgroup *cg);
/* Remove the cgroup (its processes must be gone); NULL-safe. */
void cgroup_destroy(struct cgroup *cg);
/* "v2", "v1" or NULL when neither memory nor cpuset controller is usable. */
const char *cgroup_version(void);

#endif
