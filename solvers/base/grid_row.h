/* grid_row.h - reading the rows of a grid of two kinds of cell.
 *
 * grid-walk ('.' free, '#' blocked) and prime-chocolate ('-' chocolate, 'X'
 * eaten, or the en dash for '-') both give a grid as one word per row, in
 * judge text, or one string per row, in JSON.  An alphabet names the two
 * cells; a row decodes to one byte per cell, 1 for `one` and 0 for `zero`.
 * Errors read the same for every grid: they say where the row or the bad
 * character is and quote the alphabet's `help`. */
#ifndef GJ_GRID_ROW_H
#define GJ_GRID_ROW_H

#include <stddef.h>

#include <jansson.h>

#include "error.h"
#include "reader.h"

typedef struct grid_alphabet {
    char one;            /* the byte decoded as 1 */
    char zero;           /* the byte decoded as 0 */
    const char *one_alt; /* another spelling of `one` (several bytes), or NULL */
    const char *help;    /* "'.' (free) or '#' (blocked)", for errors */
    int plural_one;      /* say "1 cells" (grid-walk's wording) rather than "1 cell" */
} grid_alphabet;

/* Decode row s[0..len) into out[]: the number of cells, or -1 with *bad at
 * the offending byte.  Stores at most n cells, so an over-long row is
 * caught without overrunning out; out may be NULL when n is 0. */
long grid_row_decode(const grid_alphabet *a, const char *s, size_t len, unsigned char *out, long n,
                     size_t *bad);

/* Read row i (0-based) of `rows` from judge text into out[0..n): 0, or -1
 * with *e filled when the row is missing, holds a stranger byte or is not n
 * cells long. */
int grid_row_text(gj_reader *r, const grid_alphabet *a, long i, long rows, unsigned char *out,
                  long n, gj_error *e);

/* Decode v, the JSON string name[i], into out[0..n): its number of cells
 * (checking that against n is the caller's: the messages differ), or -1
 * with *e filled when v is no string or holds a stranger byte. */
long grid_row_json(const grid_alphabet *a, const json_t *v, const char *name, long i,
                   unsigned char *out, long n, gj_error *e);

#endif
