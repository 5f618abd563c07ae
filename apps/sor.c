/* sor.c - 2-D successive over-relaxation of a metal sheet's temperature,
 * the three versions of QuickStep's second case study (section 5.2): two
 * N x N matrices, "odd" and "even"; even steps read odd and write even, odd
 * steps the reverse, a barrier between steps.  Rows 1 .. N-2 are updated;
 * rows 0 and N-1 and the edge columns stay fixed.  The versions differ only
 * in which processor updates which row in a step:
 *   zgrid   processors take row indices from a central pool (a counter under
 *           a spin lock in shared memory), so a row's processor changes from
 *           step to step
 *   mgrid   round robin: row i is processor i mod P's, every step
 *   cgrid   coarse grained: a block of consecutive rows per processor
 * The matrices are half a cache apart (see main).
 * Homes: each matrix is one dsm_alloc, its pages split into P contiguous
 * runs (DSM_HOMES=blocked), so cgrid's rows are mostly in the processor's
 * own memory.  Every version computes the same result; with `check`,
 * processor 0 repeats the computation privately and compares bit for bit.
 *
 * Built without optimisation (the pragma below), as apps/mp3d.c says why:
 * every reference to memory other than local variables is made, as the
 * paper's compiler made them; the matrices are the file-scope pointers
 * `odd` and `even` (the paper's names), so each element reference also
 * reads its matrix's pointer, a private hit (7 element references and 7
 * pointer reads per point).
 * Usage: sor zgrid|mgrid|cgrid [N [STEPS [check]]]   (default 256 10)
 * Prints the measured section's simulated time on a simulated machine and
 * "sor: result OK". */
#pragma GCC optimize("O0")
#include <dsm.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define OMEGA 0.9

static double init_value(int n, int i, int j)
{
    if (i == 0)
        return 100.0;
    if (i == n - 1 || j == 0 || j == n - 1)
        return 10.0 * (double)((i + j) % 3);
    return 0.0;
}

/* The matrices, reached through file-scope pointers (each processor's
 * private copy of what the allocation returned, read-only in the parallel
 * part), as the paper names them: every element reference also reads the
 * pointer, as the paper's compiler re-read globals at every use (its bench1
 * re-reads `num` in every iteration). */
static double *odd, *even;

/* Row i of the matrix written in step s from the other one: even steps
 * read odd and write even, odd steps the reverse. */
#define UPDATE(DST, SRC)                                                                          \
    for (int j = 1; j < n - 1; j++) {                                                             \
        double avg = (SRC[(size_t)(i - 1) * n + j] + SRC[(size_t)(i + 1) * n + j] +               \
                      SRC[(size_t)i * n + j - 1] + SRC[(size_t)i * n + j + 1]) * 0.25;            \
        DST[(size_t)i * n + j] = SRC[(size_t)i * n + j] + OMEGA * (avg - SRC[(size_t)i * n + j]); \
    }

static void update_row(int s, int n, int i)
{
    if (s % 2)
        UPDATE(odd, even)
    else
        UPDATE(even, odd)
}

/* The same on private matrices, for processor 0's check. */
static void update_private(double *dst, const double *src, int n, int i) { UPDATE(dst, src) }

/* zgrid's pool is guarded by a lock in shared memory taken the way SPARC
 * code takes one (SPARCLE's swap: test and test-and-set), so on a simulated
 * machine its references go through the caches and the network like the
 * pool's, and who gets the next row depends on where each processor is
 * and when it asks (dsm_lock would cost the simulator's constants, in FIFO
 * order, whatever the machine). */
static void pool_lock(int *lock)
{
    while (__atomic_exchange_n(lock, 1, __ATOMIC_ACQUIRE))
        while (__atomic_load_n(lock, __ATOMIC_RELAXED))
            ;
}

static void pool_unlock(int *lock) { __atomic_store_n(lock, 0, __ATOMIC_RELEASE); }

int main(int argc, char **argv)
{
    if (dsm_init(&argc, &argv))
        return 1;
    int me = dsm_node(), np = dsm_nodes();
    const char *version = argc > 1 ? argv[1] : "cgrid";
    int n = argc > 2 ? atoi(argv[2]) : 256, steps = argc > 3 ? atoi(argv[3]) : 10;
    int check = argc > 4 && !strcmp(argv[4], "check");
    int kind = !strcmp(version, "zgrid") ? 0 : !strcmp(version, "mgrid") ? 1
               : !strcmp(version, "cgrid") ? 2 : -1;
    if (kind < 0 || n < 3 || steps < 1) {
        if (me == 0)
            fprintf(stderr, "usage: sor zgrid|mgrid|cgrid [N>=3 [STEPS>=1 [check]]]\n");
        dsm_finalize();
        return 2;
    }
    size_t bytes = (size_t)n * n * sizeof(double);
    /* The matrices half of Alewife's 64 KB direct-mapped cache apart: back
     * to back, N = 256 puts row i of both on the same cache lines (the
     * matrices are 512 KB, a multiple of the cache), and every store would
     * evict the row it reads.  dsm_alloc places allocations one after the
     * other in 4 KB pages on the simulated machines (a detail elsewhere). */
    odd = dsm_alloc(bytes, "odd");
    size_t used = (bytes + 4095) / 4096 * 4096 % 65536;
    size_t pad = (32768 + 65536 - used) % 65536;
    if (pad)
        (void)dsm_alloc(pad, "pad");
    even = dsm_alloc(bytes, "even");
    int *pool = dsm_alloc((size_t)steps * sizeof(int), "pool");
    int *lock = dsm_alloc(sizeof(int), "pool_lock");
    if (!odd || !even || !pool || !lock) {
        fprintf(stderr, "sor: out of shared memory\n");
        return 1;
    }
    /* each processor initialises the rows of its own block in both */
    int lo = n * me / np, hi = n * (me + 1) / np;
    for (int i = lo; i < hi; i++)
        for (int j = 0; j < n; j++)
            odd[(size_t)i * n + j] = even[(size_t)i * n + j] = init_value(n, i, j);
    if (me == 0) {
        for (int s = 0; s < steps; s++)
            pool[s] = 1;
        *lock = 0;
    }
    dsm_barrier();
    dsm_sim_section_begin();
    double t0 = dsm_wtime();
    int rows = n - 2, blo = 1 + rows * me / np, bhi = 1 + rows * (me + 1) / np;
    for (int s = 0; s < steps; s++) {
        if (kind == 0) {
            for (;;) {
                pool_lock(lock);
                int i = pool[s];
                pool[s] = i + 1;
                pool_unlock(lock);
                if (i > n - 2)
                    break;
                update_row(s, n, i);
            }
        } else if (kind == 1) {
            for (int i = 1 + me; i < n - 1; i += np)
                update_row(s, n, i);
        } else {
            for (int i = blo; i < bhi; i++)
                update_row(s, n, i);
        }
        dsm_barrier();
    }
    double t1 = dsm_wtime();
    dsm_sim_section_end();
    if (me == 0) {
        printf("sor %s: %d x %d, %d steps on %d processors: %.6f s\n", version, n, n, steps, np,
               t1 - t0);
        int ok = 1;
        if (check) {
            double *a = malloc(bytes), *b = malloc(bytes);
            if (!a || !b) {
                fprintf(stderr, "sor: out of memory for the check\n");
                return 1;
            }
            for (int i = 0; i < n; i++)
                for (int j = 0; j < n; j++)
                    a[(size_t)i * n + j] = b[(size_t)i * n + j] = init_value(n, i, j);
            for (int s = 0; s < steps; s++)
                for (int i = 1; i < n - 1; i++)
                    update_private(s % 2 ? a : b, s % 2 ? b : a, n, i);
            const double *got = steps % 2 ? even : odd, *want = steps % 2 ? b : a;
            ok = !memcmp(got, want, bytes);
            free(a);
            free(b);
        }
        printf("sor: result %s\n", ok ? "OK" : "WRONG");
        if (!ok)
            return 1;
    }
    dsm_finalize();
    return 0;
}
