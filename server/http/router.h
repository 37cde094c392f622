/* router.h - matching a request against a route table, lwan's url_map way:
 * a row per endpoint, a handler per row.
 *
 * A row names the path (or, for the per-game routes, the prefix before the
 * game's name), the methods it takes, its handler (a job handler, jobs.h)
 * and its lane: LANE_IO rows are answered on the I/O thread as soon as the
 * request is complete, LANE_POOL rows (a POST with a body) go to a worker.
 * The rows themselves are the endpoints layer's (routes.h); the HTTP front
 * is given the table at start-up and never names a handler.
 *
 * Matching is a pure function of the method and the path (no query
 * string), so it is unit-tested without a server: an unknown path is 404
 * whatever the method, an unknown game 404 unknown_game, and a known path
 * with another method 405, with `allow` for the Allow header. */
#ifndef GJ_ROUTER_H
#define GJ_ROUTER_H

#include <stdbool.h>
#include <stddef.h>

#include "error.h"
#include "game.h"
#include "jobs.h"
#include "query.h"

typedef enum route_lane {
    LANE_IO,   /* cheap: answered on the I/O thread */
    LANE_POOL, /* a body to work on: a worker answers */
} route_lane;

/* Which listener serves a row when --admin-address adds a second one; with
 * no admin listener the public port serves every row. */
typedef enum route_listener {
    ON_PUBLIC, /* the API and its pages: the public port only */
    ON_BOTH,   /* probes: either port, so both can be probed */
    ON_ADMIN,  /* operators' data (/metrics): the admin port only */
} route_listener;

typedef struct route_row {
    const char *path;   /* the exact path, or with per_game or a suffix the prefix */
    bool per_game;      /* the rest of the path names a game ... */
    bool arg;           /* ... which may be followed by "/ARG" ... */
    const char *suffix; /* ... or must be, and then by this ("/check"); NULL: none.  On a
                         * row of no game: the prefix, one segment ARG, then this */
    bool game_suffix;   /* the suffix follows the game at once ("GAME/image.svg"), no ARG */
    bool unlisted;      /* left out of the 404's list of paths (a variant of a listed path
                         * the spec documents), which must fit an error's message */
    const char *allow;  /* the methods taken, as the Allow header lists them */
    route_lane lane;
    job_handler handler;
    bool text_answer;      /* may answer judge text (?format=text, Accept); others JSON only */
    bool position_body;    /* the body is the game's position alone, JSON or judge text: read
                            * as it arrives by the game's read_json or read_text (game.h),
                            * a JSON one with no tree (the budget's charge, budget.h) */
    bool tree_body;        /* a JSON body is read as it arrives into its tree (json_tree.h),
                            * which the handler takes as the job's tree (jobs.h) */
    bool analysis_body;    /* with tree_body: a game with gj_play.read_analysis (game.h) reads
                            * the position's bulk member into its arrays and the rest into the
                            * tree, and the handler takes both (jobs.h's read_analysis) */
    bool game_metrics;     /* counted per game in the request metrics (its metrics label) */
    bool cacheable;        /* its answers are tagged (its job gets a job_tag, jobs.h), and its
                            * tagged GET answers may be kept by shared caches (etag.h) */
    job_estimate estimate; /* a small body's cost, estimated on the I/O thread (jobs_triage):
                            * answered there when cheap; NULL: the heavy lane */
    const char *csp;       /* Content-Security-Policy of its answers, or NULL */
    bool nosniff;          /* its answers say X-Content-Type-Options: nosniff (an image a
                            * browser must never read as anything else) */
    const char *doc;       /* one line for `serve --help` */
    route_listener listener;
    query_route query;  /* GET and HEAD carry the POST body in the query (query.h) */
    bool lenient_query; /* a page a browser opens from links: its query is not checked */
} route_row;

/* The longest path argument (a puzzle id) a match keeps. */
#define ROUTE_ARG_MAX 1024

typedef struct route_match {
    const route_row *row;    /* NULL when the path names no endpoint */
    const gj_game *game;     /* the per-game rows */
    char arg[ROUTE_ARG_MAX]; /* the rows with `arg` or `suffix`: ARG, or "" */
    gj_error error;          /* GJ_OK, or not_found, unknown_game, method_not_allowed */
} route_match;

/* The route table, in the order `serve --help` lists it (the endpoints
 * layer owns it: routes.h). */
typedef struct route_table {
    const route_row *rows;
    size_t count;
} route_table;

/* Match method and path against table t into *m. */
void router_match(const route_table *t, const char *method, const char *path, route_match *m);

/* Restrict the match of `path` to what one listener serves: with an admin listener
 * (admin_configured), a row the listener (admin or public) does not serve
 * becomes not_found, naming where it is served.  Without one, nothing
 * changes. */
void router_restrict(route_match *m, const char *path, bool on_admin, bool admin_configured);

#endif
