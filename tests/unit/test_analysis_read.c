/* test_analysis_read.c - an /analyze body read as it arrives with its bulk
 * member in the game's arrays (analysis_read.h) against the same body
 * parsed whole into a tree (line.h's line_prepare).
 *
 * For each game with such a reader (matrix-game's matrix, nim-shortcuts'
 * shortcuts, grid-walk's path): thousands of generated requests, valid and not (every member
 * of the position and of the line wrong in each way it can be, unknown and
 * repeated members, broken JSON), each read both ways, the reader fed whole,
 * a byte at a time and in random pieces: both must give the same error
 * (kind, field, line, column, message) at the same step, the same
 * canonical form (the cache key and the entity tag) and the same answer,
 * byte for byte.  The tree the reader builds must hold the bulk member as
 * a null: that is the memory it saves. */
#include <check.h>
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_read.h"
#include "games.h"
#include "grant.h"
#include "engine.h"
#include "harness.h"
#include "line.h"

/* What a generated body led to, counted: each kind must be met. */
enum {
    V_ANSWERED,  /* analysed */
    V_JSON,      /* refused as JSON (the reader's finish) */
    V_OPTION,    /* refused for a line option (prepare) */
    V_POSITION,  /* refused for a member the game's reader takes (its own error) */
    V_OTHER_RUN, /* refused while run for another member */
    V_NVERDICTS,
};

/* A game under test: how its requests' members are written (its own
 * first, then the common ones, C_FIRST on), the limits they are read under
 * (its defaults where 0), and the field its reader's errors name. */
typedef struct subject {
    const gj_game *game;
    void (*member)(uint64_t *rng, gj_buf *b, int m, long n, uint64_t odd);
    int own;      /* its own members, 0..own-1 */
    int required; /* the first `required` of them the request needs */
    long lo, hi;  /* the size n handed to member(), drawn in lo..hi */
    long lim[GJ_MAX_LIMITS];
    const char *read; /* its reader's fields: prefixes of the errors' fields, ' '-separated */
    /* When members must agree, what they agree on, drawn before any is
     * written (NULL: nothing). */
    void (*begin)(uint64_t *rng, long n, uint64_t odd);
} subject;

/* The limits s's requests are read under. */
static void subject_limits(const subject *s, long *lim)
{
    for (int i = 0; i < GJ_MAX_LIMITS; i++)
        lim[i] = s->lim[i] != 0 ? s->lim[i] : i < s->game->nlimits ? s->game->limits[i].def : 0;
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

/* A value of odd[0..n) drawn uniformly. */
static void pick(uint64_t *rng, gj_buf *b, const char *const *odd, size_t n)
{
    buf_puts(b, odd[rng_below(rng, n)]);
}
#define PICK(rng, b, list) pick(rng, b, list, sizeof list / sizeof list[0])

/* The members every game's request may have, after its own. */
enum { C_MAX_MOVES, C_LINE, C_MAX_LINE, C_AFTER, C_UNKNOWN, C_N };

/* Common member c's key and value, wrong one time in odd. */
static void common_member(uint64_t *rng, gj_buf *b, int c, uint64_t odd)
{
    static const char *const keys[C_N] = {"\"max_moves\"", "\"line\"", "\"max_line\"", "\"after\"",
                                          NULL};
    static const char *const unknown[] = {"\"zz\"", "\"Matrix\"",   "\"\"",
                                          "\"k \"", "\"\\u006bk\"", "\"heaps \""};
    if (c == C_UNKNOWN)
        PICK(rng, b, unknown);
    else
        buf_puts(b, keys[c]);
    blanks(rng, b);
    buf_putc(b, ':');
    blanks(rng, b);
    int wrong = one_in(rng, odd);
    static const char *const maxes[] = {"0", "\"3\"", "2.5", "100000000", "null"};
    static const char *const afters[] = {"\"whole\"", "true"};
    switch (c) {
    case C_MAX_MOVES:
    case C_MAX_LINE:
        if (wrong)
            PICK(rng, b, maxes);
        else
            buf_put_long(b, 1 + (long)rng_below(rng, 12));
        break;
    case C_LINE:
        buf_puts(b, wrong ? "1" : one_in(rng, 4) ? "false" : "true");
        break;
    case C_AFTER:
        if (wrong)
            PICK(rng, b, afters);
        else
            buf_puts(b, one_in(rng, 2) ? "\"diff\"" : "\"full\"");
        break;
    default: /* an unknown member's value: nested now and then */
        buf_puts(b, one_in(rng, 2) ? "{\"a\":[1,{\"b\":null}]}" : "2");
        break;
    }
}

/* A key, quoted, and its colon. */
static void key(uint64_t *rng, gj_buf *b, const char *name)
{
    buf_putc(b, '"');
    buf_puts(b, name);
    buf_putc(b, '"');
    blanks(rng, b);
    buf_putc(b, ':');
    blanks(rng, b);
}

/* "moves": up to three moves each written by move(), or no list one time
 * in two when wrong. */
static void moves(uint64_t *rng, gj_buf *b, long n, uint64_t odd, int wrong,
                  void (*move)(uint64_t *rng, gj_buf *b, long n, uint64_t odd))
{
    if (wrong && one_in(rng, 2)) {
        buf_puts(b, one_in(rng, 2) ? "\"x\"" : "{}");
        return;
    }
    buf_putc(b, '[');
    for (long i = 0, count = (long)rng_below(rng, 4); i < count; i++) {
        buf_puts(b, i > 0 ? "," : "");
        move(rng, b, n, odd);
    }
    buf_putc(b, ']');
}

/* ---- matrix-game -------------------------------------------------------- */

enum { MG_K, MG_MATRIX, MG_TOKEN, MG_TO_MOVE, MG_MOVES, MG_N };

/* An n x n matrix of 1..n^2 shuffled, with one mistake one time in odd. */
static void mg_matrix(uint64_t *rng, gj_buf *b, long n, uint64_t odd)
{
    static const char *const whole[] = {"null", "[]",      "\"m\"",     "[[1,2,3]]",
                                        "{}",   "[1,2,3]", "{\"k\":1}", "[{\"token\":[1,1]}]"};
    if (one_in(rng, odd * 4)) {
        PICK(rng, b, whole);
        return;
    }
    long nn = n * n;
    int *v = malloc((size_t)nn * sizeof *v);
    ck_assert_ptr_nonnull(v);
    rng_shuffled(rng, v, nn);
    long bad = one_in(rng, odd) ? (long)rng_below(rng, (uint64_t)nn) : -1;
    long short_row = one_in(rng, odd * 2) ? (long)rng_below(rng, (uint64_t)n) : -1;
    /* Objects too: their keys are the matrix's, not the request's. */
    static const char *const odd_values[] = {
        "0",   "-1",    "1.5", "\"7\"",    "null",
        "[1]", "99999", "1e2", "{\"\":1}", "{\"k\":[{\"matrix\":2}]}"};
    buf_putc(b, '[');
    for (long i = 0; i < n; i++) {
        buf_puts(b, i > 0 ? "," : "");
        blanks(rng, b);
        if (i == short_row && one_in(rng, 3)) {
            buf_puts(b, "\"row\"");
            continue;
        }
        buf_putc(b, '[');
        for (long j = 0, cols = i == short_row ? n - 1 : n; j < cols; j++) {
            buf_puts(b, j > 0 ? "," : "");
            long c = i * n + j;
            if (c == bad && one_in(rng, 3)) /* a value repeated: the permutation's mistake */
                buf_put_long(b, v[(c + 1) % nn]);
            else if (c == bad)
                PICK(rng, b, odd_values);
            else
                buf_put_long(b, v[c]);
        }
        buf_putc(b, ']');
    }
    buf_putc(b, ']');
    free(v);
}

/* A cell [r, c] of an n x n matrix, or off it one time in odd. */
static void mg_cell(uint64_t *rng, gj_buf *b, long n, uint64_t odd)
{
    static const char *const cells[] = {"[0,1]", "[1]", "\"a1\"", "[1,99]", "null", "[1,1,1]"};
    if (one_in(rng, odd)) {
        PICK(rng, b, cells);
        return;
    }
    buf_putc(b, '[');
    buf_put_long(b, 1 + (long)rng_below(rng, (uint64_t)n));
    buf_putc(b, ',');
    buf_put_long(b, 1 + (long)rng_below(rng, (uint64_t)n));
    buf_putc(b, ']');
}

/* matrix-game's member m. */
static void mg_member(uint64_t *rng, gj_buf *b, int m, long n, uint64_t odd)
{
    static const char *const names[MG_N] = {"k", "matrix", "token", "to_move", "moves"};
    static const char *const ks[] = {"0", "null", "\"1\"", "1.0", "[1]", "-3"};
    static const char *const movers[] = {"\"X\"", "1"};
    if (m >= MG_N) {
        common_member(rng, b, m - MG_N, odd);
        return;
    }
    key(rng, b, names[m]);
    int wrong = one_in(rng, odd);
    switch (m) {
    case MG_K:
        if (wrong)
            PICK(rng, b, ks);
        else
            buf_put_long(b, 1 + (long)rng_below(rng, (uint64_t)(n - 2)));
        break;
    case MG_MATRIX:
        mg_matrix(rng, b, n, odd);
        break;
    case MG_TOKEN:
        if (one_in(rng, 4))
            buf_puts(b, "null");
        else
            mg_cell(rng, b, n, odd);
        break;
    case MG_TO_MOVE:
        if (wrong)
            PICK(rng, b, movers);
        else
            buf_puts(b, one_in(rng, 2) ? "\"M\"" : "\"G\"");
        break;
    default:
        moves(rng, b, n, odd, wrong, mg_cell);
        break;
    }
}

/* ---- nim-shortcuts ------------------------------------------------------ */

enum { NS_SHORTCUTS, NS_HEAPS, NS_TO_MOVE, NS_MOVES, NS_N };

/* n shortcuts [x, y], distinct and small, with one mistake one time in odd
 * (a repeat among them). */
static void ns_shortcuts(uint64_t *rng, gj_buf *b, long n, uint64_t odd)
{
    static const char *const whole[] = {"null", "{}", "\"s\"", "[1,2]", "7"};
    static const char *const points[] = {"[1]", "[1,2,3]",    "[-1,0]",           "[\"a\",1]",
                                         "1.5", "null",       "[1,1e1]",          "[0,4000000000]",
                                         "{}",  "{\"\":[1]}", "[{\"heaps\":1},2]"};
    if (one_in(rng, odd * 4)) {
        PICK(rng, b, whole);
        return;
    }
    long bad = one_in(rng, odd) ? (long)rng_below(rng, (uint64_t)n + 1) : -1;
    long x = 0, y = 0, prev_x = -1, prev_y = -1;
    buf_putc(b, '[');
    for (long i = 0; i < n; i++) {
        buf_puts(b, i > 0 ? "," : "");
        blanks(rng, b);
        /* Distinct: each point steps past the one before, in a random
         * direction. */
        if (rng_below(rng, 2) == 0)
            x += 1 + (long)rng_below(rng, 3);
        else
            y += 1 + (long)rng_below(rng, 3);
        if (i == bad && prev_x >= 0 && one_in(rng, 2)) {
            buf_puts(b, "[");
            buf_put_long(b, prev_x);
            buf_putc(b, ',');
            buf_put_long(b, prev_y);
            buf_puts(b, "]");
            continue;
        }
        if (i == bad) {
            PICK(rng, b, points);
            continue;
        }
        long px = rng_below(rng, 2) ? x : y, py = px == x ? y : x; /* order mixed */
        buf_putc(b, '[');
        buf_put_long(b, px);
        buf_putc(b, ',');
        buf_put_long(b, py);
        buf_putc(b, ']');
        prev_x = px;
        prev_y = py;
    }
    buf_putc(b, ']');
}

/* A move {"heap": 1 or 2, "take": k}, or not one one time in odd. */
static void ns_move(uint64_t *rng, gj_buf *b, long n, uint64_t odd)
{
    static const char *const wrong[] = {"{\"heap\":3,\"take\":1}", "{\"heap\":1}",
                                        "{\"heap\":1,\"take\":0}", "[1,1]",
                                        "{\"heap\":2,\"take\":99}"};
    (void)n;
    if (one_in(rng, odd)) {
        PICK(rng, b, wrong);
        return;
    }
    buf_puts(b, "{\"heap\":");
    buf_put_long(b, 1 + (long)rng_below(rng, 2));
    buf_puts(b, ",\"take\":");
    buf_put_long(b, 1 + (long)rng_below(rng, 3));
    buf_putc(b, '}');
}

/* nim-shortcuts' member m. */
static void ns_member(uint64_t *rng, gj_buf *b, int m, long n, uint64_t odd)
{
    static const char *const names[NS_N] = {"shortcuts", "heaps", "to_move", "moves"};
    static const char *const heaps[] = {"[1]", "[1,2,3]", "[-1,2]", "null", "\"3 4\"", "[1,2.0]"};
    static const char *const movers[] = {"\"third\"", "\"First\"", "0"};
    if (m >= NS_N) {
        common_member(rng, b, m - NS_N, odd);
        return;
    }
    key(rng, b, names[m]);
    int wrong = one_in(rng, odd);
    switch (m) {
    case NS_SHORTCUTS:
        ns_shortcuts(rng, b, n, odd);
        break;
    case NS_HEAPS:
        if (wrong) {
            PICK(rng, b, heaps);
            break;
        }
        buf_putc(b, '[');
        buf_put_long(b, (long)rng_below(rng, 12));
        buf_putc(b, ',');
        buf_put_long(b, (long)rng_below(rng, 12));
        buf_putc(b, ']');
        break;
    case NS_TO_MOVE:
        if (wrong)
            PICK(rng, b, movers);
        else
            buf_puts(b, one_in(rng, 2) ? "\"first\"" : "\"second\"");
        break;
    default:
        moves(rng, b, n, odd, wrong, ns_move);
        break;
    }
}

/* ---- grid-walk ---------------------------------------------------------- */

enum { GW_GRID, GW_PATH, GW_TOKEN, GW_TO_MOVE, GW_VISITED, GW_MOVES, GW_N };
enum { GW_MOST = 8, GW_WIDEST = GW_MOST + 1 }; /* the largest rows and columns drawn */

/* The request being written: its grid and its walk, drawn by gw_begin so
 * that the members agree (unless one is wrong on purpose). */
static struct {
    long rows, cols;
    char cell[GW_MOST][GW_WIDEST + 1]; /* '.' free, '#' blocked, rows NUL-ended */
    long at[GW_MOST * GW_WIDEST][2];   /* the path, 1-based [row, column] */
    long len;
} gw;

/* The grid (n rows, n or n + 1 columns, about one cell in six blocked)
 * and a random walk on it, empty one time in eight. */
static void gw_begin(uint64_t *rng, long n, uint64_t odd)
{
    (void)odd;
    gw.rows = n;
    gw.cols = n + (long)rng_below(rng, 2);
    memset(gw.cell, 0, sizeof gw.cell);
    for (long i = 0; i < gw.rows; i++)
        for (long j = 0; j < gw.cols; j++)
            gw.cell[i][j] = one_in(rng, 6) ? '#' : '.';
    gw.len = 0;
    if (one_in(rng, 8))
        return;
    long want = 1 + (long)rng_below(rng, (uint64_t)(gw.rows * gw.cols));
    long r = (long)rng_below(rng, (uint64_t)gw.rows), c = (long)rng_below(rng, (uint64_t)gw.cols);
    char seen[GW_MOST][GW_WIDEST] = {{0}};
    while (gw.cell[r][c] == '.' && !seen[r][c] && gw.len < want) {
        seen[r][c] = 1;
        gw.at[gw.len][0] = r + 1;
        gw.at[gw.len][1] = c + 1;
        gw.len++;
        static const int step[4][2] = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}};
        const int *d = step[rng_below(rng, 4)];
        if (r + d[0] >= 0 && r + d[0] < gw.rows && c + d[1] >= 0 && c + d[1] < gw.cols) {
            r += d[0];
            c += d[1];
        }
    }
}

/* The grid's rows, or a wrong grid one time in odd * 4. */
static void gw_grid(uint64_t *rng, gj_buf *b, uint64_t odd)
{
    static const char *const whole[] = {"null", "[]",       "\"..\"", "[\"..\",\"...\"]",
                                        "[1]",  "[\"x.\"]", "{}",     "[[\".\"]]"};
    if (one_in(rng, odd * 4)) {
        PICK(rng, b, whole);
        return;
    }
    buf_putc(b, '[');
    for (long i = 0; i < gw.rows; i++) {
        buf_puts(b, i > 0 ? "," : "");
        blanks(rng, b);
        buf_putc(b, '"');
        buf_puts(b, gw.cell[i]);
        buf_putc(b, '"');
    }
    buf_putc(b, ']');
}

/* The walk as "path": one element wrong one time in odd (a value of the
 * wrong kind, size or range, a step that breaks a rule), or the whole
 * path wrong or too long one time in odd * 4. */
static void gw_path(uint64_t *rng, gj_buf *b, uint64_t odd)
{
    static const char *const whole[] = {"null", "{}", "\"p\"", "[]", "7", "[[1,1],[1,1]]"};
    static const char *const elements[] = {"[0,1]",
                                           "[1]",
                                           "\"a\"",
                                           "[1,2,3]",
                                           "null",
                                           "{}",
                                           "[1,1.5]",
                                           "[1,99]",
                                           "[[1],2]",
                                           "[3000000000,1]",
                                           "[-2147483649,1]",
                                           "[1,{\"path\":[1,1]}]",
                                           "{\"grid\":[\".\"]}",
                                           "[]",
                                           "[true,1]",
                                           "[1,\"2\"]"};
    if (one_in(rng, odd * 4)) {
        if (one_in(rng, 2)) {
            PICK(rng, b, whole);
            return;
        }
        /* Longer than any grid of the limits allows: only counted. */
        buf_putc(b, '[');
        for (long i = 0, count = 37 + (long)rng_below(rng, 40); i < count; i++)
            buf_puts(b, i > 0 ? ",[1,1]" : "[1,1]");
        buf_putc(b, ']');
        return;
    }
    long bad = one_in(rng, odd) ? (long)rng_below(rng, (uint64_t)gw.len + 1) : -1;
    buf_putc(b, '[');
    for (long i = 0; i <= gw.len; i++) {
        if (i == gw.len && bad != gw.len)
            break;
        buf_puts(b, i > 0 ? "," : "");
        blanks(rng, b);
        if (i == bad && i > 0 && one_in(rng, 3)) { /* a cell again, or a jump */
            long k = (long)rng_below(rng, (uint64_t)i);
            buf_putc(b, '[');
            buf_put_long(b, one_in(rng, 2) ? gw.at[k][0] : 1 + (long)rng_below(rng, 6));
            buf_putc(b, ',');
            buf_put_long(b, gw.at[k][1]);
            buf_putc(b, ']');
        } else if (i == bad) {
            PICK(rng, b, elements);
        } else {
            buf_putc(b, '[');
            buf_put_long(b, gw.at[i][0]);
            buf_putc(b, ',');
            blanks(rng, b);
            buf_put_long(b, gw.at[i][1]);
            buf_putc(b, ']');
        }
    }
    buf_putc(b, ']');
}

/* A cell of the grid: next to the path's last one mostly, anywhere or
 * off the grid now and then. */
static void gw_cell(uint64_t *rng, gj_buf *b, long n, uint64_t odd)
{
    static const char *const cells[] = {"[0,1]", "[1]", "\"a1\"", "[1,99]", "null"};
    (void)n;
    if (one_in(rng, odd)) {
        PICK(rng, b, cells);
        return;
    }
    long r = 1 + (long)rng_below(rng, (uint64_t)gw.rows);
    long c = 1 + (long)rng_below(rng, (uint64_t)gw.cols);
    if (gw.len > 0 && !one_in(rng, 4)) {
        r = gw.at[gw.len - 1][0];
        c = gw.at[gw.len - 1][1];
        if (one_in(rng, 2))
            r += one_in(rng, 2) ? 1 : -1;
        else
            c += one_in(rng, 2) ? 1 : -1;
    }
    buf_putc(b, '[');
    buf_put_long(b, r);
    buf_putc(b, ',');
    buf_put_long(b, c);
    buf_putc(b, ']');
}

/* grid-walk's member m: token, to_move and visited say what the path
 * does, but one time in odd * 2 (any of the three can spoil a request
 * the others make). */
static void gw_member(uint64_t *rng, gj_buf *b, int m, long n, uint64_t odd)
{
    static const char *const names[GW_N] = {"grid", "path", "token", "to_move", "visited", "moves"};
    if (m >= GW_N) {
        common_member(rng, b, m - GW_N, odd);
        return;
    }
    key(rng, b, names[m]);
    int wrong = one_in(rng, odd * 2);
    switch (m) {
    case GW_GRID:
        gw_grid(rng, b, odd);
        break;
    case GW_PATH:
        gw_path(rng, b, odd);
        break;
    case GW_TOKEN:
        if (gw.len == 0 || wrong) {
            buf_puts(b, gw.len == 0 && !wrong ? "null" : "[1,1]");
            break;
        }
        buf_putc(b, '[');
        buf_put_long(b, gw.at[gw.len - 1][0]);
        buf_putc(b, ',');
        buf_put_long(b, gw.at[gw.len - 1][1]);
        buf_putc(b, ']');
        break;
    case GW_TO_MOVE:
        buf_puts(b, (gw.len % 2 == 0) != wrong ? "\"A\"" : "\"B\"");
        break;
    case GW_VISITED:
        buf_put_long(b, wrong ? gw.len + 1 : gw.len);
        break;
    default:
        moves(rng, b, n, odd, wrong, gw_cell);
        break;
    }
}

/* ---- the driver --------------------------------------------------------- */

/* One request of s: its members in a random order (the required ones
 * nearly always), at times one repeated, at times broken as JSON one time
 * in odd * 2. */
static void write_request(const subject *s, uint64_t *rng, gj_buf *b, uint64_t odd)
{
    long n = s->lo + (long)rng_below(rng, (uint64_t)(s->hi - s->lo + 1));
    if (s->begin != NULL)
        s->begin(rng, n, odd);
    int order[16], count = 0, all = s->own + C_N;
    for (int m = 0; m < all; m++) {
        /* max_line without "line": true is refused before anything else
         * is read: rarer, so that more requests get further. */
        int keep = m < s->required            ? !one_in(rng, odd * 3)
                   : m == s->own + C_UNKNOWN  ? one_in(rng, odd)
                   : m == s->own + C_MAX_LINE ? one_in(rng, 5)
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
        s->member(rng, b, order[i], n, odd);
        blanks(rng, b);
    }
    if (count > 0 && one_in(rng, odd * 3)) {
        buf_putc(b, ',');
        s->member(rng, b, order[rng_below(rng, (uint64_t)count)], n, odd);
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

/* Whether field names a member s's reader takes (or an element of one). */
static int read_field(const subject *s, const char *field)
{
    const char *at = s->read;
    while (*at != '\0') {
        size_t len = strcspn(at, " ");
        if (strncmp(field, at, len) == 0 && (field[len] == '\0' || field[len] == '['))
            return 1;
        at += len + (at[len] == ' ');
    }
    return 0;
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

/* body read both ways under s's limits, the reader fed in pieces of up to
 * `piece` bytes (0: whole, 1: byte by byte): the verdict, after failing
 * the test unless both ways agree. */
static int compare(const subject *s, const gj_buf *body, size_t piece, uint64_t *rng)
{
    const gj_game *g = s->game;
    long lim[GJ_MAX_LIMITS];
    subject_limits(s, lim);
    line_request qa, qb;
    gj_error ea = {0}, eb = {0};
    int ra = line_prepare(body->data, body->len, &qa, &ea);
    analysis_body *read =
        harness_read_fed(g->play->read_analysis, body->data, body->len, lim, piece, 1, rng, &eb);
    if (read == NULL) {
        ck_assert_msg(ra != 0, "the reader refused what the tree took: %.*s", (int)body->len,
                      body->data);
        same_error(&ea, &eb, "read", body);
        return V_JSON;
    }
    /* The bulk member is never a tree on the reader's side. */
    const json_t *bulk = json_object_get(read->root, read->events->bulk);
    ck_assert(bulk == NULL || json_is_null(bulk));
    if (read->pos != NULL) { /* the work charged covers the form's bulk member at least */
        gj_buf text;
        buf_init(&text);
        read->events->write_bulk(read->pos, &text);
        ck_assert(!text.failed);
        ck_assert_uint_le(text.len, read->events->work(read->pos));
        buf_free(&text);
    }
    int rb = line_prepare_read(read, &qb, &eb);
    ck_assert_msg(ra == rb, "prepare: tree %d, reader %d (%s / %s)", ra, rb, ea.message,
                  eb.message);
    if (ra != 0) {
        same_error(&ea, &eb, "prepare", body);
        return ea.kind == GJ_BAD_INPUT && ea.line == 0 ? V_OPTION : V_JSON;
    }
    int same_form = qa.canonical_len == qb.canonical_len &&
                    memcmp(qa.canonical, qb.canonical, qa.canonical_len) == 0;
    json_t *form = json_loads(qb.canonical, 0, NULL);
    ck_assert_ptr_nonnull(form);
    int null_form = json_is_null(json_object_get(form, read->events->bulk));
    json_decref(form);
    gj_buf oa, ob;
    buf_init(&oa);
    buf_init(&ob);
    ra = line_run(g, &qa, lim, &oa, &ea);
    rb = line_run(g, &qb, lim, &ob, &eb);
    ck_assert_msg(ra == rb, "run: tree %d, reader %d (%s / %s) for %.*s", ra, rb, ea.message,
                  eb.message, (int)body->len, body->data);
    /* A refused position has no answer: its form, stored under nothing,
     * need not be the tree's, but it must be no answered request's form,
     * so its bulk member stands there as a null. */
    ck_assert_msg(same_form || (ra != 0 && null_form), "canonical forms differ: %s | %s",
                  qa.canonical, qb.canonical);
    int verdict = V_ANSWERED;
    if (ra != 0) {
        same_error(&ea, &eb, "run", body);
        verdict = read_field(s, ea.field) ? V_POSITION : V_OTHER_RUN;
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

/* body as a /move request (engine.h): `level` and `seed` put first in its
 * object, whatever else it holds, into *out (buf_init'd there). */
static void as_move(const gj_buf *body, gj_buf *out, uint64_t *rng)
{
    buf_init(out);
    const char *open = memchr(body->data, '{', body->len);
    size_t at = open != NULL ? (size_t)(open - body->data) + 1 : 0;
    buf_append(out, body->data, at);
    buf_puts(out, "\"level\":");
    buf_put_long(out, 1 + (long)rng_below(rng, 5));
    buf_puts(out, ",\"seed\":");
    buf_put_long(out, (long)rng_below(rng, 1000));
    buf_putc(out, ',');
    buf_append(out, body->data + at, body->len - at);
}

/* body read both ways as a /move request, as compare() reads it as an
 * /analyze one: 1 when the engine answered, 0 when both refused alike. */
static int compare_move(const subject *s, const gj_buf *body, size_t piece, uint64_t *rng)
{
    const gj_game *g = s->game;
    long lim[GJ_MAX_LIMITS];
    subject_limits(s, lim);
    gj_error ea = {0}, eb = {0};
    gj_buf oa, ob;
    buf_init(&oa);
    buf_init(&ob);
    int ra = engine_move(g, body->data, body->len, lim, 99, &oa, &ea);
    analysis_body *read =
        harness_read_fed(g->play->read_analysis, body->data, body->len, lim, piece, 1, rng, &eb);
    int rb = read != NULL ? engine_move_read(g, read, lim, 99, &ob, &eb) : -1;
    ck_assert_msg(ra == rb, "move: tree %d, reader %d (%s / %s) for %.*s", ra, rb, ea.message,
                  eb.message, (int)body->len, body->data);
    if (ra != 0)
        same_error(&ea, &eb, "move", body);
    else
        ck_assert_msg(oa.len == ob.len && memcmp(oa.data, ob.data, oa.len) == 0,
                      "moves differ: %.*s | %.*s", (int)oa.len, oa.data, (int)ob.len, ob.data);
    buf_free(&oa);
    buf_free(&ob);
    return ra == 0;
}

/* count generated requests of s from seed, each read whole, byte by byte
 * and in pieces of up to 7 and 300 bytes, as /analyze requests and as
 * /move ones; every verdict must be met `least` times, and the engine
 * must answer half as many. */
static void sweep(const subject *s, uint64_t seed, int count, uint64_t odd, int least)
{
    uint64_t rng = seed, feed = seed ^ 0x5bd1e995u;
    int met[V_NVERDICTS] = {0}, engine_answered = 0;
    static const size_t pieces[] = {0, 1, 7, 300};
    for (int i = 0; i < count; i++) {
        gj_buf body;
        buf_init(&body);
        write_request(s, &rng, &body, odd);
        ck_assert(!body.failed);
        gj_buf move;
        as_move(&body, &move, &rng);
        int verdict = -1, moved = -1;
        for (size_t p = 0; p < sizeof pieces / sizeof pieces[0]; p++) {
            int v = compare(s, &body, pieces[p], &feed);
            ck_assert(verdict == -1 || v == verdict);
            verdict = v;
            v = compare_move(s, &move, pieces[p], &feed);
            ck_assert(moved == -1 || v == moved);
            moved = v;
        }
        met[verdict]++;
        engine_answered += moved;
        buf_free(&body);
        buf_free(&move);
    }
    /* Fewer: /move refuses the list's and the line's members. */
    ck_assert_msg(engine_answered >= least / 2, "%s: the engine answered %d times, fewer than %d",
                  s->game->name, engine_answered, least / 2);
    static const char *const names[V_NVERDICTS] = {"answered", "JSON", "option", "position",
                                                   "other member"};
    for (int v = 0; v < V_NVERDICTS; v++)
        ck_assert_msg(met[v] >= least, "%s: %s met %d times, fewer than %d", s->game->name,
                      names[v], met[v], least);
}

static const subject subjects[] = {
    {&game_matrix_game, mg_member, MG_N, 2, 3, 7, {0}, "k matrix", NULL},
    /* At most 8 shortcuts, so that a list of 9 or 10 passes the limit. */
    {&game_nim_shortcuts, ns_member, NS_N, 2, 0, 10, {8}, "shortcuts", NULL},
    /* Grids up to 8 a side under limits of 6: a path of 37 or more
     * elements is too long for any. */
    {&game_grid_walk, gw_member, GW_N, 2, 1, GW_MOST, {6, 6}, "path", gw_begin},
};
enum { NSUBJECTS = sizeof subjects / sizeof subjects[0] };

START_TEST(mostly_valid)
{
    sweep(&subjects[_i], 0x1df0a11u + (uint64_t)_i, 1500, 12, 5);
}
END_TEST

START_TEST(mostly_wrong)
{
    sweep(&subjects[_i], 0xa5a5a5u + (uint64_t)_i, 2500, 3, 40);
}
END_TEST

/* A larger matrix now and then, where the reader's rows outnumber a
 * small piece many times. */
START_TEST(larger_matrices)
{
    subject s = subjects[0];
    s.lo = 8;
    s.hi = 24;
    sweep(&s, 0x77aa11u, 300, 6, 3);
}
END_TEST

/* The reader's tree holds every member but the bulk one, which stands as
 * a null in its place in the body's order; the game writes it back as
 * sent, compact. */
START_TEST(bulk_stays_out_of_the_tree)
{
    static const struct {
        const gj_game *game;
        const char *body, *tree, *bulk;
    } cases[] = {
        {&game_matrix_game, "{\"token\":[1,2],\"matrix\":[[1,2,3],[4,5,6],\n[7,8,9]],\"k\":1}",
         "{\"token\":[1,2],\"matrix\":null,\"k\":1}", "[[1,2,3],[4,5,6],[7,8,9]]"},
        {&game_nim_shortcuts, "{\"heaps\":[2,5],\"shortcuts\":[ [3,0], [0,1],[2,2] ]}",
         "{\"heaps\":[2,5],\"shortcuts\":null}", "[[3,0],[0,1],[2,2]]"},
        {&game_nim_shortcuts, "{\"shortcuts\":[],\"heaps\":[2,5]}",
         "{\"shortcuts\":null,\"heaps\":[2,5]}", "[]"},
        /* The path before the grid it is judged on. */
        {&game_grid_walk, "{\"path\": [[2, 2], [2,1]] , \"grid\":[\"..#\",\"...\"]}",
         "{\"path\":null,\"grid\":[\"..#\",\"...\"]}", "[[2,2],[2,1]]"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const gj_game *g = cases[c].game;
        long lim[GJ_MAX_LIMITS] = {0};
        for (int i = 0; i < g->nlimits; i++)
            lim[i] = g->limits[i].def;
        gj_error e = {0};
        uint64_t rng = 7;
        analysis_body *read = harness_read_fed(g->play->read_analysis, cases[c].body,
                                               strlen(cases[c].body), lim, 0, 1, &rng, &e);
        ck_assert_ptr_nonnull(read);
        char *tree = json_dumps(read->root, JSON_COMPACT);
        ck_assert_str_eq(tree, cases[c].tree);
        free(tree);
        ck_assert_ptr_nonnull(read->pos);
        gj_buf text;
        buf_init(&text);
        read->events->write_bulk(read->pos, &text);
        buf_putc(&text, '\0');
        ck_assert_str_eq(text.data, cases[c].bulk);
        buf_free(&text);
        analysis_body_free(read);
    }
}
END_TEST

/* Matrices of 66,049 to 102,400 cells, read as they arrive, are written
 * back into the canonical form as jansson dumps the matrix read: the
 * generated requests' sides stop at 24. */
START_TEST(large_matrices_written_back)
{
    static const long sides[] = {257, 263, 320};
    const gj_game *g = &game_matrix_game;
    long lim[GJ_MAX_LIMITS] = {0};
    for (int i = 0; i < g->nlimits; i++)
        lim[i] = g->limits[i].def;
    uint64_t rng = 0xba9d5;
    for (size_t k = 0; k < sizeof sides / sizeof sides[0]; k++) {
        long n = sides[k], nn = n * n;
        int *v = malloc((size_t)nn * sizeof *v);
        ck_assert_ptr_nonnull(v);
        rng_shuffled(&rng, v, nn);
        gj_buf body;
        buf_init(&body);
        buf_puts(&body, "{\"k\": 3, \"matrix\": [");
        for (long i = 0; i < n; i++) {
            buf_puts(&body, i > 0 ? ", [" : "[");
            for (long j = 0; j < n; j++) {
                buf_puts(&body, j > 0 ? ", " : "");
                buf_put_long(&body, v[i * n + j]);
            }
            buf_putc(&body, ']');
        }
        buf_puts(&body, "]}");
        ck_assert(!body.failed);
        json_t *tree = json_loadb(body.data, body.len, 0, NULL);
        ck_assert_ptr_nonnull(tree);
        char *want = json_dumps(json_object_get(tree, "matrix"), JSON_COMPACT);
        ck_assert_ptr_nonnull(want);
        gj_error e = {0};
        analysis_body *read =
            harness_read_fed(g->play->read_analysis, body.data, body.len, lim, 0, 1, &rng, &e);
        ck_assert_msg(read != NULL && read->pos != NULL, "n = %ld: %s", n, e.message);
        gj_buf text;
        buf_init(&text);
        read->events->write_bulk(read->pos, &text);
        ck_assert(!text.failed);
        ck_assert_uint_eq(text.len, strlen(want));
        ck_assert_msg(memcmp(text.data, want, text.len) == 0, "n = %ld: the matrix differs", n);
        buf_free(&text);
        analysis_body_free(read);
        free(want);
        json_decref(tree);
        buf_free(&body);
        free(v);
    }
}
END_TEST

/* A hold that refuses anything past 1 MiB (gj_grant's hold). */
static int hold_small(void *ctx, size_t held, gj_error *e)
{
    (void)ctx;
    if (held > GJ_GRANT_STEP)
        return gj_fail(e, GJ_TOO_LARGE, "held %zu", held);
    return 0;
}

/* gj_grant's take: everything granted. */
static int take_all(void *ctx, size_t bytes, gj_error *e)
{
    (void)ctx;
    (void)bytes;
    (void)e;
    return 0;
}

/* A position played on and then given a max_moves is rebuilt from its
 * members as a tree: that tree is charged as a body's is, whichever way
 * the request was read, so a budget that cannot hold it refuses it. */
START_TEST(rebuilt_position_is_charged)
{
    gj_buf body;
    buf_init(&body);
    buf_puts(&body, "{\"k\":1,\"moves\":[[1,1]],\"max_moves\":1,\"after\":\"diff\",\"matrix\":[");
    for (long i = 0; i < 200; i++) {
        buf_puts(&body, i > 0 ? ",[" : "[");
        for (long j = 0; j < 200; j++) {
            buf_puts(&body, j > 0 ? "," : "");
            buf_put_long(&body, i * 200 + j + 1);
        }
        buf_putc(&body, ']');
    }
    buf_puts(&body, "]}");
    ck_assert(!body.failed);
    const gj_game *g = &game_matrix_game;
    long lim[GJ_MAX_LIMITS] = {0};
    for (int i = 0; i < g->nlimits; i++)
        lim[i] = g->limits[i].def;
    for (int bound = 0; bound <= 1; bound++) {
        for (int read = 0; read <= 1; read++) {
            line_request q;
            gj_error e = {0};
            uint64_t rng = 3;
            if (read)
                ck_assert_int_eq(
                    line_prepare_read(harness_read_fed(g->play->read_analysis, body.data, body.len,
                                                       lim, 0, 1, &rng, &e),
                                      &q, &e),
                    0);
            else
                ck_assert_int_eq(line_prepare(body.data, body.len, &q, &e), 0);
            gj_grant grant;
            gj_grant_init(&grant, take_all, hold_small, NULL);
            gj_grant *was = gj_grant_bind(bound ? &grant : NULL);
            gj_buf out;
            buf_init(&out);
            int rc = line_run(g, &q, lim, &out, &e);
            gj_grant_bind(was);
            if (bound) {
                ck_assert_int_eq(rc, -1);
                ck_assert_int_eq(e.kind, GJ_TOO_LARGE);
                ck_assert_msg(strncmp(e.message, "held", 4) == 0, "%s", e.message);
            } else {
                ck_assert_msg(rc == 0, "%s", e.message);
                ck_assert_ptr_nonnull(strstr(out.data, "\"moves_total\":"));
            }
            buf_free(&out);
            line_request_free(&q);
        }
    }
    buf_free(&body);
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
    for (int i = 0; i < NSUBJECTS; i++)
        ck_assert_ptr_nonnull(subjects[i].game->play->read_analysis);
}
END_TEST

static Suite *analysis_read_suite(void)
{
    const harness_case cases[] = {
        {"larger matrices", larger_matrices},
        {"bulk out of the tree", bulk_stays_out_of_the_tree},
        {"large matrices written back", large_matrices_written_back},
        {"readers come with adopt", readers_come_with_adopt},
        {"rebuilt position charged", rebuilt_position_is_charged},
    };
    Suite *s = harness_suite("analysis_read", cases, sizeof cases / sizeof cases[0], 300);
    harness_add_loop(s, "mostly valid", mostly_valid, NSUBJECTS, 300);
    harness_add_loop(s, "mostly wrong", mostly_wrong, NSUBJECTS, 300);
    return s;
}

int main(void)
{
    gj_grant_count_jansson();
    return harness_main(analysis_read_suite());
}
