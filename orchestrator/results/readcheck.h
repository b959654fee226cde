/* readcheck.h: the checks and typed json-c accessors that the readers of a
 * results directory (readmeta.c, readsamples.c) share: everything they read
 * is hostile input. Internal to results/. (This header includes no
 * resultsread.h; the public name checks, results_valid_*(), are declared
 * there and defined in readcheck.c.) */
#ifndef VBED_RESULTS_READCHECK_H
#define VBED_RESULTS_READCHECK_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stddef.h>

/* p grown (xrealloc) to hold at least need elements of size; *cap updated. */
void *results_grow(void *p, size_t *cap, size_t need, size_t size);

/* value, quoted for a message: control characters escaped, at most ~80
 * characters shown. Returns buf. */
const char *results_shown(char *buf, size_t len, const char *value);

/* Printable text (UTF-8 allowed) of at most max bytes. */
bool results_valid_text(const char *s, size_t max);
/* Letters, digits and the characters of extra; 0 < length <= max. */
bool results_valid_word(const char *s, size_t max, const char *extra);
/* One of a NULL-terminated set, or "" (absent). */
bool results_one_of(const char *s, const char *const *set);
/* "a, b, c": the set as a list for a message. */
void results_set_list(char *buf, size_t len, const char *const *set);

/* The sets both files check against: accel ("kvm", "tcg", "none",
 * "unknown") and arm kind ("host", "guest"). */
extern const char *const results_accels[];
extern const char *const results_kinds[];

/* A member of obj, NULL when absent or obj is not an object. */
struct json_object *results_member(struct json_object *obj, const char *key);
/* A string member of obj, "" when absent or not a string (malloc'd). */
char *results_str_of(struct json_object *obj, const char *key);
/* An integral member in [lo, hi] into *out (def when absent or null).
 * false if present but not such a number. */
bool results_int_of(struct json_object *obj, const char *key, long long lo, long long hi, int def,
                    int *out);
/* A number (or a boolean, which json-c reads as 0 or 1). */
bool results_is_number(struct json_object *v);
/* An array of integers in [1, RESULTS_MAX_VARIANTS] (labels.variants,
 * runs[].variants) into *out (malloc'd, NULL when empty or absent). false
 * if it is not such an array. */
bool results_ints_of(struct json_object *obj, const char *key, int **out, size_t *n);

#endif
