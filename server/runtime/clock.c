/* clock.c - the monotonic clock (clock.h). */
#include "clock.h"

#include <time.h>

/* CLOCK_MONOTONIC: never steps back when the wall clock is set. */
unsigned long long clock_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (unsigned long long)ts.tv_sec * 1000000000ULL + (unsigned long long)ts.tv_nsec;
}
