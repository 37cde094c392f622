/* test_json_scan.c - the strict JSON scanner (json_scan.h) and the envelope
 * loader built on it (json_in.h, jin_load_envelope).
 *
 * The scanner must take every JSON text and nothing else: fixed tables of
 * texts each way (escapes, UTF-8, numbers of any length, nesting far past
 * jansson's limit), then a differential run against jansson itself on
 * mutated texts, where the two may differ only on what jansson refuses
 * though it is JSON.  The loader must answer those refusals per element and
 * leave every other error as jansson's, with its line and column. */
#include <check.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "json_in.h"
#include "json_scan.h"

/* The scanner's verdict on a C string. */
static jscan_result valid(const char *text)
{
    return jscan_valid(text, strlen(text));
}

static const char *const valid_texts[] = {
    "0",
    "-0",
    "1",
    "-1",
    "123456789012345678901234567890123456789012345678901234567890",
    "-123456789012345678901234567890e-999999999999999999999",
    "1.5",
    "0.0001",
    "1e5",
    "1E+5",
    "1e-5",
    "1.25e400",
    "true",
    "false",
    "null",
    "\"\"",
    "\"plain\"",
    "\"\\\" \\\\ \\/ \\b \\f \\n \\r \\t\"",
    "\"\\u0000 \\u00e9 \\uD834\\uDD1E \\uFFFF \\uabcd\"",
    "\"\\ud800\"", /* a lone surrogate is grammar; jansson judges it */
    "\"\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 \xef\xbf\xbf \xf4\x8f\xbf\xbf \x7f\"",
    "[]",
    "{}",
    " \t\r\n[ 1 , 2 ]\n ",
    "[1,[2,[3,[4]]],{\"a\":{\"b\":[]}}]",
    "{\"a\":1,\"a\":2}", /* duplicate keys are JSON (RFC 8259 4: SHOULD be unique) */
    "{\"\\u0000\":1}",
    "{ \"a\" : [ true , false , null ] , \"b\" : { } }",
};

static const char *const invalid_texts[] = {
    "",
    " ",
    "{",
    "}",
    "[",
    "]",
    "[1,]",
    "[,1]",
    "[1 2]",
    "{,}",
    "{\"a\"}",
    "{\"a\":}",
    "{\"a\" 1}",
    "{\"a\":1,}",
    "{1:1}",
    "{'a':1}",
    "[}",
    "{]",
    "[1]]",
    "[[1]",
    "{} {}",
    "[1]x",
    "01",
    "-",
    "-a",
    "+1",
    "1.",
    ".5",
    "1.e5",
    "1e",
    "1e+",
    "0x10",
    "NaN",
    "Infinity",
    "-Infinity",
    "tru",
    "truex",
    "nul",
    "True",
    "\"abc",
    "\"\\x\"",
    "\"\\u12G4\"",
    "\"\\u12\"",
    "\"\\",
    "\"tab\there\"",
    "\"nl\nhere\"",
    "\"\xff\"",
    "\"\xc0\x80\"",         /* overlong NUL */
    "\"\xe0\x80\x80\"",     /* overlong */
    "\"\xed\xa0\x80\"",     /* a surrogate in UTF-8 */
    "\"\xf4\x90\x80\x80\"", /* past U+10FFFF */
    "\"\xe2\x82\"",         /* cut short */
    "\"\x80\"",             /* a lone continuation byte */
    "[\xc3\xa9]",           /* a character outside a string */
    "/* comment */ 1",
    "[1] // comment",
    "\xef\xbb\xbf[]", /* a byte order mark is no blank */
    "\f[]",
};

/* Each JSON text of the table is taken. */
START_TEST(test_valid_texts)
{
    const char *t = valid_texts[_i];
    ck_assert_msg(valid(t) == JSCAN_VALID, "refused: %s", t);
}
END_TEST

/* Each text of the table that is not JSON is refused. */
START_TEST(test_invalid_texts)
{
    const char *t = invalid_texts[_i];
    ck_assert_msg(valid(t) == JSCAN_INVALID, "taken: %s", t);
}
END_TEST

/* A NUL byte is no JSON character, even inside a string or at the end. */
START_TEST(test_nul_bytes)
{
    ck_assert_int_eq(jscan_valid("\"a\0b\"", 5), JSCAN_INVALID);
    ck_assert_int_eq(jscan_valid("[1]\0", 4), JSCAN_INVALID);
    ck_assert_int_eq(jscan_valid("[1]", 3), JSCAN_VALID);
}
END_TEST

/* `open`, then `depth` times `open`, then `close` as many times plus one:
 * malloc'd. */
static char *nest(const char *open, const char *inner, const char *close, size_t depth)
{
    size_t lo = strlen(open), li = strlen(inner), lc = strlen(close);
    char *t = malloc(depth * (lo + lc) + li + 1);
    ck_assert_ptr_nonnull(t);
    char *p = t;
    for (size_t i = 0; i < depth; i++, p += lo)
        memcpy(p, open, lo);
    memcpy(p, inner, li);
    p += li;
    for (size_t i = 0; i < depth; i++, p += lc)
        memcpy(p, close, lc);
    *p = '\0';
    return t;
}

/* Nesting far past jansson's 2048 levels is still JSON, scanned without
 * recursion; one bracket too many or too few, or a wrong one, is not. */
START_TEST(test_deep_nesting)
{
    char *t = nest("[", "", "]", 1000000);
    ck_assert_int_eq(valid(t), JSCAN_VALID);
    t[strlen(t) - 1] = '\0';
    ck_assert_int_eq(valid(t), JSCAN_INVALID);
    free(t);
    t = nest("{\"a\":[", "1", "]}", 200000);
    ck_assert_int_eq(valid(t), JSCAN_VALID);
    t[strlen(t) - 1] = ']'; /* the outermost object closed as an array */
    ck_assert_int_eq(valid(t), JSCAN_INVALID);
    free(t);
    t = nest("[", "[", "]", 50000); /* one '[' more than ']' */
    ck_assert_int_eq(valid(t), JSCAN_INVALID);
    free(t);
}
END_TEST

/* Check that span sp of text holds exactly `want`. */
static void expect_span(const char *text, jscan_span sp, const char *want)
{
    ck_assert_uint_eq(sp.end - sp.begin, strlen(want));
    ck_assert_msg(memcmp(text + sp.begin, want, strlen(want)) == 0, "span %.*s, not %s",
                  (int)(sp.end - sp.begin), text + sp.begin, want);
}

/* The member's array and each element, exactly, past strings holding
 * brackets, a nested array, blanks and line feeds. */
START_TEST(test_member_array_spans)
{
    const char *t = "{\"x\": [9], \"items\" : [ 1 , {\"a\": [2, \"]\"]}, \"s\\\"]\",\n[] ,-5e3],"
                    " \"items\": [7], \"y\": {\"items\": [8]}}";
    jscan_array a;
    ck_assert_int_eq(jscan_member_array(t, strlen(t), "items", &a), JSCAN_FOUND);
    expect_span(t, a.whole, "[ 1 , {\"a\": [2, \"]\"]}, \"s\\\"]\",\n[] ,-5e3]");
    ck_assert_uint_eq(a.n, 5);
    expect_span(t, a.elems[0], "1");
    expect_span(t, a.elems[1], "{\"a\": [2, \"]\"]}");
    expect_span(t, a.elems[2], "\"s\\\"]\"");
    expect_span(t, a.elems[3], "[]");
    expect_span(t, a.elems[4], "-5e3");
    jscan_array_free(&a);
    ck_assert_ptr_null(a.elems);
}
END_TEST

/* Which member is found: the top-level object's first of that name,
 * compared decoded, holding an array; and none in a text that is not JSON. */
START_TEST(test_member_array_which)
{
    jscan_array a;
    const char *t = "{\"it\\u0065ms\": [1, 2]}";
    ck_assert_int_eq(jscan_member_array(t, strlen(t), "items", &a), JSCAN_FOUND);
    ck_assert_uint_eq(a.n, 2);
    jscan_array_free(&a);
    static const char *const without[] = {
        "{\"a\": {\"items\": [1]}}", "[{\"items\": [1]}]", "{\"items\": 5}",
        "{\"items\": {\"0\": 1}}",   "{\"item\": [1]}",    "{\"itemsx\": [1]}",
        "{\"items\\u0000\": [1]}",   "\"items\"",          "{\"\\u00efems\": [1]}",
    };
    for (size_t i = 0; i < sizeof without / sizeof without[0]; i++) {
        ck_assert_msg(jscan_member_array(without[i], strlen(without[i]), "items", &a) ==
                          JSCAN_VALID,
                      "%s", without[i]);
        ck_assert_uint_eq(a.n, 0);
    }
    /* The first member of the name; an empty array has no element. */
    t = "{\"items\": [], \"items\": [1]}";
    ck_assert_int_eq(jscan_member_array(t, strlen(t), "items", &a), JSCAN_FOUND);
    ck_assert_uint_eq(a.n, 0);
    expect_span(t, a.whole, "[]");
    jscan_array_free(&a);
    /* Not JSON: nothing found, even where the array itself was fine. */
    t = "{\"items\": [1, 2], }";
    ck_assert_int_eq(jscan_member_array(t, strlen(t), "items", &a), JSCAN_INVALID);
    ck_assert_ptr_null(a.elems);
}
END_TEST

/* What jansson refuses though the text is JSON: the only disagreements
 * allowed. */
static int jansson_refusal(const char *text)
{
    static const char *const known[] = {
        "too big integer",        "too big negative integer", "real number overflow",
        "NUL byte in object key", "maximum parsing depth",    "invalid Unicode",
    };
    for (size_t k = 0; k < sizeof known / sizeof known[0]; k++)
        if (strstr(text, known[k]) != NULL)
            return 1;
    return 0;
}

/* Random single-byte edits of JSON texts: whatever jansson takes, the
 * scanner takes; whatever the scanner takes, jansson takes or refuses for
 * one of the known reasons. */
START_TEST(test_agrees_with_jansson)
{
    static const char *const seeds[] = {
        "{\"items\": [{\"game\": \"grid-walk\", \"input\": \"1 1\\n.\\n\"}, [1, -2.5e3, true]]}",
        "[\"\\u00e9\\n\", {\"a\": null, \"b\": [false, 0, 10]}, \"\xc3\xa9\"]",
        "{\"x\": 123456789012345678901234, \"y\": \"\\ud834\\udd1e\", \"z\": 1.0e-10}",
        " [ [ [ ] ] , { } , \"\" , 0 ] ",
    };
    static const char alphabet[] = "{}[]\",:\\ 0123456789-+.eEtrufalsn\n\tux\x01\x80\xc3\xa9";
    uint64_t state = 25;
    char text[256];
    long taken = 0, refused = 0; /* both outcomes must be common, or the run proves little */
    for (int round = 0; round < 200000; round++) {
        const char *seed = seeds[rng_below(&state, sizeof seeds / sizeof seeds[0])];
        size_t len = strlen(seed);
        memcpy(text, seed, len);
        for (int edits = 1 + (int)rng_below(&state, 3); edits > 0; edits--) {
            size_t at = rng_below(&state, len);
            char c = alphabet[rng_below(&state, sizeof alphabet - 1)];
            switch (rng_below(&state, 3)) {
            case 0: /* replace */
                text[at] = c;
                break;
            case 1: /* insert */
                memmove(text + at + 1, text + at, len - at);
                text[at] = c;
                len++;
                break;
            default: /* delete */
                memmove(text + at, text + at + 1, len - at - 1);
                len--;
            }
            if (len == 0 || len > sizeof text - 8)
                break;
        }
        json_error_t err;
        json_t *v = json_loadb(text, len, JSON_DECODE_ANY | JSON_ALLOW_NUL, &err);
        jscan_result r = jscan_valid(text, len);
        if (v != NULL)
            ck_assert_msg(r == JSCAN_VALID, "jansson takes, the scanner refuses: %.*s", (int)len,
                          text);
        else
            ck_assert_msg(r == JSCAN_INVALID || jansson_refusal(err.text),
                          "the scanner takes, jansson refuses (%s): %.*s", err.text, (int)len,
                          text);
        taken += r == JSCAN_VALID;
        refused += r == JSCAN_INVALID;
        json_decref(v);
    }
    ck_assert_int_gt(taken, 10000);
    ck_assert_int_gt(refused, 10000);
}
END_TEST

/* jin_load_envelope on a C string with the /batch envelope's keys. */
static json_t *envelope(const char *body, jin_refused **refused, size_t *n, gj_error *e)
{
    static const char *const keys[] = {"items", NULL};
    gj_error_clear(e);
    return jin_load_envelope(body, strlen(body), keys, "items", refused, n, e);
}

/* The repro: the big integer fails its item alone, named where it is. */
START_TEST(test_envelope_big_integer)
{
    const char *body = "{\"items\":[{\"game\":\"grid-walk\",\"input\":\"1 1\\n.\\n\"},{\"x\":"
                       "123456789012345678901234567890}]}";
    jin_refused *r;
    size_t n;
    gj_error e;
    json_t *root = envelope(body, &r, &n, &e);
    ck_assert_ptr_nonnull(root);
    const json_t *items = json_object_get(root, "items");
    ck_assert_uint_eq(json_array_size(items), 2);
    ck_assert_str_eq(json_string_value(json_object_get(json_array_get(items, 0), "game")),
                     "grid-walk");
    ck_assert(json_is_null(json_array_get(items, 1)));
    ck_assert_uint_eq(n, 1);
    ck_assert_uint_eq(r[0].index, 1);
    ck_assert_str_eq(r[0].what, "an integer beyond 64 bits");
    /* Where jansson stops on the whole body, too. */
    json_error_t whole;
    ck_assert_ptr_null(json_loads(body, 0, &whole));
    ck_assert_int_eq(r[0].line, whole.line);
    ck_assert_int_eq(r[0].column, whole.column);
    free(r);
    json_decref(root);
}
END_TEST

/* Each refusal, on a later line: its words and its place. */
START_TEST(test_envelope_refusals)
{
    const char *body = "{\"items\": [\n"
                       "  {\"a\\u0000\": 1},\n"
                       "  \"\xc3\xa9\", {\"k\": 1, \"k\": 2},\n"
                       "  -99999999999999999999, 1e999, \"\\u0000\", 3\n"
                       "]}";
    jin_refused *r;
    size_t n;
    gj_error e;
    json_t *root = envelope(body, &r, &n, &e);
    ck_assert_ptr_nonnull(root);
    ck_assert_uint_eq(json_array_size(json_object_get(root, "items")), 7);
    ck_assert_uint_eq(n, 5);
    ck_assert_uint_eq(r[0].index, 0);
    ck_assert_str_eq(r[0].what, "a key holding \\u0000");
    ck_assert_int_eq(r[0].line, 2);
    ck_assert_uint_eq(r[1].index, 2);
    ck_assert_str_eq(r[1].what, "a key given twice");
    ck_assert_int_eq(r[1].line, 3);
    ck_assert_int_gt(r[1].column, 10); /* after the 'é', counted as one column */
    ck_assert_uint_eq(r[2].index, 3);
    ck_assert_str_eq(r[2].what, "an integer beyond 64 bits");
    ck_assert_int_eq(r[2].line, 4);
    ck_assert_uint_eq(r[3].index, 4);
    ck_assert_str_eq(r[3].what, "a number beyond the range of a double");
    ck_assert_int_eq(r[3].line, 4);
    ck_assert_uint_eq(r[4].index, 5);
    ck_assert_str_eq(r[4].what, "a string holding \\u0000");
    ck_assert_int_eq(json_integer_value(json_array_get(json_object_get(root, "items"), 6)), 3);
    free(r);
    json_decref(root);
}
END_TEST

/* An item nested past jansson's limit is refused alone; the others load. */
START_TEST(test_envelope_deep_item)
{
    char *deep = nest("[", "1", "]", 3000);
    size_t len = strlen(deep) + 64;
    char *body = malloc(len);
    ck_assert_ptr_nonnull(body);
    snprintf(body, len, "{\"items\": [%s, 2]}", deep);
    jin_refused *r;
    size_t n;
    gj_error e;
    json_t *root = envelope(body, &r, &n, &e);
    ck_assert_ptr_nonnull(root);
    ck_assert_uint_eq(n, 1);
    ck_assert_str_eq(r[0].what, "arrays and objects nested over 2048 deep");
    ck_assert_int_eq(json_integer_value(json_array_get(json_object_get(root, "items"), 1)), 2);
    free(r);
    json_decref(root);
    free(body);
    free(deep);
}
END_TEST

/* Bodies that stay one error: not JSON, an envelope jansson refuses, a
 * refusal outside the array; each names jansson's line and column. */
START_TEST(test_envelope_errors)
{
    static const struct {
        const char *body, *message;
        long line, column;
    } cases[] = {
        /* not JSON (the closing brace is missing): jansson's first word */
        {"{\"items\":[{\"x\":123456789012345678901234567890}]", "too big integer", 1, 45},
        {"{\"items\":[1,]}", "invalid JSON at line 1, column 13", 1, 13},
        /* the envelope: a member after the array, a second array, a big number outside it */
        {"{\"items\":[{\"x\":123456789012345678901234567890}],\n \"extra\": 1}",
         "extra: unknown field; expected only \"items\"", 0, 0},
        {"{\"items\":[{\"x\":123456789012345678901234567890}],\n \"items\": []}",
         "invalid JSON at line 2, column 8: duplicate object key", 2, 8},
        {"{\"n\": 123456789012345678901234567890, \"items\":[1]}",
         "invalid JSON at line 1, column 36: too big integer", 1, 36},
        {"[{\"items\":[123456789012345678901234567890]}]", "too big integer", 1, 41},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        jin_refused *r;
        size_t n;
        gj_error e;
        ck_assert_ptr_null(envelope(cases[i].body, &r, &n, &e));
        ck_assert_ptr_null(r);
        ck_assert_uint_eq(n, 0);
        ck_assert_int_eq(e.kind, GJ_BAD_INPUT);
        ck_assert_msg(strstr(e.message, cases[i].message) != NULL, "%s: %s", cases[i].body,
                      e.message);
        ck_assert_int_eq(e.line, cases[i].line);
        ck_assert_int_eq(e.column, cases[i].column);
    }
}
END_TEST

/* A body jansson takes is loaded once, as jin_load_object loads it. */
START_TEST(test_envelope_plain)
{
    jin_refused *r;
    size_t n;
    gj_error e;
    json_t *root = envelope("{\"items\": [1, {\"a\": 2}]}", &r, &n, &e);
    ck_assert_ptr_nonnull(root);
    ck_assert_ptr_null(r);
    ck_assert_uint_eq(n, 0);
    json_decref(root);
    ck_assert_ptr_null(envelope("{\"items\": [1], \"x\": 2}", &r, &n, &e));
    ck_assert_str_eq(e.field, "x");
}
END_TEST

int main(void)
{
    const harness_case cases[] = {
        {"nul", test_nul_bytes},
        {"depth", test_deep_nesting},
        {"member", test_member_array_spans},
        {"member", test_member_array_which},
        {"jansson", test_agrees_with_jansson},
        {"envelope", test_envelope_big_integer},
        {"envelope", test_envelope_refusals},
        {"envelope", test_envelope_deep_item},
        {"envelope", test_envelope_errors},
        {"envelope", test_envelope_plain},
    };
    Suite *s = harness_suite("json scan", cases, sizeof cases / sizeof cases[0], 60);
    harness_add_loop(s, "valid", test_valid_texts,
                     (int)(sizeof valid_texts / sizeof valid_texts[0]), 0);
    harness_add_loop(s, "invalid", test_invalid_texts,
                     (int)(sizeof invalid_texts / sizeof invalid_texts[0]), 0);
    return harness_main(s);
}
