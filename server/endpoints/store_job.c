/* store_job.c - the routes that answer from the puzzle store (endpoints.h,
 * store.h):
 *
 *   GET /puzzle/{game}/next?player=&rating=&band=&theme=&depth=
 *        a stored puzzle near the player's rating they were never served,
 *        as GET /puzzle/{game}/{id} answers it, with its stats
 *   GET /puzzle/{game}/{id}/stats         its rating, plays and success
 *   GET /players/{player}/activity?before=&max=   the plays, NDJSON
 *   GET /players/{player}/dashboard?days=         per theme, the results
 *
 * Each reads and checks every parameter first (rated.h: 400 naming it),
 * then that the service has a store (404 naming --store) and that the
 * client may ask (401 naming X-Api-Key), and only then asks the store,
 * whose failures are its own (503 while it is down, 404 for what it does
 * not hold).  Everything but the stats is this request's alone and
 * no-store; the stats change with every rated play and may be kept by
 * shared caches STATS_SECONDS. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "endpoints.h"
#include "json_in.h"
#include "json_out.h"
#include "puzzle_id.h"
#include "puzzle_job.h"
#include "puzzle_search.h"
#include "puzzle_themes.h"
#include "rated.h"

#define STATS_SECONDS        60     /* how long shared caches may keep a puzzle's stats */
#define ACTIVITY_MAX_DEFAULT 50     /* plays one page of activity lists */
#define ACTIVITY_MAX         1000   /* ... at most */
#define DASHBOARD_DAYS       30     /* the days a dashboard looks back */
#define DASHBOARD_DAYS_MAX   365    /* ... at most */
#define DASHBOARD_PLAYS_MAX  100000 /* the newest plays of the window a dashboard reads */
#define DAY_MS               86400000LL

/* Run step on j as a handler's one step, timed as its solve: the players'
 * routes have no game, which jobs_run_step names.  Then jobs_finish. */
static void run(job *j, int (*step)(job *j))
{
    unsigned long long start = clock_ns();
    int rc = step(j);
    j->t.solve_ms = (double)(clock_ns() - start) / 1e6;
    if (rc != 0 && j->error.kind == GJ_OK)
        gj_fail(&j->error, GJ_INTERNAL, "the store's route failed without saying why");
    jobs_finish(j, rc);
}

/* Whether the job's game has puzzles: 0, or -1 with *e (not_found). */
static int has_puzzles(const job *j, gj_error *e)
{
    const gj_game *g = j->game;
    if (g->generate == NULL || g->analyze == NULL || g->play_move == NULL)
        return gj_fail(e, GJ_NOT_FOUND, "%s has no puzzles", g->name);
    return 0;
}

/* An integer member of params in [lo, hi] into *out (absent: *out left
 * alone): 0, or -1 with *e naming `name`. */
static int integer(const json_t *params, const char *name, long long lo, long long hi,
                   long long *out, gj_error *e)
{
    const json_t *v = json_object_get(params, name);
    if (v == NULL)
        return 0;
    if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi)
        return gj_fail_field(e, name, "expected an integer from %lld to %lld", lo, hi);
    *out = json_integer_value(v);
    return 0;
}

/* Append s as a JSON string. */
static void put_string(gj_buf *out, const char *s)
{
    json_out_append(out, json_string(s), JSON_ENCODE_ANY);
}

/* Append the space-separated theme names `themes` as a JSON array. */
static void put_themes(gj_buf *out, const char *themes)
{
    json_t *a = json_array();
    for (const char *p = themes; a != NULL && *p != '\0';) {
        size_t n = strcspn(p, " ");
        if (n > 0)
            json_array_append_new(a, json_stringn(p, n));
        p += n;
        p += *p == ' ';
    }
    json_out_append(out, a, JSON_COMPACT);
}

/* ---- GET /puzzle/{game}/next ------------------------------------------ */

/* The parameters of a next: the player's id, and the filters. */
static const char *const next_keys[] = {"player", "?rating", "?band", "?theme", "?depth", NULL};

/* The query of a next (params) read into *a, its texts pointing into
 * params: 0, or -1 with *e naming the parameter. */
static int read_next(const job *j, const json_t *params, store_next_ask *a, gj_error *e)
{
    const gj_game *g = j->game;
    const json_t *player = json_object_get(params, "player");
    const json_t *band = json_object_get(params, "band");
    const json_t *theme = json_object_get(params, "theme");
    if (!json_is_string(player))
        return gj_fail_field(e, "player", "expected the player's id");
    if (rated_player_id(json_string_value(player), json_string_length(player), "player", e) != 0)
        return -1;
    a->player = json_string_value(player);
    a->has_rating = json_object_get(params, "rating") != NULL;
    if (rated_number(params, "rating", GLICKO_RATING_MIN, GLICKO_RATING_MAX, &a->rating, e) != 0)
        return -1;
    if (band != NULL) {
        static const char *const bands[] = {"easy", "medium", "hard"};
        for (int i = 0; i < 3 && json_is_string(band); i++)
            if (strcmp(json_string_value(band), bands[i]) == 0)
                a->band = i;
        if (a->band < 0)
            return gj_fail_field(e, "band", "expected easy, medium or hard");
    }
    if (theme != NULL &&
        (!json_is_string(theme) || !puzzle_theme_known(g, json_string_value(theme))))
        return gj_fail_field(e, "theme",
                             "expected one theme of %s puzzles (GET /games lists them: "
                             "puzzles.themes)",
                             g->name);
    a->theme = theme != NULL ? json_string_value(theme) : NULL;
    long long depth = 0;
    if (integer(params, "depth", 1, puzzle_depth_max(g), &depth, e) != 0)
        return -1;
    a->depth = (int)depth;
    return 0;
}

/* A stored puzzle for the player: checked, then store_next (which marks
 * it served), then answered as GET /puzzle/{game}/{id} answers it with
 * "stats" added.  0, or -1 with j->error. */
static int next_step(job *j)
{
    gj_error *e = &j->error;
    if (has_puzzles(j, e) != 0)
        return -1;
    json_t *params = jin_load_object(j->body, j->len, next_keys, e);
    if (params == NULL)
        return -1;
    store_next_ask a = {.game = j->game->name, .band = -1, .at_ms = rated_now_ms()};
    store_puzzle sp;
    memset(&sp, 0, sizeof sp);
    static const char what[] = "GET /puzzle/{game}/next";
    int rc = read_next(j, params, &a, e) != 0 || rated_need_store(j, what, e) != 0 ||
                     rated_need_key(j, false, what, e) != 0 ||
                     store_next(j->rt->store, &a, &sp, e) != 0 || puzzle_answer_by_id(j, sp.id) != 0
                 ? -1
                 : 0;
    json_decref(params);
    j->no_store = true;
    if (rc == 0) {
        gj_buf m;
        buf_init(&m);
        buf_puts(&m, ",\"stats\":{");
        rated_put_stats(&m, &sp);
        buf_putc(&m, '}');
        if (m.failed || rated_extend(&j->answer, m.data, m.len) != 0)
            rc = gj_fail_nomem(e);
        buf_free(&m);
    }
    store_puzzle_free(&sp);
    return rc;
}

void endpoint_puzzle_next(job *j)
{
    run(j, next_step);
}

/* ---- GET /puzzle/{game}/{id}/stats ------------------------------------ */

/* The id in the path read (not rebuilt: puzzle_id.h) and the stored
 * puzzle's numbers answered, tagged and kept by shared caches
 * STATS_SECONDS.  0, or -1 with j->error. */
static int stats_step(job *j)
{
    gj_error *e = &j->error;
    puzzle p;
    if (has_puzzles(j, e) != 0 || puzzle_id_read(j->game, j->arg, &p, e) != 0)
        return -1;
    puzzle_free(&p);
    if (rated_need_store(j, "GET /puzzle/{game}/{id}/stats", e) != 0)
        return -1;
    store_puzzle sp;
    memset(&sp, 0, sizeof sp);
    if (store_get(j->rt->store, j->game->name, j->arg, &sp, e) != 0) {
        if (e->kind == GJ_NOT_FOUND) {
            gj_fail(e, GJ_NOT_FOUND,
                    "id: this puzzle is not in the store: nobody has had a rated play of it and "
                    "`gamejudge puzzles fill` did not store it (GET /puzzle/%s/{id} serves it "
                    "all the same)",
                    j->game->name);
            snprintf(e->field, sizeof e->field, "id");
        }
        store_puzzle_free(&sp);
        return -1;
    }
    buf_puts(&j->answer, "{\"game\":");
    put_string(&j->answer, sp.game);
    buf_puts(&j->answer, ",\"id\":");
    put_string(&j->answer, sp.id);
    buf_putc(&j->answer, ',');
    rated_put_stats(&j->answer, &sp);
    buf_putc(&j->answer, '}');
    store_puzzle_free(&sp);
    if (j->answer.failed)
        return gj_fail_nomem(e);
    j->tag->cache_seconds = STATS_SECONDS;
    etag_make(j->game, ETAG_PUZZLE, j->answer.data, j->answer.len, j->tag->etag);
    j->tag->not_modified = etag_none_match(j->tag->if_none_match, j->tag->etag, true);
    return 0;
}

void endpoint_puzzle_stats(job *j)
{
    run(j, stats_step);
}

/* ---- GET /players/{player}/activity ----------------------------------- */

/* store_activity's each for the activity: one NDJSON line per play into
 * the gj_buf ctx. */
static int put_play(void *ctx, const store_activity_row *row)
{
    gj_buf *out = ctx;
    buf_puts(out, "{\"at_ms\":");
    buf_put_long(out, row->at_ms);
    buf_puts(out, ",\"game\":");
    put_string(out, row->game);
    buf_puts(out, ",\"id\":");
    put_string(out, row->id);
    buf_puts(out, row->solved ? ",\"solved\":true,\"player\":{" : ",\"solved\":false,\"player\":{");
    rated_put_player(out, row->player_before, row->player_after);
    buf_puts(out, "},\"puzzle_rating\":");
    rated_put_fixed(out, row->puzzle_rating, 2);
    buf_puts(out, ",\"themes\":");
    put_themes(out, row->themes);
    buf_puts(out, "}\n");
    return out->failed ? -1 : 0;
}

/* The player in the path: 0, or -1 with *e naming "player". */
static int path_player(const job *j, gj_error *e)
{
    return rated_player_id(j->arg, strlen(j->arg), "player", e);
}

/* The player's rated plays, newest first, one JSON object a line: at most
 * `max` of those before `before` (ms since the epoch; the last line's
 * at_ms asks for the next page).  0, or -1 with j->error. */
static int activity_step(job *j)
{
    static const char *const keys[] = {"?before", "?max", NULL};
    static const char what[] = "GET /players/{player}/activity";
    gj_error *e = &j->error;
    long long before = 0, max = ACTIVITY_MAX_DEFAULT;
    if (path_player(j, e) != 0)
        return -1;
    json_t *params = jin_load_object(j->body, j->len, keys, e);
    if (params == NULL)
        return -1;
    int rc = integer(params, "before", 1, 1LL << 53, &before, e) != 0 ||
                     integer(params, "max", 1, ACTIVITY_MAX, &max, e) != 0 ||
                     rated_need_store(j, what, e) != 0 || rated_need_key(j, true, what, e) != 0
                 ? -1
                 : 0;
    json_decref(params);
    j->no_store = true;
    j->type = "application/x-ndjson";
    if (rc == 0)
        rc = store_activity(j->rt->store, j->arg, before, 0, (long)max, put_play, &j->answer, e);
    if (rc != 0 && e->kind == GJ_OK)
        rc = gj_fail_nomem(e);
    return rc;
}

void endpoint_player_activity(job *j)
{
    run(j, activity_step);
}

/* ---- GET /players/{player}/dashboard ---------------------------------- */

/* One (game, theme)'s plays in the window, or the whole window's (theme ""). */
typedef struct tally {
    char game[STORE_GAME_MAX];
    char theme[64];
    long plays, wins;
    double rating_sum; /* the puzzles' ratings before each play */
} tally;

/* The dashboard being summed: the whole window and each (game, theme). */
typedef struct dashboard {
    tally all;
    tally *themes;
    size_t n, cap;
} dashboard;

/* Count one play of a puzzle rated `rating` into t. */
static void count(tally *t, bool won, double rating)
{
    t->plays++;
    t->wins += won;
    t->rating_sum += rating;
}

/* The tally of (game, theme, len bytes) in d, added when new; NULL when
 * memory is short. */
static tally *tally_of(dashboard *d, const char *game, const char *theme, size_t len)
{
    if (len >= sizeof d->themes[0].theme)
        len = sizeof d->themes[0].theme - 1;
    for (size_t i = 0; i < d->n; i++)
        if (strcmp(d->themes[i].game, game) == 0 && strncmp(d->themes[i].theme, theme, len) == 0 &&
            d->themes[i].theme[len] == '\0')
            return &d->themes[i];
    if (d->n == d->cap) {
        size_t cap = d->cap ? 2 * d->cap : 32;
        tally *more = realloc(d->themes, cap * sizeof *more);
        if (more == NULL)
            return NULL;
        d->themes = more;
        d->cap = cap;
    }
    tally *t = &d->themes[d->n++];
    memset(t, 0, sizeof *t);
    snprintf(t->game, sizeof t->game, "%s", game);
    memcpy(t->theme, theme, len);
    t->theme[len] = '\0';
    return t;
}

/* store_activity's each for the dashboard: the play counted in the whole
 * window and under each of its puzzle's themes. */
static int add_play(void *ctx, const store_activity_row *row)
{
    dashboard *d = ctx;
    count(&d->all, row->solved, row->puzzle_rating);
    for (const char *p = row->themes; *p != '\0';) {
        size_t n = strcspn(p, " ");
        tally *t = n > 0 ? tally_of(d, row->game, p, n) : NULL;
        if (n > 0 && t == NULL)
            return -1;
        if (t != NULL)
            count(t, row->solved, row->puzzle_rating);
        p += n;
        p += *p == ' ';
    }
    return 0;
}

/* qsort's order of the themes: by game, then the most played, then by name. */
static int by_plays(const void *a, const void *b)
{
    const tally *x = a, *y = b;
    int c = strcmp(x->game, y->game);
    if (c != 0)
        return c;
    if (x->plays != y->plays)
        return x->plays > y->plays ? -1 : 1;
    return strcmp(x->theme, y->theme);
}

/* Append t's "plays", "wins" and "performance": the puzzles' average
 * rating plus 400 (wins - losses) / plays, rounded (lichess's performance
 * rating of a run of games). */
static void put_tally(gj_buf *out, const tally *t)
{
    buf_puts(out, "\"plays\":");
    buf_put_long(out, t->plays);
    buf_puts(out, ",\"wins\":");
    buf_put_long(out, t->wins);
    buf_puts(out, ",\"performance\":");
    if (t->plays == 0) {
        buf_puts(out, "null");
        return;
    }
    double losses = (double)(t->plays - t->wins);
    buf_put_long(out,
                 llround((t->rating_sum + 400.0 * ((double)t->wins - losses)) / (double)t->plays));
}

/* The player's plays of the last `days` days summed, per game and theme.
 * 0, or -1 with j->error. */
static int dashboard_step(job *j)
{
    static const char *const keys[] = {"?days", NULL};
    static const char what[] = "GET /players/{player}/dashboard";
    gj_error *e = &j->error;
    long long days = DASHBOARD_DAYS;
    if (path_player(j, e) != 0)
        return -1;
    json_t *params = jin_load_object(j->body, j->len, keys, e);
    if (params == NULL)
        return -1;
    int rc = integer(params, "days", 1, DASHBOARD_DAYS_MAX, &days, e) != 0 ||
                     rated_need_store(j, what, e) != 0 || rated_need_key(j, true, what, e) != 0
                 ? -1
                 : 0;
    json_decref(params);
    j->no_store = true;
    if (rc != 0)
        return -1;
    long long since = rated_now_ms() - days * DAY_MS;
    dashboard d;
    memset(&d, 0, sizeof d);
    rc = store_activity(j->rt->store, j->arg, 0, since, DASHBOARD_PLAYS_MAX, add_play, &d, e);
    if (rc != 0 && e->kind == GJ_OK)
        rc = gj_fail_nomem(e);
    if (rc == 0) {
        if (d.n > 0)
            qsort(d.themes, d.n, sizeof d.themes[0], by_plays);
        gj_buf *out = &j->answer;
        buf_puts(out, "{\"player\":");
        put_string(out, j->arg);
        buf_puts(out, ",\"days\":");
        buf_put_long(out, days);
        buf_puts(out, ",\"since_ms\":");
        buf_put_long(out, since);
        buf_putc(out, ',');
        put_tally(out, &d.all);
        buf_puts(out, ",\"themes\":[");
        for (size_t i = 0; i < d.n; i++) {
            buf_puts(out, i ? ",{\"game\":" : "{\"game\":");
            put_string(out, d.themes[i].game);
            buf_puts(out, ",\"theme\":");
            put_string(out, d.themes[i].theme);
            buf_putc(out, ',');
            put_tally(out, &d.themes[i]);
            buf_putc(out, '}');
        }
        buf_puts(out, "]}");
    }
    free(d.themes);
    return rc;
}

void endpoint_player_dashboard(job *j)
{
    run(j, dashboard_step);
}
