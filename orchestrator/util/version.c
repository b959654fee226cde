/* version.c: the version vbed was built as (see version.h). */
#include "util/version.h"

#ifndef VBED_VERSION
#define VBED_VERSION "0.1"
#endif

const char *vbed_version(void)
{
    return VBED_VERSION;
}
