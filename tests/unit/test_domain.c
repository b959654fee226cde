/* test_domain.c: domain XML golden files for every cache mode x format x
 * virt type, tmpfs (no data disk), and escaping of hostile values.
 * tests/cli/domain-xml-validate.sh checks the same files with
 * virt-xml-validate. */
#include "testutil.h"
#include "scenario/disklayout.h"
#include "virt/domain.h"
#include "scenario/keys.h"
#include "virt/layout.h"
#include "virt/placement.h"
#include "util/xalloc.h"

static void spec_for(struct domain_spec *spec, struct guest_layout *g, struct image_layout *im,
                     struct run_config *cfg, int cache, int format, int virt)
{
    key_apply_defaults(cfg);
    cfg->disk_cache = cache;
    cfg->disk_format = format;
    cfg->disk_io = (cache == CACHE_NONE || cache == CACHE_DIRECTSYNC) ? IO_NATIVE : IO_THREADS;
    cfg->memory = 1LL << 30;
    cfg->vcpus = 2;
    layout_image(im, "/var/lib/vbed/pool", "debian-mariadb-0123456789ab");
    layout_guest(g, "/var/lib/vbed/pool", "test-001", "guest", 1, cfg);
    layout_domain_spec(spec, g, im, cfg, virt, "root=/dev/vda rw console=ttyS0,115200");
    spec->machine = "0123456789abcdef0123456789abcdef"; /* not this machine's: golden files */
}

static void golden_matrix(void **state)
{
    (void)state;
    static const int virts[] = {VIRT_KVM, VIRT_QEMU};
    for (int v = 0; v < 2; v++) {
        for (int cache = CACHE_NONE; cache <= CACHE_UNSAFE; cache++) {
            for (int fmt = FORMAT_QCOW2; fmt <= FORMAT_RAW; fmt++) {
                struct domain_spec spec;
                struct guest_layout g;
                struct image_layout im;
                struct run_config cfg;
                spec_for(&spec, &g, &im, &cfg, cache, fmt, virts[v]);
                char *xml = domain_xml(&spec);
                assert_non_null(xml);
                char rel[128];
                snprintf(rel, sizeof(rel), "domain/%s-%s-%s.xml", virts[v] == VIRT_KVM ? "kvm" : "qemu",
                         key_choice("disk_cache", cache), key_choice("disk_format", fmt));
                golden_check(rel, xml);

                /* and the facts, in case a golden file was regenerated blindly */
                char want[128];
                snprintf(want, sizeof(want), "type=\"%s\" cache=\"%s\"", key_choice("disk_format", fmt),
                         key_choice("disk_cache", cache));
                assert_non_null(strstr(xml, want));
                assert_non_null(strstr(xml, virts[v] == VIRT_KVM ? "<domain type=\"kvm\">"
                                                                 : "<domain type=\"qemu\">"));
                assert_non_null(strstr(xml, "<name>vbed-test-001-guest-1</name>"));
                assert_non_null(strstr(xml, "name=\"org.qemu.guest_agent.0\""));
                /* a balloon for its statistics (the guest's page cache from the host) */
                assert_non_null(strstr(xml, "<memballoon model=\"virtio\">"));
                assert_non_null(strstr(xml, "<stats period=\"5\"/>"));
                /* whose it is, for vbed clean on a shared libvirt */
                assert_non_null(strstr(xml, "<vbed:owner xmlns:vbed=\"" DOMAIN_OWNER_NS
                                            "\" session=\"test\" "
                                            "machine=\"0123456789abcdef0123456789abcdef\"/>"));
                free(xml);
            }
        }
    }
}

/* domain_check_live: every cache mode x format is seen as what it is, and
 * any other setting of the same domain is told apart */
static void live_check(void **state)
{
    (void)state;
    for (int cache = CACHE_NONE; cache <= CACHE_UNSAFE; cache++) {
        for (int fmt = FORMAT_QCOW2; fmt <= FORMAT_RAW; fmt++) {
            struct domain_spec spec;
            struct guest_layout g;
            struct image_layout im;
            struct run_config cfg;
            spec_for(&spec, &g, &im, &cfg, cache, fmt, VIRT_QEMU);
            char *xml = domain_xml(&spec);
            char why[512] = "";
            assert_int_equal(domain_check_live(xml, 1, fmt, cache, cfg.disk_io, why, sizeof(why)), 0);
            for (int c2 = CACHE_NONE; c2 <= CACHE_UNSAFE; c2++)
                if (c2 != cache) {
                    assert_int_equal(domain_check_live(xml, 1, fmt, c2, cfg.disk_io, why, sizeof(why)), -1);
                    assert_non_null(strstr(why, "cache="));
                }
            assert_int_equal(domain_check_live(xml, 1, !fmt, cache, cfg.disk_io, why, sizeof(why)), -1);
            assert_non_null(strstr(why, "vbed-data has type="));
            int other_io = cfg.disk_io == IO_THREADS ? IO_NATIVE : IO_THREADS;
            assert_int_equal(domain_check_live(xml, 1, fmt, cache, other_io, why, sizeof(why)), -1);
            assert_int_equal(domain_check_live(xml, 2, fmt, cache, cfg.disk_io, why, sizeof(why)), -1);
            assert_non_null(strstr(why, "has 1 data disk, the run asked for 2"));
            free(xml);
        }
    }
    char why[512];
    assert_int_equal(domain_check_live("<domain", 1, 0, 0, 0, why, sizeof(why)), -1);
    assert_int_equal(domain_check_live("", 0, 0, 0, 0, why, sizeof(why)), -1);
}

static void tmpfs_has_no_data_disk(void **state)
{
    (void)state;
    struct domain_spec spec;
    struct guest_layout g;
    struct image_layout im;
    struct run_config cfg;
    spec_for(&spec, &g, &im, &cfg, CACHE_WRITEBACK, FORMAT_QCOW2, VIRT_QEMU);
    cfg.filesystem = FS_TMPFS;
    layout_guest(&g, "/var/lib/vbed/pool", "test-001", "guest", 1, &cfg);
    layout_domain_spec(&spec, &g, &im, &cfg, VIRT_QEMU, "root=/dev/vda");
    spec.machine = "0123456789abcdef0123456789abcdef";
    char *xml = domain_xml(&spec);
    assert_non_null(xml);
    assert_null(strstr(xml, "vbed-data"));
    assert_non_null(strstr(xml, "vbed-config"));
    golden_check("domain/qemu-tmpfs.xml", xml);
    free(xml);
}

static void escaping(void **state)
{
    (void)state;
    struct domain_spec spec;
    struct guest_layout g;
    struct image_layout im;
    struct run_config cfg;
    spec_for(&spec, &g, &im, &cfg, CACHE_NONE, FORMAT_RAW, VIRT_QEMU);
    spec.cmdline = "root=/dev/vda x=\"<a&b>\"";
    spec.console_log = "/tmp/it's <here> & \"there\".log";
    char *xml = domain_xml(&spec);
    assert_non_null(xml);
    assert_null(strstr(xml, "<a&b>"));
    assert_non_null(strstr(xml, "x=&quot;&lt;a&amp;b&gt;&quot;"));
    assert_non_null(strstr(xml, "path=\"/tmp/it's &lt;here&gt; &amp; &quot;there&quot;.log\""));
    free(xml);
}

/* pin = auto: guest 2 of a 2-vCPU arm gets CPUs 3, 4 and 5 (placement.h) */
static void pinned(void **state)
{
    (void)state;
    struct domain_spec spec;
    struct guest_layout g;
    struct image_layout im;
    struct run_config cfg;
    spec_for(&spec, &g, &im, &cfg, CACHE_NONE, FORMAT_RAW, VIRT_QEMU);
    struct placement pl = {.pin = true, .emulators = true, .win = {0, 6, true}};
    int pins[2] = {placement_vcpu_cpu(&pl, &cfg, 2, 0), placement_vcpu_cpu(&pl, &cfg, 2, 1)};
    spec.vcpu_pin = pins;
    spec.emulator_pin = placement_emulator_cpu(&pl, &cfg, 2);
    char *xml = domain_xml(&spec);
    assert_non_null(xml);
    assert_non_null(strstr(xml, "<vcpupin vcpu=\"0\" cpuset=\"3\"/>"));
    assert_non_null(strstr(xml, "<vcpupin vcpu=\"1\" cpuset=\"4\"/>"));
    assert_non_null(strstr(xml, "<emulatorpin cpuset=\"5\"/>"));
    golden_check("domain/qemu-pinned.xml", xml);
    free(xml);
    /* unpinned specs carry no cputune at all */
    spec.vcpu_pin = NULL;
    spec.emulator_pin = -1;
    xml = domain_xml(&spec);
    assert_null(strstr(xml, "cputune"));
    free(xml);
}

/* The XML without line breaks and indentation (malloc'd) */
static char *flatten(const char *xml)
{
    char *flat = xstrdup(xml);
    char *o = flat;
    for (const char *p = xml; *p; p++)
        if (*p != '\n' && !(*p == ' ' && (p[1] == ' ' || p[1] == '<' || p == xml || p[-1] == '>')))
            *o++ = *p;
    *o = '\0';
    return flat;
}

static size_t count(const char *hay, const char *needle)
{
    size_t n = 0;
    for (const char *p = hay; (p = strstr(p, needle)); p++)
        n++;
    return n;
}

/* data_disks = 4: disk 1 stays vdb (serial vbed-data), the others follow the
 * configuration disk as vdd, vde, vdf, each with the arm's format, cache and io */
static void four_data_disks(void **state)
{
    (void)state;
    struct domain_spec spec;
    struct guest_layout g;
    struct image_layout im;
    struct run_config cfg;
    spec_for(&spec, &g, &im, &cfg, CACHE_NONE, FORMAT_RAW, VIRT_QEMU);
    cfg.data_disks = 4;
    cfg.layout = LAYOUT_MD_RAID10;
    layout_guest(&g, "/var/lib/vbed/pool", "test-001", "guest", 1, &cfg);
    layout_domain_spec(&spec, &g, &im, &cfg, VIRT_QEMU, "root=/dev/vda rw console=ttyS0,115200");
    spec.machine = "0123456789abcdef0123456789abcdef";
    assert_int_equal(g.n_more_data, 3);
    assert_string_equal(g.more_data_vol[2], "vbed-test-001-guest-1-data4.raw");
    char *xml = domain_xml(&spec);
    assert_non_null(xml);
    golden_check("domain/qemu-none-raw-4-data-disks.xml", xml);
    static const char *const want[] = {
        "<source file=\"/var/lib/vbed/pool/vbed-test-001-guest-1-data.raw\"/><target dev=\"vdb\" "
        "bus=\"virtio\"/><serial>vbed-data</serial>",
        "<source file=\"/var/lib/vbed/pool/vbed-test-001-guest-1-data2.raw\"/><target dev=\"vdd\" "
        "bus=\"virtio\"/><serial>vbed-data-2</serial>",
        "<source file=\"/var/lib/vbed/pool/vbed-test-001-guest-1-data4.raw\"/><target dev=\"vdf\" "
        "bus=\"virtio\"/><serial>vbed-data-4</serial>",
        NULL};
    /* the facts, whitespace aside */
    char *flat = flatten(xml);
    for (size_t i = 0; want[i]; i++)
        if (!strstr(flat, want[i]))
            fail_msg("missing in the XML: %s", want[i]);
    assert_int_equal(count(flat, "cache=\"none\" io=\"native\""), 4);
    free(flat);
    free(xml);
    /* one disk: no other data disk, the XML of before */
    cfg.data_disks = 1;
    layout_guest(&g, "/var/lib/vbed/pool", "test-001", "guest", 1, &cfg);
    assert_int_equal(g.n_more_data, 0);
}

/* Every layout at its minimum number of disks (the end-to-end test boots
 * one layout per family; the rest of the matrix is here and in
 * tests/cli/setup-layouts.sh): as many data disks as the layout needs,
 * serials vbed-data, vbed-data-2 ... in order, each in the arm's format
 * with its cache mode and I/O mode, beside the root and configuration disks. */
static void every_layout(void **state)
{
    (void)state;
    static const struct {
        int cache, format;
        const char *driver;
    } arms[] = {{CACHE_NONE, FORMAT_RAW, "type=\"raw\" cache=\"none\" io=\"native\""},
                {CACHE_WRITEBACK, FORMAT_QCOW2, "type=\"qcow2\" cache=\"writeback\" io=\"threads\""}};
    const struct key_def *k = key_find("layout");
    for (size_t a = 0; a < sizeof(arms) / sizeof(arms[0]); a++)
        for (int layout = 0; k->choices[layout]; layout++) {
            struct domain_spec spec;
            struct guest_layout g;
            struct image_layout im;
            struct run_config cfg;
            spec_for(&spec, &g, &im, &cfg, arms[a].cache, arms[a].format, VIRT_QEMU);
            cfg.layout = layout;
            cfg.data_disks = disklayout_info(layout)->min_disks;
            layout_guest(&g, "/var/lib/vbed/pool", "test-001", "guest", 1, &cfg);
            layout_domain_spec(&spec, &g, &im, &cfg, VIRT_QEMU, "root=/dev/vda rw");
            char *xml = domain_xml(&spec);
            assert_non_null(xml);
            char *flat = flatten(xml);
            char serial[64];
            for (long long d = 1; d <= cfg.data_disks; d++) {
                if (d == 1)
                    snprintf(serial, sizeof(serial), "<serial>vbed-data</serial>");
                else
                    snprintf(serial, sizeof(serial), "<serial>vbed-data-%lld</serial>", d);
                if (count(flat, serial) != 1)
                    fail_msg("layout %s: %s appears %zu times", k->choices[layout], serial,
                             count(flat, serial));
            }
            snprintf(serial, sizeof(serial), "<serial>vbed-data-%lld</serial>", cfg.data_disks + 1);
            assert_null(strstr(flat, serial));
            if (count(flat, arms[a].driver) != (size_t)cfg.data_disks)
                fail_msg("layout %s: %zu disks with '%s', expected %lld", k->choices[layout],
                         count(flat, arms[a].driver), arms[a].driver, cfg.data_disks);
            assert_int_equal(count(flat, "<serial>vbed-root</serial>"), 1);
            assert_int_equal(count(flat, "<serial>vbed-config</serial>"), 1);
            /* root, data disks, config */
            assert_int_equal(count(flat, "<disk type=\"file\" device=\"disk\">"), cfg.data_disks + 2);
            free(flat);
            free(xml);
        }
}

/* A restored guest: its domain XML without the data and configuration
 * disks (plugged in after the restore) but with the saved UUID, and the
 * disks to plug: exactly those of the booted guest's XML, in its order. */
static void plugged_later(void **state)
{
    (void)state;
    struct domain_spec spec;
    struct guest_layout g;
    struct image_layout im;
    struct run_config cfg;
    spec_for(&spec, &g, &im, &cfg, CACHE_NONE, FORMAT_RAW, VIRT_QEMU);
    cfg.data_disks = 3;
    layout_guest(&g, "/var/lib/vbed/pool", "test-001", "guest", 1, &cfg);
    layout_domain_spec(&spec, &g, &im, &cfg, VIRT_QEMU, "root=/dev/vda rw vbed.hold");
    char *cold = domain_xml(&spec);
    assert_non_null(cold);
    char *flat_cold = flatten(cold);
    char **plug = NULL;
    size_t n = 0;
    assert_int_equal(domain_plug_xml(&spec, &plug, &n), 0);
    assert_int_equal(n, 4); /* data, config, data 2, data 3 */
    const char *serials[] = {"vbed-data", "vbed-config", "vbed-data-2", "vbed-data-3"};
    const char *prev = flat_cold;
    for (size_t i = 0; i < n; i++) {
        char *flat = flatten(plug[i]);
        /* xmlTextWriter's document starts with an XML declaration */
        const char *disk = strstr(flat, "<disk");
        assert_non_null(disk);
        const char *at = strstr(prev, disk);
        if (!at)
            fail_msg("plugged disk %zu is not the booted guest's:\n%s", i, disk);
        assert_non_null(strstr(disk, serials[i]));
        prev = at + 1; /* in the booted XML's order */
        free(flat);
        free(plug[i]);
    }
    free(plug);
    spec.plugged_later = true;
    spec.uuid = "f3cb64b5-ee23-4695-a1d4-3483d9b8e325";
    char *restore = domain_xml(&spec);
    assert_non_null(restore);
    assert_non_null(strstr(restore, "<uuid>f3cb64b5-ee23-4695-a1d4-3483d9b8e325</uuid>"));
    assert_non_null(strstr(restore, "vbed-root"));
    assert_null(strstr(restore, "vbed-data"));
    assert_null(strstr(restore, "vbed-config"));
    free(restore);
    free(flat_cold);
    free(cold);
}

/* The prepared tables' archive: a raw, read-only disk with its own serial,
 * on a target no data or configuration disk takes (with the most data disks
 * a scenario allows), escaped like every path. */
static void tables_disk(void **state)
{
    (void)state;
    struct domain_spec spec;
    struct guest_layout g;
    struct image_layout im;
    struct run_config cfg;
    spec_for(&spec, &g, &im, &cfg, CACHE_NONE, FORMAT_QCOW2, VIRT_QEMU);
    cfg.data_disks = LAYOUT_MAX_DATA_DISKS;
    layout_guest(&g, "/var/lib/vbed/pool", "test-001", "guest", 1, &cfg);
    assert_string_equal(g.tables_vol, "vbed-test-001-guest-1-tables.tar");
    assert_string_equal(g.tables_path, "/var/lib/vbed/pool/vbed-test-001-guest-1-tables.tar");
    layout_domain_spec(&spec, &g, &im, &cfg, VIRT_QEMU, "root=/dev/vda rw");
    char *cold = domain_xml(&spec);
    assert_non_null(cold);
    assert_null(strstr(cold, "dev=\"" DOMAIN_DEV_TABLES "\""));
    assert_null(strstr(cold, DOMAIN_SERIAL_TABLES));
    free(cold);
    char *xml = domain_tables_xml(g.name, "/pool/a&b-tables.tar");
    assert_non_null(xml);
    char *flat = flatten(xml);
    assert_non_null(strstr(flat, "<driver name=\"qemu\" type=\"raw\"/>"));
    assert_non_null(strstr(flat, "<source file=\"/pool/a&amp;b-tables.tar\"/>"));
    assert_non_null(strstr(flat, "<target dev=\"vdz\" bus=\"virtio\"/>"));
    assert_non_null(strstr(flat, "<serial>vbed-tables</serial>"));
    assert_non_null(strstr(flat, "<readonly/>"));
    assert_null(strstr(flat, "cache="));
    free(flat);
    free(xml);
}

/* the KVM probe: a kernel without disks whose panic ends the domain, its
 * serial console on a file next to the kernel (the verdict reads it) */
static void probe(void **state)
{
    (void)state;
    char *xml = domain_probe_xml("vbed-probe-3d1219c7-1234", VIRT_KVM, "/var/lib/vbed/pool/k & <k>",
                                 "/var/lib/vbed/pool/c & <c>", "m<1>");
    assert_non_null(xml);
    assert_non_null(strstr(xml, "<domain type=\"kvm\">"));
    assert_non_null(strstr(xml, "<on_reboot>destroy</on_reboot>"));
    assert_non_null(strstr(xml, "console=ttyS0 panic=-1"));
    assert_non_null(strstr(xml, "k &amp; &lt;k&gt;"));
    assert_non_null(strstr(xml, "<serial type=\"file\">\n      <source path=\"/var/lib/vbed/pool/c &amp; &lt;c&gt;\"/>"));
    assert_non_null(strstr(xml, "machine=\"m&lt;1&gt;\""));
    assert_null(strstr(xml, "<disk"));
    free(xml);
    xml = domain_probe_xml("vbed-probe-3d1219c7-1234", VIRT_KVM,
                           "/var/lib/vbed/pool/vbed-image-x.vmlinuz",
                           "/var/lib/vbed/pool/vbed-probe-3d1219c7-1234-console.log",
                           "3d1219c7c4c5404aaa1f6d2a48adfda4");
    golden_check("domain/probe-kvm.xml", xml);
    free(xml);
}

static void names(void **state)
{
    (void)state;
    char buf[64];
    domain_name(buf, sizeof(buf), "ab12cd-003", "tuned", 2);
    assert_string_equal(buf, "vbed-ab12cd-003-tuned-2");
    layout_runid(buf, sizeof(buf), "ab12cd", 7);
    assert_string_equal(buf, "ab12cd-007");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(golden_matrix),
        cmocka_unit_test(live_check),
        cmocka_unit_test(tmpfs_has_no_data_disk),
        cmocka_unit_test(escaping),
        cmocka_unit_test(pinned), cmocka_unit_test(probe),
        cmocka_unit_test(four_data_disks),
        cmocka_unit_test(every_layout),
        cmocka_unit_test(plugged_later),
        cmocka_unit_test(tables_disk),
        cmocka_unit_test(names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
