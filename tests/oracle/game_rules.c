/* game_rules.c - the table of every game's puzzle rules, from games.def,
 * and the small readers the games' rules share (game_rules.h). */
#include "game_rules.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "svg.h"

/* The table, in games.def's order. */
static const game_rules *const all[] = {
#define GAME(ident, url_name) &rules_##ident,
#include "games.def"
#undef GAME
};

/* game_rules.h's game_rules_all. */
const game_rules *const *game_rules_all(size_t *count)
{
    *count = sizeof all / sizeof all[0];
    return all;
}

/* game_rules.h's rules_verdict_add. */
void rules_verdict_add(rules_verdict *v, json_t *move, long score)
{
    EXPECT(move != NULL, "out of memory");
    EXPECT(v->n < PUZZLE_MAX_MOVES, "more than %d legal moves", PUZZLE_MAX_MOVES);
    if (v->n == 0 || score > v->best)
        v->best = score;
    if (v->n == 0 || score < v->worst)
        v->worst = score;
    v->move[v->n] = move;
    v->score[v->n++] = score;
}

/* game_rules.h's rules_cell_json. */
json_t *rules_cell_json(int r, int c)
{
    return json_pack("[i,i]", r + 1, c + 1);
}

/* game_rules.h's rules_read_cell. */
void rules_read_cell(const json_t *v, int rows, int cols, int *r, int *c)
{
    EXPECT(json_is_array(v) && json_array_size(v) == 2, "a cell is not [row, column]");
    long long i = json_integer_value(json_array_get(v, 0));
    long long j = json_integer_value(json_array_get(v, 1));
    EXPECT(i >= 1 && i <= rows && j >= 1 && j <= cols, "cell [%lld, %lld] is off the board", i, j);
    *r = (int)i - 1;
    *c = (int)j - 1;
}

/* game_rules.h's rules_int_member. */
long long rules_int_member(const json_t *o, const char *key)
{
    const json_t *v = json_object_get(o, key);
    EXPECT(json_is_integer(v), "member %s is not an integer", key);
    return json_integer_value(v);
}

/* game_rules.h's rules_read_mover. */
void rules_read_mover(const json_t *o, const char *fallback, char *mover)
{
    const json_t *v = json_object_get(o, "to_move");
    const char *name = v == NULL || json_is_null(v) ? fallback : json_string_value(v);
    EXPECT(name != NULL && strlen(name) < PUZZLE_MOVER_MAX, "to_move is not a name");
    snprintf(mover, PUZZLE_MOVER_MAX, "%s", name);
}

/* game_rules.h's rules_swap_mover. */
void rules_swap_mover(char *mover, const char *one, const char *other)
{
    EXPECT(strcmp(mover, one) == 0 || strcmp(mover, other) == 0, "unknown mover %s", mover);
    snprintf(mover, PUZZLE_MOVER_MAX, "%s", strcmp(mover, one) == 0 ? other : one);
}

/* game_rules.h's rules_rows_of. */
json_t *rules_rows_of(long rows, long cols, char c)
{
    json_t *grid = json_array();
    char *row = malloc((size_t)cols + 1);
    EXPECT(grid != NULL && row != NULL, "out of memory");
    memset(row, c, (size_t)cols);
    row[cols] = '\0';
    for (long r = 0; r < rows; r++)
        json_array_append_new(grid, json_string(row));
    free(row);
    return grid;
}

/* game_rules.h's rules_board_bound. */
void rules_board_bound(char *size, char *bound)
{
    snprintf(size, 32, "%d x %d", SVG_CELLS_MAX + 1, SVG_CELLS_MAX + 1);
    snprintf(bound, 32, "%d x %d", SVG_CELLS_MAX, SVG_CELLS_MAX);
}

/* game_rules.h's rules_tok_long. */
long rules_tok_long(const char **p)
{
    char *end;
    long v = strtol(*p, &end, 10);
    EXPECT(end != *p, "no integer in the judge text at '%.20s'", *p);
    *p = end;
    return v;
}

/* game_rules.h's rules_tok_word. */
void rules_tok_word(const char **p, char *out, size_t cap)
{
    size_t n = 0;
    while (**p == ' ' || **p == '\n')
        (*p)++;
    while (**p != '\0' && **p != ' ' && **p != '\n' && n + 1 < cap)
        out[n++] = *(*p)++;
    out[n] = '\0';
}

/* game_rules.h's rules_at. */
long rules_at(const json_t *v, size_t i)
{
    EXPECT(json_is_integer(json_array_get(v, i)), "element %zu is not an integer", i);
    return (long)json_integer_value(json_array_get(v, i));
}
