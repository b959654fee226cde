/* help_completion.c: `vbed help bash-completion`: vbed's bash completion,
 * generated from the command table (cli.h): the commands, each command's
 * options (cli_options.h) and what their values are, its subcommands and
 * what its operands are, and the help topics. `make` writes it to
 * build/vbed.bash-completion and `make install` puts it where
 * bash-completion loads it on demand (share/bash-completion/completions/vbed).
 *
 * The script follows bash-completion's conventions (a _vbed function,
 * _init_completion, _filedir) and works without bash-completion too: it
 * then reads the line from COMP_LINE and COMP_POINT itself. What it offers:
 * commands and options; scenario files (*.ini) for run; results
 * directories (those holding meta.json, and folders of them) for report,
 * compare and list; the cached images (`vbed image list`) for image rm; for
 * -c and image push the libvirt URIs that results directories name (`vbed
 * list --uris`, which reads results/ of the current directory through the
 * hostile-input reader) besides qemu:///system and qemu:///session. No
 * history file: what vbed ran against is already in its results. */
#include "cli/cli.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* The helper functions: the same for every table. */
static const char helpers[] =
    "# _vbed_init: cur, prev, words and cword from COMP_LINE without\n"
    "# bash-completion (a URI's ':' stays inside its word)\n"
    "_vbed_init()\n"
    "{\n"
    "    local line=${COMP_LINE:0:COMP_POINT}\n"
    "    read -ra words <<< \"$line\"\n"
    "    if [[ -z $line || $line == *[[:space:]] ]]; then\n"
    "        words+=('')\n"
    "    fi\n"
    "    cword=$((${#words[@]} - 1))\n"
    "    cur=${words[cword]}\n"
    "    prev=${words[cword - 1]}\n"
    "    if [[ $cur == --*=* ]]; then\n"
    "        prev=${cur%%=*}\n"
    "        cur=${cur#*=}\n"
    "    fi\n"
    "}\n"
    "\n"
    "# _vbed_colon: drop what bash already holds of a word with ':' (URIs)\n"
    "_vbed_colon()\n"
    "{\n"
    "    if [[ $cur == *:* && $COMP_WORDBREAKS == *:* ]]; then\n"
    "        local keep=${cur%\"${cur##*:}\"} i\n"
    "        for i in \"${!COMPREPLY[@]}\"; do\n"
    "            COMPREPLY[i]=${COMPREPLY[i]#\"$keep\"}\n"
    "        done\n"
    "    fi\n"
    "}\n"
    "\n"
    "# _vbed_files [GLOB]: files matching GLOB (any without one), and directories\n"
    "_vbed_files()\n"
    "{\n"
    "    if declare -F _filedir >/dev/null 2>&1; then\n"
    "        _filedir \"${1#\\*.}\"\n"
    "        return\n"
    "    fi\n"
    "    local IFS=$'\\n' f\n"
    "    COMPREPLY=()\n"
    "    for f in $(compgen -f -- \"$cur\"); do\n"
    "        if [[ -d $f || -z $1 || $f == $1 ]]; then\n"
    "            COMPREPLY+=(\"$f\")\n"
    "        fi\n"
    "    done\n"
    "    compopt -o filenames 2>/dev/null\n"
    "}\n"
    "\n"
    "# _vbed_dirs: directories\n"
    "_vbed_dirs()\n"
    "{\n"
    "    if declare -F _filedir >/dev/null 2>&1; then\n"
    "        _filedir -d\n"
    "        return\n"
    "    fi\n"
    "    local IFS=$'\\n'\n"
    "    COMPREPLY=($(compgen -d -- \"$cur\"))\n"
    "    compopt -o filenames 2>/dev/null\n"
    "}\n"
    "\n"
    "# _vbed_results: results directories (they hold meta.json) and folders\n"
    "# that may hold some (they hold a directory)\n"
    "_vbed_results()\n"
    "{\n"
    "    local IFS=$'\\n' d\n"
    "    COMPREPLY=()\n"
    "    for d in $(compgen -d -- \"$cur\"); do\n"
    "        if [[ -f $d/meta.json ]] || compgen -d -- \"$d/\" >/dev/null; then\n"
    "            COMPREPLY+=(\"$d\")\n"
    "        fi\n"
    "    done\n"
    "    compopt -o filenames 2>/dev/null\n"
    "}\n"
    "\n"
    "# _vbed_value KIND [WORDS]: COMPREPLY for a value of that kind\n"
    "_vbed_value()\n"
    "{\n"
    "    local IFS=$' \\t\\n'\n"
    "    case $1 in\n"
    "    file) _vbed_files ;;\n"
    "    dir) _vbed_dirs ;;\n"
    "    scenario) _vbed_files '*.ini' ;;\n"
    "    results) _vbed_results ;;\n"
    "    image)\n"
    "        COMPREPLY=($(compgen -W \"$(\"$vbed\" \"${gopts[@]}\" image list 2>/dev/null |\n"
    "            awk 'NR > 1 && $1 ~ /^[A-Za-z0-9][A-Za-z0-9._-]*$/ {print $1}')\" -- \"$cur\")) ;;\n"
    "    uri)\n"
    "        COMPREPLY=($(compgen -W \"$({ printf '%s\\n' qemu:///system qemu:///session \\\n"
    "            $LIBVIRT_DEFAULT_URI; \"$vbed\" list --uris 2>/dev/null; } | sort -u)\" -- \"$cur\"))\n"
    "        _vbed_colon ;;\n"
    "    words) COMPREPLY=($(compgen -W \"$2\" -- \"$cur\")) ;;\n"
    "    *) COMPREPLY=() ;;\n"
    "    esac\n"
    "}\n"
    "\n";

/* Every name that reaches the script is a word of the tables: letters,
 * digits, '-', '_', '.'. Anything else is a programming error. */
static const char *word(const char *s)
{
    if (!*s || strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_. ") !=
                   strlen(s))
        abort();
    return s;
}

static const char *kind_name(enum cli_value v)
{
    switch (v) {
    case CLI_VALUE_FILE:
        return "file";
    case CLI_VALUE_DIR:
        return "dir";
    case CLI_VALUE_SCENARIO:
        return "scenario";
    case CLI_VALUE_RESULTS:
        return "results";
    case CLI_VALUE_IMAGE:
        return "image";
    case CLI_VALUE_URI:
        return "uri";
    case CLI_VALUE_CHOICES:
    case CLI_VALUE_HELP:
        return "words";
    case CLI_VALUE_NONE:
    case CLI_VALUE_TEXT:
        break;
    }
    return "text";
}

/* "-f|--format" */
static void print_pattern(FILE *out, const struct cli_option *o)
{
    if (o->key < 0x100)
        fprintf(out, "-%c|", o->key);
    fprintf(out, "--%s", word(o->name));
}

/* the tables the script is made from (help_completion_print's ctx) */
static const struct cli_ctx *tables;

/* the words a CLI_VALUE_HELP operand takes: commands and topics */
static void print_help_words(FILE *out)
{
    for (const struct cmd_entry *c = tables->commands; c->name; c++)
        fprintf(out, "%s ", word(c->name));
    for (const struct cli_help_topic *t = tables->topics; t->name; t++)
        fprintf(out, "%s%s", word(t->name), t[1].name ? " " : "");
}

/* `_vbed_value KIND [WORDS]` for a value */
static void print_value(FILE *out, enum cli_value v, const char *choices)
{
    fprintf(out, "_vbed_value %s", kind_name(v));
    if (v == CLI_VALUE_CHOICES)
        fprintf(out, " '%s'", word(choices));
    else if (v == CLI_VALUE_HELP) {
        fputs(" '", out);
        print_help_words(out);
        fputc('\'', out);
    }
}

/* case arms completing the value after each option that takes one */
static void print_option_values(FILE *out, const struct cli_option *opts, const char *indent)
{
    for (int i = 0; opts && opts[i].name; i++) {
        if (!opts[i].arg)
            continue;
        fputs(indent, out);
        print_pattern(out, &opts[i]);
        fputs(")\n", out);
        fprintf(out, "%s    ", indent);
        print_value(out, opts[i].value, opts[i].choices);
        fprintf(out, "\n%s    return ;;\n", indent);
    }
}

/* the options offered after '-': long names, and --help */
static void print_option_words(FILE *out, const struct cli_option *opts)
{
    for (int i = 0; opts && opts[i].name; i++)
        if (strcmp(opts[i].name, "help") != 0)
            fprintf(out, "--%s ", word(opts[i].name));
    fputs("--help", out);
}

/* the pattern of the options that take a value ("" if none) */
static void print_valued_patterns(FILE *out, const struct cli_option *opts, const char *none)
{
    bool any = false;
    for (int i = 0; opts && opts[i].name; i++)
        if (opts[i].arg) {
            if (any)
                fputc('|', out);
            print_pattern(out, &opts[i]);
            any = true;
        }
    if (!any)
        fputs(none, out);
}

static void print_command(FILE *out, const struct cmd_entry *c)
{
    fprintf(out, "    %s)\n", word(c->name));
    fputs("        case $prev in\n", out);
    print_option_values(out, c->options, "        ");
    fputs("        esac\n", out);
    fputs("        if [[ $cur == -* ]]; then\n", out);
    fputs("            _vbed_value words '", out);
    print_option_words(out, c->options);
    fputs("'\n            return\n        fi\n", out);
    if (!c->words) {
        fputs("        ", out);
        print_value(out, c->operand, NULL);
        fputs("\n        ;;\n", out);
        return;
    }
    /* the subcommand: the first operand, options and their values skipped */
    fputs("        local sub='' j\n", out);
    fputs("        for ((j = cmdi + 1; j < cword; j++)); do\n", out);
    fputs("            case ${words[j]} in\n", out);
    fputs("            ", out);
    print_valued_patterns(out, c->options, "--help");
    fputs(") ((j++)) ;;\n", out);
    fputs("            -*) ;;\n", out);
    fputs("            *) sub=${words[j]}; break ;;\n", out);
    fputs("            esac\n", out);
    fputs("        done\n", out);
    fputs("        case $sub in\n", out);
    fputs("        '') _vbed_value words '", out);
    for (const struct cli_word *w = c->words; w->name; w++)
        fprintf(out, "%s%s", word(w->name), w[1].name ? " " : "");
    fputs("' ;;\n", out);
    for (const struct cli_word *w = c->words; w->name; w++) {
        fprintf(out, "        %s) ", word(w->name));
        print_value(out, w->operand, NULL);
        fputs(" ;;\n", out);
    }
    fputs("        esac\n        ;;\n", out);
}

void help_completion_print(FILE *out, const struct cli_ctx *ctx)
{
    tables = ctx;
    fputs("# bash completion for vbed(1): generated by `vbed help bash-completion` from\n"
          "# vbed's command table; do not edit. Installed as\n"
          "# share/bash-completion/completions/vbed (loaded when vbed is first completed),\n"
          "# or source it.\n\n",
          out);
    fputs(helpers, out);
    fputs("_vbed()\n{\n"
          "    local cur prev words cword split\n"
          "    if declare -F _init_completion >/dev/null 2>&1; then\n"
          "        _init_completion -s -n : || return\n"
          "    else\n"
          "        _vbed_init\n"
          "    fi\n"
          "    local vbed=${words[0]} cmd='' cmdi=0 i\n"
          "    local -a gopts=()\n"
          "    # the command: the first word after the global options and their values\n"
          "    for ((i = 1; i < cword; i++)); do\n"
          "        case ${words[i]} in\n        ",
          out);
    print_valued_patterns(out, cli_global_options, "--help");
    fputs(")\n"
          "            gopts+=(\"${words[i]}\" \"${words[i + 1]}\")\n"
          "            ((i++)) ;;\n"
          "        -*) ;;\n"
          "        *) cmd=${words[i]}; cmdi=$i; break ;;\n"
          "        esac\n"
          "    done\n"
          "    if [[ -z $cmd ]]; then\n"
          "        case $prev in\n",
          out);
    print_option_values(out, cli_global_options, "        ");
    fputs("        esac\n"
          "        if [[ $cur == -* ]]; then\n"
          "            _vbed_value words '",
          out);
    print_option_words(out, cli_global_options);
    fputs("'\n        else\n            _vbed_value words '", out);
    for (const struct cmd_entry *c = ctx->commands; c->name; c++)
        fprintf(out, "%s%s", word(c->name), c[1].name ? " " : "");
    fputs("'\n        fi\n        return\n    fi\n    case $cmd in\n", out);
    for (const struct cmd_entry *c = ctx->commands; c->name; c++)
        print_command(out, c);
    fputs("    esac\n} &&\n    complete -F _vbed vbed\n", out);
}
