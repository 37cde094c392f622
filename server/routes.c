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
    /* path           per_game allow       lane       handler         text   metrics csp */
    {"/solve/", true, "POST", LANE_POOL, jobs_solve, true, true, NULL},
    {"/analyze/", true, "POST", LANE_POOL, jobs_analyze, false, false, NULL},
    {"/judge/", true, "POST", LANE_POOL, jobs_judge, false, false, NULL},
    {"/batch", false, "POST", LANE_POOL, jobs_batch, false, false, NULL},
    {"/games", false, "GET, HEAD", LANE_IO, pages_games, false, false, NULL},
    {"/healthz", false, "GET, HEAD", LANE_IO, pages_health, false, false, NULL},
    {"/readyz", false, "GET, HEAD", LANE_IO, pages_ready, false, false, NULL},
    {"/metrics", false, "GET, HEAD", LANE_IO, pages_metrics, false, false, NULL},
    {"/openapi.yaml", false, "GET, HEAD", LANE_IO, pages_spec, false, false, NULL},
    {"/docs", false, "GET, HEAD", LANE_IO, pages_docs, false, false, NULL},
    {"/", false, "GET, HEAD", LANE_IO, pages_playground, false, false, PLAYGROUND_CSP},
};

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

void routes_match(const char *method, const char *path, route_match *m)
{
    char names[256];
    gj_error_clear(&m->error);
    m->game = NULL;
    m->row = find_row(path);
    if (m->row == NULL) {
        gj_fail(&m->error, GJ_NOT_FOUND,
                "no such path: %s (try GET / for the playground, POST /solve/<game>, "
                "POST /analyze/<game>, POST /judge/<game>, POST /batch, GET /games, "
                "GET /healthz, GET /readyz, GET /metrics, GET /openapi.yaml or GET /docs)",
                path);
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
