/* buf.c - growable byte buffer with a sticky failure flag. */
#include "buf.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void buf_init(gj_buf *b)
{
    memset(b, 0, sizeof *b);
}

void buf_free(gj_buf *b)
{
    free(b->data);
    buf_init(b);
}

int buf_reserve(gj_buf *b, size_t more)
{
    if (b->failed)
        return -1;
    if (more <= b->cap - b->len)
        return 0;
    if (more > SIZE_MAX / 2 - b->len) {
        b->failed = 1;
        return -1;
    }
    size_t cap = b->cap ? b->cap : 256;
    while (cap - b->len < more)
        cap *= 2;
    char *p = realloc(b->data, cap);
    if (p == NULL) {
        b->failed = 1;
        return -1;
    }
    b->data = p;
    b->cap = cap;
    return 0;
}

void buf_append(gj_buf *b, const void *bytes, size_t n)
{
    if (n == 0 || buf_reserve(b, n) != 0)
        return;
    memcpy(b->data + b->len, bytes, n);
    b->len += n;
}

void buf_puts(gj_buf *b, const char *s)
{
    buf_append(b, s, strlen(s));
}

void buf_putc(gj_buf *b, char c)
{
    if (buf_reserve(b, 1) != 0)
        return;
    b->data[b->len++] = c;
}

void buf_put_long(gj_buf *b, long long v)
{
    char tmp[24];
    int i = (int)sizeof tmp;
    /* Work in unsigned so LLONG_MIN negates without overflow. */
    unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
    do {
        tmp[--i] = (char)('0' + u % 10);
        u /= 10;
    } while (u != 0);
    if (v < 0)
        tmp[--i] = '-';
    buf_append(b, tmp + i, sizeof tmp - (size_t)i);
}

void buf_put_rows(gj_buf *b, const int32_t *v, long n, long m)
{
    buf_putc(b, '[');
    for (long i = 0; i < n; i++) {
        buf_puts(b, i > 0 ? ",[" : "[");
        for (long j = 0; j < m; j++) {
            if (j > 0)
                buf_putc(b, ',');
            buf_put_long(b, v[i * m + j]);
        }
        buf_putc(b, ']');
    }
    buf_putc(b, ']');
}

char *buf_front(gj_buf *b, size_t n)
{
    if (b->failed)
        return NULL;
    if (b->cap - b->len < n) {
        char *p = n <= SIZE_MAX - b->len ? realloc(b->data, b->len + n) : NULL;
        if (p == NULL) {
            b->failed = 1;
            return NULL;
        }
        b->data = p;
        b->cap = b->len + n;
    }
    memmove(b->data + n, b->data, b->len);
    b->len += n;
    return b->data;
}

char *buf_take(gj_buf *b, size_t *len)
{
    char *data = b->data;
    if (len)
        *len = b->len;
    buf_init(b);
    return data;
}
