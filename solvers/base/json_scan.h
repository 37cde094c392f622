/* json_scan.h - a strict JSON syntax scanner (RFC 8259) that builds nothing.
 *
 * jansson refuses some texts that are JSON: an integer beyond 64 bits, a
 * number beyond a double, \u0000 in a key, a key given twice (as we load
 * with JSON_REJECT_DUPLICATES), nesting deeper than its 2048 levels, a
 * \u escape of a lone surrogate.  Inside one item of a /batch or one case
 * of a test set, such a value must fail that item alone, not the whole
 * body.  The scanner checks the grammar alone (strings with their escapes
 * and UTF-8, numbers of any length, nesting) and says where the elements
 * of one array member of the top-level object begin and end, so each can
 * be given to jansson on its own (json_in.h, jin_load_envelope).
 *
 * It is iterative: one bit per open array or object, sized by the input,
 * and no recursion, so no input can exhaust the stack.  Anything that is
 * not one JSON text is refused. */
#ifndef GJ_JSON_SCAN_H
#define GJ_JSON_SCAN_H

#include <stddef.h>

/* Bytes [begin, end) of the input. */
typedef struct jscan_span {
    size_t begin, end;
} jscan_span;

/* An array found by jscan_member_array. */
typedef struct jscan_array {
    jscan_span whole;  /* from its '[' to its ']', both included */
    jscan_span *elems; /* each element, without the blanks around it (malloc'd) */
    size_t n;
} jscan_array;

/* What the scans answer. */
typedef enum jscan_result {
    JSCAN_NOMEM = -2,   /* memory is short */
    JSCAN_INVALID = -1, /* the input is not one JSON text */
    JSCAN_VALID = 0,    /* JSON, but without the member asked for (or not an array) */
    JSCAN_FOUND = 1,    /* JSON, and the member's array is in *a */
} jscan_result;

/* Whether buf[0..len) is one JSON text: blanks, one value of any type,
 * blanks.  JSCAN_VALID, JSCAN_INVALID or JSCAN_NOMEM. */
jscan_result jscan_valid(const char *buf, size_t len);

/* Scan buf[0..len) as one JSON text.  When it is an object whose first
 * member named `key` (an ASCII name, compared after decoding escapes)
 * holds an array, *a gets that array and its elements (JSCAN_FOUND; free
 * with jscan_array_free).  Otherwise *a is empty. */
jscan_result jscan_member_array(const char *buf, size_t len, const char *key, jscan_array *a);

/* Free what jscan_member_array put in *a and empty it. */
void jscan_array_free(jscan_array *a);

#endif
