/* staircase_chess_generate.c - POST /generate/staircase-chess: random
 * boards.
 *
 * Knobs: "rows", "cols" (default 3 x 3, within the limits in force, rows +
 * cols within the size limit), "values" ([lo, hi], default [0, 9], within
 * 0..100000: every entry of A and B is drawn from it) and "score" ([lo, hi]:
 * the answer's score, black's margin at the opening or the mover's best
 * margin in play, must lie in it).  "outcome" is the sign of that score
 * ("win" above 0, "lose" below; a draw is neither).  In play
 * ("winning_moves", which counts the moves reaching the best score: at
 * least 1, at most one per row and column) the /analyze body gets a random
 * staircase "profile" that leaves a cell free.
 *
 * The most moves such a position has (sc_gen_most): a stone goes at the end
 * of a row that is shorter than the row above it (or the top row) and than
 * cols, so one per distinct row length: min(rows, cols), reached by the
 * profile cols-1, cols-2, ... (then 0s).  With one value every move scores
 * the same: no position has a best move and one that is not. */
#include <stdio.h>

#include "staircase_chess.h"
#include "generate.h"

#define SC_GEN_MAX_VALUE 100000
#define SC_GEN_MAX_SCORE 1000000000000L
#define SC_GEN_MAX_SIDE  26

typedef struct knobs {
    long rows, cols;
    long values[2];
} knobs;

const char *const staircase_chess_generate_knobs[] = {"rows", "cols", "values", "score", NULL};

/* The score range, checked against the outcome asked for. */
static int read_score(gen_request *req, gj_error *e)
{
    long s[2];
    bool present;
    if (gen_pair(req->root, "score", -SC_GEN_MAX_SCORE, SC_GEN_MAX_SCORE, s, &present, e) != 0)
        return -1;
    req->has_score = present;
    req->score_lo = s[0];
    req->score_hi = s[1];
    if (present &&
        ((req->outcome == GEN_WIN && s[1] <= 0) || (req->outcome == GEN_LOSE && s[0] >= 0)))
        return gj_fail_field(e, "score",
                             "[%ld, %ld] holds no score of outcome \"%s\" (win: above 0, lose: "
                             "below 0)",
                             s[0], s[1], req->outcome == GEN_WIN ? "win" : "lose");
    return 0;
}

/* The limits in force: rows, cols, size (staircase_chess.c's order). */
static int read_knobs(gen_request *req, const long *limits, void *out, gj_error *e)
{
    knobs *k = out;
    char limit[3][48];
    bool present;
    k->rows = gen_cap(3, limits[0]); /* the defaults fit any limits in force */
    k->cols = gen_cap(3, limits[1]);
    snprintf(limit[0], sizeof limit[0], "staircase-chess.rows %ld", limits[0]);
    snprintf(limit[1], sizeof limit[1], "staircase-chess.cols %ld", limits[1]);
    if (gen_long(req->root, "rows", 1, gen_cap(limits[0], SC_GEN_MAX_SIDE), limit[0], &k->rows,
                 e) != 0 ||
        gen_long(req->root, "cols", 1, gen_cap(limits[1], SC_GEN_MAX_SIDE), limit[1], &k->cols,
                 e) != 0)
        return -1;
    if (json_object_get(req->root, "cols") == NULL)
        k->cols = gen_cap(k->cols, limits[2] - k->rows);
    if (k->cols < 1 || k->rows + k->cols > limits[2])
        return gj_fail_field(e, "cols",
                             "rows + cols = %ld is over the limit in force, staircase-chess.size "
                             "%ld",
                             k->rows + k->cols, limits[2]);
    k->values[0] = 0;
    k->values[1] = 9;
    if (gen_pair(req->root, "values", 0, SC_GEN_MAX_VALUE, k->values, &present, e) != 0 ||
        read_score(req, e) != 0)
        return -1;
    req->most_moves = sc_gen_most(k->rows, k->cols);
    if (req->winning_moves > 0 && k->values[0] == k->values[1])
        return gj_fail_field(e, "values",
                             "[%ld, %ld] holds one value, so every move scores the same: a "
                             "position with winning_moves needs two values at least",
                             k->values[0], k->values[1]);
    if (req->winning_moves == 0)
        return gj_fail_field(e, "winning_moves",
                             "0 is impossible: some move always reaches the best score");
    return 0;
}

long sc_gen_most(long rows, long cols)
{
    return rows < cols ? rows : cols;
}

/* One matrix of values drawn from k->values, as JSON and judge lines. */
static void put_matrix(gj_rng *r, const knobs *k, gen_candidate *c)
{
    buf_putc(&c->position, '[');
    for (long i = 0; i < k->rows; i++) {
        buf_puts(&c->position, i ? ",[" : "[");
        for (long j = 0; j < k->cols; j++) {
            long v = gj_rng_range(r, k->values[0], k->values[1]);
            if (j) {
                buf_putc(&c->position, ',');
                buf_putc(&c->input, ' ');
            }
            buf_put_long(&c->position, v);
            buf_put_long(&c->input, v);
        }
        buf_putc(&c->position, ']');
        buf_putc(&c->input, '\n');
    }
    buf_putc(&c->position, ']');
}

/* One random board (and staircase, in play). */
static int sample(gj_rng *r, const gen_request *req, const void *in, gen_candidate *c)
{
    const knobs *k = in;
    buf_put_long(&c->input, k->rows);
    buf_putc(&c->input, ' ');
    buf_put_long(&c->input, k->cols);
    buf_putc(&c->input, '\n');
    buf_puts(&c->position, "{\"a\":");
    put_matrix(r, k, c);
    buf_puts(&c->position, ",\"b\":");
    put_matrix(r, k, c);
    if (req->in_play) {
        long len = k->cols, stones = 0;
        buf_puts(&c->position, ",\"profile\":[");
        for (long i = 0; i < k->rows; i++) {
            len = gj_rng_range(r, 0, len);
            stones += len;
            if (i)
                buf_putc(&c->position, ',');
            buf_put_long(&c->position, len);
        }
        buf_putc(&c->position, ']');
        if (stones == k->rows * k->cols)
            return 1; /* a full board: no move left */
    }
    buf_putc(&c->position, '}');
    return 0;
}

/* Black, who moves first, minus white. */
static int score(const json_t *answer, long long *out)
{
    const json_t *v = json_object_get(answer, "score_difference");
    if (!json_is_integer(v))
        return -1;
    *out = (long long)json_integer_value(v);
    return 0;
}

static const gen_spec spec = {
    .game = &game_staircase_chess,
    .knobs = staircase_chess_generate_knobs,
    .scored = true,
    .read = read_knobs,
    .sample = sample,
    .score = score,
};

int staircase_chess_generate(const char *buf, size_t len, const long *limits, gj_buf *out,
                             gj_error *e)
{
    knobs k;
    return gen_run(&spec, buf, len, limits, &k, out, e);
}

int staircase_chess_generate_most(const char *buf, size_t len, const long *limits, long long *most,
                                  int *scored, gj_error *e)
{
    knobs k;
    return gen_most(&spec, buf, len, limits, &k, most, scored, e);
}

int staircase_chess_generate_keep(const char *buf, size_t len, const long *limits, gen_kept *kept,
                                  gj_error *e)
{
    knobs k;
    return gen_keep(&spec, buf, len, limits, &k, kept, e);
}
