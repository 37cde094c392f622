/* radix_sort.c - the stable LSD radix sort of radix_sort.h.
 *
 * Each pass scatters by one 10-bit digit from its histogram, which
 * radix_init fills for all the digits in one read; a digit every key shares
 * (the high digits of small values) costs no pass at all. */
#include "radix_sort.h"

#include <stdlib.h>
#include <string.h>

/* Digit p (0 the lowest) of key. */
#define DIGIT(key, p) ((size_t)((key) >> ((p)*RADIX_BITS)) & (RADIX_SIZE - 1))

/* At most this many keys are sorted in place by insertion: a sample-sized
 * position would otherwise zero 48 KiB of histograms per sort, which was
 * most of a small request's solve. */
#define SMALL_SORT 32

/* Only the scratch: key[0] and tag[0] are the caller's, now or again. */
void radix_free(radix_sort *s)
{
    free(s->key[1]);
    free(s->tag[1]);
    free(s->count);
}

size_t radix_scratch_bytes(size_t n, int tagged)
{
    size_t each = sizeof(uint64_t) + (tagged ? sizeof(uint32_t) : 0);
    return (n + 1) * each + RADIX_DIGITS * RADIX_SIZE * sizeof(size_t);
}

/* The scratch buffers and the histograms of digits from..to-1, from one
 * read of the keys. */
int radix_init(radix_sort *s, uint64_t *key, uint32_t *tag, size_t n, int from, int to, gj_error *e)
{
    memset(s, 0, sizeof *s);
    s->n = n;
    s->key[0] = key;
    s->tag[0] = tag;
    if (n <= SMALL_SORT)
        return 0;
    s->key[1] = malloc((n + 1) * sizeof *key);
    if (tag != NULL)
        s->tag[1] = malloc((n + 1) * sizeof *tag);
    s->count = calloc(RADIX_DIGITS * RADIX_SIZE, sizeof *s->count);
    if (s->key[1] == NULL || (tag != NULL && s->tag[1] == NULL) || s->count == NULL) {
        radix_free(s);
        return gj_fail_nomem(e);
    }
    for (size_t i = 0; i < n; i++)
        for (int p = from; p < to; p++)
            s->count[p * RADIX_SIZE + DIGIT(key[i], p)]++;
    return 0;
}

/* One stable pass on digit p.  Skipped when every key has the same digit,
 * as happens for the high digits of small coordinates. */
static void radix_pass(radix_sort *s, int p)
{
    size_t *c = s->count + p * RADIX_SIZE, n = s->n, sum = 0;
    const uint64_t *src = s->key[0];
    uint64_t *dst = s->key[1];
    if (n == 0 || c[DIGIT(src[0], p)] == n)
        return;
    for (int d = 0; d < RADIX_SIZE; d++) {
        size_t here = c[d];
        c[d] = sum;
        sum += here;
    }
    if (s->tag[0] == NULL) {
        for (size_t i = 0; i < n; i++)
            dst[c[DIGIT(src[i], p)]++] = src[i];
    } else {
        const uint32_t *stag = s->tag[0];
        uint32_t *dtag = s->tag[1];
        for (size_t i = 0; i < n; i++) {
            size_t at = c[DIGIT(src[i], p)]++;
            dst[at] = src[i];
            dtag[at] = stag[i];
        }
    }
    s->key[1] = s->key[0];
    s->key[0] = dst;
    uint32_t *t = s->tag[1];
    s->tag[1] = s->tag[0];
    s->tag[0] = t;
}

/* A stable insertion sort on digits from..to-1 together: what the radix
 * passes over those digits do, for a handful of keys. */
static void insertion_sort(radix_sort *s, int from, int to)
{
    uint64_t mask = ((uint64_t)1 << ((to - from) * RADIX_BITS)) - 1;
    uint64_t *key = s->key[0];
    uint32_t *tag = s->tag[0];
    for (size_t i = 1; i < s->n; i++) {
        uint64_t k = key[i], d = (k >> (from * RADIX_BITS)) & mask;
        uint32_t t = tag ? tag[i] : 0;
        size_t j = i;
        for (; j > 0 && ((key[j - 1] >> (from * RADIX_BITS)) & mask) > d; j--) {
            key[j] = key[j - 1];
            if (tag)
                tag[j] = tag[j - 1];
        }
        key[j] = k;
        if (tag)
            tag[j] = t;
    }
}

/* Few keys (no histograms) go by insertion, the rest pass by pass. */
void radix_passes(radix_sort *s, int from, int to)
{
    if (s->count == NULL) {
        insertion_sort(s, from, to);
        return;
    }
    for (int p = from; p < to; p++)
        radix_pass(s, p);
}
