/* line_rate.c - what the perfect-play line costs per move, per game of
 * games.def, in process (no HTTP): driven on the game's parsed position
 * (game.h's gj_play) against the tests' adapter over its JSON analyze()
 * and play_move(), the way every line was walked before.  Both run in
 * the same process on the same positions, interleaved, so the ratio is
 * the figure to read on a shared machine.
 *
 *   build/bench/line_rate [ROUNDS] [MAX_LINE]   (defaults 5, 200)
 *
 * Per game and size: the moves of the line (both sides walk the same
 * line: the answers are compared byte for byte), the median milliseconds
 * of each, and adapter / parsed.  Then per game the analysis of its large
 * position with whole afters (the default 100 moves listed): written from
 * the parsed position (after.h's after_write_answer) against the analysis
 * with diffs read back as JSON and each listed move played on it
 * (after_put_answer, the way /analyze wrote them before), the answers
 * compared byte for byte.  Then lines the adapter makes slow: a 2000 x
 * 2000 matrix to its cycle (the adapter not timed past ADAPTER_BYTES) and
 * a plain Nim line of LINE_MAX_LIMIT moves.  Puzzles need the game's own
 * gj_play (the generator hands its kept candidate over parsed), so their
 * search is measured by bench/puzzle_rate --search, build against build.
 *
 * Prints Markdown tables for bench/results.md. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "after.h"
#include "games.h"
#include "generate.h"
#include "line.h"
#include "play_adapter.h"
#include "rng.h"

/* Sizes per game: the generator knobs of a small and a large position. */
typedef struct sizes {
    const char *game;
    const char *knobs[2];
} sizes;

static const sizes table[] = {
    {"matrix-game", {"{\"n\": 16}", "{\"n\": 64}"}},
    {"grid-walk", {"{\"rows\": 8, \"cols\": 8}", "{\"rows\": 30, \"cols\": 30}"}},
    {"nim-shortcuts",
     {"{\"range\": 20, \"shortcuts\": 8}", "{\"range\": 1000, \"shortcuts\": 60}"}},
    {"prime-chocolate", {"{\"n\": 6}", "{\"n\": 12}"}},
    {"staircase-chess", {"{\"rows\": 5, \"cols\": 5}", "{\"rows\": 10, \"cols\": 10}"}},
};

/* Order of doubles, for the median. */
static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Monotonic milliseconds. */
static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* A position in play of g made with `knobs` (seed 1, no constraint): an
 * /analyze body, or NULL with a note on stderr. */
static json_t *position(const gj_game *g, const char *knobs)
{
    json_t *req = json_loads(knobs, 0, NULL);
    json_object_set_new(req, "seed", json_integer(1));
    json_object_set_new(req, "min_moves", json_integer(1));     /* a position in play */
    json_object_set_new(req, "budget_ms", json_integer(60000)); /* seed 1's, not the clock's */
    json_object_set_new(req, "answer", json_false());
    char *body = json_dumps(req, JSON_COMPACT);
    json_decref(req);
    long limits[GEN_NLIMITS];
    game_default_limits(g, limits);
    limits[GEN_LIMIT_BUDGET] = 60000;
    gj_buf out;
    buf_init(&out);
    gj_error e;
    json_t *pos = NULL;
    if (g->generate(body, strlen(body), limits, &out, &e) == 0) {
        json_t *answer = json_loadb(out.data, out.len, 0, NULL);
        pos = json_incref(json_object_get(answer, "position"));
        json_decref(answer);
    } else {
        fprintf(stderr, "line_rate: %s %s: %s\n", g->name, knobs, e.message);
    }
    buf_free(&out);
    free(body);
    return pos;
}

/* The line of body through g into *out (emptied first); its time in ms,
 * or -1 with a note on stderr. */
static double run(const gj_game *g, const char *body, gj_buf *out)
{
    long limits[GJ_MAX_LIMITS];
    game_default_limits(g, limits);
    out->len = 0;
    gj_error e;
    double t0 = now_ms();
    int rc = line_analyze(g, body, strlen(body), limits, out, &e);
    double ms = now_ms() - t0;
    if (rc != 0) {
        fprintf(stderr, "line_rate: %s: %s\n", g->name, e.message);
        return -1;
    }
    return ms;
}

/* The moves of the line in answer text, or -1. */
static long line_length(const gj_buf *answer)
{
    json_t *a = json_loadb(answer->data, answer->len, 0, NULL);
    long n = a != NULL ? (long)json_array_size(json_object_get(a, "line")) : -1;
    json_decref(a);
    return n;
}

/* One row: g's line on the position of `knobs`, ROUNDS times each way. */
static void row(const gj_game *g, const char *knobs, int rounds, long max_line)
{
    json_t *pos = position(g, knobs);
    if (pos == NULL)
        return;
    json_object_set_new(pos, "line", json_true());
    json_object_set_new(pos, "max_line", json_integer(max_line));
    json_object_set_new(pos, "after", json_string("diff"));
    char *body = json_dumps(pos, JSON_COMPACT);
    json_decref(pos);
    gj_game adapted;
    if (play_adapter_game(g, &adapted) != 0)
        adapted.play = NULL;
    double *tp = calloc((size_t)rounds, sizeof *tp), *ta = calloc((size_t)rounds, sizeof *ta);
    gj_buf a, b;
    buf_init(&a);
    buf_init(&b);
    int ok = tp != NULL && ta != NULL;
    for (int r = 0; ok && r < rounds; r++) {
        tp[r] = run(g, body, &a);
        ta[r] = adapted.play != NULL ? run(&adapted, body, &b) : tp[r];
        ok = tp[r] >= 0 && ta[r] >= 0;
        if (ok && adapted.play != NULL && (a.len != b.len || memcmp(a.data, b.data, a.len) != 0)) {
            fprintf(stderr, "line_rate: %s %s: the two answers differ\n", g->name, knobs);
            ok = 0;
        }
    }
    if (ok) {
        qsort(tp, (size_t)rounds, sizeof *tp, cmp_double);
        qsort(ta, (size_t)rounds, sizeof *ta, cmp_double);
        double mp = tp[rounds / 2], ma = ta[rounds / 2];
        printf("| %s | `%s` | %zu | %ld | %.2f |", g->name, knobs, strlen(body), line_length(&a),
               mp);
        if (adapted.play != NULL)
            printf(" %.2f | %.1fx |\n", ma, mp > 0 ? ma / mp : 0);
        else
            printf(" - | - |\n");
    }
    buf_free(&a);
    buf_free(&b);
    free(tp);
    free(ta);
    free(body);
}

/* A random n x n permutation matrix with k = 1 (splitmix64 from a fixed
 * seed): the size the issue asks a line of, which the generator's n <= 64
 * does not reach.  JSON text to free. */
static char *big_matrix(long n)
{
    json_t *rows = json_array();
    uint32_t *v = malloc((size_t)(n * n) * sizeof *v);
    gj_rng r;
    gj_rng_seed(&r, 2000);
    for (long i = 0; i < n * n; i++)
        v[i] = (uint32_t)i + 1;
    for (long i = n * n - 1; i > 0; i--) {
        long j = (long)gj_rng_below(&r, (uint64_t)i + 1);
        uint32_t t = v[i];
        v[i] = v[j];
        v[j] = t;
    }
    for (long i = 0; i < n; i++) {
        json_t *row = json_array();
        for (long j = 0; j < n; j++)
            json_array_append_new(row, json_integer(v[i * n + j]));
        json_array_append_new(rows, row);
    }
    free(v);
    json_t *req = json_pack("{s:i, s:o}", "k", 1, "matrix", rows);
    char *text = json_dumps(req, JSON_COMPACT);
    json_decref(req);
    return text;
}

/* The most bytes of JSON text the adapter is given to re-read for one
 * line of long_row (its position's size times the moves): past it the
 * adapter, which reads the whole position again at every move, is not
 * timed.  64 MiB, the byte bound the line held such a game to. */
#define ADAPTER_BYTES (64L << 20)

/* One row of a body built here: the parsed position's moves and median
 * ms, and the adapter's where its re-reading stays under ADAPTER_BYTES
 * ("not timed" where it does not). */
static void long_row(const gj_game *g, const char *what, const char *position, int rounds,
                     long max_line)
{
    json_t *pos = json_loads(position, 0, NULL);
    json_object_set_new(pos, "line", json_true());
    json_object_set_new(pos, "max_line", json_integer(max_line));
    json_object_set_new(pos, "after", json_string("diff"));
    char *body = json_dumps(pos, JSON_COMPACT);
    json_decref(pos);
    gj_game adapted;
    if (play_adapter_game(g, &adapted) != 0)
        adapted.play = NULL;
    double *tp = calloc((size_t)rounds, sizeof *tp), *ta = calloc((size_t)rounds, sizeof *ta);
    gj_buf a, b;
    buf_init(&a);
    buf_init(&b);
    int ok = tp != NULL && ta != NULL;
    int refused = adapted.play == NULL || (long)strlen(body) > ADAPTER_BYTES / max_line;
    for (int r = 0; ok && r < rounds; r++) {
        ok = (tp[r] = run(g, body, &a)) >= 0;
        if (ok && !refused)
            refused = (ta[r] = run(&adapted, body, &b)) < 0;
    }
    if (ok) {
        qsort(tp, (size_t)rounds, sizeof *tp, cmp_double);
        qsort(ta, (size_t)rounds, sizeof *ta, cmp_double);
        printf("| %s | %s | %zu | %ld | %.2f |", g->name, what, strlen(body), line_length(&a),
               tp[rounds / 2]);
        if (refused)
            printf(" not timed (%ld MiB to re-read) | - |\n",
                   (long)(strlen(body) * (size_t)max_line >> 20));
        else
            printf(" %.2f | %.1fx |\n", ta[rounds / 2], ta[rounds / 2] / tp[rounds / 2]);
    }
    buf_free(&a);
    buf_free(&b);
    free(tp);
    free(ta);
    free(body);
}

/* The analysis with whole afters of body (an /analyze request of g
 * without "after") the way it was made before after_write_answer: the
 * answer with diffs, read back as JSON, each listed move played with the
 * game's play_move (after_put_answer), into *out.  Its ms, or -1. */
static double whole_by_text(const gj_game *g, const char *body, gj_buf *out)
{
    json_t *req = json_loads(body, 0, NULL);
    json_object_set_new(req, "after", json_string("diff"));
    char *diff = json_dumps(req, JSON_COMPACT);
    json_object_del(req, "after");
    long limits[GJ_MAX_LIMITS];
    game_default_limits(g, limits);
    gj_buf text;
    buf_init(&text);
    out->len = 0;
    gj_error e;
    double t0 = now_ms();
    int rc = line_analyze(g, diff, strlen(diff), limits, &text, &e);
    json_t *answer = rc == 0 ? json_loadb(text.data, text.len, 0, NULL) : NULL;
    if (answer != NULL) {
        after_writer w;
        after_init(&w, g, 1);
        rc = after_put_answer(&w, req, answer, out, &e);
        after_free(&w);
    }
    double ms = now_ms() - t0;
    json_decref(answer);
    json_decref(req);
    buf_free(&text);
    free(diff);
    return rc == 0 && answer != NULL ? ms : -1;
}

/* One row of the whole afters' table: g's large position of `knobs`, its
 * default 100 moves listed with whole afters, ROUNDS times each way,
 * interleaved, the answers compared byte for byte. */
static void whole_row(const gj_game *g, const char *knobs, int rounds)
{
    json_t *pos = position(g, knobs);
    if (pos == NULL)
        return;
    char *body = json_dumps(pos, JSON_COMPACT);
    json_decref(pos);
    double *tp = calloc((size_t)rounds, sizeof *tp), *tt = calloc((size_t)rounds, sizeof *tt);
    gj_buf a, b;
    buf_init(&a);
    buf_init(&b);
    int ok = tp != NULL && tt != NULL;
    for (int r = 0; ok && r < rounds; r++) {
        tp[r] = run(g, body, &a);
        tt[r] = whole_by_text(g, body, &b);
        ok = tp[r] >= 0 && tt[r] >= 0;
        if (ok && (a.len != b.len || memcmp(a.data, b.data, a.len) != 0)) {
            fprintf(stderr, "line_rate: %s %s: the whole answers differ\n", g->name, knobs);
            ok = 0;
        }
    }
    if (ok) {
        qsort(tp, (size_t)rounds, sizeof *tp, cmp_double);
        qsort(tt, (size_t)rounds, sizeof *tt, cmp_double);
        double mp = tp[rounds / 2], mt = tt[rounds / 2];
        printf("| %s | `%s` | %zu | %zu | %.2f | %.2f | %.1fx |\n", g->name, knobs, strlen(body),
               a.len, mp, mt, mp > 0 ? mt / mp : 0);
    }
    buf_free(&a);
    buf_free(&b);
    free(tp);
    free(tt);
    free(body);
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 5;
    long max_line = argc > 2 ? atol(argv[2]) : 200;
    if (rounds < 1 || max_line < 1 || max_line > LINE_MAX_LIMIT) {
        fprintf(stderr, "usage: line_rate [ROUNDS >= 1] [MAX_LINE 1..%d]\n", LINE_MAX_LIMIT);
        return 2;
    }
    printf("| game | knobs | body bytes | line moves | parsed ms | adapter ms | adapter / parsed "
           "|\n| --- | --- | ---: | ---: | ---: | ---: | ---: |\n");
    size_t count;
    const gj_game *const *all = games_all(&count);
    for (size_t i = 0; i < count; i++)
        for (size_t k = 0; k < sizeof table / sizeof table[0]; k++)
            if (strcmp(table[k].game, all[i]->name) == 0)
                for (int s = 0; s < 2; s++)
                    row(all[i], table[k].knobs[s], rounds, max_line);
    /* Whole afters: the analysis written from the parsed position against
     * the analysis text read back and each move played on it. */
    printf("\n| game | knobs | body bytes | answer bytes | from the position ms | "
           "through the text ms | text / position |\n"
           "| --- | --- | ---: | ---: | ---: | ---: | ---: |\n");
    for (size_t i = 0; i < count; i++)
        for (size_t k = 0; k < sizeof table / sizeof table[0]; k++)
            if (strcmp(table[k].game, all[i]->name) == 0)
                whole_row(all[i], table[k].knobs[1], rounds);
    printf("\n| game | position | body bytes | line moves | parsed ms | adapter ms | "
           "adapter / parsed |\n| --- | --- | ---: | ---: | ---: | ---: | ---: |\n");
    /* Long lines: to their cycle, or LINE_MAX_LIMIT moves. */
    for (size_t i = 0; i < count; i++) {
        if (strcmp(all[i]->name, "matrix-game") == 0) {
            char *m = big_matrix(2000);
            long_row(all[i], "2000 x 2000, k = 1, no token", m, 1, LINE_MAX_LIMIT);
            free(m);
        } else if (strcmp(all[i]->name, "nim-shortcuts") == 0) {
            long_row(all[i], "heaps [10^6, 10^6], no shortcut",
                     "{\"shortcuts\": [], \"heaps\": [1000000, 1000000]}", rounds, LINE_MAX_LIMIT);
        }
    }
    return 0;
}
