/* nim_shortcuts_generate.c - POST /generate/nim-shortcuts: random
 * shortcut sets and one starting position.
 *
 * Knobs: "shortcuts" (how many, default 3, at most the limit in force and
 * NS_GEN_MAX_SHORTCUTS) and "range" (every coordinate is drawn from
 * 0..range-1, default 8, at most 10^9 + 1).  The shortcuts are distinct;
 * the start heaps are drawn from the same range.  The opening position is
 * the /solve twin with the start as its one query; a position in play
 * ("winning_moves") is the /analyze body with the start as its heaps.
 *
 * The most moves such a position has (ns_gen_most): x + y from heaps (x, y),
 * none from a shortcut (the mover has lost), so 2 (range - 1) from
 * (range - 1, range - 1) when some set leaves it free, i.e. unless all
 * range^2 positions are shortcuts (then 0).  And a position with a move
 * that does not win needs a second position that is no shortcut: with
 * range^2 - 1 shortcuts or more every move lands on one and wins. */
#include <stdio.h>
#include <stdlib.h>

#include "nim_shortcuts.h"
#include "generate.h"

#define NS_GEN_MAX_SHORTCUTS 1000
#define NS_GEN_MAX_RANGE     1000000001L /* coordinates 0..10^9 */

typedef struct knobs {
    long shortcuts, range;
} knobs;

const char *const nim_shortcuts_generate_knobs[] = {"shortcuts", "range", NULL};

/* The limits in force: shortcuts, queries (nim_shortcuts.c's order). */
static int read_knobs(gen_request *req, const long *limits, void *out, gj_error *e)
{
    knobs *k = out;
    char limit[56];
    k->shortcuts = gen_cap(3, limits[0]); /* the default fits any limit in force */
    k->range = 8;
    snprintf(limit, sizeof limit, "nim-shortcuts.shortcuts %ld or %d", limits[0],
             NS_GEN_MAX_SHORTCUTS);
    if (gen_long(req->root, "shortcuts", 0, gen_cap(limits[0], NS_GEN_MAX_SHORTCUTS), limit,
                 &k->shortcuts, e) != 0 ||
        gen_long(req->root, "range", 1, NS_GEN_MAX_RANGE, NULL, &k->range, e) != 0)
        return -1;
    if ((double)k->shortcuts > (double)k->range * (double)k->range)
        return gj_fail_field(e, "shortcuts",
                             "%ld distinct shortcuts do not fit in a range of %ld (%ld^2 "
                             "positions)",
                             k->shortcuts, k->range, k->range);
    req->most_moves = ns_gen_most(k->shortcuts, k->range);
    double free_positions = (double)k->range * (double)k->range - (double)k->shortcuts;
    if (req->winning_moves >= 0 && req->most_moves > 0 && free_positions < 2)
        return gj_fail_field(e, "shortcuts",
                             "%ld shortcuts in a range of %ld leave one position free, so "
                             "every move lands on a shortcut and wins: a position with a move "
                             "that does not win needs at most %.0f",
                             k->shortcuts, k->range, (double)k->range * (double)k->range - 2);
    return 0;
}

long long ns_gen_most(long shortcuts, long range)
{
    if ((double)shortcuts >= (double)range * (double)range)
        return 0;
    return 2 * ((long long)range - 1);
}

/* Order of (x, y) pairs, for spotting repeats. */
static int cmp_pair(const void *a, const void *b)
{
    const long *p = a, *q = b;
    return p[0] != q[0] ? (p[0] > q[0]) - (p[0] < q[0]) : (p[1] > q[1]) - (p[1] < q[1]);
}

/* True when the first n pairs of s (sorted in `sorted`) hold a repeat. */
static int has_repeat(long (*sorted)[2], long n)
{
    qsort(sorted, (size_t)n, sizeof sorted[0], cmp_pair);
    for (long i = 1; i < n; i++)
        if (sorted[i][0] == sorted[i - 1][0] && sorted[i][1] == sorted[i - 1][1])
            return 1;
    return 0;
}

/* Append "[x,y]" to b. */
static void put_pair(gj_buf *b, long x, long y)
{
    buf_putc(b, '[');
    buf_put_long(b, x);
    buf_putc(b, ',');
    buf_put_long(b, y);
    buf_putc(b, ']');
}

/* Append "x y\n" to b. */
static void put_line(gj_buf *b, long x, long y)
{
    buf_put_long(b, x);
    buf_putc(b, ' ');
    buf_put_long(b, y);
    buf_putc(b, '\n');
}

/* One shortcut set (redrawn while it repeats a pair) and one start. */
static int sample(gj_rng *r, const gen_request *req, const void *in, gen_candidate *c)
{
    const knobs *k = in;
    long s[NS_GEN_MAX_SHORTCUTS][2], sorted[NS_GEN_MAX_SHORTCUTS][2];
    for (long i = 0; i < k->shortcuts; i++) {
        s[i][0] = gj_rng_range(r, 0, k->range - 1);
        s[i][1] = gj_rng_range(r, 0, k->range - 1);
        sorted[i][0] = s[i][0];
        sorted[i][1] = s[i][1];
    }
    if (has_repeat(sorted, k->shortcuts))
        return 1;
    long x = gj_rng_range(r, 0, k->range - 1), y = gj_rng_range(r, 0, k->range - 1);
    buf_put_long(&c->input, k->shortcuts);
    buf_puts(&c->input, " 1\n");
    buf_puts(&c->position, "{\"shortcuts\":[");
    for (long i = 0; i < k->shortcuts; i++) {
        if (i)
            buf_putc(&c->position, ',');
        put_pair(&c->position, s[i][0], s[i][1]);
        put_line(&c->input, s[i][0], s[i][1]);
    }
    put_line(&c->input, x, y);
    buf_puts(&c->position, req->in_play ? "],\"heaps\":" : "],\"queries\":[");
    put_pair(&c->position, x, y);
    buf_puts(&c->position, req->in_play ? "}" : "]}");
    return 0;
}

/* The one query's answer. */
static int score(const json_t *answer, long long *out)
{
    return gen_score_word(json_array_get(json_object_get(answer, "answers"), 0), "WIN", out);
}

static const gen_spec spec = {
    .game = &game_nim_shortcuts,
    .knobs = nim_shortcuts_generate_knobs,
    .read = read_knobs,
    .sample = sample,
    .score = score,
};

int nim_shortcuts_generate(const char *buf, size_t len, const long *limits, gj_buf *out,
                           gj_error *e)
{
    knobs k;
    return gen_run(&spec, buf, len, limits, &k, out, e);
}

int nim_shortcuts_generate_most(const char *buf, size_t len, const long *limits, long long *most,
                                int *scored, gj_error *e)
{
    knobs k;
    return gen_most(&spec, buf, len, limits, &k, most, scored, e);
}

int nim_shortcuts_generate_keep(const char *buf, size_t len, const long *limits, gen_kept *kept,
                                gj_error *e)
{
    knobs k;
    return gen_keep(&spec, buf, len, limits, &k, kept, e);
}
