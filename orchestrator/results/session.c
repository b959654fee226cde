/* session.c: session ids and records (see session.h). */
#include "results/session.h"

#include "util/log.h"
#include "util/paths.h"
#include "util/process.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <json-c/json.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

const char *session_dir(void)
{
    const char *d = getenv("VBED_SESSION_DIR");
    return d && d[0] ? d : "/var/lib/vbed/sessions";
}

static void first_line(const char *path, char *buf, size_t len)
{
    buf[0] = '\0';
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    if (!fgets(buf, (int)len, f))
        buf[0] = '\0';
    fclose(f);
    buf[strcspn(buf, "\n")] = '\0';
}

const char *session_machine(void)
{
    static char id[300];
    if (id[0])
        return id;
    first_line("/etc/machine-id", id, sizeof(id));
    if (!id[0])
        first_line("/var/lib/dbus/machine-id", id, sizeof(id));
    if (!id[0]) {
        char host[256] = "unknown";
        gethostname(host, sizeof(host) - 1);
        snprintf(id, sizeof(id), "host-%s", host);
    }
    return id;
}

const char *session_machine_tag(void)
{
    static char tag[SESSION_MACHINE_TAG_LEN + 1];
    if (tag[0])
        return tag;
    /* letters and digits only: the tag sits between dashes in a name */
    size_t n = 0;
    for (const char *m = session_machine(); *m && n < SESSION_MACHINE_TAG_LEN; m++)
        if (isalnum((unsigned char)*m))
            tag[n++] = (char)tolower((unsigned char)*m);
    while (n < SESSION_MACHINE_TAG_LEN)
        tag[n++] = '0';
    return tag;
}

static void boot_id(char *buf, size_t len)
{
    first_line("/proc/sys/kernel/random/boot_id", buf, len);
}

static void record_path(const char *id, char *buf, size_t len)
{
    path_join(buf, len, session_dir(), id);
}

/* Write the record of id: this process, or (ended) no process. */
static int write_record(const char *id, bool ended)
{
    char path[PATH_MAX], tmp[PATH_MAX + 16], boot[64];
    record_path(id, path, sizeof(path));
    snprintf(tmp, sizeof(tmp), "%s.%d.tmp", path, (int)getpid());
    boot_id(boot, sizeof(boot));
    json_object *r = json_object_new_object();
    json_object_object_add(r, "session", json_object_new_string(id));
    json_object_object_add(r, "machine", json_object_new_string(session_machine()));
    json_object_object_add(r, "boot_id", json_object_new_string(boot));
    json_object_object_add(r, "pid", json_object_new_int(getpid()));
    json_object_object_add(r, "start_time", json_object_new_int64(process_start_time(getpid())));
    json_object_object_add(r, "ended", json_object_new_boolean(ended));
    int rc = json_object_to_file_ext(tmp, r, JSON_C_TO_STRING_PRETTY);
    json_object_put(r);
    if (rc < 0 || rename(tmp, path) < 0) {
        log_error("Cannot write the session record '%s': %s", path, strerror(errno));
        unlink(tmp);
        return -1;
    }
    return 0;
}

bool session_id_ok(const char *id)
{
    size_t n = strspn(id, "abcdefghijklmnopqrstuvwxyz0123456789");
    return n >= 1 && n < SESSION_ID_MAX && id[n] == '\0';
}

int session_begin(const char *requested, char id[SESSION_ID_MAX])
{
    if (requested) {
        snprintf(id, SESSION_ID_MAX, "%s", requested);
        if (session_alive(id)) {
            log_error("Session '%s' is in use by a running vbed (record '%s/%s').", id,
                      session_dir(), id);
            return -1;
        }
    } else {
        static const char digits[] = "abcdefghijklmnopqrstuvwxyz0123456789";
        unsigned char rnd[6];
        if (getrandom(rnd, sizeof(rnd), 0) != (ssize_t)sizeof(rnd)) {
            log_error("Cannot make a session id: %s", strerror(errno));
            return -1;
        }
        for (size_t i = 0; i < sizeof(rnd); i++)
            id[i] = digits[rnd[i] % (sizeof(digits) - 1)];
        id[sizeof(rnd)] = '\0';
    }
    if (paths_mkdirs(session_dir(), 0755) < 0)
        return -1;
    return write_record(id, false);
}

void session_end(const char *id)
{
    write_record(id, true);
}

static const char *str_of(json_object *o, const char *key)
{
    json_object *v;
    return json_object_object_get_ex(o, key, &v) && json_object_is_type(v, json_type_string)
               ? json_object_get_string(v)
               : NULL;
}

static bool int_of(json_object *o, const char *key, long long *out)
{
    json_object *v;
    if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_int))
        return false;
    *out = json_object_get_int64(v);
    return true;
}

enum session_state session_state(const char *id)
{
    char path[PATH_MAX], boot[64];
    record_path(id, path, sizeof(path));
    if (access(path, F_OK) != 0)
        return errno == ENOENT ? SESSION_NONE : SESSION_UNKNOWN;
    json_object *r = json_object_from_file(path), *v;
    const char *machine = r ? str_of(r, "machine") : NULL;
    const char *rec_boot = r ? str_of(r, "boot_id") : NULL;
    long long pid, start;
    enum session_state st = SESSION_UNKNOWN;
    boot_id(boot, sizeof(boot));
    if (!machine || !rec_boot || !int_of(r, "pid", &pid) || !int_of(r, "start_time", &start) ||
        !json_object_object_get_ex(r, "ended", &v))
        st = SESSION_UNKNOWN;
    else if (strcmp(machine, session_machine()) != 0)
        st = SESSION_FOREIGN;
    else if (json_object_get_boolean(v) || strcmp(rec_boot, boot) != 0)
        st = SESSION_DEAD; /* ended, or its boot of this machine is over */
    else if (pid <= 0 || pid > INT_MAX)
        st = SESSION_UNKNOWN;
    else
        /* the same pid and start time within one boot: the same process */
        st = process_start_time((pid_t)pid) == start ? SESSION_ALIVE : SESSION_DEAD;
    json_object_put(r);
    return st;
}

bool session_alive(const char *id)
{
    enum session_state st = session_state(id);
    return st == SESSION_ALIVE || st == SESSION_UNKNOWN;
}

/* Call fn on the id of every record in the session dir. */
static int each_record(int (*fn)(const char *id, void *arg), void *arg)
{
    DIR *d = opendir(session_dir());
    if (!d)
        return 0;
    int n = 0;
    struct dirent *de;
    while ((de = readdir(d)))
        if (de->d_name[0] != '.' && strlen(de->d_name) < SESSION_ID_MAX && !strchr(de->d_name, '.'))
            n += fn(de->d_name, arg);
    closedir(d);
    return n;
}

static int count_alive(const char *id, void *arg)
{
    (void)arg;
    return session_alive(id);
}

bool session_any_alive(void)
{
    return each_record(count_alive, NULL) > 0;
}

static int forget_dead(const char *id, void *arg)
{
    (void)arg;
    if (session_state(id) != SESSION_DEAD)
        return 0;
    char path[PATH_MAX];
    record_path(id, path, sizeof(path));
    return unlink(path) == 0;
}

int session_forget_dead(void)
{
    return each_record(forget_dead, NULL);
}

int session_forget_if_dead(const char *id)
{
    return forget_dead(id, NULL);
}

int session_of_name(const char *name, char id[SESSION_ID_MAX])
{
    if (strncmp(name, "vbed-", 5) != 0 || strncmp(name, SESSION_PROBE_PREFIX, 11) == 0)
        return -1;
    const char *start = name + 5;
    size_t n = strcspn(start, "-");
    if (n == 0 || n >= SESSION_ID_MAX || start[n] != '-')
        return -1;
    memcpy(id, start, n);
    id[n] = '\0';
    return 0;
}

int session_probe_of_name(const char *name, char *tag, int *pid)
{
    const size_t plen = strlen(SESSION_PROBE_PREFIX);
    if (strncmp(name, SESSION_PROBE_PREFIX, plen) != 0)
        return -1;
    const char *t = name + plen;
    size_t n = strcspn(t, "-");
    if (n != SESSION_MACHINE_TAG_LEN || t[n] != '-')
        return -1;
    char *end;
    long p = strtol(t + n + 1, &end, 10);
    if (end == t + n + 1 || p <= 0 || p > INT_MAX || (*end != '\0' && *end != '-'))
        return -1;
    memcpy(tag, t, n);
    tag[n] = '\0';
    *pid = (int)p;
    return 0;
}

void session_probe_name(char *buf, size_t len)
{
    snprintf(buf, len, "%s%s-%d", SESSION_PROBE_PREFIX, session_machine_tag(), (int)getpid());
}
