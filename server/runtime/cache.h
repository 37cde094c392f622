/* cache.h - a bounded LRU of answers shared by the workers, with single
 * flight.
 *
 * A key is any bytes (the caller builds it from the game, the answer's
 * format and the position's canonical form).  Lookups hash the key but
 * always compare it whole, so two keys share an entry only when they are
 * equal.  The budget counts every entry's key, answer and a fixed overhead;
 * the least recently used answers go first.  While one thread computes a
 * key, others asking for it wait for that answer instead of computing it
 * again; cache_peek alone never waits (the I/O thread's look-up).  Every
 * function is thread-safe. */
#ifndef GJ_CACHE_H
#define GJ_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"

typedef struct gj_cache gj_cache;
typedef struct cache_entry cache_ticket;

typedef enum cache_result {
    CACHE_HIT,     /* the answer was copied into the caller's buffer */
    CACHE_CLAIMED, /* compute it, then cache_fill or cache_abandon the ticket */
    CACHE_BYPASS,  /* compute it without storing: too large, or memory short
                    * (and, as a job's `how`, jobs.h: no cache was asked) */
} cache_result;

typedef struct cache_stats {
    unsigned long long hits, misses, evictions, waits;
    unsigned long long entries, bytes, budget;
} cache_stats;

typedef uint64_t (*cache_hash_fn)(const void *key, size_t len);

/* A cache of at most `budget` bytes; `hash` NULL for the built-in one
 * (tests pass a colliding one).  NULL when memory is short. */
gj_cache *cache_create(size_t budget, cache_hash_fn hash);
void cache_free(gj_cache *c);

/* Look `key` up.  On a hit the answer is appended to *answer (check
 * answer->failed).  On CACHE_CLAIMED *ticket must be handed back. */
cache_result cache_get(gj_cache *c, const void *key, size_t len, gj_buf *answer,
                       cache_ticket **ticket);
/* Look `key` up without waiting or claiming: 1 when its answer is held,
 * appended to *answer (check answer->failed) and counted as a hit, which
 * makes it the most recently used; 0 when it is not, or is still being
 * computed (counted nowhere: the caller asks again with cache_get, which
 * counts the miss or the wait).  The lock is held for a look-up and a copy
 * only, so the I/O thread may call it. */
int cache_peek(gj_cache *c, const void *key, size_t len, gj_buf *answer);
/* Store the answer computed for a claimed key and wake its waiters. */
void cache_fill(gj_cache *c, cache_ticket *ticket, const void *answer, size_t len);
/* Give a claim up (the computation failed); a waiter claims it instead. */
void cache_abandon(gj_cache *c, cache_ticket *ticket);

void cache_get_stats(gj_cache *c, cache_stats *out);

/* The built-in 64-bit hash. */
uint64_t cache_hash(const void *key, size_t len);

#endif
