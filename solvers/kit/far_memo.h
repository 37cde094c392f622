/* far_memo.h - the memo of a remoteness search (analysis.h): positions as
 * three 64-bit words, each with its packed value, and a budget of
 * positions that makes a search stop rather than grow without end.
 *
 * Contract: keys are whatever the game packs (the same position must pack
 * the same way, two positions never alike); values are >= 0.  The table
 * grows by doubling while it holds fewer than `budget` positions; adding
 * one more than that is refused, which is how a search learns it is past
 * its bound.  One search, one thread. */
#ifndef GJ_FAR_MEMO_H
#define GJ_FAR_MEMO_H

#include <stddef.h>
#include <stdint.h>

typedef struct far_key {
    uint64_t w[3];
} far_key;

typedef struct far_memo {
    far_key *key;
    int32_t *val; /* -1: an empty slot */
    size_t mask;  /* slots - 1, slots a power of two */
    long count, budget;
} far_memo;

/* An empty memo that takes at most `budget` positions: 0, or -1 when out
 * of memory. */
int far_memo_init(far_memo *m, long budget);
/* 1 with *val when k is known, else 0. */
int far_memo_find(const far_memo *m, const far_key *k, int32_t *val);
/* Remember k's value (k not yet known): 0; 1 when the memo already holds
 * `budget` positions (nothing added); -1 when out of memory. */
int far_memo_add(far_memo *m, const far_key *k, int32_t val);
void far_memo_free(far_memo *m);

#endif
