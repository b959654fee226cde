/* hostrun.c: one run of the host arm: a private mariadbd with the run's
 * my.cnf (limited to one guest's CPUs and memory unless host_match =
 * none) on the arm's host -- this machine, or the ssh host its `hosts` (or
 * -c) names --, the experiment on it, then stopped and removed whatever
 * happened. */
#include "experiment/hostrun.h"

#include "experiment/experiment.h"
#include "targets/hostarm.h"
#include "targets/innodb.h"
#include "util/log.h"
#include "scenario/mycnf.h"
#include "util/paths.h"

#include <stdio.h>
#include <stdlib.h>

int hostrun_execute(struct run *run)
{
    struct runner *r = run->r;
    const struct run_config *cfg = &run->sp->cfg;
    char *mycnf = mycnf_render(cfg);
    results_write(run->dir, "my.cnf", mycnf);
    char base[PATH_MAX], name[96], dir[PATH_MAX];
    hostarm_base(cfg->pool_dir, base, sizeof(base));
    snprintf(name, sizeof(name), "vbed-%s-%s", run->runid, run->arm);
    results_run_dir(r->res, run->seq, run->arm, "host", dir, sizeof(dir));

    struct hostside *hs = hostside_new(run->host_uri);
    if (!hs) {
        free(mycnf);
        return -1;
    }
    log_info("run %s: starting the host arm's mariadbd on %s (%s)", run->runid, hostside_uri(hs)->label,
             cfg->host_match == HOST_MATCH_GUEST
                 ? "in a cgroup: as many CPUs as a guest has vCPUs, a guest's memory"
                 : "the whole host");
    struct hostarm_limits lim;
    hostarm_limits_of(cfg, &lim);
    struct target t;
    int started = target_open_host_arm(&t, hs, &lim, mycnf, r->lua_host, base, name, dir);
    free(mycnf);
    if (started < 0) {
        hostside_free(hs);
        return -1;
    }
    bool confined;
    const char *cpus = target_host_arm_cpus(&t, &confined);
    if (confined)
        log_info("run %s: mariadbd confined to CPUs %s and %lld MiB (checked)", run->runid, cpus,
                 cfg->memory >> 20);
    json_object_object_add(run->meta_run, "placement",
                           placement_json_host(&r->placement, cpus[0] ? cpus : NULL,
                                               r->placement.pin && confined,
                                               confined || cfg->host_match != HOST_MATCH_GUEST
                                                   ? NULL
                                                   : "not confined"));
    meta_write(r->meta);
    char version[64];
    if (innodb_version(t.sql, version, sizeof(version)) == 0)
        meta_set(r->meta, "versions", "mariadb_host", json_object_new_string(version));

    /* the copies of tables kept beside the image (workloads/prepared.h):
     * a host arm here imports one as a guest does (none without an image) */
    if (r->img.dir[0])
        path_join(t.prepared_dir, sizeof(t.prepared_dir), r->img.dir, "prepared");
    struct experiment e = {.cfg = cfg, .t = &t, .n = 1, .samples = r->samples, .meta_run = run->meta_run};
    int rc = experiment_run(&e);
    r->cpu_measure_s += e.cpu_measure_s;
    if (rc < 0) {
        log_error("run %s: %s", run->runid, e.error);
        json_object_object_add(run->meta_run, "reason", json_object_new_string(e.error));
    }
    else
        run->headline = e.headline;
    target_close(&t); /* stops and removes the arm */
    hostside_free(hs);
    return rc;
}
