/* nim_shortcuts_draw.c - a nim-shortcuts position as a picture (game.h's
 * gj_play.draw): the two heaps as bars with their sizes, and beside them a
 * chart of the positions (heap 1 across, heap 2 up) with the rectangle the
 * game can still reach shaded, the shortcuts in it marked, the dashed
 * diagonal of equal heaps, the position itself, and the moves from it (a
 * line left along its row, one down its column).  The header says who
 * moves, and that the mover loses at once when the heaps form a shortcut.
 * Shortcuts outside the reach never matter again and are only counted. */
#include <stdio.h>

#include "nim_shortcuts_core.h"
#include "svg.h"

#define CHART 400 /* the chart's side */
#define BARS  200 /* the bars' panel width */
#define LEFT  (SVG_MARGIN + BARS + 56)
#define TOP   (SVG_HEADER + 24)

#define REACH_STYLE    "fill=\"" SVG_LIGHT "\""
#define SHORTCUT_STYLE "fill=\"" SVG_BAD "\""
#define HEAP_STYLE     "fill=\"" SVG_ACCENT "\""
#define MOVE_STYLE     "fill=\"" SVG_GOOD "\""

/* The most shortcuts within reach that a chart marks. */
#define SHORTCUTS_MAX ((long)SVG_CELLS_MAX * SVG_CELLS_MAX)

/* Where heap size a of 0..s starts on the chart, from its left or bottom
 * edge: each size has a band of CHART / (s + 1), a cell while s is small. */
static long scaled(long a, long s)
{
    return (long)((long long)a * CHART / ((long long)s + 1));
}

/* The middle of size a's band. */
static long middle(long a, long s)
{
    return (long)(((long long)a * CHART * 2 + CHART) / (2 * ((long long)s + 1)));
}

/* A line from (x1, y1) to (x2, y2) drawn with style. */
static void line(gj_buf *out, long x1, long y1, long x2, long y2, const char *style)
{
    buf_puts(out, "<line");
    svg_attr(out, "x1", x1);
    svg_attr(out, "y1", y1);
    svg_attr(out, "x2", x2);
    svg_attr(out, "y2", y2);
    buf_putc(out, ' ');
    buf_puts(out, style);
    buf_puts(out, "/>");
}

/* Heap i (0 or 1) of size h as a bar, the taller heap `s` filling the panel. */
static void bar(gj_buf *out, int i, long h, long s)
{
    long x = SVG_MARGIN + 30 + i * 100, bottom = TOP + CHART;
    long tall = s > 0 ? (long)((long long)h * CHART / s) : 0;
    svg_rect(out, x, bottom - tall, 60, tall > 0 ? tall : 1, HEAP_STYLE);
    svg_number(out, x + 30, bottom - tall - 8,
               "font-size=\"16\" text-anchor=\"middle\" fill=\"" SVG_INK "\"", h);
    svg_text(out, x + 30, bottom + 20,
             "font-size=\"14\" text-anchor=\"middle\" fill=\"" SVG_INK "\"",
             i == 0 ? "heap 1" : "heap 2");
}

int nim_draw(const nim_board *b, const long heap[2], int second, gj_buf *out, int *width,
             int *height, gj_error *e)
{
    long x = heap[0], y = heap[1], inside = 0;
    int on_shortcut = 0;
    for (long i = 0; i < b->n; i++) {
        long sx = nim_high(b->shortcut[i]), sy = nim_low(b->shortcut[i]);
        inside += sx <= x && sy <= y;
        on_shortcut |= sx == x && sy == y;
    }
    if (inside > SHORTCUTS_MAX)
        return gj_fail(e, GJ_UNMET,
                       "nim-shortcuts: %ld shortcuts within the heaps' reach are too many to "
                       "draw; a picture marks at most %ld",
                       inside, SHORTCUTS_MAX);
    long s = x > y ? x : y;
    char head[96];
    snprintf(head, sizeof head, "%s player to move%s", second ? "Second" : "First",
             on_shortcut ? ", on a shortcut: loses at once" : ": take stones from one heap");
    static const char *const keys[] = {"within reach", "shortcut", "position", "moves", NULL};
    static const char *const styles[] = {REACH_STYLE, SHORTCUT_STYLE, HEAP_STYLE, MOVE_STYLE};
    long least = svg_least(head, keys);
    svg_canvas(LEFT + CHART + 24 - SVG_MARGIN, CHART + 56, least, width, height);
    svg_header(out, head);

    bar(out, 0, x, s);
    bar(out, 1, y, s);

    /* The chart: y grows upwards from its bottom edge. */
    long bottom = TOP + CHART;
    svg_rect(out, LEFT, TOP, CHART, CHART, "fill=\"" SVG_PAPER "\" stroke=\"" SVG_LINE "\"");
    svg_rect(out, LEFT, bottom - scaled(y + 1, s), scaled(x + 1, s), scaled(y + 1, s), REACH_STYLE);
    if (s < SVG_CELLS_MAX) /* one cell per position: their borders */
        for (long a = 1; a <= s; a++) {
            line(out, LEFT + scaled(a, s), TOP, LEFT + scaled(a, s), bottom,
                 "stroke=\"" SVG_PAPER "\"");
            line(out, LEFT, bottom - scaled(a, s), LEFT + CHART, bottom - scaled(a, s),
                 "stroke=\"" SVG_PAPER "\"");
        }
    line(out, LEFT, bottom, LEFT + CHART, TOP, "stroke=\"" SVG_MUTED "\" stroke-dasharray=\"6 6\"");
    long px = LEFT + middle(x, s), py = bottom - middle(y, s);
    if (x > 0)
        line(out, LEFT + middle(0, s), py, px, py, "stroke=\"" SVG_GOOD "\" stroke-width=\"3\"");
    if (y > 0)
        line(out, px, bottom - middle(0, s), px, py, "stroke=\"" SVG_GOOD "\" stroke-width=\"3\"");
    long mark = CHART / (s + 1) * 3 / 5; /* a shortcut's mark fills most of its cell */
    if (mark < 8)
        mark = 8;
    for (long i = 0; i < b->n; i++) {
        long sx = nim_high(b->shortcut[i]), sy = nim_low(b->shortcut[i]);
        if (sx <= x && sy <= y)
            svg_rect(out, LEFT + middle(sx, s) - mark / 2, bottom - middle(sy, s) - mark / 2, mark,
                     mark, SHORTCUT_STYLE);
    }
    buf_puts(out, "<circle");
    svg_attr(out, "cx", px);
    svg_attr(out, "cy", py);
    buf_puts(out, " r=\"7\" " HEAP_STYLE " stroke=\"" SVG_PAPER "\" stroke-width=\"2\"/>");

    /* The axes' ends and names. */
    const char *small = "font-size=\"14\" fill=\"" SVG_INK "\"";
    svg_text(out, LEFT - 6, bottom + 18,
             "font-size=\"14\" text-anchor=\"end\" fill=\"" SVG_INK "\"", "0");
    svg_number(out, LEFT + CHART, bottom + 18,
               "font-size=\"14\" text-anchor=\"end\" fill=\"" SVG_INK "\"", s);
    svg_number(out, LEFT - 6, TOP + 14, "font-size=\"14\" text-anchor=\"end\" fill=\"" SVG_INK "\"",
               s);
    svg_text(out, LEFT + CHART / 2, bottom + 18,
             "font-size=\"14\" text-anchor=\"middle\" fill=\"" SVG_INK "\"", "heap 1");
    char count[96];
    snprintf(count, sizeof count, "heap 2 up; %ld of %ld shortcuts within reach", inside, b->n);
    svg_text(out, LEFT, TOP - 8, small, count);
    svg_keys(out, CHART + 56, styles, keys);
    return 0;
}
