/* test_diskwatch.c: a guest disk that stopped completing requests is told
 * apart from one that computes, idles or is merely slow (virt/diskwatch.h). */
#include "testutil.h"
#include "virt/diskwatch.h"

/* /proc/diskstats of a guest: vda idle, vdb with inflight requests and
 * done completions (reads; no flush fields: an older kernel) */
static const char *diskstats(double vdb_done, int vdb_inflight)
{
    static char buf[512];
    snprintf(buf, sizeof(buf),
             " 254       0 vda 900 0 7200 300 50 0 400 90 0 380 390\n"
             " 254      16 vdb %.0f 0 8000 500 0 0 0 0 %d 900 1200\n",
             vdb_done, vdb_inflight);
    return buf;
}

/* libvirt's view: vda (root) and vdb (data) with those completed requests */
static size_t host(struct diskwatch_disk *d, double vda, double vdb)
{
    d[0] = (struct diskwatch_disk){.name = "vda", .done = vda};
    d[1] = (struct diskwatch_disk){.name = "vdb", .done = vdb};
    return 2;
}

/* Drive a watch over [0, until] s, a look every 5 s; vdb's host count
 * moves until quiet_at, vda's all along when root_busy; the guest shows
 * guest(t). The first time it is judged stalled, or -1. */
static int drive(double stall_s, int quiet_at, bool root_busy, int until,
                 const char *(*guest)(int t), char *why, size_t len)
{
    struct diskwatch_state s;
    diskwatch_state_init(&s, stall_s);
    struct diskwatch_disk d[2];
    for (int t = 0; t <= until; t += 5) {
        size_t n = host(d, root_busy ? t : 0, t < quiet_at ? t : quiet_at);
        const char *g = diskwatch_wants_guest(&s, t) ? guest(t) : NULL;
        if (diskwatch_judge(&s, t, d, n, g, why, len))
            return t;
    }
    return -1;
}

static const char *waiting(int t) { (void)t; return diskstats(5000, 3); }
static const char *nothing_in_flight(int t) { (void)t; return diskstats(5000, 0); }
static const char *completing(int t) { return diskstats(5000 + t, 1); }

/* the data disk goes quiet at 100 s while the guest waits on it: stalled
 * 4/3 stall_s later (asked after a third, then waiting a whole stall_s),
 * though the root disk stays busy */
static void stalls_when_both_wait(void **state)
{
    (void)state;
    char why[512] = "";
    int at = drive(120, 100, true, 600, waiting, why, sizeof(why));
    assert_true(at >= 255 && at <= 265);
    assert_non_null(strstr(why, "the guest's vdb has held 3 requests"));
    assert_non_null(strstr(why, "its disk vdb completed none on the host"));
    assert_non_null(strstr(why, "timeout_stall"));
}

/* a disk that never moved while watched (stalled before the watch began)
 * is caught too, later */
static void stalled_before_the_watch(void **state)
{
    (void)state;
    char why[512] = "";
    int at = drive(60, 0, true, 600, waiting, why, sizeof(why));
    assert_true(at >= 115 && at <= 125);
}

/* the guest computes without I/O, or its reads are served and completed:
 * never stalled */
static void busy_or_completing_is_not_stalled(void **state)
{
    (void)state;
    char why[512];
    assert_int_equal(drive(60, 100, false, 1200, nothing_in_flight, why, sizeof(why)), -1);
    assert_int_equal(drive(60, 100, false, 1200, completing, why, sizeof(why)), -1);
}

/* the host completes a request on vdb every 50 s: never stall_s without progress */
static void slow_progress_is_not_stalled(void **state)
{
    (void)state;
    struct diskwatch_state s;
    diskwatch_state_init(&s, 60);
    struct diskwatch_disk d[2];
    char why[512];
    for (int t = 0; t <= 900; t += 5) {
        /* the guest's own count moves with the host's */
        size_t n = host(d, 0, t / 50);
        const char *g = diskwatch_wants_guest(&s, t) ? diskstats(5000 + t / 50, 2) : NULL;
        assert_int_equal(diskwatch_judge(&s, t, d, n, g, why, sizeof(why)), 0);
    }
}

/* the guest is asked at most once a third of stall_s */
static void guest_asked_sparingly(void **state)
{
    (void)state;
    struct diskwatch_state s;
    diskwatch_state_init(&s, 90);
    struct diskwatch_disk d[2];
    int asked = 0;
    char why[512];
    for (int t = 0; t <= 900; t += 5) {
        size_t n = host(d, 10, t < 50 ? t : 50);
        bool ask = diskwatch_wants_guest(&s, t);
        asked += ask;
        diskwatch_judge(&s, t, d, n, ask ? nothing_in_flight(t) : NULL, why, sizeof(why));
    }
    /* quiet from 50 s: asked from 80 s every 30 s: 28 times in 820 s */
    assert_true(asked >= 26 && asked <= 29);
}

/* libvirt answering nothing judges nothing; a hostile guest text judges
 * nothing */
static void missing_and_hostile_readings(void **state)
{
    (void)state;
    struct diskwatch_state s;
    diskwatch_state_init(&s, 30);
    struct diskwatch_disk d[2];
    char why[512];
    assert_int_equal(diskwatch_judge(&s, 0, d, host(d, 1, 1), NULL, why, sizeof(why)), 0);
    assert_int_equal(diskwatch_judge(&s, 10, d, 0, NULL, why, sizeof(why)), 0);
    const char *hostile[] = {"", "garbage\n", " 254 16 vdb x y z\n",
                             " 254 16 vdb nan 0 0 0 0 0 0 0 nan 0 0\n",
                             " 254 16 vdbb 1 0 0 0 0 0 0 0 9 0 0\n",
                             " 254 16 vdb 1 0 0 0 0 0 0 0 -5 0 0\n"};
    for (size_t i = 0; i < sizeof(hostile) / sizeof(*hostile); i++)
        assert_int_equal(diskwatch_judge(&s, 100, d, host(d, 1, 1), hostile[i], why, sizeof(why)), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(stalls_when_both_wait),
        cmocka_unit_test(stalled_before_the_watch),
        cmocka_unit_test(busy_or_completing_is_not_stalled),
        cmocka_unit_test(slow_progress_is_not_stalled),
        cmocka_unit_test(guest_asked_sparingly),
        cmocka_unit_test(missing_and_hostile_readings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
