/* accel.h: does KVM actually work on this machine?
 *
 * /dev/kvm can exist and still not run a guest (seen on nested-virt
 * machines: QEMU aborts on an MSR with -cpu host, or the kernel hangs right
 * after decompression). So vbed does not trust its presence: it boots a
 * kernel under KVM with a root device that does not exist, and KVM works if
 * the kernel gets to its panic (and QEMU exits, -no-reboot) in time.
 * The verdict is cached per boot of this machine. */
#ifndef VBED_ACCEL_H
#define VBED_ACCEL_H

enum accel_verdict { ACCEL_UNKNOWN = -1, ACCEL_TCG_ONLY = 0, ACCEL_KVM_WORKS = 1 };

/* Local QEMU with /dev/kvm, probed with kernel (NULL: the newest
 * /boot/vmlinuz-*). Used for libguestfs' appliance. */
enum accel_verdict accel_local_kvm(const char *kernel);

/* The newest /boot/vmlinuz-* into buf; -1 if none. */
int accel_host_kernel(char *buf, unsigned long len);

/* Cache of verdicts, keyed by a string (e.g. "local" or a libvirt URI +
 * host + version) and this machine's boot id. */
enum accel_verdict accel_cache_get(const char *key);
void accel_cache_put(const char *key, enum accel_verdict v);

#endif
