/* data.c - walking the public test data. */
#include "data.h"

#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client.h"

#define DATA_DIR "tests/data"

int data_each_case(data_case_fn fn)
{
#define GAME(ident, url_name) url_name,
    static const char *const games[] = {
#include "games.def"
    };
#undef GAME
    int count = 0;
    for (size_t g = 0; g < sizeof games / sizeof games[0]; g++) {
        char dir[256];
        snprintf(dir, sizeof dir, "%s/%s", DATA_DIR, games[g]);
        DIR *d = opendir(dir);
        ck_assert_msg(d != NULL, "missing %s", dir);
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            size_t n = strlen(e->d_name);
            if (n < 4 || strcmp(e->d_name + n - 3, ".in") != 0)
                continue;
            char in_path[512], out_path[512];
            snprintf(in_path, sizeof in_path, "%s/%s", dir, e->d_name);
            snprintf(out_path, sizeof out_path, "%s/%.*s.out", dir, (int)(n - 3), e->d_name);
            size_t in_len;
            char *in = read_file_or_fail(in_path, &in_len);
            char *out = read_file_or_fail(out_path, NULL);
            fn(games[g], in, in_len, out);
            free(in);
            free(out);
            count++;
        }
        closedir(d);
    }
    return count;
}
