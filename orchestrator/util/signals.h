/* signals.h: SIGINT, SIGTERM and SIGHUP become a flag that every wait loop
 * checks.
 *
 * vbed never exits from a signal handler: the runner notices the flag,
 * stops what it is doing and cleans up (domains, disks, mariadbd, cgroups),
 * then exits 130, 143 or 129 (SIGHUP: its terminal was closed). A second
 * signal does not skip the cleanup; the first one's code is kept. */
#ifndef VBED_SIGNALS_H
#define VBED_SIGNALS_H

#include <stdbool.h>

void signals_install(void);
bool signals_interrupted(void);
/* 130 after SIGINT, 143 after SIGTERM, 129 after SIGHUP, 0 if none arrived */
int signals_exit_code(void);
/* Name of the first signal, "SIGINT", "SIGTERM" or "SIGHUP" ("" if none). */
const char *signals_name(void);
/* Sleep up to ms milliseconds; returns early (true) when interrupted. */
bool signals_sleep_ms(long ms);

#endif
