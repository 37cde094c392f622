/* judge_job.c - POST /judge/{game} (endpoints.h): one submission judged,
 * or a test set ("cases") spread over the pool as a batch (fanout.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fanout.h"
#include "endpoints.h"
#include "http_error.h"
#include "json_out.h"

static void judge_cases(job *j, json_t *root, const jin_refused *refused, size_t nrefused);

/* One submission ({"input","output"}) or a test set ({"cases": [...]}). */
void endpoint_judge(job *j)
{
    static const char *const keys[] = {"?input", "?output", "?cases", NULL};
    jin_refused *refused;
    size_t nrefused;
    json_t *root =
        jin_load_envelope(j->body, j->len, keys, "cases", &refused, &nrefused, &j->error);
    if (root == NULL) {
        jobs_finish(j, -1);
        return;
    }
    if (json_object_get(root, "cases") != NULL) {
        if (json_object_get(root, "input") == NULL && json_object_get(root, "output") == NULL) {
            judge_cases(j, root, refused, nrefused);
            free(refused);
            return;
        }
        free(refused);
        json_decref(root);
        jobs_finish(j, gj_fail_field(&j->error, "cases",
                                     "give either \"input\" and \"output\" (one submission) or "
                                     "\"cases\" (a test set), not both"));
        return;
    }
    free(refused); /* none: there is no test set */
    judge_case c;
    judge_verdict v;
    int rc = read_case(root, "", &c, &j->error);
    if (rc == 0) {
        jobs_watch(j);
        json_t *verdict = judge_one(j, j->game, &c, j->game->name, &j->t, &j->how, &v, &j->error);
        jobs_unwatch(j);
        if (verdict == NULL) {
            blame_input(&j->error, "input");
            rc = -1;
        } else {
            json_out_append(&j->answer, verdict, JSON_COMPACT);
        }
    }
    json_decref(root);
    jobs_finish(j, rc);
}

/* ---- a test set: POST /judge/{game} with "cases" -------------------- */

/* One case's entry: {"status":200,"verdict":..,"first_difference":..}, or
 * {"status":4xx,"error":{..}} for a case that could not be judged. */
static void write_case(gj_buf *out, const batch_item *it)
{
    buf_puts(out, "{\"status\":");
    buf_put_long(out, http_error_status(it->error.kind));
    if (it->error.kind == GJ_OK) {
        /* The verdict object without its opening brace continues this one. */
        buf_putc(out, ',');
        buf_append(out, it->answer.data + 1, it->answer.len - 1);
        return;
    }
    buf_puts(out, ",\"error\":");
    json_out_append(out, http_error_object(&it->error, NULL), JSON_COMPACT);
    buf_putc(out, '}');
}

/* The test set's answer, as online judges report one: the verdict of the
 * first case not accepted ("error" for a case that could not be judged),
 * its index, the counts per verdict, then every case's entry. */
static void answer_cases(batch *b)
{
    gj_buf *out = &b->j->answer;
    size_t counts[JUDGE_VERDICTS + 1] = {0}; /* the last: cases answered with an error */
    long first = -1;
    const char *overall = judge_verdict_name(JUDGE_ACCEPTED);
    for (size_t i = 0; i < b->n; i++) {
        const batch_item *it = &b->items[i];
        int k = it->error.kind == GJ_OK ? (int)it->verdict : JUDGE_VERDICTS;
        counts[k]++;
        if (first < 0 && k != JUDGE_ACCEPTED) {
            first = (long)i;
            overall = k == JUDGE_VERDICTS ? "error" : judge_verdict_name((judge_verdict)k);
        }
    }
    buf_puts(out, "{\"game\":\"");
    buf_puts(out, b->j->game->name);
    buf_puts(out, "\",\"verdict\":\"");
    buf_puts(out, overall);
    buf_puts(out, "\",\"first_failed\":");
    if (first < 0)
        buf_puts(out, "null");
    else
        buf_put_long(out, first);
    buf_puts(out, ",\"total\":");
    buf_put_long(out, (long long)b->n);
    buf_puts(out, ",\"counts\":{");
    for (int k = 0; k <= JUDGE_VERDICTS; k++) {
        buf_puts(out, k ? ",\"" : "\"");
        buf_puts(out, k == JUDGE_VERDICTS ? "error" : judge_verdict_name((judge_verdict)k));
        buf_puts(out, "\":");
        buf_put_long(out, (long long)counts[k]);
    }
    buf_puts(out, "},\"cases\":[");
    for (size_t i = 0; i < b->n; i++) {
        if (i > 0)
            buf_putc(out, ',');
        write_case(out, &b->items[i]);
    }
    buf_puts(out, "]}");
}

/* The test set's own limits: 1 to --judge-max-cases cases whose strings
 * total at most --judge-max-bytes.  0, or -1 with j->error. */
static int check_cases(job *j, const json_t *cases)
{
    const gj_config *cfg = j->rt->cfg;
    size_t n = json_array_size(cases), bytes = 0;
    if (n > (size_t)cfg->judge_max_cases)
        return gj_fail_field(&j->error, "cases",
                             "%zu cases, over the limit of %ld (--judge-max-cases)", n,
                             cfg->judge_max_cases);
    if (jin_array(cases, "cases", -1, 1, (size_t)cfg->judge_max_cases, &j->error) != 0)
        return -1;
    for (size_t i = 0; i < n; i++) {
        const json_t *c = json_array_get(cases, i);
        bytes += json_string_length(json_object_get(c, "input")) +
                 json_string_length(json_object_get(c, "output"));
    }
    if (bytes > (size_t)cfg->judge_max_bytes) {
        gj_fail_field(&j->error, "cases",
                      "the inputs and outputs total %zu bytes, over the limit of %ld "
                      "(--judge-max-bytes)",
                      bytes, cfg->judge_max_bytes);
        j->error.kind = GJ_TOO_LARGE;
        return -1;
    }
    return 0;
}

/* Judge every case of root's "cases" across the workers (as a batch; each
 * item holds copies of its texts); a bad case is answered in its place,
 * and so is one jansson refused (refused, by index).  Takes root. */
static void judge_cases(job *j, json_t *root, const jin_refused *refused, size_t nrefused)
{
    size_t next = 0;
    const json_t *cases = json_object_get(root, "cases");
    if (check_cases(j, cases) != 0) {
        json_decref(root);
        jobs_finish(j, -1);
        return;
    }
    size_t n = json_array_size(cases);
    batch *b = new_batch(j, n, false, answer_cases);
    if (b == NULL) {
        json_decref(root);
        jobs_finish(j, -1);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        batch_item *it = &b->items[i];
        char where[48];
        judge_case c;
        snprintf(where, sizeof where, "cases[%zu]", i);
        it->game = j->game;
        gj_error_clear(&it->error);
        if (next < nrefused && refused[next].index == i) {
            item_refused(it, &refused[next++], where, "case");
            continue;
        }
        if (read_case(json_array_get(cases, i), where, &c, &it->error) == 0 &&
            take_case(it, &c, where) != 0) {
            free_batch(b);
            json_decref(root);
            jobs_finish(j, gj_fail_nomem(&j->error));
            return;
        }
    }
    json_decref(root);
    run_batch(b);
}
