/* mn_threads.c - several application threads per node fault at once
 * (pthreads inside a node, as ArgoDSM allows): every thread of every node
 * increments a lock-protected counter, writes its own slots in blocks
 * shared with other nodes' slots (false sharing, so faults on one block
 * race inside a node), and reads the others' slots after a barrier.  Exit 0
 * only if the counts and every slot are exact. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "dsm.h"

#define THREADS 3
static int iters = 2000;
static long *counter, *slots;
static int me, nodes;

static void *worker(void *arg)
{
    int t = (int)(long)arg;
    int gid = me * THREADS + t;
    for (int i = 0; i < iters; i++) {
        dsm_lock(1);
        ++*counter;
        dsm_unlock(1);
        /* interleaved slots: every block holds slots of every node */
        slots[(size_t)i % 64 * (size_t)(nodes * THREADS) + (size_t)gid] += 1;
    }
    return NULL;
}

int main(int argc, char **argv)
{
    if (dsm_init(&argc, &argv))
        return 1;
    if (argc > 1)
        iters = atoi(argv[1]);
    me = dsm_node();
    nodes = dsm_nodes();
    counter = dsm_alloc(sizeof *counter, "counter");
    slots = dsm_alloc(64 * (size_t)nodes * THREADS * sizeof *slots, "slots");
    pthread_t th[THREADS];
    for (long t = 0; t < THREADS; t++)
        pthread_create(&th[t], NULL, worker, (void *)t);
    for (int t = 0; t < THREADS; t++)
        pthread_join(th[t], NULL);
    dsm_barrier();
    int bad = 0;
    long want = (long)nodes * THREADS * iters;
    if (*counter != want) {
        fprintf(stderr, "mn_threads: node %d: counter %ld, expected %ld\n", me, *counter, want);
        bad = 1;
    }
    for (int k = 0; k < 64; k++)
        for (int g = 0; g < nodes * THREADS; g++) {
            long v = slots[(size_t)k * (size_t)(nodes * THREADS) + (size_t)g];
            long expect = iters / 64 + (k < iters % 64);
            if (v != expect) {
                fprintf(stderr, "mn_threads: node %d: slot %d of thread %d is %ld, expected %ld\n",
                        me, k, g, v, expect);
                bad = 1;
            }
        }
    if (me == 0)
        printf("mn_threads: %d nodes x %d threads: %s\n", nodes, THREADS, bad ? "WRONG" : "OK");
    dsm_barrier();
    dsm_finalize();
    return bad;
}
