/* mn_park.c - the parked home (dsm/park.h): while node 0's only thread
 * waits inside the runtime, it answers node 1's misses before it takes its
 * own write right away, and the right is taken before it comes back.
 *   mn_park MODE ROUNDS PAGES      (2 or more nodes; node 0 is the home)
 * MODE:
 *   parked   node 0 writes its pages, waits at a barrier while node 1 reads
 *            them (the misses are deferred), then writes them again: a
 *            write right left behind would not fault, node 1 would keep
 *            the old value, and its check of the next round fails;
 *   busy     the same, but node 0 computes (spins on a runtime atomic)
 *            while node 1 reads: nothing may be deferred;
 *   handler  node 0 has a SIGUSR2 handler (installed after dsm_init, or
 *            before it with MN_PARK_EARLY_HANDLER=1): nothing may be deferred;
 *   thread   node 0 runs a second thread (asleep): nothing may be deferred;
 *   race     node 0 writes page after page, each under a lock that node 1
 *            manages (it parks in every lock wait), while node 1 reads them
 *            all over and over; at the end node 1 must see node 0's last
 *            value of every page (a write between a deferred copy and the
 *            protection change would leave node 1's copy stale for good).
 * Node 0 prints "deferred N" (calls that sent before protecting, counted
 * by the runtime: the test links the internals); node 1 prints OK. */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dsm.h"
#include "node.h"

extern dsm_rt *dsm_g;

static volatile sig_atomic_t got;
static void on_usr2(int sig) { (void)sig, got = 1; }

static pthread_mutex_t idle_m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t idle_c = PTHREAD_COND_INITIALIZER;
static int idle_stop;
static void *idle_thread(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&idle_m);
    while (!idle_stop)
        pthread_cond_wait(&idle_c, &idle_m);
    pthread_mutex_unlock(&idle_m);
    return NULL;
}

static int fail(const char *what, long page, long got_v, long want)
{
    fprintf(stderr, "mn_park: node %d: %s: page %ld holds %ld, want %ld\n", dsm_node(), what,
            page, got_v, want);
    return 1;
}

int main(int argc, char **argv)
{
    /* MN_PARK_EARLY_HANDLER=1: the handler is there before dsm_init */
    if (getenv("MN_PARK_EARLY_HANDLER"))
        signal(SIGUSR2, on_usr2);
    if (dsm_init(&argc, &argv))
        return 1;
    if (argc != 4 || dsm_nodes() < 2) {
        fprintf(stderr, "usage: mn_park parked|busy|handler|thread|race ROUNDS PAGES (2+ nodes)\n");
        return 2;
    }
    const char *mode = argv[1];
    long rounds = atol(argv[2]), npages = atol(argv[3]);
    int me = dsm_node();
    size_t bs = dsm_block_size();
    /* node 0's pages (DSM_HOMES=blocked puts the first block at node 0;
     * dsm_malloc by node 0 homes them there whatever the setting) */
    static char *volatile *where;
    where = dsm_alloc(sizeof *where, "mn_park.where");
    if (me == 0)
        *where = dsm_malloc((size_t)npages * bs, "mn_park.pages");
    dsm_barrier();
    char *pg = *where;
    pthread_t helper;
    if (me == 0 && !strcmp(mode, "handler"))
        signal(SIGUSR2, on_usr2);
    if (me == 0 && !strcmp(mode, "thread"))
        pthread_create(&helper, NULL, idle_thread, NULL);
    /* count from here: node 1's read of *where may have been deferred
     * while node 0 was still parked in the barrier above, before its
     * handler or thread existed (sound then); it is done before node 1
     * arrives here */
    dsm_barrier();
    unsigned long long deferred0 = dsm_g->park.deferred;
    int bad = 0;
    if (!strcmp(mode, "race")) {
        unsigned lock = 1; /* managed by node 1 (id % nodes) */
        if (me == 0)
            for (long r = 1; r <= rounds; r++)
                for (long i = 0; i < npages; i++) {
                    dsm_lock(lock);
                    *(volatile long *)(pg + (size_t)i * bs) = r;
                    dsm_unlock(lock);
                }
        else if (me == 1)
            for (long r = 0; r < rounds * 4; r++)
                for (long i = 0; i < npages; i++) {
                    long v = *(volatile long *)(pg + (size_t)i * bs);
                    if (v < 0 || v > rounds)
                        bad |= fail("race", i, v, rounds);
                }
        dsm_barrier();
        if (me == 1)
            for (long i = 0; i < npages; i++) {
                long v = *(volatile long *)(pg + (size_t)i * bs);
                if (v != rounds)
                    bad |= fail("race, at the end", i, v, rounds);
            }
    } else {
        int busy = !strcmp(mode, "busy");
        for (long r = 1; r <= rounds; r++) {
            if (me == 0)
                for (long i = 0; i < npages; i++)
                    *(volatile long *)(pg + (size_t)i * bs) = r;
            dsm_barrier();
            if (me == 1) {
                for (long i = 0; i < npages; i++) {
                    long v = *(volatile long *)(pg + (size_t)i * bs);
                    if (v != r)
                        bad |= fail(mode, i, v, r);
                }
                if (busy)
                    dsm_atomic_add(0, 1);
            } else if (me == 0 && busy) {
                volatile long spin = 0;
                while (dsm_atomic_load(0) < r)
                    for (int k = 0; k < 2000; k++)
                        spin++;
            }
            dsm_barrier();
        }
    }
    if (me == 0) {
        printf("mn_park: node 0: deferred %llu\n",
               (unsigned long long)dsm_g->park.deferred - deferred0);
        if (!strcmp(mode, "thread")) {
            pthread_mutex_lock(&idle_m);
            idle_stop = 1;
            pthread_cond_signal(&idle_c);
            pthread_mutex_unlock(&idle_m);
            pthread_join(helper, NULL);
        }
    }
    if (me == 1 && !bad)
        printf("mn_park: node 1: %s: OK\n", mode);
    fflush(stdout);
    dsm_finalize();
    return bad;
}
