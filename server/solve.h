/* solve.h - one position through a game: parse -> solve -> write.
 *
 * Shared by the HTTP workers and `gamejudge solve`, so both answer the same
 * bytes for the same input.  Times are wall-clock milliseconds. */
#ifndef GJ_SOLVE_H
#define GJ_SOLVE_H

#include <stddef.h>

#include "buf.h"
#include "error.h"
#include "game.h"
#include "media.h"

typedef struct solve_timing {
    double parse_ms, solve_ms, write_ms;
} solve_timing;

/* Answer `in` (of kind `input`) as `output` into *out.  0, or -1 with *e. */
int solve_position(const gj_game *g, const long *limits, media_kind input, const char *in,
                   size_t len, media_kind output, gj_buf *out, solve_timing *t, gj_error *e);

/* MEDIA_JSON when the first non-blank byte is '{' (judge input never starts
 * so), for callers that have no Content-Type. */
media_kind solve_sniff_input(const char *in, size_t len);

/* Monotonic clock in nanoseconds. */
unsigned long long solve_clock_ns(void);

#endif
