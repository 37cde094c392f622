/* puzzle_rate.c - what rated puzzles cost, how hard they come and what
 * themes they carry, per game of games.def, in process (no HTTP):
 *
 *   1. puzzle_find for seeds 0..N-1 at every depth the game serves, with
 *      no band (the default knobs) and with each band asked: how many were
 *      found within the budget, median and 90th-percentile time;
 *   2. the difficulty of the default puzzles (no band) per depth: tenths
 *      of [0, 1], each band's share and the share of the commonest value;
 *   3. the themes' shares among those puzzles;
 *   4. with --search, instead: the total time of puzzle_find at depth 1
 *      and 2 for seeds 0..N-1, each bounded by SEARCH_TRIES candidates
 *      (not the clock), with a hash of the ids found, so two builds run
 *      one after the other compare by the ratio and find the same puzzles;
 *   5. with --calibrate, instead: the finder's miss chance at the 5th,
 *      15th, ..., 95th percentiles of the default puzzles of each depth
 *      (other seeds than tables 2 and 3's), as the gj_game.puzzle_scale
 *      rows the games' registry entries hold.
 *
 *   build/bench/puzzle_rate [N] [BUDGET_MS] [M]   (defaults 100, 2000, 1000)
 *   build/bench/puzzle_rate --search [N]   (default 10)
 *   build/bench/puzzle_rate --calibrate [M] [BUDGET_MS]
 *
 * M is the number of seeds of tables 2-4; PUZZLE_RATE_GAMES (names
 * separated by commas) keeps only those games.  Prints Markdown tables
 * for bench/results.md. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "games.h"
#include "generate.h"
#include "puzzle_search.h"
#include "puzzle_themes.h"

/* The most themes a vocabulary holds: the general ones and 16 motifs. */
#define MAX_THEMES 32

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

/* One puzzle_find of g for seed, depth and band (NULL: none): 1 found, with
 * the puzzle in *p (the caller frees it), 0 not; its time in *ms. */
static int one(const gj_game *g, int seed, int depth, const char *band, long budget, double *ms,
               puzzle *p)
{
    long limits[GEN_NLIMITS];
    game_default_limits(g, limits);
    limits[GEN_LIMIT_BUDGET] = budget;
    json_t *params =
        json_pack("{s:i, s:i, s:I}", "seed", seed, "depth", depth, "budget_ms", (json_int_t)budget);
    if (band != NULL)
        json_object_set_new(params, "band", json_string(band));
    bool seeded;
    gj_error e;
    gj_error_clear(&e);
    double t0 = now_ms();
    int rc = puzzle_find(g, params, limits, p, &seeded, &e);
    *ms = now_ms() - t0;
    json_decref(params);
    return rc == 0;
}

/* Table 1: found, median and p90 ms per band asked and depth, seeds 0..n-1. */
static void timing(const gj_game *const *games, size_t ngames, int n, long budget, double *ms)
{
    static const char *const bands[] = {NULL, "easy", "medium", "hard"};
    printf("Puzzles found: seeds 0..%d per row, budget %ld ms\n\n", n - 1, budget);
    printf("| game | band | depth | found | median ms | p90 ms |\n");
    printf("| --- | --- | --- | --- | --- | --- |\n");
    for (size_t i = 0; i < ngames; i++)
        for (int b = 0; b < 4; b++)
            for (int depth = 1; depth <= puzzle_depth_max(games[i]); depth++) {
                int found = 0;
                for (int s = 0; s < n; s++) {
                    puzzle p;
                    if (one(games[i], s, depth, bands[b], budget, &ms[s], &p)) {
                        found++;
                        puzzle_free(&p);
                    }
                }
                printf("| %s | %s | %d | %d/%d | %.1f | %.1f |\n", games[i]->name,
                       bands[b] != NULL ? bands[b] : "(none)", depth, found, n,
                       quantile(ms, n, 0.5), quantile(ms, n, 0.9));
                fflush(stdout);
            }
}

/* The candidates one --search may try: a count ends a search that finds
 * nothing (prime-chocolate has no depth-2 puzzle), so its time does not
 * hang on the machine's speed. */
#define SEARCH_TRIES 200

/* The --search table: per game and depth, puzzle_find's total ms over seeds 0..n-1
 * (SEARCH_TRIES candidates each, a minute's budget), how many were found
 * and an FNV-1a hash of their ids. */
static void search_times(const gj_game *const *games, size_t ngames, int n)
{
    printf("| game | depth | found | total ms | ids' hash |\n| --- | ---: | ---: | ---: | --- |\n");
    for (size_t i = 0; i < ngames; i++)
        for (int depth = 1; depth <= 2; depth++) {
            long limits[GEN_NLIMITS];
            game_default_limits(games[i], limits);
            limits[GEN_LIMIT_BUDGET] = 60000;
            int found = 0;
            uint64_t hash = 1469598103934665603ull;
            double t0 = now_ms();
            for (int s = 0; s < n; s++) {
                json_t *params = json_pack("{s:i, s:i, s:i, s:i}", "seed", s, "depth", depth,
                                           "budget_ms", 60000, "tries", SEARCH_TRIES);
                puzzle p;
                bool seeded;
                gj_error e;
                gj_error_clear(&e);
                if (params != NULL && puzzle_find(games[i], params, limits, &p, &seeded, &e) == 0) {
                    found++;
                    for (const char *c = p.id; *c != '\0'; c++)
                        hash = (hash ^ (unsigned char)*c) * 1099511628211ull;
                    puzzle_free(&p);
                }
                json_decref(params);
            }
            printf("| %s | %d | %d/%d | %.1f | %016llx |\n", games[i]->name, depth, found, n,
                   now_ms() - t0, (unsigned long long)hash);
            fflush(stdout);
        }
}

/* The seeds the scales are calibrated on start here, apart from the seeds
 * 0..M-1 that tables 2 and 3 measure, so those tables test the scale on
 * puzzles it was not fitted to. */
#define CALIBRATION_SEEDS 1000000

/* The default puzzles of g at depth for seeds first..first+many-1: their
 * miss chances, difficulties and themes into the arrays; the count found. */
static int sample(const gj_game *g, int depth, int first, int many, long budget, double *miss,
                  double *diff, unsigned long *themes)
{
    int found = 0;
    for (int s = first; s < first + many; s++) {
        puzzle p;
        double ms;
        if (!one(g, s, depth, NULL, budget, &ms, &p))
            continue;
        miss[found] = p.miss;
        diff[found] = p.difficulty;
        themes[found] = p.themes;
        found++;
        puzzle_free(&p);
    }
    return found;
}

/* Tables 2 and 3: the default puzzles' difficulty and themes per depth. */
static void distribution(const gj_game *const *games, size_t ngames, int many, long budget,
                         double *miss, double *diff, unsigned long *themes)
{
    printf("\nDifficulty of the default puzzles (no band), seeds 0..%d per row: share of the "
           "puzzles found per tenth, per band, and of the commonest value\n\n",
           many - 1);
    printf("| game | depth | found |");
    for (int k = 0; k < 10; k++)
        printf(" .%d |", k);
    printf(" easy | medium | hard | top value |\n| --- | --- | --- |");
    for (int k = 0; k < 14; k++)
        printf(" --- |");
    printf("\n");
    for (size_t i = 0; i < ngames; i++) {
        for (int depth = 1; depth <= puzzle_depth_max(games[i]); depth++) {
            int found = sample(games[i], depth, 0, many, budget, miss, diff, themes);
            int tenth[10] = {0}, band[3] = {0};
            for (int j = 0; j < found; j++) {
                int k = (int)(diff[j] * 10);
                tenth[k > 9 ? 9 : k]++;
                band[diff[j] >= PUZZLE_HARD_FROM ? 2 : diff[j] >= PUZZLE_MEDIUM_FROM ? 1 : 0]++;
            }
            qsort(diff, (size_t)found, sizeof diff[0], cmp_double);
            int top = 0;
            for (int j = 0, run = 0; j < found; j++) {
                run = j > 0 && diff[j] == diff[j - 1] ? run + 1 : 1;
                top = run > top ? run : top;
            }
            printf("| %s | %d | %d/%d |", games[i]->name, depth, found, many);
            for (int k = 0; k < 10; k++)
                printf(" %.2f |", found ? (double)tenth[k] / found : 0.0);
            for (int b = 0; b < 3; b++)
                printf(" %.2f |", found ? (double)band[b] / found : 0.0);
            printf(" %.3f |\n", found ? (double)top / found : 0.0);
            printf("<!-- %s depth %d themes:", games[i]->name, depth);
            for (int t = 0; puzzle_theme_at(games[i], t) != NULL && t < MAX_THEMES; t++) {
                int with = 0;
                for (int j = 0; j < found; j++)
                    with += (int)(themes[j] >> t & 1);
                printf(" %s %.2f", puzzle_theme_at(games[i], t)->name,
                       found ? (double)with / found : 0.0);
            }
            printf(" -->\n");
            fflush(stdout);
        }
    }
}

/* Table 5: each game's scale rows (gj_game.puzzle_scale) from its default
 * puzzles' miss chances. */
static void calibrate(const gj_game *const *games, size_t ngames, int many, long budget,
                      double *miss, double *diff, unsigned long *themes)
{
    for (size_t i = 0; i < ngames; i++) {
        printf("%s: .puzzle_scale = {", games[i]->name);
        for (int depth = 1; depth <= puzzle_depth_max(games[i]); depth++) {
            int found =
                sample(games[i], depth, CALIBRATION_SEEDS, many, budget, miss, diff, themes);
            printf("%s{", depth > 1 ? ",\n    " : "");
            for (int k = 0; k < GJ_SCALE_POINTS; k++)
                printf("%s%.4f", k ? ", " : "",
                       quantile(miss, found, (2 * k + 1) / (2.0 * GJ_SCALE_POINTS)));
            printf("} /* %d of %d seeds */", found, many);
            fflush(stdout);
        }
        printf("},\n");
    }
}

int main(int argc, char **argv)
{
    bool cal = argc > 1 && strcmp(argv[1], "--calibrate") == 0;
    bool search = argc > 1 && strcmp(argv[1], "--search") == 0;
    int n = 100, many = 1000;
    long budget = 2000;
    if (cal) {
        many = argc > 2 ? atoi(argv[2]) : many;
        budget = argc > 3 ? atol(argv[3]) : budget;
    } else {
        n = argc > 1 ? atoi(argv[1]) : n;
        budget = argc > 2 ? atol(argv[2]) : budget;
        many = argc > 3 ? atoi(argv[3]) : many;
    }
    size_t all;
    const gj_game *const *every = games_all(&all);
    const gj_game *games[64];
    size_t ngames = 0;
    const char *only = getenv("PUZZLE_RATE_GAMES");
    for (size_t i = 0; i < all && ngames < sizeof games / sizeof games[0]; i++) {
        size_t len = strlen(every[i]->name);
        const char *at = only != NULL ? strstr(only, every[i]->name) : NULL;
        if (only == NULL ||
            (at != NULL && (at == only || at[-1] == ',') && (at[len] == '\0' || at[len] == ',')))
            games[ngames++] = every[i];
    }
    int most = n > many ? n : many;
    double *ms = malloc((size_t)(most + 1) * sizeof *ms),
           *miss = malloc((size_t)(most + 1) * sizeof *miss),
           *diff = malloc((size_t)(most + 1) * sizeof *diff);
    unsigned long *themes = malloc((size_t)(most + 1) * sizeof *themes);
    if (ms == NULL || miss == NULL || diff == NULL || themes == NULL)
        return 1;
    if (search) {
        search_times(games, ngames, argc > 2 ? atoi(argv[2]) : 10);
    } else if (cal) {
        calibrate(games, ngames, many, budget, miss, diff, themes);
    } else {
        if (n > 0)
            timing(games, ngames, n, budget, ms);
        distribution(games, ngames, many, budget, miss, diff, themes);
    }
    free(ms);
    free(miss);
    free(diff);
    free(themes);
    return 0;
}
