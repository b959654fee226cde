/* guest.h: one guest of a run, from its disks to its teardown.
 *
 * Phases, each with its own time limit from the scenario:
 *   disks     root overlay, data disk and configuration disk in the pool
 *   boot      domain started (transient, dies with vbed's connection) until
 *             its guest agent answers            (timeout_boot); or restored
 *             from a saved ready guest (readystate.h: transient, but a
 *             restored domain does not die with the connection -- `vbed
 *             clean` removes one a killed vbed left), its disks plugged in
 *   setup     until vbed-setup in the guest has made and mounted the data
 *             disk and initialised the datadir   (timeout_setup, plus
 *             timeout_resync when a redundant md array resyncs first)
 *   db        until MariaDB answers SELECT VERSION() (timeout_db)
 * A guest that misses a limit, whose domain stops, or whose setup reports a
 * failure, fails with the phase named; its console log is kept. */
#ifndef VBED_GUEST_H
#define VBED_GUEST_H

#include "virt/hypervisor.h"
#include "scenario/keys.h"
#include "virt/layout.h"
#include "virt/readystate.h"
#include "util/progress.h"
#include "virt/storage.h"

#include <stdbool.h>

enum guest_phase { GP_NEW, GP_DISKS, GP_BOOT, GP_SETUP, GP_DB, GP_READY, GP_FAILED };

struct guest {
    int n;                       /* 1-based within its run */
    struct guest_layout lay;
    const struct run_config *cfg;
    virDomainPtr dom;
    enum guest_phase phase;
    bool made_disks;
    bool restored;               /* restored from a saved ready guest (readystate.h), not booted */
    double t_restore;            /* seconds its restore took (copy, restore, disks plugged) */
    double t_start;              /* domain started (monotonic seconds) */
    double t_agent, t_setup, t_ready; /* seconds after t_start */
    double md_resync_s;          /* the md array's initial resync, as vbed-setup timed it; -1: none */
    double t_answer;             /* the guest agent's last answer (monotonic seconds) */
    char version[64];            /* MariaDB's, once ready */
    char error[1280];            /* why it failed */
    volatile int *abort_all;     /* set when another guest of the run failed */
    struct progress *progress;
    size_t progress_line;
};

const char *guest_phase_name(enum guest_phase ph);

/* vbed-setup's /run/vbed/status in the guest (len bytes, the guest root's
 * words): its first line says ready, failed (and why) or the step it is at.
 * That line, at most a quarter of GUEST_STATUS_SHOWN bytes of it, made safe
 * for a terminal (log_sanitize), into shown. */
enum guest_status { GUEST_STATUS_STEP, GUEST_STATUS_READY, GUEST_STATUS_FAILED };
#define GUEST_STATUS_SHOWN 512
enum guest_status guest_status_parse(const char *text, size_t len, char *shown, size_t shown_len);

/* Volumes of g in st: overlay on base_path, data disk, configuration disk
 * holding config (a tar archive). */
int guest_make_disks(struct guest *g, struct storage *st, const char *base_path, const void *config,
                     size_t config_len);
/* Start the domain from xml; records t_start. */
int guest_start(struct guest *g, struct hv *hv, const char *xml);
/* Instead of guest_make_disks + guest_start: restore g from the saved ready
 * guest rs -- its root volume a copy of the saved one, its data and
 * configuration disks made as guest_make_disks does and plugged in after the
 * restore (spec: the run's domain, plugged_later is set here);
 * vbed-setup then goes on as in a booted guest, and guest_wait_ready sets
 * its clock once its agent answers. 0, or -1 with g->error set. */
int guest_restore(struct guest *g, struct hv *hv, struct storage *st, const struct ready_state *rs,
                  struct domain_spec *spec, const void *config, size_t config_len);
/* The archive tar_path (a file on this machine) as a read-only disk of the
 * running domain dom (DOMAIN_SERIAL_TABLES): uploaded into st as
 * lay->tables_vol and plugged in. It stays plugged in until the domain goes;
 * guest_teardown deletes the volume. 0, or -1 reported (the volume deleted). */
int guest_plug_tables(virDomainPtr dom, struct storage *st, const struct guest_layout *lay,
                      const char *tar_path);
/* Wait through boot, setup and db; 0 when ready, -1 with g->error set. */
int guest_wait_ready(struct guest *g);
/* Destroy the domain; save its console log to dir (if not NULL); delete its
 * volumes unless keep. */
void guest_teardown(struct guest *g, struct storage *st, const char *dir, bool keep);

#endif
