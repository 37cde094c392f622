/* puzzle_rate.c - what rated puzzles cost and how hard they come, per game
 * of games.def, in process (no HTTP):
 *
 *   1. puzzle_find for seeds 0..N-1 at depth 1, 2 and 3, any difficulty:
 *      median and 90th-percentile time, and how many were found within the
 *      budget (the rest are 422);
 *   2. the same for each band (easy, medium, hard) at depth 1 and 2:
 *      acceptance (found / asked) and median time;
 *   3. the difficulty distribution of the first N seeds' depth-1 puzzles:
 *      tenths of [0, 1] and each band's share.
 *
 *   build/bench/puzzle_rate [N] [BUDGET_MS] [M]   (defaults 200, 2000 and 5N)
 *
 * M is the number of seeds of table 3; N 0 prints table 3 alone.
 *
 * Prints Markdown tables for bench/results.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "games.h"
#include "generate.h"
#include "puzzle_search.h"

/* Order of doubles, for the percentiles. */
static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The q-quantile (0..1) of n values, sorted in place; 0 for none. */
static double quantile(double *v, int n, double q)
{
    if (n == 0)
        return 0;
    qsort(v, (size_t)n, sizeof v[0], cmp_double);
    return v[(int)(q * (n - 1) + 0.5)];
}

/* Monotonic milliseconds. */
static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* One puzzle_find: 1 found (its difficulty in *difficulty), 0 not; its time
 * in *ms. */
static int one(const gj_game *g, int seed, int depth, const char *band, long budget, double *ms,
               double *difficulty)
{
    long limits[GEN_NLIMITS];
    game_default_limits(g, limits);
    limits[GEN_LIMIT_BUDGET] = budget;
    json_t *params =
        json_pack("{s:i, s:i, s:I}", "seed", seed, "depth", depth, "budget_ms", (json_int_t)budget);
    if (band != NULL)
        json_object_set_new(params, "band", json_string(band));
    puzzle p;
    bool seeded;
    gj_error e;
    double t0 = now_ms();
    int rc = puzzle_find(g, params, limits, &p, &seeded, &e);
    *ms = now_ms() - t0;
    json_decref(params);
    if (rc != 0)
        return 0;
    *difficulty = p.difficulty;
    puzzle_free(&p);
    return 1;
}

/* Table 1: puzzles of any difficulty, seeds 0..n-1, depths 1..3 (ms and
 * diff hold n values each). */
static void any_difficulty(const gj_game *const *games, size_t ngames, int n, long budget,
                           double *ms, double *diff)
{
    printf("Puzzles of any difficulty: seeds 0..%d, budget %ld ms\n\n", n - 1, budget);
    printf("| game | depth | found | median ms | p90 ms | median difficulty |\n");
    printf("| --- | --- | --- | --- | --- | --- |\n");
    for (size_t i = 0; i < ngames; i++) {
        for (int depth = 1; depth <= 3; depth++) {
            int found = 0;
            for (int s = 0; s < n; s++) {
                double d = 0;
                found += one(games[i], s, depth, NULL, budget, &ms[s], &d);
                diff[found > 0 ? found - 1 : 0] = d;
            }
            printf("| %s | %d | %d/%d | %.1f | %.1f | %.3f |\n", games[i]->name, depth, found, n,
                   quantile(ms, n, 0.5), quantile(ms, n, 0.9), quantile(diff, found, 0.5));
            fflush(stdout);
        }
    }
}

/* Table 2: each band asked for, seeds 0..n/4-1, depths 1 and 2. */
static void bands_asked(const gj_game *const *games, size_t ngames, int n, long budget, double *ms)
{
    static const char *const bands[] = {"easy", "medium", "hard"};
    int asked = n / 4 > 0 ? n / 4 : 1;
    printf("\nBands asked for: seeds 0..%d each, budget %ld ms\n\n", asked - 1, budget);
    printf("| game | depth | easy found | medium found | hard found | median ms (easy/medium/hard) "
           "|\n");
    printf("| --- | --- | --- | --- | --- | --- |\n");
    for (size_t i = 0; i < ngames; i++) {
        for (int depth = 1; depth <= 2; depth++) {
            int found[3];
            double med[3];
            for (int b = 0; b < 3; b++) {
                found[b] = 0;
                for (int s = 0; s < asked; s++) {
                    double d;
                    found[b] += one(games[i], s, depth, bands[b], budget, &ms[s], &d);
                }
                med[b] = quantile(ms, asked, 0.5);
            }
            printf("| %s | %d | %d/%d | %d/%d | %d/%d | %.1f / %.1f / %.1f |\n", games[i]->name,
                   depth, found[0], asked, found[1], asked, found[2], asked, med[0], med[1],
                   med[2]);
            fflush(stdout);
        }
    }
}

/* Table 3: the difficulty of the depth-1 puzzles of seeds 0..many-1. */
static void distribution(const gj_game *const *games, size_t ngames, int many, long budget)
{
    printf("\nDifficulty of depth-1 puzzles, seeds 0..%d (share of the puzzles found)\n\n",
           many - 1);
    printf("| game | found | 0-.1 | .1-.2 | .2-.3 | .3-.4 | .4-.5 | .5-.6 | .6-.7 | .7-1 | easy | "
           "medium | hard |\n");
    printf("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
    for (size_t i = 0; i < ngames; i++) {
        int tenth[8] = {0}, band[3] = {0}, found = 0;
        for (int s = 0; s < many; s++) {
            double d, t;
            if (!one(games[i], s, 1, NULL, budget, &t, &d))
                continue;
            found++;
            int k = (int)(d * 10);
            tenth[k > 7 ? 7 : k]++;
            band[d >= PUZZLE_HARD_FROM ? 2 : d >= PUZZLE_MEDIUM_FROM ? 1 : 0]++;
        }
        printf("| %s | %d/%d", games[i]->name, found, many);
        for (int k = 0; k < 8; k++)
            printf(" | %.2f", found ? (double)tenth[k] / found : 0.0);
        for (int b = 0; b < 3; b++)
            printf(" | %.2f", found ? (double)band[b] / found : 0.0);
        printf(" |\n");
        fflush(stdout);
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 200;
    long budget = argc > 2 ? atol(argv[2]) : 2000;
    int many = argc > 3 ? atoi(argv[3]) : n * 5;
    size_t ngames;
    const gj_game *const *games = games_all(&ngames);
    double *ms = malloc((size_t)(n + 1) * sizeof *ms),
           *diff = malloc((size_t)(n + 1) * sizeof *diff);
    if (ms == NULL || diff == NULL)
        return 1;
    if (n > 0) {
        any_difficulty(games, ngames, n, budget, ms, diff);
        bands_asked(games, ngames, n, budget, ms);
    }
    distribution(games, ngames, many, budget);
    free(ms);
    free(diff);
    return 0;
}
