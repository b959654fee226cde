/* test_lifecycle.c: guest lifecycle and cleanup logic against libvirt's
 * test:///default driver (fast, needs no QEMU): domains start and are
 * destroyed; a guest whose agent never answers fails in phase boot at its
 * time limit; a guest whose domain stops fails at once; the guests of a
 * run stop when one of them failed; `vbed clean` removes a dead session's
 * domains and volumes and leaves a live session's, images and foreign
 * things alone; an interrupted wait ends promptly. */
#include "testutil.h"
#include "guest.h"
#include "hypervisor.h"
#include "keys.h"
#include "leftovers.h"
#include "log.h"
#include "session.h"
#include "signals.h"
#include "storage.h"

#include <signal.h>
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

static void clean_leftovers(void **state)
{
    (void)state;
    char live[SESSION_ID_MAX];
    assert_int_equal(session_begin("lifelive", live), 0);

    /* persistent domains, as a crashed vbed cannot leave (its are transient),
     * but as a user's virsh could: clean must remove those of dead sessions */
    const char *doms[] = {"vbed-deadse-001-guest-1", "vbed-lifelive-001-guest-1", "someone-else"};
    for (size_t i = 0; i < 3; i++) {
        char *xml = test_xml(doms[i]);
        virDomainPtr d = virDomainDefineXML(hv_conn(hv), xml);
        free(xml);
        assert_non_null(d);
        assert_int_equal(virDomainCreate(d), 0);
        virDomainFree(d);
    }
    char dir[] = "/tmp/vbed-life-pool-XXXXXX";
    assert_non_null(mkdtemp(dir));
    struct storage *st = storage_open(hv, "vbed", dir);
    assert_non_null(st);
    struct run_config cfg;
    key_apply_defaults(&cfg);
    cfg.disk_size = 64LL << 20;
    const char *vols[] = {"vbed-deadse-001-guest-1-data.qcow2", "vbed-lifelive-001-guest-1-data.qcow2",
                          "vbed-image-x-0123456789ab.qcow2", "someone-elses.qcow2"};
    for (size_t i = 0; i < 4; i++)
        assert_int_equal(storage_create_data(st, vols[i], &cfg), 0);

    struct leftovers out = {0};
    leftovers_clean_libvirt(hv, "vbed", false, true, &out); /* dry run */
    assert_int_equal(out.removed, 0);
    char **names;
    size_t n;
    assert_int_equal(storage_list(st, "", &names, &n), 0);
    assert_int_equal(n, 4);
    storage_free_names(names, n);

    memset(&out, 0, sizeof(out));
    leftovers_clean_libvirt(hv, "vbed", false, false, &out);
    assert_int_equal(out.removed, 2);
    assert_int_equal(out.failed, 0);
    assert_int_equal(out.kept, 2);
    assert_int_equal(hv_list_domains(hv, "", &names, &n), 0);
    bool dead = false, alive = false, foreign = false;
    for (size_t i = 0; i < n; i++) {
        dead |= strcmp(names[i], doms[0]) == 0;
        alive |= strcmp(names[i], doms[1]) == 0;
        foreign |= strcmp(names[i], doms[2]) == 0;
    }
    storage_free_names(names, n);
    assert_false(dead);
    assert_true(alive && foreign);
    assert_int_equal(storage_list(st, "", &names, &n), 0);
    assert_int_equal(n, 3); /* live session's, image, foreign */
    storage_free_names(names, n);

    /* --images also removes uploaded base images */
    memset(&out, 0, sizeof(out));
    leftovers_clean_libvirt(hv, "vbed", true, false, &out);
    assert_int_equal(out.removed, 1);
    assert_int_equal(storage_list(st, "vbed-image-", &names, &n), 0);
    assert_int_equal(n, 0);
    free(names);

    session_end(live);
    assert_false(session_alive(live));
    memset(&out, 0, sizeof(out));
    leftovers_clean_libvirt(hv, "vbed", false, false, &out);
    assert_int_equal(out.removed, 2); /* the session ended: its domain and volume go */
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(start_and_destroy),
        cmocka_unit_test(boot_timeout_names_the_phase),
        cmocka_unit_test(stopped_domain_fails_at_once),
        cmocka_unit_test(other_guest_failed),
        cmocka_unit_test(clean_leftovers),
        cmocka_unit_test(session_names),
        cmocka_unit_test(interrupted_wait_ends),
    };
    if (geteuid() == 0)
        return cmocka_run_group_tests(tests, open_hv, close_hv);
    /* cmocka's skip() exits 0 and prints PASSED: leave the root-only test
     * out, run the others, and then exit 77 so the skip is seen */
    struct CMUnitTest rest[sizeof(tests) / sizeof(tests[0])];
    size_t n = 0;
    for (size_t i = 0; i < sizeof(tests) / sizeof(tests[0]); i++)
        if (tests[i].test_func != clean_leftovers)
            rest[n++] = tests[i];
    int failed = _cmocka_run_group_tests("test_lifecycle", rest, n, open_hv, close_hv);
    if (failed)
        return failed;
    printf("SKIP: clean_leftovers needs root (session pid files live in /run/vbed)\n");
    return 77;
}
