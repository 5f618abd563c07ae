/* argo_matmul.cpp - apps/matmul.c's computation on ArgoDSM (built beside the
 * project, never part of it; bench/argo/run.sh builds this against it).
 * The same tiles dealt round-robin to the nodes, the same k-blocking, the
 * same fill (each node a band of rows of A and B) and the same timing (from
 * the barrier after the fill to the barrier after the last tile), so the
 * time compares with `dsmrun -n 2 apps/matmul N T` and bench/argo/matmul_native.
 * Usage: mpirun -np 2 argo_matmul [N [T]]; node 0 checks the product. */
#include <mpi.h>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "argo.hpp"

static double a_val(std::size_t i, std::size_t k) { return (double)((i * 3 + k * 5) % 7) - 2.0; }
static double b_val(std::size_t k, std::size_t j) { return (double)((k * 2 + j * 7) % 5) - 1.0; }

int main(int argc, char **argv)
{
    std::size_t n = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 512;
    std::size_t T = argc > 2 ? std::strtoul(argv[2], nullptr, 10) : 32;
    if (n < 1 || T < 1) {
        std::fprintf(stderr, "usage: argo_matmul [N [T]]\n");
        return 2;
    }
    std::size_t bytes = n * n * sizeof(double);
    argo::init(8 * bytes + (1 << 20), 4 * bytes + (1 << 20));
    int me = argo::node_id(), nodes = static_cast<int>(argo::number_of_nodes());
    double *A = argo::conew_array<double>(n * n), *B = argo::conew_array<double>(n * n);
    double *C = argo::conew_array<double>(n * n);
    std::vector<double> acc(T * T);

    for (std::size_t i = n * me / nodes; i < n * (me + 1) / nodes; i++)
        for (std::size_t j = 0; j < n; j++) {
            A[i * n + j] = a_val(i, j);
            B[i * n + j] = b_val(i, j);
        }
    argo::barrier();

    double t0 = MPI_Wtime();
    std::size_t nt = (n + T - 1) / T;
    for (std::size_t t = (std::size_t)me; t < nt * nt; t += (std::size_t)nodes) {
        std::size_t i0 = t / nt * T, j0 = t % nt * T;
        std::size_t ih = i0 + T < n ? i0 + T : n, jh = j0 + T < n ? j0 + T : n;
        std::size_t tw = jh - j0;
        for (std::size_t k = 0; k < T * T; k++)
            acc[k] = 0.0;
        for (std::size_t k0 = 0; k0 < n; k0 += T) {
            std::size_t kh = k0 + T < n ? k0 + T : n;
            for (std::size_t i = i0; i < ih; i++)
                for (std::size_t k = k0; k < kh; k++) {
                    double a = A[i * n + k];
                    for (std::size_t j = j0; j < jh; j++)
                        acc[(i - i0) * tw + (j - j0)] += a * B[k * n + j];
                }
        }
        for (std::size_t i = i0; i < ih; i++)
            for (std::size_t j = j0; j < jh; j++)
                C[i * n + j] = acc[(i - i0) * tw + (j - j0)];
    }
    argo::barrier();
    double el = MPI_Wtime() - t0;

    int bad = 0;
    if (me == 0) {
        std::vector<double> row(n);
        for (std::size_t i = 0; i < n && !bad; i++) {
            for (std::size_t j = 0; j < n; j++)
                row[j] = 0.0;
            for (std::size_t k = 0; k < n; k++) {
                double a = a_val(i, k);
                for (std::size_t j = 0; j < n; j++)
                    row[j] += a * b_val(k, j);
            }
            for (std::size_t j = 0; j < n; j++)
                if (C[i * n + j] != row[j])
                    bad = 1;
        }
        std::printf("argo_matmul: %d nodes, %zux%zu, tile %zu, %.3f s\n", nodes, n, n, T, el);
        std::printf("argo_matmul: result %s\n", bad ? "WRONG" : "OK");
        std::fflush(stdout);
    }
    argo::barrier();
    argo::finalize();
    return bad;
}
