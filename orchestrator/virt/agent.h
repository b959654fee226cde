/* agent.h: run programs in a guest and read its files through the QEMU
 * guest agent (virDomainQemuAgentCommand, libvirt-qemu).
 *
 * Programs are given as argv arrays and run without a shell: no scenario
 * value is ever pasted into a command line. JSON goes through json-c. */
#ifndef VBED_AGENT_H
#define VBED_AGENT_H

#include <libvirt/libvirt.h>
#include <stdbool.h>
#include <stddef.h>

struct agent_result {
    int exitcode;     /* -1 if killed by a signal */
    int signal;       /* the signal, or 0 */
    char *out;        /* stdout, NUL-terminated */
    size_t out_len;
    char *err;        /* stderr, NUL-terminated */
    size_t err_len;
};

void agent_result_free(struct agent_result *r);

/* 0 if the agent answers within timeout seconds, -1 if not (not reported:
 * early in boot that is the normal answer). */
int agent_ping(virDomainPtr dom, int timeout);

/* Start argv[0] with argv[1..] and env ("NAME=value") in the guest; its
 * output is captured. *pid receives the guest pid. -1 reported. */
int agent_exec_start(virDomainPtr dom, const char *const argv[], const char *const env[],
                     long long *pid);
/* One look at a started program: *exited, and the result once it has. */
int agent_exec_poll(virDomainPtr dom, long long pid, bool *exited, struct agent_result *res);
/* Wait for it: first look after first_ms, then every poll_ms; -1 reported on
 * timeout (seconds) or when vbed is interrupted. */
int agent_exec_wait(virDomainPtr dom, long long pid, long timeout, long first_ms, long poll_ms,
                    struct agent_result *res);
/* The same, and look(arg) (may be NULL) every second until the first look
 * at the program, then at every look at it: a non-zero answer ends the
 * wait with -1 (the caller reports why). */
int agent_exec_wait_watched(virDomainPtr dom, long long pid, long timeout, long first_ms,
                            long poll_ms, struct agent_result *res, int (*look)(void *arg),
                            void *arg);
/* start + wait */
int agent_exec(virDomainPtr dom, const char *const argv[], const char *const env[], long timeout,
               struct agent_result *res);

/* data[0..len) written to path in the guest (created or truncated, as the
 * agent's user: root), 1 MiB per guest-file-write; -1 reported. */
int agent_write_file(virDomainPtr dom, const char *path, const char *data, size_t len);

/* The whole file at path (at most max bytes); -1 reported, or quietly
 * when quiet is set (the file may not exist yet). */
int agent_read_file(virDomainPtr dom, const char *path, size_t max, char **data, size_t *len,
                    bool quiet);

/* Decoding of the agent's replies, apart from libvirt (unit tests and fuzz
 * targets call them). reply is the JSON text virDomainQemuAgentCommand
 * returned; a reply that is not what the agent sends gives -1, not reported
 * (the caller knows which guest sent it). */

/* guest-exec-status: *exited, and once it has, res filled (out, err decoded). */
int agent_decode_exec_status(const char *reply, bool *exited, struct agent_result *res);
/* guest-file-read: the chunk decoded into *data (malloc'd, NUL-terminated). */
int agent_decode_file_read(const char *reply, char **data, size_t *len, bool *eof);
/* guest-file-write: the bytes it wrote (0..INT_MAX) into *count. */
int agent_decode_file_write(const char *reply, size_t *count);
/* n bytes of base64 (OpenSSL's EVP decoder, padding checked) into *out
 * (malloc'd, NUL-terminated, at most n / 4 * 3 bytes); -1 if invalid. */
int agent_base64_decode(const char *in, size_t n, char **out, size_t *out_len);

#endif
