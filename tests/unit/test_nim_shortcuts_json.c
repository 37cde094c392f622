/* test_nim_shortcuts_json.c - nim-shortcuts' chunk-fed JSON reader against
 * the tree it replaces.
 *
 * The oracle is the jansson path the reader took over,
 * nim_shortcuts_parse_tree.  Thousands of bodies from fixed seeds (valid
 * lists of shortcuts and queries with varied whitespace and member order,
 * and every kind of mistake, several at once so that which one is reported
 * first matters) go through both; the reader is fed each body whole, one
 * byte at a time and in random pieces.  Both must agree on the verdict,
 * the error (kind, field, line, column, message) and the position (its key,
 * which holds every shortcut and query, and its solved answer). */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "games.h"
#include "harness.h"
#include "nim_shortcuts_core.h"

/* ---- the two readers ---- */

/* The body read by the reader under test, fed in pieces: piece 0 means the
 * whole body at once, 1 one byte at a time, else random sizes up to it. */
static void *read_fed(const char *body, size_t len, const long *lim, size_t piece, uint64_t *rng,
                      gj_error *e)
{
    nim_json_reader *r = nim_json_open(lim, e);
    ck_assert_ptr_nonnull(r);
    size_t at = 0;
    while (at < len) {
        size_t n = piece == 0 ? len : piece == 1 ? 1 : 1 + (size_t)rng_below(rng, piece);
        if (n > len - at)
            n = len - at;
        if (nim_json_feed(r, body + at, n, e) != 0) {
            nim_json_close(r);
            return NULL;
        }
        at += n;
    }
    return nim_json_finish(r, e);
}

/* The position's key and, once solved, its JSON answer, into out. */
static void describe(void *pos, gj_buf *out)
{
    gj_error e;
    buf_init(out);
    game_nim_shortcuts.write_key(pos, out);
    buf_putc(out, '|');
    ck_assert_int_eq(game_nim_shortcuts.solve(pos, &e), 0);
    game_nim_shortcuts.write_json(pos, out);
    ck_assert(!out->failed);
}

/* The verdicts seen, by the first words of the message (or "solved"), so
 * the test can tell that the bodies reached every check. */
static const char *const verdicts[] = {
    "solved",
    "invalid JSON",
    "the JSON body must be an object",
    ": unknown field",
    ": missing required field",
    "shortcuts: expected an array",
    "shortcuts: expected 0 to",
    "queries: expected an array",
    "queries: expected 1 to",
    "]: expected an array",
    "]: expected a pair",
    "]: expected an integer",
    "]: must be between",
    "shortcuts must be pairwise distinct",
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
 * and in two random splits: the same error or the same position. */
static void compare(const char *body, size_t len, const long *lim, uint64_t *rng)
{
    gj_error want_e;
    gj_error_clear(&want_e);
    void *want = nim_shortcuts_parse_tree(body, len, lim, &want_e);
    gj_buf want_d = {0};
    if (want != NULL)
        describe(want, &want_d);
    count_verdict(want != NULL ? NULL : &want_e);
    const size_t pieces[] = {0, 1, 7, 300};
    for (size_t p = 0; p < sizeof pieces / sizeof pieces[0]; p++) {
        if (pieces[p] == 1 && len > 4000)
            continue;
        gj_error got_e;
        gj_error_clear(&got_e);
        void *got = read_fed(body, len, lim, pieces[p], rng, &got_e);
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
        gj_buf got_d;
        describe(got, &got_d);
        ck_assert(got_d.len == want_d.len && memcmp(got_d.data, want_d.data, got_d.len) == 0);
        buf_free(&got_d);
        game_nim_shortcuts.free_position(got);
    }
    buf_free(&want_d);
    game_nim_shortcuts.free_position(want);
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

/* Blanks between tokens: mostly none, sometimes a run of every kind JSON
 * allows. */
static void blanks(gen *g)
{
    if (!one_in(g, 5))
        return;
    static const char kinds[] = " \t\n\r";
    long count = 1 + (long)rng_below(&g->rng, 3);
    for (long c = 0; c < count; c++)
        buf_putc(&g->b, kinds[rng_below(&g->rng, 4)]);
}

/* A value that is not a coordinate: each kind a check can meet. */
static void odd_value(gen *g)
{
    static const char *const odd[] = {
        "-1",
        "1000000001",
        "9223372036854775807",
        "-9223372036854775808",
        "92233720368547758080",
        "1.0",
        "-0.0",
        "1e0",
        "1e400",
        "\"5\"",
        "null",
        "true",
        "false",
        "[1, [2]]",
        "{\"a\": [1]}",
        "[]",
        "[1]",
        "[1,2,3]",
        "[[1,2]]",
        "2.5",
    };
    buf_puts(&g->b, odd[rng_below(&g->rng, sizeof odd / sizeof odd[0])]);
}

/* A coordinate: small (so points repeat) or anywhere up to the maximum. */
static void coord(gen *g, long range)
{
    if (one_in(g, 20))
        buf_put_long(&g->b, one_in(g, 2) ? 0 : NIM_MAX_COORD);
    else
        buf_put_long(&g->b, (long)rng_below(&g->rng, (uint64_t)range));
}

/* A list of count points, mistakes at rate 1 in odd (0: none). */
static void points(gen *g, long count, long range, uint64_t odd)
{
    if (odd > 0 && one_in(g, odd * 6)) {
        odd_value(g);
        return;
    }
    buf_putc(&g->b, '[');
    blanks(g);
    for (long i = 0; i < count; i++) {
        if (i > 0) {
            buf_putc(&g->b, ',');
            blanks(g);
        }
        if (odd > 0 && one_in(g, odd * (uint64_t)count + 1)) {
            odd_value(g);
            continue;
        }
        buf_putc(&g->b, '[');
        blanks(g);
        if (odd > 0 && one_in(g, odd * (uint64_t)count * 2 + 1))
            odd_value(g);
        else
            coord(g, range);
        buf_putc(&g->b, ',');
        blanks(g);
        if (odd > 0 && one_in(g, odd * (uint64_t)count * 2 + 1))
            odd_value(g);
        else
            coord(g, range);
        if (odd > 0 && one_in(g, odd * (uint64_t)count * 2 + 1))
            buf_puts(&g->b, ",1");
        blanks(g);
        buf_putc(&g->b, ']');
    }
    blanks(g);
    buf_putc(&g->b, ']');
}

/* A key no position has: short, empty, escaped, longer than an error
 * quotes. */
static void odd_key(gen *g)
{
    static const char *const keys[] = {
        "\"n\"",
        "\"Shortcuts\"",
        "\"\"",
        "\"queries \"",
        "\"\\u00e9t\\u00e9\"",
        "\"a_key_far_longer_than_any_error_message_quotes_whole\"",
    };
    buf_puts(&g->b, keys[rng_below(&g->rng, sizeof keys / sizeof keys[0])]);
}

/* One body: the members in a random order, each mistake at rate 1 in odd. */
static void body(gen *g, long n, long m, long range, uint64_t odd)
{
    int list[8], len = 0; /* 1 "shortcuts", 2 "queries", 0 a key no position has */
    list[len++] = one_in(g, 2) ? 1 : 2;
    list[len++] = 3 - list[0];
    if (odd > 0 && one_in(g, odd * 4)) {
        len = 1;
        list[0] = (int)rng_below(&g->rng, 2) + 1;
    }
    if (odd > 0 && one_in(g, odd * 3)) {
        int at = (int)rng_below(&g->rng, (uint64_t)len + 1);
        memmove(list + at + 1, list + at, (size_t)(len - at) * sizeof *list);
        list[at] = 0;
        len++;
    }
    if (odd > 0 && one_in(g, odd * 8)) {
        int again = list[rng_below(&g->rng, (uint64_t)len)];
        list[len++] = again;
    }
    blanks(g);
    buf_putc(&g->b, '{');
    for (int k = 0; k < len; k++) {
        if (k > 0)
            buf_putc(&g->b, ',');
        blanks(g);
        if (list[k] == 0)
            odd_key(g);
        else if (list[k] == 1)
            buf_puts(&g->b, one_in(g, 8) ? "\"shortcut\\u0073\"" : "\"shortcuts\"");
        else
            buf_puts(&g->b, one_in(g, 8) ? "\"\\u0071ueries\"" : "\"queries\"");
        blanks(g);
        buf_putc(&g->b, ':');
        blanks(g);
        if (list[k] == 1)
            points(g, n, range, odd);
        else if (list[k] == 2)
            points(g, m, range, odd);
        else
            odd_value(g);
        blanks(g);
    }
    buf_putc(&g->b, '}');
    blanks(g);
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

/* Bodies from seed `seed`: count of them, up to max points a list, mistakes
 * at rate 1 in odd (0: every body valid... but for repeats), limits drawn
 * from a few. */
static void run_bodies(uint64_t seed, int count, long max, uint64_t odd)
{
    static const long limits[] = {0, 1, 2, 5, 30, 100000};
    gen g = {seed, {0}};
    for (int c = 0; c < count; c++) {
        long n = (long)rng_below(&g.rng, (uint64_t)max + 1);
        long m = 1 + (long)rng_below(&g.rng, (uint64_t)max);
        long lim[2] = {100000, 100000};
        if (odd > 0 && one_in(&g, 3)) {
            lim[0] = limits[rng_below(&g.rng, sizeof limits / sizeof limits[0])];
            lim[1] = 1 + limits[rng_below(&g.rng, sizeof limits / sizeof limits[0])];
        }
        /* A small range makes repeated shortcuts likely, a large one rare. */
        long range = odd > 0 && one_in(&g, 2) ? 4 + n : NIM_MAX_COORD + 1;
        buf_init(&g.b);
        if (odd > 0 && one_in(&g, odd * 12)) {
            static const char *const tops[] = {"[]", " 1", "\"x\"", "null", "[[1,2]]", "1.5"};
            buf_puts(&g.b, tops[rng_below(&g.rng, sizeof tops / sizeof tops[0])]);
        } else {
            body(&g, n, m, range, odd);
        }
        if (odd > 0 && one_in(&g, odd * 2))
            break_json(&g);
        compare(g.b.data != NULL ? g.b.data : "", g.b.len, lim, &g.rng);
        buf_free(&g.b);
    }
}

/* ---- tests ---- */

/* Valid lists of up to 60 points in every whitespace and member order. */
START_TEST(test_valid)
{
    memset(verdict_count, 0, sizeof verdict_count);
    run_bodies(0x5eed0101, 1500, 60, 0);
    ck_assert_int_eq(verdict_count[0], 1500);
}
END_TEST

/* Bodies with mistakes, often several: each check is met, and the first
 * in the tree's order is the one both report. */
START_TEST(test_mistakes)
{
    memset(verdict_count, 0, sizeof verdict_count);
    run_bodies(0x5eed0102, 4000, 8, 2);
    run_bodies(0x5eed0103, 3000, 4, 1);
    run_bodies(0x5eed0104, 1500, 40, 4);
    run_bodies(0x5eed0105, 1000, 30, 16);
    for (int v = 0; v < NVERDICTS; v++)
        ck_assert_msg(verdict_count[v] >= 10, "only %ld bodies ended \"%s\"", verdict_count[v],
                      verdicts[v]);
}
END_TEST

/* Bodies named by hand: escaped keys, no shortcuts, the first of two
 * mistakes, a repeat after a later mistake. */
START_TEST(test_named)
{
    static const char *const bodies[] = {
        "{\"shortcuts\": [[3,0],[0,1]], \"queries\": [[0,0],[1,1]]}",
        "{\"queries\": [[0,0]], \"shortcut\\u0073\": []}",
        "{\"shortcuts\": [[3,0],[3,0]], \"queries\": [[0,0],[1,-1]]}",
        "{\"shortcuts\": [[3,0],[3,0]], \"queries\": [[0,0],[1,1]]}",
        "{\"shortcuts\": [[3,0],[3]], \"queries\": 5}",
        "{\"shortcuts\": [[3,0.5],[3]], \"queries\": []}",
        "{\"shortcuts\": [[1,2],[3,4]], \"queries\": [[1,2]], \"x\": [}",
        "{\"queries\": [[1,2]]}",
        "[1]",
    };
    const long lim[2] = {100000, 100000};
    uint64_t rng = 1;
    for (size_t b = 0; b < sizeof bodies / sizeof bodies[0]; b++)
        compare(bodies[b], strlen(bodies[b]), lim, &rng);
}
END_TEST

/* parse_json and read_json are the reader: their answer is the tree's. */
START_TEST(test_parse_json)
{
    const long lim[2] = {100000, 100000};
    gj_error e;
    const char *body = "{\"queries\": [[0,0]], \"shortcuts\": [[1,2],[5,5],[1,2]]}";
    ck_assert_ptr_nonnull(game_nim_shortcuts.read_json);
    void *pos = game_nim_shortcuts.parse_json(body, strlen(body), lim, &e);
    ck_assert_ptr_null(pos);
    ck_assert_str_eq(e.field, "shortcuts[2]");
    ck_assert_str_eq(
        e.message,
        "shortcuts[2]: [1, 2] repeats shortcuts[0]; shortcuts must be pairwise distinct");
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
        harness_suite("nim-shortcuts json", cases, sizeof cases / sizeof cases[0], 120));
}
