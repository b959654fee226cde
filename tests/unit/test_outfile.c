/* test_outfile.c: files written into a directory descriptor never go
 * through what was planted at their name (util/outfile.h). */
#include "testutil.h"
#include "util/outfile.h"

#include <fcntl.h>
#include <pwd.h>
#include <sys/stat.h>

static char dir[] = "/tmp/vbed-test-outfile.XXXXXX";

/* dir/name, in one of four buffers (two at once in a call) */
static char *at(const char *name)
{
    static char path[4][PATH_MAX];
    static int k;
    k = (k + 1) % 4;
    snprintf(path[k], sizeof(path[k]), "%s/%s", dir, name);
    return path[k];
}

static int setup(void **state)
{
    (void)state;
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    test_remove_dir(dir);
    return 0;
}

/* the entries of dir whose names start with prefix */
static int count_prefixed(const char *prefix)
{
    DIR *d = opendir(dir);
    int n = 0;
    for (struct dirent *de; (de = readdir(d));)
        n += !strncmp(de->d_name, prefix, strlen(prefix));
    closedir(d);
    return n;
}

/* a symbolic link, a hard link and a FIFO at the name: each replaced,
 * what they pointed at untouched, no temporary file left */
static void planted_names_are_replaced(void **state)
{
    (void)state;
    int fd = open(dir, O_RDONLY | O_DIRECTORY);
    assert_true(fd >= 0);
    test_write_file(dir, "victim", "root's secret\n");
    assert_int_equal(symlink(at("victim"), at("report.html")), 0);
    assert_int_equal(outfile_write(fd, "report.html", "x/report.html", "new\n", 4), 0);
    char *victim = test_read_file(at("victim"));
    assert_string_equal(victim, "root's secret\n");
    free(victim);
    struct stat st;
    assert_int_equal(lstat(at("report.html"), &st), 0);
    assert_true(S_ISREG(st.st_mode));
    assert_int_equal(st.st_mode & 07777, 0644);
    char *got = test_read_file(at("report.html"));
    assert_string_equal(got, "new\n");
    free(got);

    assert_int_equal(link(at("victim"), at("summary.csv")), 0);
    assert_int_equal(outfile_write(fd, "summary.csv", "x/summary.csv", "a,b\n", 4), 0);
    victim = test_read_file(at("victim"));
    assert_string_equal(victim, "root's secret\n");
    free(victim);

    assert_int_equal(mkfifo(at("meta.json"), 0644), 0);
    assert_int_equal(outfile_write(fd, "meta.json", "x/meta.json", "{}\n", 3), 0);
    assert_int_equal(lstat(at("meta.json"), &st), 0);
    assert_true(S_ISREG(st.st_mode));
    assert_int_equal(count_prefixed(".report.html."), 0);
    assert_int_equal(count_prefixed(".summary.csv."), 0);
    assert_int_equal(count_prefixed(".meta.json."), 0);
    close(fd);
}

/* a stream abandoned or failing: nothing at the name changes, nothing left */
static void abort_leaves_the_old_file(void **state)
{
    (void)state;
    int fd = open(dir, O_RDONLY | O_DIRECTORY);
    test_write_file(dir, "page", "old\n");
    FILE *f;
    struct outfile *of = outfile_begin(fd, "page", "x/page", &f);
    assert_non_null(of);
    fputs("half a pa", f);
    assert_int_equal(count_prefixed(".page."), 1);
    outfile_abort(of);
    char *got = test_read_file(at("page"));
    assert_string_equal(got, "old\n");
    free(got);
    assert_int_equal(count_prefixed(".page."), 0);
    /* not a name: refused before anything is made */
    assert_null(outfile_begin(fd, "../page", "x", &f));
    assert_null(outfile_begin(fd, "", "x", &f));
    assert_null(outfile_begin(fd, "..", "x", &f));
    close(fd);
}

/* a directory is trusted only when root's (or ours) and writable by no one
 * else */
static void trust(void **state)
{
    (void)state;
    char sub[PATH_MAX];
    snprintf(sub, sizeof(sub), "%s/shared", dir);
    assert_int_equal(mkdir(sub, 0755), 0);
    bool trusted = false;
    char why[128];
    int fd = outfile_open_dir(sub, &trusted, why, sizeof(why));
    assert_true(fd >= 0 && trusted);
    close(fd);
    assert_int_equal(chmod(sub, 01777), 0);
    fd = outfile_open_dir(sub, &trusted, why, sizeof(why));
    assert_true(fd >= 0 && !trusted);
    assert_non_null(strstr(why, "others can write"));
    close(fd);
    struct passwd *nobody = getpwnam("nobody");
    if (geteuid() == 0 && nobody) {
        assert_int_equal(chmod(sub, 0755), 0);
        assert_int_equal(chown(sub, nobody->pw_uid, nobody->pw_gid), 0);
        fd = outfile_open_dir(sub, &trusted, why, sizeof(why));
        assert_true(fd >= 0 && !trusted);
        assert_non_null(strstr(why, "belongs to uid"));
        close(fd);
    }
    assert_int_equal(outfile_open_dir(at("no-such-dir"), &trusted, why, sizeof(why)), -1);
    assert_int_equal(rmdir(sub), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(planted_names_are_replaced),
        cmocka_unit_test(abort_leaves_the_old_file),
        cmocka_unit_test(trust),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
