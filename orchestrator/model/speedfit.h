/* speedfit.h: the machine's speed as a covariate of a guest arm's TPS.
 *
 * The machine moves under a run: its speed gauge (host_speed_unit_ms, the
 * CPU ms of a zlib unit on the host during a run's measure phase,
 * hostside/speed.h) read 12.4 to 15.0 ms within one session here, and a
 * guest under emulation (TCG) moved several times as much: log TPS per
 * guest against log gauge had r = -0.92 to -0.96 and a slope of about -3
 * over 24 guest runs (README). Two arms measured minutes apart then differ
 * by the machine as much as by their configuration, and repeats of one
 * arm spread by tens of per cent.
 *
 * The fit: over the counted runs of a variant's guest arms, each run's log
 * TPS per guest y and log gauge x,
 *
 *   y = a_arm + e x + noise
 *
 * one intercept per arm and one elasticity e shared by them (pooled
 * within-arm least squares: e = Sxy / Sxx over the deviations from each
 * arm's means). The host arm is left out: a bare mariadbd follows the CPU
 * by its own share, not the emulator's. s is the residual sd, with df =
 * runs - arms - 1 degrees of freedom (arms that ran once add nothing).
 * Its slope is the run's own, fitted on how each arm's repeats moved with
 * the gauge, never on a comparison between arms.
 *
 * The fit is judged out of sample too: refitted without each run in turn
 * (leave one out), it must not move by more than its own size.
 *
 * Two arms A and G compared at one speed: log(A / G) = (y_A - y_G) - e
 * (x_A - x_G), the arms' means over their runs, with the 95 % half-width
 * t(0.975, df) x s x sqrt(1 / n_A + 1 / n_G + (x_A - x_G)^2 / Sxx) (the
 * intercepts' error and the slope's, as in an analysis of covariance). */
#ifndef VBED_SPEEDFIT_H
#define VBED_SPEEDFIT_H

#include <stdbool.h>
#include <stddef.h>

struct report;
struct report_cell;

/* The gauge: the zlib unit's (hostside/speed.h). The memory unit beside it
 * (host_memory_unit_ms) followed a host arm's TPS better over 10 s slices,
 * but over the measure phases of a 3-repeat quickstart here it explained
 * the guest runs' spread no better (exponent -1.97 +- 5.42 against the zlib
 * unit's -3.10 +- 5.99, neither telling), where the zlib unit has the
 * longer record (-3.40 +- 1.66 and -3.0 to -3.3 over 24 runs): it is
 * recorded, not fitted. */
#define SPEEDFIT_GAUGE "host_speed_unit_ms"

/* The fit needs this many degrees of freedom: with fewer, t(0.975) is 12.7
 * (df 1) and the comparison says nothing. */
#define SPEEDFIT_MIN_DF 2

/* an arm's runs that have both a TPS and a gauge: their count and means of
 * log TPS per guest and log gauge */
struct speed_arm {
    size_t n;
    double y, x;
};

struct speed_fit {
    bool valid;
    const char *gauge; /* the gauge's metric: SPEEDFIT_GAUGE */
    char why[200];     /* why not, when not valid */
    size_t runs, arms; /* the runs and arms it was fitted over */
    double df;
    double slope;      /* e: d log TPS per guest / d log gauge */
    double slope_half; /* its 95 % half-width */
    double sd;         /* s: the residuals' sd, in log TPS */
    double sxx;        /* the within-arm sum of squares of x */
    /* leave one run out: the elasticity refitted without each run in turn,
     * its lowest and highest, and the largest move from slope (INFINITY
     * where some run's absence leaves the gauge unmoved within every arm).
     * A fit whose loo_spread exceeds |slope| rests on single runs: not
     * valid (a 3-repeat quickstart's -3.40 moved to -5.14 without one). */
    double loo_lo, loo_hi, loo_spread;
};

/* The runs of cell c that count and have a reading of the gauge (> 0,
 * model.h's speed_run_ms): their means. n 0 where none has, or where they
 * were read on more than one host. */
void speed_arm_of(const struct report_cell *c, struct speed_arm *out);


/* The fit over variant v's guest arms (an index into r->variants). */
void speed_fit_variant(const struct report *r, size_t v, struct speed_fit *out);
/* The same without arm skip_arm's runs (an index into rd->arms; -1: none):
 * the elasticity calibrated out of sample for judging that arm. */
void speed_fit_variant_without(const struct report *r, size_t v, int skip_arm, struct speed_fit *out);

/* A against G at one speed: log(A / G) and its 95 % half-width (both in
 * log TPS, about a relative figure). false where the fit is not valid or
 * either arm has fewer than 2 runs in it. */
bool speed_compare(const struct speed_fit *f, const struct speed_arm *a, const struct speed_arm *g,
                   double *log_ratio, double *half);

/* Guest arm `arm` (an index into rd->arms) against the variant's first
 * guest arm at one speed: the ratio of TPS per guest, exp(log ratio), and
 * its 95 % CI; false where not known (no fit, an arm with fewer than 2
 * runs, not a guest arm after the first). */
bool speed_ratio(const struct report *r, size_t v, size_t arm, double *ratio, double *lo,
                 double *hi);

/* Those ratios as a sentence with the fit they come from; "" where none is
 * known. */
void speed_ratios_text(const struct report *r, size_t v, char *buf, size_t len);

#endif
