/* buf.h - a growable byte buffer for answers.
 *
 * Appends never fail loudly: the first failed allocation sets `failed`, later
 * appends do nothing, and the writer checks `failed` once at the end.  That
 * keeps answer writers linear and free of per-call error handling. */
#ifndef GJ_BUF_H
#define GJ_BUF_H

#include <stddef.h>
#include <stdint.h>

typedef struct gj_buf {
    char *data;
    size_t len;
    size_t cap;
    int failed;
} gj_buf;

void buf_init(gj_buf *b);
void buf_free(gj_buf *b);
/* Make room for `more` bytes past len; returns 0, or -1 and sets failed. */
int buf_reserve(gj_buf *b, size_t more);
void buf_append(gj_buf *b, const void *bytes, size_t n);
void buf_puts(gj_buf *b, const char *s);
void buf_putc(gj_buf *b, char c);
void buf_put_long(gj_buf *b, long long v);
/* An n x m row-major table of integers as compact JSON rows: [[1,2],[3,4]]. */
void buf_put_rows(gj_buf *b, const int32_t *v, long n, long m);
/* Room for n (at least 1) bytes in front of the buffer's own, which move
 * up: the n bytes for the caller to fill, or NULL (and failed set) when
 * memory is short.  A buffer with no room grows by n alone, so a large one
 * taken over is not doubled. */
char *buf_front(gj_buf *b, size_t n);
/* Hand the bytes to the caller (who frees them) and reset the buffer. */
char *buf_take(gj_buf *b, size_t *len);

#endif
