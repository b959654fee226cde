/* runner.c: execute a plan (see runner.h). */
#include "runner.h"

#include "configdisk.h"
#include "domain.h"
#include "exitcode.h"
#include "guest.h"
#include "hypervisor.h"
#include "image.h"
#include "layout.h"
#include "log.h"
#include "mycnf.h"
#include "paths.h"
#include "postmortem.h"
#include "progress.h"
#include "results.h"
#include "session.h"
#include "signals.h"
#include "storage.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

struct runner {
    const struct plan *plan;
    const struct runner_opts *o;
    struct hv *hv;
    struct storage *st;
    struct image_info img;
    struct image_layout im;
    struct results *res;
    char session[SESSION_ID_MAX];
    bool session_started;
    unsigned seq;
    int virt_type;          /* for virt_type = auto, decided once */
    bool virt_decided;
    int failed_runs;
};

static double cpu_seconds(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
           (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The domain type for a run: forced by virt_type, or decided once with a
 * KVM probe. Under TCG, say so loudly. */
static int virt_type_for(struct runner *r, const struct run_config *cfg)
{
    if (cfg->virt_type != VIRT_AUTO)
        return cfg->virt_type;
    if (!r->virt_decided) {
        const char *why = "";
        r->virt_type = hv_choose_virt_type(r->hv, VIRT_AUTO, r->im.kernel_path, &why);
        r->virt_decided = true;
        if (r->virt_type == VIRT_QEMU)
            log_warn("GUESTS RUN UNDER QEMU TCG (software emulation): %s. Their figures are not "
                     "comparable with KVM and every result records accel=tcg.",
                     why);
        else
            log_info("guests run under KVM (%s)", why);
    }
    return r->virt_type;
}

/* ---- one guest arm run ---- */

struct guest_run {
    struct runner *r;
    const struct plan_spec *sp;
    unsigned seq;
    char runid[32];
    char dir[PATH_MAX];
    struct guest *guests;
    size_t n;
    volatile int abort_all;
    struct progress *progress;
};

static void *wait_worker(void *arg)
{
    struct guest *g = arg;
    if (guest_wait_ready(g) < 0) {
        /* the other guests of the run need not finish booting */
        *g->abort_all = 1;
    }
    return NULL;
}

static int prepare_guests(struct guest_run *gr)
{
    struct runner *r = gr->r;
    const struct run_config *cfg = &gr->sp->cfg;
    const char *arm = r->plan->arms[gr->sp->arm].name;
    char *mycnf = mycnf_render(cfg);
    results_write(gr->dir, "my.cnf", mycnf);
    int vt = virt_type_for(r, cfg);
    int rc = 0;
    for (size_t i = 0; i < gr->n && rc == 0; i++) {
        struct guest *g = &gr->guests[i];
        char sub[32], gdir[PATH_MAX];
        snprintf(sub, sizeof(sub), "guest-%zu", i + 1);
        results_run_dir(r->res, gr->seq, arm, sub, gdir, sizeof(gdir));

        void *tar = NULL;
        size_t tar_len = 0;
        if (configdisk_build(cfg, g->lay.name, mycnf, &tar, &tar_len) < 0) {
            rc = -1;
            break;
        }
        rc = guest_make_disks(g, r->st, r->im.base_path, tar, tar_len);
        free(tar);
        if (rc < 0) {
            log_error("%s", g->error);
            break;
        }
        struct domain_spec spec;
        layout_domain_spec(&spec, &g->lay, &r->im, cfg, vt, r->img.cmdline);
        char *xml = domain_xml(&spec);
        if (!xml) {
            rc = -1;
            break;
        }
        results_write(gdir, "domain.xml", xml);
        /* start them one after another (each call returns in about a second),
         * then wait for all of them at once */
        rc = guest_start(g, r->hv, xml);
        free(xml);
        if (rc < 0)
            log_error("%s", g->error);
    }
    free(mycnf);
    return rc;
}

static int wait_guests(struct guest_run *gr)
{
    pthread_t *threads = calloc(gr->n, sizeof(pthread_t));
    if (!threads)
        abort();
    double cpu0 = cpu_seconds(), t0 = now();
    for (size_t i = 0; i < gr->n; i++)
        pthread_create(&threads[i], NULL, wait_worker, &gr->guests[i]);
    /* the main thread only redraws the progress lines */
    for (;;) {
        bool busy = false;
        for (size_t i = 0; i < gr->n; i++)
            if (gr->guests[i].phase != GP_READY && gr->guests[i].phase != GP_FAILED)
                busy = true;
        if (!busy)
            break;
        progress_tick(gr->progress);
        struct timespec ts = {0, 500 * 1000000L};
        nanosleep(&ts, NULL);
    }
    for (size_t i = 0; i < gr->n; i++)
        pthread_join(threads[i], NULL);
    free(threads);
    double cpu = cpu_seconds() - cpu0, wall = now() - t0;
    int rc = 0;
    for (size_t i = 0; i < gr->n; i++) {
        if (gr->guests[i].phase == GP_FAILED) {
            log_error("%s", gr->guests[i].error);
            rc = -1;
        }
    }
    log_info("run %s: vbed used %.2f s of CPU in %.0f s of waiting for %zu guest%s (%.2f%% of one "
             "core)",
             gr->runid, cpu, wall, gr->n, gr->n == 1 ? "" : "s", wall > 0 ? 100 * cpu / wall : 0);
    return rc;
}

static void report_ready(struct guest_run *gr)
{
    for (size_t i = 0; i < gr->n; i++) {
        const struct guest *g = &gr->guests[i];
        printf("%s: MariaDB %s ready %.1f s after start (agent %.1f s, setup %.1f s)\n", g->lay.name,
               g->version, g->t_ready, g->t_agent, g->t_setup);
    }
    fflush(stdout);
}

static void teardown_guests(struct guest_run *gr, bool failed)
{
    struct runner *r = gr->r;
    const char *arm = r->plan->arms[gr->sp->arm].name;
    for (size_t i = 0; i < gr->n; i++) {
        struct guest *g = &gr->guests[i];
        char sub[32], gdir[PATH_MAX];
        snprintf(sub, sizeof(sub), "guest-%zu", i + 1);
        results_run_dir(r->res, gr->seq, arm, sub, gdir, sizeof(gdir));
        hv_destroy(g->dom);
        g->dom = NULL;
        /* a guest that failed on its own: its journal tells why (local pools) */
        if (failed && g->phase == GP_FAILED && g->t_start > 0 && !signals_interrupted() &&
            !hv_get_info(r->hv)->remote && !strstr(g->error, "another guest"))
            postmortem_guest(g->lay.root_path, gdir);
        guest_teardown(g, r->st, gdir, r->o->keep);
    }
}

static int run_guest_arm(struct runner *r, const struct plan_spec *sp, unsigned seq)
{
    struct guest_run gr = {.r = r, .sp = sp, .seq = seq, .n = (size_t)sp->cfg.guests};
    const char *arm = r->plan->arms[sp->arm].name;
    layout_runid(gr.runid, sizeof(gr.runid), r->session, seq);
    results_run_dir(r->res, seq, arm, NULL, gr.dir, sizeof(gr.dir));

    gr.guests = calloc(gr.n, sizeof(struct guest));
    const char **names = calloc(gr.n, sizeof(char *));
    if (!gr.guests || !names)
        abort();
    for (size_t i = 0; i < gr.n; i++) {
        struct guest *g = &gr.guests[i];
        g->n = (int)i + 1;
        g->cfg = &sp->cfg;
        g->abort_all = &gr.abort_all;
        g->progress_line = i;
        layout_guest(&g->lay, storage_path(r->st), gr.runid, arm, g->n, &sp->cfg);
        names[i] = g->lay.name;
    }
    gr.progress = progress_new(gr.n, names);
    for (size_t i = 0; i < gr.n; i++)
        gr.guests[i].progress = gr.progress;

    int rc = prepare_guests(&gr);
    if (rc == 0)
        rc = wait_guests(&gr);
    progress_end(gr.progress);
    for (size_t i = 0; i < gr.n; i++)
        gr.guests[i].progress = NULL;
    if (rc == 0 && r->o->boot_only)
        report_ready(&gr);
    teardown_guests(&gr, rc < 0);
    free(names);
    free(gr.guests);
    return rc;
}

/* ---- the whole plan ---- */

static int setup(struct runner *r)
{
    const struct run_config *g = &r->plan->global;
    bool any_guest = false;
    for (size_t s = 0; s < r->plan->n_specs; s++)
        any_guest |= r->plan->arms[r->plan->specs[s].arm].kind == ARM_GUEST;

    r->res = results_create(r->o->results_root, r->plan->scn);
    if (!r->res)
        return EXIT_ENV;
    log_info("results: %s", r->res->dir);
    if (session_begin(r->o->session, r->session) < 0)
        return EXIT_ENV;
    r->session_started = true;
    if (!any_guest)
        return EXIT_OK;

    r->hv = hv_open(r->o->uri);
    if (!r->hv) {
        log_error("Start libvirt with scripts/start-daemons.sh, or choose another URI with -c.");
        return EXIT_ENV;
    }
    if (image_build(g->image, NULL, false, &r->img) < 0)
        return signals_interrupted() ? signals_exit_code() : EXIT_ENV;
    r->st = storage_open(r->hv, g->pool, g->pool_dir);
    if (!r->st || storage_ensure_image(r->st, &r->img, &r->im) < 0)
        return EXIT_ENV;
    return EXIT_OK;
}

int runner_execute(const struct plan *p, const struct runner_opts *o)
{
    struct runner r = {.plan = p, .o = o};
    signals_install();
    int rc = setup(&r);
    if (rc != EXIT_OK)
        goto cleanup;

    long long repeats = p->global.repeats < 0 ? p->global.repeats_max : p->global.repeats;
    for (long long rep = 1; rep <= repeats && !signals_interrupted(); rep++) {
        for (size_t s = 0; s < p->n_specs && !signals_interrupted(); s++) {
            const struct plan_spec *sp = &p->specs[s];
            const struct plan_arm *arm = &p->arms[sp->arm];
            unsigned seq = ++r.seq;
            if (arm->kind == ARM_HOST) {
                if (o->boot_only)
                    log_info("run %03u: arm %s is a host arm; --boot-only starts guests only", seq,
                             arm->name);
                continue;
            }
            log_info("run %03u: arm %s, %lld guest%s, repeat %lld", seq, arm->name, sp->cfg.guests,
                     sp->cfg.guests == 1 ? "" : "s", rep);
            if (run_guest_arm(&r, sp, seq) < 0)
                r.failed_runs++;
        }
    }
    if (signals_interrupted()) {
        log_warn("interrupted by %s; everything the run started was stopped and removed.",
                 signals_name());
        rc = signals_exit_code();
    } else if (r.failed_runs) {
        log_error("%d run%s failed; see %s", r.failed_runs, r.failed_runs == 1 ? "" : "s",
                  r.res->dir);
        rc = EXIT_FAILED;
    }
cleanup:
    if (signals_interrupted() && rc == EXIT_OK)
        rc = signals_exit_code();
    storage_close(r.st);
    hv_close(r.hv);
    if (r.session_started)
        session_end(r.session);
    results_close(r.res);
    return rc;
}
