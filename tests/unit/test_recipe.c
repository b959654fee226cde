/* test_recipe.c: the shipped recipe loads; bad recipes are refused with
 * file:line; the image cache key changes with every input that changes the
 * image and with nothing else. */
#include "testutil.h"
#include "image/aptsources.h"
#include "util/log.h"
#include "image/recipe.h"

#include <unistd.h>

static char work[64];

/* a private copy of the shipped recipe to change */
static int setup(void **state)
{
    (void)state;
    snprintf(work, sizeof(work), "/tmp/vbed-recipe-XXXXXX");
    assert_non_null(mkdtemp(work));
    char cmd[512];
    snprintf(cmd, sizeof(cmd), "cp -R guest-images/debian-mariadb %s/r", work);
    assert_int_equal(system(cmd), 0);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof(cmd), "rm -rf %s", work);
    return system(cmd);
}

static void sources(struct apt_sources *s)
{
    memset(s, 0, sizeof(*s));
    s->n = 2;
    snprintf(s->e[0].uri, sizeof(s->e[0].uri), "http://a.example/debian");
    snprintf(s->e[0].suite, sizeof(s->e[0].suite), "bookworm");
    snprintf(s->e[0].components, sizeof(s->e[0].components), "main");
    snprintf(s->e[1].uri, sizeof(s->e[1].uri), "http://b.example/debian-security");
    snprintf(s->e[1].suite, sizeof(s->e[1].suite), "bookworm-security");
    snprintf(s->e[1].components, sizeof(s->e[1].components), "main");
}

static void key_of(char hex[65], const struct apt_sources *s)
{
    char dir[128];
    snprintf(dir, sizeof(dir), "%s/r", work);
    struct recipe *r = recipe_load(dir);
    assert_non_null(r);
    assert_int_equal(recipe_hash(r, s, hex), 0);
    recipe_free(r);
}

/* a shell command with every "%s" standing for the work directory */
static void run(const char *tmpl)
{
    char cmd[2048] = "";
    size_t used = 0;
    for (const char *p = tmpl; *p && used < sizeof(cmd) - 64;) {
        if (p[0] == '%' && p[1] == 's') {
            used += (size_t)snprintf(cmd + used, sizeof(cmd) - used, "%s", work);
            p += 2;
        } else {
            cmd[used++] = *p++;
            cmd[used] = '\0';
        }
    }
    assert_int_equal(system(cmd), 0);
}

static void shipped_recipe(void **state)
{
    (void)state;
    struct recipe *r = recipe_load("guest-images/debian-mariadb");
    assert_non_null(r);
    assert_string_equal(r->name, "debian-mariadb");
    assert_string_equal(r->suite, "bookworm");
    assert_int_equal(r->root_size, 3LL << 30);
    assert_non_null(strstr(r->cmdline, "root=/dev/disk/by-id/virtio-vbed-root"));
    static const char *const must[] = {"mariadb-server", "sysbench", "qemu-guest-agent",
        "mariadb-plugin-provider-lz4", "linux-image-amd64", "dbus", "libpam-systemd", "systemd-sysv",
        "udev", "xfsprogs", "btrfs-progs", "e2fsprogs", "fio", "mdadm", "lvm2", NULL};
    for (size_t i = 0; must[i]; i++) {
        size_t k = 0;
        while (k < r->packages.n && strcmp(r->packages.v[k], must[i]) != 0)
            k++;
        if (k == r->packages.n)
            fail_msg("package %s is not in the recipe", must[i]);
    }
    assert_true(r->mask.n >= 5);
    assert_true(r->verify_paths.n >= 4);
    /* the seed datadir is made at build, and the built image is checked for it */
    assert_int_equal(r->run.n, 1);
    assert_string_equal(r->run.v[0], "/usr/local/sbin/vbed-setup seed");
    size_t k = 0;
    while (k < r->verify_paths.n && strcmp(r->verify_paths.v[k], "/var/lib/vbed-seed/.complete"))
        k++;
    assert_true(k < r->verify_paths.n);
    char hex[65], id[96];
    struct apt_sources s;
    sources(&s);
    assert_int_equal(recipe_hash(r, &s, hex), 0);
    assert_int_equal(strlen(hex), 64);
    recipe_image_id(r, hex, id, sizeof(id));
    assert_int_equal(strncmp(id, "debian-mariadb-", 15), 0);
    assert_int_equal(strlen(id), 15 + 12);
    recipe_free(r);
}

static void key_changes_with_inputs(void **state)
{
    (void)state;
    struct apt_sources s;
    sources(&s);
    char base[65], k[65];
    key_of(base, &s);

    /* nothing changed: same key; a file touched or made group-writable: same key */
    key_of(k, &s);
    assert_string_equal(k, base);
    run("touch -d '2001-01-01' %s/r/files/etc/fstab && chmod g+w %s/r/files/etc/fstab");
    key_of(k, &s);
    assert_string_equal(k, base);
    /* another mirror serving the same suites: same key */
    snprintf(s.e[0].uri, sizeof(s.e[0].uri), "http://elsewhere.example/debian");
    key_of(k, &s);
    assert_string_equal(k, base);

    /* the suites or components: new key */
    snprintf(s.e[1].suite, sizeof(s.e[1].suite), "bookworm-updates");
    key_of(k, &s);
    assert_string_not_equal(k, base);
    sources(&s);
    snprintf(s.e[0].components, sizeof(s.e[0].components), "main contrib");
    key_of(k, &s);
    assert_string_not_equal(k, base);
    sources(&s);

    /* a package: new key */
    run("sed -i 's/^install = qemu-guest-agent/install = qemu-guest-agent, less/' %s/r/recipe.ini");
    key_of(k, &s);
    assert_string_not_equal(k, base);
    run("sed -i 's/, less//' %s/r/recipe.ini");
    key_of(k, &s);
    assert_string_equal(k, base);

    /* a file's content, an executable bit, a new file, a removed file */
    run("echo '# x' >> %s/r/files/etc/fstab");
    key_of(k, &s);
    assert_string_not_equal(k, base);
    run("sed -i '$d' %s/r/files/etc/fstab");
    key_of(k, &s);
    assert_string_equal(k, base);
    run("chmod +x %s/r/files/etc/fstab");
    key_of(k, &s);
    assert_string_not_equal(k, base);
    run("chmod -x %s/r/files/etc/fstab");
    run("touch %s/r/files/etc/new-file");
    key_of(k, &s);
    assert_string_not_equal(k, base);
    run("rm %s/r/files/etc/new-file && rm %s/r/files/etc/hostname");
    key_of(k, &s);
    assert_string_not_equal(k, base);
}

static void bad_recipes(void **state)
{
    (void)state;
    struct captured cap = {0};
    log_set_sink(capture_sink, &cap);
    run("printf '[image]\\nsuite = bookworm\\nroot_size = big\\ncolour = blue\\n[packages]\\n"
        "install = a, b$c\\n[oops]\\nx = 1\\n[build]\\nrun = sbin/x, /bin/ok arg=1, /bin/x $y\\n' "
        "> %s/r/recipe.ini");
    char dir[128];
    snprintf(dir, sizeof(dir), "%s/r", work);
    assert_null(recipe_load(dir));
    log_set_sink(NULL, NULL);
    char want[256];
    snprintf(want, sizeof(want), "%s/r/recipe.ini:3: root_size: 'big' is not a size of at least 256M", work);
    assert_non_null(strstr(cap.text, want));
    assert_non_null(strstr(cap.text, "recipe.ini:4: unknown key 'colour' in [image]"));
    assert_non_null(strstr(cap.text, "recipe.ini:6: install: 'b$c' is not accepted"));
    assert_non_null(strstr(cap.text, "recipe.ini:8: unknown key 'x' in [oops]"));
    assert_non_null(strstr(cap.text, "recipe.ini:10: run: 'sbin/x' is not accepted (an absolute"));
    assert_non_null(strstr(cap.text, "recipe.ini:10: run: '/bin/x $y' is not accepted"));
    assert_null(strstr(cap.text, "'/bin/ok arg=1'"));
    assert_non_null(strstr(cap.text, "[image] has no cmdline"));
    assert_non_null(strstr(cap.text, "has 7 problems"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(shipped_recipe),
        cmocka_unit_test_setup_teardown(key_changes_with_inputs, setup, teardown),
        cmocka_unit_test_setup_teardown(bad_recipes, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
