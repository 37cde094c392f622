/* tree_read.h - a JSON object body read as it arrives into jansson's tree,
 * as a gj_body_reader (game.h).
 *
 * For a route whose handler works on the body's tree (an analysis, the
 * engine's move) rather than on a game's position.  What finish gives is
 * the tree (a json_t *, the taker json_decref()s it), built by json_tree
 * (json_tree.h): exactly jin_load_object's tree or error for the whole
 * body.  The limits are not used (a game checks its own on the tree), nor
 * is the announced length, as nothing is kept that room could be made for. */
#ifndef GJ_TREE_READ_H
#define GJ_TREE_READ_H

#include "game.h"

extern const gj_body_reader tree_read;

#endif
