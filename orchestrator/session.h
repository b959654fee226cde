/* session.h: a running vbed, as other vbed processes see it.
 *
 * Every `vbed run` has a session id (in its domain and volume names) and a
 * pid file /run/vbed/sessions/<id>. `vbed clean` leaves the leftovers of
 * live sessions alone and removes those of dead ones. */
#ifndef VBED_SESSION_H
#define VBED_SESSION_H

#include <stdbool.h>
#include <stddef.h>

#define SESSION_ID_MAX 13

/* requested (validated by the caller) or a fresh random id; writes the pid
 * file. -1 reported. */
int session_begin(const char *requested, char id[SESSION_ID_MAX]);
void session_end(const char *id);
/* True if the session's vbed is still running. */
bool session_alive(const char *id);
/* The session id inside a name "vbed-<id>-..." into id; -1 if none. */
int session_of_name(const char *name, char id[SESSION_ID_MAX]);

#endif
