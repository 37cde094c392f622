/* route.c - the routing table. */
#include "route.h"

#include <string.h>

#include "games.h"

#define SOLVE_PREFIX "/solve/"

static const struct {
    const char *path;
    route_kind kind;
} fixed[] = {
    {"/games", ROUTE_GAMES}, {"/healthz", ROUTE_HEALTH}, {"/openapi.yaml", ROUTE_SPEC},
    {"/docs", ROUTE_DOCS},   {"/readyz", ROUTE_READY},   {"/metrics", ROUTE_METRICS},
};

static route check_method(route r, const char *method)
{
    /* HEAD is GET without the body; libmicrohttpd drops the body itself. */
    int ok = r.kind == ROUTE_SOLVE ? strcmp(method, "POST") == 0
                                   : strcmp(method, "GET") == 0 || strcmp(method, "HEAD") == 0;
    if (!ok) {
        r.target = r.kind;
        r.kind = ROUTE_BAD_METHOD;
    }
    return r;
}

route route_match(const char *method, const char *path)
{
    route r = {ROUTE_NOT_FOUND, ROUTE_NOT_FOUND, NULL, NULL};
    size_t prefix = strlen(SOLVE_PREFIX);

    if (strncmp(path, SOLVE_PREFIX, prefix) == 0) {
        const char *name = path + prefix;
        r.game = games_find(name, strlen(name));
        if (r.game == NULL) {
            r.kind = ROUTE_UNKNOWN_GAME;
            return r;
        }
        r.kind = ROUTE_SOLVE;
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
