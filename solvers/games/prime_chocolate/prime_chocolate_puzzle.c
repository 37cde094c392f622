/* prime_chocolate_puzzle.c - the puzzle's parts of a prime-chocolate bar in
 * play: the bounded finder's view (game.h's gj_play.look) and the game's
 * motifs (gj_play.motifs, gj_game.motifs), over a plain bar and the moves'
 * squares, which prime_chocolate_analysis.c passes from its parsed
 * position.
 *
 * The greedy measure, the biggest bite: the squares the first mover has
 * eaten minus those the opponent has eaten since, over the squares of
 * chocolate on the bar before the first move; a finished game reads +1
 * for the player who ate the last square and -1 for the other.
 *
 * So a bite of side s from a bar of L squares reads s^2 / L one ply ahead
 * (exactly 1 when it eats the last square).  Two plies ahead it reads the
 * least over the opponent's replies, which is the biggest reply: -1 when a
 * reply eats all that is left, else (s^2 - r^2) / L for the largest legal
 * side r.  Two squares are disjoint exactly when a row or a column line
 * separates them, so the largest full square the bite leaves is the
 * largest inside the rows above it, the rows below, the columns to its
 * left or to its right: four tables from two passes over the bar, then
 * O(1) a move.
 * A full square of side t holds full squares of every smaller side, so r
 * is the largest allowed side (1, or a prime not used, and not the bite's
 * own prime) up to that room; r^2 equal to what is left means that square
 * is all of it.  Every reply eats a square, so two plies read strictly
 * below one whenever the opponent has a reply (the unit test checks it);
 * a bite that ends the game has none and reads +1 at both. */
#include <stdlib.h>
#include <string.h>

#include "prime_chocolate.h"
#include "prime_chocolate_core.h"

const gj_theme prime_chocolate_motifs[] = {
    {"prime-bite", "the solving move eats a p x p square of an odd prime p"},
    {"nibble", "the solving move eats one square while a bigger bite is open"},
    {"parity-flip",
     "the solving move is the 2 x 2 bite, the only one that eats an even count of squares"},
    {NULL, NULL},
};

/* The largest full square within rows < k (above[k]), rows >= k
 * (below[k]), columns < k (left[k]) and columns >= k (right[k]), k in
 * 0..n, each array n + 1 ints, zeroed by the caller; row[] is 2(n + 1)
 * ints of scratch. */
static void rooms(const unsigned char *cell, long n, int *above, int *below, int *left, int *right,
                  int *row)
{
    /* Squares by their top-left corner, bottom-up: such a square lies in
     * rows >= its top and columns >= its left. */
    int *next = row, *here = row + n + 1;
    memset(next, 0, (size_t)(n + 1) * sizeof *next);
    for (long i = n - 1; i >= 0; i--) {
        here[n] = 0;
        for (long j = n - 1; j >= 0; j--) {
            int m = next[j] < next[j + 1] ? next[j] : next[j + 1];
            m = here[j + 1] < m ? here[j + 1] : m;
            here[j] = cell[i * n + j] ? m + 1 : 0;
            if (here[j] > below[i])
                below[i] = here[j];
            if (here[j] > right[j])
                right[j] = here[j];
        }
        int *t = next;
        next = here;
        here = t;
    }
    /* Squares by their bottom-right corner, top-down: such a square lies
     * in rows <= its bottom and columns <= its right. */
    int *up = row, *at = row + n + 1;
    memset(up, 0, (size_t)(n + 1) * sizeof *up);
    for (long i = 0; i < n; i++) {
        at[0] = 0;
        for (long j = 0; j < n; j++) {
            int m = up[j] < up[j + 1] ? up[j] : up[j + 1];
            m = at[j] < m ? at[j] : m;
            at[j + 1] = cell[i * n + j] ? m + 1 : 0;
            if (at[j + 1] > above[i + 1])
                above[i + 1] = at[j + 1];
            if (at[j + 1] > left[j + 1])
                left[j + 1] = at[j + 1];
        }
        int *t = up;
        up = at;
        at = t;
    }
    for (long k = 1; k <= n; k++) {
        above[k] = above[k] > above[k - 1] ? above[k] : above[k - 1];
        left[k] = left[k] > left[k - 1] ? left[k] : left[k - 1];
    }
    for (long k = n - 1; k >= 0; k--) {
        below[k] = below[k] > below[k + 1] ? below[k] : below[k + 1];
        right[k] = right[k] > right[k + 1] ? right[k] : right[k + 1];
    }
}

int pc_look(const unsigned char *cell, long n, const unsigned char *used, long long left,
            const pc_square *moves, long count, int plies, double *value, gj_error *e)
{
    if (left <= 0)
        return gj_fail(e, GJ_INTERNAL, "prime-chocolate: a bar without chocolate has no moves");
    if (plies == 1) {
        for (long k = 0; k < count; k++)
            value[k] = (double)((long long)moves[k].size * moves[k].size) / (double)left;
        return 0;
    }
    /* 5(n + 1) ints of tables and 2(n + 1) of scratch; allowed[x] is the
     * largest side <= x a move may have (1, or a prime not used). */
    int *t = calloc(7 * ((size_t)n + 1), sizeof *t);
    if (t == NULL)
        return gj_fail_nomem(e);
    int *above = t, *below = t + (n + 1), *lft = t + 2 * (n + 1), *rgt = t + 3 * (n + 1);
    int *allowed = t + 4 * (n + 1), *scratch = t + 5 * (n + 1);
    rooms(cell, n, above, below, lft, rgt, scratch);
    for (long x = 1; x <= n; x++)
        allowed[x] = pc_is_prime(x) && !used[x] ? (int)x : x == 1 ? 1 : allowed[x - 1];
    for (long k = 0; k < count; k++) {
        long i = moves[k].row, j = moves[k].col, s = moves[k].size;
        long long bite = (long long)s * s, rest = left - bite;
        if (rest == 0) {
            value[k] = 1;
            continue;
        }
        int room = above[i];
        room = below[i + s] > room ? below[i + s] : room;
        room = lft[j] > room ? lft[j] : room;
        room = rgt[j + s] > room ? rgt[j + s] : room;
        /* The bite uses its prime: the next allowed side below it then. */
        long r = allowed[room];
        if (r == s && s > 1)
            r = allowed[s - 1];
        value[k] = r * r == rest ? -1 : (double)(bite - r * r) / (double)left;
    }
    free(t);
    return 0;
}

unsigned pc_motif_bits(const pc_square *moves, long count)
{
    long s = moves[0].size;
    int bigger = 0;
    for (long k = 1; k < count; k++)
        bigger |= moves[k].size > 1;
    return (s > 2 ? 1u : 0u) << 0 | (s == 1 && bigger ? 1u : 0u) << 1 | (s == 2 ? 1u : 0u) << 2;
}
