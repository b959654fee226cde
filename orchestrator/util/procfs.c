/* procfs.c: the /proc texts vbed reads, parsed (see procfs.h). */
#include "util/procfs.h"

#include "util/log.h"
#include "util/textfile.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int procfs_parse_diskstats(const char *text, const char *name, unsigned major, unsigned minor,
                           struct diskstat *out)
{
    for (const char *line = text; line && *line;) {
        struct diskstat d;
        memset(&d, 0, sizeof(d));
        double f[17];
        int n = sscanf(line,
                       " %u %u %31s %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf "
                       "%lf",
                       &d.major, &d.minor, d.name, &f[0], &f[1], &f[2], &f[3], &f[4], &f[5], &f[6],
                       &f[7], &f[8], &f[9], &f[10], &f[11], &f[12], &f[13], &f[14], &f[15], &f[16]);
        bool match = n >= 14 && (name ? strcmp(d.name, name) == 0 : d.major == major && d.minor == minor);
        if (match) {
            /* reads merged sectors ms | writes merged sectors ms | in_flight io_ms weighted
             * | discards merged sectors ms | flushes flush_ms */
            d.reads = f[0], d.read_sectors = f[2], d.read_ms = f[3];
            d.writes = f[4], d.write_sectors = f[6], d.write_ms = f[7];
            d.in_flight = f[8], d.io_ms = f[9];
            d.flushes = n >= 20 ? f[15] : NAN;
            d.flush_ms = n >= 20 ? f[16] : NAN;
            *out = d;
            return 0;
        }
        line = strchr(line, '\n');
        if (line)
            line++;
    }
    return -1;
}

int procfs_parse_meminfo(const char *text, const char *key, double *bytes)
{
    size_t klen = strlen(key);
    for (const char *line = text; line && *line;) {
        if (strncmp(line, key, klen) == 0 && line[klen] == ':') {
            char *end;
            double kib = strtod(line + klen + 1, &end);
            if (end == line + klen + 1)
                return -1;
            *bytes = kib * 1024;
            return 0;
        }
        line = strchr(line, '\n');
        if (line)
            line++;
    }
    return -1;
}

int procfs_parse_stat(const char *text, long clk_tck, struct cpu_times *out)
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

int procfs_read_stat(struct cpu_times *out)
{
    char *text = textfile_read("/proc/stat");
    int rc = procfs_parse_stat(text, sysconf(_SC_CLK_TCK), out);
    if (rc < 0)
        log_warn("cannot read the host's CPU times from /proc/stat");
    free(text);
    return rc;
}

double procfs_parse_pid_stat(const char *text, long clk_tck)
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

double procfs_parse_children_cpu(const char *text, long clk_tck)
{
    const char *p = text ? strrchr(text, ')') : NULL;
    if (!p || clk_tck <= 0)
        return -1;
    long long cutime, cstime;
    /* ... utime(14) stime(15) cutime(16) cstime(17) */
    if (sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %lld %lld", &cutime,
               &cstime) != 2 ||
        cutime < 0 || cstime < 0 || cutime > (1LL << 50) || cstime > (1LL << 50))
        return -1;
    return ((double)cutime + (double)cstime) / (double)clk_tck;
}

double procfs_pid_cpu_s(pid_t pid)
{
    char path[64];
    snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
    char *text = textfile_read(path);
    double s = procfs_parse_pid_stat(text, sysconf(_SC_CLK_TCK));
    free(text);
    return s;
}

/* a whole number at *p (after blanks), within [0, max]; p moved past it */
static int parse_count(const char **p, unsigned long long max, unsigned long long *out)
{
    const char *s = *p;
    while (*s == ' ' || *s == '\t')
        s++;
    if (*s < '0' || *s > '9')
        return -1;
    unsigned long long v = 0;
    for (; *s >= '0' && *s <= '9'; s++) {
        unsigned d = (unsigned)(*s - '0');
        if (v > (max - d) / 10)
            return -1;
        v = v * 10 + d;
    }
    *p = s;
    *out = v;
    return 0;
}

/* nothing but blanks and one newline after p */
static bool rest_blank(const char *p)
{
    while (*p == ' ' || *p == '\t')
        p++;
    if (*p == '\n')
        p++;
    return *p == '\0';
}

int procfs_parse_schedstat(const char *text, double *oncpu_s, double *runq_s)
{
    /* ns counters: 2^63 ns is 292 years -- past that it is not a counter */
    const unsigned long long max = 1ULL << 62;
    unsigned long long run, wait, slices;
    const char *p = text;
    if (!p || parse_count(&p, max, &run) < 0 || parse_count(&p, max, &wait) < 0 ||
        parse_count(&p, max, &slices) < 0 || !rest_blank(p))
        return -1;
    *oncpu_s = (double)run / 1e9;
    *runq_s = (double)wait / 1e9;
    return 0;
}

int procfs_parse_task_stat(const char *text, long long *start_ticks, long long *blkio_ticks)
{
    /* "pid (comm) state ..." -- comm may hold spaces and ')': fields count
     * from the last ')' on; field 3 (state) is the first after it */
    const char *p = text ? strrchr(text, ')') : NULL;
    if (!p || p[1] != ' ')
        return -1;
    p += 2;
    if (!*p || *p == ' ' || *p == '\n')
        return -1;
    unsigned long long start = 0, blkio = 0;
    for (int field = 3; field <= 42; field++) {
        if (field == 22 || field == 42) {
            if (parse_count(&p, 1ULL << 62, field == 22 ? &start : &blkio) < 0 ||
                (*p != ' ' && *p != '\n' && *p != '\0'))
                return -1;
            if (field == 42)
                break;
        } else {
            while (*p && *p != ' ' && *p != '\n')
                p++;
        }
        if (*p != ' ')
            return -1;
        p++;
    }
    *start_ticks = (long long)start;
    *blkio_ticks = (long long)blkio;
    return 0;
}

int procfs_parse_uptime(const char *text, double *s)
{
    if (!text)
        return -1;
    char *end;
    double v = strtod(text, &end);
    if (end == text || !isfinite(v) || v < 0 || (*end != ' ' && *end != '\n' && *end != '\0'))
        return -1;
    *s = v;
    return 0;
}
