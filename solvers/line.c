/* line.c - the perfect-play line over a game's analysis (line.h). */
#include "line.h"

#include <stdlib.h>
#include <string.h>

#include "analysis_call.h"
#include "cancel.h"
#include "json_in.h"

typedef struct line_request {
    int want;      /* "line": true */
    long max_line; /* moves at most */
} line_request;

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

/* Read and remove "line" and "max_line" from root (a request of len
 * bytes) into *q: 0, or -1 with *e. */
static int take_options(json_t *root, size_t len, line_request *q, gj_error *e)
{
    const json_t *line = json_object_get(root, "line");
    const json_t *max = json_object_get(root, "max_line");
    q->want = 0;
    q->max_line = LINE_MAX_DEFAULT;
    if (line != NULL && !json_is_boolean(line))
        return gj_fail_field(e, "line", "expected true or false");
    q->want = line != NULL && json_is_true(line);
    if (max != NULL) {
        if (jin_long(max, "max_line", -1, -1, 1, LINE_MAX_LIMIT, &q->max_line, e) != 0)
            return -1;
        if (!q->want)
            return gj_fail_field(e, "max_line", "bounds the line: it needs \"line\": true");
        if (q->max_line > line_bound(len)) {
            gj_fail_field(e, "max_line",
                          "%ld moves on a position of %zu bytes exceed the line's work bound "
                          "(each move re-reads the position, %d MiB in all): at most %ld here",
                          q->max_line, len, LINE_WORK_BYTES >> 20, line_bound(len));
            e->kind = GJ_UNMET;
            return -1;
        }
    } else if (q->max_line > line_bound(len)) {
        q->max_line = line_bound(len); /* the default, not the caller's: line_truncated tells */
    }
    json_object_del(root, "line");
    json_object_del(root, "max_line");
    return 0;
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
                line_state *s, gj_error *e)
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
        char *text = json_dumps(best, JSON_COMPACT);
        if (text == NULL) {
            json_decref(answer);
            return gj_fail_nomem(e);
        }
        if (s->length > 0)
            buf_putc(&s->entries, ',');
        buf_puts(&s->entries, text);
        free(text);
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
                line_state *s, gj_error *e)
{
    int rc = step(g, req, first, max_line, limits, s, e);
    while (rc == 1)
        rc = step(g, req, NULL, max_line, limits, s, e);
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

/* The analysis of root (options removed), then its line when asked for. */
static int analyze_with_line(const gj_game *g, json_t *root, const line_request *q,
                             const long *limits, gj_buf *out, gj_error *e)
{
    char *body = json_dumps(root, JSON_COMPACT);
    if (body == NULL)
        return gj_fail_nomem(e);
    int rc = g->analyze(body, strlen(body), limits, out, e);
    free(body);
    if (rc != 0 || !q->want)
        return rc;
    if (g->play_move == NULL)
        return gj_fail_field(e, "line", "%s has no perfect-play line", g->name);
    /* The analysis just written starts the line: its moves[0] is the best. */
    json_t *first = json_loadb(out->data, out->len, 0, NULL);
    line_state s = {.cycle_from = -1, .seen = json_array()};
    buf_init(&s.entries);
    if (!json_is_object(first) || s.seen == NULL) {
        json_decref(first);
        rc = out->failed ? gj_fail_nomem(e)
                         : gj_fail(e, GJ_INTERNAL, "%s: the analysis is not JSON", g->name);
    } else {
        rc = walk(g, root, first, q->max_line, limits, &s, e);
    }
    if (rc == 0)
        append_line(out, &s);
    buf_free(&s.entries);
    json_decref(s.seen);
    return rc;
}

/* A request that never names the line members ("line" is in both) goes
 * to the game as it came, parsed once. */
int line_analyze(const gj_game *g, const char *buf, size_t len, const long *limits, gj_buf *out,
                 gj_error *e)
{
    static const char needle[] = "line";
    int named = 0;
    for (size_t i = 0; !named && i + sizeof needle - 1 <= len; i++)
        named = memcmp(buf + i, needle, sizeof needle - 1) == 0;
    if (!named)
        return g->analyze(buf, len, limits, out, e);
    json_t *root = jin_load_object(buf, len, NULL, e);
    if (root == NULL)
        return -1;
    line_request q;
    int rc = take_options(root, len, &q, e);
    if (rc == 0)
        rc = analyze_with_line(g, root, &q, limits, out, e);
    json_decref(root);
    return rc;
}
