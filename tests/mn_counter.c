/* mn_counter.c - lock-protected counters on every node must add up exactly.
 *
 * Each node increments counter 1 (under lock A) and counter 2 (another block,
 * under lock B) ITERS times; at the end both must equal nodes * ITERS on
 * every node.  Inside the critical section a shadow copy of the counter is
 * checked too, which catches two nodes inside at once even when the sum
 * happens to come out right.  A third, unlocked counter is incremented
 * as well: its value is printed (lost updates are expected) but not checked;
 * it adds racing traffic on a block of its own.
 *
 * Usage: mn_counter [ITERS] [started]   (default 10000 per node; "started":
 * each node says so after the first barrier, for tests that must fault a
 * job in the middle of its run, tests/tcp_faults.sh)
 * Exit 0 only if every check passed on every node. */
#include <dsm.h>
#include <stdio.h>
#include <stdlib.h>

struct counter {
    volatile long value;
    volatile long shadow; /* == value whenever the lock is free */
};

int main(int argc, char **argv)
{
    if (dsm_init(&argc, &argv) != 0) {
        perror("mn_counter: dsm_init");
        return 1;
    }
    int me = dsm_node(), nodes = dsm_nodes();
    long iters = argc > 1 ? atol(argv[1]) : 10000;
    if (iters < 0) {
        if (me == 0)
            fprintf(stderr, "usage: mn_counter [ITERS]\n");
        dsm_finalize();
        return 2;
    }
    /* separate dsm_alloc calls: separate blocks */
    struct counter *c1 = dsm_alloc(sizeof *c1, "counter1");
    struct counter *c2 = dsm_alloc(sizeof *c2, "counter2");
    volatile long *plain = dsm_alloc(sizeof *plain, "counter.plain");
    if (!c1 || !c2 || !plain) {
        fprintf(stderr, "mn_counter: node %d: dsm_alloc failed\n", me);
        return 1;
    }
    unsigned lock_a = 0, lock_b = dsm_lock_count() > 1 ? dsm_lock_count() - 1 : 0;
    long bad = 0;

    dsm_barrier();
    if (argc > 2 && argv[2][0] == 's')
        fprintf(stderr, "mn_counter: node %d: started\n", me);
    double t0 = dsm_wtime();
    for (long i = 0; i < iters; i++) {
        dsm_lock(lock_a);
        long v = c1->value;
        if (c1->shadow != v && bad++ < 5)
            fprintf(stderr, "mn_counter: node %d: FAIL counter1 shadow %ld != value %ld inside lock %u\n",
                    me, c1->shadow, v, lock_a);
        c1->value = v + 1;
        c1->shadow = v + 1;
        dsm_unlock(lock_a);

        dsm_lock(lock_b);
        v = c2->value;
        if (c2->shadow != v && bad++ < 5)
            fprintf(stderr, "mn_counter: node %d: FAIL counter2 shadow %ld != value %ld inside lock %u\n",
                    me, c2->shadow, v, lock_b);
        c2->value = v + 1;
        c2->shadow = v + 1;
        dsm_unlock(lock_b);

        if (i % 16 == 0)
            ++*plain; /* racy on purpose */
    }
    double el = dsm_wtime() - t0;
    dsm_barrier();

    long want = (long)nodes * iters;
    if (c1->value != want) {
        fprintf(stderr, "mn_counter: node %d: FAIL counter1 = %ld, expected %ld\n", me, c1->value, want);
        bad++;
    }
    if (c2->value != want) {
        fprintf(stderr, "mn_counter: node %d: FAIL counter2 = %ld, expected %ld\n", me, c2->value, want);
        bad++;
    }
    if (me == 0) {
        printf("mn_counter: %d nodes x %ld increments of 2 counters: %ld and %ld (expected %ld), "
               "%.2f s, %.1f us per locked increment; unlocked counter %ld of %ld (not checked)\n",
               nodes, iters, c1->value, c2->value, want, el,
               iters ? el * 1e6 / (2.0 * (double)iters) : 0.0, *plain,
               (long)nodes * ((iters + 15) / 16));
        fflush(stdout);
    }
    dsm_barrier(); /* everybody has read the counters */
    dsm_finalize();
    return bad ? 1 : 0;
}
