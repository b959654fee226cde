/* fuzz.h: what every libFuzzer target of vbed shares: vbed's messages go
 * nowhere (a parser reporting bad input is the expected path, not news), and
 * the input as a NUL-terminated copy. Built by `make fuzz` with clang
 * -fsanitize=fuzzer,address,undefined. */
#ifndef VBED_FUZZ_H
#define VBED_FUZZ_H

#include "targets/sql.h"
#include "util/log.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void fuzz_quiet_sink(const char *line, void *opaque)
{
    (void)line;
    (void)opaque;
}

static inline void fuzz_quiet(void) { log_set_sink(fuzz_quiet_sink, NULL); }

/* libFuzzer's start-up hook of a target that needs nothing but quiet */
#define FUZZ_INITIALIZE_QUIET                                                                      \
    int LLVMFuzzerInitialize(int *argc, char ***argv)                                              \
    {                                                                                              \
        (void)argc;                                                                                \
        (void)argv;                                                                                \
        fuzz_quiet();                                                                              \
        return 0;                                                                                  \
    }

/* data as a C string (malloc'd); a NUL inside ends it, as a text file
 * reader would have refused the rest */
static inline char *fuzz_text(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        abort();
    memcpy(text, data, size);
    text[size] = '\0';
    return text;
}

/* text as the agent's mariadb --batch gives rows: a line per row, cells
 * separated by tabs, every row as wide as the first (at most 8 cells) */
static inline void fuzz_rows(char *text, struct sql_result *r)
{
    r->rows = r->cols = 0;
    r->cells = NULL;
    size_t cap = 0;
    for (char *line = text, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        size_t cols = 1;
        for (char *p = line; *p; p++)
            cols += *p == '\t';
        if (!r->rows)
            r->cols = cols > 8 ? 8 : cols;
        if (cols != r->cols)
            continue;
        if ((r->rows + 1) * r->cols > cap) {
            cap = (r->rows + 1) * r->cols * 2;
            r->cells = realloc(r->cells, cap * sizeof(char *));
            if (!r->cells)
                abort();
        }
        char *cell = line;
        for (size_t c = 0; c < r->cols; c++) {
            char *tab = strchr(cell, '\t');
            if (tab)
                *tab = '\0';
            r->cells[r->rows * r->cols + c] = cell;
            cell = tab ? tab + 1 : cell + strlen(cell);
        }
        r->rows++;
    }
}

#endif
