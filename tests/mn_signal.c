/* mn_signal.c - a signal handler of the program reads shared memory while
 * the program takes locks and writes shared data: SIGALRM every 200 us
 * (setitimer, process-directed, so the kernel may pick any thread that
 * does not block it) and a handler that reads the lock-protected counter,
 * which the other node keeps invalidating, so the handler's reads fault
 * while the main thread is anywhere, in or out of the runtime.  The runtime
 * must neither deadlock (its own threads take none of the program's
 * signals; an application thread busy inside it defers them) nor lose
 * data.  Exit 0 only if the counter and every slot are exact, the handler
 * ran and never saw the counter go back.  Run by tests/mn_signal.sh. */
#define _GNU_SOURCE 1
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#include "dsm.h"

static volatile long *counter;
static long *slots;
static volatile sig_atomic_t handler_runs, went_back;
static long last_seen;

static void on_alarm(int sig)
{
    (void)sig;
    long v = *counter; /* faults whenever the other node took the block */
    if (v < last_seen)
        went_back = 1;
    last_seen = v;
    handler_runs++;
}

int main(int argc, char **argv)
{
    if (dsm_init(&argc, &argv))
        return 1;
    int iters = argc > 1 ? atoi(argv[1]) : 3000;
    int me = dsm_node(), nodes = dsm_nodes();
    counter = dsm_alloc(sizeof *counter, "counter");
    slots = dsm_alloc(64 * (size_t)nodes * sizeof *slots, "slots");

    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_alarm;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGALRM, &sa, NULL);
    struct itimerval it = { { 0, 200 }, { 0, 200 } };
    setitimer(ITIMER_REAL, &it, NULL);
    dsm_barrier();

    for (int i = 0; i < iters; i++) {
        dsm_lock(0);
        ++*counter;
        dsm_unlock(0);
        /* interleaved slots: every block holds both nodes' slots */
        slots[(size_t)i % 64 * (size_t)nodes + (size_t)me] += 1;
        for (volatile int k = 0; k < 2000; k++) /* private work: the timer hits it too */
            ;
    }

    struct itimerval off = { { 0, 0 }, { 0, 0 } };
    setitimer(ITIMER_REAL, &off, NULL);
    dsm_barrier();
    int bad = 0;
    long want = (long)nodes * iters;
    if (*counter != want) {
        fprintf(stderr, "mn_signal: node %d: counter %ld, expected %ld\n", me, *counter, want);
        bad = 1;
    }
    for (int k = 0; k < 64; k++)
        for (int n = 0; n < nodes; n++) {
            long v = slots[(size_t)k * (size_t)nodes + (size_t)n];
            long expect = iters / 64 + (k < iters % 64);
            if (v != expect) {
                fprintf(stderr, "mn_signal: node %d: slot %d of node %d is %ld, expected %ld\n",
                        me, k, n, v, expect);
                bad = 1;
            }
        }
    if (handler_runs == 0) {
        fprintf(stderr, "mn_signal: node %d: the handler never ran\n", me);
        bad = 1;
    }
    if (went_back) {
        fprintf(stderr, "mn_signal: node %d: the handler saw the counter go back\n", me);
        bad = 1;
    }
    printf("mn_signal: node %d: %ld handler runs, counter %ld: %s\n", me, (long)handler_runs,
           *counter, bad ? "FAILED" : "OK");
    dsm_barrier();
    dsm_finalize();
    return bad;
}
