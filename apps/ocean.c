/* ocean.c - a stencil in the spirit of SPLASH-2's OCEAN: red-black
 * Gauss-Seidel relaxation of a Poisson equation (laplacian(u) = f) on a 2-D
 * grid, the kernel OCEAN spends its time in.
 *
 * The (n+2) x (n+2) grid has a fixed boundary; the interior rows are split
 * into one contiguous band per processor.  Each iteration:
 *   red sweep (points with i+j even) over my rows;                 barrier
 *   black sweep over my rows, summing |change| over both sweeps;
 *   the sum is added to the iteration's global value under lock 0 (OCEAN's
 *   per-iteration error reduction);                                 barrier
 * Only the rows next to a band edge are communicated (nearest-neighbour
 * sharing), plus the contended reduction variable.  With --tol the loop stops
 * when the global sum of changes falls below TOL * n^2 (all processors read
 * the same reduced value, so they stop together).
 *
 * Red-black ordering makes the result independent of the partition: each
 * point is computed from the same neighbour values in the same order.  Check:
 * node 0 repeats the iterations privately and requires the grid equal bit for
 * bit, and each iteration's reduced sum equal to 1e-9 (the order of the
 * additions differs); it also reports the final residual.
 *
 * Usage: ocean [--n=N] [--iters=K] [--tol=T] [--paper]
 *   N x N interior (default 64), K iterations (default 20), stop early when
 *   the mean change per point < 10^-T (default 0: never).  --paper: the
 *   FlashPoint paper's 258 x 258 grid (n = 256), 100 iterations.
 *   Prints "ocean: result OK". */
#include <dsm.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "app_util.h"

typedef struct ocean_check {
    long iterations;   /* done (all processors agree) */
    double residual;   /* sum of squared residuals, reduced under lock 0 */
    int ok;
} ocean_check;

APP_LEAF static double boundary_value(long i, long j, long w)
{
    if (i == 0)
        return sin(M_PI * (double)j / (double)(w - 1));
    if (j == w - 1)
        return 0.5;
    return 0.0;
}

APP_LEAF static double source_term(long i, long j) { return 4.0 * app_unit((uint64_t)(i * 65537 + j)) - 2.0; }

/* Rows [lo, hi) of the grid u and the source f; rows 0 and w-1 are boundary. */
static void init_rows(double *u, double *f, long n, long lo, long hi)
{
    long w = n + 2;
    for (long i = lo; i < hi; i++)
        for (long j = 0; j < w; j++) {
            int edge = i == 0 || i == w - 1 || j == 0 || j == w - 1;
            u[i * w + j] = edge ? boundary_value(i, j, w) : 0.0;
            f[i * w + j] = edge ? 0.0 : source_term(i, j);
        }
}

/* One colour (0 red, 1 black) over interior rows [lo, hi); returns the sum
 * of |change|.  Shared and private runs both call this. */
static double sweep(double *u, const double *f, long n, long lo, long hi, int colour)
{
    long w = n + 2;
    double h2 = 1.0 / ((double)(n + 1) * (double)(n + 1)), change = 0.0;
    for (long i = lo; i < hi; i++)
        for (long j = 1 + ((i + 1 + colour) & 1); j <= n; j += 2) {
            double *p = &u[i * w + j];
            double v = 0.25 * (p[-w] + p[w] + p[-1] + p[1] - h2 * f[i * w + j]);
            change += fabs(v - *p);
            *p = v;
        }
    return change;
}

/* Sum of squared residuals of laplacian(u) = f over interior rows [lo, hi). */
static double residual(const double *u, const double *f, long n, long lo, long hi)
{
    long w = n + 2;
    double inv_h2 = (double)(n + 1) * (double)(n + 1), sum = 0.0;
    for (long i = lo; i < hi; i++)
        for (long j = 1; j <= n; j++) {
            const double *p = &u[i * w + j];
            double r = (p[-w] + p[w] + p[-1] + p[1] - 4.0 * p[0]) * inv_h2 - f[i * w + j];
            sum += r * r;
        }
    return sum;
}

int main(int argc, char **argv)
{
    if (dsm_init(&argc, &argv) != 0) {
        perror("ocean: dsm_init");
        return 1;
    }
    int me = dsm_node(), nprocs = dsm_nodes();
    long n = 64, iters = 20, tol = 0;
    app_opt opts[] = {
        { "n", "interior points per side", &n, 1, 8192, 256, 0, 0 },
        { "iters", "iterations at most", &iters, 1, 1000000, 100, 0, 0 },
        { "tol", "stop when the mean change per point < 10^-tol (0: never)", &tol, 0, 15, 0, 0, 0 },
    };
    int parsed = app_parse("ocean", argc, argv, opts, 3, "paper", me);
    if (parsed != 0) {
        dsm_finalize();
        return parsed > 0 ? 0 : 2;
    }
    long w = n + 2;
    size_t bytes = (size_t)w * (size_t)w * sizeof(double);
    double *u = dsm_alloc(bytes, "ocean.psi");
    double *f = dsm_alloc(bytes, "ocean.rhs");
    double *change_sum = dsm_alloc((size_t)iters * sizeof(double), "ocean.error_sum");
    ocean_check *chk = dsm_alloc(sizeof *chk, "ocean.check");
    if (!u || !f || !change_sum || !chk) {
        fprintf(stderr, "ocean: node %d: dsm_alloc of %zu bytes failed\n", me, bytes);
        return 1;
    }
    double stop_below = tol ? pow(10.0, -(double)tol) * (double)n * (double)n : -1.0;

    long lo, hi;
    app_band(n, me, nprocs, &lo, &hi);
    lo += 1;   /* interior rows are 1..n */
    hi += 1;
    init_rows(u, f, n, me == 0 ? 0 : lo, me == nprocs - 1 ? w : hi);
    for (long it = (long)me; it < iters; it += nprocs)
        change_sum[it] = 0.0;
    if (me == 0)
        chk->residual = 0.0;
    dsm_barrier();

    dsm_sim_section_begin(); /* the measured section of a simulated run */
    double t0 = dsm_wtime();
    long it = 0;
    while (it < iters) {
        double change = sweep(u, f, n, lo, hi, 0);
        dsm_barrier(); /* black points read the new red neighbours */
        change += sweep(u, f, n, lo, hi, 1);
        dsm_lock(0);
        change_sum[it] += change;
        dsm_unlock(0);
        dsm_barrier(); /* the next red sweep reads the new black points; the sum is complete */
        it++;
        if (change_sum[it - 1] < stop_below)
            break;
    }
    dsm_sim_section_end();
    double elapsed = dsm_wtime() - t0;
    double my_residual = residual(u, f, n, lo, hi);
    dsm_lock(0);
    chk->residual += my_residual;
    dsm_unlock(0);
    if (me == 0)
        chk->iterations = it;
    dsm_barrier();

    if (me == 0) {
        long done = chk->iterations;
        double *pu = malloc(bytes), *pf = malloc(bytes);
        if (!pu || !pf) {
            fprintf(stderr, "ocean: out of memory for the check\n");
            return 1;
        }
        init_rows(pu, pf, n, 0, w);
        long bad_sums = 0, first_sum = -1;
        double first_serial = 0.0;
        for (long k = 0; k < done; k++) {
            double c = sweep(pu, pf, n, 1, n + 1, 0);
            c += sweep(pu, pf, n, 1, n + 1, 1);
            if (!(fabs(c - change_sum[k]) <= 1e-9 * (fabs(c) + 1e-300)) && bad_sums++ == 0) {
                first_sum = k;
                first_serial = c;
            }
        }
        size_t bad = 0, first = 0;
        for (size_t k = 0; k < (size_t)w * (size_t)w; k++)
            if (u[k] != pu[k] && bad++ == 0)
                first = k;
        if (bad)
            fprintf(stderr, "ocean: %zu grid points differ from the serial run, first (%zu,%zu): %.17g vs %.17g\n",
                    bad, first / (size_t)w, first % (size_t)w, u[first], pu[first]);
        if (bad_sums)
            fprintf(stderr, "ocean: %ld reduced sums differ from the serial run, first at iteration %ld: %.17g vs %.17g\n",
                    bad_sums, first_sum, change_sum[first_sum], first_serial);
        double serial_residual = residual(pu, pf, n, 1, n + 1);
        int good = bad == 0 && bad_sums == 0 &&
                   fabs(serial_residual - chk->residual) <= 1e-9 * (serial_residual + 1e-300);
        if (bad == 0 && bad_sums == 0 && !good)
            fprintf(stderr, "ocean: reduced residual %.17g differs from the serial %.17g\n",
                    chk->residual, serial_residual);
        chk->ok = good;
        printf("ocean: %d procs, %ldx%ld grid, %ld iterations, last change %.3e, residual %.4e, %.3f s\n",
               nprocs, w, w, done, done ? change_sum[done - 1] : 0.0, sqrt(chk->residual), elapsed);
        printf("ocean: result %s\n", good ? "OK" : "WRONG");
        fflush(stdout);
        free(pu);
        free(pf);
    }
    dsm_barrier(); /* node 0's verdict is in chk->ok */
    int good = chk->ok;
    dsm_finalize();
    return good ? 0 : 1;
}
