/* svg.h - the pieces a game's picture is made of (game.h's gj_play.draw).
 *
 * Every drawing keeps the bounds below, so the whole picture (play/
 * picture.h) stays legible and under a fixed size: a board of more than
 * SVG_CELLS_MAX cells a side is refused before anything is drawn.  The
 * elements are written with integer coordinates only, so a position's
 * picture has the same bytes on every machine.  A drawing is a header
 * band (the side to move, and what else the game wants said) above the
 * board.  Every text colour has a contrast of at least 4.5:1 (WCAG AA)
 * against what it is drawn on: the pairs are listed beside the colours.
 * The font is the picture's, a system stack set on the root. */
#ifndef GJ_SVG_H
#define GJ_SVG_H

#include "buf.h"
#include "error.h"

/* The largest canvas side, in user units. */
#define SVG_SIDE_MAX 1200
/* The most cells a board may have along a side and still be drawn. */
#define SVG_CELLS_MAX 64
/* The space round the board, and the header band's height. */
#define SVG_MARGIN 16
#define SVG_HEADER 48
/* The band under the board where the key to its colours goes. */
#define SVG_FOOTER 40
/* The header's text size, and the board's widest canvas at any size. */
#define SVG_HEADER_FONT 18
/* A number macro's digits as a string constant. */
#define SVG_STR(x)    SVG_STR_(x)
#define SVG_STR_(x)   #x
#define SVG_BOARD_MAX (SVG_SIDE_MAX - 2 * SVG_MARGIN)

/* The palette.  Text goes in INK on PAPER (15.8:1), LIGHT (13.6:1),
 * MOVE_FILL (14.2:1), EATEN (13.5:1) or PALE_STONE (7.9:1); in MUTED on
 * PAPER (6.4:1); in PAPER on ACCENT (7.6:1), GOOD (5.1:1), BAD (5.4:1),
 * INK (15.8:1) or CHOCOLATE (7.4:1).  LINE marks borders and carries no
 * text. */
#define SVG_INK        "#1f2328"
#define SVG_PAPER      "#ffffff"
#define SVG_MUTED      "#57606a"
#define SVG_LINE       "#8c959f"
#define SVG_LIGHT      "#eaeef2"
#define SVG_ACCENT     "#0550ae"
#define SVG_GOOD       "#1a7f37"
#define SVG_MOVE_FILL  "#dafbe1"
#define SVG_BAD        "#cf222e"
#define SVG_CHOCOLATE  "#6f4e37"
#define SVG_EATEN      "#f3ece4"
#define SVG_PALE_STONE "#afb8c1"

/* 0 when a board of rows x cols cells may be drawn; else -1 with *e,
 * GJ_UNMET naming `what` (the game), the size and the bound. */
int svg_check_board(const char *what, long rows, long cols, gj_error *e);

/* The side of a square cell for a board of rows x cols (each 1..
 * SVG_CELLS_MAX) between the header and the footer, with `extra` units
 * more below the board: as large as fits the canvas, at most `most`. */
long svg_cell(long rows, long cols, long extra, long most);

/* The canvas of a drawing whose board is w x h between the header and the
 * footer: the board's size with the margins, at least `least` wide. */
void svg_canvas(long w, long h, long least, int *width, int *height);

/* The width a header `line` and a key of the labels `keys` (NULL-ended,
 * each drawn by svg_key) need with the margins, by a generous estimate of
 * a character's width. */
long svg_least(const char *line, const char *const *keys);

/* The key in the footer of a canvas whose board is h high: for each of
 * the labels `keys` (NULL-ended) a swatch drawn with styles[i] (as for
 * svg_rect) and the label, left to right. */
void svg_keys(gj_buf *out, long h, const char *const *styles, const char *const *keys);

/* s with XML's five special characters escaped. */
void svg_escape(gj_buf *out, const char *s);

/* ` name="v"`: one integer attribute. */
void svg_attr(gj_buf *out, const char *name, long long v);

/* A rectangle; `style` is more attributes written as they are (a fill, a
 * stroke), a constant of the caller's, never the caller's input. */
void svg_rect(gj_buf *out, long x, long y, long w, long h, const char *style);

/* A text at (x, y), its baseline there; style as for svg_rect ("" for
 * none: what a group round it sets); the text escaped. */
void svg_text(gj_buf *out, long x, long y, const char *style, const char *text);

/* A number as svg_text writes a text. */
void svg_number(gj_buf *out, long x, long y, const char *style, long long v);

/* The header band's text: `line` (escaped) on the left, bold, in the
 * header's size. */
void svg_header(gj_buf *out, const char *line);

/* The baseline that centres a text of font size `size` on y. */
long svg_middle(long y, long size);

#endif
