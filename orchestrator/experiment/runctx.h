/* runctx.h: what the runner shares with the code that executes one run of
 * a guest arm (guestrun.c) or of the host arm (hostrun.c). Internal to the
 * runner; see runner.h for what it does. */
#ifndef VBED_RUNCTX_H
#define VBED_RUNCTX_H

#include "virt/hostset.h"
#include "hostside/hostside.h"
#include "virt/hypervisor.h"
#include "image/image.h"
#include "virt/layout.h"
#include "results/meta.h"
#include "virt/placement.h"
#include "scenario/plan.h"
#include "results/results.h"
#include "experiment/runner.h"
#include "results/samples.h"
#include "results/session.h"
#include "virt/storage.h"

#include <json-c/json.h>
#include <limits.h>

struct runner {
    const struct plan *plan;
    const struct runner_opts *o;
    struct hostset hosts;    /* the guest arms' hypervisor hosts (hostset.h) */
    struct hv *hv;           /* the first of them: versions, the CPUs placement counts */
    struct hostside *local;  /* this machine, where the host arm runs */
    struct image_info img;
    struct results *res;
    struct samples *samples;
    struct meta *meta;
    json_object *meta_hosts; /* meta.json's "hosts" array (owned by meta) */
    char session[SESSION_ID_MAX];
    bool session_started;
    char lua_host[PATH_MAX]; /* vbed_oltp.lua for the host arm */
    unsigned seq;
    int virt_type;           /* the first host's domain type (labels, meta.json accel) */
    bool virt_decided;
    int failed_runs;
    double cpu_measure_s;    /* vbed's CPU time in all measure phases */
    struct placement placement; /* pin: decided once for every arm */
};

/* One run being executed. */
struct run {
    struct runner *r;
    size_t spec;
    const struct plan_spec *sp;
    const char *arm;
    unsigned seq;
    long long repeat;
    char runid[32];
    char dir[PATH_MAX];     /* runs/<seq>-<arm> */
    json_object *meta_run;  /* its entry in meta.json */
    double tps_arm;         /* the result, for repeats = auto; <0 if none */
};

/* Execute a run; 0 if it completed, -1 if it failed (said why). */
int guestrun_execute(struct run *run);
int hostrun_execute(struct run *run);

/* The domain type for a run's guests on host h (virt_type, or auto decided
 * once per host). */
int runner_virt_type(struct runner *r, struct hostset_host *h, const struct run_config *cfg);

/* How samples name the machine a host arm runs on: its hosts key, else the
 * -c URI, else the URI libvirt connected to, else "local". */
/* The URI of the host a host arm runs on: its one `hosts` URI, else -c's
 * (NULL: libvirt's default, this machine). */
const char *runner_host_arm_uri(const struct runner *r, const struct run_config *cfg);
void runner_host_arm_label(const struct runner *r, const struct run_config *cfg, char *buf, size_t len);

#endif
