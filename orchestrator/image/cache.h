/* cache.h: what the image cache (image.c) lends the build (build.c): the
 * cache's folder, an image's paths in it, the apt sources a recipe's image
 * is built (and hashed) from, and clearing away unfinished builds.
 * Internal to image/. (This header includes no image.h: image.c includes
 * this one.) */
#ifndef VBED_IMAGE_CACHE_H
#define VBED_IMAGE_CACHE_H

#include <stddef.h>

struct apt_sources;
struct image_info;
struct recipe;

/* <cache>/images into buf. */
void image_cache_dir(char *buf, size_t len);

/* info's dir, root, kernel, initrd and manifest paths for its id, and
 * whether it is built (its manifest.json exists). */
void image_fill_paths(struct image_info *info);

/* The host's apt sources for recipe r, with its suite's mirror replaced
 * by mirror (--mirror) when not NULL. -1 (reported) if no mirror is known
 * for the suite. */
int image_read_sources(const struct recipe *r, const char *mirror, struct apt_sources *src);

/* Remove the builds under dir (the cache's folder) left by a vbed that
 * died: .build-<id>-<pid> whose pid is gone. */
void image_remove_stale_builds(const char *dir);

#endif
