/* test_listeners.c - the daemon's listeners and the headers they add:
 * HTTPS with a certificate made here at run time (openssl, from Debian; no
 * key is ever committed), start-up errors naming a bad certificate, key,
 * pair or --tls-priorities, an expired certificate logged but served,
 * the admin listener (--admin-address) serving /metrics alone and the
 * probes on both ports, and the CORS headers (--cors-origins) on
 * preflights and answers, for listed and other origins. */
#include <arpa/inet.h>
#include <check.h>
#include <gnutls/gnutls.h>
#include <gnutls/x509.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "client.h"
#include "daemon.h"
#include "hold.h"

static char dir[64]; /* the certificates of this run */
static char cert[128], key[128], other_key[128], rsa_cert[128], rsa_key[128];

/* Run a shell command; fail the test when it does not exit 0. */
static void sh(const char *cmd)
{
    int rc = system(cmd);
    ck_assert_msg(rc == 0, "'%s' exited %d", cmd, rc);
}

/* A folder with a self-signed EC certificate for 127.0.0.1 and its key,
 * a second key that is not the certificate's, and an RSA certificate with
 * its key (PKCS#8, 2048 bits). */
static void make_certificates(void)
{
    snprintf(dir, sizeof dir, "/tmp/gj-tls-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(cert, sizeof cert, "%s/cert.pem", dir);
    snprintf(key, sizeof key, "%s/key.pem", dir);
    snprintf(other_key, sizeof other_key, "%s/other-key.pem", dir);
    snprintf(rsa_cert, sizeof rsa_cert, "%s/rsa-cert.pem", dir);
    snprintf(rsa_key, sizeof rsa_key, "%s/rsa-key.pem", dir);
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 1 "
             "-subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 -keyout %s -out %s "
             ">/dev/null 2>&1 && openssl genpkey -algorithm EC -pkeyopt "
             "ec_paramgen_curve:P-256 -out %s >/dev/null 2>&1 && openssl req -x509 -newkey "
             "rsa:2048 -nodes -days 1 -subj /CN=127.0.0.1 -keyout %s -out %s >/dev/null 2>&1",
             key, cert, other_key, rsa_key, rsa_cert);
    sh(cmd);
}

/* A copy of file `from` at `to` with four base64 characters of its line
 * `line` (0 is the BEGIN line) from `column` on each replaced by another:
 * the armour whole, the body damaged. */
static void damage(const char *from, const char *to, int line, int column)
{
    size_t len;
    char *text = read_file_or_fail(from, &len);
    char *p = strchr(text, '\n');
    for (int i = 1; i < line && p != NULL; i++)
        p = strchr(p + 1, '\n');
    ck_assert_msg(p != NULL && strlen(p + 1) > (size_t)column + 4, "%s is too short", from);
    for (int i = 0; i < 4; i++) {
        char *c = p + 1 + column + i;
        *c = *c == 'A' ? 'B' : 'A';
    }
    FILE *f = fopen(to, "wb");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
    free(text);
}

/* A self-signed certificate for key_file's key that expired yesterday,
 * written to out_file: openssl 3.0 cannot date one in the past, GnuTLS
 * (which the daemon links anyway) can. */
static void make_expired(const char *key_file, const char *out_file)
{
    size_t len;
    char *text = read_file_or_fail(key_file, &len);
    gnutls_datum_t pem = {(unsigned char *)text, (unsigned)len}, out = {NULL, 0};
    gnutls_x509_privkey_t k;
    gnutls_x509_crt_t c;
    time_t now = time(NULL);
    unsigned char serial[1] = {1};
    ck_assert_int_eq(gnutls_x509_privkey_init(&k), 0);
    ck_assert_int_eq(gnutls_x509_privkey_import(k, &pem, GNUTLS_X509_FMT_PEM), 0);
    ck_assert_int_eq(gnutls_x509_crt_init(&c), 0);
    ck_assert_int_eq(gnutls_x509_crt_set_version(c, 3), 0);
    ck_assert_int_eq(gnutls_x509_crt_set_serial(c, serial, sizeof serial), 0);
    ck_assert_int_eq(gnutls_x509_crt_set_dn(c, "CN=127.0.0.1", NULL), 0);
    ck_assert_int_eq(gnutls_x509_crt_set_issuer_dn(c, "CN=127.0.0.1", NULL), 0);
    ck_assert_int_eq(gnutls_x509_crt_set_key(c, k), 0);
    ck_assert_int_eq(gnutls_x509_crt_set_activation_time(c, now - 2 * 86400), 0);
    ck_assert_int_eq(gnutls_x509_crt_set_expiration_time(c, now - 86400), 0);
    ck_assert_int_eq(gnutls_x509_crt_sign2(c, c, k, GNUTLS_DIG_SHA256, 0), 0);
    ck_assert_int_eq(gnutls_x509_crt_export2(c, GNUTLS_X509_FMT_PEM, &out), 0);
    FILE *f = fopen(out_file, "wb");
    ck_assert_ptr_nonnull(f);
    fwrite(out.data, 1, out.size, f);
    fclose(f);
    gnutls_free(out.data);
    gnutls_x509_crt_deinit(c);
    gnutls_x509_privkey_deinit(k);
    free(text);
}

/* Remove the folder of make_certificates. */
static void remove_certificates(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    sh(cmd);
}

/* One request to base+path with the given headers (NULL-terminated, or
 * NULL), trusting the run's certificate for https. */
static http_reply call(const char *base, const char *method, const char *path,
                       const char *const *headers, const char *body)
{
    char url[256];
    snprintf(url, sizeof url, "%s%s", base, path);
    http_call c = {.method = method,
                   .url = url,
                   .headers = headers,
                   .body = body,
                   .len = body ? strlen(body) : 0};
    http_trust(cert);
    http_reply r = http_do(&c);
    http_trust(NULL);
    return r;
}

/* The sample position of grid-walk and its right answer, as the CLI solves
 * it (malloc'd). */
static char *sample(const char *name, size_t *len)
{
    char path[128];
    snprintf(path, sizeof path, "tests/data/grid-walk/%s", name);
    return read_file_or_fail(path, len);
}

/* HTTPS: a solve and the probes answer over TLS with the run's CA trusted;
 * a client that does not trust the certificate, and one speaking plain
 * HTTP to the port, get no answer. */
START_TEST(test_https)
{
    make_certificates();
    const char *args[] = {"--tls-cert", cert, "--tls-key", key, NULL};
    test_daemon d;
    daemon_start(&d, args);
    ck_assert_int_eq(strncmp(d.base, "https://127.0.0.1:", 18), 0);

    size_t in_len, out_len;
    char *in = sample("01.in", &in_len), *want = sample("01.out", &out_len);
    const char *text[] = {"Content-Type: text/plain", "Accept: text/plain", NULL};
    http_reply r = call(d.base, "POST", "/solve/grid-walk", text, in);
    ck_assert_msg(r.curl_error == 0, "curl error %d", r.curl_error);
    ck_assert_int_eq(r.status, 200);
    ck_assert_str_eq(r.body, want);
    http_reply_free(&r);
    free(in);
    free(want);

    r = call(d.base, "GET", "/healthz", NULL, NULL);
    ck_assert_int_eq(r.status, 200);
    http_reply_free(&r);

    char url[128];
    snprintf(url, sizeof url, "%s/healthz", d.base);
    http_call untrusted = {.method = "GET", .url = url};
    r = http_do(&untrusted);
    ck_assert_msg(r.curl_error != 0 && r.status == 0, "an untrusted certificate was accepted");
    http_reply_free(&r);

    snprintf(url, sizeof url, "http://127.0.0.1:%u/healthz", d.port);
    http_call plain = {.method = "GET", .url = url};
    r = http_do(&plain);
    ck_assert_msg(r.status != 200, "plain HTTP was answered on the HTTPS port");
    http_reply_free(&r);

    ck_assert_int_eq(daemon_stop(&d), 0);
    remove_certificates();
}
END_TEST

/* `serve` with these TLS flags (and --tls-priorities when `priorities` is
 * not NULL) must exit 1 without listening, with a last stderr line that
 * starts with "gamejudge: " and holds every needle. */
static void refused(const char *cert_file, const char *key_file, const char *priorities,
                    const char *const *needles)
{
    const char *args[] = {"serve",    "--host",    "127.0.0.1", "--port",
                          "0",        "--store",   "none",      "--tls-cert",
                          cert_file,  "--tls-key", key_file,    "--tls-priorities",
                          priorities, NULL};
    if (priorities == NULL)
        args[11] = NULL;
    char *out, *err;
    int rc = run_cli(args, "", 0, &out, &err);
    ck_assert_msg(rc == 1, "exit %d, stderr: %s", rc, err);
    ck_assert_msg(strstr(out, "listening") == NULL, "it listened: %s", out);
    char *last = err;
    for (char *p = err; *p != '\0'; p++)
        if (p[0] == '\n' && p[1] != '\0')
            last = p + 1;
    ck_assert_msg(strncmp(last, "gamejudge: ", 11) == 0, "%s", err);
    for (size_t i = 0; needles[i] != NULL; i++)
        ck_assert_msg(strstr(last, needles[i]) != NULL, "no '%s' in: %s", needles[i], last);
    free(out);
    free(err);
}

/* Each bad file stops the start with a message naming it: missing, not a
 * certificate, a damaged certificate body, a damaged RSA key that GnuTLS
 * reads but whose p is not prime (libmicrohttpd served with it and failed
 * every handshake), a key that is not the certificate's (naming both); and
 * a priority string GnuTLS does not take. */
START_TEST(test_bad_tls_files)
{
    make_certificates();
    char missing[160], damaged[160], bad_key[160], cmd[512];
    snprintf(missing, sizeof missing, "%s/missing.pem", dir);
    snprintf(damaged, sizeof damaged, "%s/damaged.pem", dir);
    snprintf(bad_key, sizeof bad_key, "%s/bad-key.pem", dir);
    damage(cert, damaged, 1, 0); /* the outer DER header */
    /* Body line 13 of a 2048-bit PKCS#8 key lies inside p (test_tls.c). */
    damage(rsa_key, bad_key, 13, 20);
    snprintf(cmd, sizeof cmd, "openssl rsa -check -noout -in %s 2>&1 | grep -q 'p not prime'",
             bad_key);
    sh(cmd);

    const char *no_file[] = {"--tls-cert", missing, "cannot open", NULL};
    refused(missing, key, NULL, no_file);
    const char *no_key[] = {"--tls-key", missing, "cannot open", NULL};
    refused(cert, missing, NULL, no_key);
    const char *swapped[] = {"--tls-cert", key, "no PEM certificate", NULL};
    refused(key, cert, NULL, swapped);
    const char *bad_cert[] = {"--tls-cert", damaged, "cannot read the certificate", NULL};
    refused(damaged, key, NULL, bad_cert);
    const char *not_prime[] = {"--tls-key", bad_key, "the key is damaged", NULL};
    refused(rsa_cert, bad_key, NULL, not_prime);
    const char *mismatch[] = {
        "--tls-cert", cert, "--tls-key", other_key, "the key is not the certificate's", NULL};
    refused(cert, other_key, NULL, mismatch);
    const char *cross[] = {"--tls-cert", rsa_cert, "--tls-key", key, "is not the certificate's",
                           NULL};
    refused(rsa_cert, key, NULL, cross);
    const char *nonsense[] = {"--tls-priorities", "at character 1", "'NONSENSE'", NULL};
    refused(cert, key, "NONSENSE", nonsense);
    const char *no_tls13[] = {"--tls-priorities", "at character 21", "'+NOPE'", NULL};
    refused(cert, key, "NORMAL:-VERS-TLS1.3:+NOPE", no_tls13);
    remove_certificates();
}
END_TEST

/* --tls-priorities is what the port offers: with TLS 1.3 taken out a
 * client still connects (TLS 1.2), and the configuration line names the
 * string; without the flag it names the default. */
START_TEST(test_tls_priorities)
{
    make_certificates();
    const char *args[] = {
        "--tls-cert", cert, "--tls-key", key, "--tls-priorities", "NORMAL:-VERS-ALL:+VERS-TLS1.2",
        NULL};
    test_daemon d;
    daemon_start(&d, args);
    http_reply r = call(d.base, "GET", "/healthz", NULL, NULL);
    ck_assert_int_eq(r.status, 200);
    http_reply_free(&r);
    char *log = daemon_log(&d);
    ck_assert_msg(strstr(log, "tls_priorities=NORMAL:-VERS-ALL:+VERS-TLS1.2 ") != NULL, "%s", log);
    free(log);
    ck_assert_int_eq(daemon_stop(&d), 0);

    const char *plain[] = {"--tls-cert", cert, "--tls-key", key, NULL};
    daemon_start(&d, plain);
    log = daemon_log(&d);
    ck_assert_msg(strstr(log, "tls_priorities=SECURE256:") != NULL, "%s", log);
    free(log);
    ck_assert_int_eq(daemon_stop(&d), 0);
    remove_certificates();
}
END_TEST

/* An expired certificate is served (a restart must not stop on it) and
 * the start logs a warning naming the file and the date. */
START_TEST(test_expired_certificate)
{
    make_certificates();
    char expired[160];
    snprintf(expired, sizeof expired, "%s/expired.pem", dir);
    make_expired(key, expired);
    const char *args[] = {"--tls-cert", expired, "--tls-key", key, NULL};
    test_daemon d;
    daemon_start(&d, args);
    char *log = daemon_wait_log(&d, "the certificate has expired");
    ck_assert_msg(log != NULL, "no warning for an expired certificate");
    ck_assert_ptr_nonnull(strstr(log, expired));
    free(log);
    ck_assert_int_eq(daemon_stop(&d), 0);
    remove_certificates();
}
END_TEST

/* The admin listener: /metrics there and 404 on the public port, the
 * probes on both, nothing else there; a solve on the public port is
 * counted in the admin port's metrics. */
START_TEST(test_admin_listener)
{
    const char *args[] = {"--admin-address", "127.0.0.1:0", NULL};
    test_daemon d;
    daemon_start(&d, args);
    ck_assert_uint_gt(d.admin_port, 0);
    ck_assert_uint_ne(d.admin_port, d.port);

    http_reply r = call(d.base, "GET", "/metrics", NULL, NULL);
    ck_assert_int_eq(r.status, 404);
    ck_assert_ptr_nonnull(strstr(r.body, "\"not_found\""));
    ck_assert_ptr_nonnull(strstr(r.body, "served on the admin listener (--admin-address) only"));
    http_reply_free(&r);

    const char *probes[] = {"/healthz", "/readyz"};
    for (int i = 0; i < 2; i++) {
        r = call(d.base, "GET", probes[i], NULL, NULL);
        ck_assert_int_eq(r.status, 200);
        http_reply_free(&r);
        r = call(d.admin, "GET", probes[i], NULL, NULL);
        ck_assert_int_eq(r.status, 200);
        http_reply_free(&r);
    }
    const char *public_only[] = {"/games", "/", "/openapi.yaml"};
    for (int i = 0; i < 3; i++) {
        r = call(d.admin, "GET", public_only[i], NULL, NULL);
        ck_assert_msg(r.status == 404, "%s on the admin port: %ld", public_only[i], r.status);
        http_reply_free(&r);
    }
    r = call(d.admin, "POST", "/solve/grid-walk", NULL, "1 1\n.\n");
    ck_assert_int_eq(r.status, 404);
    http_reply_free(&r);

    size_t len;
    char *in = sample("01.in", &len);
    const char *text[] = {"Content-Type: text/plain", NULL};
    r = call(d.base, "POST", "/solve/grid-walk", text, in);
    ck_assert_int_eq(r.status, 200);
    http_reply_free(&r);
    free(in);
    r = call(d.admin, "GET", "/metrics", NULL, NULL);
    ck_assert_int_eq(r.status, 200);
    ck_assert_msg(strstr(r.body, "game=\"grid-walk\"") != NULL, "the solve is not counted");
    http_reply_free(&r);
    ck_assert_int_eq(daemon_stop(&d), 0);

    /* Without the flag, /metrics stays on the one port. */
    daemon_start(&d, NULL);
    ck_assert_uint_eq(d.admin_port, 0);
    r = call(d.base, "GET", "/metrics", NULL, NULL);
    ck_assert_int_eq(r.status, 200);
    http_reply_free(&r);
    ck_assert_int_eq(daemon_stop(&d), 0);
}
END_TEST

/* A socket connected to 127.0.0.1:port, or -1 when refused. */
static int connect_to(unsigned port)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET,
                            .sin_port = htons((uint16_t)port),
                            .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    if (fd >= 0 && connect(fd, (struct sockaddr *)&a, sizeof a) == 0)
        return fd;
    if (fd >= 0)
        close(fd);
    return -1;
}

/* GET base+path until it answers `status`, for up to 5 s; the last reply. */
static http_reply get_until(const char *base, const char *path, long status)
{
    struct timespec tick = {0, 20 * 1000 * 1000};
    for (int i = 0;; i++) {
        http_reply r = call(base, "GET", path, NULL, NULL);
        if (r.status == status || i == 250)
            return r;
        http_reply_free(&r);
        nanosleep(&tick, NULL);
    }
}

/* While a stop drains the public port, the admin listener stays up: its
 * /readyz says draining (503) and its /healthz stays 200, so a liveness
 * probe does not kill a pod that is finishing its solves; the public port
 * takes no new connection; the held solve is answered and the exit is 0. */
START_TEST(test_admin_during_drain)
{
    test_hold hold = {0};
    hold_begin(&hold); /* every solve waits until released */
    const char *args[] = {"--admin-address", "127.0.0.1:0", "--workers", "1", NULL};
    test_daemon d;
    daemon_start(&d, args);

    int solve = connect_to(d.port);
    ck_assert_int_ge(solve, 0);
    static const char request[] = "POST /solve/grid-walk HTTP/1.1\r\nHost: t\r\n"
                                  "Content-Type: text/plain\r\nContent-Length: 8\r\n\r\n"
                                  "1 2\n..\n\n";
    ck_assert_int_eq(write(solve, request, sizeof request - 1), (ssize_t)(sizeof request - 1));
    http_reply r = get_until(d.admin, "/readyz", 200);
    ck_assert_int_eq(r.status, 200);
    http_reply_free(&r);
    /* The stop must find the solve running (held), not still in the listen
     * backlog, where closing the listening socket would reset it. */
    struct timespec wait = {0, 20 * 1000 * 1000};
    for (int i = 0; i < 250 && daemon_metric(&d, "gamejudge_workers_busy") < 1; i++)
        nanosleep(&wait, NULL);
    ck_assert_msg(daemon_metric(&d, "gamejudge_workers_busy") == 1, "the solve never started");

    kill(d.pid, SIGTERM);
    r = get_until(d.admin, "/readyz", 503);
    ck_assert_int_eq(r.status, 503);
    ck_assert_ptr_nonnull(strstr(r.body, "draining"));
    http_reply_free(&r);
    r = call(d.admin, "GET", "/healthz", NULL, NULL);
    ck_assert_int_eq(r.status, 200);
    http_reply_free(&r);
    r = call(d.admin, "GET", "/metrics", NULL, NULL);
    ck_assert_int_eq(r.status, 200);
    ck_assert_ptr_nonnull(strstr(r.body, "gamejudge_ready 0"));
    http_reply_free(&r);
    int late = -1;
    struct timespec tick = {0, 20 * 1000 * 1000};
    for (int i = 0; i < 250; i++) { /* the listening socket closes just after the flag */
        late = connect_to(d.port);
        if (late < 0)
            break;
        close(late);
        nanosleep(&tick, NULL);
    }
    ck_assert_msg(late < 0, "the public port still accepts while draining");

    hold_release(&hold);
    char answer[2048];
    size_t got = 0;
    ssize_t k;
    while (got < sizeof answer - 1 && (k = read(solve, answer + got, sizeof answer - 1 - got)) > 0)
        got += (size_t)k;
    answer[got] = '\0';
    close(solve);
    ck_assert_msg(strncmp(answer, "HTTP/1.1 200", 12) == 0, "held solve: %s", answer);
    ck_assert_int_eq(daemon_stop(&d), 0);
    hold_end(&hold);
}
END_TEST

/* Whether header `name` is in r, and when want is not NULL, with that value. */
static int has(const http_reply *r, const char *name, const char *want)
{
    char *v = http_header(r, name);
    int ok = v != NULL && (want == NULL || strcmp(v, want) == 0);
    free(v);
    return ok;
}

/* How many header lines of r are named `name` (any case). */
static int headers_named(const http_reply *r, const char *name)
{
    size_t n = strlen(name);
    int count = 0;
    for (const char *line = r->headers; line != NULL && *line != '\0';) {
        if (strncasecmp(line, name, n) == 0 && line[n] == ':')
            count++;
        line = strchr(line, '\n');
        line = line != NULL ? line + 1 : NULL;
    }
    return count;
}

/* No Access-Control-* header at all in r. */
static int no_cors(const http_reply *r)
{
    return !has(r, "Access-Control-Allow-Origin", NULL) &&
           !has(r, "Access-Control-Allow-Methods", NULL) &&
           !has(r, "Access-Control-Allow-Headers", NULL) &&
           !has(r, "Access-Control-Expose-Headers", NULL) &&
           !has(r, "Access-Control-Max-Age", NULL);
}

/* CORS on: a preflight from a listed origin gets 204 with the route's
 * methods, the headers and the age; an answer to it the origin and the
 * exposed headers; another origin, or none, gets no CORS header; every
 * answer says Vary: Origin. */
START_TEST(test_cors_headers)
{
    const char *args[] = {"--cors-origins", "https://puzzles.example,http://127.0.0.1:5000", NULL};
    test_daemon d;
    daemon_start(&d, args);

    const char *pre[] = {"Origin: http://127.0.0.1:5000", "Access-Control-Request-Method: POST",
                         "Access-Control-Request-Headers: content-type", NULL};
    http_reply r = call(d.base, "OPTIONS", "/solve/grid-walk", pre, NULL);
    ck_assert_int_eq(r.status, 204);
    ck_assert_uint_eq(r.len, 0);
    ck_assert(has(&r, "Access-Control-Allow-Origin", "http://127.0.0.1:5000"));
    ck_assert(has(&r, "Access-Control-Allow-Methods", "GET, HEAD, POST"));
    ck_assert(has(&r, "Access-Control-Allow-Headers",
                  "Content-Type, Accept, X-Request-Id, If-None-Match, X-Api-Key"));
    ck_assert(has(&r, "Access-Control-Max-Age", "600"));
    ck_assert(has(&r, "Allow", "GET, HEAD, POST"));
    ck_assert(has(&r, "Vary", "Origin"));
    ck_assert(!has(&r, "Content-Type", NULL));  /* no body, no type */
    ck_assert(!has(&r, "Connection", "close")); /* the connection is kept */
    http_reply_free(&r);

    const char *pre_get[] = {"Origin: https://puzzles.example",
                             "Access-Control-Request-Method: GET", NULL};
    r = call(d.base, "OPTIONS", "/games", pre_get, NULL);
    ck_assert_int_eq(r.status, 204);
    ck_assert(has(&r, "Access-Control-Allow-Origin", "https://puzzles.example"));
    ck_assert(has(&r, "Access-Control-Allow-Methods", "GET, HEAD"));
    http_reply_free(&r);

    const char *pre_other[] = {"Origin: https://evil.example",
                               "Access-Control-Request-Method: POST", NULL};
    r = call(d.base, "OPTIONS", "/solve/grid-walk", pre_other, NULL);
    ck_assert_int_eq(r.status, 204);
    ck_assert(no_cors(&r));
    ck_assert(has(&r, "Allow", "GET, HEAD, POST"));
    http_reply_free(&r);

    /* A path that names nothing: from a listed origin a preflight all the
     * same, so the page's real request is sent and reads its 404. */
    r = call(d.base, "OPTIONS", "/nowhere", pre, NULL);
    ck_assert_int_eq(r.status, 204);
    ck_assert(has(&r, "Access-Control-Allow-Origin", "http://127.0.0.1:5000"));
    http_reply_free(&r);

    size_t len;
    char *in = sample("01.in", &len);
    const char *ok[] = {"Origin: http://127.0.0.1:5000", "Content-Type: text/plain", NULL};
    r = call(d.base, "POST", "/solve/grid-walk", ok, in);
    ck_assert_int_eq(r.status, 200);
    ck_assert(has(&r, "Access-Control-Allow-Origin", "http://127.0.0.1:5000"));
    ck_assert(has(&r, "Access-Control-Expose-Headers",
                  "X-Request-Id, X-Cache, ETag, Retry-After, RateLimit, RateLimit-Policy"));
    ck_assert(has(&r, "Vary", "Origin"));
    ck_assert_int_eq(headers_named(&r, "Vary"), 1);
    ck_assert(!has(&r, "Access-Control-Allow-Methods", NULL));
    http_reply_free(&r);

    /* A GET solve varies by Accept too: one Vary header lists both, on its
     * 200 and its 304, whatever the origin. */
    const char *get_path = "/solve/grid-walk?input=1%201%0A.%0A";
    const char *get_ok[] = {"Origin: http://127.0.0.1:5000", NULL};
    const char *get_other[] = {"Origin: https://evil.example", NULL};
    const char *const *gets[] = {get_ok, get_other, NULL};
    for (int i = 0; i < 3; i++) {
        r = call(d.base, "GET", get_path, gets[i], NULL);
        ck_assert_int_eq(r.status, 200);
        ck_assert_int_eq(headers_named(&r, "Vary"), 1);
        ck_assert(has(&r, "Vary", "Accept, Origin"));
        http_reply_free(&r);
    }
    r = call(d.base, "GET", get_path, get_ok, NULL);
    char *tag = http_header(&r, "ETag");
    ck_assert_ptr_nonnull(tag);
    http_reply_free(&r);
    char if_none_match[128];
    snprintf(if_none_match, sizeof if_none_match, "If-None-Match: %s", tag);
    free(tag);
    const char *again[] = {"Origin: http://127.0.0.1:5000", if_none_match, NULL};
    r = call(d.base, "GET", get_path, again, NULL);
    ck_assert_int_eq(r.status, 304);
    ck_assert_int_eq(headers_named(&r, "Vary"), 1);
    ck_assert(has(&r, "Vary", "Accept, Origin"));
    http_reply_free(&r);

    /* An error answer to a listed origin is readable too. */
    r = call(d.base, "POST", "/solve/grid-walk", ok, "x\n");
    ck_assert_int_eq(r.status, 400);
    ck_assert(has(&r, "Access-Control-Allow-Origin", "http://127.0.0.1:5000"));
    http_reply_free(&r);

    const char *others[][3] = {{"Origin: https://evil.example", "Content-Type: text/plain", NULL},
                               {"Origin: http://127.0.0.1:5000/", "Content-Type: text/plain", NULL},
                               {"Origin: HTTP://127.0.0.1:5000", "Content-Type: text/plain", NULL},
                               {"Content-Type: text/plain", NULL, NULL}};
    for (int i = 0; i < 4; i++) {
        r = call(d.base, "POST", "/solve/grid-walk", others[i], in);
        ck_assert_int_eq(r.status, 200);
        ck_assert_msg(no_cors(&r), "%s got CORS headers", others[i][0]);
        ck_assert(has(&r, "Vary", "Origin"));
        http_reply_free(&r);
    }
    free(in);
    ck_assert_int_eq(daemon_stop(&d), 0);
}
END_TEST

/* CORS off (the default): OPTIONS is a 405 with Allow like any other method
 * a route does not take, and no answer carries a CORS header or Vary. */
START_TEST(test_cors_off)
{
    test_daemon d;
    daemon_start(&d, NULL);
    const char *pre[] = {"Origin: http://127.0.0.1:5000", "Access-Control-Request-Method: POST",
                         NULL};
    http_reply r = call(d.base, "OPTIONS", "/solve/grid-walk", pre, NULL);
    ck_assert_int_eq(r.status, 405);
    ck_assert(has(&r, "Allow", "GET, HEAD, POST"));
    ck_assert(no_cors(&r));
    ck_assert(!has(&r, "Vary", "Origin"));
    http_reply_free(&r);
    r = call(d.base, "GET", "/healthz", pre, NULL);
    ck_assert_int_eq(r.status, 200);
    ck_assert(no_cors(&r));
    http_reply_free(&r);
    /* A GET solve varies by Accept alone. */
    r = call(d.base, "GET", "/solve/grid-walk?input=1%201%0A.%0A", pre, NULL);
    ck_assert_int_eq(r.status, 200);
    ck_assert_int_eq(headers_named(&r, "Vary"), 1);
    ck_assert(has(&r, "Vary", "Accept"));
    http_reply_free(&r);
    ck_assert_int_eq(daemon_stop(&d), 0);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("listeners");
    TCase *tc = tcase_create("listeners");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_https);
    tcase_add_test(tc, test_bad_tls_files);
    tcase_add_test(tc, test_tls_priorities);
    tcase_add_test(tc, test_expired_certificate);
    tcase_add_test(tc, test_admin_listener);
    tcase_add_test(tc, test_admin_during_drain);
    tcase_add_test(tc, test_cors_headers);
    tcase_add_test(tc, test_cors_off);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
