/* fault.c - page-mode access control: faults on the application's view of
 * the region are caught with libsigsegv and turned into engine events.
 *
 * libsigsegv gives the fault address but not whether the access was a read
 * or a write.  The engine needs that (a write to an invalid block is a write
 * miss, not a read miss followed by an upgrade), so a thin SA_SIGINFO
 * handler is chained in front of libsigsegv's: it reads the write bit from
 * the machine context (x86-64: the page-fault error code in REG_ERR) into a
 * thread-local, then hands the signal to libsigsegv unchanged. */
#define _GNU_SOURCE 1 /* memfd_create, REG_ERR */
#include <signal.h>
#include <sigsegv.h>
#include <string.h>
#include <ucontext.h>

#include "error.h"
#include "node.h"

static struct sigaction libsigsegv_action;
/* 1: write, 0: read, -1: the context did not say */
static __thread int fault_is_write = -1;

static void context_handler(int sig, siginfo_t *info, void *uctx)
{
    int w = -1;
#if defined(__x86_64__)
    const ucontext_t *uc = uctx;
    w = (uc->uc_mcontext.gregs[REG_ERR] & 2) != 0;
    dsm_prof_fault_ip = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP]; /* code attribution */
#else
    (void)uctx;
#endif
    fault_is_write = w;
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
    if (!rt || !dsm_region_contains(&rt->region, addr))
        return 0; /* not ours: a real crash */
    uint32_t block = dsm_region_block_of(&rt->region, addr);
    int is_write = fault_is_write;
    if (is_write < 0) {
        /* no context: a fault on a readable block can only be a write */
        pthread_mutex_lock(&rt->eng_lock);
        proto_cache_state st = proto_cache_state_of(rt->eng, block);
        pthread_mutex_unlock(&rt->eng_lock);
        is_write = st == PC_S;
    }
    fault_is_write = -1;
    dsm_rt_access(rt, block, is_write);
    dsm_prof_fault_ip = 0;
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
        sigaction(SIGSEGV, &ours, NULL);
    }
    return 0;
}
