/* grid_walk_path.c - a walk's "path", read and checked against its grid:
 * from a jansson tree (gw_path_from_json), and as an /analyze body
 * arrives (gw_path_events, analysis_read.h), where the path's elements go
 * into an array of pairs and never into a tree (a list of small pairs
 * holds more than nine times its text as one).
 *
 * Every check of a path needs the grid: a cell's range is its rows and
 * columns, and a step is judged by what lies under it.  A body may give
 * "path" before "grid", so the reader judges nothing while it reads.  It
 * keeps each element that is two integers as a pair, and of the first
 * element that is not, what its message needs; the elements after that
 * one are only counted, since the path's length is checked first and the
 * checks of the elements stop at the first wrong one.  gw_path_judge then
 * runs gw_path_from_json's walk over what was kept, once the analysis has
 * read the grid: the tree's elements and the kept ones are judged by one
 * judge_element, so the two give the same words in the same order. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "grid_walk_core.h"
#include "json_in.h"
#include "json_pull.h"
#include "json_seen.h"

/* "path[i]: expected [row, column], found size elements": always -1. */
static int fail_pair_size(long i, size_t size, gj_error *e)
{
    char field[32];
    jin_field_name(field, sizeof field, "path", i, -1);
    return gj_fail_field(e, field, "expected [row, column], found %zu elements", size);
}

/* path[i] must be free, next to path[i - 1] and new; open[] holds 2 for the
 * cells already on the path. */
static int check_step(const gw_position *pos, const int *path, long i, gj_error *e)
{
    int c = path[i];
    int blocked = pos->open[c] == 0, apart = i > 0 && !gw_adjacent(pos, path[i - 1], c);
    if (!blocked && !apart && pos->open[c] != 2)
        return 0;
    long r = gw_cell_row(pos, c), col = gw_cell_col(pos, c);
    char field[32];
    jin_field_name(field, sizeof field, "path", i, -1);
    if (blocked)
        return gj_fail_field(e, field, "[%ld, %ld] is a blocked cell", r, col);
    if (apart)
        return gj_fail_field(e, field, "[%ld, %ld] is not adjacent to path[%ld], [%ld, %ld]", r,
                             col, i - 1, gw_cell_row(pos, path[i - 1]),
                             gw_cell_col(pos, path[i - 1]));
    long k = 0;
    while (path[k] != c)
        k++;
    return gj_fail_field(e, field, "[%ld, %ld] has been visited already, at path[%ld]", r, col, k);
}

/* The cells of a path of n elements are checked; on success the visited
 * cells are blocked in pos->open, all but the token's own (on failure
 * open[] is left marked, for the caller to free).  cell(ctx, i,
 * &c, e) reads element i into padded cell c (0, or -1 with *e).  0 with
 * *out (n + 1 cells of room), or -1 with *e. */
static int walk_path(gw_position *pos, long n, int (*cell)(const void *, long, int *, gj_error *),
                     const void *ctx, int **out, gj_error *e)
{
    int *path = malloc(((size_t)n + 1) * sizeof *path);
    if (path == NULL)
        return gj_fail_nomem(e);
    for (long i = 0; i < n; i++) {
        if (cell(ctx, i, &path[i], e) != 0 || check_step(pos, path, i, e) != 0) {
            free(path);
            return -1;
        }
        pos->open[path[i]] = 2;
    }
    for (long i = 0; i < n; i++)
        pos->open[path[i]] = i == n - 1;
    *out = path;
    return 0;
}

/* The padded cell of row r, column c, both 1-based and in range. */
static int padded(const gw_position *pos, long r, long c)
{
    return (int)(r * pos->width + c);
}

/* One element of the path as far as its message needs it. */
typedef struct seen_element {
    jseen as;      /* the element: an array, or what it is instead */
    size_t len;    /* its elements, when an array */
    jseen cell[2]; /* its first two */
} seen_element;

/* Element i of a path, x, must be [row, column], 1-based and inside the
 * grid: 0 with its padded *cell, or -1 with *e. */
static int judge_element(const seen_element *x, const gw_position *pos, long i, int *cell,
                         gj_error *e)
{
    long row, col;
    if (jseen_array(&x->as, x->len, "path", i, 0, SIZE_MAX, e) != 0)
        return -1;
    if (x->len != 2)
        return fail_pair_size(i, x->len, e);
    if (jseen_long(&x->cell[0], "path", i, 0, 1, pos->rows, &row, e) != 0 ||
        jseen_long(&x->cell[1], "path", i, 1, 1, pos->cols, &col, e) != 0)
        return -1;
    *cell = padded(pos, row, col);
    return 0;
}

/* ---- from a tree -------------------------------------------------------- */

/* What tree_cell reads from: the path's array and the grid. */
typedef struct tree_path {
    const json_t *v;
    const gw_position *pos;
} tree_path;

/* walk_path's cell over a tree: path[i], seen as the body's reader sees
 * an element, then judged as it judges one. */
static int tree_cell(const void *ctx, long i, int *cell, gj_error *e)
{
    const tree_path *t = ctx;
    const json_t *v = json_array_get(t->v, (size_t)i);
    seen_element x = {jseen_of_value(v), json_array_size(v), {{JSON_NULL, 0}, {JSON_NULL, 0}}};
    for (size_t k = 0; k < 2 && k < x.len; k++)
        x.cell[k] = jseen_of_value(json_array_get(v, k));
    return judge_element(&x, t->pos, i, cell, e);
}

int gw_path_from_json(const json_t *v, gw_position *pos, int **out, long *n, gj_error *e)
{
    if (jin_array(v, "path", -1, 0, (size_t)pos->rows * (size_t)pos->cols, e) != 0)
        return -1;
    *n = (long)json_array_size(v);
    tree_path t = {v, pos};
    return walk_path(pos, *n, tree_cell, &t, out, e);
}

/* ---- as the body arrives ------------------------------------------------ */

/* The members the reader takes. */
static const char *const path_keys[] = {"path", NULL};

/* The reader, and what it gives (gw_path_judge): nothing is judged until
 * the grid is known. */
struct gw_path_read {
    jseen_body body; /* what "path" is: body.value[0] */
    size_t most;     /* rows x columns at the limits: a longer path is wrong for every grid */
    size_t len;      /* the path's elements, every one counted */
    int32_t *pair;   /* the first `kept` elements, each [row, column] */
    size_t kept, cap;
    size_t text;      /* the kept pairs written compact, each with a comma */
    int odd;          /* element `kept` is not two integers of 32 bits: */
    seen_element bad; /* what it is */
    seen_element now; /* the element being read, kept while it is open */
};

/* Whether s is an array of two integers that fit a pair. */
static int is_pair(const seen_element *s)
{
    if (s->as.type != JSON_ARRAY || s->len != 2)
        return 0;
    for (int k = 0; k < 2; k++)
        if (s->cell[k].type != JSON_INTEGER || s->cell[k].integer < INT32_MIN ||
            s->cell[k].integer > INT32_MAX)
            return 0;
    return 1;
}

/* The length of v in decimal, its sign included. */
static size_t decimal_len(long long v)
{
    size_t len = v < 0 ? 2 : 1;
    for (unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
         u >= 10; u /= 10)
        len++;
    return len;
}

/* Element len - 1 is whole, as r->now: kept as a pair, or as the first
 * odd one.  0, or -1 when memory is short. */
static int element_end(gw_path_read *r)
{
    if (r->odd || r->len > r->most)
        return 0; /* the path is judged wrong before this element is looked at */
    if (!is_pair(&r->now)) {
        r->odd = 1;
        r->bad = r->now;
        return 0;
    }
    if (r->kept == r->cap) {
        size_t cap = r->cap > 0 ? 2 * r->cap : 64;
        int32_t *more = realloc(r->pair, 2 * cap * sizeof *more);
        if (more == NULL)
            return -1;
        r->pair = more;
        r->cap = cap;
    }
    r->text += decimal_len(r->now.cell[0].integer) + decimal_len(r->now.cell[1].integer) + 4;
    r->pair[2 * r->kept] = (int32_t)r->now.cell[0].integer;
    r->pair[2 * r->kept + 1] = (int32_t)r->now.cell[1].integer;
    r->kept++;
    return 0;
}

/* jseen_body's inner function: an element begins at depth 2 (an array
 * ends there at its close), its values come at depth 3, deeper events
 * only inside a value already seen.  0, or -1 when memory is short. */
static int path_inner(void *ctx, int member, const jpull_event *ev)
{
    gw_path_read *r = ctx;
    (void)member; /* "path" is the only one */
    int end = ev->kind == JPULL_ARRAY_END || ev->kind == JPULL_OBJECT_END;
    if (ev->depth == 2 && !end) {
        r->len++;
        memset(&r->now, 0, sizeof r->now);
        r->now.as = jseen_of(ev);
        /* A value other than an array is whole at once; an object is
         * judged by its beginning alone. */
        return ev->kind == JPULL_ARRAY_BEGIN ? 0 : element_end(r);
    }
    if (ev->depth == 2 && ev->kind == JPULL_ARRAY_END)
        return element_end(r);
    if (ev->depth == 3 && !end && r->now.as.type == JSON_ARRAY) {
        if (r->now.len < 2)
            r->now.cell[r->now.len] = jseen_of(ev);
        r->now.len++;
    }
    return 0;
}

/* gj_event_reader's open: a reader with nothing read, under lim. */
static void *path_open(const long *lim, gj_error *e)
{
    gw_path_read *r = calloc(1, sizeof *r);
    if (r == NULL) {
        gj_fail_nomem(e);
        return NULL;
    }
    jseen_body_init_events(&r->body, path_keys, path_inner, r);
    r->most = (size_t)lim[GW_LIMIT_ROWS] * (size_t)lim[GW_LIMIT_COLS];
    return r;
}

/* gj_event_reader's take: one event of the body. */
static int path_take(void *r, const jpull_event *ev, gj_error *e)
{
    return jseen_body_take(&((gw_path_read *)r)->body, ev, e);
}

/* gj_event_reader's close, and free. */
static void path_close(void *v)
{
    gw_path_read *r = v;
    if (r == NULL)
        return;
    jseen_body_free(&r->body);
    free(r->pair);
    free(r);
}

/* gj_event_reader's finish: the members judged (the grid-free part); the
 * path itself waits for the grid (gw_path_judge).  Frees r on failure. */
static void *path_finish(void *v, gj_error *e)
{
    gw_path_read *r = v;
    if (jseen_body_judge(&r->body, e) != 0) {
        path_close(r);
        return NULL;
    }
    return r;
}

/* Whether the path read is one a grid may take: an array whose every
 * element was kept as a pair. */
static int all_pairs(const gw_path_read *r)
{
    return r->body.value[0].type == JSON_ARRAY && !r->odd && r->kept == r->len;
}

/* gj_event_reader's write_bulk: the pairs as jansson writes them; a null
 * for a path no grid takes, whose request is refused, so that its form
 * is never a valid request's. */
static void path_write(const void *v, gj_buf *out)
{
    const gw_path_read *r = v;
    if (!all_pairs(r)) {
        buf_puts(out, "null");
        return;
    }
    buf_putc(out, '[');
    for (size_t i = 0; i < r->kept; i++) {
        buf_puts(out, i > 0 ? ",[" : "[");
        buf_put_long(out, r->pair[2 * i]);
        buf_putc(out, ',');
        buf_put_long(out, r->pair[2 * i + 1]);
        buf_putc(out, ']');
    }
    buf_putc(out, ']');
}

/* gj_event_reader's work: the path's text in the canonical form and
 * again as the analysis's trail, and its padded cells. */
static size_t path_work(const void *v)
{
    const gw_path_read *r = v;
    return 2 * (r->text + 2) + (r->kept + 1) * sizeof(int) + 64;
}

const gj_event_reader gw_path_events = {path_keys,  "path",     path_open, path_take, path_finish,
                                        path_close, path_write, path_work, path_close};

/* What seen_cell reads from: the path read and the grid. */
typedef struct seen_path {
    const gw_path_read *r;
    const gw_position *pos;
} seen_path;

/* walk_path's cell over what was read: a kept pair, or the odd element,
 * judged as tree_cell judges the element it stands for. */
static int seen_cell(const void *ctx, long i, int *cell, gj_error *e)
{
    const seen_path *s = ctx;
    const gw_path_read *r = s->r;
    seen_element x;
    if ((size_t)i < r->kept) {
        x.as.type = JSON_ARRAY;
        x.len = 2;
        for (int k = 0; k < 2; k++) {
            x.cell[k].type = JSON_INTEGER;
            x.cell[k].integer = r->pair[2 * (size_t)i + (size_t)k];
        }
    } else if ((size_t)i == r->kept && r->odd) {
        x = r->bad;
    } else {
        return gj_fail(e, GJ_INTERNAL, "grid-walk: path[%ld] was not kept", i);
    }
    return judge_element(&x, s->pos, i, cell, e);
}

int gw_path_judge(const gw_path_read *r, gw_position *pos, int **out, long *n, gj_error *e)
{
    if (jseen_array(&r->body.value[0], r->len, "path", -1, 0, (size_t)pos->rows * (size_t)pos->cols,
                    e) != 0)
        return -1;
    *n = (long)r->len;
    seen_path s = {r, pos};
    return walk_path(pos, *n, seen_cell, &s, out, e);
}
