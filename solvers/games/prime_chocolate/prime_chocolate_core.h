/* prime_chocolate_core.h - what the prime-chocolate solver shares with its
 * analysis (prime_chocolate_analysis.c), its picture (prime_chocolate_draw.c),
 * and what the analysis' parsed position reads of the puzzle's parts
 * (prime_chocolate_puzzle.c).
 *
 * Contract: pc_read_grid reads the JSON "grid" member exactly as /solve
 * reads it (1..max_n strings of n cells each: 'X' eaten, '-' or the en dash
 * chocolate), with the same errors naming grid or grid[i]. */
#ifndef GJ_PRIME_CHOCOLATE_CORE_H
#define GJ_PRIME_CHOCOLATE_CORE_H

#include <jansson.h>

#include "buf.h"
#include "error.h"

/* A malloc'd row-major array of n*n bytes, 1 = chocolate, and *n; or NULL
 * with *e filled. */
unsigned char *pc_read_grid(const json_t *grid, long max_n, long *n, gj_error *e);

/* 1 when p is a prime, by trial division (the sides are small), else 0:
 * the generator's knobs and the remoteness search read the prime sides. */
int pc_is_prime(long p);

/* The picture of a bar in play (game.h's gj_play.draw,
 * prime_chocolate_draw.c): n x n cells row-major, 1 chocolate; used[p] for
 * p in 0..n, 1 for a prime already chosen; `left` squares of chocolate;
 * dia 1 when DIA moves.  0, or -1 with *e (GJ_UNMET past svg.h's bound on
 * the board). */
int pc_draw(const unsigned char *cell, long n, const unsigned char *used, long long left, int dia,
            gj_buf *out, int *width, int *height, gj_error *e);
/* A move: its square's top-left cell (0-based) and side. */
typedef struct pc_square {
    int row, col, size;
} pc_square;

/* game.h's gj_play.look over a bar in play: n x n cells (1 = chocolate),
 * `left` squares of chocolate (> 0), moves[] its count legal moves, every
 * one (prime_chocolate_puzzle.c states the measure).  0, or -1 with *e. */
int pc_look(const unsigned char *cell, long n, long long left, const pc_square *moves, long count,
            int plies, double *value, gj_error *e);
/* game.h's gj_play.motifs: the bits of prime_chocolate_motifs that the
 * solving move moves[0] shows among all count (>= 1) legal moves. */
unsigned pc_motif_bits(const pc_square *moves, long count);

#endif
