/* counters.c - storage of the vectorized per-block counters (counters.h):
 * lazily allocated chunks per metric, per-node totals and scalars, merging,
 * and the metric names used by the stats file and doc/metrics.md. */
#include "counters.h"

#include <stdlib.h>
#include <string.h>

static const char *const metric_names[CM_NMETRICS] = {
    [CM_STACHE_READ_MISSES] = "stacheReadMisses",
    [CM_STACHE_READ_MISS_WALL] = "stacheReadMissWall",
    [CM_HOME_READ_MISSES] = "homeReadMisses",
    [CM_HOME_READ_MISS_WALL] = "homeReadMissWall",
    [CM_STACHE_WRITE_RO] = "stacheWriteRO",
    [CM_STACHE_WRITE_RO_WALL] = "stacheWriteROWall",
    [CM_HOME_WRITE_RO] = "homeWriteRO",
    [CM_HOME_WRITE_RO_WALL] = "homeWriteROWall",
    [CM_STACHE_WRITE_INV] = "stacheWriteInv",
    [CM_STACHE_WRITE_INV_WALL] = "stacheWriteInvWall",
    [CM_HOME_WRITE_INV] = "homeWriteInv",
    [CM_HOME_WRITE_INV_WALL] = "homeWriteInvWall",
    [CM_INV_RO] = "invRO",
    [CM_INV_RO_WALL] = "invROWall",
    [CM_INV_RW] = "invRW",
    [CM_INV_RW_WALL] = "invRWWall",
    [CM_MEMORY_BLOCK_TIME] = "memoryBlockTime",
    [CM_PAGE_FAULTS] = "pageFaults",
    [CM_PAGE_FAULT_WALL] = "pageFaultWall",
    [CM_SENT_MSGS] = "SentMsgs",
    [CM_RECV_MSGS] = "RecvMsgs",
    [CM_SELF_MSGS] = "SelfMsgs",
    [CM_ACKS] = "Acks",
    [CM_MSG_BYTES] = "MsgBytes",
    [CM_BUF_MSGS] = "BufMsgs",
    [CM_ACTIVE_MESSAGES] = "activeMessages",
    [CM_ACTIVE_MESSAGE_WALL] = "activeMessageWall",
    [CM_BULK_DATA_TRANSFERS] = "bulkDataTransfers",
    [CM_BULK_DATA_TRANSFER_WALL] = "bulkDataTransferWall",
    [CM_TARGET_BARRIER] = "targetBarrier",
    [CM_TARGET_BARRIER_WALL] = "targetBarrierWall",
    [CM_LOCK_ACQUIRES] = "lockAcquires",
    [CM_LOCK_WAIT_WALL] = "lockWaitWall",
    [CM_POLLS] = "Polls",
    [CM_POLL_MSGS] = "PollMsgs",
    [CM_RT_SENT_MSGS] = "rtSentMsgs",
    [CM_RT_RECV_MSGS] = "rtRecvMsgs",
    [CM_RT_SELF_MSGS] = "rtSelfMsgs",
    [CM_RT_MSG_BYTES] = "rtMsgBytes",
    [CM_TRANSPORT_BUF_MSGS] = "transportBufMsgs",
    [CM_ADAPT_EXCLUSIVE_READS] = "adaptExclusiveReads",
    [CM_ADAPT_FALLBACKS] = "adaptFallbacks",
    [CM_ADAPT_DOWNGRADES] = "adaptDowngrades",
    [CM_ADAPT_PUSHES] = "adaptPushes",
    [CM_ADAPT_PUSHED] = "adaptPushedCopies",
    [CM_ADAPT_FLUSHES] = "adaptFlushes",
    [CM_ADAPT_BULK_FETCHES] = "adaptBulkFetches",
    [CM_ADAPT_BULK_COPIES] = "adaptBulkCopies",
};

const char *counters_metric_name(int metric)
{
    return metric >= 0 && metric < CM_NMETRICS ? metric_names[metric] : NULL;
}

int counters_metric_is_time(int metric)
{
    const char *n = counters_metric_name(metric);
    if (!n)
        return 0;
    size_t len = strlen(n);
    return (len > 4 && !strcmp(n + len - 4, "Wall")) || metric == CM_MEMORY_BLOCK_TIME;
}

counters *counters_create(uint32_t nblocks)
{
    if (nblocks == 0)
        return NULL;
    counters *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->nblocks = nblocks;
    c->nchunks = (uint32_t)(((uint64_t)nblocks + COUNTERS_CHUNK - 1) >> COUNTERS_CHUNK_SHIFT);
    c->chunk = calloc((size_t)CM_NBLOCK_METRICS * c->nchunks, sizeof *c->chunk);
    if (!c->chunk) {
        free(c);
        return NULL;
    }
    return c;
}

void counters_destroy(counters *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < (size_t)CM_NBLOCK_METRICS * c->nchunks; i++)
        free(c->chunk[i]);
    free(c->chunk);
    free(c);
}

void counters_reset(counters *c)
{
    for (size_t i = 0; i < (size_t)CM_NBLOCK_METRICS * c->nchunks; i++) {
        free(c->chunk[i]);
        c->chunk[i] = NULL;
    }
    memset(c->total, 0, sizeof c->total);
    memset(c->scalar, 0, sizeof c->scalar);
    c->dropped = 0;
    c->chunks_allocated = 0;
}

uint64_t *counters_chunk_alloc(counters *c, int metric, uint32_t block)
{
    size_t i = (size_t)metric * c->nchunks + (block >> COUNTERS_CHUNK_SHIFT);
    if (!c->chunk[i]) {
        c->chunk[i] = calloc(COUNTERS_CHUNK, sizeof(uint64_t));
        if (!c->chunk[i]) {
            c->dropped++;
            return NULL;
        }
        c->chunks_allocated++;
    }
    return c->chunk[i];
}

int counters_add_node(counters *c, int metric, uint64_t v)
{
    if (metric < CM_NBLOCK_METRICS || metric >= CM_NMETRICS) {
        c->dropped++;
        return -1;
    }
    c->scalar[metric - CM_NBLOCK_METRICS] += v;
    return 0;
}

uint64_t counters_get(const counters *c, int metric, uint32_t block)
{
    if (block >= c->nblocks || metric < 0 || metric >= CM_NBLOCK_METRICS)
        return 0;
    const uint64_t *ch = c->chunk[(size_t)metric * c->nchunks + (block >> COUNTERS_CHUNK_SHIFT)];
    return ch ? ch[block & (COUNTERS_CHUNK - 1)] : 0;
}

uint64_t counters_total(const counters *c, int metric)
{
    if (metric >= 0 && metric < CM_NBLOCK_METRICS)
        return c->total[metric];
    if (metric >= CM_NBLOCK_METRICS && metric < CM_NMETRICS)
        return c->scalar[metric - CM_NBLOCK_METRICS];
    return 0;
}

uint64_t counters_sum_blocks(const counters *c, int metric)
{
    if (metric < 0 || metric >= CM_NBLOCK_METRICS)
        return 0;
    uint64_t sum = 0;
    for (uint32_t ci = 0; ci < c->nchunks; ci++) {
        const uint64_t *ch = c->chunk[(size_t)metric * c->nchunks + ci];
        if (ch)
            for (uint32_t k = 0; k < COUNTERS_CHUNK; k++)
                sum += ch[k];
    }
    return sum;
}

int counters_chunk_used(const counters *c, uint32_t block)
{
    if (block >= c->nblocks)
        return 0;
    uint32_t ci = block >> COUNTERS_CHUNK_SHIFT;
    for (int m = 0; m < CM_NBLOCK_METRICS; m++)
        if (c->chunk[(size_t)m * c->nchunks + ci])
            return 1;
    return 0;
}

void counters_scale(counters *c, int metric, double factor)
{
    if (metric < 0 || metric >= CM_NBLOCK_METRICS)
        return;
    uint64_t total = 0;
    for (uint32_t ci = 0; ci < c->nchunks; ci++) {
        uint64_t *v = c->chunk[(size_t)metric * c->nchunks + ci];
        if (!v)
            continue;
        for (uint32_t k = 0; k < COUNTERS_CHUNK; k++) {
            v[k] = (uint64_t)((double)v[k] * factor + 0.5);
            total += v[k];
        }
    }
    c->total[metric] = total; /* still exactly the sum over blocks */
}

int counters_add_metric(counters *c, int dst, int src, uint64_t k)
{
    if (dst < 0 || dst >= CM_NBLOCK_METRICS || src < 0 || src >= CM_NBLOCK_METRICS)
        return -1;
    for (uint32_t ci = 0; ci < c->nchunks; ci++) {
        const uint64_t *v = c->chunk[(size_t)src * c->nchunks + ci];
        if (!v)
            continue;
        uint64_t *d = counters_chunk_alloc(c, dst, ci << COUNTERS_CHUNK_SHIFT);
        if (!d)
            return -1;
        for (uint32_t b = 0; b < COUNTERS_CHUNK; b++)
            d[b] += k * v[b];
    }
    c->total[dst] += k * c->total[src];
    return 0;
}

int counters_merge(counters *dst, const counters *src)
{
    if (dst->nblocks != src->nblocks)
        return -1;
    for (int m = 0; m < CM_NBLOCK_METRICS; m++)
        for (uint32_t ci = 0; ci < src->nchunks; ci++) {
            const uint64_t *s = src->chunk[(size_t)m * src->nchunks + ci];
            if (!s)
                continue;
            uint64_t *d = counters_chunk_alloc(dst, m, ci << COUNTERS_CHUNK_SHIFT);
            if (!d)
                return -1;
            for (uint32_t k = 0; k < COUNTERS_CHUNK; k++)
                d[k] += s[k];
        }
    for (int m = 0; m < CM_NBLOCK_METRICS; m++)
        dst->total[m] += src->total[m];
    for (int k = 0; k < CM_NNODE_METRICS; k++)
        dst->scalar[k] += src->scalar[k];
    dst->dropped += src->dropped;
    return 0;
}
