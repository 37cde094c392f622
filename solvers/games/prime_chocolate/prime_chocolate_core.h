/* prime_chocolate_core.h - what the prime-chocolate solver shares with its
 * analysis (prime_chocolate_analysis.c).
 *
 * Contract: pc_read_grid reads the JSON "grid" member exactly as /solve
 * reads it (1..max_n strings of n cells each: 'X' eaten, '-' or the en dash
 * chocolate), with the same errors naming grid or grid[i]. */
#ifndef GJ_PRIME_CHOCOLATE_CORE_H
#define GJ_PRIME_CHOCOLATE_CORE_H

#include <jansson.h>

#include "error.h"

/* A malloc'd row-major array of n*n bytes, 1 = chocolate, and *n; or NULL
 * with *e filled. */
unsigned char *pc_read_grid(const json_t *grid, long max_n, long *n, gj_error *e);

/* 1 when p is a prime, by trial division (the sides are small), else 0:
 * the generator's knobs and the remoteness search read the prime sides. */
int pc_is_prime(long p);

#endif
