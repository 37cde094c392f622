/* generate.c - the seeded sample-solve-keep loop behind POST /generate
 * (generate.h). */
#include "generate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "after.h"
#include "analysis.h"
#include "cancel.h"
#include "json_in.h"

/* ---- reading the request ---------------------------------------------- */

long gen_cap(long limit, long cap)
{
    return limit < cap ? limit : cap;
}

int gen_long(const json_t *root, const char *name, long lo, long hi, const char *limit, long *out,
             gj_error *e)
{
    const json_t *v = json_object_get(root, name);
    if (v == NULL)
        return 0;
    if (!json_is_integer(v))
        return gj_fail_field(e, name, "expected an integer");
    json_int_t x = json_integer_value(v);
    if (x < lo || x > hi)
        return gj_fail_field(e, name, "%lld is out of range: expected %ld..%ld%s%s", (long long)x,
                             lo, hi, limit ? ", the limit in force being " : "",
                             limit ? limit : "");
    *out = (long)x;
    return 0;
}

int gen_share(const json_t *root, const char *name, double lo, double hi, double *out, gj_error *e)
{
    const json_t *v = json_object_get(root, name);
    if (v == NULL)
        return 0;
    if (!json_is_number(v))
        return gj_fail_field(e, name, "expected a number from %g to %g", lo, hi);
    double x = json_number_value(v);
    if (!(x >= lo && x <= hi))
        return gj_fail_field(e, name, "%g is out of range: expected a number from %g to %g", x, lo,
                             hi);
    *out = x;
    return 0;
}

int gen_pair(const json_t *root, const char *name, long min, long max, long out[2], bool *present,
             gj_error *e)
{
    const json_t *v = json_object_get(root, name);
    *present = v != NULL;
    if (v == NULL)
        return 0;
    if (jin_array(v, name, -1, 2, 2, e) != 0)
        return -1;
    for (long i = 0; i < 2; i++)
        if (jin_long(json_array_get(v, (size_t)i), name, i, -1, min, max, &out[i], e) != 0)
            return -1;
    if (out[0] > out[1])
        return gj_fail_field(e, name,
                             "[%ld, %ld] is empty: the first bound must not exceed "
                             "the second",
                             out[0], out[1]);
    return 0;
}

/* A seed from the clock when the caller gave none: any value will do, the
 * answer echoes it. */
static long long clock_seed(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    gj_rng r = {((uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec) ^ gj_cancel_now_ns()};
    return (long long)(gj_rng_next(&r) & (uint64_t)GEN_SEED_MAX);
}

/* "seed", "skip", "tries", "budget_ms", "outcome", "winning_moves",
 * "min_moves" and "answer" into req; 0, or -1. */
static int read_common(const gen_spec *spec, gen_request *req, long ceiling, gj_error *e)
{
    const json_t *root = req->root;
    const json_t *v = json_object_get(root, "seed");
    if (v == NULL)
        req->seed = clock_seed();
    else if (!json_is_integer(v) || json_integer_value(v) < 0 ||
             json_integer_value(v) > GEN_SEED_MAX)
        return gj_fail_field(e, "seed", "expected an integer from 0 to %lld (2^53 - 1)",
                             (long long)GEN_SEED_MAX);
    else
        req->seed = (long long)json_integer_value(v);
    v = json_object_get(root, "skip");
    req->skip = 0;
    if (v != NULL &&
        (!json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) > GEN_SEED_MAX))
        return gj_fail_field(e, "skip",
                             "expected an integer from 0 to %lld, the \"skip\" of an answer",
                             (long long)GEN_SEED_MAX);
    if (v != NULL)
        req->skip = (long long)json_integer_value(v);
    req->tries = 0;
    if (gen_long(root, "tries", 1, GEN_TRIES_MAX, NULL, &req->tries, e) != 0)
        return -1;
    req->budget_ms = gen_cap(GEN_BUDGET_DEFAULT_MS, ceiling);
    char limit[64];
    snprintf(limit, sizeof limit, "--generate-budget-ms %ld", ceiling);
    if (gen_long(root, "budget_ms", 1, ceiling, limit, &req->budget_ms, e) != 0)
        return -1;
    v = json_object_get(root, "outcome");
    req->outcome = GEN_ANY;
    if (v != NULL) {
        const char *s = json_string_value(v);
        if (s != NULL && strcmp(s, "win") == 0 && json_string_length(v) == 3)
            req->outcome = GEN_WIN;
        else if (s != NULL && strcmp(s, "lose") == 0 && json_string_length(v) == 4)
            req->outcome = GEN_LOSE;
        else
            return gj_fail_field(e, "outcome", "expected \"win\" or \"lose\"");
    }
    req->winning_moves = -1;
    if (gen_long(root, "winning_moves", 0, 1000000, NULL, &req->winning_moves, e) != 0)
        return -1;
    req->min_moves = 0;
    if (gen_long(root, "min_moves", 0, 1000000, NULL, &req->min_moves, e) != 0)
        return -1;
    req->in_play = req->winning_moves >= 0 || req->min_moves > 0;
    v = json_object_get(root, "answer");
    if (v != NULL && !json_is_boolean(v))
        return gj_fail_field(e, "answer",
                             "expected true (the default: the solver's answer comes with the "
                             "position) or false (the position alone, to keep from a visitor)");
    req->with_answer = v == NULL || json_is_true(v);
    if (after_take((json_t *)root, &req->after_full, e) != 0)
        return -1;
    if (spec->scored)
        return 0;
    if (req->winning_moves > 0 && req->outcome == GEN_LOSE)
        return gj_fail_field(e, "winning_moves",
                             "a position with a winning move is won: winning_moves %ld "
                             "contradicts outcome \"lose\"",
                             req->winning_moves);
    if (req->winning_moves == 0 && req->outcome == GEN_WIN)
        return gj_fail_field(e, "winning_moves",
                             "a won position has a winning move: winning_moves 0 contradicts "
                             "outcome \"win\"");
    return 0;
}

/* winning_moves below the game's bound on the moves, so one move loses,
 * and min_moves within it; a bound that counts only the positions with
 * winning_moves winning (most_winning) is named so. */
static int check_moves(const gen_request *req, gj_error *e)
{
    if (req->most_winning && req->most_moves == 0)
        return gj_fail_field(e, req->min_moves > 0 ? "min_moves" : "winning_moves",
                             "%ld is impossible here: no position of this size has exactly %ld "
                             "winning move%s and another move",
                             req->min_moves > 0 ? req->min_moves : req->winning_moves,
                             req->winning_moves, req->winning_moves == 1 ? "" : "s");
    if (req->most_winning && req->min_moves > req->most_moves)
        return gj_fail_field(e, "min_moves",
                             "%ld is impossible here: a position of this size with exactly %ld "
                             "winning move%s has at most %lld moves",
                             req->min_moves, req->winning_moves, req->winning_moves == 1 ? "" : "s",
                             req->most_moves);
    if (req->min_moves > req->most_moves)
        return gj_fail_field(e, "min_moves",
                             "%ld is impossible here: a position of this size has at most %lld "
                             "move%s",
                             req->min_moves, req->most_moves, req->most_moves == 1 ? "" : "s");
    if (req->winning_moves >= 0 && req->winning_moves >= req->most_moves)
        return gj_fail_field(e, "winning_moves",
                             "%ld is impossible here: a position of this size has at most %lld "
                             "move%s, and one of them must not win",
                             req->winning_moves, req->most_moves, req->most_moves == 1 ? "" : "s");
    return 0;
}

/* Parse the whole request: the common members, then the game's knobs, and
 * (when `moves`) min_moves and winning_moves against the game's bound. */
static json_t *read_request(const gen_spec *spec, const char *buf, size_t len, const long *limits,
                            void *knobs, gen_request *req, bool moves, gj_error *e)
{
    static const char *const common[] = {"?seed",      "?skip",    "?tries",
                                         "?budget_ms", "?outcome", "?winning_moves",
                                         "?min_moves", "?answer",  "?after"};
    enum { NCOMMON = sizeof common / sizeof common[0] };
    const char *keys[NCOMMON + GEN_MAX_KNOBS + 1];
    char own[GEN_MAX_KNOBS][40];
    size_t n = 0;
    for (; n < NCOMMON; n++)
        keys[n] = common[n];
    for (size_t k = 0; k < GEN_MAX_KNOBS && spec->knobs[k] != NULL; k++) {
        snprintf(own[k], sizeof own[k], "?%s", spec->knobs[k]);
        keys[n++] = own[k];
    }
    keys[n] = NULL;
    json_t *root = jin_load_object(buf, len, keys, e);
    if (root == NULL)
        return NULL;
    memset(req, 0, sizeof *req);
    req->root = root;
    if (read_common(spec, req, limits[GEN_LIMIT_BUDGET], e) != 0 ||
        spec->read(req, limits, knobs, e) != 0 || (moves && check_moves(req, e) != 0)) {
        json_decref(root);
        return NULL;
    }
    return root;
}

int gen_most(const gen_spec *spec, const char *buf, size_t len, const long *limits, void *knobs,
             long long *most, int *scored, gj_error *e)
{
    gen_request req;
    json_t *root = read_request(spec, buf, len, limits, knobs, &req, false, e);
    if (root == NULL)
        return -1;
    *most = req.most_moves;
    *scored = spec->scored;
    json_decref(root);
    return 0;
}

/* ---- writing candidates ------------------------------------------------ */

int gen_score_word(const json_t *v, const char *win, long long *out)
{
    const char *s = json_string_value(v);
    if (s == NULL)
        return -1;
    *out = strcmp(s, win) == 0 ? 1 : -1;
    return 0;
}

void gen_put_row(gen_candidate *c, long i, const char *row, size_t n)
{
    buf_puts(&c->position, i ? ",\"" : "\"");
    buf_append(&c->position, row, n);
    buf_putc(&c->position, '"');
    buf_append(&c->input, row, n);
    buf_putc(&c->input, '\n');
}

/* ---- judging a candidate ---------------------------------------------- */

/* Which of the asked constraints a candidate failed. */
enum { MISS_OUTCOME, MISS_WINNING, MISS_MOVES, MISS_SCORE, NMISS };

/* An opening position's answer into `answer`: /solve's, computed by the
 * game's own code.  0, or -1 with *e (GJ_CANCELLED at the deadline). */
static int answer_of(const gen_spec *spec, const gen_candidate *c, const long *limits,
                     gj_buf *answer, gj_error *e)
{
    const gj_game *g = spec->game;
    void *pos = g->parse_json(c->position.data, c->position.len, limits, e);
    if (pos == NULL)
        return -1;
    int rc = g->solve(pos, e);
    if (rc == 0)
        g->write_json(pos, answer);
    g->free_position(pos);
    return rc;
}

/* The first constraint the answer misses, or NMISS when it fits. */
static int miss(const gen_request *req, long long score, long long winning, long long total)
{
    if ((req->outcome == GEN_WIN && score <= 0) || (req->outcome == GEN_LOSE && score >= 0))
        return MISS_OUTCOME;
    if (req->winning_moves >= 0 && (winning != req->winning_moves || total <= winning))
        return MISS_WINNING;
    if (req->min_moves > 0 && total < req->min_moves)
        return MISS_MOVES;
    if (req->has_score && (score < req->score_lo || score > req->score_hi))
        return MISS_SCORE;
    return NMISS;
}

/* GJ_UNMET: what was asked, how often each part failed, how many tried. */
static int unmet(const gen_request *req, const long misses[NMISS], long tried, gj_error *e)
{
    static const char *const field[NMISS] = {"outcome", "winning_moves", "min_moves", "score"};
    char what[200] = "";
    size_t used = 0;
    int worst = MISS_OUTCOME;
    for (int m = 0; m < NMISS; m++) {
        bool asked = m == MISS_OUTCOME   ? req->outcome != GEN_ANY
                     : m == MISS_WINNING ? req->winning_moves >= 0
                     : m == MISS_MOVES   ? req->min_moves > 0
                                         : req->has_score;
        if (!asked)
            continue;
        if (misses[m] > misses[worst])
            worst = m;
        char value[48];
        if (m == MISS_OUTCOME)
            snprintf(value, sizeof value, "\"%s\"", req->outcome == GEN_WIN ? "win" : "lose");
        else if (m == MISS_WINNING)
            snprintf(value, sizeof value, "%ld", req->winning_moves);
        else if (m == MISS_MOVES)
            snprintf(value, sizeof value, "%ld", req->min_moves);
        else
            snprintf(value, sizeof value, "[%lld, %lld]", req->score_lo, req->score_hi);
        used += (size_t)snprintf(what + used, sizeof what - used, "%s%s %s (missed by %ld)",
                                 used ? ", " : "", field[m], value, misses[m]);
        if (used >= sizeof what)
            break;
    }
    char within[48];
    if (req->tries > 0 && tried >= req->tries)
        snprintf(within, sizeof within, "within tries %ld", req->tries);
    else
        snprintf(within, sizeof within, "within budget_ms %ld", req->budget_ms);
    gj_fail(e, GJ_UNMET,
            "%s: no position met %s %s (%ld candidate%s tried); try another size, looser "
            "constraints, %s",
            field[worst], what, within, tried, tried == 1 ? "" : "s",
            req->tries > 0 && tried >= req->tries ? "or more tries" : "or a larger budget");
    snprintf(e->field, sizeof e->field, "%s", field[worst]);
    return -1;
}

/* A JSON string of judge text: printable ASCII and newlines only. */
static void put_text(gj_buf *out, const gj_buf *text)
{
    buf_putc(out, '"');
    for (size_t i = 0; i < text->len; i++) {
        char ch = text->data[i];
        if (ch == '\n')
            buf_puts(out, "\\n");
        else {
            if (ch == '"' || ch == '\\')
                buf_putc(out, '\\');
            buf_putc(out, ch);
        }
    }
    buf_putc(out, '"');
}

/* The answer frame around the kept candidate and its answer (a position
 * in play's afters already written whole or not, judge_in_play);
 * allocation failure shows in out->failed. */
static void write_frame(const gen_spec *spec, const gen_request *req, const gen_candidate *c,
                        const gj_buf *answer, long tried, gj_buf *out)
{
    buf_puts(out, "{\"game\":\"");
    buf_puts(out, spec->game->name);
    buf_puts(out, "\",\"seed\":");
    buf_put_long(out, req->seed);
    buf_puts(out, ",\"position\":");
    buf_append(out, c->position.data, c->position.len);
    if (!req->in_play) {
        buf_puts(out, ",\"input\":");
        put_text(out, &c->input);
    }
    if (req->with_answer) {
        buf_puts(out, ",\"answer\":");
        buf_append(out, answer->data, answer->len);
    }
    buf_puts(out, ",\"candidates\":");
    buf_put_long(out, tried);
    buf_puts(out, ",\"skip\":");
    buf_put_long(out, (long)c->skip);
    buf_putc(out, '}');
}

/* The game's own failure on a sampler's position, which is a bug here
 * unless it is the deadline or memory: -1 with *e. */
static int refused(const gen_spec *spec, gj_error *e)
{
    if (e->kind != GJ_CANCELLED && e->kind != GJ_NO_MEMORY)
        gj_fail(e, GJ_INTERNAL, "%s: generated a position the solver refuses: %.300s",
                spec->game->name, e->message);
    return -1;
}

/* The analysis of the parsed position pos (root its loaded body, head its
 * ranking head) with each "after" whole, as after_put_answer writes it
 * from the analysis text, without loading that text or playing a move on
 * JSON: the game's own analysis up to its "moves" (the last member, after
 * the head and any member of the game's own, analysis.h), then the first
 * max_moves ranked entries, each written by the game's write_move(whole =
 * 1), their whole afters bounded as after.h says.  0, or -1 with *e. */
static int write_whole(const gj_game *g, void *pos, const json_t *root, const gj_rank_head *head,
                       gj_buf *out, gj_error *e)
{
    long max;
    if (analysis_max_moves(root, &max, e) != 0)
        return -1;
    long listed = head->moves_total < max ? (long)head->moves_total : max;
    gj_buf text;
    buf_init(&text);
    if (g->play->analyze(pos, &text, e) != 0) {
        buf_free(&text);
        return -1;
    }
    buf_putc(&text, '\0');
    bool failed = text.failed;
    const char *moves_at = failed ? NULL : strstr(text.data, ",\"moves\":[");
    if (moves_at != NULL)
        buf_append(out, text.data, (size_t)(moves_at - text.data));
    buf_free(&text);
    if (moves_at == NULL)
        return failed ? gj_fail_nomem(e)
                      : gj_fail(e, GJ_INTERNAL, "%s: an analysis without moves", g->name);
    gj_move *moves = malloc((size_t)(listed > 0 ? listed : 1) * sizeof *moves);
    if (moves == NULL)
        return gj_fail_nomem(e);
    long n = listed > 0 ? g->play->rank(pos, listed, moves, NULL, e) : 0;
    int rc = n < 0 ? -1 : 0;
    if (rc == 0 && n != listed)
        rc = gj_fail(e, GJ_INTERNAL, "%s: %ld moves ranked of %ld", g->name, n, listed);
    after_writer w;
    after_init(&w, g, 1);
    for (long i = 0; rc == 0 && i < listed; i++) {
        size_t bytes = 0;
        analysis_move_open(out, i);
        rc = g->play->write_move(pos, &moves[i], 1, out, &bytes, e);
        if (rc == 0)
            rc = after_count(&w, bytes, e);
        analysis_move_close(out);
    }
    analysis_end(out, listed);
    after_free(&w);
    free(moves);
    return rc;
}

/* Judge a candidate in play on the game's parsed position: loaded and
 * checked as analyze() does, so a refused position gives analyze()'s error;
 * ranked for the head alone, and analysed (into `answer`) only when it
 * fits and its answer is wanted, so that no analysis text is written or
 * read for the candidates thrown away; its afters whole (write_whole)
 * unless the request asked for the diff.  With `keep` a fitting candidate's
 * loaded body and parsed position go to *keep, and nothing is analysed.
 * The miss as miss() says it (NMISS: kept), or -1 with *e. */
static int judge_in_play(const gen_spec *spec, const gen_request *req, const gen_candidate *c,
                         const long *limits, gj_buf *answer, gen_kept *keep, gj_error *e)
{
    const gj_game *g = spec->game;
    json_t *root = jin_load_object(c->position.data, c->position.len, g->analyze_keys, e);
    if (root == NULL)
        return refused(spec, e);
    void *pos = g->play->parse(root, limits, e);
    if (pos == NULL) {
        json_decref(root);
        return refused(spec, e);
    }
    gj_move first;
    gj_rank_head head;
    int m;
    if (g->play->rank(pos, 1, &first, &head, e) < 0) {
        m = refused(spec, e);
    } else if (!spec->scored && head.value != 0 && head.value != 1) {
        m = gj_fail(e, GJ_INTERNAL, "%s: the solver's answer lacks its outcome", g->name);
    } else {
        /* The head's value is the analysis' "value": 1 "win" and 0 "lose",
         * taken as 1 and -1 (gen_spec.score's sign), or a scored game's
         * integer. */
        long long score = spec->scored ? head.value : head.value == 1 ? 1 : -1;
        m = miss(req, score, head.winning_moves, head.moves_total);
        if (m == NMISS && keep != NULL) {
            keep->position = root;
            keep->pos = pos;
            return m;
        }
        if (m == NMISS && req->with_answer && req->after_full &&
            write_whole(g, pos, root, &head, answer, e) != 0)
            m = e->kind == GJ_UNMET ? -1 : refused(spec, e);
        else if (m == NMISS && req->with_answer && !req->after_full &&
                 g->play->analyze(pos, answer, e) != 0)
            m = refused(spec, e);
    }
    g->play->free(pos);
    json_decref(root);
    return m;
}

/* An opening candidate's miss, read from the solution text that
 * answer_of wrote into `answer` (gen_spec.score reads the JSON): as
 * judge_in_play returns. */
static int judge_opening(const gen_spec *spec, const gen_request *req, const gen_candidate *c,
                         const long *limits, gj_buf *answer, gj_error *e)
{
    if (answer_of(spec, c, limits, answer, e) != 0)
        return refused(spec, e);
    if (answer->failed)
        return gj_fail_nomem(e);
    json_t *a = json_loadb(answer->data, answer->len, 0, NULL);
    long long score = 0;
    int rc = a != NULL ? spec->score(a, &score) : -1;
    json_decref(a);
    if (rc != 0)
        return gj_fail(e, GJ_INTERNAL, "%s: the solver's answer lacks its outcome",
                       spec->game->name);
    return miss(req, score, -1, -1);
}

/* Solve candidate c and, when it fits, write the frame (or with `keep`,
 * hand it to *keep): 1 kept, 0 not, -1 with *e (the deadline passed, or
 * the solver refused the position).
 * The judging watches a flag with the budget's deadline, or the caller's
 * (`outer`, may be NULL) when that is sooner; the caller's is bound again
 * after. */
static int try_one(const gen_spec *spec, const gen_request *req, const gen_candidate *c,
                   const long *limits, unsigned long long deadline, gj_cancel *outer, long tried,
                   long misses[NMISS], gj_buf *out, gen_kept *keep, gj_error *e)
{
    gj_buf answer;
    buf_init(&answer);
    gj_cancel cancel;
    if (outer != NULL && outer->deadline_ns != 0 && outer->deadline_ns < deadline)
        deadline = outer->deadline_ns;
    gj_cancel_init(&cancel, deadline);
    gj_cancel_bind(&cancel);
    int m = req->in_play ? judge_in_play(spec, req, c, limits, &answer, keep, e)
                         : judge_opening(spec, req, c, limits, &answer, e);
    gj_cancel_bind(outer);
    if (m == NMISS && answer.failed)
        m = gj_fail_nomem(e);
    if (m == NMISS && keep != NULL)
        keep->skip = c->skip;
    else if (m == NMISS)
        write_frame(spec, req, c, &answer, tried, out);
    else if (m >= 0)
        misses[m]++;
    buf_free(&answer);
    return m < 0 ? -1 : m == NMISS;
}

/* gen_run, the kept candidate written to out or (keep not NULL) handed
 * to *keep: 0, or -1 with *e. */
static int run(const gen_spec *spec, const char *buf, size_t len, const long *limits, void *knobs,
               gj_buf *out, gen_kept *keep, gj_error *e)
{
    gen_request req;
    json_t *root = read_request(spec, buf, len, limits, knobs, &req, true, e);
    if (root == NULL)
        return -1;
    if (keep != NULL && !req.in_play) {
        json_decref(root);
        return gj_fail(e, GJ_INTERNAL, "%s: only a position in play is kept parsed",
                       spec->game->name);
    }
    unsigned long long deadline =
        gj_cancel_now_ns() + (unsigned long long)req.budget_ms * 1000000ull;
    gj_rng rng = {(uint64_t)req.seed};
    gj_rng_skip(&rng, (uint64_t)req.skip);
    /* The caller's flag (the server's job: client gone, request timeout)
     * stops the search too, as itself rather than as an unmet budget. */
    gj_cancel *outer = gj_cancel_bound();
    long misses[NMISS] = {0};
    int rc = 0;
    for (long tried = 1;; tried++) {
        gen_candidate c;
        buf_init(&c.position);
        buf_init(&c.input);
        c.skip = (long long)gj_rng_drawn(&rng, (uint64_t)req.seed);
        int kept = 0;
        if (spec->sample(&rng, &req, knobs, &c) == 0) {
            if (c.position.failed || c.input.failed)
                kept = gj_fail_nomem(e);
            else
                kept =
                    try_one(spec, &req, &c, limits, deadline, outer, tried, misses, out, keep, e);
        }
        buf_free(&c.position);
        buf_free(&c.input);
        if (kept != 0) {
            rc = kept == 1 ? 0 : -1;
            if (kept < 0 && e->kind == GJ_CANCELLED && gj_cancel_check(e) == 0)
                rc = unmet(&req, misses, tried, e);
            break;
        }
        if (gj_cancel_check(e) != 0) {
            rc = -1;
            break;
        }
        if ((req.tries > 0 && tried >= req.tries) || gj_cancel_now_ns() > deadline) {
            rc = unmet(&req, misses, tried, e);
            break;
        }
    }
    json_decref(root);
    return rc;
}

int gen_run(const gen_spec *spec, const char *buf, size_t len, const long *limits, void *knobs,
            gj_buf *out, gj_error *e)
{
    return run(spec, buf, len, limits, knobs, out, NULL, e);
}

int gen_keep(const gen_spec *spec, const char *buf, size_t len, const long *limits, void *knobs,
             gen_kept *kept, gj_error *e)
{
    memset(kept, 0, sizeof *kept);
    return run(spec, buf, len, limits, knobs, NULL, kept, e);
}
