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

#endif
