/* test_samples.c: the samples.jsonl writer. Many threads add samples at
 * once (as the guests' workers do): every sample of a run must reach the
 * file exactly once, every line must parse and carry its run's labels. Then
 * the same while the main thread ends and begins runs under the workers
 * (samples added between two runs have no run and are dropped; none may be
 * written twice or torn). Run it under ThreadSanitizer too (make check-tsan);
 * without the writer's lock json-c's arrays corrupt the heap or lose
 * samples here. */
#include "testutil.h"
#include "results/samples.h"

#include <json-c/json.h>
#include <pthread.h>
#include <stdbool.h>

#define THREADS 16
#define PER_THREAD 2000

struct worker {
    struct samples *s;
    int n;
};

static void *add_many(void *arg)
{
    struct worker *w = arg;
    for (int i = 0; i < PER_THREAD; i++) {
        json_object *extra = json_object_new_object();
        json_object_object_add(extra, "worker", json_object_new_int(w->n));
        json_object_object_add(extra, "i", json_object_new_int(i));
        samples_add(w->s, "tps_interval", i, "tx/s", w->n, "/nowhere/sysbench.out", 1.0, extra);
    }
    return NULL;
}

static json_object *run_labels(int run)
{
    json_object *l = json_object_new_object();
    json_object_object_add(l, "scenario", json_object_new_string("hammer"));
    json_object_object_add(l, "seq", json_object_new_int(run));
    return l;
}

/* Start the workers; with churn, end and begin runs until they finish. */
static void hammer(struct samples *s, bool churn, int *run)
{
    pthread_t t[THREADS];
    struct worker w[THREADS];
    for (int i = 0; i < THREADS; i++) {
        w[i] = (struct worker){.s = s, .n = i + 1};
        assert_int_equal(pthread_create(&t[i], NULL, add_many, &w[i]), 0);
    }
    for (int k = 0; churn && k < 200; k++) {
        assert_int_equal(samples_end_run(s), 0);
        json_object *l = run_labels(++*run);
        samples_begin_run(s, l);
        json_object_put(l);
    }
    for (int i = 0; i < THREADS; i++)
        pthread_join(t[i], NULL);
    assert_int_equal(samples_end_run(s), 0);
}

/* Check every line of dir/samples.jsonl; the number of lines. */
static size_t check_lines(const char *dir)
{
    char path[PATH_MAX];
    snprintf(path, sizeof(path), "%s/samples.jsonl", dir);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    static unsigned char seen[THREADS + 1][PER_THREAD];
    memset(seen, 0, sizeof(seen));
    char line[4096];
    size_t lines = 0;
    while (fgets(line, sizeof(line), f)) {
        json_object *o = json_tokener_parse(line), *labels, *v;
        assert_non_null(o);
        assert_true(json_object_object_get_ex(o, "labels", &labels));
        assert_true(json_object_object_get_ex(labels, "scenario", &v));
        assert_string_equal(json_object_get_string(v), "hammer");
        assert_true(json_object_object_get_ex(labels, "worker", &v));
        int wk = json_object_get_int(v);
        assert_true(json_object_object_get_ex(labels, "i", &v));
        int i = json_object_get_int(v);
        assert_true(wk >= 1 && wk <= THREADS && i >= 0 && i < PER_THREAD);
        assert_int_equal(seen[wk][i], 0); /* never twice */
        seen[wk][i] = 1;
        assert_true(json_object_object_get_ex(o, "source", &v));
        assert_string_equal(json_object_get_string(v), "/nowhere/sysbench.out");
        json_object_put(o);
        lines++;
    }
    fclose(f);
    return lines;
}

static void many_threads(void **state)
{
    (void)state;
    char dir[] = "/tmp/vbed-samples-XXXXXX";
    assert_non_null(mkdtemp(dir));
    struct samples *s = samples_open(dir);
    assert_non_null(s);
    int run = 1;
    json_object *l = run_labels(run);
    samples_begin_run(s, l);
    json_object_put(l);
    hammer(s, false, &run);
    samples_close(s);
    assert_int_equal(check_lines(dir), (size_t)THREADS * PER_THREAD); /* none lost */
    test_remove_dir(dir);
}

static void runs_end_under_the_workers(void **state)
{
    (void)state;
    char dir[] = "/tmp/vbed-samples-XXXXXX";
    assert_non_null(mkdtemp(dir));
    struct samples *s = samples_open(dir);
    assert_non_null(s);
    int run = 1;
    json_object *l = run_labels(run);
    samples_begin_run(s, l);
    json_object_put(l);
    hammer(s, true, &run);
    samples_close(s);
    assert_true(check_lines(dir) <= (size_t)THREADS * PER_THREAD);
    test_remove_dir(dir);
}

/* a sample's source inside the results directory is written relative to it */
static void relative_source(void **state)
{
    (void)state;
    char dir[] = "/tmp/vbed-samples-XXXXXX";
    assert_non_null(mkdtemp(dir));
    struct samples *s = samples_open(dir);
    assert_non_null(s);
    json_object *l = run_labels(1);
    samples_begin_run(s, l);
    json_object_put(l);
    char src[PATH_MAX];
    snprintf(src, sizeof(src), "%s/runs/001-guest/guest-1/sysbench.out", dir);
    samples_add(s, "tps", 41.5, "tx/s", 1, src, 1700000000.0, NULL);
    assert_int_equal(samples_end_run(s), 0);
    samples_close(s);
    char path[PATH_MAX];
    snprintf(path, sizeof(path), "%s/samples.jsonl", dir);
    char *text = test_read_file(path);
    assert_non_null(text);
    assert_string_equal(text, "{\"metric\":\"tps\",\"value\":41.5,\"unit\":\"tx/s\",\"labels\":{"
                              "\"scenario\":\"hammer\",\"seq\":1,\"guest\":1},\"timestamp\":"
                              "1700000000.0,\"source\":\"runs/001-guest/guest-1/sysbench.out\"}\n");
    free(text);
    test_remove_dir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(many_threads),
        cmocka_unit_test(runs_end_under_the_workers),
        cmocka_unit_test(relative_source),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
