/* mn_sigbusy.c - the runtime cannot serve a fault taken by a signal
 * handler that interrupted it on the same thread (it may hold the engine
 * lock): such a fault must end the job with one line, not deadlock.  The
 * runtime blocks every asynchronous signal while it is busy, so the test
 * uses a synchronous one it cannot block: node 1 marks itself busy
 * (dsm_rt_enter, an internal call) and raises SIGTRAP, whose handler reads
 * a block the node does not hold.  Run by tests/mn_signal.sh. */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "dsm.h"
#include "node.h"

static volatile long *shared;

static void on_trap(int sig)
{
    (void)sig;
    long v = *shared; /* a miss: node 0 wrote it last */
    printf("mn_sigbusy: the handler read %ld\n", v);
}

int main(int argc, char **argv)
{
    if (dsm_init(&argc, &argv))
        return 1;
    shared = dsm_alloc(sizeof *shared, "shared");
    if (dsm_node() == 0)
        *shared = 7;
    dsm_barrier();
    if (dsm_node() == 1) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_trap;
        sigaction(SIGTRAP, &sa, NULL);
        dsm_rt_enter();
        raise(SIGTRAP);
        dsm_rt_leave();
    }
    dsm_barrier();
    dsm_finalize();
    return 0;
}
