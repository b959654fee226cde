/* exitcode.h: vbed's exit codes, documented in README.md and `vbed help`
 * (cli_docs.c's table). */
#ifndef VBED_EXITCODE_H
#define VBED_EXITCODE_H

enum vbed_exit {
    EXIT_OK = 0,          /* everything asked for was done */
    EXIT_FAILED = 1,      /* a run, a build or a check failed (results so far are kept) */
    EXIT_USAGE = 2,       /* bad command line or bad scenario; nothing was started */
    EXIT_ENV = 3,         /* the host lacks something: libvirt, an image, a package, permission */
    EXIT_SIGHUP = 129,    /* its terminal was closed; everything started was cleaned up */
    EXIT_SIGINT = 130,    /* interrupted by SIGINT; everything started was cleaned up */
    EXIT_SIGTERM = 143,   /* terminated by SIGTERM; everything started was cleaned up */
};

#endif
