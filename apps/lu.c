/* lu.c - blocked LU factorisation without pivoting, in the manner of
 * SPLASH-2's LU kernel (the non-contiguous variant: one row-major matrix).
 *
 * The n x n matrix is cut into B x B blocks, dealt to the processors in a 2-D
 * scatter (round robin over a pr x pc processor grid in both dimensions), so
 * every processor keeps work until the end.  For each diagonal block K:
 *   1. its owner factors it (A_KK = L_KK U_KK);                     barrier
 *   2. owners of the perimeter blocks solve: row K (U_KJ = L_KK^-1 A_KJ) and
 *      column K (L_IK = A_IK U_KK^-1);                              barrier
 *   3. owners of the interior blocks update A_IJ -= L_IK U_KJ;      barrier
 * The perimeter blocks are read by every processor of the block's row or
 * column of the grid (producer-consumer sharing); rows of different blocks
 * share lines at block edges when B doubles are not a multiple of a line.
 *
 * The matrix is diagonally dominant (random entries in [0,1) plus n on the
 * diagonal), so no pivoting is needed.  Check: node 0 recomputes (L*U)[i][j]
 * from the factors and compares with A, regenerated from its hash: at every
 * position up to n = 256, above that at samples (the corners, the diagonal
 * and 256 hashed positions).
 *
 * Usage: lu [--n=N] [--b=B] [--paper] [--daxpy-calls=0|1]   (default 128 /
 * 16; --paper: the FlashPoint paper's 512 / 16; --daxpy-calls: 1 (default)
 * the block loops call daxpy per row segment as SPLASH-2's LU, 0 inline).
 * Prints "lu: result OK". */
#include <dsm.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "app_util.h"

typedef struct lu_check { int ok; } lu_check;

APP_LEAF static double a_val(long i, long j, long n)
{
    return app_unit((uint64_t)i * (uint64_t)n + (uint64_t)j) + (i == j ? (double)n : 0.0);
}

/* The processor grid: pr rows, pc columns, pr the largest divisor of P not
 * above sqrt(P). */
typedef struct lu_grid { long pr, pc; } lu_grid;

APP_LEAF static int owner(lu_grid g, long bi, long bj) { return (int)((bi % g.pr) * g.pc + bj % g.pc); }

/* Factor the diagonal block rows/columns [k0, k1) in place. */
/* dst[0..len) += alpha src[0..len): SPLASH-2's LU does every block
 * operation's innermost loop as a call of its daxpy procedure, so FP-Proc
 * pays a procedure command at each call and return (the FlashPoint paper's
 * LU overhead, Figure 5).  --daxpy-calls=0 runs the loops inline. */
static long daxpy_calls = 1;

__attribute__((noinline)) static void daxpy(double *dst, const double *src, long len,
                                            double alpha)
{
    for (long j = 0; j < len; j++)
        dst[j] += alpha * src[j];
}

/* row[j0..j1) -= l * krow[j0..j1), through daxpy or inline */
static inline void row_update(double *row, const double *krow, long j0, long j1, double l)
{
    if (daxpy_calls) {
        daxpy(&row[j0], &krow[j0], j1 - j0, -l);
        return;
    }
    for (long j = j0; j < j1; j++)
        row[j] -= l * krow[j];
}

static void factor_diagonal(double *a, long n, long k0, long k1)
{
    for (long k = k0; k < k1; k++)
        for (long i = k + 1; i < k1; i++) {
            double l = a[i * n + k] /= a[k * n + k];
            row_update(&a[i * n], &a[k * n], k + 1, k1, l);
        }
}

/* Row K: columns [j0, j1) of rows [k0, k1) become U_KJ = L_KK^-1 A_KJ
 * (forward substitution with the unit lower triangle). */
static void solve_row_block(double *a, long n, long k0, long k1, long j0, long j1)
{
    for (long i = k0; i < k1; i++)
        for (long k = k0; k < i; k++)
            row_update(&a[i * n], &a[k * n], j0, j1, a[i * n + k]);
}

/* Column K: rows [i0, i1) of columns [k0, k1) become L_IK = A_IK U_KK^-1. */
static void solve_column_block(double *a, long n, long k0, long k1, long i0, long i1)
{
    for (long i = i0; i < i1; i++)
        for (long k = k0; k < k1; k++) {
            double v = a[i * n + k];
            for (long m = k0; m < k; m++)
                v -= a[i * n + m] * a[m * n + k];
            a[i * n + k] = v / a[k * n + k];
        }
}

/* Interior: A_IJ -= L_IK U_KJ for rows [i0, i1), columns [j0, j1). */
static void update_interior(double *a, long n, long k0, long k1, long i0, long i1, long j0,
                            long j1)
{
    for (long i = i0; i < i1; i++)
        for (long k = k0; k < k1; k++)
            row_update(&a[i * n], &a[k * n], j0, j1, a[i * n + k]);
}

static void lu_factor(double *a, long n, long b, lu_grid g, int me)
{
    long nb = (n + b - 1) / b;
    for (long kb = 0; kb < nb; kb++) {
        long k0 = kb * b, k1 = k0 + b < n ? k0 + b : n;
        if (owner(g, kb, kb) == me)
            factor_diagonal(a, n, k0, k1);
        dsm_barrier();
        for (long xb = kb + 1; xb < nb; xb++) {
            long x0 = xb * b, x1 = x0 + b < n ? x0 + b : n;
            if (owner(g, kb, xb) == me)
                solve_row_block(a, n, k0, k1, x0, x1);
            if (owner(g, xb, kb) == me)
                solve_column_block(a, n, k0, k1, x0, x1);
        }
        dsm_barrier();
        for (long ib = kb + 1; ib < nb; ib++)
            for (long jb = kb + 1; jb < nb; jb++)
                if (owner(g, ib, jb) == me) {
                    long i0 = ib * b, i1 = i0 + b < n ? i0 + b : n;
                    long j0 = jb * b, j1 = j0 + b < n ? j0 + b : n;
                    update_interior(a, n, k0, k1, i0, i1, j0, j1);
                }
        dsm_barrier();
    }
}

/* (L*U)[i][j] from the factored matrix: L unit lower, U upper. */
static double lu_product(const double *a, long n, long i, long j)
{
    long m = i < j ? i : j;
    double s = 0.0;
    for (long k = 0; k < m; k++)
        s += a[i * n + k] * a[k * n + j];
    return s + (i <= j ? a[i * n + j] : a[i * n + j] * a[j * n + j]);
}

int main(int argc, char **argv)
{
    if (dsm_init(&argc, &argv) != 0) {
        perror("lu: dsm_init");
        return 1;
    }
    int me = dsm_node(), nprocs = dsm_nodes();
    long n = 128, b = 16;
    app_opt opts[] = {
        { "n", "matrix order", &n, 1, 16384, 512, 0, 0 },
        { "b", "block size", &b, 1, 4096, 16, 0, 0 },
        { "daxpy-calls", "1: block loops call a daxpy procedure (SPLASH-2), 0: inline",
          &daxpy_calls, 0, 1, 1, 0, 0 },
    };
    int parsed = app_parse("lu", argc, argv, opts, 3, "paper", me);
    if (parsed != 0) {
        dsm_finalize();
        return parsed > 0 ? 0 : 2;
    }
    size_t bytes = (size_t)n * (size_t)n * sizeof(double);
    double *a = dsm_alloc(bytes, "lu.a");
    lu_check *chk = dsm_alloc(sizeof *chk, "lu.check");
    if (!a || !chk) {
        fprintf(stderr, "lu: node %d: dsm_alloc of %zu bytes failed\n", me, bytes);
        return 1;
    }
    lu_grid g = { 1, nprocs };
    for (long d = 1; d * d <= nprocs; d++)
        if (nprocs % d == 0)
            g.pr = d;
    g.pc = nprocs / g.pr;

    /* Each processor fills its own blocks, so their pages start at home. */
    long nb = (n + b - 1) / b;
    for (long ib = 0; ib < nb; ib++)
        for (long jb = 0; jb < nb; jb++)
            if (owner(g, ib, jb) == me)
                for (long i = ib * b; i < n && i < (ib + 1) * b; i++)
                    for (long j = jb * b; j < n && j < (jb + 1) * b; j++)
                        a[i * n + j] = a_val(i, j, n);
    dsm_barrier();

    dsm_sim_section_begin(); /* the measured section of a simulated run */
    double t0 = dsm_wtime();
    lu_factor(a, n, b, g, me);
    dsm_sim_section_end();
    double elapsed = dsm_wtime() - t0;

    if (me == 0) {
        /* Every position up to FULL_CHECK_MAX (a perturbed update shows at
         * its own position only: backward error), samples above it. */
        enum { FULL_CHECK_MAX = 256 };
        int full = n <= FULL_CHECK_MAX;
        long nchecks = full ? n * n : 256 + 4 + n;
        long bad = 0, samples = 0, fi = 0, fj = 0;
        double worst = 0.0;
        for (long s = 0; s < nchecks; s++) {
            long i, j;
            if (full) {
                i = s / n;
                j = s % n;
            } else if (s < 256) {
                i = (long)(app_mix64(77 + (uint64_t)s) % (uint64_t)n);
                j = (long)(app_mix64(999 + (uint64_t)s) % (uint64_t)n);
            } else if (s < 260) {
                i = (s & 1) ? n - 1 : 0;
                j = (s & 2) ? n - 1 : 0;
            } else {
                i = j = s - 260;
            }
            double want = a_val(i, j, n), got = lu_product(a, n, i, j);
            /* relative to the row's scale (n on the diagonal) */
            double err = fabs(got - want) / (double)n;
            samples++;
            if (err > worst)
                worst = err;
            if (!(err <= 1e-10) && bad++ == 0) {
                fi = i;
                fj = j;
            }
        }
        if (bad)
            fprintf(stderr, "lu: %ld of %ld checked positions of L*U differ from A, first (%ld,%ld): %.17g vs %.17g\n",
                    bad, samples, fi, fj, lu_product(a, n, fi, fj), a_val(fi, fj, n));
        chk->ok = bad == 0;
        printf("lu: %d procs (%ldx%ld grid), %ldx%ld, block %ld, %ld %s checked, max error %.2e, %.3f s\n",
               nprocs, g.pr, g.pc, n, n, b, samples, full ? "positions (all)" : "samples", worst,
               elapsed);
        printf("lu: result %s\n", bad ? "WRONG" : "OK");
        fflush(stdout);
    }
    dsm_barrier(); /* node 0's verdict is in chk->ok */
    int good = chk->ok;
    dsm_finalize();
    return good ? 0 : 1;
}
