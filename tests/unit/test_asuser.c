/* test_asuser.c: file work as another user (asuser.h): the files are that
 * user's and hold root's bytes (read through fds root opened, from files
 * that user cannot read), sparse copies have holes where the zeros were,
 * nothing is written over or through what is there, the child is not
 * root any more (a directory only root may write refuses it), and an
 * interrupted vbed does not wait for it. Needs root
 * (exit 77 otherwise). */
#include "testutil.h"

#include "util/asuser.h"
#include "util/log.h"
#include "util/signals.h"

#include <fcntl.h>
#include <signal.h>

#define NOBODY 65534

static char tmp[PATH_MAX];
static int userdir = -1, rootdir = -1;

static int setup(void **state)
{
    (void)state;
    snprintf(tmp, sizeof(tmp), "/tmp/vbed-asuser.XXXXXX");
    assert_non_null(mkdtemp(tmp));
    chmod(tmp, 0755);
    char path[PATH_MAX + 16];
    snprintf(path, sizeof(path), "%s/user", tmp);
    assert_int_equal(mkdir(path, 0750), 0);
    assert_int_equal(chown(path, NOBODY, NOBODY), 0);
    userdir = open(path, O_RDONLY | O_DIRECTORY);
    snprintf(path, sizeof(path), "%s/root", tmp);
    assert_int_equal(mkdir(path, 0755), 0);
    rootdir = open(path, O_RDONLY | O_DIRECTORY);
    assert_true(userdir >= 0 && rootdir >= 0);
    log_set_level(LOG_QUIET);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    close(userdir);
    close(rootdir);
    char cmd[PATH_MAX + 16];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
    return system(cmd) == 0 ? 0 : -1;
}

/* root's file (0600) in root's directory with len bytes: blocks of 'x',
 * every other 4 KiB block zeros, zeros at the end; its fd */
static int root_file(const char *name, size_t len, char *bytes)
{
    for (size_t i = 0; i < len; i++)
        bytes[i] = (i / 4096) % 2 == 0 && i < len - 4096 ? 'x' : 0;
    int fd = openat(rootdir, name, O_RDWR | O_CREAT | O_EXCL, 0600);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, bytes, len), (ssize_t)len);
    return fd;
}

static void check_copy(const char *name, const char *bytes, size_t len, struct stat *st)
{
    int fd = openat(userdir, name, O_RDONLY | O_NOFOLLOW);
    assert_true(fd >= 0);
    assert_int_equal(fstat(fd, st), 0);
    assert_int_equal(st->st_uid, NOBODY);
    assert_int_equal(st->st_gid, NOBODY);
    assert_int_equal(st->st_mode & 0777, 0660);
    assert_int_equal(st->st_size, (off_t)len);
    char *got = calloc(1, len);
    assert_int_equal(read(fd, got, len), (ssize_t)len);
    assert_memory_equal(got, bytes, len);
    free(got);
    close(fd);
}

static void copies_as_the_user(void **state)
{
    (void)state;
    enum { LEN = 10 * 4096 };
    static char a[LEN], b[100];
    struct asuser_copy files[] = {{root_file("a", LEN, a), "a.ibd"}, {root_file("b", 100, b), "a.cfg"}};
    size_t failed = 99;
    assert_int_equal(asuser_copy_in(NOBODY, NOBODY, userdir, files, 2, false, &failed), 0);
    struct stat full, cfg, sparse;
    check_copy("a.ibd", a, LEN, &full);
    check_copy("a.cfg", b, 100, &cfg);
    /* the same bytes with holes: the zero blocks take no space */
    struct asuser_copy one[] = {{files[0].src_fd, "s.ibd"}};
    assert_int_equal(asuser_copy_in(NOBODY, NOBODY, userdir, one, 1, true, &failed), 0);
    check_copy("s.ibd", a, LEN, &sparse);
    assert_true(sparse.st_blocks < full.st_blocks);
    assert_true(sparse.st_blocks * 512 <= 5 * 4096);
    /* removed by the user; a name already gone is no error */
    const char *names[] = {"a.cfg", "gone.cfg", "s.ibd"};
    assert_int_equal(asuser_unlink(NOBODY, NOBODY, userdir, names, 3, &failed), 0);
    assert_int_equal(faccessat(userdir, "a.cfg", F_OK, AT_SYMLINK_NOFOLLOW), -1);
    assert_int_equal(faccessat(userdir, "s.ibd", F_OK, AT_SYMLINK_NOFOLLOW), -1);
    assert_int_equal(faccessat(userdir, "a.ibd", F_OK, AT_SYMLINK_NOFOLLOW), 0);
    close(files[0].src_fd);
    close(files[1].src_fd);
}

/* a link or a file at a name stops the copy there: root's file is not
 * written through it, what was made before it is removed again */
static void never_over_or_through(void **state)
{
    (void)state;
    static char a[8192], r[8192];
    int src = root_file("a", sizeof(a), a);
    int target = root_file("precious", sizeof(r), r);
    char path[PATH_MAX + 32];
    snprintf(path, sizeof(path), "%s/root/precious", tmp);
    assert_int_equal(symlinkat(path, userdir, "t2.ibd"), 0);
    struct asuser_copy files[] = {{src, "t1.ibd"}, {src, "t2.ibd"}};
    size_t failed = 99;
    assert_int_equal(asuser_copy_in(NOBODY, NOBODY, userdir, files, 2, false, &failed), -1);
    assert_int_equal(failed, 1);
    assert_true(errno == EEXIST || errno == ELOOP);
    assert_int_equal(faccessat(userdir, "t1.ibd", F_OK, AT_SYMLINK_NOFOLLOW), -1);
    struct stat st;
    assert_int_equal(fstat(target, &st), 0);
    assert_int_equal(st.st_size, (off_t)sizeof(r));
    assert_int_equal(st.st_uid, 0);
    char got[8192];
    assert_int_equal(pread(target, got, sizeof(got), 0), (ssize_t)sizeof(got));
    assert_memory_equal(got, r, sizeof(r));
    /* a name with a '/' is refused before anything runs */
    struct asuser_copy up[] = {{src, "../root/x"}};
    assert_int_equal(asuser_copy_in(NOBODY, NOBODY, userdir, up, 1, false, &failed), -1);
    assert_int_equal(errno, EINVAL);
    close(src);
    close(target);
}

/* the child is the user, not root: root's directory refuses it; uid 0 is
 * refused outright */
static void not_root_any_more(void **state)
{
    (void)state;
    static char a[100];
    int src = root_file("a", sizeof(a), a);
    struct asuser_copy files[] = {{src, "x.ibd"}};
    size_t failed = 99;
    assert_int_equal(asuser_copy_in(NOBODY, NOBODY, rootdir, files, 1, false, &failed), -1);
    assert_int_equal(errno, EACCES);
    assert_int_equal(failed, 0);
    assert_int_equal(faccessat(rootdir, "x.ibd", F_OK, AT_SYMLINK_NOFOLLOW), -1);
    const char *names[] = {"a"};
    assert_int_equal(asuser_unlink(NOBODY, NOBODY, rootdir, names, 1, &failed), -1);
    assert_int_equal(errno, EACCES);
    assert_int_equal(faccessat(rootdir, "a", F_OK, AT_SYMLINK_NOFOLLOW), 0);
    assert_int_equal(asuser_copy_in(0, 0, userdir, files, 1, false, &failed), -1);
    assert_int_equal(errno, EINVAL);
    assert_int_equal(faccessat(userdir, "x.ibd", F_OK, AT_SYMLINK_NOFOLLOW), -1);
    close(src);
}

/* vbed interrupted (SIGINT): the child is killed rather than waited for,
 * and the call says so (EINTR, no file named). Last: the flag stays set. */
static void interrupted(void **state)
{
    (void)state;
    enum { LEN = 64 << 20 };
    int src = openat(rootdir, "big", O_RDWR | O_CREAT | O_EXCL, 0600);
    assert_true(src >= 0);
    static char block[1 << 20];
    memset(block, 'x', sizeof(block));
    for (int i = 0; i < LEN / (int)sizeof(block); i++)
        assert_int_equal(write(src, block, sizeof(block)), (ssize_t)sizeof(block));
    signals_install();
    raise(SIGINT);
    assert_true(signals_interrupted());
    struct asuser_copy files[] = {{src, "big.ibd"}};
    size_t failed = 99;
    assert_int_equal(asuser_copy_in(NOBODY, NOBODY, userdir, files, 1, false, &failed), -1);
    assert_int_equal(errno, EINTR);
    assert_int_equal(failed, 1);
    close(src);
}

int main(void)
{
    if (geteuid() != 0) {
        fprintf(stderr, "test_asuser needs root (it changes to another user)\n");
        return 77;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(copies_as_the_user, setup, teardown),
        cmocka_unit_test_setup_teardown(never_over_or_through, setup, teardown),
        cmocka_unit_test_setup_teardown(not_root_any_more, setup, teardown),
        cmocka_unit_test_setup_teardown(interrupted, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
