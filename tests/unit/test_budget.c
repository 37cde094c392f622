/* test_budget.c - the memory budget: peaks by body kind, charges refused
 * past the limit and counted, releases, growth of a streamed body, many
 * threads charging and releasing at once, and the default from the
 * machine's memory. */
#include <check.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "budget.h"

START_TEST(test_peaks)
{
    size_t text = budget_peak(BUDGET_TEXT, 1000000), json = budget_peak(BUDGET_JSON_TREE, 1000000);
    size_t read = budget_peak(BUDGET_JSON_READ, 1000000);
    ck_assert_uint_ge(text, 3000000);
    ck_assert_uint_lt(text, 3100000);
    ck_assert_uint_ge(json, 8000000);
    ck_assert_uint_lt(json, 8100000);
    ck_assert_uint_eq(read, text); /* JSON with no tree costs what its text does */
    ck_assert_uint_gt(budget_peak(BUDGET_TEXT, 0), 0); /* a request is never free */
    ck_assert_uint_eq(budget_peak(BUDGET_JSON_TREE, SIZE_MAX / 2), SIZE_MAX); /* no wrap-around */
    ck_assert_uint_eq(budget_peak(BUDGET_JSON_READ, SIZE_MAX / 2), SIZE_MAX);
}
END_TEST

START_TEST(test_limit_refuses_and_counts)
{
    gj_budget *b = budget_create(1000);
    ck_assert_int_eq(budget_charge(b, 600), 0);
    ck_assert_int_eq(budget_charge(b, 401), -1); /* 1001 > 1000: nothing charged */
    ck_assert_uint_eq(budget_charged(b), 600);
    ck_assert_int_eq(budget_charge(b, 400), 0); /* exactly the limit fits */
    ck_assert_int_eq(budget_charge(b, 1), -1);
    budget_release(b, 600);
    ck_assert_uint_eq(budget_charged(b), 400);
    ck_assert_int_eq(budget_charge(b, 600), 0);
    gj_buf out;
    buf_init(&out);
    budget_render(b, &out);
    buf_putc(&out, '\0');
    ck_assert_ptr_nonnull(strstr(out.data, "gamejudge_memory_refused_total 2\n"));
    ck_assert_ptr_nonnull(strstr(out.data, "gamejudge_memory_budget_bytes 1000\n"));
    ck_assert_ptr_nonnull(strstr(out.data, "gamejudge_memory_charged_bytes 1000\n"));
    ck_assert_ptr_nonnull(strstr(out.data, "gamejudge_memory_charged_peak_bytes 1000\n"));
    buf_free(&out);
    budget_free(b);
}
END_TEST

START_TEST(test_no_bound)
{
    gj_budget *b = budget_create(0);
    ck_assert_int_eq(budget_charge(b, (size_t)1 << 50), 0);
    ck_assert_int_eq(budget_charge(b, SIZE_MAX), -1); /* would wrap: refused even so */
    budget_release(b, (size_t)1 << 50);
    ck_assert_uint_eq(budget_charged(b), 0);
    budget_free(b);
}
END_TEST

START_TEST(test_cover_grows_a_streamed_body)
{
    gj_budget *b = budget_create(budget_peak(BUDGET_TEXT, 10000));
    size_t charged = 0;
    ck_assert_int_eq(budget_cover(b, &charged, BUDGET_TEXT, 100), 0);
    ck_assert_uint_eq(charged, budget_peak(BUDGET_TEXT, 100));
    ck_assert_int_eq(budget_cover(b, &charged, BUDGET_TEXT, 50), 0); /* covered: no change */
    ck_assert_uint_eq(charged, budget_peak(BUDGET_TEXT, 100));
    ck_assert_int_eq(budget_cover(b, &charged, BUDGET_TEXT, 10000), 0);
    ck_assert_uint_eq(budget_charged(b), budget_peak(BUDGET_TEXT, 10000));
    ck_assert_int_eq(budget_cover(b, &charged, BUDGET_TEXT, 10001), -1);
    ck_assert_uint_eq(charged, budget_peak(BUDGET_TEXT, 10000)); /* unchanged on refusal */
    budget_release(b, charged);
    ck_assert_uint_eq(budget_charged(b), 0);
    budget_free(b);
}
END_TEST

static gj_budget *shared;

/* Charge and release 100000 times; count the charges that were granted. */
static void *churn(void *arg)
{
    long *granted = arg;
    for (int i = 0; i < 100000; i++)
        if (budget_charge(shared, 7) == 0) {
            ++*granted;
            budget_release(shared, 7);
        }
    return NULL;
}

START_TEST(test_threads_never_pass_the_limit)
{
    shared = budget_create(7 * 3); /* at most 3 of the 4 threads hold a charge at once */
    pthread_t t[4];
    long granted[4] = {0};
    for (int i = 0; i < 4; i++)
        pthread_create(&t[i], NULL, churn, &granted[i]);
    for (int i = 0; i < 4; i++)
        pthread_join(t[i], NULL);
    ck_assert_uint_eq(budget_charged(shared), 0);
    gj_buf out;
    buf_init(&out);
    budget_render(shared, &out);
    buf_putc(&out, '\0');
    const char *sample = strstr(out.data, "\ngamejudge_memory_charged_peak_bytes ");
    ck_assert_ptr_nonnull(sample);
    double peak = 0;
    ck_assert_int_eq(sscanf(sample + 37, "%lf", &peak), 1);
    ck_assert(peak <= 21 && peak >= 7);
    ck_assert_int_gt(granted[0] + granted[1] + granted[2] + granted[3], 0);
    buf_free(&out);
    budget_free(shared);
}
END_TEST

START_TEST(test_default_is_half_the_memory)
{
    long total_kib = 0;
    FILE *f = fopen("/proc/meminfo", "r");
    ck_assert_ptr_nonnull(f);
    char line[128];
    while (fgets(line, sizeof line, f) != NULL && sscanf(line, "MemTotal: %ld kB", &total_kib) != 1)
        ;
    fclose(f);
    long d = budget_default_bytes();
    ck_assert_int_gt(d, 0);
    ck_assert_int_le(d, total_kib * 1024 / 2); /* a cgroup limit may make it lower */
}
END_TEST

/* One Check test case per test, so a timeout or a crash names its test. */
static Suite *budget_suite(void)
{
    const harness_case cases[] = {
        {"budget", test_peaks},
        {"budget", test_limit_refuses_and_counts},
        {"budget", test_no_bound},
        {"budget", test_cover_grows_a_streamed_body},
        {"budget", test_threads_never_pass_the_limit},
        {"budget", test_default_is_half_the_memory},
    };
    return harness_suite("budget", cases, sizeof cases / sizeof cases[0], 30);
}

int main(void)
{
    return harness_main(budget_suite());
}
