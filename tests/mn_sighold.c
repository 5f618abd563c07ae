/* mn_sighold.c - a signal handler that misses while its thread's own miss
 * is between its grant and its retry.
 *
 * A grant that answers a miss is held until the faulting access retried
 * (doc/protocol.md, "Forward progress: holds"): an INV or RECALL for it
 * waits.  A handler that interrupts the miss while it sleeps in the runtime
 * runs before that retry; if the handler misses on a block that the other
 * node holds the same way (its handler interrupted its own miss), each node
 * waits for the other for ever.  Here each node's main thread writes its
 * own block (node n block n) for about a second, and SIGALRM every 100 us
 * runs a handler that writes the other block: a main thread's write misses
 * whenever the other node's handler took its block, and a handler that
 * comes while that miss sleeps misses on the block the other node's main
 * thread may hold the same way.  A hang is a failure (run_mn.sh's
 * --timeout); before the fix every run on 2 nodes hung.  Exit 0 only if
 * every word is exact: each main thread's count, and each handler's count
 * against the runs
 * it counted in private memory.  DSM_SPIN_US=0 (tests/mn_signal.sh) makes
 * every miss sleep, where the handlers run.  Run by tests/mn_signal.sh. */
#define _GNU_SOURCE 1
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include "dsm.h"

/* one per block: the words each node's main thread and handler write */
struct words {
    volatile long main[2]; /* volatile: every write a store, in the loop's order */
    volatile long hand[2];
};

static char *base;
static size_t bs;
static int me;
static atomic_long runs; /* private: what the handler's words must add up to */

static struct words *blk(int b) { return (struct words *)(base + (size_t)b * bs); }

static void on_alarm(int sig)
{
    (void)sig;
    blk(1 - me)->hand[me]++; /* a miss, mostly: the other node's main thread took it */
    atomic_fetch_add(&runs, 1);
}

int main(int argc, char **argv)
{
    if (dsm_init(&argc, &argv))
        return 1;
    double secs = argc > 1 ? atof(argv[1]) : 2.0; /* how long both nodes write */
    me = dsm_node();
    if (dsm_nodes() != 2) {
        fprintf(stderr, "mn_sighold: run on 2 nodes\n");
        return 2;
    }
    bs = dsm_block_size();
    if (bs < sizeof(struct words)) {
        fprintf(stderr, "mn_sighold: blocks of %zu bytes are too small\n", bs);
        return 2;
    }
    base = dsm_alloc(2 * bs, "blocks");
    long *ran = dsm_alloc(2 * sizeof *ran, "ran");
    long *done = dsm_alloc(2 * sizeof *done, "iterations");

    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_alarm;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGALRM, &sa, NULL);
    dsm_barrier();
    struct itimerval it = { { 0, 100 }, { 0, 100 } };
    setitimer(ITIMER_REAL, &it, NULL);

    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    long iters = 0;
    double took = 0;
    do {
        for (int k = 0; k < 64; k++, iters++)
            blk(me)->main[me]++; /* a miss whenever the other node's handler took it */
        clock_gettime(CLOCK_MONOTONIC, &t1);
        took = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    } while (took < secs);

    struct itimerval off = { { 0, 0 }, { 0, 0 } };
    setitimer(ITIMER_REAL, &off, NULL);
    ran[me] = atomic_load(&runs);
    done[me] = iters;
    dsm_barrier();
    int bad = 0;
    for (int n = 0; n < 2; n++)
        if (blk(n)->main[n] != done[n]) {
            fprintf(stderr, "mn_sighold: node %d: node %d's main word %ld, expected %ld\n", me, n,
                    blk(n)->main[n], done[n]);
            bad = 1;
        }
    for (int n = 0; n < 2; n++)
        if (blk(1 - n)->hand[n] != ran[n]) {
            fprintf(stderr, "mn_sighold: node %d: node %d's handler word %ld, its runs %ld\n",
                    me, n, blk(1 - n)->hand[n], ran[n]);
            bad = 1;
        }
    if (ran[0] + ran[1] == 0) {
        fprintf(stderr, "mn_sighold: node %d: no handler ran\n", me);
        bad = 1;
    }
    printf("mn_sighold: node %d: %ld iterations in %.3f s, handler runs %ld and %ld: %s\n", me,
           iters, took, ran[0], ran[1], bad ? "FAILED" : "OK");
    dsm_barrier();
    dsm_finalize();
    return bad;
}
