/* games.h - the registry of games the service solves.
 *
 * The games are those of games.def, in its order; each is a gj_game
 * (game.h) named game_<ident>, defined in solvers/games/<ident>/<ident>.c.
 * The registry names every game; nothing below it names any. */
#ifndef GJ_GAMES_H
#define GJ_GAMES_H

#include "game.h"

#define GAME(ident, url_name) extern const gj_game game_##ident;
#include "games.def"
#undef GAME

/* How many games there are: games.def's lines, counted by the compiler, so
 * a table sized by it grows with the list. */
enum {
    GAMES_COUNT = 0
#define GAME(ident, url_name) +1
#include "games.def"
#undef GAME
};

/* All games, in the order /games lists them. */
const gj_game *const *games_all(size_t *count);
/* The game called `name` (len bytes, not NUL-terminated), or NULL. */
const gj_game *games_find(const char *name, size_t len);
/* "matrix-game, grid-walk, ..." into out (cut to cap), for messages. */
void games_list(char *out, size_t cap);

#endif
