/* cmd_host.c: `vbed host ...`: the helper vbed runs on a hypervisor host
 * over ssh (hostside.h) for the host-side work libvirt does not offer.
 * Arguments only (no shell, no scenario); one JSON object on stdout:
 *
 *   version              {"vbed_host":1,"version":"...","drop_caches":true|false,"boot_id":"..."}
 *                        (drop_caches: /proc/sys/vm/drop_caches is writable; boot_id:
 *                        this boot of the host, which a KVM probe's verdict is valid for)
 *   df [--] PATH         {"vbed_host":1,"path":"...","free_bytes":N}   (statvfs of PATH or
 *                        its nearest existing parent: where a pool will be made)
 *   drop-caches          {"vbed_host":1,"dropped":true}   (sync; echo 3 > drop_caches)
 *   meminfo              {"vbed_host":1,"meminfo":"<text of /proc/meminfo>"}
 *   stat                 {"vbed_host":1,"stat":"<text of /proc/stat>","clk_tck":N}
 *   resident [--] PATH   {"vbed_host":1,"path":"...","bytes":N}   (mincore)
 *   diskstats [--] PATH  {"vbed_host":1,"major":M,"minor":m,"diskstats":"<text>"}
 *   arm-...              a host arm on this host (cmd_host_arm.c)
 *
 * The /proc text is sent whole and parsed by the caller's parsers
 * (layers.c): one parser per format, fuzzed once. Errors go to stderr and
 * the exit code is non-zero. */
#include "cli/cli.h"
#include "cli/cmd_host_arm.h"
#include "util/exitcode.h"
#include "hostside/hostcache.h"
#include "hostside/hostside.h"
#include "util/log.h"
#include "util/signals.h"
#include "util/textfile.h"
#include "util/version.h"

#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>
#include <sys/sysmacros.h>

void cmd_host_usage(FILE *out)
{
    fprintf(out, "usage: vbed host version|drop-caches|meminfo|stat|resident PATH|diskstats PATH|df PATH\n"
                 "       vbed host arm-start|arm-sql|arm-exec|arm-status|arm-file|arm-archive|arm-stop|"
                 "arm-list [OPTIONS] -- DIR ...\n\n"
                 "The helper vbed runs on a hypervisor host over ssh (qemu+ssh:// URIs) for what\n"
                 "libvirt does not offer: drop the page cache, page-cache residency of a file,\n"
                 "/proc/meminfo, /proc/stat, /proc/diskstats of the device under a path, free space at a\n"
                 "path; and a host arm's private mariadbd on that host (arm-*: start it, run\n"
                 "queries and programs in it, read its figures, stop it). Prints one JSON\n"
                 "object (arm-exec: the program's output); vbed reads it as untrusted input.\n");
}

/* a reply on stdout (hostside's protocol); an exit code */
static int reply(json_object *o) { return hostside_reply_print(o) == 0 ? EXIT_OK : EXIT_FAILED; }

const struct cli_word cmd_host_words[] = {
    {"version", CLI_VALUE_NONE},     {"drop-caches", CLI_VALUE_NONE}, {"meminfo", CLI_VALUE_NONE},
    {"stat", CLI_VALUE_NONE},        {"resident", CLI_VALUE_FILE},    {"diskstats", CLI_VALUE_FILE},
    {"df", CLI_VALUE_FILE},          {"arm-start", CLI_VALUE_NONE},   {"arm-sql", CLI_VALUE_NONE},
    {"arm-exec", CLI_VALUE_NONE},    {"arm-status", CLI_VALUE_NONE},  {"arm-file", CLI_VALUE_NONE},
    {"arm-archive", CLI_VALUE_NONE}, {"arm-stop", CLI_VALUE_NONE},    {"arm-list", CLI_VALUE_NONE},
    {NULL, CLI_VALUE_NONE},
};

static int host_text(const char *key, const char *path)
{
    char *text = textfile_read(path);
    if (!text) {
        log_error("Cannot read '%s': %s", path, strerror(errno));
        return EXIT_FAILED;
    }
    json_object *o = hostside_reply_new();
    json_object_object_add(o, key, json_object_new_string(text));
    free(text);
    return reply(o);
}

int cmd_host(struct cli_ctx *ctx, int argc, char **argv)
{
    (void)ctx;
    if (argc < 2) {
        cmd_host_usage(stderr);
        return EXIT_USAGE;
    }
    const char *what = argv[1];
    /* SIGINT, SIGTERM and a closed ssh session end a wait within a second
     * (each wait loop looks at the flag), the exit code saying which */
    signals_install();
    if (strncmp(what, "arm-", 4) == 0) {
        int rc = cmd_host_arm(what, argc - 1, argv + 1);
        return signals_interrupted() ? signals_exit_code() : rc;
    }
    int rest = 2;
    if (rest < argc && strcmp(argv[rest], "--") == 0)
        rest++;
    int nargs = argc - rest;
    bool path_cmd = strcmp(what, "resident") == 0 || strcmp(what, "diskstats") == 0 ||
                    strcmp(what, "df") == 0;
    if ((path_cmd && nargs != 1) || (!path_cmd && nargs != 0)) {
        log_error("vbed host %s: wrong number of arguments", what);
        cmd_host_usage(stderr);
        return EXIT_USAGE;
    }
    const char *path = path_cmd ? argv[rest] : NULL;
    json_object *o;
    if (strcmp(what, "version") == 0) {
        o = hostside_reply_new();
        json_object_object_add(o, "version", json_object_new_string(vbed_version()));
        json_object_object_add(o, "drop_caches",
                               json_object_new_boolean(access("/proc/sys/vm/drop_caches", W_OK) == 0));
        char boot[64];
        if (hostside_boot_id(NULL, boot, sizeof(boot)) == 0)
            json_object_object_add(o, "boot_id", json_object_new_string(boot));
        return reply(o);
    }
    if (strcmp(what, "df") == 0) {
        char probe[PATH_MAX];
        struct statvfs sv;
        snprintf(probe, sizeof(probe), "%s", path);
        while (statvfs(probe, &sv) < 0) {
            char *slash = strrchr(probe, '/');
            if (!slash || slash == probe) {
                if (statvfs("/", &sv) < 0) {
                    log_error("Cannot statvfs '/': %s", strerror(errno));
                    return EXIT_FAILED;
                }
                break;
            }
            *slash = '\0';
        }
        o = hostside_reply_new();
        json_object_object_add(o, "path", json_object_new_string(path));
        json_object_object_add(o, "free_bytes", json_object_new_int64((int64_t)sv.f_bavail * (int64_t)sv.f_frsize));
        return reply(o);
    }
    if (strcmp(what, "drop-caches") == 0) {
        if (hostcache_drop() < 0)
            return EXIT_ENV;
        o = hostside_reply_new();
        json_object_object_add(o, "dropped", json_object_new_boolean(1));
        return reply(o);
    }
    if (strcmp(what, "meminfo") == 0)
        return host_text("meminfo", "/proc/meminfo");
    if (strcmp(what, "stat") == 0) {
        char *text = textfile_read("/proc/stat");
        if (!text) {
            log_error("Cannot read /proc/stat: %s", strerror(errno));
            return EXIT_FAILED;
        }
        o = hostside_reply_new();
        json_object_object_add(o, "stat", json_object_new_string(text));
        json_object_object_add(o, "clk_tck", json_object_new_int64(sysconf(_SC_CLK_TCK)));
        free(text);
        return reply(o);
    }
    if (strcmp(what, "resident") == 0) {
        long long b = hostcache_resident(path);
        if (b < 0)
            return EXIT_FAILED;
        o = hostside_reply_new();
        json_object_object_add(o, "path", json_object_new_string(path));
        json_object_object_add(o, "bytes", json_object_new_int64(b));
        return reply(o);
    }
    if (strcmp(what, "diskstats") == 0) {
        struct stat st;
        if (stat(path, &st) < 0) {
            log_error("Cannot stat '%s': %s", path, strerror(errno));
            return EXIT_FAILED;
        }
        char *text = textfile_read("/proc/diskstats");
        if (!text) {
            log_error("Cannot read /proc/diskstats: %s", strerror(errno));
            return EXIT_FAILED;
        }
        o = hostside_reply_new();
        json_object_object_add(o, "major", json_object_new_int64(major(st.st_dev)));
        json_object_object_add(o, "minor", json_object_new_int64(minor(st.st_dev)));
        json_object_object_add(o, "diskstats", json_object_new_string(text));
        free(text);
        return reply(o);
    }
    log_error("vbed host: unknown request '%s' (version, drop-caches, meminfo, stat, resident, "
              "diskstats, df, arm-...)",
              what);
    return EXIT_USAGE;
}
