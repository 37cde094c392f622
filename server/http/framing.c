/* framing.c - the head's framing rules (framing.h). */
#include "framing.h"

#include <string.h>
#include <strings.h>

/* 1 for a tchar (RFC 9110 5.6.2).  Every byte of every header name is
 * asked, so the punctuation is a switch, not a search of a string. */
static int is_tchar(unsigned char c)
{
    if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))
        return 1;
    switch (c) {
    case '!':
    case '#':
    case '$':
    case '%':
    case '&':
    case '\'':
    case '*':
    case '+':
    case '-':
    case '.':
    case '^':
    case '_':
    case '`':
    case '|':
    case '~':
        return 1;
    default:
        return 0;
    }
}

/* framing.h: a non-empty run of tchar. */
int framing_is_token(const char *name)
{
    if (name == NULL || name[0] == '\0')
        return 0;
    for (const unsigned char *p = (const unsigned char *)name; *p != '\0'; p++)
        if (!is_tchar(*p))
            return 0;
    return 1;
}

/* framing.h: count the framing headers and note the first bad name. */
void framing_note(framing_scan *s, const char *key, const char *value)
{
    if (s->bad_name == NULL && !framing_is_token(key))
        s->bad_name = key != NULL ? key : "";
    if (key == NULL)
        return;
    if (strcasecmp(key, MHD_HTTP_HEADER_CONTENT_LENGTH) == 0) {
        if (s->lengths++ == 0)
            s->length = value != NULL ? value : "";
    } else if (strcasecmp(key, MHD_HTTP_HEADER_TRANSFER_ENCODING) == 0) {
        if (s->codings++ == 0)
            s->coding = value != NULL ? value : "";
    } else if (strcasecmp(key, MHD_HTTP_HEADER_HOST) == 0) {
        s->hosts++;
    }
}

/* 1 when v is one or more decimal digits and nothing else (RFC 9110 8.6:
 * no sign, no list, no blank). */
static int is_digits(const char *v)
{
    if (v == NULL || v[0] == '\0')
        return 0;
    for (; *v != '\0'; v++)
        if (*v < '0' || *v > '9')
            return 0;
    return 1;
}

/* How the head's lines lay in libmicrohttpd's read buffer: the next line
 * expected to start at `next`, and the first header whose line did not
 * end in CRLF or was not where its predecessor ended.
 *
 * libmicrohttpd 0.9.75 has no option to refuse a bare LF line end, an
 * obs-fold continuation line or a NUL byte inside a header value: it ends
 * a line at a lone LF, appends a folded line to the header name, and cuts
 * a value at its first NUL.  Each of these lets a proxy in front see other
 * headers than we do.  What it does leave is a trace: the request line and
 * each header line stay in place in one buffer, in order, with each CRLF
 * overwritten by two NUL bytes and a lone LF by one; a folded header is
 * copied elsewhere; a value cut at a NUL leaves its rest before the line
 * end.  So a head is clean exactly when every header line starts where
 * the previous line's value plus two NULs ended.  (The last header line's
 * end cannot be told from the blank line's; either way the headers are
 * the same ones.)  This reads the library's
 * layout, hence the version guard below: another version must be looked
 * at (libmicrohttpd 1.0 refuses these itself, by its client discipline
 * level) before this file builds against it. */
#if MHD_VERSION != 0x00097500
/* Another version: look at its own handling of bare LF, obs-fold and NUL. */
#error "framing.c reads libmicrohttpd 0.9.75's head layout"
#endif
typedef struct line_scan {
    const char *next; /* where the next header line must begin; NULL: unknown */
    const char *bad;  /* the first header name whose line is not clean */
} line_scan;

/* 1 when the line ending at `end` (the NUL that replaced its CR) ended in
 * CRLF: two NUL bytes. */
static int ends_in_crlf(const char *end)
{
    return end[0] == '\0' && end[1] == '\0';
}

/* Check that the header line of key and value starts where the last one
 * ended and ends in CRLF, unless a line before it did not. */
static void note_line(line_scan *l, const char *key, const char *value)
{
    if (l->bad != NULL || key == NULL || value == NULL)
        return;
    if (l->next != NULL && key != l->next) {
        l->bad = key;
        return;
    }
    const char *end = value + strlen(value);
    if (!ends_in_crlf(end)) {
        l->bad = key;
        return;
    }
    l->next = end + 2;
}

/* Both scans of a head, filled in one pass over its headers. */
typedef struct head_scan {
    framing_scan framing;
    line_scan lines;
} head_scan;

/* Header iterator: each header into both scans of the head_scan cls. */
static enum MHD_Result scan_header(void *cls, enum MHD_ValueKind kind, const char *key,
                                   const char *value)
{
    (void)kind;
    head_scan *h = cls;
    framing_note(&h->framing, key, value);
    note_line(&h->lines, key, value);
    return MHD_YES;
}

/* framing.h: one pass over the headers, then the verdict; then whether
 * every line of the head ended in CRLF, unfolded and without a NUL. */
int framing_check(struct MHD_Connection *conn, const char *version, gj_error *e)
{
    head_scan h = {{NULL, NULL, NULL, 0, 0, 0}, {NULL, NULL}};
    /* The request line ends after its version (HTTP/0.9 has none). */
    int bare_lf = 0;
    if (version != NULL && version[0] != '\0') {
        const char *end = version + strlen(version);
        bare_lf = !ends_in_crlf(end);
        h.lines.next = bare_lf ? NULL : end + 2;
        h.lines.bad = bare_lf ? version : NULL; /* no header line is checked then */
    }
    MHD_get_connection_values(conn, MHD_HEADER_KIND, scan_header, &h);
    if (framing_verdict(&h.framing, version, e) != 0)
        return -1;
    if (bare_lf)
        return gj_fail(e, GJ_BAD_INPUT,
                       "the request line does not end in CRLF (RFC 9112 2.2: a bare LF "
                       "is refused)");
    if (h.lines.bad != NULL)
        return gj_fail(e, GJ_BAD_INPUT,
                       "the header line '%.40s' is folded, holds a NUL byte or its line before "
                       "does not end in CRLF (RFC 9112 2.2, 5.2)",
                       h.lines.bad);
    return 0;
}

/* framing.h: the rules, the framing ones first (they decide where the next
 * request would begin). */
int framing_verdict(const framing_scan *sp, const char *version, gj_error *e)
{
    const framing_scan s = *sp;
    if (s.bad_name != NULL)
        return gj_fail(e, GJ_BAD_INPUT,
                       "the header name '%.40s' is not a token (RFC 9110 5.6.2: no whitespace "
                       "or separator)",
                       s.bad_name);
    if (s.codings > 1)
        return gj_fail(e, GJ_BAD_INPUT,
                       "the request has %d Transfer-Encoding headers; send one (RFC 9112 6.3)",
                       s.codings);
    if (s.codings == 1 && s.lengths > 0)
        return gj_fail(e, GJ_BAD_INPUT,
                       "the request has both Transfer-Encoding and Content-Length; send one "
                       "(RFC 9112 6.3)");
    /* Only the one coding libmicrohttpd reads, spelled as it reads it: any
     * other spelling a proxy might take for chunked is refused. */
    if (s.codings == 1 && strcmp(s.coding, "chunked") != 0)
        return gj_fail(e, GJ_BAD_INPUT,
                       "Transfer-Encoding '%.40s' is not supported; send the body with "
                       "Content-Length or Transfer-Encoding: chunked",
                       s.coding);
    if (s.lengths > 1)
        return gj_fail(e, GJ_BAD_INPUT,
                       "the request has %d Content-Length headers; send one (RFC 9112 6.3)",
                       s.lengths);
    if (s.lengths == 1 && !is_digits(s.length))
        return gj_fail(e, GJ_BAD_INPUT,
                       "Content-Length '%.40s' is not a number of bytes (RFC 9110 8.6)", s.length);
    if (version != NULL && strcmp(version, MHD_HTTP_VERSION_1_1) == 0 && s.hosts != 1)
        return gj_fail(e, GJ_BAD_INPUT,
                       "an HTTP/1.1 request has exactly one Host header, this one has %d "
                       "(RFC 9112 3.2)",
                       s.hosts);
    return 0;
}

/* framing.h: a scheme of http or https, any case, then "://". */
const char *framing_origin_path(const char *target)
{
    size_t scheme = strncasecmp(target, "http://", 7) == 0    ? 7
                    : strncasecmp(target, "https://", 8) == 0 ? 8
                                                              : 0;
    if (scheme == 0)
        return target;
    const char *path = strpbrk(target + scheme, "/?");
    return path != NULL && *path == '/' ? path : "/";
}

/* framing.h: "%00" anywhere before n (hex has no case for 0). */
int framing_has_nul_escape(const char *target, size_t n)
{
    for (size_t i = 0; i + 2 < n; i++)
        if (target[i] == '%' && target[i + 1] == '0' && target[i + 2] == '0')
            return 1;
    return 0;
}
