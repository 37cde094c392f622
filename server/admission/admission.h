/* admission.h - admission control: who may be served, and how much memory
 * may be held, decided for the HTTP front (http.c, http_respond.c) in up
 * to seven calls a request.
 *
 *   admission_begin   headers in: the client (client_id.h, an API key from
 *                     api_keys.h) and its quota (quota.h): 429 when it is
 *                     over its budget, 401 for an unknown API key
 *   admission_memory  the body's expected peak charged to the memory budget
 *                     (budget.h), before the body when Content-Length
 *                     announces it, else as it grows: 503 past the budget,
 *                     413 for a body that the whole budget could never hold
 *   admission_work    a parsed position's solve: what it will hold beyond
 *                     the body (game.h's work_bytes), charged before it
 *                     runs, with the same 503 and 413
 *   admission_hold    what a body's tree holds past all that, measured as
 *                     it is read or as its handler parses it (grant.h),
 *                     with the same 503 and 413
 *   admission_grow    what the answer holds beyond both as the work writes
 *                     it (grant.h), charged as it grows, with the same
 *                     503 and 413
 *   admission_answer  the answer is being sent: its worker time is taken
 *                     from the client's bucket (once), and the RateLimit,
 *                     RateLimit-Policy and (429) Retry-After headers made,
 *                     except on an answer a shared cache may keep
 *   admission_end     the request ended, whichever way: its worker time is
 *                     taken if no answer took it (the client hung up: work
 *                     done for a client is charged to it however the job
 *                     ended), and the memory charge released (once)
 *
 * A request's state is an admit_ticket inside the request, zeroed at its
 * start.  The quotas are on with --quota-rate above 0 (every address gets
 * that budget) or with --api-keys (each key its own; a request without a
 * key is then an address client, unmetered when --quota-rate is 0).  Each
 * replica keeps its own buckets and its own budget. */
#ifndef GJ_ADMISSION_H
#define GJ_ADMISSION_H

#include <stddef.h>

#include "budget.h"
#include "buf.h"
#include "settings.h"
#include "error.h"
#include "quota.h"

#define ADMISSION_KEY_HEADER "X-Api-Key"

typedef struct gj_admission gj_admission;

typedef struct admit_ticket {
    size_t charged;  /* bytes charged to the memory budget for the body */
    size_t held;     /* charged for the body's tree past the body's own (admission_hold) */
    size_t working;  /* charged for the work and its answer (admission_work, _grow) */
    int metered;     /* 1 when a bucket applies */
    int by_key;      /* 1 when the client is an API key */
    int cost_taken;  /* 1 once the answer's cost was taken */
    char client[72]; /* the bucket's name: an address or "key#N" */
    quota_policy policy;
    quota_view view;
} admit_ticket;

/* From the configuration: reads --api-keys; NULL with *e (naming the file
 * and line) when it cannot. */
gj_admission *admission_create(const gj_config *cfg, gj_error *e);
void admission_free(gj_admission *a);

/* 1 when X-Forwarded-For from this peer (address text) is to be read. */
int admission_trusts(const gj_admission *a, const char *peer);

/* The client's name (client_id.h) into out: the peer, or behind a trusted
 * proxy the address its `xff` names, as the quota would name it. */
void admission_name_client(const gj_admission *a, const char *peer, const char *xff, char *out,
                           size_t cap);

/* The request's headers are in: `peer` the peer's address, `xff` every
 * X-Forwarded-For value joined by commas (NULL: none or not trusted),
 * `key` the X-Api-Key header (NULL: none).  0, or -1 with *e. */
int admission_begin(gj_admission *a, admit_ticket *t, const char *peer, const char *xff,
                    const char *key, gj_error *e);

/* Cover a body of `body` bytes of kind `in` (budget.h; the caller knows
 * the route and the game that decide it), taking first what its tree's
 * hold already charged: 0, or -1 with *e (GJ_OVERLOADED, 503, or
 * GJ_TOO_LARGE, 413, when the body's peak, or its tree's, is more than the
 * whole budget), nothing more charged. */
int admission_memory(gj_admission *a, admit_ticket *t, budget_body in, size_t body, gj_error *e);

/* Charge the `bytes` the request's solve will hold beyond its body's charge
 * (game.h's work_bytes), once its position is parsed: 0, or -1 with *e
 * (GJ_OVERLOADED, 503, or GJ_TOO_LARGE, 413, when the body and the work
 * together are more than the whole budget), nothing more charged. */
int admission_work(gj_admission *a, admit_ticket *t, size_t bytes, gj_error *e);

/* The least admission_hold charges at once. */
#define ADMISSION_HOLD_STEP ((size_t)1 << 20)

/* The body holds `held` bytes now (a JSON tree, measured as it is built,
 * with the body itself when it is kept whole): what passes everything charged so far is charged, in
 * steps of at least ADMISSION_HOLD_STEP: 0, or -1 with *e as admission_work. */
int admission_hold(gj_admission *a, admit_ticket *t, size_t held, gj_error *e);

/* Charge `bytes` more that the request's answer holds as the work writes it
 * (grant.h: an analysis's whole "after" positions), on whichever thread
 * runs the job: 0, or -1 with *e as admission_work; released with the rest. */
int admission_grow(gj_admission *a, admit_ticket *t, size_t bytes, gj_error *e);

/* A header for the answer: name and value, both only valid during the call. */
typedef void (*admit_header)(void *ctx, const char *name, const char *value);

/* The answer (status) is being sent after `cost_ms` of worker time: take
 * the cost once and add the quota headers through add(ctx, ...), unless
 * `shared` (the answer may be kept by a shared cache and served to other
 * clients: a per-client header must not ride on it). */
void admission_answer(gj_admission *a, admit_ticket *t, int status, double cost_ms, int shared,
                      admit_header add, void *ctx);

/* The request is over: take its `cost_ms` of worker time if no answer
 * did, and release its memory charge (once). */
void admission_end(gj_admission *a, admit_ticket *t, double cost_ms);

/* Append the budget's and the quotas' metrics (Prometheus text). */
void admission_render(gj_admission *a, gj_buf *out);

#endif
