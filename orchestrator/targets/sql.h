/* sql.h: one query interface to a MariaDB server, three transports.
 *
 *   sql_open_socket  libmariadb (mysql.h) over a local socket: the host arm
 *   sql_open_agent   the `mariadb` client run in a guest through its guest
 *                    agent (--batch output, tab-separated): no network,
 *                    ports or passwords needed
 *   sql_open_remote  a host arm on an ssh host: `vbed host arm-sql` runs the
 *                    statements there through libmariadb and replies with
 *                    the rows as JSON (read as hostile input)
 *
 * sql_run() runs statements in order in ONE session (FLUSH TABLES ... FOR
 * EXPORT; SELECT ...; UNLOCK TABLES must share a session) and returns the
 * rows they produce: at most one of them may return rows (the agent
 * transport cannot tell result sets apart). */
#ifndef VBED_SQL_H
#define VBED_SQL_H

#include <json-c/json.h>
#include <libvirt/libvirt.h>
#include <stddef.h>

struct hostside;

struct sql_result {
    size_t rows, cols;
    char **cells; /* rows * cols, row-major; "NULL" for SQL NULL */
};

struct sql;

/* NULL after reporting. timeout: seconds to wait for the server. */
struct sql *sql_open_socket(const char *socket_path, long timeout);
struct sql *sql_open_agent(virDomainPtr dom);
/* arm_dir: the arm's directory on hs's host (hs not owned). */
struct sql *sql_open_remote(struct hostside *hs, const char *arm_dir);
void sql_close(struct sql *s);
/* The pid of the process at the other end of a socket transport's
 * connection (SO_PEERCRED: the kernel's word, not the server's); -1 for
 * the other transports or when unknown. */
long long sql_peer_pid(const struct sql *s);

int sql_run(struct sql *s, const char *const stmts[], struct sql_result *out);
/* One statement. */
int sql_query(struct sql *s, const char *stmt, struct sql_result *out);
void sql_result_free(struct sql_result *r);

/* The "rows" of an arm-sql reply: an array of at most SQL_REMOTE_MAX_ROWS
 * arrays of 1-64 strings, every row as wide as the first, 16 MiB of text in
 * all. 0, or -1 (out emptied) if the reply is anything else. */
#define SQL_REMOTE_MAX_ROWS 100000
int sql_rows_from_reply(json_object *reply, struct sql_result *out);

/* The rows of the mariadb client's --batch --raw output (text, len bytes:
 * a guest's, hostile): one row per line, cells split at tabs, at most
 * SQL_BATCH_MAX_COLS cells (the rest of a wider line is dropped) and
 * SQL_REMOTE_MAX_ROWS rows; a line with another number of cells than the
 * first is dropped. A cell holds no tab or newline; NUL bytes are kept. */
#define SQL_BATCH_MAX_COLS 64
void sql_rows_from_batch(const char *text, size_t len, struct sql_result *out);

/* A cell as the server prints a non-negative number: digits (at most 20),
 * optionally "." and 1-12 digits; no sign, space, exponent, hex or words.
 * 0, or -1 (a guest's reply is hostile). */
int sql_decimal(const char *s, double *v);
/* stmts as one script, each ended by ";\n" (what the mariadb client runs);
 * free it. */
char *sql_script(const char *const stmts[]);

/* Cell (row, col) as text / number (0 if missing). */
const char *sql_cell(const struct sql_result *r, size_t row, size_t col);
double sql_number(const struct sql_result *r, size_t row, size_t col);
/* The value column of a SHOW STATUS / SHOW VARIABLES result for name; NAN
 * when the server has no such variable. */
double sql_status(const struct sql_result *r, const char *name);

#endif
