/* blk_signal.c - block mode: the program's signal handlers run inside a
 * wrapper that keeps the interrupted code's access windows published.
 *
 * A handler's own inline checks store to the same thread-local
 * __dsm_blk_window as the code it interrupted, and close it; an access
 * interrupted between its check and itself would then run with no window,
 * and a lowering of its block (dsm_blk_set) would not wait for it.  libdsm
 * exports sigaction and signal, which install this file's wrapper in place
 * of the program's handler once a checked module registered (block mode);
 * the wrapper copies the windows to the thread's dsm_blk_sigsave slot,
 * which dsm_blk_set scans too (access.c, thread_holds_back), runs the
 * program's handler, and puts the windows back before it returns, once it
 * fetched back the blocks taken from them meanwhile (a lowering does not
 * wait for a saved window: the handler may be waiting for that lowering's
 * engine lock).  Without
 * a checked module the calls go to libc's.  In both modes they tell the
 * runtime which asynchronous signals have a handler (sig_gate.c).  The
 * argument is in doc/protocol.md, "Signal handlers in block mode". */
#define _GNU_SOURCE 1
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>

#include "access.h"
#include "error.h"
#include "node.h"
#include "sig_gate.h"

typedef dsm_sigaction_fn sigaction_fn;

/* What the program installed for each signal the wrapper stands in for;
 * written under `lock` before the kernel sees the wrapper. */
struct program_action {
    _Atomic(void (*)(int, siginfo_t *, void *)) action; /* SA_SIGINFO */
    _Atomic(void (*)(int)) handler;                    /* otherwise */
};
static struct program_action program[NSIG];
/* sigaction is async-signal-safe, so a handler may call it: the lock is
 * a spin lock taken with every signal blocked, never a mutex. */
static atomic_flag busy = ATOMIC_FLAG_INIT;

void dsm_sig_lock(sigset_t *old)
{
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, old);
    while (atomic_flag_test_and_set(&busy))
        sched_yield();
}

void dsm_sig_unlock(const sigset_t *old)
{
    atomic_flag_clear(&busy);
    pthread_sigmask(SIG_SETMASK, old, NULL);
}

sigaction_fn *dsm_libc_sigaction(void)
{
    static _Atomic(sigaction_fn *) real;
    sigaction_fn *f = atomic_load(&real);
    if (!f) {
        f = (sigaction_fn *)dlsym(RTLD_NEXT, "sigaction");
        if (!f)
            f = (sigaction_fn *)dlsym(RTLD_DEFAULT, "__sigaction");
        if (!f)
            dsm_fatal("sigaction", "libc's sigaction not found: %s", dlerror());
        atomic_store(&real, f);
    }
    return f;
}

static void window_copy(_Atomic(uintptr_t) *to, _Atomic(uintptr_t) *from)
{
    atomic_store(&to[0], atomic_load(&from[0]));
    /* range windows as the pass opens them: hi before lo */
    for (int r = 0; r < DSM_BLK_RANGES; r++) {
        atomic_store(&to[2 + 2 * r], atomic_load(&from[2 + 2 * r]));
        atomic_store(&to[1 + 2 * r], atomic_load(&from[1 + 2 * r]));
    }
}

static void window_close(_Atomic(uintptr_t) *w)
{
    atomic_store(&w[0], 0);
    for (int r = 0; r < DSM_BLK_RANGES; r++)
        atomic_store(&w[1 + 2 * r], 0);
}

/* The wrapper frame of each level (not published: only this thread
 * reads it), to tell a level whose handler left by siglongjmp. */
static __thread uintptr_t level_frame[DSM_BLK_SIG_DEPTH];

static int on_stack(uintptr_t a, const stack_t *alt)
{
    return !(alt->ss_flags & SS_ONSTACK) ||
           (a >= (uintptr_t)alt->ss_sp && a - (uintptr_t)alt->ss_sp < alt->ss_size);
}

void dsm_blk_sig_drop_abandoned(uintptr_t here)
{
    struct dsm_blk_sigsave *sv = &dsm_blk_sigsave;
    uint32_t d = atomic_load_explicit(&sv->depth, memory_order_relaxed);
    if (d == 0)
        return;
    stack_t alt;
    if (sigaltstack(NULL, &alt) != 0)
        alt.ss_flags = 0;
    int here_alt = (alt.ss_flags & SS_ONSTACK) && on_stack(here, &alt);
    /* The stack grows down: a wrapper still running lies above `here`.
     * One below it on the same stack was left by siglongjmp; its
     * interrupted code never resumes.  Frames on the other stack (an
     * alternate signal stack) cannot be compared: kept. */
    while (d > 0) {
        uintptr_t f = level_frame[d - 1];
        int f_alt = (alt.ss_flags & SS_ONSTACK) && on_stack(f, &alt);
        if (f_alt != here_alt || f > here)
            break;
        d--;
    }
    if (d != atomic_load_explicit(&sv->depth, memory_order_relaxed)) {
        atomic_store(&sv->depth, d);
        atomic_store(&sv->seq, atomic_load(&sv->seq) + 1);
        if (d == 0)
            dsm_blk_sig_log_reset();
    }
}

static int any_open(_Atomic(uintptr_t) *w)
{
    for (int i = 0; i < DSM_BLK_WINDOW_WORDS; i++)
        if (atomic_load_explicit(&w[i], memory_order_relaxed))
            return 1;
    return 0;
}

static void call_program(int sig, siginfo_t *info, void *uctx)
{
    void (*action)(int, siginfo_t *, void *) = atomic_load(&program[sig].action);
    void (*handler)(int) = atomic_load(&program[sig].handler);
    if (action)
        action(sig, info, uctx);
    else if (handler)
        handler(sig);
}

static void wrapper(int sig, siginfo_t *info, void *uctx)
{
    int saved_errno = errno;
    struct dsm_blk_sigsave *sv = &dsm_blk_sigsave;
    _Atomic(uintptr_t) *live = (_Atomic(uintptr_t) *)__dsm_blk_window;
    uintptr_t here = (uintptr_t)__builtin_frame_address(0);
    dsm_blk_sig_drop_abandoned(here);
    if (!any_open(live)) {
        /* nothing to keep: the handler's checks close what they open.
         * Handlers nest deeply only here: a handler whose miss sleeps in
         * the runtime (windows closed) lets the next signal in. */
        errno = saved_errno;
        call_program(sig, info, uctx);
        return;
    }
    uint32_t d = atomic_load(&sv->depth);
    if (d >= DSM_BLK_SIG_DEPTH)
        dsm_fatal("signal handler", "block mode: signal handlers nested more than %d deep",
                  DSM_BLK_SIG_DEPTH);
    /* saved[d] and depth first, then seq: until seq moves, the handler has
     * not touched the live windows (access.c, thread_holds_back) */
    window_copy(sv->saved[d], live);
    /* what a window that names every block covers (access.c, wide_set) */
    int wide = atomic_load(&live[0]) == DSM_BLK_WINDOW_ALL;
    for (int i = 0; i < 4; i++)
        atomic_store(&sv->saved_wide[d][i], wide ? sv->wide[i] : 0);
    level_frame[d] = here;
    atomic_store(&sv->depth, d + 1);
    atomic_store(&sv->seq, atomic_load(&sv->seq) + 1);
    errno = saved_errno;

    call_program(sig, info, uctx);

    saved_errno = errno;
    for (;;) {
        /* the blocks taken while the level was saved (noted in the log,
         * access.c thread_holds_back) back first, the level still saved
         * and the live windows closed, as in the slow path */
        while (dsm_blk_sig_settle(d, 1))
            ;
        /* the live windows back, then seq: from then on the saved copy is
         * not needed, unless a lowering noted a block before it saw seq
         * move (its fence, then this one: the log read below has it) */
        window_copy(live, sv->saved[d]);
        atomic_store(&sv->seq, atomic_load(&sv->seq) + 1);
        atomic_store(&sv->depth, d);
        atomic_thread_fence(memory_order_seq_cst);
        if (!atomic_load(&sv->nlog) || !dsm_blk_sig_settle(d, 0))
            break;
        /* taken just now: saved again, closed, and fetched as above */
        atomic_store(&sv->depth, d + 1);
        atomic_store(&sv->seq, atomic_load(&sv->seq) + 1);
        window_close(live);
    }
    if (d == 0)
        dsm_blk_sig_log_reset();
    errno = saved_errno;
}

static int is_function(const struct sigaction *act)
{
    if (act->sa_flags & SA_SIGINFO)
        return act->sa_sigaction != NULL;
    return act->sa_handler != SIG_DFL && act->sa_handler != SIG_IGN && act->sa_handler != SIG_ERR;
}

/* The kernel's action for sig as the program sees it: its own handler
 * where the wrapper stands. */
static void as_program_sees(int sig, struct sigaction *old)
{
    if (!(old->sa_flags & SA_SIGINFO) || old->sa_sigaction != wrapper)
        return;
    void (*action)(int, siginfo_t *, void *) = atomic_load(&program[sig].action);
    if (action) {
        old->sa_sigaction = action;
    } else {
        old->sa_flags &= ~SA_SIGINFO;
        old->sa_handler = atomic_load(&program[sig].handler);
    }
}

/* The wrapper in place of the program's handler (block mode). */
static int install_wrapped(sigaction_fn *real, int sig, const struct sigaction *act,
                           struct sigaction *old)
{
    /* the old action as the program sees it, before `program` changes */
    struct sigaction prev;
    if (old) {
        int rc = real(sig, NULL, &prev);
        if (rc != 0)
            return rc;
        as_program_sees(sig, &prev);
    }
    struct sigaction ours = *act;
    if (act->sa_flags & SA_SIGINFO) {
        atomic_store(&program[sig].action, act->sa_sigaction);
        atomic_store(&program[sig].handler, NULL);
    } else {
        atomic_store(&program[sig].handler, act->sa_handler);
        atomic_store(&program[sig].action, NULL);
    }
    ours.sa_flags |= SA_SIGINFO; /* the rest (SA_RESETHAND, SA_NODEFER, mask) as asked */
    ours.sa_sigaction = wrapper;
    int rc = real(sig, &ours, NULL);
    if (rc == 0 && old)
        *old = prev;
    return rc;
}

DSM_API int sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
    sigaction_fn *real = dsm_libc_sigaction();
    if (sig <= 0 || sig >= NSIG || (!act && !dsm_blk_checked)) {
        /* bad numbers, a look in page mode: libc's, untouched (but never
         * show a wrapper installed while block mode was on) */
        int rc = real(sig, act, old);
        if (rc == 0 && old)
            as_program_sees(sig, old);
        return rc;
    }
    sigset_t mask;
    dsm_sig_lock(&mask);
    int fn = act && is_function(act);
    /* a handler may run inside the runtime's sections from now on: they
     * block signals again (sig_gate.c) before it is installed */
    if (fn)
        dsm_sig_gate_install(sig, dsm_rt_busy());
    int rc;
    if (fn && dsm_blk_checked) {
        rc = install_wrapped(real, sig, act, old);
    } else {
        rc = real(sig, act, old);
        if (rc == 0 && old)
            as_program_sees(sig, old);
    }
    if (rc == 0 && act && !fn)
        dsm_sig_gate_removed(sig);
    dsm_sig_unlock(&mask);
    return rc;
}

DSM_API sighandler_t signal(int sig, sighandler_t handler)
{
    /* glibc's signal: BSD semantics (SA_RESTART, the signal blocked while
     * its handler runs) */
    struct sigaction act, old;
    memset(&act, 0, sizeof act);
    act.sa_handler = handler;
    act.sa_flags = SA_RESTART;
    sigemptyset(&act.sa_mask);
    if (sigaction(sig, &act, &old) != 0)
        return SIG_ERR;
    return old.sa_handler;
}
