/* json_seen.h - what a reader over json_pull.h keeps of the values it
 * meets, and the errors json_in.c's helpers give for them.
 *
 * A game's chunk-fed reader judges the body at its end, in the order and
 * with the words its tree reader (json_in.h over jansson) uses.  Of a value
 * it keeps only what those words need: its type, and an integer's value.
 * On the error path a jansson value of that type stands in for it, so the
 * message is json_in.c's own.  The body's members are checked as
 * jin_load_object checks them: an unknown one first, then a missing one. */
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
 * as jin_load_object takes them, at most 32).  Zero it, then set keys. */
typedef struct jseen_members {
    const char *const *keys;
    unsigned long present; /* bit k: keys[k] was met */
    int have_unknown;
    char unknown[48]; /* the first member not listed, as jin_known_keys cuts it */
} jseen_members;

/* Key s (len bytes) of the body's object met: the index in keys of the
 * member it names, or -1 for one not listed (the first such is noted). */
int jseen_member(jseen_members *m, const char *s, size_t len);

/* What a consumer returns after a member's key: JPULL_STOP with *e once
 * a member not listed has been met (that error holds whatever follows,
 * short of a JSON error, which json_pull.h puts first), else JPULL_GO. */
int jseen_members_go(const jseen_members *m, gj_error *e);

/* The members met, checked as jin_load_object checks them: an unknown one
 * first, then a missing one.  0, or -1 with *e. */
int jseen_members_check(const jseen_members *m, gj_error *e);

#endif
