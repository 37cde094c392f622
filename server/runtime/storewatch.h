/* storewatch.h - the puzzle store's health and pool sizes, kept by a thread
 * of its own so that neither a probe nor a scrape waits on the database.
 *
 * The thread pings the store (store_ping) every STOREWATCH_PING_MS and
 * counts the stored puzzles of each game (store_count) every
 * STOREWATCH_COUNT_MS; /readyz reads the last ping and /metrics the last
 * counts, so what they say is at most that old.  A store that failed is
 * pinged again on the next beat: it is used again as soon as it answers,
 * without a restart. */
#ifndef GJ_STOREWATCH_H
#define GJ_STOREWATCH_H

#include "buf.h"
#include "error.h"
#include "store.h"

#define STOREWATCH_PING_MS  1000
#define STOREWATCH_COUNT_MS 15000

typedef struct gj_storewatch gj_storewatch;

/* Ping s once now (so the first answer of /readyz is already true) and
 * start the thread: the watch, or NULL with *e when memory or a thread is
 * short. */
gj_storewatch *storewatch_start(gj_store *s, gj_error *e);

/* Stop the thread and free the watch (NULL is fine); the store stays open. */
void storewatch_stop(gj_storewatch *w);

/* Whether the last ping succeeded: 0, or -1 with *e (GJ_UNAVAILABLE, its
 * sentence). */
int storewatch_health(gj_storewatch *w, gj_error *e);

/* Append the store's metric families (Prometheus text): its counters, the
 * latency of its calls, whether it answered the last ping, and the pool
 * size of each game as last counted.  A metrics section (metrics.h). */
void storewatch_render(void *w, gj_buf *out);

#endif
