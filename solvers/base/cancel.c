/* cancel.c - the stop flag a solve watches (cancel.h). */
#include "cancel.h"

#include <time.h>

/* The flag this thread's solves watch; one per thread, so no lock. */
static _Thread_local gj_cancel *bound;

void gj_cancel_init(gj_cancel *c, unsigned long long deadline_ns)
{
    atomic_init(&c->reason, GJ_CANCEL_NONE);
    c->deadline_ns = deadline_ns;
}

void gj_cancel_bind(gj_cancel *c)
{
    bound = c;
}

gj_cancel *gj_cancel_bound(void)
{
    return bound;
}

void gj_cancel_raise(gj_cancel *c, gj_cancel_reason reason)
{
    int none = GJ_CANCEL_NONE;
    atomic_compare_exchange_strong(&c->reason, &none, (int)reason);
}

gj_cancel_reason gj_cancel_reason_of(const gj_cancel *c)
{
    return (gj_cancel_reason)atomic_load_explicit(&((gj_cancel *)c)->reason, memory_order_relaxed);
}

unsigned long long gj_cancel_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec;
}

int gj_cancel_check(gj_error *e)
{
    gj_cancel *c = bound;
    if (c == NULL)
        return 0;
    int reason = atomic_load_explicit(&c->reason, memory_order_relaxed);
    if (reason == GJ_CANCEL_NONE && c->deadline_ns != 0 && gj_cancel_now_ns() > c->deadline_ns) {
        gj_cancel_raise(c, GJ_CANCEL_DEADLINE);
        reason = GJ_CANCEL_DEADLINE;
    }
    if (reason == GJ_CANCEL_NONE)
        return 0;
    return gj_fail(e, GJ_CANCELLED,
                   reason == GJ_CANCEL_GONE
                       ? "the solve was stopped: the client closed its connection"
                       : "the solve was stopped at its deadline; retry later or with a "
                         "smaller position");
}
