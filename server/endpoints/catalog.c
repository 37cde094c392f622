/* catalog.c - GET /games. */
#include "catalog.h"

#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "engine.h"
#include "games.h"

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
