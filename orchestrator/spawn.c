/* spawn.c: run child programs (see spawn.h).
 *
 * Each child gets its own process group, so that a terminal's SIGINT reaches
 * vbed alone and vbed decides what to stop: kill(-pid) then takes down the
 * child and whatever it started (debootstrap's dpkg, for instance). */
#include "spawn.h"

#include "log.h"
#include "signals.h"
#include "xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
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

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
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
static void child(const char *const argv[], const struct spawn_opts *o, int out_fd, int log_fd,
                  int err_pipe)
{
    setpgid(0, 0);
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGHUP, SIG_DFL);
    signal(SIGPIPE, SIG_DFL);
    int devnull = open("/dev/null", O_RDWR);
    dup2(devnull, STDIN_FILENO);
    if (!o->inherit_output) {
        dup2(out_fd >= 0 ? out_fd : (log_fd >= 0 ? log_fd : devnull), STDOUT_FILENO);
        if (!o->keep_stderr)
            dup2(log_fd >= 0 ? log_fd : devnull, STDERR_FILENO);
    }
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

struct running {
    pid_t pid;
    int capture_fd;
    char *buf;
    size_t len, cap;
};

static pid_t start(const char *const argv[], const struct spawn_opts *o, int *capture_fd)
{
    char desc[512];
    spawn_describe(argv, desc, sizeof(desc));
    int log_fd = -1, cap[2] = {-1, -1}, errp[2] = {-1, -1};
    pid_t pid = -1;

    if (o->log_path) {
        log_fd = open(o->log_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
        if (log_fd < 0) {
            log_error("Cannot open log '%s' for '%s': %s", o->log_path, desc, strerror(errno));
            return -1;
        }
    }
    if ((capture_fd && pipe2(cap, O_CLOEXEC) < 0) || pipe2(errp, O_CLOEXEC) < 0) {
        log_error("Cannot make a pipe for '%s': %s", desc, strerror(errno));
        goto cleanup;
    }
    pid = fork();
    if (pid < 0) {
        log_error("Cannot fork to run '%s': %s", desc, strerror(errno));
        goto cleanup;
    }
    if (pid == 0)
        child(argv, o, cap[1], log_fd, errp[1]);
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
cleanup:
    if (log_fd >= 0)
        close(log_fd);
    for (int i = 0; i < 2; i++) {
        if (cap[i] >= 0)
            close(cap[i]);
        if (errp[i] >= 0)
            close(errp[i]);
    }
    return pid;
}

pid_t spawn_start(const char *const argv[], const struct spawn_opts *o)
{
    return start(argv, o, NULL);
}

void spawn_stop(pid_t pid, long grace)
{
    if (pid <= 0)
        return;
    kill(-pid, SIGTERM);
    kill(pid, SIGTERM);
    double deadline = now() + (double)grace;
    for (;;) {
        pid_t r = waitpid(pid, NULL, WNOHANG);
        if (r == pid || (r < 0 && errno == ECHILD))
            return;
        if (now() >= deadline)
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
    if (!quiet)
        log_error("'%s' died of signal %d (%s).", what, WTERMSIG(status), strsignal(WTERMSIG(status)));
    return SPAWN_SIGNALED;
}

/* One read from the capture pipe into r's buffer; closes the pipe at its
 * end or on an error. Returns the bytes read. */
static ssize_t read_some(struct running *r)
{
    if (r->len + 4096 + 1 > r->cap) {
        r->cap = (r->len + 4096 + 1) * 2;
        r->buf = xrealloc(r->buf, r->cap);
    }
    ssize_t n = read(r->capture_fd, r->buf + r->len, 4096);
    if (n > 0) {
        r->len += (size_t)n;
        return n;
    }
    if (n == 0 || errno != EINTR) {
        close(r->capture_fd);
        r->capture_fd = -1;
    }
    return 0;
}

/* Wait for pid, draining capture_fd (if >= 0) into r. */
static int wait_child(struct running *r, long timeout, const char *what, int quiet, int cleanup)
{
    double deadline = timeout > 0 ? now() + (double)timeout : 0;
    for (;;) {
        int status;
        if (r->capture_fd >= 0) {
            struct pollfd pfd = {.fd = r->capture_fd, .events = POLLIN};
            int pr = poll(&pfd, 1, 100);
            if (pr > 0 && read_some(r) > 0)
                continue;
        }
        pid_t w = waitpid(r->pid, &status, WNOHANG);
        if (w == r->pid && r->capture_fd < 0)
            return status_of(status, what, quiet);
        if (w == r->pid) {
            /* exited; drain what is left in the pipe */
            r->pid = -1;
            while (r->capture_fd >= 0)
                read_some(r);
            return status_of(status, what, quiet);
        }
        if (signals_interrupted() && !cleanup) {
            spawn_stop(r->pid, 5);
            return SPAWN_INTERRUPTED;
        }
        if (deadline && now() >= deadline) {
            if (!quiet)
                log_error("'%s' did not finish within %ld s; stopped it.", what, timeout);
            spawn_stop(r->pid, 5);
            return SPAWN_TIMEOUT;
        }
        if (r->capture_fd < 0) {
            struct timespec ts = {0, 100 * 1000000L};
            nanosleep(&ts, NULL);
        }
    }
}

void spawn_reap(pid_t pid, long timeout)
{
    struct running r = {.pid = pid, .capture_fd = -1};
    /* on timeout, wait_child stops it */
    (void)wait_child(&r, timeout, "", 1, 1);
}

int spawn_wait(pid_t pid, long timeout, const char *what)
{
    struct running r = {.pid = pid, .capture_fd = -1};
    return wait_child(&r, timeout, what, 0, 0);
}

int spawn_run(const char *const argv[], const struct spawn_opts *o)
{
    char desc[512];
    spawn_describe(argv, desc, sizeof(desc));
    struct running r = {.capture_fd = -1};
    r.pid = start(argv, o, o->capture ? &r.capture_fd : NULL);
    if (r.pid < 0)
        return SPAWN_FAILED;
    log_debug("running %s", desc);
    int rc = wait_child(&r, o->timeout, desc, o->quiet, o->cleanup);
    if (r.capture_fd >= 0)
        close(r.capture_fd);
    if (o->capture) {
        if (!r.buf)
            r.buf = xcalloc(1, 1);
        else
            r.buf[r.len] = '\0';
        *o->capture = r.buf;
    } else {
        free(r.buf);
    }
    return rc;
}
