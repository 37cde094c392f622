/* test_cache.c - the result cache: whole-key compare under colliding
 * hashes, LRU order within the byte budget, single flight across threads,
 * a given-up claim passed on, the look-up that never waits (cache_peek)
 * and the statistics. */
#include <check.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "harness.h"
#include "cache.h"

/* Every key in one bucket with one hash: only a full compare tells apart. */
static uint64_t same_hash(const void *key, size_t len)
{
    (void)key;
    (void)len;
    return 42;
}

static cache_result get(gj_cache *c, const char *key, gj_buf *out, cache_ticket **t)
{
    buf_init(out);
    return cache_get(c, key, strlen(key), out, t);
}

static void put(gj_cache *c, const char *key, const char *answer)
{
    gj_buf out;
    cache_ticket *t;
    ck_assert_int_eq(get(c, key, &out, &t), CACHE_CLAIMED);
    cache_fill(c, t, answer, strlen(answer));
    buf_free(&out);
}

static void expect_hit(gj_cache *c, const char *key, const char *answer)
{
    gj_buf out;
    cache_ticket *t;
    ck_assert_int_eq(get(c, key, &out, &t), CACHE_HIT);
    ck_assert_uint_eq(out.len, strlen(answer));
    ck_assert(memcmp(out.data, answer, out.len) == 0);
    buf_free(&out);
}

static void expect_miss(gj_cache *c, const char *key)
{
    gj_buf out;
    cache_ticket *t;
    ck_assert_int_eq(get(c, key, &out, &t), CACHE_CLAIMED);
    cache_abandon(c, t);
    buf_free(&out);
}

START_TEST(test_colliding_keys_never_share)
{
    gj_cache *c = cache_create(1 << 20, same_hash);
    char key[32], answer[32];
    for (int i = 0; i < 200; i++) {
        snprintf(key, sizeof key, "k%d", i);
        snprintf(answer, sizeof answer, "a%d", i);
        put(c, key, answer);
    }
    for (int i = 0; i < 200; i++) {
        snprintf(key, sizeof key, "k%d", i);
        snprintf(answer, sizeof answer, "a%d", i);
        expect_hit(c, key, answer);
    }
    /* A prefix, an extension and an equal-length neighbour are other keys. */
    expect_miss(c, "k1x");
    expect_miss(c, "k");
    expect_miss(c, "k200");
    /* Keys with NUL bytes compare whole too. */
    gj_buf out;
    cache_ticket *t;
    buf_init(&out);
    ck_assert_int_eq(cache_get(c, "a\0b", 3, &out, &t), CACHE_CLAIMED);
    cache_fill(c, t, "one", 3);
    ck_assert_int_eq(cache_get(c, "a\0c", 3, &out, &t), CACHE_CLAIMED);
    cache_fill(c, t, "two", 3);
    ck_assert_int_eq(cache_get(c, "a\0b", 3, &out, &t), CACHE_HIT);
    ck_assert(memcmp(out.data, "one", 3) == 0);
    buf_free(&out);
    cache_free(c);
}
END_TEST

/* A cache with room for about three entries of ~200 bytes each, holding
 * a, b and c (oldest first), each answered with big (100 x's). */
static gj_cache *three_of(char big[101])
{
    memset(big, 'x', 100);
    big[100] = '\0';
    gj_cache *c = cache_create(700, NULL);
    put(c, "a", big);
    put(c, "b", big);
    put(c, "c", big);
    return c;
}

START_TEST(test_lru_within_budget)
{
    char big[101];
    gj_cache *c = three_of(big);
    expect_hit(c, "a", big); /* a is now the most recent; b the least */
    put(c, "d", big);        /* evicts b */
    cache_stats s;
    cache_get_stats(c, &s);
    ck_assert_uint_le(s.bytes, 700);
    ck_assert_uint_eq(s.evictions, 1);
    expect_hit(c, "a", big);
    expect_hit(c, "c", big);
    expect_hit(c, "d", big);
    expect_miss(c, "b");
    /* An answer bigger than the whole budget is not kept. */
    char huge[1000];
    memset(huge, 'y', sizeof huge - 1);
    huge[sizeof huge - 1] = '\0';
    put(c, "e", huge);
    expect_miss(c, "e");
    expect_hit(c, "a", big);
    /* A key that could never stay is not even claimed. */
    char long_key[600];
    memset(long_key, 'k', sizeof long_key - 1);
    long_key[sizeof long_key - 1] = '\0';
    gj_buf out;
    cache_ticket *t;
    ck_assert_int_eq(get(c, long_key, &out, &t), CACHE_BYPASS);
    ck_assert_ptr_null(t);
    cache_get_stats(c, &s);
    ck_assert_uint_le(s.bytes, 700);
    ck_assert_uint_eq(s.entries, 3);
    cache_free(c);
}
END_TEST

/* ---- single flight ---------------------------------------------------- */

typedef struct racer {
    gj_cache *cache;
    cache_result result;
    char answer[16];
} racer;

static void *race(void *arg)
{
    racer *r = arg;
    gj_buf out;
    cache_ticket *t;
    buf_init(&out);
    r->result = cache_get(r->cache, "pos", 3, &out, &t);
    if (r->result == CACHE_CLAIMED) {
        struct timespec pause = {0, 50 * 1000 * 1000}; /* others queue up meanwhile */
        nanosleep(&pause, NULL);
        cache_fill(r->cache, t, "answer", 6);
        snprintf(r->answer, sizeof r->answer, "answer");
    } else {
        snprintf(r->answer, sizeof r->answer, "%.*s", (int)out.len, out.data);
    }
    buf_free(&out);
    return NULL;
}

START_TEST(test_single_flight)
{
    enum { N = 16 };
    gj_cache *c = cache_create(1 << 20, NULL);
    pthread_t threads[N];
    racer racers[N];
    for (int i = 0; i < N; i++) {
        racers[i] = (racer){c, CACHE_BYPASS, ""};
        pthread_create(&threads[i], NULL, race, &racers[i]);
    }
    int claimed = 0;
    for (int i = 0; i < N; i++) {
        pthread_join(threads[i], NULL);
        claimed += racers[i].result == CACHE_CLAIMED;
        ck_assert_int_ne(racers[i].result, CACHE_BYPASS);
        ck_assert_str_eq(racers[i].answer, "answer");
    }
    ck_assert_int_eq(claimed, 1);
    cache_stats s;
    cache_get_stats(c, &s);
    ck_assert_uint_eq(s.misses, 1);
    ck_assert_uint_eq(s.hits, N - 1);
    cache_free(c);
}
END_TEST

static void *claim_then_abandon(void *arg)
{
    racer *r = arg;
    gj_buf out;
    cache_ticket *t;
    buf_init(&out);
    r->result = cache_get(r->cache, "pos", 3, &out, &t);
    if (r->result == CACHE_CLAIMED) {
        struct timespec pause = {0, 50 * 1000 * 1000};
        nanosleep(&pause, NULL);
        cache_abandon(r->cache, t);
    }
    buf_free(&out);
    return NULL;
}

START_TEST(test_abandoned_claim_passes_on)
{
    gj_cache *c = cache_create(1 << 20, NULL);
    racer first = {c, CACHE_BYPASS, ""}, second = {c, CACHE_BYPASS, ""};
    pthread_t a, b;
    pthread_create(&a, NULL, claim_then_abandon, &first);
    /* The second starts once the first has claimed (its miss counted), not
     * after a fixed pause a loaded machine may not give the first. */
    cache_stats st;
    do {
        struct timespec pause = {0, 1000 * 1000};
        nanosleep(&pause, NULL);
        cache_get_stats(c, &st);
    } while (st.misses == 0);
    pthread_create(&b, NULL, race, &second); /* waits, then claims and fills */
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    ck_assert_int_eq(first.result, CACHE_CLAIMED);
    ck_assert_int_eq(second.result, CACHE_CLAIMED);
    expect_hit(c, "pos", "answer");
    cache_free(c);
}
END_TEST

/* ---- cache_peek --------------------------------------------------------- */

/* 1 when cache_peek holds `key`, its answer then compared with `answer`. */
static int peek(gj_cache *c, const char *key, const char *answer)
{
    gj_buf out;
    buf_init(&out);
    int hit = cache_peek(c, key, strlen(key), &out);
    if (hit) {
        ck_assert(!out.failed);
        ck_assert_uint_eq(out.len, strlen(answer));
        ck_assert(memcmp(out.data, answer, out.len) == 0);
    } else {
        ck_assert_uint_eq(out.len, 0);
    }
    buf_free(&out);
    return hit;
}

/* A held answer is copied and counted a hit; a missing key, a prefix or an
 * extension of one (under colliding hashes) is no hit and counted nowhere,
 * and a peek claims nothing: the next cache_get of that key claims it. */
START_TEST(test_peek_hit_and_miss)
{
    gj_cache *c = cache_create(1 << 20, same_hash);
    ck_assert_int_eq(peek(c, "k1", NULL), 0);
    put(c, "k1", "one");
    put(c, "k2", "two");
    ck_assert_int_eq(peek(c, "k1", "one"), 1);
    ck_assert_int_eq(peek(c, "k2", "two"), 1);
    ck_assert_int_eq(peek(c, "k", NULL), 0);
    ck_assert_int_eq(peek(c, "k12", NULL), 0);
    cache_stats s;
    cache_get_stats(c, &s);
    ck_assert_uint_eq(s.hits, 2);
    ck_assert_uint_eq(s.misses, 2); /* the two puts' claims, no peek */
    ck_assert_uint_eq(s.entries, 2);
    expect_miss(c, "k"); /* not claimed by the peek: this claims it */
    cache_get_stats(c, &s);
    ck_assert_uint_eq(s.waits, 0);
    cache_free(c);
}
END_TEST

/* A key being computed is no hit, and the peek returns at once: the claim
 * is this very thread's, so a peek that waited would never return (the
 * test's timeout).  Once filled, it is a hit; once given up, a miss. */
START_TEST(test_peek_never_waits)
{
    gj_cache *c = cache_create(1 << 20, NULL);
    gj_buf out;
    cache_ticket *t;
    ck_assert_int_eq(get(c, "pos", &out, &t), CACHE_CLAIMED);
    buf_free(&out);
    ck_assert_int_eq(peek(c, "pos", NULL), 0);
    cache_stats s;
    cache_get_stats(c, &s);
    ck_assert_uint_eq(s.waits, 0);
    ck_assert_uint_eq(s.hits, 0);
    cache_fill(c, t, "answer", 6);
    ck_assert_int_eq(peek(c, "pos", "answer"), 1);

    ck_assert_int_eq(get(c, "other", &out, &t), CACHE_CLAIMED);
    buf_free(&out);
    ck_assert_int_eq(peek(c, "other", NULL), 0);
    cache_abandon(c, t);
    ck_assert_int_eq(peek(c, "other", NULL), 0);
    cache_get_stats(c, &s);
    ck_assert_uint_eq(s.entries, 1);
    ck_assert_uint_eq(s.hits, 1);
    cache_free(c);
}
END_TEST

/* A peek's hit is a use: it makes the entry the most recent, so the next
 * eviction takes another; the budget and the counts hold. */
START_TEST(test_peek_keeps_lru)
{
    char big[101];
    gj_cache *c = three_of(big);
    ck_assert_int_eq(peek(c, "a", big), 1); /* a the most recent; b the least */
    put(c, "d", big);                       /* evicts b */
    ck_assert_int_eq(peek(c, "b", NULL), 0);
    ck_assert_int_eq(peek(c, "c", big), 1); /* now a is the least recent */
    ck_assert_int_eq(peek(c, "d", big), 1);
    put(c, "e", big); /* evicts a */
    ck_assert_int_eq(peek(c, "a", NULL), 0);
    expect_hit(c, "c", big);
    expect_hit(c, "d", big);
    expect_hit(c, "e", big);
    cache_stats s;
    cache_get_stats(c, &s);
    ck_assert_uint_le(s.bytes, 700);
    ck_assert_uint_eq(s.entries, 3);
    ck_assert_uint_eq(s.evictions, 2);
    /* A key too long to be kept is never looked for. */
    char long_key[600];
    memset(long_key, 'k', sizeof long_key - 1);
    long_key[sizeof long_key - 1] = '\0';
    ck_assert_int_eq(peek(c, long_key, NULL), 0);
    cache_free(c);
}
END_TEST

START_TEST(test_hash_spreads)
{
    /* Not a quality test: equal keys hash equal, a changed byte changes it. */
    char a[64] = "the same sixty-four bytes, give or take a few, for the hash..";
    char b[64];
    memcpy(b, a, sizeof a);
    ck_assert(cache_hash(a, sizeof a) == cache_hash(b, sizeof b));
    for (size_t i = 0; i < sizeof a; i++) {
        b[i] ^= 1;
        ck_assert(cache_hash(a, sizeof a) != cache_hash(b, sizeof b));
        b[i] ^= 1;
    }
    ck_assert(cache_hash(a, 10) != cache_hash(a, 11));
}
END_TEST

/* One Check test case per test, so a timeout or a crash names its test. */
static Suite *cache_suite(void)
{
    const harness_case cases[] = {
        {"cache", test_colliding_keys_never_share},
        {"cache", test_lru_within_budget},
        {"cache", test_single_flight},
        {"cache", test_abandoned_claim_passes_on},
        {"cache", test_peek_hit_and_miss},
        {"cache", test_peek_never_waits},
        {"cache", test_peek_keeps_lru},
        {"cache", test_hash_spreads},
    };
    return harness_suite("cache", cases, sizeof cases / sizeof cases[0], 0);
}

int main(void)
{
    return harness_main(cache_suite());
}
