/* svg.c - the pieces of a game's picture (svg.h). */
#include "svg.h"

int svg_check_board(const char *what, long rows, long cols, gj_error *e)
{
    if (rows <= SVG_CELLS_MAX && cols <= SVG_CELLS_MAX)
        return 0;
    return gj_fail(e, GJ_UNMET,
                   "%s: a board of %ld x %ld cells is too large to draw; a picture shows at most "
                   "%d x %d",
                   what, rows, cols, SVG_CELLS_MAX, SVG_CELLS_MAX);
}

long svg_cell(long rows, long cols, long extra, long most)
{
    long across = SVG_BOARD_MAX / (cols > 0 ? cols : 1);
    long down = (SVG_SIDE_MAX - SVG_HEADER - SVG_FOOTER - extra) / (rows > 0 ? rows : 1);
    long side = across < down ? across : down;
    return side < most ? side : most;
}

void svg_canvas(long w, long h, long least, int *width, int *height)
{
    long wide = w + 2 * SVG_MARGIN;
    *width = (int)(wide > least ? wide : least);
    *height = (int)(SVG_HEADER + h + SVG_FOOTER);
}

/* The characters of s, UTF-8. */
static long chars(const char *s)
{
    long n = 0;
    for (; *s != '\0'; s++)
        n += (*s & 0xc0) != 0x80;
    return n;
}

/* The room a key entry labelled `label` takes, its gap to the next included. */
static long key_width(const char *label)
{
    return 22 + chars(label) * 8 + 18;
}

long svg_least(const char *line, const char *const *keys)
{
    long header = chars(line) * (SVG_HEADER_FONT * 2 / 3), key = 0;
    for (; keys != NULL && *keys != NULL; keys++)
        key += key_width(*keys);
    return 2 * SVG_MARGIN + (header > key ? header : key);
}

void svg_keys(gj_buf *out, long h, const char *const *styles, const char *const *keys)
{
    long x = SVG_MARGIN, y = SVG_HEADER + h + 12;
    for (long i = 0; keys[i] != NULL; i++) {
        svg_rect(out, x, y, 16, 16, styles[i]);
        svg_text(out, x + 22, svg_middle(y + 8, 14), "font-size=\"14\" fill=\"" SVG_MUTED "\"",
                 keys[i]);
        x += key_width(keys[i]);
    }
}

void svg_escape(gj_buf *out, const char *s)
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

void svg_attr(gj_buf *out, const char *name, long long v)
{
    buf_putc(out, ' ');
    buf_puts(out, name);
    buf_puts(out, "=\"");
    buf_put_long(out, v);
    buf_putc(out, '"');
}

void svg_rect(gj_buf *out, long x, long y, long w, long h, const char *style)
{
    buf_puts(out, "<rect");
    svg_attr(out, "x", x);
    svg_attr(out, "y", y);
    svg_attr(out, "width", w);
    svg_attr(out, "height", h);
    buf_putc(out, ' ');
    buf_puts(out, style);
    buf_puts(out, "/>");
}

/* The opening of a <text> at (x, y) with style. */
static void text_open(gj_buf *out, long x, long y, const char *style)
{
    buf_puts(out, "<text");
    svg_attr(out, "x", x);
    svg_attr(out, "y", y);
    if (style[0] != '\0') {
        buf_putc(out, ' ');
        buf_puts(out, style);
    }
    buf_putc(out, '>');
}

void svg_text(gj_buf *out, long x, long y, const char *style, const char *text)
{
    text_open(out, x, y, style);
    svg_escape(out, text);
    buf_puts(out, "</text>");
}

void svg_number(gj_buf *out, long x, long y, const char *style, long long v)
{
    text_open(out, x, y, style);
    buf_put_long(out, v);
    buf_puts(out, "</text>");
}

void svg_header(gj_buf *out, const char *line)
{
    svg_text(out, SVG_MARGIN, svg_middle(SVG_HEADER / 2, SVG_HEADER_FONT),
             "font-size=\"" SVG_STR(SVG_HEADER_FONT) "\" font-weight=\"bold\" fill=\"" SVG_INK "\"",
             line);
}

long svg_middle(long y, long size)
{
    return y + size * 7 / 20; /* about half a digit's height below the middle */
}
