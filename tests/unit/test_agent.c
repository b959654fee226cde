/* test_agent.c: decoding the guest agent's replies (guest-exec-status,
 * guest-file-read) and their base64. A reply is input from a guest: bad
 * base64 ("====" used to underflow the length and write before the buffer),
 * members of the wrong type and replies without "return" must give -1, never
 * a crash. The replies under tests/data/agent are also the fuzz seeds. */
#include "testutil.h"
#include "virt/agent.h"

static void decode(const char *in, int want_rc, const char *want)
{
    char *out = NULL;
    size_t len = 99;
    int rc = agent_base64_decode(in, strlen(in), &out, &len);
    if (rc != want_rc)
        fail_msg("'%s': rc %d, expected %d", in, rc, want_rc);
    if (rc == 0) {
        assert_int_equal(len, strlen(want));
        assert_memory_equal(out, want, len);
        assert_int_equal(out[len], '\0');
    } else {
        assert_null(out);
        assert_int_equal(len, 0);
    }
    free(out);
}

static void base64(void **state)
{
    (void)state;
    decode("", 0, "");
    decode("QQ==", 0, "A");
    decode("QUI=", 0, "AB");
    decode("QUJD", 0, "ABC");
    decode("QUJD\nREVG\n", 0, "ABCDEF"); /* line breaks are allowed */
    decode("====", -1, NULL);
    decode("=", -1, NULL);
    decode("Q===", -1, NULL);
    decode("QQ", -1, NULL);       /* truncated */
    decode("QUJDRA=", -1, NULL);  /* truncated padding */
    decode("QQ==QQ==", -1, NULL); /* data after the padding */
    decode("@@@@", -1, NULL);
    /* binary output keeps its NUL bytes */
    char *out;
    size_t len;
    assert_int_equal(agent_base64_decode("AAEA", 4, &out, &len), 0);
    assert_int_equal(len, 3);
    assert_memory_equal(out, "\0\1\0", 3);
    free(out);
}

static char *fixture(const char *name)
{
    char path[PATH_MAX];
    snprintf(path, sizeof(path), "%s/agent/%s", test_data_dir(), name);
    char *text = test_read_file(path);
    assert_non_null(text);
    return text;
}

static void exec_status(void **state)
{
    (void)state;
    struct agent_result r;
    bool exited;
    char *reply = fixture("exec-status-exited.json");
    assert_int_equal(agent_decode_exec_status(reply, &exited, &r), 0);
    free(reply);
    assert_true(exited);
    assert_int_equal(r.exitcode, 0);
    assert_string_equal(r.out, "sysbench 1.0.20\n");
    assert_int_equal(r.out_len, 16);
    assert_string_equal(r.err, "");
    agent_result_free(&r);

    reply = fixture("exec-status-failed.json");
    assert_int_equal(agent_decode_exec_status(reply, &exited, &r), 0);
    free(reply);
    assert_int_equal(r.exitcode, 1);
    assert_string_equal(r.err, "ERROR 2002 (HY000): Can't connect\n");
    agent_result_free(&r);

    reply = fixture("exec-status-killed.json");
    assert_int_equal(agent_decode_exec_status(reply, &exited, &r), 0);
    free(reply);
    assert_true(exited);
    assert_int_equal(r.exitcode, -1);
    assert_int_equal(r.signal, 9);
    agent_result_free(&r);

    reply = fixture("exec-status-running.json");
    assert_int_equal(agent_decode_exec_status(reply, &exited, &r), 0);
    free(reply);
    assert_false(exited);
    assert_null(r.out);
}

static void exec_status_hostile(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "{\"return\": {\"exited\": true, \"out-data\": \"====\"}}",
        "{\"return\": {\"exited\": true, \"out-data\": null}}",
        "{\"return\": {\"exited\": true, \"err-data\": 42}}",
        "{\"return\": {\"exited\": true, \"out-data\": {\"a\": 1}}}",
        "{\"return\": [1, 2]}",
        "{\"return\": \"yes\"}",
        "{\"error\": {\"class\": \"GenericError\", \"desc\": \"no such pid\"}}",
        "[]",
        "",
        "{\"return\": {\"exited\": true, \"out-data\": \"QQ==\"",
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        struct agent_result r;
        bool exited;
        if (agent_decode_exec_status(bad[i], &exited, &r) != -1)
            fail_msg("accepted: %s", bad[i]);
        assert_null(r.out);
        assert_null(r.err);
    }
}

static void file_read(void **state)
{
    (void)state;
    char *data;
    size_t len;
    bool eof;
    char *reply = fixture("file-read.json");
    assert_int_equal(agent_decode_file_read(reply, &data, &len, &eof), 0);
    free(reply);
    assert_true(eof);
    assert_string_equal(data, "[mysqld]\nuser\n");
    free(data);
    assert_int_equal(agent_decode_file_read("{\"return\": {\"buf-b64\": \"====\", \"eof\": true}}",
                                            &data, &len, &eof),
                     -1);
    free(data);
    assert_int_equal(agent_decode_file_read("{\"return\": {\"buf-b64\": null}}", &data, &len, &eof),
                     -1);
    free(data);
}

/* guest-file-write's count: what the agent wrote, never a negative, huge
 * or non-integer count */
static void file_write(void **state)
{
    (void)state;
    size_t n = 7;
    assert_int_equal(agent_decode_file_write("{\"return\": {\"count\": 1048576, \"eof\": false}}", &n), 0);
    assert_int_equal(n, 1048576);
    assert_int_equal(agent_decode_file_write("{\"return\": {\"count\": 0}}", &n), 0);
    assert_int_equal(n, 0);
    const char *bad[] = {"{\"return\": {\"count\": -1}}", "{\"return\": {\"count\": 4294967296}}",
                         "{\"return\": {\"count\": \"12\"}}", "{\"return\": {\"count\": 1.5}}",
                         "{\"return\": {}}", "{\"return\": 12}", "{\"error\": {}}", "", "{", NULL};
    for (size_t i = 0; bad[i]; i++) {
        n = 7;
        assert_int_equal(agent_decode_file_write(bad[i], &n), -1);
        assert_int_equal(n, 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(base64),
        cmocka_unit_test(exec_status),
        cmocka_unit_test(exec_status_hostile),
        cmocka_unit_test(file_read),
        cmocka_unit_test(file_write),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
