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
 * agree with the survey's (GJ_INTERNAL if not). */
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

/* Free the bar and every table prepare made. */
static void release(bar *b)
{
    free(b->cell);
    free(b->prime);
    free(b->used);
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

/* One list entry: the move, its outcome, the remoteness after it (or
 * ANALYSIS_REMOTENESS_NULL) and the bar after it. */
static void write_entry(const bar *b, gj_buf *out, const entry *m, int win, long long rem,
                        const char *next)
{
    buf_puts(out, "\"move\":{\"row\":");
    buf_put_long(out, m->row + 1);
    buf_puts(out, ",\"col\":");
    buf_put_long(out, m->col + 1);
    buf_puts(out, ",\"size\":");
    buf_put_long(out, m->size);
    buf_puts(out, "},\"outcome\":\"");
    buf_puts(out, analysis_outcome(win));
    buf_putc(out, '"');
    analysis_put_remoteness(out, rem);
    buf_puts(out, ",\"after\":{\"chocolate_left\":");
    buf_put_long(out, b->chocolate - (long long)m->size * m->size);
    buf_puts(out, ",\"primes_used\":[");
    int first = 1;
    for (long p = 2; p <= b->n; p++)
        if (b->used[p] || p == m->size) {
            if (!first)
                buf_putc(out, ',');
            buf_put_long(out, p);
            first = 0;
        }
    buf_puts(out, "],\"to_move\":\"");
    buf_puts(out, next);
    buf_puts(out, "\"}");
}

/* A move valued by the search. */
typedef struct far_move {
    entry m;
    int wins;
    long long rem; /* after it */
} far_move;

/* The ranking with remoteness known: by remoteness (analysis.h), then the
 * top-left cell row-major, larger squares first. */
static int far_cmp(const void *pa, const void *pb)
{
    const far_move *a = pa, *b = pb;
    int by = analysis_rank_remoteness(a->wins, a->rem, b->wins, b->rem);
    if (by != 0)
        return by;
    if (a->m.row != b->m.row)
        return a->m.row < b->m.row ? -1 : 1;
    if (a->m.col != b->m.col)
        return a->m.col < b->m.col ? -1 : 1;
    return b->m.size - a->m.size;
}

/* The first c->listed moves by far_cmp, every move valued by the search f,
 * into top; the counts must be the survey's.  0, or -1 with *e. */
static int far_moves(const bar *b, pc_far *f, const analysis_counts *c, analysis_top *top,
                     gj_error *e)
{
    long n = b->n;
    long long moves = 0, wins = 0;
    if (analysis_top_init(top, c->listed, sizeof(far_move), far_cmp, e) != 0)
        return -1;
    for (long i = 0; i < n; i++)
        for (long j = 0; j < n; j++) {
            int most = b->big[i * n + j];
            for (int k = most > 0 ? b->cnt_all[most] - 1 : -1; k >= 0; k--) {
                long long v = pc_far_after(f, i, j, b->sides[k], e);
                if (v < 0)
                    return v == PC_FAR_PAST
                               ? gj_fail(e, GJ_INTERNAL, "prime-chocolate: a move past the bound")
                               : -1;
                far_move x = {{(int)i, (int)j, b->sides[k]}, v % 2 == 0, v / 2};
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

/* The analysis (analysis.h): with remoteness known (far != NULL, value
 * v), every move by far_cmp; else every kept winning move, then losing
 * ones up to the cap.  0, or -1 with *e. */
static int write_answer(const bar *b, const lists *l, analysis_counts *c, const char *to_move,
                        pc_far *far, long long v, gj_buf *out, gj_error *e)
{
    const char *next = strcmp(to_move, "RUBY") == 0 ? "DIA" : "RUBY";
    long nwin = l->nwin, nlose = l->cap - nwin < l->nlose ? l->cap - nwin : l->nlose;
    int wins = value(b, c);
    analysis_top top = {0};
    if (far != NULL) {
        if (v % 2 != wins)
            return gj_fail(e, GJ_INTERNAL, "prime-chocolate: the search and the parity disagree");
        c->listed = c->moves_total < l->cap ? (long)c->moves_total : l->cap;
        if (far_moves(b, far, c, &top, e) != 0) {
            analysis_top_free(&top);
            return -1;
        }
    } else
        c->listed = nwin + nlose;
    analysis_begin(out, game_prime_chocolate.name, to_move, wins,
                   far != NULL ? v / 2 : ANALYSIS_REMOTENESS_NULL, c);
    const far_move *fm = (const far_move *)top.item;
    for (long k = 0; k < c->listed; k++) {
        analysis_move_open(out, k);
        if (far != NULL)
            write_entry(b, out, &fm[k].m, fm[k].wins, fm[k].rem, next);
        else if (k < nwin)
            write_entry(b, out, &l->win[k], 1, ANALYSIS_REMOTENESS_NULL, next);
        else
            write_entry(b, out, &l->lose[k - nwin], 0, ANALYSIS_REMOTENESS_NULL, next);
        analysis_move_close(out);
    }
    analysis_end(out, c->listed);
    analysis_top_free(&top);
    return 0;
}

/* ---- entry point ------------------------------------------------------ */

/* Survey and write the analysis of a prepared bar: 0, or -1 with *e. */
static int analyze_bar(bar *b, long max_moves, const char *to_move, gj_buf *out, gj_error *e)
{
    lists l = {0};
    l.cap = max_moves;
    l.win = malloc((size_t)max_moves * sizeof *l.win);
    l.lose = malloc((size_t)max_moves * sizeof *l.lose);
    int rc = -1;
    if (l.win == NULL || l.lose == NULL || prepare(b) != 0) {
        gj_fail_nomem(e);
        goto done;
    }
    analysis_counts c = {0};
    survey_moves(b, &l, &c);
    /* The search sees the bar as the request gave it (prepare() keeps it). */
    pc_far *far = pc_far_new(b->cell, b->n, b->used, e);
    long long v = far == NULL ? -1 : pc_far_value(far, e);
    if (v != -1) {
        size_t mark = out->len;
        rc = write_answer(b, &l, &c, to_move, v >= 0 ? far : NULL, v, out, e);
        if (rc != 0)
            out->len = mark;
    }
    pc_far_free(far);
done:
    free(l.win);
    free(l.lose);
    return rc;
}

/* The request's members, as game.h's analyze_keys: read here and named by
 * the wrappers (line.c, engine.c) in their unknown-field messages. */
const char *const prime_chocolate_analyze_keys[] = {
    "grid", "?primes_used", "?to_move", "?chocolate_left", "?max_moves", NULL};

int prime_chocolate_analyze(const char *buf, size_t len, const long *limits, gj_buf *out,
                            gj_error *e)
{
    json_t *root = jin_load_object(buf, len, prime_chocolate_analyze_keys, e);
    if (root == NULL)
        return -1;
    bar b = {0};
    const char *to_move;
    long max_moves;
    int rc = -1;
    b.cell = pc_read_grid(json_object_get(root, "grid"), limits[0], &b.n, e);
    if (b.cell == NULL)
        goto done;
    if (mark_primes(&b) != 0) {
        gj_fail_nomem(e);
        goto done;
    }
    if (read_primes(&b, json_object_get(root, "primes_used"), e) != 0 ||
        read_to_move(json_object_get(root, "to_move"), &to_move, e) != 0 ||
        check_left(&b, json_object_get(root, "chocolate_left"), e) != 0 ||
        analysis_max_moves(root, &max_moves, e) != 0)
        goto done;
    rc = analyze_bar(&b, max_moves, to_move, out, e);
done:
    release(&b);
    json_decref(root);
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
