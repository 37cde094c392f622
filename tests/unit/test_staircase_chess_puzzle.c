/* test_staircase_chess_puzzle.c - staircase-chess's puzzle parts (game.h's
 * look and motifs, its motif vocabulary and its puzzle knobs) against the
 * brute force of tests/oracle/staircase_chess_oracle.h, on positions of
 * random play and on the generator's own, with fixed seeds. */
#include <check.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "games.h"
#include "generate.h"
#include "harness.h"
#include "puzzle_search.h"
#include "puzzle_themes.h"
#include "staircase_chess_oracle.h"

#define G (&game_staircase_chess)

#define MAX_SIDE  26
#define MAX_CELLS STAIRCASE_CHESS_ORACLE_LOOK_CELLS

/* A board in play as the test sees it: values and the stones on it. */
typedef struct board {
    int n, m, placed;
    long a[MAX_CELLS], b[MAX_CELLS];
    unsigned char stone[MAX_CELLS];
} board;

/* A position in play as the game parsed it, with every move ranked and
 * the cell each one puts a stone on (read from its written entry). */
typedef struct ranked {
    void *pos;
    gj_move moves[MAX_SIDE];
    int cell[MAX_SIDE];
    long count;
} ranked;

/* Whether (i, j) may take a stone on g now, by the rules. */
static int legal(const board *g, int i, int j)
{
    if (g->stone[i * g->m + j])
        return 0;
    for (int k = 0; k < j; k++)
        if (!g->stone[i * g->m + k])
            return 0;
    for (int k = 0; k < i; k++)
        if (!g->stone[k * g->m + j])
            return 0;
    return 1;
}

/* An n x m board with values in [0, hi] and `count` random legal stones. */
static void random_board(board *g, int n, int m, long hi, int count, uint64_t *rng)
{
    memset(g, 0, sizeof *g);
    g->n = n;
    g->m = m;
    for (int c = 0; c < n * m; c++) {
        g->a[c] = (long)rng_below(rng, (uint64_t)hi + 1);
        g->b[c] = (long)rng_below(rng, (uint64_t)hi + 1);
    }
    for (int s = 0; s < count && g->placed < n * m; s++) {
        int open[MAX_SIDE] = {0}, k = 0; /* at most one legal cell per row */
        for (int c = 0; c < n * m; c++)
            if (legal(g, c / m, c % m))
                open[k++] = c;
        ck_assert(k > 0);
        g->stone[open[rng_below(rng, (uint64_t)k)]] = 1;
        g->placed++;
    }
}

/* g as an analyze() request by profile, loaded as JSON. */
static json_t *request_of(const board *g)
{
    json_t *req = json_object(), *a = json_array(), *b = json_array(), *profile = json_array();
    for (int i = 0; i < g->n; i++) {
        json_t *ra = json_array(), *rb = json_array();
        int len = 0;
        for (int j = 0; j < g->m; j++) {
            json_array_append_new(ra, json_integer(g->a[i * g->m + j]));
            json_array_append_new(rb, json_integer(g->b[i * g->m + j]));
            len += g->stone[i * g->m + j];
        }
        json_array_append_new(a, ra);
        json_array_append_new(b, rb);
        json_array_append_new(profile, json_integer(len));
    }
    json_object_set_new(req, "a", a);
    json_object_set_new(req, "b", b);
    json_object_set_new(req, "profile", profile);
    return req;
}

/* g from an analyze() request's "a", "b" and "profile" (a generated one). */
static void board_of(const json_t *req, board *g)
{
    const json_t *a = json_object_get(req, "a"), *b = json_object_get(req, "b"),
                 *profile = json_object_get(req, "profile");
    memset(g, 0, sizeof *g);
    g->n = (int)json_array_size(a);
    g->m = (int)json_array_size(json_array_get(a, 0));
    ck_assert(g->n * g->m <= MAX_CELLS && (int)json_array_size(profile) == g->n);
    for (int i = 0; i < g->n; i++) {
        long len = (long)json_integer_value(json_array_get(profile, (size_t)i));
        for (int j = 0; j < g->m; j++) {
            int c = i * g->m + j;
            g->a[c] = (long)json_integer_value(json_array_get(json_array_get(a, (size_t)i), j));
            g->b[c] = (long)json_integer_value(json_array_get(json_array_get(b, (size_t)i), j));
            g->stone[c] = j < len;
            g->placed += j < len;
        }
    }
}

/* The cell (i*m + j, 0-based) the entry written for m names. */
static int cell_of(void *pos, const gj_move *m, int cols)
{
    gj_buf out;
    gj_error e;
    size_t bytes;
    buf_init(&out);
    buf_putc(&out, '{');
    ck_assert_msg(G->play->write_move(pos, m, 0, &out, &bytes, &e) == 0, "%s", e.message);
    buf_putc(&out, '}');
    ck_assert(!out.failed);
    json_t *entry = json_loadb(out.data, out.len, 0, NULL);
    const json_t *move = json_object_get(entry, "move");
    ck_assert(json_array_size(move) == 2);
    int cell = (int)(json_integer_value(json_array_get(move, 0)) - 1) * cols +
               (int)(json_integer_value(json_array_get(move, 1)) - 1);
    json_decref(entry);
    buf_free(&out);
    return cell;
}

/* The game's parsed position of req, every move ranked, into *r. */
static void open_ranked(const json_t *req, const board *g, ranked *r)
{
    static const long limits[] = {26, 26, 28, 0};
    gj_error e;
    r->pos = G->play->parse(req, limits, &e);
    ck_assert_msg(r->pos != NULL, "%s", e.message);
    gj_rank_head head;
    r->count = G->play->rank(r->pos, MAX_SIDE, r->moves, &head, &e);
    ck_assert_int_ge(r->count, 0);
    ck_assert_int_eq(r->count, head.moves_total);
    for (long k = 0; k < r->count; k++)
        r->cell[k] = cell_of(r->pos, &r->moves[k], g->m);
}

/* One more than the largest value of A or B on an empty cell of g. */
static long scale_of(const board *g)
{
    long top = 0;
    for (int c = 0; c < g->n * g->m; c++) {
        if (!g->stone[c] && g->a[c] > top)
            top = g->a[c];
        if (!g->stone[c] && g->b[c] > top)
            top = g->b[c];
    }
    return top + 1;
}

/* look at plies 1 and 2 and motifs on g's position, each against the
 * oracle; the look's bounds and its reading of a game that ends within its
 * horizon.  The motif bits into *bits (0 without moves). */
static void check_position(const json_t *req, const board *g, unsigned *bits)
{
    ranked r;
    gj_error e;
    open_ranked(req, g, &r);
    *bits = 0;
    if (r.count == 0) {
        G->play->free(r.pos);
        return;
    }
    double one[MAX_SIDE], two[MAX_SIDE], want[MAX_SIDE];
    ck_assert_int_eq(G->play->look(r.pos, r.moves, r.count, 1, one, &e), 0);
    ck_assert_int_eq(G->play->look(r.pos, r.moves, r.count, 2, two, &e), 0);
    ck_assert_int_eq(staircase_chess_oracle_look(g->n, g->m, g->a, g->b, g->stone, r.cell,
                                                 (int)r.count, 1, want),
                     0);
    for (long k = 0; k < r.count; k++)
        ck_assert_msg(one[k] == want[k], "plies 1, move %ld: %.17g, oracle %.17g", k, one[k],
                      want[k]);
    ck_assert_int_eq(staircase_chess_oracle_look(g->n, g->m, g->a, g->b, g->stone, r.cell,
                                                 (int)r.count, 2, want),
                     0);
    long empty = (long)g->n * g->m - g->placed, scale = scale_of(g);
    for (long k = 0; k < r.count; k++) {
        ck_assert_msg(two[k] == want[k], "plies 2, move %ld: %.17g, oracle %.17g", k, two[k],
                      want[k]);
        ck_assert(one[k] > -1 && one[k] < 1 && two[k] > -1 && two[k] < 1);
        /* The opponent's reply takes points, never gives any. */
        ck_assert(two[k] <= one[k]);
        /* A game over within the horizon reads its final margin from here,
         * which is the move's own score in the ranking. */
        if (empty == 1)
            ck_assert(one[k] == (double)r.moves[k].score / (double)scale);
        if (empty <= 2)
            ck_assert(two[k] == (double)r.moves[k].score / (double)scale);
        if (empty == 1)
            ck_assert(two[k] == one[k]);
    }
    unsigned mine, theirs;
    ck_assert_int_eq(G->play->motifs(r.pos, r.moves, r.count, &mine, &e), 0);
    ck_assert_int_eq(staircase_chess_oracle_motifs(g->n, g->m, g->a, g->b, g->stone, r.cell,
                                                   (int)r.count, &theirs),
                     0);
    ck_assert_uint_eq(mine, theirs);
    *bits = mine;
    G->play->free(r.pos);
}

/* Thousands of positions of random play on small boards, values small
 * (many ties) and large, against the oracle. */
START_TEST(test_random_play_against_oracle)
{
    uint64_t rng = 0x57a12ca5e;
    long seen[3] = {0};
    for (int round = 0; round < 4000; round++) {
        board g;
        int n = 1 + (int)rng_below(&rng, 5), m = 1 + (int)rng_below(&rng, 5);
        long hi = round % 3 == 0 ? 2 : round % 3 == 1 ? 9 : 100000;
        random_board(&g, n, m, hi, (int)rng_below(&rng, (uint64_t)(n * m + 1)), &rng);
        json_t *req = request_of(&g);
        unsigned bits;
        check_position(req, &g, &bits);
        for (int k = 0; k < 3; k++)
            seen[k] += (bits >> k) & 1;
        json_decref(req);
    }
    /* Every motif is met, so each bit's comparison above was put to work. */
    for (int k = 0; k < 3; k++)
        ck_assert_int_gt(seen[k], 0);
}
END_TEST

/* The generator's position for seed s on a rows x cols board with one best
 * move, as the puzzles ask for it: the analyze() request, to json_decref. */
static json_t *generated(long long s, int rows, int cols)
{
    long limits[GEN_NLIMITS];
    game_default_limits(G, limits);
    limits[GEN_LIMIT_BUDGET] = 600000;
    char text[200];
    snprintf(text, sizeof text,
             "{\"seed\": %lld, \"rows\": %d, \"cols\": %d, \"winning_moves\": 1, "
             "\"min_moves\": 2, \"answer\": false, \"budget_ms\": 600000}",
             s, rows, cols);
    gj_buf out;
    gj_error e;
    buf_init(&out);
    ck_assert_msg(G->generate(text, strlen(text), limits, &out, &e) == 0, "%s", e.message);
    json_t *answer = json_loadb(out.data, out.len, 0, NULL);
    json_t *position = json_incref(json_object_get(answer, "position"));
    ck_assert(position != NULL);
    json_decref(answer);
    buf_free(&out);
    return position;
}

/* Generated positions with one best move (the puzzles' own kind), of the
 * sizes the bands use and smaller, against the oracle; each motif holds
 * of some and not of all. */
START_TEST(test_generated_against_oracle)
{
    const int sizes[][2] = {{3, 3}, {3, 4}, {4, 4}, {5, 5}, {4, 7}, {6, 6}, {8, 8}, {9, 9}};
    long seen[3] = {0}, total = 0;
    for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++)
        for (long long s = 0; s < 150; s++) {
            json_t *req = generated(s * 7919 + (long long)z, sizes[z][0], sizes[z][1]);
            board g;
            board_of(req, &g);
            unsigned bits;
            check_position(req, &g, &bits);
            for (int k = 0; k < 3; k++)
                seen[k] += (bits >> k) & 1;
            total++;
            json_decref(req);
        }
    for (int k = 0; k < 3; k++)
        ck_assert_msg(seen[k] > 0 && seen[k] < total * 9 / 10, "motif %d: %ld of %ld", k, seen[k],
                      total);
}
END_TEST

/* A look past the two plies, or at a move that is no legal move now, is
 * the caller's bug and says so. */
START_TEST(test_look_refuses)
{
    json_t *req =
        json_loads("{\"a\": [[1,2],[3,4]], \"b\": [[5,6],[7,8]], \"profile\": [1,0]}", 0, NULL);
    static const long limits[] = {10, 10, 20, 0};
    gj_error e;
    void *pos = G->play->parse(req, limits, &e);
    ck_assert(pos != NULL);
    gj_move moves[4];
    long count = G->play->rank(pos, 4, moves, NULL, &e);
    ck_assert_int_eq(count, 2);
    double value[4];
    unsigned bits;
    ck_assert_int_eq(G->play->look(pos, moves, count, 3, value, &e), -1);
    ck_assert_int_eq(e.kind, GJ_INTERNAL);
    gj_move bad[2] = {moves[0], {.id = 5}};
    ck_assert_int_eq(G->play->look(pos, bad, 2, 1, value, &e), -1);
    ck_assert_int_eq(G->play->motifs(pos, bad, 2, &bits, &e), -1);
    /* A full row takes no stone: row 1 (id 0) of [2, 0] is no move. */
    json_t *full =
        json_loads("{\"a\": [[1,2],[3,4]], \"b\": [[5,6],[7,8]], \"profile\": [2,0]}", 0, NULL);
    void *at = G->play->parse(full, limits, &e);
    gj_move row1 = {.id = 0};
    ck_assert_int_eq(G->play->look(at, &row1, 1, 1, value, &e), -1);
    G->play->free(at);
    json_decref(full);
    G->play->free(pos);
    json_decref(req);
}
END_TEST

/* The vocabulary: one to three motifs, lowercase-with-hyphens names none
 * of which is a general theme's, each with a line of doc. */
START_TEST(test_vocabulary)
{
    int count = 0;
    for (; G->motifs[count].name != NULL; count++) {
        const char *name = G->motifs[count].name;
        ck_assert(G->motifs[count].doc != NULL && strlen(G->motifs[count].doc) > 10);
        ck_assert(name[0] >= 'a' && name[0] <= 'z');
        for (const char *c = name; *c; c++)
            ck_assert((*c >= 'a' && *c <= 'z') || *c == '-');
        for (int k = 0; puzzle_general_themes[k].name != NULL; k++)
            ck_assert_str_ne(name, puzzle_general_themes[k].name);
        ck_assert(puzzle_theme_known(G, name));
    }
    ck_assert(count >= 1 && count <= 3);
    ck_assert(G->play->look != NULL && G->play->motifs != NULL);
}
END_TEST

/* Every band's knobs give puzzles of every depth the game serves, within
 * a bounded number of candidates (so on every machine alike). */
START_TEST(test_every_band_and_depth)
{
    long limits[GEN_NLIMITS];
    game_default_limits(G, limits);
    limits[GEN_LIMIT_BUDGET] = 600000;
    ck_assert(G->puzzle_depth_max == 0); /* every depth up to GJ_PUZZLE_DEPTHS */
    for (int band = 0; band < GJ_NBANDS; band++) {
        ck_assert(G->puzzle_knobs[band] != NULL);
        for (int depth = 1; depth <= GJ_PUZZLE_DEPTHS; depth++)
            for (int seed = 0; seed < 3; seed++) {
                json_t *params = json_loads(G->puzzle_knobs[band], 0, NULL);
                ck_assert(params != NULL);
                json_object_set_new(params, "seed", json_integer(seed));
                json_object_set_new(params, "depth", json_integer(depth));
                json_object_set_new(params, "tries", json_integer(200));
                json_object_set_new(params, "budget_ms", json_integer(600000));
                puzzle p;
                bool seeded;
                gj_error e;
                ck_assert_msg(puzzle_find(G, params, limits, &p, &seeded, &e) == 0,
                              "band %d depth %d seed %d: %s", band, depth, seed, e.message);
                ck_assert_int_eq(p.depth, depth);
                puzzle_free(&p);
                json_decref(params);
            }
    }
}
END_TEST

/* The boards grow with the band. */
START_TEST(test_knobs_grow)
{
    long cells[GJ_NBANDS];
    for (int band = 0; band < GJ_NBANDS; band++) {
        json_t *k = json_loads(G->puzzle_knobs[band], 0, NULL);
        ck_assert(k != NULL);
        cells[band] = (long)json_integer_value(json_object_get(k, "rows")) *
                      (long)json_integer_value(json_object_get(k, "cols"));
        json_decref(k);
    }
    ck_assert(cells[GJ_BAND_EASY] > 0 && cells[GJ_BAND_EASY] < cells[GJ_BAND_MEDIUM] &&
              cells[GJ_BAND_MEDIUM] < cells[GJ_BAND_HARD]);
}
END_TEST

static Suite *puzzle_suite(void)
{
    const harness_case tests[] = {
        {"random_play_against_oracle", test_random_play_against_oracle},
        {"generated_against_oracle", test_generated_against_oracle},
        {"look_refuses", test_look_refuses},
        {"vocabulary", test_vocabulary},
        {"every_band_and_depth", test_every_band_and_depth},
        {"knobs_grow", test_knobs_grow},
    };
    return harness_suite("staircase-chess puzzle", tests, sizeof tests / sizeof tests[0], 300);
}

int main(void)
{
    return harness_main(puzzle_suite());
}
