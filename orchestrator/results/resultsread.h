/* resultsread.h: a results directory read back into memory for reports:
 * meta.json (plan, accel, context), samples.jsonl (one sample per line) and
 * the scenario.ini copy. The format is described in results/README.md.
 *
 * samples.jsonl is read line by line: a line that is not a JSON object with
 * a "metric" string and a numeric "value" is reported as FILE:LINE and
 * skipped (an interrupted run may leave a partial last line); the rest is
 * used. Absent text fields read as "" (never NULL).
 *
 * Everything read is hostile input (results directories are shared): names
 * are checked like a scenario's (an arm name is 1 to 16 of a-z, 0-9, '_'; a
 * variant label holds letters, digits, spaces and ._-/=+:, only), label
 * values against their allowed sets, lengths are bounded and numbers must
 * be finite. A name that fails the check makes results_read() refuse the
 * directory, naming the file and the value; a sample whose other labels
 * fail is reported as FILE:LINE and skipped (labels.device must be a kernel
 * block device name: 1 to 32 letters, digits, '-', '_' or '.'). A sample whose "value" is
 * null is kept with value NAN: the figure was not available.
 *
 * The files: readdir.c reads a directory, with readmeta.c (meta.json) and
 * readsamples.c (samples.jsonl); readcheck.c holds the checks; resultsread.c
 * the model below (freeing it, the lookups). */
#ifndef VBED_RESULTSREAD_H
#define VBED_RESULTSREAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RESULTS_ARM_NAME_MAX 16      /* as a scenario's section name */
#define RESULTS_LABEL_MAX 2047       /* a variant label (plan.c's buffer) */
#define RESULTS_MAX_VARIANTS 100000

struct results_sample {
    char *metric;
    double value; /* NAN: "value": null, the figure was not available */
    char *unit;
    char *arm, *arm_kind; /* labels.arm, labels.arm_kind */
    char *phase;          /* labels.phase: "warmup", "measure" or "" */
    char *when;           /* labels.when: "before", "after" or "" */
    char *accel;          /* labels.accel: "kvm", "tcg", "none" or "" */
    char *fits;           /* labels.fits: "buffer_pool", "guest_page_cache", "host_page_cache", "none" or "" */
    char *basis;          /* labels.basis: "estimate", "on_disk" (older results: file
                             sizes), "pool_frames" (pages in use as 16 KiB frames) or "" */
    char *steady;         /* labels.steady: "yes", "no", "unshown" (a measure phase's drift
                             neither beyond its CI nor shown within +-5 %) or "" */
    char *mode;           /* labels.mode: "auto", "fixed" or "" */
    char *layer;          /* labels.layer: "workload", "innodb", "guest", "hypervisor", "host" or "" */
    char *device;         /* labels.device: a kernel block device name ("vda1") or "" */
    char *host;           /* labels.host: the hypervisor host (a libvirt URI without query) or "" */
    int guest;            /* labels.guest: 1..guests; 0 for host and whole-run samples */
    int repeat, seq;      /* labels.repeat, labels.seq (0 if absent) */
    int pair;             /* labels.pair: a pair of workloads/pscost.h's slices, 1..; 0 if absent */
    int *variants;        /* labels.variants (1-based); none listed: serves every variant */
    size_t n_variants;
    double t; /* labels.t (tps_interval), when has_t */
    bool has_t;
    double timestamp;
    char *source;
    size_t line; /* its line in samples.jsonl */
};

struct results_variant {
    int index; /* 1-based, as in labels.variants */
    char *label;
};

struct results_arm {
    char *name;
    char *kind; /* "host" or "guest" */
};

/* A scalar of meta.json outside the plan, e.g. {"host.cpu_model", "..."}. */
struct results_field {
    char *key, *value;
};

/* runs[].placement.guests[]: where one guest's threads were pinned. */
struct results_pin {
    int guest;
    char *vcpus, *emulator; /* host CPU lists ("0", "2-3,6"), "" if absent */
};

struct results_run {
    int seq, repeat;
    char *run, *arm, *status, *dir;
    int *variants;
    size_t n_variants;
    char *disk_cache;              /* config.disk_cache, "" for host runs */
    int guests;                    /* config.guests; 1 for a host run; 0 if unknown */
    struct results_field *config;  /* config, in file order */
    size_t n_config;
    /* placement; pin "" when meta.json has none */
    char *pin;         /* "auto" or "none" */
    int pin_applied;   /* 1 applied, 0 not, -1 unknown */
    char *pin_reason;  /* why (not) */
    char *pin_host_cpus;
    struct results_pin *pins;
    size_t n_pins;
    char *hypervisor_fields; /* the libvirt stat fields offered, comma-separated; "" if absent */
};

struct results_data {
    char *dir;
    int dirfd;           /* while it is read: the directory, opened once (-1 after) */
    char *scenario_name, *scenario_sha256, *status, *accel, *accel_reason;
    char *started_at, *ended_at;
    char *scenario_text; /* scenario.ini, NULL if absent */
    struct results_variant *variants;
    size_t n_variants;
    struct results_arm *arms; /* meta.json's, then any only the samples name */
    size_t n_arms;
    struct results_run *runs;
    size_t n_runs;
    struct results_sample *samples;
    size_t n_samples;
    size_t bad_lines;              /* lines of samples.jsonl skipped */
    struct results_field *context; /* vbed version, host, versions, image ... */
    size_t n_context;
    char *order_mode; /* order.mode: "shuffle", "fixed" or "" */
    int64_t order_seed;
    bool has_order_seed;
    /* the libvirt URIs meta.json names (libvirt.uri, hosts[].host,
     * runs[].hosts), each once; one that fails results_valid_host_label()
     * is left out (they only feed the shell completion of -c) */
    char **uris;
    size_t n_uris;
};

/* Read dir. NULL (reported) if dir or its meta.json cannot be read. A
 * missing samples.jsonl is a warning: a run that measured nothing yet.
 * The directory is opened once (the path the caller named, links and
 * all) and each file in it through that descriptor: never through a
 * symbolic link, only a regular file (a FIFO or a device is refused
 * without blocking), within its limit: meta.json RESULTS_META_MAX,
 * samples.jsonl RESULTS_SAMPLES_MAX with lines of at most
 * RESULTS_LINE_MAX (a longer line is skipped), scenario.ini
 * RESULTS_SCENARIO_MAX (otherwise left out, said so). */
#define RESULTS_META_MAX (64L << 20)
#define RESULTS_SAMPLES_MAX (256L << 20)
#define RESULTS_LINE_MAX (1L << 20)
#define RESULTS_SCENARIO_MAX (1L << 20)
struct results_data *results_read(const char *dir);
/* The same without samples.jsonl and scenario.ini (n_samples 0): what
 * meta.json alone says. */
struct results_data *results_read_meta(const char *dir);
void results_data_free(struct results_data *rd);

/* Whether a sample (or run) serves variant index. */
bool results_sample_in_variant(const struct results_sample *s, int variant);
bool results_run_in_variant(const struct results_run *r, int variant);

/* Lookups; NULL when absent. */
const struct results_arm *results_find_arm(const struct results_data *rd, const char *name);
const struct results_run *results_find_run(const struct results_data *rd, int seq);

/* Whether the figures of run seq count: meta.json says it ended "ok" (or
 * does not know the run, or its status). */
bool results_run_ok(const struct results_data *rd, int seq);

/* A run's config value, "" when absent. */
const char *results_run_config(const struct results_run *r, const char *key);

/* The checks results_read() applies, for the tests and for callers that
 * build names: an arm name, a variant label. */
bool results_valid_arm_name(const char *s);
/* labels.host: 1 to 255 printable ASCII characters, none of space, quotes,
 * '|', '<', '>', '`' or '\\' (a URI without its query, or several joined by ','). */
bool results_valid_host_label(const char *s);
bool results_valid_variant_label(const char *s);

/* The accel, "" when meta.json does not say; is it software emulation? */
bool results_is_tcg(const struct results_data *rd);

#endif
