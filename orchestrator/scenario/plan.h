/* plan.h: what a scenario will run: arms, variants and runs.
 *
 * Every key that holds a list is an axis; the variants are the cartesian
 * product of the axes, enumerated like an odometer: the axis that appears
 * first in the file changes slowest, the last one fastest. Each (variant,
 * arm) resolves every key: the arm's own value, else [global]'s, else the
 * default. Runs of one arm whose settings are the same for the keys that
 * affect that arm's kind are shared between variants and run once (the host
 * arm does not care about disk_cache, for instance). */
#ifndef VBED_PLAN_H
#define VBED_PLAN_H

#include "scenario/keys.h"
#include "scenario/scenario.h"

#define PLAN_ARM_NAME_MAX 17

struct plan_arm {
    char name[PLAN_ARM_NAME_MAX];
    int kind;    /* enum arm_kind */
    size_t section;
};

struct plan_axis {
    size_t section; /* 0: [global] */
    const struct scn_entry *entry;
};

struct plan_variant {
    char *label;       /* "compression=row-zlib disk_cache=none", or "default" */
    size_t *choice;    /* per axis: index of the item */
    size_t *spec_of_arm; /* per arm: index into plan.specs */
};

/* One distinct run: an arm with its resolved settings. Executed `repeats`
 * times. */
struct plan_spec {
    size_t arm;
    struct run_config cfg;
    size_t first_variant;
    size_t *variants; /* the variants that use it, ascending */
    size_t n_variants;
};

struct plan {
    const struct scenario *scn;
    struct run_config global; /* [global] resolved: repeats, image, pool ... */
    struct plan_arm *arms;
    size_t n_arms;
    struct plan_axis *axes;
    size_t n_axes;
    struct plan_variant *variants;
    size_t n_variants;
    struct plan_spec *specs;
    size_t n_specs;
};

/* At most this many variants: more could never run, and the dry run
 * would print for minutes. */
#define PLAN_MAX_VARIANTS 100000

/* Resolve and check every run of scn. NULL on errors (added to d). Time and
 * memory grow linearly with the number of variants. */
struct plan *plan_build(const struct scenario *scn, struct diag *d);
void plan_free(struct plan *p);

/* Print the plan as `vbed run --dry-run` shows it. */
void plan_print(const struct plan *p, FILE *out);

/* Variants (1-based, comma-separated) that use spec, e.g. "1,3". */
void plan_spec_variants(const struct plan *p, size_t spec, char *buf, size_t len);

#endif
