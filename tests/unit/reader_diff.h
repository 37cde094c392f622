/* reader_diff.h - the driver the games' JSON reader tests share: a game's
 * chunk-fed reader against the jansson path it took over.
 *
 * A test is data, as in curl's tests: its game's file holds an rd_table
 * (how its reader and tree are compared, how one body is generated, the
 * seeds, counts and sizes of the runs, the bodies named by hand) and its
 * main is rd_main.  The driver reads each body both ways, the reader fed
 * whole, byte by byte (bodies up to 4000 bytes) and in random pieces of up
 * to 7 and up to 300 bytes, and fails the test unless both give the same
 * error (kind, field, line, column, message) or positions the game's
 * `same` accepts.  Each body's verdict is counted so that a test can
 * require every check to be met.  The rd_gen helpers are the parts of a
 * body generator that do not depend on the game, and the whole generator
 * of the two games whose body is {"grid": [strings]}. */
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
    /* The game's own verdicts, by words of the message, NULL after the
     * last: the driver counts them after those every game has ("solved",
     * invalid JSON, no object, an unknown or a missing field). */
    const char *const *verdicts;
} rd_game;

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

/* A body that is no object at all, one time in one_in (never when 0): the
 * same few values for every game, and `array`, an array the game's body
 * could hold.  Returns 1 when it wrote one (the whole body), else 0. */
int rd_not_object(rd_gen *g, uint64_t one_in, const char *array);

/* The values that are no number a game takes, as most of them meet each
 * check: out of range, past 64 bits, not whole, not numbers at all, arrays
 * of the wrong shape.  `past` is the game's first number past its bound,
 * written second; `more` (up to four, NULL after the last) come after the
 * common ones, so a game's draws stay its own. */
typedef struct rd_odd_values {
    const char *past;
    const char *more[4];
} rd_odd_values;

/* One of the values o lists, drawn uniformly. */
void rd_odd_value(rd_gen *g, const rd_odd_values *o);

/* The keys no position has, spelled close to the game's members so that
 * only the whole name tells them apart: another short key, a member with a
 * capital, with a space after, with its last letter doubled (or NULL: not
 * tried), and then the empty key, an escaped one and a key longer than an
 * error quotes, cut inside a UTF-8 character when long_utf8 (else ASCII).
 * Names are written without their quotes. */
typedef struct rd_keys {
    const char *other;
    const char *capital;
    const char *spaced;
    const char *doubled;
    int long_utf8;
} rd_keys;

/* One of the keys k describes, quoted, drawn uniformly. */
void rd_odd_key(rd_gen *g, const rd_keys *k);

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

/* One run of generated bodies: `count` of them from `seed`, sizes up to
 * `size` (what a size is, the game says), mistakes at rate 1 in `odd` (0:
 * every body valid). */
typedef struct rd_run {
    uint64_t seed;
    int count;
    long size;
    uint64_t odd;
} rd_run;

enum { RD_MAX_RUNS = 4 };

/* One game's test, as data; rd_main makes of it the suite of four tests
 * every game's reader test has. */
typedef struct rd_table {
    /* The suite's name, and the comparison every body goes through. */
    const char *name;
    const rd_game *diff;
    /* One generated body into g->b (buf_init'd already): its sizes drawn
     * up to size, its limits into lim (GJ_MAX_LIMITS, zeroed), mistakes at
     * rate 1 in odd.  The driver breaks it as JSON one time in odd*2 and
     * compares it. */
    void (*write)(rd_gen *g, long size, uint64_t odd, long *lim);
    /* "valid": bodies every one of which must be solved. */
    rd_run valid;
    /* "mistakes": runs (those with a count) after which every verdict must
     * have been met at least `least` times. */
    rd_run mistakes[RD_MAX_RUNS];
    long least;
    /* "named": bodies named by hand (NULL after the last), each compared
     * under named_lim. */
    const char *const *named;
    long named_lim[GJ_MAX_LIMITS];
    /* "parse_json": the game's parse_json, the reader, refuses parse_body
     * under parse_lim with parse_field and parse_message. */
    const char *parse_body;
    const char *parse_field;
    const char *parse_message;
    long parse_lim[GJ_MAX_LIMITS];
} rd_table;

/* Run t's suite (each test in its own process): the exit status for main,
 * 0 when all passed. */
int rd_main(const rd_table *t);

#endif
