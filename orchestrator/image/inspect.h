/* inspect.h: read guest disks offline with libguestfs.
 *
 * Where no running guest is needed: checking what a built image contains,
 * and, after a failed run, pulling the guest's journal and MariaDB error log
 * out of its disks. libguestfs' own error printer is off; its errors are
 * reported once through log.h. Where /dev/kvm exists but does not work
 * (accel.h), the appliance is forced onto TCG. */
#ifndef VBED_INSPECT_H
#define VBED_INSPECT_H

#include <stdbool.h>
#include <stddef.h>

struct inspect;

/* A handle with disks added read-only, launched. disks/formats: n entries;
 * the i-th disk is /dev/sd<'a'+i> inside. kvm_works: the caller's verdict
 * on this machine's KVM (virt/accel.h); false keeps the appliance on TCG
 * where a /dev/kvm exists but hangs guests. NULL after reporting. */
struct inspect *inspect_open(const char *const *disks, const char *const *formats, size_t n,
                             bool kvm_works);
void inspect_close(struct inspect *in);
/* Seconds the appliance took to launch. */
double inspect_launch_seconds(const struct inspect *in);

/* Mount device (e.g. "/dev/sda") read-only at mountpoint; -1 reported. */
int inspect_mount(struct inspect *in, const char *device, const char *mountpoint);
/* 1 if path is a directory, 0 if not, -1 on error (reported). */
int inspect_is_dir(struct inspect *in, const char *path);
/* 1 if path is a regular file (or a symbolic link to one), 0 if not, -1 on
 * error (reported). */
int inspect_is_file(struct inspect *in, const char *path);
/* Copy the file guest_path to host_path; -1 reported. */
int inspect_copy_file(struct inspect *in, const char *guest_path, const char *host_path);
/* The systemd journal under journal_dir (e.g. /var/log/journal) as text
 * lines "TIME IDENTIFIER: MESSAGE" into host_path; -1 reported. */
int inspect_journal_text(struct inspect *in, const char *journal_dir, const char *host_path);

#endif
