/* jobsync.h - synchronisation through memory every node of the job maps
 * (transport.h, job_area: the shm segment, when the whole job is on one
 * host), with the processor's atomics and a futex shared between the
 * processes instead of messages to a manager node.
 *
 * A message's round trip costs two wake-ups of the receiving nodes'
 * threads (a futex wake each, 13 us on this project's VM), and a runtime
 * atomic counter spun on by two nodes cost one round trip per look
 * (bench_core's atomic-counter handoff, 15.9 us).  In the job's memory a
 * counter is one locked instruction, and a collective costs one wake-up
 * of the waiting nodes by the last to arrive, none when they spin.
 *
 * What lives there: the collectives after dsm_init's (each node's call,
 * an arrival count, a generation the waiters sleep on; the last node to
 * arrive compares the calls, so mismatched ones still end the job with a
 * line naming both), the atomic counters, the locks (ticket locks) and
 * dsm_barrier_n's barriers: tables by id, filled on first use; an id a
 * table cannot take keeps its manager node, the same decision on every
 * node since entries are never freed.
 * sync.c decides which path a call takes (DSM_JOB_SYNC). */
#ifndef DSM_JOBSYNC_H
#define DSM_JOBSYNC_H

#include <stdatomic.h>
#include <stdint.h>

typedef struct dsm_jobsync dsm_jobsync;
typedef struct dsm_jobsync_lock dsm_jobsync_lock;
/* a sleeper wakes this often anyway (a lost wake-up would cost this much,
 * never a hang; none is expected) */
#define DSM_JOBSYNC_SLEEP_MS 100
/* How a node waits: return once *word != seen; a waiter that sleeps (on
 * the futex of word, shared between processes, with the bitset bits:
 * dsm_futex_wait_bits) counts itself in *sleepers meanwhile, which the
 * writer of word looks at after moving it.  node.c's dsm_rt_wait_word
 * spins first, serving messages as a miss's wait does;
 * dsm_jobsync_wait_plain only spins and sleeps. */
typedef void (*dsm_jobsync_waiter)(void *ctx, _Atomic uint32_t *word, _Atomic uint32_t *sleepers,
                                   uint32_t seen, uint32_t bits);
void dsm_jobsync_wait_plain(void *spin_ns, _Atomic uint32_t *word, _Atomic uint32_t *sleepers,
                            uint32_t seen, uint32_t bits);
/* bits of a waiter that any move of its word wakes */
#define DSM_JOBSYNC_ANY 0xffffffffu

/* A view of the job area (DSM_JOB_AREA_BYTES at area) for node self of
 * nnodes; NULL when the area cannot hold nnodes' entries (the caller keeps
 * the messages). */
dsm_jobsync *dsm_jobsync_open(void *area, int self, int nnodes);
void dsm_jobsync_close(dsm_jobsync *js);

/* One collective call: this node's (seq, kind, arg) is recorded; returns
 * the generation to wait past, and *last = 1 when this node arrived last
 * (it then compares the calls with dsm_jobsync_mismatch and releases the
 * others with dsm_jobsync_release). */
uint32_t dsm_jobsync_arrive(dsm_jobsync *js, uint64_t seq, int kind, uint64_t arg, int *last);
/* The last to arrive: -1 when every node made the same call, else the
 * first node whose call differs from node 0's, its (seq, kind, arg) in
 * out[0..2] and node 0's in out[3..5]. */
int dsm_jobsync_mismatch(dsm_jobsync *js, uint64_t out[6]);
void dsm_jobsync_release(dsm_jobsync *js);
/* Has the collective of generation gen been released? */
int dsm_jobsync_released(dsm_jobsync *js, uint32_t gen);
/* Wait until it is. */
void dsm_jobsync_wait(dsm_jobsync *js, uint32_t gen, dsm_jobsync_waiter wait, void *ctx);

/* The counter of atomic id (any 32-bit id), made on first use; NULL when
 * the table cannot take it (its manager node keeps it). */
_Atomic uint64_t *dsm_jobsync_counter(dsm_jobsync *js, uint32_t id);

/* The lock of id (any 32-bit id), NULL when the table cannot take it.
 * Acquire waits its turn (tickets: first come, first served, as the
 * manager's queue); release returns the node that held it (-1: nobody),
 * and lets it go only when that is this node. */
dsm_jobsync_lock *dsm_jobsync_lock_of(dsm_jobsync *js, uint32_t id);
void dsm_jobsync_lock_acquire(dsm_jobsync *js, dsm_jobsync_lock *l, dsm_jobsync_waiter wait,
                              void *ctx);
int dsm_jobsync_lock_release(dsm_jobsync *js, dsm_jobsync_lock *l);

/* dsm_barrier_n(id, count): arrive and wait for the round's count.  0
 * when passed; 1 when the table cannot take id (its manager keeps it); 2
 * when count is above what the table counts (2^21 - 1 participants); 3
 * when the round's first arrival, node other[0], said other[1]
 * participants. */
int dsm_jobsync_barrier(dsm_jobsync *js, uint32_t id, uint32_t count, dsm_jobsync_waiter wait,
                        void *ctx, uint32_t other[2]);

#endif
