/* aptsources.h: the Debian archive entries of the host's apt sources.
 *
 * vbed builds guest images from the same mirror and suites as the host
 * uses (never a hard-coded mirror): one-line sources.list files and deb822
 * .sources files are both read. */
#ifndef VBED_APTSOURCES_H
#define VBED_APTSOURCES_H

#include <stdbool.h>
#include <stddef.h>

#define APT_MAX_ENTRIES 32

struct apt_entry {
    char uri[512];
    char suite[64];
    char components[128]; /* space-separated */
};

struct apt_sources {
    struct apt_entry e[APT_MAX_ENTRIES];
    size_t n;
};

/* Entries of root_dir/etc/apt (root_dir "" for the host) whose suite is
 * `suite` or `suite-*` (bookworm, bookworm-updates, bookworm-security), type
 * deb, sorted by suite. Returns how many were found. */
int apt_sources_read(const char *root_dir, const char *suite, struct apt_sources *out);

/* The same for len bytes of one file's text: a deb822 .sources file, or
 * one-line entries as in sources.list (fuzz targets and tests). */
int apt_sources_parse(const char *text, size_t len, bool deb822, const char *suite,
                      struct apt_sources *out);

/* The URI of the entry for `suite` itself: debootstrap's mirror. */
const char *apt_sources_mirror(const struct apt_sources *s, const char *suite);

/* Replace the mirror URI (everywhere it appears) by uri. */
void apt_sources_override_mirror(struct apt_sources *s, const char *suite, const char *uri);

/* sources.list text for the guest: one "deb URI SUITE COMPONENTS" line each. */
void apt_sources_format(const struct apt_sources *s, char *buf, size_t len);

#endif
