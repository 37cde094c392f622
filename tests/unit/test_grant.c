/* test_grant.c - a body's JSON trees charged as jansson builds them
 * (grant.h), parsed whole by a handler or fed in pieces as the front reads
 * them: what the grant's hold is told against what malloc holds, a refusal
 * as the parse's own error, and nothing counted where nothing was bound.
 * test_after checks the other half, the answer's growth. */
#include <check.h>
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "grant.h"
#include "harness.h"
#include "json_in.h"
#include "tree_read.h"

/* A hold that records what it was told and refuses past `cap` bytes. */
typedef struct holder {
    size_t cap, last;
    int calls;
} holder;

/* gj_grant's hold over a holder. */
static int hold(void *ctx, size_t held, gj_error *e)
{
    holder *h = ctx;
    h->calls++;
    h->last = held;
    if (held > h->cap)
        return gj_fail(e, GJ_TOO_LARGE, "held %zu, over %zu", held, h->cap);
    return 0;
}

/* gj_grant's take, never asked by a parse. */
static int take(void *ctx, size_t bytes, gj_error *e)
{
    (void)ctx;
    (void)bytes;
    return gj_fail(e, GJ_INTERNAL, "a parse asked take");
}

/* {"MEMBER": [...]} of n one-digit numbers (about 24x its text as a tree),
 * with `extra` as the array's last element when not NULL. */
static char *numbers(const char *member, long n, const char *extra, size_t *len)
{
    gj_buf b;
    buf_init(&b);
    buf_puts(&b, "{\"");
    buf_puts(&b, member);
    buf_puts(&b, "\": [");
    for (long i = 0; i < n; i++)
        buf_puts(&b, i ? ",1" : "1");
    if (extra != NULL) {
        buf_puts(&b, n ? "," : "");
        buf_puts(&b, extra);
    }
    buf_puts(&b, "]}");
    ck_assert(!b.failed);
    *len = b.len;
    return b.data;
}

/* A body of one member "v" holding n values, value i written by `put`. */
static char *big_body(long n, void (*put)(gj_buf *b, long i), size_t *len)
{
    gj_buf b;
    buf_init(&b);
    buf_puts(&b, "{\"v\": [");
    for (long i = 0; i < n; i++) {
        if (i)
            buf_putc(&b, ',');
        put(&b, i);
    }
    buf_puts(&b, "]}");
    ck_assert(!b.failed);
    *len = b.len;
    return b.data;
}

/* Small numbers, the cheapest text for the most nodes. */
static void put_small(gj_buf *b, long i)
{
    char v[8];
    snprintf(v, sizeof v, "%ld", i % 10);
    buf_puts(b, v);
}

/* Pairs of small numbers, a nim position's shape. */
static void put_pair(gj_buf *b, long i)
{
    char v[16];
    snprintf(v, sizeof v, "[%ld,%ld]", i % 7, i % 5);
    buf_puts(b, v);
}

/* Strings of 0 to 40 bytes. */
static void put_string(gj_buf *b, long i)
{
    buf_putc(b, '"');
    for (long k = 0; k < i % 41; k++)
        buf_putc(b, (char)('a' + k % 26));
    buf_putc(b, '"');
}

/* Small objects of three members, keys of several lengths. */
static void put_object(gj_buf *b, long i)
{
    char v[96];
    snprintf(v, sizeof v, "{\"k\":%ld,\"key%ld\":%ld.5,\"a_longer_key_%ld\":[true,null]}", i,
             i % 100, i, i % 1000);
    buf_puts(b, v);
}

/* The heap malloc holds now: its arena's blocks and its mapped ones. */
static size_t heap_now(void)
{
    struct mallinfo2 m = mallinfo2();
    return m.uordblks + m.hblkhd;
}

/* body parsed under a bound grant, whole by jin_load_object as a handler
 * parses it (way 0) or fed in pieces to tree_read as the front reads it
 * (way 1): its tree, with *real what malloc's own count grew by (*e says
 * why not, for the failure's message). */
static json_t *parse_counted(const char *body, size_t len, int way, size_t *real, gj_error *e)
{
    size_t before = heap_now();
    json_t *root = NULL;
    if (way == 0) {
        root = jin_load_object(body, len, NULL, e);
        *real = heap_now() - before;
        ck_assert_msg(root != NULL, "%s", e->message);
        return root;
    }
    void *r = tree_read.open(NULL, len, e);
    ck_assert_ptr_nonnull(r);
    for (size_t at = 0; at < len; at += 65536) {
        gj_grant_parse_begin();
        ck_assert_int_eq(tree_read.feed(r, body + at, len - at < 65536 ? len - at : 65536, e), 0);
        ck_assert_int_eq(gj_grant_parse_end(e), 0);
    }
    *real = heap_now() - before;
    root = tree_read.finish(r, e);
    ck_assert_msg(root != NULL, "%s", e->message);
    return root;
}

/* Trees of every shape parsed under a bound grant, both ways: hold is told
 * the growing total at each step, and the total is what malloc holds for
 * the tree, within the readers' own buffers (16-40x the text for numbers).
 * A sanitizer's allocator is not malloc's (mallinfo2 counts nothing under
 * TSan): there the count is not compared with it. */
START_TEST(test_counted)
{
    static const struct {
        const char *name;
        long n;
        void (*put)(gj_buf *b, long i);
    } shapes[] = {
        {"small numbers", 400000, put_small},
        {"pairs", 150000, put_pair},
        {"strings", 100000, put_string},
        {"objects", 40000, put_object},
    };
    int compare = getenv("ASAN_OPTIONS") == NULL && getenv("TSAN_OPTIONS") == NULL;
    for (size_t k = 0; k < 2 * sizeof shapes / sizeof shapes[0]; k++) {
        size_t len, real;
        char *body = big_body(shapes[k / 2].n, shapes[k / 2].put, &len);
        holder h = {.cap = SIZE_MAX};
        gj_grant grant;
        gj_grant_init(&grant, take, hold, &h);
        ck_assert_ptr_null(gj_grant_bind(&grant));
        gj_error e;
        json_t *root = parse_counted(body, len, (int)(k % 2), &real, &e);
        ck_assert_ptr_eq(gj_grant_bind(NULL), &grant);
        printf("%s, %s: %zu-byte body, %zu counted, %zu held by malloc (%.1fx the body), "
               "hold told %d times\n",
               shapes[k / 2].name, k % 2 ? "fed" : "whole", len, grant.held, real,
               (double)grant.held / (double)len, h.calls);
        ck_assert_uint_eq(json_array_size(json_object_get(root, "v")), (size_t)shapes[k / 2].n);
        ck_assert_uint_gt(grant.held, 2 * len);
        ck_assert_uint_le(h.last, grant.held + 2 * sizeof(size_t));
        ck_assert_uint_gt(h.last + GJ_GRANT_STEP, grant.held);
        /* At most once a step (an array's table may grow by several). */
        ck_assert_int_ge(h.calls, (int)(grant.held / (8 * GJ_GRANT_STEP)));
        ck_assert_int_le(h.calls, (int)(grant.held / GJ_GRANT_STEP) + 1);
        if (compare) {
            ck_assert_msg(grant.held + (64 << 10) >= real, "%zu counted, %zu held", grant.held,
                          real);
            ck_assert_msg(grant.held <= real + (64 << 10), "%zu counted, %zu held", grant.held,
                          real);
        }
        if (k == 0) {
            ck_assert_uint_gt(grant.held, 12 * len); /* small numbers: the worst (21x; ASan: 16x) */
            /* Trees made outside a parse (an answer's) are not the parse's. */
            size_t held = grant.held;
            gj_grant_bind(&grant);
            json_t *more = json_deep_copy(root);
            gj_grant_bind(NULL);
            ck_assert_uint_eq(grant.held, held);
            json_decref(more);
        }
        json_decref(root);
        free(body);
    }
}
END_TEST

/* A hold that refuses fails the parse with its own error, for an object
 * and for an envelope whose items are loaded one by one; the partial tree
 * is freed and counted off, and the next parse is told afresh. */
START_TEST(test_refused)
{
    size_t len;
    char *body = numbers("items", 400000, "123456789012345678901234567890", &len);
    holder h = {.cap = 4 * GJ_GRANT_STEP};
    gj_grant grant;
    gj_grant_init(&grant, take, hold, &h);
    gj_grant_bind(&grant);
    gj_error e;
    ck_assert_ptr_null(jin_load_object(body, len, NULL, &e));
    ck_assert_int_eq(e.kind, GJ_TOO_LARGE);
    ck_assert_msg(strstr(e.message, "held") == e.message, "%s", e.message);
    ck_assert_uint_lt(grant.held, GJ_GRANT_STEP);
    int calls = h.calls;
    /* The envelope: the whole body refused by jansson (the item beyond 64
     * bits), then its items one by one, all one count. */
    jin_refused *refused = NULL;
    size_t nrefused = 7; /* set to none on a failure */
    ck_assert_ptr_null(jin_load_envelope(body, len, NULL, "items", &refused, &nrefused, &e));
    ck_assert_int_eq(e.kind, GJ_TOO_LARGE);
    ck_assert_ptr_null(refused);
    ck_assert_uint_eq(nrefused, 0);
    ck_assert_int_gt(h.calls, calls);
    /* Room enough: the envelope with its one refused item, as unbound. */
    h.cap = SIZE_MAX;
    json_t *root = jin_load_envelope(body, len, NULL, "items", &refused, &nrefused, &e);
    ck_assert_msg(root != NULL, "%s", e.message);
    ck_assert_uint_eq(nrefused, 1);
    ck_assert_uint_eq(refused[0].index, 400000);
    ck_assert_uint_eq(json_array_size(json_object_get(root, "items")), 400001);
    ck_assert_uint_gt(grant.held, 12 * len);
    free(refused);
    json_decref(root);
    gj_grant_bind(NULL);
    free(body);
}
END_TEST

/* Unbound, or bound with no hold: the same parse, nothing told. */
START_TEST(test_unbound)
{
    size_t len;
    char *body = numbers("x", 200000, NULL, &len);
    holder h = {.cap = 0};
    gj_grant grant;
    gj_grant_init(&grant, take, NULL, &h);
    gj_error e;
    for (int bind = 0; bind <= 1; bind++) {
        gj_grant_bind(bind ? &grant : NULL);
        json_t *root = jin_load_object(body, len, NULL, &e);
        ck_assert_msg(root != NULL, "%s", e.message);
        ck_assert_uint_eq(json_array_size(json_object_get(root, "x")), 200000);
        json_decref(root);
    }
    gj_grant_bind(NULL);
    ck_assert_int_eq(h.calls, 0);
    ck_assert_uint_eq(grant.held, 0);
    free(body);
}
END_TEST

/* Counts nest: a refusal inside an inner count is reported by the inner
 * end and by the outer one, and a count ended leaves none open. */
START_TEST(test_nested)
{
    holder h = {.cap = 0};
    gj_grant grant;
    gj_grant_init(&grant, take, hold, &h);
    gj_grant_bind(&grant);
    gj_error e;
    gj_grant_parse_begin();
    gj_grant_parse_begin();
    ck_assert_ptr_null(json_array()); /* the first block is past a cap of 0 */
    ck_assert_int_eq(gj_grant_parse_end(&e), -1);
    ck_assert_ptr_null(json_array());
    ck_assert_int_eq(gj_grant_parse_end(&e), -1);
    ck_assert_int_eq(e.kind, GJ_TOO_LARGE);
    json_t *a = json_array(); /* no count open: allocated */
    ck_assert_ptr_nonnull(a);
    json_decref(a);
    ck_assert_int_eq(h.calls, 1); /* refused once; then refused without asking */
    gj_grant_bind(NULL);
}
END_TEST

int main(void)
{
    /* As `gamejudge serve` does, before anything allocates. */
    gj_grant_count_jansson();
    Suite *s = suite_create("grant");
    harness_add_loop(s, "counted", test_counted, 1, 120);
    harness_add_loop(s, "refused", test_refused, 1, 60);
    harness_add_loop(s, "unbound", test_unbound, 1, 60);
    harness_add_loop(s, "nested", test_nested, 1, 60);
    return harness_main(s);
}
