/* json_pull.c - a chunk-fed JSON reader that decides as jansson's json_loadb
 * does, one character at a time, and keeps no value it has handed out.
 *
 * Three layers, each a small state machine so a chunk may end anywhere: the
 * stream gathers UTF-8 characters and refuses the ones jansson's stream
 * refuses; the lexer makes tokens as jansson's lexer does (down to its
 * lookahead character, and the NUL byte that vanishes when pushed back
 * after a number or a word); the parser keeps one state for the innermost
 * open container and the keys of every open object.
 *
 * The error text is jansson's own: at the first failure, a small text that
 * puts jansson's parser in the same state (the open containers, each
 * finished value written as 0) followed by the failing token verbatim is
 * given to json_loadb, and the line and column it names are moved back to
 * where that token stands in the body. */
#include "json_pull.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "json_in.h"

/* Tokens besides the one-character ones, which stand for themselves. */
enum { T_EOF = 0, T_STRING = 256, T_INTEGER, T_REAL, T_TRUE, T_FALSE, T_NULL };

/* Where the lexer is. */
enum {
    LX_WS,        /* between tokens */
    LX_STR,       /* in a string */
    LX_STR_ESC,   /* after a backslash */
    LX_STR_U,     /* in the four digits of \u */
    LX_NUM_MINUS, /* after a leading '-' */
    LX_NUM_ZERO,  /* after a leading 0 */
    LX_NUM_INT,   /* in the integer digits */
    LX_NUM_DOT,   /* after '.', a digit must come */
    LX_NUM_FRAC,  /* in the fraction digits */
    LX_NUM_E,     /* after 'e' or 'E' */
    LX_NUM_ESIGN, /* after the exponent's sign, a digit must come */
    LX_NUM_EXP,   /* in the exponent digits */
    LX_WORD,      /* in letters: true, false, null or an invalid token */
};

/* What the parser waits for in the innermost container (or at the top). */
enum {
    P_START,   /* the body's first token */
    P_DONE,    /* the end: the body's value is complete */
    P_O_OPEN,  /* after '{': a key or '}' */
    P_O_KEY,   /* after a key: ':' */
    P_O_COLON, /* after ':': a value */
    P_O_VALUE, /* after a member: ',' or '}' */
    P_O_COMMA, /* after ',': a key */
    P_A_OPEN,  /* after '[': a value or ']' */
    P_A_VALUE, /* after an element: ',' or ']' */
    P_A_COMMA, /* after ',': a value */
};

/* jansson's JSON_PARSER_MAX_DEPTH: values nested deeper are refused. */
#define JP_MAX_DEPTH 2048

/* Below this many keys an object's duplicate check is a scan. */
#define JP_SCAN_KEYS 16

/* A growable byte array. */
typedef struct jp_bytes {
    char *p;
    size_t n, cap;
} jp_bytes;

/* One open container. */
typedef struct jp_level {
    int is_object;
    size_t key0;   /* its first key in the key stack */
    size_t *slots; /* hash index over its keys (key index + 1; 0 empty), or NULL */
    size_t nslots;
} jp_level;

struct jpull {
    jpull_fn fn;
    void *ctx;
    int failed;    /* err is the answer to every later call */
    int ended;     /* jpull_end has run */
    int stopped;   /* the consumer said JPULL_STOP: stop_err waits for the end */
    int top_array; /* the body is an array: refused at the end */
    gj_error err;
    gj_error stop_err;

    /* stream: a UTF-8 character being gathered, and jansson's position */
    unsigned char ch[4];
    int chn, chneed;
    long line, col;

    /* lexer */
    int lx;
    long tok_line, tok_col; /* the position before the current token */
    jp_bytes raw;           /* the current token's bytes, as sent */
    jp_bytes str;           /* a string's decoded bytes */
    unsigned uval;          /* the \u digits so far */
    int udigits;
    unsigned hi; /* a high surrogate waiting for its low half, or 0 */
    int str_bad; /* the string's escapes are refused (jansson says so at its end) */
    int str_nul; /* the string holds \u0000 */
    int dup;     /* the failing token is a key given twice */
    long long ival;
    double rval;

    /* parser */
    int state;
    jp_level *levels;
    size_t nlevels, caplevels;
    size_t *koff, *klen; /* the keys of the open objects, a stack */
    uint32_t *khash;
    size_t nkeys, capkeys;
    jp_bytes karena;
};

/* Append n bytes to b: 0, or -1 when memory is short. */
static int bytes_add(jp_bytes *b, const void *p, size_t n)
{
    if (b->cap - b->n < n + 1) {
        size_t cap = b->cap ? b->cap : 64;
        while (cap - b->n < n + 1)
            cap *= 2;
        char *q = realloc(b->p, cap);
        if (q == NULL)
            return -1;
        b->p = q;
        b->cap = cap;
    }
    memcpy(b->p + b->n, p, n);
    b->n += n;
    b->p[b->n] = '\0';
    return 0;
}

/* Append one byte to b: 0, or -1 when memory is short. */
static inline int bytes_put(jp_bytes *b, char c)
{
    if (b->cap - b->n < 2)
        return bytes_add(b, &c, 1);
    b->p[b->n++] = c;
    b->p[b->n] = '\0';
    return 0;
}

/* A reader before the body's first byte (json_pull.h). */
jpull *jpull_new(jpull_fn fn, void *ctx)
{
    jpull *jp = calloc(1, sizeof *jp);
    if (jp == NULL)
        return NULL;
    jp->fn = fn;
    jp->ctx = ctx;
    jp->line = 1;
    jp->lx = LX_WS;
    jp->state = P_START;
    return jp;
}

/* Free the reader and all it holds (json_pull.h). */
void jpull_free(jpull *jp)
{
    if (jp == NULL)
        return;
    for (size_t i = 0; i < jp->nlevels; i++)
        free(jp->levels[i].slots);
    free(jp->levels);
    free(jp->raw.p);
    free(jp->str.p);
    free(jp->koff);
    free(jp->klen);
    free(jp->khash);
    free(jp->karena.p);
    free(jp);
}

/* Out of memory: the reader fails with it.  -1. */
static int fail_nomem(jpull *jp)
{
    jp->failed = 1;
    return gj_fail_nomem(&jp->err);
}

/* Append key (decoded, len bytes) to out as a JSON string of ASCII only, so
 * jansson reads back the same bytes and each byte is one column. */
static int put_key(jp_bytes *out, const char *key, size_t len)
{
    static const char hex[] = "0123456789abcdef";
    int rc = bytes_put(out, '"');
    for (size_t i = 0; i < len && rc == 0;) {
        unsigned char c = (unsigned char)key[i];
        uint32_t cp;
        size_t k;
        if (c < 0x80) {
            cp = c;
            k = 1;
        } else if (c < 0xe0) {
            cp = c & 0x1f;
            k = 2;
        } else if (c < 0xf0) {
            cp = c & 0x0f;
            k = 3;
        } else {
            cp = c & 0x07;
            k = 4;
        }
        for (size_t j = 1; j < k && i + j < len; j++)
            cp = cp << 6 | ((unsigned char)key[i + j] & 0x3f);
        i += k;
        if (cp >= 0x20 && cp < 0x7f && cp != '"' && cp != '\\') {
            rc = bytes_put(out, (char)cp);
            continue;
        }
        uint32_t units[2] = {cp, 0};
        int nunits = 1;
        if (cp >= 0x10000) {
            units[0] = 0xd800 + ((cp - 0x10000) >> 10);
            units[1] = 0xdc00 + ((cp - 0x10000) & 0x3ff);
            nunits = 2;
        }
        for (int u = 0; u < nunits && rc == 0; u++) {
            char esc[6] = {'\\',
                           'u',
                           hex[units[u] >> 12 & 15],
                           hex[units[u] >> 8 & 15],
                           hex[units[u] >> 4 & 15],
                           hex[units[u] & 15]};
            rc = bytes_add(out, esc, sizeof esc);
        }
    }
    return rc == 0 ? bytes_put(out, '"') : -1;
}

/* The JSON error at the current token: its bytes so far (raw) and then
 * `more` (n bytes, what jansson reads past them), given to jansson behind
 * a text that leaves its parser where ours is.  -1. */
static int fail_json(jpull *jp, const char *more, size_t n)
{
    jp_bytes t = {0};
    int rc = 0;
    for (size_t i = 0; i + 1 < jp->nlevels && rc == 0; i++)
        rc = jp->levels[i].is_object ? bytes_add(&t, "{\"\":", 4) : bytes_put(&t, '[');
    switch (jp->state) {
    case P_DONE:
        rc = rc ? rc : bytes_add(&t, "{}", 2);
        break;
    case P_O_OPEN:
        rc = rc ? rc : bytes_put(&t, '{');
        break;
    case P_O_KEY:
        rc = rc ? rc : bytes_add(&t, "{\"\"", 3);
        break;
    case P_O_COLON:
        rc = rc ? rc : bytes_add(&t, "{\"\":", 4);
        break;
    case P_O_VALUE:
        rc = rc ? rc : bytes_add(&t, "{\"\":0", 5);
        break;
    case P_O_COMMA:
        rc = rc ? rc : bytes_put(&t, '{');
        if (rc == 0 && jp->dup)
            rc = put_key(&t, jp->str.p, jp->str.n);
        else if (rc == 0)
            rc = bytes_add(&t, "\"\"", 2);
        rc = rc ? rc : bytes_add(&t, ":0,", 3);
        break;
    case P_A_OPEN:
        rc = rc ? rc : bytes_put(&t, '[');
        break;
    case P_A_VALUE:
        rc = rc ? rc : bytes_add(&t, "[0", 2);
        break;
    case P_A_COMMA:
        rc = rc ? rc : bytes_add(&t, "[0,", 3);
        break;
    }
    rc = rc ? rc : bytes_put(&t, ' ');
    long skip = (long)t.n; /* the columns before the token, all on line 1 */
    /* Between tokens, the failing one is `more` alone, where we stand. */
    int between = jp->lx == LX_WS;
    long line = between ? jp->line : jp->tok_line, col = between ? jp->col : jp->tok_col;
    if (!between)
        rc = rc ? rc : bytes_add(&t, jp->raw.p, jp->raw.n);
    if (n > 0)
        rc = rc ? rc : bytes_add(&t, more, n);
    if (rc != 0) {
        free(t.p);
        return fail_nomem(jp);
    }
    json_error_t jerr;
    json_t *v = json_loadb(t.p, t.n, JSON_REJECT_DUPLICATES, &jerr);
    free(t.p);
    jp->failed = 1;
    if (v != NULL) { /* jansson took it: this reader is wrong */
        json_decref(v);
        return gj_fail(&jp->err, GJ_INTERNAL, "invalid JSON at line %ld, column %ld", line,
                       col + 1);
    }
    if (jerr.line == 1) {
        jerr.line = (int)line;
        jerr.column = (int)(col + jerr.column - skip);
    } else {
        jerr.line = (int)(line + jerr.line - 1);
    }
    return jin_fail_json(&jerr, &jp->err);
}

/* Hand ev to the consumer unless it stopped or the body is an array:
 * 0, or -1 when it aborted. */
static int emit(jpull *jp, jpull_kind kind, const char *s, size_t len)
{
    if (jp->stopped || jp->top_array)
        return 0;
    jpull_event ev = {kind, (int)jp->nlevels, s, len, jp->ival, jp->rval};
    if (kind == JPULL_OBJECT_BEGIN || kind == JPULL_ARRAY_BEGIN || kind == JPULL_OBJECT_END ||
        kind == JPULL_ARRAY_END) /* pushed already, popped after */
        ev.depth--;
    int rc = jp->fn(jp->ctx, &ev, &jp->stop_err);
    if (rc == JPULL_STOP) {
        jp->stopped = 1;
    } else if (rc != JPULL_GO) {
        jp->failed = 1;
        jp->err = jp->stop_err;
        return -1;
    }
    return 0;
}

/* FNV-1a over a key. */
static uint32_t key_hash(const char *s, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

/* Key k of the stack equals s (n bytes, hash h). */
static int key_is(const jpull *jp, size_t k, const char *s, size_t n, uint32_t h)
{
    return jp->khash[k] == h && jp->klen[k] == n && memcmp(jp->karena.p + jp->koff[k], s, n) == 0;
}

/* Put key k into lv's hash index (which has room). */
static void slot_put(jpull *jp, jp_level *lv, size_t k)
{
    size_t m = lv->nslots - 1, i = jp->khash[k] & m;
    while (lv->slots[i] != 0)
        i = (i + 1) & m;
    lv->slots[i] = k + 1;
}

/* The innermost object already holds s (n bytes): 1, else 0. */
static int key_seen(const jpull *jp, const char *s, size_t n, uint32_t h)
{
    const jp_level *lv = &jp->levels[jp->nlevels - 1];
    if (lv->slots == NULL) {
        for (size_t k = lv->key0; k < jp->nkeys; k++)
            if (key_is(jp, k, s, n, h))
                return 1;
        return 0;
    }
    size_t m = lv->nslots - 1;
    for (size_t i = h & m; lv->slots[i] != 0; i = (i + 1) & m)
        if (key_is(jp, lv->slots[i] - 1, s, n, h))
            return 1;
    return 0;
}

/* Note key s (n bytes, hash h) in the innermost object: 0, or -1 (no memory). */
static int key_add(jpull *jp, const char *s, size_t n, uint32_t h)
{
    if (jp->nkeys == jp->capkeys) {
        size_t cap = jp->capkeys ? jp->capkeys * 2 : 16;
        size_t *o = realloc(jp->koff, cap * sizeof *o);
        if (o != NULL)
            jp->koff = o;
        size_t *l = realloc(jp->klen, cap * sizeof *l);
        if (l != NULL)
            jp->klen = l;
        uint32_t *hh = realloc(jp->khash, cap * sizeof *hh);
        if (hh != NULL)
            jp->khash = hh;
        if (o == NULL || l == NULL || hh == NULL)
            return -1;
        jp->capkeys = cap;
    }
    size_t k = jp->nkeys;
    jp->koff[k] = jp->karena.n;
    jp->klen[k] = n;
    jp->khash[k] = h;
    if (bytes_add(&jp->karena, s, n) != 0)
        return -1;
    jp->nkeys++;
    jp_level *lv = &jp->levels[jp->nlevels - 1];
    size_t count = jp->nkeys - lv->key0;
    if (count <= JP_SCAN_KEYS)
        return 0;
    if (lv->slots == NULL || count * 2 > lv->nslots) {
        size_t ns = lv->nslots ? lv->nslots * 2 : 4 * JP_SCAN_KEYS;
        size_t *slots = calloc(ns, sizeof *slots);
        if (slots == NULL)
            return -1;
        free(lv->slots);
        lv->slots = slots;
        lv->nslots = ns;
        for (size_t i = lv->key0; i < jp->nkeys; i++)
            slot_put(jp, lv, i);
    } else {
        slot_put(jp, lv, k);
    }
    return 0;
}

/* Open a container: 0, or -1 (no memory). */
static int push(jpull *jp, int is_object)
{
    if (jp->nlevels == jp->caplevels) {
        size_t cap = jp->caplevels ? jp->caplevels * 2 : 16;
        jp_level *l = realloc(jp->levels, cap * sizeof *l);
        if (l == NULL)
            return -1;
        jp->levels = l;
        jp->caplevels = cap;
    }
    jp->levels[jp->nlevels++] = (jp_level){is_object, jp->nkeys, NULL, 0};
    jp->state = is_object ? P_O_OPEN : P_A_OPEN;
    return 0;
}

/* Close the innermost container and hand out its end: 0, or -1. */
static int pop(jpull *jp)
{
    jp_level *lv = &jp->levels[jp->nlevels - 1];
    int is_object = lv->is_object;
    if (lv->key0 < jp->nkeys)
        jp->karena.n = jp->koff[lv->key0];
    jp->nkeys = lv->key0;
    free(lv->slots);
    if (emit(jp, is_object ? JPULL_OBJECT_END : JPULL_ARRAY_END, NULL, 0) != 0)
        return -1;
    jp->nlevels--;
    if (jp->nlevels == 0)
        jp->state = P_DONE;
    else
        jp->state = jp->levels[jp->nlevels - 1].is_object ? P_O_VALUE : P_A_VALUE;
    return 0;
}

/* A token in a value's place (jansson's parse_value): 0, 1 when jansson
 * refuses it, -1 when the consumer aborted or memory is short. */
static int value(jpull *jp, int tok)
{
    if (jp->nlevels + 1 > JP_MAX_DEPTH)
        return 1;
    int after = jp->nlevels == 0                        ? P_DONE
                : jp->levels[jp->nlevels - 1].is_object ? P_O_VALUE
                                                        : P_A_VALUE;
    int rc;
    switch (tok) {
    case '{':
    case '[':
        if (push(jp, tok == '{') != 0)
            return fail_nomem(jp);
        return emit(jp, tok == '{' ? JPULL_OBJECT_BEGIN : JPULL_ARRAY_BEGIN, NULL, 0) != 0 ? -1 : 0;
    case T_STRING:
        if (jp->str_nul)
            return 1;
        rc = emit(jp, JPULL_STRING, jp->str.p, jp->str.n);
        break;
    case T_INTEGER:
        rc = emit(jp, JPULL_INTEGER, NULL, 0);
        break;
    case T_REAL:
        rc = emit(jp, JPULL_REAL, NULL, 0);
        break;
    case T_TRUE:
        rc = emit(jp, JPULL_TRUE, NULL, 0);
        break;
    case T_FALSE:
        rc = emit(jp, JPULL_FALSE, NULL, 0);
        break;
    case T_NULL:
        rc = emit(jp, JPULL_NULL, NULL, 0);
        break;
    default:
        return 1;
    }
    if (rc != 0)
        return -1;
    jp->state = after;
    return 0;
}

/* One complete token to the parser: 0, 1 when jansson refuses it, -1 when
 * the consumer aborted or memory is short. */
static int parse(jpull *jp, int tok)
{
    switch (jp->state) {
    case P_START:
        if (tok != '{' && tok != '[')
            return 1;
        if (tok == '[')
            jp->top_array = 1;
        return value(jp, tok);
    case P_DONE:
        return tok == T_EOF ? 0 : 1;
    case P_O_OPEN:
        if (tok == '}')
            return pop(jp);
        /* fall through */
    case P_O_COMMA: {
        if (tok != T_STRING || jp->str_nul)
            return 1;
        uint32_t h = key_hash(jp->str.p, jp->str.n);
        if (key_seen(jp, jp->str.p, jp->str.n, h)) {
            jp->dup = 1;
            return 1;
        }
        if (key_add(jp, jp->str.p, jp->str.n, h) != 0)
            return fail_nomem(jp);
        if (emit(jp, JPULL_KEY, jp->str.p, jp->str.n) != 0)
            return -1;
        jp->state = P_O_KEY;
        return 0;
    }
    case P_O_KEY:
        if (tok != ':')
            return 1;
        jp->state = P_O_COLON;
        return 0;
    case P_O_COLON:
        return value(jp, tok);
    case P_O_VALUE:
        if (tok == ',') {
            jp->state = P_O_COMMA;
            return 0;
        }
        return tok == '}' ? pop(jp) : 1;
    case P_A_OPEN:
        if (tok == ']')
            return pop(jp);
        /* fall through */
    case P_A_COMMA:
        return tok == T_EOF ? 1 : value(jp, tok);
    case P_A_VALUE:
        if (tok == ',') {
            jp->state = P_A_COMMA;
            return 0;
        }
        return tok == ']' ? pop(jp) : 1;
    }
    return 1;
}

/* A token complete at the lookahead character c (n bytes, none at the end
 * of the body) to the parser; on a refusal, the error with c read too.
 * 0, or -1. */
static int token(jpull *jp, int tok, const char *c, size_t n)
{
    int rc = parse(jp, tok);
    if (rc > 0)
        return fail_json(jp, c, n);
    return rc;
}

/* The number in raw, complete: its value into ival or rval and its token,
 * or 0 when jansson refuses it (out of range). */
static int number(jpull *jp)
{
    const char *s = jp->raw.p;
    int real = jp->lx == LX_NUM_FRAC || jp->lx == LX_NUM_EXP;
    if (!real && jp->raw.n <= 18) { /* at most 18 digits: no overflow, no strtoll */
        long long v = 0;
        size_t i = s[0] == '-';
        for (; i < jp->raw.n; i++)
            v = v * 10 + (s[i] - '0');
        jp->ival = s[0] == '-' ? -v : v;
        return T_INTEGER;
    }
    errno = 0;
    char *end;
    if (!real) {
        jp->ival = strtoll(s, &end, 10);
        return errno == ERANGE ? 0 : T_INTEGER;
    }
    /* jansson reads reals with strtod as well, in the C locale the
     * service runs in. */
    jp->rval = strtod(s, &end);
    if (errno == ERANGE && (jp->rval == HUGE_VAL || jp->rval == -HUGE_VAL))
        return 0;
    return T_REAL;
}

/* Start a token at c (c ends the whitespace): 0, or -1. */
static int start_token(jpull *jp, int c, const char *bytes, size_t n)
{
    jp->tok_line = jp->line;
    jp->tok_col = jp->col;
    jp->raw.n = 0;
    switch (c) {
    case '{':
    case '}':
    case '[':
    case ']':
    case ':':
    case ',': {
        int rc = parse(jp, c); /* between tokens still: the error reads c as more */
        if (rc > 0)
            return fail_json(jp, bytes, n);
        jp->col++;
        return rc;
    }
    case '"':
        jp->lx = LX_STR;
        jp->str.n = 0;
        jp->hi = 0;
        jp->str_bad = 0;
        jp->str_nul = 0;
        break;
    case '-':
        jp->lx = LX_NUM_MINUS;
        break;
    case '0':
        jp->lx = LX_NUM_ZERO;
        break;
    default:
        if (c >= '1' && c <= '9')
            jp->lx = LX_NUM_INT;
        else if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))
            jp->lx = LX_WORD;
        else /* jansson's invalid token: the character itself */
            return fail_json(jp, bytes, n);
    }
    jp->col++;
    if (bytes_put(&jp->raw, (char)c) != 0)
        return fail_nomem(jp);
    return 0;
}

/* One hex digit's value, or -1. */
static int hexval(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* Append code point cp to the decoded string as UTF-8: 0, or -1. */
static int put_utf8(jp_bytes *b, uint32_t cp)
{
    char u[4];
    size_t n;
    if (cp < 0x80) {
        u[0] = (char)cp;
        n = 1;
    } else if (cp < 0x800) {
        u[0] = (char)(0xc0 | cp >> 6);
        u[1] = (char)(0x80 | (cp & 0x3f));
        n = 2;
    } else if (cp < 0x10000) {
        u[0] = (char)(0xe0 | cp >> 12);
        u[1] = (char)(0x80 | (cp >> 6 & 0x3f));
        u[2] = (char)(0x80 | (cp & 0x3f));
        n = 3;
    } else {
        u[0] = (char)(0xf0 | cp >> 18);
        u[1] = (char)(0x80 | (cp >> 12 & 0x3f));
        u[2] = (char)(0x80 | (cp >> 6 & 0x3f));
        u[3] = (char)(0x80 | (cp & 0x3f));
        n = 4;
    }
    return bytes_add(b, u, n);
}

/* The four digits of a \u escape are in uval: decode as jansson's second
 * pass over the string does, noting (not failing on) what it refuses,
 * since a lexing error later in the string comes first. */
static int unicode(jpull *jp)
{
    unsigned v = jp->uval;
    if (jp->str_bad)
        return 0;
    if (jp->hi != 0) {
        unsigned hi = jp->hi;
        jp->hi = 0;
        if (v < 0xdc00 || v > 0xdfff) {
            jp->str_bad = 1;
            return 0;
        }
        return put_utf8(&jp->str, 0x10000 + ((hi - 0xd800) << 10) + (v - 0xdc00));
    }
    if (v >= 0xd800 && v <= 0xdbff) {
        jp->hi = v;
        return 0;
    }
    if (v >= 0xdc00 && v <= 0xdfff) {
        jp->str_bad = 1;
        return 0;
    }
    if (v == 0)
        jp->str_nul = 1;
    return put_utf8(&jp->str, v);
}

/* One character c (its n bytes, UTF-8) of the body, or the end (c < 0):
 * 0, or -1 with the reader failed. */
static int lex_char(jpull *jp, int c, const char *bytes, size_t n)
{
    for (;;) {
        int tok = 0;
        switch (jp->lx) {
        case LX_WS:
            if (c == ' ' || c == '\t' || c == '\r') {
                jp->col++;
                return 0;
            }
            if (c == '\n') {
                jp->line++;
                jp->col = 0;
                return 0;
            }
            if (c < 0) {
                int rc = parse(jp, T_EOF);
                return rc > 0 ? fail_json(jp, NULL, 0) : rc;
            }
            return start_token(jp, c, bytes, n);
        case LX_STR:
            if (c == '"') {
                jp->col++;
                if (bytes_put(&jp->raw, '"') != 0)
                    return fail_nomem(jp);
                if (jp->hi != 0)
                    jp->str_bad = 1;
                if (bytes_add(&jp->str, "", 0) != 0) /* the NUL after it */
                    return fail_nomem(jp);
                int rc = jp->str_bad ? 1 : parse(jp, T_STRING);
                if (rc > 0)
                    rc = fail_json(jp, NULL, 0);
                jp->lx = LX_WS;
                jp->dup = 0;
                return rc;
            }
            if (c < 0x20) /* the end, a control character or a line feed */
                return fail_json(jp, bytes, n);
            if (c == '\\') {
                jp->lx = LX_STR_ESC;
            } else {
                if (jp->hi != 0)
                    jp->str_bad = 1;
                if (!jp->str_bad && bytes_add(&jp->str, bytes, n) != 0)
                    return fail_nomem(jp);
            }
            break;
        case LX_STR_ESC: {
            static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
            const char *at = c > 0 && c < 0x80 ? strchr(from, c) : NULL;
            if (c == 'u') {
                jp->lx = LX_STR_U;
                jp->uval = 0;
                jp->udigits = 0;
            } else if (at != NULL) {
                jp->lx = LX_STR;
                if (jp->hi != 0)
                    jp->str_bad = 1;
                if (!jp->str_bad && bytes_put(&jp->str, to[at - from]) != 0)
                    return fail_nomem(jp);
            } else {
                return fail_json(jp, bytes, n);
            }
            break;
        }
        case LX_STR_U: {
            int d = c >= 0 && c < 0x80 ? hexval(c) : -1;
            if (d < 0)
                return fail_json(jp, bytes, n);
            jp->uval = jp->uval << 4 | (unsigned)d;
            if (++jp->udigits == 4) {
                jp->lx = LX_STR;
                if (unicode(jp) != 0)
                    return fail_nomem(jp);
            }
            break;
        }
        case LX_NUM_MINUS:
            if (c == '0')
                jp->lx = LX_NUM_ZERO;
            else if (c >= '1' && c <= '9')
                jp->lx = LX_NUM_INT;
            else
                return fail_json(jp, bytes, n);
            break;
        case LX_NUM_ZERO:
        case LX_NUM_INT:
            if (c >= '0' && c <= '9') {
                if (jp->lx == LX_NUM_ZERO)
                    return fail_json(jp, bytes, n);
            } else if (c == '.') {
                jp->lx = LX_NUM_DOT;
            } else if (c == 'e' || c == 'E') {
                jp->lx = LX_NUM_E;
            } else {
                tok = -1;
            }
            break;
        case LX_NUM_DOT:
            if (c >= '0' && c <= '9')
                jp->lx = LX_NUM_FRAC;
            else
                return fail_json(jp, bytes, n);
            break;
        case LX_NUM_FRAC:
            if (c == 'e' || c == 'E')
                jp->lx = LX_NUM_E;
            else if (c < '0' || c > '9')
                tok = -1;
            break;
        case LX_NUM_E:
            if (c == '+' || c == '-')
                jp->lx = LX_NUM_ESIGN;
            else if (c >= '0' && c <= '9')
                jp->lx = LX_NUM_EXP;
            else
                return fail_json(jp, bytes, n);
            break;
        case LX_NUM_ESIGN:
            if (c >= '0' && c <= '9')
                jp->lx = LX_NUM_EXP;
            else
                return fail_json(jp, bytes, n);
            break;
        case LX_NUM_EXP:
            if (c < '0' || c > '9')
                tok = -1;
            break;
        case LX_WORD:
            if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))) {
                const char *w = jp->raw.p;
                tok = strcmp(w, "true") == 0    ? T_TRUE
                      : strcmp(w, "false") == 0 ? T_FALSE
                      : strcmp(w, "null") == 0  ? T_NULL
                                                : 0;
                if (tok == 0)
                    return fail_json(jp, bytes, n);
            }
            break;
        }
        if (tok == 0) { /* c is the token's */
            if (c < 0)  /* only a string or a partial number ends here */
                return fail_json(jp, NULL, 0);
            if (c == '\n') {
                jp->line++;
                jp->col = 0;
            } else {
                jp->col++;
            }
            if (bytes_add(&jp->raw, bytes, n) != 0)
                return fail_nomem(jp);
            return 0;
        }
        /* The token ended before c, which jansson read and pushed back. */
        if (tok < 0) {
            tok = number(jp);
            if (tok == 0)
                return fail_json(jp, bytes, n);
        }
        if (token(jp, tok, bytes, n) != 0)
            return -1;
        jp->lx = LX_WS;
        /* A NUL pushed back is lost: jansson's stream takes it for an
         * empty buffer and reads on, and its column does not count it. */
        if (c == 0)
            return 0;
    }
}

/* The first byte of a UTF-8 character: its length, or 0 when jansson's
 * stream refuses it. */
static int utf8_len(unsigned char b)
{
    if (b < 0x80)
        return 1;
    if (b < 0xc2)
        return 0;
    if (b < 0xe0)
        return 2;
    if (b < 0xf0)
        return 3;
    return b < 0xf5 ? 4 : 0;
}

/* The gathered character ch[0..n) is one jansson's stream takes: its code
 * point, or -1. */
static long utf8_check(const unsigned char *ch, int n)
{
    long v = ch[0] & (n == 2 ? 0x1f : n == 3 ? 0x0f : 0x07);
    for (int i = 1; i < n; i++) {
        if (ch[i] < 0x80 || ch[i] > 0xbf)
            return -1;
        v = v << 6 | (ch[i] & 0x3f);
    }
    if (v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
        return -1;
    if ((n == 2 && v < 0x80) || (n == 3 && v < 0x800) || (n == 4 && v < 0x10000))
        return -1;
    return v;
}

/* The next bytes through the stream, a character at a time (json_pull.h). */
int jpull_feed(jpull *jp, const char *p, size_t n, gj_error *e)
{
    if (jp->failed || jp->ended) {
        if (!jp->failed) {
            jp->failed = 1;
            gj_fail(&jp->err, GJ_INTERNAL, "JSON fed after its end");
        }
        *e = jp->err;
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        unsigned char b = (unsigned char)p[i];
        if (jp->chneed > 0) {
            jp->ch[jp->chn++] = b;
            if (jp->chn < jp->chneed)
                continue;
            jp->chneed = 0;
            if (utf8_check(jp->ch, jp->chn) < 0) {
                fail_json(jp, (const char *)jp->ch, (size_t)jp->chn);
                break;
            }
            if (lex_char(jp, jp->ch[0], (const char *)jp->ch, (size_t)jp->chn) != 0)
                break;
            continue;
        }
        if (b < 0x80) {
            /* the common run: digits of a number inside the chunk */
            if (jp->lx == LX_NUM_INT || jp->lx == LX_NUM_FRAC || jp->lx == LX_NUM_EXP) {
                size_t j = i;
                while (j < n && p[j] >= '0' && p[j] <= '9')
                    j++;
                if (j > i) {
                    if (bytes_add(&jp->raw, p + i, j - i) != 0) {
                        fail_nomem(jp);
                        break;
                    }
                    jp->col += (long)(j - i);
                    i = j - 1;
                    continue;
                }
            }
            if (lex_char(jp, b, p + i, 1) != 0)
                break;
            continue;
        }
        int len = utf8_len(b);
        jp->ch[0] = b;
        jp->chn = 1;
        if (len == 0) {
            fail_json(jp, p + i, 1);
            break;
        }
        jp->chneed = len;
    }
    if (jp->failed) {
        *e = jp->err;
        return -1;
    }
    return 0;
}

/* The end of the body as the last character, then the deferred errors
 * in jin_load_object's order (json_pull.h). */
int jpull_end(jpull *jp, gj_error *e)
{
    if (!jp->failed && !jp->ended) {
        jp->ended = 1;
        if (jp->chneed > 0) /* jansson reads the missing bytes as EOF: refused */
            fail_json(jp, (const char *)jp->ch, (size_t)jp->chn);
        else
            lex_char(jp, -1, NULL, 0);
    }
    if (jp->failed) {
        *e = jp->err;
        return -1;
    }
    if (jp->top_array)
        return gj_fail(e, GJ_BAD_INPUT, "the JSON body must be an object, found an array");
    if (jp->stopped) {
        *e = jp->stop_err;
        return -1;
    }
    return 0;
}
