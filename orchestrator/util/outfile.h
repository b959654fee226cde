/* outfile.h: a file written into a directory held by a descriptor, the
 * way root writes where a planted link or file must not redirect it.
 *
 * The new file is made next to its final name under an unpredictable
 * temporary name (".NAME.XXXXXXXX", 8 random letters) with
 * openat(O_CREAT | O_EXCL | O_NOFOLLOW), so that nothing planted there in
 * advance -- a symbolic link, a hard link to another file, a FIFO -- is
 * ever opened; it is written, flushed, and renameat() puts it in place,
 * which replaces whatever was at the name (a link included) without
 * following it. A reader never sees a half-written file. On failure the
 * temporary file is removed and nothing at the final name changes.
 *
 * The directory itself: outfile_open_dir opens one for writing, and says
 * whether it can be trusted -- root's (or this process's user's) and
 * writable by no one else -- which is the caller's to require. Any thread
 * (each outfile is one thread's). */
#ifndef VBED_UTIL_OUTFILE_H
#define VBED_UTIL_OUTFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct outfile;

/* name (one path component) in dirfd, for writing: its stream (fully
 * buffered) in *f. path names it in messages. NULL reported. */
struct outfile *outfile_begin(int dirfd, const char *name, const char *path, FILE **f);
/* The stream flushed, synced and closed, the file renamed into place with
 * mode 0644. 0, or -1 reported (the temporary file removed). Frees of. */
int outfile_commit(struct outfile *of);
/* The file abandoned: nothing at the final name changes. NULL-safe. */
void outfile_abort(struct outfile *of);

/* len bytes as name in dirfd, as above. -1 reported. */
int outfile_write(int dirfd, const char *name, const char *path, const void *data, size_t len);

/* The directory dir opened (following the links of the path given: the
 * caller named it) as a descriptor; *trusted (may be NULL) whether only
 * root or this process's user can change what is in it -- owned by one of
 * them and not writable by group or others -- else why says whose it is.
 * -1 reported (not a directory, cannot be opened). */
int outfile_open_dir(const char *dir, bool *trusted, char *why, size_t len);

#endif
