/* grid_walk.c - JSOI 2009 "Game": from which cells does the no-revisit walk
 * let the player who chose the start (A) win?
 *
 * The idea: colour the free cells like a chessboard; a move always changes
 * colour, so the cells and their adjacencies form a bipartite graph G.  The
 * player to move from v (B, at the start) loses exactly when some maximum
 * matching M of G leaves v unmatched:
 *   - then every cell B steps onto is matched in M (else M plus that edge
 *     would be larger) and A answers with its mate; a fresh cell B reaches
 *     later is matched too (else the walk so far is an augmenting path), and
 *     its mate is fresh, so A always has a reply and B runs out first;
 *   - if every maximum matching covers v, B steps to v's mate u in one such
 *     M; M without that edge is a maximum matching of G - v missing u, so
 *     now A is the player to move from an unmatched cell and loses.
 * The cells missed by some maximum matching are the unmatched cells of one
 * maximum matching plus every cell reachable from them along an alternating
 * path (any edge, then a matching edge, again and again), which never
 * changes colour.  grid_walk_matching.c finds the matching (push-relabel
 * from a greedy start; neighbours are read off the padded grid) and one BFS
 * marks them all.  Memory: about 12 bytes per cell of the padded grid and 16
 * per free cell.  The matching and the JSON grid
 * reader serve POST /analyze too (grid_walk_core.h, grid_walk_analysis.c). */
#include <stdatomic.h>
#include <stdbool.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "game.h"
#include "grid_walk.h"
#include "generate.h"
#include "grid_row.h"
#include "grid_walk_core.h"
#include "grid_walk_matching.h"
#include "json_in.h"
#include "json_pull.h"
#include "json_seen.h"
#include "key.h"
#include "reader.h"
#include "text_read.h"

#define MAX_SIDE 2000

/* Vertex and cell numbers are ints. */
_Static_assert((MAX_SIDE + 2L) * (MAX_SIDE + 2L) <= INT_MAX, "padded grid must fit an int");

static const gj_limit_def limits[] = {
    {"rows", "rows of the grid (N)", 100, 1, MAX_SIDE},
    {"cols", "columns of the grid (M)", 100, 1, MAX_SIDE},
};

typedef gw_position position;

void gw_free_position(void *p)
{
    position *pos = p;
    if (pos == NULL)
        return;
    free(pos->open);
    free(pos->winners);
    free(pos);
}

/* An all-blocked grid of rows x cols inside its border, or NULL with *e. */
static position *new_position(long rows, long cols, gj_error *e)
{
    if (rows > MAX_SIDE || cols > MAX_SIDE) {
        gj_fail(e, GJ_BAD_INPUT, "a %ld x %ld grid is larger than the %d x %d this solver allows",
                rows, cols, MAX_SIDE, MAX_SIDE);
        return NULL;
    }
    position *pos = calloc(1, sizeof *pos);
    if (pos != NULL)
        pos->open = calloc((size_t)(rows + 2) * (size_t)(cols + 2), 1);
    if (pos == NULL || pos->open == NULL) {
        gw_free_position(pos);
        gj_fail_nomem(e);
        return NULL;
    }
    pos->rows = rows;
    pos->cols = cols;
    pos->width = (int)cols + 2;
    return pos;
}

/* The first cell of row i (0-based), past the border. */
static unsigned char *row_cells(position *pos, long i)
{
    return pos->open + (size_t)(i + 1) * (size_t)pos->width + 1;
}

/* A grid-walk row: '.' is a free cell (1), '#' a blocked one (0). */
static const grid_alphabet row_alphabet = {'.', '#', NULL, "'.' (free) or '#' (blocked)", 1};

/* Where a judge-text parse is (text_read.h): "N M", the rows, the end. */
enum { GWT_ROWS, GWT_COLS, GWT_GRID, GWT_END, GWT_DONE };

typedef struct gw_text {
    gj_text_made made; /* the position */
    int phase;
    long rows, cols, row; /* the size, and the next row's index */
} gw_text;

/* text_read.h's step: "N M", then N rows of M cells. */
static int step_text(void *state, const text_pull *t, gj_reader *r, const long *lim, gj_error *e)
{
    gw_text *s = state;
    switch (s->phase) {
    case GWT_ROWS:
        if (!text_pull_has(t, r, 1))
            return 0;
        if (reader_long(r, "the number of rows N", 1, lim[GW_LIMIT_ROWS], &s->rows, e) != 0)
            return -1;
        s->phase = GWT_COLS;
        /* fall through */
    case GWT_COLS:
        if (!text_pull_has(t, r, 1))
            return 0;
        if (reader_long(r, "the number of columns M", 1, lim[GW_LIMIT_COLS], &s->cols, e) != 0)
            return -1;
        s->made.pos = new_position(s->rows, s->cols, e);
        if (s->made.pos == NULL)
            return -1;
        s->phase = GWT_GRID;
        /* fall through */
    case GWT_GRID:
        for (; s->row < s->rows; s->row++) {
            if (!text_pull_has(t, r, 1))
                return 0;
            if (grid_row_text(r, &row_alphabet, s->row, s->rows, row_cells(s->made.pos, s->row),
                              s->cols, e) != 0)
                return -1;
        }
        s->phase = GWT_END;
        /* fall through */
    case GWT_END:
        if (!t->ended)
            return 0;
        if (reader_end(r, e) != 0)
            return -1;
        s->phase = GWT_DONE;
        s->made.done = true;
        return 0;
    default:
        return 0;
    }
}

static const gj_text_steps text_steps = {sizeof(gw_text), step_text, gw_free_position, NULL};

/* Judge text read as it arrives (read_text) and whole (parse_text). */
GJ_TEXT_READER(text_steps)

/* The width comes from grid[0], so check that row before allocating. */
static int json_width(const json_t *grid, const long *lim, long *cols, gj_error *e)
{
    long len = grid_row_json(&row_alphabet, json_array_get(grid, 0), "grid", 0, NULL, 0, e);
    if (len < 0)
        return -1;
    if (len < 1 || len > lim[GW_LIMIT_COLS])
        return gj_fail_field(e, "grid[0]",
                             "the number of columns must be between 1 and %ld, found %ld",
                             lim[GW_LIMIT_COLS], len);
    *cols = len;
    return 0;
}

gw_position *gw_parse_grid(const json_t *grid, const long *lim, gj_error *e)
{
    long cols = 0;
    if (jin_array(grid, "grid", -1, 1, (size_t)lim[GW_LIMIT_ROWS], e) != 0 ||
        json_width(grid, lim, &cols, e) != 0)
        return NULL;
    long rows = (long)json_array_size(grid);
    position *pos = new_position(rows, cols, e);
    if (pos == NULL)
        return NULL;
    for (long i = 0; i < rows; i++) {
        long n = grid_row_json(&row_alphabet, json_array_get(grid, (size_t)i), "grid", i,
                               row_cells(pos, i), cols, e);
        if (n < 0)
            goto fail;
        if (n != cols) {
            char field[32];
            jin_field_name(field, sizeof field, "grid", i, -1);
            gj_fail_field(e, field, "row %ld has %ld cells, expected %ld (the width of grid[0])",
                          i + 1, n, cols);
            goto fail;
        }
    }
    return pos;
fail:
    gw_free_position(pos);
    return NULL;
}

/* ---- the JSON body read as it arrives (json_pull.h), into the grid ----
 *
 * The checks and messages are gw_parse_grid's, in its order: the members,
 * then "grid" an array of 1..rows strings, then grid[0] (its cells fix the
 * width), then each row.  A row's verdict needs nothing the rows after it
 * say, so a row is decoded straight into the padded grid as it arrives,
 * and the first wrong one has its error written at once and ends the
 * keeping; only the count of rows, which can still fail before it, is
 * judged at the end.  Rows past the limit are only counted. */

/* The members the body takes: "grid" alone. */
static const char *const gwj_keys[] = {"grid", NULL};

/* The reader between chunks. */
typedef struct gw_json_reader {
    jseen_body body; /* what "grid" is: body.value[0] */
    long lim_rows, lim_cols;
    size_t rows; /* the grid's elements, every one counted */
    int broken;  /* row_error holds the first wrong row's error */
    gj_error row_error;
    long cols;           /* the width of grid[0], once it is read */
    int width;           /* cols + 2 */
    unsigned char *open; /* the padded grid so far: the top border, then the rows */
    size_t cap_rows;     /* padded rows open[] has room for */
} gw_json_reader;

/* grid_row_json's verdict on row i as the event gives it (no string, or
 * a stranger byte), into the reader's row error: 0, or -1 when memory is
 * short. */
static int gwj_row_verdict(gw_json_reader *r, const jpull_event *ev, long i)
{
    json_t *v = jseen_event_value(ev);
    if (v == NULL)
        return -1;
    r->broken = 1;
    grid_row_json(&row_alphabet, v, "grid", i, NULL, 0, &r->row_error);
    json_decref(v);
    return 0;
}

/* Room in open[] for padded row `row`: 0, or -1 when memory is short. */
static int gwj_reserve(gw_json_reader *r, size_t row)
{
    if (row < r->cap_rows)
        return 0;
    size_t cap = r->cap_rows > 0 ? 2 * r->cap_rows : 8;
    while (cap <= row)
        cap *= 2;
    unsigned char *more = realloc(r->open, cap * (size_t)r->width);
    if (more == NULL)
        return -1;
    r->open = more;
    r->cap_rows = cap;
    return 0;
}

/* Row 0: its cells fix the width; the top border and the row are laid
 * down.  0, or -1 when memory is short. */
static int gwj_first_row(gw_json_reader *r, const jpull_event *ev)
{
    size_t bad = 0;
    long cells = grid_row_decode(&row_alphabet, ev->str, ev->len, NULL, 0, &bad);
    if (cells < 0)
        return gwj_row_verdict(r, ev, 0);
    if (cells < 1 || cells > r->lim_cols) {
        r->broken = 1;
        gj_fail_field(&r->row_error, "grid[0]",
                      "the number of columns must be between 1 and %ld, found %ld", r->lim_cols,
                      cells);
        return 0;
    }
    r->cols = cells;
    r->width = (int)cells + 2;
    if (gwj_reserve(r, 1) != 0)
        return -1;
    memset(r->open, 0, 2 * (size_t)r->width);
    grid_row_decode(&row_alphabet, ev->str, ev->len, r->open + r->width + 1, cells, &bad);
    return 0;
}

/* Element i of the grid begins: decoded into padded row i + 1 while no
 * earlier row is wrong and i is under the limit.  0, or -1 when memory is
 * short. */
static int gwj_row(gw_json_reader *r, const jpull_event *ev)
{
    size_t i = r->rows++;
    if (i >= (size_t)r->lim_rows || r->broken)
        return 0;
    if (ev->kind != JPULL_STRING)
        return gwj_row_verdict(r, ev, (long)i);
    if (i == 0)
        return gwj_first_row(r, ev);
    if (gwj_reserve(r, i + 1) != 0)
        return -1;
    unsigned char *row = r->open + (i + 1) * (size_t)r->width;
    row[0] = row[r->width - 1] = 0;
    size_t bad = 0;
    long cells = grid_row_decode(&row_alphabet, ev->str, ev->len, row + 1, r->cols, &bad);
    if (cells < 0)
        return gwj_row_verdict(r, ev, (long)i);
    if (cells != r->cols) {
        char field[32];
        jin_field_name(field, sizeof field, "grid", (long)i, -1);
        r->broken = 1;
        gj_fail_field(&r->row_error, field,
                      "row %ld has %ld cells, expected %ld (the width of grid[0])", (long)i + 1,
                      cells, r->cols);
    }
    return 0;
}

/* jseen_body's inner function: an event inside "grid", the only member.
 * A row is an event at depth 2; ends there close a row already judged, and
 * deeper events are inside one.  0, or -1 when memory is short. */
static int gwj_inner(void *ctx, int member, const jpull_event *ev)
{
    (void)member;
    if (ev->depth != 2 || ev->kind == JPULL_ARRAY_END || ev->kind == JPULL_OBJECT_END)
        return 0;
    return gwj_row(ctx, ev);
}

/* A reader for a body under `lim`, or NULL with *e. */
static gw_json_reader *gwj_open(const long *lim, gj_error *e)
{
    gw_json_reader *r = calloc(1, sizeof *r);
    if (r == NULL) {
        gj_fail_nomem(e);
        return NULL;
    }
    if (jseen_body_init(&r->body, gwj_keys, gwj_inner, r, e) != 0) {
        free(r);
        return NULL;
    }
    r->lim_rows = lim[GW_LIMIT_ROWS];
    r->lim_cols = lim[GW_LIMIT_COLS];
    return r;
}

/* Free a reader (NULL is fine). */
static void gwj_close(gw_json_reader *r)
{
    if (r == NULL)
        return;
    jseen_body_free(&r->body);
    free(r->open);
    free(r);
}

/* What the reader kept, checked in gw_parse_grid's order: the position,
 * or NULL with *e. */
static position *gwj_position(gw_json_reader *r, gj_error *e)
{
    if (jseen_array(&r->body.value[0], r->rows, "grid", -1, 1, (size_t)r->lim_rows, e) != 0)
        return NULL;
    if (r->broken) {
        *e = r->row_error;
        return NULL;
    }
    long rows = (long)r->rows;
    if (rows > MAX_SIDE || r->cols > MAX_SIDE) {
        gj_fail(e, GJ_BAD_INPUT, "a %ld x %ld grid is larger than the %d x %d this solver allows",
                rows, r->cols, MAX_SIDE, MAX_SIDE);
        return NULL;
    }
    size_t last = (size_t)rows + 1;
    if (gwj_reserve(r, last) != 0)
        goto nomem;
    memset(r->open + last * (size_t)r->width, 0, (size_t)r->width);
    size_t size = (last + 1) * (size_t)r->width;
    unsigned char *open = size < r->cap_rows * (size_t)r->width ? realloc(r->open, size) : r->open;
    if (open == NULL)
        goto nomem;
    r->open = open;
    position *pos = calloc(1, sizeof *pos);
    if (pos == NULL)
        goto nomem;
    pos->rows = rows;
    pos->cols = r->cols;
    pos->width = r->width;
    pos->open = r->open;
    r->open = NULL;
    return pos;
nomem:
    gj_fail_nomem(e);
    return NULL;
}

/* gj_body_reader's open. */
static void *read_open(const long *lim, size_t expect, gj_error *e)
{
    (void)expect; /* the JSON reader keeps no copy of the body */
    return gwj_open(lim, e);
}

/* gj_body_reader's feed: the next n bytes to json_pull. */
static int read_feed(void *r, const char *p, size_t n, gj_error *e)
{
    return jseen_body_feed(&((gw_json_reader *)r)->body, p, n, e);
}

/* gj_body_reader's finish: the position, the reader freed. */
static void *read_finish(void *p, gj_error *e)
{
    gw_json_reader *r = p;
    position *pos = jseen_body_end(&r->body, e) == 0 ? gwj_position(r, e) : NULL;
    gwj_close(r);
    return pos;
}

/* gj_body_reader's close. */
static void read_close(void *r)
{
    gwj_close(r);
}

/* The JSON body {"grid": [row, ...]} as it arrives. */
static const gj_body_reader read_json = {read_open, read_feed, read_finish, read_close};

/* game.h's parse_json: the whole body fed to the reader at once. */
static void *parse_json(const char *buf, size_t len, const long *lim, gj_error *e)
{
    return game_read_whole(&read_json, buf, len, lim, e);
}

/* The marked cells, in order, into pos->winners: 0, or -1 when out of memory. */
static int collect_winners(position *pos, const unsigned char *mark, int cells)
{
    long count = 0;
    for (int c = 0; c < cells; c++)
        count += mark[c];
    pos->winners = malloc(((size_t)count + 1) * sizeof *pos->winners);
    if (pos->winners == NULL)
        return -1;
    pos->nwinners = 0;
    for (int c = 0; c < cells; c++)
        if (mark[c])
            pos->winners[pos->nwinners++] = c;
    return 0;
}

int gw_solve_with(void *p, gw_algorithm how, gj_error *e)
{
    position *pos = p;
    free(pos->winners);
    pos->winners = NULL;
    pos->nwinners = 0;
    gw_matching *m = gw_match_with(pos, how, e);
    if (m == NULL)
        return -1;
    int cells = (int)((pos->rows + 2) * pos->width);
    unsigned char *mark = malloc((size_t)cells);
    int rc = -1;
    if (mark != NULL) {
        gw_mark_avoidable(m, mark);
        rc = collect_winners(pos, mark, cells);
    }
    free(mark);
    gw_free_matching(m);
    return rc == 0 ? 0 : gj_fail_nomem(e);
}

/* game.h's solve.  GAMEJUDGE_GRID_MATCHING=hk selects the former
 * Hopcroft-Karp matching: for bench/run.sh's side-by-side table only, not a
 * documented option (the answer is the same either way). */
int gw_solve(void *p, gj_error *e)
{
    /* Read once (0 unknown, 1 push-relabel, 2 Hopcroft-Karp): a getenv
     * per solve was a visible share of a tiny request's CPU. */
    static atomic_int matching;
    int m = atomic_load_explicit(&matching, memory_order_relaxed);
    if (m == 0) {
        const char *how = getenv("GAMEJUDGE_GRID_MATCHING");
        m = how != NULL && strcmp(how, "hk") == 0 ? 2 : 1;
        atomic_store_explicit(&matching, m, memory_order_relaxed);
    }
    return gw_solve_with(p, m == 2 ? GW_HOPCROFT_KARP : GW_PUSH_RELABEL, e);
}

/* game.h's write_text: LOSE, or WIN and a winning start cell a line. */
static void write_text(const void *p, gj_buf *out)
{
    const position *pos = p;
    if (pos->nwinners == 0) {
        buf_puts(out, "LOSE\n");
        return;
    }
    buf_puts(out, "WIN\n");
    for (long i = 0; i < pos->nwinners; i++) {
        buf_put_long(out, pos->winners[i] / pos->width);
        buf_putc(out, ' ');
        buf_put_long(out, pos->winners[i] % pos->width);
        buf_putc(out, '\n');
    }
}

/* game.h's write_json: the verdict and the winning cells. */
static void write_json(const void *p, gj_buf *out)
{
    const position *pos = p;
    game_json_open(out, &game_grid_walk, "verdict");
    buf_putc(out, '"');
    buf_puts(out, pos->nwinners > 0 ? "WIN" : "LOSE");
    buf_puts(out, "\",\"winning_cells\":[");
    for (long i = 0; i < pos->nwinners; i++) {
        buf_puts(out, i > 0 ? ",[" : "[");
        buf_put_long(out, pos->winners[i] / pos->width);
        buf_putc(out, ',');
        buf_put_long(out, pos->winners[i] % pos->width);
        buf_putc(out, ']');
    }
    buf_puts(out, "]}");
}

/* The key (key.h): "N M\n", then the cells as bits (1 = free). */
static void write_key(const void *p, gj_buf *out)
{
    const position *pos = p;
    const long head[2] = {pos->rows, pos->cols};
    key_head(out, head, 2);
    key_bits(out, pos->open + pos->width + 1, pos->rows, pos->cols, (size_t)pos->width);
}

/* game.h's cost_us.  Model: 5 us + 80 ns a cell, times sqrt(cells) / 16
 * (rounded up to a power of 2) for the matching's phases: Hopcroft-Karp's
 * O(E sqrt V) bound, E <= 2V, with the phase count measured far below
 * sqrt V.  Conservative on purpose: the time depends on the layout, not
 * only on the size.  Measured (cost_fit, bench/NOTES.md): measured /
 * estimate 0.06-0.7 on 10x10 to 2000x2000, open and 8% blocked. */
static double cost_us(const void *p)
{
    const position *pos = p;
    double cells = (double)pos->rows * (double)pos->cols;
    double phases = 1; /* sqrt(cells) / 16 rounded up to a power of 2, without libm */
    while (phases * phases * 256 < cells)
        phases *= 2;
    return 5.0 + 0.080 * cells * phases;
}

/* The decimal digits of v >= 0. */
static size_t decimal_digits(long v)
{
    size_t d = 1;
    for (; v >= 10; v /= 10)
        d++;
    return d;
}

/* game.h's work_bytes: the matching, the marks and the winners of
 * gw_solve_with, and the answer: a line or "[r,c]," per winning cell, at
 * most every cell, twice over for the buffer's growth. */
static size_t work_bytes(const void *p)
{
    const position *pos = p;
    size_t cells = (size_t)(pos->rows + 2) * (size_t)pos->width;
    size_t most = (size_t)pos->rows * (size_t)pos->cols;
    size_t each = decimal_digits(pos->rows) + decimal_digits(pos->cols) + 4;
    return gw_matching_bytes(pos) + cells + (most + 1) * sizeof(int) + 2 * (most * each + 64);
}

const gj_game game_grid_walk = {
    .name = "grid-walk",
    .display_name = "Grid walk",
    .title = "the start cells from which the player who places the token (A) wins the "
             "no-revisit walk, B moving first",
    .example_text = "2 3\n..#\n...\n",
    .example_json = "{\"grid\": [\"..#\", \"...\"]}",
    .limits = limits,
    .nlimits = GJ_NLIMITS(limits),
    .parse_text = parse_text,
    .read_text = &read_text,
    .parse_json = parse_json,
    .read_json = &read_json,
    .solve = gw_solve,
    .cost_us = cost_us,
    .work_bytes = work_bytes,
    .write_text = write_text,
    .write_json = write_json,
    .free_position = gw_free_position,
    .write_key = write_key,
    .analyze = grid_walk_analyze,
    .analyze_keys = grid_walk_analyze_keys,
    .play = &grid_walk_play,
    .example_analyze = "{\"grid\": [\"..#\", \"...\", \".#.\"], \"path\": [[2, 2], [2, 1]], "
                       "\"max_moves\": 10}",
    .version = "3",
    .example_generate = "{\"seed\": 42, \"rows\": 4, \"cols\": 5, \"outcome\": \"win\"}",
    .generate = grid_walk_generate,
    .generate_most = grid_walk_generate_most,
    .generate_keep = grid_walk_generate_keep,
    .generate_knobs = grid_walk_generate_knobs,
    .play_move = grid_walk_play_move,
    /* Puzzles grow with the band, up to 8 x 8 with walls enough that the
     * token's room stays within the remoteness search's bound; one-cell
     * paths ("visited": 1), since a puzzle's first step needs the token's
     * four neighbours open (min_moves 4) and a longer path takes one. */
    .puzzle_knobs = {"{\"rows\": 5, \"cols\": 5, \"density\": 0.35, \"visited\": 1}",
                     "{\"rows\": 6, \"cols\": 6, \"density\": 0.35, \"visited\": 1}",
                     "{\"rows\": 8, \"cols\": 8, \"density\": 0.4, \"visited\": 1}"},
    .motifs = grid_walk_motifs,
    /* The difficulty's scale (puzzle.h): bench/puzzle_rate --calibrate 1000. */
    .puzzle_scale =
        {{0.0259, 0.0322, 0.0433, 0.1729, 0.2592, 0.3798, 0.4508, 0.5414, 0.6061, 0.7271},
         {0.2082, 0.3297, 0.4008, 0.5214, 0.5896, 0.6465, 0.7013, 0.7590, 0.8235, 0.9048},
         {0.3222, 0.4826, 0.5913, 0.6690, 0.7344, 0.7844, 0.8239, 0.8578, 0.9005, 0.9535}},
    /* The engine's levels 1..4, from bench/levels.c (bench/results.md, "Levels"). */
    .level_ratio = {65156, 61902, 59450, 56243},
};
