/* settings.c - the per-game limits of the configuration (settings.h). */
#include "settings.h"

const long *config_game_limits(const gj_config *c, const gj_game *g)
{
    size_t ngames;
    const gj_game *const *games = games_all(&ngames);
    for (size_t i = 0; i < ngames && i < GJ_MAX_GAMES; i++)
        if (games[i] == g)
            return c->limits[i];
    return NULL;
}
