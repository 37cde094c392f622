/* test_nim_shortcuts_puzzle.c - the puzzle's parts of nim-shortcuts (the
 * bounded finder's view, game.h's gj_play.look, and the motifs) against
 * the brute force of tests/oracle/nim_shortcuts_oracle.c, which enumerates
 * every reply by the rules and shares nothing with the game's shortcut
 * searches.
 *
 * On thousands of positions in play (random boards and games from fixed
 * seeds, then every step of the puzzles served at each band's knobs), every
 * legal move's value one and two plies ahead must equal the oracle's bit
 * for bit and lie in [-1, 1], a move that ends the game must read exactly
 * +1 at both, and the solving move's motifs must be the oracle's.  Plies 2
 * is not bounded by plies 1 for this measure (the hand-made case shows a
 * move that reads better two plies ahead), so that is not asserted. */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "games.h"
#include "generate.h"
#include "harness.h"
#include "nim_shortcuts.h"
#include "nim_shortcuts_core.h"
#include "nim_shortcuts_oracle.h"
#include "puzzle_search.h"

#define MAX_SHORTCUTS 64
#define MAX_MOVES     200

/* A position as the test reads it from its request. */
typedef struct board {
    long sx[MAX_SHORTCUTS], sy[MAX_SHORTCUTS], n;
    long x, y;
} board;

/* req's shortcuts and heaps into *b. */
static void read_board(const json_t *req, board *b)
{
    const json_t *s = json_object_get(req, "shortcuts"), *h = json_object_get(req, "heaps");
    b->n = (long)json_array_size(s);
    ck_assert_int_le(b->n, MAX_SHORTCUTS);
    for (long i = 0; i < b->n; i++) {
        b->sx[i] = (long)json_integer_value(json_array_get(json_array_get(s, (size_t)i), 0));
        b->sy[i] = (long)json_integer_value(json_array_get(json_array_get(s, (size_t)i), 1));
    }
    b->x = (long)json_integer_value(json_array_get(h, 0));
    b->y = (long)json_integer_value(json_array_get(h, 1));
}

/* Whether (a, b) is one of b's shortcuts, by a scan. */
static int on_shortcut(const board *b, long x, long y)
{
    for (long i = 0; i < b->n; i++)
        if (b->sx[i] == x && b->sy[i] == y)
            return 1;
    return 0;
}

/* What the checks saw, so a test can show it reached every case. */
typedef struct seen {
    long positions, moves, ending, lost_reply, motif[3];
} seen;

/* Check look (both plies) and motifs of the parsed position p, whose
 * board is b and whose ranked moves are moves[0..n), against the oracle. */
static void check_position(void *p, const board *b, const gj_move *moves, long n, seen *w)
{
    double one[MAX_MOVES], two[MAX_MOVES];
    gj_error e;
    ck_assert_int_le(n, MAX_MOVES);
    ck_assert_msg(nim_shortcuts_play.look(p, moves, n, 1, one, &e) == 0, "%s", e.message);
    ck_assert_msg(nim_shortcuts_play.look(p, moves, n, 2, two, &e) == 0, "%s", e.message);
    for (long i = 0; i < n; i++) {
        int heap = nim_move_heap(moves[i].id);
        long take = nim_move_take(moves[i].id);
        long a = heap == 1 ? b->x - take : b->x, c = heap == 2 ? b->y - take : b->y;
        double want1 = nim_shortcuts_oracle_look(b->sx, b->sy, b->n, b->x, b->y, heap, take, 1);
        double want2 = nim_shortcuts_oracle_look(b->sx, b->sy, b->n, b->x, b->y, heap, take, 2);
        if (one[i] != want1 || two[i] != want2)
            ck_abort_msg("(%ld, %ld) %ld shortcuts, heap %d take %ld: look %.17g %.17g, oracle "
                         "%.17g %.17g",
                         b->x, b->y, b->n, heap, take, one[i], two[i], want1, want2);
        if (!(one[i] >= -1 && one[i] <= 1 && two[i] >= -1 && two[i] <= 1))
            ck_abort_msg("(%ld, %ld): a value outside [-1, 1]", b->x, b->y);
        /* Equal heaps read 0 itself, never -0 (which would write as "-0"). */
        if ((one[i] == 0 && signbit(one[i])) || (two[i] == 0 && signbit(two[i])))
            ck_abort_msg("(%ld, %ld) to (%ld, %ld): -0", b->x, b->y, a, c);
        if ((a == 0 && c == 0) || on_shortcut(b, a, c)) {
            if (one[i] != 1 || two[i] != 1)
                ck_abort_msg("(%ld, %ld) to (%ld, %ld) ends the game: %g %g", b->x, b->y, a, c,
                             one[i], two[i]);
            w->ending++;
        } else if (one[i] <= -1 || one[i] > 0 || two[i] >= 1) {
            ck_abort_msg("(%ld, %ld) to (%ld, %ld) goes on: %g %g", b->x, b->y, a, c, one[i],
                         two[i]);
        }
        w->lost_reply += two[i] == -1;
    }
    unsigned bits = 99;
    ck_assert_msg(nim_shortcuts_play.motifs(p, moves, n, &bits, &e) == 0, "%s", e.message);
    unsigned want = nim_shortcuts_oracle_motifs(
        b->sx, b->sy, b->n, b->x, b->y, nim_move_heap(moves[0].id), nim_move_take(moves[0].id));
    if (bits != want)
        ck_abort_msg("(%ld, %ld) %ld shortcuts: motifs %u, oracle %u", b->x, b->y, b->n, bits,
                     want);
    for (int k = 0; k < 3; k++)
        w->motif[k] += bits >> k & 1;
    w->positions++;
    w->moves += n;
}

/* Default limits of the game, with a generous generator budget. */
static void default_limits(long *limits)
{
    game_default_limits(&game_nim_shortcuts, limits);
    limits[GEN_LIMIT_BUDGET] = 60000;
}

START_TEST(test_by_hand)
{
    /* Shortcut (1, 0), heaps (3, 1).  (2, 1) is the only loser a move
     * reaches, so taking one from heap 1 solves it; the equalising move to
     * (1, 1) lets the opponent step onto (1, 0). */
    json_t *req = json_loads("{\"shortcuts\": [[1, 0]], \"heaps\": [3, 1]}", 0, NULL);
    long limits[GEN_NLIMITS];
    default_limits(limits);
    gj_error e;
    void *p = nim_shortcuts_play.parse(req, limits, &e);
    ck_assert_ptr_nonnull(p);
    gj_move moves[8];
    gj_rank_head head;
    ck_assert_int_eq(nim_shortcuts_play.rank(p, 8, moves, &head, &e), 4);
    ck_assert_int_eq(head.winning_moves, 1);
    /* heap, take; one ply; two plies */
    static const struct {
        int heap;
        long take;
        double one, two;
    } want[4] = {{1, 1, -1.0 / 4, 0}, {1, 2, 0, -1}, {1, 3, -1.0 / 2, -1}, {2, 1, -3.0 / 4, -1}};
    double one[4], two[4];
    ck_assert_int_eq(nim_shortcuts_play.look(p, moves, 4, 1, one, &e), 0);
    ck_assert_int_eq(nim_shortcuts_play.look(p, moves, 4, 2, two, &e), 0);
    for (int k = 0; k < 4; k++)
        for (int i = 0; i < 4; i++)
            if (nim_move_heap(moves[i].id) == want[k].heap &&
                nim_move_take(moves[i].id) == want[k].take) {
                ck_assert(one[i] == want[k].one);
                ck_assert(two[i] == want[k].two);
            }
    /* Two plies above one: the opponent's equalising reply reads 0. */
    ck_assert(two[0] > one[0]);
    unsigned bits;
    ck_assert_int_eq(nim_shortcuts_play.motifs(p, moves, 4, &bits, &e), 0);
    ck_assert_uint_eq(bits, 6); /* equaliser-refuted, shifted-diagonal */
    /* No such move, and no such look. */
    gj_move bad = {nim_move_id(2, 2), 0, 0, 0};
    ck_assert_int_eq(nim_shortcuts_play.look(p, &bad, 1, 1, one, &e), -1);
    ck_assert_int_eq(e.kind, GJ_INTERNAL);
    ck_assert_int_eq(nim_shortcuts_play.motifs(p, &bad, 1, &bits, &e), -1);
    ck_assert_int_eq(nim_shortcuts_play.look(p, moves, 4, 3, one, &e), -1);
    nim_shortcuts_play.free(p);
    json_decref(req);
}
END_TEST

/* A random request: up to 40 distinct shortcuts in [0, side)^2, heaps up to
 * reach. */
static json_t *random_request(long side, long reach, uint64_t *rng)
{
    long cells = side * side, n = (long)rng_below(rng, (uint64_t)(cells < 40 ? cells : 40) + 1);
    unsigned char used[64] = {0};
    json_t *shortcuts = json_array();
    for (long i = 0; i < n; i++) {
        long c;
        do
            c = (long)rng_below(rng, (uint64_t)cells);
        while (used[c]);
        used[c] = 1;
        json_array_append_new(shortcuts, json_pack("[ii]", (int)(c / side), (int)(c % side)));
    }
    return json_pack("{s:o, s:[II]}", "shortcuts", shortcuts, "heaps",
                     (json_int_t)rng_below(rng, (uint64_t)reach + 1),
                     (json_int_t)rng_below(rng, (uint64_t)reach + 1));
}

START_TEST(test_games_against_oracle)
{
    /* 1500 random games, a random move played each turn until the game is
     * over: every position on the way is checked. */
    uint64_t rng = 0x6c6f6f6b2d6e696dULL;
    long limits[GEN_NLIMITS];
    default_limits(limits);
    seen w = {0};
    long puzzles = 0;
    gj_move moves[MAX_MOVES];
    for (int game = 0; game < 1500; game++) {
        long side = 1 + (long)rng_below(&rng, 8), reach = 1 + (long)rng_below(&rng, 40);
        json_t *req = random_request(side, reach, &rng);
        board b;
        read_board(req, &b);
        gj_error e;
        void *p = nim_shortcuts_play.parse(req, limits, &e);
        ck_assert_msg(p != NULL, "%s", e.message);
        for (;;) {
            gj_rank_head head;
            long n = nim_shortcuts_play.rank(p, MAX_MOVES, moves, &head, &e);
            ck_assert_msg(n >= 0, "%s", e.message);
            if (n == 0)
                break;
            ck_assert_int_eq(n, head.moves_total);
            check_position(p, &b, moves, n, &w);
            puzzles += head.winning_moves == 1;
            long pick = (long)rng_below(&rng, (uint64_t)n);
            ck_assert_int_eq(nim_shortcuts_play.play(p, &moves[pick], &e), 0);
            int heap = nim_move_heap(moves[pick].id);
            long take = nim_move_take(moves[pick].id);
            b.x -= heap == 1 ? take : 0;
            b.y -= heap == 2 ? take : 0;
        }
        nim_shortcuts_play.free(p);
        json_decref(req);
    }
    ck_assert_int_gt(w.positions, 5000);
    ck_assert_int_gt(puzzles, 1000);
    ck_assert_int_gt(w.ending, 1000);
    ck_assert_int_gt(w.lost_reply, 1000);
    for (int k = 0; k < 3; k++)
        ck_assert_int_gt(w.motif[k], 100);
}
END_TEST

START_TEST(test_puzzles_against_oracle)
{
    /* Every step of the puzzles served at each band's knobs, depths 1 to 3:
     * the positions the finder's view is read on. */
    const gj_game *g = &game_nim_shortcuts;
    static const char *const band[GJ_NBANDS] = {"easy", "medium", "hard"};
    long limits[GEN_NLIMITS];
    default_limits(limits);
    seen w = {0};
    for (int k = 0; k < GJ_NBANDS; k++)
        for (int depth = 1; depth <= GJ_PUZZLE_DEPTHS; depth++) {
            long found = 0;
            for (int seed = 0; seed < 30; seed++) {
                json_t *params = g->puzzle_knobs[k] != NULL
                                     ? json_loads(g->puzzle_knobs[k], 0, NULL)
                                     : json_object();
                json_object_set_new(params, "seed", json_integer(seed));
                json_object_set_new(params, "depth", json_integer(depth));
                json_object_set_new(params, "tries", json_integer(200));
                json_object_set_new(params, "budget_ms", json_integer(60000));
                puzzle pz;
                bool seeded;
                gj_error e;
                int rc = puzzle_find(g, params, limits, &pz, &seeded, &e);
                json_decref(params);
                if (rc != 0) {
                    ck_assert_msg(e.kind == GJ_UNMET, "%s", e.message);
                    continue;
                }
                found++;
                for (int i = 0; i < pz.depth; i++) {
                    board b;
                    read_board(pz.steps[i].position, &b);
                    check_position(pz.steps[i].at.pos, &b, pz.steps[i].moves, pz.steps[i].legal,
                                   &w);
                }
                puzzle_free(&pz);
            }
            ck_assert_msg(found >= 25, "%s depth %d: %ld of 30 found", band[k], depth, found);
        }
    for (int k = 0; k < 3; k++)
        ck_assert_int_gt(w.motif[k], 0);
}
END_TEST

START_TEST(test_vocabulary)
{
    /* Three motifs, named lowercase-with-hyphens, each with its line. */
    const gj_theme *m = game_nim_shortcuts.motifs;
    int k = 0;
    for (; m[k].name != NULL; k++) {
        ck_assert_ptr_nonnull(m[k].doc);
        for (const char *c = m[k].name; *c; c++)
            ck_assert((*c >= 'a' && *c <= 'z') || *c == '-');
    }
    ck_assert_int_eq(k, 3);
    ck_assert_str_eq(m[0].name, "shortcut-landing");
    ck_assert_str_eq(m[1].name, "equaliser-refuted");
    ck_assert_str_eq(m[2].name, "shifted-diagonal");
    ck_assert(game_nim_shortcuts.play->look == nim_shortcuts_play.look &&
              game_nim_shortcuts.play->motifs == nim_shortcuts_play.motifs);
}
END_TEST

/* One Check test case per test, so a timeout or a crash names its test. */
static Suite *nim_shortcuts_puzzle_suite(void)
{
    const harness_case quick[] = {
        {"by hand", test_by_hand},
        {"vocabulary", test_vocabulary},
    };
    const harness_case slow[] = {
        {"against the oracle", test_games_against_oracle},
        {"against the oracle", test_puzzles_against_oracle},
    };
    Suite *s = harness_suite("nim-shortcuts puzzle", quick, sizeof quick / sizeof quick[0], 0);
    harness_add(s, slow, sizeof slow / sizeof slow[0], 300);
    return s;
}

int main(void)
{
    return harness_main(nim_shortcuts_puzzle_suite());
}
