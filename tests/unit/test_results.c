/* test_results.c: `vbed run` makes its results directory new, in a root
 * no other user can change, and writes its first files through it
 * (results/results.h). In a shared 1777 root, names another user made in
 * advance -- directories with planted links, a link as the name itself --
 * are never reused; a root another user owns is refused. */
#include "testutil.h"
#include "results/results.h"

#include <pwd.h>
#include <time.h>

static char root[] = "/tmp/vbed-test-results.XXXXXX";

static void rm_rf(const char *path)
{
    char cmd[PATH_MAX + 16];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", path);
    assert_int_equal(system(cmd), 0);
}

/* as nobody would: the names of this second and the next few, each a
 * directory of nobody's whose scenario.ini links to victim, or (every
 * other second) a link to victim_dir itself, with the suffixed names -2 ..
 * -last */
static void plant(const char *shared, const char *victim, const char *victim_dir, uid_t nobody,
                  int last)
{
    time_t now = time(NULL);
    for (int k = 0; k < 3; k++) {
        char stamp[32], name[PATH_MAX + 64], link[PATH_MAX + 96];
        time_t t = now + k;
        strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", gmtime(&t));
        for (int i = 1; i <= last; i++) {
            if (i == 1)
                snprintf(name, sizeof(name), "%s/%s-scn", shared, stamp);
            else
                snprintf(name, sizeof(name), "%s/%s-scn-%d", shared, stamp, i);
            if (k % 2) {
                assert_int_equal(symlink(victim_dir, name), 0);
                assert_int_equal(lchown(name, nobody, (gid_t)-1), 0);
                continue;
            }
            assert_int_equal(mkdir(name, 0777), 0);
            snprintf(link, sizeof(link), "%s/scenario.ini", name);
            assert_int_equal(symlink(victim, link), 0);
            assert_int_equal(lchown(link, nobody, (gid_t)-1), 0);
            assert_int_equal(chown(name, nobody, (gid_t)-1), 0);
        }
    }
}

static void never_reuses_a_planted_name(void **state)
{
    (void)state;
    struct passwd *pw = getpwnam("nobody");
    assert_non_null(pw);
    assert_non_null(mkdtemp(root));
    char shared[PATH_MAX], victim[PATH_MAX], victim_dir[PATH_MAX];
    snprintf(shared, sizeof(shared), "%s/shared", root);
    snprintf(victim, sizeof(victim), "%s/root-only", root);
    snprintf(victim_dir, sizeof(victim_dir), "%s/victim-dir", root);
    assert_int_equal(mkdir(shared, 01777), 0);
    assert_int_equal(chmod(shared, 01777), 0);
    assert_int_equal(mkdir(victim_dir, 0700), 0);
    test_write_file(root, "root-only", "root's\n");
    assert_int_equal(chmod(victim, 0600), 0);
    struct scenario scn = {.name = "scn", .text = "[global]\nworkload = oltp_read_only\n"};
    /* every name of the coming seconds taken: no run, rather than one of
     * theirs (c78420e took the last, -99, and wrote through its link) */
    plant(shared, victim, victim_dir, pw->pw_uid, 99);
    assert_null(results_create(shared, &scn));
    char *text = test_read_file(victim);
    assert_string_equal(text, "root's\n");
    free(text);
    rm_rf(shared);
    assert_int_equal(mkdir(shared, 01777), 0);
    assert_int_equal(chmod(shared, 01777), 0);

    /* the first three names of each second taken: the fourth, made new */
    plant(shared, victim, victim_dir, pw->pw_uid, 3);
    struct results *r = results_create(shared, &scn);
    assert_non_null(r);
    /* a new directory of root's, not one of nobody's, not the link's target */
    struct stat st;
    assert_int_equal(lstat(r->dir, &st), 0);
    assert_true(S_ISDIR(st.st_mode));
    assert_int_equal(st.st_uid, 0);
    assert_int_equal(st.st_mode & 07777, 0755);
    text = test_read_file(victim);
    assert_string_equal(text, "root's\n");
    free(text);
    char path[PATH_MAX + 32];
    snprintf(path, sizeof(path), "%s/scenario.ini", r->dir);
    assert_int_equal(lstat(path, &st), 0);
    assert_true(S_ISREG(st.st_mode));
    text = test_read_file(path);
    assert_string_equal(text, scn.text);
    free(text);
    DIR *d = opendir(victim_dir);
    int n = 0;
    for (struct dirent *de; (de = readdir(d));)
        n += de->d_name[0] != '.';
    closedir(d);
    assert_int_equal(n, 0);
    results_close(r);

    /* a root another user owns (or can write in, unsticky): refused */
    char theirs[PATH_MAX];
    snprintf(theirs, sizeof(theirs), "%s/theirs", root);
    assert_int_equal(mkdir(theirs, 0755), 0);
    assert_int_equal(chown(theirs, pw->pw_uid, (gid_t)-1), 0);
    assert_null(results_create(theirs, &scn));
    assert_int_equal(chown(theirs, 0, (gid_t)-1), 0);
    assert_int_equal(chmod(theirs, 0777), 0);
    assert_null(results_create(theirs, &scn));
    rm_rf(root);
}

int main(void)
{
    if (geteuid() != 0 || !getpwnam("nobody")) {
        printf("SKIP: needs root and the user nobody\n");
        return 77;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(never_reuses_a_planted_name),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
