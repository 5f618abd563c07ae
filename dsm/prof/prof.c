/* prof.c - the runtime side of the data-centric profile (prof.h): what
 * every node records while the program runs (all cheap, all bounded):
 *  - the registry of allocations: range, name or the raw return addresses
 *    of the call path (symbolized only at finalize);
 *  - per block: miss causes (cold / invalidation / upgrade) with their wall
 *    time and the time of the node's first miss, in lazily allocated chunks;
 *  - per (faulting instruction, block): read, write and upgrade misses and
 *    their wall time, in an open-addressing hash;
 *  - twins: a copy of a block taken when write access is granted, diffed
 *    when write access goes (INV or RECALL), giving the byte ranges the node
 *    wrote in that write epoch, logged with the epoch's start and end;
 *  - timeslices: misses, their wall time and barrier wait per interval of
 *    the job (DSM_TIMESLICE_MS), in a growable array indexed by time.
 * At dsm_finalize ship.c symbolizes and serializes all of it for node 0,
 * which builds the profile with profile/aggregate.c. */
#include "prof_state.h"
#include "diff.h"

#include <execinfo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "futex.h"
#include "growable.h"
#include "node.h"

__thread uintptr_t dsm_prof_fault_ip;
__thread dsm_prof_access dsm_prof_fault_access;

int dsm_prof_init(dsm_rt *rt)
{
    if (!rt->cfg.profile_path) /* DSM_PROFILE=off */
        return 0;
    dsm_prof *p = calloc(1, sizeof *p);
    if (!p)
        goto oom;
    p->path = strdup(rt->cfg.profile_path);
    p->recording = 1;
    p->home_diff = !(rt->tp && (rt->tp->ops->caps & DSM_TP_DATA_PLACED_BY_RDMA));
    p->bs = rt->region.block_size;
    p->runs = malloc(PROF_DIFF_MAX_RUNS(p->bs) * sizeof *p->runs);
    p->nchunks = (rt->region.nblocks + PB_CHUNK - 1) / PB_CHUNK;
    p->chunk = calloc(p->nchunks, sizeof *p->chunk);
    if (!p->path || !p->chunk || !p->runs)
        goto oom;
    pthread_mutex_init(&p->reg_lock, NULL);
    p->ts_iv = (uint64_t)rt->cfg.timeslice_ms * 1000000u;
    p->clock_base = rt->clock_base_ns;
    rt->prof = p;
    return 0;
oom:
    fprintf(stderr, "dsm: node %d: dsm_init: out of memory for the profile (DSM_PROFILE=off "
                    "runs without it)\n", rt->self);
    return -1;
}

/* ---- while the program runs ---- */

static pblk *pb_get(dsm_prof *p, uint32_t block)
{
    uint32_t ci = block >> PB_SHIFT;
    if (ci >= p->nchunks)
        return NULL;
    if (!p->chunk[ci])
        p->chunk[ci] = calloc(PB_CHUNK, sizeof(pblk));
    return p->chunk[ci] ? &p->chunk[ci][block & (PB_CHUNK - 1)] : NULL;
}

void dsm_prof_alloc(dsm_rt *rt, size_t off, size_t len, const char *name, int collective)
{
    dsm_prof *p = rt->prof;
    if (!p)
        return;
    prof_alloc a;
    memset(&a, 0, sizeof a);
    a.off = off;
    a.len = len;
    a.collective = collective;
    if (name)
        a.name = strdup(name);
    /* raw addresses only: symbolized at finalize, off the hot path (a named
     * allocation's call site still tells its element type: elemtype.c) */
    a.nframes = backtrace(a.frames, MAX_FRAMES);
    pthread_mutex_lock(&p->reg_lock);
    if (p->nallocs == p->capallocs && GROWABLE_RESERVE(p->allocs, p->capallocs, p->nallocs + 1))
        dsm_fatal(collective ? "dsm_alloc" : "dsm_malloc", "out of memory in the profile");
    p->allocs[p->nallocs++] = a;
    pthread_mutex_unlock(&p->reg_lock);
}

static ip_ent *ip_slot(ip_ent *t, size_t cap, uintptr_t ip, uint32_t block)
{
    size_t h = (size_t)((ip * 0x9e3779b97f4a7c15ULL) ^ (block * 0xc2b2ae3d27d4eb4fULL));
    for (size_t i = h & (cap - 1);; i = (i + 1) & (cap - 1))
        if (!t[i].used || (t[i].ip == ip && t[i].block == block))
            return &t[i];
}

static ip_ent *ip_get(dsm_prof *p, uintptr_t ip, uint32_t block)
{
    if (p->ipn * 2 >= p->ipcap) {
        if (p->ipn >= IP_MAX)
            block = NO_BLOCK; /* full: keep the procedure, lose the block */
        else {
            size_t cap = p->ipcap ? p->ipcap * 2 : 1024;
            ip_ent *t = calloc(cap, sizeof *t);
            if (!t)
                return NULL;
            for (size_t i = 0; i < p->ipcap; i++)
                if (p->ipt[i].used)
                    *ip_slot(t, cap, p->ipt[i].ip, p->ipt[i].block) = p->ipt[i];
            free(p->ipt);
            p->ipt = t;
            p->ipcap = cap;
        }
    }
    ip_ent *e = ip_slot(p->ipt, p->ipcap, ip, block);
    if (!e->used) {
        if (p->ipn * 2 + 2 > p->ipcap) /* the NO_BLOCK entries of a full table */
            return NULL;
        e->used = 1;
        e->ip = ip;
        e->block = block;
        p->ipn++;
    }
    return e;
}

/* The bytes of block the missing access read (dsm_prof_fault_access),
 * when it read: the evidence that what arrived was used (true sharing). */
void dsm_prof_read(dsm_rt *rt, uint32_t block)
{
    dsm_prof *p = rt->prof;
    if (!p->recording)
        return;
    const dsm_prof_access *a = &dsm_prof_fault_access;
    if (!a->reads || !a->len)
        return;
    uintptr_t lo = (uintptr_t)rt->region.app + ((uintptr_t)block << rt->region.block_shift);
    uintptr_t hi = lo + p->bs, alo = a->addr, ahi = a->addr + a->len;
    if (ahi <= lo || alo >= hi)
        return; /* the access's bytes are in another block of a wide access */
    if (p->nrd == p->caprd &&
        (p->nrd >= READS_MAX || GROWABLE_RESERVE(p->rd, p->caprd, p->nrd + 1))) {
        p->reads_dropped++;
        return;
    }
    p->rd[p->nrd++] = (profile_rec_read){ block, (uint32_t)((alo > lo ? alo : lo) - lo),
                                          (uint32_t)((ahi < hi ? ahi : hi) - lo), dsm_ticks() };
}

void dsm_prof_miss(dsm_rt *rt, uint32_t block, int kind, uint64_t wall)
{
    dsm_prof *p = rt->prof;
    if (!p->recording)
        return;
    pblk *b = pb_get(p, block);
    if (!b)
        return;
    int upgrade = kind == CM_STACHE_WRITE_RO || kind == CM_HOME_WRITE_RO;
    int write = kind == CM_STACHE_WRITE_INV || kind == CM_HOME_WRITE_INV;
    if (upgrade && !b->lost) {
        /* the first write of the copy this node's cold miss brought, no
         * other node having taken one away since: part of the first touch
         * (a private block's read then write), not coherence */
        b->cold++;
        b->cold_wall += wall;
    } else if (upgrade) {
        b->upgrade++;
        b->upgrade_wall += wall;
    } else if (b->had) {
        b->inval++;
        b->inval_wall += wall;
    } else {
        b->cold++;
        b->cold_wall += wall;
        /* the fault's entry: the earliest in the job is the first touch
         * (ticks now, no clock call on the miss path; nanoseconds when shipped) */
        b->first_tick = dsm_ticks() - wall;
    }
    b->had = 1;
    dsm_prof_read(rt, block);
    ip_ent *e = ip_get(p, dsm_prof_fault_ip, block);
    if (e) {
        if (upgrade)
            e->upgrades++;
        else if (write)
            e->writes++;
        else
            e->reads++;
        e->wall += wall;
    }
}

/* Make slice idx exist; past TS_MAX the interval doubles.  Index of the
 * slice holding job time t (ns since clock_base), or SIZE_MAX (no memory). */
static size_t ts_slot(dsm_prof *p, uint64_t t)
{
    while (t / p->ts_iv >= TS_MAX) {
        size_t h = (p->nts + 1) / 2;
        for (size_t i = 0; i < h; i++) {
            tslice a = p->ts[2 * i], b = 2 * i + 1 < p->nts ? p->ts[2 * i + 1] : (tslice){ 0 };
            p->ts[i] = (tslice){ a.misses + b.misses, a.wall + b.wall, a.barrier + b.barrier };
        }
        memset(p->ts + h, 0, (p->nts - h) * sizeof *p->ts);
        p->nts = h;
        p->ts_iv *= 2;
        p->ts_end_ticks = 0; /* indices moved: the fault path looks again */
    }
    size_t idx = (size_t)(t / p->ts_iv);
    if (idx >= p->capts) {
        size_t old = p->capts;
        if (GROWABLE_RESERVE(p->ts, p->capts, idx + 1))
            return SIZE_MAX;
        memset(p->ts + old, 0, (p->capts - old) * sizeof *p->ts);
    }
    if (idx >= p->nts)
        p->nts = idx + 1;
    return idx;
}

/* Job time of a CLOCK_MONOTONIC instant (0 before the job's start, which
 * a base computed from other clocks can be a little after). */
static uint64_t job_ns(const dsm_prof *p, uint64_t now)
{
    return now > p->clock_base ? now - p->clock_base : 0;
}

void dsm_prof_slice(dsm_rt *rt, uint64_t end, int miss, uint64_t wall)
{
    dsm_prof *p = rt->prof;
    if (!p->recording)
        return;
    if (end >= p->ts_end_ticks) {
        /* once per slice: the clock is read only when the current slice may
         * have ended, its end then estimated in ticks */
        uint64_t t = job_ns(p, dsm_now_ns());
        size_t idx = ts_slot(p, t);
        if (idx == SIZE_MAX)
            return;
        p->ts_cur = idx;
        uint64_t left = ((uint64_t)idx + 1) * p->ts_iv - t;
        p->ts_end_ticks = dsm_ticks() + (uint64_t)((double)left / dsm_ticks_ns_factor());
    }
    tslice *s = &p->ts[p->ts_cur];
    s->misses += (uint64_t)miss;
    s->wall += wall;
}

void dsm_prof_barrier(dsm_rt *rt, uint64_t t0, uint64_t t1)
{
    dsm_prof *p = rt->prof;
    pthread_mutex_lock(&rt->eng_lock);
    /* the wait spread over the slices it spans, so a long wait draws as one */
    uint64_t a = job_ns(p, t0), b = job_ns(p, t1);
    while (a < b) {
        size_t last = ts_slot(p, b - 1); /* first: it may double the interval */
        size_t idx = ts_slot(p, a);
        if (idx == SIZE_MAX || last == SIZE_MAX)
            break;
        uint64_t end = ((uint64_t)idx + 1) * p->ts_iv;
        uint64_t e = end < b ? end : b;
        p->ts[idx].barrier += e - a;
        a = e;
    }
    pthread_mutex_unlock(&rt->eng_lock);
}

/* Room for one more write epoch of nr runs in the log, its runs copied
 * from p->runs into the pool; or NULL (full: counted). */
static prof_epoch *epoch_slot(dsm_prof *p, size_t nr)
{
    if (p->npool + nr > RUN_POOL_MAX ||
        (p->npool + nr > p->cappool && GROWABLE_RESERVE(p->pool, p->cappool, p->npool + nr))) {
        p->ep_dropped++;
        return NULL;
    }
    /* capacities are powers of two: the log stops at EPOCH_MAX exactly */
    if (p->nep == p->capep && p->nep < EPOCH_MAX)
        (void)GROWABLE_RESERVE(p->ep, p->capep, p->nep + 1);
    if (p->nep == p->capep) {
        p->ep_dropped++;
        return NULL;
    }
    prof_epoch *e = &p->ep[p->nep++];
    memset(e, 0, sizeof *e);
    e->first = p->npool;
    e->n = (uint32_t)nr;
    if (nr)
        memcpy(p->pool + p->npool, p->runs, nr * sizeof *p->runs);
    p->npool += nr;
    return e;
}

void prof_end_epoch(dsm_rt *rt, uint32_t block, pblk *b)
{
    dsm_prof *p = rt->prof;
    const unsigned char *cur =
        (const unsigned char *)rt->region.proto + ((size_t)block << rt->region.block_shift);
    size_t nr = prof_diff(b->twin, cur, p->bs, p->runs);
    prof_epoch *e = epoch_slot(p, nr);
    if (e) {
        e->block = block;
        e->node = rt->self;
        e->t0 = b->twin_t0;
        e->t1 = b->pending ? b->t1 : dsm_ticks();
    }
    if (p->ntwin_free < (int)(sizeof p->twin_free / sizeof p->twin_free[0]))
        p->twin_free[p->ntwin_free++] = b->twin;
    else
        free(b->twin);
    b->twin = NULL;
    b->pending = 0;
    p->twin_bytes -= p->bs;
}

void dsm_prof_grant(dsm_rt *rt, uint32_t block, int to)
{
    dsm_prof *p = rt->prof;
    if (!p->home_diff || !p->recording)
        return;
    pblk *b = pb_get(p, block);
    if (!b)
        return;
    b->rowner = to;
    b->rt0 = dsm_ticks();
}

void dsm_prof_writeback(dsm_rt *rt, uint32_t block, int from, const void *data)
{
    dsm_prof *p = rt->prof;
    if (!p->home_diff)
        return;
    pblk *b = pb_get(p, block);
    if (!b || b->rt0 == 0 || b->rowner != from)
        return; /* granted while recording was off */
    b->remote_writer = 1;
    const unsigned char *mem =
        (const unsigned char *)rt->region.proto + ((size_t)block << rt->region.block_shift);
    size_t nr = prof_diff(mem, data, p->bs, p->runs);
    prof_epoch *e = epoch_slot(p, nr);
    if (e) {
        e->block = block;
        e->node = from;
        e->t0 = b->rt0;
        e->t1 = dsm_ticks();
    }
    b->rt0 = 0;
}

void dsm_prof_flush_block(dsm_rt *rt, uint32_t block)
{
    pblk *b = pb_get(rt->prof, block);
    if (b && b->pending && b->twin)
        prof_end_epoch(rt, block, b);
}

int dsm_prof_flush_pending(dsm_rt *rt, size_t max)
{
    dsm_prof *p = rt->prof;
    size_t k = 0;
    while (p->npend && k < max) {
        dsm_prof_flush_block(rt, p->pend[--p->npend]);
        k++;
    }
    return p->npend != 0;
}

void dsm_prof_record(dsm_rt *rt, int on)
{
    if (rt->prof) {
        pthread_mutex_lock(&rt->eng_lock);
        rt->prof->recording = on;
        pthread_mutex_unlock(&rt->eng_lock);
    }
}

/* a racy peek (the progress thread looks before taking eng_lock) */
int dsm_prof_pending(const dsm_rt *rt)
{
    return rt->prof && __atomic_load_n(&rt->prof->npend, __ATOMIC_RELAXED);
}

void dsm_prof_set_access(dsm_rt *rt, uint32_t block, int access)
{
    dsm_prof *p = rt->prof;
    if (access == PROTO_ACCESS_NONE) {
        /* a copy taken away: this node's next upgrade is coherence */
        uint32_t ci = block >> PB_SHIFT;
        pblk *l = ci < p->nchunks && p->chunk[ci] ? &p->chunk[ci][block & (PB_CHUNK - 1)] : NULL;
        if (l && l->had)
            l->lost = 1;
    }
    /* with home diffs, twins are the home's business only: a remote
     * writer's epoch is diffed at its home (dsm_prof_writeback) */
    if (p->home_diff && proto_home(rt->eng, block) != rt->self)
        return;
    pblk *b = pb_get(p, block);
    if (!b)
        return;
    if (access != PROTO_ACCESS_WRITE) {
        /* The epoch ends now; its diff waits until the node is idle, or
         * until something may overwrite the copy (see dsm_prof_flush_block's
         * callers in node.c): the requester is waiting for our reply. */
        if (b->twin && !b->pending) {
            b->pending = 1;
            b->t1 = dsm_ticks();
            if (p->npend == p->cappend &&
                GROWABLE_RESERVE(p->pend, p->cappend, p->npend + 1)) {
                prof_end_epoch(rt, block, b); /* no memory to defer: diff now */
                return;
            }
            p->pend[p->npend++] = block;
        }
        return;
    }
    if (b->pending)
        prof_end_epoch(rt, block, b); /* the copy is unchanged since write access went */
    if (b->twin || !p->recording)
        return;
    /* with home diffs, the home twins only blocks some other node writes
     * too (a false-sharing transfer needs two writers) */
    if (p->home_diff && !b->remote_writer)
        return;
    if (p->twin_bytes + p->bs > TWIN_BYTES_MAX) {
        p->twins_skipped++;
        return;
    }
    unsigned char *t = p->ntwin_free ? p->twin_free[--p->ntwin_free] : malloc(p->bs);
    if (!t) {
        p->twins_skipped++;
        return;
    }
    /* the data is installed before write access is given (PA_INSTALL first) */
    memcpy(t, rt->region.proto + ((size_t)block << rt->region.block_shift), p->bs);
    b->twin = t;
    b->twin_t0 = dsm_ticks();
    p->twin_bytes += p->bs;
}
