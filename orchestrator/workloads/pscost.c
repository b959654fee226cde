/* pscost.c: performance_schema's instruments off and on in a running
 * server, TPS of each (see pscost.h). */
#include "workloads/pscost.h"

#include "scenario/mycnf.h"
#include "targets/sql.h"
#include "util/log.h"
#include "util/xalloc.h"
#include "workloads/workload.h"

#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *pscost_statement(bool on)
{
    size_t cap = 256, len = 0;
    for (size_t i = 0; mycnf_ps_instruments[i]; i++)
        cap += strlen(mycnf_ps_instruments[i]) + 24;
    char *s = xcalloc(1, cap);
    len += (size_t)snprintf(s, cap,
                            "UPDATE performance_schema.setup_instruments SET ENABLED = '%s', "
                            "TIMED = '%s' WHERE ",
                            on ? "YES" : "NO", on ? "YES" : "NO");
    for (size_t i = 0; mycnf_ps_instruments[i]; i++)
        len += (size_t)snprintf(s + len, cap - len, "%sNAME LIKE '%s'", i ? " OR " : "",
                                mycnf_ps_instruments[i]);
    return s;
}

/* Turn the instruments on or off; *statements: the statements
 * performance_schema had counted just before (NAN: unknown). */
static int instruments(struct wl_job *j, bool on, double *statements)
{
    char *st = pscost_statement(on);
    const char *stmts[] = {"SELECT SUM(COUNT_STAR) FROM "
                           "performance_schema.events_statements_summary_global_by_event_name",
                           st, NULL};
    struct sql_result r = {0};
    int rc = sql_run(j->t->sql, stmts, &r);
    double n = rc == 0 && r.rows == 1 ? sql_number(&r, 0, 0) : NAN;
    *statements = isfinite(n) && n >= 0 ? n : NAN;
    sql_result_free(&r);
    free(st);
    if (rc < 0)
        log_warn("%s: cannot turn performance_schema's instruments %s", j->t->name, on ? "on" : "off");
    return rc;
}

static void record(struct wl_job *j, const char *metric, double value, const char *unit, int pair)
{
    json_object *extra = json_object_new_object();
    json_object_object_add(extra, "pair", json_object_new_int(pair));
    samples_add(j->samples, metric, value, unit, j->t->guest, NULL, 0, extra);
}

int pscost_probe(struct wl_job *j, pscost_slice_fn slice)
{
    if (!j->cfg->ps_cost)
        return 0;
    if (!j->cfg->performance_schema) {
        log_info("%s: performance_schema is off: no instrument to turn off (ps_cost)", j->t->name);
        return 0;
    }
    /* slice i (0-based) of pair i / 2 + 1: TPS, and the statements
     * performance_schema counted over it (none with the instruments off):
     * the count read as the switch after it is made, less the one before */
    enum { SLICES = 2 * PSCOST_PAIRS };
    double tps[SLICES], counted[SLICES], before = NAN, now = NAN;
    bool on[SLICES];
    int done = 0;
    for (int i = 0; i < SLICES; i++) {
        int p = i / 2 + 1;
        on[i] = (p % 2 == 1) == (i % 2 == 1); /* off-on, on-off, ... */
        tps[i] = counted[i] = NAN;
        if (instruments(j, on[i], &now) < 0)
            break;
        if (i > 0)
            counted[i - 1] = now - before;
        before = now;
        char out[64];
        snprintf(out, sizeof(out), "sysbench-ps-%d-%s.out", p, on[i] ? "on" : "off");
        if (slice(j, j->cfg->ps_cost, out, &tps[i]) < 0 || !(tps[i] > 0))
            break;
        done = i + 1;
    }
    if (instruments(j, true, &now) == 0 && done > 0)
        counted[done - 1] = now - before;
    double sum_on = 0, sum_off = 0;
    int pairs = 0;
    for (int p = 1; 2 * p <= done; p++) {
        int a = 2 * p - 2, b = a + 1;
        int off = on[a] ? b : a, onn = on[a] ? a : b;
        /* the switch took: nothing counted while off (the probe's own
         * statements at most), something while on */
        if (!(counted[off] <= PSCOST_OFF_STATEMENTS) || !(counted[onn] > PSCOST_OFF_STATEMENTS)) {
            log_warn("%s: performance_schema's cost: in pair %d it counted %.0f statements with its "
                     "instruments off and %.0f with them on: the switch did not take; the pair is "
                     "left out",
                     j->t->name, p, counted[off], counted[onn]);
            continue;
        }
        record(j, "ps_off_tps", tps[off], "tx/s", p);
        record(j, "ps_on_tps", tps[onn], "tx/s", p);
        record(j, "ps_off_statements", counted[off], "count", p);
        record(j, "ps_on_statements", counted[onn], "count", p);
        record(j, "ps_on_off_ratio", tps[onn] / tps[off], "ratio", p);
        sum_off += tps[off];
        sum_on += tps[onn];
        pairs++;
    }
    if (done < SLICES)
        log_warn("%s: performance_schema's cost: %d of %d slices ran", j->t->name, done, SLICES);
    if (pairs)
        log_info("%s: performance_schema's instruments: %.2f tx/s on, %.2f off over %d pairs of %d s "
                 "(on/off %.3f)",
                 j->t->name, sum_on / pairs, sum_off / pairs, pairs, (int)j->cfg->ps_cost, sum_on / sum_off);
    return 0;
}
