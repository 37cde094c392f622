/* rng.c - splitmix64 (rng.h). */
#include "rng.h"

void gj_rng_seed(gj_rng *r, uint64_t seed)
{
    r->state = seed;
}

/* The Weyl step: each number adds it to the state, and nothing else does. */
#define RNG_GAMMA 0x9e3779b97f4a7c15ULL

void gj_rng_skip(gj_rng *r, uint64_t n)
{
    r->state += n * RNG_GAMMA;
}

/* The step is odd, so it has an inverse modulo 2^64: Newton's iteration
 * x = x (2 - g x) doubles the correct low bits each round, from the 3 that
 * x = g already has, so five rounds give all 64. */
uint64_t gj_rng_drawn(const gj_rng *r, uint64_t seed)
{
    uint64_t inv = RNG_GAMMA;
    for (int i = 0; i < 5; i++)
        inv *= 2 - RNG_GAMMA * inv;
    return (r->state - seed) * inv;
}

uint64_t gj_rng_next(gj_rng *r)
{
    uint64_t z = (r->state += RNG_GAMMA);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* Rejection of the top partial range keeps every value equally likely. */
uint64_t gj_rng_below(gj_rng *r, uint64_t bound)
{
    uint64_t limit = UINT64_MAX - UINT64_MAX % bound;
    uint64_t x;
    do
        x = gj_rng_next(r);
    while (x >= limit);
    return x % bound;
}

/* The span hi - lo + 1 fits in uint64_t for every long pair; 0 means all of them. */
long gj_rng_range(gj_rng *r, long lo, long hi)
{
    uint64_t span = (uint64_t)hi - (uint64_t)lo + 1;
    return span == 0 ? (long)gj_rng_next(r) : (long)((uint64_t)lo + gj_rng_below(r, span));
}

/* 53 random bits scaled by 2^-53 is exact in IEEE doubles, so the
 * comparison is the same everywhere. */
bool gj_rng_chance(gj_rng *r, double p)
{
    return (double)(gj_rng_next(r) >> 11) * 0x1p-53 < p;
}
