/* after.c - whole positions as each entry's "after" (after.h). */
#include "after.h"

#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "grant.h"
#include "json_in.h"

int after_take(json_t *root, int *full, gj_error *e)
{
    const json_t *v = json_object_get(root, "after");
    *full = 1;
    if (v == NULL)
        return 0;
    const char *s = json_string_value(v);
    size_t len = json_string_length(v);
    if (s != NULL && len == 4 && memcmp(s, "diff", 4) == 0)
        *full = 0;
    else if (s == NULL || len != 4 || memcmp(s, "full", 4) != 0)
        return gj_fail_field(e, "after",
                             "expected \"full\" (the default: each after is a whole request "
                             "body) or \"diff\" (only what the move changed)");
    json_object_del(root, "after");
    return 0;
}

void after_init(after_writer *w, const gj_game *g, int full)
{
    memset(w, 0, sizeof *w);
    w->game = g;
    w->full = full && g->play_move != NULL;
    w->limit = ANALYSIS_AFTER_BYTES_MAX;
}

void after_free(after_writer *w)
{
    for (int k = 0; k < w->cached; k++) {
        json_decref(w->cache[k].value);
        buf_free(&w->cache[k].text);
    }
    w->cached = 0;
}

/* jansson's dump callback: the bytes go to the gj_buf `data`. */
static int to_buf(const char *bytes, size_t n, void *data)
{
    buf_append(data, bytes, n);
    return 0;
}

/* v written compact at the end of out. */
static void put_json(gj_buf *out, const json_t *v)
{
    json_dump_callback(v, to_buf, out, JSON_COMPACT | JSON_ENCODE_ANY);
}

/* `"key":` with the key escaped as JSON, after a comma unless first. */
static void put_key(gj_buf *out, const char *key, int first)
{
    json_t *k = json_string(key);
    if (!first)
        buf_putc(out, ',');
    if (k == NULL) {
        out->failed = 1;
        return;
    }
    put_json(out, k);
    json_decref(k);
    buf_putc(out, ':');
}

/* v, a member the move left as it was: its bytes from the cache, written
 * there the first time (while there is room; else written each time). */
static void put_kept(after_writer *w, gj_buf *out, json_t *v)
{
    for (int k = 0; k < w->cached; k++)
        if (w->cache[k].value == v) {
            buf_append(out, w->cache[k].text.data, w->cache[k].text.len);
            return;
        }
    if (w->cached == AFTER_CACHE) {
        put_json(out, v);
        return;
    }
    int k = w->cached++;
    w->cache[k].value = json_incref(v);
    buf_init(&w->cache[k].text);
    put_json(&w->cache[k].text, v);
    if (w->cache[k].text.failed)
        out->failed = 1;
    else
        buf_append(out, w->cache[k].text.data, w->cache[k].text.len);
}

/* The whole position `entry` leads to from req (see after.h): 0, or -1. */
static int put_whole(after_writer *w, const json_t *req, const json_t *entry, gj_buf *out,
                     gj_error *e)
{
    /* Shallow: play_move replaces the members it changes (game.h), so the
     * others stay req's own values, the cache's keys. */
    json_t *next = json_copy((json_t *)req);
    if (next == NULL)
        return gj_fail_nomem(e);
    json_object_del(next, "max_moves");
    if (w->game->play_move(next, entry, e) != 0) {
        json_decref(next);
        return -1;
    }
    size_t start = out->len;
    const char *key;
    json_t *v;
    int first = 1;
    buf_putc(out, '{');
    json_object_foreach(next, key, v)
    {
        put_key(out, key, first);
        first = 0;
        if (json_object_get(req, key) == v)
            put_kept(w, out, v);
        else
            put_json(out, v);
    }
    /* The diff's members the position does not hold (a token, a count). */
    json_object_foreach(json_object_get(entry, "after"), key, v)
    {
        if (json_object_get(next, key) != NULL)
            continue;
        put_key(out, key, first);
        first = 0;
        put_json(out, v);
    }
    buf_putc(out, '}');
    json_decref(next);
    return after_count(w, out->len - start, e);
}

int after_count(after_writer *w, size_t bytes, gj_error *e)
{
    w->bytes += bytes;
    if (w->bytes <= w->limit) {
        /* The body's charge leaves these out.  Half again for the answer's
         * buffer, which grows by moving: old and new are held at once (a
         * matrix's afters: the process grew 1.19x their bytes). */
        return gj_grant_grow(bytes + bytes / 2, e);
    }
    gj_fail_field(e, "after",
                  "the whole positions of this answer's \"after\" members pass %d MiB, the "
                  "bound on one answer's (ANALYSIS_AFTER_BYTES_MAX): ask \"after\": \"diff\" "
                  "for only what each move changes, or list fewer moves (max_moves, max_line)",
                  (int)(ANALYSIS_AFTER_BYTES_MAX >> 20));
    e->kind = GJ_UNMET;
    return -1;
}

int after_put_members(after_writer *w, const json_t *req, const json_t *entry, gj_buf *out,
                      gj_error *e)
{
    const char *key;
    json_t *v;
    int first = 1;
    json_object_foreach((json_t *)entry, key, v)
    {
        put_key(out, key, first);
        first = 0;
        if (w->full && strcmp(key, "after") == 0) {
            if (put_whole(w, req, entry, out, e) != 0)
                return -1;
        } else {
            put_json(out, v);
        }
    }
    return out->failed ? gj_fail_nomem(e) : 0;
}

int after_put_answer(after_writer *w, const json_t *req, const json_t *answer, gj_buf *out,
                     gj_error *e)
{
    const char *key;
    json_t *v;
    int first = 1;
    buf_putc(out, '{');
    json_object_foreach((json_t *)answer, key, v)
    {
        put_key(out, key, first);
        first = 0;
        if (strcmp(key, "moves") != 0 || !json_is_array(v)) {
            put_json(out, v);
            continue;
        }
        buf_putc(out, '[');
        for (size_t i = 0; i < json_array_size(v); i++) {
            buf_puts(out, i ? ",{" : "{");
            if (after_put_members(w, req, json_array_get(v, i), out, e) != 0)
                return -1;
            buf_putc(out, '}');
        }
        buf_putc(out, ']');
    }
    buf_putc(out, '}');
    return out->failed ? gj_fail_nomem(e) : 0;
}

/* Where the "moves" member of the analysis text a[0..len) starts (its
 * comma), or len when there is none.  The head before it holds only the
 * frame's scalars (analysis.h: the game's name, the mover's label, counts,
 * booleans), none of which can spell the member's key, so the first match
 * is the member, and it is the last member (analysis_end). */
static size_t moves_member(const char *a, size_t len)
{
    static const char key[] = ",\"moves\":[";
    const size_t n = sizeof key - 1;
    for (size_t i = 0; i + n <= len; i++)
        if (a[i] == ',' && memcmp(a + i, key, n) == 0)
            return i;
    return len;
}

/* The entries of moves[0..n), ranked on pos, with whole afters, each
 * counted as it is written, then the answer's close: 0, or -1 with *e. */
static int put_entries(after_writer *w, const gj_play *ops, void *pos, const gj_move *moves, long n,
                       gj_buf *out, gj_error *e)
{
    for (long i = 0; i < n; i++) {
        size_t bytes = 0;
        analysis_move_open(out, i);
        if (ops->write_move(pos, &moves[i], 1, out, &bytes, e) != 0 ||
            after_count(w, bytes, e) != 0)
            return -1;
        analysis_move_close(out);
    }
    analysis_end(out, n);
    return out->failed ? gj_fail_nomem(e) : 0;
}

int after_write_answer(after_writer *w, const gj_play *ops, void *pos, long max_moves, gj_buf *out,
                       gj_error *e)
{
    size_t mark = out->len;
    int rc = ops->analyze(pos, out, e);
    if (rc != 0 || !w->full)
        return rc;
    if (out->failed)
        return gj_fail_nomem(e);
    /* The head is the game's own bytes; the entries are written again
     * from the ranked moves, each after whole. */
    size_t head = mark + moves_member(out->data + mark, out->len - mark);
    gj_move *moves = malloc((size_t)max_moves * sizeof *moves);
    long n = -1;
    if (head == out->len)
        gj_fail(e, GJ_INTERNAL, "%s: the analysis lists no \"moves\"", w->game->name);
    else if (moves == NULL)
        gj_fail_nomem(e);
    else
        n = ops->rank(pos, max_moves, moves, NULL, e);
    if (n >= 0) {
        out->len = head;
        rc = put_entries(w, ops, pos, moves, n, out, e);
    }
    free(moves);
    if (n < 0 || rc != 0) {
        out->len = mark;
        return -1;
    }
    return 0;
}
