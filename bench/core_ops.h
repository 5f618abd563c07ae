/* core_ops.h - what bench_core and bench_transport both measure: the
 * probes (a protection fault granted by mprotect, a block copy) and the
 * core protocol operations on two nodes (remote read miss, remote write
 * miss, upgrade, migratory handoff, the runtime's message round trip), so
 * that the two tables are made by one piece of code. */
#ifndef DSM_BENCH_CORE_OPS_H
#define DSM_BENCH_CORE_OPS_H

#include <stddef.h>

/* Median of 7 (sorts v). */
double bench_median7(double v[7]);
/* The largest of v[0..n) over the smallest (n >= 1; 0 when the smallest is 0). */
double bench_spread(const double *v, int n);
/* One protection fault granted by mprotect (us), median of 7 batches: on
 * the odd pages of a `pages`-page mapping whose even pages are accessible
 * (pages > 1: every grant merges and every re-protection splits the
 * kernel's memory areas, as the DSM's per-block protections do), or on one
 * page alone (pages == 1). */
double bench_probe_fault_us(size_t page, int pages, int count);
/* The home's write right taken back from a written page (mprotect
 * read-write to read-only, us), median of 7 batches: part of every remote
 * read miss of a block the home wrote, outside the limit probe. */
double bench_probe_downgrade_us(size_t page, int count);
/* One block copy (us). */
double bench_probe_copy_us(size_t block, int count);

typedef struct bench_core_result {
    double rtt, read, write, upgrade, migratory; /* us per operation: medians of 7 rounds */
    /* the spread of the 7 rounds: slowest round / fastest round */
    double rtt_spread, read_spread, write_spread, upgrade_spread, migratory_spread;
    /* the handoff at a barrier per turn, and through an atomic counter
     * (dsm_atomic_add); counters_ok: both counters came out right */
    double barrier_handoff, atomic_handoff, atomic_handoff_spread;
    /* the read miss while the home's program computes (it spins on a
     * flag), not parked in a barrier: its write right is taken before the
     * answer (dsm/park.h) and its progress thread shares its core */
    double read_busy, read_busy_spread;
    int counters_ok;
} bench_core_result;

/* Collective on exactly 2 nodes: nblk blocks homed at node 0, each already
 * touched by node 1 (steady state), and one round of nblk remote read
 * misses, write misses and upgrades by node 1 (us per operation, valid on
 * node 1). */
char *bench_core_blocks(int nblk);
void bench_core_round(char *blk, int nblk, double *read_us, double *write_us, double *upg_us);

/* Collective on exactly 2 nodes (after dsm_init): medians of 7 rounds of
 * nblk operations of each kind, in steady state (pages already populated).
 * The result is valid on node 0. */
void bench_core_measure(int nblk, bench_core_result *out);

#endif
