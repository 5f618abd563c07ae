/* stats.h - the runtime side of the Figure 3 counters: the hooks node.c,
 * sync.c and api.c call at the events they count, the gathering of every
 * node's counters and every home's pattern records at node 0 during
 * dsm_finalize, and the merged in-memory table written to the DSM_STATS file
 * (format and metric definitions: doc/metrics.md).
 *
 * Per-block counters live in rt->ctr (protocol/counters.h) and are updated
 * with eng_lock held; per-node metrics counted outside that lock (barriers,
 * locks, polls, runtime messages) are atomics here and folded in when the
 * counters are gathered.  rt->ctr == NULL when DSM_COUNTERS=off: every hook
 * is then one predictable branch. */
#ifndef DSM_STATS_H
#define DSM_STATS_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>

#include "counters.h"
#include "proto.h"
#include "transport/transport.h"

typedef struct dsm_rt dsm_rt;

/* One home's pattern record of a block, as gathered at node 0. */
typedef struct dsm_stats_pattern {
    uint32_t block;
    int32_t home;
    proto_block_patterns p;
} dsm_stats_pattern;

/* The merged statistics of a job (node 0, after gathering).  Reusable by
 * other writers (the profile): per node the full vectors, plus patterns. */
typedef struct dsm_stats_table {
    int nnodes;
    uint32_t nblocks;
    size_t block_size;
    int counters_on, patterns_on;
    counters **node;            /* [nnodes]; a node's counters as it shipped them */
    dsm_stats_pattern *pat;     /* sorted by block once complete */
    size_t npat, pat_cap;
} dsm_stats_table;

dsm_stats_table *dsm_stats_table_create(int nnodes, uint32_t nblocks, size_t block_size);
void dsm_stats_table_destroy(dsm_stats_table *t);
/* Sum over nodes of a per-block metric of one block. */
uint64_t dsm_stats_table_block(const dsm_stats_table *t, int metric, uint32_t block);
/* Job total of a metric (sum over nodes of the per-node values). */
uint64_t dsm_stats_table_total(const dsm_stats_table *t, int metric);
/* The dsm-stats/1 text file; 0, or -1 on a write error (errno). */
int dsm_stats_table_write(dsm_stats_table *t, FILE *f);

/* Per-node state of the statistics (in dsm_rt). */
typedef struct dsm_stats {
    _Atomic uint64_t scalar[CM_NNODE_METRICS]; /* per-node metrics counted without eng_lock */
    /* the engine call in progress (eng_lock held): its block, the engine's
     * self-message count before it, invalidations it performed */
    uint32_t block;
    uint64_t self0;
    int inv_ro, inv_rw;
    /* gathering (node 0) */
    pthread_mutex_t lock;       /* guards table, ends, msgs_from */
    FILE *out;                  /* DSM_STATS, opened at dsm_init */
    dsm_stats_table *table;
    int ends;                   /* nodes whose data is complete */
    uint64_t *msgs_from;        /* stats messages received per node */
    /* per node: the start of a pattern record split between two messages
     * (a record is larger than a message at 32-byte blocks) */
    struct dsm_stats_part {
        unsigned char bytes[sizeof(dsm_stats_pattern)];
        size_t n;
    } *pat_part;
    counters *ctr_off;          /* the counters while switched off (benchmarks) */
} dsm_stats;

/* dsm_init: counters on unless DSM_COUNTERS=off; node 0 opens DSM_STATS.
 * 0, or -1 after a message. */
int dsm_stats_init(dsm_rt *rt);
/* Switch the counters off and on again at run time, keeping what they hold
 * (for benchmarks that compare both in one process).  Call only while the
 * node is quiet, e.g. between two barriers. */
void dsm_stats_enable(dsm_rt *rt, int on);
/* dsm_finalize, before the finalize collective: gather at node 0 and write
 * the file (only when DSM_STATS is set). */
void dsm_stats_finalize(dsm_rt *rt);
/* RT_STATS_* messages (node 0). */
void dsm_stats_handle(dsm_rt *rt, const dsm_msg_hdr *h, const void *payload);

/* A per-node metric counted outside eng_lock. */
static inline void dsm_stats_node_add(dsm_stats *s, int metric, uint64_t v)
{
    atomic_fetch_add_explicit(&s->scalar[metric - CM_NBLOCK_METRICS], v, memory_order_relaxed);
}

/* Around every engine call (eng_lock held, counters on): attribute the
 * engine's self messages and the invalidations it performs to `block`.
 * t0: when the handling started (for invROWall / invRWWall). */
void dsm_stats_call_begin(dsm_rt *rt, uint32_t block);
void dsm_stats_call_end(dsm_rt *rt, uint64_t t0);

#endif
