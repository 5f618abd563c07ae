/* bench_core.c - the core protocol's costs on two nodes, each beside the
 * probes it is made of, measured in the same run:
 *   remote read miss    ~ fault + message round trip + block copy
 *   remote write miss   ~ fault + message round trip + block copy
 *   upgrade             ~ fault + message round trip
 *   migratory handoff   ~ read miss + upgrade: the next node reads the block
 *                          (recalled from the last writer), then writes it
 *   barrier handoff      the same turns at a dsm_barrier per handoff
 *   atomic-counter handoff ~ round trip: the counter is a runtime atomic
 *                          (dsm_atomic_load / dsm_atomic_add at its manager)
 *   local lock + unlock  a lock managed by the node itself: no message, the
 *                          runtime's own cost (its signal masking: sig_gate.c)
 *   remote lock + unlock  a lock the other node manages: a round
 *                          trip to its manager and a message, or with the
 *                          whole job on one host (DSM_JOB_SYNC) a ticket
 *                          lock in the job's memory: dsm/jobsync.h
 *   barrier              dsm_barrier back to back (the same two paths)
 *   read miss, home computing  the read miss while the home's program runs
 *                          (above it waits in a barrier: dsm/park.h)
 * and one probe outside the sums: the home's write right taken back from a
 * page it wrote (mprotect read-write to read-only), which every read miss
 * here also pays (the blocks were last written by their home).
 * Run: dsmrun -n 2 bench/bench_core [blocks]   (prints one table, node 0) */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "core_ops.h"
#include "dsm.h"

/* us per dsm_lock + dsm_unlock of lock id, over 2000 */
static double lock_round(unsigned id)
{
    double t0 = dsm_wtime();
    for (int i = 0; i < 2000; i++) {
        dsm_lock(id);
        dsm_unlock(id);
    }
    return (dsm_wtime() - t0) * 1e6 / 2000;
}

int main(int argc, char **argv)
{
    int nblk = argc > 1 ? atoi(argv[1]) : 1000;
    if (nblk < 10)
        nblk = 10;
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    double fault_alone_us = bench_probe_fault_us(page, 1, 2100);
    double fault_us = bench_probe_fault_us(page, 2048, 2100);
    double downgrade_us = bench_probe_downgrade_us(page, 2100);
    if (dsm_init(&argc, &argv))
        return 1;
    if (dsm_nodes() != 2) {
        if (dsm_node() == 0)
            fprintf(stderr, "bench_core: run on exactly 2 nodes (dsmrun -n 2)\n");
        dsm_finalize();
        return 2;
    }
    int me = dsm_node();
    size_t bs = dsm_block_size();
    double copy_us = bench_probe_copy_us(bs, 20000);
    bench_core_result r;
    bench_core_measure(nblk, &r);
    /* node 0 takes lock 0, which it manages (syncid.h: id mod N), and lock
     * 1, which node 1 manages, while node 1 waits in a barrier; then
     * barriers back to back: medians of 7 batches */
    double lock_v[7], rlock_v[7], bar_v[7];
    for (int round = 0; round < 7; round++) {
        lock_v[round] = me == 0 ? lock_round(0) : 0;
        rlock_v[round] = me == 0 ? lock_round(1) : 0;
        dsm_barrier();
        double t0 = dsm_wtime();
        for (int i = 0; i < 500; i++)
            dsm_barrier();
        bar_v[round] = (dsm_wtime() - t0) * 1e6 / 500;
    }
    double lock_us = bench_median7(lock_v), rlock_us = bench_median7(rlock_v);
    double bar_us = bench_median7(bar_v);
    if (me == 0) {
        double miss_probe = fault_us + r.rtt + copy_us;
        double upg_probe = fault_us + r.rtt;
        printf("bench_core: 2 nodes, %zu-byte blocks, medians of 7 rounds of %d operations; "
               "spread = slowest round / fastest\n", bs, nblk);
        printf("%-26s %10s %14s %8s %8s\n", "operation", "us/op", "probe sum us", "ratio", "spread");
        printf("%-26s %10.2f   (one page alone: %.2f)\n", "probe: protection fault", fault_us,
               fault_alone_us);
        printf("%-26s %10.2f %14s %8s %8.2f\n", "probe: message round trip", r.rtt, "", "",
               r.rtt_spread);
        printf("%-26s %10.2f\n", "probe: block copy", copy_us);
        /* not in the probe sum: the home's side of the read miss (core_ops.c) */
        printf("%-26s %10.2f   (the home's, in each read miss; not in the sum)\n",
               "probe: write right taken", downgrade_us);
        printf("%-26s %10.2f %14.2f %8.2f %8.2f\n", "remote read miss", r.read, miss_probe,
               r.read / miss_probe, r.read_spread);
        printf("%-26s %10.2f %14.2f %8.2f %8.2f\n", "read miss, home computing", r.read_busy,
               miss_probe, r.read_busy / miss_probe, r.read_busy_spread);
        printf("%-26s %10.2f %14.2f %8.2f %8.2f\n", "remote write miss", r.write, miss_probe,
               r.write / miss_probe, r.write_spread);
        printf("%-26s %10.2f %14.2f %8.2f %8.2f\n", "upgrade", r.upgrade, upg_probe,
               r.upgrade / upg_probe, r.upgrade_spread);
        printf("%-26s %10.2f %14.2f %8.2f %8.2f\n", "migratory handoff", r.migratory,
               miss_probe + upg_probe, r.migratory / (miss_probe + upg_probe),
               r.migratory_spread);
        printf("%-26s %10.2f\n", "barrier handoff", r.barrier_handoff);
        printf("%-26s %10.2f %14.2f %8.2f %8.2f\n", "atomic-counter handoff", r.atomic_handoff,
               r.rtt, r.atomic_handoff / r.rtt, r.atomic_handoff_spread);
        if (!r.counters_ok)
            printf("bench_core: handoff counters WRONG\n");
        printf("%-26s %10.2f %14s %8s %8.2f\n", "local lock + unlock", lock_us, "", "",
               bench_spread(lock_v, 7));
        printf("%-26s %10.2f %14.2f %8.2f\n", "remote lock + unlock", rlock_us, r.rtt,
               rlock_us / r.rtt);
        printf("%-26s %10.2f %14.2f %8.2f %8.2f\n", "barrier", bar_us, r.rtt, bar_us / r.rtt,
               bench_spread(bar_v, 7));
        printf("target: remote read miss ratio <= 1.5: %s\n",
               r.read / miss_probe <= 1.5 ? "met" : "NOT met");
        printf("target: remote read miss spread <= 1.5: %s\n",
               r.read_spread <= 1.5 ? "met" : "NOT met");
    }
    dsm_finalize();
    return 0;
}
