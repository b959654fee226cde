/* test_hosturi.c: libvirt URIs read as hosts (transport, ssh argv), and the
 * helper's replies read as hostile input. */
#include "testutil.h"
#include "hostside/hostside.h"
#include "scenario/hosturi.h"
#include "scenario/keys.h"
#include <math.h>

static void transports(void **state)
{
    (void)state;
    struct host_uri u;
    char err[600];
    assert_int_equal(host_uri_parse("qemu:///system", &u, err, sizeof(err)), 0);
    assert_int_equal(u.transport, HT_LOCAL);
    assert_string_equal(u.label, "qemu:///system");
    assert_int_equal(host_uri_parse("test:///default", &u, err, sizeof(err)), 0);
    assert_int_equal(u.transport, HT_LOCAL);
    assert_int_equal(host_uri_parse("qemu+unix:///system", &u, err, sizeof(err)), 0);
    assert_int_equal(u.transport, HT_LOCAL);
    assert_int_equal(host_uri_parse("qemu+tcp://10.0.0.2/system", &u, err, sizeof(err)), 0);
    assert_int_equal(u.transport, HT_NONE);
    assert_int_equal(host_uri_parse("qemu+tls://h/system", &u, err, sizeof(err)), 0);
    assert_int_equal(u.transport, HT_NONE);
    assert_int_equal(host_uri_parse("qemu://h/system", &u, err, sizeof(err)), 0);
    assert_int_equal(u.transport, HT_NONE);
    assert_int_equal(host_uri_parse("qemu+ssh://root@127.0.0.1:2222/system?keyfile=/k%20x&no_verify=1",
                                    &u, err, sizeof(err)), 0);
    assert_int_equal(u.transport, HT_SSH);
    assert_string_equal(u.user, "root");
    assert_string_equal(u.server, "127.0.0.1");
    assert_int_equal(u.port, 2222);
    assert_string_equal(u.keyfile, "/k x");
    assert_true(u.no_verify);
    assert_string_equal(u.label, "qemu+ssh://root@127.0.0.1:2222/system");
    assert_int_equal(host_uri_parse("qemu+ssh://h/system?known_hosts=/kh", &u, err, sizeof(err)), 0);
    assert_string_equal(u.known_hosts, "/kh");
    assert_false(u.no_verify);
}

static void refused(void **state)
{
    (void)state;
    struct host_uri u;
    char err[600];
    const char *bad[] = {"", "system", "qemu:/system", "qemu+ssh:///system", "qemu+ssh://-oProxyCommand=x/system",
                         "qemu+bogus://h/system", "qemu:///sys tem", "qemu:///system\n",
                         "qemu+ssh://h/system?no_verify=yes", "http://[::1/", NULL};
    for (size_t i = 0; bad[i]; i++) {
        err[0] = '\0';
        if (host_uri_parse(bad[i], &u, err, sizeof(err)) == 0)
            fail_msg("'%s' was accepted", bad[i]);
        assert_true(err[0] != '\0');
    }
}

static void ssh_argv(void **state)
{
    (void)state;
    struct host_uri u;
    char err[600];
    assert_int_equal(host_uri_parse("qemu+ssh://root@127.0.0.1:2222/system?keyfile=/k&no_verify=1&known_hosts=/kh",
                                    &u, err, sizeof(err)), 0);
    char **argv = host_uri_ssh_argv(&u, "'vbed' 'host' 'version'");
    char joined[1024] = "";
    for (size_t i = 0; argv[i]; i++) {
        strcat(joined, i ? "|" : "");
        strcat(joined, argv[i]);
    }
    assert_string_equal(joined, "ssh|-T|-e|none|-o|BatchMode=yes|-p|2222|-l|root|-i|/k|-o|"
                                "StrictHostKeyChecking=no|-o|UserKnownHostsFile=/kh|--|127.0.0.1|"
                                "'vbed' 'host' 'version'");
    host_uri_free_argv(argv);
}

/* `vbed host stat`: /proc/stat of that host with its clock tick */
static void stat_reply(void **state)
{
    (void)state;
    char err[256];
    struct cpu_times c;
    json_object *o = hostside_reply_parse("{\"vbed_host\":1,\"clk_tck\":100,\"stat\":"
                                          "\"cpu  100 0 50 800 10 0 0 40 0 0\\ncpu0 1 2 3 4\\n\"}",
                                          err, sizeof(err));
    assert_non_null(o);
    assert_int_equal(hostside_parse_stat_reply(o, &c), 0);
    assert_true(fabs(c.steal_s - 0.4) < 1e-9);
    assert_true(fabs(c.total_s - 10.0) < 1e-9);
    json_object_put(o);
    const char *bad[] = {"{\"vbed_host\":1,\"stat\":\"cpu  1 2 3 4\"}",
                         "{\"vbed_host\":1,\"clk_tck\":0,\"stat\":\"cpu  1 2 3 4\"}",
                         "{\"vbed_host\":1,\"clk_tck\":100,\"stat\":\"intr 1 2 3\"}",
                         "{\"vbed_host\":1,\"clk_tck\":100,\"stat\":7}",
                         "{\"vbed_host\":1,\"clk_tck\":\"100\",\"stat\":\"cpu  1 2 3 4\"}", NULL};
    for (size_t i = 0; bad[i]; i++) {
        o = hostside_reply_parse(bad[i], err, sizeof(err));
        assert_non_null(o);
        assert_int_equal(hostside_parse_stat_reply(o, &c), -1);
        json_object_put(o);
    }
}

static void replies(void **state)
{
    (void)state;
    char err[256], buf[64];
    long long v;
    json_object *o = hostside_reply_parse("{\"vbed_host\":1,\"version\":\"abc\",\"bytes\":4096}", err,
                                          sizeof(err));
    assert_non_null(o);
    assert_int_equal(hostside_reply_string(o, "version", buf, sizeof(buf)), 0);
    assert_string_equal(buf, "abc");
    assert_int_equal(hostside_reply_uint(o, "bytes", &v), 0);
    assert_int_equal(v, 4096);
    assert_int_equal(hostside_reply_uint(o, "version", &v), -1);
    assert_int_equal(hostside_reply_string(o, "bytes", buf, sizeof(buf)), -1);
    json_object_put(o);
    const char *bad[] = {"", "[]", "{}", "{\"vbed_host\":2}", "{\"vbed_host\":\"1\"}", "nonsense",
                         "{\"vbed_host\":1", NULL};
    for (size_t i = 0; bad[i]; i++)
        assert_null(hostside_reply_parse(bad[i], err, sizeof(err)));
    o = hostside_reply_parse("{\"vbed_host\":1,\"bytes\":-5,\"big\":9007199254740993,"
                             "\"v\":\"a\\nb\",\"nul\":\"a\\u0000b\"}", err, sizeof(err));
    assert_non_null(o);
    assert_int_equal(hostside_reply_uint(o, "bytes", &v), -1);
    assert_int_equal(hostside_reply_uint(o, "big", &v), -1);
    assert_int_equal(hostside_reply_string(o, "v", buf, sizeof(buf)), -1); /* a newline */
    assert_int_equal(hostside_reply_string(o, "nul", buf, sizeof(buf)), -1);
    assert_null(hostside_reply_text(o, "nul"));
    char *t = hostside_reply_text(o, "v");
    assert_string_equal(t, "a\nb");
    free(t);
    json_object_put(o);
    /* nothing a terminal acts on: U+009B (a CSI on many terminals), U+202E
     * (right-to-left override); plain UTF-8 passes */
    o = hostside_reply_parse("{\"vbed_host\":1,\"csi\":\"a\\u009b2Jb\",\"rlo\":\"a\\u202eb\","
                             "\"ok\":\"Debian \\u00e9t\\u00e9 12\"}", err, sizeof(err));
    assert_non_null(o);
    assert_int_equal(hostside_reply_string(o, "csi", buf, sizeof(buf)), -1);
    assert_int_equal(hostside_reply_string(o, "rlo", buf, sizeof(buf)), -1);
    assert_int_equal(hostside_reply_string(o, "ok", buf, sizeof(buf)), 0);
    json_object_put(o);
}

/* the hosts key: one value whatever its commas, round-robin placement */
static void hosts_key(void **state)
{
    (void)state;
    struct run_config cfg;
    char err[600], buf[256];
    key_apply_defaults(&cfg);
    assert_int_equal(run_config_host_count(&cfg), 0); /* the -c URI */
    assert_int_equal(run_config_guest_host(&cfg, 3), 0);
    const struct key_def *k = key_find("hosts");
    assert_int_equal(key_parse_item(k, " qemu:///system ,  qemu+ssh://h/system?keyfile=/k ", &cfg, err,
                                    sizeof(err)), 0);
    assert_string_equal(cfg.hosts, "qemu:///system,qemu+ssh://h/system?keyfile=/k");
    assert_int_equal(run_config_host_count(&cfg), 2);
    run_config_host(&cfg, 1, buf, sizeof(buf));
    assert_string_equal(buf, "qemu+ssh://h/system?keyfile=/k");
    run_config_host(&cfg, 2, buf, sizeof(buf));
    assert_string_equal(buf, "");
    assert_int_equal(run_config_guest_host(&cfg, 1), 0);
    assert_int_equal(run_config_guest_host(&cfg, 2), 1);
    assert_int_equal(run_config_guest_host(&cfg, 3), 0);
    assert_int_equal(key_parse_item(k, "qemu:///system, nope", &cfg, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "'nope' is not a libvirt URI"));
    assert_int_equal(key_parse_item(k, "test:///default,test:///default,test:///default,test:///default,"
                                       "test:///default,test:///default,test:///default,test:///default,"
                                       "test:///default", &cfg, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "more than 8 hosts"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(transports),
        cmocka_unit_test(refused),
        cmocka_unit_test(ssh_argv),
        cmocka_unit_test(replies),
        cmocka_unit_test(stat_reply),
        cmocka_unit_test(hosts_key),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
