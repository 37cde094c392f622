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
 * that; a shortcut counts 0).  Kept per row in an array of y + 1 entries and
 * for the column in two scalars, that is O((x + 1)(y + 1)) time, so it is
 * done while the rectangle has at most ANALYSIS_REMOTENESS_CELLS positions
 * (a few milliseconds), else the answer is null.  The sweep keeps every
 * position's value (4 bytes each, 4 MiB at the bound), because every
 * position of a game from (x, y) lies in the rectangle: one sweep serves
 * the whole perfect-play line.  The sweep decides win or lose on its own,
 * from the rules; the segments must agree.  With remoteness known the
 * moves are ranked by it (fastest win, slowest loss, then the stones
 * taken), the first max_moves of the x + y kept by a bounded heap; when no
 * more are wanted than there are winning moves, only those are offered.
 *
 * The parsed position (game.h's gj_play, nim_shortcuts_play below) is what
 * analyze() wraps and what the perfect-play line plays on: the board, its
 * rows and its segments are built once per request and shared with the
 * position's clones, since no move changes them; a move changes only the
 * heaps and the mover.  Its look and motifs, the puzzle's parts, live in
 * nim_shortcuts_puzzle.c and read the position through nim_play_view.
 */
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "analysis_read.h"
#include "cancel.h"
#include "nim_shortcuts.h"
#include "json_in.h"
#include "nim_shortcuts_core.h"

static const char *const mover_name[2] = {"first", "second"};

/* The request's position members, for writing them back in its order. */
enum { MEMBER_SHORTCUTS, MEMBER_HEAPS, MEMBER_TO_MOVE, MEMBERS };

/* What a position and its clones share, fixed once parsed: no move changes
 * the board, its rows or its segments.  Freed with its last holder. */
typedef struct shared {
    atomic_long refs;
    nim_board b;
    uint64_t *by_row; /* the shortcuts as (y, x) keys, sorted */
    nim_segments s;
    uint64_t *given; /* the shortcuts in the request's order, or NULL when not kept */
} shared;

/* A position's remoteness and whether its mover loses, packed as
 * 2 * remoteness + lose so that a row of them costs one int32 each. */
typedef int32_t nim_far;

/* The value of every position of the rectangle [0, x] x [0, y], column by
 * column: fixed once swept, shared by the clones of the position. */
typedef struct far_grid {
    atomic_long refs;
    long x, y;
    nim_far *cell; /* (x + 1)(y + 1): (i, j) at i * (y + 1) + j */
} far_grid;

/* A parsed position in play (game.h's gj_play). */
typedef struct ns_play {
    shared *sh;
    far_grid *far;      /* covering the heaps once swept, or NULL */
    long heap[2];       /* x, y */
    int second;         /* "second" is to move */
    long max_moves;     /* the request's, for analyze() only */
    int order[MEMBERS]; /* the position's members as the request gives them */
    int members;        /* of order; "to_move" joins at the end with the first move */
    gj_buf shortcuts;   /* "shortcuts" written compact, once, for whole afters */
    int shortcuts_written;
} ns_play;

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

/* p->order from root: its position members in its order. */
static void read_order(const json_t *root, ns_play *p)
{
    static const char *const names[MEMBERS] = {"shortcuts", "heaps", "to_move"};
    const char *key;
    json_t *v;
    p->members = 0;
    json_object_foreach((json_t *)root, key, v)
    {
        for (int m = 0; m < MEMBERS; m++)
            if (strcmp(key, names[m]) == 0)
                p->order[p->members++] = m;
    }
}

/* Whether the request, or a move played since, gave "to_move". */
static int has_to_move(const ns_play *p)
{
    for (int i = 0; i < p->members; i++)
        if (p->order[i] == MEMBER_TO_MOVE)
            return 1;
    return 0;
}

/* The shortcuts of `shortcuts` (already read into the board, so each is a
 * good pair) in the request's order into sh->given: 0, or -1 with *e. */
static int keep_given(shared *sh, const json_t *shortcuts, gj_error *e)
{
    sh->given = malloc(((size_t)sh->b.n + 1) * sizeof *sh->given);
    if (sh->given == NULL)
        return gj_fail_nomem(e);
    for (long i = 0; i < sh->b.n; i++) {
        const json_t *v = json_array_get(shortcuts, (size_t)i);
        sh->given[i] = nim_pack((long)json_integer_value(json_array_get(v, 0)),
                                (long)json_integer_value(json_array_get(v, 1)));
    }
    return 0;
}

/* Drop one hold on sh, freeing it with the last. */
static void shared_release(shared *sh)
{
    if (sh == NULL || atomic_fetch_sub(&sh->refs, 1) != 1)
        return;
    nim_board_free(&sh->b);
    free(sh->by_row);
    nim_segments_free(&sh->s);
    free(sh->given);
    free(sh);
}

/* Drop one hold on g, freeing it with the last. */
static void far_release(far_grid *g)
{
    if (g == NULL || atomic_fetch_sub(&g->refs, 1) != 1)
        return;
    free(g->cell);
    free(g);
}

/* game.h's gj_play.free. */
static void play_free(void *v)
{
    ns_play *p = v;
    if (p == NULL)
        return;
    shared_release(p->sh);
    far_release(p->far);
    buf_free(&p->shortcuts);
    free(p);
}

/* The board of `read` (taken) as the board of sh, its shortcuts in the
 * body's order too: the reader has them at no cost, so `keep` need not
 * be asked. */
static void adopt_board(shared *sh, nim_read_board *read)
{
    sh->b = read->b;
    sh->given = read->given;
    free(read);
}

/* The position of root (loaded, its keys checked) with analyze()'s checks
 * and messages, in its order: the board, the heaps, the mover, max_moves;
 * then what the analysis reads of the board.  `keep`: the shortcuts in the
 * request's order too, for whole afters.  `read`: the board as the body
 * arrived (nim_board_events; taken), else read from root.  NULL with *e. */
static ns_play *parse_position(const json_t *root, const long *limits, int keep,
                               nim_read_board *read, gj_error *e)
{
    ns_play *p = calloc(1, sizeof *p);
    shared *sh = p != NULL ? calloc(1, sizeof *sh) : NULL;
    if (sh == NULL) {
        free(p);
        nim_board_events.free(read);
        gj_fail_nomem(e);
        return NULL;
    }
    atomic_init(&sh->refs, 1);
    p->sh = sh;
    buf_init(&p->shortcuts);
    const json_t *shortcuts = json_object_get(root, "shortcuts");
    int rc = 0;
    if (read != NULL)
        adopt_board(sh, read);
    else
        rc = nim_board_read_json(&sh->b, shortcuts, limits[NIM_LIMIT_SHORTCUTS], e);
    if (rc == 0)
        rc = read_heaps(json_object_get(root, "heaps"), p->heap, e);
    if (rc == 0)
        rc =
            analysis_to_move(json_object_get(root, "to_move"), mover_name, false, 0, &p->second, e);
    if (rc == 0)
        rc = analysis_max_moves(root, &p->max_moves, e);
    if (rc == 0)
        rc = nim_segments_trace(&sh->b, &sh->s, e);
    if (rc == 0)
        rc = nim_board_by_row(&sh->b, &sh->by_row, e);
    if (rc == 0 && keep && sh->given == NULL)
        rc = keep_given(sh, shortcuts, e);
    if (rc != 0) {
        play_free(p);
        return NULL;
    }
    read_order(root, p);
    return p;
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

/* nim_shortcuts_core.h's: two binary searches. */
long nim_keys_between(const uint64_t *a, long n, uint64_t lo, uint64_t hi)
{
    return lo < hi ? lower_bound(a, n, hi) - lower_bound(a, n, lo) : 0;
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

/* The packed value of remoteness r, lost or not. */
static nim_far far_pack(long r, int lose)
{
    return (nim_far)(2 * r + lose);
}

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

/* The value of (i, j), inside g's rectangle. */
static nim_far far_at(const far_grid *g, long i, long j)
{
    return g->cell[(size_t)i * (size_t)(g->y + 1) + (size_t)j];
}

/* Sweep the rectangle [0, x] x [0, y] of board b into a new grid *out:
 * 0, or -1 with *e (out of memory, or cancelled). */
static int sweep(const nim_board *b, long x, long y, far_grid **out, gj_error *e)
{
    far_grid *g = malloc(sizeof *g);
    summary *rows = malloc((size_t)(y + 1) * sizeof *rows);
    nim_far *cell = malloc((size_t)(x + 1) * (size_t)(y + 1) * sizeof *cell);
    if (g == NULL || rows == NULL || cell == NULL) {
        free(g);
        free(rows);
        free(cell);
        return gj_fail_nomem(e);
    }
    for (long j = 0; j <= y; j++)
        rows[j] = (summary){-1, -1};
    const uint64_t *key = b->shortcut, *end = key + b->n;
    nim_far *at = cell;
    for (long i = 0; i <= x; i++) {
        if (i % 256 == 0 && gj_cancel_check(e) != 0) {
            /* Stopped: nothing of the sweep outlives it. */
            free(g);
            free(rows);
            free(cell);
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
            *at++ = f;
        }
    }
    free(rows);
    atomic_init(&g->refs, 1);
    g->x = x;
    g->y = y;
    g->cell = cell;
    *out = g;
    return 0;
}

/* A grid covering p's heaps into p->far, swept when none does and the
 * rectangle is within the bound: 1 with one, 0 past the bound, -1 with *e.
 * Heaps only shrink, so one sweep serves every later position. */
static int need_far(ns_play *p, gj_error *e)
{
    long x = p->heap[0], y = p->heap[1];
    if (p->far != NULL && x <= p->far->x && y <= p->far->y)
        return 1;
    if ((double)(x + 1) * (double)(y + 1) > (double)ANALYSIS_REMOTENESS_CELLS)
        return 0;
    far_grid *g = NULL;
    if (sweep(&p->sh->b, x, y, &g, e) != 0)
        return -1;
    far_release(p->far);
    p->far = g;
    return 1;
}

/* ---- The position as it is now ------------------------------------------ */

/* What the analysis of p's heaps starts from: counts, losers, value. */
typedef struct state {
    int shortcut;        /* the game is over: no moves */
    line row, col;       /* the winning moves (not for a shortcut) */
    analysis_counts c;   /* moves_total and winning_moves */
    const far_grid *far; /* covering the heaps, or NULL */
    long long rem;       /* the position's remoteness */
} state;

/* p's heaps looked at, both ways checked to agree: 0, or -1 with *e. */
static int look(ns_play *p, state *st, gj_error *e)
{
    const shared *sh = p->sh;
    long x = p->heap[0], y = p->heap[1];
    memset(st, 0, sizeof *st);
    st->row = st->col = (line){NULL, 0, -1};
    st->shortcut = is_shortcut(&sh->b, x, y);
    st->rem = st->shortcut ? 0 : ANALYSIS_REMOTENESS_NULL; /* a shortcut ends the game */
    if (st->shortcut)
        return 0;
    line_init(&st->row, sh->by_row, sh->b.n, y, x, row_loser(&sh->s, y));
    line_init(&st->col, sh->b.shortcut, sh->b.n, x, y, column_loser(&sh->s, x));
    st->c.moves_total = x + y;
    st->c.winning_moves = line_size(&st->row) + line_size(&st->col);
    if ((st->c.winning_moves == 0) != (column_loser(&sh->s, x) == y))
        return gj_fail(e, GJ_INTERNAL,
                       "nim-shortcuts: (%ld, %ld) has %lld winning moves but %s a segment", x, y,
                       st->c.winning_moves, column_loser(&sh->s, x) == y ? "lies on" : "is off");
    int far = need_far(p, e);
    if (far < 0)
        return -1;
    if (far) {
        nim_far root = far_at(p->far, x, y);
        if ((root % 2 == 1) != (st->c.winning_moves == 0))
            return gj_fail(e, GJ_INTERNAL,
                           "nim-shortcuts: the sweep and the segments disagree on (%ld, %ld)", x,
                           y);
        st->far = p->far;
        st->rem = root / 2;
    }
    return 0;
}

/* ---- Ranking ------------------------------------------------------------- */

/* One move with what the position it reaches is worth to the mover. */
typedef struct far_move {
    int heap;
    long take;
    int wins;
    int32_t rem; /* ANALYSIS_REMOTENESS_NULL when unknown */
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

/* Offer the move taking `take` from `heap` of (x, y), valued from g. */
static void offer(analysis_top *top, const far_grid *g, long x, long y, int heap, long take)
{
    nim_far f = heap == 1 ? far_at(g, x - take, y) : far_at(g, x, y - take);
    far_move m = {heap, take, f % 2, f / 2};
    analysis_top_offer(top, &m);
}

/* Every move of (x, y) offered to *top. */
static void offer_all(analysis_top *top, const far_grid *g, long x, long y)
{
    for (int heap = 1; heap <= 2; heap++)
        for (long take = 1; take <= (heap == 1 ? x : y); take++)
            offer(top, g, x, y, heap, take);
}

/* The winning moves of (x, y) offered to *top: the losers of its row and
 * column, which rank before every other move. */
static void offer_winning(analysis_top *top, const far_grid *g, long x, long y, const line *row,
                          const line *col)
{
    for (long k = 0; k < row->count; k++)
        offer(top, g, x, y, 1, x - nim_low(row->key[k]));
    if (row->natural >= 0)
        offer(top, g, x, y, 1, x - row->natural);
    for (long k = 0; k < col->count; k++)
        offer(top, g, x, y, 2, y - nim_low(col->key[k]));
    if (col->natural >= 0)
        offer(top, g, x, y, 2, y - col->natural);
}

/* The first `want` moves with remoteness known into m: their number, or
 * -1 with *e. */
static long rank_far(const ns_play *p, const state *st, long want, far_move *m, gj_error *e)
{
    long x = p->heap[0], y = p->heap[1];
    analysis_top top;
    if (analysis_top_init(&top, want, sizeof(far_move), far_cmp, e) != 0)
        return -1;
    if (want <= st->c.winning_moves)
        offer_winning(&top, st->far, x, y, &st->row, &st->col);
    else
        offer_all(&top, st->far, x, y);
    analysis_top_finish(&top);
    long count = top.count;
    memcpy(m, top.item, (size_t)count * sizeof *m);
    analysis_top_free(&top);
    return count;
}

/* Up to `want` winning moves into m, merging the row (heap 1) and the
 * column (heap 2) by stones taken.  Returns the number written. */
static long rank_winning(const ns_play *p, line row, line col, long want, far_move *m)
{
    long x = p->heap[0], y = p->heap[1], i = 0;
    for (; i < want; i++) {
        long rx = line_peek(&row), cy = line_peek(&col);
        if (rx < 0 && cy < 0)
            break;
        if (rx >= 0 && (cy < 0 || x - rx <= y - cy)) {
            m[i] = (far_move){1, x - rx, 1, ANALYSIS_REMOTENESS_NULL};
            line_take(&row);
        } else {
            m[i] = (far_move){2, y - cy, 1, ANALYSIS_REMOTENESS_NULL};
            line_take(&col);
        }
    }
    return i;
}

/* Losing moves into m after the i winning ones, fewest stones first, until
 * `want` moves are there.  Returns their number. */
static long rank_losing(const ns_play *p, long i, long want, far_move *m)
{
    const shared *sh = p->sh;
    long x = p->heap[0], y = p->heap[1];
    for (long take = 1; i < want && (take <= x || take <= y); take++) {
        if (take <= x && !loses(&sh->b, &sh->s, x - take, y))
            m[i++] = (far_move){1, take, 0, ANALYSIS_REMOTENESS_NULL};
        if (i < want && take <= y && !loses(&sh->b, &sh->s, x, y - take))
            m[i++] = (far_move){2, take, 0, ANALYSIS_REMOTENESS_NULL};
    }
    return i;
}

/* The first `want` moves of the ranking policy of p's heaps (st: look())
 * into m[0..want), want at most the moves there are: 0, or -1 with *e. */
static int rank_moves(const ns_play *p, const state *st, long want, far_move *m, gj_error *e)
{
    long listed;
    if (st->far != NULL)
        listed = rank_far(p, st, want, m, e);
    else
        listed = rank_losing(p, rank_winning(p, st->row, st->col, want, m), want, m);
    if (listed < 0)
        return -1;
    if (listed != want)
        return gj_fail(e, GJ_INTERNAL, "nim-shortcuts: listed %ld moves of %ld", listed, want);
    return 0;
}

/* ---- Writing ------------------------------------------------------------- */

/* `[x,y]`. */
static void put_pair(gj_buf *out, long x, long y)
{
    buf_putc(out, '[');
    buf_put_long(out, x);
    buf_putc(out, ',');
    buf_put_long(out, y);
    buf_putc(out, ']');
}

/* The request's shortcuts written compact into p->shortcuts, once, as
 * jansson writes the request's array: 0, or -1 with *e. */
static int write_shortcuts(ns_play *p, gj_error *e)
{
    const shared *sh = p->sh;
    if (p->shortcuts_written)
        return 0;
    if (sh->given == NULL)
        return gj_fail(e, GJ_INTERNAL, "nim-shortcuts: the request's shortcuts were not kept");
    buf_reserve(&p->shortcuts, (size_t)sh->b.n * 24 + 2);
    buf_putc(&p->shortcuts, '[');
    for (long i = 0; i < sh->b.n; i++) {
        if (i > 0)
            buf_putc(&p->shortcuts, ',');
        put_pair(&p->shortcuts, nim_high(sh->given[i]), nim_low(sh->given[i]));
    }
    buf_putc(&p->shortcuts, ']');
    if (p->shortcuts.failed)
        return gj_fail_nomem(e);
    p->shortcuts_written = 1;
    return 0;
}

/* The members of the position with heaps (x, y) and mover `second`, in
 * the request's order: "to_move" too when the request or a move gave it or
 * `mover` says so (at the end when the request lacks it); only "heaps" and
 * "to_move" when `moved`.  The shortcuts must be written (write_shortcuts)
 * unless moved. */
static void put_members(const ns_play *p, long x, long y, int second, int mover, int moved,
                        gj_buf *out)
{
    int order[MEMBERS], n = p->members, first = 1;
    memcpy(order, p->order, sizeof order);
    if (mover && !has_to_move(p))
        order[n++] = MEMBER_TO_MOVE;
    if (moved) {
        order[0] = MEMBER_HEAPS;
        order[1] = MEMBER_TO_MOVE;
        n = 2;
    }
    for (int i = 0; i < n; i++) {
        if (!first)
            buf_putc(out, ',');
        first = 0;
        if (order[i] == MEMBER_SHORTCUTS) {
            buf_puts(out, "\"shortcuts\":");
            buf_append(out, p->shortcuts.data, p->shortcuts.len);
        } else if (order[i] == MEMBER_HEAPS) {
            buf_puts(out, "\"heaps\":");
            put_pair(out, x, y);
        } else {
            buf_puts(out, "\"to_move\":\"");
            buf_puts(out, mover_name[second]);
            buf_putc(out, '"');
        }
    }
}

/* The entry of move m from p's heaps, its members without braces: "after"
 * is the diff, or the whole position when `whole` (*after_bytes its
 * length, as after.c counts it).  The shortcuts must be written when
 * whole. */
static void put_entry(const ns_play *p, const far_move *m, int whole, gj_buf *out,
                      size_t *after_bytes)
{
    long after[2] = {p->heap[0], p->heap[1]};
    after[m->heap - 1] -= m->take;
    buf_puts(out, "\"move\":{\"heap\":");
    buf_put_long(out, m->heap);
    buf_puts(out, ",\"take\":");
    buf_put_long(out, m->take);
    buf_puts(out, "},\"outcome\":\"");
    buf_puts(out, analysis_outcome(m->wins));
    buf_putc(out, '"');
    analysis_put_remoteness(out, m->rem);
    buf_puts(out, ",\"after\":");
    size_t start = out->len;
    buf_putc(out, '{');
    if (whole)
        put_members(p, after[0], after[1], !p->second, 1, 0, out);
    else
        put_members(p, after[0], after[1], !p->second, 1, 1, out);
    buf_putc(out, '}');
    if (after_bytes != NULL)
        *after_bytes = whole ? out->len - start : 0;
}

/* ---- The parsed position (game.h's gj_play) ------------------------------ */

/* game.h's gj_play.parse: the request's position, its shortcuts kept in
 * its order for whole afters. */
static void *play_parse(const json_t *req, const long *limits, gj_error *e)
{
    return parse_position(req, limits, 1, NULL, e);
}

/* game.h's gj_play.adopt: the request's position over the board read as
 * its body arrived (nim_board_events). */
static void *play_adopt(void *read, const json_t *req, const long *limits, gj_error *e)
{
    return parse_position(req, limits, 1, read, e);
}

/* The /analyze body read as it arrives (analysis_read.h), the shortcuts
 * into the board. */
GJ_ANALYSIS_READER(nim_board_events)

/* game.h's gj_play.analyze: the whole analysis, max_moves as the request's. */
static int play_analyze(void *v, gj_buf *out, gj_error *e)
{
    ns_play *p = v;
    state st;
    if (look(p, &st, e) != 0)
        return -1;
    /* On a shortcut the game is over: no moves at all (moves_total is 0). */
    st.c.listed = st.c.moves_total < p->max_moves ? (long)st.c.moves_total : p->max_moves;
    far_move *m = malloc(((size_t)st.c.listed + 1) * sizeof *m);
    if (m == NULL)
        return gj_fail_nomem(e);
    if (rank_moves(p, &st, st.c.listed, m, e) != 0) {
        free(m);
        return -1;
    }
    analysis_begin(out, game_nim_shortcuts.name, mover_name[p->second], st.c.winning_moves > 0,
                   st.rem, &st.c);
    buf_puts(out, st.shortcut ? ",\"shortcut\":true" : ",\"shortcut\":false");
    for (long i = 0; i < st.c.listed; i++) {
        analysis_move_open(out, i);
        put_entry(p, &m[i], 0, out, NULL);
        analysis_move_close(out);
    }
    analysis_end(out, st.c.listed);
    free(m);
    return out->failed ? gj_fail_nomem(e) : 0;
}

/* Move id of p's heaps into *m (heap and take): 0, or -1 with *e when it
 * is no legal move there. */
static int move_of(const ns_play *p, uint64_t id, far_move *m, gj_error *e)
{
    m->heap = nim_move_heap(id);
    m->take = id >> 1 <= (uint64_t)NIM_MAX_COORD ? nim_move_take(id) : 0;
    if (m->take < 1 || m->take > p->heap[m->heap - 1] ||
        is_shortcut(&p->sh->b, p->heap[0], p->heap[1]))
        return gj_fail(e, GJ_INTERNAL, "nim-shortcuts: move %llu is not legal at (%ld, %ld)",
                       (unsigned long long)id, p->heap[0], p->heap[1]);
    return 0;
}

/* game.h's gj_play.rank. */
static long play_rank(void *v, long max, gj_move *moves, gj_rank_head *head, gj_error *e)
{
    ns_play *p = v;
    state st;
    if (max < 1 || max > ANALYSIS_MAX_MOVES_LIMIT)
        return gj_fail(e, GJ_INTERNAL, "nim-shortcuts: %ld moves asked of rank", max);
    if (look(p, &st, e) != 0)
        return -1;
    long listed = st.c.moves_total < max ? (long)st.c.moves_total : max;
    far_move one = {0}, *m = listed <= 1 ? &one : malloc((size_t)listed * sizeof *m);
    if (m == NULL)
        return gj_fail_nomem(e);
    int rc = rank_moves(p, &st, listed, m, e);
    for (long i = 0; rc == 0 && i < listed; i++)
        moves[i] = (gj_move){nim_move_id(m[i].heap, m[i].take), m[i].wins, 0, m[i].rem};
    if (m != &one)
        free(m);
    if (rc != 0)
        return -1;
    if (head != NULL)
        *head = (gj_rank_head){.value = st.c.winning_moves > 0,
                               .remoteness = st.rem,
                               .moves_total = st.c.moves_total,
                               .winning_moves = st.c.winning_moves,
                               .to_move = mover_name[p->second]};
    return listed;
}

/* game.h's gj_play.write_move: the entry valued afresh, so a move find()
 * gave needs no ranking. */
static int play_write_move(void *v, const gj_move *gm, int whole, gj_buf *out, size_t *after_bytes,
                           gj_error *e)
{
    ns_play *p = v;
    far_move m;
    *after_bytes = 0;
    if (move_of(p, gm->id, &m, e) != 0 || (whole && write_shortcuts(p, e) != 0))
        return -1;
    long x = p->heap[0] - (m.heap == 1 ? m.take : 0), y = p->heap[1] - (m.heap == 2 ? m.take : 0);
    int far = need_far(p, e);
    if (far < 0)
        return -1;
    m.wins = far ? far_at(p->far, x, y) % 2 : loses(&p->sh->b, &p->sh->s, x, y);
    m.rem = far ? far_at(p->far, x, y) / 2 : ANALYSIS_REMOTENESS_NULL;
    put_entry(p, &m, whole, out, after_bytes);
    return out->failed ? gj_fail_nomem(e) : 0;
}

/* game.h's gj_play.play: the stones go, the other player moves (and
 * "to_move" is a member from now on, as play_move() sets it). */
static int play_play(void *v, const gj_move *gm, gj_error *e)
{
    ns_play *p = v;
    far_move m;
    if (move_of(p, gm->id, &m, e) != 0)
        return -1;
    p->heap[m.heap - 1] -= m.take;
    p->second = !p->second;
    if (!has_to_move(p))
        p->order[p->members++] = MEMBER_TO_MOVE;
    return 0;
}

/* game.h's gj_play.find: {"heap": 1 or 2, "take": 1..that heap}, exactly
 * the two members, as an entry writes a move; none on a shortcut. */
static int play_find(void *v, const json_t *move, gj_move *m, gj_error *e)
{
    ns_play *p = v;
    const json_t *heap = json_object_get(move, "heap"), *take = json_object_get(move, "take");
    (void)e;
    if (!json_is_object(move) || json_object_size(move) != 2 || !json_is_integer(heap) ||
        !json_is_integer(take))
        return 0;
    json_int_t h = json_integer_value(heap), t = json_integer_value(take);
    if ((h != 1 && h != 2) || t < 1 || t > p->heap[h - 1] ||
        is_shortcut(&p->sh->b, p->heap[0], p->heap[1]))
        return 0;
    m->id = nim_move_id((int)h, (long)t);
    return 1;
}

/* game.h's gj_play.clone: the board and the sweep shared, the rest copied. */
static void *play_clone(const void *v, gj_error *e)
{
    const ns_play *p = v;
    ns_play *c = malloc(sizeof *c);
    if (c == NULL) {
        gj_fail_nomem(e);
        return NULL;
    }
    *c = *p;
    buf_init(&c->shortcuts);
    c->shortcuts_written = 0;
    atomic_fetch_add(&c->sh->refs, 1);
    if (c->far != NULL)
        atomic_fetch_add(&c->far->refs, 1);
    return c;
}

/* game.h's gj_play.write_members. */
static void play_write_members(void *v, int moved, gj_buf *out)
{
    ns_play *p = v;
    gj_error ignored;
    if (!moved && write_shortcuts(p, &ignored) != 0) {
        out->failed = 1;
        return;
    }
    put_members(p, p->heap[0], p->heap[1], p->second, moved, moved, out);
}

/* game.h's gj_play.draw. */
static int play_draw(void *v, gj_buf *out, int *width, int *height, gj_error *e)
{
    ns_play *p = v;
    return nim_draw(&p->sh->b, p->heap, p->second, out, width, height, e);
}

const gj_play nim_shortcuts_play = {
    .parse = play_parse,
    .analyze = play_analyze,
    .rank = play_rank,
    .write_move = play_write_move,
    .play = play_play,
    .find = play_find,
    .clone = play_clone,
    .write_members = play_write_members,
    .free = play_free,
    .look = nim_shortcuts_look,
    .motifs = nim_shortcuts_motif_bits,
    .draw = play_draw,
    .read_analysis = &read_analysis,
    .adopt = play_adopt,
};

/* nim_shortcuts_core.h's: read for the puzzle's parts, never changed. */
void nim_play_view(const void *pos, nim_view *v)
{
    const ns_play *p = pos;
    *v = (nim_view){p->heap[0], p->heap[1], p->sh->b.n, p->sh->b.shortcut, p->sh->by_row};
}

/* analyze() over the parsed position: parse, analyse, free.  The
 * shortcuts' order is not kept: no after here is whole. */
int nim_shortcuts_analyze(const char *buf, size_t len, const long *limits, gj_buf *out, gj_error *e)
{
    json_t *root = jin_load_object(buf, len, nim_shortcuts_analyze_keys, e);
    if (root == NULL)
        return -1;
    ns_play *p = parse_position(root, limits, 0, NULL, e);
    json_decref(root);
    if (p == NULL)
        return -1;
    int rc = play_analyze(p, out, e);
    play_free(p);
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
