/* report_hosts.c: the report grouped by hypervisor host, for arms whose
 * guests ran on several hosts (the `hosts` key): per (arm, host) the guests
 * measured there, their mean TPS per guest (sysbench's tps of each guest,
 * over every variant and repeat) and their mean boot-to-ready time, of the
 * runs that completed (status ok, as in the main tables). Arms on one host
 * are not repeated here: the main tables are theirs. */
#include "report/report.h"

#include "util/xalloc.h"

#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

struct host_cell {
    const char *arm, *host;
    int guests; /* distinct (run, guest) pairs measured */
    double tps_sum;
    int tps_n;
    double boot_sum;
    int boot_n;
};

static struct host_cell *cell(struct host_cell **cells, size_t *n, const char *arm, const char *host)
{
    for (size_t i = 0; i < *n; i++)
        if (strcmp((*cells)[i].arm, arm) == 0 && strcmp((*cells)[i].host, host) == 0)
            return &(*cells)[i];
    *cells = xrealloc(*cells, (*n + 1) * sizeof(**cells));
    (*cells)[*n] = (struct host_cell){.arm = arm, .host = host};
    return &(*cells)[(*n)++];
}

/* The sample's run completed (meta.json runs[].status "ok"). */
static bool run_ok(const struct results_data *rd, int seq)
{
    for (size_t i = 0; i < rd->n_runs; i++)
        if (rd->runs[i].seq == seq)
            return strcmp(rd->runs[i].status, "ok") == 0;
    return false;
}

/* Arms whose per-guest samples name more than one host. */
static bool several_hosts(const struct results_data *rd, const char *arm)
{
    const char *first = NULL;
    for (size_t i = 0; i < rd->n_samples; i++) {
        const struct results_sample *s = &rd->samples[i];
        if (s->guest < 1 || !*s->host || strcmp(s->arm, arm) != 0)
            continue;
        if (!first)
            first = s->host;
        else if (strcmp(first, s->host) != 0)
            return true;
    }
    return false;
}

struct report_table *report_hosts_table(const struct report *r)
{
    const struct results_data *rd = r->rd;
    struct host_cell *cells = NULL;
    size_t n = 0;
    for (size_t a = 0; a < rd->n_arms; a++) {
        const char *arm = rd->arms[a].name;
        if (!several_hosts(rd, arm))
            continue;
        for (size_t i = 0; i < rd->n_samples; i++) {
            const struct results_sample *s = &rd->samples[i];
            if (s->guest < 1 || !*s->host || strcmp(s->arm, arm) != 0 || isnan(s->value) ||
                !run_ok(rd, s->seq))
                continue;
            struct host_cell *c = cell(&cells, &n, arm, s->host);
            if (strcmp(s->metric, "tps") == 0) {
                c->tps_sum += s->value;
                c->tps_n++;
                c->guests++;
            } else if (strcmp(s->metric, "boot_to_ready_s") == 0) {
                c->boot_sum += s->value;
                c->boot_n++;
            }
        }
    }
    if (!n) {
        free(cells);
        return NULL;
    }
    static const char *const header[] = {"arm", "host", "guests measured", "TPS per guest",
                                         "boot to ready (s)"};
    struct report_table *t = report_table_new(5, header, 0x1c);
    for (size_t i = 0; i < n; i++) {
        char g[16], tps[32], boot[32];
        snprintf(g, sizeof(g), "%d", cells[i].guests);
        const char *row[] = {cells[i].arm, cells[i].host, g,
                             report_human(tps, sizeof(tps), "%.1f",
                                          cells[i].tps_n ? cells[i].tps_sum / cells[i].tps_n : NAN),
                             report_human(boot, sizeof(boot), "%.1f",
                                          cells[i].boot_n ? cells[i].boot_sum / cells[i].boot_n : NAN)};
        report_table_add(t, row);
    }
    free(cells);
    return t;
}
