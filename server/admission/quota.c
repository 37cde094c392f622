/* quota.c - per-client token buckets of worker time (quota.h).
 *
 * A chained hash table under one mutex: the I/O thread admits and
 * charges, a scrape reads the counters; a critical section is a hash, a
 * chain walk and a few additions. */
#include "quota.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metrics.h"

#define CLIENT_MAX 72

typedef struct bucket {
    struct bucket *next;
    char client[CLIENT_MAX];
    double tokens; /* ms, at time `at` */
    double at;
    double burst_ms, rate_ms;
} bucket;

struct gj_quota {
    pthread_mutex_t lock;
    bucket **slots;
    size_t nslots, count, max;
    unsigned long evicted;
    atomic_ulong throttled[3];
};

gj_quota *quota_create(size_t max_clients)
{
    gj_quota *q = calloc(1, sizeof *q);
    if (q == NULL)
        return NULL;
    q->max = max_clients > 0 ? max_clients : 1;
    q->nslots = 64;
    while (q->nslots < q->max && q->nslots < ((size_t)1 << 20))
        q->nslots *= 2;
    q->slots = calloc(q->nslots, sizeof *q->slots);
    if (q->slots == NULL || pthread_mutex_init(&q->lock, NULL) != 0) {
        free(q->slots);
        free(q);
        return NULL;
    }
    return q;
}

void quota_free(gj_quota *q)
{
    if (q == NULL)
        return;
    for (size_t i = 0; i < q->nslots; i++)
        for (bucket *b = q->slots[i], *next; b != NULL; b = next) {
            next = b->next;
            free(b);
        }
    pthread_mutex_destroy(&q->lock);
    free(q->slots);
    free(q);
}

/* FNV-1a of the client's name: spreads addresses well enough for a table
 * that only ever holds names the daemon made itself. */
static size_t slot_of(const gj_quota *q, const char *client)
{
    uint64_t h = 1469598103934665603ULL;
    for (const unsigned char *p = (const unsigned char *)client; *p; p++)
        h = (h ^ *p) * 1099511628211ULL;
    return (size_t)(h & (q->nslots - 1));
}

/* Bring b's tokens up to `now` (capped at its burst). */
static void refill(bucket *b, double now)
{
    if (now > b->at) {
        b->tokens += (now - b->at) * b->rate_ms; /* rate: ms per second */
        b->at = now;
    }
    if (b->tokens > b->burst_ms)
        b->tokens = b->burst_ms;
}

/* Unlink and free every bucket that is full at `now`; when none is, the
 * fullest one (relative to its burst).  Locked. */
static void evict(gj_quota *q, double now)
{
    bucket **best = NULL;
    double best_share = 0;
    size_t before = q->count;
    for (size_t i = 0; i < q->nslots; i++)
        for (bucket **p = &q->slots[i]; *p != NULL;) {
            refill(*p, now);
            if ((*p)->tokens >= (*p)->burst_ms) {
                bucket *dead = *p;
                *p = dead->next;
                free(dead);
                q->count--;
                continue;
            }
            double share = (*p)->tokens / (*p)->burst_ms;
            if (best == NULL || share > best_share) {
                best_share = share;
                best = p;
            }
            p = &(*p)->next;
        }
    if (q->count == before && best != NULL) {
        bucket *dead = *best;
        *best = dead->next;
        free(dead);
        q->count--;
    }
    q->evicted += before - q->count;
}

/* The client's bucket, made full when new, refilled to now and with the
 * policy p; NULL when memory is short.  Locked. */
static bucket *find(gj_quota *q, const char *client, const quota_policy *p, double now)
{
    size_t s = slot_of(q, client);
    for (bucket *b = q->slots[s]; b != NULL; b = b->next)
        if (strcmp(b->client, client) == 0) {
            b->rate_ms = p->rate_ms;
            b->burst_ms = p->burst_ms;
            refill(b, now);
            return b;
        }
    if (q->count >= q->max)
        evict(q, now);
    bucket *b = calloc(1, sizeof *b);
    if (b == NULL)
        return NULL;
    snprintf(b->client, sizeof b->client, "%s", client);
    b->tokens = b->burst_ms = p->burst_ms;
    b->rate_ms = p->rate_ms;
    b->at = now;
    b->next = q->slots[s];
    q->slots[s] = b;
    q->count++;
    return b;
}

/* The smallest whole number not below x >= 0 (no libm in the daemon). */
static long ceil_pos(double x)
{
    long n = (long)x;
    return (double)n < x ? n + 1 : n;
}

/* Fill *v from tokens under policy p. */
static void view(double tokens, const quota_policy *p, quota_view *v)
{
    v->remaining_ms = tokens;
    v->retry_after = tokens < 0 ? ceil_pos(-tokens / p->rate_ms) : 0;
    if (tokens < 0 && v->retry_after < 1)
        v->retry_after = 1;
    double missing = p->burst_ms - tokens;
    v->reset = missing > 0 ? ceil_pos(missing / p->rate_ms) : 0;
}

int quota_admit(gj_quota *q, const char *client, const quota_policy *p, double now, quota_view *v)
{
    pthread_mutex_lock(&q->lock);
    bucket *b = find(q, client, p, now);
    double tokens = b ? b->tokens : p->burst_ms; /* no memory: admit, not refuse */
    pthread_mutex_unlock(&q->lock);
    view(tokens, p, v);
    return tokens < 0 ? -1 : 0;
}

void quota_charge(gj_quota *q, const char *client, const quota_policy *p, double cost_ms,
                  double now, quota_view *v)
{
    pthread_mutex_lock(&q->lock);
    bucket *b = find(q, client, p, now);
    double tokens = p->burst_ms - cost_ms;
    if (b != NULL) {
        b->tokens -= cost_ms;
        tokens = b->tokens;
    }
    pthread_mutex_unlock(&q->lock);
    view(tokens, p, v);
}

void quota_throttled(gj_quota *q, quota_reason why)
{
    atomic_fetch_add_explicit(&q->throttled[why], 1, memory_order_relaxed);
}

size_t quota_clients(gj_quota *q)
{
    pthread_mutex_lock(&q->lock);
    size_t n = q->count;
    pthread_mutex_unlock(&q->lock);
    return n;
}

void quota_render(gj_quota *q, gj_buf *out)
{
    static const char *const reasons[] = {"address_cost", "key_cost", "unknown_key"};
    char labels[64];
    metrics_family(out, "gamejudge_throttled_total", "counter",
                   "Requests refused by the quotas, by reason: a client (by address or by API "
                   "key) over its worker-time budget (429), or an unknown API key (401).");
    for (size_t i = 0; i < sizeof reasons / sizeof reasons[0]; i++) {
        snprintf(labels, sizeof labels, "reason=\"%s\"", reasons[i]);
        metrics_sample(out, "gamejudge_throttled_total", labels,
                       (double)atomic_load(&q->throttled[i]));
    }
    pthread_mutex_lock(&q->lock);
    double clients = (double)q->count, evicted = (double)q->evicted, max = (double)q->max;
    pthread_mutex_unlock(&q->lock);
    metrics_family(out, "gamejudge_quota_clients", "gauge", "Clients whose bucket is kept now.");
    metrics_sample(out, "gamejudge_quota_clients", "", clients);
    metrics_family(out, "gamejudge_quota_clients_max", "gauge",
                   "Clients the quota table may keep (--quota-clients).");
    metrics_sample(out, "gamejudge_quota_clients_max", "", max);
    metrics_family(out, "gamejudge_quota_evictions_total", "counter",
                   "Buckets dropped to keep the table within --quota-clients.");
    metrics_sample(out, "gamejudge_quota_evictions_total", "", evicted);
}
