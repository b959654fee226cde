/* storage.h: the libvirt storage pool that holds every disk vbed uses.
 *
 * The base image, its kernel and initrd are uploaded into the pool once per
 * image (virStorageVolUpload); per-guest root overlays (qcow2 with the base
 * as backing store), data disks and configuration disks are volumes too.
 * Everything goes through the libvirt API, so the same code serves a local
 * qemu:///system and a remote qemu+ssh://host/system. */
#ifndef VBED_STORAGE_H
#define VBED_STORAGE_H

#include "virt/hypervisor.h"
#include "image/image.h"
#include "scenario/keys.h"
#include "virt/layout.h"

#include <stddef.h>

struct storage;

/* The pool named name, created as a directory pool at dir if it does not
 * exist, and started. NULL after reporting. */
struct storage *storage_open(struct hv *hv, const char *name, const char *dir);
void storage_close(struct storage *st);
/* The pool's directory on the hypervisor's host. */
const char *storage_path(const struct storage *st);

/* Upload the image's root, kernel and initrd unless the pool has this
 * build of them (a marker volume names the build a complete upload sent:
 * image.h); another build of the same id is replaced, unless a guest's
 * root overlay in the pool is backed by it (-1, reported). Fill im. */
int storage_ensure_image(struct storage *st, const struct image_info *img, struct image_layout *im);

/* Bytes of image files sent by storage_ensure_image so far (any thread: for
 * progress while it runs in another). */
long long storage_uploaded_bytes(const struct storage *st);

/* qcow2 volume backed by backing_path (qcow2), of the base's capacity. */
int storage_create_overlay(struct storage *st, const char *name, const char *backing_path);
/* The data disk: format, size, qcow2 cluster size and preallocation of cfg. */
int storage_create_data(struct storage *st, const char *name, const struct run_config *cfg);
/* A raw volume holding exactly data (rounded up to 512 bytes). */
int storage_upload_bytes(struct storage *st, const char *name, const void *data, size_t len);
/* A volume holding the bytes of the local file path (its format "raw" to
 * libvirt, whatever the bytes are: a qcow2 file stays one). */
int storage_upload_file(struct storage *st, const char *name, const char *path);
/* The same, with head (head_len bytes) sent in place of the file's first
 * head_len bytes (a save image renamed for a remote host's guest). */
int storage_upload_file_head(struct storage *st, const char *name, const char *path,
                             const void *head, size_t head_len);
/* Where volume name is on its host (libvirt's path; the pool's path joined
 * with the name if libvirt does not know it). */
void storage_vol_path(struct storage *st, const char *name, char *buf, size_t len);
/* Copy a volume's content into a local file. */
int storage_download(struct storage *st, const char *name, const char *dest);
/* Delete a volume; a missing one is not an error. */
int storage_delete(struct storage *st, const char *name);
/* Names of volumes starting with prefix (after a pool refresh). */
int storage_list(struct storage *st, const char *prefix, char ***names, size_t *n);
void storage_free_names(char **names, size_t n);
/* Re-read the pool's directory (files made outside libvirt, e.g. console logs). */
int storage_refresh(struct storage *st);
/* The pool looked up again on its hv's connection (after hv_reconnect);
 * -1 reported. */
int storage_reopen(struct storage *st);

#endif
