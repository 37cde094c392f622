/* rawhttp.h - HTTP exchanges over a raw loopback socket, for the requests
 * libcurl will not send: a wrong Content-Length, header floods, broken
 * request lines, a client that hangs up mid-body. */
#ifndef GJ_TEST_RAWHTTP_H
#define GJ_TEST_RAWHTTP_H

#include <stddef.h>

typedef struct raw_reply {
    int status; /* of the final response; 0 when none arrived */
    char *head; /* its status line and headers, NUL-terminated */
    char *body; /* NUL-terminated; len counts the bytes */
    size_t len;
} raw_reply;

/* Send `len` bytes to 127.0.0.1:port and read until the server closes.  The
 * request should say "Connection: close" (libmicrohttpd may miss a client's
 * half-close after a complete request and hold the connection until its
 * idle timeout), so the write side stays open.  Interim 1xx responses are
 * skipped.  A reply that does not arrive in 60 s fails the test. */
raw_reply raw_exchange(unsigned port, const char *req, size_t len);

/* Send `len` bytes, then close the connection without reading: a client
 * that promised more than it sent and went away. */
void raw_hang_up(unsigned port, const char *req, size_t len);

void raw_reply_free(raw_reply *r);

#endif
