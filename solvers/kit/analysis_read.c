/* analysis_read.c - an /analyze body split between the game's reader and a
 * small tree as it arrives (analysis_read.h). */
#include "analysis_read.h"

#include <stdlib.h>
#include <string.h>

#include "json_pull.h"
#include "json_tree.h"

/* Where the events of the member being read go. */
typedef enum route {
    ROUTE_TREE, /* a member the game does not take: the tree alone */
    ROUTE_BOTH, /* a small member of the position: the game and the tree */
    ROUTE_GAME, /* the bulk member: the game alone (a null in the tree) */
} route;

typedef struct analysis_read {
    jpull *pull;
    json_tree *tree;
    const gj_event_reader *events;
    void *game;       /* the game's reader; NULL once it stopped or failed */
    gj_error stopped; /* why it stopped (JPULL_STOP), for the position's turn */
    route member;     /* the current member's route */
} analysis_read;

/* The route of the member named by key event ev. */
static route route_of(const analysis_read *r, const jpull_event *ev)
{
    for (size_t k = 0; r->events->keys[k] != NULL; k++) {
        const char *name = r->events->keys[k];
        name += name[0] == '?';
        if (strlen(name) == ev->len && memcmp(name, ev->str, ev->len) == 0)
            return strcmp(name, r->events->bulk) == 0 ? ROUTE_GAME : ROUTE_BOTH;
    }
    return ROUTE_TREE;
}

/* ev to the game's reader while it reads: JPULL_GO, or JPULL_ABORT with *e
 * (a stop is kept for the position's turn and the body read on). */
static int to_game(analysis_read *r, const jpull_event *ev, gj_error *e)
{
    if (r->game == NULL)
        return JPULL_GO;
    int rc = r->events->take(r->game, ev, &r->stopped);
    if (rc == JPULL_GO)
        return JPULL_GO;
    r->events->close(r->game);
    r->game = NULL;
    if (rc == JPULL_STOP)
        return JPULL_GO;
    *e = r->stopped;
    return JPULL_ABORT;
}

/* json_pull's consumer: each event to the tree, the game's reader or both,
 * by the member it belongs to. */
static int on_event(void *ctx, const jpull_event *ev, gj_error *e)
{
    analysis_read *r = ctx;
    /* A member's own key: keys inside its value are its events. */
    int member_key = ev->depth == 1 && ev->kind == JPULL_KEY;
    if (member_key)
        r->member = route_of(r, ev);
    route to = ev->depth == 0 ? ROUTE_BOTH : r->member;
    int rc = JPULL_GO;
    if (to != ROUTE_TREE)
        rc = to_game(r, ev, e);
    if (rc == JPULL_GO && (to != ROUTE_GAME || member_key))
        rc = json_tree_take(r->tree, ev, e);
    if (rc == JPULL_GO && to == ROUTE_GAME && member_key) {
        /* The bulk member's place in the tree: its key, in the body's
         * order, with a null standing for the value. */
        jpull_event standin = {.kind = JPULL_NULL, .depth = 1};
        rc = json_tree_take(r->tree, &standin, e);
    }
    return rc;
}

void *analysis_read_open(const gj_event_reader *events, const long *limits, gj_error *e)
{
    analysis_read *r = calloc(1, sizeof *r);
    if (r == NULL) {
        gj_fail_nomem(e);
        return NULL;
    }
    r->events = events;
    r->tree = json_tree_open_events(e);
    r->game = r->tree != NULL ? events->open(limits, e) : NULL;
    r->pull = r->game != NULL ? jpull_new(on_event, r) : NULL;
    if (r->pull == NULL) {
        if (r->game != NULL)
            gj_fail_nomem(e);
        analysis_read_close(r);
        return NULL;
    }
    return r;
}

int analysis_read_feed(void *reader, const char *p, size_t n, gj_error *e)
{
    analysis_read *r = reader;
    return jpull_feed(r->pull, p, n, e);
}

void *analysis_read_finish(void *reader, gj_error *e)
{
    analysis_read *r = reader;
    analysis_body *b = NULL;
    if (jpull_end(r->pull, e) == 0) {
        b = calloc(1, sizeof *b);
        if (b == NULL)
            gj_fail_nomem(e);
    }
    if (b != NULL) {
        b->events = r->events;
        b->root = json_tree_root(r->tree);
        if (r->game != NULL) {
            b->pos = r->events->finish(r->game, &b->error);
            r->game = NULL;
        } else {
            b->error = r->stopped;
        }
    }
    analysis_read_close(r);
    return b;
}

void analysis_read_close(void *reader)
{
    analysis_read *r = reader;
    if (r == NULL)
        return;
    jpull_free(r->pull);
    json_tree_close(r->tree);
    if (r->game != NULL)
        r->events->close(r->game);
    free(r);
}

void analysis_body_free(analysis_body *b)
{
    if (b == NULL)
        return;
    json_decref(b->root);
    if (b->pos != NULL)
        b->events->free(b->pos);
    free(b);
}
