/* etag.h - the strong entity tag of an answer, and If-None-Match.
 *
 * An answer is a pure function of its canonical request, so its tag is
 *
 *   "<game version>.<answer format version>-<xxh3-64 of the canonical key, 16 hex>"
 *
 * (game.h: gj_game.version and GJ_ANSWER_FORMAT_VERSION; either changes
 * whenever an answer could).  The canonical key of a solve is the result
 * cache's key (the game, the answer's media, write_key of the parsed
 * position), so the judge text and the JSON twin of one position share a
 * tag; the key of an analysis is the game and line.h's canonical form of
 * the parsed request (sorted keys, compact, the line options in effect
 * included, so a default that depends on the position is in the key).
 * Neither is ever taken from the body's bytes: padding, key order and
 * escapes cannot split or merge tags.  The two are seeded differently, so a
 * solve and an analysis never share a tag.  The rule the tests hold: equal
 * tags, byte-identical bodies.
 *
 * If-None-Match (RFC 9110 13.1.2) is "*" or a comma-separated list of
 * entity tags, weak (W/"...") or strong, compared weakly.  A header that is
 * not that grammar matches nothing: the answer is sent in full, as if the
 * header were absent.  The server matches only an answer it has made (or
 * found in its cache), so a 304 (GET, HEAD) or 412 (POST) is only ever
 * given where the same request without the header is a 200. */
#ifndef GJ_ETAG_H
#define GJ_ETAG_H

#include <stdbool.h>
#include <stddef.h>

#include "buf.h"
#include "game.h"

/* A tag with its quotes and NUL fits: two versions of up to 24 bytes, '.', '-', 16 hex. */
#define ETAG_MAX 72

/* ETAG_PUZZLE: the key is the answer's own bytes (a puzzle's answer is
 * rebuilt from its id, and hashing the bytes needs no argument that every
 * input of the answer is in a key); ETAG_PICTURE likewise, the bytes of a
 * picture (an SVG document), seeded apart. */
typedef enum etag_kind { ETAG_SOLVE, ETAG_ANALYZE, ETAG_PUZZLE, ETAG_PICTURE } etag_kind;

/* The tag of an answer of `kind` by game g whose canonical key is key[len]. */
void etag_make(const gj_game *g, etag_kind kind, const void *key, size_t len, char out[ETAG_MAX]);

/* The result cache's key of an analysis and its tag: *key holds the
 * request's canonical form (line.h), and the game, a NUL and 'a' are put
 * in front of it, in place, as a large body's form is not worth a copy.
 * 0, or -1 when memory is short. */
int etag_analysis(const gj_game *g, gj_buf *key, char out[ETAG_MAX]);

/* True when the If-None-Match value `header` (NULL: absent) matches `etag`;
 * `star_matches` says whether "*" does (see etag.c). */
bool etag_none_match(const char *header, const char *etag, bool star_matches);

#endif
