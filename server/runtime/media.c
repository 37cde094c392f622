/* media.c - Content-Type and Accept handling.
 *
 * Accept is parsed properly (media ranges with q values, the most specific
 * range deciding) because browsers and HTTP libraries send long lists such
 * as "text/html,application/xhtml+xml,...;q=0.9" with a catch-all range at
 * q=0.8; a naive substring match would pick the wrong format for them. */
#include "media.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

const char media_accepted_inputs[] =
    "text/plain, application/x-www-form-urlencoded (taken as raw judge text) or application/json";

/* s past any optional whitespace (spaces and tabs, HTTP's OWS). */
static const char *skip_ows(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    return s;
}

/* Does the type at s (up to ';', ',' or the end, ignoring trailing spaces)
 * equal `name`, case-insensitively? */
static int type_is(const char *s, size_t len, const char *name)
{
    while (len > 0 && (s[len - 1] == ' ' || s[len - 1] == '\t'))
        len--;
    return strlen(name) == len && strncasecmp(s, name, len) == 0;
}

int media_input(const char *content_type, media_kind *out)
{
    if (content_type == NULL) {
        *out = MEDIA_TEXT;
        return 0;
    }
    const char *s = skip_ows(content_type);
    size_t len = strcspn(s, ";");
    if (len == 0 || type_is(s, len, "text/plain") ||
        type_is(s, len, "application/x-www-form-urlencoded")) {
        *out = MEDIA_TEXT;
        return 0;
    }
    if (type_is(s, len, "application/json")) {
        *out = MEDIA_JSON;
        return 0;
    }
    return -1;
}

/* q of one media range's parameters ("; q=0.5"), 1 when absent. */
static double range_quality(const char *params, size_t len)
{
    const char *p = params, *end = params + len;
    while (p < end) {
        p = skip_ows(p + 1); /* past ';' */
        if (end - p > 2 && (p[0] == 'q' || p[0] == 'Q') && p[1] == '=') {
            double q = strtod(p + 2, NULL);
            return q < 0 ? 0 : q > 1 ? 1 : q;
        }
        while (p < end && *p != ';')
            p++;
    }
    return 1;
}

typedef struct preference {
    double q;
    int specificity; /* 0 for the catch-all, 1 for "type/" + any, 2 for exact */
} preference;

/* How much the range s[0..len) accepts type/subtype. */
static void match_range(const char *s, size_t len, const char *type, const char *subtype,
                        preference *best)
{
    size_t name_len = strcspn(s, ";");
    if (name_len > len)
        name_len = len;
    int specificity;
    size_t tlen = strlen(type);
    if (type_is(s, name_len, "*/*"))
        specificity = 0;
    else if (name_len == tlen + 2 && strncasecmp(s, type, tlen) == 0 && s[tlen] == '/' &&
             s[tlen + 1] == '*')
        specificity = 1;
    else if (name_len == tlen + 1 + strlen(subtype) && strncasecmp(s, type, tlen) == 0 &&
             s[tlen] == '/' && strncasecmp(s + tlen + 1, subtype, strlen(subtype)) == 0)
        specificity = 2;
    else
        return;
    if (specificity >= best->specificity) {
        best->specificity = specificity;
        best->q = range_quality(s + name_len, len - name_len);
    }
}

/* How an Accept header takes type/subtype: the q of the most specific range matching it (the
 * later of equally specific ones), q 0 when none matches. */
static preference accept_quality(const char *accept, const char *type, const char *subtype)
{
    preference best = {0, -1};
    const char *s = accept;
    while (*s != '\0') {
        s = skip_ows(s);
        size_t len = strcspn(s, ",");
        match_range(s, len, type, subtype, &best);
        s += len;
        if (*s == ',')
            s++;
    }
    if (best.specificity < 0)
        best.q = 0;
    return best;
}

int media_output(const char *format, const char *accept, media_kind *out, gj_error *e)
{
    if (format != NULL) {
        if (strcmp(format, "json") == 0) {
            *out = MEDIA_JSON;
            return 0;
        }
        if (strcmp(format, "text") == 0) {
            *out = MEDIA_TEXT;
            return 0;
        }
        return gj_fail_field(e, "format", "expected 'json' or 'text', found '%.40s'", format);
    }
    *out = MEDIA_JSON;
    if (accept == NULL)
        return 0;
    preference text = accept_quality(accept, "text", "plain");
    preference json = accept_quality(accept, "application", "json");
    if (text.q > json.q)
        *out = MEDIA_TEXT;
    return 0;
}
