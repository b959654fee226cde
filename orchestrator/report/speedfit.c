/* speedfit.c: the machine's speed as a covariate of a guest arm's TPS
 * (see speedfit.h). */
#include "report/speedfit.h"

#include "report/report.h"
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

void speed_fit_variant(const struct report *r, size_t v, struct speed_fit *out)
{
    memset(out, 0, sizeof(*out));
    out->slope = out->slope_half = out->sd = NAN;
    out->gauge = SPEEDFIT_GAUGE;
    struct hosts h = {0};
    double sxx = 0, sxy = 0, syy = 0;
    for (size_t a = 0; a < r->rd->n_arms; a++) {
        if (strcmp(r->rd->arms[a].kind, "guest") != 0)
            continue;
        struct speed_arm arm;
        if (!arm_of(&r->variants[v].cells[a], &h, &arm, &sxx, &sxy, &syy))
            return no(out, "the guest arms' speed gauges were read on more than one host");
        out->runs += arm.n;
        out->arms += arm.n > 0;
    }
    out->sxx = sxx;
    out->df = fmax(0, (double)out->runs - (double)out->arms - 1);
    if (!out->runs)
        return no(out, "no guest run recorded the machine's speed gauge");
    if (out->df < SPEEDFIT_MIN_DF)
        return no(out, "too few repeats with a speed gauge to fit how TPS follows it");
    if (!(sxx > 0))
        return no(out, "the speed gauge did not move within an arm");
    out->slope = sxy / sxx;
    out->sd = sqrt(fmax(0, syy - out->slope * sxy) / out->df);
    out->slope_half = gsl_cdf_tdist_Pinv(0.975, out->df) * out->sd / sqrt(sxx);
    out->valid = true;
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
        "fitted within each guest arm's repeats over %zu runs): ",
        f.slope, f.slope_half, f.runs);
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

