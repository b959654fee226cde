/* storage.c: pool and volumes through libvirt (see storage.h). */
#include "virt/storage.h"
#include "util/xalloc.h"

#include "util/log.h"
#include "util/paths.h"
#include "util/xmlout.h"

#include <errno.h>
#include <fcntl.h>
#include <libxml/parser.h>
#include <libxml/xpath.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct storage {
    struct hv *hv;
    virStoragePoolPtr pool;
    char path[PATH_MAX];
    long long uploaded;   /* bytes of the image sent so far (atomic: read by other threads) */
};

/* A file being uploaded: its fd, and the pool whose counter it feeds. */
struct upload_src {
    int fd;
    struct storage *st;
    const unsigned char *head; /* sent first, in place of the file's first head_len bytes */
    size_t head_len, head_pos;
};

/* ---- XML (xmlout.h, like the domain XML) ---- */

struct vol_xml {
    const char *name;
    const char *format;
    unsigned long long capacity;
    unsigned long long allocation;
    unsigned long long cluster_size; /* 0: default */
    const char *backing_path;        /* NULL: none */
};

static int write_size(xmlTextWriterPtr w, const char *el, unsigned long long bytes)
{
    char num[32];
    snprintf(num, sizeof(num), "%llu", bytes);
    XO(xo_start(w, el));
    XO(xo_attr(w, "unit", "bytes"));
    XO(xo_text(w, num));
    XO(xo_end(w));
    return 0;
fail:
    return -1;
}

static int write_volume(xmlTextWriterPtr w, const void *arg)
{
    const struct vol_xml *v = arg;
    XO(xo_start(w, "volume"));
    XO(xo_text_el(w, "name", v->name));
    XO(write_size(w, "capacity", v->capacity));
    XO(write_size(w, "allocation", v->allocation));
    XO(xo_start(w, "target"));
    XO(xo_start(w, "format"));
    XO(xo_attr(w, "type", v->format));
    XO(xo_end(w));
    if (v->cluster_size)
        XO(write_size(w, "clusterSize", v->cluster_size));
    /* without it libvirt makes qcow2 version 2 (compat=0.10): no zero
     * clusters, no lazy refcounts; qemu-img's own default is 1.1 */
    if (strcmp(v->format, "qcow2") == 0)
        XO(xo_text_el(w, "compat", "1.1"));
    XO(xo_end(w)); /* target */
    if (v->backing_path) {
        XO(xo_start(w, "backingStore"));
        XO(xo_text_el(w, "path", v->backing_path));
        XO(xo_start(w, "format"));
        XO(xo_attr(w, "type", "qcow2"));
        XO(xo_end(w));
        XO(xo_end(w));
    }
    XO(xo_end(w)); /* volume */
    return 0;
fail:
    return -1;
}

struct pool_args {
    const char *name, *dir;
};

static int write_pool(xmlTextWriterPtr w, const void *arg)
{
    const struct pool_args *p = arg;
    XO(xo_start(w, "pool"));
    XO(xo_attr(w, "type", "dir"));
    XO(xo_text_el(w, "name", p->name));
    XO(xo_start(w, "target"));
    XO(xo_text_el(w, "path", p->dir));
    XO(xo_end(w));
    XO(xo_end(w));
    return 0;
fail:
    return -1;
}

/* /pool/target/path of the pool's XML */
static int read_pool_path(struct storage *st)
{
    char *xml = virStoragePoolGetXMLDesc(st->pool, 0);
    if (!xml) {
        log_error("Cannot read the XML of storage pool '%s': %s", virStoragePoolGetName(st->pool),
                  hv_last_error());
        return -1;
    }
    int rc = -1;
    xmlDocPtr doc = xmlReadMemory(xml, (int)strlen(xml), "pool.xml", NULL, XML_PARSE_NONET);
    xmlXPathContextPtr ctx = doc ? xmlXPathNewContext(doc) : NULL;
    xmlXPathObjectPtr res = ctx ? xmlXPathEvalExpression(BAD_CAST "string(/pool/target/path)", ctx) : NULL;
    if (res && res->stringval && res->stringval[0]) {
        snprintf(st->path, sizeof(st->path), "%s", (const char *)res->stringval);
        rc = 0;
    } else {
        log_error("Storage pool '%s' has no target path (vbed needs a directory pool).",
                  virStoragePoolGetName(st->pool));
    }
    xmlXPathFreeObject(res);
    xmlXPathFreeContext(ctx);
    xmlFreeDoc(doc);
    free(xml);
    return rc;
}

struct storage *storage_open(struct hv *hv, const char *name, const char *dir)
{
    virConnectPtr conn = hv_conn(hv);
    struct storage *st = xcalloc(1, sizeof(*st));
    st->hv = hv;
    st->pool = virStoragePoolLookupByName(conn, name);
    if (!st->pool) {
        struct pool_args pa = {name, dir};
        char *xml = xmlout_render("a storage pool", write_pool, &pa);
        st->pool = xml ? virStoragePoolDefineXML(conn, xml, 0) : NULL;
        free(xml);
        if (!st->pool) {
            log_error("Cannot define storage pool '%s' at '%s': %s", name, dir, hv_last_error());
            goto fail;
        }
        if (virStoragePoolBuild(st->pool, 0) < 0) {
            log_error("Cannot create the directory '%s' of storage pool '%s': %s", dir, name,
                      hv_last_error());
            goto fail;
        }
        virStoragePoolSetAutostart(st->pool, 1);
        log_info("created storage pool '%s' at %s", name, dir);
    }
    int active = virStoragePoolIsActive(st->pool);
    if (active == 0 && virStoragePoolCreate(st->pool, 0) < 0) {
        log_error("Cannot start storage pool '%s': %s", name, hv_last_error());
        goto fail;
    }
    if (read_pool_path(st) < 0)
        goto fail;
    return st;
fail:
    storage_close(st);
    return NULL;
}

void storage_close(struct storage *st)
{
    if (!st)
        return;
    if (st->pool)
        virStoragePoolFree(st->pool);
    free(st);
}

const char *storage_path(const struct storage *st) { return st->path; }

int storage_reopen(struct storage *st)
{
    char name[256];
    snprintf(name, sizeof(name), "%s", virStoragePoolGetName(st->pool));
    virStoragePoolPtr pool = virStoragePoolLookupByName(hv_conn(st->hv), name);
    if (!pool) {
        log_error("Cannot find storage pool '%s' again: %s", name, hv_last_error());
        return -1;
    }
    virStoragePoolFree(st->pool);
    st->pool = pool;
    return 0;
}

int storage_refresh(struct storage *st)
{
    if (virStoragePoolRefresh(st->pool, 0) < 0) {
        log_error("Cannot refresh storage pool '%s': %s", virStoragePoolGetName(st->pool),
                  hv_last_error());
        return -1;
    }
    return 0;
}

static virStorageVolPtr create(struct storage *st, const struct vol_xml *v, unsigned flags)
{
    char *xml = xmlout_render("a storage volume", write_volume, v);
    virStorageVolPtr vol = xml ? virStorageVolCreateXML(st->pool, xml, flags) : NULL;
    free(xml);
    if (!vol)
        log_error("Cannot create volume '%s' in pool '%s': %s", v->name,
                  virStoragePoolGetName(st->pool), hv_last_error());
    return vol;
}

int storage_delete(struct storage *st, const char *name)
{
    virStorageVolPtr vol = virStorageVolLookupByName(st->pool, name);
    if (!vol)
        return 0;
    int rc = virStorageVolDelete(vol, 0);
    if (rc < 0)
        log_error("Cannot delete volume '%s': %s", name, hv_last_error());
    virStorageVolFree(vol);
    return rc;
}

/* ---- streams ---- */

struct memsrc {
    const char *data;
    size_t len, pos;
};

static int send_mem(virStreamPtr s, char *buf, size_t n, void *opaque)
{
    (void)s;
    struct memsrc *m = opaque;
    size_t left = m->len - m->pos;
    size_t k = n < left ? n : left;
    memcpy(buf, m->data + m->pos, k);
    m->pos += k;
    return (int)k;
}

static int send_fd(virStreamPtr s, char *buf, size_t n, void *opaque)
{
    (void)s;
    struct upload_src *u = opaque;
    if (u->head_pos < u->head_len) {
        size_t k = u->head_len - u->head_pos < n ? u->head_len - u->head_pos : n;
        memcpy(buf, u->head + u->head_pos, k);
        u->head_pos += k;
        return (int)k;
    }
    ssize_t got = read(u->fd, buf, n);
    if (got > 0)
        __atomic_add_fetch(&u->st->uploaded, (long long)got, __ATOMIC_RELAXED);
    return (int)got;
}

long long storage_uploaded_bytes(const struct storage *st)
{
    return st ? __atomic_load_n(&st->uploaded, __ATOMIC_RELAXED) : 0;
}

static int recv_fd(virStreamPtr s, const char *buf, size_t n, void *opaque)
{
    (void)s;
    int fd = *(int *)opaque;
    size_t done = 0;
    while (done < n) {
        ssize_t w = write(fd, buf + done, n - done);
        if (w < 0)
            return -1;
        done += (size_t)w;
    }
    return (int)n;
}

static int upload(struct storage *st, virStorageVolPtr vol, unsigned long long len,
                  virStreamSourceFunc src, void *opaque)
{
    virStreamPtr s = virStreamNew(hv_conn(st->hv), 0);
    int rc = -1;
    if (!s || virStorageVolUpload(vol, s, 0, len, 0) < 0 || virStreamSendAll(s, src, opaque) < 0) {
        log_error("Cannot upload into volume '%s': %s", virStorageVolGetName(vol), hv_last_error());
        if (s)
            virStreamAbort(s);
        goto cleanup;
    }
    if (virStreamFinish(s) < 0) {
        log_error("Cannot finish the upload into volume '%s': %s", virStorageVolGetName(vol),
                  hv_last_error());
        goto cleanup;
    }
    rc = 0;
cleanup:
    if (s)
        virStreamFree(s);
    return rc;
}

int storage_upload_bytes(struct storage *st, const char *name, const void *data, size_t len)
{
    size_t padded = (len + 511) / 512 * 512;
    char *copy = xcalloc(1, padded ? padded : 512);
    memcpy(copy, data, len);
    if (!padded)
        padded = 512;
    struct vol_xml v = {.name = name, .format = "raw", .capacity = padded, .allocation = padded};
    virStorageVolPtr vol = create(st, &v, 0);
    int rc = -1;
    if (vol) {
        struct memsrc m = {.data = copy, .len = padded};
        rc = upload(st, vol, padded, send_mem, &m);
        virStorageVolFree(vol);
    }
    free(copy);
    if (rc < 0)
        storage_delete(st, name);
    return rc;
}

int storage_upload_file_head(struct storage *st, const char *name, const char *path,
                             const void *head, size_t head_len)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) {
        log_error("Cannot read '%s': %s", path, strerror(errno));
        return -1;
    }
    off_t size = lseek(fd, 0, SEEK_END);
    if (size < (off_t)head_len || lseek(fd, (off_t)head_len, SEEK_SET) < 0) {
        log_error("Cannot read '%s': %s", path, size < 0 ? strerror(errno) : "shorter than its new head");
        close(fd);
        return -1;
    }
    storage_delete(st, name);
    struct vol_xml v = {.name = name, .format = "raw", .capacity = (unsigned long long)size,
                        .allocation = 0};
    virStorageVolPtr vol = create(st, &v, 0);
    int rc = -1;
    if (vol) {
        struct upload_src u = {.fd = fd, .st = st, .head = head, .head_len = head_len};
        rc = upload(st, vol, (unsigned long long)size, send_fd, &u);
        virStorageVolFree(vol);
    }
    close(fd);
    if (rc < 0)
        storage_delete(st, name);
    return rc;
}

int storage_upload_file(struct storage *st, const char *name, const char *path)
{
    return storage_upload_file_head(st, name, path, NULL, 0);
}

/* The first length bytes of volume vol (0: all of it) through sink; quiet:
 * a failure reported by the caller. 0 or -1. */
static int download(struct storage *st, virStorageVolPtr vol, unsigned long long length,
                    virStreamSinkFunc sink, void *opaque, bool quiet)
{
    virStreamPtr s = virStreamNew(hv_conn(st->hv), 0);
    int rc = -1;
    if (!s || virStorageVolDownload(vol, s, 0, length, 0) < 0 || virStreamRecvAll(s, sink, opaque) < 0 ||
        virStreamFinish(s) < 0) {
        if (!quiet)
            log_error("Cannot download volume '%s': %s", virStorageVolGetName(vol), hv_last_error());
        if (s)
            virStreamAbort(s);
    } else {
        rc = 0;
    }
    if (s)
        virStreamFree(s);
    return rc;
}

int storage_download(struct storage *st, const char *name, const char *dest)
{
    virStorageVolPtr vol = virStorageVolLookupByName(st->pool, name);
    if (!vol) {
        log_error("No volume '%s' in pool '%s' to download.", name, virStoragePoolGetName(st->pool));
        return -1;
    }
    int fd = open(dest, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    int rc = -1;
    if (fd < 0) {
        log_error("Cannot write '%s': %s", dest, strerror(errno));
    } else {
        rc = download(st, vol, 0, recv_fd, &fd, false);
        close(fd);
    }
    virStorageVolFree(vol);
    return rc;
}

/* ---- image and guest volumes ---- */

void storage_vol_path(struct storage *st, const char *name, char *buf, size_t len)
{
    virStorageVolPtr vol = virStorageVolLookupByName(st->pool, name);
    char *p = vol ? virStorageVolGetPath(vol) : NULL;
    if (p)
        snprintf(buf, len, "%s", p);
    else
        path_join(buf, len, st->path, name);
    free(p);
    if (vol)
        virStorageVolFree(vol);
}

/* a bounded buffer that a download fills (recv_buf) */
struct small_buf {
    char *buf;
    size_t len, cap;
};

static int recv_buf(virStreamPtr s, const char *data, size_t n, void *opaque)
{
    (void)s;
    struct small_buf *b = opaque;
    if (n > b->cap - b->len)
        return -1; /* more than asked for: refused, not cut */
    memcpy(b->buf + b->len, data, n);
    b->len += n;
    return (int)n;
}

/* The first len - 1 bytes of volume name as a string (cut at its first
 * NUL), or -1 (no such volume, or it could not be read). */
static int read_small(struct storage *st, const char *name, char *buf, size_t len)
{
    virStorageVolPtr vol = virStorageVolLookupByName(st->pool, name);
    struct small_buf b = {.buf = buf, .cap = len - 1};
    int rc = vol ? download(st, vol, len - 1, recv_buf, &b, true) : -1;
    if (vol)
        virStorageVolFree(vol);
    buf[rc == 0 ? b.len : 0] = '\0';
    return rc;
}

/* How many guests' root overlays the pool holds (every one backed by its
 * base image): while there are any, the base must not change under them. */
static size_t root_overlays(struct storage *st)
{
    char **names;
    size_t n, roots = 0, k = sizeof(LAYOUT_ROOT_SUFFIX) - 1;
    if (storage_list(st, "vbed-", &names, &n) < 0)
        return 1; /* not known: as if in use */
    for (size_t i = 0; i < n; i++) {
        size_t l = strlen(names[i]);
        roots += l > k && strcmp(names[i] + l - k, LAYOUT_ROOT_SUFFIX) == 0;
    }
    storage_free_names(names, n);
    return roots;
}

int storage_ensure_image(struct storage *st, const struct image_info *img, struct image_layout *im)
{
    layout_image(im, st->path, img->id);
    char marker[LAYOUT_NAME_MAX + 32];
    snprintf(marker, sizeof(marker), "vbed-image-%s.complete", img->id);
    /* the marker names the build uploaded (image.h: a rebuild of the same
     * id has other bytes; a marker of an older vbed holds the recipe's
     * hash, and the image goes up once more) */
    char had[sizeof(img->build) + 1];
    bool there = read_small(st, marker, had, sizeof(had)) == 0;
    if (!there || strcmp(had, img->build) != 0) {
        const char *uri = hv_get_info(st->hv)->uri, *pool = virStoragePoolGetName(st->pool);
        size_t roots = there ? root_overlays(st) : 0;
        if (roots > 0) {
            log_error("Pool '%s' at %s holds another build of image %s (its marker says '%.40s', "
                      "this machine's is '%s') and %zu guest root overlay%s backed by it: it cannot be "
                      "replaced under them. Wait for those runs to end, or remove a dead session's "
                      "guests with 'vbed clean', then run again.",
                      pool, uri, img->id, had, img->build, roots, roots == 1 ? "" : "s");
            return -1;
        }
        if (there)
            log_info("pool '%s' at %s holds another build of image %s: replacing it with this "
                     "machine's (build %s)",
                     pool, uri, img->id, img->build);
        log_info("uploading image %s into pool '%s' at %s", img->id, pool, uri);
        storage_delete(st, marker);
        if (storage_upload_file(st, im->kernel_vol, img->kernel) < 0 ||
            storage_upload_file(st, im->initrd_vol, img->initrd) < 0 ||
            storage_upload_file(st, im->base_vol, img->root) < 0)
            return -1;
        if (storage_upload_bytes(st, marker, img->build, strlen(img->build)) < 0)
            return -1;
    }
    storage_vol_path(st, im->base_vol, im->base_path, sizeof(im->base_path));
    storage_vol_path(st, im->kernel_vol, im->kernel_path, sizeof(im->kernel_path));
    storage_vol_path(st, im->initrd_vol, im->initrd_path, sizeof(im->initrd_path));
    return 0;
}

/* Virtual size of the base: from its manifest (the qcow2's own size) */
static unsigned long long base_capacity(struct storage *st, const char *backing_path)
{
    const char *leaf = strrchr(backing_path, '/');
    virStorageVolPtr vol = virStorageVolLookupByName(st->pool, leaf ? leaf + 1 : backing_path);
    virStorageVolInfo info = {0};
    unsigned long long cap = 0;
    if (vol && virStorageVolGetInfo(vol, &info) == 0)
        cap = info.capacity;
    if (vol)
        virStorageVolFree(vol);
    return cap;
}

int storage_create_overlay(struct storage *st, const char *name, const char *backing_path)
{
    /* after a refresh the pool reports the base's virtual size (qcow2 probed) */
    storage_refresh(st);
    unsigned long long cap = base_capacity(st, backing_path);
    struct vol_xml v = {.name = name, .format = "qcow2", .capacity = cap, .backing_path = backing_path};
    virStorageVolPtr vol = create(st, &v, 0);
    if (!vol)
        return -1;
    virStorageVolFree(vol);
    return 0;
}

int storage_create_data(struct storage *st, const char *name, const struct run_config *cfg)
{
    bool qcow2 = cfg->disk_format == FORMAT_QCOW2;
    unsigned long long cap = (unsigned long long)cfg->disk_size;
    struct vol_xml v = {
        .name = name,
        .format = qcow2 ? "qcow2" : "raw",
        .capacity = cap,
        .allocation = (qcow2 && cfg->qcow2_preallocation == PREALLOC_FULL) ? cap : 0,
        .cluster_size = qcow2 ? (unsigned long long)cfg->qcow2_cluster_size : 0,
    };
    /* libvirt preallocates a qcow2 only with this flag: with it, an
     * allocation equal to the capacity means qemu-img's falloc (full), a
     * smaller one metadata; without it the allocation is ignored (thin) */
    unsigned flags = (qcow2 && cfg->qcow2_preallocation != PREALLOC_OFF)
                         ? VIR_STORAGE_VOL_CREATE_PREALLOC_METADATA
                         : 0;
    virStorageVolPtr vol = create(st, &v, flags);
    if (!vol)
        return -1;
    virStorageVolFree(vol);
    return 0;
}

int storage_list(struct storage *st, const char *prefix, char ***names, size_t *n)
{
    *names = NULL;
    *n = 0;
    storage_refresh(st);
    virStorageVolPtr *vols = NULL;
    int count = virStoragePoolListAllVolumes(st->pool, &vols, 0);
    if (count < 0) {
        log_error("Cannot list the volumes of pool '%s': %s", virStoragePoolGetName(st->pool),
                  hv_last_error());
        return -1;
    }
    for (int i = 0; i < count; i++) {
        const char *name = virStorageVolGetName(vols[i]);
        if (name && strncmp(name, prefix, strlen(prefix)) == 0) {
            char **grown = xrealloc(*names, (*n + 1) * sizeof(char *));
            *names = grown;
            (*names)[(*n)++] = xstrdup(name);
        }
        virStorageVolFree(vols[i]);
    }
    free(vols);
    return 0;
}

void storage_free_names(char **names, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
}
