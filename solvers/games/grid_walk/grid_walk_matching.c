/* grid_walk_matching.c - the maximum matching of a grid's free cells behind
 * grid-walk's solve and analysis (contract in grid_walk_matching.h).
 *
 * Two ways to get there from the same Karp-Sipser greedy start:
 *   - push-relabel (the default), after Goldberg and Kennedy's bipartite
 *     "double push" and the global relabelling Duff, Kaya and Ucar (ACM TOMS
 *     2011) found to matter most: every cell of one side carries a lower
 *     bound on its alternating distance to an unmatched cell of the other
 *     side, and an unmatched cell walks down those labels, so one augmenting
 *     path costs about its length, not a scan of the grid;
 *   - Kuhn rounds, then Hopcroft-Karp phases, each a pass over the whole grid:
 *     kept as the baseline the bench and the tests compare against.
 * Everything is iterative, and the graph is never stored: neighbours are
 * read off the grid, padded with a blocked border.  Memory: about 12 bytes
 * per cell of the padded grid and 16 per free cell. */
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cancel.h"
#include "grid_walk_core.h"
#include "grid_walk_matching.h"

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
static int build_graph(graph *g, const gw_position *pos)
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
 * every alternating path: return 1) or `rounds` have run (return 0); -1
 * with *e filled when cancelled.  On a grid with a few percent blocked the
 * greedy start leaves a few hundred cells whose augmenting paths run for
 * hundreds of steps in every direction; a layered phase finds the few that
 * climb its layers, after a full BFS, while a free pass takes paths of any
 * shape and needs no BFS. */
static int match_by_rounds(graph *g, int unmatched[2], int rounds, gj_error *e)
{
    for (int round = 0; round < rounds; round++) {
        if (gj_cancel_check(e) != 0)
            return -1;
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

/* Count the unmatched cells of each side into unmatched[2]. */
static void count_unmatched(const graph *g, int unmatched[2])
{
    for (int s = 0; s < 2; s++) {
        unmatched[s] = 0;
        for (int i = 0; i < g->nside[s]; i++)
            unmatched[s] += g->at[g->side[s][i]].mate == UNMATCHED;
    }
}

/* From the greedy start, first at most sqrt(V) Kuhn rounds (above).  If
 * they have not finished, Hopcroft-Karp phases, each searching from the
 * side with fewer unmatched cells (augmenting paths read the same both
 * ways); started from any matching they take O(E sqrt V), so that bound
 * holds overall.  Grids with a few blocked cells leave long augmenting
 * paths, one length per phase, so the first sqrt(V) phases follow their
 * strict pass with a relaxed one, which finds paths of many lengths at
 * once.  The phases after them are plain Hopcroft-Karp, which keeps the
 * O(E sqrt V) bound.  0, or -1 with *e filled. */
static int match_hopcroft_karp(graph *g, gj_error *e)
{
    int relaxed_phases = 1;
    while ((long)relaxed_phases * relaxed_phases < g->nfree)
        relaxed_phases++;
    int unmatched[2];
    count_unmatched(g, unmatched);
    int done = match_by_rounds(g, unmatched, relaxed_phases, e);
    if (done != 0)
        return done < 0 ? -1 : 0;
    for (int phase = 0;; phase++) {
        if (gj_cancel_check(e) != 0)
            return -1;
        int s = unmatched[1] < unmatched[0];
        int limit = build_layers(g, s);
        if (limit == FAR)
            return 0;
        int found = augment_all(g, s, limit, STRICT);
        if (found == 0) /* a shortest path exists, so the strict pass must find one */
            return gj_fail(e, GJ_INTERNAL, "grid-walk: a matching phase made no progress");
        if (phase < relaxed_phases) {
            /* Flipped cells stay out (layer FAR); the rest may be visited again. */
            forget_visits(g, s);
            found += augment_all(g, s, limit, RELAXED);
        }
        unmatched[0] -= found;
        unmatched[1] -= found;
    }
}

/* ---- push-relabel ----
 *
 * The unmatched cells of side a (the "active" side, the one with fewer) look
 * for the unmatched cells of side b.  Every cell r of side b has a label
 * psi(r), kept in its `layer`: 0 while r is unmatched, and for a matched r at
 * most 2 plus the smallest label among the other neighbours of r's mate.
 * Following an alternating path down from r, each step (an edge to a
 * neighbour of the mate, then that neighbour's matching edge) lowers the
 * label by at most 2, so psi(r) never exceeds the length of the shortest
 * alternating path from r's mate to an unmatched cell of side b, minus one:
 * the label is a lower bound on a distance.  An unmatched cell u of side a
 * takes the neighbour r of smallest label ("double push"): u and r match, r's
 * old mate is left unmatched and carries on, and psi(r) rises to 2 plus the
 * second smallest label round u, which keeps the bound.  Labels of side b
 * only rise and never pass `dead` (more than any path is long), so this
 * ends; an unmatched cell whose neighbours all carry `dead` has no
 * augmenting path, and never will have (augmenting elsewhere creates none),
 * so it is dropped and the matching is maximum once none is left.
 *
 * Global relabelling: a BFS back from the unmatched cells of side b sets
 * every label to its exact distance, and `dead` where no path leads.  It
 * starts every round of match_push_relabel. */
#define PR_CANCEL_STRIDE 4096 /* pushes between cancellation checks */

/* Labels for side b by a BFS over alternating paths from its unmatched
 * cells (cell r at distance d makes every neighbour u not matched to r
 * reachable at d + 1, and u's mate at d + 2), the queue g->queue.  The BFS
 * stops after the level at which the last of the `nactive` cells
 * active[] is reached (their paths need nothing further out), and every
 * cell not reached by then gets the level after the last one complete: a
 * lower bound, which is all a label must be.  Only when some active cell
 * has no path at all does it run to the end, and then what it leaves at
 * `dead` has none either.  Active cells carry layer 1 until reached.  0,
 * or -1 with *e filled when cancelled (checked every PR_CANCEL_STRIDE x 16
 * cells: one BFS of a 2000 x 2000 grid takes tens of milliseconds). */
static int pr_global_relabel(graph *g, int b, int dead, const int *active, int nactive, gj_error *e)
{
    int head = 0, tail = 0, reached = 0;
    for (int i = 0; i < nactive; i++)
        g->at[active[i]].layer = 1;
    for (int i = 0; i < g->nside[b]; i++) {
        int r = g->side[b][i];
        if (g->at[r].mate == UNMATCHED) {
            g->at[r].layer = 0;
            g->queue[tail++] = r;
        } else {
            g->at[r].layer = dead;
        }
    }
    while (head < tail) {
        if (head % (PR_CANCEL_STRIDE * 16) == 0 && gj_cancel_check(e) != 0)
            return -1;
        int r = g->queue[head++], d = g->at[r].layer + 2;
        for (int k = 0; k < 4; k++) {
            int u = r + g->step[k], m = g->at[u].mate;
            if (m >= 0 && m != r && g->at[m].layer == dead) {
                g->at[m].layer = d;
                g->queue[tail++] = m;
            } else if (m == UNMATCHED && g->at[u].layer == 1) {
                g->at[u].layer = 0;
                reached++;
            }
        }
        if (reached == nactive && (head == tail || g->at[g->queue[head]].layer != d - 2)) {
            for (int i = 0; i < g->nside[b]; i++)
                if (g->at[g->side[b][i]].layer == dead)
                    g->at[g->side[b][i]].layer = d + 2;
            return 0;
        }
    }
    return 0;
}

enum { PR_AUGMENTED = -1, PR_DEAD = -2 };

/* One double push from the unmatched cell u of side a: u takes its
 * neighbour of smallest label.  Returns that neighbour's old mate, now
 * unmatched (the search goes on from it), PR_AUGMENTED when the neighbour
 * was unmatched (a path is flipped), or PR_DEAD when no neighbour has a
 * label below `dead`: no augmenting path starts at u.  *label is the
 * smallest label seen. */
static int pr_push(graph *g, int u, int dead, int *label)
{
    int best = -1, first = dead, second = dead;
    for (int k = 0; k < 4; k++) {
        int r = u + g->step[k];
        if (g->at[r].mate == BLOCKED)
            continue;
        int l = g->at[r].layer;
        if (l < first) {
            second = first;
            first = l;
            best = r;
        } else if (l < second) {
            second = l;
        }
    }
    *label = first;
    if (first >= dead)
        return PR_DEAD;
    int old = g->at[best].mate;
    match(g, u, best);
    g->at[best].layer = second >= dead - 2 ? dead : second + 2;
    if (old < 0)
        return PR_AUGMENTED;
    g->at[old].mate = UNMATCHED;
    return old;
}

/* Push-relabel from the greedy start: 0, or -1 with *e filled (cancelled).
 * It runs in rounds, each a global relabelling and then one search per
 * active cell: pushes from the root, then from the cell each push leaves
 * unmatched, until a path is flipped (so one path is followed to its end,
 * on the freshest labels).  A search may cost a few times the root's
 * label, which is about what its path costs on exact labels, or its equal
 * share of V pushes a round if that is more (so a round's pushes cost about
 * what its relabelling does); past that it
 * is climbing labels that earlier paths made stale, which only a
 * relabelling repairs cheaply, so the cell it stands on waits for the next
 * round.  The first search of a round runs on exact labels and nothing has
 * touched them, so it flips a path: every round but the last makes
 * progress.  (Cells with no path at all cost one look each, once the
 * relabelling has marked their neighbours.) */
static int match_push_relabel(graph *g, gj_error *e)
{
    int unmatched[2];
    count_unmatched(g, unmatched);
    int a = unmatched[1] < unmatched[0], b = 1 - a;
    if (unmatched[a] == 0 || unmatched[b] == 0)
        return 0;
    /* Labels are even; an alternating path visits each cell once. */
    int dead = (g->nfree + 4) & ~1;
    int *active = g->stack, nactive = 0;
    for (int i = 0; i < g->nside[a]; i++)
        if (g->at[g->side[a][i]].mate == UNMATCHED)
            active[nactive++] = g->side[a][i];
    long slack = 1, steps = 0;
    while (nactive > 0) {
        if (pr_global_relabel(g, b, dead, active, nactive, e) != 0)
            return -1;
        int waiting = 0, flipped = 0;
        for (int i = 0; i < nactive; i++) {
            int u = active[i], label;
            int next = pr_push(g, u, dead, &label);
            long share = g->nfree / nactive, own = slack * (2L * label + 64);
            long budget = own > share ? own : share;
            for (long pushes = 1; next >= 0; pushes++) {
                if (++steps % PR_CANCEL_STRIDE == 0 && gj_cancel_check(e) != 0)
                    return -1;
                if (pushes >= budget) {
                    active[waiting++] = next; /* i >= waiting: no live entry is lost */
                    break;
                }
                next = pr_push(g, next, dead, &label);
            }
            flipped += next == PR_AUGMENTED;
        }
        /* Never expected (see above); a wider budget keeps it ending anyway. */
        if (flipped == 0)
            slack *= 2;
        nactive = waiting;
    }
    return 0;
}

struct gw_matching {
    graph g;
    int cells; /* padded cells */
};

size_t gw_matching_bytes(const gw_position *pos)
{
    /* build_graph's arrays: per padded cell a node, next and degree; per
     * free cell (at most rows x cols, one spare) a side entry, a queue slot
     * and a stack slot. */
    size_t cells = (size_t)(pos->rows + 2) * (size_t)pos->width;
    size_t n = (size_t)pos->rows * (size_t)pos->cols + 1;
    return sizeof(gw_matching) + cells * (sizeof(node) + 2) + n * 3 * sizeof(int);
}

void gw_free_matching(gw_matching *m)
{
    if (m == NULL)
        return;
    free_graph(&m->g);
    free(m);
}

gw_matching *gw_match_with(const gw_position *pos, gw_algorithm how, gj_error *e)
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
    match_greedily(&m->g, m->cells);
    int rc = how == GW_HOPCROFT_KARP ? match_hopcroft_karp(&m->g, e) : match_push_relabel(&m->g, e);
    if (rc != 0) {
        gw_free_matching(m);
        return NULL;
    }
    return m;
}

gw_matching *gw_match(const gw_position *pos, gj_error *e)
{
    return gw_match_with(pos, GW_PUSH_RELABEL, e);
}

long gw_matching_size(const gw_matching *m)
{
    long matched = 0;
    for (int i = 0; i < m->g.nside[0]; i++)
        matched += m->g.at[m->g.side[0][i]].mate >= 0;
    return matched;
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
