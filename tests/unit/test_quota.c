/* test_quota.c - the worker-time token buckets: a new client starts full,
 * a charge can take it below zero and it is refused until it refills,
 * Retry-After and reset rounded up, clients kept apart, the table's cap
 * evicting full buckets first (never a client in debt while a full one
 * exists), and the throttle counters. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "quota.h"

static const quota_policy policy = {10, 100}; /* 10 ms a second, 100 ms at most */

START_TEST(test_new_client_is_full)
{
    gj_quota *q = quota_create(10);
    quota_view v;
    ck_assert_int_eq(quota_admit(q, "a", &policy, 0, &v), 0);
    ck_assert(v.remaining_ms == 100);
    ck_assert_int_eq(v.retry_after, 0);
    ck_assert_int_eq(v.reset, 0);
    quota_free(q);
}
END_TEST

START_TEST(test_debt_refuses_until_refilled)
{
    gj_quota *q = quota_create(10);
    quota_view v;
    quota_charge(q, "a", &policy, 125, 0, &v); /* one solve past the whole bucket */
    ck_assert(v.remaining_ms == -25);
    ck_assert_int_eq(v.retry_after, 3); /* 25 ms at 10 ms/s: 2.5 s, rounded up */
    ck_assert_int_eq(v.reset, 13);      /* 125 ms to refill: 12.5 s, rounded up */
    ck_assert_int_eq(quota_admit(q, "a", &policy, 1, &v), -1);
    ck_assert(v.remaining_ms == -15);
    ck_assert_int_eq(v.retry_after, 2);
    ck_assert_int_eq(quota_admit(q, "b", &policy, 1, &v), 0);   /* another client is unaffected */
    ck_assert_int_eq(quota_admit(q, "a", &policy, 2.5, &v), 0); /* exactly zero: admitted */
    ck_assert_int_eq(quota_admit(q, "a", &policy, 1000, &v), 0);
    ck_assert(v.remaining_ms == 100); /* never above the burst */
    quota_free(q);
}
END_TEST

START_TEST(test_small_debt_waits_one_second)
{
    gj_quota *q = quota_create(10);
    quota_view v;
    quota_charge(q, "a", &policy, 100.001, 0, &v);
    ck_assert_int_eq(quota_admit(q, "a", &policy, 0, &v), -1);
    ck_assert_int_eq(v.retry_after, 1);
    quota_free(q);
}
END_TEST

START_TEST(test_cap_evicts_full_buckets_first)
{
    gj_quota *q = quota_create(3);
    quota_view v;
    quota_charge(q, "debtor", &policy, 1000, 0, &v);
    quota_admit(q, "full1", &policy, 0, &v);
    quota_admit(q, "full2", &policy, 0, &v);
    ck_assert_uint_eq(quota_clients(q), 3);
    quota_admit(q, "new", &policy, 1, &v); /* the two full ones go, the debtor stays */
    ck_assert_uint_eq(quota_clients(q), 2);
    ck_assert_int_eq(quota_admit(q, "debtor", &policy, 1, &v), -1);
    quota_free(q);
}
END_TEST

START_TEST(test_cap_without_full_bucket_evicts_fullest)
{
    gj_quota *q = quota_create(2);
    quota_view v;
    quota_charge(q, "deep", &policy, 1000, 0, &v);
    quota_charge(q, "shallow", &policy, 150, 0, &v);
    quota_admit(q, "new", &policy, 0, &v);
    ck_assert_uint_eq(quota_clients(q), 2);
    ck_assert_int_eq(quota_admit(q, "deep", &policy, 0, &v), -1); /* the deep debt is kept */
    ck_assert(v.remaining_ms == -900);
    quota_free(q);
}
END_TEST

START_TEST(test_counters_render)
{
    gj_quota *q = quota_create(5);
    quota_throttled(q, QUOTA_ADDRESS_COST);
    quota_throttled(q, QUOTA_ADDRESS_COST);
    quota_throttled(q, QUOTA_UNKNOWN_KEY);
    gj_buf out;
    buf_init(&out);
    quota_render(q, &out);
    buf_putc(&out, '\0');
    ck_assert_ptr_nonnull(
        strstr(out.data, "gamejudge_throttled_total{reason=\"address_cost\"} 2\n"));
    ck_assert_ptr_nonnull(strstr(out.data, "gamejudge_throttled_total{reason=\"key_cost\"} 0\n"));
    ck_assert_ptr_nonnull(
        strstr(out.data, "gamejudge_throttled_total{reason=\"unknown_key\"} 1\n"));
    ck_assert_ptr_nonnull(strstr(out.data, "gamejudge_quota_clients_max 5\n"));
    buf_free(&out);
    quota_free(q);
}
END_TEST

START_TEST(test_many_clients_stay_bounded)
{
    gj_quota *q = quota_create(100);
    quota_view v;
    char name[32];
    for (int i = 0; i < 10000; i++) {
        snprintf(name, sizeof name, "10.0.%d.%d", i / 256, i % 256);
        quota_charge(q, name, &policy, i % 3 == 0 ? 1000 : 1, (double)i / 1000, &v);
        ck_assert_uint_le(quota_clients(q), 100);
    }
    quota_free(q);
}
END_TEST

/* One Check test case per test, so a timeout or a crash names its test. */
static Suite *quota_suite(void)
{
    const harness_case cases[] = {
        {"quota", test_new_client_is_full},
        {"quota", test_debt_refuses_until_refilled},
        {"quota", test_small_debt_waits_one_second},
        {"quota", test_cap_evicts_full_buckets_first},
        {"quota", test_cap_without_full_bucket_evicts_fullest},
        {"quota", test_counters_render},
        {"quota", test_many_clients_stay_bounded},
    };
    return harness_suite("quota", cases, sizeof cases / sizeof cases[0], 30);
}

int main(void)
{
    return harness_main(quota_suite());
}
