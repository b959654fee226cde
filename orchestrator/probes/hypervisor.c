/* hypervisor.c: the hypervisor probe (see probe.h): what libvirt counts
 * for a guest's domain (virDomainListGetStats) -- the data disk's rd/wr/fl
 * requests, bytes and times, QEMU's cpu.time, the vCPUs' time and delay
 * (waiting for a host CPU), the balloon's disk caches where there is one.
 * The run's first guest says which of these this libvirt offers
 * (meta.json's hypervisor_fields). Only a target with a domain has it.
 * The vCPUs' time and delay are read again at the two instants inside the
 * phase, next to the chain's readings (registry.c nests them), so that the
 * vCPU's preempted share the time split uses is over the chain's interval,
 * not the whole phase's. */
#include "probes/probe.h"

#include "util/log.h"
#include "util/monotime.h"
#include "util/xalloc.h"

#include <libvirt/libvirt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void field_name(char *fields, size_t len, const char *name)
{
    if (!fields || strstr(fields, name))
        return;
    size_t used = strlen(fields);
    snprintf(fields + used, len - used, "%s%s", used ? "," : "", name);
}

/* The vCPUs' time and delay summed over all vCPUs, in s; -1 where
 * libvirt does not give it for every vCPU. */
static void vcpu_sums(virTypedParameterPtr p, int np, double *time, double *delay)
{
    unsigned int nv = 0;
    unsigned long long v;
    *time = *delay = -1;
    if (virTypedParamsGetUInt(p, np, "vcpu.current", &nv) != 1 || nv == 0)
        return;
    double t = 0, d = 0;
    bool have_time = true, have_delay = true;
    for (unsigned int i = 0; i < nv; i++) {
        char key[64];
        snprintf(key, sizeof(key), "vcpu.%u.time", i);
        if (virTypedParamsGetULLong(p, np, key, &v) == 1)
            t += (double)v / 1e9;
        else
            have_time = false;
        snprintf(key, sizeof(key), "vcpu.%u.delay", i);
        if (virTypedParamsGetULLong(p, np, key, &v) == 1)
            d += (double)v / 1e9;
        else
            have_delay = false;
    }
    if (have_time)
        *time = t;
    if (have_delay)
        *delay = d;
}

/* One reading of domain dom's stats for its disk (target name "vdb");
 * fields, if not NULL, gets the names of the stats libvirt offered. */
static void snapshot(virDomainPtr dom, const char *disk, struct layer_snapshot *s, char *fields,
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
    double time, delay;
    vcpu_sums(p, np, &time, &delay);
    if (time >= 0) {
        layers_set(s, "hypervisor", "qemu_vcpu_s", "s", false, time);
        field_name(fields, fields_len, "vcpu.N.time");
    }
    if (delay >= 0) {
        layers_set(s, "hypervisor", "qemu_vcpu_delay_s", "s", false, delay);
        field_name(fields, fields_len, "vcpu.N.delay");
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

static void read_one(struct probe_target *pt, struct layer_snapshot *s)
{
    char *fields = pt->first ? pt->run->hypervisor_fields : NULL;
    snapshot(pt->t->dom, "vdb", s, fields, sizeof(pt->run->hypervisor_fields));
}

/* the phase's two readings, and the vCPUs' at the two instants inside it */
struct state {
    struct layer_pair phase;
    bool ok[2];
    double at[2], time[2], delay[2]; /* at: the host's monotonic clock, s */
};

static int before(struct probe_target *pt, void **state)
{
    if (!pt->t->dom)
        return 0;
    struct state *st = xcalloc(1, sizeof(*st));
    *state = st;
    read_one(pt, &st->phase.before);
    return 0;
}

static void during(struct probe_target *pt, void *state, int k)
{
    struct state *st = state;
    if (!st || k < 0 || k > 1 || (k == 1 && !st->ok[0]))
        return;
    virDomainPtr doms[] = {pt->t->dom, NULL};
    virDomainStatsRecordPtr *recs = NULL;
    double at = monotime_s();
    if (virDomainListGetStats(doms, VIR_DOMAIN_STATS_VCPU, &recs, 0) >= 1) {
        vcpu_sums(recs[0]->params, recs[0]->nparams, &st->time[k], &st->delay[k]);
        st->at[k] = at;
        st->ok[k] = st->time[k] >= 0 && st->delay[k] >= 0;
    }
    virDomainStatsRecordListFree(recs);
}

static int after(struct probe_target *pt, void *state)
{
    struct state *st = state;
    if (st)
        read_one(pt, &st->phase.after);
    return 0;
}

static void record(struct probe_target *pt, void *state, struct samples *s, bool layers)
{
    struct state *st = state;
    if (!st || !layers)
        return;
    layers_samples(&st->phase.before, &st->phase.after, s, pt->t->guest);
    double time = st->time[1] - st->time[0], delay = st->delay[1] - st->delay[0];
    if (st->ok[0] && st->ok[1] && time >= 0 && delay >= 0 && st->at[1] > st->at[0]) {
        samples_add(s, "qemu_vcpu_inner_s", time, "s", pt->t->guest, NULL, 0, NULL);
        samples_add(s, "qemu_vcpu_delay_inner_s", delay, "s", pt->t->guest, NULL, 0, NULL);
        samples_add(s, "qemu_vcpu_inner_interval_s", st->at[1] - st->at[0], "s", pt->t->guest, NULL,
                    0, NULL);
    }
}

const struct probe probe_hypervisor = {
    .name = "hypervisor",
    .before = before,
    .after = after,
    .during = during,
    .record = record,
    .free = free,
};
