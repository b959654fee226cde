/* postmortem.c: a failed guest's logs out of its disk (see postmortem.h). */
#include "image/postmortem.h"

#include "image/inspect.h"
#include "scenario/mycnf.h"
#include "util/log.h"
#include "util/paths.h"
#include "util/spawn.h"

#include <limits.h>

int postmortem_guest(const char *root_overlay, const char *dir, bool kvm_works)
{
    const char *disks[] = {root_overlay};
    const char *formats[] = {"qcow2"};
    log_info("reading the failed guest's logs out of %s (libguestfs)", root_overlay);
    struct inspect *in = inspect_open(disks, formats, 1, kvm_works);
    if (!in)
        return -1;
    int rc = -1;
    char path[PATH_MAX];
    if (inspect_mount(in, "/dev/sda", "/") < 0)
        goto cleanup;
    /* a guest that failed early may not have written a journal yet */
    int journal = inspect_is_dir(in, "/var/log/journal");
    if (journal < 0)
        goto cleanup;
    path_join(path, sizeof(path), dir, "journal.txt");
    if (journal == 0)
        log_info("the guest wrote no journal before it failed");
    else if (inspect_journal_text(in, "/var/log/journal", path) < 0)
        goto cleanup;
    if (inspect_is_file(in, MYCNF_GUEST_ERROR_LOG) == 1) {
        path_join(path, sizeof(path), dir, "mysqld.err");
        inspect_copy_file(in, MYCNF_GUEST_ERROR_LOG, path);
    }
    rc = 0;
cleanup:
    inspect_close(in);
    return rc;
}

int postmortem_guest_bounded(const char *root_overlay, const char *dir, long timeout_s)
{
    char log_path[PATH_MAX];
    path_join(log_path, sizeof(log_path), dir, "postmortem.log");
    const char *argv[] = {"/proc/self/exe", "image", "postmortem", root_overlay, dir, NULL};
    struct spawn_opts o = {.timeout = timeout_s, .log_path = log_path, .quiet = 1};
    int rc = spawn_run(argv, &o);
    if (rc == SPAWN_TIMEOUT) {
        log_warn("the failed guest's logs could not be read out of %s within %ld s (libguestfs): "
                 "left unread (%s)",
                 root_overlay, timeout_s, log_path);
        return -1;
    }
    if (rc != 0) {
        log_warn("the failed guest's logs could not be read out of %s (%s)", root_overlay, log_path);
        return -1;
    }
    return 0;
}
