/* units.h: sizes (K/M/G/T, binary) and durations (s/m/h) as users write them. */
#ifndef VBED_UNITS_H
#define VBED_UNITS_H

#include <stddef.h>

/* "512M" -> 536870912. Plain numbers are bytes. Returns -1 on bad text. */
int parse_size(const char *text, long long *bytes);
/* "90s", "2m", "1h", "45" (seconds). Returns -1 on bad text. */
int parse_duration(const char *text, long long *seconds);
/* The shortest exact spelling: 536870912 -> "512M", 1000 -> "1000". */
void format_size(long long bytes, char *buf, size_t len);
/* 120 -> "2m", 90 -> "90s", 3600 -> "1h". */
void format_duration(long long seconds, char *buf, size_t len);

#endif
