/* postmortem.h: after a guest failed, read its journal and MariaDB error
 * log out of its root overlay with libguestfs (no running guest needed).
 * Local pools only: libguestfs opens the files directly. */
#ifndef VBED_POSTMORTEM_H
#define VBED_POSTMORTEM_H

#include <stdbool.h>

/* journal.txt and mysqld.err (if present) into dir; kvm_works as for
 * inspect_open. -1 reported. */
int postmortem_guest(const char *root_overlay, const char *dir, bool kvm_works);

#endif
