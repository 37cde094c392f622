/* nim_shortcuts_rules.c - nim-shortcuts's part of the tests that walk every game
 * (game_rules.h): its positions read, judged and played by
 * nim_shortcuts_oracle.h's brute force, never by the game's code, and its
 * pictures' edge positions. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games.h"
#include "nim_shortcuts_oracle.h"
#include "game_rules.h"
#include "svg.h"
#include "nim_shortcuts_tree.h"

#define PR_SHORTCUTS 32 /* the most shortcuts the test reads */
#define PR_CELLS     64 /* the largest board the test asks for, with room */

/* A position of nim-shortcuts, read from its /analyze request. */
typedef struct state {
    char mover[PUZZLE_MOVER_MAX]; /* the player to move, as the game names it */
    long heap[2];
    long sx[PR_SHORTCUTS], sy[PR_SHORTCUTS];
    int nshort;
} state;

/* {"shortcuts","heaps","to_move"?} into s ("first" when absent). */
static void ns_read(const json_t *o, void *v)
{
    state *s = v;
    const json_t *sc = json_object_get(o, "shortcuts"), *heaps = json_object_get(o, "heaps");
    EXPECT(json_array_size(sc) <= PR_SHORTCUTS, "too many shortcuts for the test");
    for (size_t i = 0; i < json_array_size(sc); i++) {
        const json_t *p = json_array_get(sc, i);
        EXPECT(json_array_size(p) == 2, "shortcut %zu is not [x, y]", i);
        s->sx[i] = (long)json_integer_value(json_array_get(p, 0));
        s->sy[i] = (long)json_integer_value(json_array_get(p, 1));
    }
    s->nshort = (int)json_array_size(sc);
    EXPECT(json_array_size(heaps) == 2, "heaps is not [x, y]");
    for (int i = 0; i < 2; i++) {
        s->heap[i] = (long)json_integer_value(json_array_get(heaps, (size_t)i));
        EXPECT(s->heap[i] >= 0 && s->heap[i] <= 1000, "heap %ld is beyond the test", s->heap[i]);
    }
    rules_read_mover(o, "first", s->mover);
}

/* At a shortcut the mover has lost and has no move; elsewhere every take
 * from one heap, won iff it reaches a position the tree says is lost. */
static void ns_judge(const void *st, rules_verdict *v)
{
    const state *s = st;
    nim_tree t;
    long x = s->heap[0], y = s->heap[1];
    EXPECT(nim_tree_build(&t, s->sx, s->sy, s->nshort, x + 1, y + 1) == 0, "out of memory");
    if (!nim_tree_is_shortcut(&t, x, y)) {
        for (long take = 1; take <= x; take++)
            rules_verdict_add(v, json_pack("{s:i,s:I}", "heap", 1, "take", (json_int_t)take),
                              nim_tree_loses(&t, x - take, y));
        for (long take = 1; take <= y; take++)
            rules_verdict_add(v, json_pack("{s:i,s:I}", "heap", 2, "take", (json_int_t)take),
                              nim_tree_loses(&t, x, y - take));
    }
    int wins = !nim_tree_loses(&t, x, y);
    EXPECT((v->n > 0 && v->best == 1) == wins, "the tree's value is not its best move's");
    nim_tree_free(&t);
}

/* The move's stones leave its heap; the other player moves. */
static void ns_play(void *st, const json_t *move)
{
    state *s = st;
    long long heap = rules_int_member(move, "heap"), take = rules_int_member(move, "take");
    EXPECT((heap == 1 || heap == 2) && take >= 1 && take <= s->heap[heap - 1], "a bad take");
    s->heap[heap - 1] -= (long)take;
    rules_swap_mover(s->mover, "first", "second");
}

/* The nim-shortcuts measure of the take `move` from s, by the oracle. */
static double ns_look(const void *st, const json_t *move, int plies)
{
    const state *s = st;
    return nim_shortcuts_oracle_look(s->sx, s->sy, s->nshort, s->heap[0], s->heap[1],
                                     (int)rules_int_member(move, "heap"),
                                     (long)rules_int_member(move, "take"), plies);
}
/* Nim heaps [h, h] with `count` shortcuts within reach, [i, i + 1]. */
static json_t *nim_request(long count, long h)
{
    json_t *s = json_array();
    for (long i = 0; i < count; i++)
        json_array_append_new(s, json_pack("[ii]", i * (h / count), i * (h / count) + 1));
    json_t *req = json_object();
    json_object_set_new(req, "shortcuts", s);
    json_object_set_new(req, "heaps", json_pack("[ii]", h, h));
    return req;
}

/* game_rules.h's picture_edge: the shortcuts are the bound. */
static json_t *ns_picture_edge(int past, char *size, char *bound)
{
    snprintf(size, 32, "%d", SVG_CELLS_MAX * SVG_CELLS_MAX + 1);
    snprintf(bound, 32, "%d", SVG_CELLS_MAX * SVG_CELLS_MAX);
    return nim_request((long)SVG_CELLS_MAX * SVG_CELLS_MAX + past, 1000000000L);
}

/* game_rules.h's opening_oracle: the brute force's judge output. */
static char *ns_opening_oracle(const char *in)
{
    const char *p = in;
    long n = rules_tok_long(&p), m = rules_tok_long(&p), sx[64], sy[64], qa[1], qb[1];
    ck_assert_int_le(n, 64);
    ck_assert_int_eq(m, 1);
    for (long i = 0; i < n; i++) {
        sx[i] = rules_tok_long(&p);
        sy[i] = rules_tok_long(&p);
    }
    qa[0] = rules_tok_long(&p);
    qb[0] = rules_tok_long(&p);
    return nim_shortcuts_oracle(sx, sy, n, qa, qb, 1);
}

/* game_rules.h's in_play_oracle. */
static int ns_in_play_oracle(const json_t *pos, long long *value, long long *wins)
{
    const json_t *s = json_object_get(pos, "shortcuts"), *h = json_object_get(pos, "heaps");
    long n = (long)json_array_size(s), sx[64], sy[64], qa[256], qb[256], m = 0;
    long x = rules_at(h, 0), y = rules_at(h, 1);
    ck_assert_int_le(n, 64);
    ck_assert_int_lt(x + y, 255);
    for (long i = 0; i < n; i++) {
        sx[i] = rules_at(json_array_get(s, (size_t)i), 0);
        sy[i] = rules_at(json_array_get(s, (size_t)i), 1);
    }
    qa[m] = x;
    qb[m++] = y;
    for (long i = 0; i < x; i++, m++) {
        qa[m] = i;
        qb[m] = y;
    }
    for (long j = 0; j < y; j++, m++) {
        qa[m] = x;
        qb[m] = j;
    }
    char *text = nim_shortcuts_oracle(sx, sy, n, qa, qb, m);
    ck_assert_ptr_nonnull(text);
    int shortcut = 0;
    for (long i = 0; i < n; i++)
        shortcut |= sx[i] == x && sy[i] == y;
    *value = strncmp(text, "WIN", 3) == 0 ? 1 : -1;
    *wins = 0;
    for (const char *line = strchr(text, '\n') + 1; *line != '\0'; line = strchr(line, '\n') + 1)
        *wins += !shortcut && strncmp(line, "LOSE", 4) == 0;
    free(text);
    return 1;
}

/* game_rules.h's opening_score. */
static long long ns_opening_score(const json_t *a)
{
    return strcmp(json_string_value(json_array_get(json_object_get(a, "answers"), 0)), "WIN") == 0
               ? 1
               : -1;
}

const game_rules rules_nim_shortcuts = {
    .game = &game_nim_shortcuts,
    .knobs = "{\"shortcuts\": 3, \"range\": 8}",
    .depth2 = PUZZLE_DEPTH2_SEEDS,
    .scored = 0,
    .state_size = sizeof(state),
    .read = ns_read,
    .judge = ns_judge,
    .play = ns_play,
    .look = ns_look,
    .picture_edge = ns_picture_edge,
    .opening_oracle = ns_opening_oracle,
    .in_play_oracle = ns_in_play_oracle,
    .opening_score = ns_opening_score,
};
