/* signals.c: turn SIGINT, SIGTERM and SIGHUP into a flag (see signals.h). */
#include "util/signals.h"

#include <signal.h>
#include <string.h>
#include <time.h>

static volatile sig_atomic_t first_signal;
static volatile sig_atomic_t count;

static void on_signal(int sig)
{
    if (!first_signal)
        first_signal = sig;
    count++;
}

void signals_install(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    /* no SA_RESTART: a blocking read or wait returns EINTR and looks at the flag */
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    /* a closed terminal: clean up as after SIGTERM (the host arm's mariadbd
     * runs in its own process group and would not get the hangup) */
    sigaction(SIGHUP, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
}

bool signals_interrupted(void) { return first_signal != 0; }

int signals_exit_code(void)
{
    switch (first_signal) {
    case SIGHUP:
        return 129;
    case SIGINT:
        return 130;
    case SIGTERM:
        return 143;
    default:
        return 0;
    }
}

const char *signals_name(void)
{
    switch (first_signal) {
    case SIGHUP:
        return "SIGHUP";
    case SIGINT:
        return "SIGINT";
    case SIGTERM:
        return "SIGTERM";
    default:
        return "";
    }
}

bool signals_sleep_ms(long ms)
{
    while (ms > 0 && !first_signal) {
        long step = ms < 100 ? ms : 100;
        struct timespec ts = {.tv_sec = 0, .tv_nsec = step * 1000000L};
        nanosleep(&ts, NULL);
        ms -= step;
    }
    return first_signal != 0;
}
