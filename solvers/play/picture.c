/* picture.c - a position framed as an SVG document (picture.h). */
#include "picture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "play_pos.h"

/* Append s with XML's five special characters escaped. */
static void put_escaped(gj_buf *out, const char *s)
{
    for (; *s != '\0'; s++) {
        switch (*s) {
        case '<':
            buf_puts(out, "&lt;");
            break;
        case '>':
            buf_puts(out, "&gt;");
            break;
        case '&':
            buf_puts(out, "&amp;");
            break;
        case '"':
            buf_puts(out, "&quot;");
            break;
        case '\'':
            buf_puts(out, "&apos;");
            break;
        default:
            buf_putc(out, *s);
        }
    }
}

/* The analysis' "to_move" of the position at, a string, into side (at
 * most size bytes; "" when the analysis names none): 0, or -1 with *e. */
static int side_to_move(play_pos *at, char *side, size_t size, gj_error *e)
{
    gj_buf text;
    buf_init(&text);
    int rc = at->ops->analyze(at->pos, &text, e);
    side[0] = '\0';
    if (rc == 0 && text.failed)
        rc = gj_fail_nomem(e);
    json_t *a = rc == 0 ? json_loadb(text.data, text.len, 0, NULL) : NULL;
    const char *s = json_string_value(json_object_get(a, "to_move"));
    if (s != NULL)
        snprintf(side, size, "%s", s);
    json_decref(a);
    buf_free(&text);
    return rc;
}

int picture_write(const gj_game *g, const json_t *req, const long *limits, const char *task,
                  gj_buf *out, gj_error *e)
{
    if (g->play == NULL || g->play->draw == NULL)
        return gj_fail(e, GJ_NOT_FOUND, "%s has no pictures", g->name);
    if (strlen(task) > PICTURE_TASK_MAX)
        return gj_fail(e, GJ_INTERNAL, "a picture's task of more than %d bytes", PICTURE_TASK_MAX);
    play_pos at;
    if (play_open(&at, g, req, limits, e) != 0)
        return -1;
    char side[64];
    int rc = side_to_move(&at, side, sizeof side, e);
    if (rc == 0) {
        gj_buf body;
        buf_init(&body);
        int width = 0, height = 0;
        at.ops->draw(at.pos, &body, &width, &height);
        if (body.failed || width <= 0 || height <= 0 || width > 1200 || height > 1200) {
            rc = body.failed ? gj_fail_nomem(e)
                             : gj_fail(e, GJ_INTERNAL, "%s drew a canvas of %d x %d", g->name,
                                       width, height);
        } else {
            buf_puts(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 ");
            buf_put_long(out, width);
            buf_putc(out, ' ');
            buf_put_long(out, height);
            buf_puts(out, "\" width=\"");
            buf_put_long(out, width);
            buf_puts(out, "\" height=\"");
            buf_put_long(out, height);
            buf_puts(out, "\" role=\"img\" aria-labelledby=\"title\"><title id=\"title\">");
            put_escaped(out, g->display_name);
            if (side[0] != '\0') {
                buf_puts(out, ": ");
                put_escaped(out, side);
                buf_puts(out, " to move");
            }
            buf_puts(out, "; ");
            put_escaped(out, task);
            buf_puts(out, "</title>");
            buf_append(out, body.data, body.len);
            buf_puts(out, "</svg>\n");
            if (out->failed)
                rc = gj_fail_nomem(e);
        }
        buf_free(&body);
    }
    play_close(&at);
    return rc;
}
