/* json_pull.h - JSON read as it arrives, with jansson's verdicts, building
 * nothing.
 *
 * A jpull is fed the body in chunks of any size (a token may be split
 * anywhere, down to single bytes) and hands each value to a consumer
 * callback as an event, so a game fills its own arrays while the body
 * arrives and no tree of the values is ever built.  It takes exactly the
 * bodies jin_load_object takes (jansson's json_loadb with
 * JSON_REJECT_DUPLICATES: 64-bit integers, finite doubles, no \u0000, no
 * lone surrogates, valid UTF-8, nesting to jansson's depth, no key twice
 * in one object, nothing after the value) with the same values, and it
 * refuses the others with the very error jin_load_object gives ("invalid
 * JSON at line L, column C: ..." with jansson's own line, column and text;
 * "the JSON body must be an object, found an array").  Keys are not checked
 * against a list: that is the consumer's part.
 *
 * Which error wins is jin_load_object's order: any JSON error in the body
 * comes before an error of the consumer, so a consumer that stops with its
 * own error (JPULL_STOP) has it returned only once the rest of the body is
 * known to be JSON; the reader then checks the rest without events.
 * JPULL_ABORT ends at once with the consumer's error (for limits such as
 * memory, which hold whatever the rest of the body is).
 *
 * Memory is the open containers' keys (for the duplicate check) and the
 * current token, never the values already handed out. */
#ifndef GJ_JSON_PULL_H
#define GJ_JSON_PULL_H

#include <stddef.h>

#include "error.h"

typedef struct jpull jpull;

typedef enum jpull_kind {
    JPULL_OBJECT_BEGIN,
    JPULL_OBJECT_END,
    JPULL_KEY, /* a member's key; its value's events follow */
    JPULL_ARRAY_BEGIN,
    JPULL_ARRAY_END,
    JPULL_STRING,
    JPULL_INTEGER,
    JPULL_REAL, /* a number with a fraction or exponent: 1e2 and -0.0 are reals */
    JPULL_TRUE,
    JPULL_FALSE,
    JPULL_NULL,
} jpull_kind;

/* One event.  depth is the number of containers open around it: the body's
 * object begins and ends at 0, its keys and their values are at 1, and so
 * on.  str is the decoded UTF-8 of a key or string (len bytes, NUL after
 * them, never a NUL inside), valid only during the callback. */
typedef struct jpull_event {
    jpull_kind kind;
    int depth;
    const char *str;
    size_t len;
    long long integer; /* JPULL_INTEGER */
    double real;       /* JPULL_REAL */
} jpull_event;

/* What a consumer returns for each event. */
enum {
    JPULL_GO = 0,    /* go on */
    JPULL_STOP = 1,  /* *e holds the consumer's error: no more events, but a JSON error
                        later in the body still wins (jin_load_object's order) */
    JPULL_ABORT = 2, /* *e holds the consumer's error: end now, whatever follows */
};

/* The consumer: JPULL_GO, or JPULL_STOP / JPULL_ABORT having filled *e. */
typedef int (*jpull_fn)(void *ctx, const jpull_event *ev, gj_error *e);

/* A reader handing events to fn(ctx, ...); NULL when memory is short. */
jpull *jpull_new(jpull_fn fn, void *ctx);

/* Read the next n bytes of the body: 0, or -1 with *e (the JSON error, the
 * consumer's JPULL_ABORT error, or no memory).  After -1 every later call
 * returns -1 with the same error. */
int jpull_feed(jpull *jp, const char *p, size_t n, gj_error *e);

/* The body has ended: 0 when it was one JSON object, every event handed out
 * and the consumer never stopped; else -1 with *e (the JSON error first,
 * then "the JSON body must be an object, found an array", then the
 * consumer's JPULL_STOP error). */
int jpull_end(jpull *jp, gj_error *e);

/* Free the reader (NULL is fine). */
void jpull_free(jpull *jp);

#endif
