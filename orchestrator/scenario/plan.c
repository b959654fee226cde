/* plan.c: expand a checked scenario into variants and distinct runs, and
 * check the rules that involve several keys on every resolved run. */
#include "scenario/plan.h"
#include "scenario/disklayout.h"
#include "scenario/hosturi.h"
#include "util/units.h"
#include "util/xalloc.h"

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The entry that decides key for an arm: its own, else [global]'s. */
static const struct scn_entry *source_of(const struct plan *p, size_t arm, const struct key_def *key,
                                         size_t *section)
{
    const struct scn_section *own = &p->scn->sections[p->arms[arm].section];
    const struct scn_entry *e = scenario_entry(own, key->name);
    if (e) {
        *section = p->arms[arm].section;
        return e;
    }
    *section = 0;
    return scenario_entry(&p->scn->sections[0], key->name);
}

static size_t axis_of(const struct plan *p, size_t section, const struct scn_entry *e)
{
    for (size_t i = 0; i < p->n_axes; i++)
        if (p->axes[i].section == section && p->axes[i].entry == e)
            return i;
    return (size_t)-1;
}

static void resolve(const struct plan *p, size_t arm, const size_t *choice, struct run_config *cfg)
{
    key_apply_defaults(cfg);
    for (size_t k = 0; k < key_count; k++) {
        const struct key_def *key = &key_table[k];
        size_t section;
        const struct scn_entry *e = source_of(p, arm, key, &section);
        if (!e)
            continue;
        size_t item = 0;
        if (e->n_items > 1 && key->type != KT_HOSTS)
            item = choice[axis_of(p, section, e)];
        char err[600];
        /* checked on load; hosts is one value, whatever its commas */
        key_parse_item(key, key->type == KT_HOSTS ? e->raw : e->items[item], cfg, err, sizeof(err));
    }
}

/* What distinguishes a run of arm: its index and the values of every key
 * that affects an arm of its kind ("0\nbuffer_pool=128M\n..."; malloc'd).
 * Two variants whose signatures are equal share the run. */
static char *run_signature(const struct plan *p, size_t arm, const struct run_config *cfg)
{
    unsigned bit = p->arms[arm].kind == ARM_HOST ? KEY_HOST : KEY_GUEST;
    size_t cap = 1024, used = 0;
    char *sig = xcalloc(1, cap);
    used = (size_t)snprintf(sig, cap, "%zu", arm);
    for (size_t k = 0; k < key_count; k++) {
        const struct key_def *key = &key_table[k];
        if (!(key->arms & bit))
            continue;
        char val[KEY_STRING_MAX + 32];
        key_format_value(key, cfg, val, sizeof(val));
        size_t need = strlen(key->name) + strlen(val) + 3;
        if (used + need >= cap) {
            cap = (used + need) * 2;
            sig = xrealloc(sig, cap);
        }
        used += (size_t)snprintf(sig + used, cap - used, "\n%s=%s", key->name, val);
    }
    return sig;
}

static int line_of(const struct plan *p, size_t arm, const char *key)
{
    size_t section;
    const struct scn_entry *e = source_of(p, arm, key_find(key), &section);
    return e ? e->line : p->scn->sections[p->arms[arm].section].line;
}

/* "line 12", or "the default" for a key the file does not set */
static const char *where_set(const struct plan *p, size_t arm, const char *key, char *buf,
                             size_t len)
{
    size_t section;
    const struct scn_entry *e = source_of(p, arm, key_find(key), &section);
    if (e)
        snprintf(buf, len, "line %d", e->line);
    else
        snprintf(buf, len, "the default");
    return buf;
}

#define XFS_MIN_BYTES (300LL << 20)

/* A guest's data disks, their layout and what the workload writes. */
static void check_disks(const struct plan *p, size_t arm, const struct run_config *c, struct diag *d)
{
    const char *path = p->scn->path;
    const char *name = p->arms[arm].name;
    const char *layout = key_choice("layout", c->layout);
    const struct disklayout_info *li = disklayout_info(c->layout);
    char a[64], b[64], w[32];

    if (c->filesystem == FS_TMPFS) {
        if (c->data_disks > 1 || c->layout != LAYOUT_SINGLE)
            diag_add(d, "%s:%d: filesystem: 'tmpfs' uses no data disk, but arm [%s] has layout '%s' "
                        "and data_disks %lld",
                     path, line_of(p, arm, "filesystem"), name, layout, c->data_disks);
        if (key_workload_is_io(c->workload))
            diag_add(d, "%s:%d: workload: '%s' writes to the data disks, but arm [%s] has "
                        "filesystem 'tmpfs' (%s)",
                     path, line_of(p, arm, "workload"), key_choice("workload", c->workload), name,
                     where_set(p, arm, "filesystem", w, sizeof(w)));
        return;
    }
    if (c->layout == LAYOUT_SINGLE && c->data_disks > 1)
        diag_add(d, "%s:%d: data_disks: %lld disks need a layout that combines them, but arm [%s] "
                    "has layout 'single' (%s)",
                 path, line_of(p, arm, "data_disks"), c->data_disks, name,
                 where_set(p, arm, "layout", w, sizeof(w)));
    if (c->data_disks < li->min_disks)
        diag_add(d, "%s:%d: layout: '%s' needs at least %d data disks, but arm [%s] has data_disks "
                    "%lld (%s)",
                 path, line_of(p, arm, "layout"), layout, li->min_disks, name, c->data_disks,
                 where_set(p, arm, "data_disks", w, sizeof(w)));
    if (li->tool == DL_TOOL_BTRFS && c->filesystem != FS_BTRFS)
        diag_add(d, "%s:%d: layout: '%s' is btrfs's own RAID and needs filesystem btrfs, but arm "
                    "[%s] has filesystem '%s' (%s)",
                 path, line_of(p, arm, "layout"), layout, name,
                 key_choice("filesystem", c->filesystem), where_set(p, arm, "filesystem", w, sizeof(w)));
    long long usable = disklayout_usable_bytes(c->layout, c->data_disks, c->disk_size);
    /* mkfs.xfs (xfsprogs 6) refuses a filesystem below 300 MiB: found
     * here, not by a guest failing its setup after its boot */
    if (c->filesystem == FS_XFS && c->data_disks >= li->min_disks && usable < XFS_MIN_BYTES) {
        key_format_value(key_find("disk_size"), c, a, sizeof(a));
        format_size(usable, b, sizeof(b));
        diag_add(d, "%s:%d: disk_size: '%s' gives arm [%s] %s for its filesystem, but xfs needs at "
                    "least 300 MiB (filesystem 'xfs', %s)",
                 path, line_of(p, arm, "disk_size"), a, name, b,
                 where_set(p, arm, "filesystem", w, sizeof(w)));
    }
    /* fio's file must fit, with room for the filesystem's own metadata */
    if ((c->workload == WL_SEQ_WRITE || c->workload == WL_SEQ_READ) && c->io_size > usable / 10 * 9 &&
        c->data_disks >= li->min_disks) {
        key_format_value(key_find("io_size"), c, a, sizeof(a));
        format_size(usable, b, sizeof(b));
        diag_add(d, "%s:%d: io_size: '%s' does not fit on arm [%s]'s data disks (layout '%s' of "
                    "%lld disks: %s usable, of which io_size may take 90%%)",
                 path, line_of(p, arm, "io_size"), a, name, layout, c->data_disks, b);
    }
}

/* Rules that involve more than one key, on one resolved run. */
static void check_run(const struct plan *p, size_t arm, const struct run_config *c, struct diag *d)
{
    const char *path = p->scn->path;
    const char *name = p->arms[arm].name;
    char a[64], b[64], w[32];

    if (c->arm == ARM_GUEST && c->disk_io == IO_NATIVE && c->disk_cache != CACHE_NONE &&
        c->disk_cache != CACHE_DIRECTSYNC)
        diag_add(d,
                 "%s:%d: disk_io: 'native' needs disk_cache none or directsync, but arm [%s] has "
                 "disk_cache '%s' (%s)",
                 path, line_of(p, arm, "disk_io"), name, key_choice("disk_cache", c->disk_cache),
                 where_set(p, arm, "disk_cache", w, sizeof(w)));
    if (c->buffer_pool >= 0 && c->buffer_pool >= c->memory) {
        key_format_value(key_find("buffer_pool"), c, a, sizeof(a));
        key_format_value(key_find("memory"), c, b, sizeof(b));
        diag_add(d, "%s:%d: buffer_pool: '%s' does not fit in arm [%s]'s memory '%s' (%s)", path,
                 line_of(p, arm, "buffer_pool"), a, name, b,
                 where_set(p, arm, "memory", w, sizeof(w)));
    }
    if (c->arm == ARM_GUEST && c->filesystem == FS_TMPFS &&
        (c->buffer_pool < 0 || c->buffer_pool * 2 > c->memory))
        diag_add(d,
                 "%s:%d: filesystem: 'tmpfs' keeps the datadir in guest memory; arm [%s] needs "
                 "memory of at least twice buffer_pool (memory: %s)",
                 path, line_of(p, arm, "filesystem"), name,
                 where_set(p, arm, "memory", w, sizeof(w)));
    if (c->arm == ARM_GUEST && c->disk_format == FORMAT_QCOW2 &&
        (c->qcow2_cluster_size & (c->qcow2_cluster_size - 1)) != 0) {
        key_format_value(key_find("qcow2_cluster_size"), c, a, sizeof(a));
        diag_add(d, "%s:%d: qcow2_cluster_size: '%s' is not a power of two (512 to 2M)", path,
                 line_of(p, arm, "qcow2_cluster_size"), a);
    }
    if (c->arm == ARM_GUEST)
        check_disks(p, arm, c, d);
    if (c->arm == ARM_HOST && c->hosts[0]) {
        /* the host arm's mariadbd runs on one host: this machine, or an
         * ssh host whose helper starts it (a shell is needed there) */
        char uri[KEY_HOSTS_MAX], err[600];
        struct host_uri u;
        run_config_host(c, 0, uri, sizeof(uri));
        if (run_config_host_count(c) > 1)
            diag_add(d,
                     "%s:%d: hosts: the host arm [%s] runs on one host: give one URI (an arm "
                     "per host to compare hosts), not '%s'",
                     path, line_of(p, arm, "hosts"), name, c->hosts);
        else if (host_uri_parse(uri, &u, err, sizeof(err)) < 0 || u.transport == HT_NONE)
            diag_add(d,
                     "%s:%d: hosts: the host arm [%s] needs a shell on its host: a local URI "
                     "(qemu:///system) or qemu+ssh://, not '%s'",
                     path, line_of(p, arm, "hosts"), name, c->hosts);
    }
    if (c->duration > 0 && c->report_interval > c->duration)
        diag_add(d, "%s:%d: report_interval: longer than duration in arm [%s] (duration: %s)",
                 path, line_of(p, arm, "report_interval"), name,
                 where_set(p, arm, "duration", w, sizeof(w)));
}

/* Keys set in an arm section that cannot affect an arm of its kind. */
static void check_arm_keys(const struct plan *p, size_t arm, struct diag *d)
{
    const struct scn_section *sec = &p->scn->sections[p->arms[arm].section];
    unsigned bit = p->arms[arm].kind == ARM_HOST ? KEY_HOST : KEY_GUEST;
    for (size_t i = 0; i < sec->n_entries; i++) {
        const struct key_def *key = sec->entries[i].key;
        if (!(key->arms & bit))
            diag_add(d, "%s:%d: %s: has no effect on the %s arm [%s]", p->scn->path,
                     sec->entries[i].line, key->name, key_choice("arm", p->arms[arm].kind),
                     sec->name);
    }
}

static int build_arms(struct plan *p, struct diag *d)
{
    const struct scenario *s = p->scn;
    p->arms = xcalloc(s->n_sections, sizeof(*p->arms));
    for (size_t i = 1; i < s->n_sections; i++) {
        const struct scn_section *sec = &s->sections[i];
        const struct scn_entry *e = scenario_entry(sec, "arm");
        if (!e) {
            diag_add(d, "%s:%d: arm section [%s] has no 'arm' key (accepted: host, guest)", s->path,
                     sec->line, sec->name);
            continue;
        }
        struct plan_arm *a = &p->arms[p->n_arms++];
        snprintf(a->name, sizeof(a->name), "%s", sec->name);
        a->kind = strcmp(e->items[0], "host") == 0 ? ARM_HOST : ARM_GUEST;
        a->section = i;
    }
    for (size_t i = 0; i < p->n_arms; i++)
        check_arm_keys(p, i, d);

    /* a required key (no default) must be set for every arm */
    for (size_t k = 0; k < key_count; k++) {
        if (key_table[k].def || (key_table[k].flags & KF_ARM_ONLY))
            continue;
        for (size_t i = 0; i < p->n_arms; i++) {
            size_t section;
            if (!source_of(p, i, &key_table[k], &section)) {
                char accepted[512];
                key_describe_accepted(&key_table[k], accepted, sizeof(accepted));
                diag_add(d, "%s:%d: arm [%s] has no %s: set %s = one of: %s (in [global] or [%s])",
                         s->path, s->sections[p->arms[i].section].line, p->arms[i].name,
                         key_table[k].name, key_table[k].name, accepted, p->arms[i].name);
            }
        }
    }
    return 0;
}

static void build_axes(struct plan *p)
{
    const struct scenario *s = p->scn;
    /* in file order: [global] first, then arm sections, entries by line */
    for (size_t i = 0; i < s->n_sections; i++) {
        for (size_t j = 0; j < s->sections[i].n_entries; j++) {
            const struct scn_entry *e = &s->sections[i].entries[j];
            if (e->n_items < 2 || e->key->type == KT_HOSTS)
                continue; /* hosts: a placement, not an axis */
            p->axes = xrealloc(p->axes, (p->n_axes + 1) * sizeof(*p->axes));
            p->axes[p->n_axes++] = (struct plan_axis){.section = i, .entry = e};
        }
    }
}

static char *variant_label(const struct plan *p, const size_t *choice)
{
    char buf[2048];
    size_t used = 0;
    buf[0] = '\0';
    for (size_t a = 0; a < p->n_axes && used < sizeof(buf); a++) {
        const struct plan_axis *ax = &p->axes[a];
        const char *section = ax->section ? p->scn->sections[ax->section].name : NULL;
        used += (size_t)snprintf(buf + used, sizeof(buf) - used, "%s%s%s%s=%s", a ? " " : "",
                                 section ? section : "", section ? "." : "", ax->entry->key->name,
                                 ax->entry->items[choice[a]]);
    }
    return xstrdup(p->n_axes ? buf : "default");
}

/* The spec for (arm, cfg): an existing one with the same signature (a hash
 * lookup in index), else a new one. */
static size_t find_or_add_spec(struct plan *p, json_object *index, size_t arm,
                               const struct run_config *cfg, size_t variant)
{
    char *sig = run_signature(p, arm, cfg);
    json_object *found;
    size_t spec;
    if (json_object_object_get_ex(index, sig, &found)) {
        spec = (size_t)json_object_get_int64(found);
    } else {
        /* doubling: growing by one run at a time copies the array every time
         * (quadratic: 100,000 runs took minutes under ASan's allocator) */
        if ((p->n_specs & (p->n_specs - 1)) == 0)
            p->specs = xrealloc(p->specs, (p->n_specs ? 2 * p->n_specs : 1) * sizeof(*p->specs));
        p->specs[p->n_specs] = (struct plan_spec){.arm = arm, .cfg = *cfg, .first_variant = variant};
        spec = p->n_specs++;
        json_object_object_add(index, sig, json_object_new_int64((int64_t)spec));
    }
    free(sig);
    struct plan_spec *sp = &p->specs[spec];
    sp->variants = xrealloc(sp->variants, (sp->n_variants + 1) * sizeof(size_t));
    sp->variants[sp->n_variants++] = variant;
    return spec;
}

struct plan *plan_build(const struct scenario *scn, struct diag *d)
{
    size_t errors_before = d->n;
    struct plan *p = xcalloc(1, sizeof(*p));
    p->scn = scn;

    key_apply_defaults(&p->global);
    for (size_t j = 0; j < scn->sections[0].n_entries; j++) {
        const struct scn_entry *e = &scn->sections[0].entries[j];
        char err[600];
        key_parse_item(e->key, e->key->type == KT_HOSTS ? e->raw : e->items[0], &p->global, err,
                       sizeof(err));
    }

    build_arms(p, d);
    build_axes(p);
    if (d->n > errors_before) {
        plan_free(p);
        return NULL;
    }

    size_t total = 1;
    for (size_t a = 0; a < p->n_axes; a++) {
        const struct scn_entry *e = p->axes[a].entry;
        total *= e->n_items;
        if (total > PLAN_MAX_VARIANTS) {
            diag_add(d,
                     "%s:%d: %s: with this list the scenario has at least %zu variants, more "
                     "than the %d vbed accepts (split it into several scenarios)",
                     scn->path, e->line, e->key->name, total, PLAN_MAX_VARIANTS);
            plan_free(p);
            return NULL;
        }
    }

    p->variants = xcalloc(total, sizeof(*p->variants));
    size_t *choice = xcalloc(p->n_axes, sizeof(size_t));
    json_object *index = json_object_new_object(); /* run signature -> spec */
    for (size_t v = 0; v < total; v++) {
        struct plan_variant *var = &p->variants[p->n_variants++];
        var->choice = xcalloc(p->n_axes, sizeof(size_t));
        memcpy(var->choice, choice, p->n_axes * sizeof(size_t));
        var->label = variant_label(p, choice);
        var->spec_of_arm = xcalloc(p->n_arms, sizeof(size_t));
        for (size_t arm = 0; arm < p->n_arms; arm++) {
            struct run_config cfg;
            resolve(p, arm, choice, &cfg);
            check_run(p, arm, &cfg, d);
            var->spec_of_arm[arm] = find_or_add_spec(p, index, arm, &cfg, v);
        }
        /* odometer: the last axis turns fastest */
        for (size_t a = p->n_axes; a-- > 0;) {
            if (++choice[a] < p->axes[a].entry->n_items)
                break;
            choice[a] = 0;
        }
    }
    free(choice);
    json_object_put(index);

    if (d->n > errors_before) {
        plan_free(p);
        return NULL;
    }
    return p;
}

void plan_free(struct plan *p)
{
    if (!p)
        return;
    for (size_t v = 0; v < p->n_variants; v++) {
        free(p->variants[v].label);
        free(p->variants[v].choice);
        free(p->variants[v].spec_of_arm);
    }
    free(p->variants);
    for (size_t s = 0; s < p->n_specs; s++)
        free(p->specs[s].variants);
    free(p->specs);
    free(p->axes);
    free(p->arms);
    free(p);
}

void plan_spec_variants(const struct plan *p, size_t spec, char *buf, size_t len)
{
    const struct plan_spec *sp = &p->specs[spec];
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < sp->n_variants; i++) {
        int n = snprintf(buf + used, len - used, "%s%zu", i ? "," : "", sp->variants[i] + 1);
        if (n < 0 || (size_t)n >= len - used) {
            /* does not fit: whole numbers up to a comma, then ",..." */
            buf[used] = '\0';
            while (used > 0 && (used + 5 > len || buf[used] != ','))
                buf[used--] = '\0';
            if (len >= 5)
                snprintf(buf + used, len - used, "%s...", used ? "," : "");
            return;
        }
        used += (size_t)n;
    }
}

void plan_print(const struct plan *p, FILE *out)
{
    long long repeats = p->global.repeats;
    char rep[32];
    if (repeats < 0)
        snprintf(rep, sizeof(rep), "auto (at most %lld)", p->global.repeats_max);
    else
        snprintf(rep, sizeof(rep), "%lld", repeats);

    fprintf(out, "scenario %s: %zu variant%s x %zu arm%s, %zu distinct run%s, repeats %s\n",
            p->scn->path, p->n_variants, p->n_variants == 1 ? "" : "s", p->n_arms,
            p->n_arms == 1 ? "" : "s", p->n_specs, p->n_specs == 1 ? "" : "s", rep);
    fprintf(out, "\nvariants:\n");
    for (size_t v = 0; v < p->n_variants; v++) {
        fprintf(out, "  %3zu  %s\n", v + 1, p->variants[v].label);
        for (size_t a = 0; a < p->n_arms; a++)
            fprintf(out, "         %-16s run %zu\n", p->arms[a].name,
                    p->variants[v].spec_of_arm[a] + 1);
    }
    fprintf(out, "\nruns (executed in this order, all of them once per repeat):\n");
    for (size_t s = 0; s < p->n_specs; s++) {
        const struct plan_spec *sp = &p->specs[s];
        const struct plan_arm *arm = &p->arms[sp->arm];
        char vars[256];
        plan_spec_variants(p, s, vars, sizeof(vars));
        if (arm->kind == ARM_GUEST)
            fprintf(out, "  run %zu: arm %s (%lld guest%s), variants %s\n", s + 1, arm->name,
                    sp->cfg.guests, sp->cfg.guests == 1 ? "" : "s", vars);
        else
            fprintf(out, "  run %zu: arm %s (bare host), variants %s\n", s + 1, arm->name, vars);
        unsigned bit = arm->kind == ARM_HOST ? KEY_HOST : KEY_GUEST;
        size_t col = 0;
        for (size_t k = 0; k < key_count; k++) {
            const struct key_def *key = &key_table[k];
            if (!(key->arms & bit) || (key->flags & (KF_GLOBAL_ONLY | KF_ARM_ONLY)) ||
                key_is_placement(key)) /* the placement is printed on its own */
                continue;
            char val[KEY_STRING_MAX + 32], item[KEY_STRING_MAX + 64];
            key_format_value(key, &sp->cfg, val, sizeof(val));
            int n = snprintf(item, sizeof(item), "%s=%s", key->name, val);
            if (col == 0) {
                fprintf(out, "      ");
                col = 6;
            } else if (col + 1 + (size_t)n > 100) {
                fprintf(out, "\n      ");
                col = 6;
            } else {
                fprintf(out, " ");
                col++;
            }
            fprintf(out, "%s", item);
            col += (size_t)n;
        }
        fprintf(out, "\n");
    }
}
