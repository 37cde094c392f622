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
#include "reader_diff.h"
#include "nim_shortcuts_core.h"

/* ---- the two readers ---- */

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

/* The game's reader against its tree. */
static const rd_game diff = {
    .game = &game_nim_shortcuts,
    .read_tree = nim_shortcuts_parse_tree,
    .describe = describe,
    .verdicts = verdicts,
    .nverdicts = NVERDICTS,
    .count = verdict_count,
};

/* ---- generated bodies ---- */

/* A value that is not a coordinate: each kind a check can meet. */
static void odd_value(rd_gen *g)
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
static void coord(rd_gen *g, long range)
{
    if (rd_one_in(g, 20))
        buf_put_long(&g->b, rd_one_in(g, 2) ? 0 : NIM_MAX_COORD);
    else
        buf_put_long(&g->b, (long)rng_below(&g->rng, (uint64_t)range));
}

/* A list of count points, mistakes at rate 1 in odd (0: none). */
static void points(rd_gen *g, long count, long range, uint64_t odd)
{
    if (odd > 0 && rd_one_in(g, odd * 6)) {
        odd_value(g);
        return;
    }
    buf_putc(&g->b, '[');
    rd_blanks_rare(g);
    for (long i = 0; i < count; i++) {
        if (i > 0) {
            buf_putc(&g->b, ',');
            rd_blanks_rare(g);
        }
        if (odd > 0 && rd_one_in(g, odd * (uint64_t)count + 1)) {
            odd_value(g);
            continue;
        }
        buf_putc(&g->b, '[');
        rd_blanks_rare(g);
        if (odd > 0 && rd_one_in(g, odd * (uint64_t)count * 2 + 1))
            odd_value(g);
        else
            coord(g, range);
        buf_putc(&g->b, ',');
        rd_blanks_rare(g);
        if (odd > 0 && rd_one_in(g, odd * (uint64_t)count * 2 + 1))
            odd_value(g);
        else
            coord(g, range);
        if (odd > 0 && rd_one_in(g, odd * (uint64_t)count * 2 + 1))
            buf_puts(&g->b, ",1");
        rd_blanks_rare(g);
        buf_putc(&g->b, ']');
    }
    rd_blanks_rare(g);
    buf_putc(&g->b, ']');
}

/* A key no position has: short, empty, escaped, longer than an error
 * quotes. */
static void odd_key(rd_gen *g)
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
static void body(rd_gen *g, long n, long m, long range, uint64_t odd)
{
    int list[8], len = 0; /* 1 "shortcuts", 2 "queries", 0 a key no position has */
    list[len++] = rd_one_in(g, 2) ? 1 : 2;
    list[len++] = 3 - list[0];
    if (odd > 0 && rd_one_in(g, odd * 4)) {
        len = 1;
        list[0] = (int)rng_below(&g->rng, 2) + 1;
    }
    if (odd > 0 && rd_one_in(g, odd * 3)) {
        int at = (int)rng_below(&g->rng, (uint64_t)len + 1);
        memmove(list + at + 1, list + at, (size_t)(len - at) * sizeof *list);
        list[at] = 0;
        len++;
    }
    if (odd > 0 && rd_one_in(g, odd * 8)) {
        int again = list[rng_below(&g->rng, (uint64_t)len)];
        list[len++] = again;
    }
    rd_blanks_rare(g);
    buf_putc(&g->b, '{');
    for (int k = 0; k < len; k++) {
        if (k > 0)
            buf_putc(&g->b, ',');
        rd_blanks_rare(g);
        if (list[k] == 0)
            odd_key(g);
        else if (list[k] == 1)
            buf_puts(&g->b, rd_one_in(g, 8) ? "\"shortcut\\u0073\"" : "\"shortcuts\"");
        else
            buf_puts(&g->b, rd_one_in(g, 8) ? "\"\\u0071ueries\"" : "\"queries\"");
        rd_blanks_rare(g);
        buf_putc(&g->b, ':');
        rd_blanks_rare(g);
        if (list[k] == 1)
            points(g, n, range, odd);
        else if (list[k] == 2)
            points(g, m, range, odd);
        else
            odd_value(g);
        rd_blanks_rare(g);
    }
    buf_putc(&g->b, '}');
    rd_blanks_rare(g);
}

/* Bodies from seed `seed`: count of them, up to max points a list, mistakes
 * at rate 1 in odd (0: every body valid... but for repeats), limits drawn
 * from a few. */
static void run_bodies(uint64_t seed, int count, long max, uint64_t odd)
{
    static const long limits[] = {0, 1, 2, 5, 30, 100000};
    rd_gen g = {seed, {0}};
    for (int c = 0; c < count; c++) {
        long n = (long)rng_below(&g.rng, (uint64_t)max + 1);
        long m = 1 + (long)rng_below(&g.rng, (uint64_t)max);
        long lim[2] = {100000, 100000};
        if (odd > 0 && rd_one_in(&g, 3)) {
            lim[0] = limits[rng_below(&g.rng, sizeof limits / sizeof limits[0])];
            lim[1] = 1 + limits[rng_below(&g.rng, sizeof limits / sizeof limits[0])];
        }
        /* A small range makes repeated shortcuts likely, a large one rare. */
        long range = odd > 0 && rd_one_in(&g, 2) ? 4 + n : NIM_MAX_COORD + 1;
        buf_init(&g.b);
        if (odd > 0 && rd_one_in(&g, odd * 12)) {
            static const char *const tops[] = {"[]", " 1", "\"x\"", "null", "[[1,2]]", "1.5"};
            buf_puts(&g.b, tops[rng_below(&g.rng, sizeof tops / sizeof tops[0])]);
        } else {
            body(&g, n, m, range, odd);
        }
        rd_finish_body(&diff, &g, odd, lim);
    }
}

/* ---- tests ---- */

/* Valid lists of up to 60 points in every whitespace and member order. */
START_TEST(test_valid)
{
    rd_clear(&diff);
    run_bodies(0x5eed0101, 1500, 60, 0);
    ck_assert_int_eq(verdict_count[0], 1500);
}
END_TEST

/* Bodies with mistakes, often several: each check is met, and the first
 * in the tree's order is the one both report. */
START_TEST(test_mistakes)
{
    rd_clear(&diff);
    run_bodies(0x5eed0102, 4000, 8, 2);
    run_bodies(0x5eed0103, 3000, 4, 1);
    run_bodies(0x5eed0104, 1500, 40, 4);
    run_bodies(0x5eed0105, 1000, 30, 16);
    rd_require(&diff, 10);
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
        rd_compare(&diff, bodies[b], strlen(bodies[b]), lim, &rng);
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
