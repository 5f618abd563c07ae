/* bench_transport.c - the core protocol's costs on one transport, for the
 * side-by-side table of bench/bench_transport.sh (shm under dsmrun, mpi under
 * mpirun, in one `make run-bench`).  On 2 nodes it measures (medians of 7
 * rounds): remote read miss, remote write miss, upgrade, migratory handoff,
 * the runtime's message round trip, one protection fault (mprotect probe)
 * and, under mpirun, a plain MPI round trip of one block (MPI_Send/MPI_Recv
 * ping-pong of block-size messages between the 2 ranks, before the runtime
 * starts, in the same process).  Prints "key value" lines for the script.
 * Run: dsmrun -n 2 bench/bench_transport | mpirun -np 2 bench/bench_transport */
#define _GNU_SOURCE 1
#include <mpi.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "dsm.h"
#include "futex.h"
#include "node.h"
#include "transport_mpi.h"

static char *probe_base;
static size_t probe_len;

static void probe_handler(int sig, siginfo_t *si, void *uc)
{
    (void)sig, (void)uc;
    char *page = (char *)((uintptr_t)si->si_addr & ~(uintptr_t)(probe_len - 1));
    mprotect(page, probe_len, PROT_READ | PROT_WRITE);
}

/* One protection fault granted by mprotect, on the odd pages of a mapping
 * whose even pages are accessible (as in the DSM region: bench_core.c). */
static double probe_fault(size_t page, int pages, int count)
{
    probe_len = page;
    size_t len = page * (size_t)pages;
    probe_base = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    memset(probe_base, 0, len);
    struct sigaction sa = { 0 }, old;
    sa.sa_sigaction = probe_handler;
    sa.sa_flags = SA_SIGINFO;
    sigaction(SIGSEGV, &sa, &old);
    uint64_t total = 0;
    for (int i = 0; i < count; i++) {
        char *p = probe_base + (size_t)(2 * (i % (pages / 2)) + 1) * page;
        mprotect(p, page, PROT_NONE);
        uint64_t t0 = dsm_now_ns();
        p[0]++;
        total += dsm_now_ns() - t0;
    }
    sigaction(SIGSEGV, &old, NULL);
    munmap(probe_base, len);
    return (double)total / 1e3 / count;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median7(double v[7])
{
    qsort(v, 7, sizeof v[0], cmp_double);
    return v[3];
}

/* Plain MPI round trip of `bytes` between ranks 0 and 1 (us), the best of
 * 7 batches; the blocking calls spin, which is what a raw MPI user gets. */
static double mpi_roundtrip(int me, size_t bytes, int count)
{
    char *buf = calloc(1, bytes);
    double v[7];
    for (int r = 0; r < 7; r++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        for (int i = 0; i < count; i++) {
            if (me == 0) {
                MPI_Send(buf, (int)bytes, MPI_BYTE, 1, 7, MPI_COMM_WORLD);
                MPI_Recv(buf, (int)bytes, MPI_BYTE, 1, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else {
                MPI_Recv(buf, (int)bytes, MPI_BYTE, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(buf, (int)bytes, MPI_BYTE, 0, 7, MPI_COMM_WORLD);
            }
        }
        v[r] = (MPI_Wtime() - t0) * 1e6 / count;
    }
    free(buf);
    /* the fastest batch: on a shared machine a batch can lose its core,
     * and the target is judged against the best MPI can do (stricter) */
    qsort(v, 7, sizeof v[0], cmp_double);
    return v[0];
}

int main(int argc, char **argv)
{
    int nblk = argc > 1 ? atoi(argv[1]) : 1000;
    if (nblk < 10)
        nblk = 10;
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    double fv[7];
    for (int i = 0; i < 7; i++)
        fv[i] = probe_fault(page, 2048, 300);
    double fault_us = median7(fv);
    double mpi_rtt = -1;
    int under_mpi = dsm_transport_mpi_launched();
    if (under_mpi) {
        /* MPI first, with the level the transport asks for; dsm_init then
         * finds it initialised, and we finalize it after dsm_finalize */
        const char *bs = getenv("DSM_BLOCK_SIZE");
        size_t block = bs && *bs ? (size_t)atol(bs) : page;
        dsm_transport_mpi_tune(block); /* as the transport would have */
        int provided;
        MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
        int me, n;
        MPI_Comm_rank(MPI_COMM_WORLD, &me);
        MPI_Comm_size(MPI_COMM_WORLD, &n);
        if (n == 2) {
            mpi_rtt = mpi_roundtrip(me, block, 2000);
        }
    }
    if (dsm_init(&argc, &argv))
        return 1;
    if (dsm_nodes() != 2) {
        if (dsm_node() == 0)
            fprintf(stderr, "bench_transport: run on exactly 2 nodes\n");
        dsm_finalize();
        return 2;
    }
    int me = dsm_node();
    size_t bs = dsm_block_size();
    char *raw = dsm_malloc(me == 0 ? (size_t)nblk * bs + bs : 1, "bench.blocks");
    char **shared_ptr = dsm_alloc(sizeof(char *), "bench.ptr");
    long *mig = dsm_alloc(bs, "bench.migratory");
    double *res = dsm_alloc(8 * sizeof(double), "bench.results");
    if (me == 0)
        *shared_ptr = (char *)(((uintptr_t)raw + bs - 1) & ~(uintptr_t)(bs - 1));
    dsm_barrier();
    char *blk = *shared_ptr;
    volatile long sink = 0;
    if (me == 1)
        for (int i = 0; i < nblk; i++)
            blk[(size_t)i * bs] = 1; /* steady state, not first touch */
    dsm_barrier();
    double rtt_v[7], read_v[7], write_v[7], upg_v[7];
    for (int round = 0; round < 7; round++) {
        if (me == 1)
            rtt_v[round] = dsm_rt_probe_roundtrip(dsm_g, 0, 300);
        dsm_barrier();
        if (me == 0)
            for (int i = 0; i < nblk; i++)
                blk[(size_t)i * bs] = 2;
        dsm_barrier();
        if (me == 1) {
            double t0 = dsm_wtime();
            for (int i = 0; i < nblk; i++)
                sink += blk[(size_t)i * bs];
            read_v[round] = (dsm_wtime() - t0) * 1e6 / nblk;
        }
        dsm_barrier();
        if (me == 0)
            for (int i = 0; i < nblk; i++)
                blk[(size_t)i * bs] = 3;
        dsm_barrier();
        if (me == 1) {
            double t0 = dsm_wtime();
            for (int i = 0; i < nblk; i++)
                blk[(size_t)i * bs + 8] = 4;
            write_v[round] = (dsm_wtime() - t0) * 1e6 / nblk;
        }
        dsm_barrier();
        if (me == 0)
            for (int i = 0; i < nblk; i++)
                blk[(size_t)i * bs] = 5;
        dsm_barrier();
        if (me == 1) {
            for (int i = 0; i < nblk; i++)
                sink += blk[(size_t)i * bs];
            double t0 = dsm_wtime();
            for (int i = 0; i < nblk; i++)
                blk[(size_t)i * bs + 16] = 6;
            upg_v[round] = (dsm_wtime() - t0) * 1e6 / nblk;
        }
        dsm_barrier();
    }
    int rounds = nblk / 2;
    double t0 = dsm_wtime();
    for (int i = 0; i < rounds; i++) {
        while (((volatile long *)mig)[0] % 2 != me)
            sched_yield();
        mig[0]++;
    }
    double mig_us = (dsm_wtime() - t0) * 1e6 / (2.0 * rounds);
    if (me == 1) {
        res[0] = median7(rtt_v);
        res[1] = median7(read_v);
        res[2] = median7(write_v);
        res[3] = median7(upg_v);
    }
    dsm_barrier();
    if (me == 0) {
        printf("transport %s\nblock %zu\nblocks %d\n", dsm_g->tp->name, bs, nblk);
        printf("fault %.2f\nrtt %.2f\nread %.2f\nwrite %.2f\nupgrade %.2f\nmigratory %.2f\n",
               fault_us, res[0], res[1], res[2], res[3], mig_us);
        if (mpi_rtt >= 0)
            printf("mpi_rtt %.2f\n", mpi_rtt);
        fflush(stdout);
    }
    dsm_finalize();
    if (under_mpi)
        MPI_Finalize();
    return 0;
}
