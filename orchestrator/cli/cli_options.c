/* cli_options.c: getopt's tables and the --help lines of a command, made
 * from its option table (cli_options.h). */
#include "cli/cli_options.h"
#include "util/log.h"
#include "util/safefile.h"
#include "util/paths.h"

#include <stdlib.h>
#include <string.h>

int cli_options_count(const struct cli_option *opts)
{
    int n = 0;
    for (; opts && opts[n].name; n++)
        ;
    return n;
}

void cli_getopt_init(struct cli_getopt *g, const struct cli_option *opts, const char *prefix)
{
    int n = cli_options_count(opts);
    if (n > CLI_OPTIONS_MAX)
        abort();
    memset(g, 0, sizeof(*g));
    size_t s = 0;
    for (; *prefix && s < 2; prefix++)
        g->shortopts[s++] = *prefix;
    for (int i = 0; i < n; i++) {
        const struct cli_option *o = &opts[i];
        g->longopts[i] = (struct option){o->name, o->arg ? required_argument : no_argument, NULL,
                                         o->key};
        if (o->key < 0x100) {
            g->shortopts[s++] = (char)o->key;
            if (o->arg)
                g->shortopts[s++] = ':';
        }
    }
}

int cli_getopt_next(struct cli_getopt *g, int argc, char **argv)
{
    return getopt_long(argc, argv, g->shortopts, g->longopts, NULL);
}

const char *cli_option_label(const struct cli_option *o, char *buf, size_t len)
{
    char shortname[8] = "    ";
    if (o->key < 0x100)
        snprintf(shortname, sizeof(shortname), "-%c, ", o->key);
    snprintf(buf, len, "%s--%s%s%s", shortname, o->name, o->arg ? "=" : "", o->arg ? o->arg : "");
    return buf;
}

/* text wrapped at width, every line after the first indented by indent */
static void print_wrapped(FILE *out, const char *text, size_t col, size_t indent, size_t width)
{
    const char *p = text;
    while (*p) {
        size_t word = strcspn(p, " ");
        if (col > indent && col + 1 + word > width) {
            fprintf(out, "\n%*s", (int)indent, "");
            col = indent;
        } else if (col > indent) {
            fputc(' ', out);
            col++;
        }
        fwrite(p, 1, word, out);
        col += word;
        p += word;
        p += strspn(p, " ");
    }
    fputc('\n', out);
}

void cli_options_print(FILE *out, const char *title, const struct cli_option *opts)
{
    static const struct cli_option help = {"help", 'h', NULL, CLI_VALUE_NONE, NULL, "this help"};
    int n = cli_options_count(opts), last = n; /* last: -h unless the table has it */
    for (int i = 0; i < n; i++)
        if (opts[i].key == 'h')
            last = n - 1;
    size_t wide = 0;
    char label[96];
    for (int i = 0; i <= last; i++) {
        size_t l = strlen(cli_option_label(i < n ? &opts[i] : &help, label, sizeof(label)));
        if (l > wide)
            wide = l;
    }
    if (wide > 26)
        wide = 26;
    fprintf(out, "\n%s:\n", title);
    for (int i = 0; i <= last; i++) {
        const struct cli_option *o = i < n ? &opts[i] : &help;
        cli_option_label(o, label, sizeof(label));
        size_t col = 2 + strlen(label);
        fprintf(out, "  %s", label);
        if (col > wide + 2) { /* too long: the help goes on the next line */
            fprintf(out, "\n%*s", (int)(wide + 4), "");
            col = wide + 4;
        } else {
            fprintf(out, "%*s", (int)(wide + 4 - col), "");
            col = wide + 4;
        }
        print_wrapped(out, o->help, col, wide + 4, 79);
    }
}

int cli_check_cache_dir(void)
{
    const char *dir = paths_cache_dir();
    char why[512];
    if (paths_mkdirs(dir, 0755) < 0)
        return -1;
    if (safefile_trusted_dir(dir, why, sizeof(why)) < 0) {
        log_error("The cache directory '%s' cannot be used: %s. vbed runs as root and keeps images, "
                  "saved guests and tables there: it and every directory above it must be root's "
                  "alone (--cache-dir, $VBED_CACHE_DIR).",
                  dir, why);
        return -1;
    }
    return 0;
}
