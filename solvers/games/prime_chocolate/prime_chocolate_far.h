/* prime_chocolate_far.h - prime-chocolate remoteness (analysis.h), a search
 * from the rules (prime_chocolate_far.c) for prime_chocolate_analysis.c.
 *
 * Values are 2 * remoteness + 1 when the player to move wins there, + 0
 * when not; PC_FAR_PAST past the bounds of analysis.h, -1 with *e filled
 * (out of memory, cancelled).  The search's memo is kept across the calls
 * on one bar. */
#ifndef GJ_PRIME_CHOCOLATE_FAR_H
#define GJ_PRIME_CHOCOLATE_FAR_H

#include "error.h"

#define PC_FAR_PAST (-2LL)

typedef struct pc_far pc_far;

/* A search over the n x n bar (cell: 1 = chocolate) with used[p] != 0 for
 * the primes already chosen (n + 1 flags); NULL with *e. */
pc_far *pc_far_new(const unsigned char *cell, long n, const unsigned char *used, gj_error *e);
void pc_far_free(pc_far *f);

/* The bar's own value. */
long long pc_far_value(pc_far *f, gj_error *e);
/* The value after the legal move of side `size` with top-left (i, j),
 * 0-based. */
long long pc_far_after(pc_far *f, long i, long j, long size, gj_error *e);

#endif
