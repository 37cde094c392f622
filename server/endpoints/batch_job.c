/* batch_job.c - POST /batch (endpoints.h): many positions or submissions
 * spread over the pool (fanout.h), answered in order. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fanout.h"
#include "endpoints.h"
#include "games.h"
#include "http_error.h"
#include "json_out.h"

/* ---- POST /batch ---------------------------------------------------- */

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
        return take_text(it, json_string_value(text), json_string_length(text));
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
    if (jin_array(items, "items", -1, 1, (size_t)j->rt->cfg->batch_max_items, &j->error) != 0) {
        json_decref(root);
        free(refused);
        return NULL;
    }
    size_t n = json_array_size(items);
    batch *b = new_batch(j, n, true, answer_items);
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

void endpoint_batch(job *j)
{
    batch *b = read_batch(j);
    if (b == NULL) {
        jobs_finish(j, -1);
        return;
    }
    run_batch(b);
}
