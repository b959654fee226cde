/* postmortem.h: after a guest failed, read its journal and MariaDB error
 * log out of its root overlay with libguestfs (no running guest needed).
 * Local pools only: libguestfs opens the files directly. */
#ifndef VBED_POSTMORTEM_H
#define VBED_POSTMORTEM_H

#include <stdbool.h>

/* journal.txt and mysqld.err (if present) into dir; kvm_works as for
 * inspect_open. -1 reported. */
int postmortem_guest(const char *root_overlay, const char *dir, bool kvm_works);

/* The same with a deadline: in a child process (`vbed image postmortem
 * OVERLAY DIR`, this binary), killed after timeout_s seconds (60: the
 * appliance launched in about 10 s in the boot-timeout test here) -- the
 * libguestfs appliance's launch has none of its own, and one waited,
 * idle, for 10 minutes here after a boot timeout (its recovery process
 * takes the appliance down with the child). Its output goes to
 * DIR/postmortem.log. 0, or -1 (said). */
int postmortem_guest_bounded(const char *root_overlay, const char *dir, long timeout_s);
#define POSTMORTEM_TIMEOUT_S 60

#endif
