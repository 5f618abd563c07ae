/* stats.c - the runtime side of the Figure 3 counters (stats.h): counting
 * the protocol transitions the fault and message paths cannot see from
 * outside the engine (invalidations, acks, buffered requests), gathering
 * every node's counters and every home's pattern records at node 0 in
 * dsm_finalize, and the dsm-stats/1 file (doc/metrics.md).
 *
 * Why the engine's transition hook: a home invalidates or recalls its own
 * copy, and acknowledges to itself, through messages that never leave the
 * engine (proto.h); only the table entries it applies show them, with the
 * state they were applied in (an INV in SH is deferred by a hold, not an
 * invalidation).  The hook is set only when the counters are on. */
#include "stats.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "growable.h"
#include "futex.h"
#include "node.h"

/* ---- counting inside engine calls (eng_lock held) ---- */

static void on_transition(void *arg, int side, int state, int event)
{
    dsm_rt *rt = arg;
    if (!rt->ctr)
        return; /* switched off (dsm_stats_enable) */
    dsm_stats *s = &rt->stats;
    uint32_t b = s->block;
    if (side == 0) {
        if (event == CE_INV) {
            if (state == PC_SH) {
                counters_add(rt->ctr, CM_BUF_MSGS, b, 1); /* deferred until the hold ends */
            } else {
                counters_add(rt->ctr, CM_INV_RO, b, 1);
                s->inv_ro++;
            }
        } else if (event == CE_RECALL) {
            if (state == PC_MH) {
                counters_add(rt->ctr, CM_BUF_MSGS, b, 1);
            } else {
                counters_add(rt->ctr, CM_INV_RW, b, 1);
                s->inv_rw++;
            }
        }
        return;
    }
    switch (event) {
    case DE_GETS:
    case DE_GETX:
    case DE_UPGRADE_SOLE:
    case DE_UPGRADE_OTHERS:
    case DE_UPGRADE_STALE:
        /* a request at a busy home waits in the block's FIFO */
        if (state == PD_BUSY_INV || state == PD_BUSY_RECALL)
            counters_add(rt->ctr, CM_BUF_MSGS, b, 1);
        break;
    case DE_INV_ACK_MORE:
    case DE_INV_ACK_LAST_X:
    case DE_INV_ACK_LAST_UPG:
        counters_add(rt->ctr, CM_ACKS, b, 1);
        break;
    default:
        break;
    }
}

void dsm_stats_call_begin(dsm_rt *rt, uint32_t block)
{
    dsm_stats *s = &rt->stats;
    s->block = block;
    s->self0 = proto_self_messages(rt->eng);
    s->inv_ro = s->inv_rw = 0;
}

void dsm_stats_call_end(dsm_rt *rt, uint64_t t0)
{
    dsm_stats *s = &rt->stats;
    uint64_t self = proto_self_messages(rt->eng) - s->self0;
    if (self)
        counters_add(rt->ctr, CM_SELF_MSGS, s->block, self);
    if (s->inv_ro | s->inv_rw) {
        /* one block per call: at most one invalidation of each kind, and
         * in practice never both; the time goes to the first kind */
        uint64_t wall = dsm_ticks() - t0;
        counters_add(rt->ctr, s->inv_ro ? CM_INV_RO_WALL : CM_INV_RW_WALL, s->block, wall);
        s->inv_ro = s->inv_rw = 0;
    }
}

void dsm_stats_enable(dsm_rt *rt, int on)
{
    pthread_mutex_lock(&rt->eng_lock);
    if (on && !rt->ctr && rt->stats.ctr_off) {
        rt->ctr = rt->stats.ctr_off;
        rt->stats.ctr_off = NULL;
    } else if (!on && rt->ctr) {
        rt->stats.ctr_off = rt->ctr;
        rt->ctr = NULL;
    }
    pthread_mutex_unlock(&rt->eng_lock);
}

int dsm_stats_init(dsm_rt *rt)
{
    dsm_stats *s = &rt->stats;
    pthread_mutex_init(&s->lock, NULL);
    if (rt->cfg.counters) {
        rt->ctr = counters_create(rt->region.nblocks);
        if (!rt->ctr) {
            fprintf(stderr, "dsm: node %d: dsm_init: out of memory for the counters "
                            "(DSM_COUNTERS=off runs without them)\n", rt->self);
            return -1;
        }
        proto_engine_set_trace(rt->eng, on_transition, rt);
    }
    if (dsm_prof_init(rt))
        return -1;
    if (rt->self == 0 && rt->cfg.stats_path) {
        s->out = fopen(rt->cfg.stats_path, "w");
        if (!s->out) {
            fprintf(stderr, "dsm: node 0: dsm_init: cannot open DSM_STATS=%s for writing: %s\n",
                    rt->cfg.stats_path, strerror(errno));
            return -1;
        }
    }
    return 0;
}

/* ---- the merged table ---- */

dsm_stats_table *dsm_stats_table_create(int nnodes, uint32_t nblocks, size_t block_size)
{
    dsm_stats_table *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->nnodes = nnodes;
    t->nblocks = nblocks;
    t->block_size = block_size;
    t->node = calloc((size_t)nnodes, sizeof *t->node);
    if (!t->node) {
        free(t);
        return NULL;
    }
    return t;
}

void dsm_stats_table_destroy(dsm_stats_table *t)
{
    if (!t)
        return;
    for (int n = 0; n < t->nnodes; n++)
        counters_destroy(t->node[n]);
    free(t->node);
    free(t->pat);
    free(t);
}

uint64_t dsm_stats_table_block(const dsm_stats_table *t, int metric, uint32_t block)
{
    uint64_t v = 0;
    for (int n = 0; n < t->nnodes; n++)
        if (t->node[n])
            v += counters_get(t->node[n], metric, block);
    return v;
}

uint64_t dsm_stats_table_total(const dsm_stats_table *t, int metric)
{
    uint64_t v = 0;
    for (int n = 0; n < t->nnodes; n++)
        if (t->node[n])
            v += counters_total(t->node[n], metric);
    return v;
}

static int table_add_pattern(dsm_stats_table *t, const dsm_stats_pattern *p)
{
    if (GROWABLE_RESERVE(t->pat, t->pat_cap, t->npat + 1))
        return -1;
    t->pat[t->npat++] = *p;
    return 0;
}

static int cmp_pattern(const void *a, const void *b)
{
    uint32_t x = ((const dsm_stats_pattern *)a)->block, y = ((const dsm_stats_pattern *)b)->block;
    return (x > y) - (x < y);
}

/* Is any node's chunk holding block in use? */
static int any_chunk_used(const dsm_stats_table *t, uint32_t block)
{
    for (int n = 0; n < t->nnodes; n++)
        if (t->node[n] && counters_chunk_used(t->node[n], block))
            return 1;
    return 0;
}

int dsm_stats_table_write(dsm_stats_table *t, FILE *f)
{
    qsort(t->pat, t->npat, sizeof *t->pat, cmp_pattern);
    uint64_t dropped = 0;
    for (int n = 0; n < t->nnodes; n++)
        if (t->node[n])
            dropped += t->node[n]->dropped;
    fprintf(f, "# dsm-stats/1 nodes=%d block_size=%zu\n", t->nnodes, t->block_size);
    fprintf(f, "# counters=%s patterns=%s dropped_updates=%llu\n", t->counters_on ? "on" : "off",
            t->patterns_on ? "on" : "off", (unsigned long long)dropped);
    fprintf(f, "# tab-separated; times in ns; metric definitions in doc/metrics.md\n"
               "# total METRIC VALUE | node N METRIC VALUE | block B METRIC VALUE (sum over "
               "nodes, non-zero) |\n"
               "# nodeblock N B METRIC VALUE (non-zero) | pattern B SHARING key=value...\n");
    for (int m = 0; m < CM_NMETRICS; m++)
        fprintf(f, "total\t%s\t%llu\n", counters_metric_name(m),
                (unsigned long long)dsm_stats_table_total(t, m));
    for (int n = 0; n < t->nnodes; n++)
        for (int m = 0; m < CM_NMETRICS; m++)
            fprintf(f, "node\t%d\t%s\t%llu\n", n, counters_metric_name(m),
                    (unsigned long long)(t->node[n] ? counters_total(t->node[n], m) : 0));
    for (uint32_t b = 0; b < t->nblocks; b++) {
        if (!any_chunk_used(t, b)) {
            b |= COUNTERS_CHUNK - 1; /* skip the untouched chunk */
            continue;
        }
        for (int m = 0; m < CM_NBLOCK_METRICS; m++) {
            uint64_t v = dsm_stats_table_block(t, m, b);
            if (v)
                fprintf(f, "block\t%u\t%s\t%llu\n", b, counters_metric_name(m),
                        (unsigned long long)v);
        }
    }
    for (int n = 0; n < t->nnodes; n++) {
        const counters *c = t->node[n];
        if (!c)
            continue;
        for (uint32_t b = 0; b < t->nblocks; b++) {
            if (!counters_chunk_used(c, b)) {
                b |= COUNTERS_CHUNK - 1;
                continue;
            }
            for (int m = 0; m < CM_NBLOCK_METRICS; m++) {
                uint64_t v = counters_get(c, m, b);
                if (v)
                    fprintf(f, "nodeblock\t%d\t%u\t%s\t%llu\n", n, b, counters_metric_name(m),
                            (unsigned long long)v);
            }
        }
    }
    for (size_t i = 0; i < t->npat; i++) {
        const dsm_stats_pattern *p = &t->pat[i];
        fprintf(f,
                "pattern\t%u\t%s\tmigratory=%u\tproducer_consumer=%u\tgroup=%u\tread_only=%u\t"
                "last_owner=%d\tgroup_id=%d\thome=%d\trequests=%u\n",
                p->block, proto_pattern_name(proto_sharing_pattern(&p->p)),
                p->p.detections[PP_MIGRATORY], p->p.detections[PP_PRODUCER_CONSUMER],
                p->p.detections[PP_GROUP], p->p.detections[PP_READ_ONLY], p->p.last_owner,
                p->p.group_id, p->home, p->p.requests);
    }
    return ferror(f) ? -1 : 0;
}

/* ---- gathering at dsm_finalize ---- */

/* A counter record on the wire; block UINT32_MAX: a per-node metric. */
typedef struct stats_rec {
    uint32_t block;
    uint32_t metric;
    uint64_t value;
} stats_rec;

#define NODE_REC UINT32_MAX

/* This node's counters, frozen: everything counted so far. */
static counters *snapshot(dsm_rt *rt)
{
    counters *snap = counters_create(rt->region.nblocks);
    if (!snap)
        dsm_fatal("dsm_finalize", "out of memory gathering the statistics");
    if (!rt->ctr)
        return snap;
    pthread_mutex_lock(&rt->eng_lock);
    int rc = counters_merge(snap, rt->ctr);
    pthread_mutex_unlock(&rt->eng_lock);
    /* the per-block wall times were taken in ticks (dsm_ticks) */
    double f = dsm_ticks_ns_factor();
    for (int m = 0; m < CM_NBLOCK_METRICS; m++)
        if (counters_metric_is_time(m))
            counters_scale(snap, m, f);
    /* metrics the hot paths leave to this point (node.c): every miss is a
     * page fault and coherence time; every protocol message received ran a
     * handler; a protocol message is a header plus, with data, a block */
    static const int miss[] = { CM_STACHE_READ_MISSES, CM_HOME_READ_MISSES, CM_STACHE_WRITE_RO,
                                CM_HOME_WRITE_RO,      CM_STACHE_WRITE_INV, CM_HOME_WRITE_INV };
    for (size_t i = 0; i < sizeof miss / sizeof miss[0]; i++)
        if (counters_add_metric(snap, CM_PAGE_FAULTS, miss[i], 1) ||
            counters_add_metric(snap, CM_PAGE_FAULT_WALL, miss[i] + 1, 1) ||
            counters_add_metric(snap, CM_MEMORY_BLOCK_TIME, miss[i] + 1, 1))
            rc = -1;
    if (counters_add_metric(snap, CM_ACTIVE_MESSAGES, CM_RECV_MSGS, 1) ||
        counters_add_metric(snap, CM_MSG_BYTES, CM_SENT_MSGS, sizeof(dsm_msg_hdr)) ||
        counters_add_metric(snap, CM_MSG_BYTES, CM_BULK_DATA_TRANSFERS, rt->region.block_size))
        rc = -1;
    if (rc)
        dsm_fatal("dsm_finalize", "out of memory gathering the statistics");
    for (int k = 0; k < CM_NNODE_METRICS; k++)
        snap->scalar[k] += atomic_load_explicit(&rt->stats.scalar[k], memory_order_relaxed);
    if (rt->tp)
        snap->scalar[CM_TRANSPORT_BUF_MSGS - CM_NBLOCK_METRICS] +=
            atomic_load_explicit(&rt->tp->buffered, memory_order_relaxed);
    proto_adapt_counts adapted;
    pthread_mutex_lock(&rt->eng_lock);
    proto_adapt_counts_of(rt->eng, &adapted);
    pthread_mutex_unlock(&rt->eng_lock);
    snap->scalar[CM_ADAPT_EXCLUSIVE_READS - CM_NBLOCK_METRICS] += adapted.exclusive_reads;
    snap->scalar[CM_ADAPT_FALLBACKS - CM_NBLOCK_METRICS] += adapted.fallbacks;
    snap->scalar[CM_ADAPT_DOWNGRADES - CM_NBLOCK_METRICS] += adapted.downgrades;
    snap->scalar[CM_ADAPT_PUSHES - CM_NBLOCK_METRICS] += adapted.pushes;
    snap->scalar[CM_ADAPT_PUSHED - CM_NBLOCK_METRICS] += adapted.pushed;
    snap->scalar[CM_ADAPT_FLUSHES - CM_NBLOCK_METRICS] += adapted.flushes;
    snap->scalar[CM_ADAPT_BULK_FETCHES - CM_NBLOCK_METRICS] += adapted.bulk_fetches;
    snap->scalar[CM_ADAPT_BULK_COPIES - CM_NBLOCK_METRICS] += adapted.bulk_copies;
    return snap;
}

/* The pattern records of the blocks this node is home of that saw requests. */
static dsm_stats_pattern *home_patterns(dsm_rt *rt, size_t *count)
{
    dsm_stats_table tmp = { 0 };
    pthread_mutex_lock(&rt->eng_lock);
    if (proto_augment_enabled(rt->eng)) {
        for (uint32_t b = 0; b < rt->region.nblocks; b++) {
            if (proto_home(rt->eng, b) != rt->self)
                continue;
            dsm_stats_pattern p;
            memset(&p, 0, sizeof p);
            p.block = b;
            p.home = rt->self;
            if (proto_patterns_of(rt->eng, b, &p.p) == 0 && p.p.requests > 0 &&
                table_add_pattern(&tmp, &p))
                dsm_fatal("dsm_finalize", "out of memory gathering the pattern records");
        }
    }
    pthread_mutex_unlock(&rt->eng_lock);
    *count = tmp.npat;
    return tmp.pat;
}

static void ship(dsm_rt *rt, int type, const void *buf, size_t len, uint64_t *nmsgs)
{
    dsm_msg_hdr h = { 0 };
    h.type = (uint16_t)type;
    dsm_rt_send_data(rt, 0, &h, buf, (uint32_t)len);
    ++*nmsgs;
}

static void ship_all(dsm_rt *rt, const counters *snap, const dsm_stats_pattern *pat, size_t npat)
{
    size_t cap = rt->region.block_size / sizeof(stats_rec);
    stats_rec *buf = malloc(rt->region.block_size);
    if (!buf)
        dsm_fatal("dsm_finalize", "out of memory shipping the statistics");
    size_t n = 0;
    uint64_t nmsgs = 0;
    for (uint32_t b = 0; b < snap->nblocks; b++) {
        if (!counters_chunk_used(snap, b)) {
            b |= COUNTERS_CHUNK - 1;
            continue;
        }
        for (int m = 0; m < CM_NBLOCK_METRICS; m++) {
            uint64_t v = counters_get(snap, m, b);
            if (!v)
                continue;
            buf[n++] = (stats_rec){ b, (uint32_t)m, v };
            if (n == cap)
                ship(rt, RT_STATS_CTR, buf, n * sizeof *buf, &nmsgs), n = 0;
        }
    }
    for (int m = CM_NBLOCK_METRICS; m < CM_NMETRICS; m++) {
        buf[n++] = (stats_rec){ NODE_REC, (uint32_t)m, counters_total(snap, m) };
        if (n == cap)
            ship(rt, RT_STATS_CTR, buf, n * sizeof *buf, &nmsgs), n = 0;
    }
    if (n)
        ship(rt, RT_STATS_CTR, buf, n * sizeof *buf, &nmsgs);
    /* the records as one stream of bytes, a message's payload (the block
     * size) at a time: from 32-byte blocks on a record is larger than a
     * payload (node 0 joins the pieces, dsm_stats_handle) */
    size_t plen = npat * sizeof *pat;
    for (size_t i = 0; i < plen; i += rt->region.block_size) {
        size_t k = plen - i < rt->region.block_size ? plen - i : rt->region.block_size;
        ship(rt, RT_STATS_PAT, (const unsigned char *)pat + i, k, &nmsgs);
    }
    free(buf);
    if (rt->prof) {
        size_t plen;
        unsigned char *pd = dsm_prof_serialize(rt, &plen);
        for (size_t i = 0; i < plen; i += rt->region.block_size) {
            size_t k = plen - i < rt->region.block_size ? plen - i : rt->region.block_size;
            ship(rt, RT_PROF_DATA, pd + i, k, &nmsgs);
        }
        free(pd);
    }
    dsm_msg_hdr h = { 0 };
    h.type = RT_STATS_END;
    h.arg[0] = nmsgs;
    dsm_rt_send(rt, 0, &h);
}

void dsm_stats_handle(dsm_rt *rt, const dsm_msg_hdr *h, const void *payload)
{
    dsm_stats *s = &rt->stats;
    if (rt->self != 0 || h->src == 0)
        dsm_fatal("transport", "statistics message from node %d at node %d", h->src, rt->self);
    pthread_mutex_lock(&s->lock);
    dsm_stats_table *t = s->table;
    if (!t)
        dsm_fatal("dsm_finalize", "statistics from node %d, but neither DSM_STATS nor the "
                                  "profile is on at node 0 (set DSM_STATS and DSM_PROFILE the "
                                  "same way on every node)", h->src);
    switch (h->type) {
    case RT_STATS_CTR: {
        if (h->len % sizeof(stats_rec))
            dsm_fatal("transport", "statistics message of %u bytes from node %d", h->len, h->src);
        if (!t->node[h->src] && !(t->node[h->src] = counters_create(t->nblocks)))
            dsm_fatal("dsm_finalize", "out of memory gathering the statistics");
        counters *c = t->node[h->src];
        const stats_rec *r = payload;
        for (size_t i = 0; i < h->len / sizeof *r; i++) {
            stats_rec x;
            memcpy(&x, &r[i], sizeof x);
            int bad = x.block == NODE_REC ? counters_add_node(c, (int)x.metric, x.value)
                                          : counters_add(c, (int)x.metric, x.block, x.value);
            if (bad)
                dsm_fatal("transport", "bad statistics record (block %u, metric %u) from node %d",
                          x.block, x.metric, h->src);
        }
        break;
    }
    case RT_STATS_PAT: {
        /* a stream of records in FIFO order; a record may span messages */
        struct dsm_stats_part *part = &s->pat_part[h->src];
        const unsigned char *in = payload;
        for (size_t left = h->len; left > 0;) {
            size_t k = sizeof part->bytes - part->n;
            if (k > left)
                k = left;
            memcpy(part->bytes + part->n, in, k);
            part->n += k, in += k, left -= k;
            if (part->n < sizeof part->bytes)
                break;
            dsm_stats_pattern p;
            memcpy(&p, part->bytes, sizeof p);
            part->n = 0;
            if (table_add_pattern(t, &p))
                dsm_fatal("dsm_finalize", "out of memory gathering the pattern records");
        }
        break;
    }
    case RT_PROF_DATA:
        dsm_prof_receive(rt, h->src, payload, h->len);
        break;
    case RT_STATS_END:
        /* FIFO per pair: everything the node sent came before */
        if (s->msgs_from[h->src] != h->arg[0])
            dsm_fatal("transport", "node %d sent %llu statistics messages, %llu arrived", h->src,
                      (unsigned long long)h->arg[0], (unsigned long long)s->msgs_from[h->src]);
        if (s->pat_part[h->src].n)
            dsm_fatal("transport", "node %d's pattern records end inside a record (%zu bytes "
                      "of %zu)", h->src, s->pat_part[h->src].n, sizeof(dsm_stats_pattern));
        s->ends++;
        pthread_mutex_unlock(&s->lock);
        dsm_rt_signal(rt);
        return;
    }
    s->msgs_from[h->src]++;
    pthread_mutex_unlock(&s->lock);
}

static int all_in(dsm_rt *rt, void *arg)
{
    (void)arg;
    pthread_mutex_lock(&rt->stats.lock);
    int done = rt->stats.ends == rt->nnodes - 1;
    pthread_mutex_unlock(&rt->stats.lock);
    return done;
}

/* Deadlock-free by construction: the gather is a collective of its own
 * (every node stopped using shared memory, so no coherence traffic is still
 * awaited), then the nodes send their data, which never blocks, and only
 * node 0 waits, serving messages, before anyone enters the finalize
 * collective, which cannot complete without node 0. */
void dsm_stats_finalize(dsm_rt *rt)
{
    dsm_stats *s = &rt->stats;
    if (!rt->cfg.stats_path && !rt->prof)
        return; /* nothing to gather: neither DSM_STATS nor the profile */
    if (rt->self == 0) {
        pthread_mutex_lock(&s->lock);
        s->table = dsm_stats_table_create(rt->nnodes, rt->region.nblocks, rt->region.block_size);
        s->msgs_from = calloc((size_t)rt->nnodes, sizeof *s->msgs_from);
        s->pat_part = calloc((size_t)rt->nnodes, sizeof *s->pat_part);
        if (!s->table || !s->msgs_from || !s->pat_part)
            dsm_fatal("dsm_finalize", "out of memory gathering the statistics");
        s->table->counters_on = rt->ctr != NULL;
        s->table->patterns_on = proto_augment_enabled(rt->eng);
        pthread_mutex_unlock(&s->lock);
    }
    dsm_collective(rt, COLL_STATS, (rt->cfg.stats_path ? 1 : 0) | (rt->prof ? 2 : 0),
                   "dsm_finalize");
    counters *snap = snapshot(rt);
    size_t npat;
    dsm_stats_pattern *pat = home_patterns(rt, &npat);
    if (rt->self != 0) {
        ship_all(rt, snap, pat, npat);
        counters_destroy(snap);
        free(pat);
        return;
    }
    pthread_mutex_lock(&s->lock);
    s->table->node[0] = snap;
    for (size_t i = 0; i < npat; i++)
        if (table_add_pattern(s->table, &pat[i]))
            dsm_fatal("dsm_finalize", "out of memory gathering the pattern records");
    if (rt->prof) {
        size_t plen;
        void *pd = dsm_prof_serialize(rt, &plen);
        dsm_prof_receive(rt, 0, pd, plen);
        free(pd);
    }
    pthread_mutex_unlock(&s->lock);
    free(pat);
    dsm_rt_wait(rt, all_in, NULL);
    pthread_mutex_lock(&s->lock);
    if (s->out) {
        int bad = dsm_stats_table_write(s->table, s->out);
        if (fclose(s->out))
            bad = 1;
        s->out = NULL;
        if (bad)
            fprintf(stderr, "dsm: node 0: dsm_finalize: writing DSM_STATS=%s failed: %s\n",
                    rt->cfg.stats_path, strerror(errno));
    }
    pthread_mutex_unlock(&s->lock);
    if (rt->prof)
        dsm_prof_finish(rt, s->table);
}
