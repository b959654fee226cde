/* hypervisor.h: the libvirt connection and what it offers.
 *
 * -c URI, else $LIBVIRT_DEFAULT_URI, else libvirt's own default, as virsh
 * does. libvirt's default error printer is replaced: errors are reported once
 * through log.h with libvirt's message quoted. */
#ifndef VBED_HYPERVISOR_H
#define VBED_HYPERVISOR_H

#include <libvirt/libvirt.h>
#include <libvirt/virterror.h>
#include <stdbool.h>

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
const struct hv_info *hv_get_info(struct hv *hv);

/* "9.0.0" from 9000000 */
void hv_format_version(unsigned long v, char *buf, unsigned long len);

#endif
