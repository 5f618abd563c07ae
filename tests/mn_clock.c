/* mn_clock.c - dsm_wtime has one base on every node, also when the nodes'
 * clocks differ (hosts of a cluster; tests/tcp_clock.sh forces it on the
 * network test bed with DSM_TEST_CLOCK_OFFSET_NS).
 *
 * Two checks, each against a bound far below the forced offsets (seconds):
 *  - right after dsm_init every node's dsm_wtime is near 0: within
 *    START_BOUND_S (the job's start, which may be slow on a crowded machine);
 *  - causality: the nodes take a lock in turn ROUNDS times; the holder reads
 *    the time stamp its predecessor wrote inside the lock and its own
 *    dsm_wtime, which comes later in real time, so it may not be earlier by
 *    more than the error of the offset estimate (half a round trip, and the
 *    time a host's clock takes to be read: SKEW_BOUND_S).
 * Prints "mn_clock: node N: OK (worst backwards step X us)".
 * Usage: mn_clock [ROUNDS]   (default 200 per node) */
#include <dsm.h>
#include <stdio.h>
#include <stdlib.h>

#define START_BOUND_S 30.0
#define SKEW_BOUND_S 0.005

struct stamp {
    volatile double t;
    volatile int node;
};

int main(int argc, char **argv)
{
    if (dsm_init(&argc, &argv) != 0) {
        perror("mn_clock: dsm_init");
        return 1;
    }
    double start = dsm_wtime();
    int me = dsm_node();
    long rounds = argc > 1 ? atol(argv[1]) : 200;
    struct stamp *last = dsm_alloc(sizeof *last, "clock.last");
    if (!last) {
        fprintf(stderr, "mn_clock: node %d: dsm_alloc failed\n", me);
        return 1;
    }
    int bad = 0;
    if (start < -SKEW_BOUND_S || start > START_BOUND_S) {
        fprintf(stderr, "mn_clock: node %d: FAIL dsm_wtime right after dsm_init is %.6f s\n", me,
                start);
        bad = 1;
    }
    if (me == 0)
        last->node = -1;
    dsm_barrier();
    double worst = 0; /* how far a successor's clock was behind, seconds */
    int worst_from = -1;
    for (long i = 0; i < rounds; i++) {
        dsm_lock(0);
        double prev = last->t, now = dsm_wtime();
        if (last->node >= 0 && last->node != me && prev - now > worst) {
            worst = prev - now;
            worst_from = last->node;
        }
        last->t = dsm_wtime();
        last->node = me;
        dsm_unlock(0);
    }
    dsm_barrier();
    if (worst > SKEW_BOUND_S) {
        fprintf(stderr,
                "mn_clock: node %d: FAIL dsm_wtime went back %.6f s after node %d's stamp "
                "(bound %.3f s)\n",
                me, worst, worst_from, SKEW_BOUND_S);
        bad = 1;
    }
    if (!bad)
        printf("mn_clock: node %d: OK (start %.3f s, worst backwards step %.1f us)\n", me, start,
               worst * 1e6);
    fflush(stdout);
    dsm_finalize();
    return bad;
}
