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
 * null.  The recursion is at most GW_FAR_CELLS deep. */
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
    int *index;              /* padded cell -> number in the component, or -1 */
    int cell[GW_FAR_CELLS];  /* number -> padded cell, ascending */
    int nb[GW_FAR_CELLS][4]; /* neighbours by number */
    int nnb[GW_FAR_CELLS];   /* how many */
    int k;                   /* cells in the component */
    int first;               /* the component's first padded cell: part of the key */
    long steps;              /* positions searched, for the cancel checks */
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
    for (int i = 0; i < found; i++) {
        f->nnb[i] = 0;
        for (int d = 0; d < 4; d++) {
            int w = f->cell[i] + step[d];
            if (pos->open[w])
                f->nb[i][f->nnb[i]++] = f->index[w];
        }
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

/* The numbers of `rest` that number u reaches through `rest` (u itself
 * not included, and not in rest). */
static bits reach(const gw_far *f, int u, const bits *rest)
{
    bits got = {{0, 0}};
    int stack[GW_FAR_CELLS], k = 0;
    stack[k++] = u;
    while (k > 0) {
        int c = stack[--k];
        for (int d = 0; d < f->nnb[c]; d++) {
            int w = f->nb[c][d];
            if (has(rest, w) && !has(&got, w)) {
                add(&got, w);
                stack[k++] = w;
            }
        }
    }
    return got;
}

/* The value (2 * remoteness + 1 when the mover wins) of the token on
 * number t with the cells `free` still reachable: >= 0, GW_FAR_PAST past
 * the bound, or -1 with *e (out of memory, or cancelled). */
static long search(gw_far *f, int t, const bits *free, gj_error *e)
{
    far_key key = {{free->w[0], free->w[1], (uint64_t)f->first << 8 | (uint64_t)t}};
    int32_t known;
    if (far_memo_find(&f->memo, &key, &known))
        return known;
    if (++f->steps % 4096 == 0 && gj_cancel_check(e) != 0)
        return -1;
    long fastest_win = -1, slowest = -1; /* remoteness after a move */
    for (int d = 0; d < f->nnb[t]; d++) {
        int u = f->nb[t][d];
        if (!has(free, u))
            continue;
        bits rest = *free;
        drop(&rest, u);
        bits next = reach(f, u, &rest);
        long v = search(f, u, &next, e);
        if (v < 0)
            return v;
        long r = v / 2;
        if (v % 2 == 0 && (fastest_win < 0 || r < fastest_win))
            fastest_win = r; /* the opponent loses there */
        if (r > slowest)
            slowest = r;
    }
    long value = fastest_win >= 0 ? 2 * (fastest_win + 1) + 1 : 2 * (slowest + 1);
    int rc = far_memo_add(&f->memo, &key, (int32_t)value);
    if (rc < 0)
        return gj_fail_nomem(e);
    return rc > 0 ? GW_FAR_PAST : value;
}

long gw_far_walk(gw_far *f, int v, const int *moves, int nmoves, long *after, gj_error *e)
{
    if (!number_component(f, v))
        return GW_FAR_PAST;
    int t = f->index[v];
    bits free = {{0, 0}};
    for (int i = 0; i < f->k; i++)
        if (i != t)
            add(&free, i);
    long value = search(f, t, &free, e);
    for (int i = 0; i < nmoves && value >= 0; i++) {
        int u = f->index[moves[i]];
        bits rest = free;
        drop(&rest, u);
        bits next = reach(f, u, &rest);
        after[i] = search(f, u, &next, e);
        if (after[i] < 0)
            value = after[i];
    }
    clear_component(f);
    return value;
}
