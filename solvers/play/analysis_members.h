/* analysis_members.h - what the endpoints over analyze() share: the
 * members a request may hold.
 *
 * /analyze (line.h), /move (engine.h) and /picture take the game's
 * analyze() request plus members of their own.  Each checks the request's
 * members against that union before the game reads the position, so an
 * unknown member is named with exactly the list that endpoint takes, not
 * the bare analyze()'s. */
#ifndef GJ_ANALYSIS_MEMBERS_H
#define GJ_ANALYSIS_MEMBERS_H

#include <jansson.h>

#include "error.h"
#include "game.h"

/* The members `names` (NULL-terminated) of req that only the wrapper reads:
 * the first one present, or NULL. */
const char *analysis_first_member(const json_t *req, const char *const *names);

/* The most members an endpoint over analyze() may list: the game's and the
 * wrapper's own. */
#define ANALYSIS_MAX_MEMBERS 16

/* Every member of `req` is one the endpoint takes: one of g's analyze_keys
 * (without "max_moves" when `drop` names it; NULL drops none) or one of
 * `own` (the wrapper's, NULL-terminated, "?name" when optional).  0, or -1
 * with *e naming the first other member and listing exactly those, so the
 * message of /analyze or /move is not the bare analyze()'s. */
int analysis_known_members(const gj_game *g, const json_t *req, const char *drop,
                           const char *const *own, gj_error *e);

#endif
