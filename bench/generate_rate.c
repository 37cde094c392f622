/* generate_rate.c - what the classic puzzle costs per game: for each game
 * of games.def, POST /generate's generator (in process, no HTTP) on
 * {"seed": s, "winning_moves": 1} for seeds 0..N-1, and on {"seed": s}
 * (an opening, usually the first candidate) as the baseline of the same
 * run.  Prints one Markdown row per game: median and mean time per puzzle,
 * the ratio to the baseline's median, candidates per puzzle, the acceptance
 * rate (puzzles / candidates) and how many seeds missed the budget (422).
 *
 *   build/bench/generate_rate [N]   (default 200) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cancel.h"
#include "games.h"
#include "generate.h"

/* Order of doubles, for the median. */
static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median of n values (sorted in place). */
static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof v[0], cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* One generate() of `req` under the default limits and a 2000 ms ceiling:
 * its time in ms into *ms, its candidate count (0 when it failed). */
static long run(const gj_game *g, const char *req, double *ms)
{
    long limits[GEN_NLIMITS];
    gj_error e;
    gj_buf out;
    game_default_limits(g, limits);
    limits[GEN_LIMIT_BUDGET] = 2000;
    buf_init(&out);
    unsigned long long t0 = gj_cancel_now_ns();
    int rc = g->generate(req, strlen(req), limits, &out, &e);
    *ms = (double)(gj_cancel_now_ns() - t0) / 1e6;
    long candidates = 0;
    if (rc == 0) {
        json_t *a = json_loadb(out.data, out.len, 0, NULL);
        candidates = (long)json_integer_value(json_object_get(a, "candidates"));
        json_decref(a);
    }
    buf_free(&out);
    return candidates;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 200;
    size_t ngames;
    const gj_game *const *games = games_all(&ngames);
    double *t = malloc(sizeof(double) * (size_t)n), *base = malloc(sizeof(double) * (size_t)n);
    if (n <= 0 || t == NULL || base == NULL)
        return 1;
    printf("| game | median ms | mean ms | x opening | candidates/puzzle | acceptance | 422 |\n");
    printf("| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n");
    for (size_t i = 0; i < ngames; i++) {
        const gj_game *g = games[i];
        long tried = 0, found = 0;
        double sum = 0;
        for (int s = 0; s < n; s++) {
            char req[96];
            snprintf(req, sizeof req, "{\"seed\": %d}", s);
            run(g, req, &base[s]);
            snprintf(req, sizeof req, "{\"seed\": %d, \"winning_moves\": 1}", s);
            long c = run(g, req, &t[s]);
            sum += t[s];
            if (c > 0) {
                found++;
                tried += c;
            }
        }
        double mt = median(t, n), mb = median(base, n);
        printf("| %s | %.3f | %.3f | %.1f | %.2f | %.1f%% | %d |\n", g->name, mt, sum / n,
               mb > 0 ? mt / mb : 0, found ? (double)tried / (double)found : 0,
               tried ? 100.0 * (double)found / (double)tried : 0, n - (int)found);
    }
    free(t);
    free(base);
    return 0;
}
