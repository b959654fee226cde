/* fuzz_replies.c: replies of `vbed host` on another host (hostile: that
 * host's root may send anything) through hostside_reply_read and then the
 * readers of each request's figures: version (the version, whether it may
 * drop caches, a boot id of hex digits and '-' only), arm-list (the names
 * vbed clean acts on: no '/', each a vbed name of some session),
 * resident, df and arm-archive (a count), arm-file (a text). */
#include "fuzz.h"
#include "experiment/leftovers.h"
#include "hostside/hostside.h"
#include "results/session.h"

FUZZ_INITIALIZE_QUIET

#define FUZZ_REPLY_MAX (1 << 16)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[256];
    char *text = fuzz_text(data, size); /* as a capture gives it: text[size] is a NUL */
    json_object *r = hostside_reply_read(text, size, FUZZ_REPLY_MAX, err, sizeof(err));
    free(text);
    if (!r)
        return 0;
    char ver[128], boot[64];
    bool drop = true;
    if (hostside_read_version(r, ver, sizeof(ver), &drop, boot, sizeof(boot)) == 0 &&
        strlen(ver) >= sizeof(ver))
        abort();
    if (strspn(boot, "0123456789abcdef-") != strlen(boot))
        abort();
    size_t n = 0;
    char (*names)[256] = leftovers_arm_names(r, &n);
    if (n > LEFTOVERS_ARMS_MAX || (n && !names))
        abort();
    for (size_t i = 0; i < n; i++) {
        char id[SESSION_ID_MAX];
        if (strchr(names[i], '/') || !strcmp(names[i], ".") || !strcmp(names[i], "..") ||
            session_of_name(names[i], id) < 0)
            abort();
    }
    free(names);
    static const char *const counts[] = {"bytes", "free_bytes", "major", "minor"};
    for (size_t i = 0; i < 4; i++) {
        long long v;
        if (hostside_reply_uint(r, counts[i], &v) == 0 && v < 0)
            abort();
    }
    free(hostside_reply_text(r, "text"));
    json_object_put(r);
    return 0;
}
