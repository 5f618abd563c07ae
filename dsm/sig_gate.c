/* sig_gate.c - the runtime blocks the program's asynchronous signals in its
 * sections only while the program has a handler for one of them.
 *
 * Why: blocking costs two system calls per section (pthread_sigmask in and
 * out), measured as two thirds of an uncontended dsm_lock + dsm_unlock
 * (doc/protocol.md, "Signals and the runtime's sections").  It matters
 * only when a handler of the program can run: without one, an asynchronous
 * signal is ignored, stops or ends the process wherever the thread is.
 * The exported sigaction and signal (blk_signal.c) report each handler
 * installed or removed; the scan at dsm_init finds those installed before.
 *
 * The race: a thread passes the open gate and runs its section with its
 * signals open; another thread installs a handler meanwhile, whose signal
 * may then interrupt the first inside the engine lock.  So a passer counts
 * itself inside before it looks at the gate, and an installer shuts the
 * gate before it waits for the count to fall to zero, both sequentially
 * consistent: either the passer sees the gate shut (and blocks its
 * signals), or the installer sees it inside (and waits).  A thread asleep
 * in dsm_rt_wait is not counted (its handlers may run there anyway,
 * node.h), so an installer never waits for a sleeper, who may be waiting
 * for the installer's own thread (a barrier). */
#include "sig_gate.h"

#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>

#include "node.h"

/* Shut until the scan: a section entered before dsm_init blocks. */
static _Atomic int shut = 1;
static int always_shut;
static _Atomic long inside;
static __thread int counted;
/* the asynchronous signals with a handler of the program; changed only
 * under blk_signal.c's lock (dsm_sig_lock) */
static uint64_t handled[(NSIG + 63) / 64];
/* handlers installed so far (park.c: one installed after dsm_init may be
 * the program's) */
static _Atomic unsigned long installs;

int dsm_sig_is_sync(int sig)
{
    return sig == SIGSEGV || sig == SIGBUS || sig == SIGILL || sig == SIGFPE || sig == SIGTRAP ||
           sig == SIGSYS;
}

static int any_handled(void)
{
    for (size_t i = 0; i < sizeof handled / sizeof handled[0]; i++)
        if (handled[i])
            return 1;
    return 0;
}

int dsm_sig_gate_pass(void)
{
    atomic_fetch_add(&inside, 1);
    if (atomic_load(&shut)) {
        atomic_fetch_sub(&inside, 1);
        return 0;
    }
    counted = 1;
    return 1;
}

void dsm_sig_gate_leave(void)
{
    counted = 0;
    atomic_fetch_sub(&inside, 1);
}

static void mark(int sig, int on)
{
    uint64_t bit = UINT64_C(1) << (sig % 64);
    if (on) {
        handled[sig / 64] |= bit;
        atomic_fetch_add(&installs, 1);
    }
    else
        handled[sig / 64] &= ~bit;
}

unsigned long dsm_sig_installs(void) { return atomic_load(&installs); }

/* Whether the asynchronous signal sig has a handler function now (libc's
 * view); 0 for the synchronous ones. */
static int has_handler(int sig)
{
    struct sigaction cur;
    if (dsm_sig_is_sync(sig) || dsm_libc_sigaction()(sig, NULL, &cur) != 0)
        return 0;
    return (cur.sa_flags & SA_SIGINFO) ? cur.sa_sigaction != NULL
                                       : cur.sa_handler != SIG_DFL && cur.sa_handler != SIG_IGN;
}

int dsm_sig_any_handler(void)
{
    for (int sig = 1; sig < NSIG; sig++)
        if (has_handler(sig))
            return 1;
    return 0;
}

void dsm_sig_gate_install(int sig, int self_inside)
{
    if (sig <= 0 || sig >= NSIG || dsm_sig_is_sync(sig))
        return;
    mark(sig, 1);
    atomic_store(&shut, 1);
    /* The runtime's own handler (the mpi transport's abort timer), set from
     * inside the runtime, waits for nobody: the thread it would wait for
     * may be waiting for it (the engine lock). */
    if (self_inside)
        return;
    long self = counted;
    while (atomic_load(&inside) > self)
        sched_yield();
}

void dsm_sig_gate_removed(int sig)
{
    if (sig <= 0 || sig >= NSIG || dsm_sig_is_sync(sig))
        return;
    mark(sig, 0);
    if (!always_shut && !any_handled())
        atomic_store(&shut, 0);
}

void dsm_sig_gate_init(int always)
{
    sigset_t mask;
    dsm_sig_lock(&mask);
    always_shut = always;
    for (int sig = 1; sig < NSIG; sig++)
        if (!dsm_sig_is_sync(sig))
            mark(sig, has_handler(sig));
    atomic_store(&shut, always || any_handled());
    dsm_sig_unlock(&mask);
}
