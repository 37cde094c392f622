/* test_nim_shortcuts.c - nim-shortcuts against its rules-only oracle.
 *
 * The fast solver walks the diagonal of losing positions in segments; the
 * oracle fills the whole win/lose table from the rules.  They must agree on
 * thousands of random small positions (every query in and around the board),
 * on a dense instance of the official size, and on the public data.  Large
 * coordinates are checked with facts that follow from the rules in a line or
 * two, written next to each test: plain Nim, a shift of a checked instance
 * to 10^9, the diagonal beyond every shortcut, shortcuts on one axis, and
 * the symmetry of the game under swapping the heaps. */
#include <check.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "games.h"
#include "harness.h"
#include "nim_shortcuts_oracle.h"

#define GAME      (&game_nim_shortcuts)
#define MAX_COORD 1000000000L
#define OFFICIAL  100000L

/* ---- instances ---------------------------------------------------------- */

typedef struct instance {
    long n, m;
    long *sx, *sy; /* shortcuts */
    long *qa, *qb; /* queries */
} instance;

static void *xcalloc(size_t count, size_t size)
{
    void *p = calloc(count + 1, size);
    ck_assert_ptr_nonnull(p);
    return p;
}

static instance make_instance(long n, long m)
{
    instance in = {n,
                   m,
                   xcalloc((size_t)n, sizeof(long)),
                   xcalloc((size_t)n, sizeof(long)),
                   xcalloc((size_t)m, sizeof(long)),
                   xcalloc((size_t)m, sizeof(long))};
    return in;
}

static void free_instance(instance *in)
{
    free(in->sx);
    free(in->sy);
    free(in->qa);
    free(in->qb);
}

static char *take(gj_buf *b)
{
    buf_putc(b, '\0');
    ck_assert_msg(!b->failed, "out of memory building a test input");
    return buf_take(b, NULL);
}

static void put_pair(gj_buf *b, long x, long y, const char *open, const char *mid,
                     const char *close)
{
    buf_puts(b, open);
    buf_put_long(b, x);
    buf_puts(b, mid);
    buf_put_long(b, y);
    buf_puts(b, close);
}

/* The judge text: "n m", the shortcuts, the queries. */
static char *render_text(const instance *in)
{
    gj_buf b;
    buf_init(&b);
    put_pair(&b, in->n, in->m, "", " ", "\n");
    for (long i = 0; i < in->n; i++)
        put_pair(&b, in->sx[i], in->sy[i], "", " ", "\n");
    for (long q = 0; q < in->m; q++)
        put_pair(&b, in->qa[q], in->qb[q], "", " ", "\n");
    return take(&b);
}

static void put_pairs(gj_buf *b, const long *x, const long *y, long count)
{
    buf_putc(b, '[');
    for (long i = 0; i < count; i++)
        put_pair(b, x[i], y[i], i ? ", [" : "[", ",", "]");
    buf_putc(b, ']');
}

/* The JSON twin: {"shortcuts": [[x,y],...], "queries": [[a,b],...]}. */
static char *render_json(const instance *in)
{
    gj_buf b;
    buf_init(&b);
    buf_puts(&b, "{\"shortcuts\": ");
    put_pairs(&b, in->sx, in->sy, in->n);
    buf_puts(&b, ", \"queries\": ");
    put_pairs(&b, in->qa, in->qb, in->m);
    buf_putc(&b, '}');
    return take(&b);
}

/* The JSON answer that carries the same verdicts as judge text. */
static char *json_of_answers(const char *text)
{
    gj_buf b;
    buf_init(&b);
    buf_puts(&b, "{\"game\":\"nim-shortcuts\",\"answers\":[");
    for (const char *p = text; *p != '\0';) {
        size_t len = strcspn(p, "\n");
        if (p != text)
            buf_putc(&b, ',');
        buf_putc(&b, '"');
        buf_append(&b, p, len);
        buf_putc(&b, '"');
        p += len + (p[len] == '\n');
    }
    buf_puts(&b, "]}");
    return take(&b);
}

/* Parse judge text with strtol (not the project's reader) into an instance. */
static instance instance_of_text(const char *text)
{
    char *end;
    long n = strtol(text, &end, 10), m = strtol(end, &end, 10);
    instance in = make_instance(n, m);
    for (long i = 0; i < n; i++) {
        in.sx[i] = strtol(end, &end, 10);
        in.sy[i] = strtol(end, &end, 10);
    }
    for (long q = 0; q < m; q++) {
        in.qa[q] = strtol(end, &end, 10);
        in.qb[q] = strtol(end, &end, 10);
    }
    return in;
}

static char *run(const char *in, size_t len, harness_input how, harness_output out,
                 const long *limits)
{
    gj_error e;
    char *answer = harness_run(GAME, how, in, len, out, limits, &e);
    ck_assert_msg(answer != NULL, "unexpected error: %s", e.message);
    return answer;
}

static char *solve_text(const instance *in)
{
    char *text = render_text(in);
    char *answer = run(text, strlen(text), IN_TEXT, OUT_TEXT, NULL);
    free(text);
    return answer;
}

static char *solve_json(const instance *in)
{
    char *json = render_json(in);
    char *answer = run(json, strlen(json), IN_JSON, OUT_JSON, NULL);
    free(json);
    return answer;
}

static char *oracle(const instance *in)
{
    char *answer = nim_shortcuts_oracle(in->sx, in->sy, in->n, in->qa, in->qb, in->m);
    ck_assert_ptr_nonnull(answer);
    return answer;
}

/* The verdict of query q in judge text: 1 for LOSE. */
static int nth_loses(const char *text, long q)
{
    const char *p = text;
    for (long i = 0; i < q; i++) {
        p = strchr(p, '\n');
        ck_assert_ptr_nonnull(p);
        p++;
    }
    return strncmp(p, "LOSE\n", 5) == 0;
}

/* Verdicts as an array (1 = LOSE), checking the text is exactly m lines. */
static unsigned char *verdicts(const char *text, long m)
{
    unsigned char *v = xcalloc((size_t)m, 1);
    const char *p = text;
    for (long q = 0; q < m; q++) {
        if (strncmp(p, "LOSE\n", 5) == 0) {
            v[q] = 1;
            p += 5;
        } else {
            ck_assert_msg(strncmp(p, "WIN\n", 4) == 0, "line %ld is not WIN or LOSE", q + 1);
            p += 4;
        }
    }
    ck_assert_msg(*p == '\0', "more than %ld lines in the answer", m);
    return v;
}

/* Distinct random shortcuts in [0, w) x [0, h), by rejection on a bitmap. */
static void random_shortcuts(instance *in, long w, long h, uint64_t *rng)
{
    unsigned char *used = xcalloc((size_t)w * (size_t)h, 1);
    for (long i = 0; i < in->n; i++) {
        long x, y;
        do {
            x = (long)rng_below(rng, (uint64_t)w);
            y = (long)rng_below(rng, (uint64_t)h);
        } while (used[x * h + y]);
        used[x * h + y] = 1;
        in->sx[i] = x;
        in->sy[i] = y;
    }
    free(used);
}

/* ---- cross-checks against the oracle ------------------------------------ */

typedef struct tally {
    long positions, mismatches;
    char first[2048]; /* the first position the two disagree on */
} tally;

static void compare(tally *t, const instance *in, int also_json)
{
    char *want = oracle(in);
    char *got = solve_text(in);
    int bad = strcmp(got, want) != 0;
    if (also_json && !bad) {
        char *got_json = solve_json(in);
        char *want_json = json_of_answers(want);
        bad = strcmp(got_json, want_json) != 0;
        free(got_json);
        free(want_json);
    }
    t->positions++;
    if (bad && t->mismatches++ == 0) {
        char *text = render_text(in);
        snprintf(t->first, sizeof t->first, "%s\nfast:\n%s\noracle:\n%s", text, got, want);
        free(text);
    }
    free(want);
    free(got);
}

static void assert_agree(const tally *t, const char *what)
{
    ck_assert_msg(t->mismatches == 0, "%s: %ld of %ld positions disagree; first:\n%s", what,
                  t->mismatches, t->positions, t->first);
}

/* Query every cell of [0, side)^2, in a shuffled order so that the answers
 * must come back in input order. */
static void query_square(instance *in, long side, uint64_t *rng)
{
    for (long q = 0; q < side * side; q++) {
        in->qa[q] = q / side;
        in->qb[q] = q % side;
    }
    for (long q = side * side - 1; q > 0; q--) {
        long r = (long)rng_below(rng, (uint64_t)q + 1);
        long a = in->qa[q], b = in->qb[q];
        in->qa[q] = in->qa[r];
        in->qb[q] = in->qb[r];
        in->qa[r] = a;
        in->qb[r] = b;
    }
}

enum shape { UNIFORM, WITH_ORIGIN, AXES, DENSE, NONE, SHAPES };

/* A random position on a board of side 1..12; the queries cover the board
 * and three cells beyond it, so some lie past every shortcut. */
static instance random_small(enum shape shape, uint64_t *rng)
{
    long side = 1 + (long)rng_below(rng, 12), cells = side * side, n = 0;
    switch (shape) {
    case UNIFORM:
    case WITH_ORIGIN:
        n = (long)rng_below(rng, (uint64_t)(cells < 24 ? cells : 24) + 1);
        break;
    case AXES:
        n = (long)rng_below(rng, (uint64_t)(2 * side - 1) + 1);
        break;
    case DENSE:
        n = cells / 2 + (long)rng_below(rng, (uint64_t)cells / 2 + 1);
        break;
    case NONE:
    case SHAPES:
        break;
    }
    long qside = side + 3;
    instance in = make_instance(n, qside * qside);
    if (shape == AXES) {
        /* Cells of the two axes, numbered 0..2 side - 2, chosen distinct. */
        unsigned char *used = xcalloc((size_t)(2 * side), 1);
        for (long i = 0; i < n; i++) {
            long c;
            do
                c = (long)rng_below(rng, (uint64_t)(2 * side - 1));
            while (used[c]);
            used[c] = 1;
            in.sx[i] = c < side ? c : 0;
            in.sy[i] = c < side ? 0 : c - side + 1;
        }
        free(used);
    } else {
        random_shortcuts(&in, side, side, rng);
    }
    if (shape == WITH_ORIGIN && n > 0) {
        /* Move a shortcut to (0, 0) unless another is there already. */
        long at = -1;
        for (long i = 0; i < n; i++)
            if (in.sx[i] == 0 && in.sy[i] == 0)
                at = i;
        if (at < 0) {
            in.sx[n - 1] = 0;
            in.sy[n - 1] = 0;
        }
    }
    query_square(&in, qside, rng);
    return in;
}

START_TEST(test_oracle_rules)
{
    /* The oracle itself on hand-checked cases: plain Nim loses on the
     * diagonal; a shortcut at (0, 1) makes (1, 1) a win (move to it), and
     * then the losers are (0, 0), (1, 2), (2, 3), (3, 4)... */
    long qa[] = {0, 1, 2, 0, 1, 2, 3}, qb[] = {0, 1, 2, 1, 2, 1, 3};
    char *plain = nim_shortcuts_oracle(NULL, NULL, 0, qa, qb, 7);
    ck_assert_str_eq(plain, "LOSE\nLOSE\nLOSE\nWIN\nWIN\nWIN\nLOSE\n");
    free(plain);
    long sx[] = {0}, sy[] = {1};
    char *one = nim_shortcuts_oracle(sx, sy, 1, qa, qb, 7);
    /* (2, 2) moves to (1, 2), (2, 1) to the shortcut, (3, 3) to (2, 3). */
    ck_assert_str_eq(one, "LOSE\nWIN\nWIN\nLOSE\nLOSE\nWIN\nWIN\n");
    free(one);
}
END_TEST

START_TEST(test_random_small)
{
    /* 2500 positions, 500 of each shape, every one with up to 225 queries. */
    uint64_t rng = 0x6e696d2d73686f72ULL;
    tally t = {0};
    for (int k = 0; k < 2500; k++) {
        instance in = random_small((enum shape)(k % SHAPES), &rng);
        compare(&t, &in, k % 10 == 3);
        free_instance(&in);
    }
    assert_agree(&t, "random small positions");
    ck_assert_int_eq(t.positions, 2500);
}
END_TEST

START_TEST(test_random_sparse_wide)
{
    /* Few shortcuts spread over a 40 x 40 board: long diagonal runs between
     * them, and queries anywhere on the board. */
    uint64_t rng = 0x77696465ULL;
    tally t = {0};
    for (int k = 0; k < 300; k++) {
        instance in = make_instance((long)rng_below(&rng, 12), 400);
        random_shortcuts(&in, 40, 40, &rng);
        for (long q = 0; q < in.m; q++) {
            in.qa[q] = (long)rng_below(&rng, 44);
            in.qb[q] = (long)rng_below(&rng, 44);
        }
        compare(&t, &in, k % 10 == 0);
        free_instance(&in);
    }
    assert_agree(&t, "sparse positions");
}
END_TEST

/* ---- public data and the API example ------------------------------------- */

START_TEST(test_public_data)
{
    int files = 0;
    for (int k = 1; k <= 99; k++) {
        char path[512];
        snprintf(path, sizeof path, "%s/nim-shortcuts/%02d.in", harness_data_dir(), k);
        size_t len;
        char *in = harness_read_file(path, &len);
        if (in == NULL)
            break;
        snprintf(path, sizeof path, "%s/nim-shortcuts/%02d.out", harness_data_dir(), k);
        char *want = harness_read_file(path, NULL);
        ck_assert_msg(want != NULL, "missing %s", path);
        char *got = run(in, len, IN_TEXT, OUT_TEXT, NULL);
        ck_assert_msg(strcmp(got, want) == 0, "%02d.in:\n%sgot\n%sexpected\n%s", k, in, got, want);
        instance parsed = instance_of_text(in);
        char *got_json = solve_json(&parsed);
        char *want_json = json_of_answers(want);
        ck_assert_str_eq(got_json, want_json);
        char *got_mixed = run(in, len, IN_TEXT, OUT_JSON, NULL);
        ck_assert_str_eq(got_mixed, want_json);
        char *by_oracle = oracle(&parsed);
        ck_assert_str_eq(by_oracle, want);
        free_instance(&parsed);
        free(in);
        free(want);
        free(got);
        free(got_json);
        free(want_json);
        free(got_mixed);
        free(by_oracle);
        files++;
    }
    ck_assert_int_eq(files, 1);
}
END_TEST

START_TEST(test_api_example)
{
    const char *in = "{\"shortcuts\": [[3,0],[0,1]], \"queries\": [[0,0],[1,1]]}";
    char *got = run(in, strlen(in), IN_JSON, OUT_JSON, NULL);
    ck_assert_str_eq(got, "{\"game\":\"nim-shortcuts\",\"answers\":[\"LOSE\",\"WIN\"]}");
    free(got);
    got = run(in, strlen(in), IN_JSON, OUT_TEXT, NULL);
    ck_assert_str_eq(got, "LOSE\nWIN\n");
    free(got);
    ck_assert_str_eq(GAME->example_json, in);
    got = harness_text(GAME, GAME->example_text);
    ck_assert_str_eq(got, "LOSE\nWIN\n");
    free(got);
    ck_assert_str_eq(GAME->name, "nim-shortcuts");
}
END_TEST

/* ---- edge cases ---------------------------------------------------------- */

static void expect(const char *in, const char *want)
{
    char *got = harness_text(GAME, in);
    ck_assert_msg(strcmp(got, want) == 0, "input:\n%s\ngot:\n%s\nexpected:\n%s", in, got, want);
    free(got);
}

START_TEST(test_no_shortcuts)
{
    /* Plain Nim: the player to move loses iff the heaps are equal. */
    expect("0 6\n0 0\n1 1\n1000000000 1000000000\n1000000000 999999999\n0 1000000000\n"
           "7 3\n",
           "LOSE\nLOSE\nLOSE\nWIN\nWIN\nWIN\n");
    expect("0 1\n0 0", "LOSE\n");
}
END_TEST

START_TEST(test_shortcut_at_origin)
{
    /* (0, 0) is a loss anyway; as a shortcut it still is, and the diagonal
     * goes on from (1, 1) as in plain Nim. */
    expect("1 6\n0 0\n0 0\n1 1\n0 1\n1 0\n2 2\n1000000000 1000000000\n",
           "LOSE\nLOSE\nWIN\nWIN\nLOSE\nLOSE\n");
}
END_TEST

START_TEST(test_shortcuts_on_the_axes)
{
    /* (0, 5): the walk loses (0..4, 0..4), then row 5 is done by the
     * shortcut and the diagonal continues one row higher: (5, 6), (6, 7)... */
    expect("1 7\n0 5\n0 5\n0 4\n5 5\n5 6\n6 7\n1000000000 1000000000\n999999999 1000000000\n",
           "LOSE\nWIN\nWIN\nLOSE\nLOSE\nWIN\nLOSE\n");
    /* Both axes at distance 3: (3, 3) wins (move to either), and the two
     * shortcuts finish row 3 and column 3 at once: (4, 4) loses again. */
    expect("2 5\n3 0\n0 3\n3 3\n4 4\n3 0\n0 3\n3 4\n", "WIN\nLOSE\nLOSE\nLOSE\nWIN\n");
}
END_TEST

START_TEST(test_queries_on_shortcuts)
{
    /* A shortcut loses for the player to move even where plain Nim wins,
     * and repeated queries get repeated answers. */
    expect("3 5\n5 1\n2 9\n1000000000 0\n5 1\n2 9\n1000000000 0\n5 1\n2 9\n",
           "LOSE\nLOSE\nLOSE\nLOSE\nLOSE\n");
}
END_TEST

START_TEST(test_coordinates_at_the_limit)
{
    /* A shortcut at (10^9, 10^9): no move reaches that corner, so every
     * other position plays as in plain Nim. */
    expect("1 4\n1000000000 1000000000\n1000000000 1000000000\n999999999 999999999\n"
           "1000000000 999999999\n0 0\n",
           "LOSE\nLOSE\nWIN\nLOSE\n");
    /* A shortcut at (10^9, 0) only changes column 10^9: (10^9, y) wins for
     * every y > 0, the diagonal point included. */
    expect("1 3\n1000000000 0\n1000000000 1000000000\n1000000000 0\n999999999 999999999\n",
           "WIN\nLOSE\nLOSE\n");
}
END_TEST

START_TEST(test_layout_of_text)
{
    /* Tabs, CRLF line ends, no final newline, everything on one line. */
    expect("2 2\r\n3 0\r\n0\t1\r\n0 0\r\n1 1", "LOSE\nWIN\n");
    expect("2 2 3 0 0 1 0 0 1 1\n", "LOSE\nWIN\n");
    expect("  \n2 2\n\n3 0\n0 1\n0 0\n1 1\n\n\n", "LOSE\nWIN\n");
}
END_TEST

/* ---- malformed judge text ------------------------------------------------ */

static gj_error text_error_with(const char *in, long line, long column, const char *fragment,
                                const long *limits)
{
    gj_error e;
    char *answer = harness_run(GAME, IN_TEXT, in, strlen(in), OUT_TEXT, limits, &e);
    ck_assert_msg(answer == NULL, "expected an error for [%s], got %s", in, answer);
    ck_assert_int_eq(e.kind, GJ_BAD_INPUT);
    ck_assert_msg(strstr(e.message, fragment) != NULL, "message [%s] lacks [%s]", e.message,
                  fragment);
    ck_assert_msg(e.line == line && e.column == column,
                  "[%s]: at line %ld, column %ld; expected %ld, %ld", e.message, e.line, e.column,
                  line, column);
    char prefix[64];
    if (column > 0)
        snprintf(prefix, sizeof prefix, "line %ld, column %ld: ", line, column);
    else
        snprintf(prefix, sizeof prefix, "line %ld: ", line);
    ck_assert_msg(strncmp(e.message, prefix, strlen(prefix)) == 0, "message [%s] lacks [%s]",
                  e.message, prefix);
    return e;
}

static void text_error(const char *in, long line, long column, const char *fragment)
{
    text_error_with(in, line, column, fragment, NULL);
}

START_TEST(test_text_empty)
{
    text_error("", 1, 0, "expected the number of shortcuts n, found the end of the input");
    text_error("  \n\n", 3, 0, "expected the number of shortcuts n, found the end of the input");
    text_error("3", 1, 0, "expected the number of queries m, found the end of the input");
}
END_TEST

START_TEST(test_text_counts)
{
    text_error("x 1\n", 1, 1, "expected the number of shortcuts n (an integer), found 'x'");
    text_error("-1 1\n", 1, 1, "the number of shortcuts n must be between 0 and 100000, found -1");
    text_error("100001 1\n", 1, 1,
               "the number of shortcuts n must be between 0 and 100000, found 100001");
    text_error("0 0\n", 1, 3, "the number of queries m must be between 1 and 100000, found 0");
    text_error("0 100001\n", 1, 3,
               "the number of queries m must be between 1 and 100000, found 100001");
    text_error("2.5 1\n", 1, 1, "expected the number of shortcuts n (an integer), found '2.5'");
}
END_TEST

START_TEST(test_text_missing_values)
{
    /* The end of the input lies on the line after the last newline. */
    text_error("1 1\n3\n", 3, 0, "expected the y of shortcut 1, found the end of the input");
    text_error("1 1\n3", 2, 0, "expected the y of shortcut 1, found the end of the input");
    text_error("2 1\n3 0\n", 3, 0, "expected the x of shortcut 2, found the end of the input");
    text_error("1 2\n3 0\n0 0\n1", 4, 0, "expected the b of query 2, found the end of the input");
    text_error("0 3\n0 0\n", 3, 0, "expected the a of query 2, found the end of the input");
}
END_TEST

START_TEST(test_text_not_a_number)
{
    text_error("1 1\n3 z\n0 0\n", 2, 3, "expected the y of shortcut 1 (an integer), found 'z'");
    text_error("0 1\n0 1.5\n", 2, 3, "expected the b of query 1 (an integer), found '1.5'");
    text_error("0 2\n0 0\n0x10 1\n", 3, 1, "expected the a of query 2 (an integer), found '0x10'");
    text_error("1 1\n\x01 0\n0 0\n", 2, 1,
               "expected the x of shortcut 1 (an integer), found '\\x01'");
}
END_TEST

START_TEST(test_text_coordinate_range)
{
    text_error("1 1\n3 1000000001\n0 0\n", 2, 3,
               "the y of shortcut 1 must be between 0 and 1000000000, found 1000000001");
    text_error("1 1\n-3 0\n0 0\n", 2, 1,
               "the x of shortcut 1 must be between 0 and 1000000000, found -3");
    text_error("0 2\n1 1\n5 -1\n", 3, 3,
               "the b of query 2 must be between 0 and 1000000000, found -1");
    text_error("1 1\n99999999999999999999 0\n0 0\n", 2, 1,
               "the x of shortcut 1 must be between 0 and 1000000000, found "
               "99999999999999999999");
}
END_TEST

START_TEST(test_text_trailing_garbage)
{
    text_error("0 1\n0 0\n7\n", 3, 1, "unexpected '7' after the end of the position");
    text_error("1 1\n1 1\n2 2\n3 3\n", 4, 1, "unexpected '3' after the end of the position");
    text_error("0 1\n0 0 WIN\n", 2, 5, "unexpected 'WIN' after the end of the position");
}
END_TEST

START_TEST(test_text_duplicate_shortcuts)
{
    text_error("3 1\n1 2\n5 5\n1 2\n0 0\n", 4, 1,
               "shortcut 3 (1, 2) repeats shortcut 1 on line 2, column 1; shortcuts must be "
               "pairwise distinct");
    /* The first repeat in input order is reported, not the smallest point. */
    text_error("4 1\n7 7\n1 1\n7 7\n1 1\n0 0\n", 4, 1,
               "shortcut 3 (7, 7) repeats shortcut 1 on line 2, column 1");
    text_error("4 1\n1 1\n7 7\n1 1\n7 7\n0 0\n", 4, 1,
               "shortcut 3 (1, 1) repeats shortcut 1 on line 2, column 1");
    /* Both on one line: the columns tell them apart. */
    text_error("2 1 5 5 5 5 0 0\n", 1, 9,
               "shortcut 2 (5, 5) repeats shortcut 1 on line 1, "
               "column 5");
    /* A point repeated three times: the second copy repeats the first. */
    text_error("4 1\n0 0\n9 9\n0 0\n0 0\n0 0\n", 4, 1,
               "shortcut 3 (0, 0) repeats shortcut 1 on line 2");
    /* Many shortcuts (radix-sorted): the repeat is still found and placed. */
    gj_buf b;
    buf_init(&b);
    buf_puts(&b, "1000 1\n");
    for (long i = 0; i < 1000; i++) {
        long j = i == 777 ? 3 : i; /* shortcut 778 repeats shortcut 4 */
        put_pair(&b, j * 7919 % 100000, 1000 - j, "", " ", "\n");
    }
    buf_puts(&b, "0 0\n");
    char *in = take(&b);
    text_error(in, 779, 1, "shortcut 778 (23757, 997) repeats shortcut 4 on line 5, column 1");
    free(in);
}
END_TEST

START_TEST(test_text_raised_and_lowered_limits)
{
    long low[GJ_MAX_LIMITS] = {2, 3};
    text_error_with("3 1\n0 0\n1 1\n2 2\n0 0\n", 1, 1,
                    "the number of shortcuts n must be between 0 and 2, found 3", low);
    text_error_with("0 4\n0 0\n1 1\n2 2\n3 3\n", 1, 3,
                    "the number of queries m must be between 1 and 3, found 4", low);
    const char *in = "2 3\n0 1\n1 0\n1 1\n0 0\n2 2\n";
    char *got = run(in, strlen(in), IN_TEXT, OUT_TEXT, low);
    ck_assert_str_eq(got, "WIN\nLOSE\nLOSE\n");
    free(got);
    long none[GJ_MAX_LIMITS] = {0, 1};
    text_error_with("1 1\n0 0\n0 0\n", 1, 1,
                    "the number of shortcuts n must be between 0 and 0, found 1", none);
    in = "0 1\n4 4\n";
    got = run(in, strlen(in), IN_TEXT, OUT_TEXT, none);
    ck_assert_str_eq(got, "LOSE\n");
    free(got);
    ck_assert_int_eq(GAME->nlimits, 2);
    ck_assert_str_eq(GAME->limits[0].name, "shortcuts");
    ck_assert_int_eq(GAME->limits[0].def, OFFICIAL);
    ck_assert_int_eq(GAME->limits[0].min, 0);
    ck_assert_int_ge(GAME->limits[0].max, OFFICIAL);
    ck_assert_str_eq(GAME->limits[1].name, "queries");
    ck_assert_int_eq(GAME->limits[1].def, OFFICIAL);
    ck_assert_int_eq(GAME->limits[1].min, 1);
    ck_assert_int_ge(GAME->limits[1].max, OFFICIAL);
}
END_TEST

/* ---- malformed JSON ------------------------------------------------------- */

static void json_error_with(const char *in, const char *field, const char *fragment,
                            const long *limits)
{
    gj_error e;
    char *answer = harness_run(GAME, IN_JSON, in, strlen(in), OUT_JSON, limits, &e);
    ck_assert_msg(answer == NULL, "expected an error for [%s], got %s", in, answer);
    ck_assert_int_eq(e.kind, GJ_BAD_INPUT);
    ck_assert_msg(strstr(e.message, fragment) != NULL, "message [%s] lacks [%s]", e.message,
                  fragment);
    ck_assert_str_eq(e.field, field);
    if (field[0] != '\0') {
        char prefix[128];
        snprintf(prefix, sizeof prefix, "%s: ", field);
        ck_assert_msg(strncmp(e.message, prefix, strlen(prefix)) == 0, "message [%s] lacks [%s]",
                      e.message, prefix);
    }
}

static void json_error(const char *in, const char *field, const char *fragment)
{
    json_error_with(in, field, fragment, NULL);
}

START_TEST(test_json_syntax)
{
    json_error("", "", "invalid JSON");
    json_error("{\"shortcuts\": [], \"queries\": [[0,0]]", "", "invalid JSON");
    json_error("{\"shortcuts\": [], \"queries\": [[0,0]]} x", "", "invalid JSON");
    json_error("[]", "", "the JSON body must be an object, found an array");
    json_error("{\"shortcuts\": [], \"shortcuts\": [], \"queries\": [[0,0]]}", "", "invalid JSON");
    /* Beyond 64 bits jansson refuses the number itself. */
    json_error("{\"shortcuts\": [[1, 99999999999999999999]], \"queries\": [[0,0]]}", "",
               "invalid JSON");
}
END_TEST

START_TEST(test_json_fields)
{
    json_error("{\"shortcuts\": []}", "queries", "missing required field");
    json_error("{\"queries\": [[0,0]]}", "shortcuts", "missing required field");
    json_error("{\"shortcuts\": [], \"queries\": [[0,0]], \"n\": 0}", "n",
               "unknown field; expected only \"shortcuts\", \"queries\"");
}
END_TEST

START_TEST(test_json_types)
{
    json_error("{\"shortcuts\": 5, \"queries\": [[0,0]]}", "shortcuts",
               "expected an array, found an integer");
    json_error("{\"shortcuts\": [], \"queries\": {\"a\": 1}}", "queries",
               "expected an array, found an object");
    json_error("{\"shortcuts\": [[1,2], 3], \"queries\": [[0,0]]}", "shortcuts[1]",
               "expected an array, found an integer");
    json_error("{\"shortcuts\": [[\"1\",2]], \"queries\": [[0,0]]}", "shortcuts[0][0]",
               "expected an integer, found a string");
    json_error("{\"shortcuts\": [[1.5,2]], \"queries\": [[0,0]]}", "shortcuts[0][0]",
               "expected an integer, found a number with a fraction or exponent");
    json_error("{\"shortcuts\": [], \"queries\": [[0,null]]}", "queries[0][1]",
               "expected an integer, found null");
    json_error("{\"shortcuts\": [], \"queries\": [[0,0], [true,1]]}", "queries[1][0]",
               "expected an integer, found a boolean");
}
END_TEST

START_TEST(test_json_pair_sizes)
{
    json_error("{\"shortcuts\": [[1,2,3]], \"queries\": [[0,0]]}", "shortcuts[0]",
               "expected a pair [x, y] of 2 integers, found 3 elements");
    json_error("{\"shortcuts\": [[1,2],[1]], \"queries\": [[0,0]]}", "shortcuts[1]",
               "expected a pair [x, y] of 2 integers, found 1 element");
    gj_error e = harness_json_error(GAME, "{\"shortcuts\": [[1]], \"queries\": [[0,0]]}");
    ck_assert_str_eq(e.message,
                     "shortcuts[0]: expected a pair [x, y] of 2 integers, found 1 element");
    json_error("{\"shortcuts\": [], \"queries\": [[]]}", "queries[0]",
               "expected a pair [a, b] of 2 integers, found 0 elements");
    json_error("{\"shortcuts\": [], \"queries\": []}", "queries",
               "expected 1 to 100000 elements, found 0");
}
END_TEST

START_TEST(test_json_coordinate_range)
{
    json_error("{\"shortcuts\": [[1,-2]], \"queries\": [[0,0]]}", "shortcuts[0][1]",
               "must be between 0 and 1000000000, found -2");
    json_error("{\"shortcuts\": [], \"queries\": [[1000000001,0]]}", "queries[0][0]",
               "must be between 0 and 1000000000, found 1000000001");
    json_error("{\"shortcuts\": [], \"queries\": [[0,0],[0,9223372036854775807]]}", "queries[1][1]",
               "must be between 0 and 1000000000, found 9223372036854775807");
}
END_TEST

START_TEST(test_json_duplicate_shortcuts)
{
    json_error("{\"shortcuts\": [[7,7],[1,1],[7,7],[1,1]], \"queries\": [[0,0]]}", "shortcuts[2]",
               "[7, 7] repeats shortcuts[0]; shortcuts must be pairwise distinct");
    json_error("{\"shortcuts\": [[1,1],[7,7],[1,1],[7,7]], \"queries\": [[0,0]]}", "shortcuts[2]",
               "[1, 1] repeats shortcuts[0]");
    json_error("{\"shortcuts\": [[1000000000,0],[0,1000000000],[1000000000,0]], "
               "\"queries\": [[0,0]]}",
               "shortcuts[2]", "[1000000000, 0] repeats shortcuts[0]");
}
END_TEST

START_TEST(test_json_limits)
{
    long low[GJ_MAX_LIMITS] = {2, 3};
    json_error_with("{\"shortcuts\": [[0,0],[1,1],[2,2]], \"queries\": [[0,0]]}", "shortcuts",
                    "expected 0 to 2 elements, found 3", low);
    json_error_with("{\"shortcuts\": [], \"queries\": [[0,0],[0,0],[0,0],[0,0]]}", "queries",
                    "expected 1 to 3 elements, found 4", low);
    const char *ok = "{\"shortcuts\": [[0,1],[1,0]], \"queries\": [[1,1],[0,0],[2,2]]}";
    char *got = run(ok, strlen(ok), IN_JSON, OUT_JSON, low);
    ck_assert_str_eq(got, "{\"game\":\"nim-shortcuts\",\"answers\":[\"WIN\",\"LOSE\",\"LOSE\"]}");
    free(got);
    /* Zero shortcuts is a valid position (plain Nim). */
    const char *plain = "{\"shortcuts\": [], \"queries\": [[5,5],[5,6]]}";
    got = run(plain, strlen(plain), IN_JSON, OUT_JSON, NULL);
    ck_assert_str_eq(got, "{\"game\":\"nim-shortcuts\",\"answers\":[\"LOSE\",\"WIN\"]}");
    free(got);
}
END_TEST

/* ---- official size -------------------------------------------------------- */

/* Solve by text and by JSON; both must agree.  Returns the text answer. */
static char *solve_both(const instance *in)
{
    char *got = solve_text(in);
    char *got_json = solve_json(in);
    char *want_json = json_of_answers(got);
    ck_assert_msg(strcmp(got_json, want_json) == 0, "text and JSON answers differ");
    free(got_json);
    free(want_json);
    return got;
}

/* A dense instance of the official size: 10^5 distinct shortcuts and 10^5
 * queries below 1000, plus the same shifted up to 10^9. */
static instance dense_official(uint64_t *rng)
{
    instance in = make_instance(OFFICIAL, OFFICIAL);
    random_shortcuts(&in, 1000, 1000, rng);
    for (long q = 0; q < in.m; q++) {
        if (q % 4 == 0) {
            long i = (long)rng_below(rng, (uint64_t)in.n);
            in.qa[q] = in.sx[i];
            in.qb[q] = in.sy[i];
        } else {
            in.qa[q] = (long)rng_below(rng, 1000);
            in.qb[q] = (long)rng_below(rng, 1000);
        }
    }
    return in;
}

START_TEST(test_official_dense)
{
    uint64_t rng = 0x64656e7365ULL;
    instance in = dense_official(&rng);
    char *want = oracle(&in);
    char *got = solve_both(&in);
    ck_assert_msg(strcmp(got, want) == 0, "the dense official-size instance disagrees");
    free(want);
    free(got);
    free_instance(&in);
}
END_TEST

START_TEST(test_official_dense_shifted_to_the_limit)
{
    /* Shift every shortcut and query by K = 10^9 - 999.  Rows and columns
     * below K hold no shortcut, so there the losers are exactly (i, i) as in
     * plain Nim; from a point with both heaps >= K a move below K reaches
     * only winners (the diagonal lies elsewhere), so the shifted region
     * plays exactly as the original.  Answers must not change. */
    const long K = MAX_COORD - 999;
    uint64_t rng = 0x7368696674ULL;
    instance in = dense_official(&rng);
    char *want = oracle(&in);
    for (long i = 0; i < in.n; i++) {
        in.sx[i] += K;
        in.sy[i] += K;
    }
    for (long q = 0; q < in.m; q++) {
        in.qa[q] += K;
        in.qb[q] += K;
    }
    char *got = solve_both(&in);
    ck_assert_msg(strcmp(got, want) == 0, "the shifted instance disagrees with the original");
    free(got);
    free(want);
    /* Below K the position is plain Nim. */
    long qa[] = {0, K - 1, K - 1, MAX_COORD, 0, 5, K - 1};
    long qb[] = {0, K - 1, K - 2, 0, MAX_COORD, 7, MAX_COORD};
    free(in.qa);
    free(in.qb);
    in.m = 7;
    in.qa = xcalloc(7, sizeof(long));
    in.qb = xcalloc(7, sizeof(long));
    memcpy(in.qa, qa, sizeof qa);
    memcpy(in.qb, qb, sizeof qb);
    got = solve_text(&in);
    ck_assert_str_eq(got, "LOSE\nLOSE\nWIN\nWIN\nWIN\nWIN\nWIN\n");
    free(got);
    free_instance(&in);
}
END_TEST

/* Loses iff y == x - (number of c in cols[] with c <= x); see below. */
static long count_at_most(const long *sorted, long n, long x)
{
    long lo = 0, hi = n;
    while (lo < hi) {
        long mid = lo + (hi - lo) / 2;
        if (sorted[mid] <= x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static int compare_long(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

START_TEST(test_official_one_axis)
{
    /* 10^5 shortcuts (c, 0) with distinct c in 1..10^9.  From the rules:
     * (0, 0) loses; (x, 0) for x not a shortcut wins (to (0, 0)); column c
     * holds a loser at (c, 0), so (c, y > 0) wins.  Going through the other
     * columns 1, 2, ... in order, each takes the lowest row >= 1 without a
     * loser yet, so column x gets row 1 + (free columns in [1, x)) = x - k,
     * where k counts the shortcut columns <= x.  The queries test that loser,
     * its neighbours, the shortcuts and their columns; swapping the heaps
     * gives the mirror instance, which must answer the same. */
    uint64_t rng = 0x6178697300ULL;
    instance in = make_instance(OFFICIAL, OFFICIAL);
    long *cols = xcalloc(OFFICIAL, sizeof(long));
    for (long i = 0; i < in.n; i++) {
        /* Distinct: i-th shortcut in its own slot of width 10^4. */
        cols[i] = 1 + i * 10000 + (long)rng_below(&rng, i % 3 == 0 ? 2 : 10000);
        in.sx[i] = cols[i];
        in.sy[i] = 0;
    }
    /* The slots make cols[] increasing; the shortcut order is shuffled. */
    for (long i = in.n - 1; i > 0; i--) {
        long r = (long)rng_below(&rng, (uint64_t)i + 1), t = in.sx[i];
        in.sx[i] = in.sx[r];
        in.sx[r] = t;
    }
    qsort(cols, OFFICIAL, sizeof(long), compare_long);
    unsigned char *want = xcalloc(OFFICIAL, 1);
    for (long q = 0; q < in.m; q++) {
        long x, kind = q % 5;
        if (kind == 0) {
            x = cols[rng_below(&rng, OFFICIAL)];
        } else {
            x = (long)rng_below(&rng, (uint64_t)MAX_COORD + 1);
            if (q < 50)
                x = MAX_COORD - q; /* the far end */
        }
        long k = count_at_most(cols, OFFICIAL, x);
        int shortcut_column = k > 0 && cols[k - 1] == x;
        long y;
        if (shortcut_column) {
            y = kind == 0 ? 0 : 1 + (long)rng_below(&rng, 1000);
            want[q] = y == 0;
        } else if (x == 0) {
            y = (long)rng_below(&rng, 3);
            want[q] = y == 0;
        } else {
            long delta = kind == 1 ? -1 : kind == 2 ? 1 : 0;
            y = x - k + delta;
            want[q] = delta == 0;
        }
        in.qa[q] = x;
        in.qb[q] = y;
    }
    char *got = solve_both(&in);
    unsigned char *v = verdicts(got, in.m);
    for (long q = 0; q < in.m; q++)
        ck_assert_msg(v[q] == want[q], "query %ld (%ld, %ld): got %s", q + 1, in.qa[q], in.qb[q],
                      v[q] ? "LOSE" : "WIN");
    /* The mirror instance. */
    long *t = in.sx;
    in.sx = in.sy;
    in.sy = t;
    t = in.qa;
    in.qa = in.qb;
    in.qb = t;
    char *mirror = solve_text(&in);
    ck_assert_msg(strcmp(mirror, got) == 0, "the mirrored instance answers differently");
    free(mirror);
    free(v);
    free(got);
    free(want);
    free(cols);
    free_instance(&in);
}
END_TEST

static int compare_key(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

#define WINDOW_COLUMNS 20
#define WINDOW         1000 /* queries (a, a - WINDOW) .. (a, a + WINDOW) */

START_TEST(test_official_sparse_random)
{
    /* 10^5 random shortcuts and queries anywhere up to 10^9.  Checks that
     * need no solver: a query on a shortcut loses; text and JSON agree;
     * swapping the heaps everywhere (the game is symmetric) answers the
     * same; a column holds at most one loser besides its shortcuts, tested
     * on 20 columns queried across a window of 2001 cells around the
     * diagonal (where the walk keeps its losers). */
    uint64_t rng = 0x7370617273ULL;
    instance in = make_instance(OFFICIAL, OFFICIAL);
    uint64_t *keys = xcalloc(OFFICIAL, sizeof *keys);
    for (long i = 0; i < in.n; i++) {
        /* Distinct: the x of shortcut i lies in slot i. */
        in.sx[i] = i * 10000 + (long)rng_below(&rng, 10000);
        in.sy[i] = (long)rng_below(&rng, (uint64_t)MAX_COORD + 1);
    }
    in.sx[0] = 0;
    in.sy[0] = MAX_COORD;
    for (long i = 0; i < in.n; i++)
        keys[i] = (uint64_t)in.sx[i] << 32 | (uint64_t)in.sy[i];
    qsort(keys, OFFICIAL, sizeof *keys, compare_key);
    long windowed = WINDOW_COLUMNS * (2 * WINDOW + 1);
    for (long q = 0; q < in.m; q++) {
        if (q < windowed) {
            long column = q / (2 * WINDOW + 1);
            in.qa[q] = WINDOW + 1 + column * 49999999;
            in.qb[q] = in.qa[q] + q % (2 * WINDOW + 1) - WINDOW;
        } else if (q % 3 == 0) {
            long i = (long)rng_below(&rng, (uint64_t)in.n);
            in.qa[q] = in.sx[i];
            in.qb[q] = in.sy[i];
        } else if (q % 3 == 1) {
            long a = (long)rng_below(&rng, (uint64_t)MAX_COORD + 1);
            long b = a + (long)rng_below(&rng, 2001) - 1000;
            in.qa[q] = a;
            in.qb[q] = b < 0 ? 0 : b > MAX_COORD ? MAX_COORD : b;
        } else {
            in.qa[q] = (long)rng_below(&rng, (uint64_t)MAX_COORD + 1);
            in.qb[q] = (long)rng_below(&rng, (uint64_t)MAX_COORD + 1);
        }
    }
    char *got = solve_both(&in);
    unsigned char *v = verdicts(got, in.m);
    long natural[WINDOW_COLUMNS] = {0}, losers = 0;
    for (long q = 0; q < in.m; q++) {
        uint64_t key = (uint64_t)in.qa[q] << 32 | (uint64_t)in.qb[q];
        int shortcut = bsearch(&key, keys, OFFICIAL, sizeof *keys, compare_key) != NULL;
        if (shortcut)
            ck_assert_msg(v[q], "query %ld is a shortcut but wins", q + 1);
        if (q < windowed && v[q] && !shortcut)
            natural[q / (2 * WINDOW + 1)]++;
        losers += v[q] && !shortcut;
    }
    long full = 0;
    for (int c = 0; c < WINDOW_COLUMNS; c++) {
        ck_assert_msg(natural[c] <= 1, "column %d holds %ld losers", c, natural[c]);
        full += natural[c];
    }
    /* The walk stays within the windows here, so the test is not vacuous. */
    ck_assert_int_eq(full, WINDOW_COLUMNS);
    ck_assert_int_gt(losers, full);
    long *t = in.sx;
    in.sx = in.sy;
    in.sy = t;
    t = in.qa;
    in.qa = in.qb;
    in.qb = t;
    char *mirror = solve_text(&in);
    ck_assert_msg(strcmp(mirror, got) == 0, "the mirrored instance answers differently");
    free(mirror);
    free(v);
    free(got);
    free(keys);
    free_instance(&in);
}
END_TEST

START_TEST(test_beyond_every_shortcut)
{
    /* Past the last shortcut row and column the losers are one diagonal
     * (x, x + d) forever.  The oracle gives d from column 149 of a board
     * whose shortcuts lie below 50; then the fast solver must put the loser
     * of columns near 10^9 on the same diagonal, and nowhere else. */
    uint64_t rng = 0x6265796f6e64ULL;
    for (int k = 0; k < 40; k++) {
        instance in = make_instance(1 + (long)rng_below(&rng, 1200), 260);
        random_shortcuts(&in, 50, 50, &rng);
        for (long q = 0; q < 260; q++) {
            in.qa[q] = 149;
            in.qb[q] = q;
        }
        char *table = oracle(&in);
        long d = LONG_MIN;
        for (long q = 0; q < 260; q++)
            if (nth_loses(table, q)) {
                ck_assert_msg(d == LONG_MIN, "two losers in column 149");
                d = q - 149;
            }
        ck_assert_msg(d != LONG_MIN, "no loser in column 149");
        free(table);
        const long xs[] = {150, 151, 4321, 999999, MAX_COORD - 200, MAX_COORD - 150};
        free(in.qa);
        free(in.qb);
        in.m = 18;
        in.qa = xcalloc(18, sizeof(long));
        in.qb = xcalloc(18, sizeof(long));
        for (int i = 0; i < 6; i++)
            for (int j = 0; j < 3; j++) {
                in.qa[3 * i + j] = xs[i];
                in.qb[3 * i + j] = xs[i] + d + j - 1;
            }
        char *got = solve_text(&in);
        ck_assert_str_eq(got, "WIN\nLOSE\nWIN\nWIN\nLOSE\nWIN\nWIN\nLOSE\nWIN\n"
                              "WIN\nLOSE\nWIN\nWIN\nLOSE\nWIN\nWIN\nLOSE\nWIN\n");
        free(got);
        free_instance(&in);
    }
}
END_TEST

/* ---- runner ---------------------------------------------------------------- */

/* One Check test case per test, so a timeout or a crash names its test. */
static Suite *nim_shortcuts_suite(void)
{
    const harness_case cases[] = {
        {"oracle", test_oracle_rules},
        {"oracle", test_random_small},
        {"oracle", test_random_sparse_wide},
        {"data", test_public_data},
        {"data", test_api_example},
        {"edge cases", test_no_shortcuts},
        {"edge cases", test_shortcut_at_origin},
        {"edge cases", test_shortcuts_on_the_axes},
        {"edge cases", test_queries_on_shortcuts},
        {"edge cases", test_coordinates_at_the_limit},
        {"edge cases", test_layout_of_text},
        {"text errors", test_text_empty},
        {"text errors", test_text_counts},
        {"text errors", test_text_missing_values},
        {"text errors", test_text_not_a_number},
        {"text errors", test_text_coordinate_range},
        {"text errors", test_text_trailing_garbage},
        {"text errors", test_text_duplicate_shortcuts},
        {"text errors", test_text_raised_and_lowered_limits},
        {"json errors", test_json_syntax},
        {"json errors", test_json_fields},
        {"json errors", test_json_types},
        {"json errors", test_json_pair_sizes},
        {"json errors", test_json_coordinate_range},
        {"json errors", test_json_duplicate_shortcuts},
        {"json errors", test_json_limits},
        {"official size", test_official_dense},
        {"official size", test_official_dense_shifted_to_the_limit},
        {"official size", test_official_one_axis},
        {"official size", test_official_sparse_random},
    };
    /* Left to `make check` (HARNESS_LARGE): official-size instances with queries past every
     * shortcut, the longest case. */
    const harness_case large[] = {
        {"official size", test_beyond_every_shortcut},
    };
    Suite *s = harness_suite("nim-shortcuts", cases, sizeof cases / sizeof cases[0], 300);
    harness_add_tagged(s, large, sizeof large / sizeof large[0], 300, HARNESS_LARGE);
    return s;
}

int main(void)
{
    return harness_main(nim_shortcuts_suite());
}
