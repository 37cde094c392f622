/* puzzle_job.c - the puzzles (endpoints.h, puzzle.h):
 *
 *   GET  /puzzle/{game}?seed=&band=&depth=&...  a rated puzzle, no solution
 *   GET  /puzzle/{game}/daily?date=YYYY-MM-DD   the day's puzzle (UTC)
 *   GET  /puzzle/{game}/{id}                    the puzzle an id names
 *   POST /puzzle/{game}/{id}/check              the visitor's moves judged
 *
 * Every answer is rebuilt from its id, seed or date, through the result
 * cache; a GET answer is tagged with the hash of its bytes and may be kept
 * by shared caches, except a puzzle without a seed (made for this request
 * alone: no-store) and today's daily puzzle asked without a date (kept
 * until the day ends, UTC). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "endpoints.h"
#include "generate.h"
#include "json_in.h"
#include "puzzle.h"

/* The generator's limits for the job's game: the game's in force, then
 * the --generate-budget-ms ceiling (generate.h). */
static void puzzle_limits(const job *j, long limits[GEN_NLIMITS])
{
    memcpy(limits, jobs_limits(j, j->game), GJ_MAX_LIMITS * sizeof limits[0]);
    limits[GEN_LIMIT_BUDGET] = j->rt->cfg->generate_budget_ms;
}

/* What a GET asks: its kind and the parameters (the query as JSON). */
typedef struct puzzle_ask {
    json_t *params;
    const char *date; /* daily: the date asked, or NULL for today */
    char today[16];
} puzzle_ask;

/* Build the puzzle the job's GET asks for, and write it: 0, or -1. */
static int make_puzzle(job *j, void *arg)
{
    puzzle_ask *a = arg;
    long limits[GEN_NLIMITS];
    puzzle_limits(j, limits);
    puzzle p;
    bool seeded = true;
    int rc;
    if (j->arg[0] == '\0')
        rc = puzzle_find(j->game, a->params, limits, &p, &seeded, &j->error);
    else if (strcmp(j->arg, "daily") == 0)
        rc = puzzle_daily(j->game, a->date != NULL ? a->date : a->today, a->today, limits, &p,
                          &j->error);
    else
        rc = puzzle_from_id(j->game, j->arg, limits, &p, &j->error);
    if (rc != 0)
        return -1;
    puzzle_write(&p, &j->answer);
    puzzle_free(&p);
    if (!seeded)
        j->tag->cache_seconds = 0;
    return 0;
}

/* Today's date (UTC) into out, and the seconds left in it. */
static long today_utc(char out[16])
{
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(out, 16, "%Y-%m-%d", &tm);
    return 86400 - (tm.tm_hour * 3600L + tm.tm_min * 60L + tm.tm_sec);
}

/* The parameters a daily or id GET may carry: 0, or -1 with j->error. */
static int check_params(job *j, puzzle_ask *a)
{
    const char *key;
    json_t *v;
    bool daily = strcmp(j->arg, "daily") == 0;
    json_object_foreach(a->params, key, v)
    {
        if (daily && strcmp(key, "date") == 0) {
            a->date = json_string_value(v);
            if (a->date == NULL)
                return gj_fail_field(&j->error, "date", "expected a date, YYYY-MM-DD");
            continue;
        }
        return gj_fail_field(&j->error, key,
                             daily ? "unknown parameter; the daily puzzle takes only date "
                                     "(YYYY-MM-DD, UTC; default today)"
                                   : "unknown parameter; an id names the whole puzzle, so GET "
                                     "/puzzle/{game}/{id} takes none");
    }
    return 0;
}

/* The result cache's key of a GET: the game, its kind and what names the
 * answer (the parameters sorted, the date or the id).  0, or -1. */
static int get_key(job *j, const puzzle_ask *a, gj_buf *key)
{
    buf_puts(key, j->game->name);
    buf_putc(key, '\0');
    buf_puts(key, "puzzle");
    buf_putc(key, '\0');
    if (strcmp(j->arg, "daily") == 0) {
        buf_puts(key, "daily:");
        buf_puts(key, a->date != NULL ? a->date : a->today);
    } else if (j->arg[0] != '\0') {
        buf_puts(key, "id:");
        buf_puts(key, j->arg);
    } else {
        char *text = json_dumps(a->params, JSON_COMPACT | JSON_SORT_KEYS);
        if (text == NULL)
            return -1;
        buf_puts(key, "find:");
        buf_puts(key, text);
        free(text);
    }
    return key->failed ? -1 : 0;
}

/* The puzzle, through the cache when it is named by what was asked. */
static int get_puzzle(job *j, void *arg)
{
    puzzle_ask *a = arg;
    if (j->arg[0] != '\0' && check_params(j, a) != 0)
        return -1;
    long left = today_utc(a->today);
    /* Without a seed the answer is new each time: never kept. */
    if (j->arg[0] == '\0' && json_object_get(a->params, "seed") == NULL)
        return make_puzzle(j, a);
    gj_buf key;
    buf_init(&key);
    int rc = get_key(j, a, &key) != 0 ? gj_fail_nomem(&j->error)
                                      : jobs_cached(j, key.data, key.len, make_puzzle, a);
    buf_free(&key);
    if (rc == 0 && strcmp(j->arg, "daily") == 0 && a->date == NULL)
        j->tag->cache_seconds = left; /* "today" changes at midnight, UTC */
    return rc;
}

void endpoint_puzzle(job *j)
{
    const gj_game *g = j->game;
    if (g->generate == NULL || g->analyze == NULL || g->play_move == NULL) {
        jobs_finish(j, gj_fail(&j->error, GJ_NOT_FOUND, "%s has no puzzles", g->name));
        return;
    }
    if (strchr(j->arg, '/') != NULL) {
        jobs_finish(j, gj_fail(&j->error, GJ_NOT_FOUND,
                               "no such puzzle path: /puzzle/%s/%.60s (the paths are "
                               "/puzzle/%s, /puzzle/%s/daily, /puzzle/%s/{id} and POST "
                               "/puzzle/%s/{id}/check)",
                               g->name, j->arg, g->name, g->name, g->name, g->name));
        return;
    }
    puzzle_ask a = {.params = jin_load_object(j->body, j->len, NULL, &j->error)};
    if (a.params == NULL) {
        jobs_finish(j, -1);
        return;
    }
    unsigned long long start = solve_clock_ns();
    jobs_watch(j);
    int rc = get_puzzle(j, &a);
    jobs_unwatch(j);
    j->t.solve_ms = (double)(solve_clock_ns() - start) / 1e6;
    json_decref(a.params);
    if (rc != 0 && j->error.kind == GJ_OK)
        gj_fail(&j->error, GJ_INTERNAL, "%s: the puzzle failed without saying why", g->name);
    if (rc == 0 && j->tag->cache_seconds != 0 && !j->answer.failed) {
        etag_make(g, ETAG_PUZZLE, j->answer.data, j->answer.len, j->tag->etag);
        j->tag->not_modified = etag_none_match(j->tag->if_none_match, j->tag->etag, true);
    }
    jobs_finish(j, rc);
}

/* The try judged against the puzzle its id names, rebuilt now. */
static int check(job *j, void *arg)
{
    const puzzle_try *t = arg;
    long limits[GEN_NLIMITS];
    puzzle_limits(j, limits);
    puzzle p;
    if (puzzle_from_id(j->game, j->arg, limits, &p, &j->error) != 0)
        return -1;
    int rc = puzzle_check_try(&p, t, &j->answer, &j->error);
    puzzle_free(&p);
    return rc;
}

/* The check: the body read and checked first (a bad one is named as
 * itself, before any puzzle is rebuilt), then through the result cache,
 * the id and the body's canonical form naming the answer.  0, or -1 with
 * j->error. */
static int check_cached(job *j, void *arg)
{
    (void)arg;
    puzzle_try t;
    if (puzzle_try_read(j->body, j->len, &t, &j->error) != 0)
        return -1;
    char *canonical = json_dumps(t.root, JSON_COMPACT | JSON_SORT_KEYS);
    gj_buf key;
    buf_init(&key);
    buf_puts(&key, j->game->name);
    buf_putc(&key, '\0');
    buf_puts(&key, "check");
    buf_putc(&key, '\0');
    buf_puts(&key, j->arg);
    buf_putc(&key, '\0');
    buf_puts(&key, canonical != NULL ? canonical : "");
    int rc = canonical == NULL || key.failed ? gj_fail_nomem(&j->error)
                                             : jobs_cached(j, key.data, key.len, check, &t);
    free(canonical);
    buf_free(&key);
    puzzle_try_free(&t);
    return rc;
}

void endpoint_puzzle_check(job *j)
{
    const gj_game *g = j->game;
    if (g->generate == NULL || g->analyze == NULL || g->play_move == NULL) {
        jobs_finish(j, gj_fail(&j->error, GJ_NOT_FOUND, "%s has no puzzles", g->name));
        return;
    }
    jobs_run_step(j, "check", check_cached, NULL);
}
