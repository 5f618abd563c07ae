/* mn_timeslices.c - two phases of misses separated by a pause, for the
 * profile's timeslices (tests/mn_timeslices.sh).  In each phase every node
 * writes its own long in one shared block and reads the others', ROUNDS
 * rounds between barriers: misses every round.  Between the phases node 0
 * sleeps PAUSE_MS while the others wait at a barrier: no misses, only
 * barrier wait.  Node 0 prints "pause FROM TO" (dsm_wtime: job time, the
 * clock of the timeslices).
 *   usage: mn_timeslices [ROUNDS [PAUSE_MS]]   (defaults 200, 300) */
#include <dsm.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static long phase(volatile long *slots, int rounds)
{
    int me = dsm_node(), n = dsm_nodes();
    long sum = 0;
    for (int r = 0; r < rounds; r++) {
        slots[me] = r;
        dsm_barrier();
        for (int i = 0; i < n; i++)
            sum += slots[i];
        dsm_barrier();
    }
    return sum;
}

int main(int argc, char **argv)
{
    if (dsm_init(&argc, &argv) != 0)
        return 1;
    int rounds = argc > 1 ? atoi(argv[1]) : 200;
    int pause_ms = argc > 2 ? atoi(argv[2]) : 300;
    int me = dsm_node(), n = dsm_nodes();
    volatile long *slots = dsm_alloc((size_t)n * sizeof(long), "slots");
    long want = (long)rounds * (rounds - 1) / 2 * n;
    int ok = phase(slots, rounds) == want;
    double from = dsm_wtime();
    if (me == 0)
        usleep((useconds_t)pause_ms * 1000);
    dsm_barrier();
    double to = dsm_wtime();
    ok = ok && phase(slots, rounds) == want;
    if (me == 0)
        printf("pause %.6f %.6f\n", from, to);
    printf("mn_timeslices: node %d %s\n", me, ok ? "OK" : "WRONG");
    dsm_finalize();
    return !ok;
}
