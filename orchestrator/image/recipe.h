/* recipe.h: a guest image recipe (guest-images/<name>/): recipe.ini plus a
 * files/ tree laid into the image, and the cache key of what it builds.
 *
 * The key is a SHA-256 over everything that changes the built image: the
 * builder's version, recipe.ini, every file under files/ (path, executable
 * or not, content), the apt suites and components the packages come from, and the
 * architecture. The mirror's address is not part of it (any mirror serves
 * the same suites). */
#ifndef VBED_RECIPE_H
#define VBED_RECIPE_H

#include "image/aptsources.h"

#include <limits.h>
#include <stddef.h>

/* Bump when the build procedure in build.c changes what it produces. */
#define RECIPE_BUILDER_VERSION 3 /* 3: the tar_extract archive */

struct strlist {
    char **v;
    size_t n;
};

struct recipe {
    char name[64];
    char dir[PATH_MAX];
    char description[256];
    char suite[64];
    char variant[32];
    char arch[32];
    long long root_size;
    char cmdline[1024];
    struct strlist packages;
    struct strlist enable;
    struct strlist mask;
    struct strlist run; /* [build] run: "/abs/program [word...]" run in the tree, in order */
    struct strlist verify_paths;
    struct strlist verify_packages;
};

/* guest-images/<name> under the data directory (paths.h), or name itself
 * when it contains a '/'. */
void recipe_dir_for(const char *name, char *buf, size_t len);

/* Load and check dir/recipe.ini; NULL after reporting FILE:LINE errors. */
struct recipe *recipe_load(const char *dir);
void recipe_free(struct recipe *r);

/* The cache key (64 hex digits); -1 if a file cannot be read. */
int recipe_hash(const struct recipe *r, const struct apt_sources *src, char hex[65]);
/* "<name>-<first 12 hex digits>" */
void recipe_image_id(const struct recipe *r, const char *hex, char *buf, size_t len);

#endif
