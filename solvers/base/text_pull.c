/* text_pull.c - the bytes and the place of judge text read as it arrives. */
#include "text_pull.h"

#include <string.h>

void text_pull_init(text_pull *t, size_t expect)
{
    memset(t, 0, sizeof *t);
    buf_init(&t->kept);
    t->base = "";
    t->line = 1;
    t->expect = expect;
    if (expect > 0 && buf_reserve(&t->kept, expect) != 0)
        buf_free(&t->kept); /* the room could not be had: grow as bytes come */
}

void text_pull_over(text_pull *t, const char *buf, size_t len)
{
    text_pull_init(t, 0);
    t->base = len > 0 ? buf : "";
    t->len = t->whole = len;
    t->ended = true;
}

int text_pull_feed(text_pull *t, const char *p, size_t n, gj_error *e)
{
    if (n == 0)
        return 0;
    buf_append(&t->kept, p, n);
    if (t->kept.failed)
        return gj_fail_nomem(e);
    t->base = t->kept.data;
    t->len = t->kept.len;
    /* Whole tokens end at the last whitespace byte of this piece; a piece
     * without one leaves its token open, and the mark where it was. */
    for (size_t i = n; i > 0; i--) {
        if (reader_is_space((unsigned char)p[i - 1])) {
            t->whole = t->len - (n - i);
            break;
        }
    }
    return 0;
}

void text_pull_end(text_pull *t)
{
    t->whole = t->len;
    t->ended = true;
}

void text_pull_free(text_pull *t)
{
    buf_free(&t->kept);
    t->base = "";
}

void text_pull_begin(const text_pull *t, gj_reader *r)
{
    /* Offsets, not pointers, live between pieces: appending may move the
     * bytes. */
    r->p = t->base + t->at;
    r->end = t->base + t->whole;
    r->line_start = t->base + t->line_start;
    r->line = t->line;
}

void text_pull_keep(text_pull *t, const gj_reader *r)
{
    t->at = (size_t)(r->p - t->base);
    t->line_start = (size_t)(r->line_start - t->base);
    t->line = r->line;
}
