/* matrix_game_generate.c - POST /generate/matrix-game: random matrices.
 *
 * Knobs: "n" (default 4, 3..the limit in force and MG_GEN_MAX_N) and "k"
 * (1..n-2; absent: drawn anew for every candidate).  The matrix is a
 * uniform random permutation of 1..n^2.  At the opening M, to move, always
 * wins (the largest value is a winning start), so "outcome": "lose" needs a
 * position in play: "winning_moves" puts the token on a random cell, G to
 * move, and asks /analyze.
 *
 * The most moves such a position has (mg_gen_most): the cells farther than
 * k from the token, fewest near a corner, where the cells within k are the
 * (k + 1)(k + 2) / 2 with i + j <= k (k <= n - 2 keeps them on the board):
 * n^2 - (k + 1)(k + 2) / 2, reached by a token in a corner; with k drawn
 * per candidate, k = 1 gives the most, n^2 - 3. */
#include <stdio.h>
#include <string.h>

#include "matrix_game.h"
#include "generate.h"

#define MG_GEN_MAX_N 64

typedef struct knobs {
    long n, k; /* k 0: drawn per candidate */
} knobs;

const char *const matrix_game_generate_knobs[] = {"n", "k", NULL};

/* The limit in force: n (matrix_game.c's only one). */
static int read_knobs(gen_request *req, const long *limits, void *out, gj_error *e)
{
    knobs *k = out;
    char limit[48];
    k->n = gen_cap(4, limits[0]); /* the default fits any limit in force */
    k->k = 0;
    snprintf(limit, sizeof limit, "matrix-game.n %ld or %d", limits[0], MG_GEN_MAX_N);
    if (gen_long(req->root, "n", 3, gen_cap(limits[0], MG_GEN_MAX_N), limit, &k->n, e) != 0 ||
        gen_long(req->root, "k", 1, k->n - 2, NULL, &k->k, e) != 0)
        return -1;
    if (!req->in_play && req->outcome == GEN_LOSE)
        return gj_fail_field(e, "outcome",
                             "M always wins the opening (she starts on the largest value); ask "
                             "for \"winning_moves\": 0 to get a lost position in play");
    req->most_moves = mg_gen_most(k->n, k->k ? k->k : 1);
    return 0;
}

long mg_gen_most(long n, long k)
{
    return n * n - (k + 1) * (k + 2) / 2;
}

/* One random permutation matrix, k and (in play) token. */
static int sample(gj_rng *r, const gen_request *req, const void *in, gen_candidate *c)
{
    const knobs *k = in;
    long n = k->n, cells = n * n;
    int value[MG_GEN_MAX_N * MG_GEN_MAX_N];
    for (long i = 0; i < cells; i++)
        value[i] = (int)i + 1;
    for (long i = cells - 1; i > 0; i--) {
        long j = (long)gj_rng_below(r, (uint64_t)i + 1);
        int t = value[i];
        value[i] = value[j];
        value[j] = t;
    }
    long kk = k->k ? k->k : gj_rng_range(r, 1, n - 2);
    buf_put_long(&c->input, n);
    buf_putc(&c->input, ' ');
    buf_put_long(&c->input, kk);
    buf_puts(&c->position, "{\"k\":");
    buf_put_long(&c->position, kk);
    buf_puts(&c->position, ",\"matrix\":[");
    for (long i = 0; i < n; i++) {
        buf_puts(&c->position, i ? ",[" : "[");
        buf_putc(&c->input, '\n');
        for (long j = 0; j < n; j++) {
            if (j) {
                buf_putc(&c->position, ',');
                buf_putc(&c->input, ' ');
            }
            buf_put_long(&c->position, value[i * n + j]);
            buf_put_long(&c->input, value[i * n + j]);
        }
        buf_putc(&c->position, ']');
    }
    buf_putc(&c->input, '\n');
    buf_putc(&c->position, ']');
    if (req->in_play) {
        long t = (long)gj_rng_below(r, (uint64_t)cells);
        buf_puts(&c->position, ",\"token\":[");
        buf_put_long(&c->position, t / n + 1);
        buf_putc(&c->position, ',');
        buf_put_long(&c->position, t % n + 1);
        buf_putc(&c->position, ']');
    }
    buf_putc(&c->position, '}');
    return 0;
}

/* The opening: M wins iff some start cell is hers, which is always so. */
static int score(const json_t *answer, long long *out)
{
    const json_t *rows = json_object_get(answer, "outcomes");
    size_t i;
    const json_t *row;
    if (!json_is_array(rows))
        return -1;
    *out = -1;
    json_array_foreach(rows, i, row)
    {
        const char *s = json_string_value(row);
        if (s == NULL)
            return -1;
        if (strchr(s, 'M') != NULL)
            *out = 1;
    }
    return 0;
}

static const gen_spec spec = {
    .game = &game_matrix_game,
    .knobs = matrix_game_generate_knobs,
    .read = read_knobs,
    .sample = sample,
    .score = score,
};

int matrix_game_generate(const char *buf, size_t len, const long *limits, gj_buf *out, gj_error *e)
{
    knobs k;
    return gen_run(&spec, buf, len, limits, &k, out, e);
}

int matrix_game_generate_most(const char *buf, size_t len, const long *limits, long long *most,
                              int *scored, gj_error *e)
{
    knobs k;
    return gen_most(&spec, buf, len, limits, &k, most, scored, e);
}

int matrix_game_generate_keep(const char *buf, size_t len, const long *limits, gen_kept *kept,
                              gj_error *e)
{
    knobs k;
    return gen_keep(&spec, buf, len, limits, &k, kept, e);
}
