/* rng.c - splitmix64 (rng.h). */
#include "rng.h"

void gj_rng_seed(gj_rng *r, uint64_t seed)
{
    r->state = seed;
}

uint64_t gj_rng_next(gj_rng *r)
{
    uint64_t z = (r->state += 0x9e3779b97f4a7c15ULL);
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
