/* test_log.c - the log (log.h) as a reader sees it: a client's bytes in the
 * text access line and in an event's values are escaped \xHH (CR, LF, ESC,
 * bytes from 0x7f up, the backslash, the space), so one request is one line
 * of the same fields; the quota's client is logged beside the peer only
 * when metered; and the JSON form stays one valid JSON object per line,
 * whatever the bytes.  The log goes to stderr, which each test points at a
 * temporary file (every test runs in its own process). */
#include <check.h>
#include <jansson.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"
#include "log.h"

/* ---- stderr into a file ------------------------------------------------ */

static char capture_path[] = "/tmp/gj-test-log-XXXXXX";
static int saved_stderr = -1;

/* Point stderr (fd 2) at a fresh temporary file until capture_end. */
static void capture_begin(void)
{
    strcpy(capture_path, "/tmp/gj-test-log-XXXXXX");
    int fd = mkstemp(capture_path);
    ck_assert_int_ge(fd, 0);
    fflush(stderr);
    saved_stderr = dup(2);
    ck_assert_int_ge(saved_stderr, 0);
    ck_assert_int_eq(dup2(fd, 2), 2);
    close(fd);
}

/* Put stderr back and return what was written to it meanwhile (malloc'd,
 * NUL-terminated); the file is removed. */
static char *capture_end(void)
{
    fflush(stderr);
    dup2(saved_stderr, 2);
    close(saved_stderr);
    size_t len = 0;
    char *text = harness_read_file(capture_path, &len);
    unlink(capture_path);
    ck_assert_ptr_nonnull(text);
    return text;
}

/* The number of '\n' in s. */
static int count_lines(const char *s)
{
    int n = 0;
    for (; *s != '\0'; s++)
        n += *s == '\n';
    return n;
}

/* A finished request with the given method, path and ids; the rest fixed. */
static access_entry entry(const char *method, const char *path, const char *id,
                          const char *quota_client)
{
    return (access_entry){
        .method = method,
        .path = path,
        .game = NULL,
        .status = 200,
        .bytes_in = 3,
        .bytes_out = 15,
        .micros = 42,
        .queue_ms = -1,
        .parse_ms = -1,
        .solve_ms = -1,
        .client = "127.0.0.1",
        .quota_client = quota_client,
        .request_id = id,
        .end = "ok",
    };
}

/* The text access line of `a`, without its time stamp (checked here: a
 * UTC time and one space); the line must be the only one written. */
static char *text_line_of(const access_entry *a)
{
    log_init(LOG_TEXT);
    capture_begin();
    log_access(a);
    char *out = capture_end();
    ck_assert_msg(count_lines(out) == 1, "not one line: '%s'", out);
    char *space = strchr(out, ' ');
    ck_assert_ptr_nonnull(space);
    ck_assert_msg(space > out && space[-1] == 'Z', "no UTC stamp: '%s'", out);
    memmove(out, space, strlen(space) + 1);
    return out;
}

/* ---- the text line ------------------------------------------------------ */

/* A hostile path and what the line must hold for it. */
static const struct {
    const char *what, *path, *logged;
} paths[] = {
    {"LF forging a line", "/x\n2026-12-01T00:00:00.000Z GET /admin 200",
     "/x\\x0A2026-12-01T00:00:00.000Z\\x20GET\\x20/admin\\x20200"},
    {"CR", "/x\rY", "/x\\x0DY"},
    {"CR LF", "/x\r\nY", "/x\\x0D\\x0AY"},
    {"ESC, a terminal colour", "/\x1b[31mred\x1b[0m", "/\\x1B[31mred\\x1B[0m"},
    {"tab and other control bytes", "/a\tb\x01\x1f", "/a\\x09b\\x01\\x1F"},
    {"DEL", "/a\x7f", "/a\\x7F"},
    {"UTF-8 (bytes from 0x80 up)", "/caf\xc3\xa9", "/caf\\xC3\\xA9"},
    {"any byte past 0x7f", "/\x80\xff", "/\\x80\\xFF"},
    {"the backslash", "/a\\x0Ab", "/a\\x5Cx0Ab"},
    {"a space", "/a b", "/a\\x20b"},
    {"printable ASCII untouched", "/solve/grid-walk?format=text&x=\"'<>%~",
     "/solve/grid-walk?format=text&x=\"'<>%~"},
};

/* Each hostile path is one line, escaped, the other fields in place. */
START_TEST(test_text_path_escaped)
{
    access_entry a = entry("GET", paths[_i].path, "r-1", NULL);
    char *line = text_line_of(&a);
    char want[512];
    snprintf(want, sizeof want, " GET %s 200 15 42us id=r-1 client=127.0.0.1 end=ok\n",
             paths[_i].logged);
    ck_assert_msg(strcmp(line, want) == 0, "%s:\n got '%s'\nwant '%s'", paths[_i].what, line, want);
    free(line);
}
END_TEST

/* Every client-controlled field is escaped the same way, not only the path:
 * the line still splits into the same eight fields. */
START_TEST(test_text_every_field_escaped)
{
    access_entry a = entry("G T\n", "/p q", "id\\1\x1b", "key#1");
    a.client = "a b";
    a.end = "o\nk";
    char *line = text_line_of(&a);
    ck_assert_str_eq(line, " G\\x20T\\x0A /p\\x20q 200 15 42us id=id\\x5C1\\x1B client=a\\x20b "
                           "quota=key#1 end=o\\x0Ak\n");
    int fields = 0;
    for (char *f = strtok(line, " \n"); f != NULL; f = strtok(NULL, " \n"))
        fields++;
    ck_assert_int_eq(fields, 9); /* 8 with the time stamp cut, plus quota= */
    free(line);
}
END_TEST

/* The quota's client stands after the peer, only when a bucket applied;
 * an empty field is "-", so the fields stay in place. */
START_TEST(test_text_quota_client)
{
    access_entry a = entry("POST", "/solve/grid-walk", "r-2", "198.51.100.7");
    char *line = text_line_of(&a);
    ck_assert_str_eq(line, " POST /solve/grid-walk 200 15 42us id=r-2 client=127.0.0.1 "
                           "quota=198.51.100.7 end=ok\n");
    free(line);
    a = entry("", NULL, "", NULL);
    line = text_line_of(&a);
    ck_assert_str_eq(line, " - - 200 15 42us id=- client=127.0.0.1 end=ok\n");
    free(line);
}
END_TEST

/* An event's values are escaped as the access line's fields are; its
 * message and keys are the daemon's own and stay as written. */
START_TEST(test_event_values_escaped)
{
    log_init(LOG_TEXT);
    const char *fields[] = {"fifo", "/tmp/a b\n\x1b\\\xc3\xa9", "empty", "", NULL};
    capture_begin();
    log_event("warn", "test hook: a message", fields);
    char *out = capture_end();
    ck_assert_str_eq(out,
                     "gamejudge: test hook: a message fifo=/tmp/a\\x20b\\x0A\\x1B\\x5C\\xC3\\xA9 "
                     "empty=\n");
    free(out);
}
END_TEST

/* ---- the JSON line ------------------------------------------------------ */

/* Every byte from 1 to 255 once, NUL-terminated. */
static void all_bytes(char out[256])
{
    for (int i = 1; i < 256; i++)
        out[i - 1] = (char)i;
    out[255] = '\0';
}

/* What jansson reads back for s as the log writes it: bytes from 0x80 up
 * are written \u00XX, so they come back as U+0080..U+00FF in UTF-8. */
static void as_read_back(const char *s, char *out)
{
    for (; *s != '\0'; s++) {
        unsigned char c = (unsigned char)*s;
        if (c < 0x80) {
            *out++ = (char)c;
        } else {
            *out++ = (char)(0xc0 | (c >> 6));
            *out++ = (char)(0x80 | (c & 0x3f));
        }
    }
    *out = '\0';
}

/* The string member `key` of j: present, a string, equal to want. */
static void assert_member(json_t *j, const char *key, const char *want)
{
    const char *got = json_string_value(json_object_get(j, key));
    ck_assert_msg(got != NULL, "no string \"%s\"", key);
    ck_assert_msg(strcmp(got, want) == 0, "\"%s\" read back differs", key);
}

/* Whatever bytes a client sends, the JSON access line is one line of valid
 * JSON, and every field reads back as sent (bytes past 0x7f as the code
 * points of the same number); quota_client is there only when metered. */
START_TEST(test_json_stays_valid)
{
    char every[256], back[512];
    all_bytes(every);
    as_read_back(every, back);
    access_entry a = entry(every, every, every, every);
    a.game = "grid-walk";
    a.client = every;
    a.end = every;
    log_init(LOG_JSON);
    capture_begin();
    log_access(&a);
    a.quota_client = NULL;
    a.client = "127.0.0.1";
    log_access(&a);
    char *out = capture_end();
    ck_assert_int_eq(count_lines(out), 2);
    char *second = strchr(out, '\n') + 1;
    second[-1] = '\0';
    json_error_t err;
    json_t *j = json_loads(out, 0, &err);
    ck_assert_msg(j != NULL, "not JSON: %s at %d: %s", err.text, err.position, out);
    static const char *const keys[] = {"method", "path",         "request_id",
                                       "client", "quota_client", "end"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        assert_member(j, keys[i], back);
    assert_member(j, "msg", "request");
    assert_member(j, "game", "grid-walk");
    json_decref(j);
    j = json_loads(second, 0, &err);
    ck_assert_msg(j != NULL, "not JSON: %s at %d: %s", err.text, err.position, second);
    assert_member(j, "client", "127.0.0.1");
    ck_assert_ptr_null(json_object_get(j, "quota_client"));
    json_decref(j);
    free(out);
}
END_TEST

/* ---- buffering (log_buffer) --------------------------------------------- */

/* The lines written to the captured stderr so far (capture_begin's file). */
static int lines_so_far(void)
{
    size_t len = 0;
    char *text = harness_read_file(capture_path, &len);
    ck_assert_ptr_nonnull(text);
    int n = count_lines(text);
    free(text);
    return n;
}

/* Seconds on the monotonic clock. */
static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Buffered lines wait, then come out flush_ms after the oldest of them with
 * no further line to push them: the flusher's timer, as nginx's flush=. */
START_TEST(test_buffer_flushed_by_timer)
{
    log_init(LOG_TEXT);
    capture_begin();
    ck_assert_int_eq(log_buffer(64 << 10, 700), 0);
    access_entry a = entry("GET", "/healthz", "timer", NULL);
    double t0 = now_s();
    for (int i = 0; i < 3; i++)
        log_access(&a);
    ck_assert_int_eq(lines_so_far(), 0); /* waiting in the buffer (700 ms is long here) */
    while (lines_so_far() < 3 && now_s() - t0 < 5)
        nanosleep(&(struct timespec){0, 10000000L}, NULL);
    double waited = now_s() - t0;
    ck_assert_int_eq(lines_so_far(), 3);
    ck_assert_msg(waited >= 0.6 && waited < 2.0, "flushed after %.3f s, flush=700 ms", waited);
    log_stop();
    free(capture_end());
}
END_TEST

/* A full buffer is written when the next line would not fit; an event
 * writes what waits and itself at once, in order; log_stop writes the rest. */
START_TEST(test_buffer_full_and_event)
{
    log_init(LOG_TEXT);
    capture_begin();
    ck_assert_int_eq(log_buffer(512, 60000), 0);
    access_entry a = entry("POST", "/solve/grid-walk", "full", NULL);
    for (int i = 0; i < 20; i++)
        log_access(&a); /* about 90 bytes each: five fill the buffer */
    int written = lines_so_far();
    ck_assert_msg(written >= 14 && written < 20, "%d lines written before any timer", written);
    const char *fields[] = {"k", "v", NULL};
    log_event("info", "an event", fields);
    ck_assert_int_eq(lines_so_far(), 21);
    log_access(&a);
    log_stop();
    char *out = capture_end();
    ck_assert_int_eq(count_lines(out), 22);
    char *event = strstr(out, "gamejudge: an event k=v\n");
    ck_assert_ptr_nonnull(event);
    ck_assert_int_eq(count_lines(event), 2); /* the event after the 20 lines, one line after it */
    free(out);
}
END_TEST

/* Crash the process from a thread other than the one that logged. */
static void *crash(void *arg)
{
    if (*(const int *)arg == SIGABRT)
        abort();
    raise(*(const int *)arg);
    return NULL;
}

/* Every buffered line survives a crash of another thread: the fatal
 * signal's handler writes the buffer before the process dies of it. */
START_TEST(test_buffer_survives_crash)
{
    static const int sigs[] = {SIGSEGV, SIGABRT, SIGBUS};
    int sig = sigs[_i];
    log_init(LOG_JSON);
    capture_begin();
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        if (log_buffer(64 << 10, 60000) != 0)
            _exit(3);
        access_entry a = entry("GET", "/x", "crash", NULL);
        for (int i = 0; i < 100; i++)
            log_access(&a);
        pthread_t t;
        pthread_create(&t, NULL, crash, &sig);
        pthread_join(t, NULL);
        _exit(4); /* not reached */
    }
    int status = 0;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    char *out = capture_end();
    /* Killed by the signal, or (under a sanitizer, whose report takes
     * over) exited with an error: either way it died, and not cleanly. */
    ck_assert_msg(WIFSIGNALED(status) || (WIFEXITED(status) && WEXITSTATUS(status) != 0 &&
                                          WEXITSTATUS(status) != 3 && WEXITSTATUS(status) != 4),
                  "status %d", status);
    int lines = 0;
    for (const char *p = out; (p = strstr(p, "\"request_id\":\"crash\"")) != NULL; p++)
        lines++;
    ck_assert_int_eq(lines, 100);
    free(out);
}
END_TEST

int main(void)
{
    const harness_case cases[] = {
        {"text", test_text_every_field_escaped},
        {"text", test_text_quota_client},
        {"event", test_event_values_escaped},
        {"json", test_json_stays_valid},
    };
    Suite *s = harness_suite("log", cases, sizeof cases / sizeof cases[0], 0);
    harness_add_loop(s, "path", test_text_path_escaped, (int)(sizeof paths / sizeof paths[0]), 0);
    harness_add_loop(s, "buffer", test_buffer_flushed_by_timer, 1, 0);
    harness_add_loop(s, "buffer", test_buffer_full_and_event, 1, 0);
    harness_add_loop(s, "crash", test_buffer_survives_crash, 3, 0);
    return harness_main(s);
}
