/* readsamples.c: samples.jsonl of a results directory, line by line, into
 * rd->samples (readsamples.h): each line parsed with json-c and checked
 * (names, labels against their sets, bounded lengths, finite numbers; see
 * resultsread.h); a line that fails is reported as FILE:LINE and skipped, an
 * arm name that is not one refuses the directory. Owns the table of the
 * labels with a fixed set of values. */
#include "results/readsamples.h"
#include "results/readcheck.h"
#include "results/readmodel.h"
#include "results/resultsread.h"
#include "results/steadyrule.h"
#include "util/log.h"
#include "util/paths.h"
#include "util/safefile.h"
#include "util/xalloc.h"

#include <errno.h>
#include <json-c/json.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const whens[] = {"before", "after", NULL};
static const char *const fits_set[] = {"buffer_pool", "guest_page_cache", "host_page_cache",
                                       "none", NULL};
static const char *const basis_set[] = {"estimate", "on_disk", "pool_frames", NULL};
static const char *const steady_set[] = {"yes", "no", "unshown", NULL};
static const char *const modes[] = {"auto", "fixed", NULL};
static const char *const layers[] = {"workload", "innodb", "guest", "hypervisor", "host", NULL};

/* The labels with a fixed set of values. */
static const struct {
    const char *key;
    size_t offset;
    const char *const *set;
} enum_labels[] = {
    {"arm_kind", offsetof(struct results_sample, arm_kind), results_kinds},
    {"when", offsetof(struct results_sample, when), whens},
    {"accel", offsetof(struct results_sample, accel), results_accels},
    {"fits", offsetof(struct results_sample, fits), fits_set},
    {"basis", offsetof(struct results_sample, basis), basis_set},
    {"steady", offsetof(struct results_sample, steady), steady_set},
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
        if (!results_one_of(value, enum_labels[i].set)) {
            results_set_list(set, sizeof(set), enum_labels[i].set);
            snprintf(why, why_len, "labels.%s: '%s' is not one of %s", enum_labels[i].key,
                     results_shown(v, sizeof(v), value), set);
            return why;
        }
    }
    if (*s->phase && !results_valid_word(s->phase, 16, "_-")) {
        snprintf(why, why_len, "labels.phase: '%s' is not a phase name",
                 results_shown(v, sizeof(v), s->phase));
        return why;
    }
    if (*s->device && !results_valid_word(s->device, 32, "-_.")) {
        snprintf(why, why_len, "labels.device: '%s' is not a block device name",
                 results_shown(v, sizeof(v), s->device));
        return why;
    }
    if (*s->host && !results_valid_host_label(s->host)) {
        char hv[80];
        snprintf(why, why_len, "labels.host: '%s' is not a host (a libvirt URI)", results_shown(hv, sizeof(hv), s->host));
        return why;
    }
    if (!results_int_of(labels, "guest", 0, 1024, 0, &s->guest))
        return "labels.guest is not a guest number (0 to 1024)";
    if (!results_int_of(labels, "repeat", 0, 1000000, 0, &s->repeat))
        return "labels.repeat is not a repeat number";
    if (!results_int_of(labels, "seq", 0, 1000000, 0, &s->seq))
        return "labels.seq is not a run number";
    if (!results_int_of(labels, "pair", 0, 1000, 0, &s->pair))
        return "labels.pair is not a pair number (0 to 1000)";
    if (!results_ints_of(labels, "variants", &s->variants, &s->n_variants))
        return "labels.variants is not a list of variant numbers";
    struct json_object *t = results_member(labels, "t");
    if (t && results_is_number(t)) {
        s->t = json_object_get_double(t);
        if (!isfinite(s->t))
            return "labels.t is not a finite number";
        s->has_t = true;
    }
    if (!results_valid_text(s->unit, 32) || !results_valid_text(s->source, 4096))
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
    else if (!(metric = results_member(o, "metric")) || !json_object_is_type(metric, json_type_string))
        bad = "no \"metric\" string";
    else if (!results_valid_word(json_object_get_string(metric), 64, "_")) {
        snprintf(why, why_len, "\"metric\": '%s' is not a metric name",
                 results_shown(v, sizeof(v), json_object_get_string(metric)));
        bad = why;
    } else if (!json_object_object_get_ex(o, "value", &value) ||
               (value && !results_is_number(value)))
        bad = "no numeric \"value\"";
    else if (value && !isfinite(json_object_get_double(value)))
        bad = "\"value\" is not a finite number";
    if (bad) {
        json_object_put(o);
        return bad;
    }
    labels = results_member(o, "labels");
    if (labels && !json_object_is_type(labels, json_type_object))
        labels = NULL;
    s->metric = xstrdup(json_object_get_string(metric));
    s->value = value ? json_object_get_double(value) : NAN;
    s->unit = results_str_of(o, "unit");
    s->arm = results_str_of(labels, "arm");
    s->arm_kind = results_str_of(labels, "arm_kind");
    s->phase = results_str_of(labels, "phase");
    s->when = results_str_of(labels, "when");
    s->accel = results_str_of(labels, "accel");
    s->fits = results_str_of(labels, "fits");
    s->basis = results_str_of(labels, "basis");
    s->steady = results_str_of(labels, "steady");
    s->mode = results_str_of(labels, "mode");
    s->layer = results_str_of(labels, "layer");
    s->device = results_str_of(labels, "device");
    s->host = results_str_of(labels, "host");
    s->source = results_str_of(o, "source");
    struct json_object *ts = results_member(o, "timestamp");
    if (ts && results_is_number(ts) && isfinite(json_object_get_double(ts)))
        s->timestamp = json_object_get_double(ts);
    if (*s->arm && !results_valid_arm_name(s->arm)) {
        snprintf(why, why_len,
                 "labels.arm: '%s' is not an arm name (1 to %d lower-case letters, digits or "
                 "'_')",
                 results_shown(v, sizeof(v), s->arm), RESULTS_ARM_NAME_MAX);
        *fatal = true;
        bad = why;
    } else {
        bad = check_labels(s, labels, why, why_len);
    }
    json_object_put(o);
    if (bad)
        results_sample_free(s);
    return bad;
}

/* drift CI samples ordered by the target they belong to */
static int by_target(const void *a, const void *b)
{
    const struct results_sample *x = *(const struct results_sample *const *)a,
                                *y = *(const struct results_sample *const *)b;
    if (x->seq != y->seq)
        return x->seq < y->seq ? -1 : 1;
    if (x->repeat != y->repeat)
        return x->repeat < y->repeat ? -1 : 1;
    if (x->guest != y->guest)
        return x->guest < y->guest ? -1 : 1;
    return strcmp(x->arm, y->arm);
}

/* A measure phase's steady label is re-derived from the drift and its 95 %
 * CI written next to it (steadyrule.h), not taken on trust: a label that
 * disagrees with its figures -- edited, or written by a vbed before "not
 * shown steady" existed -- gives way, and the reader is told once. A drift
 * without its CI (results of a vbed before it) keeps its label. */
static void rederive_steady(struct results_data *rd, const char *path)
{
    size_t m = 0, changed = 0, first_line = 0;
    const struct results_sample **ci = xcalloc(rd->n_samples + 1, sizeof(*ci));
    for (size_t i = 0; i < rd->n_samples; i++)
        if (!strcmp(rd->samples[i].metric, "steady_state_drift_ci") && rd->samples[i].value >= 0)
            ci[m++] = &rd->samples[i];
    qsort(ci, m, sizeof(*ci), by_target);
    char was[16] = "";
    const char *now = NULL;
    double drift = NAN, half = NAN;
    for (size_t i = 0; i < rd->n_samples && m > 0; i++) {
        struct results_sample *s = &rd->samples[i];
        if (strcmp(s->metric, "steady_state_drift") || !isfinite(s->value))
            continue;
        const struct results_sample *key = s, *const *c = bsearch(&key, ci, m, sizeof(*ci), by_target);
        if (!c)
            continue;
        const char *label = steady_label(s->value, (*c)->value);
        if (!strcmp(label, s->steady))
            continue;
        if (changed++ == 0) {
            first_line = s->line;
            snprintf(was, sizeof(was), "%s", *s->steady ? s->steady : "(none)");
            now = label; /* steady_label's own string */
            drift = s->value, half = (*c)->value;
        }
        free(s->steady);
        s->steady = xstrdup(label);
    }
    free(ci);
    if (changed)
        log_plain("%s:%zu: labels.steady '%s' is not what its drift (%+.3f) and the drift's 95 %% CI "
                  "(+-%.3f) say, '%s'; the figures' verdict is taken here and in %zu more line(s).",
                  path, first_line, was, drift, half, now, changed - 1);
}

int results_load_samples(struct results_data *rd)
{
    char path[PATH_MAX];
    path_join(path, sizeof(path), rd->dir, "samples.jsonl");
    size_t size = 0;
    char *text = safefile_read_small_len(rd->dirfd, "samples.jsonl", RESULTS_SAMPLES_MAX, &size);
    if (!text) {
        if (errno == ENOENT) {
            log_warn("'%s' has no samples.jsonl: no run has finished yet.", rd->dir);
            return 0;
        }
        if (errno == EFBIG)
            log_error("'%s' is larger than %ld MiB: refusing to read it.", path,
                      RESULTS_SAMPLES_MAX >> 20);
        else
            log_error("Cannot read '%s': %s", path, safefile_why(errno));
        return -1;
    }
    size_t samples_cap = 0, lineno = 0;
    int rc = 0;
    for (char *line = text, *end = text + size; line < end;) {
        char *nl = memchr(line, '\n', (size_t)(end - line));
        bool complete = nl != NULL;
        size_t len = (size_t)((nl ? nl : end) - line);
        char *next = nl ? nl + 1 : end;
        lineno++;
        line[len] = '\0';
        while (len > 0 && line[len - 1] == '\r')
            line[--len] = '\0';
        const char *why = NULL;
        char buf[512];
        bool fatal = false;
        struct results_sample s = {0};
        if (len > RESULTS_LINE_MAX)
            why = "the line is longer than 1 MiB";
        else if (memchr(line, '\0', len))
            why = "the line holds a NUL byte";
        else if (strspn(line, " \t") == len) {
            line = next;
            continue;
        } else
            why = parse_sample(line, len, &s, buf, sizeof(buf), &fatal);
        line = next;
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
        rd->samples = results_grow(rd->samples, &samples_cap, rd->n_samples + 1, sizeof(s));
        rd->samples[rd->n_samples++] = s;
    }
    free(text);
    if (rc == 0)
        rederive_steady(rd, path);
    return rc;
}
