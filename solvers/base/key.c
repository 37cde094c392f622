/* key.c - cache key heads and grid bits (key.h). */
#include "key.h"

#include <string.h>

/* Decimal, so the head reads as text in a cache dump. */
void key_head(gj_buf *out, const long *v, int count)
{
    for (int i = 0; i < count; i++) {
        if (i > 0)
            buf_putc(out, ' ');
        buf_put_long(out, v[i]);
    }
    buf_putc(out, '\n');
}

/* One pass over the cells, a bit at a time: a key is written once per
 * request, as the parse that precedes it reads every cell once too. */
void key_bits(gj_buf *out, const unsigned char *cells, long rows, long cols, size_t stride)
{
    size_t nbits = (size_t)rows * (size_t)cols, nbytes = (nbits + 7) / 8;
    if (buf_reserve(out, nbytes) != 0)
        return;
    unsigned char *at = (unsigned char *)out->data + out->len;
    memset(at, 0, nbytes);
    size_t bit = 0;
    for (long i = 0; i < rows; i++) {
        const unsigned char *row = cells + (size_t)i * stride;
        for (long j = 0; j < cols; j++, bit++)
            at[bit / 8] |= (unsigned char)((row[j] != 0) << (7 - bit % 8));
    }
    out->len += nbytes;
}
