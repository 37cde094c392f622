/* cache.c - chained hash table + doubly linked LRU list under one mutex.
 *
 * An entry is PENDING from the claim until its answer arrives, then READY.
 * PENDING entries are in the table (so a second request finds and waits
 * for them) but not in the LRU list (nothing to evict yet).  An abandoned
 * or unstorable claim becomes DEAD: out of the table, freed by the last
 * waiter to notice.  One lock is enough: the work under it is a lookup and
 * a copy, tiny next to the solve it saves. */
#include "cache.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* Bookkeeping charged per entry on top of its key and answer. */
#define ENTRY_OVERHEAD 96

typedef enum entry_state { PENDING, READY, DEAD } entry_state;

struct cache_entry {
    struct cache_entry *chain;         /* next in the bucket */
    struct cache_entry *newer, *older; /* LRU list, READY only */
    uint64_t hash;
    entry_state state;
    int waiters;
    char *key;
    size_t key_len;
    char *answer;
    size_t answer_len;
};

struct gj_cache {
    pthread_mutex_t lock;
    pthread_cond_t ready;
    cache_hash_fn hash;
    struct cache_entry **buckets;
    size_t nbuckets; /* a power of two */
    struct cache_entry *newest, *oldest;
    size_t budget, bytes, entries;
    unsigned long long hits, misses, evictions, waits;
};

uint64_t cache_hash(const void *key, size_t len)
{
    /* A multiply-xorshift over 8-byte words: fast on multi-megabyte keys
     * and good enough for bucket choice, since keys are compared whole. */
    const unsigned char *p = key;
    uint64_t h = 0x9e3779b97f4a7c15ULL ^ len;
    while (len >= 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        h = (h ^ w) * 0xff51afd7ed558ccdULL;
        h ^= h >> 32;
        p += 8;
        len -= 8;
    }
    uint64_t tail = 0;
    memcpy(&tail, p, len);
    h = (h ^ tail) * 0xc4ceb9fe1a85ec53ULL;
    return h ^ (h >> 29);
}

gj_cache *cache_create(size_t budget, cache_hash_fn hash)
{
    gj_cache *c = calloc(1, sizeof *c);
    if (c == NULL)
        return NULL;
    c->nbuckets = 1024;
    c->buckets = calloc(c->nbuckets, sizeof *c->buckets);
    if (c->buckets == NULL) {
        free(c);
        return NULL;
    }
    pthread_mutex_init(&c->lock, NULL);
    pthread_cond_init(&c->ready, NULL);
    c->hash = hash ? hash : cache_hash;
    c->budget = budget;
    return c;
}

/* Free an entry with its key and answer; nothing (table, list, waiter) may still reach it. */
static void free_entry(struct cache_entry *en)
{
    free(en->key);
    free(en->answer);
    free(en);
}

void cache_free(gj_cache *c)
{
    if (c == NULL)
        return;
    for (size_t b = 0; b < c->nbuckets; b++)
        for (struct cache_entry *en = c->buckets[b], *next; en != NULL; en = next) {
            next = en->chain;
            free_entry(en);
        }
    pthread_cond_destroy(&c->ready);
    pthread_mutex_destroy(&c->lock);
    free(c->buckets);
    free(c);
}

/* Bytes a READY entry charges against the budget: key, answer and the fixed overhead. */
static size_t cost(const struct cache_entry *en)
{
    return ENTRY_OVERHEAD + en->key_len + en->answer_len;
}

/* The bucket chain head for hash (nbuckets is a power of two, so a mask picks it). */
static struct cache_entry **slot(gj_cache *c, uint64_t hash)
{
    return &c->buckets[hash & (c->nbuckets - 1)];
}

/* The PENDING or READY entry whose key equals key[0..len), or NULL (DEAD ones are out of
 * the table).  Caller holds the lock. */
static struct cache_entry *find(gj_cache *c, uint64_t hash, const void *key, size_t len)
{
    for (struct cache_entry *en = *slot(c, hash); en != NULL; en = en->chain)
        if (en->hash == hash && en->key_len == len && memcmp(en->key, key, len) == 0)
            return en;
    return NULL;
}

/* Take en, which must be in the table, out of its bucket chain and the entry count. */
static void unlink_table(gj_cache *c, struct cache_entry *en)
{
    struct cache_entry **p = slot(c, en->hash);
    while (*p != en)
        p = &(*p)->chain;
    *p = en->chain;
    c->entries--;
}

/* Take en, which must be in the LRU list (READY), out of it and clear its links. */
static void unlink_lru(gj_cache *c, struct cache_entry *en)
{
    if (en->newer)
        en->newer->older = en->older;
    else
        c->newest = en->older;
    if (en->older)
        en->older->newer = en->newer;
    else
        c->oldest = en->newer;
    en->newer = en->older = NULL;
}

/* Put en, not in the LRU list, at its newest end. */
static void push_newest(gj_cache *c, struct cache_entry *en)
{
    en->older = c->newest;
    en->newer = NULL;
    if (c->newest)
        c->newest->newer = en;
    c->newest = en;
    if (c->oldest == NULL)
        c->oldest = en;
}

/* Double the buckets when entries outnumber them; failure only slows. */
static void grow(gj_cache *c)
{
    if (c->entries < c->nbuckets)
        return;
    size_t n = c->nbuckets * 2;
    struct cache_entry **b = calloc(n, sizeof *b);
    if (b == NULL)
        return;
    for (size_t i = 0; i < c->nbuckets; i++)
        for (struct cache_entry *en = c->buckets[i], *next; en != NULL; en = next) {
            next = en->chain;
            en->chain = b[en->hash & (n - 1)];
            b[en->hash & (n - 1)] = en;
        }
    free(c->buckets);
    c->buckets = b;
    c->nbuckets = n;
}

/* An entry leaving the table: freed now, or by its last waiter. */
static void retire(struct cache_entry *en)
{
    en->state = DEAD;
    if (en->waiters == 0)
        free_entry(en);
}

/* Drop the least recently used answers until bytes <= budget or none is left; PENDING
 * claims are not in the list, so they alone may keep bytes above it. */
static void evict_to(gj_cache *c, size_t budget)
{
    while (c->bytes > budget && c->oldest != NULL) {
        struct cache_entry *en = c->oldest;
        unlink_lru(c, en);
        unlink_table(c, en);
        c->bytes -= cost(en);
        c->evictions++;
        retire(en);
    }
}

/* A claim no longer wanted: out of the table; its last waiter frees it. */
static void kill_claim(gj_cache *c, struct cache_entry *en)
{
    unlink_table(c, en);
    c->bytes -= ENTRY_OVERHEAD + en->key_len;
    pthread_cond_broadcast(&c->ready);
    retire(en);
}

/* A new PENDING entry for key in the table, charged for its key and overhead, for the caller to
 * fill or abandon; NULL when memory is short.  Caller holds the lock. */
static struct cache_entry *claim(gj_cache *c, uint64_t hash, const void *key, size_t len)
{
    struct cache_entry *en = calloc(1, sizeof *en);
    char *copy = en ? malloc(len ? len : 1) : NULL;
    if (copy == NULL) {
        free(en);
        return NULL;
    }
    memcpy(copy, key, len);
    en->key = copy;
    en->key_len = len;
    en->hash = hash;
    en->state = PENDING;
    en->chain = *slot(c, hash);
    *slot(c, hash) = en;
    c->entries++;
    c->bytes += ENTRY_OVERHEAD + len;
    grow(c);
    return en;
}

cache_result cache_get(gj_cache *c, const void *key, size_t len, gj_buf *answer,
                       cache_ticket **ticket)
{
    *ticket = NULL;
    if (ENTRY_OVERHEAD + len > c->budget / 2)
        return CACHE_BYPASS; /* it could never stay long; don't evict for it */
    uint64_t hash = c->hash(key, len);
    pthread_mutex_lock(&c->lock);
    for (;;) {
        struct cache_entry *en = find(c, hash, key, len);
        if (en == NULL)
            break;
        if (en->state == PENDING) {
            c->waits++;
            en->waiters++;
            while (en->state == PENDING)
                pthread_cond_wait(&c->ready, &c->lock);
            en->waiters--;
        }
        /* An answer, even one evicted while we woke up, is a hit. */
        if (en->answer != NULL) {
            if (en->state == READY) {
                unlink_lru(c, en);
                push_newest(c, en);
            }
            c->hits++;
            buf_append(answer, en->answer, en->answer_len);
            if (en->state == DEAD && en->waiters == 0)
                free_entry(en);
            pthread_mutex_unlock(&c->lock);
            return CACHE_HIT;
        }
        /* The claim was given up: look again, and maybe claim it. */
        if (en->waiters == 0)
            free_entry(en);
    }
    c->misses++;
    *ticket = claim(c, hash, key, len);
    pthread_mutex_unlock(&c->lock);
    return *ticket ? CACHE_CLAIMED : CACHE_BYPASS;
}

int cache_peek(gj_cache *c, const void *key, size_t len, gj_buf *answer)
{
    if (ENTRY_OVERHEAD + len > c->budget / 2)
        return 0; /* never stored: cache_get bypasses it */
    uint64_t hash = c->hash(key, len);
    pthread_mutex_lock(&c->lock);
    struct cache_entry *en = find(c, hash, key, len);
    /* In the table an entry is PENDING or READY: only READY has an answer. */
    int hit = en != NULL && en->state == READY;
    if (hit) {
        unlink_lru(c, en);
        push_newest(c, en);
        c->hits++;
        buf_append(answer, en->answer, en->answer_len);
    }
    pthread_mutex_unlock(&c->lock);
    return hit;
}

void cache_fill(gj_cache *c, cache_ticket *en, const void *answer, size_t len)
{
    char *copy = malloc(len ? len : 1);
    pthread_mutex_lock(&c->lock);
    if (copy == NULL || ENTRY_OVERHEAD + en->key_len + len > c->budget) {
        free(copy);
        kill_claim(c, en);
        pthread_mutex_unlock(&c->lock);
        return;
    }
    memcpy(copy, answer, len);
    en->answer = copy;
    en->answer_len = len;
    c->bytes += len;
    en->state = READY;
    push_newest(c, en);
    evict_to(c, c->budget);
    pthread_cond_broadcast(&c->ready);
    pthread_mutex_unlock(&c->lock);
}

void cache_abandon(gj_cache *c, cache_ticket *en)
{
    pthread_mutex_lock(&c->lock);
    kill_claim(c, en);
    pthread_mutex_unlock(&c->lock);
}

void cache_get_stats(gj_cache *c, cache_stats *out)
{
    pthread_mutex_lock(&c->lock);
    out->hits = c->hits;
    out->misses = c->misses;
    out->evictions = c->evictions;
    out->waits = c->waits;
    out->entries = c->entries;
    out->bytes = c->bytes;
    out->budget = c->budget;
    pthread_mutex_unlock(&c->lock);
}
