/* test_placement.c: pin = auto decides alike for the whole scenario, and a
 * pinning counts as applied only when the running guest reads it back. The
 * read-back runs against libvirt's test:///default driver: a domain started
 * with the planned <cputune> verifies; re-pinning one vCPU elsewhere makes
 * the same check fail (what a recorded-but-not-applied pinning looks like). */
#include "testutil.h"

#include "virt/domain.h"
#include "scenario/keys.h"
#include "virt/layout.h"
#include "virt/placement.h"
#include "scenario/plan.h"
#include "scenario/scenario.h"

#include <libvirt/virterror.h>

static void quiet(void *ud, virErrorPtr e)
{
    (void)ud;
    (void)e;
}

static struct plan *plan_from(const char *text, struct scenario **scn)
{
    char path[] = "/tmp/vbed-test-placement-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    struct diag d = {0};
    *scn = scenario_load(path, &d);
    struct plan *p = *scn ? plan_build(*scn, &d) : NULL;
    diag_print(&d);
    diag_clear(&d);
    unlink(path);
    assert_non_null(p);
    return p;
}

static void decide(void **state)
{
    (void)state;
    struct scenario *scn;
    struct plan *p = plan_from("[global]\nworkload = oltp_read_only\nvcpus = 1\n"
                               "[host]\narm = host\n[guest]\narm = guest\nguests = 2\n"
                               "[tuned]\narm = guest\n",
                               &scn);
    struct placement pl;
    const struct run_config *c = &p->specs[1].cfg;
    /* 2 guests x 1 vCPU: more than one CPU, nothing pinned */
    placement_decide(p, &(struct cpuwindow){0, 1, true}, &pl);
    assert_false(pl.pin);
    assert_false(pl.emulators);
    assert_false(placement_confined(&pl));
    assert_non_null(strstr(pl.reason, "the largest arm has 2 vCPUs and this host 1 CPUs"));
    /* a CPU per vCPU, none for the emulators: the vCPUs alone, side by side */
    placement_decide(p, &(struct cpuwindow){0, 2, true}, &pl);
    assert_true(pl.pin);
    assert_false(pl.emulators);
    assert_non_null(strstr(pl.reason, "the emulator threads share all CPUs"));
    assert_int_equal(placement_vcpu_cpu(&pl, c, 1, 0), 0);
    assert_int_equal(placement_vcpu_cpu(&pl, c, 2, 0), 1);
    assert_int_equal(placement_emulator_cpu(&pl, c, 1), -1);
    assert_int_equal(placement_emulator_cpu(&pl, c, 2), -1);
    char set[40] = "x";
    placement_guest_cpuset(&pl, set, sizeof(set));
    assert_string_equal(set, "");
    /* 2 guests x (1 vCPU + 1 emulator) = 4 CPUs */
    placement_decide(p, &(struct cpuwindow){0, 4, true}, &pl);
    assert_true(pl.pin);
    assert_true(pl.emulators);
    assert_int_equal(placement_vcpu_cpu(&pl, c, 1, 0), 0);
    assert_int_equal(placement_emulator_cpu(&pl, c, 1), 1);
    assert_int_equal(placement_vcpu_cpu(&pl, c, 2, 0), 2);
    assert_int_equal(placement_emulator_cpu(&pl, c, 2), 3);
    char cpus[16];
    placement_host_cpus(c->vcpus, 0, 4, cpus, sizeof(cpus));
    assert_string_equal(cpus, "0");
    /* vbed allowed CPUs 4-7 only (taskset, a cpuset): the same shape there,
     * never on 0-3, which belong to someone else */
    placement_decide(p, &(struct cpuwindow){4, 4, false}, &pl);
    assert_true(pl.pin);
    assert_true(pl.emulators);
    assert_true(placement_confined(&pl));
    placement_guest_cpuset(&pl, set, sizeof(set));
    assert_string_equal(set, "4-7");
    assert_non_null(strstr(pl.reason, "(4 of 4 CPUs at most, CPUs 4-7)"));
    assert_int_equal(placement_vcpu_cpu(&pl, c, 1, 0), 4);
    assert_int_equal(placement_emulator_cpu(&pl, c, 1), 5);
    assert_int_equal(placement_vcpu_cpu(&pl, c, 2, 0), 6);
    assert_int_equal(placement_emulator_cpu(&pl, c, 2), 7);
    placement_host_cpus(c->vcpus, 4, 4, cpus, sizeof(cpus));
    assert_string_equal(cpus, "4");
    placement_host_cpus(3, 4, 4, cpus, sizeof(cpus));
    assert_string_equal(cpus, "4-6");
    /* one CPU, CPU 1, for two one-vCPU guests: nothing pinned, but both
     * stay on CPU 1 (taskset -c 1; a test beside another) */
    placement_decide(p, &(struct cpuwindow){1, 1, false}, &pl);
    assert_false(pl.pin);
    assert_true(placement_confined(&pl));
    assert_non_null(strstr(pl.reason, "this host 1 CPUs for vbed: nothing is pinned, the guests share "
                                      "vbed's CPU (1)"));
    placement_guest_cpuset(&pl, set, sizeof(set));
    assert_string_equal(set, "1");
    /* CPU 0 of two: the same, where the window starts at the host's first */
    placement_decide(p, &(struct cpuwindow){0, 1, false}, &pl);
    assert_true(placement_confined(&pl));
    placement_guest_cpuset(&pl, set, sizeof(set));
    assert_string_equal(set, "0");
    /* CPUs 2-3 of a larger host, two one-vCPU guests: the vCPUs pinned, the
     * emulator threads on 2-3 with them, not on every CPU */
    placement_decide(p, &(struct cpuwindow){2, 2, false}, &pl);
    assert_true(pl.pin);
    assert_false(pl.emulators);
    assert_non_null(strstr(pl.reason, "the emulator threads share vbed's CPUs (2-3)"));
    assert_int_equal(placement_vcpu_cpu(&pl, c, 2, 0), 3);
    plan_free(p);
    scenario_free(scn);

    p = plan_from("[global]\nworkload = oltp_read_only\npin = none\n[guest]\narm = guest\n", &scn);
    placement_decide(p, &(struct cpuwindow){0, 64, true}, &pl);
    assert_false(pl.pin);
    assert_string_equal(pl.reason, "pin = none");
    plan_free(p);
    scenario_free(scn);
}

/* a domain started from spec, whose placement reads back as pl's guest n */
static virDomainPtr start_verified(virConnectPtr conn, const struct domain_spec *spec,
                                   const struct placement *pl, const struct run_config *cfg, int n)
{
    char *xml = domain_xml(spec);
    virDomainPtr dom = virDomainCreateXML(conn, xml, 0);
    free(xml);
    assert_non_null(dom);
    char why[256] = "";
    int ok = placement_verify_guest(dom, pl, cfg, n, why, sizeof(why));
    if (ok != 0)
        fprintf(stderr, "verify: %s\n", why);
    assert_int_equal(ok, 0);
    return dom;
}

static void verify_reads_back(void **state)
{
    (void)state;
    virSetErrorFunc(NULL, quiet);
    virConnectPtr conn = virConnectOpen("test:///default");
    if (!conn) {
        fprintf(stderr, "SKIP: libvirt's test:///default driver cannot be opened\n");
        exit(77);
    }
    struct run_config cfg;
    key_apply_defaults(&cfg);
    cfg.vcpus = 2;
    cfg.memory = 256LL << 20;
    struct image_layout im;
    struct guest_layout g;
    layout_image(&im, "/var/lib/vbed/pool", "debian-mariadb-0123456789ab");
    layout_guest(&g, "/var/lib/vbed/pool", "pin-001", "guest", 2, &cfg);
    struct domain_spec spec;
    struct placement pl = {.pin = true, .emulators = true, .win = {0, 16, true}};
    layout_domain_spec(&spec, &g, &im, &cfg, VIRT_QEMU, "root=/dev/vda");
    int pins[2] = {placement_vcpu_cpu(&pl, &cfg, 2, 0), placement_vcpu_cpu(&pl, &cfg, 2, 1)};
    spec.vcpu_pin = pins;
    spec.emulator_pin = placement_emulator_cpu(&pl, &cfg, 2);
    virDomainPtr dom = start_verified(conn, &spec, &pl, &cfg, 2);
    char *xml, why[256] = "";
    /* as guest 1 it would be on CPUs 0, 1 and 2: not what runs */
    assert_int_equal(placement_verify_guest(dom, &pl, &cfg, 1, why, sizeof(why)), -1);
    assert_non_null(strstr(why, "vCPU 0 runs on host CPUs 3, not on CPU 0"));

    /* with the emulators floating, guest 2's vCPUs would be on CPUs 2 and 3 */
    struct placement vonly = {.pin = true, .emulators = false, .win = {0, 16, true}};
    assert_int_equal(placement_verify_guest(dom, &vonly, &cfg, 2, why, sizeof(why)), -1);
    assert_non_null(strstr(why, "vCPU 0 runs on host CPUs 3, not on CPU 2"));

    /* vCPU 1 moved to CPU 7: the pinning no longer holds */
    int maplen = VIR_CPU_MAPLEN(16);
    unsigned char map[8] = {0};
    VIR_USE_CPU(map, 7);
    assert_int_equal(virDomainPinVcpu(dom, 1, map, maplen), 0);
    assert_int_equal(placement_verify_guest(dom, &pl, &cfg, 2, why, sizeof(why)), -1);
    assert_non_null(strstr(why, "vCPU 1 runs on host CPUs 7, not on CPU 4"));

    virDomainDestroy(dom);
    virDomainFree(dom);

    /* vCPUs alone: guest 2 of 2-vCPU guests on CPUs 2 and 3, the emulator
     * threads unpinned, and that is what verifies */
    int vpins[2] = {placement_vcpu_cpu(&vonly, &cfg, 2, 0), placement_vcpu_cpu(&vonly, &cfg, 2, 1)};
    assert_int_equal(vpins[0], 2);
    assert_int_equal(vpins[1], 3);
    spec.vcpu_pin = vpins;
    spec.emulator_pin = placement_emulator_cpu(&vonly, &cfg, 2);
    assert_int_equal(spec.emulator_pin, -1);
    xml = domain_xml(&spec);
    assert_null(strstr(xml, "emulatorpin"));
    free(xml);
    dom = start_verified(conn, &spec, &vonly, &cfg, 2);
    cfg.guests = 2;
    json_object *j = placement_json_guests(&vonly, &cfg, true, NULL);
    assert_false(json_object_get_boolean(json_object_object_get(j, "emulators")));
    json_object *g2 = json_object_array_get_idx(json_object_object_get(j, "guests"), 1);
    assert_string_equal(json_object_get_string(json_object_object_get(g2, "vcpus")), "2,3");
    assert_null(json_object_object_get(g2, "emulator"));
    json_object_put(j);
    virDomainDestroy(dom);
    virDomainFree(dom);

    /* nothing pinned, confined to CPUs 5-6: <vcpu cpuset> holds every vCPU
     * (and, in QEMU, the emulator threads) there; a guest without it runs
     * on every CPU and fails the check, as one on another window does */
    struct placement conf = {.win = {5, 2, false}};
    char set[40];
    placement_guest_cpuset(&conf, set, sizeof(set));
    assert_string_equal(set, "5-6");
    spec.vcpu_pin = NULL;
    spec.emulator_pin = -1;
    spec.cpuset = set;
    xml = domain_xml(&spec);
    assert_non_null(strstr(xml, "<vcpu cpuset=\"5-6\">2</vcpu>"));
    assert_null(strstr(xml, "cputune"));
    free(xml);
    dom = start_verified(conn, &spec, &conf, &cfg, 1);
    struct placement other = {.win = {1, 1, false}};
    assert_int_equal(placement_verify_guest(dom, &other, &cfg, 1, why, sizeof(why)), -1);
    assert_non_null(strstr(why, "vCPU 0 runs on host CPUs 5,6, not on vbed's CPUs 1"));
    j = placement_json_guests(&conf, &cfg, false, NULL);
    assert_string_equal(json_object_get_string(json_object_object_get(j, "cpuset")), "5-6");
    json_object_put(j);
    virDomainDestroy(dom);
    virDomainFree(dom);
    spec.cpuset = NULL;
    xml = domain_xml(&spec);
    assert_non_null(strstr(xml, "<vcpu>2</vcpu>"));
    dom = virDomainCreateXML(conn, xml, 0);
    free(xml);
    assert_non_null(dom);
    assert_int_equal(placement_verify_guest(dom, &conf, &cfg, 1, why, sizeof(why)), -1);
    assert_non_null(strstr(why, "not on vbed's CPUs 5-6"));
    virDomainDestroy(dom);
    virDomainFree(dom);
    virConnectClose(conn);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(decide),
        cmocka_unit_test(verify_reads_back),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
