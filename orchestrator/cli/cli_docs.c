/* cli_docs.c: the tables of exit codes, environment variables and files
 * (cli_docs.h), and their help text. */
#include "cli/cli_docs.h"

#include "util/exitcode.h"

#include <string.h>

const struct cli_exit_code cli_exit_codes[] = {
    {EXIT_OK, "everything asked for was done"},
    {EXIT_FAILED, "a run, build or check failed (results measured so far are kept)"},
    {EXIT_USAGE, "bad command line or scenario; nothing was started"},
    {EXIT_ENV, "the host lacks something: libvirt, an image, a package, permission"},
    {EXIT_SIGHUP, "its terminal was closed: SIGHUP (everything started was cleaned up)"},
    {EXIT_SIGINT, "interrupted by SIGINT (everything started was cleaned up)"},
    {EXIT_SIGTERM, "terminated by SIGTERM (everything started was cleaned up)"},
    {-1, NULL},
};

const struct cli_doc cli_environment[] = {
    {"LIBVIRT_DEFAULT_URI", "The libvirt connection when -c is not given, as for virsh."},
    {"VBED_CACHE_DIR", "The image cache (default /var/cache/vbed); --cache-dir overrides it."},
    {"VBED_DATA_DIR",
     "Where vbed finds guest-images/ and scenarios/ (default: next to the binary, i.e. the "
     "source tree or PREFIX/share/vbed)."},
    {"VBED_SESSION_DIR",
     "The records of vbed's sessions on this machine (default /var/lib/vbed/sessions), by "
     "which vbed clean tells its own leftovers from other machines'."},
    {"VBED_CGROUP_ROOT", "The cgroup tree of host arms (default /sys/fs/cgroup); for tests."},
    {"VBED_REMOTE_VBED",
     "The command run on a qemu+ssh:// host for the work libvirt does not offer (default: vbed "
     "in root's PATH there)."},
    {"LIBGUESTFS_BACKEND_SETTINGS",
     "Passed to libguestfs (vbed image verify); when it is unset and /dev/kvm does not boot a "
     "guest, vbed sets force_tcg."},
    {"TMPDIR", "Scratch files of the plots (default /tmp)."},
    {"TERM", "Progress is redrawn in place on a terminal unless TERM is dumb."},
    {"PATH",
     "Where vbed finds the programs it runs (qemu-img, sysbench, fio, mariadbd, gnuplot, ...); "
     "vbed doctor checks them."},
    {NULL, NULL},
};

const struct cli_doc cli_files[] = {
    {"results/<UTC time>-<scenario>/",
     "One vbed run: scenario.ini, meta.json, samples.jsonl, summary.csv, runs/ (raw logs) and "
     "report.html; the root is vbed run -o. vbed report, compare and list read them as "
     "untrusted input."},
    {"/var/cache/vbed/images/<recipe>-<hash>/",
     "Cached guest images, keyed by a hash of their recipe (VBED_CACHE_DIR, --cache-dir)."},
    {"/var/lib/vbed/pool/",
     "The directory of the libvirt storage pool vbed creates (scenario keys pool and "
     "pool_dir): the uploaded image and each guest's disks."},
    {"/var/lib/vbed/host/",
     "Next to the pool's directory: each host arm's private mariadbd, its datadir and mark."},
    {"/var/lib/vbed/sessions/", "The records of vbed's sessions (VBED_SESSION_DIR)."},
    {"guest-images/<recipe>/", "Guest image recipes (recipe.ini and files/), under VBED_DATA_DIR."},
    {"scenarios/*.ini", "The shipped scenarios, under VBED_DATA_DIR."},
    {NULL, NULL},
};

void cli_print_exit_codes(FILE *out)
{
    fprintf(out, "Exit codes:\n");
    for (const struct cli_exit_code *e = cli_exit_codes; e->code >= 0; e++)
        fprintf(out, "  %-4d %s\n", e->code, e->meaning);
}

void cli_print_docs(FILE *out, const char *title, const struct cli_doc *docs)
{
    fprintf(out, "%s:\n", title);
    for (const struct cli_doc *d = docs; d->name; d++) {
        fprintf(out, "  %s\n", d->name);
        /* the help, wrapped at 79 columns under the name */
        size_t col = 0;
        for (const char *p = d->help; *p;) {
            size_t word = strcspn(p, " ");
            if (col && col + 1 + word > 73) {
                fputc('\n', out);
                col = 0;
            }
            fprintf(out, "%s%.*s", col ? " " : "      ", (int)word, p);
            col += word + 1;
            p += word;
            p += strspn(p, " ");
        }
        fputc('\n', out);
    }
}
