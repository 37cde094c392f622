/* route.c - the routing table. */
#include "route.h"

#include <string.h>

#include "games.h"

static const struct {
    const char *prefix;
    route_kind kind;
} per_game[] = {
    {"/solve/", ROUTE_SOLVE},
    {"/analyze/", ROUTE_ANALYZE},
    {"/judge/", ROUTE_JUDGE},
};

static const struct {
    const char *path;
    route_kind kind;
} fixed[] = {
    {"/games", ROUTE_GAMES}, {"/healthz", ROUTE_HEALTH}, {"/openapi.yaml", ROUTE_SPEC},
    {"/docs", ROUTE_DOCS},   {"/readyz", ROUTE_READY},   {"/metrics", ROUTE_METRICS},
    {"/", ROUTE_PLAYGROUND},
};

static route check_method(route r, const char *method)
{
    /* HEAD is GET without the body; libmicrohttpd drops the body itself. */
    int ok = route_is_job(r.kind) ? strcmp(method, "POST") == 0
                                  : strcmp(method, "GET") == 0 || strcmp(method, "HEAD") == 0;
    if (!ok) {
        r.target = r.kind;
        r.kind = ROUTE_BAD_METHOD;
    }
    return r;
}

int route_is_job(route_kind kind)
{
    return kind == ROUTE_SOLVE || kind == ROUTE_ANALYZE || kind == ROUTE_JUDGE ||
           kind == ROUTE_BATCH;
}

route route_match(const char *method, const char *path)
{
    route r = {ROUTE_NOT_FOUND, ROUTE_NOT_FOUND, NULL, NULL};

    for (size_t i = 0; i < sizeof per_game / sizeof per_game[0]; i++) {
        size_t prefix = strlen(per_game[i].prefix);
        if (strncmp(path, per_game[i].prefix, prefix) != 0)
            continue;
        const char *name = path + prefix;
        r.game = games_find(name, strlen(name));
        if (r.game == NULL) {
            r.kind = ROUTE_UNKNOWN_GAME;
            return r;
        }
        r.kind = per_game[i].kind;
        r.allow = "POST";
        return check_method(r, method);
    }
    if (strcmp(path, "/batch") == 0) {
        r.kind = ROUTE_BATCH;
        r.allow = "POST";
        return check_method(r, method);
    }
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
        if (strcmp(path, fixed[i].path) == 0) {
            r.kind = fixed[i].kind;
            r.allow = "GET, HEAD";
            return check_method(r, method);
        }
    return r;
}
