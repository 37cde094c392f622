/* test_staircase_chess_analysis.c - POST /analyze/staircase-chess against
 * the rules.
 *
 * Small positions are held to the oracle (every game played out cell by
 * cell, no memo); mid-size ones to a search keyed on the row lengths packed
 * in base m + 1 (nothing here ranks staircases), and the largest to the
 * solver and to their own consistency.  Answers are read with jansson. */
#include <check.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "after.h"
#include "analysis.h"
#include "buf.h"
#include "games.h"
#include "harness.h"
#include "staircase_chess_oracle.h"

#define G (&game_staircase_chess)

#define MAX_SIDE  27
#define MAX_CELLS 200

enum form { BY_STONES, BY_PROFILE, EMPTY_BOARD };

typedef struct game {
    int n, m;
    long a[MAX_CELLS], b[MAX_CELLS];
    unsigned char stone[MAX_CELLS];
    int order[MAX_CELLS]; /* cells in the order placed */
    int placed;
} game;

typedef struct expected {
    int row, col; /* 0-based */
    long score;
} expected;

static const long official[] = {10, 10, 20};
static const long widest[] = {26, 26, 28};

static void row_lengths(const game *g, long *len)
{
    for (int i = 0; i < g->n; i++) {
        len[i] = 0;
        while (len[i] < g->m && g->stone[i * g->m + len[i]])
            len[i]++;
    }
}

static int legal(const game *g, int i, int j)
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

static void put(game *g, int i, int j)
{
    ck_assert(legal(g, i, j));
    g->stone[i * g->m + j] = 1;
    g->order[g->placed++] = i * g->m + j;
}

static void new_game(game *g, int n, int m, uint64_t *rng, long hi)
{
    memset(g, 0, sizeof *g);
    g->n = n;
    g->m = m;
    for (int k = 0; k < n * m; k++) {
        g->a[k] = (long)rng_below(rng, (uint64_t)hi + 1);
        g->b[k] = (long)rng_below(rng, (uint64_t)hi + 1);
    }
}

/* `count` random legal stones. */
static void play_random(game *g, int count, uint64_t *rng)
{
    for (int s = 0; s < count && g->placed < g->n * g->m; s++) {
        int cells[MAX_SIDE] = {0}, k = 0;
        for (int c = 0; c < g->n * g->m; c++)
            if (legal(g, c / g->m, c % g->m))
                cells[k++] = c;
        ck_assert(k > 0);
        int c = cells[rng_below(rng, (uint64_t)k)];
        put(g, c / g->m, c % g->m);
    }
}

static long gain(const game *g, int cell)
{
    return g->placed % 2 == 0 ? g->a[cell] : g->b[cell];
}

/* The request, malloc'd. */
static char *request(const game *g, enum form form, long max_moves)
{
    gj_buf out;
    buf_init(&out);
    for (int k = 0; k < 2; k++) {
        const long *v = k == 0 ? g->a : g->b;
        buf_puts(&out, k == 0 ? "{\"a\": [" : "], \"b\": [");
        for (int i = 0; i < g->n; i++) {
            buf_puts(&out, i ? ", [" : "[");
            for (int j = 0; j < g->m; j++) {
                if (j)
                    buf_putc(&out, ',');
                buf_put_long(&out, v[i * g->m + j]);
            }
            buf_putc(&out, ']');
        }
    }
    buf_putc(&out, ']');
    if (form == BY_STONES) {
        buf_puts(&out, ", \"stones\": [");
        for (int s = 0; s < g->placed; s++) {
            buf_puts(&out, s ? ", [" : "[");
            buf_put_long(&out, g->order[s] / g->m + 1);
            buf_putc(&out, ',');
            buf_put_long(&out, g->order[s] % g->m + 1);
            buf_putc(&out, ']');
        }
        buf_putc(&out, ']');
    } else if (form == BY_PROFILE) {
        long len[MAX_SIDE];
        row_lengths(g, len);
        buf_puts(&out, ", \"profile\": [");
        for (int i = 0; i < g->n; i++) {
            if (i)
                buf_putc(&out, ',');
            buf_put_long(&out, len[i]);
        }
        buf_putc(&out, ']');
    } else {
        ck_assert_int_eq(g->placed, 0);
    }
    if (max_moves > 0) {
        buf_puts(&out, ", \"max_moves\": ");
        buf_put_long(&out, max_moves);
    }
    buf_puts(&out, "}");
    buf_putc(&out, '\0');
    ck_assert(!out.failed);
    return buf_take(&out, NULL);
}

static void limits_or_default(const long *limits, long *out)
{
    for (int i = 0; i < GJ_MAX_LIMITS; i++)
        out[i] = limits != NULL ? (i < G->nlimits ? limits[i] : 0) : official[i % 3];
}

/* The parsed answer to `req`, which must succeed. */
static json_t *analyze(const char *req, const long *limits)
{
    long lim[GJ_MAX_LIMITS];
    limits_or_default(limits, lim);
    gj_buf out;
    gj_error e;
    buf_init(&out);
    gj_error_clear(&e);
    int rc = G->analyze(req, strlen(req), lim, &out, &e);
    ck_assert_msg(rc == 0, "unexpected error [%s] for %s", e.message, req);
    ck_assert(!out.failed);
    json_error_t jerr;
    json_t *root = json_loadb(out.data, out.len, JSON_REJECT_DUPLICATES, &jerr);
    ck_assert_msg(root != NULL, "answer is not JSON: %s", jerr.text);
    buf_free(&out);
    return root;
}

static gj_error analysis_error(const char *req, const long *limits)
{
    long lim[GJ_MAX_LIMITS];
    limits_or_default(limits, lim);
    gj_buf out;
    gj_error e;
    buf_init(&out);
    gj_error_clear(&e);
    int rc = G->analyze(req, strlen(req), lim, &out, &e);
    ck_assert_msg(rc == -1, "expected an error for %s, got %.*s", req, (int)out.len,
                  out.data ? out.data : "");
    buf_free(&out);
    return e;
}

static long long member_int(const json_t *o, const char *key)
{
    const json_t *v = json_object_get(o, key);
    ck_assert_msg(json_is_integer(v), "member %s is not an integer", key);
    return json_integer_value(v);
}

static const char *member_str(const json_t *o, const char *key)
{
    const json_t *v = json_object_get(o, key);
    ck_assert_msg(json_is_string(v), "member %s is not a string", key);
    return json_string_value(v);
}

/* Black minus white over the stones placed so far. */
static long score_so_far(const game *g)
{
    long s = 0;
    for (int k = 0; k < g->placed; k++)
        s += k % 2 == 0 ? g->a[g->order[k]] : -g->b[g->order[k]];
    return s;
}

/* Every legal move with its score from `margin`, ranked as the answer must
 * be: by score, highest first, row-major among equals. */
static int rank_moves(game *g, long (*margin)(game *), expected *list)
{
    int count = 0;
    for (int i = 0; i < g->n; i++) {
        for (int j = 0; j < g->m; j++) {
            if (!legal(g, i, j))
                continue;
            long gained = gain(g, i * g->m + j);
            put(g, i, j);
            expected x = {i, j, gained - margin(g)};
            g->stone[i * g->m + j] = 0;
            g->placed--;
            int k = count++;
            for (; k > 0 && list[k - 1].score < x.score; k--)
                list[k] = list[k - 1];
            list[k] = x;
        }
    }
    return count;
}

/* The answer to g in `form` must be exactly what margin() says. */
static void check_answer(game *g, enum form form, long max_moves, const long *limits,
                         long (*margin)(game *))
{
    expected list[MAX_SIDE];
    int total = rank_moves(g, margin, list);
    long value = margin(g);
    char *req = request(g, form, max_moves);
    json_t *root = analyze(req, limits);
    const char *mover = g->placed % 2 == 0 ? "black" : "white";
    const char *next = g->placed % 2 == 0 ? "white" : "black";
    long listed = total < (max_moves > 0 ? max_moves : 100) ? total : max_moves;

    ck_assert_str_eq(member_str(root, "game"), "staircase-chess");
    ck_assert_str_eq(member_str(root, "to_move"), mover);
    ck_assert_msg(member_int(root, "value") == value, "value %lld, oracle %ld for %s",
                  member_int(root, "value"), value, req);
    ck_assert_int_eq(member_int(root, "moves_total"), total);
    int winning = 0;
    for (int k = 0; k < total; k++)
        winning += list[k].score == value;
    ck_assert_int_eq(member_int(root, "winning_moves"), winning);
    ck_assert(json_is_boolean(json_object_get(root, "truncated")));
    ck_assert_int_eq(json_is_true(json_object_get(root, "truncated")), listed < total);
    if (form == BY_PROFILE) {
        ck_assert_ptr_null(json_object_get(root, "score_so_far"));
        ck_assert_ptr_null(json_object_get(root, "final_difference"));
    } else {
        long so_far = score_so_far(g);
        ck_assert_int_eq(member_int(root, "score_so_far"), so_far);
        ck_assert_int_eq(member_int(root, "final_difference"),
                         so_far + (g->placed % 2 == 0 ? value : -value));
    }

    const json_t *moves = json_object_get(root, "moves");
    ck_assert(json_is_array(moves));
    ck_assert_int_eq(json_array_size(moves), listed);
    if (total > 0)
        ck_assert_int_eq(list[0].score, value); /* the first move is optimal */
    long len[MAX_SIDE];
    row_lengths(g, len);
    for (long k = 0; k < listed; k++) {
        const json_t *entry = json_array_get(moves, (size_t)k);
        const json_t *move = json_object_get(entry, "move");
        ck_assert(json_is_array(move) && json_array_size(move) == 2);
        ck_assert_int_eq(json_integer_value(json_array_get(move, 0)), list[k].row + 1);
        ck_assert_int_eq(json_integer_value(json_array_get(move, 1)), list[k].col + 1);
        ck_assert_int_eq(member_int(entry, "score"), list[k].score);
        if (k > 0) /* ranked: never better than the one before */
            ck_assert_int_le(
                member_int(entry, "score"),
                json_integer_value(json_object_get(json_array_get(moves, (size_t)k - 1), "score")));
        const json_t *after = json_object_get(entry, "after");
        ck_assert_str_eq(member_str(after, "to_move"), next);
        const json_t *profile = json_object_get(after, "profile");
        ck_assert(json_is_array(profile));
        ck_assert_int_eq(json_array_size(profile), g->n);
        for (int i = 0; i < g->n; i++)
            ck_assert_int_eq(json_integer_value(json_array_get(profile, (size_t)i)),
                             len[i] + (i == list[k].row));
        /* Every game fills the board: the plies left after the stone. */
        ck_assert_int_eq(member_int(entry, "remoteness"), (long)g->n * g->m - g->placed - 1);
        ck_assert_int_eq(json_object_size(entry), 4);
    }
    ck_assert_int_eq(member_int(root, "remoteness"), (long)g->n * g->m - g->placed);
    json_decref(root);
    free(req);
}

/* ---- the oracle and the row-length search ---- */

static long oracle_margin(game *g)
{
    long v = staircase_chess_oracle_margin(g->n, g->m, g->a, g->b, g->stone);
    ck_assert(v != LONG_MIN);
    return v;
}

/* Top-down over row lengths packed in base m + 1, for boards whose packed
 * keys stay small.  Independent of the oracle's cell-by-cell tree and of
 * the solver's ranks. */
typedef struct memo {
    const game *g;
    long *value;
    unsigned char *known;
    long weight[MAX_SIDE];
} memo;

static long memo_search(memo *t, long *len, long key, int stones)
{
    const game *g = t->g;
    if (stones == g->n * g->m)
        return 0;
    if (t->known[key])
        return t->value[key];
    long best = LONG_MIN;
    for (int i = 0; i < g->n; i++) {
        if (len[i] == g->m || (i > 0 && len[i - 1] == len[i]))
            continue;
        int cell = i * g->m + (int)len[i];
        len[i]++;
        long v = (stones % 2 == 0 ? g->a[cell] : g->b[cell]) -
                 memo_search(t, len, key + t->weight[i], stones + 1);
        len[i]--;
        if (v > best)
            best = v;
    }
    t->known[key] = 1;
    t->value[key] = best;
    return best;
}

static long memo_margin(game *g)
{
    memo t = {.g = g};
    long keys = 1, key = 0, len[MAX_SIDE];
    for (int i = 0; i < g->n; i++) {
        t.weight[i] = keys;
        keys *= g->m + 1;
    }
    ck_assert(keys <= 4000000);
    t.value = malloc((size_t)keys * sizeof *t.value);
    t.known = calloc((size_t)keys, 1);
    ck_assert(t.value != NULL && t.known != NULL);
    row_lengths(g, len);
    for (int i = 0; i < g->n; i++)
        key += len[i] * t.weight[i];
    long v = memo_search(&t, len, key, g->placed);
    free(t.value);
    free(t.known);
    return v;
}

/* ---- 1. small positions against the oracle ---- */

START_TEST(test_random_against_oracle)
{
    uint64_t rng = 0x5ca1ab1e;
    int positions = 0, truncated = 0, full = 0;
    for (int round = 0; round < 6000; round++) {
        int n = 1 + (int)rng_below(&rng, 4), m = 1 + (int)rng_below(&rng, 4);
        game g;
        /* Small values make many ties, which the ranking must order. */
        new_game(&g, n, m, &rng, round % 3 == 0 ? 100000 : 3);
        /* 4 x 4 openings are the oracle's slowest: start them later. */
        int lo = n * m == 16 ? 4 : 0;
        play_random(&g, lo + (int)rng_below(&rng, (uint64_t)(n * m - lo + 1)), &rng);
        enum form form = (enum form)(rng_below(&rng, 2));
        if (g.placed == 0 && rng_below(&rng, 2) == 0)
            form = EMPTY_BOARD;
        long max_moves = rng_below(&rng, 4) == 0 ? 1 + (long)rng_below(&rng, 3) : 0;
        check_answer(&g, form, max_moves, NULL, oracle_margin);
        positions++;
        full += g.placed == n * m;
        truncated += max_moves > 0 && max_moves < (long)(n < m ? n : m);
    }
    ck_assert_int_eq(positions, 6000);
    ck_assert_int_gt(full, 50);
    ck_assert_int_gt(truncated, 50);
}
END_TEST

/* Every shape the oracle takes, from the opening and from every stone
 * count along one random game. */
START_TEST(test_every_shape_along_a_game)
{
    uint64_t rng = 77;
    for (int n = 1; n <= 16; n++) {
        for (int m = 1; n * m <= STAIRCASE_CHESS_ORACLE_CELLS; m++) {
            game g;
            new_game(&g, n, m, &rng, 9);
            while (g.placed <= n * m) {
                check_answer(&g, BY_STONES, 0, widest, oracle_margin);
                check_answer(&g, BY_PROFILE, 0, widest, oracle_margin);
                if (g.placed == n * m)
                    break;
                play_random(&g, 1, &rng);
            }
        }
    }
}
END_TEST

/* ---- 2. mid-size positions against the row-length search ---- */

START_TEST(test_random_against_memo)
{
    uint64_t rng = 0xfeed;
    for (int round = 0; round < 300; round++) {
        int n = 1 + (int)rng_below(&rng, 7), m = 1 + (int)rng_below(&rng, 7);
        game g;
        new_game(&g, n, m, &rng, round % 2 ? 100000 : 5);
        play_random(&g, (int)rng_below(&rng, (uint64_t)(n * m + 1)), &rng);
        check_answer(&g, round % 3 == 0 ? BY_PROFILE : BY_STONES, 0, NULL, memo_margin);
    }
    /* The row-length search against the oracle, so both stand on the rules. */
    for (int round = 0; round < 200; round++) {
        int n = 1 + (int)rng_below(&rng, 3), m = 1 + (int)rng_below(&rng, 4);
        game g;
        new_game(&g, n, m, &rng, 50);
        play_random(&g, (int)rng_below(&rng, (uint64_t)(n * m + 1)), &rng);
        ck_assert_int_eq(memo_margin(&g), oracle_margin(&g));
    }
}
END_TEST

/* ---- 3. the opening and the largest boards against the solver ---- */

static long solve_json(const game *g, const long *limits)
{
    char *req = request(g, BY_PROFILE, 0);
    /* A solve takes only a and b: cut the profile off. */
    char *cut = strstr(req, ", \"profile\"");
    strcpy(cut, "}");
    gj_error e;
    char *got = harness_run(G, IN_JSON, req, strlen(req), OUT_JSON, limits, &e);
    ck_assert_msg(got != NULL, "%s", e.message);
    json_t *root = json_loads(got, 0, NULL);
    long score = (long)member_int(root, "score_difference");
    json_decref(root);
    free(got);
    free(req);
    return score;
}

static long analysis_value(const game *g, enum form form, const long *limits)
{
    char *req = request(g, form, 0);
    json_t *root = analyze(req, limits);
    long v = (long)member_int(root, "value");
    if (form != BY_PROFILE)
        ck_assert_int_eq(member_int(root, "final_difference"),
                         score_so_far(g) + (g->placed % 2 == 0 ? v : -v));
    json_decref(root);
    free(req);
    return v;
}

/* The answer must agree with itself: every move's score is its gain minus
 * the value after it, and the value is the best score. */
static void check_consistent(game *g, const long *limits)
{
    char *req = request(g, BY_STONES, 0);
    json_t *root = analyze(req, limits);
    long value = (long)member_int(root, "value");
    const json_t *moves = json_object_get(root, "moves");
    long best = LONG_MIN;
    for (size_t k = 0; k < json_array_size(moves); k++) {
        const json_t *entry = json_array_get(moves, k);
        const json_t *move = json_object_get(entry, "move");
        int i = (int)json_integer_value(json_array_get(move, 0)) - 1;
        int j = (int)json_integer_value(json_array_get(move, 1)) - 1;
        long gained = gain(g, i * g->m + j);
        put(g, i, j);
        ck_assert_int_eq(member_int(entry, "score"),
                         gained - analysis_value(g, k % 2 ? BY_PROFILE : BY_STONES, limits));
        g->stone[i * g->m + j] = 0;
        g->placed--;
        if (member_int(entry, "score") > best)
            best = (long)member_int(entry, "score");
    }
    if (json_array_size(moves) > 0)
        ck_assert_int_eq(best, value);
    json_decref(root);
    free(req);
}

START_TEST(test_opening_equals_solve)
{
    uint64_t rng = 404;
    for (int n = 1; n <= 10; n++) {
        for (int m = 1; m <= 10; m++) {
            game g;
            new_game(&g, n, m, &rng, 100000);
            long solved = solve_json(&g, NULL);
            ck_assert_int_eq(analysis_value(&g, EMPTY_BOARD, NULL), solved);
            ck_assert_int_eq(analysis_value(&g, BY_STONES, NULL), solved);
            ck_assert_int_eq(analysis_value(&g, BY_PROFILE, NULL), solved);
        }
    }
}
END_TEST

START_TEST(test_official_size_mid_play)
{
    uint64_t rng = 1010;
    for (int round = 0; round < 12; round++) {
        game g;
        new_game(&g, 10, 10, &rng, 100000);
        play_random(&g, (int)rng_below(&rng, 101), &rng);
        check_consistent(&g, NULL);
    }
}
END_TEST

static void transpose(const game *g, game *t)
{
    memset(t, 0, sizeof *t);
    t->n = g->m;
    t->m = g->n;
    for (int i = 0; i < g->n; i++) {
        for (int j = 0; j < g->m; j++) {
            t->a[j * t->m + i] = g->a[i * g->m + j];
            t->b[j * t->m + i] = g->b[i * g->m + j];
        }
    }
    for (int k = 0; k < g->placed; k++)
        put(t, g->order[k] % g->m, g->order[k] / g->m);
}

/* Beyond the official size: n + m up to 26 with raised limits, and the
 * configurable maximum 28 on a thin board. */
START_TEST(test_largest_boards)
{
    static const int shapes[][2] = {{13, 13}, {20, 6}, {6, 20}, {2, 26}, {26, 2}, {1, 26}};
    const long raised[] = {26, 26, 26};
    uint64_t rng = 2626;
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        const long *lim = shapes[s][0] + shapes[s][1] > 26 ? widest : raised;
        game g, t;
        new_game(&g, shapes[s][0], shapes[s][1], &rng, 100000);
        long solved = solve_json(&g, lim);
        ck_assert_int_eq(analysis_value(&g, EMPTY_BOARD, lim), solved);
        play_random(&g, 1 + (int)rng_below(&rng, (uint64_t)(g.n * g.m)), &rng);
        check_consistent(&g, lim);
        /* The rules are symmetric under transposition. */
        transpose(&g, &t);
        ck_assert_int_eq(analysis_value(&t, BY_STONES, lim), analysis_value(&g, BY_STONES, lim));
    }
}
END_TEST

/* ---- 4. edge cases ---- */

START_TEST(test_full_board)
{
    uint64_t rng = 3;
    game g;
    new_game(&g, 2, 3, &rng, 100);
    play_random(&g, 6, &rng);
    for (int form = BY_STONES; form <= BY_PROFILE; form++) {
        char *req = request(&g, (enum form)form, 0);
        json_t *root = analyze(req, NULL);
        ck_assert_int_eq(member_int(root, "value"), 0);
        ck_assert_int_eq(member_int(root, "moves_total"), 0);
        ck_assert_int_eq(member_int(root, "winning_moves"), 0);
        ck_assert(json_is_false(json_object_get(root, "truncated")));
        ck_assert_int_eq(json_array_size(json_object_get(root, "moves")), 0);
        ck_assert_str_eq(member_str(root, "to_move"), "black");
        json_decref(root);
        free(req);
    }
}
END_TEST

START_TEST(test_one_cell)
{
    const char *req = "{\"a\": [[5]], \"b\": [[9]]}";
    json_t *root = analyze(req, NULL);
    ck_assert_int_eq(member_int(root, "value"), 5);
    ck_assert_int_eq(member_int(root, "score_so_far"), 0);
    ck_assert_int_eq(member_int(root, "final_difference"), 5);
    ck_assert_int_eq(member_int(root, "winning_moves"), 1);
    const json_t *entry = json_array_get(json_object_get(root, "moves"), 0);
    ck_assert_int_eq(member_int(entry, "score"), 5);
    const json_t *after = json_object_get(entry, "after");
    ck_assert_int_eq(json_integer_value(json_array_get(json_object_get(after, "profile"), 0)), 1);
    ck_assert_str_eq(member_str(after, "to_move"), "white");
    json_decref(root);

    /* White's turn on a 1 x 2 board: white's gain is B. */
    root = analyze("{\"a\": [[5, 6]], \"b\": [[9, 4]], \"stones\": [[1,1]]}", NULL);
    ck_assert_str_eq(member_str(root, "to_move"), "white");
    ck_assert_int_eq(member_int(root, "value"), 4);
    ck_assert_int_eq(member_int(root, "score_so_far"), 5);
    ck_assert_int_eq(member_int(root, "final_difference"), 1);
    json_decref(root);
}
END_TEST

START_TEST(test_example_and_max_moves)
{
    json_t *root = analyze(G->example_analyze, NULL);
    ck_assert_str_eq(member_str(root, "to_move"), "black");
    ck_assert_int_eq(member_int(root, "moves_total"), 2);
    json_decref(root);

    /* max_moves cuts the list, never the counts. */
    const char *req = "{\"a\": [[1,1,1],[1,1,1],[1,1,1]], \"b\": [[1,1,1],[1,1,1],[1,1,1]], "
                      "\"profile\": [2,1,0], \"max_moves\": 2}";
    root = analyze(req, NULL);
    ck_assert_int_eq(member_int(root, "moves_total"), 3);
    ck_assert_int_eq(member_int(root, "winning_moves"), 3);
    ck_assert(json_is_true(json_object_get(root, "truncated")));
    const json_t *moves = json_object_get(root, "moves");
    ck_assert_int_eq(json_array_size(moves), 2);
    /* Equal scores: row-major. */
    ck_assert_int_eq(
        json_integer_value(json_array_get(json_object_get(json_array_get(moves, 1), "move"), 0)),
        2);
    json_decref(root);
}
END_TEST

/* ---- 5. bad requests ---- */

static void bad(const char *req, const char *field, const char *part)
{
    gj_error e = analysis_error(req, NULL);
    ck_assert_int_eq(e.kind, GJ_BAD_INPUT);
    ck_assert_msg(strstr(e.message, part) != NULL, "message [%s] lacks [%s]", e.message, part);
    ck_assert_msg(strcmp(e.field, field) == 0, "field [%s], expected [%s] for %s", e.field, field,
                  req);
}

#define AB "\"a\": [[1,2,3],[4,5,6]], \"b\": [[6,5,4],[3,2,1]]"

START_TEST(test_bad_requests)
{
    bad("", "", "invalid JSON");
    bad("[1]", "", "the JSON body must be an object");
    bad("{" AB ", \"stone\": []}", "stone", "unknown field");
    bad("{\"a\": [[1]]}", "b", "missing required field");
    bad("{\"b\": [[1]]}", "a", "missing required field");
    bad("{\"a\": [[1,2]], \"b\": [[1]]}", "b[0]", "b[0]: has 1 cell, expected 2");
    bad("{\"a\": [[-1]], \"b\": [[1]]}", "a[0][0]", "must be between 0 and 100000, found -1");
    bad("{" AB ", \"max_moves\": 0}", "max_moves", "max_moves: must be between 1 and 10000");
    bad("{" AB ", \"max_moves\": \"3\"}", "max_moves", "expected an integer, found a string");

    bad("{" AB ", \"stones\": 5}", "stones", "stones: expected an array, found an integer");
    bad("{" AB ", \"stones\": [[1,1],[1,2],[1,3],[2,1],[2,2],[2,3],[1,1]]}", "stones",
        "stones: expected 0 to 6 elements, found 7");
    bad("{" AB ", \"stones\": [[1,1], 7]}", "stones[1]",
        "stones[1]: expected an array, found an integer");
    bad("{" AB ", \"stones\": [[1,1,1]]}", "stones[0]",
        "stones[0]: expected [row, column], found 3 elements");
    bad("{" AB ", \"stones\": [[1]]}", "stones[0]", "expected [row, column], found 1 element");
    bad("{" AB ", \"stones\": [[\"1\",1]]}", "stones[0][0]",
        "stones[0][0]: expected an integer, found a string");
    bad("{" AB ", \"stones\": [[1,1],[3,1]]}", "stones[1][0]",
        "stones[1][0]: must be between 1 and 2, found 3");
    bad("{" AB ", \"stones\": [[1,0]]}", "stones[0][1]",
        "stones[0][1]: must be between 1 and 3, found 0");
    bad("{" AB ", \"stones\": [[1,1],[1,4]]}", "stones[1][1]", "must be between 1 and 3, found 4");
    bad("{" AB ", \"stones\": [[1,1],[1,2],[1,1]]}", "stones[2]",
        "stones[2]: (1,1) already holds a stone (stones[0])");
    bad("{" AB ", \"stones\": [[2,1]]}", "stones[0]",
        "stones[0]: (2,1) cannot take a stone before (1,1)");
    bad("{" AB ", \"stones\": [[1,1],[1,3]]}", "stones[1]",
        "stones[1]: (1,3) cannot take a stone before (1,2)");
    bad("{" AB ", \"stones\": [[1,1],[2,1],[2,2]]}", "stones[2]",
        "stones[2]: (2,2) cannot take a stone before (1,2)");

    bad("{" AB ", \"profile\": {}}", "profile", "profile: expected an array, found an object");
    bad("{" AB ", \"profile\": [1]}", "profile", "profile: has 1 row, expected 2 as in a");
    bad("{" AB ", \"profile\": [1,1,1]}", "profile", "profile: has 3 rows, expected 2 as in a");
    bad("{" AB ", \"profile\": [1,null]}", "profile[1]", "profile[1]: expected an integer");
    bad("{" AB ", \"profile\": [4,0]}", "profile[0]",
        "profile[0]: must be between 0 and 3, found 4");
    bad("{" AB ", \"profile\": [1,-1]}", "profile[1]", "must be between 0 and 3, found -1");
    bad("{" AB ", \"profile\": [1,2]}", "profile[1]",
        "profile[1]: 2 stones under a row of 1; rows never grow downwards");
    /* Both (as a whole "after" has them): the profile must be the stones'. */
    bad("{" AB ", \"profile\": [1,0], \"stones\": []}", "profile[0]",
        "profile[0]: beside stones it must be the profile they make: row 1 holds 0 stones");
    bad("{" AB ", \"profile\": [1], \"stones\": [[1,1]]}", "profile",
        "beside stones it must be the 2 row lengths the stones make");
    bad("{" AB ", \"stones\": [[1,1]], \"to_move\": \"black\"}", "to_move",
        "to_move: with 1 stones on the board it is \"white\" to move");
}
END_TEST

START_TEST(test_size_limits)
{
    const long lim[] = {10, 10, 20};
    game g;
    uint64_t rng = 1;
    new_game(&g, 11, 9, &rng, 5);
    char *req = request(&g, BY_PROFILE, 0);
    gj_error e = analysis_error(req, lim);
    ck_assert_str_eq(e.field, "a");
    ck_assert_str_eq(e.message, "a: expected 1 to 10 elements, found 11");
    free(req);
    new_game(&g, 10, 11, &rng, 5);
    req = request(&g, BY_STONES, 0);
    e = analysis_error(req, lim);
    ck_assert_str_eq(e.field, "a[0]");
    free(req);
    /* n + m over the size limit, each side within its own. */
    const long raised[] = {26, 26, 26};
    new_game(&g, 14, 13, &rng, 5);
    req = request(&g, BY_PROFILE, 0);
    e = analysis_error(req, raised);
    ck_assert_str_eq(e.field, "a");
    ck_assert_msg(strstr(e.message, "n + m must be at most 26") != NULL, "%s", e.message);
    free(req);
}
END_TEST

/* ---- 6. the cache key ---- */

static char *key_of(const char *in, harness_input how)
{
    long lim[GJ_MAX_LIMITS];
    limits_or_default(widest, lim);
    gj_error e;
    void *pos = how == IN_TEXT ? G->parse_text(in, strlen(in), lim, &e)
                               : G->parse_json(in, strlen(in), lim, &e);
    ck_assert_msg(pos != NULL, "%s", e.message);
    gj_buf out;
    buf_init(&out);
    G->write_key(pos, &out);
    buf_putc(&out, '\0');
    ck_assert(!out.failed);
    G->free_position(pos);
    return buf_take(&out, NULL);
}

START_TEST(test_write_key)
{
    static const char *const text[] = {
        "2 3\n2 7 3\n9 1 2\n3 7 2\n2 3 1\n",
        "2 3\n2 7 3\n9 1 2\n3 7 2\n2 3 2\n",   /* one B value */
        "2 3\n2 7 3\n9 1 3\n3 7 2\n2 3 1\n",   /* one A value */
        "2 3\n3 7 2\n2 3 1\n2 7 3\n9 1 2\n",   /* A and B swapped */
        "3 2\n2 7\n3 9\n1 2\n3 7\n2 2\n3 1\n", /* the same numbers, 3 x 2 */
        "1 6\n2 7 3 9 1 2\n3 7 2 2 3 1\n",
        "6 1\n2\n7\n3\n9\n1\n2\n3\n7\n2\n2\n3\n1\n",
        "1 1\n27\n3\n",
        "1 1\n2\n73\n",
        "1 2\n2 7\n3 1\n",
        "2 1\n2\n7\n3\n1\n",
    };
    static const char *const json[] = {
        "{\"a\": [[2,7,3],[9,1,2]], \"b\": [[3,7,2],[2,3,1]]}",
        "{\"a\": [[2,7,3],[9,1,2]], \"b\": [[3,7,2],[2,3,2]]}",
        "{\"a\": [[2,7,3],[9,1,3]], \"b\": [[3,7,2],[2,3,1]]}",
        "{\"a\": [[3,7,2],[2,3,1]], \"b\": [[2,7,3],[9,1,2]]}",
        "{\"a\": [[2,7],[3,9],[1,2]], \"b\": [[3,7],[2,2],[3,1]]}",
        "{\"a\": [[2,7,3,9,1,2]], \"b\": [[3,7,2,2,3,1]]}",
        "{\"a\": [[2],[7],[3],[9],[1],[2]], \"b\": [[3],[7],[2],[2],[3],[1]]}",
        "{\"b\": [[3]], \"a\": [[27]]}",
        "{\"a\": [[2]], \"b\": [[73]]}",
        "{\"a\": [[2,7]], \"b\": [[3,1]]}",
        "{\"a\": [[2],[7]], \"b\": [[3],[1]]}",
    };
    size_t count = sizeof text / sizeof text[0];
    char *keys[sizeof text / sizeof text[0]];
    for (size_t k = 0; k < count; k++) {
        keys[k] = key_of(text[k], IN_TEXT);
        char *twin = key_of(json[k], IN_JSON);
        ck_assert_msg(strcmp(keys[k], twin) == 0, "text key [%s], JSON key [%s]", keys[k], twin);
        free(twin);
    }
    for (size_t i = 0; i < count; i++)
        for (size_t j = i + 1; j < count; j++)
            ck_assert_msg(strcmp(keys[i], keys[j]) != 0, "positions %zu and %zu share a key", i, j);
    for (size_t k = 0; k < count; k++)
        free(keys[k]);
}
END_TEST

/* The parsed position (game.h's gj_play) against the JSON path: analyze()
 * on the request's text, play_move() on its JSON and after.c's writer. */

/* The request's members, shuffled: a, b, then stones, profile and to_move
 * as `shape` says (bit 0 stones, bit 1 profile, bit 2 to_move). */
static json_t *shuffled_request(const game *g, int shape, long max_moves, uint64_t *rng)
{
    const char *names[6];
    int count = 0;
    names[count++] = "a";
    names[count++] = "b";
    if (shape & 1)
        names[count++] = "stones";
    if (shape & 2)
        names[count++] = "profile";
    if (shape & 4)
        names[count++] = "to_move";
    if (max_moves > 0)
        names[count++] = "max_moves";
    for (int k = count - 1; k > 0; k--) {
        int j = (int)rng_below(rng, (uint64_t)k + 1);
        const char *t = names[k];
        names[k] = names[j];
        names[j] = t;
    }
    char *full = request(g, BY_STONES, 0), *byprofile = request(g, BY_PROFILE, 0);
    json_t *stones = json_loads(full, 0, NULL), *profile = json_loads(byprofile, 0, NULL);
    ck_assert(stones != NULL && profile != NULL);
    json_t *req = json_object();
    for (int k = 0; k < count; k++) {
        json_t *v;
        if (strcmp(names[k], "to_move") == 0)
            v = json_string(g->placed % 2 == 0 ? "black" : "white");
        else if (strcmp(names[k], "max_moves") == 0)
            v = json_integer(max_moves);
        else
            v = json_incref(
                json_object_get(strcmp(names[k], "profile") == 0 ? profile : stones, names[k]));
        ck_assert(v != NULL);
        json_object_set_new(req, names[k], v);
    }
    json_decref(stones);
    json_decref(profile);
    free(full);
    free(byprofile);
    return req;
}

/* analyze() on req written compact: its bytes, NUL-terminated. */
static char *json_path(const json_t *req, const long *lim)
{
    char *body = json_dumps(req, JSON_COMPACT);
    gj_buf out;
    gj_error e;
    buf_init(&out);
    gj_error_clear(&e);
    ck_assert_msg(G->analyze(body, strlen(body), lim, &out, &e) == 0, "%s: %s", body, e.message);
    free(body);
    buf_putc(&out, '\0');
    ck_assert(!out.failed);
    return buf_take(&out, NULL);
}

/* The parsed position's analyze(): its bytes, NUL-terminated. */
static char *parsed_path(void *pos)
{
    gj_buf out;
    gj_error e;
    buf_init(&out);
    gj_error_clear(&e);
    ck_assert_msg(G->play->analyze(pos, &out, &e) == 0, "%s", e.message);
    buf_putc(&out, '\0');
    ck_assert(!out.failed);
    return buf_take(&out, NULL);
}

/* v written compact without its braces (an entry's members). */
static char *inner(const json_t *v)
{
    char *text = json_dumps(v, JSON_COMPACT);
    size_t len = strlen(text);
    memmove(text, text + 1, len - 2);
    text[len - 2] = '\0';
    return text;
}

/* write_move's bytes for m, NUL-terminated; *after_bytes as it says. */
static char *written_move(void *pos, const gj_move *m, int whole, size_t *after_bytes)
{
    gj_buf out;
    gj_error e;
    buf_init(&out);
    gj_error_clear(&e);
    ck_assert_msg(G->play->write_move(pos, m, whole, &out, after_bytes, &e) == 0, "%s", e.message);
    buf_putc(&out, '\0');
    return buf_take(&out, NULL);
}

/* rank(max) with and without a head must be the answer to req with
 * max_moves = max, entry by entry and byte for byte; *moves then holds
 * the ranking, and the count is returned. */
static long check_rank(void *pos, const json_t *req, long max, const long *lim, gj_move *moves)
{
    json_t *asked = json_copy((json_t *)req);
    json_object_set_new(asked, "max_moves", json_integer(max));
    char *text = json_path(asked, lim);
    json_t *ans = json_loads(text, 0, NULL), *list = json_object_get(ans, "moves");
    gj_move plain[MAX_SIDE];
    gj_rank_head head;
    gj_error e;
    long count = G->play->rank(pos, max, moves, &head, &e);
    ck_assert_int_eq(G->play->rank(pos, max, plain, NULL, &e), count);
    ck_assert_int_eq(count, (long)json_array_size(list));
    ck_assert_int_eq(head.value, member_int(ans, "value"));
    ck_assert_int_eq(head.remoteness, member_int(ans, "remoteness"));
    ck_assert_int_eq(head.moves_total, member_int(ans, "moves_total"));
    ck_assert_int_eq(head.winning_moves, member_int(ans, "winning_moves"));
    for (long k = 0; k < count; k++) {
        const json_t *entry = json_array_get(list, (size_t)k);
        ck_assert(plain[k].id == moves[k].id && plain[k].score == moves[k].score);
        ck_assert_int_eq(moves[k].wins, 0);
        ck_assert_int_eq(moves[k].score, member_int(entry, "score"));
        ck_assert_int_eq(moves[k].remoteness, member_int(entry, "remoteness"));
        size_t bytes = 1;
        char *mine = written_move(pos, &moves[k], 0, &bytes), *theirs = inner(entry);
        ck_assert_str_eq(mine, theirs);
        ck_assert_uint_eq(bytes, 0);
        free(mine);
        free(theirs);
    }
    json_decref(ans);
    json_decref(asked);
    free(text);
    return count;
}

/* Every listed move with a whole after: after.c's bytes for the same
 * entry, and find() names it; cells that are no move and malformed moves
 * are found as none. */
static void check_moves(void *pos, const json_t *req, const long *lim, const game *g,
                        const gj_move *moves, long count)
{
    char *text = json_path(req, lim);
    json_t *ans = json_loads(text, 0, NULL), *list = json_object_get(ans, "moves");
    gj_error e;
    after_writer w;
    after_init(&w, G, 1);
    for (long k = 0; k < count && k < (long)json_array_size(list); k++) {
        const json_t *entry = json_array_get(list, (size_t)k);
        gj_buf out;
        buf_init(&out);
        size_t before = w.bytes, bytes = 0;
        ck_assert(after_put_members(&w, req, entry, &out, &e) == 0);
        buf_putc(&out, '\0');
        char *mine = written_move(pos, &moves[k], 1, &bytes);
        ck_assert_str_eq(mine, out.data);
        ck_assert_uint_eq(bytes, w.bytes - before);
        gj_move found = {.id = 999};
        ck_assert_int_eq(G->play->find(pos, json_object_get(entry, "move"), &found, &e), 1);
        ck_assert(found.id == moves[k].id);
        free(mine);
        buf_free(&out);
    }
    for (int r = 0; r <= g->n + 1; r++)
        for (int c = 0; c <= g->m + 1; c++) {
            int listed = r >= 1 && r <= g->n && c >= 1 && c <= g->m && legal(g, r - 1, c - 1);
            json_t *cell = json_pack("[ii]", r, c);
            gj_move found = {0};
            ck_assert_int_eq(G->play->find(pos, cell, &found, &e), listed);
            json_decref(cell);
        }
    const char *malformed[] = {"\"x\"", "[1]", "[1,1,1]", "[1.0,1]", "null", "{}", "[[1],1]"};
    for (size_t k = 0; k < sizeof malformed / sizeof malformed[0]; k++) {
        json_t *v = json_loads(malformed[k], JSON_DECODE_ANY, NULL);
        gj_move found = {0};
        ck_assert_int_eq(G->play->find(pos, v, &found, &e), 0);
        json_decref(v);
    }
    after_free(&w);
    json_decref(ans);
    free(text);
}

/* The members write_members gives, as a JSON object. */
static json_t *members_of(void *pos, int moved)
{
    gj_buf out;
    buf_init(&out);
    buf_putc(&out, '{');
    G->play->write_members(pos, moved, &out);
    buf_putc(&out, '}');
    ck_assert(!out.failed);
    json_t *v = json_loadb(out.data, out.len, JSON_REJECT_DUPLICATES, NULL);
    ck_assert_msg(v != NULL, "members not JSON: %.*s", (int)out.len, out.data);
    buf_free(&out);
    return v;
}

/* write_members (not moved): the request as play_move has played it, in
 * its order, without max_moves, byte for byte. */
static void check_members(void *pos, const json_t *req)
{
    json_t *copy = json_copy((json_t *)req);
    json_object_del(copy, "max_moves");
    char *want = inner(copy);
    gj_buf out;
    buf_init(&out);
    G->play->write_members(pos, 0, &out);
    buf_putc(&out, '\0');
    ck_assert(!out.failed);
    ck_assert_str_eq(out.data, want);
    buf_free(&out);
    free(want);
    json_decref(copy);
}

/* One game from g (in request shape `shape`) played to its end on the
 * parsed position and on JSON side by side, checked at every move. */
static void walk_both(game *g, int shape, long max_moves, const long *lim, uint64_t *rng)
{
    gj_error e;
    json_t *req = shuffled_request(g, shape, max_moves, rng);
    void *pos = G->play->parse(req, lim, &e);
    ck_assert_msg(pos != NULL, "%s", e.message);
    for (;;) {
        char *want = json_path(req, lim), *got = parsed_path(pos);
        ck_assert_str_eq(got, want);
        free(got);
        check_members(pos, req);
        gj_move moves[MAX_SIDE];
        long all = check_rank(pos, req, ANALYSIS_MAX_MOVES_LIMIT, lim, moves);
        for (long max = 1; max <= 3; max++)
            check_rank(pos, req, max, lim, moves);
        check_rank(pos, req, ANALYSIS_MAX_MOVES_LIMIT, lim, moves);
        check_moves(pos, req, lim, g, moves, all);
        if (all == 0) {
            free(want);
            break;
        }
        /* A move the answer to req lists (its max_moves may cut it). */
        json_t *parsed = json_loads(want, 0, NULL);
        size_t shown = json_array_size(json_object_get(parsed, "moves"));
        long k = (long)rng_below(rng, (uint64_t)shown);
        /* A clone plays on alone; the position is left as it was. */
        void *copy = G->play->clone(pos, &e);
        ck_assert(copy != NULL);
        ck_assert_int_eq(G->play->play(copy, &moves[k], &e), 0);
        got = parsed_path(pos);
        ck_assert_str_eq(got, want);
        free(got);
        const json_t *listed = json_array_get(json_object_get(parsed, "moves"), (size_t)k);
        ck_assert_int_eq(G->play_move(req, listed, &e), 0);
        json_t *moved_before = members_of(pos, 1);
        ck_assert_int_eq(G->play->play(pos, &moves[k], &e), 0);
        json_t *moved = members_of(pos, 1);
        ck_assert(!json_equal(moved, moved_before));
        char *played = json_path(req, lim);
        got = parsed_path(pos);
        ck_assert_str_eq(got, played);
        free(got);
        got = parsed_path(copy);
        ck_assert_str_eq(got, played);
        free(got);
        G->play->free(copy);
        free(played);
        json_decref(moved);
        json_decref(moved_before);
        json_decref(parsed);
        free(want);
        long len[MAX_SIDE];
        row_lengths(g, len);
        put(g, (int)moves[k].id, (int)len[moves[k].id]);
    }
    G->play->free(pos);
    json_decref(req);
}

/* Thousands of small games in every request shape and member order, played
 * out on the parsed position and on JSON side by side. */
START_TEST(test_parsed_equals_json)
{
    uint64_t rng = 0x5ca1ab1e;
    for (int round = 0; round < 1500; round++) {
        game g;
        int n = 1 + (int)rng_below(&rng, 5), m = 1 + (int)rng_below(&rng, 5);
        new_game(&g, n, m, &rng, round % 3 == 0 ? 3 : 100000);
        play_random(&g, (int)rng_below(&rng, (uint64_t)(n * m + 1)), &rng);
        /* No stones and no profile is the empty board only. */
        int shape = (int)rng_below(&rng, 8);
        if (g.placed > 0 && (shape & 3) == 0)
            shape |= 1 + (int)rng_below(&rng, 3);
        long max_moves = rng_below(&rng, 3) == 0 ? 1 + (long)rng_below(&rng, 4) : 0;
        walk_both(&g, shape, max_moves, official, &rng);
    }
}
END_TEST

/* Official-size and the largest boards, a few games each from the opening
 * and from mid-play, the line's way (one move ranked, written, played). */
START_TEST(test_parsed_equals_json_large)
{
    uint64_t rng = 0x1a26e;
    const int sides[][2] = {{10, 10}, {4, 16}, {13, 3}, {1, 26}};
    for (size_t k = 0; k < sizeof sides / sizeof sides[0]; k++) {
        for (int round = 0; round < 2; round++) {
            game g;
            new_game(&g, sides[k][0], sides[k][1], &rng, 100000);
            play_random(&g, round == 0 ? 0 : 1 + (int)rng_below(&rng, 20), &rng);
            walk_both(&g, round == 0 ? 0 : 1 + 4 * (int)rng_below(&rng, 2), 0, widest, &rng);
        }
    }
}
END_TEST

static Suite *analysis_suite(void)
{
    const harness_case tests[] = {
        {"random_against_oracle", test_random_against_oracle},
        {"every_shape_along_a_game", test_every_shape_along_a_game},
        {"random_against_memo", test_random_against_memo},
        {"opening_equals_solve", test_opening_equals_solve},
        {"official_size_mid_play", test_official_size_mid_play},
        {"full_board", test_full_board},
        {"one_cell", test_one_cell},
        {"example_and_max_moves", test_example_and_max_moves},
        {"bad_requests", test_bad_requests},
        {"size_limits", test_size_limits},
        {"write_key", test_write_key},
    };
    /* The parsed position against the JSON path over whole games: left to
     * make check, as test_play holds every game to it in the quick loop. */
    const harness_case large[] = {
        {"largest_boards", test_largest_boards},
        {"parsed_equals_json", test_parsed_equals_json},
        {"parsed_equals_json_large", test_parsed_equals_json_large},
    };
    Suite *s =
        harness_suite("staircase-chess analysis", tests, sizeof tests / sizeof tests[0], 300);
    harness_add_tagged(s, large, sizeof large / sizeof large[0], 300, HARNESS_LARGE);
    return s;
}

int main(void)
{
    return harness_main(analysis_suite());
}
