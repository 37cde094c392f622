/* etag.c - answer tags from xxHash, and If-None-Match matching (etag.h). */
#include "etag.h"

#include <string.h>
#include <xxhash.h>

#include "fmt.h"

void etag_make(const gj_game *g, etag_kind kind, const void *key, size_t len, char out[ETAG_MAX])
{
    /* The kind seeds the hash, so a solve's key and an analysis's key of
     * equal bytes still get different tags. */
    static const XXH64_hash_t seeds[] = {[ETAG_SOLVE] = 0x501e,
                                         [ETAG_ANALYZE] = 0xa7a1,
                                         [ETAG_PUZZLE] = 0x9a22,
                                         [ETAG_PICTURE] = 0x5c9e};
    XXH64_hash_t h = XXH3_64bits_withSeed(key, len, seeds[kind]);
    const char *v = g->version != NULL ? g->version : "0";
    /* "V.F-HHHHHHHHHHHHHHHH" with V at most 24 bytes, F at most 8: made on
     * every solve, so without printf (fmt.h). */
    fmt_out o;
    fmt_init(&o, out, ETAG_MAX);
    fmt_chr(&o, '"');
    fmt_upto(&o, v, 24);
    fmt_chr(&o, '.');
    fmt_upto(&o, GJ_ANSWER_FORMAT_VERSION, 8);
    fmt_chr(&o, '-');
    fmt_hex16(&o, (unsigned long long)h);
    fmt_chr(&o, '"');
    fmt_str_of(&o);
}

int etag_analysis(const gj_game *g, gj_buf *key, char out[ETAG_MAX])
{
    size_t n = strlen(g->name);
    char *head = buf_front(key, n + 2);
    if (head == NULL)
        return -1;
    memcpy(head, g->name, n);
    head[n] = '\0';
    head[n + 1] = 'a'; /* a solve's key has 'j' or 't' here: never equal */
    etag_make(g, ETAG_ANALYZE, key->data, key->len, out);
    return 0;
}

/* Skip optional whitespace (RFC 9110 OWS) from p. */
static const char *skip_ows(const char *p)
{
    while (*p == ' ' || *p == '\t')
        p++;
    return p;
}

/* Parse one entity-tag at p: the opaque tag (quotes included) in *tag and
 * *tag_len, and the byte after it; NULL when p is not an entity-tag. */
static const char *parse_tag(const char *p, const char **tag, size_t *tag_len)
{
    if (p[0] == 'W' && p[1] == '/')
        p += 2;
    if (*p != '"')
        return NULL;
    const char *start = p++;
    /* etagc = %x21 / %x23-7E / obs-text */
    while (*p != '"') {
        unsigned char c = (unsigned char)*p;
        if (c == '\0' || c < 0x21 || c == 0x7f)
            return NULL;
        p++;
    }
    p++;
    *tag = start;
    *tag_len = (size_t)(p - start);
    return p;
}

bool etag_none_match(const char *header, const char *etag, bool star_matches)
{
    if (header == NULL)
        return false;
    const char *p = skip_ows(header);
    if (*p == '*')
        return star_matches && *skip_ows(p + 1) == '\0';
    bool matched = false, any = false;
    size_t want = strlen(etag);
    /* 1#entity-tag: empty list elements are allowed (RFC 9110 5.6.1). */
    while (*p != '\0') {
        if (*p == ',') {
            p = skip_ows(p + 1);
            continue;
        }
        const char *tag;
        size_t len;
        p = parse_tag(p, &tag, &len);
        if (p == NULL)
            return false; /* not the grammar: match nothing */
        any = true;
        if (len == want && memcmp(tag, etag, want) == 0)
            matched = true;
        p = skip_ows(p);
        if (*p != ',' && *p != '\0')
            return false;
    }
    return any && matched;
}
