/* matmul.c - blocked matrix multiply C = A * B on shared matrices.
 *
 * The T x T tiles of C are dealt round-robin to the nodes; each node reads
 * the rows of A and columns of B its tiles need and writes its tiles of C
 * (tiles of different nodes share blocks: false sharing on purpose).  A and
 * B hold small integers, so every product and sum is exact in double and
 * node 0 compares with a private serial product for equality.
 *
 * With "bands" as third argument each node takes a contiguous band of tile
 * rows instead (its rows of A and C are homed at itself with the default
 * blocked homes: no false sharing, only B fetched; doc/cluster.md).
 * Usage: matmul [N [T [bands]]]   N x N matrices (default 512), tile T (default 32).
 * Prints the time and "matmul: result OK". */
#include <dsm.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double a_val(size_t i, size_t k) { return (double)((i * 3 + k * 5) % 7) - 2.0; }
static double b_val(size_t k, size_t j) { return (double)((k * 2 + j * 7) % 5) - 1.0; }

int main(int argc, char **argv)
{
    if (dsm_init(&argc, &argv) != 0) {
        perror("matmul: dsm_init");
        return 1;
    }
    int me = dsm_node(), nodes = dsm_nodes();
    long nn = argc > 1 ? atol(argv[1]) : 512, tt = argc > 2 ? atol(argv[2]) : 32;
    int bands = argc > 3 && strcmp(argv[3], "bands") == 0;
    if (nn < 1 || tt < 1 || (argc > 3 && !bands)) {
        if (me == 0)
            fprintf(stderr, "usage: matmul [N [T [bands]]]  (N >= 1, T >= 1)\n");
        dsm_finalize();
        return 2;
    }
    size_t n = (size_t)nn, T = (size_t)tt, bytes = n * n * sizeof(double);
    double *A = dsm_alloc(bytes, "matmul.A"), *B = dsm_alloc(bytes, "matmul.B");
    double *C = dsm_alloc(bytes, "matmul.C");
    int *ok = dsm_alloc(sizeof *ok, "matmul.ok");
    double *acc = malloc(T * T * sizeof *acc);
    if (!A || !B || !C || !ok || !acc) {
        fprintf(stderr, "matmul: node %d: allocation of %zu bytes failed\n", me, bytes);
        return 1;
    }

    /* Each node fills a band of rows of A and B. */
    for (size_t i = n * me / nodes; i < n * (me + 1) / nodes; i++)
        for (size_t j = 0; j < n; j++) {
            A[i * n + j] = a_val(i, j);
            B[i * n + j] = b_val(i, j);
        }
    dsm_barrier();

    double t0 = dsm_wtime();
    size_t nt = (n + T - 1) / T;
    /* round-robin tiles, or a band of whole tile rows per node */
    size_t tlo = bands ? nt * (size_t)me / (size_t)nodes * nt : (size_t)me;
    size_t thi = bands ? nt * (size_t)(me + 1) / (size_t)nodes * nt : nt * nt;
    size_t tstep = bands ? 1 : (size_t)nodes;
    for (size_t t = tlo; t < thi; t += tstep) {
        size_t i0 = t / nt * T, j0 = t % nt * T;
        size_t ih = i0 + T < n ? i0 + T : n, jh = j0 + T < n ? j0 + T : n;
        size_t tw = jh - j0;
        for (size_t k = 0; k < T * T; k++)
            acc[k] = 0.0;
        /* k blocked too, so a tile's A and B panels stay small */
        for (size_t k0 = 0; k0 < n; k0 += T) {
            size_t kh = k0 + T < n ? k0 + T : n;
            for (size_t i = i0; i < ih; i++)
                for (size_t k = k0; k < kh; k++) {
                    double a = A[i * n + k];
                    for (size_t j = j0; j < jh; j++)
                        acc[(i - i0) * tw + (j - j0)] += a * B[k * n + j];
                }
        }
        for (size_t i = i0; i < ih; i++)
            for (size_t j = j0; j < jh; j++)
                C[i * n + j] = acc[(i - i0) * tw + (j - j0)];
    }
    dsm_barrier(); /* every tile of C is written */
    double el = dsm_wtime() - t0;

    if (me == 0) {
        size_t bad = 0, fi = 0, fj = 0;
        double want0 = 0.0, sum = 0.0;
        double *row = malloc(n * sizeof *row);
        if (!row) {
            fprintf(stderr, "matmul: out of memory for the check\n");
            return 1;
        }
        for (size_t i = 0; i < n; i++) {
            for (size_t j = 0; j < n; j++)
                row[j] = 0.0;
            for (size_t k = 0; k < n; k++) {
                double a = a_val(i, k);
                for (size_t j = 0; j < n; j++)
                    row[j] += a * b_val(k, j);
            }
            for (size_t j = 0; j < n; j++) {
                sum += C[i * n + j];
                if (C[i * n + j] != row[j] && bad++ == 0) {
                    fi = i;
                    fj = j;
                    want0 = row[j];
                }
            }
        }
        if (bad)
            fprintf(stderr, "matmul: %zu elements differ, first C[%zu][%zu] = %g, expected %g\n",
                    bad, fi, fj, C[fi * n + fj], want0);
        *ok = bad == 0;
        printf("matmul: %d nodes, %zux%zu, tile %zu, checksum %.0f, %.3f s\n",
               nodes, n, n, T, sum, el);
        printf("matmul: result %s\n", bad ? "WRONG" : "OK");
        fflush(stdout);
        free(row);
    }
    dsm_barrier(); /* node 0's verdict is in *ok */
    int good = *ok;
    free(acc);
    dsm_finalize();
    return good ? 0 : 1;
}
