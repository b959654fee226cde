/* help_man.c: `vbed help man`: the vbed(1) man page in roff (man macros),
 * generated from the tables that drive `vbed help`: the command table and
 * each command's options (cli.h, cli_options.h) and --help text, the
 * scenario key table (keys.h), and the exit codes, environment and files
 * (cli_docs.h). `make` writes it to build/vbed.1 and `make install` puts it
 * under share/man/man1, so the page cannot drift from the program.
 *
 * A command's --help text is plain text laid out for a terminal; it is
 * turned into roff here: its "usage:" lines into a synopsis, paragraphs
 * into filled paragraphs, "term   definition" lines into tagged ones.
 * Every text reaches roff through roff_put(), which escapes it. */
#include "cli/cli.h"

#include "scenario/keys.h"
#include "util/version.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* ---- escaping ---- */

/* s[0..len) as roff text: backslashes and hyphens escaped, a control
 * character at the start of a line neutralised, non-ASCII as \[uXXXX]
 * (so groff needs no preconv), other control characters dropped. */
static void roff_putn(FILE *out, const char *s, size_t len, bool line_start)
{
    const unsigned char *p = (const unsigned char *)s, *end = p + len;
    for (; p < end; p++) {
        if (line_start && (*p == '.' || *p == '\''))
            fputs("\\&", out);
        line_start = false;
        if (*p == '\\')
            fputs("\\e", out);
        else if (*p == '-')
            fputs("\\-", out);
        else if (*p >= 0x80) {
            /* one UTF-8 sequence; a broken one is dropped */
            unsigned cp = 0;
            int more = *p >= 0xf0 ? 3 : *p >= 0xe0 ? 2 : *p >= 0xc0 ? 1 : -1;
            if (more < 0 || end - p <= more)
                continue;
            cp = *p & (0x3f >> more);
            for (int i = 1; i <= more; i++)
                cp = (cp << 6) | (p[i] & 0x3f);
            p += more;
            fprintf(out, "\\[u%04X]", cp);
        } else if (*p >= 0x20 && *p != 0x7f)
            fputc(*p, out);
    }
}

static void roff_put(FILE *out, const char *s) { roff_putn(out, s, strlen(s), true); }

/* a request line with one quoted argument: .SS "vbed run" */
static void roff_request(FILE *out, const char *request, const char *arg)
{
    fprintf(out, ".%s \"", request);
    for (const char *p = arg; *p; p++)
        if (*p == '"')
            fputs("\\(dq", out);
        else
            roff_putn(out, p, 1, false);
    fputs("\"\n", out);
}

/* one text line (a paragraph's words joined) */
static void roff_line(FILE *out, const char *s)
{
    roff_put(out, s);
    fputc('\n', out);
}

/* "-f, --format=FORMAT" in bold and italic */
static void roff_option_label(FILE *out, const struct cli_option *o)
{
    if (o->key < 0x100)
        fprintf(out, "\\fB\\-%c\\fR, ", o->key);
    fputs("\\fB\\-\\-", out);
    roff_putn(out, o->name, strlen(o->name), false);
    fputs("\\fR", out);
    if (o->arg) {
        fputs("=\\fI", out);
        roff_putn(out, o->arg, strlen(o->arg), false);
        fputs("\\fR", out);
    }
    fputc('\n', out);
}

static void roff_options(FILE *out, const struct cli_option *opts)
{
    for (int i = 0; opts && opts[i].name; i++) {
        fputs(".TP\n", out);
        roff_option_label(out, &opts[i]);
        roff_line(out, opts[i].help);
    }
}

/* ---- a command's --help text into roff ---- */

/* lines of text (modified in place) */
struct lines {
    char **v;
    size_t n;
};

static struct lines split_lines(char *text)
{
    struct lines l = {NULL, 0};
    size_t cap = 0;
    for (char *p = text; p && *p;) {
        char *nl = strchr(p, '\n');
        if (nl)
            *nl = '\0';
        if (l.n == cap) {
            cap = cap ? 2 * cap : 32;
            l.v = realloc(l.v, cap * sizeof(*l.v));
            if (!l.v)
                abort();
        }
        l.v[l.n++] = p;
        p = nl ? nl + 1 : NULL;
    }
    return l;
}

static bool blank(const char *s) { return s[strspn(s, " ")] == '\0'; }

/* "term   definition" (a word, then 2 or more spaces) or, indented,
 * "  some term   definition": the term's length, *def the definition */
static size_t definition(const char *s, const char **def)
{
    const char *t = s + strspn(s, " ");
    const char *gap = strstr(t, "  ");
    if (!gap || gap == t)
        return 0;
    if (t == s && memchr(t, ' ', (size_t)(gap - t))) /* not indented: one word only */
        return 0;
    *def = gap + strspn(gap, " ");
    return **def ? (size_t)(gap - t) : 0;
}

/* The "usage:" block: one synopsis line per "vbed ..." line (continuation
 * lines joined), in no-fill mode. Returns the index after the block. */
static size_t print_synopsis(FILE *out, const struct lines *l)
{
    size_t i = 0;
    fputs(".PP\n.nf\n", out);
    for (; i < l->n && !blank(l->v[i]); i++) {
        const char *s = l->v[i];
        if (strncmp(s, "usage: ", 7) == 0)
            s += 7;
        s += strspn(s, " ");
        bool more = strncmp(s, "vbed", 4) == 0;
        if (more && i > 0)
            fputc('\n', out);
        else if (i > 0)
            fputc(' ', out);
        fputs("\\fB", out);
        roff_putn(out, s, strlen(s), i == 0 || more);
        fputs("\\fR", out);
    }
    fputs("\n.fi\n", out);
    return i;
}

/* The paragraphs after the synopsis: filled text, and definition lines as
 * tagged paragraphs (.TP) whose indented continuation lines join them. */
static void print_body(FILE *out, const struct lines *l, size_t i)
{
    enum { NONE, TEXT, ITEM } state = NONE;
    for (; i < l->n; i++) {
        const char *s = l->v[i], *def;
        if (blank(s)) {
            state = NONE;
            continue;
        }
        size_t term = definition(s, &def);
        bool indented = s[0] == ' ';
        if (term && (indented || state != TEXT)) {
            const char *t = s + strspn(s, " ");
            fputs(".TP\n\\fB", out);
            roff_putn(out, t, term, false);
            fputs("\\fR\n", out);
            roff_line(out, def);
            state = ITEM;
        } else if (state == ITEM && indented) {
            roff_line(out, s + strspn(s, " "));
        } else {
            if (state != TEXT)
                fputs(".PP\n", out);
            roff_line(out, s + strspn(s, " "));
            state = TEXT;
        }
    }
}

static void print_command(FILE *out, const struct cmd_entry *c)
{
    char title[256];
    snprintf(title, sizeof(title), "vbed %s %s", c->name, c->args);
    roff_request(out, "SS", title);
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (!mem)
        abort();
    c->usage(mem);
    fclose(mem);
    struct lines l = split_lines(text);
    size_t body = print_synopsis(out, &l);
    print_body(out, &l, body);
    if (c->options) {
        fputs(".PP\nOptions:\n", out);
        roff_options(out, c->options);
    }
    free(l.v);
    free(text);
}

/* ---- the page ---- */

static void print_keys(FILE *out)
{
    for (size_t i = 0; i < key_count; i++) {
        const struct key_def *k = &key_table[i];
        char accepted[512];
        key_describe_accepted(k, accepted, sizeof(accepted));
        fputs(".TP\n\\fB", out);
        roff_putn(out, k->name, strlen(k->name), false);
        fputs("\\fR\n", out);
        roff_line(out, k->help);
        fputs(".br\nValues: ", out);
        roff_put(out, accepted);
        fputs((k->flags & KF_LIST) ? " (a list makes an axis).\n" : ".\n", out);
        fputs(".br\nDefault: ", out);
        roff_put(out, k->def ? k->def : "none (required)");
        fputs(". In: ", out);
        roff_put(out, key_where(k));
        fputs(".\n", out);
    }
}

static void print_docs(FILE *out, const struct cli_doc *docs, const char *font)
{
    for (const struct cli_doc *d = docs; d->name; d++) {
        fprintf(out, ".TP\n\\f%s", font);
        roff_putn(out, d->name, strlen(d->name), false);
        fputs("\\fR\n", out);
        roff_line(out, d->help);
    }
}

void help_man_print(FILE *out, const struct cli_ctx *ctx)
{
    fputs(".\\\" vbed(1): generated by `vbed help man` from vbed's tables; do not edit.\n", out);
    fputs(".TH VBED 1 \"\" \"vbed ", out);
    roff_putn(out, vbed_version(), strlen(vbed_version()), false);
    fputs("\" \"vbed manual\"\n", out);

    fputs(".SH NAME\nvbed \\- ", out);
    roff_line(out, cli_description + strlen("vbed "));
    fputs(".SH SYNOPSIS\n.nf\n\\fBvbed\\fR [\\fIglobal options\\fR] \\fICOMMAND\\fR "
          "[\\fIoptions\\fR] [\\fIarguments\\fR]\n",
          out);
    for (const struct cmd_entry *c = ctx->commands; c->name; c++) {
        fputs("\\fBvbed ", out);
        roff_putn(out, c->name, strlen(c->name), false);
        fputs("\\fR ", out);
        roff_putn(out, c->args, strlen(c->args), false);
        fputc('\n', out);
    }
    fputs(".fi\n", out);

    fputs(".SH DESCRIPTION\n", out);
    roff_line(out, cli_description);
    fputs(".PP\n", out);
    roff_line(out, "From one scenario file (SCENARIO KEYS below) it builds a guest image, starts "
                   "guests through libvirt, runs the workload in all of them at once and on the "
                   "bare host, and writes every sample, raw log and a report into a results "
                   "directory. Commands:");
    for (const struct cmd_entry *c = ctx->commands; c->name; c++) {
        fputs(".TP\n\\fB", out);
        roff_putn(out, c->name, strlen(c->name), false);
        fputs("\\fR\n", out);
        roff_line(out, c->summary);
    }

    fputs(".SH OPTIONS\nGlobal options come before the command:\n", out);
    roff_options(out, cli_global_options);

    fputs(".SH COMMANDS\n", out);
    for (const struct cmd_entry *c = ctx->commands; c->name; c++)
        print_command(out, c);

    fputs(".SH SCENARIO KEYS\n", out);
    roff_line(out, "A scenario is an INI file: [global], then one section per arm (where the "
                   "workload runs). A key in [global] applies to every arm unless the arm sets it; "
                   "a key that takes a list (comma-separated) is an axis, and the variants are the "
                   "cartesian product of the axes. Sizes take K, M, G, T (binary); durations s, m, h.");
    print_keys(out);

    fputs(".SH EXIT STATUS\n", out);
    for (const struct cli_exit_code *e = cli_exit_codes; e->code >= 0; e++) {
        fprintf(out, ".TP\n.B %d\n", e->code);
        roff_line(out, e->meaning);
    }
    fputs(".SH ENVIRONMENT\n", out);
    print_docs(out, cli_environment, "B");
    fputs(".SH FILES\n", out);
    print_docs(out, cli_files, "I");
    fputs(".SH SEE ALSO\n.BR virsh (1),\n.BR qemu\\-img (1),\n.BR sysbench (1),\n.BR fio (1);\n"
          "README.md, docs/ and results/README.md in vbed's source tree.\n",
          out);
}
