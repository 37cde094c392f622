/* test_prime_chocolate_analysis.c - unit tests of POST /analyze/prime-chocolate.
 *
 * Small positions (side 1..6, at most 16 squares of chocolate, random primes
 * already used, either player to move) are judged by the game-tree oracle,
 * which plays the rules and knows nothing of parity: the value, every move's
 * outcome, the counts, and the whole list (winners, then losers, each in
 * row-major order of the top-left cell with larger squares first, cut at
 * max_moves) must be exactly what the oracle's moves give.
 *
 * Medium positions (side 7..14, dense, big full squares) are out of the
 * oracle's reach; there a slow reference, written here, decides every move
 * by re-solving the position after it with the parity rule (which the
 * oracle has just confirmed on small boards) and plain scans: no bounding
 * boxes, no partner shortcut.  Then edge cases, the largest bar, every bad
 * request with its exact field, and the cache key (write_key). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "after.h"
#include "analysis.h"
#include "buf.h"
#include "games.h"
#include "harness.h"
#include "prime_chocolate_oracle.h"

#define GAME    (&game_prime_chocolate)
#define MAX_N   14
#define MAX_MVS 4096

/* ---- positions, requests and answers ---------------------------------- */

typedef struct spot {
    int n;
    unsigned char cell[MAX_N * MAX_N];
    unsigned char used[MAX_N + 1]; /* used[p]: prime p already chosen */
    int dia;                       /* DIA to move (a label only) */
} spot;

typedef struct mv {
    int row, col, size, win;
    int rem; /* the remoteness after it; -1: not known (null expected) */
} mv;

static long chocolate(const spot *s)
{
    long c = 0;
    for (int k = 0; k < s->n * s->n; k++)
        c += s->cell[k];
    return c;
}

/* The request body; max_moves <= 0 leaves it out. */
static char *request(const spot *s, long max_moves)
{
    gj_buf b;
    buf_init(&b);
    buf_puts(&b, "{\"grid\": [");
    for (int i = 0; i < s->n; i++) {
        buf_puts(&b, i ? ", \"" : "\"");
        for (int j = 0; j < s->n; j++)
            buf_putc(&b, s->cell[i * s->n + j] ? '-' : 'X');
        buf_putc(&b, '"');
    }
    buf_puts(&b, "], \"primes_used\": [");
    int first = 1;
    for (int p = s->n; p >= 2; p--) /* any order is accepted: descending here */
        if (s->used[p]) {
            if (!first)
                buf_puts(&b, ", ");
            buf_put_long(&b, p);
            first = 0;
        }
    buf_puts(&b, s->dia ? "], \"to_move\": \"DIA\"" : "], \"to_move\": \"RUBY\"");
    if (max_moves > 0) {
        buf_puts(&b, ", \"max_moves\": ");
        buf_put_long(&b, max_moves);
    }
    buf_puts(&b, "}");
    buf_putc(&b, '\0');
    ck_assert(!b.failed);
    return buf_take(&b, NULL);
}

static json_t *run_body(const char *body, const long *limits)
{
    long defaults[GJ_MAX_LIMITS] = {0};
    for (int i = 0; i < GAME->nlimits; i++)
        defaults[i] = GAME->limits[i].def;
    gj_buf out;
    gj_error e;
    buf_init(&out);
    gj_error_clear(&e);
    int rc = GAME->analyze(body, strlen(body), limits ? limits : defaults, &out, &e);
    ck_assert_msg(rc == 0, "analyze failed: %s\nbody: %.300s", e.message, body);
    ck_assert(!out.failed);
    json_error_t jerr;
    json_t *root = json_loadb(out.data, out.len, 0, &jerr);
    ck_assert_msg(root != NULL, "answer is not JSON: %s", jerr.text);
    buf_free(&out);
    return root;
}

static json_t *run(const spot *s, long max_moves)
{
    char *body = request(s, max_moves);
    json_t *root = run_body(body, NULL);
    free(body);
    return root;
}

static long get_long(const json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    ck_assert_msg(json_is_integer(v), "%s is not an integer", key);
    return (long)json_integer_value(v);
}

static const char *get_str(const json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    ck_assert_msg(json_is_string(v), "%s is not a string", key);
    return json_string_value(v);
}

/* Documented order: winners first; with remoteness known (rem >= 0) the
 * faster win, the slower loss; then row-major top-left, larger first. */
static int before(const mv *a, const mv *b)
{
    if (a->win != b->win)
        return a->win > b->win;
    if (a->rem != b->rem)
        return a->win ? a->rem < b->rem : a->rem > b->rem;
    if (a->row != b->row)
        return a->row < b->row;
    if (a->col != b->col)
        return a->col < b->col;
    return a->size > b->size;
}

static int cmp_mv(const void *x, const void *y)
{
    const mv *a = x, *b = y;
    return before(a, b) ? -1 : before(b, a) ? 1 : 0;
}

typedef struct truth {
    int value;
    int remoteness; /* -1: not known (null expected) */
    long total, wins;
    mv moves[MAX_MVS]; /* in the documented order */
} truth;

/* A truth without remoteness, an answer with it: every entry a legal move
 * with the truth's outcome, the list in the documented order by the
 * entries' own remoteness, the value's remoteness the best entry's + 1. */
static void check_by_own_remoteness(const spot *s, const truth *t, json_t *root, long max_moves,
                                    const char *ctx)
{
    long cap = max_moves > 0 ? max_moves : ANALYSIS_MAX_MOVES_DEFAULT;
    long want = t->total < cap ? t->total : cap;
    json_t *list = json_object_get(root, "moves");
    ck_assert_msg((long)json_array_size(list) == want, "%s: %zu listed", ctx,
                  json_array_size(list));
    mv prev = {0, 0, 0, 0, 0};
    for (long k = 0; k < want; k++) {
        json_t *entry = json_array_get(list, (size_t)k), *move = json_object_get(entry, "move");
        mv got = {(int)get_long(move, "row") - 1, (int)get_long(move, "col") - 1,
                  (int)get_long(move, "size"), strcmp(get_str(entry, "outcome"), "win") == 0,
                  (int)get_long(entry, "remoteness")};
        long i = 0;
        while (i < t->total && (t->moves[i].row != got.row || t->moves[i].col != got.col ||
                                t->moves[i].size != got.size))
            i++;
        ck_assert_msg(i < t->total && t->moves[i].win == got.win, "%s: entry %ld", ctx, k);
        if (k == 0)
            ck_assert_int_eq(get_long(root, "remoteness"), got.rem + 1);
        else
            ck_assert_msg(before(&prev, &got), "%s: entry %ld out of order", ctx, k);
        prev = got;
    }
    (void)s;
}

/* Check an answer against the truth: every field, the whole list. */
static void check_answer(const spot *s, const truth *t, json_t *root, long max_moves,
                         const char *what)
{
    char ctx[200];
    snprintf(ctx, sizeof ctx, "%s (side %d, %ld squares)", what, s->n, chocolate(s));
    ck_assert_str_eq(get_str(root, "game"), "prime-chocolate");
    ck_assert_str_eq(get_str(root, "to_move"), s->dia ? "DIA" : "RUBY");
    ck_assert_msg(strcmp(get_str(root, "value"), t->value ? "win" : "lose") == 0, "%s: value", ctx);
    ck_assert_msg(get_long(root, "moves_total") == t->total, "%s: moves_total %ld, want %ld", ctx,
                  get_long(root, "moves_total"), t->total);
    ck_assert_msg(get_long(root, "winning_moves") == t->wins, "%s: winning_moves %ld, want %ld",
                  ctx, get_long(root, "winning_moves"), t->wins);
    json_t *far = json_object_get(root, "remoteness");
    if (t->remoteness == -2 && json_is_integer(far)) {
        check_by_own_remoteness(s, t, root, max_moves, ctx);
        return;
    }
    ck_assert_msg(t->remoteness < 0
                      ? json_is_null(far)
                      : json_is_integer(far) && json_integer_value(far) == t->remoteness,
                  "%s: remoteness, want %d", ctx, t->remoteness);
    long cap = max_moves > 0 ? max_moves : ANALYSIS_MAX_MOVES_DEFAULT;
    long want = t->total < cap ? t->total : cap;
    json_t *list = json_object_get(root, "moves");
    ck_assert(json_is_array(list));
    ck_assert_msg((long)json_array_size(list) == want, "%s: %zu listed, want %ld", ctx,
                  json_array_size(list), want);
    ck_assert(json_is_boolean(json_object_get(root, "truncated")));
    ck_assert_int_eq(json_is_true(json_object_get(root, "truncated")), want < t->total);
    long left = chocolate(s);
    for (long k = 0; k < want; k++) {
        json_t *entry = json_array_get(list, (size_t)k);
        json_t *move = json_object_get(entry, "move"), *after = json_object_get(entry, "after");
        ck_assert(json_is_object(move) && json_is_object(after));
        const mv *m = &t->moves[k];
        ck_assert_msg(get_long(move, "row") == m->row + 1 && get_long(move, "col") == m->col + 1 &&
                          get_long(move, "size") == m->size,
                      "%s: entry %ld is (%ld,%ld,%ld), want (%d,%d,%d)", ctx, k,
                      get_long(move, "row"), get_long(move, "col"), get_long(move, "size"),
                      m->row + 1, m->col + 1, m->size);
        ck_assert_msg(strcmp(get_str(entry, "outcome"), m->win ? "win" : "lose") == 0,
                      "%s: entry %ld outcome", ctx, k);
        json_t *far = json_object_get(entry, "remoteness");
        ck_assert_msg(m->rem < 0 ? json_is_null(far)
                                 : json_is_integer(far) && json_integer_value(far) == m->rem,
                      "%s: entry %ld remoteness, want %d", ctx, k, m->rem);
        ck_assert_int_eq(get_long(after, "chocolate_left"), left - (long)m->size * m->size);
        ck_assert_str_eq(get_str(after, "to_move"), s->dia ? "RUBY" : "DIA");
        json_t *primes = json_object_get(after, "primes_used");
        ck_assert(json_is_array(primes));
        size_t at = 0;
        for (int p = 2; p <= s->n; p++)
            if (s->used[p] || p == m->size) {
                ck_assert_int_eq(json_integer_value(json_array_get(primes, at)), p);
                at++;
            }
        ck_assert_int_eq(json_array_size(primes), at);
    }
}

/* ---- the oracle's truth ------------------------------------------------ */

/* The oracle's answer for s into t, with its remoteness when `far` (the
 * full search costs several times the outcome's, so the larger boards
 * ask for it on a share of the positions; without it t->remoteness is -2
 * and check_answer checks the answer's remoteness for consistency). */
static int oracle_truth(const spot *s, truth *t, int far_too)
{
    static pc_oracle_move om[MAX_MVS];
    int count;
    int far = -2;
    int v = far_too ? prime_chocolate_oracle_far(s->n, s->cell, s->used, om, MAX_MVS, &count, &far)
                    : prime_chocolate_oracle_mid(s->n, s->cell, s->used, om, MAX_MVS, &count);
    ck_assert_int_ge(v, 0);
    ck_assert_int_le(count, MAX_MVS);
    t->value = v;
    t->remoteness = far;
    t->total = count;
    t->wins = 0;
    for (int k = 0; k < count; k++) {
        t->moves[k] =
            (mv){om[k].row, om[k].col, om[k].size, !om[k].opponent_wins, om[k].remoteness};
        t->wins += t->moves[k].win;
    }
    qsort(t->moves, (size_t)count, sizeof t->moves[0], cmp_mv);
    return v;
}

/* Drop random chocolate until at most `cap` squares are left. */
static void thin_out(spot *s, int cap, uint64_t *rng)
{
    long count = chocolate(s);
    while (count > cap) {
        int c = (int)rng_below(rng, (uint64_t)(s->n * s->n));
        if (s->cell[c]) {
            s->cell[c] = 0;
            count--;
        }
    }
}

/* Uniform at a random density, or a few full squares and loose cells so big
 * moves and 2 x 2 blocks stay in play; random primes used, either mover. */
static void random_spot(spot *s, int n, int cap, uint64_t *rng)
{
    memset(s, 0, sizeof *s);
    s->n = n;
    if (n >= 3 && rng_below(rng, 2) == 0) {
        int squares = 1 + (int)rng_below(rng, 3);
        for (int q = 0; q < squares; q++) {
            int side = 2 + (int)rng_below(rng, (uint64_t)(n - 1 < 4 ? n - 1 : 4));
            int top = (int)rng_below(rng, (uint64_t)(n - side + 1));
            int left = (int)rng_below(rng, (uint64_t)(n - side + 1));
            for (int i = top; i < top + side; i++)
                for (int j = left; j < left + side; j++)
                    s->cell[i * n + j] = 1;
        }
        int loose = (int)rng_below(rng, 6);
        for (int k = 0; k < loose; k++)
            s->cell[rng_below(rng, (uint64_t)(n * n))] = 1;
    } else {
        uint64_t density = 1 + rng_below(rng, 100);
        for (int c = 0; c < n * n; c++)
            s->cell[c] = rng_below(rng, 100) < density;
    }
    thin_out(s, cap, rng);
    for (int p = 2; p <= n; p++)
        s->used[p] = prime_chocolate_oracle_is_prime(p) && rng_below(rng, 3) == 0;
    s->dia = (int)rng_below(rng, 2);
}

/* A max_moves: mostly room for everything, sometimes a cut. */
static long random_cap(uint64_t *rng)
{
    switch (rng_below(rng, 4)) {
    case 0:
        return 1 + (long)rng_below(rng, 6);
    case 1:
        return 0; /* the default */
    default:
        return ANALYSIS_MAX_MOVES_LIMIT;
    }
}

/* `count` random positions of sides lo..hi with at most `cap` squares,
 * each checked against the oracle, its remoteness on every far_every-th;
 * returns how many the mover wins. */
static long check_oracle_positions(uint64_t seed, long count, int lo, int hi, int cap,
                                   long far_every)
{
    static truth t;
    uint64_t rng = seed;
    long won = 0;
    for (long k = 0; k < count; k++) {
        spot s;
        int n = lo + (int)rng_below(&rng, (uint64_t)(hi - lo + 1));
        random_spot(&s, n, cap, &rng);
        won += oracle_truth(&s, &t, k % far_every == 0);
        long max_moves = random_cap(&rng);
        json_t *root = run(&s, max_moves);
        check_answer(&s, &t, root, max_moves, "oracle position");
        json_decref(root);
    }
    return won;
}

START_TEST(test_oracle_small)
{
    long won = check_oracle_positions(0xc0c0a001u, 3000, 1, 4, 16, 1);
    ck_assert(won > 300 && won < 2700); /* both values well represented */
}
END_TEST

START_TEST(test_oracle_rich)
{
    long won = check_oracle_positions(0xc0c0a002u, 1500, 5, 6, 16, 4);
    ck_assert(won > 150 && won < 1350);
    check_oracle_positions(0xc0c0a003u, 40, 5, 6, 20, 8);
}
END_TEST

/* Every board up to 3 x 3 with every set of primes used. */
START_TEST(test_oracle_every_small_board)
{
    static truth t;
    long boards = 0;
    for (int n = 1; n <= 3; n++)
        for (unsigned mask = 0; mask < 1u << (n * n); mask++)
            for (unsigned primes = 0; primes < 4; primes++) {
                spot s = {0};
                s.n = n;
                for (int c = 0; c < n * n; c++)
                    s.cell[c] = (mask >> c) & 1u;
                if ((primes & 1u) && n >= 2)
                    s.used[2] = 1;
                if ((primes & 2u) && n >= 3)
                    s.used[3] = 1;
                s.dia = (int)(mask & 1u);
                oracle_truth(&s, &t, 1);
                json_t *root = run(&s, ANALYSIS_MAX_MOVES_LIMIT);
                check_answer(&s, &t, root, ANALYSIS_MAX_MOVES_LIMIT, "every small board");
                json_decref(root);
                boards++;
            }
    ck_assert_int_eq(boards, 4 * (2 + 16 + 512));
}
END_TEST

/* ---- the slow reference for medium boards ------------------------------- */

static int full(const spot *s, int r, int c, int side)
{
    if (r + side > s->n || c + side > s->n)
        return 0;
    for (int i = r; i < r + side; i++)
        for (int j = c; j < c + side; j++)
            if (!s->cell[i * s->n + j])
                return 0;
    return 1;
}

static int any_block(const spot *s)
{
    for (int r = 0; r + 1 < s->n; r++)
        for (int c = 0; c + 1 < s->n; c++)
            if (full(s, r, c, 2))
                return 1;
    return 0;
}

static void eat(spot *s, int r, int c, int side, int value)
{
    for (int i = r; i < r + side; i++)
        for (int j = c; j < c + side; j++)
            s->cell[i * s->n + j] = (unsigned char)value;
}

static int side_free(const spot *s, int side)
{
    return side == 1 || (prime_chocolate_oracle_is_prime(side) && !s->used[side]);
}

/* The parity rule, by plain scans (see the file's opening comment). */
static int slow_value(spot *s)
{
    long c = chocolate(s);
    if (s->used[2] || s->n < 2)
        return c % 2 == 1;
    if (c % 2 == 0)
        return any_block(s);
    for (int side = 1; side <= s->n; side += 2) {
        if (!side_free(s, side))
            continue;
        for (int r = 0; r < s->n; r++)
            for (int q = 0; q < s->n; q++) {
                if (!full(s, r, q, side))
                    continue;
                eat(s, r, q, side, 0);
                int clears = !any_block(s);
                eat(s, r, q, side, 1);
                if (clears)
                    return 1;
            }
    }
    return 0;
}

static void slow_truth(spot *s, truth *t)
{
    t->total = t->wins = 0;
    for (int side = 1; side <= s->n; side++) {
        if (!side_free(s, side))
            continue;
        for (int r = 0; r < s->n; r++)
            for (int q = 0; q < s->n; q++) {
                if (!full(s, r, q, side))
                    continue;
                eat(s, r, q, side, 0);
                if (side > 1)
                    s->used[side] = 1;
                int win = !slow_value(s);
                if (side > 1)
                    s->used[side] = 0;
                eat(s, r, q, side, 1);
                ck_assert_int_lt(t->total, MAX_MVS);
                t->moves[t->total++] = (mv){r, q, side, win, -1};
                t->wins += win;
            }
    }
    t->value = slow_value(s);
    t->remoteness = -2; /* not known here: check_answer checks what it can */
    qsort(t->moves, (size_t)t->total, sizeof t->moves[0], cmp_mv);
}

/* Dense boards of big full squares with a few holes, so odd squares of side
 * 3..13 and their partners are in play. */
static void medium_spot(spot *s, int n, uint64_t *rng)
{
    memset(s, 0, sizeof *s);
    s->n = n;
    int squares = 1 + (int)rng_below(rng, 3);
    for (int q = 0; q < squares; q++) {
        int side = 2 + (int)rng_below(rng, (uint64_t)(n - 1));
        int top = (int)rng_below(rng, (uint64_t)(n - side + 1));
        int left = (int)rng_below(rng, (uint64_t)(n - side + 1));
        eat(s, top, left, side, 1);
    }
    int extra = (int)rng_below(rng, (uint64_t)n);
    for (int k = 0; k < extra; k++)
        s->cell[rng_below(rng, (uint64_t)(n * n))] ^= 1;
    for (int p = 2; p <= n; p++)
        s->used[p] = prime_chocolate_oracle_is_prime(p) && rng_below(rng, 4) == 0;
    s->dia = (int)rng_below(rng, 2);
}

START_TEST(test_reference_medium)
{
    static truth t;
    uint64_t rng = 0xc0c0a004u;
    long won = 0, partnered = 0;
    for (int k = 0; k < 400; k++) {
        spot s;
        medium_spot(&s, 7 + (int)rng_below(&rng, MAX_N - 6), &rng);
        slow_truth(&s, &t);
        won += t.value;
        /* Odd moves that lose while a block survives them: a partner. */
        if (!s.used[2] && chocolate(&s) % 2 == 0)
            partnered += t.total - t.wins;
        long max_moves = random_cap(&rng);
        json_t *root = run(&s, max_moves);
        check_answer(&s, &t, root, max_moves, "reference position");
        json_decref(root);
    }
    ck_assert(won > 40 && won < 360);
    ck_assert(partnered > 0);
}
END_TEST

/* ---- edge cases --------------------------------------------------------- */

static json_t *run_json(const char *body)
{
    return run_body(body, NULL);
}

START_TEST(test_no_chocolate)
{
    json_t *root = run_json("{\"grid\": [\"XX\", \"XX\"]}");
    ck_assert_str_eq(get_str(root, "value"), "lose");
    ck_assert_int_eq(get_long(root, "moves_total"), 0);
    ck_assert_int_eq(get_long(root, "winning_moves"), 0);
    ck_assert(json_is_false(json_object_get(root, "truncated")));
    ck_assert_int_eq(json_array_size(json_object_get(root, "moves")), 0);
    json_decref(root);
    root = run_json("{\"grid\": [\"X\"], \"to_move\": \"DIA\"}");
    ck_assert_str_eq(get_str(root, "to_move"), "DIA");
    ck_assert_str_eq(get_str(root, "value"), "lose");
    json_decref(root);
}
END_TEST

START_TEST(test_smallest_and_opening)
{
    /* One square: eat it and win. */
    json_t *root = run_json("{\"grid\": [\"\xe2\x80\x93\"]}");
    ck_assert_str_eq(get_str(root, "to_move"), "RUBY");
    ck_assert_str_eq(get_str(root, "value"), "win");
    json_t *first = json_array_get(json_object_get(root, "moves"), 0);
    json_t *after = json_object_get(first, "after");
    ck_assert_int_eq(get_long(after, "chocolate_left"), 0);
    ck_assert_str_eq(get_str(after, "to_move"), "DIA");
    ck_assert_int_eq(json_array_size(json_object_get(after, "primes_used")), 0);
    json_decref(root);
    /* The game's example: the opening (8 squares, a 2 x 2 exists) wins by
     * the 2 x 2 only when 2 is free; with 2 used an even count loses. */
    root = run_json("{\"grid\": [\"--X\", \"---\", \"---\"]}");
    ck_assert_str_eq(get_str(root, "value"), "win");
    first = json_array_get(json_object_get(root, "moves"), 0);
    ck_assert_int_eq(get_long(json_object_get(first, "move"), "size"), 2);
    json_decref(root);
    root = run_body(GAME->example_analyze, NULL);
    ck_assert_str_eq(get_str(root, "value"), "lose");
    ck_assert_int_eq(get_long(root, "winning_moves"), 0);
    /* 8 single squares and four 2 x 2 of which 2 is used: no 3 x 3 fits. */
    ck_assert_int_eq(get_long(root, "moves_total"), 8);
    json_decref(root);
}
END_TEST

/* The full bar of side n: every side s that is 1 or a free prime fits at
 * (n-s+1)^2 places; 2 free and an even count: the 2 x 2 wins. */
static long long full_bar_moves(long n, const unsigned char *used)
{
    long long total = 0;
    for (long s = 1; s <= n; s++)
        if (s == 1 || (prime_chocolate_oracle_is_prime((int)s) && !used[s]))
            total += (long long)(n - s + 1) * (n - s + 1);
    return total;
}

static char *full_bar_request(long n, long hole_row, const char *extra)
{
    gj_buf b;
    buf_init(&b);
    buf_puts(&b, "{\"grid\": [");
    for (long i = 0; i < n; i++) {
        buf_puts(&b, i ? ",\"" : "\"");
        for (long j = 0; j < n; j++)
            buf_putc(&b, i == hole_row && j == n / 2 ? 'X' : '-');
        buf_putc(&b, '"');
    }
    buf_puts(&b, "]");
    buf_puts(&b, extra);
    buf_puts(&b, "}");
    buf_putc(&b, '\0');
    ck_assert(!b.failed);
    return buf_take(&b, NULL);
}

START_TEST(test_largest_bar)
{
    static unsigned char none[2001];
    char *body = full_bar_request(2000, -1, "");
    json_t *root = run_body(body, NULL); /* its speed is `make bench`'s business */
    ck_assert_str_eq(get_str(root, "value"), "win");
    ck_assert_int_eq(get_long(root, "moves_total"), full_bar_moves(2000, none));
    ck_assert(json_is_true(json_object_get(root, "truncated")));
    ck_assert_int_eq(json_array_size(json_object_get(root, "moves")), 100);
    json_decref(root);
    free(body);
    /* 2 used, 3,999,999 squares: odd, so every move wins. */
    body = full_bar_request(2000, 1000, ", \"primes_used\": [2], \"max_moves\": 10000");
    root = run_body(body, NULL);
    ck_assert_str_eq(get_str(root, "value"), "win");
    ck_assert_int_eq(get_long(root, "winning_moves"), get_long(root, "moves_total"));
    ck_assert_int_eq(json_array_size(json_object_get(root, "moves")), 10000);
    json_decref(root);
    free(body);
}
END_TEST

/* ---- bad requests ------------------------------------------------------- */

static void bad(const char *body, const char *field, const char *fragment)
{
    long limits[GJ_MAX_LIMITS] = {0};
    for (int i = 0; i < GAME->nlimits; i++)
        limits[i] = GAME->limits[i].def;
    gj_buf out;
    gj_error e;
    buf_init(&out);
    gj_error_clear(&e);
    int rc = GAME->analyze(body, strlen(body), limits, &out, &e);
    ck_assert_msg(rc == -1, "expected an error for %s", body);
    buf_free(&out);
    ck_assert_int_eq(e.kind, GJ_BAD_INPUT);
    ck_assert_msg(strcmp(e.field, field) == 0, "field [%s], want [%s] (%s)", e.field, field,
                  e.message);
    ck_assert_msg(strstr(e.message, fragment) != NULL, "message [%s] lacks [%s]", e.message,
                  fragment);
}

START_TEST(test_bad_grid)
{
    bad("{\"grid\": [\"--\", \"-\"]}", "grid[1]", "row has 1 cell, expected 2");
    bad("{\"grid\": [\"--\", \"-a\"]}", "grid[1]", "unexpected character 'a' at offset 1");
    bad("{\"grid\": []}", "grid", "expected 1 to 2000 elements, found 0");
    bad("{\"grid\": \"--\"}", "grid", "expected an array, found a string");
    bad("{\"grid\": [\"--\", 3]}", "grid[1]", "expected a string, found an integer");
    bad("{\"primes_used\": [2]}", "grid", "missing required field");
    bad("{\"grid\": [\"-\"], \"side\": 1}", "side", "unknown field");
    bad("{\"grid\": [\"-\"]", "", "invalid JSON");
    bad("[1]", "", "must be an object");
}
END_TEST

START_TEST(test_bad_primes)
{
    const char *grid = "{\"grid\": [\"----------\",\"----------\",\"----------\",\"----------\","
                       "\"----------\",\"----------\",\"----------\",\"----------\","
                       "\"----------\",\"----------\"], \"primes_used\": ";
    char body[600];
#define PRIMES(list, field, fragment)                                                              \
    do {                                                                                           \
        snprintf(body, sizeof body, "%s%s}", grid, list);                                          \
        bad(body, field, fragment);                                                                \
    } while (0)
    PRIMES("[2, 9]", "primes_used[1]", "9 is not a prime");
    PRIMES("[1]", "primes_used[0]", "1 is not a prime");
    PRIMES("[0]", "primes_used[0]", "0 is not a prime");
    PRIMES("[-3]", "primes_used[0]", "-3 is not a prime");
    PRIMES("[3, 5, 3]", "primes_used[2]", "3 is listed twice (also primes_used[0])");
    PRIMES("[11]", "primes_used[0]", "11 is larger than the bar's side 10");
    PRIMES("[2, 12]", "primes_used[1]", "12 is not a prime");
    PRIMES("[\"2\"]", "primes_used[0]", "expected an integer, found a string");
    PRIMES("[2.0]", "primes_used[0]", "expected an integer");
    PRIMES("2", "primes_used", "expected an array, found an integer");
    PRIMES("null", "primes_used", "expected an array, found null");
    PRIMES("[99999999999999999]", "primes_used[0]", "larger than the bar's side 10");
#undef PRIMES
}
END_TEST

START_TEST(test_bad_to_move_and_max)
{
    bad("{\"grid\": [\"-\"], \"to_move\": \"ruby\"}", "to_move", "expected \"RUBY\" or \"DIA\"");
    bad("{\"grid\": [\"-\"], \"to_move\": \"\"}", "to_move", "expected \"RUBY\" or \"DIA\"");
    bad("{\"grid\": [\"-\"], \"to_move\": 1}", "to_move", "expected a string, found an integer");
    bad("{\"grid\": [\"-\"], \"max_moves\": 0}", "max_moves", "must be between 1 and 10000");
    bad("{\"grid\": [\"-\"], \"max_moves\": 10001}", "max_moves", "must be between 1 and 10000");
    bad("{\"grid\": [\"-\"], \"max_moves\": \"5\"}", "max_moves", "expected an integer");
    /* A whole "after" carries the count: it must be the grid's. */
    bad("{\"grid\": [\"-X\", \"--\"], \"chocolate_left\": 4}", "chocolate_left",
        "chocolate_left: must be the grid's count of chocolate cells, 3");
    bad("{\"grid\": [\"-\"], \"chocolate_left\": \"1\"}", "chocolate_left",
        "must be the grid's count of chocolate cells, 1");
}
END_TEST

START_TEST(test_limits)
{
    /* A configured side limit below the bar refuses it, naming the grid. */
    long limits[GJ_MAX_LIMITS] = {0};
    for (int i = 0; i < GAME->nlimits; i++)
        limits[i] = GAME->limits[i].def;
    limits[0] = 2;
    gj_buf out;
    gj_error e;
    buf_init(&out);
    const char *body = "{\"grid\": [\"---\", \"---\", \"---\"]}";
    ck_assert_int_eq(GAME->analyze(body, strlen(body), limits, &out, &e), -1);
    ck_assert_str_eq(e.field, "grid");
    ck_assert_ptr_nonnull(strstr(e.message, "expected 1 to 2 elements, found 3"));
    buf_free(&out);
}
END_TEST

/* ---- the parsed position against the JSON path ------------------------ */

/* The request of s as a client may spell it: its members in a random
 * order, primes_used and to_move sometimes absent, chocolate_left
 * sometimes present, chocolate sometimes the en dash, max_moves anywhere. */
static json_t *spelled(const spot *s, long max_moves, uint64_t *rng)
{
    enum { GRID, PRIMES, MOVER, LEFT, MAX, KINDS };
    int kinds[KINDS] = {GRID, PRIMES, MOVER, LEFT, MAX};
    for (int k = KINDS - 1; k > 0; k--) {
        int o = (int)rng_below(rng, (uint64_t)k + 1), t = kinds[k];
        kinds[k] = kinds[o];
        kinds[o] = t;
    }
    int dashes = rng_below(rng, 4) == 0, any_used = 0;
    for (int p = 2; p <= s->n; p++)
        any_used |= s->used[p];
    json_t *req = json_object();
    for (int k = 0; k < KINDS; k++) {
        if (kinds[k] == GRID) {
            json_t *grid = json_array();
            for (int i = 0; i < s->n; i++) {
                char row[3 * MAX_N + 1];
                size_t len = 0;
                for (int j = 0; j < s->n; j++) {
                    if (!s->cell[i * s->n + j])
                        row[len++] = 'X';
                    else if (dashes && rng_below(rng, 2) == 0)
                        len += (size_t)sprintf(row + len, "\xe2\x80\x93");
                    else
                        row[len++] = '-';
                }
                row[len] = '\0';
                json_array_append_new(grid, json_string(row));
            }
            json_object_set_new(req, "grid", grid);
        } else if (kinds[k] == PRIMES && (any_used || rng_below(rng, 2) == 0)) {
            json_t *primes = json_array();
            for (int p = 2; p <= s->n; p++)
                if (s->used[p]) /* listed in a random order */
                    json_array_insert_new(primes,
                                          (size_t)rng_below(rng, json_array_size(primes) + 1),
                                          json_integer(p));
            json_object_set_new(req, "primes_used", primes);
        } else if (kinds[k] == MOVER && (s->dia || rng_below(rng, 2) == 0)) {
            json_object_set_new(req, "to_move", json_string(s->dia ? "DIA" : "RUBY"));
        } else if (kinds[k] == LEFT && rng_below(rng, 3) == 0) {
            json_object_set_new(req, "chocolate_left", json_integer(chocolate(s)));
        } else if (kinds[k] == MAX && max_moves > 0) {
            json_object_set_new(req, "max_moves", json_integer(max_moves));
        }
    }
    return req;
}

/* analyze() on the JSON text of req, with max_moves set (0: as req has it). */
static gj_buf json_analysis(const json_t *req, long max_moves)
{
    json_t *copy = json_copy((json_t *)req);
    if (max_moves > 0)
        json_object_set_new(copy, "max_moves", json_integer(max_moves));
    char *body = json_dumps(copy, JSON_COMPACT);
    long limits[GJ_MAX_LIMITS] = {0};
    for (int i = 0; i < GAME->nlimits; i++)
        limits[i] = GAME->limits[i].def;
    gj_buf out;
    gj_error e;
    buf_init(&out);
    ck_assert_msg(GAME->analyze(body, strlen(body), limits, &out, &e) == 0, "%s: %s", e.message,
                  body);
    buf_putc(&out, '\0');
    out.len--;
    free(body);
    json_decref(copy);
    return out;
}

/* Whether out holds exactly the text of v written compact (with sorted
 * keys when asked), less its outer braces. */
static int is_inner(const gj_buf *out, const json_t *v, size_t flags)
{
    char *text = json_dumps(v, JSON_COMPACT | flags);
    size_t len = strlen(text);
    int same = len >= 2 && out->len == len - 2 && memcmp(out->data, text + 1, len - 2) == 0;
    if (!same)
        fprintf(stderr, "expected %s\nfound    {%.*s}\n", text, (int)out->len, out->data);
    free(text);
    return same;
}

/* p's write_move of m, whole or not, must be `entry` (whole: after.c's
 * bytes from req through w). */
static void check_written(void *p, const gj_move *m, const json_t *req, const json_t *entry,
                          after_writer *w)
{
    const gj_play *play = GAME->play;
    gj_buf got, want;
    gj_error e;
    size_t bytes = 1;
    buf_init(&got);
    ck_assert_int_eq(play->write_move(p, m, 0, &got, &bytes, &e), 0);
    ck_assert(bytes == 0 && is_inner(&got, entry, 0));
    got.len = 0;
    ck_assert_int_eq(play->write_move(p, m, 1, &got, &bytes, &e), 0);
    buf_init(&want);
    size_t before = w->bytes;
    ck_assert_int_eq(after_put_members(w, req, entry, &want, &e), 0);
    ck_assert_msg(got.len == want.len && memcmp(got.data, want.data, got.len) == 0,
                  "whole after:\nexpected %.*s\nfound    %.*s", (int)want.len, want.data,
                  (int)got.len, got.data);
    ck_assert(bytes == w->bytes - before);
    buf_free(&got);
    buf_free(&want);
}

/* rank(max) with and without the head against `answer`, analyze() of
 * every move (whose first max entries are what max_moves = max lists):
 * the same moves (each written as its entry), outcomes, remoteness, head. */
static void check_rank(void *p, const json_t *req, const json_t *answer, long max, after_writer *w)
{
    const gj_play *play = GAME->play;
    const json_t *list = json_object_get(answer, "moves");
    size_t listed = json_array_size(list) < (size_t)max ? json_array_size(list) : (size_t)max;
    gj_move moves[8];
    gj_rank_head head;
    gj_error e;
    ck_assert(max <= 8);
    for (int with_head = 0; with_head < 2; with_head++) {
        long got = play->rank(p, max, moves, with_head ? &head : NULL, &e);
        ck_assert_int_eq(got, (long)listed);
        for (long k = 0; k < got; k++) {
            const json_t *entry = json_array_get(list, (size_t)k);
            const json_t *rem = json_object_get(entry, "remoteness");
            ck_assert_int_eq(moves[k].wins, strcmp(get_str(entry, "outcome"), "win") == 0);
            ck_assert(moves[k].score == 0);
            ck_assert(moves[k].remoteness ==
                      (json_is_null(rem) ? ANALYSIS_REMOTENESS_NULL : json_integer_value(rem)));
            check_written(p, &moves[k], req, entry, w);
        }
        if (!with_head)
            continue;
        const json_t *rem = json_object_get(answer, "remoteness");
        ck_assert(head.value == (strcmp(get_str(answer, "value"), "win") == 0));
        ck_assert(head.remoteness ==
                  (json_is_null(rem) ? ANALYSIS_REMOTENESS_NULL : json_integer_value(rem)));
        ck_assert(head.moves_total == get_long(answer, "moves_total"));
        ck_assert(head.winning_moves == get_long(answer, "winning_moves"));
    }
}

/* find() on a random square and on malformed moves: 1 exactly for the
 * legal moves, the entries of `all` (every move of the position). */
static void check_find(void *p, const spot *s, const json_t *all, uint64_t *rng)
{
    const gj_play *play = GAME->play;
    gj_move m;
    gj_error e;
    json_t *move = json_pack("{s:I,s:I,s:I}", "row", (json_int_t)rng_below(rng, s->n + 2), "col",
                             (json_int_t)rng_below(rng, s->n + 2), "size",
                             (json_int_t)rng_below(rng, s->n + 2));
    int listed = 0;
    for (size_t k = 0; k < json_array_size(all); k++)
        listed |= json_equal(json_object_get(json_array_get(all, k), "move"), move);
    ck_assert_int_eq(play->find(p, move, &m, &e), listed);
    json_object_set_new(move, "size", json_real(1.0));
    ck_assert_int_eq(play->find(p, move, &m, &e), 0);
    json_object_set_new(move, "size", json_integer(1));
    json_object_set_new(move, "why", json_true());
    ck_assert_int_eq(play->find(p, move, &m, &e), 0);
    json_decref(move);
    json_t *odd = json_pack("[i,i,i]", 1, 1, 1);
    ck_assert_int_eq(play->find(p, odd, &m, &e), 0);
    json_decref(odd);
}

/* A game played out from s on the parsed position and on the JSON request
 * side by side, a random listed move at a time: every analysis, ranking,
 * entry, whole after, member list and found move must agree; a clone
 * played on must leave its original alone. */
static void walk_both(const spot *start, long max_moves, int steps, long *positions, uint64_t *rng)
{
    const gj_play *play = GAME->play;
    long limits[GJ_MAX_LIMITS] = {0};
    for (int i = 0; i < GAME->nlimits; i++)
        limits[i] = GAME->limits[i].def;
    spot s = *start;
    json_t *req = spelled(&s, max_moves, rng);
    gj_error e;
    void *p = play->parse(req, limits, &e);
    ck_assert_msg(p != NULL, "%s", e.message);
    after_writer w;
    after_init(&w, GAME, 1);
    for (int step = 0; step < steps; step++) {
        (*positions)++;
        gj_buf want = json_analysis(req, 0), got;
        buf_init(&got);
        ck_assert_int_eq(play->analyze(p, &got, &e), 0);
        ck_assert_msg(got.len == want.len && memcmp(got.data, want.data, got.len) == 0,
                      "analysis after %d moves:\nexpected %s\nfound    %.*s", step, want.data,
                      (int)got.len, got.data);
        gj_buf full = json_analysis(req, ANALYSIS_MAX_MOVES_LIMIT);
        json_t *answer = json_loads(full.data, 0, NULL);
        const json_t *all = json_object_get(answer, "moves");
        size_t count = json_array_size(all);
        ck_assert(count == (size_t)get_long(answer, "moves_total"));
        long maxes[] = {1, 2 + (long)rng_below(rng, 7)};
        for (int k = 0; k < 2; k++)
            check_rank(p, req, answer, maxes[k], &w);
        for (int k = 0; k < 6; k++)
            check_find(p, &s, all, rng);
        /* Every move (a sample on larger bars) found and written. */
        for (size_t k = 0; k < count; k++) {
            if (count > 40 && rng_below(rng, count) >= 40)
                continue;
            gj_move m = {0, 0, 0, 0};
            const json_t *entry = json_array_get(all, k);
            ck_assert_int_eq(play->find(p, json_object_get(entry, "move"), &m, &e), 1);
            check_written(p, &m, req, entry, &w);
        }
        json_t *members = json_copy(req);
        json_object_del(members, "max_moves");
        got.len = 0;
        play->write_members(p, 0, &got);
        ck_assert(!got.failed && is_inner(&got, members, 0));
        json_decref(members);
        if (count == 0) {
            json_decref(answer);
            buf_free(&full);
            buf_free(&want);
            buf_free(&got);
            break;
        }
        const json_t *entry = json_array_get(all, rng_below(rng, count));
        gj_move m;
        if (rng_below(rng, 4) == 0) { /* the clone plays; p must not move */
            void *c = play->clone(p, &e);
            ck_assert_ptr_nonnull(c);
            ck_assert_int_eq(play->find(c, json_object_get(entry, "move"), &m, &e), 1);
            ck_assert_int_eq(play->play(c, &m, &e), 0);
            got.len = 0;
            ck_assert_int_eq(play->analyze(p, &got, &e), 0);
            ck_assert(got.len == want.len && memcmp(got.data, want.data, got.len) == 0);
            play->free(c);
        }
        ck_assert_int_eq(play->find(p, json_object_get(entry, "move"), &m, &e), 1);
        ck_assert_int_eq(play->play(p, &m, &e), 0);
        ck_assert_int_eq(GAME->play_move(req, entry, &e), 0);
        /* A new position: the cached whole members are the old request's. */
        after_free(&w);
        after_init(&w, GAME, 1);
        got.len = 0;
        play->write_members(p, 1, &got);
        ck_assert(!got.failed && is_inner(&got, json_object_get(entry, "after"), JSON_SORT_KEYS));
        json_decref(answer);
        buf_free(&full);
        buf_free(&want);
        buf_free(&got);
    }
    after_free(&w);
    play->free(p);
    json_decref(req);
}

START_TEST(test_parsed_position)
{
    uint64_t rng = 0x5eed0c0cu;
    long positions = 0;
    ck_assert_ptr_nonnull(GAME->play);
    /* Small bars, remoteness known: whole games. */
    for (int k = 0; k < 150; k++) {
        spot s;
        random_spot(&s, 1 + (int)rng_below(&rng, 8), 64, &rng);
        walk_both(&s, random_cap(&rng) % 9, 70, &positions, &rng);
    }
    /* Dense medium bars, mostly past the search: the survey's order and
     * the line's first move alone. */
    for (int k = 0; k < 30; k++) {
        spot s;
        medium_spot(&s, 9 + (int)rng_below(&rng, MAX_N - 8), &rng);
        walk_both(&s, random_cap(&rng) % 9, 8, &positions, &rng);
    }
    /* The walks must have reached thousands of positions. */
    ck_assert_int_gt(positions, 2000);
}
END_TEST

/* ---- the cache key ------------------------------------------------------ */

static gj_buf key_of(const char *in, int json)
{
    long limits[GJ_MAX_LIMITS] = {0};
    for (int i = 0; i < GAME->nlimits; i++)
        limits[i] = GAME->limits[i].def;
    gj_error e;
    void *pos = json ? GAME->parse_json(in, strlen(in), limits, &e)
                     : GAME->parse_text(in, strlen(in), limits, &e);
    ck_assert_msg(pos != NULL, "%s", e.message);
    gj_buf b;
    buf_init(&b);
    GAME->write_key(pos, &b);
    ck_assert(!b.failed);
    GAME->free_position(pos);
    return b;
}

static int same_key(const gj_buf *a, const gj_buf *b)
{
    return a->len == b->len && memcmp(a->data, b->data, a->len) == 0;
}

START_TEST(test_write_key)
{
    gj_buf text = key_of("3\n--X\n\xe2\x80\x93--\n---\n", 0);
    gj_buf json = key_of("{\"grid\": [\"--X\", \"---\", \"\\u2013--\"]}", 1);
    ck_assert(same_key(&text, &json));
    /* Every other board of sides 1..3 (and 4 x 4 across the byte edge)
     * gets a key of its own: one bit or one size apart is a new key. */
    const char *others[] = {
        "3\n--X\n---\n--X\n",
        "3\n--X\n---\n-X-\n",
        "3\n---\n---\n---\n",
        "2\n--\n--\n",
        "1\n-\n",
        "1\nX\n",
        "2\nXX\nXX\n",
        "3\nXXX\nXXX\nXXX\n",
        "4\n--X-\n----\n----\n----\n",
        "4\n--X-\n----\n----\n---X\n",
        "4\n--X-\n----\n----\n--X-\n",
    };
    size_t count = sizeof others / sizeof others[0];
    gj_buf keys[sizeof others / sizeof others[0]];
    for (size_t k = 0; k < count; k++) {
        keys[k] = key_of(others[k], 0);
        ck_assert_msg(!same_key(&keys[k], &text), "%s", others[k]);
        for (size_t m = 0; m < k; m++)
            ck_assert_msg(!same_key(&keys[k], &keys[m]), "%s vs %s", others[k], others[m]);
    }
    for (size_t k = 0; k < count; k++)
        buf_free(&keys[k]);
    buf_free(&text);
    buf_free(&json);
}
END_TEST

/* ---- runner ------------------------------------------------------------- */

/* One Check test case per test, so a timeout or a crash names its test. */
static Suite *prime_chocolate_analysis_suite(void)
{
    const harness_case cases[] = {
        {"oracle", test_oracle_every_small_board},
        {"oracle", test_oracle_small},
        {"edges", test_no_chocolate},
        {"edges", test_smallest_and_opening},
        {"edges", test_largest_bar},
        {"bad requests", test_bad_grid},
        {"bad requests", test_bad_primes},
        {"bad requests", test_bad_to_move_and_max},
        {"bad requests", test_limits},
        {"key", test_write_key},
    };
    const harness_case large[] = {
        {"oracle", test_oracle_rich},
        {"reference", test_reference_medium},
        {"parsed", test_parsed_position},
    };
    Suite *s =
        harness_suite("prime-chocolate analysis", cases, sizeof cases / sizeof cases[0], 300);
    harness_add_tagged(s, large, sizeof large / sizeof large[0], 300, HARNESS_LARGE);
    return s;
}

int main(void)
{
    return harness_main(prime_chocolate_analysis_suite());
}
