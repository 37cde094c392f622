/* api_keys.c - the API keys file and a constant-time look-up (api_keys.h). */
#include "api_keys.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define API_KEY_MIN 16

typedef struct api_key {
    unsigned char bytes[API_KEY_MAX]; /* zero-padded */
    size_t len;
    double rate_ms, burst_ms;
} api_key;

struct gj_api_keys {
    api_key *keys;
    size_t n;
};

/* 1 for a byte a key may hold. */
static int key_byte(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           (c != '\0' && strchr("-._~+/=", c) != NULL);
}

/* A whole positive number of milliseconds (at most 1e9) from the token at
 * s of len bytes: 0, or -1. */
static int parse_ms(const char *s, size_t len, double *out)
{
    char text[32];
    if (len == 0 || len >= sizeof text)
        return -1;
    memcpy(text, s, len);
    text[len] = '\0';
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (errno != 0 || *end != '\0' || v < 1 || v > 1000000000L)
        return -1;
    *out = (double)v;
    return 0;
}

/* The next whitespace-separated token of line [*p, end): its start, *len its length. */
static const char *token(const char **p, const char *end, size_t *len)
{
    while (*p < end && (**p == ' ' || **p == '\t'))
        (*p)++;
    const char *start = *p;
    while (*p < end && **p != ' ' && **p != '\t')
        (*p)++;
    *len = (size_t)(*p - start);
    return start;
}

/* Constant time in the bytes: 1 when the padded key a equals b. */
static int same_key(const api_key *a, const api_key *b)
{
    unsigned diff = (unsigned)(a->len ^ b->len);
    for (size_t i = 0; i < API_KEY_MAX; i++)
        diff |= (unsigned)(a->bytes[i] ^ b->bytes[i]);
    return diff == 0;
}

/* Parse one line [s, end), number lineno, into k->keys[k->n]: 0 (a key
 * added, or a blank or comment line), or -1 with *e. */
static int parse_line(gj_api_keys *k, const char *s, const char *end, long lineno, const char *path,
                      gj_error *e)
{
    size_t klen, rlen, blen, xlen;
    const char *key = token(&s, end, &klen);
    if (klen == 0 || key[0] == '#')
        return 0;
    const char *rate = token(&s, end, &rlen);
    const char *burst = token(&s, end, &blen);
    token(&s, end, &xlen);
    api_key *out = &k->keys[k->n];
    memset(out, 0, sizeof *out);
    if (rlen == 0 || blen == 0 || xlen != 0)
        return gj_fail(e, GJ_BAD_INPUT,
                       "%s line %ld: expected 'KEY RATE_MS BURST_MS' (three fields)", path, lineno);
    if (klen < API_KEY_MIN || klen > API_KEY_MAX)
        return gj_fail(e, GJ_BAD_INPUT, "%s line %ld: a key must be %d to %d bytes, not %zu", path,
                       lineno, API_KEY_MIN, API_KEY_MAX, klen);
    for (size_t i = 0; i < klen; i++)
        if (!key_byte(key[i]))
            return gj_fail(e, GJ_BAD_INPUT,
                           "%s line %ld: a key may hold only letters, digits and -._~+/= "
                           "(byte %zu is not one)",
                           path, lineno, i + 1);
    if (parse_ms(rate, rlen, &out->rate_ms) != 0 || parse_ms(burst, blen, &out->burst_ms) != 0)
        return gj_fail(e, GJ_BAD_INPUT,
                       "%s line %ld: RATE_MS and BURST_MS must be whole numbers from 1 to "
                       "1000000000",
                       path, lineno);
    memcpy(out->bytes, key, klen);
    out->len = klen;
    for (size_t i = 0; i < k->n; i++)
        if (same_key(&k->keys[i], out))
            return gj_fail(e, GJ_BAD_INPUT, "%s line %ld: the same key as key#%zu", path, lineno,
                           i + 1);
    k->n++;
    return 0;
}

gj_api_keys *api_keys_parse(const char *text, size_t len, const char *path, gj_error *e)
{
    size_t lines = 1;
    for (size_t i = 0; i < len; i++)
        lines += text[i] == '\n';
    gj_api_keys *k = calloc(1, sizeof *k);
    if (k == NULL || (k->keys = calloc(lines, sizeof *k->keys)) == NULL) {
        free(k);
        gj_fail_nomem(e);
        return NULL;
    }
    const char *p = text, *end = text + len;
    for (long lineno = 1; p < end; lineno++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *stop = nl ? nl : end;
        if (stop > p && stop[-1] == '\r')
            stop--;
        if (parse_line(k, p, stop, lineno, path, e) != 0) {
            api_keys_free(k);
            return NULL;
        }
        p = nl ? nl + 1 : end;
    }
    if (k->n == 0) {
        api_keys_free(k);
        gj_fail(e, GJ_BAD_INPUT, "%s: no key in the file", path);
        return NULL;
    }
    return k;
}

gj_api_keys *api_keys_load(const char *path, gj_error *e)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        gj_fail(e, GJ_BAD_INPUT, "--api-keys: cannot read '%s': %s", path, strerror(errno));
        return NULL;
    }
    char *text = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len == cap) {
            char *more = cap < (1u << 24) ? realloc(text, cap ? cap * 2 : 4096) : NULL;
            if (more == NULL) {
                free(text);
                fclose(f);
                gj_fail(e, GJ_BAD_INPUT, "--api-keys: '%s' is too large (16 MiB at most)", path);
                return NULL;
            }
            text = more;
            cap = cap ? cap * 2 : 4096;
        }
        size_t got = fread(text + len, 1, cap - len, f);
        len += got;
        if (got == 0)
            break;
    }
    fclose(f);
    gj_api_keys *k = api_keys_parse(text, len, path, e);
    memset(text, 0, cap); /* the keys do not linger in freed memory */
    free(text);
    return k;
}

void api_keys_free(gj_api_keys *k)
{
    if (k == NULL)
        return;
    if (k->keys != NULL)
        memset(k->keys, 0, k->n * sizeof *k->keys);
    free(k->keys);
    free(k);
}

size_t api_keys_count(const gj_api_keys *k)
{
    return k->n;
}

int api_keys_find(const gj_api_keys *k, const char *given, double *rate_ms, double *burst_ms)
{
    /* A field value's leading and trailing blanks are not part of it (RFC
     * 9110 5.5); libmicrohttpd drops the leading ones only. */
    while (*given == ' ' || *given == '\t')
        given++;
    size_t glen = strlen(given);
    while (glen > 0 && (given[glen - 1] == ' ' || given[glen - 1] == '\t'))
        glen--;
    if (glen > API_KEY_MAX)
        return -1;
    api_key probe;
    memset(&probe, 0, sizeof probe);
    memcpy(probe.bytes, given, glen);
    probe.len = glen;
    int found = -1;
    for (size_t i = 0; i < k->n; i++) /* every key, matched or not */
        if (same_key(&k->keys[i], &probe) && found < 0)
            found = (int)i;
    memset(&probe, 0, sizeof probe);
    if (found >= 0) {
        *rate_ms = k->keys[found].rate_ms;
        *burst_ms = k->keys[found].burst_ms;
    }
    return found;
}
