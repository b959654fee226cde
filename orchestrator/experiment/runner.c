/* runner.c: execute a plan (see runner.h): set up results, libvirt, the
 * image and the pool; run every run repeat by repeat (repeats = auto: until
 * each run's TPS has a CV at most cv_target, or repeats_max); record each
 * run in meta.json and samples.jsonl; clean up on any exit. */
#include "experiment/runner.h"

#include "experiment/guestrun.h"
#include "experiment/hostprepare.h"
#include "experiment/hostrun.h"
#include "virt/accel.h"

#include "util/cpuwindow.h"
#include "util/exitcode.h"
#include "util/log.h"
#include "workloads/hostload.h"
#include "workloads/prepared.h"
#include "util/paths.h"
#include "image/recipe.h"
#include "report/report.h"
#include "results/resultsread.h"
#include "experiment/runorder.h"
#include "util/signals.h"
#include "util/spawn.h"
#include "model/stats.h"
#include "util/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The domain type for a run's guests on host h (virt_type, or auto decided
 * once per host), recorded in meta.json. */
static int virt_type_on(struct runner *r, struct hostset_host *h, const struct run_config *cfg)
{
    if (cfg->virt_type != VIRT_AUTO) {
        /* forced: recorded as such (labels and meta.json say what ran) */
        if (!r->virt_decided) {
            r->virt_type = cfg->virt_type;
            r->virt_decided = true;
            meta_set(r->meta, NULL, "accel",
                     json_object_new_string(cfg->virt_type == VIRT_KVM ? "kvm" : "tcg"));
            meta_set(r->meta, NULL, "accel_reason",
                     json_object_new_string(cfg->virt_type == VIRT_KVM ? "virt_type = kvm" : "virt_type = qemu"));
            meta_write(r->meta);
        }
        return cfg->virt_type;
    }
    if (!h->virt_decided) {
        const char *why = "";
        h->virt_type = accel_choose_virt_type(h->hv, VIRT_AUTO, h->im.kernel_path, &why);
        h->virt_decided = true;
        const char *on = r->hosts.n > 1 ? h->label : NULL;
        if (h->virt_type == VIRT_QEMU)
            log_warn("GUESTS RUN UNDER QEMU TCG (software emulation)%s%s: %s. Their figures are not "
                     "comparable with KVM; every result records accel=tcg.",
                     on ? " on " : "", on ? on : "", why);
        else
            log_info("guests%s%s run under KVM (%s)", on ? " on " : "", on ? on : "", why);
        if (!r->virt_decided) {
            r->virt_type = h->virt_type;
            r->virt_decided = true;
            meta_set(r->meta, NULL, "accel", json_object_new_string(h->virt_type == VIRT_KVM ? "kvm" : "tcg"));
            meta_set(r->meta, NULL, "accel_reason", json_object_new_string(why));
        }
        for (size_t i = 0; r->meta_hosts && i < r->hosts.n; i++)
            if (&r->hosts.h[i] == h)
                json_object_object_add(json_object_array_get_idx(r->meta_hosts, i), "accel",
                                       json_object_new_string(h->virt_type == VIRT_KVM ? "kvm" : "tcg"));
        meta_write(r->meta);
    }
    return h->virt_type;
}

/* meta.json "hosts": every hypervisor host, its libvirt and image upload */
static void record_hosts(struct runner *r)
{
    json_object *arr = json_object_new_array();
    for (size_t i = 0; i < r->hosts.n; i++) {
        struct hostset_host *h = &r->hosts.h[i];
        const struct hv_info *in = hv_get_info(h->hv);
        char lv[32], qv[32];
        hv_format_version(in->lib_version, lv, sizeof(lv));
        hv_format_version(in->hv_version, qv, sizeof(qv));
        json_object *o = json_object_new_object();
        json_object_object_add(o, "host", json_object_new_string(h->label));
        json_object_object_add(o, "pool", json_object_new_string(h->pool));
        json_object_object_add(o, "hostname", json_object_new_string(in->hostname));
        json_object_object_add(o, "arms", json_object_new_string(h->arms));
        json_object_object_add(o, "transport",
                               json_object_new_string(host_transport_name(hostside_uri(h->hs)->transport)));
        json_object_object_add(o, "libvirt_version", json_object_new_string(lv));
        json_object_object_add(o, "qemu_version", json_object_new_string(qv));
        json_object_object_add(o, "image_upload_s", json_object_new_double(h->upload_s));
        json_object_array_add(arr, o);
    }
    meta_set(r->meta, NULL, "hosts", arr);
    r->meta_hosts = arr;
}

static void record_versions(struct runner *r)
{
    /* the workload's tools here and in the image */
    json_object *versions = json_object_new_object();
    hostload_versions(r->img.id[0] ? r->img.manifest : NULL, versions);
    json_object_object_foreach(versions, key, val)
        meta_set(r->meta, "versions", key, json_object_get(val));
    json_object_put(versions);
    if (r->img.id[0]) {
        meta_set(r->meta, "image", "id", json_object_new_string(r->img.id));
        meta_set(r->meta, "image", "hash", json_object_new_string(r->img.hash));
    }
    if (r->hv) {
        const struct hv_info *in = hv_get_info(r->hv);
        char lv[32], qv[32];
        hv_format_version(in->lib_version, lv, sizeof(lv));
        hv_format_version(in->hv_version, qv, sizeof(qv));
        meta_set(r->meta, "libvirt", "uri", json_object_new_string(in->uri));
        meta_set(r->meta, "libvirt", "hostname", json_object_new_string(in->hostname));
        meta_set(r->meta, "libvirt", "version", json_object_new_string(lv));
        meta_set(r->meta, "libvirt", "qemu_version", json_object_new_string(qv));
    }
    meta_write(r->meta);
}

static int setup(struct runner *r)
{
    const struct run_config *g = &r->plan->global;
    bool any_guest = false, any_host = false;
    for (size_t s = 0; s < r->plan->n_specs; s++) {
        bool guest = r->plan->arms[r->plan->specs[s].arm].kind == ARM_GUEST;
        any_guest |= guest;
        any_host |= !guest;
    }
    /* a host arm's remote host must answer before anything starts */
    if (any_host && hostset_check_host_arms(r->plan, r->o->uri, NULL) < 0)
        return EXIT_ENV;

    r->res = results_create(r->o->results_root, r->plan->scn);
    if (!r->res)
        return EXIT_ENV;
    log_info("results: %s", r->res->dir);
    r->meta = meta_create(r->res->dir, r->plan);
    r->samples = samples_open(r->res->dir);
    if (!r->meta || !r->samples)
        return EXIT_ENV;
    if (session_begin(r->o->session, r->session) < 0)
        return EXIT_ENV;
    r->session_started = true;
    meta_set(r->meta, NULL, "accel", json_object_new_string(any_guest ? "unknown" : "none"));

    if (any_host || any_guest) {
        char dir[PATH_MAX], rel[128];
        recipe_dir_for(g->image, dir, sizeof(dir));
        snprintf(rel, sizeof(rel), "files/usr/local/share/vbed/vbed_oltp.lua");
        path_join(r->lua_host, sizeof(r->lua_host), dir, rel);
        if (any_host && access(r->lua_host, R_OK) != 0) {
            log_error("The host arm needs '%s' (from the image recipe '%s').", r->lua_host, g->image);
            return EXIT_ENV;
        }
    }
    r->local = hostside_new(NULL);
    if (any_guest) {
        hostset_collect(&r->hosts, r->plan, r->o->uri);
        if (hostset_connect(&r->hosts, true) < 0) {
            log_error("Start libvirt with scripts/start-daemons.sh, or choose another URI with -c or "
                      "hosts.");
            return EXIT_ENV;
        }
        r->hv = r->hosts.h[0].hv;
        if (image_build(g->image, NULL, false, &r->img) < 0)
            return signals_interrupted() ? signals_exit_code() : EXIT_ENV;
        if (hostset_prepare(&r->hosts, &r->img) < 0)
            return signals_interrupted() ? signals_exit_code() : EXIT_ENV;
        record_hosts(r);
    }
    /* placement: one decision for every arm, on the CPUs of the hypervisor's host */
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    virNodeInfo node;
    if (r->hv && virNodeGetInfo(hv_conn(r->hv), &node) == 0)
        online = (long)node.cpus;
    /* on this machine, the CPUs vbed may run on (its affinity, a cpuset) */
    struct cpuwindow win = cpuwindow_all(online);
    if (!r->hv || !hv_get_info(r->hv)->remote) {
        struct cpuwindow self = cpuwindow_of_self(online);
        if (self.first + self.count <= online) /* else not the hypervisor's CPUs */
            win = self;
    }
    char wtext[48];
    cpuwindow_text(&win, wtext, sizeof(wtext));
    if (!win.all)
        log_info("placement: vbed may run on CPUs %s of the host's %ld (its affinity): it places "
                 "there",
                 wtext, online);
    placement_decide(r->plan, &win, &r->placement);
    if (r->placement.pin || g->pin == PIN_NONE)
        log_info("placement: %s", r->placement.reason);
    else
        log_warn("placement: %s", r->placement.reason);
    json_object *pl = json_object_new_object();
    json_object_object_add(pl, "pin", json_object_new_string(r->placement.pin ? "auto" : "none"));
    json_object_object_add(pl, "host_cpus_online", json_object_new_int64(online));
    if (!win.all)
        json_object_object_add(pl, "cpus", json_object_new_string(wtext));
    json_object_object_add(pl, "reason", json_object_new_string(r->placement.reason));
    meta_set(r->meta, NULL, "placement", pl);
    record_versions(r);
    return EXIT_OK;
}

/* The URI of the host a host arm runs on: its one `hosts` URI, else -c's
 * (NULL: libvirt's default, this machine). */
static const char *host_arm_uri(const struct runner *r, const struct run_config *cfg)
{
    return cfg->hosts[0] ? cfg->hosts : r->o->uri ? r->o->uri : r->hv ? hv_get_info(r->hv)->uri : NULL;
}

/* How samples name the machine a host arm runs on: its hosts key, else the
 * -c URI, else the URI libvirt connected to, else "local". */
static void host_arm_label(const struct runner *r, const struct run_config *cfg, char *buf, size_t len)
{
    struct host_uri u;
    char err[600];
    const char *uri = host_arm_uri(r, cfg);
    if (uri && host_uri_parse(uri, &u, err, sizeof(err)) == 0)
        snprintf(buf, len, "%s", u.label);
    else
        snprintf(buf, len, "local");
}

/* The hosts of a run's samples that belong to no one guest: its arm's
 * hosts, comma-separated. */
static void run_hosts_label(struct run *run, char *buf, size_t len)
{
    struct runner *r = run->r;
    const struct run_config *cfg = &run->sp->cfg;
    if (run->r->plan->arms[run->sp->arm].kind == ARM_HOST) {
        host_arm_label(r, cfg, buf, len);
        return;
    }
    size_t n = run_config_host_count(cfg), used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < (n ? n : 1) && (long long)i < cfg->guests; i++)
        used += (size_t)snprintf(buf + used, used < len ? len - used : 0, "%s%s", i ? "," : "",
                                 r->hosts.h[hostset_index(&r->hosts, cfg, i)].label);
}

/* Labels every sample of a run carries. */
static json_object *run_labels(struct run *run)
{
    const struct plan *p = run->r->plan;
    json_object *l = json_object_new_object();
    json_object_object_add(l, "scenario", json_object_new_string(p->scn->name));
    json_object_object_add(l, "run", json_object_new_string(run->runid));
    json_object_object_add(l, "seq", json_object_new_int((int)run->seq));
    json_object_object_add(l, "repeat", json_object_new_int64(run->repeat));
    json_object_object_add(l, "arm", json_object_new_string(run->arm));
    json_object_object_add(l, "arm_kind",
                           json_object_new_string(key_choice("arm", p->arms[run->sp->arm].kind)));
    json_object *vars = json_object_new_array();
    for (size_t v = 0; v < p->n_variants; v++)
        if (p->variants[v].spec_of_arm[run->sp->arm] == run->spec)
            json_object_array_add(vars, json_object_new_int((int)v + 1));
    json_object_object_add(l, "variants", vars);
    const char *accel = p->arms[run->sp->arm].kind == ARM_HOST ? "none"
                        : run->r->virt_type == VIRT_KVM     ? "kvm"
                                                            : "tcg";
    json_object_object_add(l, "accel", json_object_new_string(accel));
    return l;
}

static int execute_run(struct runner *r, size_t spec, long long repeat, double *headline)
{
    const struct plan *p = r->plan;
    struct run run = {.r = r, .spec = spec, .sp = &p->specs[spec], .repeat = repeat, .headline = -1};
    run.arm = p->arms[run.sp->arm].name;
    run.seq = ++r->seq;
    layout_runid(run.runid, sizeof(run.runid), r->session, run.seq);
    results_run_dir(r->res, run.seq, run.arm, NULL, run.dir, sizeof(run.dir));
    char rel[64];
    snprintf(rel, sizeof(rel), "runs/%03u-%s", run.seq, run.arm);
    run.meta_run = meta_add_run(r->meta, run.seq, run.runid, p, spec, repeat, rel);
    meta_write(r->meta);

    bool guest = p->arms[run.sp->arm].kind == ARM_GUEST;
    /* before the labels: they carry accel (the first guest's host decides) */
    if (guest) {
        run.guest_virt_type = xcalloc((size_t)run.sp->cfg.guests, sizeof(int));
        for (long long g = 1; g <= run.sp->cfg.guests; g++)
            run.guest_virt_type[g - 1] =
                virt_type_on(r, hostset_guest_host(&r->hosts, &run.sp->cfg, (int)g), &run.sp->cfg);
    } else {
        run.host_uri = host_arm_uri(r, &run.sp->cfg);
    }
    if (guest)
        log_info("run %s: arm %s (%lld guest%s), repeat %lld", run.runid, run.arm,
                 run.sp->cfg.guests, run.sp->cfg.guests == 1 ? "" : "s", repeat);
    else
        log_info("run %s: arm %s (bare host), repeat %lld", run.runid, run.arm, repeat);
    json_object *labels = run_labels(&run);
    samples_begin_run(r->samples, labels);
    json_object_put(labels);
    char hosts[KEY_HOSTS_MAX];
    run_hosts_label(&run, hosts, sizeof(hosts));
    samples_set_host(r->samples, 0, hosts);
    json_object_object_add(run.meta_run, "hosts", json_object_new_string(hosts));

    int rc = guest ? guestrun_execute(&run) : hostrun_execute(&run);

    /* what was measured stays, whatever happened after */
    samples_end_run(r->samples);
    const char *status = signals_interrupted() ? "interrupted" : rc == 0 ? "ok" : "failed";
    json_object_object_add(run.meta_run, "status", json_object_new_string(status));
    meta_write(r->meta);
    *headline = rc == 0 ? run.headline : -1;
    free(run.guest_virt_type);
    return rc;
}

/* summary.csv, and the table on stdout: what the run found, at a glance
 * (`vbed report` makes the plots and the html page). */
static void summarize(const struct results *res)
{
    const char *dir = res->dir;
    struct results_data *rd = results_read(dir);
    struct report *rep = rd ? report_build(rd) : NULL;
    if (rep) {
        report_write_summary_to(rep, res->dirfd, dir);
        printf("\n");
        report_print(rep, REPORT_TABLE, stdout);
        printf("\nraw logs, samples and summary.csv: %s\nplots and report.html: vbed report %s\n",
               dir, dir);
        fflush(stdout);
    }
    report_free(rep);
    results_data_free(rd);
}

/* repeats = auto: has spec's TPS settled? (the report's CV) */
static bool converged(const double *v, size_t n, long long cv_target)
{
    if (n < 3)
        return false;
    struct stats_summary st;
    stats_summarize(v, n, &st);
    return st.mean > 0 && 100.0 * st.cv <= (double)cv_target;
}

int runner_execute(const struct plan *p, const struct runner_opts *o)
{
    struct runner r = {.plan = p, .o = o};
    signals_install();
    int rc = setup(&r);
    if (rc != EXIT_OK)
        goto cleanup;

    /* the order of the runs within a repeat, seeded and recorded */
    const struct run_config *g = &p->global;
    unsigned long seed = g->order_seed >= 0 ? (unsigned long)g->order_seed : runorder_seed_from_clock();
    bool shuffle = g->order == ORDER_SHUFFLE;
    json_object *order = json_object_new_object();
    json_object_object_add(order, "mode", json_object_new_string(key_choice("order", g->order)));
    json_object_object_add(order, "seed", json_object_new_int64((int64_t)seed));
    meta_set(r.meta, NULL, "order", order);
    meta_write(r.meta);
    if (shuffle && p->n_specs > 1)
        log_info("runs go in a shuffled order within each repeat (order_seed = %lu)", seed);
    size_t *perm = xcalloc(p->n_specs, sizeof(size_t));
    /* the tables the guests will copy, loaded here once, whatever runs first */
    hostprepare_run(&r);

    bool autorep = p->global.repeats < 0;
    long long repeats = autorep ? p->global.repeats_max : p->global.repeats;
    double *tps = xcalloc(p->n_specs * (size_t)repeats, sizeof(double));
    size_t *ntps = xcalloc(p->n_specs, sizeof(size_t));
    bool *done = xcalloc(p->n_specs, sizeof(bool));
    for (long long rep = 1; rep <= repeats && !signals_interrupted(); rep++) {
        runorder_permute(p->n_specs, shuffle, seed, rep, perm);
        for (size_t k = 0; k < p->n_specs && !signals_interrupted(); k++) {
            size_t s = perm[k];
            if (done[s])
                continue;
            if (o->boot_only && p->arms[p->specs[s].arm].kind == ARM_HOST) {
                log_info("arm %s is a host arm; --boot-only starts guests only", p->arms[p->specs[s].arm].name);
                done[s] = true;
                continue;
            }
            double t = -1;
            if (execute_run(&r, s, rep, &t) < 0)
                r.failed_runs++;
            if (t >= 0)
                tps[s * (size_t)repeats + ntps[s]++] = t;
            if (autorep && converged(&tps[s * (size_t)repeats], ntps[s], p->global.cv_target)) {
                log_info("run %zu: TPS CV within %lld%% after %lld repeats", s + 1,
                         p->global.cv_target, rep);
                done[s] = true;
            }
        }
    }
    free(tps);
    free(ntps);
    free(done);
    free(perm);

    if (signals_interrupted()) {
        log_warn("interrupted by %s; everything the run started was stopped and removed; what was "
                 "measured is in %s",
                 signals_name(), r.res->dir);
        rc = signals_exit_code();
    } else if (r.failed_runs) {
        log_error("%d run%s failed; see %s", r.failed_runs, r.failed_runs == 1 ? "" : "s", r.res->dir);
        rc = EXIT_FAILED;
    }
cleanup:
    if (signals_interrupted() && rc == EXIT_OK)
        rc = signals_exit_code();
    if (r.meta)
        meta_set(r.meta, NULL, "vbed_cpu_measure_s", json_object_new_double(r.cpu_measure_s));
    if (r.meta)
        meta_finish(r.meta, signals_interrupted() ? "interrupted"
                            : rc == EXIT_OK         ? "complete"
                                                    : "failed");
    if (r.res && r.seq > 0 && !o->boot_only)
        summarize(r.res);
    meta_free(r.meta);
    samples_close(r.samples);
    hostset_close(&r.hosts); /* transient domains die with their connection */
    hostside_free(r.local);
    /* the copies this run's guests made were theirs alone (prepared.h) */
    if (r.img.dir[0]) {
        char prepared[PATH_MAX];
        path_join(prepared, sizeof(prepared), r.img.dir, "prepared");
        prepared_forget_private(prepared);
    }
    if (r.session_started)
        session_end(r.session);
    results_close(r.res);
    return rc;
}
