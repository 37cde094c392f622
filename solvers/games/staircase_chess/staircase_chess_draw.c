/* staircase_chess_draw.c - a staircase in play as a picture (game.h's
 * gj_play.draw): the board, each empty cell with black's points above and
 * white's below, each stone black or white with the points its owner
 * scored there (pale, without points, when the request gave the
 * staircase but not who placed what), and the cells where the next stone
 * may go marked.  The header says who moves and, where the order is known,
 * the score so far. */
#include <stdio.h>

#include "staircase_chess_core.h"
#include "svg.h"

#define EMPTY_STYLE "fill=\"" SVG_PAPER "\" stroke=\"" SVG_LINE "\""
#define MOVE_STYLE  "fill=\"" SVG_MOVE_FILL "\" stroke=\"" SVG_GOOD "\" stroke-width=\"2\""
#define BLACK_STYLE "fill=\"" SVG_INK "\" stroke=\"" SVG_LINE "\""
#define WHITE_STYLE "fill=\"" SVG_PAPER "\" stroke=\"" SVG_INK "\" stroke-width=\"2\""
#define PALE_STYLE  "fill=\"" SVG_PALE_STONE "\" stroke=\"" SVG_LINE "\""
/* The line saying how to read a cell, between the board and the key. */
#define HOW_LINE 28

/* The digits of v >= 0. */
static long digits(long v)
{
    long d = 1;
    for (; v >= 10; v /= 10)
        d++;
    return d;
}

/* A stone of `style` in the cell whose corner is (x, y), `side` wide,
 * showing v (when `shown`) in `ink` at font size `size`. */
static void stone(gj_buf *out, long x, long y, long side, const char *style, int shown, long v,
                  const char *ink, long size)
{
    buf_puts(out, "<circle");
    svg_attr(out, "cx", x + side / 2);
    svg_attr(out, "cy", y + side / 2);
    svg_attr(out, "r", side * 2 / 5);
    buf_putc(out, ' ');
    buf_puts(out, style);
    buf_puts(out, "/>");
    if (!shown)
        return;
    buf_puts(out, "<text text-anchor=\"middle\" fill=\"");
    buf_puts(out, ink);
    buf_putc(out, '"');
    svg_attr(out, "font-size", size);
    svg_attr(out, "x", x + side / 2);
    svg_attr(out, "y", svg_middle(y + side / 2, size));
    buf_putc(out, '>');
    buf_put_long(out, v);
    buf_puts(out, "</text>");
}

int sc_draw(const sc_board *g, const long *profile, long stones, const long *played,
            long long so_far, gj_buf *out, int *width, int *height, gj_error *e)
{
    long n = g->n, m = g->m;
    if (svg_check_board("staircase-chess", n, m, e) != 0)
        return -1;
    char head[96];
    const char *who = stones % 2 == 0 ? "Black" : "White";
    if (played == NULL)
        snprintf(head, sizeof head, "%s to move", who);
    else if (so_far == 0)
        snprintf(head, sizeof head, "%s to move; the scores are level", who);
    else
        snprintf(head, sizeof head, "%s to move; %s leads by %lld", who,
                 so_far > 0 ? "black" : "white", so_far > 0 ? so_far : -so_far);
    const char *how = "each empty cell: black's points above, white's below";
    static const char *const keys[] = {"black", "white", "order unknown", "next stone", NULL};
    static const char *const styles[] = {BLACK_STYLE, WHITE_STYLE, PALE_STYLE, MOVE_STYLE};
    long most = 0;
    for (long c = 0; c < n * m; c++) {
        most = g->a[c] > most ? g->a[c] : most;
        most = g->b[c] > most ? g->b[c] : most;
    }
    long side = svg_cell(n, m, HOW_LINE, 72);
    long size = side * 3 / (2 * digits(most) + 4);
    if (size > side * 3 / 10)
        size = side * 3 / 10;
    long least = svg_least(head, keys), text = 2 * SVG_MARGIN + 54 * 8;
    svg_canvas(side * m, side * n + HOW_LINE, least > text ? least : text, width, height);
    svg_header(out, head);

    /* Empty cells, the next stone's places marked, with both values. */
    for (long r = 0; r < n; r++)
        for (long c = profile[r]; c < m; c++) {
            int next = c == profile[r] && (r == 0 || profile[r - 1] > c);
            svg_rect(out, SVG_MARGIN + c * side, SVG_HEADER + r * side, side, side,
                     next ? MOVE_STYLE : EMPTY_STYLE);
        }
    buf_puts(out, "<g text-anchor=\"middle\" fill=\"" SVG_INK "\"");
    svg_attr(out, "font-size", size);
    buf_putc(out, '>');
    for (long r = 0; r < n; r++)
        for (long c = profile[r]; c < m; c++) {
            long x = SVG_MARGIN + c * side + side / 2, y = SVG_HEADER + r * side;
            svg_number(out, x, svg_middle(y + side * 3 / 10, size), "", g->a[r * m + c]);
            svg_number(out, x, svg_middle(y + side * 7 / 10, size), "", g->b[r * m + c]);
        }
    buf_puts(out, "</g>");

    /* The stones: coloured by their order where it is known. */
    for (long r = 0; r < n; r++)
        for (long c = 0; c < profile[r]; c++)
            svg_rect(out, SVG_MARGIN + c * side, SVG_HEADER + r * side, side, side, EMPTY_STYLE);
    if (played != NULL) {
        for (long k = 0; k < stones; k++) {
            long cell = played[k], r = cell / m, c = cell % m;
            int black = k % 2 == 0;
            stone(out, SVG_MARGIN + c * side, SVG_HEADER + r * side, side,
                  black ? BLACK_STYLE : WHITE_STYLE, 1, black ? g->a[cell] : g->b[cell],
                  black ? SVG_PAPER : SVG_INK, size);
        }
    } else {
        for (long r = 0; r < n; r++)
            for (long c = 0; c < profile[r]; c++)
                stone(out, SVG_MARGIN + c * side, SVG_HEADER + r * side, side, PALE_STYLE, 0, 0,
                      SVG_INK, size);
    }
    svg_text(out, SVG_MARGIN, SVG_HEADER + side * n + 20, "font-size=\"14\" fill=\"" SVG_INK "\"",
             how);
    svg_keys(out, side * n + HOW_LINE, styles, keys);
    return 0;
}
