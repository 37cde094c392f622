/* test_levels.c - the engine's levels have one strength in every game
 * (engine.h, levels.h), in process.
 *
 * On each game's benchmark (LEVELS_BENCH_PUZZLES depth-1 puzzles with one
 * solving move among at least 4), each level's mean exact chance to play
 * the solving move is within 0.1 of its shared target; and in seeded level
 * games from the benchmark's positions, each level played once with either
 * side first, level k wins more games than it loses against level k - 1,
 * for k = 2..5.  Counts from fixed seeds, never times: the same on every
 * machine.  The checks are proved able to fail: ratios that make every
 * level play at random miss the targets and lose the ordering. */
#include <check.h>
#include <stdio.h>

#include "engine.h"
#include "games.h"
#include "harness.h"
#include "levels.h"

/* A level's tolerance around its target, in chance. */
#define TOLERANCE 0.1

/* Game g's benchmark into *b (each test runs in its own process, so each
 * loads what it needs). */
static void load(const gj_game *g, levels_bench *b)
{
    gj_error e;
    ck_assert_msg(levels_bench_load(g, LEVELS_BENCH_PUZZLES, b, &e) == 0, "%s: %s", g->name,
                  e.message);
}

/* How many of g's levels miss their target by more than TOLERANCE on b. */
static int misses(const gj_game *g, const levels_bench *b)
{
    int missed = 0;
    for (int level = 1; level <= ENGINE_LEVELS; level++) {
        double chance = levels_bench_chance(g, b, level);
        double target = engine_level_target[level - 1] / 100.0;
        if (chance < target - TOLERANCE || chance > target + TOLERANCE) {
            fprintf(stderr, "%s: level %d (%s) solves %.3f, target %.2f\n", g->name, level,
                    engine_level_name[level - 1], chance, target);
            missed++;
        }
    }
    return missed;
}

/* Level k's wins and losses against k - 1 in g over b's positions, each
 * played with either level first. */
static void lead(const gj_game *g, const levels_bench *b, int k, int *won, int *lost)
{
    *won = *lost = 0;
    for (long s = 0; s < b->count; s++)
        for (int swap = 0; swap < 2; swap++) {
            gj_error e;
            int result;
            ck_assert_msg(levels_play(g, b->position[s], swap ? k - 1 : k, swap ? k : k - 1, s,
                                      &result, &e) == 0,
                          "%s: %s", g->name, e.message);
            if (swap)
                result = -result;
            *won += result > 0;
            *lost += result < 0;
        }
}

START_TEST(test_levels_meet_the_targets)
{
    size_t n;
    const gj_game *const *g = games_all(&n);
    for (size_t k = 0; k < n; k++) {
        levels_bench b;
        load(g[k], &b);
        ck_assert_int_eq(misses(g[k], &b), 0);
        /* The benchmark is what it claims: one solving move among 4 or more. */
        for (long p = 0; p < b.count; p++) {
            ck_assert_int_ge(b.n[p], 4);
            ck_assert_int_eq(b.q[p][0], 0);
            ck_assert_int_gt(b.q[p][1], 0);
        }
        levels_bench_free(&b);
    }
}
END_TEST

START_TEST(test_each_level_beats_the_one_below)
{
    size_t n;
    const gj_game *const *g = games_all(&n);
    for (size_t k = 0; k < n; k++) {
        levels_bench b;
        load(g[k], &b);
        for (int level = 2; level <= ENGINE_LEVELS; level++) {
            int won, lost;
            lead(g[k], &b, level, &won, &lost);
            ck_assert_msg(won > lost, "%s: level %d won %d, lost %d against level %d", g[k]->name,
                          level, won, lost, level - 1);
        }
        levels_bench_free(&b);
    }
}
END_TEST

START_TEST(test_the_checks_can_fail)
{
    /* With every ratio at 1 (all moves alike but for their rank) the
     * levels below the top are one player: they miss their targets, and
     * level 3 cannot beat level 2 by more than chance does. */
    gj_game flat = game_prime_chocolate;
    for (int l = 0; l < GJ_TUNED_LEVELS; l++)
        flat.level_ratio[l] = 65536;
    levels_bench b;
    load(&game_prime_chocolate, &b);
    ck_assert_int_ge(misses(&flat, &b), 3);
    int won, lost;
    lead(&flat, &b, 3, &won, &lost);
    ck_assert_int_lt(won - lost, (won + lost) / 10);
    levels_bench_free(&b);
}
END_TEST

int main(void)
{
    const harness_case cases[] = {
        {"levels", test_the_checks_can_fail},
    };
    const harness_case large[] = {
        {"levels", test_levels_meet_the_targets},
        {"levels", test_each_level_beats_the_one_below},
    };
    Suite *s = harness_suite("levels", cases, sizeof cases / sizeof cases[0], 120);
    harness_add_tagged(s, large, sizeof large / sizeof large[0], 120, HARNESS_LARGE);
    return harness_main(s);
}
