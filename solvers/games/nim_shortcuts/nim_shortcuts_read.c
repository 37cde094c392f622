/* nim_shortcuts_read.c - a nim-shortcuts position read: the judge text
 * and the JSON body, both as they arrive, and the JSON twin over a jansson
 * tree (the reference and the analysis's reader of the shortcuts); each
 * sorts the shortcuts once, and a repeat is named where it was given
 * (line and column in text, the field path in JSON).  The reader entry
 * points are in nim_shortcuts_core.h; the game (nim_shortcuts.c) serves
 * them through game.h's reader macros. */
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "json_in.h"
#include "json_pull.h"
#include "json_seen.h"
#include "nim_shortcuts_core.h"
#include "radix_sort.h"
#include "reader.h"
#include "text_read.h"

/* Points are sorted with radix_sort.h: a coordinate is three of its 10-bit
 * digits, so digits 0..2 order by the low coordinate and 3..5 by the high
 * one, and after digits 0..2 the keys are grouped by y. */

/* ---- Duplicate shortcuts ------------------------------------------------ */

typedef struct indexed_key {
    uint64_t key;
    long index;
} indexed_key;

/* qsort order: by key, then by input index. */
static int compare_indexed(const void *a, const void *b)
{
    const indexed_key *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return (x->index > y->index) - (x->index < y->index);
}

/* Find the earliest shortcut (in input order) that repeats an earlier one:
 * *second is its index and *first the index of the shortcut it repeats.
 * Only the error path runs this, so a qsort of (key, index) is fine. */
static gj_repeat first_repeat(const uint64_t *keys, long n, long *first, long *second, gj_error *e)
{
    indexed_key *a = malloc(((size_t)n + 1) * sizeof *a);
    if (a == NULL) {
        gj_fail_nomem(e);
        return GJ_REPEAT_FAILED;
    }
    for (long i = 0; i < n; i++) {
        a[i].key = keys[i];
        a[i].index = i;
    }
    qsort(a, (size_t)n, sizeof *a, compare_indexed);
    *second = LONG_MAX;
    for (long i = 0, j; i < n; i = j) {
        /* a[i..j) is a run of equal keys; its second element is its
         * earliest repeat. */
        for (j = i + 1; j < n && a[j].key == a[i].key; j++)
            ;
        if (j - i > 1 && a[i + 1].index < *second) {
            *first = a[i].index;
            *second = a[i + 1].index;
        }
    }
    free(a);
    return *second == LONG_MAX ? GJ_NO_REPEAT : GJ_REPEAT_FOUND;
}

/* Keys grouped by y (digits 0..2 sorted) -> b->row: each row's y with the
 * lowest x in it, by y. */
static int collect_rows(nim_board *b, const uint64_t *by_y, gj_error *e)
{
    b->row = malloc(((size_t)b->n + 1) * sizeof *b->row);
    if (b->row == NULL)
        return gj_fail_nomem(e);
    long rows = 0;
    for (long i = 0; i < b->n; i++) {
        long x = nim_high(by_y[i]), y = nim_low(by_y[i]);
        if (rows > 0 && nim_high(b->row[rows - 1]) == y) {
            if (x < nim_low(b->row[rows - 1]))
                b->row[rows - 1] = nim_pack(y, x);
        } else {
            b->row[rows++] = nim_pack(y, x);
        }
    }
    b->rows = rows;
    return 0;
}

/* Sort the shortcuts by (x, y), collecting the rows half-way.  When two
 * are equal *e is left for the caller, who reports where they are. */
static gj_repeat sort_shortcuts(nim_board *b, gj_error *e)
{
    radix_sort s;
    if (radix_init(&s, b->shortcut, NULL, (size_t)b->n, 0, RADIX_DIGITS, e) != 0)
        return GJ_REPEAT_FAILED;
    radix_passes(&s, 0, RADIX_DIGITS / 2);
    int rc = collect_rows(b, s.key[0], e);
    if (rc == 0)
        radix_passes(&s, RADIX_DIGITS / 2, RADIX_DIGITS);
    b->shortcut = s.key[0]; /* radix_free frees the other buffer */
    radix_free(&s);
    if (rc != 0)
        return GJ_REPEAT_FAILED;
    for (long i = 1; i < b->n; i++)
        if (b->shortcut[i] == b->shortcut[i - 1])
            return GJ_REPEAT_FOUND;
    return GJ_NO_REPEAT;
}

/* The swapped keys come out in x order already, so a stable sort on their
 * high digits (y) alone orders them by (y, x). */
int nim_board_by_row(const nim_board *b, uint64_t **out, gj_error *e)
{
    uint64_t *key = malloc(((size_t)b->n + 1) * sizeof *key);
    if (key == NULL)
        return gj_fail_nomem(e);
    for (long i = 0; i < b->n; i++)
        key[i] = nim_pack(nim_low(b->shortcut[i]), nim_high(b->shortcut[i]));
    radix_sort s;
    if (radix_init(&s, key, NULL, (size_t)b->n, RADIX_DIGITS / 2, RADIX_DIGITS, e) != 0) {
        free(key);
        return -1;
    }
    radix_passes(&s, RADIX_DIGITS / 2, RADIX_DIGITS);
    *out = s.key[0];
    radix_free(&s);
    return 0;
}

/* ---- Judge text --------------------------------------------------------- */

/* Read the two coordinates of point `index`.  An error names the coordinate
 * ("the b of query 7"), but formatting that name costs more than reading the
 * numbers, so it is done only after a failure: re-reading from the saved
 * state fails in the same way, now with the precise name. */
static int read_point(gj_reader *r, const char *kind, const char *const axes[2], long index,
                      uint64_t *key, gj_error *e)
{
    gj_reader saved = *r;
    long v[2];
    if (reader_long(r, "x", 0, NIM_MAX_COORD, &v[0], e) == 0 &&
        reader_long(r, "y", 0, NIM_MAX_COORD, &v[1], e) == 0) {
        *key = nim_pack(v[0], v[1]);
        return 0;
    }
    *r = saved;
    for (int c = 0; c < 2; c++) {
        char what[64];
        snprintf(what, sizeof what, "the %s of %s %ld", axes[c], kind, index + 1);
        if (reader_long(r, what, 0, NIM_MAX_COORD, &v[c], e) != 0)
            return -1;
    }
    return gj_fail(e, GJ_INTERNAL, "reading %s %ld failed only once", kind, index + 1);
}

static const char *const shortcut_axes[2] = {"x", "y"};
static const char *const query_axes[2] = {"a", "b"};

/* Column of the token the reader has just passed. */
static long column_of_last(const gj_reader *r)
{
    const char *s = r->p;
    while (s > r->line_start && s[-1] != ' ' && s[-1] != '\t' && s[-1] != '\r' && s[-1] != '\v' &&
           s[-1] != '\f')
        s--;
    return (long)(s - r->line_start) + 1;
}

/* Re-read input that already parsed: the shortcuts' keys in input order, and
 * where shortcut `want` starts.  Only the duplicate report needs this. */
static void rescan_text(const char *buf, size_t len, long n, uint64_t *keys, long want, long *line,
                        long *column)
{
    gj_reader r;
    gj_error ignored;
    long v = 0, x = 0, y = 0;
    reader_init(&r, buf, len);
    reader_long(&r, "n", LONG_MIN, LONG_MAX, &v, &ignored);
    reader_long(&r, "m", LONG_MIN, LONG_MAX, &v, &ignored);
    for (long i = 0; i < n; i++) {
        reader_long(&r, "x", LONG_MIN, LONG_MAX, &x, &ignored);
        if (i == want) {
            *line = r.line;
            *column = column_of_last(&r);
        }
        reader_long(&r, "y", LONG_MIN, LONG_MAX, &y, &ignored);
        if (keys != NULL)
            keys[i] = nim_pack(x, y);
    }
}

/* The earliest repeat among keys[0..n), which sorting has seen: its places
 * into *first and *second, its point into *key; frees keys.  0, or -1 with
 * *e when out of memory or when the keys hold no repeat after all. */
static int take_repeat(uint64_t *keys, long n, long *first, long *second, uint64_t *key,
                       gj_error *e)
{
    gj_repeat found = first_repeat(keys, n, first, second, e);
    *key = found == GJ_REPEAT_FOUND ? keys[*second] : 0;
    free(keys);
    if (found == GJ_REPEAT_FAILED)
        return -1;
    if (found == GJ_NO_REPEAT)
        return gj_fail(e, GJ_INTERNAL, "sorting found a repeated shortcut, the rescan none");
    return 0;
}

/* Say where the repeated shortcut of a judge-text body is, rescanning it
 * (only the error path gets here): -1, with *e. */
static int fail_text_repeat(const char *buf, size_t len, long n, gj_error *e)
{
    uint64_t *keys = malloc(((size_t)n + 1) * sizeof *keys);
    long first = 0, second = 0, line1 = 0, col1 = 0, line2 = 0, col2 = 0;
    if (keys == NULL)
        return gj_fail_nomem(e);
    rescan_text(buf, len, n, keys, -1, NULL, NULL);
    uint64_t key;
    if (take_repeat(keys, n, &first, &second, &key, e) != 0)
        return -1;
    rescan_text(buf, len, n, NULL, first, &line1, &col1);
    rescan_text(buf, len, n, NULL, second, &line2, &col2);
    return gj_fail_at(e, line2, col2,
                      "shortcut %ld (%ld, %ld) repeats shortcut %ld on line %ld, column %ld; "
                      "shortcuts must be pairwise distinct",
                      second + 1, nim_high(key), nim_low(key), first + 1, line1, col1);
}

/* Where a judge-text parse is (text_read.h): "n m", the shortcuts, the
 * queries, the end and the repeat check. */
enum { NIMT_N, NIMT_M, NIMT_SHORTCUTS, NIMT_QUERIES, NIMT_END, NIMT_DONE };

typedef struct nim_text {
    gj_text_made made; /* the nim_position */
    int phase;
    long n, m, i; /* the counts, and the next point's index in its list */
} nim_text;

/* Points of a list (shortcuts or queries) from s->i on, while both tokens
 * of the next one are whole: 0, or -1 with *e. */
static int step_points(nim_text *s, const text_pull *t, gj_reader *r, const char *kind,
                       const char *const axes[2], long count, uint64_t *key, gj_error *e)
{
    for (; s->i < count && text_pull_has(t, r, 2); s->i++)
        if (read_point(r, kind, axes, s->i, &key[s->i], e) != 0)
            return -1;
    return 0;
}

/* text_read.h's step: "n m", n shortcuts, then m queries. */
static int step_text(void *state, const text_pull *t, gj_reader *r, const long *lim, gj_error *e)
{
    nim_text *s = state;
    switch (s->phase) {
    case NIMT_N:
        if (!text_pull_has(t, r, 1))
            return 0;
        if (reader_long(r, "the number of shortcuts n", 0, lim[NIM_LIMIT_SHORTCUTS], &s->n, e) != 0)
            return -1;
        s->phase = NIMT_M;
        /* fall through */
    case NIMT_M:
        if (!text_pull_has(t, r, 1))
            return 0;
        if (reader_long(r, "the number of queries m", 1, lim[NIM_LIMIT_QUERIES], &s->m, e) != 0)
            return -1;
        s->made.pos = nim_position_new(s->n, s->m, e);
        if (s->made.pos == NULL)
            return -1;
        s->phase = NIMT_SHORTCUTS;
        /* fall through */
    case NIMT_SHORTCUTS:
        if (step_points(s, t, r, "shortcut", shortcut_axes, s->n,
                        ((nim_position *)s->made.pos)->b.shortcut, e) != 0)
            return -1;
        if (s->i < s->n)
            return 0;
        s->i = 0;
        s->phase = NIMT_QUERIES;
        /* fall through */
    case NIMT_QUERIES:
        if (step_points(s, t, r, "query", query_axes, s->m, ((nim_position *)s->made.pos)->query,
                        e) != 0)
            return -1;
        if (s->i < s->m)
            return 0;
        s->phase = NIMT_END;
        /* fall through */
    case NIMT_END: {
        if (!t->ended)
            return 0;
        if (reader_end(r, e) != 0)
            return -1;
        gj_repeat repeat = sort_shortcuts(&((nim_position *)s->made.pos)->b, e);
        if (repeat == GJ_REPEAT_FOUND)
            fail_text_repeat(t->base, t->len, s->n, e);
        if (repeat != GJ_NO_REPEAT)
            return -1;
        s->phase = NIMT_DONE;
        s->made.done = true;
        return 0;
    }
    default:
        return 0;
    }
}

const gj_text_steps nim_text_steps = {sizeof(nim_text), step_text, nim_position_free, NULL};

/* ---- JSON twin ---------------------------------------------------------- */

/* name[i] must be [x, y] (or [a, b], as `pair` says) of two coordinates. */
static int json_point(const json_t *v, const char *name, long i, const char *pair, uint64_t *key,
                      gj_error *e)
{
    long x, y;
    if (jin_array(v, name, i, 0, SIZE_MAX, e) != 0)
        return -1;
    if (json_array_size(v) != 2) {
        char field[48];
        jin_field_name(field, sizeof field, name, i, -1);
        size_t size = json_array_size(v);
        return gj_fail_field(e, field, "expected a pair %s of 2 integers, found %zu element%s",
                             pair, size, size == 1 ? "" : "s");
    }
    if (jin_long(json_array_get(v, 0), name, i, 0, 0, NIM_MAX_COORD, &x, e) != 0 ||
        jin_long(json_array_get(v, 1), name, i, 1, 0, NIM_MAX_COORD, &y, e) != 0)
        return -1;
    *key = nim_pack(x, y);
    return 0;
}

/* The shortcuts already parsed, so their values are known to be good. */
static int fail_json_repeat(const json_t *shortcuts, long n, gj_error *e)
{
    uint64_t *keys = malloc(((size_t)n + 1) * sizeof *keys);
    long first = 0, second = 0;
    if (keys == NULL)
        return gj_fail_nomem(e);
    for (long i = 0; i < n; i++) {
        const json_t *v = json_array_get(shortcuts, (size_t)i);
        keys[i] = nim_pack((long)json_integer_value(json_array_get(v, 0)),
                           (long)json_integer_value(json_array_get(v, 1)));
    }
    uint64_t key;
    if (take_repeat(keys, n, &first, &second, &key, e) != 0)
        return -1;
    char field[48];
    jin_field_name(field, sizeof field, "shortcuts", second, -1);
    return gj_fail_field(e, field,
                         "[%ld, %ld] repeats shortcuts[%ld]; shortcuts must be pairwise distinct",
                         nim_high(key), nim_low(key), first);
}

/* The elements of the JSON array `shortcuts`, already checked to be an
 * array of b->n elements, into the board (unsorted yet). */
static int read_json_shortcuts(nim_board *b, const json_t *shortcuts, gj_error *e)
{
    for (long i = 0; i < b->n; i++)
        if (json_point(json_array_get(shortcuts, (size_t)i), "shortcuts", i, "[x, y]",
                       &b->shortcut[i], e) != 0)
            return -1;
    return 0;
}

/* Sort the board; a repeat is reported by its place in `shortcuts`. */
static int sort_json_shortcuts(nim_board *b, const json_t *shortcuts, gj_error *e)
{
    gj_repeat repeat = sort_shortcuts(b, e);
    if (repeat == GJ_REPEAT_FOUND)
        fail_json_repeat(shortcuts, b->n, e);
    return repeat == GJ_NO_REPEAT ? 0 : -1;
}

int nim_board_read_json(nim_board *b, const json_t *shortcuts, long limit, gj_error *e)
{
    memset(b, 0, sizeof *b);
    if (jin_array(shortcuts, "shortcuts", -1, 0, (size_t)limit, e) != 0 ||
        nim_board_new(b, (long)json_array_size(shortcuts), e) != 0 ||
        read_json_shortcuts(b, shortcuts, e) != 0)
        return -1;
    return sort_json_shortcuts(b, shortcuts, e);
}

/* The same steps as nim_board_read_json, with the queries' in between, so
 * that of several mistakes the first one in the body's order is reported.
 * The jansson path, kept as the reference of the reader below. */
void *nim_shortcuts_parse_tree(const char *buf, size_t len, const long *lim, gj_error *e)
{
    static const char *const keys[] = {"shortcuts", "queries", NULL};
    json_t *root = jin_load_object(buf, len, keys, e);
    if (root == NULL)
        return NULL;
    nim_position *pos = NULL;
    json_t *shortcuts = json_object_get(root, "shortcuts");
    json_t *queries = json_object_get(root, "queries");
    if (jin_array(shortcuts, "shortcuts", -1, 0, (size_t)lim[NIM_LIMIT_SHORTCUTS], e) != 0 ||
        jin_array(queries, "queries", -1, 1, (size_t)lim[NIM_LIMIT_QUERIES], e) != 0)
        goto fail;
    long n = (long)json_array_size(shortcuts), m = (long)json_array_size(queries);
    pos = nim_position_new(n, m, e);
    if (pos == NULL || read_json_shortcuts(&pos->b, shortcuts, e) != 0)
        goto fail;
    for (long i = 0; i < m; i++)
        if (json_point(json_array_get(queries, (size_t)i), "queries", i, "[a, b]", &pos->query[i],
                       e) != 0)
            goto fail;
    if (sort_json_shortcuts(&pos->b, shortcuts, e) != 0)
        goto fail;
    json_decref(root);
    return pos;
fail:
    nim_position_free(pos);
    json_decref(root);
    return NULL;
}

/* ---- The JSON body read as it arrives (json_pull.h) ---------------------
 *
 * The checks and messages are nim_shortcuts_parse_tree's, in its order.
 * A point's checks do not depend on how many points there are, so each
 * list keeps its points (packed, in a block that becomes the position's)
 * and the first point that is wrong, its error written when it is read;
 * a list's size and type, known only at its end, are checked at the end,
 * before those errors, as the tree's path checks them.  Points past a
 * list's limit are only counted: the size check fails first. */

/* One of the two lists ("shortcuts" or "queries") as the reader keeps it. */
typedef struct nimj_list {
    const char *name, *pair; /* "shortcuts" and "[x, y]", or the queries' */
    size_t lo, hi;           /* the element counts jin_array allows */
    size_t count;            /* its elements, every one counted */
    uint64_t *key;           /* the good points before the first bad one, packed */
    size_t cap;              /* room in key */
    int bad;                 /* a point is wrong: `first` says how */
    gj_error first;          /* that point's error */
    int in_pair;             /* inside an element that is an array */
    size_t elems;            /* that element's elements so far */
    jseen x, y;              /* its first two */
} nimj_list;

/* The members the body takes, each its list's index. */
static const char *const nimj_keys[] = {"shortcuts", "queries", NULL};

/* The reader between chunks (nim_shortcuts_core.h). */
struct nim_json_reader {
    jseen_body body; /* what the member values are: body.value[m] is list m's */
    nimj_list list[2];
};

/* Element i of the list ended as a pair of `elems` values, x and y: judged
 * as json_point judges it, kept when good.  0, or -1 when memory is short. */
static int nimj_pair(nimj_list *l)
{
    long i = (long)l->count - 1, x, y;
    if (l->bad || l->count > l->hi)
        return 0;
    if (l->elems != 2) {
        char field[48];
        jin_field_name(field, sizeof field, l->name, i, -1);
        gj_fail_field(&l->first, field, "expected a pair %s of 2 integers, found %zu element%s",
                      l->pair, l->elems, l->elems == 1 ? "" : "s");
        l->bad = 1;
        return 0;
    }
    if (jseen_long(&l->x, l->name, i, 0, 0, NIM_MAX_COORD, &x, &l->first) != 0 ||
        jseen_long(&l->y, l->name, i, 1, 0, NIM_MAX_COORD, &y, &l->first) != 0) {
        l->bad = 1;
        return 0;
    }
    /* One spare slot, as new_board keeps: the block becomes the board. */
    if (l->count + 1 > l->cap) {
        size_t cap = l->cap > 0 ? 2 * l->cap : 64;
        uint64_t *more = realloc(l->key, cap * sizeof *more);
        if (more == NULL)
            return -1;
        l->key = more;
        l->cap = cap;
    }
    l->key[i] = nim_pack(x, y);
    return 0;
}

/* An event inside a list's array (depth 2 or more): 0, or -1 when memory
 * is short. */
static int nimj_list_event(nimj_list *l, const jpull_event *ev)
{
    int end = ev->kind == JPULL_ARRAY_END || ev->kind == JPULL_OBJECT_END;
    if (ev->depth == 2) {
        if (ev->kind == JPULL_ARRAY_END) {
            l->in_pair = 0;
            return nimj_pair(l);
        }
        if (end)
            return 0;
        l->count++;
        if (ev->kind == JPULL_ARRAY_BEGIN) {
            l->in_pair = 1;
            l->elems = 0;
        } else if (!l->bad && l->count <= l->hi) {
            jseen s = jseen_of(ev);
            jseen_array(&s, 0, l->name, (long)l->count - 1, 0, SIZE_MAX, &l->first);
            l->bad = 1;
        }
        return 0;
    }
    if (ev->depth == 3 && l->in_pair && !end) {
        l->elems++;
        if (l->elems == 1)
            l->x = jseen_of(ev);
        else if (l->elems == 2)
            l->y = jseen_of(ev);
    }
    return 0;
}

/* jseen_body's inner function: an event inside list `member`. */
static int nimj_inner(void *ctx, int member, const jpull_event *ev)
{
    nim_json_reader *r = ctx;
    return nimj_list_event(&r->list[member], ev);
}

nim_json_reader *nim_json_open(const long *lim, gj_error *e)
{
    nim_json_reader *r = calloc(1, sizeof *r);
    if (r == NULL) {
        gj_fail_nomem(e);
        return NULL;
    }
    if (jseen_body_init(&r->body, nimj_keys, nimj_inner, r, e) != 0) {
        free(r);
        return NULL;
    }
    const nimj_list shortcuts = {
        .name = "shortcuts", .pair = "[x, y]", .lo = 0, .hi = (size_t)lim[NIM_LIMIT_SHORTCUTS]};
    const nimj_list queries = {
        .name = "queries", .pair = "[a, b]", .lo = 1, .hi = (size_t)lim[NIM_LIMIT_QUERIES]};
    r->list[0] = shortcuts;
    r->list[1] = queries;
    return r;
}

int nim_json_feed(nim_json_reader *r, const char *p, size_t n, gj_error *e)
{
    return jseen_body_feed(&r->body, p, n, e);
}

void nim_json_close(nim_json_reader *r)
{
    if (r == NULL)
        return;
    jseen_body_free(&r->body);
    free(r->list[0].key);
    free(r->list[1].key);
    free(r);
}

/* The kept block of a list that had no bad point, count + 1 long, taken
 * from the reader: NULL when memory is short. */
static uint64_t *nimj_take(nimj_list *l)
{
    uint64_t *key = l->key;
    if (key == NULL || l->cap < l->count + 1) {
        key = realloc(l->key, (l->count + 1) * sizeof *key);
        if (key == NULL)
            return NULL;
    }
    l->key = NULL;
    return key;
}

/* List s (its size checked already) as the board b, sorted, judged as
 * read_json_shortcuts and sort_json_shortcuts judge it: 0, or -1 with *e
 * (b needs nim_board_free either way).  *given, when given is not NULL,
 * the points in the body's order (count + 1 long). */
static int nimj_board(nimj_list *s, nim_board *b, uint64_t **given, gj_error *e)
{
    if (s->bad) {
        *e = s->first;
        return -1;
    }
    b->n = (long)s->count;
    b->shortcut = nimj_take(s);
    /* The input order, which sorting loses: for the error path only, or
     * the caller's. */
    uint64_t *order = b->shortcut != NULL ? malloc((s->count + 1) * sizeof *order) : NULL;
    if (order == NULL)
        return gj_fail_nomem(e);
    memcpy(order, b->shortcut, s->count * sizeof *order);
    gj_repeat repeat = sort_shortcuts(b, e);
    if (repeat == GJ_NO_REPEAT) {
        if (given != NULL)
            *given = order;
        else
            free(order);
        return 0;
    }
    if (repeat != GJ_REPEAT_FOUND) {
        free(order);
        return -1;
    }
    long first = 0, second = 0;
    uint64_t key;
    if (take_repeat(order, b->n, &first, &second, &key, e) == 0) {
        char field[48];
        jin_field_name(field, sizeof field, "shortcuts", second, -1);
        gj_fail_field(e, field,
                      "[%ld, %ld] repeats shortcuts[%ld]; shortcuts must be pairwise distinct",
                      nim_high(key), nim_low(key), first);
    }
    return -1;
}

/* What the reader kept, checked in nim_shortcuts_parse_tree's order: the
 * position, or NULL with *e. */
static nim_position *nimj_position(nim_json_reader *r, gj_error *e)
{
    nimj_list *s = &r->list[0], *q = &r->list[1];
    if (jseen_array(&r->body.value[0], s->count, s->name, -1, s->lo, s->hi, e) != 0 ||
        jseen_array(&r->body.value[1], q->count, q->name, -1, q->lo, q->hi, e) != 0)
        return NULL;
    for (int m = 0; m < 2; m++) {
        if (r->list[m].bad) {
            *e = r->list[m].first;
            return NULL;
        }
    }
    nim_position *pos = calloc(1, sizeof *pos);
    if (pos == NULL) {
        gj_fail_nomem(e);
        return NULL;
    }
    pos->m = (long)q->count;
    pos->query = nimj_take(q);
    pos->lose = malloc((size_t)pos->m);
    if (pos->query == NULL || pos->lose == NULL) {
        nim_position_free(pos);
        gj_fail_nomem(e);
        return NULL;
    }
    if (nimj_board(s, &pos->b, NULL, e) != 0) {
        nim_position_free(pos);
        return NULL;
    }
    return pos;
}

void *nim_json_finish(nim_json_reader *r, gj_error *e)
{
    nim_position *pos = jseen_body_end(&r->body, e) == 0 ? nimj_position(r, e) : NULL;
    nim_json_close(r);
    return pos;
}

/* ---- The shortcuts of an /analyze body, driven by its pull --------------
 *
 * The same list reader over the one member "shortcuts" (game.h's
 * gj_event_reader): the board nim_board_read_json reads from a tree, with
 * its checks and messages in its order, and the shortcuts in the body's
 * order for whole afters and the canonical form. */

/* The member an analysis' board is read from. */
static const char *const nimj_board_keys[] = {"shortcuts", NULL};

/* gj_event_reader's open: the shortcuts' list alone, no pull of its own. */
static void *board_open(const long *lim, gj_error *e)
{
    nim_json_reader *r = calloc(1, sizeof *r);
    if (r == NULL) {
        gj_fail_nomem(e);
        return NULL;
    }
    jseen_body_init_events(&r->body, nimj_board_keys, nimj_inner, r);
    const nimj_list shortcuts = {
        .name = "shortcuts", .pair = "[x, y]", .lo = 0, .hi = (size_t)lim[NIM_LIMIT_SHORTCUTS]};
    r->list[0] = shortcuts;
    return r;
}

/* gj_event_reader's take: one event of the body. */
static int board_take(void *r, const jpull_event *ev, gj_error *e)
{
    return jseen_body_take(&((nim_json_reader *)r)->body, ev, e);
}

/* gj_event_reader's free: a board read and not adopted. */
static void board_free(void *v)
{
    nim_read_board *rb = v;
    if (rb == NULL)
        return;
    nim_board_free(&rb->b);
    free(rb->given);
    free(rb);
}

/* gj_event_reader's finish: the board as nim_board_read_json judges the
 * member, or NULL with *e; frees r. */
static void *board_finish(void *r, gj_error *e)
{
    nim_json_reader *m = r;
    nimj_list *s = &m->list[0];
    nim_read_board *rb = NULL;
    if (jseen_body_judge(&m->body, e) == 0 &&
        jseen_array(&m->body.value[0], s->count, s->name, -1, s->lo, s->hi, e) == 0) {
        rb = calloc(1, sizeof *rb);
        if (rb == NULL)
            gj_fail_nomem(e);
        else if (nimj_board(s, &rb->b, &rb->given, e) != 0) {
            board_free(rb);
            rb = NULL;
        }
    }
    nim_json_close(m);
    return rb;
}

/* gj_event_reader's close. */
static void board_close(void *r)
{
    nim_json_close(r);
}

/* gj_event_reader's work: the canonical form's shortcuts (two coordinates
 * of at most 10 digits, brackets and commas), the rows' index, the
 * shortcuts by row and the segments (at most n + 1) that the analysis
 * derives. */
static size_t board_work(const void *v)
{
    const nim_read_board *rb = v;
    size_t n = (size_t)rb->b.n;
    return 24 * n + 2 + (n + 1) * 2 * sizeof(uint64_t) + 3 * (n + 1) * sizeof(long) + 64;
}

/* gj_event_reader's write_bulk: the shortcuts as given, compact. */
static void board_write(const void *v, gj_buf *out)
{
    const nim_read_board *rb = v;
    buf_putc(out, '[');
    for (long i = 0; i < rb->b.n; i++) {
        buf_puts(out, i > 0 ? ",[" : "[");
        buf_put_long(out, nim_high(rb->given[i]));
        buf_putc(out, ',');
        buf_put_long(out, nim_low(rb->given[i]));
        buf_putc(out, ']');
    }
    buf_putc(out, ']');
}

const gj_event_reader nim_board_events = {nimj_board_keys, "shortcuts",  board_open,
                                          board_take,      board_finish, board_close,
                                          board_write,     board_work,   board_free};
