/* grid_walk_draw.c - a walk in progress as a picture (game.h's
 * gj_play.draw): the grid, its blocked cells dark, the path walked so far
 * shaded with a line through it from its first cell, the token on its
 * last, and the cells the token may go to next marked; the header says
 * who moves.  At the opening (no path) A places the token on any free
 * cell, so nothing is marked. */
#include <stdlib.h>

#include "grid_walk_core.h"
#include "svg.h"

/* The key's and the cells' styles. */
#define FREE_STYLE    "fill=\"" SVG_PAPER "\" stroke=\"" SVG_LINE "\""
#define BLOCKED_STYLE "fill=\"" SVG_INK "\" stroke=\"" SVG_LINE "\""
#define VISITED_STYLE "fill=\"" SVG_LIGHT "\" stroke=\"" SVG_LINE "\""
#define MOVE_STYLE    "fill=\"" SVG_MOVE_FILL "\" stroke=\"" SVG_GOOD "\" stroke-width=\"2\""
#define TOKEN_STYLE   "fill=\"" SVG_ACCENT "\" stroke=\"" SVG_LINE "\""

/* The centre of padded cell c along x and y, cells `side` wide. */
static long centre_x(const gw_position *pos, int c, long side)
{
    return SVG_MARGIN + (c % pos->width - 1) * side + side / 2;
}

/* The centre of padded cell c along y. */
static long centre_y(const gw_position *pos, int c, long side)
{
    return SVG_HEADER + (c / pos->width - 1) * side + side / 2;
}

/* A circle at (x, y) of radius r, drawn with style. */
static void circle(gj_buf *out, long x, long y, long r, const char *style)
{
    buf_puts(out, "<circle");
    svg_attr(out, "cx", x);
    svg_attr(out, "cy", y);
    svg_attr(out, "r", r);
    buf_putc(out, ' ');
    buf_puts(out, style);
    buf_puts(out, "/>");
}

int gw_draw(const gw_position *pos, const int *path, long n, gj_buf *out, int *width, int *height,
            gj_error *e)
{
    if (svg_check_board("grid-walk", pos->rows, pos->cols, e) != 0)
        return -1;
    size_t cells = (size_t)(pos->rows + 2) * (size_t)pos->width;
    /* 1 on the path, 2 a move of the token's; the rest is pos->open's. */
    unsigned char *mark = calloc(cells, 1);
    if (mark == NULL)
        return gj_fail_nomem(e);
    for (long i = 0; i < n; i++)
        mark[path[i]] = 1;
    if (n > 0) {
        const int step[4] = {-pos->width, -1, 1, pos->width};
        for (int d = 0; d < 4; d++)
            if (pos->open[path[n - 1] + step[d]])
                mark[path[n - 1] + step[d]] = 2;
    }
    const char *line = n == 0       ? "A to move: place the token on any free cell"
                       : n % 2 == 0 ? "A to move the token"
                                    : "B to move the token";
    static const char *const opening[] = {"blocked", "free", NULL};
    static const char *const opening_style[] = {BLOCKED_STYLE, FREE_STYLE};
    static const char *const walk[] = {"blocked", "visited", "token", "next move", NULL};
    static const char *const walk_style[] = {BLOCKED_STYLE, VISITED_STYLE, TOKEN_STYLE, MOVE_STYLE};
    const char *const *keys = n == 0 ? opening : walk;
    long side = svg_cell(pos->rows, pos->cols, 0, 56);
    svg_canvas(side * pos->cols, side * pos->rows, svg_least(line, keys), width, height);

    svg_header(out, line);
    for (long r = 1; r <= pos->rows; r++)
        for (long c = 1; c <= pos->cols; c++) {
            int v = (int)(r * pos->width + c);
            const char *style = mark[v] == 1   ? VISITED_STYLE
                                : mark[v] == 2 ? MOVE_STYLE
                                : pos->open[v] ? FREE_STYLE
                                               : BLOCKED_STYLE;
            svg_rect(out, SVG_MARGIN + (c - 1) * side, SVG_HEADER + (r - 1) * side, side, side,
                     style);
        }
    if (n > 1) {
        buf_puts(out, "<polyline points=\"");
        for (long i = 0; i < n; i++) {
            if (i > 0)
                buf_putc(out, ' ');
            buf_put_long(out, centre_x(pos, path[i], side));
            buf_putc(out, ',');
            buf_put_long(out, centre_y(pos, path[i], side));
        }
        buf_puts(out, "\" fill=\"none\" stroke=\"" SVG_ACCENT "\" stroke-linecap=\"round\" "
                      "stroke-linejoin=\"round\"");
        svg_attr(out, "stroke-width", side / 8 > 1 ? side / 8 : 1);
        buf_puts(out, "/>");
        circle(out, centre_x(pos, path[0], side), centre_y(pos, path[0], side),
               side / 6 > 1 ? side / 6 : 1, "fill=\"" SVG_ACCENT "\"");
    }
    if (n > 0)
        circle(out, centre_x(pos, path[n - 1], side), centre_y(pos, path[n - 1], side),
               side * 3 / 8 > 1 ? side * 3 / 8 : 1, TOKEN_STYLE);
    free(mark);

    svg_keys(out, side * pos->rows, n == 0 ? opening_style : walk_style, keys);
    return 0;
}
