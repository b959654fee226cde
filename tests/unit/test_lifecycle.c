/* test_lifecycle.c: guest lifecycle and cleanup logic against libvirt's
 * test:///default driver (fast, needs no QEMU): domains start and are
 * destroyed; a guest whose agent never answers fails in phase boot at its
 * time limit; a guest whose domain stops fails at once; the guests of a
 * run stop when one of them failed; `vbed clean` removes this machine's
 * dead sessions' domains, volumes and probes and leaves a live session's,
 * other machines', unrecorded sessions' (unless --foreign) and images in
 * possible use alone (session records in a scratch VBED_SESSION_DIR); an
 * interrupted wait ends promptly; libvirt's error message survives the
 * next libvirt call (it once printed freed memory). */
#include "testutil.h"
#include "virt/guest.h"
#include "virt/hypervisor.h"
#include "scenario/keys.h"
#include "virt/domain.h"
#include "virt/layout.h"
#include "experiment/leftovers.h"
#include "util/log.h"
#include "results/session.h"
#include "util/signals.h"
#include "virt/storage.h"

#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static struct hv *hv;

static int open_hv(void **state)
{
    (void)state;
    hv_init();
    hv = hv_open("test:///default");
    return hv ? 0 : -1;
}

static int close_hv(void **state)
{
    (void)state;
    hv_close(hv);
    return 0;
}

static char *test_xml(const char *name)
{
    char *xml;
    if (asprintf(&xml,
                 "<domain type='test'><name>%s</name><memory>131072</memory>"
                 "<os><type>hvm</type></os></domain>",
                 name) < 0)
        abort();
    return xml;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void start_guest(struct guest *g, struct run_config *cfg, const char *name, volatile int *abort_all)
{
    memset(g, 0, sizeof(*g));
    key_apply_defaults(cfg);
    snprintf(g->lay.name, sizeof(g->lay.name), "%s", name);
    g->n = 1;
    g->cfg = cfg;
    g->abort_all = abort_all;
    char *xml = test_xml(name);
    assert_int_equal(guest_start(g, hv, xml), 0);
    free(xml);
}

static void start_and_destroy(void **state)
{
    (void)state;
    const struct hv_info *in = hv_get_info(hv);
    assert_false(in->kvm_offered);
    assert_false(in->remote);
    char *xml = test_xml("vbed-life01-001-guest-1");
    virDomainPtr dom = hv_start(hv, xml, "vbed-life01-001-guest-1");
    free(xml);
    assert_non_null(dom);
    assert_int_equal(hv_is_running(dom), 1);
    char **names;
    size_t n;
    assert_int_equal(hv_list_domains(hv, "vbed-life01-", &names, &n), 0);
    assert_int_equal(n, 1);
    assert_string_equal(names[0], "vbed-life01-001-guest-1");
    storage_free_names(names, n);
    hv_destroy(dom);
    assert_int_equal(hv_list_domains(hv, "vbed-life01-", &names, &n), 0);
    assert_int_equal(n, 0);
    free(names);
}

/* the test driver has no guest agent: the boot phase runs out of time */
static void boot_timeout_names_the_phase(void **state)
{
    (void)state;
    struct guest g;
    struct run_config cfg;
    volatile int abort_all = 0;
    start_guest(&g, &cfg, "vbed-life02-001-guest-1", &abort_all);
    cfg.timeout_boot = 1;
    double t0 = now();
    assert_int_equal(guest_wait_ready(&g), -1);
    assert_true(now() - t0 < 10);
    assert_int_equal(g.phase, GP_FAILED);
    assert_string_equal(g.error, "vbed-life02-001-guest-1 failed in phase boot: not done within "
                                 "1 s (timeout_boot)");
    hv_destroy(g.dom);
}

static void stopped_domain_fails_at_once(void **state)
{
    (void)state;
    struct guest g;
    struct run_config cfg;
    volatile int abort_all = 0;
    start_guest(&g, &cfg, "vbed-life03-001-guest-1", &abort_all);
    cfg.timeout_boot = 300;
    assert_int_equal(virDomainDestroy(g.dom), 0);
    double t0 = now();
    assert_int_equal(guest_wait_ready(&g), -1);
    assert_true(now() - t0 < 10);
    assert_string_equal(g.error, "vbed-life03-001-guest-1 failed in phase boot: the domain "
                                 "stopped (see its console log)");
    hv_destroy(g.dom);
}

static void other_guest_failed(void **state)
{
    (void)state;
    struct guest g;
    struct run_config cfg;
    volatile int abort_all = 1;
    start_guest(&g, &cfg, "vbed-life04-001-guest-2", &abort_all);
    assert_int_equal(guest_wait_ready(&g), -1);
    assert_non_null(strstr(g.error, "stopped because another guest of the run failed"));
    hv_destroy(g.dom);
}

static void define_and_start(const char *name, const char *owner_machine)
{
    char *xml;
    if (owner_machine) {
        if (asprintf(&xml,
                     "<domain type='test'><name>%s</name><metadata><vbed:owner xmlns:vbed='%s' "
                     "machine='%s'/></metadata><memory>131072</memory><os><type>hvm</type></os>"
                     "</domain>",
                     name, DOMAIN_OWNER_NS, owner_machine) < 0)
            abort();
    } else {
        xml = test_xml(name);
    }
    virDomainPtr d = virDomainDefineXML(hv_conn(hv), xml);
    free(xml);
    assert_non_null(d);
    assert_int_equal(virDomainCreate(d), 0);
    virDomainFree(d);
}

static bool has_domain(const char *name)
{
    char **names;
    size_t n;
    assert_int_equal(hv_list_domains(hv, name, &names, &n), 0);
    bool found = false;
    for (size_t i = 0; i < n; i++)
        found |= strcmp(names[i], name) == 0;
    storage_free_names(names, n);
    return found;
}

static bool has_volume(struct storage *st, const char *name)
{
    char **names;
    size_t n;
    assert_int_equal(storage_list(st, name, &names, &n), 0);
    bool found = false;
    for (size_t i = 0; i < n; i++)
        found |= strcmp(names[i], name) == 0;
    storage_free_names(names, n);
    return found;
}

static void stop_domain(const char *name)
{
    virDomainPtr d = virDomainLookupByName(hv_conn(hv), name);
    assert_non_null(d);
    assert_int_equal(virDomainDestroy(d), 0);
    virDomainFree(d);
}

/* `vbed clean` removes only what this machine's dead sessions left: not a
 * live session's, not another machine's (by the domain's owner metadata),
 * not a session it has no record of (unless foreign), and base images only
 * when nothing may still use them. */
static void clean_leftovers(void **state)
{
    (void)state;
    char sessions[] = "/tmp/vbed-life-sessions-XXXXXX";
    assert_non_null(mkdtemp(sessions));
    setenv("VBED_SESSION_DIR", sessions, 1);
    char live[SESSION_ID_MAX], dead[SESSION_ID_MAX];
    assert_int_equal(session_begin("lifelive", live), 0);
    assert_int_equal(session_begin("deadse", dead), 0);
    session_end(dead);
    assert_int_equal(session_state(live), SESSION_ALIVE);
    assert_int_equal(session_state(dead), SESSION_DEAD);
    assert_int_equal(session_state("norec"), SESSION_NONE);
    assert_true(session_any_alive());

    /* a probe whose vbed is gone: a child that has exited and been reaped */
    pid_t gone = fork();
    if (gone == 0)
        _exit(0);
    waitpid(gone, NULL, 0);
    char probe_dead[64], probe_other[64] = "vbed-probe-ffffffff-1";
    snprintf(probe_dead, sizeof(probe_dead), "vbed-probe-%s-%d", session_machine_tag(), (int)gone);

    /* persistent domains, as a crashed vbed cannot leave (its are transient),
     * but as a user's virsh could */
    define_and_start("vbed-deadse-001-guest-1", NULL);       /* ours, dead: goes */
    define_and_start("vbed-lifelive-001-guest-1", NULL);     /* ours, alive: stays */
    define_and_start("vbed-norec-001-guest-1", NULL);        /* no record here: foreign */
    define_and_start("vbed-deadse-002-guest-1", "other-machine"); /* same id, other machine */
    define_and_start("vbed-lost-001-guest-1", session_machine()); /* ours by metadata: goes */
    define_and_start(probe_dead, session_machine());         /* our probe, vbed gone: goes */
    define_and_start(probe_other, "other-machine");          /* another machine's probe */
    define_and_start("someone-else", NULL);
    char dir[] = "/tmp/vbed-life-pool-XXXXXX";
    assert_non_null(mkdtemp(dir));
    struct storage *st = storage_open(hv, "vbed", dir);
    assert_non_null(st);
    struct run_config cfg;
    key_apply_defaults(&cfg);
    cfg.disk_size = 64LL << 20;
    const char *vols[] = {"vbed-deadse-001-guest-1-data.qcow2", "vbed-lifelive-001-guest-1-data.qcow2",
                          "vbed-norec-001-guest-1-data.qcow2", "vbed-image-x-0123456789ab.qcow2",
                          "someone-elses.qcow2"};
    for (size_t i = 0; i < 5; i++)
        assert_int_equal(storage_create_data(st, vols[i], &cfg), 0);

    struct leftovers_opts o = {.pool = "vbed", .dry_run = true};
    struct leftovers out = {0};
    leftovers_clean_libvirt(hv, &o, &out); /* dry run: counts, removes nothing */
    assert_int_equal(out.removed, 4);
    assert_true(has_domain("vbed-deadse-001-guest-1"));
    assert_true(has_volume(st, vols[0]));

    o.dry_run = false;
    memset(&out, 0, sizeof(out));
    leftovers_clean_libvirt(hv, &o, &out);
    assert_int_equal(out.failed, 0);
    assert_int_equal(out.removed, 4);
    assert_false(has_domain("vbed-deadse-001-guest-1"));
    assert_false(has_domain("vbed-lost-001-guest-1"));
    assert_false(has_domain(probe_dead));
    assert_false(has_volume(st, vols[0]));
    assert_true(has_domain("vbed-lifelive-001-guest-1") && has_volume(st, vols[1]));
    assert_int_equal(out.kept, 2);
    assert_true(has_domain("vbed-norec-001-guest-1") && has_volume(st, vols[2]));
    assert_true(has_domain("vbed-deadse-002-guest-1") && has_domain(probe_other));
    assert_int_equal(out.foreign, 4);
    assert_true(has_domain("someone-else") && has_volume(st, vols[3]) && has_volume(st, vols[4]));

    /* --images: not while a session of this machine lives */
    o.images = true;
    memset(&out, 0, sizeof(out));
    leftovers_clean_libvirt(hv, &o, &out);
    assert_int_equal(out.removed, 0);
    assert_int_equal(out.images_kept, 1);
    assert_true(has_volume(st, vols[3]));

    /* the session ended: its things go; the image stays while another
     * session's volume (which it may back) remains */
    session_end(live);
    assert_false(session_alive(live));
    memset(&out, 0, sizeof(out));
    leftovers_clean_libvirt(hv, &o, &out);
    assert_int_equal(out.removed, 2);
    assert_int_equal(out.images_kept, 1);
    assert_true(has_volume(st, vols[3]));

    /* --foreign: not a running domain, nor the volumes of a session with one */
    o.foreign = true;
    memset(&out, 0, sizeof(out));
    leftovers_clean_libvirt(hv, &o, &out);
    assert_int_equal(out.removed, 0);
    assert_true(has_domain("vbed-norec-001-guest-1") && has_volume(st, vols[2]));
    assert_true(has_volume(st, vols[3]));
    /* once stopped, foreign leftovers and then the image go */
    stop_domain("vbed-norec-001-guest-1");
    stop_domain("vbed-deadse-002-guest-1");
    stop_domain(probe_other);
    memset(&out, 0, sizeof(out));
    leftovers_clean_libvirt(hv, &o, &out);
    assert_int_equal(out.failed, 0);
    assert_int_equal(out.removed, 5);
    assert_false(has_domain("vbed-norec-001-guest-1") || has_volume(st, vols[2]));
    assert_false(has_volume(st, vols[3]));
    assert_true(has_domain("someone-else") && has_volume(st, vols[4]));

    /* the dead sessions' records are forgotten */
    assert_int_equal(session_forget_dead(), 2);
    assert_int_equal(session_state(dead), SESSION_NONE);
    storage_delete(st, vols[4]);
    storage_close(st);
    rmdir(dir);
    rmdir(sessions);
    unsetenv("VBED_SESSION_DIR");
}

/* data_disks = 4: every data disk is a volume of its own, and the
 * teardown deletes every one of them */
static void data_disks_removed(void **state)
{
    (void)state;
    char dir[] = "/tmp/vbed-life-disks-XXXXXX";
    assert_non_null(mkdtemp(dir));
    struct storage *st = storage_open(hv, "vbed-disks", dir);
    assert_non_null(st);
    struct run_config cfg;
    key_apply_defaults(&cfg);
    cfg.disk_size = 64LL << 20;
    cfg.data_disks = 4;
    cfg.layout = LAYOUT_MD_RAID5;
    struct guest *g = calloc(1, sizeof(*g));
    assert_non_null(g);
    g->cfg = &cfg;
    layout_guest(&g->lay, storage_path(st), "disks-001", "guest", 1, &cfg);
    assert_int_equal(g->lay.n_more_data, 3);
    assert_int_equal(storage_create_data(st, g->lay.data_vol, &cfg), 0);
    for (int i = 0; i < g->lay.n_more_data; i++)
        assert_int_equal(storage_create_data(st, g->lay.more_data_vol[i], &cfg), 0);
    assert_true(has_volume(st, "vbed-disks-001-guest-1-data.qcow2"));
    assert_true(has_volume(st, "vbed-disks-001-guest-1-data4.qcow2"));
    g->made_disks = true;
    guest_teardown(g, st, NULL, false);
    assert_false(has_volume(st, "vbed-disks-001-guest-1-data.qcow2"));
    for (int k = 2; k <= 4; k++) {
        char name[64];
        snprintf(name, sizeof(name), "vbed-disks-001-guest-1-data%d.qcow2", k);
        assert_false(has_volume(st, name));
    }
    free(g);
    storage_close(st);
    rmdir(dir);
}

static void session_names(void **state)
{
    (void)state;
    char id[SESSION_ID_MAX];
    assert_int_equal(session_of_name("vbed-ab12cd-003-tuned-2", id), 0);
    assert_string_equal(id, "ab12cd");
    assert_int_equal(session_of_name("vbed-ab12cd-003-host", id), 0);
    assert_int_equal(session_of_name("other-ab12cd-003", id), -1);
    assert_int_equal(session_of_name("vbed-", id), -1);
    assert_int_equal(session_of_name("vbed-thisidiswaytoolong-001", id), -1);
}

/* last: the interruption flag cannot be taken back */
static void interrupted_wait_ends(void **state)
{
    (void)state;
    struct guest g;
    struct run_config cfg;
    volatile int abort_all = 0;
    start_guest(&g, &cfg, "vbed-life05-001-guest-1", &abort_all);
    cfg.timeout_boot = 300;
    signals_install();
    raise(SIGINT);
    assert_true(signals_interrupted());
    assert_int_equal(signals_exit_code(), 130);
    double t0 = now();
    assert_int_equal(guest_wait_ready(&g), -1);
    assert_true(now() - t0 < 5);
    assert_non_null(strstr(g.error, "interrupted by SIGINT"));
    raise(SIGTERM); /* a second signal keeps the first's exit code */
    assert_int_equal(signals_exit_code(), 130);
    hv_destroy(g.dom);
}

/* A failed call's message, after another libvirt call that succeeds (which
 * resets libvirt's own last error): the message is still the failure's. */
static void error_message_survives_next_call(void **state)
{
    (void)state;
    char dir[] = "/tmp/vbed-life-pool-XXXXXX";
    assert_non_null(mkdtemp(dir));
    struct storage *st = storage_open(hv, "vbed-err", dir);
    assert_non_null(st);
    struct run_config cfg;
    key_apply_defaults(&cfg);
    cfg.disk_size = 64LL << 20;
    assert_int_equal(storage_create_data(st, "vbed-err-001-guest-1-data.qcow2", &cfg), 0);
    /* the same name again fails: libvirt says the volume exists */
    assert_int_equal(storage_create_data(st, "vbed-err-001-guest-1-data.qcow2", &cfg), -1);
    char *uri = virConnectGetURI(hv_conn(hv)); /* succeeds, resets libvirt's error */
    assert_non_null(uri);
    free(uri);
    assert_non_null(strstr(hv_last_error(), "already exists"));
    assert_int_equal(storage_delete(st, "vbed-err-001-guest-1-data.qcow2"), 0);
    storage_close(st);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(start_and_destroy),
        cmocka_unit_test(boot_timeout_names_the_phase),
        cmocka_unit_test(stopped_domain_fails_at_once),
        cmocka_unit_test(other_guest_failed),
        cmocka_unit_test(clean_leftovers),
        cmocka_unit_test(session_names),
        cmocka_unit_test(data_disks_removed),
        cmocka_unit_test(interrupted_wait_ends),
        cmocka_unit_test(error_message_survives_next_call),
    };
    return cmocka_run_group_tests(tests, open_hv, close_hv);
}
