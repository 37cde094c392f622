/* staircase_chess_oracle.h - brute force for staircase-chess, straight from
 * the rules: try every cell that is empty and has every cell to its left and
 * above occupied, and take the best move for the player on turn, over the
 * whole game tree (no memo).  Meant for tiny boards only. */
#ifndef GJ_STAIRCASE_CHESS_ORACLE_H
#define GJ_STAIRCASE_CHESS_ORACLE_H

#include <stddef.h>

/* Largest n*m the oracle accepts; 4 x 4 already walks 24,024 games. */
#define STAIRCASE_CHESS_ORACLE_CELLS 16

/* Black's score minus white's under perfect play on the n x m board with
 * values a[i*m + j] (black) and b[i*m + j] (white), written as the judge's
 * answer ("D\n") into out.  Returns 0, or -1 when the board is too large or
 * out too small. */
int staircase_chess_oracle(int n, int m, const long *a, const long *b, char *out, size_t cap);

#endif
