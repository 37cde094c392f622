/* staircase_chess_oracle.c - exhaustive minimax over stone placements. */
#include "staircase_chess_oracle.h"

#include <limits.h>
#include <stdio.h>

typedef struct board {
    int n, m;
    const long *a, *b;
    unsigned char stone[STAIRCASE_CHESS_ORACLE_CELLS]; /* 1 = occupied */
} board;

static int can_place(const board *g, int i, int j)
{
    if (g->stone[i * g->m + j])
        return 0;
    for (int k = 0; k < j; k++)
        if (!g->stone[i * g->m + k])
            return 0;
    for (int k = 0; k < i; k++)
        if (!g->stone[k * g->m + j])
            return 0;
    return 1;
}

/* Black minus white from here on, `placed` stones already down. */
static long play(board *g, int placed)
{
    int cells = g->n * g->m, black = placed % 2 == 0, any = 0;
    long best = 0;
    if (placed == cells)
        return 0;
    for (int i = 0; i < g->n; i++) {
        for (int j = 0; j < g->m; j++) {
            if (!can_place(g, i, j))
                continue;
            g->stone[i * g->m + j] = 1;
            long rest = play(g, placed + 1);
            g->stone[i * g->m + j] = 0;
            long v = black ? g->a[i * g->m + j] + rest : rest - g->b[i * g->m + j];
            if (!any || (black ? v > best : v < best))
                best = v;
            any = 1;
        }
    }
    return best;
}

int staircase_chess_oracle(int n, int m, const long *a, const long *b, char *out, size_t cap)
{
    if (n < 1 || m < 1 || n * m > STAIRCASE_CHESS_ORACLE_CELLS)
        return -1;
    board g = {.n = n, .m = m, .a = a, .b = b};
    int len = snprintf(out, cap, "%ld\n", play(&g, 0));
    return len < 0 || (size_t)len >= cap ? -1 : 0;
}

long staircase_chess_oracle_margin(int n, int m, const long *a, const long *b,
                                   const unsigned char *stone)
{
    if (n < 1 || m < 1 || n * m > STAIRCASE_CHESS_ORACLE_CELLS)
        return LONG_MIN;
    board g = {.n = n, .m = m, .a = a, .b = b};
    int placed = 0;
    for (int k = 0; k < n * m; k++) {
        g.stone[k] = stone[k] != 0;
        placed += g.stone[k];
    }
    long rest = play(&g, placed);
    return placed % 2 == 0 ? rest : -rest;
}

int staircase_chess_oracle_legal(int n, int m, const unsigned char *stone, int i, int j)
{
    if (n < 1 || m < 1 || n * m > STAIRCASE_CHESS_ORACLE_CELLS || i < 0 || i >= n || j < 0 ||
        j >= m)
        return 0;
    board g = {.n = n, .m = m};
    for (int k = 0; k < n * m; k++)
        g.stone[k] = stone[k] != 0;
    return can_place(&g, i, j);
}

/* A board for the puzzle's look: the stones copied so cells can be tried. */
typedef struct wide {
    int n, m, placed;
    const long *a, *b;
    unsigned char stone[STAIRCASE_CHESS_ORACLE_LOOK_CELLS];
} wide;

/* Whether (i, j) is empty with every cell left of it and above it taken. */
static int wide_legal(const wide *w, int i, int j)
{
    if (w->stone[i * w->m + j])
        return 0;
    for (int k = 0; k < j; k++)
        if (!w->stone[i * w->m + k])
            return 0;
    for (int k = 0; k < i; k++)
        if (!w->stone[k * w->m + j])
            return 0;
    return 1;
}

/* What the player to move after `placed` stones scores on cell c. */
static long points(const wide *w, int placed, int c)
{
    return placed % 2 == 0 ? w->a[c] : w->b[c];
}

/* w from the caller's board; 0, or -1 when too large or a cell is no move. */
static int wide_of(wide *w, int n, int m, const long *a, const long *b, const unsigned char *stone,
                   const int *cell, int count)
{
    if (n < 1 || m < 1 || n * m > STAIRCASE_CHESS_ORACLE_LOOK_CELLS)
        return -1;
    w->n = n;
    w->m = m;
    w->a = a;
    w->b = b;
    w->placed = 0;
    for (int c = 0; c < n * m; c++) {
        w->stone[c] = stone[c] != 0;
        w->placed += w->stone[c];
    }
    for (int k = 0; k < count; k++)
        if (cell[k] < 0 || cell[k] >= n * m || !wide_legal(w, cell[k] / m, cell[k] % m))
            return -1;
    return 0;
}

/* The mover's points on c minus the most the opponent can take right after
 * (nothing when c fills the board). */
static long after_reply(wide *w, int c)
{
    long most = 0;
    w->stone[c] = 1;
    for (int r = 0; r < w->n * w->m; r++)
        if (wide_legal(w, r / w->m, r % w->m) && points(w, w->placed + 1, r) > most)
            most = points(w, w->placed + 1, r);
    w->stone[c] = 0;
    return points(w, w->placed, c) - most;
}

int staircase_chess_oracle_look(int n, int m, const long *a, const long *b,
                                const unsigned char *stone, const int *cell, int count, int plies,
                                double *value)
{
    wide w;
    if ((plies != 1 && plies != 2) || wide_of(&w, n, m, a, b, stone, cell, count) != 0)
        return -1;
    long top = 0;
    for (int c = 0; c < n * m; c++)
        if (!w.stone[c]) {
            top = a[c] > top ? a[c] : top;
            top = b[c] > top ? b[c] : top;
        }
    for (int k = 0; k < count; k++) {
        long d = plies == 1 ? points(&w, w.placed, cell[k]) : after_reply(&w, cell[k]);
        value[k] = (double)d / (double)(top + 1);
    }
    return 0;
}

int staircase_chess_oracle_motifs(int n, int m, const long *a, const long *b,
                                  const unsigned char *stone, const int *cell, int count,
                                  unsigned *bits)
{
    wide w;
    if (count < 1 || wide_of(&w, n, m, a, b, stone, cell, count) != 0)
        return -1;
    int s = cell[0], sacrifice = 0, denial = count > 1, quiet = 1, richer = 0;
    for (int k = 1; k < count; k++) {
        int c = cell[k];
        long mine = points(&w, w.placed, c), best = points(&w, w.placed, s);
        if (mine > best && after_reply(&w, c) > after_reply(&w, s))
            sacrifice = 1;
        if (points(&w, w.placed + 1, c) >= points(&w, w.placed + 1, s))
            denial = 0;
        if (mine < best)
            quiet = 0;
        if (mine > best)
            richer = 1;
    }
    *bits = (unsigned)sacrifice | (unsigned)denial << 1 | (unsigned)(quiet && richer) << 2;
    return 0;
}
