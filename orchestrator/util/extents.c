/* extents.c: data extents and hole-keeping copies (see extents.h). */
#include "util/extents.h"

#include <errno.h>
#include <unistd.h>

int extents_next(int fd, off_t at, off_t size, off_t *start, off_t *end)
{
    if (at >= size)
        return 1;
    off_t data = lseek(fd, at, SEEK_DATA);
    if (data < 0 && errno == ENXIO)
        return 1;
    if (data < 0 && errno == EINVAL) { /* no SEEK_DATA here: all data */
        *start = at;
        *end = size;
        return 0;
    }
    if (data < 0)
        return -1;
    if (data >= size)
        return 1;
    off_t hole = lseek(fd, data, SEEK_HOLE);
    if (hole < 0)
        return -1;
    *start = data;
    *end = hole < size ? hole : size;
    return 0;
}

int extents_copy(int in, int out, off_t size, char *buf, size_t len)
{
    off_t at = 0, start, end;
    int rc;
    while ((rc = extents_next(in, at, size, &start, &end)) == 0) {
        for (off_t pos = start; pos < end;) {
            size_t want = (size_t)(end - pos) < len ? (size_t)(end - pos) : len;
            ssize_t got = pread(in, buf, want, pos);
            if (got < 0 && errno == EINTR)
                continue;
            if (got <= 0) {
                if (got == 0)
                    errno = EIO; /* it shrank */
                return -1;
            }
            for (ssize_t done = 0; done < got;) {
                ssize_t w = pwrite(out, buf + done, (size_t)(got - done), pos + done);
                if (w < 0 && errno == EINTR)
                    continue;
                if (w <= 0) {
                    if (w == 0)
                        errno = EIO;
                    return -1;
                }
                done += w;
            }
            pos += got;
        }
        at = end;
    }
    if (rc < 0)
        return -1;
    return ftruncate(out, size);
}
