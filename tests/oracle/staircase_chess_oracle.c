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
