/* fanout.c - the spread of items over the pool that /batch and a /judge
 * test set share (fanout.h), and one submission judged: the two handlers
 * (batch_job.c, judge_job.c) call this and not each other. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fanout.h"
#include "json_out.h"

/* A judge-input error keeps its line and gains the field it came in,
 * `where` ("input", "cases[2].input", ...). */
void blame_input(gj_error *e, const char *where)
{
    if (e->kind == GJ_BAD_INPUT && e->field[0] == '\0') {
        snprintf(e->field, sizeof e->field, "%s", where);
        char message[sizeof e->message];
        snprintf(message, sizeof message, "%.60s: %.310s", where, e->message);
        memcpy(e->message, message, sizeof message);
    }
}

/* "PREFIX.name", or just "name" when prefix is empty, into out. */
void member_name(char *out, size_t cap, const char *prefix, const char *name)
{
    snprintf(out, cap, "%s%s%s", prefix, *prefix ? "." : "", name);
}

/* Read {"input": text, "output": text} at `where` ("" for the body itself)
 * into *c, pointing into v.  0, or -1 with *e naming the field. */
int read_case(const json_t *v, const char *where, judge_case *c, gj_error *e)
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
json_t *judge_one(job *j, const gj_game *g, const judge_case *c, const char *game, solve_timing *t,
                  cache_result *how, judge_verdict *v, gj_error *e)
{
    gj_buf expected;
    buf_init(&expected);
    json_t *verdict = NULL;
    if (solve_position_cached(g, jobs_limits(j, g), MEDIA_TEXT, c->input, c->input_len, MEDIA_TEXT,
                              j->rt->cache, &expected, t, how, e) == 0) {
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

/* Answer one item alone with an error of `kind`: "FIELD: MESSAGE".
 * Returns 1, so a check can `return item_fail(...)`. */
int item_fail(batch_item *it, gj_error_kind kind, const char *field, const char *message)
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
int item_refused(batch_item *it, const jin_refused *r, const char *field, const char *what)
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

/* Make the item a solve item of the judge text s (n bytes): a copy.  -1
 * when memory is short. */
int take_text(batch_item *it, const char *s, size_t n)
{
    it->input = MEDIA_TEXT;
    it->len = n;
    return copy_text(s, n, &it->body);
}

/* Make the item a judge item of case c (its input blamed as where.input):
 * copies of both texts.  -1 when memory is short. */
int take_case(batch_item *it, const judge_case *c, const char *where)
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

/* Free the batch and everything its items hold. */
void free_batch(batch *b)
{
    for (size_t i = 0; i < b->n; i++) {
        free(b->items[i].body);
        free(b->items[i].submitted);
        buf_free(&b->items[i].answer);
    }
    free(b->items);
    free(b);
}

/* Write the answer, free the batch, hand the job back. */
static void finish_batch(batch *b)
{
    job *j = b->j;
    for (size_t i = 0; i < b->n; i++)
        j->work_ms += b->items[i].work_ms;
    b->answer(b);
    free_batch(b);
    jobs_finish(j, 0);
}

/* Judge one item: its verdict object, named for its game in a /batch,
 * bare in a test set's "cases".  0, or -1 with it->error. */
static int judge_item(batch_item *it, job *j, solve_timing *t)
{
    judge_case c = {it->body, it->submitted, it->len, it->submitted_len};
    json_t *verdict = judge_one(j, it->game, &c, it->owner->named ? it->game->name : NULL, t,
                                &it->how, &it->verdict, &it->error);
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
    unsigned long long began = clock_ns();
    if (it->error.kind == GJ_OK) {
        solve_timing t;
        memset(&t, 0, sizeof t);
        const gj_game *g = it->game;
        int rc = it->kind == ITEM_JUDGE
                     ? judge_item(it, j, &t)
                     : solve_position_cached(g, jobs_limits(j, g), it->input, it->body, it->len,
                                             it->output, j->rt->cache, &it->answer, &t, &it->how,
                                             &it->error);
        metrics_solve_times(j->rt->metrics, g, t.parse_ms, t.solve_ms);
        it->t = t;
        if (rc != 0 && it->error.kind == GJ_OK)
            gj_fail(&it->error, GJ_INTERNAL, "%s: the solve failed without saying why", g->name);
        if (rc != 0)
            buf_free(&it->answer);
    }
    it->work_ms = jobs_take_ms(&began); /* read by the last item's thread, after the count */
    if (atomic_fetch_sub(&b->remaining, 1) == 1)
        finish_batch(b);
}

/* A batch of n empty items answered by `answer`; NULL with j->error when
 * memory is short. */
batch *new_batch(job *j, size_t n, bool named, void (*answer)(batch *b))
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
    b->named = named;
    for (size_t i = 0; i < n; i++) {
        b->items[i].owner = b;
        buf_init(&b->items[i].answer);
    }
    return b;
}

/* Items go to the pool so idle workers share them; one the queue has no
 * room for runs here.  The worker that finishes the last item answers. */
void run_batch(batch *b)
{
    job *j = b->j;
    /* The envelope's parse so far; from here each item counts its own. */
    j->work_ms += jobs_take_ms(&j->own_ns);
    atomic_store(&b->remaining, b->n);
    size_t n = b->n;
    for (size_t i = 1; i < n; i++)
        if (b->items[i].error.kind != GJ_OK ||
            pool_submit(j->rt->pool, run_item, &b->items[i]) != 0)
            run_item(&b->items[i]);
    run_item(&b->items[0]); /* may finish the batch: b is gone after this */
}
