/* test_puzzle_oracle.c - every puzzle served (puzzle.h) re-checked on small
 * sizes by the brute-force oracles of tests/oracle, which play the rules and
 * share nothing with the solvers.
 *
 * For each game, puzzles of depth 1 (and 2 where the game has them at these
 * sizes) are asked of puzzle_find for a fixed list of seeds; a GJ_UNMET
 * answer is counted and skipped, and most seeds must give a puzzle.  For
 * every step of every puzzle, the step's position is read into the test's
 * own model of the game and judged by the oracle alone:
 *   - the player to move wins (staircase-chess has no win to check: a
 *     puzzle there asks for the best final margin, whatever its sign, and a
 *     position given by profile does not carry the score so far);
 *   - exactly one legal move solves it (wins; staircase-chess: reaches the
 *     best margin), and it is the puzzle's moves[0];
 *   - the legal moves are as many as the step's `legal`, and the listed moves
 *     are exactly the legal ones, each once;
 *   - each listed move's loss, computed here from the oracle's verdict by
 *     engine.h's definition, is engine_losses' one;
 *   - after the solving move, the defender's reply is legal and loses
 *     (staircase-chess: reaches the defender's best margin, the first of its
 *     ranking), and the next step's position is the one the rules give after
 *     the two moves, the same player to move.
 * The difficulty is recomputed from the rules: each game's greedy measure
 * (its row's `look`, written here or in tests/oracle from the rules, never
 * calling the game) gives how every legal move looks one and two plies
 * ahead, puzzle.h's finder turns those into each step's miss chance, and
 * the puzzle's miss, difficulty (on the game's scale) and rating must be
 * the puzzle's; the `trap` theme must hold exactly when the greedy move is
 * another, `long` exactly from depth 3.  Every id rebuilds a
 * byte-identical puzzle; an id with one character of its data changed is a
 * bad_input naming "id", and an id of another game is not_found.
 *
 * Not checked: remoteness (issue 23 item 1) is not on main yet; when /analyze
 * answers it, the oracles should check it here too. */
#include <check.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "buf.h"
#include "engine.h"
#include "games.h"
#include "generate.h"
#include "grid_walk_oracle.h"
#include "harness.h"
#include "matrix_game_oracle.h"
#include "nim_shortcuts_oracle.h"
#include "nim_shortcuts_tree.h"
#include "prime_chocolate_oracle.h"
#include "puzzle_search.h"
#include "puzzle_themes.h"
#include "puzzle_write.h"
#include "staircase_chess_oracle.h"

/* ck_assert records every passing check through a file; this one speaks only
 * when it fails, which keeps thousands of checks cheap. */
#define EXPECT(cond, ...)                                                                          \
    do {                                                                                           \
        if (!(cond))                                                                               \
            ck_abort_msg(__VA_ARGS__);                                                             \
    } while (0)

#define DEPTH1_SEEDS 40
#define DEPTH2_SEEDS 15
#define MAX_CELLS    64  /* the largest board the test asks for, with room */
#define MAX_SHORTCUT 32  /* nim-shortcuts' shortcuts */
#define MAX_MOVES    160 /* legal moves of one position */
#define LOSS_MAX     16  /* engine.h: a wrong outcome's loss */

/* ---- the test's model of a position ---------------------------------- */

/* One position of any of the five games, read from its /analyze request;
 * members a game does not use stay zero, so two states compare member by
 * member whatever the game. */
typedef struct state {
    int rows, cols;              /* the board; matrix-game and prime-chocolate n x n */
    int k;                       /* matrix-game's distance */
    int value[MAX_CELLS];        /* matrix-game's values */
    int token;                   /* matrix-game's token cell, -1 at the opening */
    long a[MAX_CELLS];           /* staircase-chess: black's values */
    long b[MAX_CELLS];           /* ... and white's */
    unsigned char on[MAX_CELLS]; /* grid-walk: free; prime-chocolate: chocolate;
                                    staircase-chess: a stone */
    int path[MAX_CELLS], plen;   /* grid-walk's token path, cells r * cols + c */
    long heap[2];                /* nim-shortcuts */
    long sx[MAX_SHORTCUT], sy[MAX_SHORTCUT];
    int nshort;
    unsigned char used[MAX_CELLS + 1]; /* prime-chocolate's primes chosen */
    char mover[8];                     /* the player to move, as the game names it */
} state;

/* The oracle's verdict on every legal move of a position.  score is 1 for a
 * move that wins for its mover and 0 for one that loses, or, in
 * staircase-chess, the mover's gain on the cell minus the opponent's best
 * margin afterwards. */
typedef struct verdict {
    long n;
    json_t *move[MAX_MOVES]; /* each as the analysis writes it */
    long score[MAX_MOVES];
    long best, worst;
} verdict;

/* What the test knows of one game: its sizes and its rules. */
typedef struct rules {
    const gj_game *game;
    const char *knobs; /* small sizes, so that the oracle can judge */
    int depth2;        /* depth-2 puzzles asked (0: none at these sizes) */
    int scored;        /* staircase-chess: moves are judged by score */
    void (*read)(const json_t *position, state *s);
    void (*judge)(const state *s, verdict *v);
    void (*play)(state *s, const json_t *move);
    /* The game's greedy measure of the move `move` of s seen `plies` (1 or
     * 2) ahead, from the rules (game.h's gj_play.look); NULL: every move
     * looks the same. */
    double (*look)(const state *s, const json_t *move, int plies);
} rules;

/* Release the moves a verdict holds. */
static void verdict_free(verdict *v)
{
    for (long i = 0; i < v->n; i++)
        json_decref(v->move[i]);
    v->n = 0;
}

/* Append a move (taken) and its score to v, keeping best and worst. */
static void verdict_add(verdict *v, json_t *move, long score)
{
    EXPECT(move != NULL, "out of memory");
    EXPECT(v->n < MAX_MOVES, "more than %d legal moves", MAX_MOVES);
    if (v->n == 0 || score > v->best)
        v->best = score;
    if (v->n == 0 || score < v->worst)
        v->worst = score;
    v->move[v->n] = move;
    v->score[v->n++] = score;
}

/* The index in v of the move equal to `move`, or -1. */
static long verdict_find(const verdict *v, const json_t *move)
{
    for (long i = 0; i < v->n; i++)
        if (json_equal(v->move[i], (json_t *)move))
            return i;
    return -1;
}

/* [r + 1, c + 1]: a cell as the games write it, 1-based. */
static json_t *cell_json(int r, int c)
{
    return json_pack("[i,i]", r + 1, c + 1);
}

/* A [row, column] member (1-based, inside rows x cols) as 0-based *r, *c. */
static void read_cell(const json_t *v, int rows, int cols, int *r, int *c)
{
    EXPECT(json_is_array(v) && json_array_size(v) == 2, "a cell is not [row, column]");
    long long i = json_integer_value(json_array_get(v, 0));
    long long j = json_integer_value(json_array_get(v, 1));
    EXPECT(i >= 1 && i <= rows && j >= 1 && j <= cols, "cell [%lld, %lld] is off the board", i, j);
    *r = (int)i - 1;
    *c = (int)j - 1;
}

/* An integer member `key` of o, which must be there. */
static long long int_member(const json_t *o, const char *key)
{
    const json_t *v = json_object_get(o, key);
    EXPECT(json_is_integer(v), "member %s is not an integer", key);
    return json_integer_value(v);
}

/* The optional "to_move" of o into s->mover, `fallback` when absent. */
static void read_mover(const json_t *o, const char *fallback, state *s)
{
    const json_t *v = json_object_get(o, "to_move");
    const char *name = v == NULL || json_is_null(v) ? fallback : json_string_value(v);
    EXPECT(name != NULL && strlen(name) < sizeof s->mover, "to_move is not a name");
    snprintf(s->mover, sizeof s->mover, "%s", name);
}

/* s->mover becomes the other of the two names. */
static void swap_mover(state *s, const char *one, const char *other)
{
    EXPECT(strcmp(s->mover, one) == 0 || strcmp(s->mover, other) == 0, "unknown mover %s",
           s->mover);
    snprintf(s->mover, sizeof s->mover, "%s", strcmp(s->mover, one) == 0 ? other : one);
}

/* ---- matrix-game ------------------------------------------------------- */

/* {"k","matrix","token"?,"to_move"?} into s; to_move defaults as the
 * analysis documents: G with a token, M at the opening. */
static void mg_read(const json_t *o, state *s)
{
    const json_t *m = json_object_get(o, "matrix");
    int n = (int)json_array_size(m);
    EXPECT(n >= 1 && n <= MG_ORACLE_MAX_SIDE, "a %d x %d matrix is beyond the oracle", n, n);
    s->rows = s->cols = n;
    s->k = (int)int_member(o, "k");
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
        read_cell(token, n, n, &r, &c);
        s->token = r * n + c;
    }
    read_mover(o, s->token < 0 ? "M" : "G", s);
}

/* Every cell the mover may jump to, won or lost by the finite minimax. */
static void mg_judge(const state *s, verdict *v)
{
    signed char outcome[MAX_CELLS];
    int n = s->rows;
    int wins = matrix_game_oracle_moves(n, s->k, s->value, s->token, outcome);
    EXPECT(wins >= 0, "the matrix-game oracle did not settle (k %d, token %d)", s->k, s->token);
    for (int d = 0; d < n * n; d++)
        if (outcome[d] >= 0)
            verdict_add(v, cell_json(d / n, d % n), outcome[d]);
    EXPECT((v->n > 0 && v->best == 1) == (wins == 1), "the oracle's value is not its best move's");
}

/* The token jumps to the move's cell; the other player moves. */
static void mg_play(state *s, const json_t *move)
{
    int r, c;
    read_cell(move, s->rows, s->cols, &r, &c);
    s->token = r * s->cols + c;
    swap_mover(s, "M", "G");
}

/* The matrix-game measure of jumping to `move` from s, by the oracle. */
static double mg_look(const state *s, const json_t *move, int plies)
{
    int r, c;
    read_cell(move, s->rows, s->cols, &r, &c);
    int to = r * s->cols + c;
    double v;
    EXPECT(matrix_game_oracle_look(s->rows, s->k, s->value, s->token, &to, 1, plies, &v) == 0,
           "the matrix-game oracle cannot read the jump to cell %d", to);
    return v;
}

/* ---- grid-walk --------------------------------------------------------- */

/* Whether cells a and b (r * cols + c) are side by side. */
static int gw_adjacent(const state *s, int a, int b)
{
    int dr = a / s->cols - b / s->cols, dc = a % s->cols - b % s->cols;
    return (dr == 0 && (dc == 1 || dc == -1)) || (dc == 0 && (dr == 1 || dr == -1));
}

/* {"grid","path"} into s, the path checked against the rules (free cells,
 * each next to the one before, none twice); A moves on an even path. */
static void gw_read(const json_t *o, state *s)
{
    const json_t *grid = json_object_get(o, "grid"), *path = json_object_get(o, "path");
    s->rows = (int)json_array_size(grid);
    s->cols = s->rows > 0 ? (int)strlen(json_string_value(json_array_get(grid, 0))) : 0;
    EXPECT(s->rows >= 1 && s->cols >= 1 && s->rows * s->cols <= MAX_CELLS,
           "a %d x %d grid is beyond the test", s->rows, s->cols);
    for (int i = 0; i < s->rows; i++) {
        const char *row = json_string_value(json_array_get(grid, (size_t)i));
        EXPECT(row != NULL && strlen(row) == (size_t)s->cols, "grid row %d has the wrong length",
               i);
        for (int j = 0; j < s->cols; j++) {
            EXPECT(row[j] == '.' || row[j] == '#', "grid cell '%c' is neither '.' nor '#'", row[j]);
            s->on[i * s->cols + j] = row[j] == '.';
        }
    }
    EXPECT(json_is_array(path), "no path");
    for (size_t k = 0; k < json_array_size(path); k++) {
        int r, c;
        read_cell(json_array_get(path, k), s->rows, s->cols, &r, &c);
        int cell = r * s->cols + c;
        EXPECT(s->on[cell], "path[%zu] is on a blocked cell", k);
        for (int q = 0; q < s->plen; q++)
            EXPECT(s->path[q] != cell, "path[%zu] revisits a cell", k);
        EXPECT(s->plen == 0 || gw_adjacent(s, s->path[s->plen - 1], cell),
               "path[%zu] is not next to the cell before it", k);
        s->path[s->plen++] = cell;
    }
    snprintf(s->mover, sizeof s->mover, "%s", s->plen % 2 == 0 ? "A" : "B");
}

/* Every placement (at the opening) or step to a free unvisited neighbour,
 * won iff the opponent then loses, by the game-tree oracle. */
static void gw_judge(const state *s, verdict *v)
{
    char cells[MAX_CELLS];
    unsigned char visited[MAX_CELLS] = {0};
    for (int i = 0; i < s->rows * s->cols; i++)
        cells[i] = s->on[i] ? '.' : '#';
    gw_tree *t = gw_tree_new(s->rows, s->cols, cells);
    EXPECT(t != NULL, "the grid has more free cells than the oracle takes");
    for (int q = 0; q < s->plen; q++)
        visited[s->path[q]] = 1;
    for (int w = 0; w < s->rows * s->cols; w++) {
        if (!s->on[w] || visited[w] || (s->plen > 0 && !gw_adjacent(s, s->path[s->plen - 1], w)))
            continue;
        visited[w] = 1;
        int opponent = gw_tree_mover_wins(t, w / s->cols, w % s->cols, visited);
        visited[w] = 0;
        verdict_add(v, cell_json(w / s->cols, w % s->cols), !opponent);
    }
    if (s->plen > 0) {
        int token = s->path[s->plen - 1];
        int wins = gw_tree_mover_wins(t, token / s->cols, token % s->cols, visited);
        EXPECT((v->n > 0 && v->best == 1) == (wins == 1),
               "the oracle's value is not its best move's");
    }
    gw_tree_free(t);
}

/* The move's cell joins the path. */
static void gw_play(state *s, const json_t *move)
{
    int r, c;
    read_cell(move, s->rows, s->cols, &r, &c);
    s->path[s->plen++] = r * s->cols + c;
    snprintf(s->mover, sizeof s->mover, "%s", s->plen % 2 == 0 ? "A" : "B");
}

/* The grid-walk measure of stepping to (or, at the opening, placing on)
 * `move` from s, by the oracle. */
static double gw_look(const state *s, const json_t *move, int plies)
{
    int r, c;
    read_cell(move, s->rows, s->cols, &r, &c);
    char cells[MAX_CELLS];
    for (int i = 0; i < s->rows * s->cols; i++)
        cells[i] = s->on[i] ? '.' : '#';
    int to = r * s->cols + c;
    double v;
    gw_oracle_look(s->rows, s->cols, cells, s->path, s->plen, &to, 1, plies, &v);
    return v;
}

/* ---- nim-shortcuts ----------------------------------------------------- */

/* {"shortcuts","heaps","to_move"?} into s ("first" when absent). */
static void ns_read(const json_t *o, state *s)
{
    const json_t *sc = json_object_get(o, "shortcuts"), *heaps = json_object_get(o, "heaps");
    EXPECT(json_array_size(sc) <= MAX_SHORTCUT, "too many shortcuts for the test");
    for (size_t i = 0; i < json_array_size(sc); i++) {
        const json_t *p = json_array_get(sc, i);
        EXPECT(json_array_size(p) == 2, "shortcut %zu is not [x, y]", i);
        s->sx[i] = (long)json_integer_value(json_array_get(p, 0));
        s->sy[i] = (long)json_integer_value(json_array_get(p, 1));
    }
    s->nshort = (int)json_array_size(sc);
    EXPECT(json_array_size(heaps) == 2, "heaps is not [x, y]");
    for (int i = 0; i < 2; i++) {
        s->heap[i] = (long)json_integer_value(json_array_get(heaps, (size_t)i));
        EXPECT(s->heap[i] >= 0 && s->heap[i] <= 1000, "heap %ld is beyond the test", s->heap[i]);
    }
    read_mover(o, "first", s);
}

/* At a shortcut the mover has lost and has no move; elsewhere every take
 * from one heap, won iff it reaches a position the tree says is lost. */
static void ns_judge(const state *s, verdict *v)
{
    nim_tree t;
    long x = s->heap[0], y = s->heap[1];
    EXPECT(nim_tree_build(&t, s->sx, s->sy, s->nshort, x + 1, y + 1) == 0, "out of memory");
    if (!nim_tree_is_shortcut(&t, x, y)) {
        for (long take = 1; take <= x; take++)
            verdict_add(v, json_pack("{s:i,s:I}", "heap", 1, "take", (json_int_t)take),
                        nim_tree_loses(&t, x - take, y));
        for (long take = 1; take <= y; take++)
            verdict_add(v, json_pack("{s:i,s:I}", "heap", 2, "take", (json_int_t)take),
                        nim_tree_loses(&t, x, y - take));
    }
    int wins = !nim_tree_loses(&t, x, y);
    EXPECT((v->n > 0 && v->best == 1) == wins, "the tree's value is not its best move's");
    nim_tree_free(&t);
}

/* The move's stones leave its heap; the other player moves. */
static void ns_play(state *s, const json_t *move)
{
    long long heap = int_member(move, "heap"), take = int_member(move, "take");
    EXPECT((heap == 1 || heap == 2) && take >= 1 && take <= s->heap[heap - 1], "a bad take");
    s->heap[heap - 1] -= (long)take;
    swap_mover(s, "first", "second");
}

/* The nim-shortcuts measure of the take `move` from s, by the oracle. */
static double ns_look(const state *s, const json_t *move, int plies)
{
    return nim_shortcuts_oracle_look(s->sx, s->sy, s->nshort, s->heap[0], s->heap[1],
                                     (int)int_member(move, "heap"), (long)int_member(move, "take"),
                                     plies);
}

/* ---- prime-chocolate --------------------------------------------------- */

/* {"grid" ('-' chocolate, 'X' eaten),"primes_used"?,"to_move"?} into s
 * (RUBY when absent). */
static void pc_read(const json_t *o, state *s)
{
    const json_t *grid = json_object_get(o, "grid"), *used = json_object_get(o, "primes_used");
    int n = (int)json_array_size(grid);
    EXPECT(n >= 1 && n * n <= MAX_CELLS && n <= PC_ORACLE_MAX_SIDE, "a bar of side %d", n);
    s->rows = s->cols = n;
    for (int i = 0; i < n; i++) {
        const char *row = json_string_value(json_array_get(grid, (size_t)i));
        EXPECT(row != NULL && strlen(row) == (size_t)n, "bar row %d has the wrong length", i);
        for (int j = 0; j < n; j++) {
            EXPECT(row[j] == '-' || row[j] == 'X', "bar square '%c' is neither '-' nor 'X'",
                   row[j]);
            s->on[i * n + j] = row[j] == '-';
        }
    }
    for (size_t i = 0; i < json_array_size(used); i++) {
        long long p = json_integer_value(json_array_get(used, i));
        EXPECT(p >= 2 && p <= n && prime_chocolate_oracle_is_prime((int)p), "a bad prime");
        s->used[p] = 1;
    }
    read_mover(o, "RUBY", s);
}

/* Every square the oracle allows, won iff the opponent then loses. */
static void pc_judge(const state *s, verdict *v)
{
    pc_oracle_move moves[MAX_MOVES];
    int count = 0;
    int wins = prime_chocolate_oracle_mid(s->rows, s->on, s->used, moves, MAX_MOVES, &count);
    EXPECT(wins >= 0, "the bar is beyond the prime-chocolate oracle");
    EXPECT(count <= MAX_MOVES, "%d moves, more than the test holds", count);
    for (int i = 0; i < count; i++)
        verdict_add(v,
                    json_pack("{s:i,s:i,s:i}", "row", moves[i].row + 1, "col", moves[i].col + 1,
                              "size", moves[i].size),
                    !moves[i].opponent_wins);
    EXPECT((v->n > 0 && v->best == 1) == (wins == 1), "the oracle's value is not its best move's");
}

/* The move's square is eaten, its prime (side above 1) is used; the other
 * player moves. */
static void pc_play(state *s, const json_t *move)
{
    int row = (int)int_member(move, "row") - 1, col = (int)int_member(move, "col") - 1;
    int size = (int)int_member(move, "size"), n = s->rows;
    EXPECT(row >= 0 && col >= 0 && size >= 1 && row + size <= n && col + size <= n, "bad square");
    for (int i = row; i < row + size; i++)
        for (int j = col; j < col + size; j++) {
            EXPECT(s->on[i * n + j], "the square eats an eaten square");
            s->on[i * n + j] = 0;
        }
    if (size > 1) {
        EXPECT(!s->used[size], "prime %d used twice", size);
        s->used[size] = 1;
    }
    swap_mover(s, "RUBY", "DIA");
}

/* The prime-chocolate measure of the square `move` of s, by the oracle. */
static double pc_look(const state *s, const json_t *move, int plies)
{
    return prime_chocolate_oracle_look(s->rows, s->on, s->used, (int)int_member(move, "row") - 1,
                                       (int)int_member(move, "col") - 1,
                                       (int)int_member(move, "size"), plies);
}

/* ---- staircase-chess --------------------------------------------------- */

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
static void sc_read(const json_t *o, state *s)
{
    sc_read_values(o, "b", s, s->b);
    sc_read_values(o, "a", s, s->a);
    const json_t *stones = json_object_get(o, "stones"), *profile = json_object_get(o, "profile");
    for (size_t k = 0; k < json_array_size(stones); k++) {
        int r, c;
        read_cell(json_array_get(stones, k), s->rows, s->cols, &r, &c);
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
static void sc_judge(const state *s, verdict *v)
{
    unsigned char on[MAX_CELLS];
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
            verdict_add(v, cell_json(i, j), (black ? s->a[cell] : s->b[cell]) - rest);
        }
    long margin = staircase_chess_oracle_margin(s->rows, s->cols, s->a, s->b, s->on);
    EXPECT(v->n == 0 || margin == v->best, "the oracle's margin %ld is not its best move's %ld",
           margin, v->best);
}

/* A stone goes to the move's cell. */
static void sc_play(state *s, const json_t *move)
{
    int r, c;
    read_cell(move, s->rows, s->cols, &r, &c);
    EXPECT(staircase_chess_oracle_legal(s->rows, s->cols, s->on, r, c), "an illegal stone");
    s->on[r * s->cols + c] = 1;
    snprintf(s->mover, sizeof s->mover, "%s", sc_stones(s) % 2 == 0 ? "black" : "white");
}

/* The staircase-chess measure of a stone on `move` in s, by the oracle. */
static double sc_look(const state *s, const json_t *move, int plies)
{
    int r, c;
    read_cell(move, s->rows, s->cols, &r, &c);
    int cell = r * s->cols + c;
    double v;
    EXPECT(staircase_chess_oracle_look(s->rows, s->cols, s->a, s->b, s->on, &cell, 1, plies, &v) ==
               0,
           "the staircase-chess oracle cannot read a stone on cell %d", cell);
    return v;
}

/* The five games, games.def's order, each with sizes its oracle handles.
 * prime-chocolate has no depth-2 puzzles at any size, by the parity argument
 * of prime_chocolate_analysis.c: with the 2 x 2 used every move has the same
 * outcome; on an even bar a 2 x 2 move wins whenever one is left (and
 * nothing wins without one), so a single solving move there is that 2 x 2;
 * on an odd bar the winning moves are odd ones that leave no full 2 x 2, so
 * the attacker's next bar is odd with none either, where every move wins.
 * (1,768 candidates on 4 x 4 found none, as it says.) */
static const rules games[] = {
    {&game_matrix_game, "{\"n\": 5}", DEPTH2_SEEDS, 0, mg_read, mg_judge, mg_play, mg_look},
    {&game_grid_walk, "{\"rows\": 4, \"cols\": 4}", DEPTH2_SEEDS, 0, gw_read, gw_judge, gw_play,
     gw_look},
    {&game_nim_shortcuts, "{\"shortcuts\": 3, \"range\": 8}", DEPTH2_SEEDS, 0, ns_read, ns_judge,
     ns_play, ns_look},
    {&game_prime_chocolate, "{\"n\": 4}", 0, 0, pc_read, pc_judge, pc_play, pc_look},
    {&game_staircase_chess, "{\"rows\": 4, \"cols\": 4}", DEPTH2_SEEDS, 1, sc_read, sc_judge,
     sc_play, sc_look},
};
_Static_assert(sizeof games / sizeof games[0] == GAMES_COUNT, "one row per game of games.def");

/* Whether two states are the same position, member by member. */
static int same_state(const state *x, const state *y)
{
    return x->rows == y->rows && x->cols == y->cols && x->k == y->k &&
           memcmp(x->value, y->value, sizeof x->value) == 0 && x->token == y->token &&
           memcmp(x->a, y->a, sizeof x->a) == 0 && memcmp(x->b, y->b, sizeof x->b) == 0 &&
           memcmp(x->on, y->on, sizeof x->on) == 0 && x->plen == y->plen &&
           memcmp(x->path, y->path, sizeof x->path) == 0 &&
           memcmp(x->heap, y->heap, sizeof x->heap) == 0 && x->nshort == y->nshort &&
           memcmp(x->sx, y->sx, sizeof x->sx) == 0 && memcmp(x->sy, y->sy, sizeof x->sy) == 0 &&
           memcmp(x->used, y->used, sizeof x->used) == 0 && strcmp(x->mover, y->mover) == 0;
}

/* A zeroed state with the position read into it by the game's rules. */
static void read_state(const rules *r, const json_t *position, state *s)
{
    memset(s, 0, sizeof *s);
    s->token = -1;
    EXPECT(json_is_object(position), "a step's position is not an object");
    r->read(position, s);
}

/* ---- the checks of one puzzle ------------------------------------------ */

/* The limits puzzle_find and puzzle_from_id run under: the game's defaults
 * and a budget ceiling generous enough for a sanitizer build on a loaded
 * machine. */
static void puzzle_limits(const gj_game *g, long limits[GEN_NLIMITS])
{
    game_default_limits(g, limits);
    limits[GEN_LIMIT_BUDGET] = 60000;
}

/* The finder's chance to miss moves[0] among n moves whose values at one
 * and two plies are v1 and v2 (puzzle.h), and the greedy move's index
 * (-1 on a tie) into *greedy: written again from puzzle.h's words. */
static double finder_miss(const double *v1, const double *v2, long n, long *greedy)
{
    double found = 0;
    for (int k = 0; k < 2; k++) {
        const double *v = k == 0 ? v1 : v2;
        double best = v[0];
        for (long i = 1; i < n; i++)
            best = v[i] > best ? v[i] : best;
        long at_best = 0, top = -1;
        double all = 0;
        for (long i = 0; i < n; i++) {
            double gap = 1 + PUZZLE_FINDER_FOCUS * (best - v[i]);
            all += 1 / (gap * gap);
            if (v[i] == best) {
                at_best++;
                top = i;
            }
        }
        if (k == 0)
            *greedy = at_best == 1 ? top : -1;
        double own = 1 + PUZZLE_FINDER_FOCUS * (best - v[0]);
        found += 1 / (own * own) / all;
    }
    return 1 - found / 2;
}

/* Step i of p against the oracle's verdict v on state s (see the header):
 * the one solving move, the legal moves, their losses, and the finder's
 * miss and greedy move from the game's measure by the rules.  `what`
 * names the puzzle in messages. */
static void check_step(const rules *r, const puzzle *p, int i, const state *s, const verdict *v,
                       const char *what)
{
    const puzzle_step *st = &p->steps[i];
    long n = st->legal;
    json_t *moves = json_array();
    for (long j = 0; j < n; j++)
        json_array_append_new(moves, harness_step_entry(st, j));
    if (!r->scored)
        EXPECT(v->best == 1, "%s step %d: the oracle says the player to move loses", what, i);
    long best_count = 0, best_at = -1;
    for (long j = 0; j < v->n; j++)
        if (v->score[j] == v->best) {
            best_count++;
            best_at = j;
        }
    EXPECT(best_count == 1, "%s step %d: the oracle finds %ld solving moves", what, i, best_count);
    const json_t *solving = json_object_get(json_array_get(moves, 0), "move");
    EXPECT(json_equal(v->move[best_at], (json_t *)solving),
           "%s step %d: the puzzle's solving move is not the oracle's", what, i);
    EXPECT(st->legal == v->n, "%s step %d: legal %ld, the oracle counts %ld", what, i, st->legal,
           v->n);
    EXPECT(n == v->n, "%s step %d: %ld moves listed of %ld legal", what, i, n, v->n);
    unsigned char seen[MAX_MOVES] = {0};
    int *want = malloc((size_t)n * sizeof *want);
    EXPECT(want != NULL, "out of memory");
    for (long j = 0; j < n; j++) {
        long at = verdict_find(v, json_object_get(json_array_get(moves, (size_t)j), "move"));
        EXPECT(at >= 0, "%s step %d: listed move %ld is not legal", what, i, j);
        EXPECT(!seen[at], "%s step %d: listed move %ld is listed twice", what, i, j);
        seen[at] = 1;
        /* engine.h's loss, from the oracle's verdict rather than the
         * analysis' words. */
        long gap = v->best - v->score[at], span = v->best - v->worst;
        want[j] = !r->scored  ? (gap == 0 ? 0 : LOSS_MAX)
                  : span == 0 ? 0
                              : (int)((LOSS_MAX * gap + span - 1) / span);
    }
    /* The losses the engine's levels weigh moves by (levels.h rates the
     * level against these puzzles). */
    int *q = engine_losses(st->moves, n);
    EXPECT(q != NULL, "out of memory");
    for (long j = 0; j < n; j++)
        EXPECT(q[j] == want[j], "%s step %d: move %ld's loss is %d, the oracle's %d", what, i, j,
               q[j], want[j]);
    free(q);
    double *v1 = malloc((size_t)n * sizeof *v1), *v2 = malloc((size_t)n * sizeof *v2);
    EXPECT(v1 != NULL && v2 != NULL, "out of memory");
    for (long j = 0; j < n; j++) {
        const json_t *move = json_object_get(json_array_get(moves, (size_t)j), "move");
        v1[j] = r->look != NULL ? r->look(s, move, 1) : 0;
        v2[j] = r->look != NULL ? r->look(s, move, 2) : 0;
        EXPECT(v1[j] >= -1 && v1[j] <= 1 && v2[j] >= -1 && v2[j] <= 1,
               "%s step %d: move %ld looks %g and %g, outside [-1, 1]", what, i, j, v1[j], v2[j]);
    }
    long greedy;
    double miss = finder_miss(v1, v2, n, &greedy);
    EXPECT(fabs(miss - st->miss) <= 1e-9,
           "%s step %d: the finder misses with %.12f, the puzzle "
           "says %.12f",
           what, i, miss, st->miss);
    EXPECT(greedy == st->greedy, "%s step %d: the greedy move is %ld, the puzzle says %ld", what, i,
           greedy, st->greedy);
    EXPECT(json_equal(st->solving, json_array_get(moves, 0)),
           "%s step %d: the solving entry is not the first ranked", what, i);
    free(v1);
    free(v2);
    free(want);
    json_decref(moves);
}

/* From step i's state s, the solving move and the defender's reply: both
 * legal, the reply losing (staircase-chess: the defender's best), and step
 * i + 1's position the one they reach. */
static void check_reply(const rules *r, const puzzle *p, int i, const state *s, const char *what)
{
    const json_t *reply = p->steps[i].reply;
    EXPECT(reply != NULL, "%s step %d: no defender's reply before step %d", what, i, i + 1);
    state next = *s;
    r->play(&next, json_object_get(p->steps[i].solving, "move"));
    verdict d = {0};
    r->judge(&next, &d);
    long at = verdict_find(&d, json_object_get(reply, "move"));
    EXPECT(at >= 0, "%s step %d: the defender's reply is not a legal move", what, i);
    if (r->scored)
        EXPECT(d.score[at] == d.best, "%s step %d: the reply scores %ld, the defender's best %ld",
               what, i, d.score[at], d.best);
    else
        EXPECT(d.best == 0 && d.score[at] == 0,
               "%s step %d: the defender's position or reply wins, by the oracle", what, i);
    verdict_free(&d);
    r->play(&next, json_object_get(reply, "move"));
    state got;
    read_state(r, p->steps[i + 1].position, &got);
    EXPECT(same_state(&got, &next),
           "%s step %d: the position is not the one the two moves before it reach", what, i + 1);
    EXPECT(strcmp(got.mover, s->mover) == 0, "%s step %d: %s to move, the attacker is %s", what,
           i + 1, got.mover, s->mover);
}

/* puzzle_write's bytes of p, as a malloc'd string. */
static char *written(const puzzle *p)
{
    gj_buf b;
    buf_init(&b);
    puzzle_write(p, &b);
    buf_putc(&b, '\0');
    EXPECT(!b.failed, "out of memory");
    return buf_take(&b, NULL);
}

/* Whether steps a and b rank the same moves, each written the same. */
static int same_moves(const puzzle_step *a, const puzzle_step *b)
{
    int same = a->legal == b->legal && json_equal(a->solving, b->solving);
    for (long j = 0; same && j < a->legal; j++) {
        json_t *x = harness_step_entry(a, j), *y = harness_step_entry(b, j);
        same = json_equal(x, y) && a->moves[j].wins == b->moves[j].wins &&
               a->moves[j].score == b->moves[j].score &&
               a->moves[j].remoteness == b->moves[j].remoteness;
        json_decref(x);
        json_decref(y);
    }
    return same;
}

/* p rebuilt from its id: the same bytes written and the same line. */
static void check_id(const rules *r, const puzzle *p, const char *what)
{
    long limits[GEN_NLIMITS];
    puzzle_limits(r->game, limits);
    puzzle again;
    gj_error e;
    gj_error_clear(&e);
    EXPECT(puzzle_from_id(r->game, p->id, limits, &again, &e) == 0, "%s: its id fails: %s", what,
           e.message);
    char *one = written(p), *two = written(&again);
    EXPECT(strcmp(one, two) == 0, "%s: rebuilt from its id it writes\n%s\nnot\n%s", what, two, one);
    EXPECT(again.depth == p->depth, "%s: rebuilt at another depth", what);
    for (int i = 0; i < p->depth; i++)
        EXPECT(
            json_equal(again.steps[i].position, p->steps[i].position) &&
                same_moves(&again.steps[i], &p->steps[i]) &&
                (p->steps[i].reply == NULL) == (again.steps[i].reply == NULL) &&
                (p->steps[i].reply == NULL || json_equal(again.steps[i].reply, p->steps[i].reply)),
            "%s: step %d rebuilt from the id differs", what, i);
    free(one);
    free(two);
    puzzle_free(&again);
}

/* puzzle.h's scale for g at depth, from its words: straight lines through
 * (0, 0), the ten points at 0.05, 0.15, ..., 0.95 and (1, 1); the miss
 * itself where the game has no scale. */
static double on_scale(const gj_game *g, int depth, double miss)
{
    const double *x = g->puzzle_scale[depth - 1];
    if (x[GJ_SCALE_POINTS - 1] == 0)
        return miss;
    double x0 = 0, y0 = 0;
    for (int i = 0; i <= GJ_SCALE_POINTS; i++) {
        double x1 = i < GJ_SCALE_POINTS ? x[i] : 1, y1 = i < GJ_SCALE_POINTS ? 0.05 + 0.1 * i : 1;
        if (miss <= x1)
            return x1 > x0 ? y0 + (y1 - y0) * (miss - x0) / (x1 - x0) : y1;
        x0 = x1;
        y0 = y1;
    }
    return 1;
}

/* The bit of theme `name` in g's vocabulary. */
static int theme_at(const gj_game *g, const char *name)
{
    for (int i = 0; puzzle_theme_at(g, i) != NULL; i++)
        if (strcmp(puzzle_theme_at(g, i)->name, name) == 0)
            return i;
    ck_abort_msg("no theme %s", name);
    return -1;
}

/* Every check of the header on one puzzle. */
static void check_puzzle(const rules *r, const puzzle *p, const char *what)
{
    EXPECT(p->game == r->game && p->depth >= 1 && p->depth <= PUZZLE_DEPTH_MAX,
           "%s: a puzzle of the wrong game or depth", what);
    double solved = 1;
    bool trap = false;
    for (int i = 0; i < p->depth; i++) {
        state s;
        read_state(r, p->steps[i].position, &s);
        if (i == 0)
            EXPECT(json_is_string(p->to_move) &&
                       strcmp(json_string_value(p->to_move), s.mover) == 0,
                   "%s: to_move is not the player to move, %s", what, s.mover);
        verdict v = {0};
        r->judge(&s, &v);
        check_step(r, p, i, &s, &v, what);
        verdict_free(&v);
        if (i + 1 < p->depth)
            check_reply(r, p, i, &s, what);
        else
            EXPECT(p->steps[i].reply == NULL, "%s: a reply after the last step", what);
        solved *= 1 - p->steps[i].miss;
        trap = trap || p->steps[i].greedy > 0;
    }
    for (int i = p->depth; i < PUZZLE_DEPTH_MAX; i++)
        EXPECT(p->steps[i].position == NULL, "%s: a step past the depth", what);
    EXPECT(fabs(p->miss - (1 - solved)) <= 1e-12,
           "%s: miss %.15f, 1 - the product of the "
           "steps' is %.15f",
           what, p->miss, 1 - solved);
    /* Served with four decimals, the value the filter and the band judge. */
    double want = on_scale(r->game, p->depth, p->miss);
    EXPECT(p->difficulty > want - 0.00005 - 1e-12 && p->difficulty < want + 0.00005 + 1e-12,
           "%s: difficulty %.15f, the miss on the scale is %.15f", what, p->difficulty, want);
    EXPECT(p->rating == (int)(700 + 1700 * p->difficulty + 200 * (p->depth - 1) + 0.5),
           "%s: rating %d for difficulty %.4f", what, p->rating, p->difficulty);
    EXPECT((p->themes >> theme_at(r->game, "trap") & 1) == trap, "%s: trap is %s", what,
           trap ? "missing" : "there without a greedy move that fails");
    EXPECT((p->themes >> theme_at(r->game, "long") & 1) == (p->depth >= 3), "%s: long is wrong",
           what);
    check_id(r, p, what);
}

/* The most candidates one seed's search tries. */
#define ORACLE_TRIES 200

/* The seed of puzzle j of a run: fixed, and spread over the seed range. */
static long long seed_of(int depth, int j)
{
    return (long long)(((uint64_t)depth * 1000003u + (uint64_t)j) * 2654435761u % 1000000007u);
}

/* r's puzzle of `seed` and `depth` into *p: 1 when found, 0 when
 * puzzle_find answers GJ_UNMET; any other error fails the test.  The search
 * is bounded by ORACLE_TRIES candidates, not by time, so which seeds give a
 * puzzle is the same on a loaded machine. */
static int find(const rules *r, long long seed, int depth, puzzle *p)
{
    json_t *params = json_loads(r->knobs, 0, NULL);
    EXPECT(params != NULL, "bad knobs %s", r->knobs);
    json_object_set_new(params, "seed", json_integer(seed));
    json_object_set_new(params, "depth", json_integer(depth));
    json_object_set_new(params, "tries", json_integer(ORACLE_TRIES));
    json_object_set_new(params, "budget_ms", json_integer(60000));
    long limits[GEN_NLIMITS];
    puzzle_limits(r->game, limits);
    bool seeded = false;
    gj_error e;
    gj_error_clear(&e);
    int rc = puzzle_find(r->game, params, limits, p, &seeded, &e);
    json_decref(params);
    EXPECT(rc == 0 || e.kind == GJ_UNMET, "%s seed %lld depth %d: %s", r->game->name, seed, depth,
           e.message);
    EXPECT(rc != 0 || seeded, "%s: a seed given is not seeded", r->game->name);
    return rc == 0;
}

/* Depth `depth` puzzles of r for `count` seeds, each checked; most seeds
 * must give one.  Prints the counts. */
static void check_seeds(const rules *r, int depth, int count)
{
    int found = 0;
    for (int j = 0; j < count; j++) {
        puzzle p;
        long long seed = seed_of(depth, j);
        if (!find(r, seed, depth, &p))
            continue;
        found++;
        char what[160];
        snprintf(what, sizeof what, "%s seed %lld depth %d (id %.100s)", r->game->name, seed, depth,
                 p.id);
        check_puzzle(r, &p, what);
        puzzle_free(&p);
    }
    printf("%s: depth %d: %d puzzles checked, %d unmet\n", r->game->name, depth, found,
           count - found);
    EXPECT(found * 4 >= count * 3, "%s: only %d of %d seeds gave a depth-%d puzzle", r->game->name,
           found, count, depth);
}

/* ---- the tests --------------------------------------------------------- */

/* Game _i's puzzles of depth 1, and 2 where it has them, against the oracle. */
START_TEST(test_served_puzzles_agree_with_the_oracle)
{
    const rules *r = &games[_i];
    check_seeds(r, 1, DEPTH1_SEEDS);
    if (r->depth2 > 0)
        check_seeds(r, 2, r->depth2);
}
END_TEST

/* The same checks over MANY_DEPTH1 puzzles of depth 1 and MANY_DEPTH2 of
 * depth 2 (where the game has them) of every game: thousands of puzzles,
 * so tagged large and left to make check. */
#define MANY_DEPTH1 1000
#define MANY_DEPTH2 200
START_TEST(test_many_puzzles_agree_with_the_oracle)
{
    for (size_t g = 0; g < sizeof games / sizeof games[0]; g++) {
        check_seeds(&games[g], 1, MANY_DEPTH1);
        if (games[g].depth2 > 0)
            check_seeds(&games[g], 2, MANY_DEPTH2);
    }
}
END_TEST

/* Each character of the data part of game _i's id (seed 7) changed, twice:
 * to another base64url letter and to one outside the alphabet. */
START_TEST(test_a_changed_id_is_bad_input)
{
    const rules *r = &games[_i];
    puzzle p;
    EXPECT(find(r, 7, 1, &p), "%s: seed 7 gives no puzzle", r->game->name);
    const char *first = strchr(p.id, '.'), *last = strrchr(p.id, '.');
    ck_assert(first != NULL && last > first + 1);
    long limits[GEN_NLIMITS];
    puzzle_limits(r->game, limits);
    int tried = 0;
    for (const char *c = first + 1; c < last; c++) {
        for (int way = 0; way < 2; way++) {
            char id[PUZZLE_ID_MAX];
            snprintf(id, sizeof id, "%s", p.id);
            size_t at = (size_t)(c - p.id);
            id[at] = way == 1 ? '*' : id[at] == 'A' ? 'B' : 'A';
            puzzle q;
            gj_error e;
            gj_error_clear(&e);
            int rc = puzzle_from_id(r->game, id, limits, &q, &e);
            if (rc == 0)
                puzzle_free(&q);
            EXPECT(rc != 0 && e.kind == GJ_BAD_INPUT && strcmp(e.field, "id") == 0,
                   "%s: id %s (character %zu changed) gives rc %d, kind %d, field '%s'",
                   r->game->name, id, at, rc, (int)e.kind, e.field);
            tried++;
        }
    }
    ck_assert_int_gt(tried, 20);
    puzzle_free(&p);
}
END_TEST

/* Game _i's id asked of every other game: not_found, naming "id". */
START_TEST(test_another_game_s_id_is_not_found)
{
    const rules *r = &games[_i];
    puzzle p;
    EXPECT(find(r, 7, 1, &p), "%s: seed 7 gives no puzzle", r->game->name);
    for (size_t o = 0; o < sizeof games / sizeof games[0]; o++) {
        if (games[o].game == r->game)
            continue;
        long limits[GEN_NLIMITS];
        puzzle_limits(games[o].game, limits);
        puzzle q;
        gj_error e;
        gj_error_clear(&e);
        int rc = puzzle_from_id(games[o].game, p.id, limits, &q, &e);
        if (rc == 0)
            puzzle_free(&q);
        EXPECT(rc != 0 && e.kind == GJ_NOT_FOUND && strcmp(e.field, "id") == 0,
               "%s's id asked of %s: rc %d, kind %d, field '%s'", r->game->name,
               games[o].game->name, rc, (int)e.kind, e.field);
    }
    puzzle_free(&p);
}
END_TEST

/* One loop test per game for each of the three checks. */
int main(void)
{
    int n = (int)(sizeof games / sizeof games[0]);
    Suite *s = suite_create("puzzle_oracle");
    harness_add_loop(s, "oracle", test_served_puzzles_agree_with_the_oracle, n, 120);
    harness_add_loop(s, "bad id", test_a_changed_id_is_bad_input, n, 60);
    harness_add_loop(s, "foreign id", test_another_game_s_id_is_not_found, n, 60);
    const harness_case large[] = {{"many puzzles", test_many_puzzles_agree_with_the_oracle}};
    harness_add_tagged(s, large, sizeof large / sizeof large[0], 1800, HARNESS_LARGE);
    return harness_main(s);
}
