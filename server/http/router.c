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

/* Whether `path` is the prefix p, then one segment (non-empty, no '/'),
 * then the suffix: a row of no game with an argument. */
static bool arg_matches(const char *p, const char *suffix, const char *path)
{
    size_t n = strlen(p), len = strlen(path), sl = strlen(suffix);
    if (strncmp(path, p, n) != 0 || len <= n + sl || strcmp(path + len - sl, suffix) != 0)
        return false;
    return memchr(path + n, '/', len - n - sl) == NULL;
}

/* Whether `path` is one of row r's (router.h): its exact path, its prefix
 * with an argument and the suffix, or a per-game prefix; with a suffix,
 * "GAME/ARG" then the suffix after it, or with game_suffix "GAME" then the
 * suffix. */
static bool row_matches(const route_row *r, const char *path)
{
    if (!r->per_game)
        return r->suffix == NULL ? strcmp(path, r->path) == 0
                                 : arg_matches(r->path, r->suffix, path);
    size_t n = strlen(r->path);
    if (strncmp(path, r->path, n) != 0)
        return false;
    if (r->suffix == NULL)
        return true;
    const char *rest = path + n, *slash = strchr(rest, '/');
    size_t len = strlen(rest), sl = strlen(r->suffix);
    if (r->game_suffix)
        return len > sl && strcmp(rest + len - sl, r->suffix) == 0 &&
               memchr(rest, '/', len - sl) == NULL;
    return slash != NULL && len > sl && strcmp(rest + len - sl, r->suffix) == 0 &&
           rest + len - sl > slash + 1;
}

/* The row whose path is `path` or, per game, a prefix of it; NULL if none. */
static const route_row *find_row(const route_table *t, const char *path)
{
    for (size_t i = 0; i < t->count; i++)
        if (row_matches(&t->rows[i], path))
            return &t->rows[i];
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
        if (r->unlisted)
            continue;
        int n = snprintf(out + used, cap - used, "%s%s %s%s%s%s", used ? ", " : "",
                         method_allowed(r->allow, "POST") ? "POST" : "GET", r->path,
                         r->per_game ? "<game>" : "",
                         r->game_suffix                     ? ""
                         : r->suffix != NULL && r->per_game ? "/<id>"
                         : r->suffix != NULL                ? "<id>"
                         : r->arg                           ? "[/<id>]"
                                                            : "",
                         r->suffix != NULL ? r->suffix : "");
        used += n > 0 ? (size_t)n : 0;
    }
}

void router_match(const route_table *t, const char *method, const char *path, route_match *m)
{
    char names[256];
    gj_error_clear(&m->error);
    m->game = NULL;
    m->arg[0] = '\0';
    m->row = find_row(t, path);
    if (m->row == NULL) {
        char paths[600];
        list_paths(t, paths, sizeof paths);
        gj_fail(&m->error, GJ_NOT_FOUND, "no such path: %.40s (paths: %s; GET / is the playground)",
                path, paths);
        return;
    }
    if (!m->row->per_game && m->row->suffix != NULL) {
        size_t from = strlen(m->row->path), arg = strlen(path) - from - strlen(m->row->suffix);
        if (arg >= sizeof m->arg) {
            gj_fail(&m->error, GJ_URI_TOO_LONG,
                    "the path's argument is %zu bytes; the limit is %zu", arg, sizeof m->arg - 1);
            return;
        }
        memcpy(m->arg, path + from, arg);
        m->arg[arg] = '\0';
    }
    if (m->row->per_game) {
        const char *name = path + strlen(m->row->path);
        size_t len = strlen(name);
        const char *slash = strchr(name, '/');
        if (m->row->game_suffix)
            len -= strlen(m->row->suffix);
        else if (slash != NULL && (m->row->arg || m->row->suffix != NULL)) {
            size_t end = len - (m->row->suffix != NULL ? strlen(m->row->suffix) : 0);
            size_t arg = end - (size_t)(slash + 1 - name);
            len = (size_t)(slash - name);
            if (arg >= sizeof m->arg) {
                gj_fail(&m->error, GJ_URI_TOO_LONG,
                        "the path's argument is %zu bytes; the "
                        "limit is %zu",
                        arg, sizeof m->arg - 1);
                return;
            }
            memcpy(m->arg, slash + 1, arg);
            m->arg[arg] = '\0';
        }
        m->game = games_find(name, len);
        if (m->game == NULL) {
            games_list(names, sizeof names);
            bool cut = m->arg[0] != '\0' || m->row->game_suffix; /* the name alone */
            const char *shown = cut ? name : strrchr(path, '/') + 1;
            int shown_len = cut ? (int)len : (int)strlen(shown);
            gj_fail(&m->error, GJ_UNKNOWN_GAME, "unknown game '%.*s'; the games are %s",
                    shown_len < 60 ? shown_len : 60, shown, names);
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
