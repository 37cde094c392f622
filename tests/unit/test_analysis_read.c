/* test_analysis_read.c - an /analyze body read as it arrives with its bulk
 * member in the game's arrays (analysis_read.h) against the same body
 * parsed whole into a tree (line.h's line_prepare).
 *
 * Thousands of generated matrix-game requests, valid and not (every member
 * of the position and of the line wrong in each way it can be, unknown and
 * repeated members, broken JSON), each read both ways, the reader fed whole,
 * a byte at a time and in random pieces: both must give the same error
 * (kind, field, line, column, message) at the same step, the same
 * canonical form (the cache key and the entity tag) and the same answer,
 * byte for byte.  The tree the reader builds must hold the matrix as a
 * null: that is the memory it saves. */
#include <check.h>
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_read.h"
#include "games.h"
#include "harness.h"
#include "line.h"

static const gj_game *const game = &game_matrix_game;

/* What a generated body led to, counted: each kind must be met. */
enum {
    V_ANSWERED,  /* analysed */
    V_JSON,      /* refused as JSON (the reader's finish) */
    V_OPTION,    /* refused for a line option (prepare) */
    V_POSITION,  /* refused for "k" or "matrix" (the position's own error) */
    V_OTHER_RUN, /* refused while run for another member */
    V_NVERDICTS,
};

/* The game's default limits. */
static void default_limits(long *lim)
{
    for (int i = 0; i < GJ_MAX_LIMITS; i++)
        lim[i] = i < game->nlimits ? game->limits[i].def : 0;
}

/* One time in n. */
static int one_in(uint64_t *rng, uint64_t n)
{
    return rng_below(rng, n) == 0;
}

/* Blanks, mostly none. */
static void blanks(uint64_t *rng, gj_buf *b)
{
    static const char *const runs[] = {" ", "\n", "\t ", "\r\n  "};
    if (one_in(rng, 4))
        buf_puts(b, runs[rng_below(rng, 4)]);
}

/* An n x n matrix of 1..n^2 shuffled, with one mistake one time in odd. */
static void write_matrix(uint64_t *rng, gj_buf *b, long n, uint64_t odd)
{
    if (one_in(rng, odd * 4)) {
        static const char *const whole[] = {"null", "[]", "\"m\"", "[[1,2,3]]", "{}", "[1,2,3]"};
        buf_puts(b, whole[rng_below(rng, 6)]);
        return;
    }
    long nn = n * n;
    long *v = malloc((size_t)nn * sizeof *v);
    ck_assert_ptr_nonnull(v);
    for (long c = 0; c < nn; c++)
        v[c] = c + 1;
    for (long c = nn - 1; c > 0; c--) {
        long d = (long)rng_below(rng, (uint64_t)c + 1), t = v[c];
        v[c] = v[d];
        v[d] = t;
    }
    long bad = one_in(rng, odd) ? (long)rng_below(rng, (uint64_t)nn) : -1;
    long short_row = one_in(rng, odd * 2) ? (long)rng_below(rng, (uint64_t)n) : -1;
    buf_putc(b, '[');
    for (long i = 0; i < n; i++) {
        buf_puts(b, i > 0 ? "," : "");
        blanks(rng, b);
        if (i == short_row && one_in(rng, 3)) {
            buf_puts(b, "\"row\"");
            continue;
        }
        buf_putc(b, '[');
        long cols = i == short_row ? n - 1 : n;
        for (long j = 0; j < cols; j++) {
            if (j > 0)
                buf_putc(b, ',');
            long c = i * n + j;
            if (c == bad) {
                static const char *const odd_values[] = {"0",    "-1",  "1.5",   "\"7\"",
                                                         "null", "[1]", "99999", "1e2"};
                const char *o = odd_values[rng_below(rng, 8)];
                if (rng_below(rng, 3) == 0) /* a value repeated: the permutation's mistake */
                    buf_put_long(b, v[(c + 1) % nn]);
                else
                    buf_puts(b, o);
            } else {
                buf_put_long(b, v[c]);
            }
        }
        buf_putc(b, ']');
    }
    buf_putc(b, ']');
    free(v);
}

/* A cell [r, c] of an n x n matrix, or off it one time in odd. */
static void write_cell(uint64_t *rng, gj_buf *b, long n, uint64_t odd)
{
    if (one_in(rng, odd)) {
        static const char *const cells[] = {"[0,1]", "[1]", "\"a1\"", "[1,99]", "null", "[1,1,1]"};
        buf_puts(b, cells[rng_below(rng, 6)]);
        return;
    }
    buf_putc(b, '[');
    buf_put_long(b, 1 + (long)rng_below(rng, (uint64_t)n));
    buf_putc(b, ',');
    buf_put_long(b, 1 + (long)rng_below(rng, (uint64_t)n));
    buf_putc(b, ']');
}

/* The members a generated request may have. */
enum {
    M_K,
    M_MATRIX,
    M_TOKEN,
    M_TO_MOVE,
    M_MAX_MOVES,
    M_LINE,
    M_MAX_LINE,
    M_AFTER,
    M_MOVES,
    M_UNKNOWN,
    M_N
};

/* Member m's key and value. */
static void write_member(uint64_t *rng, gj_buf *b, int m, long n, uint64_t odd)
{
    static const char *const names[M_N] = {"k",    "matrix",   "token", "to_move", "max_moves",
                                           "line", "max_line", "after", "moves",   NULL};
    if (m == M_UNKNOWN) {
        static const char *const unknown[] = {"\"zz\"", "\"Matrix\"", "\"\"", "\"k \"",
                                              "\"\\u006bk\""};
        buf_puts(b, unknown[rng_below(rng, 5)]);
    } else {
        buf_putc(b, '"');
        buf_puts(b, names[m]);
        buf_putc(b, '"');
    }
    blanks(rng, b);
    buf_putc(b, ':');
    blanks(rng, b);
    int wrong = one_in(rng, odd);
    switch (m) {
    case M_K:
        if (wrong) {
            static const char *const ks[] = {"0", "null", "\"1\"", "1.0", "[1]", "-3"};
            buf_puts(b, ks[rng_below(rng, 6)]);
        } else {
            buf_put_long(b, 1 + (long)rng_below(rng, (uint64_t)(n - 2)));
        }
        break;
    case M_MATRIX:
        write_matrix(rng, b, n, odd);
        break;
    case M_TOKEN:
        if (one_in(rng, 4))
            buf_puts(b, "null");
        else
            write_cell(rng, b, n, odd);
        break;
    case M_TO_MOVE: {
        static const char *const movers[] = {"\"M\"", "\"G\"", "\"X\"", "1"};
        buf_puts(b, movers[wrong ? 2 + rng_below(rng, 2) : rng_below(rng, 2)]);
        break;
    }
    case M_MAX_MOVES:
    case M_MAX_LINE:
        if (wrong) {
            static const char *const maxes[] = {"0", "\"3\"", "2.5", "100000000", "null"};
            buf_puts(b, maxes[rng_below(rng, 5)]);
        } else {
            buf_put_long(b, 1 + (long)rng_below(rng, 12));
        }
        break;
    case M_LINE:
        buf_puts(b, wrong ? "1" : one_in(rng, 4) ? "false" : "true");
        break;
    case M_AFTER: {
        static const char *const afters[] = {"\"diff\"", "\"full\"", "\"whole\"", "true"};
        buf_puts(b, afters[wrong ? 2 + rng_below(rng, 2) : rng_below(rng, 2)]);
        break;
    }
    case M_MOVES:
        if (wrong && one_in(rng, 2)) {
            buf_puts(b, one_in(rng, 2) ? "\"x\"" : "{}");
            break;
        }
        buf_putc(b, '[');
        for (long i = 0, count = (long)rng_below(rng, 4); i < count; i++) {
            buf_puts(b, i > 0 ? "," : "");
            write_cell(rng, b, n, odd);
        }
        buf_putc(b, ']');
        break;
    default: /* an unknown member's value: nested now and then */
        buf_puts(b, one_in(rng, 2) ? "{\"a\":[1,{\"b\":null}]}" : "2");
        break;
    }
}

/* One request: its members in a random order (k and matrix nearly always),
 * at times one repeated, at times broken as JSON one time in odd * 2. */
static void write_request(uint64_t *rng, gj_buf *b, uint64_t odd)
{
    long n = 3 + (long)rng_below(rng, one_in(rng, 8) ? 14 : 5);
    int order[M_N], count = 0;
    for (int m = 0; m < M_N; m++) {
        int keep = m <= M_MATRIX    ? !one_in(rng, odd * 3)
                   : m == M_UNKNOWN ? one_in(rng, odd)
                                    : one_in(rng, 2);
        if (keep)
            order[count++] = m;
    }
    for (int i = count - 1; i > 0; i--) {
        int d = (int)rng_below(rng, (uint64_t)i + 1), t = order[i];
        order[i] = order[d];
        order[d] = t;
    }
    blanks(rng, b);
    buf_putc(b, '{');
    for (int i = 0; i < count; i++) {
        buf_puts(b, i > 0 ? "," : "");
        blanks(rng, b);
        write_member(rng, b, order[i], n, odd);
        blanks(rng, b);
    }
    if (count > 0 && one_in(rng, odd * 3)) {
        buf_putc(b, ',');
        write_member(rng, b, order[rng_below(rng, (uint64_t)count)], n, odd);
    }
    buf_putc(b, '}');
    blanks(rng, b);
    if (one_in(rng, odd * 2) && b->len > 0) {
        size_t at = (size_t)rng_below(rng, (uint64_t)b->len);
        static const char breaks[] = ",]}{:\"x0";
        if (one_in(rng, 2))
            b->len = at; /* cut short */
        else
            b->data[at] = breaks[rng_below(rng, sizeof breaks - 1)];
    }
}

/* Fail unless errors a (the tree's) and b (the reader's) are the same. */
static void same_error(const gj_error *a, const gj_error *b, const char *step, const gj_buf *body)
{
    ck_assert_msg(a->kind == b->kind && a->line == b->line && a->column == b->column &&
                      strcmp(a->field, b->field) == 0 && strcmp(a->message, b->message) == 0,
                  "%s: tree \"%s\" (%s %ld:%ld) against reader \"%s\" (%s %ld:%ld) for %.*s", step,
                  a->message, a->field, a->line, a->column, b->message, b->field, b->line,
                  b->column, (int)(body->len < 400 ? body->len : 400), body->data);
}

/* body read both ways, the reader fed in pieces of up to `piece` bytes (0:
 * whole, 1: byte by byte): the verdict, after failing the test unless
 * both ways agree. */
static int compare(const gj_buf *body, size_t piece, uint64_t *rng)
{
    long lim[GJ_MAX_LIMITS];
    default_limits(lim);
    line_request qa, qb;
    gj_error ea = {0}, eb = {0};
    int ra = line_prepare(body->data, body->len, &qa, &ea);
    analysis_body *read =
        harness_read_fed(game->play->read_analysis, body->data, body->len, lim, piece, 1, rng, &eb);
    if (read == NULL) {
        ck_assert_msg(ra != 0, "the reader refused what the tree took: %.*s", (int)body->len,
                      body->data);
        same_error(&ea, &eb, "read", body);
        return V_JSON;
    }
    /* The matrix is never a tree on the reader's side. */
    const json_t *m = json_object_get(read->root, "matrix");
    ck_assert(m == NULL || json_is_null(m));
    /* A refused position has no answer: its form, stored under nothing,
     * need not be the tree's. */
    int read_pos = read->pos != NULL;
    int rb = line_prepare_read(read, &qb, &eb);
    ck_assert_msg(ra == rb, "prepare: tree %d, reader %d (%s / %s)", ra, rb, ea.message,
                  eb.message);
    if (ra != 0) {
        same_error(&ea, &eb, "prepare", body);
        return ea.kind == GJ_BAD_INPUT && ea.line == 0 ? V_OPTION : V_JSON;
    }
    ck_assert_msg(!read_pos || (qa.canonical_len == qb.canonical_len &&
                                memcmp(qa.canonical, qb.canonical, qa.canonical_len) == 0),
                  "canonical forms differ: %s | %s", qa.canonical, qb.canonical);
    gj_buf oa, ob;
    buf_init(&oa);
    buf_init(&ob);
    ra = line_run(game, &qa, lim, &oa, &ea);
    rb = line_run(game, &qb, lim, &ob, &eb);
    ck_assert_msg(ra == rb, "run: tree %d, reader %d (%s / %s) for %.*s", ra, rb, ea.message,
                  eb.message, (int)body->len, body->data);
    int verdict = V_ANSWERED;
    if (ra != 0) {
        same_error(&ea, &eb, "run", body);
        verdict = strncmp(ea.field, "matrix", 6) == 0 || strcmp(ea.field, "k") == 0 ? V_POSITION
                                                                                    : V_OTHER_RUN;
    } else {
        ck_assert_msg(oa.len == ob.len && memcmp(oa.data, ob.data, oa.len) == 0,
                      "answers differ: %.*s | %.*s", (int)oa.len, oa.data, (int)ob.len, ob.data);
    }
    buf_free(&oa);
    buf_free(&ob);
    line_request_free(&qa);
    line_request_free(&qb);
    return verdict;
}

/* count generated requests from seed, each read whole, byte by byte and in
 * pieces of up to 7 and 300 bytes; every verdict must be met `least` times. */
static void sweep(uint64_t seed, int count, uint64_t odd, int least)
{
    uint64_t rng = seed, feed = seed ^ 0x5bd1e995u;
    int met[V_NVERDICTS] = {0};
    static const size_t pieces[] = {0, 1, 7, 300};
    for (int i = 0; i < count; i++) {
        gj_buf body;
        buf_init(&body);
        write_request(&rng, &body, odd);
        ck_assert(!body.failed);
        int verdict = -1;
        for (size_t p = 0; p < sizeof pieces / sizeof pieces[0]; p++) {
            int v = compare(&body, pieces[p], &feed);
            ck_assert(verdict == -1 || v == verdict);
            verdict = v;
        }
        met[verdict]++;
        buf_free(&body);
    }
    static const char *const names[V_NVERDICTS] = {"answered", "JSON", "option", "position",
                                                   "other member"};
    for (int v = 0; v < V_NVERDICTS; v++)
        ck_assert_msg(met[v] >= least, "%s met %d times, fewer than %d", names[v], met[v], least);
}

START_TEST(mostly_valid)
{
    sweep(0x1df0a11u, 1500, 12, 5);
}
END_TEST

START_TEST(mostly_wrong)
{
    sweep(0xa5a5a5u, 2500, 3, 40);
}
END_TEST

/* The reader's tree holds every member but the matrix, which stands as a
 * null in its place in the body's order; the position is the matrix read. */
START_TEST(matrix_stays_out_of_the_tree)
{
    const char body[] = "{\"token\":[1,2],\"matrix\":[[1,2,3],[4,5,6],[7,8,9]],\"k\":1}";
    long lim[GJ_MAX_LIMITS];
    default_limits(lim);
    gj_error e = {0};
    uint64_t rng = 7;
    analysis_body *read =
        harness_read_fed(game->play->read_analysis, body, sizeof body - 1, lim, 0, 1, &rng, &e);
    ck_assert_ptr_nonnull(read);
    char *tree = json_dumps(read->root, JSON_COMPACT);
    ck_assert_str_eq(tree, "{\"token\":[1,2],\"matrix\":null,\"k\":1}");
    free(tree);
    ck_assert_ptr_nonnull(read->pos);
    gj_buf text;
    buf_init(&text);
    read->events->write_bulk(read->pos, &text);
    buf_putc(&text, '\0');
    ck_assert_str_eq(text.data, "[[1,2,3],[4,5,6],[7,8,9]]");
    buf_free(&text);
    analysis_body_free(read);
}
END_TEST

/* A game reads its analyses into its arrays only with both halves: the
 * reader and the parse over what it read. */
START_TEST(readers_come_with_adopt)
{
    for (int i = 0; i < 5; i++) {
        const gj_game *g = harness_game(i);
        ck_assert_msg((g->play->read_analysis == NULL) == (g->play->adopt == NULL),
                      "%s has one half of the analysis reader", g->name);
    }
    ck_assert_ptr_nonnull(game->play->read_analysis);
}
END_TEST

static Suite *analysis_read_suite(void)
{
    const harness_case cases[] = {
        {"mostly valid", mostly_valid},
        {"mostly wrong", mostly_wrong},
        {"matrix out of the tree", matrix_stays_out_of_the_tree},
        {"readers come with adopt", readers_come_with_adopt},
    };
    return harness_suite("analysis_read", cases, sizeof cases / sizeof cases[0], 300);
}

int main(void)
{
    return harness_main(analysis_read_suite());
}
