/* guest.c: a guest's phases and teardown (see guest.h). */
#include "virt/guest.h"

#include "virt/agent.h"
#include "scenario/disklayout.h"
#include "scenario/mycnf.h"
#include "util/log.h"
#include "util/monotime.h"
#include "util/paths.h"
#include "util/signals.h"
#include "virt/domain.h"
#include "virt/saveimage.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* How often vbed looks at a starting guest. The agent's ping and the files
 * it reads (vbed-setup's status, MariaDB's error log) start no program in
 * the guest: four looks a second cost it little and find each step done an
 * eighth of a second after it is, on average. The client that asks MariaDB
 * for its version is a program (under TCG 0.6-0.9 s of the guest's CPU,
 * taken from mariadbd's start): it runs when the error log says the server
 * is ready for connections, else every 5 s in case the log says nothing. */
#define LOOK_MS 250
#define CLIENT_EVERY_S 5.0
/* the most of the error log read for that hint (a fresh guest's is 2 KiB) */
#define ERRLOG_LOOK_MAX (256 * 1024)

const char *guest_phase_name(enum guest_phase ph)
{
    static const char *const names[] = {"new", "disks", "boot", "setup", "db", "ready", "failed"};
    return names[ph];
}

static void show(struct guest *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void show(struct guest *g, const char *fmt, ...)
{
    if (!g->progress)
        return;
    char buf[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    progress_set(g->progress, g->progress_line, "%s", buf);
}

static int fail(struct guest *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(struct guest *g, const char *fmt, ...)
{
    char why[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof(why), fmt, ap);
    va_end(ap);
    snprintf(g->error, sizeof(g->error), "%s failed in phase %s: %s", g->lay.name,
             guest_phase_name(g->phase), why);
    show(g, "FAILED in %s: %s", guest_phase_name(g->phase), why);
    g->phase = GP_FAILED;
    return -1;
}

/* The data disks (empty, in the arm's format) and the config disk: a booted
 * and a restored guest alike. 0, or -1 reported. */
static int data_and_config_disks(struct guest *g, struct storage *st, const void *config,
                                 size_t config_len)
{
    if (g->lay.data_vol[0] && storage_create_data(st, g->lay.data_vol, g->cfg) < 0)
        return fail(g, "cannot create the data disk: %s", hv_last_error());
    for (int i = 0; i < g->lay.n_more_data; i++)
        if (storage_create_data(st, g->lay.more_data_vol[i], g->cfg) < 0)
            return fail(g, "cannot create data disk %d: %s", i + 2, hv_last_error());
    if (storage_upload_bytes(st, g->lay.config_vol, config, config_len) < 0)
        return fail(g, "cannot upload the configuration disk: %s", hv_last_error());
    return 0;
}

int guest_make_disks(struct guest *g, struct storage *st, const char *base_path, const void *config,
                     size_t config_len)
{
    g->phase = GP_DISKS;
    g->made_disks = true; /* from here on, teardown deletes whatever exists */
    show(g, "creating disks");
    if (storage_create_overlay(st, g->lay.root_vol, base_path) < 0)
        return fail(g, "cannot create the root overlay: %s", hv_last_error());
    return data_and_config_disks(g, st, config, config_len);
}

int guest_start(struct guest *g, struct hv *hv, const char *xml)
{
    g->phase = GP_BOOT;
    show(g, "starting");
    g->dom = hv_start(hv, xml, g->lay.name);
    if (!g->dom)
        return fail(g, "libvirt did not start the domain");
    g->t_start = monotime_s();
    return 0;
}

/* A UUID of 16 random bytes in its text form (a restored guest's own:
 * libvirt takes none twice) */
static int random_uuid(char out[VIR_UUID_STRING_BUFLEN])
{
    unsigned char u[VIR_UUID_BUFLEN];
    FILE *f = fopen("/dev/urandom", "rb");
    size_t got = f ? fread(u, 1, sizeof(u), f) : 0;
    if (f)
        fclose(f);
    if (got != sizeof(u))
        return -1;
    u[6] = (unsigned char)((u[6] & 0x0f) | 0x40), u[8] = (unsigned char)((u[8] & 0x3f) | 0x80);
    snprintf(out, VIR_UUID_STRING_BUFLEN,
             "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", u[0], u[1], u[2],
             u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13], u[14], u[15]);
    return 0;
}

/* The save image's copy for g, a file in its host's pool: "<name>-state.save" */
static void state_copy_name(const struct guest *g, char *buf, size_t len)
{
    snprintf(buf, len, "%s-state.save", g->lay.name);
}

/* This machine's libvirtd restores a copy of the save image in its pool,
 * renamed for g (removed once QEMU has read it). 0, or -1 after fail(). */
static int restore_local(struct guest *g, struct hv *hv, struct storage *st, const struct ready_state *rs,
                         const char *uuid, const char *xml)
{
    char name[LAYOUT_NAME_MAX + 16], copy[PATH_MAX];
    state_copy_name(g, name, sizeof(name));
    path_join(copy, sizeof(copy), storage_path(st), name);
    int rc = saveimage_copy_as(rs->state, copy, g->lay.name, uuid);
    if (rc < 0)
        rc = fail(g, "the saved guest could not be copied for it");
    else if (virDomainRestoreFlags(hv_conn(hv), copy, xml, VIR_DOMAIN_SAVE_RUNNING) < 0)
        rc = fail(g, "libvirt did not restore the saved guest: %s", hv_last_error());
    /* read whole by now: QEMU took its state */
    unlink(copy);
    return rc;
}

/* A remote host's libvirtd restores a volume of its pool: this machine's
 * save image, uploaded with its header renamed for g (the volume goes once
 * QEMU has read it). 0, or -1 after fail(). */
static int restore_remote(struct guest *g, struct hv *hv, struct storage *st, const struct ready_state *rs,
                          const char *uuid, const char *xml)
{
    unsigned char *head = NULL;
    size_t head_len = 0;
    if (saveimage_renamed_head(rs->state, g->lay.name, uuid, &head, &head_len) < 0)
        return fail(g, "the saved guest could not be renamed for it");
    char name[LAYOUT_NAME_MAX + 16], path[PATH_MAX];
    state_copy_name(g, name, sizeof(name));
    int rc = storage_upload_file_head(st, name, rs->state, head, head_len);
    free(head);
    if (rc < 0) {
        rc = fail(g, "the saved guest could not be uploaded to its host: %s", hv_last_error());
    } else {
        storage_vol_path(st, name, path, sizeof(path));
        if (virDomainRestoreFlags(hv_conn(hv), path, xml, VIR_DOMAIN_SAVE_RUNNING) < 0)
            rc = fail(g, "libvirt did not restore the saved guest: %s", hv_last_error());
    }
    storage_delete(st, name);
    return rc;
}

int guest_restore(struct guest *g, struct hv *hv, struct storage *st, const struct ready_state *rs,
                  struct domain_spec *spec, const void *config, size_t config_len)
{
    double t0 = monotime_s();
    g->phase = GP_DISKS;
    g->made_disks = true;
    g->restored = true;
    show(g, "creating disks");
    if (storage_upload_file(st, g->lay.root_vol, rs->root) < 0)
        return fail(g, "cannot copy the saved guest's root disk: %s", hv_last_error());
    if (data_and_config_disks(g, st, config, config_len) < 0)
        return -1;

    g->phase = GP_BOOT;
    show(g, "restoring a saved guest");
    char uuid[VIR_UUID_STRING_BUFLEN];
    if (random_uuid(uuid) < 0)
        return fail(g, "cannot read /dev/urandom for its UUID");
    spec->uuid = uuid;
    spec->plugged_later = true;
    spec->cmdline = rs->cmdline;
    char *xml = domain_xml(spec);
    char **plug = NULL;
    size_t n_plug = 0;
    if (!xml || domain_plug_xml(spec, &plug, &n_plug) < 0) {
        free(xml);
        return fail(g, "its domain XML could not be made");
    }
    int rc = hv_get_info(hv)->remote ? restore_remote(g, hv, st, rs, uuid, xml)
                                     : restore_local(g, hv, st, rs, uuid, xml);
    free(xml);
    if (rc == 0 && !(g->dom = hv_lookup(hv, g->lay.name)))
        rc = fail(g, "the restored domain is not there: %s", hv_last_error());
    g->t_start = monotime_s();
    for (size_t i = 0; rc == 0 && i < n_plug; i++)
        if (virDomainAttachDeviceFlags(g->dom, plug[i], VIR_DOMAIN_AFFECT_LIVE) < 0)
            rc = fail(g, "cannot plug in its disk %zu: %s", i + 1, hv_last_error());
    for (size_t i = 0; i < n_plug; i++)
        free(plug[i]);
    free(plug);
    if (rc < 0)
        return -1;
    g->t_restore = monotime_s() - t0;
    return 0;
}

int guest_plug_tables(virDomainPtr dom, struct storage *st, const struct guest_layout *lay,
                      const char *tar_path)
{
    if (storage_upload_file(st, lay->tables_vol, tar_path) < 0)
        return -1;
    char path[PATH_MAX];
    storage_vol_path(st, lay->tables_vol, path, sizeof(path));
    char *xml = domain_tables_xml(lay->name, path);
    int rc = xml ? virDomainAttachDeviceFlags(dom, xml, VIR_DOMAIN_AFFECT_LIVE) : -1;
    if (xml && rc < 0)
        log_error("Cannot plug the tables disk into %s: %s", lay->name, hv_last_error());
    free(xml);
    if (rc < 0)
        storage_delete(st, lay->tables_vol);
    return rc < 0 ? -1 : 0;
}

enum guest_status guest_status_parse(const char *text, size_t len, char *shown, size_t shown_len)
{
    const char *nl = memchr(text, '\n', len);
    size_t n = nl ? (size_t)(nl - text) : len;
    const char *nul = memchr(text, '\0', n);
    if (nul)
        n = (size_t)(nul - text);
    log_sanitize(text, n < GUEST_STATUS_SHOWN / 4 ? n : GUEST_STATUS_SHOWN / 4, shown, shown_len);
    if (n == 5 && !memcmp(text, "ready", 5))
        return GUEST_STATUS_READY;
    if (n >= 6 && !memcmp(text, "failed", 6))
        return GUEST_STATUS_FAILED;
    return GUEST_STATUS_STEP;
}

/* Common checks of every wait loop: 1 to go on, -1 after fail(). */
static int still_going(struct guest *g, double deadline, const char *limit_key, long long limit)
{
    if (*g->abort_all)
        return fail(g, "stopped because another guest of the run failed");
    if (signals_interrupted())
        return fail(g, "interrupted by %s", signals_name());
    int running = hv_is_running(g->dom);
    if (running < 0 && !hv_domain_conn_alive(g->dom))
        return fail(g, "the connection to libvirt was lost (libvirtd stopped or restarted)");
    if (running == 0)
        return fail(g, "the domain stopped (see its console log)");
    if (monotime_s() >= deadline)
        return fail(g, "not done within %lld s (%s)", limit, limit_key);
    return 1;
}

/* Once the guest agent has answered, it must go on answering: silent for
 * timeout_agent, it has stopped (killed, or the guest hangs), and waiting
 * for the phase's own time limit would only hide why. answered: the
 * caller's own command got an answer (else the agent is pinged). */
static int agent_still_answers(struct guest *g, bool answered)
{
    double t = monotime_s();
    if (answered || agent_ping(g->dom, 3) == 0) {
        g->t_answer = t;
        return 1;
    }
    if (t - g->t_answer >= (double)g->cfg->timeout_agent)
        return fail(g, "the guest agent stopped answering (no answer for %.0f s, timeout_agent)",
                    t - g->t_answer);
    return 1;
}

static int wait_agent(struct guest *g)
{
    double deadline = g->t_start + (double)g->cfg->timeout_boot;
    show(g, "booting: waiting for the guest agent");
    for (;;) {
        if (still_going(g, deadline, "timeout_boot", g->cfg->timeout_boot) < 0)
            return -1;
        if (agent_ping(g->dom, 3) == 0)
            break;
        signals_sleep_ms(LOOK_MS);
    }
    g->t_answer = monotime_s();
    g->t_agent = g->t_answer - g->t_start;
    return 0;
}

/* md_resync_s as vbed-setup wrote it, or -1 */
static double read_resync(struct guest *g)
{
    char *text = NULL;
    size_t len = 0;
    double v = -1;
    if (agent_read_file(g->dom, "/run/vbed/md_resync_s", 64, &text, &len, true) == 0) {
        char *end;
        double x = strtod(text, &end);
        if (end != text && isfinite(x) && x >= 0 && x < 1e7)
            v = x;
        else
            log_warn("%s: /run/vbed/md_resync_s holds no time ('%.20s')", g->lay.name, text);
    }
    free(text);
    return v;
}

/* The server's error log as it is now (at most ERRLOG_LOOK_MAX bytes):
 * true and *text (free it) when the agent read it; quietly false when it
 * does not exist yet */
static bool errlog_read(struct guest *g, char **text, size_t *len)
{
    *text = NULL;
    *len = 0;
    return agent_read_file(g->dom, MYCNF_GUEST_ERROR_LOG, ERRLOG_LOOK_MAX, text, len, true) == 0;
}

/* The length of the server's error log now (0: none yet): what wait_db
 * looks past, so that a log the image or an earlier start left says nothing */
static size_t errlog_len(struct guest *g)
{
    char *text;
    size_t len;
    if (!errlog_read(g, &text, &len))
        len = 0;
    free(text);
    return len;
}

/* Does the server's error log say, past offset from, that it is ready for
 * connections? *read: whether the agent answered. The guest's text is only a
 * hint of when to ask; the answer is the client's. */
static bool errlog_says_ready(struct guest *g, size_t from, bool *read)
{
    static const char ready[] = "ready for connections";
    char *text;
    size_t len;
    *read = errlog_read(g, &text, &len);
    bool says = *read && len > from && memmem(text + from, len - from, ready, sizeof(ready) - 1);
    free(text);
    return says;
}

/* A restored guest's clock stood still while it was saved: `date` sets it
 * to this machine's, started once its agent answers and not waited for
 * (vbed-setup goes on meanwhile). Not libvirt's virDomainSetTime: the
 * agent's guest-set-time also writes the RTC with hwclock, which took 1-8 s
 * under TCG here, the guest's agent busy all the while. The clock lags by
 * the time `date` takes to start (under a second under TCG); nothing vbed
 * measures reads it (windows and rates are taken on this machine's
 * monotonic clock or from the guest's counters). *pid: the program's, -1
 * when it could not be started (warned). */
static void set_clock_start(struct guest *g, long long *pid)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    char when[48];
    snprintf(when, sizeof(when), "@%lld.%09ld", (long long)ts.tv_sec, (long)ts.tv_nsec);
    const char *const argv[] = {"/bin/date", "-u", "-s", when, NULL};
    if (agent_exec_start(g->dom, argv, NULL, pid) < 0) {
        *pid = -1;
        log_warn("%s: cannot set its clock after the restore", g->lay.name);
    }
}

/* Whether that `date` failed: one look, once setup is done (it has long
 * finished by then; one still running is left alone). */
static void set_clock_check(struct guest *g, long long pid)
{
    bool exited = false;
    struct agent_result r = {0};
    if (pid >= 0 && agent_exec_poll(g->dom, pid, &exited, &r) == 0 && exited && r.exitcode != 0)
        log_warn("%s: cannot set its clock after the restore: date exited %d: %.100s", g->lay.name,
                 r.exitcode, r.err ? r.err : "");
    agent_result_free(&r);
}

/* vbed-setup done. *log_from: the server's error log's length before
 * MariaDB started (it starts after vbed-setup), where wait_db looks for its
 * word; *log_early false when vbed-setup was already done at the first look
 * (the server may have written that word before the length was taken). */
static int wait_setup(struct guest *g, size_t *log_from, bool *log_early)
{
    g->phase = GP_SETUP;
    g->md_resync_s = -1;
    bool resync = disklayout_waits_resync(g->cfg);
    long long limit = g->cfg->timeout_setup + (resync ? g->cfg->timeout_resync : 0);
    double deadline = monotime_s() + (double)limit;
    *log_from = errlog_len(g);
    *log_early = false;
    for (;;) {
        if (still_going(g, deadline, resync ? "timeout_setup + timeout_resync" : "timeout_setup",
                        limit) < 0)
            return -1;
        char *status = NULL;
        size_t len = 0;
        bool got = agent_read_file(g->dom, "/run/vbed/status", 4096, &status, &len, true) == 0;
        if (agent_still_answers(g, got) < 0)
            return -1;
        if (got) {
            char shown[GUEST_STATUS_SHOWN];
            enum guest_status st = guest_status_parse(status, len, shown, sizeof(shown));
            free(status);
            if (st == GUEST_STATUS_READY)
                break;
            if (st == GUEST_STATUS_FAILED) {
                fail(g, "vbed-setup in the guest %s", shown);
                return -1;
            }
            show(g, "setup: %s", shown);
            *log_early = true;
        } else {
            *log_early = true;
            show(g, "setup: waiting for vbed-setup to start");
        }
        signals_sleep_ms(LOOK_MS);
    }
    g->t_setup = monotime_s() - g->t_start;
    if (resync && (g->md_resync_s = read_resync(g)) >= 0)
        log_info("%s: the %s array's initial resync took %.1f s", g->lay.name,
                 key_choice("layout", g->cfg->layout), g->md_resync_s);
    return 0;
}

/* MariaDB answering. Its error log (past log_from) says when to ask; where
 * it may have said so before that offset (!log_early), the first ask is at
 * once. */
static int wait_db(struct guest *g, size_t log_from, bool log_early)
{
    g->phase = GP_DB;
    double deadline = monotime_s() + (double)g->cfg->timeout_db;
    show(g, "db: waiting for MariaDB");
    static const char *const argv[] = {"/usr/bin/mariadb", "--batch", "--skip-column-names",
                                       "-e", "SELECT VERSION()", NULL};
    bool hinted = false;
    double last_try = log_early ? monotime_s() : -INFINITY;
    for (;;) {
        if (still_going(g, deadline, "timeout_db", g->cfg->timeout_db) < 0)
            return -1;
        bool got = false, ask = monotime_s() - last_try >= CLIENT_EVERY_S;
        if (!ask && !hinted) {
            ask = hinted = errlog_says_ready(g, log_from, &got);
            if (!ask && agent_still_answers(g, got) < 0)
                return -1;
        }
        if (!ask) {
            signals_sleep_ms(LOOK_MS);
            continue;
        }
        struct agent_result r = {0};
        got = agent_exec(g->dom, argv, NULL, 60, &r) == 0;
        last_try = monotime_s();
        if (agent_still_answers(g, got) < 0) {
            agent_result_free(&r);
            return -1;
        }
        if (got && r.exitcode == 0) {
            snprintf(g->version, sizeof(g->version), "%.*s", (int)strcspn(r.out, "\n"), r.out);
            agent_result_free(&r);
            break;
        }
        agent_result_free(&r);
        signals_sleep_ms(LOOK_MS);
    }
    g->t_ready = monotime_s() - g->t_start;
    return 0;
}

int guest_wait_ready(struct guest *g)
{
    if (g->phase == GP_FAILED)
        return -1;
    size_t log_from;
    bool log_early;
    long long date_pid = -1;
    if (wait_agent(g) < 0)
        return -1;
    if (g->restored)
        set_clock_start(g, &date_pid);
    if (wait_setup(g, &log_from, &log_early) < 0)
        return -1;
    set_clock_check(g, date_pid);
    if (wait_db(g, log_from, log_early) < 0)
        return -1;
    g->phase = GP_READY;
    show(g, "ready: MariaDB %s after %.0f s (agent %.0f s, setup %.0f s)", g->version, g->t_ready,
         g->t_agent, g->t_setup);
    return 0;
}

void guest_teardown(struct guest *g, struct storage *st, const char *dir, bool keep)
{
    hv_destroy(g->dom);
    g->dom = NULL;
    if (!g->made_disks)
        return;
    /* the console log is a file QEMU wrote into the pool: a volume after a refresh */
    storage_refresh(st);
    if (dir && g->t_start > 0) { /* QEMU writes a console log once started */
        char path[PATH_MAX];
        path_join(path, sizeof(path), dir, "console.log");
        storage_download(st, g->lay.console_vol, path);
    }
    if (keep) {
        log_info("kept the disks of %s in %s (--keep)", g->lay.name, storage_path(st));
        return;
    }
    const char *vols[] = {g->lay.root_vol, g->lay.data_vol, g->lay.config_vol, g->lay.console_vol,
                          g->lay.tables_vol};
    for (size_t i = 0; i < sizeof(vols) / sizeof(vols[0]); i++)
        if (vols[i][0])
            storage_delete(st, vols[i]);
    for (int i = 0; i < g->lay.n_more_data; i++)
        storage_delete(st, g->lay.more_data_vol[i]);
}
