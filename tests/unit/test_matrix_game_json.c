/* test_matrix_game_json.c - matrix-game's chunk-fed JSON reader against the
 * tree it replaces.
 *
 * The oracle is the jansson path the reader took over: jin_load_object,
 * then mg_from_json on the tree.  Thousands of bodies from fixed seeds
 * (valid matrices of 3..40 with varied whitespace and member order, and
 * every kind of mistake, several at once so that which one is reported
 * first matters) go through both; the reader is fed each body whole, one
 * byte at a time and in random pieces.  Both must agree on the verdict,
 * the error (kind, field, line, column, message) and the position (n, k,
 * the table of cells and the solved answer). */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "games.h"
#include "harness.h"
#include "json_in.h"
#include "matrix_game_core.h"

/* ---- the two readers ---- */

/* The body read by the reader under test, fed in pieces: piece 0 means the
 * whole body at once, 1 one byte at a time, else random sizes up to it. */
static mg_position *read_fed(const char *body, size_t len, const long *lim, size_t piece,
                             uint64_t *rng, gj_error *e)
{
    mg_json_reader *r = mg_json_open(lim, e);
    ck_assert_ptr_nonnull(r);
    size_t at = 0;
    while (at < len || (at == 0 && piece == 0)) {
        size_t n = piece == 0 ? len : piece == 1 ? 1 : 1 + (size_t)rng_below(rng, piece);
        if (n > len - at)
            n = len - at;
        if (mg_json_feed(r, body + at, n, e) != 0) {
            mg_json_close(r);
            return NULL;
        }
        at += n;
        if (piece == 0)
            break;
    }
    return mg_json_finish(r, e);
}

/* The body read as parse_json read it before the reader: the tree, then
 * mg_from_json. */
static mg_position *read_tree(const char *body, size_t len, const long *lim, gj_error *e)
{
    static const char *const keys[] = {"k", "matrix", NULL};
    json_t *root = jin_load_object(body, len, keys, e);
    if (root == NULL)
        return NULL;
    mg_position *pos = mg_from_json(root, lim, e);
    json_decref(root);
    return pos;
}

/* The verdicts seen, by the first words of the message (or "solved"),
 * so the test can tell that the bodies reached every check. */
static const char *const verdicts[] = {
    "solved",
    "invalid JSON",
    "the JSON body must be an object",
    ": unknown field",
    ": missing required field",
    "matrix: expected an array",
    "matrix: expected 3 to",
    "k: expected an integer",
    "k: must be between",
    "]: expected an array",
    "(the matrix is square)",
    "]: expected an integer",
    "]: must be between",
    "appears twice",
};
enum { NVERDICTS = sizeof verdicts / sizeof verdicts[0] };
static long verdict_count[NVERDICTS];

/* Note which verdict an error (or NULL: a position) is. */
static void count_verdict(const gj_error *e)
{
    for (int v = 1; e != NULL && v < NVERDICTS; v++) {
        if (strstr(e->message, verdicts[v]) != NULL) {
            verdict_count[v]++;
            return;
        }
    }
    ck_assert_msg(e == NULL, "a verdict the table does not name: %s", e ? e->message : "");
    verdict_count[0]++;
}

/* Both readers on one body, the reader fed whole, bytewise (short bodies)
 * and in two random splits: the same error or the same solved position. */
static void compare(const char *body, size_t len, const long *lim, uint64_t *rng)
{
    gj_error want_e;
    gj_error_clear(&want_e);
    mg_position *want = read_tree(body, len, lim, &want_e);
    if (want != NULL)
        ck_assert_int_eq(mg_solve(want, &want_e), 0);
    count_verdict(want != NULL ? NULL : &want_e);
    const size_t pieces[] = {0, 1, 7, 300};
    for (size_t p = 0; p < sizeof pieces / sizeof pieces[0]; p++) {
        if (pieces[p] == 1 && len > 4000)
            continue;
        gj_error got_e;
        gj_error_clear(&got_e);
        mg_position *got = read_fed(body, len, lim, pieces[p], rng, &got_e);
        if (want == NULL) {
            ck_assert_msg(got == NULL, "the tree says \"%s\", the reader took it (piece %zu): %.*s",
                          want_e.message, pieces[p], (int)(len < 300 ? len : 300), body);
            ck_assert_msg(strcmp(got_e.message, want_e.message) == 0 &&
                              strcmp(got_e.field, want_e.field) == 0 && got_e.kind == want_e.kind &&
                              got_e.line == want_e.line && got_e.column == want_e.column,
                          "tree: [%s] %s (%ld:%ld)\nreader: [%s] %s (%ld:%ld)\npiece %zu: %.*s",
                          want_e.field, want_e.message, want_e.line, want_e.column, got_e.field,
                          got_e.message, got_e.line, got_e.column, pieces[p],
                          (int)(len < 300 ? len : 300), body);
            continue;
        }
        ck_assert_msg(got != NULL, "the reader says \"%s\" of a body the tree takes: %.*s",
                      got_e.message, (int)(len < 300 ? len : 300), body);
        ck_assert_int_eq(got->n, want->n);
        ck_assert_int_eq(got->k, want->k);
        size_t nn = (size_t)want->n * (size_t)want->n;
        ck_assert(memcmp(got->cell_of, want->cell_of, nn * sizeof *got->cell_of) == 0);
        ck_assert_int_eq(mg_solve(got, &got_e), 0);
        ck_assert(memcmp(got->outcome, want->outcome, nn + (size_t)want->n) == 0);
        mg_free(got);
    }
    mg_free(want);
}

/* ---- generated bodies ---- */

typedef struct gen {
    uint64_t rng;
    gj_buf b;
} gen;

/* True with probability 1/n. */
static int one_in(gen *g, uint64_t n)
{
    return rng_below(&g->rng, n) == 0;
}

/* Blanks between tokens: mostly none or one space, sometimes a run of
 * every kind JSON allows. */
static void blanks(gen *g, int often)
{
    if (!often && !one_in(g, 6))
        return;
    static const char kinds[] = " \t\n\r";
    long count = one_in(g, 3) ? 1 : (long)rng_below(&g->rng, 4);
    for (long c = 0; c < count; c++)
        buf_putc(&g->b, kinds[rng_below(&g->rng, 4)]);
}

/* A value that is not a whole number in range, or not a number: each kind
 * a check can meet.  n2 is the square of the matrix's side, most the
 * limit's square. */
static void odd_value(gen *g, long n2, long most)
{
    char tmp[64];
    switch (rng_below(&g->rng, 24)) {
    case 0:
        buf_puts(&g->b, "0");
        break;
    case 1:
        buf_puts(&g->b, "-1");
        break;
    case 2:
        buf_put_long(&g->b, n2 + 1 + (long)rng_below(&g->rng, 3));
        break;
    case 3:
        buf_put_long(&g->b, most + 1);
        break;
    case 4:
        buf_puts(&g->b, "4294967296");
        break;
    case 5:
        buf_puts(&g->b, "4294967297");
        break;
    case 6:
        buf_puts(&g->b, one_in(g, 2) ? "9223372036854775807" : "-9223372036854775808");
        break;
    case 7:
        buf_puts(&g->b, one_in(g, 2) ? "92233720368547758080" : "-18446744073709551617");
        break;
    case 8:
        snprintf(tmp, sizeof tmp, "%ld.0", 1 + (long)rng_below(&g->rng, (uint64_t)n2));
        buf_puts(&g->b, tmp);
        break;
    case 9:
        buf_puts(&g->b, one_in(g, 2) ? "1e0" : "-0.0");
        break;
    case 10:
        buf_puts(&g->b, "\"5\"");
        break;
    case 11:
        buf_puts(&g->b, "null");
        break;
    case 12:
        buf_puts(&g->b, one_in(g, 2) ? "true" : "false");
        break;
    case 13:
        buf_puts(&g->b, "[1, [2]]");
        break;
    case 14:
        buf_puts(&g->b, "{\"a\": [1]}");
        break;
    case 15:
        buf_puts(&g->b, "1e400");
        break;
    case 16:
    case 17:
        buf_puts(&g->b, "-5");
        break;
    case 18:
    case 19:
        buf_puts(&g->b, "2.5");
        break;
    default:
        buf_put_long(&g->b, n2 + 1);
        break;
    }
}

/* Row i of the matrix: mostly n values of the permutation, sometimes
 * another type or with odd values (about 2 / odd of each in a matrix). */
static void row(gen *g, const long *value, long i, long n, long width, long most, uint64_t odd)
{
    if (odd > 0 && one_in(g, odd * 2 * (uint64_t)n)) {
        odd_value(g, n * n, most);
        return;
    }
    buf_putc(&g->b, '[');
    blanks(g, 0);
    for (long j = 0; j < width; j++) {
        if (j > 0) {
            buf_putc(&g->b, ',');
            blanks(g, 0);
        }
        if (odd > 0 && one_in(g, odd * (uint64_t)(width * n) / 2 + 1))
            odd_value(g, n * n, most);
        else
            buf_put_long(&g->b, j < n ? value[i * n + j] : n * n);
        blanks(g, 0);
    }
    buf_putc(&g->b, ']');
}

/* The member "matrix": rows rows of (mostly) n values each. */
static void matrix(gen *g, const long *value, long n, long rows, long most, uint64_t odd)
{
    if (odd > 0 && one_in(g, odd * 6)) {
        odd_value(g, n * n, most);
        return;
    }
    buf_putc(&g->b, '[');
    blanks(g, 1);
    for (long i = 0; i < rows; i++) {
        if (i > 0) {
            buf_putc(&g->b, ',');
            blanks(g, 1);
        }
        long width = n;
        if (odd > 0 && one_in(g, odd * 2 * (uint64_t)n))
            width = one_in(g, 2) ? n + (one_in(g, 2) ? 1 : -1) : most > 100 ? n : 41;
        row(g, value, i < n ? i : 0, n, width, most, odd);
        blanks(g, 0);
    }
    buf_putc(&g->b, ']');
}

/* The value of "k": mostly in 1..n-2, else at or past a bound or odd. */
static void k_value(gen *g, long n, long most, uint64_t odd)
{
    if (odd > 0 && one_in(g, odd * 2)) {
        switch (rng_below(&g->rng, 4)) {
        case 0:
            buf_put_long(&g->b, n - 1);
            break;
        case 1:
            buf_puts(&g->b, "0");
            break;
        default:
            odd_value(g, n * n, most);
            break;
        }
        return;
    }
    buf_put_long(&g->b, 1 + (long)rng_below(&g->rng, (uint64_t)(n - 2)));
}

/* A key no position has: short, empty, escaped, longer than an error
 * quotes (cut inside a UTF-8 character). */
static void odd_key(gen *g)
{
    static const char *const keys[] = {
        "\"n\"",
        "\"K\"",
        "\"\"",
        "\"matrix \"",
        "\"kk\"",
        "\"\\u00e9t\\u00e9\"",
        "\"\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
        "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9x\xc3\xa9"
        "\xc3\xa9\xc3\xa9\"",
    };
    buf_puts(&g->b, keys[rng_below(&g->rng, sizeof keys / sizeof keys[0])]);
}

/* One body: the members in a random order, each mistake at rate 1 in `odd`
 * (0: none), for a side n, rows rows and limit `most` (its square). */
static void body(gen *g, const long *value, long n, long rows, long most, uint64_t odd)
{
    /* The members in writing order: 1 is "k", 2 "matrix", 0 a key no
     * position has; one may be missing or written twice. */
    int list[8], len = 0;
    list[len++] = one_in(g, 2) ? 1 : 2;
    list[len++] = 3 - list[0];
    if (odd > 0 && one_in(g, odd * 3)) {
        len = 1;
        list[0] = (int)rng_below(&g->rng, 2) + 1;
    }
    for (int extra = 0; odd > 0 && extra < 2 && one_in(g, odd * 2); extra++) {
        int at = (int)rng_below(&g->rng, (uint64_t)len + 1);
        memmove(list + at + 1, list + at, (size_t)(len - at) * sizeof *list);
        list[at] = 0;
        len++;
    }
    if (odd > 0 && one_in(g, odd * 6)) {
        int again = list[rng_below(&g->rng, (uint64_t)len)];
        list[len++] = again;
    }
    blanks(g, 0);
    buf_putc(&g->b, '{');
    blanks(g, 1);
    for (int m = 0; m < len; m++) {
        if (m > 0) {
            buf_putc(&g->b, ',');
            blanks(g, 1);
        }
        if (list[m] == 0)
            odd_key(g);
        else if (list[m] == 1)
            buf_puts(&g->b, one_in(g, 8) ? "\"\\u006b\"" : "\"k\"");
        else
            buf_puts(&g->b, one_in(g, 8) ? "\"matri\\u0078\"" : "\"matrix\"");
        blanks(g, 0);
        buf_putc(&g->b, ':');
        blanks(g, 0);
        if (list[m] == 1)
            k_value(g, n, most, odd);
        else if (list[m] == 2)
            matrix(g, value, n, rows, most, odd);
        else
            odd_value(g, n * n, most);
        blanks(g, 0);
    }
    buf_putc(&g->b, '}');
    blanks(g, 0);
}

/* A body broken as JSON: cut short, a byte put in, or something after. */
static void break_json(gen *g)
{
    static const char bytes[] = "{}[],:\"x0-.e \x01\xff\\";
    size_t at = (size_t)rng_below(&g->rng, g->b.len + 1);
    switch (rng_below(&g->rng, 3)) {
    case 0:
        g->b.len = at;
        break;
    case 1: {
        char c = bytes[rng_below(&g->rng, sizeof bytes - 1)];
        buf_putc(&g->b, ' ');
        memmove(g->b.data + at + 1, g->b.data + at, g->b.len - 1 - at);
        g->b.data[at] = c;
        break;
    }
    default:
        buf_puts(&g->b, one_in(g, 2) ? " x" : "{}");
        break;
    }
}

/* A random permutation of 1..n*n into value, with one repeat in half of
 * them when odd is not 0. */
static void permutation(gen *g, long *value, long n, uint64_t odd)
{
    long nn = n * n;
    for (long c = 0; c < nn; c++)
        value[c] = c + 1;
    for (long c = nn - 1; c > 0; c--) {
        long d = (long)rng_below(&g->rng, (uint64_t)c + 1), t = value[c];
        value[c] = value[d];
        value[d] = t;
    }
    if (odd > 0 && one_in(g, 2))
        value[rng_below(&g->rng, (uint64_t)nn)] = value[rng_below(&g->rng, (uint64_t)nn)];
}

/* Bodies from seed `seed`: `count` of them, sides up to max_n, mistakes at
 * rate 1 in odd (0: every body valid), limits drawn from a few. */
static void run_bodies(uint64_t seed, int count, long max_n, uint64_t odd)
{
    static const long limits[] = {3, 4, 6, 9, 40, 2000, 6000};
    gen g = {seed, {0}};
    long *value = malloc(sizeof *value * 41 * 41);
    ck_assert_ptr_nonnull(value);
    for (int c = 0; c < count; c++) {
        long n = 3 + (long)rng_below(&g.rng, (uint64_t)max_n - 2);
        long lim = odd > 0 ? limits[rng_below(&g.rng, sizeof limits / sizeof limits[0])] : 2000;
        long rows = n;
        if (odd > 0 && one_in(&g, odd * 3))
            rows = (long)rng_below(&g.rng, (uint64_t)n + 2);
        permutation(&g, value, n, odd);
        buf_init(&g.b);
        if (odd > 0 && one_in(&g, odd * 10)) {
            static const char *const tops[] = {"[]", " 1", "\"x\"", "null", "[[1,2,3]]", "1.5"};
            buf_puts(&g.b, tops[rng_below(&g.rng, sizeof tops / sizeof tops[0])]);
        } else {
            body(&g, value, n, rows, lim * lim, odd);
        }
        if (odd > 0 && one_in(&g, odd * 2))
            break_json(&g);
        compare(g.b.data != NULL ? g.b.data : "", g.b.len, &lim, &g.rng);
        buf_free(&g.b);
    }
    free(value);
}

/* ---- tests ---- */

/* Valid matrices of 3..40 in every whitespace and member order. */
START_TEST(test_valid)
{
    run_bodies(0x5eed0001, 1500, 40, 0);
    ck_assert_int_eq(verdict_count[0], 1500);
}
END_TEST

/* Bodies with mistakes, often several: each check is met, and the first
 * in mg_from_json's order is the one both report. */
START_TEST(test_mistakes)
{
    memset(verdict_count, 0, sizeof verdict_count);
    run_bodies(0x5eed0002, 4000, 12, 2);
    run_bodies(0x5eed0003, 3000, 6, 1);
    run_bodies(0x5eed0004, 1000, 30, 4);
    run_bodies(0x5eed0005, 1000, 20, 16);
    for (int v = 0; v < NVERDICTS; v++)
        ck_assert_msg(verdict_count[v] >= 10, "only %ld bodies ended \"%s\"", verdict_count[v],
                      verdicts[v]);
}
END_TEST

/* The bodies a test names by hand: escaped keys, k past both bounds, a
 * value that only the final n rules out, the first of two mistakes. */
START_TEST(test_named)
{
    static const char *const bodies[] = {
        "{\"k\": 1, \"matrix\": [[1,2,3],[4,5,6],[7,8,9]]}",
        "{\"matrix\": [[1,2,3],[4,5,6],[7,8,9]], \"\\u006b\": 1}",
        "{\"k\": 2, \"matrix\": [[1,2,3],[4,5,6],[7,8,9]]}",
        "{\"k\": 1, \"matrix\": [[1,2,3],[4,5,6],[7,8,16]]}",
        "{\"k\": 1, \"matrix\": [[1,2,16],[4,5,6],[7,8,1.5]]}",
        "{\"k\": 1, \"matrix\": [[1,2,3],[4,5,6],[7,8,9],[1,2,3]]}",
        "{\"k\": 1, \"matrix\": [[1,2,3,4],[4,5,6],[7,8,9]]}",
        "{\"k\": 1, \"matrix\": [[1,2,3],[4,5,6],[7,8,9]], \"x\": [}",
        "{\"k\": 1, \"n\": 2, \"matrix\": [[1,2,3],[4,5,6],[7,8,9]], \"n\": 3}",
        "{\"k\": 0.5, \"matrix\": 3}",
        "{\"matrix\": [[1,1,3],[4,5,6],[7,8,9]]}",
        "{\"k\": 1, \"matrix\": [[1,2,3],[4,5,6],[7,8,9]]} ",
        "[1]",
    };
    const long lim = 2000;
    uint64_t rng = 1;
    for (size_t b = 0; b < sizeof bodies / sizeof bodies[0]; b++)
        compare(bodies[b], strlen(bodies[b]), &lim, &rng);
}
END_TEST

/* parse_json is the reader: its answer to a body is the tree's. */
START_TEST(test_parse_json)
{
    const long lim = 2000;
    gj_error e;
    const char *body = "{\"matrix\": [[3,2,1],[4,5,6],[7,8,10]], \"k\": 1}";
    void *pos = game_matrix_game.parse_json(body, strlen(body), &lim, &e);
    ck_assert_ptr_null(pos);
    ck_assert_str_eq(e.field, "matrix[2][2]");
    ck_assert_str_eq(e.message, "matrix[2][2]: must be between 1 and 9, found 10");
}
END_TEST

int main(void)
{
    const harness_case cases[] = {
        {"valid", test_valid},
        {"mistakes", test_mistakes},
        {"named", test_named},
        {"parse_json", test_parse_json},
    };
    return harness_main(
        harness_suite("matrix-game json", cases, sizeof cases / sizeof cases[0], 120));
}
