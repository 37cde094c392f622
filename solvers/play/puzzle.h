/* puzzle.h - what a rated puzzle of any game is: the line it holds and
 * the names of its fields, shared by the modules that make and use it
 * (puzzle_id.h, puzzle_search.h, puzzle_write.h, puzzle_check.h).
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
 * Difficulty is the chance that the club engine (level PUZZLE_RATER of
 * engine.h) fails the puzzle: 1 - the product over the steps of its chance
 * to play the solving move, computed exactly from its weights (never
 * sampled).  Bands: easy below PUZZLE_MEDIUM_FROM, hard from
 * PUZZLE_HARD_FROM, medium between. */
#ifndef GJ_PUZZLE_H
#define GJ_PUZZLE_H

#include <jansson.h>

#include "game.h"
#include "generate.h"
#include "play_pos.h"

#define PUZZLE_DEPTH_MAX   6
#define PUZZLE_RATER       3    /* the engine level a difficulty is measured against */
#define PUZZLE_MEDIUM_FROM 0.25 /* difficulty bands: easy below, ... */
#define PUZZLE_HARD_FROM   0.45 /* ... hard from here on */
#define PUZZLE_ID_MAX      1024 /* the longest id taken (puzzle_id.h) */

typedef struct puzzle_step {
    json_t *position; /* the attacker's position: an analyze() request */
    play_pos at;      /* that position parsed (play_pos.h), ranked once, never played on */
    gj_move *moves;   /* its ranked moves, every legal one: at's ids */
    long legal;       /* how many there are */
    double chance;    /* the rater's chance to play the solving move, moves[0] */
    json_t *solving;  /* moves[0]'s entry, as the analysis writes it (its "after" the diff) */
    json_t *reply;    /* the defender's reply entry after it; NULL after the last step */
} puzzle_step;

typedef struct puzzle {
    const gj_game *game;
    long long seed; /* the generator's seed of the position */
    long long skip; /* where in that seed's sequence its candidate began (generate.h) */
    int depth;
    long min_moves;
    json_t *knobs; /* the game's generator knobs (an object, maybe empty) */
    puzzle_step steps[PUZZLE_DEPTH_MAX];
    json_t *to_move; /* the analysis' "to_move" */
    /* What the steps' positions were read under; they keep its address,
     * so a puzzle stays where it was built. */
    long limits[GEN_NLIMITS];
    double difficulty;
    char id[PUZZLE_ID_MAX];
} puzzle;

#endif
