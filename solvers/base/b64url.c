/* b64url.c - base64url without padding (b64url.h). */
#include "b64url.h"

#include <stdint.h>

static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

void b64url_encode(const void *in, size_t len, gj_buf *out)
{
    const unsigned char *p = in;
    size_t i = 0;
    for (; i + 3 <= len; i += 3) {
        uint32_t v = (uint32_t)p[i] << 16 | (uint32_t)p[i + 1] << 8 | p[i + 2];
        char four[4] = {alphabet[v >> 18], alphabet[v >> 12 & 63], alphabet[v >> 6 & 63],
                        alphabet[v & 63]};
        buf_append(out, four, 4);
    }
    if (len - i == 1) {
        uint32_t v = (uint32_t)p[i] << 16;
        char two[2] = {alphabet[v >> 18], alphabet[v >> 12 & 63]};
        buf_append(out, two, 2);
    } else if (len - i == 2) {
        uint32_t v = (uint32_t)p[i] << 16 | (uint32_t)p[i + 1] << 8;
        char three[3] = {alphabet[v >> 18], alphabet[v >> 12 & 63], alphabet[v >> 6 & 63]};
        buf_append(out, three, 3);
    }
}

/* The 6-bit value of an alphabet character, or -1. */
static int value_of(char c)
{
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (c >= '0' && c <= '9')
        return c - '0' + 52;
    return c == '-' ? 62 : c == '_' ? 63 : -1;
}

int b64url_decode(const char *text, size_t len, gj_buf *out)
{
    if (len % 4 == 1)
        return -1; /* no byte count encodes to this many characters */
    uint32_t acc = 0;
    int bits = 0;
    for (size_t i = 0; i < len; i++) {
        int v = value_of(text[i]);
        if (v < 0)
            return -1;
        acc = acc << 6 | (uint32_t)v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            buf_putc(out, (char)(acc >> bits & 0xff));
        }
    }
    /* The bits left over must be zero: one text per byte string. */
    return (acc & ((1u << bits) - 1)) == 0 ? 0 : -1;
}
