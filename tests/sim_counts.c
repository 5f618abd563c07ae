/* sim_counts.c - a program whose misses on a simulated machine can be
 * counted by hand (tests/sim_frontend.sh checks them in dsm-sim.json).
 * Built with DSMCC_CFLAGS: the same binary runs natively, on the DSM and
 * simulated, and verifies its data in every case.
 *
 * With P processors, lines of B bytes (dsm_block_size), R = ROUNDS and
 * L = SHARED_LINES, on a machine whose caches hold all of it (the uniform
 * machine: 64 KB, nothing here conflicts), the bins are:
 *   own     each processor writes one word of its own line, then processor
 *           0 reads them all: P cold write misses, P-1 cold read misses
 *   shared  every processor reads one word of each of L lines nobody wrote:
 *           L*P cold read misses
 *   token   one word written in turn by processors 0..P-1, R rounds, a
 *           barrier before each turn: R*P write misses, P cold and P*(R-1)
 *           invalidations (true sharing); then processor 0 reads it: one
 *           more read miss, an invalidation
 *   slots   each processor writes its own word of one shared line once per
 *           round (LocusRoute's packed slots): R*P write misses, P cold and
 *           P*(R-1) invalidations, all false sharing
 *   values  processor 0 writes N words, every processor sums them (checked)
 *   counter a word incremented INCREMENTS times by every processor under
 *           lock 3 (checked: P*INCREMENTS), and a dsm_malloc'd word per
 *           processor, homed at it (checked)
 *
 * Modes (argv[1]): counts (default), deadlock (a lock never released while
 * its holder waits in a barrier: simulated, this must end with a deadlock
 * error), nofinalize (processor 1 returns without dsm_finalize). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dsm.h"

#define ROUNDS 5
#define SHARED_LINES 64
#define NVALUES 1000
#define INCREMENTS 10

static int failures;

static void check(int ok, const char *what, long got, long want)
{
    if (!ok) {
        fprintf(stderr, "sim_counts: processor %d: %s: got %ld, want %ld\n", dsm_node(), what,
                got, want);
        failures++;
    }
}

static void write_own(volatile int *own, size_t stride)
{
    int me = dsm_node();
    own[(size_t)me * stride] = me + 1;
}

static void check_own(volatile int *own, size_t stride)
{
    for (int p = 0; p < dsm_nodes(); p++)
        check(own[(size_t)p * stride] == p + 1, "own line", own[(size_t)p * stride], p + 1);
}

static long read_shared(volatile int *shared, size_t stride)
{
    long sum = 0;
    for (size_t i = 0; i < SHARED_LINES; i++)
        sum += shared[i * stride];
    return sum;
}

static void pingpong(volatile int *token)
{
    int me = dsm_node(), n = dsm_nodes();
    for (int r = 0; r < ROUNDS; r++)
        for (int q = 0; q < n; q++) {
            dsm_barrier();
            if (q == me)
                token[0] = r * n + q;
        }
}

static void write_slots(volatile int *slots)
{
    int me = dsm_node();
    for (int r = 0; r < ROUNDS; r++) {
        dsm_barrier();
        slots[me] = r;
    }
}

static long sum_values(volatile int *values)
{
    long sum = 0;
    for (int i = 0; i < NVALUES; i++)
        sum += values[i];
    return sum;
}

static void count_under_lock(volatile long *counter)
{
    for (int i = 0; i < INCREMENTS; i++) {
        dsm_lock(3);
        long v = *counter; /* a miss here lets other processors run: they must wait */
        *counter = v + 1;
        dsm_unlock(3);
    }
}

static void private_memory(void)
{
    volatile long *mine = dsm_malloc(sizeof(long), "mine");
    check(mine != NULL, "dsm_malloc", 0, 1);
    if (!mine)
        return;
    *mine = 1000 + dsm_node();
    check(*mine == 1000 + dsm_node(), "malloc'd word", *mine, 1000 + dsm_node());
    check(dsm_home_of((const void *)mine) == dsm_node(), "home of malloc'd word",
          dsm_home_of((const void *)mine), dsm_node());
    dsm_free((void *)mine);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "counts";
    if (strcmp(mode, "counts") && strcmp(mode, "deadlock") && strcmp(mode, "nofinalize")) {
        fprintf(stderr, "usage: sim_counts [counts|deadlock|nofinalize]\n");
        return 2;
    }
    if (dsm_init(&argc, &argv))
        return 1;
    int me = dsm_node(), n = dsm_nodes();
    size_t stride = dsm_block_size() / sizeof(int);

    if (!strcmp(mode, "deadlock")) {
        if (me == 0)
            dsm_lock(0);     /* never released */
        else
            dsm_lock(0);     /* waits for processor 0 ... */
        dsm_barrier();       /* ... which waits here for everyone */
        dsm_finalize();
        return 0;
    }
    if (!strcmp(mode, "nofinalize")) {
        dsm_barrier();
        if (me == 1 || n == 1)
            return 0;
        dsm_finalize();
        return 0;
    }

    volatile int *own = dsm_alloc((size_t)n * stride * sizeof(int), "own");
    volatile int *shared = dsm_alloc(SHARED_LINES * stride * sizeof(int), "shared");
    volatile int *token = dsm_alloc(sizeof(int), "token");
    volatile int *slots = dsm_alloc((size_t)n * sizeof(int), "slots");
    volatile int *values = dsm_alloc(NVALUES * sizeof(int), "values");
    volatile long *counter = dsm_alloc(sizeof(long), "counter");

    write_own(own, stride);
    dsm_barrier();
    if (me == 0)
        check_own(own, stride);

    long s = read_shared(shared, stride);
    check(s == 0, "sum of the untouched lines", s, 0);

    pingpong(token);
    dsm_barrier();
    if (me == 0)
        check(token[0] == (ROUNDS - 1) * n + n - 1, "token", token[0], (ROUNDS - 1) * n + n - 1);

    write_slots(slots);
    dsm_barrier();

    if (me == 0)
        for (int i = 0; i < NVALUES; i++)
            values[i] = i;
    dsm_barrier();
    long v = sum_values(values);
    check(v == (long)NVALUES * (NVALUES - 1) / 2, "sum of values", v,
          (long)NVALUES * (NVALUES - 1) / 2);
    dsm_barrier();
    if (me == 0)
        for (int p = 0; p < n; p++)
            check(slots[p] == ROUNDS - 1, "slot", slots[p], ROUNDS - 1);

    count_under_lock(counter);
    private_memory();
    dsm_barrier();
    if (me == 0)
        check(*counter == (long)n * INCREMENTS, "counter", *counter, (long)n * INCREMENTS);

    double t = dsm_wtime();
    check(t >= 0, "dsm_wtime", (long)t, 0);
    if (me == 0) /* the machine's seconds (tests/sim_frontend.sh checks them) */
        printf("sim_counts: dsm_wtime %.9f\n", t);
    dsm_finalize();
    if (failures)
        return 1;
    if (me == 0)
        printf("sim_counts: %d processors, all values verified\n", n);
    return 0;
}
