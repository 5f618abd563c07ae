/* simfront.h - the execution front end of the simulated machines:
 * how a program compiled by dsmcc runs as P simulated processors inside one
 * process.  Internal to libdsm.
 *
 *   hooks.c   the compiler's instrumentation entry points (gcc's
 *                 thread-sanitizer calls and -finstrument-functions):
 *                 references to the shared region become sim_ref calls
 *   procs.c   procedure ids (function address -> small int), the
 *                 per-processor procedure stacks, names through libdw
 *                 (dsm/symbols.c, shared with the DSM's profile)
 *   sched.c   the simulated processors as user-level contexts and the
 *                 deterministic scheduler (smallest simulated clock first)
 *   run.c     entering simulation mode (dsm_init with DSM_MACHINE set),
 *                 leaving it (dsm_finalize: statistics and summary), progress
 *   api.c     the dsm.h calls in simulation mode (dsm_backend_sim,
 *                 dsm/backend.h): allocation, barriers, locks, time
 *   tasks.c   the thread model: dsm_init_master, dsm_create, dsm_join
 *
 * The machine itself (caches, network, timing, coherence) is protocol/sim/
 * (sim.h); the statistics file is written by profile/simprof.c. */
#ifndef DSM_SIM_FRONT_H
#define DSM_SIM_FRONT_H

#include <stddef.h>
#include <stdint.h>

#include "sim/sim.h"

/* What the instrumentation hooks look at on every call, kept together on
 * one cache line.  `refs_on` is 0 natively and on the DSM: every hook is
 * then one predictable branch. */
typedef struct dsm_sim_hot {
    int refs_on;            /* simulation running: shared references are simulated */
    int track_procs;        /* DSM_MACHINE was set at load: keep procedure stacks */
    int cur;                /* the simulated processor running now */
    int proc_switch;        /* the timing model charges procedure switches */
    uintptr_t base, end;    /* the shared region [base, end) */
    sim_fast *fast;         /* the running processor's hit-path state (sim.h) */
    uint32_t since_decision; /* references since the last scheduling decision */
    uint32_t quantum;       /* ... between decisions (DSM_SIM_QUANTUM) */
    int in_order;           /* message-timed machine: a reference off the hit path
                               waits until no runnable processor is behind it */
    int sync_only;          /* reschedule=sync: decisions at synchronisation (and
                               when the processor must wait), not per miss */
    int private_refs;       /* the machine simulates private references too */
} dsm_sim_hot;
extern dsm_sim_hot dsm_sim_hot_state;

/* --- simfront/hooks.c ------------------------------------------------------- */
/* A reference by the running processor that is not an inline hit (the
 * hooks' slow path). */
void dsm_sim_access(uintptr_t addr, uint32_t size, int is_write);
/* A reference outside the shared region (stack, private heap, file-scope
 * data) when the machine simulates them (private_refs: Alewife). */
void dsm_sim_private_access(uintptr_t addr, uint32_t size, int is_write);
/* The quantum of references ran out: a scheduling decision. */
void dsm_sim_quantum_end(void);

/* --- simfront/procs.c ------------------------------------------------------- */
/* Procedure stacks: entry/exit of the function at address fn on processor
 * `proc`. */
void dsm_sim_proc_enter(int proc, void *fn);
void dsm_sim_proc_exit(int proc);
/* The procedure id (index into the names) on top of proc's stack, -1: none. */
int dsm_sim_proc_current(int proc);
/* Give processor `proc` (a new context) an empty stack. */
void dsm_sim_proc_reset(int proc);
/* Number of procedure ids given so far and their names (symbolized once
 * with libdw at the first call; the array lives until exit). */
int dsm_sim_proc_count(void);
/* The function address of procedure id (0: none); reads only, so the crash
 * handler may call it. */
uintptr_t dsm_sim_proc_address(int id);
const char *const *dsm_sim_proc_names(void);
/* Name of the code at ip (the allocation site of an unnamed dsm_alloc):
 * "function (file:line)" or an address; malloc'd. */
char *dsm_sim_symbolize(uintptr_t ip);
/* The address of the program's main (0: not found). */
uintptr_t dsm_sim_find_main(void);

/* --- simfront/sched.c ------------------------------------------------------- */
enum dsm_sim_pstate {
    SIMP_RUNNABLE = 0,
    SIMP_BLOCKED,   /* in a barrier, a lock or dsm_finalize */
    SIMP_DONE,      /* returned from main */
};

/* Create nprocs processors: 0 is the calling thread, the others are new
 * contexts that will call entry(k) when first scheduled.  0 or -1. */
int dsm_sim_sched_start(int nprocs, void (*entry)(int proc), size_t stack_bytes);
int dsm_sim_sched_nprocs(void);
int dsm_sim_state(int proc);
/* What a blocked processor waits in (for the deadlock message). */
void dsm_sim_block(int proc, const char *call);
void dsm_sim_wake(int proc);
/* Let the processor with the smallest clock run: deliver machine events in
 * time order, switch contexts if the running processor is no longer the
 * one to run.  Returns when the calling processor runs again.  A deadlock
 * (nothing can ever run again) ends the job with a message. */
void dsm_sim_schedule(void);
/* The running processor (when runnable) waits until no runnable processor
 * has a smaller clock and the events due by its clock are delivered: what
 * it does next happens in simulated-time order (a decision). */
void dsm_sim_in_clock_order(void);
/* The running processor's buffered stores complete before it goes on (a
 * fence: synchronisation, FP-Proc's procedure command). */
void dsm_sim_fence(void);
/* The running processor ended (returned from main): never returns. */
_Noreturn void dsm_sim_exit_current(void);
/* Context switches so far. */
uint64_t dsm_sim_switches(void);
/* Shared with the scheduler and the API. */
extern sim_machine *dsm_sim_machine;

/* --- simfront/run.c ---------------------------------------------------------- */
/* dsm_init and dsm_finalize of the simulation backend: the first dsm_init
 * enters simulation mode, the other processors' only join it. */
int dsm_sim_init(int *argc, char ***argv);
void dsm_sim_finalize(void);
/* Processor k (not 0) has finalized and is about to end: processor 0,
 * waiting in dsm_finalize, goes on when it is the last. */
void dsm_sim_processor_done(int k);
/* Ends the run with a message when the running processor has not called
 * dsm_init or has called dsm_finalize (every call of api.c asks first). */
void dsm_sim_need(const char *call);
/* Progress on a terminal, called by the hooks now and then. */
void dsm_sim_progress(void);
/* One line "dsm: processor P: call: message", non-zero exit. */
_Noreturn void dsm_sim_fatal(const char *call, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* --- simfront/api.c ---------------------------------------------------------- */
/* Set up the allocator and the locks (simfront/run.c calls it). */
int dsm_sim_api_start(int nprocs, uintptr_t base, size_t bytes, unsigned locks, int homes_cyclic);
/* DSM_MALLOC_HOMES=round-robin: dsm_malloc arenas homed page by page over
 * the processors (set before dsm_sim_api_start) */
extern int dsm_sim_malloc_spread;
/* Processor 0 started the thread model (dsm_init_master): the others
 * serve tasks (tasks.c). */
int dsm_sim_tasks_started(void);
/* The collective finalize: every processor arrives, the last one returns 1
 * (it writes the statistics); the others 0. */
int dsm_sim_finalize_arrive(void);

/* --- simfront/quickstep.c ----------------------------------------------------- */
/* The QuickStep registers of an Alewife machine (protocol/sim/alewife.h):
 * start feeding them (run.c after sim_create), dsm_checkpoint, and the
 * registers into DSM_QUICKSTEP_DUMP at the end of the run. */
void dsm_sim_quickstep_start(sim_machine *m);
void dsm_sim_checkpoint(int id);
void dsm_sim_quickstep_finish(void);
/* --- simfront/tasks.c -------------------------------------------------------- */
/* The thread model (dsm.h) on the simulated processors. */
int dsm_sim_init_master(int *argc, char ***argv);
int dsm_sim_create(void (*fn)(void *), void *arg);
int dsm_sim_join(int task);
void dsm_sim_wait_for_end(int ntasks);
int dsm_sim_task(void);
/* dsm_finalize: in the thread model the master waits for its tasks and
 * brings the worker processors along; else dsm_sim_finalize. */
void dsm_sim_finalize_master(void);

#endif
