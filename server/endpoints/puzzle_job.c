/* puzzle_job.c - the puzzles (endpoints.h, puzzle_job.h, puzzle_search.h,
 * puzzle_check.h):
 *
 *   GET  /puzzle/{game}?seed=&band=&depth=&...  a rated puzzle, no solution
 *   GET  /puzzle/{game}/daily?date=YYYY-MM-DD   the day's puzzle (UTC)
 *   GET  /puzzle/{game}/{id}                    the puzzle an id names
 *   POST /puzzle/{game}/{id}/check              the visitor's moves judged,
 *                                               and with "player" rated
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
 * there too; every other one goes to the heavy lane.
 *
 * With a store (store.h), the daily puzzle also shows its live numbers
 * ("stats", read from the store on a worker: a cached daily answer goes to
 * the fast lane rather than being answered on the I/O thread) and may be
 * kept by shared caches DAILY_STATS_SECONDS at most; and a check naming a
 * "player" records the player's first complete attempt (rated.h): the
 * judging is the same bytes and goes through the result cache as any
 * check, the "rating" member is made for this request alone (no-store). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "endpoints.h"
#include "generate.h"
#include "json_in.h"
#include "puzzle_check.h"
#include "puzzle_job.h"
#include "puzzle_search.h"
#include "puzzle_write.h"
#include "rated.h"
#include "stored_puzzle.h"

/* How long shared caches may keep a daily puzzle that shows its stats. */
#define DAILY_STATS_SECONDS 60

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

/* Whether the GET's answer shows the puzzle's stats: the daily puzzle's,
 * with a store. */
static bool shows_stats(const job *j)
{
    return j->rt->store != NULL && strcmp(j->arg, "daily") == 0;
}

/* The daily puzzle's answer in j->answer gains "stats": the store's
 * numbers, or before its first rated play the starting ones (its computed
 * rating, GLICKO_PUZZLE_RD, GLICKO_START_VOL, no plays); shared caches may
 * keep it DAILY_STATS_SECONDS at most.  With the store down (its watch's
 * last ping failed, so no request waits out a timeout for it, or this read
 * failed) it goes without them: the puzzle itself needs no store.  0, or
 * -1 with j->error when memory is short. */
static int add_stats(job *j)
{
    if (j->tag->cache_seconds < 0 || j->tag->cache_seconds > DAILY_STATS_SECONDS)
        j->tag->cache_seconds = DAILY_STATS_SECONDS;
    gj_error down;
    if (j->rt->watch != NULL && storewatch_health(j->rt->watch, &down) != 0)
        return 0;
    json_error_t err;
    json_t *a = json_loadb(j->answer.data, j->answer.len, 0, &err);
    const char *id = json_string_value(json_object_get(a, "id"));
    store_puzzle sp;
    memset(&sp, 0, sizeof sp);
    gj_error e;
    int rc = id != NULL ? store_get(j->rt->store, j->game->name, id, &sp, &e) : -1;
    if (rc != 0 && id != NULL && e.kind == GJ_NOT_FOUND) {
        sp.rating = (glicko){(double)json_integer_value(json_object_get(a, "rating")),
                             GLICKO_PUZZLE_RD, GLICKO_START_VOL};
        rc = 0;
    }
    json_decref(a);
    if (rc != 0) {
        store_puzzle_free(&sp);
        return 0;
    }
    gj_buf m;
    buf_init(&m);
    buf_puts(&m, ",\"stats\":{");
    rated_put_stats(&m, &sp);
    buf_putc(&m, '}');
    store_puzzle_free(&sp);
    rc = m.failed || rated_extend(&j->answer, m.data, m.len) != 0 ? gj_fail_nomem(&j->error) : 0;
    buf_free(&m);
    return rc;
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
            /* The daily puzzle's stats are read from the store: never here. */
            lane = shows_stats(j) ? JOB_FAST : JOB_HERE;
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
    if (rc == 0 && shows_stats(j))
        rc = add_stats(j);
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

/* The members a check's body may carry: the try's, and the player's. */
static const char *const check_keys[] = {
    "?moves", "?reveal", "?player", "?rating", "?rating_deviation", "?volatility", NULL};

/* The check's body read and checked into *t and *r, and when it names a
 * player whether this play may be rated here (a store, a key or
 * --rated-plays anyone, a well-formed Idempotency-Key): 0, or -1 with
 * j->error, before any puzzle is rebuilt. */
static int read_check(job *j, puzzle_try *t, rated_player *r)
{
    gj_error *e = &j->error;
    json_t *root = jin_load_object(j->body, j->len, NULL, e);
    if (root == NULL)
        return -1;
    if (jin_known_keys(root, check_keys, e) != 0 || rated_take(root, r, e) != 0 ||
        puzzle_try_take(root, t, e) != 0) {
        json_decref(root);
        return -1;
    }
    static const char what[] = "a check naming a player";
    if (r->has_player &&
        (rated_need_store(j, what, e) != 0 || rated_need_key(j, false, what, e) != 0 ||
         rated_idempotency_key(j, e) != 0)) {
        puzzle_try_free(t);
        return -1;
    }
    return 0;
}

/* Whether the check's answer in out is a complete attempt (solved, or
 * failed at a wrong move) into *solved and *failed: 0, or -1 when it
 * cannot be read back. */
static int outcome(const gj_buf *out, bool *solved, bool *failed)
{
    json_error_t err;
    json_t *a = json_loadb(out->data, out->len, 0, &err);
    const json_t *s = json_object_get(a, "solved"), *f = json_object_get(a, "failed");
    int rc = json_is_boolean(s) && json_is_boolean(f) ? 0 : -1;
    *solved = json_is_true(s);
    *failed = json_is_true(f);
    json_decref(a);
    return rc;
}

/* The store's copy of the job's puzzle into *sp: the stored one, or one
 * made from the rebuilt puzzle (stored_puzzle.h) that store_record stores
 * with the play.  0, or -1 with j->error. */
static int stored(job *j, store_puzzle *sp)
{
    if (store_get(j->rt->store, j->game->name, j->arg, sp, &j->error) == 0)
        return 0;
    if (j->error.kind != GJ_NOT_FOUND)
        return -1;
    gj_error_clear(&j->error);
    long limits[GEN_NLIMITS];
    puzzle_limits(j, limits);
    puzzle p;
    if (puzzle_from_id(j->game, j->arg, limits, &p, &j->error) != 0)
        return -1;
    int rc = stored_puzzle_from(&p, sp, &j->error);
    puzzle_free(&p);
    return rc;
}

/* A glicko's numbers as an answer's "rating" member shows a side. */
static void put_side(gj_buf *m, glicko g)
{
    buf_puts(m, "\"rating\":");
    rated_put_fixed(m, g.rating, 2);
    buf_puts(m, ",\"rating_deviation\":");
    rated_put_fixed(m, g.rd, 2);
}

/* The "rating" member of a recorded play, from `,` on: whether it was
 * rated or a retry, the player's rating and its change (in hundredths, of
 * the two rounded values, so the numbers shown add up), the puzzle's. */
static void put_rating(gj_buf *m, const store_play_result *res)
{
    buf_puts(m, res->rated ? ",\"rating\":{\"rated\":true" : ",\"rating\":{\"rated\":false");
    buf_puts(m, res->repeated ? ",\"repeated\":true,\"player\":{"
                              : ",\"repeated\":false,\"player\":{");
    rated_put_player(m, res->player_before, res->player_after);
    buf_puts(m, "},\"puzzle\":{");
    put_side(m, res->puzzle_after);
    buf_puts(m, ",\"plays\":");
    buf_put_long(m, res->puzzle_plays);
    buf_puts(m, "}}");
}

/* A checked attempt by r's player, its judging in j->answer: a complete
 * one (solved, failed, or revealed) recorded as the player's play and the
 * answer extended with what it changed; an incomplete one left as it is.
 * `attempt` is the try's canonical text.  0, or -1 with j->error. */
static int rate(job *j, const puzzle_try *t, const rated_player *r, const char *attempt)
{
    j->no_store = true;
    bool solved, failed;
    if (outcome(&j->answer, &solved, &failed) != 0)
        return gj_fail(&j->error, GJ_INTERNAL, "%s: the check's answer could not be read back",
                       j->game->name);
    if (!solved && !failed && !t->reveal)
        return 0;
    store_puzzle sp;
    memset(&sp, 0, sizeof sp);
    store_play_result res;
    int rc = stored(j, &sp);
    if (rc == 0) {
        store_play in = {.puzzle = &sp,
                         .player = r->player,
                         .key = j->idempotency_key,
                         .attempt = attempt,
                         .solved = solved,
                         .has_player = r->has_rating,
                         .player_rating = glicko_clamp(r->rating),
                         .at_ms = rated_now_ms()};
        rc = store_record(j->rt->store, &in, &res, &j->error);
    }
    store_puzzle_free(&sp);
    if (rc != 0)
        return -1;
    gj_buf m;
    buf_init(&m);
    put_rating(&m, &res);
    rc = m.failed || rated_extend(&j->answer, m.data, m.len) != 0 ? gj_fail_nomem(&j->error) : 0;
    buf_free(&m);
    return rc;
}

/* The check: the body read and checked first (a bad one is named as
 * itself, before any puzzle is rebuilt), then through the result cache,
 * the id and the try's canonical form naming the answer; then, with a
 * player, the play recorded.  0, or -1 with j->error. */
static int check_cached(job *j, void *arg)
{
    (void)arg;
    puzzle_try t;
    rated_player r;
    if (read_check(j, &t, &r) != 0)
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
    if (rc == 0 && r.has_player)
        rc = rate(j, &t, &r, canonical);
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

/* make() of puzzle_answer_by_id: the puzzle `arg` names, rebuilt and
 * written as GET /puzzle/{game}/{id} writes it. */
static int make_by_id(job *j, void *arg)
{
    long limits[GEN_NLIMITS];
    puzzle_limits(j, limits);
    puzzle p;
    if (puzzle_from_id(j->game, arg, limits, &p, &j->error) != 0)
        return -1;
    puzzle_write(&p, &j->answer);
    puzzle_free(&p);
    return 0;
}

int puzzle_answer_by_id(job *j, const char *id)
{
    gj_buf key; /* get_key's for an id */
    buf_init(&key);
    buf_puts(&key, j->game->name);
    buf_putc(&key, '\0');
    buf_puts(&key, "puzzle");
    buf_putc(&key, '\0');
    buf_puts(&key, "id:");
    buf_puts(&key, id);
    int rc = key.failed ? gj_fail_nomem(&j->error)
                        : jobs_cached(j, key.data, key.len, make_by_id, (void *)id);
    buf_free(&key);
    return rc;
}
