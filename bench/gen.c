/* gen.c - benchmark inputs for the five games, from a fixed seed.
 *
 *   gen matrix N K SEED [json]        a random permutation of 1..N^2
 *   gen grid ROWS COLS PERMILLE SEED  '#' with the given chance per mille
 *   gen nim N M MAXCOORD SEED         N distinct shortcuts, M queries, values < MAXCOORD
 *   gen chocolate N PERMILLE PARITY SEED   'X' per mille; PARITY odd|even|any
 *   gen chess N M SEED                two N x M matrices of 0..100000
 *
 * The same arguments always give the same bytes (splitmix64, no libc rand),
 * so every run of the benchmark measures the same inputs.  Output goes
 * through one large stdio buffer: the generator is not what is measured. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t state;

static uint64_t next(void)
{
    uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* Uniform in [0, n); the modulo bias is irrelevant for a benchmark. */
static uint64_t below(uint64_t n)
{
    return next() % n;
}

static long arg(char **argv, int i)
{
    return strtol(argv[i], NULL, 10);
}

static int matrix(long n, long k, int json)
{
    long nn = n * n;
    uint32_t *v = malloc((size_t)nn * sizeof *v);
    if (v == NULL)
        return 1;
    for (long i = 0; i < nn; i++)
        v[i] = (uint32_t)(i + 1);
    for (long i = nn - 1; i > 0; i--) {
        long j = (long)below((uint64_t)i + 1);
        uint32_t t = v[i];
        v[i] = v[j];
        v[j] = t;
    }
    if (json)
        printf("{\"k\": %ld, \"matrix\": [", k);
    else
        printf("%ld %ld\n", n, k);
    for (long i = 0; i < n; i++) {
        if (json)
            fputs(i ? ",[" : "[", stdout);
        for (long j = 0; j < n; j++) {
            const char *sep = json ? "," : " ";
            printf("%s%u", j ? sep : "", v[i * n + j]);
        }
        fputs(json ? "]" : "\n", stdout);
    }
    if (json)
        puts("]}");
    free(v);
    return 0;
}

static int grid(long rows, long cols, long permille)
{
    printf("%ld %ld\n", rows, cols);
    for (long i = 0; i < rows; i++) {
        for (long j = 0; j < cols; j++)
            putchar(below(1000) < (uint64_t)permille ? '#' : '.');
        putchar('\n');
    }
    return 0;
}

/* Distinctness through an open-addressing set of packed pairs. */
static int insert(uint64_t *set, uint64_t mask, uint64_t key)
{
    uint64_t h = (key * 0x9e3779b97f4a7c15ULL) & mask;
    while (set[h] != 0) {
        if (set[h] == key + 1)
            return 0;
        h = (h + 1) & mask;
    }
    set[h] = key + 1;
    return 1;
}

static int nim(long n, long m, long max)
{
    uint64_t size = 1;
    while (size < 2 * (uint64_t)n + 2)
        size *= 2;
    uint64_t *set = calloc(size, sizeof *set);
    if (set == NULL || (double)n > (double)max * (double)max / 2)
        return 1;
    printf("%ld %ld\n", n, m);
    for (long i = 0; i < n;) {
        uint64_t x = below((uint64_t)max), y = below((uint64_t)max);
        if (insert(set, size - 1, x << 32 | y)) {
            printf("%llu %llu\n", (unsigned long long)x, (unsigned long long)y);
            i++;
        }
    }
    for (long i = 0; i < m; i++) {
        /* A quarter near the diagonal, where the losing positions are. */
        uint64_t a = below((uint64_t)max), b = below((uint64_t)max);
        if (i % 4 == 0) {
            uint64_t d = below(2 * (uint64_t)n + 1);
            b = a + d >= (uint64_t)n ? a + d - (uint64_t)n : a;
            if (b >= (uint64_t)max)
                b = a;
        }
        printf("%llu %llu\n", (unsigned long long)a, (unsigned long long)b);
    }
    free(set);
    return 0;
}

static int chocolate(long n, long permille, const char *parity)
{
    char *g = malloc((size_t)(n * n));
    long pieces = 0;
    if (g == NULL)
        return 1;
    for (long i = 0; i < n * n; i++) {
        g[i] = below(1000) < (uint64_t)permille ? 'X' : '-';
        pieces += g[i] == '-';
    }
    int want = strcmp(parity, "odd") == 0 ? 1 : strcmp(parity, "even") == 0 ? 0 : -1;
    if (want >= 0 && pieces % 2 != want) /* flip the last cell to fix the parity */
        g[n * n - 1] = g[n * n - 1] == '-' ? 'X' : '-';
    printf("%ld\n", n);
    for (long i = 0; i < n; i++) {
        fwrite(g + i * n, 1, (size_t)n, stdout);
        putchar('\n');
    }
    free(g);
    return 0;
}

static int chess(long n, long m)
{
    printf("%ld %ld\n", n, m);
    for (int t = 0; t < 2; t++)
        for (long i = 0; i < n; i++)
            for (long j = 0; j < m; j++)
                printf("%llu%c", (unsigned long long)below(100001), j + 1 < m ? ' ' : '\n');
    return 0;
}

int main(int argc, char **argv)
{
    static char out[1 << 20];
    setvbuf(stdout, out, _IOFBF, sizeof out);
    const char *what = argc > 1 ? argv[1] : "";
    int rc = 2;
    if (strcmp(what, "matrix") == 0 && argc >= 5) {
        state = (uint64_t)arg(argv, 4);
        rc = matrix(arg(argv, 2), arg(argv, 3), argc > 5 && strcmp(argv[5], "json") == 0);
    } else if (strcmp(what, "grid") == 0 && argc == 6) {
        state = (uint64_t)arg(argv, 5);
        rc = grid(arg(argv, 2), arg(argv, 3), arg(argv, 4));
    } else if (strcmp(what, "nim") == 0 && argc == 6) {
        state = (uint64_t)arg(argv, 5);
        rc = nim(arg(argv, 2), arg(argv, 3), arg(argv, 4));
    } else if (strcmp(what, "chocolate") == 0 && argc == 6) {
        state = (uint64_t)arg(argv, 5);
        rc = chocolate(arg(argv, 2), arg(argv, 3), argv[4]);
    } else if (strcmp(what, "chess") == 0 && argc == 5) {
        state = (uint64_t)arg(argv, 4);
        rc = chess(arg(argv, 2), arg(argv, 3));
    }
    if (rc == 2)
        fputs("usage: see the comment at the top of bench/gen.c\n", stderr);
    return rc;
}
