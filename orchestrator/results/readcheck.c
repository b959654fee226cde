/* readcheck.c: the checks every value read back from a results directory
 * passes, because a results directory is hostile input (see resultsread.h):
 * the public name checks (an arm name, a variant label, labels.host), the
 * shared ones of readcheck.h (printable text, words, sets, a value quoted
 * for a message), and json-c accessors that never trust a member's type or
 * range. readmeta.c and readsamples.c use them; this file owns no state. */
#include "results/readcheck.h"
#include "results/resultsread.h"
#include "util/xalloc.h"

#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *results_grow(void *p, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return p;
    size_t n = *cap ? *cap * 2 : 16;
    while (n < need)
        n *= 2;
    p = xrealloc(p, n * size);
    *cap = n;
    return p;
}

/* ---- checks: everything read here is hostile input ---- */

const char *results_shown(char *buf, size_t len, const char *value)
{
    size_t o = 0;
    for (const unsigned char *p = (const unsigned char *)value; *p && o + 8 < len; p++) {
        if (o > 80) {
            o += (size_t)snprintf(buf + o, len - o, "...");
            break;
        }
        if (*p == '\n')
            o += (size_t)snprintf(buf + o, len - o, "\\n");
        else if (*p < 0x20 || *p == 0x7f || *p == '\\')
            o += (size_t)snprintf(buf + o, len - o, "\\x%02x", *p);
        else
            buf[o++] = (char)*p;
    }
    buf[o < len ? o : len - 1] = '\0';
    return buf;
}

bool results_valid_arm_name(const char *s)
{
    size_t n = strlen(s);
    if (n < 1 || n > RESULTS_ARM_NAME_MAX)
        return false;
    for (; *s; s++)
        if (!(*s >= 'a' && *s <= 'z') && !(*s >= '0' && *s <= '9') && *s != '_')
            return false;
    return true;
}

bool results_valid_variant_label(const char *s)
{
    size_t n = strlen(s);
    if (n < 1 || n > RESULTS_LABEL_MAX)
        return false;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && !strchr(" ._-/=+:,", *s))
            return false;
    return true;
}

bool results_valid_host_label(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n > 255)
        return false;
    for (; *s; s++)
        if (*s <= ' ' || *s > '~' || strchr("\"'|<>`\\", *s))
            return false;
    return true;
}

bool results_valid_text(const char *s, size_t max)
{
    if (strlen(s) > max)
        return false;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if (*p < 0x20 || *p == 0x7f)
            return false;
    return true;
}

bool results_valid_word(const char *s, size_t max, const char *extra)
{
    size_t n = strlen(s);
    if (n < 1 || n > max)
        return false;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && !strchr(extra, *s))
            return false;
    return true;
}

bool results_one_of(const char *s, const char *const *set)
{
    if (!*s)
        return true;
    for (; *set; set++)
        if (!strcmp(s, *set))
            return true;
    return false;
}

const char *const results_accels[] = {"kvm", "tcg", "none", "unknown", NULL};
const char *const results_kinds[] = {"host", "guest", NULL};

void results_set_list(char *buf, size_t len, const char *const *set)
{
    size_t o = 0;
    buf[0] = '\0';
    for (size_t i = 0; set[i] && o < len; i++)
        o += (size_t)snprintf(buf + o, len - o, "%s%s", i ? ", " : "", set[i]);
}

/* ---- json-c accessors ---- */

struct json_object *results_member(struct json_object *obj, const char *key)
{
    struct json_object *v = NULL;
    if (!obj || !json_object_is_type(obj, json_type_object) ||
        !json_object_object_get_ex(obj, key, &v))
        return NULL;
    return v;
}

char *results_str_of(struct json_object *obj, const char *key)
{
    struct json_object *v = results_member(obj, key);
    if (!v || !json_object_is_type(v, json_type_string))
        return xstrdup("");
    return xstrdup(json_object_get_string(v));
}

bool results_int_of(struct json_object *obj, const char *key, long long lo, long long hi, int def,
                    int *out)
{
    struct json_object *v = results_member(obj, key);
    *out = def;
    if (!v)
        return true;
    double d;
    if (json_object_is_type(v, json_type_int)) {
        int64_t i = json_object_get_int64(v);
        if (i < lo || i > hi)
            return false;
        *out = (int)i;
        return true;
    }
    if (!json_object_is_type(v, json_type_double))
        return false;
    d = json_object_get_double(v);
    if (!isfinite(d) || d != floor(d) || d < (double)lo || d > (double)hi)
        return false;
    *out = (int)d;
    return true;
}

bool results_is_number(struct json_object *v)
{
    return json_object_is_type(v, json_type_double) || json_object_is_type(v, json_type_int) ||
           json_object_is_type(v, json_type_boolean);
}

bool results_ints_of(struct json_object *obj, const char *key, int **out, size_t *n)
{
    struct json_object *arr = results_member(obj, key);
    *out = NULL;
    *n = 0;
    if (!arr)
        return true;
    if (!json_object_is_type(arr, json_type_array) ||
        json_object_array_length(arr) > RESULTS_MAX_VARIANTS)
        return false;
    size_t len = json_object_array_length(arr);
    if (len == 0)
        return true;
    int *v = xcalloc(len, sizeof(int));
    for (size_t i = 0; i < len; i++) {
        struct json_object *e = json_object_array_get_idx(arr, i);
        int64_t x = json_object_is_type(e, json_type_int) ? json_object_get_int64(e) : 0;
        if (x < 1 || x > RESULTS_MAX_VARIANTS) {
            free(v);
            return false;
        }
        v[i] = (int)x;
    }
    *out = v;
    *n = len;
    return true;
}
