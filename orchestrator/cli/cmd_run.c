/* cmd_run.c: `vbed run [options] SCENARIO`: load and check the scenario,
 * then either print the plan (--dry-run, touching no guest) or execute it. */
#include "cli/cli.h"
#include "scenario/disklayout.h"
#include "util/units.h"
#include "image/archive.h"
#include "workloads/workload.h"
#include "virt/domain.h"
#include "util/exitcode.h"
#include "virt/hostset.h"
#include "virt/hypervisor.h"
#include "image/image.h"
#include "virt/layout.h"
#include "util/log.h"
#include "util/paths.h"
#include "scenario/plan.h"
#include "experiment/runner.h"
#include "results/session.h"
#include "scenario/scenario.h"
#include "scenario/workingset.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct run_opts {
    int dry_run;
    int keep;
    int boot_only;
    int cold;
    const char *xml_dir;
    const char *results_root;
    const char *session;
    const char *scenario;
};

const struct cli_option cmd_run_options[] = {
    {"dry-run", 'n', NULL, CLI_VALUE_NONE, NULL, "check the scenario and print the plan; start nothing"},
    {"xml-dir", CLI_LONG_ONLY('X'), "DIR", CLI_VALUE_DIR, NULL,
     "with --dry-run: write each guest's domain XML to DIR/<name>.xml"},
    {"results", 'o', "DIR", CLI_VALUE_DIR, NULL, "results root (default: ./results)"},
    {"keep", 'k', NULL, CLI_VALUE_NONE, NULL, "keep per-guest disks after the run"},
    {"boot-only", CLI_LONG_ONLY('B'), NULL, CLI_VALUE_NONE, NULL,
     "start each guest arm's guests, wait until MariaDB answers in every one, print its "
     "version, stop them: no workload"},
    {"cold", CLI_LONG_ONLY('C'), NULL, CLI_VALUE_NONE, NULL,
     "boot every guest (start = cold), restoring none from a saved ready guest"},
    {"id", CLI_LONG_ONLY('I'), "ID", CLI_VALUE_TEXT, NULL,
     "session id in domain names (default: random; 'dryrun' for --dry-run)"},
    {NULL, 0, NULL, CLI_VALUE_NONE, NULL, NULL},
};

void cmd_run_usage(FILE *out)
{
    fprintf(out, "usage: vbed [-c URI] run [options] SCENARIO\n\n"
                 "Run every variant x arm x repeat of SCENARIO (see 'vbed help keys').\n");
}

static int parse_opts(int argc, char **argv, struct run_opts *o)
{
    struct cli_getopt g;
    cli_getopt_init(&g, cmd_run_options, "");
    int c;
    while ((c = cli_getopt_next(&g, argc, argv)) != -1) {
        switch (c) {
        case 'n':
            o->dry_run = 1;
            break;
        case CLI_LONG_ONLY('X'):
            o->xml_dir = optarg;
            break;
        case 'o':
            o->results_root = optarg;
            break;
        case 'k':
            o->keep = 1;
            break;
        case CLI_LONG_ONLY('I'):
            o->session = optarg;
            break;
        case CLI_LONG_ONLY('B'):
            o->boot_only = 1;
            break;
        case CLI_LONG_ONLY('C'):
            o->cold = 1;
            break;
        default:
            fprintf(stderr, "Try 'vbed run --help'.\n");
            return -1;
        }
    }
    if (optind != argc - 1) {
        log_error("run needs exactly one scenario file (try 'vbed run --help').");
        return -1;
    }
    o->scenario = argv[optind];
    if (o->xml_dir && !o->dry_run) {
        log_error("--xml-dir goes with --dry-run.");
        return -1;
    }
    if (o->session && !session_id_ok(o->session)) {
        log_error("--id '%s': use 1 to 12 lower-case letters or digits.", o->session);
        return -1;
    }
    return 0;
}

/* The domain type a dry run shows: virt_type if forced; else what the
 * connection offers, or qemu when no libvirt answers. */
static int dry_run_virt_type(const char *uri, const char **why)
{
    struct hv *hv = hv_try_open(uri);
    if (!hv) {
        *why = "no libvirt answered; assuming qemu (TCG)";
        return VIRT_QEMU;
    }
    int type = hv_get_info(hv)->kvm_offered ? VIRT_KVM : VIRT_QEMU;
    *why = type == VIRT_KVM ? "libvirt offers kvm (a real run first checks that a guest boots under it)"
                            : "libvirt offers only qemu (TCG)";
    hv_close(hv);
    return type;
}

static int write_xml_files(const struct plan *p, const struct run_opts *o, int auto_type)
{
    if (paths_mkdirs(o->xml_dir, 0755) < 0)
        return -1;
    const char *session = o->session ? o->session : "dryrun";
    /* the image's id and kernel command line come from its recipe; it need
     * not be built for that */
    struct image_info img;
    if (image_resolve(p->global.image, NULL, &img) < 0)
        return -1;
    struct image_layout im;
    const char *cmdline = img.cmdline;
    size_t written = 0;
    for (size_t s = 0; s < p->n_specs; s++) {
        const struct plan_spec *sp = &p->specs[s];
        if (p->arms[sp->arm].kind != ARM_GUEST)
            continue;
        char runid[64];
        layout_runid(runid, sizeof(runid), session, (unsigned)(s + 1));
        int vt = sp->cfg.virt_type == VIRT_AUTO ? auto_type : sp->cfg.virt_type;
        for (long long n = 1; n <= sp->cfg.guests; n++) {
            struct guest_layout g;
            struct domain_spec spec;
            layout_image(&im, sp->cfg.pool_dir, img.id);
            layout_guest(&g, sp->cfg.pool_dir, runid, p->arms[sp->arm].name, (int)n, &sp->cfg);
            layout_domain_spec(&spec, &g, &im, &sp->cfg, vt, cmdline);
            char *xml = domain_xml(&spec);
            if (!xml)
                return -1;
            char file[PATH_MAX], leaf[LAYOUT_NAME_MAX + 8];
            snprintf(leaf, sizeof(leaf), "%s.xml", g.name);
            path_join(file, sizeof(file), o->xml_dir, leaf);
            FILE *f = fopen(file, "w");
            if (!f || fputs(xml, f) == EOF || fclose(f) != 0) {
                log_error("Cannot write '%s': %s", file, strerror(errno));
                if (f)
                    fclose(f);
                free(xml);
                return -1;
            }
            free(xml);
            written++;
        }
    }
    log_info("wrote %zu domain XML file%s to %s", written, written == 1 ? "" : "s", o->xml_dir);
    return 0;
}

/* Where each run's data fits, estimated from its table sizes: a line per
 * run for plans a person reads run by run, a count per arm and cache for
 * larger ones (linear in the runs either way); a warning for every arm
 * whose data never leaves the buffer pool. */
#define WS_LIST_MAX 64

static void print_working_sets(const struct plan *p, FILE *out)
{
    long long host_mem = ws_host_memory();
    fprintf(out, "\nWorking set (estimated from tables x table_size; a run measures it on disk "
                 "after prepare):\n");
    for (size_t a = 0; a < p->n_arms; a++) {
        size_t count[WS_NONE + 1] = {0}, bp_auto = 0;
        long long bp_data = -1, bp_pool = 0;
        const char *arm = p->arms[a].name;
        int kind = p->arms[a].kind;
        for (size_t s = 0; s < p->n_specs; s++) {
            const struct plan_spec *sp = &p->specs[s];
            if (sp->arm != a)
                continue;
            if (key_workload_is_io(sp->cfg.workload)) {
                /* no tables: what is written, onto what */
                char vars[256], io[32], usable[32];
                plan_spec_variants(p, s, vars, sizeof(vars));
                if (sp->cfg.workload == WL_TAR_EXTRACT)
                    snprintf(io, sizeof(io), "%.0f MB archive", (double)archive_content_bytes() / 1e6);
                else
                    format_size(sp->cfg.io_size, io, sizeof(io));
                if (kind == ARM_HOST)
                    fprintf(out, "  %-12s variants %-8s raw I/O (%s): in the host arm's "
                                 "directory; %s\n",
                            arm, vars, key_choice("workload", sp->cfg.workload), io);
                else {
                    format_size(disklayout_usable_bytes(sp->cfg.layout, sp->cfg.data_disks,
                                                        sp->cfg.disk_size),
                                usable, sizeof(usable));
                    fprintf(out, "  %-12s variants %-8s raw I/O (%s): %s of %lld disk%s (%s usable); "
                                 "%s\n",
                            arm, vars, key_choice("workload", sp->cfg.workload),
                            key_choice("layout", sp->cfg.layout), sp->cfg.data_disks,
                            sp->cfg.data_disks == 1 ? "" : "s", usable, io);
                }
                continue;
            }
            long long data = ws_estimate_bytes(&sp->cfg);
            enum ws_fit fit = ws_classify(&sp->cfg, kind, data, host_mem);
            count[fit]++;
            /* buffer_pool = auto: fitting is what the arm is about */
            bp_auto += fit == WS_BUFFER_POOL && sp->cfg.buffer_pool < 0;
            if (fit == WS_BUFFER_POOL && sp->cfg.buffer_pool >= 0 && bp_data < 0)
                bp_data = data, bp_pool = ws_buffer_pool(&sp->cfg);
            if (p->n_specs <= WS_LIST_MAX) {
                char text[512], vars[256];
                ws_describe(&sp->cfg, kind, data, true, host_mem, text, sizeof(text));
                plan_spec_variants(p, s, vars, sizeof(vars));
                fprintf(out, "  %-12s variants %-8s %s: %s\n", arm, vars, ws_fit_name(fit), text);
            }
        }
        size_t runs = 0;
        for (int f = 0; f <= WS_NONE; f++)
            runs += count[f];
        if (p->n_specs > WS_LIST_MAX)
            fprintf(out,
                    "  %-12s %zu runs: %zu buffer_pool, %zu guest_page_cache, %zu host_page_cache, "
                    "%zu none\n",
                    arm, runs, count[WS_BUFFER_POOL], count[WS_GUEST_PAGE_CACHE],
                    count[WS_HOST_PAGE_CACHE], count[WS_NONE]);
        size_t fixed = count[WS_BUFFER_POOL] - bp_auto;
        if (fixed)
            log_warn("arm [%s]: %s%zu of its %zu runs: its data (e.g. ~%lld MiB estimated) fits in its "
                     "buffer pool (%lld MiB): the disk cache mode cannot matter there; raise tables "
                     "or table_size, or lower buffer_pool",
                     arm, fixed == runs ? "all " : "", fixed, runs, bp_data >> 20, bp_pool >> 20);
    }
}

static int dry_run(const struct plan *p, const struct run_opts *o, const char *uri)
{
    const char *why = NULL;
    int auto_type = VIRT_QEMU;
    int needs_auto = 0;
    for (size_t s = 0; s < p->n_specs; s++)
        if (p->arms[p->specs[s].arm].kind == ARM_GUEST && p->specs[s].cfg.virt_type == VIRT_AUTO)
            needs_auto = 1;
    /* hosts named in the scenario must answer (libvirt, and the helper of
     * an ssh host) before anything starts */
    struct hostset hosts;
    hostset_collect(&hosts, p, uri);
    bool named = false;
    for (size_t s = 0; s < p->n_specs; s++)
        named |= p->specs[s].cfg.hosts[0] != '\0';
    if (named && hostset_connect(&hosts, true) < 0) {
        log_error("%s: a host cannot be reached; nothing was started.", p->scn->path);
        hostset_close(&hosts);
        return EXIT_ENV;
    }
    /* and the host of every host arm */
    char *arm_lines = NULL;
    size_t arm_len = 0;
    FILE *arms = open_memstream(&arm_lines, &arm_len);
    if (hostset_check_host_arms(p, uri, arms) < 0) {
        fclose(arms);
        free(arm_lines);
        log_error("%s: a host arm's host cannot be used; nothing was started.", p->scn->path);
        hostset_close(&hosts);
        return EXIT_ENV;
    }
    fclose(arms);
    if (needs_auto)
        auto_type = dry_run_virt_type(uri, &why);
    plan_print(p, stdout);
    if (named || hosts.n > 1)
        hostset_print_placement(p, &hosts, stdout);
    fputs(arm_lines, stdout);
    free(arm_lines);
    hostset_close(&hosts);
    print_working_sets(p, stdout);
    if (needs_auto)
        printf("\nvirt_type auto: %s -> %s\n", why, auto_type == VIRT_KVM ? "kvm" : "qemu");
    if (o->xml_dir && write_xml_files(p, o, auto_type) < 0)
        return EXIT_FAILED;
    return EXIT_OK;
}

int cmd_run(struct cli_ctx *ctx, int argc, char **argv)
{
    struct run_opts o = {.results_root = "results"};
    if (parse_opts(argc, argv, &o) < 0)
        return EXIT_USAGE;

    struct diag d = {0};
    struct scenario *scn = scenario_load(o.scenario, &d);
    struct plan *p = scn ? plan_build(scn, &d) : NULL;
    int rc;
    if (!p) {
        diag_print(&d);
        log_error("%s: %zu problem%s; nothing was started.", o.scenario, d.n, d.n == 1 ? "" : "s");
        rc = EXIT_USAGE;
        goto cleanup;
    }
    if (o.dry_run) {
        rc = dry_run(p, &o, ctx->uri);
        goto cleanup;
    }
    if (cli_check_cache_dir() < 0) {
        rc = EXIT_ENV;
        goto cleanup;
    }
    struct runner_opts ro = {.uri = ctx->uri,
                             .results_root = o.results_root,
                             .session = o.session,
                             .keep = o.keep,
                             .boot_only = o.boot_only,
                             .cold = o.cold};
    rc = runner_execute(p, &ro);
cleanup:
    diag_clear(&d);
    plan_free(p);
    scenario_free(scn);
    return rc;
}
