/* game.c - what every game's entry offers beyond its own functions (game.h). */
#include "game.h"

/* Unused slots are 0, so every GJ_MAX_LIMITS entry is defined. */
void game_default_limits(const gj_game *g, long *out)
{
    for (int i = 0; i < GJ_MAX_LIMITS; i++)
        out[i] = i < g->nlimits ? g->limits[i].def : 0;
}

/* The name comes from the registry entry, the one place it is spelled. */
void game_json_open(gj_buf *out, const gj_game *g, const char *member)
{
    buf_puts(out, "{\"game\":\"");
    buf_puts(out, g->name);
    buf_puts(out, "\",\"");
    buf_puts(out, member);
    buf_puts(out, "\":");
}

/* One feed of the whole body: a reader that takes any split takes this one. */
void *game_read_whole(const gj_body_reader *r, const char *buf, size_t len, const long *limits,
                      gj_error *e)
{
    void *rd = r->open(limits, len, e);
    if (rd == NULL)
        return NULL;
    if (r->feed(rd, buf, len, e) != 0) {
        r->close(rd);
        return NULL;
    }
    return r->finish(rd, e);
}
