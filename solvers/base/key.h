/* key.h - the one shape of a cache key (gj_game.write_key, game.h).
 *
 * Every game's key is a head and a body.  The head is the numbers that fix
 * the body's shape (the sizes, and for matrix-game k), in decimal, one space
 * apart, then '\n'.  The body is the position in a form that depends on the
 * position alone, never on how it was written (text or JSON, whitespace,
 * the order of a set), and that the head tells how to read back: so equal
 * keys are equal positions.  A grid of two kinds of cell is its bits
 * (key_bits); other bodies are the game's own.  The server puts the game's
 * name in front, so keys of different games never meet. */
#ifndef GJ_KEY_H
#define GJ_KEY_H

#include <stddef.h>

#include "buf.h"

/* The head: v[0..count) as "v0 v1 ...\n". */
void key_head(gj_buf *out, const long *v, int count);

/* A rows x cols grid of 0/1 bytes, row r at cells + r * stride, as bits:
 * row-major, eight to a byte, the first cell in the high bit, the last
 * byte padded with zeros. */
void key_bits(gj_buf *out, const unsigned char *cells, long rows, long cols, size_t stride);

#endif
