/* format_json.c: the report as one json document: the run's context and
 * rules, per variant each arm's cell (TPS with its values and runs, per
 * guest, ratios, conditions, figures; with per-layer counters its layers
 * and gap), the ratios, the scaling and the notes. Numbers go out in
 * report_number()'s form; a figure that is not known is null. */
#include "report/format.h"
#include "model/predict.h"
#include "model/speedfit.h"
#include "report/report.h"

#include <json-c/json.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>

static struct json_object *jnum(double v)
{
    char buf[32];
    if (isnan(v) || isinf(v))
        return NULL;
    return json_object_new_double_s(v, report_number(buf, sizeof(buf), v));
}

/* a string, null when empty (not known) */
static struct json_object *jstr(const char *s) { return *s ? json_object_new_string(s) : NULL; }

static struct json_object *jcell(const struct report_cell *c)
{
    const struct stats_summary *s = &c->tps_stats;
    bool any = s->n > 0, spread = s->n >= 2;
    struct json_object *o = json_object_new_object(), *tps = json_object_new_object(),
                       *values = json_object_new_array(), *runs = json_object_new_array();
    json_object_object_add(o, "name", json_object_new_string(c->arm->name));
    json_object_object_add(o, "kind", json_object_new_string(c->arm->kind));
    json_object_object_add(o, "guests", json_object_new_int(c->guests));
    json_object_object_add(tps, "n", json_object_new_int64((int64_t)s->n));
    json_object_object_add(tps, "mean", jnum(any ? s->mean : NAN));
    json_object_object_add(tps, "sd", jnum(spread ? s->sd : NAN));
    json_object_object_add(tps, "ci95_low", jnum(spread ? s->ci95_low : NAN));
    json_object_object_add(tps, "ci95_high", jnum(spread ? s->ci95_high : NAN));
    json_object_object_add(tps, "ci95_half", jnum(spread ? s->ci95_half : NAN));
    json_object_object_add(tps, "cv", jnum(spread ? s->cv : NAN));
    for (size_t i = 0; i < s->n; i++) {
        json_object_array_add(values, jnum(c->tps[i]));
        json_object_array_add(runs, json_object_new_int(c->tps_seq[i]));
    }
    json_object_object_add(tps, "values", values);
    json_object_object_add(tps, "runs", runs);
    json_object_object_add(tps, "unit", jstr(c->unit)); /* tx/s, or MB/s for raw I/O */
    json_object_object_add(o, "tps", tps);
    struct json_object *pg = json_object_new_object(), *pgv = json_object_new_array();
    const struct stats_summary *p = &c->per_guest_stats;
    json_object_object_add(pg, "mean", jnum(any ? p->mean : NAN));
    json_object_object_add(pg, "ci95_half", jnum(spread ? p->ci95_half : NAN));
    for (size_t i = 0; i < s->n; i++)
        json_object_array_add(pgv, jnum(c->per_guest[i]));
    json_object_object_add(pg, "values", pgv);
    json_object_object_add(o, "tps_per_guest", pg);
    json_object_object_add(o, "ratio_vs_host", jnum(c->ratio_host));
    json_object_object_add(o, "ratio_vs_host_basis", jstr(basis_name(c->ratio_host,
                                                                      c->ratio_host_per_guest)));
    json_object_object_add(o, "ratio_vs_first_guest", jnum(c->ratio_first_guest));
    json_object_object_add(o, "ratio_vs_first_guest_basis",
                           jstr(basis_name(c->ratio_first_guest, c->ratio_first_guest_per_guest)));
    json_object_object_add(o, "consolidation_efficiency", jnum(c->efficiency));
    json_object_object_add(o, "runs_drifted", json_object_new_int(c->runs_drifted));
    json_object_object_add(o, "fits", jstr(c->fits));
    json_object_object_add(o, "fits_basis", jstr(c->fits_basis));
    json_object_object_add(o, "working_set_bytes", jnum(c->working_set_bytes));
    json_object_object_add(o, "buffer_pool_bytes", jnum(c->buffer_pool_bytes));
    json_object_object_add(o, "warmup_s", jnum(c->warmup_s));
    json_object_object_add(o, "warmup_mode", jstr(c->warmup_mode));
    json_object_object_add(o, "warmup_not_steady", json_object_new_int(c->warmup_not_steady));
    json_object_object_add(o, "runs_not_shown_steady", json_object_new_int(c->runs_unshown));
    json_object_object_add(o, "host_steal_pct_max", jnum(c->host_steal_max));
    json_object_object_add(o, "host_other_cpu_pct_max", jnum(c->host_other_max));
    json_object_object_add(o, "guest_steal_pct_max", jnum(c->guest_steal_max));
    json_object_object_add(o, "noise", json_object_new_string(report_noise_verdict(c)));
    json_object_object_add(o, "noisy_runs", json_object_new_int(c->noisy_runs));
    json_object_object_add(o, "pin", jstr(c->pin));
    json_object_object_add(o, "host_speed_unit_ms", jnum(c->speed_unit_ms));
    json_object_object_add(o, "guest_speed_unit_ms", jnum(c->guest_speed_unit_ms));
    json_object *ps = NULL;
    if (c->ps_on_off.n) {
        ps = json_object_new_object();
        json_object_object_add(ps, "mean", jnum(c->ps_on_off.mean));
        json_object_object_add(ps, "ci95_half", jnum(c->ps_on_off.ci95_half));
        json_object_object_add(ps, "pairs", json_object_new_int64((int64_t)c->ps_on_off.n));
    }
    json_object_object_add(o, "ps_instruments_on_off", ps);
    json_object_object_add(o, "cpu_speed_index", jnum(c->speed_index));
    json_object_object_add(o, "compression_ratio", jnum(c->compression_ratio));
    json_object_object_add(o, "bp_hit_ratio", jnum(c->bp_hit_ratio));
    json_object_object_add(o, "host_cache_data_bytes_after", jnum(c->host_cache_after_bytes));
    json_object_object_add(o, "latency_p95_ms", jnum(c->latency_p95_ms));
    json_object_object_add(o, "drift_flagged", json_object_new_int(c->drifting));
    json_object_object_add(o, "drift_checked", json_object_new_int(c->drift_samples));
    json_object_object_add(o, "measure_start_skew_max_s", jnum(c->skew_max_s));
    return o;
}

/* ms per transaction */
static struct json_object *jms(double seconds) { return jnum(1000 * seconds); }

static struct json_object *jlayers(const struct gap_arm *g)
{
    static const char *const keys[] = {"innodb", "guest", "qemu", "host_device"};
    struct json_object *o = json_object_new_object(), *rows = json_object_new_array();
    json_object_object_add(o, "targets", json_object_new_int64((int64_t)g->targets));
    json_object_object_add(o, "budgets", json_object_new_int64((int64_t)g->budgets));
    json_object_object_add(o, "thread_ms_per_tx", jms(g->w));
    json_object_object_add(o, "thread_ms_ci95", jms(g->w_ci));
    struct json_object *parts = json_object_new_object();
    for (int p = 0; p < GAP_PARTS; p++) {
        struct json_object *jp = json_object_new_object();
        json_object_object_add(jp, "ms_per_tx", jms(g->part[p]));
        json_object_object_add(jp, "ci95_ms", jms(g->ci[p]));
        json_object_object_add(parts, gap_part_key(p), jp);
    }
    json_object_object_add(o, "parts", parts);
    json_object_object_add(o, "compression_cpu_ms_per_tx", jms(g->cmp));
    json_object_object_add(o, "compression_cpu_ci95_ms", jms(g->cmp_ci));
    json_object_object_add(o, "compression_cpu_in_cpu", json_object_new_boolean(g->cmp_in_cpu));
    json_object_object_add(o, "client_cpu_ms_per_tx", jms(g->client_cpu));
    json_object_object_add(o, "other_ms_per_tx", jms(gap_other(g)));
    json_object_object_add(o, "other_ci95_ms", jms(g->other_ci));
    json_object_object_add(o, "other_share", jnum(gap_other_share(g)));
    json_object_object_add(o, "closes", isfinite(gap_other(g)) ? json_object_new_boolean(g->closes) : NULL);
    /* what a closed budget also checked: sysbench's transactions against
     * the server's, the thread's states against their interval */
    json_object_object_add(o, "tps_check",
                           g->tps_check == GAP_TPS_COUNT  ? json_object_new_string("count")
                           : g->tps_check == GAP_TPS_RATE ? json_object_new_string("rate")
                                                          : NULL);
    json_object_object_add(o, "tps_difference", jnum(g->tps_diff));
    json_object_object_add(o, "states_over_interval", jnum(g->states_over));
    json_object_object_add(o, "miss_cost_ms", jms(g->miss_cost));
    struct json_object *states = json_object_new_object();
    json_object_object_add(states, "on_cpu_ms_per_tx", jms(g->oncpu));
    json_object_object_add(states, "run_queue_ms_per_tx", jms(g->runq));
    json_object_object_add(states, "block_io_ms_per_tx", jms(g->io));
    json_object_object_add(states, "statement_ms_per_tx", jms(g->stmt));
    json_object_object_add(states, "vcpu_preempted_share", jnum(g->preempt));
    json_object_object_add(states, "read_wait_ms_per_tx", jms(g->read_wait));
    json_object_object_add(states, "commit_stage_ms_per_tx", jms(g->commit_wait));
    json_object_object_add(states, "reads_per_tx", jnum(g->reads_per_tx));
    json_object_object_add(o, "states", states);
    char budget[1024];
    gap_budget_sentence(g, "the arm", budget, sizeof(budget));
    json_object_object_add(o, "budget_text", jstr(budget));
    json_object_object_add(o, "copies", jnum(g->copies));
    if (g->guest) {
        struct json_object *tasks = json_object_new_object();
        for (int k = 0; k < GAP_TASKS; k++)
            json_object_object_add(tasks, gap_task_key(k), jms(g->tasks[k]));
        json_object_object_add(o, "guest_cpu_by_task_ms_per_tx", tasks);
    }
    for (int l = 0; l < GAP_LAYERS; l++) {
        if (!arm_has_layer(g, l))
            continue;
        const struct gap_layer_figures *f = &g->layer[l];
        struct json_object *jl = json_object_new_object();
        json_object_object_add(jl, "layer", json_object_new_string(keys[l]));
        json_object_object_add(jl, "reads_per_tx", jnum(f->reads));
        json_object_object_add(jl, "writes_per_tx", jnum(f->writes));
        json_object_object_add(jl, "flushes_per_tx", jnum(f->flushes));
        json_object_object_add(jl, "read_wait_ms_per_tx", jnum(f->read_ms));
        json_object_object_add(jl, "write_wait_ms_per_tx", jnum(f->write_ms));
        json_object_object_add(jl, "cache_above", jstr(gap_layer_cache(l)));
        json_object_object_add(jl, "hit_ratio", jnum(f->hit));
        json_object_array_add(rows, jl);
    }
    json_object_object_add(o, "per_layer", rows);
    json_object_object_add(o, "hypervisor_fields", jstr(g->hypervisor_fields));
    char text[1024];
    gap_problems_text(g, text, sizeof(text));
    json_object_object_add(o, "problems", jstr(text));
    return o;
}

static struct json_object *jpart(const struct gap_split *s, double seconds, double ci)
{
    struct json_object *o = json_object_new_object();
    json_object_object_add(o, "ms_per_tx", jms(seconds));
    json_object_object_add(o, "ci95_ms", jms(ci));
    json_object_object_add(o, "points", jnum(gap_points(s, seconds)));
    json_object_object_add(o, "ci95_points", jnum(fabs(gap_points(s, ci))));
    return o;
}

/* a tuned guest arm's predicted TPS (predict.h), null when none applies */
static struct json_object *jprediction(const struct report *r, size_t v, size_t a)
{
    struct prediction p;
    predict_arm(r, v, a, &p);
    if (!r->variants[v].cells[a].layers.guest || (int)a == r->first_guest_arm)
        return NULL;
    struct json_object *o = json_object_new_object();
    json_object_object_add(o, "valid", json_object_new_boolean(p.valid));
    if (!p.valid) {
        json_object_object_add(o, "why", jstr(p.why));
        return o;
    }
    json_object_object_add(o, "from", jstr(r->rd->arms[p.from].name));
    json_object_object_add(o, "pool_bytes", jnum(p.pool_a));
    json_object_object_add(o, "pool_auto", json_object_new_boolean(p.pool_auto));
    json_object_object_add(o, "reads_per_tx", jnum(p.reads_a));
    json_object_object_add(o, "read_path", jstr(p.path));
    json_object_object_add(o, "read_latency_ms", jms(p.lat_a));
    json_object_object_add(o, "read_latency_resolution_ms", jms(p.lat_a_res));
    json_object_object_add(o, "read_latency_device_reads", jnum(p.lat_a_reads));
    json_object_object_add(o, "inputs_ci95_rel", jnum(p.input_rel));
    json_object_object_add(o, "gain_jackknife_ci95_rel", jnum(p.gain_rel));
    json_object_object_add(o, "gain_jackknife_runs", json_object_new_int(p.gain_runs));
    json_object_object_add(o, "misses_per_tx", jnum(p.misses_a));
    json_object_object_add(o, "untuned_misses_per_tx", jnum(p.misses_g));
    json_object_object_add(o, "own_misses_per_tx", jnum(p.own_a));
    json_object_object_add(o, "untuned_own_misses_per_tx", jnum(p.own_g));
    json_object_object_add(o, "untuned_miss_cost_ms", jms(p.miss_cost));
    json_object_object_add(o, "untuned_direct_read_extra_ms", jms(p.read_extra));
    json_object_object_add(o, "path_miss_cost_ms", jms(p.path_cost));
    json_object_object_add(o, "untuned_direct_read_cpu_extra_ms", jms(p.read_cpu_extra));
    json_object_object_add(o, "untuned_direct_write_cpu_extra_ms", jms(p.write_cpu_extra));
    json_object_object_add(o, "background_reads_per_tx", jnum(p.bg_reads_a));
    json_object_object_add(o, "page_writes_per_tx", jnum(p.writes_a));
    json_object_object_add(o, "background_io_cpu_ms_per_tx", jms(p.io_cpu_a));
    json_object_object_add(o, "background_io_clock",
                           jstr(!p.io_priced ? "" : p.io_host ? "host" : "fio"));
    json_object_object_add(o, "decompression_ms_per_tx", jms(p.decomp_a));
    json_object_object_add(o, "untuned_decompression_ms_per_tx", jms(p.decomp_g));
    json_object_object_add(o, "thread_ms_per_tx", jms(p.w_a));
    json_object_object_add(o, "predicted_tps_per_guest", jnum(p.predicted));
    json_object_object_add(o, "measured_tps_per_guest", jnum(p.measured));
    json_object_object_add(o, "measured_ci95_half", jnum(p.measured_ci));
    json_object_object_add(o, "predicted_ci95_half", jnum(p.predicted_ci));
    json_object_object_add(o, "error", jnum(p.error));
    json_object_object_add(o, "speed_of", jstr(p.speed_of_guests ? "guests" : "host"));
    json_object_object_add(o, "untuned_speed_unit_ms", jnum(p.unit_g_ms));
    json_object_object_add(o, "speed_unit_ms", jnum(p.unit_a_ms));
    json_object_object_add(o, "untuned_cpu_share", jnum(p.cpu_share));
    json_object_object_add(o, "predicted_at_speed_tps_per_guest", jnum(p.predicted_at_speed));
    json_object_object_add(o, "error_at_speed", jnum(p.error_at_speed));
    /* the verdict at one speed (speedfit.h), null where not fitted */
    json_object_object_add(o, "speed_fitted", json_object_new_boolean(p.speed_fitted));
    json_object_object_add(o, "speed_not_fitted_why", jstr(p.speed_why));
    json_object_object_add(o, "speed_gauge", p.speed_fitted ? jstr(p.speed_gauge) : NULL);
    json_object_object_add(o, "speed_elasticity", jnum(p.elasticity));
    json_object_object_add(o, "speed_elasticity_ci95_half", jnum(p.elasticity_half));
    json_object_object_add(o, "speed_runs", p.speed_fitted ? json_object_new_int64((int64_t)p.speed_runs) : NULL);
    json_object_object_add(o, "speed_df", jnum(p.speed_df));
    json_object_object_add(o, "at_speed_ci95_half", jnum(p.speed_half));
    json_object_object_add(o, "implied_miss_cost_ms", jms(p.implied_miss_cost));
    json_object_object_add(o, "saved_cpu_per_miss_ms", jms(p.saved_cpu));
    json_object_object_add(o, "saved_contention_per_miss_ms", jms(p.saved_contention));
    json_object_object_add(o, "saved_other_cpu_per_miss_ms", jms(p.saved_other));
    json_object_object_add(o, "saved_contention_model_per_miss_ms", jms(p.saved_contention_model));
    json_object_object_add(o, "contention_scaled", json_object_new_boolean(p.contention_scaled));
    json_object_object_add(o, "contention_ms", jms(p.contention_g));
    json_object_object_add(o, "contention_predicted_ms", jms(p.contention_a));
    json_object_object_add(o, "other_tasks_cpu_ms", jms(p.others_g));
    json_object_object_add(o, "other_tasks_cpu_predicted_ms", jms(p.others_a));
    json_object_object_add(o, "innodb_background_cpu_ms", jms(p.background_g));
    json_object_object_add(o, "tolerance", jnum(p.tolerance));
    json_object_object_add(o, "single_repeat", json_object_new_boolean(p.single_repeat));
    json_object_object_add(o, "agrees", p.judged ? json_object_new_boolean(p.agrees) : NULL);
    json_object_object_add(o, "null_error", jnum(p.null_error));
    json_object_object_add(o, "null_error_at_speed", jnum(p.null_error_at_speed));
    json_object_object_add(o, "cannot_tell", p.judged ? json_object_new_boolean(p.cannot_tell) : NULL);
    json_object_object_add(o, "verdict", json_object_new_string(
        !p.judged ? "not judged" : p.agrees ? "agrees" : p.cannot_tell ? "cannot tell from no change"
                                                        : "does not agree"));
    return o;
}

/* the fit of the variant's guest arms' TPS on the machine's speed
 * (speedfit.h) */
static struct json_object *jspeed_fit(const struct report *r, size_t v)
{
    struct speed_fit f;
    speed_fit_variant(r, v, &f);
    struct json_object *o = json_object_new_object();
    json_object_object_add(o, "valid", json_object_new_boolean(f.valid));
    json_object_object_add(o, "why_not", f.valid ? NULL : json_object_new_string(f.why));
    json_object_object_add(o, "gauge", json_object_new_string(f.gauge));
    json_object_object_add(o, "runs", json_object_new_int64((int64_t)f.runs));
    json_object_object_add(o, "df", jnum(f.df));
    json_object_object_add(o, "elasticity", jnum(f.slope));
    json_object_object_add(o, "elasticity_ci95_half", jnum(f.slope_half));
    json_object_object_add(o, "elasticity_leave_one_out_low", jnum(f.loo_lo));
    json_object_object_add(o, "elasticity_leave_one_out_high", jnum(f.loo_hi));
    json_object_object_add(o, "elasticity_leave_one_out_spread", jnum(f.loo_spread));
    json_object_object_add(o, "residual_sd", jnum(f.sd));
    return o;
}

/* a guest arm's split s against arm `ref`, null when none */
static struct json_object *jsplit_of(const struct report *r, const struct report_cell *c,
                                     const struct gap_split *s, int ref)
{
    if (!s->valid || ref < 0)
        return NULL;
    struct json_object *o = json_object_new_object(), *parts = json_object_new_object();
    const char *host = r->rd->arms[ref].name;
    json_object_object_add(o, "vs", json_object_new_string(host));
    json_object_object_add(o, "loss", jnum(s->loss));
    json_object_object_add(o, "difference_ms_per_tx", jms(s->delta));
    json_object_object_add(o, "difference_ci95_ms", jms(s->delta_ci));
    for (int p = 0; p < GAP_PARTS; p++)
        json_object_object_add(parts, gap_part_key(p), jpart(s, s->part[p], s->ci[p]));
    json_object_object_add(o, "parts", parts);
    json_object_object_add(o, "compression_cpu", jpart(s, s->cmp, s->cmp_ci));
    json_object_object_add(o, "residual", jpart(s, s->residual, s->residual_ci));
    json_object_object_add(o, "explained", json_object_new_boolean(s->explained));
    char text[2048];
    gap_sentence(s, c->arm->name, host, text, sizeof(text));
    json_object_object_add(o, "text", json_object_new_string(text));
    return o;
}

/* a guest arm's split against the host arm, null when none */
static struct json_object *jgap(const struct report *r, const struct report_cell *c)
{
    return jsplit_of(r, c, &c->gap, c->host_ref);
}

void report_print_json(const struct report *r, FILE *out)
{
    const struct results_data *rd = r->rd;
    static const char *const kinds[] = {"drift",   "warmup",        "noise", "skew",
                                        "run_status", "fits", "not_run", "skipped_lines",
                                        "layers", "host_elsewhere", "pool_auto", "speed",
                                        "one_repeat", "shared_cpus", "superlinear"};
    _Static_assert(sizeof(kinds) / sizeof(kinds[0]) == NOTE_SUPERLINEAR + 1,
                   "a name for every kind of note, in the enum's order (report.h)");
    struct json_object *o = json_object_new_object(), *vars = json_object_new_array(),
                       *notes = json_object_new_array();
    const char *warn = report_accel_warning(r);
    json_object_object_add(o, "scenario", json_object_new_string(rd->scenario_name));
    json_object_object_add(o, "status", json_object_new_string(rd->status));
    json_object_object_add(o, "started_at", json_object_new_string(rd->started_at));
    json_object_object_add(o, "ended_at", json_object_new_string(rd->ended_at));
    json_object_object_add(o, "accel", json_object_new_string(rd->accel));
    json_object_object_add(o, "accel_warning", warn ? json_object_new_string(warn) : NULL);
    struct json_object *order = NULL;
    if (*rd->order_mode) {
        order = json_object_new_object();
        json_object_object_add(order, "mode", json_object_new_string(rd->order_mode));
        json_object_object_add(order, "seed",
                               rd->has_order_seed ? json_object_new_int64(rd->order_seed) : NULL);
    }
    json_object_object_add(o, "order", order);
    json_object_object_add(o, "tps_rule", json_object_new_string(report_tps_rule));
    json_object_object_add(o, "figures_rule", json_object_new_string(report_figures_rule));
    if (r->has_layers) {
        json_object_object_add(o, "gap_rule", json_object_new_string(report_gap_rule));
        json_object_object_add(o, "prediction_rule", json_object_new_string(report_prediction_rule));
    }
    for (size_t v = 0; v < rd->n_variants; v++) {
        struct json_object *jv = json_object_new_object(), *arms = json_object_new_array(),
                           *ratios = json_object_new_array();
        json_object_object_add(jv, "index", json_object_new_int(r->variants[v].variant->index));
        json_object_object_add(jv, "label", json_object_new_string(r->variants[v].variant->label));
        for (size_t a = 0; a < rd->n_arms; a++) {
            const struct report_cell *c = &r->variants[v].cells[a];
            struct json_object *jc = jcell(c);
            if (r->has_layers) {
                json_object_object_add(jc, "layers", jlayers(&c->layers));
                json_object_object_add(jc, "gap", jgap(r, c));
                json_object_object_add(jc, "vs_untuned_guest", jsplit_of(r, c, &c->gap_guest,
                                                                        r->first_guest_arm));
                json_object_object_add(jc, "prediction", jprediction(r, v, a));
            }
            json_object_array_add(arms, jc);
            for (int pass = 0; pass < 2; pass++) {
                int ref = pass == 0 ? c->host_ref : r->first_guest_arm;
                double val = pass == 0 ? c->ratio_host : c->ratio_first_guest;
                if (isnan(val))
                    continue;
                struct json_object *jr = json_object_new_object();
                char name[80];
                snprintf(name, sizeof(name), "%s/%s", c->arm->name, rd->arms[ref].name);
                json_object_object_add(jr, "name", json_object_new_string(name));
                json_object_object_add(jr, "value", jnum(val));
                json_object_object_add(
                    jr, "basis",
                    json_object_new_string(basis_name(val, pass == 0 ? c->ratio_host_per_guest
                                                                     : c->ratio_first_guest_per_guest)));
                double at, lo, hi;
                struct json_object *js = NULL;
                if (pass == 1 && speed_ratio(r, v, a, &at, &lo, &hi)) {
                    js = json_object_new_object();
                    json_object_object_add(js, "value", jnum(at));
                    json_object_object_add(js, "ci95_low", jnum(lo));
                    json_object_object_add(js, "ci95_high", jnum(hi));
                }
                if (pass == 1)
                    json_object_object_add(jr, "at_one_speed", js);
                json_object_array_add(ratios, jr);
            }
        }
        json_object_object_add(jv, "arms", arms);
        json_object_object_add(jv, "ratios", ratios);
        json_object_object_add(jv, "speed_fit", jspeed_fit(r, v));
        json_object_array_add(vars, jv);
    }
    json_object_object_add(o, "variants", vars);
    struct json_object *scaling = json_object_new_array();
    for (size_t i = 0; i < r->n_scaling; i++) {
        const struct report_scaling *sc = &r->scaling[i];
        struct json_object *js = json_object_new_object(), *pts = json_object_new_array();
        json_object_object_add(js, "arm", json_object_new_string(rd->arms[sc->arm].name));
        json_object_object_add(js, "setting", json_object_new_string(sc->group));
        for (size_t k = 0; k < sc->n; k++) {
            const struct report_cell *c = &r->variants[sc->variants[k]].cells[sc->arm];
            struct json_object *pt = json_object_new_object();
            json_object_object_add(pt, "variant",
                                   json_object_new_int(r->variants[sc->variants[k]].variant->index));
            json_object_object_add(pt, "guests", json_object_new_int(c->guests));
            json_object_object_add(pt, "n", json_object_new_int64((int64_t)c->tps_stats.n));
            json_object_object_add(pt, "tps_mean",
                                   jnum(c->tps_stats.n ? c->tps_stats.mean : NAN));
            json_object_object_add(pt, "tps_per_guest_mean",
                                   jnum(c->tps_stats.n ? c->per_guest_stats.mean : NAN));
            json_object_object_add(pt, "consolidation_efficiency", jnum(c->efficiency));
            json_object_array_add(pts, pt);
        }
        json_object_object_add(js, "points", pts);
        json_object_array_add(scaling, js);
    }
    json_object_object_add(o, "scaling", scaling);
    for (size_t i = 0; i < r->n_notes; i++) {
        const struct report_note *n = &r->notes[i];
        struct json_object *jn = json_object_new_object();
        json_object_object_add(jn, "kind", json_object_new_string(kinds[n->kind]));
        if (n->seq != INT_MAX)
            json_object_object_add(jn, "seq", json_object_new_int(n->seq));
        if (n->kind == NOTE_NOISE)
            json_object_object_add(jn, "figure", json_object_new_string(n->figure));
        if (n->kind == NOTE_DRIFT || n->kind == NOTE_SKEW || n->kind == NOTE_NOISE ||
            n->kind == NOTE_WARMUP)
            json_object_object_add(jn, "value", jnum(n->value));
        if (n->kind == NOTE_DRIFT || n->kind == NOTE_SKEW || n->kind == NOTE_NOISE)
            json_object_object_add(jn, "limit", jnum(n->limit));
        json_object_object_add(jn, "text", json_object_new_string(n->text));
        json_object_array_add(notes, jn);
    }
    json_object_object_add(o, "notes", notes);
    fprintf(out, "%s\n",
            json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
                                                  JSON_C_TO_STRING_NOSLASHESCAPE));
    json_object_put(o);
}
