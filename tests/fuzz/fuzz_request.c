/* fuzz_request.c: a host arm request's arguments (`vbed host arm-...`, sent
 * by a vbed on another machine over ssh) through host_request_parse: the
 * input is argv, its words separated by NUL bytes. An accepted request
 * has a directory, numbers within their ranges, --env names of capitals,
 * digits and '_' (only for arm-exec), and as many arguments after the
 * directory as its kind takes (arm-file: mysqld.err or install-db.log). */
#include "fuzz.h"
#include "cli/host_request.h"

FUZZ_INITIALIZE_QUIET

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        abort();
    memcpy(text, data, size);
    text[size] = '\0';
    char *argv[64];
    int argc = 0;
    for (char *p = text; argc < 63 && p <= text + size; p += strlen(p) + 1)
        argv[argc++] = p;
    argv[argc] = NULL;
    struct host_request rq;
    char why[256];
    if (host_request_parse(argc, argv, &rq, why, sizeof(why)) == 0) {
        if (!rq.dir || rq.n_rest < 0 || rq.n_rest >= argc)
            abort();
        if (rq.timeout_db < 1 || rq.timeout_db > 86400)
            abort();
        if (rq.confine && (rq.vcpus < 1 || rq.vcpus > 4096 || rq.memory < (1 << 20)))
            abort();
        if (rq.kind == HR_START && (!rq.mycnf || !rq.lua))
            abort();
        if (rq.n_env && rq.kind != HR_EXEC)
            abort();
        for (size_t i = 0; i < rq.n_env; i++) {
            const char *e = rq.env[i], *eq = strchr(e, '=');
            if (!eq || eq == e || strspn(e, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") != (size_t)(eq - e) ||
                (*e >= '0' && *e <= '9'))
                abort();
        }
        if (rq.kind == HR_FILE && (rq.n_rest != 1 || (strcmp(rq.rest[0], "mysqld.err") &&
                                                      strcmp(rq.rest[0], "install-db.log"))))
            abort();
        if ((rq.kind == HR_SQL || rq.kind == HR_EXEC) && rq.n_rest < 1)
            abort();
        host_request_free(&rq);
    } else if (!*why) {
        abort();
    }
    free(text);
    return 0;
}
