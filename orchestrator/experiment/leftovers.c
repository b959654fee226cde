/* leftovers.c: find and remove what a dead vbed left (see leftovers.h). */
#include "experiment/leftovers.h"

#include "image/image.h"
#include "targets/hostarm.h"
#include "util/log.h"
#include "util/paths.h"
#include "util/process.h"
#include "results/session.h"
#include "virt/storage.h"
#include "util/xalloc.h"

#include <dirent.h>
#include <stdlib.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

enum fate { F_REMOVE, F_LIVE, F_FOREIGN, F_OTHER };

struct clean {
    struct hv *hv;
    const struct leftovers_opts *o;
    struct leftovers *out;
    char **active;       /* names of the running vbed- domains */
    size_t n_active;
    int left_domains;    /* domains (other than images' users we removed) that stay */
    int left_volumes;    /* non-image volumes that stay */
};

static bool is_image(const char *name)
{
    return strncmp(name, "vbed-image-", 11) == 0;
}

/* Is a domain whose name starts with prefix running? */
static bool active_with_prefix(const struct clean *c, const char *prefix)
{
    for (size_t i = 0; i < c->n_active; i++)
        if (strncmp(c->active[i], prefix, strlen(prefix)) == 0)
            return true;
    return false;
}

/* A probe (domain or console volume): ours while its vbed runs. */
static enum fate probe_fate(const char *name)
{
    char tag[SESSION_MACHINE_TAG_LEN + 1];
    int pid;
    if (session_probe_of_name(name, tag, &pid) < 0 || strcmp(tag, session_machine_tag()) != 0)
        return F_FOREIGN;
    return process_is_vbed(pid) == 0 ? F_REMOVE : F_LIVE;
}

/* A foreign thing goes only with --foreign, and never while a domain of
 * its session (prefix) runs. */
static enum fate foreign_fate(const struct clean *c, const char *prefix)
{
    return c->o->foreign && !active_with_prefix(c, prefix) ? F_REMOVE : F_FOREIGN;
}

/* With --session, anything not of that session (a probe, another session,
 * a name of no session) is another's. */
static bool not_the_session(const struct clean *c, const char *name)
{
    char id[SESSION_ID_MAX];
    return c->o->session && (session_of_name(name, id) < 0 || strcmp(id, c->o->session) != 0);
}

static enum fate domain_fate(struct clean *c, const char *name)
{
    char id[SESSION_ID_MAX], prefix[SESSION_ID_MAX + 8], machine[300];
    if (not_the_session(c, name))
        return F_OTHER;
    if (strncmp(name, SESSION_PROBE_PREFIX, strlen(SESSION_PROBE_PREFIX)) == 0) {
        enum fate f = probe_fate(name);
        return f == F_FOREIGN ? foreign_fate(c, name) : f;
    }
    if (session_of_name(name, id) < 0)
        return foreign_fate(c, name);
    snprintf(prefix, sizeof(prefix), "vbed-%s-", id);
    int owner = hv_domain_owner(c->hv, name, machine, sizeof(machine));
    if (owner < 0)
        return F_LIVE; /* cannot tell whose: leave it */
    if (owner == 1 && strcmp(machine, session_machine()) != 0)
        return foreign_fate(c, prefix);
    enum session_state st = session_state(id);
    if (st == SESSION_ALIVE || st == SESSION_UNKNOWN)
        return F_LIVE;
    if (st == SESSION_DEAD || owner == 1) /* ours by record or by metadata */
        return F_REMOVE;
    return foreign_fate(c, prefix);
}

static enum fate volume_fate(struct clean *c, const char *name)
{
    char id[SESSION_ID_MAX], prefix[SESSION_ID_MAX + 8];
    if (not_the_session(c, name))
        return F_OTHER;
    if (strncmp(name, SESSION_PROBE_PREFIX, strlen(SESSION_PROBE_PREFIX)) == 0) {
        enum fate f = probe_fate(name);
        if (f != F_FOREIGN)
            return f;
        /* the console of a probe that still runs must stay */
        char dom[128];
        snprintf(dom, sizeof(dom), "%s", name);
        char *suffix = strstr(dom, "-console");
        if (suffix)
            *suffix = '\0';
        return foreign_fate(c, dom);
    }
    if (session_of_name(name, id) < 0)
        return foreign_fate(c, name);
    snprintf(prefix, sizeof(prefix), "vbed-%s-", id);
    switch (session_state(id)) {
    case SESSION_ALIVE:
    case SESSION_UNKNOWN:
        return F_LIVE;
    case SESSION_DEAD:
        return F_REMOVE;
    default:
        return foreign_fate(c, prefix);
    }
}

/* Count what stays; true if it is to be removed. */
static bool judge(struct clean *c, enum fate f)
{
    if (f == F_LIVE)
        c->out->kept++;
    else if (f == F_FOREIGN)
        c->out->foreign++;
    else if (f == F_OTHER)
        c->out->others++;
    return f == F_REMOVE;
}

static void list_active(struct clean *c)
{
    char **names;
    size_t n;
    if (hv_list_domains(c->hv, "vbed-", &names, &n) < 0)
        return;
    c->active = xcalloc(n + 1, sizeof(char *));
    for (size_t i = 0; i < n; i++) {
        if (hv_domain_active(c->hv, names[i]) != 0) /* running, or cannot tell */
            c->active[c->n_active++] = names[i];
        else
            free(names[i]);
    }
    free(names);
}

static void clean_domains(struct clean *c)
{
    char **names;
    size_t n;
    if (hv_list_domains(c->hv, "vbed-", &names, &n) < 0) {
        c->out->failed++;
        c->left_domains++;
        return;
    }
    for (size_t i = 0; i < n; i++) {
        if (!judge(c, domain_fate(c, names[i]))) {
            c->left_domains++;
            continue;
        }
        if (c->o->dry_run) {
            printf("would remove domain %s\n", names[i]);
            c->out->removed++;
        } else if (hv_remove_domain(c->hv, names[i]) == 0) {
            printf("removed domain %s\n", names[i]);
            c->out->removed++;
        } else {
            c->out->failed++;
            c->left_domains++;
        }
    }
    storage_free_names(names, n);
}

static void remove_volume(struct clean *c, struct storage *st, const char *name, bool *stays)
{
    *stays = false;
    if (c->o->dry_run) {
        printf("would remove volume %s/%s\n", storage_path(st), name);
        c->out->removed++;
    } else if (storage_delete(st, name) == 0) {
        printf("removed volume %s/%s\n", storage_path(st), name);
        c->out->removed++;
    } else {
        c->out->failed++;
        *stays = true;
    }
}

/* Why the base images must stay, or NULL if they may go. */
static const char *images_in_use(const struct clean *c, char *buf, size_t len)
{
    if (session_any_alive())
        return "a session of this machine is alive or cannot be judged";
    if (c->left_domains || c->left_volumes) {
        snprintf(buf, len, "%d domain%s and %d volume%s of other sessions remain, and may use them",
                 c->left_domains, c->left_domains == 1 ? "" : "s", c->left_volumes,
                 c->left_volumes == 1 ? "" : "s");
        return buf;
    }
    return NULL;
}

static void clean_volumes(struct clean *c)
{
    const char *pool = c->o->pool;
    virStoragePoolPtr p = virStoragePoolLookupByName(hv_conn(c->hv), pool);
    if (!p) {
        log_info("no storage pool '%s': no volumes to remove", pool);
        return;
    }
    virStoragePoolFree(p);
    struct storage *st = storage_open(c->hv, pool, "/nonexistent");
    if (!st) {
        c->out->failed++;
        return;
    }
    char **names;
    size_t n;
    if (storage_list(st, "vbed-", &names, &n) < 0) {
        c->out->failed++;
        storage_close(st);
        return;
    }
    bool stays;
    for (size_t i = 0; i < n; i++) {
        if (is_image(names[i]))
            continue;
        if (!judge(c, volume_fate(c, names[i]))) {
            c->left_volumes++;
            continue;
        }
        remove_volume(c, st, names[i], &stays);
        c->left_volumes += stays;
    }
    char why[160];
    const char *in_use = c->o->images ? images_in_use(c, why, sizeof(why)) : NULL;
    for (size_t i = 0; c->o->images && i < n; i++) {
        if (!is_image(names[i]))
            continue;
        if (in_use)
            c->out->images_kept++;
        else
            remove_volume(c, st, names[i], &stays);
    }
    if (in_use && c->out->images_kept)
        printf("kept %d base image volume%s: %s\n", c->out->images_kept,
               c->out->images_kept == 1 ? "" : "s", in_use);
    /* the cache's saved states and kept tables are made again when needed:
     * they go on the same terms as the base images */
    if (c->o->images && c->o->derived) {
        if (in_use)
            printf("kept the image cache's saved ready guests and prepared tables: %s\n", in_use);
        else
            c->out->removed += image_remove_derived(c->o->dry_run, &c->out->failed);
    }
    storage_free_names(names, n);
    storage_close(st);
}

void leftovers_clean_libvirt(struct hv *hv, const struct leftovers_opts *o, struct leftovers *out)
{
    struct clean c = {.hv = hv, .o = o, .out = out};
    list_active(&c);
    clean_domains(&c);
    clean_volumes(&c);
    storage_free_names(c.active, c.n_active);
}

/* A host arm of session id may go: its session is this machine's and dead
 * -- or, with --foreign, one this machine never recorded (another
 * machine's, or from before records). Otherwise counted as kept (alive or
 * unknown) or foreign; with o->session, another session's arm is counted
 * as another's and stays. */
static bool arm_may_go(const char *id, const struct leftovers_opts *o, struct leftovers *out)
{
    if (o->session && strcmp(id, o->session) != 0) {
        out->others++;
        return false;
    }
    enum session_state st = session_state(id);
    if (st == SESSION_DEAD)
        return true;
    if (st == SESSION_ALIVE || st == SESSION_UNKNOWN) {
        out->kept++;
        return false;
    }
    /* SESSION_FOREIGN, SESSION_NONE: not this machine's to judge */
    if (o->foreign)
        return true;
    out->foreign++;
    return false;
}

static void remove_cgroups(const char *name, bool dry_run)
{
    static const char *const roots[] = {"/sys/fs/cgroup", "/sys/fs/cgroup/memory",
                                        "/sys/fs/cgroup/cpuset", NULL};
    for (int i = 0; roots[i]; i++) {
        char path[PATH_MAX];
        path_join(path, sizeof(path), roots[i], name);
        if (access(path, F_OK) != 0)
            continue;
        if (dry_run)
            printf("would remove cgroup %s\n", path);
        else if (rmdir(path) == 0)
            printf("removed cgroup %s\n", path);
    }
}

void leftovers_clean_host(const char *pool_dir, const struct leftovers_opts *o, struct leftovers *out)
{
    char base[PATH_MAX];
    hostarm_base(pool_dir, base, sizeof(base));
    DIR *d = opendir(base);
    if (!d)
        return;
    struct dirent *de;
    while ((de = readdir(d))) {
        char id[SESSION_ID_MAX], dir[PATH_MAX];
        if (session_of_name(de->d_name, id) < 0 || !arm_may_go(id, o, out))
            continue;
        path_join(dir, sizeof(dir), base, de->d_name);
        if (o->dry_run) {
            pid_t pid = hostarm_mariadbd(dir);
            if (pid > 0)
                printf("would stop mariadbd %d of %s\n", (int)pid, dir);
            printf("would remove host arm directory %s\n", dir);
            remove_cgroups(de->d_name, true);
            out->removed++;
            continue;
        }
        /* as `vbed host arm-stop` does: only a marked directory that is
         * root's alone, its mariadbd and program by root's records */
        struct hostarm *h = hostarm_attach(dir);
        if (!h) {
            out->failed++;
            continue;
        }
        if (h->pid > 0)
            printf("stopped mariadbd %d of %s\n", (int)h->pid, dir);
        hostarm_stop(h, NULL);
        remove_cgroups(de->d_name, false);
        if (access(dir, F_OK) != 0) {
            printf("removed host arm directory %s\n", dir);
            out->removed++;
        } else {
            out->failed++;
        }
    }
    closedir(d);
}

char (*leftovers_arm_names(json_object *reply, size_t *n))[256]
{
    json_object *arms;
    *n = 0;
    if (!json_object_object_get_ex(reply, "arms", &arms) || !json_object_is_type(arms, json_type_array))
        return NULL;
    size_t len = json_object_array_length(arms);
    if (len > LEFTOVERS_ARMS_MAX)
        len = LEFTOVERS_ARMS_MAX;
    char (*names)[256] = xcalloc(len ? len : 1, sizeof(*names));
    for (size_t i = 0; i < len; i++) {
        char id[SESSION_ID_MAX];
        json_object *one = json_object_new_object();
        json_object_object_add(one, "name", json_object_get(json_object_array_get_idx(arms, i)));
        bool ok = hostside_reply_string(one, "name", names[*n], sizeof(names[*n])) == 0 &&
                  !strchr(names[*n], '/') && session_of_name(names[*n], id) == 0;
        json_object_put(one);
        if (ok) /* else: not a name vbed gives, never sent back */
            (*n)++;
    }
    return names;
}

void leftovers_clean_remote_host(struct hostside *hs, const char *pool_dir,
                                 const struct leftovers_opts *o, struct leftovers *out)
{
    char base[PATH_MAX];
    hostarm_base(pool_dir, base, sizeof(base));
    const char *list[] = {"arm-list", "--", base, NULL};
    json_object *r = hostside_call(hs, list, 60), *arms;
    if (!r) {
        out->failed++;
        return;
    }
    if (!json_object_object_get_ex(r, "arms", &arms) || !json_object_is_type(arms, json_type_array)) {
        log_error("The reply of vbed host arm-list on '%s' has no list 'arms'.", hostside_uri(hs)->label);
        out->failed++;
        json_object_put(r);
        return;
    }
    (void)arms;
    size_t n_names = 0;
    char (*names)[256] = leftovers_arm_names(r, &n_names);
    for (size_t i = 0; i < n_names; i++) {
        char id[SESSION_ID_MAX], dir[PATH_MAX];
        const char *name = names[i];
        if (session_of_name(name, id) < 0)
            continue;
        /* the sessions are this machine's: it decides, the host acts */
        if (!arm_may_go(id, o, out))
            continue;
        path_join(dir, sizeof(dir), base, name);
        if (o->dry_run) {
            printf("would stop and remove host arm %s on %s\n", dir, hostside_uri(hs)->label);
            out->removed++;
            continue;
        }
        const char *stop[] = {"arm-stop", "--", dir, NULL};
        json_object *sr = hostside_call(hs, stop, 180);
        if (sr) {
            printf("stopped and removed host arm %s on %s\n", dir, hostside_uri(hs)->label);
            out->removed++;
        } else {
            out->failed++;
        }
        json_object_put(sr);
    }
    free(names);
    json_object_put(r);
}
