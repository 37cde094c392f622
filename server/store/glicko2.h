/* glicko2.h - Glicko-2 ratings (Mark Glickman, "Example of the Glicko-2
 * system", 2013), as the puzzle store rates players and puzzles: each
 * rated play is one rating period in which the player played one game
 * against the puzzle, and the puzzle one game against the player.
 *
 * Pure arithmetic on the public scale (rating 1500, deviation 350, ...):
 * no state, no locks, the same numbers on every machine with IEEE doubles.
 * The volatility's iteration is Glickman's step 5.1 (the Illinois
 * algorithm) with his convergence tolerance GLICKO_EPSILON. */
#ifndef GJ_GLICKO2_H
#define GJ_GLICKO2_H

#include <stddef.h>

#define GLICKO_TAU          0.5      /* how fast volatility may change (Glickman: 0.3 to 1.2) */
#define GLICKO_EPSILON      0.000001 /* step 5.1's convergence tolerance */
#define GLICKO_START_RATING 1500.0   /* a new player */
#define GLICKO_START_RD     350.0
#define GLICKO_START_VOL    0.06
#define GLICKO_PUZZLE_RD    250.0 /* a new puzzle: its computed rating is an informed prior */
#define GLICKO_RATING_MIN   400.0 /* ratings the API accepts and the store keeps */
#define GLICKO_RATING_MAX   4000.0
#define GLICKO_RD_MIN       30.0 /* a deviation never shrinks below this, so ratings keep moving */
#define GLICKO_RD_MAX       500.0
#define GLICKO_VOL_MIN      0.01
#define GLICKO_VOL_MAX      0.2
#define GLICKO_SCALE        173.7178 /* Glickman's step 2: between the two scales */

typedef struct glicko {
    double rating; /* on the public scale */
    double rd;     /* rating deviation */
    double vol;    /* volatility */
} glicko;

/* The player's rating after one period against n opponents, score[i] being
 * 1 for a win, 0.5 for a draw and 0 for a loss against opp[i]; with n == 0
 * only the deviation grows (Glickman's step 6 alone).  tau as above.  The
 * result is not clamped (glicko_clamp does that). */
glicko glicko_update(glicko me, const glicko *opp, const double *score, size_t n, double tau);

/* g within the store's ranges: rating, deviation and volatility each held
 * between their _MIN and _MAX above. */
glicko glicko_clamp(glicko g);

/* The expected score of a against b (Glickman's E, b's deviation counting). */
double glicko_expected(glicko a, glicko b);

#endif
