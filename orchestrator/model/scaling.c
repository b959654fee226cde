/* scaling.c: guests as a variant axis (scaling.h): per guest arm, the
 * groups of variants whose settings differ only in the number of guests,
 * and each cell's consolidation efficiency, TPS / (guests x TPS of 1 guest
 * alone) in the same settings. Owns r->scaling. */
#include "model/scaling.h"
#include "model/model.h"
#include "util/xalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The first run of arm serving variant (its settings), NULL if none. */
static const struct results_run *cell_run(const struct results_data *rd, const char *arm,
                                          int variant)
{
    for (size_t i = 0; i < rd->n_runs; i++)
        if (!strcmp(rd->runs[i].arm, arm) && results_run_in_variant(&rd->runs[i], variant) &&
            rd->runs[i].n_config > 0)
            return &rd->runs[i];
    return NULL;
}

/* Same settings but for guests? */
static bool same_but_guests(const struct results_run *x, const struct results_run *y)
{
    if (x->n_config != y->n_config)
        return false;
    for (size_t i = 0; i < x->n_config; i++)
        if (strcmp(x->config[i].key, "guests") != 0 &&
            strcmp(x->config[i].value, results_run_config(y, x->config[i].key)) != 0)
            return false;
    return true;
}

/* The variant label without its guests item ("guest.guests=2"). */
static char *label_without_guests(const char *label)
{
    char *out = xcalloc(1, strlen(label) + 1), *copy = xstrdup(label), *save = NULL;
    for (char *tok = strtok_r(copy, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
        const char *eq = strchr(tok, '='), *dot = memchr(tok, '.', eq ? (size_t)(eq - tok) : 0);
        const char *key = dot ? dot + 1 : tok;
        if (eq && (size_t)(eq - key) == 6 && !strncmp(key, "guests", 6))
            continue;
        if (*out)
            strcat(out, " ");
        strcat(out, tok);
    }
    free(copy);
    return out;
}

void report_build_scaling(struct report *r)
{
    const struct results_data *rd = r->rd;
    size_t nv = rd->n_variants;
    bool *used = xcalloc(nv + 1, sizeof(bool));
    for (size_t a = 0; a < rd->n_arms; a++) {
        if (strcmp(rd->arms[a].kind, "guest") != 0)
            continue;
        memset(used, 0, (nv + 1) * sizeof(bool));
        for (size_t v = 0; v < nv; v++) {
            const struct results_run *base = cell_run(rd, rd->arms[a].name, rd->variants[v].index);
            if (used[v] || !base)
                continue;
            size_t *members = xcalloc(nv, sizeof(size_t)), n = 0;
            bool distinct = false;
            for (size_t w = v; w < nv; w++) {
                const struct results_run *x = cell_run(rd, rd->arms[a].name, rd->variants[w].index);
                if (used[w] || !x || !same_but_guests(base, x))
                    continue;
                /* one member per guest count (shared runs serve several variants) */
                bool dup = false;
                for (size_t k = 0; k < n && !dup; k++)
                    dup = r->variants[members[k]].cells[a].guests ==
                          r->variants[w].cells[a].guests;
                used[w] = true;
                if (dup)
                    continue;
                distinct |= n > 0;
                members[n++] = w;
            }
            if (!distinct) {
                free(members);
                continue;
            }
            /* by guests */
            for (size_t i = 1; i < n; i++)
                for (size_t k = i; k > 0 && r->variants[members[k - 1]].cells[a].guests >
                                                r->variants[members[k]].cells[a].guests;
                     k--) {
                    size_t t = members[k];
                    members[k] = members[k - 1];
                    members[k - 1] = t;
                }
            r->scaling = xrealloc(r->scaling, (r->n_scaling + 1) * sizeof(*r->scaling));
            struct report_scaling *sc = &r->scaling[r->n_scaling++];
            sc->arm = a;
            sc->group = label_without_guests(rd->variants[v].label);
            sc->variants = members;
            sc->n = n;
            const struct report_cell *one = &r->variants[members[0]].cells[a];
            /* every variant of the group (shared guest counts too) */
            for (size_t w = 0; w < nv; w++) {
                const struct results_run *x = cell_run(rd, rd->arms[a].name, rd->variants[w].index);
                struct report_cell *c = &r->variants[w].cells[a];
                if (x && same_but_guests(base, x) && isnan(c->efficiency) && one->guests == 1 &&
                    one->tps_stats.n > 0 && one->tps_stats.mean > 0 && c->tps_stats.n > 0 &&
                    c->guests > 0)
                    c->efficiency = c->tps_stats.mean / (c->guests * one->tps_stats.mean);
            }
        }
    }
    free(used);
}
