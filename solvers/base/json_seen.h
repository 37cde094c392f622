/* json_seen.h - what a reader over json_pull.h keeps of the values it
 * meets, and the errors json_in.c's helpers give for them.
 *
 * A game's chunk-fed reader judges the body at its end, in the order and
 * with the words its tree reader (json_in.h over jansson) uses.  Of a value
 * it keeps only what those words need: its type, and an integer's value.
 * On the error path a jansson value of that type stands in for it, so the
 * message is json_in.c's own.  A jseen_body is the part of such a reader
 * every game shares: the pull, and the body's members, checked as
 * jin_load_object checks them (an unknown one first, then a missing one). */
#ifndef GJ_JSON_SEEN_H
#define GJ_JSON_SEEN_H

#include <stddef.h>

#include <jansson.h>

#include "error.h"
#include "json_pull.h"

/* A value, as much of it as an error message needs. */
typedef struct jseen {
    json_type type;
    long long integer; /* when type is JSON_INTEGER */
} jseen;

/* What the event beginning a value says it is (JSON_NULL for ends). */
jseen jseen_of(const jpull_event *ev);

/* What a tree's value v is, as a reader over the pull would have seen it. */
jseen jseen_of_value(const json_t *v);

/* A jansson value of s's type (and integer), or NULL when memory is short;
 * the caller json_decref()s it. */
json_t *jseen_standin(const jseen *s);

/* A jansson value for the value the event begins, a string with its text
 * (messages that quote a string need it).  NULL when memory is short. */
json_t *jseen_event_value(const jpull_event *ev);

/* jin_array(v, name, i, lo, hi) on what was seen, v having `size`
 * elements when it is an array: 0, or -1 with *e. */
int jseen_array(const jseen *s, size_t size, const char *name, long i, size_t lo, size_t hi,
                gj_error *e);

/* jin_long(v, name, i, j, lo, hi) on what was seen: 0 with *out, or -1
 * with *e.  An integer in range costs no allocation. */
int jseen_long(const jseen *s, const char *name, long i, long j, long lo, long hi, long *out,
               gj_error *e);

/* The body's members met so far, against the keys the body takes (listed
 * as jin_load_object takes them): jseen_body's bookkeeping. */
typedef struct jseen_members {
    const char *const *keys;
    unsigned long present; /* bit k: keys[k] was met */
    int have_unknown;
    char unknown[48]; /* the first member not listed, as jin_known_keys cuts it */
} jseen_members;

/* The part of a game's chunk-fed body reader that is the same for every
 * game: the pull, the body's members, and what each listed member's value
 * is.  A game embeds one in its reader and sees only the events inside a
 * listed member whose value is an array. */
#define JSEEN_MAX_KEYS 8

/* The game's part: an event at depth 2 or more inside listed member
 * `member` (its index in keys), whose value is an array.  0, or -1 when
 * memory is short (the reader then ends at once with that error). */
typedef int (*jseen_inner_fn)(void *ctx, int member, const jpull_event *ev);

typedef struct jseen_body {
    jpull *pull;
    jseen_members members;
    int member;                  /* whose events come: its index in keys, -1 another */
    jseen value[JSEEN_MAX_KEYS]; /* what each listed member is, JSON_NULL until met */
    jseen_inner_fn inner;
    void *ctx;
} jseen_body;

/* Begin reading a body whose members are `keys` (at most JSEEN_MAX_KEYS),
 * the events inside them going to inner(ctx, ...): 0, or -1 with *e when
 * memory is short.  b must stay where it is until jseen_body_free. */
int jseen_body_init(jseen_body *b, const char *const *keys, jseen_inner_fn inner, void *ctx,
                    gj_error *e);

/* jseen_body_init for a body whose events another pull hands in one by
 * one (jseen_body_take): no pull of its own, so it cannot fail. */
void jseen_body_init_events(jseen_body *b, const char *const *keys, jseen_inner_fn inner,
                            void *ctx);

/* One event of the body, from a pull run elsewhere: JPULL_GO, or
 * JPULL_STOP / JPULL_ABORT with *e, as json_pull.h's consumers answer. */
int jseen_body_take(jseen_body *b, const jpull_event *ev, gj_error *e);

/* The members met so far, judged as jseen_body_end judges them once the
 * body is known to be JSON (a driven body's pull says that): 0, or -1 with
 * *e. */
int jseen_body_judge(const jseen_body *b, gj_error *e);

/* jpull_feed on the body's next n bytes. */
int jseen_body_feed(jseen_body *b, const char *p, size_t n, gj_error *e);

/* The body has ended: 0 when it is JSON and its members are right (as
 * jin_load_object judges them), or -1 with *e. */
int jseen_body_end(jseen_body *b, gj_error *e);

/* Free what jseen_body_init took (fine after a failed init of a zeroed b). */
void jseen_body_free(jseen_body *b);

#endif
