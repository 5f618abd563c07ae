/* park.h - whether a node's program can touch the shared region right now.
 *
 * A home that wrote a block holds it read-write; to answer a read miss it
 * takes its own write right away (mprotect) before it copies the block, so
 * that its next write faults (doc/cluster.md, "Why the home's downgrade
 * stays on the miss's path").  That order matters only while a thread of
 * the program can run.  When the node's one application thread waits
 * inside the runtime (a barrier, a lock, a condition, a join: it is
 * *parked*) nothing can write the block between the copy and the
 * protection change, so a call handling a message may send first and
 * change the protections after its sends (node.c, run_actions): the
 * requester gets its answer without waiting for the home's mprotect.
 *
 * Sound only if nothing else runs the program's code on the node, so the
 * deferral is allowed only when
 *   - the program started the runtime with dsm_init (the SPMD model) from
 *     its only thread (one thread in the process at dsm_init's entry);
 *   - every thread of the process now is that thread or one that existed
 *     when dsm_init returned (the runtime's, MPI's): /proc/self/task is
 *     read once per park, by the first call that would defer, not by the
 *     waiting thread (a thread of the program that got the id of one of
 *     those after it ended would pass: the kernel hands ids out in turn,
 *     so only after the id space wrapped around);
 *   - the program has no handler for an asynchronous signal (a handler may
 *     run on the parked thread while it sleeps, sig_gate.c): none at
 *     dsm_init's entry, none installed since it returned (those installed
 *     in between are MPI's).
 * A parked thread leaves through dsm_park_leave before it returns to the
 * program; a call that decided to defer holds the engine lock until its
 * protections are made, and the leaver waits for that lock when such a
 * call may be in flight (the two flags are read and written sequentially
 * consistent: either the call sees the thread gone, or the thread sees the
 * call).  DSM_PARK_DEFER=off turns it off. */
#ifndef DSM_PARK_H
#define DSM_PARK_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/types.h>

typedef struct dsm_park {
    int eligible;          /* SPMD, one thread at dsm_init's entry, setting on */
    pid_t app_tid;         /* the thread that called dsm_init */
    pid_t *known;          /* the other threads when dsm_init returned, sorted */
    int nknown;
    _Atomic int parked;    /* app_tid waits inside the runtime */
    _Atomic uint32_t epoch; /* parks so far: the census holds for one */
    _Atomic int busy;      /* a call may be deferring its protections */
    uint32_t census_epoch; /* under the engine lock: the park the census was made for */
    int census_ok;
    unsigned long installs; /* signal handlers installed when dsm_init returned */
    uint64_t deferred;     /* calls that sent before protecting (the statistics) */
} dsm_park;

/* dsm_init's entry (before any thread of the runtime): 1 thread? */
void dsm_park_begin(dsm_park *p, int enabled);
/* dsm_init's end: the threads that exist now are the runtime's. */
void dsm_park_seal(dsm_park *p);
/* The application thread starts / ends a wait inside the runtime. */
void dsm_park_enter(dsm_park *p);
void dsm_park_leave(dsm_park *p, pthread_mutex_t *eng_lock);
/* Under the engine lock, at the start of a call handling a message: 1
 * when its protection changes may follow its sends; dsm_park_done after
 * the call's last protection change, whatever this returned. */
int dsm_park_defer(dsm_park *p);
void dsm_park_done(dsm_park *p);
void dsm_park_free(dsm_park *p);

#endif
