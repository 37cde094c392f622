/* text_pull.h - judge text read as it arrives, for a game's chunk-fed
 * text reader (game.h's read_text).
 *
 * A game reads judge text one token after another with reader.h.  To read
 * a body that comes in pieces it keeps its own place (which token is next)
 * and text_pull keeps the bytes: each piece is appended, and a gj_reader
 * over them ends just after the last whitespace byte, so every token it
 * meets is whole.  Once the body has ended the reader ends with it and reads
 * exactly as over the whole body: the same tokens, values and errors.  The
 * bytes are kept to the end because tokens are read in place and some
 * errors locate an earlier token again (a repeated value).  Over a whole
 * body (text_pull_over) nothing is copied. */
#ifndef GJ_TEXT_PULL_H
#define GJ_TEXT_PULL_H

#include <stdbool.h>
#include <stddef.h>

#include "buf.h"
#include "error.h"
#include "reader.h"

typedef struct text_pull {
    gj_buf kept;      /* the pieces fed so far */
    const char *base; /* the bytes read: kept.data, or a whole body */
    size_t len;       /* how many */
    size_t whole;     /* bytes up to and including the last whitespace byte */
    bool ended;       /* the body has ended: whole == len */
    size_t at;        /* the reader's place between pieces, as offsets ... */
    size_t line_start;
    long line;     /* ... and its line */
    size_t expect; /* the length the body announced, 0: unknown (a hint) */
} text_pull;

/* An empty body that pieces will be fed to, with room made at once for the
 * `expect` bytes it announced (0: none), so a body of known length is
 * copied once, never moved as it grows.  Room that cannot be had now is
 * not an error: the bytes then get room as they come. */
void text_pull_init(text_pull *t, size_t expect);
/* The whole body buf[0..len), borrowed (it must outlive t's use), ended. */
void text_pull_over(text_pull *t, const char *buf, size_t len);
/* Append the next n bytes: 0, or -1 with *e when memory is short. */
int text_pull_feed(text_pull *t, const char *p, size_t n, gj_error *e);
/* The body has ended: its last token is whole too. */
void text_pull_end(text_pull *t);
/* Free the kept bytes (not a borrowed body). */
void text_pull_free(text_pull *t);

/* A reader at t's place over the whole tokens so far; hand it back with
 * text_pull_keep when done, before the next piece is fed. */
void text_pull_begin(const text_pull *t, gj_reader *r);
/* Remember r's place in t. */
void text_pull_keep(text_pull *t, const gj_reader *r);

/* The bytes from r's place to the body's end as far as it is known: the
 * whole tokens here, or the rest of the announced length when that is
 * more.  A hint for the room a step makes, never a bound on what it reads. */
static inline size_t text_pull_ahead(const text_pull *t, const gj_reader *r)
{
    size_t here = (size_t)(r->end - r->p), done = (size_t)(r->p - t->base);
    size_t announced = t->expect > done ? t->expect - done : 0;
    return announced > here ? announced : here;
}

/* True when the next `count` tokens can be read from r: they are whole
 * before r->end, or the body has ended (and a read then meets the end
 * exactly where the whole body's would).  Moves r past whitespace. */
static inline bool text_pull_has(const text_pull *t, gj_reader *r, int count)
{
    reader_skip_space(r);
    if (t->ended)
        return true;
    if (r->p == r->end)
        return false;
    if (count == 1)
        return true;
    /* Look further on a copy: a token ends at whitespace, which r->end
     * follows, so each whole token is followed by another or by r->end. */
    gj_reader ahead = *r;
    for (int k = 1; k < count; k++) {
        while (ahead.p < ahead.end && !reader_is_space((unsigned char)*ahead.p))
            ahead.p++;
        reader_skip_space(&ahead);
        if (ahead.p == ahead.end)
            return false;
    }
    return true;
}

#endif
