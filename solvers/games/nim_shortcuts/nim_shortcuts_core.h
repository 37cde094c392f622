/* nim_shortcuts_core.h - the nim-shortcuts solver's board and position,
 * shared with its readers (nim_shortcuts_read.c), its analysis
 * (nim_shortcuts_analysis.c), its puzzle's parts (nim_shortcuts_puzzle.c)
 * and its picture (nim_shortcuts_draw.c); nothing else should include it.
 *
 * Contract.  A point (x, y) packs into one key, x above y, so keys sort by
 * (x, y).  A board holds n pairwise distinct shortcuts, sorted, and their
 * rows.  The segments are the natural losers (losing positions that are not
 * shortcuts): (x, x + d[k]) for x0[k] <= x < end[k].  Both x0[k] and
 * x0[k] + d[k] increase with k, and the segments are disjoint in x and in y,
 * so each column and each row holds at most one natural loser, found by a
 * binary search.  A position loses iff it is a shortcut or on a segment. */
#ifndef GJ_NIM_SHORTCUTS_CORE_H
#define GJ_NIM_SHORTCUTS_CORE_H

#include <stdint.h>

#include <jansson.h>

#include "buf.h"
#include "error.h"
#include "text_read.h"

enum { NIM_LIMIT_SHORTCUTS, NIM_LIMIT_QUERIES };

#define NIM_MAX_COORD 1000000000L

/* Both coordinates are below 2^30, so a key has 60 significant bits. */
#define NIM_COORD_BITS 30
#define NIM_COORD_MASK ((UINT64_C(1) << NIM_COORD_BITS) - 1)

/* One point as a sortable key, `high` in the upper bits. */
static inline uint64_t nim_pack(long high, long low)
{
    return (uint64_t)high << NIM_COORD_BITS | (uint64_t)low;
}

/* The coordinate nim_pack put high. */
static inline long nim_high(uint64_t key)
{
    return (long)(key >> NIM_COORD_BITS);
}

/* The coordinate nim_pack put low. */
static inline long nim_low(uint64_t key)
{
    return (long)(key & NIM_COORD_MASK);
}

typedef struct nim_board {
    long n;
    uint64_t *shortcut; /* n keys (x, y), sorted once read */
    uint64_t *row;      /* (y, lowest x in row y) keys by y */
    long rows;          /* number of distinct shortcut rows */
} nim_board;

typedef struct nim_segments {
    long *x0, *end, *d; /* end is LONG_MAX for the last segment */
    long count, cap;
} nim_segments;

/* A move's id in play (game.h's gj_move): the stones taken, and the heap
 * (1 or 2) in the low bit. */
static inline uint64_t nim_move_id(int heap, long take)
{
    return (uint64_t)take << 1 | (uint64_t)(heap - 1);
}

/* The heap (1 or 2) a move id takes from. */
static inline int nim_move_heap(uint64_t id)
{
    return (int)(id & 1) + 1;
}

/* The stones a move id takes. */
static inline long nim_move_take(uint64_t id)
{
    return (long)(id >> 1);
}

/* Read the JSON array `shortcuts` (the request's field of that name: at
 * most `limit` pairs [x, y], pairwise distinct) into a sorted board.  0, or
 * -1 with *e naming the field; the board needs nim_board_free either way. */
int nim_board_read_json(nim_board *b, const json_t *shortcuts, long limit, gj_error *e);
/* The shortcuts as (y, x) keys, sorted: a malloc'd array of b->n keys. */
int nim_board_by_row(const nim_board *b, uint64_t **out, gj_error *e);
/* Room for n shortcuts, unsorted and without rows: 0, or -1 with *e. */
int nim_board_new(nim_board *b, long n, gj_error *e);
void nim_board_free(nim_board *b);

/* The picture of the position `heap` on board b, "second" to move or not
 * (game.h's gj_play.draw, nim_shortcuts_draw.c).  0, or -1 with *e
 * (GJ_UNMET for more shortcuts within the heaps' reach than it marks). */
int nim_draw(const nim_board *b, const long heap[2], int second, gj_buf *out, int *width,
             int *height, gj_error *e);

/* Walk the board's diagonal into *s (allocated here; free with
 * nim_segments_free, also after a failure). */
int nim_segments_trace(const nim_board *b, nim_segments *s, gj_error *e);
void nim_segments_free(nim_segments *s);

/* What the puzzle's parts (nim_shortcuts_puzzle.c) read of a parsed
 * position in play (nim_shortcuts_analysis.c): its heaps and its n
 * shortcuts, sorted as (x, y) keys and as (y, x) keys. */
typedef struct nim_view {
    long x, y;
    long n;
    const uint64_t *by_column, *by_row;
} nim_view;

/* The view of `pos`, a position nim_shortcuts_play parsed. */
void nim_play_view(const void *pos, nim_view *v);
/* How many of the sorted keys a[0..n) lie in [lo, hi). */
long nim_keys_between(const uint64_t *a, long n, uint64_t lo, uint64_t hi);

/* A position of POST /solve: the sorted board and the queries. */
typedef struct nim_position {
    nim_board b; /* the shortcuts */
    long m;
    uint64_t *query;     /* m keys, in input order */
    unsigned char *lose; /* m answers once solved: 1 = the player to move loses */
} nim_position;

/* A position with room for n shortcuts and m queries, or NULL with *e. */
nim_position *nim_position_new(long n, long m, gj_error *e);
/* game.h's free_position (NULL is fine). */
void nim_position_free(void *p);

/* The judge text's steps (text_read.h), read in nim_shortcuts_read.c: the
 * same answers and errors read whole or piece by piece. */
extern const gj_text_steps nim_text_steps;

/* The JSON body of POST /solve read as it arrives (json_pull.h), straight
 * into the position's arrays: exactly the answers and errors, in the same
 * order, of nim_shortcuts_parse_tree, the jansson path it took over (kept
 * as the reference).  open, then feed the body in pieces of any size
 * (0, or -1 with *e; then only close), then finish (the position, or NULL
 * with *e; it closes the reader either way).  The position is the game's
 * (free it with its free_position). */
typedef struct nim_json_reader nim_json_reader;
nim_json_reader *nim_json_open(const long *limits, gj_error *e);
int nim_json_feed(nim_json_reader *r, const char *p, size_t n, gj_error *e);
void *nim_json_finish(nim_json_reader *r, gj_error *e);
void nim_json_close(nim_json_reader *r);
void *nim_shortcuts_parse_tree(const char *buf, size_t len, const long *limits, gj_error *e);

/* An /analyze body's "shortcuts" read as it arrives (game.h's
 * gj_event_reader, analysis_read.h): what nim_board_read_json reads of the
 * member, with its checks and messages, as a nim_read_board. */
typedef struct nim_read_board {
    nim_board b;     /* the board, sorted */
    uint64_t *given; /* its b.n shortcuts in the body's order */
} nim_read_board;
extern const gj_event_reader nim_board_events;

#endif
