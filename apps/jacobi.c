/* jacobi.c - 2-D Jacobi relaxation on a shared grid.
 *
 * The interior rows are partitioned over the nodes; two grids are alternated
 * (read one, write the other) with a barrier per iteration, so the only
 * communication is the boundary rows of neighbouring nodes.  Node 0 then
 * repeats the computation privately with the same code: the arithmetic is
 * done in the same order, so the shared result must be equal bit for bit.
 *
 * Usage: jacobi [N [ITERS]]   N x N interior points (default 1024), ITERS
 * iterations (default 200).  Prints the time and "jacobi: result OK". */
#include <dsm.h>
#include <stdio.h>
#include <stdlib.h>

/* Fixed boundary (never updated) and a zero interior, in rows [lo, hi) of a
 * (n+2) x (n+2) grid.  Uneven edge values make every point distinct. */
static void init_rows(double *g, int n, int lo, int hi)
{
    int w = n + 2;
    for (int i = lo; i < hi; i++)
        for (int j = 0; j < w; j++) {
            double v = 0.0;
            if (i == 0)
                v = 1.0 + (j % 7);
            else if (i == w - 1)
                v = -2.0 + (j % 5);
            else if (j == 0)
                v = 0.5 * (i % 3);
            else if (j == w - 1)
                v = 3.0;
            g[(size_t)i * w + j] = v;
        }
}

/* One sweep over interior rows [lo, hi): the parallel and the private run
 * both call this, so their results are identical. */
static void sweep(double *dst, const double *src, int n, int lo, int hi)
{
    size_t w = (size_t)n + 2;
    for (int i = lo; i < hi; i++)
        for (size_t j = 1; j <= (size_t)n; j++)
            dst[i * w + j] = 0.25 * (src[(i - 1) * w + j] + src[(i + 1) * w + j] +
                                     src[i * w + j - 1] + src[i * w + j + 1]);
}

int main(int argc, char **argv)
{
    if (dsm_init(&argc, &argv) != 0) {
        perror("jacobi: dsm_init");
        return 1;
    }
    int n = argc > 1 ? atoi(argv[1]) : 1024;
    int iters = argc > 2 ? atoi(argv[2]) : 200;
    int me = dsm_node(), nodes = dsm_nodes();
    if (n < 1 || iters < 0) {
        if (me == 0)
            fprintf(stderr, "usage: jacobi [N [ITERS]]  (N >= 1, ITERS >= 0)\n");
        dsm_finalize();
        return 2;
    }
    size_t w = (size_t)n + 2, bytes = w * w * sizeof(double);
    double *g[2] = { dsm_alloc(bytes, "jacobi.grid0"), dsm_alloc(bytes, "jacobi.grid1") };
    int *ok = dsm_alloc(sizeof *ok, "jacobi.ok");
    if (!g[0] || !g[1] || !ok) {
        fprintf(stderr, "jacobi: node %d: dsm_alloc of %zu bytes failed\n", me, bytes);
        return 1;
    }

    /* My interior rows; the first and last node also own the boundary rows. */
    int lo = 1 + (int)((long)n * me / nodes), hi = 1 + (int)((long)n * (me + 1) / nodes);
    int ilo = me == 0 ? 0 : lo, ihi = me == nodes - 1 ? n + 2 : hi;
    init_rows(g[0], n, ilo, ihi);
    init_rows(g[1], n, ilo, ihi);
    dsm_barrier();

    double t0 = dsm_wtime();
    for (int it = 0; it < iters; it++) {
        sweep(g[(it + 1) % 2], g[it % 2], n, lo, hi);
        dsm_barrier(); /* the next sweep reads the neighbours' new rows */
    }
    double t = dsm_wtime() - t0;

    if (me == 0) {
        double *p[2] = { malloc(bytes), malloc(bytes) };
        if (!p[0] || !p[1]) {
            fprintf(stderr, "jacobi: out of memory for the check\n");
            return 1;
        }
        init_rows(p[0], n, 0, n + 2);
        init_rows(p[1], n, 0, n + 2);
        for (int it = 0; it < iters; it++)
            sweep(p[(it + 1) % 2], p[it % 2], n, 1, n + 1);
        const double *s = g[iters % 2], *q = p[iters % 2];
        size_t bad = 0, first = 0;
        double sum = 0.0;
        for (size_t k = 0; k < w * w; k++) {
            sum += s[k];
            if (s[k] != q[k] && bad++ == 0)
                first = k;
        }
        if (bad)
            fprintf(stderr, "jacobi: %zu points differ, first (%zu,%zu): shared %.17g, private %.17g\n",
                    bad, first / w, first % w, s[first], q[first]);
        *ok = bad == 0;
        printf("jacobi: %d nodes, %dx%d, %d iterations, checksum %.6f, %.3f s\n",
               nodes, n, n, iters, sum, t);
        printf("jacobi: result %s\n", bad ? "WRONG" : "OK");
        fflush(stdout);
        free(p[0]);
        free(p[1]);
    }
    dsm_barrier(); /* node 0's verdict is in *ok */
    int good = *ok;
    dsm_finalize();
    return good ? 0 : 1;
}
