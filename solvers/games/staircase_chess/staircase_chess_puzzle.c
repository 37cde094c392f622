/* staircase_chess_puzzle.c - what puzzles (play/puzzle.h) read of a
 * staircase in play: the bounded finder's view of its moves and the game's
 * own themes.
 *
 * The greedy measure: the points the mover has taken minus the points the
 * opponent has taken since the position looked from, over one more than the
 * largest value (of A or B) on a cell still empty there.
 *
 * A stone gains at most that largest value, so over the one or two plies
 * looked at the measure stays inside (-1, 1).  The game has no win or loss,
 * only a margin: a move that fills the board reads its final margin (the
 * points from the position looked from to the end) scaled the same way,
 * never a bare +1 or -1, so every look stays one scale.  No value is
 * negative, so a reply only adds to the opponent's points: a move read two
 * plies ahead never looks better than read one ply ahead. */
#include <stdint.h>

#include "staircase_chess.h"
#include "staircase_chess_core.h"

const gj_theme staircase_chess_motifs[] = {
    {"sacrifice", "the solving move is behind another move both in the points it scores now and "
                  "in its margin after the opponent's greediest reply"},
    {"denial", "the solving move takes the open cell worth the most to the opponent, more than "
               "any other cell open now"},
    {"quiet", "no legal move scores fewer points now than the solving move, and another scores "
              "more"},
    {NULL, NULL}};

/* The motifs' bits, in the order of staircase_chess_motifs. */
enum { MOTIF_SACRIFICE = 1u << 0, MOTIF_DENIAL = 1u << 1, MOTIF_QUIET = 1u << 2 };

/* What look and motifs read of a position: the board, its row lengths
 * (top row first) and the stones down, whose parity says who moves. */
typedef struct view {
    const sc_board *g;
    const long *len;
    long stones;
} view;

/* Whether the stone at the end of row i may go down now. */
static int open_row(const sc_board *g, const long *len, long i)
{
    return i >= 0 && i < g->n && len[i] < g->m && (i == 0 || len[i - 1] > len[i]);
}

/* The points the player to move after `stones` stones scores on the cell at
 * the end of row i (open). */
static long row_gain(const sc_board *g, const long *len, long stones, long i)
{
    long cell = i * g->m + len[i];
    return stones % 2 == 0 ? g->a[cell] : g->b[cell];
}

/* One more than the largest value of A or B on a cell without a stone: the
 * measure's denominator, at least 1. */
static long scale_of(const view *v)
{
    long most = 0;
    for (long i = 0; i < v->g->n; i++)
        for (long j = v->len[i]; j < v->g->m; j++) {
            long cell = i * v->g->m + j;
            if (v->g->a[cell] > most)
                most = v->g->a[cell];
            if (v->g->b[cell] > most)
                most = v->g->b[cell];
        }
    return most + 1;
}

/* The least of the mover's margin over the opponent's replies once the
 * stone at the end of row i is down (i open): gain minus the most any reply
 * takes, or gain alone when the board is then full.  len is lent and given
 * back as it was. */
static long margin_two(const view *v, long *len, long i)
{
    long gain = row_gain(v->g, len, v->stones, i), most = -1;
    len[i]++;
    for (long r = 0; r < v->g->n; r++)
        if (open_row(v->g, len, r)) {
            long take = row_gain(v->g, len, v->stones + 1, r);
            if (take > most)
                most = take;
        }
    len[i]--;
    return most < 0 ? gain : gain - most;
}

/* v's position from a parsed one in play, its row lengths copied into len
 * (SC_MAX_SIZE entries). */
static void view_of(void *pos, view *v, long *len)
{
    const long *profile;
    sc_play_view(pos, &v->g, &profile, &v->stones);
    for (long i = 0; i < v->g->n; i++)
        len[i] = profile[i];
    v->len = len;
}

/* A move that names no open row: the caller's bug. */
static int not_open(const gj_move *m, gj_error *e)
{
    return gj_fail(e, GJ_INTERNAL, "staircase-chess: row %llu takes no stone here",
                   (unsigned long long)m->id + 1);
}

int staircase_chess_look(void *pos, const gj_move *moves, long n, int plies, double *value,
                         gj_error *e)
{
    view v;
    long len[SC_MAX_SIZE];
    view_of(pos, &v, len);
    if (plies != 1 && plies != 2)
        return gj_fail(e, GJ_INTERNAL, "staircase-chess: a look %d plies ahead", plies);
    long scale = scale_of(&v);
    for (long k = 0; k < n; k++) {
        if (moves[k].id >= (uint64_t)v.g->n || !open_row(v.g, len, (long)moves[k].id))
            return not_open(&moves[k], e);
        long i = (long)moves[k].id;
        long margin = plies == 1 ? row_gain(v.g, len, v.stones, i) : margin_two(&v, len, i);
        value[k] = (double)margin / (double)scale;
    }
    return 0;
}

int staircase_chess_motifs_of(void *pos, const gj_move *moves, long n, unsigned *bits, gj_error *e)
{
    view v;
    long len[SC_MAX_SIZE];
    view_of(pos, &v, len);
    *bits = 0;
    for (long k = 0; k < n; k++)
        if (moves[k].id >= (uint64_t)v.g->n || !open_row(v.g, len, (long)moves[k].id))
            return not_open(&moves[k], e);
    long best = (long)moves[0].id;
    long now = row_gain(v.g, len, v.stones, best), later = margin_two(&v, len, best);
    /* The opponent's value of a cell is the one they would score on it. */
    long theirs = row_gain(v.g, len, v.stones + 1, best);
    int behind = 0, denial = 1, least = 1, more = 0;
    for (long k = 1; k < n; k++) {
        long i = (long)moves[k].id, gain = row_gain(v.g, len, v.stones, i);
        behind |= gain > now && margin_two(&v, len, i) > later;
        denial &= row_gain(v.g, len, v.stones + 1, i) < theirs;
        least &= gain >= now;
        more |= gain > now;
    }
    *bits = (behind ? MOTIF_SACRIFICE : 0) | (denial && n > 1 ? MOTIF_DENIAL : 0) |
            (least && more ? MOTIF_QUIET : 0);
    return 0;
}
