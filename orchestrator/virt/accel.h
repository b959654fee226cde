/* accel.h: does KVM actually work on this machine?
 *
 * /dev/kvm can exist and still not run a guest (seen on nested-virt
 * machines: QEMU aborts on an MSR with -cpu host, or the kernel hangs right
 * after decompression, or the domain just stops). So vbed does not trust
 * its presence, nor that the probe stopped: it boots a kernel under KVM
 * with a root device that does not exist and its serial console on a file
 * (console=ttyS0), and KVM works only if that console shows the kernel's
 * panic within the time limit (accel_console_verdict).
 * The verdict is cached per boot of this machine. */
#ifndef VBED_ACCEL_H
#define VBED_ACCEL_H

enum accel_verdict { ACCEL_UNKNOWN = -1, ACCEL_TCG_ONLY = 0, ACCEL_KVM_WORKS = 1 };

struct hv;

/* How long a probe may take to reach its panic (under KVM: 1-3 s). */
#define ACCEL_PROBE_SECONDS 30

/* The verdict on a probe's console text (NULL: none was read): KVM works
 * only if the kernel got to its panic ("Kernel panic - not syncing" or
 * "VFS: Unable to mount root fs"); an empty console or one that stops in
 * early boot is a kernel that did not get there. Pure. */
enum accel_verdict accel_console_verdict(const char *console);

/* Boot the probe domain under kvm at hv (kernel: a path on the hypervisor's
 * host, normally a volume of vbed's pool; the console file is written
 * next to it and read back through that pool, so a remote host works the
 * same). ACCEL_UNKNOWN if interrupted. Not cached (accel_choose_virt_type).
 * console_text (if not NULL) receives the console's text (malloc'd, or
 * NULL if none could be read). */
enum accel_verdict accel_probe_libvirt(struct hv *hv, const char *kernel, char **console_text);

/* Local QEMU with /dev/kvm, probed with kernel (NULL: the newest
 * /boot/vmlinuz-*). Used for libguestfs' appliance. */
enum accel_verdict accel_local_kvm(const char *kernel);

/* The newest /boot/vmlinuz-* into buf; -1 if none. */
int accel_host_kernel(char *buf, unsigned long len);

/* The domain type to use for virt_type (VIRT_AUTO, VIRT_KVM, VIRT_QEMU) at
 * hv: with auto, kvm only if the capabilities offer it AND a probe kernel
 * boots under it (cached per connection and boot). *why explains. */
int accel_choose_virt_type(struct hv *hv, int requested, const char *kernel, const char **why);

/* What an earlier KVM probe at this connection found (this boot of the
 * host): 1 works, 0 does not, -1 not probed yet. No probe is made. */
int accel_kvm_probed(struct hv *hv);

/* Cache of verdicts, keyed by a string (e.g. "local" or a libvirt URI +
 * host + version) and this machine's boot id. */
enum accel_verdict accel_cache_get(const char *key);
void accel_cache_put(const char *key, enum accel_verdict v);

#endif
