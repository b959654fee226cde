/* test_agent_read.c: agent_read_file never returns more than its max, even
 * from a guest that sends more than it was asked for. The guest agent is
 * played here: this file defines virDomainQemuAgentCommand, which the test
 * binary's own symbol makes the one libvirt's callers reach. Its
 * guest-file-read answers 100,000 bytes a read whatever the count -- the
 * reader used to stop only after a read had passed max (a 4,096-byte read
 * returned 300,000 bytes). */
#include "testutil.h"
#include "virt/agent.h"

#include <json-c/json.h>
#include <libvirt/libvirt-qemu.h>
#include <stdlib.h>
#include <string.h>

#define CHUNK 100000
static int reads, last_count;

static char *b64_chunk(void)
{
    static const char abc[] = "QUFB"; /* "AAA" */
    size_t n = CHUNK / 3 * 4;
    char *s = malloc(n + 1);
    for (size_t i = 0; i < n; i += 4)
        memcpy(s + i, abc, 4);
    s[n] = '\0';
    return s;
}

char *virDomainQemuAgentCommand(virDomainPtr domain, const char *cmd, int timeout, unsigned int flags)
{
    (void)domain, (void)timeout, (void)flags;
    json_object *c = json_tokener_parse(cmd);
    const char *what = json_object_get_string(json_object_object_get(c, "execute"));
    char *reply;
    if (!strcmp(what, "guest-file-open")) {
        reply = strdup("{\"return\": 7}");
    } else if (!strcmp(what, "guest-file-read")) {
        json_object *args = json_object_object_get(c, "arguments");
        last_count = json_object_get_int(json_object_object_get(args, "count"));
        reads++;
        char *b = b64_chunk();
        size_t len = strlen(b) + 96;
        reply = malloc(len);
        snprintf(reply, len, "{\"return\": {\"count\": %d, \"buf-b64\": \"%s\", \"eof\": %s}}",
                 CHUNK / 3 * 3, b, reads >= 3 ? "true" : "false");
        free(b);
    } else {
        reply = strdup("{\"return\": {}}");
    }
    json_object_put(c);
    return reply;
}

static void never_more_than_max(void **state)
{
    (void)state;
    char *data = NULL;
    size_t len = 0;
    reads = 0;
    assert_int_equal(agent_read_file((virDomainPtr)0x1, "/run/vbed/status", 4096, &data, &len, true), 0);
    assert_int_equal(len, 4096);
    assert_int_equal(reads, 1);
    assert_int_equal(last_count, 4096); /* asked for no more than max */
    assert_int_equal(data[len], '\0');
    free(data);
    /* a max above one read: what is left of it is asked for */
    reads = 0;
    assert_int_equal(agent_read_file((virDomainPtr)0x1, "/x", 150000, &data, &len, true), 0);
    assert_int_equal(len, 150000);
    assert_int_equal(reads, 2);
    assert_int_equal(last_count, 150000 - CHUNK / 3 * 3);
    free(data);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(never_more_than_max),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
