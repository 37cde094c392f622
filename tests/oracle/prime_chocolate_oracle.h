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

/* Trial division: 1 when p is a prime. */
int prime_chocolate_oracle_is_prime(int p);

/* Solve every n x n board at once (n <= 4): out[mask] = 1 when Ruby wins the
 * board whose chocolate squares are the set bits of mask (bit i*n+j is row i,
 * column j), 0 when Dia wins; out has 2^(n*n) bytes.  Returns 0, or -1 when n
 * is out of range or memory runs out. */
int prime_chocolate_oracle_all(int n, unsigned char *out);

/* One legal move of a mid-play position and the value after it. */
typedef struct pc_oracle_move {
    int row, col, size; /* the square's top-left (0-based) and side */
    int opponent_wins;  /* 1 when the player to move after it wins */
    int remoteness;     /* after it (prime_chocolate_oracle_far only; else -1) */
} pc_oracle_move;

/* A position in the middle of play: the board and the primes already chosen
 * (used[p] != 0 for each, n+1 flags; NULL for none).  Returns 1 when the
 * player to move wins, 0 when not, -1 beyond the limits above or out of
 * memory.  *count (when not NULL) gets the number of legal moves, and the
 * first `cap` of them go to moves[] (when not NULL) with their outcomes, in
 * no promised order.  One search answers the position and every move. */
int prime_chocolate_oracle_mid(int n, const unsigned char *cell, const unsigned char *used,
                               pc_oracle_move *moves, int cap, int *count);

/* prime_chocolate_oracle_mid, plus the remoteness of the position in
 * *remoteness and of each move's in moves[i].remoteness: the moves left
 * to the end with the winner hurrying and the loser delaying (0 with no
 * chocolate; when the mover wins, 1 + the least over moves to a lost
 * position; else 1 + the greatest over all moves). */
int prime_chocolate_oracle_far(int n, const unsigned char *cell, const unsigned char *used,
                               pc_oracle_move *moves, int cap, int *count, int *remoteness);

/* The puzzle's parts from the rules, by plain enumeration of the legal
 * moves (no search, so any side up to PC_ORACLE_MAX_SIDE and any amount of
 * chocolate): the board in play (used[p] != 0 for the primes chosen, n+1
 * flags) and one legal move, the square of side `size` at (row, col).
 *
 * The bounded finder's view of the move, `plies` (1 or 2) ahead: with L
 * the chocolate before the move, in squares over L, the squares the mover
 * ate minus those the opponent ate; plus (t^2 L + c) / (4 L^2) for the
 * player to move after the look, or minus it for their opponent, t the
 * largest side of a legal square there and c the legal squares of that
 * side; and for each bite, a / (16 L + 4) against its eater, a the
 * chocolate squares sharing an edge with it when it was eaten.  +1 when
 * the mover ate the last square, -1 when the opponent did; at 2 plies the
 * least over every legal reply.  Each value is one integer over
 * 4 L^3 (4 L + 1), divided once. */
double prime_chocolate_oracle_look(int n, const unsigned char *cell, const unsigned char *used,
                                   int row, int col, int size, int plies);

/* The motifs the move shows as the solving one: bit 0 prime-bite (an odd
 * prime side), bit 1 nibble (one square while a legal move of a larger
 * side exists), bit 2 parity-flip (the 2 x 2 bite). */
unsigned prime_chocolate_oracle_motifs(int n, const unsigned char *cell, const unsigned char *used,
                                       int row, int col, int size);

#endif
