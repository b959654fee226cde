/* meta.h: meta.json of a results directory: what ran where (host, versions,
 * accel, image, plan, each run's settings and status). Written when the
 * run starts and rewritten (atomically) as it goes, so that an interrupted
 * vbed leaves one that says how far it got. Format: results/README.md. */
#ifndef VBED_META_H
#define VBED_META_H

#include "scenario/plan.h"

#include <json-c/json.h>

struct meta;

/* Host facts, scenario, variants and arms; status "running". NULL reported. */
struct meta *meta_create(const char *results_dir, const struct plan *p);
void meta_free(struct meta *m);

/* Set a top-level member, or a member of a top-level object ("libvirt",
 * "versions", "image"), e.g. meta_set(m, "versions", "sysbench", v). The
 * value is consumed. */
void meta_set(struct meta *m, const char *object, const char *key, json_object *value);

/* A run: returns its object (owned by meta) to fill in as it goes. */
json_object *meta_add_run(struct meta *m, unsigned seq, const char *runid, const struct plan *p,
                          size_t spec, long long repeat, const char *dir);

int meta_write(struct meta *m);
/* ended_at, status, and a last write. */
int meta_finish(struct meta *m, const char *status);

/* The resolved keys of a config as a JSON object of strings. */
json_object *meta_config_json(const struct run_config *cfg, int arm_kind);

#endif
