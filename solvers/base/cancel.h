/* cancel.h - stopping a solve that nobody waits for any more.
 *
 * The thread that runs a job binds a gj_cancel to itself (gj_cancel_bind)
 * before it calls a solver, and unbinds it (NULL) after.  Another thread
 * raises it when the client has gone (gj_cancel_raise); the bound thread's
 * own checks see a passed deadline.  The solvers' long loops call
 * gj_cancel_check every few thousand steps, never in a hot inner loop: it
 * costs a thread-local read and one relaxed atomic load, plus a clock read
 * when a deadline is set, and returns -1 with *e filled (GJ_CANCELLED) once
 * the solve should stop.  A thread with nothing bound is never cancelled:
 * the command line and most tests run that way. */
#ifndef GJ_CANCEL_H
#define GJ_CANCEL_H

#include <stdatomic.h>

#include "error.h"

typedef enum gj_cancel_reason {
    GJ_CANCEL_NONE = 0,
    GJ_CANCEL_GONE,     /* the client closed its connection */
    GJ_CANCEL_DEADLINE, /* the deadline passed */
} gj_cancel_reason;

typedef struct gj_cancel {
    atomic_int reason;              /* a gj_cancel_reason; set once, never cleared */
    unsigned long long deadline_ns; /* CLOCK_MONOTONIC; 0 for none */
} gj_cancel;

/* A running flag with the given deadline (0: none). */
void gj_cancel_init(gj_cancel *c, unsigned long long deadline_ns);

/* This thread's solves watch c from now on; NULL stops watching. */
void gj_cancel_bind(gj_cancel *c);

/* The flag this thread's solves watch now, NULL when none: a caller that
 * binds a stricter flag of its own for a while puts this one back after. */
gj_cancel *gj_cancel_bound(void);

/* Ask the solve watching c to stop; the first reason given is kept. */
void gj_cancel_raise(gj_cancel *c, gj_cancel_reason reason);

/* 0 while the bound solve may go on; -1 with *e filled (GJ_CANCELLED,
 * naming the reason) once it should stop.  Without a bound flag, 0. */
int gj_cancel_check(gj_error *e);

/* The reason the bound flag was raised, GJ_CANCEL_NONE if none. */
gj_cancel_reason gj_cancel_reason_of(const gj_cancel *c);

/* Now on CLOCK_MONOTONIC, in nanoseconds: the clock deadlines use. */
unsigned long long gj_cancel_now_ns(void);

#endif
