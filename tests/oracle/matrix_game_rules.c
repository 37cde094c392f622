/* matrix_game_rules.c - matrix-game's rules for the tests that walk every game
 * (game_rules.h): its positions read, judged and played by
 * matrix_game_oracle.h's brute force, never by the game's code. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games.h"
#include "matrix_game_oracle.h"
#include "game_rules.h"
#include "svg.h"
#define PR_CELLS 64 /* the largest board the test asks for, with room */

/* A position of matrix-game, read from its /analyze request. */
typedef struct state {
    char mover[PUZZLE_MOVER_MAX]; /* the player to move, as the game names it */
    int rows, cols;               /* the n x n matrix */
    int k;                        /* the distance a jump must exceed */
    int value[PR_CELLS];
    int token; /* the token's cell, -1 at the opening */
} state;

/* {"k","matrix","token"?,"to_move"?} into s; to_move defaults as the
 * analysis documents: G with a token, M at the opening. */
static void mg_read(const json_t *o, void *v)
{
    state *s = v;
    const json_t *m = json_object_get(o, "matrix");
    int n = (int)json_array_size(m);
    EXPECT(n >= 1 && n <= MG_ORACLE_MAX_SIDE, "a %d x %d matrix is beyond the oracle", n, n);
    s->rows = s->cols = n;
    s->k = (int)rules_int_member(o, "k");
    for (int i = 0; i < n; i++) {
        const json_t *row = json_array_get(m, (size_t)i);
        EXPECT(json_array_size(row) == (size_t)n, "matrix row %d has the wrong length", i);
        for (int j = 0; j < n; j++)
            s->value[i * n + j] = (int)json_integer_value(json_array_get(row, (size_t)j));
    }
    const json_t *token = json_object_get(o, "token");
    s->token = -1;
    if (token != NULL && !json_is_null(token)) {
        int r, c;
        rules_read_cell(token, n, n, &r, &c);
        s->token = r * n + c;
    }
    rules_read_mover(o, s->token < 0 ? "M" : "G", s->mover);
}

/* Every cell the mover may jump to, won or lost by the finite minimax. */
static void mg_judge(const void *st, rules_verdict *v)
{
    const state *s = st;
    signed char outcome[PR_CELLS];
    int n = s->rows;
    int wins = matrix_game_oracle_moves(n, s->k, s->value, s->token, outcome);
    EXPECT(wins >= 0, "the matrix-game oracle did not settle (k %d, token %d)", s->k, s->token);
    for (int d = 0; d < n * n; d++)
        if (outcome[d] >= 0)
            rules_verdict_add(v, rules_cell_json(d / n, d % n), outcome[d]);
    EXPECT((v->n > 0 && v->best == 1) == (wins == 1), "the oracle's value is not its best move's");
}

/* The token jumps to the move's cell; the other player moves. */
static void mg_play(void *st, const json_t *move)
{
    state *s = st;
    int r, c;
    rules_read_cell(move, s->rows, s->cols, &r, &c);
    s->token = r * s->cols + c;
    rules_swap_mover(s->mover, "M", "G");
}

/* The matrix-game measure of jumping to `move` from s, by the oracle. */
static double mg_look(const void *st, const json_t *move, int plies)
{
    const state *s = st;
    int r, c;
    rules_read_cell(move, s->rows, s->cols, &r, &c);
    int to = r * s->cols + c;
    double v;
    EXPECT(matrix_game_oracle_look(s->rows, s->k, s->value, s->token, &to, 1, plies, &v) == 0,
           "the matrix-game oracle cannot read the jump to cell %d", to);
    return v;
}
/* An n x n matrix of 1..n^2 in order, k = 1, the token on (2, 2). */
static json_t *matrix_request(long n)
{
    json_t *m = json_array();
    for (long r = 0; r < n; r++) {
        json_t *row = json_array();
        for (long c = 0; c < n; c++)
            json_array_append_new(row, json_integer(r * n + c + 1));
        json_array_append_new(m, row);
    }
    json_t *req = json_object();
    json_object_set_new(req, "k", json_integer(1));
    json_object_set_new(req, "matrix", m);
    json_object_set_new(req, "token", json_pack("[ii]", 2, 2));
    return req;
}

/* game_rules.h's picture_edge: an n x n matrix, n = SVG_CELLS_MAX + past. */
static json_t *mg_picture_edge(int past, char *size, char *bound)
{
    long n = SVG_CELLS_MAX + past;
    rules_board_bound(size, bound);
    return matrix_request(n);
}

/* game_rules.h's opening_oracle: the brute force's judge output. */
static char *mg_opening_oracle(const char *in)
{
    char out[4096];
    const char *p = in;
    int n = (int)rules_tok_long(&p), k = (int)rules_tok_long(&p), value[64];
    if (n > MG_ORACLE_MAX_SIDE)
        return NULL;
    for (int i = 0; i < n * n; i++)
        value[i] = (int)rules_tok_long(&p);
    return matrix_game_oracle(n, k, value, out, sizeof out) == 0 ? strdup(out) : NULL;
}

/* game_rules.h's in_play_oracle. */
static int mg_in_play_oracle(const json_t *pos, long long *value, long long *wins)
{
    const json_t *mat = json_object_get(pos, "matrix"), *tok = json_object_get(pos, "token");
    int n = (int)json_array_size(mat), v[64];
    signed char outcome[64];
    if (n > MG_ORACLE_MAX_SIDE)
        return 0;
    for (int i = 0; i < n * n; i++)
        v[i] = (int)rules_at(json_array_get(mat, (size_t)(i / n)), (size_t)(i % n));
    int t = (int)((rules_at(tok, 0) - 1) * n + rules_at(tok, 1) - 1);
    int r = matrix_game_oracle_moves(n, (int)rules_int_member(pos, "k"), v, t, outcome);
    ck_assert_int_ge(r, 0);
    *value = r ? 1 : -1;
    *wins = 0;
    for (int d = 0; d < n * n; d++)
        *wins += outcome[d] == 1;
    return 1;
}

/* game_rules.h's opening_score. */
static long long mg_opening_score(const json_t *a)
{
    size_t i;
    const json_t *row;
    json_array_foreach(json_object_get(a, "outcomes"), i,
                       row) if (strchr(json_string_value(row), 'M')) return 1;
    return -1;
}

const game_rules rules_matrix_game = {
    .game = &game_matrix_game,
    .knobs = "{\"n\": 5}",
    .depth2 = PUZZLE_DEPTH2_SEEDS,
    .scored = 0,
    .state_size = sizeof(state),
    .read = mg_read,
    .judge = mg_judge,
    .play = mg_play,
    .look = mg_look,
    .picture_edge = mg_picture_edge,
    .opening_oracle = mg_opening_oracle,
    .in_play_oracle = mg_in_play_oracle,
    .opening_score = mg_opening_score,
    .never_lost = 1,
};
