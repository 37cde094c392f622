/* test_api.c - drives the real daemon over loopback: every endpoint, every
 * error status of the README's table, the public test data through HTTP (text and JSON)
 * and through the CLI, and 64 concurrent requests.
 *
 * Error cases are a table (request -> expected status, code, message part,
 * header) run by one driver, in the manner of curl's test suite. */
#include <check.h>
#include <curl/curl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client.h"
#include "daemon.h"
#include "data.h"

static test_daemon server;

static void start_server(void)
{
    daemon_start(&server, NULL);
}

static void stop_server(void)
{
    ck_assert_int_eq(daemon_stop(&server), 0);
}

static char *url(const char *path)
{
    static char buf[512];
    snprintf(buf, sizeof buf, "%s%s", server.base, path);
    return buf;
}

static http_reply get(const char *path)
{
    http_call c = {"GET", url(path), NULL, NULL, 0, 0};
    return http_do(&c);
}

static http_reply post(const char *path, const char *const *headers, const char *body, size_t len)
{
    http_call c = {"POST", url(path), headers, body, len, 0};
    return http_do(&c);
}

/* Parse r's body as JSON; fail the test when it is not. */
static json_t *json_body(const http_reply *r)
{
    json_error_t err;
    json_t *j = json_loadb(r->body, r->len, 0, &err);
    ck_assert_msg(j != NULL, "not JSON (%s): %s", err.text, r->body);
    return j;
}

static void assert_header(const http_reply *r, const char *name, const char *want)
{
    char *v = http_header(r, name);
    ck_assert_msg(v != NULL, "no %s header in:\n%s", name, r->headers);
    if (want != NULL)
        ck_assert_str_eq(v, want);
    free(v);
}

/* ---- the judge output as the JSON answer, per game -------------------- */

static json_t *lines_array(const char *text, int skip_first)
{
    json_t *a = json_array();
    char *copy = strdup(text), *save = NULL;
    int i = 0;
    for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save), i++)
        if (!(skip_first && i == 0))
            json_array_append_new(a, json_string(line));
    free(copy);
    return a;
}

static json_t *grid_walk_answer(const char *text)
{
    if (strncmp(text, "LOSE", 4) == 0)
        return json_pack("{s:s, s:s, s:[]}", "game", "grid-walk", "verdict", "LOSE",
                         "winning_cells");
    json_t *cells = json_array(), *lines = lines_array(text, 1);
    size_t i;
    json_t *line;
    json_array_foreach(lines, i, line)
    {
        int r, c;
        ck_assert_int_eq(sscanf(json_string_value(line), "%d %d", &r, &c), 2);
        json_array_append_new(cells, json_pack("[i,i]", r, c));
    }
    json_decref(lines);
    return json_pack("{s:s, s:s, s:o}", "game", "grid-walk", "verdict", "WIN", "winning_cells",
                     cells);
}

static json_t *expected_json(const char *game, const char *text)
{
    if (strcmp(game, "matrix-game") == 0)
        return json_pack("{s:s, s:o}", "game", game, "outcomes", lines_array(text, 0));
    if (strcmp(game, "grid-walk") == 0)
        return grid_walk_answer(text);
    if (strcmp(game, "nim-shortcuts") == 0)
        return json_pack("{s:s, s:o}", "game", game, "answers", lines_array(text, 0));
    if (strcmp(game, "prime-chocolate") == 0) {
        char word[8] = "";
        sscanf(text, "%7s", word);
        return json_pack("{s:s, s:s}", "game", game, "winner", word);
    }
    return json_pack("{s:s, s:I}", "game", game, "score_difference",
                     (json_int_t)strtoll(text, NULL, 10));
}

/* ---- public test data ----------------------------------------------------- */

static void check_case_http(const char *game, const char *in, size_t in_len, const char *out)
{
    char path[128];
    snprintf(path, sizeof path, "/solve/%s?format=text", game);
    http_reply text = post(path, NULL, in, in_len);
    ck_assert_msg(text.status == 200, "%s: status %ld: %s", game, text.status, text.body);
    ck_assert_str_eq(text.body, out);
    assert_header(&text, "Content-Type", "text/plain; charset=utf-8");
    http_reply_free(&text);

    /* The same position, answer negotiated by Accept. */
    const char *accept_text[] = {"Accept: text/plain", NULL};
    snprintf(path, sizeof path, "/solve/%s", game);
    http_reply negotiated = post(path, accept_text, in, in_len);
    ck_assert_str_eq(negotiated.body, out);
    http_reply_free(&negotiated);

    http_reply json = post(path, NULL, in, in_len);
    ck_assert_int_eq(json.status, 200);
    assert_header(&json, "Content-Type", "application/json");
    json_t *got = json_body(&json), *want = expected_json(game, out);
    char *g = json_dumps(got, JSON_COMPACT), *w = json_dumps(want, JSON_COMPACT);
    ck_assert_msg(json_equal(got, want), "%s: JSON answer %s, expected %s", game, g, w);
    free(g);
    free(w);
    json_decref(got);
    json_decref(want);
    http_reply_free(&json);
}

START_TEST(test_data_through_http)
{
    ck_assert_int_ge(data_each_case(check_case_http), 12);
}
END_TEST

static void check_case_cli(const char *game, const char *in, size_t in_len, const char *out)
{
    const char *args[] = {"solve", game, NULL};
    char *got, *err;
    int rc = run_cli(args, in, in_len, &got, &err);
    ck_assert_msg(rc == 0, "%s: exit %d: %s", game, rc, err);
    ck_assert_str_eq(got, out);
    free(got);
    free(err);
}

START_TEST(test_data_through_cli)
{
    ck_assert_int_ge(data_each_case(check_case_cli), 12);
}
END_TEST

/* ---- the JSON twins of the README ----------------------------------------------- */

static const struct {
    const char *game, *request, *answer;
} api_examples[] = {
    {"matrix-game", "{\"k\": 1, \"matrix\": [[1,2,3],[4,5,6],[7,8,9]]}",
     "{\"game\": \"matrix-game\", \"outcomes\": [\"GGG\", \"GGG\", \"GMM\"]}"},
    {"grid-walk", "{\"grid\": [\"..#\", \"...\"]}",
     "{\"game\": \"grid-walk\", \"verdict\": \"WIN\", \"winning_cells\": [[1,2],[2,1],[2,3]]}"},
    {"nim-shortcuts", "{\"shortcuts\": [[3,0],[0,1]], \"queries\": [[0,0],[1,1]]}",
     "{\"game\": \"nim-shortcuts\", \"answers\": [\"LOSE\", \"WIN\"]}"},
    {"prime-chocolate", "{\"grid\": [\"--X\", \"---\", \"---\"]}",
     "{\"game\": \"prime-chocolate\", \"winner\": \"RUBY\"}"},
    {"staircase-chess", "{\"a\": [[2,7,3],[9,1,2]], \"b\": [[3,7,2],[2,3,1]]}",
     "{\"game\": \"staircase-chess\", \"score_difference\": 2}"},
};

START_TEST(test_api_examples)
{
    const char *json_type[] = {"Content-Type: application/json", NULL};
    char path[128];
    snprintf(path, sizeof path, "/solve/%s", api_examples[_i].game);
    const char *req = api_examples[_i].request;
    http_reply r = post(path, json_type, req, strlen(req));
    ck_assert_msg(r.status == 200, "%s: %ld %s", path, r.status, r.body);
    json_t *got = json_body(&r), *want = json_loads(api_examples[_i].answer, 0, NULL);
    ck_assert_msg(json_equal(got, want), "%s: got %s", path, r.body);
    assert_header(&r, "Server-Timing", NULL);
    json_decref(got);
    json_decref(want);
    http_reply_free(&r);
}
END_TEST

/* ---- GET endpoints ------------------------------------------------------------ */

START_TEST(test_healthz)
{
    http_reply r = get("/healthz");
    ck_assert_int_eq(r.status, 200);
    ck_assert_str_eq(r.body, "{\"status\":\"ok\"}");
    assert_header(&r, "Content-Type", "application/json");
    assert_header(&r, "X-Request-Id", NULL);
    http_reply_free(&r);

    /* HEAD goes to the daemon itself: the contract proxy tries to read a
     * HEAD answer's (absent) body as JSON and fails. */
    char direct[256];
    snprintf(direct, sizeof direct, "%s/healthz", server.direct);
    http_call head = {"HEAD", direct, NULL, NULL, 0, 0};
    r = http_do(&head);
    ck_assert_int_eq(r.status, 200);
    ck_assert_uint_eq(r.len, 0);
    http_reply_free(&r);
}
END_TEST

START_TEST(test_games)
{
    http_reply r = get("/games");
    ck_assert_int_eq(r.status, 200);
    json_t *j = json_body(&r), *games = json_object_get(j, "games");
    ck_assert_uint_eq(json_array_size(games), 5);
    for (size_t i = 0; i < 5; i++) {
        json_t *g = json_array_get(games, i);
        const char *name = json_string_value(json_object_get(g, "name"));
        ck_assert_ptr_nonnull(name);
        /* A name for people, not the URL's slug: capitalised, no hyphen. */
        const char *shown = json_string_value(json_object_get(g, "display_name"));
        ck_assert_ptr_nonnull(shown);
        ck_assert_msg(shown[0] >= 'A' && shown[0] <= 'Z' && strchr(shown, '-') == NULL,
                      "%s: display_name %s", name, shown);
        ck_assert(json_object_size(json_object_get(g, "limits")) >= 1);
        /* Each example must itself solve. */
        const char *text =
            json_string_value(json_object_get(json_object_get(g, "example"), "text"));
        char path[128];
        snprintf(path, sizeof path, "/solve/%s", name);
        http_reply s = post(path, NULL, text, strlen(text));
        ck_assert_msg(s.status == 200, "%s example: %s", name, s.body);
        http_reply_free(&s);
    }
    json_decref(j);
    http_reply_free(&r);
}
END_TEST

START_TEST(test_openapi_served)
{
    size_t len;
    char *spec = read_file_or_fail(daemon_spec(), &len);
    http_reply r = get("/openapi.yaml");
    ck_assert_int_eq(r.status, 200);
    ck_assert_uint_eq(r.len, len);
    ck_assert(memcmp(r.body, spec, len) == 0);
    free(spec);
    http_reply_free(&r);
}
END_TEST

/* The reference page is generated from the spec and must load nothing
 * from the network (the service may run where there is none). */
START_TEST(test_docs_served)
{
    http_reply r = get("/docs");
    ck_assert_int_eq(r.status, 200);
    assert_header(&r, "Content-Type", "text/html; charset=utf-8");
    ck_assert_ptr_nonnull(strstr(r.body, "<title>gamejudge</title>"));
    ck_assert_ptr_nonnull(strstr(r.body, "solve-grid-walk")); /* an operation of the spec */
    ck_assert_ptr_null(strstr(r.body, "src=\"http"));
    ck_assert_ptr_null(strstr(r.body, "rel=\"stylesheet\" href=\"http"));
    http_reply_free(&r);
}
END_TEST

START_TEST(test_request_id)
{
    const char *given[] = {"X-Request-Id: trace-42", NULL};
    http_call c = {"GET", url("/healthz"), given, NULL, 0, 0};
    http_reply r = http_do(&c);
    assert_header(&r, "X-Request-Id", "trace-42");
    http_reply_free(&r);

    /* One access-log line: time, method, path, status, bytes, micros, id,
     * the peer (no quota= without --quota-rate). */
    char *log = daemon_wait_log(&server, " id=trace-42 client=127.0.0.1 end=ok\n");
    ck_assert_msg(log != NULL, "no access-log line for trace-42");
    *strstr(log, " id=trace-42 client=127.0.0.1 end=ok\n") = '\0';
    char *line = strrchr(log, '\n') ? strrchr(log, '\n') + 1 : log;
    char stamp[40], method[8], path[64], micros[32];
    int status, bytes;
    ck_assert_int_eq(
        sscanf(line, "%39s %7s %63s %d %d %31s", stamp, method, path, &status, &bytes, micros), 6);
    ck_assert_str_eq(method, "GET");
    ck_assert_str_eq(path, "/healthz");
    ck_assert_int_eq(status, 200);
    ck_assert_int_eq(bytes, 15);
    ck_assert_str_eq(micros + strlen(micros) - 2, "us");
    ck_assert_int_eq(stamp[strlen(stamp) - 1], 'Z'); /* UTC */
    free(log);

    /* Errors carry it in the body too. */
    c.url = url("/missing");
    r = http_do(&c);
    json_t *j = json_body(&r);
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(j, "error"), "request_id")),
                     "trace-42");
    json_decref(j);
    http_reply_free(&r);

    /* Two requests without one get different generated ids. */
    http_reply a = get("/healthz"), b = get("/healthz");
    char *ia = http_header(&a, "X-Request-Id"), *ib = http_header(&b, "X-Request-Id");
    ck_assert_str_ne(ia, ib);
    free(ia);
    free(ib);
    http_reply_free(&a);
    http_reply_free(&b);
}
END_TEST

/* ---- every error status, as a table ---------------------------------------------- */

typedef struct error_case {
    const char *name;
    const char *method, *path;
    const char *header; /* one extra request header, or NULL */
    const char *body;   /* NULL: no body */
    int chunked;
    long status;
    const char *code;
    const char *message_part;
    const char *reply_header; /* "Name: value" the reply must carry, or NULL */
} error_case;

static const error_case errors[] = {
    {"unknown game", "POST", "/solve/chess", NULL, "1", 0, 404, "unknown_game", "'chess'", NULL},
    {"unknown path", "GET", "/nowhere", NULL, NULL, 0, 404, "not_found", "/nowhere", NULL},
    {"trailing slash", "POST", "/solve/grid-walk/", NULL, "1", 0, 404, "unknown_game", NULL, NULL},
    {"GET on solve without a query", "GET", "/solve/grid-walk", NULL, NULL, 0, 400, "bad_input",
     "input=", "Cache-Control: no-store"},
    {"PUT on solve", "PUT", "/solve/grid-walk", NULL, "1 1\n.\n", 0, 405, "method_not_allowed",
     "PUT", "Allow: GET, HEAD, POST"},
    {"DELETE on games", "DELETE", "/games", NULL, NULL, 0, 405, "method_not_allowed", NULL,
     "Allow: GET, HEAD"},
    {"POST on healthz", "POST", "/healthz", NULL, "x", 0, 405, "method_not_allowed", NULL,
     "Allow: GET, HEAD"},
    {"unsupported type", "POST", "/solve/grid-walk", "Content-Type: application/xml", "<a/>", 0,
     415, "unsupported_media_type", "application/json", NULL},
    {"multipart", "POST", "/solve/grid-walk", "Content-Type: multipart/form-data; boundary=x",
     "--x--", 0, 415, "unsupported_media_type", "multipart/form-data", NULL},
    {"bad format", "POST", "/solve/grid-walk?format=xml", NULL, "1 1\n.\n", 0, 400, "bad_input",
     "format", NULL},
    {"bad token", "POST", "/solve/prime-chocolate", NULL, "2\n-X\n-?\n", 0, 400, "bad_input",
     "line 3, column 2", NULL},
    {"empty body", "POST", "/solve/prime-chocolate", NULL, "", 0, 400, "bad_input",
     "end of the input", NULL},
    {"bad JSON", "POST", "/solve/prime-chocolate", "Content-Type: application/json",
     "{\"grid\":", 0, 400, "bad_input", "invalid JSON", NULL},
    {"JSON field", "POST", "/solve/prime-chocolate", "Content-Type: application/json",
     "{\"grid\": [\"--\", 7]}", 0, 400, "bad_input", "grid[1]", NULL},
    {"JSON unknown field", "POST", "/solve/prime-chocolate",
     "Content-Type: application/json; charset=utf-8", "{\"grid\": [\"-\"], \"n\": 1}", 0, 400,
     "bad_input", "unknown field", NULL},
    {"over the limit", "POST", "/solve/prime-chocolate", NULL, "2001\n", 0, 400, "bad_input",
     "2000", NULL},
};

START_TEST(test_error_table)
{
    const error_case *t = &errors[_i];
    const char *headers[] = {t->header, NULL};
    char direct[512];
    snprintf(direct, sizeof direct, "%s%s", server.direct, t->path);
    /* The contract proxy cannot forward a body that is not JSON at all
     * under a JSON content type; such requests go to the daemon itself. */
    json_t *parsed = t->body ? json_loads(t->body, 0, NULL) : NULL;
    int broken_json = t->header && strstr(t->header, "json") && parsed == NULL;
    json_decref(parsed);
    http_call c = {t->method, broken_json ? direct : url(t->path), headers,
                   t->body,   t->body ? strlen(t->body) : 0,       t->chunked};
    http_reply r = http_do(&c);
    ck_assert_msg(r.status == t->status, "%s: status %ld, expected %ld: %s", t->name, r.status,
                  t->status, r.body);
    assert_header(&r, "Content-Type", "application/json");
    assert_header(&r, "X-Request-Id", NULL);
    json_t *j = json_body(&r), *err = json_object_get(j, "error");
    ck_assert_str_eq(json_string_value(json_object_get(err, "code")), t->code);
    const char *message = json_string_value(json_object_get(err, "message"));
    ck_assert_ptr_nonnull(message);
    if (t->message_part != NULL)
        ck_assert_msg(strstr(message, t->message_part) != NULL, "%s: message '%s' lacks '%s'",
                      t->name, message, t->message_part);
    if (t->reply_header != NULL) {
        char name[64];
        const char *colon = strchr(t->reply_header, ':');
        snprintf(name, sizeof name, "%.*s", (int)(colon - t->reply_header), t->reply_header);
        assert_header(&r, name, colon + 2);
    }
    json_decref(j);
    http_reply_free(&r);
}
END_TEST

START_TEST(test_bad_input_names_line)
{
    const char *body = "3\n---\n--\n---\n";
    http_reply r = post("/solve/prime-chocolate", NULL, body, strlen(body));
    ck_assert_int_eq(r.status, 400);
    json_t *root = json_body(&r), *err = json_object_get(root, "error");
    ck_assert_int_eq(json_integer_value(json_object_get(err, "line")), 3);
    ck_assert_str_eq(json_string_value(json_object_get(err, "message")),
                     "line 3, column 1: row 2 has 2 cells, expected 3");
    json_decref(root);
    http_reply_free(&r);
}
END_TEST

/* 413 from Content-Length before the body is read, and while reading a
 * chunked body that has no length. */
START_TEST(test_too_large)
{
    test_daemon small;
    const char *flags[] = {"--max-body", "1K", NULL};
    daemon_start(&small, flags);
    char *big = malloc(5000);
    memset(big, '-', 5000);
    char u[128];
    snprintf(u, sizeof u, "%s/solve/prime-chocolate", small.base);

    http_call by_length = {"POST", u, NULL, big, 5000, 0};
    http_reply r = http_do(&by_length);
    ck_assert_int_eq(r.status, 413);
    json_t *j = json_body(&r);
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(j, "error"), "code")),
                     "too_large");
    ck_assert(strstr(r.body, "1024") != NULL);
    json_decref(j);
    http_reply_free(&r);

    /* The chunked bodies go to the daemon itself: the contract proxy
     * forwards a chunked body with a Content-Length beside its
     * Transfer-Encoding, a head the daemon refuses as ambiguous. */
    char chunked_url[128];
    snprintf(chunked_url, sizeof chunked_url, "%s/solve/prime-chocolate", small.direct);
    http_call by_chunks = {"POST", chunked_url, NULL, big, 5000, 1};
    r = http_do(&by_chunks);
    ck_assert_msg(r.status == 413, "chunked: %ld %s", r.status, r.body);
    ck_assert(strstr(r.body, "too_large") != NULL);
    http_reply_free(&r);

    /* At the limit exactly is fine (an error about the content, not the size). */
    http_call at_limit = {"POST", chunked_url, NULL, big, 1024, 1};
    r = http_do(&at_limit);
    ck_assert_int_eq(r.status, 400);
    http_reply_free(&r);

    /* The daemon still serves. */
    snprintf(u, sizeof u, "%s/healthz", small.base);
    http_call health = {"GET", u, NULL, NULL, 0, 0};
    r = http_do(&health);
    ck_assert_int_eq(r.status, 200);
    http_reply_free(&r);
    free(big);
    ck_assert_int_eq(daemon_stop(&small), 0);
}
END_TEST

START_TEST(test_content_types)
{
    const char *in = "3\n--X\n---\n---\n";
    const char *none[] = {"Content-Type:", NULL};
    const char *form[] = {"Content-Type: application/x-www-form-urlencoded", NULL};
    const char *text[] = {"Content-Type: text/plain; charset=utf-8", NULL};
    const char *const *variants[] = {none, form, text};
    for (int i = 0; i < 3; i++) {
        http_reply r = post("/solve/prime-chocolate?format=text", variants[i], in, strlen(in));
        ck_assert_int_eq(r.status, 200);
        ck_assert_str_eq(r.body, "RUBY\n");
        http_reply_free(&r);
    }
    /* A browser-style Accept list still gets JSON; a text-first list gets text. */
    const char *browser[] = {"Accept: text/html,application/xhtml+xml,*/*;q=0.8", NULL};
    http_reply r = post("/solve/prime-chocolate", browser, in, strlen(in));
    assert_header(&r, "Content-Type", "application/json");
    http_reply_free(&r);
    const char *prefers_text[] = {"Accept: application/json;q=0.5, text/plain", NULL};
    r = post("/solve/prime-chocolate", prefers_text, in, strlen(in));
    ck_assert_str_eq(r.body, "RUBY\n");
    http_reply_free(&r);
}
END_TEST

/* 64 requests at once over separate connections, all answered correctly. */
START_TEST(test_concurrent)
{
    enum { N = 64 };
    static const char *const bodies[] = {"1\nX\n", "1\n-\n", "2\n--\n--\n", "2\n-X\nX-\n"};
    static const char *const answers[] = {"DIA\n", "RUBY\n", "RUBY\n", "DIA\n"};
    http_call calls[N];
    http_reply replies[N];
    for (int i = 0; i < N; i++)
        calls[i] = (http_call){"POST",
                               strdup(url("/solve/prime-chocolate?format=text")),
                               NULL,
                               bodies[i % 4],
                               strlen(bodies[i % 4]),
                               0};
    http_do_parallel(calls, replies, N);
    for (int i = 0; i < N; i++) {
        ck_assert_msg(replies[i].status == 200, "request %d: %ld %s", i, replies[i].status,
                      replies[i].body);
        ck_assert_str_eq(replies[i].body, answers[i % 4]);
        http_reply_free(&replies[i]);
        free((char *)calls[i].url);
    }
}
END_TEST

/* ---- the CLI ----------------------------------------------------------------------- */

START_TEST(test_cli)
{
    char *out, *err;
    const char *json[] = {"solve", "prime-chocolate", "--json", NULL};
    ck_assert_int_eq(run_cli(json, "1\n-\n", 4, &out, &err), 0);
    ck_assert_str_eq(out, "{\"game\":\"prime-chocolate\",\"winner\":\"RUBY\"}\n");
    free(out);
    free(err);

    const char *twin[] = {"solve", "prime-chocolate", NULL};
    const char *in = "{\"grid\": [\"X\"]}";
    ck_assert_int_eq(run_cli(twin, in, strlen(in), &out, &err), 0);
    ck_assert_str_eq(out, "DIA\n");
    free(out);
    free(err);

    ck_assert_int_eq(run_cli(twin, "2\n--\n-\n", 8, &out, &err), 2);
    ck_assert_str_eq(out, "");
    ck_assert_msg(strstr(err, "line 3, column 1: row 2 has 1 cell, expected 2") != NULL, "%s", err);
    ck_assert_ptr_null(strchr(strchr(err, '\n') + 1, '\n')); /* one line */
    free(out);
    free(err);

    /* --timing: the answer as without it, then the three times on stderr. */
    const char *timed[] = {"solve", "prime-chocolate", "--timing", NULL};
    ck_assert_int_eq(run_cli(timed, "1\n-\n", 4, &out, &err), 0);
    ck_assert_str_eq(out, "RUBY\n");
    double parse_ms = -1, solve_ms = -1, write_ms = -1;
    int took = sscanf(err, "parse;dur=%lf, solve;dur=%lf, write;dur=%lf\n", &parse_ms, &solve_ms,
                      &write_ms);
    ck_assert_msg(took == 3 && parse_ms >= 0 && solve_ms >= 0 && write_ms >= 0, "%s", err);
    ck_assert_ptr_null(strchr(strchr(err, '\n') + 1, '\n')); /* one line */
    free(out);
    free(err);

    const char *unknown[] = {"solve", "chess", NULL};
    ck_assert_int_eq(run_cli(unknown, "", 0, &out, &err), 2);
    ck_assert(strstr(err, "unknown game 'chess'") != NULL);
    free(out);
    free(err);

    const char *version[] = {"--version", NULL};
    ck_assert_int_eq(run_cli(version, "", 0, &out, &err), 0);
    ck_assert(strncmp(out, "gamejudge ", 10) == 0);
    free(out);
    free(err);

    const char *help[] = {"serve", "--help", NULL};
    ck_assert_int_eq(run_cli(help, "", 0, &out, &err), 0);
    ck_assert(strstr(out, "GAMEJUDGE_PORT") != NULL && strstr(out, "--max-body") != NULL);
    free(out);
    free(err);

    const char *bad_flag[] = {"serve", "--port", "99999", NULL};
    ck_assert_int_eq(run_cli(bad_flag, "", 0, &out, &err), 2);
    ck_assert(strstr(err, "--port must be an integer from 0 to 65535") != NULL);
    free(out);
    free(err);
}
END_TEST

int main(void)
{
    curl_global_init(CURL_GLOBAL_DEFAULT);
    Suite *s = suite_create("api");
    TCase *tc = tcase_create("daemon");
    tcase_set_timeout(tc, 300);
    tcase_add_unchecked_fixture(tc, start_server, stop_server);
    tcase_add_test(tc, test_data_through_http);
    tcase_add_test(tc, test_data_through_cli);
    tcase_add_loop_test(tc, test_api_examples, 0,
                        (int)(sizeof api_examples / sizeof api_examples[0]));
    tcase_add_test(tc, test_healthz);
    tcase_add_test(tc, test_games);
    tcase_add_test(tc, test_openapi_served);
    tcase_add_test(tc, test_docs_served);
    tcase_add_test(tc, test_request_id);
    tcase_add_loop_test(tc, test_error_table, 0, (int)(sizeof errors / sizeof errors[0]));
    tcase_add_test(tc, test_bad_input_names_line);
    tcase_add_test(tc, test_too_large);
    tcase_add_test(tc, test_content_types);
    tcase_add_test(tc, test_concurrent);
    tcase_add_test(tc, test_cli);
    suite_add_tcase(s, tc);

    return run_suite(s);
}
