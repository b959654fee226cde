/* saveimage.c: a libvirt save image given another name and UUID (see
 * saveimage.h). */
#include "virt/saveimage.h"

#include "util/log.h"
#include "util/xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAGIC "LibvirtQemudSave"
#define MAGIC_LEN 16
#define VERSION 2
#define FORMAT_RAW 0
/* the XML and cookie of one domain: far below this */
#define DATA_MAX (16u << 20)

static uint32_t le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put_le32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)v, p[1] = (unsigned char)(v >> 8), p[2] = (unsigned char)(v >> 16),
    p[3] = (unsigned char)(v >> 24);
}

int saveimage_parse(const unsigned char *buf, size_t len, char **xml, char **cookie,
                    unsigned *data_len, char *why, size_t whylen)
{
    *xml = *cookie = NULL;
    if (len < SAVEIMAGE_HEADER_SIZE || memcmp(buf, MAGIC, MAGIC_LEN) != 0) {
        snprintf(why, whylen, "not a libvirt save image (no '%s' header)", MAGIC);
        return -1;
    }
    uint32_t version = le32(buf + 16), dlen = le32(buf + 20), format = le32(buf + 28),
             cookie_off = le32(buf + 32);
    if (version != VERSION) {
        snprintf(why, whylen, "save image version %u, not %d", version, VERSION);
        return -1;
    }
    if (format != FORMAT_RAW) {
        snprintf(why, whylen, "a compressed save image (format %u)", format);
        return -1;
    }
    if (dlen == 0 || dlen > DATA_MAX || len - SAVEIMAGE_HEADER_SIZE < dlen) {
        snprintf(why, whylen, "its XML area of %u bytes is not whole", dlen);
        return -1;
    }
    const unsigned char *data = buf + SAVEIMAGE_HEADER_SIZE;
    size_t xml_end = strnlen((const char *)data, dlen);
    if (xml_end == dlen || xml_end == 0 || (cookie_off && cookie_off <= xml_end) || cookie_off >= dlen) {
        snprintf(why, whylen, "its XML or cookie is not NUL-terminated inside the header");
        return -1;
    }
    size_t cookie_len = cookie_off ? strnlen((const char *)data + cookie_off, dlen - cookie_off) : 0;
    if (cookie_off && cookie_off + cookie_len == dlen) {
        snprintf(why, whylen, "its cookie is not NUL-terminated inside the header");
        return -1;
    }
    *xml = xasprintf("%.*s", (int)xml_end, (const char *)data);
    *cookie = xasprintf("%.*s", (int)cookie_len, cookie_off ? (const char *)data + cookie_off : "");
    *data_len = dlen;
    return 0;
}

/* text with the element <tag>...</tag> (exactly one) holding value instead */
static char *replace_element(const char *text, const char *tag, const char *value, char *why,
                             size_t whylen)
{
    char open[32], close[32];
    snprintf(open, sizeof(open), "<%s>", tag);
    snprintf(close, sizeof(close), "</%s>", tag);
    const char *a = strstr(text, open), *b = a ? strstr(a, close) : NULL;
    if (!a || !b || strstr(b + 1, open)) {
        snprintf(why, whylen, "its XML has not exactly one %s", open);
        return NULL;
    }
    size_t head = (size_t)(a - text) + strlen(open), tail = strlen(b);
    char *out = xcalloc(head + strlen(value) + tail + 1, 1);
    memcpy(out, text, head);
    memcpy(out + head, value, strlen(value));
    memcpy(out + head + strlen(value), b, tail + 1);
    return out;
}

char *saveimage_rename_xml(const char *xml, const char *name, const char *uuid, char *why,
                           size_t whylen)
{
    /* names and UUIDs are vbed's own: nothing that needs escaping */
    if (strpbrk(name, "<>&'\"") || strpbrk(uuid, "<>&'\"")) {
        snprintf(why, whylen, "a name or UUID with XML markup");
        return NULL;
    }
    char *named = replace_element(xml, "name", name, why, whylen);
    char *out = named ? replace_element(named, "uuid", uuid, why, whylen) : NULL;
    free(named);
    return out;
}

/* the whole of fd in to fd out from offset off on */
static int copy_rest(int in, int out, off_t off, const char *src, const char *dst)
{
    struct stat st;
    if (fstat(in, &st) < 0) {
        log_error("Cannot stat '%s': %s", src, strerror(errno));
        return -1;
    }
    off_t in_off = off, out_off = off;
    while (in_off < st.st_size) {
        ssize_t n = copy_file_range(in, &in_off, out, &out_off, (size_t)(st.st_size - in_off), 0);
        if (n <= 0) {
            log_error("Cannot copy '%s' to '%s': %s", src, dst, n < 0 ? strerror(errno) : "short copy");
            return -1;
        }
    }
    return 0;
}

int saveimage_renamed_head(const char *src, const char *name, const char *uuid, unsigned char **head,
                           size_t *head_len)
{
    int rc = -1;
    unsigned char *buf = NULL;
    char *xml = NULL, *cookie = NULL, *renamed = NULL, why[256];
    unsigned dlen;
    int in = open(src, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (in < 0) {
        log_error("Cannot open the saved guest '%s': %s", src, strerror(errno));
        return -1;
    }
    /* the header, then its XML area as long as the header says (within DATA_MAX) */
    unsigned char fixed[SAVEIMAGE_HEADER_SIZE];
    ssize_t got = pread(in, fixed, sizeof(fixed), 0);
    uint32_t area = got == (ssize_t)sizeof(fixed) ? le32(fixed + 20) : 0;
    size_t want = SAVEIMAGE_HEADER_SIZE + (area <= DATA_MAX ? area : 0);
    buf = xcalloc(want, 1);
    if (got == (ssize_t)sizeof(fixed))
        got = pread(in, buf, want, 0);
    close(in);
    if (got < 0 || saveimage_parse(buf, (size_t)got, &xml, &cookie, &dlen, why, sizeof(why)) < 0) {
        log_error("The saved guest '%s' cannot be used: %s.", src, got < 0 ? strerror(errno) : why);
        goto cleanup;
    }
    renamed = saveimage_rename_xml(xml, name, uuid, why, sizeof(why));
    size_t xl = renamed ? strlen(renamed) + 1 : 0, cl = strlen(cookie) + 1;
    if (!renamed || xl + (cookie[0] ? cl : 0) > dlen) {
        log_error("The saved guest '%s' cannot be renamed '%s': %s.", src, name,
                  renamed ? "its XML would not fit the header" : why);
        goto cleanup;
    }
    /* the new header: the XML, then the cookie right after it, zeros to the end */
    unsigned char *data = buf + SAVEIMAGE_HEADER_SIZE;
    memset(data, 0, dlen);
    memcpy(data, renamed, xl);
    if (cookie[0])
        memcpy(data + xl, cookie, cl);
    put_le32(buf + 32, cookie[0] ? (uint32_t)xl : 0);
    *head = buf, *head_len = SAVEIMAGE_HEADER_SIZE + dlen;
    buf = NULL;
    rc = 0;
cleanup:
    free(buf);
    free(xml);
    free(cookie);
    free(renamed);
    return rc;
}

int saveimage_copy_as(const char *src, const char *dst, const char *name, const char *uuid)
{
    unsigned char *head = NULL;
    size_t hl = 0;
    if (saveimage_renamed_head(src, name, uuid, &head, &hl) < 0)
        return -1;
    int rc = -1, out = -1;
    bool created = false;
    int in = open(src, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (in < 0) {
        log_error("Cannot open the saved guest '%s': %s", src, strerror(errno));
        goto cleanup;
    }
    out = open(dst, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (out < 0) {
        log_error("Cannot create '%s': %s", dst, strerror(errno));
        goto cleanup;
    }
    created = true;
    if (pwrite(out, head, hl, 0) != (ssize_t)hl) {
        log_error("Cannot write '%s': %s", dst, strerror(errno));
        goto cleanup;
    }
    if (copy_rest(in, out, (off_t)hl, src, dst) < 0)
        goto cleanup;
    if (close(out) < 0) {
        out = -1;
        log_error("Cannot write '%s': %s", dst, strerror(errno));
        goto cleanup;
    }
    out = -1;
    rc = 0;
cleanup:
    if (in >= 0)
        close(in);
    if (out >= 0)
        close(out);
    if (rc < 0 && created)
        unlink(dst);
    free(head);
    return rc;
}
