/* puzzle_build.c - one generator candidate made into a puzzle's line,
 * rated and named (puzzle_build.h). */
#include "puzzle_build.h"

#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "generate.h"
#include "play_pos.h"
#include "puzzle_id.h"
#include "puzzle_rating.h"

/* Free step s of a puzzle and zero it. */
static void step_free(puzzle_step *s)
{
    json_decref(s->position);
    play_close(&s->at);
    free(s->moves);
    json_decref(s->solving);
    json_decref(s->reply);
    buf_free(&s->reply_text);
    memset(s, 0, sizeof *s);
}

void puzzle_free(puzzle *p)
{
    for (int i = 0; i < PUZZLE_DEPTH_MAX; i++)
        step_free(&p->steps[i]);
    json_decref(p->knobs);
    json_decref(p->to_move);
    memset(p, 0, sizeof *p);
}

/* The generator's position for seed s into step 0 (its analyze() request
 * and that parsed, read under p->limits): one with exactly one solving
 * move and at least p->min_moves moves, handed over parsed by the
 * generator (gen_keep), never written and read back.  With `again` the one
 * candidate at p->skip is made (a rebuild, no search), else the generator
 * searches and p->skip is set to where its kept candidate began.  0, or -1
 * with *e. */
static int generated(puzzle *p, long long s, bool again, long budget_ms, gj_error *e)
{
    const gj_game *g = p->game;
    json_t *req = json_deep_copy(p->knobs);
    if (req == NULL || json_object_set_new(req, "seed", json_integer(s)) != 0 ||
        (again && (json_object_set_new(req, "skip", json_integer(p->skip)) != 0 ||
                   json_object_set_new(req, "tries", json_integer(1)) != 0)) ||
        json_object_set_new(req, "winning_moves", json_integer(1)) != 0 ||
        json_object_set_new(req, "min_moves", json_integer(p->min_moves)) != 0 ||
        json_object_set_new(req, "budget_ms", json_integer(budget_ms)) != 0 ||
        /* Only the position is read: no analysis written out, whole afters and all. */
        json_object_set_new(req, "answer", json_false()) != 0) {
        json_decref(req);
        return gj_fail_nomem(e);
    }
    char *text = json_dumps(req, JSON_COMPACT);
    json_decref(req);
    if (text == NULL)
        return gj_fail_nomem(e);
    gen_kept kept;
    int rc = g->generate_keep(text, strlen(text), p->limits, &kept, e);
    free(text);
    if (rc != 0)
        return -1;
    p->skip = kept.skip;
    p->steps[0].position = kept.position;
    p->steps[0].at = (play_pos){g->play, kept.pos};
    return 0;
}

/* The entry of m, a move ranked or found on `at` as it is now, as the
 * analysis writes it (its "after" the diff), "{...}" into text (emptied
 * first): 0, or -1 with *e. */
static int entry_text(play_pos *at, const gj_move *m, gj_buf *text, gj_error *e)
{
    size_t bytes;
    text->len = 0;
    buf_putc(text, '{');
    int rc = at->ops->write_move(at->pos, m, 0, text, &bytes, e);
    buf_putc(text, '}');
    return rc == 0 && text->failed ? gj_fail_nomem(e) : rc;
}

/* An entry's text read as JSON: the entry, or NULL with *e. */
static json_t *entry_read(const gj_buf *text, gj_error *e)
{
    json_t *entry = json_loadb(text->data, text->len, 0, NULL);
    if (entry == NULL)
        gj_fail(e, GJ_INTERNAL, "an entry of a puzzle's position is not JSON");
    return entry;
}

/* at's members as a request object's text, "{...}", into out (emptied
 * first); allocation failure shows in out->failed. */
static void members_of(play_pos *at, gj_buf *out)
{
    out->len = 0;
    buf_putc(out, '{');
    at->ops->write_members(at->pos, 0, out);
    buf_putc(out, '}');
}

/* The bounded finder's chance to miss the solving move, moves[0], of step
 * s (puzzle.h), and the greedy move (the one the measure alone likes best
 * at one ply, -1 on a tie) into s->greedy: 0, or -1 with *e.  A game
 * without a measure looks level everywhere: each move 1 in n. */
static int finder_miss(puzzle_step *s, gj_error *e)
{
    long n = s->legal;
    double *value = malloc((size_t)n * sizeof *value);
    if (value == NULL)
        return gj_fail_nomem(e);
    double found = 0;
    s->greedy = -1;
    for (int plies = 1; plies <= 2; plies++) {
        if (s->at.ops->look == NULL)
            memset(value, 0, (size_t)n * sizeof *value);
        else if (s->at.ops->look(s->at.pos, s->moves, n, plies, value, e) != 0) {
            free(value);
            return -1;
        }
        double best = value[0];
        long top = 0, ties = 1;
        for (long i = 1; i < n; i++) {
            if (value[i] > best) {
                best = value[i];
                top = i;
                ties = 1;
            } else if (value[i] == best) {
                ties++;
            }
        }
        if (plies == 1)
            s->greedy = ties == 1 ? top : -1;
        double sum = 0, own = 0;
        for (long i = 0; i < n; i++) {
            double d = 1 + PUZZLE_FINDER_FOCUS * (best - value[i]);
            double w = 1 / (d * d);
            sum += w;
            if (i == 0)
                own = w;
        }
        found += own / sum;
    }
    free(value);
    s->miss = 1 - found / 2;
    return 0;
}

/* Step i from its position, p->steps[i].at (opened): ranked with every
 * move, it must have one solving move among at least two (and
 * p->min_moves at the start).  0, 1 + PUZZLE_MISS_* when the line is no puzzle,
 * -1 with *e. */
static int take_step(puzzle *p, int i, gj_error *e)
{
    puzzle_step *s = &p->steps[i];
    s->moves = malloc(ANALYSIS_MAX_MOVES_LIMIT * sizeof *s->moves);
    if (s->moves == NULL)
        return gj_fail_nomem(e);
    gj_rank_head head;
    long n = s->at.ops->rank(s->at.pos, ANALYSIS_MAX_MOVES_LIMIT, s->moves, &head, e);
    if (n < 0)
        return -1;
    /* Kept as long as the puzzle: only the moves there are. */
    gj_move *fit = realloc(s->moves, (size_t)(n > 0 ? n : 1) * sizeof *fit);
    if (fit != NULL)
        s->moves = fit;
    if (head.moves_total < 0)
        return gj_fail(e, GJ_INTERNAL, "%s: an analysis without moves_total", p->game->name);
    if (head.moves_total != n)
        return 1 + PUZZLE_MISS_LISTED;
    if (i == 0 && head.to_move == NULL)
        return gj_fail(e, GJ_INTERNAL, "%s: a ranking without to_move", p->game->name);
    if (i == 0)
        p->mover = head.to_move;
    /* One winning move: then the mover wins (a win/lose game's position is
     * won exactly when a move wins; a scored game's has a best score). */
    s->legal = n;
    if (head.winning_moves != 1 || s->legal < 2 || (i == 0 && s->legal < p->min_moves))
        return 1 + PUZZLE_MISS_UNIQUE;
    if (finder_miss(s, e) != 0)
        return -1;
    s->motifs = 0;
    if (s->at.ops->motifs != NULL &&
        s->at.ops->motifs(s->at.pos, s->moves, s->legal, &s->motifs, e) != 0)
        return -1;
    return 0;
}

/* Whether step i + 1's position was met at an earlier step of a game
 * whose positions repeat (matrix-game may send the token back where it
 * was: the same step twice is no deeper a puzzle).  keys[k] holds step
 * k's members (members_of), compared as its JSON object was: equal bytes,
 * written in one request's order, are equal members.  1, 0, or -1 with
 * *e. */
static int met_before(puzzle *p, int i, gj_buf *keys, gj_error *e)
{
    members_of(&p->steps[i + 1].at, &keys[i + 1]);
    if (keys[i + 1].failed)
        return gj_fail_nomem(e);
    for (int k = 0; k <= i; k++)
        if (keys[k].len == keys[i + 1].len &&
            memcmp(keys[k].data, keys[i + 1].data, keys[k].len) == 0)
            return 1;
    return 0;
}

/* The defender's reply after step i's solving move, then step i + 1's
 * position, a copy of step i's with both played: 0, 1 + PUZZLE_MISS_ENDS when
 * the game ends there, -1 with *e. */
static int reply_to(puzzle *p, int i, gj_error *e)
{
    puzzle_step *s = &p->steps[i], *next = &p->steps[i + 1];
    next->at.ops = s->at.ops;
    next->at.pos = s->at.ops->clone(s->at.pos, e);
    if (next->at.pos == NULL)
        return -1;
    play_pos *d = &next->at;
    if (d->ops->play(d->pos, &s->moves[0], e) != 0)
        return -1;
    gj_move reply;
    long n = d->ops->rank(d->pos, 1, &reply, NULL, e);
    if (n <= 0)
        return n < 0 ? -1 : 1 + PUZZLE_MISS_ENDS;
    if (entry_text(d, &reply, &s->reply_text, e) != 0 || d->ops->play(d->pos, &reply, e) != 0)
        return -1;
    return 0;
}

/* The JSON of p's positions after the first, of each step's solving move
 * and reply entries and of its "to_move" (the first ranking's), which only
 * a kept line is written with: 0, or -1 with *e.  Each step's position is
 * as its ranking left it (never played on), so moves[0] still names the
 * solving move.  keys holds the members of each step when the game's
 * positions repeat (met_before). */
static int keep_line(puzzle *p, gj_buf *keys, gj_error *e)
{
    gj_buf text;
    buf_init(&text);
    int rc = 0;
    for (int i = 1; i < p->depth && rc == 0; i++) {
        puzzle_step *s = &p->steps[i];
        const gj_buf *own = keys[i].len > 0 ? &keys[i] : &text;
        if (own == &text)
            members_of(&s->at, &text);
        s->position = own->failed ? NULL : json_loadb(own->data, own->len, 0, NULL);
        if (s->position == NULL)
            rc = own->failed ? gj_fail_nomem(e)
                             : gj_fail(e, GJ_INTERNAL, "a puzzle's position is not JSON");
    }
    for (int i = 0; i < p->depth && rc == 0; i++) {
        puzzle_step *s = &p->steps[i];
        rc = entry_text(&s->at, &s->moves[0], &text, e);
        if (rc == 0 && (s->solving = entry_read(&text, e)) == NULL)
            rc = -1;
        if (rc == 0 && s->reply_text.len > 0 && (s->reply = entry_read(&s->reply_text, e)) == NULL)
            rc = -1;
        buf_free(&s->reply_text);
    }
    if (rc == 0 && (p->to_move = json_string(p->mover)) == NULL)
        rc = gj_fail_nomem(e);
    buf_free(&text);
    return rc;
}

/* The whole line of p->depth steps from the generated position (step 0's,
 * opened), its difficulty, rating and themes: 0, 1 + PUZZLE_MISS_* when it
 * is no puzzle, -1 with *e. */
static int build_line(puzzle *p, gj_error *e)
{
    gj_buf keys[PUZZLE_DEPTH_MAX];
    for (int i = 0; i < PUZZLE_DEPTH_MAX; i++)
        buf_init(&keys[i]);
    int rc = 0;
    bool repeats = p->game->play_repeats && p->depth > 1;
    if (repeats) {
        members_of(&p->steps[0].at, &keys[0]);
        if (keys[0].failed)
            rc = gj_fail_nomem(e);
    }
    for (int i = 0; rc == 0 && i < p->depth; i++) {
        rc = take_step(p, i, e);
        if (rc != 0)
            break;
        if (i + 1 == p->depth)
            break;
        rc = reply_to(p, i, e);
        int met = rc == 0 && repeats ? met_before(p, i, keys, e) : 0;
        if (met != 0)
            rc = met < 0 ? -1 : 1 + PUZZLE_MISS_REPEATS;
    }
    if (rc == 0) {
        puzzle_rate(p);
        rc = keep_line(p, keys, e);
    }
    for (int i = 0; i < PUZZLE_DEPTH_MAX; i++)
        buf_free(&keys[i]);
    return rc;
}

/* Empty p's line, keeping what names the puzzle. */
static void drop_line(puzzle *p)
{
    for (int i = 0; i < PUZZLE_DEPTH_MAX; i++)
        step_free(&p->steps[i]);
    json_decref(p->to_move);
    p->to_move = NULL;
}

int puzzle_build(puzzle *p, long long s, bool again, const long *limits, long budget_ms,
                 gj_error *e)
{
    drop_line(p);
    p->seed = s;
    /* The steps' positions read limits for as long as the puzzle lives. */
    memcpy(p->limits, limits, sizeof p->limits);
    int rc = generated(p, s, again, budget_ms, e);
    if (rc == 0)
        rc = build_line(p, e);
    if (rc == 0)
        rc = puzzle_id_make(p, e);
    return rc;
}
