/* analysis.h - the common shape of a position analysis (POST /analyze).
 *
 * A game's analyze() reads a position in the middle of play (JSON only:
 * mid-play positions have no judge format) and writes one JSON object:
 *
 *   {"game": "grid-walk", "to_move": "B", "value": "win",
 *    "moves_total": 3, "winning_moves": 1, "truncated": false,
 *    "moves": [{"move": ..., "outcome": "win", "after": {...}}, ...]}
 *
 * `value` is the outcome for the player to move ("win" or "lose"; for
 * staircase-chess an integer, the mover's best margin over the stones still
 * to place).  `moves` are ranked best first: every winning move before every
 * losing one (for staircase-chess, by `score`, highest first), and no game
 * lists more than the request's `max_moves` (`truncated` says when the list
 * was cut).  Where moves run to millions the counts stay exact and the list
 * still starts with every winning move that fits, so a lost position lists
 * moves to play too.
 * `move` and `after` are the game's own: the move, and what it changed in
 * the position (the diff); /analyze and /move answer the whole position
 * there instead unless asked for the diff (after.h).
 *
 * The ranking policy, one for `moves`, the perfect-play line (line.h) and
 * the engine (engine.h): outcome first (every winning move before every
 * losing one; staircase-chess: score, highest first), then per game a
 * deterministic tie-break among moves of equal outcome or score:
 *   matrix-game      the cell's value, highest first (the mover scores more)
 *   grid-walk        the cell, row-major (row, then column)
 *   nim-shortcuts    fewest stones taken, heap 1 before heap 2 on a tie
 *   prime-chocolate  the square's top-left cell row-major, then the larger
 *                    square first
 *   staircase-chess  the stone's row, top row first
 * so moves[0] is the policy's best move and a list cut at max_moves keeps
 * its first entries.
 *
 * Remoteness (GamesCrafters' term): the number of moves left to the end of
 * the game under perfect play when the winner hurries and the loser delays.
 * A position with no move (or one the rules end, a nim shortcut) has 0; a
 * won position has 1 + the least remoteness of the positions its winning
 * moves reach; a lost one 1 + the greatest of all its moves' positions.  The
 * answer has "remoteness" after "value", and each entry after "outcome":
 * the entry's own is the position it leads to (so a won position's is 1 +
 * its best entry's).  Per game:
 *   nim-shortcuts    a sweep over every position (x', y') <= (x, y): exact
 *                    while (x + 1)(y + 1) <= ANALYSIS_REMOTENESS_CELLS
 *   grid-walk        a memoised search over (token, cells still reachable):
 *   prime-chocolate  (squares that may still go into a prime square, the
 *                    loose squares' count, the primes used): both exact
 *                    while the search meets at most ANALYSIS_REMOTENESS_STATES
 *                    positions (and, for grid-walk, a component of at most
 *                    128 cells, the token's own included, so 127 ahead;
 *                    for prime-chocolate, at most 128 squares in full
 *                    prime squares and ANALYSIS_REMOTENESS_DEPTH left
 *                    uneaten)
 *   staircase-chess  the empty cells: the game always fills the board, so
 *                    every line has that length (exact, never null)
 *   matrix-game      never ends: no "remoteness" member at all
 * Past its bound a game answers JSON null for the position and for every
 * entry: never an estimate.  The bounds count work, not time, so one
 * request always gets the same answer (it is cached and tagged as such).
 * Where remoteness is known, the ranking puts it right after the outcome:
 * among winning moves the fastest win (least remoteness after) first,
 * among losing moves the slowest loss (greatest remoteness after) first,
 * and only then the tie-break below.
 *
 * The helpers below write that frame, so the five games answer alike. */
#ifndef GJ_ANALYSIS_H
#define GJ_ANALYSIS_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "buf.h"
#include "error.h"

#define ANALYSIS_MAX_MOVES_DEFAULT 100
#define ANALYSIS_MAX_MOVES_LIMIT   10000

/* The work bounds of remoteness (see above): stated here, not configured,
 * because the ETag of an answer (the game's version and the request) must
 * not hide an answer that another bound would have made different. */
#define ANALYSIS_REMOTENESS_CELLS  (1L << 20)
#define ANALYSIS_REMOTENESS_STATES (1L << 16)
#define ANALYSIS_REMOTENESS_DEPTH  4096L

/* The most bytes of "after" one answer of /analyze or /move may hold when
 * each is a whole position (after.h: "after": "full", the default), so a
 * long list of a large position cannot grow without bound: 32 MiB, half of
 * the default --max-body.  Past it the answer is a 422 naming this bound and
 * the ways out ("after": "diff", a smaller max_moves or max_line).  A
 * constant, like the remoteness bounds, so one request always gets the same
 * answer. */
#define ANALYSIS_AFTER_BYTES_MAX (32L << 20)

/* A remoteness the analysis does not know (past its bound): JSON null. */
#define ANALYSIS_REMOTENESS_NULL (-1LL)
/* A game without remoteness (matrix-game): no member at all. */
#define ANALYSIS_REMOTENESS_NONE (-2LL)

typedef struct analysis_counts {
    long long moves_total;   /* every legal move */
    long long winning_moves; /* moves whose outcome is a win for the mover
                                (staircase-chess: moves reaching `value`) */
    long listed;             /* moves in the list */
} analysis_counts;

/* The optional "max_moves" member of the request: ANALYSIS_MAX_MOVES_DEFAULT
 * when absent, 1..ANALYSIS_MAX_MOVES_LIMIT otherwise.  0, or -1 with *e. */
int analysis_max_moves(const json_t *root, long *out, gj_error *e);

/* The optional "to_move" member v (NULL when absent) of a two-player
 * request: *mover is the index in names[2] of the string it holds, or
 * `absent` when v is NULL (or JSON null, when null_is_absent).  0, or -1
 * with *e ("expected \"A\" or \"B\", ...") for any other value. */
int analysis_to_move(const json_t *v, const char *const names[2], bool null_is_absent, int absent,
                     int *mover, gj_error *e);

/* {"game":..,"to_move":..,"value":"win"|"lose", "remoteness" (a count,
 * ANALYSIS_REMOTENESS_NULL or _NONE), then the counts. */
void analysis_begin(gj_buf *out, const char *game, const char *to_move, int mover_wins,
                    long long remoteness, const analysis_counts *c);
/* The same with an integer value (staircase-chess). */
void analysis_begin_score(gj_buf *out, const char *game, const char *to_move, long long value,
                          long long remoteness, const analysis_counts *c);
/* `,"remoteness":N` (or null; nothing for ANALYSIS_REMOTENESS_NONE): an
 * entry's member, written after its outcome. */
void analysis_put_remoteness(gj_buf *out, long long remoteness);

/* The ranking of two moves by remoteness, for moves whose outcome for the
 * mover is wins_a and wins_b and whose positions after have remoteness ra
 * and rb: negative when a goes first (a win before a loss, the faster win,
 * the slower loss), positive when b does, 0 when the tie-break decides. */
int analysis_rank_remoteness(int wins_a, long long ra, int wins_b, long long rb);

/* A bounded selection: the `cap` first elements by `cmp` of everything
 * offered, kept in a max-heap (the worst kept at the root) so that a
 * million moves cost O(n log cap) time and O(cap) room. */
typedef struct analysis_top {
    char *item;  /* cap elements of `size` bytes */
    size_t size; /* one element's bytes */
    long cap, count;
    int (*cmp)(const void *, const void *);
} analysis_top;

/* Room for cap elements of `size` bytes: 0, or -1 with *e (out of memory). */
int analysis_top_init(analysis_top *t, long cap, size_t size,
                      int (*cmp)(const void *, const void *), gj_error *e);
/* Keep *elem when it is among the cap first so far. */
void analysis_top_offer(analysis_top *t, const void *elem);
/* Sort what is kept, best first: t->item[0..t->count). */
void analysis_top_finish(analysis_top *t);
void analysis_top_free(analysis_top *t);
/* Before the i-th (0-based) entry of the list: `,"moves":[` or `,`.  The
 * caller then writes the entry's members inside analysis_move_open/close. */
void analysis_move_open(gj_buf *out, long i);
/* `}` for the entry; after the last entry analysis_end closes everything.
 * A list of zero entries still needs analysis_end. */
void analysis_move_close(gj_buf *out);
void analysis_end(gj_buf *out, long listed);

/* "win" or "lose". */
const char *analysis_outcome(int wins);

/* req[name] = a copy of `value` (an entry's member, for play_move):
 * 0, or -1 with *e (GJ_INTERNAL when value is missing). */
int analysis_play_set(json_t *req, const char *name, const json_t *value, gj_error *e);

/* Every member of `after` (an entry's diff) that req holds too takes the
 * diff's value: a request made of a whole "after" (after.h) carries the
 * diff's members (a token, a count), which the next move changes too.
 * 0, or -1 with *e. */
int analysis_play_carried(json_t *req, const json_t *after, gj_error *e);

#endif
