/* fuzz_results.c: a results directory (meta.json, samples.jsonl,
 * scenario.ini) through results_read (results/readdir.c), the reader that
 * vbed report and vbed compare use on directories other people made.
 * The input holds the three files separated by NUL bytes; they are written
 * into a scratch directory, because results_read takes a directory. What
 * it accepts goes through report_build (and so gap.c's model) and the
 * json format, as vbed report would, and into vbed list's entry (runlist.c)
 * printed in every format; meta.json alone goes through results_read_meta
 * (the URIs that vbed list --uris offers the shell completion); what
 * results_read accepts is also set against a recorded run
 * (tests/data/results/quickstart-layers, when run from the source tree;
 * else against itself) by vbed compare's compare_build, both ways, and
 * printed in every format; and the raw input through termtext_escape,
 * which vbed list shows names with. */
#include "fuzz.h"
#include "report/compare.h"
#include "report/report.h"
#include "results/resultsread.h"
#include "report/runlist.h"
#include "util/termtext.h"

#include <stdio.h>
#include <unistd.h>

static char dir[64];
static struct results_data *recorded; /* the other side of vbed compare */
static struct report *recorded_report;
static const char *const names[] = {"meta.json", "samples.jsonl", "scenario.ini"};

static void remove_dir(void)
{
    for (size_t i = 0; i < 3; i++) {
        char path[128];
        snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
        unlink(path);
    }
    rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_quiet();
    snprintf(dir, sizeof(dir), "%s/vbed-fuzz-results-XXXXXX", access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
    if (!mkdtemp(dir))
        abort();
    atexit(remove_dir);
    recorded = results_read("tests/data/results/quickstart-layers");
    if (recorded)
        recorded_report = report_build(recorded);
    return 0;
}

static void put(const char *name, const uint8_t *data, size_t len, bool present)
{
    char path[128];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    if (!present) {
        unlink(path);
        return;
    }
    FILE *f = fopen(path, "wb");
    if (!f)
        abort();
    fwrite(data, 1, len, f);
    fclose(f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *p = data, *end = data + size;
    for (size_t i = 0; i < 3; i++) {
        const uint8_t *nul = p < end ? memchr(p, '\0', (size_t)(end - p)) : NULL;
        const uint8_t *stop = nul ? nul : end;
        put(names[i], p, (size_t)(stop - p), p < end || i == 0);
        p = nul ? nul + 1 : end;
    }
    struct results_data *rd = results_read(dir);
    if (rd) {
        for (size_t i = 0; i < rd->n_runs; i++)
            results_run_in_variant(&rd->runs[i], 1);
        results_is_tcg(rd);
        static FILE *devnull;
        if (!devnull && !(devnull = fopen("/dev/null", "w")))
            abort();
        struct report *r = report_build(rd);
        report_print(r, REPORT_JSON, devnull);
        struct runlist l = {.v = calloc(1, sizeof(struct runlist_entry)), .n = 1, .cap = 1};
        if (!l.v)
            abort();
        l.v[0].dir = strdup(dir);
        runlist_entry_fill(&l.v[0], rd, r);
        runlist_sort(&l);
        for (int f = REPORT_TABLE; f <= REPORT_MARKDOWN; f++)
            runlist_print(&l, (enum report_format)f, devnull);
        runlist_free(&l);
        const struct report *other = recorded_report ? recorded_report : r;
        for (int way = 0; way < 2; way++) {
            struct comparison *c = way ? compare_build(other, r) : compare_build(r, other);
            for (int f = REPORT_TABLE; f <= REPORT_MARKDOWN; f++)
                compare_print(c, (enum report_format)f, devnull);
            compare_free(c);
        }
        report_free(r);
    }
    results_data_free(rd);
    rd = results_read_meta(dir);
    for (size_t i = 0; rd && i < rd->n_uris; i++)
        if (!results_valid_host_label(rd->uris[i]))
            abort();
    results_data_free(rd);
    char *text = fuzz_text(data, size);
    free(termtext_escape(text, size % 64));
    free(termtext_escape_message(text, 0));
    free(text);
    return 0;
}
