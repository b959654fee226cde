/* outfile.c: files written into a directory descriptor under a temporary
 * name and renamed into place (see outfile.h). */
#include "util/outfile.h"

#include "util/log.h"
#include "util/xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

struct outfile {
    int dirfd;
    FILE *f;
    char name[NAME_MAX + 1];
    char tmp[NAME_MAX + 1];
    char path[PATH_MAX];
};

/* ".name.XXXXXXXX" with 8 random letters into buf; -1 if name is too long
 * or the kernel gives no random bytes */
static int temp_name(const char *name, char *buf, size_t len)
{
    unsigned char r[8];
    if (getrandom(r, sizeof(r), 0) != (ssize_t)sizeof(r))
        return -1;
    char s[9];
    for (size_t i = 0; i < 8; i++)
        s[i] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"[r[i] % 52];
    s[8] = '\0';
    return snprintf(buf, len, ".%s.%s", name, s) < (int)len ? 0 : -1;
}

struct outfile *outfile_begin(int dirfd, const char *name, const char *path, FILE **f)
{
    *f = NULL;
    if (!*name || strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, "..") ||
        strlen(name) > NAME_MAX - 10) {
        log_error("Cannot write '%s': not a file name.", path);
        return NULL;
    }
    struct outfile *of = xcalloc(1, sizeof(*of));
    of->dirfd = dirfd;
    snprintf(of->name, sizeof(of->name), "%s", name);
    snprintf(of->path, sizeof(of->path), "%s", path);
    int fd = -1;
    /* a name already taken (planted, or a rare collision): another one */
    for (int tries = 0; fd < 0 && tries < 16; tries++) {
        if (temp_name(name, of->tmp, sizeof(of->tmp)) < 0) {
            errno = EIO;
            break;
        }
        fd = openat(dirfd, of->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (fd < 0 && errno != EEXIST)
            break;
    }
    if (fd < 0 || !(of->f = fdopen(fd, "w"))) {
        log_error("Cannot write '%s': %s", path, strerror(errno));
        if (fd >= 0) {
            close(fd);
            unlinkat(dirfd, of->tmp, 0);
        }
        free(of);
        return NULL;
    }
    *f = of->f;
    return of;
}

void outfile_abort(struct outfile *of)
{
    if (!of)
        return;
    if (of->f)
        fclose(of->f);
    unlinkat(of->dirfd, of->tmp, 0);
    free(of);
}

int outfile_commit(struct outfile *of)
{
    int e = 0;
    if (fflush(of->f) != 0 || ferror(of->f))
        e = errno ? errno : EIO;
    int fd = fileno(of->f);
    if (!e && fchmod(fd, 0644) < 0)
        e = errno;
    if (!e && fsync(fd) < 0 && errno != EINVAL)
        e = errno;
    if (fclose(of->f) != 0 && !e)
        e = errno;
    of->f = NULL;
    if (!e && renameat(of->dirfd, of->tmp, of->dirfd, of->name) < 0)
        e = errno;
    if (e) {
        log_error("Cannot write '%s': %s", of->path, strerror(e));
        unlinkat(of->dirfd, of->tmp, 0);
    }
    free(of);
    return e ? -1 : 0;
}

int outfile_write(int dirfd, const char *name, const char *path, const void *data, size_t len)
{
    FILE *f;
    struct outfile *of = outfile_begin(dirfd, name, path, &f);
    if (!of)
        return -1;
    if (len && fwrite(data, 1, len, f) != len) {
        log_error("Cannot write '%s': %s", path, strerror(errno));
        outfile_abort(of);
        return -1;
    }
    return outfile_commit(of);
}

int outfile_open_dir(const char *dir, bool *trusted, char *why, size_t len)
{
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) < 0) {
        log_error("Cannot open the directory '%s': %s", dir, strerror(errno));
        if (fd >= 0)
            close(fd);
        return -1;
    }
    bool ours = st.st_uid == 0 || st.st_uid == geteuid();
    bool shared = (st.st_mode & (S_IWGRP | S_IWOTH)) != 0;
    if (trusted)
        *trusted = ours && !shared;
    if (why && len) {
        if (!ours)
            snprintf(why, len, "it belongs to uid %u", (unsigned)st.st_uid);
        else if (shared)
            snprintf(why, len, "its group or others can write in it (mode %04o)",
                     (unsigned)(st.st_mode & 07777));
        else
            why[0] = '\0';
    }
    return fd;
}
