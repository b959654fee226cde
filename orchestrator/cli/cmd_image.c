/* cmd_image.c: `vbed image build|list|rm|path|verify`. */
#include "cli/cli.h"
#include "virt/accel.h"
#include "util/exitcode.h"
#include "virt/hostset.h"
#include "image/image.h"
#include "scenario/keys.h"
#include "image/inspect.h"
#include "image/postmortem.h"
#include "util/log.h"
#include "util/paths.h"
#include "image/recipe.h"
#include "util/signals.h"

#include <json-c/json.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

void cmd_image_usage(FILE *out)
{
    fprintf(out,
            "usage: vbed image build [--recipe NAME] [--mirror URL] [--force]\n"
            "       vbed image list\n"
            "       vbed image rm ID\n"
            "       vbed image path [--recipe NAME]\n"
            "       vbed image verify [--recipe NAME]\n"
            "       vbed image push [--recipe NAME] [--pool NAME] [--pool-dir DIR] [URI...]\n\n"
            "build   build the guest image of a recipe (guest-images/NAME, default\n"
            "        debian-mariadb) unless the cache holds it already; needs root.\n"
            "        Packages come from the mirror and suites of the host's apt sources;\n"
            "        --mirror URL replaces the mirror. --force rebuilds.\n"
            "list    the cached images.\n"
            "rm      remove a cached image (ID or a unique prefix).\n"
            "path    print the directory of the recipe's image (exit 3 if not built).\n"
            "verify  check with libguestfs that the built image holds what the recipe's\n"
            "        [verify] section names, and print the manifest's package versions.\n"
            "push    upload the built image into the pool of every host named (default:\n"
            "        the -c URI), all at once, once per pool and content hash: what vbed\n"
            "        run does before its guests start, ahead of time.\n\n"
            "The cache is --cache-dir, $VBED_CACHE_DIR or /var/cache/vbed; an image is\n"
            "keyed by a hash of its recipe files, package list, suites and architecture.\n");
}

const struct cli_option cmd_image_options[] = {
    {"recipe", 'r', "NAME", CLI_VALUE_TEXT, NULL,
     "build, path, verify, push: the recipe (guest-images/NAME; default debian-mariadb)"},
    {"mirror", 'm', "URL", CLI_VALUE_TEXT, NULL,
     "build: this Debian mirror instead of the apt sources' one"},
    {"force", 'f', NULL, CLI_VALUE_NONE, NULL, "build: rebuild even if the cache holds the image"},
    {"pool", 'p', "NAME", CLI_VALUE_TEXT, NULL, "push: the libvirt storage pool (default: the scenario key pool's)"},
    {"pool-dir", 'd', "DIR", CLI_VALUE_DIR, NULL,
     "push: the pool's directory when vbed creates it (default: the scenario key pool_dir's)"},
    {NULL, 0, NULL, CLI_VALUE_NONE, NULL, NULL},
};

const struct cli_word cmd_image_words[] = {
    {"build", CLI_VALUE_NONE}, {"list", CLI_VALUE_NONE},   {"rm", CLI_VALUE_IMAGE},
    {"path", CLI_VALUE_NONE},  {"verify", CLI_VALUE_NONE}, {"push", CLI_VALUE_URI},
    {NULL, CLI_VALUE_NONE},
};

struct image_opts {
    const char *recipe;
    const char *mirror;
    int force;
    const char *pool, *pool_dir;
};

static int parse(int argc, char **argv, struct image_opts *o, int min_args, int max_args)
{
    struct cli_getopt g;
    cli_getopt_init(&g, cmd_image_options, "");
    int c;
    while ((c = cli_getopt_next(&g, argc, argv)) != -1) {
        switch (c) {
        case 'r':
            o->recipe = optarg;
            break;
        case 'm':
            o->mirror = optarg;
            break;
        case 'f':
            o->force = 1;
            break;
        case 'p':
            o->pool = optarg;
            break;
        case 'd':
            o->pool_dir = optarg;
            break;
        default:
            fprintf(stderr, "Try 'vbed image --help'.\n");
            return -1;
        }
    }
    int rest = argc - optind;
    if (rest < min_args || rest > max_args) {
        log_error("Wrong number of arguments (try 'vbed image --help').");
        return -1;
    }
    return 0;
}

static int verify(const struct image_opts *o)
{
    struct image_info info;
    if (image_resolve(o->recipe, o->mirror, &info) < 0)
        return EXIT_USAGE;
    if (!info.built) {
        log_error("Image %s is not built; run 'vbed image build'.", info.id);
        return EXIT_ENV;
    }
    char dir[PATH_MAX];
    recipe_dir_for(o->recipe, dir, sizeof(dir));
    struct recipe *r = recipe_load(dir);
    if (!r)
        return EXIT_USAGE;

    int rc = EXIT_FAILED;
    const char *disks[] = {info.root};
    const char *formats[] = {"qcow2"};
    struct inspect *in = inspect_open(disks, formats, 1, accel_local_kvm(NULL) == ACCEL_KVM_WORKS);
    if (!in || inspect_mount(in, "/dev/sda", "/") < 0)
        goto cleanup;
    printf("image %s (libguestfs appliance launched in %.1f s)\n", info.id,
           inspect_launch_seconds(in));
    int missing = 0;
    for (size_t i = 0; i < r->verify_paths.n; i++) {
        int present = inspect_is_file(in, r->verify_paths.v[i]);
        if (present < 0)
            goto cleanup;
        printf("  %-8s %s\n", present ? "present" : "MISSING", r->verify_paths.v[i]);
        missing += !present;
    }
    json_object *m = json_object_from_file(info.manifest), *pkgs;
    if (m && json_object_object_get_ex(m, "packages", &pkgs)) {
        json_object_object_foreach(pkgs, name, ver) printf("  %-8s %s %s\n", "package", name,
                                                          json_object_get_string(ver));
    }
    json_object_put(m);
    rc = missing ? EXIT_FAILED : EXIT_OK;
    if (missing)
        log_error("%d file%s missing from image %s.", missing, missing == 1 ? " is" : "s are",
                  info.id);
cleanup:
    inspect_close(in);
    recipe_free(r);
    return rc;
}

/* vbed image push: the upload vbed run makes, to every host named, at once */
static int push(struct cli_ctx *ctx, const struct image_opts *o, int nuris, char **uris)
{
    struct image_info info;
    if (image_resolve(o->recipe, o->mirror, &info) < 0)
        return EXIT_USAGE;
    if (!info.built) {
        log_error("Image %s is not built; run 'vbed image build'.", info.id);
        return EXIT_ENV;
    }
    struct hostset set = {.default_uri = ctx->uri};
    char err[600];
    for (int i = 0; i < (nuris ? nuris : 1); i++) {
        struct host_uri u;
        if (nuris && host_uri_parse(uris[i], &u, err, sizeof(err)) < 0) {
            log_error("%s", err);
            hostset_close(&set);
            return EXIT_USAGE;
        }
        hostset_add(&set, nuris ? uris[i] : "", o->pool, o->pool_dir, "image push");
    }
    signals_install();
    int rc = EXIT_ENV;
    if (hostset_connect(&set, false) == 0 && hostset_prepare(&set, &info) == 0) {
        for (size_t i = 0; i < set.n; i++)
            if (set.h[i].upload_s > 0)
                printf("%s pool %s: uploaded in %.1f s\n", set.h[i].label, set.h[i].pool, set.h[i].upload_s);
            else
                printf("%s pool %s: already there\n", set.h[i].label, set.h[i].pool);
        rc = EXIT_OK;
    } else if (signals_interrupted()) {
        rc = signals_exit_code();
    }
    hostset_close(&set);
    return rc;
}

int cmd_image(struct cli_ctx *ctx, int argc, char **argv)
{
    if (argc < 2) {
        cmd_image_usage(stderr);
        return EXIT_USAGE;
    }
    const char *sub = argv[1];
    if (cli_check_cache_dir() < 0)
        return EXIT_ENV;
    struct image_opts o = {.recipe = "debian-mariadb", .pool = key_find("pool")->def,
                           .pool_dir = key_find("pool_dir")->def};
    argc--;
    argv++;
    struct image_info info;

    if (!strcmp(sub, "build")) {
        if (parse(argc, argv, &o, 0, 0) < 0)
            return EXIT_USAGE;
        signals_install();
        if (image_build(o.recipe, o.mirror, o.force, &info) < 0)
            return signals_interrupted() ? signals_exit_code() : EXIT_FAILED;
        printf("%s\n", info.dir);
        return EXIT_OK;
    }
    if (!strcmp(sub, "list")) {
        if (parse(argc, argv, &o, 0, 0) < 0)
            return EXIT_USAGE;
        return image_list() < 0 ? EXIT_FAILED : EXIT_OK;
    }
    if (!strcmp(sub, "rm")) {
        if (parse(argc, argv, &o, 1, 1) < 0)
            return EXIT_USAGE;
        return image_remove(argv[optind]) < 0 ? EXIT_FAILED : EXIT_OK;
    }
    if (!strcmp(sub, "path")) {
        if (parse(argc, argv, &o, 0, 0) < 0)
            return EXIT_USAGE;
        if (image_resolve(o.recipe, o.mirror, &info) < 0)
            return EXIT_USAGE;
        printf("%s\n", info.dir);
        return info.built ? EXIT_OK : EXIT_ENV;
    }
    if (!strcmp(sub, "verify")) {
        if (parse(argc, argv, &o, 0, 0) < 0)
            return EXIT_USAGE;
        return verify(&o);
    }
    if (!strcmp(sub, "push")) {
        if (parse(argc, argv, &o, 0, KEY_HOSTS_COUNT_MAX) < 0)
            return EXIT_USAGE;
        return push(ctx, &o, argc - optind, argv + optind);
    }
    if (!strcmp(sub, "postmortem")) { /* vbed run's, with a deadline (image/postmortem.h) */
        if (parse(argc, argv, &o, 2, 2) < 0)
            return EXIT_USAGE;
        signals_install();
        return postmortem_guest(argv[optind], argv[optind + 1], accel_local_kvm(NULL) == ACCEL_KVM_WORKS) < 0
                   ? EXIT_FAILED
                   : EXIT_OK;
    }
    log_error("'%s' is not an image command (build, list, rm, path, verify, push).", sub);
    return EXIT_USAGE;
}
