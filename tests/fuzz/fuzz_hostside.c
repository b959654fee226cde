/* fuzz_hostside.c: a reply of `vbed host` on another host (hostile input)
 * through hostside.c's reader -- its size cap and NUL rule with a small cap
 * (FUZZ_REPLY_MAX) --, and the /proc text it carries through layers.c's
 * parsers, as hostside.c does with a real reply; and the same reply read as
 * a host arm's (hostarm_remote.c: arm-start, whose paths must be the arm's
 * own and fit sysbench's command line; arm-status; sql.c: the rows of
 * arm-sql). */
#include "fuzz.h"
#include "targets/hostarm_remote.h"
#include "hostside/hostside.h"
#include "scenario/keys.h"
#include "probes/layers.h"
#include "targets/sql.h"
#include "workloads/sysbench.h"

#include <sys/un.h>

#include <stdlib.h>

FUZZ_INITIALIZE_QUIET

/* the directory an arm-start is asked for (the seeds are real replies of
 * `vbed host arm-start -- FUZZ_ARM`) */
#define FUZZ_ARM "/tmp/vbed-fuzzseed/host/vbed-fuzz01-host"
/* the reply cap of hostside_call (HOSTSIDE_REPLY_MAX), scaled to what a
 * fuzzer's inputs reach; the seeds hold a reply padded past it */
#define FUZZ_REPLY_MAX 8192

/* an accepted arm-start reply names the arm's own paths, no other */
static void accepted_paths(const struct hostarm *h)
{
    static const struct run_config *cfg;
    static struct run_config defaults;
    if (!cfg) {
        key_apply_defaults(&defaults);
        cfg = &defaults;
    }
    if (strcmp(h->dir, FUZZ_ARM) != 0 || strcmp(h->datadir, FUZZ_ARM "/mysql/data") != 0 ||
        strcmp(h->socket, FUZZ_ARM "/mysql/mysqld.sock") != 0 ||
        strcmp(h->errlog, FUZZ_ARM "/mysql/mysqld.err") != 0 || strcmp(h->lua, FUZZ_ARM "/vbed_oltp.lua") != 0)
        abort(); /* accepted a path that is not the arm's own */
    if (strlen(h->socket) >= sizeof(((struct sockaddr_un *)0)->sun_path))
        abort(); /* a socket no client can connect to */
    struct workload_cmdline c;
    if (workload_cmdline(&c, cfg, WORKLOAD_RUN, 30, h->lua, h->socket) != 0)
        abort(); /* what was accepted must make a command line */
}

static void host_arm_replies(json_object *o)
{
    struct hostarm h = {0};
    char why[256];
    if (hostarm_remote_read_start(o, FUZZ_ARM, &h, why, sizeof(why)) == 0)
        accepted_paths(&h);
    /* as hostarm_remote_start calls it: with the arm's own h->dir */
    memset(&h, 0, sizeof(h));
    snprintf(h.dir, sizeof(h.dir), "%s", FUZZ_ARM);
    hostarm_remote_read_start(o, h.dir, &h, why, sizeof(why));
    if (strcmp(h.dir, FUZZ_ARM) != 0)
        abort(); /* the arm's directory was replaced by the reply's */

    struct hostarm_status st;
    hostarm_remote_read_status(o, &st);

    struct sql_result r;
    if (sql_rows_from_reply(o, &r) == 0) {
        /* every cell is there and is a string */
        for (size_t i = 0; i < r.rows; i++)
            for (size_t c = 0; c < r.cols; c++)
                if (!sql_cell(&r, i, c) || strlen(sql_cell(&r, i, c)) > (16u << 20))
                    abort();
        sql_result_free(&r);
    } else if (r.rows || r.cols || r.cells) {
        abort(); /* refused, but not emptied */
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    char err[256], buf[64];
    long long v;
    double d;
    struct diskstat ds;
    json_object *o = hostside_reply_read(text, size, FUZZ_REPLY_MAX, err, sizeof(err));
    if (o && (size > FUZZ_REPLY_MAX || memchr(data, '\0', size)))
        abort(); /* a reply past the cap, or cut at a NUL, was read */
    if (o) {
        hostside_reply_string(o, "version", buf, sizeof(buf));
        hostside_reply_uint(o, "bytes", &v);
        hostside_reply_uint(o, "major", &v);
        char *t = hostside_reply_text(o, "meminfo");
        if (t) {
            procfs_parse_meminfo(t, "MemTotal", &d);
            procfs_parse_meminfo(t, "Cached", &d);
        }
        free(t);
        t = hostside_reply_text(o, "diskstats");
        if (t)
            procfs_parse_diskstats(t, NULL, 254, 0, &ds);
        free(t);
        struct cpu_times ct;
        hostside_parse_stat_reply(o, &ct);
        host_arm_replies(o);
        json_object_put(o);
    }
    free(text);
    return 0;
}
