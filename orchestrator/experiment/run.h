/* run.h: what the runner (runner.h) shares with the code that executes one
 * run of a guest arm (guestrun.h) or of the host arm (hostrun.h): the
 * runner's state and one run's. Data only: a run gets what it needs
 * decided here before it starts (the domain type of each guest, the host
 * arm's URI), and calls nothing back. */
#ifndef VBED_EXPERIMENT_RUN_H
#define VBED_EXPERIMENT_RUN_H

#include "virt/hostset.h"
#include "hostside/hostside.h"
#include "virt/hypervisor.h"
#include "image/image.h"
#include "virt/layout.h"
#include "results/meta.h"
#include "virt/placement.h"
#include "scenario/plan.h"
#include "results/results.h"
#include "results/samples.h"
#include "results/session.h"
#include "virt/storage.h"

#include <json-c/json.h>
#include <limits.h>
#include <stdbool.h>

struct runner_opts {
    const char *uri;          /* libvirt URI or NULL */
    const char *results_root; /* default "results" */
    const char *session;      /* --id or NULL */
    bool keep;                /* keep per-guest disks */
    bool boot_only;           /* start guests, wait for MariaDB, stop: no workload */
    bool cold;                /* boot every guest (start = cold everywhere) */
};

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
    int *guest_virt_type;   /* a guest arm: the domain type of each guest (on its host) */
    const char *host_uri;   /* a host arm: the URI of its host (NULL: libvirt's default) */
    double headline;        /* the result, for repeats = auto; <0 if none */
};

#endif
