/* play_moves.c - the moves to play, on a parsed position (play_moves.h). */
#include "play_moves.h"

#include <stdio.h>
#include <stdlib.h>

#include "analysis.h"
#include "buf.h"
#include "json_in.h"

int play_moves_check(const gj_game *g, const json_t *moves, gj_error *e)
{
    if (moves == NULL)
        return 0;
    if (jin_array(moves, "moves", -1, 0, PLAY_MOVES_MAX, e) != 0)
        return -1;
    if (json_array_size(moves) > 0 && g->play_move == NULL)
        return gj_fail_field(e, "moves", "%s takes no moves to play", g->name);
    return 0;
}

/* The last move one analysis of p lists, of `total` (1..ANALYSIS_MAX_MOVES_LIMIT),
 * written compact as its entry writes it, into like[size] (empty when it
 * cannot be had): the example a refused move's message shows. */
static void last_listed(play_pos *p, long long total, char *like, size_t size)
{
    like[0] = '\0';
    gj_move *moves = malloc((size_t)total * sizeof *moves);
    gj_buf entry;
    buf_init(&entry);
    gj_error ignored;
    size_t bytes;
    buf_putc(&entry, '{');
    if (moves != NULL && p->ops->rank(p->pos, (long)total, moves, NULL, &ignored) == total &&
        p->ops->write_move(p->pos, &moves[total - 1], 0, &entry, &bytes, &ignored) == 0) {
        buf_putc(&entry, '}');
        json_t *o = entry.failed ? NULL : json_loadb(entry.data, entry.len, 0, NULL);
        char *text = json_dumps(json_object_get(o, "move"), JSON_COMPACT | JSON_ENCODE_ANY);
        if (text != NULL)
            snprintf(like, size, "%s", text);
        free(text);
        json_decref(o);
    }
    buf_free(&entry);
    free(moves);
}

/* Why no legal move of p is the move `field` names: -1 with *e. */
static int refuse_move(play_pos *p, const char *field, gj_error *e)
{
    gj_move best;
    gj_rank_head head;
    if (p->ops->rank(p->pos, 1, &best, &head, e) < 0)
        return -1;
    long long total = head.moves_total;
    if (total == 0)
        return gj_fail_field(e, field,
                             "the game is over after the moves before it: no move "
                             "is legal there");
    char like[96];
    last_listed(p, total < ANALYSIS_MAX_MOVES_LIMIT ? total : ANALYSIS_MAX_MOVES_LIMIT, like,
                sizeof like);
    return gj_fail_field(e, field,
                         "not a legal move of the position it is played in, which has %lld, "
                         "each written as the analysis writes a move, like %.80s",
                         total, like[0] != '\0' ? like : "its moves");
}

int play_moves(play_pos *p, const json_t *moves, gj_error *e)
{
    for (size_t k = 0; k < json_array_size(moves); k++) {
        char field[32];
        snprintf(field, sizeof field, "moves[%zu]", k);
        gj_move m;
        int found = p->ops->find(p->pos, json_array_get(moves, k), &m, e);
        if (found == 0)
            return refuse_move(p, field, e);
        if (found < 0)
            return -1;
        if (p->ops->play(p->pos, &m, e) != 0)
            return -1;
    }
    return 0;
}
