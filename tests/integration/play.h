/* play.h - one game's side of the scripted games through /analyze.
 *
 * test_play.c plays small positions to the end: the engine (the daemon's
 * POST /analyze, always taking the first listed move) against the oracle
 * (tests/oracle/, brute force from the rules, taking a random best move).
 * At every engine turn the answer's `value` must equal the oracle's, and
 * the engine's move must keep that value: from a won position it must
 * leave the opponent lost (staircase-chess: gain minus the opponent's
 * margin afterwards must equal `value`).  Each game supplies this table in
 * tests/integration/play_<game>.c. */
#ifndef GJ_PLAY_H
#define GJ_PLAY_H

#include <jansson.h>

typedef struct play_game {
    const char *name;
    int scored; /* 1: values are margins (staircase-chess); 0: 1 win / 0 lose */

    /* A small random start position for `seed` (the same seed, the same
     * position); NULL when memory is short. */
    void *(*start)(unsigned seed);
    /* The POST /analyze/<name> body for the state, malloc'd. */
    char *(*request)(const void *state);
    /* The oracle's value for the player to move. */
    long (*oracle_value)(const void *state);
    /* 1 when the game has ended (no legal move; matrix-game: a fixed
     * number of plies, since its game never ends). */
    int (*over)(const void *state);
    /* Apply the "move" member of an /analyze answer's entry.  Returns the
     * mover's gain (staircase-chess; 0 for the others), or -1 when the move
     * is not legal in the state. */
    long (*apply)(void *state, const json_t *move);
    /* The oracle's turn: apply a move chosen at random among its best. */
    void (*oracle_move)(void *state, unsigned *rng);
    void (*free_state)(void *state);
} play_game;

/* The tables' shared generator: the next 16 random bits from *rng. */
unsigned play_random(unsigned *rng);

extern const play_game play_matrix_game, play_grid_walk, play_nim_shortcuts, play_prime_chocolate,
    play_staircase_chess;

#endif
