/* scenario.c: read a scenario INI file (libinih) and check it key by key.
 *
 * What is checked here: syntax, sections (one [global], uniquely named arm
 * sections), known keys (with a suggestion for a misspelt one), duplicate
 * keys, each value or list item against its key, lists only where a key
 * takes one, and where a key may appear. Rules that involve several keys are
 * checked per run in plan.c. */
#include "scenario/scenario.h"
#include "util/xalloc.h"

#include "util/inifile.h"
#include "util/log.h"
#include "util/textfile.h"

#include <ctype.h>
#include <json-c/json.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void diag_add(struct diag *d, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    if (!d->seen)
        d->seen = json_object_new_object();
    if (json_object_object_get_ex(d->seen, buf, NULL))
        return;
    json_object_object_add(d->seen, buf, NULL);
    char **grown = xrealloc(d->lines, (d->n + 1) * sizeof(*grown));
    d->lines = grown;
    d->lines[d->n++] = xstrdup(buf);
}

void diag_print(const struct diag *d)
{
    for (size_t i = 0; i < d->n && i < DIAG_PRINT_MAX; i++)
        log_plain("%s", d->lines[i]);
    if (d->n > DIAG_PRINT_MAX)
        log_plain("... and %zu more problems like these", d->n - DIAG_PRINT_MAX);
}

void diag_clear(struct diag *d)
{
    for (size_t i = 0; i < d->n; i++)
        free(d->lines[i]);
    free(d->lines);
    json_object_put(d->seen);
    d->lines = NULL;
    d->n = 0;
    d->seen = NULL;
}

/* State shared by the inifile callbacks. */
struct parse_state {
    struct scenario *scn;
    struct diag *diag;
    bool section_ok; /* the last header was accepted (not a duplicate, valid name) */
};

static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    char *e = s + strlen(s);
    while (e > s && isspace((unsigned char)e[-1]))
        *--e = '\0';
    return s;
}

static bool valid_arm_name(const char *name)
{
    size_t n = strlen(name);
    if (n == 0 || n > 16)
        return false;
    for (const char *p = name; *p; p++)
        if (!islower((unsigned char)*p) && !isdigit((unsigned char)*p) && *p != '_')
            return false;
    return true;
}

static struct scn_section *find_section(struct scenario *s, const char *name)
{
    for (size_t i = 0; i < s->n_sections; i++)
        if (strcmp(s->sections[i].name, name) == 0)
            return &s->sections[i];
    return NULL;
}

static void on_section(void *opaque, const char *name, int line)
{
    struct parse_state *st = opaque;
    struct scenario *s = st->scn;
    struct scn_section *dup = find_section(s, name);
    st->section_ok = false;
    if (dup && !(dup->is_global && dup->line == 0)) {
        diag_add(st->diag, "%s:%d: duplicate section [%s] (first at line %d)", s->path, line, name,
                 dup->line);
        return;
    }
    if (dup) { /* the implicit [global] now has its header */
        dup->line = line;
        st->section_ok = true;
        return;
    }
    if (!valid_arm_name(name)) {
        diag_add(st->diag,
                 "%s:%d: section [%s]: an arm name must be 1 to 16 lower-case letters, digits or '_'",
                 s->path, line, name);
        return;
    }
    s->sections = xrealloc(s->sections, (s->n_sections + 1) * sizeof(*s->sections));
    struct scn_section *sec = &s->sections[s->n_sections++];
    memset(sec, 0, sizeof(*sec));
    sec->name = xstrdup(name);
    sec->line = line;
    st->section_ok = true;
}

static int split_items(struct parse_state *st, struct scn_entry *e)
{
    char *copy = xstrdup(e->raw);
    int rc = 0;
    /* strtok would skip empty items; find commas by hand */
    char *p = copy;
    for (;;) {
        char *comma = strchr(p, ',');
        if (comma)
            *comma = '\0';
        char *item = trim(p);
        if (!*item) {
            diag_add(st->diag, "%s:%d: %s: empty item in list '%s'", st->scn->path, e->line,
                     e->key->name, e->raw);
            rc = -1;
        } else {
            e->items = xrealloc(e->items, (e->n_items + 1) * sizeof(char *));
            e->items[e->n_items++] = xstrdup(item);
        }
        if (!comma)
            break;
        p = comma + 1;
    }
    free(copy);
    return rc;
}

static void check_items(struct parse_state *st, struct scn_entry *e)
{
    const char *path = st->scn->path;
    if (e->n_items > 1 && !(e->key->flags & KF_LIST) && e->key->type != KT_HOSTS) {
        diag_add(st->diag, "%s:%d: %s: takes one value, not a list ('%s')", path, e->line,
                 e->key->name, e->raw);
        return;
    }
    for (size_t i = 0; i < e->n_items; i++) {
        for (size_t j = 0; j < i; j++)
            if (strcmp(e->items[i], e->items[j]) == 0)
                diag_add(st->diag, "%s:%d: %s: '%s' appears twice in the list", path, e->line,
                         e->key->name, e->items[i]);
        struct run_config scratch;
        char err[600];
        if (key_parse_item(e->key, e->items[i], &scratch, err, sizeof(err)) < 0)
            diag_add(st->diag, "%s:%d: %s: %s", path, e->line, e->key->name, err);
    }
}

static void on_value(void *opaque, const char *section, const char *name, const char *value,
                     int line)
{
    struct parse_state *st = opaque;
    struct scenario *s = st->scn;

    if (!*section) {
        diag_add(st->diag, "%s:%d: key '%s' is outside any section (put it under [global])",
                 s->path, line, name);
        return;
    }
    struct scn_section *sec = find_section(s, section);
    if (!sec || !st->section_ok)
        return; /* invalid or duplicate section: reported at its header */

    const struct key_def *key = key_find(name);
    if (!key) {
        const struct key_def *guess = key_suggest(name);
        if (guess)
            diag_add(st->diag, "%s:%d: unknown key '%s' (did you mean '%s'?)", s->path, line, name,
                     guess->name);
        else
            diag_add(st->diag, "%s:%d: unknown key '%s' (see: vbed help keys)", s->path, line,
                     name);
        return;
    }
    for (size_t i = 0; i < sec->n_entries; i++) {
        if (sec->entries[i].key == key) {
            diag_add(st->diag, "%s:%d: duplicate key '%s' in [%s] (first at line %d)", s->path,
                     line, name, sec->name, sec->entries[i].line);
            return;
        }
    }
    if (sec->is_global && (key->flags & KF_ARM_ONLY)) {
        diag_add(st->diag, "%s:%d: %s: belongs in an arm section, not in [global]", s->path, line,
                 name);
        return;
    }
    if (!sec->is_global && (key->flags & KF_GLOBAL_ONLY)) {
        diag_add(st->diag, "%s:%d: %s: belongs in [global], not in the arm section [%s]", s->path,
                 line, name, sec->name);
        return;
    }

    sec->entries = xrealloc(sec->entries, (sec->n_entries + 1) * sizeof(*sec->entries));
    struct scn_entry *e = &sec->entries[sec->n_entries++];
    memset(e, 0, sizeof(*e));
    e->key = key;
    e->raw = xstrdup(value);
    e->line = line;
    if (!*trim(e->raw)) {
        char accepted[512];
        key_describe_accepted(key, accepted, sizeof(accepted));
        diag_add(st->diag, "%s:%d: %s: empty value (accepted: %s)", s->path, line, name, accepted);
        return;
    }
    if (split_items(st, e) == 0)
        check_items(st, e);
    return;
}

static char *read_file(const char *path, struct diag *d)
{
    char *text = textfile_read(path);
    if (!text && errno == EINVAL)
        diag_add(d, "%s: not a text file (it contains NUL bytes)", path);
    else if (!text && (errno == ENOENT || errno == EACCES || errno == ENOTDIR))
        diag_add(d, "%s: cannot open the scenario: %s", path, strerror(errno));
    else if (!text)
        diag_add(d, "%s: cannot read the scenario: %s", path, strerror(errno));
    return text;
}

static char *name_from_path(const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    char *name = xstrdup(base);
    char *dot = strrchr(name, '.');
    if (dot && dot != name && strcmp(dot, ".ini") == 0)
        *dot = '\0';
    return name;
}

struct scenario *scenario_load(const char *path, struct diag *d)
{
    char *text = read_file(path, d);
    if (!text)
        return NULL;
    struct scenario *s = scenario_parse(path, text, d);
    free(text);
    return s;
}

struct scenario *scenario_parse(const char *path, const char *text, struct diag *d)
{
    size_t errors_before = d->n;
    struct scenario *s = xcalloc(1, sizeof(*s));
    s->path = xstrdup(path);
    s->name = name_from_path(path);
    s->text = xstrdup(text);

    struct parse_state st = {.scn = s, .diag = d, .section_ok = true};
    /* [global] first, whether or not the file has a header for it */
    s->sections = xrealloc(NULL, sizeof(*s->sections));
    memset(&s->sections[0], 0, sizeof(s->sections[0]));
    s->sections[0].name = xstrdup("global");
    s->sections[0].is_global = true;
    s->n_sections = 1;

    const char *why = NULL;
    int err = inifile_parse(s->text, on_section, on_value, &st, &why);
    if (err > 0) {
        /* libinih reports only the first malformed line; a handler error is
         * never returned because on_value always succeeds */
        diag_add(d, "%s:%d: %s", path, err, why);
    } else if (err < 0) {
        diag_add(d, "%s: cannot parse the scenario (out of memory)", path);
    }
    if (s->n_sections == 1 && d->n == errors_before)
        diag_add(d, "%s: no arm sections (add e.g. [guest] with arm = guest)", path);

    if (d->n > errors_before) {
        scenario_free(s);
        return NULL;
    }
    return s;
}

void scenario_free(struct scenario *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->n_sections; i++) {
        struct scn_section *sec = &s->sections[i];
        for (size_t j = 0; j < sec->n_entries; j++) {
            struct scn_entry *e = &sec->entries[j];
            for (size_t k = 0; k < e->n_items; k++)
                free(e->items[k]);
            free(e->items);
            free(e->raw);
        }
        free(sec->entries);
        free(sec->name);
    }
    free(s->sections);
    free(s->text);
    free(s->name);
    free(s->path);
    free(s);
}

const struct scn_entry *scenario_entry(const struct scn_section *sec, const char *key)
{
    for (size_t i = 0; i < sec->n_entries; i++)
        if (strcmp(sec->entries[i].key->name, key) == 0)
            return &sec->entries[i];
    return NULL;
}
