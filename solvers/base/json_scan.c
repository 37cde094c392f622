/* json_scan.c - the strict JSON syntax scanner (json_scan.h). */
#include "json_scan.h"

#include <stdlib.h>
#include <string.h>

#include "reader.h"

typedef struct scanner {
    const unsigned char *s;
    size_t len, pos;
    unsigned char *kinds; /* a bit per open container, by depth: 1 object, 0 array */
    size_t depth;
    const char *key; /* the member looked for, NULL for none */
    jscan_array *a;  /* where its array goes */
    int pending;     /* the member's name was just read: its value comes next */
    int tried;       /* the member was met (only its first value counts) */
    int inside;      /* scanning the member's array (depth 2 is its level) */
} scanner;

/* Skip JSON's blanks (RFC 8259: space, tab, line feed, carriage return). */
static void skip_blanks(scanner *sc)
{
    while (sc->pos < sc->len) {
        unsigned char c = sc->s[sc->pos];
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
            return;
        sc->pos++;
    }
}

/* The byte at the position, or -1 at the end. */
static int peek(const scanner *sc)
{
    return sc->pos < sc->len ? sc->s[sc->pos] : -1;
}

/* Whether the byte at the position is a decimal digit. */
static int at_digit(const scanner *sc)
{
    int c = peek(sc);
    return c >= '0' && c <= '9';
}

/* Skip decimal digits. */
static void skip_digits(scanner *sc)
{
    while (at_digit(sc))
        sc->pos++;
}

/* The length of the valid UTF-8 sequence of the non-ASCII character at
 * s[0..left), or 0 (RFC 3629: no overlong form, no surrogate, nothing
 * past U+10FFFF), as jansson checks. */
static size_t utf8_char(const unsigned char *s, size_t left)
{
    unsigned char c = s[0], lo = 0x80, hi = 0xbf;
    size_t n;
    if (c >= 0xc2 && c <= 0xdf) {
        n = 2;
    } else if (c >= 0xe0 && c <= 0xef) {
        n = 3;
        lo = c == 0xe0 ? 0xa0 : lo; /* overlong below U+0800 */
        hi = c == 0xed ? 0x9f : hi; /* U+D800..U+DFFF */
    } else if (c >= 0xf0 && c <= 0xf4) {
        n = 4;
        lo = c == 0xf0 ? 0x90 : lo; /* overlong below U+10000 */
        hi = c == 0xf4 ? 0x8f : hi; /* past U+10FFFF */
    } else {
        return 0;
    }
    if (n > left || s[1] < lo || s[1] > hi)
        return 0;
    for (size_t i = 2; i < n; i++)
        if ((s[i] & 0xc0) != 0x80)
            return 0;
    return n;
}

/* One character of a string at the position (not its closing quote):
 * its byte when it is ASCII (escapes decoded), -2 for any other character,
 * -1 when it is not a valid string character; the position moves past it. */
static int string_char(scanner *sc)
{
    static const char escapes[] = "\"\\/bfnrt", meanings[] = "\"\\/\b\f\n\r\t";
    unsigned char c = sc->s[sc->pos];
    if (c < 0x20)
        return -1; /* control characters must be escaped */
    if (c >= 0x80) {
        size_t n = utf8_char(sc->s + sc->pos, sc->len - sc->pos);
        sc->pos += n;
        return n == 0 ? -1 : -2;
    }
    sc->pos++;
    if (c != '\\')
        return c;
    if (sc->pos >= sc->len)
        return -1;
    unsigned char x = sc->s[sc->pos++];
    const char *e = x != '\0' ? strchr(escapes, x) : NULL;
    if (e != NULL)
        return meanings[e - escapes];
    if (x != 'u' || sc->len - sc->pos < 4)
        return -1;
    int v = 0;
    for (int i = 0; i < 4; i++) {
        int h = reader_hex_value((unsigned char)sc->s[sc->pos++]);
        if (h < 0)
            return -1;
        v = v * 16 + h;
    }
    return v < 0x80 ? v : -2; /* a surrogate is grammar: jansson judges it */
}

/* Scan the string at the position (its opening quote); the position moves
 * past its closing quote.  0, or -1 when it is not a JSON string.  *same
 * (when not NULL) says whether it decodes to exactly sc->key. */
static int scan_string(scanner *sc, int *same)
{
    const char *key = sc->key;
    size_t k = 0;
    int equal = key != NULL;
    sc->pos++;
    for (;;) {
        if (sc->pos >= sc->len)
            return -1;
        if (sc->s[sc->pos] == '"')
            break;
        int c = string_char(sc);
        if (c == -1)
            return -1;
        if (equal) {
            equal = c >= 0 && key[k] != '\0' && (unsigned char)key[k] == c;
            k++;
        }
    }
    sc->pos++;
    if (same != NULL)
        *same = equal && key[k] == '\0';
    return 0;
}

/* Scan the number at the position: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
 * of any length.  0, or -1. */
static int scan_number(scanner *sc)
{
    if (peek(sc) == '-')
        sc->pos++;
    if (peek(sc) == '0')
        sc->pos++;
    else if (at_digit(sc))
        skip_digits(sc);
    else
        return -1;
    if (peek(sc) == '.') {
        sc->pos++;
        if (!at_digit(sc))
            return -1;
        skip_digits(sc);
    }
    if (peek(sc) == 'e' || peek(sc) == 'E') {
        sc->pos++;
        if (peek(sc) == '+' || peek(sc) == '-')
            sc->pos++;
        if (!at_digit(sc))
            return -1;
        skip_digits(sc);
    }
    return 0;
}

/* Scan the literal `word` at the position: 0, or -1. */
static int scan_word(scanner *sc, const char *word)
{
    size_t n = strlen(word);
    if (sc->len - sc->pos < n || memcmp(sc->s + sc->pos, word, n) != 0)
        return -1;
    sc->pos += n;
    return 0;
}

/* Open a container (1 object, 0 array) at the position.  The stack holds
 * a bit for every byte of input, so it cannot overflow. */
static void push(scanner *sc, int object)
{
    unsigned char bit = (unsigned char)(1u << (sc->depth % 8));
    if (object)
        sc->kinds[sc->depth / 8] |= bit;
    else
        sc->kinds[sc->depth / 8] &= (unsigned char)~bit;
    sc->depth++;
    sc->pos++;
}

/* Whether the innermost open container is an object. */
static int in_object(const scanner *sc)
{
    size_t d = sc->depth - 1;
    return (sc->kinds[d / 8] >> (d % 8)) & 1;
}

/* Close the innermost container at the position (its bracket); closing
 * the member's array ends it. */
static void pop(scanner *sc)
{
    sc->pos++;
    sc->depth--;
    if (sc->inside && sc->depth == 1) {
        sc->inside = 0;
        sc->a->whole.end = sc->pos;
    }
}

/* Note that an element of the member's array begins at the position:
 * 0, or -1 when memory is short. */
static int element_begins(scanner *sc)
{
    jscan_array *a = sc->a;
    if ((a->n & (a->n - 1)) == 0) { /* 0, 1, 2, 4, ...: full, double it */
        jscan_span *more = realloc(a->elems, (a->n ? 2 * a->n : 1) * sizeof *more);
        if (more == NULL)
            return -1;
        a->elems = more;
    }
    a->elems[a->n].begin = sc->pos;
    a->elems[a->n].end = sc->pos;
    a->n++;
    return 0;
}

/* Where the scan goes next. */
typedef enum step {
    STEP_VALUE, /* a value comes */
    STEP_AFTER, /* a value has ended */
    STEP_KEY,   /* a member's name comes */
    STEP_DONE,
    STEP_INVALID,
    STEP_NOMEM,
} step;

/* A value at the position (after blanks). */
static step on_value(scanner *sc)
{
    if (sc->inside && sc->depth == 2 && element_begins(sc) != 0)
        return STEP_NOMEM;
    int member = sc->pending;
    sc->pending = 0;
    switch (peek(sc)) {
    case '{':
        push(sc, 1);
        skip_blanks(sc);
        if (peek(sc) != '}')
            return STEP_KEY;
        pop(sc);
        return STEP_AFTER;
    case '[':
        push(sc, 0);
        if (member) { /* the member's value is an array: split it */
            sc->inside = 1;
            sc->a->whole.begin = sc->pos - 1;
        }
        skip_blanks(sc);
        if (peek(sc) != ']')
            return STEP_VALUE;
        pop(sc);
        return STEP_AFTER;
    case '"':
        return scan_string(sc, NULL) == 0 ? STEP_AFTER : STEP_INVALID;
    case 't':
        return scan_word(sc, "true") == 0 ? STEP_AFTER : STEP_INVALID;
    case 'f':
        return scan_word(sc, "false") == 0 ? STEP_AFTER : STEP_INVALID;
    case 'n':
        return scan_word(sc, "null") == 0 ? STEP_AFTER : STEP_INVALID;
    default:
        return scan_number(sc) == 0 ? STEP_AFTER : STEP_INVALID;
    }
}

/* After a value: a comma, the container's close, or the end. */
static step on_after(scanner *sc)
{
    if (sc->inside && sc->depth == 2)
        sc->a->elems[sc->a->n - 1].end = sc->pos;
    skip_blanks(sc);
    if (sc->depth == 0)
        return sc->pos == sc->len ? STEP_DONE : STEP_INVALID;
    int c = peek(sc), object = in_object(sc);
    if (c == ',') {
        sc->pos++;
        return object ? STEP_KEY : STEP_VALUE;
    }
    if (c == (object ? '}' : ']')) {
        pop(sc);
        return STEP_AFTER;
    }
    return STEP_INVALID;
}

/* A member's name and its colon (blanks allowed around both). */
static step on_key(scanner *sc)
{
    int same = 0;
    skip_blanks(sc);
    if (peek(sc) != '"' || scan_string(sc, sc->depth == 1 && !sc->tried ? &same : NULL) != 0)
        return STEP_INVALID;
    if (same) {
        sc->tried = 1;
        sc->pending = 1;
    }
    skip_blanks(sc);
    if (peek(sc) != ':')
        return STEP_INVALID;
    sc->pos++;
    return STEP_VALUE;
}

/* Scan the whole input, looking for `key`'s array into *a (key NULL: none). */
static jscan_result scan(const char *buf, size_t len, const char *key, jscan_array *a)
{
    jscan_array none;
    memset(&none, 0, sizeof none);
    scanner sc = {.s = (const unsigned char *)buf, .len = len, .key = key, .a = a ? a : &none};
    memset(sc.a, 0, sizeof *sc.a);
    sc.kinds = malloc(len / 8 + 1);
    if (sc.kinds == NULL)
        return JSCAN_NOMEM;
    step st = STEP_VALUE;
    while (st != STEP_DONE && st != STEP_INVALID && st != STEP_NOMEM) {
        if (st == STEP_VALUE) {
            skip_blanks(&sc);
            st = on_value(&sc);
        } else if (st == STEP_AFTER) {
            st = on_after(&sc);
        } else {
            st = on_key(&sc);
        }
    }
    free(sc.kinds);
    int found = st == STEP_DONE && sc.a->whole.end > 0;
    if (!found)
        jscan_array_free(sc.a);
    return st == STEP_NOMEM     ? JSCAN_NOMEM
           : st == STEP_INVALID ? JSCAN_INVALID
           : found              ? JSCAN_FOUND
                                : JSCAN_VALID;
}

/* One JSON text of any type (json_scan.h). */
jscan_result jscan_valid(const char *buf, size_t len)
{
    return scan(buf, len, NULL, NULL);
}

/* One JSON text, and key's array when it holds one (json_scan.h). */
jscan_result jscan_member_array(const char *buf, size_t len, const char *key, jscan_array *a)
{
    return scan(buf, len, key, a);
}

/* Free and empty *a (json_scan.h). */
void jscan_array_free(jscan_array *a)
{
    free(a->elems);
    memset(a, 0, sizeof *a);
}
