/* routes.c - the route table and its matching (routes.h). */
#include "routes.h"

#include <stdio.h>
#include <string.h>

#include "games.h"
#include "pages.h"

/* The playground is whole in itself: nothing loads from elsewhere. */
#define PLAYGROUND_CSP                                                                             \
    "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; "   \
    "connect-src 'self'; base-uri 'none'; form-action 'none'"

/* HEAD is GET without the body; libmicrohttpd drops the body itself. */
static const route_row table[] = {
    {.path = "/solve/",
     .per_game = true,
     .allow = "GET, HEAD, POST",
     .lane = LANE_POOL,
     .handler = jobs_solve,
     .text_answer = true,
     .game_metrics = true,
     .estimable = true,
     .doc = "who wins a position, as JSON or as the judge's output",
     .query = QUERY_SOLVE},
    {.path = "/analyze/",
     .per_game = true,
     .allow = "GET, HEAD, POST",
     .lane = LANE_POOL,
     .handler = jobs_analyze,
     .doc = "every legal move of a position in play, best first, and its perfect-play line",
     .query = QUERY_ANALYZE},
    {.path = "/move/",
     .per_game = true,
     .allow = "POST",
     .lane = LANE_POOL,
     .handler = jobs_move,
     .doc = "the engine's move in a position in play, at a level from random to perfect"},
    {.path = "/judge/",
     .per_game = true,
     .allow = "POST",
     .lane = LANE_POOL,
     .handler = jobs_judge,
     .doc = "a submitted output checked against the right one"},
    {.path = "/generate/",
     .per_game = true,
     .allow = "POST",
     .lane = LANE_POOL,
     .handler = jobs_generate,
     .doc = "a fresh position with the outcome asked for, and its answer"},
    {.path = "/batch",
     .allow = "POST",
     .lane = LANE_POOL,
     .handler = jobs_batch,
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
     .doc = "the OpenAPI document as a page"},
    {.path = "/",
     .allow = "GET, HEAD",
     .lane = LANE_IO,
     .handler = pages_playground,
     .csp = PLAYGROUND_CSP,
     .doc = "the playground"},
};

const route_row *routes_table(size_t *count)
{
    *count = sizeof table / sizeof table[0];
    return table;
}

/* True when `method` is one of the comma-separated methods in `allow`. */
static bool method_allowed(const char *allow, const char *method)
{
    size_t n = strlen(method);
    for (const char *p = allow; *p != '\0';) {
        size_t len = strcspn(p, ",");
        if (len == n && memcmp(p, method, n) == 0)
            return true;
        p += len;
        p += strspn(p, ", ");
    }
    return false;
}

/* The row whose path is `path` or, per game, a prefix of it; NULL if none. */
static const route_row *find_row(const char *path)
{
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        const route_row *r = &table[i];
        if (r->per_game ? strncmp(path, r->path, strlen(r->path)) == 0 : strcmp(path, r->path) == 0)
            return r;
    }
    return NULL;
}

/* "POST /solve/<game>, ..., GET /": every row's main method (POST when
 * it takes one) and path, from the table, into out. */
static void list_paths(char *out, size_t cap)
{
    size_t used = 0;
    out[0] = '\0';
    for (size_t i = 0; i < sizeof table / sizeof table[0] && used < cap; i++) {
        const route_row *r = &table[i];
        int n = snprintf(out + used, cap - used, "%s%s %s%s", i ? ", " : "",
                         method_allowed(r->allow, "POST") ? "POST" : "GET", r->path,
                         r->per_game ? "<game>" : "");
        used += n > 0 ? (size_t)n : 0;
    }
}

void routes_match(const char *method, const char *path, route_match *m)
{
    char names[256];
    gj_error_clear(&m->error);
    m->game = NULL;
    m->row = find_row(path);
    if (m->row == NULL) {
        char paths[400];
        list_paths(paths, sizeof paths);
        gj_fail(&m->error, GJ_NOT_FOUND,
                "no such path: %.80s (the paths are %s; GET / is the playground)", path, paths);
        return;
    }
    if (m->row->per_game) {
        const char *name = path + strlen(m->row->path);
        m->game = games_find(name, strlen(name));
        if (m->game == NULL) {
            games_list(names, sizeof names);
            gj_fail(&m->error, GJ_UNKNOWN_GAME, "unknown game '%.60s'; the games are %s",
                    strrchr(path, '/') + 1, names);
            return;
        }
    }
    if (!method_allowed(m->row->allow, method))
        gj_fail(&m->error, GJ_BAD_METHOD, "%s is not allowed on %s; use %s", method, path,
                m->row->allow);
}

void routes_restrict(route_match *m, const char *path, bool on_admin, bool admin_configured)
{
    const route_row *r = m->row;
    if (!admin_configured || r == NULL)
        return;
    if (r->listener == ON_BOTH || (r->listener == ON_ADMIN) == on_admin)
        return;
    m->row = NULL;
    m->game = NULL;
    gj_error_clear(&m->error);
    if (on_admin)
        gj_fail(&m->error, GJ_NOT_FOUND,
                "no such path on the admin listener: %s (it serves GET /metrics, GET /healthz "
                "and GET /readyz)",
                path);
    else
        gj_fail(&m->error, GJ_NOT_FOUND,
                "%s is served on the admin listener (--admin-address) only", path);
}
