/* cmd_doctor.c: `vbed doctor`: what this host offers, one line per check,
 * each ok / warn / fail with the fix. Exit 0 unless a check fails. */
#include "cli/cli.h"
#include "hostside/cgroup.h"
#include "util/exitcode.h"
#include "hostside/hostside.h"
#include "virt/accel.h"
#include "virt/hypervisor.h"
#include "scenario/keys.h"
#include "util/log.h"
#include "util/paths.h"
#include "util/spawn.h"
#include "util/version.h"

#include <errno.h>
#include <limits.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

enum verdict { V_OK, V_WARN, V_FAIL };

struct doctor {
    int fails;
    int warns;
};

static void report(struct doctor *d, enum verdict v, const char *what, const char *fix,
                   const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static void report(struct doctor *d, enum verdict v, const char *what, const char *fix,
                   const char *fmt, ...)
{
    static const char *const tags[] = {"ok  ", "warn", "FAIL"};
    char detail[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(detail, sizeof(detail), fmt, ap);
    va_end(ap);
    printf("%s  %-12s %s\n", tags[v], what, detail);
    if (v != V_OK && fix)
        printf("      %-12s fix: %s\n", "", fix);
    d->fails += v == V_FAIL;
    d->warns += v == V_WARN;
}

void cmd_doctor_usage(FILE *out)
{
    fprintf(out, "usage: vbed [-c URI] doctor\n\n"
                 "Checks what this host offers vbed: the libvirt connection and which\n"
                 "virtualization it offers (kvm or only TCG), QEMU and libvirt versions,\n"
                 "the programs vbed runs, free disk where images live, cgroups and\n"
                 "page-cache control. Each line is ok, warn or FAIL with a fix.\n"
                 "Exit code 1 if any check fails.\n");
}

static int in_path(const char *prog)
{
    const char *path = getenv("PATH");
    char dirs[4096];
    snprintf(dirs, sizeof(dirs), "%s:/usr/sbin:/sbin", path ? path : "/usr/bin:/bin");
    char *save = NULL;
    for (char *dir = strtok_r(dirs, ":", &save); dir; dir = strtok_r(NULL, ":", &save)) {
        char full[PATH_MAX];
        if (path_join(full, sizeof(full), dir, prog) == 0 && access(full, X_OK) == 0)
            return 1;
    }
    return 0;
}

static void check_libvirt(struct doctor *d, const char *uri)
{
    struct hv *hv = hv_try_open(uri);
    if (!hv) {
        report(d, V_FAIL, "libvirt",
               "start the daemons with scripts/start-daemons.sh (no systemd here), or use "
               "-c qemu:///session",
               "cannot connect to %s: %s", uri ? uri : "libvirt's default URI", hv_last_error());
        return;
    }
    const struct hv_info *in = hv_get_info(hv);
    char lv[32], qv[32];
    hv_format_version(in->lib_version, lv, sizeof(lv));
    hv_format_version(in->hv_version, qv, sizeof(qv));
    report(d, V_OK, "libvirt", NULL, "connected to %s on %s (libvirt %s, hypervisor %s)%s", in->uri,
           in->hostname, lv, qv, in->remote ? ", remote host" : "");

    int dev_kvm = access("/dev/kvm", R_OK | W_OK) == 0;
    struct stat st;
    if (!in->remote && stat("/dev/kvm", &st) == 0 && (st.st_mode & 0060) != 0060)
        report(d, V_WARN, "/dev/kvm", "chown root:kvm /dev/kvm && chmod 0660 /dev/kvm (what udev does; "
                                      "scripts/start-daemons.sh does it)",
               "mode %04o: libvirt re-probes QEMU on every domain start (~36 s each here)",
               (unsigned)(st.st_mode & 07777));
    /* a remote host's probe verdict holds for that host's boot */
    struct hostside *hs = in->remote ? hostside_new(uri) : NULL;
    char boot[64];
    if (hs && hostside_uri(hs)->transport == HT_SSH && hostside_boot_id(hs, boot, sizeof(boot)) == 0)
        hv_set_host_boot_id(hv, boot);
    hostside_free(hs);
    int probed = accel_kvm_probed(hv);
    if (in->kvm_offered && probed == 1)
        report(d, V_OK, "kvm", NULL, "offered by libvirt, and a probe kernel booted under it: "
                                     "guests run under KVM");
    else if (in->kvm_offered && probed == 0)
        report(d, V_WARN, "kvm",
               "check the host's virtualization (nested KVM, BIOS settings); vbed uses TCG meanwhile",
               "offered by libvirt, but a probe kernel did not boot under it: guests run under "
               "QEMU TCG (software emulation, ~30x slower)");
    else if (in->kvm_offered)
        report(d, V_OK, "kvm", NULL,
               "offered by libvirt%s; not probed yet: vbed run boots a probe kernel first and "
               "falls back to TCG if it hangs",
               in->remote ? "" : (dev_kvm ? " (/dev/kvm present)" : ""));
    else if (in->qemu_offered)
        report(d, V_WARN, "kvm",
               "use a host with hardware virtualization (load kvm_intel/kvm_amd) for figures "
               "comparable with production",
               "not offered: guests run under QEMU TCG (software emulation, ~30x slower)");
    else
        report(d, V_FAIL, "kvm", "install qemu-system-x86 and libvirt-daemon-driver-qemu (make deps)",
               "this connection offers neither kvm nor qemu domains for x86_64");
    hv_close(hv);
}

static void check_programs(struct doctor *d)
{
    static const struct {
        const char *prog, *package, *why;
    } progs[] = {
        {"qemu-system-x86_64", "qemu-system-x86", "runs the guests"},
        {"qemu-img", "qemu-utils", "makes disk images"},
        {"debootstrap", "debootstrap", "builds the guest image"},
        {"mkfs.ext4", "e2fsprogs", "makes the root filesystem image"},
        {"mariadbd", "mariadb-server", "the host arm's private server"},
        {"mariadb-install-db", "mariadb-server", "initialises the host arm's datadir"},
        {"sysbench", "sysbench", "the OLTP workload on the host arm"},
        {"fio", "fio", "seq_write and seq_read on the host arm"},
        {"gnuplot", "gnuplot-nox", "draws the report's plots"},
        {"virsh", "libvirt-clients", "virt-xml-validate and manual inspection"},
    };
    for (size_t i = 0; i < sizeof(progs) / sizeof(progs[0]); i++) {
        char fix[128];
        snprintf(fix, sizeof(fix), "make deps (or: apt-get install %s)", progs[i].package);
        if (in_path(progs[i].prog))
            report(d, V_OK, "program", NULL, "%s (%s)", progs[i].prog, progs[i].why);
        else
            report(d, V_FAIL, "program", fix, "%s not found (%s)", progs[i].prog, progs[i].why);
    }
}

static void check_space(struct doctor *d, const char *what, const char *dir)
{
    char probe[PATH_MAX];
    snprintf(probe, sizeof(probe), "%s", dir);
    struct statvfs st;
    /* walk up to the nearest existing directory */
    while (statvfs(probe, &st) < 0) {
        char *slash = strrchr(probe, '/');
        if (!slash || slash == probe) {
            snprintf(probe, sizeof(probe), "/");
            if (statvfs(probe, &st) < 0)
                return;
            break;
        }
        *slash = '\0';
    }
    double gib = (double)st.f_bavail * (double)st.f_frsize / (1024.0 * 1024 * 1024);
    const char *fix = "free space or point it elsewhere (--cache-dir, pool_dir)";
    if (gib < 3)
        report(d, V_FAIL, what, fix, "%.1f GiB free at %s (an image needs ~2 GiB, runs more)", gib, dir);
    else if (gib < 10)
        report(d, V_WARN, what, fix, "%.1f GiB free at %s", gib, dir);
    else
        report(d, V_OK, what, NULL, "%.1f GiB free at %s", gib, dir);
}

/* What a host arm with host_match = guest does (hostarm.c): create a
 * cgroup with a cpuset and a memory limit, start a process in it, and check
 * that the process is confined (cgroup_check_member). */
static void check_cgroups(struct doctor *d)
{
    static const char *fix = "run vbed as root on a host with the memory and cpuset cgroup "
                             "controllers mounted (cgroupfs-mount), or set host_match = none";
    const char *version = cgroup_version();
    if (!version) {
        report(d, V_FAIL, "cgroups", fix,
               "no cgroup with memory and cpuset controllers: a host arm with host_match = guest "
               "cannot run here");
        return;
    }
    char name[64], why[512] = "";
    snprintf(name, sizeof(name), "vbed-doctor-%d", (int)getpid());
    struct cgroup *cg = cgroup_create(name, "0", 64LL << 20);
    if (!cg) {
        report(d, V_FAIL, "cgroups", fix,
               "cgroup %s: cannot create a cgroup limited to CPU 0 and 64 MiB (see above): a host "
               "arm with host_match = guest cannot run here",
               version);
        return;
    }
    const char *argv[] = {"sleep", "10", NULL};
    struct spawn_opts o = {.quiet = 1};
    const char *const *files = cgroup_procs_files(cg);
    for (int i = 0; i < 3 && files[i]; i++)
        o.cgroup_procs[i] = files[i];
    pid_t pid = spawn_start(argv, &o);
    int confined = -1;
    if (pid > 0) {
        /* the child writes itself into the cgroup before exec: allow it 2 s */
        for (int i = 0; i < 20 && confined < 0; i++) {
            confined = cgroup_check_member(cg, pid, "0", why, sizeof(why));
            if (confined < 0)
                usleep(100000);
        }
        spawn_stop(pid, 1);
    } else {
        snprintf(why, sizeof(why), "cannot start a test process");
    }
    cgroup_destroy(cg);
    if (confined == 0)
        report(d, V_OK, "cgroups", NULL,
               "cgroup %s: a test process was confined to CPU 0 and 64 MiB (memory, cpuset), as "
               "a host arm will be",
               version);
    else
        report(d, V_FAIL, "cgroups", fix,
               "cgroup %s: a test process was not confined (%s): a host arm with host_match = "
               "guest cannot run here",
               version, why);
}

static void check_host_control(struct doctor *d)
{
    if (access("/proc/sys/vm/drop_caches", W_OK) == 0)
        report(d, V_OK, "page cache", NULL, "can drop the host's caches (/proc/sys/vm/drop_caches)");
    else
        report(d, V_WARN, "page cache", "run vbed as root, or set drop_caches = no",
               "cannot write /proc/sys/vm/drop_caches: %s", strerror(errno));

    check_cgroups(d);
}

/* A hypervisor host that is not this machine (-c with a server): its
 * helper (`vbed host` over ssh, hostside.h), its pool and the pool's free
 * space, through libvirt; the checks of programs, cgroups and page cache
 * below are of this machine, where the host arm runs. */
static void check_remote_host(struct doctor *d, const char *uri)
{
    struct hostside *hs = hostside_new(uri);
    if (!hs)
        return;
    const struct host_uri *u = hostside_uri(hs);
    if (u->transport == HT_NONE) {
        report(d, V_WARN, "helper", "use a qemu+ssh:// URI for that host",
               "%s has no shell transport: drop_caches, page-cache residency and /proc/meminfo "
               "of that host cannot be measured (recorded as unavailable)",
               u->label);
    } else if (u->transport == HT_SSH) {
        char version[64];
        bool drop = false;
        int vrc = hostside_version(hs, version, sizeof(version), &drop);
        if (vrc < 0)
            report(d, V_FAIL, "helper", "install vbed on that host (in root's PATH, or set $VBED_REMOTE_VBED)",
                   "'vbed host version' does not answer on %s over ssh", u->label);
        else if (strcmp(version, vbed_version()) != 0)
            report(d, V_WARN, "helper", "install the same vbed on both machines",
                   "vbed %s on %s, %s here", version, u->label, vbed_version());
        else
            report(d, V_OK, "helper", NULL, "vbed host %s answers on %s over ssh", version, u->label);
        if (vrc == 0) {
            if (drop)
                report(d, V_OK, "page cache", NULL, "can drop %s's caches (/proc/sys/vm/drop_caches)", u->label);
            else
                report(d, V_WARN, "page cache", "ssh in as root, or set drop_caches = no",
                       "cannot write /proc/sys/vm/drop_caches on %s", u->label);
        }
    }

    struct hv *hv = hv_try_open(uri);
    if (!hv) {
        hostside_free(hs);
        return; /* check_libvirt said why */
    }
    const char *pool = key_find("pool")->def;
    virStoragePoolPtr p = virStoragePoolLookupByName(hv_conn(hv), pool);
    virStoragePoolInfo info;
    if (!p) {
        const char *dir = key_find("pool_dir")->def;
        long long free_b = u->transport == HT_SSH ? hostside_free_bytes(hs, dir) : -1;
        double gib = (double)free_b / (1024.0 * 1024 * 1024);
        if (free_b < 0)
            report(d, V_OK, "pool", NULL, "no pool '%s' on %s yet: vbed run creates it at %s", pool,
                   u->label, dir);
        else
            report(d, gib < 3 ? V_FAIL : gib < 10 ? V_WARN : V_OK, "pool",
                   gib < 10 ? "free space where the pool will be, or set pool_dir" : NULL,
                   "no pool '%s' on %s yet: vbed run creates it at %s (%.1f GiB free there)", pool,
                   u->label, dir, gib);
    } else if (virStoragePoolGetInfo(p, &info) == 0 && info.state == VIR_STORAGE_POOL_RUNNING) {
        double gib = (double)info.available / (1024.0 * 1024 * 1024);
        if (gib < 3)
            report(d, V_FAIL, "pool", "free space in that pool's directory",
                   "pool '%s' on %s: %.1f GiB free (an image needs ~2 GiB, runs more)", pool, u->label, gib);
        else
            report(d, gib < 10 ? V_WARN : V_OK, "pool", gib < 10 ? "free space in that pool's directory" : NULL,
                   "pool '%s' on %s: %.1f GiB free", pool, u->label, gib);
    } else {
        report(d, V_WARN, "pool", "virsh pool-start on that host (vbed run starts it too)",
               "pool '%s' on %s is not running", pool, u->label);
    }
    if (p)
        virStoragePoolFree(p);
    hv_close(hv);
    hostside_free(hs);
}

int cmd_doctor(struct cli_ctx *ctx, int argc, char **argv)
{
    (void)argv;
    if (argc > 1) {
        log_error("doctor takes no arguments (try 'vbed doctor --help').");
        return EXIT_USAGE;
    }
    struct doctor d = {0};
    check_libvirt(&d, ctx->uri);
    struct host_uri u;
    char err[600];
    bool remote = ctx->uri && host_uri_parse(ctx->uri, &u, err, sizeof(err)) == 0 && u.transport != HT_LOCAL;
    if (remote) {
        check_remote_host(&d, ctx->uri);
        printf("\nthis machine (vbed, the image cache, the host arm):\n");
    }
    check_programs(&d);
    check_space(&d, "image cache", paths_cache_dir());
    if (!remote)
        check_space(&d, "pool", key_find("pool_dir")->def);
    check_host_control(&d);
    printf("\n%d failed, %d warning%s\n", d.fails, d.warns, d.warns == 1 ? "" : "s");
    return d.fails ? EXIT_FAILED : EXIT_OK;
}
