/* matrix_game_read.c - a matrix-game position read: the judge text as it
 * arrives, the JSON body as it arrives (also driven by an /analyze body's
 * events), the JSON twin over a jansson tree (the analysis's reference),
 * and the matrix written back as jansson's compact dump would write it.
 * Every path checks in the same order and names a repeat where it was
 * given (line and column in text, the field path in JSON).  The entry
 * points are in matrix_game_core.h; matrix_game.c serves them through
 * game.h's reader macros. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "json_in.h"
#include "json_pull.h"
#include "json_seen.h"
#include "matrix_game_core.h"
#include "reader.h"
#include "text_read.h"

/* The local name of the shared position (matrix_game_core.h). */
typedef mg_position position;

/* Append the allowed range of k to an error about k: the bare bounds do not
 * say where n - 2 came from. */
static void explain_k(gj_error *e, long n)
{
    size_t used = strlen(e->message);
    if (used < sizeof e->message)
        snprintf(e->message + used, sizeof e->message - used,
                 " (1 <= k <= n - 2, where n = %ld is the side of the matrix)", n);
}

/* Line and column of token `index` of the judge text (0 = n, 1 = k, then the
 * cells in row order).  Only error paths call it, so it simply reads again. */
static void locate_token(const char *buf, size_t len, long index, long *line, long *col)
{
    gj_reader r;
    gj_error ignored;
    const char *word;
    size_t wlen;
    reader_init(&r, buf, len);
    *line = *col = 0;
    for (long t = 0; t <= index; t++)
        if (reader_word(&r, "a token", &word, &wlen, line, col, &ignored) != 0)
            return;
}

/* The hot loop reads with a fixed description; on failure read the same
 * token again from `r` (the state before the failed read), naming the cell,
 * so the message says which one was expected. */
static int fail_value_text(gj_reader *r, long i, long j, long n, gj_error *e)
{
    char what[128];
    long v;
    snprintf(what, sizeof what, "the value at row %ld, column %ld of the %ld x %ld matrix", i + 1,
             j + 1, n, n);
    reader_long(r, what, 1, n * n, &v, e);
    return -1;
}

/* mg_index_cells, a repeat reported by its lines and columns: 0, or -1 with *e. */
static int index_cells_text(const char *buf, size_t len, position *pos, gj_error *e)
{
    gj_repeat status = mg_index_cells(pos, e);
    long n = pos->n, first, second, line, col, first_line, first_col;
    if (status != GJ_REPEAT_FOUND)
        return status == GJ_NO_REPEAT ? 0 : -1;
    if (mg_find_repeat(pos, &first, &second, e) != 0)
        return -1;
    locate_token(buf, len, 2 + second, &line, &col);
    locate_token(buf, len, 2 + first, &first_line, &first_col);
    return gj_fail_at(e, line, col,
                      "value %lu appears twice, at row %ld, column %ld (line %ld, column %ld) "
                      "and at row %ld, column %ld; the matrix must hold each of 1..%ld once",
                      (unsigned long)pos->value[second], first / n + 1, first % n + 1, first_line,
                      first_col, second / n + 1, second % n + 1, n * n);
}

/* Where a judge-text parse is (text_read.h): "n k", then the n x n values,
 * then the repeat check and the end. */
enum { MGT_N, MGT_K, MGT_CELLS, MGT_END, MGT_DONE };

typedef struct mg_text {
    gj_text_made made; /* the position */
    int phase;
    long n, cell; /* the side, and the next value's index */
} mg_text;

/* The values from cell s->cell on, while whole tokens are there: 0, or -1
 * with *e naming the cell. */
static int step_cells(mg_text *s, const text_pull *t, gj_reader *r, gj_error *e)
{
    long n = s->n, nn = n * n, cell = s->cell;
    uint32_t *value = ((position *)s->made.pos)->value;
    for (; cell < nn && text_pull_has(t, r, 1); cell++) {
        gj_reader before = *r;
        long v;
        if (reader_long(r, "a matrix value", 1, nn, &v, e) != 0)
            return fail_value_text(&before, cell / n, cell % n, n, e);
        value[cell] = (uint32_t)v;
    }
    s->cell = cell;
    return 0;
}

/* text_read.h's step: "n k", then the n x n values. */
static int step_text(void *state, const text_pull *t, gj_reader *r, const long *lim, gj_error *e)
{
    mg_text *s = state;
    long k;
    switch (s->phase) {
    case MGT_N:
        if (!text_pull_has(t, r, 1))
            return 0;
        if (reader_long(r, "the side n", 3, lim[MG_LIMIT_N], &s->n, e) != 0)
            return -1;
        s->phase = MGT_K;
        /* fall through */
    case MGT_K:
        if (!text_pull_has(t, r, 1))
            return 0;
        if (reader_long(r, "k", 1, s->n - 2, &k, e) != 0) {
            explain_k(e, s->n);
            return -1;
        }
        s->made.pos = mg_position_new(s->n, k, e);
        if (s->made.pos == NULL)
            return -1;
        s->phase = MGT_CELLS;
        /* fall through */
    case MGT_CELLS:
        if (step_cells(s, t, r, e) != 0)
            return -1;
        if (s->cell < s->n * s->n)
            return 0;
        s->phase = MGT_END;
        /* fall through */
    case MGT_END:
        if (!t->ended)
            return 0;
        /* A repeat is reported before trailing garbage: it comes first in
         * the input. */
        if (index_cells_text(t->base, t->len, s->made.pos, e) != 0 || reader_end(r, e) != 0)
            return -1;
        s->phase = MGT_DONE;
        s->made.done = true;
        return 0;
    default:
        return 0;
    }
}

/* A made position's free (text_read.h, game.h): mg_free through void. */
static void free_made(void *pos)
{
    mg_free(pos);
}

const gj_text_steps mg_text_steps = {sizeof(mg_text), step_text, free_made, NULL};

/* "matrix[i]: row i + 1 has len values, expected n": always -1. */
static int fail_row_length(long i, size_t len, long n, gj_error *e)
{
    char field[sizeof e->field];
    jin_field_name(field, sizeof field, "matrix", i, -1);
    return gj_fail_field(e, field, "row %ld has %zu values, expected %ld (the matrix is square)",
                         i + 1, len, n);
}

/* matrix[i], n values in 1..n^2, into row i: 0, or -1 with *e. */
static int read_row_json(const json_t *row, long i, position *pos, gj_error *e)
{
    long n = pos->n, nn = n * n;
    if (jin_array(row, "matrix", i, 0, SIZE_MAX, e) != 0)
        return -1;
    if (json_array_size(row) != (size_t)n)
        return fail_row_length(i, json_array_size(row), n, e);
    for (long j = 0; j < n; j++) {
        long v;
        if (jin_long(json_array_get(row, (size_t)j), "matrix", i, j, 1, nn, &v, e) != 0)
            return -1;
        pos->value[i * n + j] = (uint32_t)v;
    }
    return 0;
}

/* mg_index_cells, a repeat reported by its JSON fields: 0, or -1 with *e. */
static int index_cells_json(position *pos, gj_error *e)
{
    gj_repeat status = mg_index_cells(pos, e);
    long n = pos->n, first, second;
    if (status != GJ_REPEAT_FOUND)
        return status == GJ_NO_REPEAT ? 0 : -1;
    if (mg_find_repeat(pos, &first, &second, e) != 0)
        return -1;
    char field[sizeof e->field], earlier[sizeof e->field];
    jin_field_name(field, sizeof field, "matrix", second / n, second % n);
    jin_field_name(earlier, sizeof earlier, "matrix", first / n, first % n);
    return gj_fail_field(e, field,
                         "value %lu appears twice, at row %ld, column %ld (%s) and at row %ld, "
                         "column %ld; the matrix must hold each of 1..%ld once",
                         (unsigned long)pos->value[second], first / n + 1, first % n + 1, earlier,
                         second / n + 1, second % n + 1, n * n);
}

mg_position *mg_from_json(const json_t *root, const long *lim, gj_error *e)
{
    const json_t *matrix = json_object_get(root, "matrix");
    if (jin_array(matrix, "matrix", -1, 3, (size_t)lim[MG_LIMIT_N], e) != 0)
        return NULL;
    long n = (long)json_array_size(matrix), k;
    if (jin_long(json_object_get(root, "k"), "k", -1, -1, 1, n - 2, &k, e) != 0) {
        explain_k(e, n);
        return NULL;
    }
    position *pos = mg_position_new(n, k, e);
    if (pos == NULL)
        return NULL;
    for (long i = 0; i < n; i++) {
        if (read_row_json(json_array_get(matrix, (size_t)i), i, pos, e) != 0) {
            mg_free(pos);
            return NULL;
        }
    }
    if (index_cells_json(pos, e) != 0) {
        mg_free(pos);
        return NULL;
    }
    return pos;
}

/* ---- the JSON body read as it arrives (json_pull.h), into the arrays ----
 *
 * The checks and messages are mg_from_json's, in its order, but the body
 * comes as events and n, the number of rows, is known only when the matrix
 * ends.  So the reader keeps what finding the FIRST error in that order
 * needs: the types of "k" and "matrix", and for each row up to the first
 * one that is wrong whatever n turns out to be, its type, its length, its
 * values (as uint32, in one row-major block that becomes the position's
 * matrix) and the first value that no n admits.  A value some other n
 * would admit (50 in a 3 x 3 matrix) is kept and judged at the end.  Rows
 * past the limit on n are only counted: the size check fails before any
 * row is read. */

/* What the reader keeps of one row of the matrix. */
typedef struct mgj_row {
    jseen as;   /* the row itself: an array, or what it is instead */
    size_t len; /* its elements */
    size_t off; /* where its values start in the block */
    size_t bad; /* the first value no n admits, SIZE_MAX when none */
    jseen what; /* that value */
} mgj_row;

/* The members' indices in mgj_keys (and the reader's body.value). */
enum { MGJ_K = 0, MGJ_MATRIX = 1 };

/* The members the body takes. */
static const char *const mgj_keys[] = {"k", "matrix", NULL};

/* The reader between chunks (matrix_game_core.h). */
struct mg_json_reader {
    jseen_body body; /* what "k" and "matrix" are: body.value[MGJ_K], [MGJ_MATRIX] */
    long lim_n;
    long long most; /* lim_n^2: a value above it is wrong for every n */
    size_t rows;    /* the matrix's elements, every one counted */
    mgj_row *row;   /* the first nrow rows */
    size_t nrow, cap_row;
    size_t broken;   /* the first row wrong for every n, SIZE_MAX while none */
    uint32_t *value; /* the kept rows' values, row after row */
    size_t nvalue, cap_value;
};

/* The block holds at least `want` values: 0, or -1 when memory is short. */
static int mgj_reserve(mg_json_reader *r, size_t want)
{
    if (want <= r->cap_value)
        return 0;
    /* Doubling while values come one by one; exactly `want` when told the
     * size, so the n x n block of a valid body is no larger than it must. */
    size_t cap = r->cap_value > 0 ? 2 * r->cap_value : 64;
    if (cap < want)
        cap = want;
    uint32_t *more = realloc(r->value, cap * sizeof *more);
    if (more == NULL)
        return -1;
    r->value = more;
    r->cap_value = cap;
    return 0;
}

/* A row begins (element `rows` of the matrix): kept when under the limit
 * and no earlier row is wrong for every n.  0, or -1 when memory is short. */
static int mgj_row_open(mg_json_reader *r, jseen as)
{
    size_t i = r->rows++;
    if (i >= (size_t)r->lim_n || r->broken != SIZE_MAX)
        return 0;
    if (r->nrow == r->cap_row) {
        size_t cap = r->cap_row > 0 ? 2 * r->cap_row : 16;
        mgj_row *more = realloc(r->row, cap * sizeof *more);
        if (more == NULL)
            return -1;
        r->row = more;
        r->cap_row = cap;
    }
    mgj_row *w = &r->row[r->nrow++];
    w->as = as;
    w->len = 0;
    w->off = r->nvalue;
    w->bad = SIZE_MAX;
    if (as.type != JSON_ARRAY)
        r->broken = i;
    return 0;
}

/* The current row has ended: one longer than any n is wrong, and the first
 * row's length is the likely n, so the block is sized for n x n once. */
static int mgj_row_close(mg_json_reader *r)
{
    mgj_row *w = &r->row[r->nrow - 1];
    if (w->len > (size_t)r->lim_n && r->broken == SIZE_MAX)
        r->broken = r->nrow - 1;
    if (r->nrow == 1 && w->bad == SIZE_MAX && w->len >= 3 && w->len <= (size_t)r->lim_n)
        return mgj_reserve(r, w->len * w->len);
    return 0;
}

/* A value of the current (kept, array) row: kept in the block, or noted as
 * the row's first value no n admits.  0, or -1 when memory is short. */
static int mgj_cell(mg_json_reader *r, jseen v)
{
    mgj_row *w = &r->row[r->nrow - 1];
    size_t j = w->len++;
    if (w->bad != SIZE_MAX || j >= (size_t)r->lim_n)
        return 0; /* the row is wrong already: its length or an earlier value says so */
    if (v.type != JSON_INTEGER || v.integer < 1 || v.integer > r->most) {
        w->bad = j;
        w->what = v;
        if (r->broken == SIZE_MAX)
            r->broken = r->nrow - 1;
        return 0;
    }
    if (r->nvalue == r->cap_value && mgj_reserve(r, r->nvalue + 1) != 0)
        return -1;
    r->value[r->nvalue++] = (uint32_t)v.integer;
    return 0;
}

/* The matrix's own events: a row at depth 2, its values at depth 3, deeper
 * ones only inside a value already judged.  0, or -1 when memory is short. */
static int mgj_matrix_event(mg_json_reader *r, const jpull_event *ev)
{
    int kept = r->nrow > 0 && r->nrow == r->rows && r->row[r->nrow - 1].as.type == JSON_ARRAY;
    if (ev->depth == 2) {
        if (ev->kind == JPULL_ARRAY_END)
            return kept ? mgj_row_close(r) : 0;
        if (ev->kind == JPULL_OBJECT_END)
            return 0;
        return mgj_row_open(r, jseen_of(ev));
    }
    if (ev->depth == 3 && kept && ev->kind != JPULL_ARRAY_END && ev->kind != JPULL_OBJECT_END)
        return mgj_cell(r, jseen_of(ev));
    return 0;
}

/* jseen_body's inner function: only the matrix's events are kept. */
static int mgj_inner(void *ctx, int member, const jpull_event *ev)
{
    return member == MGJ_MATRIX ? mgj_matrix_event(ctx, ev) : 0;
}

/* A reader with nothing read yet and no pull (jseen_body_init_events):
 * NULL with *e when memory is short. */
static mg_json_reader *mgj_new(const long *lim, gj_error *e)
{
    mg_json_reader *r = calloc(1, sizeof *r);
    if (r == NULL) {
        gj_fail_nomem(e);
        return NULL;
    }
    jseen_body_init_events(&r->body, mgj_keys, mgj_inner, r);
    r->lim_n = lim[MG_LIMIT_N];
    r->most = (long long)r->lim_n * r->lim_n;
    r->broken = SIZE_MAX;
    return r;
}

mg_json_reader *mg_json_open(const long *lim, gj_error *e)
{
    mg_json_reader *r = mgj_new(lim, e);
    if (r != NULL && jseen_body_init(&r->body, mgj_keys, mgj_inner, r, e) != 0) {
        free(r);
        return NULL;
    }
    return r;
}

int mg_json_feed(mg_json_reader *r, const char *p, size_t n, gj_error *e)
{
    return jseen_body_feed(&r->body, p, n, e);
}

void mg_json_close(mg_json_reader *r)
{
    if (r == NULL)
        return;
    jseen_body_free(&r->body);
    free(r->row);
    free(r->value);
    free(r);
}

/* Row i of an n x n matrix as read_row_json judges it: 0, or -1 with *e. */
static int mgj_check_row(const mg_json_reader *r, long i, long n, gj_error *e)
{
    const mgj_row *w = &r->row[i];
    long nn = n * n;
    if (w->as.type != JSON_ARRAY)
        return jseen_array(&w->as, 0, "matrix", i, 0, SIZE_MAX, e);
    if (w->len != (size_t)n)
        return fail_row_length(i, w->len, n, e);
    for (long j = 0; j < n; j++) {
        long v;
        if ((size_t)j == w->bad)
            return jseen_long(&w->what, "matrix", i, j, 1, nn, &v, e);
        jseen s = {JSON_INTEGER, r->value[w->off + (size_t)j]};
        if (s.integer > nn)
            return jseen_long(&s, "matrix", i, j, 1, nn, &v, e);
    }
    return 0;
}

/* What the reader kept, checked in mg_from_json's order: the position, or
 * NULL with *e. */
static position *mgj_position(mg_json_reader *r, gj_error *e)
{
    if (jseen_array(&r->body.value[MGJ_MATRIX], r->rows, "matrix", -1, 3, (size_t)r->lim_n, e) != 0)
        return NULL;
    long n = (long)r->rows, k;
    if (jseen_long(&r->body.value[MGJ_K], "k", -1, -1, 1, n - 2, &k, e) != 0) {
        explain_k(e, n);
        return NULL;
    }
    for (long i = 0; i < n; i++) {
        /* The rows kept end at one wrong for every n, which fails below. */
        if ((size_t)i >= r->nrow) {
            gj_fail(e, GJ_INTERNAL, "matrix-game: row %ld was not kept", i);
            return NULL;
        }
        if (mgj_check_row(r, i, n, e) != 0)
            return NULL;
    }
    position *pos = calloc(1, sizeof *pos);
    if (pos == NULL) {
        gj_fail_nomem(e);
        return NULL;
    }
    pos->n = n;
    pos->k = k;
    pos->value = r->value; /* every row was n long and whole: exactly n x n */
    r->value = NULL;
    if (index_cells_json(pos, e) != 0) {
        mg_free(pos);
        return NULL;
    }
    return pos;
}

mg_position *mg_json_finish(mg_json_reader *r, gj_error *e)
{
    position *pos = jseen_body_end(&r->body, e) == 0 ? mgj_position(r, e) : NULL;
    mg_json_close(r);
    return pos;
}

/* gj_event_reader's open: a reader with no pull of its own. */
static void *events_open(const long *lim, gj_error *e)
{
    return mgj_new(lim, e);
}

/* gj_event_reader's take: one event of the body. */
static int events_take(void *r, const jpull_event *ev, gj_error *e)
{
    return jseen_body_take(&((mg_json_reader *)r)->body, ev, e);
}

/* gj_event_reader's finish: the members judged, then what mg_json_finish
 * judges; frees r. */
static void *events_finish(void *r, gj_error *e)
{
    mg_json_reader *m = r;
    position *pos = jseen_body_judge(&m->body, e) == 0 ? mgj_position(m, e) : NULL;
    mg_json_close(m);
    return pos;
}

/* gj_event_reader's close. */
static void events_close(void *r)
{
    mg_json_close(r);
}

/* gj_event_reader's write_bulk: the matrix. */
static void events_write_bulk(const void *pos, gj_buf *out)
{
    mg_write_matrix(pos, out);
}

/* The length of the values 1..count written in decimal, end to end. */
static size_t digits_upto(size_t count)
{
    size_t total = 0, digits = 1;
    for (size_t lo = 1; lo <= count; lo *= 10, digits++) {
        size_t hi = lo * 10 - 1 < count ? lo * 10 - 1 : count;
        total += (hi - lo + 1) * digits;
    }
    return total;
}

/* The length of the compact text of an n x n matrix: its values, 1..n^2
 * once each, a comma between neighbours and between rows, brackets. */
static size_t matrix_text_bytes(long n)
{
    size_t m = (size_t)n;
    return digits_upto(m * m) + m * (m - 1) + 2 * m + (m - 1) + 2;
}

/* gj_event_reader's work: the matrix as text for the canonical form, kept
 * to the end, and the larger of what is held beside it by turns: its
 * table of values while it is written (4 bytes a cell), then the solve's
 * outcome rows (mg_work_bytes counts them with the /solve answer, which an
 * analysis does not write) and the winning cells (4 bytes a cell at most). */
static size_t events_work(const void *p)
{
    const position *pos = p;
    size_t nn = (size_t)pos->n * (size_t)pos->n;
    return matrix_text_bytes(pos->n) + mg_work_bytes(pos) + nn * sizeof(uint32_t);
}

const gj_event_reader mg_events = {mgj_keys,          "matrix",      events_open,
                                   events_take,       events_finish, events_close,
                                   events_write_bulk, events_work,   free_made};

void mg_write_matrix(const mg_position *pos, gj_buf *out)
{
    long n = pos->n, nn = n * n;
    /* Row-major, the cell's value: below 2^31, as n <= 6000. */
    int32_t *at = malloc((size_t)nn * sizeof *at);
    if (at == NULL) {
        out->failed = 1;
        return;
    }
    for (long v = 1; v <= nn; v++) {
        uint32_t c = pos->cell_of[v - 1];
        at[(mg_row(c) - 1) * n + mg_col(c) - 1] = (int32_t)v;
    }
    buf_reserve(out, matrix_text_bytes(n));
    buf_put_rows(out, at, n, n);
    free(at);
}
