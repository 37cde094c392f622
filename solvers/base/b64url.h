/* b64url.h - base64url (RFC 4648 section 5) without padding: bytes as text
 * that a URL path carries as it is. */
#ifndef GJ_B64URL_H
#define GJ_B64URL_H

#include <stddef.h>

#include "buf.h"

/* Append the encoding of in[len] to out (allocation failure shows in
 * out->failed). */
void b64url_encode(const void *in, size_t len, gj_buf *out);

/* Decode text[len] (no padding, no other byte) and append the bytes to
 * out: 0, or -1 when text is not base64url (a foreign byte, a length no
 * encoding has, stray bits in the last character). */
int b64url_decode(const char *text, size_t len, gj_buf *out);

#endif
