/* test_client_id.c - who the client is: trusted-proxy lists (addresses,
 * CIDR blocks, IPv6, bad items named), X-Forwarded-For read only from a
 * trusted peer and walked from the right, canonical names; and the API
 * keys file (format errors by line, never echoing a key) with its
 * look-up. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "api_keys.h"
#include "client_id.h"

/* The client for peer and xff behind the proxies in `list`. */
static const char *who(const char *list, const char *peer, const char *xff)
{
    static char out[64];
    proxy_list l = {NULL, 0};
    gj_error e;
    ck_assert_int_eq(proxies_parse(list, "--trusted-proxies", &l, &e), 0);
    client_address(&l, peer, xff, out, sizeof out);
    proxies_free(&l);
    return out;
}

START_TEST(test_untrusted_peer_ignores_the_header)
{
    ck_assert_str_eq(who("", "127.0.0.2", "198.51.100.7"), "127.0.0.2");
    ck_assert_str_eq(who("10.0.0.0/8", "127.0.0.2", "198.51.100.7"), "127.0.0.2");
    ck_assert_str_eq(who("127.0.0.5", "127.0.0.2", "198.51.100.7"), "127.0.0.2");
}
END_TEST

START_TEST(test_trusted_peer_right_most_untrusted)
{
    ck_assert_str_eq(who("127.0.0.5", "127.0.0.5", "198.51.100.7"), "198.51.100.7");
    /* a spoofed left part: the proxy appended the real client last */
    ck_assert_str_eq(who("127.0.0.5", "127.0.0.5", "1.2.3.4, 198.51.100.7"), "198.51.100.7");
    /* a chain of trusted proxies is skipped */
    ck_assert_str_eq(who("127.0.0.0/24,10.1.0.0/16", "127.0.0.5",
                         "203.0.113.9,198.51.100.7, 10.1.2.3 ,127.0.0.8"),
                     "198.51.100.7");
    /* every hop trusted: the left-most */
    ck_assert_str_eq(who("127.0.0.0/8", "127.0.0.5", "127.0.0.9, 127.0.0.8"), "127.0.0.9");
    /* no header, or an empty one: the proxy itself */
    ck_assert_str_eq(who("127.0.0.5", "127.0.0.5", NULL), "127.0.0.5");
    ck_assert_str_eq(who("127.0.0.5", "127.0.0.5", " , "), "127.0.0.5");
    /* garbage stops the walk at the last trusted hop */
    ck_assert_str_eq(who("127.0.0.0/8", "127.0.0.5", "198.51.100.7, bogus, 127.0.0.8"),
                     "127.0.0.8");
}
END_TEST

/* Hops with ports, as proxies write them, name the address; a malformed
 * port is garbage and stops the walk. */
START_TEST(test_hops_with_ports)
{
    ck_assert_str_eq(who("127.0.0.5", "127.0.0.5", "198.51.100.7:4711"), "198.51.100.7");
    ck_assert_str_eq(who("127.0.0.5", "127.0.0.5", "1.2.3.4:80"), "1.2.3.4");
    ck_assert_str_eq(who("127.0.0.5", "127.0.0.5", "[2001:db8::1]:443"), "2001:db8::1");
    ck_assert_str_eq(who("127.0.0.5", "127.0.0.5", "[2001:DB8::1]"), "2001:db8::1");
    ck_assert_str_eq(who("127.0.0.5", "127.0.0.5", "2001:db8::1"), "2001:db8::1");
    ck_assert_str_eq(who("127.0.0.5", "127.0.0.5", "1.2.3.4:"), "127.0.0.5");
    ck_assert_str_eq(who("127.0.0.5", "127.0.0.5", "1.2.3.4:8x"), "127.0.0.5");
    ck_assert_str_eq(who("127.0.0.5", "127.0.0.5", "[2001:db8::1]443"), "127.0.0.5");
    ck_assert_str_eq(who("127.0.0.5", "127.0.0.5", "[2001:db8::1"), "127.0.0.5");
    ck_assert_str_eq(who("127.0.0.5", "127.0.0.5", "[1.2.3.4]:80"), "1.2.3.4");
}
END_TEST

/* forwarded_for's list for one Forwarded value. */
static const char *forwarded(const char *value)
{
    static char out[256];
    gj_buf b;
    buf_init(&b);
    forwarded_for(value, &b);
    buf_putc(&b, '\0');
    ck_assert(!b.failed);
    snprintf(out, sizeof out, "%s", b.data);
    buf_free(&b);
    return out;
}

/* RFC 7239: every element's for= node, unquoted, in order; no node is
 * "unknown", which client_address does not take for an address. */
START_TEST(test_forwarded_header)
{
    ck_assert_str_eq(forwarded("for=192.0.2.60;proto=http;by=203.0.113.43"), "192.0.2.60");
    ck_assert_str_eq(forwarded("For=\"[2001:db8:cafe::17]:4711\""), "[2001:db8:cafe::17]:4711");
    ck_assert_str_eq(forwarded("for=192.0.2.43, for=198.51.100.17"), "192.0.2.43,198.51.100.17");
    ck_assert_str_eq(forwarded("proto=https, for=198.51.100.17 ; by=x"), "unknown,198.51.100.17");
    ck_assert_str_eq(forwarded("for=\"_hidden\", for=unknown"), "_hidden,unknown");
    ck_assert_str_eq(forwarded("for=\"a,b\";by=c"), "a,b");
    ck_assert_str_eq(who("127.0.0.5", "127.0.0.5", forwarded("for=\"[2001:db8::7]:80\"")),
                     "2001:db8::7");
    ck_assert_str_eq(who("127.0.0.5", "127.0.0.5", forwarded("for=198.51.100.7;proto=http")),
                     "198.51.100.7");
    ck_assert_str_eq(who("127.0.0.5", "127.0.0.5", forwarded("for=_x, for=198.51.100.7")),
                     "198.51.100.7");
    ck_assert_str_eq(who("127.0.0.5", "127.0.0.5", forwarded("by=1.2.3.4")), "127.0.0.5");
}
END_TEST

START_TEST(test_ipv6_and_canonical_names)
{
    ck_assert_str_eq(who("::1", "::1", "2001:DB8:0:0::7"), "2001:db8::7");
    ck_assert_str_eq(who("2001:db8::/32", "2001:db8:1::1", "::ffff:198.51.100.7"), "198.51.100.7");
    ck_assert_str_eq(who("127.0.0.1", "::ffff:127.0.0.1", "198.51.100.7"), "198.51.100.7");
    ck_assert_str_eq(who("", "::ffff:127.0.0.2", NULL), "127.0.0.2");
    char out[64];
    ck_assert_int_eq(client_address_canonical("0:0::1", out, sizeof out), 0);
    ck_assert_str_eq(out, "::1");
    ck_assert_int_eq(client_address_canonical("nope", out, sizeof out), -1);
}
END_TEST

START_TEST(test_cidr_edges)
{
    proxy_list l;
    gj_error e;
    ck_assert_int_eq(proxies_parse("192.0.2.128/25, 0.0.0.0/0x", "X", NULL, &e), -1);
    ck_assert_int_eq(proxies_parse("192.0.2.128/25", "X", &l, &e), 0);
    ck_assert(proxies_contain(&l, "192.0.2.128"));
    ck_assert(proxies_contain(&l, "192.0.2.255"));
    ck_assert(!proxies_contain(&l, "192.0.2.127"));
    ck_assert(!proxies_contain(&l, "::1"));
    proxies_free(&l);
    ck_assert_int_eq(proxies_parse("0.0.0.0/0", "X", &l, &e), 0);
    ck_assert(proxies_contain(&l, "203.0.113.1"));
    proxies_free(&l);
}
END_TEST

static const struct {
    const char *list, *message;
} bad_lists[] = {
    {"10.0.0.0/33", "--trusted-proxies: '10.0.0.0/33' is not an IP address or CIDR block"},
    {"10.0.0.1,localhost", "--trusted-proxies: 'localhost' is not an IP address"},
    {"::1/129", "--trusted-proxies: '::1/129' is not"},
    {"10.0.0.0/", "--trusted-proxies: '10.0.0.0/' is not"},
    {"10.0.0.256", "--trusted-proxies: '10.0.0.256' is not"},
};

START_TEST(test_bad_lists)
{
    gj_error e;
    ck_assert_int_eq(proxies_parse(bad_lists[_i].list, "--trusted-proxies", NULL, &e), -1);
    ck_assert_msg(strncmp(e.message, bad_lists[_i].message, strlen(bad_lists[_i].message)) == 0,
                  "got '%s'", e.message);
}
END_TEST

static const char keys_file[] = "# gamejudge API keys\n"
                                "\n"
                                "k3y-for-the-puzzle-site 50 2000\r\n"
                                "  another.key_with~all+chars/= 1 5  \n"
                                "# the end\n";

START_TEST(test_keys_parse_and_find)
{
    gj_error e;
    gj_api_keys *k = api_keys_parse(keys_file, sizeof keys_file - 1, "keys.txt", &e);
    ck_assert_ptr_nonnull(k);
    ck_assert_uint_eq(api_keys_count(k), 2);
    double rate = 0, burst = 0;
    ck_assert_int_eq(api_keys_find(k, "k3y-for-the-puzzle-site", &rate, &burst), 0);
    ck_assert(rate == 50 && burst == 2000);
    ck_assert_int_eq(api_keys_find(k, "another.key_with~all+chars/=", &rate, &burst), 1);
    ck_assert(rate == 1 && burst == 5);
    ck_assert_int_eq(api_keys_find(k, "k3y-for-the-puzzle-sitE", &rate, &burst), -1);
    ck_assert_int_eq(api_keys_find(k, "k3y-for-the-puzzle-sit", &rate, &burst), -1);
    /* Blanks around a header value are not part of it: one rule for both ends. */
    ck_assert_int_eq(api_keys_find(k, "k3y-for-the-puzzle-site \t", &rate, &burst), 0);
    ck_assert_int_eq(api_keys_find(k, "  k3y-for-the-puzzle-site", &rate, &burst), 0);
    ck_assert_int_eq(api_keys_find(k, "k3y-for-the puzzle-site", &rate, &burst), -1);
    ck_assert_int_eq(api_keys_find(k, " \t ", &rate, &burst), -1);
    ck_assert_int_eq(api_keys_find(k, "", &rate, &burst), -1);
    char huge[400];
    memset(huge, 'a', sizeof huge - 1);
    huge[sizeof huge - 1] = '\0';
    ck_assert_int_eq(api_keys_find(k, huge, &rate, &burst), -1);
    api_keys_free(k);
}
END_TEST

static const struct {
    const char *text, *message;
} bad_keys[] = {
    {"short 1 1\n", "keys.txt line 1: a key must be 16 to 128 bytes, not 5"},
    {"\n# c\nabcdefghijklmnopq 1\n", "keys.txt line 3: expected 'KEY RATE_MS BURST_MS'"},
    {"abcdefghijklmnopq 1 2 3\n", "keys.txt line 1: expected 'KEY RATE_MS BURST_MS'"},
    {"abcdefghijklmnopq 0 2\n", "keys.txt line 1: RATE_MS and BURST_MS must be whole numbers"},
    {"abcdefghijklmnopq 1 2x\n", "keys.txt line 1: RATE_MS and BURST_MS must be whole numbers"},
    {"abcdefghij\"klmnopq 1 2\n", "keys.txt line 1: a key may hold only letters, digits and "
                                  "-._~+/= (byte 11 is not one)"},
    {"abcdefghijklmnopq 1 2\nabcdefghijklmnopq 3 4\n", "keys.txt line 2: the same key as key#1"},
    {"# nothing\n", "keys.txt: no key in the file"},
};

START_TEST(test_bad_key_files)
{
    gj_error e;
    const char *t = bad_keys[_i].text;
    ck_assert_ptr_null(api_keys_parse(t, strlen(t), "keys.txt", &e));
    ck_assert_msg(strncmp(e.message, bad_keys[_i].message, strlen(bad_keys[_i].message)) == 0,
                  "got '%s'", e.message);
    ck_assert_ptr_null(strstr(e.message, "abcdefghij")); /* a key is never echoed */
}
END_TEST

START_TEST(test_keys_file_missing)
{
    gj_error e;
    ck_assert_ptr_null(api_keys_load("/nonexistent/keys.txt", &e));
    ck_assert_ptr_nonnull(strstr(e.message, "--api-keys: cannot read '/nonexistent/keys.txt'"));
}
END_TEST

/* One Check test case per test, so a timeout or a crash names its test. */
static Suite *client_id_suite(void)
{
    const harness_case cases[] = {
        {"client_id", test_untrusted_peer_ignores_the_header},
        {"client_id", test_trusted_peer_right_most_untrusted},
        {"client_id", test_ipv6_and_canonical_names},
        {"client_id", test_hops_with_ports},
        {"client_id", test_forwarded_header},
        {"client_id", test_cidr_edges},
        {"api_keys", test_keys_parse_and_find},
        {"api_keys", test_keys_file_missing},
    };
    Suite *s = harness_suite("client_id", cases, sizeof cases / sizeof cases[0], 0);
    harness_add_loop(s, "client_id", test_bad_lists, (int)(sizeof bad_lists / sizeof bad_lists[0]),
                     0);
    harness_add_loop(s, "api_keys", test_bad_key_files, (int)(sizeof bad_keys / sizeof bad_keys[0]),
                     0);
    return s;
}

int main(void)
{
    return harness_main(client_id_suite());
}
