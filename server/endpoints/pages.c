/* pages.c - the GET routes' handlers (endpoints.h). */
#include <string.h>

#include "endpoints.h"
#include "games.h"
#include "json_out.h"
#include "query.h"
#include "spec.h"

/* The longest game name and puzzle id a puzzle link's page reads. */
#define LINK_VALUE_MAX 1024

/* Answer the static `body` of `len` bytes as `type`. */
static void answer_fixed(job *j, const char *type, const char *body, size_t len)
{
    j->type = type;
    j->fixed = body;
    j->fixed_len = len;
    j->done(j);
}

void pages_games(job *j)
{
    answer_fixed(j, "application/json", j->rt->catalog, j->rt->catalog_len);
}

void pages_health(job *j)
{
    static const char ok[] = "{\"status\":\"ok\"}";
    answer_fixed(j, "application/json", ok, sizeof ok - 1);
}

/* Ready while accepting work; 503 from the moment a stop signal arrives,
 * so a load balancer stops sending before the listening socket closes,
 * and while the puzzle store does not answer (its watch's last ping,
 * storewatch.h: never a wait on the database here), saying why.  The 503
 * is an answer about the service, not an error of the request. */
void pages_ready(job *j)
{
    static const char ready[] = "{\"status\":\"ready\"}";
    static const char draining[] = "{\"status\":\"draining\"}";
    gj_error e;
    if (atomic_load(&j->rt->draining)) {
        j->ok_status = 503;
        answer_fixed(j, "application/json", draining, sizeof draining - 1);
    } else if (j->rt->watch != NULL && storewatch_health(j->rt->watch, &e) != 0) {
        j->ok_status = 503;
        j->type = "application/json";
        json_out_append(&j->answer,
                        json_pack("{s:s, s:s}", "status", "store_unavailable", "store", e.message),
                        JSON_COMPACT);
        if (j->answer.failed) {
            buf_free(&j->answer);
            gj_fail(&j->error, GJ_INTERNAL, "out of memory while answering /readyz");
        }
        j->done(j);
    } else {
        answer_fixed(j, "application/json", ready, sizeof ready - 1);
    }
}

void pages_metrics(job *j)
{
    gj_runtime *a = j->rt;
    metrics_gauges g = {
        .workers = (int)a->cfg->workers,
        .queue_capacity = (int)a->cfg->queue,
        .in_flight = atomic_load(&a->in_flight),
        .ready = !atomic_load(&a->draining),
        .reaped = conntrack_reaped(a->tracker),
    };
    pool_stats(a->pool, &g.queued, &g.busy);
    cache_stats cs;
    if (a->cache != NULL) {
        cache_get_stats(a->cache, &cs);
        g.cache = &cs;
    }
    metrics_render(a->metrics, &g, &j->answer);
    if (j->answer.failed) {
        buf_free(&j->answer);
        gj_fail(&j->error, GJ_INTERNAL, "out of memory while rendering metrics");
    }
    j->type = "text/plain; version=0.0.4; charset=utf-8";
    j->done(j);
}

void pages_spec(job *j)
{
    answer_fixed(j, "application/yaml", (const char *)gj_openapi_yaml, gj_openapi_yaml_len);
}

void pages_docs(job *j)
{
    answer_fixed(j, "text/html; charset=utf-8", (const char *)gj_docs_html, gj_docs_html_len);
}

/* The value of the first `name` in the raw query q (form-urlencoded, not
 * checked: the playground's is lenient) decoded into out (cap bytes, NUL
 * ended): 1, or 0 when absent, malformed or too long. */
static int link_param(const char *q, const char *name, char *out, size_t cap)
{
    size_t n = strlen(name);
    for (const char *p = q; *p != '\0';) {
        size_t len = strcspn(p, "&");
        if (len > n && strncmp(p, name, n) == 0 && p[n] == '=') {
            size_t vlen = len - n - 1, bad;
            if (vlen >= cap)
                return 0;
            memcpy(out, p + n + 1, vlen);
            long m = query_unescape(out, vlen, &bad);
            if (m < 0)
                return 0;
            out[m] = '\0';
            return (size_t)m == strlen(out) && m > 0;
        }
        p += len;
        p += *p == '&';
    }
    return 0;
}

/* Whether s is spelt as a puzzle id can be (puzzle_id.h: digits, base64url
 * and hex joined by '.'), so it goes into a URL and an attribute as it is. */
static int id_spelling(const char *s)
{
    for (; *s != '\0'; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
              *s == '.' || *s == '_' || *s == '-'))
            return 0;
    return 1;
}

/* Append s with the characters HTML gives meaning in an attribute escaped. */
static void put_attr(gj_buf *out, const char *s)
{
    for (; *s != '\0'; s++) {
        if (*s == '&')
            buf_puts(out, "&amp;");
        else if (*s == '"')
            buf_puts(out, "&quot;");
        else if (*s == '<')
            buf_puts(out, "&lt;");
        else if (*s == '>')
            buf_puts(out, "&gt;");
        else
            buf_putc(out, *s);
    }
}

/* One <meta ATTR="key" content="ORIGIN/PATH[ID][TAIL]"> line of a puzzle
 * link's page. */
static void put_meta_url(gj_buf *out, const char *attr, const char *key, const char *origin,
                         const char *path, const char *id, const char *tail)
{
    buf_puts(out, "<meta ");
    buf_puts(out, attr);
    buf_puts(out, "=\"");
    buf_puts(out, key);
    buf_puts(out, "\" content=\"");
    put_attr(out, origin);
    put_attr(out, path);
    put_attr(out, id);
    put_attr(out, tail);
    buf_puts(out, "\">\n");
}

/* The playground with a puzzle link's preview in its head: the card's
 * title and the puzzle's picture (its absolute URL, as previews need) as
 * og:image and twitter:image, before </head>.  0, or -1 when the page has
 * no </head> or memory is short (the plain page is answered then). */
static int puzzle_page(job *j, const gj_game *g, const char *id)
{
    const char *page = (const char *)gj_playground_html, *head = NULL;
    size_t len = gj_playground_html_len;
    for (size_t i = 0; i + 7 <= len && head == NULL; i++)
        if (memcmp(page + i, "</head>", 7) == 0)
            head = page + i;
    if (head == NULL)
        return -1;
    gj_buf *out = &j->answer;
    char path[96];
    buf_append(out, page, (size_t)(head - page));
    buf_puts(out, "<meta property=\"og:type\" content=\"website\">\n");
    buf_puts(out, "<meta property=\"og:title\" content=\"A ");
    put_attr(out, g->display_name);
    buf_puts(out, " puzzle: find the solving move\">\n");
    snprintf(path, sizeof path, "/?game=%s&puzzle=", g->name);
    put_meta_url(out, "property", "og:url", j->origin, path, id, "");
    snprintf(path, sizeof path, "/puzzle/%s/", g->name);
    put_meta_url(out, "property", "og:image", j->origin, path, id, "/image.svg");
    buf_puts(out, "<meta property=\"og:image:type\" content=\"image/svg+xml\">\n");
    buf_puts(out, "<meta property=\"og:image:alt\" content=\"The puzzle's position\">\n");
    buf_puts(out, "<meta name=\"twitter:card\" content=\"summary_large_image\">\n");
    put_meta_url(out, "name", "twitter:image", j->origin, path, id, "/image.svg");
    buf_append(out, head, len - (size_t)(head - page));
    if (out->failed) {
        buf_free(out);
        return -1;
    }
    return 0;
}

/* The playground.  A puzzle link (/?game=G&puzzle=ID, which the page
 * itself opens) gets its preview tags, where the page knows the origin
 * visitors reach it at (jobs.h): an origin read from this request's Host
 * is no other request's, so that page is no-store.  Any other query
 * (tracking parameters, a malformed link) is the plain page. */
void pages_playground(job *j)
{
    char name[64], id[LINK_VALUE_MAX];
    const gj_game *g = NULL;
    if (j->query != NULL && j->origin != NULL && link_param(j->query, "game", name, sizeof name) &&
        link_param(j->query, "puzzle", id, sizeof id) && id_spelling(id))
        g = games_find(name, strlen(name));
    if (g != NULL && g->generate != NULL && g->analyze != NULL && g->play_move != NULL &&
        puzzle_page(j, g, id) == 0) {
        j->type = "text/html; charset=utf-8";
        j->no_store = j->origin_from_host;
        j->done(j);
        return;
    }
    answer_fixed(j, "text/html; charset=utf-8", (const char *)gj_playground_html,
                 gj_playground_html_len);
}
