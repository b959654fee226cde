/* test_hostarm.c: what a remote host arm's helper replies is hostile input
 * (the rows of arm-sql, the arm-start and arm-status replies: their size,
 * their paths, which must be the arm's own), the helper's stderr made safe
 * for a terminal, and which directories an arm request may touch on the
 * helper's host. */
#include "testutil.h"

#include "targets/hostarm.h"
#include "targets/hostarm_remote.h"
#include "hostside/hostside.h"
#include "util/log.h"
#include "targets/sql.h"

#include <math.h>

#define MiB (1024u * 1024u)

/* JSON text as an object; the test fails if it does not parse */
static json_object *parse(const char *text)
{
    json_object *o = json_tokener_parse(text);
    if (!o)
        fail_msg("test JSON does not parse: %s", text);
    return o;
}

/* ---- sql_rows_from_reply ---- */

static void rows_valid(void **state)
{
    (void)state;
    json_object *o = parse("{\"vbed_host\":1,\"rows\":[[\"a\\tb\",\"NULL\",\"x\\ny\"],[\"1\",\"\",\"3\"]]}");
    struct sql_result r;
    assert_int_equal(sql_rows_from_reply(o, &r), 0);
    assert_int_equal(r.rows, 2);
    assert_int_equal(r.cols, 3);
    assert_string_equal(sql_cell(&r, 0, 0), "a\tb");
    assert_string_equal(sql_cell(&r, 0, 1), "NULL");
    assert_string_equal(sql_cell(&r, 0, 2), "x\ny");
    assert_string_equal(sql_cell(&r, 1, 0), "1");
    assert_string_equal(sql_cell(&r, 1, 1), "");
    assert_string_equal(sql_cell(&r, 1, 2), "3");
    sql_result_free(&r);
    json_object_put(o);

    /* no rows at all is a valid answer (an UPDATE) */
    o = parse("{\"rows\":[]}");
    assert_int_equal(sql_rows_from_reply(o, &r), 0);
    assert_int_equal(r.rows, 0);
    sql_result_free(&r);
    json_object_put(o);
}

/* reply must be refused, and out left empty */
static void assert_rows_refused(json_object *o, const char *what)
{
    struct sql_result r;
    memset(&r, 0xff, sizeof(r));
    if (sql_rows_from_reply(o, &r) != -1)
        fail_msg("rows with %s were accepted", what);
    if (r.rows != 0 || r.cols != 0 || r.cells != NULL)
        fail_msg("rows with %s were refused, but the result is not empty", what);
}

static void rows_refused(void **state)
{
    (void)state;
    static const struct {
        const char *what, *json;
    } bad[] = {
        {"no rows", "{\"vbed_host\":1}"},
        {"rows an object", "{\"rows\":{}}"},
        {"rows a string", "{\"rows\":\"[]\"}"},
        {"a row a string", "{\"rows\":[[\"1\"],\"2\"]}"},
        {"a row null", "{\"rows\":[null]}"},
        {"a number cell", "{\"rows\":[[\"1\",2]]}"},
        {"a null cell", "{\"rows\":[[\"1\"],[null]]}"},
        {"a second row wider", "{\"rows\":[[\"1\"],[\"2\",\"3\"]]}"},
        {"a second row narrower", "{\"rows\":[[\"1\",\"2\"],[\"3\"]]}"},
        {"a row of 0 cells", "{\"rows\":[[]]}"},
        {"a NUL in a cell", "{\"rows\":[[\"a\\u0000b\"]]}"},
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        json_object *o = parse(bad[i].json);
        assert_rows_refused(o, bad[i].what);
        json_object_put(o);
    }
}

/* {"rows":[[cell x cols]]} */
static json_object *one_row(size_t cols)
{
    json_object *row = json_object_new_array();
    for (size_t c = 0; c < cols; c++)
        json_object_array_add(row, json_object_new_string("c"));
    json_object *rows = json_object_new_array(), *o = json_object_new_object();
    json_object_array_add(rows, row);
    json_object_object_add(o, "rows", rows);
    return o;
}

/* a row of one cell of len bytes ('x') appended to reply's rows */
static void add_row(json_object *reply, size_t len)
{
    char *text = malloc(len + 1);
    assert_non_null(text);
    memset(text, 'x', len);
    json_object *row = json_object_new_array();
    json_object_array_add(row, json_object_new_string_len(text, (int)len));
    json_object_array_add(json_object_object_get(reply, "rows"), row);
    free(text);
}

/* {"rows":[...]}: n rows of one cell of len bytes each */
static json_object *rows_of(size_t n, size_t len)
{
    json_object *o = json_object_new_object();
    json_object_object_add(o, "rows", json_object_new_array());
    for (size_t i = 0; i < n; i++)
        add_row(o, len);
    return o;
}

static void rows_limits(void **state)
{
    (void)state;
    struct sql_result r;
    json_object *o = one_row(64);
    assert_int_equal(sql_rows_from_reply(o, &r), 0);
    assert_int_equal(r.cols, 64);
    sql_result_free(&r);
    json_object_put(o);
    o = one_row(65);
    assert_rows_refused(o, "a row of 65 cells");
    json_object_put(o);

    /* 16 MiB of text in all: 16 cells of 1 MiB; one byte more is too much */
    o = rows_of(16, MiB);
    assert_int_equal(sql_rows_from_reply(o, &r), 0);
    assert_int_equal(r.rows, 16);
    assert_int_equal(strlen(sql_cell(&r, 15, 0)), MiB);
    sql_result_free(&r);
    add_row(o, 1);
    assert_rows_refused(o, "16 MiB + 1 byte of text");
    json_object_put(o);

    o = rows_of(SQL_REMOTE_MAX_ROWS + 1, 0);
    assert_rows_refused(o, "more than SQL_REMOTE_MAX_ROWS rows");
    json_object_put(o);
}

/* ---- hostarm_remote_read_start ---- */

#define ARM "/var/lib/vbed/host/vbed-abc123-host"

/* A real arm-start reply (vbed host arm-start on a 2-CPU host), with key
 * set to the JSON value (NULL: key removed). */
static json_object *start_reply(const char *key, const char *value)
{
    json_object *o = parse("{\"vbed_host\":1,\"dir\":\"" ARM "\",\"datadir\":\"" ARM "/mysql/data\","
                           "\"socket\":\"" ARM "/mysql/mysqld.sock\",\"errlog\":\"" ARM "/mysql/mysqld.err\","
                           "\"lua\":\"" ARM "/vbed_oltp.lua\",\"pid\":4200,\"cpus\":\"0\","
                           "\"confined\":true,\"online_cpus\":2}");
    if (key && value)
        json_object_object_add(o, key, parse(value));
    else if (key)
        json_object_object_del(o, key);
    return o;
}

static void start_valid(void **state)
{
    (void)state;
    json_object *o = start_reply(NULL, NULL);
    struct hostarm h = {0};
    char why[256] = "";
    assert_int_equal(hostarm_remote_read_start(o, ARM, &h, why, sizeof(why)), 0);
    assert_string_equal(h.dir, ARM);
    assert_string_equal(h.datadir, ARM "/mysql/data");
    assert_string_equal(h.socket, ARM "/mysql/mysqld.sock");
    assert_string_equal(h.errlog, ARM "/mysql/mysqld.err");
    assert_string_equal(h.lua, ARM "/vbed_oltp.lua");
    assert_int_equal(h.pid, 4200);
    assert_string_equal(h.cpus, "0");
    assert_true(h.confined);
    assert_int_equal(h.online_cpus, 2);
    json_object_put(o);

    /* unconfined: no cpuset */
    o = start_reply("cpus", "\"\"");
    json_object_object_add(o, "confined", json_object_new_boolean(0));
    memset(&h, 0, sizeof(h));
    assert_int_equal(hostarm_remote_read_start(o, ARM, &h, why, sizeof(why)), 0);
    assert_string_equal(h.cpus, "");
    assert_false(h.confined);
    json_object_put(o);
}

static void start_refused(void **state)
{
    (void)state;
    static const struct {
        const char *key, *value, *why; /* why: the reason names this */
    } bad[] = {
        {"dir", "\"/var/lib/vbed/host/vbed-other1-host\"", "another directory"},
        {"dir", NULL, "'dir'"},
        {"datadir", "\"data\"", "'datadir'"},
        {"socket", "\"" ARM "/mysql/mysqld.sock\\n\"", "'socket'"},
        {"errlog", "\"" ARM "/mysql/mysqld\\u0001.err\"", "'errlog'"},
        /* absolute and printable, but not the arm's own path */
        {"datadir", "\"" ARM "/data\"", "'datadir'"},
        {"datadir", "\"/var/lib/mysql\"", "'datadir'"},
        {"socket", "\"/run/mysqld/mysqld.sock\"", "'socket'"},
        {"socket", "\"" ARM "/mysqld.sock\"", "'socket'"},
        {"socket", "\"/var/lib/vbed/host/vbed-other1-host/mysql/mysqld.sock\"", "'socket'"},
        {"errlog", "\"/etc/shadow\"", "'errlog'"},
        {"errlog", "\"" ARM "/mysql/../../../../etc/shadow\"", "'errlog'"},
        {"lua", "\"" ARM "/mysql/vbed_oltp.lua\"", "'lua'"},
        {"lua", "\"/tmp/vbed_oltp.lua\"", "'lua'"},
        {"lua", "\"" ARM "/vbed_oltp.lua\\u0000x\"", "'lua'"},
        {"lua", "7", "'lua'"},
        {"pid", "0", "'pid'"},
        {"pid", "4194305", "'pid'"},
        {"pid", "-1", "'pid'"},
        {"pid", "\"4200\"", "'pid'"},
        {"pid", "4200.5", "'pid'"},
        {"pid", NULL, "'pid'"},
        {"cpus", "\"0;rm -rf /\"", "'cpus'"},
        {"cpus", "\"0-a\"", "'cpus'"},
        {"cpus", "0", "'cpus'"},
        {"confined", "\"true\"", "'confined'"},
        {"confined", "1", "'confined'"},
        {"confined", NULL, "'confined'"},
        {"online_cpus", "0", "'online_cpus'"},
        {"online_cpus", "\"2\"", "'online_cpus'"},
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        json_object *o = start_reply(bad[i].key, bad[i].value);
        struct hostarm h = {0};
        char why[256] = "";
        if (hostarm_remote_read_start(o, ARM, &h, why, sizeof(why)) != -1)
            fail_msg("an arm-start reply with %s = %s was accepted", bad[i].key,
                     bad[i].value ? bad[i].value : "(none)");
        if (!strstr(why, bad[i].why))
            fail_msg("%s = %s: the reason '%s' does not name %s", bad[i].key,
                     bad[i].value ? bad[i].value : "(none)", why, bad[i].why);
        json_object_put(o);
    }
    /* the largest pid Linux hands out is fine */
    json_object *o = start_reply("pid", "4194304");
    struct hostarm h = {0};
    char why[256];
    assert_int_equal(hostarm_remote_read_start(o, ARM, &h, why, sizeof(why)), 0);
    assert_int_equal(h.pid, 4194304);
    json_object_put(o);
}

/* a path of the reply longer than anything the arm has: an error naming
 * it, never a crash (main took a 3000-byte socket, and vbed aborted later
 * copying it into sysbench's command line) */
static void start_long_paths(void **state)
{
    (void)state;
    static const char *const keys[] = {"dir", "datadir", "socket", "errlog", "lua"};
    static const size_t lens[] = {200, 3000, PATH_MAX - 1, PATH_MAX, 100000};
    for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
        for (size_t n = 0; n < sizeof(lens) / sizeof(lens[0]); n++) {
            char *value = malloc(lens[n] + 1);
            assert_non_null(value);
            memcpy(value, ARM "/", strlen(ARM) + 1);
            memset(value + strlen(ARM) + 1, 'a', lens[n] - strlen(ARM) - 1);
            value[lens[n]] = '\0';
            json_object *o = start_reply(NULL, NULL);
            json_object_object_add(o, keys[k], json_object_new_string(value));
            struct hostarm h = {0};
            char why[256] = "", want[64];
            snprintf(want, sizeof(want), "'%s'", keys[k]);
            if (hostarm_remote_read_start(o, ARM, &h, why, sizeof(why)) != -1)
                fail_msg("an arm-start reply with a %zu-byte '%s' was accepted", lens[n], keys[k]);
            if (!strstr(why, want) && !(k == 0 && strstr(why, "another directory")))
                fail_msg("a %zu-byte '%s': the reason '%s' does not name it", lens[n], keys[k], why);
            json_object_put(o);
            free(value);
        }
    /* asked for a directory too long to be an arm's: refused before any field is read */
    char dir[256];
    snprintf(dir, sizeof(dir), "/%0150d/host/vbed-abc123-host", 0);
    json_object *o = start_reply(NULL, NULL);
    struct hostarm h = {0};
    char why[256] = "";
    assert_int_equal(hostarm_remote_read_start(o, dir, &h, why, sizeof(why)), -1);
    assert_non_null(strstr(why, "at most"));
    json_object_put(o);
}

/* ---- the size of a reply (hostside_reply_read) ---- */

static void reply_size(void **state)
{
    (void)state;
    char err[256];
    const char *text = "{\"vbed_host\":1,\"arms\":[]}";
    size_t len = strlen(text);
    json_object *o = hostside_reply_read(text, len, len, err, sizeof(err));
    assert_non_null(o);
    json_object_put(o);
    /* one byte over the cap: refused without being parsed */
    assert_null(hostside_reply_read(text, len, len - 1, err, sizeof(err)));
    assert_non_null(strstr(err, "larger than"));
    /* a valid reply, then a NUL and more: refused, not cut at the NUL */
    const char padded[] = "{\"vbed_host\":1}\0garbage";
    assert_null(hostside_reply_read(padded, sizeof(padded) - 1, 1024, err, sizeof(err)));
    assert_non_null(strstr(err, "NUL"));
    /* padded with blanks (valid JSON) past the cap: refused */
    size_t big = (size_t)1 << 20;
    char *pad = malloc(big + 1);
    assert_non_null(pad);
    memset(pad, ' ', big);
    memcpy(pad, text, len);
    pad[big] = '\0';
    assert_null(hostside_reply_read(pad, big, big / 2, err, sizeof(err)));
    o = hostside_reply_read(pad, big, big, err, sizeof(err));
    assert_non_null(o);
    json_object_put(o);
    free(pad);
}

/* ---- the helper's stderr on a terminal (log_sanitize) ---- */

static void stderr_sanitized(void **state)
{
    (void)state;
    static const struct {
        const char *in, *out;
    } cases[] = {
        {"plain text, tab\there", "plain text, tab\there"},
        {"\033]0;owned\007\033[2Jred", "\\x1b]0;owned\\x07\\x1b[2Jred"},
        {"cr\rback", "cr\\x0dback"},
        {"del\x7f", "del\\x7f"},
        {"utf-8 \xc3\xa9t\xc3\xa9 \xe2\x82\xac", "utf-8 \xc3\xa9t\xc3\xa9 \xe2\x82\xac"},
        /* C1 controls: U+009B is a CSI to some terminals; a raw 0x9b too */
        {"c1 \xc2\x9b" "2J", "c1 \\xc2\\x9b2J"},
        {"raw \x9b" "2J", "raw \\x9b2J"},
        /* overlong and cut sequences */
        {"\xc0\xafx", "\\xc0\\xafx"},
        {"\xe2\x82", "\\xe2\\x82"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char buf[256];
        log_sanitize(cases[i].in, strlen(cases[i].in), buf, sizeof(buf));
        if (strcmp(buf, cases[i].out) != 0)
            fail_msg("case %zu: '%s', expected '%s'", i, buf, cases[i].out);
    }
    /* a NUL in the text, and a buffer too small: always terminated, no escape cut in half */
    char buf[7];
    log_sanitize("ab\0cd\033", 6, buf, sizeof(buf));
    assert_string_equal(buf, "ab\\x00");
}

/* hostarm_remote_start passes the arm's own h->dir as dir: a reply naming
 * another directory must still be refused, and h must keep the directory
 * asked for (the arm-stop after the refusal goes there, not elsewhere). */
static void start_other_dir_in_place(void **state)
{
    (void)state;
    json_object *o = start_reply("dir", "\"/var/lib/vbed/host/vbed-other1-host\"");
    struct hostarm h = {0};
    snprintf(h.dir, sizeof(h.dir), "%s", ARM);
    h.pid = -1;
    char why[256] = "";
    assert_int_equal(hostarm_remote_read_start(o, h.dir, &h, why, sizeof(why)), -1);
    assert_non_null(strstr(why, "another directory"));
    assert_string_equal(h.dir, ARM);
    assert_int_equal(h.pid, -1);
    json_object_put(o);

    /* any refusal leaves h as it was */
    o = start_reply("pid", "0");
    struct hostarm before = {0}, after = {0};
    snprintf(before.dir, sizeof(before.dir), "%s", ARM);
    after = before;
    assert_int_equal(hostarm_remote_read_start(o, after.dir, &after, why, sizeof(why)), -1);
    assert_memory_equal(&before, &after, sizeof(before));
    json_object_put(o);
}

/* fuzz_hostside found the same against the code before the fix: a real
 * arm-start reply whose "dir" names another arm; kept as a reproducer */
static void start_other_dir_fuzzed(void **state)
{
    (void)state;
    char path[PATH_MAX], err[256], why[256] = "";
    test_data_path(path, sizeof(path), "../fuzz/crashes/hostside-arm-start-other-dir");
    char *crash = test_read_file(path);
    assert_non_null(crash);
    json_object *o = hostside_reply_parse(crash, err, sizeof(err));
    assert_non_null(o);
    struct hostarm h = {0};
    snprintf(h.dir, sizeof(h.dir), "%s", "/tmp/vbed-fuzzseed/host/vbed-fuzz01-host");
    assert_int_equal(hostarm_remote_read_start(o, h.dir, &h, why, sizeof(why)), -1);
    assert_string_equal(h.dir, "/tmp/vbed-fuzzseed/host/vbed-fuzz01-host");
    json_object_put(o);
    free(crash);
}

/* ---- hostarm_remote_read_status ---- */

static void status_unknown(void **state)
{
    (void)state;
    static const char *const replies[] = {
        "{\"vbed_host\":1}",
        "{\"server_cpu_us\":-1,\"programs_cpu_us\":-5,\"read_bytes\":-1,\"write_bytes\":-1,"
        "\"resident_bytes\":-1}",
        "{\"server_cpu_us\":\"1500000\",\"programs_cpu_us\":1.5,\"read_bytes\":true,"
        "\"write_bytes\":null,\"resident_bytes\":[4096]}",
        "{\"server_cpu_us\":9007199254740992,\"programs_cpu_us\":9007199254740993,"
        "\"read_bytes\":18446744073709551615,\"write_bytes\":1e6,\"resident_bytes\":{}}",
    };
    for (size_t i = 0; i < sizeof(replies) / sizeof(replies[0]); i++) {
        json_object *o = parse(replies[i]);
        struct hostarm_status st = {.server_cpu_s = 7, .programs_cpu_s = 7, .read_bytes = 7,
                                    .write_bytes = 7, .resident_bytes = 7};
        hostarm_remote_read_status(o, &st);
        if (st.server_cpu_s != -1 || st.programs_cpu_s != 0 || !isnan(st.read_bytes) ||
            !isnan(st.write_bytes) || st.resident_bytes != -1)
            fail_msg("%s: read as %g %g %g %g %lld, not as unknown", replies[i], st.server_cpu_s,
                     st.programs_cpu_s, st.read_bytes, st.write_bytes, st.resident_bytes);
        json_object_put(o);
    }
}

static void status_valid(void **state)
{
    (void)state;
    json_object *o = parse("{\"vbed_host\":1,\"server_cpu_us\":1500000,\"programs_cpu_us\":250000,"
                           "\"read_bytes\":2969600,\"write_bytes\":0,\"resident_bytes\":1048576}");
    struct hostarm_status st;
    hostarm_remote_read_status(o, &st);
    assert_true(st.server_cpu_s == 1.5);
    assert_true(st.programs_cpu_s == 0.25);
    assert_true(st.read_bytes == 2969600);
    assert_true(st.write_bytes == 0);
    assert_int_equal(st.resident_bytes, 1048576);
    json_object_put(o);
}

/* ---- hostarm_dir_check ---- */

static void dir_accepted(void **state)
{
    (void)state;
    char why[256];
    const char *good[] = {ARM, "/var/lib/vbed/host/vbed-abc123-h", "/host/vbed-x-1",
                          "/srv/my.pool/host/vbed-abcdefghijkl-host", NULL};
    for (size_t i = 0; good[i]; i++)
        if (hostarm_dir_check(good[i], why, sizeof(why)) != 0)
            fail_msg("'%s' was refused: %s", good[i], why);
}

static void dir_refused(void **state)
{
    (void)state;
    const char *bad[] = {"", "/", "host/vbed-abc123-host", "var/lib/vbed/host/vbed-abc123-host",
                         "./host/vbed-abc123-host",
                         "/var/lib/vbed/./host/vbed-abc123-host",
                         "/var/lib/vbed/pool/../host/vbed-abc123-host",
                         "/var/lib/vbed//host/vbed-abc123-host",
                         "/var/lib/vbed/host//vbed-abc123-host",
                         ARM "/", ARM "/.", ARM "/..", "/var/lib/vbed/host/.", "/var/lib/vbed/host/..",
                         "/var/lib/vbed/host/mysql", "/var/lib/vbed/host/vbed-abc123",
                         "/var/lib/vbed/host/vbed--host", "/var/lib/vbed/host/vbed-abcdefghijklm-host",
                         "/var/lib/vbed/host/vbed-probe-x-1", "/var/lib/vbed/host/xvbed-abc123-host",
                         "/var/lib/vbed/pool/vbed-abc123-host", "/var/lib/vbed/myhost/vbed-abc123-host",
                         "/var/lib/vbed/host.old/vbed-abc123-host", "/vbed-abc123-host", NULL};
    for (size_t i = 0; bad[i]; i++) {
        char why[256] = "";
        if (hostarm_dir_check(bad[i], why, sizeof(why)) != -1)
            fail_msg("'%s' was accepted", bad[i]);
        if (why[0] == '\0')
            fail_msg("'%s' was refused without a reason", bad[i]);
    }
}

/* /aaa.../host/vbed-abc123-host of exactly len bytes */
static void long_dir(char *buf, size_t len)
{
    const char *tail = "/host/vbed-abc123-host";
    size_t pad = len - strlen(tail);
    buf[0] = '/';
    memset(buf + 1, 'a', pad - 1);
    for (size_t i = 200; i < pad; i += 200)
        buf[i] = '/'; /* components of a legal length */
    snprintf(buf + pad, len - pad + 1, "%s", tail);
    assert_int_equal(strlen(buf), len);
}

static void dir_length(void **state)
{
    (void)state;
    /* its socket, DIR/mysql/mysqld.sock, must fit a unix socket address */
    char dir[PATH_MAX + 64], why[256] = "";
    long_dir(dir, HOSTARM_DIR_MAX);
    if (hostarm_dir_check(dir, why, sizeof(why)) != 0)
        fail_msg("a path of HOSTARM_DIR_MAX bytes was refused: %s", why);
    assert_true(strlen(dir) + strlen("/mysql/mysqld.sock") <= 107);
    long_dir(dir, HOSTARM_DIR_MAX + 1);
    assert_int_equal(hostarm_dir_check(dir, why, sizeof(why)), -1);
    assert_non_null(strstr(why, "absolute path of at most"));
    long_dir(dir, 1000);
    assert_int_equal(hostarm_dir_check(dir, why, sizeof(why)), -1);
    long_dir(dir, PATH_MAX + 32);
    assert_int_equal(hostarm_dir_check(dir, why, sizeof(why)), -1);
    assert_non_null(strstr(why, "absolute path of at most"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rows_valid),
        cmocka_unit_test(rows_refused),
        cmocka_unit_test(rows_limits),
        cmocka_unit_test(start_valid),
        cmocka_unit_test(start_refused),
        cmocka_unit_test(start_long_paths),
        cmocka_unit_test(reply_size),
        cmocka_unit_test(stderr_sanitized),
        cmocka_unit_test(start_other_dir_in_place),
        cmocka_unit_test(start_other_dir_fuzzed),
        cmocka_unit_test(status_unknown),
        cmocka_unit_test(status_valid),
        cmocka_unit_test(dir_accepted),
        cmocka_unit_test(dir_refused),
        cmocka_unit_test(dir_length),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
