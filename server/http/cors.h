/* cors.h - Cross-Origin Resource Sharing: which pages on other origins may
 * read the API's answers (--cors-origins), as response headers.
 *
 * The policy is a comma-separated list of exact origins, each
 * scheme://host[:port] as a browser sends it in Origin (lowercase, no path,
 * no trailing slash).  An answer to a listed origin carries
 * Access-Control-Allow-Origin with that origin and the exposed headers; a
 * preflight (OPTIONS) to a listed origin gets the route's methods, the
 * request headers the API reads and a max age; any other origin gets no
 * Access-Control-* header at all, so its browser refuses to hand the answer
 * to the page.  With a policy, every answer carries Vary: Origin (http_respond.c
 * joins it with Accept in one header where the answer varies by both), so a
 * shared cache never serves one origin's answer to another.  Pure
 * functions of strings: no HTTP library here. */
#ifndef GJ_CORS_H
#define GJ_CORS_H

#include <stddef.h>

#include "error.h"

/* What a preflight allows, as header values (the OpenAPI document lists them). */
#define CORS_ALLOW_HEADERS  "Content-Type, Accept, X-Request-Id, If-None-Match, X-Api-Key"
#define CORS_EXPOSE_HEADERS "X-Request-Id, X-Cache, ETag, Retry-After, RateLimit, RateLimit-Policy"
#define CORS_MAX_AGE        "600"

/* The most headers cors_headers fills. */
#define CORS_MAX_HEADERS 5

typedef struct cors_header {
    const char *name, *value;
} cors_header;

/* 1 when s[0..n) is an origin as browsers serialise it: http or https,
 * "://", a host, optionally ":" and a port from 1 to 65535, nothing after. */
int cors_exact_origin(const char *s, size_t n);

/* Check --public-origin: "" or one exact origin.  0, or -1 with e naming
 * `where` (the flag or variable). */
int cors_check_origin(const char *origin, const char *where, gj_error *e);

/* Check a --cors-origins list: 0, or -1 with e naming `where` (the flag or
 * variable) and the first item that is not an exact origin. */
int cors_check_list(const char *list, const char *where, gj_error *e);

/* 1 when `origin` (an Origin header, NULL when absent) is exactly one of the
 * list's items; 0 otherwise, and always 0 for an empty list. */
int cors_allowed(const char *list, const char *origin);

/* The CORS headers of an answer under `list` to a request from `origin`:
 * fills out[] and returns how many.  preflight_methods is the route's
 * methods for the answer to a preflight, NULL for any other answer.  Values
 * point at `origin`, `preflight_methods` or constants. */
size_t cors_headers(const char *list, const char *origin, const char *preflight_methods,
                    cors_header out[CORS_MAX_HEADERS]);

#endif
