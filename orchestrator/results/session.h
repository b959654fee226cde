/* session.h: a vbed run's session, as other vbed processes see it.
 *
 * Every `vbed run` has a session id (in its domain and volume names,
 * vbed-<id>-...) and a record <session dir>/<id> (JSON: pid, the process's
 * start time, boot id, machine id). The record outlives the run: `vbed
 * clean` removes only what THIS machine's sessions created (a name whose
 * session this machine recorded, or a domain whose metadata names this
 * machine), never another machine's things on a shared libvirt, and forgets
 * a dead session's record once it has removed its leftovers.
 *
 * The session dir is $VBED_SESSION_DIR, else /var/lib/vbed/sessions (kept
 * across reboots: a reboot kills the session but not its pool volumes). */
#ifndef VBED_SESSION_H
#define VBED_SESSION_H

#include <stdbool.h>
#include <stddef.h>

#define SESSION_ID_MAX 13
/* "vbed-probe-<machine tag>-<pid>": the KVM probe domain (and its console
 * volume), tagged with this machine so that another machine's probe on a
 * shared libvirt is not taken for ours. */
#define SESSION_PROBE_PREFIX "vbed-probe-"
#define SESSION_MACHINE_TAG_LEN 8

enum session_state {
    SESSION_NONE,    /* no record here: another machine's, or from before records */
    SESSION_FOREIGN, /* a record, written by another machine */
    SESSION_DEAD,    /* this machine's, and its vbed no longer runs */
    SESSION_ALIVE,   /* this machine's, and its vbed still runs */
    SESSION_UNKNOWN, /* a record that cannot be read or judged: treated as alive */
};

const char *session_dir(void);
/* This machine's id: /etc/machine-id (else /var/lib/dbus/machine-id, else
 * "host-<hostname>"). */
const char *session_machine(void);
/* Its first SESSION_MACHINE_TAG_LEN characters (names of probe domains). */
const char *session_machine_tag(void);

/* A session id a user may give (vbed run --id, vbed clean --session): 1 to
 * 12 lower-case letters or digits -- it sits between dashes in names. */
bool session_id_ok(const char *id);
/* requested (session_id_ok, checked by the caller) or a fresh random id; writes the
 * record. -1 reported. */
int session_begin(const char *requested, char id[SESSION_ID_MAX]);
/* The run is over: the record is marked ended (not removed: what the run
 * kept, --keep or a failed teardown, stays recognisable as ours). */
void session_end(const char *id);
enum session_state session_state(const char *id);
/* SESSION_ALIVE or SESSION_UNKNOWN. */
bool session_alive(const char *id);
/* True if a session of this machine is alive or cannot be judged. */
bool session_any_alive(void);
/* Remove the records of this machine's dead sessions (vbed clean, after it
 * removed their leftovers). Returns how many. */
int session_forget_dead(void);
/* The same for one session id only: 1 if its record went. */
int session_forget_if_dead(const char *id);
/* The session id inside a name "vbed-<id>-..." into id; -1 if none. */
int session_of_name(const char *name, char id[SESSION_ID_MAX]);
/* "vbed-probe-<tag>-<pid>[-...]": 0 with tag (SESSION_MACHINE_TAG_LEN + 1
 * bytes) and pid filled, -1 if name is not a probe's. */
int session_probe_of_name(const char *name, char *tag, int *pid);
/* The probe domain's name for this process into buf. */
void session_probe_name(char *buf, size_t len);

#endif
