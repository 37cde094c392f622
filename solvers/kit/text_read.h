/* text_read.h - a game's judge-text parse as a chunk-fed reader (game.h's
 * gj_body_reader), and the same parse over a whole body.
 *
 * The game writes its parse once, as steps: `step` reads on from where the
 * last call stopped while whole tokens are there (text_pull_has), keeping
 * its place in its own state, and once the body has ended reads to the end.
 * Fed in pieces or handed the whole body, the same step code reads the same
 * tokens, so the position and every error are the same whichever way the
 * bytes came (the game's parse_text is text_read_whole over its steps). */
#ifndef GJ_TEXT_READ_H
#define GJ_TEXT_READ_H

#include <stdbool.h>
#include <stddef.h>

#include "error.h"
#include "game.h"
#include "reader.h"
#include "text_pull.h"

/* The start of every game's state: the position it builds, and whether it
 * is complete.  An incomplete or untaken one is freed by free_position. */
typedef struct gj_text_made {
    void *pos;
    bool done;
} gj_text_made;

typedef struct gj_text_steps {
    size_t size; /* the game's state, a gj_text_made first, zeroed at open */
    /* Read on from r (over t's whole tokens) into state, under limits: 0
     * when every token there is read (with t ended: made.done is set, or
     * nothing more is read), or -1 with *e. */
    int (*step)(void *state, const text_pull *t, gj_reader *r, const long *limits, gj_error *e);
    void (*free_position)(void *pos);
    void (*drop)(void *state); /* free the state's own scratch; NULL: none */
} gj_text_steps;

/* A reader of a body in pieces by `steps` under `limits` (which must
 * outlive it), with room made for the `expect` bytes announced, or NULL
 * with *e: gj_body_reader's open. */
void *text_read_open(const gj_text_steps *steps, const long *limits, size_t expect, gj_error *e);
/* gj_body_reader's feed, finish and close for any text_read_open reader. */
int text_read_feed(void *reader, const char *p, size_t n, gj_error *e);
void *text_read_finish(void *reader, gj_error *e);
void text_read_close(void *reader);
/* The whole body buf[0..len) by `steps`, nothing copied: the position, or
 * NULL with *e.  A game's parse_text. */
void *text_read_whole(const gj_text_steps *steps, const char *buf, size_t len, const long *limits,
                      gj_error *e);

/* A game's `static const gj_body_reader read_text` and its parse_text,
 * both over the steps `steps` (with open_text, the reader's open). */
#define GJ_TEXT_READER(steps)                                                                      \
    static void *open_text(const long *lim, size_t expect, gj_error *e)                            \
    {                                                                                              \
        return text_read_open(&(steps), lim, expect, e);                                           \
    }                                                                                              \
    static const gj_body_reader read_text = {open_text, text_read_feed, text_read_finish,          \
                                             text_read_close};                                     \
    static void *parse_text(const char *buf, size_t len, const long *lim, gj_error *e)             \
    {                                                                                              \
        return text_read_whole(&(steps), buf, len, lim, e);                                        \
    }

#endif
