/* test_framing.c - the head's framing rules (framing.h), over heads written
 * as lists of headers: each ambiguous framing refused naming its header,
 * every plain one accepted. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "framing.h"
#include "harness.h"

/* The verdict on a head given as {key, value, key, value, ..., NULL}. */
static int judge(const char *version, const char *const *kv, gj_error *e)
{
    framing_scan s;
    memset(&s, 0, sizeof s);
    for (size_t i = 0; kv[i] != NULL; i += 2)
        framing_note(&s, kv[i], kv[i + 1]);
    gj_error_clear(e);
    return framing_verdict(&s, version, e);
}

/* Heads and what their refusal names (NULL: accepted). */
static const struct {
    const char *kv[12];
    const char *names; /* in the message; NULL: accepted */
} heads[] = {
    {{"Host", "x", NULL}, NULL},
    {{"host", "x", "Content-Length", "0", NULL}, NULL},
    {{"Host", "x", "Content-Length", "12345678901234567890", NULL}, NULL},
    {{"Host", "x", "Transfer-Encoding", "chunked", NULL}, NULL},
    {{"Host", "x", "Cookie", "a=1; b=2", "X-A_b.c~!#$%&'*+^`|", "v", NULL}, NULL},
    {{"Host", "x", "Content-Length", "4", "Transfer-Encoding", "chunked", NULL},
     "both Transfer-Encoding and Content-Length"},
    {{"Host", "x", "transfer-encoding", "chunked", "content-length", "4", NULL},
     "both Transfer-Encoding and Content-Length"},
    {{"Host", "x", "Transfer-Encoding", "chunked", "Transfer-Encoding", "chunked", NULL},
     "2 Transfer-Encoding"},
    {{"Host", "x", "Transfer-Encoding", "xchunked", NULL}, "'xchunked'"},
    {{"Host", "x", "Transfer-Encoding", "Chunked", NULL}, "'Chunked'"},
    {{"Host", "x", "Transfer-Encoding", "chunked, identity", NULL}, "'chunked, identity'"},
    {{"Host", "x", "Transfer-Encoding", "", NULL}, "Transfer-Encoding ''"},
    {{"Host", "x", "Content-Length", "4", "Content-Length", "4", NULL}, "2 Content-Length"},
    {{"Host", "x", "Content-Length", "4", "Content-Length", "5", NULL}, "2 Content-Length"},
    {{"Host", "x", "Content-Length", "+4", NULL}, "Content-Length '+4'"},
    {{"Host", "x", "Content-Length", "4, 4", NULL}, "Content-Length '4, 4'"},
    {{"Host", "x", "Content-Length", "", NULL}, "Content-Length ''"},
    {{"Host", "x", "Content Length", "4", NULL}, "'Content Length' is not a token"},
    {{"Host", "x", "Content-Length\t", "4", NULL}, "is not a token"},
    {{"Host", "x", "X:y", "4", NULL}, "'X:y' is not a token"},
    {{"Host", "x", "", "4", NULL}, "'' is not a token"},
    {{"Host", "x", "Caf\xc3\xa9", "4", NULL}, "is not a token"},
    {{"Content-Length", "0", NULL}, "this one has 0"},
    {{"Host", "a", "Host", "b", NULL}, "this one has 2"},
};

/* Each head gets its verdict, naming the rule it breaks. */
START_TEST(test_heads)
{
    gj_error e;
    int rc = judge("HTTP/1.1", heads[_i].kv, &e);
    if (heads[_i].names == NULL) {
        ck_assert_msg(rc == 0, "head %d refused: %s", _i, e.message);
    } else {
        ck_assert_msg(rc == -1 && e.kind == GJ_BAD_INPUT, "head %d accepted", _i);
        ck_assert_msg(strstr(e.message, heads[_i].names) != NULL, "head %d: '%s' lacks '%s'", _i,
                      e.message, heads[_i].names);
    }
}
END_TEST

/* HTTP/1.0 has no Host rule; its framing rules are the same. */
START_TEST(test_http10)
{
    gj_error e;
    const char *none[] = {NULL};
    ck_assert_int_eq(judge("HTTP/1.0", none, &e), 0);
    const char *both[] = {"Content-Length", "1", "Transfer-Encoding", "chunked", NULL};
    ck_assert_int_eq(judge("HTTP/1.0", both, &e), -1);
}
END_TEST

/* Every tchar alone is a token and every other byte alone is not. */
START_TEST(test_token_bytes)
{
    const char *tchars = "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyz"
                         "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    for (int c = 1; c < 256; c++) {
        char name[2] = {(char)c, '\0'};
        int want = strchr(tchars, c) != NULL;
        ck_assert_msg(framing_is_token(name) == want, "byte 0x%02x", c);
    }
    ck_assert(!framing_is_token(""));
    ck_assert(!framing_is_token(NULL));
}
END_TEST

/* Targets and the path they are routed by. */
static const struct {
    const char *target, *path;
} targets[] = {
    {"/healthz", "/healthz"},
    {"http://h/healthz", "/healthz"},
    {"HTTP://h:8080/solve/nim-shortcuts", "/solve/nim-shortcuts"},
    {"https://h/", "/"},
    {"http://h", "/"},
    {"http://h?x=1", "/"},
    {"*", "*"},
    {"httpx://h/a", "httpx://h/a"},
};

/* An absolute-form target is routed by its path (RFC 9112 3.2.2). */
START_TEST(test_origin_path)
{
    ck_assert_str_eq(framing_origin_path(targets[_i].target), targets[_i].path);
}
END_TEST

/* %00 is found anywhere in the first n bytes, never past them. */
START_TEST(test_nul_escape)
{
    ck_assert(framing_has_nul_escape("/a%00b", 6));
    ck_assert(framing_has_nul_escape("%00", 3));
    ck_assert(!framing_has_nul_escape("%00", 2));
    ck_assert(!framing_has_nul_escape("/a%000", 3));
    ck_assert(!framing_has_nul_escape("/a%0a%20", 8));
    ck_assert(!framing_has_nul_escape("/a%100", 6));
}
END_TEST

/* The framing suite. */
static Suite *framing_suite(void)
{
    Suite *s = suite_create("framing");
    TCase *tc = tcase_create("rules");
    tcase_add_loop_test(tc, test_heads, 0, (int)(sizeof heads / sizeof heads[0]));
    tcase_add_test(tc, test_http10);
    tcase_add_test(tc, test_token_bytes);
    tcase_add_loop_test(tc, test_origin_path, 0, (int)(sizeof targets / sizeof targets[0]));
    tcase_add_test(tc, test_nul_escape);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return harness_main(framing_suite());
}
