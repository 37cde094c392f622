/* test_reader.c - reader_long's word-at-a-time fast path against strtol
 * on every length and terminator, and the same errors as the general path. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "reader.h"

/* Parse every token of `text` with reader_long and with strtol. */
static void same_as_strtol(const char *text, long lo, long hi)
{
    gj_reader r;
    gj_error e;
    reader_init(&r, text, strlen(text));
    const char *p = text;
    for (;;) {
        char *after;
        while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r')
            p++;
        if (*p == '\0')
            break;
        long want = strtol(p, &after, 10);
        long got = -1;
        int rc = reader_long(&r, "v", lo, hi, &got, &e);
        if (want < lo || want > hi) {
            ck_assert_msg(rc != 0, "%.*s accepted outside [%ld, %ld]", (int)(after - p), p, lo, hi);
            return;
        }
        ck_assert_msg(rc == 0, "%.*s: %s", (int)(after - p), p, e.message);
        ck_assert_msg(got == want, "%.*s read as %ld", (int)(after - p), p, got);
        p = after;
    }
}

START_TEST(test_every_length_and_terminator)
{
    static const char *const ends[] = {" ", "\n", "\r\n", "\t", "  \n\n "};
    char text[256];
    for (int digits = 1; digits <= 12; digits++)
        for (size_t t = 0; t < sizeof ends / sizeof ends[0]; t++)
            for (int lead = 0; lead < 3; lead++) {
                /* Padding after, so both the fast and the last-bytes paths run. */
                int n = snprintf(text, sizeof text, "%.*s%.*s%s%.*s7 1 2 3 4 5 6 7 8 9 10\n", lead,
                                 "000", digits, "918273645546372819", ends[t], lead, "00");
                ck_assert_int_lt(n, (int)sizeof text);
                same_as_strtol(text, 0, 999999999999L);
            }
}
END_TEST

START_TEST(test_random_numbers)
{
    uint64_t rng = 20261130;
    char text[8192];
    for (int round = 0; round < 2000; round++) {
        size_t n = 0;
        for (int k = 0; k < 100; k++) {
            int digits = 1 + (int)rng_below(&rng, 10);
            long cap = 1;
            for (int d = 0; d < digits; d++)
                cap *= 10;
            long v = (long)rng_below(&rng, (uint64_t)cap);
            n += (size_t)snprintf(text + n, sizeof text - n, "%ld%s", v,
                                  rng_below(&rng, 5) == 0 ? "\n" : " ");
        }
        same_as_strtol(text, 0, 9999999999L);
    }
}
END_TEST

START_TEST(test_bounds_and_bad_bytes)
{
    /* A value past `hi` and one below `lo` fail; so do signs the range forbids
     * and a digit run glued to a letter, with the general path's message. */
    same_as_strtol("12345678 123456789 1000000000 5 6 7 8 9 10 11 12", 0, 123456789);
    gj_reader r;
    gj_error e;
    long v;
    const char *bad = "12345678x 1 2 3 4 5 6 7 8 9";
    reader_init(&r, bad, strlen(bad));
    ck_assert_int_ne(reader_long(&r, "the value", 0, 1000000000, &v, &e), 0);
    ck_assert_ptr_nonnull(strstr(e.message, "the value"));
    ck_assert_int_eq(e.line, 1);
    const char *negative = "-5 1 2 3 4 5 6 7 8 9";
    reader_init(&r, negative, strlen(negative));
    ck_assert_int_eq(reader_long(&r, "v", -10, 10, &v, &e), 0);
    ck_assert_int_eq(v, -5);
    /* Line numbers advance over the fast path's newlines. */
    const char *lines = "1\n2\n3\nx 4 5 6 7 8 9 10 11";
    reader_init(&r, lines, strlen(lines));
    for (int i = 0; i < 3; i++)
        ck_assert_int_eq(reader_long(&r, "v", 0, 9, &v, &e), 0);
    ck_assert_int_ne(reader_long(&r, "v", 0, 9, &v, &e), 0);
    ck_assert_int_eq(e.line, 4);
}
END_TEST

/* One Check test case per test, so a timeout or a crash names its test;
 * a minute each, as json_scan's random sweep: Check's default 4 s was
 * overrun by the random numbers' case while make test-unit shared a loaded
 * machine. */
static Suite *reader_suite(void)
{
    const harness_case cases[] = {
        {"reader_long", test_every_length_and_terminator},
        {"reader_long", test_random_numbers},
        {"reader_long", test_bounds_and_bad_bytes},
    };
    return harness_suite("reader", cases, sizeof cases / sizeof cases[0], 60);
}

int main(void)
{
    return harness_main(reader_suite());
}
