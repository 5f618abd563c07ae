/* sig_gate.h - whether the runtime must block the program's signals in its
 * sections (sig_gate.c). */
#ifndef DSM_SIG_GATE_H
#define DSM_SIG_GATE_H

/* The scan at start: which asynchronous signals already have a handler of
 * the program (libc's view, also what was installed around the exported
 * sigaction); always: keep blocking them in every section
 * (DSM_SIGMASK=always). */
void dsm_sig_gate_init(int always);
/* A thread enters a runtime section without blocking signals: 1 when no
 * handler of the program can run (it is then counted inside until
 * dsm_sig_gate_leave), 0 when it must block them. */
int dsm_sig_gate_pass(void);
void dsm_sig_gate_leave(void);
/* The exported sigaction is about to install a handler function for sig
 * (function = 1) or has removed one (function = 0).  Installing shuts the
 * gate and returns once no thread is inside an unblocked section, except
 * the caller's (self_inside: it is one of them, the runtime's own
 * handler); removing the last handler opens it again. */
void dsm_sig_gate_install(int sig, int self_inside);
void dsm_sig_gate_removed(int sig);
/* SIGSEGV and the other signals raised by the faulting instruction: never
 * blocked, not counted. */
int dsm_sig_is_sync(int sig);
/* park.c: a handler of the program may run on a thread that waits inside
 * the runtime.  Whether any asynchronous signal has a handler now (libc's
 * view), and how many the exported sigaction has installed so far. */
int dsm_sig_any_handler(void);
unsigned long dsm_sig_installs(void);

/* blk_signal.c: the lock of the exported sigaction (a spin lock taken with
 * every signal blocked: sigaction is async-signal-safe), and libc's. */
#include <signal.h>
void dsm_sig_lock(sigset_t *old);
void dsm_sig_unlock(const sigset_t *old);
typedef int dsm_sigaction_fn(int, const struct sigaction *, struct sigaction *);
dsm_sigaction_fn *dsm_libc_sigaction(void);

#endif
