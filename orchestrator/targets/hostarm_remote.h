/* hostarm_remote.h: a host arm on an ssh host -- each operation of
 * hostarm.h as one `vbed host arm-...` request (cmd_host_arm.c is the other
 * side). Replies are hostile input: every field is checked before use, and
 * a remote arm's paths must be the ones asked for. Only hostarm.c calls
 * these. */
#ifndef VBED_HOSTARM_REMOTE_H
#define VBED_HOSTARM_REMOTE_H

#include "targets/hostarm.h"

struct hostarm *hostarm_remote_start(struct hostside *hs, const struct hostarm_limits *l,
                                     const char *mycnf, const char *lua, const char *base,
                                     const char *name);
void hostarm_remote_stop(struct hostarm *h, const char *keep_log);
pid_t hostarm_remote_exec_start(struct hostarm *h, const char *const argv[], const char *const env[],
                                const char *out_path);
int hostarm_remote_status(struct hostarm *h, struct hostarm_status *st);
int hostarm_remote_fetch(struct hostarm *h, const char *name, const char *dest);
int hostarm_remote_make_archive(struct hostarm *h, long long *bytes);

/* ---- the reply of `vbed host arm-start`, checked (also for the fuzz target) ---- */

/* Fill h's paths, pid, cpus and confinement from reply; the arm must be
 * dir (which may be h->dir). 0, or -1 with the first problem in why and h
 * left as it was. */
int hostarm_remote_read_start(json_object *reply, const char *dir, struct hostarm *h, char *why,
                              size_t len);
/* The figures of an arm-status reply (absent ones unknown). */
void hostarm_remote_read_status(json_object *reply, struct hostarm_status *st);

#endif
