/* prime_chocolate_far.c - prime-chocolate remoteness (analysis.h).
 *
 * The parity argument of the analysis says who wins but not how long the
 * game lasts, so this is a search from the rules, made small by one
 * observation: a square that lies in no full prime square still allowed
 * can only ever be eaten alone (chocolate only goes, primes only get used),
 * and which of those "loose" squares goes does not matter.  So a position
 * is the set of squares that still lie in an allowed full prime square (a
 * mask over the squares of the start's candidate squares, at most
 * PC_FAR_CELLS of them), the number of loose squares, and which candidate
 * sizes are used.  With no allowed square left every move eats one square:
 * the remoteness is the count and the mover wins iff it is odd, at once,
 * whatever the size of the bar.  Otherwise the search runs while it meets
 * at most ANALYSIS_REMOTENESS_STATES positions, tests at most
 * PC_FAR_WORK squares against masks, and the bar holds at most
 * ANALYSIS_REMOTENESS_DEPTH squares (the recursion's depth); past any of
 * them the answer is null. */
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "cancel.h"
#include "far_memo.h"
#include "prime_chocolate_core.h"
#include "prime_chocolate_far.h"

#define PC_FAR_CELLS 128
#define PC_FAR_WORK  (1L << 23)

typedef struct bits {
    uint64_t w[2];
} bits;

typedef struct square {
    bits mask;
    int size_bit; /* the bit of its side among the candidate sizes */
} square;

struct pc_far {
    long n;
    int16_t *index; /* n*n: the cell's number among the candidates' cells, or -1 */
    square *sq;
    long nsq;
    int ncells;
    long long loose; /* at the start */
    long long chocolate;
    int sizes[8]; /* the candidate sizes, by bit */
    int nsizes;
    far_memo memo;
    long work;  /* squares tested against masks */
    long steps; /* positions searched, for the cancel checks */
    int past;
};

/* Whether number i is in the set. */
static int has(const bits *s, int i)
{
    return (int)(s->w[i >> 6] >> (i & 63)) & 1;
}

/* Put number i in the set. */
static void add(bits *s, int i)
{
    s->w[i >> 6] |= UINT64_C(1) << (i & 63);
}

/* Whether a is inside b. */
static int inside(const bits *a, const bits *b)
{
    return (a->w[0] & ~b->w[0]) == 0 && (a->w[1] & ~b->w[1]) == 0;
}

/* The squares in the set. */
static int count(const bits *s)
{
    int k = 0;
    for (int i = 0; i < 2; i++)
        for (uint64_t w = s->w[i]; w != 0; w &= w - 1)
            k++;
    return k;
}

/* A position: the candidate squares still relevant, the loose count, the
 * used candidate sizes. */
typedef struct state {
    bits mask;
    long long loose;
    unsigned used;
} state;

/* Make s canonical: squares in no allowed full prime square become loose. */
static void canon(pc_far *f, state *s)
{
    bits keep = {{0, 0}};
    f->work += f->nsq;
    for (long q = 0; q < f->nsq; q++)
        if (!(s->used >> f->sq[q].size_bit & 1) && inside(&f->sq[q].mask, &s->mask)) {
            keep.w[0] |= f->sq[q].mask.w[0];
            keep.w[1] |= f->sq[q].mask.w[1];
        }
    bits gone = {{s->mask.w[0] & ~keep.w[0], s->mask.w[1] & ~keep.w[1]}};
    s->loose += count(&gone);
    s->mask = keep;
}

/* The value of the canonical position s: 2 * remoteness + 1 when the mover
 * wins; PC_FAR_PAST past a bound; -1 with *e. */
static long long search(pc_far *f, const state *s, gj_error *e)
{
    if (s->mask.w[0] == 0 && s->mask.w[1] == 0) /* single squares only */
        return 2 * s->loose + (s->loose & 1);
    far_key key = {{s->mask.w[0], s->mask.w[1], (uint64_t)s->loose << 8 | s->used}};
    int32_t known;
    if (far_memo_find(&f->memo, &key, &known))
        return known;
    if (f->work > PC_FAR_WORK)
        return PC_FAR_PAST;
    if (++f->steps % 1024 == 0 && gj_cancel_check(e) != 0)
        return -1;
    long long fastest_win = -1, slowest = -1;
    for (long q = -1; q < f->nsq + PC_FAR_CELLS; q++) {
        state next = *s;
        if (q == -1) { /* a loose square */
            if (s->loose == 0)
                continue;
            next.loose--;
        } else if (q < f->nsq) { /* a prime square */
            const square *x = &f->sq[q];
            if ((s->used >> x->size_bit & 1) || !inside(&x->mask, &s->mask))
                continue;
            next.mask.w[0] &= ~x->mask.w[0];
            next.mask.w[1] &= ~x->mask.w[1];
            next.used |= 1u << x->size_bit;
            canon(f, &next);
        } else { /* one relevant square */
            int i = (int)(q - f->nsq);
            if (i >= f->ncells || !has(&s->mask, i))
                continue;
            next.mask.w[i >> 6] &= ~(UINT64_C(1) << (i & 63));
            canon(f, &next);
        }
        long long v = search(f, &next, e);
        if (v < 0)
            return v;
        long long r = v / 2;
        if (v % 2 == 0 && (fastest_win < 0 || r < fastest_win))
            fastest_win = r;
        if (r > slowest)
            slowest = r;
    }
    long long value = fastest_win >= 0 ? 2 * (fastest_win + 1) + 1 : 2 * (slowest + 1);
    int rc = far_memo_add(&f->memo, &key, (int32_t)value);
    if (rc < 0)
        return gj_fail_nomem(e);
    return rc > 0 ? PC_FAR_PAST : value;
}

/* The candidate squares of the bar (every full p x p square, p a prime
 * not used) and the numbering of their cells: 1, 0 when they hold more
 * than PC_FAR_CELLS cells, -1 when out of memory. */
static int find_squares(pc_far *f, const unsigned char *cell, const unsigned char *used)
{
    long n = f->n;
    uint16_t *big = malloc((size_t)n * (size_t)n * sizeof *big);
    f->index = malloc((size_t)n * (size_t)n * sizeof *f->index);
    if (big == NULL || f->index == NULL) {
        free(big);
        return -1;
    }
    for (long i = n - 1; i >= 0; i--)
        for (long j = n - 1; j >= 0; j--) {
            long m = 0;
            if (i + 1 < n && j + 1 < n) {
                m = big[(i + 1) * n + j];
                if (big[i * n + j + 1] < m)
                    m = big[i * n + j + 1];
                if (big[(i + 1) * n + j + 1] < m)
                    m = big[(i + 1) * n + j + 1];
            }
            big[i * n + j] = (uint16_t)(cell[i * n + j] ? m + 1 : 0);
        }
    /* A full square of side `most` holds squares of every smaller side, so
     * the sides that can be played are the allowed ones up to it.  A
     * candidate of side p holds p * p <= PC_FAR_CELLS cells: p <= 11. */
    long most = 0;
    for (long c = 0; c < n * n; c++)
        if (big[c] > most)
            most = big[c];
    f->nsizes = 0;
    int too_big = 0;
    for (long p = 2; p <= most; p++)
        if (pc_is_prime(p) && !used[p]) {
            if (p > 11)
                too_big = 1;
            else
                f->sizes[f->nsizes++] = (int)p;
        }
    long nsq = 0;
    for (long c = 0; c < n * n; c++) {
        f->index[c] = -1;
        for (int k = 0; k < f->nsizes; k++)
            nsq += f->sizes[k] <= big[c];
    }
    int numbered = 0;
    for (long c = 0; c < n * n && !too_big && numbered <= PC_FAR_CELLS; c++) {
        long i = c / n, j = c % n;
        for (int k = 0; k < f->nsizes && f->sizes[k] <= big[c]; k++)
            for (long a = i; a < i + f->sizes[k]; a++)
                for (long b = j; b < j + f->sizes[k]; b++)
                    if (f->index[a * n + b] < 0)
                        f->index[a * n + b] = (int16_t)numbered++;
    }
    if (too_big || numbered > PC_FAR_CELLS) {
        free(big);
        return 0;
    }
    /* Number the cells row-major, so that the masks mean the same cells
     * however they were found. */
    numbered = 0;
    for (long c = 0; c < n * n; c++)
        if (f->index[c] >= 0)
            f->index[c] = (int16_t)numbered++;
    f->ncells = numbered;
    f->sq = malloc((size_t)(nsq > 0 ? nsq : 1) * sizeof *f->sq);
    if (f->sq == NULL) {
        free(big);
        return -1;
    }
    for (long c = 0; c < n * n; c++)
        for (int k = 0; k < f->nsizes && f->sizes[k] <= big[c]; k++) {
            square *x = &f->sq[f->nsq++];
            memset(x, 0, sizeof *x);
            x->size_bit = k;
            for (long a = c / n; a < c / n + f->sizes[k]; a++)
                for (long b = c % n; b < c % n + f->sizes[k]; b++)
                    add(&x->mask, f->index[a * n + b]);
        }
    free(big);
    return 1;
}

pc_far *pc_far_new(const unsigned char *cell, long n, const unsigned char *used, gj_error *e)
{
    pc_far *f = calloc(1, sizeof *f);
    if (f == NULL) {
        gj_fail_nomem(e);
        return NULL;
    }
    f->n = n;
    for (long c = 0; c < n * n; c++)
        f->chocolate += cell[c] != 0;
    int rc = find_squares(f, cell, used);
    if (rc < 0 || far_memo_init(&f->memo, ANALYSIS_REMOTENESS_STATES) != 0) {
        pc_far_free(f);
        gj_fail_nomem(e);
        return NULL;
    }
    f->past = rc == 0 || (f->ncells > 0 && f->chocolate > ANALYSIS_REMOTENESS_DEPTH);
    f->loose = f->chocolate - f->ncells;
    return f;
}

void pc_far_free(pc_far *f)
{
    if (f == NULL)
        return;
    if (f->memo.key != NULL)
        far_memo_free(&f->memo);
    free(f->index);
    free(f->sq);
    free(f);
}

/* The start as a position (canonical by construction: every numbered cell
 * lies in a candidate). */
static state start(const pc_far *f)
{
    state s = {{{0, 0}}, f->loose, 0};
    for (int i = 0; i < f->ncells; i++)
        add(&s.mask, i);
    return s;
}

long long pc_far_value(pc_far *f, gj_error *e)
{
    if (f->past)
        return PC_FAR_PAST;
    state s = start(f);
    return search(f, &s, e);
}

long long pc_far_after(pc_far *f, long i, long j, long size, gj_error *e)
{
    if (f->past)
        return PC_FAR_PAST;
    long n = f->n;
    state s = start(f);
    if (size == 1 && f->index[i * n + j] < 0) {
        s.loose--;
        return search(f, &s, e);
    }
    for (long a = i; a < i + size; a++)
        for (long b = j; b < j + size; b++) {
            int k = f->index[a * n + b];
            s.mask.w[k >> 6] &= ~(UINT64_C(1) << (k & 63));
        }
    for (int k = 0; k < f->nsizes; k++)
        if (size > 1 && f->sizes[k] == size)
            s.used |= 1u << k;
    canon(f, &s);
    return search(f, &s, e);
}
