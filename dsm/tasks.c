/* tasks.c - the thread model on the DSM runtime (dsm.h: dsm_init_master,
 * dsm_create, dsm_join, dsm_wait_for_end, dsm_task).
 *
 * The master (node 0) runs main alone.  The other nodes join the job in
 * dsm_init_master and then serve: each task given to them runs on a thread
 * of its own, until the master's dsm_finalize, which they join before they
 * exit with status 0.
 *
 * dsm_create (node 0 only) picks the node by round robin over 1..N-1, then
 * 0, and sends it, in order on the wire:
 *   RT_TASK_BEGIN  task id, the master's brk heap bounds
 *   RT_TASK_IMAGE  the master's private image, piece by piece (image.c)
 *   RT_TASK_GO     task id, function, argument: start the thread
 * A node that runs no task (as far as node 0 knows) gets all of the image
 * (the program's data and bss, the heap: what the master had at the
 * call); a node that runs tasks gets the pieces the master changed since
 * it last sent it the image (image.c) and starts the new task as another
 * thread beside the running ones, which see those pieces change too.
 * Node 0's tasks are threads of the master and see its memory as it is.
 * A task's end is RT_TASK_END to node 0; dsm_join and dsm_wait_for_end
 * sleep in dsm_rt_wait until it comes.
 *
 * Memory: every node's runtime is set up on a helper thread, so its heap is
 * a thread arena of glibc's malloc, never the main (brk) arena that the
 * master's image overwrites on a worker; a worker's own threads (the
 * service, tasks) get thread arenas too (M_ARENA_MAX is raised so none
 * falls back on the main arena).  The master's main thread then allocates
 * everything on its brk heap (M_MMAP_MAX 0: glibc maps no chunk apart)
 * above a fence (image.c), so that all it builds is part of the image and
 * nothing a worker allocated before dsm_init_master is in it. */
#define _GNU_SOURCE 1
#include <config.h>

#include <errno.h>
#include <limits.h>
#include <malloc.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend.h"
#include "dsm.h"
#include "error.h"
#include "tasks.h"

enum { TASK_RUNNING = 1, TASK_ENDED, TASK_REAPED };

typedef struct task_rec {
    int node;
    int state;
} task_rec;

typedef struct task_start {
    int id;
    void (*fn)(void *);
    void *arg;
} task_start;

static struct {
    int on;                     /* dsm_init_master started the job */
    pthread_mutex_t lock;       /* everything below */
    pthread_mutex_t create_lock; /* one create's messages are not interleaved with another's */
    /* node 0: the tasks created (index: id - 1) */
    task_rec *tasks;
    int ntasks, cap;
    unsigned long creates;      /* the round robin */
    int ended_unreaped;         /* ended, not yet waited for */
    int unreaped;               /* created, not yet waited for */
    /* every node: its own tasks */
    int running;
    int installing;             /* the image arriving now is installed */
    _Atomic int finish;         /* RT_TASK_FINISH came: the master finalizes */
    sigset_t app_mask;          /* the program's mask, given to task threads */
} T = { .lock = PTHREAD_MUTEX_INITIALIZER, .create_lock = PTHREAD_MUTEX_INITIALIZER };

static __thread int my_task; /* 0: the master, a worker's service thread */

/* --- starting ------------------------------------------------------------------- */

typedef struct init_call {
    int *argc;
    char ***argv;
    int rc, err;
    sem_t done;
} init_call;

static void *serve_thread(void *v);

/* The runtime's set-up, off the main arena.  On a worker this thread also
 * starts the service: a thread created by the main thread would have its
 * TLS vector (calloc'd by its creator) in the main arena, which the image
 * overwrites.  It then sleeps for good rather than exit: its own TLS
 * vector is in the main arena, and nobody may free that once an image
 * may have come. */
static void *init_thread(void *v)
{
    init_call *c = v;
    /* the runtime linked into the program would be overwritten with the
     * master's by the image */
    if (dsm_image_holds(&T)) {
        fprintf(stderr, "dsm: node ?: dsm_init_master: the runtime is linked into the program "
                        "(the internal archive): the thread model needs libdsm.so (-ldsm)\n");
        c->rc = -1;
        c->err = EINVAL;
        sem_post(&c->done);
        return NULL;
    }
    /* on before the init's last collective: node 0 may create tasks as soon
     * as it is through, before this thread runs again */
    T.on = 1;
    c->rc = dsm_backend_runtime.init(c->argc, c->argv);
    c->err = errno;
    if (c->rc)
        T.on = 0;
    else {
        pthread_t service;
        if (dsm_g->self != 0 && pthread_create(&service, NULL, serve_thread, dsm_g))
            dsm_fatal("dsm_init_master", "cannot start the task service thread");
    }
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, NULL);
    sem_post(&c->done);
    for (;;)
        pause();
    return NULL;
}

static int finish_seen(dsm_rt *rt, void *arg)
{
    (void)rt, (void)arg;
    return atomic_load(&T.finish);
}

/* A worker's service: tasks start from the message handler (RT_TASK_GO);
 * this thread only waits for the master's dsm_finalize and joins it. */
static void *serve_thread(void *v)
{
    dsm_rt *rt = v;
    dsm_rt_wait(rt, finish_seen, NULL);
    dsm_finalize();
    fflush(NULL);
    exit(0);
}

int dsm_tasks_init_master(int *argc, char ***argv)
{
    if (dsm_g) {
        fprintf(stderr, "dsm: node %d: dsm_init_master: called twice (or after dsm_init)\n",
                dsm_g->self);
        errno = EALREADY;
        return -1;
    }
    dsm_aslr_off("dsm_init_master");
    uintptr_t heap_at_entry = (uintptr_t)sbrk(0);
    mallopt(M_ARENA_MAX, 4096);
    pthread_sigmask(SIG_SETMASK, NULL, &T.app_mask);
    static init_call c; /* the helper thread keeps it */
    c = (init_call){ argc, argv, -1, 0, { { 0 } } };
    sem_init(&c.done, 0, 0);
    pthread_t h;
    if (pthread_create(&h, NULL, init_thread, &c)) {
        fprintf(stderr, "dsm: node ?: dsm_init_master: cannot start a thread\n");
        errno = EAGAIN;
        return -1;
    }
    pthread_detach(h);
    while (sem_wait(&c.done))
        ;
    if (c.rc) {
        errno = c.err;
        return -1;
    }
    dsm_rt *rt = dsm_g;
    if (rt->self == 0) {
        mallopt(M_MMAP_MAX, 0);
        dsm_image_fence(heap_at_entry);
        /* nor may the heap shrink under dsm_create's reading of it */
        mallopt(M_TRIM_THRESHOLD, INT_MAX);
        return 0;
    }
    /* main ran up to here on this node too: what it printed and did not
     * flush belongs to the master's run, not to this node's */
    __fpurge(stdout);
    /* this thread allocates nothing more (its arena is the main one, which
     * the image grows past): it sleeps until the service exits */
    for (;;)
        pause();
}

/* --- the master's calls ------------------------------------------------------------ */

static void need_master(const char *call)
{
    dsm_rt *rt = dsm_g;
    if (!T.on)
        dsm_fatal(call, "the job was started by dsm_init (the SPMD model); tasks need "
                        "dsm_init_master");
    if (rt->self != 0)
        dsm_fatal(call, "called by task %d on node %d: only node 0 (the master and the tasks "
                        "running there) creates and waits for tasks",
                  my_task, rt->self);
}

int dsm_tasks_create(void (*fn)(void *), void *arg)
{
    need_master("dsm_create");
    dsm_rt *rt = dsm_g;
    if (!fn) {
        errno = EINVAL;
        return -1;
    }
    pthread_mutex_lock(&T.create_lock);
    pthread_mutex_lock(&T.lock);
    if (T.ntasks == T.cap) {
        int c = T.cap ? 2 * T.cap : 64;
        task_rec *v = realloc(T.tasks, (size_t)c * sizeof *v);
        if (!v) {
            pthread_mutex_unlock(&T.lock);
            pthread_mutex_unlock(&T.create_lock);
            errno = ENOMEM;
            return -1;
        }
        T.tasks = v;
        T.cap = c;
    }
    int id = ++T.ntasks;
    int node = rt->nnodes == 1 ? 0 : (int)(T.creates % (unsigned long)rt->nnodes) + 1;
    if (node == rt->nnodes)
        node = 0;
    T.creates++;
    int busy = 0;
    for (int i = 0; i < T.ntasks - 1; i++)
        busy |= T.tasks[i].node == node && T.tasks[i].state == TASK_RUNNING;
    T.tasks[id - 1] = (task_rec){ node, TASK_RUNNING };
    T.unreaped++;
    pthread_mutex_unlock(&T.lock);
    if (node != 0) {
        uintptr_t hs, he;
        dsm_image_heap(&hs, &he);
        dsm_msg_hdr b = { 0 };
        b.type = RT_TASK_BEGIN;
        b.arg[0] = (uint64_t)id;
        b.arg[1] = hs;
        b.arg[2] = he;
        dsm_rt_send(rt, node, &b);
        dsm_image_send(rt, node, !busy, hs, he);
    }
    dsm_msg_hdr g = { 0 };
    g.type = RT_TASK_GO;
    g.block = (uint32_t)id;
    g.arg[0] = (uint64_t)id;
    g.arg[1] = (uint64_t)(uintptr_t)fn;
    g.arg[2] = (uint64_t)(uintptr_t)arg;
    dsm_rt_send(rt, node, &g);
    pthread_mutex_unlock(&T.create_lock);
    return id;
}

static int task_ended(dsm_rt *rt, void *arg)
{
    (void)rt;
    int id = *(int *)arg;
    pthread_mutex_lock(&T.lock);
    int done = T.tasks[id - 1].state != TASK_RUNNING;
    pthread_mutex_unlock(&T.lock);
    return done;
}

int dsm_tasks_join(int id)
{
    need_master("dsm_join");
    pthread_mutex_lock(&T.lock);
    int known = id >= 1 && id <= T.ntasks;
    int reaped = known && T.tasks[id - 1].state == TASK_REAPED;
    pthread_mutex_unlock(&T.lock);
    if (!known || reaped) {
        errno = known ? EINVAL : ESRCH;
        return -1;
    }
    dsm_rt_wait(dsm_g, task_ended, &id);
    int rc = 0;
    pthread_mutex_lock(&T.lock);
    if (T.tasks[id - 1].state == TASK_ENDED) {
        T.tasks[id - 1].state = TASK_REAPED;
        T.ended_unreaped--;
        T.unreaped--;
    } else { /* another thread joined it meanwhile */
        errno = EINVAL;
        rc = -1;
    }
    pthread_mutex_unlock(&T.lock);
    return rc;
}

static int enough_ended(dsm_rt *rt, void *arg)
{
    (void)rt;
    pthread_mutex_lock(&T.lock);
    int done = T.ended_unreaped >= *(int *)arg;
    pthread_mutex_unlock(&T.lock);
    return done;
}

void dsm_tasks_wait_for_end(int n)
{
    need_master("dsm_wait_for_end");
    for (;;) {
        pthread_mutex_lock(&T.lock);
        if (n < 0 || n > T.unreaped) {
            int u = T.unreaped;
            pthread_mutex_unlock(&T.lock);
            dsm_fatal("dsm_wait_for_end", "waits for %d tasks, but %d created tasks are not yet "
                                          "waited for (it would never return)",
                      n, u);
        }
        if (T.ended_unreaped >= n) {
            for (int i = 0; i < T.ntasks && n; i++)
                if (T.tasks[i].state == TASK_ENDED) {
                    T.tasks[i].state = TASK_REAPED;
                    T.ended_unreaped--;
                    T.unreaped--;
                    n--;
                }
            pthread_mutex_unlock(&T.lock);
            return;
        }
        pthread_mutex_unlock(&T.lock);
        dsm_rt_wait(dsm_g, enough_ended, &n);
    }
}

int dsm_tasks_task(void) { return T.on ? my_task : dsm_g->self; }

static int all_ended(dsm_rt *rt, void *arg)
{
    (void)rt, (void)arg;
    pthread_mutex_lock(&T.lock);
    int running = 0;
    for (int i = 0; i < T.ntasks; i++)
        running += T.tasks[i].state == TASK_RUNNING;
    pthread_mutex_unlock(&T.lock);
    return !running;
}

void dsm_tasks_finalize_begin(dsm_rt *rt)
{
    if (!T.on)
        return;
    if (my_task)
        dsm_fatal("dsm_finalize", "called by task %d on node %d: in the thread model only the "
                                  "master calls it (a task ends by returning)",
                  my_task, rt->self);
    if (rt->self != 0)
        return; /* a worker's service thread, after RT_TASK_FINISH */
    dsm_rt_wait(rt, all_ended, NULL);
    for (int k = 1; k < rt->nnodes; k++) {
        dsm_msg_hdr f = { 0 };
        f.type = RT_TASK_FINISH;
        dsm_rt_send(rt, k, &f);
    }
}

void dsm_tasks_crash(dsm_rt *rt, const void *addr)
{
    if (!T.on || !my_task || rt->self == 0)
        return;
    if ((uintptr_t)addr < 65536)
        dsm_fatal("task", "task %d: segmentation fault at %p (a null pointer?)", my_task, addr);
    dsm_fatal("task", "task %d: segmentation fault at %p: not shared memory, nor the master's "
                      "data that dsm_create copies (its globals and its malloc heap; not memory it "
                      "mapped itself, nor what it allocated before dsm_init_master): share the "
                      "data with dsm_malloc, dsm_alloc or DSM_SHARED",
              my_task, addr);
}

/* --- the tasks' threads ------------------------------------------------------------- */

static void *task_main(void *v)
{
    pthread_sigmask(SIG_SETMASK, &T.app_mask, NULL);
    task_start s = *(task_start *)v;
    free(v);
    my_task = s.id;
    s.fn(s.arg);
    dsm_rt *rt = dsm_g;
    pthread_mutex_lock(&T.lock);
    T.running--;
    pthread_mutex_unlock(&T.lock);
    dsm_msg_hdr e = { 0 };
    e.type = RT_TASK_END;
    e.block = (uint32_t)s.id;
    e.arg[0] = (uint64_t)s.id;
    dsm_rt_send(rt, 0, &e);
    return NULL;
}

static void start_task(dsm_rt *rt, const dsm_msg_hdr *h)
{
    task_start *s = malloc(sizeof *s);
    if (!s)
        dsm_fatal("dsm_create", "node %d: out of memory starting task %llu", rt->self,
                  (unsigned long long)h->arg[0]);
    s->id = (int)h->arg[0];
    s->fn = (void (*)(void *))(uintptr_t)h->arg[1];
    s->arg = (void *)(uintptr_t)h->arg[2];
    pthread_mutex_lock(&T.lock);
    T.running++;
    T.installing = 0;
    pthread_mutex_unlock(&T.lock);
    pthread_attr_t a;
    pthread_attr_init(&a);
    pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
    int err = pthread_create(&(pthread_t){ 0 }, &a, task_main, s);
    pthread_attr_destroy(&a);
    if (err)
        dsm_fatal("dsm_create", "node %d cannot start a thread for task %d: %s", rt->self, s->id,
                  strerror(err));
}

void dsm_tasks_handle(dsm_rt *rt, const dsm_msg_hdr *h, const void *payload)
{
    switch (h->type) {
    case RT_TASK_BEGIN: {
        /* all of the image, or what changed since (image.c) */
        T.installing = 1;
        char why[200];
        if (T.installing && dsm_image_prepare((uintptr_t)h->arg[1], (uintptr_t)h->arg[2], why,
                                              sizeof why))
            dsm_fatal("dsm_create", "node %d cannot take the master's heap for task %llu: %s",
                      rt->self, (unsigned long long)h->arg[0], why);
        break;
    }
    case RT_TASK_IMAGE:
        /* pieces come between BEGIN and GO, from node 0, in order */
        if (!T.installing)
            dsm_fatal("transport", "an image piece from node %d outside a task's start",
                      h->src);
        if (dsm_image_install((uintptr_t)h->arg[0], h->len ? payload : NULL,
                              h->len ? h->len : (size_t)h->arg[1]))
            dsm_fatal("transport", "an image piece from node %d (%#llx, %llu bytes) is outside "
                                   "the program's data and heap",
                      h->src, (unsigned long long)h->arg[0],
                      (unsigned long long)(h->len ? h->len : h->arg[1]));
        break;
    case RT_TASK_GO:
        start_task(rt, h);
        break;
    case RT_TASK_END: {
        int id = (int)h->arg[0];
        pthread_mutex_lock(&T.lock);
        int ok = id >= 1 && id <= T.ntasks && T.tasks[id - 1].state == TASK_RUNNING &&
                 T.tasks[id - 1].node == h->src;
        if (ok) {
            T.tasks[id - 1].state = TASK_ENDED;
            T.ended_unreaped++;
        }
        pthread_mutex_unlock(&T.lock);
        if (!ok)
            dsm_fatal("transport", "node %d reports the end of task %d, which it does not run",
                      h->src, id);
        dsm_rt_signal(rt);
        break;
    }
    case RT_TASK_FINISH:
        atomic_store(&T.finish, 1);
        dsm_rt_signal(rt);
        break;
    }
}
