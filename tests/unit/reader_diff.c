/* reader_diff.c - the reader-against-tree driver of reader_diff.h. */
#include "reader_diff.h"

#include <check.h>
#include <string.h>

#include "harness.h"

/* The verdicts every game has, first in each game's count, so that its
 * own need not repeat them. */
static const char *const common_verdicts[] = {
    "solved",
    "invalid JSON",
    "the JSON body must be an object",
    ": unknown field",
    ": missing required field",
};
enum { NCOMMON_VERDICTS = sizeof common_verdicts / sizeof common_verdicts[0], MAX_VERDICTS = 32 };

/* The bodies of each verdict so far: one process runs one test, of one
 * game, so one array serves every game. */
static long verdict_count[MAX_VERDICTS];

/* How many verdicts t has, the common ones and its own. */
static int nverdicts(const rd_game *t)
{
    int n = NCOMMON_VERDICTS;
    while (t->verdicts[n - NCOMMON_VERDICTS] != NULL)
        n++;
    ck_assert_int_le(n, MAX_VERDICTS);
    return n;
}

/* Verdict v of t's, the common ones numbered first, "solved" 0. */
static const char *verdict(const rd_game *t, int v)
{
    return v < NCOMMON_VERDICTS ? common_verdicts[v] : t->verdicts[v - NCOMMON_VERDICTS];
}

/* Note which verdict an error (or NULL: a position) is: the first whose
 * words the message holds, in the game's order. */
static void count_verdict(const rd_game *t, const gj_error *e)
{
    for (int v = 1; e != NULL && v < nverdicts(t); v++) {
        if (strstr(e->message, verdict(t, v)) != NULL) {
            verdict_count[v]++;
            return;
        }
    }
    ck_assert_msg(e == NULL, "a verdict the table does not name: %s", e ? e->message : "");
    verdict_count[0]++;
}

/* Both readers on body under lim: the same error or the same position,
 * however the reader is fed (the random pieces drawn from *rng); the
 * tree's verdict is counted first so a failing body is still seen. */
static void rd_compare(const rd_game *t, const char *body, size_t len, const long *lim,
                       uint64_t *rng)
{
    gj_error want_e;
    gj_error_clear(&want_e);
    void *want = t->read_tree(body, len, lim, &want_e);
    gj_buf note = {0};
    if (want != NULL && t->describe != NULL)
        t->describe(want, &note);
    else if (want != NULL)
        t->settle(want);
    count_verdict(t, want != NULL ? NULL : &want_e);
    const int shown = (int)(len < 300 ? len : 300);
    const size_t pieces[] = {0, 1, 7, 300};
    for (size_t p = 0; p < sizeof pieces / sizeof pieces[0]; p++) {
        if (pieces[p] == 1 && len > 4000)
            continue;
        gj_error got_e;
        gj_error_clear(&got_e);
        void *got = harness_read_fed(t->game->read_json, body, len, lim, pieces[p], t->feed_empty,
                                     rng, &got_e);
        if (want == NULL) {
            ck_assert_msg(got == NULL, "the tree says \"%s\", the reader took it (piece %zu): %.*s",
                          want_e.message, pieces[p], shown, body);
            ck_assert_msg(strcmp(got_e.message, want_e.message) == 0 &&
                              strcmp(got_e.field, want_e.field) == 0 && got_e.kind == want_e.kind &&
                              got_e.line == want_e.line && got_e.column == want_e.column,
                          "tree: [%s] %s (%ld:%ld)\nreader: [%s] %s (%ld:%ld)\npiece %zu: %.*s",
                          want_e.field, want_e.message, want_e.line, want_e.column, got_e.field,
                          got_e.message, got_e.line, got_e.column, pieces[p], shown, body);
            continue;
        }
        ck_assert_msg(got != NULL, "the reader says \"%s\" of a body the tree takes: %.*s",
                      got_e.message, shown, body);
        if (t->describe != NULL) {
            gj_buf got_d;
            t->describe(got, &got_d);
            ck_assert_msg(got_d.len == note.len && memcmp(got_d.data, note.data, note.len) == 0,
                          "the reader's position is not the tree's (piece %zu): %.*s", pieces[p],
                          shown, body);
            buf_free(&got_d);
        } else {
            t->same(got, want);
        }
        t->game->free_position(got);
    }
    buf_free(&note);
    t->game->free_position(want);
}

/* Forget the verdicts counted so far, so a test counts only its own. */
static void rd_clear(const rd_game *t)
{
    memset(verdict_count, 0, sizeof *verdict_count * (size_t)nverdicts(t));
}

/* Fail the test unless every verdict was met at least `least` times: a
 * check no body reached is a check the test did not compare. */
static void rd_require(const rd_game *t, long least)
{
    for (int v = 0; v < nverdicts(t); v++)
        ck_assert_msg(verdict_count[v] >= least, "only %ld bodies ended \"%s\"", verdict_count[v],
                      verdict(t, v));
}

/* rd_one_in: one draw below n. */
int rd_one_in(rd_gen *g, uint64_t n)
{
    return rng_below(&g->rng, n) == 0;
}

/* count blanks, each of any of the four kinds JSON allows, so the reader
 * meets every one wherever a body has room for blanks. */
static void blank_run(rd_gen *g, long count)
{
    static const char kinds[] = " \t\n\r";
    for (long c = 0; c < count; c++)
        buf_putc(&g->b, kinds[rng_below(&g->rng, 4)]);
}

/* rd_blanks: a run of 0..3 blanks, a single one a third of the time. */
void rd_blanks(rd_gen *g, int often)
{
    if (!often && !rd_one_in(g, 6))
        return;
    blank_run(g, rd_one_in(g, 3) ? 1 : (long)rng_below(&g->rng, 4));
}

/* rd_blanks_rare: one time in five, a run of 1..3 blanks. */
void rd_blanks_rare(rd_gen *g)
{
    if (!rd_one_in(g, 5))
        return;
    blank_run(g, 1 + (long)rng_below(&g->rng, 3));
}

/* The body broken as JSON at a random place: cut short, a byte put in, or
 * something after, so that the reader's syntax errors meet the tree's. */
static void rd_break_json(rd_gen *g)
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
        buf_puts(&g->b, rd_one_in(g, 2) ? " x" : "{}");
        break;
    }
}

/* The end of a generated body: broken as JSON one time in odd*2 (never
 * when odd is 0), compared under lim, then freed. */
static void rd_finish_body(const rd_game *t, rd_gen *g, uint64_t odd, const long *lim)
{
    if (odd > 0 && rd_one_in(g, odd * 2))
        rd_break_json(g);
    rd_compare(t, g->b.data != NULL ? g->b.data : "", g->b.len, lim, &g->rng);
    buf_free(&g->b);
}

/* rd_not_object: the draw first, then which of the six values. */
int rd_not_object(rd_gen *g, uint64_t one_in, const char *array)
{
    if (one_in == 0 || !rd_one_in(g, one_in))
        return 0;
    const char *const tops[] = {"[]", " 1", "\"x\"", "null", array, "1.5"};
    buf_puts(&g->b, tops[rng_below(&g->rng, sizeof tops / sizeof tops[0])]);
    return 1;
}

/* rd_odd_value: the common values with the game's own in their places. */
void rd_odd_value(rd_gen *g, const rd_odd_values *o)
{
    /* Index 1 is the game's `past`, so the list keeps the order the games
     * drew from before they shared it. */
    static const char *const common[] = {
        "-1",
        NULL,
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
    };
    enum { NCOMMON = sizeof common / sizeof common[0] };
    size_t nmore = 0;
    while (nmore < sizeof o->more / sizeof o->more[0] && o->more[nmore] != NULL)
        nmore++;
    size_t k = (size_t)rng_below(&g->rng, NCOMMON + nmore);
    buf_puts(&g->b, k == 1 ? o->past : k < NCOMMON ? common[k] : o->more[k - NCOMMON]);
}

/* rd_odd_key: the game's four (or three) names, then the three every game
 * tries, each quoted. */
void rd_odd_key(rd_gen *g, const rd_keys *k)
{
    const char *keys[7];
    size_t n = 0;
    keys[n++] = k->other;
    keys[n++] = k->capital;
    keys[n++] = "";
    keys[n++] = k->spaced;
    if (k->doubled != NULL)
        keys[n++] = k->doubled;
    keys[n++] = "\\u00e9t\\u00e9";
    keys[n++] = k->long_utf8 ? "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
                               "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
                               "\xc3\xa9\xc3\xa9\xc3\xa9x\xc3\xa9\xc3\xa9\xc3\xa9"
                             : "a_key_far_longer_than_any_error_message_quotes_whole";
    buf_putc(&g->b, '"');
    buf_puts(&g->b, keys[rng_below(&g->rng, n)]);
    buf_putc(&g->b, '"');
}

/* ---- a grid of strings ---- */

/* A value that is no row: each type a check can meet, and some that jansson
 * refuses. */
static void odd_value(rd_gen *g)
{
    static const char *const values[] = {
        "0",
        "-7",
        "2.5",
        "1e0",
        "-0.0",
        "null",
        "true",
        "false",
        "[\"..\"]",
        "[]",
        "{\"a\": [\".\"]}",
        "{}",
        "1e400",
        "92233720368547758080",
        "\"\\u0000\"",
        "\"\\ud800\"",
    };
    buf_puts(&g->b, values[rng_below(&g->rng, sizeof values / sizeof values[0])]);
}

/* A cell that is no cell, as the body spells it: plain bytes, escapes,
 * multi-byte UTF-8 (the quote of a stranger byte is cut at a character),
 * and the game's own strangers. */
static void odd_cell(rd_gen *g, const rd_cells *c)
{
    const char *const cells[] = {
        "x",
        c->strangers[0],
        c->strangers[1],
        " ",
        "0",
        "\\t",
        "\\n",
        "\\\"",
        "\\\\",
        "\\/",
        "\\u00e9",
        "\xc3\xa9",
        c->strangers[2],
        c->strangers[3],
        "\xf0\x9f\x98\x80",
        "\\ud83d\\ude00",
        "\\u002e",
    };
    buf_puts(&g->b, cells[rng_below(&g->rng, sizeof cells / sizeof cells[0])]);
}

/* Row i, `width` cells spelled as c says, with a stranger cell at rate
 * about 1 in `odd` a row (0: none). */
static void row(rd_gen *g, const rd_cells *c, long width, uint64_t odd)
{
    if (odd > 0 && rd_one_in(g, odd * 4)) {
        odd_value(g);
        return;
    }
    long wrong =
        odd > 0 && rd_one_in(g, odd * 2) ? (long)rng_below(&g->rng, (uint64_t)width + 1) : -1;
    buf_putc(&g->b, '"');
    for (long j = 0; j < width; j++) {
        if (j == wrong)
            odd_cell(g, c);
        int most = !rd_one_in(g, 4);
        if (rd_one_in(g, 40))
            buf_puts(&g->b, c->escaped[most]);
        else if (most && c->alt[0] != NULL && rd_one_in(g, 20))
            buf_puts(&g->b, c->alt[rd_one_in(g, 2) ? 0 : 1]);
        else
            buf_putc(&g->b, c->cell[most]);
    }
    if (wrong == width)
        odd_cell(g, c);
    buf_putc(&g->b, '"');
}

/* The member "grid": rows rows of (mostly) cols cells each. */
static void grid(rd_gen *g, const rd_cells *c, long rows, long cols, uint64_t odd)
{
    if (odd > 0 && rd_one_in(g, odd * 8)) {
        if (rd_one_in(g, 3))
            buf_puts(&g->b, rd_one_in(g, 2) ? c->short_row : "\"\"");
        else
            odd_value(g);
        return;
    }
    buf_putc(&g->b, '[');
    rd_blanks(g, 1);
    for (long i = 0; i < rows; i++) {
        if (i > 0) {
            buf_putc(&g->b, ',');
            rd_blanks(g, 1);
        }
        long width = cols;
        if (odd > 0 && rd_one_in(g, odd * 3 * (uint64_t)rows)) {
            switch (rng_below(&g->rng, 4)) {
            case 0:
                width = cols + 1;
                break;
            case 1:
                width = cols - 1;
                break;
            case 2:
                width = 0;
                break;
            default:
                width = cols + 1 + (long)rng_below(&g->rng, 40);
                break;
            }
        }
        row(g, c, width, odd > 0 ? odd * (uint64_t)rows : 0);
        rd_blanks(g, 0);
    }
    buf_putc(&g->b, ']');
}

/* The keys no grid has, close to "grid". */
static const rd_keys grid_keys = {
    .other = "rows",
    .capital = "Grid",
    .spaced = "grid ",
    .doubled = "gridd",
    .long_utf8 = 1,
};

/* rd_grid_body: "grid" and perhaps keys no position has, in a random
 * order, each mistake at rate 1 in `odd` (0: none). */
void rd_grid_body(rd_gen *g, const rd_cells *c, long rows, long cols, uint64_t odd)
{
    /* The members in writing order: 1 is "grid", 0 a key no position has;
     * "grid" may be missing or written twice. */
    int list[8], len = 0;
    list[len++] = 1;
    if (odd > 0 && rd_one_in(g, odd * 6))
        len = 0;
    for (int extra = 0; odd > 0 && extra < 2 && rd_one_in(g, odd * 3); extra++) {
        int at = (int)rng_below(&g->rng, (uint64_t)len + 1);
        memmove(list + at + 1, list + at, (size_t)(len - at) * sizeof *list);
        list[at] = 0;
        len++;
    }
    if (odd > 0 && len > 0 && rd_one_in(g, odd * 8)) {
        int again = list[rng_below(&g->rng, (uint64_t)len)];
        list[len++] = again;
    }
    rd_blanks(g, 0);
    buf_putc(&g->b, '{');
    rd_blanks(g, 1);
    for (int m = 0; m < len; m++) {
        if (m > 0) {
            buf_putc(&g->b, ',');
            rd_blanks(g, 1);
        }
        if (list[m] == 0)
            rd_odd_key(g, &grid_keys);
        else
            buf_puts(&g->b, rd_one_in(g, 8) ? "\"gri\\u0064\"" : "\"grid\"");
        rd_blanks(g, 0);
        buf_putc(&g->b, ':');
        rd_blanks(g, 0);
        if (list[m] == 1)
            grid(g, c, rows, cols, odd);
        else if (rd_one_in(g, 2))
            odd_value(g);
        else
            grid(g, c, 2, 2, 0);
        rd_blanks(g, 0);
    }
    buf_putc(&g->b, '}');
    rd_blanks(g, 0);
}

/* ---- the suite ---- */

/* The table the tests run: set by rd_main before Check forks them, since a
 * Check test takes no argument. */
static const rd_table *table;

/* One run of the table's bodies, each written by the game, then broken,
 * compared and freed here. */
static void run_bodies(const rd_run *r)
{
    rd_gen g = {r->seed, {0}};
    for (int c = 0; c < r->count; c++) {
        long lim[GJ_MAX_LIMITS] = {0};
        buf_init(&g.b);
        table->write(&g, r->size, r->odd, lim);
        rd_finish_body(table->diff, &g, r->odd, lim);
    }
}

/* Valid bodies in every whitespace, spelling and member order: the reader
 * takes each as the tree does. */
START_TEST(test_valid)
{
    rd_clear(table->diff);
    run_bodies(&table->valid);
    ck_assert_int_eq(verdict_count[0], table->valid.count);
}
END_TEST

/* Bodies with mistakes, often several: each check is met, and the first
 * in the tree's order is the one both report. */
START_TEST(test_mistakes)
{
    rd_clear(table->diff);
    for (int r = 0; r < RD_MAX_RUNS; r++)
        if (table->mistakes[r].count > 0)
            run_bodies(&table->mistakes[r]);
    rd_require(table->diff, table->least);
}
END_TEST

/* The bodies the game's test names by hand, each compared once. */
START_TEST(test_named)
{
    uint64_t rng = 1;
    for (const char *const *b = table->named; *b != NULL; b++)
        rd_compare(table->diff, *b, strlen(*b), table->named_lim, &rng);
}
END_TEST

/* parse_json is the reader: its answer to a body is the tree's. */
START_TEST(test_parse_json)
{
    gj_error e;
    const gj_game *game = table->diff->game;
    ck_assert_ptr_nonnull(game->read_json);
    void *pos =
        game->parse_json(table->parse_body, strlen(table->parse_body), table->parse_lim, &e);
    ck_assert_ptr_null(pos);
    ck_assert_str_eq(e.field, table->parse_field);
    ck_assert_str_eq(e.message, table->parse_message);
}
END_TEST

/* rd_main: the four tests, each allowed 120 s as each game's suite was:
 * thousands of bodies fed byte by byte outlast Check's default 4 s on a
 * slow or instrumented build. */
int rd_main(const rd_table *t)
{
    table = t;
    const harness_case cases[] = {
        {"valid", test_valid},
        {"mistakes", test_mistakes},
        {"named", test_named},
        {"parse_json", test_parse_json},
    };
    return harness_main(harness_suite(t->name, cases, sizeof cases / sizeof cases[0], 120));
}
