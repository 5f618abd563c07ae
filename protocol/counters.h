/* counters.h - vectorized per-block counters (Xu/Larus/Miller, section 3.2
 * Figure 3 for the metrics, 3.2.2 for the vectorization).
 *
 * One array per metric indexed by block number, so that an update costs the
 * same whatever the number of monitored blocks: two shifts, a load and an
 * add, instead of a search for the block's counter.  The arrays are split in
 * chunks of COUNTERS_CHUNK blocks allocated on the first update that needs
 * them, so memory follows the part of the region in use, not its size.
 *
 * Pure storage: no clocks (times are passed in by the caller, in ns), no
 * locking (the caller serialises the updates of one counters object), no
 * I/O.  The runtime keeps one object per node; dsm/stats.c merges them.
 *
 * Invariant: for every per-block metric the per-node total equals the sum
 * over blocks (updates that cannot be stored, out of range or out of memory,
 * change neither and are counted in `dropped`). */
#ifndef DSM_COUNTERS_H
#define DSM_COUNTERS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Metric ids.  The names (counters_metric_name) are the paper's; *Wall
 * metrics are nanoseconds.  doc/metrics.md says what each one counts here. */
typedef enum counters_metric {
    /* ---- per block ---- */
    CM_STACHE_READ_MISSES,
    CM_STACHE_READ_MISS_WALL,
    CM_HOME_READ_MISSES,
    CM_HOME_READ_MISS_WALL,
    CM_STACHE_WRITE_RO,
    CM_STACHE_WRITE_RO_WALL,
    CM_HOME_WRITE_RO,
    CM_HOME_WRITE_RO_WALL,
    CM_STACHE_WRITE_INV,
    CM_STACHE_WRITE_INV_WALL,
    CM_HOME_WRITE_INV,
    CM_HOME_WRITE_INV_WALL,
    CM_INV_RO,
    CM_INV_RO_WALL,
    CM_INV_RW,
    CM_INV_RW_WALL,
    CM_MEMORY_BLOCK_TIME,
    CM_PAGE_FAULTS,
    CM_PAGE_FAULT_WALL,
    CM_SENT_MSGS,
    CM_RECV_MSGS,
    CM_SELF_MSGS,
    CM_ACKS,
    CM_MSG_BYTES,
    CM_BUF_MSGS,
    CM_ACTIVE_MESSAGES,
    CM_ACTIVE_MESSAGE_WALL,
    CM_BULK_DATA_TRANSFERS,
    CM_BULK_DATA_TRANSFER_WALL,
    CM_NBLOCK_METRICS,
    /* ---- per node (events without a block) ---- */
    CM_TARGET_BARRIER = CM_NBLOCK_METRICS,
    CM_TARGET_BARRIER_WALL,
    CM_LOCK_ACQUIRES,
    CM_LOCK_WAIT_WALL,
    CM_POLLS,
    CM_POLL_MSGS,
    CM_RT_SENT_MSGS,       /* runtime (non-protocol) messages: collectives, locks, frees */
    CM_RT_RECV_MSGS,
    CM_RT_SELF_MSGS,
    CM_RT_MSG_BYTES,
    CM_TRANSPORT_BUF_MSGS, /* sends the transport had to buffer (destination queue full) */
    CM_ADAPT_EXCLUSIVE_READS, /* the adaptive protocol at this home: reads granted exclusive */
    CM_ADAPT_FALLBACKS,       /* ... and reads that fell back to a shared grant */
    CM_ADAPT_DOWNGRADES,      /* ... and reads that downgraded a producer (RECALL_S) */
    CM_ADAPT_PUSHES,          /* ... producers' pushes at the end of their epochs */
    CM_ADAPT_PUSHED,          /* ... copies those pushes sent to consumers */
    CM_ADAPT_FLUSHES,         /* ... migratory blocks flushed home at an epoch's end */
    CM_ADAPT_BULK_FETCHES,    /* ... read misses of a group's blocks that brought others along */
    CM_ADAPT_BULK_COPIES,     /* ... copies of those other blocks sent (GROUP_DATA) */
    CM_NMETRICS
} counters_metric;

#define CM_NNODE_METRICS (CM_NMETRICS - CM_NBLOCK_METRICS)

/* Every miss count is followed by its wall time: the runtime adds the time
 * of a miss of kind k to metric k + 1. */
_Static_assert(CM_STACHE_READ_MISS_WALL == CM_STACHE_READ_MISSES + 1 &&
               CM_HOME_READ_MISS_WALL == CM_HOME_READ_MISSES + 1 &&
               CM_STACHE_WRITE_RO_WALL == CM_STACHE_WRITE_RO + 1 &&
               CM_HOME_WRITE_RO_WALL == CM_HOME_WRITE_RO + 1 &&
               CM_STACHE_WRITE_INV_WALL == CM_STACHE_WRITE_INV + 1 &&
               CM_HOME_WRITE_INV_WALL == CM_HOME_WRITE_INV + 1,
               "a miss count is followed by its wall time");

/* Blocks per lazily allocated chunk (a power of two). */
#define COUNTERS_CHUNK_SHIFT 12
#define COUNTERS_CHUNK ((uint32_t)1 << COUNTERS_CHUNK_SHIFT)

typedef struct counters {
    uint32_t nblocks;
    uint32_t nchunks;
    /* chunk[m * nchunks + ci]: metric m's values for blocks ci*CHUNK ..,
     * NULL until first updated. */
    uint64_t **chunk;
    uint64_t total[CM_NBLOCK_METRICS];  /* per-node totals of the per-block metrics */
    uint64_t scalar[CM_NNODE_METRICS];  /* per-node metrics */
    uint64_t dropped;                   /* updates that could not be stored */
    size_t chunks_allocated;
} counters;

/* NULL when out of memory (or nblocks == 0). */
counters *counters_create(uint32_t nblocks);
void counters_destroy(counters *c);
void counters_reset(counters *c);

/* Slow path of counters_add: allocates the chunk; NULL when out of memory. */
uint64_t *counters_chunk_alloc(counters *c, int metric, uint32_t block);

/* Add v to a per-block metric of a block: 0, or -1 (block out of range, not
 * a per-block metric, out of memory: nothing changes but `dropped`). */
static inline int counters_add(counters *c, int metric, uint32_t block, uint64_t v)
{
    if (block >= c->nblocks || (unsigned)metric >= CM_NBLOCK_METRICS) {
        c->dropped++;
        return -1;
    }
    uint64_t *ch = c->chunk[(size_t)metric * c->nchunks + (block >> COUNTERS_CHUNK_SHIFT)];
    if (!ch && !(ch = counters_chunk_alloc(c, metric, block)))
        return -1;
    ch[block & (COUNTERS_CHUNK - 1)] += v;
    c->total[metric] += v;
    return 0;
}

/* Add v to a per-node metric: 0, or -1 if it is not one. */
int counters_add_node(counters *c, int metric, uint64_t v);

/* A per-block metric of one block (0 when never updated or out of range). */
uint64_t counters_get(const counters *c, int metric, uint32_t block);
/* Per-node value: the running total of a per-block metric, or the scalar. */
uint64_t counters_total(const counters *c, int metric);
/* Sum over blocks of a per-block metric, computed from the arrays (what the
 * invariant compares counters_total with). */
uint64_t counters_sum_blocks(const counters *c, int metric);
/* Has any metric been updated in the chunk holding block?  (Lets a reader
 * skip untouched parts of the region.) */
int counters_chunk_used(const counters *c, uint32_t block);
/* Add every value of src into dst (same nblocks): 0, or -1 out of memory. */
int counters_merge(counters *dst, const counters *src);
/* Multiply every block's value of a per-block metric (e.g. clock ticks to
 * nanoseconds), rounding each, and make the total their sum again. */
void counters_scale(counters *c, int metric, double factor);
/* dst[b] += k * src[b] for every block (metrics derived from others when the
 * counters are gathered, which spares the hot paths their updates). */
int counters_add_metric(counters *c, int dst, int src, uint64_t k);

/* Paper name of a metric ("stacheReadMisses", ...), NULL when out of range. */
const char *counters_metric_name(int metric);
/* Is the metric a wall time (ns)? */
int counters_metric_is_time(int metric);

#ifdef __cplusplus
}
#endif
#endif
