/* prof.h - the runtime side of the data-centric profile: names of data
 * structures (by name, or by allocation site and call path), miss causes
 * per (node, block), the faulting instruction of every miss, twins and
 * diffs of write-granted blocks (false sharing at the byte level), all
 * recorded by prof.c; at dsm_finalize every node's records serialized
 * (ship.c, format profile/records.h) and gathered at node 0 inside
 * dsm/stats.c's gather, where profile/aggregate.c builds the profile and
 * profile/profile_write.c writes it.
 *
 * rt->prof is NULL when DSM_PROFILE=off: every hook is then one branch in
 * the caller.  The hooks called with eng_lock held say so. */
#ifndef DSM_PROF_H
#define DSM_PROF_H

#include <stddef.h>
#include <stdint.h>

typedef struct dsm_rt dsm_rt;
typedef struct dsm_prof dsm_prof;
typedef struct dsm_stats_table dsm_stats_table;

/* The faulting instruction of the current fault of this thread (fault.c
 * sets it from the signal context; 0: unknown). */
extern __thread uintptr_t dsm_prof_fault_ip;
/* The bytes the current fault's access covers and whether it reads them
 * (fault.c from the decoded instruction, access.c from the check; len 0:
 * unknown): a read is the evidence that a transfer carried data its
 * receiver used (true sharing, doc/profile-format.md). */
typedef struct dsm_prof_access {
    uintptr_t addr;
    uint32_t len;
    uint8_t reads;
} dsm_prof_access;
extern __thread dsm_prof_access dsm_prof_fault_access;

/* dsm_init: reads DSM_PROFILE (unset: dsm-profile.json; "off": no profile);
 * sets rt->prof.  0, or -1 after a message. */
int dsm_prof_init(dsm_rt *rt);

/* An allocation of [off, off + len) (region offsets) named `name` (NULL: by
 * the caller's site and call path).  Called outside eng_lock. */
void dsm_prof_alloc(dsm_rt *rt, size_t off, size_t len, const char *name, int collective);

/* A miss of counters kind `kind` (CM_*_MISSES / CM_*_WRITE_RO / _INV) on
 * block completed after `wall` ticks (dsm_ticks; eng_lock held). */
void dsm_prof_miss(dsm_rt *rt, uint32_t block, int kind, uint64_t wall);

/* The bytes the miss on block just completed read (dsm_prof_fault_access),
 * logged as the evidence that a transfer's data was used; dsm_prof_miss
 * does it too.  For a run without counters (eng_lock held). */
void dsm_prof_read(dsm_rt *rt, uint32_t block);

/* A fault that ended at tick `end` (dsm_ticks) after `wall` ticks, a miss
 * or not (a wait for a request in flight): counted in its timeslice
 * (eng_lock held). */
void dsm_prof_slice(dsm_rt *rt, uint64_t end, int miss, uint64_t wall);
/* A barrier waited from t0 to t1 (dsm_now_ns): spread over its timeslices
 * (takes eng_lock). */
void dsm_prof_barrier(dsm_rt *rt, uint64_t t0, uint64_t t1);

/* The application's access to block is set to `access` (eng_lock held):
 * a write grant takes a twin, leaving write access diffs it. */
void dsm_prof_set_access(dsm_rt *rt, uint32_t block, int access);
/* Home, eng_lock held: write access to block is granted to remote node
 * `to` (DATA_X / UPGRADE_ACK sent), and the data of that write epoch comes
 * back (WB_DATA from `from`, before it is installed): the epoch's written
 * ranges are the diff of `data` against the home's memory. */
void dsm_prof_grant(dsm_rt *rt, uint32_t block, int to);
void dsm_prof_writeback(dsm_rt *rt, uint32_t block, int from, const void *data);
/* The diff of a write epoch is deferred from the moment write access goes;
 * it must be taken before the node's copy can change: flush_block before
 * this node requests the block or a home recalls it (data may then arrive,
 * even placed by RDMA) and before data is installed; flush_pending when the
 * node is idle.  eng_lock held. */
void dsm_prof_flush_block(dsm_rt *rt, uint32_t block);
/* flush_pending takes at most max diffs (the progress thread polls between
 * batches, so a request never waits behind a long flush); returns whether
 * diffs remain. */
int dsm_prof_flush_pending(dsm_rt *rt, size_t max);
int dsm_prof_pending(const dsm_rt *rt);

/* Recording on (the default) or off: off, no new misses, timeslices or
 * twins are recorded (write epochs already open still end).  For
 * bench/bench_profile_miss, which alternates it to measure the profile's
 * cost per miss within one run; takes eng_lock. */
void dsm_prof_record(dsm_rt *rt, int on);

/* dsm_finalize: this node's data, serialized (malloc'd; *len bytes). */
void *dsm_prof_serialize(dsm_rt *rt, size_t *len);
/* Node 0: a piece of node src's serialized data (in order). */
void dsm_prof_receive(dsm_rt *rt, int src, const void *data, size_t len);
/* Node 0, after everything arrived: build and write the profile, print the
 * summary. */
void dsm_prof_finish(dsm_rt *rt, const dsm_stats_table *t);

#endif
