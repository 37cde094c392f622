/* picture_job.c - pictures of positions (endpoints.h, picture.h):
 *
 *   GET /puzzle/{game}/{id}/image.svg      a puzzle's first position
 *   GET /analyze/{game}/image.svg?request= the position of an /analyze request
 *
 * An SVG document the game draws and picture.h frames, its title saying
 * what to find.  The bytes are a function of the id or the position alone,
 * so they go through the result cache and are tagged with the hash of the
 * bytes (a strong ETag), kept by shared caches as long as any answer;
 * errors are JSON, as everywhere. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_members.h"
#include "endpoints.h"
#include "line.h"
#include "picture.h"
#include "puzzle_search.h"

#define PICTURE_TYPE "image/svg+xml"

/* What a picture's step draws: the position (an analyze() request, its
 * members checked), the limits it is read under and the task it names. */
typedef struct picture_ask {
    const json_t *req;
    const long *limits;
    char task[PICTURE_TASK_MAX + 1];
} picture_ask;

/* Draw the asked position into the job's answer: 0, or -1 with j->error. */
static int draw(job *j, void *arg)
{
    const picture_ask *a = arg;
    return picture_write(j->game, a->req, a->limits, a->task, &j->answer, &j->error);
}

/* The picture through the result cache under `key`, then its type, its
 * tag over the bytes and whether If-None-Match matched it: 0, or -1 with
 * j->error (and no tag). */
static int answer_picture(job *j, const gj_buf *key, picture_ask *a)
{
    int rc = key->failed ? gj_fail_nomem(&j->error) : jobs_cached(j, key->data, key->len, draw, a);
    if (rc == 0 && j->answer.failed)
        rc = gj_fail_nomem(&j->error);
    if (rc != 0)
        return -1;
    j->type = PICTURE_TYPE;
    etag_make(j->game, ETAG_PICTURE, j->answer.data, j->answer.len, j->tag->etag);
    /* Matched only once the answer is made: a match is always a 200's. */
    j->tag->not_modified = etag_none_match(j->tag->if_none_match, j->tag->etag, true);
    return 0;
}

/* The start of a picture's cache key: the game, then what kind of picture. */
static void key_open(gj_buf *key, const gj_game *g, const char *kind)
{
    buf_puts(key, g->name);
    buf_putc(key, '\0');
    buf_puts(key, "picture");
    buf_putc(key, '\0');
    buf_puts(key, kind);
}

/* The puzzle the job's id names, rebuilt, and its first position drawn. */
static int puzzle_picture(job *j, void *arg)
{
    (void)arg;
    const gj_game *g = j->game;
    long limits[GEN_NLIMITS];
    memcpy(limits, jobs_limits(j, g), GJ_MAX_LIMITS * sizeof limits[0]);
    limits[GEN_LIMIT_BUDGET] = j->rt->cfg->generate_budget_ms;
    puzzle p;
    if (puzzle_from_id(g, j->arg, limits, &p, &j->error) != 0)
        return -1;
    picture_ask a = {.req = p.steps[0].position, .limits = p.limits};
    /* A scored game's solving move is the only one reaching the best
     * score, which need not be a win (puzzle.h). */
    if (p.depth > 1)
        snprintf(a.task, sizeof a.task, "find the %d solving moves", p.depth);
    else
        snprintf(a.task, sizeof a.task, "find the only %s move",
                 p.steps[0].moves[0].wins ? "winning" : "best");
    gj_buf key;
    buf_init(&key);
    key_open(&key, g, "id:");
    buf_puts(&key, j->arg);
    int rc = answer_picture(j, &key, &a);
    buf_free(&key);
    puzzle_free(&p);
    return rc;
}

void endpoint_puzzle_picture(job *j)
{
    const gj_game *g = j->game;
    if (g->generate == NULL || g->analyze == NULL || g->play_move == NULL) {
        jobs_finish(j, gj_fail(&j->error, GJ_NOT_FOUND, "%s has no puzzles", g->name));
        return;
    }
    jobs_run_step(j, "picture", puzzle_picture, NULL);
}

/* The position of the job's /analyze request drawn: its line options are
 * read and left aside (they change no position); moves to play first are
 * refused, since the picture is of the position given. */
static int analyze_picture(job *j, void *arg)
{
    (void)arg;
    const gj_game *g = j->game;
    static const char *const own[] = {"?line", "?max_line", "?moves", "?after", NULL};
    line_request q;
    if (line_prepare(j->body, j->len, &q, &j->error) != 0)
        return -1;
    int rc = analysis_known_members(g, q.root, NULL, own, &j->error);
    if (rc == 0 && json_array_size(q.moves) > 0)
        rc = gj_fail_field(&j->error, "moves",
                           "a picture shows the position given: give the position the moves "
                           "lead to (POST /analyze with \"after\": \"full\" writes it)");
    /* max_moves bounds an analysis' list, never what is drawn. */
    json_object_del(q.root, "max_moves");
    char *canonical = rc == 0 ? json_dumps(q.root, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
    if (rc == 0 && canonical == NULL)
        rc = gj_fail_nomem(&j->error);
    if (rc == 0) {
        picture_ask a = {.req = q.root, .limits = jobs_limits(j, g)};
        snprintf(a.task, sizeof a.task, "who wins, and with which move");
        gj_buf key;
        buf_init(&key);
        key_open(&key, g, "position:");
        buf_puts(&key, canonical);
        rc = answer_picture(j, &key, &a);
        buf_free(&key);
    }
    free(canonical);
    line_request_free(&q);
    return rc;
}

void endpoint_analyze_picture(job *j)
{
    if (j->game->analyze == NULL) {
        jobs_finish(j, gj_fail(&j->error, GJ_NOT_FOUND, "%s has no analysis", j->game->name));
        return;
    }
    jobs_run_step(j, "picture", analyze_picture, NULL);
}
