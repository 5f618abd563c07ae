/* mn_manythreads.c - a node runs far more threads over its life than it
 * has lock-thread slots (DSM_MAX_THREADS, 1024): 3000 short-lived threads
 * per node, a few at a time, each taking a lock and incrementing a shared
 * counter, so the slots of exited threads must be reused.  Exit 0 only if
 * the counter is exact.  Run by tests/mn_manythreads.sh. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "dsm.h"

#define AT_ONCE 4

static long *counter;

static void *worker(void *arg)
{
    (void)arg;
    dsm_lock(1);
    ++*counter;
    dsm_unlock(1);
    return NULL;
}

int main(int argc, char **argv)
{
    if (dsm_init(&argc, &argv))
        return 1;
    int threads = argc > 1 ? atoi(argv[1]) : 3000;
    int me = dsm_node(), nodes = dsm_nodes();
    counter = dsm_alloc(sizeof *counter, "counter");
    for (int done = 0; done < threads; done += AT_ONCE) {
        pthread_t th[AT_ONCE];
        int n = threads - done < AT_ONCE ? threads - done : AT_ONCE;
        for (int t = 0; t < n; t++)
            if (pthread_create(&th[t], NULL, worker, NULL)) {
                fprintf(stderr, "mn_manythreads: node %d: pthread_create failed\n", me);
                return 1;
            }
        for (int t = 0; t < n; t++)
            pthread_join(th[t], NULL);
    }
    dsm_barrier();
    long want = (long)nodes * threads;
    int bad = *counter != want;
    printf("mn_manythreads: node %d: %d threads, counter %ld of %ld: %s\n", me, threads, *counter,
           want, bad ? "FAILED" : "OK");
    dsm_barrier();
    dsm_finalize();
    return bad;
}
