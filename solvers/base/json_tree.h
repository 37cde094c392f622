/* json_tree.h - a JSON object body read as it arrives into jansson's tree.
 *
 * For a request whose handler works on a tree (an analysis, the engine's
 * move), the body need not be kept and parsed after its last byte: each
 * piece is handed to json_pull (json_pull.h) as it arrives, and its events
 * build the tree.  The tree and every refusal are exactly what
 * jin_load_object(body, len, NULL, e) gives for the whole body (json_in.h),
 * since json_pull takes and refuses exactly the bodies it does, with the
 * same values and errors; the tests compare the two on generated bodies.
 *
 * open, then feed the pieces (0, or -1 with *e: then only close), then
 * finish: the tree (the caller json_decref()s it), or NULL with *e; finish
 * frees the reader either way. */
#ifndef GJ_JSON_TREE_H
#define GJ_JSON_TREE_H

#include <stddef.h>

#include <jansson.h>

#include "error.h"
#include "json_pull.h"

typedef struct json_tree json_tree;

/* A reader of no bytes yet, or NULL with *e when memory is short. */
json_tree *json_tree_open(gj_error *e);
/* The next n bytes, split anywhere: 0, or -1 with *e. */
int json_tree_feed(json_tree *t, const char *p, size_t n, gj_error *e);
/* The body has ended: its object, or NULL with *e.  Frees t. */
json_t *json_tree_finish(json_tree *t, gj_error *e);
/* The same tree built from events another pull hands in (json_pull.h):
 * a builder with no pull of its own, or NULL with *e when memory is short.
 * Each event goes to json_tree_take (JPULL_GO, or JPULL_ABORT with *e when
 * memory is short); once that pull has judged the whole body JSON,
 * json_tree_root gives the object (the caller json_decref()s it), and
 * json_tree_close frees the builder. */
json_tree *json_tree_open_events(gj_error *e);
int json_tree_take(json_tree *t, const jpull_event *ev, gj_error *e);
json_t *json_tree_root(json_tree *t);
/* Free a reader that was not finished (NULL is fine). */
void json_tree_close(json_tree *t);

#endif
