/* analysis.c - the frame every game's analysis answer shares. */
#include "analysis.h"

#include <stdlib.h>
#include <string.h>

#include "json_in.h"

int analysis_max_moves(const json_t *root, long *out, gj_error *e)
{
    const json_t *v = json_object_get(root, "max_moves");
    *out = ANALYSIS_MAX_MOVES_DEFAULT;
    if (v == NULL)
        return 0;
    return jin_long(v, "max_moves", -1, -1, 1, ANALYSIS_MAX_MOVES_LIMIT, out, e);
}

/* By length then bytes, so "M\u0000x" is no "M". */
int analysis_to_move(const json_t *v, const char *const names[2], bool null_is_absent, int absent,
                     int *mover, gj_error *e)
{
    const char *s;
    size_t len;
    *mover = absent;
    if (v == NULL || (null_is_absent && json_is_null(v)))
        return 0;
    if (jin_string(v, "to_move", -1, &s, &len, e) != 0)
        return -1;
    for (int k = 0; k < 2; k++)
        if (len == strlen(names[k]) && memcmp(s, names[k], len) == 0) {
            *mover = k;
            return 0;
        }
    return gj_fail_field(e, "to_move", "expected \"%s\" or \"%s\", found \"%.40s\"", names[0],
                         names[1], s);
}

const char *analysis_outcome(int wins)
{
    return wins ? "win" : "lose";
}

/* The frame's start, up to the value of "value". */
static void begin(gj_buf *out, const char *game, const char *to_move)
{
    buf_puts(out, "{\"game\":\"");
    buf_puts(out, game);
    buf_puts(out, "\",\"to_move\":\"");
    buf_puts(out, to_move);
    buf_puts(out, "\",\"value\":");
}

/* The counts members, after the value. */
static void counts(gj_buf *out, const analysis_counts *c)
{
    buf_puts(out, ",\"moves_total\":");
    buf_put_long(out, c->moves_total);
    buf_puts(out, ",\"winning_moves\":");
    buf_put_long(out, c->winning_moves);
    buf_puts(out, ",\"truncated\":");
    buf_puts(out, c->listed < c->moves_total ? "true" : "false");
}

void analysis_put_remoteness(gj_buf *out, long long remoteness)
{
    if (remoteness == ANALYSIS_REMOTENESS_NONE)
        return;
    buf_puts(out, ",\"remoteness\":");
    if (remoteness < 0)
        buf_puts(out, "null");
    else
        buf_put_long(out, remoteness);
}

void analysis_begin(gj_buf *out, const char *game, const char *to_move, int mover_wins,
                    long long remoteness, const analysis_counts *c)
{
    begin(out, game, to_move);
    buf_putc(out, '"');
    buf_puts(out, analysis_outcome(mover_wins));
    buf_putc(out, '"');
    analysis_put_remoteness(out, remoteness);
    counts(out, c);
}

void analysis_begin_score(gj_buf *out, const char *game, const char *to_move, long long value,
                          long long remoteness, const analysis_counts *c)
{
    begin(out, game, to_move);
    buf_put_long(out, value);
    analysis_put_remoteness(out, remoteness);
    counts(out, c);
}

int analysis_rank_remoteness(int wins_a, long long ra, int wins_b, long long rb)
{
    if (wins_a != wins_b)
        return wins_a ? -1 : 1;
    if (ra == rb)
        return 0;
    /* A win is best when it ends soonest, a loss when it ends latest. */
    return (ra < rb) == (wins_a != 0) ? -1 : 1;
}

int analysis_top_init(analysis_top *t, long cap, size_t size,
                      int (*cmp)(const void *, const void *), gj_error *e)
{
    t->size = size;
    t->cap = cap;
    t->count = 0;
    t->cmp = cmp;
    if (size > 64) /* top_swap's buffer */
        return gj_fail(e, GJ_INTERNAL, "analysis_top: elements of %zu bytes", size);
    t->item = malloc((size_t)(cap > 0 ? cap : 1) * size);
    return t->item == NULL ? gj_fail_nomem(e) : 0;
}

/* The address of the i-th kept element. */
static char *top_at(const analysis_top *t, long i)
{
    return t->item + (size_t)i * t->size;
}

/* Exchange the i-th and j-th kept elements, through a small stack buffer
 * (the elements are a few words). */
static void top_swap(analysis_top *t, long i, long j)
{
    char tmp[64];
    memcpy(tmp, top_at(t, i), t->size);
    memcpy(top_at(t, i), top_at(t, j), t->size);
    memcpy(top_at(t, j), tmp, t->size);
}

void analysis_top_offer(analysis_top *t, const void *elem)
{
    long i;
    if (t->count < t->cap) { /* room: sift the new element up */
        i = t->count++;
        memcpy(top_at(t, i), elem, t->size);
        while (i > 0 && t->cmp(top_at(t, (i - 1) / 2), top_at(t, i)) < 0) {
            top_swap(t, i, (i - 1) / 2);
            i = (i - 1) / 2;
        }
        return;
    }
    if (t->cap == 0 || t->cmp(elem, top_at(t, 0)) >= 0)
        return; /* no better than the worst kept (ties keep the earlier) */
    memcpy(top_at(t, 0), elem, t->size);
    for (i = 0;;) { /* sift the new root down */
        long l = 2 * i + 1, r = l + 1, m = i;
        if (l < t->count && t->cmp(top_at(t, l), top_at(t, m)) > 0)
            m = l;
        if (r < t->count && t->cmp(top_at(t, r), top_at(t, m)) > 0)
            m = r;
        if (m == i)
            break;
        top_swap(t, i, m);
        i = m;
    }
}

void analysis_top_finish(analysis_top *t)
{
    qsort(t->item, (size_t)t->count, t->size, t->cmp);
}

void analysis_top_free(analysis_top *t)
{
    free(t->item);
    t->item = NULL;
}

void analysis_move_open(gj_buf *out, long i)
{
    buf_puts(out, i == 0 ? ",\"moves\":[{" : ",{");
}

void analysis_move_close(gj_buf *out)
{
    buf_putc(out, '}');
}

void analysis_end(gj_buf *out, long listed)
{
    buf_puts(out, listed == 0 ? ",\"moves\":[]}" : "]}");
}

int analysis_play_set(json_t *req, const char *name, const json_t *value, gj_error *e)
{
    if (value == NULL)
        return gj_fail(e, GJ_INTERNAL, "an analysis entry lacks the member for \"%s\"", name);
    json_t *copy = json_deep_copy(value);
    if (copy == NULL || json_object_set_new(req, name, copy) != 0)
        return gj_fail_nomem(e);
    return 0;
}

int analysis_play_carried(json_t *req, const json_t *after, gj_error *e)
{
    const char *key;
    json_t *v;
    json_object_foreach((json_t *)after, key, v)
    {
        if (json_object_get(req, key) != NULL && analysis_play_set(req, key, v, e) != 0)
            return -1;
    }
    return 0;
}
