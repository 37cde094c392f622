/* pages.c - the GET routes' handlers (endpoints.h). */
#include "endpoints.h"
#include "spec.h"

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
 * so a load balancer stops sending before the listening socket closes.
 * The 503 is an answer about the service, not an error of the request. */
void pages_ready(job *j)
{
    static const char ready[] = "{\"status\":\"ready\"}";
    static const char draining[] = "{\"status\":\"draining\"}";
    if (atomic_load(&j->rt->draining)) {
        j->ok_status = 503;
        answer_fixed(j, "application/json", draining, sizeof draining - 1);
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

void pages_playground(job *j)
{
    answer_fixed(j, "text/html; charset=utf-8", (const char *)gj_playground_html,
                 gj_playground_html_len);
}
