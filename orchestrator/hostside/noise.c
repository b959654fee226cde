/* noise.c: steal time and other processes' CPU over a phase (see noise.h). */
#include "hostside/noise.h"

#include "util/log.h"
#include "util/textfile.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

int noise_parse_proc_stat(const char *text, long clk_tck, struct cpu_times *out)
{
    if (!text || clk_tck <= 0)
        return -1;
    const char *line = text;
    while (line && strncmp(line, "cpu ", 4) != 0) {
        line = strchr(line, '\n');
        if (line)
            line++;
    }
    if (!line)
        return -1;
    /* user nice system idle iowait irq softirq steal guest guest_nice */
    unsigned long long f[10] = {0};
    int n = sscanf(line + 4, "%llu %llu %llu %llu %llu %llu %llu %llu %llu %llu", &f[0], &f[1],
                   &f[2], &f[3], &f[4], &f[5], &f[6], &f[7], &f[8], &f[9]);
    if (n < 8)
        return -1;
    double hz = (double)clk_tck;
    double total = 0;
    for (int i = 0; i < 8; i++)
        total += (double)f[i];
    out->total_s = total / hz;
    out->busy_s = ((double)f[0] + (double)f[1] + (double)f[2] + (double)f[5] + (double)f[6]) / hz;
    out->steal_s = (double)f[7] / hz;
    out->user_s = ((double)f[0] + (double)f[1]) / hz;
    out->system_s = ((double)f[2] + (double)f[5] + (double)f[6]) / hz;
    out->iowait_s = (double)f[4] / hz;
    return 0;
}

int noise_read_host(struct cpu_times *out)
{
    char *text = textfile_read("/proc/stat");
    int rc = noise_parse_proc_stat(text, sysconf(_SC_CLK_TCK), out);
    if (rc < 0)
        log_warn("cannot read the host's CPU times from /proc/stat");
    free(text);
    return rc;
}

double noise_parse_pid_stat(const char *text, long clk_tck)
{
    /* "pid (comm) state ppid ..." -- comm may hold spaces and ')' */
    const char *p = text ? strrchr(text, ')') : NULL;
    if (!p || clk_tck <= 0)
        return -1;
    unsigned long long utime, stime;
    /* after ")": state(3) ppid pgrp session tty_nr tpgid flags minflt cminflt
     * majflt cmajflt utime(14) stime(15) */
    if (sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &utime, &stime) != 2)
        return -1;
    return ((double)utime + (double)stime) / (double)clk_tck;
}

double noise_pid_cpu_s(pid_t pid)
{
    char path[64];
    snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
    char *text = textfile_read(path);
    double s = noise_parse_pid_stat(text, sysconf(_SC_CLK_TCK));
    free(text);
    return s;
}

static double tv(struct timeval t) { return (double)t.tv_sec + (double)t.tv_usec / 1e6; }

static double rusage_s(int who)
{
    struct rusage ru;
    getrusage(who, &ru);
    return tv(ru.ru_utime) + tv(ru.ru_stime);
}

double noise_cpu_self_s(void) { return rusage_s(RUSAGE_SELF); }
double noise_cpu_children_s(void) { return rusage_s(RUSAGE_CHILDREN); }
double noise_self_cpu_s(void) { return noise_cpu_self_s() + noise_cpu_children_s(); }

double noise_steal_pct(const struct cpu_times *a, const struct cpu_times *b)
{
    double total = b->total_s - a->total_s;
    if (total <= 0)
        return NAN;
    return 100.0 * (b->steal_s - a->steal_s) / total;
}

double noise_other_cpu_pct(const struct cpu_times *a, const struct cpu_times *b, double run_cpu_s)
{
    double total = b->total_s - a->total_s;
    if (total <= 0)
        return NAN;
    double other = (b->busy_s - a->busy_s) - run_cpu_s;
    return other > 0 ? 100.0 * other / total : 0;
}
