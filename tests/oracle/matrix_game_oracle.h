/* matrix_game_oracle.h - brute-force referee for matrix-game.
 *
 * Plays the game straight from its rules: M puts the token on a cell, then G
 * and M take turns jumping to any cell at Manhattan distance greater than k,
 * each scoring the value of the cell it lands on.  The 10^100-move game is
 * replaced by a finite minimax on the score difference over a long even
 * number of moves (both players then moved equally often), and the answer is
 * accepted only when its sign has stopped changing over the second half of
 * that horizon.  It knows nothing about extrema or value order, so it can
 * judge the fast solver.  It also reads a puzzle's view of a position (the
 * greedy measure and the motifs of matrix_game_puzzle.c) by plain
 * enumeration of the jumps.  Matrices are plain row-major arrays of n*n
 * ints. */
#ifndef GJ_MATRIX_GAME_ORACLE_H
#define GJ_MATRIX_GAME_ORACLE_H

#include <stddef.h>

/* The largest side one search accepts. */
#define MG_ORACLE_MAX_SIDE 6

/* Moves of the finite game, the placement included; even, so that M and G
 * have moved equally often when it ends.  Random positions up to 6 x 6 settle
 * within about 70 moves and positions hill-climbed to settle late within
 * about 50 on 5 x 5, so the check over moves 300..600 has a wide margin. */
#define MG_ORACLE_MOVES 600

/* Write the judge output for (n, k, value) into out (cap bytes, n * (n + 1) + 1
 * needed): n lines of n characters, 'M' where M wins by starting there, 'G'
 * where G wins.  Returns 0, or -1 when n or k is out of range, out is too
 * small, or some start had not settled on a winner (its score difference
 * changed sign, or was zero, at an even move count in the second half of the
 * horizon). */
int matrix_game_oracle(int n, int k, const int *value, char *out, size_t cap);

/* A position in the middle of play, by the same finite minimax: the token on
 * cell `token` (row-major index), or token = -1 at the opening, where the
 * mover places it on any cell.  Both players move by the same rule, so who
 * is to move does not matter.  The scores so far are left out (the game
 * still has ~10^100 moves to go).  For every cell d, outcome[d] (n * n
 * entries) becomes 1 when moving there wins for the mover, 0 when it loses,
 * -1 when it is not a legal move: a move wins when the mover's score minus
 * the opponent's over the remaining moves, the move included and both
 * playing best afterwards, is positive, for every horizon from
 * MG_ORACLE_MOVES / 2 to MG_ORACLE_MOVES remaining moves (odd and even).
 * Returns 1 when the mover wins (some move wins), 0 when she loses, -1 when
 * n, k or token is out of range or some move had not settled. */
int matrix_game_oracle_moves(int n, int k, const int *value, int token, signed char *outcome);

/* A puzzle's view of a position, straight from the rules (game.h's look
 * and motifs, matrix_game_puzzle.c's measure), for any n from 3 to
 * MG_ORACLE_MAX_SIDE: the token on cell `token` (row-major, -1 at the
 * opening) and moves[0..nmoves) row-major cells the token may jump to.
 *
 * look: into out[i], the points the mover of moves[i] is ahead by over
 * `plies` (1 or 2) moves, over n^2 + 1: her cell's value at 1, minus the
 * best cell the opponent may jump to from there at 2.  0, or -1 when an
 * argument is out of range or a move is no jump. */
int matrix_game_oracle_look(int n, int k, const int *value, int token, const int *moves, int nmoves,
                            int plies, double *out);

/* The bits of the motifs moves[0] shows when it is the solving move, in
 * the game's order: 1 top-cell (it holds the largest value), 2 outscored
 * (some jump from it scores more than it did), 4 modest (at least half of
 * the other jumps from the token score more).  The jumps are counted here
 * from the rules, not read from moves[]. 0, or -1 as look. */
int matrix_game_oracle_motifs(int n, int k, const int *value, int token, const int *moves,
                              int nmoves, unsigned *bits);

#endif
