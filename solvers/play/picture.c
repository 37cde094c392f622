/* picture.c - a position framed as an SVG document (picture.h). */
#include "picture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "play_pos.h"
#include "svg.h"

/* The side to move of the position at, as its ranking head names it
 * (the analysis' "to_move"), into side (at most size bytes; "" when it
 * names none): 0, or -1 with *e. */
static int side_to_move(play_pos *at, char *side, size_t size, gj_error *e)
{
    gj_move first;
    gj_rank_head head = {0};
    side[0] = '\0';
    if (at->ops->rank(at->pos, 1, &first, &head, e) < 0)
        return -1;
    if (head.to_move != NULL)
        snprintf(side, size, "%s", head.to_move);
    return 0;
}

/* The frame round a drawn body of width x height: the root with its
 * viewBox, the font stack and the title (game, side to move, task). */
static void frame(gj_buf *out, const gj_game *g, const char *side, const char *task,
                  const gj_buf *body, int width, int height)
{
    buf_puts(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 ");
    buf_put_long(out, width);
    buf_putc(out, ' ');
    buf_put_long(out, height);
    buf_putc(out, '"');
    svg_attr(out, "width", width);
    svg_attr(out, "height", height);
    buf_puts(out, " role=\"img\" aria-labelledby=\"title\" font-family=\"" PICTURE_FONTS
                  "\"><title id=\"title\">");
    svg_escape(out, g->display_name);
    if (side[0] != '\0') {
        buf_puts(out, ": ");
        svg_escape(out, side);
        buf_puts(out, " to move");
    }
    buf_puts(out, "; ");
    svg_escape(out, task);
    buf_puts(out, "</title>");
    buf_append(out, body->data, body->len);
    buf_puts(out, "</svg>\n");
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
    /* The drawing first: a position too large to draw is refused before
     * its analysis, which may cost far more than the drawing. */
    gj_buf body;
    buf_init(&body);
    int width = 0, height = 0;
    char side[64];
    int rc = at.ops->draw(at.pos, &body, &width, &height, e);
    if (rc == 0 && body.failed)
        rc = gj_fail_nomem(e);
    if (rc == 0 && (width <= 0 || height <= 0 || width > SVG_SIDE_MAX || height > SVG_SIDE_MAX))
        rc = gj_fail(e, GJ_INTERNAL, "%s drew a canvas of %d x %d", g->name, width, height);
    if (rc == 0)
        rc = side_to_move(&at, side, sizeof side, e);
    if (rc == 0) {
        size_t start = out->len;
        frame(out, g, side, task, &body, width, height);
        if (out->failed)
            rc = gj_fail_nomem(e);
        else if (out->len - start > PICTURE_BYTES_MAX) {
            rc = gj_fail(e, GJ_UNMET, "%s: a picture of %zu bytes is too large; the bound is %d",
                         g->name, out->len - start, PICTURE_BYTES_MAX);
            out->len = start;
        }
    }
    buf_free(&body);
    play_close(&at);
    return rc;
}
