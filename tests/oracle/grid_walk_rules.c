/* grid_walk_rules.c - grid-walk's part of the tests that walk every game
 * (game_rules.h): its positions read, judged and played by
 * grid_walk_oracle.h's brute force, never by the game's code, and its
 * pictures' edge positions. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games.h"
#include "grid_walk_oracle.h"
#include "game_rules.h"
#include "svg.h"
#define PR_CELLS 64 /* the largest board the test asks for, with room */

/* A position of grid-walk, read from its /analyze request. */
typedef struct state {
    char mover[PUZZLE_MOVER_MAX]; /* the player to move, as the game names it */
    int rows, cols;
    unsigned char on[PR_CELLS]; /* free */
    int path[PR_CELLS], plen;   /* the token's path, cells r * cols + c */
} state;

/* Whether cells a and b (r * cols + c) are side by side. */
static int gw_adjacent(const state *s, int a, int b)
{
    int dr = a / s->cols - b / s->cols, dc = a % s->cols - b % s->cols;
    return (dr == 0 && (dc == 1 || dc == -1)) || (dc == 0 && (dr == 1 || dr == -1));
}

/* {"grid","path"} into s, the path checked against the rules (free cells,
 * each next to the one before, none twice); A moves on an even path. */
static void gw_read(const json_t *o, void *v)
{
    state *s = v;
    const json_t *grid = json_object_get(o, "grid"), *path = json_object_get(o, "path");
    s->rows = (int)json_array_size(grid);
    s->cols = s->rows > 0 ? (int)strlen(json_string_value(json_array_get(grid, 0))) : 0;
    EXPECT(s->rows >= 1 && s->cols >= 1 && s->rows * s->cols <= PR_CELLS,
           "a %d x %d grid is beyond the test", s->rows, s->cols);
    for (int i = 0; i < s->rows; i++) {
        const char *row = json_string_value(json_array_get(grid, (size_t)i));
        EXPECT(row != NULL && strlen(row) == (size_t)s->cols, "grid row %d has the wrong length",
               i);
        for (int j = 0; j < s->cols; j++) {
            EXPECT(row[j] == '.' || row[j] == '#', "grid cell '%c' is neither '.' nor '#'", row[j]);
            s->on[i * s->cols + j] = row[j] == '.';
        }
    }
    EXPECT(json_is_array(path), "no path");
    for (size_t k = 0; k < json_array_size(path); k++) {
        int r, c;
        rules_read_cell(json_array_get(path, k), s->rows, s->cols, &r, &c);
        int cell = r * s->cols + c;
        EXPECT(s->on[cell], "path[%zu] is on a blocked cell", k);
        for (int q = 0; q < s->plen; q++)
            EXPECT(s->path[q] != cell, "path[%zu] revisits a cell", k);
        EXPECT(s->plen == 0 || gw_adjacent(s, s->path[s->plen - 1], cell),
               "path[%zu] is not next to the cell before it", k);
        s->path[s->plen++] = cell;
    }
    snprintf(s->mover, sizeof s->mover, "%s", s->plen % 2 == 0 ? "A" : "B");
}

/* Every placement (at the opening) or step to a free unvisited neighbour,
 * won iff the opponent then loses, by the game-tree oracle. */
static void gw_judge(const void *st, rules_verdict *v)
{
    const state *s = st;
    char cells[PR_CELLS];
    unsigned char visited[PR_CELLS] = {0};
    for (int i = 0; i < s->rows * s->cols; i++)
        cells[i] = s->on[i] ? '.' : '#';
    gw_tree *t = gw_tree_new(s->rows, s->cols, cells);
    EXPECT(t != NULL, "the grid has more free cells than the oracle takes");
    for (int q = 0; q < s->plen; q++)
        visited[s->path[q]] = 1;
    for (int w = 0; w < s->rows * s->cols; w++) {
        if (!s->on[w] || visited[w] || (s->plen > 0 && !gw_adjacent(s, s->path[s->plen - 1], w)))
            continue;
        visited[w] = 1;
        int opponent = gw_tree_mover_wins(t, w / s->cols, w % s->cols, visited);
        visited[w] = 0;
        rules_verdict_add(v, rules_cell_json(w / s->cols, w % s->cols), !opponent);
    }
    if (s->plen > 0) {
        int token = s->path[s->plen - 1];
        int wins = gw_tree_mover_wins(t, token / s->cols, token % s->cols, visited);
        EXPECT((v->n > 0 && v->best == 1) == (wins == 1),
               "the oracle's value is not its best move's");
    }
    gw_tree_free(t);
}

/* The move's cell joins the path. */
static void gw_play(void *st, const json_t *move)
{
    state *s = st;
    int r, c;
    rules_read_cell(move, s->rows, s->cols, &r, &c);
    s->path[s->plen++] = r * s->cols + c;
    snprintf(s->mover, sizeof s->mover, "%s", s->plen % 2 == 0 ? "A" : "B");
}

/* The grid-walk measure of stepping to (or, at the opening, placing on)
 * `move` from s, by the oracle. */
static double gw_look(const void *st, const json_t *move, int plies)
{
    const state *s = st;
    int r, c;
    rules_read_cell(move, s->rows, s->cols, &r, &c);
    char cells[PR_CELLS];
    for (int i = 0; i < s->rows * s->cols; i++)
        cells[i] = s->on[i] ? '.' : '#';
    int to = r * s->cols + c;
    double v;
    gw_oracle_look(s->rows, s->cols, cells, s->path, s->plen, &to, 1, plies, &v);
    return v;
}
/* A walk on an n x n free grid: the path snakes along `cells` cells. */
static json_t *walk_request(long n, long cells)
{
    json_t *path = json_array();
    for (long i = 0; i < cells; i++) {
        long r = i / n, c = r % 2 == 0 ? i % n : n - 1 - i % n;
        json_array_append_new(path, json_pack("[ii]", r + 1, c + 1));
    }
    json_t *req = json_object();
    json_object_set_new(req, "grid", rules_rows_of(n, n, '.'));
    json_object_set_new(req, "path", path);
    return req;
}

/* game_rules.h's picture_edge: a free n x n grid, n =
 * SVG_CELLS_MAX + past, walked along all its cells but one (none one over). */
static json_t *gw_picture_edge(int past, char *size, char *bound)
{
    long n = SVG_CELLS_MAX + past;
    rules_board_bound(size, bound);
    return walk_request(n, past ? 0 : n * n - 1);
}

/* game_rules.h's opening_oracle: the brute force's judge output. */
static char *gw_opening_oracle(const char *in)
{
    char word[128];
    const char *p = in;
    int rows = (int)rules_tok_long(&p), cols = (int)rules_tok_long(&p);
    char cells[1024] = "";
    for (int i = 0; i < rows; i++) {
        rules_tok_word(&p, word, sizeof word);
        strcat(cells, word);
    }
    return grid_walk_oracle(rows, cols, cells);
}

/* game_rules.h's in_play_oracle. */
static int gw_in_play_oracle(const json_t *pos, long long *value, long long *wins)
{
    const json_t *grid = json_object_get(pos, "grid"), *path = json_object_get(pos, "path");
    int rows = (int)json_array_size(grid);
    int cols = (int)strlen(json_string_value(json_array_get(grid, 0)));
    char cells[1024] = "";
    unsigned char seen[1024] = {0};
    for (int i = 0; i < rows; i++)
        strcat(cells, json_string_value(json_array_get(grid, (size_t)i)));
    gw_tree *t = gw_tree_new(rows, cols, cells);
    if (t == NULL)
        return 0;
    int r = 0, c = 0;
    for (size_t i = 0; i < json_array_size(path); i++) {
        r = (int)rules_at(json_array_get(path, i), 0) - 1;
        c = (int)rules_at(json_array_get(path, i), 1) - 1;
        seen[r * cols + c] = 1;
    }
    *value = gw_tree_mover_wins(t, r, c, seen) ? 1 : -1;
    *wins = 0;
    static const int dr[4] = {1, -1, 0, 0}, dc[4] = {0, 0, 1, -1};
    for (int d = 0; d < 4; d++) {
        int nr = r + dr[d], nc = c + dc[d];
        if (nr < 0 || nr >= rows || nc < 0 || nc >= cols || cells[nr * cols + nc] != '.' ||
            seen[nr * cols + nc])
            continue;
        seen[nr * cols + nc] = 1;
        *wins += !gw_tree_mover_wins(t, nr, nc, seen);
        seen[nr * cols + nc] = 0;
    }
    gw_tree_free(t);
    return 1;
}

/* game_rules.h's opening_score. */
static long long gw_opening_score(const json_t *a)
{
    return strcmp(json_string_value(json_object_get(a, "verdict")), "WIN") == 0 ? 1 : -1;
}

const game_rules rules_grid_walk = {
    .game = &game_grid_walk,
    .knobs = "{\"rows\": 4, \"cols\": 4}",
    .depth2 = PUZZLE_DEPTH2_SEEDS,
    .scored = 0,
    .state_size = sizeof(state),
    .read = gw_read,
    .judge = gw_judge,
    .play = gw_play,
    .look = gw_look,
    .picture_edge = gw_picture_edge,
    .opening_oracle = gw_opening_oracle,
    .in_play_oracle = gw_in_play_oracle,
    .opening_score = gw_opening_score,
};
