/* framing.h - whether a request's head says unambiguously where its body
 * ends (RFC 9112 6.3) and names its host (3.2).  A proxy in front that
 * reads the head another way would see a different next request, which is
 * how requests are smuggled; so every doubt is refused, and the caller
 * answers 400 and closes the connection, reading nothing after it.
 *
 * One pass over the headers libmicrohttpd parsed; no allocation. */
#ifndef GJ_FRAMING_H
#define GJ_FRAMING_H

#include <microhttpd.h>
#include <stddef.h>

#include "error.h"

/* What one pass over a head's headers saw: fill it with framing_note for
 * each header in order, then ask framing_verdict.  Zero it to begin. */
typedef struct framing_scan {
    const char *bad_name; /* the first header name that is no token */
    const char *length;   /* the first Content-Length value */
    const char *coding;   /* the first Transfer-Encoding value */
    int lengths, codings, hosts;
} framing_scan;

/* Note one header (key and value as libmicrohttpd gives them; the strings
 * must outlive the scan). */
void framing_note(framing_scan *s, const char *key, const char *value);

/* The rules over what s saw, for a request of `version` ("HTTP/1.1" needs
 * one Host): 0, or -1 with *e a GJ_BAD_INPUT naming the header and rule. */
int framing_verdict(const framing_scan *s, const char *version, gj_error *e);

/* 0 when conn's head frames its body one way only and, for HTTP/1.1
 * (version as libmicrohttpd gives it), has exactly one Host; else -1 with
 * *e a GJ_BAD_INPUT naming the header and the rule. */
int framing_check(struct MHD_Connection *conn, const char *version, gj_error *e);

/* 1 when name is a token (RFC 9110 5.6.2): one or more tchar, so no
 * whitespace, colon, control or non-ASCII byte. */
int framing_is_token(const char *name);

/* The origin-form path of a request target: for an absolute-form target
 * (RFC 9112 3.2.2, "http://host/p" or "https://...") what follows the
 * authority ("/" when nothing does), else target itself. */
const char *framing_origin_path(const char *target);

/* 1 when target[0..n) holds the escape %00 (a NUL byte once decoded). */
int framing_has_nul_escape(const char *target, size_t n);

#endif
