/* line.c - the perfect-play line over a game's parsed position (line.h). */
#include "line.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

#include "after.h"
#include "analysis.h"
#include "analysis_members.h"
#include "cancel.h"
#include "json_in.h"
#include "play_moves.h"
#include "play_pos.h"

/* The positions a line of a repeating game has reached, by their keys
 * (gj_play.write_members, moved): an open-addressed table of indices into
 * `keys`, so a line of L moves checks for its cycle in O(L) work. */
typedef struct seen_set {
    gj_buf keys;   /* every key, end to end */
    size_t *end;   /* by move: the end of its key in keys */
    long *slot;    /* cap slots: a move's index, or -1 for empty */
    uint64_t *sum; /* by move: its key's hash */
    long count, room;
    size_t cap; /* a power of two, at least twice count */
} seen_set;

typedef struct line_state {
    gj_buf entries;  /* the line's entries, comma-separated */
    long length;     /* entries written */
    int truncated;   /* stopped at max_line with moves left */
    long cycle_from; /* index of the cycle's first move, -1 for none */
    seen_set seen;   /* repeating games: the position after each move */
} line_state;

/* Read and remove "line", "max_line", "after" and "moves" from q->root
 * into q: 0, or -1 with *e.  The line counts moves alone (line.h): no
 * bound depends on the position's size. */
static int take_options(line_request *q, gj_error *e)
{
    const json_t *line = json_object_get(q->root, "line");
    const json_t *max = json_object_get(q->root, "max_line");
    q->max_line = LINE_MAX_DEFAULT;
    if (line != NULL && !json_is_boolean(line))
        return gj_fail_field(e, "line", "expected true or false");
    q->want = line != NULL && json_is_true(line);
    if (max != NULL) {
        if (jin_long(max, "max_line", -1, -1, 1, LINE_MAX_LIMIT, &q->max_line, e) != 0)
            return -1;
        if (!q->want)
            return gj_fail_field(e, "max_line", "bounds the line: it needs \"line\": true");
    }
    if (after_take(q->root, &q->after_full, e) != 0)
        return -1;
    q->moves = json_incref(json_object_get(q->root, "moves"));
    json_object_del(q->root, "line");
    json_object_del(q->root, "max_line");
    json_object_del(q->root, "moves");
    return 0;
}

/* Key order of jansson's JSON_SORT_KEYS (keys hold no NUL: json_pull
 * refuses \u0000), for qsort over an array of key pointers. */
static int key_order(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* c as jansson's json_dumps(c, JSON_COMPACT | JSON_SORT_KEYS) dumps it,
 * appended to out, with the value of the member `bulk` (a null standing
 * in) written by the read position's writer.  Allocation failure shows in
 * out->failed. */
static void dump_spliced(const json_t *c, const analysis_body *read, gj_buf *out)
{
    size_t n = json_object_size(c), k = 0;
    const char **keys = malloc((n > 0 ? n : 1) * sizeof *keys);
    if (keys == NULL) {
        out->failed = 1;
        return;
    }
    const char *key;
    json_t *v;
    json_object_foreach((json_t *)c, key, v) keys[k++] = key;
    qsort(keys, n, sizeof *keys, key_order);
    buf_putc(out, '{');
    for (k = 0; k < n && !out->failed; k++) {
        json_t *name = json_string(keys[k]);
        char *text = name != NULL ? json_dumps(name, JSON_ENCODE_ANY) : NULL;
        json_decref(name);
        if (text == NULL) {
            out->failed = 1;
            break;
        }
        if (k > 0)
            buf_putc(out, ',');
        buf_puts(out, text);
        buf_putc(out, ':');
        free(text);
        if (strcmp(keys[k], read->events->bulk) == 0) {
            read->events->write_bulk(read->pos, out);
            continue;
        }
        text = json_dumps(json_object_get(c, keys[k]),
                          JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
        if (text == NULL)
            out->failed = 1;
        else
            buf_puts(out, text);
        free(text);
    }
    buf_putc(out, '}');
    free(keys);
}

/* c's canonical text into q: jansson's sorted compact dump, or the same
 * bytes spliced with the position read as the body arrived.  A position
 * the reader refused leaves its null in the form: such a request has no
 * answer, and nothing is ever stored under its form.  0, or -1 with *e
 * when memory is short. */
static int dump_canonical(line_request *q, const json_t *c, gj_error *e)
{
    if (q->read == NULL || q->read->pos == NULL ||
        json_object_get(c, q->read->events->bulk) == NULL) {
        q->canonical = json_dumps(c, JSON_COMPACT | JSON_SORT_KEYS);
        if (q->canonical == NULL)
            return gj_fail_nomem(e);
        q->canonical_len = strlen(q->canonical);
        return 0;
    }
    gj_buf text;
    buf_init(&text);
    dump_spliced(c, q->read, &text);
    buf_putc(&text, '\0');
    if (text.failed) {
        buf_free(&text);
        return gj_fail_nomem(e);
    }
    q->canonical = text.data; /* the buffer's block, malloc'd: free() releases it */
    q->canonical_len = text.len - 1;
    return 0;
}

/* The canonical form of q (line.h) into q->canonical: 0, or -1 with *e. */
static int write_canonical(line_request *q, gj_error *e)
{
    json_t *c = json_copy(q->root);
    int failed = c == NULL;
    if (!failed && q->want)
        failed = json_object_set_new(c, "line", json_true()) != 0 ||
                 json_object_set_new(c, "max_line", json_integer(q->max_line)) != 0;
    if (!failed && !q->after_full)
        failed = json_object_set_new(c, "after", json_string("diff")) != 0;
    /* The moves shape the answer: in the form as sent (an empty list is none). */
    if (!failed && json_array_size(q->moves) > 0)
        failed = json_object_set(c, "moves", q->moves) != 0;
    int rc = failed ? gj_fail_nomem(e) : dump_canonical(q, c, e);
    json_decref(c);
    return rc;
}

int line_prepare(const char *buf, size_t len, line_request *q, gj_error *e)
{
    json_t *root = jin_load_object(buf, len, NULL, e);
    if (root == NULL) {
        memset(q, 0, sizeof *q);
        return -1;
    }
    return line_prepare_tree(root, q, e);
}

/* q prepared from root, and from the body read as it arrived when read
 * is not NULL (both taken): 0, or -1 with *e and q released. */
static int prepare(json_t *root, analysis_body *read, line_request *q, gj_error *e)
{
    memset(q, 0, sizeof *q);
    q->root = root;
    q->read = read;
    if (take_options(q, e) != 0 || write_canonical(q, e) != 0) {
        line_request_free(q);
        return -1;
    }
    return 0;
}

int line_prepare_tree(json_t *root, line_request *q, gj_error *e)
{
    return prepare(root, NULL, q, e);
}

int line_prepare_read(analysis_body *read, line_request *q, gj_error *e)
{
    json_t *root = read->root;
    read->root = NULL;
    return prepare(root, read, q, e);
}

void line_take_canonical(line_request *q, gj_buf *out)
{
    out->data = q->canonical;
    out->len = q->canonical_len;
    out->cap = q->canonical != NULL ? q->canonical_len + 1 : 0; /* its NUL */
    out->failed = 0;
    q->canonical = NULL;
    q->canonical_len = 0;
}

void line_request_free(line_request *q)
{
    analysis_body_free(q->read);
    json_decref(q->root);
    json_decref(q->moves);
    free(q->canonical);
    memset(q, 0, sizeof *q);
}

/* Free what the seen set holds. */
static void seen_free(seen_set *t)
{
    buf_free(&t->keys);
    free(t->end);
    free(t->slot);
    free(t->sum);
    memset(t, 0, sizeof *t);
}

/* Move k's key: its bytes and length. */
static const char *seen_key(const seen_set *t, long k, size_t *len)
{
    size_t from = k > 0 ? t->end[k - 1] : 0;
    *len = t->end[k] - from;
    return t->keys.data + from;
}

/* File move k (already in keys, end and sum) in slot of t's table. */
static void seen_file(seen_set *t, long k)
{
    size_t at = (size_t)t->sum[k] & (t->cap - 1);
    while (t->slot[at] >= 0)
        at = (at + 1) & (t->cap - 1);
    t->slot[at] = k;
}

/* Room for one more move, the table kept at most half full: 0, or -1. */
static int seen_grow(seen_set *t)
{
    if (t->count == t->room) {
        long room = t->room > 0 ? 2 * t->room : 64;
        size_t *end = realloc(t->end, (size_t)room * sizeof *end);
        if (end != NULL)
            t->end = end;
        uint64_t *sum = realloc(t->sum, (size_t)room * sizeof *sum);
        if (sum != NULL)
            t->sum = sum;
        if (end == NULL || sum == NULL)
            return -1;
        t->room = room;
    }
    if ((size_t)(t->count + 1) * 2 <= t->cap)
        return 0;
    size_t cap = t->cap > 0 ? 2 * t->cap : 128;
    long *slot = malloc(cap * sizeof *slot);
    if (slot == NULL)
        return -1;
    free(t->slot);
    t->slot = slot;
    t->cap = cap;
    for (size_t i = 0; i < cap; i++)
        slot[i] = -1;
    for (long k = 0; k < t->count; k++)
        seen_file(t, k);
    return 0;
}

/* Whether key[len] is the key of a move before; *from is then the index of
 * the move after that one.  Otherwise remembers it as the next move's.  1,
 * 0, or -1 with *e (out of memory). */
static int seen_check(seen_set *t, const char *key, size_t len, long *from, gj_error *e)
{
    uint64_t h = XXH3_64bits(key, len);
    for (size_t at = t->cap > 0 ? (size_t)h & (t->cap - 1) : 0; t->cap > 0 && t->slot[at] >= 0;
         at = (at + 1) & (t->cap - 1)) {
        long k = t->slot[at];
        size_t klen;
        const char *kbytes = seen_key(t, k, &klen);
        if (t->sum[k] == h && klen == len && memcmp(kbytes, key, len) == 0) {
            *from = k + 1;
            return 1;
        }
    }
    if (seen_grow(t) != 0)
        return gj_fail_nomem(e);
    buf_append(&t->keys, key, len);
    if (t->keys.failed)
        return gj_fail_nomem(e);
    t->end[t->count] = t->keys.len;
    t->sum[t->count] = h;
    seen_file(t, t->count++);
    return 0;
}

/* One move of the line: p's best move into it, then played on p.  1 when
 * the line goes on, 0 when it ended, -1 with *e. */
static int step(play_pos *p, long max_line, int repeating, line_state *s, after_writer *w,
                gj_buf *key, gj_error *e)
{
    if (gj_cancel_check(e) != 0)
        return -1;
    gj_move m;
    long found = p->ops->rank(p->pos, 1, &m, NULL, e);
    if (found <= 0)
        return (int)found; /* 0: the game is over */
    if (s->length == max_line) {
        s->truncated = 1;
        return 0;
    }
    /* Written before the move is played: its "after" is whole against the
     * position the move is played in. */
    size_t bytes = 0;
    buf_puts(&s->entries, s->length > 0 ? ",{" : "{");
    if (p->ops->write_move(p->pos, &m, w->full, &s->entries, &bytes, e) != 0 ||
        after_count(w, bytes, e) != 0)
        return -1;
    buf_putc(&s->entries, '}');
    s->length++;
    if (p->ops->play(p->pos, &m, e) != 0)
        return -1;
    if (!repeating)
        return 1;
    key->len = 0;
    p->ops->write_members(p->pos, 1, key);
    if (key->failed)
        return gj_fail_nomem(e);
    int again = seen_check(&s->seen, key->data, key->len, &s->cycle_from, e);
    return again < 0 ? -1 : !again;
}

/* The line from p's position (p is played on) into s: 0, or -1 with *e. */
static int walk(const gj_game *g, play_pos *p, long max_line, line_state *s, after_writer *w,
                gj_error *e)
{
    gj_buf key;
    buf_init(&key);
    int rc = 1;
    while (rc == 1)
        rc = step(p, max_line, g->play_repeats, s, w, &key, e);
    buf_free(&key);
    if (rc == 0 && s->entries.failed)
        return gj_fail_nomem(e);
    return rc;
}

/* Replace the analysis' closing brace in out with the line's members. */
static void append_line(gj_buf *out, const line_state *s)
{
    out->len--; /* the analysis object's '}' */
    buf_puts(out, ",\"line\":[");
    buf_append(out, s->entries.data, s->entries.len);
    buf_puts(out, "],\"line_truncated\":");
    buf_puts(out, s->truncated ? "true" : "false");
    buf_puts(out, ",\"line_cycle\":");
    buf_puts(out, s->cycle_from >= 0 ? "true" : "false");
    if (s->cycle_from >= 0) {
        buf_puts(out, ",\"line_cycle_start\":");
        buf_put_long(out, s->cycle_from);
    }
    buf_putc(out, '}');
}

/* The afters' bound (after.h) passed by the moves listed, before the line
 * began: a smaller max_line would not help, so *e names what would.  -1. */
static int listed_too_large(gj_error *e)
{
    gj_fail_field(e, "after",
                  "the whole positions of the moves listed pass %d MiB, the bound on one "
                  "answer's \"after\" members (ANALYSIS_AFTER_BYTES_MAX), before the line's "
                  "first move: for the line ask \"after\": \"diff\" (each entry then holds only "
                  "what its move changes), or list fewer moves (max_moves)",
                  (int)(ANALYSIS_AFTER_BYTES_MAX >> 20));
    e->kind = GJ_UNMET;
    return -1;
}

/* The analysis of p (q's position) into out, its afters whole unless q
 * asked for diffs, then its line when asked: 0, or -1 with *e. */
static int answer(const gj_game *g, line_request *q, play_pos *p, gj_buf *out, gj_error *e)
{
    if (!q->want && !q->after_full)
        return p->ops->analyze(p->pos, out, e);
    long max_moves;
    if (analysis_max_moves(q->root, &max_moves, e) != 0)
        return -1;
    after_writer w;
    after_init(&w, g, q->after_full);
    int rc = after_write_answer(&w, p->ops, p->pos, max_moves, out, e);
    if (rc != 0 && q->want && e->kind == GJ_UNMET && strcmp(e->field, "after") == 0)
        rc = listed_too_large(e);
    if (rc == 0 && q->want && g->play_move == NULL)
        rc = gj_fail_field(e, "line", "%s has no perfect-play line", g->name);
    if (rc == 0 && q->want) {
        line_state s = {.cycle_from = -1};
        buf_init(&s.entries);
        rc = walk(g, p, q->max_line, &s, &w, e);
        if (rc == 0)
            append_line(out, &s);
        buf_free(&s.entries);
        seen_free(&s.seen);
    }
    after_free(&w);
    if (rc == 0 && out->failed)
        rc = gj_fail_nomem(e);
    return rc;
}

/* q's position as the request req (q->root, or a copy of it) gives it
 * into *p: the one read as the body arrived when there is one, else parsed
 * from req.  0, or -1 with *e. */
static int open_position(const gj_game *g, line_request *q, const json_t *req, const long *limits,
                         play_pos *p, gj_error *e)
{
    if (q->read != NULL)
        return play_open_read(p, g, req, q->read, limits, e);
    return play_open(p, g, req, limits, e);
}

/* p's position written as a request: its members, then "max_moves" as
 * `from` has it.  The object, or NULL with *e. */
static json_t *as_request(play_pos *p, const json_t *from, gj_error *e)
{
    gj_buf text;
    buf_init(&text);
    buf_putc(&text, '{');
    p->ops->write_members(p->pos, 0, &text);
    buf_putc(&text, '}');
    if (text.failed) {
        buf_free(&text);
        gj_fail_nomem(e);
        return NULL;
    }
    /* Loaded as a body is, so that the memory grant charges its tree (the
     * whole position, a matrix's 7x), or refuses it. */
    json_t *req = jin_load_object(text.data, text.len, NULL, e);
    buf_free(&text);
    if (req == NULL)
        return NULL;
    const json_t *max = json_object_get(from, "max_moves");
    if (max != NULL && json_object_set(req, "max_moves", (json_t *)max) != 0) {
        json_decref(req);
        gj_fail_nomem(e);
        return NULL;
    }
    return req;
}

/* q's position with its moves played (the moves' messages first) into *p,
 * reopened with the request's max_moves when it has one (q->root then the
 * position they lead to): 0, or -1 with *e. */
static int played(const gj_game *g, line_request *q, const long *limits, play_pos *p, gj_error *e)
{
    if (play_moves_check(g, q->moves, e) != 0)
        return -1;
    /* Opened without max_moves, which bounds the answer, not the moves:
     * a bad one is named after the moves, as analyze() of the position
     * they lead to names it. */
    json_t *start = json_copy(q->root);
    if (start == NULL)
        return gj_fail_nomem(e);
    json_object_del(start, "max_moves");
    int rc = open_position(g, q, start, limits, p, e);
    json_decref(start);
    if (rc == 0)
        rc = play_moves(p, q->moves, e);
    if (rc != 0 || json_object_get(q->root, "max_moves") == NULL)
        return rc;
    json_t *now = as_request(p, q->root, e);
    if (now == NULL)
        return -1;
    json_decref(q->root);
    q->root = now;
    play_close(p);
    return play_open(p, g, q->root, limits, e);
}

int line_run(const gj_game *g, line_request *q, const long *limits, gj_buf *out, gj_error *e)
{
    /* The line's members were taken out of q->root; an unknown member's
     * message still names them, as /analyze takes them. */
    static const char *const own[] = {"?line", "?max_line", "?moves", "?after", NULL};
    if (analysis_known_members(g, q->root, NULL, own, e) != 0)
        return -1;
    play_pos p = {0};
    int rc = json_array_size(q->moves) > 0 || (q->moves != NULL && !json_is_array(q->moves))
                 ? played(g, q, limits, &p, e)
                 : open_position(g, q, q->root, limits, &p, e);
    if (rc == 0)
        rc = answer(g, q, &p, out, e);
    play_close(&p);
    return rc;
}

int line_analyze(const gj_game *g, const char *buf, size_t len, const long *limits, gj_buf *out,
                 gj_error *e)
{
    line_request q;
    if (line_prepare(buf, len, &q, e) != 0)
        return -1;
    int rc = line_run(g, &q, limits, out, e);
    line_request_free(&q);
    return rc;
}
