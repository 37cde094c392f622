/* play_matrix_game.c - matrix-game's side of the scripted games (play.h).
 *
 * A state is a small board (n 3..6, a random k), the token (or the opening,
 * where M places it) and the player to move.  The game never ends (10^100
 * moves), so a scripted game stops after PLIES moves; at every engine turn
 * the test compares /analyze's value with the oracle's finite minimax of the
 * score margin (matrix_game_oracle_moves), which decides mid-play positions
 * straight from the rules.  The scores collected so far are not part of the
 * state: they are negligible against the moves still to come. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "matrix_game_oracle.h"
#include "play.h"

#define PLIES 12

typedef struct mg_state {
    int n, k;
    int value[MG_ORACLE_MAX_SIDE * MG_ORACLE_MAX_SIDE]; /* row-major */
    int token;                                          /* row-major index, -1 at the opening */
    char to_move;                                       /* 'M' or 'G' */
    int plies;                                          /* moves made since start() */
} mg_state;

static void *start(unsigned seed)
{
    mg_state *s = calloc(1, sizeof *s);
    if (s == NULL)
        return NULL;
    unsigned rng = seed * 2654435761u + 1658u;
    s->n = 3 + (int)(play_random(&rng) % 4);
    s->k = 1 + (int)(play_random(&rng) % (unsigned)(s->n - 2));
    int cells = s->n * s->n;
    for (int c = 0; c < cells; c++)
        s->value[c] = c + 1;
    for (int c = cells - 1; c > 0; c--) {
        int d = (int)(play_random(&rng) % (unsigned)(c + 1)), t = s->value[c];
        s->value[c] = s->value[d];
        s->value[d] = t;
    }
    if (play_random(&rng) % 3 == 0) {
        s->token = -1;
        s->to_move = 'M';
    } else {
        s->token = (int)(play_random(&rng) % (unsigned)cells);
        s->to_move = play_random(&rng) % 2 ? 'M' : 'G';
    }
    return s;
}

static char *request(const void *state)
{
    const mg_state *s = state;
    size_t cap = 128 + 8 * (size_t)(s->n * s->n), used;
    char *body = malloc(cap);
    if (body == NULL)
        return NULL;
    used = (size_t)snprintf(body, cap, "{\"k\": %d, \"matrix\": [", s->k);
    for (int i = 0; i < s->n; i++) {
        for (int j = 0; j < s->n; j++)
            used += (size_t)snprintf(body + used, cap - used, "%s%d",
                                     j == 0 ? (i == 0 ? "[" : ", [") : ",", s->value[i * s->n + j]);
        used += (size_t)snprintf(body + used, cap - used, "]");
    }
    used += (size_t)snprintf(body + used, cap - used, "]");
    if (s->token >= 0)
        used += (size_t)snprintf(body + used, cap - used, ", \"token\": [%d, %d]",
                                 s->token / s->n + 1, s->token % s->n + 1);
    snprintf(body + used, cap - used, ", \"to_move\": \"%c\"}", s->to_move);
    return body;
}

static long oracle_value(const void *state)
{
    const mg_state *s = state;
    signed char outcome[MG_ORACLE_MAX_SIDE * MG_ORACLE_MAX_SIDE];
    /* -1 (the oracle did not settle) matches no answer, so the test says so. */
    return matrix_game_oracle_moves(s->n, s->k, s->value, s->token, outcome);
}

static int over(const void *state)
{
    const mg_state *s = state;
    return s->plies >= PLIES;
}

static void move_to(mg_state *s, int cell)
{
    s->token = cell;
    s->to_move = s->to_move == 'M' ? 'G' : 'M';
    s->plies++;
}

/* `move` is [row, column], 1-based: any cell at the opening, else a cell
 * farther than k from the token. */
static long apply(void *state, const json_t *move)
{
    mg_state *s = state;
    if (!json_is_array(move) || json_array_size(move) != 2 ||
        !json_is_integer(json_array_get(move, 0)) || !json_is_integer(json_array_get(move, 1)))
        return -1;
    json_int_t r = json_integer_value(json_array_get(move, 0)) - 1;
    json_int_t c = json_integer_value(json_array_get(move, 1)) - 1;
    if (r < 0 || r >= s->n || c < 0 || c >= s->n)
        return -1;
    if (s->token >= 0) {
        long dist = labs((long)r - s->token / s->n) + labs((long)c - s->token % s->n);
        if (dist <= s->k)
            return -1;
    }
    move_to(s, (int)(r * s->n + c));
    return 0;
}

/* A random winning move when there is one, else a random legal move (all
 * lose equally). */
static void oracle_move(void *state, unsigned *rng)
{
    mg_state *s = state;
    signed char outcome[MG_ORACLE_MAX_SIDE * MG_ORACLE_MAX_SIDE];
    int wins = matrix_game_oracle_moves(s->n, s->k, s->value, s->token, outcome);
    int want = wins > 0 ? 1 : 0, choices[MG_ORACLE_MAX_SIDE * MG_ORACLE_MAX_SIDE], count = 0;
    for (int d = 0; d < s->n * s->n; d++)
        if (outcome[d] == want || (wins < 0 && outcome[d] >= 0))
            choices[count++] = d;
    if (count > 0)
        move_to(s, choices[play_random(rng) % (unsigned)count]);
}

static void free_state(void *state)
{
    free(state);
}

const play_game play_matrix_game = {
    .name = "matrix-game",
    .scored = 0,
    .start = start,
    .request = request,
    .oracle_value = oracle_value,
    .over = over,
    .apply = apply,
    .oracle_move = oracle_move,
    .free_state = free_state,
};
