/* game.h - the one interface between the server and a game.
 *
 * A game turns the caller's bytes into a position (judge text or the JSON
 * twin), solves it, and writes the answer as judge text or as JSON.  Data
 * flows one way: parse -> solve -> write -> free.  A position owns its input
 * and its answer; nothing here knows about HTTP or threads, and a position
 * is used by one thread at a time.
 *
 * Limits are per game: each game lists its limit definitions, and the caller
 * passes the values in force (defaults are the original problem's limits;
 * configuration may raise them up to `max`). */
#ifndef GJ_GAME_H
#define GJ_GAME_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "buf.h"
#include "error.h"

#define GJ_MAX_LIMITS 4
/* The engine's levels with a calibrated strength (engine.h): 1..4; the top
 * level is perfect play in every game and needs no calibration. */
#define GJ_TUNED_LEVELS 4

/* The number of entries of a game's limits array, for gj_game.nlimits, so
 * the count cannot drift from the array. */
#define GJ_NLIMITS(defs) ((int)(sizeof(defs) / sizeof((defs)[0])))

struct gen_kept; /* generate.h */

typedef struct gj_limit_def {
    const char *name; /* short key, as in "--limit grid-walk.rows=1000" */
    const char *doc;  /* one line for /games and --help */
    long def;         /* the original problem's limit */
    long min;         /* smallest value configuration may set */
    long max;         /* largest value the algorithm and memory allow */
} gj_limit_def;

/* One move of a position in play, as its analysis ranks it (analysis.h):
 * what the line, the engine and puzzles read of an entry without its JSON.
 * `id` is the game's own name for the move, meaningful only to the
 * position that listed it, and only until that position is played on or
 * ranked again (a clone made in between takes its moves along). */
typedef struct gj_move {
    uint64_t id;
    int wins;             /* the entry's "outcome" is "win" (staircase-chess: 0) */
    long long score;      /* staircase-chess: the entry's "score"; 0 in the others */
    long long remoteness; /* the entry's: a count, ANALYSIS_REMOTENESS_NULL or _NONE */
} gj_move;

/* What an analysis says of the position itself, beside its moves: what
 * the engine's levels, puzzles and pictures read of the head without
 * writing the analysis out. */
typedef struct gj_rank_head {
    long long value;       /* 1 "win", 0 "lose"; staircase-chess: the integer */
    long long remoteness;  /* as the answer's: a count, _NULL or _NONE */
    long long moves_total; /* the answer's counts */
    long long winning_moves;
    const char *to_move; /* the answer's "to_move", a static string of the game's */
    int scored;          /* 1 when "value" is a score (an integer), not "win"/"lose" */
} gj_rank_head;

/* A position in the middle of play, parsed once and then analysed, ranked,
 * walked and written without going back through JSON text: what the
 * perfect-play line (line.h), the moves to play, the engine, its levels and
 * puzzles drive a game with.  Every game offers it and keeps analyze()
 * (JSON text in) as parse + analyze + free over it, so the game has one
 * implementation; play/play_pos.h's adapter over analyze() and play_move()
 * is what the games' own are tested against.
 * A position is used by one thread at a time.  Contracts:
 *   parse          the analyze() request `req`, already loaded as JSON and
 *                  its members checked against analyze_keys, with analyze()'s
 *                  checks and messages: the position, or NULL with *e.  req
 *                  is read, never kept or changed.  The request's
 *                  "max_moves" bounds analyze() only, never rank().
 *   analyze        analyze()'s exact bytes for the position as it is now
 *                  (the request's max_moves): 0, or -1 with *e.
 *   rank           the first min(max, moves_total) moves of the ranking
 *                  policy (analysis.h) into moves[0..), exactly the entries
 *                  analyze() lists with max_moves = max (1 <= max <=
 *                  ANALYSIS_MAX_MOVES_LIMIT), and *head as that answer's
 *                  head (its "to_move" and whether "value" is a score
 *                  too).  head NULL: not wanted, so a game may skip work
 *                  that only the counts need (the line asks max = 1 with no
 *                  head at every move).  The number of moves written (0:
 *                  the game is over), or -1 with *e.
 *   write_move     analyze()'s entry for m (one rank() or find() gave for
 *                  the position as it is now), its members without braces:
 *                  with "after" the diff (whole = 0) or the whole position
 *                  the move leads to (whole = 1, the bytes after.c's writer
 *                  gives), *after_bytes then that after's length, which the
 *                  caller bounds (0 when whole = 0).  0, or -1 with *e.
 *   play           play m (as for write_move) in place: 0, or -1 with *e.
 *   find           the legal move written `move` (a JSON value, in the
 *                  form of an entry's "move"): 1 with m->id set (the rest of
 *                  *m is left as it is), 0 when `move` names no legal move
 *                  of the position (malformed or illegal: the caller says
 *                  which), or -1 with *e (out of memory, say).
 *   clone          an independent copy of the position as it is now, with
 *                  the moves ranked on it, to play on and free on its own:
 *                  the copy, or NULL with *e.
 *   write_members  the position's members: those the request gave and
 *                  those the moves played since added, in the request's
 *                  order, comma-separated without braces, without
 *                  "max_moves" (moved = 0: what a whole "after" holds), or
 *                  only the members a move changes (moved = 1: equal bytes
 *                  for two positions of one line exactly when they are the
 *                  same position, the line's cycle key).  Allocation failure
 *                  shows in out->failed.
 *   free           free the position.
 * Three more make puzzles of the position (play/puzzle.h); NULL where a
 * game has none yet:
 *   look           the bounded finder's view of the moves: for each of the
 *                  n moves of moves[] (rank's, every legal move, n >= 1),
 *                  into value[i], how good move i looks to its mover when
 *                  seen `plies` (1 or 2) plies ahead: plies 1, the game's
 *                  stated greedy measure of the position the move leads
 *                  to, from the mover's side; plies 2, the least of that
 *                  measure over the opponent's replies there (each read
 *                  after the reply, still from the first mover's side).
 *                  The measure lies in (-1, 1); in a game won or lost, a
 *                  finished game reads +1 when the mover won, -1 when
 *                  they lost (a scored game, staircase-chess, reads its
 *                  final margin on the measure's own scale instead).
 *                  Integer arithmetic and division only (no libm), so
 *                  every machine gives the same bits.  0, or -1 with *e.
 *   motifs         the game's own themes (gj_game.motifs) that the solving
 *                  move moves[0] shows among the n ranked moves (every legal
 *                  one): bit i for motifs[i], into *bits.  0, or -1 with *e.
 *   draw           the position as SVG shapes for a picture (play/picture.h):
 *                  the elements only, into out, on a canvas of *width x
 *                  *height user units that it sets (at most SVG_SIDE_MAX
 *                  each, svg.h), any text escaped for XML.  0; or -1 with
 *                  *e, GJ_UNMET naming the size and the bound, for a
 *                  position too large to draw legibly (svg.h's bounds),
 *                  decided before anything is written.  Allocation failure
 *                  shows in out->failed. */
typedef struct gj_play {
    void *(*parse)(const json_t *req, const long *limits, gj_error *e);
    int (*analyze)(void *pos, gj_buf *out, gj_error *e);
    long (*rank)(void *pos, long max, gj_move *moves, gj_rank_head *head, gj_error *e);
    int (*write_move)(void *pos, const gj_move *m, int whole, gj_buf *out, size_t *after_bytes,
                      gj_error *e);
    int (*play)(void *pos, const gj_move *m, gj_error *e);
    int (*find)(void *pos, const json_t *move, gj_move *m, gj_error *e);
    void *(*clone)(const void *pos, gj_error *e);
    void (*write_members)(void *pos, int moved, gj_buf *out);
    void (*free)(void *pos);
    int (*look)(void *pos, const gj_move *moves, long n, int plies, double *value, gj_error *e);
    int (*motifs)(void *pos, const gj_move *moves, long n, unsigned *bits, gj_error *e);
    int (*draw)(void *pos, gj_buf *out, int *width, int *height, gj_error *e);
    /* An /analyze body read as it arrives with its bulk member straight
     * into the game's arrays (analysis_read.h), and parse over what it
     * read: NULL where the body is read into its tree.
     *   adopt   parse, for a request whose position members were read by
     *           read_analysis's gj_event_reader into `read` (a finished
     *           position of it, taken whatever happens) and whose bulk
     *           member stands in `req` as a null: the same position, checks
     *           and messages as parse of the whole request. */
    const struct gj_body_reader *read_analysis;
    void *(*adopt)(void *read, const json_t *req, const long *limits, gj_error *e);
} gj_play;

struct jpull_event; /* json_pull.h */

/* A game's JSON position reader driven by the events of a pull another
 * reader runs (json_pull.h): how an /analyze body's position members reach
 * the game's arrays while the body arrives and its other members are built
 * into a small tree (analysis_read.h).  It takes the members `keys` (those
 * its read_json takes, listed as jin_load_object lists them); `bulk`, one
 * of them, is the large one kept out of the tree.
 *   open        a reader under `limits`, or NULL with *e;
 *   take        one event: of the body's object itself, or of one of `keys`
 *               (its key event included).  JPULL_GO, or JPULL_STOP /
 *               JPULL_ABORT with *e, as a json_pull consumer answers;
 *   finish      the body ended and is JSON: the position read_json gives
 *               for the object of those members alone, or NULL with *e;
 *               frees the reader.  Where the members' checks need others
 *               (grid-walk's path needs the grid), it gives them unjudged
 *               and adopt judges them, in the parse's order;
 *   close       free a reader that was not finished (NULL is fine);
 *   write_bulk  `bulk`'s value, for a finished position, as jansson's
 *               compact dump writes the value that was read (the request's
 *               canonical form, line.h); allocation failure shows in
 *               out->failed;
 *   work        a bound on the bytes a request on a finished position
 *               holds beyond the position itself before its answer is
 *               written: the canonical form's bulk member, what the game's
 *               parse over the position (adopt) derives and its solve's
 *               scratch.  The server charges it as a solve's work_bytes;
 *   free        free a finished position that was not adopted. */
typedef struct gj_event_reader {
    const char *const *keys;
    const char *bulk;
    void *(*open)(const long *limits, gj_error *e);
    int (*take)(void *reader, const struct jpull_event *ev, gj_error *e);
    void *(*finish)(void *reader, gj_error *e);
    void (*close)(void *reader);
    void (*write_bulk)(const void *pos, gj_buf *out);
    size_t (*work)(const void *pos);
    void (*free)(void *pos);
} gj_event_reader;

/* A theme a puzzle may carry (play/puzzle.h): its name, as /games and
 * GET /puzzle?theme= spell it, and one line saying when a puzzle has it. */
typedef struct gj_theme {
    const char *name;
    const char *doc;
} gj_theme;

/* The puzzle bands, the index of gj_game.puzzle_knobs. */
enum { GJ_BAND_EASY, GJ_BAND_MEDIUM, GJ_BAND_HARD, GJ_NBANDS };
/* The deepest puzzle any game serves, and the points of a difficulty scale. */
#define GJ_PUZZLE_DEPTHS 3
#define GJ_SCALE_POINTS  10

/* A body read as it arrives, chunk by chunk, into the game's own arrays,
 * with no copy of the body and no tree of it:
 *   open    a reader for a body under `limits`, or NULL with *e; `expect`
 *           is the length the body announced (0: unknown), a hint for the
 *           room to make at once, never a bound on what is read;
 *   feed    the next n bytes (any split, down to single bytes): 0, or -1
 *           with *e; the reader is then only closed;
 *   finish  the body has ended: the position the game's whole-body parse
 *           gives for the same bytes (the same error, in the same order,
 *           when it refuses them), or NULL with *e; frees the reader;
 *   close   free a reader that was not finished (NULL is fine). */
typedef struct gj_body_reader {
    void *(*open)(const long *limits, size_t expect, gj_error *e);
    int (*feed)(void *reader, const char *p, size_t n, gj_error *e);
    void *(*finish)(void *reader, gj_error *e);
    void (*close)(void *reader);
} gj_body_reader;

/* The whole of buf through r (open, one feed, finish): the position, or
 * NULL with *e.  A game's parse_json is this over its read_json. */
void *game_read_whole(const gj_body_reader *r, const char *buf, size_t len, const long *limits,
                      gj_error *e);

/* A game's `static const gj_body_reader read_json` and its parse_json,
 * over a JSON reader of its own named PREFIX_json_open(limits, e), _feed,
 * _finish and _close, which keeps no copy of the body (so the announced
 * length is not used): the shape GJ_TEXT_READER (text_read.h) gives text. */
#define GJ_JSON_READER(prefix)                                                                     \
    static void *open_json(const long *lim, size_t expect, gj_error *e)                            \
    {                                                                                              \
        (void)expect;                                                                              \
        return prefix##_json_open(lim, e);                                                         \
    }                                                                                              \
    static int feed_json(void *r, const char *p, size_t n, gj_error *e)                            \
    {                                                                                              \
        return prefix##_json_feed(r, p, n, e);                                                     \
    }                                                                                              \
    static void *finish_json(void *r, gj_error *e)                                                 \
    {                                                                                              \
        return prefix##_json_finish(r, e);                                                         \
    }                                                                                              \
    static void close_json(void *r)                                                                \
    {                                                                                              \
        prefix##_json_close(r);                                                                    \
    }                                                                                              \
    static const gj_body_reader read_json = {open_json, feed_json, finish_json, close_json};       \
    static void *parse_json(const char *buf, size_t len, const long *lim, gj_error *e)             \
    {                                                                                              \
        return game_read_whole(&read_json, buf, len, lim, e);                                      \
    }

typedef struct gj_game {
    const char *name;         /* URL name, e.g. "grid-walk" */
    const char *display_name; /* the name a visitor reads, e.g. "Grid walk" */
    const char *title;        /* one line: what is answered */
    const char *example_text; /* a judge-format input */
    const char *example_json; /* the same position as JSON */
    const gj_limit_def *limits;
    int nlimits; /* GJ_NLIMITS(limits), at most GJ_MAX_LIMITS */

    /* Return a new position, or NULL with *e filled. */
    void *(*parse_text)(const char *buf, size_t len, const long *limits, gj_error *e);
    void *(*parse_json)(const char *buf, size_t len, const long *limits, gj_error *e);
    /* The JSON body read as it arrives (gj_body_reader), giving exactly what
     * parse_json gives; NULL while the game reads JSON only whole. */
    const gj_body_reader *read_json;
    /* Judge text read as it arrives, giving exactly what parse_text gives
     * (text_read.h: both are the same steps); NULL: read only whole. */
    const gj_body_reader *read_text;
    /* Compute the answer into the position: 0, or -1 with *e filled. */
    int (*solve)(void *pos, gj_error *e);
    /* Append the answer; allocation failure shows in out->failed. */
    void (*write_text)(const void *pos, gj_buf *out);
    void (*write_json)(const void *pos, gj_buf *out);
    void (*free_position)(void *pos);

    /* The position's canonical bytes, the result cache's key: equal for the
     * text and JSON forms of one position, different for any two positions
     * with different answers (sizes included, so no two keys of different
     * positions can be equal).  Called after parse, before or after solve.
     * Allocation failure shows in out->failed. */
    void (*write_key)(const void *pos, gj_buf *out);

    /* A conservative estimate of solve()'s time on this parsed position, in
     * microseconds of one core (the model is stated beside each game's
     * function and checked by the bench).  The server answers cheap solves
     * without a thread hand-off and keeps heavy ones off the lane that cheap
     * ones use.  NULL: the position is taken as heavy. */
    double (*cost_us)(const void *pos);
    /* A bound on the bytes solve() and the answer's writing hold for this
     * parsed position beyond the position itself: the solver's scratch and
     * the answer.  The server charges it to the memory budget before the
     * solve, as the body's own charge covers only reading it (a grid-walk
     * matching holds about 15x its body, a staircase board C(n+m, n)
     * states whatever its body).  NULL: nothing beyond the body's charge. */
    size_t (*work_bytes)(const void *pos);

    /* Analyse a position in the middle of play, given as JSON (see
     * analysis.h for the answer's shape): 0, or -1 with *e filled. */
    int (*analyze)(const char *buf, size_t len, const long *limits, gj_buf *out, gj_error *e);
    const char *example_analyze; /* a JSON request for analyze() */
    /* The members analyze() reads, as jin_load_object (json_in.h) takes
     * them: the position's, then "?max_moves".  The game's own check uses
     * this list, and the wrappers that add members of their own (line.h,
     * engine.h) name from it exactly the fields their endpoint takes. */
    const char *const *analyze_keys;
    /* The game's parsed positions in play (gj_play above); every game has
     * them (analyze() is parse + analyze + free over them). */
    const gj_play *play;

    /* The solver's version, part of every answer's ETag (server/runtime/etag.h):
     * bump it whenever this game's answer to some input could change (a
     * fix, a new field, another tie-break), so caches never keep a stale
     * answer under a current tag.  A change that only makes it faster
     * keeps it. */
    const char *version;
    /* Generate a fresh position with the properties the JSON request asks
     * for and write the whole answer object (generate.h says both shapes;
     * limits has GEN_NLIMITS entries: the game's, then the budget ceiling
     * in ms): 0, or -1 with *e filled (GJ_UNMET when nothing fitting was
     * found in the budget). */
    int (*generate)(const char *buf, size_t len, const long *limits, gj_buf *out, gj_error *e);
    /* Read a generate() request without searching: the most legal moves a
     * position in play of the asked size can have (the bound stated and
     * proved beside the generator) into *most, and 1 into *scored when the
     * answer is a score.  0, or -1 with *e (the request's own error). */
    int (*generate_most)(const char *buf, size_t len, const long *limits, long long *most,
                         int *scored, gj_error *e);
    /* generate() of a request in play whose kept candidate is handed over
     * parsed (generate.h's gen_keep) instead of written: what puzzles
     * build on.  0, or -1 with *e, as generate() fails. */
    int (*generate_keep)(const char *buf, size_t len, const long *limits, struct gen_kept *kept,
                         gj_error *e);
    const char *example_generate; /* a JSON request for generate() */
    /* generate()'s own request members beyond the common ones (generate.h),
     * NULL-terminated: the puzzles (puzzle.h) pass exactly these on. */
    const char *const *generate_knobs;
    /* Play one move on an analyze() request: change `req` (the request's
     * JSON object, without the line and engine members) in place so that it
     * describes the position `entry` (one element of the answer's "moves")
     * leads to.  0, or -1 with *e.  The moves to play, whole afters, the
     * perfect-play line of a game without `play` (play_pos.h) and the
     * engine's tests walk the game with it.  It replaces the members it
     * changes and never changes a member's value in place, so a shallow
     * copy of a request can be played on (after.h writes the members it
     * left alone once per request).  The entry's "after" is the diff. */
    int (*play_move)(json_t *req, const json_t *entry, gj_error *e);
    /* The generator knobs a puzzle (puzzle.h) starts from, per band asked
     * (GJ_BAND_*; a search without a band, a difficulty range too, takes
     * the medium one): a JSON
     * object, or NULL for the generator's own defaults.  Easy puzzles may
     * be small; a hard one is larger, so there is more to see. */
    const char *puzzle_knobs[GJ_NBANDS];
    /* The deepest puzzle the game serves (1..GJ_PUZZLE_DEPTHS; 0 is read
     * as GJ_PUZZLE_DEPTHS), and when it is less, why its rules allow no
     * deeper one, a sentence for /games (a test checks the property). */
    int puzzle_depth_max;
    const char *puzzle_depth_note;
    /* The game's own puzzle themes, {NULL, NULL}-terminated, bit i of
     * gj_play.motifs naming motifs[i]; at most 16. */
    const gj_theme *motifs;
    /* The difficulty's scale per depth (puzzle.h): the finder's miss
     * chance at the 5th, 15th, ..., 95th percentiles of the game's
     * reference puzzles of that depth (the medium band's knobs), found by
     * bench/puzzle_rate --calibrate.  All zero: the miss chance is the
     * difficulty. */
    double puzzle_scale[GJ_PUZZLE_DEPTHS][GJ_SCALE_POINTS];
    /* 1 when the game never ends and its positions repeat (matrix-game):
     * its line stops at the first position seen twice. */
    int play_repeats;
    /* The engine's levels 1..GJ_TUNED_LEVELS for this game (engine.h): per
     * level, W(q + 1) / W(q) in 16-bit fixed point (0..65536), found by
     * bench/levels.c so that each level solves the benchmark puzzles as
     * often as in every other game; one row per game because the same
     * weights solve far less often where positions have more moves. */
    unsigned level_ratio[GJ_TUNED_LEVELS];
} gj_game;

/* The answer format's version, in every ETag beside the game's: bump it when
 * the server changes what every game's answer looks like (the JSON frame,
 * the analysis frame, the judge-text writer shared by all). */
#define GJ_ANSWER_FORMAT_VERSION "1"

/* The default limit values of g into out[GJ_MAX_LIMITS]. */
void game_default_limits(const gj_game *g, long *out);
/* `{"game":"<name>","<member>":`, the start of g's JSON answer up to the
 * value of its first own member; the game writes the rest. */
void game_json_open(gj_buf *out, const gj_game *g, const char *member);

#endif
