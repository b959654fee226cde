/* version.h: the version vbed was built as (git describe at build time;
 * "0.1" outside a git tree). One module holds it: the Makefile passes it to
 * version.c alone, so a new commit recompiles one file, not all of them. */
#ifndef VBED_UTIL_VERSION_H
#define VBED_UTIL_VERSION_H

/* The version string, constant for the life of the process. */
const char *vbed_version(void);

#endif
