/* fuzz_query.c - libFuzzer target: the GET forms' query decoding
 * (query.h) and If-None-Match matching (etag.h), as pure functions.
 *
 * The input is split at its first NUL byte: before it, a raw query decoded
 * for the three forms (a solve, an analysis, a puzzle's parameters); after it, an If-None-Match
 * value matched against a fixed tag.  Beyond the sanitizers, each call's contract is checked: a
 * decoded body is NUL-terminated, never longer than the query and never holds a
 * '%' that the query did not escape as %25; a failure fills the error and
 * leaves nothing to free; and a header never matches a tag it does not
 * contain, unless it is "*".  The same query is checked (query_check) for every form: a
 * refusal fills the error, and where it refuses a GET form, decoding that query is refused too
 * (for a solve or an analysis, naming the same parameter). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "etag.h"
#include "query.h"

/* Abort (a finding) unless `ok`. */
static void require(int ok)
{
    if (!ok)
        abort();
}

/* Decode raw for one route and check the contract. */
static void decode_one(query_route route, const char *raw, size_t len)
{
    query_request r;
    gj_error e;
    if (query_request_decode(route, raw, len, &r, &e) != 0) {
        require(r.body == NULL && e.kind != GJ_OK && e.message[0] != '\0');
        return;
    }
    require(r.body != NULL && r.len <= len && r.body[r.len] == '\0');
    size_t percents = 0, escaped = 0;
    for (size_t i = 0; i < r.len; i++)
        percents += r.body[i] == '%';
    for (size_t i = 0; i + 2 < len; i++)
        escaped += raw[i] == '%' && raw[i + 1] == '2' && raw[i + 2] == '5';
    require(percents <= escaped);
    require(r.input == (route == QUERY_ANALYZE ? MEDIA_JSON : r.input));
    query_request_free(&r);
}

/* Decode raw as a parameters query (GET /puzzle): on success the body is
 * a JSON object with at most one member per '&'-separated piece. */
static void decode_params(const char *raw, size_t len)
{
    query_request r;
    gj_error e;
    if (query_request_decode(QUERY_PARAMS, raw, len, &r, &e) != 0) {
        require(r.body == NULL && e.kind != GJ_OK && e.message[0] != '\0');
        return;
    }
    json_t *o = json_loadb(r.body, r.len, 0, NULL);
    require(json_is_object(o));
    size_t pieces = 1;
    for (size_t i = 0; i < len; i++)
        pieces += raw[i] == '&';
    require(json_object_size(o) <= pieces);
    json_decref(o);
    query_request_free(&r);
}

/* Check raw for one form against its decoding (NONE and BODY have none). */
static void check_one(query_route route, const char *raw, size_t len)
{
    gj_error e, d;
    if (query_check(route, raw, len, &e) == 0)
        return;
    require(e.kind != GJ_OK && e.message[0] != '\0');
    if (route == QUERY_NONE || route == QUERY_BODY)
        return;
    query_request r;
    require(query_request_decode(route, raw, len, &r, &d) != 0);
    require(route == QUERY_PARAMS || strcmp(d.field, e.field) == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *bytes = (const char *)data;
    const char *nul = memchr(bytes, '\0', size);
    size_t qlen = nul ? (size_t)(nul - bytes) : size;
    decode_one(QUERY_SOLVE, bytes, qlen);
    decode_one(QUERY_ANALYZE, bytes, qlen);
    decode_params(bytes, qlen);
    static const query_route forms[] = {QUERY_NONE, QUERY_SOLVE, QUERY_ANALYZE, QUERY_PARAMS,
                                        QUERY_BODY};
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++)
        check_one(forms[i], bytes, qlen);
    if (nul == NULL)
        return 0;
    static const char tag[] = "\"1.1-0123456789abcdef\"";
    const char *header = nul + 1; /* NUL-terminated: libFuzzer's data is not, so copy */
    size_t hlen = size - qlen - 1;
    char *h = malloc(hlen + 1);
    require(h != NULL);
    memcpy(h, header, hlen);
    h[hlen] = '\0';
    int matched = etag_none_match(h, tag, true);
    require(!matched || strstr(h, "0123456789abcdef\"") != NULL || strchr(h, '*') != NULL);
    require(!etag_none_match(h, tag, false) || strstr(h, "0123456789abcdef\"") != NULL);
    free(h);
    return 0;
}
