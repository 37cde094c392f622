/* puzzle_job.c - the puzzles (endpoints.h, puzzle_search.h, puzzle_check.h):
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
 * until the day ends, UTC).
 *
 * A GET whose answer the result cache already holds is answered on the
 * I/O thread, never queued behind searches (the daily puzzle is the
 * busiest request): puzzle_estimate reads the parameters as the handler
 * does, peeks the cache under the same key (cache_peek: never waiting for
 * an answer being made, never claiming one) and keeps a hit as the
 * route's state (jobs.h, route_state), which the handler serves as it
 * serves any hit.  A GET refused for its path or parameters is answered
 * there too; every other one goes to the heavy lane. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "endpoints.h"
#include "generate.h"
#include "json_in.h"
#include "puzzle_check.h"
#include "puzzle_search.h"
#include "puzzle_write.h"

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

/* The parameters a daily or id GET may carry: 0, or -1 with *e. */
static int check_params(const job *j, puzzle_ask *a, gj_error *e)
{
    const char *key;
    json_t *v;
    bool daily = strcmp(j->arg, "daily") == 0;
    json_object_foreach(a->params, key, v)
    {
        if (daily && strcmp(key, "date") == 0) {
            a->date = json_string_value(v);
            if (a->date == NULL)
                return gj_fail_field(e, "date", "expected a date, YYYY-MM-DD");
            continue;
        }
        return gj_fail_field(e, key,
                             daily ? "unknown parameter; the daily puzzle takes only date "
                                     "(YYYY-MM-DD, UTC; default today)"
                                   : "unknown parameter; an id names the whole puzzle, so GET "
                                     "/puzzle/{game}/{id} takes none");
    }
    return 0;
}

/* The result cache's key of a GET: the game, its kind and what names the
 * answer (the parameters sorted, the date or the id).  0, or -1. */
static int get_key(const job *j, const puzzle_ask *a, gj_buf *key)
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

/* Whether the GET's answer is named by what was asked, and so kept in the
 * result cache: all but a search without a seed, new each time. */
static bool kept(const job *j, const puzzle_ask *a)
{
    return j->arg[0] != '\0' || json_object_get(a->params, "seed") != NULL;
}

/* How long shared caches may keep a kept answer: today's daily puzzle
 * asked without a date until midnight UTC (`left` seconds, since "today"
 * changes then), any other for the route's time (-1). */
static long kept_seconds(const job *j, const puzzle_ask *a, long left)
{
    return strcmp(j->arg, "daily") == 0 && a->date == NULL ? left : -1;
}

/* The puzzle, through the cache when it is named by what was asked. */
static int get_puzzle(job *j, void *arg)
{
    puzzle_ask *a = arg;
    if (j->arg[0] != '\0' && check_params(j, a, &j->error) != 0)
        return -1;
    long seconds = kept_seconds(j, a, today_utc(a->today));
    if (!kept(j, a))
        return make_puzzle(j, a);
    gj_buf key;
    buf_init(&key);
    int rc = get_key(j, a, &key) != 0 ? gj_fail_nomem(&j->error)
                                      : jobs_cached(j, key.data, key.len, make_puzzle, a);
    buf_free(&key);
    if (rc == 0 && seconds >= 0)
        j->tag->cache_seconds = seconds;
    return rc;
}

/* Whether the job's game has puzzles and its path names a GET of one: 0,
 * or -1 with *e (not_found). */
static int check_path(const job *j, gj_error *e)
{
    const gj_game *g = j->game;
    if (g->generate == NULL || g->analyze == NULL || g->play_move == NULL)
        return gj_fail(e, GJ_NOT_FOUND, "%s has no puzzles", g->name);
    if (strchr(j->arg, '/') != NULL)
        return gj_fail(e, GJ_NOT_FOUND,
                       "no such puzzle path: /puzzle/%s/%.60s (the paths are "
                       "/puzzle/%s, /puzzle/%s/daily, /puzzle/%s/{id} and POST "
                       "/puzzle/%s/{id}/check)",
                       g->name, j->arg, g->name, g->name, g->name, g->name);
    return 0;
}

/* What puzzle_estimate found in the result cache on the I/O thread: the
 * route's state (jobs.h), taken by the handler. */
typedef struct puzzle_ahead {
    gj_buf answer;      /* the cached answer */
    long cache_seconds; /* what get_puzzle would set: -1 or until midnight */
} puzzle_ahead;

/* route_free of a GET puzzle: the answer not served, and the state. */
static void ahead_free(job *j)
{
    puzzle_ahead *ah = j->route_state;
    buf_free(&ah->answer);
    free(ah);
    j->route_state = NULL;
}

/* Look the answer of a kept GET up in the result cache, without waiting
 * for one being made and without claiming it: on a hit it becomes the
 * job's state and the job runs here, else on the heavy lane as before. */
static job_lane peek_answer(job *j, puzzle_ask *a)
{
    long left = today_utc(a->today);
    gj_buf key;
    buf_init(&key);
    puzzle_ahead *ah = get_key(j, a, &key) == 0 ? malloc(sizeof *ah) : NULL;
    job_lane lane = JOB_HEAVY;
    if (ah != NULL) {
        buf_init(&ah->answer);
        ah->cache_seconds = kept_seconds(j, a, left);
        if (cache_peek(j->rt->cache, key.data, key.len, &ah->answer) && !ah->answer.failed) {
            j->route_state = ah;
            j->route_free = ahead_free;
            lane = JOB_HERE;
        } else {
            buf_free(&ah->answer);
            free(ah);
        }
    }
    buf_free(&key);
    return lane;
}

job_lane puzzle_estimate(job *j)
{
    /* Refused at once, by the handler too: no search runs. */
    gj_error e;
    gj_error_clear(&e);
    if (check_path(j, &e) != 0)
        return JOB_HERE;
    puzzle_ask a = {.params = jin_load_object(j->body, j->len, NULL, &e)};
    if (a.params == NULL)
        return JOB_HERE;
    job_lane lane = JOB_HEAVY;
    if (j->arg[0] != '\0' && check_params(j, &a, &e) != 0)
        lane = JOB_HERE;
    else if (j->rt->cache != NULL && kept(j, &a))
        lane = peek_answer(j, &a);
    json_decref(a.params);
    return lane;
}

/* The answer puzzle_estimate found, taken from the job's state as a hit
 * through get_puzzle would give it: 0. */
static int take_answer(job *j)
{
    puzzle_ahead *ah = j->route_state;
    buf_free(&j->answer);
    j->answer = ah->answer;
    buf_init(&ah->answer);
    j->tag->cache_seconds = ah->cache_seconds;
    jobs_release(j);
    return 0;
}

/* Settle a GET after its step returned rc: a strong tag over a kept
 * answer's bytes, and whether If-None-Match matched it; then finish. */
static void finish_get(job *j, int rc)
{
    const gj_game *g = j->game;
    if (rc != 0 && j->error.kind == GJ_OK)
        gj_fail(&j->error, GJ_INTERNAL, "%s: the puzzle failed without saying why", g->name);
    if (rc == 0 && j->tag->cache_seconds != 0 && !j->answer.failed) {
        etag_make(g, ETAG_PUZZLE, j->answer.data, j->answer.len, j->tag->etag);
        j->tag->not_modified = etag_none_match(j->tag->if_none_match, j->tag->etag, true);
    }
    jobs_finish(j, rc);
}

void endpoint_puzzle(job *j)
{
    if (check_path(j, &j->error) != 0) {
        jobs_finish(j, -1);
        return;
    }
    if (j->route_state != NULL) {
        finish_get(j, take_answer(j));
        return;
    }
    puzzle_ask a = {.params = jin_load_object(j->body, j->len, NULL, &j->error)};
    if (a.params == NULL) {
        jobs_finish(j, -1);
        return;
    }
    unsigned long long start = clock_ns();
    jobs_watch(j);
    int rc = get_puzzle(j, &a);
    jobs_unwatch(j);
    j->t.solve_ms = (double)(clock_ns() - start) / 1e6;
    json_decref(a.params);
    finish_get(j, rc);
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
