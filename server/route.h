/* route.h - which handler a method and path go to.
 *
 * Routing is a pure function of the method and the path (no query string),
 * so it is unit-tested without a server.  An unknown path is 404 whatever
 * the method; a known path with the wrong method is 405 with `allow`. */
#ifndef GJ_ROUTE_H
#define GJ_ROUTE_H

#include "game.h"

typedef enum route_kind {
    ROUTE_SOLVE,   /* POST /solve/{game} */
    ROUTE_ANALYZE, /* POST /analyze/{game} */
    ROUTE_JUDGE,   /* POST /judge/{game} */
    ROUTE_BATCH,   /* POST /batch */
    ROUTE_GAMES,
    ROUTE_HEALTH,
    ROUTE_SPEC,
    ROUTE_DOCS,
    ROUTE_READY,
    ROUTE_METRICS,
    ROUTE_PLAYGROUND,   /* GET / */
    ROUTE_NOT_FOUND,    /* no such path */
    ROUTE_UNKNOWN_GAME, /* /solve/<name> (or analyze, judge) naming no game */
    ROUTE_BAD_METHOD,   /* path exists, method not in `allow` */
} route_kind;

typedef struct route {
    route_kind kind;
    route_kind target;   /* with ROUTE_BAD_METHOD: the route the path names */
    const gj_game *game; /* with the per-game routes (and BAD_METHOD on their paths) */
    const char *allow;   /* methods the path accepts, for the Allow header */
} route;

route route_match(const char *method, const char *path);

/* 1 for the routes whose work runs on the pool (POST with a body). */
int route_is_job(route_kind kind);

#endif
