/* clock.h - the monotonic clock every stage of a request is timed by, and
 * the three stage times a solve reports (Server-Timing, the metrics, the
 * access log).
 *
 * One clock for the whole server, so the times of a job's stages, taken
 * on different threads, add up.  Times are wall-clock milliseconds. */
#ifndef GJ_CLOCK_H
#define GJ_CLOCK_H

/* A solve's stages: the position parsed, solved, its answer written. */
typedef struct solve_timing {
    double parse_ms, solve_ms, write_ms;
} solve_timing;

/* Monotonic clock in nanoseconds. */
unsigned long long clock_ns(void);

#endif
