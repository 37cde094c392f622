/* rng.h - a small seeded generator that gives the same numbers on every
 * machine: splitmix64 (Steele, Lea and Flood's mixer over a Weyl sequence),
 * integer arithmetic only.  Used where an answer must be reproducible from
 * a seed the caller sees (the engine's move, a generated puzzle). */
#ifndef GJ_RNG_H
#define GJ_RNG_H

#include <stdbool.h>
#include <stdint.h>

typedef struct gj_rng {
    uint64_t state;
} gj_rng;

/* A generator whose numbers depend only on `seed`. */
void gj_rng_seed(gj_rng *r, uint64_t seed);

/* Move r on by n numbers at once, as n calls of gj_rng_next would. */
void gj_rng_skip(gj_rng *r, uint64_t n);

/* How many numbers r has given since it was seeded with `seed`: the n that
 * gj_rng_skip of a generator fresh from that seed needs to stand where r
 * stands (the sequence is a Weyl sequence, so this is one product). */
uint64_t gj_rng_drawn(const gj_rng *r, uint64_t seed);

/* The next 64 random bits. */
uint64_t gj_rng_next(gj_rng *r);

/* A number in 0..bound-1 (bound >= 1), without modulo bias. */
uint64_t gj_rng_below(gj_rng *r, uint64_t bound);

/* A number in lo..hi (lo <= hi), any long pair. */
long gj_rng_range(gj_rng *r, long lo, long hi);

/* True with probability p (0 <= p <= 1), the same on every IEEE machine. */
bool gj_rng_chance(gj_rng *r, double p);

#endif
