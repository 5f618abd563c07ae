/* origin.c - timing model of the SGI Origin 2000 (sim_timing_origin) and
 * the counters its ccNUMA profiler reads (origin.h).
 *
 * The machine (the profiler paper's section 2, "the description" below):
 * nodes of two R10000 processors sharing a Hub over the SysAD bus, with no
 * snooping between them (so two processors of one node talk through the
 * Hub, never cache to cache); the Hub holds the memory/directory unit (MD),
 * the processor interface (PI) and the network interface (NI); 128 B lines
 * and a bit-vector directory; routers with six ports, two to nodes and four
 * to other routers, in a hypercube (a "bristled" hypercube: two nodes per
 * router); above 64 processors, 32-processor hypercubes joined by a
 * metarouter (sim_origin_hops' note).  One engine node is one processor (sim.h); its Hub is
 * proc / 2 and its router Hub / 2.
 *
 * Every resource is a queue: a transfer starts when the resource is free
 * and holds it for bytes / bandwidth.  The SysAD bus is multiplexed (the
 * description): one transaction at a time, a request never inside a line
 * transfer under way (bus_command), which is what holds two streaming
 * processors of a node to about two thirds of the memory's bandwidth.  Data moves cut-through (a stage may
 * start on the first bytes but cannot finish before the stage feeding it),
 * except into a Hub from the network: the NI takes the whole message before
 * handing it to the MD or the PI (store and forward), which is what makes a
 * remote miss cost about two local ones.  Parameters (options of the same
 * name), each with its source:
 *   port_mbs=800        peak bandwidth of every Hub port and link (description)
 *   sysad_mbs=570       SysAD sustained (description)
 *   mem_mbs=620         memory sustained (description: "more than 620")
 *   link_mbs=693        link sustained for line replies (description, 4.1)
 *   packet_bytes=16     a packet is 128 bits (description, 4.1): a request
 *                       1 packet, a line reply a header and line/16 packets;
 *                       a packet holds a link for the sustained rate's share
 *                       of a line reply (128 B at link_mbs over 9 packets:
 *                       20.5 ns, not the peak's 20 ns plus a gap per message),
 *                       so that back-to-back line replies move link_mbs and a
 *                       link's utilisation is proportional to its packets,
 *                       as the paper finds (4.1: 1 to 9)
 *   router_ns=41        router pin to pin (estimate after the SPIDER router)
 *   mem_access_ns=100   DRAM and directory lookup, in parallel (estimate;
 *                       the description has separate directory DIMMs)
 *   pi_ns=20, ni_ns=20, xbar_ns=10   Hub interface and crossbar crossing
 *                       (estimates)
 *   intervention_ns=100 an owner's cache looked up by its Hub (estimate)
 *   refresh_us=16, refresh_ns=100   DRAM refresh every 15.6 us (the usual
 *                       64 ms / 4096 rows), 100 ns each (estimate)
 *   cpu_mhz=195         R10000 clock of the Origin 2000 (195 MHz parts)
 *   hub_sample_us=10000, router_sample_us=2000000   sampling periods of the
 *                       Hub and router counters in IRIX (description, 3)
 *   three_hop=1         interventions as the Origin does them (below)
 *   tlb_entries=64      R10000 TLB entries, each mapping two consecutive
 *                       pages (description, 4.2: 2 MB reach with 16 KB pages)
 *   silent_clean=1      the R10000 replaces a clean-exclusive line without a
 *                       message (the paper, 4.1: a remote reader's link
 *                       carries only requests and replies, 1:9 packets);
 *                       the engine's PUTE and PUT_ACK then cost nothing
 *   tlb_refill_ns=150   a TLB refill by IRIX's software handler (estimate);
 *                       looked up on every reference (sim_ref asks)
 *   preempt_us=0, preempt_ns=0   system activity taking each processor
 *                       away (off: no operating system runs here; the
 *                       paper's reason for threads falling behind, 4.2)
 * The memory unit counts, as the Hub does, busy from a request entering
 * its pipeline until its reply leaves, blocked while a request waits for
 * the data path, refresh, and idle the rest; utilisation is 1 - idle.
 *
 * Interventions: with three_hop=1 (default) the engines run the protocol's
 * three-hop interventions (proto_config.three_hop, engine_config below):
 * the home forwards a request at an owned line to the owner (FWD_GETS /
 * FWD_GETX, 1 packet), whose Hub answers the requester itself (FWD_DATA_S /
 * FWD_DATA_X, a line reply).  The Origin's owner also sends the home a
 * revision (the line for a read, a header for a write) in parallel; the
 * engine's requester sends it (SHWB / XFER) once it has the line, so that
 * the home, busy until then, never overtakes the reply.  Its links are
 * timed as the Origin's revision: from the owner's node, leaving with the
 * reply.  three_hop=0 runs the engine's recall through the home (RECALL,
 * WB_DATA, the home's reply: 4 messages).
 *
 * Pure like the rest of protocol/: no I/O, no threads, no clocks. */
#include "origin.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timing.h"

typedef uint64_t ps_t;

typedef struct resource {
    ps_t free;         /* next start of a transfer */
    ps_t busy;         /* busy time (ps) */
} resource;

typedef struct series {      /* samples: per object, per field, per period */
    ps_t period;
    int nobj, nfield, nsamples, cap;
    uint64_t *v;             /* [k][obj][field] */
} series;

typedef struct miss_rec {
    int active;
    uint32_t block;
    int home_node, is_write, is_upgrade;
    ps_t issue, end;       /* end: a local miss's completion, known at issue */
    uint32_t invs;
    int recall, recall_clean;
} miss_rec;

#define TAG_SLOTS 4096

enum { HF_BUSY, HF_BLOCKED, HF_BYTES, HF_BUS, HF_NIOUT, HF_N };

typedef struct origin {
    sim_params p;
    int nprocs, nnodes, nrouters, dim, meta, nlinks, node_links;
    int cube_routers;  /* routers with links: nrouters rounded up to whole cubes */
    int nmeta, mdim;   /* metarouters per plane (a hypercube of mdim dimensions) */
    /* parameters */
    uint64_t port_mbs, sysad_mbs, mem_mbs, link_mbs, packet_bytes;
    uint64_t router_ns, mem_access_ns, pi_ns, ni_ns, xbar_ns, intervention_ns;
    uint64_t refresh_us, refresh_ns, cpu_mhz, hub_sample_us, router_sample_us;
    uint64_t tlb_entries, tlb_refill_ns;
    uint64_t preempt_us, preempt_ns;  /* system activity (preempted, below) */
    double ps_per_cycle;
    ps_t pkt_ps, mem_line_ps, bus_line_ps, bus_req_ps;
    /* state */
    resource *bus, *md, *link;
    ps_t *bus_cmd_free;
    ps_t *bus_data_start;     /* per node: start of the last line transfer booked on SysAD */
    ps_t *md_union_end;
    uint64_t *md_busy, *md_blocked, *md_bytes;
    uint64_t *link_packets, *link_waited, *link_wait;
    ps_t *pend_tail;          /* per destination proc: tail of the data in flight */
    uint32_t *pend_block;
    miss_rec *cur;
    sim_origin_thread *thr;
    uint32_t *tlb;            /* per proc: tlb_entries page pairs, most recent first */
    uint32_t *tlb_used;       /* per proc: valid entries */
    ps_t *preempt_next;       /* per proc: when system activity next takes it */
    uint64_t *preempt_rng;    /* per proc: the intervals' generator */
    uint32_t last_req_block[TAG_SLOTS];
    int last_req_proc[TAG_SLOTS];
    uint32_t egrant_block[TAG_SLOTS];
    int egrant_proc[TAG_SLOTS];
    /* 3-hop interventions: the owner's reply, keyed by block */
    uint32_t fwd_block[TAG_SLOTS];
    int fwd_req[TAG_SLOTS], fwd_from[TAG_SLOTS]; /* requester (proc), owner's node */
    ps_t fwd_time[TAG_SLOTS];                    /* when the owner sent it */
    uint64_t three_hop;                          /* option three_hop (1: on) */
    uint32_t pute_block[TAG_SLOTS];              /* a silent clean eviction in flight */
    uint64_t silent_clean;                       /* option silent_clean (1: on) */
    ps_t elapsed;
    series hub, router;
} origin;

/* ---- units ---- */

/* Picoseconds stay at most 2^62 (53 days) so that every sum of costs (each
 * bounded by the options' maxima) stays below 2^64.  A time that reaches it
 * is answered with a delay of SIM_CLOCK_LIMIT cycles (cycles_between), which
 * makes the machine core end the run with its clock-limit error instead of
 * going on with times that no longer grow. */
#define PS_LIMIT (1ull << 62)
static ps_t c2ps(const origin *o, sim_time t)
{
    double ps = (double)t * o->ps_per_cycle;
    return ps < (double)PS_LIMIT ? (ps_t)ps : PS_LIMIT;
}
static sim_time ps2c(const origin *o, ps_t ps)
{
    sim_time c = (sim_time)((double)ps / o->ps_per_cycle);
    while ((double)c * o->ps_per_cycle < (double)ps)
        c++;
    return c;
}
static sim_time cycles_between(const origin *o, sim_time start, ps_t end)
{
    if (end >= PS_LIMIT)
        return SIM_CLOCK_LIMIT;
    sim_time e = ps2c(o, end);
    return e > start ? e - start : 0;
}
static ps_t bytes_ps(uint64_t bytes, uint64_t mbs) { return mbs ? bytes * 1000000u / mbs : 0; }
static ps_t max_ps(ps_t a, ps_t b) { return a > b ? a : b; }

/* ---- samples ---- */

static void series_init(series *s, ps_t period, int nobj, int nfield)
{
    s->period = period ? period : 1;
    s->nobj = nobj;
    s->nfield = nfield;
}

static uint64_t *series_at(series *s, int k)
{
    if (k >= s->cap) {
        int cap = s->cap ? s->cap : 16;
        while (cap <= k)
            cap *= 2;
        size_t per = (size_t)s->nobj * s->nfield;
        uint64_t *v = realloc(s->v, (size_t)cap * per * sizeof *v);
        if (!v)
            return NULL;
        memset(v + (size_t)s->cap * per, 0, (size_t)(cap - s->cap) * per * sizeof *v);
        s->v = v;
        s->cap = cap;
    }
    if (k >= s->nsamples)
        s->nsamples = k + 1;
    return s->v + (size_t)k * s->nobj * s->nfield;
}

/* Spread the interval [from, to) over the periods it covers. */
static void series_add_span(series *s, int obj, int field, ps_t from, ps_t to)
{
    while (from < to) {
        uint64_t k = from / s->period;
        ps_t end = (k + 1) * s->period;
        ps_t upto = to < end ? to : end;
        if (k > 1000000)
            return; /* a run this long is sampled too finely: drop the rest */
        uint64_t *row = series_at(s, (int)k);
        if (!row)
            return;
        row[obj * s->nfield + field] += upto - from;
        from = upto;
    }
}

static void series_add_count(series *s, int obj, int field, ps_t at, uint64_t n)
{
    uint64_t k = at / s->period;
    if (k > 1000000)
        return;
    uint64_t *row = series_at(s, (int)k);
    if (row)
        row[obj * s->nfield + field] += n;
}

static void seen(origin *o, ps_t t)
{
    if (t > o->elapsed)
        o->elapsed = t;
}

/* ---- topology ---- */

static int router_of_node(int node) { return node / 2; }

/* Above 64 processors (meta): router r is corner r % 8 of 32-processor
 * cube r / 8, a 3-dimensional hypercube; each corner's sixth port goes to
 * the metarouter of its plane (plane r % 8: 8 planes, one per corner), which
 * joins the same corner of every cube.  A plane is one 6-port router for up
 * to 4 cubes (128 processors, the paper's Fig. 3); for more cubes it is
 * itself a hypercube of such routers, 4 cubes on each (the paper: "the
 * metarouter internally as a hypercube", 256 and 512 processors).  A
 * message between cubes crosses its own cube to the destination's corner
 * (dimension order), then up into that corner's plane, across the plane's
 * hypercube, and down into the destination router: the cube hops, the
 * metarouter's routers, and no more. */
static int cube_of(int r) { return r / 8; }
static int corner_of(int r) { return r % 8; }
static int meta_of_cube(int c) { return c / 4; }

int sim_origin_hops(const void *model, int a, int b)
{
    const origin *o = model;
    if (a < 0 || b < 0 || a >= o->nnodes || b >= o->nnodes)
        return -1;
    int ra = router_of_node(a), rb = router_of_node(b);
    if (ra == rb)
        return 0;
    if (o->meta && cube_of(ra) != cube_of(rb))
        return __builtin_popcount((unsigned)(corner_of(ra) ^ corner_of(rb))) + 2 +
               __builtin_popcount((unsigned)(meta_of_cube(cube_of(ra)) ^
                                             meta_of_cube(cube_of(rb))));
    return __builtin_popcount((unsigned)(ra ^ rb));
}

int sim_origin_metarouters(const void *model)
{
    const origin *o = model;
    return o->meta ? 8 * o->nmeta : 0;
}

/* link ids: node n to its router 2n, router to node 2n+1; router r along
 * dimension d: node_links + r * dim + d; router r up to its plane's
 * metarouter and down from it after those; then metarouter m (plane * nmeta
 * + its index in the plane) along the plane's dimension d. */
static int link_node_out(int n) { return 2 * n; }
static int link_node_in(int n) { return 2 * n + 1; }
static int link_cube(const origin *o, int r, int d) { return o->node_links + r * o->dim + d; }
static int link_meta(const origin *o, int r, int down)
{
    return o->node_links + o->cube_routers * o->dim + 2 * r + down;
}
static int link_plane(const origin *o, int m, int d)
{
    return o->node_links + o->cube_routers * (o->dim + 2) + m * o->mdim + d;
}

/* One message's head and tail through link l, entered `lat` after the head
 * left the previous stage; the link is held for the packets' time. */
static void cross_link(origin *o, int l, ps_t lat, uint32_t packets, ps_t *head, ps_t *tail)
{
    resource *r = &o->link[l];
    ps_t want = *head + lat;
    ps_t h = max_ps(want, r->free);
    ps_t d = packets * o->pkt_ps;
    ps_t t = max_ps(h + d, *tail + lat);
    if (h > want) {
        o->link_waited[l] += packets;
        o->link_wait[l] += h - want;
    }
    r->free = t;
    r->busy += packets * o->pkt_ps;
    o->link_packets[l] += packets;
    series_add_span(&o->router, l, 0, h, h + packets * o->pkt_ps);
    if (h > want)
        series_add_count(&o->router, l, 1, want, h - want);
    *head = h;
    *tail = t;
}

/* ---- Hub resources ---- */

/* The SysAD bus of node n carries `d` ps of transfer whose head is ready
 * at head and whose last byte cannot leave before tail; returns the end. */
static ps_t bus_take(origin *o, int n, ps_t head, ps_t tail, ps_t d)
{
    resource *b = &o->bus[n];
    ps_t s = max_ps(head, b->free);
    ps_t e = max_ps(s + d, tail);
    b->free = e;
    b->busy += d;
    o->bus_data_start[n] = s;
    series_add_span(&o->hub, n, HF_BUS, s, s + d);
    seen(o, e);
    return e;
}

/* A one-packet command on the SysAD bus at t (a request, an invalidation,
 * an ack).  The bus is multiplexed (the description): its cycles carry
 * either a command or a line's data, one transaction at a time.  A command
 * takes the next free bus cycle when the line transfer booked last has not
 * started yet (that transfer slides by its length); once a transfer is
 * under way, the command waits for its last data cycle.  So the other
 * processor of the node, whose request comes while a line streams to its
 * neighbour, waits for the whole line: what keeps two streaming threads
 * apart on one node (Fig. 4). */
static ps_t bus_command(origin *o, int n, ps_t t)
{
    resource *b = &o->bus[n];
    ps_t d = o->bus_req_ps;
    ps_t s = max_ps(t, o->bus_cmd_free[n]);
    if (s >= o->bus_data_start[n] && s < b->free)
        s = b->free; /* a line is on the bus: it keeps the bus to its end */
    o->bus_cmd_free[n] = s + d;
    b->free = b->free > s ? b->free + d : s + d;
    b->busy += d;
    series_add_span(&o->hub, n, HF_BUS, s, s + d);
    seen(o, s + d);
    return s + d;
}

static void md_mark(origin *o, int n, ps_t from, ps_t to, int blocked)
{
    if (from < o->md_union_end[n])
        from = o->md_union_end[n];
    if (to <= from)
        return;
    o->md_union_end[n] = to;
    if (blocked)
        o->md_blocked[n] += to - from;
    else
        o->md_busy[n] += to - from;
    series_add_span(&o->hub, n, blocked ? HF_BLOCKED : HF_BUSY, from, to);
}

/* A request enters node n's memory unit at t.  data: it moves a line (a
 * read or a writeback); *head is when the line starts leaving, the return
 * when its last byte has. */
static ps_t md_serve(origin *o, int n, ps_t t, int data, ps_t *head)
{
    ps_t ready = t + o->mem_access_ns * 1000;
    if (!data) {
        md_mark(o, n, t, ready, 0);
        *head = ready;
        seen(o, ready);
        return ready;
    }
    resource *r = &o->md[n];
    ps_t s = max_ps(ready, r->free);
    if (o->refresh_us && o->refresh_ns) { /* a transfer does not start in a refresh */
        ps_t iv = o->refresh_us * 1000000, rf = o->refresh_ns * 1000;
        if (s % iv < rf)
            s += rf - s % iv;
    }
    ps_t e = s + o->mem_line_ps;
    r->free = e;
    r->busy += o->mem_line_ps;
    md_mark(o, n, t, ready, 0);
    md_mark(o, n, ready, s, 1);
    md_mark(o, n, s, e, 0);
    o->md_bytes[n] += o->p.line_size;
    series_add_count(&o->hub, n, HF_BYTES, s, o->p.line_size);
    *head = s;
    seen(o, e);
    return e;
}

/* ---- the profiler's per-thread records ---- */

static unsigned slot(uint32_t block) { return block % TAG_SLOTS; }

static void rec_finish(origin *o, int p, ps_t end)
{
    miss_rec *r = &o->cur[p];
    if (!r->active)
        return;
    r->active = 0;
    sim_origin_thread *t = &o->thr[p];
    int my = p / 2;
    t->misses++;
    if (r->home_node == my)
        t->local++;
    int h = sim_origin_hops(o, my, r->home_node);
    t->hops[h < SO_MAX_HOPS ? h : SO_MAX_HOPS - 1]++;
    int txn = SO_TXN_UNOWNED;
    if (r->recall)
        txn = r->recall_clean ? SO_TXN_CLEAN_EXCLUSIVE : SO_TXN_DIRTY_EXCLUSIVE;
    else if (r->invs || r->is_upgrade)
        txn = SO_TXN_INVALIDATE;
    t->txn[txn]++;
    if (r->invs) {
        uint32_t k = r->invs;
        int bin = k <= 3 ? (int)k - 1 : k < 8 ? 3 : 4;
        t->inv_by_sharers[bin]++;
    }
    if (end > r->issue)
        t->latency_ps += end - r->issue;
}

static void rec_start(origin *o, int p, const proto_msg *m, ps_t issue)
{
    rec_finish(o, p, o->cur[p].end); /* a local miss has no reply: it ended before */
    miss_rec *r = &o->cur[p];
    memset(r, 0, sizeof *r);
    r->active = 1;
    r->block = m->block;
    r->home_node = m->dst / 2;
    r->is_write = m->type != PM_GETS;
    r->is_upgrade = m->type == PM_UPGRADE;
    r->issue = issue;
}

static miss_rec *rec_for_block(origin *o, uint32_t block)
{
    unsigned s = slot(block);
    if (o->last_req_block[s] != block || o->last_req_proc[s] < 0)
        return NULL;
    miss_rec *r = &o->cur[o->last_req_proc[s]];
    return r->active && r->block == block ? r : NULL;
}

/* Messages the profiler learns the transaction from, wherever they go. */
static void observe(origin *o, const proto_msg *m)
{
    unsigned s = slot(m->block);
    miss_rec *r;
    switch (m->type) {
    case PM_INV:
        if ((r = rec_for_block(o, m->block)))
            r->invs++;
        break;
    case PM_RECALL:
    case PM_RECALL_S:
    case PM_FWD_GETS:
    case PM_FWD_GETX:
        if ((r = rec_for_block(o, m->block))) {
            r->recall = 1;
            r->recall_clean = o->egrant_block[s] == m->block && o->egrant_proc[s] == m->dst;
        }
        break;
    case PM_DATA_E:
        o->egrant_block[s] = m->block;
        o->egrant_proc[s] = m->dst;
        break;
    case PM_DATA_X:
    case PM_UPGRADE_ACK:
        if (o->egrant_block[s] == m->block)
            o->egrant_proc[s] = -1;
        break;
    default: break;
    }
}

/* ---- the TLB ---- */

/* Processor p's TLB looks up `pair` (an R10000 entry maps two consecutive
 * pages): 1 on a miss, which the TLB then holds (LRU).  The machine core
 * asks on every reference to the shared region whose page pair is none of
 * the 4 it asked last (those are the 4 most recent entries here, resident:
 * a reference to one of them would only reorder the top of the LRU stack,
 * so the order is that of the last lookups, nearly LRU). */
static int tlb_miss(origin *o, int p, uint32_t pair)
{
    if (!o->tlb_entries)
        return 0;
    uint32_t *t = o->tlb + (size_t)p * o->tlb_entries;
    uint32_t n = o->tlb_used[p], i = 0;
    while (i < n && t[i] != pair)
        i++;
    int miss = i == n;
    if (miss && n < o->tlb_entries)
        o->tlb_used[p] = ++n;
    if (i >= n)
        i = n - 1; /* the least recently used one goes */
    memmove(t + 1, t, i * sizeof *t);
    t[0] = pair;
    return miss;
}

/* ---- system activity ---- */

/* preempt_us, preempt_ns: the operating system takes each processor away
 * from the program for preempt_ns about every preempt_us (the paper, 4.2:
 * a processor of the transpose "preempted by system activity" falls behind
 * the others; IRIX's daemons, interrupts and other jobs).  Off by default:
 * no operating system runs on the simulated machine, and the length and
 * rate of its activity are not in the description.  The intervals are
 * drawn per processor, uniformly within +-50% of preempt_us, from a
 * generator seeded by the processor's number (runs repeat exactly), so the
 * processors are taken at different moments, as an OS's activity falls.
 * A preemption that falls due while the processor computes is taken at its
 * next miss (the processor's clock then jumps by preempt_ns).  One that
 * falls due while it spins on a cached flag (a barrier) is charged the
 * same, where the real machine would hide the part before the release: a
 * slight overcharge of waiting processors. */
static uint64_t splitmix(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* The next preemption after `from`: from + preempt_us x (0.5 + u), u
 * uniform in [0, 1); the first one (first) at from + preempt_us x u. */
static ps_t preempt_draw(origin *o, int p, ps_t from, int first)
{
    uint64_t period = o->preempt_us * 1000000;
    double u = (double)(splitmix(&o->preempt_rng[p]) >> 11) / 9007199254740992.0;
    double f = first ? u : 0.5 + u;
    return from + (ps_t)(f * (double)period) + 1;
}

/* Processor p misses at t: the time system activity took from it since its
 * last miss (0 without preemption). */
static ps_t preempted(origin *o, int p, ps_t t)
{
    if (!o->preempt_us || !o->preempt_ns || !o->preempt_next)
        return 0;
    ps_t lost = 0, len = o->preempt_ns * 1000;
    while (o->preempt_next[p] <= t + lost && lost < PS_LIMIT / 2) {
        lost += len;
        o->preempt_next[p] = preempt_draw(o, p, o->preempt_next[p] + len, 0);
    }
    o->thr[p].preempted_ps += lost;
    return lost;
}

static origin *ready(void *model);

/* An entry maps two pages. */
static unsigned origin_tlb_shift(const void *model)
{
    const origin *o = ready((void *)model);
    if (!o->tlb_entries || o->p.page_size < 2)
        return 0;
    return (unsigned)__builtin_ctz(o->p.page_size) + 1;
}

static sim_time origin_tlb_miss(void *model, int proc, uint64_t entry, sim_time t)
{
    origin *o = ready(model);
    (void)t;
    if (proc < 0 || proc >= o->nprocs || !tlb_miss(o, proc, (uint32_t)entry))
        return 0;
    o->thr[proc].tlb_misses++;
    return ps2c(o, o->tlb_refill_ns * 1000);
}

/* ---- sim_timing_ops ---- */

static void origin_defaults(sim_params *p)
{
    p->line_size = 128;            /* description */
    p->cache_size = 4u << 20;      /* 4 MB 2-way L2 per R10000 (the usual Origin 2000 part) */
    p->assoc = 2;
    p->page_size = 16384;          /* 16 KB pages (description, 4.2) */
    p->hit_cycles = 1;
    p->replacement_hints = 0;      /* the R10000 drops clean lines silently */
    p->excl_clean = 1;             /* MESI: a read of an unowned line is granted exclusive */
    p->placement = SIM_PLACE_FIRST_TOUCH; /* IRIX's default (description, 3) */
}

static int set_param(origin *o, const char *key, const char *value, char *err, size_t errlen)
{
    struct {
        const char *name;
        uint64_t *field;
        uint64_t min, max;
    } keys[] = {
        {"port_mbs", o ? &o->port_mbs : NULL, 1, 1000000},
        {"sysad_mbs", o ? &o->sysad_mbs : NULL, 1, 1000000},
        {"mem_mbs", o ? &o->mem_mbs : NULL, 1, 1000000},
        {"link_mbs", o ? &o->link_mbs : NULL, 1, 1000000},
        {"packet_bytes", o ? &o->packet_bytes : NULL, 1, 4096},
        {"router_ns", o ? &o->router_ns : NULL, 0, 100000},
        {"mem_access_ns", o ? &o->mem_access_ns : NULL, 0, 100000},
        {"pi_ns", o ? &o->pi_ns : NULL, 0, 100000},
        {"ni_ns", o ? &o->ni_ns : NULL, 0, 100000},
        {"xbar_ns", o ? &o->xbar_ns : NULL, 0, 100000},
        {"intervention_ns", o ? &o->intervention_ns : NULL, 0, 100000},
        {"refresh_us", o ? &o->refresh_us : NULL, 0, 1000000},
        {"refresh_ns", o ? &o->refresh_ns : NULL, 0, 100000},
        {"cpu_mhz", o ? &o->cpu_mhz : NULL, 1, 100000},
        {"hub_sample_us", o ? &o->hub_sample_us : NULL, 1, 1000000000},
        {"router_sample_us", o ? &o->router_sample_us : NULL, 1, 1000000000},
        {"three_hop", o ? &o->three_hop : NULL, 0, 1},
        {"tlb_entries", o ? &o->tlb_entries : NULL, 0, 4096},
        {"tlb_refill_ns", o ? &o->tlb_refill_ns : NULL, 0, 100000},
        {"silent_clean", o ? &o->silent_clean : NULL, 0, 1},
        {"preempt_us", o ? &o->preempt_us : NULL, 0, 1000000000},
        {"preempt_ns", o ? &o->preempt_ns : NULL, 0, 1000000000},
    };
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (!strcmp(key, keys[i].name)) {
            uint64_t v;
            if (sim_parse_bounded(key, value, keys[i].min, keys[i].max, &v, err, errlen))
                return -1;
            if (!strcmp(key, "tlb_entries") && v && v < 4) {
                /* the machine core takes a processor's last 4 entries as held */
                snprintf(err, errlen, "tlb_entries=%llu: 0 (no TLB) or at least 4",
                         (unsigned long long)v);
                return -1;
            }
            if (keys[i].field)
                *keys[i].field = v;
            return 0;
        }
    snprintf(err, errlen, "no option '%s' (origin options: port_mbs, sysad_mbs, mem_mbs, "
                          "link_mbs, packet_bytes, router_ns, mem_access_ns, pi_ns, ni_ns, "
                          "xbar_ns, intervention_ns, refresh_us, refresh_ns, cpu_mhz, "
                          "hub_sample_us, router_sample_us, three_hop, tlb_entries, "
                          "tlb_refill_ns, silent_clean, preempt_us, preempt_ns)",
             key);
    return -1;
}

static int origin_set(void *model, const char *key, const char *value, char *err, size_t errlen)
{
    return set_param(model, key, value, err, errlen);
}

static void origin_destroy(void *model)
{
    origin *o = model;
    if (!o)
        return;
    free(o->bus);
    free(o->bus_cmd_free);
    free(o->bus_data_start);
    free(o->md);
    free(o->link);
    free(o->md_union_end);
    free(o->md_busy);
    free(o->md_blocked);
    free(o->md_bytes);
    free(o->link_packets);
    free(o->link_waited);
    free(o->link_wait);
    free(o->pend_tail);
    free(o->pend_block);
    free(o->cur);
    free(o->thr);
    free(o->tlb);
    free(o->tlb_used);
    free(o->preempt_next);
    free(o->preempt_rng);
    free(o->hub.v);
    free(o->router.v);
    free(o);
}

/* Derived constants; called once every option is in (lazily, see below). */
static void derive(origin *o)
{
    o->ps_per_cycle = 1000000.0 / (double)o->cpu_mhz;
    o->pkt_ps = bytes_ps(o->packet_bytes, o->port_mbs);
    uint32_t line_pkts = o->p.line_size / (uint32_t)o->packet_bytes + 1;
    ps_t sustained = bytes_ps(o->p.line_size, o->link_mbs);
    if (sustained / line_pkts > o->pkt_ps) /* the sustained rate, packet by packet */
        o->pkt_ps = sustained / line_pkts;
    o->mem_line_ps = bytes_ps(o->p.line_size, o->mem_mbs);
    o->bus_line_ps = bytes_ps(o->p.line_size, o->sysad_mbs);
    o->bus_req_ps = bytes_ps(o->packet_bytes, o->sysad_mbs);
    o->tlb = o->tlb_entries ? calloc((size_t)o->nprocs * o->tlb_entries, sizeof *o->tlb) : NULL;
    if (!o->tlb)
        o->tlb_entries = 0; /* out of memory: no TLB rather than no machine */
    if (o->preempt_us && o->preempt_ns) {
        o->preempt_next = calloc((size_t)o->nprocs, sizeof *o->preempt_next);
        o->preempt_rng = calloc((size_t)o->nprocs, sizeof *o->preempt_rng);
        if (!o->preempt_next || !o->preempt_rng)
            o->preempt_us = 0; /* out of memory: no system activity */
        for (int p = 0; o->preempt_us && p < o->nprocs; p++) {
            o->preempt_rng[p] = 0x9e3779b97f4a7c15ull * (uint64_t)(p + 1);
            o->preempt_next[p] = preempt_draw(o, p, 0, 1); /* a phase in [0, period) */
        }
    }
    series_init(&o->hub, o->hub_sample_us * 1000000, o->nnodes, HF_N);
    series_init(&o->router, o->router_sample_us * 1000000, o->nlinks, 2);
}

static void *origin_create(const sim_params *p, char *err, size_t errlen)
{
    origin *o = calloc(1, sizeof *o);
    if (!o) {
        snprintf(err, errlen, "origin: out of memory");
        return NULL;
    }
    o->p = *p;
    o->nprocs = p->nprocs;
    o->nnodes = (p->nprocs + 1) / 2;
    o->nrouters = (o->nnodes + 1) / 2;
    o->meta = o->nrouters > 16; /* above 64 processors: 32-processor cubes */
    int span = o->meta ? 8 : o->nrouters;
    while ((1 << o->dim) < span)
        o->dim++;
    /* a partial cube's missing routers keep their links: routes through
     * them stay defined (dimension order as in a whole cube) */
    o->cube_routers = o->meta ? (o->nrouters + 7) / 8 * 8 : 1 << o->dim;
    if (o->meta) {
        int meta_span = (cube_of(o->nrouters - 1) + 4) / 4;
        o->nmeta = 1;
        while (o->nmeta < meta_span)
            o->nmeta *= 2, o->mdim++;
    }
    o->node_links = 2 * o->nnodes;
    o->nlinks = o->node_links + o->cube_routers * (o->dim + 2) + 8 * o->nmeta * o->mdim;
    o->port_mbs = 800;
    o->sysad_mbs = 570;
    o->mem_mbs = 620;
    o->link_mbs = 693;
    o->packet_bytes = 16;
    o->router_ns = 41;
    o->mem_access_ns = 100;
    o->pi_ns = 20;
    o->ni_ns = 20;
    o->xbar_ns = 10;
    o->intervention_ns = 100;
    o->refresh_us = 16;
    o->refresh_ns = 100;
    o->cpu_mhz = 195;
    o->hub_sample_us = 10000;
    o->router_sample_us = 2000000;
    o->tlb_entries = 64;
    o->tlb_refill_ns = 150;
    size_t n = (size_t)o->nnodes, l = (size_t)o->nlinks, pr = (size_t)o->nprocs;
    o->bus = calloc(n, sizeof *o->bus);
    o->bus_cmd_free = calloc(n, sizeof *o->bus_cmd_free);
    o->bus_data_start = calloc(n, sizeof *o->bus_data_start);
    o->md = calloc(n, sizeof *o->md);
    o->md_union_end = calloc(n, sizeof *o->md_union_end);
    o->md_busy = calloc(n, sizeof *o->md_busy);
    o->md_blocked = calloc(n, sizeof *o->md_blocked);
    o->md_bytes = calloc(n, sizeof *o->md_bytes);
    o->link = calloc(l, sizeof *o->link);
    o->link_packets = calloc(l, sizeof *o->link_packets);
    o->link_waited = calloc(l, sizeof *o->link_waited);
    o->link_wait = calloc(l, sizeof *o->link_wait);
    o->pend_tail = calloc(pr, sizeof *o->pend_tail);
    o->pend_block = calloc(pr, sizeof *o->pend_block);
    o->cur = calloc(pr, sizeof *o->cur);
    o->thr = calloc(pr, sizeof *o->thr);
    if (!o->bus || !o->bus_cmd_free || !o->bus_data_start || !o->md || !o->md_union_end || !o->md_busy || !o->md_blocked || !o->md_bytes ||
        !o->link || !o->link_packets || !o->link_waited || !o->link_wait || !o->pend_tail ||
        !o->pend_block || !o->cur || !o->thr) {
        origin_destroy(o);
        snprintf(err, errlen, "origin: out of memory");
        return NULL;
    }
    for (int i = 0; i < TAG_SLOTS; i++)
        o->last_req_proc[i] = o->egrant_proc[i] = o->fwd_req[i] = -1;
    o->three_hop = 1;
    o->silent_clean = 1;
    memset(o->pute_block, 0xff, sizeof o->pute_block);
    o->tlb_used = calloc(pr, sizeof *o->tlb_used);
    if (!o->tlb_used) {
        origin_destroy(o);
        snprintf(err, errlen, "origin: out of memory");
        return NULL;
    }
    return o;
}

/* Options arrive through set() after create(): the derived constants are
 * computed on first use. */
static origin *ready(void *model)
{
    origin *o = model;
    if (!o->pkt_ps)
        derive(o);
    return o;
}

static ps_t route(origin *o, int a, int b, int data, ps_t head, ps_t tail);

static sim_time origin_net_delay(void *model, const proto_msg *m, uint32_t bytes,
                                 sim_time send_time)
{
    origin *o = ready(model);
    (void)bytes;
    observe(o, m);
    int data = proto_msg_has_data(m->type);
    int a = m->src / 2, b = m->dst / 2;
    ps_t head = c2ps(o, send_time);
    ps_t tail = head;
    unsigned s = slot(m->block);
    if (o->silent_clean && m->type == PM_PUTE) {
        /* the R10000 drops a clean-exclusive line without telling anyone;
         * the engine's PUTE and its PUT_ACK keep its directory exact and
         * cost nothing here */
        o->pute_block[s] = m->block;
        return 0;
    }
    if (o->silent_clean && m->type == PM_PUT_ACK && o->pute_block[s] == m->block)
        return 0;
    if (m->type == PM_FWD_DATA_S || m->type == PM_FWD_DATA_X) {
        /* the owner's reply: the Origin's revision leaves with it */
        o->fwd_block[s] = m->block;
        o->fwd_req[s] = m->dst;
        o->fwd_from[s] = a;
        o->fwd_time[s] = head;
    }
    if ((m->type == PM_SHWB || m->type == PM_XFER) && o->fwd_block[s] == m->block &&
        o->fwd_req[s] == m->src) {
        /* the revision, timed from the owner's node at the reply's time */
        o->fwd_req[s] = -1;
        ps_t from = o->fwd_time[s];
        ps_t arrive = o->fwd_from[s] == b ? from : route(o, o->fwd_from[s], b, data, from, from);
        return cycles_between(o, send_time, arrive);
    }
    if (data && o->pend_block[m->dst] == m->block && o->pend_tail[m->dst] > head)
        tail = o->pend_tail[m->dst];
    if (a == b) { /* through the Hub's crossbar, cut-through */
        o->pend_tail[m->dst] = tail;
        o->pend_block[m->dst] = m->block;
        return 0;
    }
    ps_t arrive = route(o, a, b, data, head, tail);
    o->pend_tail[m->dst] = arrive;
    o->pend_block[m->dst] = m->block;
    return cycles_between(o, send_time, arrive);
}

/* A message from node a to node b (a != b) whose head leaves a's Hub at
 * head and whose tail cannot leave before tail: its links are held, and
 * the return is when b's NI has all of it. */
static ps_t route(origin *o, int a, int b, int data, ps_t head, ps_t tail)
{
    uint32_t packets = 1 + (data ? o->p.line_size / (uint32_t)o->packet_bytes : 0);
    ps_t router = o->router_ns * 1000;
    cross_link(o, link_node_out(a), o->ni_ns * 1000, packets, &head, &tail);
    series_add_span(&o->hub, a, HF_NIOUT, head, head + packets * o->pkt_ps);
    int ra = router_of_node(a), rb = router_of_node(b);
    int r = ra, to = rb; /* across the cube to the destination's corner */
    if (o->meta && cube_of(ra) != cube_of(rb))
        to = cube_of(ra) * 8 + corner_of(rb);
    for (int d = 0; d < o->dim; d++)
        if ((r ^ to) & (1 << d)) {
            cross_link(o, link_cube(o, r, d), router, packets, &head, &tail);
            r ^= 1 << d;
        }
    if (r != rb) { /* up into the corner's plane, across it, down */
        int plane = corner_of(r), m = meta_of_cube(cube_of(r)), mb = meta_of_cube(cube_of(rb));
        cross_link(o, link_meta(o, r, 0), router, packets, &head, &tail);
        for (int d = 0; d < o->mdim; d++)
            if ((m ^ mb) & (1 << d)) {
                cross_link(o, link_plane(o, plane * o->nmeta + m, d), router, packets, &head,
                           &tail);
                m ^= 1 << d;
            }
        cross_link(o, link_meta(o, rb, 1), router, packets, &head, &tail);
    }
    cross_link(o, link_node_in(b), router, packets, &head, &tail);
    ps_t arrive = tail + o->ni_ns * 1000; /* the NI takes the whole message */
    seen(o, arrive);
    return arrive;
}

static int is_request(int t) { return t == PM_GETS || t == PM_GETX || t == PM_UPGRADE; }
static int is_grant(int t)
{
    return t == PM_DATA_S || t == PM_DATA_X || t == PM_DATA_E || t == PM_UPGRADE_ACK ||
           t == PM_FWD_DATA_S || t == PM_FWD_DATA_X;
}

static sim_time origin_handler(void *model, int node, const proto_msg *m, int is_home,
                               int from_local, sim_time arrival, sim_time start,
                               sim_time *occupancy)
{
    origin *o = ready(model);
    int hub = node / 2;
    ps_t t = c2ps(o, start);
    ps_t pi = o->pi_ns * 1000, xbar = o->xbar_ns * 1000;
    (void)arrival;
    *occupancy = 1;
    seen(o, t);
    if (from_local) {
        /* the processor's request over SysAD into the PI, once the
         * operating system has given the processor back (preempt_us) */
        t += preempted(o, node, t);
        unsigned s = slot(m->block);
        o->last_req_block[s] = m->block;
        o->last_req_proc[s] = node;
        rec_start(o, node, m, t); /* (its TLB refill, if any, came before: sim_ref) */
        ps_t at_pi = bus_command(o, hub, t) + pi;
        if (m->dst / 2 != hub)
            return cycles_between(o, start, at_pi);
        /* the home is this Hub's memory: the whole miss is timed here, at
         * issue, for both processors alike (the engine's messages between
         * the two processors' nodes then cost nothing more) */
        ps_t head, end;
        ps_t tail = md_serve(o, hub, at_pi, m->type != PM_UPGRADE, &head);
        if (m->type == PM_UPGRADE)
            end = bus_command(o, hub, tail + xbar);
        else
            end = bus_take(o, hub, head + xbar, tail + xbar, o->bus_line_ps);
        /* its invalidations and recalls are sent after this call: the
         * record stays open until the processor's next miss */
        o->cur[node].end = end;
        return cycles_between(o, start, is_home ? end : at_pi);
    }
    if (is_home && is_request(m->type) && m->src / 2 == hub)
        return 0; /* timed at the requester's issue */
    if (is_home && is_request(m->type)) {
        unsigned s = slot(m->block);
        o->last_req_block[s] = m->block;
        o->last_req_proc[s] = m->src;
        ps_t head;
        ps_t tail = md_serve(o, hub, t + xbar, m->type != PM_UPGRADE, &head);
        o->pend_tail[m->src] = tail;
        o->pend_block[m->src] = m->block;
        return cycles_between(o, start, head);
    }
    if (is_home && (m->type == PM_PUTX || m->type == PM_WB_DATA || m->type == PM_SHWB)) {
        ps_t head;
        md_serve(o, hub, t + xbar, 1, &head);
        return cycles_between(o, start, head);
    }
    if (o->silent_clean && m->type == PM_PUTE)
        return 0; /* silent: no directory work charged */
    if (o->silent_clean && m->type == PM_PUT_ACK && o->pute_block[slot(m->block)] == m->block) {
        o->pute_block[slot(m->block)] = UINT32_MAX;
        return 0;
    }
    if (is_home && (m->type == PM_PUTS || m->type == PM_PUTE || m->type == PM_INV_ACK ||
                    m->type == PM_XFER)) {
        ps_t head;
        md_serve(o, hub, t + xbar, 0, &head);
        return cycles_between(o, start, head);
    }
    if ((m->type == PM_FWD_DATA_S || m->type == PM_FWD_DATA_X) && m->src / 2 == hub) {
        /* the other processor of this Hub owned it: its line crosses SysAD
         * twice through the Hub (no snooping between the two) */
        ps_t end = bus_take(o, hub, t + xbar, t + xbar, o->bus_line_ps);
        rec_finish(o, node, end);
        return cycles_between(o, start, end);
    }
    if (is_grant(m->type) && m->src / 2 == hub) { /* from this Hub's memory */
        ps_t end = o->cur[node].active && o->cur[node].block == m->block ? o->cur[node].end : t;
        rec_finish(o, node, end);
        return cycles_between(o, start, end);
    }
    if (is_grant(m->type)) { /* the reply reaches the requester's Hub */
        ps_t end;
        if (proto_msg_has_data(m->type)) {
            ps_t tail = o->pend_block[node] == m->block ? o->pend_tail[node] : t;
            end = bus_take(o, hub, t + xbar, max_ps(tail, t) + xbar, o->bus_line_ps);
        } else {
            end = bus_command(o, hub, t + xbar);
        }
        rec_finish(o, node, end);
        return cycles_between(o, start, end);
    }
    if (m->type == PM_INV) { /* the PI invalidates the processor's copy */
        ps_t end = bus_command(o, hub, t + pi);
        return cycles_between(o, start, end);
    }
    if (m->type == PM_RECALL || m->type == PM_RECALL_S || m->type == PM_FWD_GETS ||
        m->type == PM_FWD_GETX) { /* intervention */
        ps_t look = bus_command(o, hub, t + pi) + o->intervention_ns * 1000;
        ps_t end = bus_take(o, hub, look, look, o->bus_line_ps);
        return cycles_between(o, start, end);
    }
    return cycles_between(o, start, t + pi); /* PUT_ACK and the like */
}

/* three_hop: the engines forward requests at owned lines to their owners;
 * the owner's read copy then stays (FWD_GETS leaves it a sharer), so the
 * recall's downgrade option is not used with it (the engine refuses both). */
static void origin_engine_config(const void *model, proto_config *cfg)
{
    const origin *o = model;
    cfg->three_hop = o->three_hop != 0;
    if (cfg->three_hop)
        cfg->downgrade_on_read = 0;
}

static double origin_clock_hz(const void *model)
{
    return 1e6 * (double)((const origin *)model)->cpu_mhz;
}

const sim_timing_ops sim_timing_origin = {
    .name = "origin",
    .description = "SGI Origin 2000: 2 R10000 per Hub over SysAD, 128 B lines, bristled "
                   "hypercube of 6-port routers, memory/SysAD/link bandwidth as queues",
    .defaults = origin_defaults,
    .create = origin_create,
    .destroy = origin_destroy,
    .set = origin_set,
    .sharers_ops = NULL, /* bit vector */
    .fixed_latency = 0,
    .miss_latency = NULL,
    .net_delay = origin_net_delay,
    .handler = origin_handler,
    .procedure_switch = NULL,
    .clock_hz_of = origin_clock_hz, /* cpu_mhz: dsm_wtime's seconds */
    .engine_config = origin_engine_config,
    .tlb_shift = origin_tlb_shift, /* every reference (tlb_entries=0: none) */
    .tlb_miss = origin_tlb_miss,
};

/* ---- the profiler's view ---- */

int sim_origin_nodes(const void *model) { return ((const origin *)model)->nnodes; }
int sim_origin_routers(const void *model) { return ((const origin *)model)->nrouters; }
int sim_origin_links(const void *model) { return ((const origin *)model)->nlinks; }
int sim_origin_node_of(const void *model, int proc)
{
    const origin *o = model;
    return proc >= 0 && proc < o->nprocs ? proc / 2 : -1;
}
uint32_t sim_origin_cpu_mhz(const void *model) { return (uint32_t)((const origin *)model)->cpu_mhz; }
uint64_t sim_origin_elapsed_ps(const void *model) { return ((const origin *)model)->elapsed; }

int sim_origin_thread_of(const void *model, int proc, sim_origin_thread *out)
{
    origin *o = (origin *)model;
    if (proc < 0 || proc >= o->nprocs)
        return -1;
    *out = o->thr[proc];
    const miss_rec *r = &o->cur[proc];
    if (r->active) { /* a local miss still open: count it as it stands */
        miss_rec keep = *r;
        sim_origin_thread saved = o->thr[proc];
        rec_finish(o, proc, r->end);
        *out = o->thr[proc];
        o->thr[proc] = saved;
        o->cur[proc] = keep;
    }
    return 0;
}

static uint64_t refresh_in(const origin *o, ps_t span)
{
    if (!o->refresh_us || !o->refresh_ns)
        return 0;
    return span / (o->refresh_us * 1000000) * (o->refresh_ns * 1000);
}

int sim_origin_node_stats(const void *model, int node, sim_origin_node *out)
{
    const origin *o = model;
    if (node < 0 || node >= o->nnodes)
        return -1;
    memset(out, 0, sizeof *out);
    out->mem_ps[SO_MEM_BUSY] = o->md_busy[node];
    out->mem_ps[SO_MEM_BLOCKED] = o->md_blocked[node];
    out->mem_ps[SO_MEM_REFRESH] = refresh_in(o, o->elapsed);
    uint64_t used = out->mem_ps[SO_MEM_BUSY] + out->mem_ps[SO_MEM_BLOCKED] +
                    out->mem_ps[SO_MEM_REFRESH];
    out->mem_ps[SO_MEM_IDLE] = o->elapsed > used ? o->elapsed - used : 0;
    out->mem_bytes = o->md_bytes[node];
    out->bus_busy_ps = o->bus[node].busy;
    out->ni_out_busy_ps = o->link[link_node_out(node)].busy;
    out->ni_in_busy_ps = o->link[link_node_in(node)].busy;
    return 0;
}

int sim_origin_link_stats(const void *model, int l, sim_origin_link *out)
{
    const origin *o = model;
    if (l < 0 || l >= o->nlinks)
        return -1;
    memset(out, 0, sizeof *out);
    if (l < o->node_links) {
        int n = l / 2;
        out->from_kind = l % 2 ? SO_END_ROUTER : SO_END_NODE;
        out->from = l % 2 ? router_of_node(n) : n;
        out->to_kind = l % 2 ? SO_END_NODE : SO_END_ROUTER;
        out->to = l % 2 ? n : router_of_node(n);
    } else if (l < link_meta(o, 0, 0)) {
        int i = l - o->node_links;
        int r = o->dim ? i / o->dim : 0, d = o->dim ? i % o->dim : 0;
        out->from_kind = out->to_kind = SO_END_ROUTER;
        out->from = r;
        out->to = r ^ (1 << d);
    } else if (l < link_plane(o, 0, 0)) {
        int i = l - link_meta(o, 0, 0);
        int r = i / 2, m = corner_of(r) * o->nmeta + meta_of_cube(cube_of(r));
        out->from_kind = i % 2 ? SO_END_META : SO_END_ROUTER;
        out->to_kind = i % 2 ? SO_END_ROUTER : SO_END_META;
        out->from = i % 2 ? m : r;
        out->to = i % 2 ? r : m;
    } else {
        int i = l - link_plane(o, 0, 0);
        int m = i / o->mdim, d = i % o->mdim;
        out->from_kind = out->to_kind = SO_END_META;
        out->from = m;
        out->to = (m / o->nmeta) * o->nmeta + ((m % o->nmeta) ^ (1 << d));
    }
    out->busy_ps = o->link[l].busy;
    out->packets = o->link_packets[l];
    out->waited_packets = o->link_waited[l];
    out->wait_ps = o->link_wait[l];
    return 0;
}

uint64_t sim_origin_hub_period_ps(const void *model)
{
    origin *o = ready((void *)model);
    return o->hub.period;
}
uint64_t sim_origin_router_period_ps(const void *model)
{
    origin *o = ready((void *)model);
    return o->router.period;
}
int sim_origin_hub_samples(const void *model) { return ((const origin *)model)->hub.nsamples; }
int sim_origin_router_samples(const void *model)
{
    return ((const origin *)model)->router.nsamples;
}

int sim_origin_hub_sample(const void *model, int node, int k, uint64_t mem_ps[SO_MEM_NSTATES],
                          uint64_t *bus_ps, uint64_t *ni_out_ps, uint64_t *mem_bytes)
{
    const origin *o = model;
    if (node < 0 || node >= o->nnodes || k < 0 || k >= o->hub.nsamples)
        return -1;
    const uint64_t *row = o->hub.v + ((size_t)k * o->nnodes + node) * HF_N;
    ps_t span = o->hub.period;
    if ((uint64_t)(k + 1) * span > o->elapsed) /* the last, partial sample */
        span = o->elapsed > (uint64_t)k * span ? o->elapsed - (uint64_t)k * span : 0;
    mem_ps[SO_MEM_BUSY] = row[HF_BUSY];
    mem_ps[SO_MEM_BLOCKED] = row[HF_BLOCKED];
    mem_ps[SO_MEM_REFRESH] = refresh_in(o, span);
    uint64_t used = mem_ps[SO_MEM_BUSY] + mem_ps[SO_MEM_BLOCKED] + mem_ps[SO_MEM_REFRESH];
    mem_ps[SO_MEM_IDLE] = span > used ? span - used : 0;
    *bus_ps = row[HF_BUS];
    *ni_out_ps = row[HF_NIOUT];
    *mem_bytes = row[HF_BYTES];
    return 0;
}

int sim_origin_router_sample(const void *model, int link, int k, uint64_t *busy_ps,
                             uint64_t *wait_ps)
{
    const origin *o = model;
    if (link < 0 || link >= o->nlinks || k < 0 || k >= o->router.nsamples)
        return -1;
    const uint64_t *row = o->router.v + ((size_t)k * o->nlinks + link) * 2;
    *busy_ps = row[0];
    *wait_ps = row[1];
    return 0;
}
