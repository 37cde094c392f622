/* endpoints.h - one handler per endpoint, each a job handler (jobs.h):
 * it reads the job's request, fills its answer or its error and calls
 * done() once.  The route table (routes.h) is the only caller's list.
 *
 *   endpoint_solve     the game's parse -> solve -> write, through the
 *                      result cache (solve_job.c); solve_estimate parses a
 *                      small body ahead on the I/O thread for triage
 *   endpoint_analyze   every move of a mid-play position (JSON) and its
 *                      perfect-play line, through the result cache
 *                      (analyze_job.c)
 *   endpoint_move      the engine's move at a level (move_job.c)
 *   endpoint_generate  a fresh puzzle (generate_job.c)
 *   endpoint_judge     one submitted output checked, or a test set spread
 *                      over the pool (judge_job.c)
 *   endpoint_batch     many positions or submissions over the pool,
 *                      answered in order (batch_job.c)
 *   endpoint_puzzle    a rated puzzle, the daily one or one by its id,
 *                      without its solution (puzzle_job.c); puzzle_estimate
 *                      serves an answer the result cache holds on the I/O
 *                      thread
 *   endpoint_puzzle_check  a visitor's moves on a puzzle judged, and with
 *                      a player rated (puzzle_job.c)
 *   endpoint_puzzle_next, endpoint_puzzle_stats  a stored puzzle for a
 *                      player, a puzzle's live numbers (store_job.c)
 *   endpoint_player_activity, endpoint_player_dashboard  a player's plays
 *                      and results per theme (store_job.c)
 *   endpoint_puzzle_picture, endpoint_analyze_picture  a puzzle's or a
 *                      position's picture, an SVG document (picture_job.c)
 *   pages_*            the GET pages: the catalogue, probes, metrics, the
 *                      spec and the playground (pages.c) */
#ifndef GJ_ENDPOINTS_H
#define GJ_ENDPOINTS_H

#include "jobs.h"

void endpoint_solve(job *j);
job_lane solve_estimate(job *j);
void endpoint_analyze(job *j);
void endpoint_move(job *j);
void endpoint_generate(job *j);
void endpoint_judge(job *j);
void endpoint_batch(job *j);
void endpoint_puzzle(job *j);
job_lane puzzle_estimate(job *j);
void endpoint_puzzle_check(job *j);
void endpoint_puzzle_next(job *j);
void endpoint_puzzle_stats(job *j);
void endpoint_player_activity(job *j);
void endpoint_player_dashboard(job *j);
void endpoint_puzzle_picture(job *j);
void endpoint_analyze_picture(job *j);

void pages_games(job *j);
void pages_health(job *j);
void pages_ready(job *j);
void pages_metrics(job *j);
void pages_spec(job *j);
void pages_docs(job *j);
void pages_playground(job *j);

#endif
