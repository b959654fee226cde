/* test_stats.c: statistics against values computed independently.
 *
 * Reference values were computed with mpmath 1.3 at 30 digits (Python):
 * means and sample variances by plain sums, Student-t quantiles by root
 * finding on the regularized incomplete beta function, Welch's p value as
 * betainc(df/2, 1/2, 0, df/(df+t^2), regularized=True). The samples of the
 * Welch tests are the examples of Wikipedia's "Welch's t-test" article
 * (Welch: t = -2.46, df = 24.99, p = 0.021; t = -2.22, df = 24.52, p = 0.036). */
#include "testutil.h"
#include "model/stats.h"

#include <math.h>

#define NUM(a) (sizeof(a) / sizeof((a)[0]))

/* cmocka 1.1.5 compares floats only: compare doubles within eps (NAN fails) */
#define assert_double_equal(actual, expected, eps)                                                 \
    assert_near_at((actual), (expected), (eps), #actual, __FILE__, __LINE__)
static void assert_near_at(double actual, double expected, double eps, const char *what,
                           const char *file, int line)
{
    if (fabs(actual - expected) <= eps)
        return;
    print_error("%s is %.15g, expected %.15g (+- %g)\n", what, actual, expected, eps);
    _fail(file, line);
}

static const double a1[] = {27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1,
                            21.9, 22.6, 23.1, 19.6, 19.0, 21.7, 21.4};
static const double a2[] = {27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0,
                            24.8, 20.2, 21.9, 22.1, 22.9, 20.5, 24.4};
static const double c1[] = {19.8, 20.4, 19.6, 17.8, 18.5, 18.9, 18.3, 18.9, 19.5, 22.0};
static const double c2[] = {28.2, 26.6, 20.1, 23.3, 25.2, 22.1, 17.7, 27.6, 20.6, 13.7,
                            23.2, 17.5, 20.6, 18.0, 23.9, 21.6, 24.3, 20.4, 23.9, 13.3};

static void summary_small(void **state)
{
    (void)state;
    /* 1, 2, 3: mean 2, sd 1; t(0.975, 2) = 4.30265272974946 (closed form for
     * 2 degrees of freedom: 0.95 / sqrt(2 * 0.975 * 0.025)) */
    const double v[] = {1, 2, 3};
    struct stats_summary s;
    stats_summarize(v, 3, &s);
    assert_int_equal(s.n, 3);
    assert_double_equal(s.mean, 2.0, 1e-12);
    assert_double_equal(s.sd, 1.0, 1e-12);
    assert_double_equal(s.ci95_half, 2.48413771175033, 1e-9);
    assert_double_equal(s.ci95_low, 2.0 - 2.48413771175033, 1e-9);
    assert_double_equal(s.ci95_high, 2.0 + 2.48413771175033, 1e-9);
    assert_double_equal(s.cv, 0.5, 1e-12);
}

static void summary_textbook(void **state)
{
    (void)state;
    struct stats_summary s;
    stats_summarize(a1, NUM(a1), &s);
    assert_int_equal(s.n, 15);
    assert_double_equal(s.mean, 20.82, 1e-9);
    assert_double_equal(s.sd, 2.80489368273177, 1e-9);
    /* t(0.975, 14) = 2.14478668791780 */
    assert_double_equal(s.ci95_half, 1.55329834754876, 1e-9);
    assert_double_equal(s.cv, 0.134721118286829, 1e-9);
}

static void summary_degenerate(void **state)
{
    (void)state;
    struct stats_summary s;
    const double one[] = {41.5};
    stats_summarize(one, 1, &s);
    assert_int_equal(s.n, 1);
    assert_double_equal(s.mean, 41.5, 0);
    assert_double_equal(s.sd, 0, 0);
    assert_double_equal(s.ci95_low, 41.5, 0);
    assert_double_equal(s.ci95_high, 41.5, 0);
    assert_double_equal(s.ci95_half, 0, 0);
    assert_double_equal(s.cv, 0, 0);

    stats_summarize(NULL, 0, &s);
    assert_int_equal(s.n, 0);
    assert_double_equal(s.mean, 0, 0);

    const double same[] = {7, 7, 7, 7};
    stats_summarize(same, 4, &s);
    assert_double_equal(s.sd, 0, 0);
    assert_double_equal(s.ci95_half, 0, 0);
    assert_double_equal(s.cv, 0, 0);

    const double zero_mean[] = {-1, 1};
    stats_summarize(zero_mean, 2, &s);
    assert_true(isnan(s.cv));
}

static void welch_textbook(void **state)
{
    (void)state;
    struct stats_welch w;
    assert_int_equal(stats_welch_test(a1, NUM(a1), a2, NUM(a2), &w), 0);
    assert_double_equal(w.t, -2.45535639829, 1e-9);
    assert_double_equal(w.df, 24.9885292902, 1e-8);
    assert_double_equal(w.p, 0.0213780014629, 1e-9);
    assert_true(w.significant);

    assert_int_equal(stats_welch_test(c1, NUM(c1), c2, NUM(c2), &w), 0);
    assert_double_equal(w.t, -2.22551203997, 1e-9);
    assert_double_equal(w.df, 24.5246349443, 1e-8);
    assert_double_equal(w.p, 0.03548453083, 1e-9);
    assert_true(w.significant);

    /* swapping the sides flips t, keeps p */
    assert_int_equal(stats_welch_test(c2, NUM(c2), c1, NUM(c1), &w), 0);
    assert_double_equal(w.t, 2.22551203997, 1e-9);
    assert_double_equal(w.p, 0.03548453083, 1e-9);
}

static void welch_not_significant(void **state)
{
    (void)state;
    /* overlapping samples: t = 0.612372, df = 4, p = 0.573392 (mpmath) */
    const double x[] = {10, 11, 12}, y[] = {9.5, 10.5, 11.5};
    struct stats_welch w;
    assert_int_equal(stats_welch_test(x, 3, y, 3, &w), 0);
    assert_double_equal(w.t, 0.612372435695795, 1e-9);
    assert_double_equal(w.df, 4, 1e-9);
    assert_double_equal(w.p, 0.573392253825355, 1e-9);
    assert_false(w.significant);
}

static void welch_edge_cases(void **state)
{
    (void)state;
    struct stats_welch w;
    const double x[] = {1, 2, 3}, one[] = {5};
    assert_int_equal(stats_welch_test(x, 3, one, 1, &w), -1);
    assert_int_equal(stats_welch_test(one, 1, x, 3, &w), -1);
    const double s1[] = {4, 4}, s2[] = {4, 4, 4}, s3[] = {6, 6};
    assert_int_equal(stats_welch_test(s1, 2, s2, 3, &w), 0);
    assert_double_equal(w.p, 1, 0);
    assert_false(w.significant);
    assert_int_equal(stats_welch_test(s1, 2, s3, 2, &w), 0);
    assert_true(isinf(w.t) && w.t < 0);
    assert_double_equal(w.p, 0, 0);
    assert_true(w.significant);
}

static void slope(void **state)
{
    (void)state;
    /* the classic least-squares example: y = 2.2 + 0.6 x */
    const double x[] = {1, 2, 3, 4, 5}, y[] = {2, 4, 5, 4, 5};
    assert_double_equal(stats_slope(x, y, 5), 0.6, 1e-12);
    const double y2[] = {10, 8, 6, 4, 2};
    assert_double_equal(stats_slope(x, y2, 5), -2.0, 1e-12);
    assert_double_equal(stats_slope(x, y, 1), 0, 0);
    const double flat_x[] = {3, 3, 3};
    assert_double_equal(stats_slope(flat_x, y, 3), 0, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(summary_small),
        cmocka_unit_test(summary_textbook),
        cmocka_unit_test(summary_degenerate),
        cmocka_unit_test(welch_textbook),
        cmocka_unit_test(welch_not_significant),
        cmocka_unit_test(welch_edge_cases),
        cmocka_unit_test(slope),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
