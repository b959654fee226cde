/* scenario.h: the scenario layer -- what a user asks for: the key table
 * (keys.h), a scenario file as written (this file), the plan of variants x
 * arms x repeats (plan.h), and what follows from the keys alone: data-disk
 * layouts (disklayout.h), where the working set fits (workingset.h), the
 * server's my.cnf (mycnf.h), host URIs (hosturi.h). It may call util/ only.
 *
 * A scenario file as written: sections, keys, values, lines.
 *
 * scenario_load() reads the INI file with libinih, checks every key against
 * the key table and every value against its key, and keeps the file's text
 * (copied into each results directory). Turning it into runs is plan.c's job. */
#ifndef VBED_SCENARIO_H
#define VBED_SCENARIO_H

#include "scenario/keys.h"

#include <stdbool.h>
#include <stddef.h>

struct scn_entry {
    const struct key_def *key;
    char *raw;     /* the value as written */
    char **items;  /* raw split on commas, trimmed; one item unless a list */
    size_t n_items;
    int line;
};

struct scn_section {
    char *name;
    int line;
    bool is_global;
    struct scn_entry *entries;
    size_t n_entries;
};

struct scenario {
    char *path;
    char *name;  /* file name without directory and .ini */
    char *text;  /* the whole file */
    struct scn_section *sections;  /* [0] is [global] (possibly empty) */
    size_t n_sections;
};

/* Diagnostics: every problem is one line "FILE:LINE: message"; identical
 * lines are reported once (a hash set: a scenario of many variants can
 * produce many), and at most DIAG_PRINT_MAX are printed. */
#define DIAG_PRINT_MAX 100
struct json_object;
struct diag {
    char **lines;
    size_t n;
    struct json_object *seen; /* the lines, as keys */
};
void diag_add(struct diag *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void diag_print(const struct diag *d);
void diag_clear(struct diag *d);

/* Parse and check path. Returns NULL when the file cannot be read or has
 * errors; every problem is added to d. */
struct scenario *scenario_load(const char *path, struct diag *d);
/* The same for a scenario's text (copied); path names it in messages. */
struct scenario *scenario_parse(const char *path, const char *text, struct diag *d);
void scenario_free(struct scenario *s);

/* The entry for key in section, or NULL. */
const struct scn_entry *scenario_entry(const struct scn_section *sec, const char *key);

#endif
