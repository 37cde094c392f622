/* prime_chocolate_oracle.h - brute-force referee for prime-chocolate.
 *
 * Plays the game straight from its rules by exhaustive game-tree search:
 * a state is the set of chocolate squares left plus the set of primes
 * already chosen.  It knows nothing about parity or 2 x 2 blocks, so it can
 * judge the fast solver.  Boards are plain row-major arrays of n*n bytes,
 * nonzero = chocolate. */
#ifndef GJ_PRIME_CHOCOLATE_ORACLE_H
#define GJ_PRIME_CHOCOLATE_ORACLE_H

/* The largest side and the most chocolate squares one search accepts. */
#define PC_ORACLE_MAX_SIDE      16
#define PC_ORACLE_MAX_CHOCOLATE 22

/* The judge output for the board: "RUBY\n" or "DIA\n".  NULL when the board
 * is beyond the limits above or memory runs out. */
const char *prime_chocolate_oracle(int n, const unsigned char *cell);

/* Solve every n x n board at once (n <= 4): out[mask] = 1 when Ruby wins the
 * board whose chocolate squares are the set bits of mask (bit i*n+j is row i,
 * column j), 0 when Dia wins; out has 2^(n*n) bytes.  Returns 0, or -1 when n
 * is out of range or memory runs out. */
int prime_chocolate_oracle_all(int n, unsigned char *out);

#endif
