/* reader.c - judge-format tokenizer.
 *
 * The integer loop is the hot path for the large inputs (4 million matrix
 * values), so it works on raw bytes with a branch-light digit loop and checks
 * overflow only against a precomputed bound. */
#include "reader.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

void reader_init(gj_reader *r, const char *buf, size_t len)
{
    r->p = buf;
    r->end = buf + len;
    r->line_start = buf;
    r->line = 1;
}

/* The 1-based column of `at` on the current line. */
static long column_of(const gj_reader *r, const char *at)
{
    return (long)(at - r->line_start) + 1;
}

/* Whitespace bytes are all <= 0x20, so a word of eight bytes above 0x20
 * (the usual inside a grid row) is skipped whole; a word that may hold one
 * is walked byte by byte.  (x - 0x21..) & ~x & 0x80.. is non-zero exactly
 * when some byte of x is below 0x21.) */
static size_t token_length(const gj_reader *r, const char *at)
{
    const char *q = at;
    while (r->end - q >= 8) {
        uint64_t x;
        memcpy(&x, q, 8);
        if (((x - 0x2121212121212121ULL) & ~x & 0x8080808080808080ULL) != 0)
            break;
        q += 8;
    }
    while (q < r->end && !reader_is_space((unsigned char)*q))
        q++;
    return (size_t)(q - at);
}

void reader_quote(const char *tok, size_t len, char *out, size_t cap)
{
    static const char hex[] = "0123456789abcdef";
    size_t o = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)tok[i];
        if (o + 8 >= cap) {
            if (o + 4 <= cap) {
                out[o++] = '.';
                out[o++] = '.';
                out[o++] = '.';
            }
            break;
        }
        if (c >= 0x20 && c < 0x7f && c != '\\' && c != '\'') {
            out[o++] = (char)c;
        } else {
            out[o++] = '\\';
            out[o++] = 'x';
            out[o++] = hex[c >> 4];
            out[o++] = hex[c & 15];
        }
    }
    out[o] = '\0';
}

void reader_quote_char(const char *s, size_t len, size_t at, char *out, size_t cap)
{
    size_t n = 1;
    unsigned char c = (unsigned char)s[at];
    if (c >= 0xc0)
        n = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : 2;
    if (n > len - at)
        n = len - at;
    reader_quote(s + at, n, out, cap);
}

/* "expected WHAT, found the end of the input": always -1. */
static int fail_at_end(gj_reader *r, const char *what, gj_error *e)
{
    return gj_fail_at(e, r->line, 0, "expected %s, found the end of the input", what);
}

/* "expected WHAT (KIND), found 'TOKEN'" at the token: always -1. */
static int fail_token(gj_reader *r, const char *at, const char *what, const char *kind, gj_error *e)
{
    char quoted[48];
    reader_quote(at, token_length(r, at), quoted, sizeof quoted);
    return gj_fail_at(e, r->line, column_of(r, at), "expected %s (%s), found '%s'", what, kind,
                      quoted);
}

int reader_long_slow(gj_reader *r, const char *what, long lo, long hi, long *out, gj_error *e)
{
    reader_skip_space(r);
    const char *start = r->p, *p = r->p;
    if (p == r->end)
        return fail_at_end(r, what, e);

    int negative = 0;
    if (*p == '-' || *p == '+') {
        negative = *p == '-';
        p++;
    }
    const char *digits = p;
    unsigned long v = 0;
    int overflow = 0;
    while (p < r->end && (unsigned)(*p - '0') < 10) {
        unsigned d = (unsigned)(*p - '0');
        if (v > (ULONG_MAX - d) / 10)
            overflow = 1;
        else
            v = v * 10 + d;
        p++;
    }
    if (p == digits || (p < r->end && !reader_is_space((unsigned char)*p)))
        return fail_token(r, start, what, "an integer", e);

    r->p = p;
    long value;
    if (overflow || (!negative && v > (unsigned long)LONG_MAX) ||
        (negative && v > (unsigned long)LONG_MAX + 1UL)) {
        char quoted[48];
        reader_quote(start, (size_t)(p - start), quoted, sizeof quoted);
        return gj_fail_at(e, r->line, column_of(r, start),
                          "%s must be between %ld and %ld, found %s", what, lo, hi, quoted);
    }
    value = negative ? (long)(0UL - v) : (long)v;
    if (value < lo || value > hi)
        return gj_fail_at(e, r->line, column_of(r, start),
                          "%s must be between %ld and %ld, found %ld", what, lo, hi, value);
    *out = value;
    return 0;
}

int reader_word(gj_reader *r, const char *what, const char **word, size_t *len, long *line,
                long *column, gj_error *e)
{
    reader_skip_space(r);
    if (r->p == r->end)
        return fail_at_end(r, what, e);
    size_t n = token_length(r, r->p);
    *word = r->p;
    *len = n;
    if (line)
        *line = r->line;
    if (column)
        *column = column_of(r, r->p);
    r->p += n;
    return 0;
}

int reader_end(gj_reader *r, gj_error *e)
{
    reader_skip_space(r);
    if (r->p == r->end)
        return 0;
    char quoted[48];
    reader_quote(r->p, token_length(r, r->p), quoted, sizeof quoted);
    return gj_fail_at(e, r->line, column_of(r, r->p),
                      "unexpected '%s' after the end of the position", quoted);
}
