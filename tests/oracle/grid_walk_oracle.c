/* grid_walk_oracle.c - exhaustive game-tree search for grid-walk.
 *
 * The rules, and nothing more: the free cells are numbered 0..k-1 in
 * row-major order, and the player to move from cell i with the visited set
 * S wins when some free neighbour j of i outside S leaves the opponent
 * losing from (j, S + j).  B moves first from A's start s, so A wins from s
 * exactly when the mover loses (s, {s}).  States are memoised in k * 2^k
 * bytes; the recursion is at most k deep.  gw_tree asks the same search
 * about positions in mid-play, one memo per grid. */
#include "grid_walk_oracle.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

enum { UNKNOWN = 0, MOVER_LOSES = 1, MOVER_WINS = 2 };

typedef struct search {
    int k;
    uint32_t adj[GW_ORACLE_MAX_FREE]; /* free neighbours of each free cell */
    unsigned char *memo;              /* [visited * k + cell] */
    unsigned char *far;               /* the same, remoteness + 1 (0: not yet) */
} search;

static int mover_wins(search *s, int cell, uint32_t visited)
{
    unsigned char *m = &s->memo[(size_t)visited * (size_t)s->k + (size_t)cell];
    if (*m != UNKNOWN)
        return *m == MOVER_WINS;
    int wins = 0;
    for (int j = 0; j < s->k && !wins; j++) {
        uint32_t bit = (uint32_t)1 << j;
        if ((s->adj[cell] & bit) && !(visited & bit) && !mover_wins(s, j, visited | bit))
            wins = 1;
    }
    *m = wins ? MOVER_WINS : MOVER_LOSES;
    return wins;
}

/* The remoteness of (cell, visited) by its definition, every move looked
 * at (no cut-off: a loser's slowest move is needed). */
static int remoteness(search *s, int cell, uint32_t visited)
{
    unsigned char *m = &s->far[(size_t)visited * (size_t)s->k + (size_t)cell];
    if (*m != 0)
        return *m - 1;
    int fastest_win = -1, slowest = -1;
    for (int j = 0; j < s->k; j++) {
        uint32_t bit = (uint32_t)1 << j;
        if (!(s->adj[cell] & bit) || (visited & bit))
            continue;
        int r = remoteness(s, j, visited | bit);
        if (!mover_wins(s, j, visited | bit) && (fastest_win < 0 || r < fastest_win))
            fastest_win = r;
        if (r > slowest)
            slowest = r;
    }
    int r = 1 + (fastest_win >= 0 ? fastest_win : slowest);
    *m = (unsigned char)(r + 1);
    return r;
}

/* Number the free cells; -1 when there are too many. */
static int number_cells(int rows, int cols, const char *cells, int *index, int *row, int *col)
{
    int k = 0;
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++) {
            index[r * cols + c] = -1;
            if (cells[r * cols + c] != '.')
                continue;
            if (k == GW_ORACLE_MAX_FREE)
                return -1;
            row[k] = r;
            col[k] = c;
            index[r * cols + c] = k++;
        }
    return k;
}

static void link_neighbours(search *s, int rows, int cols, const int *index, const int *row,
                            const int *col)
{
    static const int dr[4] = {-1, 1, 0, 0}, dc[4] = {0, 0, -1, 1};
    for (int i = 0; i < s->k; i++) {
        s->adj[i] = 0;
        for (int d = 0; d < 4; d++) {
            int r = row[i] + dr[d], c = col[i] + dc[d];
            if (r >= 0 && r < rows && c >= 0 && c < cols && index[r * cols + c] >= 0)
                s->adj[i] |= (uint32_t)1 << index[r * cols + c];
        }
    }
}

static char *write_answer(const search *s, const int *row, const int *col)
{
    size_t cap = 8 + (size_t)s->k * 24, len = 0;
    char *out = malloc(cap);
    if (out == NULL)
        return NULL;
    int any = 0;
    for (int i = 0; i < s->k; i++)
        if (s->memo[((size_t)1 << i) * (size_t)s->k + (size_t)i] == MOVER_LOSES)
            any = 1;
    len += (size_t)snprintf(out, cap, "%s\n", any ? "WIN" : "LOSE");
    for (int i = 0; i < s->k; i++)
        if (s->memo[((size_t)1 << i) * (size_t)s->k + (size_t)i] == MOVER_LOSES)
            len += (size_t)snprintf(out + len, cap - len, "%d %d\n", row[i] + 1, col[i] + 1);
    return out;
}

char *grid_walk_oracle(int rows, int cols, const char *cells)
{
    int row[GW_ORACLE_MAX_FREE], col[GW_ORACLE_MAX_FREE];
    int *index = malloc((size_t)rows * (size_t)cols * sizeof *index);
    if (index == NULL)
        return NULL;
    search s = {0};
    s.k = number_cells(rows, cols, cells, index, row, col);
    if (s.k < 0) {
        free(index);
        return NULL;
    }
    link_neighbours(&s, rows, cols, index, row, col);
    free(index);
    s.memo = calloc(((size_t)1 << s.k) * (size_t)(s.k > 0 ? s.k : 1), 1);
    if (s.memo == NULL)
        return NULL;
    for (int i = 0; i < s.k; i++)
        mover_wins(&s, i, (uint32_t)1 << i);
    char *out = write_answer(&s, row, col);
    free(s.memo);
    return out;
}

struct gw_tree {
    search s;
    int rows, cols;
    int index[]; /* rows * cols: the free cell's number, or -1 */
};

gw_tree *gw_tree_new(int rows, int cols, const char *cells)
{
    int row[GW_ORACLE_MAX_FREE], col[GW_ORACLE_MAX_FREE];
    gw_tree *t = malloc(sizeof *t + (size_t)rows * (size_t)cols * sizeof t->index[0]);
    if (t == NULL)
        return NULL;
    t->rows = rows;
    t->cols = cols;
    t->s.k = number_cells(rows, cols, cells, t->index, row, col);
    t->s.memo = NULL;
    t->s.far = NULL;
    if (t->s.k < 0) {
        free(t);
        return NULL;
    }
    link_neighbours(&t->s, rows, cols, t->index, row, col);
    t->s.memo = calloc(((size_t)1 << t->s.k) * (size_t)(t->s.k > 0 ? t->s.k : 1), 1);
    if (t->s.memo == NULL) {
        free(t);
        return NULL;
    }
    return t;
}

void gw_tree_free(gw_tree *t)
{
    if (t == NULL)
        return;
    free(t->s.memo);
    free(t->s.far);
    free(t);
}

int gw_tree_mover_wins(gw_tree *t, int r, int c, const unsigned char *visited)
{
    uint32_t set = 0;
    for (int i = 0; i < t->rows * t->cols; i++)
        if (visited[i] && t->index[i] >= 0)
            set |= (uint32_t)1 << t->index[i];
    int cell = t->index[r * t->cols + c];
    return mover_wins(&t->s, cell, set | (uint32_t)1 << cell);
}

int gw_tree_remoteness(gw_tree *t, int r, int c, const unsigned char *visited)
{
    if (t->s.far == NULL) {
        t->s.far = calloc(((size_t)1 << t->s.k) * (size_t)(t->s.k > 0 ? t->s.k : 1), 1);
        if (t->s.far == NULL)
            return -1;
    }
    uint32_t set = 0;
    for (int i = 0; i < t->rows * t->cols; i++)
        if (visited[i] && t->index[i] >= 0)
            set |= (uint32_t)1 << t->index[i];
    int cell = t->index[r * t->cols + c];
    return remoteness(&t->s, cell, set | (uint32_t)1 << cell);
}

/* ---- the puzzle's parts, by the rules ---- */

/* A position for the puzzle's oracle: the grid and the cells visited. */
typedef struct board {
    int rows, cols;
    const char *cells;
    unsigned char *visited; /* rows * cols */
} board;

/* Whether (r, c) is on the grid, free and not visited. */
static int enterable(const board *b, int r, int c)
{
    return r >= 0 && r < b->rows && c >= 0 && c < b->cols && b->cells[r * b->cols + c] == '.' &&
           !b->visited[r * b->cols + c];
}

/* The legal moves of the player to move with the token on cell x. */
static int legal_moves(const board *b, int x)
{
    int r = x / b->cols, c = x % b->cols;
    return enterable(b, r - 1, c) + enterable(b, r + 1, c) + enterable(b, r, c - 1) +
           enterable(b, r, c + 1);
}

/* The free unvisited cells a walk from x can reach: the cells joined to x
 * by a chain of such cells, found by sweeping the grid until nothing new
 * joins (no queue, unlike the game's search). */
static int reachable(const board *b, int x)
{
    int k = b->rows * b->cols, count = 0;
    unsigned char *in = calloc((size_t)k, 1);
    if (in == NULL)
        abort();
    in[x] = 1;
    for (int grown = 1; grown;) {
        grown = 0;
        for (int y = 0; y < k; y++) {
            int r = y / b->cols, c = y % b->cols;
            if (in[y] || !enterable(b, r, c))
                continue;
            if ((r > 0 && in[y - b->cols]) || (r + 1 < b->rows && in[y + b->cols]) ||
                (c > 0 && in[y - 1]) || (c + 1 < b->cols && in[y + 1])) {
                in[y] = 1;
                grown = 1;
                count++;
            }
        }
    }
    free(in);
    return count;
}

/* The worth of the position to the player to move on x (x visited). */
static double oracle_worth(const board *b, int x)
{
    long n = 0;
    for (int y = 0; y < b->rows * b->cols; y++)
        n += b->cells[y] == '.';
    long m = legal_moves(b, x);
    if (m == 0)
        return -1;
    return (double)(m * (n + 1) + reachable(b, x)) / (double)(5 * (n + 1));
}

/* The board of a grid and a path. */
static board oracle_board(int rows, int cols, const char *cells, const int *path, int npath)
{
    board b = {rows, cols, cells, calloc((size_t)rows * (size_t)cols, 1)};
    if (b.visited == NULL)
        abort();
    for (int i = 0; i < npath; i++)
        b.visited[path[i]] = 1;
    return b;
}

void gw_oracle_look(int rows, int cols, const char *cells, const int *path, int npath,
                    const int *moves, int nmoves, int plies, double *value)
{
    board b = oracle_board(rows, cols, cells, path, npath);
    static const int dr[4] = {-1, 1, 0, 0}, dc[4] = {0, 0, -1, 1};
    for (int i = 0; i < nmoves; i++) {
        int w = moves[i];
        b.visited[w] = 1;
        if (plies == 1) {
            value[i] = -oracle_worth(&b, w);
        } else {
            double least = 1;
            for (int d = 0; d < 4; d++) {
                int r = w / cols + dr[d], c = w % cols + dc[d];
                if (!enterable(&b, r, c))
                    continue;
                b.visited[r * cols + c] = 1;
                double x = oracle_worth(&b, r * cols + c);
                b.visited[r * cols + c] = 0;
                least = x < least ? x : least;
            }
            value[i] = least;
        }
        b.visited[w] = 0;
    }
    free(b.visited);
}

unsigned gw_oracle_motifs(int rows, int cols, const char *cells, const int *path, int npath,
                          const int *moves, int nmoves)
{
    board b = oracle_board(rows, cols, cells, path, npath);
    unsigned bits = 0;
    int first = 0;
    for (int i = 0; i < nmoves; i++) {
        b.visited[moves[i]] = 1;
        int left = legal_moves(&b, moves[i]);
        b.visited[moves[i]] = 0;
        if (i == 0)
            first = left;
        if (i == 0 && left == 1)
            bits |= 1;
        if (i > 0 && left < first)
            bits |= 4;
    }
    if (nmoves > 0 && npath > 0) {
        int before = reachable(&b, path[npath - 1]);
        b.visited[moves[0]] = 1;
        if (reachable(&b, moves[0]) < before - 1)
            bits |= 2;
    }
    free(b.visited);
    return bits;
}
