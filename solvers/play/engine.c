/* engine.c - the engine's move at a level (engine.h). */
#include "engine.h"

#include <stdlib.h>
#include <string.h>

#include "after.h"
#include "analysis_members.h"
#include "json_in.h"
#include "play_moves.h"
#include "play_pos.h"
#include "rng.h"

#define LOSS_MAX 16

const char *const engine_level_doc[ENGINE_LEVELS] = {
    "beginner: finds the only winning move about a third of the time, in every game",
    "casual: finds it about half the time; its mistakes are mostly plausible moves",
    "club: finds it 70% of the time, the rater of the puzzles' difficulty",
    "expert: finds it 85% of the time, slipping mostly where there are many moves",
    "perfect: the best move of the ranking policy, every time",
};

const char *const engine_level_name[ENGINE_LEVELS] = {"beginner", "casual", "club", "expert",
                                                      "perfect"};

const int engine_level_target[ENGINE_LEVELS] = {35, 55, 70, 85, 100};

int engine_level_named(const char *name)
{
    for (int l = 1; l <= ENGINE_LEVELS; l++)
        if (strcmp(name, engine_level_name[l - 1]) == 0)
            return l;
    return 0;
}

/* The integer weight of a move of loss q at rank i at a level below the
 * top, whose ratio W(q + 1) / W(q) is ratio / 65536 (at most 1). */
static uint64_t weight(unsigned ratio, int q, long i)
{
    uint64_t w = UINT64_C(1) << 20;
    for (int k = 0; k < q; k++)
        w = w * ratio >> 16;
    return w * 4 / ((uint64_t)i + 4);
}

/* Game g's ratio at `level` (1..ENGINE_LEVELS - 1), capped at 1.0 so the
 * weights never grow past 2^20 and a sum of ENGINE_CANDIDATES fits. */
static unsigned ratio_of(const gj_game *g, int level)
{
    unsigned r = g->level_ratio[level - 1];
    return r > 65536 ? 65536 : r;
}

double engine_chance(const gj_game *g, int level, const int *q, long n, long index)
{
    if (index < 0 || index >= n)
        return 0;
    if (level >= ENGINE_LEVELS || n == 1)
        return index == 0 ? 1 : 0;
    unsigned ratio = ratio_of(g, level);
    uint64_t total = 0;
    for (long i = 0; i < n; i++)
        total += weight(ratio, q[i], i);
    return (double)weight(ratio, q[index], index) / (double)total;
}

long engine_pick(const gj_game *g, int level, const int *q, long n, uint64_t seed)
{
    if (level >= ENGINE_LEVELS || n <= 1)
        return 0;
    gj_rng r;
    gj_rng_seed(&r, seed);
    unsigned ratio = ratio_of(g, level);
    uint64_t total = 0;
    for (long i = 0; i < n; i++)
        total += weight(ratio, q[i], i);
    uint64_t x = gj_rng_below(&r, total);
    for (long i = 0; i < n; i++) {
        uint64_t w = weight(ratio, q[i], i);
        if (x < w)
            return i;
        x -= w;
    }
    return 0; /* not reached: x < total */
}

int *engine_losses(const gj_move *moves, long n)
{
    int *q = malloc((size_t)n * sizeof *q);
    if (q == NULL)
        return NULL;
    /* A win/lose game scores every move 0 and a scored one wins none
     * (game.h), so one rule judges both: the outcome first, then the score. */
    long long best = moves[0].score, worst = moves[n - 1].score;
    for (long i = 0; i < n; i++) {
        long long gap = best - moves[i].score;
        if (moves[i].wins != moves[0].wins)
            q[i] = LOSS_MAX;
        else
            q[i] =
                best == worst ? 0 : (int)((LOSS_MAX * gap + (best - worst) - 1) / (best - worst));
    }
    return q;
}

typedef struct move_request {
    long level;
    long long seed;
    json_t *moves;  /* "moves" to play first (play_moves.h), or NULL */
    int after_full; /* "after": the whole position (after.h), not the diff */
} move_request;

/* Read and remove "level" and "seed" from root; refuse the members that
 * /analyze takes but /move does not, and any other the game's position
 * does not have.  0, or -1 with *e. */
static int take_options(const gj_game *g, json_t *root, uint64_t fallback_seed, move_request *q,
                        gj_error *e)
{
    static const char *const refused[] = {"max_moves", "line", "max_line", NULL};
    static const char *const own[] = {"level", "?seed", "?moves", "?after", NULL};
    const char *bad = analysis_first_member(root, refused);
    if (bad != NULL)
        return gj_fail_field(e, bad,
                             "not taken by /move, which weighs up to %d ranked moves itself; "
                             "ask /analyze for the list or the line",
                             ENGINE_CANDIDATES);
    /* Checked here, not by analyze(), whose list would name max_moves. */
    if (analysis_known_members(g, root, "max_moves", own, e) != 0)
        return -1;
    const json_t *level = json_object_get(root, "level"), *seed = json_object_get(root, "seed");
    if (level == NULL)
        return gj_fail_field(e, "level",
                             "missing required field: 1 (\"beginner\") to %d (\"perfect\")",
                             ENGINE_LEVELS);
    if (json_is_string(level)) {
        /* A name is the same level as its number; the answer echoes the
         * number, which replays the move just as well. */
        q->level = engine_level_named(json_string_value(level));
        if (q->level == 0)
            return gj_fail_field(e, "level",
                                 "'%.40s' is no level: expected 1 to %d or \"beginner\", "
                                 "\"casual\", \"club\", \"expert\" or \"perfect\"",
                                 json_string_value(level), ENGINE_LEVELS);
    } else if (jin_long(level, "level", -1, -1, 1, ENGINE_LEVELS, &q->level, e) != 0) {
        return -1;
    }
    long s = (long)fallback_seed;
    if (seed != NULL && jin_long(seed, "seed", -1, -1, 0, ENGINE_SEED_MAX, &s, e) != 0)
        return -1;
    q->seed = s;
    if (after_take(root, &q->after_full, e) != 0)
        return -1;
    q->moves = json_incref(json_object_get(root, "moves"));
    json_object_del(root, "level");
    json_object_del(root, "seed");
    json_object_del(root, "moves");
    return 0;
}

/* The answer: game, level, seed, then the entry of m (one p ranked), its
 * "after" the whole position it leads to unless the request asked for the
 * diff.  0, or -1 with *e. */
static int write_move(const gj_game *g, const move_request *q, play_pos *p, const gj_move *m,
                      gj_buf *out, gj_error *e)
{
    after_writer w;
    after_init(&w, g, q->after_full);
    buf_puts(out, "{\"game\":\"");
    buf_puts(out, g->name);
    buf_puts(out, "\",\"level\":");
    buf_put_long(out, q->level);
    buf_puts(out, ",\"seed\":");
    buf_put_long(out, q->seed);
    buf_putc(out, ',');
    size_t bytes = 0;
    int rc = p->ops->write_move(p->pos, m, w.full, out, &bytes, e);
    if (rc == 0)
        rc = after_count(&w, bytes, e);
    buf_putc(out, '}');
    after_free(&w);
    if (rc == 0 && out->failed)
        rc = gj_fail_nomem(e);
    return rc;
}

/* The move for p's position: 0, or -1 with *e. */
static int choose(const gj_game *g, play_pos *p, const move_request *q, gj_buf *out, gj_error *e)
{
    long listed = q->level == ENGINE_LEVELS ? 1 : ENGINE_CANDIDATES;
    gj_move *moves = malloc((size_t)listed * sizeof *moves);
    if (moves == NULL)
        return gj_fail_nomem(e);
    long n = p->ops->rank(p->pos, listed, moves, NULL, e);
    int rc = -1;
    if (n == 0) {
        gj_fail(e, GJ_UNMET,
                "no legal move: the game is over in this position (its analysis has "
                "moves_total 0), so the engine has nothing to play");
    } else if (n > 0) {
        int *loss = engine_losses(moves, n);
        if (loss == NULL) {
            gj_fail_nomem(e);
        } else {
            long pick = engine_pick(g, (int)q->level, loss, n, (uint64_t)q->seed);
            rc = write_move(g, q, p, &moves[pick], out, e);
            free(loss);
        }
    }
    free(moves);
    return rc;
}

int engine_move(const gj_game *g, const char *buf, size_t len, const long *limits,
                uint64_t fallback_seed, gj_buf *out, gj_error *e)
{
    json_t *root = jin_load_object(buf, len, NULL, e);
    if (root == NULL)
        return -1;
    return engine_move_tree(g, root, limits, fallback_seed, out, e);
}

/* engine_move over the request root (taken) and, when read is not NULL,
 * the position its body's reader read (taken too): 0, or -1 with *e. */
static int move_on(const gj_game *g, json_t *root, analysis_body *read, const long *limits,
                   uint64_t fallback_seed, gj_buf *out, gj_error *e)
{
    move_request q = {0};
    int rc = take_options(g, root, fallback_seed, &q, e);
    if (rc == 0)
        rc = play_moves_check(g, q.moves, e);
    /* The position parsed once: the moves played and the engine's move
     * ranked on it in place. */
    play_pos p = {0};
    if (rc == 0 && read != NULL)
        rc = play_open_read(&p, g, root, read, limits, e);
    else if (rc == 0)
        rc = play_open(&p, g, root, limits, e);
    if (rc == 0)
        rc = play_moves(&p, q.moves, e);
    if (rc == 0)
        rc = choose(g, &p, &q, out, e);
    play_close(&p);
    json_decref(q.moves);
    json_decref(root);
    analysis_body_free(read);
    return rc;
}

int engine_move_tree(const gj_game *g, json_t *root, const long *limits, uint64_t fallback_seed,
                     gj_buf *out, gj_error *e)
{
    return move_on(g, root, NULL, limits, fallback_seed, out, e);
}

int engine_move_read(const gj_game *g, analysis_body *read, const long *limits,
                     uint64_t fallback_seed, gj_buf *out, gj_error *e)
{
    json_t *root = read->root;
    read->root = NULL;
    return move_on(g, root, read, limits, fallback_seed, out, e);
}
