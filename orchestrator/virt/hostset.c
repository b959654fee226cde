/* hostset.c: the hosts of a plan (see hostset.h). */
#include "virt/hostset.h"

#include "util/log.h"
#include "util/monotime.h"
#include "util/signals.h"
#include "util/version.h"
#include "util/xalloc.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static size_t find(const struct hostset *set, const char *uri, const char *pool, const char *pool_dir)
{
    for (size_t i = 0; i < set->n; i++)
        if (strcmp(set->h[i].uri, uri) == 0 && strcmp(set->h[i].pool, pool) == 0 &&
            strcmp(set->h[i].pool_dir, pool_dir) == 0)
            return i;
    return (size_t)-1;
}

/* "" stands for the -c URI; a listed URI equal to it is the same host */
static void canonical(const struct hostset *set, const char *uri, char *buf, size_t len)
{
    snprintf(buf, len, "%s", set->default_uri && strcmp(uri, set->default_uri) == 0 ? "" : uri);
}

void hostset_add(struct hostset *set, const char *uri, const char *pool, const char *pool_dir,
                 const char *arm)
{
    size_t i = find(set, uri, pool, pool_dir);
    if (i == (size_t)-1) {
        set->h = xrealloc(set->h, (set->n + 1) * sizeof(*set->h));
        struct hostset_host *h = &set->h[set->n++];
        memset(h, 0, sizeof(*h));
        snprintf(h->uri, sizeof(h->uri), "%s", uri);
        snprintf(h->pool, sizeof(h->pool), "%s", pool);
        snprintf(h->pool_dir, sizeof(h->pool_dir), "%s", pool_dir);
        struct host_uri u;
        char err[600];
        if (*uri && host_uri_parse(uri, &u, err, sizeof(err)) == 0)
            snprintf(h->label, sizeof(h->label), "%s", u.label);
        else
            snprintf(h->label, sizeof(h->label), "%s", set->default_uri ? set->default_uri : "default");
        i = set->n - 1;
    }
    struct hostset_host *h = &set->h[i];
    if (!strstr(h->arms, arm)) {
        size_t used = strlen(h->arms);
        snprintf(h->arms + used, sizeof(h->arms) - used, "%s[%s]", used ? ", " : "", arm);
    }
}

void hostset_collect(struct hostset *set, const struct plan *p, const char *default_uri)
{
    memset(set, 0, sizeof(*set));
    set->default_uri = default_uri;
    for (size_t s = 0; s < p->n_specs; s++) {
        const struct plan_spec *sp = &p->specs[s];
        if (p->arms[sp->arm].kind != ARM_GUEST)
            continue;
        size_t n = run_config_host_count(&sp->cfg);
        for (size_t i = 0; i < (n ? n : 1); i++) {
            char uri[KEY_HOSTS_MAX], c[KEY_HOSTS_MAX];
            run_config_host(&sp->cfg, i, uri, sizeof(uri));
            canonical(set, uri, c, sizeof(c));
            hostset_add(set, c, sp->cfg.pool, sp->cfg.pool_dir, p->arms[sp->arm].name);
        }
    }
}

size_t hostset_index(const struct hostset *set, const struct run_config *cfg, size_t i)
{
    char uri[KEY_HOSTS_MAX], c[KEY_HOSTS_MAX];
    run_config_host(cfg, i, uri, sizeof(uri));
    canonical(set, uri, c, sizeof(c));
    size_t k = find(set, c, cfg->pool, cfg->pool_dir);
    return k == (size_t)-1 ? 0 : k;
}

struct hostset_host *hostset_guest_host(struct hostset *set, const struct run_config *cfg, int n)
{
    return &set->h[hostset_index(set, cfg, run_config_guest_host(cfg, n))];
}

/* The helper of an ssh host answers `vbed host version` (a warning if its
 * version is not this vbed's); -1 after naming the host and its user. */
static int helper_answers(struct hostside *hs, const char *label, const char *kind, const char *who)
{
    char version[64];
    if (hostside_version(hs, version, sizeof(version), NULL) < 0) {
        log_error("Cannot reach host '%s' (%s %s): vbed's helper ('vbed host', from PATH or "
                  "$VBED_REMOTE_VBED) does not answer there over ssh.",
                  label, kind, who);
        return -1;
    }
    if (strcmp(version, vbed_version()) != 0)
        log_warn("host '%s': its vbed helper is version %s, this vbed is %s", label, version,
                 vbed_version());
    return 0;
}

int hostset_connect(struct hostset *set, bool check_helper)
{
    int rc = 0;
    for (size_t i = 0; i < set->n; i++) {
        struct hostset_host *h = &set->h[i];
        const char *uri = h->uri[0] ? h->uri : set->default_uri;
        /* one connection per URI: another pool of a host already connected */
        bool shared = false;
        for (size_t k = 0; k < i && !shared; k++)
            if (strcmp(set->h[k].uri, h->uri) == 0) {
                shared = true;
                h->hv = set->h[k].hv;
                h->hs = set->h[k].hs;
                snprintf(h->label, sizeof(h->label), "%s", set->h[k].label);
            }
        if (shared)
            continue;
        h->owner = true;
        h->hv = hv_try_open(uri);
        if (!h->hv) {
            log_error("Cannot reach host '%s' (arm %s): %s", h->uri[0] ? h->label : (uri ? uri : "libvirt's default"),
                      h->arms, hv_last_error());
            rc = -1;
            continue;
        }
        /* the URI libvirt connected to names the transport (also for the default) */
        h->hs = hostside_new(h->uri[0] ? h->uri : hv_get_info(h->hv)->uri);
        if (!h->hs) {
            rc = -1;
            continue;
        }
        char boot[64];
        if (hostside_uri(h->hs)->transport == HT_SSH && hostside_boot_id(h->hs, boot, sizeof(boot)) == 0)
            hv_set_host_boot_id(h->hv, boot);
        if (!h->uri[0])
            snprintf(h->label, sizeof(h->label), "%s", hostside_uri(h->hs)->label[0] &&
                     strcmp(hostside_uri(h->hs)->label, "local") != 0 ? hostside_uri(h->hs)->label
                                                                      : hv_get_info(h->hv)->uri);
        if (!hostside_available(h->hs)) {
            log_warn("host '%s' (arm %s): its URI has no shell transport (%s): drop_caches, the host "
                     "page-cache residency and /proc/meminfo of that host are not measured and are "
                     "recorded as unavailable",
                     h->label, h->arms, host_transport_name(hostside_uri(h->hs)->transport));
        } else if (check_helper && hostside_uri(h->hs)->transport == HT_SSH &&
                   helper_answers(h->hs, h->label, "arm", h->arms) < 0) {
            rc = -1;
        }
    }
    return rc;
}

struct prep {
    struct hostset_host *h;
    const struct image_info *img;
    int rc;
    volatile int done;
};

static void *prepare_worker(void *arg)
{
    struct prep *p = arg;
    double t0 = monotime_s();
    p->h->st = storage_open(p->h->hv, p->h->pool, p->h->pool_dir);
    p->rc = p->h->st && storage_ensure_image(p->h->st, p->img, &p->h->im) == 0 ? 0 : -1;
    if (p->rc == 0 && storage_uploaded_bytes(p->h->st) > 0) {
        p->h->upload_s = monotime_s() - t0;
        log_info("host %s, pool '%s': image uploaded (%.0f MiB) in %.1f s", p->h->label, p->h->pool,
                 (double)storage_uploaded_bytes(p->h->st) / 1048576.0, p->h->upload_s);
    }
    __atomic_store_n(&p->done, 1, __ATOMIC_RELEASE);
    return NULL;
}

int hostset_prepare(struct hostset *set, const struct image_info *img)
{
    struct prep *preps = xcalloc(set->n, sizeof(*preps));
    pthread_t *th = xcalloc(set->n, sizeof(*th));
    for (size_t i = 0; i < set->n; i++) {
        preps[i] = (struct prep){.h = &set->h[i], .img = img};
        pthread_create(&th[i], NULL, prepare_worker, &preps[i]);
    }
    /* a progress line every 10 s while any upload runs */
    for (int tick = 0;; tick++) {
        bool busy = false;
        for (size_t i = 0; i < set->n; i++)
            busy |= !__atomic_load_n(&preps[i].done, __ATOMIC_ACQUIRE);
        if (!busy)
            break;
        if (tick && tick % 20 == 0) {
            char line[1024] = "";
            size_t used = 0;
            for (size_t i = 0; i < set->n; i++)
                used += (size_t)snprintf(line + used, used < sizeof(line) ? sizeof(line) - used : 0,
                                         "%s%s %.0f MiB", i ? ", " : "", set->h[i].label,
                                         (double)storage_uploaded_bytes(set->h[i].st) / 1048576.0);
            log_info("image upload: %s", line);
        }
        struct timespec ts = {0, 500 * 1000000L};
        nanosleep(&ts, NULL);
    }
    int rc = 0;
    for (size_t i = 0; i < set->n; i++) {
        pthread_join(th[i], NULL);
        if (preps[i].rc < 0)
            rc = -1;
    }
    free(th);
    free(preps);
    return rc;
}

void hostset_close(struct hostset *set)
{
    for (size_t i = 0; i < set->n; i++) {
        storage_close(set->h[i].st);
        if (set->h[i].owner) {
            hv_close(set->h[i].hv);
            hostside_free(set->h[i].hs);
        }
    }
    free(set->h);
    memset(set, 0, sizeof(*set));
}

void hostset_print_placement(const struct plan *p, const struct hostset *set, FILE *out)
{
    bool header = false;
    for (size_t s = 0; s < p->n_specs; s++) {
        const struct plan_spec *sp = &p->specs[s];
        if (p->arms[sp->arm].kind != ARM_GUEST || (!sp->cfg.hosts[0] && set->n < 2))
            continue;
        if (!header)
            fprintf(out, "\nplacement (guests round-robin over their arm's hosts):\n");
        header = true;
        fprintf(out, "  run %zu: arm %s\n", s + 1, p->arms[sp->arm].name);
        for (long long n = 1; n <= sp->cfg.guests; n++) {
            const struct hostset_host *h = &set->h[hostset_index(set, &sp->cfg,
                                                                 run_config_guest_host(&sp->cfg, (int)n))];
            fprintf(out, "      guest %lld on %s, pool %s\n", n, h->label, h->pool);
        }
    }
}

int hostset_check_host_arms(const struct plan *p, const char *default_uri, FILE *out)
{
    int rc = 0;
    bool header = false;
    char checked[8][KEY_HOSTS_MAX];
    size_t n_checked = 0;
    for (size_t s = 0; s < p->n_specs; s++) {
        const struct plan_spec *sp = &p->specs[s];
        if (p->arms[sp->arm].kind != ARM_HOST)
            continue;
        const char *name = p->arms[sp->arm].name;
        const char *uri = sp->cfg.hosts[0] ? sp->cfg.hosts : default_uri;
        struct hostside *hs = hostside_new(uri);
        if (!hs) {
            rc = -1;
            continue;
        }
        const struct host_uri *u = hostside_uri(hs);
        if (out && u->transport != HT_LOCAL) {
            if (!header)
                fprintf(out, "\nplacement of host arms (their private mariadbd):\n");
            header = true;
            fprintf(out, "  run %zu: host arm %s on %s\n", s + 1, name, u->label);
        }
        bool seen = false;
        for (size_t k = 0; k < n_checked && !seen; k++)
            seen = strcmp(checked[k], uri ? uri : "") == 0;
        if (!seen && n_checked < 8)
            snprintf(checked[n_checked++], KEY_HOSTS_MAX, "%s", uri ? uri : "");
        if (u->transport == HT_NONE) {
            log_error("host arm [%s]: its host '%s' has no shell transport (only ssh URIs do); "
                      "run it on this machine or on a qemu+ssh:// host.", name, u->label);
            rc = -1;
        } else if (u->transport == HT_SSH && !seen) {
            char who[128];
            snprintf(who, sizeof(who), "[%s]", name);
            if (helper_answers(hs, u->label, "host arm", who) < 0)
                rc = -1;
        }
        hostside_free(hs);
    }
    return rc;
}
