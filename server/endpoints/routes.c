/* routes.c - the route table (routes.h). */
#include "routes.h"

#include "endpoints.h"

/* The playground is whole in itself: nothing loads from elsewhere. */
#define PLAYGROUND_CSP                                                                             \
    "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; "   \
    "connect-src 'self'; base-uri 'none'; form-action 'none'"

/* A picture is an image and nothing else: it loads nothing, runs nothing. */
#define PICTURE_CSP "default-src 'none'"

/* HEAD is GET without the body; libmicrohttpd drops the body itself.
 * Every row's query is checked (query_check) but the two pages a browser
 * opens from links, which may carry tracking parameters (?utm_source=):
 * refusing those would break the link, and neither page reads a query. */
static const route_row table[] = {
    {.path = "/solve/",
     .per_game = true,
     .allow = "GET, HEAD, POST",
     .lane = LANE_POOL,
     .handler = endpoint_solve,
     .text_answer = true,
     .game_metrics = true,
     .estimate = solve_estimate,
     .doc = "who wins a position, as JSON or as the judge's output",
     .cacheable = true,
     .query = QUERY_SOLVE},
    {.path = "/analyze/",
     .per_game = true,
     .suffix = "/image.svg",
     .game_suffix = true,
     .allow = "GET, HEAD",
     .lane = LANE_POOL,
     .handler = endpoint_analyze_picture,
     .doc = "a picture of a position in play (SVG), its request as GET /analyze takes it",
     .cacheable = true,
     .csp = PICTURE_CSP,
     .nosniff = true,
     .unlisted = true,
     .query = QUERY_ANALYZE},
    {.path = "/analyze/",
     .per_game = true,
     .allow = "GET, HEAD, POST",
     .lane = LANE_POOL,
     .handler = endpoint_analyze,
     .doc = "every legal move of a position in play, best first, and its perfect-play line",
     .cacheable = true,
     .query = QUERY_ANALYZE},
    {.path = "/move/",
     .per_game = true,
     .allow = "POST",
     .lane = LANE_POOL,
     .handler = endpoint_move,
     .doc = "the engine's move in a position in play, at a level from random to perfect"},
    {.path = "/judge/",
     .per_game = true,
     .allow = "POST",
     .lane = LANE_POOL,
     .handler = endpoint_judge,
     .doc = "a submitted output checked against the right one"},
    {.path = "/generate/",
     .per_game = true,
     .allow = "POST",
     .lane = LANE_POOL,
     .handler = endpoint_generate,
     .doc = "a fresh position with the outcome asked for, and its answer"},
    {.path = "/puzzle/",
     .per_game = true,
     .suffix = "/check",
     .allow = "POST",
     .lane = LANE_POOL,
     .handler = endpoint_puzzle_check,
     .doc = "a visitor's moves on a puzzle judged, with the defender's replies"},
    {.path = "/puzzle/",
     .per_game = true,
     .suffix = "/image.svg",
     .allow = "GET, HEAD",
     .lane = LANE_POOL,
     .handler = endpoint_puzzle_picture,
     .doc = "a picture of a puzzle's position (SVG), for link previews",
     .cacheable = true,
     .csp = PICTURE_CSP,
     .nosniff = true,
     .unlisted = true},
    {.path = "/puzzle/",
     .per_game = true,
     .arg = true,
     .allow = "GET, HEAD",
     .lane = LANE_POOL,
     .handler = endpoint_puzzle,
     .estimate = puzzle_estimate,
     .cacheable = true,
     .doc = "a rated puzzle without its solution: by seed and band, the daily one, or by id",
     .query = QUERY_PARAMS},
    {.path = "/batch",
     .allow = "POST",
     .lane = LANE_POOL,
     .handler = endpoint_batch,
     .doc = "many positions of any games, answered in order"},
    {.path = "/games",
     .allow = "GET, HEAD",
     .lane = LANE_IO,
     .handler = pages_games,
     .doc = "the games, their limits in force and examples"},
    {.path = "/healthz",
     .allow = "GET, HEAD",
     .lane = LANE_IO,
     .handler = pages_health,
     .doc = "liveness",
     .listener = ON_BOTH},
    {.path = "/readyz",
     .allow = "GET, HEAD",
     .lane = LANE_IO,
     .handler = pages_ready,
     .doc = "readiness: 503 once a stop has begun",
     .listener = ON_BOTH},
    {.path = "/metrics",
     .allow = "GET, HEAD",
     .lane = LANE_IO,
     .handler = pages_metrics,
     .doc = "Prometheus metrics",
     .listener = ON_ADMIN},
    {.path = "/openapi.yaml",
     .allow = "GET, HEAD",
     .lane = LANE_IO,
     .handler = pages_spec,
     .doc = "the OpenAPI document"},
    {.path = "/docs",
     .allow = "GET, HEAD",
     .lane = LANE_IO,
     .handler = pages_docs,
     .doc = "the OpenAPI document as a page",
     .lenient_query = true},
    {.path = "/",
     .allow = "GET, HEAD",
     .lane = LANE_IO,
     .handler = pages_playground,
     .csp = PLAYGROUND_CSP,
     .doc = "the playground",
     .lenient_query = true},
};

const route_row *routes_table(size_t *count)
{
    *count = sizeof table / sizeof table[0];
    return table;
}

void routes_match(const char *method, const char *path, route_match *m)
{
    route_table t = {table, sizeof table / sizeof table[0]};
    router_match(&t, method, path, m);
}
