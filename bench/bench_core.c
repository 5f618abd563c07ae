/* bench_core.c - the core protocol's costs on two nodes, each beside the
 * probes it is made of, measured in the same run:
 *   remote read miss    ~ fault + message round trip + block copy
 *   remote write miss   ~ fault + message round trip + block copy
 *   upgrade             ~ fault + message round trip
 *   migratory handoff   ~ read miss + upgrade: the next node reads the block
 *                          (recalled from the last writer), then writes it
 * Run: dsmrun -n 2 bench/bench_core [blocks]   (prints one table, node 0) */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "core_ops.h"
#include "dsm.h"

int main(int argc, char **argv)
{
    int nblk = argc > 1 ? atoi(argv[1]) : 1000;
    if (nblk < 10)
        nblk = 10;
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    double fault_alone_us = bench_probe_fault_us(page, 1, 2100);
    double fault_us = bench_probe_fault_us(page, 2048, 2100);
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
    double res[4] = { r.rtt, r.read, r.write, r.upgrade }, mig_us = r.migratory;
    if (me == 0) {
        double miss_probe = fault_us + res[0] + copy_us;
        double upg_probe = fault_us + res[0];
        printf("bench_core: 2 nodes, %zu-byte blocks, medians of 7 rounds of %d operations\n", bs,
               nblk);
        printf("%-26s %10s %14s %8s\n", "operation", "us/op", "probe sum us", "ratio");
        printf("%-26s %10.2f   (one page alone: %.2f)\n", "probe: protection fault", fault_us,
               fault_alone_us);
        printf("%-26s %10.2f\n", "probe: message round trip", res[0]);
        printf("%-26s %10.2f\n", "probe: block copy", copy_us);
        printf("%-26s %10.2f %14.2f %8.2f\n", "remote read miss", res[1], miss_probe,
               res[1] / miss_probe);
        printf("%-26s %10.2f %14.2f %8.2f\n", "remote write miss", res[2], miss_probe,
               res[2] / miss_probe);
        printf("%-26s %10.2f %14.2f %8.2f\n", "upgrade", res[3], upg_probe, res[3] / upg_probe);
        printf("%-26s %10.2f %14.2f %8.2f\n", "migratory handoff", mig_us,
               miss_probe + upg_probe, mig_us / (miss_probe + upg_probe));
        printf("target: remote read miss ratio <= 1.5: %s\n",
               res[1] / miss_probe <= 1.5 ? "met" : "NOT met");
    }
    dsm_finalize();
    return 0;
}
