/* judge.c - token-by-token comparison with line numbers. */
#include "judge.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_out.h"

#define QUOTE_MAX 64

typedef struct scanner {
    const char *p, *end;
    long line;
} scanner;

/* Is c an ASCII whitespace byte?  Not isspace(): no locale, and no undefined behaviour for
 * negative chars. */
static int is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

/* The next token, or text NULL at the end (line then counts every line
 * break seen, so a missing token is placed after the last one). */
static judge_token next_token(scanner *s)
{
    while (s->p < s->end && is_space(*s->p)) {
        if (*s->p == '\n')
            s->line++;
        s->p++;
    }
    judge_token t = {NULL, 0, s->line};
    if (s->p == s->end)
        return t;
    t.text = s->p;
    while (s->p < s->end && !is_space(*s->p))
        s->p++;
    t.len = (size_t)(s->p - t.text);
    return t;
}

/* Do two tokens, both with text, hold the same bytes?  Their lines are not compared. */
static int same_text(const judge_token *a, const judge_token *b)
{
    return a->len == b->len && memcmp(a->text, b->text, a->len) == 0;
}

void judge_compare(const char *expected, size_t expected_len, const char *found, size_t found_len,
                   judge_result *r)
{
    scanner want = {expected, expected + expected_len, 1};
    scanner got = {found, found + found_len, 1};
    int misplaced = 0;
    memset(r, 0, sizeof *r);
    r->verdict = JUDGE_ACCEPTED;
    for (long i = 1;; i++) {
        judge_token a = next_token(&want), b = next_token(&got);
        if (a.text == NULL && b.text == NULL)
            return;
        if (a.text == NULL || b.text == NULL || !same_text(&a, &b)) {
            r->verdict = JUDGE_WRONG_ANSWER;
            r->index = i;
            r->expected = a;
            r->found = b;
            return;
        }
        /* Keep the first misplaced token, but a wrong token later wins. */
        if (a.line != b.line && !misplaced) {
            misplaced = 1;
            r->verdict = JUDGE_PRESENTATION_ERROR;
            r->index = i;
            r->expected = a;
            r->found = b;
        }
    }
}

const char *judge_verdict_name(judge_verdict v)
{
    switch (v) {
    case JUDGE_ACCEPTED:
        return "accepted";
    case JUDGE_WRONG_ANSWER:
        return "wrong_answer";
    case JUDGE_PRESENTATION_ERROR:
        return "presentation_error";
    }
    return "?";
}

/* Tokens are quoted up to QUOTE_MAX bytes, cut where a UTF-8 character
 * starts (the submission came through JSON, so it is UTF-8; only a cut
 * could break it). */
static int quoted_len(const judge_token *t)
{
    size_t n = t->len;
    if (n > QUOTE_MAX) {
        n = QUOTE_MAX;
        while (n > 0 && ((unsigned char)t->text[n] & 0xc0) == 0x80)
            n--;
    }
    return (int)n;
}

/* A new JSON string of t cut to quoted_len, null for a missing token, "?" if it is not
 * valid UTF-8. */
static json_t *quote(const judge_token *t)
{
    if (t->text == NULL)
        return json_null();
    json_t *s = json_stringn(t->text, (size_t)quoted_len(t));
    return s ? s : json_string("?");
}

/* The sentence saying where a rejected result's first difference is and what differs, into
 * out (cap bytes, truncated if longer). */
static void describe(const judge_result *r, char *out, size_t cap)
{
    int elen = r->expected.text ? quoted_len(&r->expected) : 0;
    int flen = r->found.text ? quoted_len(&r->found) : 0;
    if (r->verdict == JUDGE_PRESENTATION_ERROR)
        snprintf(out, cap, "token %ld ('%.*s') is on line %ld; expected on line %ld", r->index,
                 flen, r->found.text, r->found.line, r->expected.line);
    else if (r->found.text == NULL)
        snprintf(out, cap, "line %ld: the output ends where '%.*s' was expected", r->found.line,
                 elen, r->expected.text);
    else if (r->expected.text == NULL)
        snprintf(out, cap, "line %ld: '%.*s' found after the expected output ended", r->found.line,
                 flen, r->found.text);
    else
        snprintf(out, cap, "line %ld: expected '%.*s', found '%.*s'", r->found.line, elen,
                 r->expected.text, flen, r->found.text);
}

json_t *judge_object(const char *game, const judge_result *r)
{
    json_t *diff = json_null();
    if (r->verdict != JUDGE_ACCEPTED) {
        char message[256];
        describe(r, message, sizeof message);
        json_t *m = json_string(message);
        diff = json_pack("{s:I,s:I,s:I,s:o,s:o,s:o*}", "line", (json_int_t)r->found.line,
                         "expected_line", (json_int_t)r->expected.line, "token",
                         (json_int_t)r->index, "expected", quote(&r->expected), "found",
                         quote(&r->found), "message", m ? m : json_string("?"));
    }
    json_t *root = json_pack("{s:s,s:o*}", "verdict", judge_verdict_name(r->verdict),
                             "first_difference", diff);
    if (root != NULL && game != NULL) {
        json_t *named = json_pack("{s:s}", "game", game);
        if (named != NULL && json_object_update(named, root) == 0) {
            json_decref(root);
            return named;
        }
        json_decref(named);
        json_decref(root);
        return NULL;
    }
    return root;
}

void judge_write_json(const char *game, const judge_result *r, gj_buf *out)
{
    json_out_append(out, judge_object(game, r), JSON_COMPACT);
}
