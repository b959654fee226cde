/* build.c: report_build() and report_free() (see report.h): a report from
 * a results directory, in order -- the cells and their ratios (report.c),
 * where the time goes (gap.c), the scaling (scaling.c), the notes
 * (notes.c) -- and freeing all of it. */
#include "report/report.h"
#include "report/cells.h"
#include "report/notes.h"
#include "model/scaling.h"
#include "util/median.h"
#include "util/xalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The machine's speed over every counted run (host_speed_unit_ms, one per
 * run): its median, the extremes as indices, and each cell's index. */
static void speed_indices(struct report *r)
{
    const struct results_data *rd = r->rd;
    double *v = xcalloc(rd->n_samples + 1, sizeof(double));
    size_t n = 0;
    for (size_t i = 0; i < rd->n_samples; i++) {
        const struct results_sample *s = &rd->samples[i];
        if (!strcmp(s->metric, "host_speed_unit_ms") && s->value > 0 && isfinite(s->value) &&
            results_run_ok(rd, s->seq))
            v[n++] = s->value;
    }
    r->speed_runs = n;
    r->speed_median_ms = median_sort(v, n); /* sorts v */
    r->speed_index_lo = n ? r->speed_median_ms / v[n - 1] : NAN;
    r->speed_index_hi = n ? r->speed_median_ms / v[0] : NAN;
    free(v);
    for (size_t k = 0; k < rd->n_variants; k++)
        for (size_t a = 0; a < rd->n_arms; a++) {
            struct report_cell *c = &r->variants[k].cells[a];
            c->speed_index = c->speed_unit_ms > 0 ? r->speed_median_ms / c->speed_unit_ms : NAN;
        }
}

struct report *report_build(const struct results_data *rd)
{
    struct report *r = xcalloc(1, sizeof(*r));
    r->rd = rd;
    r->host_arm = r->first_guest_arm = -1;
    /* the headlines' labels, in the order first seen: "TPS" for tx/s, else the unit */
    size_t used = 0;
    for (size_t i = 0; i < rd->n_samples; i++) {
        const struct results_sample *s = &rd->samples[i];
        if (!report_headline_sample(s))
            continue;
        const char *unit = report_headline_unit(s);
        const char *label = strcmp(unit, "tx/s") == 0 ? "TPS" : unit;
        r->headline_other |= strcmp(unit, "tx/s") != 0 && strcmp(unit, "MB/s") != 0;
        char seen[72];
        snprintf(seen, sizeof(seen), " or %s or ", label);
        char all[80];
        snprintf(all, sizeof(all), " or %s or ", r->headline_buf);
        if (used && strstr(all, seen))
            continue;
        used += (size_t)snprintf(r->headline_buf + used, used < sizeof(r->headline_buf)
                                     ? sizeof(r->headline_buf) - used : 0,
                                 "%s%s", used ? " or " : "", label);
    }
    /* two or more: TPS first, as the tables always said */
    if (!strcmp(r->headline_buf, "MB/s or TPS"))
        snprintf(r->headline_buf, sizeof(r->headline_buf), "TPS or MB/s");
    r->headline = used ? r->headline_buf : "TPS";
    for (size_t a = 0; a < rd->n_arms; a++) {
        if (r->host_arm < 0 && !strcmp(rd->arms[a].kind, "host"))
            r->host_arm = (int)a;
        if (r->first_guest_arm < 0 && !strcmp(rd->arms[a].kind, "guest"))
            r->first_guest_arm = (int)a;
    }
    int *ref = xcalloc(rd->n_arms + 1, sizeof(*ref));
    bool *elsewhere = xcalloc(rd->n_arms + 1, sizeof(*elsewhere));
    report_choose_host_refs(r, ref, elsewhere);
    r->variants = xcalloc(rd->n_variants, sizeof(*r->variants));
    for (size_t v = 0; v < rd->n_variants; v++) {
        struct report_variant *rv = &r->variants[v];
        rv->variant = &rd->variants[v];
        rv->cells = xcalloc(rd->n_arms, sizeof(*rv->cells));
        for (size_t a = 0; a < rd->n_arms; a++) {
            rv->cells[a].arm = &rd->arms[a];
            report_fill_cell(rd, rv->variant->index, &rv->cells[a]);
        }
        for (size_t a = 0; a < rd->n_arms; a++) {
            struct report_cell *c = &rv->cells[a];
            c->host_ref = ref[a];
            c->host_ref_elsewhere = elsewhere[a];
            c->ratio_host = c->host_ref < 0 || c->host_ref == (int)a
                                ? NAN
                                : report_ratio_of(c, &rv->cells[c->host_ref], &c->ratio_host_per_guest);
            c->ratio_first_guest = NAN;
            if (r->first_guest_arm >= 0 && (int)a > r->first_guest_arm &&
                !strcmp(c->arm->kind, "guest"))
                c->ratio_first_guest = report_ratio_of(c, &rv->cells[r->first_guest_arm],
                                                &c->ratio_first_guest_per_guest);
        }
        /* where the time goes */
        for (size_t a = 0; a < rd->n_arms; a++) {
            struct report_cell *c = &rv->cells[a];
            gap_measure_arm(rd, rv->variant->index, c->arm, &c->layers);
            c->layers.tps = c->tps_stats.n ? c->per_guest_stats.mean : NAN;
            r->has_layers |= c->layers.targets > 0;
        }
        for (size_t a = 0; a < rd->n_arms; a++) {
            struct report_cell *c = &rv->cells[a];
            if (c->host_ref >= 0 && c->layers.guest)
                gap_split(&c->layers, &rv->cells[c->host_ref].layers, &c->gap);
            else
                gap_split_clear(&c->gap);
            /* a tuned arm against the untuned guest: what the tuning won */
            if (c->layers.guest && r->first_guest_arm >= 0 && (int)a != r->first_guest_arm)
                gap_split(&c->layers, &rv->cells[r->first_guest_arm].layers, &c->gap_guest);
            else
                gap_split_clear(&c->gap_guest);
        }
    }
    free(ref);
    free(elsewhere);
    speed_indices(r);
    report_build_scaling(r);
    report_collect_notes(r);
    return r;
}

void report_free(struct report *r)
{
    if (!r)
        return;
    for (size_t v = 0; r->variants && v < r->rd->n_variants; v++) {
        for (size_t a = 0; a < r->rd->n_arms; a++) {
            free(r->variants[v].cells[a].tps);
            free(r->variants[v].cells[a].per_guest);
            free(r->variants[v].cells[a].tps_seq);
            free(r->variants[v].cells[a].speed_run_ms);
            free(r->variants[v].cells[a].speed_run_host);
        }
        free(r->variants[v].cells);
    }
    free(r->variants);
    for (size_t i = 0; i < r->n_notes; i++)
        free(r->notes[i].text);
    free(r->notes);
    for (size_t i = 0; i < r->n_scaling; i++) {
        free(r->scaling[i].group);
        free(r->scaling[i].variants);
    }
    free(r->scaling);
    free(r);
}
