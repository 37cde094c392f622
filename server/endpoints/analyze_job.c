/* analyze_job.c - POST and GET /analyze/{game} (endpoints.h): the game's
 * analysis of a position in play and its perfect-play line (line.h),
 * through the result cache keyed on the request's canonical form. */
#include "endpoints.h"
#include "line.h"

/* The line's analysis of the prepared request (arg): 0, or -1. */
static int run_line(job *j, void *arg)
{
    return line_run(j->game, arg, jobs_limits(j, j->game), &j->answer, &j->error);
}

/* The analysis of the prepared request q through the result cache, keyed
 * on q's canonical form (line.h), and its tag into j->tag: 0, or -1 with
 * j->error.  A cached analysis answers a revalidation without running. */
static int analyze_cached(job *j, line_request *q)
{
    /* The key is the form itself, the game put in front of it: the form is
     * not needed past this, and a copy would hold a large body's matrix
     * twice while it is analysed. */
    gj_buf key;
    line_take_canonical(q, &key);
    if (etag_analysis(j->game, &key, j->tag->etag) != 0) {
        buf_free(&key);
        return gj_fail_nomem(&j->error);
    }
    int rc = jobs_cached(j, key.data, key.len, run_line, q);
    buf_free(&key);
    return rc;
}

/* The request read once: what its body was read into as it arrived (the
 * game's arrays and a small tree, or a tree), else its body (a query's, or
 * one kept whole) parsed now.  0, or -1 with j->error (*q is then not to be
 * freed). */
static int prepare(job *j, line_request *q)
{
    if (!j->body_read)
        return line_prepare(j->body, j->len, q, &j->error);
    analysis_body *read = jobs_take_analysis(j);
    if (read != NULL)
        return line_prepare_read(read, q, &j->error);
    json_t *tree = jobs_take_tree(j);
    return tree != NULL ? line_prepare_tree(tree, q, &j->error) : -1;
}

/* The request parsed, its analysis answered and its tag matched: 0, or -1
 * with j->error (and no tag). */
static int analyze(job *j, void *arg)
{
    (void)arg;
    line_request q;
    int rc = prepare(j, &q);
    if (rc == 0) {
        rc = analyze_cached(j, &q);
        line_request_free(&q);
    }
    /* Matched only once the answer is made: a match is always a 200's. */
    j->tag->not_modified = rc == 0 && etag_none_match(j->tag->if_none_match, j->tag->etag, true);
    if (rc != 0)
        j->tag->etag[0] = '\0';
    return rc;
}

void endpoint_analyze(job *j)
{
    if (j->game->analyze == NULL) {
        jobs_finish(j, gj_fail(&j->error, GJ_NOT_FOUND, "%s has no analysis", j->game->name));
        return;
    }
    jobs_run_step(j, "analysis", analyze, NULL);
}
