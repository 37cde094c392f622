/* gen.c - benchmark inputs for the five games, from a fixed seed.
 *
 *   gen matrix N K SEED [json]        a random permutation of 1..N^2
 *   gen grid ROWS COLS PERMILLE SEED  '#' with the given chance per mille
 *   gen gridlayout KIND ROWS COLS PERMILLE SEED   a structured grid, KIND one of
 *       maze      a binary-tree maze (rooms on odd cells), each other wall
 *                 knocked out with the chance per mille
 *       snake     one serpentine corridor three cells wide, holes per mille
 *       domino    brick-laid dominoes, each removed (both cells '#') per mille
 *       colour    only cells of one chessboard colour blocked, per mille
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

/* One cell of a structured grid (see the top of the file); -1 for an unknown kind. */
static int layout_cell(const char *kind, long r, long c, long rows, long cols, long permille)
{
    int hole = below(1000) < (uint64_t)permille;
    if (strcmp(kind, "maze") == 0) {
        if (r % 2 == 1 && c % 2 == 1)
            return 1; /* a room */
        if (r % 2 == 0 && c % 2 == 0)
            return 0; /* a pillar */
        return hole;  /* a wall; binary_tree_maze() carves the passages */
    }
    if (strcmp(kind, "snake") == 0) {
        long band = r / 4;
        int gap = band % 2 ? c == 0 : c == cols - 1;
        if (r % 4 == 3 && r + 1 < rows && !gap)
            return 0;
        return !hole;
    }
    if (strcmp(kind, "colour") == 0)
        return (r + c) % 2 != 0 || !hole;
    if (strcmp(kind, "domino") == 0)
        return 1; /* domino_holes() removes the pairs */
    return -1;
}

/* Each maze room opens north or west (either, where both exist). */
static void binary_tree_maze(char *g, long rows, long cols)
{
    for (long r = 1; r < rows; r += 2)
        for (long c = 1; c < cols; c += 2) {
            int north = r >= 2, west = c >= 2;
            if (north && (!west || below(2)))
                g[(r - 1) * cols + c] = '.';
            else if (west)
                g[r * cols + c - 1] = '.';
        }
}

/* Brick-laid horizontal dominoes, each taken out with the chance per mille. */
static void domino_holes(char *g, long rows, long cols, long permille)
{
    for (long r = 0; r < rows; r++)
        for (long c = r % 2; c + 1 < cols; c += 2)
            if (below(1000) < (uint64_t)permille)
                g[r * cols + c] = g[r * cols + c + 1] = '#';
}

static int grid_layout(const char *kind, long rows, long cols, long permille)
{
    char *g = malloc((size_t)(rows * cols));
    if (g == NULL)
        return 1;
    for (long r = 0; r < rows; r++)
        for (long c = 0; c < cols; c++) {
            int free_cell = layout_cell(kind, r, c, rows, cols, permille);
            if (free_cell < 0) {
                free(g);
                return 2;
            }
            g[r * cols + c] = free_cell ? '.' : '#';
        }
    if (strcmp(kind, "maze") == 0)
        binary_tree_maze(g, rows, cols);
    if (strcmp(kind, "domino") == 0)
        domino_holes(g, rows, cols, permille);
    printf("%ld %ld\n", rows, cols);
    for (long r = 0; r < rows; r++) {
        fwrite(g + r * cols, 1, (size_t)cols, stdout);
        putchar('\n');
    }
    free(g);
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
    } else if (strcmp(what, "gridlayout") == 0 && argc == 7) {
        state = (uint64_t)arg(argv, 6);
        rc = grid_layout(argv[2], arg(argv, 3), arg(argv, 4), arg(argv, 5));
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
