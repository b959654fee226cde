/* paths.h: where vbed finds its data (recipes, scripts) and keeps its cache. */
#ifndef VBED_PATHS_H
#define VBED_PATHS_H

#include <stddef.h>

/* Directory holding guest-images/ and scenarios/: the source tree when vbed
 * runs from it, else the installed share directory. $VBED_DATA_DIR overrides. */
const char *paths_data_dir(void);
/* Image cache: --cache-dir, else $VBED_CACHE_DIR, else /var/cache/vbed. */
const char *paths_cache_dir(void);
void paths_set_cache_dir(const char *dir);
/* Join a and b with one '/'. Returns -1 if it does not fit. */
int path_join(char *buf, size_t len, const char *a, const char *b);
/* rm -rf, never crossing into another filesystem (a mount left in a tree
 * stays untouched); runs to the end even when vbed is interrupted. */
void paths_remove_tree(const char *dir);
/* mkdir -p; 0 on success (reported on failure). */
int paths_mkdirs(const char *dir, unsigned mode);

#endif
