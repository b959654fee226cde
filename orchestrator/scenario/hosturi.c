/* hosturi.c: libvirt URIs as hosts (see hosturi.h). */
#include "scenario/hosturi.h"

#include "util/xalloc.h"

#include <libxml/uri.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *host_transport_name(enum host_transport t)
{
    return t == HT_LOCAL ? "local" : t == HT_SSH ? "ssh" : "none";
}

static bool printable(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x21 || (unsigned char)*s == 0x7f)
            return false;
    return true;
}

/* One query parameter of libvirt's ("keyfile=/k&no_verify=1"). */
static int query_param(struct host_uri *u, const char *name, const char *value, char *err, size_t errlen)
{
    if (strcmp(name, "keyfile") == 0) {
        if (snprintf(u->keyfile, sizeof(u->keyfile), "%s", value) >= (int)sizeof(u->keyfile) || !*value) {
            snprintf(err, errlen, "keyfile '%s' is empty or too long", value);
            return -1;
        }
    } else if (strcmp(name, "known_hosts") == 0) {
        if (snprintf(u->known_hosts, sizeof(u->known_hosts), "%s", value) >= (int)sizeof(u->known_hosts) ||
            !*value) {
            snprintf(err, errlen, "known_hosts '%s' is empty or too long", value);
            return -1;
        }
    } else if (strcmp(name, "no_verify") == 0) {
        if (strcmp(value, "0") != 0 && strcmp(value, "1") != 0) {
            snprintf(err, errlen, "no_verify must be 0 or 1, not '%s'", value);
            return -1;
        }
        u->no_verify = value[0] == '1';
    }
    /* other parameters (socket, mode, ...) are libvirt's business */
    return 0;
}

static int parse_query(struct host_uri *u, const char *query, char *err, size_t errlen)
{
    char *copy = xstrdup(query), *save = NULL;
    int rc = 0;
    for (char *p = strtok_r(copy, "&", &save); p && rc == 0; p = strtok_r(NULL, "&", &save)) {
        char *eq = strchr(p, '=');
        const char *raw = eq ? eq + 1 : "";
        if (eq)
            *eq = '\0';
        char *value = xmlURIUnescapeString(raw, 0, NULL);
        if (!value) {
            snprintf(err, errlen, "cannot decode the value of '%s'", p);
            rc = -1;
            break;
        }
        rc = query_param(u, p, value, err, errlen);
        free(value);
    }
    free(copy);
    return rc;
}

int host_uri_parse(const char *text, struct host_uri *u, char *err, size_t errlen)
{
    memset(u, 0, sizeof(*u));
    if (strlen(text) >= sizeof(u->uri) || !printable(text) || !*text) {
        snprintf(err, errlen, "'%.80s' is not a libvirt URI (empty, too long, or with spaces or "
                 "control characters)", text);
        return -1;
    }
    snprintf(u->uri, sizeof(u->uri), "%s", text);
    xmlURIPtr x = xmlParseURI(text);
    if (!x || !x->scheme || !strchr(text, ':') || strncmp(text + strlen(x->scheme), "://", 3) != 0) {
        snprintf(err, errlen, "'%s' is not a libvirt URI (driver[+transport]://[user@][host][:port]/path)",
                 text);
        xmlFreeURI(x);
        return -1;
    }
    int rc = -1;
    const char *scheme = x->scheme;
    const char *plus = strchr(scheme, '+');
    const char *transport = plus ? plus + 1 : "";
    bool has_server = x->server && x->server[0];
    if (x->user)
        snprintf(u->user, sizeof(u->user), "%s", x->user);
    if (has_server)
        snprintf(u->server, sizeof(u->server), "%s", x->server);
    u->port = x->port > 0 ? x->port : 0;
    if (strcmp(transport, "ssh") == 0 || strcmp(transport, "libssh") == 0 ||
        strcmp(transport, "libssh2") == 0) {
        if (!has_server) {
            snprintf(err, errlen, "'%s' names no host to reach over ssh", text);
            goto cleanup;
        }
        if (u->server[0] == '-' || u->user[0] == '-') {
            snprintf(err, errlen, "'%s': a host or user name may not start with '-'", text);
            goto cleanup;
        }
        u->transport = HT_SSH;
    } else if (strcmp(transport, "unix") == 0 || (!*transport && !has_server)) {
        u->transport = HT_LOCAL;
    } else if (strcmp(transport, "tcp") == 0 || strcmp(transport, "tls") == 0 || !*transport ||
               strcmp(transport, "ext") == 0) {
        u->transport = HT_NONE;
    } else {
        snprintf(err, errlen, "'%s': unknown transport '%s' (unix, ssh, libssh, libssh2, tcp, tls, ext)",
                 text, transport);
        goto cleanup;
    }
    if (x->query_raw && parse_query(u, x->query_raw, err, errlen) < 0)
        goto cleanup;
    if (x->query && !x->query_raw && parse_query(u, x->query, err, errlen) < 0)
        goto cleanup;
    /* the label: the URI without its query (no key file paths in results) */
    snprintf(u->label, sizeof(u->label), "%s", text);
    u->label[strcspn(u->label, "?")] = '\0';
    rc = 0;
cleanup:
    xmlFreeURI(x);
    return rc;
}

static void push(char ***argv, size_t *n, const char *s)
{
    *argv = xrealloc(*argv, (*n + 2) * sizeof(char *));
    (*argv)[(*n)++] = xstrdup(s);
    (*argv)[*n] = NULL;
}

char **host_uri_ssh_argv(const struct host_uri *u, const char *remote_cmd)
{
    char **argv = NULL;
    size_t n = 0;
    char port[16];
    push(&argv, &n, "ssh");
    push(&argv, &n, "-T");
    push(&argv, &n, "-e");
    push(&argv, &n, "none");
    push(&argv, &n, "-o");
    push(&argv, &n, "BatchMode=yes");
    if (u->port > 0) {
        snprintf(port, sizeof(port), "%d", u->port);
        push(&argv, &n, "-p");
        push(&argv, &n, port);
    }
    if (u->user[0]) {
        push(&argv, &n, "-l");
        push(&argv, &n, u->user);
    }
    if (u->keyfile[0]) {
        push(&argv, &n, "-i");
        push(&argv, &n, u->keyfile);
    }
    if (u->no_verify) {
        push(&argv, &n, "-o");
        push(&argv, &n, "StrictHostKeyChecking=no");
    }
    if (u->known_hosts[0]) {
        char opt[PATH_MAX + 32];
        snprintf(opt, sizeof(opt), "UserKnownHostsFile=%s", u->known_hosts);
        push(&argv, &n, "-o");
        push(&argv, &n, opt);
    }
    push(&argv, &n, "--");
    push(&argv, &n, u->server);
    push(&argv, &n, remote_cmd);
    return argv;
}

void host_uri_free_argv(char **argv)
{
    for (size_t i = 0; argv && argv[i]; i++)
        free(argv[i]);
    free(argv);
}
