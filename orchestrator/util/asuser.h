/* asuser.h: file work done as another user, in a directory that user can
 * write -- where root must not act itself: a link or a file swapped in
 * there would turn root's write, or its removal, onto a file of root's.
 *
 * Each call forks a child that gives up root for good (no supplementary
 * groups, then real, effective and saved gid and uid the user's; refused
 * for uid 0) and does only the system calls below before it exits. Root's
 * side opens what is root's (the sources, in root's own directories) and
 * hands the child the fds. The child does not allocate: the calls are safe
 * in a process with threads. An interruption of vbed (signals.h) stops the
 * child. */
#ifndef VBED_ASUSER_H
#define VBED_ASUSER_H

#include <stddef.h>
#include <sys/types.h>

struct asuser_copy {
    int src_fd;       /* read from offset 0 to its end (pread: its offset stays) */
    const char *name; /* a new file in the directory, no '/' */
};

/* Each file's bytes into a new file name in dirfd, created by uid:gid
 * (O_CREAT | O_EXCL | O_NOFOLLOW, mode 0660: never over or through what is
 * there), the source's holes left holes (extents.h). 0; or -1 with errno set and *failed the
 * index of the file, the new files before it removed again (n: not at a
 * file -- the fork, the user, an interruption: what the child made is left
 * to the caller, whose directory it is). */
int asuser_copy_in(uid_t uid, gid_t gid, int dirfd, const struct asuser_copy *files, size_t n,
                   size_t *failed);

/* names in dirfd removed by uid:gid; a name already gone is no error. 0, or
 * -1 with errno set and *failed the index of the name (n: not at a name). */
int asuser_unlink(uid_t uid, gid_t gid, int dirfd, const char *const names[], size_t n,
                  size_t *failed);

#endif
