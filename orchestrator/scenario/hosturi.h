/* hosturi.h: a libvirt URI read as a hypervisor host: the label results
 * name it by, and the transport that reaches its shell for the host-side
 * work libvirt does not offer (hostside.h).
 *
 *   qemu:///system, qemu+unix:///system, test:///default   this machine
 *   qemu+ssh://[user@]host[:port]/system?keyfile=..&no_verify=1&known_hosts=..
 *                                                        ssh, as libvirt uses it
 *   qemu+tcp://, qemu+tls://, qemu://host/...            no shell: host-side
 *                                                        figures unavailable
 *
 * Parsing is libxml2's URI parser (libvirt's own); the text is input
 * (scenario files): anything it cannot read is refused with a reason. */
#ifndef VBED_HOSTURI_H
#define VBED_HOSTURI_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

enum host_transport { HT_LOCAL, HT_SSH, HT_NONE };

#define HOST_URI_MAX 512

struct host_uri {
    char uri[HOST_URI_MAX];    /* as given */
    char label[HOST_URI_MAX];  /* without the query: "qemu+ssh://root@10.0.0.2:2222/system" */
    enum host_transport transport;
    char user[64];
    char server[256];
    int port;                  /* 0: ssh's default */
    char keyfile[PATH_MAX];
    char known_hosts[PATH_MAX];
    bool no_verify;
};

/* 0, or -1 with a sentence fragment in err ("'x' is not a libvirt URI: ..."). */
int host_uri_parse(const char *text, struct host_uri *u, char *err, size_t errlen);

/* The ssh argv (NULL-terminated, malloc'd array of malloc'd strings) that
 * runs remote_cmd -- ONE string for the remote shell, quoted by shquote.h --
 * on u's host: port, user, keyfile, and host-key checking as libvirt's ssh
 * transport does (no_verify=1: StrictHostKeyChecking=no; known_hosts=PATH:
 * that file). Never asks for a password (BatchMode). */
char **host_uri_ssh_argv(const struct host_uri *u, const char *remote_cmd);
void host_uri_free_argv(char **argv);

const char *host_transport_name(enum host_transport t);

#endif
