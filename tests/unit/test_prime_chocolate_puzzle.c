/* test_prime_chocolate_puzzle.c - unit tests of prime-chocolate's puzzle
 * parts (solvers/games/prime_chocolate/prime_chocolate_puzzle.c).
 *
 * look and motifs, on the game's parsed position with every move ranked,
 * are held to the oracle's plain enumeration of the rules
 * (tests/oracle/prime_chocolate_oracle.h) on thousands of random bars in
 * play and on the generator's own puzzle positions, values compared
 * exactly (the same integer ratio divided once); besides, every value lies
 * in [-1, 1], a bite that ends the game reads exactly +1 at both plies,
 * two plies read strictly below one whenever the opponent has a reply, and
 * the tie-breaks part bites of one side (the measure is fine-grained).
 *
 * The deepest depth (gj_game.puzzle_depth_max 1) is a property of the
 * rules, checked here from the rules alone: on every 4 x 4 bar (so every
 * bar of side 4 or less) with every set of primes used, solved by a table
 * written here, and on random 5 x 5 and 6 x 6 bars through the oracle's
 * search, a position with exactly one winning move among two or more is
 * followed, after that move and any reply, by a position where every
 * move wins: no second step can have one solving move. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "analysis.h"
#include "buf.h"
#include "games.h"
#include "generate.h"
#include "harness.h"
#include "prime_chocolate_oracle.h"

#define GAME  (&game_prime_chocolate)
#define MAX_N 8

typedef struct bar {
    int n;
    unsigned char cell[MAX_N * MAX_N];
    unsigned char used[MAX_N + 1];
} bar;

/* The bar as an analyze() request, loaded. */
static json_t *request_of(const bar *b)
{
    json_t *grid = json_array(), *primes = json_array();
    char row[MAX_N + 1];
    for (int i = 0; i < b->n; i++) {
        for (int j = 0; j < b->n; j++)
            row[j] = b->cell[i * b->n + j] ? '-' : 'X';
        row[b->n] = '\0';
        json_array_append_new(grid, json_string(row));
    }
    for (int p = 2; p <= b->n; p++)
        if (b->used[p])
            json_array_append_new(primes, json_integer(p));
    json_t *req = json_pack("{s:o, s:o}", "grid", grid, "primes_used", primes);
    ck_assert_ptr_nonnull(req);
    return req;
}

/* The bar of an analyze() request (a generated position). */
static void bar_of(const json_t *req, bar *b)
{
    const json_t *grid = json_object_get(req, "grid"),
                 *primes = json_object_get(req, "primes_used");
    memset(b, 0, sizeof *b);
    b->n = (int)json_array_size(grid);
    ck_assert_int_le(b->n, MAX_N);
    for (int i = 0; i < b->n; i++) {
        const char *row = json_string_value(json_array_get(grid, (size_t)i));
        for (int j = 0; j < b->n; j++)
            b->cell[i * b->n + j] = row[j] == '-';
    }
    for (size_t k = 0; k < json_array_size(primes); k++)
        b->used[json_integer_value(json_array_get(primes, k))] = 1;
}

/* The square of the move m, as its entry (write_move) names it. */
static void square_of(void *pos, const gj_move *m, int *row, int *col, int *size)
{
    gj_buf out;
    size_t bytes;
    gj_error e;
    buf_init(&out);
    buf_putc(&out, '{');
    ck_assert_int_eq(GAME->play->write_move(pos, m, 0, &out, &bytes, &e), 0);
    buf_putc(&out, '}');
    json_t *entry = json_loadb(out.data, out.len, 0, NULL);
    ck_assert_ptr_nonnull(entry);
    const json_t *move = json_object_get(entry, "move");
    *row = (int)json_integer_value(json_object_get(move, "row")) - 1;
    *col = (int)json_integer_value(json_object_get(move, "col")) - 1;
    *size = (int)json_integer_value(json_object_get(move, "size"));
    json_decref(entry);
    buf_free(&out);
}

/* Whether the square of side s at (i, j) is all of the bar's chocolate. */
static int eats_all(const bar *b, int i, int j, int s)
{
    for (int a = 0; a < b->n; a++)
        for (int c = 0; c < b->n; c++)
            if (b->cell[a * b->n + c] && !(a >= i && a < i + s && c >= j && c < j + s))
                return 0;
    return 1;
}

/* look at both plies and motifs on the bar, against the oracle; counts
 * into seen[]: moves checked, bites ending the game, lone winners, motif
 * bits set, and pairs of bites of one side that read apart at one ply.
 * Returns the number of legal moves. */
static long check_bar(const bar *b, long seen[7])
{
    static gj_move moves[ANALYSIS_MAX_MOVES_LIMIT];
    static double one[ANALYSIS_MAX_MOVES_LIMIT], two[ANALYSIS_MAX_MOVES_LIMIT];
    long limits[GJ_MAX_LIMITS];
    game_default_limits(GAME, limits);
    gj_error e;
    json_t *req = request_of(b);
    void *pos = GAME->play->parse(req, limits, &e);
    json_decref(req);
    ck_assert_msg(pos != NULL, "%s", e.message);
    gj_rank_head head;
    long n = GAME->play->rank(pos, ANALYSIS_MAX_MOVES_LIMIT, moves, &head, &e);
    ck_assert_int_ge(n, 0);
    ck_assert_int_eq(n, head.moves_total);
    if (n == 0) {
        GAME->play->free(pos);
        return 0;
    }
    ck_assert_int_eq(GAME->play->look(pos, moves, n, 1, one, &e), 0);
    ck_assert_int_eq(GAME->play->look(pos, moves, n, 2, two, &e), 0);
    for (long k = 0; k < n; k++) {
        int i, j, s;
        square_of(pos, &moves[k], &i, &j, &s);
        double o1 = prime_chocolate_oracle_look(b->n, b->cell, b->used, i, j, s, 1);
        double o2 = prime_chocolate_oracle_look(b->n, b->cell, b->used, i, j, s, 2);
        ck_assert_msg(one[k] == o1 && two[k] == o2,
                      "side %d at (%d, %d) on a %d x %d bar: look %.17g / %.17g, oracle %.17g / "
                      "%.17g",
                      s, i, j, b->n, b->n, one[k], two[k], o1, o2);
        ck_assert(one[k] > 0 && one[k] <= 1 && two[k] >= -1 && two[k] <= 1);
        if (eats_all(b, i, j, s)) {
            ck_assert(one[k] == 1 && two[k] == 1);
            seen[1]++;
        } else {
            /* The opponent has a reply: one square at least. */
            ck_assert(one[k] < 1 && two[k] < one[k]);
        }
        seen[0]++;
        /* Bites of a side told apart by the tie-breaks at one ply. */
        for (long m = 0; m < k; m++) {
            int i2, j2, s2;
            square_of(pos, &moves[m], &i2, &j2, &s2);
            seen[6] += s2 == s && one[m] != one[k];
        }
    }
    unsigned bits = 0;
    int i, j, s;
    square_of(pos, &moves[0], &i, &j, &s);
    ck_assert_int_eq(GAME->play->motifs(pos, moves, n, &bits, &e), 0);
    ck_assert_uint_eq(bits, prime_chocolate_oracle_motifs(b->n, b->cell, b->used, i, j, s));
    for (int m = 0; m < 3; m++)
        seen[3 + m] += bits >> m & 1;
    seen[2] += head.winning_moves == 1;
    GAME->play->free(pos);
    return n;
}

/* A random bar of side 1..max_n in play: a random density, sometimes a
 * few full squares so big bites stay open, random primes used. */
static void random_bar(bar *b, int max_n, uint64_t *rng)
{
    memset(b, 0, sizeof *b);
    b->n = 1 + (int)rng_below(rng, (uint64_t)max_n);
    uint64_t density = 20 + rng_below(rng, 81);
    for (int c = 0; c < b->n * b->n; c++)
        b->cell[c] = rng_below(rng, 100) < density;
    if (b->n >= 3 && rng_below(rng, 3) == 0) {
        int side = 2 + (int)rng_below(rng, (uint64_t)(b->n - 1));
        int top = (int)rng_below(rng, (uint64_t)(b->n - side + 1));
        int left = (int)rng_below(rng, (uint64_t)(b->n - side + 1));
        for (int i = top; i < top + side; i++)
            for (int j = left; j < left + side; j++)
                b->cell[i * b->n + j] = 1;
    }
    for (int p = 2; p <= b->n; p++)
        b->used[p] = prime_chocolate_oracle_is_prime(p) && rng_below(rng, 4) == 0;
}

START_TEST(test_look_random_bars)
{
    uint64_t rng = 0x9c0c01a7eu;
    long seen[7] = {0}, bars = 0;
    for (int k = 0; k < 3000; k++) {
        bar b;
        random_bar(&b, 5, &rng);
        bars += check_bar(&b, seen) > 0;
    }
    /* Not vacuous: many moves, bites that end the game, lone winners and
     * every motif met. */
    ck_assert_int_gt(bars, 2500);
    ck_assert_int_gt(seen[0], 20000);
    ck_assert_int_gt(seen[1], 400);
    ck_assert_int_gt(seen[2], 400);
    for (int m = 0; m < 3; m++)
        ck_assert_int_gt(seen[3 + m], 150);
    ck_assert_int_gt(seen[6], 1000);
}
END_TEST

START_TEST(test_look_generated_puzzles)
{
    /* The generator's positions with one winning move, as puzzles start
     * from: sides 3..6, each seed its own. */
    long seen[7] = {0};
    long limits[GEN_NLIMITS];
    game_default_limits(GAME, limits);
    limits[GEN_LIMIT_BUDGET] = 60000;
    for (int seed = 0; seed < 600; seed++) {
        char text[160];
        snprintf(
            text, sizeof text,
            "{\"seed\": %d, \"n\": %d, \"eaten\": 0.%02d, \"winning_moves\": 1, \"min_moves\": "
            "2, \"answer\": false, \"budget_ms\": 60000}",
            seed, 3 + seed % 4, 35 + 5 * (seed % 3));
        gj_buf out;
        gj_error e;
        buf_init(&out);
        ck_assert_msg(GAME->generate(text, strlen(text), limits, &out, &e) == 0, "%s", e.message);
        json_t *answer = json_loadb(out.data, out.len, 0, NULL);
        ck_assert_ptr_nonnull(answer);
        bar b;
        bar_of(json_object_get(answer, "position"), &b);
        ck_assert_int_ge(check_bar(&b, seen), 2);
        json_decref(answer);
        buf_free(&out);
    }
    ck_assert_int_eq(seen[2], 600); /* every one had a lone winning move */
    for (int m = 0; m < 3; m++)
        ck_assert_int_gt(seen[3 + m], 10);
}
END_TEST

/* ---- the deepest depth ------------------------------------------------ */

/* Every square of a 4 x 4 board: its cells as bits (bit 4i + j) and the
 * prime it uses (0 for one square). */
typedef struct sq4 {
    unsigned cells;
    int prime;
} sq4;

static sq4 squares4[16 + 9 + 4];
static int nsquares4;

/* The squares of sides 1, 2 and 3 of a 4 x 4 board. */
static void list_squares4(void)
{
    nsquares4 = 0;
    for (int s = 1; s <= 3; s++)
        for (int i = 0; i + s <= 4; i++)
            for (int j = 0; j + s <= 4; j++) {
                unsigned cells = 0;
                for (int a = i; a < i + s; a++)
                    for (int c = j; c < j + s; c++)
                        cells |= 1u << (4 * a + c);
                squares4[nsquares4++] = (sq4){cells, s > 1 ? s : 0};
            }
}

/* Primes used as bits: 1 for 2, 2 for 3. */
static unsigned prime_bit(int p)
{
    return p == 2 ? 1u : p == 3 ? 2u : 0u;
}

/* Whether square q may be eaten from chocolate `left` with primes `used`. */
static int can_eat(const sq4 *q, unsigned left, unsigned used)
{
    return (q->cells & left) == q->cells && !(used & prime_bit(q->prime));
}

/* wins4[used][left]: the mover wins, from the rules, for every chocolate
 * set of a 4 x 4 board and every set of primes used; eating is never
 * undone, so each set only looks at smaller ones. */
static unsigned char wins4[4][1 << 16];

static void solve4(void)
{
    for (unsigned left = 0; left < 1u << 16; left++)
        for (unsigned used = 0; used < 4; used++) {
            int win = 0;
            for (int q = 0; q < nsquares4 && !win; q++)
                if (can_eat(&squares4[q], left, used))
                    win = !wins4[used | prime_bit(squares4[q].prime)][left & ~squares4[q].cells];
            wins4[used][left] = (unsigned char)win;
        }
}

START_TEST(test_depth_one_every_small_bar)
{
    list_squares4();
    solve4();
    long puzzles = 0, seconds = 0;
    for (unsigned left = 0; left < 1u << 16; left++)
        for (unsigned used = 0; used < 4; used++) {
            int legal = 0, winning = 0, w = -1;
            for (int q = 0; q < nsquares4; q++)
                if (can_eat(&squares4[q], left, used)) {
                    legal++;
                    if (!wins4[used | prime_bit(squares4[q].prime)][left & ~squares4[q].cells]) {
                        winning++;
                        w = q;
                    }
                }
            if (winning != 1 || legal < 2)
                continue;
            puzzles++;
            unsigned l1 = left & ~squares4[w].cells, u1 = used | prime_bit(squares4[w].prime);
            for (int r = 0; r < nsquares4; r++) {
                if (!can_eat(&squares4[r], l1, u1))
                    continue;
                unsigned l2 = l1 & ~squares4[r].cells, u2 = u1 | prime_bit(squares4[r].prime);
                int moves = 0, wins = 0;
                for (int q = 0; q < nsquares4; q++)
                    if (can_eat(&squares4[q], l2, u2)) {
                        moves++;
                        wins += !wins4[u2 | prime_bit(squares4[q].prime)][l2 & ~squares4[q].cells];
                    }
                ck_assert_msg(moves >= 1 && wins == moves,
                              "chocolate %04x, primes %u: after its lone winning move and a "
                              "reply, %d of %d moves win",
                              left, used, wins, moves);
                seconds++;
            }
        }
    ck_assert_int_gt(puzzles, 10000);
    ck_assert_int_gt(seconds, 50000);
}
END_TEST

/* The oracle's winning moves and legal moves of a bar. */
static int oracle_counts(const bar *b, pc_oracle_move *moves, int cap, int *count)
{
    int v = prime_chocolate_oracle_mid(b->n, b->cell, b->used, moves, cap, count);
    ck_assert_int_ge(v, 0);
    ck_assert_int_le(*count, cap);
    int wins = 0;
    for (int k = 0; k < *count; k++)
        wins += !moves[k].opponent_wins;
    return wins;
}

/* The bar with the square of side s at (i, j) eaten and its prime used. */
static bar eaten(const bar *b, int i, int j, int s)
{
    bar a = *b;
    for (int r = i; r < i + s; r++)
        memset(a.cell + r * a.n + j, 0, (size_t)s);
    if (s > 1 && s <= MAX_N) /* a legal side is at most n */
        a.used[s] = 1;
    return a;
}

START_TEST(test_depth_one_random_bars)
{
    static pc_oracle_move first[2048], reply[2048], second[2048];
    uint64_t rng = 0xde9731u;
    long puzzles = 0;
    for (int k = 0; k < 3000 || puzzles < 200; k++) {
        bar b;
        memset(&b, 0, sizeof b);
        b.n = 5 + (int)rng_below(&rng, 2);
        int chocolate = 0, most = 10 + (int)rng_below(&rng, 7);
        for (int c = 0; c < b.n * b.n; c++) {
            b.cell[c] = chocolate < most && rng_below(&rng, 100) < 60;
            chocolate += b.cell[c];
        }
        b.used[2] = rng_below(&rng, 8) == 0;
        b.used[3] = rng_below(&rng, 4) == 0;
        b.used[5] = rng_below(&rng, 4) == 0;
        int count;
        if (oracle_counts(&b, first, 2048, &count) != 1 || count < 2)
            continue;
        puzzles++;
        int w = 0;
        while (first[w].opponent_wins)
            w++;
        bar after = eaten(&b, first[w].row, first[w].col, first[w].size);
        int replies;
        oracle_counts(&after, reply, 2048, &replies);
        for (int r = 0; r < replies; r++) {
            bar two = eaten(&after, reply[r].row, reply[r].col, reply[r].size);
            int moves, wins = oracle_counts(&two, second, 2048, &moves);
            ck_assert_msg(moves >= 1 && wins == moves,
                          "after a lone winning move and a reply, %d of %d moves win", wins, moves);
        }
    }
    ck_assert_int_ge(puzzles, 200);
}
END_TEST

/* ---- runner ------------------------------------------------------------- */

static Suite *prime_chocolate_puzzle_suite(void)
{
    const harness_case cases[] = {
        {"look generated", test_look_generated_puzzles},
        {"depth every", test_depth_one_every_small_bar},
        {"depth random", test_depth_one_random_bars},
    };
    /* Left to `make check` (HARNESS_LARGE): 3000 random bars, each move against the oracle, the
     * longest case; the generated puzzles' look stays in the quick loop. */
    const harness_case large[] = {
        {"look random", test_look_random_bars},
    };
    Suite *s = harness_suite("prime-chocolate puzzle", cases, sizeof cases / sizeof cases[0], 300);
    harness_add_tagged(s, large, sizeof large / sizeof large[0], 300, HARNESS_LARGE);
    return s;
}

int main(void)
{
    return harness_main(prime_chocolate_puzzle_suite());
}
