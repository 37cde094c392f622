/* stored_puzzle.c - a rated puzzle as the store keeps it (stored_puzzle.h). */
#include "stored_puzzle.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "puzzle_themes.h"
#include "puzzle_write.h"

/* The band's number of a difficulty: the order of puzzle_band's names. */
static int band_of(double difficulty)
{
    return difficulty >= PUZZLE_HARD_FROM ? 2 : difficulty >= PUZZLE_MEDIUM_FROM ? 1 : 0;
}

/* What b holds, NUL-terminated, handed to the caller; NULL when memory
 * ran out on the way (b is emptied either way). */
static char *taken(gj_buf *b)
{
    buf_putc(b, '\0');
    if (b->failed) {
        buf_free(b);
        return NULL;
    }
    size_t len;
    return buf_take(b, &len);
}

/* The line's moves as one JSON array, solving move then reply at each
 * step, each written as puzzle_put_json writes a value; NULL when memory
 * ran out. */
static char *solution_of(const puzzle *p)
{
    gj_buf b;
    buf_init(&b);
    buf_putc(&b, '[');
    for (int k = 0; k < p->depth; k++) {
        if (k > 0)
            buf_putc(&b, ',');
        puzzle_put_json(&b, json_object_get(p->steps[k].solving, "move"));
        if (p->steps[k].reply != NULL) {
            buf_putc(&b, ',');
            puzzle_put_json(&b, json_object_get(p->steps[k].reply, "move"));
        }
    }
    buf_putc(&b, ']');
    return taken(&b);
}

/* The names of p's themes in vocabulary order, space-separated, into out
 * (STORE_THEMES_MAX bytes: room for every vocabulary; were one longer, the
 * names past the room would be left out whole, never cut). */
static void themes_of(const puzzle *p, char out[STORE_THEMES_MAX])
{
    size_t len = 0;
    out[0] = '\0';
    for (int i = 0; puzzle_theme_at(p->game, i) != NULL; i++) {
        if (!(p->themes >> i & 1))
            continue;
        const char *name = puzzle_theme_at(p->game, i)->name;
        size_t n = strlen(name);
        if (len + (len > 0) + n + 1 > STORE_THEMES_MAX)
            break;
        if (len > 0)
            out[len++] = ' ';
        memcpy(out + len, name, n + 1);
        len += n;
    }
}

int stored_puzzle_from(const puzzle *p, store_puzzle *out, gj_error *e)
{
    memset(out, 0, sizeof *out);
    snprintf(out->game, sizeof out->game, "%s", p->game->name);
    snprintf(out->id, sizeof out->id, "%s", p->id);
    gj_buf b;
    buf_init(&b);
    puzzle_put_json(&b, p->steps[0].position);
    out->position = taken(&b);
    out->solution = solution_of(p);
    if (out->position == NULL || out->solution == NULL) {
        /* Freed here, not by store_puzzle_free: this file needs no engine. */
        free(out->position);
        free(out->solution);
        out->position = out->solution = NULL;
        return gj_fail_nomem(e);
    }
    themes_of(p, out->themes);
    out->band = band_of(p->difficulty);
    out->depth = p->depth;
    out->difficulty = p->difficulty;
    out->rating = (glicko){(double)p->rating, GLICKO_PUZZLE_RD, GLICKO_START_VOL};
    out->plays = 0;
    out->wins = 0;
    return 0;
}
