/* test_puzzle.c - the puzzles over HTTP against the real daemon: the flow a
 * site runs for every game (daily or rated puzzle, moves checked one by
 * one, solved or revealed) with the solution in no answer before it is
 * earned; the caching each answer says (a strong tag over its bytes, 304
 * on revalidation, no-store without a seed, today's daily puzzle kept only
 * until midnight UTC); and a check charged to the caller's quota.  Then
 * what a site chooses puzzles by (GET /games' puzzles, the theme asked),
 * the pictures of puzzles and positions (an SVG document, its headers,
 * tag and errors) and a puzzle link's page naming its picture. */
#include <check.h>
#include <curl/curl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client.h"
#include "daemon.h"
#include "games.h"
#include "puzzle_themes.h"

static test_daemon server;

/* A search bounded by a count with a minute to spare: found or not by the
 * parameters alone, whatever the machine's load. */
#define BOUNDED "tries=200&budget_ms=60000"

/* GET or POST base+path (body NULL for GET), with optional headers. */
static http_reply request(const char *method, const char *path, const char *body,
                          const char *const *headers)
{
    char url[4096];
    snprintf(url, sizeof url, "%s%s", server.base, path);
    http_call c = {method, url, headers, body, body ? strlen(body) : 0, 0};
    return http_do(&c);
}

/* The JSON body of a 200, failing the test on any other answer. */
static json_t *ok_json(http_reply *r, const char *what)
{
    ck_assert_msg(r->status == 200, "%s: %ld %s", what, r->status, r->body);
    json_t *j = json_loads(r->body, 0, NULL);
    ck_assert_msg(j != NULL, "%s: not JSON: %s", what, r->body);
    return j;
}

/* The whole flow for one game: the daily puzzle, then its id again (the
 * same bytes), a reveal, and the line played move by move. */
START_TEST(test_flow)
{
    size_t n;
    const gj_game *g = games_all(&n)[_i];
    char path[1536];
    snprintf(path, sizeof path, "/puzzle/%s/daily", g->name);
    http_reply daily = request("GET", path, NULL, NULL);
    json_t *shown = ok_json(&daily, path);
    const char *id = json_string_value(json_object_get(shown, "id"));
    long depth = (long)json_integer_value(json_object_get(shown, "depth"));
    ck_assert_ptr_nonnull(id);
    ck_assert(depth >= 1 && depth <= 6);
    ck_assert_ptr_null(json_object_get(shown, "solution"));
    ck_assert_int_ge(json_integer_value(json_object_get(shown, "legal_moves")), 2);

    snprintf(path, sizeof path, "/puzzle/%s/%s", g->name, id);
    http_reply again = request("GET", path, NULL, NULL);
    ck_assert_int_eq(again.status, 200);
    ck_assert_str_eq(again.body, daily.body);

    /* The reveal gives the line; nothing before it named a solving move. */
    snprintf(path, sizeof path, "/puzzle/%s/%s/check", g->name, id);
    http_reply reveal = request("POST", path, "{\"moves\": [], \"reveal\": true}", NULL);
    json_t *answer = ok_json(&reveal, "reveal");
    const json_t *solution = json_object_get(answer, "solution");
    ck_assert_int_eq((long)json_array_size(solution), depth);
    http_reply quiet = request("POST", path, "{\"moves\": []}", NULL);
    ck_assert_int_eq(quiet.status, 200);
    ck_assert_ptr_null(strstr(quiet.body, "solution"));

    /* Played move by move: each correct, the reply and the position after
     * it given while the puzzle goes on, solved at the end, and no answer
     * before the last names a move still to find. */
    json_t *moves = json_array();
    for (long k = 0; k < depth; k++) {
        const json_t *step = json_array_get(solution, (size_t)k);
        json_array_append(moves, json_object_get(step, "move"));
        json_t *body = json_pack("{s:O}", "moves", moves);
        char *text = json_dumps(body, JSON_COMPACT);
        http_reply r = request("POST", path, text, NULL);
        json_t *a = ok_json(&r, text);
        const json_t *last = json_array_get(json_object_get(a, "results"), (size_t)k);
        ck_assert(json_is_true(json_object_get(last, "correct")));
        ck_assert_int_eq(json_is_true(json_object_get(a, "solved")), k + 1 == depth);
        ck_assert_ptr_null(json_object_get(a, "solution"));
        if (k + 1 < depth) {
            ck_assert(json_equal(json_object_get(last, "reply"), json_object_get(step, "reply")));
            ck_assert_ptr_nonnull(json_object_get(last, "position"));
            /* A result holds the move, the verdict, the reply and the
             * position after it: nothing of the moves still to find. */
            ck_assert_int_eq(json_object_size(last), 4);
        }
        json_decref(a);
        json_decref(body);
        free(text);
        http_reply_free(&r);
    }
    /* What a visitor is shown holds these members and no other. */
    static const char *const members[] = {"game",        "id",    "position",   "to_move",
                                          "legal_moves", "depth", "difficulty", "band",
                                          "rating",      "themes"};
    ck_assert_int_eq(json_object_size(shown), 11);
    for (size_t m = 0; m < sizeof members / sizeof members[0]; m++)
        ck_assert_ptr_nonnull(json_object_get(shown, members[m]));
    json_decref(moves);
    json_decref(answer);
    json_decref(shown);
    http_reply_free(&quiet);
    http_reply_free(&reveal);
    http_reply_free(&again);
    http_reply_free(&daily);
}
END_TEST

/* Caching: a seeded puzzle has a strong tag over its bytes and a 304 on
 * revalidation; the same without a seed is no-store and untagged; the
 * daily puzzle without a date is kept at most until midnight UTC, with a
 * date for the usual --cache-max-age. */
START_TEST(test_caching)
{
    http_reply r = request("GET", "/puzzle/nim-shortcuts?seed=11&depth=2&" BOUNDED, NULL, NULL);
    ck_assert_int_eq(r.status, 200);
    char *etag = http_header(&r, "ETag");
    char *control = http_header(&r, "Cache-Control");
    ck_assert_ptr_nonnull(etag);
    ck_assert(etag[0] == '"');
    ck_assert_str_eq(control, "public, max-age=86400");
    char inm[128];
    snprintf(inm, sizeof inm, "If-None-Match: %s", etag);
    const char *const headers[] = {inm, NULL};
    http_reply again =
        request("GET", "/puzzle/nim-shortcuts?depth=2&seed=11&" BOUNDED, NULL, headers);
    ck_assert_int_eq(again.status, 304);
    http_reply other = request("GET", "/puzzle/nim-shortcuts?seed=12&" BOUNDED, NULL, headers);
    ck_assert_int_eq(other.status, 200);
    char *other_tag = http_header(&other, "ETag");
    ck_assert_str_ne(other_tag, etag);

    http_reply fresh = request("GET", "/puzzle/nim-shortcuts?" BOUNDED, NULL, NULL);
    ck_assert_int_eq(fresh.status, 200);
    char *fresh_control = http_header(&fresh, "Cache-Control");
    ck_assert_str_eq(fresh_control, "no-store");
    ck_assert_ptr_null(http_header(&fresh, "ETag"));

    http_reply today = request("GET", "/puzzle/matrix-game/daily", NULL, NULL);
    ck_assert_int_eq(today.status, 200);
    char *today_control = http_header(&today, "Cache-Control");
    long age = -1;
    ck_assert_int_eq(sscanf(today_control, "public, max-age=%ld", &age), 1);
    ck_assert(age >= 1 && age <= 86400);
    http_reply dated = request("GET", "/puzzle/matrix-game/daily?date=2026-06-01", NULL, NULL);
    ck_assert_int_eq(dated.status, 200);
    char *dated_control = http_header(&dated, "Cache-Control");
    ck_assert_str_eq(dated_control, "public, max-age=86400");
    /* A POST check is never kept. */
    http_reply check = request("POST", "/puzzle/matrix-game/1.x.0/check", "{}", NULL);
    ck_assert_int_eq(check.status, 400);
    char *check_control = http_header(&check, "Cache-Control");
    ck_assert_str_eq(check_control, "no-store");
    free(check_control);
    free(dated_control);
    free(today_control);
    free(fresh_control);
    free(other_tag);
    free(control);
    free(etag);
    http_reply_free(&check);
    http_reply_free(&dated);
    http_reply_free(&today);
    http_reply_free(&fresh);
    http_reply_free(&other);
    http_reply_free(&again);
    http_reply_free(&r);
}
END_TEST

/* A rated request over HTTP: the band asked for is the band answered, and
 * the same seed gives the same puzzle. */
START_TEST(test_band_over_http)
{
    http_reply a =
        request("GET", "/puzzle/matrix-game?seed=3&band=hard&depth=2&" BOUNDED, NULL, NULL);
    json_t *p = ok_json(&a, "hard");
    ck_assert_str_eq(json_string_value(json_object_get(p, "band")), "hard");
    ck_assert(json_real_value(json_object_get(p, "difficulty")) >= 0.5);
    http_reply b =
        request("GET", "/puzzle/matrix-game?band=hard&" BOUNDED "&seed=3&depth=2", NULL, NULL);
    ck_assert_str_eq(a.body, b.body);
    json_decref(p);
    http_reply_free(&a);
    http_reply_free(&b);
}
END_TEST

/* With tries, the budget changes nothing but whether the answer is known
 * in time: the same seeded request gives the same bytes (or the same 422)
 * with the default budget and with a minute, or a 503 to retry. */
START_TEST(test_tries_over_http)
{
    static const char *const asks[] = {
        "/puzzle/grid-walk?seed=4&depth=2&tries=30",
        "/puzzle/matrix-game?seed=6&band=easy&depth=2&tries=25",
        "/puzzle/staircase-chess?seed=2&depth=2&difficulty_min=0.6&tries=6",
    };
    for (size_t k = 0; k < sizeof asks / sizeof asks[0]; k++) {
        char slow[256];
        snprintf(slow, sizeof slow, "%s&budget_ms=60000", asks[k]);
        http_reply a = request("GET", asks[k], NULL, NULL);
        http_reply b = request("GET", slow, NULL, NULL);
        ck_assert_msg(b.status == 200 || b.status == 422, "%s: %ld %s", slow, b.status, b.body);
        if (a.status == 503)
            ck_assert_msg(strstr(a.body, "retry") != NULL, "%s: %s", asks[k], a.body);
        else {
            ck_assert_msg(a.status == b.status, "%s: %ld then %ld", asks[k], a.status, b.status);
            if (b.status == 200)
                ck_assert_str_eq(a.body, b.body);
        }
        if (b.status == 422) {
            const char *count = strstr(asks[k], "tries=") + 6;
            char want[64];
            snprintf(want, sizeof want, "within tries %ld (%ld candidates", atol(count),
                     atol(count));
            ck_assert_msg(strstr(b.body, want) != NULL, "%s: %s", slow, b.body);
        }
        http_reply_free(&a);
        http_reply_free(&b);
    }
}
END_TEST

/* The catalogue entry of game `name` in GET /games (a new reference into
 * `all`, which the caller frees). */
static const json_t *catalogue_entry(const json_t *all, const char *name)
{
    const json_t *games = json_object_get(all, "games");
    for (size_t i = 0; i < json_array_size(games); i++) {
        const json_t *g = json_array_get(games, i);
        if (strcmp(json_string_value(json_object_get(g, "name")), name) == 0)
            return g;
    }
    return NULL;
}

/* Whether s is a theme's spelling: lowercase words of letters and digits
 * joined by single '-'. */
static int theme_spelling(const char *s)
{
    int prev_dash = 1;
    for (; *s != '\0'; s++) {
        int dash = *s == '-';
        if (!(dash || (*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9')) || (dash && prev_dash))
            return 0;
        prev_dash = dash;
    }
    return !prev_dash;
}

/* GET /games lists per game what its puzzles can be: the three bands, the
 * depths 1 to the game's deepest (and why no deeper, when below 3), and
 * the whole vocabulary of themes, each once, with its line, as the
 * registry has them. */
START_TEST(test_catalogue_puzzles)
{
    http_reply r = request("GET", "/games", NULL, NULL);
    json_t *all = ok_json(&r, "/games");
    size_t n;
    const gj_game *const *games = games_all(&n);
    for (size_t i = 0; i < n; i++) {
        const gj_game *g = games[i];
        const json_t *p = json_object_get(catalogue_entry(all, g->name), "puzzles");
        ck_assert_msg(json_is_object(p), "%s: no puzzles", g->name);
        char path[64];
        snprintf(path, sizeof path, "/puzzle/%s", g->name);
        ck_assert_str_eq(json_string_value(json_object_get(p, "path")), path);
        const json_t *bands = json_object_get(p, "bands");
        static const char *const want[] = {"easy", "medium", "hard"};
        ck_assert_uint_eq(json_array_size(bands), 3);
        for (size_t b = 0; b < 3; b++)
            ck_assert_str_eq(json_string_value(json_array_get(bands, b)), want[b]);
        const json_t *depths = json_object_get(p, "depths");
        size_t deepest = json_array_size(depths);
        ck_assert_uint_eq(deepest, (size_t)puzzle_depth_max(g));
        ck_assert(deepest >= 1 && deepest <= 3);
        for (size_t d = 0; d < deepest; d++)
            ck_assert_int_eq(json_integer_value(json_array_get(depths, d)), (json_int_t)d + 1);
        const json_t *note = json_object_get(p, "depth_note");
        ck_assert_int_eq(note != NULL, g->puzzle_depth_note != NULL);
        const json_t *themes = json_object_get(p, "themes");
        size_t count = 0;
        while (puzzle_theme_at(g, (int)count) != NULL)
            count++;
        ck_assert_uint_eq(json_array_size(themes), count);
        for (size_t t = 0; t < count; t++) {
            const json_t *th = json_array_get(themes, t);
            const char *name = json_string_value(json_object_get(th, "name"));
            const char *doc = json_string_value(json_object_get(th, "doc"));
            ck_assert_uint_eq(json_object_size(th), 2);
            ck_assert_str_eq(name, puzzle_theme_at(g, (int)t)->name);
            ck_assert_msg(theme_spelling(name), "%s: theme '%s'", g->name, name);
            ck_assert(doc != NULL && doc[0] != '\0');
            for (size_t u = 0; u < t; u++)
                ck_assert_str_ne(
                    json_string_value(json_object_get(json_array_get(themes, u), "name")), name);
        }
    }
    json_decref(all);
    http_reply_free(&r);
}
END_TEST

/* The field a JSON error names, malloc'd ("" when none). */
static char *error_field(const http_reply *r)
{
    json_t *j = json_loads(r->body, 0, NULL);
    const char *f = json_string_value(json_object_get(json_object_get(j, "error"), "field"));
    char *out = strdup(f != NULL ? f : "");
    json_decref(j);
    return out;
}

/* theme= reaches the search as text: a name no game has is a 400 naming
 * theme in every game (however it is spelt: a number or true too); a
 * general theme gives a puzzle carrying it, or a 422 naming theme. */
START_TEST(test_theme_param)
{
    size_t n;
    const gj_game *const *games = games_all(&n);
    static const char *const unknown[] = {"no-such-theme", "true", "7", "only-move,nope", "[1]"};
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < sizeof unknown / sizeof unknown[0]; k++) {
            char path[256];
            snprintf(path, sizeof path, "/puzzle/%s?seed=1&theme=%s&" BOUNDED, games[i]->name,
                     unknown[k]);
            http_reply r = request("GET", path, NULL, NULL);
            char *field = error_field(&r);
            ck_assert_msg(r.status == 400 && strcmp(field, "theme") == 0, "%s: %ld %s", path,
                          r.status, r.body);
            free(field);
            http_reply_free(&r);
        }
    for (size_t i = 0; i < n; i++) {
        char path[256];
        snprintf(path, sizeof path, "/puzzle/%s?seed=5&theme=only-move&" BOUNDED, games[i]->name);
        http_reply r = request("GET", path, NULL, NULL);
        ck_assert_msg(r.status == 200 || r.status == 422, "%s: %ld %s", path, r.status, r.body);
        if (r.status == 200) {
            json_t *p = ok_json(&r, path);
            const json_t *themes = json_object_get(p, "themes");
            int found = 0;
            for (size_t t = 0; t < json_array_size(themes); t++)
                found |= strcmp(json_string_value(json_array_get(themes, t)), "only-move") == 0;
            ck_assert_msg(found, "%s: %s", path, r.body);
            json_decref(p);
        } else {
            char *field = error_field(&r);
            ck_assert_msg(strcmp(field, "theme") == 0, "%s: %s", path, r.body);
            free(field);
        }
        http_reply_free(&r);
    }
}
END_TEST

/* A picture's 200: an SVG document (its frame: the root with the SVG
 * namespace and a viewBox, the title first, naming the game), with its
 * type, a strong tag, the cache's time, CSP and nosniff; the same bytes
 * again; a 304 on its tag; a HEAD with the headers and no body.  `what`
 * names it in messages. */
static void check_picture(const gj_game *g, const char *path, const char *task)
{
    http_reply r = request("GET", path, NULL, NULL);
    ck_assert_msg(r.status == 200, "%s: %ld %s", path, r.status, r.body);
    char *type = http_header(&r, "Content-Type"), *tag = http_header(&r, "ETag");
    char *control = http_header(&r, "Cache-Control"),
         *csp = http_header(&r, "Content-Security-Policy");
    char *sniff = http_header(&r, "X-Content-Type-Options");
    ck_assert_str_eq(type, "image/svg+xml");
    ck_assert_msg(tag != NULL && tag[0] == '"' && tag[strlen(tag) - 1] == '"', "%s", path);
    ck_assert_str_eq(control, "public, max-age=86400");
    ck_assert_str_eq(csp, "default-src 'none'");
    ck_assert_str_eq(sniff, "nosniff");
    static const char root[] = "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 ";
    ck_assert_msg(strncmp(r.body, root, sizeof root - 1) == 0, "%s: %.200s", path, r.body);
    char title[256];
    snprintf(title, sizeof title, "<title id=\"title\">%s: ", g->display_name);
    const char *t = strstr(r.body, "<title");
    ck_assert_msg(t != NULL && strncmp(t, title, strlen(title)) == 0 && strchr(r.body, '<') != t &&
                      strstr(r.body, "\">") + 2 == t,
                  "%s: the title first: %.300s", path, r.body);
    ck_assert_msg(strstr(t, task) != NULL && strstr(t, task) < strstr(t, "</title>"), "%s: %.300s",
                  path, r.body);
    ck_assert_msg(strcmp(r.body + r.len - 7, "</svg>\n") == 0, "%s: its end", path);
    ck_assert_ptr_null(strstr(r.body, "<script"));

    http_reply again = request("GET", path, NULL, NULL);
    ck_assert_str_eq(again.body, r.body);
    char inm[128];
    snprintf(inm, sizeof inm, "If-None-Match: %s", tag);
    const char *const headers[] = {inm, NULL};
    http_reply kept = request("GET", path, NULL, headers);
    ck_assert_int_eq(kept.status, 304);
    ck_assert_uint_eq(kept.len, 0);
    http_reply head = request("HEAD", path, NULL, NULL);
    ck_assert_int_eq(head.status, 200);
    ck_assert_uint_eq(head.len, 0);
    char *head_tag = http_header(&head, "ETag"), *head_type = http_header(&head, "Content-Type");
    ck_assert_str_eq(head_tag, tag);
    ck_assert_str_eq(head_type, "image/svg+xml");
    free(head_tag);
    free(head_type);
    free(type);
    free(tag);
    free(control);
    free(csp);
    free(sniff);
    http_reply_free(&head);
    http_reply_free(&kept);
    http_reply_free(&again);
    http_reply_free(&r);
}

/* Ask path and expect a JSON error of `status` and `code`, naming `field`
 * (NULL: any), kept by no cache. */
static void expect_error(const char *method, const char *path, long status, const char *code,
                         const char *field)
{
    http_reply r = request(method, path, NULL, NULL);
    ck_assert_msg(r.status == status, "%s %s: %ld %s", method, path, r.status, r.body);
    char *type = http_header(&r, "Content-Type"), *control = http_header(&r, "Cache-Control");
    ck_assert_str_eq(type, "application/json");
    ck_assert_str_eq(control, "no-store");
    json_t *j = json_loads(r.body, 0, NULL);
    const json_t *err = json_object_get(j, "error");
    ck_assert_msg(strcmp(json_string_value(json_object_get(err, "code")), code) == 0, "%s: %s",
                  path, r.body);
    if (field != NULL)
        ck_assert_msg(strcmp(json_string_value(json_object_get(err, "field")), field) == 0,
                      "%s: %s", path, r.body);
    json_decref(j);
    free(type);
    free(control);
    http_reply_free(&r);
}

/* Each game's pictures: its daily puzzle's by id, and its example
 * position's from the /analyze request; then the errors, all JSON. */
START_TEST(test_pictures)
{
    size_t n;
    const gj_game *g = games_all(&n)[_i];
    char path[2048];
    snprintf(path, sizeof path, "/puzzle/%s/daily", g->name);
    http_reply daily = request("GET", path, NULL, NULL);
    json_t *shown = ok_json(&daily, path);
    const char *id = json_string_value(json_object_get(shown, "id"));
    long depth = (long)json_integer_value(json_object_get(shown, "depth"));
    char task[64];
    if (depth > 1)
        snprintf(task, sizeof task, "; find the %ld solving moves", depth);
    else
        snprintf(task, sizeof task, "; find the only ");
    snprintf(path, sizeof path, "/puzzle/%s/%s/image.svg", g->name, id);
    check_picture(g, path, task);

    /* The example position, in the query as GET /analyze takes it. */
    char *escaped = curl_escape(g->example_analyze, 0);
    snprintf(path, sizeof path, "/analyze/%s/image.svg?request=%s", g->name, escaped);
    check_picture(g, path, "; who wins, and with which move</title>");
    curl_free(escaped);

    /* Errors: a bad id, another game's id, an unknown game, a method, a
     * parameter, a request that is not one, moves to play first. */
    snprintf(path, sizeof path, "/puzzle/%s/2.bad.00000000/image.svg", g->name);
    expect_error("GET", path, 400, "bad_input", "id");
    const gj_game *other = games_all(&n)[(_i + 1) % (int)n];
    snprintf(path, sizeof path, "/puzzle/%s/%s/image.svg", other->name, id);
    expect_error("GET", path, 404, "not_found", "id");
    snprintf(path, sizeof path, "/puzzle/chess/%s/image.svg", id);
    expect_error("GET", path, 404, "unknown_game", NULL);
    expect_error("GET", "/analyze/chess/image.svg?request=%7B%7D", 404, "unknown_game", NULL);
    snprintf(path, sizeof path, "/puzzle/%s/%s/image.svg", g->name, id);
    expect_error("POST", path, 405, "method_not_allowed", NULL);
    snprintf(path, sizeof path, "/puzzle/%s/%s/image.svg?size=2", g->name, id);
    expect_error("GET", path, 400, "bad_input", "size");
    snprintf(path, sizeof path, "/analyze/%s/image.svg", g->name);
    expect_error("GET", path, 400, "bad_input", "request");
    snprintf(path, sizeof path, "/analyze/%s/image.svg?request=%%7B", g->name);
    expect_error("GET", path, 400, "bad_input", NULL);
    json_t *req = json_loads(g->example_analyze, 0, NULL);
    json_object_set_new(req, "moves", json_pack("[i]", 1));
    char *text = json_dumps(req, JSON_COMPACT);
    escaped = curl_escape(text, 0);
    snprintf(path, sizeof path, "/analyze/%s/image.svg?request=%s", g->name, escaped);
    expect_error("GET", path, 400, "bad_input", "moves");
    curl_free(escaped);
    free(text);
    json_decref(req);
    json_decref(shown);
    http_reply_free(&daily);
}
END_TEST

/* The tag <meta KEY="NAME" content="..."> of page, its content malloc'd,
 * or NULL. */
static char *meta_content(const char *page, const char *key, const char *name)
{
    char want[96];
    snprintf(want, sizeof want, "<meta %s=\"%s\" content=\"", key, name);
    const char *at = strstr(page, want);
    if (at == NULL)
        return NULL;
    at += strlen(want);
    return strndup(at, strcspn(at, "\""));
}

/* GET path from d itself (no proxy: the Host is the daemon's), with
 * optional headers. */
static http_reply direct(const test_daemon *d, const char *path, const char *const *headers)
{
    char url[2048];
    snprintf(url, sizeof url, "%s%s", d->direct, path);
    http_call c = {"GET", url, headers, NULL, 0, 0};
    return http_do(&c);
}

/* A puzzle link's page names its picture for previews: at the request's
 * Host (then no-store), at --public-origin when set (then cacheable as
 * the page is), and nowhere for a Host that is no plain host[:port], a
 * malformed id, an unknown game or no puzzle at all; the plain page is
 * the page as built. */
START_TEST(test_link_page)
{
    static const char id[] = "2.eyJhIjoxfQ.0123abcd";
    http_reply plain = direct(&server, "/", NULL);
    http_reply link =
        direct(&server, "/?utm_source=x&game=grid-walk&puzzle=2.eyJhIjoxfQ.0123abcd", NULL);
    ck_assert_int_eq(link.status, 200);
    char want[256];
    snprintf(want, sizeof want, "%s/puzzle/grid-walk/%s/image.svg", server.direct, id);
    char *og = meta_content(link.body, "property", "og:image");
    char *tw = meta_content(link.body, "name", "twitter:image");
    ck_assert_msg(og != NULL && strcmp(og, want) == 0, "og:image %s, want %s", og, want);
    ck_assert_str_eq(tw, want);
    char *control = http_header(&link, "Cache-Control");
    ck_assert_str_eq(control, "no-store");
    /* The tags go in the head, and the rest is the page as it is. */
    ck_assert(strstr(link.body, "og:image") < strstr(link.body, "</head>"));
    ck_assert_ptr_null(meta_content(plain.body, "property", "og:image"));
    ck_assert(link.len > plain.len);
    ck_assert_ptr_null(http_header(&plain, "Cache-Control"));

    static const char *const refused[] = {
        "/?game=grid-walk&puzzle=2.eyJhIjoxfQ.0123abcd%22%3E%3Cscript%3E",
        "/?game=chess&puzzle=2.eyJhIjoxfQ.0123abcd",
        "/?game=grid-walk",
        "/?puzzle=2.eyJhIjoxfQ.0123abcd",
        "/?game=grid-walk&puzzle=%zz",
    };
    for (size_t k = 0; k < sizeof refused / sizeof refused[0]; k++) {
        http_reply r = direct(&server, refused[k], NULL);
        ck_assert_int_eq(r.status, 200);
        ck_assert_msg(r.len == plain.len && memcmp(r.body, plain.body, r.len) == 0, "%s",
                      refused[k]);
        http_reply_free(&r);
    }
    static const char *const hosts[] = {"Host: evil.example\"><script>", "Host: a b",
                                        "Host: x.example/path"};
    for (size_t k = 0; k < sizeof hosts / sizeof hosts[0]; k++) {
        const char *const headers[] = {hosts[k], NULL};
        http_reply r = direct(&server, "/?game=grid-walk&puzzle=2.eyJhIjoxfQ.0123abcd", headers);
        ck_assert_msg(r.status != 200 || meta_content(r.body, "property", "og:image") == NULL, "%s",
                      hosts[k]);
        http_reply_free(&r);
    }

    test_daemon pub;
    static const char *const args[] = {"--public-origin", "https://puzzles.example", NULL};
    daemon_start(&pub, args);
    http_reply named = direct(&pub, "/?game=nim-shortcuts&puzzle=2.eyJhIjoxfQ.0123abcd", NULL);
    char *pub_og = meta_content(named.body, "property", "og:image");
    ck_assert_str_eq(
        pub_og, "https://puzzles.example/puzzle/nim-shortcuts/2.eyJhIjoxfQ.0123abcd/image.svg");
    ck_assert_ptr_null(http_header(&named, "Cache-Control"));
    free(pub_og);
    http_reply_free(&named);
    ck_assert_int_eq(daemon_stop(&pub), 0);

    free(control);
    free(og);
    free(tw);
    http_reply_free(&link);
    http_reply_free(&plain);
}
END_TEST

/* One daemon for the suite, its generation ceiling high enough for a
 * minute's budget. */
static void start_server(void)
{
    static const char *const args[] = {"--generate-budget-ms", "60000", NULL};
    daemon_start(&server, args);
}

/* Stop it by its PID. */
static void stop_server(void)
{
    ck_assert_int_eq(daemon_stop(&server), 0);
}

int main(void)
{
    size_t n;
    games_all(&n);
    Suite *s = suite_create("puzzle");
    TCase *tc = tcase_create("flow");
    tcase_add_unchecked_fixture(tc, start_server, stop_server);
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_flow, 0, (int)n);
    tcase_add_test(tc, test_caching);
    tcase_add_test(tc, test_band_over_http);
    tcase_add_test(tc, test_tries_over_http);
    tcase_add_test(tc, test_catalogue_puzzles);
    tcase_add_test(tc, test_theme_param);
    tcase_add_loop_test(tc, test_pictures, 0, (int)n);
    tcase_add_test(tc, test_link_page);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
