/* hypervisor.h: the virt layer -- libvirt: connections (this file),
 * domains and their XML (domain.h, layout.h), storage pools and volumes
 * (storage.h), the KVM probe (accel.h), the hosts of a run (hostset.h),
 * CPU placement (placement.h), a guest's agent (agent.h), configuration
 * disk (configdisk.h) and way to ready (guest.h). It may call image/,
 * hostside/, report/, model/, results/, scenario/ and util/.
 *
 * This file: the libvirt connection and what it offers.
 *
 * -c URI, else $LIBVIRT_DEFAULT_URI, else libvirt's own default, as virsh
 * does. libvirt's default error printer is replaced: errors are reported once
 * through log.h with libvirt's message quoted. */
#ifndef VBED_HYPERVISOR_H
#define VBED_HYPERVISOR_H

#include <libvirt/libvirt.h>
#include <libvirt/virterror.h>
#include <stdbool.h>
#include <stddef.h>

struct hv_info {
    char uri[256];           /* the URI libvirt actually connected to */
    char hostname[256];
    bool remote;             /* the hypervisor is not on this machine */
    bool kvm_offered;        /* capabilities list domain type kvm for x86_64 */
    bool qemu_offered;       /* ... and type qemu (TCG) */
    unsigned long lib_version;  /* libvirt, major*1e6+minor*1e3+micro */
    unsigned long hv_version;   /* QEMU */
};

struct hv;

/* Silence libvirt's printer; call once before any libvirt call. */
void hv_init(void);
/* The last libvirt error message, or "unknown error". */
const char *hv_last_error(void);

/* uri may be NULL (libvirt's default). NULL after reporting the failure. */
struct hv *hv_open(const char *uri);
/* The same without reporting a failure (dry runs and doctor probe quietly). */
struct hv *hv_try_open(const char *uri);
void hv_close(struct hv *hv);
virConnectPtr hv_conn(struct hv *hv);
/* Whether the connection still stands (false once libvirtd went away);
 * asks libvirt once. */
bool hv_alive(struct hv *hv);
/* A connection that was lost (libvirtd restarted) opened again to the same
 * URI, retrying for up to wait_s seconds: 0 when it stands again (at once if
 * it never fell), -1 reported. Domain handles of the old connection are
 * dead: look the domains up again (hv_lookup). Domains started with
 * AUTODESTROY outlive a restarted libvirtd, so whoever started them must. */
int hv_reconnect(struct hv *hv, int wait_s);
/* The domain called name on the connection, or NULL (not reported). */
virDomainPtr hv_lookup(struct hv *hv, const char *name);
/* Whether dom's connection still stands. */
bool hv_domain_conn_alive(virDomainPtr dom);
const struct hv_info *hv_get_info(struct hv *hv);

/* Start a transient domain that dies with this connection
 * (VIR_DOMAIN_START_AUTODESTROY). NULL after reporting. */
virDomainPtr hv_start(struct hv *hv, const char *xml, const char *name);
/* 1 running (or paused, booting), 0 gone or shut off, -1 unknown. */
int hv_is_running(virDomainPtr dom);
/* Destroy (if still there) and free; NULL-safe. */
void hv_destroy(virDomainPtr dom);
/* Names of the domains (running or defined) whose name starts with prefix. */
int hv_list_domains(struct hv *hv, const char *prefix, char ***names, size_t *n);
/* The machine named by a domain's owner metadata (domain.h) into machine;
 * 1 found, 0 the domain has none (or is gone), -1 unknown. */
int hv_domain_owner(struct hv *hv, const char *name, char *machine, size_t len);
/* 1 if the domain is running (or paused), 0 not or gone, -1 unknown. */
int hv_domain_active(struct hv *hv, const char *name);
/* Destroy and undefine a domain by name; 0 if it is gone afterwards. */
int hv_remove_domain(struct hv *hv, const char *name);

/* The boot id of a remote host (hostside_boot_id): a KVM probe's verdict
 * there is kept for that boot only. Without it, for this machine's boot. */
void hv_set_host_boot_id(struct hv *hv, const char *boot_id);

/* That boot id; "" if none was set. */
const char *hv_host_boot_id(const struct hv *hv);

/* "9.0.0" from 9000000 */
void hv_format_version(unsigned long v, char *buf, unsigned long len);

#endif
