/* fuzz_hostside.c: a reply of `vbed host` on another host (hostile input)
 * through hostside.c's reader, and the /proc text it carries through
 * layers.c's parsers, as hostside.c does with a real reply. */
#include "fuzz.h"
#include "hostside.h"
#include "layers.h"

#include <stdlib.h>

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_quiet();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    char err[256], buf[64];
    long long v;
    double d;
    struct diskstat ds;
    json_object *o = hostside_reply_parse(text, err, sizeof(err));
    if (o) {
        hostside_reply_string(o, "version", buf, sizeof(buf));
        hostside_reply_uint(o, "bytes", &v);
        hostside_reply_uint(o, "major", &v);
        char *t = hostside_reply_text(o, "meminfo");
        if (t) {
            layers_parse_meminfo(t, "MemTotal", &d);
            layers_parse_meminfo(t, "Cached", &d);
        }
        free(t);
        t = hostside_reply_text(o, "diskstats");
        if (t)
            layers_parse_diskstats(t, NULL, 254, 0, &ds);
        free(t);
        json_object_put(o);
    }
    free(text);
    return 0;
}
