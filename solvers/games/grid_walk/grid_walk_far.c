/* grid_walk_far.c - grid-walk remoteness (grid_walk_core.h, analysis.h).
 *
 * The matching argument says who wins but not how long the walk lasts, so
 * this is a search from the rules: a position is the token's cell and the
 * free cells it may still reach.  Cells the token can no longer reach play
 * no part in the rest of the game, so a position keeps only the component
 * of the token's neighbours in the unvisited cells: positions whose walks
 * have cut off different dead cells meet in the memo, which is what makes
 * corridors and small rooms cheap.  A component has at most GW_FAR_CELLS
 * cells (two 64-bit words of mask); its cells are numbered in row-major
 * order, so the numbering, and the memo key (the component's first cell,
 * the token, the mask), depends only on the cells.  The search stops as
 * past its bound once the memo would hold more than
 * ANALYSIS_REMOTENESS_STATES positions; the whole analysis then answers
 * null.  The recursion is at most GW_FAR_CELLS deep.
 *
 * Whether the search passes its bound is the number of distinct positions
 * reachable, whatever the order they are met in, so what makes it faster
 * must find exactly the same positions.  Two things do.  A set is grown
 * from its cells' neighbour masks a breadth-first layer at a time rather
 * than a cell at a time.  And most steps need no growing at all: a
 * position keeps its reachable cells as the pieces they fall into, each
 * next to the token, so a step stays in the piece of the cell it steps
 * onto; when the cells of that piece around the cell (the ring of eight,
 * read as a cycle) join its neighbours without it, the step cuts nothing
 * off and the cells left are the piece without the cell: any path through
 * the cell can go round it instead. */
#include <stdlib.h>

#include "analysis.h"
#include "cancel.h"
#include "far_memo.h"
#include "grid_walk_core.h"

#define GW_FAR_CELLS 128

typedef struct bits {
    uint64_t w[2];
} bits;

struct gw_far {
    const gw_position *pos;
    far_memo memo;
    int *index;                        /* padded cell -> number in the component, or -1 */
    int cell[GW_FAR_CELLS];            /* number -> padded cell, ascending */
    bits nbm[GW_FAR_CELLS];            /* neighbours by number, as a set */
    signed char ring[GW_FAR_CELLS][8]; /* the eight around, clockwise from above: a number or -1 */
    int k;                             /* cells in the component */
    int first;                         /* the component's first padded cell: part of the key */
    long steps;                        /* positions searched, for the cancel checks */
};

/* Whether number i is in the set. */
static int has(const bits *s, int i)
{
    return (int)(s->w[i >> 6] >> (i & 63)) & 1;
}

/* Put number i in the set. */
static void add(bits *s, int i)
{
    s->w[i >> 6] |= UINT64_C(1) << (i & 63);
}

/* Take number i out of the set. */
static void drop(bits *s, int i)
{
    s->w[i >> 6] &= ~(UINT64_C(1) << (i & 63));
}

gw_far *gw_far_new(const gw_position *pos, gj_error *e)
{
    size_t cells = (size_t)(pos->rows + 2) * (size_t)pos->width;
    gw_far *f = calloc(1, sizeof *f);
    if (f != NULL)
        f->index = malloc(cells * sizeof *f->index);
    if (f == NULL || f->index == NULL || far_memo_init(&f->memo, ANALYSIS_REMOTENESS_STATES) != 0) {
        gw_far_free(f);
        gj_fail_nomem(e);
        return NULL;
    }
    for (size_t c = 0; c < cells; c++)
        f->index[c] = -1;
    f->pos = pos;
    return f;
}

void gw_far_free(gw_far *f)
{
    if (f == NULL)
        return;
    if (f->memo.key != NULL)
        far_memo_free(&f->memo);
    free(f->index);
    free(f);
}

/* The padded cells open from v (v included) into f's numbering, in
 * row-major order, with their neighbour lists: 1, or 0 when there are more
 * than GW_FAR_CELLS (the numbering is then left empty). */
static int number_component(gw_far *f, int v)
{
    const gw_position *pos = f->pos;
    const int step[4] = {-pos->width, -1, 1, pos->width};
    int stack[GW_FAR_CELLS], found = 0, k = 0;
    /* Flood fill, marking with index 0 for "seen" until numbered. */
    f->cell[found++] = v;
    f->index[v] = 0;
    stack[k++] = v;
    while (k > 0) {
        int c = stack[--k];
        for (int d = 0; d < 4; d++) {
            int w = c + step[d];
            if (!pos->open[w] || f->index[w] == 0)
                continue;
            if (found == GW_FAR_CELLS) {
                for (int i = 0; i < found; i++)
                    f->index[f->cell[i]] = -1;
                f->k = 0;
                return 0;
            }
            f->index[w] = 0;
            f->cell[found++] = w;
            stack[k++] = w;
        }
    }
    /* Row-major numbering: an insertion sort of at most 128 cells. */
    for (int i = 1; i < found; i++)
        for (int j = i; j > 0 && f->cell[j - 1] > f->cell[j]; j--) {
            int t = f->cell[j];
            f->cell[j] = f->cell[j - 1];
            f->cell[j - 1] = t;
        }
    for (int i = 0; i < found; i++)
        f->index[f->cell[i]] = i;
    /* The ring clockwise from above: above, above right, right, ... */
    const int around[8] = {-pos->width, -pos->width + 1, 1,  pos->width + 1,
                           pos->width,  pos->width - 1,  -1, -pos->width - 1};
    for (int i = 0; i < found; i++) {
        f->nbm[i] = (bits){{0, 0}};
        for (int d = 0; d < 4; d++) {
            int w = f->cell[i] + step[d];
            if (pos->open[w])
                add(&f->nbm[i], f->index[w]);
        }
        for (int d = 0; d < 8; d++)
            f->ring[i][d] = (signed char)f->index[f->cell[i] + around[d]];
    }
    f->k = found;
    f->first = f->cell[0];
    return 1;
}

/* Forget the numbering, so the next component starts clean. */
static void clear_component(gw_far *f)
{
    for (int i = 0; i < f->k; i++)
        f->index[f->cell[i]] = -1;
    f->k = 0;
}

/* Whether the set is empty. */
static int none(const bits *s)
{
    return (s->w[0] | s->w[1]) == 0;
}

/* The lowest number in a set that is not empty. */
static int lowest(const bits *s)
{
    return s->w[0] != 0 ? __builtin_ctzll(s->w[0]) : 64 + __builtin_ctzll(s->w[1]);
}

/* The numbers of `rest` that the numbers of `seed` (all in rest) reach
 * through rest, the seed included: grown a breadth-first layer at a time. */
static bits grow(const gw_far *f, bits seed, const bits *rest)
{
    bits got = seed, layer = seed;
    while (!none(&layer)) {
        bits next = {{0, 0}};
        for (int h = 0; h < 2; h++)
            for (uint64_t m = layer.w[h]; m != 0; m &= m - 1) {
                const bits *nb = &f->nbm[64 * h + __builtin_ctzll(m)];
                next.w[0] |= nb->w[0];
                next.w[1] |= nb->w[1];
            }
        for (int h = 0; h < 2; h++) {
            layer.w[h] = next.w[h] & rest->w[h] & ~got.w[h];
            got.w[h] |= layer.w[h];
        }
    }
    return got;
}

/* Whether the cells of ring pattern p (bit d: the cell d of the eight
 * around, clockwise from above, is there) join every side neighbour there
 * (the even bits) along the ring: at most one run of consecutive cells
 * holds side neighbours. */
static int ring_joins(unsigned p)
{
    if (p == 0xff)
        return 1;
    int start = 0; /* a cell not there, so no run wraps past the start */
    while (p >> start & 1)
        start++;
    int runs = 0, in_run = 0, has_side = 0;
    for (int k = 1; k <= 8; k++) {
        int d = (start + k) & 7;
        if (p >> d & 1) {
            in_run = 1;
            has_side |= d % 2 == 0;
        } else if (in_run) {
            runs += has_side;
            in_run = has_side = 0;
        }
    }
    return runs <= 1;
}

/* The cells still reachable once the token steps onto number u, when the
 * cells reachable before are `piece`, one piece holding u, and the others
 * that no longer matter: the pieces of piece - u that u's neighbours reach
 * through it, into out[0..), their count returned (at most 4). */
static int step_onto(const gw_far *f, int u, const bits *piece, bits out[4])
{
    bits rest = *piece;
    drop(&rest, u);
    unsigned p = 0;
    for (int d = 0; d < 8; d++)
        p |= (unsigned)(f->ring[u][d] >= 0 && has(&rest, f->ring[u][d])) << d;
    if (ring_joins(p)) {
        out[0] = rest; /* nothing cut off: rest is one piece (empty, or next to u) */
        return 1;
    }
    /* Each piece of rest next to u, grown from one neighbour at a time. */
    bits near = {{f->nbm[u].w[0] & rest.w[0], f->nbm[u].w[1] & rest.w[1]}};
    int n = 0;
    while (!none(&near)) {
        bits seed = {{0, 0}};
        add(&seed, lowest(&near));
        out[n] = grow(f, seed, &rest);
        near.w[0] &= ~out[n].w[0];
        near.w[1] &= ~out[n].w[1];
        n++;
    }
    return n;
}

/* The value (2 * remoteness + 1 when the mover wins) of the token on
 * number t with the cells still reachable in the n pieces piece[] (each
 * next to t, none touching another): >= 0, GW_FAR_PAST past the bound, or
 * -1 with *e (out of memory, or cancelled). */
static long search(gw_far *f, int t, const bits *piece, int n, gj_error *e)
{
    bits free = {{0, 0}};
    for (int i = 0; i < n; i++) {
        free.w[0] |= piece[i].w[0];
        free.w[1] |= piece[i].w[1];
    }
    far_key key = {{free.w[0], free.w[1], (uint64_t)f->first << 8 | (uint64_t)t}};
    int32_t known;
    if (far_memo_find(&f->memo, &key, &known))
        return known;
    if (++f->steps % 4096 == 0 && gj_cancel_check(e) != 0)
        return -1;
    long fastest_win = -1, slowest = -1; /* remoteness after a move */
    for (int i = 0; i < n; i++) {
        bits moves = {{f->nbm[t].w[0] & piece[i].w[0], f->nbm[t].w[1] & piece[i].w[1]}};
        while (!none(&moves)) {
            int u = lowest(&moves);
            drop(&moves, u);
            bits next[4];
            int m = step_onto(f, u, &piece[i], next);
            long v = search(f, u, next, m, e);
            if (v < 0)
                return v;
            long r = v / 2;
            if (v % 2 == 0 && (fastest_win < 0 || r < fastest_win))
                fastest_win = r; /* the opponent loses there */
            if (r > slowest)
                slowest = r;
        }
    }
    long value = fastest_win >= 0 ? 2 * (fastest_win + 1) + 1 : 2 * (slowest + 1);
    int rc = far_memo_add(&f->memo, &key, (int32_t)value);
    if (rc < 0)
        return gj_fail_nomem(e);
    return rc > 0 ? GW_FAR_PAST : value;
}

/* The piece of the n pieces piece[] that holds number u. */
static const bits *piece_of(const bits *piece, int n, int u)
{
    int i = 0;
    while (i + 1 < n && !has(&piece[i], u))
        i++;
    return &piece[i];
}

long gw_far_walk(gw_far *f, int v, const int *moves, int nmoves, long *after, gj_error *e)
{
    if (!number_component(f, v))
        return GW_FAR_PAST;
    int t = f->index[v];
    bits all = {{0, 0}};
    for (int i = 0; i < f->k; i++)
        add(&all, i);
    /* The whole component less t: the pieces t's neighbours reach. */
    bits piece[4];
    int n = step_onto(f, t, &all, piece);
    long value = search(f, t, piece, n, e);
    for (int i = 0; i < nmoves && value >= 0; i++) {
        int u = f->index[moves[i]];
        bits next[4];
        int m = step_onto(f, u, piece_of(piece, n, u), next);
        after[i] = search(f, u, next, m, e);
        if (after[i] < 0)
            value = after[i];
    }
    clear_component(f);
    return value;
}
