/* guestrun.c: one run of a guest arm: each guest's disks and domain made
 * and waited for in a thread of its own, the experiment in all guests at once, then
 * teardown whatever happened (domains destroyed, console logs saved,
 * volumes deleted unless --keep; a guest that failed on its own has its
 * journal read out of its disk first). */
#include "experiment/guestrun.h"
#include "virt/accel.h"
#include "util/monotime.h"
#include "util/xalloc.h"

#include "virt/configdisk.h"
#include "virt/domain.h"
#include "experiment/experiment.h"
#include "virt/guest.h"
#include "util/log.h"
#include "scenario/mycnf.h"
#include "hostside/noise.h"
#include "util/paths.h"
#include "virt/placement.h"
#include "image/postmortem.h"
#include "util/progress.h"
#include "util/signals.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct guest_run {
    struct run *run;
    struct guest *guests;
    struct hostset_host **host; /* each guest's hypervisor host */
    char (*dirs)[PATH_MAX];
    size_t n;
    volatile int abort_all;
    struct progress *progress;
    bool cold;          /* boot every guest (the repeat of a stalled run) */
    char stalled[640];  /* a guest's disk stalled (diskwatch.h): the evidence; "" none */
};

/* The saved ready guest for guest i of the run (its host, its domain
 * type), made now if there is none; NULL if it is to boot (start = cold,
 * --cold, or nothing can be restored there: said once per run and host). */
static const struct ready_state *ready_for(struct guest_run *gr, size_t i, struct ready_state *rs,
                                           int *tried)
{
    struct run *run = gr->run;
    struct runner *r = run->r;
    const struct run_config *cfg = &run->sp->cfg;
    if (cfg->start != START_RESTORE || r->o->cold || gr->cold)
        return NULL;
    /* the guests of a run on one host share its state: tried[k] for the
     * first guest k on the same host (0 untried, 1 found, -1 none) */
    size_t k = 0;
    while (k < i && gr->host[k] != gr->host[i])
        k++;
    if (tried[k] == 0) {
        char why[512], cpuset[40];
        placement_guest_cpuset(&r->placement, cpuset, sizeof(cpuset));
        tried[k] = readystate_get(gr->host[i]->hv, &r->img, &gr->host[i]->im, cfg,
                                  run->guest_virt_type[i], cpuset, &rs[k], why, sizeof(why)) == 0
                       ? 1
                       : -1;
        if (tried[k] < 0 && !signals_interrupted())
            log_warn("run %s: guests on %s boot (no saved ready guest: %s)", run->runid,
                     gr->host[i]->label, why);
    }
    return tried[k] > 0 ? &rs[k] : NULL;
}

/* Its volumes gone again after a restore that did not get as far as a
 * domain, so that it can boot in their place. */
static void undo_restore(struct guest *g, struct storage *st)
{
    log_warn("%s: %s; it boots instead", g->lay.name, g->error);
    guest_teardown(g, st, NULL, false);
    g->made_disks = g->restored = false;
    g->error[0] = '\0';
    g->phase = GP_NEW;
    g->t_start = 0;
}

/* Guest i's disks and domain: restored from ready (NULL: booted). 0, or -1
 * (g->error set unless its configuration could not even be made). */
static int start_one(struct guest_run *gr, size_t i, const struct ready_state *ready,
                     const char *mycnf)
{
    struct run *run = gr->run;
    struct runner *r = run->r;
    const struct run_config *cfg = &run->sp->cfg;
    struct guest *g = &gr->guests[i];
    struct hostset_host *h = gr->host[i];
    void *tar = NULL;
    size_t tar_len = 0;
    if (configdisk_build(cfg, g->lay.name, mycnf, &tar, &tar_len) < 0)
        return -1;
    struct domain_spec spec;
    layout_domain_spec(&spec, &g->lay, &h->im, cfg, run->guest_virt_type[i], r->img.cmdline);
    int *pins = NULL;
    char cpuset[40];
    placement_guest_cpuset(&r->placement, cpuset, sizeof(cpuset));
    spec.cpuset = cpuset;
    if (r->placement.pin) {
        pins = xcalloc((size_t)cfg->vcpus, sizeof(int));
        for (int v = 0; v < cfg->vcpus; v++)
            pins[v] = placement_vcpu_cpu(&r->placement, cfg, g->n, v);
        spec.vcpu_pin = pins;
        spec.emulator_pin = placement_emulator_cpu(&r->placement, cfg, g->n);
    }
    /* the record: the domain as it runs, its disks plugged in or not */
    char *xml = domain_xml(&spec);
    int rc = xml ? 0 : -1;
    if (xml)
        results_write(gr->dirs[i], "domain.xml", xml);
    if (ready && xml) {
        rc = guest_restore(g, h->hv, h->st, ready, &spec, tar, tar_len);
        if (rc < 0 && !g->dom && !signals_interrupted()) {
            undo_restore(g, h->st);
            spec.plugged_later = false, spec.uuid = NULL;
            spec.cmdline = r->img.cmdline;
            rc = 0;
        }
    }
    if (!g->restored && xml && rc == 0) {
        rc = guest_make_disks(g, h->st, h->im.base_path, tar, tar_len);
        if (rc == 0)
            rc = guest_start(g, h->hv, xml);
    }
    free(pins);
    free(tar);
    free(xml);
    return rc;
}

struct start_job {
    struct guest_run *gr;
    size_t i;
    const struct ready_state *ready;
    const char *mycnf;
    atomic_int done; /* set by its thread as it ends */
};

/* One guest from its disks to MariaDB ready: the guests of a run restore
 * (about 5 s each under TCG, mostly QEMU loading the saved memory) and boot
 * at once, not one after the other. */
static void *start_worker(void *arg)
{
    struct start_job *j = arg;
    struct guest *g = &j->gr->guests[j->i];
    int rc = start_one(j->gr, j->i, j->ready, j->mycnf);
    if (rc == 0)
        rc = guest_wait_ready(g);
    if (rc < 0) {
        if (g->phase != GP_FAILED) {
            snprintf(g->error, sizeof(g->error), "%s failed in phase %s: it could not be started",
                     g->lay.name, guest_phase_name(g->phase));
            g->phase = GP_FAILED;
        }
        *g->abort_all = 1; /* the other guests of the run need not finish booting */
    }
    atomic_store(&j->done, 1);
    return NULL;
}

/* Every guest of the run started and waited for at once, each in its own
 * thread; this one redraws the progress lines. 0 when all are ready. */
static int start_guests(struct guest_run *gr)
{
    struct run *run = gr->run;
    const struct run_config *cfg = &run->sp->cfg;
    char *mycnf = mycnf_render(cfg);
    struct ready_state *rs = xcalloc(gr->n, sizeof(*rs));
    int *tried = xcalloc(gr->n, sizeof(int));
    struct start_job *jobs = xcalloc(gr->n, sizeof(*jobs));
    pthread_t *threads = xcalloc(gr->n, sizeof(pthread_t));
    /* the saved ready guests first: making one boots a guest of its own */
    for (size_t i = 0; i < gr->n && !signals_interrupted(); i++)
        jobs[i] = (struct start_job){.gr = gr, .i = i, .ready = ready_for(gr, i, rs, tried),
                                     .mycnf = mycnf};
    int rc = signals_interrupted() ? -1 : 0;
    double cpu0 = noise_cpu_self_s(), t0 = monotime_s();
    size_t started = 0;
    for (; rc == 0 && started < gr->n; started++)
        if (pthread_create(&threads[started], NULL, start_worker, &jobs[started]) != 0) {
            log_error("run %s: cannot start a thread for guest %zu", run->runid, started + 1);
            gr->abort_all = 1;
            rc = -1;
            break;
        }
    for (;;) {
        bool busy = false;
        for (size_t i = 0; i < started; i++)
            busy |= !atomic_load(&jobs[i].done);
        if (!busy)
            break;
        progress_tick(gr->progress);
        struct timespec ts = {0, 500 * 1000000L};
        nanosleep(&ts, NULL);
    }
    for (size_t i = 0; i < started; i++)
        pthread_join(threads[i], NULL);
    double cpu = noise_cpu_self_s() - cpu0, wall = monotime_s() - t0;
    if (rc == 0)
        log_info("run %s: vbed used %.2f s of CPU in %.0f s of starting and waiting for %zu guest%s "
                 "(%.2f%% of one core)",
                 run->runid, cpu, wall, gr->n, gr->n == 1 ? "" : "s",
                 wall > 0 ? 100 * cpu / wall : 0);
    for (size_t i = 0; i < gr->n; i++)
        if (gr->guests[i].phase == GP_FAILED || i >= started)
            rc = -1;
    free(threads);
    free(jobs);
    free(rs);
    free(tried);
    free(mycnf);
    return rc;
}

static void record_ready(struct guest_run *gr)
{
    struct runner *r = gr->run->r;
    json_object *starts = json_object_new_array();
    for (size_t i = 0; i < gr->n; i++) {
        const struct guest *g = &gr->guests[i];
        /* how it got going: restored (from its restore's end) or booted */
        const char *how = g->restored ? "restored" : "cold";
        json_object *start = json_object_new_object();
        json_object_object_add(start, "start", json_object_new_string(how));
        samples_add(r->samples, "boot_to_ready_s", g->t_ready, "s", g->n, NULL, 0, start);
        json_object *js = json_object_new_object();
        json_object_object_add(js, "start", json_object_new_string(how));
        json_object_object_add(js, "ready_s", json_object_new_double(g->t_ready));
        /* when, on the clock: the guests of a run start at once, and this
         * shows whether they did (their start-to-ready spans overlap) */
        struct timespec wall;
        clock_gettime(CLOCK_REALTIME, &wall);
        double started = (double)wall.tv_sec + (double)wall.tv_nsec / 1e9 - (monotime_s() - g->t_start);
        json_object_object_add(js, "started_at", json_object_new_double(started));
        json_object_object_add(js, "ready_at", json_object_new_double(started + g->t_ready));
        if (g->restored) {
            samples_add(r->samples, "restore_s", g->t_restore, "s", g->n, NULL, 0, NULL);
            json_object_object_add(js, "restore_s", json_object_new_double(g->t_restore));
        }
        json_object_array_add(starts, js);
        if (g->md_resync_s >= 0) {
            json_object *extra = json_object_new_object();
            json_object_object_add(extra, "layout",
                                   json_object_new_string(key_choice("layout", g->cfg->layout)));
            samples_add(r->samples, "md_resync_s", g->md_resync_s, "s", g->n, NULL, 0, extra);
        }
        if (r->o->boot_only)
            printf("%s: MariaDB %s ready %.1f s after start (agent %.1f s, setup %.1f s)\n",
                   g->lay.name, g->version, g->t_ready, g->t_agent, g->t_setup);
    }
    json_object_object_add(gr->run->meta_run, "guest_start", starts);
    if (gr->n)
        meta_set(r->meta, "versions", "mariadb_guest", json_object_new_string(gr->guests[0].version));
    fflush(stdout);
}

/* The pinning read back from every running guest: recorded as applied only
 * if every guest has it. */
static void record_placement(struct guest_run *gr)
{
    struct runner *r = gr->run->r;
    const struct run_config *cfg = &gr->run->sp->cfg;
    bool applied = r->placement.pin, look = applied || placement_confined(&r->placement);
    char why[512] = "";
    for (size_t i = 0; look && i < gr->n; i++) {
        char diff[256];
        if (placement_verify_guest(gr->guests[i].dom, &r->placement, cfg, gr->guests[i].n, diff,
                                   sizeof(diff)) < 0) {
            look = applied = false;
            snprintf(why, sizeof(why), "%s requested but not applied: %s: %s",
                     r->placement.pin ? "pinning" : "vbed's CPUs", gr->guests[i].lay.name, diff);
            log_warn("run %s: %s; the run goes on %s and is recorded so", gr->run->runid, why,
                     r->placement.pin ? "unpinned" : "with its guests beyond vbed's CPUs");
        }
    }
    json_object_object_add(gr->run->meta_run, "placement",
                           placement_json_guests(&r->placement, cfg, applied, why));
    meta_write(r->meta);
}

/* Each guest's domain as libvirt runs it, into domain-live.xml, checked
 * against the run's data disks (format, cache and io mode): a domain that
 * runs otherwise than the scenario says fails the run -- its figures would
 * be labelled with a setting it did not have. */
static int record_live_domains(struct guest_run *gr)
{
    const struct run_config *cfg = &gr->run->sp->cfg;
    int rc = 0;
    for (size_t i = 0; i < gr->n && rc == 0; i++) {
        struct guest *g = &gr->guests[i];
        char *xml = virDomainGetXMLDesc(g->dom, 0);
        char why[512];
        if (!xml) {
            log_error("run %s: libvirt gives no XML of the running %s: %s", gr->run->runid,
                      g->lay.name, hv_last_error());
            return -1;
        }
        results_write(gr->dirs[i], "domain-live.xml", xml);
        int disks = g->lay.data_vol[0] ? (int)cfg->data_disks : 0;
        if (domain_check_live(xml, disks, cfg->disk_format, cfg->disk_cache, cfg->disk_io, why,
                              sizeof(why)) < 0) {
            log_error("run %s: %s: %s", gr->run->runid, g->lay.name, why);
            json_object_object_add(gr->run->meta_run, "reason", json_object_new_string(why));
            rc = -1;
        }
        free(xml);
    }
    return rc;
}

static int run_experiment(struct guest_run *gr)
{
    struct runner *r = gr->run->r;
    struct target *t = xcalloc(gr->n, sizeof(*t));
    for (size_t i = 0; i < gr->n; i++) {
        /* host-side figures come from the guest's own host (hostside.h) */
        const struct guest *g = &gr->guests[i];
        target_open_guest(&t[i], g->n, g->dom, gr->host[i]->hs, gr->host[i]->st, &g->lay,
                          gr->host[i]->label,
                          g->lay.data_vol[0] ? g->lay.data_path : "", gr->dirs[i]);
        /* tables loaded once per image are kept beside it (workloads/prepared.h) */
        path_join(t[i].prepared_dir, sizeof(t[i].prepared_dir), r->img.dir, "prepared");
        t[i].stall_s = (double)gr->run->sp->cfg.timeout_stall;
    }
    struct experiment e = {.cfg = &gr->run->sp->cfg, .t = t, .n = gr->n, .samples = r->samples,
                           .meta_run = gr->run->meta_run};
    int rc = experiment_run(&e);
    r->cpu_measure_s += e.cpu_measure_s;
    if (e.hv_fields[0]) {
        json_object_object_add(gr->run->meta_run, "hypervisor_fields",
                               json_object_new_string(e.hv_fields));
        meta_write(r->meta);
    }
    for (size_t i = 0; rc < 0 && i < gr->n && !gr->stalled[0]; i++)
        if (t[i].stalled[0])
            snprintf(gr->stalled, sizeof(gr->stalled), "%s: %s", t[i].name, t[i].stalled);
    if (rc < 0) {
        log_error("run %s: %s", gr->run->runid, e.error);
        /* a stalled disk is why, whatever the workload said of its wait */
        json_object_object_add(gr->run->meta_run, "reason",
                               json_object_new_string(gr->stalled[0] ? gr->stalled : e.error));
    }
    else
        gr->run->headline = e.headline;
    for (size_t i = 0; i < gr->n; i++)
        target_close(&t[i]);
    free(t);
    return rc;
}

/* libvirtd went away during the run (restarted): the guests it restarted
 * with no longer die with vbed's connection, so connect again and find
 * them to destroy them and delete their disks -- on each host of the run's
 * guests whose connection fell (its pools looked up again too). */
static void reconnect_for_teardown(struct guest_run *gr)
{
    struct runner *r = gr->run->r;
    for (size_t i = 0; i < gr->n; i++) {
        struct hv *hv = gr->host[i]->hv;
        bool first = true;
        for (size_t k = 0; k < i; k++)
            first &= gr->host[k]->hv != hv;
        if (!first || hv_alive(hv))
            continue;
        log_warn("run %s: the connection to libvirt at %s was lost; connecting again to remove the "
                 "run's guests and disks",
                 gr->run->runid, gr->host[i]->label);
        int rc = hv_reconnect(hv, 60);
        for (size_t k = 0; rc == 0 && k < r->hosts.n; k++)
            if (r->hosts.h[k].hv == hv && r->hosts.h[k].st && storage_reopen(r->hosts.h[k].st) < 0)
                rc = -1;
        if (rc < 0) {
            log_error("run %s: its guests and disks on %s may be left behind: run 'vbed -c URI clean' "
                      "once libvirt answers there again",
                      gr->run->runid, gr->host[i]->label);
            continue;
        }
        for (size_t k = 0; k < gr->n; k++) {
            struct guest *g = &gr->guests[k];
            if (gr->host[k]->hv != hv)
                continue;
            if (g->dom)
                virDomainFree(g->dom);
            g->dom = hv_lookup(hv, g->lay.name);
        }
    }
}

static void teardown_guests(struct guest_run *gr, bool failed)
{
    struct runner *r = gr->run->r;
    reconnect_for_teardown(gr);
    for (size_t i = 0; i < gr->n; i++) {
        struct guest *g = &gr->guests[i];
        struct hostset_host *h = gr->host[i];
        hv_destroy(g->dom);
        g->dom = NULL;
        /* a guest that failed on its own: its journal tells why (local pools) */
        if (failed && g->phase == GP_FAILED && g->t_start > 0 && !signals_interrupted() &&
            !hv_get_info(h->hv)->remote && !strstr(g->error, "another guest"))
            postmortem_guest_bounded(g->lay.root_path, gr->dirs[i], POSTMORTEM_TIMEOUT_S);
        guest_teardown(g, h->st, gr->dirs[i], r->o->keep);
    }
}

/* The guests started, the experiment run in them, the guests taken down. */
static int attempt(struct guest_run *gr, const char **names)
{
    struct run *run = gr->run;
    struct runner *r = run->r;
    gr->progress = progress_new(gr->n, names);
    for (size_t i = 0; i < gr->n; i++)
        gr->guests[i].progress = gr->progress;

    int rc = start_guests(gr);
    progress_end(gr->progress);
    gr->progress = NULL;
    for (size_t i = 0; i < gr->n; i++) {
        gr->guests[i].progress = NULL;
        if (gr->guests[i].phase == GP_FAILED) {
            log_error("%s", gr->guests[i].error);
            if (!json_object_object_get_ex(run->meta_run, "reason", NULL) &&
                !strstr(gr->guests[i].error, "another guest"))
                json_object_object_add(run->meta_run, "reason",
                                       json_object_new_string(gr->guests[i].error));
        }
    }
    if (rc == 0) {
        record_ready(gr);
        record_placement(gr);
        rc = record_live_domains(gr);
    }
    if (rc == 0) {
        if (!r->o->boot_only)
            rc = run_experiment(gr);
    }
    teardown_guests(gr, rc < 0);
    return rc;
}

/* A guest's disk stalled (QEMU 7.2 under TCG has lost a completion of a
 * disk plugged into a restored guest): the run once more, every guest
 * booted with its disks in its domain from the start. The stalled
 * attempt's raw logs move to guest-<n>-stalled, its samples are dropped,
 * and meta.json's run says what happened. */
static int repeat_cold(struct guest_run *gr, const char **names)
{
    struct run *run = gr->run;
    log_warn("run %s: %s; the run is repeated once with its guests cold-booted (stall_retry)",
             run->runid, gr->stalled);
    json_object *st = json_object_new_object();
    json_object_object_add(st, "evidence", json_object_new_string(gr->stalled));
    json_object_object_add(st, "repeated", json_object_new_string("cold"));
    json_object_object_add(run->meta_run, "stall", st);
    json_object_object_del(run->meta_run, "reason");
    meta_write(run->r->meta);
    samples_restart_run(run->r->samples);
    for (size_t i = 0; i < gr->n; i++) {
        char kept[PATH_MAX + 16];
        snprintf(kept, sizeof(kept), "%s-stalled", gr->dirs[i]);
        if (rename(gr->dirs[i], kept) < 0 || paths_mkdirs(gr->dirs[i], 0755) < 0)
            log_warn("run %s: the stalled attempt's logs stay in '%s'", run->runid, gr->dirs[i]);
        struct guest *g = &gr->guests[i];
        struct guest fresh = {.n = g->n, .cfg = g->cfg, .abort_all = g->abort_all,
                              .progress_line = g->progress_line, .lay = g->lay};
        *g = fresh;
    }
    gr->abort_all = 0;
    gr->cold = true;
    gr->stalled[0] = '\0';
    int rc = attempt(gr, names);
    if (gr->stalled[0])
        log_error("run %s: a guest's disk stalled again, cold-booted: %s", run->runid, gr->stalled);
    return rc;
}

int guestrun_execute(struct run *run)
{
    struct runner *r = run->r;
    struct guest_run gr = {.run = run, .n = (size_t)run->sp->cfg.guests};
    gr.guests = xcalloc(gr.n, sizeof(struct guest));
    gr.host = xcalloc(gr.n, sizeof(*gr.host));
    gr.dirs = xcalloc(gr.n, PATH_MAX);
    const char **names = xcalloc(gr.n, sizeof(char *));
    json_object *guest_hosts = json_object_new_array();
    for (size_t i = 0; i < gr.n; i++) {
        struct guest *g = &gr.guests[i];
        char sub[32];
        g->n = (int)i + 1;
        g->cfg = &run->sp->cfg;
        g->abort_all = &gr.abort_all;
        g->progress_line = i;
        gr.host[i] = hostset_guest_host(&r->hosts, &run->sp->cfg, g->n);
        layout_guest(&g->lay, storage_path(gr.host[i]->st), run->runid, run->arm, g->n, &run->sp->cfg);
        samples_set_host(r->samples, g->n, gr.host[i]->label);
        json_object_array_add(guest_hosts, json_object_new_string(gr.host[i]->label));
        names[i] = g->lay.name;
        snprintf(sub, sizeof(sub), "guest-%zu", i + 1);
        results_run_dir(r->res, run->seq, run->arm, sub, gr.dirs[i], PATH_MAX);
    }
    json_object_object_add(run->meta_run, "guest_hosts", guest_hosts);
    meta_write(r->meta);
    int rc = attempt(&gr, names);
    if (rc < 0 && gr.stalled[0] && run->sp->cfg.stall_retry && !signals_interrupted())
        rc = repeat_cold(&gr, names);
    free(names);
    free(gr.host);
    free(gr.dirs);
    free(gr.guests);
    return rc;
}
