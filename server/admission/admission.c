/* admission.c - the memory budget and the quotas, for the HTTP front
 * (admission.h). */
#include "admission.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "api_keys.h"
#include "budget.h"
#include "client_id.h"
#include "log.h"

struct gj_admission {
    gj_budget *budget;
    gj_quota *quota;
    int metering;      /* 0: the quotas are off */
    gj_api_keys *keys; /* NULL without --api-keys */
    proxy_list proxies;
    quota_policy address; /* rate_ms 0: addresses unmetered */
};

gj_admission *admission_create(const gj_config *cfg, gj_error *e)
{
    gj_admission *a = calloc(1, sizeof *a);
    if (a == NULL) {
        gj_fail_nomem(e);
        return NULL;
    }
    a->address.rate_ms = (double)cfg->quota_rate;
    a->address.burst_ms = (double)cfg->quota_burst;
    a->budget = budget_create((size_t)cfg->memory_budget);
    if (a->budget == NULL ||
        proxies_parse(cfg->trusted_proxies, "--trusted-proxies", &a->proxies, e) != 0) {
        if (a->budget == NULL)
            gj_fail_nomem(e);
        admission_free(a);
        return NULL;
    }
    if (proxies_cover_all(&a->proxies)) {
        const char *fields[] = {"trusted_proxies", cfg->trusted_proxies, NULL};
        log_event("warn",
                  "--trusted-proxies trusts every address: any client can name itself in "
                  "X-Forwarded-For and pick its own quota bucket; list only your proxies",
                  fields);
    }
    if (cfg->api_keys[0] != '\0' && (a->keys = api_keys_load(cfg->api_keys, e)) == NULL) {
        admission_free(a);
        return NULL;
    }
    a->metering = cfg->quota_rate > 0 || a->keys != NULL;
    if ((a->quota = quota_create((size_t)cfg->quota_clients)) == NULL) {
        gj_fail_nomem(e);
        admission_free(a);
        return NULL;
    }
    return a;
}

void admission_free(gj_admission *a)
{
    if (a == NULL)
        return;
    budget_free(a->budget);
    quota_free(a->quota);
    api_keys_free(a->keys);
    proxies_free(&a->proxies);
    free(a);
}

/* Seconds on the monotonic clock. */
static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int admission_trusts(const gj_admission *a, const char *peer)
{
    return a->proxies.n > 0 && proxies_contain(&a->proxies, peer);
}

void admission_name_client(const gj_admission *a, const char *peer, const char *xff, char *out,
                           size_t cap)
{
    client_address(&a->proxies, peer, xff, out, cap);
}

int admission_begin(gj_admission *a, admit_ticket *t, const char *peer, const char *xff,
                    const char *key, gj_error *e)
{
    if (!a->metering)
        return 0;
    if (a->keys != NULL && key != NULL) {
        double rate, burst;
        int i = api_keys_find(a->keys, key, &rate, &burst);
        if (i < 0) {
            quota_throttled(a->quota, QUOTA_UNKNOWN_KEY);
            return gj_fail(e, GJ_UNAUTHORIZED,
                           "the " ADMISSION_KEY_HEADER " header holds no key this server knows; "
                           "send a configured key, or no header to be served by address");
        }
        snprintf(t->client, sizeof t->client, "key#%d", i + 1);
        t->policy = (quota_policy){rate, burst};
        t->by_key = 1;
    } else {
        if (a->address.rate_ms <= 0)
            return 0; /* only keys are metered */
        client_address(&a->proxies, peer, xff, t->client, sizeof t->client);
        t->policy = a->address;
    }
    t->metered = 1;
    if (quota_admit(a->quota, t->client, &t->policy, now_s(), &t->view) == 0)
        return 0;
    quota_throttled(a->quota, t->by_key ? QUOTA_KEY_COST : QUOTA_ADDRESS_COST);
    t->cost_taken = 1; /* a refusal costs nothing */
    return gj_fail(e, GJ_RATE_LIMITED,
                   "this client used more than its budget of worker time (%.0f ms, refilled at "
                   "%.0f ms a second): %.0f ms over; retry in %ld s",
                   t->policy.burst_ms, t->policy.rate_ms, -t->view.remaining_ms,
                   t->view.retry_after);
}

int admission_memory(gj_admission *a, admit_ticket *t, budget_body in, size_t body, gj_error *e)
{
    size_t need = budget_peak(in, body), limit = budget_limit(a->budget);
    /* What the tree's hold charged past the body's charge is the body's
     * memory too: the body's growing charge takes those bytes over rather
     * than count them twice. */
    if (need > t->charged && t->held > 0) {
        size_t move = need - t->charged < t->held ? need - t->charged : t->held;
        t->held -= move;
        t->charged += move;
    }
    if (budget_cover(a->budget, &t->charged, in, body) == 0)
        return 0;
    size_t past = t->held + t->working;      /* no overflow: both are charged */
    if (need > limit || past > limit - need) /* no retry helps: 413, no Retry-After */
        return gj_fail(e, GJ_TOO_LARGE,
                       "a %zu-byte %s body needs about %zu bytes, more than the whole memory "
                       "budget of %zu bytes (--memory-budget); send a smaller position",
                       body, in == BUDGET_TEXT ? "text" : "JSON",
                       need > SIZE_MAX - past ? SIZE_MAX : need + past, limit);
    return gj_fail(e, GJ_OVERLOADED,
                   "a %zu-byte %s body needs about %zu bytes, and the requests in progress hold "
                   "%zu of the %zu-byte memory budget (--memory-budget); retry shortly",
                   body, in == BUDGET_TEXT ? "text" : "JSON", need + past,
                   budget_charged(a->budget), limit);
}

/* Charge `bytes` more past the body's charge, into *into (t->held or
 * t->working; `what` holds them, `less` says how to ask for less): 0, or
 * -1 with *e, nothing charged. */
static int charge_past(gj_admission *a, admit_ticket *t, size_t *into, size_t bytes,
                       const char *what, const char *less, gj_error *e)
{
    if (bytes == 0 || budget_charge(a->budget, bytes) == 0) {
        *into += bytes;
        return 0;
    }
    size_t limit = budget_limit(a->budget);
    size_t held = t->held + t->working + bytes; /* no overflow: all were or are to be charged */
    if (held < bytes || held > limit || t->charged > limit - held)
        return gj_fail(e, GJ_TOO_LARGE,
                       "%s holds about %zu bytes besides its %zu-byte body's charge, more than "
                       "the whole memory budget of %zu bytes (--memory-budget); %s",
                       what, held, t->charged, limit, less);
    return gj_fail(e, GJ_OVERLOADED,
                   "%s holds about %zu bytes besides its body, and the requests in progress "
                   "hold %zu of the %zu-byte memory budget (--memory-budget); retry shortly",
                   what, held, budget_charged(a->budget), limit);
}

int admission_work(gj_admission *a, admit_ticket *t, size_t bytes, gj_error *e)
{
    return charge_past(a, t, &t->working, bytes, "solving this position", "send a smaller position",
                       e);
}

int admission_hold(gj_admission *a, admit_ticket *t, size_t held, gj_error *e)
{
    /* Everything charged so far, as admission.h says: a handler parses a
     * body kept whole after its work was charged. */
    size_t covered = t->charged + t->held + t->working;
    if (held <= covered)
        return 0;
    size_t more = held - covered;
    if (more < ADMISSION_HOLD_STEP)
        more = ADMISSION_HOLD_STEP;
    return charge_past(a, t, &t->held, more, "reading this body", "send a smaller body", e);
}

int admission_grow(gj_admission *a, admit_ticket *t, size_t bytes, gj_error *e)
{
    return charge_past(a, t, &t->working, bytes, "the answer being written",
                       "ask for a smaller answer (an analysis's \"after\": \"diff\", fewer "
                       "moves)",
                       e);
}

/* Take the request's worker time from its client's bucket, once. */
static void take_cost(gj_admission *a, admit_ticket *t, double cost_ms)
{
    if (!t->metered || t->cost_taken)
        return;
    t->cost_taken = 1;
    quota_charge(a->quota, t->client, &t->policy, cost_ms > 0 ? cost_ms : 0, now_s(), &t->view);
}

void admission_answer(gj_admission *a, admit_ticket *t, int status, double cost_ms, int shared,
                      admit_header add, void *ctx)
{
    if (status == 401) /* RFC 9110 11.6.1: a 401 names how to authenticate */
        add(ctx, "WWW-Authenticate", "ApiKey header=\"" ADMISSION_KEY_HEADER "\"");
    take_cost(a, t, cost_ms);
    /* A shared cache would hand one client's budget to every other. */
    if (!t->metered || shared)
        return;
    /* draft-ietf-httpapi-ratelimit-headers: a policy named "cost" whose
     * quota is the bucket (worker ms) over the window that refills it. */
    char value[128];
    long window = (long)(t->policy.burst_ms / t->policy.rate_ms + 0.999999);
    snprintf(value, sizeof value, "\"cost\";q=%.0f;w=%ld", t->policy.burst_ms,
             window > 0 ? window : 1);
    add(ctx, "RateLimit-Policy", value);
    double left = t->view.remaining_ms > 0 ? t->view.remaining_ms : 0;
    snprintf(value, sizeof value, "\"cost\";r=%ld;t=%ld", (long)left, t->view.reset);
    add(ctx, "RateLimit", value);
    if (status == 429) {
        snprintf(value, sizeof value, "%ld", t->view.retry_after);
        add(ctx, "Retry-After", value);
    }
}

void admission_end(gj_admission *a, admit_ticket *t, double cost_ms)
{
    take_cost(a, t, cost_ms); /* the client left before its answer: it still pays */
    budget_release(a->budget, t->charged + t->held + t->working);
    t->charged = t->held = t->working = 0;
}

void admission_render(gj_admission *a, gj_buf *out)
{
    budget_render(a->budget, out);
    quota_render(a->quota, out);
}
