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

int play_open_read(play_pos *p, const gj_game *g, const json_t *req, analysis_body *read,
                   const long *limits, gj_error *e)
{
    p->pos = NULL;
    if (jin_required_keys(req, g->analyze_keys, e) != 0)
        return -1;
    if (g->play == NULL || g->play->adopt == NULL)
        return gj_fail(e, GJ_INTERNAL, "%s cannot take a position read as it arrived", g->name);
    if (read->pos == NULL) {
        if (read->error.kind == GJ_OK)
            return gj_fail(e, GJ_INTERNAL, "%s: the position read was taken already", g->name);
        *e = read->error;
        return -1;
    }
    p->ops = g->play;
    p->pos = g->play->adopt(read->pos, req, limits, e);
    read->pos = NULL;
    return p->pos != NULL ? 0 : -1;
}

void play_close(play_pos *p)
{
    if (p->pos != NULL)
        p->ops->free(p->pos);
    p->pos = NULL;
}
