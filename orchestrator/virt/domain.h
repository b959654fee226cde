/* domain.h: libvirt domain XML for one guest of one run.
 *
 * Pure: from a domain_spec (settings and resolved paths) to XML text, written
 * with libxml2's xmlTextWriter so that every value is escaped. Golden files in
 * tests/data/domain/ hold the XML of every cache mode x format x virt type. */
#ifndef VBED_DOMAIN_H
#define VBED_DOMAIN_H

#include <stdbool.h>
#include <stddef.h>

struct domain_spec {
    const char *name;
    const char *uuid;       /* NULL: libvirt chooses (a restored guest keeps its saved one) */
    int virt_type;          /* VIRT_KVM or VIRT_QEMU (never VIRT_AUTO here) */
    long long memory;       /* bytes */
    long long vcpus;
    const char *kernel;
    const char *initrd;
    const char *cmdline;
    const char *root_path;  /* qcow2 overlay on the base image */
    const char *data_path;  /* the disk under test; NULL with filesystem = tmpfs */
    /* data disks 2..N (data_disks), the same format, cache and io: vdd, vde, ...
     * with serials DOMAIN_SERIAL_DATA "-2", "-3", ... (data disk 1 stays vdb) */
    int n_more_data;
    const char *more_data_path[15];
    int data_format;        /* enum disk_format */
    int data_cache;         /* enum disk_cache */
    int data_io;            /* enum disk_io */
    const char *config_path; /* raw run-configuration disk, read-only */
    const char *console_log; /* file that receives the serial console */
    const int *vcpu_pin;    /* host CPU of each vCPU (placement.h); NULL: not pinned */
    int emulator_pin;       /* host CPU of the emulator threads; -1: not pinned */
    const char *cpuset;     /* the host CPUs its threads may use at all, pinned or not
                               (<vcpu cpuset>, placement_guest_cpuset); NULL or "": any */
    const char *session;    /* owner, in <metadata> (DOMAIN_OWNER_NS); NULL: none */
    const char *machine;    /* the machine whose session made it (session.h) */
    bool plugged_later;     /* the data and configuration disks are not in the domain's
                               XML: a restored guest gets them hot-plugged
                               (domain_plug_xml) */
};

/* Disk serials, as the guest sees them in /dev/disk/by-id/virtio-<serial>. */
#define DOMAIN_SERIAL_ROOT "vbed-root"
#define DOMAIN_SERIAL_DATA "vbed-data"
#define DOMAIN_SERIAL_CONFIG "vbed-config"
/* a tar archive of prepared tables (workloads/prepared.h), plugged in read-only
 * when a workload copies them: not a disk under test */
#define DOMAIN_SERIAL_TABLES "vbed-tables"
#define DOMAIN_DEV_TABLES "vdz" /* after the root, config and 16 data disks */
#define DOMAIN_AGENT_CHANNEL "org.qemu.guest_agent.0"
/* <metadata><vbed:owner xmlns:vbed=DOMAIN_OWNER_NS session=".." machine=".."/>:
 * which machine's session made a domain, so that `vbed clean` on a libvirt
 * shared by several machines removes only its own (virDomainGetMetadata). */
#define DOMAIN_OWNER_NS "https://vbed.invalid/xmlns/owner/1"
#define DOMAIN_OWNER_PREFIX "vbed"

/* The XML (malloc'd), or NULL after reporting why. */
char *domain_xml(const struct domain_spec *spec);
/* The <disk> elements of the configuration disk and the data disks, in the
 * order domain_xml writes them (the same targets and serials), each a
 * string to hot-plug into a running domain (virDomainAttachDeviceFlags):
 * *n of them into xmls (malloc'd, each malloc'd). -1 after reporting. */
int domain_plug_xml(const struct domain_spec *spec, char ***xmls, size_t *n);
/* The <disk> of the prepared tables' archive at path (raw, read-only,
 * DOMAIN_SERIAL_TABLES), to hot-plug; malloc'd, or NULL after reporting. */
char *domain_tables_xml(const char *domain, const char *path);

/* The running domain's XML as libvirt gives it (virDomainGetXMLDesc)
 * against what the run asked for its data disks: n of them (0 with
 * filesystem = tmpfs), each with driver type format, cache and io (enum
 * disk_format, disk_cache, disk_io), told by their serials. 0 if every data
 * disk runs so; -1 with what differs in why (a sentence) otherwise. */
int domain_check_live(const char *xml, int n, int format, int cache, int io, char *why, size_t len);

/* A probe: kernel booted under virt_type with a root that does not exist,
 * so that a working hypervisor reaches the kernel's panic (panic=-1
 * reboots, on_reboot destroys the domain) within seconds. No disks; its
 * serial console (console=ttyS0) goes to the file console_log, whose text
 * decides the verdict (accel.h); machine goes into the owner metadata. */
char *domain_probe_xml(const char *name, int virt_type, const char *kernel, const char *console_log,
                       const char *machine);
/* The probe's kernel command line. */
#define DOMAIN_PROBE_CMDLINE "console=ttyS0 panic=-1 root=/dev/vbed-probe-no-such-disk"

/* "vbed-<runid>-<arm>-<n>" into buf. */
void domain_name(char *buf, unsigned long len, const char *runid, const char *arm, int n);

#endif
