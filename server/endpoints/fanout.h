/* fanout.h - what /batch and a /judge test set share, and no one else:
 * items spread over the worker pool, the last to finish answering the
 * whole, and one submission judged (fanout.c).  The two handlers
 * (batch_job.c, judge_job.c) call this module and never each other.
 *
 * A batch holds n items, each a position to solve or a submission to
 * judge; an item its check refused keeps its error and is answered in its
 * place.  run_batch hands items to idle workers (one the queue has no room
 * for runs on the caller's thread); the worker that finishes the last item
 * writes the answer with the batch's `answer`, frees the batch and
 * finishes the job. */
#ifndef GJ_FANOUT_H
#define GJ_FANOUT_H

#include <jansson.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "jobs.h"
#include "judge.h"
#include "json_in.h"
#include "solve.h"

/* One submission to judge: pointers into the caller's strings. */
typedef struct judge_case {
    const char *input, *output;
    size_t input_len, output_len;
} judge_case;

/* A judge-input error keeps its line and gains the field it came in,
 * `where` ("input", "cases[2].input", ...). */
void blame_input(gj_error *e, const char *where);

/* "PREFIX.name", or just "name" when prefix is empty, into out. */
void member_name(char *out, size_t cap, const char *prefix, const char *name);

/* Read {"input": text, "output": text} at `where` ("" for the body itself)
 * into *c, pointing into v.  0, or -1 with *e naming the field. */
int read_case(const json_t *v, const char *where, judge_case *c, gj_error *e);

/* Solve the case's judge input (through the cache) and compare its output
 * with the right one.  The verdict's JSON object (named for `game` unless
 * NULL) and *v, or NULL with *e (a bad input is left for the caller to
 * blame on its field). */
json_t *judge_one(job *j, const gj_game *g, const judge_case *c, const char *game, solve_timing *t,
                  cache_result *how, judge_verdict *v, gj_error *e);

typedef struct batch batch;

typedef enum item_kind {
    ITEM_SOLVE, /* a position: the solve's answer */
    ITEM_JUDGE, /* a judge input and a submitted output: the verdict */
} item_kind;

typedef struct batch_item {
    batch *owner;
    const gj_game *game;
    item_kind kind;
    media_kind input, output;
    char *body; /* the item's judge text, or its position re-serialised */
    size_t len;
    char *submitted; /* ITEM_JUDGE: the output to check */
    size_t submitted_len;
    char where[48];        /* ITEM_JUDGE: the input's field, to blame it */
    judge_verdict verdict; /* ITEM_JUDGE, once judged */
    gj_error error;        /* GJ_OK until its check or its solve fails */
    gj_buf answer;
    cache_result how;
    solve_timing t; /* its stages' times, summed into the batch's Server-Timing */
    double work_ms; /* its thread's whole time, summed into the job's work_ms */
} batch_item;

struct batch {
    job *j;
    size_t n;
    batch_item *items;
    atomic_size_t remaining;
    bool named;               /* a judge item's verdict names its game (/batch) */
    void (*answer)(batch *b); /* writes j->answer from the items */
};

/* Answer one item alone with an error of `kind`: "FIELD: MESSAGE".
 * Returns 1, so a check can `return item_fail(...)`. */
int item_fail(batch_item *it, gj_error_kind kind, const char *field, const char *message);

/* Answer one item alone for an element jansson refused (json_in.h,
 * jin_load_envelope), named `field` ("items[1]", "cases[0]") as one of the
 * `what` ("item", "case").  Returns 1, as item_fail. */
int item_refused(batch_item *it, const jin_refused *r, const char *field, const char *what);

/* Make the item a solve item of the judge text s (n bytes): a copy.  -1
 * when memory is short. */
int take_text(batch_item *it, const char *s, size_t n);

/* Make the item a judge item of case c (its input blamed as where.input):
 * copies of both texts.  -1 when memory is short. */
int take_case(batch_item *it, const judge_case *c, const char *where);

/* A batch of n empty items answered by `answer` (judge items' verdicts
 * naming their game when `named`); NULL with j->error when memory is short. */
batch *new_batch(job *j, size_t n, bool named, void (*answer)(batch *b));

/* Free the batch and everything its items hold. */
void free_batch(batch *b);

/* Run every item (see above); b is gone once it returns. */
void run_batch(batch *b);

#endif
