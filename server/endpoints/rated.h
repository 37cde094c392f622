/* rated.h - what the routes that learn from players share (puzzle_job.c's
 * rated check and daily stats, store_job.c's next, stats and players'
 * pages): reading a player and the ratings a site gives, who may send
 * them, and writing the store's numbers.
 *
 * Every check here runs before the store is asked anything, so a bad
 * value is a 400 naming its field and never reaches SQL; the store binds
 * what passes as parameters anyway (store.h).
 *
 * Numbers are written from whole hundredths (ratings, deviations,
 * changes), millionths (volatility) or ten-thousandths (a success rate),
 * without trailing zeros (1500, 1590.8, 0.06): an answer's bytes never
 * depend on printf's rounding of a double's last digits, and they are the
 * shortest text of the number, as JavaScript's JSON.stringify writes it. */
#ifndef GJ_RATED_H
#define GJ_RATED_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "buf.h"
#include "error.h"
#include "glicko2.h"
#include "jobs.h"
#include "store.h"

/* What a check's body says of its player: the id, and the rating the
 * site keeps for them when it sent one. */
typedef struct rated_player {
    bool has_player;
    char player[STORE_PLAYER_MAX];
    bool has_rating; /* "rating" given: `rating` holds it, the deviation and
                      * volatility the site's or the starting ones */
    glicko rating;
} rated_player;

/* Whether s (len bytes) is a player id: 1 to 64 bytes of [A-Za-z0-9._:@-].
 * 0, or -1 with *e naming `field`. */
int rated_player_id(const char *s, size_t len, const char *field, gj_error *e);

/* Take "player", "rating", "rating_deviation" and "volatility" out of root
 * (a check's body) into *r, each checked (the id as above; the rating 400
 * to 4000, the deviation 30 to 500, the volatility 0.01 to 0.2, numbers;
 * a deviation or volatility only beside a rating, and a rating only beside
 * a player): 0, or -1 with *e naming the field. */
int rated_take(json_t *root, rated_player *r, gj_error *e);

/* A number member of params in [lo, hi] into *out (absent: *out left
 * alone): 0, or -1 with *e naming `name`. */
int rated_number(const json_t *params, const char *name, double lo, double hi, double *out,
                 gj_error *e);

/* The route needs the store: 0, or -1 with *e: not_found naming --store
 * when the service runs with --store none; unavailable, the store's own
 * sentence, at once while its watch's last ping failed (storewatch.h), so
 * an outage holds no worker for the store's timeout and solving goes on. */
int rated_need_store(const job *j, const char *what, gj_error *e);

/* The route needs an API key (always: `always`; else only under
 * --rated-plays keys): 0, or -1 with *e (unauthorized naming X-Api-Key). */
int rated_need_key(const job *j, bool always, const char *what, gj_error *e);

/* The request's Idempotency-Key (NULL when none): 0 when absent or 1 to
 * 128 printable ASCII bytes, else -1 with *e naming the header. */
int rated_idempotency_key(const job *j, gj_error *e);

/* Milliseconds since the epoch, UTC, now. */
long long rated_now_ms(void);

/* Append v rounded to `decimals` places (2, 4 or 6) as a JSON number,
 * without trailing zeros. */
void rated_put_fixed(gj_buf *out, double v, int decimals);

/* Append the player's side of a play, the members "rating",
 * "rating_deviation", "volatility" (after it) and "change" (in hundredths,
 * of the two rounded ratings, so the numbers shown add up), without
 * braces. */
void rated_put_player(gj_buf *out, glicko before, glicko after);

/* Append the members "rating", "rating_deviation", "volatility", "plays",
 * "wins" and "success_rate" (wins / plays, four decimals; null before any
 * play) of p, without braces. */
void rated_put_stats(gj_buf *out, const store_puzzle *p);

/* Append members (`"k":v,...`, from `,`) before the closing '}' of the
 * JSON object in out, which is otherwise left as it was: 0, or -1 when out
 * does not end with '}'. */
int rated_extend(gj_buf *out, const char *members, size_t len);

#endif
