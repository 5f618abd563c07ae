/* dsm.h - public API of the DSM runtime.  Link with -ldsm (pkg-config dsm).
 *
 * Unmodified shared-memory code runs on N nodes that share no memory: memory
 * returned by dsm_alloc / dsm_malloc is kept sequentially consistent by a
 * home-based directory protocol driven by access faults.  Start a job with
 * `dsmrun -n N prog args...` (one machine) or `mpirun -np N prog` (a cluster).
 *
 * Errors in use (a mismatched collective call, a pointer outside the region,
 * a lock id out of range, a call before dsm_init) print one line on stderr
 * naming the node and the call, and end the whole job with a non-zero exit. */
#ifndef DSM_H
#define DSM_H

#include <stddef.h>

/* The version of this header; dsm_version() gives the library's, so a
 * program can tell when it runs against another one than it was built with. */
#define DSM_VERSION_MAJOR 0
#define DSM_VERSION_MINOR 2
#define DSM_VERSION_PATCH 0
#define DSM_VERSION "0.2.0"
/* One number that compares in order: 10000 * major + 100 * minor + patch. */
#define DSM_VERSION_NUMBER (DSM_VERSION_MAJOR * 10000 + DSM_VERSION_MINOR * 100 + DSM_VERSION_PATCH)

/* The library exports exactly the calls below (and the compiler hooks of
 * dsmcc); everything else in it is hidden, so a program's own functions
 * never collide with the runtime's. */
#if defined(__GNUC__)
#define DSM_API __attribute__((visibility("default")))
#else
#define DSM_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

DSM_API int    dsm_init(int *argc, char ***argv);      /* join the job; 0, or -1 with errno set */
DSM_API void   dsm_finalize(void);                     /* collective: flush, write the profile, leave */
DSM_API int    dsm_node(void);                         /* 0 .. dsm_nodes()-1 */
DSM_API int    dsm_nodes(void);
DSM_API void  *dsm_alloc(size_t size, const char *name);   /* collective: same call order on every node,
                                                      same address everywhere; name labels the
                                                      data structure in profiles (NULL: by site) */
DSM_API void  *dsm_malloc(size_t size, const char *name);  /* any node, any time; home is the caller
                                                      (DSM_MALLOC_HOMES=round-robin: spread) */
DSM_API void   dsm_free(void *p);
DSM_API void   dsm_barrier(void);
DSM_API void   dsm_lock(unsigned id);                  /* global locks by number (or dsm_lock_new's) */
DSM_API void   dsm_unlock(unsigned id);
DSM_API double dsm_wtime(void);                        /* seconds, same clock base on all nodes */

/* Extensions (not renamed parts of the agreed API) */
DSM_API size_t dsm_block_size(void);                   /* coherence unit in bytes */
DSM_API unsigned dsm_lock_count(void);                 /* fixed lock ids are 0 .. dsm_lock_count()-1 */
DSM_API int    dsm_home_of(const void *p);             /* home node of the block holding p, or -1 */
DSM_API long   dsm_block_index(const void *p);         /* block number of p in the region (as in the
                                                  statistics), or -1 outside the region */

/* Synchronisation objects made on demand, by any node or thread, at any
 * time, with no collective call: the id is unique in the job, is not
 * bounded by DSM_LOCKS, and may be stored in shared memory for the others.
 * The objects one node makes are managed by all nodes in turn. */
DSM_API unsigned dsm_lock_new(void);                   /* an id for dsm_lock / dsm_unlock */
DSM_API unsigned dsm_barrier_new(void);                /* an id for dsm_barrier_n */
/* Wait until `count` threads, on any nodes, called it with this id (made
 * by dsm_barrier_new, or any number below 2^31 the program chooses); then
 * it starts over.  Callers of one round must agree on count. */
DSM_API void   dsm_barrier_n(unsigned id, unsigned count);
/* Condition variables, as pthread's: dsm_cond_wait is called with `lock`
 * held, lets it go while it sleeps and holds it again when it returns
 * (spurious wake-ups do not happen, but check the predicate anyway).
 * Waiters block; they never poll shared memory. */
DSM_API unsigned dsm_cond_new(void);
DSM_API void   dsm_cond_wait(unsigned cond, unsigned lock);
DSM_API void   dsm_cond_signal(unsigned cond);          /* wake the longest waiter, if any */
DSM_API void   dsm_cond_broadcast(unsigned cond);       /* wake them all */
/* Atomic counters: a long per id (any number below 2^31, or one made by
 * dsm_lock_new), 0 at first, not in the shared region: kept at the id's
 * manager node, or in memory the nodes share when the whole job is on one
 * host (DSM_JOB_SYNC).  dsm_atomic_add adds delta and returns the value
 * before it; the caller goes on once it is done, so all the operations on one
 * id fall in one order, and with the protocol's sequential consistency a
 * thread that sees a count also sees the writes made before it was added. */
DSM_API long   dsm_atomic_add(unsigned id, long delta);
DSM_API long   dsm_atomic_load(unsigned id);            /* dsm_atomic_add(id, 0) */
/* The measured section of a run on a simulated machine (dsmrun --machine):
 * from the first processor's begin to the last processor's end, by simulated
 * time; FlashPoint's parallel time (dsmprof flashpoint, Table 2) is its
 * length.  Natively and on the DSM they do nothing. */
DSM_API void   dsm_sim_section_begin(void);
DSM_API void   dsm_sim_section_end(void);

/* A checkpoint (QuickStep, section 2.4): on the simulated Alewife
 * (dsmrun --machine=alewife --quickstep) the CMMU's checkpoint counters
 * count it; elsewhere it does nothing.  id = group * 16 + index: group
 * 0 .. 255, index 0 .. 15 (DSM_CHECKPOINT(group, index)); out of range the
 * job ends with an error. */
#define DSM_CHECKPOINT_MAX 4095
#define DSM_CHECKPOINT(group, index) ((group) * 16 + (index))
DSM_API void   dsm_checkpoint(int id);

/* The library's version, DSM_VERSION of the dsm.h it was built with. */
DSM_API const char *dsm_version(void);

/* The thread model (SPLASH's PARMACS CREATE, a pthread-like start): the
 * master runs main alone and starts tasks on the other nodes.
 * dsm_init_master: join the job like dsm_init; only the master (node 0)
 *   returns (0, or -1 with errno set).  Every other node serves dsm_create
 *   requests until the master's dsm_finalize, then exits with status 0.
 * dsm_create: start fn(arg) as a new task: on nodes 1..N-1 in turn, then
 *   node 0, again and again; a node that runs a task already runs the new
 *   one as another thread.  A task starting on a node that runs no other
 *   task sees the master's globals (the program's writable data and bss)
 *   and private heap as they were at the call; see dsm(3) for the rules.
 *   Returns the task id (>= 1), or -1 with errno set.  Master only.
 * dsm_join: wait (blocked, not spinning) for that task to end: 0, or -1
 *   (errno ESRCH: no such task; EINVAL: joined already).
 * dsm_wait_for_end: wait until ntasks created tasks not yet waited for
 *   (by it or dsm_join) have ended (PARMACS WAIT_FOR_END).
 * dsm_task: the calling task's id: 0 for the master (and, in the SPMD
 *   model of dsm_init, the node number).
 * DSM_SHARED: a file-scope global placed in the shared region: the same
 *   address on every node and kept coherent like dsm_alloc'd memory.  Link
 *   with the flags of `pkg-config --libs dsm` (or dsmcc), which page-align
 *   the section; dsm_init says so when they are missing. */
DSM_API int    dsm_init_master(int *argc, char ***argv);
DSM_API int    dsm_create(void (*fn)(void *), void *arg);
DSM_API int    dsm_join(int task);
DSM_API void   dsm_wait_for_end(int ntasks);
DSM_API int    dsm_task(void);
#define DSM_SHARED __attribute__((section("dsm_shared"), aligned(64)))

#ifdef __cplusplus
}
#endif
#endif
