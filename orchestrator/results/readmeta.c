/* readmeta.c: meta.json of a results directory into its struct
 * results_data (readmeta.h): the scenario, status, accel and run order; the
 * context (every scalar outside the plan, flattened "host.cpus" style);
 * variants, arms and runs (config, placement); the libvirt URIs it names.
 * Each value is checked as it is read (see resultsread.h): one that fails
 * refuses the directory, naming the file, the field and the value. Owns
 * the sets of meta.json's values. */
#include "results/readmeta.h"
#include "results/readcheck.h"
#include "results/readmodel.h"
#include "results/resultsread.h"
#include "util/log.h"
#include "util/paths.h"
#include "util/safefile.h"
#include "util/xalloc.h"

#include <errno.h>
#include <json-c/json.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char *const run_statuses[] = {"running", "ok", "failed", "interrupted", NULL};
static const char *const statuses[] = {"running", "complete", "failed", "interrupted", NULL};
static const char *const pins[] = {"auto", "none", NULL};
static const char *const orders[] = {"shuffle", "fixed", NULL};
static const char *const cache_modes[] = {"none", "writeback", "writethrough", "directsync",
                                          "unsafe", NULL};

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
    rd->context = results_grow(rd->context, cap, rd->n_context + 1, sizeof(*rd->context));
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

/* Report a value of meta.json that fails its check; -1. */
static int bad_meta(const char *path, const char *where, const char *value, const char *what)
{
    char v[128];
    log_error("%s: %s: '%s' is not %s: refusing to report this results directory.", path, where,
              results_shown(v, sizeof(v), value), what);
    return -1;
}

static int check_one_of(const char *path, const char *where, const char *value,
                        const char *const *set)
{
    if (results_one_of(value, set))
        return 0;
    char list[256], what[300];
    results_set_list(list, sizeof(list), set);
    snprintf(what, sizeof(what), "one of %s", list);
    return bad_meta(path, where, value, what);
}

static const char arm_rule[] = "an arm name (1 to 16 lower-case letters, digits or '_')";
static const char cpus_chars[] = ",-";

static int read_variants(struct results_data *rd, const char *path, struct json_object *meta)
{
    struct json_object *arr = results_member(meta, "variants");
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
        rd->variants[i].label = results_str_of(v, "label");
        rd->n_variants = i + 1;
        snprintf(where, sizeof(where), "variants[%zu].index", i);
        if (!results_int_of(v, "index", 1, RESULTS_MAX_VARIANTS, (int)i + 1, &rd->variants[i].index))
            return bad_meta(path, where, json_object_get_string(results_member(v, "index")),
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
    struct json_object *arr = results_member(meta, "arms");
    if (!arr || !json_object_is_type(arr, json_type_array))
        return 0;
    for (size_t i = 0; i < json_object_array_length(arr); i++) {
        struct json_object *a = json_object_array_get_idx(arr, i);
        char *name = results_str_of(a, "name"), *kind = results_str_of(a, "kind"), where[64];
        int rc = 0;
        snprintf(where, sizeof(where), "arms[%zu].name", i);
        if (!results_valid_arm_name(name))
            rc = bad_meta(path, where, name, arm_rule);
        snprintf(where, sizeof(where), "arms[%zu].kind", i);
        if (rc == 0)
            rc = check_one_of(path, where, kind, results_kinds);
        if (rc == 0)
            results_add_arm(rd, name, kind);
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
        if (!results_valid_word(key, 32, "_"))
            return bad_meta(path, where, key, "a key name");
        snprintf(where, sizeof(where), "runs[%zu].config.%s", i, key);
        if (!results_valid_text(value, 256))
            return bad_meta(path, where, value, "a key's value (printable, at most 256 bytes)");
        r->config = results_grow(r->config, &cap, r->n_config + 1, sizeof(*r->config));
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
    r->pin = results_str_of(pl, "pin");
    r->pin_reason = results_str_of(pl, "reason");
    r->pin_host_cpus = results_str_of(pl, "host_cpus");
    r->pin_applied = -1;
    if (!pl)
        return 0;
    snprintf(where, sizeof(where), "runs[%zu].placement.pin", i);
    if (check_one_of(path, where, r->pin, pins) < 0)
        return -1;
    struct json_object *applied = results_member(pl, "applied");
    if (applied && json_object_is_type(applied, json_type_boolean))
        r->pin_applied = json_object_get_boolean(applied);
    snprintf(where, sizeof(where), "runs[%zu].placement.reason", i);
    if (!results_valid_text(r->pin_reason, 512))
        return bad_meta(path, where, r->pin_reason, "a reason (printable, at most 512 bytes)");
    snprintf(where, sizeof(where), "runs[%zu].placement.host_cpus", i);
    if (*r->pin_host_cpus && !results_valid_word(r->pin_host_cpus, 256, cpus_chars))
        return bad_meta(path, where, r->pin_host_cpus, "a list of host CPUs");
    struct json_object *arr = results_member(pl, "guests");
    if (!arr || !json_object_is_type(arr, json_type_array))
        return 0;
    size_t n = json_object_array_length(arr);
    if (n > 1024)
        return bad_meta(path, "placement.guests", "(too many)", "a list of at most 1024 guests");
    r->pins = xcalloc(n, sizeof(*r->pins));
    for (size_t k = 0; k < n; k++) {
        struct json_object *g = json_object_array_get_idx(arr, k);
        struct results_pin *p = &r->pins[k];
        p->vcpus = results_str_of(g, "vcpus");
        p->emulator = results_str_of(g, "emulator");
        r->n_pins = k + 1;
        snprintf(where, sizeof(where), "runs[%zu].placement.guests[%zu]", i, k);
        if (!results_int_of(g, "guest", 1, 1024, 0, &p->guest))
            return bad_meta(path, where, json_object_get_string(results_member(g, "guest")),
                            "a guest number");
        if ((*p->vcpus && !results_valid_word(p->vcpus, 256, cpus_chars)) ||
            (*p->emulator && !results_valid_word(p->emulator, 256, cpus_chars)))
            return bad_meta(path, where, *p->vcpus ? p->vcpus : p->emulator,
                            "a list of host CPUs");
    }
    return 0;
}

static int read_runs(struct results_data *rd, const char *path, struct json_object *meta)
{
    struct json_object *arr = results_member(meta, "runs");
    size_t n;
    if (!arr || !json_object_is_type(arr, json_type_array) ||
        (n = json_object_array_length(arr)) == 0)
        return 0;
    rd->runs = xcalloc(n, sizeof(*rd->runs));
    for (size_t i = 0; i < n; i++) {
        struct json_object *o = json_object_array_get_idx(arr, i);
        struct results_run *r = &rd->runs[i];
        char where[64];
        r->run = results_str_of(o, "run");
        r->arm = results_str_of(o, "arm");
        r->status = results_str_of(o, "status");
        r->dir = results_str_of(o, "dir");
        rd->n_runs = i + 1;
        snprintf(where, sizeof(where), "runs[%zu]", i);
        if (!results_int_of(o, "seq", 0, 1000000, 0, &r->seq) ||
            !results_int_of(o, "repeat", 0, 1000000, 0, &r->repeat))
            return bad_meta(path, where, "seq or repeat", "a run number in range");
        if (!results_ints_of(o, "variants", &r->variants, &r->n_variants))
            return bad_meta(path, where, "variants", "a list of variant numbers");
        snprintf(where, sizeof(where), "runs[%zu].arm", i);
        if (!results_valid_arm_name(r->arm))
            return bad_meta(path, where, r->arm, arm_rule);
        snprintf(where, sizeof(where), "runs[%zu].run", i);
        if (*r->run && !results_valid_word(r->run, 64, "_-"))
            return bad_meta(path, where, r->run, "a run id");
        snprintf(where, sizeof(where), "runs[%zu].status", i);
        if (check_one_of(path, where, r->status, run_statuses) < 0)
            return -1;
        snprintf(where, sizeof(where), "runs[%zu].dir", i);
        if (*r->dir && (!results_valid_word(r->dir, 256, "._-/") || strstr(r->dir, "..")))
            return bad_meta(path, where, r->dir, "a run directory");
        if (read_config(r, path, i, results_member(o, "config")) < 0)
            return -1;
        if (!r->disk_cache)
            r->disk_cache = xstrdup("");
        if (read_placement(r, path, i, results_member(o, "placement")) < 0)
            return -1;
        r->hypervisor_fields = results_str_of(o, "hypervisor_fields");
        snprintf(where, sizeof(where), "runs[%zu].hypervisor_fields", i);
        if (*r->hypervisor_fields && !results_valid_word(r->hypervisor_fields, 4096, "._,"))
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
    struct json_object *v = results_member(results_member(meta, "libvirt"), "uri"), *arr;
    if (v && json_object_is_type(v, json_type_string))
        add_uris(rd, json_object_get_string(v));
    const char *lists[] = {"hosts", "runs"}, *keys[] = {"host", "hosts"};
    for (size_t l = 0; l < 2; l++) {
        arr = results_member(meta, lists[l]);
        if (!arr || !json_object_is_type(arr, json_type_array))
            continue;
        for (size_t i = 0; i < json_object_array_length(arr); i++) {
            v = results_member(json_object_array_get_idx(arr, i), keys[l]);
            if (v && json_object_is_type(v, json_type_string))
                add_uris(rd, json_object_get_string(v));
        }
    }
}

int results_load_meta(struct results_data *rd)
{
    char path[PATH_MAX];
    path_join(path, sizeof(path), rd->dir, "meta.json");
    char *text = safefile_read_small(rd->dirfd, "meta.json", RESULTS_META_MAX);
    if (!text) {
        if (errno == EFBIG)
            log_error("'%s' is larger than %ld MiB: refusing to read it.", path,
                      RESULTS_META_MAX >> 20);
        else
            log_error("Cannot read '%s': %s", path, safefile_why(errno));
        return -1;
    }
    enum json_tokener_error jerr = json_tokener_success;
    struct json_object *meta = json_tokener_parse_verbose(text, &jerr);
    free(text);
    if (!meta) {
        log_error("Cannot read '%s': %s", path, json_tokener_error_desc(jerr));
        return -1;
    }
    if (!json_object_is_type(meta, json_type_object)) {
        log_error("'%s' is not a JSON object.", path);
        json_object_put(meta);
        return -1;
    }
    struct json_object *scn = results_member(meta, "scenario"), *order = results_member(meta, "order");
    rd->scenario_name = results_str_of(scn, "name");
    rd->scenario_sha256 = results_str_of(scn, "sha256");
    rd->status = results_str_of(meta, "status");
    rd->accel = results_str_of(meta, "accel");
    rd->accel_reason = results_str_of(meta, "accel_reason");
    rd->started_at = results_str_of(meta, "started_at");
    rd->ended_at = results_str_of(meta, "ended_at");
    rd->order_mode = results_str_of(order, "mode");
    int rc = 0;
    if (!results_valid_text(rd->scenario_name, 255))
        rc = bad_meta(path, "scenario.name", rd->scenario_name,
                      "a scenario name (printable, at most 255 bytes)");
    else if (*rd->scenario_sha256 && !results_valid_word(rd->scenario_sha256, 64, ""))
        rc = bad_meta(path, "scenario.sha256", rd->scenario_sha256, "a hash");
    else if (check_one_of(path, "status", rd->status, statuses) < 0 ||
             check_one_of(path, "accel", rd->accel, results_accels) < 0 ||
             check_one_of(path, "order.mode", rd->order_mode, orders) < 0)
        rc = -1;
    else if (!results_valid_text(rd->accel_reason, 1024))
        rc = bad_meta(path, "accel_reason", rd->accel_reason, "printable text");
    else if (!results_valid_text(rd->started_at, 64) || !results_valid_text(rd->ended_at, 64))
        rc = bad_meta(path, "started_at", rd->started_at, "a time");
    struct json_object *seed = results_member(order, "seed");
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
