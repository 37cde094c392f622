/* test_matrix_game_puzzle.c - unit tests of matrix-game's puzzle parts
 * (gj_play's look and motifs, the deepest depth).
 *
 * look and motifs are judged against the oracle's reading of the rules
 * (tests/oracle/matrix_game_oracle.c) on thousands of random positions in
 * play, with the bounds game.h states.  The claim that no puzzle has a
 * third step (gj_game.puzzle_depth_max 2) is checked twice: its premise on
 * the oracle's minimax (from the cell the opponent reached from a winning
 * cell, jumping back there wins), and its conclusion on the puzzles' own
 * line (a lone second solving move is the first one again, and the
 * defender's reply then brings back the second step's position). */
#include <check.h>
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "games.h"
#include "harness.h"
#include "matrix_game_oracle.h"

static const gj_game *const game = &game_matrix_game;

/* The oracle's motif bits, the game's motifs in its order. */
static const char *const motif_names[] = {"top-cell", "outscored", "modest"};

/* The parsed position in play of (n, k, value) with the token on cell
 * `token` (row-major; -1: the opening): fails the test when refused. */
static void *open_position(int n, int k, const int *value, int token)
{
    json_t *matrix = json_array();
    for (int i = 0; i < n; i++) {
        json_t *row = json_array();
        for (int j = 0; j < n; j++)
            json_array_append_new(row, json_integer(value[i * n + j]));
        json_array_append_new(matrix, row);
    }
    json_t *req = json_pack("{s:i, s:o}", "k", k, "matrix", matrix);
    if (token >= 0)
        json_object_set_new(req, "token", json_pack("[i, i]", token / n + 1, token % n + 1));
    long limits[GJ_MAX_LIMITS];
    game_default_limits(game, limits);
    static gj_error e; /* static: a position never points at it, but cppcheck cannot tell */
    void *pos = game->play->parse(req, limits, &e);
    ck_assert_msg(pos != NULL, "parse: %s", e.message);
    json_decref(req);
    return pos;
}

/* Every move of pos, ranked, into moves (room for n * n): their count. */
static long rank_every(void *pos, gj_move *moves, gj_rank_head *head)
{
    gj_error e;
    long got = game->play->rank(pos, ANALYSIS_MAX_MOVES_LIMIT, moves, head, &e);
    ck_assert_msg(got >= 0, "rank: %s", e.message);
    ck_assert_int_eq(got, head->moves_total);
    return got;
}

/* The row-major cell of move m of pos, from its analysis entry's "move". */
static int cell_of(void *pos, const gj_move *m, int n)
{
    gj_buf b;
    buf_init(&b);
    buf_putc(&b, '{');
    size_t bytes;
    gj_error e;
    ck_assert_int_eq(game->play->write_move(pos, m, 0, &b, &bytes, &e), 0);
    buf_putc(&b, '}');
    json_t *entry = json_loadb(b.data, b.len, 0, NULL);
    ck_assert_ptr_nonnull(entry);
    const json_t *cell = json_object_get(entry, "move");
    int row = (int)json_integer_value(json_array_get(cell, 0)),
        col = (int)json_integer_value(json_array_get(cell, 1));
    ck_assert(row >= 1 && row <= n && col >= 1 && col <= n);
    json_decref(entry);
    buf_free(&b);
    return (row - 1) * n + col - 1;
}

/* look at both depths and motifs on every position of (n, k, value, token)
 * against the oracle, with game.h's bounds: *solvable counts the positions
 * of one winning move among several, a puzzle step. */
static void cross_check(int n, int k, const int *value, int token, long *solvable)
{
    void *pos = open_position(n, k, value, token);
    gj_move moves[MG_ORACLE_MAX_SIDE * MG_ORACLE_MAX_SIDE];
    gj_rank_head head;
    long count = rank_every(pos, moves, &head);
    ck_assert(count >= 1);
    int cells[MG_ORACLE_MAX_SIDE * MG_ORACLE_MAX_SIDE];
    for (long i = 0; i < count; i++)
        cells[i] = cell_of(pos, &moves[i], n);
    double got[2][MG_ORACLE_MAX_SIDE * MG_ORACLE_MAX_SIDE],
        want[MG_ORACLE_MAX_SIDE * MG_ORACLE_MAX_SIDE];
    gj_error e;
    for (int plies = 1; plies <= 2; plies++) {
        ck_assert_msg(game->play->look(pos, moves, count, plies, got[plies - 1], &e) == 0,
                      "look: %s", e.message);
        ck_assert_int_eq(
            matrix_game_oracle_look(n, k, value, token, cells, (int)count, plies, want), 0);
        for (long i = 0; i < count; i++) {
            ck_assert_msg(got[plies - 1][i] == want[i],
                          "n %d k %d token %d move %ld plies %d: look %.17g, the rules %.17g", n, k,
                          token, i, plies, got[plies - 1][i], want[i]);
            /* The game never ends (a reply is always there), so no move
             * reads +1 or -1: every value lies strictly inside. */
            ck_assert(got[plies - 1][i] > -1 && got[plies - 1][i] < 1);
        }
    }
    /* Every reply scores at least 1, so looking further only lowers a move. */
    for (long i = 0; i < count; i++)
        ck_assert_msg(got[1][i] < got[0][i], "move %ld: plies 2 %.17g above plies 1 %.17g", i,
                      got[1][i], got[0][i]);
    unsigned bits, oracle_bits;
    ck_assert_msg(game->play->motifs(pos, moves, count, &bits, &e) == 0, "motifs: %s", e.message);
    ck_assert_int_eq(matrix_game_oracle_motifs(n, k, value, token, cells, (int)count, &oracle_bits),
                     0);
    ck_assert_msg(bits == oracle_bits, "n %d k %d token %d: motifs %#x, the rules %#x", n, k, token,
                  bits, oracle_bits);
    *solvable += head.winning_moves == 1 && count >= 2;
    game->play->free(pos);
}

/* Thousands of random positions up to 6 x 6, every token, some openings. */
START_TEST(look_and_motifs_against_rules)
{
    uint64_t rng = 0x6d6174706f7a7a6cull;
    long positions = 0, solvable = 0;
    for (int board = 0; board < 160; board++) {
        int n = 3 + (int)rng_below(&rng, MG_ORACLE_MAX_SIDE - 2);
        int k = 1 + (int)rng_below(&rng, (uint64_t)n - 2);
        int value[MG_ORACLE_MAX_SIDE * MG_ORACLE_MAX_SIDE];
        rng_shuffled(&rng, value, (long)n * n);
        for (int token = -1; token < n * n; token++, positions++)
            cross_check(n, k, value, token, &solvable);
    }
    ck_assert(positions >= 3000);
    /* Puzzle steps among them, so motifs were seen where they matter. */
    ck_assert(solvable >= positions / 10);
}
END_TEST

/* Over the puzzle steps of many random positions, each motif holds of some
 * solving moves and not of others (a theme of every puzzle, or of none,
 * says nothing). */
START_TEST(motifs_vary)
{
    uint64_t rng = 0x6d6f74696673ull;
    long held[3] = {0}, steps = 0;
    for (int board = 0; board < 300; board++) {
        int n = 3 + (int)rng_below(&rng, MG_ORACLE_MAX_SIDE - 2);
        int k = 1 + (int)rng_below(&rng, (uint64_t)n - 2);
        int value[MG_ORACLE_MAX_SIDE * MG_ORACLE_MAX_SIDE];
        rng_shuffled(&rng, value, (long)n * n);
        int token = (int)rng_below(&rng, (uint64_t)(n * n));
        void *pos = open_position(n, k, value, token);
        gj_move moves[MG_ORACLE_MAX_SIDE * MG_ORACLE_MAX_SIDE];
        gj_rank_head head;
        long count = rank_every(pos, moves, &head);
        unsigned bits;
        gj_error e;
        if (head.winning_moves == 1 && count >= 2) {
            ck_assert_int_eq(game->play->motifs(pos, moves, count, &bits, &e), 0);
            steps++;
            for (int m = 0; m < 3; m++)
                held[m] += bits >> m & 1;
        }
        game->play->free(pos);
    }
    ck_assert(steps >= 50);
    for (int m = 0; m < 3; m++) {
        ck_assert_str_eq(game->motifs[m].name, motif_names[m]);
        ck_assert_msg(held[m] > 0 && held[m] < steps, "%s held of %ld of %ld steps", motif_names[m],
                      held[m], steps);
    }
    ck_assert_ptr_null(game->motifs[3].name);
}
END_TEST

/* The premise of puzzle_depth_max, by the oracle's minimax: wherever the
 * token went from a winning cell w (a cell it may jump to from w), the
 * jump back to w wins.  So a position there with one winning move has w
 * as that move. */
START_TEST(jump_back_wins)
{
    uint64_t rng = 0x6261636bull;
    long checked = 0;
    for (int board = 0; board < 24; board++) {
        int n = 3 + (int)rng_below(&rng, 3); /* 3..5: the minimax per token is slow */
        int k = 1 + (int)rng_below(&rng, (uint64_t)n - 2);
        int value[MG_ORACLE_MAX_SIDE * MG_ORACLE_MAX_SIDE];
        rng_shuffled(&rng, value, (long)n * n);
        signed char opening[MG_ORACLE_MAX_SIDE * MG_ORACLE_MAX_SIDE],
            there[MG_ORACLE_MAX_SIDE * MG_ORACLE_MAX_SIDE];
        ck_assert_int_eq(matrix_game_oracle_moves(n, k, value, -1, opening), 1);
        for (int d = 0; d < n * n; d++) {
            ck_assert(matrix_game_oracle_moves(n, k, value, d, there) >= 0);
            for (int w = 0; w < n * n; w++) {
                int reached = abs(w / n - d / n) + abs(w % n - d % n) > k;
                if (opening[w] == 1 && reached) {
                    ck_assert_msg(there[w] == 1, "n %d k %d: back from %d to %d loses", n, k, d, w);
                    checked++;
                }
            }
        }
    }
    ck_assert(checked >= 100);
}
END_TEST

/* The members a move changes (write_members with moved = 1): the line's
 * key of a position, malloc'd and NUL-terminated. */
static char *key_of(void *pos)
{
    gj_buf b;
    buf_init(&b);
    game->play->write_members(pos, 1, &b);
    buf_putc(&b, '\0');
    ck_assert(!b.failed);
    return buf_take(&b, NULL);
}

/* The position after p's solving move `solving` and the defender's reply
 * as the puzzles make it (rank's best move alone): a new position, the
 * reply's id into *reply. */
static void *after_exchange(void *p, const gj_move *solving, uint64_t *reply)
{
    gj_error e;
    void *next = game->play->clone(p, &e);
    ck_assert_ptr_nonnull(next);
    ck_assert_int_eq(game->play->play(next, solving, &e), 0);
    gj_move best;
    ck_assert_int_eq(game->play->rank(next, 1, &best, NULL, &e), 1);
    ck_assert_int_eq(game->play->play(next, &best, &e), 0);
    *reply = best.id;
    return next;
}

/* The conclusion, on the puzzles' own line over many random positions up
 * to 8 x 8: whenever a first and a second step each have one winning
 * move, the second plays the first's move again, the defender replies as
 * before, and the third step's position is the second's. */
START_TEST(third_step_repeats)
{
    uint64_t rng = 0x7468697264ull;
    long second_steps = 0;
    for (int board = 0; board < 400; board++) {
        int n = 3 + (int)rng_below(&rng, 6);
        int k = 1 + (int)rng_below(&rng, (uint64_t)n - 2);
        int value[64];
        rng_shuffled(&rng, value, (long)n * n);
        for (int token = 0; token < n * n; token++) {
            void *first = open_position(n, k, value, token);
            gj_move m1[64], m2[64];
            gj_rank_head h1, h2;
            long c1 = rank_every(first, m1, &h1);
            if (h1.winning_moves != 1 || c1 < 2) {
                game->play->free(first);
                continue;
            }
            uint64_t reply1, reply2;
            void *second = after_exchange(first, &m1[0], &reply1);
            long c2 = rank_every(second, m2, &h2);
            if (h2.winning_moves == 1 && c2 >= 2) {
                second_steps++;
                ck_assert_msg(m2[0].id == m1[0].id, "n %d k %d token %d: a new second move", n, k,
                              token);
                void *third = after_exchange(second, &m2[0], &reply2);
                ck_assert(reply2 == reply1);
                char *key2 = key_of(second), *key3 = key_of(third);
                ck_assert_str_eq(key2, key3);
                free(key2);
                free(key3);
                game->play->free(third);
            }
            game->play->free(second);
            game->play->free(first);
        }
    }
    ck_assert(second_steps >= 100);
}
END_TEST

/* The registry says so, with the reason. */
START_TEST(depth_note)
{
    ck_assert_int_eq(game->puzzle_depth_max, 2);
    ck_assert_ptr_nonnull(game->puzzle_depth_note);
    ck_assert(strstr(game->puzzle_depth_note, "undone") != NULL);
}
END_TEST

/* The suite. */
static Suite *puzzle_suite(void)
{
    const harness_case cases[] = {
        {"look", look_and_motifs_against_rules}, {"motifs", motifs_vary}, {"depth", jump_back_wins},
        {"depth", third_step_repeats},           {"depth", depth_note},
    };
    return harness_suite("matrix-game puzzle", cases, sizeof cases / sizeof cases[0], 300);
}

/* Run the suite. */
int main(void)
{
    return harness_main(puzzle_suite());
}
