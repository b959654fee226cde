/* signals.c: turn SIGINT/SIGTERM into a flag (see signals.h). */
#include "signals.h"

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
    signal(SIGPIPE, SIG_IGN);
}

bool signals_interrupted(void) { return first_signal != 0; }

int signals_exit_code(void)
{
    return first_signal == SIGINT ? 130 : first_signal == SIGTERM ? 143 : 0;
}

const char *signals_name(void)
{
    return first_signal == SIGINT ? "SIGINT" : first_signal == SIGTERM ? "SIGTERM" : "";
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
