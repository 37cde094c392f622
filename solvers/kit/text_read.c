/* text_read.c - the steps of a game's judge-text parse driven piece by
 * piece or over a whole body. */
#include "text_read.h"

#include <stddef.h>
#include <stdlib.h>

typedef struct text_read {
    const gj_text_steps *steps;
    const long *limits;
    text_pull t;
    void *state; /* the game's: in_block, in one allocation with the reader */
    max_align_t in_block[];
} text_read;

/* A reader of no bytes yet, with room for the `expect` bytes announced,
 * its state zeroed, or NULL with *e. */
static text_read *new_reader(const gj_text_steps *steps, const long *limits, size_t expect,
                             gj_error *e)
{
    text_read *r = calloc(1, sizeof *r + steps->size);
    if (r == NULL) {
        gj_fail_nomem(e);
        return NULL;
    }
    r->steps = steps;
    r->limits = limits;
    r->state = r->in_block;
    text_pull_init(&r->t, expect);
    return r;
}

/* One run of the game's steps over what r has: 0, or -1 with *e. */
static int run_steps(text_read *r, gj_error *e)
{
    gj_reader at;
    text_pull_begin(&r->t, &at);
    int rc = r->steps->step(r->state, &r->t, &at, r->limits, e);
    text_pull_keep(&r->t, &at);
    return rc;
}

void *text_read_open(const gj_text_steps *steps, const long *limits, size_t expect, gj_error *e)
{
    return new_reader(steps, limits, expect, e);
}

int text_read_feed(void *reader, const char *p, size_t n, gj_error *e)
{
    text_read *r = reader;
    size_t whole = r->t.whole;
    if (text_pull_feed(&r->t, p, n, e) != 0)
        return -1;
    /* Nothing to step over until a token is complete. */
    return r->t.whole == whole ? 0 : run_steps(r, e);
}

void *text_read_finish(void *reader, gj_error *e)
{
    text_read *r = reader;
    text_pull_end(&r->t);
    void *pos = NULL;
    gj_text_made *made = r->state;
    if (run_steps(r, e) == 0) {
        if (made->done) {
            pos = made->pos;
            made->pos = NULL;
        } else {
            gj_fail(e, GJ_INTERNAL, "the text reader ended without a position");
        }
    }
    text_read_close(r);
    return pos;
}

void text_read_close(void *reader)
{
    text_read *r = reader;
    if (r == NULL)
        return;
    gj_text_made *made = r->state;
    r->steps->free_position(made->pos);
    if (r->steps->drop != NULL)
        r->steps->drop(r->state);
    text_pull_free(&r->t);
    free(r);
}

void *text_read_whole(const gj_text_steps *steps, const char *buf, size_t len, const long *limits,
                      gj_error *e)
{
    text_read *r = new_reader(steps, limits, 0, e);
    if (r == NULL)
        return NULL;
    text_pull_over(&r->t, buf, len);
    return text_read_finish(r, e);
}
