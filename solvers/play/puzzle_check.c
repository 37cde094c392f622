/* puzzle_check.c - a visitor's moves judged against a puzzle
 * (puzzle_check.h). */
#include "puzzle_check.h"

#include <stdio.h>
#include <string.h>

#include "json_in.h"
#include "puzzle_write.h"

/* The solution: each step's solving move and the defender's reply. */
static void put_solution(const puzzle *p, gj_buf *out)
{
    buf_puts(out, ",\"solution\":[");
    for (int i = 0; i < p->depth; i++) {
        const puzzle_step *s = &p->steps[i];
        buf_puts(out, i ? ",{\"move\":" : "{\"move\":");
        puzzle_put_json(out, json_object_get(s->solving, "move"));
        if (s->reply != NULL) {
            buf_puts(out, ",\"reply\":");
            puzzle_put_json(out, json_object_get(s->reply, "move"));
        }
        buf_putc(out, '}');
    }
    buf_putc(out, ']');
}

/* Whether `move` is the solving move of step s (1), another legal move
 * of its position (0), no legal move there (-1), or -2 with *e: found on
 * the step's parsed position, whose ranking put the solving move first. */
static int judge_move(const puzzle_step *s, const json_t *move, gj_error *e)
{
    gj_move m;
    int found = s->at.ops->find(s->at.pos, move, &m, e);
    if (found <= 0)
        return found < 0 ? -2 : -1;
    return m.id == s->moves[0].id;
}

/* The members a try has. */
static const char *const try_keys[] = {"?moves", "?reveal", NULL};

int puzzle_try_take(json_t *root, puzzle_try *t, gj_error *e)
{
    memset(t, 0, sizeof *t);
    if (jin_known_keys(root, try_keys, e) != 0)
        return -1;
    const json_t *moves = json_object_get(root, "moves"), *reveal = json_object_get(root, "reveal");
    if (reveal != NULL && !json_is_boolean(reveal))
        return gj_fail_field(e, "reveal", "expected true or false");
    if (moves != NULL && jin_array(moves, "moves", -1, 0, PUZZLE_DEPTH_MAX, e) != 0)
        return -1;
    t->root = root;
    t->moves = moves;
    t->reveal = json_is_true(reveal);
    return 0;
}

int puzzle_try_read(const char *body, size_t len, puzzle_try *t, gj_error *e)
{
    memset(t, 0, sizeof *t);
    json_t *root = jin_load_object(body, len, try_keys, e);
    if (root == NULL)
        return -1;
    if (puzzle_try_take(root, t, e) != 0) {
        json_decref(root);
        return -1;
    }
    return 0;
}

void puzzle_try_free(puzzle_try *t)
{
    json_decref(t->root);
    memset(t, 0, sizeof *t);
}

/* How a move is written, from one move of the position: its JSON shape
 * with every value replaced by its type ("[integer, integer]"), so a
 * message can show the form without showing any move, least of all the
 * solving one. */
static void put_form(const json_t *v, gj_buf *out, int depth)
{
    if (depth > 4) {
        buf_puts(out, "...");
        return;
    }
    if (json_is_array(v)) {
        buf_putc(out, '[');
        for (size_t i = 0; i < json_array_size(v) && i < 8; i++) {
            buf_puts(out, i ? ", " : "");
            put_form(json_array_get(v, i), out, depth + 1);
        }
        buf_puts(out, json_array_size(v) > 8 ? ", ...]" : "]");
    } else if (json_is_object(v)) {
        const char *key;
        json_t *x;
        bool first = true;
        buf_putc(out, '{');
        json_object_foreach((json_t *)v, key, x)
        {
            buf_puts(out, first ? "\"" : ", \"");
            buf_puts(out, key);
            buf_puts(out, "\": ");
            put_form(x, out, depth + 1);
            first = false;
        }
        buf_putc(out, '}');
    } else {
        buf_puts(out, json_is_integer(v)   ? "integer"
                      : json_is_number(v)  ? "number"
                      : json_is_string(v)  ? "string"
                      : json_is_boolean(v) ? "true or false"
                                           : "null");
    }
}

int puzzle_check(const puzzle *p, const char *body, size_t len, gj_buf *out, gj_error *e)
{
    puzzle_try t;
    if (puzzle_try_read(body, len, &t, e) != 0)
        return -1;
    int rc = puzzle_check_try(p, &t, out, e);
    puzzle_try_free(&t);
    return rc;
}

int puzzle_check_try(const puzzle *p, const puzzle_try *t, gj_buf *out, gj_error *e)
{
    const json_t *moves = t->moves;
    int rc = 0;
    if (moves != NULL && jin_array(moves, "moves", -1, 0, (size_t)p->depth, e) != 0)
        rc = -1;
    size_t n = json_array_size(moves);
    gj_buf results;
    buf_init(&results);
    bool failed = false;
    size_t k = 0;
    for (; rc == 0 && k < n; k++) {
        const puzzle_step *s = &p->steps[k];
        const json_t *move = json_array_get(moves, k);
        char field[32];
        snprintf(field, sizeof field, "moves[%zu]", k);
        if (failed) {
            rc = gj_fail_field(e, field, "the puzzle ended with the wrong move moves[%zu]", k - 1);
            break;
        }
        int at = judge_move(s, move, e);
        if (at == -2) {
            rc = -1;
            break;
        }
        if (at < 0) {
            /* The form only: with two legal moves any move shown would be
             * half the answer, and the ranking's first the whole of it. */
            gj_buf form;
            buf_init(&form);
            put_form(json_object_get(s->solving, "move"), &form, 0);
            bool shown = !form.failed && form.data != NULL;
            rc = gj_fail_field(e, field,
                               "not a legal move in this position, which has %ld legal moves, "
                               "each written as %.*s",
                               s->legal, shown ? (int)(form.len < 120 ? form.len : 120) : 20,
                               shown ? form.data : "/analyze writes them");
            buf_free(&form);
            break;
        }
        bool correct = at == 1;
        failed = !correct;
        buf_puts(&results, k ? ",{\"move\":" : "{\"move\":");
        puzzle_put_json(&results, move);
        buf_puts(&results, correct ? ",\"correct\":true" : ",\"correct\":false");
        if (correct && s->reply != NULL) {
            buf_puts(&results, ",\"reply\":");
            puzzle_put_json(&results, json_object_get(s->reply, "move"));
            buf_puts(&results, ",\"position\":");
            puzzle_put_json(&results, p->steps[k + 1].position);
        }
        buf_putc(&results, '}');
    }
    if (rc == 0) {
        bool solved = !failed && k == (size_t)p->depth;
        buf_puts(out, "{\"game\":\"");
        buf_puts(out, p->game->name);
        buf_puts(out, "\",\"id\":\"");
        buf_puts(out, p->id);
        buf_puts(out, "\",\"depth\":");
        buf_put_long(out, p->depth);
        buf_puts(out, ",\"results\":[");
        buf_append(out, results.data ? results.data : "", results.len);
        buf_puts(out, solved ? "],\"solved\":true" : "],\"solved\":false");
        buf_puts(out, failed ? ",\"failed\":true" : ",\"failed\":false");
        if (failed || t->reveal)
            put_solution(p, out);
        buf_putc(out, '}');
        if (results.failed)
            out->failed = 1;
    }
    buf_free(&results);
    return rc;
}
