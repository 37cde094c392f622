/* conntrack.h - a total deadline for every request.
 *
 * libmicrohttpd's connection timeout counts inactivity only, so a client
 * that trickles one byte a second keeps its connection for ever.  Here
 * every connection is tracked from accept to close; a request must be
 * complete (or handed to a worker) within the deadline, counted from the
 * connection's start or from the end of its previous request, or a reaper
 * thread shuts its socket down (libmicrohttpd then sees the error and
 * closes the connection the normal way).  Requests being solved are exempt:
 * the queue has its own deadline (jobs_start in jobs.c).
 *
 * The same thread watches the solves: while a job runs for a connection
 * (conntrack_watch), every WATCH_MS (10 ms) it peeks at the socket and
 * raises the job's cancel flag once the client has closed it, so the solve
 * stops within about 10 ms plus the solver's check interval.
 *
 * And it closes, lingering, the connections answered before their body was
 * read (conntrack_linger). */
#ifndef GJ_CONNTRACK_H
#define GJ_CONNTRACK_H

typedef struct gj_conntrack gj_conntrack;
typedef struct tracked tracked;

#include "cancel.h"

/* Start the reaper; NULL when a thread or memory cannot be had. */
gj_conntrack *conntrack_start(double deadline_seconds);
void conntrack_stop(gj_conntrack *t);

/* A connection on socket fd opened / closed. */
tracked *conntrack_open(gj_conntrack *t, int fd);
void conntrack_close(gj_conntrack *t, tracked *c);

/* The connection's request went to a worker (busy = 1: no deadline), or a
 * request ended and the next one's deadline starts now (busy = 0). */
void conntrack_set_busy(gj_conntrack *t, tracked *c, int busy);

/* 1 when the peer has closed or reset the connection (a peek reads end of
 * stream or an error), 0 while it is open (even with more bytes waiting:
 * a pipelined request).  A client that half-closes after its request
 * counts as gone.  NULL (untracked): 0. */
int conntrack_gone(const tracked *c);

/* While a solve runs for c, raise `cancel` with GJ_CANCEL_GONE once its
 * peer is gone; NULL stops watching (before the flag's memory goes). */
void conntrack_watch(gj_conntrack *t, tracked *c, gj_cancel *cancel);

/* c was answered before its request's body was read: when it closes, read
 * and drop what its client still sends (bounded in bytes and time, on the
 * reaper thread) before the socket is closed, so that the close does not
 * reset the connection under the answer.  NULL (untracked): nothing. */
void conntrack_linger(gj_conntrack *t, tracked *c);

/* Connections shut down for passing the deadline, since start. */
unsigned long conntrack_reaped(gj_conntrack *t);

#endif
