/* node.h - the runtime of one node: the engine behind a mutex, the region,
 * the transport, the progress thread that serves incoming messages, and the
 * waiting discipline (spin briefly while polling, then block).  The API
 * (api.c), the fault handler (fault.c), allocation (alloc.c) and
 * synchronisation (sync.c) are built on it. */
#ifndef DSM_NODE_H
#define DSM_NODE_H

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>

#include "jobsync.h"
#include "msg.h"
#include "park.h"
#include "settings.h"
#include "proto.h"
#include "region.h"
#include "prof/prof.h"
#include "stats.h"
#include "transport/transport.h"

enum { COLL_INIT = 1, COLL_BARRIER, COLL_ALLOC, COLL_FINALIZE, COLL_STATS };

#define DSM_MAX_THREADS 1024

typedef struct dsm_rt {
    dsm_config cfg;
    int self, nnodes;
    dsm_transport *tp;          /* NULL on a one-node job */
    dsm_region region;
    proto_engine *eng;
    pthread_mutex_t eng_lock;   /* guards eng and acts */
    proto_actions acts;

    /* Everything a thread may wait for (a block's request, a collective, a
     * lock grant) bumps this word; sleepers block on it. */
    _Atomic uint32_t events;
    _Atomic uint32_t sleepers;
    _Atomic int app_spinners;   /* application threads spinning in dsm_rt_wait */
    _Atomic int tp_waiters;     /* application threads sleeping in the transport's wait */
    _Atomic uint64_t spin_ns;   /* a waiter spins this long, then blocks (DSM_SPIN_US) */
    /* DSM_SPIN_US=auto on a host with a core per node: the spin pays only
     * when waits end within it; node.c counts, over windows of waits, how
     * many outlasted spin_cap_ns and turns the spin off (spin_ns = 0)
     * while most did */
    uint64_t spin_cap_ns;
    _Atomic uint32_t spin_waits, spin_long;
    /* what taking the write right of a written page costs here (one
     * mprotect read-write to read-only, measured at dsm_rt_start): a read
     * miss waits for its home to pay it, so the `auto` spin covers it */
    uint64_t downgrade_ns;

    /* Grants held until the faulting access retried (see proto_release):
     * released by the same thread at its next entry, or by the progress
     * thread once the holder left the fault handler DSM_HOLD_US ago. */
    struct dsm_hold { uint32_t block; int slot; uint64_t left_ns; } holds[64];
    int nholds;

    /* read copies of a bulk fetch whose read access waits for the copies
     * that follow (protect.c): blocks [pend_first, pend_first + pend_n),
     * changed under eng_lock; pend_n is peeked at without it */
    uint32_t pend_first, pend_n;

    /* the program's thread waiting inside the runtime (park.h) */
    dsm_park park;
    /* the collectives, atomic counters, locks and barriers in the job's
     * shared memory (jobsync.h); NULL: messages (other hosts, one node,
     * DSM_JOB_SYNC=off) */
    dsm_jobsync *jobsync;

    pthread_t progress;
    int progress_started;
    _Atomic int stopping;

    /* collectives */
    pthread_mutex_t coll_lock;
    uint64_t coll_seq;              /* last collective this node entered */
    _Atomic uint64_t coll_done;     /* last collective completed */
    /* node 0 only: the collective being gathered */
    uint64_t cg_seq;
    int cg_arrived, cg_kind, cg_first;
    uint64_t cg_arg;
    int cg_init_refused;            /* a node's settings differ: dsm_init never completes */

    /* locks */
    pthread_mutex_t lock_lock;
    struct lock_rec *locks;         /* the locks this node manages (id % nnodes == self) */
    _Atomic uint8_t granted[DSM_MAX_THREADS];
    _Atomic uint32_t lock_wanted[DSM_MAX_THREADS]; /* per slot: lock id + 1 asked for, 0 none */
    _Atomic uint32_t *lock_owner;   /* per lock: serial of the thread of this node holding it */
    _Atomic int locks_held;         /* locks this node holds */
    _Atomic int next_slot;
    /* synchronisation objects made on demand, barriers of any count and
     * condition variables (sync.c, syncid.h) */
    struct dsm_sync_made *made;
    _Atomic uint32_t sync_wakes[DSM_MAX_THREADS]; /* per slot: RT_SYNC_WAKE received */
    _Atomic uint64_t sync_value[DSM_MAX_THREADS]; /* per slot: the last wake's value (an atomic's) */

    /* allocation */
    pthread_mutex_t alloc_lock;
    size_t coll_base, coll_end, coll_next;   /* collective arena, region offsets */
    size_t arena_size;                        /* per-node dsm_malloc arena */
    uint64_t alloc_seq;
    struct dsm_heap *heap;                    /* this node's dsm_malloc arena */

    /* statistics (stats.h): ctr is NULL when DSM_COUNTERS=off */
    counters *ctr;
    dsm_stats stats;
    dsm_prof *prof;             /* the profile (prof.h); NULL when DSM_PROFILE=off */

    _Atomic uint64_t pongs;     /* RT_PONG received */
    uint64_t clock_base_ns;
    int initialized, finalized;
} dsm_rt;

extern dsm_rt *dsm_g;

/* Bring up / tear down (node.c). */
int dsm_rt_start(dsm_rt *rt);
void dsm_rt_stop(dsm_rt *rt);

/* Send a runtime message; to self it is handled at once. */
void dsm_rt_send(dsm_rt *rt, int dst, dsm_msg_hdr *h);
/* The same with a payload (at most the block size). */
void dsm_rt_send_data(dsm_rt *rt, int dst, dsm_msg_hdr *h, const void *payload, uint32_t len);

/* Wait until done(arg) is true, serving messages meanwhile.  done() is
 * first called before the program's signals are blocked (node.h, below):
 * outside the fault handler it must not take the engine lock. */
void dsm_rt_wait(dsm_rt *rt, int (*done)(dsm_rt *rt, void *arg), void *arg);
/* Something a waiter may care about happened. */
void dsm_rt_signal(dsm_rt *rt);
/* jobsync.h's waiter for this runtime (ctx: the dsm_rt): spin as
 * dsm_rt_wait does, serving messages, then sleep on the shared word with
 * the program's signal handlers open as in dsm_rt_wait's sleep. */
void dsm_rt_wait_word(void *rt, _Atomic uint32_t *word, _Atomic uint32_t *sleepers,
                      uint32_t seen, uint32_t bits);
/* Sets rt->spin_ns from DSM_SPIN_US; `auto` from the nodes on this host
 * and its usable cores. */
void dsm_rt_spin_policy(dsm_rt *rt, int host_nodes, int cores);
int dsm_rt_host_nodes(dsm_rt *rt);
int dsm_rt_cores(void);

/* A fault (or an explicit access check) on block: returns when the request
 * is complete; the access must then be retried. */
void dsm_rt_access(dsm_rt *rt, uint32_t block, int is_write);

/* The calling thread is back in the runtime: its faulting accesses have
 * retried, so the grants they held may go. */
void dsm_rt_release_mine(dsm_rt *rt);
/* A release (unlock, barrier, condition, collective), adaptive protocol:
 * the blocks granted for a push at the epoch's end go, and at an unlock the
 * blocks granted for a flush (proto.h, proto_epoch_end). */
void dsm_rt_epoch_end(dsm_rt *rt, int unlock);

/* Probe for benchmarks: mean microseconds of `count` message round trips
 * to node `peer` through the transport and both runtimes. */
double dsm_rt_probe_roundtrip(dsm_rt *rt, int peer, int count);

/* Message handlers of the other parts (sync.c, alloc.c). */
void dsm_sync_handle(dsm_rt *rt, const dsm_msg_hdr *h);
void dsm_alloc_handle(dsm_rt *rt, const dsm_msg_hdr *h);
int dsm_sync_init(dsm_rt *rt);
int dsm_alloc_init(dsm_rt *rt);
void dsm_collective(dsm_rt *rt, int kind, uint64_t arg, const char *call);
void dsm_sync_lock(dsm_rt *rt, unsigned id);
void dsm_sync_unlock(dsm_rt *rt, unsigned id);
unsigned dsm_sync_new(dsm_rt *rt, const char *call);
void dsm_sync_barrier_n(dsm_rt *rt, unsigned id, unsigned count);
void dsm_sync_cond_wait(dsm_rt *rt, unsigned cond, unsigned lock);
void dsm_sync_cond_signal(dsm_rt *rt, unsigned cond, int all);
long dsm_sync_atomic_add(dsm_rt *rt, unsigned id, long delta);
void *dsm_alloc_collective(dsm_rt *rt, size_t size, const char *name);
void *dsm_alloc_local(dsm_rt *rt, size_t size, const char *name);
void dsm_free_any(dsm_rt *rt, void *p);
int dsm_fault_install(dsm_rt *rt);

/* A small per-thread number, for lock grants; -1 past DSM_MAX_THREADS
 * threads alive at once (a slot is reused when its thread exits). */
int dsm_rt_thread_slot(dsm_rt *rt);
/* A number of the calling thread, never reused (1, 2, ...). */
uint32_t dsm_rt_thread_serial(void);

/* The program's signals.  The runtime's own threads block them for good;
 * an application thread blocks them while it is busy inside the runtime
 * (dsm_rt_enter .. dsm_rt_leave, nestable, in every entry that takes the
 * runtime's locks) and gets its own mask back while it sleeps in
 * dsm_rt_wait, holding nothing: a handler that touches shared memory then
 * faults like any other thread, and never finds its own thread inside the
 * engine lock. */
void dsm_rt_enter(void);
void dsm_rt_leave(void);
/* The calling thread is inside the runtime (a section, or its own thread). */
int dsm_rt_busy(void);
/* The signals blocked that way: all but the synchronous ones (SIGSEGV,
 * SIGBUS, SIGILL, SIGFPE, SIGTRAP, SIGSYS). */
const sigset_t *dsm_rt_async_signals(void);
/* The fault handler's entry and exit (fault.c).  interrupted: the mask of
 * the code that faulted, when the kernel already blocked the signals for
 * the handler (its sa_mask), else NULL.  -1 when this thread was busy in
 * the runtime (a handler of a signal the runtime does not block faulted):
 * the fault cannot be served. */
typedef struct dsm_rt_sigframe {
    int depth, parked, restore, open;
    sigset_t mask;
} dsm_rt_sigframe;
int dsm_rt_fault_enter(const sigset_t *interrupted, dsm_rt_sigframe *outer);
void dsm_rt_fault_leave(const dsm_rt_sigframe *outer);

#endif
