/* bench_lock.c - a lock every node contends for, with and without a page
 * to update under it, on any number of nodes: the critical section's
 * length over the whole job (wall time of the phase / sections done), the
 * counter checked.  Settings are compared by runs under each, alternated
 * (doc/protocol.md, "Synchronisation in the job's memory").
 *   dsmrun -n N bench/bench_lock [SECTIONS_PER_NODE]
 * prints "bench_lock: N nodes, empty X us, with a page Y us, counter OK". */
#include <stdio.h>
#include <stdlib.h>

#include "dsm.h"

int main(int argc, char **argv)
{
    if (dsm_init(&argc, &argv))
        return 1;
    int n = argc > 1 ? atoi(argv[1]) : 500;
    if (n < 1)
        n = 1;
    long *counter = dsm_alloc(sizeof *counter, "bench_lock.counter");
    dsm_barrier();
    double t0 = dsm_wtime();
    for (int i = 0; i < n; i++) {
        dsm_lock(0);
        dsm_unlock(0);
    }
    dsm_barrier();
    double t1 = dsm_wtime();
    for (int i = 0; i < n; i++) {
        dsm_lock(1);
        (*counter)++;
        dsm_unlock(1);
    }
    dsm_barrier();
    double t2 = dsm_wtime();
    long want = (long)dsm_nodes() * n;
    int ok = *counter == want;
    if (dsm_node() == 0)
        printf("bench_lock: %d nodes, empty %.2f us, with a page %.2f us, counter %s\n",
               dsm_nodes(), (t1 - t0) * 1e6 / (double)want, (t2 - t1) * 1e6 / (double)want,
               ok ? "OK" : "WRONG");
    dsm_finalize();
    return ok ? 0 : 1;
}
