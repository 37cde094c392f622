/* json_tree.c - json_pull's events built into a jansson tree (json_tree.h). */
#include "json_tree.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "json_pull.h"

struct json_tree {
    jpull *jp;
    json_t *root;    /* the body's object, once it began */
    json_t **open;   /* the containers open around the next value, innermost last */
    size_t depth;    /* how many are open */
    size_t cap;      /* room in open */
    char *key;       /* the key whose value comes next, NUL-terminated */
    size_t key_cap;  /* room in key */
    bool not_object; /* the body is an array: json_pull refuses it at the end */
};

/* Remember the key ev names for the value that follows: 0, or -1 when
 * memory is short. */
static int take_key(json_tree *t, const jpull_event *ev)
{
    if (ev->len + 1 > t->key_cap) {
        size_t cap = t->key_cap ? t->key_cap : 64;
        while (cap < ev->len + 1)
            cap *= 2;
        char *key = realloc(t->key, cap);
        if (key == NULL)
            return -1;
        t->key = key;
        t->key_cap = cap;
    }
    memcpy(t->key, ev->str, ev->len);
    t->key[ev->len] = '\0';
    return 0;
}

/* The value an event begins or is: a new node, NULL when memory is short
 * (an end or a key is no value: the caller never asks for one). */
static json_t *new_value(const jpull_event *ev)
{
    switch (ev->kind) {
    case JPULL_OBJECT_BEGIN:
        return json_object();
    case JPULL_ARRAY_BEGIN:
        return json_array();
    case JPULL_STRING:
        return json_stringn_nocheck(ev->str, ev->len); /* json_pull checked the UTF-8 */
    case JPULL_INTEGER:
        return json_integer((json_int_t)ev->integer);
    case JPULL_REAL:
        return json_real(ev->real);
    case JPULL_TRUE:
        return json_true();
    case JPULL_FALSE:
        return json_false();
    default:
        return json_null();
    }
}

/* Put v into the innermost open container (under the pending key in an
 * object), and open it when it is a container itself: 0, or -1 when memory
 * is short (v is released either way on failure). */
static int place(json_tree *t, json_t *v)
{
    json_t *parent = t->open[t->depth - 1];
    int rc = json_is_object(parent) ? json_object_set_new_nocheck(parent, t->key, v)
                                    : json_array_append_new(parent, v);
    if (rc != 0 || !(json_is_object(v) || json_is_array(v)))
        return rc != 0 ? -1 : 0;
    if (t->depth == t->cap) {
        size_t cap = t->cap * 2;
        json_t **open = realloc(t->open, cap * sizeof *open);
        if (open == NULL)
            return -1;
        t->open = open;
        t->cap = cap;
    }
    t->open[t->depth++] = v; /* borrowed: the parent holds it */
    return 0;
}

int json_tree_take(json_tree *t, const jpull_event *ev, gj_error *e)
{
    if (t->not_object)
        return JPULL_GO;
    if (ev->kind == JPULL_OBJECT_END || ev->kind == JPULL_ARRAY_END) {
        t->depth--;
        return JPULL_GO;
    }
    if (ev->kind == JPULL_KEY)
        return take_key(t, ev) == 0 ? JPULL_GO : (gj_fail_nomem(e), JPULL_ABORT);
    if (ev->depth == 0) {
        /* The body itself: an object becomes the root; an array is read
         * on for json_pull's verdict but never built. */
        if (ev->kind != JPULL_OBJECT_BEGIN) {
            t->not_object = true;
            return JPULL_GO;
        }
        if ((t->root = json_object()) == NULL) {
            gj_fail_nomem(e);
            return JPULL_ABORT;
        }
        t->open[t->depth++] = t->root;
        return JPULL_GO;
    }
    json_t *v = new_value(ev);
    if (v == NULL || place(t, v) != 0) {
        gj_fail_nomem(e);
        return JPULL_ABORT;
    }
    return JPULL_GO;
}

/* json_pull's consumer: each event into the tree. */
static int on_event(void *ctx, const jpull_event *ev, gj_error *e)
{
    return json_tree_take(ctx, ev, e);
}

json_tree *json_tree_open_events(gj_error *e)
{
    json_tree *t = calloc(1, sizeof *t);
    if (t != NULL) {
        t->cap = 16;
        t->open = malloc(t->cap * sizeof *t->open);
    }
    if (t == NULL || t->open == NULL) {
        json_tree_close(t);
        gj_fail_nomem(e);
        return NULL;
    }
    return t;
}

json_t *json_tree_root(json_tree *t)
{
    json_t *root = t->root;
    t->root = NULL;
    return root;
}

json_tree *json_tree_open(gj_error *e)
{
    json_tree *t = json_tree_open_events(e);
    if (t == NULL)
        return NULL;
    t->jp = jpull_new(on_event, t);
    if (t->jp == NULL) {
        json_tree_close(t);
        gj_fail_nomem(e);
        return NULL;
    }
    return t;
}

int json_tree_feed(json_tree *t, const char *p, size_t n, gj_error *e)
{
    return jpull_feed(t->jp, p, n, e);
}

json_t *json_tree_finish(json_tree *t, gj_error *e)
{
    json_t *root = NULL;
    if (jpull_end(t->jp, e) == 0)
        root = json_tree_root(t);
    json_tree_close(t);
    return root;
}

void json_tree_close(json_tree *t)
{
    if (t == NULL)
        return;
    jpull_free(t->jp);
    json_decref(t->root);
    free(t->open);
    free(t->key);
    free(t);
}
