/* test_admission.c - the admission glue without HTTP: a metered client's
 * headers (RateLimit-Policy, RateLimit, Retry-After on 429), the cost
 * taken once per answer, quotas off by default, API keys winning over the
 * address, an unknown key refused and counted, the memory charge refused
 * past the budget and released exactly once, a tree's hold taken over by
 * its body's charge. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "admission.h"
#include "config.h"

/* The headers one answer got, "Name: value\n" each. */
typedef struct seen {
    char text[512];
} seen;

/* admit_header collecting into a seen. */
static void collect(void *ctx, const char *name, const char *value)
{
    seen *s = ctx;
    size_t used = strlen(s->text);
    snprintf(s->text + used, sizeof s->text - used, "%s: %s\n", name, value);
}

/* A configuration with the defaults and quotas of rate/burst ms. */
static gj_config config(long rate, long burst)
{
    gj_config c;
    config_defaults(&c);
    c.quota_rate = rate;
    c.quota_burst = burst;
    c.memory_budget = 1L << 20;
    return c;
}

START_TEST(test_off_by_default)
{
    gj_config c;
    config_defaults(&c);
    gj_error e;
    gj_admission *a = admission_create(&c, &e);
    ck_assert_ptr_nonnull(a);
    admit_ticket t;
    memset(&t, 0, sizeof t);
    ck_assert_int_eq(admission_begin(a, &t, "127.0.0.2", NULL, "some-key-0123456789", &e), 0);
    seen s = {""};
    admission_answer(a, &t, 200, 1e9, 0, collect, &s);
    ck_assert_str_eq(s.text, ""); /* unmetered: no headers */
    admission_end(a, &t, 0);
    admission_free(a);
}
END_TEST

START_TEST(test_metered_headers_and_cost_once)
{
    gj_config c = config(10, 100);
    gj_error e;
    gj_admission *a = admission_create(&c, &e);
    admit_ticket t;
    memset(&t, 0, sizeof t);
    ck_assert_int_eq(admission_begin(a, &t, "127.0.0.2", NULL, NULL, &e), 0);
    seen s = {""};
    admission_answer(a, &t, 200, 30, 0, collect, &s);
    ck_assert_str_eq(s.text,
                     "RateLimit-Policy: \"cost\";q=100;w=10\nRateLimit: \"cost\";r=70;t=3\n");
    seen again = {""};
    admission_answer(a, &t, 200, 30, 0, collect, &again); /* a second send costs nothing more */
    ck_assert_ptr_nonnull(strstr(again.text, "r=70;"));
    admission_end(a, &t, 0);

    memset(&t, 0, sizeof t);
    ck_assert_int_eq(admission_begin(a, &t, "127.0.0.2", NULL, NULL, &e), 0);
    seen big = {""};
    admission_answer(a, &t, 200, 120, 0, collect, &big); /* 70 - 120: 50 below zero */
    ck_assert_ptr_nonnull(strstr(big.text, "RateLimit: \"cost\";r=0;t="));
    admission_end(a, &t, 0);

    memset(&t, 0, sizeof t);
    ck_assert_int_eq(admission_begin(a, &t, "127.0.0.2", NULL, NULL, &e), -1);
    ck_assert_int_eq(e.kind, GJ_RATE_LIMITED);
    ck_assert_ptr_nonnull(strstr(e.message, "retry in 5 s"));
    seen refused = {""};
    admission_answer(a, &t, 429, 0, 0, collect, &refused);
    ck_assert_ptr_nonnull(strstr(refused.text, "Retry-After: 5\n"));
    admission_end(a, &t, 0);

    memset(&t, 0, sizeof t); /* another address is its own client */
    ck_assert_int_eq(admission_begin(a, &t, "127.0.0.3", NULL, NULL, &e), 0);
    admission_end(a, &t, 0);
    admission_free(a);
}
END_TEST

/* A client that hangs up before its answer still pays for the work done
 * (the request ends with no answer sent: admission_end charges it), and
 * once only; an answer a shared cache may keep carries no quota headers. */
START_TEST(test_hangup_charged_and_shared_answer_bare)
{
    gj_config c = config(10, 100);
    gj_error e;
    gj_admission *a = admission_create(&c, &e);
    admit_ticket t;
    memset(&t, 0, sizeof t);
    ck_assert_int_eq(admission_begin(a, &t, "127.0.0.2", NULL, NULL, &e), 0);
    admission_end(a, &t, 80); /* no answer was sent */
    admission_end(a, &t, 80); /* a second end takes nothing more */
    memset(&t, 0, sizeof t);
    ck_assert_int_eq(admission_begin(a, &t, "127.0.0.2", NULL, NULL, &e), 0);
    seen s = {""};
    admission_answer(a, &t, 200, 0, 0, collect, &s);
    ck_assert_msg(strstr(s.text, "RateLimit: \"cost\";r=20;") != NULL, "got %s", s.text);
    admission_end(a, &t, 500); /* the answer took the cost: not again */
    memset(&t, 0, sizeof t);
    ck_assert_int_eq(admission_begin(a, &t, "127.0.0.2", NULL, NULL, &e), 0);
    seen shared = {""};
    admission_answer(a, &t, 200, 5, 1, collect, &shared);
    ck_assert_str_eq(shared.text, "");
    admission_end(a, &t, 0);
    memset(&t, 0, sizeof t);
    ck_assert_int_eq(admission_begin(a, &t, "127.0.0.2", NULL, NULL, &e), 0);
    seen after = {""};
    admission_answer(a, &t, 200, 0, 0, collect, &after);
    ck_assert_msg(strstr(after.text, "RateLimit: \"cost\";r=15;") != NULL, "got %s", after.text);
    admission_end(a, &t, 0);
    admission_free(a);
}
END_TEST

/* The value of a's sample `name` (a family without labels), as /metrics
 * shows it; fails the test when there is none. */
static unsigned long sample(gj_admission *a, const char *name)
{
    gj_buf out;
    buf_init(&out);
    admission_render(a, &out);
    buf_putc(&out, '\0');
    char head[96];
    snprintf(head, sizeof head, "\n%s ", name);
    const char *at = strstr(out.data, head);
    ck_assert_msg(at != NULL, "no %s in %s", name, out.data);
    unsigned long n = strtoul(at + strlen(head), NULL, 10);
    buf_free(&out);
    return n;
}

/* Every charge of a released, `refused` refusals counted; frees a. */
static void expect_released(gj_admission *a, int refused)
{
    ck_assert_uint_eq(sample(a, "gamejudge_memory_charged_bytes"), 0);
    ck_assert_uint_eq(sample(a, "gamejudge_memory_refused_total"), (unsigned long)refused);
    admission_free(a);
}

/* A body whose peak the whole budget could never hold is a 413 (no retry
 * helps), not a 503 that tells the client to come back. */
START_TEST(test_never_fits_is_413)
{
    gj_config c = config(0, 0);
    gj_error e;
    gj_admission *a = admission_create(&c, &e);
    admit_ticket t;
    memset(&t, 0, sizeof t);
    ck_assert_int_eq(admission_memory(a, &t, BUDGET_JSON_TREE, 4u << 20, &e), -1);
    ck_assert_int_eq(e.kind, GJ_TOO_LARGE);
    ck_assert_ptr_nonnull(strstr(e.message, "--memory-budget"));
    admission_end(a, &t, 0);
    admission_free(a);
}
END_TEST

/* An admission with a 1 MiB budget and no quota, and two fresh tickets. */
static gj_admission *one_mib(admit_ticket *t1, admit_ticket *t2)
{
    gj_config c = config(0, 100);
    gj_error e;
    gj_admission *a = admission_create(&c, &e);
    ck_assert_ptr_nonnull(a);
    memset(t1, 0, sizeof *t1);
    memset(t2, 0, sizeof *t2);
    return a;
}

/* A solve's work is charged beside its body: 503 while others hold the
 * room, 413 when the body and the work together pass the whole budget;
 * the end releases both, once. */
START_TEST(test_work_charged_beside_the_body)
{
    gj_error e;
    admit_ticket t1, t2;
    gj_admission *a = one_mib(&t1, &t2);
    ck_assert_int_eq(admission_memory(a, &t1, BUDGET_TEXT, 10000, &e), 0);
    size_t body = t1.charged;
    ck_assert_int_eq(admission_work(a, &t1, 0, &e), 0); /* a game without a model */
    ck_assert_int_eq(admission_work(a, &t1, 500000, &e), 0);
    ck_assert_uint_eq(t1.charged, body); /* the body's charge, apart from the work's */
    ck_assert_uint_eq(t1.working, 500000);
    ck_assert_int_eq(admission_memory(a, &t2, BUDGET_TEXT, 10000, &e), 0);
    ck_assert_int_eq(admission_work(a, &t2, 500000, &e), -1); /* t1 holds the room */
    ck_assert_int_eq(e.kind, GJ_OVERLOADED);
    ck_assert_ptr_nonnull(strstr(e.message, "retry shortly"));
    ck_assert_uint_eq(t2.working, 0);
    /* Body and work together past the whole budget: no retry helps. */
    ck_assert_int_eq(admission_work(a, &t2, (1u << 20) - body + 1, &e), -1);
    ck_assert_int_eq(e.kind, GJ_TOO_LARGE);
    ck_assert_ptr_nonnull(strstr(e.message, "more than the whole memory budget"));
    ck_assert_int_eq(admission_work(a, &t2, SIZE_MAX, &e), -1);
    ck_assert_int_eq(e.kind, GJ_TOO_LARGE);
    admission_end(a, &t1, 0);
    admission_end(a, &t1, 0); /* a second end releases nothing */
    /* Exactly what is left after t2's body fits. */
    ck_assert_int_eq(admission_work(a, &t2, (1u << 20) - body, &e), 0);
    admission_end(a, &t2, 0);
    expect_released(a, 3);
}
END_TEST

/* The budget's charged bytes, as /metrics shows them. */
static unsigned long charged_now(gj_admission *a)
{
    return sample(a, "gamejudge_memory_charged_bytes");
}

/* A tree's hold is charged past its body's charge, kept apart from the
 * work's; the body's growing charge takes the hold's bytes over, never
 * counting them twice; a hold past what is free is a 503, past the whole
 * budget a 413; the end releases all three, once. */
START_TEST(test_hold_taken_over_by_the_body)
{
    gj_config c = config(0, 100);
    c.memory_budget = 16L << 20;
    gj_error e;
    gj_admission *a = admission_create(&c, &e);
    ck_assert_ptr_nonnull(a);
    admit_ticket t1, t2;
    memset(&t1, 0, sizeof t1);
    memset(&t2, 0, sizeof t2);
    size_t p1 = budget_peak(BUDGET_JSON_TREE, 100000), p2 = budget_peak(BUDGET_JSON_TREE, 200000);
    ck_assert_int_eq(admission_memory(a, &t1, BUDGET_JSON_TREE, 100000, &e), 0);
    ck_assert_uint_eq(t1.charged, p1);
    ck_assert_int_eq(admission_hold(a, &t1, p1 - 1000, &e), 0); /* covered: nothing more */
    ck_assert_uint_eq(t1.held, 0);
    ck_assert_int_eq(admission_hold(a, &t1, 2000000, &e), 0);
    ck_assert_uint_eq(t1.held, 2000000 - p1);
    ck_assert_int_eq(admission_hold(a, &t1, 2100000, &e), 0); /* at least a step at once */
    ck_assert_uint_eq(t1.held, 2000000 - p1 + ADMISSION_HOLD_STEP);
    ck_assert_uint_eq(charged_now(a), 2000000 + ADMISSION_HOLD_STEP);
    /* The body grew to 200 KB: its larger charge is taken from the hold. */
    ck_assert_int_eq(admission_memory(a, &t1, BUDGET_JSON_TREE, 200000, &e), 0);
    ck_assert_uint_eq(t1.charged, p2);
    ck_assert_uint_eq(t1.held, 2000000 - p2 + ADMISSION_HOLD_STEP);
    ck_assert_uint_eq(charged_now(a), 2000000 + ADMISSION_HOLD_STEP);
    ck_assert_int_eq(admission_work(a, &t1, 500000, &e), 0);
    ck_assert_uint_eq(t1.working, 500000);
    ck_assert_uint_eq(t1.held, 2000000 - p2 + ADMISSION_HOLD_STEP); /* the work is its own */
    size_t t1_total = 2500000 + ADMISSION_HOLD_STEP;
    ck_assert_uint_eq(charged_now(a), t1_total);
    /* A second tree that fits the budget but not beside the first. */
    ck_assert_int_eq(admission_memory(a, &t2, BUDGET_JSON_TREE, 100000, &e), 0);
    ck_assert_int_eq(admission_hold(a, &t2, (16u << 20) - 100, &e), -1);
    ck_assert_int_eq(e.kind, GJ_OVERLOADED);
    ck_assert_ptr_nonnull(strstr(e.message, "reading this body holds about"));
    ck_assert_ptr_nonnull(strstr(e.message, "retry shortly"));
    ck_assert_uint_eq(t2.held, 0);
    ck_assert_int_eq(admission_hold(a, &t2, (16u << 20) + 1, &e), -1);
    ck_assert_int_eq(e.kind, GJ_TOO_LARGE);
    ck_assert_ptr_nonnull(strstr(e.message, "more than the whole memory budget"));
    ck_assert_uint_eq(charged_now(a), t1_total + p1);
    admission_end(a, &t1, 0);
    admission_end(a, &t1, 0); /* a second end releases nothing */
    ck_assert_uint_eq(charged_now(a), p1);
    ck_assert_int_eq(admission_hold(a, &t2, (16u << 20) - 100, &e), 0); /* room now */
    admission_end(a, &t2, 0);
    expect_released(a, 2);
}
END_TEST

START_TEST(test_keys_win_and_unknown_key_refused)
{
    char path[] = "/tmp/gj-unit-keys-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    const char text[] = "unit-key-0123456789abcdef 1 2\n";
    ck_assert_int_eq(write(fd, text, sizeof text - 1), (ssize_t)(sizeof text - 1));
    close(fd);
    gj_config c = config(0, 100); /* addresses unmetered, keys metered */
    snprintf(c.api_keys, sizeof c.api_keys, "%s", path);
    gj_error e;
    gj_admission *a = admission_create(&c, &e);
    ck_assert_ptr_nonnull(a);
    admit_ticket t;
    memset(&t, 0, sizeof t);
    ck_assert_int_eq(admission_begin(a, &t, "127.0.0.2", NULL, "unit-key-0123456789abcdef", &e), 0);
    ck_assert_str_eq(t.client, "key#1");
    seen s = {""};
    admission_answer(a, &t, 200, 0, 0, collect, &s);
    ck_assert_ptr_nonnull(strstr(s.text, "RateLimit-Policy: \"cost\";q=2;w=2\n"));
    memset(&t, 0, sizeof t);
    ck_assert_int_eq(admission_begin(a, &t, "127.0.0.2", NULL, "unit-key-0123456789abcdeF", &e),
                     -1);
    ck_assert_int_eq(e.kind, GJ_UNAUTHORIZED);
    ck_assert_ptr_null(strstr(e.message, "unit-key"));
    seen u = {""};
    admission_answer(a, &t, 401, 0, 0, collect, &u);
    ck_assert_str_eq(u.text, "WWW-Authenticate: ApiKey header=\"X-Api-Key\"\n");
    memset(&t, 0, sizeof t);
    ck_assert_int_eq(admission_begin(a, &t, "127.0.0.2", NULL, NULL, &e), 0);
    ck_assert_int_eq(t.metered, 0);
    gj_buf out;
    buf_init(&out);
    admission_render(a, &out);
    buf_putc(&out, '\0');
    ck_assert_ptr_nonnull(
        strstr(out.data, "gamejudge_throttled_total{reason=\"unknown_key\"} 1\n"));
    buf_free(&out);
    admission_free(a);
    unlink(path);
}
END_TEST

START_TEST(test_memory_charged_and_released_once)
{
    gj_error e;
    admit_ticket t1, t2;
    gj_admission *a = one_mib(&t1, &t2);
    ck_assert_int_eq(admission_memory(a, &t1, BUDGET_TEXT, 200000, &e), 0);
    ck_assert_int_eq(admission_memory(a, &t1, BUDGET_TEXT, 300000, &e), 0); /* grows */
    ck_assert_int_eq(admission_memory(a, &t2, BUDGET_JSON_TREE, 50000, &e),
                     -1); /* 400 KB more: over */
    ck_assert_int_eq(e.kind, GJ_OVERLOADED);
    ck_assert_ptr_nonnull(strstr(e.message, "retry shortly"));
    ck_assert_int_eq(admission_memory(a, &t2, BUDGET_JSON_TREE, 200000, &e), -1);
    ck_assert_ptr_nonnull(strstr(e.message, "more than the whole memory budget"));
    admission_end(a, &t1, 0);
    admission_end(a, &t1, 0); /* a second end releases nothing */
    admission_end(a, &t2, 0);
    ck_assert_int_eq(admission_memory(a, &t2, BUDGET_JSON_TREE, 50000, &e), 0);
    admission_end(a, &t2, 0);
    expect_released(a, 2);
}
END_TEST

START_TEST(test_missing_key_file_fails_create)
{
    gj_config c = config(5, 100);
    snprintf(c.api_keys, sizeof c.api_keys, "/nonexistent/keys");
    gj_error e;
    ck_assert_ptr_null(admission_create(&c, &e));
    ck_assert_ptr_nonnull(strstr(e.message, "/nonexistent/keys"));
}
END_TEST

/* One Check test case per test, so a timeout or a crash names its test. */
static Suite *admission_suite(void)
{
    const harness_case cases[] = {
        {"admission", test_off_by_default},
        {"admission", test_metered_headers_and_cost_once},
        {"admission", test_hangup_charged_and_shared_answer_bare},
        {"admission", test_never_fits_is_413},
        {"admission", test_work_charged_beside_the_body},
        {"admission", test_hold_taken_over_by_the_body},
        {"admission", test_keys_win_and_unknown_key_refused},
        {"admission", test_memory_charged_and_released_once},
        {"admission", test_missing_key_file_fails_create},
    };
    return harness_suite("admission", cases, sizeof cases / sizeof cases[0], 0);
}

int main(void)
{
    return harness_main(admission_suite());
}
