/* games.c - the registry table, built from games.def. */
#include "games.h"

#include <stdio.h>
#include <string.h>

#define GAME(ident, url_name) &game_##ident,
static const gj_game *const registry[] = {
#include "games.def"
};
#undef GAME

/* The table itself: callers must not change it. */
const gj_game *const *games_all(size_t *count)
{
    *count = sizeof registry / sizeof registry[0];
    return registry;
}

/* A linear scan: the games are a handful. */
const gj_game *games_find(const char *name, size_t len)
{
    for (size_t i = 0; i < sizeof registry / sizeof registry[0]; i++)
        if (strlen(registry[i]->name) == len && memcmp(registry[i]->name, name, len) == 0)
            return registry[i];
    return NULL;
}

/* Cut, never overrun, when cap is short. */
void games_list(char *out, size_t cap)
{
    size_t used = 0;
    out[0] = '\0';
    for (size_t i = 0; i < sizeof registry / sizeof registry[0] && used < cap; i++)
        used += (size_t)snprintf(out + used, cap - used, "%s%s", i ? ", " : "", registry[i]->name);
}
