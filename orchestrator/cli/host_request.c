/* host_request.c: a host arm request's arguments, read and checked (see
 * host_request.h). */
#include "cli/host_request.h"

#include "util/xalloc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
    const char *name;
    enum host_request_kind kind;
} kinds[] = {
    {"arm-start", HR_START},   {"arm-sql", HR_SQL},         {"arm-exec", HR_EXEC},
    {"arm-status", HR_STATUS}, {"arm-file", HR_FILE},       {"arm-archive", HR_ARCHIVE},
    {"arm-stop", HR_STOP},     {"arm-list", HR_LIST},
};

static bool valid_env(const char *e)
{
    const char *eq = strchr(e, '=');
    if (!eq || eq == e)
        return false;
    for (const char *p = e; p < eq; p++)
        if (!(*p == '_' || (*p >= 'A' && *p <= 'Z') || (p > e && *p >= '0' && *p <= '9')))
            return false;
    return true;
}

static long long number(const char *s, long long min, long long max)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    return errno || end == s || *end || v < min || v > max ? -1 : v;
}

/* -1 with why, rq freed */
static int refuse(struct host_request *rq, char *why, size_t len, const char *fmt, const char *arg)
{
    snprintf(why, len, fmt, arg);
    host_request_free(rq);
    return -1;
}

int host_request_parse(int argc, char **argv, struct host_request *rq, char *why, size_t len)
{
    memset(rq, 0, sizeof(*rq));
    rq->timeout_db = 120;
    if (argc < 1 || !argv[0])
        return refuse(rq, why, len, "no request%s", "");
    size_t k = 0;
    while (k < sizeof(kinds) / sizeof(*kinds) && strcmp(kinds[k].name, argv[0]) != 0)
        k++;
    if (k == sizeof(kinds) / sizeof(*kinds))
        return refuse(rq, why, len, "unknown request '%.64s'", argv[0]);
    rq->kind = kinds[k].kind;
    rq->env = xcalloc((size_t)argc + 1, sizeof(*rq->env));
    int i = 1;
    for (; i < argc && strcmp(argv[i], "--") != 0; i++) {
        const char *o = argv[i];
        bool start = rq->kind == HR_START;
        if (start && !strcmp(o, "--timeout") && i + 1 < argc)
            rq->timeout_db = number(argv[++i], 1, 86400);
        else if (start && !strcmp(o, "--mycnf") && i + 1 < argc)
            rq->mycnf = argv[++i];
        else if (start && !strcmp(o, "--lua") && i + 1 < argc)
            rq->lua = argv[++i];
        else if (start && !strcmp(o, "--confine") && i + 2 < argc) {
            rq->confine = true;
            rq->vcpus = number(argv[++i], 1, 4096);
            rq->memory = number(argv[++i], 1 << 20, 1LL << 50);
        } else if (rq->kind == HR_EXEC && !strcmp(o, "--env") && i + 1 < argc && valid_env(argv[i + 1]))
            rq->env[rq->n_env++] = argv[++i];
        else
            return refuse(rq, why, len, "unknown, incomplete or invalid option '%.64s'", o);
    }
    if (rq->timeout_db < 0 || (rq->confine && (rq->vcpus < 0 || rq->memory < 0)))
        return refuse(rq, why, len, "a number out of its range%s", "");
    if (rq->kind == HR_START && (!rq->mycnf || !rq->lua))
        return refuse(rq, why, len, "arm-start needs --mycnf and --lua%s", "");
    if (i + 1 >= argc)
        return refuse(rq, why, len, "needs -- DIR%s", "");
    rq->dir = argv[i + 1];
    rq->rest = argv + i + 2;
    rq->n_rest = argc - (i + 2);
    bool count_ok = rq->kind == HR_SQL || rq->kind == HR_EXEC ? rq->n_rest >= 1
                    : rq->kind == HR_FILE                     ? rq->n_rest == 1
                                                              : rq->n_rest == 0;
    if (!count_ok)
        return refuse(rq, why, len, "wrong number of arguments after DIR%s", "");
    if (rq->kind == HR_FILE && strcmp(rq->rest[0], "mysqld.err") != 0 &&
        strcmp(rq->rest[0], "install-db.log") != 0)
        return refuse(rq, why, len, "'%.64s' is not one of mysqld.err, install-db.log", rq->rest[0]);
    return 0;
}

void host_request_free(struct host_request *rq)
{
    free(rq->env);
    rq->env = NULL;
    rq->n_env = 0;
}
