/* test_replay.c - every answer byte for byte as recorded.
 *
 * tests/replay/answers.replay holds request/answer pairs recorded from one
 * fixed seed by tests/replay/record.mjs (format in tests/replay/README).
 * Each request is sent again to a daemon started with the recording's
 * options, and its status, Content-Type, ETag and body must equal the
 * recorded ones; the first pair that differs fails the test, named by its
 * file and line, with the first differing byte.
 *
 * tests/replay/before_move.replay holds the same requests recorded on the
 * tree from before issue 33 moved the solvers.  It is replayed the same
 * way, save for the classes of pairs changed on purpose since
 * (the table before_move_classes, told in tests/replay/README): each is
 * matched by a rule, compared after its known edit or not at all, and
 * counted, the counts printed. */
#include "client.h"
#include "daemon.h"

#include <check.h>
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <jansson.h>

#define REPLAY_FILE      "tests/replay/answers.replay"
#define BEFORE_MOVE_FILE "tests/replay/before_move.replay"

/* One recorded pair; strings are malloc'd, decoded from their escapes. */
typedef struct pair {
    int line; /* the line of its send: */
    char method[8];
    char *path, *type, *body;
    size_t body_len;
    long status;
    char *ctype, *etag, *answer;
    size_t answer_len;
} pair;

/* Decode the escapes of a recorded value (\n \r \t \\ \xHH) into a
 * malloc'd, NUL-terminated string; *len gets its length. */
static char *unescape(const char *s, size_t *len, const char *file, int line)
{
    size_t n = strlen(s), k = 0;
    char *o = malloc(n + 1);
    ck_assert(o != NULL);
    for (size_t i = 0; i < n; i++) {
        if (s[i] != '\\') {
            o[k++] = s[i];
            continue;
        }
        char c = s[++i];
        if (c == 'n')
            o[k++] = '\n';
        else if (c == 'r')
            o[k++] = '\r';
        else if (c == 't')
            o[k++] = '\t';
        else if (c == '\\')
            o[k++] = '\\';
        else if (c == 'x' && isxdigit((unsigned char)s[i + 1]) &&
                 isxdigit((unsigned char)s[i + 2])) {
            char hex[3] = {s[i + 1], s[i + 2], 0};
            o[k++] = (char)strtol(hex, NULL, 16);
            i += 2;
        } else
            ck_abort_msg("%s:%d: bad escape \\%c", file, line, c);
    }
    o[k] = '\0';
    if (len != NULL)
        *len = k;
    return o;
}

/* Read every pair of `file`; *count gets how many. */
static pair *read_pairs(const char *file, size_t *count)
{
    FILE *f = fopen(file, "r");
    ck_assert_msg(f != NULL, "cannot open %s", file);
    size_t cap = 1024, n = 0;
    pair *ps = calloc(cap, sizeof *ps);
    char *buf = NULL;
    size_t bufcap = 0;
    ssize_t got;
    int line = 0;
    while ((got = getline(&buf, &bufcap, f)) >= 0) {
        line++;
        while (got > 0 && buf[got - 1] == '\n')
            buf[--got] = '\0';
        if (got == 0 || buf[0] == '#')
            continue;
        char *colon = strstr(buf, ": ");
        ck_assert_msg(colon != NULL, "%s:%d: not a key: value line", file, line);
        *colon = '\0';
        const char *key = buf, *val = colon + 2;
        if (strcmp(key, "send") == 0) {
            if (n == cap) {
                pair *more = realloc(ps, 2 * cap * sizeof *ps);
                ck_assert(more != NULL);
                ps = more;
                memset(ps + cap, 0, cap * sizeof *ps);
                cap *= 2;
            }
            pair *p = &ps[n++];
            p->line = line;
            const char *sp = strchr(val, ' ');
            ck_assert_msg(sp != NULL && sp - val < 8, "%s:%d: bad send", file, line);
            memcpy(p->method, val, (size_t)(sp - val));
            p->path = unescape(sp + 1, NULL, file, line);
            continue;
        }
        ck_assert_msg(n > 0, "%s:%d: %s before any send:", file, line, key);
        pair *p = &ps[n - 1];
        if (strcmp(key, "type") == 0)
            p->type = unescape(val, NULL, file, line);
        else if (strcmp(key, "body") == 0)
            p->body = unescape(val, &p->body_len, file, line);
        else if (strcmp(key, "status") == 0)
            p->status = atol(val);
        else if (strcmp(key, "content-type") == 0)
            p->ctype = unescape(val, NULL, file, line);
        else if (strcmp(key, "etag") == 0)
            p->etag = unescape(val, NULL, file, line);
        else if (strcmp(key, "answer") == 0)
            p->answer = unescape(val, &p->answer_len, file, line);
        else
            ck_abort_msg("%s:%d: unknown key %s", file, line, key);
    }
    free(buf);
    fclose(f);
    *count = n;
    return ps;
}

/* The value of header `name` in a raw header block, malloc'd, or "-". */
static char *header(const char *block, const char *name)
{
    size_t nl = strlen(name);
    for (const char *at = block; at != NULL && *at; at = strchr(at, '\n')) {
        if (*at == '\n')
            at++;
        if (strncasecmp(at, name, nl) == 0 && at[nl] == ':') {
            const char *v = at + nl + 1;
            while (*v == ' ')
                v++;
            size_t len = strcspn(v, "\r\n");
            char *s = malloc(len + 1);
            memcpy(s, v, len);
            s[len] = '\0';
            return s;
        }
    }
    return strdup("-");
}

/* The body with every "request_id":"..." written "request_id":"-", as
 * the recorder wrote it; malloc'd, *len its length. */
static char *normalise(const char *body, size_t len, size_t *out)
{
    static const char key[] = "\"request_id\":\"";
    char *o = malloc(len + 1);
    size_t k = 0;
    for (size_t i = 0; i < len;) {
        if (len - i >= sizeof key - 1 && memcmp(body + i, key, sizeof key - 1) == 0) {
            memcpy(o + k, key, sizeof key - 1);
            k += sizeof key - 1;
            i += sizeof key - 1;
            while (i < len && body[i] != '"')
                i++;
            o[k++] = '-';
            continue;
        }
        o[k++] = body[i++];
    }
    o[k] = '\0';
    *out = k;
    return o;
}

/* The offset of the first byte where a and b differ. */
static size_t first_difference(const char *a, size_t al, const char *b, size_t bl)
{
    size_t i = 0;
    while (i < al && i < bl && a[i] == b[i])
        i++;
    return i;
}

/* What a class of pairs gets instead of the byte-for-byte comparison. */
typedef enum class_kind {
    CLASS_REWRITE, /* `from` in the recorded answer read as `to`, then compared */
    CLASS_WITHOUT, /* compared as JSON with the members `members` removed, ETag not */
    CLASS_SKIP,    /* sent, not compared */
} class_kind;

/* A class of recorded pairs some issue changed on purpose, matched by rule:
 * the method, a path prefix, and what follows the prefix. */
typedef struct replay_class {
    const char *name; /* as tests/replay/README names it */
    const char *method, *prefix;
    int after;   /* what follows the prefix: AFTER_ANY, AFTER_QUERY or AFTER_ID */
    long status; /* the recorded status it applies to, 0 for any */
    class_kind kind;
    const char *from, *to;  /* CLASS_REWRITE; a pair without `from` is not in the class */
    const char *members[5]; /* CLASS_WITHOUT, NULL-terminated */
} replay_class;

#define AFTER_ANY   0
#define AFTER_QUERY 1 /* "{game}?..." or "{game}/daily?...": a puzzle search */
#define AFTER_ID    2 /* "{game}/{id}", no query and not daily: one puzzle by id */

/* The classes of before_move.replay's pairs that differ today by design
 * (tests/replay/README says which commit made each, and why). */
static const replay_class before_move_classes[] = {
    /* 14b7ed7, just before the move: a tries-bounded miss says "or more
     * tries", as the budget's says "or a larger budget". */
    {"generate-more-tries",
     "POST",
     "/generate/",
     AFTER_ANY,
     422,
     CLASS_REWRITE,
     "looser constraints, more tries",
     "looser constraints, or more tries",
     {NULL}},
    /* bccf0ad: grid-walk's generator knob "visited", listed among the
     * known fields of an unknown-field error. */
    {"grid-walk-visited",
     "POST",
     "/generate/grid-walk",
     AFTER_ANY,
     400,
     CLASS_REWRITE,
     "\\\"density\\\"\",\"field\"",
     "\\\"density\\\", \\\"visited\\\"\",\"field\"",
     {NULL}},
    /* The puzzles issue: a puzzle read by id keeps its position, moves and
     * solution; its difficulty and band are measured anew, and its rating
     * and themes are new members. */
    {"puzzle-rated",
     "GET",
     "/puzzle/",
     AFTER_ID,
     200,
     CLASS_WITHOUT,
     NULL,
     NULL,
     {"difficulty", "band", "rating", "themes", NULL}},
    /* The puzzles issue: a search keeps another candidate (difficulty, band
     * sizes, grid-walk's puzzles drawn with "visited": 1, prime-chocolate's
     * depth bound answered 400 up front), and the daily puzzle is one. */
    {"puzzle-search", "GET", "/puzzle/", AFTER_QUERY, 0, CLASS_SKIP, NULL, NULL, {NULL}},
};

#define BEFORE_MOVE_CLASSES (sizeof before_move_classes / sizeof before_move_classes[0])

/* Whether what follows a path's prefix has the shape `after` names. */
static bool path_after(const char *rest, int after)
{
    if (after == AFTER_ANY)
        return true;
    const char *slash = strchr(rest, '/'), *query = strchr(rest, '?');
    if (after == AFTER_QUERY)
        return query != NULL &&
               (slash == NULL || slash > query || strncmp(slash, "/daily?", 7) == 0);
    return slash != NULL && query == NULL && strchr(slash + 1, '/') == NULL &&
           strcmp(slash, "/daily") != 0;
}

/* The class of the table `cls` (n entries) pair p is in, or NULL. */
static const replay_class *class_of(const pair *p, const replay_class *cls, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const replay_class *c = &cls[i];
        size_t pl = strlen(c->prefix);
        if (strcmp(p->method, c->method) != 0 || strncmp(p->path, c->prefix, pl) != 0 ||
            !path_after(p->path + pl, c->after) || (c->status != 0 && p->status != c->status))
            continue;
        if (c->kind == CLASS_REWRITE && strstr(p->answer, c->from) == NULL)
            continue;
        return c;
    }
    return NULL;
}

/* p's recorded answer with c's `from` read as `to` (every occurrence). */
static void rewrite(pair *p, const replay_class *c)
{
    size_t fl = strlen(c->from), tl = strlen(c->to), k = 0;
    char *o = malloc(p->answer_len / fl * tl + p->answer_len + 1);
    ck_assert(o != NULL);
    for (size_t i = 0; i < p->answer_len;) {
        if (p->answer_len - i >= fl && memcmp(p->answer + i, c->from, fl) == 0) {
            memcpy(o + k, c->to, tl);
            k += tl;
            i += fl;
        } else
            o[k++] = p->answer[i++];
    }
    o[k] = '\0';
    free(p->answer);
    p->answer = o;
    p->answer_len = k;
}

/* A JSON object's text with `members` removed, in its own order, compact;
 * malloc'd, or NULL when it is not an object. */
static char *without(const char *text, size_t len, const char *const *members)
{
    json_t *v = json_loadb(text, len, 0, NULL);
    if (!json_is_object(v)) {
        json_decref(v);
        return NULL;
    }
    for (size_t i = 0; members[i] != NULL; i++)
        json_object_del(v, members[i]);
    char *s = json_dumps(v, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(v);
    return s;
}

/* Replay every pair of `file` against a daemon of its own; a pair in one
 * of the n classes `cls` is compared as its class says, and each class's
 * count is printed (each must match some pair, or the rule is stale). */
static void replay(const char *file, const replay_class *cls, size_t n_cls)
{
    size_t n = 0, counts[8] = {0};
    ck_assert(n_cls <= sizeof counts / sizeof counts[0]);
    pair *ps = read_pairs(file, &n);
    ck_assert_msg(n > 1000, "%s holds only %zu pairs", file, n);
    test_daemon d;
    const char *flags[] = {"--cache-bytes",        "0",     "--workers", "2",
                           "--generate-budget-ms", "10000", NULL};
    daemon_start(&d, flags);
    for (size_t i = 0; i < n; i++) {
        pair *p = &ps[i];
        const replay_class *c = class_of(p, cls, n_cls);
        if (c != NULL)
            counts[c - cls]++;
        char url[16384], ct[256];
        snprintf(url, sizeof url, "%s%s", d.direct, p->path);
        const char *hdrs[] = {ct, NULL};
        snprintf(ct, sizeof ct, "Content-Type: %s", p->type ? p->type : "");
        http_call call = {p->method, url, p->type ? hdrs : NULL, p->body, p->body_len, 0};
        http_reply r = http_do(&call);
        char *ctype = header(r.headers, "Content-Type"), *etag = header(r.headers, "ETag");
        size_t blen;
        char *body = normalise(r.body, r.len, &blen);
        if (c == NULL || c->kind != CLASS_SKIP) {
            ck_assert_msg(r.status == p->status, "%s:%d: %s %s: status %ld, recorded %ld", file,
                          p->line, p->method, p->path, r.status, p->status);
            ck_assert_msg(strcmp(ctype, p->ctype) == 0, "%s:%d: Content-Type %s, recorded %s", file,
                          p->line, ctype, p->ctype);
        }
        if (c != NULL && c->kind == CLASS_REWRITE)
            rewrite(p, c);
        if (c != NULL && c->kind == CLASS_WITHOUT) {
            char *got = without(body, blen, c->members);
            char *want = without(p->answer, p->answer_len, c->members);
            ck_assert_msg(got != NULL && want != NULL && strcmp(got, want) == 0,
                          "%s:%d: %s %s: without its %s class's members, got %.200s", file, p->line,
                          p->method, p->path, c->name, got ? got : body);
            free(got);
            free(want);
        } else if (c == NULL || c->kind == CLASS_REWRITE) {
            ck_assert_msg(strcmp(etag, p->etag) == 0, "%s:%d: ETag %s, recorded %s", file, p->line,
                          etag, p->etag);
            size_t at = first_difference(body, blen, p->answer, p->answer_len);
            ck_assert_msg(at == blen && at == p->answer_len,
                          "%s:%d: %s %s: the answer differs at byte %zu (0x%02x, recorded "
                          "0x%02x); got %.200s",
                          file, p->line, p->method, p->path, at,
                          at < blen ? (unsigned char)body[at] : 0,
                          at < p->answer_len ? (unsigned char)p->answer[at] : 0, body);
        }
        free(ctype);
        free(etag);
        free(body);
        http_reply_free(&r);
        free(p->path);
        free(p->type);
        free(p->body);
        free(p->ctype);
        free(p->etag);
        free(p->answer);
    }
    free(ps);
    daemon_stop(&d);
    size_t classed = 0;
    for (size_t i = 0; i < n_cls; i++)
        classed += counts[i];
    printf("%s: %zu pairs, %zu compared byte for byte\n", file, n, n - classed);
    for (size_t i = 0; i < n_cls; i++) {
        const replay_class *c = &cls[i];
        printf("  %s (%s %s%s%s): %zu %s\n", c->name, c->method, c->prefix,
               c->after == AFTER_QUERY ? "{game}?..., {game}/daily?..."
               : c->after == AFTER_ID  ? "{game}/{id}"
                                       : "",
               c->kind == CLASS_REWRITE ? ", a known edit" : "", counts[i],
               c->kind == CLASS_SKIP      ? "skipped"
               : c->kind == CLASS_WITHOUT ? "compared without their changed members"
                                          : "compared after the edit");
        ck_assert_msg(counts[i] > 0, "%s: class %s matches no pair", file, c->name);
    }
    fflush(stdout);
}

START_TEST(replay_every_pair)
{
    replay(REPLAY_FILE, NULL, 0);
}
END_TEST

START_TEST(replay_before_the_move)
{
    replay(BEFORE_MOVE_FILE, before_move_classes, BEFORE_MOVE_CLASSES);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("replay");
    TCase *tc = tcase_create("replay");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, replay_every_pair);
    tcase_add_test(tc, replay_before_the_move);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
