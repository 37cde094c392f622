/* prime_chocolate_draw.c - a chocolate bar in play as a picture (game.h's
 * gj_play.draw): the bar with the chocolate left dark and the eaten
 * squares pale, the primes already used and those still free to bite
 * with listed under it, and the header saying who moves and how many
 * squares are left. */
#include <stdio.h>
#include <string.h>

#include "prime_chocolate_core.h"
#include "svg.h"

#define CHOCOLATE_STYLE "fill=\"" SVG_CHOCOLATE "\" stroke=\"" SVG_EATEN "\""
#define EATEN_STYLE     "fill=\"" SVG_EATEN "\" stroke=\"" SVG_LINE "\""
/* The line of primes between the bar and the key. */
#define PRIMES_LINE 28

/* The primes up to n whose `used` is `want`, space-separated after
 * `label`, into line (cut at size, which holds every prime up to
 * SVG_CELLS_MAX). */
static void primes(char *line, size_t size, const char *label, long n, const unsigned char *used,
                   int want)
{
    size_t at = (size_t)snprintf(line, size, "%s", label);
    int any = 0;
    for (long p = 2; p <= n && at < size; p++)
        if (pc_is_prime(p) && used[p] == want) {
            at += (size_t)snprintf(line + at, size - at, " %ld", p);
            any = 1;
        }
    if (!any && at < size)
        snprintf(line + at, size - at, " none");
}

int pc_draw(const unsigned char *cell, long n, const unsigned char *used, long long left, int dia,
            gj_buf *out, int *width, int *height, gj_error *e)
{
    if (svg_check_board("prime-chocolate", n, n, e) != 0)
        return -1;
    char head[96], line[330];
    snprintf(head, sizeof head, "%s to move: %lld square%s of chocolate left", dia ? "DIA" : "RUBY",
             left, left == 1 ? "" : "s");
    char have[160], had[160];
    primes(had, sizeof had, "primes used:", n, used, 1);
    primes(have, sizeof have, "still free:", n, used, 0);
    snprintf(line, sizeof line, "%s; %s", had, have);
    static const char *const keys[] = {"chocolate", "eaten", NULL};
    static const char *const styles[] = {CHOCOLATE_STYLE, EATEN_STYLE};
    long side = svg_cell(n, n, PRIMES_LINE, 48);
    long least = svg_least(head, keys), text = 2 * SVG_MARGIN + (long)strlen(line) * 8;
    svg_canvas(side * n, side * n + PRIMES_LINE, least > text ? least : text, width, height);
    svg_header(out, head);
    for (long r = 0; r < n; r++)
        for (long c = 0; c < n; c++)
            svg_rect(out, SVG_MARGIN + c * side, SVG_HEADER + r * side, side, side,
                     cell[r * n + c] ? CHOCOLATE_STYLE : EATEN_STYLE);
    svg_text(out, SVG_MARGIN, SVG_HEADER + side * n + 20, "font-size=\"14\" fill=\"" SVG_INK "\"",
             line);
    svg_keys(out, side * n + PRIMES_LINE, styles, keys);
    return 0;
}
