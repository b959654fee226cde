/* test_speedfit.c: the machine's speed as a covariate (model/speedfit.h)
 * on hand-made results whose TPS per guest follows the host's speed gauge
 * as TPS = a_arm x (gauge / 13)^-3 (x a noise factor where said).
 *
 *   guest         a 10, gauges 12.5, 13.0, 14.0
 *   tuned         a  8, gauges 14.0, 14.5, 15.0  (measured on a slower machine)
 *   tuned_memory  a 15, gauges 12.0, 12.5, 13.0
 *   host          TPS 200 whatever its gauge (11, 13, 15): left out of the fit
 *
 * Without noise the fit finds e = -3 exactly, and tuned against guest at
 * one speed is 0.8, while the ratio of their mean TPS is far below it. */
#include "testutil.h"
#include "report/report.h"
#include "model/speedfit.h"

#include <math.h>

static const char *const arm_name[] = {"host", "guest", "tuned", "tuned_memory"};
static const double arm_a[] = {200, 10, 8, 15};
static const double gauge[4][3] = {
    {11, 13, 15}, {12.5, 13.0, 14.0}, {14.0, 14.5, 15.0}, {12.0, 12.5, 13.0}};

/* memory: TPS follows a memory gauge (host_memory_unit_ms, 20 x the
 * table's gauge) and the zlib gauge reads 13 +- 1 whatever TPS does */
static bool memory = false;
/* outlier: every guest arm's TPS rises a little with the gauge (x
 * (gauge / 13)^0.5, no -3), but guest's third run is 40 % down: the only
 * run that says TPS falls as the gauge rises */
static bool outlier = false;

/* noise: a factor per repeat (1 everywhere: none); repeats: 1..3;
 * hosts: the gauges' host label of tuned's runs ("" none) */
static char *make_results(const double noise[3], int repeats, const char *tuned_host,
                          bool gauge_missing)
{
    char *dir = strdup("/tmp/vbed-test-speedfit.XXXXXX");
    assert_non_null(dir);
    assert_non_null(mkdtemp(dir));
    char *meta = NULL, *samples = NULL;
    size_t ml = 0, sl = 0;
    FILE *m = open_memstream(&meta, &ml), *s = open_memstream(&samples, &sl);
    assert_non_null(m);
    assert_non_null(s);
    fprintf(m, "{\"status\": \"complete\", \"accel\": \"tcg\", \"scenario\": {\"name\": \"fit\"},\n"
               " \"variants\": [{\"index\": 1, \"label\": \"one\"}],\n"
               " \"arms\": [{\"name\": \"host\", \"kind\": \"host\"}, {\"name\": \"guest\", "
               "\"kind\": \"guest\"}, {\"name\": \"tuned\", \"kind\": \"guest\"}, {\"name\": "
               "\"tuned_memory\", \"kind\": \"guest\"}],\n \"runs\": [");
    int seq = 0;
    for (int r = 0; r < repeats; r++)
        for (int a = 0; a < 4; a++) {
            seq++;
            int guests = a == 0 ? 1 : 2;
            fprintf(m,
                    "%s\n  {\"seq\": %d, \"arm\": \"%s\", \"repeat\": %d, \"variants\": [1], "
                    "\"status\": \"ok\", \"config\": {\"guests\": \"%d\"}}",
                    seq > 1 ? "," : "", seq, arm_name[a], r + 1, guests);
            double u = gauge[a][r];
            double tps = a == 0 ? arm_a[a] : arm_a[a] * pow(u / 13, -3) * noise[r];
            if (outlier && a > 0)
                tps = arm_a[a] * pow(u / 13, 0.5) * (a == 1 && r == 2 ? 0.6 : 1);
            fprintf(s,
                    "{\"metric\":\"tps_arm\",\"value\":%.12g,\"labels\":{\"arm\":\"%s\",\"seq\":%d,"
                    "\"variants\":[1]}}\n",
                    tps * guests, arm_name[a], seq);
            if (gauge_missing && a == 1 && r == 2)
                continue;
            if (memory)
                fprintf(s,
                        "{\"metric\":\"host_memory_unit_ms\",\"value\":%.12g,\"labels\":{\"arm\":"
                        "\"%s\",\"seq\":%d,\"variants\":[1]}}\n",
                        20 * u, arm_name[a], seq);
            fprintf(s,
                    "{\"metric\":\"host_speed_unit_ms\",\"value\":%.12g,\"labels\":{\"arm\":\"%s\","
                    "\"seq\":%d,\"variants\":[1]%s%s%s}}\n",
                    memory ? 13 + (seq % 3) - 1 : u, arm_name[a], seq, a == 2 && *tuned_host ? ",\"host\":\"" : "",
                    a == 2 ? tuned_host : "", a == 2 && *tuned_host ? "\"" : "");
            /* hostile gauges are not readings */
            fprintf(s,
                    "{\"metric\":\"host_speed_unit_ms\",\"value\":-1,\"labels\":{\"arm\":\"%s\","
                    "\"seq\":%d,\"variants\":[1]}}\n",
                    arm_name[a], seq);
        }
    fprintf(m, "]}\n");
    fclose(m);
    fclose(s);
    test_write_file(dir, "meta.json", meta);
    test_write_file(dir, "samples.jsonl", samples);
    free(meta);
    free(samples);
    return dir;
}

struct built {
    char *dir;
    struct results_data *rd;
    struct report *r;
};

static struct built build(const double noise[3], int repeats, const char *tuned_host,
                          bool gauge_missing)
{
    struct built b = {.dir = make_results(noise, repeats, tuned_host, gauge_missing)};
    b.rd = results_read(b.dir);
    assert_non_null(b.rd);
    b.r = report_build(b.rd);
    assert_non_null(b.r);
    return b;
}

static void unbuild(struct built *b)
{
    report_free(b->r);
    results_data_free(b->rd);
    test_remove_dir(b->dir);
    free(b->dir);
}

static const double quiet[3] = {1, 1, 1};

/* three quiet repeats with one of the knobs above (memory, outlier) set */
static struct built build_with(bool *knob)
{
    *knob = true;
    struct built b = build(quiet, 3, "", false);
    *knob = false;
    return b;
}

static void fitted_without_noise(void **state)
{
    (void)state;
    struct built b = build(quiet, 3, "", false);
    struct speed_fit f;
    speed_fit_variant(b.r, 0, &f);
    assert_true(f.valid);
    /* the host arm's runs (TPS flat against its gauge) are not in it */
    assert_int_equal(f.runs, 9);
    assert_int_equal(f.arms, 3);
    assert_near(f.df, 5, 0);
    assert_near(f.slope, -3, 1e-9);
    assert_near(f.sd, 0, 1e-9);

    struct speed_arm g, t;
    speed_arm_of(&b.r->variants[0].cells[1], &g);
    speed_arm_of(&b.r->variants[0].cells[2], &t);
    assert_int_equal(g.n, 3);
    assert_near(g.x, (log(12.5) + log(13) + log(14)) / 3, 1e-12);
    double ratio, half;
    assert_true(speed_compare(&f, &t, &g, &ratio, &half));
    assert_near(exp(ratio), 0.8, 1e-9);
    assert_near(half, 0, 1e-9);
    /* the ratios to the first guest arm at one speed, and their sentence */
    double lo, hi;
    assert_true(speed_ratio(b.r, 0, 2, &ratio, &lo, &hi));
    assert_near(ratio, 0.8, 1e-9);
    assert_near(lo, 0.8, 1e-9);
    assert_near(hi, 0.8, 1e-9);
    assert_true(speed_ratio(b.r, 0, 3, &ratio, &lo, &hi));
    assert_near(ratio, 1.5, 1e-9);
    assert_false(speed_ratio(b.r, 0, 1, &ratio, &lo, &hi)); /* the first guest arm itself */
    assert_false(speed_ratio(b.r, 0, 0, &ratio, &lo, &hi)); /* the host arm */
    char text[1024];
    speed_ratios_text(b.r, 0, text, sizeof(text));
    assert_string_equal(text, "At one machine speed (TPS per guest as the host's speed gauge to the "
                              "power -3.00 +- 0.00, -3.00 to -3.00 leaving one run out, fitted within "
                              "each guest arm's repeats over 9 runs): tuned/guest 0.800 per guest (95 % CI 0.800 to 0.800), "
                              "tuned_memory/guest 1.500 per guest (95 % CI 1.500 to 1.500).");
    /* what the arms' means alone say: tuned ran on a slower machine */
    double raw = b.r->variants[0].cells[2].per_guest_stats.mean /
                 b.r->variants[0].cells[1].per_guest_stats.mean;
    assert_true(raw < 0.8 * 0.8);
    unbuild(&b);
}

/* With noise the slope comes from the within-arm deviations alone, and the
 * comparison's half-width carries the residuals and the slope's error. */
static void fitted_with_noise(void **state)
{
    (void)state;
    static const double noise[3] = {1.03, 0.97, 1.0};
    struct built b = build(noise, 3, "", false);
    struct speed_fit f;
    speed_fit_variant(b.r, 0, &f);
    assert_true(f.valid);
    /* by hand: each arm's deviations of x and of y (y = log a - 3 x + log
     * noise), pooled */
    double sxx = 0, sxy = 0, syy = 0;
    for (int a = 1; a < 4; a++) {
        double mx = 0, my = 0, x[3], y[3];
        for (int r = 0; r < 3; r++) {
            x[r] = log(gauge[a][r]);
            y[r] = log(arm_a[a]) - 3 * (x[r] - log(13)) + log(noise[r]);
            mx += x[r] / 3;
            my += y[r] / 3;
        }
        for (int r = 0; r < 3; r++) {
            sxx += (x[r] - mx) * (x[r] - mx);
            sxy += (x[r] - mx) * (y[r] - my);
            syy += (y[r] - my) * (y[r] - my);
        }
    }
    double e = sxy / sxx, sd = sqrt((syy - e * sxy) / 5);
    assert_near(f.slope, e, 1e-9);
    /* leave one out, by hand: each of the 9 runs dropped in turn */
    double l1 = e, h1 = e;
    for (int skip = 0; skip < 9; skip++) {
        double sx = 0, sy = 0;
        for (int a = 1; a < 4; a++) {
            double mx = 0, my = 0, x[3], y[3];
            int k = 0;
            for (int r = 0; r < 3; r++) {
                if ((a - 1) * 3 + r == skip)
                    continue;
                x[k] = log(gauge[a][r]);
                y[k] = log(arm_a[a]) - 3 * (x[k] - log(13)) + log(noise[r]);
                mx += x[k], my += y[k], k++;
            }
            mx /= k, my /= k;
            for (int i = 0; i < k; i++)
                sx += (x[i] - mx) * (x[i] - mx), sy += (x[i] - mx) * (y[i] - my);
        }
        l1 = fmin(l1, sy / sx), h1 = fmax(h1, sy / sx);
    }
    assert_near(f.loo_lo, l1, 1e-9);
    assert_near(f.loo_hi, h1, 1e-9);
    assert_near(f.loo_spread, fmax(e - l1, h1 - e), 1e-9);
    assert_true(f.loo_spread < fabs(f.slope));
    assert_true(fabs(f.slope + 3) > 0.01); /* the noise moved it */
    assert_near(f.sd, sd, 1e-9);
    assert_near(f.slope_half, 2.570581836 * sd / sqrt(sxx), 1e-6);
    struct speed_arm g, t;
    speed_arm_of(&b.r->variants[0].cells[1], &g);
    speed_arm_of(&b.r->variants[0].cells[2], &t);
    double ratio, half;
    assert_true(speed_compare(&f, &t, &g, &ratio, &half));
    double dx = t.x - g.x;
    assert_near(ratio, t.y - g.y - e * dx, 1e-9);
    assert_near(half, 2.570581836 * sd * sqrt(2.0 / 3 + dx * dx / sxx), 1e-6);
    /* the slope's error is in it: wider than the intercepts' alone */
    assert_true(half > 2.570581836 * sd * sqrt(2.0 / 3) * 1.05);
    double at, lo, hi;
    assert_true(speed_ratio(b.r, 0, 2, &at, &lo, &hi));
    assert_near(at, exp(ratio), 1e-12);
    assert_near(lo, exp(ratio - half), 1e-12);
    assert_near(hi, exp(ratio + half), 1e-12);
    assert_true(lo < 0.8 && 0.8 < hi); /* the CI holds the ratio the noise hid */
    unbuild(&b);
}

/* A fit that one run makes: TPS rises with the gauge in every run but one;
 * with it the pooled elasticity is negative, without it positive. Its CI
 * does not show that (df 5); leaving one run out does, and the fit is not
 * used: no ratio at one speed. */
static void resting_on_one_run(void **state)
{
    (void)state;
    struct built b = build_with(&outlier);
    struct speed_fit f;
    speed_fit_variant(b.r, 0, &f);
    assert_false(f.valid);
    assert_true(f.slope < 0);
    assert_true(f.loo_hi > 0); /* guest's third run left out */
    assert_true(f.loo_spread > fabs(f.slope));
    assert_non_null(strstr(f.why, "the fit rests on single runs"));
    double ratio, lo, hi;
    assert_false(speed_ratio(b.r, 0, 2, &ratio, &lo, &hi));
    char text[512];
    speed_ratios_text(b.r, 0, text, sizeof(text));
    assert_string_equal(text, "");
    unbuild(&b);
}

/* One repeat per arm leaves nothing to fit; a run without a gauge is left
 * out (not read as 0); gauges from two hosts are not one machine's. */
static void not_fitted(void **state)
{
    (void)state;
    struct built b = build(quiet, 1, "", false);
    struct speed_fit f;
    speed_fit_variant(b.r, 0, &f);
    assert_false(f.valid);
    assert_non_null(strstr(f.why, "too few repeats"));
    unbuild(&b);

    b = build(quiet, 3, "", true);
    speed_fit_variant(b.r, 0, &f);
    assert_true(f.valid);
    assert_int_equal(f.runs, 8);
    assert_near(f.slope, -3, 1e-9);
    struct speed_arm g;
    speed_arm_of(&b.r->variants[0].cells[1], &g);
    assert_int_equal(g.n, 2);
    unbuild(&b);

    b = build(quiet, 3, "qemu+ssh://other/system", false);
    speed_fit_variant(b.r, 0, &f);
    assert_false(f.valid);
    assert_non_null(strstr(f.why, "more than one host"));
    struct speed_arm t;
    speed_arm_of(&b.r->variants[0].cells[2], &t);
    double ratio, half;
    assert_false(speed_compare(&f, &t, &g, &ratio, &half));
    assert_true(isnan(ratio));
    char text[256];
    speed_ratios_text(b.r, 0, text, sizeof(text));
    assert_string_equal(text, "");
    unbuild(&b);
}

/* The zlib gauge, even where the memory gauge was read (and here TPS
 * follows the memory gauge, not it): the fit does not choose its covariate
 * by how well it fits. */
static void the_zlib_gauge(void **state)
{
    (void)state;
    struct built b = build_with(&memory);
    struct speed_fit f;
    speed_fit_variant(b.r, 0, &f);
    assert_string_equal(f.gauge, "host_speed_unit_ms");
    assert_true(!f.valid || fabs(f.slope + 3) > 0.5);
    unbuild(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fitted_without_noise),
        cmocka_unit_test(fitted_with_noise),
        cmocka_unit_test(not_fitted),
        cmocka_unit_test(resting_on_one_run),
        cmocka_unit_test(the_zlib_gauge),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
