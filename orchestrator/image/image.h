/* image.h: the image layer -- the guest image: its recipe (recipe.h,
 * aptsources.h), its build and cache (this file), tar_extract's fixed
 * archive laid into it (archive.h), and reading a disk with libguestfs
 * (inspect.h, postmortem.h). It may call hostside/, report/, model/,
 * results/, scenario/ and util/.
 *
 * Guest images built from a recipe, cached by content.
 *
 * An image lives in <cache>/images/<id>/ (id = <recipe>-<hash12>, see
 * recipe.h): root.qcow2, vmlinuz, initrd.img, manifest.json, build.log.
 * A build happens in <cache>/images/.build-<id>-<pid>/ and is renamed into
 * place only when complete, so a failed or interrupted build leaves nothing
 * that looks like an image.
 *
 * The files: image.c keeps the cache (resolve, list, remove), build.c
 * builds an image into it. */
#ifndef VBED_IMAGE_H
#define VBED_IMAGE_H

#include <limits.h>
#include <stdbool.h>

struct image_info {
    char id[96];
    char hash[65];
    char recipe[64];
    char dir[PATH_MAX];
    char root[PATH_MAX];     /* root.qcow2 */
    char kernel[PATH_MAX];   /* vmlinuz */
    char initrd[PATH_MAX];   /* initrd.img */
    char manifest[PATH_MAX];
    char cmdline[1024];
    bool built;              /* manifest.json exists */
    /* which build of the id (its manifest's build_id; an older manifest's
     * built_at; "" unbuilt): the id names the recipe, not the bytes -- a
     * rebuild of the same recipe makes another root.qcow2, and a copy of
     * one in a pool, or a guest saved over it, does not fit the other */
    char build[72];
};

/* Compute the id of recipe `name` from its files and the host's apt
 * sources (mirror: --mirror or NULL). Fills info; info->built tells whether
 * it is in the cache. -1 (reported) on a bad recipe. */
int image_resolve(const char *name, const char *mirror, struct image_info *info);

/* Build the image unless cached (force: rebuild). Needs root. Returns 0,
 * or -1 after reporting (the partial build removed). */
int image_build(const char *name, const char *mirror, bool force, struct image_info *info);

/* Print the cached images (id, size, build date, key package versions). */
int image_list(void);
/* Remove a cached image by id (or unique prefix). */
int image_remove(const char *id);
/* What the cache keeps beside every image and makes again when needed: the
 * saved ready guests (<image>/ready/) and the tables kept for copying
 * (<image>/prepared/). A line each; dry_run lists only. The things removed
 * (or that would be); *failed counts those that would not go. */
int image_remove_derived(bool dry_run, int *failed);

#endif
