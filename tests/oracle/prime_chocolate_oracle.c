/* prime_chocolate_oracle.c - exhaustive game-tree search for prime-chocolate.
 *
 * The rules, and nothing more: the player to move either eats one chocolate
 * square or picks a prime nobody has picked and eats a p x p square that is
 * all chocolate; whoever eats the last square wins, so a player facing no
 * chocolate has lost.  The chocolate squares of the starting board are
 * numbered 0..k-1 and a state is (subset left, primes used), memoised in a
 * table of 2^k << (primes in play) bytes.  Chocolate is never added back, so
 * only p x p squares that are all chocolate at the start can ever be eaten,
 * and only the primes owning one of them are "in play". */
#include "prime_chocolate_oracle.h"

#include <stdint.h>
#include <stdlib.h>

enum { UNKNOWN = 0, MOVER_LOSES = 1, MOVER_WINS = 2 };

typedef struct move {
    uint32_t eats;      /* the squares the move eats, as bits of the state */
    int prime;          /* bit of the prime it uses, -1 for one square */
    int row, col, size; /* the square, for callers that list moves */
} move;

typedef struct search {
    move *moves;
    int nmoves;
    int nprimes;
    unsigned char *memo;
    unsigned char *far; /* remoteness + 1 per state (0: not yet); NULL unless asked */
} search;

int prime_chocolate_oracle_is_prime(int p)
{
    if (p < 2)
        return 0;
    for (int d = 2; d * d <= p; d++)
        if (p % d == 0)
            return 0;
    return 1;
}

/* The bits of the p x p square at (top, left), or 0 when one of its squares
 * is not chocolate at the start. */
static uint32_t square_bits(int n, const int *bit, int top, int left, int p)
{
    uint32_t eats = 0;
    for (int i = top; i < top + p; i++)
        for (int j = left; j < left + p; j++) {
            if (bit[i * n + j] < 0)
                return 0;
            eats |= (uint32_t)1 << bit[i * n + j];
        }
    return eats;
}

/* Add every p x p move of one prime; returns how many there were. */
static int add_prime_moves(search *s, int n, const int *bit, int p, int prime_bit)
{
    int added = 0;
    for (int top = 0; top + p <= n; top++)
        for (int left = 0; left + p <= n; left++) {
            uint32_t eats = square_bits(n, bit, top, left, p);
            if (eats != 0) {
                s->moves[s->nmoves].eats = eats;
                s->moves[s->nmoves].prime = prime_bit;
                s->moves[s->nmoves].row = top;
                s->moves[s->nmoves].col = left;
                s->moves[s->nmoves].size = p;
                s->nmoves++;
                added++;
            }
        }
    return added;
}

/* Number the chocolate (bit[] = -1 for eaten squares) and list every move
 * the starting board allows, leaving out the primes marked in used[] (n+1
 * flags, or NULL: none chosen yet).  Returns k, or -1 on failure. */
static int build(search *s, int n, const unsigned char *cell, const unsigned char *used, int *bit)
{
    int k = 0;
    for (int c = 0; c < n * n; c++)
        bit[c] = cell[c] ? k++ : -1;
    if (k > PC_ORACLE_MAX_CHOCOLATE)
        return -1;
    s->moves = malloc(sizeof *s->moves * (size_t)(k + n * n * n + 1));
    if (s->moves == NULL)
        return -1;
    s->nmoves = 0;
    s->nprimes = 0;
    s->far = NULL;
    for (int c = 0; c < n * n; c++)
        if (bit[c] >= 0) {
            s->moves[s->nmoves].eats = (uint32_t)1 << bit[c];
            s->moves[s->nmoves].prime = -1;
            s->moves[s->nmoves].row = c / n;
            s->moves[s->nmoves].col = c % n;
            s->moves[s->nmoves].size = 1;
            s->nmoves++;
        }
    for (int p = 2; p <= n; p++)
        if (prime_chocolate_oracle_is_prime(p) && (used == NULL || !used[p]) &&
            add_prime_moves(s, n, bit, p, s->nprimes) > 0)
            s->nprimes++;
    s->memo = calloc((size_t)1 << (k + s->nprimes), 1);
    if (s->memo == NULL) {
        free(s->moves);
        return -1;
    }
    return k;
}

static void release(search *s)
{
    free(s->moves);
    free(s->memo);
    free(s->far);
}

/* Does the player to move win with `left` on the bar and `used` primes? */
static int mover_wins(search *s, uint32_t left, unsigned used)
{
    if (left == 0)
        return 0; /* the opponent ate the last square */
    unsigned char *m = &s->memo[((size_t)left << s->nprimes) | used];
    if (*m != UNKNOWN)
        return *m == MOVER_WINS;
    int wins = 0;
    for (int i = 0; i < s->nmoves && !wins; i++) {
        const move *mv = &s->moves[i];
        if ((mv->eats & left) != mv->eats)
            continue;
        if (mv->prime >= 0 && (used >> mv->prime) & 1u)
            continue;
        unsigned next_used = mv->prime >= 0 ? used | 1u << mv->prime : used;
        if (!mover_wins(s, left & ~mv->eats, next_used))
            wins = 1;
    }
    *m = wins ? MOVER_WINS : MOVER_LOSES;
    return wins;
}

/* The remoteness of (left, used) by its definition, every move looked at. */
static int remoteness(search *s, uint32_t left, unsigned used)
{
    if (left == 0)
        return 0;
    unsigned char *m = &s->far[((size_t)left << s->nprimes) | used];
    if (*m != 0)
        return *m - 1;
    int fastest_win = -1, slowest = -1;
    for (int i = 0; i < s->nmoves; i++) {
        const move *mv = &s->moves[i];
        if ((mv->eats & left) != mv->eats)
            continue;
        if (mv->prime >= 0 && (used >> mv->prime) & 1u)
            continue;
        unsigned next_used = mv->prime >= 0 ? used | 1u << mv->prime : used;
        int r = remoteness(s, left & ~mv->eats, next_used);
        if (!mover_wins(s, left & ~mv->eats, next_used) && (fastest_win < 0 || r < fastest_win))
            fastest_win = r;
        if (r > slowest)
            slowest = r;
    }
    int r = 1 + (fastest_win >= 0 ? fastest_win : slowest);
    *m = (unsigned char)(r + 1);
    return r;
}

const char *prime_chocolate_oracle(int n, const unsigned char *cell)
{
    if (n < 1 || n > PC_ORACLE_MAX_SIDE)
        return NULL;
    int bit[PC_ORACLE_MAX_SIDE * PC_ORACLE_MAX_SIDE];
    search s;
    int k = build(&s, n, cell, NULL, bit);
    if (k < 0)
        return NULL;
    uint32_t all = ((uint32_t)1 << k) - 1;
    int ruby = mover_wins(&s, all, 0);
    release(&s);
    return ruby ? "RUBY\n" : "DIA\n";
}

int prime_chocolate_oracle_all(int n, unsigned char *out)
{
    if (n < 1 || n > 4)
        return -1;
    /* Every board is a state of the game on the full bar with no prime
     * chosen yet, so one table answers them all; the bits of the full bar
     * are numbered row-major, exactly as the caller's masks. */
    unsigned char full[16] = {0};
    int bit[16];
    for (int c = 0; c < n * n; c++)
        full[c] = 1;
    search s;
    if (build(&s, n, full, NULL, bit) < 0)
        return -1;
    for (uint32_t mask = 0; mask < (uint32_t)1 << (n * n); mask++)
        out[mask] = (unsigned char)mover_wins(&s, mask, 0);
    release(&s);
    return 0;
}

/* Both: the outcome, and with far != 0 the remoteness too. */
static int mid(int n, const unsigned char *cell, const unsigned char *used, pc_oracle_move *moves,
               int cap, int *count, int *far)
{
    if (n < 1 || n > PC_ORACLE_MAX_SIDE)
        return -1;
    int bit[PC_ORACLE_MAX_SIDE * PC_ORACLE_MAX_SIDE];
    search s;
    int k = build(&s, n, cell, used, bit);
    if (k < 0)
        return -1;
    uint32_t all = ((uint32_t)1 << k) - 1;
    int wins = mover_wins(&s, all, 0);
    if (far != NULL) {
        s.far = calloc((size_t)1 << (k + s.nprimes), 1);
        if (s.far == NULL) {
            release(&s);
            return -1;
        }
        *far = remoteness(&s, all, 0);
    }
    if (count != NULL)
        *count = s.nmoves;
    for (int i = 0; i < s.nmoves && i < cap && moves != NULL; i++) {
        const move *mv = &s.moves[i];
        moves[i].row = mv->row;
        moves[i].col = mv->col;
        moves[i].size = mv->size;
        unsigned next_used = mv->prime >= 0 ? 1u << mv->prime : 0u;
        moves[i].opponent_wins = mover_wins(&s, all & ~mv->eats, next_used);
        moves[i].remoteness = far != NULL ? remoteness(&s, all & ~mv->eats, next_used) : -1;
    }
    release(&s);
    return wins;
}

int prime_chocolate_oracle_mid(int n, const unsigned char *cell, const unsigned char *used,
                               pc_oracle_move *moves, int cap, int *count)
{
    return mid(n, cell, used, moves, cap, count, NULL);
}

int prime_chocolate_oracle_far(int n, const unsigned char *cell, const unsigned char *used,
                               pc_oracle_move *moves, int cap, int *count, int *remoteness)
{
    return mid(n, cell, used, moves, cap, count, remoteness);
}

/* ---- the puzzle's parts, by enumeration ---------------------------------- */

/* Whether the square of side p at (top, left) is a legal move: inside the
 * board, all chocolate, and of side 1 or a prime nobody has chosen. */
static int legal_square(int n, const unsigned char *cell, const unsigned char *used, int top,
                        int left, int p)
{
    if (top < 0 || left < 0 || p < 1 || top + p > n || left + p > n)
        return 0;
    if (p > 1 && (!prime_chocolate_oracle_is_prime(p) || (used != NULL && used[p])))
        return 0;
    for (int i = top; i < top + p; i++)
        for (int j = left; j < left + p; j++)
            if (!cell[i * n + j])
                return 0;
    return 1;
}

/* The chocolate squares of the board. */
static long count_chocolate(int n, const unsigned char *cell)
{
    long c = 0;
    for (int k = 0; k < n * n; k++)
        c += cell[k] != 0;
    return c;
}

/* The bar after the square of side p at (top, left) is eaten and its prime
 * (p > 1) chosen, from `cell` and `used` (NULL: none) into after[] and
 * chosen[] (n + 1 flags). */
static void eat(int n, const unsigned char *cell, const unsigned char *used, int top, int left,
                int p, unsigned char *after, unsigned char *chosen)
{
    for (int k = 0; k < n * n; k++)
        after[k] = cell[k] != 0;
    for (int q = 0; q <= n; q++)
        chosen[q] = used != NULL && used[q];
    for (int i = top; i < top + p; i++)
        for (int j = left; j < left + p; j++)
            after[i * n + j] = 0;
    if (p > 1)
        chosen[p] = 1;
}

/* The tie-break of the player to move on the bar, before its scale:
 * t^2 * before + c, for t the largest side of a legal square and c the
 * legal squares of that side; 0 with none. */
static long long biggest_bites(int n, const unsigned char *cell, const unsigned char *used,
                               long before)
{
    for (int p = n; p >= 1; p--) {
        long c = 0;
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++)
                c += legal_square(n, cell, used, i, j, p);
        if (c > 0)
            return (long long)p * p * before + c;
    }
    return 0;
}

/* The chocolate squares of `cell` outside the square of side p at
 * (top, left) that share an edge with one of its squares. */
static long long touching(int n, const unsigned char *cell, int top, int left, int p)
{
    long long a = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            if (!cell[i * n + j] || (i >= top && i < top + p && j >= left && j < left + p))
                continue;
            int next = 0;
            for (int x = top; x < top + p; x++)
                for (int y = left; y < left + p; y++)
                    next |= (i == x && (j == y - 1 || j == y + 1)) ||
                            (j == y && (i == x - 1 || i == x + 1));
            a += next;
        }
    return a;
}

double prime_chocolate_oracle_look(int n, const unsigned char *cell, const unsigned char *used,
                                   int row, int col, int size, int plies)
{
    long long before = count_chocolate(n, cell), bite = (long long)size * size;
    if (bite == before)
        return 1;
    /* Everything in units of 1 / (D before): D a square. */
    long long q4 = 4 * before + 1, d = 4 * before * before * q4, l2 = before * before;
    long long whole = d * before;
    unsigned char after[PC_ORACLE_MAX_SIDE * PC_ORACLE_MAX_SIDE];
    unsigned char chosen[PC_ORACLE_MAX_SIDE + 1];
    eat(n, cell, used, row, col, size, after, chosen);
    long long own = l2 * touching(n, cell, row, col, size);
    /* One ply: the opponent moves next, so their biggest bites count
     * against. */
    if (plies == 1)
        return (double)(d * bite - q4 * biggest_bites(n, after, chosen, before) - own) /
               (double)whole;
    /* Two: every reply, read with the first mover to move again. */
    double least = 2;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            for (int p = 1; p <= n; p++) {
                if (!legal_square(n, after, chosen, i, j, p))
                    continue;
                long long reply = (long long)p * p;
                double v = -1;
                if (reply != before - bite) {
                    unsigned char again[PC_ORACLE_MAX_SIDE * PC_ORACLE_MAX_SIDE];
                    unsigned char chosen2[PC_ORACLE_MAX_SIDE + 1];
                    eat(n, after, chosen, i, j, p, again, chosen2);
                    v = (double)(d * (bite - reply) +
                                 q4 * biggest_bites(n, again, chosen2, before) +
                                 l2 * touching(n, after, i, j, p) - own) /
                        (double)whole;
                }
                if (v < least)
                    least = v;
            }
    return least;
}

unsigned prime_chocolate_oracle_motifs(int n, const unsigned char *cell, const unsigned char *used,
                                       int row, int col, int size)
{
    (void)row;
    (void)col;
    int bigger = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            for (int p = 2; p <= n; p++)
                bigger |= legal_square(n, cell, used, i, j, p);
    unsigned bits = 0;
    if (size > 2 && size % 2 == 1)
        bits |= 1u;
    if (size == 1 && bigger)
        bits |= 2u;
    if (size == 2)
        bits |= 4u;
    return bits;
}
