/* solve.h - one position through a game: parse -> solve -> write.
 *
 * Shared by the handlers that solve (solve_job.c, and fanout.c for /batch
 * and /judge) and `gamejudge solve`, so all answer the same bytes for the
 * same input.  Times are wall-clock milliseconds (clock.h).  What the
 * result cache did is its own answer (cache.h): CACHE_HIT, CACHE_CLAIMED
 * for a miss solved and kept, CACHE_BYPASS when there is no cache or it
 * keeps no such answer. */
#ifndef GJ_SOLVE_H
#define GJ_SOLVE_H

#include <stdbool.h>
#include <stddef.h>

#include "buf.h"
#include "cache.h"
#include "clock.h"
#include "error.h"
#include "etag.h"
#include "game.h"
#include "media.h"

/* Answer `in` (of kind `input`) as `output` into *out.  0, or -1 with *e. */
int solve_position(const gj_game *g, const long *limits, media_kind input, const char *in,
                   size_t len, media_kind output, gj_buf *out, solve_timing *t, gj_error *e);

/* solve_position through `cache` (NULL: none): the position is parsed,
 * its canonical key looked up, and only a miss is solved and stored.
 * Concurrent requests for one key are solved once. */
int solve_position_cached(const gj_game *g, const long *limits, media_kind input, const char *in,
                          size_t len, media_kind output, gj_cache *cache, gj_buf *out,
                          solve_timing *t, cache_result *how, gj_error *e);

/* An answer's tag (etag.h) for solve_position_tagged.  In: the request's
 * If-None-Match (NULL: none).  Out: the tag ("" when the game has no key)
 * and whether the header matched it.  The answer is made (or taken from the
 * cache) either way, and matched only when it was: a match means the same
 * request without the header is a 200, and the answer's length is known for
 * the 304's Content-Length. */
typedef struct solve_tag {
    const char *if_none_match;
    char etag[ETAG_MAX];
    bool not_modified;
} solve_tag;

/* solve_position_cached that also tags the answer (solve_tag). */
int solve_position_tagged(const gj_game *g, const long *limits, media_kind input, const char *in,
                          size_t len, media_kind output, gj_cache *cache, gj_buf *out,
                          solve_timing *t, cache_result *how, solve_tag *tag, gj_error *e);

/* The two halves of solve_position_cached, for a caller that decides
 * between parsing and solving (the server estimates the cost of a parsed
 * position to choose where it is solved).  solve_parse: the position, or
 * NULL with *e; *parse_ms its time.  solve_parsed_cached: the rest, tagged as
 * solve_position_tagged does when tag is not NULL, taking ownership of pos
 * (always freed); t->parse_ms is left as it is.  With only_cached, the
 * answer comes from the cache or not at all: a miss is that error (jobs.h). */
void *solve_parse(const gj_game *g, const long *limits, media_kind input, const char *in,
                  size_t len, double *parse_ms, gj_error *e);
int solve_parsed_cached(const gj_game *g, void *pos, media_kind output, gj_cache *cache,
                        const gj_error *only_cached, gj_buf *out, solve_timing *t,
                        cache_result *how, solve_tag *tag, gj_error *e);

/* MEDIA_JSON when the first non-blank byte is '{' (judge input never starts
 * so), for callers that have no Content-Type. */
media_kind solve_sniff_input(const char *in, size_t len);

#endif
