/* fault.c - page-mode access control: faults on the application's view of
 * the region are caught with libsigsegv and turned into engine events.
 *
 * libsigsegv gives the fault address but not whether the access was a read
 * or a write.  The engine needs that (a write to an invalid block is a write
 * miss, not a read miss followed by an upgrade), so a thin SA_SIGINFO
 * handler is chained in front of libsigsegv's: it reads the write bit from
 * the machine context (x86-64: the page-fault error code in REG_ERR) into a
 * thread-local, then hands the signal to libsigsegv unchanged.
 *
 * Signals: the handler runs with the program's asynchronous signals
 * blocked (its sa_mask), so a signal handler of the program never runs
 * while this thread holds the runtime's locks; node.c gives the program's
 * mask back while the fault sleeps (dsm_rt_fault_enter). */
#define _GNU_SOURCE 1 /* memfd_create, REG_ERR */
#include <errno.h>
#include <signal.h>
#include <sigsegv.h>
#include <string.h>
#include <ucontext.h>

#include "decode.h"
#include "misstrace.h"
#include "error.h"
#include "node.h"
#include "tasks.h"

static struct sigaction libsigsegv_action;
/* 1: write, 0: read, -1: the context did not say */
static __thread int fault_is_write = -1;
/* the signal mask of the code that faulted (in the context), or NULL */
static __thread const sigset_t *fault_mask;

static void context_handler(int sig, siginfo_t *info, void *uctx)
{
    DSM_MT(MT_FAULT_IN, UINT32_MAX, 0);
    int w = -1;
#if defined(__x86_64__)
    const ucontext_t *uc = uctx;
    w = (uc->uc_mcontext.gregs[REG_ERR] & 2) != 0;
    dsm_prof_fault_ip = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP]; /* code attribution */
#else
    (void)uctx;
#endif
    fault_is_write = w;
    fault_mask = &((const ucontext_t *)uctx)->uc_sigmask;
    if (libsigsegv_action.sa_flags & SA_SIGINFO)
        libsigsegv_action.sa_sigaction(sig, info, uctx);
    else if (libsigsegv_action.sa_handler != SIG_DFL && libsigsegv_action.sa_handler != SIG_IGN)
        libsigsegv_action.sa_handler(sig);
    else {
        signal(sig, SIG_DFL);
        raise(sig);
    }
}

static int on_fault(void *addr, int serious)
{
    (void)serious;
    dsm_rt *rt = dsm_g;
    if (!rt)
        return 0;
    void *in_window = dsm_region_from_window(&rt->region, addr); /* a DSM_SHARED global */
    if (in_window)
        addr = in_window;
    if (!dsm_region_contains(&rt->region, addr)) {
        dsm_tasks_crash(rt, addr); /* a task on a worker: say what was not shipped */
        return 0; /* not ours: a real crash */
    }
    uint32_t block = dsm_region_block_of(&rt->region, addr);
    int is_write = fault_is_write;
    const sigset_t *interrupted = fault_mask;
    fault_is_write = -1;
    fault_mask = NULL;
    dsm_rt_sigframe outer;
    if (dsm_rt_fault_enter(interrupted, &outer))
        dsm_fatal(is_write > 0 ? "write" : is_write == 0 ? "read" : "access",
                  "fault on %p inside a signal handler while the runtime was busy on this thread",
                  addr);
    if (is_write < 0) {
        /* no context: a fault on a readable block can only be a write */
        if (pthread_mutex_lock(&rt->eng_lock) == EDEADLK)
            dsm_fatal("access", "fault on %p inside a signal handler while the runtime was busy "
                      "on this thread", addr);
        proto_cache_state st = proto_cache_state_of(rt->eng, block);
        pthread_mutex_unlock(&rt->eng_lock);
        is_write = st == PC_S || st == PC_M; /* M: made read-only by dsm_finalize */
    }
    /* after dsm_finalize the protocol is gone (and every block is
     * read-only at most, node.c forbid_stores): name the cause */
    if (atomic_load(&rt->stopping))
        dsm_fatal(is_write ? "write" : "read", "%s shared memory at %p after dsm_finalize",
                  is_write ? "store to" : "load from", addr);
    /* what the instruction does with its operand: a write that also reads
     * is a read-modify-write (the migratory rule), and the bytes a read
     * takes are the profile's evidence of true sharing */
    int how = is_write;
    if (rt->prof || proto_augment_enabled(rt->eng)) {
        dsm_decoded_access d = dsm_decode_access(dsm_prof_fault_ip, is_write);
        if (is_write && d.reads)
            how = PROTO_WRITE_READS;
        dsm_prof_fault_access = (dsm_prof_access){ (uintptr_t)addr, d.size, (uint8_t)d.reads };
    }
    dsm_rt_access(rt, block, how);
    dsm_prof_fault_ip = 0;
    dsm_prof_fault_access = (dsm_prof_access){ 0, 0, 0 };
    dsm_rt_fault_leave(&outer);
    DSM_MT(MT_FAULT_OUT, block, 0);
    return 1;
}

int dsm_fault_install(dsm_rt *rt)
{
    (void)rt;
    if (sigsegv_install_handler(on_fault) < 0) {
        dsm_fatal("dsm_init", "libsigsegv cannot catch faults on this system");
    }
    struct sigaction cur;
    if (sigaction(SIGSEGV, NULL, &cur) == 0 && (cur.sa_flags & SA_SIGINFO) &&
        cur.sa_sigaction != context_handler) {
        libsigsegv_action = cur;
        struct sigaction ours = cur;
        ours.sa_sigaction = context_handler;
        ours.sa_flags |= SA_SIGINFO;
        sigorset(&ours.sa_mask, &ours.sa_mask, dsm_rt_async_signals());
        sigaction(SIGSEGV, &ours, NULL);
    }
    return 0;
}
