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

/* The game's own verdicts, by words of the message, so the test can tell
 * that the bodies reached every check. */
static const char *const verdicts[] = {
    "shortcuts: expected an array",
    "shortcuts: expected 0 to",
    "queries: expected an array",
    "queries: expected 1 to",
    "]: expected an array",
    "]: expected a pair",
    "]: expected an integer",
    "]: must be between",
    "shortcuts must be pairwise distinct",
    NULL,
};

/* The game's reader against its tree. */
static const rd_game diff = {
    .game = &game_nim_shortcuts,
    .read_tree = nim_shortcuts_parse_tree,
    .describe = describe,
    .verdicts = verdicts,
};

/* ---- generated bodies ---- */

/* The values that are no coordinate: past NIM_MAX_COORD, and then arrays
 * of the wrong length for a point. */
static const rd_odd_values odd_values = {
    .past = "1000000001",
    .more = {"[1,2,3]", "[[1,2]]", "2.5", NULL},
};

/* A coordinate: small (so points repeat) or anywhere up to the maximum,
 * sometimes at either end when `ends` allows. */
static void coord(rd_gen *g, long range, int ends)
{
    if (ends && rd_one_in(g, 20))
        buf_put_long(&g->b, rd_one_in(g, 2) ? 0 : NIM_MAX_COORD);
    else
        buf_put_long(&g->b, (long)rng_below(&g->rng, (uint64_t)range));
}

/* A list of count points, mistakes at rate 1 in odd (0: none).  Without
 * mistakes only the first point may lie at the ends, so that no two of a
 * valid body's shortcuts repeat. */
static void points(rd_gen *g, long count, long range, uint64_t odd)
{
    if (odd > 0 && rd_one_in(g, odd * 6)) {
        rd_odd_value(g, &odd_values);
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
            rd_odd_value(g, &odd_values);
            continue;
        }
        buf_putc(&g->b, '[');
        rd_blanks_rare(g);
        if (odd > 0 && rd_one_in(g, odd * (uint64_t)count * 2 + 1))
            rd_odd_value(g, &odd_values);
        else
            coord(g, range, odd > 0 || i == 0);
        buf_putc(&g->b, ',');
        rd_blanks_rare(g);
        if (odd > 0 && rd_one_in(g, odd * (uint64_t)count * 2 + 1))
            rd_odd_value(g, &odd_values);
        else
            coord(g, range, odd > 0 || i == 0);
        if (odd > 0 && rd_one_in(g, odd * (uint64_t)count * 2 + 1))
            buf_puts(&g->b, ",1");
        rd_blanks_rare(g);
        buf_putc(&g->b, ']');
    }
    rd_blanks_rare(g);
    buf_putc(&g->b, ']');
}

/* The keys no position has, close to "shortcuts" and "queries". */
static const rd_keys keys = {
    .other = "n",
    .capital = "Shortcuts",
    .spaced = "queries ",
    .doubled = NULL,
    .long_utf8 = 0,
};

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
            rd_odd_key(g, &keys);
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
            rd_odd_value(g, &odd_values);
        rd_blanks_rare(g);
    }
    buf_putc(&g->b, '}');
    rd_blanks_rare(g);
}

/* One body: up to max shortcuts and 1 to max queries, the limits drawn
 * from a few one time in three (else the default), mistakes at rate 1 in
 * odd. */
static void write_body(rd_gen *g, long max, uint64_t odd, long *lim)
{
    static const long limits[] = {0, 1, 2, 5, 30, 100000};
    long n = (long)rng_below(&g->rng, (uint64_t)max + 1);
    long m = 1 + (long)rng_below(&g->rng, (uint64_t)max);
    lim[0] = 100000;
    lim[1] = 100000;
    if (odd > 0 && rd_one_in(g, 3)) {
        lim[0] = limits[rng_below(&g->rng, sizeof limits / sizeof limits[0])];
        lim[1] = 1 + limits[rng_below(&g->rng, sizeof limits / sizeof limits[0])];
    }
    /* A small range makes repeated shortcuts likely, a large one rare. */
    long range = odd > 0 && rd_one_in(g, 2) ? 4 + n : NIM_MAX_COORD + 1;
    if (!rd_not_object(g, odd * 12, "[[1,2]]"))
        body(g, n, m, range, odd);
}

/* ---- the test ---- */

/* The bodies named by hand: escaped keys, no shortcuts, the first of two
 * mistakes, a repeat after a later mistake. */
static const char *const named[] = {
    "{\"shortcuts\": [[3,0],[0,1]], \"queries\": [[0,0],[1,1]]}",
    "{\"queries\": [[0,0]], \"shortcut\\u0073\": []}",
    "{\"shortcuts\": [[3,0],[3,0]], \"queries\": [[0,0],[1,-1]]}",
    "{\"shortcuts\": [[3,0],[3,0]], \"queries\": [[0,0],[1,1]]}",
    "{\"shortcuts\": [[3,0],[3]], \"queries\": 5}",
    "{\"shortcuts\": [[3,0.5],[3]], \"queries\": []}",
    "{\"shortcuts\": [[1,2],[3,4]], \"queries\": [[1,2]], \"x\": [}",
    "{\"queries\": [[1,2]]}",
    "[1]",
    NULL,
};

/* Valid lists of up to 60 points; mistakes, each of the tree's checks met
 * at least 10 times; for parse_json, a repeated shortcut. */
static const rd_table table = {
    .name = "nim-shortcuts json",
    .diff = &diff,
    .write = write_body,
    .valid = {0x5eed0101, 1500, 60, 0},
    .mistakes =
        {
            {0x5eed0102, 4000, 8, 2},
            {0x5eed0103, 3000, 4, 1},
            {0x5eed0104, 1500, 40, 4},
            {0x5eed0105, 1000, 30, 16},
        },
    .least = 10,
    .named = named,
    .named_lim = {100000, 100000},
    .parse_body = "{\"queries\": [[0,0]], \"shortcuts\": [[1,2],[5,5],[1,2]]}",
    .parse_field = "shortcuts[2]",
    .parse_message =
        "shortcuts[2]: [1, 2] repeats shortcuts[0]; shortcuts must be pairwise distinct",
    .parse_lim = {100000, 100000},
};

/* The suite is the driver's: this file only says what it runs. */
int main(void)
{
    return rd_main(&table);
}
