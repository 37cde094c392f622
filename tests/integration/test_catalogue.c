/* test_catalogue.c - the bad-input catalogue: malformed requests for every
 * game and for the HTTP layer, each with the exact answer it must get, and
 * after each one a valid request that must still be answered right.
 *
 * One daemon serves every case, started with small game limits (LIMITS) and
 * a 4 MB body limit, so that "at the limit" and "one past it" are cheap to
 * send for every limit.  Cases are a table run by one driver:
 *
 *   BY_CURL the body is POSTed with libcurl (Content-Type from `type`)
 *   RAW     `body` is the whole request, sent on a raw socket
 *   HANG    `body` is sent raw, then the client hangs up: nothing can be
 *           answered, and the server must simply carry on
 *
 * A few bodies are too big to write out and come from a generator.  A NULL
 * `code` marks an answer libmicrohttpd gives itself, for HTTP it cannot
 * parse, before our handler runs: its own status and an HTML body, which
 * `part` then matches. */
#include <check.h>
#include <curl/curl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client.h"
#include "daemon.h"
#include "rawhttp.h"

#define LIMITS                                                                                     \
    "matrix-game.n=5,grid-walk.rows=4,grid-walk.cols=4,nim-shortcuts.shortcuts=3,"                 \
    "nim-shortcuts.queries=3,prime-chocolate.n=4,staircase-chess.rows=3,staircase-chess.cols=3,"   \
    "staircase-chess.size=5"
#define MAX_BODY (4L << 20)
#define MILLION  1000000

static test_daemon server;

typedef enum send_kind { BY_CURL, RAW, HANG } send_kind;

typedef enum generator {
    GEN_NONE,
    GEN_DEEP_JSON,     /* {"grid": [[[[...  10^6 deep */
    GEN_MANY_TOKENS,   /* a valid bar, then 10^6 extra tokens */
    GEN_LONG_ROW,      /* a grid row of 10^6 cells */
    GEN_LONG_NUMBER,   /* a 10^6-digit integer */
    GEN_MANY_VALUES,   /* a JSON matrix row of 10^6 values */
    GEN_AT_MAX_BODY,   /* a valid bar padded to exactly MAX_BODY bytes */
    GEN_OVER_MAX_BODY, /* the same, one byte more */
    GEN_HEADER_FLOOD,  /* raw: 10^4 headers */
    GEN_HUGE_HEADER,   /* raw: one 100 KB header */
    GEN_HUGE_URL,      /* raw: a 100 KB path */
} generator;

typedef struct bad_case {
    const char *name;
    send_kind how;
    const char *path; /* BY_CURL: the URL path */
    const char *type; /* BY_CURL: Content-Type, NULL for none */
    const char *body; /* BY_CURL: the body; RAW, HANG: the request */
    size_t len;       /* 0: strlen(body) */
    generator gen;
    long status; /* 0: no answer at all */
    const char *code;
    const char *part; /* in our message, or in libmicrohttpd's HTML */
} bad_case;

#define JSON  "application/json"
#define MG    "/solve/matrix-game"
#define GW    "/solve/grid-walk"
#define NS    "/solve/nim-shortcuts"
#define PC    "/solve/prime-chocolate"
#define SC    "/solve/staircase-chess"
#define CLOSE "Host: x\r\nConnection: close\r\n"

static const bad_case cases[] = {
    /* ---- matrix-game (n <= 5 here; values 1..n^2; 1 <= k <= n-2) ---- */
    {"matrix truncated", BY_CURL, MG, NULL, "3 1\n1 2 3\n4 5", 0, 0, 400, "bad_input",
     "found the end of the input"},
    {"matrix n at limit", BY_CURL, MG, NULL,
     "5 3\n1 2 3 4 5\n6 7 8 9 10\n11 12 13 14 15\n16 17 18 19 20\n21 22 23 24 25\n", 0, 0, 200,
     NULL, NULL},
    {"matrix n past limit", BY_CURL, MG, NULL, "6 1\n", 0, 0, 400, "bad_input",
     "between 3 and 5, found 6"},
    {"matrix k past n-2", BY_CURL, MG, NULL, "3 2\n1 2 3\n4 5 6\n7 8 9\n", 0, 0, 400, "bad_input",
     "k must be between 1 and 1"},
    {"matrix value past n^2", BY_CURL, MG, NULL, "3 1\n1 2 3\n4 5 6\n7 8 10\n", 0, 0, 400,
     "bad_input", "between 1 and 9, found 10"},
    {"matrix value zero", BY_CURL, MG, NULL, "3 1\n0 2 3\n4 5 6\n7 8 9\n", 0, 0, 400, "bad_input",
     "found 0"},
    {"matrix repeated value", BY_CURL, MG, NULL, "3 1\n1 2 3\n4 5 6\n7 8 8\n", 0, 0, 400,
     "bad_input", NULL},
    {"matrix NUL byte", BY_CURL, MG, NULL, "3 1\n1 2\0 3\n4 5 6\n7 8 9\n", 24, 0, 400, "bad_input",
     "\\x00"},
    {"matrix invalid UTF-8", BY_CURL, MG, NULL, "3 1\n1 2 \xff\n4 5 6\n7 8 9\n", 0, 0, 400,
     "bad_input", "\\xff"},
    {"matrix 10^6-digit number", BY_CURL, MG, NULL, NULL, 0, GEN_LONG_NUMBER, 400, "bad_input",
     "between 3 and 5"},
    {"matrix JSON not an object", BY_CURL, MG, JSON, "[1, 2, 3]", 0, 0, 400, "bad_input",
     "must be an object, found an array"},
    {"matrix JSON k a string", BY_CURL, MG, JSON,
     "{\"k\": \"1\", \"matrix\": [[1,2,3],[4,5,6],[7,8,9]]}", 0, 0, 400, "bad_input",
     "k: expected an integer, found a string"},
    {"matrix JSON k a fraction", BY_CURL, MG, JSON,
     "{\"k\": 1.5, \"matrix\": [[1,2,3],[4,5,6],[7,8,9]]}", 0, 0, 400, "bad_input",
     "a number with a fraction"},
    {"matrix JSON matrix an object", BY_CURL, MG, JSON, "{\"k\": 1, \"matrix\": {}}", 0, 0, 400,
     "bad_input", "matrix: expected an array, found an object"},
    {"matrix JSON ragged", BY_CURL, MG, JSON, "{\"k\": 1, \"matrix\": [[1,2,3],[4,5],[7,8,9]]}", 0,
     0, 400, "bad_input", "matrix[1]"},
    {"matrix JSON missing k", BY_CURL, MG, JSON, "{\"matrix\": [[1,2,3],[4,5,6],[7,8,9]]}", 0, 0,
     400, "bad_input", "k: missing required field"},
    {"matrix JSON n past limit", BY_CURL, MG, JSON,
     "{\"k\": 1, \"matrix\": [[1],[2],[3],[4],[5],[6]]}", 0, 0, 400, "bad_input",
     "expected 3 to 5 elements, found 6"},
    {"matrix JSON 10^6 values in a row", BY_CURL, MG, JSON, NULL, 0, GEN_MANY_VALUES, 400,
     "bad_input", "matrix[0]"},

    /* ---- grid-walk (at most 4 x 4 here) ---- */
    {"grid at limit", BY_CURL, GW, NULL, "4 4\n....\n.#..\n..#.\n....\n", 0, 0, 200, NULL, NULL},
    {"grid rows past limit", BY_CURL, GW, NULL, "5 1\n.\n.\n.\n.\n.\n", 0, 0, 400, "bad_input",
     "between 1 and 4, found 5"},
    {"grid cols past limit", BY_CURL, GW, NULL, "1 5\n.....\n", 0, 0, 400, "bad_input",
     "between 1 and 4, found 5"},
    {"grid bad cell", BY_CURL, GW, NULL, "2 2\n.?\n..\n", 0, 0, 400, "bad_input", "line 2"},
    {"grid short row", BY_CURL, GW, NULL, "2 2\n.\n..\n", 0, 0, 400, "bad_input", "line 2"},
    {"grid NUL byte", BY_CURL, GW, NULL, "2 2\n.\0\n..\n", 11, 0, 400, "bad_input", "\\x00"},
    {"grid invalid UTF-8", BY_CURL, GW, NULL, "2 2\n.\xc3\n..\n", 0, 0, 400, "bad_input", "\\xc3"},
    {"grid 10^6-cell row", BY_CURL, GW, NULL, NULL, 0, GEN_LONG_ROW, 400, "bad_input", "line 2"},
    {"grid JSON grid a string", BY_CURL, GW, JSON, "{\"grid\": \"..\"}", 0, 0, 400, "bad_input",
     "grid: expected an array, found a string"},
    {"grid JSON row an integer", BY_CURL, GW, JSON, "{\"grid\": [7]}", 0, 0, 400, "bad_input",
     "grid[0]: expected a string, found an integer"},
    {"grid JSON empty", BY_CURL, GW, JSON, "{\"grid\": []}", 0, 0, 400, "bad_input",
     "expected 1 to 4 elements, found 0"},
    {"grid JSON invalid UTF-8", BY_CURL, GW, JSON, "{\"grid\": [\".\xff\"]}", 0, 0, 400,
     "bad_input", "invalid JSON"},
    {"grid JSON raw NUL byte", BY_CURL, GW, JSON, "{\"grid\": [\".\0\"]}", 15, 0, 400, "bad_input",
     "invalid JSON"},
    {"grid JSON \\u0000", BY_CURL, GW, JSON, "{\"grid\": [\".\\u0000\"]}", 0, 0, 400, "bad_input",
     "\\u0000"},
    {"grid JSON duplicate key", BY_CURL, GW, JSON, "{\"grid\": [\".\"], \"grid\": [\".\"]}", 0, 0,
     400, "bad_input", "duplicate"},
    {"grid JSON 10^6 deep", BY_CURL, GW, JSON, NULL, 0, GEN_DEEP_JSON, 400, "bad_input",
     "invalid JSON"},
    {"grid JSON truncated", BY_CURL, GW, JSON, "{\"grid\": [\"..\", ", 0, 0, 400, "bad_input",
     "invalid JSON"},

    /* ---- nim-shortcuts (n <= 3, 1 <= m <= 3 here; coordinates 0..10^9) ---- */
    {"nim at limits", BY_CURL, NS, NULL, "3 3\n0 1\n1 0\n1000000000 0\n0 0\n2 2\n1000000000 1\n", 0,
     0, 200, NULL, NULL},
    {"nim n past limit", BY_CURL, NS, NULL, "4 1\n", 0, 0, 400, "bad_input",
     "between 0 and 3, found 4"},
    {"nim m past limit", BY_CURL, NS, NULL, "0 4\n", 0, 0, 400, "bad_input",
     "between 1 and 3, found 4"},
    {"nim m zero", BY_CURL, NS, NULL, "0 0\n", 0, 0, 400, "bad_input", "between 1 and 3, found 0"},
    {"nim coordinate past 10^9", BY_CURL, NS, NULL, "1 1\n1000000001 0\n0 0\n", 0, 0, 400,
     "bad_input", "found 1000000001"},
    {"nim negative coordinate", BY_CURL, NS, NULL, "0 1\n-1 0\n", 0, 0, 400, "bad_input",
     "found -1"},
    {"nim duplicate shortcut", BY_CURL, NS, NULL, "2 1\n1 1\n1 1\n0 0\n", 0, 0, 400, "bad_input",
     NULL},
    {"nim truncated", BY_CURL, NS, NULL, "1 2\n1 1\n0 0\n", 0, 0, 400, "bad_input",
     "found the end of the input"},
    {"nim JSON triple", BY_CURL, NS, JSON, "{\"shortcuts\": [[1,2,3]], \"queries\": [[0,0]]}", 0, 0,
     400, "bad_input", "shortcuts[0]"},
    {"nim JSON coordinate a string", BY_CURL, NS, JSON,
     "{\"shortcuts\": [], \"queries\": [[\"0\",0]]}", 0, 0, 400, "bad_input",
     "queries[0][0]: expected an integer, found a string"},
    {"nim JSON no queries", BY_CURL, NS, JSON, "{\"shortcuts\": [], \"queries\": []}", 0, 0, 400,
     "bad_input", "queries"},
    {"nim JSON shortcuts past limit", BY_CURL, NS, JSON,
     "{\"shortcuts\": [[1,0],[2,0],[3,0],[4,0]], \"queries\": [[0,0]]}", 0, 0, 400, "bad_input",
     "expected 0 to 3 elements, found 4"},
    {"nim JSON coordinate a real", BY_CURL, NS, JSON,
     "{\"shortcuts\": [], \"queries\": [[1000000000.0,0]]}", 0, 0, 400, "bad_input",
     "a number with a fraction"},
    {"nim JSON coordinate past 10^9", BY_CURL, NS, JSON,
     "{\"shortcuts\": [], \"queries\": [[1000000001,0]]}", 0, 0, 400, "bad_input",
     "found 1000000001"},
    {"nim JSON unknown field", BY_CURL, NS, JSON,
     "{\"shortcuts\": [], \"queries\": [[0,0]], \"n\": 0}", 0, 0, 400, "bad_input",
     "unknown field"},

    /* ---- prime-chocolate (n <= 4 here) ---- */
    {"bar at limit", BY_CURL, PC, NULL, "4\n----\n-X--\n----\n----\n", 0, 0, 200, NULL, NULL},
    {"bar past limit", BY_CURL, PC, NULL, "5\n", 0, 0, 400, "bad_input",
     "between 1 and 4, found 5"},
    {"bar n zero", BY_CURL, PC, NULL, "0\n", 0, 0, 400, "bad_input", "found 0"},
    {"bar en dashes", BY_CURL, PC, NULL, "2\n\xe2\x80\x93\xe2\x80\x93\n-X\n", 0, 0, 200, NULL,
     NULL},
    {"bar cut en dash", BY_CURL, PC, NULL, "2\n\xe2\x80-\n-X\n", 0, 0, 400, "bad_input", "line 2"},
    {"bar NUL byte", BY_CURL, PC, NULL, "2\n-\0\n--\n", 8, 0, 400, "bad_input", "\\x00"},
    {"bar 10^6 extra tokens", BY_CURL, PC, NULL, NULL, 0, GEN_MANY_TOKENS, 400, "bad_input",
     "after the end of the position"},
    {"bar JSON integers", BY_CURL, PC, JSON, "{\"grid\": [1, 2]}", 0, 0, 400, "bad_input",
     "grid[0]: expected a string"},
    {"bar JSON ragged", BY_CURL, PC, JSON, "{\"grid\": [\"--\", \"-\"]}", 0, 0, 400, "bad_input",
     "grid[1]"},
    {"bar JSON an object", BY_CURL, PC, JSON, "{\"grid\": {\"0\": \"-\"}}", 0, 0, 400, "bad_input",
     "grid: expected an array, found an object"},
    {"bar JSON null", BY_CURL, PC, JSON, "null", 0, 0, 400, "bad_input", "'[' or '{' expected"},

    /* ---- staircase-chess (rows, cols <= 3 and rows + cols <= 5 here) ---- */
    {"stairs at limits", BY_CURL, SC, NULL, "3 2\n1 2\n3 4\n5 100000\n6 5\n4 3\n2 0\n", 0, 0, 200,
     NULL, NULL},
    {"stairs size past limit", BY_CURL, SC, NULL, "3 3\n", 0, 0, 400, "bad_input", NULL},
    {"stairs rows past limit", BY_CURL, SC, NULL, "4 1\n", 0, 0, 400, "bad_input",
     "between 1 and 3, found 4"},
    {"stairs value past limit", BY_CURL, SC, NULL, "1 1\n100001\n0\n", 0, 0, 400, "bad_input",
     "between 0 and 100000, found 100001"},
    {"stairs negative value", BY_CURL, SC, NULL, "1 1\n5\n-1\n", 0, 0, 400, "bad_input",
     "found -1"},
    {"stairs JSON shapes differ", BY_CURL, SC, JSON, "{\"a\": [[1,2]], \"b\": [[1]]}", 0, 0, 400,
     "bad_input", "b"},
    {"stairs JSON value past limit", BY_CURL, SC, JSON, "{\"a\": [[100001]], \"b\": [[0]]}", 0, 0,
     400, "bad_input", "a[0][0]"},
    {"stairs JSON b missing", BY_CURL, SC, JSON, "{\"a\": [[1]]}", 0, 0, 400, "bad_input",
     "b: missing required field"},
    {"stairs JSON rows of strings", BY_CURL, SC, JSON, "{\"a\": [\"1\"], \"b\": [[1]]}", 0, 0, 400,
     "bad_input", "a[0]: expected an array, found a string"},
    {"stairs JSON a string", BY_CURL, SC, JSON, "\"a\"", 0, 0, 400, "bad_input",
     "'[' or '{' expected"},

    /* ---- the HTTP layer, through libcurl ---- */
    {"unsupported type", BY_CURL, PC, "text/html", "1\n-\n", 0, 0, 415, "unsupported_media_type",
     "text/html"},
    {"body exactly at --max-body", BY_CURL, PC, NULL, NULL, 0, GEN_AT_MAX_BODY, 200, NULL, NULL},
    {"body one byte past --max-body", BY_CURL, PC, NULL, NULL, 0, GEN_OVER_MAX_BODY, 413,
     "too_large", "4194304"},
    {"long unknown game", BY_CURL,
     "/solve/"
     "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
     NULL, "1", 0, 0, 404, "unknown_game", "unknown game"},

    /* ---- the HTTP layer, raw ---- */
    {"unknown method", RAW, NULL, NULL, "BREW /healthz HTTP/1.1\r\n" CLOSE "\r\n", 0, 0, 405,
     "method_not_allowed", "BREW is not allowed"},
    {"lower-case method", RAW, NULL, NULL, "post " PC " HTTP/1.1\r\n" CLOSE "\r\n", 0, 0, 405,
     "method_not_allowed", "use POST"},
    {"TRACE", RAW, NULL, NULL, "TRACE " PC " HTTP/1.1\r\n" CLOSE "\r\n", 0, 0, 405,
     "method_not_allowed", "TRACE"},
    {"OPTIONS *", RAW, NULL, NULL, "OPTIONS * HTTP/1.1\r\n" CLOSE "\r\n", 0, 0, 404, "not_found",
     "no such path"},
    /* libmicrohttpd closes at once on a request line without a version. */
    {"no HTTP version", RAW, NULL, NULL, "HELLO\r\n\r\n", 0, 0, 0, NULL, NULL},
    {"HTTP/9.9", RAW, NULL, NULL, "GET /healthz HTTP/9.9\r\n" CLOSE "\r\n", 0, 0, 505, NULL,
     "HTTP version is not supported"},
    {"header without colon", RAW, NULL, NULL, "GET /healthz HTTP/1.1\r\n" CLOSE "Bogus\r\n\r\n", 0,
     0, 400, NULL, "syntactically incorrect"},
    {"Content-Length not a number", RAW, NULL, NULL,
     "POST " PC " HTTP/1.1\r\n" CLOSE "Content-Length: abc\r\n\r\n1\n-\n", 0, 0, 400, NULL,
     "Content-Length"},
    {"Content-Length negative", RAW, NULL, NULL,
     "POST " PC " HTTP/1.1\r\n" CLOSE "Content-Length: -4\r\n\r\n1\n-\n", 0, 0, 400, NULL,
     "Content-Length"},
    {"Content-Length past 2^64", RAW, NULL, NULL,
     "POST " PC " HTTP/1.1\r\n" CLOSE "Content-Length: 99999999999999999999999\r\n\r\n", 0, 0, 413,
     NULL, "Content-Length"},
    {"Content-Length past --max-body", RAW, NULL, NULL,
     "POST " PC " HTTP/1.1\r\n" CLOSE "Content-Length: 4194305\r\n\r\n", 0, 0, 413, "too_large",
     "the body is 4194305 bytes"},
    {"Expect 100-continue past --max-body", RAW, NULL, NULL,
     "POST " PC " HTTP/1.1\r\n" CLOSE "Expect: 100-continue\r\nContent-Length: 99999999\r\n\r\n", 0,
     0, 413, "too_large", "--max-body"},
    {"Content-Length shorter than the body", RAW, NULL, NULL,
     "POST " PC "?format=text HTTP/1.1\r\n" CLOSE "Content-Length: 4\r\n\r\n1\n-\nGARBAGE", 0, 0,
     200, NULL, NULL},
    {"Content-Length longer than the body, then hang up", HANG, NULL, NULL,
     "POST " PC " HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n1\n-\n", 0, 0, 0, NULL, NULL},
    {"JSON body cut short, then hang up", HANG, NULL, NULL,
     "POST " GW " HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
     "Content-Length: 1000\r\n\r\n{\"grid\": [\"..",
     0, 0, 0, NULL, NULL},
    {"chunk cut short, then hang up", HANG, NULL, NULL,
     "POST " PC " HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n10\r\n1\n-", 0, 0, 0,
     NULL, NULL},
    {"headers cut short, then hang up", HANG, NULL, NULL, "POST " PC " HTTP/1.1\r\nHost: x\r\nCont",
     0, 0, 0, NULL, NULL},
    {"bad chunk size", RAW, NULL, NULL,
     "POST " PC " HTTP/1.1\r\n" CLOSE "Transfer-Encoding: chunked\r\n\r\nzz\r\n1\n-\n\r\n0\r\n\r\n",
     0, 0, 400, NULL, "chunked encoding"},
    /* libmicrohttpd decodes only chunked and, given another coding, waited
     * for the body until a timeout; the server now refuses it at once. */
    {"Transfer-Encoding gzip", RAW, NULL, NULL,
     "POST " PC " HTTP/1.1\r\n" CLOSE "Transfer-Encoding: gzip\r\n\r\n", 0, 0, 400, "bad_input",
     "Transfer-Encoding 'gzip' is not supported"},
    {"Transfer-Encoding gzip, chunked", RAW, NULL, NULL,
     "GET /healthz HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n", 0, 0,
     400, "bad_input", "not supported"},
    /* Two lengths: a proxy and the server could split the stream
     * differently (request smuggling), so it is refused. */
    {"Content-Length twice, differing", RAW, NULL, NULL,
     "POST " PC " HTTP/1.1\r\n" CLOSE "Content-Length: 4\r\nContent-Length: 5\r\n\r\n1\n-\n", 0, 0,
     400, "bad_input", "Content-Length headers that disagree"},
    {"Content-Length twice, equal", RAW, NULL, NULL,
     "POST " PC "?format=text HTTP/1.1\r\n" CLOSE
     "Content-Length: 4\r\nContent-Length: 4\r\n\r\n1\n-\n",
     0, 0, 200, NULL, "RUBY"},
    {"HTTP/1.0 POST without a length", RAW, NULL, NULL, "POST " PC " HTTP/1.0\r\n\r\n1\n-\n", 0, 0,
     400, "bad_input", "found the end of the input"},
    /* /analyze, /judge and /batch: positions in play, submissions, many at once. */
    {"analyze grid path jumps", BY_CURL, "/analyze/grid-walk", JSON,
     "{\"grid\": [\"...\", \"...\"], \"path\": [[1,1],[2,2]]}", 0, 0, 400, "bad_input", "path[1]"},
    {"analyze grid path revisits", BY_CURL, "/analyze/grid-walk", JSON,
     "{\"grid\": [\"...\", \"...\"], \"path\": [[1,1],[1,2],[1,1]]}", 0, 0, 400, "bad_input",
     "path[2]"},
    {"analyze grid past limit", BY_CURL, "/analyze/grid-walk", JSON,
     "{\"grid\": [\".....\"], \"path\": []}", 0, 0, 400, "bad_input", "4"},
    {"analyze max_moves past 10000", BY_CURL, "/analyze/grid-walk", JSON,
     "{\"grid\": [\"..\"], \"path\": [], \"max_moves\": 10001}", 0, 0, 400, "bad_input",
     "max_moves"},
    {"analyze nim heaps not a pair", BY_CURL, "/analyze/nim-shortcuts", JSON,
     "{\"shortcuts\": [], \"heaps\": [1, 2, 3]}", 0, 0, 400, "bad_input", "heaps"},
    {"analyze chocolate prime used twice", BY_CURL, "/analyze/prime-chocolate", JSON,
     "{\"grid\": [\"---\", \"---\", \"---\"], \"primes_used\": [3, 3]}", 0, 0, 400, "bad_input",
     "primes_used[1]"},
    {"analyze chess stone too early", BY_CURL, "/analyze/staircase-chess", JSON,
     "{\"a\": [[1,2],[3,4]], \"b\": [[1,2],[3,4]], \"stones\": [[2,2]]}", 0, 0, 400, "bad_input",
     "stones[0]"},
    {"analyze matrix token off the board", BY_CURL, "/analyze/matrix-game", JSON,
     "{\"k\": 1, \"matrix\": [[1,2,3],[4,5,6],[7,8,9]], \"token\": [0, 1]}", 0, 0, 400, "bad_input",
     "token[0]"},
    {"analyze as judge text", BY_CURL, "/analyze/grid-walk", NULL, "1 2\n..\n", 0, 0, 400,
     "bad_input", NULL},
    {"judge output not a string", BY_CURL, "/judge/grid-walk", JSON,
     "{\"input\": \"1 1\\n.\\n\", \"output\": 5}", 0, 0, 400, "bad_input", "output"},
    {"judge input past limit", BY_CURL, "/judge/grid-walk", JSON,
     "{\"input\": \"1 5\\n.....\\n\", \"output\": \"LOSE\"}", 0, 0, 400, "bad_input", "input"},
    {"judge input with NUL", BY_CURL, "/judge/grid-walk", JSON,
     "{\"input\": \"1 1\\n\\u0000\\n\", \"output\": \"LOSE\"}", 0, 0, 400, "bad_input", "u0000"},
    {"batch not an object", BY_CURL, "/batch", JSON, "[]", 0, 0, 400, "bad_input", NULL},
    {"batch items a string", BY_CURL, "/batch", JSON, "{\"items\": \"x\"}", 0, 0, 400, "bad_input",
     "items"},
    {"batch of bad items", BY_CURL, "/batch", JSON,
     "{\"items\": [1, {\"game\": 2}, {\"game\": \"go\", \"input\": \"\"}]}", 0, 0, 200, NULL,
     "\"failed\":3"},
    {"batch item past its limit", BY_CURL, "/batch", JSON,
     "{\"items\": [{\"game\": \"grid-walk\", \"input\": \"1 5\\n.....\\n\"}]}", 0, 0, 200, NULL,
     "\"status\":400"},
    {"header flood", RAW, NULL, NULL, NULL, 0, GEN_HEADER_FLOOD, 431, NULL, "too big"},
    {"one huge header", RAW, NULL, NULL, NULL, 0, GEN_HUGE_HEADER, 431, NULL, "too big"},
    {"huge URL", RAW, NULL, NULL, NULL, 0, GEN_HUGE_URL, 414, NULL, "too big"},
};

/* ---- generated bodies ------------------------------------------------ */

static char *filled(const char *head, char c, size_t n, const char *tail, size_t *len)
{
    size_t h = strlen(head), t = strlen(tail);
    char *s = malloc(h + n + t + 1);
    ck_assert_ptr_nonnull(s);
    memcpy(s, head, h);
    memset(s + h, c, n);
    memcpy(s + h + n, tail, t + 1);
    *len = h + n + t;
    return s;
}

static char *repeated(const char *head, const char *unit, size_t n, const char *tail, size_t *len)
{
    size_t h = strlen(head), u = strlen(unit), t = strlen(tail);
    char *s = malloc(h + u * n + t + 1);
    ck_assert_ptr_nonnull(s);
    memcpy(s, head, h);
    for (size_t i = 0; i < n; i++)
        memcpy(s + h + i * u, unit, u);
    memcpy(s + h + u * n, tail, t + 1);
    *len = h + u * n + t;
    return s;
}

static char *generate(generator g, size_t *len)
{
    switch (g) {
    case GEN_DEEP_JSON:
        return filled("{\"grid\": ", '[', MILLION, "", len);
    case GEN_MANY_TOKENS:
        return repeated("1\n-\n", "- ", MILLION, "\n", len);
    case GEN_LONG_ROW:
        return filled("1 1\n", '.', MILLION, "\n", len);
    case GEN_LONG_NUMBER:
        return filled("", '9', MILLION, " 1\n", len);
    case GEN_MANY_VALUES:
        return repeated("{\"k\": 1, \"matrix\": [[", "1,", MILLION, "1],[1],[1]]}", len);
    case GEN_AT_MAX_BODY:
    case GEN_OVER_MAX_BODY:
        return filled("1\n-\n", ' ', (size_t)MAX_BODY - 4 + (g == GEN_OVER_MAX_BODY), "", len);
    case GEN_HEADER_FLOOD:
        return repeated("GET /healthz HTTP/1.1\r\n" CLOSE, "X-Flood: v\r\n", 10000, "\r\n", len);
    case GEN_HUGE_HEADER:
        return filled("GET /healthz HTTP/1.1\r\n" CLOSE "X-Huge: ", 'v', 100000, "\r\n\r\n", len);
    case GEN_HUGE_URL:
        return filled("GET /", 'u', 100000, " HTTP/1.1\r\n" CLOSE "\r\n", len);
    case GEN_NONE:
        break;
    }
    return NULL;
}

/* ---- the follow-up: one valid request per game ------------------------ */

static const struct {
    const char *path, *body, *answer;
} follow_ups[] = {
    {MG, "3 1\n1 2 3\n4 5 6\n7 8 9\n", "GGG\nGGG\nGMM\n"},
    {GW, "2 3\n..#\n...\n", "WIN\n1 2\n2 1\n2 3\n"},
    {NS, "2 2\n3 0\n0 1\n0 0\n1 1\n", "LOSE\nWIN\n"},
    {PC, "3\n--X\n---\n---\n", "RUBY\n"},
    {SC, "2 3\n2 7 3\n9 1 2\n3 7 2\n2 3 1\n", "2\n"},
};

/* The game a case is about (the request line or path names it), so the
 * follow-up exercises the same parser; prime-chocolate otherwise. */
static size_t follow_up_for(const bad_case *t)
{
    const char *where = t->how == BY_CURL ? t->path : t->body;
    size_t n = sizeof follow_ups / sizeof follow_ups[0];
    for (size_t i = 0; where != NULL && i < n; i++) {
        const char *at = strstr(where, follow_ups[i].path);
        if (at != NULL && (at - where) < 64)
            return i;
    }
    return 3;
}

static void check_still_serving(const bad_case *t)
{
    size_t i = follow_up_for(t);
    char u[256];
    snprintf(u, sizeof u, "%s%s?format=text", server.base, follow_ups[i].path);
    http_call c = {"POST", u, NULL, follow_ups[i].body, strlen(follow_ups[i].body), 0};
    http_reply r = http_do(&c);
    ck_assert_msg(r.status == 200, "%s: the next request got %ld: %s", t->name, r.status, r.body);
    ck_assert_msg(strcmp(r.body, follow_ups[i].answer) == 0, "%s: the next request got '%s'",
                  t->name, r.body);
    http_reply_free(&r);
}

/* ---- the driver --------------------------------------------------------- */

static void check_error_body(const bad_case *t, const char *body, size_t len)
{
    json_error_t err;
    json_t *root = json_loadb(body, len, 0, &err);
    ck_assert_msg(root != NULL, "%s: the error is not JSON (%s): %.200s", t->name, err.text, body);
    json_t *e = json_object_get(root, "error");
    const char *code = json_string_value(json_object_get(e, "code"));
    const char *message = json_string_value(json_object_get(e, "message"));
    ck_assert_msg(code != NULL && strcmp(code, t->code) == 0, "%s: code %s, expected %s", t->name,
                  code ? code : "(none)", t->code);
    ck_assert_msg(message != NULL && json_string_value(json_object_get(e, "request_id")) != NULL,
                  "%s: no message or request_id: %s", t->name, body);
    if (t->part != NULL)
        ck_assert_msg(strstr(message, t->part) != NULL, "%s: message '%s' lacks '%s'", t->name,
                      message, t->part);
    json_decref(root);
}

static void check_answer(const bad_case *t, long status, const char *body, size_t len)
{
    ck_assert_msg(status == t->status, "%s: status %ld, expected %ld: %.300s", t->name, status,
                  t->status, body);
    if (t->code != NULL)
        check_error_body(t, body, len);
    else if (t->part != NULL) /* libmicrohttpd's own page */
        ck_assert_msg(strstr(body, t->part) != NULL, "%s: '%s' lacks '%s'", t->name, body, t->part);
}

START_TEST(test_catalogue)
{
    const bad_case *t = &cases[_i];
    size_t len = t->len ? t->len : t->body ? strlen(t->body) : 0;
    char *made = t->gen != GEN_NONE ? generate(t->gen, &len) : NULL;
    const char *bytes = made ? made : t->body;

    if (t->how == BY_CURL) {
        char u[512], type[128];
        snprintf(u, sizeof u, "%s%s", server.base, t->path);
        snprintf(type, sizeof type, "Content-Type: %s", t->type ? t->type : "text/plain");
        const char *headers[] = {type, NULL};
        http_call c = {"POST", u, headers, bytes, len, 0};
        http_reply r = http_do(&c);
        ck_assert_msg(r.curl_error == 0, "%s: curl error %d", t->name, r.curl_error);
        check_answer(t, r.status, r.body, r.len);
        http_reply_free(&r);
    } else if (t->how == RAW) {
        raw_reply r = raw_exchange(server.port, bytes, len);
        check_answer(t, r.status, r.body, r.len);
        raw_reply_free(&r);
    } else {
        raw_hang_up(server.port, bytes, len);
    }
    free(made);
    check_still_serving(t);
}
END_TEST

static void start_server(void)
{
    const char *flags[] = {"--limit", LIMITS, "--max-body", "4M", NULL};
    daemon_start(&server, flags);
}

static void stop_server(void)
{
    ck_assert_int_eq(daemon_stop(&server), 0);
}

int main(void)
{
    curl_global_init(CURL_GLOBAL_DEFAULT);
    Suite *s = suite_create("catalogue");
    TCase *tc = tcase_create("bad input");
    tcase_set_timeout(tc, 120);
    tcase_add_unchecked_fixture(tc, start_server, stop_server);
    tcase_add_loop_test(tc, test_catalogue, 0, (int)(sizeof cases / sizeof cases[0]));
    suite_add_tcase(s, tc);

    return run_suite(s);
}
