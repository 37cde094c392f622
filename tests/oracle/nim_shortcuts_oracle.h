/* nim_shortcuts_oracle.h - brute force for nim-shortcuts, straight from the rules.
 *
 * Fills the win/lose table of every position (x, y) up to the largest queried
 * coordinates; it knows nothing of the diagonal walk the fast solver uses. */
#ifndef NIM_SHORTCUTS_ORACLE_H
#define NIM_SHORTCUTS_ORACLE_H

/* Shortcuts (sx[i], sy[i]), i < n, and queries (qa[q], qb[q]), q < m.
 * Returns the judge text ("WIN\n" or "LOSE\n" per query, in order), malloc'd,
 * or NULL when out of memory.  The table has (max qa + 1) x (max qb + 1)
 * cells, so keep the queried coordinates small (a few thousand at most). */
char *nim_shortcuts_oracle(const long *sx, const long *sy, long n, const long *qa, const long *qb,
                           long m);

/* The puzzle's parts, from the rules by plain enumeration, for heaps
 * (x, y) that are no shortcut and the shortcuts (sx[i], sy[i]), i < n.  A
 * move takes `take` stones from heap `heap` (1 or 2).
 *
 * The greedy measure of heaps (a, b): for the player who left them, +1
 * when the game is over there (a shortcut, or (0, 0)), else
 * -|a - b| / (a + b + 1); for the player to move there, -1 when over, else
 * +|a - b| / (a + b + 1).  look's value of a move, `plies` 1: the measure of
 * what it leaves, for its mover; `plies` 2: +1 when that is over, else the
 * least over every reply of the opponent of the measure of what the reply
 * leaves, for the first mover (to move there). */
double nim_shortcuts_oracle_look(const long *sx, const long *sy, long n, long x, long y, int heap,
                                 long take, int plies);
/* The motifs of solving move (heap, take) at (x, y), bit i as the game's
 * vocabulary lists them: 0 shortcut-landing (it lands on a shortcut), 1
 * equaliser-refuted (the heaps differ and the opponent has a reply onto a
 * shortcut from the equal heaps the other move leaves, those heaps not
 * over), 2 shifted-diagonal (it leaves unequal heaps, no shortcut). */
unsigned nim_shortcuts_oracle_motifs(const long *sx, const long *sy, long n, long x, long y,
                                     int heap, long take);

#endif
