/* test_query.c - the strict query decoding (query.h): every request's
 * query checked against the names its route reads, the GET forms decoded;
 * and the answer tags with If-None-Match (etag.h). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "etag.h"
#include "games.h"
#include "harness.h"
#include "line.h"
#include "query.h"

/* Decode raw for route; returns 0 or -1 and leaves the body in *r. */
static int decode(query_route route, const char *raw, query_request *r, gj_error *e)
{
    return query_request_decode(route, raw, strlen(raw), r, e);
}

START_TEST(test_unescape)
{
    char s[32];
    size_t bad = 99;
    strcpy(s, "a+b%20c%2B%2b%00");
    ck_assert_int_eq(query_unescape(s, strlen(s), &bad), 8);
    ck_assert_int_eq(memcmp(s, "a b c++\0", 8), 0);
    /* Every malformed escape is refused at its '%', never passed on. */
    static const struct {
        const char *in;
        size_t at;
    } bad_cases[] = {{"%", 0},   {"ab%", 2},   {"a%4", 1}, {"%G1", 0},
                     {"%1g", 0}, {"x%%41", 1}, {"%-1", 0}, {"%\xff\xff", 0}};
    for (size_t i = 0; i < sizeof bad_cases / sizeof bad_cases[0]; i++) {
        strcpy(s, bad_cases[i].in);
        ck_assert_msg(query_unescape(s, strlen(s), &bad) == -1, "%s", bad_cases[i].in);
        ck_assert_uint_eq(bad, bad_cases[i].at);
    }
}
END_TEST

START_TEST(test_solve_forms)
{
    query_request r;
    gj_error e;
    ck_assert_int_eq(decode(QUERY_SOLVE, "input=3+1%0A1+2+3%0A&format=text", &r, &e), 0);
    ck_assert_int_eq(r.input, MEDIA_TEXT);
    ck_assert_uint_eq(r.len, 10);
    ck_assert_str_eq(r.body, "3 1\n1 2 3\n");
    query_request_free(&r);
    ck_assert_int_eq(decode(QUERY_SOLVE, "&position=%7B%22k%22%3A1%7D&", &r, &e), 0);
    ck_assert_int_eq(r.input, MEDIA_JSON);
    ck_assert_str_eq(r.body, "{\"k\":1}");
    query_request_free(&r);
    /* A bare name is an empty value: the parser then says what is missing. */
    ck_assert_int_eq(decode(QUERY_SOLVE, "input", &r, &e), 0);
    ck_assert_uint_eq(r.len, 0);
    query_request_free(&r);
    /* A form that reads nothing but format decodes to an empty body. */
    ck_assert_int_eq(decode(QUERY_NONE, "format=json", &r, &e), 0);
    ck_assert_uint_eq(r.len, 0);
    ck_assert_str_eq(r.body, "");
    query_request_free(&r);
    ck_assert_int_eq(decode(QUERY_NONE, "request=%7B%7D", &r, &e), -1);
    ck_assert_str_eq(e.field, "request");
    ck_assert_int_eq(decode(QUERY_ANALYZE, "request=%7B%7D", &r, &e), 0);
    ck_assert_str_eq(r.body, "{}");
    ck_assert_int_eq(r.input, MEDIA_JSON);
    query_request_free(&r);
}
END_TEST

/* The parameters form (QUERY_PARAMS): a value that reads as JSON (a
 * number, true, false, an array) is taken as JSON, any other as text;
 * "theme", a list of names, is text whatever it reads as, so a theme
 * named like a number or "true" reaches the search as its name. */
START_TEST(test_params_form)
{
    static const char *const values[] = {"7",    "-0.5e3",    "true",      "false",   "[3,5]", "[]",
                                         "easy", "only-move", "a,b",       "",        "null",  "1e",
                                         "01",   "[3",        "trap,long", "win-in-2"};
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
        const char *v = values[i];
        char raw[128];
        snprintf(raw, sizeof raw, "theme=%s&seed=%s", v, v);
        query_request r;
        gj_error e;
        json_error_t err;
        /* As JSON where the whole value parses as JSON and is not null. */
        json_t *as_json = json_loads(v, JSON_DECODE_ANY, &err);
        bool json_like = as_json != NULL && !json_is_null(as_json) && !json_is_string(as_json) &&
                         !json_is_object(as_json) && strcmp(v, "01") != 0;
        bool refused = v[0] == '[' && as_json == NULL; /* "[3": an array that is not one */
        int rc = decode(QUERY_PARAMS, raw, &r, &e);
        ck_assert_msg(rc == (refused ? -1 : 0), "%s: %d %s", raw, rc, e.message);
        if (refused) {
            ck_assert_str_eq(e.field, "seed");
            json_decref(as_json);
            continue;
        }
        json_t *o = json_loads(r.body, 0, NULL);
        ck_assert_ptr_nonnull(o);
        const json_t *theme = json_object_get(o, "theme"), *seed = json_object_get(o, "seed");
        ck_assert_msg(json_is_string(theme) && strcmp(json_string_value(theme), v) == 0, "%s: %s",
                      raw, r.body);
        if (json_like)
            ck_assert_msg(json_equal(seed, as_json), "%s: %s", raw, r.body);
        else
            ck_assert_msg(json_is_string(seed) && strcmp(json_string_value(seed), v) == 0, "%s: %s",
                          raw, r.body);
        json_decref(o);
        json_decref(as_json);
        query_request_free(&r);
    }
}
END_TEST

/* The query that must be refused, the field named ("" for none) and a part of the message. */
static const struct {
    query_route route;
    const char *raw, *field, *message;
} refused[] = {
    {QUERY_SOLVE, "", "", "exactly one of input="},
    {QUERY_SOLVE, "format=text", "", "exactly one of input="},
    {QUERY_SOLVE, "input=1&position=%7B%7D", "", "exactly one"},
    {QUERY_SOLVE, "input=1&input=2", "input", "given twice"},
    {QUERY_SOLVE, "input=1&Input=2", "Input", "unknown parameter 'Input'"},
    {QUERY_SOLVE, "input=1&request=2", "request", "takes input"},
    {QUERY_SOLVE, "input=%zz", "input", "byte 1 of its value"},
    {QUERY_SOLVE, "input=ab%2", "input", "byte 3"},
    {QUERY_SOLVE, "in%70ut=1&x%=2", "x%", "parameter name 'x%'"},
    {QUERY_SOLVE, "inp%00ut=1", "inp%00ut", "NUL byte"},
    {QUERY_SOLVE, "=1", "", "no name"},
    {QUERY_SOLVE, "format=%", "format", "malformed percent-escape"},
    {QUERY_ANALYZE, "", "request", "required"},
    {QUERY_ANALYZE, "input=1", "input", "takes request"},
    {QUERY_ANALYZE, "request=1&request=1", "request", "given twice"},
    /* format is read elsewhere (http.c), yet never given twice. */
    {QUERY_PARAMS, "format=json&format=json", "format", "given twice"},
    {QUERY_PARAMS, "seed=1&format=json&seed=2", "seed", "given twice"},
    {QUERY_PARAMS, "s%zzeed=1", "s%zzeed", "malformed percent-escape"},
    {QUERY_PARAMS, "seed=1%", "seed", "byte 2 of its value"},
};

START_TEST(test_refused)
{
    query_request r;
    gj_error e;
    ck_assert_msg(decode(refused[_i].route, refused[_i].raw, &r, &e) == -1, "%s", refused[_i].raw);
    ck_assert_int_eq(e.kind, GJ_BAD_INPUT);
    ck_assert_ptr_null(r.body);
    ck_assert_msg(strcmp(e.field, refused[_i].field) == 0, "%s: field '%s'", refused[_i].raw,
                  e.field);
    ck_assert_msg(strstr(e.message, refused[_i].message) != NULL, "%s: '%s'", refused[_i].raw,
                  e.message);
}
END_TEST

/* query_check on a few by hand: what each form reads, and nothing else. */
START_TEST(test_check_forms)
{
    static const struct {
        query_route route;
        const char *raw, *field; /* NULL field: accepted */
    } cases[] = {
        {QUERY_NONE, "", NULL},
        {QUERY_NONE, "&&format=text&", NULL},
        {QUERY_NONE, "form%61t=json", NULL},
        {QUERY_NONE, "format=json&format=json", "format"},
        {QUERY_NONE, "reveal=true", "reveal"},
        {QUERY_NONE, "format=json&input=1", "input"},
        {QUERY_NONE, "Format=json", "Format"},
        {QUERY_NONE, "%zz=1", "%zz"},
        {QUERY_NONE, "format=%zz", "format"},
        {QUERY_SOLVE, "input=1&format=text", NULL},
        {QUERY_SOLVE, "input=1&position=2", NULL}, /* the decoder says "one of" */
        {QUERY_SOLVE, "input=1&request=2", "request"},
        {QUERY_SOLVE, "format=text&input=1&format=json", "format"},
        {QUERY_ANALYZE, "request=1&format=json", NULL},
        {QUERY_ANALYZE, "request=1&input=1", "input"},
        {QUERY_PARAMS, "seed=1&band=easy&utm_source=x", NULL},
        {QUERY_PARAMS, "seed=1&seed=1", "seed"},
        {QUERY_PARAMS, "format=json&format=json", "format"},
        {QUERY_PARAMS, "a+b=1&a%20b=2", "a b"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gj_error e;
        int rc = query_check(cases[i].route, cases[i].raw, strlen(cases[i].raw), &e);
        if (cases[i].field == NULL) {
            ck_assert_msg(rc == 0, "%s: refused: %s", cases[i].raw, e.message);
            continue;
        }
        ck_assert_msg(rc == -1, "%s: accepted", cases[i].raw);
        ck_assert_int_eq(e.kind, GJ_BAD_INPUT);
        ck_assert_msg(strcmp(e.field, cases[i].field) == 0, "%s: field '%s'", cases[i].raw,
                      e.field);
    }
    /* An unread name's message says what the route reads. */
    gj_error e;
    ck_assert_int_eq(query_check(QUERY_NONE, "reveal=true", 11, &e), -1);
    ck_assert_ptr_nonnull(strstr(e.message, "unknown parameter 'reveal'"));
    ck_assert_ptr_nonnull(strstr(e.message, "takes only format"));
    ck_assert_int_eq(query_check(QUERY_BODY, "input=1", 7, &e), -1);
    ck_assert_str_eq(e.field, "input");
    ck_assert_ptr_nonnull(strstr(e.message, "in the body"));
    ck_assert_int_eq(query_check(QUERY_BODY, "format=text", 11, &e), 0);
    ck_assert_int_eq(query_check(QUERY_SOLVE, "x=1", 3, &e), -1);
    ck_assert_ptr_nonnull(strstr(e.message, "takes input (judge text), position (JSON)"));
}
END_TEST

/* One generated query: its text and what must come of checking it. */
typedef struct gen_query {
    char raw[1024];
    size_t len;
    int refused;     /* the first bad piece is refused */
    char field[64];  /* and named so ("" for a piece with no name) */
    char reason[16]; /* a word of the message */
} gen_query;

/* The names a form reads (NULL-ended; QUERY_PARAMS: any). */
static const char *const *form_reads(query_route route)
{
    static const char *const none[] = {"format", NULL};
    static const char *const solve[] = {"input", "position", "format", NULL};
    static const char *const analyze[] = {"request", "format", NULL};
    return route == QUERY_SOLVE ? solve : route == QUERY_ANALYZE ? analyze : none; /* and BODY */
}

/* True when the form reads the plain name. */
static int form_takes(query_route route, const char *name)
{
    if (route == QUERY_PARAMS)
        return 1;
    for (const char *const *n = form_reads(route); *n != NULL; n++)
        if (strcmp(*n, name) == 0)
            return 1;
    return 0;
}

/* Append byte c to q, percent-encoded (either case of hex) or, for a
 * space, sometimes as '+'. */
static void put_escaped(gen_query *q, uint64_t *rng, unsigned char c)
{
    static const char *const hex[] = {"0123456789ABCDEF", "0123456789abcdef"};
    const char *h = hex[rng_below(rng, 2)];
    if (c == ' ' && rng_below(rng, 2) == 0) {
        q->raw[q->len++] = '+';
        return;
    }
    q->raw[q->len++] = '%';
    q->raw[q->len++] = h[c >> 4];
    q->raw[q->len++] = h[c & 15];
}

/* Append the plain text s, each byte escaped at random (and always when
 * the query would read it otherwise: '&', '=', '%', '+', a space). */
static void put_text(gen_query *q, uint64_t *rng, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (strchr("&=%+ ", c) != NULL || c < 0x21 || c > 0x7e || rng_below(rng, 5) == 0)
            put_escaped(q, rng, c);
        else
            q->raw[q->len++] = (char)c;
    }
}

/* A malformed escape: '%' then a byte that is no hex digit, or '%' at the
 * end of the piece (then `at_end`). */
static void put_bad_escape(gen_query *q, uint64_t *rng, int at_end)
{
    static const char *const bad[] = {"%zz", "%g1", "%-1", "%%41", "%x"};
    static const char *const end[] = {"%", "%a", "%F"};
    const char *b = at_end ? end[rng_below(rng, 3)] : bad[rng_below(rng, 5)];
    memcpy(q->raw + q->len, b, strlen(b));
    q->len += strlen(b);
}

/* Note the first bad piece (later ones change nothing). */
static void refuse(gen_query *q, const char *field, size_t len, const char *reason)
{
    if (q->refused)
        return;
    q->refused = 1;
    snprintf(q->field, sizeof q->field, "%.*s", (int)len, field);
    snprintf(q->reason, sizeof q->reason, "%s", reason);
}

/* A random query for route: pieces named from what the route reads, other
 * names and random ones, escaped at random, some repeated, some with a
 * malformed escape or a NUL in the name or value, bare names and empty
 * pieces, and the outcome worked out as it was written. */
static void gen_query_make(gen_query *q, uint64_t *rng, query_route route)
{
    static const char *const other[] = {"reveal",     "x",   "Format", "formats", "input ",
                                        "utm_source", "a b", "seed",   "request", "position",
                                        "input",      "id",  "fmt",    "format"};
    memset(q, 0, sizeof *q);
    char seen[8][16];
    size_t nseen = 0, pieces = rng_below(rng, 7);
    for (size_t p = 0; p < pieces; p++) {
        for (int k = 0; k < 3 && rng_below(rng, 4) == 0; k++) /* empty pieces */
            q->raw[q->len++] = '&';
        char name[16];
        uint64_t pick = rng_below(rng, 3);
        const char *const *reads = form_reads(route);
        size_t nreads = 0;
        while (reads[nreads] != NULL)
            nreads++;
        if (pick == 0)
            snprintf(name, sizeof name, "%s", reads[rng_below(rng, nreads)]);
        else if (pick == 1)
            snprintf(name, sizeof name, "%s", other[rng_below(rng, 14)]);
        else {
            size_t n = 1 + rng_below(rng, 6);
            for (size_t i = 0; i < n; i++)
                name[i] = "abfmorstu_-.~"[rng_below(rng, 13)];
            name[n] = '\0';
        }
        if (pick == 0 && nseen > 0 && rng_below(rng, 3) == 0) /* a repeat */
            snprintf(name, sizeof name, "%s", seen[rng_below(rng, nseen)]);
        size_t start = q->len;
        uint64_t flaw = rng_below(rng, 24);
        if (flaw == 0) { /* no name at all: "=value" */
            refuse(q, "", 0, "no name");
        } else {
            size_t cut = rng_below(rng, strlen(name) + 1);
            put_text(q, rng, name, cut);
            if (flaw == 1)
                put_bad_escape(q, rng, 0);
            if (flaw == 2)
                memcpy(q->raw + q->len, "%00", 3), q->len += 3;
            put_text(q, rng, name + cut, strlen(name) - cut);
            if (flaw == 3)
                put_bad_escape(q, rng, 1);
            if (flaw >= 1 && flaw <= 3)
                refuse(q, q->raw + start, q->len - start, flaw == 2 ? "NUL" : "malformed");
        }
        if (flaw == 0 || rng_below(rng, 6) != 0) { /* else a bare name */
            q->raw[q->len++] = '=';
            char value[12];
            size_t n = rng_below(rng, sizeof value);
            for (size_t i = 0; i < n; i++)
                value[i] = (char)rng_below(rng, 256);
            size_t cut = rng_below(rng, n + 1);
            put_text(q, rng, value, cut);
            if (flaw == 4 || flaw == 5) {
                put_bad_escape(q, rng, flaw == 5);
                refuse(q, name, strlen(name), "malformed");
            }
            if (flaw != 5)
                put_text(q, rng, value + cut, n - cut);
        } else if (flaw == 4 || flaw == 5) {
            flaw = 6; /* a bare name has no value to spoil */
        }
        if (flaw > 3 || flaw == 0) {
            int repeated = 0;
            for (size_t i = 0; i < nseen; i++)
                repeated |= strcmp(seen[i], name) == 0;
            if (flaw != 0 && !form_takes(route, name))
                refuse(q, name, strlen(name), "unknown");
            else if (flaw != 0 && repeated)
                refuse(q, name, strlen(name), "twice");
            if (flaw != 0 && !repeated && nseen < 8)
                snprintf(seen[nseen++], sizeof seen[0], "%s", name);
        }
        if (p + 1 < pieces || rng_below(rng, 4) == 0)
            q->raw[q->len++] = '&';
    }
}

/* query_check over thousands of generated queries for every form (a fixed
 * seed): it refuses exactly the queries with an unread, repeated or
 * malformed parameter, naming the first; and where it refuses a GET form,
 * decoding that query is refused too, for the same parameter. */
START_TEST(test_check_generated)
{
    static const query_route forms[] = {QUERY_NONE, QUERY_SOLVE, QUERY_ANALYZE, QUERY_PARAMS,
                                        QUERY_BODY};
    static const char *const reasons[] = {"unknown", "twice", "malformed", "NUL", "no name"};
    uint64_t rng = 20261202;
    int refused = 0, accepted = 0, seen_reason[5] = {0};
    for (int i = 0; i < 20000; i++) {
        query_route route = forms[i % 5];
        gen_query q;
        gen_query_make(&q, &rng, route);
        gj_error e;
        int rc = query_check(route, q.raw, q.len, &e);
        ck_assert_msg(rc == (q.refused ? -1 : 0), "form %d, '%.*s': %s", (int)route, (int)q.len,
                      q.raw, rc == 0 ? "accepted" : e.message);
        if (rc == 0) {
            accepted++;
            continue;
        }
        refused++;
        ck_assert_int_eq(e.kind, GJ_BAD_INPUT);
        ck_assert_msg(strcmp(e.field, q.field) == 0, "'%.*s': field '%s', not '%s'", (int)q.len,
                      q.raw, e.field, q.field);
        const char *word = strcmp(q.reason, "unknown") == 0 ? "unknown parameter"
                           : strcmp(q.reason, "twice") == 0 ? "given twice"
                                                            : q.reason;
        ck_assert_msg(strstr(e.message, word) != NULL, "'%.*s': '%s' lacks '%s'", (int)q.len, q.raw,
                      e.message, word);
        for (size_t k = 0; k < 5; k++)
            seen_reason[k] += strcmp(q.reason, reasons[k]) == 0;
        if (route == QUERY_NONE || route == QUERY_BODY)
            continue;
        query_request r;
        gj_error d;
        ck_assert_int_eq(query_request_decode(route, q.raw, q.len, &r, &d), -1);
        if (route != QUERY_PARAMS) /* which may refuse an earlier value first */
            ck_assert_str_eq(d.field, e.field);
    }
    /* Both outcomes, and every reason, are common, so none goes untested. */
    ck_assert_int_gt(refused, 2000);
    ck_assert_int_gt(accepted, 2000);
    for (size_t k = 0; k < 5; k++)
        ck_assert_msg(seen_reason[k] > 200, "%s: %d", reasons[k], seen_reason[k]);
}
END_TEST

START_TEST(test_etag_shape)
{
    const gj_game *g = games_find("grid-walk", 9);
    char a[ETAG_MAX], b[ETAG_MAX], c[ETAG_MAX];
    etag_make(g, ETAG_SOLVE, "key", 3, a);
    etag_make(g, ETAG_SOLVE, "key", 3, b);
    etag_make(g, ETAG_ANALYZE, "key", 3, c);
    ck_assert_str_eq(a, b);
    ck_assert_str_ne(a, c); /* a solve and an analysis never share a tag */
    /* "<game version>.<format version>-<16 hex>", quoted: a strong tag. */
    char want[32];
    snprintf(want, sizeof want, "\"%s.%s-", g->version, GJ_ANSWER_FORMAT_VERSION);
    ck_assert_int_eq(strncmp(a, want, strlen(want)), 0);
    ck_assert_uint_eq(strlen(a), strlen(want) + 17);
    ck_assert_int_eq(a[strlen(a) - 1], '"');
    etag_make(g, ETAG_SOLVE, "kez", 3, b);
    ck_assert_str_ne(a, b);
}
END_TEST

/* line_prepare's canonical form of body, in canon (at most cap bytes); -1 when refused. */
static int canonical(const char *body, char *canon, size_t cap)
{
    line_request q;
    gj_error e;
    if (line_prepare(body, strlen(body), &q, &e) != 0)
        return -1;
    snprintf(canon, cap, "%s", q.canonical);
    line_request_free(&q);
    return 0;
}

START_TEST(test_analysis_canonical)
{
    char a[256], b[256];
    /* One request in many spellings: one form. */
    static const char *const same[] = {
        "{\"grid\": [\"..\"], \"max_moves\": 3}",
        "{ \"max_moves\":3,\"grid\":[ \"..\" ] }",
        "{\"\\u0067rid\": [\"\\u002e.\"], \"max_moves\": 3, \"line\": false}",
    };
    ck_assert_int_eq(canonical(same[0], a, sizeof a), 0);
    ck_assert_str_eq(a, "{\"grid\":[\"..\"],\"max_moves\":3}");
    for (size_t i = 1; i < sizeof same / sizeof same[0]; i++) {
        ck_assert_int_eq(canonical(same[i], b, sizeof b), 0);
        ck_assert_str_eq(a, b);
    }
    /* The line's default is in the form, so a request naming it is the same. */
    ck_assert_int_eq(canonical("{\"grid\":[\"..\"],\"line\":true}", a, sizeof a), 0);
    ck_assert_int_eq(canonical("{\"max_line\":100,\"grid\":[\"..\"],\"line\":true}", b, sizeof b),
                     0);
    ck_assert_str_eq(a, b);
    ck_assert_str_eq(a, "{\"grid\":[\"..\"],\"line\":true,\"max_line\":100}");
    ck_assert_int_eq(canonical("{\"grid\":[\"..\"],\"line\":true,\"max_line\":99}", b, sizeof b),
                     0);
    ck_assert_str_ne(a, b);
    ck_assert_int_eq(canonical("{\"a\":1,\"a\":2}", a, sizeof a), -1);
    ck_assert_int_eq(canonical("not json", a, sizeof a), -1);
    ck_assert_int_eq(canonical("{\"max_line\":5}", a, sizeof a), -1); /* no line */
}
END_TEST

/* Padding never changes the line's default: the form is taken on the
 * parsed request (line.h), so a padded body has the unpadded one's form. */
START_TEST(test_analysis_canonical_padding)
{
    static const char req[] = "{\"shortcuts\":[[3,0],[0,1]],\"heaps\":[400,350],"
                              "\"to_move\":\"first\",\"max_moves\":1,\"line\":true}";
    size_t pad = 1400000, n = strlen(req);
    char *big = malloc(pad + n + 1);
    ck_assert_ptr_nonnull(big);
    memset(big, ' ', pad);
    memcpy(big + pad, req, n + 1);
    char a[256], b[256];
    ck_assert_int_eq(canonical(req, a, sizeof a), 0);
    ck_assert_int_eq(canonical(big, b, sizeof b), 0);
    ck_assert_str_eq(a, b);
    ck_assert_ptr_nonnull(strstr(a, "\"max_line\":100"));
    free(big);
}
END_TEST

/* An analysis's cache key is its game, a NUL, 'a' and its canonical form,
 * put in front of the form in place (etag_analysis), and its tag is that
 * key's: for a small body and one whose form is megabytes, and for a
 * buffer with room in front of it and one without. */
START_TEST(test_analysis_key)
{
    const gj_game *g = games_find("nim-shortcuts", 13);
    ck_assert_ptr_nonnull(g);
    gj_buf body;
    buf_init(&body);
    buf_puts(&body, "{\"heaps\":[2,5],\"shortcuts\":[");
    for (long i = 0; i < 200000; i++) {
        buf_puts(&body, i > 0 ? ",[" : "[");
        buf_put_long(&body, 7 + i % 300);
        buf_putc(&body, ',');
        buf_put_long(&body, 7 + i / 300);
        buf_putc(&body, ']');
    }
    buf_puts(&body, "]}");
    ck_assert(!body.failed);
    const char *small = "{\"shortcuts\":[[3,0]],\"heaps\":[2,5],\"line\":true}";
    const struct {
        const char *text;
        size_t len;
    } bodies[] = {{small, strlen(small)}, {body.data, body.len}};
    for (size_t k = 0; k < 2; k++) {
        line_request q;
        gj_error e;
        ck_assert_int_eq(line_prepare(bodies[k].text, bodies[k].len, &q, &e), 0);
        gj_buf want;
        buf_init(&want);
        buf_puts(&want, "nim-shortcuts");
        buf_putc(&want, '\0');
        buf_putc(&want, 'a');
        buf_append(&want, q.canonical, q.canonical_len);
        char tag[ETAG_MAX], want_tag[ETAG_MAX];
        etag_make(g, ETAG_ANALYZE, want.data, want.len, want_tag);
        gj_buf key;
        line_take_canonical(&q, &key);
        ck_assert_ptr_null(q.canonical);
        ck_assert_int_eq(etag_analysis(g, &key, tag), 0);
        ck_assert_uint_eq(key.len, want.len);
        ck_assert(memcmp(key.data, want.data, want.len) == 0);
        ck_assert_str_eq(tag, want_tag);
        /* Once more with room to spare: the same bytes. */
        gj_buf roomy;
        buf_init(&roomy);
        buf_reserve(&roomy, want.len + 64);
        buf_append(&roomy, want.data + 15, want.len - 15);
        char *front = buf_front(&roomy, 13);
        ck_assert_ptr_eq(front, roomy.data);
        memcpy(front, "nim-shortcuts", 13);
        ck_assert(!roomy.failed);
        ck_assert_uint_eq(roomy.len, want.len - 2);
        ck_assert(memcmp(roomy.data, "nim-shortcuts", 13) == 0);
        ck_assert(memcmp(roomy.data + 13, want.data + 15, want.len - 15) == 0);
        buf_free(&roomy);
        buf_free(&key);
        buf_free(&want);
        line_request_free(&q);
    }
    buf_free(&body);
}
END_TEST

START_TEST(test_if_none_match)
{
    const char *t = "\"1.1-00ff00ff00ff00ff\"";
    ck_assert(!etag_none_match(NULL, t, true));
    ck_assert(etag_none_match(t, t, false));
    ck_assert(etag_none_match("W/\"1.1-00ff00ff00ff00ff\"", t, false)); /* weak comparison */
    ck_assert(etag_none_match("\"x\", \"1.1-00ff00ff00ff00ff\"", t, false));
    ck_assert(etag_none_match(" \"x\" ,, W/\"1.1-00ff00ff00ff00ff\" ,", t, false));
    ck_assert(etag_none_match("*", t, true));
    ck_assert(etag_none_match(" * ", t, true));
    ck_assert(!etag_none_match("*", t, false));
    ck_assert(!etag_none_match("\"x\", \"y\"", t, true));
    ck_assert(!etag_none_match("\"1.1-00FF00FF00FF00FF\"", t, true)); /* tags are exact */
    /* Not the grammar: nothing matches, even the right tag inside it. */
    static const char *const garbage[] = {
        "1.1-00ff00ff00ff00ff",
        "\"1.1-00ff00ff00ff00ff",
        "\"1.1-00ff00ff00ff00ff\" junk",
        "\"1.1-00ff00ff00ff00ff\" \"x\"",
        "w/\"1.1-00ff00ff00ff00ff\"",
        "\"x y\", \"1.1-00ff00ff00ff00ff\"",
        "*, \"1.1-00ff00ff00ff00ff\"",
        "",
        ",",
    };
    for (size_t i = 0; i < sizeof garbage / sizeof garbage[0]; i++)
        ck_assert_msg(!etag_none_match(garbage[i], t, true), "'%s' matched", garbage[i]);
}
END_TEST

/* One Check test case per test, so a timeout or a crash names its test. */
static Suite *query_suite(void)
{
    const harness_case cases[] = {
        {"query", test_unescape},          {"query", test_solve_forms},
        {"query", test_params_form},       {"query", test_check_forms},
        {"query", test_check_generated},   {"etag", test_etag_shape},
        {"etag", test_analysis_canonical}, {"etag", test_analysis_canonical_padding},
        {"etag", test_analysis_key},       {"etag", test_if_none_match},
    };
    Suite *s = harness_suite("query and etag", cases, sizeof cases / sizeof cases[0], 0);
    harness_add_loop(s, "query", test_refused, (int)(sizeof refused / sizeof refused[0]), 0);
    return s;
}

int main(void)
{
    return harness_main(query_suite());
}
