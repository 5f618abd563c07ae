/* mm.c - MemSpy's blocked matrix multiply (MemSpy,
 * section 3.1, Figure 3.1): Z = Z + X * Y with the loops
 *     for kk (by B) for jj (by B) for i for k in [kk, kk+B) { r = X[i][k];
 *         for j in [jj, jj+B) Z[i][j] += r * Y[k][j]; }
 * so a B x B block of Y is meant to stay in the cache while every row i
 * streams past it.  With the paper's 293 x 293 doubles and B = 56 the block
 * is 25,088 bytes, yet in a 64 KB direct-mapped cache rows k and k+28 of Y
 * are 28 * 2344 = 65,632 bytes apart, 96 bytes from the same cache set: the
 * block knocks itself out of the cache (self-interference), and Y dominates
 * the misses with almost all of its replacements caused by Y itself.
 *
 * The procedure names follow the paper because MemSpy's statistics are per
 * (procedure, data structure): `init_matrices` takes the cold misses (as in
 * the paper, Y is initialised in a separate routine) and `block` the loop
 * nest.  With P processors the rows i are split into bands (the paper's run
 * is sequential: -n 1).  X and Y hold small integers, so the products are
 * exact and the check needs no tolerance.
 *
 * Check (node 0, in `check_result`): every 16th row and the last row of Z
 * exactly against a private product, and the sum of all of Z against
 * sum_k colsum(X)_k * rowsum(Y)_k.
 *
 * Usage: mm [--n=N] [--b=B] [--memspy]   (default 64 / 16; --memspy: the
 * paper's 293 / 56).  Prints "mm: result OK". */
#include <dsm.h>
#include <stdio.h>
#include <stdlib.h>

#include "app_util.h"

typedef struct mm_check { int ok; } mm_check;

APP_LEAF static double x_val(long i, long k) { return (double)((i * 3 + k * 5) % 7) - 2.0; }
APP_LEAF static double y_val(long k, long j) { return (double)((k * 2 + j * 7) % 9) - 3.0; }

/* Rows [lo, hi) of X, Y and Z (the first touch, hence the cold misses). */
__attribute__((noinline)) static void init_matrices(double *x, double *y, double *z, long n,
                                                   long lo, long hi)
{
    for (long i = lo; i < hi; i++)
        for (long j = 0; j < n; j++) {
            x[i * n + j] = x_val(i, j);
            y[i * n + j] = y_val(i, j);
            z[i * n + j] = 0.0;
        }
}

/* Figure 3.1 for rows [lo, hi) of Z (0-based, the bounds as in the paper). */
__attribute__((noinline)) static void block(const double *x, const double *y, double *z, long n,
                                           long b, long lo, long hi)
{
    for (long kk = 0; kk < n; kk += b) {
        long kend = kk + b < n ? kk + b : n;
        for (long jj = 0; jj < n; jj += b) {
            long jend = jj + b < n ? jj + b : n;
            for (long i = lo; i < hi; i++)
                for (long k = kk; k < kend; k++) {
                    double r = x[i * n + k];
                    for (long j = jj; j < jend; j++)
                        z[i * n + j] += r * y[k * n + j];
                }
        }
    }
}

/* Node 0: 0 when Z is right, else prints what differs and returns 1. */
__attribute__((noinline)) static int check_result(const double *z, long n)
{
    double *row = malloc((size_t)n * sizeof *row);
    if (!row) {
        fprintf(stderr, "mm: out of memory for the check\n");
        return 1;
    }
    long bad = 0;
    for (long i = 0; i < n; i = (i + 16 < n || i == n - 1) ? i + 16 : n - 1) {
        for (long j = 0; j < n; j++)
            row[j] = 0.0;
        for (long k = 0; k < n; k++)
            for (long j = 0; j < n; j++)
                row[j] += x_val(i, k) * y_val(k, j);
        for (long j = 0; j < n; j++)
            if (z[i * n + j] != row[j] && bad++ == 0)
                fprintf(stderr, "mm: Z[%ld][%ld] = %.17g, expected %.17g\n", i, j,
                        z[i * n + j], row[j]);
    }
    double want = 0.0, sum = 0.0;
    for (long k = 0; k < n; k++) {
        double colsum_x = 0.0, rowsum_y = 0.0;
        for (long i = 0; i < n; i++) {
            colsum_x += x_val(i, k);
            rowsum_y += y_val(k, i);
        }
        want += colsum_x * rowsum_y;
    }
    for (long t = 0; t < n * n; t++)
        sum += z[t];
    if (sum != want) {
        fprintf(stderr, "mm: the sum of Z is %.17g, expected %.17g\n", sum, want);
        bad++;
    }
    free(row);
    printf("mm: checksum %.0f\n", sum);
    return bad != 0;
}

int main(int argc, char **argv)
{
    if (dsm_init(&argc, &argv) != 0) {
        perror("mm: dsm_init");
        return 1;
    }
    int me = dsm_node(), nprocs = dsm_nodes();
    long n = 64, b = 16;
    app_opt opts[] = {
        { "n", "matrix order", &n, 1, 8192, 293, 0, 0 },
        { "b", "blocking factor", &b, 1, 8192, 56, 0, 0 },
    };
    int parsed = app_parse("mm", argc, argv, opts, 2, "memspy", me);
    if (parsed != 0) {
        dsm_finalize();
        return parsed > 0 ? 0 : 2;
    }
    size_t bytes = (size_t)n * (size_t)n * sizeof(double);
    double *x = dsm_alloc(bytes, "mm.X");
    double *y = dsm_alloc(bytes, "mm.Y");
    double *z = dsm_alloc(bytes, "mm.Z");
    mm_check *chk = dsm_alloc(sizeof *chk, "mm.check");
    if (!x || !y || !z || !chk) {
        fprintf(stderr, "mm: node %d: dsm_alloc of %zu bytes failed\n", me, bytes);
        return 1;
    }
    long lo, hi;
    app_band(n, me, nprocs, &lo, &hi);
    init_matrices(x, y, z, n, lo, hi);
    dsm_barrier();

    dsm_sim_section_begin(); /* the measured section of a simulated run */
    double t0 = dsm_wtime();
    block(x, y, z, n, b, lo, hi);
    dsm_barrier();
    dsm_sim_section_end();
    double elapsed = dsm_wtime() - t0;

    if (me == 0) {
        int bad = check_result(z, n);
        chk->ok = !bad;
        printf("mm: %d procs, %ldx%ld, block %ld, %.3f s\n", nprocs, n, n, b, elapsed);
        printf("mm: result %s\n", bad ? "WRONG" : "OK");
        fflush(stdout);
    }
    dsm_barrier(); /* node 0's verdict is in chk->ok */
    int good = chk->ok;
    dsm_finalize();
    return good ? 0 : 1;
}
