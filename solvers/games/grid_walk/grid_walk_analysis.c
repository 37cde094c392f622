/* grid_walk_analysis.c - POST /analyze/grid-walk: a walk in progress.
 *
 * The position is the grid and the token's path so far.  Let H be the
 * graph of the cells the token may still use: the free cells off the path,
 * plus the token's own cell v.  The solver's argument (grid_walk.c) holds
 * in H as it does in the whole grid: the player to move from v loses
 * exactly when some maximum matching of H leaves v unmatched, that is when
 * H - v has a maximum matching as large as H's.  A move to w leaves the
 * opponent to move from w in H - v, so it wins exactly when some maximum
 * matching of H - v misses w.
 *
 * So: one maximum matching of H (the solver's matcher, on a grid with the
 * path blocked), then take v out and repair the matching with one
 * augmenting search from v's old mate (the maximum shrinks iff the mover
 * wins), then one alternating BFS marks the cells of H - v that some
 * maximum matching misses: the winning moves.  An empty path is the
 * opening, A placing the token, and that is the solve itself: A wins by
 * placing it on a winning start cell.  Either way the cost is one solve.
 *
 * Remoteness (analysis.h) is a search from the rules (grid_walk_far.c),
 * exact on components of at most 128 cells and within the state bound,
 * else null for the position and every move.  Where it is known the search
 * also decides every outcome, and the matching must agree (GJ_INTERNAL
 * if not); the moves are then ranked by it (fastest win, slowest loss),
 * row-major after that.
 *
 * The parsed position (game.h's gj_play, grid_walk_play below) is what
 * analyze() wraps and what the perfect-play line plays on.  Its matching
 * lives as long as the position: after the move from v the cells left are
 * H - v, whose maximum matching the analysis already has, so each move of
 * a line costs one augmenting search and one BFS, not a new matching. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "analysis_read.h"
#include "grid_walk.h"
#include "grid_walk_core.h"
#include "grid_walk_matching.h"
#include "json_in.h"

/* Who moves once the path is `visited` cells long: A places the token
 * (0), then B moves first from it (1), then A (2), and so on. */
static const char *mover(long visited)
{
    return visited % 2 == 0 ? "A" : "B";
}

/* Cell c as [row, column], 1-based. */
static void put_cell(gj_buf *out, const gw_position *pos, int c)
{
    buf_putc(out, '[');
    buf_put_long(out, gw_cell_row(pos, c));
    buf_putc(out, ',');
    buf_put_long(out, gw_cell_col(pos, c));
    buf_putc(out, ']');
}

/* An entry's members up to the value of its "after": the token goes to c,
 * the move's outcome for its mover and rem, the remoteness after it (or
 * ANALYSIS_REMOTENESS_NULL), in the order of analysis.h's entries. */
static void put_entry_head(gj_buf *out, const gw_position *pos, int c, int wins, long long rem)
{
    buf_puts(out, "\"move\":");
    put_cell(out, pos, c);
    buf_puts(out, ",\"outcome\":\"");
    buf_puts(out, analysis_outcome(wins));
    buf_putc(out, '"');
    analysis_put_remoteness(out, rem);
    buf_puts(out, ",\"after\":");
}

/* The diff of the move to c, which makes the path `visited` long. */
static void put_diff(gj_buf *out, const gw_position *pos, int c, long visited)
{
    buf_puts(out, "{\"token\":");
    put_cell(out, pos, c);
    buf_puts(out, ",\"to_move\":\"");
    buf_puts(out, mover(visited));
    buf_puts(out, "\",\"visited\":");
    buf_put_long(out, visited);
    buf_putc(out, '}');
}

/* The optional "token", "to_move" and "visited" (a whole "after" carries
 * them): the path decides each, so each must say what the path says (the
 * token its last cell, to_move its mover, visited its length).  0, or -1
 * with *e naming the member. */
static int check_said(const json_t *root, const gw_position *pos, const int *path, long n,
                      gj_error *e)
{
    const json_t *token = json_object_get(root, "token"),
                 *to_move = json_object_get(root, "to_move");
    const json_t *visited = json_object_get(root, "visited");
    if (token != NULL && n == 0 && !json_is_null(token))
        return gj_fail_field(e, "token", "the path is empty, so the token is not placed yet");
    if (token != NULL && n > 0) {
        long r = gw_cell_row(pos, path[n - 1]), c = gw_cell_col(pos, path[n - 1]);
        const json_t *tr = json_array_get(token, 0), *tc = json_array_get(token, 1);
        if (json_array_size(token) != 2 || json_integer_value(tr) != r ||
            json_integer_value(tc) != c || !json_is_integer(tr) || !json_is_integer(tc))
            return gj_fail_field(e, "token", "must be the path's last cell, [%ld, %ld]", r, c);
    }
    const char *who = mover(n);
    if (to_move != NULL &&
        !(json_is_string(to_move) && strcmp(json_string_value(to_move), who) == 0))
        return gj_fail_field(e, "to_move", "after a path of %ld cells it is \"%s\" to move", n,
                             who);
    if (visited != NULL && !(json_is_integer(visited) && json_integer_value(visited) == n))
        return gj_fail_field(e, "visited", "must be the path's length, %ld", n);
    return 0;
}

/* ---- remoteness ---- */

/* A move with what the search says of it. */
typedef struct far_move {
    int cell;
    int wins;      /* for the mover */
    long long rem; /* after it */
} far_move;

/* The ranking with remoteness known: by remoteness (analysis.h), then
 * row-major (padded cells are row-major). */
static int far_cmp(const void *pa, const void *pb)
{
    const far_move *a = pa, *b = pb;
    int by = analysis_rank_remoteness(a->wins, a->rem, b->wins, b->rem);
    return by != 0 ? by : (a->cell > b->cell) - (a->cell < b->cell);
}

/* The remoteness of a position from its moves' values after (2 * r + the
 * mover there wins), by the definition: ANALYSIS_REMOTENESS_NULL when one
 * is unknown. */
static long long remoteness_of(const far_move *m, long n)
{
    long long fastest_win = -1, slowest = -1;
    for (long i = 0; i < n; i++) {
        if (m[i].rem < 0)
            return ANALYSIS_REMOTENESS_NULL;
        if (m[i].wins && (fastest_win < 0 || m[i].rem < fastest_win))
            fastest_win = m[i].rem;
        if (m[i].rem > slowest)
            slowest = m[i].rem;
    }
    return 1 + (fastest_win >= 0 ? fastest_win : slowest);
}

/* The search's word on the opening: every free cell's placement into m
 * (row-major, with the matching's outcome in wins), its remoteness after
 * in rem (ANALYSIS_REMOTENESS_NULL for all when one is past the bound).
 * 0, or -1 with *e (GJ_INTERNAL when the search and the matching differ). */
static int far_opening(const gw_position *pos, far_move *m, long n, gj_error *e)
{
    gw_far *f = gw_far_new(pos, e);
    if (f == NULL)
        return -1;
    long past = 0;
    for (long i = 0; i < n && !past; i++) {
        long v = gw_far_walk(f, m[i].cell, NULL, 0, NULL, e);
        if (v == -1) {
            gw_far_free(f);
            return -1;
        }
        past = v == GW_FAR_PAST;
        m[i].rem = past ? ANALYSIS_REMOTENESS_NULL : v / 2;
        if (!past && (v % 2 == 0) != m[i].wins) {
            gw_far_free(f);
            return gj_fail(e, GJ_INTERNAL,
                           "grid-walk: the search and the matching differ at [%ld, %ld]",
                           gw_cell_row(pos, m[i].cell), gw_cell_col(pos, m[i].cell));
        }
    }
    gw_far_free(f);
    for (long i = 0; past && i < n; i++)
        m[i].rem = ANALYSIS_REMOTENESS_NULL;
    return 0;
}

/* ---- the parsed position (game.h's gj_play) ---- */

/* The request's position members, for writing them back in its order. */
enum { MEMBER_GRID, MEMBER_PATH, MEMBER_TOKEN, MEMBER_TO_MOVE, MEMBER_VISITED, MEMBERS };

static const char *const member_name[MEMBERS] = {"grid", "path", "token", "to_move", "visited"};

/* A walk in play: the grid with the path blocked but for the token's cell,
 * the path, and what has been worked out about the position as it is now.
 * The matching outlives a move: the cells still usable after the move are
 * H - v, whose maximum matching the analysis made from H's by dropping the
 * token's cell v, so a line pays one matching, then one augmenting search
 * and one alternating BFS per move. */
typedef struct gw_play {
    gw_position *pos;
    int *path; /* padded cells, n of them, room for `room` */
    long n, room;
    long max_moves;             /* the request's, for analyze() only */
    int order[MEMBERS], norder; /* the members the request gives, in its order */
    gj_buf trail;               /* path[0..trail_n) written "[r,c],[r,c]" */
    long trail_n;
    gj_buf grid; /* "grid" as the request wrote it, once needed */
    int grid_written;
    unsigned char *mark; /* scratch, one byte per padded cell, once needed */
    gw_matching *m;      /* of H, or of H - token once `dropped`; NULL: none yet */
    int dropped, drop_shrank;
    /* The analysis of the position as it is now, once `ranked`: */
    int ranked, mover_wins;
    long long rem, winning;
    far_move *all; /* every move, row-major (padded cells ascending) */
    long nall;
    far_move *top; /* the ranking's first ntop moves */
    long ntop;
} gw_play;

/* Whether padded cell c (any value) is a legal move of p. */
static int is_legal(const gw_play *p, uint64_t c)
{
    const gw_position *pos = p->pos;
    if (c >= (uint64_t)(pos->rows + 2) * (uint64_t)pos->width || !pos->open[c])
        return 0;
    return p->n == 0 || gw_adjacent(pos, p->path[p->n - 1], (int)c);
}

/* Forget the analysis: the position changed. */
static void forget_ranking(gw_play *p)
{
    free(p->all);
    free(p->top);
    p->all = p->top = NULL;
    p->nall = p->ntop = 0;
    p->ranked = 0;
}

/* The opening's moves (every free cell, outcome by the solve, remoteness
 * by the search) and head into p: 0, or -1 with *e. */
static int rank_opening(gw_play *p, gj_error *e)
{
    gw_position *pos = p->pos;
    if (gw_solve(pos, e) != 0)
        return -1;
    int cells = (int)((pos->rows + 2) * pos->width);
    long nfree = 0;
    for (int c = 0; c < cells; c++)
        nfree += pos->open[c];
    far_move *m = malloc((size_t)(nfree > 0 ? nfree : 1) * sizeof *m);
    if (m == NULL)
        return gj_fail_nomem(e);
    long w = 0, i = 0; /* the winners are row-major too: walk them in step */
    for (int c = 0; c < cells; c++) {
        if (!pos->open[c])
            continue;
        int wins = w < pos->nwinners && pos->winners[w] == c;
        w += wins;
        m[i++] = (far_move){c, wins, ANALYSIS_REMOTENESS_NULL};
    }
    if (far_opening(pos, m, nfree, e) != 0) {
        free(m);
        return -1;
    }
    p->all = m;
    p->nall = nfree;
    p->winning = pos->nwinners;
    p->mover_wins = pos->nwinners > 0;
    p->rem = nfree == 0 ? 0 : remoteness_of(m, nfree);
    return 0;
}

/* The token's moves (at most four, row-major) and head into p, from the
 * matching kept in p (made now if there is none): 0, or -1 with *e. */
static int rank_walk(gw_play *p, gj_error *e)
{
    gw_position *pos = p->pos;
    int v = p->path[p->n - 1];
    const int step[4] = {-pos->width, -1, 1, pos->width}; /* row-major order */
    int moves[4], wins[4], nmoves = 0, mover_wins = 0;
    for (int d = 0; d < 4; d++)
        if (pos->open[v + step[d]])
            moves[nmoves++] = v + step[d];
    if (nmoves > 0) {
        if (p->mark == NULL)
            p->mark = malloc((size_t)(pos->rows + 2) * (size_t)pos->width);
        if (p->mark == NULL)
            return gj_fail_nomem(e);
        if (p->m == NULL && (p->m = gw_match(pos, e)) == NULL)
            return -1;
        if (!p->dropped)
            p->drop_shrank = gw_drop_cell(p->m, v);
        p->dropped = 1;
        mover_wins = p->drop_shrank;
        gw_mark_avoidable(p->m, p->mark);
        for (int i = 0; i < nmoves; i++)
            wins[i] = p->mark[moves[i]];
    }
    long after[4];
    gw_far *f = gw_far_new(pos, e);
    long value = f == NULL ? -1 : gw_far_walk(f, v, moves, nmoves, after, e);
    gw_far_free(f);
    if (value == -1)
        return -1;
    long long rem = value >= 0 ? value / 2 : ANALYSIS_REMOTENESS_NULL;
    far_move *fm = malloc(4 * sizeof *fm);
    if (fm == NULL)
        return gj_fail_nomem(e);
    long long winning = 0;
    for (int i = 0; i < nmoves; i++) {
        fm[i] = (far_move){moves[i], wins[i], rem >= 0 ? after[i] / 2 : ANALYSIS_REMOTENESS_NULL};
        if (rem >= 0 && (after[i] % 2 == 0) != wins[i])
            value = -3;
        winning += wins[i];
    }
    if (value >= 0 && value % 2 != mover_wins)
        value = -3;
    if (value == -3) {
        free(fm);
        return gj_fail(e, GJ_INTERNAL, "grid-walk: the search and the matching differ");
    }
    p->all = fm;
    p->nall = nmoves;
    p->winning = winning;
    p->mover_wins = mover_wins;
    p->rem = rem;
    return 0;
}

/* The analysis of the position as it is now, made once: 0, or -1 with *e. */
static int ensure_ranked(gw_play *p, gj_error *e)
{
    if (p->ranked)
        return 0;
    forget_ranking(p);
    if ((p->n == 0 ? rank_opening(p, e) : rank_walk(p, e)) != 0)
        return -1;
    p->ranked = 1;
    return 0;
}

/* p->top: the ranking's first `listed` moves (analysis.h): by remoteness
 * where it is known, else every winning move before every other, and
 * row-major after that.  Kept while longer than asked.  0, or -1 with *e. */
static int rank_top(gw_play *p, long listed, gj_error *e)
{
    if (listed > p->nall)
        listed = p->nall;
    if (p->top != NULL && p->ntop >= listed)
        return 0;
    free(p->top);
    p->top = NULL;
    p->ntop = 0;
    if (p->rem >= 0) {
        analysis_top top;
        if (analysis_top_init(&top, listed, sizeof *p->all, far_cmp, e) != 0)
            return -1;
        for (long i = 0; i < p->nall; i++)
            analysis_top_offer(&top, &p->all[i]);
        analysis_top_finish(&top);
        p->top = (far_move *)top.item;
        p->ntop = top.count;
        return 0;
    }
    p->top = malloc((size_t)(listed > 0 ? listed : 1) * sizeof *p->top);
    if (p->top == NULL)
        return gj_fail_nomem(e);
    for (int pass = 1; pass >= 0; pass--)
        for (long j = 0; j < p->nall && p->ntop < listed; j++)
            if (p->all[j].wins == pass)
                p->top[p->ntop++] = p->all[j];
    return 0;
}

/* The move to padded cell c among p->all (row-major), or NULL. */
static const far_move *move_at(const gw_play *p, uint64_t c)
{
    long lo = 0, hi = p->nall;
    while (lo < hi) {
        long mid = lo + (hi - lo) / 2;
        if ((uint64_t)p->all[mid].cell < c)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < p->nall && (uint64_t)p->all[lo].cell == c ? &p->all[lo] : NULL;
}

/* The request's position members in its order into p (max_moves is none). */
static void read_order(const json_t *req, gw_play *p)
{
    const char *key;
    json_t *v;
    p->norder = 0;
    json_object_foreach((json_t *)req, key, v)
    {
        for (int m = 0; m < MEMBERS; m++)
            if (strcmp(key, member_name[m]) == 0)
                p->order[p->norder++] = m;
    }
}

/* Whether the request gave member m. */
static int has_member(const gw_play *p, int m)
{
    for (int i = 0; i < p->norder; i++)
        if (p->order[i] == m)
            return 1;
    return 0;
}

/* game.h's gj_play.free. */
static void play_free(void *v)
{
    gw_play *p = v;
    if (p == NULL)
        return;
    gw_free_position(p->pos);
    free(p->path);
    buf_free(&p->trail);
    buf_free(&p->grid);
    free(p->mark);
    gw_free_matching(p->m);
    forget_ranking(p);
    free(p);
}

/* The request's members, as game.h's analyze_keys: read here and named by
 * the wrappers (line.c, engine.c) in their unknown-field messages. */
const char *const grid_walk_analyze_keys[] = {"grid",     "path",       "?token", "?to_move",
                                              "?visited", "?max_moves", NULL};

/* analyze()'s checks of req, in its order: the required members (the
 * wrappers check only that every member is known, so these are checked
 * here, with jin_load_object's message), max_moves, the grid, the path,
 * then what the request says of the path.  `read`: the path as the body
 * arrived (gw_path_events; taken, and freed here), req's "path" then a
 * null; NULL: the path is read from req.  NULL with *e. */
static gw_play *parse_position(const json_t *req, gw_path_read *read, const long *limits,
                               gj_error *e)
{
    gw_play *p = NULL;
    for (int k = 0; grid_walk_analyze_keys[k] != NULL; k++)
        if (grid_walk_analyze_keys[k][0] != '?' &&
            json_object_get(req, grid_walk_analyze_keys[k]) == NULL) {
            gj_fail_field(e, grid_walk_analyze_keys[k], "missing required field");
            goto fail;
        }
    p = calloc(1, sizeof *p);
    if (p == NULL) {
        gj_fail_nomem(e);
        goto fail;
    }
    buf_init(&p->trail);
    buf_init(&p->grid);
    if (analysis_max_moves(req, &p->max_moves, e) != 0)
        goto fail;
    p->pos = gw_parse_grid(json_object_get(req, "grid"), limits, e);
    if (p->pos == NULL)
        goto fail;
    int rc = read != NULL
                 ? gw_path_judge(read, p->pos, &p->path, &p->n, e)
                 : gw_path_from_json(json_object_get(req, "path"), p->pos, &p->path, &p->n, e);
    if (rc != 0 || check_said(req, p->pos, p->path, p->n, e) != 0)
        goto fail;
    p->room = p->n + 1; /* the path reader's */
    read_order(req, p);
    gw_path_events.free(read);
    return p;
fail:
    gw_path_events.free(read);
    play_free(p);
    return NULL;
}

/* game.h's gj_play.parse. */
static void *play_parse(const json_t *req, const long *limits, gj_error *e)
{
    return parse_position(req, NULL, limits, e);
}

/* game.h's gj_play.adopt: req's position with the path read as the body
 * arrived (gw_path_events). */
static void *play_adopt(void *read, const json_t *req, const long *limits, gj_error *e)
{
    return parse_position(req, read, limits, e);
}

/* The /analyze body read as it arrives (analysis_read.h), the path into
 * an array of pairs. */
GJ_ANALYSIS_READER(gw_path_events)

/* game.h's gj_play.analyze: the frame of analysis.h over p's ranking. */
static int play_analyze(void *v, gj_buf *out, gj_error *e)
{
    gw_play *p = v;
    if (ensure_ranked(p, e) != 0 || rank_top(p, p->max_moves, e) != 0)
        return -1;
    analysis_counts k = {p->nall, p->winning, p->nall < p->max_moves ? p->nall : p->max_moves};
    analysis_begin(out, game_grid_walk.name, mover(p->n), p->mover_wins, p->rem, &k);
    for (long i = 0; i < k.listed; i++) {
        analysis_move_open(out, i);
        put_entry_head(out, p->pos, p->top[i].cell, p->top[i].wins, p->top[i].rem);
        put_diff(out, p->pos, p->top[i].cell, p->n + 1);
        analysis_move_close(out);
    }
    analysis_end(out, k.listed);
    return out->failed ? gj_fail_nomem(e) : 0;
}

/* game.h's gj_play.rank.  Every move of a walk is needed for the best one
 * (there are at most four), and the opening's solve is what ranks it, so
 * there is no work the head alone needs. */
static long play_rank(void *v, long max, gj_move *moves, gj_rank_head *head, gj_error *e)
{
    gw_play *p = v;
    if (ensure_ranked(p, e) != 0 || rank_top(p, max, e) != 0)
        return -1;
    long count = p->nall < max ? p->nall : max;
    for (long i = 0; i < count; i++)
        moves[i] = (gj_move){(uint64_t)p->top[i].cell, p->top[i].wins, 0, p->top[i].rem};
    if (head != NULL)
        *head = (gj_rank_head){p->mover_wins, p->rem, p->nall, p->winning, mover(p->n), 0};
    return count;
}

/* The path's cells not yet in p->trail, appended to it. */
static void sync_trail(gw_play *p)
{
    for (; p->trail_n < p->n; p->trail_n++) {
        if (p->trail_n > 0)
            buf_putc(&p->trail, ',');
        put_cell(&p->trail, p->pos, p->path[p->trail_n]);
    }
}

/* "grid" written into p->grid once, as jansson writes the request's rows:
 * the path's cells are free cells of the grid.  0, or -1 with *e. */
static int write_grid(gw_play *p, gj_error *e)
{
    if (p->grid_written)
        return 0;
    gw_position *pos = p->pos;
    for (long i = 0; i < p->n; i++)
        pos->open[p->path[i]] = 1;
    buf_reserve(&p->grid, (size_t)pos->rows * ((size_t)pos->cols + 3) + 2);
    buf_putc(&p->grid, '[');
    for (long r = 1; r <= pos->rows; r++) {
        buf_puts(&p->grid, r > 1 ? ",\"" : "\"");
        for (long c = 1; c <= pos->cols; c++)
            buf_putc(&p->grid, pos->open[r * pos->width + c] ? '.' : '#');
        buf_putc(&p->grid, '"');
    }
    buf_putc(&p->grid, ']');
    for (long i = 0; i < p->n; i++)
        pos->open[p->path[i]] = i == p->n - 1;
    if (p->grid.failed)
        return gj_fail_nomem(e);
    p->grid_written = 1;
    return 0;
}

/* Member m of the position whose path is p's, then `next` when it is a
 * cell (>= 0), as `"name":value` after a comma unless *first.  The grid
 * and the trail must be written. */
static void put_member(gw_play *p, int m, int next, int *first, gj_buf *out)
{
    long visited = p->n + (next >= 0);
    int token = next >= 0 ? next : p->n > 0 ? p->path[p->n - 1] : -1;
    if (!*first)
        buf_putc(out, ',');
    *first = 0;
    buf_putc(out, '"');
    buf_puts(out, member_name[m]);
    buf_puts(out, "\":");
    if (m == MEMBER_GRID) {
        buf_append(out, p->grid.data, p->grid.len);
    } else if (m == MEMBER_PATH) {
        buf_putc(out, '[');
        buf_append(out, p->trail.data, p->trail.len);
        if (next >= 0) {
            if (p->n > 0)
                buf_putc(out, ',');
            put_cell(out, p->pos, next);
        }
        buf_putc(out, ']');
    } else if (m == MEMBER_TOKEN) {
        if (token < 0)
            buf_puts(out, "null");
        else
            put_cell(out, p->pos, token);
    } else if (m == MEMBER_TO_MOVE) {
        buf_putc(out, '"');
        buf_puts(out, mover(visited));
        buf_putc(out, '"');
    } else {
        buf_put_long(out, visited);
    }
}

/* The whole position the move to c leads to, as after.c writes it: the
 * request's members in its order with the move played, then the diff's
 * members it lacks.  0, or -1 with *e. */
static int put_whole(gw_play *p, int c, gj_buf *out, gj_error *e)
{
    if (write_grid(p, e) != 0)
        return -1;
    sync_trail(p);
    int first = 1;
    buf_putc(out, '{');
    for (int i = 0; i < p->norder; i++)
        put_member(p, p->order[i], c, &first, out);
    for (int m = MEMBER_TOKEN; m <= MEMBER_VISITED; m++)
        if (!has_member(p, m))
            put_member(p, m, c, &first, out);
    buf_putc(out, '}');
    return p->trail.failed ? gj_fail_nomem(e) : 0;
}

/* game.h's gj_play.write_move. */
static int play_write_move(void *v, const gj_move *m, int whole, gj_buf *out, size_t *after_bytes,
                           gj_error *e)
{
    gw_play *p = v;
    *after_bytes = 0;
    if (ensure_ranked(p, e) != 0)
        return -1;
    const far_move *f = move_at(p, m->id);
    if (f == NULL)
        return gj_fail(e, GJ_INTERNAL, "grid-walk: a move written that is not the position's");
    put_entry_head(out, p->pos, f->cell, f->wins, f->rem);
    if (!whole) {
        put_diff(out, p->pos, f->cell, p->n + 1);
    } else {
        size_t start = out->len;
        if (put_whole(p, f->cell, out, e) != 0)
            return -1;
        *after_bytes = out->len - start;
    }
    return out->failed ? gj_fail_nomem(e) : 0;
}

/* game.h's gj_play.play: the cell joins the path; the token's old cell
 * leaves H, and the matching with it unless the analysis took it out. */
static int play_play(void *v, const gj_move *m, gj_error *e)
{
    gw_play *p = v;
    if (!is_legal(p, m->id))
        return gj_fail(e, GJ_INTERNAL, "grid-walk: a move played that is not the position's");
    if (p->n == p->room) {
        long room = 2 * p->room;
        int *path = realloc(p->path, (size_t)room * sizeof *path);
        if (path == NULL)
            return gj_fail_nomem(e);
        p->path = path;
        p->room = room;
    }
    if (p->n > 0) {
        int token = p->path[p->n - 1];
        if (p->m != NULL && !p->dropped)
            gw_drop_cell(p->m, token);
        p->pos->open[token] = 0;
    }
    p->dropped = 0;
    p->path[p->n++] = (int)m->id;
    forget_ranking(p);
    return 0;
}

/* game.h's gj_play.find: an entry's "move", [row, column] of a legal cell. */
static int play_find(void *v, const json_t *move, gj_move *m, gj_error *e)
{
    gw_play *p = v;
    (void)e;
    const json_t *r = json_array_get(move, 0), *c = json_array_get(move, 1);
    if (json_array_size(move) != 2 || !json_is_integer(r) || !json_is_integer(c))
        return 0;
    json_int_t row = json_integer_value(r), col = json_integer_value(c);
    if (row < 1 || row > p->pos->rows || col < 1 || col > p->pos->cols)
        return 0;
    uint64_t cell = (uint64_t)row * (uint64_t)p->pos->width + (uint64_t)col;
    if (!is_legal(p, cell))
        return 0;
    m->id = cell;
    return 1;
}

/* A copy of n elements of `size` bytes at src (NULL for none), or NULL
 * with *failed set. */
static void *copy_of(const void *src, size_t n, size_t size, int *failed)
{
    if (src == NULL)
        return NULL;
    void *dst = malloc(n > 0 ? n * size : 1);
    if (dst == NULL)
        *failed = 1;
    else
        memcpy(dst, src, n * size);
    return dst;
}

/* game.h's gj_play.clone.  The matching is not copied: the copy makes its
 * own when it is next analysed, and its ranking is the original's. */
static void *play_clone(const void *v, gj_error *e)
{
    const gw_play *p = v;
    gw_play *q = malloc(sizeof *q);
    if (q == NULL) {
        gj_fail_nomem(e);
        return NULL;
    }
    *q = *p;
    int failed = 0;
    size_t cells = (size_t)(p->pos->rows + 2) * (size_t)p->pos->width;
    q->pos = copy_of(p->pos, 1, sizeof *p->pos, &failed);
    if (q->pos != NULL) {
        q->pos->winners = NULL;
        q->pos->nwinners = 0;
        q->pos->open = copy_of(p->pos->open, cells, 1, &failed);
    }
    q->path = copy_of(p->path, (size_t)p->room, sizeof *p->path, &failed);
    buf_init(&q->trail);
    buf_append(&q->trail, p->trail.data, p->trail.len);
    buf_init(&q->grid);
    buf_append(&q->grid, p->grid.data, p->grid.len);
    q->mark = NULL;
    q->m = NULL;
    q->dropped = 0;
    q->all = copy_of(p->all, (size_t)p->nall, sizeof *p->all, &failed);
    q->top = copy_of(p->top, (size_t)p->ntop, sizeof *p->top, &failed);
    if (failed || q->trail.failed || q->grid.failed || (q->pos != NULL && q->pos->open == NULL)) {
        if (q->pos != NULL && q->pos->open == NULL) {
            free(q->pos);
            q->pos = NULL;
        }
        play_free(q);
        gj_fail_nomem(e);
        return NULL;
    }
    return q;
}

/* game.h's gj_play.write_members.  Moved: the token, the mover and the
 * path's length, keys sorted as a diff is compared: within one line every
 * position extends the one before, so those decide the path. */
static void play_write_members(void *v, int moved, gj_buf *out)
{
    gw_play *p = v;
    int first = 1;
    if (moved) {
        put_member(p, MEMBER_TO_MOVE, -1, &first, out);
        put_member(p, MEMBER_TOKEN, -1, &first, out);
        put_member(p, MEMBER_VISITED, -1, &first, out);
        return;
    }
    gj_error ignored;
    if (write_grid(p, &ignored) != 0) {
        out->failed = 1;
        return;
    }
    sync_trail(p);
    for (int i = 0; i < p->norder; i++)
        put_member(p, p->order[i], -1, &first, out);
    out->failed |= p->trail.failed;
}

/* game.h's gj_play.draw. */
static int play_draw(void *v, gj_buf *out, int *width, int *height, gj_error *e)
{
    gw_play *p = v;
    return gw_draw(p->pos, p->path, p->n, out, width, height, e);
}

/* grid_walk_core.h's: the board, the token and the path's length, for puzzles. */
const gw_position *gw_play_view(const void *v, int *token, long *visited)
{
    const gw_play *p = v;
    *token = p->n > 0 ? p->path[p->n - 1] : -1;
    *visited = p->n;
    return p->pos;
}

const gj_play grid_walk_play = {
    .parse = play_parse,
    .analyze = play_analyze,
    .rank = play_rank,
    .write_move = play_write_move,
    .play = play_play,
    .find = play_find,
    .clone = play_clone,
    .write_members = play_write_members,
    .free = play_free,
    .draw = play_draw,
    .look = grid_walk_look,
    .motifs = grid_walk_motif_bits,
    .read_analysis = &read_analysis,
    .adopt = play_adopt,
};

/* analyze() over the parsed position: load, parse, analyse, free.  The
 * JSON goes before the matching is made: a long path's is large. */
int grid_walk_analyze(const char *buf, size_t len, const long *limits, gj_buf *out, gj_error *e)
{
    json_t *root = jin_load_object(buf, len, grid_walk_analyze_keys, e);
    if (root == NULL)
        return -1;
    void *p = play_parse(root, limits, e);
    json_decref(root);
    if (p == NULL)
        return -1;
    int rc = play_analyze(p, out, e);
    play_free(p);
    return rc;
}

/* The move's cell joins the path (at the opening it is the token's place),
 * in a new array: the request's own path is left as it was (game.h); a
 * token, to_move or visited sent along become the move's. */
int grid_walk_play_move(json_t *req, const json_t *entry, gj_error *e)
{
    json_t *path = json_object_get(req, "path");
    const json_t *cell = json_object_get(entry, "move");
    if (!json_is_array(path) || cell == NULL)
        return gj_fail(e, GJ_INTERNAL, "grid-walk: no path or no move to play");
    json_t *longer = json_copy(path);
    if (longer == NULL)
        return gj_fail_nomem(e);
    if (json_array_append_new(longer, json_deep_copy(cell)) != 0) {
        json_decref(longer);
        return gj_fail_nomem(e);
    }
    if (json_object_set_new(req, "path", longer) != 0)
        return gj_fail_nomem(e);
    return analysis_play_carried(req, json_object_get(entry, "after"), e);
}
