/* test_nim_shortcuts_analysis.c - POST /analyze/nim-shortcuts against the
 * game tree.
 *
 * The analysis finds a position's winning moves from the solver's segments
 * of natural losers; the oracle (tests/oracle/nim_shortcuts_tree.c) values
 * every position of a small board by trying all of its moves.  For tens of
 * thousands of random positions the whole answer must be the one the oracle
 * predicts: value, counts, the shortcut flag, and the list entry by entry
 * (which moves, their outcomes and resulting positions, their order, where
 * max_moves cuts it).  Coordinates near 10^9 are checked against the fast
 * solver and against the one diagonal beyond every shortcut.  Then every
 * bad request, and the cache key of the solve endpoint.  Last, the parsed
 * position (gj_play) against the JSON path over random games. */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "after.h"
#include "analysis.h"
#include "buf.h"
#include "games.h"
#include "harness.h"
#include "nim_shortcuts.h"
#include "nim_shortcuts_tree.h"

#define GAME      (&game_nim_shortcuts)
#define MAX_COORD 1000000000L

/* ---- requests ------------------------------------------------------------ */

typedef struct request {
    long n;
    long *sx, *sy;
    long x, y;
    const char *to_move; /* NULL: leave the member out */
    long max_moves;      /* 0: leave the member out */
} request;

static char *take(gj_buf *b)
{
    buf_putc(b, '\0');
    ck_assert_msg(!b->failed, "out of memory building a test input");
    return buf_take(b, NULL);
}

static void put_point(gj_buf *b, long x, long y)
{
    buf_putc(b, '[');
    buf_put_long(b, x);
    buf_putc(b, ',');
    buf_put_long(b, y);
    buf_putc(b, ']');
}

static char *render(const request *r)
{
    gj_buf b;
    buf_init(&b);
    buf_puts(&b, "{\"shortcuts\": [");
    for (long i = 0; i < r->n; i++) {
        if (i > 0)
            buf_putc(&b, ',');
        put_point(&b, r->sx[i], r->sy[i]);
    }
    buf_puts(&b, "], \"heaps\": ");
    put_point(&b, r->x, r->y);
    if (r->to_move != NULL) {
        buf_puts(&b, ", \"to_move\": \"");
        buf_puts(&b, r->to_move);
        buf_putc(&b, '"');
    }
    if (r->max_moves > 0) {
        buf_puts(&b, ", \"max_moves\": ");
        buf_put_long(&b, r->max_moves);
    }
    buf_putc(&b, '}');
    return take(&b);
}

static void default_limits(long *limits)
{
    for (int i = 0; i < GJ_MAX_LIMITS; i++)
        limits[i] = i < GAME->nlimits ? GAME->limits[i].def : 0;
}

/* Run the analysis: the parsed answer, or NULL with *e filled. */
static json_t *analyze_with(const char *in, const long *limits, gj_error *e)
{
    long defaults[GJ_MAX_LIMITS];
    if (limits == NULL) {
        default_limits(defaults);
        limits = defaults;
    }
    gj_buf out;
    buf_init(&out);
    gj_error_clear(e);
    if (GAME->analyze(in, strlen(in), limits, &out, e) != 0) {
        ck_assert_int_ne(e->kind, GJ_OK);
        buf_free(&out);
        return NULL;
    }
    ck_assert(!out.failed);
    json_error_t jerr;
    json_t *root = json_loadb(out.data, out.len, JSON_REJECT_DUPLICATES, &jerr);
    ck_assert_msg(root != NULL, "answer is not JSON (%s): %.*s", jerr.text, (int)out.len, out.data);
    buf_free(&out);
    return root;
}

static json_t *analyze(const char *in)
{
    gj_error e;
    json_t *root = analyze_with(in, NULL, &e);
    ck_assert_msg(root != NULL, "unexpected error for %s: %s", in, e.message);
    return root;
}

static json_t *member(const json_t *obj, const char *key)
{
    json_t *v = json_object_get(obj, key);
    ck_assert_msg(v != NULL, "missing member \"%s\"", key);
    return v;
}

static long long int_member(const json_t *obj, const char *key)
{
    json_t *v = member(obj, key);
    ck_assert_msg(json_is_integer(v), "\"%s\" is not an integer", key);
    return json_integer_value(v);
}

static const char *str_member(const json_t *obj, const char *key)
{
    json_t *v = member(obj, key);
    ck_assert_msg(json_is_string(v), "\"%s\" is not a string", key);
    return json_string_value(v);
}

static int bool_member(const json_t *obj, const char *key)
{
    json_t *v = member(obj, key);
    ck_assert_msg(json_is_boolean(v), "\"%s\" is not a boolean", key);
    return json_is_true(v);
}

/* ---- the expected answer, from the game tree ----------------------------- */

typedef struct move {
    int heap; /* 1: x, 2: y */
    long take;
    int wins;
    long rem; /* the remoteness after it */
} move;

/* Whether a goes after b: a loss before a win, a slower win, a faster
 * loss (the order by stones is already there). */
static int after_in_rank(const move *a, const move *b)
{
    if (a->wins != b->wins)
        return b->wins;
    return a->wins ? a->rem > b->rem : a->rem < b->rem;
}

/* Every move of (x, y) in the documented order: winning ones first, the
 * fastest win or the slowest loss first, then fewest stones taken, heap 1
 * before heap 2.  Returns how many win. */
static long ranked_moves(const nim_tree *t, long x, long y, move *m, long *count)
{
    long k = 0, wins = 0;
    for (int pass = 1; pass >= 0; pass--)
        for (long take = 1; take <= x || take <= y; take++)
            for (int heap = 1; heap <= 2; heap++) {
                if (take > (heap == 1 ? x : y))
                    continue;
                int win = nim_tree_loses(t, heap == 1 ? x - take : x, heap == 1 ? y : y - take);
                if (win != pass)
                    continue;
                long ax = heap == 1 ? x - take : x, ay = heap == 1 ? y : y - take;
                m[k++] = (move){heap, take, win, nim_tree_remoteness(t, ax, ay)};
                wins += win;
            }
    for (long i = 1; i < k; i++) /* a stable insertion sort by remoteness */
        for (long j = i; j > 0 && after_in_rank(&m[j - 1], &m[j]); j--) {
            move tmp = m[j];
            m[j] = m[j - 1];
            m[j - 1] = tmp;
        }
    *count = k;
    return wins;
}

/* Check assertions are costly in bulk (each one records where it is), so
 * an answer's checks collect the first mismatch and assert once. */
typedef struct verdict {
    char why[256];
} verdict;

static void expect(verdict *v, int ok, const char *what, long i)
{
    if (!ok && v->why[0] == '\0')
        snprintf(v->why, sizeof v->why, i < 0 ? "%s" : "%s of move %ld", what, i);
}

static int is_int(const json_t *obj, const char *key, long long want)
{
    const json_t *v = json_object_get(obj, key);
    return json_is_integer(v) && json_integer_value(v) == want;
}

static int is_str(const json_t *obj, const char *key, const char *want)
{
    const json_t *v = json_object_get(obj, key);
    return json_is_string(v) && strcmp(json_string_value(v), want) == 0;
}

static int is_bool(const json_t *obj, const char *key, int want)
{
    const json_t *v = json_object_get(obj, key);
    return json_is_boolean(v) && json_is_true(v) == want;
}

/* Check one answer against the tree, entry by entry: the list must be the
 * ranked moves, cut where max_moves says. */
static void check_answer(const nim_tree *t, const request *r, const json_t *a, const char *in)
{
    long x = r->x, y = r->y;
    int shortcut = nim_tree_is_shortcut(t, x, y), lose = nim_tree_loses(t, x, y);
    long max_moves = r->max_moves > 0 ? r->max_moves : ANALYSIS_MAX_MOVES_DEFAULT;
    const char *mover = r->to_move != NULL ? r->to_move : "first";
    const char *other = strcmp(mover, "first") == 0 ? "second" : "first";
    move *m = calloc((size_t)(x + y + 1), sizeof *m);
    ck_assert_ptr_nonnull(m);
    long count = 0, wins = 0;
    if (!shortcut)
        wins = ranked_moves(t, x, y, m, &count);
    long listed = count <= max_moves ? count : max_moves;
    verdict v = {""};
    expect(&v, (wins > 0) == !lose, "the tree contradicts itself", -1);
    expect(&v, json_object_size(a) == 9, "the number of members", -1);
    expect(&v, is_int(a, "remoteness", nim_tree_remoteness(t, x, y)), "remoteness", -1);
    expect(&v, is_str(a, "game", "nim-shortcuts"), "game", -1);
    expect(&v, is_str(a, "to_move", mover), "to_move", -1);
    expect(&v, is_str(a, "value", lose ? "lose" : "win"), "value", -1);
    expect(&v, is_bool(a, "shortcut", shortcut), "shortcut", -1);
    expect(&v, is_int(a, "moves_total", count), "moves_total", -1);
    expect(&v, is_int(a, "winning_moves", wins), "winning_moves", -1);
    expect(&v, is_bool(a, "truncated", listed < count), "truncated", -1);
    const json_t *list = json_object_get(a, "moves");
    expect(&v, json_is_array(list) && (long)json_array_size(list) == listed,
           "the number of moves listed", -1);
    for (long i = 0; i < listed && v.why[0] == '\0'; i++) {
        const json_t *entry = json_array_get(list, (size_t)i);
        const json_t *mv = json_object_get(entry, "move"), *after = json_object_get(entry, "after");
        const json_t *heaps = json_object_get(after, "heaps");
        long ax = x - (m[i].heap == 1 ? m[i].take : 0), ay = y - (m[i].heap == 2 ? m[i].take : 0);
        expect(&v, json_object_size(entry) == 4, "the members", i);
        expect(&v, is_int(entry, "remoteness", m[i].rem), "remoteness", i);
        expect(&v, json_object_size(mv) == 2 && is_int(mv, "heap", m[i].heap),
               "the heap (or the order)", i);
        expect(&v, is_int(mv, "take", m[i].take), "take (or the order)", i);
        expect(&v, is_str(entry, "outcome", m[i].wins ? "win" : "lose"), "outcome", i);
        expect(&v,
               json_object_size(after) == 2 && json_array_size(heaps) == 2 &&
                   json_integer_value(json_array_get(heaps, 0)) == ax &&
                   json_integer_value(json_array_get(heaps, 1)) == ay,
               "after.heaps", i);
        expect(&v, is_str(after, "to_move", other), "after.to_move", i);
    }
    if (!lose && listed > 0)
        expect(&v, is_str(json_array_get(list, 0), "outcome", "win"),
               "the first move of a won position", -1);
    ck_assert_msg(v.why[0] == '\0', "%s: wrong %s", in, v.why);
    free(m);
}

static void check_request(const nim_tree *t, const request *r)
{
    char *in = render(r);
    json_t *a = analyze(in);
    check_answer(t, r, a, in);
    json_decref(a);
    free(in);
}

/* Distinct random shortcuts in [0, side)^2. */
static long random_shortcuts(long *sx, long *sy, long n, long side, uint64_t *rng)
{
    unsigned char *used = calloc((size_t)(side * side), 1);
    ck_assert_ptr_nonnull(used);
    for (long i = 0; i < n; i++) {
        long x, y;
        do {
            x = (long)rng_below(rng, (uint64_t)side);
            y = (long)rng_below(rng, (uint64_t)side);
        } while (used[x * side + y]);
        used[x * side + y] = 1;
        sx[i] = x;
        sy[i] = y;
    }
    free(used);
    return n;
}

/* ---- against the tree ---------------------------------------------------- */

START_TEST(test_tree_by_hand)
{
    /* The oracle on cases checked by hand: plain Nim loses on the diagonal;
     * with a shortcut at (0, 1), (1, 1) wins and (1, 2), (2, 3) lose. */
    nim_tree t;
    ck_assert_int_eq(nim_tree_build(&t, NULL, NULL, 0, 5, 5), 0);
    for (long x = 0; x < 5; x++)
        for (long y = 0; y < 5; y++)
            ck_assert_int_eq(nim_tree_loses(&t, x, y), x == y);
    nim_tree_free(&t);
    long sx[] = {0}, sy[] = {1};
    ck_assert_int_eq(nim_tree_build(&t, sx, sy, 1, 5, 5), 0);
    ck_assert(nim_tree_loses(&t, 0, 0) && nim_tree_loses(&t, 0, 1) &&
              nim_tree_is_shortcut(&t, 0, 1));
    ck_assert(!nim_tree_loses(&t, 1, 1) && nim_tree_loses(&t, 1, 2) && nim_tree_loses(&t, 2, 3));
    ck_assert(!nim_tree_loses(&t, 0, 2) && !nim_tree_loses(&t, 2, 2) &&
              !nim_tree_is_shortcut(&t, 1, 2));
    nim_tree_free(&t);
}
END_TEST

START_TEST(test_random_positions)
{
    /* 3000 shortcut sets on boards of side 1..12 (sparse, dense, on the
     * axes), 12 positions each, some beyond every shortcut; a third of the
     * requests set a small max_moves so that the list is cut. */
    uint64_t rng = 0x616e616c797a65ULL;
    long sx[144], sy[144], positions = 0, cut = 0;
    static const char *const labels[] = {NULL, "first", "second"};
    for (int k = 0; k < 3000; k++) {
        long side = 1 + (long)rng_below(&rng, 12), cells = side * side, n;
        switch (k % 3) {
        case 0:
            n = (long)rng_below(&rng, (uint64_t)(cells < 20 ? cells : 20) + 1);
            break;
        case 1:
            n = cells / 2 + (long)rng_below(&rng, (uint64_t)cells / 2 + 1);
            break;
        default:
            n = 0;
            for (long c = 0; c < 2 * side - 1; c++)
                if (rng_below(&rng, 3) == 0) {
                    sx[n] = c < side ? c : 0;
                    sy[n] = c < side ? 0 : c - side + 1;
                    n++;
                }
            break;
        }
        if (k % 3 != 2)
            random_shortcuts(sx, sy, n, side, &rng);
        nim_tree t;
        long bound = side + 3;
        ck_assert_int_eq(nim_tree_build(&t, sx, sy, n, bound, bound), 0);
        for (int p = 0; p < 12; p++) {
            request r = {n,
                         sx,
                         sy,
                         (long)rng_below(&rng, (uint64_t)bound),
                         (long)rng_below(&rng, (uint64_t)bound),
                         labels[rng_below(&rng, 3)],
                         0};
            if (p % 3 == 0) {
                r.max_moves = 1 + (long)rng_below(&rng, 8);
                cut += r.x + r.y > r.max_moves;
            }
            check_request(&t, &r);
            positions++;
        }
        nim_tree_free(&t);
    }
    ck_assert_int_eq(positions, 36000);
    ck_assert_int_gt(cut, 5000);
}
END_TEST

START_TEST(test_every_position_of_a_board)
{
    /* Every position of a few boards, so that no cell is missed: the board
     * of the API example, a dense one, and one with a shortcut at (0, 0). */
    long ex[] = {3, 0}, ey[] = {0, 1};
    uint64_t rng = 0x65766572ULL;
    for (int k = 0; k < 6; k++) {
        long sx[100], sy[100], n;
        if (k == 0) {
            n = 2;
            memcpy(sx, ex, sizeof ex);
            memcpy(sy, ey, sizeof ey);
        } else {
            n = random_shortcuts(sx, sy, k == 1 ? 60 : 10 * k, 10, &rng);
            if (k == 2) {
                sx[0] = 0;
                sy[0] = 0;
            }
        }
        nim_tree t;
        ck_assert_int_eq(nim_tree_build(&t, sx, sy, n, 13, 13), 0);
        for (long x = 0; x < 13; x++)
            for (long y = 0; y < 13; y++) {
                request r = {n, sx, sy, x, y, NULL, 0};
                check_request(&t, &r);
            }
        nim_tree_free(&t);
    }
}
END_TEST

/* ---- edge cases ---------------------------------------------------------- */

START_TEST(test_no_legal_move)
{
    /* (0, 0): no move, the mover loses; not a shortcut. */
    json_t *a = analyze("{\"shortcuts\": [], \"heaps\": [0, 0]}");
    ck_assert_str_eq(str_member(a, "value"), "lose");
    ck_assert_str_eq(str_member(a, "to_move"), "first");
    ck_assert_int_eq(int_member(a, "moves_total"), 0);
    ck_assert_int_eq(int_member(a, "winning_moves"), 0);
    ck_assert(!bool_member(a, "truncated"));
    ck_assert(!bool_member(a, "shortcut"));
    ck_assert_int_eq(json_array_size(member(a, "moves")), 0);
    json_decref(a);
    /* On a shortcut the game is over: no moves at all, whatever the heaps. */
    a = analyze("{\"shortcuts\": [[1000000000, 7], [0, 0]], \"heaps\": [1000000000, 7], "
                "\"to_move\": \"second\"}");
    ck_assert_str_eq(str_member(a, "value"), "lose");
    ck_assert_str_eq(str_member(a, "to_move"), "second");
    ck_assert_int_eq(int_member(a, "moves_total"), 0);
    ck_assert(bool_member(a, "shortcut"));
    ck_assert(!bool_member(a, "truncated"));
    ck_assert_int_eq(json_array_size(member(a, "moves")), 0);
    json_decref(a);
}
END_TEST

START_TEST(test_api_example)
{
    /* The example request: shortcuts (3, 0) and (0, 1), heaps (2, 5).  The
     * losers of that board are (0, 0), (0, 1), (3, 0), (1, 2), (2, 3),
     * (4, 4)...: from (2, 5) only taking 2 from heap 2 wins. */
    const char *in = GAME->example_analyze;
    ck_assert_ptr_nonnull(in);
    json_t *a = analyze(in);
    ck_assert_str_eq(str_member(a, "value"), "win");
    ck_assert_int_eq(int_member(a, "moves_total"), 7);
    ck_assert_int_eq(int_member(a, "winning_moves"), 1);
    const json_t *first = json_array_get(member(a, "moves"), 0);
    ck_assert_int_eq(int_member(member(first, "move"), "heap"), 2);
    ck_assert_int_eq(int_member(member(first, "move"), "take"), 2);
    json_decref(a);
    long sx[] = {3, 0}, sy[] = {0, 1};
    nim_tree t;
    ck_assert_int_eq(nim_tree_build(&t, sx, sy, 2, 4, 6), 0);
    request r = {2, sx, sy, 2, 5, "first", 100};
    a = analyze(in);
    check_answer(&t, &r, a, in);
    json_decref(a);
    nim_tree_free(&t);
}
END_TEST

START_TEST(test_remoteness_bound)
{
    /* Plain Nim: (k, k) loses in 2k moves (the loser takes one, the winner
     * evens the heaps), (k, k + d) wins in 2k + 1.  (1023, 1023) is the
     * largest square rectangle within ANALYSIS_REMOTENESS_CELLS = 2^20
     * positions; one more column is past it and null, and so is every
     * entry; a shortcut is over at once, remoteness 0, at any size. */
    json_t *a = analyze("{\"shortcuts\": [], \"heaps\": [1023, 1023], \"max_moves\": 3}");
    ck_assert_int_eq(int_member(a, "remoteness"), 2046);
    const json_t *first = json_array_get(member(a, "moves"), 0);
    ck_assert_int_eq(int_member(first, "remoteness"), 2045);
    ck_assert_int_eq(int_member(member(first, "move"), "take"), 1);
    json_decref(a);
    a = analyze("{\"shortcuts\": [], \"heaps\": [1023, 1025], \"max_moves\": 2}");
    ck_assert(json_is_null(member(a, "remoteness")));
    ck_assert(json_is_null(member(json_array_get(member(a, "moves"), 0), "remoteness")));
    json_decref(a);
    a = analyze("{\"shortcuts\": [], \"heaps\": [200, 4000], \"max_moves\": 2}");
    ck_assert_int_eq(int_member(a, "remoteness"), 401);
    first = json_array_get(member(a, "moves"), 0);
    ck_assert_int_eq(int_member(member(first, "move"), "take"), 3800);
    ck_assert_int_eq(int_member(first, "remoteness"), 400);
    json_decref(a);
    a = analyze("{\"shortcuts\": [[1000000000, 1000000000]], \"heaps\": [1000000000, "
                "1000000000]}");
    ck_assert_int_eq(int_member(a, "remoteness"), 0);
    json_decref(a);
}
END_TEST

START_TEST(test_largest_heaps)
{
    /* Plain Nim at the corner: (10^9, 10^9) loses with 2 * 10^9 moves; the
     * first 100 are listed, taking 1, 1, 2, 2, ... stones, all losing. */
    json_t *a = analyze("{\"shortcuts\": [], \"heaps\": [1000000000, 1000000000]}");
    ck_assert_str_eq(str_member(a, "value"), "lose");
    ck_assert_int_eq(int_member(a, "moves_total"), 2 * MAX_COORD);
    ck_assert_int_eq(int_member(a, "winning_moves"), 0);
    ck_assert(bool_member(a, "truncated"));
    ck_assert_int_eq(json_array_size(member(a, "moves")), ANALYSIS_MAX_MOVES_DEFAULT);
    for (size_t i = 0; i < ANALYSIS_MAX_MOVES_DEFAULT; i++) {
        const json_t *e = json_array_get(member(a, "moves"), i);
        ck_assert_str_eq(str_member(e, "outcome"), "lose");
        ck_assert_int_eq(int_member(member(e, "move"), "take"), (long)i / 2 + 1);
        ck_assert_int_eq(int_member(member(e, "move"), "heap"), (long)i % 2 + 1);
    }
    json_decref(a);
    /* (10^9, 0): the one winning move empties heap 1. */
    a = analyze("{\"shortcuts\": [], \"heaps\": [1000000000, 0], \"max_moves\": 10000}");
    ck_assert_str_eq(str_member(a, "value"), "win");
    ck_assert_int_eq(int_member(a, "moves_total"), MAX_COORD);
    ck_assert_int_eq(int_member(a, "winning_moves"), 1);
    ck_assert(bool_member(a, "truncated"));
    const json_t *m = json_array_get(member(a, "moves"), 0);
    ck_assert_int_eq(int_member(member(m, "move"), "heap"), 1);
    ck_assert_int_eq(int_member(member(m, "move"), "take"), MAX_COORD);
    ck_assert_int_eq(json_integer_value(json_array_get(member(member(m, "after"), "heaps"), 0)), 0);
    json_decref(a);
    /* Shortcuts at the corner, at (5, 10^9 - 1) and at (10^9, 3).  The
     * diagonal of plain Nim runs up to row 10^9 - 1, which the shortcut at
     * x = 5 finishes early, so (10^9 - 1, 10^9 - 1) wins and the diagonal
     * resumes one row up: (10^9 - 1, 10^9) is a natural loser.  From
     * (10^9, 10^9 - 1) exactly the two shortcuts win, fewest stones first. */
    const char *sc = "{\"shortcuts\": [[1000000000, 1000000000], [5, 999999999], "
                     "[1000000000, 3]], \"heaps\": ";
    char in[256];
    snprintf(in, sizeof in, "%s[1000000000, 999999999]}", sc);
    a = analyze(in);
    ck_assert_str_eq(str_member(a, "value"), "win");
    ck_assert_int_eq(int_member(a, "winning_moves"), 2);
    const json_t *list = member(a, "moves");
    ck_assert_int_eq(json_array_size(list), ANALYSIS_MAX_MOVES_DEFAULT);
    ck_assert_str_eq(str_member(json_array_get(list, 2), "outcome"), "lose");
    ck_assert_int_eq(int_member(member(json_array_get(list, 0), "move"), "heap"), 1);
    ck_assert_int_eq(int_member(member(json_array_get(list, 0), "move"), "take"), MAX_COORD - 5);
    ck_assert_int_eq(int_member(member(json_array_get(list, 1), "move"), "heap"), 2);
    ck_assert_int_eq(int_member(member(json_array_get(list, 1), "move"), "take"), 999999999 - 3);
    json_decref(a);
    snprintf(in, sizeof in, "%s[999999999, 999999999]}", sc);
    a = analyze(in);
    ck_assert_str_eq(str_member(a, "value"), "win");
    ck_assert_int_eq(int_member(a, "winning_moves"), 1);
    json_decref(a);
    snprintf(in, sizeof in, "%s[999999999, 1000000000]}", sc);
    a = analyze(in);
    ck_assert_str_eq(str_member(a, "value"), "lose");
    ck_assert(!bool_member(a, "shortcut"));
    json_decref(a);
    snprintf(in, sizeof in, "%s[1000000000, 1000000000]}", sc);
    a = analyze(in);
    ck_assert_str_eq(str_member(a, "value"), "lose");
    ck_assert(bool_member(a, "shortcut"));
    json_decref(a);
}
END_TEST

START_TEST(test_max_moves_boundary)
{
    /* Plain Nim, (6000, 4000): 10000 moves, one wins.  With max_moves
     * 10000 all are listed, winner first; with 9999 only the winner. */
    json_t *a = analyze("{\"shortcuts\": [], \"heaps\": [6000, 4000], \"max_moves\": 10000}");
    ck_assert_int_eq(json_array_size(member(a, "moves")), 10000);
    ck_assert(!bool_member(a, "truncated"));
    const json_t *list = member(a, "moves");
    ck_assert_str_eq(str_member(json_array_get(list, 0), "outcome"), "win");
    ck_assert_int_eq(int_member(member(json_array_get(list, 0), "move"), "take"), 2000);
    for (size_t i = 1; i < 10000; i++)
        ck_assert_str_eq(str_member(json_array_get(list, i), "outcome"), "lose");
    json_decref(a);
    /* (6000, 4001): 10001 moves, one wins; the winner and 9999 losers. */
    a = analyze("{\"shortcuts\": [], \"heaps\": [6000, 4001], \"max_moves\": 10000}");
    ck_assert_int_eq(json_array_size(member(a, "moves")), 10000);
    ck_assert(bool_member(a, "truncated"));
    ck_assert_str_eq(str_member(json_array_get(member(a, "moves"), 0), "outcome"), "win");
    ck_assert_str_eq(str_member(json_array_get(member(a, "moves"), 1), "outcome"), "lose");
    json_decref(a);
    /* max_moves 1 keeps only the best of several winning moves. */
    a = analyze("{\"shortcuts\": [[0, 1], [0, 2], [0, 3]], \"heaps\": [0, 9], \"max_moves\": 1}");
    /* (0, 3), (0, 2), (0, 1) and the natural loser (0, 0) */
    ck_assert_int_eq(int_member(a, "winning_moves"), 4);
    ck_assert_int_eq(json_array_size(member(a, "moves")), 1);
    ck_assert_int_eq(int_member(member(json_array_get(member(a, "moves"), 0), "move"), "take"), 6);
    json_decref(a);
}
END_TEST

/* The value of (a, b) from the fast solver (1 = LOSE) for many queries. */
static unsigned char *solver_loses(const long *sx, const long *sy, long n, const long *qa,
                                   const long *qb, long m)
{
    gj_buf b;
    buf_init(&b);
    buf_puts(&b, "{\"shortcuts\": [");
    for (long i = 0; i < n; i++) {
        if (i > 0)
            buf_putc(&b, ',');
        put_point(&b, sx[i], sy[i]);
    }
    buf_puts(&b, "], \"queries\": [");
    for (long q = 0; q < m; q++) {
        if (q > 0)
            buf_putc(&b, ',');
        put_point(&b, qa[q], qb[q]);
    }
    buf_puts(&b, "]}");
    char *in = take(&b);
    gj_error e;
    long limits[GJ_MAX_LIMITS] = {4000000, 4000000};
    char *text = harness_run(GAME, IN_JSON, in, strlen(in), OUT_TEXT, limits, &e);
    ck_assert_msg(text != NULL, "solver: %s", e.message);
    unsigned char *lose = calloc((size_t)m + 1, 1);
    ck_assert_ptr_nonnull(lose);
    const char *p = text;
    for (long q = 0; q < m; q++) {
        lose[q] = strncmp(p, "LOSE\n", 5) == 0;
        p = strchr(p, '\n') + 1;
    }
    free(text);
    free(in);
    return lose;
}

START_TEST(test_near_the_limit_against_the_solver)
{
    /* Shortcuts packed into rows and columns near 10^9 and near 0, heaps
     * near 10^9.  The solver must agree with the value, every listed
     * winning move must reach a position it calls LOSE, every shortcut of
     * the row and column below the heaps must be listed, and no other move
     * to a nearby position the solver calls LOSE may be missing. */
    uint64_t rng = 0x6c696d6974ULL;
    enum { N = 400, NEAR = 600 };
    long sx[N], sy[N];
    for (int k = 0; k < 30; k++) {
        long base = MAX_COORD - 300;
        for (long i = 0; i < N; i++) {
            sx[i] = (rng_below(&rng, 4) != 0 ? base : 0) + (long)rng_below(&rng, 300);
            sy[i] = (rng_below(&rng, 4) != 0 ? base : 0) + (long)rng_below(&rng, 300);
            for (long j = 0; j < i; j++)
                if (sx[j] == sx[i] && sy[j] == sy[i]) {
                    i--;
                    break;
                }
        }
        long x = base + (long)rng_below(&rng, 301), y = base + (long)rng_below(&rng, 301);
        gj_buf b;
        buf_init(&b);
        buf_puts(&b, "{\"shortcuts\": [");
        for (long i = 0; i < N; i++) {
            if (i > 0)
                buf_putc(&b, ',');
            put_point(&b, sx[i], sy[i]);
        }
        buf_puts(&b, "], \"heaps\": ");
        put_point(&b, x, y);
        buf_puts(&b, ", \"max_moves\": 10000}");
        char *in = take(&b);
        json_t *a = analyze(in);
        /* Queries: the position, then the moves within NEAR of either end
         * of its row and column. */
        long qa[1 + 4 * NEAR], qb[1 + 4 * NEAR], m = 0;
        qa[m] = x;
        qb[m++] = y;
        for (long d = 1; d <= NEAR; d++) {
            long to[4][2] = {{x - d, y}, {d - 1, y}, {x, y - d}, {x, d - 1}};
            for (int s = 0; s < 4; s++) {
                qa[m] = to[s][0];
                qb[m++] = to[s][1];
            }
        }
        unsigned char *lose = solver_loses(sx, sy, N, qa, qb, m);
        ck_assert_str_eq(str_member(a, "value"), lose[0] ? "lose" : "win");
        const json_t *list = member(a, "moves");
        long total = (long)int_member(a, "moves_total"),
             wins = (long)int_member(a, "winning_moves");
        ck_assert_int_eq((long)json_array_size(list), total < 10000 ? total : 10000);
        ck_assert(!bool_member(a, "truncated") || total > 10000);
        long in_line = 0;
        for (long i = 0; i < N; i++)
            in_line += (sx[i] == x && sy[i] < y) || (sy[i] == y && sx[i] < x);
        long found_shortcuts = 0, prev_take = 0, prev_heap = 0;
        /* The winning moves come first; the rest of the list loses. */
        for (size_t i = (size_t)wins; i < json_array_size(list); i++)
            ck_assert_str_eq(str_member(json_array_get(list, i), "outcome"), "lose");
        for (size_t i = 0; i < (size_t)wins; i++) {
            const json_t *mv = member(json_array_get(list, i), "move");
            long heap = (long)int_member(mv, "heap"), tk = (long)int_member(mv, "take");
            long ax = heap == 1 ? x - tk : x, ay = heap == 2 ? y - tk : y;
            ck_assert(tk > prev_take || (tk == prev_take && heap > prev_heap));
            prev_take = tk;
            prev_heap = heap;
            for (long j = 0; j < N; j++)
                found_shortcuts += sx[j] == ax && sy[j] == ay;
            unsigned char *one = solver_loses(sx, sy, N, &ax, &ay, 1);
            ck_assert_msg(one[0], "move to (%ld, %ld) listed as winning", ax, ay);
            free(one);
        }
        ck_assert_int_eq(found_shortcuts, in_line);
        ck_assert_int_le(int_member(a, "winning_moves"), in_line + 2);
        for (long q = 1; q < m; q++) {
            if (!lose[q] || qa[q] < 0 || qb[q] < 0)
                continue;
            int listed = 0;
            for (size_t i = 0; i < json_array_size(list); i++) {
                const json_t *after = member(json_array_get(list, i), "after");
                const json_t *h = member(after, "heaps");
                listed |= json_integer_value(json_array_get(h, 0)) == qa[q] &&
                          json_integer_value(json_array_get(h, 1)) == qb[q];
            }
            ck_assert_msg(listed, "the losing (%ld, %ld) is not listed", qa[q], qb[q]);
        }
        free(lose);
        json_decref(a);
        free(in);
    }
}
END_TEST

START_TEST(test_beyond_every_shortcut)
{
    /* With every shortcut below 40, the natural losers beyond are one
     * diagonal (x, x + d), d read off the tree at column 120.  So from
     * (X, Y) near 10^9 the winning moves are exactly: heap 2 to X + d when
     * that is below Y, heap 1 to Y - d when that is below X. */
    uint64_t rng = 0x6469616730ULL;
    long sx[400], sy[400];
    for (int k = 0; k < 60; k++) {
        long n = random_shortcuts(sx, sy, 1 + (long)rng_below(&rng, 400), 40, &rng);
        nim_tree t;
        ck_assert_int_eq(nim_tree_build(&t, sx, sy, n, 121, 300), 0);
        long d = -1000;
        for (long y = 0; y < 300; y++)
            if (nim_tree_loses(&t, 120, y))
                d = y - 120;
        ck_assert_int_gt(d, -1000);
        nim_tree_free(&t);
        for (int p = 0; p < 20; p++) {
            long X = MAX_COORD - (long)rng_below(&rng, 300);
            long Y = X + d + (long)rng_below(&rng, 7) - 3;
            if (Y > MAX_COORD)
                Y = MAX_COORD;
            request r = {n, sx, sy, X, Y, NULL, 0};
            char *in = render(&r);
            json_t *a = analyze(in);
            long wins = (X + d < Y) + (Y - d < X);
            ck_assert_int_eq(int_member(a, "winning_moves"), wins);
            ck_assert_str_eq(str_member(a, "value"), wins ? "win" : "lose");
            ck_assert_int_eq(int_member(a, "moves_total"), X + Y);
            const json_t *list = member(a, "moves");
            ck_assert_int_eq((long)json_array_size(list), ANALYSIS_MAX_MOVES_DEFAULT);
            ck_assert_str_eq(str_member(json_array_get(list, (size_t)wins), "outcome"), "lose");
            for (long i = 0; i < wins; i++) {
                const json_t *mv = member(json_array_get(list, (size_t)i), "move");
                int heap = (int)int_member(mv, "heap");
                ck_assert_int_eq(int_member(mv, "take"), heap == 2 ? Y - (X + d) : X - (Y - d));
            }
            json_decref(a);
            free(in);
        }
    }
}
END_TEST

/* ---- bad requests -------------------------------------------------------- */

static void bad_with(const char *in, const char *field, const char *fragment, const long *limits)
{
    gj_error e;
    json_t *a = analyze_with(in, limits, &e);
    ck_assert_msg(a == NULL, "expected an error for %s", in);
    ck_assert_int_eq(e.kind, GJ_BAD_INPUT);
    ck_assert_msg(strcmp(e.field, field) == 0, "%s: field [%s], expected [%s] (%s)", in, e.field,
                  field, e.message);
    ck_assert_msg(strstr(e.message, fragment) != NULL, "%s: message [%s] lacks [%s]", in, e.message,
                  fragment);
}

static void bad(const char *in, const char *field, const char *fragment)
{
    bad_with(in, field, fragment, NULL);
}

START_TEST(test_bad_json)
{
    bad("", "", "invalid JSON");
    bad("{\"shortcuts\": [], \"heaps\": [1, 2]", "", "invalid JSON");
    bad("[1, 2]", "", "must be an object");
    bad("{\"shortcuts\": [], \"heaps\": [1, 2], \"heaps\": [1, 2]}", "", "invalid JSON");
    bad("{\"heaps\": [1, 2]}", "shortcuts", "missing required field");
    bad("{\"shortcuts\": []}", "heaps", "missing required field");
    bad("{\"shortcuts\": [], \"heaps\": [1, 2], \"queries\": []}", "queries", "unknown field");
}
END_TEST

START_TEST(test_bad_shortcuts)
{
    bad("{\"shortcuts\": {}, \"heaps\": [1, 2]}", "shortcuts", "expected an array");
    bad("{\"shortcuts\": [[1, 2], 3], \"heaps\": [1, 2]}", "shortcuts[1]", "expected an array");
    bad("{\"shortcuts\": [[1, 2, 3]], \"heaps\": [1, 2]}", "shortcuts[0]", "found 3 elements");
    bad("{\"shortcuts\": [[1, -2]], \"heaps\": [1, 2]}", "shortcuts[0][1]",
        "must be between 0 and 1000000000, found -2");
    bad("{\"shortcuts\": [[1000000001, 0]], \"heaps\": [1, 2]}", "shortcuts[0][0]",
        "must be between 0 and 1000000000");
    bad("{\"shortcuts\": [[1, \"2\"]], \"heaps\": [1, 2]}", "shortcuts[0][1]",
        "expected an integer");
    bad("{\"shortcuts\": [[7, 7], [1, 1], [7, 7]], \"heaps\": [1, 2]}", "shortcuts[2]",
        "[7, 7] repeats shortcuts[0]");
    long low[GJ_MAX_LIMITS] = {2, 1};
    bad_with("{\"shortcuts\": [[0, 0], [1, 1], [2, 2]], \"heaps\": [1, 2]}", "shortcuts",
             "expected 0 to 2 elements, found 3", low);
    gj_error e;
    json_t *a = analyze_with("{\"shortcuts\": [[0, 0], [1, 1]], \"heaps\": [1, 2]}", low, &e);
    ck_assert_ptr_nonnull(a);
    json_decref(a);
}
END_TEST

START_TEST(test_bad_heaps)
{
    bad("{\"shortcuts\": [], \"heaps\": 5}", "heaps", "expected an array");
    bad("{\"shortcuts\": [], \"heaps\": []}", "heaps",
        "expected two heaps [x, y], found 0 elements");
    bad("{\"shortcuts\": [], \"heaps\": [1]}", "heaps", "found 1 element");
    bad("{\"shortcuts\": [], \"heaps\": [1, 2, 3]}", "heaps", "found 3 elements");
    bad("{\"shortcuts\": [], \"heaps\": [-1, 2]}", "heaps[0]",
        "must be between 0 and 1000000000, found -1");
    bad("{\"shortcuts\": [], \"heaps\": [1, 1000000001]}", "heaps[1]",
        "must be between 0 and 1000000000, found 1000000001");
    bad("{\"shortcuts\": [], \"heaps\": [1, 2.5]}", "heaps[1]", "expected an integer");
    bad("{\"shortcuts\": [], \"heaps\": [null, 2]}", "heaps[0]", "expected an integer");
}
END_TEST

START_TEST(test_bad_to_move_and_max_moves)
{
    bad("{\"shortcuts\": [], \"heaps\": [1, 2], \"to_move\": 1}", "to_move", "expected a string");
    bad("{\"shortcuts\": [], \"heaps\": [1, 2], \"to_move\": \"third\"}", "to_move",
        "expected \"first\" or \"second\", found \"third\"");
    bad("{\"shortcuts\": [], \"heaps\": [1, 2], \"to_move\": \"First\"}", "to_move",
        "expected \"first\" or \"second\"");
    bad("{\"shortcuts\": [], \"heaps\": [1, 2], \"to_move\": \"\"}", "to_move",
        "expected \"first\" or \"second\"");
    bad("{\"shortcuts\": [], \"heaps\": [1, 2], \"max_moves\": 0}", "max_moves",
        "must be between 1 and 10000, found 0");
    bad("{\"shortcuts\": [], \"heaps\": [1, 2], \"max_moves\": 10001}", "max_moves",
        "must be between 1 and 10000");
    bad("{\"shortcuts\": [], \"heaps\": [1, 2], \"max_moves\": \"5\"}", "max_moves",
        "expected an integer");
}
END_TEST

/* ---- the cache key ------------------------------------------------------- */

/* The key of a solve input, before solving and after (they must agree). */
static gj_buf key_of(const char *in, harness_input how)
{
    long limits[GJ_MAX_LIMITS];
    default_limits(limits);
    gj_error e;
    void *pos = how == IN_TEXT ? GAME->parse_text(in, strlen(in), limits, &e)
                               : GAME->parse_json(in, strlen(in), limits, &e);
    ck_assert_msg(pos != NULL, "%s: %s", in, e.message);
    gj_buf before, after;
    buf_init(&before);
    buf_init(&after);
    GAME->write_key(pos, &before);
    ck_assert_int_eq(GAME->solve(pos, &e), 0);
    GAME->write_key(pos, &after);
    GAME->free_position(pos);
    ck_assert(!before.failed && !after.failed);
    ck_assert_msg(before.len == after.len && memcmp(before.data, after.data, before.len) == 0,
                  "%s: the key changes when solving", in);
    buf_free(&after);
    return before;
}

static int same_key(const gj_buf *a, const gj_buf *b)
{
    return a->len == b->len && memcmp(a->data, b->data, a->len) == 0;
}

START_TEST(test_write_key)
{
    static const char *const text[] = {
        "2 2\n3 0\n0 1\n0 0\n1 1\n",
        "2 2\n0 1\n3 0\n0 0\n1 1\n", /* the shortcuts in another order: the same position */
        "2 2\n3 0\n0 1\n1 1\n0 0\n", /* the queries swapped */
        "2 2\n3 0\n0 2\n0 0\n1 1\n", /* one shortcut moved */
        "1 3\n3 0\n0 1\n0 0\n1 1\n", /* the same numbers, another split */
        "2 1\n3 0\n0 1\n0 0\n",      /* one query fewer */
        "3 2\n3 0\n0 1\n5 5\n0 0\n1 1\n",
        "0 1\n0 0\n",
        "1 1\n0 0\n0 0\n",
        "0 2\n0 0\n0 0\n",
        "1 1\n1000000000 1000000000\n1000000000 999999999\n",
        "1 1\n1000000000 999999999\n1000000000 1000000000\n",
    };
    static const char *const json[] = {
        "{\"shortcuts\": [[3,0],[0,1]], \"queries\": [[0,0],[1,1]]}",
        "{\"shortcuts\": [[0,1],[3,0]], \"queries\": [[0,0],[1,1]]}",
        "{\"shortcuts\": [[3,0],[0,1]], \"queries\": [[1,1],[0,0]]}",
        "{\"shortcuts\": [[3,0],[0,2]], \"queries\": [[0,0],[1,1]]}",
        "{\"shortcuts\": [[3,0]], \"queries\": [[0,1],[0,0],[1,1]]}",
        "{\"shortcuts\": [[3,0],[0,1]], \"queries\": [[0,0]]}",
        "{\"shortcuts\": [[3,0],[0,1],[5,5]], \"queries\": [[0,0],[1,1]]}",
        "{\"shortcuts\": [], \"queries\": [[0,0]]}",
        "{\"shortcuts\": [[0,0]], \"queries\": [[0,0]]}",
        "{\"shortcuts\": [], \"queries\": [[0,0],[0,0]]}",
        "{\"shortcuts\": [[1000000000,1000000000]], \"queries\": [[1000000000,999999999]]}",
        "{\"shortcuts\": [[1000000000,999999999]], \"queries\": [[1000000000,1000000000]]}",
    };
    enum { K = sizeof text / sizeof *text };
    gj_buf key[K];
    for (int i = 0; i < K; i++) {
        key[i] = key_of(text[i], IN_TEXT);
        gj_buf other = key_of(json[i], IN_JSON);
        ck_assert_msg(same_key(&key[i], &other), "text and JSON keys differ for %s", json[i]);
        buf_free(&other);
    }
    for (int i = 0; i < K; i++)
        for (int j = i + 1; j < K; j++) {
            int want_same = i == 0 && j == 1;
            ck_assert_msg(same_key(&key[i], &key[j]) == want_same, "keys of %s and %s %s", json[i],
                          json[j], want_same ? "differ" : "are equal");
        }
    for (int i = 0; i < K; i++)
        buf_free(&key[i]);
}
END_TEST

/* ---- the parsed position against the JSON path --------------------------- */

/* The bytes of v written compact (object members in their order), without
 * the braces when `inner`. */
static char *dump_inner(const json_t *v, size_t flags, int inner)
{
    char *text = json_dumps(v, JSON_COMPACT | flags);
    ck_assert_ptr_nonnull(text);
    if (inner) {
        size_t len = strlen(text);
        memmove(text, text + 1, len - 2);
        text[len - 2] = '\0';
    }
    return text;
}

/* out's bytes against want, with what was compared in the message. */
static void same_bytes(const gj_buf *out, const char *want, const char *what, const char *in)
{
    ck_assert_msg(!out->failed, "%s: out of memory", what);
    ck_assert_msg(out->len == strlen(want) && memcmp(out->data, want, out->len) == 0,
                  "%s of %s:\n  parsed %.*s\n  JSON   %s", what, in, (int)out->len, out->data,
                  want);
}

/* analyze() of `req` written compact, max_moves set to max (0: as it is):
 * the answer's text, which must be JSON. */
static char *analyze_text(const json_t *req, long max)
{
    json_t *copy = json_copy((json_t *)req);
    if (max > 0)
        json_object_set_new(copy, "max_moves", json_integer(max));
    char *in = dump_inner(copy, 0, 0);
    json_decref(copy);
    long limits[GJ_MAX_LIMITS];
    default_limits(limits);
    gj_buf out;
    gj_error e;
    buf_init(&out);
    ck_assert_msg(GAME->analyze(in, strlen(in), limits, &out, &e) == 0, "%s: %s", in, e.message);
    free(in);
    return take(&out);
}

/* Moves that name no legal move of the position with heaps x, y. */
static void check_not_found(void *p, long x, long y)
{
    char text[8][64];
    snprintf(text[0], sizeof text[0], "{\"heap\":1,\"take\":%ld}", x + 1);
    snprintf(text[1], sizeof text[1], "{\"heap\":2,\"take\":%ld}", y + 1);
    snprintf(text[2], sizeof text[2], "{\"heap\":3,\"take\":1}");
    snprintf(text[3], sizeof text[3], "{\"heap\":1,\"take\":0}");
    snprintf(text[4], sizeof text[4], "{\"heap\":1,\"take\":1,\"x\":0}");
    snprintf(text[5], sizeof text[5], "{\"heap\":1.0,\"take\":1}");
    snprintf(text[6], sizeof text[6], "{\"take\":1}");
    snprintf(text[7], sizeof text[7], "[1,1]");
    for (int k = 0; k < 8; k++) {
        json_t *move = json_loads(text[k], 0, NULL);
        gj_move m = {0, 0, 0, 0};
        gj_error e;
        ck_assert_ptr_nonnull(move);
        ck_assert_msg(nim_shortcuts_play.find(p, move, &m, &e) == 0, "found %s at (%ld, %ld)",
                      text[k], x, y);
        json_decref(move);
    }
}

/* rank(max) of p against analyze()'s answer to req with max_moves = max:
 * the head, and per entry its id (find on its move), outcome, remoteness,
 * and write_move's bytes with the diff and with the whole after (after.c's
 * writer).  The entries are left in moves. */
static long check_rank(void *p, const json_t *req, long max, gj_move *moves, const char *in)
{
    char *text = analyze_text(req, max);
    json_t *a = json_loads(text, 0, NULL);
    ck_assert_ptr_nonnull(a);
    const json_t *list = member(a, "moves");
    gj_rank_head head;
    gj_error e;
    long n = nim_shortcuts_play.rank(p, max, moves, &head, &e);
    ck_assert_msg(n == (long)json_array_size(list), "rank(%ld) gave %ld of %zu moves on %s", max, n,
                  json_array_size(list), in);
    ck_assert_int_eq(head.value, strcmp(str_member(a, "value"), "win") == 0);
    const json_t *rem = member(a, "remoteness");
    ck_assert_int_eq(head.remoteness,
                     json_is_null(rem) ? ANALYSIS_REMOTENESS_NULL : json_integer_value(rem));
    ck_assert_int_eq(head.moves_total, int_member(a, "moves_total"));
    ck_assert_int_eq(head.winning_moves, int_member(a, "winning_moves"));
    gj_move first;
    ck_assert_int_eq(nim_shortcuts_play.rank(p, 1, &first, NULL, &e), n > 0);
    if (n > 0)
        ck_assert(first.id == moves[0].id && first.wins == moves[0].wins &&
                  first.remoteness == moves[0].remoteness);
    after_writer w;
    after_init(&w, GAME, 1);
    for (long i = 0; i < n; i++) {
        const json_t *entry = json_array_get(list, (size_t)i);
        gj_move found = {0, 0, 0, 0};
        ck_assert_int_eq(nim_shortcuts_play.find(p, member(entry, "move"), &found, &e), 1);
        ck_assert_msg(found.id == moves[i].id, "find and rank disagree on entry %ld of %s", i, in);
        ck_assert_int_eq(moves[i].wins, strcmp(str_member(entry, "outcome"), "win") == 0);
        ck_assert_int_eq(moves[i].score, 0);
        rem = member(entry, "remoteness");
        ck_assert_int_eq(moves[i].remoteness,
                         json_is_null(rem) ? ANALYSIS_REMOTENESS_NULL : json_integer_value(rem));
        gj_buf out, whole;
        size_t bytes = 1, before = w.bytes;
        buf_init(&out);
        buf_init(&whole);
        ck_assert_int_eq(nim_shortcuts_play.write_move(p, &found, 0, &out, &bytes, &e), 0);
        ck_assert_int_eq(bytes, 0);
        char *diff = dump_inner(entry, 0, 1);
        same_bytes(&out, diff, "an entry", in);
        free(diff);
        out.len = 0;
        ck_assert_int_eq(nim_shortcuts_play.write_move(p, &moves[i], 1, &out, &bytes, &e), 0);
        ck_assert_int_eq(after_put_members(&w, req, entry, &whole, &e), 0);
        buf_putc(&whole, '\0');
        same_bytes(&out, whole.data, "a whole entry", in);
        ck_assert_int_eq(bytes, w.bytes - before);
        buf_free(&out);
        buf_free(&whole);
    }
    after_free(&w);
    json_decref(a);
    free(text);
    return n;
}

/* write_members of p against req (moved = 0) and, after a move, against
 * the move's diff (moved = 1). */
static void check_members(void *p, const json_t *req, const json_t *diff, const char *in)
{
    json_t *copy = json_copy((json_t *)req);
    json_object_del(copy, "max_moves");
    char *want = dump_inner(copy, 0, 1);
    json_decref(copy);
    gj_buf out;
    buf_init(&out);
    nim_shortcuts_play.write_members(p, 0, &out);
    same_bytes(&out, want, "the members", in);
    free(want);
    if (diff != NULL) {
        want = dump_inner(diff, JSON_SORT_KEYS, 1);
        out.len = 0;
        nim_shortcuts_play.write_members(p, 1, &out);
        same_bytes(&out, want, "the moved members", in);
        free(want);
    }
    buf_free(&out);
}

/* A random request: its members in a random order, "to_move" and
 * "max_moves" there or not; heaps up to `reach` (past the remoteness
 * bound when large), shortcuts in [0, side)^2. */
static json_t *random_request(long side, long reach, uint64_t *rng)
{
    long sx[64], sy[64];
    long n = (long)rng_below(rng, (uint64_t)(side * side < 40 ? side * side + 1 : 41));
    random_shortcuts(sx, sy, n, side, rng);
    json_t *shortcuts = json_array(), *heaps = json_array();
    for (long i = 0; i < n; i++)
        json_array_append_new(shortcuts, json_pack("[II]", (json_int_t)sx[i], (json_int_t)sy[i]));
    json_array_append_new(heaps, json_integer((json_int_t)rng_below(rng, (uint64_t)reach + 1)));
    json_array_append_new(heaps, json_integer((json_int_t)rng_below(rng, (uint64_t)reach + 1)));
    json_t *member_value[4] = {shortcuts, heaps, NULL, NULL};
    static const char *const names[4] = {"shortcuts", "heaps", "to_move", "max_moves"};
    if (rng_below(rng, 3) > 0)
        member_value[2] = json_string(rng_below(rng, 2) ? "second" : "first");
    if (rng_below(rng, 2))
        member_value[3] = json_integer(1 + (json_int_t)rng_below(rng, 12));
    int order[4] = {0, 1, 2, 3};
    for (int i = 3; i > 0; i--) {
        int j = (int)rng_below(rng, (uint64_t)i + 1), t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    json_t *req = json_object();
    for (int i = 0; i < 4; i++)
        if (member_value[order[i]] != NULL)
            json_object_set_new(req, names[order[i]], member_value[order[i]]);
    return req;
}

START_TEST(test_parsed_against_json)
{
    /* 600 random games on both paths, a random listed move played each
     * turn, so the parsed position and the JSON request (played on by
     * play_move, as the line did) must describe the same position at every
     * turn: analyze()'s bytes, rank for several max, find, write_move both
     * ways, write_members, and a clone played on without touching it.  One
     * game in ten has heaps up to 10^6 (remoteness past the bound at
     * first, known once the heaps shrink under it). */
    uint64_t rng = 0x7061727365ULL;
    long limits[GJ_MAX_LIMITS], positions = 0;
    default_limits(limits);
    gj_move moves[100];
    for (int game = 0; game < 600; game++) {
        long side = 1 + (long)rng_below(&rng, 8);
        long reach = rng_below(&rng, 10) == 0 ? 1000000 : 2 + (long)rng_below(&rng, 30);
        json_t *req = random_request(side, reach, &rng), *diff = NULL;
        gj_error e;
        void *p = nim_shortcuts_play.parse(req, limits, &e);
        ck_assert_msg(p != NULL, "%s", e.message);
        for (int turn = 0; turn < 40; turn++, positions++) {
            char *in = dump_inner(req, 0, 0);
            char *want = analyze_text(req, 0);
            gj_buf out;
            buf_init(&out);
            ck_assert_int_eq(nim_shortcuts_play.analyze(p, &out, &e), 0);
            same_bytes(&out, want, "analyze", in);
            check_members(p, req, diff, in);
            long x = (long)json_integer_value(json_array_get(json_object_get(req, "heaps"), 0));
            long y = (long)json_integer_value(json_array_get(json_object_get(req, "heaps"), 1));
            check_not_found(p, x, y);
            long n = 0;
            for (long max = 1; max <= 100; max *= 10)
                n = check_rank(p, req, max, moves, in);
            if (n == 0) { /* over: nothing is found */
                json_t *m = json_pack("{s:i,s:i}", "heap", 1, "take", 1);
                ck_assert_int_eq(nim_shortcuts_play.find(p, m, &moves[0], &e), 0);
                json_decref(m);
                buf_free(&out);
                free(want);
                free(in);
                break;
            }
            long pick = (long)rng_below(&rng, (uint64_t)n);
            /* A clone plays on its own; the position stays as it was. */
            void *c = nim_shortcuts_play.clone(p, &e);
            ck_assert_ptr_nonnull(c);
            ck_assert_int_eq(nim_shortcuts_play.play(c, &moves[(pick + 1) % n], &e), 0);
            out.len = 0;
            ck_assert_int_eq(nim_shortcuts_play.analyze(p, &out, &e), 0);
            same_bytes(&out, want, "analyze after a clone's move", in);
            nim_shortcuts_play.free(c);
            /* The same move on both paths. */
            char *listed = analyze_text(req, 100);
            json_t *a = json_loads(listed, 0, NULL), *entry;
            free(listed);
            ck_assert_ptr_nonnull(a);
            ck_assert_int_eq(nim_shortcuts_play.rank(p, pick + 1, moves, NULL, &e), pick + 1);
            entry = json_array_get(json_object_get(a, "moves"), (size_t)pick);
            ck_assert_ptr_nonnull(entry);
            ck_assert_int_eq(GAME->play_move(req, entry, &e), 0);
            ck_assert_int_eq(nim_shortcuts_play.play(p, &moves[pick], &e), 0);
            json_decref(diff);
            diff = json_incref(json_object_get(entry, "after"));
            json_decref(a);
            buf_free(&out);
            free(want);
            free(in);
        }
        json_decref(diff);
        json_decref(req);
        nim_shortcuts_play.free(p);
    }
    ck_assert_int_gt(positions, 3000);
}
END_TEST

/* ---- runner -------------------------------------------------------------- */

/* One Check test case per test, so a timeout or a crash names its test. */
static Suite *nim_shortcuts_analysis_suite(void)
{
    const harness_case slow[] = {
        {"against the tree", test_tree_by_hand},
        {"against the tree", test_random_positions},
        {"against the tree", test_every_position_of_a_board},
        {"edge cases", test_no_legal_move},
        {"edge cases", test_api_example},
        {"edge cases", test_largest_heaps},
        {"edge cases", test_remoteness_bound},
        {"edge cases", test_max_moves_boundary},
    };
    const harness_case quick[] = {
        {"bad requests", test_bad_json},  {"bad requests", test_bad_shortcuts},
        {"bad requests", test_bad_heaps}, {"bad requests", test_bad_to_move_and_max_moves},
        {"cache key", test_write_key},
    };
    Suite *s = harness_suite("nim-shortcuts analysis", slow, sizeof slow / sizeof slow[0], 300);
    harness_add(s, quick, sizeof quick / sizeof quick[0], 0);
    const harness_case large[] = {
        {"edge cases", test_beyond_every_shortcut},
        {"edge cases", test_near_the_limit_against_the_solver},
        {"parsed position", test_parsed_against_json},
    };
    harness_add_tagged(s, large, sizeof large / sizeof large[0], 300, HARNESS_LARGE);
    return s;
}

int main(void)
{
    return harness_main(nim_shortcuts_analysis_suite());
}
