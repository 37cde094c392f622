/* puzzle_rating.c - a built puzzle's difficulty, rating and themes
 * (puzzle_rating.h). */
#include "puzzle_rating.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "puzzle_themes.h"

/* d as it is served, four decimals (puzzle_write's text read back): the
 * value the filter and the band judge, so a puzzle shown as 0.3000 is in
 * difficulty_min 0.3. */
static double served(double d)
{
    char text[16];
    snprintf(text, sizeof text, "%.4f", d);
    return strtod(text, NULL);
}

/* miss, a chance, on g's scale for depth (puzzle.h): piecewise linear
 * through (0, 0), the scale's points and (1, 1); miss itself where the
 * game has no scale yet. */
static double on_scale(const gj_game *g, int depth, double miss)
{
    const double *x = g->puzzle_scale[depth - 1];
    if (x[GJ_SCALE_POINTS - 1] <= 0)
        return miss;
    double lo_x = 0, lo_y = 0;
    for (int i = 0; i <= GJ_SCALE_POINTS; i++) {
        double hi_x = i < GJ_SCALE_POINTS ? x[i] : 1,
               hi_y = i < GJ_SCALE_POINTS ? (2 * i + 1) / (2.0 * GJ_SCALE_POINTS) : 1;
        if (miss <= hi_x)
            return hi_x > lo_x ? lo_y + (hi_y - lo_y) * (miss - lo_x) / (hi_x - lo_x) : hi_y;
        lo_x = hi_x;
        lo_y = hi_y;
    }
    return 1;
}

int puzzle_theme_index(const gj_game *g, const char *name)
{
    for (int i = 0; puzzle_theme_at(g, i) != NULL; i++)
        if (strcmp(puzzle_theme_at(g, i)->name, name) == 0)
            return i;
    return -1;
}

/* Whether every other move of step s loses at once: a win/lose game whose
 * every move but the solving one leaves the opponent a win in one move. */
static bool every_other_loses_at_once(const puzzle_step *s)
{
    for (long i = 1; i < s->legal; i++)
        if (s->moves[i].wins || s->moves[i].remoteness != 1)
            return false;
    return true;
}

/* p's themes (puzzle_themes.h) from its built line into p->themes. */
static void find_themes(puzzle *p)
{
    const gj_game *g = p->game;
    unsigned long t = 0;
    /* A scored game (staircase-chess) wins by margin: no outcome to count. */
    bool won = p->steps[0].moves[0].wins != 0;
    bool only = won, trap = false;
    for (int i = 0; i < p->depth; i++) {
        only = only && every_other_loses_at_once(&p->steps[i]);
        trap = trap || p->steps[i].greedy > 0;
    }
    if (only)
        t |= 1ul << puzzle_theme_index(g, "only-move");
    long long r = p->steps[0].moves[0].remoteness;
    if (won && r >= 0) {
        static const char *const win_in[] = {"win-in-1", "win-in-2", "win-in-3",
                                             "win-in-4", "win-in-5", "win-in-6-plus"};
        long long moves = r / 2 + 1; /* the solver's, the solving move included */
        t |= 1ul << puzzle_theme_index(g, win_in[moves > 6 ? 5 : moves - 1]);
    }
    if (p->depth >= 3)
        t |= 1ul << puzzle_theme_index(g, "long");
    if (trap)
        t |= 1ul << puzzle_theme_index(g, "trap");
    int general = 0;
    while (puzzle_general_themes[general].name != NULL)
        general++;
    for (int i = 0; i < p->depth; i++)
        t |= (unsigned long)p->steps[i].motifs << general;
    p->themes = t;
}

void puzzle_rate(puzzle *p)
{
    double solved = 1;
    for (int i = 0; i < p->depth; i++)
        solved *= 1 - p->steps[i].miss;
    p->miss = 1 - solved;
    p->difficulty = served(on_scale(p->game, p->depth, p->miss));
    double rating = 700 + 1700 * p->difficulty + 200 * (p->depth - 1);
    p->rating = (int)(rating + 0.5);
    find_themes(p);
}
