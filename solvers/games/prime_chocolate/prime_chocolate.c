/* prime_chocolate.c - ICPC GNYR 2020 F: who eats the last square of chocolate.
 *
 * The idea: every move eats an odd number of squares except the p = 2 move,
 * a 2 x 2 square, and prime 2 can be chosen only once per game.  So parity
 * decides everything once the 2 x 2 move is gone:
 *   - an even count: Ruby wins iff a full 2 x 2 exists (she eats it and hands
 *     Dia an even count of odd moves);
 *   - an odd count: Ruby wins iff one odd move (a single square, or an odd
 *     prime p x p square) leaves no full 2 x 2 behind, that is, eats at least
 *     one square of every full 2 x 2 block.  A square anchored at a top-left
 *     corner touches more the larger it is, so each corner needs only its
 *     largest all-chocolate square of side 1 or an odd prime, and that square
 *     must reach every block: it must overlap the blocks' bounding box on
 *     both axes from within one row and column of it.
 * Largest squares come from the usual bottom-up DP over two rows: O(n^2)
 * time, O(n) memory beyond the board. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "prime_chocolate.h"
#include "generate.h"
#include "grid_row.h"
#include "analysis.h"
#include "cancel.h"
#include "json_in.h"
#include "json_pull.h"
#include "json_seen.h"
#include "key.h"
#include "prime_chocolate_core.h"
#include "reader.h"
#include "text_read.h"

enum { LIMIT_N };

static const gj_limit_def limits[] = {
    {"n", "side of the square bar", 2000, 1, 16384},
};

typedef struct position {
    long n;
    unsigned char *cell; /* n*n, 1 = chocolate */
    int ruby_wins;
} position;

int pc_is_prime(long p)
{
    if (p < 2)
        return 0;
    for (long d = 2; d * d <= p; d++)
        if (p % d == 0)
            return 0;
    return 1;
}

/* game.h's free_position (NULL is fine). */
static void free_position(void *p)
{
    position *pos = p;
    if (pos == NULL)
        return;
    free(pos->cell);
    free(pos);
}

#define EVERY_BYTE(b) (0x0101010101010101ULL * (uint64_t)(b))

/* A bar's row: '-' (or the en dash, UTF-8 e2 80 93) is chocolate (1),
 * 'X' an eaten square (0). */
static const grid_alphabet row_alphabet = {'-', 'X', "\xe2\x80\x93",
                                           "'X' (eaten) or '-' (chocolate)", 0};

/* Where a judge-text parse is (text_read.h): "n", the rows, the end. */
enum { PCT_N, PCT_ROWS, PCT_END, PCT_DONE };

typedef struct pc_text {
    gj_text_made made; /* the position, made of the rows at the end */
    int phase;
    long n, row;         /* the side, and the next row's index */
    unsigned char *cell; /* the rows so far, n cells each */
    size_t cap_rows;     /* rows cell has room for */
} pc_text;

/* Room in s->cell for row s->row: 0, or -1 with *e.  A row needs n bytes of
 * the body, so the rows held never outgrow the bytes there or announced (a
 * small body naming a large n cannot make us allocate n x n), and a body of
 * known length gets its rows at once, never moved as they grow. */
static int room_for_row(pc_text *s, const text_pull *t, const gj_reader *r, gj_error *e)
{
    size_t n = (size_t)s->n, row = (size_t)s->row;
    if (row < s->cap_rows)
        return 0;
    size_t fits = text_pull_ahead(t, r) / n; /* rows the bytes ahead could hold */
    size_t want = s->cap_rows * 2;
    if (want < row + (fits > 0 ? fits : 1))
        want = row + (fits > 0 ? fits : 1);
    if (want > n)
        want = n;
    unsigned char *more = realloc(s->cell, want * n);
    if (more == NULL)
        return gj_fail_nomem(e);
    s->cell = more;
    s->cap_rows = want;
    return 0;
}

/* text_read.h's step: "n", then n rows of n cells. */
static int step_text(void *state, const text_pull *t, gj_reader *r, const long *lim, gj_error *e)
{
    pc_text *s = state;
    switch (s->phase) {
    case PCT_N:
        if (!text_pull_has(t, r, 1))
            return 0;
        if (reader_long(r, "the side n", 1, lim[LIMIT_N], &s->n, e) != 0)
            return -1;
        s->phase = PCT_ROWS;
        /* fall through */
    case PCT_ROWS:
        for (; s->row < s->n; s->row++) {
            if (!text_pull_has(t, r, 1))
                return 0;
            if (room_for_row(s, t, r, e) != 0)
                return -1;
            unsigned char *cells = s->cell + s->row * s->n;
            if (grid_row_text(r, &row_alphabet, s->row, s->n, cells, s->n, e) != 0)
                return -1;
        }
        s->phase = PCT_END;
        /* fall through */
    case PCT_END: {
        if (!t->ended)
            return 0;
        if (reader_end(r, e) != 0)
            return -1;
        position *pos = calloc(1, sizeof *pos);
        if (pos == NULL)
            return gj_fail_nomem(e);
        pos->n = s->n;
        pos->cell = s->cell;
        s->cell = NULL;
        s->made.pos = pos;
        s->made.done = true;
        s->phase = PCT_DONE;
        return 0;
    }
    default:
        return 0;
    }
}

/* text_read.h's drop: the rows of a bar not made a position. */
static void drop_text(void *state)
{
    pc_text *s = state;
    free(s->cell);
    s->cell = NULL;
}

static const gj_text_steps text_steps = {sizeof(pc_text), step_text, free_position, drop_text};

/* Judge text read as it arrives (read_text) and whole (parse_text). */
GJ_TEXT_READER(text_steps)

unsigned char *pc_read_grid(const json_t *grid, long max_n, long *n_out, gj_error *e)
{
    if (jin_array(grid, "grid", -1, 1, (size_t)max_n, e) != 0)
        return NULL;
    long n = (long)json_array_size(grid);
    unsigned char *cell = malloc((size_t)n * (size_t)n);
    if (cell == NULL) {
        gj_fail_nomem(e);
        return NULL;
    }
    for (long i = 0; i < n; i++) {
        long cells = grid_row_json(&row_alphabet, json_array_get(grid, (size_t)i), "grid", i,
                                   cell + i * n, n, e);
        if (cells < 0)
            goto fail;
        char field[32];
        jin_field_name(field, sizeof field, "grid", i, -1);
        if (cells != n) {
            gj_fail_field(e, field, "row has %ld cell%s, expected %ld (the bar is square)", cells,
                          cells == 1 ? "" : "s", n);
            goto fail;
        }
    }
    *n_out = n;
    return cell;
fail:
    free(cell);
    return NULL;
}

/* ---- the JSON body read as it arrives (json_pull.h), into the bar ----
 *
 * The checks and messages are pc_read_grid's, in its order: the members,
 * then "grid" an array of 1..n strings, then each row: a string of cells,
 * n of them.  n, the number of rows, is known only when the grid ends, so
 * the reader keeps the rows as wide as grid[0] and stops keeping at the
 * first row that is wrong whatever n is (no string, a stranger byte:
 * its error written at once) or that differs from grid[0] in width: then
 * either n is not grid[0]'s width and grid[0] is the first wrong row, or
 * it is and that row is.  Rows past the limit are only counted. */

/* The members the body takes: "grid" alone. */
static const char *const pcj_keys[] = {"grid", NULL};

/* The reader between chunks. */
typedef struct pc_json_reader {
    jseen_body body; /* what "grid" is: body.value[0] */
    long lim_n;
    size_t rows; /* the grid's elements, every one counted */
    int stopped; /* no more rows are kept: one below decides */
    int broken;  /* row_error holds the error of row `at` */
    gj_error row_error;
    size_t at;           /* the row that stopped the keeping */
    long at_cells;       /* its cells, when it differs from grid[0] in width */
    long width;          /* the cells of grid[0], once it is read */
    unsigned char *cell; /* the rows kept, width cells each */
    size_t cap_rows;
} pc_json_reader;

/* grid_row_json's verdict on row i as the event gives it (no string, or a
 * stranger byte) into the row error, the keeping stopped: 0, or -1 when
 * memory is short. */
static int pcj_row_verdict(pc_json_reader *r, const jpull_event *ev, size_t i)
{
    json_t *v = jseen_event_value(ev);
    if (v == NULL)
        return -1;
    r->stopped = r->broken = 1;
    r->at = i;
    grid_row_json(&row_alphabet, v, "grid", (long)i, NULL, 0, &r->row_error);
    json_decref(v);
    return 0;
}

/* Room for row `row` in cell[]: 0, or -1 when memory is short. */
static int pcj_reserve(pc_json_reader *r, size_t row)
{
    if (row < r->cap_rows)
        return 0;
    size_t cap = r->cap_rows > 0 ? 2 * r->cap_rows : 8;
    while (cap <= row)
        cap *= 2;
    unsigned char *more = realloc(r->cell, cap * (size_t)r->width);
    if (more == NULL)
        return -1;
    r->cell = more;
    r->cap_rows = cap;
    return 0;
}

/* Element i of the grid begins: kept while nothing has stopped the
 * keeping and i is under the limit.  0, or -1 when memory is short. */
static int pcj_row(pc_json_reader *r, const jpull_event *ev)
{
    size_t i = r->rows++, bad = 0;
    if (i >= (size_t)r->lim_n || r->stopped)
        return 0;
    if (ev->kind != JPULL_STRING)
        return pcj_row_verdict(r, ev, i);
    long cells = grid_row_decode(&row_alphabet, ev->str, ev->len, NULL, 0, &bad);
    if (cells < 0)
        return pcj_row_verdict(r, ev, i);
    if (i == 0) {
        r->width = cells;
        /* No n takes a row this wide (or empty): grid[0] is wrong whatever
         * follows, and keeping rows would be for nothing. */
        if (cells < 1 || cells > r->lim_n) {
            r->stopped = 1;
            return 0;
        }
    } else if (cells != r->width) {
        r->stopped = 1;
        r->at = i;
        r->at_cells = cells;
        return 0;
    }
    if (pcj_reserve(r, i) != 0)
        return -1;
    grid_row_decode(&row_alphabet, ev->str, ev->len, r->cell + i * (size_t)r->width, r->width,
                    &bad);
    return 0;
}

/* jseen_body's inner function: an event inside "grid", the only member.
 * A row is an event at depth 2; ends there close a row already judged, and
 * deeper events are inside one.  0, or -1 when memory is short. */
static int pcj_inner(void *ctx, int member, const jpull_event *ev)
{
    (void)member;
    if (ev->depth != 2 || ev->kind == JPULL_ARRAY_END || ev->kind == JPULL_OBJECT_END)
        return 0;
    return pcj_row(ctx, ev);
}

/* A reader for a body under `lim`, or NULL with *e. */
static pc_json_reader *pcj_open(const long *lim, gj_error *e)
{
    pc_json_reader *r = calloc(1, sizeof *r);
    if (r == NULL) {
        gj_fail_nomem(e);
        return NULL;
    }
    if (jseen_body_init(&r->body, pcj_keys, pcj_inner, r, e) != 0) {
        free(r);
        return NULL;
    }
    r->lim_n = lim[LIMIT_N];
    return r;
}

/* Free a reader (NULL is fine). */
static void pcj_close(pc_json_reader *r)
{
    if (r == NULL)
        return;
    jseen_body_free(&r->body);
    free(r->cell);
    free(r);
}

/* "grid[i]: row has c cells, expected n (the bar is square)": -1. */
static int pcj_fail_width(size_t i, long cells, long n, gj_error *e)
{
    char field[32];
    jin_field_name(field, sizeof field, "grid", (long)i, -1);
    return gj_fail_field(e, field, "row has %ld cell%s, expected %ld (the bar is square)", cells,
                         cells == 1 ? "" : "s", n);
}

/* What the reader kept, checked in pc_read_grid's order: the position, or
 * NULL with *e. */
static position *pcj_position(pc_json_reader *r, gj_error *e)
{
    if (jseen_array(&r->body.value[0], r->rows, "grid", -1, 1, (size_t)r->lim_n, e) != 0)
        return NULL;
    long n = (long)r->rows;
    if (r->broken && r->at == 0) {
        *e = r->row_error;
        return NULL;
    }
    if (r->width != n) {
        pcj_fail_width(0, r->width, n, e);
        return NULL;
    }
    if (r->broken) {
        *e = r->row_error;
        return NULL;
    }
    if (r->stopped) {
        pcj_fail_width(r->at, r->at_cells, n, e);
        return NULL;
    }
    size_t size = (size_t)n * (size_t)n;
    unsigned char *cell = size < r->cap_rows * (size_t)n ? realloc(r->cell, size) : r->cell;
    position *pos = cell != NULL ? calloc(1, sizeof *pos) : NULL;
    if (cell != NULL)
        r->cell = cell;
    if (pos == NULL) {
        gj_fail_nomem(e);
        return NULL;
    }
    pos->n = n;
    pos->cell = r->cell;
    r->cell = NULL;
    return pos;
}

/* gj_body_reader's open. */
static void *read_open(const long *lim, size_t expect, gj_error *e)
{
    (void)expect; /* the JSON reader keeps no copy of the body */
    return pcj_open(lim, e);
}

/* gj_body_reader's feed: the next n bytes to json_pull. */
static int read_feed(void *r, const char *p, size_t n, gj_error *e)
{
    return jseen_body_feed(&((pc_json_reader *)r)->body, p, n, e);
}

/* gj_body_reader's finish: the position, the reader freed. */
static void *read_finish(void *p, gj_error *e)
{
    pc_json_reader *r = p;
    position *pos = jseen_body_end(&r->body, e) == 0 ? pcj_position(r, e) : NULL;
    pcj_close(r);
    return pos;
}

/* gj_body_reader's close. */
static void read_close(void *r)
{
    pcj_close(r);
}

/* The JSON body {"grid": [row, ...]} as it arrives. */
static const gj_body_reader read_json = {read_open, read_feed, read_finish, read_close};

/* game.h's parse_json: the whole body fed to the reader at once. */
static void *parse_json(const char *buf, size_t len, const long *lim, gj_error *e)
{
    return game_read_whole(&read_json, buf, len, lim, e);
}

/* Largest side <= x that is 1 or an odd prime, for every x <= n (0 for x = 0),
 * by a sieve.  Side 2 is the even move, never wanted here. */
static long *odd_prime_floor(long n)
{
    long *best = calloc((size_t)n + 1, sizeof *best);
    unsigned char *composite = calloc((size_t)n + 1, 1);
    if (best == NULL || composite == NULL) {
        free(best);
        free(composite);
        return NULL;
    }
    long last = 1;
    if (n >= 1)
        best[1] = 1;
    for (long x = 2; x <= n; x++) {
        if (!composite[x]) {
            if (x > 2)
                last = x;
            for (long y = x * x; y <= n; y += x)
                composite[y] = 1;
        }
        best[x] = last;
    }
    free(composite);
    return best;
}

typedef struct box {
    long top, left, bottom, right; /* rows/columns of the cells the 2 x 2 blocks cover */
    int any;
} box;
/* A square at rows i..i+p-1 touches the block whose top-left is (r, c) iff
 * i-1 <= r <= i+p-1 (and likewise for columns); block corners range over
 * top..bottom-1, so touching all of them is the test in square_touches. */

/* The number of 1 bytes among n 0/1 bytes, eight at a time: multiplying
 * by 0x0101... sums a word's bytes into its top byte (at most 8). */
static long count_ones(const unsigned char *cells, long n)
{
    long count = 0, j = 0;
    for (; j + 8 <= n; j += 8) {
        uint64_t w;
        memcpy(&w, cells + j, 8);
        count += (long)((w * EVERY_BYTE(1)) >> 56);
    }
    for (; j < n; j++)
        count += cells[j];
    return count;
}

/* out[j] = a[j] & b[j] for j < n, eight at a time. */
static void and_rows(unsigned char *out, const unsigned char *a, const unsigned char *b, long n)
{
    long j = 0;
    for (; j + 8 <= n; j += 8) {
        uint64_t x, y;
        memcpy(&x, a + j, 8);
        memcpy(&y, b + j, 8);
        x &= y;
        memcpy(out + j, &x, 8);
    }
    for (; j < n; j++)
        out[j] = a[j] & b[j];
}

/* Count the chocolate and bound every full 2 x 2 block.  Per pair of rows,
 * pair[] = row AND next row (eight cells at a time); a block is two adjacent
 * ones in pair[], and only the first and the last of them matter, so two
 * short scans from the ends replace a test per cell. */
static long survey(const position *pos, unsigned char *pair, box *b)
{
    long n = pos->n, count = 0;
    b->any = 0;
    b->top = b->left = n;
    b->bottom = b->right = -1;
    for (long i = 0; i < n; i++) {
        const unsigned char *row = pos->cell + i * n;
        long in_row = count_ones(row, n);
        count += in_row;
        if (i + 1 == n || in_row < 2)
            continue;
        and_rows(pair, row, row + n, n);
        long first = 0;
        while (first + 1 < n && !(pair[first] & pair[first + 1]))
            first++;
        if (first + 1 >= n)
            continue;
        long last = n - 2;
        while (!(pair[last] & pair[last + 1]))
            last--;
        if (!b->any)
            b->top = i;
        b->any = 1;
        b->bottom = i + 1;
        if (first < b->left)
            b->left = first;
        if (last + 1 > b->right)
            b->right = last + 1;
    }
    return count;
}

/* Rows between two checks of the cancel flag (cancel.h): 64 rows of at most
 * 16384 squares, well under a millisecond. */
#define ROWS_PER_CHECK 64

/* Is there an all-chocolate square of side 1 or an odd prime that touches
 * every block?  A corner more than one row below the top block row (or one
 * column right of the leftmost) misses that block, so only those are tried.
 * 1 or 0; -1 with *e when the solve is cancelled. */
static int square_touches(const position *pos, const box *b, const long *prime_floor, int *side,
                          gj_error *e)
{
    long n = pos->n;
    int *below = side, *here = side + (n + 1);
    memset(below, 0, (size_t)(n + 1) * sizeof *below);
    here[n] = 0;
    for (long i = n - 1; i >= 0; i--) {
        if (i % ROWS_PER_CHECK == 0 && i > 0 && gj_cancel_check(e) != 0)
            return -1;
        const unsigned char *row = pos->cell + i * n;
        /* Branch-free: half-eaten bars make `if (row[j])` a coin toss. */
        for (long j = n - 1; j >= 0; j--) {
            int m = below[j] < here[j + 1] ? below[j] : here[j + 1];
            m = below[j + 1] < m ? below[j + 1] : m;
            here[j] = (m + 1) * row[j];
        }
        for (long j = 0; i <= b->top + 1 && j <= b->left + 1 && j < n; j++) {
            long p = prime_floor[here[j]];
            if (p > 0 && i + p - 1 >= b->bottom - 1 && j + p - 1 >= b->right - 1)
                return 1;
        }
        int *t = below;
        below = here;
        here = t;
        here[n] = 0;
    }
    return 0;
}

/* Every candidate square reaches from above the second block row to the
 * last block row and likewise across (square_touches), so it contains the
 * core [top+1, bottom-1] x [left+1, right-1]: one eaten cell there and no
 * square touches every block.  On bars with blocks all over, that settles
 * an odd count with a scan instead of the largest-square pass. */
static bool core_is_chocolate(const position *pos, const box *b)
{
    long n = pos->n, from = b->left + 1, to = b->right - 1;
    if (from > to)
        return true;
    for (long i = b->top + 1; i <= b->bottom - 1; i++)
        if (memchr(pos->cell + i * n + from, 0, (size_t)(to - from + 1)) != NULL)
            return false;
    return true;
}

/* game.h's solve: who eats the last square. */
static int solve(void *p, gj_error *e)
{
    position *pos = p;
    box b;
    unsigned char *pair = malloc((size_t)pos->n);
    if (pair == NULL)
        return gj_fail_nomem(e);
    long count = survey(pos, pair, &b);
    free(pair);
    if (pos->n >= ROWS_PER_CHECK && gj_cancel_check(e) != 0)
        return -1; /* the survey was one pass over the bar; the DP is the second */
    if (count % 2 == 0 || !b.any) {
        /* Even: the 2 x 2 move flips parity.  Odd with no 2 x 2: any single
         * square leaves Dia an even count of odd moves. */
        pos->ruby_wins = count % 2 == 0 ? b.any : 1;
        return 0;
    }
    if (!core_is_chocolate(pos, &b)) {
        pos->ruby_wins = 0;
        return 0;
    }
    long *prime_floor = odd_prime_floor(pos->n);
    int *side = malloc(2 * ((size_t)pos->n + 1) * sizeof *side);
    if (prime_floor == NULL || side == NULL) {
        free(prime_floor);
        free(side);
        return gj_fail_nomem(e);
    }
    int touches = square_touches(pos, &b, prime_floor, side, e);
    free(prime_floor);
    free(side);
    if (touches < 0)
        return -1;
    pos->ruby_wins = touches;
    return 0;
}

/* The solved position's winner as the judge names it. */
static const char *winner(const position *pos)
{
    return pos->ruby_wins ? "RUBY" : "DIA";
}

/* game.h's write_text: the winner's name. */
static void write_text(const void *p, gj_buf *out)
{
    buf_puts(out, winner(p));
    buf_putc(out, '\n');
}

/* game.h's write_json: {"winner": name}. */
static void write_json(const void *p, gj_buf *out)
{
    game_json_open(out, &game_prime_chocolate, "winner");
    buf_putc(out, '"');
    buf_puts(out, winner(p));
    buf_puts(out, "\"}");
}

/* The key (key.h): "n\n", then the cells as bits (1 = chocolate). */
static void write_key(const void *p, gj_buf *out)
{
    const position *pos = p;
    key_head(out, &pos->n, 1);
    key_bits(out, pos->cell, pos->n, pos->n, (size_t)pos->n);
}

/* game.h's cost_us.  Model: 2 us + 6 ns a square (the two-row DP visits
 * each of the n^2 squares once, sequentially).  Measured (cost_fit,
 * bench/NOTES.md): measured / estimate 0.03-0.2 from 4x4 to 3000x3000. */
static double cost_us(const void *p)
{
    const position *pos = p;
    return 2.0 + 0.006 * (double)pos->n * (double)pos->n;
}

/* game.h's work_bytes: solve's pair row, the sieve and the DP's two rows
 * of sides (the answer is one word). */
static size_t work_bytes(const void *p)
{
    const position *pos = p;
    size_t n = (size_t)pos->n;
    return n + (n + 1) * (sizeof(long) + 1) + 2 * (n + 1) * sizeof(int) + 64;
}

const gj_game game_prime_chocolate = {
    .name = "prime-chocolate",
    .display_name = "Prime chocolate",
    .title = "who eats the last square of a chocolate bar (RUBY moves first, or DIA)",
    .example_text = "3\n--X\n---\n---\n",
    .example_json = "{\"grid\": [\"--X\", \"---\", \"---\"]}",
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
    .free_position = free_position,
    .write_key = write_key,
    .analyze = prime_chocolate_analyze,
    .analyze_keys = prime_chocolate_analyze_keys,
    .play = &prime_chocolate_play,
    .example_analyze = "{\"grid\": [\"--X\", \"---\", \"---\"], \"primes_used\": [2], "
                       "\"to_move\": \"RUBY\"}",
    .version = "3",
    .example_generate = "{\"seed\": 42, \"n\": 5, \"winning_moves\": 1}",
    .generate = prime_chocolate_generate,
    .generate_most = prime_chocolate_generate_most,
    .generate_keep = prime_chocolate_generate_keep,
    .generate_knobs = prime_chocolate_generate_knobs,
    .play_move = prime_chocolate_play_move,
    /* Puzzles grow with the band, up to 6 x 6, where a bar a little more
     * eaten keeps the remoteness search (prime_chocolate_far.c), which
     * every candidate's ranking runs, inside its bounds and fast. */
    .puzzle_knobs = {"{\"n\": 4, \"eaten\": 0.3}", "{\"n\": 5, \"eaten\": 0.3}",
                     "{\"n\": 6, \"eaten\": 0.4}"},
    /* Proved in tests/unit/test_prime_chocolate_puzzle.c. */
    .puzzle_depth_max = 1,
    .puzzle_depth_note =
        "a bar with two or more moves has a single winning move only while prime 2 is free, and "
        "that move is either the 2 x 2 bite, after which every bite eats an odd count, or an odd "
        "bite that breaks every full 2 x 2 block, which never forms again; either way, after it "
        "and any reply every move wins, so no second step has one solving move.",
    .motifs = prime_chocolate_motifs,
    /* The difficulty's scale (puzzle.h): bench/puzzle_rate --calibrate 1000. */
    .puzzle_scale = {{0.4228, 0.4835, 0.5081, 0.5091, 0.5805, 0.5809, 0.6340, 0.6632, 0.9640,
                      0.9707}},
    /* The engine's levels 1..4, from bench/levels.c (bench/results.md, "Levels"). */
    .level_ratio = {61525, 58441, 56118, 53082},
};
