/* extents.h: where a file holds bytes and where it holds holes, and copies
 * that keep its holes where they were.
 *
 * A page-compressed InnoDB table is a sparse file: each page's tail a hole
 * the server punched, extents it reserved still allocated zeros. A copy
 * that wrote every byte would fill the holes (20,000 page-zlib rows: 12 MiB
 * on disk instead of 3.4 MiB); one that dug a hole wherever a block is
 * zeros would also free what the server reserved. These copy the data
 * extents alone, at their offsets: the copy's holes are the original's
 * (block-aligned, on filesystems of the same block size).
 * No allocation: safe in the child of a process with threads (asuser.h). */
#ifndef VBED_EXTENTS_H
#define VBED_EXTENTS_H

#include <stddef.h>
#include <sys/types.h>

/* The first data extent of fd at or after at (fd is size bytes long):
 * [*start, *end). 0; 1 when only a hole is left; -1 with errno set. A
 * filesystem without SEEK_DATA has one extent, the whole file. Moves fd's
 * file offset. */
int extents_next(int fd, off_t at, off_t size, off_t *start, off_t *end);

/* size bytes of in into out at the same offsets, the holes left holes and
 * out's size set; buf (len bytes) is the copy's buffer. 0, or -1 with errno
 * set (a file that shrank while it was copied: EIO). */
int extents_copy(int in, int out, off_t size, char *buf, size_t len);

#endif
