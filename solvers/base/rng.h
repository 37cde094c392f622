/* rng.h - a small seeded generator that gives the same numbers on every
 * machine: splitmix64 (Steele, Lea and Flood's mixer over a Weyl sequence),
 * integer arithmetic only.  Used where an answer must be reproducible from
 * a seed the caller sees (the engine's move). */
#ifndef GJ_RNG_H
#define GJ_RNG_H

#include <stdint.h>

typedef struct gj_rng {
    uint64_t state;
} gj_rng;

/* A generator whose numbers depend only on `seed`. */
void gj_rng_seed(gj_rng *r, uint64_t seed);

/* The next 64 random bits. */
uint64_t gj_rng_next(gj_rng *r);

/* A number in 0..bound-1 (bound >= 1), without modulo bias. */
uint64_t gj_rng_below(gj_rng *r, uint64_t bound);

#endif
