/* puzzles_cmd.h - `gamejudge puzzles fill|export|import`: the pool of
 * stored puzzles (store.h) made, written out and read back from the
 * command line.
 *
 *   fill    stores the puzzles GET /puzzle/{game}?seed=S&...&tries=5000
 *           answers, for S = --seed-from, S+1, ..., until the store holds
 *           --count of the game (and band and depth when asked); a second
 *           run resumes
 *   export  writes the stored puzzles as CSV in the shape of the lichess
 *           puzzle database, with the columns a lossless round trip needs
 *   import  reads that CSV back, each row checked against the puzzle its
 *           id rebuilds; ids stored already are skipped
 *
 * Progress and a summary go to stderr.  Exit status: 0 done; 1 the store
 * (or the input or output) failed; 2 a usage error or a bad row, one line
 * naming the flag, or the row's line and column. */
#ifndef GJ_PUZZLES_CMD_H
#define GJ_PUZZLES_CMD_H

#include <stdio.h>

/* `gamejudge puzzles ...`, argv being the arguments after "puzzles": the
 * exit status. */
int puzzles_main(int argc, char **argv);

/* `gamejudge puzzles --help`'s text into out. */
void puzzles_help(FILE *out);

#endif
