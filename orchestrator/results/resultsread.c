/* resultsread.c: the in-memory model of a results directory (resultsread.h):
 * freeing it, the lookups the report makes (arms, runs, a run's config,
 * which variant a sample or run serves, whether a run counts, TCG or not),
 * and the two additions its readers make (readmodel.h). Reading is
 * readdir.c's, with readmeta.c and readsamples.c; the checks of what is
 * read are readcheck.c's. */
#include "results/resultsread.h"
#include "results/readmodel.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <unistd.h>
#include <string.h>

void results_sample_free(struct results_sample *s)
{
    free(s->host);
    free(s->metric);
    free(s->unit);
    free(s->arm);
    free(s->arm_kind);
    free(s->phase);
    free(s->when);
    free(s->accel);
    free(s->fits);
    free(s->basis);
    free(s->steady);
    free(s->mode);
    free(s->layer);
    free(s->device);
    free(s->variants);
    free(s->source);
}

void results_add_arm(struct results_data *rd, const char *name, const char *kind)
{
    if (results_find_arm(rd, name))
        return;
    rd->arms = xrealloc(rd->arms, (rd->n_arms + 1) * sizeof(*rd->arms)); /* a handful */
    rd->arms[rd->n_arms].name = xstrdup(name);
    rd->arms[rd->n_arms].kind = xstrdup(kind);
    rd->n_arms++;
}

void results_data_free(struct results_data *rd)
{
    if (!rd)
        return;
    for (size_t i = 0; i < rd->n_uris; i++)
        free(rd->uris[i]);
    free(rd->uris);
    for (size_t i = 0; i < rd->n_samples; i++)
        results_sample_free(&rd->samples[i]);
    free(rd->samples);
    for (size_t i = 0; i < rd->n_variants; i++)
        free(rd->variants[i].label);
    free(rd->variants);
    for (size_t i = 0; i < rd->n_arms; i++) {
        free(rd->arms[i].name);
        free(rd->arms[i].kind);
    }
    free(rd->arms);
    for (size_t i = 0; i < rd->n_runs; i++) {
        struct results_run *r = &rd->runs[i];
        free(r->run);
        free(r->arm);
        free(r->status);
        free(r->dir);
        free(r->variants);
        free(r->disk_cache);
        for (size_t k = 0; k < r->n_config; k++) {
            free(r->config[k].key);
            free(r->config[k].value);
        }
        free(r->config);
        free(r->pin);
        free(r->pin_reason);
        free(r->pin_host_cpus);
        for (size_t k = 0; k < r->n_pins; k++) {
            free(r->pins[k].vcpus);
            free(r->pins[k].emulator);
        }
        free(r->pins);
        free(r->hypervisor_fields);
    }
    free(rd->runs);
    for (size_t i = 0; i < rd->n_context; i++) {
        free(rd->context[i].key);
        free(rd->context[i].value);
    }
    free(rd->context);
    free(rd->dir);
    if (rd->dirfd > 0)
        close(rd->dirfd);
    free(rd->scenario_name);
    free(rd->scenario_sha256);
    free(rd->status);
    free(rd->accel);
    free(rd->accel_reason);
    free(rd->started_at);
    free(rd->ended_at);
    free(rd->order_mode);
    free(rd->scenario_text);
    free(rd);
}

static bool has_variant(const int *v, size_t n, int variant)
{
    if (n == 0)
        return true;
    for (size_t i = 0; i < n; i++)
        if (v[i] == variant)
            return true;
    return false;
}

bool results_sample_in_variant(const struct results_sample *s, int variant)
{
    return has_variant(s->variants, s->n_variants, variant);
}

bool results_run_in_variant(const struct results_run *r, int variant)
{
    return has_variant(r->variants, r->n_variants, variant);
}

const struct results_arm *results_find_arm(const struct results_data *rd, const char *name)
{
    for (size_t i = 0; i < rd->n_arms; i++)
        if (strcmp(rd->arms[i].name, name) == 0)
            return &rd->arms[i];
    return NULL;
}

const struct results_run *results_find_run(const struct results_data *rd, int seq)
{
    for (size_t i = 0; i < rd->n_runs; i++)
        if (rd->runs[i].seq == seq)
            return &rd->runs[i];
    return NULL;
}

bool results_run_ok(const struct results_data *rd, int seq)
{
    const struct results_run *run = results_find_run(rd, seq);
    return !run || !*run->status || !strcmp(run->status, "ok");
}

const char *results_run_config(const struct results_run *r, const char *key)
{
    for (size_t i = 0; i < r->n_config; i++)
        if (!strcmp(r->config[i].key, key))
            return r->config[i].value;
    return "";
}

bool results_is_tcg(const struct results_data *rd) { return strcmp(rd->accel, "tcg") == 0; }
