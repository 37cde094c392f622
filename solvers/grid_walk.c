/* grid_walk.c - JSOI 2009 "Game": from which cells does the no-revisit walk
 * let the player who chose the start (A) win?
 *
 * The idea: colour the free cells like a chessboard; a move always changes
 * colour, so the cells and their adjacencies form a bipartite graph G.  The
 * player to move from v (B, at the start) loses exactly when some maximum
 * matching M of G leaves v unmatched:
 *   - then every cell B steps onto is matched in M (else M plus that edge
 *     would be larger) and A answers with its mate; a fresh cell B reaches
 *     later is matched too (else the walk so far is an augmenting path), and
 *     its mate is fresh, so A always has a reply and B runs out first;
 *   - if every maximum matching covers v, B steps to v's mate u in one such
 *     M; M without that edge is a maximum matching of G - v missing u, so
 *     now A is the player to move from an unmatched cell and loses.
 * The cells missed by some maximum matching are the unmatched cells of one
 * maximum matching plus every cell reachable from them along an alternating
 * path (any edge, then a matching edge, again and again), which never
 * changes colour.  A Karp-Sipser greedy start, Kuhn rounds then
 * Hopcroft-Karp phases (O(E sqrt V), E <= 2V) and one BFS give them all.  Everything is
 * iterative, and the graph is never stored: neighbours are read off the
 * grid, padded with a blocked border.  Memory: about 12 bytes per cell of
 * the padded grid and 16 per free cell.  The matching and the JSON grid
 * reader serve POST /analyze too (grid_walk_core.h, grid_walk_analysis.c). */
#include <stdbool.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "game.h"
#include "games.h"
#include "grid_row.h"
#include "grid_walk_core.h"
#include "json_in.h"
#include "key.h"
#include "reader.h"

#define MAX_SIDE 2000

/* Vertex and cell numbers are ints. */
_Static_assert((MAX_SIDE + 2L) * (MAX_SIDE + 2L) <= INT_MAX, "padded grid must fit an int");

static const gj_limit_def limits[] = {
    {"rows", "rows of the grid (N)", 100, 1, MAX_SIDE},
    {"cols", "columns of the grid (M)", 100, 1, MAX_SIDE},
};

typedef gw_position position;

void gw_free_position(void *p)
{
    position *pos = p;
    if (pos == NULL)
        return;
    free(pos->open);
    free(pos->winners);
    free(pos);
}

/* An all-blocked grid of rows x cols inside its border, or NULL with *e. */
static position *new_position(long rows, long cols, gj_error *e)
{
    if (rows > MAX_SIDE || cols > MAX_SIDE) {
        gj_fail(e, GJ_BAD_INPUT, "a %ld x %ld grid is larger than the %d x %d this solver allows",
                rows, cols, MAX_SIDE, MAX_SIDE);
        return NULL;
    }
    position *pos = calloc(1, sizeof *pos);
    if (pos != NULL)
        pos->open = calloc((size_t)(rows + 2) * (size_t)(cols + 2), 1);
    if (pos == NULL || pos->open == NULL) {
        gw_free_position(pos);
        gj_fail_nomem(e);
        return NULL;
    }
    pos->rows = rows;
    pos->cols = cols;
    pos->width = (int)cols + 2;
    return pos;
}

/* The first cell of row i (0-based), past the border. */
static unsigned char *row_cells(position *pos, long i)
{
    return pos->open + (size_t)(i + 1) * (size_t)pos->width + 1;
}

/* A grid-walk row: '.' is a free cell (1), '#' a blocked one (0). */
static const grid_alphabet row_alphabet = {'.', '#', NULL, "'.' (free) or '#' (blocked)", 1};

/* game.h's parse_text: "N M", then N rows of M cells. */
static void *parse_text(const char *buf, size_t len, const long *lim, gj_error *e)
{
    gj_reader r;
    long rows, cols;
    reader_init(&r, buf, len);
    if (reader_long(&r, "the number of rows N", 1, lim[GW_LIMIT_ROWS], &rows, e) != 0 ||
        reader_long(&r, "the number of columns M", 1, lim[GW_LIMIT_COLS], &cols, e) != 0)
        return NULL;
    position *pos = new_position(rows, cols, e);
    if (pos == NULL)
        return NULL;
    for (long i = 0; i < rows; i++)
        if (grid_row_text(&r, &row_alphabet, i, rows, row_cells(pos, i), cols, e) != 0)
            goto fail;
    if (reader_end(&r, e) != 0)
        goto fail;
    return pos;
fail:
    gw_free_position(pos);
    return NULL;
}

/* The width comes from grid[0], so check that row before allocating. */
static int json_width(const json_t *grid, const long *lim, long *cols, gj_error *e)
{
    long len = grid_row_json(&row_alphabet, json_array_get(grid, 0), "grid", 0, NULL, 0, e);
    if (len < 0)
        return -1;
    if (len < 1 || len > lim[GW_LIMIT_COLS])
        return gj_fail_field(e, "grid[0]",
                             "the number of columns must be between 1 and %ld, found %ld",
                             lim[GW_LIMIT_COLS], len);
    *cols = len;
    return 0;
}

gw_position *gw_parse_grid(const json_t *grid, const long *lim, gj_error *e)
{
    long cols = 0;
    if (jin_array(grid, "grid", -1, 1, (size_t)lim[GW_LIMIT_ROWS], e) != 0 ||
        json_width(grid, lim, &cols, e) != 0)
        return NULL;
    long rows = (long)json_array_size(grid);
    position *pos = new_position(rows, cols, e);
    if (pos == NULL)
        return NULL;
    for (long i = 0; i < rows; i++) {
        long n = grid_row_json(&row_alphabet, json_array_get(grid, (size_t)i), "grid", i,
                               row_cells(pos, i), cols, e);
        if (n < 0)
            goto fail;
        if (n != cols) {
            char field[32];
            jin_field_name(field, sizeof field, "grid", i, -1);
            gj_fail_field(e, field, "row %ld has %ld cells, expected %ld (the width of grid[0])",
                          i + 1, n, cols);
            goto fail;
        }
    }
    return pos;
fail:
    gw_free_position(pos);
    return NULL;
}

/* game.h's parse_json: {"grid": [row, ...]}. */
static void *parse_json(const char *buf, size_t len, const long *lim, gj_error *e)
{
    static const char *const keys[] = {"grid", NULL};
    json_t *root = jin_load_object(buf, len, keys, e);
    if (root == NULL)
        return NULL;
    position *pos = gw_parse_grid(json_object_get(root, "grid"), lim, e);
    json_decref(root);
    return pos;
}

/* The free cells as a bipartite graph, kept in the padded grid itself: the
 * neighbours of cell c are c - width, c - 1, c + 1 and c + width, and the
 * blocked border spares every bounds check.  Indexing by cell keeps a cell,
 * its neighbours and their partners a few cache lines apart, and memory
 * latency is what the searches are bound by.  The two colours (the parity
 * of row + column) are the two sides. */
#define UNMATCHED (-1)
#define BLOCKED   (-2)
#define FAR       INT_MAX /* a layer not reached this phase, or done with */

typedef struct node {
    int mate;  /* the partner cell, UNMATCHED, or BLOCKED */
    int layer; /* cells of the searching side: the BFS layer, or FAR */
} node;

typedef struct graph {
    int step[4];           /* the offsets of the four neighbours */
    int nfree;             /* free cells */
    int nside[2];          /* free cells of each colour */
    int *side[2];          /* the free cells of each colour, row-major */
    node *at;              /* per padded cell */
    unsigned char *next;   /* per cell: the next direction the DFS tries */
    unsigned char *degree; /* per cell: unmatched neighbours, for the greedy start */
    int *queue;            /* nfree cells */
    int *stack;            /* the cells of the path being grown */
} graph;

/* Free what build_graph allocated (any of it may be NULL). */
static void free_graph(graph *g)
{
    free(g->side[0]);
    free(g->at);
    free(g->next);
    free(g->degree);
    free(g->queue);
    free(g->stack);
}

/* The cells, sides and scratch of the matching for pos: 0, or -1 when out of memory. */
static int build_graph(graph *g, const position *pos)
{
    size_t cells = (size_t)(pos->rows + 2) * (size_t)pos->width;
    memset(g, 0, sizeof *g);
    for (size_t c = 0; c < cells; c++)
        g->nfree += pos->open[c];
    for (long r = 1; r <= pos->rows; r++)
        for (long j = 2 - r % 2; j <= pos->cols; j += 2)
            g->nside[0] += pos->open[r * pos->width + j];
    g->nside[1] = g->nfree - g->nside[0];
    size_t n = (size_t)g->nfree + 1;
    g->side[0] = malloc(n * sizeof *g->side[0]);
    g->at = malloc(cells * sizeof *g->at);
    g->next = malloc(cells);
    g->degree = malloc(cells);
    g->queue = malloc(n * sizeof *g->queue);
    g->stack = malloc(n * sizeof *g->stack);
    if (g->side[0] == NULL || g->at == NULL || g->next == NULL || g->degree == NULL ||
        g->queue == NULL || g->stack == NULL)
        return -1;
    g->side[1] = g->side[0] + g->nside[0];
    g->step[0] = -pos->width;
    g->step[1] = -1;
    g->step[2] = 1;
    g->step[3] = pos->width;
    for (size_t c = 0; c < cells; c++) {
        g->at[c].mate = pos->open[c] ? UNMATCHED : BLOCKED;
        g->at[c].layer = FAR;
    }
    int count[2] = {0, 0};
    for (long r = 1; r <= pos->rows; r++) {
        for (long j = 1; j <= pos->cols; j++) {
            int c = (int)(r * pos->width + j), colour = (int)((r + j) % 2);
            if (pos->open[c])
                g->side[colour][count[colour]++] = c;
        }
    }
    return 0;
}

/* Match u and w with each other. */
static void match(graph *g, int u, int w)
{
    g->at[u].mate = w;
    g->at[w].mate = u;
}

/* Matching v takes it out of the graph the greedy start still works on. */
static void remove_cell(graph *g, int v, int *tail)
{
    for (int d = 0; d < 4; d++) {
        int x = v + g->step[d];
        if (g->at[x].mate == UNMATCHED && --g->degree[x] == 1)
            g->queue[(*tail)++] = x;
    }
}

/* The unmatched neighbour of v with the fewest unmatched neighbours, or -1. */
static int tightest_neighbour(const graph *g, int v)
{
    int best = -1;
    for (int d = 0; d < 4; d++) {
        int w = v + g->step[d];
        if (g->at[w].mate == UNMATCHED && (best < 0 || g->degree[w] < g->degree[best]))
            best = w;
    }
    return best;
}

/* Karp-Sipser: a cell with a single unmatched neighbour may take it without
 * losing a maximum matching, so those go first, and only when none is left
 * does an arbitrary cell take a neighbour.  Each cell enters the queue at
 * most once, when its degree drops to 1. */
static void match_greedily(graph *g, int cells)
{
    int head = 0, tail = 0;
    for (int c = 0; c < cells; c++) {
        g->degree[c] = 0;
        if (g->at[c].mate == BLOCKED)
            continue;
        for (int d = 0; d < 4; d++)
            g->degree[c] += g->at[c + g->step[d]].mate != BLOCKED;
        if (g->degree[c] == 1)
            g->queue[tail++] = c;
    }
    for (int scan = 0;;) {
        while (head < tail) {
            int v = g->queue[head++];
            int w = g->at[v].mate == UNMATCHED ? tightest_neighbour(g, v) : -1;
            if (w >= 0) {
                match(g, v, w);
                remove_cell(g, v, &tail);
                remove_cell(g, w, &tail);
            }
        }
        while (scan < cells && (g->at[scan].mate != UNMATCHED || g->degree[scan] == 0))
            scan++;
        if (scan == cells)
            return;
        int w = tightest_neighbour(g, scan);
        match(g, scan, w);
        remove_cell(g, scan, &tail);
        remove_cell(g, w, &tail);
    }
}

/* Layer the free cells of side s by their distance from its unmatched
 * cells along alternating paths (an edge to the other side, then that
 * cell's matching edge back), all the way, since relaxed phases use every
 * layer.  Returns the layer of the first cell seen next to an unmatched
 * cell of the other side (where the shortest augmenting paths end), or FAR
 * when there is none: the matching is maximum. */
static int build_layers(graph *g, int s)
{
    int head = 0, tail = 0, limit = FAR;
    for (int i = 0; i < g->nside[s]; i++) {
        int u = g->side[s][i];
        g->at[u].layer = FAR;
        g->next[u] = 0;
        if (g->at[u].mate == UNMATCHED) {
            g->at[u].layer = 0;
            g->queue[tail++] = u;
        }
    }
    while (head < tail) {
        int u = g->queue[head++];
        for (int d = 0; d < 4; d++) {
            int m = g->at[u + g->step[d]].mate;
            if (m == UNMATCHED) {
                if (limit == FAR)
                    limit = g->at[u].layer;
            } else if (m != BLOCKED && g->at[m].layer == FAR) {
                g->at[m].layer = g->at[u].layer + 1;
                g->queue[tail++] = m;
            }
        }
    }
    return limit;
}

/* Flip the path on the stack: each cell takes the neighbour it last tried,
 * whose old partner is the next cell up the stack.  The path's cells leave
 * the phase, so its paths stay vertex-disjoint. */
static void flip_path(graph *g, int top)
{
    for (int i = top - 1; i >= 0; i--) {
        int u = g->stack[i];
        match(g, u, u + g->step[g->next[u] - 1]);
        g->at[u].layer = FAR;
    }
}

/* How a DFS pass may move: STRICT follows the layers one at a time up to
 * `limit`, as Hopcroft-Karp does; RELAXED may skip layers, which still gives
 * simple alternating paths because layers only grow along them; FREE
 * ignores the layers (Kuhn's search): any cell not visited this pass. */
enum search { STRICT, RELAXED, FREE };

/* May the DFS go from u on to m, the partner of u's neighbour? */
static bool may_step(const graph *g, int u, int m, int limit, enum search mode)
{
    int lu = g->at[u].layer, lm = g->at[m].layer;
    if (g->next[m] != 0)
        return false; /* visited this pass */
    if (mode == FREE)
        return true;
    if (mode == RELAXED)
        return lm > lu && lm != FAR;
    return lu < limit && lm == lu + 1;
}

/* Depth-first search from the unmatched cell `root` for an augmenting path
 * (strict: one ending at layer `limit`), with an explicit stack.  A cell
 * that fails stays visited: the cells it could go on to only get fewer.
 * So a pass costs O(E). */
static int augment_from(graph *g, int root, int limit, enum search mode)
{
    int top = 0;
    g->stack[top++] = root;
    while (top > 0) {
        int u = g->stack[top - 1];
        if (g->next[u] == 4) {
            top--;
            continue;
        }
        int m = g->at[u + g->step[g->next[u]++]].mate;
        if (m == UNMATCHED) {
            if (mode != STRICT || g->at[u].layer == limit) {
                flip_path(g, top);
                return 1;
            }
        } else if (m != BLOCKED && may_step(g, u, m, limit, mode)) {
            g->stack[top++] = m;
        }
    }
    return 0;
}

/* One DFS pass from every unmatched cell of side s; returns the paths found. */
static int augment_all(graph *g, int s, int limit, enum search mode)
{
    int found = 0;
    for (int i = 0; i < g->nside[s]; i++) {
        int u = g->side[s][i];
        if (g->at[u].mate == UNMATCHED && (mode == FREE || g->at[u].layer == 0) && g->next[u] == 0)
            found += augment_from(g, u, limit, mode);
    }
    return found;
}

/* Mark every cell of side s unvisited for the next search. */
static void forget_visits(graph *g, int s)
{
    for (int i = 0; i < g->nside[s]; i++)
        g->next[g->side[s][i]] = 0;
}

/* Kuhn rounds: a FREE pass from every unmatched cell of the side with fewer,
 * the visit marks shared within a round, until a round finds nothing (then
 * no augmenting path exists, since a pass that changes nothing explores
 * every alternating path: return 1) or `rounds` have run (return 0).  On a
 * grid with a few percent blocked the greedy start leaves a few hundred
 * cells whose augmenting paths run for hundreds of steps in every
 * direction; a layered phase finds the few that climb its layers, after a
 * full BFS, while a free pass takes paths of any shape and needs no BFS. */
static int match_by_rounds(graph *g, int unmatched[2], int rounds)
{
    for (int round = 0; round < rounds; round++) {
        int s = unmatched[1] < unmatched[0];
        forget_visits(g, s);
        int found = augment_all(g, s, 0, FREE);
        if (found == 0)
            return 1;
        unmatched[0] -= found;
        unmatched[1] -= found;
    }
    return 0;
}

/* First at most sqrt(V) Kuhn rounds (above).  If they have not finished,
 * Hopcroft-Karp phases, each searching from the side with fewer unmatched
 * cells (augmenting paths read the same both ways); started from any
 * matching they take O(E sqrt V), so that bound holds overall.  Grids with a few
 * blocked cells leave long augmenting paths, one length per phase, so the
 * first sqrt(V) phases follow their strict pass with a relaxed one, which
 * finds paths of many lengths at once.  The phases after them are plain
 * Hopcroft-Karp, which keeps the O(E sqrt V) bound. */
static int match_maximum(graph *g, int cells)
{
    int relaxed_phases = 1;
    while ((long)relaxed_phases * relaxed_phases < g->nfree)
        relaxed_phases++;
    match_greedily(g, cells);
    int unmatched[2] = {0, 0};
    for (int s = 0; s < 2; s++)
        for (int i = 0; i < g->nside[s]; i++)
            unmatched[s] += g->at[g->side[s][i]].mate == UNMATCHED;
    if (match_by_rounds(g, unmatched, relaxed_phases))
        return 0;
    for (int phase = 0;; phase++) {
        int s = unmatched[1] < unmatched[0];
        int limit = build_layers(g, s);
        if (limit == FAR)
            return 0;
        int found = augment_all(g, s, limit, STRICT);
        if (found == 0)
            return -1; /* a shortest path exists, so the strict pass must find one */
        if (phase < relaxed_phases) {
            /* Flipped cells stay out (layer FAR); the rest may be visited again. */
            forget_visits(g, s);
            found += augment_all(g, s, limit, RELAXED);
        }
        unmatched[0] -= found;
        unmatched[1] -= found;
    }
}

struct gw_matching {
    graph g;
    int cells; /* padded cells */
};

void gw_free_matching(gw_matching *m)
{
    if (m == NULL)
        return;
    free_graph(&m->g);
    free(m);
}

gw_matching *gw_match(const gw_position *pos, gj_error *e)
{
    gw_matching *m = malloc(sizeof *m);
    if (m == NULL) {
        gj_fail_nomem(e);
        return NULL;
    }
    m->cells = (int)((pos->rows + 2) * pos->width);
    if (build_graph(&m->g, pos) != 0) {
        gw_free_matching(m);
        gj_fail_nomem(e);
        return NULL;
    }
    if (match_maximum(&m->g, m->cells) != 0) {
        gw_free_matching(m);
        gj_fail(e, GJ_INTERNAL, "grid-walk: a matching phase made no progress");
        return NULL;
    }
    return m;
}

/* The side (chessboard colour) of cell c: the parity of row + column. */
static int colour(const graph *g, int c)
{
    int width = g->step[3];
    return (c / width + c % width) % 2;
}

/* Every augmenting path of the smaller graph would end at v's former mate u
 * (any other would have augmented the old matching), so one free search
 * from u decides whether the maximum shrank. */
bool gw_drop_cell(gw_matching *m, int v)
{
    graph *g = &m->g;
    int u = g->at[v].mate;
    g->at[v].mate = BLOCKED;
    if (u < 0)
        return false;
    g->at[u].mate = UNMATCHED;
    forget_visits(g, colour(g, u));
    return !augment_from(g, u, 0, FREE);
}

/* Mark the unmatched cells and everything an alternating path reaches from
 * them: from v along any non-matching edge to w, then to w's partner.  w is
 * always matched, or the matching would not be maximum. */
void gw_mark_avoidable(gw_matching *m, unsigned char *mark)
{
    graph *g = &m->g;
    int head = 0, tail = 0;
    for (int c = 0; c < m->cells; c++) {
        mark[c] = g->at[c].mate == UNMATCHED;
        if (mark[c])
            g->queue[tail++] = c;
    }
    while (head < tail) {
        int v = g->queue[head++];
        for (int d = 0; d < 4; d++) {
            int w = v + g->step[d], mate = g->at[w].mate;
            if (w == g->at[v].mate || mate < 0 || mark[mate])
                continue;
            mark[mate] = 1;
            g->queue[tail++] = mate;
        }
    }
}

/* The marked cells, in order, into pos->winners: 0, or -1 when out of memory. */
static int collect_winners(position *pos, const unsigned char *mark, int cells)
{
    long count = 0;
    for (int c = 0; c < cells; c++)
        count += mark[c];
    pos->winners = malloc(((size_t)count + 1) * sizeof *pos->winners);
    if (pos->winners == NULL)
        return -1;
    pos->nwinners = 0;
    for (int c = 0; c < cells; c++)
        if (mark[c])
            pos->winners[pos->nwinners++] = c;
    return 0;
}

int gw_solve(void *p, gj_error *e)
{
    position *pos = p;
    free(pos->winners);
    pos->winners = NULL;
    pos->nwinners = 0;
    gw_matching *m = gw_match(pos, e);
    if (m == NULL)
        return -1;
    unsigned char *mark = malloc((size_t)m->cells);
    int rc = -1;
    if (mark != NULL) {
        gw_mark_avoidable(m, mark);
        rc = collect_winners(pos, mark, m->cells);
    }
    free(mark);
    gw_free_matching(m);
    return rc == 0 ? 0 : gj_fail_nomem(e);
}

/* game.h's write_text: LOSE, or WIN and a winning start cell a line. */
static void write_text(const void *p, gj_buf *out)
{
    const position *pos = p;
    if (pos->nwinners == 0) {
        buf_puts(out, "LOSE\n");
        return;
    }
    buf_puts(out, "WIN\n");
    for (long i = 0; i < pos->nwinners; i++) {
        buf_put_long(out, pos->winners[i] / pos->width);
        buf_putc(out, ' ');
        buf_put_long(out, pos->winners[i] % pos->width);
        buf_putc(out, '\n');
    }
}

/* game.h's write_json: the verdict and the winning cells. */
static void write_json(const void *p, gj_buf *out)
{
    const position *pos = p;
    games_json_open(out, &game_grid_walk, "verdict");
    buf_putc(out, '"');
    buf_puts(out, pos->nwinners > 0 ? "WIN" : "LOSE");
    buf_puts(out, "\",\"winning_cells\":[");
    for (long i = 0; i < pos->nwinners; i++) {
        buf_puts(out, i > 0 ? ",[" : "[");
        buf_put_long(out, pos->winners[i] / pos->width);
        buf_putc(out, ',');
        buf_put_long(out, pos->winners[i] % pos->width);
        buf_putc(out, ']');
    }
    buf_puts(out, "]}");
}

/* The key (key.h): "N M\n", then the cells as bits (1 = free). */
static void write_key(const void *p, gj_buf *out)
{
    const position *pos = p;
    const long head[2] = {pos->rows, pos->cols};
    key_head(out, head, 2);
    key_bits(out, pos->open + pos->width + 1, pos->rows, pos->cols, (size_t)pos->width);
}

/* game.h's cost_us.  Model: 5 us + 80 ns a cell, times sqrt(cells) / 16
 * (rounded up to a power of 2) for the matching's phases: Hopcroft-Karp's
 * O(E sqrt V) bound, E <= 2V, with the phase count measured far below
 * sqrt V.  Conservative on purpose: the time depends on the layout, not
 * only on the size.  Measured (cost_fit, bench/NOTES.md): measured /
 * estimate 0.06-0.7 on 10x10 to 2000x2000, open and 8% blocked. */
static double cost_us(const void *p)
{
    const position *pos = p;
    double cells = (double)pos->rows * (double)pos->cols;
    double phases = 1; /* sqrt(cells) / 16 rounded up to a power of 2, without libm */
    while (phases * phases * 256 < cells)
        phases *= 2;
    return 5.0 + 0.080 * cells * phases;
}

const gj_game game_grid_walk = {
    .name = "grid-walk",
    .title = "the start cells from which the player who places the token (A) wins the "
             "no-revisit walk, B moving first",
    .example_text = "2 3\n..#\n...\n",
    .example_json = "{\"grid\": [\"..#\", \"...\"]}",
    .limits = limits,
    .nlimits = GJ_NLIMITS(limits),
    .parse_text = parse_text,
    .parse_json = parse_json,
    .solve = gw_solve,
    .cost_us = cost_us,
    .write_text = write_text,
    .write_json = write_json,
    .free_position = gw_free_position,
    .write_key = write_key,
    .analyze = grid_walk_analyze,
    .example_analyze = "{\"grid\": [\"..#\", \"...\", \".#.\"], \"path\": [[2, 2], [2, 1]], "
                       "\"max_moves\": 10}",
    .version = "1",
};
