/* radix_sort.h - a stable LSD radix sort of 64-bit keys, with an optional
 * 32-bit tag moved along with each key.
 *
 * Keys are sorted on RADIX_DIGITS digits of RADIX_BITS bits, digit 0 the
 * lowest; a caller sorts on digits from..to-1 only, and may stop after some
 * of them and go on later (nim-shortcuts groups by the low coordinate
 * half-way).  The sort ping-pongs between the caller's arrays and scratch
 * ones: the sorted keys (and tags) are wherever key[0] (tag[0]) points, and
 * radix_free frees the other buffer, so the caller's arrays must come from
 * malloc and the caller owns key[0] and tag[0] afterwards, whichever they
 * are.  A few keys are sorted by insertion instead, with no scratch. */
#ifndef GJ_RADIX_SORT_H
#define GJ_RADIX_SORT_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"

#define RADIX_BITS   10
#define RADIX_SIZE   (1 << RADIX_BITS)
#define RADIX_DIGITS 6

typedef struct radix_sort {
    uint64_t *key[2]; /* [0] holds the data, [1] is scratch; a pass swaps them */
    uint32_t *tag[2]; /* moved along with the keys; NULL when there are none */
    size_t *count;    /* one histogram per digit; NULL for a small sort */
    size_t n;
} radix_sort;

/* Set up a sort of key[0..n) (and tag[0..n) when tag is not NULL) on the
 * digits from..to-1, 0 <= from < to <= RADIX_DIGITS: 0, or -1 with *e when out of memory (nothing
 * to free then, and key and tag are untouched). */
int radix_init(radix_sort *s, uint64_t *key, uint32_t *tag, size_t n, int from, int to,
               gj_error *e);
/* The most radix_init allocates for n keys, with tags or not. */
size_t radix_scratch_bytes(size_t n, int tagged);
/* Sort stably on digits from..to-1: digits given to radix_init, each
 * passed at most once (a pass uses up its histogram). */
void radix_passes(radix_sort *s, int from, int to);
/* Free the scratch buffer: s->key[0] and s->tag[0] are the caller's. */
void radix_free(radix_sort *s);

#endif
