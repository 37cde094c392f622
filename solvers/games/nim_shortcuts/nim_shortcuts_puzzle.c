/* nim_shortcuts_puzzle.c - the puzzle's parts of a nim-shortcuts position in
 * play: the bounded finder's view (game.h's gj_play.look) and the game's
 * motifs (gj_play.motifs, gj_game.motifs).
 *
 * The greedy measure: heaps (x, y) are worth |x - y| / (x + y + 1) to the
 * player to move and minus that to the player who left them, since equal
 * heaps are what a Nim player aims to leave; heaps on a shortcut or at
 * (0, 0) end the game, a loss for the player to move (+1 to the one who
 * left them).
 *
 * So a move to (a, b) reads, one ply ahead, +1 when it ends the game and
 * -|a - b| / (a + b + 1) otherwise (0 for equal heaps, the best a move that
 * goes on can read).  Two plies ahead it reads the least, from the same
 * side, over the opponent's replies (a', b) and (a, b'), each worth
 * +|.| / (. + 1) to the first mover, who is to move again, or -1 when it
 * ends the game.  That least is found without enumerating the replies:
 * -1 when a reply reaches a shortcut (one lies in column a below b or in
 * row b left of a) or (0, 0) (one heap is empty); else 0 when the heaps
 * differ (the reply that equalises them); else, on equal heaps (k, k), the
 * nearest a reply comes to equal is one stone off, 1 / (2k).  A move that
 * ends the game has no reply and reads +1 at both.  The test's brute
 * force enumerates every reply instead.
 *
 * Two plies may read above one: a move leaving (3, 1) reads -2/5, and the
 * opponent's equalising reply to (1, 1) reads 0 for the first mover.
 */
#include <stdint.h>

#include "nim_shortcuts.h"
#include "nim_shortcuts_core.h"

const gj_theme nim_shortcuts_motifs[] = {
    {"shortcut-landing", "the solving move lands on a shortcut, so the opponent loses at once"},
    {"equaliser-refuted",
     "the heaps differ, and the Nim move that makes them equal loses: from the equal heaps the "
     "opponent steps onto a shortcut"},
    {"shifted-diagonal",
     "the solving move leaves unequal heaps on no shortcut: the shortcuts have moved the "
     "losing positions off the diagonal"},
    {NULL, NULL},
};

/* Whether (x, y) is one of v's shortcuts. */
static int is_shortcut(const nim_view *v, long x, long y)
{
    return nim_keys_between(v->by_column, v->n, nim_pack(x, y), nim_pack(x, y + 1)) > 0;
}

/* Whether a move from (x, y) reaches a shortcut: one lies in column x below
 * y or in row y left of x. */
static int shortcut_in_reach(const nim_view *v, long x, long y)
{
    return nim_keys_between(v->by_column, v->n, nim_pack(x, 0), nim_pack(x, y)) > 0 ||
           nim_keys_between(v->by_row, v->n, nim_pack(y, 0), nim_pack(y, x)) > 0;
}

/* Whether the player to move at (x, y) has lost: a shortcut, or no move. */
static int over(const nim_view *v, long x, long y)
{
    return (x == 0 && y == 0) || is_shortcut(v, x, y);
}

/* |x - y|. */
static long gap(long x, long y)
{
    return x > y ? x - y : y - x;
}

/* The heaps move m of v's heaps leaves into *x, *y: 0, or -1 with *e when
 * m is no legal move there. */
static int after(const nim_view *v, const gj_move *m, long *x, long *y, gj_error *e)
{
    int heap = nim_move_heap(m->id);
    long take = nim_move_take(m->id), left = heap == 1 ? v->x : v->y;
    if (take < 1 || take > left || over(v, v->x, v->y))
        return gj_fail(e, GJ_INTERNAL, "nim-shortcuts: move %llu is not legal at (%ld, %ld)",
                       (unsigned long long)m->id, v->x, v->y);
    *x = v->x - (heap == 1 ? take : 0);
    *y = v->y - (heap == 2 ? take : 0);
    return 0;
}

/* The least, over the opponent's replies at (a, b) (not over), of the
 * measure from the first mover's side (the file's header says why). */
static double worst_reply(const nim_view *v, long a, long b)
{
    if (a == 0 || b == 0 || shortcut_in_reach(v, a, b))
        return -1;
    if (a != b)
        return 0;
    return 1.0 / (double)(2 * a);
}

/* game.h's gj_play.look. */
int nim_shortcuts_look(void *pos, const gj_move *moves, long n, int plies, double *value,
                       gj_error *e)
{
    nim_view v;
    nim_play_view(pos, &v);
    if (plies != 1 && plies != 2)
        return gj_fail(e, GJ_INTERNAL, "nim-shortcuts: look %d plies ahead", plies);
    for (long i = 0; i < n; i++) {
        long a, b;
        if (after(&v, &moves[i], &a, &b, e) != 0)
            return -1;
        if (over(&v, a, b))
            value[i] = 1;
        else if (plies == 1)
            value[i] = (double)-gap(a, b) / (double)(a + b + 1); /* 0 for equal heaps, not -0 */
        else
            value[i] = worst_reply(&v, a, b);
    }
    return 0;
}

/* game.h's gj_play.motifs: the solving move moves[0]'s, in the order of
 * nim_shortcuts_motifs. */
int nim_shortcuts_motif_bits(void *pos, const gj_move *moves, long n, unsigned *bits, gj_error *e)
{
    nim_view v;
    nim_play_view(pos, &v);
    long a, b;
    *bits = 0;
    if (n < 1 || after(&v, &moves[0], &a, &b, e) != 0)
        return n < 1 ? gj_fail(e, GJ_INTERNAL, "nim-shortcuts: motifs of no move") : -1;
    long low = v.x < v.y ? v.x : v.y;
    if (is_shortcut(&v, a, b))
        *bits |= 1u << 0;
    if (v.x != v.y && !over(&v, low, low) && shortcut_in_reach(&v, low, low))
        *bits |= 1u << 1;
    if (a != b && !is_shortcut(&v, a, b))
        *bits |= 1u << 2;
    return 0;
}
