/* reader_diff.h - the driver the games' JSON reader tests share: a game's
 * chunk-fed reader against the jansson path it took over.
 *
 * A test names its reader, its tree path, how two positions are compared
 * and its table of verdicts in an rd_game; rd_compare then reads one body
 * both ways, the reader fed whole, byte by byte (bodies up to 4000 bytes)
 * and in random pieces of up to 7 and up to 300 bytes, and fails the test
 * unless both give the same error (kind, field, line, column, message) or
 * positions the game's `same` accepts.  Each body's verdict is counted so
 * that a test can require every check to be met.  The rd_gen helpers are
 * the parts of a body generator that do not depend on the game, and the
 * whole generator of the two games whose body is {"grid": [strings]}. */
#ifndef GJ_TEST_READER_DIFF_H
#define GJ_TEST_READER_DIFF_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "game.h"

/* One game's side of the comparison. */
typedef struct rd_game {
    /* The game: its read_json is the reader under test, its free_position
     * frees both readers' positions. */
    const gj_game *game;
    /* Whether an empty body, fed whole, is fed as one piece of 0 bytes
     * (else the reader is finished with nothing fed). */
    int feed_empty;
    /* The oracle: the position of body as the tree path reads it, or NULL
     * with *e. */
    void *(*read_tree)(const char *body, size_t len, const long *lim, gj_error *e);
    /* How positions are compared, one of two ways.  Either describe (the
     * others NULL): solve pos, failing the test if that fails, and write
     * into out (buf_init'd there) what two equal positions share; the
     * reader's positions must be described byte for byte as the tree's.
     * Or settle and same: settle solves the tree's position (failing the
     * test if that fails), same fails the test unless got, the reader's
     * position, is want's. */
    void (*describe)(void *pos, gj_buf *out);
    void (*settle)(void *want);
    void (*same)(void *got, void *want);
    /* The verdicts, by words of the message, "solved" first; count has
     * nverdicts entries, one per verdict. */
    const char *const *verdicts;
    int nverdicts;
    long *count;
} rd_game;

/* Both readers on body under lim: the same error or the same position,
 * however the reader is fed; the random pieces are drawn from *rng. */
void rd_compare(const rd_game *t, const char *body, size_t len, const long *lim, uint64_t *rng);

/* Forget the verdicts counted so far. */
void rd_clear(const rd_game *t);

/* Fail the test unless every verdict was met at least `least` times. */
void rd_require(const rd_game *t, long least);

/* A body being generated: the random state and the bytes so far. */
typedef struct rd_gen {
    uint64_t rng;
    gj_buf b;
} rd_gen;

/* True with probability 1/n. */
int rd_one_in(rd_gen *g, uint64_t n);

/* Blanks between tokens: mostly none (or, when often, one space or none),
 * sometimes a run of every kind JSON allows. */
void rd_blanks(rd_gen *g, int often);

/* Blanks between tokens, rarer: none four times in five, else one to
 * three of any kind. */
void rd_blanks_rare(rd_gen *g);

/* The body broken as JSON: cut short, a byte put in, or something after. */
void rd_break_json(rd_gen *g);

/* The end of a generated body: broken as JSON one time in odd*2 (never
 * when odd is 0), compared by rd_compare under lim, then freed. */
void rd_finish_body(const rd_game *t, rd_gen *g, uint64_t odd, const long *lim);

/* How a grid of strings (grid-walk's grid, prime-chocolate's bar) spells
 * its cells: cell[1] three times in four, else cell[0]; one time in 40
 * either as its escape, escaped[1] or escaped[0]; and, when alt[0] is not
 * NULL, one cell[1] in 20 of the rest as alt[0] or alt[1].  short_row is a
 * string (quotes and all) written for the whole grid now and then;
 * strangers, four cells the game does not have (another game's cells,
 * dashes that are not its own), join the common wrong cells. */
typedef struct rd_cells {
    char cell[2];
    const char *escaped[2];
    const char *alt[2];
    const char *short_row;
    const char *strangers[4];
} rd_cells;

/* A body {"grid": [rows strings of (mostly) cols cells]} spelled as c
 * says, the member "grid" and perhaps keys no position has in a random
 * order, each mistake (strangers in cells, rows and the grid, missing or
 * repeated members) at rate 1 in `odd` (0: none). */
void rd_grid_body(rd_gen *g, const rd_cells *c, long rows, long cols, uint64_t odd);

#endif
