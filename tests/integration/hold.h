/* hold.h - keep the daemon's workers busy for exactly as long as a test
 * needs (the GAMEJUDGE_TEST_HOLD_FIFO hook of server/runtime/runtime.h).
 *
 * hold_begin makes a FIFO, holds it open as its writer and sets the
 * variable, so a daemon started next makes every solve wait; hold_release
 * closes it (now, or from a thread after a delay), and every waiting and
 * later solve goes on at once; hold_end removes the FIFO. */
#ifndef GJ_TEST_HOLD_H
#define GJ_TEST_HOLD_H

#include <pthread.h>

typedef struct test_hold {
    char path[64];
    int fd;
    double delay;          /* seconds: the delay, or with a metric the most to wait */
    char metrics_url[128]; /* with hold_release_when: where to read the metric */
    const char *metric;
    double value;
    pthread_t thread;
    int threaded;
} test_hold;

/* Make the FIFO, open it and export GAMEJUDGE_TEST_HOLD_FIFO. */
void hold_begin(test_hold *h);
/* Release every solve that waits, and all later ones, now. */
void hold_release(test_hold *h);
/* Release them `seconds` from now, from a thread of its own. */
void hold_release_later(test_hold *h, double seconds);
/* Release them once the daemon's /metrics at base_url shows `metric`
 * (a sample without labels) at `value` or more, or after `seconds` at most. */
void hold_release_when(test_hold *h, const char *base_url, const char *metric, double value,
                       double seconds);
/* Release if not yet done, join the thread, unset the variable, remove the FIFO. */
void hold_end(test_hold *h);

#endif
