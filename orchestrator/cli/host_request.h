/* host_request.h: the arguments of a host arm request to the helper
 * (`vbed host arm-... [options] -- DIR [args]`), read and checked apart
 * from acting on them: they come from a vbed on another machine, over
 * ssh, and are outside input (tests/fuzz/fuzz_request.c). What the
 * requests do: cmd_host_arm.c. */
#ifndef VBED_CLI_HOST_REQUEST_H
#define VBED_CLI_HOST_REQUEST_H

#include <stdbool.h>
#include <stddef.h>

enum host_request_kind {
    HR_START,
    HR_SQL,
    HR_EXEC,
    HR_STATUS,
    HR_FILE,
    HR_ARCHIVE,
    HR_STOP,
    HR_LIST,
};

struct host_request {
    enum host_request_kind kind;
    /* arm-start */
    long long timeout_db; /* --timeout: 1..86400 s (default 120) */
    const char *mycnf, *lua;
    bool confine;
    long long vcpus, memory; /* --confine: 1..4096, 1 MiB..1 PiB */
    /* arm-exec: --env NAME=VALUE, NAME of [A-Z_][A-Z0-9_]* */
    const char **env; /* NULL-terminated (malloc'd array; the strings are argv's) */
    size_t n_env;
    const char *dir;  /* after "--" */
    char **rest;      /* after DIR: statements, the program and its arguments, the file */
    int n_rest;       /* arm-sql and arm-exec at least 1, arm-file exactly 1 (mysqld.err
                         or install-db.log), the others 0 */
};

/* argv[0] the request ("arm-sql" ...), then its options, "--", DIR and the
 * rest; into rq (free with host_request_free). 0, or -1 with why (a
 * sentence fragment naming the argument) and rq freed. */
int host_request_parse(int argc, char **argv, struct host_request *rq, char *why, size_t len);
void host_request_free(struct host_request *rq);

#endif
