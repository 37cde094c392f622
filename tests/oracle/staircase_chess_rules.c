/* staircase_chess_rules.c - staircase-chess's part of the tests that walk every game
 * (game_rules.h): its positions read, judged and played by
 * staircase_chess_oracle.h's brute force, never by the game's code, and its
 * pictures' edge positions. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games.h"
#include "staircase_chess_oracle.h"
#include "game_rules.h"
#include "svg.h"
#define PR_CELLS 64 /* the largest board the test asks for, with room */

/* A position of staircase-chess, read from its /analyze request. */
typedef struct state {
    char mover[PUZZLE_MOVER_MAX]; /* the player to move, as the game names it */
    int rows, cols;
    long a[PR_CELLS];           /* black's values */
    long b[PR_CELLS];           /* ... and white's */
    unsigned char on[PR_CELLS]; /* a stone */
} state;

/* The stones on s's board. */
static int sc_stones(const state *s)
{
    int placed = 0;
    for (int i = 0; i < s->rows * s->cols; i++)
        placed += s->on[i];
    return placed;
}

/* Member `key` of o, an n x m board of values, into v; sets s's size. */
static void sc_read_values(const json_t *o, const char *key, state *s, long *v)
{
    const json_t *board = json_object_get(o, key);
    s->rows = (int)json_array_size(board);
    s->cols = s->rows > 0 ? (int)json_array_size(json_array_get(board, 0)) : 0;
    EXPECT(s->rows >= 1 && s->cols >= 1 && s->rows * s->cols <= STAIRCASE_CHESS_ORACLE_CELLS,
           "a %d x %d board is beyond the staircase-chess oracle", s->rows, s->cols);
    for (int i = 0; i < s->rows; i++) {
        const json_t *row = json_array_get(board, (size_t)i);
        EXPECT(json_array_size(row) == (size_t)s->cols, "%s row %d has the wrong length", key, i);
        for (int j = 0; j < s->cols; j++)
            v[i * s->cols + j] = (long)json_integer_value(json_array_get(row, (size_t)j));
    }
}

/* {"a","b","stones"|"profile"} into s, each stone checked against the rules
 * as it goes down; black moves on an even count. */
static void sc_read(const json_t *o, void *v)
{
    state *s = v;
    sc_read_values(o, "b", s, s->b);
    sc_read_values(o, "a", s, s->a);
    const json_t *stones = json_object_get(o, "stones"), *profile = json_object_get(o, "profile");
    for (size_t k = 0; k < json_array_size(stones); k++) {
        int r, c;
        rules_read_cell(json_array_get(stones, k), s->rows, s->cols, &r, &c);
        EXPECT(staircase_chess_oracle_legal(s->rows, s->cols, s->on, r, c),
               "stones[%zu] breaks the rules", k);
        s->on[r * s->cols + c] = 1;
    }
    if (profile != NULL) {
        EXPECT(json_array_size(profile) == (size_t)s->rows, "profile has the wrong length");
        for (int i = 0; i < s->rows; i++) {
            long long len = json_integer_value(json_array_get(profile, (size_t)i));
            EXPECT(len >= 0 && len <= s->cols, "profile[%d] is off the board", i);
            for (int j = 0; j < len; j++) {
                EXPECT(staircase_chess_oracle_legal(s->rows, s->cols, s->on, i, j),
                       "profile is not a staircase");
                s->on[i * s->cols + j] = 1;
            }
        }
    }
    snprintf(s->mover, sizeof s->mover, "%s", sc_stones(s) % 2 == 0 ? "black" : "white");
}

/* Every cell the rules allow, scored by exhaustive minimax: the mover's
 * value of the cell minus the opponent's best margin afterwards. */
static void sc_judge(const void *st, rules_verdict *v)
{
    const state *s = st;
    unsigned char on[PR_CELLS];
    int black = sc_stones(s) % 2 == 0;
    memcpy(on, s->on, sizeof on);
    for (int i = 0; i < s->rows; i++)
        for (int j = 0; j < s->cols; j++) {
            if (!staircase_chess_oracle_legal(s->rows, s->cols, on, i, j))
                continue;
            int cell = i * s->cols + j;
            on[cell] = 1;
            long rest = staircase_chess_oracle_margin(s->rows, s->cols, s->a, s->b, on);
            on[cell] = 0;
            rules_verdict_add(v, rules_cell_json(i, j), (black ? s->a[cell] : s->b[cell]) - rest);
        }
    long margin = staircase_chess_oracle_margin(s->rows, s->cols, s->a, s->b, s->on);
    EXPECT(v->n == 0 || margin == v->best, "the oracle's margin %ld is not its best move's %ld",
           margin, v->best);
}

/* A stone goes to the move's cell. */
static void sc_play(void *st, const json_t *move)
{
    state *s = st;
    int r, c;
    rules_read_cell(move, s->rows, s->cols, &r, &c);
    EXPECT(staircase_chess_oracle_legal(s->rows, s->cols, s->on, r, c), "an illegal stone");
    s->on[r * s->cols + c] = 1;
    snprintf(s->mover, sizeof s->mover, "%s", sc_stones(s) % 2 == 0 ? "black" : "white");
}

/* The staircase-chess measure of a stone on `move` in s, by the oracle. */
static double sc_look(const void *st, const json_t *move, int plies)
{
    const state *s = st;
    int r, c;
    rules_read_cell(move, s->rows, s->cols, &r, &c);
    int cell = r * s->cols + c;
    double v;
    EXPECT(staircase_chess_oracle_look(s->rows, s->cols, s->a, s->b, s->on, &cell, 1, plies, &v) ==
               0,
           "the staircase-chess oracle cannot read a stone on cell %d", cell);
    return v;
}
/* A staircase board rows x cols of the largest values, half filled in order. */
static json_t *stair_request(long rows, long cols)
{
    json_t *a = json_array(), *b = json_array(), *stones = json_array();
    for (long r = 0; r < rows; r++) {
        json_t *ra = json_array(), *rb = json_array();
        for (long c = 0; c < cols; c++) {
            json_array_append_new(ra, json_integer(100000 - r));
            json_array_append_new(rb, json_integer(99999 - c));
        }
        json_array_append_new(a, ra);
        json_array_append_new(b, rb);
    }
    for (long r = 0; r < rows / 2; r++)
        for (long c = 0; c < cols; c++)
            json_array_append_new(stones, json_pack("[ii]", r + 1, c + 1));
    json_t *req = json_object();
    json_object_set_new(req, "a", a);
    json_object_set_new(req, "b", b);
    json_object_set_new(req, "stones", stones);
    return req;
}

/* game_rules.h's picture_edge: the values' size bounds the board before
 * the picture does, so there is nothing one over. */
static json_t *sc_picture_edge(int past, char *size, char *bound)
{
    (void)size;
    (void)bound;
    return past ? NULL : stair_request(14, 14);
}

/* game_rules.h's opening_oracle: the brute force's judge output. */
static char *sc_opening_oracle(const char *in)
{
    char out[4096];
    const char *p = in;
    int n = (int)rules_tok_long(&p), m = (int)rules_tok_long(&p);
    long a[STAIRCASE_CHESS_ORACLE_CELLS], b[STAIRCASE_CHESS_ORACLE_CELLS];
    if (n * m > STAIRCASE_CHESS_ORACLE_CELLS)
        return NULL;
    for (int i = 0; i < n * m; i++)
        a[i] = rules_tok_long(&p);
    for (int i = 0; i < n * m; i++)
        b[i] = rules_tok_long(&p);
    return staircase_chess_oracle(n, m, a, b, out, sizeof out) == 0 ? strdup(out) : NULL;
}

/* game_rules.h's in_play_oracle. */
static int sc_in_play_oracle(const json_t *pos, long long *value, long long *wins)
{
    const json_t *ja = json_object_get(pos, "a"), *jb = json_object_get(pos, "b"),
                 *prof = json_object_get(pos, "profile");
    int n = (int)json_array_size(ja), m = (int)json_array_size(json_array_get(ja, 0)), stones = 0;
    long a[STAIRCASE_CHESS_ORACLE_CELLS], b[STAIRCASE_CHESS_ORACLE_CELLS];
    unsigned char stone[STAIRCASE_CHESS_ORACLE_CELLS] = {0};
    if (n * m > STAIRCASE_CHESS_ORACLE_CELLS)
        return 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) {
            a[i * m + j] = rules_at(json_array_get(ja, (size_t)i), (size_t)j);
            b[i * m + j] = rules_at(json_array_get(jb, (size_t)i), (size_t)j);
            stone[i * m + j] = j < rules_at(prof, (size_t)i);
            stones += stone[i * m + j];
        }
    *value = staircase_chess_oracle_margin(n, m, a, b, stone);
    *wins = 0;
    for (int c = 0; c < n * m; c++) {
        if (!staircase_chess_oracle_legal(n, m, stone, c / m, c % m))
            continue;
        stone[c] = 1;
        long gain = stones % 2 == 0 ? a[c] : b[c];
        *wins += gain - staircase_chess_oracle_margin(n, m, a, b, stone) == *value;
        stone[c] = 0;
    }
    return 1;
}

/* game_rules.h's opening_score. */
static long long sc_opening_score(const json_t *a)
{
    return rules_int_member(a, "score_difference");
}

const game_rules rules_staircase_chess = {
    .game = &game_staircase_chess,
    .knobs = "{\"rows\": 4, \"cols\": 4}",
    .depth2 = PUZZLE_DEPTH2_SEEDS,
    .scored = 1,
    .state_size = sizeof(state),
    .read = sc_read,
    .judge = sc_judge,
    .play = sc_play,
    .look = sc_look,
    .picture_edge = sc_picture_edge,
    .opening_oracle = sc_opening_oracle,
    .in_play_oracle = sc_in_play_oracle,
    .opening_score = sc_opening_score,
    .generate_knobs = ", \"rows\": 5, \"cols\": 5",
};
