/* staircase_chess.c - Joint Provincial Selection 2018 "A Pair of Wooden
 * Chess" (Luogu P4363): black's score minus white's when both play perfectly.
 *
 * The idea: a stone may go only where every cell to its left and above is
 * taken, so the stones always form a staircase (row lengths never grow
 * downwards) and the game's future depends only on that staircase.  Its
 * boundary is a lattice path of n + m steps, read from the top-right corner:
 * bit k is 1 for a step down and 0 for a step left.  A move turns a "left,
 * down" pair (bits k-1, k = 0, 1) into "down, left", so one down step moves a
 * place towards bit 0.  Ranking a path by the combinatorial number system
 * (the down step at bit p that is the j-th one, from 0, adds C(p, j + 1))
 * makes that move subtract exactly C(p - 1, j): every successor has a smaller
 * rank, the full board has rank 0 and the empty board the largest rank.  The
 * paths in increasing rank order are the masks with n bits set in increasing
 * numeric order, which the next-permutation bit trick walks one by one, so a
 * single pass over an int32 array of C(n+m, n) values does the minimax with
 * no hash map.  Whose turn it is follows from the stone count, itself a sum
 * over the down bits' positions.  Time O(C(n+m, n) * min(n, m)) (a tall
 * board is solved transposed), memory 4 * C(n+m, n) bytes.  The analysis
 * (staircase_chess_analysis.c) shares this through staircase_chess_core.h. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "cancel.h"
#include "game.h"
#include "staircase_chess.h"
#include "generate.h"
#include "json_in.h"
#include "json_pull.h"
#include "json_seen.h"
#include "key.h"
#include "reader.h"
#include "text_read.h"
#include "staircase_chess_core.h"

#define MAX_VALUE 100000

static const gj_limit_def limits[] = {
    {"rows", "rows n of the board", 10, 1, 26},
    {"cols", "columns m of the board", 10, 1, 26},
    {"size", "n + m; the solver keeps C(n+m, n) 4-byte states", 20, 2, SC_MAX_SIZE},
};

typedef sc_board position;
typedef sc_moves moves;

void sc_board_free(void *p)
{
    position *pos = p;
    if (pos == NULL)
        return;
    free(pos->a);
    free(pos);
}

/* A position with room for both n x m boards, or NULL with *e. */
static position *new_position(long n, long m, gj_error *e)
{
    position *pos = calloc(1, sizeof *pos);
    if (pos != NULL)
        pos->a = malloc(2 * (size_t)n * (size_t)m * sizeof *pos->a);
    if (pos == NULL || pos->a == NULL) {
        sc_board_free(pos);
        gj_fail_nomem(e);
        return NULL;
    }
    pos->n = n;
    pos->m = m;
    pos->b = pos->a + n * m;
    return pos;
}

sc_board *sc_board_copy(const sc_board *g, gj_error *e)
{
    position *pos = new_position(g->n, g->m, e);
    if (pos == NULL)
        return NULL;
    memcpy(pos->a, g->a, 2 * (size_t)g->n * (size_t)g->m * sizeof *pos->a);
    pos->score = g->score;
    return pos;
}

/* Read m; n + m must fit the size limit, reported at m's token. */
static int read_columns(gj_reader *r, long n, const long *lim, long *m, gj_error *e)
{
    gj_reader peek = *r;
    const char *tok;
    size_t toklen;
    long line = 0, col = 0;
    /* Only the place matters: when there is no token, reader_long says so. */
    (void)reader_word(&peek, "m", &tok, &toklen, &line, &col, e);
    if (reader_long(r, "the number of columns m", 1, lim[SC_LIMIT_COLS], m, e) != 0)
        return -1;
    if (n + *m > lim[SC_LIMIT_SIZE])
        return gj_fail_at(e, line, col, "n + m must be at most %ld (the size limit), found %ld",
                          lim[SC_LIMIT_SIZE], n + *m);
    return 0;
}

/* Where a judge-text parse is (text_read.h): "n m", A's and B's values,
 * the end. */
enum { SCT_N, SCT_M, SCT_CELLS, SCT_END, SCT_DONE };

typedef struct sc_text {
    gj_text_made made; /* the position */
    int phase;
    long n, m, cell; /* the shape, and the next value's index over A then B */
} sc_text;

/* A's values then B's from s->cell on, while whole tokens are there: 0, or
 * -1 with *e naming the cell. */
static int step_cells(sc_text *s, const text_pull *t, gj_reader *r, gj_error *e)
{
    long nm = s->n * s->m, cell = s->cell;
    int32_t *value = ((position *)s->made.pos)->a;
    for (; cell < 2 * nm && text_pull_has(t, r, 1); cell++) {
        gj_reader at = *r;
        long v;
        if (reader_long(r, "a value", 0, MAX_VALUE, &v, e) != 0) {
            /* Name the cell only now: formatting the name of every value
             * would cost more than reading it. */
            long in = cell % nm;
            char what[64];
            snprintf(what, sizeof what, "row %ld, column %ld of %c", in / s->m + 1, in % s->m + 1,
                     cell < nm ? 'A' : 'B');
            *r = at;
            return reader_long(r, what, 0, MAX_VALUE, &v, e);
        }
        value[cell] = (int32_t)v; /* b follows a in the same block */
    }
    s->cell = cell;
    return 0;
}

/* text_read.h's step: "n m", then A and B. */
static int step_text(void *state, const text_pull *t, gj_reader *r, const long *lim, gj_error *e)
{
    sc_text *s = state;
    switch (s->phase) {
    case SCT_N:
        if (!text_pull_has(t, r, 1))
            return 0;
        if (reader_long(r, "the number of rows n", 1, lim[SC_LIMIT_ROWS], &s->n, e) != 0)
            return -1;
        s->phase = SCT_M;
        /* fall through */
    case SCT_M:
        if (!text_pull_has(t, r, 1))
            return 0;
        if (read_columns(r, s->n, lim, &s->m, e) != 0)
            return -1;
        s->made.pos = new_position(s->n, s->m, e);
        if (s->made.pos == NULL)
            return -1;
        s->phase = SCT_CELLS;
        /* fall through */
    case SCT_CELLS:
        if (step_cells(s, t, r, e) != 0)
            return -1;
        if (s->cell < 2 * s->n * s->m)
            return 0;
        s->phase = SCT_END;
        /* fall through */
    case SCT_END:
        if (!t->ended)
            return 0;
        if (reader_end(r, e) != 0)
            return -1;
        s->phase = SCT_DONE;
        s->made.done = true;
        return 0;
    default:
        return 0;
    }
}

static const gj_text_steps text_steps = {sizeof(sc_text), step_text, sc_board_free, NULL};

/* Judge text read as it arrives (read_text) and whole (parse_text). */
GJ_TEXT_READER(text_steps)

/* "" for one, "s" for any other count: for the messages. */
static const char *plural(size_t count)
{
    return count == 1 ? "" : "s";
}

/* Read the JSON matrix `name` into out[], held to the n x m shape of a. */
static int read_json_matrix(const json_t *v, const char *name, long n, long m, const long *lim,
                            int32_t *out, gj_error *e)
{
    const char *why = strcmp(name, "a") == 0 ? "all rows must have the same length"
                                             : "a and b must have the same shape";
    if (jin_array(v, name, -1, 1, (size_t)lim[SC_LIMIT_ROWS], e) != 0)
        return -1;
    if ((long)json_array_size(v) != n)
        return gj_fail_field(e, name, "has %zu row%s, expected %ld as in a; %s", json_array_size(v),
                             plural(json_array_size(v)), n, why);
    for (long i = 0; i < n; i++) {
        const json_t *row = json_array_get(v, (size_t)i);
        if (jin_array(row, name, i, 1, (size_t)lim[SC_LIMIT_COLS], e) != 0)
            return -1;
        if ((long)json_array_size(row) != m) {
            char field[32];
            jin_field_name(field, sizeof field, name, i, -1);
            return gj_fail_field(e, field, "has %zu cell%s, expected %ld as in a[0]; %s",
                                 json_array_size(row), plural(json_array_size(row)), m, why);
        }
        for (long j = 0; j < m; j++) {
            long x;
            if (jin_long(json_array_get(row, (size_t)j), name, i, j, 0, MAX_VALUE, &x, e) != 0)
                return -1;
            out[i * m + j] = (int32_t)x;
        }
    }
    return 0;
}

sc_board *sc_read_json(const json_t *root, const long *lim, gj_error *e)
{
    position *pos = NULL;
    const json_t *a = json_object_get(root, "a"), *b = json_object_get(root, "b");
    /* The shape comes from a and a[0]; everything else is held to it. */
    if (jin_array(a, "a", -1, 1, (size_t)lim[SC_LIMIT_ROWS], e) != 0 ||
        jin_array(json_array_get(a, 0), "a", 0, 1, (size_t)lim[SC_LIMIT_COLS], e) != 0)
        goto fail;
    long n = (long)json_array_size(a), m = (long)json_array_size(json_array_get(a, 0));
    if (n + m > lim[SC_LIMIT_SIZE]) {
        gj_fail_field(e, "a",
                      "n + m must be at most %ld (the size limit), found %ld (%ld rows, "
                      "%ld columns)",
                      lim[SC_LIMIT_SIZE], n + m, n, m);
        goto fail;
    }
    pos = new_position(n, m, e);
    if (pos == NULL)
        goto fail;
    if (read_json_matrix(a, "a", n, m, lim, pos->a, e) != 0 ||
        read_json_matrix(b, "b", n, m, lim, pos->b, e) != 0)
        goto fail;
    return pos;
fail:
    sc_board_free(pos);
    return NULL;
}

/* game.h's parse_json before the reader below: the tree, then
 * sc_read_json.  Kept as the reader's reference. */
void *sc_parse_tree(const char *buf, size_t len, const long *lim, gj_error *e)
{
    static const char *const keys[] = {"a", "b", NULL};
    json_t *root = jin_load_object(buf, len, keys, e);
    if (root == NULL)
        return NULL;
    position *pos = sc_read_json(root, lim, e);
    json_decref(root);
    return pos;
}

/* ---- The JSON body read as it arrives (json_pull.h) ---------------------
 *
 * The checks and messages are sc_read_json's, in its order, but the shape
 * (a's rows, a[0]'s cells) is known only when a ends.  No check looks past
 * the limits' rows and columns (a longer list fails its size check first),
 * so the reader keeps, of each matrix, its type and number of rows, and of
 * each row within the row limit its type, its length and its cells within
 * the column limit; the checks run on those at the end. */

/* One matrix ("a" or "b") as the reader keeps it. */
typedef struct scj_matrix {
    size_t rows; /* its elements, every one counted */
    jseen *row;  /* rows within the limit: what each is */
    size_t *len; /* and its elements, every one counted */
    jseen *cell; /* their cells within the column limit, row after row */
    int in_row;  /* inside a kept row that is an array */
} scj_matrix;

/* The members the body takes. */
static const char *const scj_keys[] = {"a", "b", NULL};

/* The reader between chunks (staircase_chess_core.h). */
struct sc_json_reader {
    jseen_body body; /* what the members are: body.value[x] is matrix x */
    long lim[3];
    scj_matrix mat[2];
};

/* An event inside a matrix's array (depth 2 or more). */
static void scj_matrix_event(scj_matrix *x, const jpull_event *ev, const long *lim)
{
    int end = ev->kind == JPULL_ARRAY_END || ev->kind == JPULL_OBJECT_END;
    size_t most_rows = (size_t)lim[SC_LIMIT_ROWS], most_cols = (size_t)lim[SC_LIMIT_COLS];
    if (ev->depth == 2) {
        if (end) {
            x->in_row = 0;
            return;
        }
        x->rows++;
        if (x->rows <= most_rows) {
            x->row[x->rows - 1] = jseen_of(ev);
            x->in_row = ev->kind == JPULL_ARRAY_BEGIN;
        }
        return;
    }
    if (ev->depth == 3 && x->in_row && !end) {
        size_t i = x->rows - 1, j = x->len[i]++;
        if (j < most_cols)
            x->cell[i * most_cols + j] = jseen_of(ev);
    }
}

/* jseen_body's inner function: an event inside matrix `member`. */
static int scj_inner(void *ctx, int member, const jpull_event *ev)
{
    sc_json_reader *r = ctx;
    scj_matrix_event(&r->mat[member], ev, r->lim);
    return 0;
}

void sc_json_close(sc_json_reader *r)
{
    if (r == NULL)
        return;
    jseen_body_free(&r->body);
    for (int x = 0; x < 2; x++) {
        free(r->mat[x].row);
        free(r->mat[x].len);
        free(r->mat[x].cell);
    }
    free(r);
}

sc_json_reader *sc_json_open(const long *lim, gj_error *e)
{
    sc_json_reader *r = calloc(1, sizeof *r);
    if (r == NULL) {
        gj_fail_nomem(e);
        return NULL;
    }
    memcpy(r->lim, lim, sizeof r->lim);
    size_t rows = (size_t)lim[SC_LIMIT_ROWS], cols = (size_t)lim[SC_LIMIT_COLS];
    int bad = jseen_body_init(&r->body, scj_keys, scj_inner, r, e) != 0;
    for (int x = 0; x < 2 && !bad; x++) {
        r->mat[x].row = calloc(rows, sizeof *r->mat[x].row);
        r->mat[x].len = calloc(rows, sizeof *r->mat[x].len);
        r->mat[x].cell = calloc(rows * cols, sizeof *r->mat[x].cell);
        bad = r->mat[x].row == NULL || r->mat[x].len == NULL || r->mat[x].cell == NULL;
    }
    if (bad) {
        sc_json_close(r);
        gj_fail_nomem(e);
        return NULL;
    }
    return r;
}

int sc_json_feed(sc_json_reader *r, const char *p, size_t n, gj_error *e)
{
    return jseen_body_feed(&r->body, p, n, e);
}

/* read_json_matrix on what the reader kept of matrix x (n x m, within the
 * limits by now): 0, or -1 with *e. */
static int scj_check_matrix(const sc_json_reader *r, int x, long n, long m, int32_t *out,
                            gj_error *e)
{
    const scj_matrix *w = &r->mat[x];
    const char *name = x == 0 ? "a" : "b";
    const char *why =
        x == 0 ? "all rows must have the same length" : "a and b must have the same shape";
    size_t cols = (size_t)r->lim[SC_LIMIT_COLS];
    if (jseen_array(&r->body.value[x], w->rows, name, -1, 1, (size_t)r->lim[SC_LIMIT_ROWS], e) != 0)
        return -1;
    if ((long)w->rows != n)
        return gj_fail_field(e, name, "has %zu row%s, expected %ld as in a; %s", w->rows,
                             plural(w->rows), n, why);
    for (long i = 0; i < n; i++) {
        if (jseen_array(&w->row[i], w->len[i], name, i, 1, cols, e) != 0)
            return -1;
        if ((long)w->len[i] != m) {
            char field[32];
            jin_field_name(field, sizeof field, name, i, -1);
            return gj_fail_field(e, field, "has %zu cell%s, expected %ld as in a[0]; %s", w->len[i],
                                 plural(w->len[i]), m, why);
        }
        for (long j = 0; j < m; j++) {
            long v;
            if (jseen_long(&w->cell[(size_t)i * cols + (size_t)j], name, i, j, 0, MAX_VALUE, &v,
                           e) != 0)
                return -1;
            out[i * m + j] = (int32_t)v;
        }
    }
    return 0;
}

/* What the reader kept, checked in sc_read_json's order: the position, or
 * NULL with *e. */
static position *scj_position(const sc_json_reader *r, gj_error *e)
{
    const scj_matrix *a = &r->mat[0];
    const long *lim = r->lim;
    if (jseen_array(&r->body.value[0], a->rows, "a", -1, 1, (size_t)lim[SC_LIMIT_ROWS], e) != 0 ||
        jseen_array(&a->row[0], a->len[0], "a", 0, 1, (size_t)lim[SC_LIMIT_COLS], e) != 0)
        return NULL;
    long n = (long)a->rows, m = (long)a->len[0];
    if (n + m > lim[SC_LIMIT_SIZE]) {
        gj_fail_field(e, "a",
                      "n + m must be at most %ld (the size limit), found %ld (%ld rows, "
                      "%ld columns)",
                      lim[SC_LIMIT_SIZE], n + m, n, m);
        return NULL;
    }
    position *pos = new_position(n, m, e);
    if (pos == NULL)
        return NULL;
    if (scj_check_matrix(r, 0, n, m, pos->a, e) != 0 ||
        scj_check_matrix(r, 1, n, m, pos->b, e) != 0) {
        sc_board_free(pos);
        return NULL;
    }
    return pos;
}

void *sc_json_finish(sc_json_reader *r, gj_error *e)
{
    position *pos = jseen_body_end(&r->body, e) == 0 ? scj_position(r, e) : NULL;
    sc_json_close(r);
    return pos;
}

/* The JSON body {"a": [[...]], "b": [[...]]} as it arrives (read_json), and whole
 * (parse_json). */
GJ_JSON_READER(sc)

/* Bits set in x, without relying on a popcount instruction. */
static unsigned count_bits(uint32_t x)
{
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    x = (x + (x >> 4)) & 0x0f0f0f0fu;
    return (x * 0x01010101u) >> 24;
}

/* The next larger mask with as many bits set (colex order of the paths). */
static uint32_t next_mask(uint32_t v)
{
    uint32_t low = v & (0u - v);
    uint32_t ripple = v + low;
    return ripple | (((ripple ^ v) >> 2) >> __builtin_ctz(v));
}

/* Tabulate what moving the j-th down step from bit p to bit p - 1 does: it
 * lengthens row j from cols - p + j to cols - p + j + 1 stones.  The rules
 * are symmetric under transposition, and a tall board is read transposed so
 * that the path has the fewer down steps to walk. */
void sc_tabulate(const position *pos, moves *t)
{
    long n = pos->n, m = pos->m, size = n + m;
    int tall = n > m;
    long rows = tall ? m : n, cols = tall ? n : m;
    memset(t->binom, 0, sizeof t->binom);
    for (long p = 0; p <= size; p++) {
        t->binom[p][0] = 1;
        for (long k = 1; k <= p; k++)
            t->binom[p][k] = t->binom[p - 1][k - 1] + (k < p ? t->binom[p - 1][k] : 0);
    }
    for (long p = 1; p < size; p++) {
        for (long j = 0; j < rows && j < p; j++) {
            long col = cols - p + j, cell = tall ? col * m + j : j * m + col;
            int real = col >= 0 && col < cols; /* else no move ever uses it */
            t->step[p][j] = t->binom[p - 1][j];
            t->gain[0][p][j] = real ? pos->a[cell] : 0;
            t->gain[1][p][j] = real ? pos->b[cell] : 0;
        }
    }
    t->rows = rows;
    t->size = size;
    t->tall = tall;
    t->states = t->binom[size][rows];
}

/* The bits of the down steps of a staircase's path: row j of the short side
 * with len stones has its down step at bit cols - len + j. */
static void path_of(const moves *t, const long *profile, long *bit)
{
    long rows = t->rows, cols = t->size - t->rows;
    for (long j = 0; j < rows; j++) {
        long len = 0;
        if (!t->tall)
            len = profile[j];
        else
            while (len < cols && profile[len] > j)
                len++; /* column j's height */
        bit[j] = cols - len + j;
    }
}

uint32_t sc_rank(const moves *t, const long *profile)
{
    long bit[SC_MAX_SIZE];
    uint32_t rank = 0;
    path_of(t, profile, bit);
    for (long j = 0; j < t->rows; j++)
        rank += t->binom[bit[j]][j + 1];
    return rank;
}

/* The best score difference for the player to move on the path `mask` of
 * rank `rank`, every successor's value being ready (negamax: a move is worth
 * its gain minus the opponent's best from there).  rows*cols + rows(rows-1)/2
 * - (the sum of the down bits' positions) stones are down; black moves when
 * that is even, and `base` holds the constant part's parity. */
static inline int32_t best_move(const moves *t, const int32_t *value, uint32_t mask, uint32_t rank,
                                uint32_t base)
{
    uint32_t who = (base ^ count_bits(mask & 0xaaaaaaaau)) & 1;
    uint32_t rest = mask, blocked = mask << 1 | 1u;
    int32_t best = INT32_MIN;
    for (unsigned j = 0; rest != 0; j++) {
        unsigned bit = (unsigned)__builtin_ctz(rest);
        rest &= rest - 1;
        if ((blocked >> bit) & 1)
            continue; /* the step before is also down, or bit 0 */
        int32_t v = t->gain[who][bit][j] - value[rank - t->step[bit][j]];
        if (v > best)
            best = v;
    }
    return best;
}

/* The parity of rows*cols + rows(rows-1)/2, best_move's `base`. */
static uint32_t parity_base(const moves *t)
{
    long rows = t->rows, cols = t->size - t->rows;
    return (uint32_t)((rows * cols + rows * (rows - 1) / 2) & 1);
}

/* Ranks between two checks of the cancel flag (cancel.h): a mask, about
 * 65536 states, a fraction of a millisecond. */
#define CHECK_EVERY 0xffffu

/* Every path, in rank order: 0, or -1 with *e when cancelled. */
static int sweep_all(const moves *t, int32_t *value, gj_error *e)
{
    uint32_t base = parity_base(t), mask = (1u << t->rows) - 1;
    value[0] = 0;
    for (uint32_t rank = 1; rank < t->states; rank++) {
        if ((rank & CHECK_EVERY) == 0 && gj_cancel_check(e) != 0)
            return -1;
        mask = next_mask(mask);
        value[rank] = best_move(t, value, mask, rank, base);
    }
    return 0;
}

/* Only the paths whose j-th down step is never above bit top[j]: the
 * staircases that contain the one of path `top`, which are all that a game
 * from there can reach.  In rank order, the next such path moves up the
 * lowest down step that may still move (below top[j] and below the next
 * down step) and puts every down step under it back at the bottom; the last
 * is `top` itself.  0, or -1 with *e when cancelled. */
static int sweep_above(const moves *t, int32_t *value, const long *top, gj_error *e)
{
    long bit[SC_MAX_SIZE], rows = t->rows;
    uint32_t base = parity_base(t), mask = (1u << rows) - 1, rank = 0;
    for (long j = 0; j < rows; j++)
        bit[j] = j;
    value[0] = 0;
    for (uint32_t step = 1;; step++) {
        if ((step & CHECK_EVERY) == 0 && gj_cancel_check(e) != 0)
            return -1;
        long j = 0;
        while (j < rows && (bit[j] == top[j] || (j + 1 < rows && bit[j] + 1 == bit[j + 1])))
            j++;
        if (j == rows)
            return 0;
        rank += t->binom[bit[j]][j]; /* C(b + 1, j + 1) - C(b, j + 1) */
        mask ^= 3u << bit[j];
        bit[j]++;
        for (long i = 0; i < j; i++) {
            rank -= t->binom[bit[i]][i + 1];
            mask = (mask & ~(1u << bit[i])) | 1u << i;
            bit[i] = i;
        }
        value[rank] = best_move(t, value, mask, rank, base);
    }
}

/* The sweep of staircase_chess_core.h: every path, or those above profile. */
int sc_sweep(const moves *t, int32_t *value, const long *profile, int32_t *result, gj_error *e)
{
    long top[SC_MAX_SIZE];
    if (profile == NULL) {
        if (sweep_all(t, value, e) != 0)
            return -1;
        *result = value[t->states - 1];
        return 0;
    }
    path_of(t, profile, top);
    if (sweep_above(t, value, top, e) != 0)
        return -1;
    *result = value[sc_rank(t, profile)];
    return 0;
}

/* game.h's solve: the score difference under perfect play. */
static int solve(void *p, gj_error *e)
{
    position *pos = p;
    if (pos->n < 1 || pos->m < 1 || pos->n + pos->m > SC_MAX_SIZE)
        return gj_fail(e, GJ_INTERNAL, "a %ld x %ld board is beyond the solver", pos->n, pos->m);
    moves *t = malloc(sizeof *t);
    if (t == NULL)
        return gj_fail_nomem(e);
    sc_tabulate(pos, t);
    int32_t *value = malloc((size_t)t->states * sizeof *value);
    if (value == NULL) {
        free(t);
        return gj_fail_nomem(e);
    }
    int32_t score = 0;
    int rc = sc_sweep(t, value, NULL, &score, e);
    pos->score = score;
    free(value);
    free(t);
    return rc;
}

/* game.h's write_text: the score difference. */
static void write_text(const void *p, gj_buf *out)
{
    const position *pos = p;
    buf_put_long(out, pos->score);
    buf_putc(out, '\n');
}

/* game.h's write_json: {"score_difference": d}. */
static void write_json(const void *p, gj_buf *out)
{
    const position *pos = p;
    game_json_open(out, &game_staircase_chess, "score_difference");
    buf_put_long(out, pos->score);
    buf_putc(out, '}');
}

/* The key (key.h): "n m\n", then A and B row by row in decimal, a space
 * between values and a newline between the boards. */
static void write_key(const void *p, gj_buf *out)
{
    const position *pos = p;
    const long head[2] = {pos->n, pos->m};
    key_head(out, head, 2);
    for (int k = 0; k < 2; k++) {
        const int32_t *v = k == 0 ? pos->a : pos->b;
        if (k > 0)
            buf_putc(out, '\n');
        for (long i = 0; i < pos->n * pos->m; i++) {
            if (i > 0)
                buf_putc(out, ' ');
            buf_put_long(out, v[i]);
        }
    }
}

/* The states the sweep visits: C(n+m, n), exact in a double up to
 * SC_MAX_SIZE. */
static double states_of(const position *pos)
{
    long small = pos->n < pos->m ? pos->n : pos->m, size = pos->n + pos->m;
    double states = 1;
    for (long i = 1; i <= small; i++)
        states = states * (double)(size - small + i) / (double)i; /* C(size, small) */
    return states;
}

/* game.h's cost_us.  Model: 15 us (the move tables) + 12 ns per state and
 * row: the sweep visits C(n+m, n) states and tries at most min(n, m) moves
 * in each.  Measured (cost_fit, bench/NOTES.md): measured / estimate
 * 0.1-0.65 from 2x3 to 14x14. */
static double cost_us(const void *p)
{
    const position *pos = p;
    long small = pos->n < pos->m ? pos->n : pos->m;
    return 15.0 + 0.012 * states_of(pos) * (double)small;
}

/* game.h's work_bytes: solve's move tables and one value per state (the
 * answer is one number). */
static size_t work_bytes(const void *p)
{
    return sizeof(moves) + (size_t)states_of(p) * sizeof(int32_t) + 64;
}

const gj_game game_staircase_chess = {
    .name = "staircase-chess",
    .display_name = "Staircase chess",
    .title = "black's score minus white's score on a staircase board under perfect play",
    .example_text = "2 3\n2 7 3\n9 1 2\n3 7 2\n2 3 1\n",
    .example_json = "{\"a\": [[2,7,3],[9,1,2]], \"b\": [[3,7,2],[2,3,1]]}",
    .limits = limits,
    .nlimits = GJ_NLIMITS(limits),
    .parse_text = parse_text,
    .read_text = &read_text,
    .parse_json = parse_json,
    .read_json = &read_json,
    .solve = solve,
    .cost_us = cost_us,
    .work_bytes = work_bytes,
    .write_text = write_text,
    .write_json = write_json,
    .free_position = sc_board_free,
    .write_key = write_key,
    .analyze = staircase_chess_analyze,
    .analyze_keys = staircase_chess_analyze_keys,
    .example_analyze = "{\"a\": [[2,7,3],[9,1,2]], \"b\": [[3,7,2],[2,3,1]], "
                       "\"stones\": [[1,1],[1,2]]}",
    .version = "3",
    .example_generate = "{\"seed\": 42, \"rows\": 3, \"cols\": 3, \"score\": [1, 10]}",
    .puzzle_knobs = {"{\"rows\": 3, \"cols\": 4}", "{\"rows\": 6, \"cols\": 6}",
                     "{\"rows\": 9, \"cols\": 9}"},
    .generate = staircase_chess_generate,
    .generate_most = staircase_chess_generate_most,
    .generate_keep = staircase_chess_generate_keep,
    .generate_knobs = staircase_chess_generate_knobs,
    .play_move = staircase_chess_play_move,
    .play = &staircase_chess_play,
    .motifs = staircase_chess_motifs,
    /* The difficulty's scale (puzzle.h): bench/puzzle_rate --calibrate 1000. */
    .puzzle_scale =
        {{0.0516, 0.0841, 0.1261, 0.1884, 0.2933, 0.4306, 0.5387, 0.7218, 0.8973, 0.9756},
         {0.1638, 0.3322, 0.5289, 0.6413, 0.7632, 0.8760, 0.9345, 0.9688, 0.9862, 0.9967},
         {0.3209, 0.6328, 0.7758, 0.8729, 0.9375, 0.9696, 0.9837, 0.9926, 0.9976, 0.9997}},
    /* The engine's levels 1..4, from bench/levels.c (bench/results.md, "Levels"). */
    .level_ratio = {64953, 59978, 55669, 48466},
};
