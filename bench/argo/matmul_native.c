/* matmul_native.c - apps/matmul.c's computation on plain memory in one
 * process: the "native" reference of the matmul row (same tiles, same
 * k-blocking, all tiles on the one process, timed the same way).
 * Usage: matmul_native [N [T]] */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double a_val(size_t i, size_t k) { return (double)((i * 3 + k * 5) % 7) - 2.0; }
static double b_val(size_t k, size_t j) { return (double)((k * 2 + j * 7) % 5) - 1.0; }

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    long nn = argc > 1 ? atol(argv[1]) : 512, tt = argc > 2 ? atol(argv[2]) : 32;
    if (nn < 1 || tt < 1) {
        fprintf(stderr, "usage: matmul_native [N [T]]\n");
        return 2;
    }
    size_t n = (size_t)nn, T = (size_t)tt;
    double *A = malloc(n * n * sizeof *A), *B = malloc(n * n * sizeof *B);
    double *C = malloc(n * n * sizeof *C), *acc = malloc(T * T * sizeof *acc);
    if (!A || !B || !C || !acc) {
        fprintf(stderr, "matmul_native: out of memory\n");
        return 1;
    }
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++) {
            A[i * n + j] = a_val(i, j);
            B[i * n + j] = b_val(i, j);
        }
    double t0 = now();
    size_t nt = (n + T - 1) / T;
    for (size_t t = 0; t < nt * nt; t++) {
        size_t i0 = t / nt * T, j0 = t % nt * T;
        size_t ih = i0 + T < n ? i0 + T : n, jh = j0 + T < n ? j0 + T : n;
        size_t tw = jh - j0;
        for (size_t k = 0; k < T * T; k++)
            acc[k] = 0.0;
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
    double el = now() - t0;
    double sum = 0;
    for (size_t i = 0; i < n * n; i++)
        sum += C[i];
    printf("matmul_native: %zux%zu, tile %zu, checksum %.0f, %.3f s\n", n, n, T, sum, el);
    free(A), free(B), free(C), free(acc);
    return 0;
}
