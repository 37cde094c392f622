/* test_catalogue.c - the bad-input catalogue: malformed requests for every
 * game and for the HTTP layer, each with the exact answer it must get, and
 * after each one a valid request that must still be answered right.
 *
 * The cases are data: every tests/cases/<group>.cases file (the format is in
 * tests/cases/README), read in name order, one Check test per case.  One
 * daemon serves them all, started with small game limits (LIMITS) and a
 * 4 MB body limit, so that "at the limit" and "one past it" are cheap to
 * send for every limit.  A case that is a game input (POSTed to
 * /solve/<game> as text or JSON, answered 200 or 400 bad_input) is also run
 * through `$GJ_BIN solve GAME` with the same limits: the command must agree
 * with the server, exit 0 or exit 2 with one stderr line holding the very
 * message the server gave. */
#include <check.h>
#include <curl/curl.h>
#include <dirent.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client.h"
#include "daemon.h"
#include "reader.h" /* reader_hex_value, for the \xHH escapes */
#include "rawhttp.h"

#define LIMITS                                                                                     \
    "matrix-game.n=5,grid-walk.rows=4,grid-walk.cols=4,nim-shortcuts.shortcuts=3,"                 \
    "nim-shortcuts.queries=3,prime-chocolate.n=4,staircase-chess.rows=3,staircase-chess.cols=3,"   \
    "staircase-chess.size=5"
#define MAX_BODY (4L << 20)
#define MILLION  1000000
#define CLOSE    "Host: x\r\nConnection: close\r\n"

#ifndef GJ_CASES_DIR
#define GJ_CASES_DIR "tests/cases"
#endif

static test_daemon server;

typedef enum send_kind { BY_CURL, RAW, HANG } send_kind;

typedef enum generator {
    GEN_NONE,
    GEN_DEEP_JSON,
    GEN_MANY_TOKENS,
    GEN_LONG_ROW,
    GEN_LONG_NUMBER,
    GEN_MANY_VALUES,
    GEN_AT_MAX_BODY,
    GEN_OVER_MAX_BODY,
    GEN_OVER_MEMORY_BUDGET,
    GEN_HEADER_FLOOD,
    GEN_HUGE_HEADER,
    GEN_HUGE_URL,
    GEN_LONG_QUERY,
} generator;

/* The names a case file gives the generators, indexed by generator; the
 * README says what each one makes. */
static const char *const generator_names[] = {
    "",
    "deep-json",
    "many-tokens",
    "long-row",
    "long-number",
    "many-values",
    "at-max-body",
    "over-max-body",
    "over-memory-budget",
    "header-flood",
    "huge-header",
    "huge-url",
    "long-query",
};

/* One case as read from its file; every string is malloc'd and decoded. */
typedef struct bad_case {
    char *name;
    char *where; /* "file:line" of its `case:` line, for failure messages */
    send_kind how;
    char *path; /* BY_CURL: the URL path */
    char *type; /* BY_CURL: Content-Type, NULL for text/plain */
    char *body; /* BY_CURL: the body; RAW, HANG: the whole request */
    size_t len;
    generator gen;
    long status;       /* 0: no answer at all */
    char *code;        /* the error code; NULL for a success or libmicrohttpd's own page */
    char *message;     /* in the error's message (with code) */
    char *contains;    /* in the reply's body (without code) */
    char *cli_message; /* in the command's line, when it differs from the server's */
    int closes;        /* raw: one answer with Connection: close, nothing after it */
} bad_case;

static bad_case *cases;
static size_t ncases;

/* ---- reading the case files ------------------------------------------- */

/* Append the decoded form of s[0..n) to *dst (malloc'd, NUL-terminated,
 * *dlen bytes); returns 0, or -1 on an unknown escape so a typo in a case
 * file is reported instead of sent. */
static int append_decoded(char **dst, size_t *dlen, const char *s, size_t n)
{
    char *grown = realloc(*dst, *dlen + n + 1);
    if (grown == NULL)
        return -1;
    *dst = grown;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (c == '\\') {
            if (++i == n)
                return -1;
            switch (s[i]) {
            case 'n':
                c = '\n';
                break;
            case 'r':
                c = '\r';
                break;
            case 't':
                c = '\t';
                break;
            case '\\':
                c = '\\';
                break;
            case 'x': {
                int hi = i + 2 < n ? reader_hex_value((unsigned char)s[i + 1]) : -1;
                int lo = hi >= 0 ? reader_hex_value((unsigned char)s[i + 2]) : -1;
                if (lo < 0)
                    return -1;
                c = (char)(hi * 16 + lo);
                i += 2;
                break;
            }
            default:
                return -1;
            }
        }
        grown[(*dlen)++] = c;
    }
    grown[*dlen] = '\0';
    return 0;
}

/* The decoded value alone, malloc'd, or NULL when it does not decode. */
static char *decoded(const char *s, size_t n)
{
    char *out = NULL;
    size_t len = 0;
    if (append_decoded(&out, &len, s, n) != 0) {
        free(out);
        return NULL;
    }
    return out;
}

/* The value as written, malloc'd: names, paths and codes have no escapes. */
static char *copied(const char *s, size_t n)
{
    char *out = malloc(n + 1);
    if (out != NULL) {
        memcpy(out, s, n);
        out[n] = '\0';
    }
    return out;
}

/* Store one `key: value` line in c; returns NULL or what is wrong with it. */
static const char *set_field(bad_case *c, const char *key, size_t klen, const char *v, size_t vlen)
{
#define KEY(k) (klen == sizeof k - 1 && memcmp(key, k, klen) == 0)
    char **slot = KEY("type")          ? &c->type
                  : KEY("code")        ? &c->code
                  : KEY("message")     ? &c->message
                  : KEY("contains")    ? &c->contains
                  : KEY("cli-message") ? &c->cli_message
                                       : NULL;
    if (KEY("body"))
        return append_decoded(&c->body, &c->len, v, vlen) == 0 ? NULL : "a bad escape";
    if (KEY("send")) {
        if (vlen == 3 && memcmp(v, "raw", 3) == 0) {
            c->how = RAW;
        } else if (vlen == 4 && memcmp(v, "hang", 4) == 0) {
            c->how = HANG;
        } else if (vlen > 5 && memcmp(v, "post /", 6) == 0) {
            c->how = BY_CURL;
            c->path = copied(v + 5, vlen - 5);
        } else {
            return "send is 'post PATH', 'raw' or 'hang'";
        }
        return NULL;
    }
    if (KEY("gen")) {
        for (size_t g = 1; g < sizeof generator_names / sizeof generator_names[0]; g++)
            if (strlen(generator_names[g]) == vlen && memcmp(generator_names[g], v, vlen) == 0)
                c->gen = (generator)g;
        return c->gen != GEN_NONE ? NULL : "an unknown generator";
    }
    if (KEY("closes")) {
        c->closes = vlen == 3 && memcmp(v, "yes", 3) == 0;
        return c->closes ? NULL : "closes is 'yes'";
    }
    if (KEY("status")) {
        char *text = decoded(v, vlen), *end = NULL;
        int none = text != NULL && strcmp(text, "none") == 0;
        c->status = text != NULL && !none ? strtol(text, &end, 10) : 0;
        int number = end != NULL && end != text && *end == '\0' && c->status > 0;
        free(text);
        return none || number ? NULL : "status is a number or 'none'";
    }
#undef KEY
    if (slot == NULL)
        return "an unknown key";
    if (*slot != NULL)
        return "a key given twice";
    int escaped = slot == &c->message || slot == &c->contains || slot == &c->cli_message;
    *slot = escaped ? decoded(v, vlen) : copied(v, vlen);
    return *slot != NULL ? NULL : "a bad escape";
}

/* What is wrong with a case as a whole, or NULL. */
static const char *check_case(const bad_case *c)
{
    if (c->closes && c->how != RAW)
        return "closes is for 'send: raw'";
    if (c->how != BY_CURL && c->type != NULL)
        return "type is for 'send: post'";
    if (c->how == BY_CURL && c->path == NULL)
        return "no send line";
    if ((c->body != NULL) == (c->gen != GEN_NONE))
        return "give body or gen, one of them";
    if (c->message != NULL && c->code == NULL)
        return "message needs code (use contains for a reply without one)";
    if (c->contains != NULL && c->code != NULL)
        return "contains is for a reply without code (use message)";
    if (c->cli_message != NULL && (c->code == NULL || strcmp(c->code, "bad_input") != 0))
        return "cli-message is for a game input refused as bad_input";
    return NULL;
}

/* The whole file, malloc'd and NUL-terminated, or NULL. */
static char *slurp_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    char *data = NULL;
    size_t n = 0, got;
    char chunk[4096];
    while ((got = fread(chunk, 1, sizeof chunk, f)) > 0) {
        char *grown = realloc(data, n + got + 1);
        if (grown == NULL)
            break;
        data = grown;
        memcpy(data + n, chunk, got);
        n += got;
    }
    fclose(f);
    if (data == NULL)
        data = calloc(1, 1);
    else
        data[n] = '\0';
    *len = n;
    return data;
}

/* Append every case of one file to `cases`; returns 0, or -1 after saying
 * on stderr where the file is wrong. */
static int load_file(const char *path)
{
    size_t size;
    char *text = slurp_file(path, &size);
    if (text == NULL) {
        fprintf(stderr, "%s: cannot read it\n", path);
        return -1;
    }
    const char *why = NULL;
    int line = 0;
    bad_case *c = NULL;
    for (char *at = text, *next; why == NULL && at < text + size; at = next) {
        line++;
        char *eol = memchr(at, '\n', (size_t)(text + size - at));
        next = eol ? eol + 1 : text + size;
        size_t n = (size_t)((eol ? eol : text + size) - at);
        while (n > 0 && (at[n - 1] == ' ' || at[n - 1] == '\t' || at[n - 1] == '\r'))
            n--;
        if (n == 0 || at[0] == '#')
            continue;
        const char *colon = memchr(at, ':', n);
        if (colon == NULL || colon + 1 == at + n || colon[1] != ' ') {
            why = "not a 'key: value' line";
            break;
        }
        size_t klen = (size_t)(colon - at);
        const char *v = colon + 2;
        size_t vlen = n - klen - 2;
        if (klen == 4 && memcmp(at, "case", 4) == 0) {
            if (c != NULL && (why = check_case(c)) != NULL)
                break;
            bad_case *grown = realloc(cases, (ncases + 1) * sizeof *cases);
            if (grown == NULL) {
                why = "out of memory";
                break;
            }
            cases = grown;
            c = &cases[ncases++];
            memset(c, 0, sizeof *c);
            c->name = copied(v, vlen);
            c->where = malloc(strlen(path) + 16);
            if (c->name == NULL || c->where == NULL) {
                why = "a bad escape";
                break;
            }
            sprintf(c->where, "%s:%d", path, line);
        } else if (c == NULL) {
            why = "a key before the first 'case:' line";
        } else {
            why = set_field(c, at, klen, v, vlen);
        }
    }
    if (why == NULL && c != NULL)
        why = check_case(c);
    free(text);
    if (why != NULL) {
        fprintf(stderr, "%s:%d: %s\n", path, line, why);
        return -1;
    }
    return 0;
}

/* Only the case files of the directory. */
static int is_case_file(const struct dirent *e)
{
    size_t n = strlen(e->d_name);
    return n > 6 && strcmp(e->d_name + n - 6, ".cases") == 0;
}

/* Load every case file of `dir` in name order; returns the number of
 * cases, or -1 when a file is unreadable or wrong (said on stderr). */
static long load_cases(const char *dir)
{
    struct dirent **files;
    int n = scandir(dir, &files, is_case_file, alphasort);
    if (n < 0) {
        fprintf(stderr, "%s: cannot list it\n", dir);
        return -1;
    }
    int failed = 0;
    for (int i = 0; i < n; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, files[i]->d_name);
        failed |= load_file(path) != 0;
        free(files[i]);
    }
    free(files);
    return failed ? -1 : (long)ncases;
}

/* Release what load_cases read. */
static void free_cases(void)
{
    for (size_t i = 0; i < ncases; i++) {
        bad_case *c = &cases[i];
        free(c->name);
        free(c->where);
        free(c->path);
        free(c->type);
        free(c->body);
        free(c->code);
        free(c->message);
        free(c->contains);
        free(c->cli_message);
    }
    free(cases);
}

/* ---- generated bodies ------------------------------------------------ */

/* head, then c n times, then tail; malloc'd, with its length in *len. */
static char *filled(const char *head, char c, size_t n, const char *tail, size_t *len)
{
    size_t h = strlen(head), t = strlen(tail);
    char *s = malloc(h + n + t + 1);
    ck_assert_ptr_nonnull(s);
    memcpy(s, head, h);
    memset(s + h, c, n);
    memcpy(s + h + n, tail, t + 1);
    *len = h + n + t;
    return s;
}

/* head, then unit n times, then tail; malloc'd, with its length in *len. */
static char *repeated(const char *head, const char *unit, size_t n, const char *tail, size_t *len)
{
    size_t h = strlen(head), u = strlen(unit), t = strlen(tail);
    char *s = malloc(h + u * n + t + 1);
    ck_assert_ptr_nonnull(s);
    memcpy(s, head, h);
    for (size_t i = 0; i < n; i++)
        memcpy(s + h + i * u, unit, u);
    memcpy(s + h + u * n, tail, t + 1);
    *len = h + u * n + t;
    return s;
}

/* The bytes of a body too big to write out in a case file. */
static char *generate(generator g, size_t *len)
{
    switch (g) {
    case GEN_DEEP_JSON:
        return filled("{\"grid\": ", '[', MILLION, "", len);
    case GEN_MANY_TOKENS:
        return repeated("1\n-\n", "- ", MILLION, "\n", len);
    case GEN_LONG_ROW:
        return filled("1 1\n", '.', MILLION, "\n", len);
    case GEN_LONG_NUMBER:
        return filled("", '9', MILLION, " 1\n", len);
    case GEN_MANY_VALUES:
        return repeated("{\"k\": 1, \"matrix\": [[", "1,", MILLION, "1],[1],[1]]}", len);
    case GEN_AT_MAX_BODY:
    case GEN_OVER_MAX_BODY:
        return filled("1\n-\n", ' ', (size_t)MAX_BODY - 4 + (g == GEN_OVER_MAX_BODY), "", len);
    case GEN_OVER_MEMORY_BUDGET: /* JSON with a tree is charged 8x: 3.5 MB of it passes 24M */
        return filled("{\"matrix\":", ' ', (size_t)3500000, "}", len);
    case GEN_HEADER_FLOOD:
        return repeated("GET /healthz HTTP/1.1\r\n" CLOSE, "X-Flood: v\r\n", 10000, "\r\n", len);
    case GEN_HUGE_HEADER:
        return filled("GET /healthz HTTP/1.1\r\n" CLOSE "X-Huge: ", 'v', 100000, "\r\n\r\n", len);
    case GEN_HUGE_URL:
        return filled("GET /", 'u', 100000, " HTTP/1.1\r\n" CLOSE "\r\n", len);
    case GEN_LONG_QUERY: /* one byte past the default --max-query of 8 KiB */
        return filled("GET /solve/grid-walk?input=", 'x', 8192 - 6 + 1,
                      " HTTP/1.1\r\n" CLOSE "\r\n", len);
    case GEN_NONE:
        break;
    }
    return NULL;
}

/* ---- the follow-up: one valid request per game ------------------------ */

static const struct {
    const char *path, *body, *answer;
} follow_ups[] = {
    {"/solve/matrix-game", "3 1\n1 2 3\n4 5 6\n7 8 9\n", "GGG\nGGG\nGMM\n"},
    {"/solve/grid-walk", "2 3\n..#\n...\n", "WIN\n1 2\n2 1\n2 3\n"},
    {"/solve/nim-shortcuts", "2 2\n3 0\n0 1\n0 0\n1 1\n", "LOSE\nWIN\n"},
    {"/solve/prime-chocolate", "3\n--X\n---\n---\n", "RUBY\n"},
    {"/solve/staircase-chess", "2 3\n2 7 3\n9 1 2\n3 7 2\n2 3 1\n", "2\n"},
};

/* The game a case is about (the request line or path names it), so the
 * follow-up exercises the same parser; prime-chocolate otherwise. */
static size_t follow_up_for(const bad_case *t)
{
    const char *where = t->how == BY_CURL ? t->path : t->body;
    size_t n = sizeof follow_ups / sizeof follow_ups[0];
    for (size_t i = 0; where != NULL && i < n; i++) {
        const char *at = strstr(where, follow_ups[i].path);
        if (at != NULL && (at - where) < 64)
            return i;
    }
    return 3;
}

/* A case must not leave the server unable to answer the next request. */
static void check_still_serving(const bad_case *t)
{
    size_t i = follow_up_for(t);
    char u[256];
    snprintf(u, sizeof u, "%s%s?format=text", server.base, follow_ups[i].path);
    http_call c = {"POST", u, NULL, follow_ups[i].body, strlen(follow_ups[i].body), 0};
    http_reply r = http_do(&c);
    ck_assert_msg(r.status == 200, "%s: the next request got %ld: %s", t->name, r.status, r.body);
    ck_assert_msg(strcmp(r.body, follow_ups[i].answer) == 0, "%s: the next request got '%s'",
                  t->name, r.body);
    http_reply_free(&r);
}

/* ---- the driver --------------------------------------------------------- */

/* The error body must be the API's JSON error with the case's code and
 * message; returns its message (malloc'd) for the command line to match. */
static char *check_error_body(const bad_case *t, const char *body, size_t len)
{
    json_error_t err;
    json_t *root = json_loadb(body, len, 0, &err);
    ck_assert_msg(root != NULL, "%s: the error is not JSON (%s): %.200s", t->where, err.text, body);
    json_t *e = json_object_get(root, "error");
    const char *code = json_string_value(json_object_get(e, "code"));
    const char *message = json_string_value(json_object_get(e, "message"));
    ck_assert_msg(code != NULL && strcmp(code, t->code) == 0, "%s: code %s, expected %s", t->where,
                  code ? code : "(none)", t->code);
    ck_assert_msg(message != NULL && json_string_value(json_object_get(e, "request_id")) != NULL,
                  "%s: no message or request_id: %s", t->where, body);
    if (t->message != NULL)
        ck_assert_msg(strstr(message, t->message) != NULL, "%s: message '%s' lacks '%s'", t->where,
                      message, t->message);
    char *copy = strdup(message);
    json_decref(root);
    return copy;
}

/* Status, then the error or the body; returns the error's message or NULL. */
static char *check_answer(const bad_case *t, long status, const char *body, size_t len)
{
    ck_assert_msg(status == t->status, "%s: status %ld, expected %ld: %.300s", t->where, status,
                  t->status, body);
    if (t->code != NULL)
        return check_error_body(t, body, len);
    if (t->contains != NULL)
        ck_assert_msg(strstr(body, t->contains) != NULL, "%s: '%s' lacks '%s'", t->where, body,
                      t->contains);
    return NULL;
}

/* closes: the one answer says Connection: close, and the server closed
 * after it (raw_exchange read to the close) with no second answer in what
 * followed its head, so nothing hidden after the request was answered. */
static void check_closed_after_one(const bad_case *t, const raw_reply *r)
{
    int second = 0; /* a status line: "HTTP/1.x NNN " */
    for (size_t i = 0; i + 13 <= r->len && !second; i++) {
        const char *p = r->body + i;
        second = memcmp(p, "HTTP/1.", 7) == 0 && p[8] == ' ' && p[12] == ' ' && p[9] >= '1' &&
                 p[9] <= '5' && p[10] >= '0' && p[10] <= '9' && p[11] >= '0' && p[11] <= '9';
    }
    ck_assert_msg(strstr(r->head, "\r\nConnection: close\r\n") != NULL,
                  "%s: the answer does not say Connection: close: %.300s", t->where, r->head);
    ck_assert_msg(!second, "%s: a second answer followed the first: %.300s", t->where, r->body);
}

/* The game of a case the command line can be asked too, or NULL: a
 * position POSTed to /solve/<game> as text or JSON that the server answers
 * or refuses as bad input (the command has no HTTP layer to refuse more). */
static const char *cli_game(const bad_case *t)
{
    if (t->how != BY_CURL || strncmp(t->path, "/solve/", 7) != 0 || strchr(t->path, '?') != NULL)
        return NULL;
    if (t->type != NULL && strcmp(t->type, "application/json") != 0)
        return NULL;
    if (t->status == 200 || (t->status == 400 && strcmp(t->code, "bad_input") == 0))
        return t->path + 7;
    return NULL;
}

/* `$GJ_BIN solve GAME` on the same bytes must agree with the server: exit 0
 * on a position it answered, else exit 2 and say the server's message on
 * one line.  The command has no Content-Type and reads a body that does not
 * start with '{' as text, so such a JSON case names its own message. */
static void check_cli(const bad_case *t, const char *game, const char *bytes, size_t len,
                      const char *message)
{
    const char *args[] = {"solve", game, "--limit", LIMITS, NULL};
    char *out, *err;
    int rc = run_cli(args, bytes, len, &out, &err);
    if (t->status == 200) {
        ck_assert_msg(rc == 0 && err[0] == '\0', "%s: the command exited %d: %s", t->where, rc,
                      err);
    } else {
        char want[2048];
        int head = snprintf(want, sizeof want, "gamejudge: %s: ", game);
        snprintf(want + head, sizeof want - (size_t)head, "%s\n", message);
        ck_assert_msg(rc == 2, "%s: the command exited %d, not 2: %s", t->where, rc, err);
        if (t->cli_message == NULL) {
            ck_assert_msg(strcmp(err, want) == 0, "%s: the command said '%s', the server '%s'",
                          t->where, err, message);
        } else {
            const char *eol = strchr(err, '\n');
            ck_assert_msg(strncmp(err, want, (size_t)head) == 0 && eol != NULL && eol[1] == '\0' &&
                              strstr(err, t->cli_message) != NULL,
                          "%s: the command said '%s', not one line with '%s'", t->where, err,
                          t->cli_message);
        }
    }
    free(out);
    free(err);
}

START_TEST(test_catalogue)
{
    const bad_case *t = &cases[_i];
    size_t len = t->len;
    char *made = t->gen != GEN_NONE ? generate(t->gen, &len) : NULL;
    const char *bytes = made ? made : t->body;
    char *message = NULL;

    if (t->how == BY_CURL) {
        char u[512], type[128];
        snprintf(u, sizeof u, "%s%s", server.base, t->path);
        snprintf(type, sizeof type, "Content-Type: %s", t->type ? t->type : "text/plain");
        const char *headers[] = {type, NULL};
        http_call c = {"POST", u, headers, bytes, len, 0};
        http_reply r = http_do(&c);
        ck_assert_msg(r.curl_error == 0, "%s: curl error %d", t->where, r.curl_error);
        message = check_answer(t, r.status, r.body, r.len);
        http_reply_free(&r);
    } else if (t->how == RAW) {
        raw_reply r = raw_exchange(server.port, bytes, len);
        if (t->closes)
            check_closed_after_one(t, &r);
        message = check_answer(t, r.status, r.body, r.len);
        raw_reply_free(&r);
    } else {
        raw_hang_up(server.port, bytes, len);
    }
    const char *game = cli_game(t);
    if (game != NULL)
        check_cli(t, game, bytes, len, message);
    free(message);
    free(made);
    check_still_serving(t);
}
END_TEST

/* The one daemon every case is sent to.  Its generation ceiling leaves
 * the searches bounded by tries room to end by their count on a slow
 * (sanitised) build. */
static void start_server(void)
{
    const char *flags[] = {"--limit",
                           LIMITS,
                           "--max-body",
                           "4M",
                           "--judge-max-cases",
                           "3",
                           "--judge-max-bytes",
                           "256",
                           "--memory-budget",
                           "24M",
                           "--generate-budget-ms",
                           "60000",
                           NULL};
    daemon_start(&server, flags);
}

/* It must exit cleanly after the whole catalogue. */
static void stop_server(void)
{
    ck_assert_int_eq(daemon_stop(&server), 0);
}

int main(void)
{
    const char *dir = getenv("GJ_CASES_DIR") ? getenv("GJ_CASES_DIR") : GJ_CASES_DIR;
    long n = load_cases(dir);
    if (n <= 0) {
        fprintf(stderr, "catalogue: no cases to run from %s\n", dir);
        free_cases();
        return 1;
    }
    curl_global_init(CURL_GLOBAL_DEFAULT);
    Suite *s = suite_create("catalogue");
    TCase *tc = tcase_create("bad input");
    tcase_set_timeout(tc, 120);
    tcase_add_unchecked_fixture(tc, start_server, stop_server);
    tcase_add_loop_test(tc, test_catalogue, 0, (int)n);
    suite_add_tcase(s, tc);

    int rc = run_suite(s);
    free_cases();
    return rc;
}
