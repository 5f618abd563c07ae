/* quickstep.c - the Alewife CMMU's statistics counters and histogram
 * registers (quickstep.h has the mask layout).  A register is its hardware
 * part (32 bits for a counter, 20 for a histogram register) and the
 * software overflow word the trap handler increments, as QuickStep extends
 * them to 64 bits (section 3.3.1).  Timesliced collection keeps one set of
 * registers per slice: at each boundary the kernel reads the registers and
 * clears them, so slice k holds exactly the events of [k*slice, (k+1)*slice).
 * Pure: no I/O. */
#include "quickstep.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *const class_names[QS_NCLASSES] = {
    "RREQ", "WREQ", "MREQ", "RDATA", "WDATA", "MACK",
    "INVR", "INVW", "ACKC", "UPDATE", "REPL", "PACK", "MSG",
};

const char *qs_packet_class_name(int cls)
{
    return cls >= 0 && cls < QS_NCLASSES ? class_names[cls] : NULL;
}

int qs_packet_class_by_name(const char *name)
{
    for (int i = 0; name && i < QS_NCLASSES; i++)
        if (!strcasecmp(name, class_names[i]))
            return i;
    return -1;
}

typedef struct qs_regs {
    uint32_t c_hw[QS_NCOUNTERS], c_sw[QS_NCOUNTERS];
    uint32_t h_hw[QS_NHIST], h_sw[QS_NHIST];
} qs_regs;

typedef struct qs_node {
    qs_regs *slices;
    int nslices;
    uint64_t traps;
} qs_node;

struct qs_monitor {
    int nnodes;
    uint32_t cmask[QS_NCOUNTERS];
    int con[QS_NCOUNTERS];
    uint32_t hmask;
    int hon;
    uint64_t slice;
    int max_slices;  /* over all nodes */
    uint64_t dropped;
    qs_node *node;
};

qs_monitor *qs_create(int nnodes)
{
    if (nnodes < 1)
        return NULL;
    qs_monitor *q = calloc(1, sizeof *q);
    if (!q)
        return NULL;
    q->node = calloc((size_t)nnodes, sizeof *q->node);
    if (!q->node) {
        free(q);
        return NULL;
    }
    q->nnodes = nnodes;
    return q;
}

void qs_destroy(qs_monitor *q)
{
    if (!q)
        return;
    for (int n = 0; n < q->nnodes; n++)
        free(q->node[n].slices);
    free(q->node);
    free(q);
}

void qs_set_counter(qs_monitor *q, int i, uint32_t mask, int on)
{
    if (i < 0 || i >= QS_NCOUNTERS)
        return;
    q->cmask[i] = mask;
    q->con[i] = !!on;
}

void qs_set_histogram(qs_monitor *q, uint32_t mask, int on)
{
    q->hmask = mask;
    q->hon = !!on;
}

void qs_set_slice(qs_monitor *q, uint64_t slice) { q->slice = slice; }

int qs_mask_major(uint32_t mask) { return (int)(mask >> 28); }

/* The registers of node's slice holding time t, grown on demand. */
static qs_regs *regs_at(qs_monitor *q, int node, sim_time t)
{
    if (node < 0 || node >= q->nnodes)
        return NULL;
    uint64_t k = q->slice ? t / q->slice : 0;
    qs_node *nd = &q->node[node];
    if (k >= (uint64_t)nd->nslices) {
        if (k >= (1u << 24)) { /* a runaway slice count: drop, counted */
            q->dropped++;
            return NULL;
        }
        int want = (int)k + 1, cap = nd->nslices ? nd->nslices : 4;
        while (cap < want)
            cap *= 2;
        qs_regs *s = realloc(nd->slices, (size_t)cap * sizeof *s);
        if (!s) {
            q->dropped++;
            return NULL;
        }
        memset(s + nd->nslices, 0, (size_t)(cap - nd->nslices) * sizeof *s);
        nd->slices = s;
        nd->nslices = cap;
    }
    if ((int)k + 1 > q->max_slices)
        q->max_slices = (int)k + 1;
    return &nd->slices[k];
}

static void bump_counter(qs_monitor *q, int node, qs_regs *r, int i, uint64_t by)
{
    while (by) {
        uint32_t room = UINT32_MAX - r->c_hw[i];
        if (by <= room) {
            r->c_hw[i] += (uint32_t)by;
            return;
        }
        by -= (uint64_t)room + 1; /* the wrap to 0 takes room + 1 */
        r->c_hw[i] = 0;
        r->c_sw[i]++;
        q->node[node].traps++;
    }
}

static void bump_hist(qs_monitor *q, int node, qs_regs *r, int bin)
{
    if (++r->h_hw[bin] == (1u << QS_HIST_BITS)) {
        r->h_hw[bin] = 0;
        r->h_sw[bin]++;
        q->node[node].traps++;
    }
}

/* Every field of the minor function must share a bit with the event's. */
static int fields_match(uint32_t mask, uint32_t ev, const uint32_t *fields, int nfields)
{
    for (int i = 0; i < nfields; i++)
        if (!(mask & ev & fields[i]))
            return 0;
    return 1;
}

static const uint32_t cache_fields[] = {0x3Fu, 0x1C0u, 0xE00u, 0xF000u, 0x3E0000u};
static const uint32_t txn_fields[] = {0x3u, 0x60000u};

void qs_access(qs_monitor *q, int node, sim_time t, int is_write, int outcome, int locality)
{
    int loc_bit = locality == QS_LOCAL_LOCAL ? 9 : locality == QS_REMOTE_GLOBAL ? 11 : 10;
    uint32_t ev = (1u << outcome) | (1u << 8) | (1u << loc_bit) | (1u << 12) |
                  (1u << (is_write ? 18 : 17));
    qs_regs *r = NULL;
    for (int i = 0; i < QS_NCOUNTERS; i++)
        if (q->con[i] && qs_mask_major(q->cmask[i]) == QS_MAJOR_CACHE &&
            fields_match(q->cmask[i], ev, cache_fields, 5)) {
            if (!r && !(r = regs_at(q, node, t)))
                return;
            bump_counter(q, node, r, i, 1);
        }
}

void qs_transaction(qs_monitor *q, int node, sim_time t, int is_write, int remote,
                    uint64_t latency)
{
    uint32_t ev = (1u << (remote ? QS_REMOTE_MISS : QS_LOCAL_MISS)) | (1u << (is_write ? 18 : 17));
    qs_regs *r = NULL;
    for (int i = 0; i < QS_NCOUNTERS; i++)
        if (q->con[i] && qs_mask_major(q->cmask[i]) == QS_MAJOR_TRANSACTION &&
            fields_match(q->cmask[i], ev, txn_fields, 2)) {
            if (!r && !(r = regs_at(q, node, t)))
                return;
            bump_counter(q, node, r, i, (q->cmask[i] & (1u << 24)) ? latency : 1);
        }
}

static int packet_match(uint32_t mask, int cls, int input)
{
    return qs_mask_major(mask) == QS_MAJOR_NETWORK && (mask & (1u << cls)) &&
           (mask & (1u << (input ? 17 : 16)));
}

void qs_packet(qs_monitor *q, int node, sim_time t, int cls, int hops, int input)
{
    if (cls < 0 || cls >= QS_NCLASSES)
        return;
    qs_regs *r = NULL;
    for (int i = 0; i < QS_NCOUNTERS; i++)
        if (q->con[i] && packet_match(q->cmask[i], cls, input)) {
            if (!r && !(r = regs_at(q, node, t)))
                return;
            bump_counter(q, node, r, i, 1);
        }
    if (q->hon && packet_match(q->hmask, cls, input)) {
        if (!r && !(r = regs_at(q, node, t)))
            return;
        bump_hist(q, node, r, hops < 0 ? 0 : hops >= QS_NHIST ? QS_NHIST - 1 : hops);
    }
}

void qs_checkpoint(qs_monitor *q, int node, sim_time t, unsigned id)
{
    id &= 0xFFFu;
    qs_regs *r = NULL;
    for (int i = 0; i < QS_NCOUNTERS; i++) {
        uint32_t m = q->cmask[i];
        if (!q->con[i] || qs_mask_major(m) != QS_MAJOR_CHECKPOINT)
            continue;
        int single = (m >> 12) & 1;
        if (single ? (m & 0xFFFu) != id : ((m >> 4) & 0xFFu) != (id >> 4))
            continue;
        if (!r && !(r = regs_at(q, node, t)))
            return;
        bump_counter(q, node, r, i, 1);
    }
    if (q->hon && qs_mask_major(q->hmask) == QS_MAJOR_CHECKPOINT &&
        ((q->hmask >> 4) & 0xFFu) == (id >> 4)) {
        if (!r && !(r = regs_at(q, node, t)))
            return;
        bump_hist(q, node, r, (int)(id & 0xFu));
    }
}

int qs_nnodes(const qs_monitor *q) { return q->nnodes; }
int qs_nslices(const qs_monitor *q) { return q->max_slices ? q->max_slices : 1; }
uint64_t qs_slice(const qs_monitor *q) { return q->slice; }

uint32_t qs_counter_mask(const qs_monitor *q, int i, int *on)
{
    if (i < 0 || i >= QS_NCOUNTERS) {
        *on = 0;
        return 0;
    }
    *on = q->con[i];
    return q->cmask[i];
}

uint32_t qs_histogram_mask(const qs_monitor *q, int *on)
{
    *on = q->hon;
    return q->hmask;
}

static const qs_regs *regs_read(const qs_monitor *q, int node, int slice)
{
    if (node < 0 || node >= q->nnodes || slice < 0 || slice >= q->node[node].nslices)
        return NULL;
    return &q->node[node].slices[slice];
}

uint64_t qs_counter(const qs_monitor *q, int node, int slice, int i)
{
    const qs_regs *r = regs_read(q, node, slice);
    if (!r || i < 0 || i >= QS_NCOUNTERS)
        return 0;
    return ((uint64_t)r->c_sw[i] << 32) | r->c_hw[i];
}

uint64_t qs_histogram(const qs_monitor *q, int node, int slice, int bin)
{
    const qs_regs *r = regs_read(q, node, slice);
    if (!r || bin < 0 || bin >= QS_NHIST)
        return 0;
    return ((uint64_t)r->h_sw[bin] << QS_HIST_BITS) | r->h_hw[bin];
}

uint64_t qs_overflow_traps(const qs_monitor *q, int node)
{
    return node >= 0 && node < q->nnodes ? q->node[node].traps : 0;
}

uint64_t qs_dropped(const qs_monitor *q) { return q->dropped; }
