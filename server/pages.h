/* pages.h - the handlers of the GET routes, answered on the I/O thread:
 * the game catalogue, liveness, readiness, metrics, the spec, its page and
 * the playground.  Each answers a static body or one rendered from the
 * application's state at once (jobs.h: fills the job, calls done). */
#ifndef GJ_PAGES_H
#define GJ_PAGES_H

#include "jobs.h"

void pages_games(job *j);
void pages_health(job *j);
void pages_ready(job *j);
void pages_metrics(job *j);
void pages_spec(job *j);
void pages_docs(job *j);
void pages_playground(job *j);

#endif
