/* predict.h: a tuned guest arm's TPS, predicted from the untuned guest
 * arm's budget and the tuned arm's configuration alone -- what could be
 * said before the tuned arm ran -- and checked against what it measured.
 *
 * The untuned guest arm G is the first guest arm of the variant; every
 * other guest arm A of it that runs as many guests is predicted (with
 * another number of guests, G's CPU and contention do not carry over). With k threads, G's time per
 * transaction w_G, its foreground reads per transaction r_G and their
 * time (performance_schema's data-file reads, wall clock) R_G:
 *
 *   pool_A   A's buffer_pool; auto: G's memory outside the pool, through
 *            the same rule (scenario/workingset.h's ws_pool_auto) for A's
 *            memory
 *   miss(b)  max(0, 1 - b / working set): the buffer pool's miss ratio
 *            when its pages are touched evenly (LRU under uniform access)
 *   r_A      r_G x miss(pool_A) / miss(pool_G)
 *   l_A      a read's latency on A's path, from G's layers: through the
 *            guest page cache (flush_method fsync) as G's, R_G / r_G;
 *            O_DIRECT over the host page cache, G's guest block read
 *            latency; O_DIRECT and cache=none (the device), the host
 *            device's read latency (G's, else the host arm's) plus the
 *            virtual disk's own (G's guest block latency - QEMU's)
 *   m_G      G's buffer-pool misses per transaction (InnoDB data reads,
 *            every thread's); m_A = m_G x miss(pool_A) / miss(pool_G)
 *   f_G      of them the chain's own: min(r_G, m_G), the data-file reads its
 *            connection thread waited for; f_A = f_G x miss(pool_A) /
 *            miss(pool_G). The others are read by other threads (the I/O
 *            threads' read-ahead, purge): they reach the chain only through
 *            the vCPU they take, which the contention term below moves with
 *            the misses (B_G). Pricing them at c_G too counted them twice:
 *            over 12 recorded quickstart runs here the prediction of
 *            tuned_memory was 14 % high in the median, its mean |error| 30 %;
 *            with the chain's own, 5 % low and 19 %.
 *   c_G      what a miss adds to a statement in G, measured after its
 *            measure phase (workloads/misscost.h: cold lookups against hot
 *            ones): the read, the decompression of a compressed page, the
 *            LRU's free frame, the guest kernel's path
 *   w_A      w_G - R_G + r_A x l_A - (f_G - f_A) x max(0, c_G - l_G)
 *            (the chain's misses saved cost what they cost in G beyond their
 *            wait, which the reads' terms move; commit, locks and the rest as
 *            G's). Results without the probe fall back to the misses'
 *            decompressions alone: D_A = D_G x miss(pool_A) / miss(pool_G)
 *            (D_G: G's INNODB_CMP uncompress time, its CPU share) in place
 *            of the last term, w_A = w_G - R_G + r_A x l_A - (D_G - D_A)
 *            With the read probe (workloads/readcost.h) and A on O_DIRECT:
 *            x = max(0, d_G - b_G), a direct read in G against a cached
 *            one -- what the virtual disk adds to a miss, which every miss
 *            pays (a read-ahead's CPU too: one vCPU); a foreground read
 *            waits beyond it only for the device, l_A = the host device's
 *            read latency under cache=none, else 0 (the host page cache's
 *            copy is in x):
 *              w_A = w_G - R_G + r_A x l_A - (f_G - f_A) x max(0, c_G - l_G)
 *                    + m_A x x
 *            (a miss on A's path costs c_A = c_G - l_G + x + l_A)
 *            With the probe's CPU figures too and G's tasks read (below):
 *            y_r, y_w, the guest's CPU a read and a page write take through
 *            the virtual disk beyond the same through its page cache
 *            (readcost.h); W_G, G's InnoDB data writes per transaction,
 *            W_A = W_G x miss(pool_A) / miss(pool_G) (a page is written when
 *            the pool evicts it dirty). On A's O_DIRECT path the misses
 *            read by other threads (read-ahead, purge: m_A - f_A) and every
 *            page write become requests too; they are not the chain's time
 *            but CPU of the guest's other tasks, I_A = (m_A - f_A) x y_r +
 *            W_A x y_w, which reaches the chain through its vCPU's run queue
 *            (q_A below). Only the chain's own misses then pay x in w_A:
 *              w_A = w_G - R_G + r_A x l_A - (f_G - f_A) x max(0, c_G - l_G)
 *                    + f_A x x - (q_G - q_A)
 *            In G both land in the guest page cache: a page write there
 *            costs its writer a copy, and the guest kernel's writeback
 *            later is in O_G. y_r and y_w are the host's figures (the
 *            guest's whole QEMU process per request) where the probe read
 *            them, else fio's thread's. In the quickstart here (TCG) they
 *            came to 4.5-6.2 ms a transaction, about what m_A x x charged:
 *            what tuned loses beyond its prediction (14-73 % in five runs)
 *            is a slowdown of everything in its guests that comes with its
 *            requests under load (O_DIRECT over the host page cache slows
 *            them alike), not the requests' own cost in an idle guest; a
 *            direct read beside a busy CPU job cost 0.17 ms (+-0.42) more
 *            than beside an idle vCPU (tests/bench/request-interaction.sh),
 *            not the 0.9-2.3 ms per request the tuned guests lost (README).
 *   q_A      A's CPU contention: in G the chain waits in its vCPU's run
 *            queue while the guest's other tasks or its own client run.
 *            From the tasks probe (probes/tasks.h): O_G, the CPU of G's
 *            other tasks per transaction (the guest's busy CPU less the
 *            chain's own), of it B_G InnoDB's background (the page cleaner,
 *            the task pool, mariadbd's other threads: the dirty pages a
 *            miss evicts flushed, read-ahead, I/O completions), which goes
 *            with the misses, O_A = O_G - B_G x (1 - m_A / m_G) (+ I_A on
 *            an O_DIRECT path the I/O probe priced); C_G the
 *            chain's client CPU; q_A = q_G x (O_A + C_G) / (O_G + C_G), and
 *            w_A above gains - (q_G - q_A). Results without the tasks probe
 *            hold contention at G's (q_A = q_G).
 *   TPS_A    k / w_A per guest
 *
 * A tuned arm differs from G in its pool, its disk's cache mode, I/O mode
 * and format and its flush method; one that also differs in what the model
 * leaves alone (the filesystem, tmpfs, a commit setting, the workload, the
 * guest's memory or vCPUs) is not predicted, and the report says in which.
 *
 * The prediction carries G's uncertainty: its 95 % CI half-width is
 * predicted x G's per-guest TPS CI / G's mean (the prediction scales with
 * G's budget; 0 with one repeat of G; the uncertainty of the miss cost,
 * the read latencies and the contention term is not carried: what the
 * model still misses). The tolerance is the 95 % half-width of the
 * difference, sqrt(a^2 + g^2), a and g the measured and the predicted
 * TPS's relative half-widths -- not twice it, and no 15 % floor. Beside
 * the model stands the null model, "the tuning changes nothing" (A
 * measures what G did): the prediction agrees only where its error is
 * within the tolerance and the null model's is not; where both are
 * within it the verdict is "cannot tell from no change" (cannot_tell).
 * Where the tolerance exceeds 50 % (PREDICT_JUDGE_MAX) it is not judged.
 * Nor where A or G ran one repeat (single_repeat): its CI is unknown, not
 * 0. (At one
 * speed, below, where the run allows.) Under TCG
 * here the same arm's TPS per guest moved by up to 80 % between runs minutes
 * apart (tuned_memory 7.5, 9.6 and 13.4 in one session; a guest arm 6.2 to
 * 9.0), far beyond the spread between the guests of one run (a few %) and
 * beyond what the speed gauges below follow: judged against 15 %, one repeat
 * of each arm held or failed by chance (3 of 6 quickstarts).
 *
 * The machine's speed moves between runs (hostside/speed.h: +-10 % by the
 * minute on a shared VM), and a guest under emulation several times as
 * much. Where the run's guest arms were repeated under the host's speed
 * gauge (model/speedfit.h: log TPS per guest = an intercept per arm + e x
 * log gauge, e fitted within the arms' repeats, df >= 2), the verdict is
 * taken at one speed (speed_fitted): the measured log(A / G) brought to
 * one gauge reading, (y_A - y_G) - e (x_A - x_G), against the model's
 * w_G / w_A; the error is 1 - (w_G / w_A) / exp(that), the null model's
 * 1 - 1 / exp(that), and the tolerance h, the comparison's 95 % half-width
 * (speedfit.h), which no longer carries the machine's moves. Without such a fit (one
 * repeat, no gauge), with G's and A's units u_G, u_A (CPU ms of the speed
 * job: the guests' own where both arms timed one, workloads/guestspeed.h;
 * else the host's speed probe's) and G's CPU-bound share s = (its
 * connection thread's on-CPU + run-queue time + client) / w_G, the
 * prediction at A's speed is k / (w_A x (1 + s x (u_A / u_G - 1))) --
 * shown, not judged.
 *
 * Where the chain misses fewer pages in A than in G (f_G - f_A >= 1), the
 * report also solves the formula for what one of its misses saved was
 * worth, from A's measured time per transaction w'_A = k / measured
 * (divided by 1 + s x (u_A / u_G - 1) where the speeds are known): c' = l_G
 * + (w_G - R_G + r_A x l_A + m_A x x - (q_G - q_A) - w'_A) / (f_G - f_A)
 * (m_A x x only on an O_DIRECT
 * path priced by the read probe), beside the probe's c_G: where they part,
 * the model's price of a miss is what missed. And from A's measured budget
 * against G's, per such miss saved, how much of that its CPU, its CPU
 * contention (beside the model's q_G - q_A) and its guest's other tasks'
 * CPU gave back. */
#ifndef VBED_PREDICT_H
#define VBED_PREDICT_H

#include <stdbool.h>
#include <stddef.h>

struct report;

/* A tolerance beyond this judges nothing: two repeats whose TPS differ by
 * 12 % have a 95 % CI of +-76 % (t = 12.7), and "holds within 152 %" was
 * printed as if it said something. Such a prediction is shown, its error
 * too, but not judged (judged false, agrees false). */
#define PREDICT_JUDGE_MAX 0.50

struct prediction {
    bool valid;        /* predicted */
    char why[160];     /* why not, when not valid */
    int from;          /* G: index into rd->arms */
    double pool_g, pool_a, working_set;
    bool pool_auto;    /* A's buffer_pool = auto */
    double reads_g, reads_a;  /* foreground reads per transaction */
    double lat_g, lat_a;      /* seconds per read */
    /* on the device path: the device reads lat_a rests on (the arm's
     * total; the host arm's where the untuned guest had none) and lat_a's
     * resolution, diskstats' 1 ms per target's reading / those reads
     * (13 stray reads over 6 targets: +-0.46 ms); NAN elsewhere */
    double lat_a_reads, lat_a_res;
    /* the inputs' part of the predicted side's relative 95 % half-width:
     * reads_a x lat_a_res / w_a (0 where lat_a is not the device's) */
    double input_rel;
    /* the model's gain w_G / w_A, left out one of the untuned guest's runs
     * at a time (a jackknife over its runs: its miss cost, read and I/O
     * probes, contention and reads each from the runs that remain): the
     * relative 95 % half-width t(0.975, n-1) x the jackknife's standard
     * error, and n; NAN (and n < 3) with fewer than three runs */
    double gain_rel;
    int gain_runs;
    const char *path;         /* A's read path: "guest page cache", "host page cache", "device" */
    double misses_g, misses_a;  /* buffer-pool misses per transaction (all threads) */
    double own_g, own_a;        /* of them the chain's own (f_G, f_A); NAN without the probe */
    double miss_cost;           /* G's seconds per miss (the probe); NAN: not measured */
    double read_extra;          /* G's direct read - cached read (readcost.h), s; NAN */
    double path_cost;           /* a miss on A's O_DIRECT path, s; NAN: not used */
    /* the background's requests on A's O_DIRECT path, priced as the guest's
     * CPU by the I/O probe (io_priced; else NAN and false) */
    bool io_priced;
    bool io_host;               /* y_r, y_w on the host's clock (QEMU's CPU), else fio's */
    double read_cpu_extra, write_cpu_extra; /* y_r, y_w: s of CPU a request */
    double writes_g, writes_a;  /* InnoDB's data writes per transaction (W_G, W_A) */
    double bg_reads_a;          /* A's misses read by other threads: m_A - f_A */
    double io_cpu_a;            /* (m_A - f_A) x y_r + W_A x y_w, s per transaction */
    double decomp_g, decomp_a;  /* without miss_cost: decompression CPU, s per transaction */
    /* the contention term (seconds per transaction, G's unless said):
     * contention_scaled false (results without the tasks probe) holds
     * contention_a = contention_g */
    bool contention_scaled;
    double contention_g, contention_a; /* q_G, q_A */
    double others_g, others_a;         /* O_G, O_A */
    double background_g;               /* B_G */
    double client_g;                   /* C_G */
    double w_a;               /* predicted seconds per transaction */
    double predicted, measured, measured_ci; /* TPS per guest */
    double predicted_ci;      /* G's spread over repeats, the inputs' resolution (input_rel) and
                                 the gain's spread over G's runs (gain_rel), in quadrature */
    double error;             /* (measured - predicted) / measured */
    double null_error;        /* the null model's, "the tuning changes nothing":
                                 (measured - G's measured) / measured */
    double null_error_at_speed; /* the same at one speed (speed_fitted); NAN otherwise */
    double tolerance;         /* the 95 % half-width of the difference, relative */
    bool single_repeat;       /* A or G ran one repeat: no CI, not judged */
    bool judged;              /* error known, both arms repeated, tolerance <= PREDICT_JUDGE_MAX */
    bool agrees;              /* judged, |error| <= tolerance, and the null model not */
    bool cannot_tell;         /* judged, both the model and the null model within it */
    /* this machine's CPU speed while G and A measured (host_speed_unit_ms,
     * hostside/speed.h), and the prediction at A's: fitted (speed_fitted
     * below, the verdict's), else G's CPU-bound share of w_G stretched by
     * unit_A / unit_G (shown, not judged); NAN where a speed is unknown */
    double unit_g_ms, unit_a_ms;
    bool speed_of_guests;     /* the units are the guests' own speed job's (workloads/guestspeed.h,
                                 where both arms have it), else the host's */
    double cpu_share;         /* (on-CPU + run queue + client) / w, G's */
    double predicted_at_speed, error_at_speed;
    /* speed_fitted: the run's guest arms were repeated under a speed gauge
     * (model/speedfit.h) and A and G ran at least twice with it: A against
     * G at one speed decides the verdict. unit_*_ms are then the host
     * gauge's geometric means over the arms' runs, elasticity e the fitted
     * exponent (TPS per guest ~ gauge^e) with its 95 % half-width,
     * speed_half the comparison's 95 % half-width (log TPS), over
     * speed_runs runs and speed_df degrees of freedom. The fit that judges
     * A leaves A's runs out (calibrated out of sample); speed_why says why
     * it could not judge A ("" where it did, or no gauge was read) */
    bool speed_fitted;
    char speed_why[300];
    const char *speed_gauge; /* the fit's gauge's metric (speedfit.h) */
    double elasticity, elasticity_half, speed_half, speed_df;
    size_t speed_runs;
    /* what the measured TPS says one of the chain's misses saved was
     * worth: the formula of w_A solved for c_G with A's measured time per
     * transaction (k / measured, brought to G's speed where both are known),
     * when the chain misses at least one fewer page per transaction in A
     * than in G; NAN otherwise */
    double implied_miss_cost;
    /* G's CPU and CPU contention per transaction less A's measured ones,
     * per miss of the chain's saved (where implied_miss_cost is known; NAN otherwise);
     * the model's contention saved per miss saved beside it */
    double saved_cpu, saved_contention, saved_contention_model;
    /* and the CPU of the guest's other threads (gap.h's guest_other) */
    double saved_other;
};

/* The prediction of guest arm `arm` (an index into rd->arms) in variant v
 * (an index into r->variants); valid false (and why) when it is the
 * untuned guest itself, not a guest arm, or a figure is missing. */
void predict_arm(const struct report *r, size_t v, size_t arm, struct prediction *out);

/* The null model's error the verdict was taken on: at one speed where
 * fitted, else the raw one. */
static inline double prediction_null_error(const struct prediction *p)
{
    return p->speed_fitted ? p->null_error_at_speed : p->null_error;
}

#endif
