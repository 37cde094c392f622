/* play_grid_walk.c - grid-walk's side of the scripted games (play.h).
 *
 * A state is a small random grid (at most 16 free cells, so the oracle's
 * game tree fits) and the token's path, empty at the start: the first move
 * is A placing the token, so the engine may be the player who places it.
 * The oracle's tree for the grid is built once per game and its memo
 * shared by every question. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grid_walk_oracle.h"
#include "play.h"

#define MAX_SIDE  6
#define MAX_CELLS (MAX_SIDE * MAX_SIDE)
#define MAX_FREE  16

typedef struct state {
    int rows, cols;
    char cells[MAX_CELLS]; /* row-major, '.' free, '#' blocked */
    unsigned char visited[MAX_CELLS];
    int path[MAX_CELLS]; /* cells r * cols + c, 0-based, in order */
    int n;
    gw_tree *tree;
} state;

static unsigned below(unsigned *rng, unsigned n)
{
    return play_random(rng) % n;
}

static void *start(unsigned seed)
{
    unsigned rng = seed * 2654435761u + 1u;
    state *s = calloc(1, sizeof *s);
    if (s == NULL)
        return NULL;
    s->rows = 1 + (int)below(&rng, MAX_SIDE);
    s->cols = 1 + (int)below(&rng, MAX_SIDE);
    int k = s->rows * s->cols, blocked_tenths = (int)below(&rng, 4), nfree = 0;
    for (int i = 0; i < k; i++) {
        s->cells[i] = (int)below(&rng, 10) < blocked_tenths ? '#' : '.';
        nfree += s->cells[i] == '.';
    }
    while (nfree > MAX_FREE) {
        int i = (int)below(&rng, (unsigned)k);
        if (s->cells[i] == '.') {
            s->cells[i] = '#';
            nfree--;
        }
    }
    if (nfree == 0)
        s->cells[below(&rng, (unsigned)k)] = '.';
    s->tree = gw_tree_new(s->rows, s->cols, s->cells);
    if (s->tree == NULL) {
        free(s);
        return NULL;
    }
    return s;
}

static void free_state(void *p)
{
    state *s = p;
    if (s == NULL)
        return;
    gw_tree_free(s->tree);
    free(s);
}

static char *request(const void *p)
{
    const state *s = p;
    size_t cap = 64 + (size_t)s->rows * ((size_t)s->cols + 4) + (size_t)s->n * 16, len = 0;
    char *out = malloc(cap);
    if (out == NULL)
        return NULL;
    len += (size_t)snprintf(out, cap, "{\"grid\": [");
    for (int r = 0; r < s->rows; r++)
        len += (size_t)snprintf(out + len, cap - len, "%s\"%.*s\"", r > 0 ? ", " : "", s->cols,
                                s->cells + r * s->cols);
    len += (size_t)snprintf(out + len, cap - len, "], \"path\": [");
    for (int i = 0; i < s->n; i++)
        len += (size_t)snprintf(out + len, cap - len, "%s[%d, %d]", i > 0 ? ", " : "",
                                s->path[i] / s->cols + 1, s->path[i] % s->cols + 1);
    snprintf(out + len, cap - len, "]}");
    return out;
}

/* The legal moves: every free cell before the token is placed, then the
 * free unvisited neighbours of the token. */
static int legal_moves(const state *s, int *moves)
{
    int n = 0;
    if (s->n == 0) {
        for (int i = 0; i < s->rows * s->cols; i++)
            if (s->cells[i] == '.')
                moves[n++] = i;
        return n;
    }
    static const int dr[4] = {-1, 0, 0, 1}, dc[4] = {0, -1, 1, 0};
    int t = s->path[s->n - 1];
    for (int d = 0; d < 4; d++) {
        int r = t / s->cols + dr[d], c = t % s->cols + dc[d];
        if (r >= 0 && r < s->rows && c >= 0 && c < s->cols && s->cells[r * s->cols + c] == '.' &&
            !s->visited[r * s->cols + c])
            moves[n++] = r * s->cols + c;
    }
    return n;
}

/* Does moving to `cell` leave the opponent lost? */
static int move_wins(const state *s, int cell)
{
    unsigned char visited[MAX_CELLS];
    memcpy(visited, s->visited, sizeof visited);
    visited[cell] = 1;
    return !gw_tree_mover_wins(s->tree, cell / s->cols, cell % s->cols, visited);
}

static long oracle_value(const void *p)
{
    const state *s = p;
    int moves[MAX_CELLS], n = legal_moves(s, moves);
    for (int i = 0; i < n; i++)
        if (move_wins(s, moves[i]))
            return 1;
    return 0;
}

static int over(const void *p)
{
    int moves[MAX_CELLS];
    return legal_moves(p, moves) == 0;
}

static void push(state *s, int cell)
{
    s->path[s->n++] = cell;
    s->visited[cell] = 1;
}

static long apply(void *p, const json_t *move)
{
    state *s = p;
    const json_t *r = json_array_get(move, 0), *c = json_array_get(move, 1);
    if (!json_is_array(move) || json_array_size(move) != 2 || !json_is_integer(r) ||
        !json_is_integer(c))
        return -1;
    json_int_t row = json_integer_value(r) - 1, col = json_integer_value(c) - 1;
    if (row < 0 || row >= s->rows || col < 0 || col >= s->cols)
        return -1;
    int cell = (int)(row * s->cols + col), moves[MAX_CELLS], n = legal_moves(s, moves);
    for (int i = 0; i < n; i++) {
        if (moves[i] == cell) {
            push(s, cell);
            return 0;
        }
    }
    return -1;
}

/* A random winning move when there is one, else any. */
static void oracle_move(void *p, unsigned *rng)
{
    state *s = p;
    int moves[MAX_CELLS], best[MAX_CELLS], n = legal_moves(s, moves), nbest = 0;
    if (n == 0)
        return;
    for (int i = 0; i < n; i++)
        if (move_wins(s, moves[i]))
            best[nbest++] = moves[i];
    if (nbest == 0) {
        memcpy(best, moves, (size_t)n * sizeof *moves);
        nbest = n;
    }
    push(s, best[below(rng, (unsigned)nbest)]);
}

const play_game play_grid_walk = {
    .name = "grid-walk",
    .scored = 0,
    .start = start,
    .request = request,
    .oracle_value = oracle_value,
    .over = over,
    .apply = apply,
    .oracle_move = oracle_move,
    .free_state = free_state,
};
