/* games.h - the registry of games the service solves. */
#ifndef GJ_GAMES_H
#define GJ_GAMES_H

#include "game.h"

extern const gj_game game_matrix_game;
extern const gj_game game_grid_walk;
extern const gj_game game_nim_shortcuts;
extern const gj_game game_prime_chocolate;
extern const gj_game game_staircase_chess;

/* All games, in the order /games lists them. */
const gj_game *const *games_all(size_t *count);
/* The game called `name` (len bytes, not NUL-terminated), or NULL. */
const gj_game *games_find(const char *name, size_t len);
/* "matrix-game, grid-walk, ..." into out (cut to cap), for messages. */
void games_list(char *out, size_t cap);
/* The default limit values of a game into out[GJ_MAX_LIMITS]. */
void games_default_limits(const gj_game *g, long *out);

#endif
