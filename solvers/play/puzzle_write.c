/* puzzle_write.c - the text of the puzzles' answers (puzzle_write.h). */
#include "puzzle_write.h"

#include <stdio.h>
#include <stdlib.h>

#include "puzzle_themes.h"

const char *puzzle_band(double difficulty)
{
    return difficulty >= PUZZLE_HARD_FROM     ? "hard"
           : difficulty >= PUZZLE_MEDIUM_FROM ? "medium"
                                              : "easy";
}

void puzzle_put_json(gj_buf *out, const json_t *v)
{
    char *text = json_dumps(v, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
    if (text == NULL) {
        out->failed = 1;
        return;
    }
    buf_puts(out, text);
    free(text);
}

/* Append a difficulty with four decimals (the same text on every machine). */
static void put_difficulty(gj_buf *out, double d)
{
    char text[16];
    snprintf(text, sizeof text, "%.4f", d);
    buf_puts(out, text);
}

void puzzle_write(const puzzle *p, gj_buf *out)
{
    buf_puts(out, "{\"game\":\"");
    buf_puts(out, p->game->name);
    buf_puts(out, "\",\"id\":\"");
    buf_puts(out, p->id);
    buf_puts(out, "\",\"position\":");
    puzzle_put_json(out, p->steps[0].position);
    buf_puts(out, ",\"to_move\":");
    puzzle_put_json(out, p->to_move);
    buf_puts(out, ",\"legal_moves\":");
    buf_put_long(out, p->steps[0].legal);
    buf_puts(out, ",\"depth\":");
    buf_put_long(out, p->depth);
    buf_puts(out, ",\"min_moves\":");
    buf_put_long(out, p->min_moves);
    buf_puts(out, ",\"difficulty\":");
    put_difficulty(out, p->difficulty);
    buf_puts(out, ",\"band\":\"");
    buf_puts(out, puzzle_band(p->difficulty));
    buf_puts(out, "\",\"rating\":");
    buf_put_long(out, p->rating);
    buf_puts(out, ",\"themes\":[");
    int listed = 0;
    for (int i = 0; puzzle_theme_at(p->game, i) != NULL; i++)
        if (p->themes >> i & 1) {
            buf_puts(out, listed++ ? ",\"" : "\"");
            buf_puts(out, puzzle_theme_at(p->game, i)->name);
            buf_putc(out, '"');
        }
    buf_puts(out, "]}");
}
