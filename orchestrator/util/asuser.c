/* asuser.c: file work as another user, in a child that gave up root (see
 * asuser.h). */
#include "util/asuser.h"

#include "util/extents.h"
#include "util/log.h"
#include "util/monotime.h"
#include "util/signals.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define CHUNK (256 * 1024)

/* what the child reports through its pipe: the index it stopped at and errno */
struct verdict {
    size_t index;
    int err;
};

/* the child's buffer: it must not allocate (a parent with threads may have
 * held malloc's lock at the fork) */
static char chunk[CHUNK];

/* For good: the raw system calls change this thread's ids, the only thread
 * of the child (glibc's wrappers would signal the parent's threads, which
 * the child does not have). */
static int become(uid_t uid, gid_t gid)
{
    if (syscall(SYS_setgroups, 0, NULL) < 0 || syscall(SYS_setresgid, gid, gid, gid) < 0 ||
        syscall(SYS_setresuid, uid, uid, uid) < 0)
        return -1;
    if (getuid() != uid || geteuid() != uid || getgid() != gid || getegid() != gid) {
        errno = EPERM;
        return -1;
    }
    umask(S_IRWXO); /* the modes asked for, as a server's own files get them */
    return 0;
}

/* src's bytes into dst, its holes kept (extents.h) */
static int copy_fd(int src, int dst)
{
    struct stat st;
    if (fstat(src, &st) < 0)
        return -1;
    return extents_copy(src, dst, st.st_size, chunk, sizeof(chunk));
}

struct job {
    int dirfd;
    const struct asuser_copy *files;
    const char *const *names;
    size_t n;
};

/* The child keeps only the descriptors it works with (the directory, the
 * sources, its pipe): every other one of vbed's -- libvirt's socket, other
 * directories -- is closed before it becomes the other user, who may then
 * signal it but must find nothing of root's in it. No allocation: the set
 * sorted on the stack. */
static void close_others(const struct job *j, int pipe_fd)
{
    size_t n = 2 + (j->files ? j->n : 0);
    int keep[n];
    size_t k = 0;
    keep[k++] = j->dirfd;
    keep[k++] = pipe_fd;
    for (size_t i = 0; j->files && i < j->n; i++)
        keep[k++] = j->files[i].src_fd;
    for (size_t i = 1; i < k; i++) /* insertion sort: a few fds */
        for (size_t m = i; m > 0 && keep[m - 1] > keep[m]; m--) {
            int t = keep[m];
            keep[m] = keep[m - 1];
            keep[m - 1] = t;
        }
    unsigned int from = 3;
    for (size_t i = 0; i < k; i++) {
        if (keep[i] < 0 || (unsigned int)keep[i] < from)
            continue;
        if ((unsigned int)keep[i] > from)
            syscall(SYS_close_range, from, (unsigned int)keep[i] - 1, 0);
        from = (unsigned int)keep[i] + 1;
    }
    syscall(SYS_close_range, from, ~0U, 0);
}

/* how long a job may take: a minute, and a second per 20 MiB it copies */
static double job_limit_s(const struct job *j)
{
    double bytes = 0;
    for (size_t i = 0; j->files && i < j->n; i++) {
        struct stat st;
        if (fstat(j->files[i].src_fd, &st) == 0)
            bytes += (double)st.st_size;
    }
    return 60 + bytes / (20 << 20);
}

/* in the child: index n when all went well */
static struct verdict copy_in(const struct job *j)
{
    size_t i = 0;
    for (; i < j->n; i++) {
        int fd = openat(j->dirfd, j->files[i].name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                        0660);
        if (fd < 0)
            return (struct verdict){i, errno};
        int rc = copy_fd(j->files[i].src_fd, fd);
        int err = errno;
        if (close(fd) < 0 && rc == 0) {
            rc = -1;
            err = errno;
        }
        if (rc < 0) {
            unlinkat(j->dirfd, j->files[i].name, 0);
            return (struct verdict){i, err};
        }
    }
    return (struct verdict){i, 0};
}

static struct verdict remove_names(const struct job *j)
{
    size_t i = 0;
    for (; i < j->n; i++)
        if (unlinkat(j->dirfd, j->names[i], 0) < 0 && errno != ENOENT)
            return (struct verdict){i, errno};
    return (struct verdict){i, 0};
}

/* fn(j) in a child as uid:gid; its verdict */
static int as_user(uid_t uid, gid_t gid, struct verdict (*fn)(const struct job *), const struct job *j,
                   size_t *failed)
{
    *failed = j->n;
    if (uid == 0) {
        errno = EINVAL;
        return -1;
    }
    int p[2];
    if (pipe2(p, O_CLOEXEC) < 0)
        return -1;
    pid_t pid = fork();
    if (pid < 0) {
        int err = errno;
        close(p[0]);
        close(p[1]);
        errno = err;
        return -1;
    }
    if (pid == 0) {
        close(p[0]);
        close_others(j, p[1]);
        struct verdict v = {j->n, 0};
        if (become(uid, gid) < 0)
            v.err = errno;
        else
            v = fn(j);
        ssize_t w = write(p[1], &v, sizeof(v));
        _exit(w == (ssize_t)sizeof(v) && v.err == 0 ? 0 : 1);
    }
    close(p[1]);
    int status = 0;
    /* the child is the other user's to signal: stopped (SIGSTOP) or late,
     * it is killed rather than waited for */
    enum { RUNNING, INTERRUPTED, STOPPED, LATE } why = RUNNING;
    double deadline = monotime_s() + job_limit_s(j);
    for (;;) {
        pid_t r = waitpid(pid, &status, WNOHANG | WUNTRACED);
        if (r == pid && WIFSTOPPED(status)) {
            if (why == RUNNING)
                why = STOPPED;
            kill(pid, SIGKILL);
            continue;
        }
        if (r == pid || (r < 0 && errno != EINTR))
            break;
        if (why == RUNNING && (signals_interrupted() || monotime_s() >= deadline)) {
            why = signals_interrupted() ? INTERRUPTED : LATE;
            kill(pid, SIGKILL);
        }
        signals_sleep_ms(5);
    }
    struct verdict v = {j->n, EIO};
    ssize_t got = read(p[0], &v, sizeof(v));
    close(p[0]);
    if (why == STOPPED || why == LATE)
        log_error("The child working as uid %u was %s: killed.", (unsigned)uid,
                  why == STOPPED ? "stopped (SIGSTOP, which its user may send)"
                                 : "not done within its time");
    if (why != RUNNING) {
        v = (struct verdict){j->n, why == INTERRUPTED ? EINTR : why == STOPPED ? ECANCELED : ETIMEDOUT};
    } else if (got != (ssize_t)sizeof(v) || !WIFEXITED(status)) {
        v = (struct verdict){j->n, EIO};
    }
    if (v.err == 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return 0;
    *failed = v.index;
    errno = v.err ? v.err : EIO;
    return -1;
}

int asuser_copy_in(uid_t uid, gid_t gid, int dirfd, const struct asuser_copy *files, size_t n,
                   size_t *failed)
{
    for (size_t i = 0; i < n; i++)
        if (!files[i].name[0] || strchr(files[i].name, '/')) {
            *failed = i;
            errno = EINVAL;
            return -1;
        }
    struct job j = {.dirfd = dirfd, .files = files, .n = n};
    if (as_user(uid, gid, copy_in, &j, failed) == 0)
        return 0;
    int err = errno;
    size_t made = *failed < n ? *failed : 0; /* the files before the failing one */
    if (made > 0) {
        const char *names[made];
        for (size_t i = 0; i < made; i++)
            names[i] = files[i].name;
        size_t ignored;
        asuser_unlink(uid, gid, dirfd, names, made, &ignored);
    }
    errno = err;
    return -1;
}

int asuser_unlink(uid_t uid, gid_t gid, int dirfd, const char *const names[], size_t n, size_t *failed)
{
    for (size_t i = 0; i < n; i++)
        if (!names[i][0] || strchr(names[i], '/')) {
            *failed = i;
            errno = EINVAL;
            return -1;
        }
    struct job j = {.dirfd = dirfd, .names = names, .n = n};
    return as_user(uid, gid, remove_names, &j, failed);
}
