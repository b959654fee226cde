/* predict.c: a tuned guest arm's TPS predicted from the untuned guest's
 * budget (see predict.h). */
#include "model/predict.h"

#include "model/model.h"
#include "model/speedfit.h"
#include "scenario/workingset.h"
#include "util/units.h"
#include "util/xalloc.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double miss(double pool, double ws)
{
    return ws > 0 && pool >= 0 ? fmax(0, 1 - pool / ws) : NAN;
}

/* seconds per request of a layer (its per-transaction wait / requests) */
static double per_request(const struct gap_layer_figures *l)
{
    return l->reads > 0 && isfinite(l->read_ms) ? l->read_ms / l->reads / 1000 : NAN;
}

/* A's configuration from its first counted run: buffer_pool (bytes, -1
 * auto), memory (bytes); -1 unknown */
static void config_of(const struct results_data *rd, const struct report_cell *c, long long *pool,
                      long long *memory)
{
    *pool = *memory = -2;
    const struct results_run *run = c->tps_stats.n ? results_find_run(rd, c->tps_seq[0]) : NULL;
    if (!run)
        return;
    const char *bp = results_run_config(run, "buffer_pool"), *mem = results_run_config(run, "memory");
    if (!strcmp(bp, "auto"))
        *pool = -1;
    else if (parse_size(bp, pool) < 0)
        *pool = -2;
    if (parse_size(mem, memory) < 0)
        *memory = -2;
}

static void no(struct prediction *p, const char *why)
{
    p->valid = false;
    snprintf(p->why, sizeof(p->why), "%s", why);
}

/* q_G - q_A: what the contention term saves (0 where contention is held) */
static double contention_saved(const struct prediction *p)
{
    return p->contention_scaled ? p->contention_g - p->contention_a : 0;
}

/* what A's O_DIRECT path adds to the chain's time per transaction, beyond
 * its reads' waits: x for each of its own misses where the background's
 * requests are priced as CPU (in the contention term), else x for every
 * miss; 0 off that path */
static double path_term(const struct prediction *p)
{
    if (!isfinite(p->path_cost))
        return 0;
    return (p->io_priced ? p->own_a : p->misses_a) * fmax(0, p->read_extra);
}

/* how much longer A's run made a transaction of G's than G's run did:
 * 1 + s x (u_A / u_G - 1); NAN where a speed or the share is unknown */
static double stretch(const struct prediction *p)
{
    if (!(p->unit_g_ms > 0) || !(p->unit_a_ms > 0))
        return NAN;
    /* fitted: TPS ~ gauge^e, a transaction's time ~ gauge^-e */
    if (p->speed_fitted)
        return pow(p->unit_a_ms / p->unit_g_ms, -p->elasticity);
    if (!isfinite(p->cpu_share))
        return NAN;
    return 1 + p->cpu_share * (p->unit_a_ms / p->unit_g_ms - 1);
}

/* A against G at one speed, where the run's repeats and gauges allow
 * (speedfit.h): the measured ratio A / G brought to one gauge reading
 * against the predicted ratio w_G / w_A. true where
 * fitted. */
static bool at_one_speed(const struct report *r, size_t v, const struct report_cell *cg,
                         const struct report_cell *ca, struct prediction *out)
{
    struct speed_fit f;
    struct speed_arm sa, sg;
    double log_ratio, half;
    /* calibrated on the other guest arms' runs: the arm judged is not in
     * the fit that judges it (out of sample) */
    speed_fit_variant_without(r, v, (int)(ca - r->variants[v].cells), &f);
    speed_arm_of(ca, &sa);
    speed_arm_of(cg, &sg);
    if (!speed_compare(&f, &sa, &sg, &log_ratio, &half) || !(cg->layers.w > 0) ||
        !(out->w_a > 0) || !(out->measured > 0)) {
        if (!f.valid && sa.n >= 2 && sg.n >= 2)
            snprintf(out->speed_why, sizeof(out->speed_why), "the fit without %s's runs: %s",
                     ca->arm->name, f.why);
        return false;
    }
    out->speed_fitted = true;
    out->speed_of_guests = false;
    out->speed_gauge = f.gauge;
    out->elasticity = f.slope;
    out->elasticity_half = f.slope_half;
    out->speed_runs = f.runs;
    out->speed_df = f.df;
    out->speed_half = half;
    out->unit_g_ms = exp(sg.x);
    out->unit_a_ms = exp(sa.x);
    /* the model's ratio: G's time per transaction over A's predicted one */
    double predicted_ratio = cg->layers.w / out->w_a;
    out->error_at_speed = 1 - predicted_ratio / exp(log_ratio);
    out->predicted_at_speed = out->measured * (1 - out->error_at_speed);
    return true;
}

/* the prediction at the machine's speed while A measured (predict.h) */
static void at_speed(const struct report *r, size_t v, const struct report_cell *cg,
                     const struct report_cell *ca, struct prediction *out, double k)
{
    const struct gap_arm *g = &cg->layers;
    /* CPU + contention = on-CPU + run queue, whatever p; client where known */
    double cpu = g->oncpu + g->runq + (isfinite(g->part[GAP_CLIENT]) ? g->part[GAP_CLIENT] : 0);
    out->cpu_share = g->w > 0 && isfinite(cpu) ? fmin(1, fmax(0, cpu / g->w)) : NAN;
    if (at_one_speed(r, v, cg, ca, out))
        return;
    /* the guests' own speed where both arms timed it: under emulation it
     * moves from run to run apart from the host's */
    out->speed_of_guests = cg->guest_speed_unit_ms > 0 && ca->guest_speed_unit_ms > 0;
    out->unit_g_ms = out->speed_of_guests ? cg->guest_speed_unit_ms : cg->speed_unit_ms;
    out->unit_a_ms = out->speed_of_guests ? ca->guest_speed_unit_ms : ca->speed_unit_ms;
    double w = out->w_a * stretch(out);
    if (!(w > 0))
        return;
    out->predicted_at_speed = k / w;
    if (isfinite(out->measured) && out->measured > 0)
        out->error_at_speed = (out->measured - out->predicted_at_speed) / out->measured;
}

/* what A's measured TPS says a miss saved was worth, and where A's
 * measured budget gave it back (predict.h) */
static void implied(struct prediction *out, const struct gap_arm *g, const struct gap_arm *a,
                    double R_g, double k)
{
    double w_g = g->w;
    double saved = out->own_g - out->own_a;
    if (!isfinite(out->miss_cost) || !(saved >= 1) || !(out->measured > 0))
        return;
    double w = k / out->measured, f = stretch(out);
    if (f > 0)
        w /= f;
    double rest = w_g - R_g + (out->reads_a > 0 ? out->reads_a * out->lat_a : 0) + path_term(out) -
                  contention_saved(out);
    out->implied_miss_cost = out->lat_g + (rest - w) / saved;
    out->saved_cpu = (gap_arm_part(g, GAP_CPU) - gap_arm_part(a, GAP_CPU)) / saved;
    out->saved_contention = (gap_arm_part(g, GAP_CONTENTION) - gap_arm_part(a, GAP_CONTENTION)) / saved;
    out->saved_other = (g->guest_other - a->guest_other) / saved;
    out->saved_contention_model = out->contention_scaled ? contention_saved(out) / saved : NAN;
}

/* q_A from G's tasks (predict.h); contention_scaled false where they were
 * not read. f: m_A / m_G. io_cpu_a (the background's device requests on
 * A's O_DIRECT path) goes into O_A. */
static void contention(struct prediction *out, const struct gap_arm *g, double f)
{
    out->contention_g = out->contention_a = gap_arm_part(g, GAP_CONTENTION);
    out->others_g = g->guest_other;
    out->background_g = g->tasks[GAP_TASK_PAGE_CLEANER] + g->tasks[GAP_TASK_INNODB_POOL] +
                        g->tasks[GAP_TASK_MARIADBD_OTHER];
    out->client_g = g->client_cpu;
    out->others_a = out->others_g - out->background_g * (1 - f) +
                    (out->io_priced ? out->io_cpu_a : 0);
    double base = out->others_g + out->client_g;
    out->contention_scaled = isfinite(out->contention_g) && isfinite(out->background_g) &&
                             isfinite(out->others_a) && base > 0 && out->others_a >= 0 &&
                             isfinite(f);
    if (out->contention_scaled)
        out->contention_a = out->contention_g * (out->others_a + out->client_g) / base;
}

/* What the model leaves alone: a tuned arm may differ from G in its pool,
 * its disk's cache mode, I/O mode and format and its flush method; an arm
 * that also differs in one of the keys below (a filesystem, tmpfs, a
 * commit setting, the workload) does other work than G's budget describes. */
static const char *const uncovered_keys[] = {
    "workload", "tables", "table_size", "threads", "rand_type", "compression", "key_block_size",
    "filesystem", "layout", "data_disks", "doublewrite", "flush_log_at_trx_commit",
    "log_file_size", "performance_schema", "memory", "vcpus", "virt_type", "image", NULL};

/* The first such key in which the first runs of cells ca and cg differ, its
 * values in a and g; NULL when none does (or a run is not known). */
static const char *uncovered_difference(const struct report *r, const struct report_cell *ca,
                                        const struct report_cell *cg, const char **a,
                                        const char **g)
{
    if (!ca->tps_stats.n || !cg->tps_stats.n || !ca->tps_seq || !cg->tps_seq)
        return NULL;
    const struct results_run *ra = results_find_run(r->rd, ca->tps_seq[0]);
    const struct results_run *rg = results_find_run(r->rd, cg->tps_seq[0]);
    if (!ra || !rg)
        return NULL;
    for (size_t i = 0; uncovered_keys[i]; i++) {
        *a = results_run_config(ra, uncovered_keys[i]);
        *g = results_run_config(rg, uncovered_keys[i]);
        if (strcmp(*a, *g) != 0)
            return uncovered_keys[i];
    }
    return NULL;
}

/* The prediction up to its predicted TPS (no CI, no verdict). */
static void predict_core(const struct report *r, size_t v, size_t arm, struct prediction *out)
{
    memset(out, 0, sizeof(*out));
    out->unit_g_ms = out->unit_a_ms = out->cpu_share = NAN;
    out->predicted_at_speed = out->error_at_speed = out->implied_miss_cost = NAN;
    out->null_error = out->null_error_at_speed = out->tolerance = NAN;
    out->lat_a_reads = out->lat_a_res = out->gain_rel = NAN;
    out->elasticity = out->elasticity_half = out->speed_half = out->speed_df = NAN;
    out->saved_cpu = out->saved_contention = out->saved_other = out->saved_contention_model = NAN;
    out->contention_g = out->contention_a = out->others_g = out->others_a = NAN;
    out->background_g = out->client_g = out->own_g = out->own_a = NAN;
    out->writes_g = out->writes_a = out->bg_reads_a = out->io_cpu_a = NAN;
    out->read_cpu_extra = out->write_cpu_extra = NAN;
    out->from = r->first_guest_arm;
    const struct report_cell *cells = r->variants[v].cells;
    const struct report_cell *ca = &cells[arm];
    const struct gap_arm *a = &ca->layers;
    if (!a->guest || r->first_guest_arm < 0 || (int)arm == r->first_guest_arm)
        return no(out, "not a tuned guest arm");
    const struct report_cell *cg = &cells[r->first_guest_arm];
    const struct gap_arm *g = &cg->layers;
    if (ca->guests != cg->guests || ca->guests <= 0) {
        snprintf(out->why, sizeof(out->why),
                 "it runs %d guest%s, the untuned guest arm %d: their CPU and contention do not "
                 "carry over",
                 ca->guests, ca->guests == 1 ? "" : "s", cg->guests);
        return;
    }
    const char *va, *vg, *key = uncovered_difference(r, ca, cg, &va, &vg);
    if (key) {
        snprintf(out->why, sizeof(out->why),
                 "it differs in %s (%.32s against %.32s), which the model does not cover", key,
                 va, vg);
        return;
    }
    out->measured = ca->tps_stats.n ? ca->per_guest_stats.mean : NAN;
    out->measured_ci = ca->per_guest_stats.n > 1 ? ca->per_guest_stats.ci95_half : 0;
    /* the untuned guest's figures */
    double w = g->w, k = g->threads > 0 ? g->threads : NAN;
    out->reads_g = isfinite(g->reads_per_tx) ? g->reads_per_tx : g->layer[GAP_LAYER_INNODB].reads;
    double R = g->read_wait;
    out->working_set = g->ws_bytes;
    out->pool_g = g->bp_bytes;
    if (!isfinite(w) || !isfinite(k) || !isfinite(R) || !(out->reads_g >= 0) ||
        !(out->working_set > 0) || !(out->pool_g > 0))
        return no(out, "the untuned guest's budget lacks a figure (its reads, their time, its "
                       "working set or pool)");
    out->lat_g = out->reads_g > 0 ? R / out->reads_g : 0;
    /* A's pool */
    long long pool, memory;
    config_of(r->rd, ca, &pool, &memory);
    out->pool_auto = pool == -1;
    if (pool == -1) {
        if (memory < 0 || !isfinite(g->overhead_bytes))
            return no(out, "buffer_pool = auto, but the untuned guest's memory outside the pool "
                           "is not known");
        struct ws_pool wp;
        ws_pool_auto(memory, (long long)g->overhead_bytes, (long long)k, &wp);
        out->pool_a = (double)wp.pool;
    } else if (pool >= 0) {
        out->pool_a = (double)pool;
    } else {
        return no(out, "its buffer_pool is not known");
    }
    double mg = miss(out->pool_g, out->working_set), ma = miss(out->pool_a, out->working_set);
    out->reads_a = mg > 0 ? out->reads_g * ma / mg : ma == 0 ? 0 : NAN;
    if (!isfinite(out->reads_a))
        return no(out, "the untuned guest's data fits its pool: its misses say nothing");
    /* a read's latency on A's path */
    const struct gap_layer_figures *L = g->layer;
    double gb = per_request(&L[GAP_LAYER_GUEST]), q = per_request(&L[GAP_LAYER_QEMU]), dev = 0;
    if (!a->direct) {
        out->path = "guest page cache";
        out->lat_a = out->lat_g;
    } else if (!a->cache_none) {
        out->path = "host page cache";
        out->lat_a = gb;
    } else {
        out->path = "device";
        const struct gap_arm *d = g;
        dev = per_request(&L[GAP_LAYER_HOST]);
        if (!isfinite(dev) && r->host_arm >= 0) {
            d = &cells[r->host_arm].layers;
            dev = per_request(&d->layer[GAP_LAYER_HOST]);
        }
        out->lat_a = dev + (isfinite(gb) && isfinite(q) ? fmax(0, gb - q) : 0);
        /* what it rests on: the reads that reached the device (often a few
         * stray ones: the untuned guest's data sat in its page cache), and
         * diskstats' whole ms per target's two readings over them */
        out->lat_a_reads = d->sum_host_reads;
        out->lat_a_res = d->sum_host_reads > 0 ? 0.001 * (double)d->targets / d->sum_host_reads : NAN;
    }
    if (out->reads_a > 0 && !isfinite(out->lat_a))
        return no(out, "no read latency was measured on its path");
    /* what the misses cost beyond their wait goes with them: measured (the
     * miss-cost probe), else only their decompressions */
    out->misses_g = L[GAP_LAYER_INNODB].reads;
    out->miss_cost = g->miss_cost;
    out->decomp_g = g->uncmp;
    out->read_extra = g->read_extra;
    out->path_cost = NAN;
    double saved;
    if (isfinite(out->miss_cost) && isfinite(out->misses_g)) {
        out->misses_a = out->misses_g * ma / mg;
        /* the chain pays only its own misses (predict.h) */
        out->own_g = fmin(out->reads_g, out->misses_g);
        out->own_a = out->own_g * ma / mg;
        saved = (out->own_g - out->own_a) * fmax(0, out->miss_cost - out->lat_g);
        out->decomp_a = NAN;
        /* O_DIRECT: every miss (a background read-ahead's too: one vCPU)
         * goes through the virtual disk, which the read probe priced in G;
         * a foreground read waits, beyond that, for the device under
         * cache=none only (the host page cache's copy is in the probe) */
        if (a->direct && isfinite(out->read_extra) && isfinite(dev)) {
            out->lat_a = a->cache_none ? dev : 0;
            out->path_cost = out->miss_cost - out->lat_g + fmax(0, out->read_extra) + out->lat_a;
            /* the background's misses and page writes become requests
             * through the virtual disk too: CPU of the guest's other tasks
             * (the I/O probe's), which the contention term carries */
            out->writes_g = L[GAP_LAYER_INNODB].writes;
            /* the guest's own clock (fio's thread: the vCPU time a request
             * takes, what competes with the chain on its vCPU); the host's
             * (the QEMU process whole, whose emulator and I/O threads run
             * on another host CPU) only where the guest's is unknown */
            out->io_host = !(isfinite(g->read_cpu_extra) && isfinite(g->write_cpu_extra)) &&
                           isfinite(g->read_host_extra) && isfinite(g->write_host_extra);
            double yr = out->io_host ? g->read_host_extra : g->read_cpu_extra;
            double yw = out->io_host ? g->write_host_extra : g->write_cpu_extra;
            if (isfinite(yr) && isfinite(yw) && isfinite(out->writes_g) && out->writes_g >= 0) {
                out->read_cpu_extra = fmax(0, yr);
                out->write_cpu_extra = fmax(0, yw);
                out->bg_reads_a = fmax(0, out->misses_a - out->own_a);
                out->writes_a = out->writes_g * ma / mg;
                out->io_cpu_a =
                    out->bg_reads_a * out->read_cpu_extra + out->writes_a * out->write_cpu_extra;
                out->io_priced = true;
            }
        }
    } else {
        if (!isfinite(out->decomp_g))
            return no(out, "neither the untuned guest's miss cost (the probe) nor its "
                           "decompression time (INNODB_CMP) is known");
        out->miss_cost = out->misses_a = out->own_g = out->own_a = NAN;
        out->decomp_a = out->decomp_g * ma / mg;
        saved = out->decomp_g - out->decomp_a;
    }
    contention(out, g, mg > 0 ? ma / mg : 1);
    /* without the tasks probe there is no contention term to carry the
     * background's requests: every miss pays x in the chain, as before */
    if (out->io_priced && !out->contention_scaled)
        out->io_priced = false;
    out->w_a = w - R + (out->reads_a > 0 ? out->reads_a * out->lat_a : 0) - saved + path_term(out) -
               contention_saved(out);
    if (!(out->w_a > 0))
        return no(out, "the predicted time per transaction is not positive");
    out->predicted = k / out->w_a;
    /* the inputs' uncertainty, propagated: the device latency's resolution
     * over the reads it rests on (a TPS is k / w_a: relative errors equal) */
    out->input_rel = isfinite(out->lat_a_res) && out->reads_a > 0
                         ? out->reads_a * out->lat_a_res / out->w_a : 0;
    out->valid = true;
}

/* A copy of r in which the untuned guest arm of variant v lacks its run
 * seq: its budget, all predict_core reads of it (its TPS is not read);
 * undo with replicate_free. */
static void replicate(const struct report *r, size_t v, int seq, struct report *r2)
{
    size_t nv = r->rd->n_variants, na = r->rd->n_arms;
    *r2 = *r;
    r2->variants = xcalloc(nv, sizeof(*r2->variants));
    memcpy(r2->variants, r->variants, nv * sizeof(*r2->variants));
    struct report_cell *cells = xcalloc(na, sizeof(*cells));
    memcpy(cells, r->variants[v].cells, na * sizeof(*cells));
    r2->variants[v].cells = cells;
    struct report_cell *g = &cells[r->first_guest_arm];
    gap_measure_arm_without(r->rd, r->variants[v].variant->index, g->arm, seq, &g->layers);
}

static void replicate_free(struct report *r2, size_t v)
{
    free(r2->variants[v].cells);
    free(r2->variants);
}

/* The gain's jackknife over the untuned guest's runs (gain_rel) */
static void jackknife(const struct report *r, size_t v, size_t arm, struct prediction *out)
{
    const struct report_cell *cg = &r->variants[v].cells[r->first_guest_arm];
    size_t n = cg->tps_stats.n;
    out->gain_runs = (int)n;
    if (n < 3 || !(out->w_a > 0))
        return;
    double *gain = xcalloc(n, sizeof(double)), sum = 0;
    for (size_t i = 0; i < n; i++) {
        struct report r2;
        replicate(r, v, cg->tps_seq[i], &r2);
        struct prediction p;
        predict_core(&r2, v, arm, &p);
        gain[i] = p.valid && p.w_a > 0 ? r2.variants[v].cells[r->first_guest_arm].layers.w / p.w_a : NAN;
        replicate_free(&r2, v);
        if (!isfinite(gain[i])) {
            free(gain);
            return; /* a replicate without a prediction: no spread to give */
        }
        sum += gain[i];
    }
    double mean = sum / (double)n, ss = 0;
    for (size_t i = 0; i < n; i++)
        ss += (gain[i] - mean) * (gain[i] - mean);
    free(gain);
    double se = sqrt((double)(n - 1) / (double)n * ss);
    double full = cg->layers.w / out->w_a;
    out->gain_rel = full > 0 ? gsl_cdf_tdist_Pinv(0.975, (double)(n - 1)) * se / full : NAN;
}

/* the predicted side's CI and the verdict against the measurement */
static void judge(const struct report *r, size_t v, size_t arm, struct prediction *out)
{
    const struct report_cell *cells = r->variants[v].cells;
    const struct report_cell *ca = &cells[arm], *cg = &cells[r->first_guest_arm];
    const struct gap_arm *a = &ca->layers, *g = &cg->layers;
    double w = g->w, k = g->threads, R = g->read_wait;
    double rel_g = cg->per_guest_stats.n > 1 && cg->per_guest_stats.mean > 0
                       ? cg->per_guest_stats.ci95_half / cg->per_guest_stats.mean
                       : 0;
    double gain = isfinite(out->gain_rel) ? out->gain_rel : 0;
    out->predicted_ci = out->predicted * sqrt(rel_g * rel_g + out->input_rel * out->input_rel + gain * gain);
    if (isfinite(out->measured) && out->measured > 0) {
        at_speed(r, v, cg, ca, out, k);
        implied(out, g, a, R, k);
        out->error = (out->measured - out->predicted) / out->measured;
        /* the null model: the tuning changes nothing, A measures G's TPS */
        double g_tps = cg->per_guest_stats.mean;
        out->null_error = g_tps > 0 ? (out->measured - g_tps) / out->measured : NAN;
        /* tolerance: the 95 % half-width of the difference itself (the
         * measured and the predicted TPS's relative 95 % half-widths in
         * quadrature) -- not twice it, no floor */
        double ra = out->measured_ci / out->measured, rg = out->predicted_ci / out->predicted;
        out->tolerance = sqrt(ra * ra + rg * rg);
        /* at one speed where fitted: the machine's moves taken out of both
         * the error and its spread; the null model at one speed predicts
         * a ratio of 1 where the measured one is exp(L) */
        double err = out->error, null_err = out->null_error;
        if (out->speed_fitted) {
            out->tolerance = sqrt(out->speed_half * out->speed_half + out->input_rel * out->input_rel +
                                  gain * gain);
            err = out->error_at_speed;
            double ratio = out->w_a > 0 && isfinite(err) ? (w / out->w_a) / (1 - err) : NAN;
            out->null_error_at_speed = ratio > 0 ? 1 - 1 / ratio : NAN;
            null_err = out->null_error_at_speed;
        }
        out->single_repeat = ca->per_guest_stats.n < 2 || cg->per_guest_stats.n < 2;
        out->judged = !out->single_repeat && out->tolerance <= PREDICT_JUDGE_MAX;
        bool within = fabs(err) <= out->tolerance;
        /* the model agrees only where "no change" does not fit as well */
        out->cannot_tell = out->judged && within && fabs(null_err) <= out->tolerance;
        out->agrees = out->judged && within && !out->cannot_tell;
    } else {
        out->error = out->tolerance = out->null_error = NAN;
    }
}

void predict_arm(const struct report *r, size_t v, size_t arm, struct prediction *out)
{
    predict_core(r, v, arm, out);
    if (!out->valid)
        return;
    jackknife(r, v, arm, out);
    judge(r, v, arm, out);
}
