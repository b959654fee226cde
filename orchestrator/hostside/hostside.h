/* hostside.h: the hostside layer -- work on a hypervisor host that libvirt
 * does not offer: drop the page cache, page-cache residency of a file,
 * /proc/meminfo, /proc/stat, the block device under a path, the helper's
 * version, its boot id, free space -- done on the host a URI names, never
 * on the wrong machine. Also here: the helper protocol (`vbed host`
 * replies, protocol.c), cgroups (cgroup.h), the page cache of this machine
 * (hostcache.h) and the CPU-time arithmetic of the machine's noise
 * (noise.h). It may call report/, model/, results/, scenario/ and
 * util/.
 *
 * One interface, three ways to reach a host (ops.h; callers never ask
 * which):
 *
 *   local URI   in-process (local.c: hostcache.h, util/procfs.h)
 *   ssh URI     `vbed host ...` on that host over ssh (ssh.c; hosturi.h);
 *               one string for the remote shell, quoted by shquote.h; the
 *               reply is JSON (protocol.c; the helper's side is cli's
 *               cmd_host.c) read as hostile input: hostside_reply_* check
 *               every field, and the text of /proc files goes through
 *               util/procfs.h's parsers
 *   tcp/tls     none.c: a figure is HOSTSIDE_ABSENT (quietly: the sample is
 *               absent, never measured on the wrong machine); a drop of the
 *               page cache that was asked for is named in a warning
 *
 * The helper on the remote host is `vbed` from its PATH, or
 * $VBED_REMOTE_VBED (a path on that host).
 *
 * Threads: a hostside may be used from any thread; it holds no state that
 * changes after hostside_new. */
#ifndef VBED_HOSTSIDE_H
#define VBED_HOSTSIDE_H

#include "scenario/hosturi.h"
#include "hostside/noise.h"

#include <json-c/json.h>
#include <stdbool.h>
#include <sys/types.h>

struct hostside;

/* NULL if uri cannot be read (reported). uri NULL: this machine. */
struct hostside *hostside_new(const char *uri);
void hostside_free(struct hostside *h);
const struct host_uri *hostside_uri(const struct hostside *h);
/* The host has a shell transport (local or ssh). */
bool hostside_available(const struct hostside *h);
/* The host is this machine. */
bool hostside_is_local(const struct hostside *h);

/* What a host without a shell transport answers (none.c): the figure is
 * absent, and nothing was reported. */
#define HOSTSIDE_ABSENT (-2)

/* Each: 0 (or the value), -1 reported, or HOSTSIDE_ABSENT. */
int hostside_drop_caches(struct hostside *h);
long long hostside_resident(struct hostside *h, const char *path);
/* MemTotal, Cached, Dirty of /proc/meminfo, in bytes. */
int hostside_meminfo(struct hostside *h, long long *total, long long *cached, long long *dirty);
/* /proc/diskstats and the device number of the filesystem under path;
 * *diskstats malloc'd. */
int hostside_diskstats(struct hostside *h, const char *path, unsigned *major, unsigned *minor,
                       char **diskstats);
/* The helper's version string; *drop_caches (may be NULL): whether that host
 * lets vbed drop its page cache. */
int hostside_version(struct hostside *h, char *buf, size_t len, bool *drop_caches);
/* The aggregate CPU times of /proc/stat of h's host (noise.h). */
int hostside_proc_stat(struct hostside *h, struct cpu_times *c);
/* ... from a reply of `vbed host stat` (also for the fuzz target). */
int hostside_parse_stat_reply(json_object *r, struct cpu_times *c);
/* `vbed host version`'s reply (hostile): the helper's version (a string
 * hostside_reply_string accepts) into ver; *drop (may be NULL) whether it
 * may drop the page cache (a boolean; else false); its boot id into boot,
 * "" when absent or not only hex digits and '-'. 0, or -1 without a
 * version. */
int hostside_read_version(json_object *r, char *ver, size_t vlen, bool *drop, char *boot,
                          size_t blen);
/* The boot id of h's host (/proc/sys/kernel/random/boot_id; h NULL: this
 * machine); -1 if unknown (a host without a shell transport, an old helper). */
int hostside_boot_id(struct hostside *h, char *buf, size_t len);
/* Free bytes where path is (or would be made). */
long long hostside_free_bytes(struct hostside *h, const char *path);

/* A reply is at most this large: past it ssh is stopped and the reply
 * refused (the largest true reply, arm-sql's 16 MiB of rows, fits). */
#define HOSTSIDE_REPLY_MAX ((size_t)32 << 20)
/* A streamed output (hostside_spawn) grows this large at most on this
 * machine's disk: past it the output is cut and ssh stopped. */
#define HOSTSIDE_STREAM_MAX (64LL << 20)

/* Run `vbed host ARGS...` on h's host (ssh URIs only) within timeout
 * seconds; its parsed reply (free with json_object_put), or NULL reported.
 * The helper's stderr is shown line by line, control characters escaped
 * (log_remote_text). Runs on while vbed is interrupted: cleaning up uses
 * it. */
json_object *hostside_call(struct hostside *h, const char *const args[], long timeout);
/* Start `vbed host ARGS...` there in the background, its stdout and stderr
 * appended to log_path on this machine (at most HOSTSIDE_STREAM_MAX bytes);
 * the local pid, whose exit code is the remote command's (255: ssh
 * failed). -1 reported. */
pid_t hostside_spawn(struct hostside *h, const char *const args[], const char *log_path);
/* Wait for what hostside_spawn started (as spawn_wait). An output cut at
 * HOSTSIDE_STREAM_MAX says so at the end of log_path, is reported, and
 * gives SPAWN_TOO_LARGE. */
int hostside_spawn_wait(struct hostside *h, pid_t pid, long timeout, const char *what,
                        const char *log_path);

/* ---- the reply of `vbed host` (protocol.c; also for the fuzz target) ---- */

/* The helper's side: a reply object with "vbed_host" set, and printing it
 * on stdout as one line (0, or -1 if stdout failed). */
json_object *hostside_reply_new(void);
int hostside_reply_print(json_object *o);

/* A JSON object with "vbed_host": 1; NULL and err set otherwise. */
json_object *hostside_reply_parse(const char *text, char *err, size_t errlen);
/* The same for len bytes of output (text[len] is a NUL): NULL and err set
 * if it is larger than max or holds a NUL byte before its end. */
json_object *hostside_reply_read(const char *text, size_t len, size_t max, char *err, size_t errlen);
/* A string field of printable text shorter than max (copied into buf). */
int hostside_reply_string(json_object *o, const char *key, char *buf, size_t max);
/* A text field (may hold newlines: the text of a /proc file), at most 1 MiB; malloc'd. */
char *hostside_reply_text(json_object *o, const char *key);
/* A non-negative integer field below 2^53. */
int hostside_reply_uint(json_object *o, const char *key, long long *v);

#define HOSTSIDE_PROTOCOL 1

#endif
