/* protocol.c: the replies of `vbed host`: written by the helper on a
 * hypervisor host, read here as hostile input (see hostside.h). */
#include "hostside/hostside.h"
#include "util/termtext.h"

#include "util/xalloc.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

json_object *hostside_reply_new(void)
{
    json_object *o = json_object_new_object();
    json_object_object_add(o, "vbed_host", json_object_new_int(HOSTSIDE_PROTOCOL));
    return o;
}

int hostside_reply_print(json_object *o)
{
    printf("%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
    json_object_put(o);
    return fflush(stdout) == 0 ? 0 : -1;
}

json_object *hostside_reply_read(const char *text, size_t len, size_t max, char *err, size_t errlen)
{
    if (len > max) {
        snprintf(err, errlen, "larger than %zu bytes", max);
        return NULL;
    }
    if (memchr(text, '\0', len)) {
        snprintf(err, errlen, "not JSON (it holds a NUL byte)");
        return NULL;
    }
    return hostside_reply_parse(text, err, errlen);
}

json_object *hostside_reply_parse(const char *text, char *err, size_t errlen)
{
    enum json_tokener_error jerr = json_tokener_success;
    json_object *o = json_tokener_parse_verbose(text, &jerr);
    json_object *p;
    if (!o) {
        snprintf(err, errlen, "not JSON (%s)", json_tokener_error_desc(jerr));
        return NULL;
    }
    if (!json_object_is_type(o, json_type_object) || !json_object_object_get_ex(o, "vbed_host", &p) ||
        !json_object_is_type(p, json_type_int) || json_object_get_int64(p) != HOSTSIDE_PROTOCOL) {
        snprintf(err, errlen, "not a reply of vbed host (protocol %d)", HOSTSIDE_PROTOCOL);
        json_object_put(o);
        return NULL;
    }
    return o;
}

int hostside_reply_string(json_object *o, const char *key, char *buf, size_t max)
{
    json_object *v;
    if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
        return -1;
    const char *s = json_object_get_string(v);
    size_t len = (size_t)json_object_get_string_len(v);
    if (len >= max || strlen(s) != len)
        return -1;
    for (size_t i = 0; i < len; i++)
        if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
            return -1;
    /* nothing a terminal could act on either: C1 controls (U+009B is a CSI
     * on many terminals), the invisible characters that reorder text
     * (U+202E), bytes that are not UTF-8 -- what termtext would escape */
    char *shown = termtext_escape(s, 0);
    bool plain = !strcmp(shown, s);
    free(shown);
    if (!plain)
        return -1;
    memcpy(buf, s, len + 1);
    return 0;
}

char *hostside_reply_text(json_object *o, const char *key)
{
    json_object *v;
    if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
        return NULL;
    size_t len = (size_t)json_object_get_string_len(v);
    const char *s = json_object_get_string(v);
    if (len > (1u << 20) || strlen(s) != len)
        return NULL;
    return xstrdup(s);
}

int hostside_reply_uint(json_object *o, const char *key, long long *out)
{
    json_object *v;
    if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_int))
        return -1;
    errno = 0;
    int64_t x = json_object_get_int64(v);
    if (errno || x < 0 || x >= (1LL << 53))
        return -1;
    *out = (long long)x;
    return 0;
}
