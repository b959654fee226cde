/* placement.h: which host CPUs a run's guests and host arm use (pin).
 *
 * pin = auto pins when the host has a CPU for every vCPU and every guest's
 * emulator threads of the largest guest arm (guests x (vcpus + 1)): guest n
 * (1-based) gets CPUs f+(n-1)(v+1) .. f+(n-1)(v+1)+v-1 for its vCPUs and the
 * next one for its emulator threads. Where the host has a CPU for every
 * vCPU but not for the emulators too (guests x vcpus), only the vCPUs are
 * pinned -- guest n's on f+(n-1)v .. f+(n-1)v+v-1 -- and the emulator
 * threads float over the window's CPUs (every CPU, with no narrower
 * affinity): under TCG, two unpinned guests on two CPUs spent a third more
 * vCPU time per transaction than the same guests with their vCPUs pinned,
 * and that hid a tuning's effect (README, Placement). The
 * host arm gets as many CPUs as a guest has vCPUs: those guest 1's vCPUs
 * get (f .. f+v-1), so that the arms run on the same cores. f is the first
 * of the CPUs vbed may run on (util/cpuwindow.h: its affinity, on a local
 * hypervisor; 0 on a remote one), and "the host's CPUs" are that window's:
 * under `taskset -c 1 vbed run`, a one-guest run pins its vCPU to CPU 1,
 * and whatever is not pinned to a CPU of its own (the emulator threads,
 * the vCPUs of guests too many to pin) stays on the window's CPUs
 * (placement_guest_cpuset). The decision is made once for the whole
 * scenario, so that every arm is placed alike; when
 * CPUs are too few (or pin = none) nothing is pinned and the reason is
 * recorded. A pinning is recorded as applied only after it was read back
 * from the running guest (placement_verify_guest) or the host arm's
 * processes. */
#ifndef VBED_PLACEMENT_H
#define VBED_PLACEMENT_H

#include "scenario/plan.h"
#include "util/cpuwindow.h"

#include <json-c/json.h>
#include <libvirt/libvirt.h>
#include <stdbool.h>
#include <stddef.h>

struct placement {
    bool pin;          /* decided: pin every guest's vCPUs and the host arm */
    bool emulators;    /* and every guest's emulator threads (only with pin) */
    struct cpuwindow win; /* the host CPUs vbed places on; narrower than the
                             host (!win.all), every guest's threads stay in it
                             where nothing pins them closer */
    char reason[400];  /* why (not) */
};

/* Decide for the whole plan on the CPUs of window `win`. */
void placement_decide(const struct plan *p, const struct cpuwindow *win, struct placement *out);

/* The CPUs every guest may use at all, as a cpuset list for <vcpu cpuset>
 * ("1", "2-3"): the window where confined, "" where any host CPU. Under
 * `taskset -c 1 vbed run`, a guest whose emulator threads have no CPU of
 * their own keeps them on CPU 1 (libvirt gives them the vCPUs' cpuset),
 * and two guests that cannot be pinned share CPU 1 -- never CPU 0, which
 * is someone else's (two tests run side by side this way, a CPU each). */
void placement_guest_cpuset(const struct placement *pl, char *buf, size_t len);

/* Whether the window is narrower than the host (the guests are kept to it). */
bool placement_confined(const struct placement *pl);

/* Guest n's (1-based) vCPU i's host CPU, and its emulator threads' CPU
 * (-1: the emulators are not pinned). */
int placement_vcpu_cpu(const struct placement *pl, const struct run_config *cfg, int n, int vcpu);
int placement_emulator_cpu(const struct placement *pl, const struct run_config *cfg, int n);

/* The host arm's CPUs as a cpuset list ("0" or "0-3"): the first
 * min(vcpus, online) CPUs from `first` on, pinned or not. */
void placement_host_cpus(long long vcpus, long first, long online, char *buf, size_t len);

/* Read the running guest's vCPU affinity (virDomainGetVcpus: the threads'
 * real affinity) and its emulator pinning back and compare them with the
 * plan: each pinned thread on its CPU, each other one on the window's CPUs
 * where confined. 0 if they match; -1 with the difference in why. */
int placement_verify_guest(virDomainPtr dom, const struct placement *pl,
                           const struct run_config *cfg, int n, char *why, size_t len);

/* meta.json's runs[].placement for a guest arm run / a host arm run. */
json_object *placement_json_guests(const struct placement *pl, const struct run_config *cfg,
                                   bool applied, const char *why);
json_object *placement_json_host(const struct placement *pl, const char *cpus, bool applied,
                                 const char *why);

#endif
