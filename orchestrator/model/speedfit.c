/* speedfit.c: the machine's speed as a covariate of a guest arm's TPS
 * (see speedfit.h). */
#include "model/speedfit.h"

#include "model/model.h"
#include "util/xalloc.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the hosts the gauges were read on: the first, and whether another came */
struct hosts {
    const char *first;
    bool mixed;
};

/* The counted runs of c with a TPS and a gauge: log gauge and log TPS per
 * guest of each into x[] and y[] (room for c->tps_stats.n); how many. */
static size_t runs_of(const struct report_cell *c, double *x, double *y, struct hosts *h)
{
    size_t n = 0;
    for (size_t i = 0; i < c->tps_stats.n && c->per_guest && c->speed_run_ms; i++) {
        double u = c->speed_run_ms[i];
        if (!(u > 0) || !isfinite(u) || !(c->per_guest[i] > 0) || !isfinite(c->per_guest[i]))
            continue;
        const char *host = c->speed_run_host[i] ? c->speed_run_host[i] : "";
        if (!h->first)
            h->first = host;
        else if (strcmp(h->first, host) != 0)
            h->mixed = true;
        x[n] = log(u);
        y[n] = log(c->per_guest[i]);
        n++;
    }
    return n;
}

/* an arm's means, and the sums of its runs' deviations from them */
static void arm_sums(const double *x, const double *y, size_t n, struct speed_arm *m, double *sxx,
                     double *sxy, double *syy)
{
    memset(m, 0, sizeof(*m));
    for (size_t i = 0; i < n; i++) {
        m->x += x[i] / (double)n;
        m->y += y[i] / (double)n;
    }
    m->n = n;
    for (size_t i = 0; i < n; i++) {
        double dx = x[i] - m->x, dy = y[i] - m->y;
        *sxx += dx * dx;
        *sxy += dx * dy;
        *syy += dy * dy;
    }
}

/* cell c's runs into m (and the sums); false where its gauges came from
 * more than one host */
static bool arm_of(const struct report_cell *c, struct hosts *h, struct speed_arm *m, double *sxx,
                   double *sxy, double *syy)
{
    double *x = xcalloc(c->tps_stats.n + 1, sizeof(double));
    double *y = xcalloc(c->tps_stats.n + 1, sizeof(double));
    size_t n = runs_of(c, x, y, h);
    arm_sums(x, y, n, m, sxx, sxy, syy);
    free(x);
    free(y);
    return !h->mixed;
}

void speed_arm_of(const struct report_cell *c, struct speed_arm *out)
{
    struct hosts h = {0};
    double sxx = 0, sxy = 0, syy = 0;
    if (!arm_of(c, &h, out, &sxx, &sxy, &syy))
        memset(out, 0, sizeof(*out));
}

static void no(struct speed_fit *f, const char *why)
{
    f->valid = false;
    snprintf(f->why, sizeof(f->why), "%s", why);
}

/* every guest run of a variant with a gauge: its arm, log gauge, log TPS */
struct point {
    size_t arm;
    double x, y;
};

/* The pooled within-arm slope over pts but pts[skip] (skip >= n: none):
 * its Sxy / Sxx, residual sum of squares, Sxx, and the runs and arms it
 * used. false where Sxx is 0. */
static bool pooled(const struct point *pts, size_t n, size_t skip, size_t n_arms, double *slope,
                   double *rss, double *sxx_out, size_t *runs, size_t *arms)
{
    double sxx = 0, sxy = 0;
    double *mx = xcalloc(n_arms + 1, sizeof(double)), *my = xcalloc(n_arms + 1, sizeof(double));
    size_t *k = xcalloc(n_arms + 1, sizeof(size_t));
    for (size_t i = 0; i < n; i++)
        if (i != skip)
            mx[pts[i].arm] += pts[i].x, my[pts[i].arm] += pts[i].y, k[pts[i].arm]++;
    *runs = *arms = 0;
    for (size_t a = 0; a < n_arms; a++)
        if (k[a]) {
            mx[a] /= (double)k[a], my[a] /= (double)k[a];
            *runs += k[a];
            *arms += 1;
        }
    for (size_t i = 0; i < n; i++)
        if (i != skip) {
            double dx = pts[i].x - mx[pts[i].arm], dy = pts[i].y - my[pts[i].arm];
            sxx += dx * dx, sxy += dx * dy;
        }
    *sxx_out = sxx;
    bool moved = sxx > 0;
    if (moved) {
        /* the residuals summed directly: syy - e sxy cancels to rounding */
        *slope = sxy / sxx;
        *rss = 0;
        for (size_t i = 0; i < n; i++)
            if (i != skip) {
                double r = pts[i].y - my[pts[i].arm] - *slope * (pts[i].x - mx[pts[i].arm]);
                *rss += r * r;
            }
    }
    free(mx), free(my), free(k);
    return moved;
}

void speed_fit_variant(const struct report *r, size_t v, struct speed_fit *out)
{
    speed_fit_variant_without(r, v, -1, out);
}

void speed_fit_variant_without(const struct report *r, size_t v, int skip_arm, struct speed_fit *out)
{
    memset(out, 0, sizeof(*out));
    out->slope = out->slope_half = out->sd = out->loo_lo = out->loo_hi = out->loo_spread = NAN;
    out->gauge = SPEEDFIT_GAUGE;
    struct hosts h = {0};
    size_t cap = 0, n = 0;
    for (size_t a = 0; a < r->rd->n_arms; a++)
        cap += r->variants[v].cells[a].tps_stats.n;
    struct point *pts = xcalloc(cap + 1, sizeof(*pts));
    double *x = xcalloc(cap + 1, sizeof(double)), *y = xcalloc(cap + 1, sizeof(double));
    for (size_t a = 0; a < r->rd->n_arms; a++) {
        if (strcmp(r->rd->arms[a].kind, "guest") != 0 || (int)a == skip_arm)
            continue;
        size_t k = runs_of(&r->variants[v].cells[a], x, y, &h);
        for (size_t i = 0; i < k; i++)
            pts[n++] = (struct point){a, x[i], y[i]};
    }
    free(x);
    free(y);
    double rss = 0;
    if (h.mixed) {
        no(out, "the guest arms' speed gauges were read on more than one host");
    } else if (!n) {
        no(out, "no guest run recorded the machine's speed gauge");
    } else {
        bool moved = pooled(pts, n, n, r->rd->n_arms, &out->slope, &rss, &out->sxx, &out->runs,
                            &out->arms);
        out->df = fmax(0, (double)out->runs - (double)out->arms - 1);
        if (out->df < SPEEDFIT_MIN_DF)
            no(out, "too few repeats with a speed gauge to fit how TPS follows it");
        else if (!moved)
            no(out, "the speed gauge did not move within an arm");
        else {
            out->sd = sqrt(rss / out->df);
            out->slope_half = gsl_cdf_tdist_Pinv(0.975, out->df) * out->sd / sqrt(out->sxx);
            out->valid = true;
            /* leave one run out: the elasticity without it; a run whose
             * absence leaves the gauge unmoved makes the spread infinite */
            out->loo_lo = out->loo_hi = out->slope;
            out->loo_spread = 0;
            for (size_t i = 0; i < n; i++) {
                double e, rss_i, sxx_i;
                size_t runs_i, arms_i;
                if (!pooled(pts, n, i, r->rd->n_arms, &e, &rss_i, &sxx_i, &runs_i, &arms_i)) {
                    out->loo_spread = INFINITY;
                    continue;
                }
                out->loo_lo = fmin(out->loo_lo, e);
                out->loo_hi = fmax(out->loo_hi, e);
                out->loo_spread = fmax(out->loo_spread, fabs(e - out->slope));
            }
            if (!(out->loo_spread <= fabs(out->slope))) {
                out->valid = false;
                if (isfinite(out->loo_spread))
                    snprintf(out->why, sizeof(out->why),
                             "without one run the elasticity moves from %.2f to %.2f, more than "
                             "its own size: the fit rests on single runs",
                             out->slope, fabs(out->loo_lo - out->slope) > fabs(out->loo_hi - out->slope)
                                             ? out->loo_lo : out->loo_hi);
                else
                    no(out, "without one run the speed gauge does not move within an arm: the fit "
                            "rests on a single run");
            }
        }
    }
    free(pts);
}

bool speed_compare(const struct speed_fit *f, const struct speed_arm *a, const struct speed_arm *g,
                   double *log_ratio, double *half)
{
    *log_ratio = *half = NAN;
    if (!f->valid || a->n < 2 || g->n < 2)
        return false;
    double dx = a->x - g->x;
    *log_ratio = a->y - g->y - f->slope * dx;
    *half = gsl_cdf_tdist_Pinv(0.975, f->df) * f->sd *
            sqrt(1.0 / (double)a->n + 1.0 / (double)g->n + dx * dx / f->sxx);
    return true;
}

bool speed_ratio(const struct report *r, size_t v, size_t arm, double *ratio, double *lo,
                 double *hi)
{
    *ratio = *lo = *hi = NAN;
    int first = r->first_guest_arm;
    if (first < 0 || (int)arm <= first || arm >= r->rd->n_arms ||
        strcmp(r->rd->arms[arm].kind, "guest") != 0)
        return false;
    struct speed_fit f;
    struct speed_arm a, g;
    double log_ratio, half;
    speed_fit_variant(r, v, &f);
    speed_arm_of(&r->variants[v].cells[arm], &a);
    speed_arm_of(&r->variants[v].cells[first], &g);
    if (!speed_compare(&f, &a, &g, &log_ratio, &half))
        return false;
    *ratio = exp(log_ratio);
    *lo = exp(log_ratio - half);
    *hi = exp(log_ratio + half);
    return true;
}

void speed_ratios_text(const struct report *r, size_t v, char *buf, size_t len)
{
    buf[0] = '\0';
    struct speed_fit f;
    speed_fit_variant(r, v, &f);
    if (!f.valid || len == 0)
        return;
    size_t used = (size_t)snprintf(
        buf, len,
        "At one machine speed (TPS per guest as the host's speed gauge to the power %.2f +- %.2f, "
        "%.2f to %.2f leaving one run out, fitted within each guest arm's repeats over %zu runs): ",
        f.slope, f.slope_half, f.loo_lo, f.loo_hi, f.runs);
    size_t shown = 0;
    for (size_t a = 0; a < r->rd->n_arms && used < len; a++) {
        double ratio, lo, hi;
        if (!speed_ratio(r, v, a, &ratio, &lo, &hi))
            continue;
        used += (size_t)snprintf(buf + used, len - used, "%s%s/%s %.3f per guest (95 %% CI %.3f to %.3f)",
                                 shown++ ? ", " : "", r->rd->arms[a].name,
                                 r->rd->arms[r->first_guest_arm].name, ratio, lo, hi);
    }
    if (!shown)
        buf[0] = '\0';
    else if (used < len)
        snprintf(buf + used, len - used, ".");
}

