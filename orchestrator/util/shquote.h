/* shquote.h: an argv as one string for a POSIX shell.
 *
 * ssh hands its command to the remote user's shell as one string, so every
 * argument vbed sends to another host goes through this one function: each
 * argument in single quotes, a single quote as '\'' -- nothing inside single
 * quotes is special to sh (no $, `, \, newline or glob expansion). */
#ifndef VBED_SHQUOTE_H
#define VBED_SHQUOTE_H

/* One argument, quoted (malloc'd). "" becomes ''. */
char *shquote_arg(const char *arg);
/* argv[0..] up to NULL, each quoted, joined by single spaces (malloc'd). */
char *shquote_argv(const char *const argv[]);

#endif
