/* test_replay.c - every answer byte for byte as recorded.
 *
 * tests/replay/answers.replay holds request/answer pairs recorded from one
 * fixed seed by tests/replay/record.mjs (format in tests/replay/README).
 * Each request is sent again to a daemon started with the recording's
 * options, and its status, Content-Type, ETag and body must equal the
 * recorded ones; the first pair that differs fails the test, named by its
 * file and line, with the first differing byte. */
#include "client.h"
#include "daemon.h"

#include <check.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define REPLAY_FILE "tests/replay/answers.replay"

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
static char *unescape(const char *s, size_t *len, int line)
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
            ck_abort_msg("%s:%d: bad escape \\%c", REPLAY_FILE, line, c);
    }
    o[k] = '\0';
    if (len != NULL)
        *len = k;
    return o;
}

/* Read every pair of the file; *count gets how many. */
static pair *read_pairs(size_t *count)
{
    FILE *f = fopen(REPLAY_FILE, "r");
    ck_assert_msg(f != NULL, "cannot open %s", REPLAY_FILE);
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
        ck_assert_msg(colon != NULL, "%s:%d: not a key: value line", REPLAY_FILE, line);
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
            ck_assert_msg(sp != NULL && sp - val < 8, "%s:%d: bad send", REPLAY_FILE, line);
            memcpy(p->method, val, (size_t)(sp - val));
            p->path = unescape(sp + 1, NULL, line);
            continue;
        }
        ck_assert_msg(n > 0, "%s:%d: %s before any send:", REPLAY_FILE, line, key);
        pair *p = &ps[n - 1];
        if (strcmp(key, "type") == 0)
            p->type = unescape(val, NULL, line);
        else if (strcmp(key, "body") == 0)
            p->body = unescape(val, &p->body_len, line);
        else if (strcmp(key, "status") == 0)
            p->status = atol(val);
        else if (strcmp(key, "content-type") == 0)
            p->ctype = unescape(val, NULL, line);
        else if (strcmp(key, "etag") == 0)
            p->etag = unescape(val, NULL, line);
        else if (strcmp(key, "answer") == 0)
            p->answer = unescape(val, &p->answer_len, line);
        else
            ck_abort_msg("%s:%d: unknown key %s", REPLAY_FILE, line, key);
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

START_TEST(replay_every_pair)
{
    size_t n = 0;
    pair *ps = read_pairs(&n);
    ck_assert_msg(n > 1000, "%s holds only %zu pairs", REPLAY_FILE, n);
    test_daemon d;
    const char *flags[] = {"--cache-bytes",        "0",     "--workers", "2",
                           "--generate-budget-ms", "10000", NULL};
    daemon_start(&d, flags);
    for (size_t i = 0; i < n; i++) {
        pair *p = &ps[i];
        char url[16384], ct[256];
        snprintf(url, sizeof url, "%s%s", d.direct, p->path);
        const char *hdrs[] = {ct, NULL};
        snprintf(ct, sizeof ct, "Content-Type: %s", p->type ? p->type : "");
        http_call c = {p->method, url, p->type ? hdrs : NULL, p->body, p->body_len, 0};
        http_reply r = http_do(&c);
        char *ctype = header(r.headers, "Content-Type"), *etag = header(r.headers, "ETag");
        size_t blen;
        char *body = normalise(r.body, r.len, &blen);
        ck_assert_msg(r.status == p->status, "%s:%d: %s %s: status %ld, recorded %ld", REPLAY_FILE,
                      p->line, p->method, p->path, r.status, p->status);
        ck_assert_msg(strcmp(ctype, p->ctype) == 0, "%s:%d: Content-Type %s, recorded %s",
                      REPLAY_FILE, p->line, ctype, p->ctype);
        ck_assert_msg(strcmp(etag, p->etag) == 0, "%s:%d: ETag %s, recorded %s", REPLAY_FILE,
                      p->line, etag, p->etag);
        size_t at = first_difference(body, blen, p->answer, p->answer_len);
        ck_assert_msg(
            at == blen && at == p->answer_len,
            "%s:%d: %s %s: the answer differs at byte %zu (0x%02x, recorded 0x%02x); got %.200s",
            REPLAY_FILE, p->line, p->method, p->path, at, at < blen ? (unsigned char)body[at] : 0,
            at < p->answer_len ? (unsigned char)p->answer[at] : 0, body);
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
}
END_TEST

int main(void)
{
    Suite *s = suite_create("replay");
    TCase *tc = tcase_create("replay");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, replay_every_pair);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
