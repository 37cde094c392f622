/* picture.h - a position as an SVG picture, for link previews and for
 * sites that show a board without drawing it.
 *
 * The game draws its board (game.h's gj_play.draw); this module frames it:
 * one <svg> element with a viewBox of the game's canvas, role="img" and a
 * <title> (first child, so screen readers and previews read it) saying the
 * game, the side to move (the analysis' "to_move") and what to find.  The
 * bytes depend on the position and the task alone, never on the machine
 * or the time, so a picture takes a strong ETag and caches forever. */
#ifndef GJ_PICTURE_H
#define GJ_PICTURE_H

#include <jansson.h>

#include "buf.h"
#include "error.h"
#include "game.h"

/* The longest task sentence a picture's title takes. */
#define PICTURE_TASK_MAX 200
/* The most bytes a whole picture may take.  The games' bounds (svg.h: at
 * most SVG_CELLS_MAX cells a side) keep every picture they draw well
 * under it (tests/unit/test_picture.c draws the largest); a drawing past
 * it is refused all the same. */
#define PICTURE_BYTES_MAX (1024 * 1024)
/* The font stack of every text, set once on the root. */
#define PICTURE_FONTS                                                                              \
    "system-ui, -apple-system, Segoe UI, Roboto, Helvetica Neue, Arial, sans-serif"

/* g's position of the analyze() request `req` (loaded, members checked,
 * unchanged) drawn as a whole SVG document into out, its title ending
 * with `task` (at most PICTURE_TASK_MAX bytes, plain text: escaped
 * here).  0, or -1 with *e: the position's own error (bad_input naming
 * the field), GJ_NOT_FOUND for a game that draws nothing, GJ_UNMET naming
 * the size and the bound for a position too large to draw (decided by the
 * game before it draws, and before the analysis that names the side to
 * move is made) or a picture past PICTURE_BYTES_MAX. */
int picture_write(const gj_game *g, const json_t *req, const long *limits, const char *task,
                  gj_buf *out, gj_error *e);

#endif
