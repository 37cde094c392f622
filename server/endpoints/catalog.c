/* catalog.c - GET /games. */
#include "catalog.h"

#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "engine.h"
#include "games.h"
#include "puzzle_themes.h"

/* g's limits as {NAME: {value, description, default, max}}, value from `values` (the
 * limits in force, in g's order). */
static json_t *describe_limits(const gj_game *g, const long *values)
{
    json_t *limits = json_object();
    for (int i = 0; i < g->nlimits; i++) {
        const gj_limit_def *d = &g->limits[i];
        json_object_set_new(limits, d->name,
                            json_pack("{s:I, s:s, s:I, s:I}", "value", (json_int_t)values[i],
                                      "description", d->doc, "default", (json_int_t)d->def, "max",
                                      (json_int_t)d->max));
    }
    return limits;
}

/* The engine's levels for /move/<name>: {"path", "levels": [{level, name,
 * solves, doc}]}, solves the percent of benchmark puzzles the level is
 * calibrated to solve in every game (engine.h). */
static json_t *describe_move(const gj_game *g)
{
    char path[64];
    snprintf(path, sizeof path, "/move/%s", g->name);
    json_t *levels = json_array();
    for (int l = 1; l <= ENGINE_LEVELS; l++)
        json_array_append_new(levels, json_pack("{s:i, s:s, s:i, s:s}", "level", l, "name",
                                                engine_level_name[l - 1], "solves",
                                                engine_level_target[l - 1], "doc",
                                                engine_level_doc[l - 1]));
    return json_pack("{s:s, s:o}", "path", path, "levels", levels);
}

/* What g's puzzles can be, for a site to offer only those: {"path",
 * "bands",
 * "depths" (1 to the deepest g serves), "depth_note" (why no deeper, when
 * g says), "themes": [{name, doc}] (the whole vocabulary a puzzle may
 * carry and GET /puzzle?theme= takes)}. */
static json_t *describe_puzzles(const gj_game *g)
{
    static const char *const bands[GJ_NBANDS] = {"easy", "medium", "hard"};
    json_t *names = json_array(), *depths = json_array(), *themes = json_array();
    for (int b = 0; b < GJ_NBANDS; b++)
        json_array_append_new(names, json_string(bands[b]));
    for (int d = 1; d <= puzzle_depth_max(g); d++)
        json_array_append_new(depths, json_integer(d));
    for (int i = 0; puzzle_theme_at(g, i) != NULL; i++) {
        const gj_theme *t = puzzle_theme_at(g, i);
        json_array_append_new(themes, json_pack("{s:s, s:s}", "name", t->name, "doc", t->doc));
    }
    char path[64];
    snprintf(path, sizeof path, "/puzzle/%s", g->name);
    json_t *p = json_pack("{s:s, s:o, s:o}", "path", path, "bands", names, "depths", depths);
    if (p != NULL && g->puzzle_depth_note != NULL)
        json_object_set_new(p, "depth_note", json_string(g->puzzle_depth_note));
    if (p != NULL)
        json_object_set_new(p, "themes", themes);
    else
        json_decref(themes);
    return p;
}

char *catalog_render(const gj_config *cfg, size_t *len)
{
    size_t n;
    const gj_game *const *games = games_all(&n);
    json_t *list = json_array();
    for (size_t i = 0; i < n; i++) {
        const gj_game *g = games[i];
        char path[64];
        snprintf(path, sizeof path, "/solve/%s", g->name);
        json_t *example_json = json_loads(g->example_json, 0, NULL);
        json_t *entry =
            json_pack("{s:s, s:s, s:s, s:s, s:o, s:{s:s, s:o}}", "name", g->name, "display_name",
                      g->display_name, "title", g->title, "path", path, "limits",
                      describe_limits(g, config_game_limits(cfg, g)), "example", "text",
                      g->example_text, "json", example_json ? example_json : json_null());
        if (entry != NULL && g->analyze != NULL && g->example_analyze != NULL) {
            json_t *example = json_loads(g->example_analyze, 0, NULL);
            snprintf(path, sizeof path, "/analyze/%s", g->name);
            json_object_set_new(
                entry, "analyze",
                json_pack("{s:s, s:o}", "path", path, "example", example ? example : json_null()));
            json_object_set_new(entry, "move", describe_move(g));
        }
        if (entry != NULL && g->generate != NULL && g->example_generate != NULL) {
            json_t *example = json_loads(g->example_generate, 0, NULL);
            snprintf(path, sizeof path, "/generate/%s", g->name);
            json_object_set_new(
                entry, "generate",
                json_pack("{s:s, s:o}", "path", path, "example", example ? example : json_null()));
            /* /puzzle builds on the generator, the analysis and play_move
             * (puzzle_job.c's check_path): it serves a game with all three. */
            if (g->analyze != NULL && g->play_move != NULL)
                json_object_set_new(entry, "puzzles", describe_puzzles(g));
        }
        json_array_append_new(list, entry);
    }
    json_t *root = json_pack("{s:o}", "games", list);
    char *body = root ? json_dumps(root, JSON_COMPACT) : NULL;
    json_decref(root);
    if (body != NULL)
        *len = strlen(body);
    return body;
}
