/* puzzle.h - what a rated puzzle of any game is: the line it holds and
 * the names of its fields, shared by the modules that make and use it
 * (puzzle_build.h, puzzle_rating.h, puzzle_id.h, puzzle_search.h,
 * puzzle_write.h, puzzle_check.h).
 *
 * Game-agnostic: a puzzle is made of what every game already has, its
 * generator (generate.h, asked for a position in play with exactly one
 * winning move and at least min_moves legal moves), its analysis and its
 * moves, driven as a parsed position (play_pos.h).  A puzzle of depth N
 * is N solving moves in a row by
 * the player to move (the attacker), each the only solving move of its
 * position (staircase-chess: the only move reaching the best score),
 * against the defender's most resilient replies: the first move of the
 * defender's ranked analysis (the slowest loss where the game answers
 * remoteness, else the ranking policy's best).
 *
 * Difficulty measures the finding, not the playing: a bounded finder
 * looks at every legal move of a step k plies ahead (k = 1 and 2) and
 * judges the horizon with the game's stated greedy measure (game.h's
 * gj_play.look).  Seeing k plies, it plays move i with weight
 * 1 / (1 + PUZZLE_FINDER_FOCUS (best_k - value_k(i)))^2, best_k the value
 * it likes most, so it finds the solving move with chance c_k = its
 * weight over the sum; the step's miss chance is 1 - (c_1 + c_2) / 2 and
 * the puzzle's, `miss`, is 1 - the product over its steps of 1 - the
 * step's.  A solving move the greedy measure likes best at both horizons,
 * among few moves, is missed rarely; one the measure ranks low among many,
 * or one level with several others, is missed often.  The difficulty is
 * `miss` placed on the game's scale for the depth (gj_game.puzzle_scale:
 * where the game's reference puzzles' misses lie), so 0.5 is the game's
 * median puzzle of that depth at the default size: piecewise linear
 * through (0, 0), the scale's ten points at 0.05, 0.15, ..., 0.95, and
 * (1, 1).  Bands: easy below PUZZLE_MEDIUM_FROM, hard from
 * PUZZLE_HARD_FROM, medium between.  The rating, the prior a site starts
 * its own ratings from, is 700 + 1700 difficulty + 200 (depth - 1),
 * rounded: 700 to 2800 on the familiar scale.  Everything is computed from
 * integers, divisions and four-decimal rounding, so the same on every
 * machine. */
#ifndef GJ_PUZZLE_H
#define GJ_PUZZLE_H

#include <jansson.h>

#include "game.h"
#include "generate.h"
#include "play_pos.h"

#define PUZZLE_DEPTH_MAX    6
#define PUZZLE_FINDER_FOCUS 10   /* how sharply the finder prefers what it likes best */
#define PUZZLE_MEDIUM_FROM  0.35 /* difficulty bands: easy below, ... */
#define PUZZLE_HARD_FROM    0.65 /* ... hard from here on */
#define PUZZLE_ID_MAX       1024 /* the longest id taken (puzzle_id.h) */

typedef struct puzzle_step {
    json_t *position; /* the attacker's position: an analyze() request */
    play_pos at;      /* that position parsed (play_pos.h), ranked once, never played on */
    gj_move *moves;   /* its ranked moves, every legal one: at's ids */
    long legal;       /* how many there are */
    double miss;      /* the finder's chance to miss the solving move, moves[0] */
    long greedy;      /* the index of the move the greedy measure alone likes best, -1 on a tie */
    unsigned motifs;  /* the game's motifs the solving move shows (gj_play.motifs) */
    json_t *solving;  /* moves[0]'s entry, as the analysis writes it (its "after" the diff) */
    json_t *reply;    /* the defender's reply entry after it; NULL after the last step */
    /* The reply's entry as write_move wrote it, before it was played: read
     * into `reply` only when the line is kept. */
    gj_buf reply_text;
} puzzle_step;

typedef struct puzzle {
    const gj_game *game;
    long long seed; /* the generator's seed of the position */
    long long skip; /* where in that seed's sequence its candidate began (generate.h) */
    int depth;
    long min_moves;
    json_t *knobs; /* the game's generator knobs (an object, maybe empty) */
    puzzle_step steps[PUZZLE_DEPTH_MAX];
    const char *mover; /* the first ranking's to_move (gj_rank_head), a game's static string */
    json_t *to_move;   /* the analysis' "to_move": mover as JSON, once the line is kept */
    /* What the steps' positions were read under; they keep its address,
     * so a puzzle stays where it was built. */
    long limits[GEN_NLIMITS];
    double miss;       /* the finder's chance to miss some step (see above) */
    double difficulty; /* miss on the game's scale, four decimals */
    int rating;
    /* The themes that hold, bit i for puzzle_theme_at(game, i) (puzzle_themes.h). */
    unsigned long themes;
    char id[PUZZLE_ID_MAX];
} puzzle;

#endif
