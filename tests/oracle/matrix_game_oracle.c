/* matrix_game_oracle.c - finite-horizon minimax for matrix-game.
 *
 * ahead_m[c] (ahead_g[c]) is the best score difference, M minus G, that the
 * remaining t moves add when the token is on c and M (G) is to move: M
 * maximises it, G minimises it, and a mover may land on any cell farther than
 * k from c.  With t moves left after the placement on s, the whole game is
 * worth value[s] + ahead_g[s]; a game of 1 + t moves is even when t is odd. */
#include "matrix_game_oracle.h"

#include <stdlib.h>
#include <string.h>

#define MAX_CELLS (MG_ORACLE_MAX_SIDE * MG_ORACLE_MAX_SIDE)

typedef struct board {
    int cells;
    int value[MAX_CELLS];
    int reach[MAX_CELLS][MAX_CELLS]; /* reach[c][0..nreach[c]) are the legal jumps from c */
    int nreach[MAX_CELLS];
} board;

static void list_jumps(board *b, int n, int k)
{
    for (int c = 0; c < b->cells; c++) {
        b->nreach[c] = 0;
        for (int d = 0; d < b->cells; d++)
            if (abs(c / n - d / n) + abs(c % n - d % n) > k)
                b->reach[c][b->nreach[c]++] = d;
    }
}

/* One more move of look-ahead for both movers, from the tables for t - 1. */
static void deepen(const board *b, const long *prev_m, const long *prev_g, long *ahead_m,
                   long *ahead_g)
{
    for (int c = 0; c < b->cells; c++) {
        long best_m = 0, best_g = 0;
        for (int i = 0; i < b->nreach[c]; i++) {
            int d = b->reach[c][i];
            long m = b->value[d] + prev_g[d];  /* M lands on d, then G moves */
            long g = -b->value[d] + prev_m[d]; /* G lands on d, then M moves */
            if (i == 0 || m > best_m)
                best_m = m;
            if (i == 0 || g < best_g)
                best_g = g;
        }
        ahead_m[c] = best_m;
        ahead_g[c] = best_g;
    }
}

static int sign(long x)
{
    return (x > 0) - (x < 0);
}

int matrix_game_oracle(int n, int k, const int *value, char *out, size_t cap)
{
    if (n < 3 || n > MG_ORACLE_MAX_SIDE || k < 1 || k > n - 2)
        return -1;
    if (cap < (size_t)(n * (n + 1) + 1))
        return -1;
    board *b = malloc(sizeof *b);
    if (b == NULL)
        return -1;
    b->cells = n * n;
    memcpy(b->value, value, (size_t)b->cells * sizeof *value);
    list_jumps(b, n, k);

    long tables[4][MAX_CELLS] = {{0}};
    long *prev_m = tables[0], *prev_g = tables[1], *ahead_m = tables[2], *ahead_g = tables[3];
    int verdict[MAX_CELLS] = {0};
    int settled = 1;
    for (int t = 1; t < MG_ORACLE_MOVES; t++) {
        deepen(b, prev_m, prev_g, ahead_m, ahead_g);
        if (t % 2 == 1 && t >= MG_ORACLE_MOVES / 2) {
            for (int s = 0; s < b->cells; s++) {
                int now = sign(b->value[s] + ahead_g[s]);
                if (now == 0 || (verdict[s] != 0 && verdict[s] != now))
                    settled = 0;
                verdict[s] = now;
            }
        }
        long *t_m = prev_m, *t_g = prev_g;
        prev_m = ahead_m;
        prev_g = ahead_g;
        ahead_m = t_m;
        ahead_g = t_g;
    }
    free(b);
    if (!settled)
        return -1;
    size_t o = 0;
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++)
            out[o++] = verdict[i * n + j] > 0 ? 'M' : 'G';
        out[o++] = '\n';
    }
    out[o] = '\0';
    return 0;
}

/* The mover's best margin over t moves from c, mover minus opponent, is the
 * same for M and G: best[t][c] = max over jumps d of value[d] - best[t-1][d].
 * The margin of the move to d with t moves left is value[d] - best[t-1][d]. */
int matrix_game_oracle_moves(int n, int k, const int *value, int token, signed char *outcome)
{
    if (n < 3 || n > MG_ORACLE_MAX_SIDE || k < 1 || k > n - 2 || token < -1 || token >= n * n)
        return -1;
    board *b = malloc(sizeof *b);
    if (b == NULL)
        return -1;
    b->cells = n * n;
    memcpy(b->value, value, (size_t)b->cells * sizeof *value);
    list_jumps(b, n, k);

    long tables[2][MAX_CELLS] = {{0}};
    long *prev = tables[0], *best = tables[1]; /* best over t - 1 moves, then over t */
    int verdict[MAX_CELLS] = {0};              /* sign of each move's margin, once checked */
    int settled = 1;
    for (int t = 1; t <= MG_ORACLE_MOVES; t++) {
        /* prev is best[t - 1]: judge the moves with t moves left. */
        if (t >= MG_ORACLE_MOVES / 2) {
            for (int d = 0; d < b->cells; d++) {
                int now = sign(b->value[d] - prev[d]);
                if (now == 0 || (verdict[d] != 0 && verdict[d] != now))
                    settled = 0;
                verdict[d] = now;
            }
        }
        for (int c = 0; c < b->cells; c++) {
            long m = 0;
            for (int i = 0; i < b->nreach[c]; i++) {
                int d = b->reach[c][i];
                long gain = b->value[d] - prev[d];
                if (i == 0 || gain > m)
                    m = gain;
            }
            best[c] = m;
        }
        long *swap = prev;
        prev = best;
        best = swap;
    }
    int wins = 0;
    for (int d = 0; d < b->cells; d++)
        outcome[d] = -1;
    if (token < 0) {
        for (int d = 0; d < b->cells; d++)
            outcome[d] = (signed char)(verdict[d] > 0);
    } else {
        for (int i = 0; i < b->nreach[token]; i++) {
            int d = b->reach[token][i];
            outcome[d] = (signed char)(verdict[d] > 0);
        }
    }
    for (int d = 0; d < b->cells; d++)
        if (outcome[d] == 1)
            wins = 1;
    free(b);
    return settled ? wins : -1;
}

/* Whether the token may jump from cell a to cell b of an n x n board (a
 * -1: the opening, where it is placed anywhere). */
static int may_jump(int n, int k, int a, int b)
{
    return a < 0 || abs(a / n - b / n) + abs(a % n - b % n) > k;
}

/* Whether the arguments name a board the puzzle oracles take and legal
 * jumps from the token. */
static int puzzle_args_ok(int n, int k, int token, const int *moves, int nmoves)
{
    if (n < 3 || n > MG_ORACLE_MAX_SIDE || k < 1 || k > n - 2 || token < -1 || token >= n * n ||
        nmoves < 1)
        return 0;
    for (int i = 0; i < nmoves; i++)
        if (moves[i] < 0 || moves[i] >= n * n || !may_jump(n, k, token, moves[i]))
            return 0;
    return 1;
}

int matrix_game_oracle_look(int n, int k, const int *value, int token, const int *moves, int nmoves,
                            int plies, double *out)
{
    if (!puzzle_args_ok(n, k, token, moves, nmoves) || plies < 1 || plies > 2)
        return -1;
    double scale = n * n + 1;
    for (int i = 0; i < nmoves; i++) {
        int c = moves[i];
        out[i] = value[c] / scale;
        if (plies == 1)
            continue;
        int replied = 0;
        for (int d = 0; d < n * n; d++) {
            if (!may_jump(n, k, c, d))
                continue;
            double seen = (value[c] - value[d]) / scale;
            if (!replied || seen < out[i])
                out[i] = seen;
            replied = 1;
        }
        if (!replied)
            return -1; /* k <= n - 2 leaves a reply from every cell */
    }
    return 0;
}

int matrix_game_oracle_motifs(int n, int k, const int *value, int token, const int *moves,
                              int nmoves, unsigned *bits)
{
    if (!puzzle_args_ok(n, k, token, moves, nmoves))
        return -1;
    int w = moves[0], largest = 0, others = 0, above = 0, outscored = 0;
    for (int c = 0; c < n * n; c++) {
        if (value[c] > largest)
            largest = value[c];
        if (may_jump(n, k, w, c) && value[c] > value[w])
            outscored = 1;
        if (c != w && may_jump(n, k, token, c)) {
            others++;
            above += value[c] > value[w];
        }
    }
    *bits =
        (value[w] == largest ? 1u : 0u) | (outscored ? 2u : 0u) | (2 * above >= others ? 4u : 0u);
    return 0;
}
