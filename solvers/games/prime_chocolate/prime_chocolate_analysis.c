/* prime_chocolate_analysis.c - POST /analyze/prime-chocolate.
 *
 * The value.  Every move eats an odd count of squares (1, or p*p for an odd
 * prime p) except the 2 x 2 move, which eats 4 and can happen once a game.
 * With c squares left:
 *   - 2 used: every move flips the parity of c and a single square is always
 *     there while c > 0, so the mover wins iff c is odd.
 *   - 2 free, c even: a full 2 x 2 wins (eat it: the opponent faces an even
 *     count with 2 used).  Without one none can ever appear (chocolate only
 *     goes), so all moves are odd and the mover loses.
 *   - 2 free, c odd: the 2 x 2 move hands over an odd count with 2 used, a
 *     loss; an odd move hands over an even count with 2 free, which the
 *     opponent wins iff a full 2 x 2 is left.  So the mover wins iff some odd
 *     move (a square, or a p x p square for an odd prime p still free) eats a
 *     cell of every full 2 x 2 block.
 * A move's outcome is the negation of the value after it, by the same rules:
 * the 2 x 2 move wins iff c is even; with 2 used every move wins iff c is
 * odd; with 2 free and c odd an odd move wins iff it breaks every block; with
 * 2 free and c even an odd move m wins iff some block survives it and no odd
 * "partner" m' (disjoint from m, all chocolate, a size still free after m)
 * breaks every survivor.
 *
 * Making that fast (a 2000 x 2000 bar has ~4e8 moves).  A square at
 * (i, j) of side s touches the block with top-left (r, q) iff i-1 <= r <=
 * i+s-1 and j-1 <= q <= j+s-1, so "breaks every block of a set" only needs
 * the set's bounding box of corners.  The survivors of m are the blocks
 * above, below, left or right of m's box; prefix and suffix extremes per
 * row and per column give their bounding box in O(1).  A partner of side
 * s' >= 2 holds (s'-1)^2 blocks of its own, all survivors, so s' lies within
 * 2 of both sides of the box: at most three sizes and nine corners to try,
 * each an O(1) look-up in the table of largest full squares.  Per corner the
 * survivors shrink as s grows, so a binary search finds the sizes too small
 * for any partner to fit (the largest square disjoint from a cell bounds
 * it); those win without a look. Counting is then O(n^2 log n) plus the few
 * sizes left, and the list costs at most max_moves corners of work.
 *
 * The list: winning moves, then losing ones, each in row-major order of
 * the square's top-left cell and, at one cell, larger squares first.
 *
 * Remoteness (analysis.h) is a search from the rules
 * (prime_chocolate_far.c), exact within its bounds, else null for the
 * position and every move.  Where it is known the bar is small enough
 * (at most ANALYSIS_REMOTENESS_DEPTH squares, or no full prime square at
 * all) to value every move: they are ranked by it (fastest win, slowest
 * loss) before the order above, and the search's outcomes and counts must
 * agree with the survey's (GJ_INTERNAL if not).
 *
 * The parsed position (game.h's gj_play, prime_chocolate_play below) is
 * what analyze() wraps and what the perfect-play line plays on: the bar is
 * read once, a move eats its square in place, and each position's tables
 * and search are made once, when it is first ranked or written.  The
 * line's first move alone (rank with max 1, no head) skips the counts: the
 * scan stops at the first winning corner, or at the first corner of a bar
 * parity says is lost. */
#include <stdbool.h>
#include <jansson.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "prime_chocolate.h"
#include "json_in.h"
#include "prime_chocolate_core.h"
#include "prime_chocolate_far.h"

#define NONE_LO INT_MAX
#define NONE_HI (-1)

/* Extremes of the blocks on one side of a line, along one axis: blocks with
 * own coordinate < k (pre) or >= k (suf), k in 0..n.  `own` is the axis
 * coordinate (a row for the row axis), `other` the perpendicular one. */
typedef struct axis {
    int *pre_own_lo, *pre_own_hi, *pre_other_lo, *pre_other_hi;
    int *suf_own_lo, *suf_own_hi, *suf_other_lo, *suf_other_hi;
} axis;

typedef struct box {
    int r1, r2, c1, c2; /* corner rows r1..r2, columns c1..c2; r1 > r2 when empty */
} box;

typedef struct bar {
    long n;
    unsigned char *cell;
    long long chocolate;
    unsigned char *prime; /* n+1: prime[p] = 1 when p is prime */
    unsigned char *used;  /* n+1: used[p] = 1 when p is in primes_used */
    int two_free;         /* 2 is not used */
    unsigned char *avail; /* n+1: a move of side s is allowed (1, or a free prime) */
    int *cnt_all;         /* n+1: allowed sides <= x */
    int *cnt_odd;         /* n+1: allowed odd sides <= x */
    int *sides, *odd;     /* allowed sides, allowed odd sides, ascending */
    uint16_t *big;        /* n*n: side of the largest full square with that top-left */
    int any_block;
    box all; /* corners of every block */
    axis rows, cols;
    /* Largest full square inside rows < k, rows >= k, columns < k, >= k. */
    int *above, *below, *left, *right;
    int *scratch; /* 2(n+1) ints */
} bar;

typedef struct entry {
    int row, col, size;
} entry;

typedef struct lists {
    entry *win, *lose;
    long nwin, nlose, cap;
} lists;

/* ---- reading the request ---------------------------------------------- */

/* Sieve b->prime for 0..n: 0, or -1 when out of memory. */
static int mark_primes(bar *b)
{
    long n = b->n;
    b->prime = calloc((size_t)n + 1, 1);
    if (b->prime == NULL)
        return -1;
    for (long x = 2; x <= n; x++)
        b->prime[x] = 1;
    for (long x = 2; x * x <= n; x++)
        if (b->prime[x])
            for (long y = x * x; y <= n; y += x)
                b->prime[y] = 0;
    return 0;
}

/* Trial division for a number past the sieve, so 9 is "not a prime" on any
 * bar; past 10^12 it is merely too large, whatever it is. */
static bool odd_prime_or_huge(long p)
{
    if (p > 1000000000000L)
        return true;
    if (p % 2 == 0)
        return p == 2;
    for (long d = 3; d * d <= p; d += 2)
        if (p % d == 0)
            return false;
    return true;
}

/* Distinct primes, each at most the side (a larger square never fits). */
static int read_primes(bar *b, const json_t *v, gj_error *e)
{
    b->used = calloc((size_t)b->n + 1, 1);
    if (b->used == NULL)
        return gj_fail_nomem(e);
    if (v == NULL)
        return 0;
    if (jin_array(v, "primes_used", -1, 0, (size_t)-1, e) != 0)
        return -1;
    for (size_t k = 0; k < json_array_size(v); k++) {
        long p;
        char field[48];
        jin_field_name(field, sizeof field, "primes_used", (long)k, -1);
        if (jin_long(json_array_get(v, k), "primes_used", (long)k, -1, LONG_MIN, LONG_MAX, &p, e) !=
            0)
            return -1;
        if (p < 2 || (p <= b->n ? !b->prime[p] : !odd_prime_or_huge(p)))
            return gj_fail_field(e, field, "%ld is not a prime", p);
        if (p > b->n)
            return gj_fail_field(e, field,
                                 "%ld is larger than the bar's side %ld: no %ld x %ld square "
                                 "ever fits",
                                 p, b->n, p, p);
        if (b->used[p]) {
            size_t first = 0;
            while (json_integer_value(json_array_get(v, first)) != p)
                first++;
            return gj_fail_field(e, field, "%ld is listed twice (also primes_used[%zu])", p, first);
        }
        b->used[p] = 1;
    }
    return 0;
}

/* The optional "to_move" (RUBY when absent) into *to_move: 0, or -1 with *e. */
static int read_to_move(const json_t *v, const char **to_move, gj_error *e)
{
    static const char *const names[2] = {"RUBY", "DIA"};
    int k;
    if (analysis_to_move(v, names, false, 0, &k, e) != 0)
        return -1;
    *to_move = names[k];
    return 0;
}

/* The optional "chocolate_left" (a whole "after" carries it): the grid
 * decides it, so it must be the grid's count of chocolate cells.  0, or -1
 * with *e. */
static int check_left(const bar *b, const json_t *v, gj_error *e)
{
    long long left = 0;
    for (long c = 0; c < b->n * b->n; c++)
        left += b->cell[c] != 0;
    if (v == NULL || (json_is_integer(v) && json_integer_value(v) == left))
        return 0;
    return gj_fail_field(e, "chocolate_left", "must be the grid's count of chocolate cells, %lld",
                         left);
}

/* ---- precomputation ----------------------------------------------------- */

/* Room for count ints, or NULL. */
static int *ints(long count)
{
    return malloc((size_t)count * sizeof(int));
}

/* The allowed square sides (1, and the primes not yet used) and their counts: 0, or -1. */
static int list_sides(bar *b)
{
    long n = b->n;
    b->two_free = !b->used[2 <= n ? 2 : 0];
    b->avail = calloc((size_t)n + 1, 1);
    b->cnt_all = ints(n + 1);
    b->cnt_odd = ints(n + 1);
    b->sides = ints(n + 1);
    b->odd = ints(n + 1);
    if (b->avail == NULL || b->cnt_all == NULL || b->cnt_odd == NULL || b->sides == NULL ||
        b->odd == NULL)
        return -1;
    int all = 0, odd = 0;
    b->cnt_all[0] = b->cnt_odd[0] = 0;
    for (long s = 1; s <= n; s++) {
        b->avail[s] = s == 1 || (b->prime[s] && !b->used[s]);
        if (b->avail[s]) {
            b->sides[all++] = (int)s;
            if (s % 2)
                b->odd[odd++] = (int)s;
        }
        b->cnt_all[s] = all;
        b->cnt_odd[s] = odd;
    }
    return 0;
}

/* big[] by the bottom-up DP; also the largest full square per top row and
 * per left column (for below[] and right[]). */
static void top_left_squares(bar *b)
{
    long n = b->n;
    for (long i = n - 1; i >= 0; i--)
        for (long j = n - 1; j >= 0; j--) {
            int m = 0;
            if (i + 1 < n && j + 1 < n) {
                m = b->big[(i + 1) * n + j];
                if (b->big[i * n + j + 1] < m)
                    m = b->big[i * n + j + 1];
                if (b->big[(i + 1) * n + j + 1] < m)
                    m = b->big[(i + 1) * n + j + 1];
            }
            int side = b->cell[i * n + j] ? m + 1 : 0;
            b->big[i * n + j] = (uint16_t)side;
            if (side > b->below[i])
                b->below[i] = side;
            if (side > b->right[j])
                b->right[j] = side;
        }
}

/* The top-down DP (squares by bottom-right corner) over two rows, for the
 * largest full square per bottom row and per right column. */
static void bottom_right_squares(bar *b)
{
    long n = b->n;
    int *up = b->scratch, *here = b->scratch + n + 1;
    memset(up, 0, (size_t)(n + 1) * sizeof *up);
    here[0] = 0;
    for (long i = 0; i < n; i++) {
        for (long j = 0; j < n; j++) {
            int m = up[j] < up[j + 1] ? up[j] : up[j + 1];
            m = here[j] < m ? here[j] : m;
            int side = b->cell[i * n + j] ? m + 1 : 0;
            here[j + 1] = side;
            if (side > b->above[i + 1])
                b->above[i + 1] = side;
            if (side > b->left[j + 1])
                b->left[j + 1] = side;
        }
        int *t = up;
        up = here;
        here = t;
    }
}

/* Until here above[k+1] holds the best square with bottom row k (and
 * below[k] the best with top row k); turn them into "within rows < k" and
 * "within rows >= k". */
static void spread(int *before, int *from, long n)
{
    before[0] = 0;
    for (long k = 1; k <= n; k++)
        if (before[k - 1] > before[k])
            before[k] = before[k - 1];
    from[n] = 0;
    for (long k = n - 1; k >= 0; k--)
        if (from[k + 1] > from[k])
            from[k] = from[k + 1];
}

/* The eight prefix and suffix tables of an axis: 0, or -1 when out of memory. */
static int alloc_axis(axis *a, long n)
{
    int **all[] = {&a->pre_own_lo, &a->pre_own_hi, &a->pre_other_lo, &a->pre_other_hi,
                   &a->suf_own_lo, &a->suf_own_hi, &a->suf_other_lo, &a->suf_other_hi};
    for (size_t k = 0; k < sizeof all / sizeof all[0]; k++)
        if ((*all[k] = ints(n + 1)) == NULL)
            return -1;
    return 0;
}

/* Free what alloc_axis allocated (any of it may be NULL). */
static void free_axis(axis *a)
{
    free(a->pre_own_lo);
    free(a->pre_own_hi);
    free(a->pre_other_lo);
    free(a->pre_other_hi);
    free(a->suf_own_lo);
    free(a->suf_own_hi);
    free(a->suf_other_lo);
    free(a->suf_other_hi);
}

/* The smaller of a and b. */
static int min_int(int a, int b)
{
    return a < b ? a : b;
}

/* The larger of a and b. */
static int max_int(int a, int b)
{
    return a > b ? a : b;
}

/* On entry pre_other_lo[k]/pre_other_hi[k] hold the extremes of the other
 * coordinate among blocks at own coordinate k (NONE when none); build the
 * prefix and suffix tables from them. */
static void accumulate(axis *a, long n)
{
    int *lo = a->suf_other_lo, *hi = a->suf_other_hi; /* the per-line values, kept */
    memcpy(lo, a->pre_other_lo, (size_t)(n + 1) * sizeof *lo);
    memcpy(hi, a->pre_other_hi, (size_t)(n + 1) * sizeof *hi);
    int own_lo = NONE_LO, own_hi = NONE_HI, other_lo = NONE_LO, other_hi = NONE_HI;
    for (long k = 0; k <= n; k++) {
        a->pre_own_lo[k] = own_lo;
        a->pre_own_hi[k] = own_hi;
        a->pre_other_lo[k] = other_lo;
        a->pre_other_hi[k] = other_hi;
        if (k < n && lo[k] != NONE_LO) {
            own_lo = min_int(own_lo, (int)k);
            own_hi = (int)k;
            other_lo = min_int(other_lo, lo[k]);
            other_hi = max_int(other_hi, hi[k]);
        }
    }
    own_lo = NONE_LO, own_hi = NONE_HI, other_lo = NONE_LO, other_hi = NONE_HI;
    for (long k = n; k >= 0; k--) {
        if (k < n && lo[k] != NONE_LO) {
            own_lo = (int)k;
            own_hi = max_int(own_hi, (int)k);
            other_lo = min_int(other_lo, lo[k]);
            other_hi = max_int(other_hi, hi[k]);
        }
        a->suf_own_lo[k] = own_lo;
        a->suf_own_hi[k] = own_hi;
        lo[k] = other_lo; /* lo[k] is read above before being overwritten here */
        hi[k] = other_hi;
    }
}

/* Find every full 2 x 2 block; fill the axis tables and the overall box. */
static void find_blocks(bar *b)
{
    long n = b->n;
    for (long k = 0; k <= n; k++) {
        b->rows.pre_other_lo[k] = b->cols.pre_other_lo[k] = NONE_LO;
        b->rows.pre_other_hi[k] = b->cols.pre_other_hi[k] = NONE_HI;
    }
    for (long r = 0; r + 1 < n; r++)
        for (long q = 0; q + 1 < n; q++) {
            if (b->big[r * n + q] < 2)
                continue;
            b->rows.pre_other_lo[r] = min_int(b->rows.pre_other_lo[r], (int)q);
            b->rows.pre_other_hi[r] = max_int(b->rows.pre_other_hi[r], (int)q);
            b->cols.pre_other_lo[q] = min_int(b->cols.pre_other_lo[q], (int)r);
            b->cols.pre_other_hi[q] = max_int(b->cols.pre_other_hi[q], (int)r);
        }
    accumulate(&b->rows, n);
    accumulate(&b->cols, n);
    b->all.r1 = b->rows.suf_own_lo[0];
    b->all.r2 = b->rows.suf_own_hi[0];
    b->all.c1 = b->rows.suf_other_lo[0];
    b->all.c2 = b->rows.suf_other_hi[0];
    b->any_block = b->all.r2 >= 0;
}

/* Every table the move survey needs: 0, or -1 when out of memory. */
static int prepare(bar *b)
{
    long n = b->n;
    if (list_sides(b) != 0)
        return -1;
    b->big = malloc((size_t)n * (size_t)n * sizeof *b->big);
    b->above = calloc((size_t)n + 1, sizeof(int));
    b->below = calloc((size_t)n + 1, sizeof(int));
    b->left = calloc((size_t)n + 1, sizeof(int));
    b->right = calloc((size_t)n + 1, sizeof(int));
    b->scratch = ints(2 * (n + 1));
    if (b->big == NULL || b->above == NULL || b->below == NULL || b->left == NULL ||
        b->right == NULL || b->scratch == NULL || alloc_axis(&b->rows, n) != 0 ||
        alloc_axis(&b->cols, n) != 0)
        return -1;
    b->chocolate = 0;
    for (long c = 0; c < n * n; c++)
        b->chocolate += b->cell[c];
    top_left_squares(b);
    bottom_right_squares(b);
    spread(b->above, b->below, n);
    spread(b->left, b->right, n);
    find_blocks(b);
    return 0;
}

/* Free the tables prepare made (any may be NULL), keeping the bar itself,
 * so that a played bar can be prepared again. */
static void unprepare(bar *b)
{
    free(b->avail);
    free(b->cnt_all);
    free(b->cnt_odd);
    free(b->sides);
    free(b->odd);
    free(b->big);
    free(b->above);
    free(b->below);
    free(b->left);
    free(b->right);
    free(b->scratch);
    free_axis(&b->rows);
    free_axis(&b->cols);
    b->avail = NULL;
    b->cnt_all = b->cnt_odd = b->sides = b->odd = NULL;
    b->big = NULL;
    b->above = b->below = b->left = b->right = b->scratch = NULL;
    memset(&b->rows, 0, sizeof b->rows);
    memset(&b->cols, 0, sizeof b->cols);
}

/* Free the bar and every table prepare made. */
static void release(bar *b)
{
    unprepare(b);
    free(b->cell);
    free(b->prime);
    free(b->used);
}

/* ---- deciding moves --------------------------------------------------- */

/* Blocks of own coordinate < lo or >= hi on axis a, merged into *x (in the
 * axis's own orientation: own = first pair). */
static void merge_outside(const axis *a, long lo, long hi, int *own_lo, int *own_hi, int *other_lo,
                          int *other_hi)
{
    if (lo > 0) {
        *own_lo = min_int(*own_lo, a->pre_own_lo[lo]);
        *own_hi = max_int(*own_hi, a->pre_own_hi[lo]);
        *other_lo = min_int(*other_lo, a->pre_other_lo[lo]);
        *other_hi = max_int(*other_hi, a->pre_other_hi[lo]);
    }
    *own_lo = min_int(*own_lo, a->suf_own_lo[hi]);
    *own_hi = max_int(*own_hi, a->suf_own_hi[hi]);
    *other_lo = min_int(*other_lo, a->suf_other_lo[hi]);
    *other_hi = max_int(*other_hi, a->suf_other_hi[hi]);
}

/* The box of the blocks the square (i, j, s) does not touch: corners with
 * row outside i-1..i+s-1 or column outside j-1..j+s-1. */
static box survivors(const bar *b, long i, long j, long s)
{
    box x = {NONE_LO, NONE_HI, NONE_LO, NONE_HI};
    merge_outside(&b->rows, i - 1, i + s, &x.r1, &x.r2, &x.c1, &x.c2);
    merge_outside(&b->cols, j - 1, j + s, &x.c1, &x.c2, &x.r1, &x.r2);
    return x;
}

/* Whether the box holds no corner. */
static bool box_empty(box x)
{
    return x.r1 > x.r2;
}

/* The side of the largest full square disjoint from the square (i, j, s). */
static int room_beside(const bar *b, long i, long j, long s)
{
    return max_int(max_int(b->above[i], b->below[i + s]), max_int(b->left[j], b->right[j + s]));
}

/* Is there an odd move, legal after the square (i, j, s) is eaten, that
 * touches every block of the box x?  See the opening comment for why only
 * sides within 2 of the box's and corners within 2 of its edges matter. */
static int partner(const bar *b, long i, long j, long s, box x)
{
    int h = x.r2 - x.r1, w = x.c2 - x.c1;
    int lo = max_int(1, max_int(h, w)), hi = min_int(min_int(h, w) + 2, room_beside(b, i, j, s));
    long n = b->n;
    for (int t = lo; t <= hi; t++) {
        if (t % 2 == 0 || !b->avail[t] || (t == s && t != 1))
            continue;
        for (long r = max_int(0, x.r2 - t + 1); r <= x.r1 + 1 && r + t <= n; r++)
            for (long q = max_int(0, x.c2 - t + 1); q <= x.c1 + 1 && q + t <= n; q++) {
                if (b->big[r * n + q] < t)
                    continue;
                if (r + t <= i || r >= i + s || q + t <= j || q >= j + s)
                    return 1;
            }
    }
    return 0;
}

/* The mover's outcome for the square (i, j, s), all chocolate and legal. */
static int move_wins(const bar *b, long i, long j, long s)
{
    int odd_left = b->chocolate % 2 == 1;
    if (s == 2)
        return !odd_left;
    if (!b->two_free)
        return odd_left;
    box x = survivors(b, i, j, s);
    if (odd_left)
        return box_empty(x);
    return !box_empty(x) && !partner(b, i, j, s, x);
}

/* Smallest side from (i, j) whose square touches every block (n+1 when no
 * side does). */
static long clearing_side(const bar *b, long i, long j)
{
    if (!b->any_block)
        return 1;
    if (i > b->all.r1 + 1 || j > b->all.c1 + 1)
        return b->n + 1;
    return max_int(1, max_int(b->all.r2 - (int)i + 1, b->all.c2 - (int)j + 1));
}

/* Winning moves with top-left (i, j), for side `top` = big[i][j] > 0. */
static long corner_wins(const bar *b, long i, long j, int top)
{
    int odd_left = b->chocolate % 2 == 1;
    if (!b->two_free)
        return odd_left ? b->cnt_all[top] : 0;
    long clear = clearing_side(b, i, j);
    if (odd_left) /* the odd sides that touch every block */
        return clear <= top ? b->cnt_odd[top] - b->cnt_odd[clear - 1] : 0;
    long wins = top >= 2 ? 1 : 0; /* the 2 x 2 move (2 is free) */
    if (!b->any_block)
        return wins;
    /* Odd sides below `clear` leave a block; they win unless a partner fits. */
    int k = b->cnt_odd[clear - 1 < top ? clear - 1 : top];
    if (k == 0)
        return wins;
    int room = room_beside(b, i, j, 1);
    box x = survivors(b, i, j, b->odd[k - 1]);
    if (max_int(x.r2 - x.r1, x.c2 - x.c1) > room)
        return wins + k;
    int lo = 0, hi = k - 1; /* first side whose survivors fit in `room` */
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        x = survivors(b, i, j, b->odd[mid]);
        if (max_int(x.r2 - x.r1, x.c2 - x.c1) > room)
            lo = mid + 1;
        else
            hi = mid;
    }
    wins += lo;
    for (int t = lo; t < k; t++)
        wins += move_wins(b, i, j, b->odd[t]);
    return wins;
}

/* ---- listing ---------------------------------------------------------- */

/* List the move of side s at (i, j) under its outcome, while that list has room. */
static void keep(lists *l, int win, long i, long j, int s)
{
    entry *to = win ? l->win : l->lose;
    long *count = win ? &l->nwin : &l->nlose;
    if (*count >= l->cap)
        return;
    to[*count].row = (int)i;
    to[*count].col = (int)j;
    to[*count].size = s;
    (*count)++;
}

/* Every move of the corner, larger squares first, into the lists. */
static void list_corner(const bar *b, lists *l, long i, long j, int top)
{
    for (int k = b->cnt_all[top] - 1; k >= 0; k--) {
        int s = b->sides[k];
        keep(l, move_wins(b, i, j, s), i, j, s);
    }
}

/* Count every move and keep the first l->cap of each outcome. */
static void survey_moves(const bar *b, lists *l, analysis_counts *c)
{
    long n = b->n;
    c->moves_total = c->winning_moves = 0;
    for (long i = 0; i < n; i++)
        for (long j = 0; j < n; j++) {
            int top = b->big[i * n + j];
            if (top == 0)
                continue;
            long all = b->cnt_all[top], wins = corner_wins(b, i, j, top);
            c->moves_total += all;
            c->winning_moves += wins;
            int want_win = wins > 0 && l->nwin < l->cap;
            int want_lose = wins < all && l->nlose < l->cap && l->nwin < l->cap;
            if (want_win || want_lose)
                list_corner(b, l, i, j, top);
        }
}

/* Whether the player to move wins, from the counts survey_moves made. */
static int value(const bar *b, const analysis_counts *c)
{
    int odd_left = b->chocolate % 2 == 1;
    if (!b->two_free || !odd_left)
        return b->two_free ? b->any_block : odd_left;
    return c->winning_moves > 0;
}

/* The moves of the ranking without remoteness when only its first is
 * wanted (the line's call at every move): the first winning move in the
 * list's order, else the first move, found without counting the rest.
 * Where parity settles the value (2 used, or an even count) a lost bar
 * stops at its first corner.  *m and *wins (the position's value); 1, or
 * 0 when the game is over. */
static int first_move(const bar *b, entry *m, int *wins)
{
    long n = b->n, fi = -1, fj = -1;
    int odd_left = b->chocolate % 2 == 1, known = !b->two_free || !odd_left;
    int lost = known && !(b->two_free ? b->any_block : odd_left);
    for (long i = 0; i < n; i++)
        for (long j = 0; j < n; j++) {
            int top = b->big[i * n + j];
            if (top == 0)
                continue;
            if (fi < 0) {
                fi = i;
                fj = j;
            }
            if (lost)
                goto none;
            if (corner_wins(b, i, j, top) == 0)
                continue;
            for (int k = b->cnt_all[top] - 1; k >= 0; k--)
                if (move_wins(b, i, j, b->sides[k])) {
                    *m = (entry){(int)i, (int)j, b->sides[k]};
                    *wins = 1;
                    return 1;
                }
        }
none:
    *wins = 0;
    if (fi < 0)
        return 0;
    int top = b->big[fi * n + fj];
    *m = (entry){(int)fi, (int)fj, b->sides[b->cnt_all[top] - 1]};
    return 1;
}

/* A move as the list gives it: the square, its outcome, the remoteness
 * after it (ANALYSIS_REMOTENESS_NULL when unknown). */
typedef struct ranked {
    entry m;
    int wins;
    long long rem;
} ranked;

/* The ranking with remoteness known: by remoteness (analysis.h), then the
 * top-left cell row-major, larger squares first. */
static int far_cmp(const void *pa, const void *pb)
{
    const ranked *a = pa, *b = pb;
    int by = analysis_rank_remoteness(a->wins, a->rem, b->wins, b->rem);
    if (by != 0)
        return by;
    if (a->m.row != b->m.row)
        return a->m.row < b->m.row ? -1 : 1;
    if (a->m.col != b->m.col)
        return a->m.col < b->m.col ? -1 : 1;
    return b->m.size - a->m.size;
}

/* The value after the move m from the search f, as an entry holds it:
 * 0, or -1 with *e (a move past the bound is the analysis' own fault). */
static int far_entry(pc_far *f, ranked *x, gj_error *e)
{
    long long v = pc_far_after(f, x->m.row, x->m.col, x->m.size, e);
    if (v < 0)
        return v == PC_FAR_PAST ? gj_fail(e, GJ_INTERNAL, "prime-chocolate: a move past the bound")
                                : -1;
    x->wins = v % 2 == 0;
    x->rem = v / 2;
    return 0;
}

/* The first c->listed moves by far_cmp, every move valued by the search f,
 * into top; the counts must be the survey's.  0, or -1 with *e. */
static int far_moves(const bar *b, pc_far *f, const analysis_counts *c, analysis_top *top,
                     gj_error *e)
{
    long n = b->n;
    long long moves = 0, wins = 0;
    if (analysis_top_init(top, c->listed, sizeof(ranked), far_cmp, e) != 0)
        return -1;
    for (long i = 0; i < n; i++)
        for (long j = 0; j < n; j++) {
            int most = b->big[i * n + j];
            for (int k = most > 0 ? b->cnt_all[most] - 1 : -1; k >= 0; k--) {
                ranked x = {{(int)i, (int)j, b->sides[k]}, 0, 0};
                if (far_entry(f, &x, e) != 0)
                    return -1;
                moves++;
                wins += x.wins;
                analysis_top_offer(top, &x);
            }
        }
    if (moves != c->moves_total || wins != c->winning_moves)
        return gj_fail(e, GJ_INTERNAL,
                       "prime-chocolate: the search finds %lld moves, %lld winning; the survey "
                       "%lld, %lld",
                       moves, wins, c->moves_total, c->winning_moves);
    analysis_top_finish(top);
    return 0;
}

/* ---- the parsed position (game.h's gj_play) --------------------------- */

/* The request's position members, for writing them back in its order. */
enum { MEMBER_GRID, MEMBER_PRIMES, MEMBER_TO_MOVE, MEMBER_LEFT, MEMBERS };

static const char *const member_name[MEMBERS] = {"grid", "primes_used", "to_move",
                                                 "chocolate_left"};
static const char *const mover_name[2] = {"RUBY", "DIA"};

/* A bar in play: the bar as the moves played left it, its tables while
 * they are current, the search once asked, and what writing the request's
 * members back needs (their order, and their spelling until a move
 * rewrites them as play_move does). */
typedef struct pc_play {
    bar b;        /* cell, prime, used; the tables while `prepared` */
    int prepared; /* b's tables are the bar's as it is now */
    int searched; /* far and far_value are the bar's as it is now */
    pc_far *far;  /* the remoteness search, or NULL when past its bounds */
    long long far_value;
    long long left; /* chocolate squares */
    int mover;      /* 0 RUBY, 1 DIA */
    long max_moves;
    int order[MEMBERS]; /* the members present, in the request's order, then those moves added */
    int norder;
    int played;      /* a move was played: the members are written as play_move writes them */
    char *grid_text; /* the request's grid, compact, while it spells a cell with the en dash */
    size_t grid_len;
    long *given; /* the request's primes_used, in its order */
    long ngiven;
} pc_play;

/* The tables and the search for the bar as it is now, made once per
 * position: 0, or -1 with *e. */
static int ready(pc_play *p, gj_error *e)
{
    if (!p->prepared) {
        if (prepare(&p->b) != 0) {
            unprepare(&p->b);
            return gj_fail_nomem(e);
        }
        p->prepared = 1;
    }
    if (!p->searched) {
        /* Past its depth with a prime square still allowed and fitting
         * (below[0] is the largest full square) the search is past its
         * bounds (prime_chocolate_far.c): known without its O(n^2) set-up,
         * which a line on a large bar would pay at every move. */
        pc_far *far = NULL;
        long long v = PC_FAR_PAST;
        if (p->left <= ANALYSIS_REMOTENESS_DEPTH || p->b.cnt_all[p->b.below[0]] <= 1) {
            /* The search sees the bar as it is (prepare() keeps it). */
            far = pc_far_new(p->b.cell, p->b.n, p->b.used, e);
            v = far == NULL ? -1 : pc_far_value(far, e);
        }
        if (v == -1) {
            pc_far_free(far);
            return -1;
        }
        if (v == PC_FAR_PAST) {
            pc_far_free(far);
            far = NULL;
        }
        p->far = far;
        p->far_value = v;
        p->searched = 1;
    }
    return 0;
}

/* A ranking of the position: its value, remoteness and counts, and its
 * first c.listed moves. */
typedef struct ranking {
    analysis_counts c;
    int wins;
    long long rem;
    ranked *move;     /* c.listed moves: top's items, or own */
    analysis_top top; /* with remoteness known */
    ranked *own;      /* without */
} ranking;

/* Free what rank_bar made. */
static void ranking_free(ranking *r)
{
    analysis_top_free(&r->top);
    free(r->own);
}

/* The first `cap` moves of the ranking and the head into *r, exactly as
 * analyze() lists them with max_moves = cap; counted = 0 lets the first
 * move alone (cap 1) skip the counts (r->c is then left 0).  0, or -1
 * with *e; r needs ranking_free either way. */
static int rank_bar(pc_play *p, long cap, int counted, ranking *r, gj_error *e)
{
    bar *b = &p->b;
    memset(r, 0, sizeof *r);
    if (ready(p, e) != 0)
        return -1;
    r->rem = p->far != NULL ? p->far_value / 2 : ANALYSIS_REMOTENESS_NULL;
    if (p->far == NULL && cap == 1 && !counted) {
        r->own = malloc(sizeof *r->own);
        if (r->own == NULL)
            return gj_fail_nomem(e);
        r->move = r->own;
        r->c.listed = first_move(b, &r->own->m, &r->wins);
        r->own->wins =
            r->c.listed > 0 && move_wins(b, r->own->m.row, r->own->m.col, r->own->m.size);
        r->own->rem = ANALYSIS_REMOTENESS_NULL;
        return 0;
    }
    lists l = {0};
    l.cap = p->far != NULL ? 0 : cap; /* with remoteness known the search lists */
    l.win = malloc(((size_t)l.cap + 1) * sizeof *l.win);
    l.lose = malloc(((size_t)l.cap + 1) * sizeof *l.lose);
    int rc = -1;
    if (l.win == NULL || l.lose == NULL) {
        gj_fail_nomem(e);
        goto done;
    }
    survey_moves(b, &l, &r->c);
    r->wins = value(b, &r->c);
    if (p->far != NULL) {
        if (p->far_value % 2 != r->wins) {
            gj_fail(e, GJ_INTERNAL, "prime-chocolate: the search and the parity disagree");
            goto done;
        }
        r->c.listed = r->c.moves_total < cap ? (long)r->c.moves_total : cap;
        if (far_moves(b, p->far, &r->c, &r->top, e) != 0)
            goto done;
        r->move = (ranked *)r->top.item;
        rc = 0;
        goto done;
    }
    long nwin = l.nwin, nlose = cap - nwin < l.nlose ? cap - nwin : l.nlose;
    r->c.listed = nwin + nlose;
    r->own = malloc(((size_t)r->c.listed + 1) * sizeof *r->own);
    if (r->own == NULL) {
        gj_fail_nomem(e);
        goto done;
    }
    for (long k = 0; k < r->c.listed; k++) {
        r->own[k].m = k < nwin ? l.win[k] : l.lose[k - nwin];
        r->own[k].wins = k < nwin;
        r->own[k].rem = ANALYSIS_REMOTENESS_NULL;
    }
    r->move = r->own;
    rc = 0;
done:
    free(l.win);
    free(l.lose);
    return rc;
}

/* An entry's members up to the value of "after": the move, its outcome
 * and the remoteness after it. */
static void put_entry_head(gj_buf *out, const ranked *x)
{
    buf_puts(out, "\"move\":{\"row\":");
    buf_put_long(out, x->m.row + 1);
    buf_puts(out, ",\"col\":");
    buf_put_long(out, x->m.col + 1);
    buf_puts(out, ",\"size\":");
    buf_put_long(out, x->m.size);
    buf_puts(out, "},\"outcome\":\"");
    buf_puts(out, analysis_outcome(x->wins));
    buf_putc(out, '"');
    analysis_put_remoteness(out, x->rem);
    buf_puts(out, ",\"after\":");
}

/* The primes used once a square of side `size` is eaten (size 1: as
 * now), ascending, as a JSON array. */
static void put_primes(gj_buf *out, const bar *b, long size)
{
    int first = 1;
    buf_putc(out, '[');
    for (long p = 2; p <= b->n; p++)
        if (b->used[p] || p == size) {
            if (!first)
                buf_putc(out, ',');
            buf_put_long(out, p);
            first = 0;
        }
    buf_putc(out, ']');
}

/* The diff of the move m: what it changes, with sorted keys. */
static void put_diff(gj_buf *out, const pc_play *p, const entry *m)
{
    buf_puts(out, "{\"chocolate_left\":");
    buf_put_long(out, p->left - (long long)m->size * m->size);
    buf_puts(out, ",\"primes_used\":");
    put_primes(out, &p->b, m->size);
    buf_puts(out, ",\"to_move\":\"");
    buf_puts(out, mover_name[!p->mover]);
    buf_puts(out, "\"}");
}

/* The grid as play_move writes it ('-' and 'X', compact), with the square
 * m eaten (m NULL: none). */
static void put_grid(gj_buf *out, const bar *b, const entry *m)
{
    long n = b->n;
    if (buf_reserve(out, (size_t)n * ((size_t)n + 3) + 2) != 0)
        return;
    char *to = out->data + out->len;
    *to++ = '[';
    for (long i = 0; i < n; i++) {
        if (i > 0)
            *to++ = ',';
        *to++ = '"';
        const unsigned char *row = b->cell + i * n;
        for (long j = 0; j < n; j++)
            to[j] = row[j] ? '-' : 'X';
        if (m != NULL && i >= m->row && i < m->row + m->size)
            memset(to + m->col, 'X', (size_t)m->size);
        to += n;
        *to++ = '"';
    }
    *to++ = ']';
    out->len = (size_t)(to - out->data);
}

/* One member, `"name":value`, of the position, or (m != NULL) of the
 * position the move m leads to, as play_move writes it. */
static void put_member(gj_buf *out, const pc_play *p, int member, const entry *m)
{
    buf_putc(out, '"');
    buf_puts(out, member_name[member]);
    buf_puts(out, "\":");
    if (member == MEMBER_GRID) {
        if (m == NULL && !p->played && p->grid_text != NULL)
            buf_append(out, p->grid_text, p->grid_len);
        else
            put_grid(out, &p->b, m);
    } else if (member == MEMBER_PRIMES) {
        if (m != NULL || p->played) {
            put_primes(out, &p->b, m != NULL ? m->size : 1);
            return;
        }
        buf_putc(out, '[');
        for (long k = 0; k < p->ngiven; k++) {
            if (k > 0)
                buf_putc(out, ',');
            buf_put_long(out, p->given[k]);
        }
        buf_putc(out, ']');
    } else if (member == MEMBER_TO_MOVE) {
        buf_putc(out, '"');
        buf_puts(out, mover_name[m != NULL ? !p->mover : p->mover]);
        buf_putc(out, '"');
    } else {
        buf_put_long(out, p->left - (m != NULL ? (long long)m->size * m->size : 0));
    }
}

/* Whether the position holds the member. */
static int has_member(const pc_play *p, int member)
{
    for (int k = 0; k < p->norder; k++)
        if (p->order[k] == member)
            return 1;
    return 0;
}

/* The whole position the move m leads to, as after.c writes it from
 * play_move's request: the members in the position's order, those
 * play_move adds (primes_used, to_move), then the diff's the request lacks
 * (chocolate_left). */
static void put_whole(gj_buf *out, const pc_play *p, const entry *m)
{
    static const int added[] = {MEMBER_PRIMES, MEMBER_TO_MOVE, MEMBER_LEFT};
    buf_putc(out, '{');
    for (int k = 0; k < p->norder; k++) {
        if (k > 0)
            buf_putc(out, ',');
        put_member(out, p, p->order[k], m);
    }
    for (size_t k = 0; k < sizeof added / sizeof added[0]; k++)
        if (!has_member(p, added[k])) {
            buf_putc(out, ',');
            put_member(out, p, added[k], m);
        }
    buf_putc(out, '}');
}

/* The legal move of side s with top-left (i, j), 0-based: all chocolate,
 * inside the bar, of side 1 or a prime still free. */
static int legal(const pc_play *p, long i, long j, long s)
{
    const bar *b = &p->b;
    long n = b->n;
    if (i < 0 || j < 0 || s < 1 || s > n || i > n - s || j > n - s)
        return 0;
    if (s > 1 && (!b->prime[s] || b->used[s]))
        return 0;
    for (long a = i; a < i + s; a++)
        if (memchr(b->cell + a * n + j, 0, (size_t)s) != NULL)
            return 0;
    return 1;
}

/* A move's id: its square, which stays meaningful on a clone. */
static uint64_t move_id(const entry *m)
{
    return (uint64_t)m->row << 32 | (uint64_t)m->col << 16 | (uint64_t)m->size;
}

/* The square of a move's id. */
static entry move_of(uint64_t id)
{
    return (entry){(int)(id >> 32), (int)(id >> 16 & 0xffff), (int)(id & 0xffff)};
}

/* game.h's gj_play.free. */
static void play_free(void *v)
{
    pc_play *p = v;
    if (p == NULL)
        return;
    release(&p->b);
    pc_far_free(p->far);
    free(p->grid_text);
    free(p->given);
    free(p);
}

/* The request's grid compact into p->grid_text when a row spells chocolate
 * with the en dash (play_move's grid never does): 0, or -1 when out of
 * memory. */
static int keep_grid_text(pc_play *p, const json_t *grid)
{
    size_t bytes = 2;
    int dash = 0;
    for (size_t i = 0; i < json_array_size(grid); i++) {
        const json_t *row = json_array_get(grid, i);
        bytes += json_string_length(row) + 3;
        dash |= memchr(json_string_value(row), 0xe2, json_string_length(row)) != NULL;
    }
    if (!dash)
        return 0;
    gj_buf t;
    buf_init(&t);
    buf_reserve(&t, bytes);
    buf_putc(&t, '[');
    for (size_t i = 0; i < json_array_size(grid); i++) {
        const json_t *row = json_array_get(grid, i);
        buf_puts(&t, i > 0 ? ",\"" : "\"");
        /* Rows hold '-', 'X' and the en dash only, which JSON writes as they are. */
        buf_append(&t, json_string_value(row), json_string_length(row));
        buf_putc(&t, '"');
    }
    buf_putc(&t, ']');
    if (t.failed) {
        buf_free(&t);
        return -1;
    }
    p->grid_text = buf_take(&t, &p->grid_len);
    return 0;
}

/* What writing the members back needs from the request: their order, the
 * primes as listed, the grid's spelling.  0, or -1 when out of memory. */
static int keep_members(pc_play *p, const json_t *req)
{
    const char *key;
    json_t *v;
    json_object_foreach((json_t *)req, key, v)
    {
        for (int m = 0; m < MEMBERS; m++)
            if (strcmp(key, member_name[m]) == 0)
                p->order[p->norder++] = m;
    }
    const json_t *primes = json_object_get(req, "primes_used");
    p->ngiven = (long)json_array_size(primes);
    p->given = malloc(((size_t)p->ngiven + 1) * sizeof *p->given);
    if (p->given == NULL)
        return -1;
    for (long k = 0; k < p->ngiven; k++)
        p->given[k] = (long)json_integer_value(json_array_get(primes, (size_t)k));
    return keep_grid_text(p, json_object_get(req, "grid"));
}

/* game.h's gj_play.parse: the request read with analyze()'s checks. */
static void *play_parse(const json_t *req, const long *limits, gj_error *e)
{
    pc_play *p = calloc(1, sizeof *p);
    if (p == NULL) {
        gj_fail_nomem(e);
        return NULL;
    }
    bar *b = &p->b;
    const char *to_move;
    b->cell = pc_read_grid(json_object_get(req, "grid"), limits[0], &b->n, e);
    if (b->cell == NULL)
        goto fail;
    if (mark_primes(b) != 0) {
        gj_fail_nomem(e);
        goto fail;
    }
    if (read_primes(b, json_object_get(req, "primes_used"), e) != 0 ||
        read_to_move(json_object_get(req, "to_move"), &to_move, e) != 0 ||
        check_left(b, json_object_get(req, "chocolate_left"), e) != 0 ||
        analysis_max_moves(req, &p->max_moves, e) != 0)
        goto fail;
    p->mover = strcmp(to_move, mover_name[0]) != 0;
    for (long c = 0; c < b->n * b->n; c++)
        p->left += b->cell[c];
    if (keep_members(p, req) != 0) {
        gj_fail_nomem(e);
        goto fail;
    }
    return p;
fail:
    play_free(p);
    return NULL;
}

/* game.h's gj_play.analyze: the answer of analysis.h from the ranking. */
static int play_analyze(void *v, gj_buf *out, gj_error *e)
{
    pc_play *p = v;
    ranking r;
    size_t mark = out->len;
    int rc = rank_bar(p, p->max_moves, 1, &r, e);
    if (rc == 0) {
        analysis_begin(out, game_prime_chocolate.name, mover_name[p->mover], r.wins, r.rem, &r.c);
        for (long k = 0; k < r.c.listed; k++) {
            analysis_move_open(out, k);
            put_entry_head(out, &r.move[k]);
            put_diff(out, p, &r.move[k].m);
            analysis_move_close(out);
        }
        analysis_end(out, r.c.listed);
    }
    ranking_free(&r);
    if (rc != 0)
        out->len = mark;
    return rc;
}

/* game.h's gj_play.rank. */
static long play_rank(void *v, long max, gj_move *moves, gj_rank_head *head, gj_error *e)
{
    pc_play *p = v;
    ranking r;
    if (rank_bar(p, max, head != NULL || max != 1, &r, e) != 0) {
        ranking_free(&r);
        return -1;
    }
    for (long k = 0; k < r.c.listed; k++) {
        moves[k].id = move_id(&r.move[k].m);
        moves[k].wins = r.move[k].wins;
        moves[k].score = 0;
        moves[k].remoteness = r.move[k].rem;
    }
    if (head != NULL) {
        head->value = r.wins;
        head->remoteness = r.rem;
        head->moves_total = r.c.moves_total;
        head->winning_moves = r.c.winning_moves;
        head->to_move = mover_name[p->mover];
        head->scored = 0;
    }
    long listed = r.c.listed;
    ranking_free(&r);
    return listed;
}

/* game.h's gj_play.write_move: the entry as analyze() writes it, its
 * outcome and remoteness found again for the move alone. */
static int play_write_move(void *v, const gj_move *gm, int whole, gj_buf *out, size_t *after_bytes,
                           gj_error *e)
{
    pc_play *p = v;
    ranked x = {move_of(gm->id), 0, ANALYSIS_REMOTENESS_NULL};
    *after_bytes = 0;
    if (!legal(p, x.m.row, x.m.col, x.m.size))
        return gj_fail(e, GJ_INTERNAL, "prime-chocolate: a move the position does not have");
    if (ready(p, e) != 0)
        return -1;
    if (p->far != NULL) {
        if (far_entry(p->far, &x, e) != 0)
            return -1;
    } else {
        x.wins = move_wins(&p->b, x.m.row, x.m.col, x.m.size);
    }
    put_entry_head(out, &x);
    if (!whole) {
        put_diff(out, p, &x.m);
    } else {
        size_t start = out->len;
        put_whole(out, p, &x.m);
        *after_bytes = out->len - start;
    }
    return out->failed ? gj_fail_nomem(e) : 0;
}

/* game.h's gj_play.play: the square eaten, its prime used, the other to
 * move; the tables and the search are the next position's to make. */
static int play_play(void *v, const gj_move *gm, gj_error *e)
{
    pc_play *p = v;
    bar *b = &p->b;
    entry m = move_of(gm->id);
    if (!legal(p, m.row, m.col, m.size))
        return gj_fail(e, GJ_INTERNAL, "prime-chocolate: a move the position does not have");
    for (long a = m.row; a < m.row + m.size; a++)
        memset(b->cell + a * b->n + m.col, 0, (size_t)m.size);
    if (m.size > 1)
        b->used[m.size] = 1;
    p->left -= (long long)m.size * m.size;
    p->mover = !p->mover;
    /* play_move sets these two, adding them when the request lacked them. */
    if (!has_member(p, MEMBER_PRIMES))
        p->order[p->norder++] = MEMBER_PRIMES;
    if (!has_member(p, MEMBER_TO_MOVE))
        p->order[p->norder++] = MEMBER_TO_MOVE;
    p->played = 1;
    free(p->grid_text);
    p->grid_text = NULL;
    unprepare(b);
    p->prepared = 0;
    pc_far_free(p->far);
    p->far = NULL;
    p->searched = 0;
    return 0;
}

/* game.h's gj_play.find: a move is an object of exactly the integers row,
 * col and size (as an entry writes it) naming a legal square. */
static int play_find(void *v, const json_t *move, gj_move *m, gj_error *e)
{
    pc_play *p = v;
    const json_t *row = json_object_get(move, "row"), *col = json_object_get(move, "col");
    const json_t *size = json_object_get(move, "size");
    (void)e;
    if (!json_is_object(move) || json_object_size(move) != 3 || !json_is_integer(row) ||
        !json_is_integer(col) || !json_is_integer(size))
        return 0;
    json_int_t i = json_integer_value(row) - 1, j = json_integer_value(col) - 1;
    json_int_t s = json_integer_value(size);
    if (i < 0 || j < 0 || s < 1 || i >= p->b.n || j >= p->b.n || s > p->b.n ||
        !legal(p, (long)i, (long)j, (long)s))
        return 0;
    entry x = {(int)i, (int)j, (int)s};
    m->id = move_id(&x);
    return 1;
}

/* A malloc'd copy of bytes, or NULL (also for NULL). */
static void *copy_of(const void *bytes, size_t len)
{
    void *to = bytes != NULL ? malloc(len > 0 ? len : 1) : NULL;
    if (to != NULL)
        memcpy(to, bytes, len);
    return to;
}

/* game.h's gj_play.clone: the bar and what writing it back needs; its
 * tables and search are made again when asked (move ids name squares, so
 * they hold on the copy). */
static void *play_clone(const void *v, gj_error *e)
{
    const pc_play *p = v;
    long n = p->b.n;
    pc_play *c = calloc(1, sizeof *c);
    if (c == NULL) {
        gj_fail_nomem(e);
        return NULL;
    }
    c->b.n = n;
    c->b.cell = copy_of(p->b.cell, (size_t)n * (size_t)n);
    c->b.prime = copy_of(p->b.prime, (size_t)n + 1);
    c->b.used = copy_of(p->b.used, (size_t)n + 1);
    c->left = p->left;
    c->mover = p->mover;
    c->max_moves = p->max_moves;
    memcpy(c->order, p->order, sizeof c->order);
    c->norder = p->norder;
    c->played = p->played;
    c->grid_len = p->grid_len;
    c->grid_text = copy_of(p->grid_text, p->grid_len);
    c->ngiven = p->ngiven;
    c->given = copy_of(p->given, ((size_t)p->ngiven + 1) * sizeof *p->given);
    if (c->b.cell == NULL || c->b.prime == NULL || c->b.used == NULL || c->given == NULL ||
        (p->grid_text != NULL && c->grid_text == NULL)) {
        play_free(c);
        gj_fail_nomem(e);
        return NULL;
    }
    return c;
}

/* game.h's gj_play.write_members: the members in the position's order, or
 * (moved) what a move changes beside the grid, sorted as a diff: within one
 * line the chocolate left falls at every move, so it alone tells its
 * positions apart. */
static void play_write_members(void *v, int moved, gj_buf *out)
{
    pc_play *p = v;
    if (moved) {
        static const int diff[] = {MEMBER_LEFT, MEMBER_PRIMES, MEMBER_TO_MOVE};
        for (size_t k = 0; k < sizeof diff / sizeof diff[0]; k++) {
            if (k > 0)
                buf_putc(out, ',');
            if (diff[k] == MEMBER_PRIMES) {
                buf_puts(out, "\"primes_used\":");
                put_primes(out, &p->b, 1);
            } else {
                put_member(out, p, diff[k], NULL);
            }
        }
        return;
    }
    for (int k = 0; k < p->norder; k++) {
        if (k > 0)
            buf_putc(out, ',');
        put_member(out, p, p->order[k], NULL);
    }
}

/* game.h's gj_play.draw. */
static int play_draw(void *v, gj_buf *out, int *width, int *height, gj_error *e)
{
    pc_play *p = v;
    return pc_draw(p->b.cell, p->b.n, p->b.used, p->left, p->mover, out, width, height, e);
}

/* The moves' squares, from their ids, into a malloc'd array: NULL with
 * *e (or for a move the position does not have). */
static pc_square *squares_of(const pc_play *p, const gj_move *moves, long n, gj_error *e)
{
    pc_square *sq = malloc((size_t)(n > 0 ? n : 1) * sizeof *sq);
    if (sq == NULL) {
        gj_fail_nomem(e);
        return NULL;
    }
    for (long k = 0; k < n; k++) {
        entry m = move_of(moves[k].id);
        if (!legal(p, m.row, m.col, m.size)) {
            free(sq);
            gj_fail(e, GJ_INTERNAL, "prime-chocolate: a move the position does not have");
            return NULL;
        }
        sq[k] = (pc_square){m.row, m.col, m.size};
    }
    return sq;
}

/* game.h's gj_play.look: the biggest bite, then the smallest biggest bite
 * left, then the least chocolate touched (prime_chocolate_puzzle.c). */
static int play_look(void *v, const gj_move *moves, long n, int plies, double *value, gj_error *e)
{
    pc_play *p = v;
    pc_square *sq = squares_of(p, moves, n, e);
    if (sq == NULL)
        return -1;
    int rc = pc_look(p->b.cell, p->b.n, p->left, sq, n, plies, value, e);
    free(sq);
    return rc;
}

/* game.h's gj_play.motifs (prime_chocolate_puzzle.c). */
static int play_motifs(void *v, const gj_move *moves, long n, unsigned *bits, gj_error *e)
{
    pc_square *sq = n >= 1 ? squares_of(v, moves, n, e) : NULL;
    if (sq == NULL)
        return n >= 1 ? -1 : gj_fail(e, GJ_INTERNAL, "prime-chocolate: motifs without moves");
    *bits = pc_motif_bits(sq, n);
    free(sq);
    return 0;
}

const gj_play prime_chocolate_play = {
    .parse = play_parse,
    .analyze = play_analyze,
    .rank = play_rank,
    .write_move = play_write_move,
    .play = play_play,
    .find = play_find,
    .clone = play_clone,
    .write_members = play_write_members,
    .free = play_free,
    .draw = play_draw,
    .look = play_look,
    .motifs = play_motifs,
};

/* ---- entry point ------------------------------------------------------ */

/* The request's members, as game.h's analyze_keys: read here and named by
 * the wrappers (line.c, engine.c) in their unknown-field messages. */
const char *const prime_chocolate_analyze_keys[] = {
    "grid", "?primes_used", "?to_move", "?chocolate_left", "?max_moves", NULL};

/* analyze() over the parsed position: parse, analyse, free. */
int prime_chocolate_analyze(const char *buf, size_t len, const long *limits, gj_buf *out,
                            gj_error *e)
{
    json_t *root = jin_load_object(buf, len, prime_chocolate_analyze_keys, e);
    if (root == NULL)
        return -1;
    void *p = play_parse(root, limits, e);
    json_decref(root);
    if (p == NULL)
        return -1;
    int rc = play_analyze(p, out, e);
    play_free(p);
    return rc;
}

/* The grid rewritten ('-' and 'X') with the move's square eaten; the
 * primes used and the player to move become the move's. */
int prime_chocolate_play_move(json_t *req, const json_t *entry, gj_error *e)
{
    const json_t *grid = json_object_get(req, "grid"), *move = json_object_get(entry, "move");
    const json_t *after = json_object_get(entry, "after");
    long n, row = (long)json_integer_value(json_object_get(move, "row")) - 1;
    long col = (long)json_integer_value(json_object_get(move, "col")) - 1;
    long size = (long)json_integer_value(json_object_get(move, "size"));
    unsigned char *cell = pc_read_grid(grid, (long)json_array_size(grid), &n, e);
    if (cell == NULL)
        return -1;
    json_t *rows = json_array();
    char *text = malloc((size_t)n + 1);
    int rc = rows == NULL || text == NULL ? gj_fail_nomem(e) : 0;
    for (long i = 0; rc == 0 && i < n; i++) {
        for (long j = 0; j < n; j++) {
            int eaten = i >= row && i < row + size && j >= col && j < col + size;
            text[j] = cell[i * n + j] && !eaten ? '-' : 'X';
        }
        text[n] = '\0';
        if (json_array_append_new(rows, json_string(text)) != 0)
            rc = gj_fail_nomem(e);
    }
    free(text);
    free(cell);
    if (rc == 0 && json_object_set_new(req, "grid", rows) != 0)
        return gj_fail_nomem(e);
    if (rc != 0) {
        json_decref(rows);
        return -1;
    }
    if (analysis_play_set(req, "primes_used", json_object_get(after, "primes_used"), e) != 0 ||
        analysis_play_set(req, "to_move", json_object_get(after, "to_move"), e) != 0)
        return -1;
    /* A chocolate_left sent along becomes the move's. */
    return analysis_play_carried(req, after, e);
}
