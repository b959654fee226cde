/* fuzz_chain.c: what the chain, perfschema and tasks probes read from a target
 * (hostile input: a guest's shell and mariadb client through its agent):
 * one reading of the chain's threads (probes/chain.h), the delay-accounting
 * switch's answer, PROCESSLIST's (ID, TID) rows, and performance_schema's
 * thread ids and sums (probes/perfschema.h), one reading of a guest's tasks
 * and performance_schema.threads' (THREAD_OS_ID, NAME) rows
 * (probes/tasks.h). Rows come as the agent's
 * mariadb --batch gives them: a line per row, cells separated by tabs. The
 * first byte picks the parser. */
#include "fuzz.h"
#include "probes/chain.h"
#include "probes/perfschema.h"
#include "probes/tasks.h"

#include <math.h>

FUZZ_INITIALIZE_QUIET

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    char *text = fuzz_text(data + 1, size - 1);
    switch (data[0] % 7) {
    case 0: {
        static struct chain_reading r;
        if (chain_parse_reading(text, &r) == 0) {
            if (r.n > CHAIN_THREADS_MAX || !(r.uptime_last >= r.uptime_first))
                abort();
            for (size_t i = 0; i < r.n; i++)
                if (r.th[i].tid <= 0 || r.th[i].oncpu_s < 0 || r.th[i].runq_s < 0 || r.th[i].blkio_ticks < 0 ||
                    !r.th[i].state || (!isnan(r.th[i].uptime) && !(r.th[i].uptime >= r.uptime_first &&
                                                                  r.th[i].uptime <= r.uptime_last)))
                    abort();
        }
        break;
    }
    case 1: {
        int old, now;
        double since;
        if (chain_parse_delayacct(text, &old, &now, &since) == 0 &&
            (old < -1 || old > 1 || now < 0 || now > 1 || !(since >= 0) || (old != 0 && since != 0)))
            abort();
        break;
    }
    case 2: {
        struct sql_result r;
        fuzz_rows(text, &r);
        int tids[16];
        int n = chain_parse_processlist(&r, tids, 16);
        for (int i = 0; i < n && i < 16; i++)
            if (tids[i] <= 0 || tids[i] > (1 << 22))
                abort();
        sql_result_free(&r);
        break;
    }
    case 3: {
        struct sql_result r;
        fuzz_rows(text, &r);
        unsigned long long ids[16];
        int n = perfschema_parse_threads(&r, ids, 16);
        if (n > (int)r.rows)
            abort();
        sql_result_free(&r);
        break;
    }
    case 5: {
        struct tasks_reading r;
        if (tasks_parse_reading(text, &r) == 0) {
            if (r.n > TASKS_MAX || !(r.uptime_last >= r.uptime_first) || (r.n && !r.t))
                abort();
            for (size_t i = 0; i < r.n; i++)
                if (r.t[i].tid <= 0 || r.t[i].pid <= 0 || !(r.t[i].oncpu_s >= 0) || r.t[i].start < 0 ||
                    strlen(r.t[i].comm) > 16)
                    abort();
            double cpu[TG_N];
            if (tasks_group_cpu(&r, &r, NULL, NULL, 0, cpu) == 0)
                for (int k = 0; k < TG_N; k++)
                    if (!(cpu[k] >= 0))
                        abort(); /* the same tasks ran nothing new, never less than nothing */
        } else if (r.n || r.t) {
            abort();
        }
        tasks_reading_free(&r);
        break;
    }
    case 6: {
        struct sql_result r;
        fuzz_rows(text, &r);
        int tids[16];
        enum task_group g[16];
        int n = tasks_parse_ps_threads(&r, tids, g, 16);
        if (n > (int)r.rows)
            abort();
        for (int i = 0; i < n && i < 16; i++)
            if (tids[i] <= 0 || tids[i] > (1 << 22) || g[i] < 0 || g[i] >= TG_N)
                abort();
        sql_result_free(&r);
        break;
    }
    default: {
        struct sql_result r;
        fuzz_rows(text, &r);
        struct ps_reading ps;
        if (perfschema_parse_sums(&r, &ps) == 0)
            for (int k = 0; k < PS_KINDS; k++)
                if (!(ps.count[k] >= 0 && ps.wait_s[k] >= 0))
                    abort();
        sql_result_free(&r);
        break;
    }
    }
    free(text);
    return 0;
}
