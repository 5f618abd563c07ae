/* tasks.c - the thread model (dsm_init_master, dsm_create, dsm_join,
 * dsm_wait_for_end, dsm_task) on a simulated machine.
 *
 * The processors are contexts of one process, so a task sees the master's
 * globals and heap as they are (SPLASH's pthread model), written before or
 * after the create alike.  Processor 0 runs main; processors 1..P-1 start
 * in main too (run.c) and, in dsm_init_master, wait for tasks instead of
 * returning.  A task runs on a processor of its own: dsm_create takes the
 * next idle processor after the last one given (1..P-1 in turn); a
 * simulated processor is one context, so it cannot take a second task
 * while it runs one, and processor 0 runs the master: with every worker
 * processor busy, dsm_create ends the run with a message saying to
 * simulate more processors.
 *
 * Starting a task costs SIM_CREATE_CYCLES of the master's clock and the
 * task starts no earlier than that: about one remote round trip of the
 * uniform machine, the order of what a fork request costs; the constant is
 * an assumption, not a measured figure.  Waiting (dsm_join,
 * dsm_wait_for_end) blocks the master's processor; it resumes at the
 * ending task's clock when that is later than its own. */
#include <config.h>

#include <errno.h>
#include <stdlib.h>

#include "simfront.h"

#define SIM_CREATE_CYCLES 1000

enum { TASK_RUNNING = 1, TASK_ENDED, TASK_REAPED };

typedef struct sim_task {
    void (*fn)(void *);
    void *arg;
    int proc;
    int state;
} sim_task;

static struct {
    int on;                 /* dsm_init_master started the run */
    int nprocs;
    sim_task *tasks;        /* index: task id - 1 */
    int ntasks, cap;
    int *task_of;           /* per processor: the task it runs (0: none / the master) */
    int *assigned;          /* per processor: the task it is to start (0: none) */
    int next_proc;          /* the round robin's last pick */
    int ended_unreaped;     /* ended tasks not yet waited for */
    int unreaped;           /* created tasks not yet waited for */
    int master_waits;       /* processor 0 is blocked in a wait */
    int finishing;          /* the master called dsm_finalize */
} T;

static int me(void) { return dsm_sim_hot_state.cur; }

/* A worker processor: run the tasks given to it until the master's
 * dsm_finalize, then finalize and end. */
static _Noreturn void serve(void)
{
    int p = me();
    for (;;) {
        if (T.assigned[p]) {
            int id = T.assigned[p];
            T.assigned[p] = 0;
            T.task_of[p] = id;
            sim_task *t = &T.tasks[id - 1];
            dsm_sim_proc_reset(p);
            t->fn(t->arg);
            T.task_of[p] = 0;
            t->state = TASK_ENDED;
            T.ended_unreaped++;
            if (T.master_waits) {
                sim_time c = sim_clock(dsm_sim_machine, p);
                if (sim_clock(dsm_sim_machine, 0) < c)
                    sim_set_clock(dsm_sim_machine, 0, c);
                dsm_sim_wake(0);
            }
            continue;
        }
        if (T.finishing)
            break;
        dsm_sim_block(p, "dsm_init_master (waiting for a task)");
        dsm_sim_schedule();
    }
    dsm_sim_finalize();
    dsm_sim_processor_done(p);
    dsm_sim_exit_current();
}

int dsm_sim_init_master(int *argc, char ***argv)
{
    if (dsm_sim_init(argc, argv))
        return -1;
    if (me() == 0) {
        T.nprocs = dsm_sim_sched_nprocs();
        T.task_of = calloc((size_t)T.nprocs, sizeof *T.task_of);
        T.assigned = calloc((size_t)T.nprocs, sizeof *T.assigned);
        if (!T.task_of || !T.assigned) {
            errno = ENOMEM;
            return -1;
        }
        T.on = 1;
        return 0;
    }
    /* processor 0 ran first and set the model up (run.c starts the others
     * at its first scheduling decision) */
    if (!T.on)
        dsm_sim_fatal("dsm_init_master", "processor 0 did not call dsm_init_master (every "
                                         "processor must start the same way)");
    serve();
}

int dsm_sim_tasks_started(void) { return T.on; }

static void need_master(const char *call)
{
    dsm_sim_need(call);
    if (!T.on)
        dsm_sim_fatal(call, "the run was started by dsm_init (the SPMD model); tasks need "
                            "dsm_init_master");
    if (me() != 0)
        dsm_sim_fatal(call, "called by task %d on processor %d: only the master (processor 0) "
                            "creates and waits for tasks",
                      T.task_of[me()], me());
}

int dsm_sim_create(void (*fn)(void *), void *arg)
{
    need_master("dsm_create");
    if (!fn) {
        errno = EINVAL;
        return -1;
    }
    int p = -1;
    for (int i = 1; i < T.nprocs; i++) {
        int q = 1 + (T.next_proc + i - 1) % (T.nprocs - 1);
        if (!T.task_of[q] && !T.assigned[q] && dsm_sim_state(q) != SIMP_DONE) {
            p = q;
            break;
        }
    }
    if (p < 0)
        dsm_sim_fatal("dsm_create", "every worker processor (1..%d) runs a task: a simulated "
                                    "processor runs one task at a time; simulate more processors",
                      T.nprocs - 1);
    if (T.ntasks == T.cap) {
        int c = T.cap ? 2 * T.cap : 16;
        sim_task *v = realloc(T.tasks, (size_t)c * sizeof *v);
        if (!v) {
            errno = ENOMEM;
            return -1;
        }
        T.tasks = v;
        T.cap = c;
    }
    int id = ++T.ntasks;
    T.tasks[id - 1] = (sim_task){ fn, arg, p, TASK_RUNNING };
    T.unreaped++;
    T.next_proc = p;
    T.assigned[p] = id;
    sim_add_cycles(dsm_sim_machine, 0, SIM_CREATE_CYCLES);
    sim_time start = sim_clock(dsm_sim_machine, 0);
    if (sim_clock(dsm_sim_machine, p) < start)
        sim_set_clock(dsm_sim_machine, p, start);
    dsm_sim_wake(p);
    dsm_sim_schedule();
    return id;
}

static void master_wait(const char *call)
{
    T.master_waits = 1;
    dsm_sim_block(0, call);
    dsm_sim_schedule();
    T.master_waits = 0;
}

int dsm_sim_join(int id)
{
    need_master("dsm_join");
    if (id < 1 || id > T.ntasks) {
        errno = ESRCH;
        return -1;
    }
    sim_task *t = &T.tasks[id - 1];
    if (t->state == TASK_REAPED) {
        errno = EINVAL;
        return -1;
    }
    while (t->state == TASK_RUNNING)
        master_wait("dsm_join");
    t->state = TASK_REAPED;
    T.ended_unreaped--;
    T.unreaped--;
    return 0;
}

void dsm_sim_wait_for_end(int n)
{
    need_master("dsm_wait_for_end");
    if (n < 0 || n > T.unreaped)
        dsm_sim_fatal("dsm_wait_for_end", "waits for %d tasks, but %d created tasks are not yet "
                                          "waited for",
                      n, T.unreaped);
    while (T.ended_unreaped < n)
        master_wait("dsm_wait_for_end");
    for (int i = 0; i < T.ntasks && n; i++)
        if (T.tasks[i].state == TASK_ENDED) {
            T.tasks[i].state = TASK_REAPED;
            T.ended_unreaped--;
            T.unreaped--;
            n--;
        }
}

int dsm_sim_task(void)
{
    dsm_sim_need("dsm_task");
    return T.on ? T.task_of[me()] : me();
}

/* The master's dsm_finalize: its tasks end first, then the workers leave
 * their wait and finalize with it. */
void dsm_sim_finalize_master(void)
{
    if (!T.on) {
        dsm_sim_finalize();
        return;
    }
    int p = me();
    if (p != 0)
        dsm_sim_fatal("dsm_finalize", "called by task %d on processor %d: in the thread model "
                                      "only the master calls it",
                      T.task_of[p], p);
    dsm_sim_need("dsm_finalize");
    for (;;) {
        int running = 0;
        for (int i = 0; i < T.ntasks; i++)
            running += T.tasks[i].state == TASK_RUNNING;
        if (!running)
            break;
        master_wait("dsm_finalize (waiting for the tasks to end)");
    }
    T.finishing = 1;
    for (int q = 1; q < T.nprocs; q++)
        dsm_sim_wake(q);
    dsm_sim_finalize();
}
