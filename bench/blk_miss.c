/* blk_miss.c - remote read and write miss latency on two nodes, using only
 * dsm.h, so the same source is built twice by bench/block_bench.sh: plain
 * (page mode: mprotect and faults) and with dsmcc --dsm (block mode: the
 * inline checks and the state table).  The method is bench/core_ops.c's:
 * node 0 takes NBLK blocks homed at it back (recall) or writes them
 * (invalidating node 1's copies), then node 1 reads or writes one byte of
 * each, timed; medians of 7 rounds.  Node 1 prints
 *   blk_miss: block=BYTES read_us=R write_us=W */
#include <dsm.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static double median7(double v[7])
{
    for (int i = 1; i < 7; i++)
        for (int j = i; j > 0 && v[j] < v[j - 1]; j--) {
            double t = v[j];
            v[j] = v[j - 1];
            v[j - 1] = t;
        }
    return v[3];
}

int main(int argc, char **argv)
{
    if (dsm_init(&argc, &argv))
        return 1;
    int nblk = argc > 1 ? atoi(argv[1]) : 200;
    int me = dsm_node();
    if (dsm_nodes() != 2 || nblk < 1) {
        fprintf(stderr, "blk_miss: run on 2 nodes: dsmrun -n 2 blk_miss [NBLK]\n");
        return 2;
    }
    size_t bs = dsm_block_size();
    char *raw = dsm_malloc(me == 0 ? (size_t)nblk * bs + bs : 1, "bench.blocks");
    char **shared_ptr = dsm_alloc(sizeof(char *), "bench.ptr");
    if (me == 0)
        *shared_ptr = (char *)(((uintptr_t)raw + bs - 1) & ~(uintptr_t)(bs - 1));
    dsm_barrier();
    volatile char *blk = *shared_ptr;
    if (me == 1)
        for (int i = 0; i < nblk; i++)
            blk[(size_t)i * bs] = 1;
    dsm_barrier();
    double rd[7], wr[7];
    volatile long sink = 0;
    for (int round = 0; round < 7; round++) {
        if (me == 0)
            for (int i = 0; i < nblk; i++)
                blk[(size_t)i * bs] = 2;
        dsm_barrier();
        if (me == 1) {
            double t0 = dsm_wtime();
            for (int i = 0; i < nblk; i++)
                sink += blk[(size_t)i * bs];
            rd[round] = (dsm_wtime() - t0) * 1e6 / nblk;
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
            wr[round] = (dsm_wtime() - t0) * 1e6 / nblk;
        }
        dsm_barrier();
    }
    if (me == 1)
        printf("blk_miss: block=%zu read_us=%.2f write_us=%.2f\n", bs, median7(rd), median7(wr));
    dsm_barrier();
    dsm_finalize();
    return 0;
}
