/* puzzle_themes.c - the themes' vocabulary (puzzle_themes.h). */
#include "puzzle_themes.h"

#include <string.h>

const gj_theme puzzle_general_themes[] = {
    {"only-move", "every other legal move loses at once: the opponent wins with their next move"},
    {"win-in-1", "the solving move ends the game: the opponent has no move left"},
    {"win-in-2", "the win takes two of the solver's moves against the slowest defence"},
    {"win-in-3", "the win takes three of the solver's moves against the slowest defence"},
    {"win-in-4", "the win takes four of the solver's moves against the slowest defence"},
    {"win-in-5", "the win takes five of the solver's moves against the slowest defence"},
    {"win-in-6-plus", "the win takes six or more of the solver's moves"},
    {"long", "three or more solving moves in a row"},
    {"trap", "the greedy move (the one the game's greedy measure likes best, alone) is not the "
             "solving move"},
    {NULL, NULL}};

int puzzle_depth_max(const gj_game *g)
{
    return g->puzzle_depth_max > 0 ? g->puzzle_depth_max : GJ_PUZZLE_DEPTHS;
}

const gj_theme *puzzle_theme_at(const gj_game *g, int i)
{
    int general = 0;
    while (puzzle_general_themes[general].name != NULL)
        general++;
    if (i < 0)
        return NULL;
    if (i < general)
        return &puzzle_general_themes[i];
    for (int k = 0; g->motifs != NULL && g->motifs[k].name != NULL; k++)
        if (k == i - general)
            return &g->motifs[k];
    return NULL;
}

bool puzzle_theme_known(const gj_game *g, const char *name)
{
    for (int i = 0; puzzle_theme_at(g, i) != NULL; i++)
        if (strcmp(puzzle_theme_at(g, i)->name, name) == 0)
            return true;
    return false;
}
