/* game_rules.h - what the tests that walk every game need of each game
 * beyond the registry.  test_puzzle_oracle.c re-checks its puzzles from the
 * rules: a model of a position, the oracle's verdict on its moves, the move
 * played, and the game's greedy measure written again from the rules;
 * test_picture.c draws its positions at the picture's bounds;
 * test_generate.c judges the generator's positions by the oracle.
 *
 * Each game gives one `game_rules rules_<ident>` in its own file,
 * tests/oracle/<ident>_rules.c, over its brute-force oracle; the
 * test's table is made from games.def (game_rules_all), so a game added
 * there and lacking its rules stops the link.  A game's state is its own
 * struct, whose first member is the mover's name (char[PUZZLE_MOVER_MAX]);
 * the test zeroes it before `read` and compares two states byte by byte,
 * so `read` and `play` must leave nothing but the position in it. */
#ifndef GJ_GAME_RULES_H
#define GJ_GAME_RULES_H

#include <check.h>
#include <stddef.h>

#include <jansson.h>

#include "game.h"

/* ck_assert records every passing check through a file; this one speaks only
 * when it fails, which keeps thousands of checks cheap. */
#define EXPECT(cond, ...)                                                                          \
    do {                                                                                           \
        if (!(cond))                                                                               \
            ck_abort_msg(__VA_ARGS__);                                                             \
    } while (0)

#define PUZZLE_MOVER_MAX 8   /* a mover's name and its NUL */
#define PUZZLE_MAX_MOVES 160 /* legal moves of one position */
/* The depth-2 puzzles asked of a game that has them at its test sizes. */
#define PUZZLE_DEPTH2_SEEDS 15

/* The oracle's verdict on every legal move of a position.  score is 1 for a
 * move that wins for its mover and 0 for one that loses, or, in a scored
 * game, the mover's final margin under best play after the move. */
typedef struct rules_verdict {
    long n;
    json_t *move[PUZZLE_MAX_MOVES]; /* each as the analysis writes it */
    long score[PUZZLE_MAX_MOVES];
    long best, worst;
} rules_verdict;

/* What the test knows of one game: its sizes and its rules. */
typedef struct game_rules {
    const gj_game *game;
    const char *knobs; /* small sizes, so that the oracle can judge */
    int depth2;        /* depth-2 puzzles asked (0: none at these sizes) */
    int scored;        /* staircase-chess: moves are judged by score */
    size_t state_size; /* the game's state struct, mover first */
    /* The position (a step's /analyze request) into the zeroed state s. */
    void (*read)(const json_t *position, void *s);
    /* Every legal move of s into v, judged by the oracle alone. */
    void (*judge)(const void *s, rules_verdict *v);
    /* The move `move` played on s, the other player then to move. */
    void (*play)(void *s, const json_t *move);
    /* The game's greedy measure of the move `move` of s seen `plies` (1 or
     * 2) ahead, from the rules (game.h's gj_play.look); NULL: every move
     * looks the same. */
    double (*look)(const void *s, const json_t *move, int plies);
    /* test_picture's request at the edge of what the game's picture draws:
     * past 1, one over the bound (NULL when nothing is), whose refusal must
     * name *size and *bound (32 bytes each, set here); past 0, the largest
     * allowed, as full as its picture gets. */
    json_t *(*picture_edge)(int past, char *size, char *bound);
    /* test_generate's oracles of a generated position, brute force only:
     * the judge output for the opening judge text `in` (malloc'd; NULL
     * when it is beyond the oracle); */
    char *(*opening_oracle)(const char *in);
    /* the (value, winning moves) of a position in play (its /analyze
     * body): 0 when it is beyond the oracle, 1 when both are filled, 2
     * when only the value (+1 win, -1 lose, or a scored game's margin); */
    int (*in_play_oracle)(const json_t *pos, long long *value, long long *wins);
    /* and the mover's outcome in /solve's answer a (+1, -1 or the score). */
    long long (*opening_score)(const json_t *a);
    /* 1 when no position the generator makes is lost for its mover
     * (matrix-game: the opening is always won, outcome "lose" refused). */
    int never_lost;
    /* Knobs (", ...", spliced into a request) under which the generator's
     * positions may have 4 moves; NULL: its defaults allow them. */
    const char *generate_knobs;
} game_rules;

#define GAME(ident, url_name) extern const game_rules rules_##ident;
#include "games.def"
#undef GAME

/* Every game's rules, games.def's order; *count set to their number. */
const game_rules *const *game_rules_all(size_t *count);

/* Append a move (taken) and its score to v, keeping best and worst. */
void rules_verdict_add(rules_verdict *v, json_t *move, long score);
/* [r + 1, c + 1]: a cell as the games write it, 1-based. */
json_t *rules_cell_json(int r, int c);
/* A [row, column] member (1-based, inside rows x cols) as 0-based *r, *c. */
void rules_read_cell(const json_t *v, int rows, int cols, int *r, int *c);
/* An integer member `key` of o, which must be there. */
long long rules_int_member(const json_t *o, const char *key);
/* The optional "to_move" of o into mover, `fallback` when absent. */
void rules_read_mover(const json_t *o, const char *fallback, char *mover);
/* A JSON array of `rows` strings of `cols` copies of c. */
json_t *rules_rows_of(long rows, long cols, char c);
/* svg.h's board bound, one over it and the bound, as svg_check_board
 * names them ("65 x 65", "64 x 64"), into size and bound (32 bytes each). */
void rules_board_bound(char *size, char *bound);
/* The next integer of judge text at *p, *p moved past it. */
long rules_tok_long(const char **p);
/* The next whitespace-free word of judge text at *p into out (cap bytes). */
void rules_tok_word(const char **p, char *out, size_t cap);
/* The i-th element of array v, which must be an integer. */
long rules_at(const json_t *v, size_t i);
/* mover becomes the other of the two names. */
void rules_swap_mover(char *mover, const char *one, const char *other);

#endif
