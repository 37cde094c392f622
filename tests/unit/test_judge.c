/* test_judge.c - judge_compare as a contest checker: which layouts are
 * accepted, which are presentation errors, and where the first difference
 * is reported. */
#include <check.h>
#include <jansson.h>
#include <string.h>

#include "harness.h"
#include "judge.h"

static judge_result compare(const char *expected, const char *found)
{
    judge_result r;
    judge_compare(expected, strlen(expected), found, strlen(found), &r);
    return r;
}

static void expect(const char *expected, const char *found, judge_verdict v)
{
    judge_result r = compare(expected, found);
    ck_assert_msg(r.verdict == v, "[%s] vs [%s]: %s", expected, found,
                  judge_verdict_name(r.verdict));
}

START_TEST(test_whitespace_does_not_matter)
{
    const char *want = "WIN\n1 2\n2 1\n";
    expect(want, want, JUDGE_ACCEPTED);
    expect(want, "WIN\n1 2\n2 1", JUDGE_ACCEPTED);
    expect(want, "WIN\r\n1 2\r\n2 1\r\n", JUDGE_ACCEPTED);
    expect(want, "WIN  \n1\t2 \n 2   1\n\n\n", JUDGE_ACCEPTED);
    expect(want, "WIN\n1 2\n2 1\n\f\v", JUDGE_ACCEPTED);
    expect("", "", JUDGE_ACCEPTED);
    expect("", "\n\n  \n", JUDGE_ACCEPTED);
}
END_TEST

START_TEST(test_layout_is_presentation)
{
    judge_result r = compare("WIN\n1 2\n2 1\n", "WIN 1 2\n2 1\n");
    ck_assert_int_eq(r.verdict, JUDGE_PRESENTATION_ERROR);
    ck_assert_int_eq(r.index, 2);
    ck_assert_int_eq(r.found.line, 1);
    ck_assert_int_eq(r.expected.line, 2);
    /* A leading blank line moves every token. */
    expect("WIN\n", "\nWIN\n", JUDGE_PRESENTATION_ERROR);
    expect("1 2\n", "1\n2\n", JUDGE_PRESENTATION_ERROR);
}
END_TEST

START_TEST(test_wrong_answer_first_difference)
{
    judge_result r = compare("WIN\n1 2\n2 1\n", "WIN\n1 2\n2 3\n");
    ck_assert_int_eq(r.verdict, JUDGE_WRONG_ANSWER);
    ck_assert_int_eq(r.index, 5);
    ck_assert_int_eq(r.found.line, 3);
    ck_assert(r.found.len == 1 && r.found.text[0] == '3');
    ck_assert(r.expected.len == 1 && r.expected.text[0] == '1');
    /* A wrong token after a misplaced one: wrong_answer wins. */
    r = compare("1 2\n3\n", "1\n2 4\n");
    ck_assert_int_eq(r.verdict, JUDGE_WRONG_ANSWER);
    ck_assert_int_eq(r.index, 3);
    /* Too short and too long: the missing side is NULL. */
    r = compare("LOSE\nWIN\n", "LOSE\n");
    ck_assert_int_eq(r.verdict, JUDGE_WRONG_ANSWER);
    ck_assert_ptr_null(r.found.text);
    ck_assert_int_eq(r.found.line, 2);
    r = compare("LOSE\n", "LOSE\nWIN\n");
    ck_assert_ptr_null(r.expected.text);
    ck_assert_int_eq(r.found.line, 2);
    /* A prefix is not the token. */
    expect("WIN\n", "WI\n", JUDGE_WRONG_ANSWER);
    expect("WIN\n", "WINS\n", JUDGE_WRONG_ANSWER);
    expect("WIN\n", "win\n", JUDGE_WRONG_ANSWER);
    /* NUL is a token byte, not an end. */
    judge_compare("A\n", 2, "A\0\n", 3, &r);
    ck_assert_int_eq(r.verdict, JUDGE_WRONG_ANSWER);
}
END_TEST

START_TEST(test_json_answer)
{
    gj_buf out;
    buf_init(&out);
    char longtok[200];
    memset(longtok, 'M', sizeof longtok - 1);
    longtok[sizeof longtok - 1] = '\0';
    char found[220];
    /* A 3-byte UTF-8 character straddling the 64-byte cut. */
    memset(found, 'M', 63);
    memcpy(found + 63, "\xe2\x80\x93", 3);
    memset(found + 66, 'G', 10);
    found[76] = '\0';
    judge_result r = compare(longtok, found);
    judge_write_json("matrix-game", &r, &out);
    ck_assert(!out.failed);
    json_error_t err;
    json_t *j = json_loadb(out.data, out.len, 0, &err);
    ck_assert_ptr_nonnull(j);
    ck_assert_str_eq(json_string_value(json_object_get(j, "verdict")), "wrong_answer");
    json_t *d = json_object_get(j, "first_difference");
    ck_assert_uint_eq(strlen(json_string_value(json_object_get(d, "expected"))), 64);
    ck_assert_uint_eq(strlen(json_string_value(json_object_get(d, "found"))), 63);
    ck_assert_int_eq(json_integer_value(json_object_get(d, "line")), 1);
    ck_assert_ptr_nonnull(json_string_value(json_object_get(d, "message")));
    json_decref(j);
    buf_free(&out);

    buf_init(&out);
    r = compare("RUBY\n", "RUBY");
    judge_write_json("prime-chocolate", &r, &out);
    j = json_loadb(out.data, out.len, 0, &err);
    ck_assert(json_is_null(json_object_get(j, "first_difference")));
    json_decref(j);
    buf_free(&out);
}
END_TEST

/* One Check test case per test, so a timeout or a crash names its test. */
static Suite *judge_suite(void)
{
    const harness_case cases[] = {
        {"judge", test_whitespace_does_not_matter},
        {"judge", test_layout_is_presentation},
        {"judge", test_wrong_answer_first_difference},
        {"judge", test_json_answer},
    };
    return harness_suite("judge", cases, sizeof cases / sizeof cases[0], 0);
}

int main(void)
{
    return harness_main(judge_suite());
}
