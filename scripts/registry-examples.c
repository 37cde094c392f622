/* registry-examples.c - print every game's registry examples and the
 * answers the game's own code gives them, as JSON, for
 * scripts/build-spec.mjs, which puts both into the OpenAPI document so
 * that the spec shows the very requests the registry (and GET /games) holds
 * and, beside each, the answer the daemon gives it, never one copied by
 * hand.
 *
 * Output: {"games": [{"name", "display_name", "title", and per example
 * KIND a member KIND (the request) and KIND-answer (its answer, the bytes
 * as they are, JSON ones unparsed)}, ...]} in games.def's order.  The kinds:
 *
 *   text      example_text; the judge-text answer (POST /solve, format=text)
 *   json      example_json; the JSON answer (POST /solve).  The JSON answer
 *             of example_text must be the same bytes: one position
 *   analyze   example_analyze; what POST /analyze answers (line_analyze,
 *             the line.h the endpoint runs: each after whole)
 *   diff      example_analyze with "after": "diff"; the game's analyze()
 *             answer to example_analyze, which must be what POST /analyze
 *             answers the diff request
 *   line      example_analyze with "max_moves": 1 and "line": true; what
 *             POST /analyze answers (the moves cut to the best one, so the
 *             example shows the line)
 *   generate  example_generate; generate() under the default limits and the
 *             daemon's default budget ceiling (--generate-budget-ms), what
 *             POST /generate answers a seeded request
 *
 * An example the registry lacks is null, request and answer; an example
 * its game refuses, or answers otherwise than the daemon would, stops the
 * build with a message naming it.  The limits are the games' defaults, the
 * daemon's without --limit.  Built from the solver library alone
 * (mk/spec.mk), never from the server, whose library embeds the document
 * this helps to make. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games.h"
#include "generate.h"
#include "line.h"

/* One way of answering an example request: req's answer from g into out,
 * 0, or -1 with *e. */
typedef int (*answerer)(const gj_game *g, const char *req, gj_buf *out, gj_error *e);

/* The /solve answer to req, read as judge text (from_text) or as the JSON
 * twin and written as judge text (to_text) or JSON: 0, or -1 with *e. */
static int solve(const gj_game *g, int from_text, int to_text, const char *req, gj_buf *out,
                 gj_error *e)
{
    long limits[GJ_MAX_LIMITS];
    game_default_limits(g, limits);
    size_t len = strlen(req);
    void *pos = from_text ? g->parse_text(req, len, limits, e) : g->parse_json(req, len, limits, e);
    if (pos == NULL)
        return e->kind != GJ_OK ? -1 : gj_fail(e, GJ_INTERNAL, "the parser failed silently");
    int rc = g->solve(pos, e);
    if (rc == 0) {
        if (to_text)
            g->write_text(pos, out);
        else
            g->write_json(pos, out);
        if (out->failed)
            rc = gj_fail_nomem(e);
    }
    g->free_position(pos);
    return rc;
}

/* The judge-text answer to the judge text req. */
static int text_to_text(const gj_game *g, const char *req, gj_buf *out, gj_error *e)
{
    return solve(g, 1, 1, req, out, e);
}

/* The JSON answer to the judge text req. */
static int text_to_json(const gj_game *g, const char *req, gj_buf *out, gj_error *e)
{
    return solve(g, 1, 0, req, out, e);
}

/* The JSON answer to the JSON twin req. */
static int json_to_json(const gj_game *g, const char *req, gj_buf *out, gj_error *e)
{
    return solve(g, 0, 0, req, out, e);
}

/* What POST /analyze answers req: the line's analysis, as the endpoint
 * runs it. */
static int served_analysis(const gj_game *g, const char *req, gj_buf *out, gj_error *e)
{
    long limits[GJ_MAX_LIMITS];
    game_default_limits(g, limits);
    return line_analyze(g, req, strlen(req), limits, out, e);
}

/* The game's own analyze() answer to req. */
static int game_analysis(const gj_game *g, const char *req, gj_buf *out, gj_error *e)
{
    long limits[GJ_MAX_LIMITS];
    game_default_limits(g, limits);
    return g->analyze(req, strlen(req), limits, out, e);
}

/* What POST /generate answers req on a daemon with its default limits. */
static int generated(const gj_game *g, const char *req, gj_buf *out, gj_error *e)
{
    long limits[GEN_NLIMITS];
    game_default_limits(g, limits);
    limits[GEN_LIMIT_BUDGET] = GEN_BUDGET_CEILING_DEFAULT_MS;
    return g->generate(req, strlen(req), limits, out, e);
}

/* The JSON request base with the members of the JSON object extra set
 * (replacing any of the same name in place, appending the others), in
 * jansson's spelling: a new string for free(), or NULL. */
static char *with_members(const char *base, const char *extra)
{
    json_t *req = json_loads(base, 0, NULL);
    json_t *add = json_loads(extra, 0, NULL);
    char *out = NULL;
    if (json_is_object(req) && json_is_object(add) && json_object_update(req, add) == 0)
        out = json_dumps(req, 0);
    json_decref(req);
    json_decref(add);
    return out;
}

/* The answer `how` gives g for req into out (emptied first): 0, or -1
 * with a message naming the game and the kind of example on stderr. */
static int answer(const gj_game *g, const char *kind, answerer how, const char *req, gj_buf *out)
{
    gj_error e;
    gj_error_clear(&e);
    buf_free(out);
    buf_init(out);
    if (how(g, req, out, &e) == 0)
        return 0;
    fprintf(stderr, "registry-examples: %s: the %s example is refused: %s\n", g->name, kind,
            e.message);
    return -1;
}

/* Members `kind` (req as a string, or null) and `kind`-answer (what `how`
 * answers it, left in out too; null with no req) of entry: 0, or -1 with
 * a message on stderr. */
static int example(json_t *entry, const gj_game *g, const char *kind, const char *req, answerer how,
                   gj_buf *out)
{
    char key[32];
    snprintf(key, sizeof key, "%s-answer", kind);
    if (req != NULL && answer(g, kind, how, req, out) != 0)
        return -1;
    json_t *request = req != NULL ? json_string(req) : json_null();
    json_t *reply = req != NULL ? json_stringn(out->data, out->len) : json_null();
    /* Both set, so that neither is left unowned when the first fails. */
    int failed = json_object_set_new(entry, kind, request) != 0;
    failed |= json_object_set_new(entry, key, reply) != 0;
    if (failed) {
        fprintf(stderr, "registry-examples: out of memory\n");
        return -1;
    }
    return 0;
}

/* 0 when a and b hold the same bytes; else -1 with `why` (about game g) on
 * stderr. */
static int same(const gj_game *g, const gj_buf *a, const gj_buf *b, const char *why)
{
    if (a->len == b->len && (a->len == 0 || memcmp(a->data, b->data, a->len) == 0))
        return 0;
    fprintf(stderr, "registry-examples: %s: %s\n", g->name, why);
    return -1;
}

/* Game g's entry with its examples and their answers: 0 with it appended
 * to list, or -1 with a message on stderr. */
static int game_entry(json_t *list, const gj_game *g)
{
    json_t *entry = json_pack("{s:s, s:s, s:s}", "name", g->name, "display_name", g->display_name,
                              "title", g->title);
    if (entry == NULL || json_array_append_new(list, entry) != 0) {
        fprintf(stderr, "registry-examples: out of memory\n");
        return -1;
    }
    const char *analysis = g->analyze != NULL ? g->example_analyze : NULL;
    const char *generation = g->generate != NULL ? g->example_generate : NULL;
    char *diff = analysis != NULL ? with_members(analysis, "{\"after\": \"diff\"}") : NULL;
    char *line =
        analysis != NULL ? with_members(analysis, "{\"max_moves\": 1, \"line\": true}") : NULL;
    gj_buf a, b;
    buf_init(&a);
    buf_init(&b);
    int rc = -1;
    if (analysis != NULL && (diff == NULL || line == NULL)) {
        fprintf(stderr, "registry-examples: %s: the analyze example is no JSON object\n", g->name);
    } else if (example(entry, g, "text", g->example_text, text_to_text, &b) == 0 &&
               example(entry, g, "json", g->example_json, json_to_json, &a) == 0 &&
               (g->example_text == NULL || g->example_json == NULL ||
                (answer(g, "text", text_to_json, g->example_text, &b) == 0 &&
                 same(g, &a, &b, "the text and JSON examples have different JSON answers") == 0)) &&
               example(entry, g, "analyze", analysis, served_analysis, &a) == 0 &&
               example(entry, g, "diff", diff, served_analysis, &a) == 0 &&
               (diff == NULL ||
                (answer(g, "analyze", game_analysis, analysis, &b) == 0 &&
                 same(g, &a, &b, "analyze() and POST /analyze with \"after\": \"diff\" differ") ==
                     0)) &&
               example(entry, g, "line", line, served_analysis, &a) == 0 &&
               example(entry, g, "generate", generation, generated, &a) == 0) {
        rc = 0;
    }
    buf_free(&a);
    buf_free(&b);
    free(diff);
    free(line);
    return rc;
}

/* Exit 0 with the document on stdout, 1 when it could not be made. */
int main(void)
{
    size_t n;
    const gj_game *const *games = games_all(&n);
    json_t *list = json_array();
    int whole = list != NULL;
    for (size_t i = 0; whole && i < n; i++)
        whole = game_entry(list, games[i]) == 0;
    json_t *root = whole ? json_pack("{s:O}", "games", list) : NULL;
    json_decref(list);
    char *out = root != NULL ? json_dumps(root, JSON_INDENT(2)) : NULL;
    json_decref(root);
    if (out == NULL) {
        if (whole)
            fprintf(stderr, "registry-examples: out of memory\n");
        return 1;
    }
    puts(out);
    free(out);
    return 0;
}
