/* jobs.c - the start of every job, and the POST routes' handlers:
 * solve, analyze, judge and batch (jobs.h). */
#include "jobs.h"

#include <jansson.h>
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "engine.h"
#include "games.h"
#include "http_error.h"
#include "json_in.h"
#include "json_out.h"
#include "judge.h"
#include "line.h"

/* The job failed with j->error: drop any partial answer. */
static void fail(job *j)
{
    buf_free(&j->answer);
}

/* Settle the job after a step that returned rc (0 or -1 with j->error);
 * an answer that ran out of memory while written fails too. */
static void succeed_or_fail(job *j, int rc)
{
    if (rc == 0 && j->answer.failed)
        rc = gj_fail_nomem(&j->error);
    if (rc == 0)
        gj_error_clear(&j->error);
    else
        fail(j);
}

/* Settle the job as succeed_or_fail does and hand it back. */
static void finish(job *j, int rc)
{
    succeed_or_fail(j, rc);
    j->done(j);
}

/* Milliseconds since *since, which is then zeroed (0: nothing to count). */
static double take_ms(unsigned long long *since)
{
    if (*since == 0)
        return 0;
    double ms = (double)(solve_clock_ns() - *since) / 1e6;
    *since = 0;
    return ms;
}

/* The limits in force for the job's game. */
static const long *job_limits(const job *j, const gj_game *g)
{
    return config_game_limits(j->app->cfg, g);
}

/* A queued job's solve begins: its flag is bound to this thread and
 * watched by the tracker.  Jobs on the I/O thread are not watched. */
static void watch(job *j)
{
    if (j->queued_ns == 0)
        return;
    gj_cancel_bind(&j->cancel);
    conntrack_watch(j->app->tracker, j->peer, &j->cancel);
}

/* For handlers in other files (generate_job.c): watch(j). */
void jobs_watch(job *j)
{
    watch(j);
}

/* The solve is over: unbind and unwatch (before done() may free the job),
 * and count a stop. */
static void unwatch(job *j)
{
    if (j->queued_ns == 0)
        return;
    conntrack_watch(j->app->tracker, j->peer, NULL);
    gj_cancel_bind(NULL);
    gj_cancel_reason why = gj_cancel_reason_of(&j->cancel);
    if (j->error.kind != GJ_CANCELLED || why == GJ_CANCEL_NONE)
        return;
    j->abandoned = why == GJ_CANCEL_GONE;
    metrics_job_event(j->app->metrics,
                      why == GJ_CANCEL_GONE ? JOB_CANCELLED_GONE : JOB_CANCELLED_DEADLINE);
}

/* ---- solve, analyze ------------------------------------------------- */

job_lane jobs_triage(job *j, bool estimable)
{
    const gj_game *g = j->game;
    j->parsed = 0;
    j->pos = NULL;
    j->cost_us = -1;
    if (!estimable || j->app->hold_fifo != NULL || j->len > JOBS_TRIAGE_MAX_BODY)
        return JOB_HEAVY;
    j->parsed = 1;
    j->pos =
        solve_parse(g, job_limits(j, g), j->input, j->body, j->len, &j->parse_ms, &j->parse_error);
    if (j->pos == NULL)
        return JOB_HERE;
    j->cost_us = g->cost_us != NULL ? g->cost_us(j->pos) : INFINITY;
    return j->cost_us <= JOBS_HERE_MAX_US   ? JOB_HERE
           : j->cost_us <= JOBS_FAST_MAX_US ? JOB_FAST
                                            : JOB_HEAVY;
}

void jobs_release(job *j)
{
    if (j->pos != NULL)
        j->game->free_position(j->pos);
    j->pos = NULL;
}

/* For handlers in other files (generate_job.c): unwatch(j). */
void jobs_unwatch(job *j)
{
    unwatch(j);
}

void jobs_solve(job *j)
{
    const gj_game *g = j->game;
    app_test_hold(j->app);
    void *pos = j->pos;
    j->pos = NULL;
    if (j->parsed) {
        j->t.parse_ms = j->parse_ms;
        j->error = j->parse_error;
    } else {
        pos =
            solve_parse(g, job_limits(j, g), j->input, j->body, j->len, &j->t.parse_ms, &j->error);
    }
    int rc = -1;
    solve_tag tag = {.if_none_match = j->if_none_match};
    if (pos != NULL) {
        watch(j);
        rc = solve_parsed_cached(g, pos, j->output, j->app->cache, &j->answer, &j->t, &j->how, &tag,
                                 &j->error);
        unwatch(j);
    }
    memcpy(j->etag, tag.etag, sizeof j->etag);
    j->not_modified = rc == 0 && tag.not_modified;
    /* Failed parses count too: a parse histogram without them would hide
     * the time spent refusing input. */
    metrics_solve_times(j->app->metrics, g, j->t.parse_ms, j->t.solve_ms);
    finish(j, rc);
}

/* The analysis of the prepared request q through the result cache, keyed
 * on q's canonical form (line.h), and its tag into j->etag: 0, or -1 with
 * j->error.  A cached analysis answers a revalidation without running. */
static int analyze_cached(job *j, line_request *q)
{
    const gj_game *g = j->game;
    gj_buf key;
    buf_init(&key);
    if (etag_analysis(g, q->canonical, q->canonical_len, &key, j->etag) != 0) {
        buf_free(&key);
        return gj_fail_nomem(&j->error);
    }
    cache_ticket *ticket = NULL;
    cache_result r = CACHE_BYPASS;
    if (j->app->cache != NULL)
        r = cache_get(j->app->cache, key.data, key.len, &j->answer, &ticket);
    buf_free(&key);
    if (r == CACHE_HIT)
        return j->answer.failed ? gj_fail_nomem(&j->error) : 0;
    watch(j);
    int rc = line_run(g, q, job_limits(j, g), &j->answer, &j->error);
    unwatch(j);
    if (rc == 0 && j->answer.failed)
        rc = gj_fail_nomem(&j->error);
    if (ticket != NULL && rc == 0)
        cache_fill(j->app->cache, ticket, j->answer.data, j->answer.len);
    else if (ticket != NULL)
        cache_abandon(j->app->cache, ticket);
    return rc;
}

void jobs_analyze(job *j)
{
    const gj_game *g = j->game;
    if (g->analyze == NULL) {
        finish(j, gj_fail(&j->error, GJ_NOT_FOUND, "%s has no analysis", g->name));
        return;
    }
    unsigned long long start = solve_clock_ns();
    line_request q;
    int rc = line_prepare(j->body, j->len, &q, &j->error);
    if (rc == 0) {
        rc = analyze_cached(j, &q);
        line_request_free(&q);
    }
    j->t.solve_ms = (double)(solve_clock_ns() - start) / 1e6;
    if (rc != 0 && j->error.kind == GJ_OK)
        gj_fail(&j->error, GJ_INTERNAL, "%s: the analysis failed without saying why", g->name);
    /* Matched only once the answer is made: a match is always a 200's. */
    j->not_modified = rc == 0 && etag_none_match(j->if_none_match, j->etag, true);
    if (rc != 0)
        j->etag[0] = '\0';
    finish(j, rc);
}

/* A seed for a move request without one: the clock mixed with a counter,
 * so two requests in the same nanosecond still differ; echoed to the
 * caller, who can replay the move with it. */
static uint64_t fresh_seed(void)
{
    static atomic_ullong count;
    uint64_t x = solve_clock_ns() ^ (atomic_fetch_add(&count, 1) * 0x9e3779b97f4a7c15ULL);
    x ^= x >> 29;
    return x & (uint64_t)ENGINE_SEED_MAX;
}

void jobs_move(job *j)
{
    const gj_game *g = j->game;
    if (g->analyze == NULL) {
        finish(j, gj_fail(&j->error, GJ_NOT_FOUND, "%s has no engine", g->name));
        return;
    }
    unsigned long long start = solve_clock_ns();
    watch(j);
    int rc = engine_move(g, j->body, j->len, job_limits(j, g), fresh_seed(), &j->answer, &j->error);
    unwatch(j);
    j->t.solve_ms = (double)(solve_clock_ns() - start) / 1e6;
    if (rc != 0 && j->error.kind == GJ_OK)
        gj_fail(&j->error, GJ_INTERNAL, "%s: the engine failed without saying why", g->name);
    finish(j, rc);
}

/* ---- judge ---------------------------------------------------------- */

/* One submission to judge: pointers into the caller's strings. */
typedef struct judge_case {
    const char *input, *output;
    size_t input_len, output_len;
} judge_case;

/* A judge-input error keeps its line and gains the field it came in,
 * `where` ("input", "cases[2].input", ...). */
static void blame_input(gj_error *e, const char *where)
{
    if (e->kind == GJ_BAD_INPUT && e->field[0] == '\0') {
        snprintf(e->field, sizeof e->field, "%s", where);
        char message[sizeof e->message];
        snprintf(message, sizeof message, "%.60s: %.310s", where, e->message);
        memcpy(e->message, message, sizeof message);
    }
}

/* "PREFIX.name", or just "name" when prefix is empty, into out. */
static void member_name(char *out, size_t cap, const char *prefix, const char *name)
{
    snprintf(out, cap, "%s%s%s", prefix, *prefix ? "." : "", name);
}

/* Read {"input": text, "output": text} at `where` ("" for the body itself)
 * into *c, pointing into v.  0, or -1 with *e naming the field. */
static int read_case(const json_t *v, const char *where, judge_case *c, gj_error *e)
{
    char field[96];
    const char *key;
    json_t *member;
    if (!json_is_object(v))
        return gj_fail_field(e, where,
                             "expected an object with \"input\" and \"output\" (strings)");
    json_object_foreach((json_t *)v, key, member)
    {
        if (strcmp(key, "input") && strcmp(key, "output")) {
            char unknown[48];
            snprintf(unknown, sizeof unknown, "%.32s", key);
            member_name(field, sizeof field, where, unknown);
            return gj_fail_field(e, field, "unknown field; expected only \"input\", \"output\"");
        }
    }
    static const char *const names[] = {"input", "output"};
    const char **text[] = {&c->input, &c->output};
    size_t *len[] = {&c->input_len, &c->output_len};
    for (int k = 0; k < 2; k++) {
        member_name(field, sizeof field, where, names[k]);
        const json_t *s = json_object_get(v, names[k]);
        if (s == NULL)
            return gj_fail_field(e, field, "missing required field");
        if (jin_string(s, field, -1, text[k], len[k], e) != 0)
            return -1;
    }
    return 0;
}

/* Solve the case's judge input (through the cache) and compare its output
 * with the right one.  The verdict's JSON object (named for `game` unless
 * NULL) and *v, or NULL with *e (a bad input is left for the caller to
 * blame on its field). */
static json_t *judge_one(job *j, const gj_game *g, const judge_case *c, const char *game,
                         solve_timing *t, solve_cached *how, judge_verdict *v, gj_error *e)
{
    gj_buf expected;
    buf_init(&expected);
    json_t *verdict = NULL;
    if (solve_position_cached(g, job_limits(j, g), MEDIA_TEXT, c->input, c->input_len, MEDIA_TEXT,
                              j->app->cache, &expected, t, how, e) == 0) {
        judge_result r;
        judge_compare(expected.data ? expected.data : "", expected.len, c->output, c->output_len,
                      &r);
        *v = r.verdict;
        verdict = judge_object(game, &r);
        if (verdict == NULL)
            gj_fail_nomem(e);
    }
    buf_free(&expected);
    return verdict;
}

static void judge_cases(job *j, json_t *root, const jin_refused *refused, size_t nrefused);

/* One submission ({"input","output"}) or a test set ({"cases": [...]}). */
void jobs_judge(job *j)
{
    static const char *const keys[] = {"?input", "?output", "?cases", NULL};
    jin_refused *refused;
    size_t nrefused;
    json_t *root =
        jin_load_envelope(j->body, j->len, keys, "cases", &refused, &nrefused, &j->error);
    if (root == NULL) {
        finish(j, -1);
        return;
    }
    if (json_object_get(root, "cases") != NULL) {
        if (json_object_get(root, "input") == NULL && json_object_get(root, "output") == NULL) {
            judge_cases(j, root, refused, nrefused);
            free(refused);
            return;
        }
        free(refused);
        json_decref(root);
        finish(j, gj_fail_field(&j->error, "cases",
                                "give either \"input\" and \"output\" (one submission) or "
                                "\"cases\" (a test set), not both"));
        return;
    }
    free(refused); /* none: there is no test set */
    judge_case c;
    judge_verdict v;
    int rc = read_case(root, "", &c, &j->error);
    if (rc == 0) {
        watch(j);
        json_t *verdict = judge_one(j, j->game, &c, j->game->name, &j->t, &j->how, &v, &j->error);
        unwatch(j);
        if (verdict == NULL) {
            blame_input(&j->error, "input");
            rc = -1;
        } else {
            json_out_append(&j->answer, verdict, JSON_COMPACT);
        }
    }
    json_decref(root);
    finish(j, rc);
}

/* ---- batch ---------------------------------------------------------- */

typedef struct batch batch;

typedef enum item_kind {
    ITEM_SOLVE, /* a position: the solve's answer */
    ITEM_JUDGE, /* a judge input and a submitted output: the verdict */
} item_kind;

typedef struct batch_item {
    batch *owner;
    const gj_game *game;
    item_kind kind;
    media_kind input, output;
    char *body; /* the item's judge text, or its position re-serialised */
    size_t len;
    char *submitted; /* ITEM_JUDGE: the output to check */
    size_t submitted_len;
    char where[48];        /* ITEM_JUDGE: the input's field, to blame it */
    judge_verdict verdict; /* ITEM_JUDGE, once judged */
    gj_error error;        /* GJ_OK until its check or its solve fails */
    gj_buf answer;
    solve_cached how;
    solve_timing t; /* its stages' times, summed into the batch's Server-Timing */
    double work_ms; /* its thread's whole time, summed into the job's work_ms */
} batch_item;

struct batch {
    job *j;
    size_t n;
    batch_item *items;
    atomic_size_t remaining;
    void (*answer)(batch *b); /* writes j->answer from the items */
};

/* Answer one item alone with an error of `kind`: "FIELD: MESSAGE".
 * Returns 1, so a check can `return item_fail(...)`. */
static int item_fail(batch_item *it, gj_error_kind kind, const char *field, const char *message)
{
    gj_error_clear(&it->error);
    it->error.kind = kind;
    snprintf(it->error.field, sizeof it->error.field, "%s", field);
    snprintf(it->error.message, sizeof it->error.message, "%s: %s", field, message);
    return 1;
}

/* Answer one item alone for an element jansson refused (json_in.h,
 * jin_load_envelope), named `field` ("items[1]", "cases[0]") as one of the
 * `what` ("item", "case").  Returns 1, as item_fail. */
static int item_refused(batch_item *it, const jin_refused *r, const char *field, const char *what)
{
    char message[300];
    snprintf(message, sizeof message, "%s at line %ld, column %ld, which no %s may hold", r->what,
             r->line, r->column, what);
    item_fail(it, GJ_BAD_INPUT, field, message);
    it->error.line = r->line;
    it->error.column = r->column;
    return 1;
}

/* Copy n bytes of s, NUL-terminated, into *out; -1 when memory is short. */
static int copy_text(const char *s, size_t n, char **out)
{
    *out = malloc(n + 1);
    if (*out == NULL)
        return -1;
    memcpy(*out, s, n);
    (*out)[n] = '\0';
    return 0;
}

/* Make the item a judge item of case c (its input blamed as where.input):
 * copies of both texts.  -1 when memory is short. */
static int take_case(batch_item *it, const judge_case *c, const char *where)
{
    it->kind = ITEM_JUDGE;
    it->input = MEDIA_TEXT;
    it->output = MEDIA_JSON; /* the verdict */
    it->len = c->input_len;
    it->submitted_len = c->output_len;
    member_name(it->where, sizeof it->where, where, "input");
    return copy_text(c->input, c->input_len, &it->body) ||
           copy_text(c->output, c->output_len, &it->submitted);
}

/* The item's shape: an object of known members with a known game, a valid
 * format and exactly one of input, position and judge.  0, or 1 when
 * answered. */
static int check_item(batch_item *it, const json_t *v, size_t i)
{
    char field[64], names[256], message[300];
    const char *key;
    json_t *member;
    snprintf(field, sizeof field, "items[%zu]", i);
    if (!json_is_object(v))
        return item_fail(it, GJ_BAD_INPUT, field,
                         "expected an object with \"game\" and \"input\" (judge text), "
                         "\"position\" (JSON) or \"judge\" ({\"input\", \"output\"})");
    json_object_foreach((json_t *)v, key, member)
    {
        if (strcmp(key, "game") && strcmp(key, "input") && strcmp(key, "position") &&
            strcmp(key, "format") && strcmp(key, "judge")) {
            snprintf(field, sizeof field, "items[%zu].%.32s", i, key);
            return item_fail(it, GJ_BAD_INPUT, field,
                             "unknown field; expected only \"game\", \"input\", "
                             "\"position\", \"judge\", \"format\"");
        }
    }
    const char *name = json_string_value(json_object_get(v, "game"));
    snprintf(field, sizeof field, "items[%zu].game", i);
    if (name == NULL)
        return item_fail(it, GJ_BAD_INPUT, field, "required, a game name (a string)");
    it->game = games_find(name, strlen(name));
    if (it->game == NULL) {
        games_list(names, sizeof names);
        snprintf(message, sizeof message, "unknown game; the games are %s", names);
        return item_fail(it, GJ_UNKNOWN_GAME, field, message);
    }
    const json_t *text = json_object_get(v, "input"), *pos = json_object_get(v, "position");
    const json_t *judge = json_object_get(v, "judge");
    const json_t *format = json_object_get(v, "format");
    const char *f = json_string_value(format);
    snprintf(field, sizeof field, "items[%zu].format", i);
    if (format != NULL && (f == NULL || (strcmp(f, "json") && strcmp(f, "text"))))
        return item_fail(it, GJ_BAD_INPUT, field, "must be \"json\" or \"text\"");
    if (judge != NULL && f != NULL && strcmp(f, "text") == 0)
        return item_fail(it, GJ_BAD_INPUT, field, "a judge item answers JSON only");
    it->output = f && strcmp(f, "text") == 0 ? MEDIA_TEXT : MEDIA_JSON;
    snprintf(field, sizeof field, "items[%zu]", i);
    if ((text != NULL) + (pos != NULL) + (judge != NULL) != 1)
        return item_fail(it, GJ_BAD_INPUT, field,
                         "give exactly one of \"input\" (judge text), \"position\" (JSON) and "
                         "\"judge\" ({\"input\", \"output\"})");
    snprintf(field, sizeof field, "items[%zu].input", i);
    if (text != NULL && !json_is_string(text))
        return item_fail(it, GJ_BAD_INPUT, field, "expected a string (the judge input)");
    return 0;
}

/* The item's own copy of its input: the judge text, the position written
 * back as JSON for the game's JSON parser, or the judge case.  0, 1 when a
 * bad case answered it, -1 when memory is short. */
static int take_item_body(batch_item *it, const json_t *v, size_t i)
{
    const json_t *text = json_object_get(v, "input"), *judge = json_object_get(v, "judge");
    if (judge != NULL) {
        char where[48];
        judge_case c;
        snprintf(where, sizeof where, "items[%zu].judge", i);
        if (read_case(judge, where, &c, &it->error) != 0)
            return 1;
        return take_case(it, &c, where);
    }
    if (text != NULL) {
        it->input = MEDIA_TEXT;
        it->len = json_string_length(text);
        return copy_text(json_string_value(text), it->len, &it->body);
    }
    it->input = MEDIA_JSON;
    it->body = json_dumps(json_object_get(v, "position"), JSON_COMPACT | JSON_ENCODE_ANY);
    if (it->body == NULL)
        return -1;
    it->len = strlen(it->body);
    return 0;
}

/* Fill one item from its JSON; a bad item is answered alone.  Only memory
 * shortage fails the whole batch (-1). */
static int read_item(batch_item *it, const json_t *v, size_t i)
{
    gj_error_clear(&it->error);
    if (check_item(it, v, i) != 0)
        return 0;
    return take_item_body(it, v, i) < 0 ? -1 : 0;
}

/* Append one item's answer object: status, game, and result, output or error. */
static void write_item(gj_buf *out, batch_item *it)
{
    buf_puts(out, "{\"status\":");
    buf_put_long(out, http_error_status(it->error.kind));
    if (it->game != NULL) {
        buf_puts(out, ",\"game\":\"");
        buf_puts(out, it->game->name);
        buf_putc(out, '"');
    }
    if (it->error.kind == GJ_OK && it->output == MEDIA_JSON) {
        buf_puts(out, ",\"result\":");
        buf_append(out, it->answer.data, it->answer.len);
    } else if (it->error.kind == GJ_OK) {
        buf_puts(out, ",\"output\":");
        json_out_append(out, json_stringn(it->answer.data ? it->answer.data : "", it->answer.len),
                        JSON_ENCODE_ANY);
    } else {
        buf_puts(out, ",\"error\":");
        json_out_append(out, http_error_object(&it->error, NULL), JSON_COMPACT);
    }
    buf_putc(out, '}');
}

/* Free the batch and everything its items hold. */
static void free_batch(batch *b)
{
    for (size_t i = 0; i < b->n; i++) {
        free(b->items[i].body);
        free(b->items[i].submitted);
        buf_free(&b->items[i].answer);
    }
    free(b->items);
    free(b);
}

/* The batch's answer: every item's answer in order, and the tallies. */
static void answer_items(batch *b)
{
    job *j = b->j;
    size_t ok = 0;
    buf_puts(&j->answer, "{\"items\":[");
    for (size_t i = 0; i < b->n; i++) {
        j->t.parse_ms += b->items[i].t.parse_ms;
        j->t.solve_ms += b->items[i].t.solve_ms;
        j->t.write_ms += b->items[i].t.write_ms;
        if (i > 0)
            buf_putc(&j->answer, ',');
        write_item(&j->answer, &b->items[i]);
        ok += b->items[i].error.kind == GJ_OK;
    }
    buf_puts(&j->answer, "],\"succeeded\":");
    buf_put_long(&j->answer, (long long)ok);
    buf_puts(&j->answer, ",\"failed\":");
    buf_put_long(&j->answer, (long long)(b->n - ok));
    buf_putc(&j->answer, '}');
}

/* Write the answer, free the batch, hand the job back. */
static void finish_batch(batch *b)
{
    job *j = b->j;
    for (size_t i = 0; i < b->n; i++)
        j->work_ms += b->items[i].work_ms;
    b->answer(b);
    free_batch(b);
    finish(j, 0);
}

/* Judge one item: its verdict object, named for its game in a /batch,
 * bare in a test set's "cases".  0, or -1 with it->error. */
static int judge_item(batch_item *it, job *j, solve_timing *t)
{
    judge_case c = {it->body, it->submitted, it->len, it->submitted_len};
    int named = it->owner->answer == answer_items;
    json_t *verdict = judge_one(j, it->game, &c, named ? it->game->name : NULL, t, &it->how,
                                &it->verdict, &it->error);
    if (verdict == NULL) {
        blame_input(&it->error, it->where);
        return -1;
    }
    json_out_append(&it->answer, verdict, JSON_COMPACT);
    return it->answer.failed ? gj_fail_nomem(&it->error) : 0;
}

/* Solve or judge one item (unless its check already failed it); the last
 * item to finish answers the whole batch. */
static void run_item(void *arg)
{
    batch_item *it = arg;
    batch *b = it->owner;
    job *j = b->j;
    unsigned long long began = solve_clock_ns();
    if (it->error.kind == GJ_OK) {
        solve_timing t;
        memset(&t, 0, sizeof t);
        const gj_game *g = it->game;
        int rc = it->kind == ITEM_JUDGE
                     ? judge_item(it, j, &t)
                     : solve_position_cached(g, job_limits(j, g), it->input, it->body, it->len,
                                             it->output, j->app->cache, &it->answer, &t, &it->how,
                                             &it->error);
        metrics_solve_times(j->app->metrics, g, t.parse_ms, t.solve_ms);
        it->t = t;
        if (rc != 0 && it->error.kind == GJ_OK)
            gj_fail(&it->error, GJ_INTERNAL, "%s: the solve failed without saying why", g->name);
        if (rc != 0)
            buf_free(&it->answer);
    }
    it->work_ms = take_ms(&began); /* read by the last item's thread, after the count */
    if (atomic_fetch_sub(&b->remaining, 1) == 1)
        finish_batch(b);
}

/* A batch of n empty items answered by `answer`; NULL with j->error when
 * memory is short. */
static batch *new_batch(job *j, size_t n, void (*answer)(batch *b))
{
    batch *b = calloc(1, sizeof *b);
    if (b == NULL || (b->items = calloc(n, sizeof *b->items)) == NULL) {
        free(b);
        gj_fail_nomem(&j->error);
        return NULL;
    }
    b->j = j;
    b->n = n;
    b->answer = answer;
    for (size_t i = 0; i < n; i++) {
        b->items[i].owner = b;
        buf_init(&b->items[i].answer);
    }
    return b;
}

/* Parse the envelope; NULL with j->error when the batch itself is bad.  An
 * item jansson refuses though it is JSON (an integer beyond 64 bits, a NUL
 * in a key) is answered alone, as the spec promises for any bad item. */
static batch *read_batch(job *j)
{
    static const char *const keys[] = {"items", NULL};
    jin_refused *refused;
    size_t nrefused, next = 0;
    json_t *root =
        jin_load_envelope(j->body, j->len, keys, "items", &refused, &nrefused, &j->error);
    if (root == NULL)
        return NULL;
    const json_t *items = json_object_get(root, "items");
    if (jin_array(items, "items", -1, 1, (size_t)j->app->cfg->batch_max_items, &j->error) != 0) {
        json_decref(root);
        free(refused);
        return NULL;
    }
    size_t n = json_array_size(items);
    batch *b = new_batch(j, n, answer_items);
    for (size_t i = 0; b != NULL && i < n; i++) {
        if (next < nrefused && refused[next].index == i) {
            char field[64];
            snprintf(field, sizeof field, "items[%zu]", i);
            item_refused(&b->items[i], &refused[next++], field, "item");
        } else if (read_item(&b->items[i], json_array_get(items, i), i) != 0) {
            free_batch(b);
            gj_fail_nomem(&j->error);
            b = NULL;
        }
    }
    json_decref(root);
    free(refused);
    return b;
}

/* Items go to the pool so idle workers share them; one the queue has no
 * room for runs here.  The worker that finishes the last item answers. */
static void run_batch(batch *b)
{
    job *j = b->j;
    /* The envelope's parse so far; from here each item counts its own. */
    j->work_ms += take_ms(&j->own_ns);
    atomic_store(&b->remaining, b->n);
    size_t n = b->n;
    for (size_t i = 1; i < n; i++)
        if (b->items[i].error.kind != GJ_OK ||
            pool_submit(j->app->pool, run_item, &b->items[i]) != 0)
            run_item(&b->items[i]);
    run_item(&b->items[0]); /* may finish the batch: b is gone after this */
}

void jobs_batch(job *j)
{
    batch *b = read_batch(j);
    if (b == NULL) {
        finish(j, -1);
        return;
    }
    run_batch(b);
}

/* ---- a test set: POST /judge/{game} with "cases" -------------------- */

/* One case's entry: {"status":200,"verdict":..,"first_difference":..}, or
 * {"status":4xx,"error":{..}} for a case that could not be judged. */
static void write_case(gj_buf *out, const batch_item *it)
{
    buf_puts(out, "{\"status\":");
    buf_put_long(out, http_error_status(it->error.kind));
    if (it->error.kind == GJ_OK) {
        /* The verdict object without its opening brace continues this one. */
        buf_putc(out, ',');
        buf_append(out, it->answer.data + 1, it->answer.len - 1);
        return;
    }
    buf_puts(out, ",\"error\":");
    json_out_append(out, http_error_object(&it->error, NULL), JSON_COMPACT);
    buf_putc(out, '}');
}

/* The test set's answer, as online judges report one: the verdict of the
 * first case not accepted ("error" for a case that could not be judged),
 * its index, the counts per verdict, then every case's entry. */
static void answer_cases(batch *b)
{
    gj_buf *out = &b->j->answer;
    size_t counts[JUDGE_VERDICTS + 1] = {0}; /* the last: cases answered with an error */
    long first = -1;
    const char *overall = judge_verdict_name(JUDGE_ACCEPTED);
    for (size_t i = 0; i < b->n; i++) {
        const batch_item *it = &b->items[i];
        int k = it->error.kind == GJ_OK ? (int)it->verdict : JUDGE_VERDICTS;
        counts[k]++;
        if (first < 0 && k != JUDGE_ACCEPTED) {
            first = (long)i;
            overall = k == JUDGE_VERDICTS ? "error" : judge_verdict_name((judge_verdict)k);
        }
    }
    buf_puts(out, "{\"game\":\"");
    buf_puts(out, b->j->game->name);
    buf_puts(out, "\",\"verdict\":\"");
    buf_puts(out, overall);
    buf_puts(out, "\",\"first_failed\":");
    if (first < 0)
        buf_puts(out, "null");
    else
        buf_put_long(out, first);
    buf_puts(out, ",\"total\":");
    buf_put_long(out, (long long)b->n);
    buf_puts(out, ",\"counts\":{");
    for (int k = 0; k <= JUDGE_VERDICTS; k++) {
        buf_puts(out, k ? ",\"" : "\"");
        buf_puts(out, k == JUDGE_VERDICTS ? "error" : judge_verdict_name((judge_verdict)k));
        buf_puts(out, "\":");
        buf_put_long(out, (long long)counts[k]);
    }
    buf_puts(out, "},\"cases\":[");
    for (size_t i = 0; i < b->n; i++) {
        if (i > 0)
            buf_putc(out, ',');
        write_case(out, &b->items[i]);
    }
    buf_puts(out, "]}");
}

/* The test set's own limits: 1 to --judge-max-cases cases whose strings
 * total at most --judge-max-bytes.  0, or -1 with j->error. */
static int check_cases(job *j, const json_t *cases)
{
    const gj_config *cfg = j->app->cfg;
    size_t n = json_array_size(cases), bytes = 0;
    if (n > (size_t)cfg->judge_max_cases)
        return gj_fail_field(&j->error, "cases",
                             "%zu cases, over the limit of %ld (--judge-max-cases)", n,
                             cfg->judge_max_cases);
    if (jin_array(cases, "cases", -1, 1, (size_t)cfg->judge_max_cases, &j->error) != 0)
        return -1;
    for (size_t i = 0; i < n; i++) {
        const json_t *c = json_array_get(cases, i);
        bytes += json_string_length(json_object_get(c, "input")) +
                 json_string_length(json_object_get(c, "output"));
    }
    if (bytes > (size_t)cfg->judge_max_bytes) {
        gj_fail_field(&j->error, "cases",
                      "the inputs and outputs total %zu bytes, over the limit of %ld "
                      "(--judge-max-bytes)",
                      bytes, cfg->judge_max_bytes);
        j->error.kind = GJ_TOO_LARGE;
        return -1;
    }
    return 0;
}

/* Judge every case of root's "cases" across the workers (as a batch; each
 * item holds copies of its texts); a bad case is answered in its place,
 * and so is one jansson refused (refused, by index).  Takes root. */
static void judge_cases(job *j, json_t *root, const jin_refused *refused, size_t nrefused)
{
    size_t next = 0;
    const json_t *cases = json_object_get(root, "cases");
    if (check_cases(j, cases) != 0) {
        json_decref(root);
        finish(j, -1);
        return;
    }
    size_t n = json_array_size(cases);
    batch *b = new_batch(j, n, answer_cases);
    if (b == NULL) {
        json_decref(root);
        finish(j, -1);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        batch_item *it = &b->items[i];
        char where[48];
        judge_case c;
        snprintf(where, sizeof where, "cases[%zu]", i);
        it->game = j->game;
        gj_error_clear(&it->error);
        if (next < nrefused && refused[next].index == i) {
            item_refused(it, &refused[next++], where, "case");
            continue;
        }
        if (read_case(json_array_get(cases, i), where, &c, &it->error) == 0 &&
            take_case(it, &c, where) != 0) {
            free_batch(b);
            json_decref(root);
            finish(j, gj_fail_nomem(&j->error));
            return;
        }
    }
    json_decref(root);
    run_batch(b);
}

/* ---- entry ---------------------------------------------------------- */

/* done() as jobs_start installs it: the handler's own thread's time (when
 * a batch has not already counted it) joins work_ms, then the caller's
 * done runs. */
static void settle(job *j)
{
    j->work_ms += take_ms(&j->own_ns);
    j->then(j);
}

void jobs_start(job *j, job_handler handler)
{
    j->then = j->done;
    j->done = settle;
    j->own_ns = solve_clock_ns();
    /* The I/O thread's parse ahead (jobs_triage) is work for the request too. */
    j->work_ms = j->parsed ? j->parse_ms : 0;
    buf_init(&j->answer);
    gj_error_clear(&j->error);
    j->ok_status = 200;
    j->type = j->output == MEDIA_JSON ? "application/json" : "text/plain; charset=utf-8";
    j->fixed = NULL;
    j->fixed_len = 0;
    j->how = SOLVE_UNCACHED;
    memset(&j->t, 0, sizeof j->t);
    j->abandoned = 0;
    j->wait_ns = j->queued_ns ? solve_clock_ns() - j->queued_ns : 0;
    double waited = (double)j->wait_ns / 1e9;
    long limit = j->app->cfg->request_timeout;
    if (j->queued_ns != 0 && conntrack_gone(j->peer)) {
        /* Nobody reads the answer; the 503 only completes the request. */
        j->abandoned = 1;
        metrics_job_event(j->app->metrics, JOB_DROPPED_ABANDONED);
        gj_fail(&j->error, GJ_CANCELLED, "the client closed its connection before its job started");
    } else if (waited > (double)limit) {
        metrics_job_event(j->app->metrics, JOB_DROPPED_LATE);
        gj_fail(&j->error, GJ_OVERLOADED,
                "the request waited %.1f s for a worker, past the %ld s limit "
                "(--request-timeout); retry shortly",
                waited, limit);
    }
    if (j->error.kind != GJ_OK) {
        jobs_release(j);
        j->done(j);
        return;
    }
    gj_cancel_init(&j->cancel,
                   j->queued_ns ? j->queued_ns + (unsigned long long)limit * 1000000000ull : 0);
    handler(j);
}
