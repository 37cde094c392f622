/* nim_shortcuts.c - Codeforces 1458E: two-heap Nim where some positions lose at once.
 *
 * The idea: draw heaps (x, y) as a point.  A move goes left in its row or
 * down in its column, so a point that is not a shortcut loses iff no losing
 * point lies left of it in its row or below it in its column.  Hence every
 * row and every column holds at most one such "natural" loser.  Walk from
 * (0, 0) keeping the invariant that each row below y and each column left of
 * x already holds a loser inside the box [0, x) x [0, y), while row y and
 * column x hold none there except shortcuts.  At (x, y):
 *   - a shortcut (x, z) with z <= y is a loser under (x, y): column x is done,
 *     step to (x + 1, y);
 *   - likewise a shortcut (z, y) with z <= x finishes row y: step to
 *     (x, y + 1) (both at once: step both);
 *   - otherwise (x, y) is a natural loser: step to (x + 1, y + 1).
 * Between shortcut rows and columns the walk runs along a diagonal, so the
 * natural losers form diagonal segments, and only a step of the first two
 * kinds ends one.  Each shortcut causes at most one such step (by its column,
 * by its row, or by both at the shortcut itself), so there are at most n + 1
 * segments.  A query loses iff it is a shortcut or lies on a segment.
 *
 * Speed: a binary search per query misses the cache on almost every probe
 * once the input is big, so everything is radix-sorted instead: the
 * shortcuts by (x, y) with their rows collected half-way (after the y
 * digits), and the queries by column only.  One merge of the sorted queries
 * with the shortcut columns and the segments then answers them all.  Time
 * O(n + m) with a fixed number of passes, memory O(n + m).
 *
 * The position is read, and its shortcuts sorted and checked for repeats,
 * by nim_shortcuts_read.c; this file solves it and writes its answers.
 * The board (sorted shortcuts and rows) and the walk are shared with the
 * analysis of one position (nim_shortcuts_analysis.c) through
 * nim_shortcuts_core.h.
 */
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cancel.h"
#include "game.h"
#include "key.h"
#include "nim_shortcuts.h"
#include "nim_shortcuts_core.h"
#include "radix_sort.h"
#include "text_read.h"

static const gj_limit_def limits[] = {
    {"shortcuts", "number of shortcut positions n", 100000, 0, 4000000},
    {"queries", "number of queried starting positions m", 100000, 1, 4000000},
};

void nim_board_free(nim_board *b)
{
    free(b->shortcut);
    free(b->row);
    b->shortcut = b->row = NULL;
}

/* game.h's free_position (NULL is fine). */
void nim_position_free(void *p)
{
    nim_position *pos = p;
    if (pos == NULL)
        return;
    nim_board_free(&pos->b);
    free(pos->query);
    free(pos->lose);
    free(pos);
}

/* One spare: malloc(0) may return NULL. */
int nim_board_new(nim_board *b, long n, gj_error *e)
{
    memset(b, 0, sizeof *b);
    b->shortcut = malloc(((size_t)n + 1) * sizeof *b->shortcut);
    if (b->shortcut == NULL)
        return gj_fail_nomem(e);
    b->n = n;
    return 0;
}

/* Room for n shortcuts and m queries, or NULL with *e. */
nim_position *nim_position_new(long n, long m, gj_error *e)
{
    nim_position *pos = calloc(1, sizeof *pos);
    if (pos == NULL) {
        gj_fail_nomem(e);
        return NULL;
    }
    if (nim_board_new(&pos->b, n, e) != 0) {
        nim_position_free(pos);
        return NULL;
    }
    pos->query = malloc((size_t)m * sizeof *pos->query);
    pos->lose = malloc((size_t)m);
    if (pos->query == NULL || pos->lose == NULL) {
        nim_position_free(pos);
        gj_fail_nomem(e);
        return NULL;
    }
    pos->m = m;
    return pos;
}

/* ---- Solving ------------------------------------------------------------ */

/* Append a run of losers: 0, or -1 with *e (GJ_INTERNAL) past the proven bound. */
static int add_segment(nim_segments *s, long x0, long end, long d, gj_error *e)
{
    if (s->count == s->cap)
        return gj_fail(e, GJ_INTERNAL, "nim-shortcuts: more than %ld loser segments", s->cap);
    s->x0[s->count] = x0;
    s->end[s->count] = end;
    s->d[s->count] = d;
    s->count++;
    return 0;
}

/* Walk from (0, 0) as the header explains.  The shortcuts are sorted by
 * (x, y), so the first key of a column group holds its lowest shortcut; the
 * rows are (y, lowest x) keys.  Every turn of the loop moves past at least
 * one shortcut column or row, so it runs at most 2n times; (x0, y0) starts
 * the diagonal segment still open. */
static int trace_losers(const nim_board *b, nim_segments *s, gj_error *e)
{
    const uint64_t *col = b->shortcut, *row = b->row;
    long ncol = b->n, nrow = b->rows;
    long x = 0, y = 0, x0 = 0, y0 = 0, i = 0, j = 0;
    for (;;) {
        while (i < ncol && nim_high(col[i]) < x)
            i++;
        while (j < nrow && nim_high(row[j]) < y)
            j++;
        if (i == ncol && j == nrow)
            break;
        long step = LONG_MAX;
        if (i < ncol)
            step = nim_high(col[i]) - x;
        if (j < nrow && nim_high(row[j]) - y < step)
            step = nim_high(row[j]) - y;
        long cx = x + step, cy = y + step;
        int col_done = i < ncol && nim_high(col[i]) == cx && nim_low(col[i]) <= cy;
        int row_done = j < nrow && nim_high(row[j]) == cy && nim_low(row[j]) <= cx;
        if (!col_done && !row_done) {
            /* (cx, cy) is a natural loser: the open segment goes on. */
            x = cx + 1;
            y = cy + 1;
            continue;
        }
        if (cx > x0 && add_segment(s, x0, cx, y0 - x0, e) != 0)
            return -1;
        x = x0 = cx + col_done;
        y = y0 = cy + row_done;
    }
    /* Past every shortcut row and column the diagonal never stops. */
    return add_segment(s, x0, LONG_MAX, y0 - x0, e);
}

void nim_segments_free(nim_segments *s)
{
    free(s->x0);
    s->x0 = s->end = s->d = NULL;
}

int nim_segments_trace(const nim_board *b, nim_segments *s, gj_error *e)
{
    /* Each shortcut stops the walk at most once: at most n + 1 segments. */
    memset(s, 0, sizeof *s);
    s->cap = b->n + 1;
    s->x0 = malloc(3 * (size_t)s->cap * sizeof *s->x0);
    if (s->x0 == NULL)
        return gj_fail_nomem(e);
    s->end = s->x0 + s->cap;
    s->d = s->x0 + 2 * s->cap;
    return trace_losers(b, s, e);
}

/* Is key among the sorted keys a[0..n)?  A dense column holds thousands of
 * shortcuts, probed in random order, so the search avoids branches: the
 * range halves each step whichever way the comparison goes. */
static bool contains(const uint64_t *a, long n, uint64_t key)
{
    if (n == 0)
        return false;
    while (n > 1) {
        long half = n / 2;
        a = a[half] <= key ? a + half : a;
        n -= half;
    }
    return *a == key;
}

/* Answer the queries sorted by column (index[q] says where query[q] came
 * from), walking the shortcut columns and the segments alongside, so each
 * lookup touches memory the previous one has just used. */
static void answer_by_column(nim_position *pos, const nim_segments *s, const uint64_t *query,
                             const uint32_t *index)
{
    const uint64_t *col = pos->b.shortcut;
    long n = pos->b.n, lo = 0, hi = 0, k = 0, column = -1;
    for (long q = 0; q < pos->m; q++) {
        uint64_t key = query[q];
        long a = nim_high(key), b = nim_low(key);
        if (a != column) {
            /* col[lo..hi) becomes the shortcuts of column a. */
            column = a;
            for (lo = hi; lo < n && nim_high(col[lo]) < a; lo++)
                ;
            for (hi = lo; hi < n && nim_high(col[hi]) == a; hi++)
                ;
            while (k + 1 < s->count && s->x0[k + 1] <= a)
                k++;
        }
        int lose = contains(col + lo, hi - lo, key) ||
                   (s->x0[k] <= a && a < s->end[k] && b - a == s->d[k]);
        pos->lose[index[q]] = (unsigned char)lose;
    }
}

/* A copy of the queries sorted by column only (digits 3..5), which is all
 * the merge needs; *index moves along and remembers their input order.  The
 * queries themselves stay in input order: write_key may come after solve. */
static int sort_queries(const nim_position *pos, uint64_t **query, uint32_t **index, gj_error *e)
{
    memcpy(*query, pos->query, (size_t)pos->m * sizeof **query);
    for (long q = 0; q < pos->m; q++)
        (*index)[q] = (uint32_t)q;
    radix_sort s;
    if (radix_init(&s, *query, *index, (size_t)pos->m, RADIX_DIGITS / 2, RADIX_DIGITS, e) != 0)
        return -1;
    radix_passes(&s, RADIX_DIGITS / 2, RADIX_DIGITS);
    *query = s.key[0];
    *index = s.tag[0];
    radix_free(&s);
    return 0;
}

/* game.h's solve: the loser segments, then every query against them. */
static int solve(void *p, gj_error *e)
{
    nim_position *pos = p;
    nim_segments s;
    uint64_t *query = malloc((size_t)pos->m * sizeof *query);
    uint32_t *index = malloc((size_t)pos->m * sizeof *index);
    int rc = query == NULL || index == NULL ? gj_fail_nomem(e) : 0;
    /* The cancel flag (cancel.h) is checked between the three passes, each
     * linear with a fixed number of sweeps: at the largest limits (4 * 10^6
     * of each) a pass is about 0.1 s, at the defaults well under 5 ms. */
    if (rc == 0)
        rc = nim_segments_trace(&pos->b, &s, e);
    int big = pos->b.n + pos->m > 65536; /* small ones are not worth a check */
    if (rc == 0) {
        if (big)
            rc = gj_cancel_check(e);
        if (rc == 0)
            rc = sort_queries(pos, &query, &index, e);
        if (rc == 0 && big)
            rc = gj_cancel_check(e);
        if (rc == 0)
            answer_by_column(pos, &s, query, index);
        nim_segments_free(&s);
    }
    free(query);
    free(index);
    return rc;
}

/* ---- Answers ------------------------------------------------------------ */

/* Append `word[lose]` for every query.  Each word is copied with a fixed
 * length `size` (the longer one's) but only `len[lose]` bytes are kept, and
 * room for the longest case is reserved once: the loop writes straight into
 * the buffer, which matters for millions of answers. */
static void put_answers(const nim_position *pos, gj_buf *out, const char *const word[2],
                        const size_t len[2], size_t size)
{
    if (buf_reserve(out, (size_t)pos->m * size) != 0)
        return;
    char *o = out->data + out->len;
    for (long q = 0; q < pos->m; q++) {
        memcpy(o, word[pos->lose[q]], size);
        o += len[pos->lose[q]];
    }
    out->len = (size_t)(o - out->data);
}

/* game.h's write_text: WIN or LOSE a line, one per query. */
static void write_text(const void *p, gj_buf *out)
{
    static const char *const word[2] = {"WIN\n\n", "LOSE\n"};
    static const size_t len[2] = {4, 5};
    put_answers(p, out, word, len, 5);
}

/* game.h's write_json: the answers in query order. */
static void write_json(const void *p, gj_buf *out)
{
    static const char *const word[2] = {"\"WIN\",,", "\"LOSE\","};
    static const size_t len[2] = {6, 7};
    game_json_open(out, &game_nim_shortcuts, "answers");
    buf_putc(out, '[');
    put_answers(p, out, word, len, 7);
    if (!out->failed)
        out->len--; /* the comma after the last answer (there is one: m >= 1) */
    buf_puts(out, "]}");
}

/* The key (key.h): "n m\n", the shortcuts sorted (their order changes no
 * answer, so every order of one set, in either form, shares a key), then
 * the queries in input order; each point as its 8-byte key in host byte
 * order.  The counts fix where the shortcuts end and the queries begin. */
static void write_key(const void *p, gj_buf *out)
{
    const nim_position *pos = p;
    const long head[2] = {pos->b.n, pos->m};
    key_head(out, head, 2);
    buf_append(out, pos->b.shortcut, (size_t)pos->b.n * sizeof *pos->b.shortcut);
    buf_append(out, pos->query, (size_t)pos->m * sizeof *pos->query);
}

/* game.h's cost_us.  Model: 5 us + 200 ns per shortcut and per query (a
 * fixed number of radix passes over each, plus the walk and the merge;
 * the passes miss the cache once the arrays outgrow it).  Measured
 * (cost_fit, bench/NOTES.md): measured / estimate 0.05-0.65 from 10 to
 * 10^6 of each. */
static double cost_us(const void *p)
{
    const nim_position *pos = p;
    return 5.0 + 0.200 * (double)(pos->b.n + pos->m);
}

/* game.h's work_bytes: solve's sorted queries and their indices with the
 * radix sort's scratch, the segments (at most n + 1), and the answer, at
 * most 7 bytes a query ("LOSE", quoted, a comma). */
static size_t work_bytes(const void *p)
{
    const nim_position *pos = p;
    size_t n = (size_t)pos->b.n, m = (size_t)pos->m;
    return m * (sizeof(uint64_t) + sizeof(uint32_t)) + radix_scratch_bytes(m, 1) +
           3 * (n + 1) * sizeof(long) + m * 7 + 64;
}

/* Judge text read as it arrives (read_text) and whole (parse_text):
 * nim_shortcuts_read.c's steps. */
GJ_TEXT_READER(nim_text_steps)

/* The JSON body {"shortcuts": [[x, y], ...], "queries": [[a, b], ...]} as it arrives (read_json),
 * and whole (parse_json). */
GJ_JSON_READER(nim)

const gj_game game_nim_shortcuts = {
    .name = "nim-shortcuts",
    .display_name = "Nim with shortcuts",
    .title = "who wins two-heap Nim with shortcut positions, from each queried start "
             "(WIN or LOSE for the player to move)",
    .example_text = "2 2\n3 0\n0 1\n0 0\n1 1\n",
    .example_json = "{\"shortcuts\": [[3,0],[0,1]], \"queries\": [[0,0],[1,1]]}",
    .limits = limits,
    .nlimits = GJ_NLIMITS(limits),
    .parse_text = parse_text,
    .read_text = &read_text,
    .parse_json = parse_json,
    .read_json = &read_json,
    .solve = solve,
    .cost_us = cost_us,
    .work_bytes = work_bytes,
    .write_text = write_text,
    .write_json = write_json,
    .free_position = nim_position_free,
    .write_key = write_key,
    .analyze = nim_shortcuts_analyze,
    .analyze_keys = nim_shortcuts_analyze_keys,
    .play = &nim_shortcuts_play,
    .example_analyze = "{\"shortcuts\": [[3,0],[0,1]], \"heaps\": [2, 5], \"to_move\": \"first\", "
                       "\"max_moves\": 100}",
    .version = "3",
    .example_generate = "{\"seed\": 42, \"shortcuts\": 4, \"range\": 10, \"winning_moves\": 1}",
    .generate = nim_shortcuts_generate,
    .generate_most = nim_shortcuts_generate_most,
    .generate_keep = nim_shortcuts_generate_keep,
    .generate_knobs = nim_shortcuts_generate_knobs,
    .play_move = nim_shortcuts_play_move,
    /* Puzzles grow with the band: two shortcuts among heaps below 6, the
     * generator's defaults (three, below 8: so a puzzle asked without a
     * band is the one it always was), then heaps in the dozens with more
     * shortcuts, far inside the remoteness sweep's bound (analysis.h). */
    .puzzle_knobs = {"{\"shortcuts\": 2, \"range\": 6}", NULL,
                     "{\"shortcuts\": 16, \"range\": 48}"},
    .motifs = nim_shortcuts_motifs,
    /* The difficulty's scale (puzzle.h): bench/puzzle_rate --calibrate 1000. */
    .puzzle_scale =
        {{0.0108, 0.0156, 0.0304, 0.0609, 0.1211, 0.1561, 0.2856, 0.4345, 0.8088, 0.8972},
         {0.1621, 0.2384, 0.3036, 0.3969, 0.4915, 0.6572, 0.8353, 0.9120, 0.9493, 0.9806},
         {0.4122, 0.4708, 0.5294, 0.6945, 0.8302, 0.8985, 0.9332, 0.9647, 0.9828, 0.9960}},
    /* The engine's levels 1..4, from bench/levels.c (bench/results.md, "Levels"). */
    .level_ratio = {62969, 59777, 57377, 54252},
};
