/* line.c - the perfect-play line over a game's analysis (line.h). */
#include "line.h"

#include <stdlib.h>
#include <string.h>

#include "after.h"
#include "analysis_call.h"
#include "cancel.h"
#include "json_in.h"

typedef struct line_state {
    gj_buf entries;  /* the line's entries, comma-separated */
    long length;     /* entries written */
    int truncated;   /* stopped at max_line with moves left */
    long cycle_from; /* index of the cycle's first move, -1 for none */
    json_t *seen;    /* repeating games: the position after each move */
} line_state;

/* The most moves a line may have on a request of len bytes: each move
 * re-reads the whole position, so LINE_WORK_BYTES bounds the work. */
static long line_bound(size_t len)
{
    size_t moves = LINE_WORK_BYTES / (len > 0 ? len : 1);
    return moves < 1 ? 1 : moves > LINE_MAX_LIMIT ? LINE_MAX_LIMIT : (long)moves;
}

/* Read and remove "line" and "max_line" from q->root into q, then write
 * the position compact: 0, or -1 with *e.  The work bound is taken on the
 * compact position, never on the body as sent (see line.h). */
static int take_options(line_request *q, gj_error *e)
{
    const json_t *line = json_object_get(q->root, "line");
    const json_t *max = json_object_get(q->root, "max_line");
    long asked = 0;
    q->max_line = LINE_MAX_DEFAULT;
    if (line != NULL && !json_is_boolean(line))
        return gj_fail_field(e, "line", "expected true or false");
    q->want = line != NULL && json_is_true(line);
    if (max != NULL) {
        if (jin_long(max, "max_line", -1, -1, 1, LINE_MAX_LIMIT, &asked, e) != 0)
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
    q->position = json_dumps(q->root, JSON_COMPACT);
    if (q->position == NULL)
        return gj_fail_nomem(e);
    q->position_len = strlen(q->position);
    long bound = line_bound(q->position_len);
    /* Each move to play is an analysis too: the same bound holds them. */
    if (q->moves != NULL && json_is_array(q->moves) && (long)json_array_size(q->moves) > bound) {
        gj_fail_field(e, "moves",
                      "%zu moves on a position of %zu bytes (written compact) exceed the work "
                      "bound (each move re-reads the position, %d MiB in all): at most %ld here",
                      json_array_size(q->moves), q->position_len, LINE_WORK_BYTES >> 20, bound);
        e->kind = GJ_UNMET;
        return -1;
    }
    if (max == NULL) {
        /* The default, not the caller's: line_truncated tells. */
        q->max_line = q->max_line > bound ? bound : q->max_line;
        return 0;
    }
    q->max_line = asked;
    if (asked <= bound)
        return 0;
    gj_fail_field(e, "max_line",
                  "%ld moves on a position of %zu bytes (written compact) exceed the line's "
                  "work bound (each move re-reads the position, %d MiB in all): at most %ld here",
                  asked, q->position_len, LINE_WORK_BYTES >> 20, bound);
    e->kind = GJ_UNMET;
    return -1;
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
    q->canonical = failed ? NULL : json_dumps(c, JSON_COMPACT | JSON_SORT_KEYS);
    json_decref(c);
    if (q->canonical == NULL)
        return gj_fail_nomem(e);
    q->canonical_len = strlen(q->canonical);
    return 0;
}

int line_prepare(const char *buf, size_t len, line_request *q, gj_error *e)
{
    memset(q, 0, sizeof *q);
    q->root = jin_load_object(buf, len, NULL, e);
    if (q->root == NULL)
        return -1;
    if (take_options(q, e) != 0 || write_canonical(q, e) != 0) {
        line_request_free(q);
        return -1;
    }
    return 0;
}

void line_request_free(line_request *q)
{
    json_decref(q->root);
    json_decref(q->moves);
    free(q->position);
    free(q->canonical);
    memset(q, 0, sizeof *q);
}

/* Whether `after` equals a position the line reached before; *from is
 * then the index of the move after that one.  Remembers `after`. */
static int repeats(line_state *s, const json_t *after, long *from)
{
    for (size_t k = 0; k < json_array_size(s->seen); k++)
        if (json_equal(json_array_get(s->seen, k), (json_t *)after)) {
            *from = (long)k + 1;
            return 1;
        }
    json_array_append(s->seen, (json_t *)after);
    return 0;
}

/* One step: the best move of `req`'s position into the line, then played
 * on req; `answer` is the position's analysis when known (taken), NULL to
 * run it.  1 when the line goes on, 0 when it ended, -1 with *e. */
static int step(const gj_game *g, json_t *req, json_t *answer, long max_line, const long *limits,
                line_state *s, after_writer *w, gj_error *e)
{
    if (gj_cancel_check(e) != 0) {
        json_decref(answer);
        return -1;
    }
    if (answer == NULL)
        answer = analysis_call(g, req, 1, limits, e);
    if (answer == NULL)
        return -1;
    const json_t *best = json_array_get(json_object_get(answer, "moves"), 0);
    int rc = 1;
    if (best == NULL) {
        rc = 0; /* the game is over */
    } else if (s->length == max_line) {
        s->truncated = 1;
        rc = 0;
    } else {
        /* Written before the move is played on req: its "after" is whole
         * against the position the move is played in. */
        buf_puts(&s->entries, s->length > 0 ? ",{" : "{");
        if (after_put_members(w, req, best, &s->entries, e) != 0) {
            json_decref(answer);
            return -1;
        }
        buf_putc(&s->entries, '}');
        s->length++;
        if (g->play_repeats && repeats(s, json_object_get(best, "after"), &s->cycle_from))
            rc = 0;
        else if (g->play_move(req, best, e) != 0)
            rc = -1;
    }
    json_decref(answer);
    return rc;
}

/* The line from req's position (req is changed) into s, starting from
 * `first`, the position's analysis already made (taken): 0, or -1 with *e. */
static int walk(const gj_game *g, json_t *req, json_t *first, long max_line, const long *limits,
                line_state *s, after_writer *w, gj_error *e)
{
    int rc = step(g, req, first, max_line, limits, s, w, e);
    while (rc == 1)
        rc = step(g, req, NULL, max_line, limits, s, w, e);
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

int line_run(const gj_game *g, line_request *q, const long *limits, gj_buf *out, gj_error *e)
{
    /* The line's members were taken out of q->root; an unknown member's
     * message still names them, as /analyze takes them. */
    static const char *const own[] = {"?line", "?max_line", "?moves", "?after", NULL};
    if (analysis_known_members(g, q->root, NULL, own, e) != 0)
        return -1;
    if (json_array_size(q->moves) > 0 || (q->moves != NULL && !json_is_array(q->moves))) {
        /* The position the moves lead to is the one analysed. */
        if (analysis_play_moves(g, q->root, q->moves, limits, e) != 0)
            return -1;
        free(q->position);
        q->position = json_dumps(q->root, JSON_COMPACT);
        if (q->position == NULL)
            return gj_fail_nomem(e);
        q->position_len = strlen(q->position);
    }
    size_t mark = out->len;
    int rc = g->analyze(q->position, q->position_len, limits, out, e);
    if (rc != 0 || (!q->want && !q->after_full))
        return rc;
    if (q->want && g->play_move == NULL)
        return gj_fail_field(e, "line", "%s has no perfect-play line", g->name);
    /* The analysis just written starts the line: its moves[0] is the best. */
    json_t *first = json_loadb(out->data + mark, out->len - mark, 0, NULL);
    if (!json_is_object(first)) {
        json_decref(first);
        return out->failed ? gj_fail_nomem(e)
                           : gj_fail(e, GJ_INTERNAL, "%s: the analysis is not JSON", g->name);
    }
    after_writer w;
    after_init(&w, g, q->after_full);
    if (w.full) {
        /* The game wrote each after as a diff: the answer again, whole. */
        gj_buf whole;
        buf_init(&whole);
        rc = after_put_answer(&w, q->root, first, &whole, e);
        out->len = mark;
        buf_append(out, whole.data, whole.len);
        buf_free(&whole);
    }
    if (rc == 0 && q->want) {
        line_state s = {.cycle_from = -1, .seen = json_array()};
        buf_init(&s.entries);
        rc = s.seen == NULL ? gj_fail_nomem(e)
                            : walk(g, q->root, json_incref(first), q->max_line, limits, &s, &w, e);
        if (rc == 0)
            append_line(out, &s);
        buf_free(&s.entries);
        json_decref(s.seen);
    }
    after_free(&w);
    json_decref(first);
    if (rc == 0 && out->failed)
        rc = gj_fail_nomem(e);
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
