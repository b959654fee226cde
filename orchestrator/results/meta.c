/* meta.c: meta.json (see meta.h). */
#include "results/meta.h"
#include "util/version.h"
#include "util/xalloc.h"

#include "util/hash.h"
#include "util/log.h"
#include "util/outfile.h"
#include "util/paths.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

struct meta {
    json_object *root;
    char path[PATH_MAX];
    int dirfd; /* the results directory: meta.json is written through it */
};

static json_object *now_iso(void)
{
    char buf[32];
    time_t t = time(NULL);
    strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
    return json_object_new_string(buf);
}

static json_object *host_facts(void)
{
    json_object *h = json_object_new_object();
    char name[256] = "?";
    gethostname(name, sizeof(name));
    json_object_object_add(h, "hostname", json_object_new_string(name));
    struct utsname u;
    if (uname(&u) == 0) {
        char k[512];
        snprintf(k, sizeof(k), "%s %s %s", u.sysname, u.release, u.machine);
        json_object_object_add(h, "kernel", json_object_new_string(k));
    }
    char model[256] = "?", line[512];
    FILE *f = fopen("/proc/cpuinfo", "r");
    while (f && fgets(line, sizeof(line), f)) {
        if (strncmp(line, "model name", 10) == 0) {
            const char *colon = strchr(line, ':');
            snprintf(model, sizeof(model), "%s", colon ? colon + 2 : "?");
            model[strcspn(model, "\n")] = '\0';
            break;
        }
    }
    if (f)
        fclose(f);
    json_object_object_add(h, "cpu_model", json_object_new_string(model));
    json_object_object_add(h, "cpus", json_object_new_int((int)sysconf(_SC_NPROCESSORS_ONLN)));
    json_object_object_add(h, "memory_bytes", json_object_new_int64((int64_t)sysconf(_SC_PHYS_PAGES) *
                                                                    sysconf(_SC_PAGESIZE)));
    return h;
}

json_object *meta_config_json(const struct run_config *cfg, int arm_kind)
{
    json_object *c = json_object_new_object();
    unsigned bit = arm_kind == ARM_HOST ? KEY_HOST : KEY_GUEST;
    for (size_t k = 0; k < key_count; k++) {
        if (!(key_table[k].arms & bit))
            continue;
        char v[KEY_STRING_MAX + 32];
        key_format_value(&key_table[k], cfg, v, sizeof(v));
        json_object_object_add(c, key_table[k].name, json_object_new_string(v));
    }
    return c;
}

struct meta *meta_create(const char *results_dir, const struct plan *p)
{
    struct meta *m = xcalloc(1, sizeof(*m));
    path_join(m->path, sizeof(m->path), results_dir, "meta.json");
    m->dirfd = open(results_dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (m->dirfd < 0) {
        log_error("Cannot open the results directory '%s': %s", results_dir, strerror(errno));
        free(m);
        return NULL;
    }
    m->root = json_object_new_object();
    json_object *r = m->root;
    json_object_object_add(r, "vbed_version", json_object_new_string(vbed_version()));
    json_object_object_add(r, "git_describe", json_object_new_string(vbed_version()));
    json_object_object_add(r, "status", json_object_new_string("running"));
    json_object *scn = json_object_new_object();
    json_object_object_add(scn, "name", json_object_new_string(p->scn->name));
    json_object_object_add(scn, "path", json_object_new_string(p->scn->path));
    struct hasher *h = hasher_new();
    hasher_add(h, p->scn->text, strlen(p->scn->text));
    char hex[65];
    hasher_final(h, hex);
    json_object_object_add(scn, "sha256", json_object_new_string(hex));
    json_object_object_add(r, "scenario", scn);
    json_object_object_add(r, "host", host_facts());
    json_object_object_add(r, "started_at", now_iso());
    json_object_object_add(r, "libvirt", json_object_new_object());
    json_object_object_add(r, "versions", json_object_new_object());
    json_object_object_add(r, "image", json_object_new_object());
    json_object *vars = json_object_new_array();
    for (size_t v = 0; v < p->n_variants; v++) {
        json_object *o = json_object_new_object();
        json_object_object_add(o, "index", json_object_new_int((int)v + 1));
        json_object_object_add(o, "label", json_object_new_string(p->variants[v].label));
        json_object_array_add(vars, o);
    }
    json_object_object_add(r, "variants", vars);
    json_object *arms = json_object_new_array();
    for (size_t a = 0; a < p->n_arms; a++) {
        json_object *o = json_object_new_object();
        json_object_object_add(o, "name", json_object_new_string(p->arms[a].name));
        json_object_object_add(o, "kind", json_object_new_string(key_choice("arm", p->arms[a].kind)));
        json_object_array_add(arms, o);
    }
    json_object_object_add(r, "arms", arms);
    json_object_object_add(r, "runs", json_object_new_array());
    if (meta_write(m) < 0) {
        meta_free(m);
        return NULL;
    }
    return m;
}

void meta_free(struct meta *m)
{
    if (!m)
        return;
    json_object_put(m->root);
    if (m->dirfd >= 0)
        close(m->dirfd);
    free(m);
}

void meta_set(struct meta *m, const char *object, const char *key, json_object *value)
{
    json_object *target = m->root;
    if (object && !json_object_object_get_ex(m->root, object, &target)) {
        target = json_object_new_object();
        json_object_object_add(m->root, object, target);
    }
    json_object_object_add(target, key, value);
}

json_object *meta_add_run(struct meta *m, unsigned seq, const char *runid, const struct plan *p,
                          size_t spec, long long repeat, const char *dir)
{
    const struct plan_spec *sp = &p->specs[spec];
    json_object *run = json_object_new_object();
    json_object_object_add(run, "seq", json_object_new_int((int)seq));
    json_object_object_add(run, "run", json_object_new_string(runid));
    json_object_object_add(run, "arm", json_object_new_string(p->arms[sp->arm].name));
    json_object_object_add(run, "arm_kind", json_object_new_string(key_choice("arm", p->arms[sp->arm].kind)));
    json_object_object_add(run, "repeat", json_object_new_int64(repeat));
    json_object *vars = json_object_new_array();
    for (size_t v = 0; v < p->n_variants; v++)
        if (p->variants[v].spec_of_arm[sp->arm] == spec)
            json_object_array_add(vars, json_object_new_int((int)v + 1));
    json_object_object_add(run, "variants", vars);
    json_object_object_add(run, "status", json_object_new_string("running"));
    json_object_object_add(run, "dir", json_object_new_string(dir));
    json_object_object_add(run, "config", meta_config_json(&sp->cfg, p->arms[sp->arm].kind));
    json_object *runs;
    json_object_object_get_ex(m->root, "runs", &runs);
    json_object_array_add(runs, run);
    return run;
}

int meta_write(struct meta *m)
{
    size_t len = 0;
    const char *text = json_object_to_json_string_length(
        m->root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE, &len);
    return outfile_write(m->dirfd, "meta.json", m->path, text, len);
}

int meta_finish(struct meta *m, const char *status)
{
    json_object_object_add(m->root, "ended_at", now_iso());
    json_object_object_add(m->root, "status", json_object_new_string(status));
    return meta_write(m);
}
