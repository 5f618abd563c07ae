/* bench_profile_miss.c - what the profile costs per miss, measured within
 * one run: 2 nodes, rounds of remote read misses, remote write misses and
 * upgrades on blocks homed at node 0, with the profile's recording
 * alternately on and off (dsm_prof_record) round after round, so that the
 * machine's drifts (a shared 2-core VM) hit both columns alike.  "on" is all
 * of the profile's runtime work: miss causes, the faulting instruction per
 * block, timeslices, twins at write grants and the diffs of write epochs.
 * Run: dsmrun -n 2 bench/bench_profile_miss [blocks] [pairs]
 * (the profile must be on: DSM_PROFILE not "off"). */
#include <stdio.h>
#include <stdlib.h>

#include "bench_util.h"
#include "core_ops.h"
#include "dsm.h"
#include "node.h"
#include "prof/prof.h"

enum { READ, WRITE, UPGRADE, NKINDS };
static const char *const kind_name[NKINDS] = { "remote read miss", "remote write miss",
                                                "upgrade" };

int main(int argc, char **argv)
{
    if (dsm_init(&argc, &argv))
        return 1;
    int nblk = argc > 1 ? atoi(argv[1]) : 1000;
    int pairs = argc > 2 ? atoi(argv[2]) : 15;
    if (nblk < 10)
        nblk = 10;
    if (pairs < 3 || pairs > 1000)
        pairs = 15;
    int me = dsm_node();
    if (dsm_nodes() != 2 || !dsm_g->prof) {
        if (me == 0)
            fprintf(stderr, "bench_profile_miss: run on exactly 2 nodes (dsmrun -n 2) with the "
                            "profile on (DSM_PROFILE not \"off\")\n");
        dsm_finalize();
        return 2;
    }
    size_t bs = dsm_block_size();
    char *blk = bench_core_blocks(nblk);
    double *res = dsm_alloc(sizeof(double) * 2 * NKINDS * (size_t)pairs, "bench.results");
    double warm[NKINDS];
    bench_core_round(blk, nblk, &warm[READ], &warm[WRITE], &warm[UPGRADE]);
    for (int r = 0; r < 2 * pairs; r++) {
        /* on, off, off, on, on, off, ...: neither column always goes first */
        int on = ((r + 1) / 2) % 2 == 0;
        dsm_prof_record(dsm_g, on);
        dsm_barrier();
        double t[NKINDS];
        bench_core_round(blk, nblk, &t[READ], &t[WRITE], &t[UPGRADE]);
        if (me == 1)
            for (int k = 0; k < NKINDS; k++)
                res[(size_t)((on ? 0 : 1) * NKINDS + k) * (size_t)pairs + (size_t)(r / 2)] = t[k];
    }
    dsm_prof_record(dsm_g, 1);
    dsm_barrier();
    if (me == 0) {
        printf("bench_profile_miss: 2 nodes, %zu-byte blocks, %d operations per round, medians of "
               "%d rounds per column (alternated in one run)\n",
               bs, nblk, pairs);
        printf("%-20s %12s %12s %10s\n", "operation", "off us/op", "on us/op", "overhead");
        double worst = 0;
        for (int k = 0; k < NKINDS; k++) {
            double on_v[1000], off_v[1000];
            for (int i = 0; i < pairs; i++) {
                on_v[i] = res[(size_t)(0 * NKINDS + k) * (size_t)pairs + (size_t)i];
                off_v[i] = res[(size_t)(1 * NKINDS + k) * (size_t)pairs + (size_t)i];
            }
            double a = bench_median(off_v, pairs), b = bench_median(on_v, pairs);
            double ov = (b - a) / a * 100;
            if (ov > worst)
                worst = ov;
            printf("%-20s %12.2f %12.2f %9.1f%%\n", kind_name[k], a, b, ov);
        }
        printf("target: the profile costs at most 3%% of a miss: %s (worst %.1f%%)\n",
               worst <= 3 ? "met" : "NOT met", worst);
        fflush(stdout);
    }
    dsm_finalize();
    return 0;
}
