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

/* Mid-play.  stone[i*m + j] != 0 marks an occupied cell; black moves when
 * the stones are even in number.  The best margin of the player to move,
 * own future score minus the opponent's, over the stones still to place
 * (0 on a full board); LONG_MIN when n*m is beyond the oracle. */
long staircase_chess_oracle_margin(int n, int m, const long *a, const long *b,
                                   const unsigned char *stone);

/* 1 when (i, j), 0-based, is empty and every cell to its left and above
 * holds a stone: the rules' own test of a legal move. */
int staircase_chess_oracle_legal(int n, int m, const unsigned char *stone, int i, int j);

/* Largest n*m the puzzle's look and motifs below accept: they look two
 * plies ahead at most, so any board the game allows is small enough. */
#define STAIRCASE_CHESS_ORACLE_LOOK_CELLS 700

/* The puzzle finder's view (game.h's look), from the rules: for each of the
 * `count` cells cell[k] (i*m + j, each legal now), into value[k], the
 * points the player to move takes minus the points the opponent takes over
 * `plies` (1 or 2) plies starting with that cell, the opponent's reply
 * (plies 2) being the one that leaves the least, divided by one more than
 * the largest entry of a or b on an empty cell.  0, or -1 when the board is
 * beyond the oracle or a cell is not a legal move. */
int staircase_chess_oracle_look(int n, int m, const long *a, const long *b,
                                const unsigned char *stone, const int *cell, int count, int plies,
                                double *value);

/* The game's motifs (staircase_chess_motifs' order) of the solving move
 * cell[0] among the `count` legal cells cell[]: bit 0 sacrifice (another
 * cell scores more now and more after the opponent's greediest reply),
 * bit 1 denial (the opponent would score strictly more on cell[0] than on
 * any other), bit 2 quiet (no cell scores less now, some scores more).
 * 0, or -1 as for the look. */
int staircase_chess_oracle_motifs(int n, int m, const long *a, const long *b,
                                  const unsigned char *stone, const int *cell, int count,
                                  unsigned *bits);

#endif
