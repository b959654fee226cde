/* test_safefile.c: the files root opens where another user may write
 * (safefile.h, hostcache_resident): a symbolic link is not followed, a FIFO
 * neither blocks nor counts as a file, a large file is read from its end
 * within the bound asked for, a file copied out of such a place only if
 * that user owns it alone; and which directories count as root's alone. */
#include "testutil.h"

#include "hostside/hostcache.h"
#include "util/log.h"
#include "util/safefile.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/time.h>

/* a scratch directory for one test */
static char tmp[PATH_MAX];

static int setup(void **state)
{
    (void)state;
    snprintf(tmp, sizeof(tmp), "/tmp/vbed-safefile.XXXXXX");
    assert_non_null(mkdtemp(tmp));
    log_set_level(LOG_QUIET);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[PATH_MAX + 16];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
    return system(cmd) == 0 ? 0 : -1;
}

static void put(const char *name, const char *text)
{
    char path[PATH_MAX + 64];
    snprintf(path, sizeof(path), "%s/%s", tmp, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void link_to(const char *name, const char *target)
{
    char path[PATH_MAX + 64];
    snprintf(path, sizeof(path), "%s/%s", tmp, name);
    assert_int_equal(symlink(target, path), 0);
}

static void fifo(const char *name)
{
    char path[PATH_MAX + 64];
    snprintf(path, sizeof(path), "%s/%s", tmp, name);
    assert_int_equal(mkfifo(path, 0644), 0);
}

static int open_tmp(void)
{
    int fd = open(tmp, O_RDONLY | O_DIRECTORY);
    assert_true(fd >= 0);
    return fd;
}

static void reads_refuse_links_and_fifos(void **state)
{
    (void)state;
    put("secret", "SECRET\n");
    put("log", "a line\n");
    link_to("link", "secret");
    fifo("fifo");
    int fd = open_tmp();
    char *t = safefile_read_small(fd, "log", 64);
    assert_non_null(t);
    assert_string_equal(t, "a line\n");
    free(t);
    assert_null(safefile_read_small(fd, "link", 64));
    assert_int_equal(errno, ELOOP);
    assert_null(safefile_read_tail(fd, "link", 64, NULL));
    assert_int_equal(errno, ELOOP);
    /* a FIFO with no writer: returns at once, and is not a file */
    assert_null(safefile_read_tail(fd, "fifo", 64, NULL));
    assert_int_equal(errno, EINVAL);
    assert_string_equal(safefile_why(EINVAL), "it is not a regular file");
    /* a directory, and a name with a '/' in it */
    assert_int_equal(safefile_open_read(fd, "."), -1);
    assert_int_equal(safefile_open_read(fd, "../etc/passwd"), -1);
    assert_int_equal(errno, EINVAL);
    /* larger than asked for */
    assert_null(safefile_read_small(fd, "secret", 3));
    assert_int_equal(errno, EFBIG);
    close(fd);
}

/* a file copied out of another user's directory: only a regular file of
 * that user's with no other link, within the bound, never over a file */
static void copies_only_the_owners_files(void **state)
{
    (void)state;
    put("table.ibd", "PAGES\n");
    put("secret", "SECRET\n");
    link_to("link.ibd", "secret");
    fifo("fifo.ibd");
    char path[PATH_MAX + 64], hard[PATH_MAX + 64];
    snprintf(path, sizeof(path), "%s/secret", tmp);
    snprintf(hard, sizeof(hard), "%s/hard.ibd", tmp);
    assert_int_equal(link(path, hard), 0);
    snprintf(path, sizeof(path), "%s/out", tmp);
    assert_int_equal(mkdir(path, 0700), 0);
    int fd = open_tmp();
    int out = open(path, O_RDONLY | O_DIRECTORY);
    assert_true(out >= 0);
    unsigned me = (unsigned)getuid();

    assert_int_equal(safefile_copy_owned(fd, "table.ibd", me, 64, out), 6);
    char *t = safefile_read_small(out, "table.ibd", 64);
    assert_non_null(t);
    assert_string_equal(t, "PAGES\n");
    free(t);
    struct stat st;
    assert_int_equal(fstatat(out, "table.ibd", &st, 0), 0);
    assert_int_equal(st.st_mode & 0777, 0600);
    /* never over a file already there (a second copy, a planted name) */
    assert_int_equal(safefile_copy_owned(fd, "table.ibd", me, 64, out), -1);
    assert_int_equal(errno, EEXIST);

    struct {
        const char *name;
        unsigned owner;
        size_t max;
        int err;
    } refused[] = {
        {"table.ibd", me + 1, 64, EPERM}, /* not that user's */
        {"link.ibd", me, 64, ELOOP},      /* a symbolic link to root's file */
        {"hard.ibd", me, 64, EMLINK},     /* a second name of another file */
        {"fifo.ibd", me, 64, EINVAL},     /* not a file */
        {"table.ibd", me, 3, EFBIG},      /* larger than asked for */
    };
    for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
        unlinkat(out, refused[i].name, 0);
        assert_int_equal(safefile_copy_owned(fd, refused[i].name, refused[i].owner, refused[i].max, out), -1);
        assert_int_equal(errno, refused[i].err);
        /* and nothing of it is left in the copy */
        assert_int_equal(faccessat(out, refused[i].name, F_OK, AT_SYMLINK_NOFOLLOW), -1);
    }
    assert_string_equal(safefile_why(EPERM), "it is another user's");
    assert_string_equal(safefile_why(EMLINK), "it has another link");
    close(out);
    close(fd);
}

static void writes_refuse_links(void **state)
{
    (void)state;
    put("victim", "KEEP\n");
    link_to("record", "victim");
    fifo("fifo");
    int fd = open_tmp();
    char path[PATH_MAX + 64];
    snprintf(path, sizeof(path), "%s/record", tmp);
    assert_int_equal(safefile_write(fd, "record", path, "1 2\n", 4), -1);
    assert_int_equal(safefile_write(fd, "fifo", path, "1 2\n", 4), -1);
    char *t = safefile_read_small(fd, "victim", 64);
    assert_string_equal(t, "KEEP\n");
    free(t);
    assert_int_equal(safefile_write(fd, "new", path, "1 2\n", 4), 0);
    t = safefile_read_small(fd, "new", 64);
    assert_string_equal(t, "1 2\n");
    free(t);
    close(fd);
}

/* a sparse 256 MiB log: its last bytes, read by seeking, within the bound */
static void tail_of_a_large_file(void **state)
{
    (void)state;
    char path[PATH_MAX + 64];
    snprintf(path, sizeof(path), "%s/big.err", tmp);
    int w = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    assert_true(w >= 0);
    assert_int_equal(ftruncate(w, 256 << 20), 0);
    assert_int_equal(pwrite(w, "the end\n", 8, 256 << 20), 8);
    close(w);
    struct rusage before, after;
    getrusage(RUSAGE_SELF, &before);
    int fd = open_tmp();
    size_t len = 0;
    char *t = safefile_read_tail(fd, "big.err", 1 << 20, &len);
    close(fd);
    getrusage(RUSAGE_SELF, &after);
    assert_non_null(t);
    assert_int_equal(len, 1 << 20);
    assert_int_equal(strlen(t), len); /* its NUL bytes replaced */
    assert_string_equal(t + len - 8, "the end\n");
    assert_true(t[0] == '?');
    free(t);
    /* the peak grew by far less than the file's size */
    assert_true(after.ru_maxrss - before.ru_maxrss < 64 * 1024);
}

static void open_dir_no_links(void **state)
{
    (void)state;
    char cmd[2 * PATH_MAX + 64];
    snprintf(cmd, sizeof(cmd), "mkdir -p '%s/a/b/c' '%s/elsewhere'", tmp, tmp);
    assert_int_equal(system(cmd), 0);
    link_to("a/b/d", "../../elsewhere");
    int fd = open_tmp();
    int d = safefile_open_dir(fd, "a/b/c");
    assert_true(d >= 0);
    close(d);
    assert_int_equal(safefile_open_dir(fd, "a/b/d"), -1);
    assert_int_equal(safefile_open_dir(fd, "a/../a/b"), -1);
    close(fd);
}

static void trusted_dirs(void **state)
{
    (void)state;
    char why[512], path[PATH_MAX + 64];
    chmod(tmp, 0755);
    assert_int_equal(safefile_trusted_dir(tmp, why, sizeof(why)), 0);
    /* /tmp is world-writable but sticky: fine above, never as the dir itself */
    assert_int_equal(safefile_trusted_dir("/tmp", why, sizeof(why)), -1);
    assert_non_null(strstr(why, "writable by its group or by others"));
    snprintf(path, sizeof(path), "%s/open", tmp);
    mkdir(path, 0755);
    chmod(path, 0777);
    assert_int_equal(safefile_trusted_dir(path, why, sizeof(why)), -1);
    snprintf(path, sizeof(path), "%s/open/below", tmp);
    mkdir(path, 0755);
    assert_int_equal(safefile_trusted_dir(path, why, sizeof(why)), -1);
    assert_non_null(strstr(why, "/open' is writable"));
    snprintf(path, sizeof(path), "%s/real", tmp);
    mkdir(path, 0755);
    link_to("alias", "real");
    snprintf(path, sizeof(path), "%s/alias", tmp);
    assert_int_equal(safefile_trusted_dir(path, why, sizeof(why)), -1);
    assert_non_null(strstr(why, "symbolic link"));
    if (geteuid() == 0) {
        snprintf(path, sizeof(path), "%s/other", tmp);
        mkdir(path, 0755);
        assert_int_equal(chown(path, 65534, 65534), 0);
        assert_int_equal(safefile_trusted_dir(path, why, sizeof(why)), -1);
        assert_non_null(strstr(why, "belongs to uid 65534"));
    }
}

/* hostcache_resident: `vbed host resident` and the arm's table scan */
static void resident_refuses_fifo_and_link(void **state)
{
    (void)state;
    char path[PATH_MAX + 64];
    put("file", "data");
    link_to("link", "file");
    fifo("fifo");
    snprintf(path, sizeof(path), "%s/file", tmp);
    assert_true(hostcache_resident(path) >= 0);
    snprintf(path, sizeof(path), "%s/link", tmp);
    assert_int_equal(hostcache_resident(path), -1);
    /* returns at once instead of waiting for a writer */
    snprintf(path, sizeof(path), "%s/fifo", tmp);
    assert_int_equal(hostcache_resident(path), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(reads_refuse_links_and_fifos, setup, teardown),
        cmocka_unit_test_setup_teardown(copies_only_the_owners_files, setup, teardown),
        cmocka_unit_test_setup_teardown(writes_refuse_links, setup, teardown),
        cmocka_unit_test_setup_teardown(tail_of_a_large_file, setup, teardown),
        cmocka_unit_test_setup_teardown(open_dir_no_links, setup, teardown),
        cmocka_unit_test_setup_teardown(trusted_dirs, setup, teardown),
        cmocka_unit_test_setup_teardown(resident_refuses_fifo_and_link, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
