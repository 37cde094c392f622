/* play_pos.c - a game's position in play, opened through its gj_play (play_pos.h). */
#include "play_pos.h"

#include "json_in.h"

int play_open(play_pos *p, const gj_game *g, const json_t *req, const long *limits, gj_error *e)
{
    /* The wrappers check that each member is one the endpoint takes; a
     * game's parse may count on the required ones being there (game.h). */
    p->pos = NULL;
    if (jin_required_keys(req, g->analyze_keys, e) != 0)
        return -1;
    if (g->play == NULL)
        return gj_fail(e, GJ_INTERNAL, "%s offers no parsed position (gj_play)", g->name);
    p->ops = g->play;
    p->pos = g->play->parse(req, limits, e);
    return p->pos != NULL ? 0 : -1;
}

void play_close(play_pos *p)
{
    if (p->pos != NULL)
        p->ops->free(p->pos);
    p->pos = NULL;
}
