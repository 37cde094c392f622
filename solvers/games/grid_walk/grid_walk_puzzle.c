/* grid_walk_puzzle.c - the puzzle's parts of a grid-walk position in play:
 * the bounded finder's view (game.h's gj_play.look) and the game's motifs
 * (gj_play.motifs, gj_game.motifs).
 *
 * The greedy measure is mobility: a position is worth to the player to
 * move, and minus that to the other, their onward moves and then the free
 * cells their walk can still reach, (moves * (n + 1) + reach) / (5 (n + 1))
 * over the board's n free cells, and a player left without a move has lost
 * (-1 to them, +1 to the other).
 *
 * With a move there it lies in [1/5, 1): moves are 1..4 and reach is at
 * most n - 1, so the count of moves decides first and the room breaks the
 * ties, finely, as a share of the board.  A move to w reads, one ply
 * ahead, minus the opponent's worth with the token on w (+1 when they have
 * no move); two plies ahead, the least over the opponent's replies w' of
 * the mover's own worth on w' (-1 when the reply leaves them no move; +1
 * when there is no reply).  At the opening the moves are A's placements,
 * read the same way with B to move from the placed token.
 *
 * Two plies may read above one, since the side to move changes sign: a
 * move leaving the opponent one move reads below 0, and the mover's worth
 * after the one reply is above 0 unless it leaves them stuck.
 *
 * Cost: a breadth-first search of the cells still open per move and per
 * reply, so O(n) each; puzzles look at positions of a few dozen cells. */
#include <stdlib.h>
#include <string.h>

#include "grid_walk.h"
#include "grid_walk_core.h"

const gj_theme grid_walk_motifs[] = {
    {"cut-off", "the solving move leaves the opponent exactly one onward move"},
    {"wall-off",
     "the solving move walls off part of the board: cells the walk could still reach before it "
     "are out of reach after it"},
    {"generous", "the solving move leaves the opponent more onward moves than another move would"},
    {NULL, NULL},
};

/* The bits of grid_walk_motifs. */
enum { MOTIF_CUT_OFF = 1u << 0, MOTIF_WALL_OFF = 1u << 1, MOTIF_GENEROUS = 1u << 2 };

/* A position read for the puzzle: the cells still open to the walk (the
 * path, the token's cell included, closed), and room for searches. */
typedef struct view {
    unsigned char *open; /* per padded cell: 1 while the walk may still enter it */
    int *queue;          /* a search's cells */
    unsigned *seen;      /* per padded cell: the search that reached it */
    unsigned search;     /* the current search's number */
    int step[4];         /* the four neighbours' offsets */
    long cells;          /* padded cells */
    long board;          /* n: the board's free cells, the path's included */
    int token;           /* the token's padded cell, or -1 at the opening */
} view;

/* Free v's buffers. */
static void view_free(view *v)
{
    free(v->open);
    free(v->queue);
    free(v->seen);
}

/* The position in play p into v: 0, or -1 with *e. */
static int view_init(view *v, void *p, gj_error *e)
{
    long visited;
    const gw_position *pos = gw_play_view(p, &v->token, &visited);
    v->cells = (pos->rows + 2) * (long)pos->width;
    v->open = malloc((size_t)v->cells);
    v->queue = malloc((size_t)v->cells * sizeof *v->queue);
    v->seen = calloc((size_t)v->cells, sizeof *v->seen);
    if (v->open == NULL || v->queue == NULL || v->seen == NULL) {
        view_free(v);
        return gj_fail_nomem(e);
    }
    memcpy(v->open, pos->open, (size_t)v->cells);
    v->search = 0;
    v->step[0] = -pos->width;
    v->step[1] = -1;
    v->step[2] = 1;
    v->step[3] = pos->width;
    v->board = visited > 0 ? visited - 1 : 0; /* the path's cells before the token's */
    for (long c = 0; c < v->cells; c++)
        v->board += v->open[c];
    if (v->token >= 0)
        v->open[v->token] = 0;
    return 0;
}

/* The open neighbours of cell c: the moves of a player to move on c. */
static int onward(const view *v, int c)
{
    int k = 0;
    for (int d = 0; d < 4; d++)
        k += v->open[c + v->step[d]];
    return k;
}

/* The open cells a walk from c can still reach (c not counted). */
static long reach(view *v, int c)
{
    unsigned s = ++v->search;
    long head = 0, tail = 0;
    v->seen[c] = s;
    v->queue[tail++] = c;
    while (head < tail) {
        int x = v->queue[head++];
        for (int d = 0; d < 4; d++) {
            int y = x + v->step[d];
            if (v->open[y] && v->seen[y] != s) {
                v->seen[y] = s;
                v->queue[tail++] = y;
            }
        }
    }
    return tail - 1;
}

/* The measure for the player to move on c (its cell already closed). */
static double worth(view *v, int c)
{
    long moves = onward(v, c);
    if (moves == 0)
        return -1;
    long n = v->board;
    return (double)(moves * (n + 1) + reach(v, c)) / (double)(5 * (n + 1));
}

/* Whether move m is one the view allows: an open cell, next to the token
 * unless the token is still to be placed. */
static int allowed(const view *v, const gj_move *m)
{
    if (m->id >= (uint64_t)v->cells || !v->open[m->id])
        return 0;
    if (v->token < 0)
        return 1;
    for (int d = 0; d < 4; d++)
        if ((uint64_t)(v->token + v->step[d]) == m->id)
            return 1;
    return 0;
}

/* How move w looks to its mover `plies` plies ahead, w's cell closed. */
static double look_at(view *v, int w, int plies)
{
    if (plies == 1)
        return -worth(v, w); /* the opponent is to move: +1 when they cannot */
    double least = 1;        /* no reply: the game is over, won */
    for (int d = 0; d < 4; d++) {
        int r = w + v->step[d];
        if (!v->open[r])
            continue;
        v->open[r] = 0;
        double x = worth(v, r);
        v->open[r] = 1;
        if (x < least)
            least = x;
    }
    return least;
}

int grid_walk_look(void *pos, const gj_move *moves, long n, int plies, double *value, gj_error *e)
{
    if (plies != 1 && plies != 2)
        return gj_fail(e, GJ_INTERNAL, "grid-walk: a look %d plies ahead", plies);
    view v;
    if (view_init(&v, pos, e) != 0)
        return -1;
    for (long i = 0; i < n; i++) {
        if (!allowed(&v, &moves[i])) {
            view_free(&v);
            return gj_fail(e, GJ_INTERNAL,
                           "grid-walk: a move looked at that is not the position's");
        }
        int w = (int)moves[i].id;
        v.open[w] = 0;
        value[i] = look_at(&v, w, plies);
        v.open[w] = 1;
    }
    view_free(&v);
    return 0;
}

int grid_walk_motif_bits(void *pos, const gj_move *moves, long n, unsigned *bits, gj_error *e)
{
    *bits = 0;
    if (n < 1)
        return 0;
    view v;
    if (view_init(&v, pos, e) != 0)
        return -1;
    for (long i = 0; i < n; i++)
        if (!allowed(&v, &moves[i])) {
            view_free(&v);
            return gj_fail(e, GJ_INTERNAL,
                           "grid-walk: a move looked at that is not the position's");
        }
    int w = (int)moves[0].id, left = onward(&v, w);
    if (left == 1)
        *bits |= MOTIF_CUT_OFF;
    for (long i = 1; i < n; i++)
        if (onward(&v, (int)moves[i].id) < left)
            *bits |= MOTIF_GENEROUS;
    if (v.token >= 0) {
        long before = reach(&v, v.token);
        v.open[w] = 0;
        if (reach(&v, w) < before - 1)
            *bits |= MOTIF_WALL_OFF;
    }
    view_free(&v);
    return 0;
}
