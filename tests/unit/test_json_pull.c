/* test_json_pull.c - the chunk-fed reader (json_pull.h) against
 * jin_load_object, the reader it must agree with.
 *
 * Bodies are generated from fixed seeds: valid ones of every kind (nesting,
 * escapes, UTF-8, numbers at the edges of long long and double, whitespace
 * over many lines) and mutations of them (bytes flipped, cut, inserted,
 * keys repeated, nesting past jansson's depth, huge numbers, bad UTF-8,
 * NUL bytes).  Each is fed whole, a byte at a time and in random pieces;
 * every feeding must give jansson's verdict, the values of jansson's tree
 * in order (the events printed beside a walk of the tree) and, on a
 * refusal, the very message, line and column.  json_tree (json_tree.h),
 * read through tree_read (tree_read.h) and fed the same ways, must build
 * jansson's very tree, keys in order, or refuse with the same error. */
#include <check.h>
#include <jansson.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "harness.h"
#include "json_in.h"
#include "json_pull.h"
#include "json_tree.h"
#include "tree_read.h"

/* Print a string's bytes to out, escaped, with its length. */
static void print_str(gj_buf *out, const char *s, size_t n)
{
    char head[32];
    snprintf(head, sizeof head, "%zu:", n);
    buf_puts(out, head);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        char x[8];
        if (c >= 0x21 && c < 0x7f && c != '\\')
            buf_putc(out, (char)c);
        else {
            snprintf(x, sizeof x, "\\%02x", c);
            buf_puts(out, x);
        }
    }
    buf_putc(out, '\n');
}

/* One event as a line: depth, kind and value (reals in hex, sign kept). */
static void print_event(gj_buf *out, int depth, jpull_kind kind, const char *s, size_t n,
                        long long i, double r)
{
    char line[96];
    snprintf(line, sizeof line, "%d %d ", depth, (int)kind);
    buf_puts(out, line);
    switch (kind) {
    case JPULL_KEY:
    case JPULL_STRING:
        print_str(out, s, n);
        return;
    case JPULL_INTEGER:
        snprintf(line, sizeof line, "%lld\n", i);
        break;
    case JPULL_REAL:
        snprintf(line, sizeof line, "%a\n", r);
        break;
    default:
        snprintf(line, sizeof line, "\n");
    }
    buf_puts(out, line);
}

/* What the test consumer does. */
typedef struct sink {
    gj_buf out;
    long events;
    long stop_at; /* stop (or abort) at this event, -1 never */
    int how;      /* JPULL_STOP or JPULL_ABORT */
} sink;

/* The consumer: prints each event, stops where told. */
static int collect(void *ctx, const jpull_event *ev, gj_error *e)
{
    sink *s = ctx;
    ck_assert(s->stop_at < 0 || s->events <= s->stop_at); /* nothing after a stop */
    if (s->events++ == s->stop_at) {
        gj_fail(e, GJ_BAD_INPUT, "stopped at event %ld", s->stop_at);
        return s->how;
    }
    if (ev->str != NULL)
        ck_assert_int_eq(ev->str[ev->len], '\0');
    print_event(&s->out, ev->depth, ev->kind, ev->str, ev->len, ev->integer, ev->real);
    return JPULL_GO;
}

/* jansson's tree walked, iteratively, into the events json_pull must give. */
static void walk(const json_t *root, gj_buf *out)
{
    struct frame {
        const json_t *v;
        void *iter;
        size_t index;
    } stack[2100];
    int top = 0;
    const json_t *v = root;
    for (;;) {
        /* v is a value to open or print, at depth top */
        if (v != NULL) {
            switch (json_typeof(v)) {
            case JSON_OBJECT:
                print_event(out, top, JPULL_OBJECT_BEGIN, NULL, 0, 0, 0);
                stack[top++] = (struct frame){v, json_object_iter((json_t *)v), 0};
                break;
            case JSON_ARRAY:
                print_event(out, top, JPULL_ARRAY_BEGIN, NULL, 0, 0, 0);
                stack[top++] = (struct frame){v, NULL, 0};
                break;
            case JSON_STRING:
                print_event(out, top, JPULL_STRING, json_string_value(v), json_string_length(v), 0,
                            0);
                break;
            case JSON_INTEGER:
                print_event(out, top, JPULL_INTEGER, NULL, 0, json_integer_value(v), 0);
                break;
            case JSON_REAL:
                print_event(out, top, JPULL_REAL, NULL, 0, 0, json_real_value(v));
                break;
            case JSON_TRUE:
                print_event(out, top, JPULL_TRUE, NULL, 0, 0, 0);
                break;
            case JSON_FALSE:
                print_event(out, top, JPULL_FALSE, NULL, 0, 0, 0);
                break;
            case JSON_NULL:
                print_event(out, top, JPULL_NULL, NULL, 0, 0, 0);
                break;
            }
        }
        if (top == 0)
            return;
        struct frame *f = &stack[top - 1];
        if (json_is_object(f->v)) {
            if (f->iter == NULL) {
                top--;
                print_event(out, top, JPULL_OBJECT_END, NULL, 0, 0, 0);
                v = NULL;
                continue;
            }
            const char *k = json_object_iter_key(f->iter);
            print_event(out, top, JPULL_KEY, k, json_object_iter_key_len(f->iter), 0, 0);
            v = json_object_iter_value(f->iter);
            f->iter = json_object_iter_next((json_t *)f->v, f->iter);
        } else if (f->index < json_array_size(f->v)) {
            v = json_array_get(f->v, f->index++);
        } else {
            top--;
            print_event(out, top, JPULL_ARRAY_END, NULL, 0, 0, 0);
            v = NULL;
        }
    }
}

/* The next piece's length, at most `left`: all of it (cut 0), one byte
 * (cut 1), else a random length from *rng. */
static size_t piece_len(size_t left, int cut, uint64_t *rng)
{
    size_t n = left;
    if (cut == 1)
        n = 1;
    else if (cut > 1)
        n = 1 + (size_t)rng_below(rng, rng_below(rng, 4) == 0 ? 64 : 8);
    return n < left ? n : left;
}

/* Feed body to a reader in pieces (cut: 0 whole, 1 byte by byte, else
 * random lengths from *rng): the verdict, events in s->out, *e. */
static int pull(const char *body, size_t len, int cut, uint64_t *rng, sink *s, gj_error *e)
{
    jpull *jp = jpull_new(collect, s);
    ck_assert_ptr_nonnull(jp);
    size_t at = 0;
    int rc = 0;
    while (at < len && rc == 0) {
        size_t n = piece_len(len - at, cut, rng);
        rc = jpull_feed(jp, body + at, n, e);
        at += n;
    }
    if (rc == 0)
        rc = jpull_end(jp, e);
    else { /* a failed reader keeps its error */
        gj_error again;
        ck_assert_int_eq(jpull_end(jp, &again), -1);
        ck_assert_str_eq(again.message, e->message);
    }
    jpull_free(jp);
    return rc;
}

/* body read by tree_read (tree_read.h, json_tree's gj_body_reader) in
 * pieces as pull cuts them, its length announced: the tree as compact text
 * (malloc'd), or NULL with *e. */
static char *tree_fed(const char *body, size_t len, int cut, uint64_t *rng, gj_error *e)
{
    void *t = tree_read.open(NULL, len, e);
    ck_assert_ptr_nonnull(t);
    for (size_t at = 0; at < len;) {
        size_t n = piece_len(len - at, cut, rng);
        if (tree_read.feed(t, body + at, n, e) != 0) {
            tree_read.close(t);
            return NULL;
        }
        at += n;
    }
    json_t *root = tree_read.finish(t, e);
    if (root == NULL)
        return NULL;
    char *text = json_dumps(root, JSON_COMPACT);
    ck_assert_ptr_nonnull(text);
    json_decref(root);
    return text;
}

/* The body, printable, for a failure message. */
static const char *shown(const char *body, size_t len)
{
    static char out[600];
    size_t o = 0;
    for (size_t i = 0; i < len && o + 5 < sizeof out; i++) {
        unsigned char c = (unsigned char)body[i];
        if (c >= 0x20 && c < 0x7f)
            out[o++] = (char)c;
        else
            o += (size_t)snprintf(out + o, sizeof out - o, "\\x%02x", c);
    }
    out[o] = '\0';
    return out;
}

/* Counts over a run, to be sure each kind of body was met. */
typedef struct tally {
    long accepted, refused, stopped;
    long trees; /* accepted bodies json_tree built as jansson did */
} tally;

/* body must get jin_load_object's verdict, values and error from every
 * feeding, and a consumer that stops or aborts must be answered as the
 * contract says. */
static void same_as_jansson(const char *body, size_t len, uint64_t *rng, tally *t)
{
    gj_error want;
    gj_error_clear(&want);
    json_t *root = jin_load_object(body, len, NULL, &want);
    gj_buf tree;
    buf_init(&tree);
    if (root != NULL)
        walk(root, &tree);
    for (int cut = 0; cut < 4; cut++) {
        sink s = {.stop_at = -1};
        buf_init(&s.out);
        gj_error got;
        gj_error_clear(&got);
        int rc = pull(body, len, cut, rng, &s, &got);
        if (root == NULL) {
            ck_assert_msg(rc == -1, "accepted, jansson: %s\n  body: %s", want.message,
                          shown(body, len));
            ck_assert_msg(strcmp(got.message, want.message) == 0 && got.line == want.line &&
                              got.column == want.column && got.kind == want.kind,
                          "cut %d\n  got:  %s (%ld:%ld)\n  want: %s (%ld:%ld)\n  body: %s", cut,
                          got.message, got.line, got.column, want.message, want.line, want.column,
                          shown(body, len));
            /* json_tree refuses it with the same error, fed the same way. */
            gj_error_clear(&got);
            ck_assert_ptr_null(tree_fed(body, len, cut, rng, &got));
            ck_assert_msg(strcmp(got.message, want.message) == 0 && got.line == want.line &&
                              got.column == want.column && got.kind == want.kind,
                          "tree, cut %d\n  got:  %s (%ld:%ld)\n  want: %s (%ld:%ld)\n  body: %s",
                          cut, got.message, got.line, got.column, want.message, want.line,
                          want.column, shown(body, len));
        } else {
            ck_assert_msg(rc == 0, "refused: %s\n  body: %s", got.message, shown(body, len));
            /* The tree built from the same pieces is jansson's, in order. */
            char *want_text = json_dumps(root, JSON_COMPACT);
            char *got_text = tree_fed(body, len, cut, rng, &got);
            ck_assert_msg(got_text != NULL && strcmp(got_text, want_text) == 0,
                          "cut %d: the tree differs\n  got:  %s\n  want: %s\n  body: %s", cut,
                          got_text ? got_text : got.message, want_text, shown(body, len));
            free(got_text);
            free(want_text);
            t->trees++;
            buf_putc(&s.out, '\0');
            buf_putc(&tree, '\0');
            ck_assert_msg(strcmp(s.out.data, tree.data) == 0,
                          "cut %d events differ\n  got:\n%s\n  want:\n%s\n  body: %s", cut,
                          s.out.data, tree.data, shown(body, len));
            tree.len--;
        }
        buf_free(&s.out);
    }
    /* A consumer that stops: its error only if the body is JSON. */
    long nevents = 0;
    for (size_t i = 0; i < tree.len; i++)
        nevents += tree.data[i] == '\n';
    sink s = {.stop_at = (long)rng_below(rng, (uint64_t)nevents + 3),
              .how = rng_below(rng, 2) ? JPULL_STOP : JPULL_ABORT};
    buf_init(&s.out);
    gj_error got;
    int rc = pull(body, len, 2, rng, &s, &got);
    int stopped = root != NULL ? s.stop_at < nevents : s.events > s.stop_at;
    if (stopped && (s.how == JPULL_ABORT || root != NULL)) {
        ck_assert_int_eq(rc, -1);
        char msg[64];
        snprintf(msg, sizeof msg, "stopped at event %ld", s.stop_at);
        ck_assert_msg(strcmp(got.message, msg) == 0, "got %s, want %s\n  body: %s", got.message,
                      msg, shown(body, len));
        t->stopped++;
    } else if (root == NULL) {
        ck_assert_int_eq(rc, -1);
        ck_assert_str_eq(got.message, want.message);
    } else {
        ck_assert_int_eq(rc, 0);
    }
    buf_free(&s.out);
    buf_free(&tree);
    if (root != NULL) {
        t->accepted++;
        json_decref(root);
    } else {
        t->refused++;
    }
}

/* Random pieces a generated body is made of: those jansson takes first,
 * then (past the GOOD_ count) those it refuses, drawn now and then. */
static const char *const numbers[] = {
    "0",
    "-0",
    "1",
    "-1",
    "9223372036854775807",
    "-9223372036854775808",
    "123456789012345678",
    "1234567890123456789",
    "-123456789012345678",
    "0.0",
    "-0.0",
    "1e2",
    "1E+2",
    "1e-2",
    "-1.5e-3",
    "1.7976931348623157e308",
    "4.9e-324",
    "1e-400",
    "2.2250738585072014e-308",
    "0.1",
    "123.456e7",
    "1e0",
    "0e0",
    "-0e-0",
    "3.141592653589793238462643383279",
    /* refused */
    "9223372036854775808",
    "-9223372036854775809",
    "99999999999999999999999",
    "1.8e308",
    "-1e309",
};
#define GOOD_NUMBERS 25
static const char *const strings[] = {
    "",
    "a",
    "key",
    "caf\xc3\xa9",
    "\xe2\x82\xac",
    "\xf0\x9f\x98\x80",
    "\\n",
    "\\\"q\\\"",
    "\\\\",
    "\\/\\b\\f\\r\\t",
    "\\u0041",
    "\\u00e9\\u20AC",
    "\\ud83d\\ude00",
    "x y z",
    "long string of text over twenty chars",
    /* refused */
    "\\uD800",
    "\\udc00",
    "\\ud800\\u0041",
    "\\ud800x",
    "\\u0000",
    "a\\u0000b",
    "\\ud83d\\ud83d",
    "\\ud800\\n",
};
#define GOOD_STRINGS 15

/* One of the n pieces of `from`, the first `good` of them but one time in 40. */
static const char *piece(const char *const *from, size_t n, size_t good, uint64_t *rng)
{
    return from[rng_below(rng, rng_below(rng, 40) == 0 ? n : good)];
}

static const char *const spaces[] = {"", "", "", " ", "\n", "\t", "\r\n", "  \n\n ", "\n   "};

/* A generated value appended to out: containers while depth allows, with
 * an explicit stack of how many members each open one still wants. */
static void gen_value(gj_buf *out, uint64_t *rng, int maxdepth)
{
    int left[64];
    int is_obj[64];
    int top = 0;
    int first[64];
    int members[64]; /* members so far */
    int want_value = 1;
    for (;;) {
        if (want_value) {
            buf_puts(out, spaces[rng_below(rng, sizeof spaces / sizeof spaces[0])]);
            uint64_t k = rng_below(rng, 10);
            if (top < maxdepth && top < 60 && (k < 4 || top == 0)) {
                is_obj[top] = top == 0 || rng_below(rng, 2);
                /* now and then an object or array past JP_SCAN_KEYS members,
                 * where the duplicate check is a hash */
                left[top] = (int)rng_below(rng, rng_below(rng, 12) == 0 ? 100 : 6);
                first[top] = 1;
                members[top] = 0;
                buf_putc(out, is_obj[top] ? '{' : '[');
                top++;
            } else if (k < 6) {
                buf_putc(out, '"');
                buf_puts(out,
                         piece(strings, sizeof strings / sizeof strings[0], GOOD_STRINGS, rng));
                buf_putc(out, '"');
            } else if (k < 8) {
                buf_puts(out,
                         piece(numbers, sizeof numbers / sizeof numbers[0], GOOD_NUMBERS, rng));
            } else {
                static const char *const words[] = {"true", "false", "null"};
                buf_puts(out, words[rng_below(rng, 3)]);
            }
            want_value = 0;
        }
        if (top == 0)
            return;
        buf_puts(out, spaces[rng_below(rng, sizeof spaces / sizeof spaces[0])]);
        int t = top - 1;
        if (left[t] == 0) {
            buf_putc(out, is_obj[t] ? '}' : ']');
            top--;
            continue;
        }
        left[t]--;
        if (!first[t])
            buf_putc(out, ',');
        first[t] = 0;
        members[t]++;
        if (is_obj[t] && members[t] >= 16) {
            /* keys past the scan all differ, but the last may repeat
             * any: the hash index must find it */
            char key[48];
            int k = members[t];
            if (left[t] == 0 && k > 16 && rng_below(rng, 2))
                k = 16 + (int)rng_below(rng, (uint64_t)k - 16);
            snprintf(key, sizeof key, "\"b%d\":", k);
            buf_puts(out, key);
        } else if (is_obj[t] && rng_below(rng, 8) == 0) { /* escapes and UTF-8 in keys */
            buf_putc(out, '"');
            buf_puts(out, piece(strings, sizeof strings / sizeof strings[0], GOOD_STRINGS, rng));
            buf_puts(out, "\":");
        } else if (is_obj[t]) {
            char key[48];
            snprintf(key, sizeof key, "\"k%d\":", (int)rng_below(rng, 60));
            buf_puts(out, key);
        }
        want_value = 1;
    }
}

/* Snippets a mutation inserts. */
static const char *const snippets[] = {
    "\"k1\":1,",
    "\"k1\":",
    ",",
    ":",
    "{",
    "}",
    "[",
    "]",
    "\"",
    "\\",
    "\\u",
    "\\ud800",
    "\xff",
    "\xc3",
    "\xe2\x82",
    "\xed\xa0\x80",
    "\xc0\xaf",
    "\xf4\x90\x80\x80",
    "\x80",
    "\x01",
    "\n",
    "\0",
    "-",
    "0",
    "01",
    "1.",
    "1e",
    "1e+",
    ".5",
    "tru",
    "nul",
    "truex",
    "99999999999999999999",
    "1e999",
    "\\u0000",
    "NaN",
    " ",
    "\t\n",
};

/* body mutated in place (it has room for 64 more bytes): one of flip,
 * cut, insert, repeat a key.  Its new length. */
static size_t mutate(char *body, size_t len, uint64_t *rng)
{
    size_t at = len ? (size_t)rng_below(rng, len) : 0;
    switch (rng_below(rng, 4)) {
    case 0: { /* flip a byte to something that matters */
        static const char flips[] = "{}[]:,\"\\ \n0-e.tu\xff\xc3\x80";
        if (len)
            body[at] = rng_below(rng, 4) ? flips[rng_below(rng, sizeof flips - 1)]
                                         : (char)rng_below(rng, 256);
        return len;
    }
    case 1: /* cut */
        return at;
    case 2: { /* insert */
        const char *s = snippets[rng_below(rng, sizeof snippets / sizeof snippets[0])];
        size_t n = strlen(s) ? strlen(s) : 1; /* "\0" is the NUL byte */
        memmove(body + at + n, body + at, len - at);
        memcpy(body + at, s, n);
        return len + n;
    }
    default: { /* repeat the first key after a '{' */
        char *brace = memchr(body + at, '{', len - at);
        const char *dup = "\"k1\":0,\"k1\":0,";
        if (brace == NULL)
            return len;
        size_t n = strlen(dup), o = (size_t)(brace - body) + 1;
        memmove(body + o + n, body + o, len - o);
        memcpy(body + o, dup, n);
        return len + n;
    }
    }
}

START_TEST(test_generated_bodies)
{
    uint64_t rng = 20261203;
    tally t = {0};
    for (int round = 0; round < 1500; round++) {
        gj_buf b;
        buf_init(&b);
        buf_puts(&b, spaces[rng_below(&rng, sizeof spaces / sizeof spaces[0])]);
        gen_value(&b, &rng, 1 + (int)rng_below(&rng, 6));
        buf_puts(&b, spaces[rng_below(&rng, sizeof spaces / sizeof spaces[0])]);
        ck_assert(!b.failed);
        same_as_jansson(b.data, b.len, &rng, &t);
        char *m = malloc(b.len + 64 * 4);
        ck_assert_ptr_nonnull(m);
        for (int k = 0; k < 3; k++) {
            memcpy(m, b.data, b.len);
            size_t n = b.len;
            int times = 1 + (int)rng_below(&rng, 3);
            for (int j = 0; j < times; j++)
                n = mutate(m, n, &rng);
            same_as_jansson(m, n, &rng, &t);
        }
        free(m);
        buf_free(&b);
    }
    /* every kind of verdict was met, many times */
    ck_assert_int_gt(t.accepted, 800);
    ck_assert_int_gt(t.refused, 2000);
    ck_assert_int_gt(t.stopped, 500);
    ck_assert_int_gt(t.trees, 4 * 800);
}
END_TEST

/* Texts at the edges, each checked as the generated ones. */
static const char *const edge_texts[] = {
    "{}",
    "[]",
    "[1]",
    "1",
    "\"s\"",
    "null",
    "",
    " ",
    "{",
    "}",
    "{\"a\"}",
    "{\"a\":}",
    "{\"a\":1,}",
    "[1,]",
    "[,]",
    "{} {}",
    "{}x",
    "{} \n x",
    "{\"a\":1 \"b\":2}",
    "{\"a\":01}",
    "{\"a\":-}",
    "{\"a\":1.}",
    "{\"a\":1e}",
    "{\"a\":1e+}",
    "{\"a\":.5}",
    "{\"a\":+1}",
    "{\"a\":tru}",
    "{\"a\":truex}",
    "{\"a\":True}",
    "{\"a\":nulll}",
    "{\"a\":\"\\x\"}",
    "{\"a\":\"\\u12\"}",
    "{\"a\":\"\\u12G4\"}",
    "{\"a\":\"\n\"}",
    "{\"a\":\"\t\"}",
    "{\"a\":\"\x7f\"}",
    "{\"a\":\"\\ud800\"}",
    "{\"a\":\"\\udc00\"}",
    "{\"a\":\"\\ud800\\ud800\"}",
    "{\"a\":\"\\ud83d\\ude00\"}",
    "{\"a\\u0000\":1}",
    "{\"a\":\"\\u0000\"}",
    "{\"a\":1,\"a\":2}",
    "{\"a\":{\"a\":1},\"b\":{\"a\":2}}",
    "{\"\":1,\"\":2}",
    "{\"\\u00e9\":1,\"\xc3\xa9\":2}",
    "{\"a\":9223372036854775807}",
    "{\"a\":9223372036854775808}",
    "{\"a\":-9223372036854775808}",
    "{\"a\":-9223372036854775809}",
    "{\"a\":1e308}",
    "{\"a\":1e309}",
    "{\"a\":-1e309}",
    "{\"a\":1e-400}",
    "{\"a\":-0.0}",
    "{\"a\":1E2}",
    "{\"a\":\"\xff\"}",
    "{\"a\":\"\xc3\"}",
    "{\"a\":\"\xc3(\"}",
    "{\"a\":\"\xed\xa0\x80\"}",
    "{\"a\":\"\xf4\x90\x80\x80\"}",
    "{\"a\":\"\xc0\xaf\"}",
    "{\"a\":1}\xff",
    "{\"a\":1\xff}",
    "\xef\xbb\xbf{}",
    "{\"a\":[1,2,3]]",
    "{\"a\":[1,2,3}",
    "{\"a\":[1 2]}",
    "{\"a\":[\"x\" : 1]}",
    "\n\n  {\"a\":\n\n  [1,\n  2,\n  x]}",
    "{\"a\":\"long string of more than twenty characters\" 1}",
    "{\"a\":123456789012345678901}",
    "{\"a\": \"\\u00e9\xc3\xa9\" , \"b\" : [ ] , \"c\" : { } }",
    "{\"x\":1}\n\n\n",
    "{\"a\":\xc3\xa9}",
    "{\xc3\xa9:1}",
};

/* The same check on one edge text (a test loop's i-th). */
START_TEST(test_edge_texts)
{
    uint64_t rng = 7 + (uint64_t)_i;
    tally t = {0};
    same_as_jansson(edge_texts[_i], strlen(edge_texts[_i]), &rng, &t);
}
END_TEST

/* NUL bytes, which C strings cannot hold: jansson loses one pushed back
 * after a number or word and refuses the others. */
START_TEST(test_nul_bytes)
{
    static const struct {
        const char *s;
        size_t n;
    } texts[] = {
        {"[1\0]", 4},
        {"{\"a\":1\0}", 8},
        {"{\"a\":1\0\0}", 9},
        {"{\"a\":true\0}", 11},
        {"{\"a\":1.5\0,\"b\":2}", 16},
        {"{\"a\":-\0}", 8},
        {"{\"a\":1.\0}", 9},
        {"{\"a\":1\0x}", 9},
        {"{} \0", 4},
        {"{\"a\":\"\0\"}", 9},
        {"{\0}", 3},
        {"{\"a\":1 \0}", 9},
        {"{\"a\":1\0\n\0}", 10},
    };
    uint64_t rng = 3;
    tally t = {0};
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++)
        same_as_jansson(texts[i].s, texts[i].n, &rng, &t);
    ck_assert_int_gt(t.accepted, 2);
}
END_TEST

/* Nesting at jansson's limit, one past it and far past it (the reader's
 * own stack is the heap: no input exhausts the C stack). */
START_TEST(test_depth)
{
    static const int depths[] = {2047, 2048, 2049, 100000};
    uint64_t rng = 11;
    tally t = {0};
    for (size_t d = 0; d < sizeof depths / sizeof depths[0]; d++)
        for (int inner = 0; inner < 3; inner++) {
            gj_buf b;
            buf_init(&b);
            int n = depths[d];
            for (int i = 0; i < n; i++)
                buf_puts(&b, i == 0 || i % 2 ? "{\"k\":" : "[");
            buf_puts(&b, inner == 0 ? "1" : inner == 1 ? "[]" : "{}");
            for (int i = n - 1; i >= 0; i--)
                buf_putc(&b, i == 0 || i % 2 ? '}' : ']');
            if (n <= 2049)
                same_as_jansson(b.data, b.len, &rng, &t);
            else { /* too slow to compare each way; the verdict and error alone */
                gj_error want, got;
                ck_assert_ptr_null(jin_load_object(b.data, b.len, NULL, &want));
                sink s = {.stop_at = -1};
                buf_init(&s.out);
                ck_assert_int_eq(pull(b.data, b.len, 0, &rng, &s, &got), -1);
                ck_assert_str_eq(got.message, want.message);
                buf_free(&s.out);
            }
            buf_free(&b);
        }
    ck_assert_int_eq(t.accepted, 3); /* 2047 deep, with 1, [] or {} inside */
    ck_assert_int_gt(t.refused, 2);
}
END_TEST

/* A consumer's stop waits for the end, where a JSON error still wins; an
 * abort ends at once. */
START_TEST(test_stop_and_abort)
{
    const char *body = "{\"a\":1,\"b\":[2,3]} x";
    sink s = {.stop_at = 1, .how = JPULL_STOP};
    buf_init(&s.out);
    gj_error e;
    jpull *jp = jpull_new(collect, &s);
    ck_assert_int_eq(jpull_feed(jp, body, 10, &e), 0);
    ck_assert_int_eq(jpull_feed(jp, body + 10, strlen(body) - 10, &e), 0); /* x may go on */
    ck_assert_int_eq(jpull_end(jp, &e), -1);
    ck_assert_str_eq(e.message, "invalid JSON at line 1, column 19: end of file expected near 'x'");
    jpull_free(jp);
    buf_free(&s.out);
    s = (sink){.stop_at = 1, .how = JPULL_ABORT};
    buf_init(&s.out);
    jp = jpull_new(collect, &s);
    ck_assert_int_eq(jpull_feed(jp, body, 10, &e), -1);
    ck_assert_str_eq(e.message, "stopped at event 1");
    ck_assert_int_eq(jpull_feed(jp, body + 10, 3, &e), -1);
    ck_assert_str_eq(e.message, "stopped at event 1");
    jpull_free(jp);
    buf_free(&s.out);
}
END_TEST

int main(void)
{
    const harness_case cases[] = {
        {"generated", test_generated_bodies},
        {"nul", test_nul_bytes},
        {"depth", test_depth},
        {"stop", test_stop_and_abort},
    };
    Suite *s = harness_suite("json pull", cases, sizeof cases / sizeof cases[0], 120);
    harness_add_loop(s, "edge", test_edge_texts, (int)(sizeof edge_texts / sizeof edge_texts[0]),
                     0);
    return harness_main(s);
}
