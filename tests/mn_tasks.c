/* mn_tasks.c - the thread model and shared globals (dsm.h: dsm_init_master,
 * dsm_create, dsm_join, dsm_wait_for_end, dsm_task, DSM_SHARED), one mode
 * per run (tests/mn_tasks.sh runs them on 1, 2 and 4 nodes, both
 * transports, and on a simulated machine):
 *   tasks T    the master writes globals and builds private heap data,
 *              then starts T tasks (more than nodes: threads of the nodes).
 *              Every task checks: the globals and the heap list as the
 *              master left them before its create (a node's first task),
 *              the argument, a function pointer stored in DSM_SHARED
 *              memory and called there, writes its slot of dsm_malloc'd
 *              memory reached through a private global pointer, and adds
 *              to a DSM_SHARED counter under a lock.  The master joins half of them one by one and
 *              waits for the rest with dsm_wait_for_end; the counter,
 *              written by every node, must add up; dsm_join of an unknown
 *              id and of a joined task fail.
 *   stdin N S  SPMD (dsm_init): every node reads stdin to its end and
 *              must see N bytes summing to S.
 *   fnptr      SPMD: node 0 stores pointers to a function and to a global
 *              in dsm_alloc'd memory; every node calls and reads them (the
 *              same addresses everywhere: no address randomisation).
 *   blockwait  a task sleeps 1 s on node 1 (or 0 on one node); the
 *              master's dsm_join, then dsm_wait_for_end on a second such
 *              task, must not burn the CPU: node 0 uses under 0.3 s of CPU
 *              time (all its threads) in those 2 s.
 *   preinit    every node mallocs its process id before dsm_init_master
 *              (the same address everywhere, as MPI's and libc's own early
 *              allocations): a task on a worker must still find its own
 *              node's value there, not the master's (the master's image
 *              starts above what the nodes allocated before).
 *   unshipped  the master maps memory itself (at a fixed address no node
 *              maps) and hands it to a task on node 1: one line saying what
 *              dsm_create does not copy, non-zero exit.
 *   spmd_create      dsm_create after dsm_init: one line, non-zero exit.
 *   worker_create    dsm_create from a task on another node: the same.
 *   wait_too_many    dsm_wait_for_end(5) with 1 task: the same.
 * Prints "mn_tasks: MODE: OK" on success. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "dsm.h"

#define PER_TASK 50
#define LIST_LEN 1000

/* private globals: data and bss, written by the master before the creates */
static int written_before = 7;  /* .data, changed to 4242 */
static char text_before[64];    /* .bss */
static struct node *list_head;  /* private heap, built by the master */
static long *slots;             /* a private pointer to dsm_malloc'd memory (SPLASH's
                                   Global = G_MALLOC(...) before CREATE) */

struct node {
    struct node *next;
    long value;
};

/* shared globals */
DSM_SHARED static long counter;
DSM_SHARED static long (*shared_fn)(long);
DSM_SHARED static long fn_calls;
DSM_SHARED static int errors;

static long triple(long x) { return 3 * x; }

static void fail(const char *what, long got, long want)
{
    fprintf(stderr, "mn_tasks: task %d on node %d: %s: got %ld, want %ld\n", dsm_task(),
            dsm_node(), what, got, want);
    dsm_lock(0);
    errors++;
    dsm_unlock(0);
}

struct targ {
    int id;
    long magic;
};

static void task_body(void *v)
{
    struct targ *a = v; /* master's heap */
    if (a->magic != 0x5eed + a->id)
        fail("argument", a->magic, 0x5eed + a->id);
    if (dsm_task() != a->id)
        fail("dsm_task", dsm_task(), a->id);
    if (written_before != 4242)
        fail("global written before create", written_before, 4242);
    if (strcmp(text_before, "set by the master"))
        fail("bss string written before create", 0, 1);
    long n = 0, sum = 0;
    for (struct node *p = list_head; p; p = p->next)
        n++, sum += p->value;
    if (n != LIST_LEN || sum != (long)LIST_LEN * (LIST_LEN - 1) / 2)
        fail("heap list built by the master (sum)", sum, (long)LIST_LEN * (LIST_LEN - 1) / 2);
    long r = shared_fn(a->id); /* a function pointer from shared memory */
    if (r != 3L * a->id)
        fail("function pointer in DSM_SHARED memory", r, 3L * a->id);
    slots[a->id] = 1000 + a->id; /* shared memory reached through a private global */
    for (int i = 0; i < PER_TASK; i++) {
        dsm_lock(1);
        counter++;
        fn_calls += r == 3L * a->id;
        dsm_unlock(1);
    }
}

static void try_create(void *v)
{
    (void)v;
    if (dsm_node() != 0)
        dsm_create(task_body, NULL); /* ends the job with a message */
}

static int mode_tasks(int argc, char **argv)
{
    int ntasks = argc > 2 ? atoi(argv[2]) : 4;
    if (dsm_init_master(&argc, &argv)) {
        perror("dsm_init_master");
        return 1;
    }
    if (dsm_task() != 0)
        fail("dsm_task of the master", dsm_task(), 0);
    written_before = 4242;
    strcpy(text_before, "set by the master");
    for (int i = LIST_LEN - 1; i >= 0; i--) {
        struct node *p = malloc(sizeof *p);
        p->value = i;
        p->next = list_head;
        list_head = p;
    }
    shared_fn = triple;
    slots = dsm_malloc((size_t)(ntasks + 1) * sizeof *slots, "slots");
    int *ids = malloc((size_t)ntasks * sizeof *ids);
    for (int i = 0; i < ntasks; i++) {
        struct targ *a = malloc(sizeof *a);
        a->id = i + 1;
        a->magic = 0x5eed + a->id;
        ids[i] = dsm_create(task_body, a);
        if (ids[i] != i + 1)
            fail("task id", ids[i], i + 1);
    }
    int joined = ntasks / 2;
    for (int i = 0; i < joined; i++)
        if (dsm_join(ids[i]))
            fail("dsm_join", -1, 0);
    dsm_wait_for_end(ntasks - joined);
    errno = 0;
    if (dsm_join(ntasks + 100) != -1 || errno != ESRCH)
        fail("dsm_join of an unknown task", errno, ESRCH);
    if (joined && (dsm_join(ids[0]) != -1 || errno != EINVAL))
        fail("dsm_join of a joined task", errno, EINVAL);
    dsm_lock(1);
    long c = counter, f = fn_calls;
    dsm_unlock(1);
    if (c != (long)ntasks * PER_TASK)
        fail("DSM_SHARED counter", c, (long)ntasks * PER_TASK);
    if (f != (long)ntasks * PER_TASK)
        fail("calls through the shared function pointer", f, (long)ntasks * PER_TASK);
    for (int i = 1; i <= ntasks; i++)
        if (slots[i] != 1000 + i)
            fail("dsm_malloc'd slot written by the task", slots[i], 1000 + i);
    dsm_lock(0);
    int e = errors;
    dsm_unlock(0);
    printf("mn_tasks: tasks: %d tasks on %d nodes, counter %ld: %s\n", ntasks, dsm_nodes(), c,
           e ? "FAILED" : "OK");
    dsm_finalize();
    return e != 0;
}

static int mode_stdin(int argc, char **argv)
{
    if (argc < 4 || dsm_init(&argc, &argv)) {
        fprintf(stderr, "usage: mn_tasks stdin BYTES SUM (dsm_init failed?)\n");
        return 1;
    }
    long want_n = atol(argv[2]), want_s = atol(argv[3]);
    long *seen = dsm_alloc(2 * sizeof(long) * (size_t)dsm_nodes(), "seen");
    long n = 0, s = 0;
    int ch;
    while ((ch = getchar()) != EOF)
        n++, s += ch;
    seen[2 * dsm_node()] = n;
    seen[2 * dsm_node() + 1] = s;
    dsm_barrier();
    int bad = 0;
    if (dsm_node() == 0)
        for (int k = 0; k < dsm_nodes(); k++)
            if (seen[2 * k] != want_n || seen[2 * k + 1] != want_s) {
                fprintf(stderr, "mn_tasks: node %d read %ld bytes (sum %ld), want %ld (sum %ld)\n",
                        k, seen[2 * k], seen[2 * k + 1], want_n, want_s);
                bad = 1;
            }
    if (dsm_node() == 0)
        printf("mn_tasks: stdin: %d nodes read %ld bytes each: %s\n", dsm_nodes(), want_n,
               bad ? "FAILED" : "OK");
    dsm_finalize();
    return bad;
}

static void read_it(void *v) { printf("mn_tasks: read %d\n", *(volatile int *)v); }

static int mode_unshipped(int argc, char **argv)
{
    if (dsm_init_master(&argc, &argv))
        return 1;
    int *own = mmap((void *)0x4c0000000000, 4096, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
    if (own == MAP_FAILED)
        return 1;
    *own = 5;
    dsm_create(read_it, own);
    dsm_wait_for_end(1);
    dsm_finalize();
    return 0;
}

static pid_t *pid_before_init; /* malloc'd before dsm_init_master on every node */

static void check_own_pid(void *v)
{
    (void)v;
    if (*pid_before_init != getpid())
        fail("this node's allocation made before dsm_init_master", *pid_before_init, getpid());
}

static int mode_preinit(int argc, char **argv)
{
    pid_before_init = malloc(sizeof *pid_before_init);
    *pid_before_init = getpid();
    if (dsm_init_master(&argc, &argv))
        return 1;
    /* the master's heap grows past where the nodes' early allocations are */
    for (int i = 0; i < 1000; i++)
        memset(malloc(256), 0x5a, 256);
    int n = 2 * dsm_nodes();
    for (int i = 0; i < n; i++)
        dsm_create(check_own_pid, NULL);
    dsm_wait_for_end(n);
    dsm_lock(0);
    int e = errors;
    dsm_unlock(0);
    printf("mn_tasks: preinit: %d tasks kept their node's own early allocation: %s\n", n,
           e ? "FAILED" : "OK");
    dsm_finalize();
    return e != 0;
}

static void sleep_a_second(void *v)
{
    (void)v;
    usleep(1000000);
}

static double cpu_seconds(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_stime.tv_sec +
           ((double)ru.ru_utime.tv_usec + (double)ru.ru_stime.tv_usec) / 1e6;
}

static int mode_blockwait(int argc, char **argv)
{
    if (dsm_init_master(&argc, &argv))
        return 1;
    double c0 = cpu_seconds(), t0 = dsm_wtime();
    int id = dsm_create(sleep_a_second, NULL);
    int rc = dsm_join(id);
    dsm_create(sleep_a_second, NULL);
    dsm_wait_for_end(1);
    double cpu = cpu_seconds() - c0, wall = dsm_wtime() - t0;
    int ok = rc == 0 && wall >= 1.9 && cpu < 0.3;
    printf("mn_tasks: blockwait: %.2f s waited, %.3f s of CPU on node 0: %s\n", wall, cpu,
           ok ? "OK" : "FAILED");
    dsm_finalize();
    return !ok;
}

static int mode_fnptr(int argc, char **argv)
{
    if (dsm_init(&argc, &argv))
        return 1;
    struct shared_ptrs {
        long (*fn)(long);
        const int *global;
    } *sp = dsm_alloc(sizeof *sp, "pointers");
    if (dsm_node() == 0) {
        sp->fn = triple;
        sp->global = &written_before;
    }
    dsm_barrier();
    long r = sp->fn(dsm_node() + 1); /* another node's function pointer */
    int bad = r != 3L * (dsm_node() + 1) || *sp->global != 7;
    if (bad)
        fprintf(stderr, "mn_tasks: node %d: the shared function pointer gave %ld\n", dsm_node(), r);
    dsm_lock(0);
    errors += bad;
    dsm_unlock(0);
    dsm_barrier();
    dsm_lock(0);
    int e = errors;
    dsm_unlock(0);
    if (dsm_node() == 0)
        printf("mn_tasks: fnptr: %d nodes called node 0's function pointer: %s\n", dsm_nodes(),
               e ? "FAILED" : "OK");
    dsm_finalize();
    return e != 0;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "tasks";
    if (!strcmp(mode, "tasks"))
        return mode_tasks(argc, argv);
    if (!strcmp(mode, "stdin"))
        return mode_stdin(argc, argv);
    if (!strcmp(mode, "fnptr"))
        return mode_fnptr(argc, argv);
    if (!strcmp(mode, "blockwait"))
        return mode_blockwait(argc, argv);
    if (!strcmp(mode, "unshipped"))
        return mode_unshipped(argc, argv);
    if (!strcmp(mode, "preinit"))
        return mode_preinit(argc, argv);
    if (!strcmp(mode, "spmd_create")) {
        dsm_init(&argc, &argv);
        dsm_create(task_body, NULL);
        return 0;
    }
    if (!strcmp(mode, "worker_create") || !strcmp(mode, "wait_too_many")) {
        dsm_init_master(&argc, &argv);
        dsm_create(try_create, NULL);
        if (!strcmp(mode, "wait_too_many"))
            dsm_wait_for_end(5);
        dsm_wait_for_end(1);
        dsm_finalize();
        return 0;
    }
    fprintf(stderr, "mn_tasks: unknown mode %s\n", mode);
    return 2;
}
