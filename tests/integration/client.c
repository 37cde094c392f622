/* client.c - libcurl easy and multi wrappers for the integration tests. */
#include "client.h"

#include <check.h>
#include <curl/curl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef struct sink {
    char *data;
    size_t len, cap;
} sink;

typedef struct source {
    const char *data;
    size_t len, pos;
} source;

typedef struct transfer {
    CURL *curl;
    struct curl_slist *headers;
    sink body, head;
    source upload;
} transfer;

/* The CA file of http_trust, or NULL. */
static const char *trusted;

void http_trust(const char *path)
{
    trusted = path;
}

static size_t collect(char *ptr, size_t size, size_t n, void *userdata)
{
    sink *s = userdata;
    size_t bytes = size * n;
    if (s->len + bytes + 1 > s->cap) {
        size_t cap = s->cap ? s->cap : 1024;
        while (cap < s->len + bytes + 1)
            cap *= 2;
        char *p = realloc(s->data, cap);
        if (p == NULL)
            return 0;
        s->data = p;
        s->cap = cap;
    }
    memcpy(s->data + s->len, ptr, bytes);
    s->len += bytes;
    s->data[s->len] = '\0';
    return bytes;
}

/* Hand the upload out in small pieces so a chunked body really is chunked. */
static size_t feed(char *buffer, size_t size, size_t n, void *userdata)
{
    source *s = userdata;
    size_t room = size * n, left = s->len - s->pos;
    size_t give = left < room ? left : room;
    if (give > 65536)
        give = 65536;
    memcpy(buffer, s->data + s->pos, give);
    s->pos += give;
    return give;
}

static void setup(transfer *t, const http_call *c)
{
    memset(t, 0, sizeof *t);
    t->curl = curl_easy_init();
    ck_assert_ptr_nonnull(t->curl);
    curl_easy_setopt(t->curl, CURLOPT_URL, c->url);
    curl_easy_setopt(t->curl, CURLOPT_NOPROXY, "*");
    if (trusted != NULL)
        curl_easy_setopt(t->curl, CURLOPT_CAINFO, trusted);
    curl_easy_setopt(t->curl, CURLOPT_TIMEOUT, 120L);
    curl_easy_setopt(t->curl, CURLOPT_WRITEFUNCTION, collect);
    curl_easy_setopt(t->curl, CURLOPT_WRITEDATA, &t->body);
    curl_easy_setopt(t->curl, CURLOPT_HEADERFUNCTION, collect);
    curl_easy_setopt(t->curl, CURLOPT_HEADERDATA, &t->head);
    for (int i = 0; c->headers != NULL && c->headers[i] != NULL; i++)
        t->headers = curl_slist_append(t->headers, c->headers[i]);
    if (c->chunked) {
        t->headers = curl_slist_append(t->headers, "Transfer-Encoding: chunked");
        t->upload = (source){c->body, c->len, 0};
        curl_easy_setopt(t->curl, CURLOPT_POST, 1L);
        curl_easy_setopt(t->curl, CURLOPT_READFUNCTION, feed);
        curl_easy_setopt(t->curl, CURLOPT_READDATA, &t->upload);
    } else if (c->body != NULL) {
        curl_easy_setopt(t->curl, CURLOPT_POSTFIELDS, c->body);
        curl_easy_setopt(t->curl, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)c->len);
    }
    if (strcmp(c->method, "HEAD") == 0)
        curl_easy_setopt(t->curl, CURLOPT_NOBODY, 1L);
    else if (strcmp(c->method, c->body != NULL || c->chunked ? "POST" : "GET") != 0)
        curl_easy_setopt(t->curl, CURLOPT_CUSTOMREQUEST, c->method);
    curl_easy_setopt(t->curl, CURLOPT_HTTPHEADER, t->headers);
}

static const char *request_type(const http_call *c)
{
    for (int i = 0; c->headers != NULL && c->headers[i] != NULL; i++)
        if (strncasecmp(c->headers[i], "Content-Type:", 13) == 0)
            return c->headers[i] + 13;
    return "";
}

/* Whether the violation at `location` (["request", "body", LIST, i, ...])
 * is inside a /batch item or a /judge test-set case that the 200 answers
 * in its place with an error: the spec types the items a client sends and
 * says a malformed one is answered alone, not refused with the rest. */
static int answered_in_place(const http_reply *r, const json_t *location)
{
    const char *list = json_string_value(json_array_get(location, 2));
    const char *index = json_string_value(json_array_get(location, 3));
    if (r->status != 200 || list == NULL || index == NULL ||
        (strcmp(list, "items") != 0 && strcmp(list, "cases") != 0))
        return 0;
    json_t *answer = json_loadb(r->body, r->len, 0, NULL);
    json_t *item = json_array_get(json_object_get(answer, list), (size_t)strtoul(index, NULL, 10));
    json_int_t status = json_integer_value(json_object_get(item, "status"));
    int in_place = status >= 400 && json_object_get(item, "error") != NULL;
    json_decref(answer);
    return in_place;
}

/* Is this request-side violation one the exchange explains?
 *  - a route or method the document does not have: fine when the server
 *    answered 404 or 405, which is what such requests must get;
 *  - a request the test sent wrong on purpose: the server refused it (4xx);
 *  - a /batch item or a /judge case sent wrong on purpose: the 200 answers
 *    it in its place with an error (answered_in_place);
 *  - a raw-text body sent as form-urlencoded (curl's default): the proxy
 *    form-decodes it, which the API never does, so its schema cannot apply. */
static int excused(const http_call *c, const http_reply *r, json_t *v)
{
    const char *message = json_string_value(json_object_get(v, "message"));
    if (message != NULL && strcmp(message, "Selected route not found") == 0)
        return r->status == 404 || r->status == 405;
    if (r->status >= 400 && r->status < 500)
        return 1;
    if (answered_in_place(r, json_object_get(v, "location")))
        return 1;
    const char *type = request_type(c);
    return c->body != NULL && (strstr(type, "json") == NULL && strstr(type, "text/plain") == NULL);
}

int contract_check(const http_call *c, const http_reply *r, char *why, size_t cap)
{
    char *header = http_header(r, "sl-violations");
    if (header == NULL)
        return 0;
    json_t *list = json_loads(header, 0, NULL);
    free(header);
    int bad = 0;
    size_t used = 0, i;
    json_t *v;
    why[0] = '\0';
    json_array_foreach(list, i, v)
    {
        const char *side = json_string_value(json_array_get(json_object_get(v, "location"), 0));
        if (side != NULL && strcmp(side, "request") == 0 && excused(c, r, v))
            continue;
        bad++;
        char *text = json_dumps(v, JSON_COMPACT);
        if (used < cap)
            used += (size_t)snprintf(why + used, cap - used, "%s ", text ? text : "?");
        free(text);
    }
    json_decref(list);
    return bad;
}

static void enforce_contract(const http_call *c, const http_reply *r)
{
    const char *mode = getenv("GJ_CONTRACT");
    if (mode == NULL || strcmp(mode, "1") != 0)
        return;
    char why[2048];
    int bad = contract_check(c, r, why, sizeof why);
    ck_assert_msg(bad == 0, "%s %s -> %ld breaks the OpenAPI document: %s", c->method, c->url,
                  r->status, why);
}

static http_reply finish(transfer *t, CURLcode rc)
{
    http_reply r;
    memset(&r, 0, sizeof r);
    r.curl_error = (int)rc;
    curl_easy_getinfo(t->curl, CURLINFO_RESPONSE_CODE, &r.status);
    r.body = t->body.data ? t->body.data : calloc(1, 1);
    r.len = t->body.len;
    r.headers = t->head.data ? t->head.data : calloc(1, 1);
    curl_slist_free_all(t->headers);
    curl_easy_cleanup(t->curl);
    return r;
}

http_reply http_do(const http_call *c)
{
    transfer t;
    setup(&t, c);
    CURLcode rc = curl_easy_perform(t.curl);
    http_reply r = finish(&t, rc);
    enforce_contract(c, &r);
    return r;
}

http_reply http_do_from(const http_call *c, const char *from)
{
    transfer t;
    setup(&t, c);
    curl_easy_setopt(t.curl, CURLOPT_INTERFACE, from);
    CURLcode rc = curl_easy_perform(t.curl);
    http_reply r = finish(&t, rc);
    enforce_contract(c, &r);
    return r;
}

void http_do_parallel(const http_call *calls, http_reply *replies, int n)
{
    CURLM *multi = curl_multi_init();
    transfer *t = calloc((size_t)n, sizeof *t);
    ck_assert_ptr_nonnull(t);
    curl_multi_setopt(multi, CURLMOPT_MAX_TOTAL_CONNECTIONS, (long)n);
    for (int i = 0; i < n; i++) {
        setup(&t[i], &calls[i]);
        curl_easy_setopt(t[i].curl, CURLOPT_PRIVATE, (char *)&t[i]);
        curl_multi_add_handle(multi, t[i].curl);
    }
    int running = n;
    while (running > 0) {
        curl_multi_perform(multi, &running);
        if (running > 0)
            curl_multi_poll(multi, NULL, 0, 100, NULL);
    }
    CURLcode *codes = calloc((size_t)n, sizeof *codes);
    CURLMsg *msg;
    int left;
    while ((msg = curl_multi_info_read(multi, &left)) != NULL)
        if (msg->msg == CURLMSG_DONE) {
            char *priv;
            curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, &priv);
            codes[(transfer *)(void *)priv - t] = msg->data.result;
        }
    for (int i = 0; i < n; i++) {
        curl_multi_remove_handle(multi, t[i].curl);
        replies[i] = finish(&t[i], codes[i]);
        enforce_contract(&calls[i], &replies[i]);
    }
    free(codes);
    free(t);
    curl_multi_cleanup(multi);
}

void http_reply_free(http_reply *r)
{
    free(r->body);
    free(r->headers);
    memset(r, 0, sizeof *r);
}

char *http_header(const http_reply *r, const char *name)
{
    size_t n = strlen(name);
    for (const char *line = r->headers; line != NULL && *line != '\0';) {
        const char *end = strstr(line, "\r\n");
        if (end == NULL)
            end = line + strlen(line);
        if ((size_t)(end - line) > n && strncasecmp(line, name, n) == 0 && line[n] == ':') {
            const char *v = line + n + 1;
            while (*v == ' ')
                v++;
            size_t len = (size_t)(end - v);
            char *out = malloc(len + 1);
            memcpy(out, v, len);
            out[len] = '\0';
            return out;
        }
        line = *end ? end + 2 : end;
    }
    return NULL;
}

char *read_file_or_fail(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *data = malloc((size_t)size + 1);
    ck_assert_ptr_nonnull(data);
    ck_assert_uint_eq(fread(data, 1, (size_t)size, f), (size_t)size);
    data[size] = '\0';
    fclose(f);
    if (len)
        *len = (size_t)size;
    return data;
}

int run_suite(Suite *s)
{
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    curl_global_cleanup();
    return failed == 0 ? 0 : 1;
}
