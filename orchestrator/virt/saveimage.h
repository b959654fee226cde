/* saveimage.h: a libvirt (QEMU driver) save image given another identity.
 *
 * virDomainSaveFlags writes a header, the domain's XML, a cookie and then
 * QEMU's migration stream; virDomainRestoreFlags refuses an XML whose name
 * or UUID differs from the saved one (virDomainDefCheckABIStability). A
 * saved ready guest (readystate.h) serves every guest of every run, each
 * with its own name (vbed-<runid>-<arm>-<n>) and UUID, so each restore
 * reads a copy whose saved XML names that guest. libvirt offers no call
 * for it, so this file writes the one thing it must: the header's XML and
 * cookie, in the layout libvirt's qemu_saveimage.h declares ABI (magic
 * "LibvirtQemudSave", version 2, data_len, was_running, format,
 * cookieOffset, 14 unused words; the XML and the cookie NUL-terminated in
 * the data_len bytes that precede QEMU's stream, which stays as it is).
 * Anything else -- another magic or version, a compressed image, an XML
 * without exactly one <name> and one <uuid>, a new XML that does not fit
 * -- is refused, and the caller boots the guest instead. */
#ifndef VBED_SAVEIMAGE_H
#define VBED_SAVEIMAGE_H

#include <stddef.h>

#define SAVEIMAGE_HEADER_SIZE 92

/* The XML and cookie of a save image's header, read from its first bytes
 * (buf, len: at least the header and its data). 0 with *xml and *cookie
 * malloc'd (cookie "" if none) and *data_len set, or -1 with the reason in
 * why. Pure (unit tests and a fuzz target call it). */
int saveimage_parse(const unsigned char *buf, size_t len, char **xml, char **cookie,
                    unsigned *data_len, char *why, size_t whylen);

/* xml with its <name> and <uuid> replaced (malloc'd), or NULL with why. */
char *saveimage_rename_xml(const char *xml, const char *name, const char *uuid, char *why,
                           size_t whylen);

/* The header of save image src (its first *head_len bytes, up to QEMU's
 * stream) with its XML naming name and uuid instead: malloc'd into *head.
 * 0, or -1 reported. What follows in src follows unchanged (a remote
 * host's copy is uploaded as this head and then src from *head_len on). */
int saveimage_renamed_head(const char *src, const char *name, const char *uuid, unsigned char **head,
                           size_t *head_len);

/* Copy the save image src to dst (a new file, mode 0600), its XML naming
 * name and uuid instead. 0, or -1 reported. */
int saveimage_copy_as(const char *src, const char *dst, const char *name, const char *uuid);

#endif
