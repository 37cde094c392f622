/* puzzle_job.h - what the puzzles' endpoint file (puzzle_job.c) lends the
 * store's routes (store_job.c): a puzzle's answer by its id, as GET
 * /puzzle/{game}/{id} gives it, so GET /puzzle/{game}/next answers a
 * stored puzzle in the same bytes and shares that GET's result cache
 * entries. */
#ifndef GJ_PUZZLE_JOB_H
#define GJ_PUZZLE_JOB_H

#include "jobs.h"

/* The answer of GET /puzzle/{game}/{id} for j's game and `id` into
 * j->answer, through the result cache under that GET's key: 0, or -1 with
 * j->error (bad_input naming "id" for one that is no puzzle id). */
int puzzle_answer_by_id(job *j, const char *id);

#endif
