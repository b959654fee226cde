/* safefile.h: the files root opens where another user may write (a host
 * arm's mysql directory) or next to such a place: never through a symbolic
 * link, never a FIFO, device or directory where a file is meant, never more
 * bytes than the caller asked for; and the check that a directory (and
 * every directory above it) can be changed by root alone.
 *
 * Reads set errno and leave reporting to the caller, who knows what the
 * file is (safefile_why names the reason); writes report once, with the
 * path. A name is one path component (no '/') unless said otherwise. */
#ifndef VBED_SAFEFILE_H
#define VBED_SAFEFILE_H

#include <stdbool.h>
#include <stddef.h>

/* dir, and every directory above it, can be changed only by root or by
 * this process's user: each is owned by one of them and not writable by
 * group or others (a directory above dir may be, if it is sticky, as /tmp
 * is); dir itself is not a symbolic link. 0, or -1 with the reason in why. */
int safefile_trusted_dir(const char *dir, char *why, size_t len);

/* The directory rel ("a/b/c", relative to at) opened without following a
 * symbolic link at any step; an fd, or -1 with errno set. */
int safefile_open_dir(int at, const char *rel);

/* name in dirfd opened for reading: not a symbolic link (ELOOP), not
 * blocking on a FIFO, and a regular file (otherwise EINVAL). An fd, or -1
 * with errno set. */
int safefile_open_read(int dirfd, const char *name);

/* At most the last max bytes of name in dirfd (read by seeking from its
 * end, whatever its size), NUL-terminated, NUL bytes in it replaced by
 * '?'; *len (may be NULL) its length. NULL with errno set. */
char *safefile_read_tail(int dirfd, const char *name, size_t max, size_t *len);

/* The whole of name in dirfd if it holds at most max bytes (EFBIG if it
 * holds more), NUL-terminated. NULL with errno set. */
char *safefile_read_small(int dirfd, const char *name, size_t max);
/* The same, its length in *len (it may hold NUL bytes). */
char *safefile_read_small_len(int dirfd, const char *name, size_t max, size_t *len);

/* name in dirfd (another user's: owner) copied whole, its holes kept
 * (extents.h), to the new file
 * name in destfd (mode 0600; never through a link, never over a file
 * there), if it is a regular file of owner's (else EPERM) with no other
 * link (else EMLINK) and at most max bytes (else EFBIG); never more bytes
 * than it had when opened. Its size, or -1 with errno set (the new file
 * removed). */
long long safefile_copy_owned(int dirfd, const char *name, unsigned owner, size_t max, int destfd);

/* name in dirfd created or truncated, never through a link, mode 0644 for
 * a new file; an fd open for writing, or -1 reported (path names it). */
int safefile_create(int dirfd, const char *name, const char *path);

/* len bytes written to name in dirfd as safefile_create makes it. -1
 * reported. */
int safefile_write(int dirfd, const char *name, const char *path, const void *data, size_t len);

/* The reason for errno of a safefile read, for messages: "it is a symbolic
 * link (not followed)", "it is not a regular file", "it is another user's",
 * "it has another link", or strerror's. */
const char *safefile_why(int err);

#endif
