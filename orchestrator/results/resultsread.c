/* resultsread.c: read a results directory back (see resultsread.h). */
#include "results/resultsread.h"
#include "util/xalloc.h"

#include "util/log.h"
#include "util/paths.h"

#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <json-c/json.h>
#include <limits.h>
#include <math.h>
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

/* ---- checks: everything read here is hostile input ---- */

/* value, quoted for a message: control characters escaped, at most ~80
 * characters shown. */
static const char *shown(char *buf, size_t len, const char *value)
{
    size_t o = 0;
    for (const unsigned char *p = (const unsigned char *)value; *p && o + 8 < len; p++) {
        if (o > 80) {
            o += (size_t)snprintf(buf + o, len - o, "...");
            break;
        }
        if (*p == '\n')
            o += (size_t)snprintf(buf + o, len - o, "\\n");
        else if (*p < 0x20 || *p == 0x7f || *p == '\\')
            o += (size_t)snprintf(buf + o, len - o, "\\x%02x", *p);
        else
            buf[o++] = (char)*p;
    }
    buf[o < len ? o : len - 1] = '\0';
    return buf;
}

bool results_valid_arm_name(const char *s)
{
    size_t n = strlen(s);
    if (n < 1 || n > RESULTS_ARM_NAME_MAX)
        return false;
    for (; *s; s++)
        if (!(*s >= 'a' && *s <= 'z') && !(*s >= '0' && *s <= '9') && *s != '_')
            return false;
    return true;
}

bool results_valid_variant_label(const char *s)
{
    size_t n = strlen(s);
    if (n < 1 || n > RESULTS_LABEL_MAX)
        return false;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && !strchr(" ._-/=+:,", *s))
            return false;
    return true;
}

/* Printable text (UTF-8 allowed) of at most max bytes. */
static bool valid_text(const char *s, size_t max)
{
    if (strlen(s) > max)
        return false;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if (*p < 0x20 || *p == 0x7f)
            return false;
    return true;
}

/* Letters, digits and the characters of extra; 0 < length <= max. */
static bool valid_word(const char *s, size_t max, const char *extra)
{
    size_t n = strlen(s);
    if (n < 1 || n > max)
        return false;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && !strchr(extra, *s))
            return false;
    return true;
}

/* One of a NULL-terminated set, or "" (absent). */
static bool one_of(const char *s, const char *const *set)
{
    if (!*s)
        return true;
    for (; *set; set++)
        if (!strcmp(s, *set))
            return true;
    return false;
}

static const char *const run_statuses[] = {"running", "ok", "failed", "interrupted", NULL};
static const char *const statuses[] = {"running", "complete", "failed", "interrupted", NULL};
static const char *const accels[] = {"kvm", "tcg", "none", "unknown", NULL};
static const char *const kinds[] = {"host", "guest", NULL};
static const char *const whens[] = {"before", "after", NULL};
static const char *const fits_set[] = {"buffer_pool", "guest_page_cache", "host_page_cache",
                                       "none", NULL};
static const char *const basis_set[] = {"estimate", "on_disk", NULL};
static const char *const yes_no[] = {"yes", "no", NULL};
static const char *const modes[] = {"auto", "fixed", NULL};
static const char *const layers[] = {"workload", "innodb", "guest", "hypervisor", "host", NULL};
static const char *const pins[] = {"auto", "none", NULL};
static const char *const orders[] = {"shuffle", "fixed", NULL};
static const char *const cache_modes[] = {"none", "writeback", "writethrough", "directsync",
                                          "unsafe", NULL};

static void set_list(char *buf, size_t len, const char *const *set)
{
    size_t o = 0;
    buf[0] = '\0';
    for (size_t i = 0; set[i] && o < len; i++)
        o += (size_t)snprintf(buf + o, len - o, "%s%s", i ? ", " : "", set[i]);
}

/* ---- json-c accessors ---- */

static struct json_object *member(struct json_object *obj, const char *key)
{
    struct json_object *v = NULL;
    if (!obj || !json_object_is_type(obj, json_type_object) ||
        !json_object_object_get_ex(obj, key, &v))
        return NULL;
    return v;
}

/* A string member of obj, "" when absent or not a string. */
static char *str_of(struct json_object *obj, const char *key)
{
    struct json_object *v = member(obj, key);
    if (!v || !json_object_is_type(v, json_type_string))
        return xstrdup("");
    return xstrdup(json_object_get_string(v));
}

/* An integral member in [lo, hi] into *out (def when absent or null).
 * false if present but not such a number. */
static bool int_of(struct json_object *obj, const char *key, long long lo, long long hi, int def,
                   int *out)
{
    struct json_object *v = member(obj, key);
    *out = def;
    if (!v)
        return true;
    double d;
    if (json_object_is_type(v, json_type_int)) {
        int64_t i = json_object_get_int64(v);
        if (i < lo || i > hi)
            return false;
        *out = (int)i;
        return true;
    }
    if (!json_object_is_type(v, json_type_double))
        return false;
    d = json_object_get_double(v);
    if (!isfinite(d) || d != floor(d) || d < (double)lo || d > (double)hi)
        return false;
    *out = (int)d;
    return true;
}

static bool is_number(struct json_object *v)
{
    return json_object_is_type(v, json_type_double) || json_object_is_type(v, json_type_int) ||
           json_object_is_type(v, json_type_boolean);
}

/* An array of integers in [1, RESULTS_MAX_VARIANTS] (labels.variants,
 * runs[].variants). false if it is not such an array. */
static bool ints_of(struct json_object *obj, const char *key, int **out, size_t *n)
{
    struct json_object *arr = member(obj, key);
    *out = NULL;
    *n = 0;
    if (!arr)
        return true;
    if (!json_object_is_type(arr, json_type_array) ||
        json_object_array_length(arr) > RESULTS_MAX_VARIANTS)
        return false;
    size_t len = json_object_array_length(arr);
    if (len == 0)
        return true;
    int *v = xcalloc(len, sizeof(int));
    for (size_t i = 0; i < len; i++) {
        struct json_object *e = json_object_array_get_idx(arr, i);
        int64_t x = json_object_is_type(e, json_type_int) ? json_object_get_int64(e) : 0;
        if (x < 1 || x > RESULTS_MAX_VARIANTS) {
            free(v);
            return false;
        }
        v[i] = (int)x;
    }
    *out = v;
    *n = len;
    return true;
}

/* ---- samples.jsonl ---- */

bool results_valid_host_label(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n > 255)
        return false;
    for (; *s; s++)
        if (*s <= ' ' || *s > '~' || strchr("\"'|<>`\\", *s))
            return false;
    return true;
}

static void sample_free(struct results_sample *s)
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

/* The labels with a fixed set of values. */
static const struct {
    const char *key;
    size_t offset;
    const char *const *set;
} enum_labels[] = {
    {"arm_kind", offsetof(struct results_sample, arm_kind), kinds},
    {"when", offsetof(struct results_sample, when), whens},
    {"accel", offsetof(struct results_sample, accel), accels},
    {"fits", offsetof(struct results_sample, fits), fits_set},
    {"basis", offsetof(struct results_sample, basis), basis_set},
    {"steady", offsetof(struct results_sample, steady), yes_no},
    {"mode", offsetof(struct results_sample, mode), modes},
    {"layer", offsetof(struct results_sample, layer), layers},
};

/* Check the labels read into s: NULL, or why the line is skipped (why[]). */
static const char *check_labels(struct results_sample *s, struct json_object *labels, char *why,
                                size_t why_len)
{
    char v[128], set[256];
    for (size_t i = 0; i < sizeof(enum_labels) / sizeof(enum_labels[0]); i++) {
        const char *value = *(char **)((char *)s + enum_labels[i].offset);
        if (!one_of(value, enum_labels[i].set)) {
            set_list(set, sizeof(set), enum_labels[i].set);
            snprintf(why, why_len, "labels.%s: '%s' is not one of %s", enum_labels[i].key,
                     shown(v, sizeof(v), value), set);
            return why;
        }
    }
    if (*s->phase && !valid_word(s->phase, 16, "_-")) {
        snprintf(why, why_len, "labels.phase: '%s' is not a phase name",
                 shown(v, sizeof(v), s->phase));
        return why;
    }
    if (*s->device && !valid_word(s->device, 32, "-_.")) {
        snprintf(why, why_len, "labels.device: '%s' is not a block device name",
                 shown(v, sizeof(v), s->device));
        return why;
    }
    if (*s->host && !results_valid_host_label(s->host)) {
        char hv[80];
        snprintf(why, why_len, "labels.host: '%s' is not a host (a libvirt URI)", shown(hv, sizeof(hv), s->host));
        return why;
    }
    if (!int_of(labels, "guest", 0, 1024, 0, &s->guest))
        return "labels.guest is not a guest number (0 to 1024)";
    if (!int_of(labels, "repeat", 0, 1000000, 0, &s->repeat))
        return "labels.repeat is not a repeat number";
    if (!int_of(labels, "seq", 0, 1000000, 0, &s->seq))
        return "labels.seq is not a run number";
    if (!ints_of(labels, "variants", &s->variants, &s->n_variants))
        return "labels.variants is not a list of variant numbers";
    struct json_object *t = member(labels, "t");
    if (t && is_number(t)) {
        s->t = json_object_get_double(t);
        if (!isfinite(s->t))
            return "labels.t is not a finite number";
        s->has_t = true;
    }
    if (!valid_text(s->unit, 32) || !valid_text(s->source, 4096))
        return "its unit or source holds control characters or is too long";
    return NULL;
}

/* Parse one line into s. NULL on success, else why it was skipped (a
 * constant, or why[] filled in). *fatal: a name that is not one (the
 * directory is refused). */
static const char *parse_sample(const char *text, size_t len, struct results_sample *s, char *why,
                                size_t why_len, bool *fatal)
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
    char v[128];
    *fatal = false;
    if (!o && err == json_tokener_continue)
        bad = "the line ends inside its JSON object (cut short)";
    else if (!o) {
        snprintf(why, why_len, "not valid JSON (%s)", json_tokener_error_desc(err));
        bad = why;
    } else if (end < len && strspn(text + end, " \t\r") < len - end)
        bad = "text after the JSON object";
    else if (!json_object_is_type(o, json_type_object))
        bad = "not a JSON object";
    else if (!(metric = member(o, "metric")) || !json_object_is_type(metric, json_type_string))
        bad = "no \"metric\" string";
    else if (!valid_word(json_object_get_string(metric), 64, "_")) {
        snprintf(why, why_len, "\"metric\": '%s' is not a metric name",
                 shown(v, sizeof(v), json_object_get_string(metric)));
        bad = why;
    } else if (!json_object_object_get_ex(o, "value", &value) ||
               (value && !is_number(value)))
        bad = "no numeric \"value\"";
    else if (value && !isfinite(json_object_get_double(value)))
        bad = "\"value\" is not a finite number";
    if (bad) {
        json_object_put(o);
        return bad;
    }
    labels = member(o, "labels");
    if (labels && !json_object_is_type(labels, json_type_object))
        labels = NULL;
    s->metric = xstrdup(json_object_get_string(metric));
    s->value = value ? json_object_get_double(value) : NAN;
    s->unit = str_of(o, "unit");
    s->arm = str_of(labels, "arm");
    s->arm_kind = str_of(labels, "arm_kind");
    s->phase = str_of(labels, "phase");
    s->when = str_of(labels, "when");
    s->accel = str_of(labels, "accel");
    s->fits = str_of(labels, "fits");
    s->basis = str_of(labels, "basis");
    s->steady = str_of(labels, "steady");
    s->mode = str_of(labels, "mode");
    s->layer = str_of(labels, "layer");
    s->device = str_of(labels, "device");
    s->host = str_of(labels, "host");
    s->source = str_of(o, "source");
    struct json_object *ts = member(o, "timestamp");
    if (ts && is_number(ts) && isfinite(json_object_get_double(ts)))
        s->timestamp = json_object_get_double(ts);
    if (*s->arm && !results_valid_arm_name(s->arm)) {
        snprintf(why, why_len,
                 "labels.arm: '%s' is not an arm name (1 to %d lower-case letters, digits or "
                 "'_')",
                 shown(v, sizeof(v), s->arm), RESULTS_ARM_NAME_MAX);
        *fatal = true;
        bad = why;
    } else {
        bad = check_labels(s, labels, why, why_len);
    }
    json_object_put(o);
    if (bad)
        sample_free(s);
    return bad;
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
    int rc = 0;
    while ((len = getline(&line, &cap, f)) != -1) {
        lineno++;
        bool complete = len > 0 && line[len - 1] == '\n';
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            line[--len] = '\0';
        if (strspn(line, " \t") == (size_t)len)
            continue;
        struct results_sample s = {0};
        char buf[512];
        bool fatal;
        const char *why = parse_sample(line, (size_t)len, &s, buf, sizeof(buf), &fatal);
        if (fatal) {
            log_error("%s:%zu: %s: refusing to report this results directory.", path, lineno,
                      why);
            rc = -1;
            break;
        }
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
    if (rc == 0 && ferror(f)) {
        log_error("Cannot read '%s': %s", path, strerror(errno));
        rc = -1;
    }
    free(line);
    fclose(f);
    return rc;
}

/* ---- meta.json ---- */

/* A context text: control characters become '?', at most 1024 bytes. */
static char *context_text(const char *s)
{
    char *t = xstrdup(s);
    if (strlen(t) > 1024)
        t[1024] = '\0';
    for (unsigned char *p = (unsigned char *)t; *p; p++)
        if (*p < 0x20 || *p == 0x7f)
            *p = '?';
    return t;
}

static void add_context(struct results_data *rd, size_t *cap, const char *key, const char *value)
{
    rd->context = grow(rd->context, cap, rd->n_context + 1, sizeof(*rd->context));
    rd->context[rd->n_context].key = context_text(key);
    rd->context[rd->n_context].value = context_text(value);
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

/* Report a value of meta.json that fails its check; -1. */
static int bad_meta(const char *path, const char *where, const char *value, const char *what)
{
    char v[128];
    log_error("%s: %s: '%s' is not %s: refusing to report this results directory.", path, where,
              shown(v, sizeof(v), value), what);
    return -1;
}

static int check_one_of(const char *path, const char *where, const char *value,
                        const char *const *set)
{
    if (one_of(value, set))
        return 0;
    char list[256], what[300];
    set_list(list, sizeof(list), set);
    snprintf(what, sizeof(what), "one of %s", list);
    return bad_meta(path, where, value, what);
}

static const char arm_rule[] = "an arm name (1 to 16 lower-case letters, digits or '_')";
static const char cpus_chars[] = ",-";

static int read_variants(struct results_data *rd, const char *path, struct json_object *meta)
{
    struct json_object *arr = member(meta, "variants");
    size_t n = arr && json_object_is_type(arr, json_type_array) ? json_object_array_length(arr)
                                                                 : 0;
    if (n > RESULTS_MAX_VARIANTS) {
        log_error("%s: %zu variants: more than %d; refusing to report this results directory.",
                  path, n, RESULTS_MAX_VARIANTS);
        return -1;
    }
    if (n == 0) {
        rd->variants = xcalloc(1, sizeof(*rd->variants));
        rd->variants[0].index = 1;
        rd->variants[0].label = xstrdup("default");
        rd->n_variants = 1;
        return 0;
    }
    rd->variants = xcalloc(n, sizeof(*rd->variants));
    for (size_t i = 0; i < n; i++) {
        struct json_object *v = json_object_array_get_idx(arr, i);
        char where[64];
        rd->variants[i].label = str_of(v, "label");
        rd->n_variants = i + 1;
        snprintf(where, sizeof(where), "variants[%zu].index", i);
        if (!int_of(v, "index", 1, RESULTS_MAX_VARIANTS, (int)i + 1, &rd->variants[i].index))
            return bad_meta(path, where, json_object_get_string(member(v, "index")),
                            "a variant number");
        snprintf(where, sizeof(where), "variants[%zu].label", i);
        if (!results_valid_variant_label(rd->variants[i].label))
            return bad_meta(path, where, rd->variants[i].label,
                            "a variant label (1 to 2047 letters, digits, spaces or ._-/=+:,)");
    }
    return 0;
}

static int read_arms(struct results_data *rd, const char *path, struct json_object *meta)
{
    struct json_object *arr = member(meta, "arms");
    if (!arr || !json_object_is_type(arr, json_type_array))
        return 0;
    for (size_t i = 0; i < json_object_array_length(arr); i++) {
        struct json_object *a = json_object_array_get_idx(arr, i);
        char *name = str_of(a, "name"), *kind = str_of(a, "kind"), where[64];
        int rc = 0;
        snprintf(where, sizeof(where), "arms[%zu].name", i);
        if (!results_valid_arm_name(name))
            rc = bad_meta(path, where, name, arm_rule);
        snprintf(where, sizeof(where), "arms[%zu].kind", i);
        if (rc == 0)
            rc = check_one_of(path, where, kind, kinds);
        if (rc == 0)
            add_arm(rd, name, kind);
        free(name);
        free(kind);
        if (rc < 0)
            return -1;
    }
    return 0;
}

static int read_config(struct results_run *r, const char *path, size_t i, struct json_object *cfg)
{
    char where[128];
    if (!cfg || !json_object_is_type(cfg, json_type_object))
        return 0;
    size_t cap = 0;
    json_object_object_foreach(cfg, key, val)
    {
        const char *value = val ? json_object_get_string(val) : "";
        snprintf(where, sizeof(where), "runs[%zu].config", i);
        if (!valid_word(key, 32, "_"))
            return bad_meta(path, where, key, "a key name");
        snprintf(where, sizeof(where), "runs[%zu].config.%s", i, key);
        if (!valid_text(value, 256))
            return bad_meta(path, where, value, "a key's value (printable, at most 256 bytes)");
        r->config = grow(r->config, &cap, r->n_config + 1, sizeof(*r->config));
        r->config[r->n_config].key = xstrdup(key);
        r->config[r->n_config++].value = xstrdup(value);
    }
    r->disk_cache = xstrdup(results_run_config(r, "disk_cache"));
    snprintf(where, sizeof(where), "runs[%zu].config.disk_cache", i);
    if (check_one_of(path, where, r->disk_cache, cache_modes) < 0)
        return -1;
    const char *g = results_run_config(r, "guests");
    if (*g) {
        char *end;
        long n = strtol(g, &end, 10);
        snprintf(where, sizeof(where), "runs[%zu].config.guests", i);
        if (*end || n < 1 || n > 1024)
            return bad_meta(path, where, g, "a number of guests (1 to 1024)");
        r->guests = (int)n;
    }
    return 0;
}

static int read_placement(struct results_run *r, const char *path, size_t i,
                          struct json_object *pl)
{
    char where[128];
    r->pin = str_of(pl, "pin");
    r->pin_reason = str_of(pl, "reason");
    r->pin_host_cpus = str_of(pl, "host_cpus");
    r->pin_applied = -1;
    if (!pl)
        return 0;
    snprintf(where, sizeof(where), "runs[%zu].placement.pin", i);
    if (check_one_of(path, where, r->pin, pins) < 0)
        return -1;
    struct json_object *applied = member(pl, "applied");
    if (applied && json_object_is_type(applied, json_type_boolean))
        r->pin_applied = json_object_get_boolean(applied);
    snprintf(where, sizeof(where), "runs[%zu].placement.reason", i);
    if (!valid_text(r->pin_reason, 512))
        return bad_meta(path, where, r->pin_reason, "a reason (printable, at most 512 bytes)");
    snprintf(where, sizeof(where), "runs[%zu].placement.host_cpus", i);
    if (*r->pin_host_cpus && !valid_word(r->pin_host_cpus, 256, cpus_chars))
        return bad_meta(path, where, r->pin_host_cpus, "a list of host CPUs");
    struct json_object *arr = member(pl, "guests");
    if (!arr || !json_object_is_type(arr, json_type_array))
        return 0;
    size_t n = json_object_array_length(arr);
    if (n > 1024)
        return bad_meta(path, "placement.guests", "(too many)", "a list of at most 1024 guests");
    r->pins = xcalloc(n, sizeof(*r->pins));
    for (size_t k = 0; k < n; k++) {
        struct json_object *g = json_object_array_get_idx(arr, k);
        struct results_pin *p = &r->pins[k];
        p->vcpus = str_of(g, "vcpus");
        p->emulator = str_of(g, "emulator");
        r->n_pins = k + 1;
        snprintf(where, sizeof(where), "runs[%zu].placement.guests[%zu]", i, k);
        if (!int_of(g, "guest", 1, 1024, 0, &p->guest))
            return bad_meta(path, where, json_object_get_string(member(g, "guest")),
                            "a guest number");
        if ((*p->vcpus && !valid_word(p->vcpus, 256, cpus_chars)) ||
            (*p->emulator && !valid_word(p->emulator, 256, cpus_chars)))
            return bad_meta(path, where, *p->vcpus ? p->vcpus : p->emulator,
                            "a list of host CPUs");
    }
    return 0;
}

static int read_runs(struct results_data *rd, const char *path, struct json_object *meta)
{
    struct json_object *arr = member(meta, "runs");
    size_t n;
    if (!arr || !json_object_is_type(arr, json_type_array) ||
        (n = json_object_array_length(arr)) == 0)
        return 0;
    rd->runs = xcalloc(n, sizeof(*rd->runs));
    for (size_t i = 0; i < n; i++) {
        struct json_object *o = json_object_array_get_idx(arr, i);
        struct results_run *r = &rd->runs[i];
        char where[64];
        r->run = str_of(o, "run");
        r->arm = str_of(o, "arm");
        r->status = str_of(o, "status");
        r->dir = str_of(o, "dir");
        rd->n_runs = i + 1;
        snprintf(where, sizeof(where), "runs[%zu]", i);
        if (!int_of(o, "seq", 0, 1000000, 0, &r->seq) ||
            !int_of(o, "repeat", 0, 1000000, 0, &r->repeat))
            return bad_meta(path, where, "seq or repeat", "a run number in range");
        if (!ints_of(o, "variants", &r->variants, &r->n_variants))
            return bad_meta(path, where, "variants", "a list of variant numbers");
        snprintf(where, sizeof(where), "runs[%zu].arm", i);
        if (!results_valid_arm_name(r->arm))
            return bad_meta(path, where, r->arm, arm_rule);
        snprintf(where, sizeof(where), "runs[%zu].run", i);
        if (*r->run && !valid_word(r->run, 64, "_-"))
            return bad_meta(path, where, r->run, "a run id");
        snprintf(where, sizeof(where), "runs[%zu].status", i);
        if (check_one_of(path, where, r->status, run_statuses) < 0)
            return -1;
        snprintf(where, sizeof(where), "runs[%zu].dir", i);
        if (*r->dir && (!valid_word(r->dir, 256, "._-/") || strstr(r->dir, "..")))
            return bad_meta(path, where, r->dir, "a run directory");
        if (read_config(r, path, i, member(o, "config")) < 0)
            return -1;
        if (!r->disk_cache)
            r->disk_cache = xstrdup("");
        if (read_placement(r, path, i, member(o, "placement")) < 0)
            return -1;
        r->hypervisor_fields = str_of(o, "hypervisor_fields");
        snprintf(where, sizeof(where), "runs[%zu].hypervisor_fields", i);
        if (*r->hypervisor_fields && !valid_word(r->hypervisor_fields, 4096, "._,"))
            return bad_meta(path, where, r->hypervisor_fields,
                            "a list of libvirt stat fields (letters, digits, '.', '_', ',')");
        const struct results_arm *arm = results_find_arm(rd, r->arm);
        if (arm && !strcmp(arm->kind, "host"))
            r->guests = 1;
    }
    return 0;
}

/* A libvirt URI (or several joined by ',') that meta.json names, if it is one. */
static void add_uris(struct results_data *rd, const char *value)
{
    char *copy = xstrdup(value), *save = NULL;
    for (char *u = strtok_r(copy, ",", &save); u; u = strtok_r(NULL, ",", &save)) {
        bool seen = !results_valid_host_label(u);
        for (size_t i = 0; i < rd->n_uris && !seen; i++)
            seen = !strcmp(rd->uris[i], u);
        if (seen || rd->n_uris >= 1024)
            continue;
        rd->uris = xrealloc(rd->uris, (rd->n_uris + 1) * sizeof(*rd->uris));
        rd->uris[rd->n_uris++] = xstrdup(u);
    }
    free(copy);
}

static void read_uris(struct results_data *rd, struct json_object *meta)
{
    struct json_object *v = member(member(meta, "libvirt"), "uri"), *arr;
    if (v && json_object_is_type(v, json_type_string))
        add_uris(rd, json_object_get_string(v));
    const char *lists[] = {"hosts", "runs"}, *keys[] = {"host", "hosts"};
    for (size_t l = 0; l < 2; l++) {
        arr = member(meta, lists[l]);
        if (!arr || !json_object_is_type(arr, json_type_array))
            continue;
        for (size_t i = 0; i < json_object_array_length(arr); i++) {
            v = member(json_object_array_get_idx(arr, i), keys[l]);
            if (v && json_object_is_type(v, json_type_string))
                add_uris(rd, json_object_get_string(v));
        }
    }
}

static int read_meta(struct results_data *rd)
{
    char path[PATH_MAX];
    path_join(path, sizeof(path), rd->dir, "meta.json");
    struct stat st;
    if (stat(path, &st) == 0 && st.st_size > RESULTS_META_MAX) {
        log_error("'%s' is larger than %ld MiB: refusing to read it.", path, RESULTS_META_MAX >> 20);
        return -1;
    }
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
    struct json_object *scn = member(meta, "scenario"), *order = member(meta, "order");
    rd->scenario_name = str_of(scn, "name");
    rd->scenario_sha256 = str_of(scn, "sha256");
    rd->status = str_of(meta, "status");
    rd->accel = str_of(meta, "accel");
    rd->accel_reason = str_of(meta, "accel_reason");
    rd->started_at = str_of(meta, "started_at");
    rd->ended_at = str_of(meta, "ended_at");
    rd->order_mode = str_of(order, "mode");
    int rc = 0;
    if (!valid_text(rd->scenario_name, 255))
        rc = bad_meta(path, "scenario.name", rd->scenario_name,
                      "a scenario name (printable, at most 255 bytes)");
    else if (*rd->scenario_sha256 && !valid_word(rd->scenario_sha256, 64, ""))
        rc = bad_meta(path, "scenario.sha256", rd->scenario_sha256, "a hash");
    else if (check_one_of(path, "status", rd->status, statuses) < 0 ||
             check_one_of(path, "accel", rd->accel, accels) < 0 ||
             check_one_of(path, "order.mode", rd->order_mode, orders) < 0)
        rc = -1;
    else if (!valid_text(rd->accel_reason, 1024))
        rc = bad_meta(path, "accel_reason", rd->accel_reason, "printable text");
    else if (!valid_text(rd->started_at, 64) || !valid_text(rd->ended_at, 64))
        rc = bad_meta(path, "started_at", rd->started_at, "a time");
    struct json_object *seed = member(order, "seed");
    if (rc == 0 && seed) {
        if (!json_object_is_type(seed, json_type_int) || json_object_get_int64(seed) < 0)
            rc = bad_meta(path, "order.seed", json_object_get_string(seed),
                          "a seed (a whole number >= 0)");
        rd->order_seed = json_object_get_int64(seed);
        rd->has_order_seed = rc == 0;
    }
    size_t cap = 0;
    if (rc == 0)
        flatten(rd, &cap, meta, "");
    if (rc == 0 && (read_variants(rd, path, meta) < 0 || read_arms(rd, path, meta) < 0 ||
                    read_runs(rd, path, meta) < 0))
        rc = -1;
    if (rc == 0)
        read_uris(rd, meta);
    json_object_put(meta);
    return rc;
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

static struct results_data *read_dir(const char *dir, bool samples)
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
    if (read_meta(rd) < 0 || (samples && read_samples(rd) < 0)) {
        results_data_free(rd);
        return NULL;
    }
    if (!samples)
        return rd;
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

struct results_data *results_read(const char *dir) { return read_dir(dir, true); }

struct results_data *results_read_meta(const char *dir) { return read_dir(dir, false); }

void results_data_free(struct results_data *rd)
{
    if (!rd)
        return;
    for (size_t i = 0; i < rd->n_uris; i++)
        free(rd->uris[i]);
    free(rd->uris);
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
