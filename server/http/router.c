/* router.c - matching a request against a route table (router.h). */
#include "router.h"

#include <stdio.h>
#include <string.h>

#include "games.h"

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
static const route_row *find_row(const route_table *t, const char *path)
{
    for (size_t i = 0; i < t->count; i++) {
        const route_row *r = &t->rows[i];
        if (r->per_game ? strncmp(path, r->path, strlen(r->path)) == 0 : strcmp(path, r->path) == 0)
            return r;
    }
    return NULL;
}

/* "POST /solve/<game>, ..., GET /": every row's main method (POST when
 * it takes one) and path, from the table, into out. */
static void list_paths(const route_table *t, char *out, size_t cap)
{
    size_t used = 0;
    out[0] = '\0';
    for (size_t i = 0; i < t->count && used < cap; i++) {
        const route_row *r = &t->rows[i];
        int n = snprintf(out + used, cap - used, "%s%s %s%s", i ? ", " : "",
                         method_allowed(r->allow, "POST") ? "POST" : "GET", r->path,
                         r->per_game ? "<game>" : "");
        used += n > 0 ? (size_t)n : 0;
    }
}

void router_match(const route_table *t, const char *method, const char *path, route_match *m)
{
    char names[256];
    gj_error_clear(&m->error);
    m->game = NULL;
    m->row = find_row(t, path);
    if (m->row == NULL) {
        char paths[400];
        list_paths(t, paths, sizeof paths);
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

void router_restrict(route_match *m, const char *path, bool on_admin, bool admin_configured)
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
