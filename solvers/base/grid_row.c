/* grid_row.c - grid rows in judge text and JSON, for any two-cell alphabet.
 *
 * Large grids are millions of cells, so a row of exactly n single-byte
 * cells is decoded eight bytes at a time; every other row takes the byte
 * path, which also finds the exact place of a mistake. */
#include "grid_row.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "json_in.h"

#define EVERY_BYTE(b) (0x0101010101010101ULL * (uint64_t)(unsigned char)(b))

/* Bytes of a 64-bit word that are zero get 0x80, the others 0 (exact: no
 * borrow crosses bytes because the high bit is masked off first). */
static uint64_t zero_bytes(uint64_t w)
{
    const uint64_t low7 = 0x7f7f7f7f7f7f7f7fULL;
    return ~(((w & low7) + low7) | w | low7);
}

/* The fast pass over a row of n bytes: true when every byte was `one` or
 * `zero` and out[0..n) holds the cells, false when the byte path must decide. */
static bool decode_plain(const grid_alphabet *a, const char *s, size_t n, unsigned char *out)
{
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w, one, zero;
        memcpy(&w, s + i, 8);
        one = zero_bytes(w ^ EVERY_BYTE(a->one));
        zero = zero_bytes(w ^ EVERY_BYTE(a->zero));
        if ((one | zero) != EVERY_BYTE(0x80))
            return false;
        one >>= 7;
        memcpy(out + i, &one, 8);
    }
    for (; i < n && (s[i] == a->one || s[i] == a->zero); i++)
        out[i] = s[i] == a->one;
    return i == n;
}

/* The byte path decodes the alternative spelling and finds a bad byte. */
long grid_row_decode(const grid_alphabet *a, const char *s, size_t len, unsigned char *out, long n,
                     size_t *bad)
{
    if (len > 0 && (long)len == n && decode_plain(a, s, len, out))
        return n;
    size_t alt = a->one_alt ? strlen(a->one_alt) : 0;
    long cells = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char c;
        if (s[i] == a->zero) {
            c = 0;
        } else if (s[i] == a->one) {
            c = 1;
        } else if (alt > 0 && len - i >= alt && memcmp(s + i, a->one_alt, alt) == 0) {
            c = 1;
            i += alt - 1;
        } else {
            *bad = i;
            return -1;
        }
        if (cells < n)
            out[cells] = c;
        cells++;
    }
    return cells;
}

/* One word of the reader is one row; a bad byte is placed by its column. */
int grid_row_text(gj_reader *r, const grid_alphabet *a, long i, long rows, unsigned char *out,
                  long n, gj_error *e)
{
    const char *row;
    size_t rowlen, bad = 0;
    long line, col;
    gj_reader at = *r;
    if (reader_word(r, "a row", &row, &rowlen, &line, &col, e) != 0) {
        /* Name the row only now, as the other readers do: formatting the
         * name of every row cost more than reading a small grid. */
        char what[48];
        snprintf(what, sizeof what, "row %ld of %ld", i + 1, rows);
        *r = at;
        reader_word(r, what, &row, &rowlen, &line, &col, e);
        return -1;
    }
    long cells = grid_row_decode(a, row, rowlen, out, n, &bad);
    if (cells < 0) {
        char quoted[24];
        reader_quote_char(row, rowlen, bad, quoted, sizeof quoted);
        return gj_fail_at(e, line, col + (long)bad,
                          "row %ld: unexpected character '%s'; a cell is %s", i + 1, quoted,
                          a->help);
    }
    if (cells != n)
        return gj_fail_at(e, line, col, "row %ld has %ld cell%s, expected %ld", i + 1, cells,
                          cells == 1 && !a->plural_one ? "" : "s", n);
    return 0;
}

/* A bad byte is placed by its offset in the string. */
long grid_row_json(const grid_alphabet *a, const json_t *v, const char *name, long i,
                   unsigned char *out, long n, gj_error *e)
{
    const char *row;
    size_t rowlen, bad = 0;
    if (jin_string(v, name, i, &row, &rowlen, e) != 0)
        return -1;
    long cells = grid_row_decode(a, row, rowlen, out, n, &bad);
    if (cells < 0) {
        char field[32], quoted[24];
        jin_field_name(field, sizeof field, name, i, -1);
        reader_quote_char(row, rowlen, bad, quoted, sizeof quoted);
        return gj_fail_field(e, field, "unexpected character '%s' at offset %zu; a cell is %s",
                             quoted, bad, a->help);
    }
    return cells;
}
