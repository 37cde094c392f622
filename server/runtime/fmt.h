/* fmt.h - a small appender of strings and numbers into caller-owned
 * memory, for what a server formats per request (header values, the access
 * log line): no printf, whose format parsing and locale lookups were a
 * visible share of a tiny request's CPU (bench/NOTES.md), and no heap unless
 * the text outgrows the caller's array.
 *
 * An appender starts on the caller's array (often on the stack).  A fixed
 * one (fmt_init) stops at its capacity and says so in `over`; a growable
 * one (fmt_init_growable) moves to the heap when the array is full, and
 * fmt_release frees what it took.  The text is always NUL-terminated
 * (fmt_str_of), so the capacity holds one byte fewer than it says. */
#ifndef GJ_FMT_H
#define GJ_FMT_H

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

typedef struct fmt_out {
    char *p;
    size_t len, cap; /* cap counts the NUL's byte */
    bool grow;       /* may move to the heap */
    char *mem;       /* the heap copy p points to once grown, else NULL: only this is
                      * ever given to realloc or free, never the caller's array */
    bool over;       /* something did not fit (fixed), or memory ran out (growable) */
} fmt_out;

/* Start a fixed appender on storage[cap] (cap >= 1). */
static inline void fmt_init(fmt_out *o, char *storage, size_t cap)
{
    *o = (fmt_out){.p = storage, .cap = cap};
    storage[0] = '\0';
}

/* Start an appender on storage[cap] that moves to the heap when it is full. */
static inline void fmt_init_growable(fmt_out *o, char *storage, size_t cap)
{
    fmt_init(o, storage, cap);
    o->grow = true;
}

/* Free the heap memory a growable appender took, if any. */
static inline void fmt_release(fmt_out *o)
{
    free(o->mem);
    o->mem = NULL;
}

/* Room for n more bytes and the NUL: true, or false with `over` set. */
static inline bool fmt_room(fmt_out *o, size_t n)
{
    if (o->over)
        return false;
    if (n < o->cap - o->len) /* strictly less: one byte stays for the NUL */
        return true;
    if (!o->grow || n > ((size_t)-1) / 4 - o->len) {
        o->over = true;
        return false;
    }
    size_t cap = (o->len + n + 1) * 2;
    bool first = o->mem == NULL;
    char *p = realloc(o->mem, cap); /* malloc on the first growth */
    if (p == NULL) {
        o->over = true;
        return false;
    }
    if (first)
        memcpy(p, o->p, o->len);
    o->p = o->mem = p;
    o->cap = cap;
    return true;
}

/* Append s[n]; nothing of it when it does not fit. */
static inline void fmt_mem(fmt_out *o, const char *s, size_t n)
{
    if (!fmt_room(o, n))
        return;
    memcpy(o->p + o->len, s, n);
    o->len += n;
}

/* Append the string s. */
static inline void fmt_str(fmt_out *o, const char *s)
{
    fmt_mem(o, s, strlen(s));
}

/* Append s, cut to the room left, as snprintf's "%s" cuts it (a fixed
 * appender then reports `over`). */
static inline void fmt_cut(fmt_out *o, const char *s)
{
    if (o->over)
        return;
    size_t n = strlen(s);
    if (!o->grow && n >= o->cap - o->len) {
        memcpy(o->p + o->len, s, o->cap - o->len - 1);
        o->len = o->cap - 1;
        o->over = true;
        return;
    }
    fmt_mem(o, s, n);
}

/* Append s[0..max), or s up to its NUL when shorter, as "%.*s" does. */
static inline void fmt_upto(fmt_out *o, const char *s, size_t max)
{
    size_t n = 0;
    while (n < max && s[n] != '\0')
        n++;
    fmt_mem(o, s, n);
}

/* Append the byte c. */
static inline void fmt_chr(fmt_out *o, char c)
{
    if (fmt_room(o, 1))
        o->p[o->len++] = c;
}

/* Append v in decimal. */
static inline void fmt_ulong(fmt_out *o, unsigned long long v)
{
    char digits[20];
    size_t n = 0;
    do {
        digits[sizeof digits - ++n] = (char)('0' + v % 10);
        v /= 10;
    } while (v != 0);
    fmt_mem(o, digits + sizeof digits - n, n);
}

/* Append v in decimal, with its sign. */
static inline void fmt_long(fmt_out *o, long long v)
{
    if (v < 0) {
        fmt_chr(o, '-');
        fmt_ulong(o, 0ull - (unsigned long long)v);
    } else {
        fmt_ulong(o, (unsigned long long)v);
    }
}

/* Append v as `width` decimal digits with leading zeros (v < 10^width). */
static inline void fmt_zeros(fmt_out *o, unsigned long v, int width)
{
    char digits[20];
    for (int i = width - 1; i >= 0; i--) {
        digits[i] = (char)('0' + v % 10);
        v /= 10;
    }
    fmt_mem(o, digits, (size_t)width);
}

/* Append v as 16 lower-case hex digits, as "%016llx" does. */
static inline void fmt_hex16(fmt_out *o, unsigned long long v)
{
    static const char hex[] = "0123456789abcdef";
    char digits[16];
    for (int i = 15; i >= 0; i--, v >>= 4)
        digits[i] = hex[v & 15];
    fmt_mem(o, digits, sizeof digits);
}

/* Append thousandths (v >= 0) as "M.UUU", as printf's "%.3f" writes
 * v / 1000 (the caller rounds v from the value it has). */
static inline void fmt_milli(fmt_out *o, unsigned long long thousandths)
{
    fmt_ulong(o, thousandths / 1000);
    fmt_chr(o, '.');
    fmt_zeros(o, (unsigned long)(thousandths % 1000), 3);
}

/* The text so far, NUL-terminated ("" after an allocation failure of a
 * growable appender that had nothing yet). */
static inline const char *fmt_str_of(fmt_out *o)
{
    o->p[o->len] = '\0';
    return o->p;
}

#endif
