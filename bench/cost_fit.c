/* cost_fit.c - a game's cost estimate (game.h cost_us) against its solve
 * time, to check and fit the models beside each game's cost_us.
 *
 *   cost_fit GAME RUNS FILE...
 *
 * Each FILE is parsed with every limit at its largest, then solved RUNS
 * times (a fresh parse each time: solve fills the position), and one line
 * is printed per file: name, the estimate in us, the median solve in us,
 * and measured / estimate (a conservative model keeps it below 1). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "games.h"

/* Monotonic microseconds. */
static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

/* qsort order for doubles. */
static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The whole of file `path` into a NUL-ended buffer; NULL on failure. */
static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    size_t got;
    while (buf != NULL && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            char *p = realloc(buf, 2 * cap + 1);
            if (p == NULL)
                free(buf);
            buf = p;
            cap *= 2;
        }
    }
    fclose(f);
    if (buf != NULL)
        buf[n] = '\0';
    *len = n;
    return buf;
}

/* Parse buf as judge text with the game's largest limits: the position or NULL. */
static void *parse(const gj_game *g, const char *buf, size_t len)
{
    long lim[GJ_MAX_LIMITS];
    for (int i = 0; i < g->nlimits; i++)
        lim[i] = g->limits[i].max;
    gj_error e;
    gj_error_clear(&e);
    void *pos = g->parse_text(buf, len, lim, &e);
    if (pos == NULL)
        fprintf(stderr, "cost_fit: %s\n", e.message);
    return pos;
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: cost_fit GAME RUNS FILE...\n");
        return 2;
    }
    const gj_game *g = games_find(argv[1], strlen(argv[1]));
    int runs = atoi(argv[2]);
    if (g == NULL || g->cost_us == NULL || runs < 1 || runs > 99) {
        fprintf(stderr, "cost_fit: unknown game, no cost model, or bad RUNS\n");
        return 2;
    }
    for (int f = 3; f < argc; f++) {
        size_t len;
        char *buf = slurp(argv[f], &len);
        double t[99], estimate = 0;
        int ok = buf != NULL;
        for (int r = 0; ok && r < runs; r++) {
            void *pos = parse(g, buf, len);
            gj_error e;
            ok = pos != NULL;
            if (!ok)
                break;
            estimate = g->cost_us(pos);
            double start = now_us();
            ok = g->solve(pos, &e) == 0;
            t[r] = now_us() - start;
            g->free_position(pos);
        }
        free(buf);
        if (!ok) {
            fprintf(stderr, "cost_fit: %s failed\n", argv[f]);
            return 1;
        }
        qsort(t, (size_t)runs, sizeof t[0], by_value);
        const char *name = strrchr(argv[f], '/');
        printf("%s %.1f %.1f %.3f\n", name ? name + 1 : argv[f], estimate, t[runs / 2],
               t[runs / 2] / estimate);
    }
    return 0;
}
