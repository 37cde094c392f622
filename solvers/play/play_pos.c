/* play_pos.c - gj_play for every game, an adapter for those without (play_pos.h). */
#include "play_pos.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "after.h"
#include "analysis_call.h"

/* The adapter's position: the request as JSON, played on in place, and
 * the analysis that named the best move. */
typedef struct adapted {
    const gj_game *g;
    const long *limits;
    json_t *req;        /* a shallow copy of the request: play_move replaces members */
    json_t *answer;     /* the analysis of req best() ran, or NULL */
    const json_t *best; /* its moves[0] */
    json_t *moved;      /* the "after" diff of the last move played, or NULL */
    after_writer w;     /* whole afters, its cache kept for the request */
} adapted;

/* gj_play.analyze: the game's analyze() on req written compact. */
static int adapted_analyze(void *v, gj_buf *out, gj_error *e)
{
    adapted *a = v;
    char *body = json_dumps(a->req, JSON_COMPACT);
    if (body == NULL)
        return gj_fail_nomem(e);
    int rc = a->g->analyze(body, strlen(body), a->limits, out, e);
    free(body);
    return rc;
}

/* gj_play.best: moves[0] of an analysis listing one move. */
static int adapted_best(void *v, gj_error *e)
{
    adapted *a = v;
    json_decref(a->answer);
    a->best = NULL;
    a->answer = analysis_call(a->g, a->req, 1, a->limits, e);
    if (a->answer == NULL)
        return -1;
    a->best = json_array_get(json_object_get(a->answer, "moves"), 0);
    return a->best != NULL;
}

/* gj_play.write_best: the entry through after.h's writer, as it was. */
static int adapted_write_best(void *v, int whole, gj_buf *out, size_t *after_bytes, gj_error *e)
{
    adapted *a = v;
    size_t before = a->w.bytes;
    a->w.full = whole && a->g->play_move != NULL;
    if (after_put_members(&a->w, a->req, a->best, out, e) != 0)
        return -1;
    *after_bytes = a->w.bytes - before;
    return 0;
}

/* gj_play.play_best: the game's play_move on the JSON request. */
static int adapted_play_best(void *v, gj_error *e)
{
    adapted *a = v;
    if (a->best == NULL)
        return gj_fail(e, GJ_INTERNAL, "%s: a move played before one was found", a->g->name);
    json_decref(a->moved);
    a->moved = json_incref(json_object_get(a->best, "after"));
    if (a->g->play_move(a->req, a->best, e) != 0)
        return -1;
    a->best = NULL;
    return 0;
}

/* v written compact at the end of out, without its braces when an object. */
static void put_inner(gj_buf *out, const json_t *v, size_t flags)
{
    char *text = v != NULL ? json_dumps(v, JSON_COMPACT | flags) : NULL;
    size_t len = text != NULL ? strlen(text) : 0;
    if (len < 2)
        out->failed |= v != NULL;
    else
        buf_append(out, text + 1, len - 2);
    free(text);
}

/* gj_play.write_members: the request's members, or (moved) the last move's
 * diff with sorted keys, so equal diffs write equal bytes. */
static void adapted_write_members(void *v, int moved, gj_buf *out)
{
    adapted *a = v;
    if (moved) {
        put_inner(out, a->moved, JSON_SORT_KEYS);
        return;
    }
    json_t *copy = json_copy(a->req);
    if (copy == NULL) {
        out->failed = 1;
        return;
    }
    json_object_del(copy, "max_moves");
    put_inner(out, copy, 0);
    json_decref(copy);
}

/* gj_play.free. */
static void adapted_free(void *v)
{
    adapted *a = v;
    if (a == NULL)
        return;
    json_decref(a->req);
    json_decref(a->answer);
    json_decref(a->moved);
    after_free(&a->w);
    free(a);
}

static const gj_play adapter = {
    .analyze = adapted_analyze,
    .best = adapted_best,
    .write_best = adapted_write_best,
    .play_best = adapted_play_best,
    .write_members = adapted_write_members,
    .free = adapted_free,
};

/* The adapter's parse, which needs the game: nothing is read until analyze
 * or best, so the game's own messages come from its analyze(). */
static void *adapted_open(const gj_game *g, const json_t *req, const long *limits, gj_error *e)
{
    adapted *a = calloc(1, sizeof *a);
    if (a != NULL)
        a->req = json_copy((json_t *)req);
    if (a == NULL || a->req == NULL) {
        free(a);
        gj_fail_nomem(e);
        return NULL;
    }
    a->g = g;
    a->limits = limits;
    after_init(&a->w, g, 1);
    a->w.limit = SIZE_MAX; /* the caller bounds the answer's afters */
    return a;
}

int play_adapted(const gj_game *g)
{
    return g->play == NULL;
}

int play_open(play_pos *p, const gj_game *g, const json_t *req, const long *limits, gj_error *e)
{
    p->ops = play_adapted(g) ? &adapter : g->play;
    p->pos = play_adapted(g) ? adapted_open(g, req, limits, e) : g->play->parse(req, limits, e);
    return p->pos != NULL ? 0 : -1;
}

void play_close(play_pos *p)
{
    if (p->pos != NULL)
        p->ops->free(p->pos);
    p->pos = NULL;
}
