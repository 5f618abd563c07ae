/* bench_adapt.c - the adaptive protocol (DSM_ADAPT) against the plain one,
 * both in one run: the same workload alternates between the two settings
 * (proto_set_adapt on every node between barriers: on, off, off, on, ...),
 * so the machine's drift falls on both alike; the table shows each
 * setting's median over the rounds, the spread (slowest round / fastest),
 * and the ratio plain / adaptive.
 *   lock-protected migratory handoff (each node's line; node 0 is the
 *     block's home, so its upgrade is local): both nodes take one lock and
 *     increment a counter under it (a read then a write of one block); the
 *     time of the critical sections that took the block over from the
 *     other node (us per handoff; the lock's own wait is not in it): plain,
 *     a read miss then an upgrade; adaptive, one miss (the read is granted
 *     exclusive).
 *   spin handoff: the two nodes take turns incrementing a counter, each
 *     spinning on it until its turn (bench_core's migratory handoff).
 *   producer-consumer buffer: node 0 updates 16 blocks (a read then a
 *     write each), node 1 reads them, pass after pass: misses of both nodes
 *     per block and pass (plain: the producer's read miss and upgrade, the
 *     consumer's read miss; adaptive: the producer pushes each block to the
 *     consumer at the barrier that ends its pass and keeps a read copy, so
 *     one upgrade).
 * Target: the lock-protected handoff at least 1.5x faster adaptive.
 * On 3 nodes, the group workload instead (a group's bulk fetch): 16 blocks
 * homed at node 0 (dsm_malloc); each pass a writer (node 1 or 2, in turn)
 * updates them all (a read then a write each), node 0 reads them (they come
 * home: shared), then the other of nodes 1 and 2 reads them all in order;
 * misses of each role per pass.  The writers alternate, so the blocks are
 * neither producer-consumer (no push) nor migratory: only the group is
 * there to adapt to.  Plain: the reader misses on every block, and so does
 * the writer's read; adaptive: the reader's miss of the first block brings
 * the other 15 along (the home holds them shared), and the writer's too.
 * Run: dsmrun -n 2 bench/bench_adapt [sections per round]
 *      dsmrun -n 3 bench/bench_adapt                     (make run-bench) */
#define _GNU_SOURCE 1
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench_util.h"
#include "core_ops.h"
#include "dsm.h"
#include "counters.h"
#include "node.h"

#define ROUNDS 14 /* 7 of each setting */
#define THINK_US 100 /* private work between two lock-protected sections */

static void set_adapt(int on)
{
    dsm_barrier();
    pthread_mutex_lock(&dsm_g->eng_lock);
    dsm_g->cfg.adapt = 1; /* the runtime's part (wire check, clean copies) stays on */
    proto_set_adapt(dsm_g->eng, on);
    pthread_mutex_unlock(&dsm_g->eng_lock);
    dsm_barrier();
}

/* This node's misses so far (the six kinds of doc/metrics.md). */
static double misses_now(void)
{
    static const int kinds[] = { CM_STACHE_READ_MISSES, CM_HOME_READ_MISSES, CM_STACHE_WRITE_RO,
                                 CM_HOME_WRITE_RO,      CM_STACHE_WRITE_INV, CM_HOME_WRITE_INV };
    if (!dsm_g->ctr)
        return 0;
    uint64_t n = 0;
    pthread_mutex_lock(&dsm_g->eng_lock);
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        n += counters_total(dsm_g->ctr, kinds[i]);
    pthread_mutex_unlock(&dsm_g->eng_lock);
    return (double)n;
}

/* This node's adaptation counts (as a home), with the adaptive protocol on
 * again for the rest of the run. */
static proto_adapt_counts adapt_counts_now(void)
{
    set_adapt(1);
    proto_adapt_counts counts;
    pthread_mutex_lock(&dsm_g->eng_lock);
    proto_adapt_counts_of(dsm_g->eng, &counts);
    pthread_mutex_unlock(&dsm_g->eng_lock);
    return counts;
}

/* The group workload (3 nodes; see the header): misses per pass of the
 * writer, the home's reader and the other reader, adaptive against plain. */
static void group_bench(void)
{
    enum { G_BLOCKS = 16, G_PASSES = 10, G_ROLES = 3 };
    int me = dsm_node();
    size_t bs = dsm_block_size();
    char **slot = dsm_alloc(sizeof *slot, "bench.group_slot");
    double *gm = dsm_alloc((size_t)ROUNDS * G_ROLES * sizeof *gm, "bench.group_misses");
    if (me == 0)
        *slot = dsm_malloc(G_BLOCKS * bs, "bench.group"); /* homed here: one group */
    dsm_barrier();
    char *grp = *slot;
    double v[2][G_ROLES][ROUNDS / 2];
    for (int r = 0; r < ROUNDS; r++) {
        int on = (r & 1) ^ ((r >> 1) & 1);
        set_adapt(on);
        double m_write = 0, m_read = 0, m_home = 0;
        for (int pass = 0; pass < G_PASSES; pass++) {
            int writer = 1 + (pass & 1), reader = 3 - writer;
            double m0 = misses_now();
            if (me == writer)
                for (int b = 0; b < G_BLOCKS; b++)
                    grp[(size_t)b * bs] += 1;
            dsm_barrier();
            volatile long sink = 0;
            if (me == 0)
                for (int b = 0; b < G_BLOCKS; b++)
                    sink += grp[(size_t)b * bs];
            dsm_barrier();
            if (me == reader)
                for (int b = 0; b < G_BLOCKS; b++)
                    sink += grp[(size_t)b * bs];
            dsm_barrier();
            double m = misses_now() - m0;
            if (me == writer)
                m_write += m;
            else if (me == reader)
                m_read += m;
            else
                m_home += m;
        }
        /* per role: node 0 is the home's reader; nodes 1 and 2 share the
         * writer's and the reader's passes */
        if (me == 0)
            gm[G_ROLES * r + 2] = m_home / G_PASSES;
        dsm_barrier();
        if (me == 1) {
            gm[G_ROLES * r] = m_write;
            gm[G_ROLES * r + 1] = m_read;
        }
        dsm_barrier();
        if (me == 2) {
            gm[G_ROLES * r] = (gm[G_ROLES * r] + m_write) / G_PASSES;
            gm[G_ROLES * r + 1] = (gm[G_ROLES * r + 1] + m_read) / G_PASSES;
        }
        dsm_barrier();
        for (int k = 0; k < G_ROLES; k++)
            v[on][k][r / 2] = gm[G_ROLES * r + k];
        dsm_barrier();
    }
    proto_adapt_counts counts = adapt_counts_now();
    if (me == 0) { /* the group's home */
        static const char *const role[G_ROLES] = { "group: writer (read + write)",
                                                   "group: reader after the home",
                                                   "group: home's reader" };
        int k = ROUNDS / 2;
        printf("bench_adapt: 3 nodes, %zu-byte blocks, a group of %d blocks, medians of %d "
               "alternating rounds of %d passes per setting; misses per pass\n",
               bs, G_BLOCKS, k, G_PASSES);
        printf("%-34s %10s %8s %10s %8s %8s\n", "workload", "plain", "spread", "adapt",
               "spread", "ratio");
        double tp = 0, ta = 0;
        for (int i = 0; i < G_ROLES; i++) {
            double p = bench_median(v[0][i], k), a = bench_median(v[1][i], k);
            tp += p;
            ta += a;
            printf("%-34s %10.2f %8.2f %10.2f %8.2f %8.2f\n", role[i], p,
                   bench_spread(v[0][i], k), a, bench_spread(v[1][i], k), a > 0 ? p / a : 0);
        }
        printf("adaptation (the group's home): %llu read misses brought %llu blocks of their "
               "group along (bulk fetch)\n", (unsigned long long)counts.bulk_fetches,
               (unsigned long long)counts.bulk_copies);
        printf("target: fewer misses per pass adaptive: %.1f against %.1f plain (%s)\n", ta, tp,
               ta < tp ? "met" : "NOT met");
    }
}

typedef struct shared_counter {
    long value, turn;
} shared_counter;

int main(int argc, char **argv)
{
    int per = argc > 1 ? atoi(argv[1]) : 200;
    if (per < 10)
        per = 10;
    if (dsm_init(&argc, &argv))
        return 1;
    int me = dsm_node();
    if (dsm_nodes() != 2 && dsm_nodes() != 3) {
        if (me == 0)
            fprintf(stderr, "bench_adapt: run on 2 nodes (dsmrun -n 2), or on 3 for the group "
                    "workload\n");
        dsm_finalize();
        return 2;
    }
    if (!proto_augment_enabled(dsm_g->eng)) {
        if (me == 0)
            fprintf(stderr, "bench_adapt: needs DSM_PATTERNS=on (the detection it adapts to)\n");
        dsm_finalize();
        return 2;
    }
    if (dsm_nodes() == 3) {
        group_bench();
        dsm_finalize();
        return 0;
    }
    size_t bs = dsm_block_size();
    shared_counter *locked = dsm_alloc(bs, "bench.locked_counter");
    shared_counter *spun = dsm_alloc(bs, "bench.spun_counter");
    enum { PC_BLOCKS = 16, PC_PASSES = 10 };
    char *buffer = dsm_alloc(PC_BLOCKS * bs, "bench.pc_buffer");
    double *pc_misses = dsm_alloc(2 * ROUNDS * sizeof(double), "bench.pc_misses");
    double lock_v[2][ROUNDS / 2], spin_v[2][ROUNDS / 2], pc_v[2][ROUNDS / 2];
    long handoffs[2] = { 0, 0 };
    for (int r = 0; r < ROUNDS; r++) {
        int on = (r & 1) ^ ((r >> 1) & 1);
        set_adapt(on);
        /* lock-protected: each node increments `per` times under lock 0;
         * timed: the sections that took the record over from the other
         * node (the handoff: the data's misses, not the lock's wait) */
        double t_moved = 0;
        long moved = 0;
        for (int i = 0; i < per; i++) {
            dsm_lock(0);
            double ts = dsm_wtime();
            long last = locked->turn; /* the record's last writer + 1 */
            locked->value++;
            locked->turn = me + 1;
            double te = dsm_wtime();
            dsm_unlock(0);
            if (last && last != me + 1) {
                t_moved += te - ts;
                moved++;
            }
            /* work outside the section (private), so that the other
             * node's request waits at the manager when this one unlocks
             * and the lock, with the record, goes back and forth */
            double until = dsm_wtime() + THINK_US * 1e-6;
            while (dsm_wtime() < until)
                ;
        }
        handoffs[on] += moved;
        double t_lock = moved ? t_moved / (double)moved : 0;
        dsm_barrier();
        /* spin handoff: strictly alternating */
        long start = spun->value;
        dsm_barrier();
        double t0 = dsm_wtime();
        for (int i = 0; i < per; i++) {
            while ((((volatile shared_counter *)spun)->value - start) % 2 != me)
                sched_yield(); /* 2 cores carry 4 threads here */
            spun->value++;
        }
        double t_spin = dsm_wtime() - t0;
        lock_v[on][r / 2] = t_lock * 1e6;
        spin_v[on][r / 2] = t_spin * 1e6 / (2.0 * per);
        dsm_barrier();
        /* producer-consumer buffer: node 0 updates every block (a read
         * then a write), node 1 reads them, pass after pass; the misses of
         * both nodes per block and pass */
        double m0 = misses_now();
        double t_pc0 = dsm_wtime();
        for (int pass = 0; pass < PC_PASSES; pass++) {
            if (me == 0)
                for (int b = 0; b < PC_BLOCKS; b++)
                    buffer[(size_t)b * bs] += 1;
            dsm_barrier();
            if (me == 1) {
                volatile long sink = 0;
                for (int b = 0; b < PC_BLOCKS; b++)
                    sink += buffer[(size_t)b * bs];
            }
            dsm_barrier();
        }
        (void)t_pc0;
        pc_misses[2 * r + me] = misses_now() - m0;
        dsm_barrier();
        pc_v[on][r / 2] = (pc_misses[2 * r] + pc_misses[2 * r + 1]) / (PC_BLOCKS * PC_PASSES);
        dsm_barrier();
    }
    proto_adapt_counts counts = adapt_counts_now();
    /* the counts of both homes, at node 0 */
    /* node 1's handoffs (it is not the home: its upgrade is a round trip) */
    double *lock1 = dsm_alloc(4 * sizeof *lock1, "bench.lock_node1");
    if (me == 1) {
        lock1[0] = bench_median(lock_v[0], ROUNDS / 2);
        lock1[1] = bench_spread(lock_v[0], ROUNDS / 2);
        lock1[2] = bench_median(lock_v[1], ROUNDS / 2);
        lock1[3] = bench_spread(lock_v[1], ROUNDS / 2);
    }
    enum { NC = 6 };
    unsigned long long *cnt = dsm_alloc(2 * NC * sizeof *cnt, "bench.adapt_counts");
    cnt[NC * me] = counts.exclusive_reads;
    cnt[NC * me + 1] = counts.fallbacks;
    cnt[NC * me + 2] = counts.downgrades;
    cnt[NC * me + 3] = counts.pushes;
    cnt[NC * me + 4] = counts.pushed;
    cnt[NC * me + 5] = counts.flushes;
    dsm_barrier();
    if (me == 0) {
        int k = ROUNDS / 2;
        double lp = bench_median(lock_v[0], k), la = bench_median(lock_v[1], k);
        double sp = bench_median(spin_v[0], k), sa = bench_median(spin_v[1], k);
        printf("bench_adapt: 2 nodes, %zu-byte blocks, medians of %d alternating rounds of %d "
               "sections per node per setting; spread = slowest round / fastest\n",
               bs, k, per);
        printf("%-34s %10s %8s %10s %8s %8s\n", "workload", "plain us", "spread", "adapt us",
               "spread", "ratio");
        printf("%-34s %10.2f %8.2f %10.2f %8.2f %8.2f\n", "lock-protected handoff, node 0",
               lp, bench_spread(lock_v[0], k), la, bench_spread(lock_v[1], k), lp / la);
        printf("%-34s %10.2f %8.2f %10.2f %8.2f %8.2f\n", "lock-protected handoff, node 1",
               lock1[0], lock1[1], lock1[2], lock1[3], lock1[2] > 0 ? lock1[0] / lock1[2] : 0);
        printf("%-34s %10.2f %8.2f %10.2f %8.2f %8.2f\n", "spin handoff (no lock)", sp,
               bench_spread(spin_v[0], k), sa, bench_spread(spin_v[1], k), sp / sa);
        double pp = bench_median(pc_v[0], k), pa = bench_median(pc_v[1], k);
        printf("%-34s %10.2f %8.2f %10.2f %8.2f %8.2f   (misses per block and pass, "
               "not us)\n", "producer-consumer buffer", pp, bench_spread(pc_v[0], k), pa,
               bench_spread(pc_v[1], k), pa > 0 ? pp / pa : 0);
        printf("adaptation (both homes): %llu reads granted exclusive, %llu fallbacks to "
               "shared, %llu producers downgraded, %llu pushes (%llu copies pushed), %llu "
               "flushes\n", cnt[0] + cnt[NC], cnt[1] + cnt[NC + 1], cnt[2] + cnt[NC + 2],
               cnt[3] + cnt[NC + 3], cnt[4] + cnt[NC + 4], cnt[5] + cnt[NC + 5]);
        printf("(node 0 took the record over %ld times plain, %ld adaptive, of %d sections "
               "per setting)\n", handoffs[0], handoffs[1], k * per);
        double both = (lp + lock1[0]) / (la + lock1[2]);
        printf("target: lock-protected handoff (both nodes) >= 1.5x faster adaptive: %.2fx, %s\n",
               both, both >= 1.5 ? "met" : "NOT met");
        printf("target: producer-consumer buffer's misses halved: %s\n",
               pa > 0 && pp / pa >= 2 ? "met" : "NOT met");
    }
    dsm_finalize();
    return 0;
}
