/* layers.c: counters at every layer of a target's path (see layers.h). */
#include "probes/layers.h"

#include "virt/agent.h"
#include "util/log.h"
#include "targets/target.h"
#include "util/textfile.h"
#include "util/xalloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

void layers_set(struct layer_snapshot *s, const char *layer, const char *name, const char *unit,
                bool gauge, double v)
{
    if (isnan(v) || isinf(v))
        return;
    size_t i = 0;
    while (i < s->n && strcmp(s->v[i].name, name) != 0)
        i++;
    if (i == s->n) {
        if (s->n == LAYERS_MAX)
            return;
        s->n++;
    }
    struct layer_value *lv = &s->v[i];
    snprintf(lv->name, sizeof(lv->name), "%s", name);
    lv->layer = layer;
    lv->unit = unit;
    lv->gauge = gauge;
    lv->device[0] = '\0';
    lv->v = v;
}

double layers_get(const struct layer_snapshot *s, const char *name)
{
    for (size_t i = 0; i < s->n; i++)
        if (strcmp(s->v[i].name, name) == 0)
            return s->v[i].v;
    return NAN;
}

/* ---- parsers ---- */

int layers_parse_fincore(const char *text, double *bytes)
{
    double sum = 0;
    int numbers = 0;
    for (const char *line = text; line && *line;) {
        char *end;
        double v = strtod(line, &end);
        if (end != line && (*end == '\n' || *end == '\0' || *end == ' ') && v >= 0) {
            sum += v;
            numbers++;
        }
        line = strchr(line, '\n');
        if (line)
            line++;
    }
    if (!numbers)
        return -1;
    *bytes = sum;
    return 0;
}

void layers_add_diskstat(struct layer_snapshot *s, const char *layer, const char *prefix,
                         const struct diskstat *d)
{
    char name[LAYERS_NAME_MAX];
#define ADD(suffix, unit, value)                                                                    \
    do {                                                                                           \
        snprintf(name, sizeof(name), "%s_%s", prefix, suffix);                                     \
        layers_set(s, layer, name, unit, false, value);                                            \
    } while (0)
    ADD("reads", "count", d->reads);
    ADD("read_bytes", "bytes", d->read_sectors * 512);
    ADD("read_ms", "ms", d->read_ms);
    ADD("writes", "count", d->writes);
    ADD("write_bytes", "bytes", d->write_sectors * 512);
    ADD("write_ms", "ms", d->write_ms);
    ADD("flushes", "count", d->flushes);
    ADD("flush_ms", "ms", d->flush_ms);
#undef ADD
    for (size_t i = 0; i < s->n; i++)
        if (strncmp(s->v[i].name, prefix, strlen(prefix)) == 0 && s->v[i].name[strlen(prefix)] == '_')
            snprintf(s->v[i].device, sizeof(s->v[i].device), "%s", d->name);
}

/* ---- InnoDB ---- */

static const struct {
    const char *status, *name, *unit;
} innodb_status[] = {
    {"Innodb_pages_read", "innodb_pages_read", "count"},
    {"Innodb_pages_written", "innodb_pages_written", "count"},
    {"Innodb_data_reads", "innodb_data_reads", "count"},
    {"Innodb_data_writes", "innodb_data_writes", "count"},
    {"Innodb_data_read", "innodb_data_read_bytes", "bytes"},
    {"Innodb_data_written", "innodb_data_written_bytes", "bytes"},
    {"Innodb_data_fsyncs", "innodb_data_fsyncs", "count"},
    {"Innodb_row_lock_time", "innodb_row_lock_time_ms", "ms"},
};

void layers_innodb(struct sql *sql, struct layer_snapshot *s)
{
    struct sql_result r = {0};
    char q[512] = "SHOW GLOBAL STATUS WHERE Variable_name IN (";
    for (size_t i = 0; i < sizeof(innodb_status) / sizeof(innodb_status[0]); i++) {
        strcat(q, i ? ", '" : "'");
        strcat(q, innodb_status[i].status);
        strcat(q, "'");
    }
    strcat(q, ")");
    if (sql_query(sql, q, &r) < 0)
        return;
    for (size_t i = 0; i < sizeof(innodb_status) / sizeof(innodb_status[0]); i++)
        for (size_t row = 0; row < r.rows; row++)
            if (strcasecmp(sql_cell(&r, row, 0), innodb_status[i].status) == 0)
                layers_set(s, "innodb", innodb_status[i].name, innodb_status[i].unit, false,
                           sql_number(&r, row, 1));
    sql_result_free(&r);
}

/* ---- the guest kernel ---- */

int layers_guest_data_dev(struct target *t, char *dev, size_t len)
{
    for (char c = 'a'; c <= 'h'; c++) {
        char path[64];
        snprintf(path, sizeof(path), "/sys/block/vd%c/serial", c);
        char *serial = target_read_text(t, path);
        bool found = serial && strncmp(serial, "vbed-data", 9) == 0;
        free(serial);
        if (found) {
            snprintf(dev, len, "vd%c", c);
            return 0;
        }
    }
    return -1;
}

void layers_guest(struct target *t, const char *guest_dev, struct layer_snapshot *s,
                  struct cpu_times *cpu, bool *cpu_ok)
{
    char *text;
    if (guest_dev[0] && (text = target_read_text(t, "/proc/diskstats"))) {
        struct diskstat d;
        if (procfs_parse_diskstats(text, guest_dev, 0, 0, &d) == 0)
            layers_add_diskstat(s, "guest", "guest_disk", &d);
        free(text);
    }
    if (cpu)
        cpu_ok[0] = false;
    if ((text = target_read_text(t, "/proc/stat"))) {
        struct cpu_times c;
        if (procfs_parse_stat(text, 100, &c) == 0) { /* USER_HZ is 100 on Linux guests */
            layers_set(s, "guest", "guest_cpu_user_s", "s", false, c.user_s);
            layers_set(s, "guest", "guest_cpu_system_s", "s", false, c.system_s);
            layers_set(s, "guest", "guest_cpu_iowait_s", "s", false, c.iowait_s);
            layers_set(s, "guest", "guest_cpu_steal_s", "s", false, c.steal_s);
            if (cpu) {
                *cpu = c;
                cpu_ok[0] = true;
            }
        }
        free(text);
    }
    if ((text = target_read_text(t, "/proc/meminfo"))) {
        double v;
        if (procfs_parse_meminfo(text, "Cached", &v) == 0)
            layers_set(s, "guest", "guest_cached_bytes", "bytes", true, v);
        if (procfs_parse_meminfo(text, "Dirty", &v) == 0)
            layers_set(s, "guest", "guest_dirty_bytes", "bytes", true, v);
        free(text);
    }
    /* the datadir's files in the guest page cache (util-linux fincore) */
    const char *argv[] = {"/bin/sh", "-c",
                          "fincore --bytes --noheadings --raw --output RES "
                          "/var/lib/mysql/sbtest/sbtest*.ibd",
                          NULL};
    struct agent_result r = {0};
    if (t->dom && agent_exec(t->dom, argv, NULL, 60, &r) == 0 && r.exitcode == 0 && r.out) {
        char *out = xcalloc(r.out_len + 1, 1);
        memcpy(out, r.out, r.out_len);
        double v;
        if (layers_parse_fincore(out, &v) == 0)
            layers_set(s, "guest", "guest_datadir_cached_bytes", "bytes", true, v);
        free(out);
    }
    agent_result_free(&r);
}

/* ---- the hypervisor, through libvirt ---- */

static void field_name(char *fields, size_t len, const char *name)
{
    if (!fields || strstr(fields, name))
        return;
    size_t used = strlen(fields);
    snprintf(fields + used, len - used, "%s%s", used ? "," : "", name);
}

void layers_hypervisor(virDomainPtr dom, const char *disk, struct layer_snapshot *s, char *fields,
                       size_t fields_len)
{
    virDomainPtr doms[] = {dom, NULL};
    virDomainStatsRecordPtr *recs = NULL;
    unsigned int what = VIR_DOMAIN_STATS_CPU_TOTAL | VIR_DOMAIN_STATS_VCPU |
                        VIR_DOMAIN_STATS_BLOCK | VIR_DOMAIN_STATS_BALLOON;
    if (virDomainListGetStats(doms, what, &recs, 0) < 1) {
        log_warn("libvirt gives no domain stats for %s", virDomainGetName(dom));
        virDomainStatsRecordListFree(recs);
        return;
    }
    virTypedParameterPtr p = recs[0]->params;
    int np = recs[0]->nparams;
    unsigned long long v;
    if (virTypedParamsGetULLong(p, np, "cpu.time", &v) == 1) {
        layers_set(s, "hypervisor", "qemu_cpu_s", "s", false, (double)v / 1e9);
        field_name(fields, fields_len, "cpu.time");
    }
    unsigned int nv = 0;
    if (virTypedParamsGetUInt(p, np, "vcpu.current", &nv) == 1) {
        double time = 0, delay = 0;
        bool have_time = true, have_delay = true;
        for (unsigned int i = 0; i < nv; i++) {
            char key[64];
            snprintf(key, sizeof(key), "vcpu.%u.time", i);
            if (virTypedParamsGetULLong(p, np, key, &v) == 1)
                time += (double)v / 1e9;
            else
                have_time = false;
            snprintf(key, sizeof(key), "vcpu.%u.delay", i);
            if (virTypedParamsGetULLong(p, np, key, &v) == 1)
                delay += (double)v / 1e9;
            else
                have_delay = false;
        }
        if (nv && have_time) {
            layers_set(s, "hypervisor", "qemu_vcpu_s", "s", false, time);
            field_name(fields, fields_len, "vcpu.N.time");
        }
        if (nv && have_delay) {
            layers_set(s, "hypervisor", "qemu_vcpu_delay_s", "s", false, delay);
            field_name(fields, fields_len, "vcpu.N.delay");
        }
    }
    unsigned int nb = 0;
    virTypedParamsGetUInt(p, np, "block.count", &nb);
    for (unsigned int i = 0; i < nb; i++) {
        char key[64];
        const char *name = NULL;
        snprintf(key, sizeof(key), "block.%u.name", i);
        if (virTypedParamsGetString(p, np, key, &name) != 1 || !name || strcmp(name, disk) != 0)
            continue;
        static const struct {
            const char *stat, *metric, *unit;
            double scale;
        } blk[] = {
            {"rd.reqs", "qemu_rd_reqs", "count", 1},  {"rd.bytes", "qemu_rd_bytes", "bytes", 1},
            {"rd.times", "qemu_rd_time_s", "s", 1e9}, {"wr.reqs", "qemu_wr_reqs", "count", 1},
            {"wr.bytes", "qemu_wr_bytes", "bytes", 1}, {"wr.times", "qemu_wr_time_s", "s", 1e9},
            {"fl.reqs", "qemu_fl_reqs", "count", 1},  {"fl.times", "qemu_fl_time_s", "s", 1e9},
        };
        for (size_t b = 0; b < sizeof(blk) / sizeof(blk[0]); b++) {
            snprintf(key, sizeof(key), "block.%u.%s", i, blk[b].stat);
            if (virTypedParamsGetULLong(p, np, key, &v) == 1) {
                layers_set(s, "hypervisor", blk[b].metric, blk[b].unit, false, (double)v / blk[b].scale);
                char f[32];
                snprintf(f, sizeof(f), "block.%s", blk[b].stat);
                field_name(fields, fields_len, f);
            }
        }
    }
    if (virTypedParamsGetULLong(p, np, "balloon.disk_caches", &v) == 1) {
        layers_set(s, "hypervisor", "balloon_disk_caches_bytes", "bytes", true, (double)v * 1024);
        field_name(fields, fields_len, "balloon.disk_caches");
    }
    virDomainStatsRecordListFree(recs);
}

/* ---- the host ---- */

void layers_host(const char *path, struct layer_snapshot *s)
{
    struct stat st;
    char *text;
    if (path && stat(path, &st) == 0 && (text = textfile_read("/proc/diskstats"))) {
        struct diskstat d;
        if (procfs_parse_diskstats(text, NULL, major(st.st_dev), minor(st.st_dev), &d) == 0)
            layers_add_diskstat(s, "host", "hostdev", &d);
        free(text);
    }
}

void layers_host_arm_io(struct layer_snapshot *s, double read_bytes, double write_bytes)
{
    if (!isnan(read_bytes))
        layers_set(s, "host", "hostarm_read_bytes", "bytes", false, read_bytes);
    if (!isnan(write_bytes))
        layers_set(s, "host", "hostarm_write_bytes", "bytes", false, write_bytes);
}

/* ---- samples ---- */

void layers_samples(const struct layer_snapshot *before, const struct layer_snapshot *after,
                    struct samples *samples, int guest)
{
    for (size_t i = 0; i < after->n; i++) {
        const struct layer_value *a = &after->v[i];
        double value = a->v;
        if (!a->gauge) {
            double b = layers_get(before, a->name);
            if (isnan(b))
                continue; /* read once only: no delta to give */
            value = a->v - b;
        }
        json_object *extra = json_object_new_object();
        json_object_object_add(extra, "layer", json_object_new_string(a->layer));
        if (a->device[0])
            json_object_object_add(extra, "device", json_object_new_string(a->device));
        samples_add(samples, a->name, value, a->unit, guest, NULL, 0, extra);
    }
}
