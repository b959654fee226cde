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

/* text as the agent's mariadb --batch gives rows, through vbed's own
 * splitter (sql_rows_from_batch, the one every reading from a guest goes
 * through); free with sql_result_free */
static inline void fuzz_rows(const char *text, struct sql_result *r)
{
    memset(r, 0, sizeof(*r));
    sql_rows_from_batch(text, strlen(text), r);
}

#endif
