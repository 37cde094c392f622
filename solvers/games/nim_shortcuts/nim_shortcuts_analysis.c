/* nim_shortcuts_analysis.c - POST /analyze/nim-shortcuts: the value of one
 * position (x, y) and its moves.
 *
 * The idea: a move reaches (x', y) with x' < x or (x, y') with y' < y, and
 * wins iff it reaches a losing position: a shortcut, or a natural loser (a
 * losing position that is not one, nim_shortcuts_core.h).  Each row and each
 * column holds at most one natural loser, so the winning moves are the
 * shortcuts left of the position in its row and below it in its column,
 * plus at most one natural loser on each side.  The solver's walk gives the
 * segments of natural losers; a binary search finds the column's and the
 * row's, and two more bound the shortcuts in that part of the column (keys
 * by (x, y)) and of the row (keys by (y, x)).  A position that is not a
 * shortcut wins iff some move wins; the segments say the same (the position
 * is on one iff it loses), and the two answers are checked to agree.
 *
 * Ranking: winning moves first, fewest stones taken first, heap 1 before
 * heap 2 on a tie; then losing moves in the same order, up to max_moves,
 * so even a lost position lists moves to play (a losing move is found by
 * skipping the few winning ones, O(log n) each).
 *
 * Cost: the solver's build (radix sorts and the walk, O(n)), one more radix
 * sort for the rows, then O(log n + listed).
 *
 * Remoteness (analysis.h).  Every move stays inside the rectangle
 * [0, x] x [0, y], so one sweep over it, column by column and upwards,
 * values every position a move reaches.  What a position needs is a summary
 * of its row to the left and its column below: the greatest remoteness
 * there (a losing position is 1 + that, every move going to a winner) and
 * the least remoteness of a losing position there (a winning one is 1 +
 * that; a shortcut counts 0).  Kept per row in arrays of y + 1 entries and
 * for the column in two scalars, that is O((x + 1)(y + 1)) time and O(x + y)
 * room, so it is done while the rectangle has at most
 * ANALYSIS_REMOTENESS_CELLS positions (a few milliseconds), else the answer is
 * null.  The sweep decides win or lose on its own, from the rules; the
 * segments must agree.  With remoteness known the moves are ranked by it
 * (fastest win, slowest loss, then the stones taken), the first max_moves
 * of the x + y kept by a bounded heap.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "cancel.h"
#include "nim_shortcuts.h"
#include "json_in.h"
#include "nim_shortcuts_core.h"

typedef struct request {
    nim_board b;
    long heap[2]; /* x, y */
    int second;   /* to_move is "second" */
    long max_moves;
} request;

static const char *const mover_name[2] = {"first", "second"};

/* ---- Reading the request ------------------------------------------------ */

/* "heaps", two integers in 0..NIM_MAX_COORD, into heap: 0, or -1 with *e. */
static int read_heaps(const json_t *v, long heap[2], gj_error *e)
{
    if (jin_array(v, "heaps", -1, 0, SIZE_MAX, e) != 0)
        return -1;
    size_t size = json_array_size(v);
    if (size != 2)
        return gj_fail_field(e, "heaps", "expected two heaps [x, y], found %zu element%s", size,
                             size == 1 ? "" : "s");
    for (long i = 0; i < 2; i++)
        if (jin_long(json_array_get(v, (size_t)i), "heaps", i, -1, 0, NIM_MAX_COORD, &heap[i], e) !=
            0)
            return -1;
    return 0;
}

/* The request's members, as game.h's analyze_keys: read here and named by
 * the wrappers (line.c, engine.c) in their unknown-field messages. */
const char *const nim_shortcuts_analyze_keys[] = {"shortcuts", "heaps", "?to_move", "?max_moves",
                                                  NULL};

/* The request's board, heaps, mover and max_moves into *r: 0, or -1 with *e. */
static int read_request(const char *buf, size_t len, const long *limits, request *r, gj_error *e)
{
    json_t *root = jin_load_object(buf, len, nim_shortcuts_analyze_keys, e);
    if (root == NULL)
        return -1;
    int rc = nim_board_read_json(&r->b, json_object_get(root, "shortcuts"),
                                 limits[NIM_LIMIT_SHORTCUTS], e);
    if (rc == 0)
        rc = read_heaps(json_object_get(root, "heaps"), r->heap, e);
    if (rc == 0)
        rc =
            analysis_to_move(json_object_get(root, "to_move"), mover_name, false, 0, &r->second, e);
    if (rc == 0)
        rc = analysis_max_moves(root, &r->max_moves, e);
    json_decref(root);
    return rc;
}

/* ---- Losers near the position ------------------------------------------- */

/* The first of the sorted keys a[0..n) that is >= key (n when none is). */
static long lower_bound(const uint64_t *a, long n, uint64_t key)
{
    long lo = 0, hi = n;
    while (lo < hi) {
        long mid = lo + (hi - lo) / 2;
        if (a[mid] < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Whether (x, y) is a shortcut of the sorted board. */
static bool is_shortcut(const nim_board *b, long x, long y)
{
    uint64_t key = nim_pack(x, y);
    long at = lower_bound(b->shortcut, b->n, key);
    return at < b->n && b->shortcut[at] == key;
}

/* The segment whose `start` (x0, or x0 + d for rows) is the last one <= v,
 * or -1.  Both starts increase with the segment's index. */
static long segment_before(const nim_segments *s, long v, int by_row)
{
    long lo = 0, hi = s->count;
    while (lo < hi) {
        long mid = lo + (hi - lo) / 2;
        if (s->x0[mid] + (by_row ? s->d[mid] : 0) <= v)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo - 1;
}

/* The y of the natural loser in column x, or -1 when the column has none. */
static long column_loser(const nim_segments *s, long x)
{
    long k = segment_before(s, x, 0);
    return k >= 0 && x < s->end[k] ? x + s->d[k] : -1;
}

/* The x of the natural loser in row y, or -1 when the row has none. */
static long row_loser(const nim_segments *s, long y)
{
    long k = segment_before(s, y, 1);
    return k >= 0 && y - s->d[k] < s->end[k] ? y - s->d[k] : -1;
}

/* Whether the player to move at (x, y) loses. */
static bool loses(const nim_board *b, const nim_segments *s, long x, long y)
{
    return is_shortcut(b, x, y) || column_loser(s, x) == y;
}

/* The losers on one side of the position, in its row or its column, that a
 * move reaches: coordinates along the line below `limit`, nearest first. */
typedef struct line {
    const uint64_t *key; /* the line's shortcuts still to come: key[0..count), ascending */
    long count;
    long natural; /* the natural loser not yet taken, or -1 */
} line;

/* `keys` sorted with the line's fixed coordinate high: the shortcuts by
 * (x, y) for a column, by (y, x) for a row. */
static void line_init(line *l, const uint64_t *keys, long n, long fixed, long limit, long natural)
{
    long lo = lower_bound(keys, n, nim_pack(fixed, 0));
    long hi = lower_bound(keys, n, nim_pack(fixed, limit));
    l->key = keys + lo;
    l->count = hi - lo;
    l->natural = natural < limit ? natural : -1;
}

/* How many losers the line still holds. */
static long line_size(const line *l)
{
    return l->count + (l->natural >= 0);
}

/* The nearest loser still to come (-1 when none); `take` removes it. */
static long line_peek(const line *l)
{
    long sc = l->count > 0 ? nim_low(l->key[l->count - 1]) : -1;
    return sc > l->natural ? sc : l->natural;
}

/* Remove the loser line_peek gives. */
static void line_take(line *l)
{
    if (l->count > 0 && nim_low(l->key[l->count - 1]) > l->natural)
        l->count--;
    else
        l->natural = -1;
}

/* ---- Remoteness ---------------------------------------------------------- */

/* A position's remoteness and whether its mover loses, packed as
 * 2 * remoteness + lose so that a row of them costs one int32 each. */
typedef int32_t nim_far;

/* The packed value of remoteness r, lost or not. */
static nim_far far_pack(long r, int lose)
{
    return (nim_far)(2 * r + lose);
}

/* The remoteness of every position a move from r's heaps reaches: row[x']
 * for (x', y), x' < x, and col[y'] for (x, y'), y' < y, and *root for
 * (x, y).  1 when done, 0 when the rectangle is past the bound (nothing
 * allocated), -1 with *e. */
typedef struct nim_sweep {
    nim_far *row, *col, root;
} nim_sweep;

/* The running summaries of one line (a row to the left of the sweep, or
 * the column below it): -1 for none yet. */
typedef struct summary {
    int32_t most;       /* greatest remoteness */
    int32_t least_lost; /* least remoteness of a losing position */
} summary;

/* Fold the position of remoteness rem (lost or not) into a line's summary. */
static void summary_add(summary *s, int32_t rem, int lose)
{
    if (rem > s->most)
        s->most = rem;
    if (lose && (s->least_lost < 0 || rem < s->least_lost))
        s->least_lost = rem;
}

/* The value of a position from its row's and column's summaries, by the
 * definitions: a shortcut is over (0, lost); a move to a loser wins, the
 * fastest one counting; else every move loses and the slowest counts (0 at
 * (0, 0), which has no move). */
static nim_far far_value(int shortcut, const summary *row, const summary *col)
{
    if (shortcut)
        return far_pack(0, 1);
    int32_t a = row->least_lost, b = col->least_lost;
    if (a >= 0 || b >= 0)
        return far_pack(1 + (a < 0 ? b : b < 0 ? a : a < b ? a : b), 0);
    return far_pack(1 + (row->most > col->most ? row->most : col->most), 1);
}

/* Sweep the rectangle up to r's heaps into *w (see nim_sweep): 1, 0 past
 * the bound, or -1 with *e (out of memory, or cancelled). */
static int sweep(const request *r, nim_sweep *w, gj_error *e)
{
    long x = r->heap[0], y = r->heap[1];
    w->row = w->col = NULL;
    if ((double)(x + 1) * (double)(y + 1) > (double)ANALYSIS_REMOTENESS_CELLS)
        return 0;
    summary *rows = malloc((size_t)(y + 1) * sizeof *rows);
    w->row = malloc((size_t)(x + 1) * sizeof *w->row);
    w->col = malloc((size_t)(y + 1) * sizeof *w->col);
    if (rows == NULL || w->row == NULL || w->col == NULL) {
        free(rows);
        free(w->row);
        free(w->col);
        w->row = w->col = NULL;
        return gj_fail_nomem(e);
    }
    for (long j = 0; j <= y; j++)
        rows[j] = (summary){-1, -1};
    const uint64_t *key = r->b.shortcut, *end = key + r->b.n;
    for (long i = 0; i <= x; i++) {
        if (i % 256 == 0 && gj_cancel_check(e) != 0) {
            /* Stopped: nothing of the sweep outlives it. */
            free(rows);
            free(w->row);
            free(w->col);
            w->row = w->col = NULL;
            return -1;
        }
        summary col = {-1, -1};
        for (long j = 0; j <= y; j++) {
            /* The keys sort as the sweep goes, so one pointer finds them. */
            uint64_t here = nim_pack(i, j);
            while (key < end && *key < here)
                key++;
            nim_far f = far_value(key < end && *key == here, &rows[j], &col);
            summary_add(&rows[j], f / 2, f % 2);
            summary_add(&col, f / 2, f % 2);
            if (j == y)
                w->row[i] = f;
            if (i == x)
                w->col[j] = f;
        }
    }
    w->root = w->row[x];
    free(rows);
    return 1;
}

/* One move with the remoteness of the position it reaches. */
typedef struct far_move {
    int heap;
    long take;
    int wins;
    int32_t rem;
} far_move;

/* The ranking with remoteness known: by remoteness (analysis.h), then
 * fewest stones taken, heap 1 first. */
static int far_cmp(const void *pa, const void *pb)
{
    const far_move *a = pa, *b = pb;
    int by = analysis_rank_remoteness(a->wins, a->rem, b->wins, b->rem);
    if (by != 0)
        return by;
    if (a->take != b->take)
        return a->take < b->take ? -1 : 1;
    return a->heap - b->heap;
}

/* Every move of r's heaps offered to *top, valued from the sweep. */
static void offer_moves(const request *r, const nim_sweep *w, analysis_top *top)
{
    for (int heap = 1; heap <= 2; heap++)
        for (long take = 1; take <= r->heap[heap - 1]; take++) {
            nim_far f = heap == 1 ? w->row[r->heap[0] - take] : w->col[r->heap[1] - take];
            far_move m = {heap, take, f % 2, f / 2};
            analysis_top_offer(top, &m);
        }
}

/* ---- Writing the answer ------------------------------------------------- */

/* The i-th list entry: take `take` from heap 1 or 2, and what it leads to
 * (rem: its remoteness, or ANALYSIS_REMOTENESS_NULL). */
static void put_move(gj_buf *out, long i, const request *r, int heap, long take, int wins,
                     long long rem)
{
    long after[2] = {r->heap[0], r->heap[1]};
    after[heap - 1] -= take;
    analysis_move_open(out, i);
    buf_puts(out, "\"move\":{\"heap\":");
    buf_put_long(out, heap);
    buf_puts(out, ",\"take\":");
    buf_put_long(out, take);
    buf_puts(out, "},\"outcome\":\"");
    buf_puts(out, analysis_outcome(wins));
    buf_putc(out, '"');
    analysis_put_remoteness(out, rem);
    buf_puts(out, ",\"after\":{\"heaps\":[");
    buf_put_long(out, after[0]);
    buf_putc(out, ',');
    buf_put_long(out, after[1]);
    buf_puts(out, "],\"to_move\":\"");
    buf_puts(out, mover_name[!r->second]);
    buf_puts(out, "\"}");
    analysis_move_close(out);
}

/* Up to `want` winning moves, merging the row (heap 1) and the column
 * (heap 2) by stones taken.  Returns the number written. */
static long put_winning(gj_buf *out, const request *r, line *row, line *col, long want)
{
    long x = r->heap[0], y = r->heap[1], i = 0;
    for (; i < want; i++) {
        long rx = line_peek(row), cy = line_peek(col);
        if (rx < 0 && cy < 0)
            break;
        if (rx >= 0 && (cy < 0 || x - rx <= y - cy)) {
            put_move(out, i, r, 1, x - rx, 1, ANALYSIS_REMOTENESS_NULL);
            line_take(row);
        } else {
            put_move(out, i, r, 2, y - cy, 1, ANALYSIS_REMOTENESS_NULL);
            line_take(col);
        }
    }
    return i;
}

/* Losing moves after the i winning ones, fewest stones first, until
 * `want` moves are listed. */
static long put_losing(gj_buf *out, const request *r, const nim_segments *s, long i, long want)
{
    long x = r->heap[0], y = r->heap[1];
    for (long take = 1; i < want && (take <= x || take <= y); take++) {
        if (take <= x && !loses(&r->b, s, x - take, y))
            put_move(out, i++, r, 1, take, 0, ANALYSIS_REMOTENESS_NULL);
        if (i < want && take <= y && !loses(&r->b, s, x, y - take))
            put_move(out, i++, r, 2, take, 0, ANALYSIS_REMOTENESS_NULL);
    }
    return i;
}

/* The first c->listed moves ranked with remoteness known (sweep), or -1
 * with *e.  Returns the number written. */
static long put_far(gj_buf *out, const request *r, const nim_sweep *w, long listed, gj_error *e)
{
    analysis_top top;
    if (analysis_top_init(&top, listed, sizeof(far_move), far_cmp, e) != 0)
        return -1;
    offer_moves(r, w, &top);
    analysis_top_finish(&top);
    const far_move *m = (const far_move *)top.item;
    for (long i = 0; i < top.count; i++)
        put_move(out, i, r, m[i].heap, m[i].take, m[i].wins, m[i].rem);
    long count = top.count;
    analysis_top_free(&top);
    return count;
}

/* The whole analysis of r's heaps: 0, or -1 with *e. */
static int answer(const request *r, const nim_segments *s, const uint64_t *by_row, gj_buf *out,
                  gj_error *e)
{
    long x = r->heap[0], y = r->heap[1];
    size_t mark = out->len;
    int shortcut = is_shortcut(&r->b, x, y);
    analysis_counts c = {0, 0, 0};
    line row = {NULL, 0, -1}, col = {NULL, 0, -1};
    nim_sweep w = {NULL, NULL, 0};
    int far = 0;
    long long rem = shortcut ? 0 : ANALYSIS_REMOTENESS_NULL; /* a shortcut ends the game */
    if (!shortcut) {
        line_init(&row, by_row, r->b.n, y, x, row_loser(s, y));
        line_init(&col, r->b.shortcut, r->b.n, x, y, column_loser(s, x));
        c.moves_total = x + y;
        c.winning_moves = line_size(&row) + line_size(&col);
        if ((c.winning_moves == 0) != (column_loser(s, x) == y))
            return gj_fail(e, GJ_INTERNAL,
                           "nim-shortcuts: (%ld, %ld) has %lld winning moves but %s a segment", x,
                           y, c.winning_moves, column_loser(s, x) == y ? "lies on" : "is off");
        far = sweep(r, &w, e);
        if (far < 0)
            return -1;
        if (far && (w.root % 2 == 1) != (c.winning_moves == 0)) {
            free(w.row);
            free(w.col);
            return gj_fail(e, GJ_INTERNAL,
                           "nim-shortcuts: the sweep and the segments disagree on (%ld, %ld)", x,
                           y);
        }
        if (far)
            rem = w.root / 2;
    }
    /* On a shortcut the game is over: no moves at all (moves_total is 0). */
    c.listed = c.moves_total < r->max_moves ? (long)c.moves_total : r->max_moves;
    analysis_begin(out, game_nim_shortcuts.name, mover_name[r->second], c.winning_moves > 0, rem,
                   &c);
    buf_puts(out, shortcut ? ",\"shortcut\":true" : ",\"shortcut\":false");
    long listed;
    if (far)
        listed = put_far(out, r, &w, c.listed, e);
    else {
        listed = put_winning(out, r, &row, &col, c.listed);
        listed = put_losing(out, r, s, listed, c.listed);
    }
    free(w.row);
    free(w.col);
    if (listed < 0) {
        out->len = mark;
        return -1;
    }
    if (listed != c.listed) {
        out->len = mark; /* no half answer after an error */
        return gj_fail(e, GJ_INTERNAL, "nim-shortcuts: listed %ld moves of %ld", listed, c.listed);
    }
    analysis_end(out, listed);
    return 0;
}

int nim_shortcuts_analyze(const char *buf, size_t len, const long *limits, gj_buf *out, gj_error *e)
{
    request r;
    nim_segments s = {NULL, NULL, NULL, 0, 0};
    uint64_t *by_row = NULL;
    memset(&r, 0, sizeof r);
    int rc = read_request(buf, len, limits, &r, e);
    if (rc == 0)
        rc = nim_segments_trace(&r.b, &s, e);
    if (rc == 0)
        rc = nim_board_by_row(&r.b, &by_row, e);
    if (rc == 0)
        rc = answer(&r, &s, by_row, out, e);
    free(by_row);
    nim_segments_free(&s);
    nim_board_free(&r.b);
    return rc;
}

/* The heaps become the move's and the other player moves. */
int nim_shortcuts_play_move(json_t *req, const json_t *entry, gj_error *e)
{
    const json_t *after = json_object_get(entry, "after");
    if (analysis_play_set(req, "heaps", json_object_get(after, "heaps"), e) != 0)
        return -1;
    return analysis_play_set(req, "to_move", json_object_get(after, "to_move"), e);
}
