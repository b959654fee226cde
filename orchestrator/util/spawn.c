/* spawn.c: run child programs (see spawn.h).
 *
 * Each child gets its own process group, so that a terminal's SIGINT reaches
 * vbed alone and vbed decides what to stop: kill(-pid) then takes down the
 * child and whatever it started (debootstrap's dpkg, for instance). */
#include "util/spawn.h"

#include "util/log.h"
#include "util/monotime.h"
#include "util/signals.h"
#include "util/xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

void spawn_describe(const char *const argv[], char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; argv[i] && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? " " : "", argv[i]);
    if (used >= len && len > 4)
        memcpy(buf + len - 4, "...", 4);
}

/* In the child: a /dev of its own for the tree. Never the host's /dev:
 * package scripts in the tree (udev's, for one) would chown the host's
 * device nodes to the tree's groups. */
static int private_dev(const char *root)
{
    static const struct {
        const char *name;
        unsigned major, minor;
    } nodes[] = {{"null", 1, 3}, {"zero", 1, 5}, {"full", 1, 7}, {"random", 1, 8},
                 {"urandom", 1, 9}, {"tty", 5, 0}};
    char path[4096];
    snprintf(path, sizeof(path), "%s/dev", root);
    if (mount("vbed-dev", path, "tmpfs", MS_NOSUID, "mode=0755") < 0)
        return -1;
    for (size_t i = 0; i < sizeof(nodes) / sizeof(nodes[0]); i++) {
        snprintf(path, sizeof(path), "%s/dev/%s", root, nodes[i].name);
        /* chmod: mknod's mode is cut by the umask */
        if (mknod(path, S_IFCHR | 0666, makedev(nodes[i].major, nodes[i].minor)) < 0 ||
            chmod(path, 0666) < 0)
            return -1;
    }
    snprintf(path, sizeof(path), "%s/dev/pts", root);
    if (mkdir(path, 0755) < 0 || mount("devpts", path, "devpts", MS_NOSUID | MS_NOEXEC,
                                       "newinstance,ptmxmode=0666,mode=0620") < 0)
        return -1;
    snprintf(path, sizeof(path), "%s/dev/ptmx", root);
    return symlink("pts/ptmx", path);
}

/* In the child: private mounts of /proc, /sys and /dev, then chroot. */
static int enter_chroot(const char *root)
{
    char path[4096];
    if (unshare(CLONE_NEWNS) < 0 || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
        return -1;
    snprintf(path, sizeof(path), "%s/proc", root);
    if (mount("proc", path, "proc", 0, NULL) < 0)
        return -1;
    snprintf(path, sizeof(path), "%s/sys", root);
    if (mount("sysfs", path, "sysfs", MS_RDONLY, NULL) < 0)
        return -1;
    if (private_dev(root) < 0)
        return -1;
    if (chroot(root) < 0 || chdir("/") < 0)
        return -1;
    return 0;
}

static void write_pid(const char *file)
{
    int fd = open(file, O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return;
    char buf[32];
    int n = snprintf(buf, sizeof(buf), "%d\n", (int)getpid());
    if (write(fd, buf, (size_t)n) < 0) {
        /* the parent checks the cgroup's membership; nothing to do here */
    }
    close(fd);
}

/* Never returns. err_pipe receives errno if anything before exec fails. */
static void child(const char *const argv[], const struct spawn_opts *o, int out_fd, int errout_fd,
                  int log_fd, int err_pipe)
{
    setpgid(0, 0);
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGHUP, SIG_DFL);
    signal(SIGPIPE, SIG_DFL);
    signal(SIGXFSZ, SIG_DFL);
    if (o->output_max > 0) {
        struct rlimit rl = {(rlim_t)o->output_max, (rlim_t)o->output_max};
        if (setrlimit(RLIMIT_FSIZE, &rl) < 0)
            goto fail;
    }
    int devnull = open("/dev/null", O_RDWR);
    dup2(devnull, STDIN_FILENO);
    if (!o->inherit_output) {
        dup2(out_fd >= 0 ? out_fd : (log_fd >= 0 ? log_fd : devnull), STDOUT_FILENO);
        dup2(errout_fd >= 0 ? errout_fd : (log_fd >= 0 ? log_fd : devnull), STDERR_FILENO);
    }
    /* the program gets 0-2 only: a descriptor vbed inherited from its own
     * parent (a pipe someone reads to its end) would otherwise live on in a
     * daemon -- mariadbd, another user's process -- and keep it open: ssh
     * then waited on a host arm's helper for as long as its mariadbd ran.
     * Marked close-on-exec, not closed: err_pipe still reports a failed exec */
    if (close_range(3, ~0U, CLOSE_RANGE_CLOEXEC) < 0)
        for (int fd = 3; fd < 4096; fd++)
            fcntl(fd, F_SETFD, FD_CLOEXEC);
    for (int i = 0; i < 4 && o->cgroup_procs[i]; i++)
        write_pid(o->cgroup_procs[i]);
    for (size_t i = 0; o->env && o->env[i]; i++)
        putenv((char *)o->env[i]);
    if (o->chroot && enter_chroot(o->chroot) < 0)
        goto fail;
    if (!o->chroot && o->private_mounts &&
        (unshare(CLONE_NEWNS) < 0 || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0))
        goto fail;
    if (o->cwd && chdir(o->cwd) < 0)
        goto fail;
    execvp(argv[0], (char *const *)argv);
fail:;
    int e = errno;
    if (write(err_pipe, &e, sizeof(e)) < 0) {
        /* nothing left to tell */
    }
    _exit(127);
}

/* A captured output of a child: its pipe (-1 once closed) and what came. */
struct stream {
    int fd;
    char *buf;
    size_t len, cap, max;
};

struct running {
    pid_t pid;
    struct stream out, err;
};

static pid_t start(const char *const argv[], const struct spawn_opts *o, int *capture_fd,
                   int *capture_err_fd)
{
    char desc[512];
    spawn_describe(argv, desc, sizeof(desc));
    int log_fd = -1, cap[2] = {-1, -1}, cerr[2] = {-1, -1}, errp[2] = {-1, -1};
    pid_t pid = -1;

    if (o->log_path) {
        log_fd = open(o->log_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
        if (log_fd < 0) {
            log_error("Cannot open log '%s' for '%s': %s", o->log_path, desc, strerror(errno));
            return -1;
        }
    }
    if ((capture_fd && pipe2(cap, O_CLOEXEC) < 0) || (capture_err_fd && pipe2(cerr, O_CLOEXEC) < 0) ||
        pipe2(errp, O_CLOEXEC) < 0) {
        log_error("Cannot make a pipe for '%s': %s", desc, strerror(errno));
        goto cleanup;
    }
    pid = fork();
    if (pid < 0) {
        log_error("Cannot fork to run '%s': %s", desc, strerror(errno));
        goto cleanup;
    }
    if (pid == 0)
        child(argv, o, cap[1], cerr[1], log_fd, errp[1]);
    setpgid(pid, pid); /* also from the parent: no race with kill(-pid) */

    close(errp[1]);
    errp[1] = -1;
    int child_errno = 0;
    ssize_t n;
    while ((n = read(errp[0], &child_errno, sizeof(child_errno))) < 0 && errno == EINTR)
        ;
    if (n == (ssize_t)sizeof(child_errno)) {
        log_error("Cannot run '%s': %s", desc, strerror(child_errno));
        waitpid(pid, NULL, 0);
        pid = -1;
        goto cleanup;
    }
    if (capture_fd) {
        *capture_fd = cap[0];
        cap[0] = -1;
    }
    if (capture_err_fd) {
        *capture_err_fd = cerr[0];
        cerr[0] = -1;
    }
cleanup:
    if (log_fd >= 0)
        close(log_fd);
    for (int i = 0; i < 2; i++) {
        if (cap[i] >= 0)
            close(cap[i]);
        if (cerr[i] >= 0)
            close(cerr[i]);
        if (errp[i] >= 0)
            close(errp[i]);
    }
    return pid;
}

pid_t spawn_start(const char *const argv[], const struct spawn_opts *o)
{
    return start(argv, o, NULL, NULL);
}

void spawn_stop(pid_t pid, long grace)
{
    /* never kill(-1) or kill(0): pid is a child of ours, its own group */
    if (pid <= 1)
        return;
    kill(-pid, SIGTERM);
    kill(pid, SIGTERM);
    double deadline = monotime_s() + (double)grace;
    for (;;) {
        pid_t r = waitpid(pid, NULL, WNOHANG);
        if (r == pid || (r < 0 && errno == ECHILD))
            return;
        if (monotime_s() >= deadline)
            break;
        struct timespec ts = {0, 50 * 1000000L};
        nanosleep(&ts, NULL);
    }
    kill(-pid, SIGKILL);
    kill(pid, SIGKILL);
    while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
        ;
}

static int status_of(int status, const char *what, int quiet)
{
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    if (WTERMSIG(status) == SIGXFSZ)
        return SPAWN_TOO_LARGE; /* output_max: the caller knows the log, and says so */
    if (!quiet)
        log_error("'%s' died of signal %d (%s).", what, WTERMSIG(status), strsignal(WTERMSIG(status)));
    return SPAWN_SIGNALED;
}

/* One read from s's pipe into its buffer, which never grows much past
 * s->max; closes the pipe at its end or on an error. Returns the bytes
 * read. */
static ssize_t read_some(struct stream *s)
{
    if (s->len + 4096 + 1 > s->cap) {
        size_t want = (s->len + 4096 + 1) * 2, limit = s->max + 4096 + 1;
        s->cap = want < limit ? want : limit;
        s->buf = xrealloc(s->buf, s->cap);
    }
    ssize_t n = read(s->fd, s->buf + s->len, 4096);
    if (n > 0) {
        s->len += (size_t)n;
        return n;
    }
    if (n == 0 || errno != EINTR) {
        close(s->fd);
        s->fd = -1;
    }
    return 0;
}

static bool too_large(const struct running *r)
{
    return r->out.len > r->out.max || r->err.len > r->err.max;
}

/* The child printed more than it may: stop it. */
static int stop_too_large(struct running *r, const char *what, int quiet)
{
    if (!quiet)
        log_error("'%s' printed more than %zu bytes; stopped it.", what, r->out.max);
    if (r->pid > 0)
        spawn_stop(r->pid, 5);
    r->pid = -1;
    return SPAWN_TOO_LARGE;
}

/* Wait for pid, draining its captured outputs (those with fd >= 0) into r. */
static int wait_child(struct running *r, long timeout, const char *what, int quiet, int cleanup)
{
    double deadline = timeout > 0 ? monotime_s() + (double)timeout : 0;
    for (;;) {
        int status;
        struct stream *s[2];
        struct pollfd pfd[2];
        nfds_t n = 0;
        if (r->out.fd >= 0)
            s[n] = &r->out, pfd[n++] = (struct pollfd){.fd = r->out.fd, .events = POLLIN};
        if (r->err.fd >= 0)
            s[n] = &r->err, pfd[n++] = (struct pollfd){.fd = r->err.fd, .events = POLLIN};
        if (n && poll(pfd, n, 100) > 0) {
            ssize_t got = 0;
            for (nfds_t i = 0; i < n; i++)
                if (pfd[i].revents)
                    got += read_some(s[i]);
            if (too_large(r))
                return stop_too_large(r, what, quiet);
            if (got > 0)
                continue;
        }
        pid_t w = waitpid(r->pid, &status, WNOHANG);
        if (w == r->pid) {
            /* exited; drain what is left in the pipes */
            r->pid = -1;
            while (r->out.fd >= 0 && !too_large(r))
                read_some(&r->out);
            while (r->err.fd >= 0 && !too_large(r))
                read_some(&r->err);
            if (too_large(r))
                return stop_too_large(r, what, quiet);
            return status_of(status, what, quiet);
        }
        if (signals_interrupted() && !cleanup) {
            spawn_stop(r->pid, 5);
            return SPAWN_INTERRUPTED;
        }
        if (deadline && monotime_s() >= deadline) {
            if (!quiet)
                log_error("'%s' did not finish within %ld s; stopped it.", what, timeout);
            spawn_stop(r->pid, 5);
            return SPAWN_TIMEOUT;
        }
        if (r->out.fd < 0 && r->err.fd < 0) {
            struct timespec ts = {0, 100 * 1000000L};
            nanosleep(&ts, NULL);
        }
    }
}

void spawn_reap(pid_t pid, long timeout)
{
    struct running r = {.pid = pid, .out.fd = -1, .err.fd = -1};
    /* on timeout, wait_child stops it */
    (void)wait_child(&r, timeout, "", 1, 1);
}

int spawn_wait(pid_t pid, long timeout, const char *what)
{
    struct running r = {.pid = pid, .out.fd = -1, .err.fd = -1};
    return wait_child(&r, timeout, what, 0, 0);
}

/* s's text as a NUL-terminated string for the caller (freed if not wanted) */
static void hand_over(struct stream *s, char **to, size_t *len)
{
    if (s->fd >= 0)
        close(s->fd);
    if (!to) {
        free(s->buf);
        return;
    }
    if (!s->buf)
        s->buf = xcalloc(1, 1);
    s->buf[s->len < s->max ? s->len : s->max] = '\0';
    *to = s->buf;
    if (len)
        *len = s->len < s->max ? s->len : s->max;
}

int spawn_run(const char *const argv[], const struct spawn_opts *o)
{
    char desc[512];
    spawn_describe(argv, desc, sizeof(desc));
    size_t max = o->capture_max ? o->capture_max : SPAWN_CAPTURE_MAX;
    struct running r = {.out = {.fd = -1, .max = max}, .err = {.fd = -1, .max = max}};
    r.pid = start(argv, o, o->capture ? &r.out.fd : NULL, o->capture_err ? &r.err.fd : NULL);
    if (r.pid < 0)
        return SPAWN_FAILED;
    log_debug("running %s", desc);
    int rc = wait_child(&r, o->timeout, desc, o->quiet, o->cleanup);
    hand_over(&r.out, o->capture, o->capture_len);
    hand_over(&r.err, o->capture_err, NULL);
    return rc;
}
