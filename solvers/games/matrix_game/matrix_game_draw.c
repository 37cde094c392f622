/* matrix_game_draw.c - a matrix game in play as a picture (game.h's
 * gj_play.draw): the matrix with its values, the token's cell dark, and
 * the cells within distance k of it, where the token may not go, shaded;
 * the white cells are the moves.  The header says who moves and k.  At the
 * opening M places the token on any cell, so nothing is shaded. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "matrix_game_core.h"
#include "svg.h"

#define MOVE_STYLE  "fill=\"" SVG_PAPER "\" stroke=\"" SVG_LINE "\""
#define NEAR_STYLE  "fill=\"" SVG_LIGHT "\" stroke=\"" SVG_LINE "\""
#define TOKEN_STYLE "fill=\"" SVG_ACCENT "\" stroke=\"" SVG_LINE "\""

/* The digits of v > 0. */
static long digits(long v)
{
    long d = 1;
    for (; v >= 10; v /= 10)
        d++;
    return d;
}

int mg_draw(const mg_position *pos, long row, long col, char to_move, gj_buf *out, int *width,
            int *height, gj_error *e)
{
    long n = pos->n;
    if (svg_check_board("matrix-game", n, n, e) != 0)
        return -1;
    uint32_t *value = malloc((size_t)(n * n) * sizeof *value);
    if (value == NULL)
        return gj_fail_nomem(e);
    for (long v = 1; v <= n * n; v++) {
        uint32_t c = pos->cell_of[v - 1];
        value[(mg_row(c) - 1) * n + mg_col(c) - 1] = (uint32_t)v;
    }
    char line[96];
    if (row == 0)
        snprintf(line, sizeof line, "%c to move: place the token on any cell", to_move);
    else
        snprintf(line, sizeof line, "%c to move: the token goes farther than k = %ld", to_move,
                 pos->k);
    static const char *const opening[] = {"any cell", NULL};
    static const char *const walk[] = {"a move", "token", "within k: no move", NULL};
    static const char *const style[] = {MOVE_STYLE, TOKEN_STYLE, NEAR_STYLE};
    const char *const *keys = row == 0 ? opening : walk;
    long side = svg_cell(n, n, 0, 56);
    long size = side * 3 / (2 * digits(n * n) + 2);
    if (size > side * 2 / 5)
        size = side * 2 / 5;
    svg_canvas(side * n, side * n, svg_least(line, keys), width, height);

    svg_header(out, line);
    for (long r = 1; r <= n; r++)
        for (long c = 1; c <= n; c++) {
            long d = labs(r - row) + labs(c - col);
            const char *style = row == 0 || d > pos->k ? MOVE_STYLE
                                : d == 0               ? TOKEN_STYLE
                                                       : NEAR_STYLE;
            svg_rect(out, SVG_MARGIN + (c - 1) * side, SVG_HEADER + (r - 1) * side, side, side,
                     style);
        }
    buf_puts(out, "<g text-anchor=\"middle\" fill=\"" SVG_INK "\"");
    svg_attr(out, "font-size", size);
    buf_putc(out, '>');
    for (long r = 1; r <= n; r++)
        for (long c = 1; c <= n; c++)
            if (r != row || c != col)
                svg_number(out, SVG_MARGIN + (c - 1) * side + side / 2,
                           svg_middle(SVG_HEADER + (r - 1) * side + side / 2, size), "",
                           value[(r - 1) * n + c - 1]);
    buf_puts(out, "</g>");
    if (row != 0) {
        buf_puts(out, "<text text-anchor=\"middle\" font-weight=\"bold\" fill=\"" SVG_PAPER "\"");
        svg_attr(out, "font-size", size);
        svg_attr(out, "x", SVG_MARGIN + (col - 1) * side + side / 2);
        svg_attr(out, "y", svg_middle(SVG_HEADER + (row - 1) * side + side / 2, size));
        buf_putc(out, '>');
        buf_put_long(out, value[(row - 1) * n + col - 1]);
        buf_puts(out, "</text>");
    }
    free(value);

    svg_keys(out, side * n, style, keys);
    return 0;
}
