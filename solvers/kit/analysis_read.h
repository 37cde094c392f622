/* analysis_read.h - an /analyze body read as it arrives: its bulk member
 * (a matrix, say) straight into the game's arrays, the rest into a small
 * jansson tree, as a gj_body_reader (game.h).
 *
 * One pull (json_pull.h) reads the body.  The members the game's
 * gj_event_reader takes get their events there; every member but the bulk
 * one is also built into the tree, where the bulk one stands as a null.  So
 * the tree holds the line options, the moves and the small members, and the
 * body's largest part is never a tree (a JSON matrix's tree holds about
 * seven times its text).
 *
 * What finish gives is an analysis_body: the tree, and the game's position
 * or its refusal.  The refusals are kept apart because they come in an
 * order the body does not set: a JSON error anywhere in the body comes
 * first (finish fails with it, as jin_load_object would), and the
 * position's own error is given only where the whole-request parse would
 * give it (play_pos.h's play_open_read), after the options, the members
 * and the moves are checked.  The position's members, checked as its
 * read_json checks them (or left to adopt, where their checks need a
 * member of the tree), are the position the game's parse of the whole
 * request reads (adopt, game.h); line.h writes the canonical form with the
 * bulk member's value as the game writes it back. */
#ifndef GJ_ANALYSIS_READ_H
#define GJ_ANALYSIS_READ_H

#include <stddef.h>

#include <jansson.h>

#include "error.h"
#include "game.h"

/* An /analyze body as read_analysis's finish gives it. */
typedef struct analysis_body {
    json_t *root;                  /* the request; the bulk member's value a null */
    void *pos;                     /* the game reader's position; NULL: error says why */
    gj_error error;                /* the position's refusal, when pos is NULL */
    const gj_event_reader *events; /* whose position it is */
} analysis_body;

/* gj_body_reader's four functions over the game reader `events`: open
 * takes it where the others take the reader open made. */
void *analysis_read_open(const gj_event_reader *events, const long *limits, gj_error *e);
int analysis_read_feed(void *reader, const char *p, size_t n, gj_error *e);
void *analysis_read_finish(void *reader, gj_error *e); /* an analysis_body * */
void analysis_read_close(void *reader);

/* Free a body finish gave, and its position when it was not taken (NULL
 * is fine). */
void analysis_body_free(analysis_body *b);

/* A game's `static const gj_body_reader read_analysis`, over its
 * gj_event_reader EVENTS (game.h's gj_play.read_analysis). */
#define GJ_ANALYSIS_READER(events)                                                                 \
    static void *open_analysis(const long *lim, size_t expect, gj_error *e)                        \
    {                                                                                              \
        (void)expect;                                                                              \
        return analysis_read_open(&(events), lim, e);                                              \
    }                                                                                              \
    static const gj_body_reader read_analysis = {open_analysis, analysis_read_feed,                \
                                                 analysis_read_finish, analysis_read_close};

#endif
