/* fuzz_game.c - libFuzzer target: one game's parser through the whole
 * gj_game pipeline, parse -> cache key -> solve -> write text -> write
 * JSON -> free; or the game's analysis of a mid-play position.
 *
 * The build compiles this file once per game and mode, with FUZZ_GAME
 * naming the registry symbol (game_grid_walk) and FUZZ_JSON 0 for judge
 * text, 1 for the JSON twin, 2 for an /analyze request, 3 for a /generate
 * request (under a budget ceiling of GENERATE_CEILING_MS, so runs stay
 * cheap).  Each input runs twice: under the default limits, which are what
 * the service runs with, and under small limits, so that inputs near a
 * limit still solve in microseconds.
 *
 * Beyond the sanitizers, the target checks the promises a caller relies on:
 * a failure always says why and is never a broken invariant, a JSON answer
 * is valid JSON, and an analysis body read as it arrives (analysis_read.h)
 * is answered as the same body parsed whole. */
#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_read.h"
#include "engine.h"
#include "games.h"
#include "generate.h"
#include "line.h"

#ifndef FUZZ_GAME
#error "compile with -DFUZZ_GAME=game_<name> -DFUZZ_JSON=0|1|2|3"
#endif

#define SMALL_LIMIT         8
#define GENERATE_CEILING_MS 5

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A failure must carry a reason a person can read; GJ_INTERNAL is a bug. */
static void check_failure(const gj_error *e)
{
    if (e->kind == GJ_OK || e->kind == GJ_INTERNAL || e->message[0] == '\0')
        abort();
}

static void check_answer(const gj_game *g, const void *pos)
{
    gj_buf text, json;
    buf_init(&text);
    buf_init(&json);
    g->write_text(pos, &text);
    g->write_json(pos, &json);
    if (text.failed || json.failed)
        abort();
    /* Judge output always ends its last line. */
    if (text.len == 0 || text.data[text.len - 1] != '\n')
        abort();
    json_error_t err;
    json_t *root = json_loadb(json.data, json.len, JSON_REJECT_DUPLICATES, &err);
    if (!json_is_object(root))
        abort();
    json_decref(root);
    buf_free(&text);
    buf_free(&json);
}

/* An analysis is one JSON object with the frame of analysis.h, listing no
 * more moves than it counts. */
static void analyze(const gj_game *g, const long *limits, const char *in, size_t len)
{
    gj_error e;
    gj_buf out;
    gj_error_clear(&e);
    buf_init(&out);
    if (g->analyze(in, len, limits, &out, &e) != 0) {
        check_failure(&e);
        buf_free(&out);
        return;
    }
    json_error_t err;
    json_t *root = json_loadb(out.data, out.len, JSON_REJECT_DUPLICATES, &err);
    const json_t *moves = json_object_get(root, "moves");
    json_int_t total = json_integer_value(json_object_get(root, "moves_total"));
    json_int_t winning = json_integer_value(json_object_get(root, "winning_moves"));
    if (out.failed || !json_is_array(moves) || json_object_get(root, "value") == NULL ||
        (json_int_t)json_array_size(moves) > total || winning > total || winning < 0)
        abort();
    json_decref(root);
    buf_free(&out);
}

/* A generated answer is one JSON object with the frame of generate.h; a
 * failure (GJ_UNMET included) says why, and never that the game refused a
 * position its own generator made (GJ_INTERNAL). */
static void generate(const gj_game *g, const long *limits, const char *in, size_t len)
{
    gj_error e;
    gj_buf out;
    gj_error_clear(&e);
    buf_init(&out);
    if (g->generate(in, len, limits, &out, &e) != 0) {
        check_failure(&e);
        buf_free(&out);
        return;
    }
    json_error_t err;
    json_t *root = json_loadb(out.data, out.len, JSON_REJECT_DUPLICATES, &err);
    if (out.failed || !json_is_object(json_object_get(root, "position")) ||
        !json_is_object(json_object_get(root, "answer")) ||
        !json_is_integer(json_object_get(root, "seed")) ||
        json_integer_value(json_object_get(root, "candidates")) < 1)
        abort();
    json_decref(root);
    buf_free(&out);
}

/* Through the line wrapper: the frame again, and a line no longer than
 * max_line allows; through the engine: one move with its level. */
static void line_and_move(const gj_game *g, const long *limits, const char *in, size_t len)
{
    gj_error e;
    gj_buf out;
    json_error_t err;
    gj_error_clear(&e);
    buf_init(&out);
    if (line_analyze(g, in, len, limits, &out, &e) != 0) {
        check_failure(&e);
    } else {
        json_t *root = json_loadb(out.data, out.len, JSON_REJECT_DUPLICATES, &err);
        const json_t *line = json_object_get(root, "line");
        if (out.failed || !json_is_object(root) ||
            (line != NULL && (!json_is_array(line) || json_array_size(line) > LINE_MAX_LIMIT)))
            abort();
        json_decref(root);
    }
    buf_free(&out);
    gj_error_clear(&e);
    buf_init(&out);
    if (engine_move(g, in, len, limits, 42, &out, &e) != 0) {
        check_failure(&e);
    } else {
        json_t *root = json_loadb(out.data, out.len, JSON_REJECT_DUPLICATES, &err);
        json_int_t level = json_integer_value(json_object_get(root, "level"));
        if (out.failed || json_object_get(root, "move") == NULL || level < 1 ||
            level > ENGINE_LEVELS)
            abort();
        json_decref(root);
    }
    buf_free(&out);
}

/* Whether two errors say the same, at the same place. */
static int same_error(const gj_error *a, const gj_error *b)
{
    return a->kind == b->kind && a->line == b->line && a->column == b->column &&
           strcmp(a->field, b->field) == 0 && strcmp(a->message, b->message) == 0;
}

/* Whether the JSON object text names member `name` with a null. */
static int null_member(const char *text, const char *name)
{
    json_t *o = json_loads(text, 0, NULL);
    int null = json_is_null(json_object_get(o, name));
    json_decref(o);
    return null;
}

/* in read as it arrives in pieces of `piece` bytes by the game's analysis
 * reader (analysis_read.h): the body, or NULL with *e. */
static analysis_body *read_in_pieces(const gj_game *g, const long *limits, const char *in,
                                     size_t len, size_t piece, gj_error *e)
{
    const gj_body_reader *r = g->play->read_analysis;
    void *reader = r->open(limits, len, e);
    if (reader == NULL)
        abort(); /* opening takes no input: only memory could fail it */
    for (size_t at = 0; at < len; at += piece) {
        size_t n = len - at < piece ? len - at : piece;
        if (r->feed(reader, in + at, n, e) != 0) {
            r->close(reader);
            return NULL;
        }
    }
    return r->finish(reader, e);
}

/* A game that reads an analysis body as it arrives must answer it as the
 * body parsed whole: the same error at the same step, the same canonical
 * form (or, for a request refused, one no answered request has), the
 * same analysis and the same engine move. */
static void read_as_whole(const gj_game *g, const long *limits, const char *in, size_t len)
{
    if (g->play == NULL || g->play->read_analysis == NULL)
        return;
    for (size_t piece = 1; piece <= len + 1; piece = piece * 7 + 1) {
        line_request qa, qb;
        gj_error ea, eb;
        gj_error_clear(&ea);
        gj_error_clear(&eb);
        int ra = line_prepare(in, len, &qa, &ea);
        analysis_body *read = read_in_pieces(g, limits, in, len, piece, &eb);
        if (read == NULL) {
            if (ra == 0 || !same_error(&ea, &eb))
                abort();
            continue;
        }
        const char *bulk = read->events->bulk;
        int rb = line_prepare_read(read, &qb, &eb);
        if (ra != rb || (ra != 0 && !same_error(&ea, &eb)))
            abort();
        if (ra != 0)
            continue;
        int same_form = qa.canonical_len == qb.canonical_len &&
                        memcmp(qa.canonical, qb.canonical, qa.canonical_len) == 0;
        gj_buf oa, ob;
        buf_init(&oa);
        buf_init(&ob);
        ra = line_run(g, &qa, limits, &oa, &ea);
        rb = line_run(g, &qb, limits, &ob, &eb);
        if (ra != rb || (ra != 0 && !same_error(&ea, &eb)) ||
            (ra == 0 && (oa.len != ob.len || memcmp(oa.data, ob.data, oa.len) != 0)))
            abort();
        /* A refused request's form need not be the tree's, but it must be
         * no answered request's: its bulk member stands there as a null. */
        if (!same_form && (ra == 0 || !null_member(qb.canonical, bulk)))
            abort();
        buf_free(&oa);
        buf_free(&ob);
        line_request_free(&qa);
        line_request_free(&qb);
        buf_init(&oa);
        buf_init(&ob);
        ra = engine_move(g, in, len, limits, 42, &oa, &ea);
        read = read_in_pieces(g, limits, in, len, piece, &eb);
        rb = read != NULL ? engine_move_read(g, read, limits, 42, &ob, &eb) : -1;
        if (ra != rb || (ra != 0 && !same_error(&ea, &eb)) ||
            (ra == 0 && (oa.len != ob.len || memcmp(oa.data, ob.data, oa.len) != 0)))
            abort();
        buf_free(&oa);
        buf_free(&ob);
    }
}

/* The cache key of a parsed position is written without failing. */
static void check_key(const gj_game *g, const void *pos)
{
    gj_buf key;
    buf_init(&key);
    g->write_key(pos, &key);
    if (key.failed || key.len == 0)
        abort();
    buf_free(&key);
}

static void run(const gj_game *g, const long *limits, const char *in, size_t len)
{
    if (FUZZ_JSON == 2) {
        analyze(g, limits, in, len);
        line_and_move(g, limits, in, len);
        read_as_whole(g, limits, in, len);
        return;
    }
    if (FUZZ_JSON == 3) {
        generate(g, limits, in, len);
        return;
    }
    gj_error e;
    gj_error_clear(&e);
    void *pos = FUZZ_JSON ? g->parse_json(in, len, limits, &e) : g->parse_text(in, len, limits, &e);
    if (pos == NULL) {
        check_failure(&e);
        return;
    }
    check_key(g, pos);
    if (g->solve(pos, &e) == 0)
        check_answer(g, pos);
    else
        check_failure(&e);
    g->free_position(pos);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const gj_game *g = &FUZZ_GAME;
    long limits[GEN_NLIMITS];
    game_default_limits(g, limits);
    limits[GEN_LIMIT_BUDGET] = GENERATE_CEILING_MS;
    run(g, limits, (const char *)data, size);

    /* Small limits, never below what a game allows nor above its default. */
    for (int i = 0; i < g->nlimits; i++) {
        long small = SMALL_LIMIT < g->limits[i].min ? g->limits[i].min : SMALL_LIMIT;
        if (small < limits[i])
            limits[i] = small;
    }
    run(g, limits, (const char *)data, size);
    return 0;
}
