/* jobs.c - the start of every job, and the POST routes' handlers:
 * solve, analyze, judge and batch (jobs.h). */
#include "jobs.h"

#include <jansson.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "games.h"
#include "http_error.h"
#include "json_in.h"
#include "json_out.h"
#include "judge.h"

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

/* The limits in force for the job's game. */
static const long *job_limits(const job *j, const gj_game *g)
{
    return config_game_limits(j->app->cfg, g);
}

/* ---- solve, analyze ------------------------------------------------- */

void jobs_solve(job *j)
{
    const gj_game *g = j->game;
    app_test_hold(j->app);
    int rc = solve_position_cached(g, job_limits(j, g), j->input, j->body, j->len, j->output,
                                   j->app->cache, &j->answer, &j->t, &j->how, &j->error);
    /* Failed parses count too: a parse histogram without them would hide
     * the time spent refusing input. */
    metrics_solve_times(j->app->metrics, g, j->t.parse_ms, j->t.solve_ms);
    finish(j, rc);
}

void jobs_analyze(job *j)
{
    const gj_game *g = j->game;
    if (g->analyze == NULL) {
        finish(j, gj_fail(&j->error, GJ_NOT_FOUND, "%s has no analysis", g->name));
        return;
    }
    unsigned long long start = solve_clock_ns();
    int rc = g->analyze(j->body, j->len, job_limits(j, g), &j->answer, &j->error);
    j->t.solve_ms = (double)(solve_clock_ns() - start) / 1e6;
    if (rc != 0 && j->error.kind == GJ_OK)
        gj_fail(&j->error, GJ_INTERNAL, "%s: the analysis failed without saying why", g->name);
    finish(j, rc);
}

/* ---- judge ---------------------------------------------------------- */

/* A judge-input error keeps its line and gains the field it came in. */
static void blame_input(gj_error *e)
{
    if (e->kind == GJ_BAD_INPUT && e->field[0] == '\0') {
        snprintf(e->field, sizeof e->field, "input");
        char message[sizeof e->message];
        snprintf(message, sizeof message, "input: %.370s", e->message);
        memcpy(e->message, message, sizeof message);
    }
}

void jobs_judge(job *j)
{
    static const char *const keys[] = {"input", "output", NULL};
    const char *input, *output;
    size_t input_len, output_len;
    json_t *root = jin_load_object(j->body, j->len, keys, &j->error);
    if (root == NULL ||
        jin_string(json_object_get(root, "input"), "input", -1, &input, &input_len, &j->error) ||
        jin_string(json_object_get(root, "output"), "output", -1, &output, &output_len,
                   &j->error)) {
        json_decref(root);
        finish(j, -1);
        return;
    }
    gj_buf expected;
    buf_init(&expected);
    const gj_game *g = j->game;
    int rc = solve_position_cached(g, job_limits(j, g), MEDIA_TEXT, input, input_len, MEDIA_TEXT,
                                   j->app->cache, &expected, &j->t, &j->how, &j->error);
    if (rc == 0) {
        judge_result r;
        judge_compare(expected.data ? expected.data : "", expected.len, output, output_len, &r);
        judge_write_json(g->name, &r, &j->answer);
    } else {
        blame_input(&j->error);
    }
    buf_free(&expected);
    json_decref(root);
    finish(j, rc);
}

/* ---- batch ---------------------------------------------------------- */

typedef struct batch batch;

typedef struct batch_item {
    batch *owner;
    const gj_game *game;
    media_kind input, output;
    char *body; /* the item's judge text, or its position re-serialised */
    size_t len;
    gj_error error; /* GJ_OK until its check or its solve fails */
    gj_buf answer;
    solve_cached how;
    solve_timing t; /* its worker time, summed into the batch's (the quotas charge it) */
} batch_item;

struct batch {
    job *j;
    size_t n;
    batch_item *items;
    atomic_size_t remaining;
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

/* The item's shape: an object of known members with a known game, a valid
 * format and exactly one of input and position.  0, or 1 when answered. */
static int check_item(batch_item *it, const json_t *v, size_t i)
{
    char field[64], names[256], message[300];
    const char *key;
    json_t *member;
    snprintf(field, sizeof field, "items[%zu]", i);
    if (!json_is_object(v))
        return item_fail(it, GJ_BAD_INPUT, field,
                         "expected an object with \"game\" and \"input\" (judge text) or "
                         "\"position\" (JSON)");
    json_object_foreach((json_t *)v, key, member)
    {
        if (strcmp(key, "game") && strcmp(key, "input") && strcmp(key, "position") &&
            strcmp(key, "format")) {
            snprintf(field, sizeof field, "items[%zu].%.32s", i, key);
            return item_fail(it, GJ_BAD_INPUT, field,
                             "unknown field; expected only \"game\", \"input\", "
                             "\"position\", \"format\"");
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
    const json_t *format = json_object_get(v, "format");
    const char *f = json_string_value(format);
    snprintf(field, sizeof field, "items[%zu].format", i);
    if (format != NULL && (f == NULL || (strcmp(f, "json") && strcmp(f, "text"))))
        return item_fail(it, GJ_BAD_INPUT, field, "must be \"json\" or \"text\"");
    it->output = f && strcmp(f, "text") == 0 ? MEDIA_TEXT : MEDIA_JSON;
    const json_t *text = json_object_get(v, "input"), *pos = json_object_get(v, "position");
    snprintf(field, sizeof field, "items[%zu]", i);
    if ((text == NULL) == (pos == NULL))
        return item_fail(it, GJ_BAD_INPUT, field,
                         "give exactly one of \"input\" (judge text) and \"position\" (JSON)");
    snprintf(field, sizeof field, "items[%zu].input", i);
    if (text != NULL && !json_is_string(text))
        return item_fail(it, GJ_BAD_INPUT, field, "expected a string (the judge input)");
    return 0;
}

/* The item's own copy of its input: the judge text, or the position
 * written back as JSON for the game's JSON parser.  -1 when memory is short. */
static int take_item_body(batch_item *it, const json_t *v)
{
    const json_t *text = json_object_get(v, "input");
    if (text != NULL) {
        it->input = MEDIA_TEXT;
        it->len = json_string_length(text);
        it->body = malloc(it->len + 1);
        if (it->body == NULL)
            return -1;
        memcpy(it->body, json_string_value(text), it->len);
        it->body[it->len] = '\0';
        return 0;
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
    return take_item_body(it, v);
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
        buf_free(&b->items[i].answer);
    }
    free(b->items);
    free(b);
}

/* Write every item's answer in order, free the batch, hand the job back. */
static void finish_batch(batch *b)
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
    free_batch(b);
    finish(j, 0);
}

/* Solve one item (unless its check already failed it); the last item to
 * finish answers the whole batch. */
static void run_item(void *arg)
{
    batch_item *it = arg;
    batch *b = it->owner;
    job *j = b->j;
    if (it->error.kind == GJ_OK) {
        solve_timing t;
        const gj_game *g = it->game;
        int rc =
            solve_position_cached(g, job_limits(j, g), it->input, it->body, it->len, it->output,
                                  j->app->cache, &it->answer, &t, &it->how, &it->error);
        metrics_solve_times(j->app->metrics, g, t.parse_ms, t.solve_ms);
        it->t = t;
        if (rc != 0 && it->error.kind == GJ_OK)
            gj_fail(&it->error, GJ_INTERNAL, "%s: the solve failed without saying why", g->name);
        if (rc != 0)
            buf_free(&it->answer);
    }
    if (atomic_fetch_sub(&b->remaining, 1) == 1)
        finish_batch(b);
}

/* Parse the envelope; NULL with j->error when the batch itself is bad. */
static batch *read_batch(job *j)
{
    static const char *const keys[] = {"items", NULL};
    json_t *root = jin_load_object(j->body, j->len, keys, &j->error);
    if (root == NULL)
        return NULL;
    const json_t *items = json_object_get(root, "items");
    if (jin_array(items, "items", -1, 1, (size_t)j->app->cfg->batch_max_items, &j->error) != 0) {
        json_decref(root);
        return NULL;
    }
    batch *b = calloc(1, sizeof *b);
    size_t n = json_array_size(items);
    if (b == NULL || (b->items = calloc(n, sizeof *b->items)) == NULL) {
        free(b);
        json_decref(root);
        gj_fail_nomem(&j->error);
        return NULL;
    }
    b->j = j;
    b->n = n;
    for (size_t i = 0; i < n; i++) {
        b->items[i].owner = b;
        buf_init(&b->items[i].answer);
        if (read_item(&b->items[i], json_array_get(items, i), i) != 0) {
            free_batch(b);
            json_decref(root);
            gj_fail_nomem(&j->error);
            return NULL;
        }
    }
    json_decref(root);
    return b;
}

/* Items go to the pool so idle workers share them; one the queue has no
 * room for runs here.  The worker that finishes the last item answers. */
void jobs_batch(job *j)
{
    batch *b = read_batch(j);
    if (b == NULL) {
        finish(j, -1);
        return;
    }
    atomic_store(&b->remaining, b->n);
    size_t n = b->n;
    for (size_t i = 1; i < n; i++)
        if (b->items[i].error.kind != GJ_OK ||
            pool_submit(j->app->pool, run_item, &b->items[i]) != 0)
            run_item(&b->items[i]);
    run_item(&b->items[0]); /* may finish the batch: b is gone after this */
}

/* ---- entry ---------------------------------------------------------- */

void jobs_start(job *j, job_handler handler)
{
    buf_init(&j->answer);
    gj_error_clear(&j->error);
    j->ok_status = 200;
    j->type = j->output == MEDIA_JSON ? "application/json" : "text/plain; charset=utf-8";
    j->fixed = NULL;
    j->fixed_len = 0;
    j->how = SOLVE_UNCACHED;
    memset(&j->t, 0, sizeof j->t);
    j->wait_ns = j->queued_ns ? solve_clock_ns() - j->queued_ns : 0;
    double waited = (double)j->wait_ns / 1e9;
    if (waited > (double)j->app->cfg->request_timeout) {
        gj_fail(&j->error, GJ_OVERLOADED,
                "the request waited %.1f s for a worker, past the %ld s limit "
                "(--request-timeout); retry shortly",
                waited, j->app->cfg->request_timeout);
        j->done(j);
        return;
    }
    handler(j);
}
