/* reader.h - a fast reader for judge-format text.
 *
 * Judge input is whitespace-separated tokens; the reader walks the caller's
 * bytes in place (no copy), keeps the current line so every error can say
 * "line L, column C: ...", and never reads past `end`.  Each function skips
 * leading whitespace itself; whitespace is reader_is_space's six bytes. */
#ifndef GJ_READER_H
#define GJ_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "error.h"

typedef struct gj_reader {
    const char *p;          /* next unread byte */
    const char *end;        /* one past the last byte */
    const char *line_start; /* first byte of the current line */
    long line;              /* 1-based number of the current line */
} gj_reader;

void reader_init(gj_reader *r, const char *buf, size_t len);

/* The value of the hex digit c (either case), or -1: one reading of %XX
 * and \uXXXX for every parser (query.c, json_scan.c). */
static inline int reader_hex_value(unsigned char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* Whitespace between tokens: space, \t, \n, \v, \f and \r (C's isspace
 * in the C locale, without the locale lookup). */
static inline bool reader_is_space(unsigned char c)
{
    return c == ' ' || (unsigned)(c - '\t') <= (unsigned)('\r' - '\t');
}

/* Move r->p past whitespace, counting the lines it crosses. */
static inline __attribute__((always_inline)) void reader_skip_space(gj_reader *r)
{
    const char *p = r->p;
    while (p < r->end && reader_is_space((unsigned char)*p)) {
        if (*p == '\n') {
            r->line++;
            r->line_start = p + 1;
        }
        p++;
    }
    r->p = p;
}

/* Read one decimal integer (optional sign) in [lo, hi]; `what` names it in
 * errors ("the value of n", "row 3, column 2 of A").  Use reader_long: this
 * is its general path. */
int reader_long_slow(gj_reader *r, const char *what, long lo, long hi, long *out, gj_error *e);

/* reader_long's common case, inline: whitespace, 1..9 digits, then
 * whitespace, with at least 10 bytes left.  That is almost every number of a
 * large input, and the call, the sign, the overflow check and the general
 * whitespace test cost more than the digits themselves.  Anything else (a
 * sign, a long number, a bad byte, the last few bytes, a value out of range)
 * takes the general path from the first byte of the token, so errors read
 * exactly as before.
 *
 * The first eight bytes are read as one word (SWAR): a byte is a digit when
 * its high nibble is 3 and adding 6 keeps it so; the lowest byte that is
 * not gives the length, and three multiplications fold up to eight digits,
 * shifted so that the missing ones act as leading zeros, into the value. */
static inline __attribute__((always_inline)) int
reader_long(gj_reader *r, const char *what, long lo, long hi, long *out, gj_error *e)
{
    reader_skip_space(r);
    const char *p = r->p, *end = r->end;
    if (end - p < 10)
        return reader_long_slow(r, what, lo, hi, out, e);
    uint64_t w;
    memcpy(&w, p, 8);
    const uint64_t high = 0xF0F0F0F0F0F0F0F0ULL, threes = 0x3030303030303030ULL;
    uint64_t not_digit = ((w & high) ^ threes) | (((w + 0x0606060606060606ULL) & high) ^ threes);
    int len = not_digit ? __builtin_ctzll(not_digit) >> 3 : 8;
    if (len == 0)
        return reader_long_slow(r, what, lo, hi, out, e);
    uint64_t v = w << (8 * (8 - len));
    v = ((v & 0x0F0F0F0F0F0F0F0FULL) * 2561) >> 8;
    v = ((v & 0x00FF00FF00FF00FFULL) * 6553601) >> 16;
    v = ((v & 0x0000FFFF0000FFFFULL) * 42949672960001ULL) >> 32;
    const char *q = p + len; /* q <= p + 8: in bounds, as is q[1] */
    unsigned d = (unsigned)(unsigned char)*q - '0';
    if (len == 8 && d <= 9) {
        v = v * 10 + d;
        q++;
    }
    if (!reader_is_space((unsigned char)*q) || (long)v < lo || (long)v > hi)
        return reader_long_slow(r, what, lo, hi, out, e);
    r->p = q;
    *out = (long)v;
    return 0;
}

/* Read one whitespace-delimited token, such as a grid row.  *word points into
 * the input; *line and *column (either may be NULL) give where it starts. */
int reader_word(gj_reader *r, const char *what, const char **word, size_t *len, long *line,
                long *column, gj_error *e);

/* Succeed only when nothing but whitespace is left. */
int reader_end(gj_reader *r, gj_error *e);

/* Quote a token for an error message: at most `cap`-1 bytes, with bytes
 * outside printable ASCII written as \xNN and long tokens cut with "...". */
void reader_quote(const char *tok, size_t len, char *out, size_t cap);

/* Quote the character at s[at] (of a token of len bytes) for an error
 * message: the whole UTF-8 sequence when the byte starts one, so a
 * misplaced "é" reads as itself rather than as half of it. */
void reader_quote_char(const char *s, size_t len, size_t at, char *out, size_t cap);

#endif
