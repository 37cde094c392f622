/* nim_shortcuts_tree.h - the nim-shortcuts game tree, from the rules alone.
 *
 * Every position (x, y) with x < w and y < h gets its value by the plain
 * definition: a shortcut loses; otherwise the position wins iff one of its
 * moves (x', y), x' < x, or (x, y'), y' < y, reaches a losing position.  No
 * row or column bookkeeping: each position looks at all of its moves.  It
 * knows nothing of the diagonal walk the fast solver uses. */
#ifndef NIM_SHORTCUTS_TREE_H
#define NIM_SHORTCUTS_TREE_H

typedef struct nim_tree {
    long w, h;
    unsigned char *shortcut; /* [x * h + y] */
    unsigned char *lose;     /* [x * h + y]: 1 = the player to move loses */
    long *far;               /* [x * h + y]: the remoteness, by its definition */
} nim_tree;

/* Build the table for the board [0, w) x [0, h) (w, h >= 1, a few hundred
 * at most); shortcuts outside it are ignored (no move reaches them).
 * Returns 0, or -1 when out of memory. */
int nim_tree_build(nim_tree *t, const long *sx, const long *sy, long n, long w, long h);
int nim_tree_loses(const nim_tree *t, long x, long y);
int nim_tree_is_shortcut(const nim_tree *t, long x, long y);
/* Moves to the end with the winner hurrying and the loser delaying: 0 on
 * a shortcut or at (0, 0); else 1 + the least over moves to a losing
 * position when there is one, 1 + the greatest over all moves when not. */
long nim_tree_remoteness(const nim_tree *t, long x, long y);
void nim_tree_free(nim_tree *t);

#endif
