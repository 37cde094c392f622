/* cors.c - the CORS policy and its headers (cors.h). */
#include "cors.h"

#include <string.h>

/* 1 when s[0..n) is a host a browser would put in an Origin: a lowercase
 * name or IPv4 address ([a-z0-9.-], not starting or ending with '.' or
 * '-'), or a bracketed IPv6 address. */
static int origin_host(const char *s, size_t n)
{
    if (n == 0)
        return 0;
    if (s[0] == '[')
        return n > 2 && s[n - 1] == ']' && strspn(s + 1, "0123456789abcdef:.") == n - 2;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '-'))
            return 0;
    }
    return s[0] != '.' && s[0] != '-' && s[n - 1] != '.' && s[n - 1] != '-';
}

int cors_exact_origin(const char *s, size_t n)
{
    size_t skip;
    if (n > 7 && memcmp(s, "http://", 7) == 0)
        skip = 7;
    else if (n > 8 && memcmp(s, "https://", 8) == 0)
        skip = 8;
    else
        return 0;
    const char *host = s + skip;
    size_t rest = n - skip;
    /* The port's colon is the last one after any IPv6 bracket. */
    const char *close = memchr(host, ']', rest);
    const char *from = close ? close : host;
    const char *colon = memchr(from, ':', rest - (size_t)(from - host));
    size_t hlen = colon ? (size_t)(colon - host) : rest;
    if (!origin_host(host, hlen))
        return 0;
    if (colon == NULL)
        return 1;
    size_t plen = rest - hlen - 1;
    if (plen == 0 || plen > 5 || strspn(colon + 1, "0123456789") < plen || colon[1] == '0')
        return 0;
    long port = 0;
    for (size_t i = 0; i < plen; i++)
        port = port * 10 + (colon[1 + i] - '0');
    return port <= 65535;
}

int cors_check_origin(const char *origin, const char *where, gj_error *e)
{
    if (*origin == '\0' || cors_exact_origin(origin, strlen(origin)))
        return 0;
    return gj_fail(e, GJ_BAD_INPUT,
                   "%s: '%.100s' is not an origin; give the one visitors reach the service at, "
                   "scheme://host[:port] in lowercase with no path (e.g. https://puzzles.example)",
                   where, origin);
}

int cors_check_list(const char *list, const char *where, gj_error *e)
{
    if (*list == '\0')
        return 0; /* off, as by default */
    for (const char *p = list;;) {
        size_t n = strcspn(p, ",");
        if (!cors_exact_origin(p, n))
            return gj_fail(e, GJ_BAD_INPUT,
                           "%s: '%.*s' is not an origin; list exact origins as browsers send "
                           "them, scheme://host[:port] in lowercase with no path, separated by "
                           "commas without spaces (e.g. https://puzzles.example,"
                           "http://127.0.0.1:3000)",
                           where, (int)(n > 100 ? 100 : n), p);
        if (p[n] == '\0')
            return 0;
        p += n + 1;
    }
}

int cors_allowed(const char *list, const char *origin)
{
    if (origin == NULL || *origin == '\0' || *list == '\0')
        return 0;
    size_t len = strlen(origin);
    for (const char *p = list;;) {
        size_t n = strcspn(p, ",");
        if (n == len && memcmp(p, origin, n) == 0)
            return 1;
        if (p[n] == '\0')
            return 0;
        p += n + 1;
    }
}

size_t cors_headers(const char *list, const char *origin, const char *preflight_methods,
                    cors_header out[CORS_MAX_HEADERS])
{
    size_t n = 0;
    if (*list == '\0')
        return 0;
    out[n++] = (cors_header){"Vary", "Origin"};
    if (!cors_allowed(list, origin))
        return n;
    out[n++] = (cors_header){"Access-Control-Allow-Origin", origin};
    if (preflight_methods != NULL) {
        out[n++] = (cors_header){"Access-Control-Allow-Methods", preflight_methods};
        out[n++] = (cors_header){"Access-Control-Allow-Headers", CORS_ALLOW_HEADERS};
        out[n++] = (cors_header){"Access-Control-Max-Age", CORS_MAX_AGE};
    } else {
        out[n++] = (cors_header){"Access-Control-Expose-Headers", CORS_EXPOSE_HEADERS};
    }
    return n;
}
