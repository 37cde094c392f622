/* tree_read.c - json_tree in gj_body_reader's shape. */
#include "tree_read.h"

#include "json_tree.h"

/* gj_body_reader's open: a json_tree of no bytes yet, or NULL with *e. */
static void *tree_open(const long *limits, size_t expect, gj_error *e)
{
    (void)limits;
    (void)expect;
    return json_tree_open(e);
}

/* gj_body_reader's feed: the next n bytes into the tree. */
static int tree_feed(void *r, const char *p, size_t n, gj_error *e)
{
    return json_tree_feed(r, p, n, e);
}

/* gj_body_reader's finish: the body's tree, or NULL with *e. */
static void *tree_finish(void *r, gj_error *e)
{
    return json_tree_finish(r, e);
}

/* gj_body_reader's close: free a reader that was not finished. */
static void tree_close(void *r)
{
    json_tree_close(r);
}

const gj_body_reader tree_read = {tree_open, tree_feed, tree_finish, tree_close};
