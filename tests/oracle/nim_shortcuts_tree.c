/* nim_shortcuts_tree.c - the nim-shortcuts game tree (see the header). */
#include "nim_shortcuts_tree.h"

#include <stdlib.h>

/* Is (x, y) lost for the player to move?  Every move leads to a smaller
 * position, so filling x then y in increasing order has every answer a move
 * needs ready. */
static int lost(const nim_tree *t, long x, long y)
{
    if (t->shortcut[x * t->h + y])
        return 1;
    for (long x2 = 0; x2 < x; x2++)
        if (t->lose[x2 * t->h + y])
            return 0;
    for (long y2 = 0; y2 < y; y2++)
        if (t->lose[x * t->h + y2])
            return 0;
    return 1; /* no move (0, 0), or every move reaches a winning position */
}

/* The remoteness of (x, y), its moves' already known: every move, both
 * heaps, looked at by the definition. */
static long remoteness(const nim_tree *t, long x, long y)
{
    if (t->shortcut[x * t->h + y])
        return 0;
    long fastest_win = -1, slowest = -1;
    for (long k = 0; k < x + y; k++) {
        long at = k < x ? k * t->h + y : x * t->h + (k - x);
        if (t->lose[at] && (fastest_win < 0 || t->far[at] < fastest_win))
            fastest_win = t->far[at];
        if (t->far[at] > slowest)
            slowest = t->far[at];
    }
    return 1 + (fastest_win >= 0 ? fastest_win : slowest);
}

int nim_tree_build(nim_tree *t, const long *sx, const long *sy, long n, long w, long h)
{
    t->w = w;
    t->h = h;
    t->shortcut = calloc((size_t)w * (size_t)h, 1);
    t->lose = calloc((size_t)w * (size_t)h, 1);
    t->far = calloc((size_t)w * (size_t)h, sizeof *t->far);
    if (t->shortcut == NULL || t->lose == NULL || t->far == NULL) {
        nim_tree_free(t);
        return -1;
    }
    for (long i = 0; i < n; i++)
        if (sx[i] < w && sy[i] < h)
            t->shortcut[sx[i] * h + sy[i]] = 1;
    for (long x = 0; x < w; x++)
        for (long y = 0; y < h; y++) {
            t->lose[x * h + y] = (unsigned char)lost(t, x, y);
            t->far[x * h + y] = remoteness(t, x, y);
        }
    return 0;
}

int nim_tree_loses(const nim_tree *t, long x, long y)
{
    return t->lose[x * t->h + y];
}

int nim_tree_is_shortcut(const nim_tree *t, long x, long y)
{
    return t->shortcut[x * t->h + y];
}

long nim_tree_remoteness(const nim_tree *t, long x, long y)
{
    return t->far[x * t->h + y];
}

void nim_tree_free(nim_tree *t)
{
    free(t->shortcut);
    free(t->lose);
    free(t->far);
    t->shortcut = t->lose = NULL;
    t->far = NULL;
}
