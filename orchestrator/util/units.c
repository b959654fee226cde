/* units.c: parse and format sizes and durations. */
#include "util/units.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* number, then an optional suffix from the table; no sign, no fraction */
static int parse_scaled(const char *text, const char *const *suffixes, const long long *scales,
                        long long *out)
{
    if (!text || !isdigit((unsigned char)text[0]))
        return -1;
    errno = 0;
    char *end;
    unsigned long long n = strtoull(text, &end, 10);
    if (errno == ERANGE)
        return -1;
    for (size_t i = 0; suffixes[i]; i++) {
        if (strcasecmp(end, suffixes[i]) == 0) {
            if (scales[i] != 0 && n > (unsigned long long)LLONG_MAX / (unsigned long long)scales[i])
                return -1;
            *out = (long long)n * scales[i];
            return 0;
        }
    }
    return -1;
}

int parse_size(const char *text, long long *bytes)
{
    static const char *const sfx[] = {"", "B", "K", "KB", "KiB", "M", "MB", "MiB",
                                      "G", "GB", "GiB", "T", "TB", "TiB", NULL};
    static const long long k = 1024;
    static const long long scale[] = {1,         1,         k,         k,        k,
                                      k * k,     k * k,     k * k,     k * k * k, k * k * k,
                                      k * k * k, k * k * k * k, k * k * k * k, k * k * k * k};
    return parse_scaled(text, sfx, scale, bytes);
}

int parse_duration(const char *text, long long *seconds)
{
    static const char *const sfx[] = {"", "s", "sec", "m", "min", "h", NULL};
    static const long long scale[] = {1, 1, 1, 60, 60, 3600};
    return parse_scaled(text, sfx, scale, seconds);
}

void format_size(long long bytes, char *buf, size_t len)
{
    static const char units[] = "KMGT";
    long long v = bytes;
    int u = -1;
    while (v != 0 && v % 1024 == 0 && u < 3) {
        v /= 1024;
        u++;
    }
    if (u < 0)
        snprintf(buf, len, "%lld", bytes);
    else
        snprintf(buf, len, "%lld%c", v, units[u]);
}

void format_duration(long long seconds, char *buf, size_t len)
{
    if (seconds != 0 && seconds % 3600 == 0)
        snprintf(buf, len, "%lldh", seconds / 3600);
    else if (seconds != 0 && seconds % 60 == 0)
        snprintf(buf, len, "%lldm", seconds / 60);
    else
        snprintf(buf, len, "%llds", seconds);
}
