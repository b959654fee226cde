/* sql.c: the query interface and its three transports (see sql.h). */
#include "targets/sql.h"
#include "util/xalloc.h"

#include "virt/agent.h"
#include "hostside/hostside.h"
#include "util/log.h"
#include "util/monotime.h"
#include "util/signals.h"

#include <errno.h>
#include <mysql.h>
#include <poll.h>
#include <sys/socket.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>
#include <strings.h>

struct sql {
    MYSQL *conn;        /* socket transport */
    bool broken;        /* its connection was given up (an answer never came) */
    virDomainPtr dom;   /* agent transport */
    struct hostside *hs; /* remote host arm transport: hs, arm */
    char arm[4096];
    char where[128];    /* for messages */
};

/* Append one row; the first row fixes the column count (a row with
 * another count is a transport bug and is dropped). */
static void append_row(struct sql_result *r, const char *const *cells, const size_t *lens,
                       size_t cols)
{
    if (r->rows == 0)
        r->cols = cols;
    if (cols != r->cols)
        return;
    char **grown = xrealloc(r->cells, (r->rows + 1) * cols * sizeof(char *));
    r->cells = grown;
    for (size_t c = 0; c < cols; c++) {
        char *copy = xcalloc(1, lens[c] + 1);
        memcpy(copy, cells[c], lens[c]);
        copy[lens[c]] = '\0';
        r->cells[r->rows * cols + c] = copy;
    }
    r->rows++;
}

void sql_result_free(struct sql_result *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->rows * r->cols; i++)
        free(r->cells[i]);
    free(r->cells);
    memset(r, 0, sizeof(*r));
}

/* ---- libmariadb ----
 *
 * The server at the socket is another user's process (the mysql user can
 * stop it with SIGSTOP, or something else may answer there): every wait
 * on it goes through libmariadb's non-blocking calls and poll(), a quarter
 * of a second at a time, so that SIGINT or SIGTERM ends it within a second
 * and a statement that outlasts SQL_STATEMENT_MAX_S is abandoned. An
 * abandoned connection is shut down and never used again. */

/* How long vbed waits for one statement's answer (an import of large
 * tables, the compression check's copy of a table: minutes at most). */
#define SQL_STATEMENT_MAX_S 1800
#define SQL_LOOK_MS 250

/* Wait for what libmariadb asks (status: MYSQL_WAIT_*) until deadline;
 * the events that happened, or -1 with why (interrupted, too late). */
static int wait_server(struct sql *s, int status, double deadline, const char **why)
{
    for (;;) {
        if (signals_interrupted()) {
            *why = "interrupted";
            return -1;
        }
        double left = deadline - monotime_s();
        if (left <= 0) {
            *why = "no answer in time";
            return -1;
        }
        int ms = left * 1000 < SQL_LOOK_MS ? (int)(left * 1000) + 1 : SQL_LOOK_MS;
        if (status & MYSQL_WAIT_TIMEOUT) {
            unsigned int lib = mysql_get_timeout_value_ms(s->conn);
            if (lib < (unsigned)ms)
                ms = (int)lib;
        }
        struct pollfd p = {.fd = mysql_get_socket(s->conn), .events = 0};
        if (status & MYSQL_WAIT_READ)
            p.events |= POLLIN;
        if (status & MYSQL_WAIT_WRITE)
            p.events |= POLLOUT;
        if (status & MYSQL_WAIT_EXCEPT)
            p.events |= POLLPRI;
        int n = poll(&p, 1, ms);
        if (n < 0 && errno != EINTR) {
            *why = strerror(errno);
            return -1;
        }
        if (n > 0) {
            int ev = 0;
            if (p.revents & (POLLIN | POLLERR | POLLHUP))
                ev |= MYSQL_WAIT_READ;
            if (p.revents & POLLOUT)
                ev |= MYSQL_WAIT_WRITE;
            if (p.revents & POLLPRI)
                ev |= MYSQL_WAIT_EXCEPT;
            return ev;
        }
        if (n == 0 && (status & MYSQL_WAIT_TIMEOUT) && mysql_get_timeout_value_ms(s->conn) <= (unsigned)ms)
            return MYSQL_WAIT_TIMEOUT;
    }
}

/* The connection given up: shut down so that nothing waits on it again. */
static void abandon(struct sql *s)
{
    if (!s->conn)
        return;
    int fd = mysql_get_socket(s->conn);
    if (fd >= 0)
        shutdown(fd, SHUT_RDWR);
    mysql_close(s->conn);
    s->conn = NULL;
    s->broken = true;
}

struct sql *sql_open_socket(const char *socket_path, long timeout)
{
    struct sql *s = xcalloc(1, sizeof(*s));
    snprintf(s->where, sizeof(s->where), "the server at %s", socket_path);
    double deadline = monotime_s() + (double)(timeout > 0 ? timeout : 1);
    const char *why = NULL;
    for (;;) {
        s->conn = mysql_init(NULL);
        unsigned int to = 30, no = 0;
        mysql_options(s->conn, MYSQL_OPT_CONNECT_TIMEOUT, &to);
        mysql_options(s->conn, MYSQL_OPT_NONBLOCK, 0);
        /* the socket is in the mysql user's directory: whoever answers
         * there may not ask this (root) process for its files */
        mysql_options(s->conn, MYSQL_OPT_LOCAL_INFILE, &no);
        MYSQL *ok = NULL;
        int status = mysql_real_connect_start(&ok, s->conn, NULL, "root", NULL, NULL, 0,
                                              socket_path, 0);
        while (status) {
            int ev = wait_server(s, status, deadline, &why);
            if (ev < 0)
                break;
            status = mysql_real_connect_cont(&ok, s->conn, ev);
        }
        if (!status && ok)
            return s;
        if (status) { /* abandoned half-way */
            log_error("Cannot connect to %s: %s.", s->where, why);
            abandon(s);
            sql_close(s);
            return NULL;
        }
        if (monotime_s() >= deadline || signals_interrupted()) {
            log_error("Cannot connect to %s: %s", s->where, mysql_error(s->conn));
            sql_close(s);
            return NULL;
        }
        mysql_close(s->conn);
        s->conn = NULL;
        signals_sleep_ms(1000);
    }
}

long long sql_peer_pid(const struct sql *s)
{
    if (!s || !s->conn)
        return -1;
    struct ucred cred;
    socklen_t len = sizeof(cred);
    int fd = mysql_get_socket(s->conn);
    return fd >= 0 && getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) == 0 ? (long long)cred.pid
                                                                                 : -1;
}

static int run_socket(struct sql *s, const char *const stmts[], struct sql_result *out)
{
    if (s->broken) {
        log_error("The connection to %s was given up earlier.", s->where);
        return -1;
    }
    for (size_t i = 0; stmts[i]; i++) {
        double deadline = monotime_s() + SQL_STATEMENT_MAX_S;
        const char *why = NULL;
        int err = 0;
        int status = mysql_real_query_start(&err, s->conn, stmts[i], strlen(stmts[i]));
        while (status) {
            int ev = wait_server(s, status, deadline, &why);
            if (ev < 0)
                break;
            status = mysql_real_query_cont(&err, s->conn, ev);
        }
        MYSQL_RES *res = NULL;
        if (!status && !err) {
            status = mysql_store_result_start(&res, s->conn);
            while (status) {
                int ev = wait_server(s, status, deadline, &why);
                if (ev < 0)
                    break;
                status = mysql_store_result_cont(&res, s->conn, ev);
            }
        }
        if (status) {
            log_error("Query on %s given up: '%s': %s (after %.0f s).", s->where, stmts[i], why,
                      SQL_STATEMENT_MAX_S - (deadline - monotime_s()));
            abandon(s);
            return -1;
        }
        if (err || (!res && mysql_errno(s->conn))) {
            log_error("Query on %s failed: '%s': %s", s->where, stmts[i], mysql_error(s->conn));
            if (res)
                mysql_free_result(res);
            return -1;
        }
        if (!res)
            continue;
        size_t cols = mysql_num_fields(res);
        const char **cells = xcalloc(cols ? cols : 1, sizeof(char *));
        size_t *lens = xcalloc(cols ? cols : 1, sizeof(size_t));
        MYSQL_ROW row;
        /* stored: the rows are here, no more waiting */
        while ((row = mysql_fetch_row(res))) {
            unsigned long *l = mysql_fetch_lengths(res);
            for (size_t c = 0; c < cols; c++) {
                cells[c] = row[c] ? row[c] : "NULL";
                lens[c] = row[c] ? l[c] : 4;
            }
            append_row(out, cells, lens, cols);
        }
        free(cells);
        free(lens);
        mysql_free_result(res);
    }
    return 0;
}

static int run_agent(struct sql *s, const char *const stmts[], struct sql_result *out);
static int run_remote(struct sql *s, const char *const stmts[], struct sql_result *out);

int sql_run(struct sql *s, const char *const stmts[], struct sql_result *out)
{
    memset(out, 0, sizeof(*out));
    int rc = s->conn || s->broken ? run_socket(s, stmts, out)
             : s->hs ? run_remote(s, stmts, out)
                     : run_agent(s, stmts, out);
    if (rc < 0)
        sql_result_free(out);
    return rc;
}

int sql_query(struct sql *s, const char *stmt, struct sql_result *out)
{
    const char *stmts[] = {stmt, NULL};
    return sql_run(s, stmts, out);
}

/* ---- the mariadb client through the guest agent ---- */

struct sql *sql_open_agent(virDomainPtr dom)
{
    struct sql *s = xcalloc(1, sizeof(*s));
    s->dom = dom;
    snprintf(s->where, sizeof(s->where), "MariaDB in guest '%s'", virDomainGetName(dom));
    return s;
}

char *sql_script(const char *const stmts[])
{
    size_t len = 1;
    for (size_t i = 0; stmts[i]; i++)
        len += strlen(stmts[i]) + 2;
    char *script = xcalloc(1, len);
    for (size_t i = 0; stmts[i]; i++) {
        strcat(script, stmts[i]);
        strcat(script, ";\n");
    }
    return script;
}

void sql_rows_from_batch(const char *text, size_t len, struct sql_result *out)
{
    const char *end = text + len;
    for (const char *line = text; line < end;) {
        const char *nl = memchr(line, '\n', (size_t)(end - line));
        size_t n = nl ? (size_t)(nl - line) : (size_t)(end - line);
        const char *cells[SQL_BATCH_MAX_COLS];
        size_t lens[SQL_BATCH_MAX_COLS], cols = 0;
        const char *cell = line;
        while (cols < SQL_BATCH_MAX_COLS) {
            const char *tab = memchr(cell, '\t', (size_t)(line + n - cell));
            cells[cols] = cell;
            lens[cols++] = tab ? (size_t)(tab - cell) : (size_t)(line + n - cell);
            if (!tab)
                break;
            cell = tab + 1;
        }
        if (out->rows >= SQL_REMOTE_MAX_ROWS)
            break;
        append_row(out, cells, lens, cols);
        if (!nl)
            break;
        line = nl + 1;
    }
}

static int run_agent(struct sql *s, const char *const stmts[], struct sql_result *out)
{
    char *script = sql_script(stmts);
    /* --batch: tab-separated, one row per line; no column names */
    const char *argv[] = {"/usr/bin/mariadb", "--batch", "--skip-column-names", "--raw",
                          "-e", script, NULL};
    struct agent_result r = {0};
    int rc = agent_exec(s->dom, argv, NULL, 600, &r);
    free(script);
    if (rc < 0)
        return -1;
    if (r.exitcode != 0) {
        log_error("Query on %s failed: %.*s", s->where, (int)strcspn(r.err, "\n"), r.err);
        agent_result_free(&r);
        return -1;
    }
    sql_rows_from_batch(r.out, r.out_len, out);
    agent_result_free(&r);
    return 0;
}

/* ---- a remote host arm's server through `vbed host arm-sql` ---- */

struct sql *sql_open_remote(struct hostside *hs, const char *arm_dir)
{
    struct sql *s = xcalloc(1, sizeof(*s));
    s->hs = hs;
    snprintf(s->arm, sizeof(s->arm), "%s", arm_dir);
    snprintf(s->where, sizeof(s->where), "the host arm's MariaDB on %.80s", hostside_uri(hs)->label);
    return s;
}

int sql_rows_from_reply(json_object *reply, struct sql_result *out)
{
    json_object *rows;
    memset(out, 0, sizeof(*out));
    if (!json_object_object_get_ex(reply, "rows", &rows) || !json_object_is_type(rows, json_type_array))
        return -1;
    size_t n = json_object_array_length(rows), total = 0;
    if (n > SQL_REMOTE_MAX_ROWS)
        return -1;
    for (size_t i = 0; i < n; i++) {
        json_object *row = json_object_array_get_idx(rows, i);
        if (!json_object_is_type(row, json_type_array))
            goto bad;
        size_t cols = json_object_array_length(row);
        if (cols == 0 || cols > 64 || (i > 0 && cols != out->cols))
            goto bad;
        const char *cells[64];
        size_t lens[64];
        for (size_t c = 0; c < cols; c++) {
            json_object *cell = json_object_array_get_idx(row, c);
            if (!json_object_is_type(cell, json_type_string))
                goto bad;
            cells[c] = json_object_get_string(cell);
            lens[c] = (size_t)json_object_get_string_len(cell);
            total += lens[c];
            if (strlen(cells[c]) != lens[c] || total > (16u << 20))
                goto bad;
        }
        append_row(out, cells, lens, cols);
    }
    return 0;
bad:
    sql_result_free(out);
    return -1;
}

static int run_remote(struct sql *s, const char *const stmts[], struct sql_result *out)
{
    size_t n = 0;
    while (stmts[n])
        n++;
    const char **args = xcalloc(n + 4, sizeof(*args));
    args[0] = "arm-sql";
    args[1] = "--";
    args[2] = s->arm;
    for (size_t i = 0; i < n; i++)
        args[i + 3] = stmts[i];
    json_object *r = hostside_call(s->hs, args, 600);
    free(args);
    if (!r) {
        log_error("Query on %s failed (see above).", s->where);
        return -1;
    }
    int rc = sql_rows_from_reply(r, out);
    json_object_put(r);
    if (rc < 0)
        log_error("The rows %s sent are not valid (an array of rows of at most 64 strings each).",
                  s->where);
    return rc;
}

void sql_close(struct sql *s)
{
    if (!s)
        return;
    if (s->conn)
        mysql_close(s->conn);
    free(s);
}

const char *sql_cell(const struct sql_result *r, size_t row, size_t col)
{
    if (row >= r->rows || col >= r->cols)
        return "";
    return r->cells[row * r->cols + col];
}

int sql_decimal(const char *s, double *v)
{
    size_t digits = strspn(s, "0123456789");
    if (digits == 0 || digits > 20)
        return -1;
    const char *p = s + digits;
    if (*p == '.') {
        size_t frac = strspn(p + 1, "0123456789");
        if (frac == 0 || frac > 12)
            return -1;
        p += 1 + frac;
    }
    if (*p)
        return -1;
    *v = strtod(s, NULL);
    return isfinite(*v) ? 0 : -1;
}

double sql_number(const struct sql_result *r, size_t row, size_t col)
{
    return strtod(sql_cell(r, row, col), NULL);
}

double sql_status(const struct sql_result *r, const char *name)
{
    for (size_t i = 0; i < r->rows; i++)
        if (strcasecmp(sql_cell(r, i, 0), name) == 0)
            return sql_number(r, i, 1);
    return NAN; /* not this server's: absent, never a 0 that was not measured */
}
