/* prime_chocolate_puzzle.c - the puzzle's parts of a prime-chocolate bar in
 * play: the bounded finder's view (game.h's gj_play.look) and the game's
 * motifs (gj_play.motifs, gj_game.motifs), over a plain bar and the moves'
 * squares, which prime_chocolate_analysis.c passes from its parsed
 * position.
 *
 * The greedy measure, the biggest bite, then the smallest biggest bite
 * left to the other, then the bite touching the least chocolate: the
 * squares the first mover has eaten minus those the opponent has eaten
 * since, over L, the chocolate on the bar before the first move, with two
 * tie-breaks that together never weigh a square: (t^2 L + c) / (4 L^2)
 * for the player to move, whose largest legal bite has side t and who has
 * c bites of that side, counted for them and against the other; and for
 * every bite seen, a / (16 L + 4) against its eater, a the chocolate
 * squares next to it (sharing an edge) when it is eaten, so crumbs and
 * edges go before the middle of the bar.  A finished game reads +1 for the
 * player who ate the last square and -1 for the other.
 *
 * So one ply ahead a bite of side s reads s^2, less the opponent's largest
 * bites (side r, c of them) and its own edge, over L.  Two plies ahead the
 * opponent answers the same way: the least over the replies is one of
 * side r (a smaller one reads at least three squares more, more than the
 * tie-breaks ever do), -1 when it eats all that is left, else s^2 - r^2
 * plus the first mover's biggest bites and the reply's edge, less the
 * bite's.  In integers, with D = 4 L^2 (4 L + 1), one numerator over D L,
 * exact in a long long up to PC_LOOK_MAX_LEFT squares of chocolate.  Each
 * t^2 and c is below L, each a at most 4L, so the first tie-break stays
 * under a quarter of a square and the second under a quarter a bite: two
 * plies read strictly below one whenever the opponent has a reply (a
 * reply eats a square and the tie-breaks it adds stay under 3/4; the unit
 * test checks it); a bite that ends the game has none and reads +1 at
 * both.
 *
 * The bites the players may take are the legal moves of the bar, all of
 * which game.h passes: after some squares are eaten and primes chosen,
 * those that overlap none of them and use none of those primes. */
#include <stdlib.h>
#include <string.h>

#include "prime_chocolate.h"
#include "prime_chocolate_core.h"

/* The most chocolate look measures: D L, about 16 L^4, must fit in a long
 * long.  A bar in a puzzle holds far less (its every move is ranked). */
#define PC_LOOK_MAX_LEFT 20000LL

const gj_theme prime_chocolate_motifs[] = {
    {"prime-bite", "the solving move eats a p x p square of an odd prime p"},
    {"nibble", "the solving move eats one square while a bigger bite is open"},
    {"parity-flip",
     "the solving move is the 2 x 2 bite, the only one that eats an even count of squares"},
    {NULL, NULL},
};

/* Whether squares a and b share a cell. */
static int overlap(const pc_square *a, const pc_square *b)
{
    return a->row < b->row + b->size && b->row < a->row + a->size && a->col < b->col + b->size &&
           b->col < a->col + a->size;
}

/* The chocolate squares of the n x n bar that share an edge with q, not
 * counting those inside q or inside `eaten` (NULL: none). */
static long long edge(const unsigned char *cell, long n, const pc_square *q, const pc_square *eaten)
{
    long long a = 0;
    for (int side = 0; side < 4; side++)
        for (int k = 0; k < q->size; k++) {
            /* Above, below, left of and right of the square, in turn. */
            long i = side == 0 ? q->row - 1 : side == 1 ? q->row + q->size : q->row + k;
            long j = side == 2 ? q->col - 1 : side == 3 ? q->col + q->size : q->col + k;
            if (i < 0 || j < 0 || i >= n || j >= n || !cell[i * n + j])
                continue;
            if (eaten != NULL && i >= eaten->row && i < eaten->row + eaten->size &&
                j >= eaten->col && j < eaten->col + eaten->size)
                continue;
            a++;
        }
    return a;
}

/* The tie-break's t^2 L + c for the player to move once `gone` (k squares,
 * eaten in turn, whose sides > 1 are chosen primes now) are eaten: big[]
 * holds the indexes of the bites of side > 1 (nbig, sides descending), so
 * the first allowed one overlapping none of gone gives t, and its side's
 * run the count; with none, t = 1 and c is the `rest` single squares. */
static long long best_bites(const pc_square *moves, const long *big, long nbig,
                            const pc_square *gone, int k, long long rest, long long left)
{
    int t = 0;
    long long c = 0;
    for (long b = 0; b < nbig; b++) {
        const pc_square *q = &moves[big[b]];
        if (t != 0 && q->size != t)
            break;
        int open = 1;
        for (int g = 0; g < k && open; g++)
            open = q->size != gone[g].size && !overlap(q, &gone[g]);
        if (open) {
            t = q->size;
            c++;
        }
    }
    if (t == 0)
        return left + rest;
    return (long long)t * t * left + c;
}

int pc_look(const unsigned char *cell, long n, long long left, const pc_square *moves, long count,
            int plies, double *value, gj_error *e)
{
    if (left <= 0)
        return gj_fail(e, GJ_INTERNAL, "prime-chocolate: a bar without chocolate has no moves");
    if (left > PC_LOOK_MAX_LEFT)
        return gj_fail(e, GJ_UNMET,
                       "prime-chocolate: the greedy measure takes at most %lld squares of "
                       "chocolate, the bar has %lld",
                       PC_LOOK_MAX_LEFT, left);
    /* The bites of side > 1, largest first, by a count of each side;
     * from[x] then is where side x starts. */
    long *big = malloc((size_t)(count > 0 ? count : 1) * sizeof *big), nbig = 0;
    long *from = calloc((size_t)n + 2, sizeof *from);
    if (big == NULL || from == NULL) {
        free(big);
        free(from);
        return gj_fail_nomem(e);
    }
    for (long k = 0; k < count; k++)
        if (moves[k].size > 1) {
            from[moves[k].size]++;
            nbig++;
        }
    for (long x = n, at = 0; x >= 2; x--) {
        long run = from[x];
        from[x] = at;
        at += run;
    }
    for (long k = 0; k < count; k++)
        if (moves[k].size > 1)
            big[from[moves[k].size]++] = k;
    free(from);
    long long q4 = 4 * left + 1, d = 4 * left * left * q4, whole = d * left, l2 = left * left;
    for (long k = 0; k < count; k++) {
        pc_square gone[2] = {moves[k], {0, 0, 0}};
        long long bite = (long long)gone[0].size * gone[0].size, rest = left - bite;
        if (rest == 0) {
            value[k] = 1;
            continue;
        }
        long long own = l2 * edge(cell, n, &gone[0], NULL);
        /* A single square chooses no prime: side 1 never matches a big one. */
        long long theirs = best_bites(moves, big, nbig, gone, 1, rest, left);
        if (plies == 1) {
            value[k] = (double)(d * bite - q4 * theirs - own) / (double)whole;
            continue;
        }
        /* theirs / left is the opponent's largest bite, r^2 (c < left): the
         * replies that count eat that many. */
        long long reply = theirs / left;
        if (reply == rest) {
            value[k] = -1;
            continue;
        }
        long long mine = -1;
        for (long b = 0; b < count; b++) {
            const pc_square *q = &moves[b];
            if ((long long)q->size * q->size != reply || (q->size > 1 && q->size == gone[0].size) ||
                overlap(q, &gone[0]))
                continue;
            gone[1] = *q;
            /* After single squares only (the opponent had no bigger bite),
             * the first mover has none either: the rest, one by one. */
            long long v =
                q4 * (reply == 1 ? left + rest - 1
                                 : best_bites(moves, big, nbig, gone, 2, rest - reply, left)) +
                l2 * edge(cell, n, q, &gone[0]);
            mine = mine < 0 || v < mine ? v : mine;
        }
        value[k] = (double)(d * (bite - reply) + mine - own) / (double)whole;
    }
    free(big);
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
