/* testutil.h: helpers shared by the cmocka unit tests.
 *
 * Golden files: golden_check(path, text) compares text with the file at
 * tests/data/<path>; with VBED_UPDATE_GOLDEN=1 in the environment it writes
 * the file instead (then review the diff with git). */
#ifndef VBED_TESTUTIL_H
#define VBED_TESTUTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* |actual - expected| <= eps, both printed when not (NaN is never near) */
#define assert_near(actual, expected, eps)                                                        \
    do {                                                                                           \
        double a_ = (actual), e_ = (expected);                                                     \
        if (!(fabs(a_ - e_) <= (eps)))                                                             \
            fail_msg("%s = %.10g, expected %.10g", #actual, a_, e_);                               \
    } while (0)

#ifndef TESTS_DATA_DIR
#define TESTS_DATA_DIR "tests/data"
#endif

static inline char *test_read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    if (buf)
        buf[n] = '\0';
    fclose(f);
    return buf;
}

static inline const char *test_data_dir(void)
{
    const char *d = getenv("VBED_TESTS_DATA");
    return d && *d ? d : TESTS_DATA_DIR;
}

static inline void test_data_path(char *buf, size_t len, const char *rel)
{
    snprintf(buf, len, "%s/%s", test_data_dir(), rel);
}

static inline void golden_check(const char *rel, const char *actual)
{
    char path[PATH_MAX];
    test_data_path(path, sizeof(path), rel);
    const char *update = getenv("VBED_UPDATE_GOLDEN"), *ci = getenv("CI"),
               *no_skip = getenv("VBED_TEST_NO_SKIP");
    if (update && *update == '1' && ((ci && !strcmp(ci, "1")) || (no_skip && !strcmp(no_skip, "1"))))
        fail_msg("VBED_UPDATE_GOLDEN=1 under CI: a rewritten golden file would pass anything");
    if (update && *update == '1') {
        char dir[PATH_MAX];
        snprintf(dir, sizeof(dir), "%s", path);
        char *slash = strrchr(dir, '/');
        if (slash) {
            *slash = '\0';
            mkdir(dir, 0755);
        }
        FILE *f = fopen(path, "w");
        assert_non_null(f);
        fputs(actual, f);
        fclose(f);
        return;
    }
    char *expected = test_read_file(path);
    if (!expected)
        fail_msg("golden file %s is missing (run with VBED_UPDATE_GOLDEN=1 to create it)", path);
    if (strcmp(expected, actual) != 0) {
        fprintf(stderr, "--- expected %s\n%s\n--- actual\n%s\n", path, expected, actual);
        free(expected);
        fail_msg("output differs from golden file %s", path);
    }
    free(expected);
}

/* dir/name holding text (a fixture made on the fly). */
static inline void test_write_file(const char *dir, const char *name, const char *text)
{
    char path[PATH_MAX];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* Remove a flat scratch directory and the files in it. */
static inline void test_remove_dir(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d))) {
        char path[PATH_MAX];
        if (e->d_name[0] == '.')
            continue;
        snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
        unlink(path);
    }
    if (d)
        closedir(d);
    rmdir(dir);
}

/* Capture log lines (log_set_sink) into a buffer. */
struct captured {
    char text[16384];
};
static inline void capture_sink(const char *line, void *opaque)
{
    struct captured *c = opaque;
    size_t used = strlen(c->text);
    snprintf(c->text + used, sizeof(c->text) - used, "%s\n", line);
}

#endif
