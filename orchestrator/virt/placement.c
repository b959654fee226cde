/* placement.c: pinning of guests and the host arm (see placement.h). */
#include "virt/placement.h"

#include "util/cpuwindow.h"
#include "util/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void placement_decide(const struct plan *p, const struct cpuwindow *w, struct placement *out)
{
    long online = w->count;
    *out = (struct placement){.win = *w};
    /* where the window is narrower than the host: ", CPUs 2-3" after a
     * count, and what unpinned threads share */
    char range[40], win[64] = "", where[64] = "all CPUs";
    cpuwindow_text(w, range, sizeof(range));
    if (!w->all) {
        snprintf(win, sizeof(win), ", CPU%s %s", online == 1 ? "" : "s", range);
        snprintf(where, sizeof(where), "vbed's CPU%s (%s)", online == 1 ? "" : "s", range);
    }
    if (p->global.pin == PIN_NONE) {
        if (w->all)
            snprintf(out->reason, sizeof(out->reason), "pin = none");
        else
            snprintf(out->reason, sizeof(out->reason), "pin = none: the guests share %s", where);
        return;
    }
    long long need = 0, need_vcpus = 0;
    for (size_t s = 0; s < p->n_specs; s++) {
        const struct run_config *c = &p->specs[s].cfg;
        bool guest = p->arms[p->specs[s].arm].kind == ARM_GUEST;
        long long n = guest ? c->guests * (c->vcpus + 1) : c->vcpus;
        long long nv = guest ? c->guests * c->vcpus : c->vcpus;
        if (n > need)
            need = n;
        if (nv > need_vcpus)
            need_vcpus = nv;
    }
    if (need <= online) {
        out->pin = out->emulators = true;
        snprintf(out->reason, sizeof(out->reason),
                 "pin = auto: every guest's vCPUs and emulator threads on host CPUs of their own "
                 "(%lld of %ld CPUs at most%s)",
                 need, online, win);
    } else if (need_vcpus <= online) {
        out->pin = true;
        snprintf(out->reason, sizeof(out->reason),
                 "pin = auto: every guest's vCPUs on host CPUs of their own (%lld of %ld CPUs at "
                 "most%s); the emulator threads share %s, as the largest arm would need %lld "
                 "for them to have their own",
                 need_vcpus, online, win, where, need);
    } else {
        snprintf(out->reason, sizeof(out->reason),
                 "pin = auto, but the largest arm has %lld vCPUs and this host %ld CPUs%s: "
                 "nothing is pinned, the guests share %s",
                 need_vcpus, online, w->all ? "" : " for vbed", w->all ? "the host's CPUs" : where);
    }
}

void placement_guest_cpuset(const struct placement *pl, char *buf, size_t len)
{
    cpuwindow_text(&pl->win, buf, len); /* "" for the whole host */
}

bool placement_confined(const struct placement *pl) { return !pl->win.all; }

/* CPUs a guest takes: its vCPUs, and one for its emulators when pinned */
static long long stride(const struct placement *pl, const struct run_config *cfg)
{
    return cfg->vcpus + (pl->emulators ? 1 : 0);
}

int placement_vcpu_cpu(const struct placement *pl, const struct run_config *cfg, int n, int vcpu)
{
    return (int)(pl->win.first + (n - 1) * stride(pl, cfg) + vcpu);
}

int placement_emulator_cpu(const struct placement *pl, const struct run_config *cfg, int n)
{
    return pl->emulators ? (int)(pl->win.first + (n - 1) * stride(pl, cfg) + cfg->vcpus) : -1;
}

void placement_host_cpus(long long vcpus, long first, long online, char *buf, size_t len)
{
    long long n = vcpus < online ? vcpus : online;
    cpuwindow_text(&(struct cpuwindow){.first = first, .count = n < 1 ? 1 : (long)n}, buf, len);
}

/* the CPUs set in a libvirt cpumap, as "0,2" */
static void map_text(const unsigned char *map, int maplen, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int c = 0; c < maplen * 8; c++)
        if (VIR_CPU_USABLE(map, maplen, 0, c))
            used += (size_t)snprintf(buf + used, used < len ? len - used : 0, "%s%d",
                                     used ? "," : "", c);
}

/* the map holds CPUs first .. first+count-1 and no other */
static bool map_is(const unsigned char *map, int maplen, long first, long count)
{
    for (int c = 0; c < maplen * 8; c++)
        if (!!VIR_CPU_USABLE(map, maplen, 0, c) != (c >= first && c < first + count))
            return false;
    return true;
}

static bool map_is_only(const unsigned char *map, int maplen, int cpu)
{
    return map_is(map, maplen, cpu, 1);
}

int placement_verify_guest(virDomainPtr dom, const struct placement *pl,
                           const struct run_config *cfg, int n, char *why, size_t len)
{
    virNodeInfo node;
    virConnectPtr conn = virDomainGetConnect(dom);
    if (virNodeGetInfo(conn, &node) < 0) {
        snprintf(why, len, "cannot read the host's CPU count through libvirt");
        return -1;
    }
    int cpus = (int)VIR_NODEINFO_MAXCPUS(node);
    int maplen = VIR_CPU_MAPLEN(cpus);
    int nv = (int)cfg->vcpus;
    virVcpuInfoPtr info = xcalloc((size_t)nv, sizeof(*info));
    unsigned char *maps = xcalloc((size_t)nv, (size_t)maplen);
    unsigned char *emu = xcalloc(1, (size_t)maplen);
    char have[256];
    int rc = 0;
    int got = virDomainGetVcpus(dom, info, nv, maps, maplen);
    if (got != nv) {
        snprintf(why, len, "libvirt reports %d of %d vCPUs' affinity", got < 0 ? 0 : got, nv);
        rc = -1;
    }
    char win[40];
    placement_guest_cpuset(pl, win, sizeof(win));
    for (int v = 0; rc == 0 && v < nv; v++) {
        const unsigned char *m = VIR_GET_CPUMAP(maps, maplen, v);
        int want = placement_vcpu_cpu(pl, cfg, n, v);
        bool ok = pl->pin ? map_is_only(m, maplen, want)
                          : pl->win.all || map_is(m, maplen, pl->win.first, pl->win.count);
        if (!ok) {
            map_text(m, maplen, have, sizeof(have));
            if (pl->pin)
                snprintf(why, len, "vCPU %d runs on host CPUs %s, not on CPU %d", v, have, want);
            else
                snprintf(why, len, "vCPU %d runs on host CPUs %s, not on vbed's CPUs %s", v, have, win);
            rc = -1;
        }
    }
    if (rc == 0 && (pl->emulators || !pl->win.all)) {
        int want = placement_emulator_cpu(pl, cfg, n);
        if (virDomainGetEmulatorPinInfo(dom, emu, maplen, VIR_DOMAIN_AFFECT_LIVE) < 0) {
            snprintf(why, len, "libvirt cannot report the emulator threads' pinning");
            rc = -1;
        } else if (pl->emulators ? !map_is_only(emu, maplen, want)
                                 : !map_is(emu, maplen, pl->win.first, pl->win.count)) {
            map_text(emu, maplen, have, sizeof(have));
            if (pl->emulators)
                snprintf(why, len, "the emulator threads run on host CPUs %s, not on CPU %d", have, want);
            else
                snprintf(why, len, "the emulator threads run on host CPUs %s, not on vbed's CPUs %s",
                         have, win);
            rc = -1;
        }
    }
    free(info);
    free(maps);
    free(emu);
    return rc;
}

json_object *placement_json_guests(const struct placement *pl, const struct run_config *cfg,
                                   bool applied, const char *why)
{
    json_object *o = json_object_new_object();
    json_object_object_add(o, "pin", json_object_new_string(pl->pin ? "auto" : "none"));
    json_object_object_add(o, "applied", json_object_new_boolean(applied));
    json_object_object_add(o, "reason", json_object_new_string(why && *why ? why : pl->reason));
    if (!pl->win.all) {
        char win[40];
        placement_guest_cpuset(pl, win, sizeof(win));
        json_object_object_add(o, "cpuset", json_object_new_string(win));
    }
    if (pl->pin) {
        json_object_object_add(o, "emulators", json_object_new_boolean(pl->emulators));
        json_object *arr = json_object_new_array();
        for (int n = 1; n <= cfg->guests; n++) {
            json_object *g = json_object_new_object();
            char cpus[128] = "";
            size_t used = 0;
            for (int v = 0; v < cfg->vcpus; v++)
                used += (size_t)snprintf(cpus + used, used < sizeof(cpus) ? sizeof(cpus) - used : 0,
                                         "%s%d", v ? "," : "", placement_vcpu_cpu(pl, cfg, n, v));
            json_object_object_add(g, "guest", json_object_new_int(n));
            json_object_object_add(g, "vcpus", json_object_new_string(cpus));
            if (pl->emulators) {
                char emu[16];
                snprintf(emu, sizeof(emu), "%d", placement_emulator_cpu(pl, cfg, n));
                json_object_object_add(g, "emulator", json_object_new_string(emu));
            }
            json_object_array_add(arr, g);
        }
        json_object_object_add(o, "guests", arr);
    }
    return o;
}

json_object *placement_json_host(const struct placement *pl, const char *cpus, bool applied,
                                 const char *why)
{
    json_object *o = json_object_new_object();
    json_object_object_add(o, "pin", json_object_new_string(pl->pin ? "auto" : "none"));
    json_object_object_add(o, "applied", json_object_new_boolean(applied));
    json_object_object_add(o, "reason", json_object_new_string(why && *why ? why : pl->reason));
    if (cpus)
        json_object_object_add(o, "host_cpus", json_object_new_string(cpus));
    return o;
}
