/* nim_shortcuts_oracle.c - the nim-shortcuts table, from the rules alone.
 *
 * Rules: from a shortcut the player to move loses at once; otherwise a move
 * takes one or more stones from one heap, and a player with no move (0, 0)
 * loses.  So a position that is not a shortcut wins iff some move reaches a
 * losing position.  The moves from (x, y) reach exactly (x', y) for x' < x
 * and (x, y') for y' < y, so the table is filled in increasing x and y and
 * remembers, per row and for the current column, whether a losing position
 * has been seen yet: that is the "some move reaches a loser" test, memoised.
 * Positions outside the table cannot be reached from a query (heaps only
 * shrink), so shortcuts outside it are ignored. */
#include "nim_shortcuts_oracle.h"

#include <stdlib.h>
#include <string.h>

enum { WIN = 0, LOSE = 1 };

char *nim_shortcuts_oracle(const long *sx, const long *sy, long n, const long *qa, const long *qb,
                           long m)
{
    long w = 1, h = 1;
    for (long q = 0; q < m; q++) {
        if (qa[q] + 1 > w)
            w = qa[q] + 1;
        if (qb[q] + 1 > h)
            h = qb[q] + 1;
    }
    unsigned char *shortcut = calloc((size_t)w * (size_t)h, 1);
    unsigned char *outcome = malloc((size_t)w * (size_t)h);
    unsigned char *row_has_loser = calloc((size_t)h, 1);
    char *text = malloc(5 * (size_t)m + 1);
    if (shortcut == NULL || outcome == NULL || row_has_loser == NULL || text == NULL) {
        free(shortcut);
        free(outcome);
        free(row_has_loser);
        free(text);
        return NULL;
    }
    for (long i = 0; i < n; i++)
        if (sx[i] < w && sy[i] < h)
            shortcut[sx[i] * h + sy[i]] = 1;
    for (long x = 0; x < w; x++) {
        int column_has_loser = 0; /* among (x, y') with y' < y */
        for (long y = 0; y < h; y++) {
            int result;
            if (shortcut[x * h + y])
                result = LOSE;
            else if (row_has_loser[y] || column_has_loser)
                result = WIN; /* a move reaches a losing position */
            else
                result = LOSE; /* every move (maybe none) reaches a winning one */
            outcome[x * h + y] = (unsigned char)result;
            if (result == LOSE) {
                row_has_loser[y] = 1;
                column_has_loser = 1;
            }
        }
    }
    size_t len = 0;
    for (long q = 0; q < m; q++) {
        const char *word = outcome[qa[q] * h + qb[q]] == LOSE ? "LOSE\n" : "WIN\n";
        size_t k = strlen(word);
        memcpy(text + len, word, k);
        len += k;
    }
    text[len] = '\0';
    free(shortcut);
    free(outcome);
    free(row_has_loser);
    return text;
}

/* Whether (a, b) is one of the n shortcuts, by a scan. */
static int listed(const long *sx, const long *sy, long n, long a, long b)
{
    for (long i = 0; i < n; i++)
        if (sx[i] == a && sy[i] == b)
            return 1;
    return 0;
}

/* Whether the game is over at (a, b): the player to move there has lost. */
static int finished(const long *sx, const long *sy, long n, long a, long b)
{
    return (a == 0 && b == 0) || listed(sx, sy, n, a, b);
}

/* The measure of (a, b) for the player to move there (`to_move`) or for
 * the one who left it. */
static double measure(const long *sx, const long *sy, long n, long a, long b, int to_move)
{
    if (finished(sx, sy, n, a, b))
        return to_move ? -1 : 1;
    double v = (double)(a > b ? a - b : b - a) / (double)(a + b + 1);
    return to_move ? v : -v;
}

double nim_shortcuts_oracle_look(const long *sx, const long *sy, long n, long x, long y, int heap,
                                 long take, int plies)
{
    long a = heap == 1 ? x - take : x, b = heap == 2 ? y - take : y;
    if (plies == 1 || finished(sx, sy, n, a, b))
        return measure(sx, sy, n, a, b, 0);
    double least = 2;
    for (long k = 0; k < a; k++) {
        double v = measure(sx, sy, n, k, b, 1);
        least = v < least ? v : least;
    }
    for (long k = 0; k < b; k++) {
        double v = measure(sx, sy, n, a, k, 1);
        least = v < least ? v : least;
    }
    return least;
}

unsigned nim_shortcuts_oracle_motifs(const long *sx, const long *sy, long n, long x, long y,
                                     int heap, long take)
{
    long a = heap == 1 ? x - take : x, b = heap == 2 ? y - take : y;
    unsigned bits = 0;
    if (listed(sx, sy, n, a, b))
        bits |= 1u;
    long m = x < y ? x : y;
    if (x != y && !finished(sx, sy, n, m, m)) {
        int onto = 0;
        for (long k = 0; k < m; k++)
            onto = onto || listed(sx, sy, n, k, m) || listed(sx, sy, n, m, k);
        if (onto)
            bits |= 2u;
    }
    if (a != b && !listed(sx, sy, n, a, b))
        bits |= 4u;
    return bits;
}
