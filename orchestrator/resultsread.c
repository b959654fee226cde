/* resultsread.c: read a results directory back (see resultsread.h). */
#include "resultsread.h"
#include "xalloc.h"

#include "log.h"
#include "paths.h"

#include <errno.h>
#include <json-c/json.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static void *grow(void *p, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return p;
    size_t n = *cap ? *cap * 2 : 16;
    while (n < need)
        n *= 2;
    p = xrealloc(p, n * size);
    *cap = n;
    return p;
}

/* A string member of obj, "" when absent or not a string. */
static char *str_of(struct json_object *obj, const char *key)
{
    struct json_object *v;
    if (!obj || !json_object_object_get_ex(obj, key, &v) ||
        !json_object_is_type(v, json_type_string))
        return xstrdup("");
    return xstrdup(json_object_get_string(v));
}

static int int_of(struct json_object *obj, const char *key)
{
    struct json_object *v;
    if (!obj || !json_object_object_get_ex(obj, key, &v))
        return 0;
    return json_object_get_int(v);
}

static bool is_number(struct json_object *v)
{
    return json_object_is_type(v, json_type_double) || json_object_is_type(v, json_type_int) ||
           json_object_is_type(v, json_type_boolean);
}

/* An array of integers (labels.variants, runs[].variants). */
static int *ints_of(struct json_object *obj, const char *key, size_t *n)
{
    struct json_object *arr;
    *n = 0;
    if (!obj || !json_object_object_get_ex(obj, key, &arr) ||
        !json_object_is_type(arr, json_type_array) || json_object_array_length(arr) == 0)
        return NULL;
    size_t len = json_object_array_length(arr);
    int *v = xcalloc(len, sizeof(int));
    for (size_t i = 0; i < len; i++)
        v[i] = json_object_get_int(json_object_array_get_idx(arr, i));
    *n = len;
    return v;
}

/* ---- samples.jsonl ---- */

static void sample_free(struct results_sample *s)
{
    free(s->metric);
    free(s->unit);
    free(s->arm);
    free(s->arm_kind);
    free(s->phase);
    free(s->when);
    free(s->accel);
    free(s->variants);
    free(s->source);
}

/* Parse one line into s. NULL on success, else why it was skipped (a
 * constant, or why[] filled in). */
static const char *parse_sample(const char *text, size_t len, struct results_sample *s, char *why,
                                size_t why_len)
{
    struct json_tokener *tok = json_tokener_new();
    if (!tok)
        abort();
    struct json_object *o = json_tokener_parse_ex(tok, text, (int)len);
    enum json_tokener_error err = json_tokener_get_error(tok);
    size_t end = json_tokener_get_parse_end(tok);
    json_tokener_free(tok);
    const char *bad = NULL;
    struct json_object *metric, *value, *labels = NULL;
    if (!o && err == json_tokener_continue)
        bad = "the line ends inside its JSON object (cut short)";
    else if (!o) {
        snprintf(why, why_len, "not valid JSON (%s)", json_tokener_error_desc(err));
        bad = why;
    } else if (end < len && strspn(text + end, " \t\r") < len - end)
        bad = "text after the JSON object";
    else if (!json_object_is_type(o, json_type_object))
        bad = "not a JSON object";
    else if (!json_object_object_get_ex(o, "metric", &metric) ||
             !json_object_is_type(metric, json_type_string))
        bad = "no \"metric\" string";
    else if (!json_object_object_get_ex(o, "value", &value) || !is_number(value))
        bad = "no numeric \"value\"";
    if (bad) {
        json_object_put(o);
        return bad;
    }
    json_object_object_get_ex(o, "labels", &labels);
    if (labels && !json_object_is_type(labels, json_type_object))
        labels = NULL;
    s->metric = xstrdup(json_object_get_string(metric));
    s->value = json_object_get_double(value);
    s->unit = str_of(o, "unit");
    s->arm = str_of(labels, "arm");
    s->arm_kind = str_of(labels, "arm_kind");
    s->phase = str_of(labels, "phase");
    s->when = str_of(labels, "when");
    s->accel = str_of(labels, "accel");
    s->guest = int_of(labels, "guest");
    s->repeat = int_of(labels, "repeat");
    s->seq = int_of(labels, "seq");
    s->variants = ints_of(labels, "variants", &s->n_variants);
    struct json_object *t;
    if (labels && json_object_object_get_ex(labels, "t", &t) && is_number(t)) {
        s->t = json_object_get_double(t);
        s->has_t = true;
    }
    struct json_object *ts;
    if (json_object_object_get_ex(o, "timestamp", &ts) && is_number(ts))
        s->timestamp = json_object_get_double(ts);
    s->source = str_of(o, "source");
    json_object_put(o);
    return NULL;
}

static int read_samples(struct results_data *rd)
{
    char path[PATH_MAX];
    path_join(path, sizeof(path), rd->dir, "samples.jsonl");
    FILE *f = fopen(path, "r");
    if (!f) {
        if (errno == ENOENT) {
            log_warn("'%s' has no samples.jsonl: no run has finished yet.", rd->dir);
            return 0;
        }
        log_error("Cannot open '%s': %s", path, strerror(errno));
        return -1;
    }
    char *line = NULL;
    size_t cap = 0, samples_cap = 0, lineno = 0;
    ssize_t len;
    while ((len = getline(&line, &cap, f)) != -1) {
        lineno++;
        bool complete = len > 0 && line[len - 1] == '\n';
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            line[--len] = '\0';
        if (strspn(line, " \t") == (size_t)len)
            continue;
        struct results_sample s = {0};
        char buf[256];
        const char *why = parse_sample(line, (size_t)len, &s, buf, sizeof(buf));
        if (why) {
            log_plain("%s:%zu: %s; line skipped%s", path, lineno, why,
                      complete ? "" : " (the last line of an interrupted run)");
            rd->bad_lines++;
            continue;
        }
        s.line = lineno;
        rd->samples = grow(rd->samples, &samples_cap, rd->n_samples + 1, sizeof(s));
        rd->samples[rd->n_samples++] = s;
    }
    int rc = 0;
    if (ferror(f)) {
        log_error("Cannot read '%s': %s", path, strerror(errno));
        rc = -1;
    }
    free(line);
    fclose(f);
    return rc;
}

/* ---- meta.json ---- */

static void add_context(struct results_data *rd, size_t *cap, const char *key, const char *value)
{
    rd->context = grow(rd->context, cap, rd->n_context + 1, sizeof(*rd->context));
    rd->context[rd->n_context].key = xstrdup(key);
    rd->context[rd->n_context].value = xstrdup(value);
    rd->n_context++;
}

/* Every scalar outside the plan, "host.cpus" style, in file order. */
static void flatten(struct results_data *rd, size_t *cap, struct json_object *obj,
                    const char *prefix)
{
    json_object_object_foreach(obj, key, val)
    {
        char name[256];
        snprintf(name, sizeof(name), "%s%s%s", prefix, *prefix ? "." : "", key);
        if (!*prefix && (!strcmp(key, "variants") || !strcmp(key, "arms") || !strcmp(key, "runs")))
            continue;
        if (json_object_is_type(val, json_type_object))
            flatten(rd, cap, val, name);
        else if (val && !json_object_is_type(val, json_type_array))
            add_context(rd, cap, name, json_object_get_string(val));
    }
}

static void add_arm(struct results_data *rd, const char *name, const char *kind)
{
    if (results_find_arm(rd, name))
        return;
    rd->arms = xrealloc(rd->arms, (rd->n_arms + 1) * sizeof(*rd->arms)); /* a handful */
    rd->arms[rd->n_arms].name = xstrdup(name);
    rd->arms[rd->n_arms].kind = xstrdup(kind);
    rd->n_arms++;
}

static void read_plan(struct results_data *rd, struct json_object *meta)
{
    struct json_object *arr;
    size_t n;
    if (json_object_object_get_ex(meta, "variants", &arr) &&
        json_object_is_type(arr, json_type_array) && (n = json_object_array_length(arr)) > 0) {
        rd->variants = xcalloc(n, sizeof(*rd->variants));
        for (size_t i = 0; i < n; i++) {
            struct json_object *v = json_object_array_get_idx(arr, i);
            rd->variants[i].index = int_of(v, "index") ? int_of(v, "index") : (int)i + 1;
            rd->variants[i].label = str_of(v, "label");
        }
        rd->n_variants = n;
    } else {
        rd->variants = xcalloc(1, sizeof(*rd->variants));
        rd->variants[0].index = 1;
        rd->variants[0].label = xstrdup("default");
        rd->n_variants = 1;
    }
    if (json_object_object_get_ex(meta, "arms", &arr) &&
        json_object_is_type(arr, json_type_array)) {
        for (size_t i = 0; i < json_object_array_length(arr); i++) {
            struct json_object *a = json_object_array_get_idx(arr, i);
            char *name = str_of(a, "name"), *kind = str_of(a, "kind");
            if (*name)
                add_arm(rd, name, kind);
            free(name);
            free(kind);
        }
    }
    if (json_object_object_get_ex(meta, "runs", &arr) &&
        json_object_is_type(arr, json_type_array) && (n = json_object_array_length(arr)) > 0) {
        rd->runs = xcalloc(n, sizeof(*rd->runs));
        for (size_t i = 0; i < n; i++) {
            struct json_object *o = json_object_array_get_idx(arr, i), *cfg = NULL;
            struct results_run *r = &rd->runs[i];
            r->seq = int_of(o, "seq");
            r->repeat = int_of(o, "repeat");
            r->run = str_of(o, "run");
            r->arm = str_of(o, "arm");
            r->status = str_of(o, "status");
            r->dir = str_of(o, "dir");
            r->variants = ints_of(o, "variants", &r->n_variants);
            json_object_object_get_ex(o, "config", &cfg);
            r->disk_cache = str_of(cfg, "disk_cache");
        }
        rd->n_runs = n;
    }
}

static int read_meta(struct results_data *rd)
{
    char path[PATH_MAX];
    path_join(path, sizeof(path), rd->dir, "meta.json");
    struct json_object *meta = json_object_from_file(path);
    if (!meta) {
        log_error("Cannot read '%s': %s", path, json_util_get_last_err());
        return -1;
    }
    if (!json_object_is_type(meta, json_type_object)) {
        log_error("'%s' is not a JSON object.", path);
        json_object_put(meta);
        return -1;
    }
    struct json_object *scn = NULL;
    json_object_object_get_ex(meta, "scenario", &scn);
    rd->scenario_name = str_of(scn, "name");
    rd->scenario_sha256 = str_of(scn, "sha256");
    rd->status = str_of(meta, "status");
    rd->accel = str_of(meta, "accel");
    rd->accel_reason = str_of(meta, "accel_reason");
    rd->started_at = str_of(meta, "started_at");
    rd->ended_at = str_of(meta, "ended_at");
    size_t cap = 0;
    flatten(rd, &cap, meta, "");
    read_plan(rd, meta);
    json_object_put(meta);
    return 0;
}

static char *read_text(const char *dir, const char *name)
{
    char path[PATH_MAX];
    path_join(path, sizeof(path), dir, name);
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    char chunk[8192];
    size_t n;
    while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
        fwrite(chunk, 1, n, mem);
    fclose(mem);
    fclose(f);
    return buf;
}

struct results_data *results_read(const char *dir)
{
    struct stat st;
    if (stat(dir, &st) < 0) {
        log_error("Cannot read the results directory '%s': %s", dir, strerror(errno));
        return NULL;
    }
    if (!S_ISDIR(st.st_mode)) {
        log_error("'%s' is not a results directory (not a directory).", dir);
        return NULL;
    }
    struct results_data *rd = xcalloc(1, sizeof(*rd));
    rd->dir = xstrdup(dir);
    if (read_meta(rd) < 0 || read_samples(rd) < 0) {
        results_data_free(rd);
        return NULL;
    }
    /* arms that only the samples name join meta.json's */
    for (size_t i = 0; i < rd->n_samples; i++)
        if (*rd->samples[i].arm)
            add_arm(rd, rd->samples[i].arm, rd->samples[i].arm_kind);
    rd->scenario_text = read_text(dir, "scenario.ini");
    /* a meta.json without accel: the guests' samples carry it */
    for (size_t i = 0; i < rd->n_samples && !*rd->accel; i++)
        if (*rd->samples[i].accel) {
            free(rd->accel);
            rd->accel = xstrdup(rd->samples[i].accel);
        }
    return rd;
}

void results_data_free(struct results_data *rd)
{
    if (!rd)
        return;
    for (size_t i = 0; i < rd->n_samples; i++)
        sample_free(&rd->samples[i]);
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
    }
    free(rd->runs);
    for (size_t i = 0; i < rd->n_context; i++) {
        free(rd->context[i].key);
        free(rd->context[i].value);
    }
    free(rd->context);
    free(rd->dir);
    free(rd->scenario_name);
    free(rd->scenario_sha256);
    free(rd->status);
    free(rd->accel);
    free(rd->accel_reason);
    free(rd->started_at);
    free(rd->ended_at);
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

bool results_is_tcg(const struct results_data *rd) { return strcmp(rd->accel, "tcg") == 0; }
