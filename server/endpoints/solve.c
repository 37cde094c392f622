/* solve.c - the parse -> solve -> write pipeline with timings (solve.h). */
#include "solve.h"

/* Milliseconds from *mark to now; moves *mark to now, so successive calls time successive
 * stages. */
static double ms_since(unsigned long long *mark)
{
    unsigned long long now = clock_ns();
    double ms = (double)(now - *mark) / 1e6;
    *mark = now;
    return ms;
}

/* The cache key: the game, the answer's format, the canonical position. */
static int build_key(const gj_game *g, const void *pos, media_kind output, gj_buf *key)
{
    buf_puts(key, g->name);
    buf_putc(key, '\0');
    buf_putc(key, output == MEDIA_JSON ? 'j' : 't');
    g->write_key(pos, key);
    return key->failed ? -1 : 0;
}

/* Solve pos and, if that succeeds, write the answer to out in `output`, timing both into t
 * from *mark: 0, or -1 with e set. */
static int solve_and_write(const gj_game *g, void *pos, media_kind output, gj_buf *out,
                           solve_timing *t, unsigned long long *mark, gj_error *e)
{
    int rc = g->solve(pos, e);
    t->solve_ms = ms_since(mark);
    if (rc == 0) {
        if (output == MEDIA_JSON)
            g->write_json(pos, out);
        else
            g->write_text(pos, out);
        if (out->failed)
            rc = gj_fail_nomem(e);
    }
    t->write_ms = ms_since(mark);
    return rc;
}

void *solve_parse(const gj_game *g, const long *limits, media_kind input, const char *in,
                  size_t len, double *parse_ms, gj_error *e)
{
    unsigned long long mark = clock_ns();
    gj_error_clear(e);
    void *pos =
        input == MEDIA_JSON ? g->parse_json(in, len, limits, e) : g->parse_text(in, len, limits, e);
    *parse_ms = ms_since(&mark);
    if (pos == NULL && e->kind == GJ_OK)
        gj_fail(e, GJ_INTERNAL, "%s: the parser failed without saying why", g->name);
    return pos;
}

int solve_parsed_cached(const gj_game *g, void *pos, media_kind output, gj_cache *cache,
                        const gj_error *only_cached, gj_buf *out, solve_timing *t,
                        cache_result *how, solve_tag *tag, gj_error *e)
{
    unsigned long long mark = clock_ns();
    gj_error_clear(e);
    *how = CACHE_BYPASS;
    t->solve_ms = t->write_ms = 0;
    if (tag != NULL) {
        tag->etag[0] = '\0';
        tag->not_modified = false;
    }
    cache_ticket *ticket = NULL;
    int rc = 0;
    if ((cache != NULL || tag != NULL) && g->write_key != NULL) {
        gj_buf key;
        buf_init(&key);
        if (build_key(g, pos, output, &key) == 0) {
            if (tag != NULL)
                etag_make(g, ETAG_SOLVE, key.data, key.len, tag->etag);
            if (cache != NULL && only_cached != NULL) /* nothing claimed that will not be made */
                *how = cache_peek(cache, key.data, key.len, out) ? CACHE_HIT : CACHE_BYPASS;
            else if (cache != NULL)
                *how = cache_get(cache, key.data, key.len, out, &ticket);
        }
        buf_free(&key);
    }
    if (*how == CACHE_HIT) {
        t->write_ms = ms_since(&mark);
        rc = out->failed ? gj_fail_nomem(e) : 0;
    } else if (only_cached != NULL) {
        *e = *only_cached;
        rc = -1;
    } else {
        rc = solve_and_write(g, pos, output, out, t, &mark, e);
    }
    g->free_position(pos);
    if (ticket != NULL) {
        if (rc == 0)
            cache_fill(cache, ticket, out->data, out->len);
        else
            cache_abandon(cache, ticket);
    }
    /* Matched only once the answer is known to be a 200 (etag.h). */
    if (rc == 0 && tag != NULL && tag->etag[0] != '\0')
        tag->not_modified = etag_none_match(tag->if_none_match, tag->etag, true);
    return rc;
}

int solve_position_tagged(const gj_game *g, const long *limits, media_kind input, const char *in,
                          size_t len, media_kind output, gj_cache *cache, gj_buf *out,
                          solve_timing *t, cache_result *how, solve_tag *tag, gj_error *e)
{
    *how = CACHE_BYPASS;
    t->solve_ms = t->write_ms = 0;
    if (tag != NULL) {
        tag->etag[0] = '\0';
        tag->not_modified = false;
    }
    void *pos = solve_parse(g, limits, input, in, len, &t->parse_ms, e);
    if (pos == NULL)
        return -1;
    return solve_parsed_cached(g, pos, output, cache, NULL, out, t, how, tag, e);
}

int solve_position_cached(const gj_game *g, const long *limits, media_kind input, const char *in,
                          size_t len, media_kind output, gj_cache *cache, gj_buf *out,
                          solve_timing *t, cache_result *how, gj_error *e)
{
    return solve_position_tagged(g, limits, input, in, len, output, cache, out, t, how, NULL, e);
}

int solve_position(const gj_game *g, const long *limits, media_kind input, const char *in,
                   size_t len, media_kind output, gj_buf *out, solve_timing *t, gj_error *e)
{
    cache_result how;
    return solve_position_cached(g, limits, input, in, len, output, NULL, out, t, &how, e);
}

media_kind solve_sniff_input(const char *in, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        char c = in[i];
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r')
            continue;
        return c == '{' ? MEDIA_JSON : MEDIA_TEXT;
    }
    return MEDIA_TEXT;
}
