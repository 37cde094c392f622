/* judge.h - compare a submitted judge output with the right one, as a
 * contest checker does.
 *
 * A token is a run of bytes other than space, tab, CR, LF, VT and FF; a
 * line ends at LF.  The output is `accepted` when every token is the one
 * expected on the line expected (so spaces, tabs, trailing spaces, CRLF and
 * blank lines after the last token do not matter), `presentation_error`
 * when the tokens are right but some sit on another line, `wrong_answer`
 * otherwise.  Pure functions: no allocation, no I/O. */
#ifndef GJ_JUDGE_H
#define GJ_JUDGE_H

#include <stddef.h>

#include <jansson.h>

#include "buf.h"

typedef enum judge_verdict {
    JUDGE_ACCEPTED,
    JUDGE_WRONG_ANSWER,
    JUDGE_PRESENTATION_ERROR,
} judge_verdict;

#define JUDGE_VERDICTS 3 /* how many verdicts there are: 0 .. JUDGE_VERDICTS - 1 */

typedef struct judge_token {
    const char *text; /* NULL: the output ended before this token */
    size_t len;
    long line; /* 1-based line of the token (or of the end of output) */
} judge_token;

typedef struct judge_result {
    judge_verdict verdict;
    long index;                  /* 1-based number of the first differing token */
    judge_token expected, found; /* the first difference, unless accepted */
} judge_result;

void judge_compare(const char *expected, size_t expected_len, const char *found, size_t found_len,
                   judge_result *r);

const char *judge_verdict_name(judge_verdict v);

/* The answer as a new JSON object: {"game":..,"verdict":..,"first_difference":{..}|null},
 * without "game" when game is NULL; NULL when memory is short.  The result's tokens must
 * still be alive: the object copies what it quotes. */
json_t *judge_object(const char *game, const judge_result *r);

/* The answer's JSON: {"game":..,"verdict":..,"first_difference":{..}|null}.
 * Tokens are quoted up to 64 bytes (cut at a UTF-8 boundary). */
void judge_write_json(const char *game, const judge_result *r, gj_buf *out);

#endif
