/* safefile.c: files opened without following links, read within bounds,
 * and directories only root can change (see safefile.h). */
#include "util/safefile.h"

#include "util/extents.h"

#include "util/log.h"
#include "util/xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* one directory of the chain: root's or ours, and writable by no one else
 * (unless sticky and sticky_ok) */
static int trusted_step(const char *path, bool sticky_ok, char *why, size_t len)
{
    struct stat st;
    if (lstat(path, &st) < 0) {
        snprintf(why, len, "cannot look at '%s': %s", path, strerror(errno));
        return -1;
    }
    if (S_ISLNK(st.st_mode) || !S_ISDIR(st.st_mode)) {
        snprintf(why, len, "'%s' is not a directory (or is a symbolic link)", path);
        return -1;
    }
    if (st.st_uid != 0 && st.st_uid != geteuid()) {
        snprintf(why, len, "'%s' belongs to uid %u, not to root", path, (unsigned)st.st_uid);
        return -1;
    }
    if ((st.st_mode & (S_IWGRP | S_IWOTH)) && !(sticky_ok && (st.st_mode & S_ISVTX))) {
        snprintf(why, len, "'%s' is writable by its group or by others (mode %04o)", path,
                 (unsigned)(st.st_mode & 07777));
        return -1;
    }
    return 0;
}

int safefile_trusted_dir(const char *dir, char *why, size_t len)
{
    char real[PATH_MAX];
    struct stat st;
    if (lstat(dir, &st) < 0) {
        snprintf(why, len, "cannot look at '%s': %s", dir, strerror(errno));
        return -1;
    }
    if (S_ISLNK(st.st_mode)) {
        snprintf(why, len, "'%s' is a symbolic link", dir);
        return -1;
    }
    if (!realpath(dir, real)) {
        snprintf(why, len, "cannot resolve '%s': %s", dir, strerror(errno));
        return -1;
    }
    /* "/", "/a", "/a/b", ... up to dir itself, which must not be writable
     * by others even if sticky */
    if (trusted_step("/", strcmp(real, "/") != 0, why, len) < 0)
        return -1;
    for (char *p = real + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        int rc = trusted_step(real, true, why, len);
        *p = '/';
        if (rc < 0)
            return -1;
    }
    return strcmp(real, "/") == 0 ? 0 : trusted_step(real, false, why, len);
}

int safefile_open_dir(int at, const char *rel)
{
    char copy[PATH_MAX];
    if (snprintf(copy, sizeof(copy), "%s", rel) >= (int)sizeof(copy)) {
        errno = ENAMETOOLONG;
        return -1;
    }
    int fd = rel[0] == '/' ? open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
                           : openat(at, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    char *save = NULL;
    for (char *c = strtok_r(copy, "/", &save); c && fd >= 0; c = strtok_r(NULL, "/", &save)) {
        if (strcmp(c, "..") == 0) {
            close(fd);
            errno = EINVAL;
            return -1;
        }
        int next = openat(fd, c, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        int e = errno;
        close(fd);
        errno = e;
        fd = next;
    }
    return fd;
}

int safefile_open_read(int dirfd, const char *name)
{
    if (strchr(name, '/')) {
        errno = EINVAL;
        return -1;
    }
    int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    struct stat st;
    int e = fstat(fd, &st) < 0 ? errno : !S_ISREG(st.st_mode) ? EINVAL : 0;
    if (e) {
        close(fd);
        errno = e;
        return -1;
    }
    return fd;
}

/* up to want bytes from fd at off into buf; the bytes read, -1 on error */
static ssize_t read_at(int fd, char *buf, size_t want, off_t off)
{
    size_t got = 0;
    while (got < want) {
        ssize_t n = pread(fd, buf + got, want - got, off + (off_t)got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return -1;
        if (n == 0)
            break;
        got += (size_t)n;
    }
    return (ssize_t)got;
}

char *safefile_read_tail(int dirfd, const char *name, size_t max, size_t *len)
{
    int fd = safefile_open_read(dirfd, name);
    if (fd < 0)
        return NULL;
    struct stat st;
    char *text = NULL;
    if (fstat(fd, &st) < 0)
        goto cleanup;
    size_t size = (size_t)st.st_size;
    size_t want = size > max ? max : size;
    text = xcalloc(1, want + 1);
    ssize_t n = read_at(fd, text, want, (off_t)(size - want));
    if (n < 0) {
        int e = errno;
        free(text);
        text = NULL;
        errno = e;
        goto cleanup;
    }
    for (ssize_t i = 0; i < n; i++)
        if (text[i] == '\0')
            text[i] = '?';
    text[n] = '\0';
    if (len)
        *len = (size_t)n;
cleanup:;
    int e = errno;
    close(fd);
    errno = e;
    return text;
}

char *safefile_read_small_len(int dirfd, const char *name, size_t max, size_t *len)
{
    int fd = safefile_open_read(dirfd, name);
    if (fd < 0)
        return NULL;
    /* sized by the file (it may grow while read: never more than max + 1) */
    struct stat st;
    int e = fstat(fd, &st) < 0 ? errno : (size_t)st.st_size > max ? EFBIG : 0;
    char *text = NULL;
    ssize_t n = 0;
    if (!e) {
        size_t want = (size_t)st.st_size + 1 < max + 1 ? (size_t)st.st_size + 1 : max + 1;
        text = xcalloc(1, want + 1);
        n = read_at(fd, text, want, 0);
        e = n < 0 ? errno : (size_t)n > max ? EFBIG : 0;
        /* grown past its size when opened: read on, up to max + 1 */
        if (!e && (size_t)n == want && want < max + 1) {
            text = xrealloc(text, max + 2);
            ssize_t more = read_at(fd, text + n, max + 1 - (size_t)n, (off_t)n);
            e = more < 0 ? errno : (size_t)(n + more) > max ? EFBIG : 0;
            n += more > 0 ? more : 0;
        }
    }
    close(fd);
    if (e) {
        free(text);
        errno = e;
        return NULL;
    }
    text[n] = '\0';
    if (len)
        *len = (size_t)n;
    return text;
}

char *safefile_read_small(int dirfd, const char *name, size_t max)
{
    return safefile_read_small_len(dirfd, name, max, NULL);
}

int safefile_create(int dirfd, const char *name, const char *path)
{
    int fd = -1;
    if (strchr(name, '/')) {
        errno = EINVAL;
    } else {
        fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC,
                    0644);
        struct stat st;
        if (fd >= 0 && (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))) {
            close(fd);
            fd = -1;
            errno = EINVAL;
        }
    }
    if (fd < 0)
        log_error("Cannot write '%s': %s", path, safefile_why(errno));
    return fd;
}

int safefile_write(int dirfd, const char *name, const char *path, const void *data, size_t len)
{
    int fd = safefile_create(dirfd, name, path);
    if (fd < 0)
        return -1;
    const char *p = data;
    size_t done = 0;
    while (done < len) {
        ssize_t n = write(fd, p + done, len - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        done += (size_t)n;
    }
    int e = done == len ? 0 : errno ? errno : EIO;
    if (close(fd) < 0 && !e)
        e = errno;
    if (e) {
        log_error("Cannot write '%s': %s", path, strerror(e));
        return -1;
    }
    return 0;
}

long long safefile_copy_owned(int dirfd, const char *name, unsigned owner, size_t max, int destfd)
{
    int in = safefile_open_read(dirfd, name);
    if (in < 0)
        return -1;
    struct stat st;
    int err = fstat(in, &st) < 0       ? errno
              : st.st_uid != owner     ? EPERM
              : st.st_nlink != 1       ? EMLINK
              : (size_t)st.st_size > max ? EFBIG
                                       : 0;
    int out = err ? -1 : openat(destfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (!err && out < 0)
        err = errno;
    char buf[1 << 16];
    /* the data extents alone: a sparse file's holes stay holes (extents.h) */
    if (!err && extents_copy(in, out, st.st_size, buf, sizeof(buf)) < 0)
        err = errno;
    if (out >= 0 && close(out) < 0 && !err)
        err = errno;
    if (out >= 0 && err)
        unlinkat(destfd, name, 0);
    close(in);
    errno = err;
    return err ? -1 : (long long)st.st_size;
}

const char *safefile_why(int err)
{
    switch (err) {
    case EPERM:
        return "it is another user's";
    case EMLINK:
        return "it has another link";
    case ELOOP:
        return "it is a symbolic link (not followed)";
    case EINVAL:
        return "it is not a regular file";
    case EFBIG:
        return "it is larger than such a file can be";
    default:
        return strerror(err);
    }
}
