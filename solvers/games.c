/* games.c - the registry table, built from games.def. */
#include "games.h"

#include <stdio.h>
#include <string.h>

#define GAME(ident, url_name) &game_##ident,
static const gj_game *const registry[] = {
#include "games.def"
};
#undef GAME

const gj_game *const *games_all(size_t *count)
{
    *count = sizeof registry / sizeof registry[0];
    return registry;
}

const gj_game *games_find(const char *name, size_t len)
{
    for (size_t i = 0; i < sizeof registry / sizeof registry[0]; i++)
        if (strlen(registry[i]->name) == len && memcmp(registry[i]->name, name, len) == 0)
            return registry[i];
    return NULL;
}

void games_default_limits(const gj_game *g, long *out)
{
    for (int i = 0; i < GJ_MAX_LIMITS; i++)
        out[i] = i < g->nlimits ? g->limits[i].def : 0;
}

void games_list(char *out, size_t cap)
{
    size_t used = 0;
    out[0] = '\0';
    for (size_t i = 0; i < sizeof registry / sizeof registry[0] && used < cap; i++)
        used += (size_t)snprintf(out + used, cap - used, "%s%s", i ? ", " : "", registry[i]->name);
}

void games_json_open(gj_buf *out, const gj_game *g)
{
    buf_puts(out, "{\"game\":\"");
    buf_puts(out, g->name);
    buf_putc(out, '"');
}
