/* mn_sigrace.c - a handler installed while another thread of the node is
 * inside the runtime.  Without a handler of the program the runtime runs
 * its sections with the signals open (dsm/sig_gate.c); installing one must
 * first wait until no thread is inside such a section, or its signal may
 * interrupt one there and fault inside the engine.  Each node's worker
 * takes a lock both nodes contend for (so it spends its time inside the
 * runtime, waiting); a writer thread keeps writing the node's own block;
 * the main thread installs a handler for SIGUSR1 that reads the other
 * node's block (a miss, mostly), sends the worker the signal a few times, then
 * removes the handler (SIG_IGN: the gate opens again), over and over.
 * A handler let in too early ends the job ("fault ... inside a signal
 * handler while the runtime was busy") or deadlocks (run_mn.sh's timeout).
 * Exit 0 only if the locked counter is exact and the handler ran (on
 * either node: a starved main thread may see its worker end first).
 * The worker's only miss is on the counter, which the other node cannot
 * want while the worker holds the lock: a handler that interrupts a miss
 * whose grant came but was not yet retried, and itself misses on a block
 * the other node holds the same way, waited for ever (seen with a worker
 * that wrote its block itself: the held grant is recorded only when the
 * interrupted wait returns); the handler's miss now gives that grant up
 * (dsm/node.c, release_interrupted), which tests/mn_sighold.c checks.  Run
 * by tests/mn_signal.sh. */
#define _GNU_SOURCE 1
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dsm.h"

static long *counter, *hot;
static size_t stride; /* longs per block: each node's hot word in a block of its own */
static int me;
static int iters;
static atomic_int worker_done;
static volatile sig_atomic_t runs;

static void on_usr1(int sig)
{
    (void)sig;
    volatile long v = hot[(size_t)(1 - me) * stride]; /* a miss, mostly */
    (void)v;
    runs++;
}

static void *worker(void *arg)
{
    (void)arg;
    for (int i = 0; i < iters; i++) {
        dsm_lock(0);
        (*counter)++;
        dsm_unlock(0);
    }
    atomic_store(&worker_done, 1);
    return NULL;
}

static void *writer(void *arg)
{
    (void)arg;
    /* the signal is the worker's (pthread_kill), but never let it in here:
     * a handler interrupting this thread's own misses is the case above */
    sigset_t usr1;
    sigemptyset(&usr1);
    sigaddset(&usr1, SIGUSR1);
    pthread_sigmask(SIG_BLOCK, &usr1, NULL);
    for (long i = 0; !atomic_load(&worker_done); i++) {
        hot[(size_t)me * stride] = i;
        nanosleep(&(struct timespec){ 0, 20000 }, NULL);
    }
    return NULL;
}

static void set_usr1(void (*h)(int))
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = h;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGUSR1, &sa, NULL);
}

int main(int argc, char **argv)
{
    if (dsm_init(&argc, &argv))
        return 1;
    iters = argc > 1 ? atoi(argv[1]) : 800;
    me = dsm_node();
    if (dsm_nodes() != 2) {
        fprintf(stderr, "mn_sigrace: run on 2 nodes\n");
        return 2;
    }
    stride = dsm_block_size() / sizeof(long);
    counter = dsm_alloc(sizeof *counter, "counter");
    hot = dsm_alloc(2 * stride * sizeof *hot, "hot");
    long *ran = dsm_alloc(2 * sizeof *ran, "ran");
    set_usr1(SIG_IGN);
    dsm_barrier();
    pthread_t th, wr;
    if (pthread_create(&th, NULL, worker, NULL) || pthread_create(&wr, NULL, writer, NULL)) {
        fprintf(stderr, "mn_sigrace: pthread_create failed\n");
        return 1;
    }
    long cycles = 0;
    while (!atomic_load(&worker_done)) {
        set_usr1(on_usr1);
        for (int k = 0; k < 3 && !atomic_load(&worker_done); k++) {
            sig_atomic_t before = runs;
            pthread_kill(th, SIGUSR1);
            /* delivered when the worker leaves a blocked section or sleeps */
            while (runs == before && !atomic_load(&worker_done))
                nanosleep(&(struct timespec){ 0, 20000 }, NULL); /* leave the cores to the nodes */
        }
        set_usr1(SIG_IGN);
        cycles++;
    }
    pthread_join(th, NULL);
    pthread_join(wr, NULL);
    ran[me] = runs;
    dsm_barrier();
    long want = 2L * iters, got = *counter;
    int ok = got == want && ran[0] + ran[1] > 0;
    printf("mn_sigrace: node %d: counter %ld (want %ld), %ld install cycles, handler ran %d "
           "times: %s\n",
           me, got, want, cycles, (int)runs, ok ? "OK" : "FAIL");
    dsm_barrier();
    dsm_finalize();
    return ok ? 0 : 1;
}
