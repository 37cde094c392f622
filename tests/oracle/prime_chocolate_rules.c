/* prime_chocolate_rules.c - prime-chocolate's part of the tests that walk every game
 * (game_rules.h): its positions read, judged and played by
 * prime_chocolate_oracle.h's brute force, never by the game's code, and its
 * pictures' edge positions. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games.h"
#include "prime_chocolate_oracle.h"
#include "game_rules.h"
#include "svg.h"
#define PR_CELLS 64 /* the largest board the test asks for, with room */

/* A position of prime-chocolate, read from its /analyze request. */
typedef struct state {
    char mover[PUZZLE_MOVER_MAX];     /* the player to move, as the game names it */
    int rows, cols;                   /* the n x n bar */
    unsigned char on[PR_CELLS];       /* chocolate left */
    unsigned char used[PR_CELLS + 1]; /* the primes chosen */
} state;

/* {"grid" ('-' chocolate, 'X' eaten),"primes_used"?,"to_move"?} into s
 * (RUBY when absent). */
static void pc_read(const json_t *o, void *v)
{
    state *s = v;
    const json_t *grid = json_object_get(o, "grid"), *used = json_object_get(o, "primes_used");
    int n = (int)json_array_size(grid);
    EXPECT(n >= 1 && n * n <= PR_CELLS && n <= PC_ORACLE_MAX_SIDE, "a bar of side %d", n);
    s->rows = s->cols = n;
    for (int i = 0; i < n; i++) {
        const char *row = json_string_value(json_array_get(grid, (size_t)i));
        EXPECT(row != NULL && strlen(row) == (size_t)n, "bar row %d has the wrong length", i);
        for (int j = 0; j < n; j++) {
            EXPECT(row[j] == '-' || row[j] == 'X', "bar square '%c' is neither '-' nor 'X'",
                   row[j]);
            s->on[i * n + j] = row[j] == '-';
        }
    }
    for (size_t i = 0; i < json_array_size(used); i++) {
        long long p = json_integer_value(json_array_get(used, i));
        EXPECT(p >= 2 && p <= n && prime_chocolate_oracle_is_prime((int)p), "a bad prime");
        s->used[p] = 1;
    }
    rules_read_mover(o, "RUBY", s->mover);
}

/* Every square the oracle allows, won iff the opponent then loses. */
static void pc_judge(const void *st, rules_verdict *v)
{
    const state *s = st;
    pc_oracle_move moves[PUZZLE_MAX_MOVES];
    int count = 0;
    int wins = prime_chocolate_oracle_mid(s->rows, s->on, s->used, moves, PUZZLE_MAX_MOVES, &count);
    EXPECT(wins >= 0, "the bar is beyond the prime-chocolate oracle");
    EXPECT(count <= PUZZLE_MAX_MOVES, "%d moves, more than the test holds", count);
    for (int i = 0; i < count; i++)
        rules_verdict_add(v,
                          json_pack("{s:i,s:i,s:i}", "row", moves[i].row + 1, "col",
                                    moves[i].col + 1, "size", moves[i].size),
                          !moves[i].opponent_wins);
    EXPECT((v->n > 0 && v->best == 1) == (wins == 1), "the oracle's value is not its best move's");
}

/* The move's square is eaten, its prime (side above 1) is used; the other
 * player moves. */
static void pc_play(void *st, const json_t *move)
{
    state *s = st;
    int row = (int)rules_int_member(move, "row") - 1, col = (int)rules_int_member(move, "col") - 1;
    int size = (int)rules_int_member(move, "size"), n = s->rows;
    EXPECT(row >= 0 && col >= 0 && size >= 1 && row + size <= n && col + size <= n, "bad square");
    for (int i = row; i < row + size; i++)
        for (int j = col; j < col + size; j++) {
            EXPECT(s->on[i * n + j], "the square eats an eaten square");
            s->on[i * n + j] = 0;
        }
    if (size > 1) {
        EXPECT(!s->used[size], "prime %d used twice", size);
        s->used[size] = 1;
    }
    rules_swap_mover(s->mover, "RUBY", "DIA");
}

/* The prime-chocolate measure of the square `move` of s, by the oracle. */
static double pc_look(const void *st, const json_t *move, int plies)
{
    const state *s = st;
    return prime_chocolate_oracle_look(
        s->rows, s->on, s->used, (int)rules_int_member(move, "row") - 1,
        (int)rules_int_member(move, "col") - 1, (int)rules_int_member(move, "size"), plies);
}

/* No depth-2 puzzles at any size, by the parity argument of
 * prime_chocolate_analysis.c: with the 2 x 2 used every move has the same
 * outcome; on an even bar a 2 x 2 move wins whenever one is left (and
 * nothing wins without one), so a single solving move there is that 2 x 2;
 * on an odd bar the winning moves are odd ones that leave no full 2 x 2, so
 * the attacker's next bar is odd with none either, where every move wins.
 * (1,768 candidates on 4 x 4 found none, as it says.) */
/* game_rules.h's picture_edge: a full bar of side SVG_CELLS_MAX + past. */
static json_t *pc_picture_edge(int past, char *size, char *bound)
{
    long n = SVG_CELLS_MAX + past;
    rules_board_bound(size, bound);
    json_t *req = json_object();
    json_object_set_new(req, "grid", rules_rows_of(n, n, '-'));
    return req;
}

/* game_rules.h's opening_oracle: the brute force's judge output. */
static char *pc_opening_oracle(const char *in)
{
    char word[128];
    const char *p = in;
    int n = (int)rules_tok_long(&p);
    unsigned char cell[PC_ORACLE_MAX_SIDE * PC_ORACLE_MAX_SIDE];
    if (n > PC_ORACLE_MAX_SIDE)
        return NULL;
    for (int i = 0; i < n; i++) {
        rules_tok_word(&p, word, sizeof word);
        for (int j = 0; j < n; j++)
            cell[i * n + j] = word[j] == '-';
    }
    const char *r = prime_chocolate_oracle(n, cell);
    return r ? strdup(r) : NULL;
}

/* game_rules.h's in_play_oracle. */
static int pc_in_play_oracle(const json_t *pos, long long *value, long long *wins)
{
    (void)wins; /* the oracle judges the bar, not each move */
    const json_t *grid = json_object_get(pos, "grid");
    int n = (int)json_array_size(grid);
    unsigned char cell[PC_ORACLE_MAX_SIDE * PC_ORACLE_MAX_SIDE];
    if (n > PC_ORACLE_MAX_SIDE || json_array_size(json_object_get(pos, "primes_used")) > 0)
        return 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            cell[i * n + j] = json_string_value(json_array_get(grid, (size_t)i))[j] == '-';
    const char *r = prime_chocolate_oracle(n, cell);
    if (r == NULL)
        return 0;
    *value = strcmp(r, "RUBY\n") == 0 ? 1 : -1;
    return 2;
}

/* game_rules.h's opening_score. */
static long long pc_opening_score(const json_t *a)
{
    return strcmp(json_string_value(json_object_get(a, "winner")), "RUBY") == 0 ? 1 : -1;
}

const game_rules rules_prime_chocolate = {
    .game = &game_prime_chocolate,
    .knobs = "{\"n\": 4}",
    .depth2 = 0,
    .scored = 0,
    .state_size = sizeof(state),
    .read = pc_read,
    .judge = pc_judge,
    .play = pc_play,
    .look = pc_look,
    .picture_edge = pc_picture_edge,
    .opening_oracle = pc_opening_oracle,
    .in_play_oracle = pc_in_play_oracle,
    .opening_score = pc_opening_score,
};
