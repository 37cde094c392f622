/* mg_json_rate.c - matrix-game's JSON body parsed through jansson's tree
 * (jin_load_object, then mg_from_json: the path before json_pull) against
 * the chunk-fed reader parse_json now uses, in one process on one body.
 *
 *   mg_json_rate FILE [ROUNDS]
 *
 * Each round times the tree, the reader fed the whole body and the reader
 * fed 64 KiB pieces (as a server receives them), one after the other, so
 * a noisy machine slows all three alike; prints each round and the median
 * seconds of each with the reader's ratio to the tree.  Peak memory is the
 * CLI's, through bench/measure.c. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "games.h"
#include "json_in.h"
#include "matrix_game_core.h"

enum { PIECE = 65536, MOST_ROUNDS = 64 };

/* Monotonic seconds. */
static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* qsort's order on doubles. */
static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The whole file, malloc'd, or NULL. */
static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    char *data = NULL;
    size_t cap = 0;
    *len = 0;
    for (;;) {
        if (*len == cap) {
            cap = cap ? 2 * cap : 1 << 20;
            char *more = realloc(data, cap);
            if (more == NULL)
                break;
            data = more;
        }
        size_t got = fread(data + *len, 1, cap - *len, f);
        if (got == 0)
            break;
        *len += got;
    }
    fclose(f);
    return data;
}

/* The tree's path: 0 when it gave a position. */
static int by_tree(const char *body, size_t len, const long *lim)
{
    static const char *const keys[] = {"k", "matrix", NULL};
    gj_error e;
    json_t *root = jin_load_object(body, len, keys, &e);
    mg_position *pos = root != NULL ? mg_from_json(root, lim, &e) : NULL;
    json_decref(root);
    int status = pos != NULL ? 0 : -1;
    mg_free(pos);
    return status;
}

/* The reader fed `piece` bytes at a time: 0 when it gave a position. */
static int by_reader(const char *body, size_t len, const long *lim, size_t piece)
{
    gj_error e;
    mg_json_reader *r = mg_json_open(lim, &e);
    if (r == NULL)
        return -1;
    for (size_t at = 0; at < len; at += piece) {
        if (mg_json_feed(r, body + at, len - at < piece ? len - at : piece, &e) != 0) {
            mg_json_close(r);
            return -1;
        }
    }
    mg_position *pos = mg_json_finish(r, &e);
    int status = pos != NULL ? 0 : -1;
    mg_free(pos);
    return status;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: mg_json_rate FILE [ROUNDS]\n");
        return 2;
    }
    int rounds = argc > 2 ? atoi(argv[2]) : 5;
    if (rounds < 1 || rounds > MOST_ROUNDS)
        rounds = 5;
    size_t len;
    char *body = slurp(argv[1], &len);
    if (body == NULL) {
        perror(argv[1]);
        return 1;
    }
    const long lim = 6000;
    double tree[MOST_ROUNDS], whole[MOST_ROUNDS], pieces[MOST_ROUNDS];
    for (int r = 0; r < rounds; r++) {
        double t0 = now();
        int a = by_tree(body, len, &lim);
        double t1 = now();
        int b = by_reader(body, len, &lim, len > 0 ? len : 1);
        double t2 = now();
        int c = by_reader(body, len, &lim, PIECE);
        double t3 = now();
        if (a != 0 || b != 0 || c != 0) {
            fprintf(stderr, "mg_json_rate: not a position (tree %d, reader %d, %d)\n", a, b, c);
            return 1;
        }
        tree[r] = t1 - t0;
        whole[r] = t2 - t1;
        pieces[r] = t3 - t2;
        printf("round %d: tree %.3f s, reader %.3f s, in 64 KiB pieces %.3f s\n", r + 1, tree[r],
               whole[r], pieces[r]);
    }
    qsort(tree, (size_t)rounds, sizeof *tree, by_value);
    qsort(whole, (size_t)rounds, sizeof *whole, by_value);
    qsort(pieces, (size_t)rounds, sizeof *pieces, by_value);
    double t = tree[rounds / 2], w = whole[rounds / 2], p = pieces[rounds / 2];
    printf("median of %d, %zu bytes: tree %.3f s, reader %.3f s (%.2fx), pieces %.3f s (%.2fx)\n",
           rounds, len, t, w, w / t, p, p / t);
    free(body);
    return 0;
}
