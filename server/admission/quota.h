/* quota.h - quotas by cost: a token bucket of worker time per client.
 *
 * A client's bucket holds at most `burst_ms` worker milliseconds and
 * refills at `rate_ms` per second.  A request is admitted while the bucket
 * is not below zero; after it ran, its real worker time (parse + solve +
 * write) is taken out, so one expensive solve can take the bucket below
 * zero and the client waits until it refills past zero.  Clients are
 * named by a string (an address, or "key#N"); the table holds at most
 * `max_clients`, and a new client past that first evicts the buckets that
 * are full (they hold nothing a fresh bucket would not), else the fullest
 * one.  Every call takes the time `now` in seconds from a monotonic clock,
 * and is thread-safe (one mutex). */
#ifndef GJ_QUOTA_H
#define GJ_QUOTA_H

#include <stddef.h>

#include "buf.h"

typedef struct gj_quota gj_quota;

typedef struct quota_policy {
    double rate_ms; /* worker ms per second, > 0 */
    double burst_ms;
} quota_policy;

/* A client's budget after a call, for the answer's headers. */
typedef struct quota_view {
    double remaining_ms; /* may be below zero */
    long retry_after;    /* whole seconds until the bucket is not below zero; 0 when not */
    long reset;          /* whole seconds until the bucket is full again */
} quota_view;

/* Why a request was throttled, for the metrics. */
typedef enum quota_reason { QUOTA_ADDRESS_COST, QUOTA_KEY_COST, QUOTA_UNKNOWN_KEY } quota_reason;

gj_quota *quota_create(size_t max_clients);
void quota_free(gj_quota *q);

/* May `client` be served now?  0 (admitted), or -1 when its bucket is
 * below zero; *v filled either way. */
int quota_admit(gj_quota *q, const char *client, const quota_policy *p, double now, quota_view *v);

/* Take `cost_ms` out of the client's bucket; *v after it. */
void quota_charge(gj_quota *q, const char *client, const quota_policy *p, double cost_ms,
                  double now, quota_view *v);

/* Count one throttled request. */
void quota_throttled(gj_quota *q, quota_reason why);

/* Clients in the table now. */
size_t quota_clients(gj_quota *q);

/* Append the quota metrics (Prometheus text). */
void quota_render(gj_quota *q, gj_buf *out);

#endif
