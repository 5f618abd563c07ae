/* prof.c - the runtime side of the data-centric profile (prof.h).
 *
 * Per node, while the program runs (all cheap, all bounded):
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
 * At dsm_finalize every node symbolizes its own addresses with elfutils
 * libdwfl (addresses differ between processes: PIE and ASLR), serializes
 * everything, and ships it to node 0 inside dsm/stats.c's gather.  Node 0
 * attributes blocks to structures, decides the warm bit (the earliest cold
 * miss of a block in the job) and the false-sharing transfers (consecutive
 * write epochs of a block at different nodes whose written ranges do not
 * overlap), and hands plain data to profile/ for the JSON file. */
#define _GNU_SOURCE 1
#include <json.h>

#include "advice.h"
#include "prof.h"
#include "diff.h"

#include <dlfcn.h>
#include <errno.h>
#include <execinfo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "error.h"
#include "futex.h"
#include "node.h"
#include "profile.h"
#include "symbols.h"

__thread uintptr_t dsm_prof_fault_ip;

#define PB_SHIFT 12
#define PB_CHUNK (1u << PB_SHIFT)
#define MAX_FRAMES 16        /* raw frames captured at an allocation */
#define PATH_FRAMES 4        /* frames of the call path kept (site included) */
#define EPOCH_MAX (1u << 16) /* write epochs logged per node */
#define TWIN_BYTES_MAX ((size_t)64 << 20) /* twins alive per node */
#define IP_MAX (1u << 20)    /* (instruction, block) entries per node */
#define NO_BLOCK UINT32_MAX
#define RUNS_MAX 4096 /* changed runs collected per diff before reducing */
/* Timeslices kept per node: past that the interval doubles (pairs merge),
 * so a long run costs at most this many slices. */
#define TS_MAX 1024

typedef struct pblk {
    uint32_t cold, inval, upgrade;
    uint8_t had;      /* this node had a copy before */
    uint64_t first_tick; /* fault entry of its first miss (ticks; ns when shipped) */
    uint64_t cold_wall, inval_wall, upgrade_wall; /* ticks (dsm_ticks) */
    unsigned char *twin;
    uint64_t twin_t0; /* ticks (dsm_ticks), as in prof_epoch until serialized */
    uint64_t t1;      /* pending: when write access went (the epoch's end), ticks */
    uint8_t pending;  /* the epoch ended; its diff waits (dsm_prof_flush_block) */
    uint8_t remote_writer; /* home: a remote node's write epoch was seen */
    int32_t rowner;   /* home: the remote node in a write epoch (while rt0 != 0) */
    uint64_t rt0;     /* home: when that epoch was granted, ticks; 0: none open */
} pblk;

typedef struct prof_alloc {
    size_t off, len;
    char *name;
    void *frames[MAX_FRAMES];
    int nframes, collective;
} prof_alloc;

typedef struct prof_epoch {
    uint32_t block;
    int32_t node;
    uint64_t t0, t1;
    profile_ranges w;
} prof_epoch;

typedef struct ip_ent {
    uintptr_t ip;
    uint32_t block, used;
    uint32_t reads, writes, upgrades;
    uint64_t wall;
} ip_ent;

typedef struct tslice {
    uint64_t misses, wall, barrier; /* wall: ticks (dsm_ticks); barrier: ns */
} tslice;

typedef struct rxbuf {
    unsigned char *p;
    size_t len, cap;
} rxbuf;

struct dsm_prof {
    char *path;
    size_t bs;
    pblk **chunk;
    uint32_t nchunks;
    pthread_mutex_t reg_lock; /* the registry: allocations run outside eng_lock */
    prof_alloc *allocs;
    size_t nallocs, capallocs;
    prof_epoch *ep;
    size_t nep, capep;
    uint64_t ep_dropped, twins_skipped;
    size_t twin_bytes;
    unsigned char *twin_free[1024]; /* recycled twins: no malloc per write grant */
    int ntwin_free;
    profile_range runs[RUNS_MAX]; /* a diff's changed runs (under eng_lock) */
    ip_ent *ipt;
    size_t ipcap, ipn;
    rxbuf *rx; /* node 0: serialized data per node */
    /* timeslices: slice i covers job time [i, i + 1) * ts_iv ns from
     * clock_base (the job's start, the same at every node) */
    tslice *ts;
    size_t nts, capts;
    uint64_t ts_iv, clock_base;
    size_t ts_cur;         /* the slice of the last fault */
    /* blocks whose write epoch ended and whose diff is deferred, so that
     * it is off the path of the INV/RECALL reply (may hold stale entries) */
    uint32_t *pend; /* grows with the twins alive: never a forced flush of many */
    size_t npend, cappend;
    uint64_t ts_end_ticks; /* when it ends, in ticks (estimated; 0: unknown) */
    int recording; /* 0: no new misses, slices or twins (bench/bench_profile_miss) */
    /* Remote write epochs are diffed at the home, against its memory, when
     * the data comes back (no twin at the writer: a 4 KiB copy on every
     * write grant was most of the profile's cost per miss); only the
     * home's own epochs take twins.  Off for a transport that places data
     * in memory itself (verbs): then every writer twins. */
    int home_diff;
};

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
    p->nchunks = (rt->region.nblocks + PB_CHUNK - 1) / PB_CHUNK;
    p->chunk = calloc(p->nchunks, sizeof *p->chunk);
    if (!p->path || !p->chunk)
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
    if (name) {
        a.name = strdup(name);
    } else {
        /* raw addresses only: symbolized at finalize, off the hot path */
        a.nframes = backtrace(a.frames, MAX_FRAMES);
    }
    pthread_mutex_lock(&p->reg_lock);
    if (p->nallocs == p->capallocs) {
        size_t cap = p->capallocs ? p->capallocs * 2 : 64;
        prof_alloc *v = realloc(p->allocs, cap * sizeof *v);
        if (!v)
            dsm_fatal(collective ? "dsm_alloc" : "dsm_malloc", "out of memory in the profile");
        p->allocs = v;
        p->capallocs = cap;
    }
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
    if (upgrade) {
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
        size_t cap = p->capts ? p->capts : 64;
        while (cap <= idx)
            cap *= 2;
        tslice *v = realloc(p->ts, cap * sizeof *v);
        if (!v)
            return SIZE_MAX;
        memset(v + p->capts, 0, (cap - p->capts) * sizeof *v);
        p->ts = v;
        p->capts = cap;
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

/* Room for one more write epoch in the log, or NULL (full: counted). */
static prof_epoch *epoch_slot(dsm_prof *p)
{
    if (p->nep == p->capep && p->nep < EPOCH_MAX) {
        size_t cap = p->capep ? p->capep * 2 : 256;
        prof_epoch *v = realloc(p->ep, cap * sizeof *v);
        if (v) {
            p->ep = v;
            p->capep = cap;
        }
    }
    if (p->nep == p->capep) {
        p->ep_dropped++;
        return NULL;
    }
    prof_epoch *e = &p->ep[p->nep++];
    memset(e, 0, sizeof *e);
    return e;
}

static void end_epoch(dsm_rt *rt, uint32_t block, pblk *b)
{
    dsm_prof *p = rt->prof;
    const unsigned char *cur =
        (const unsigned char *)rt->region.proto + ((size_t)block << rt->region.block_shift);
    prof_epoch *e = epoch_slot(p);
    if (e) {
        e->block = block;
        e->node = rt->self;
        e->t0 = b->twin_t0;
        e->t1 = b->pending ? b->t1 : dsm_ticks();
        prof_diff(b->twin, cur, p->bs, p->runs, RUNS_MAX, &e->w);
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
    prof_epoch *e = epoch_slot(p);
    if (e) {
        const unsigned char *mem =
            (const unsigned char *)rt->region.proto + ((size_t)block << rt->region.block_shift);
        e->block = block;
        e->node = from;
        e->t0 = b->rt0;
        e->t1 = dsm_ticks();
        prof_diff(mem, data, p->bs, p->runs, RUNS_MAX, &e->w);
    }
    b->rt0 = 0;
}

void dsm_prof_flush_block(dsm_rt *rt, uint32_t block)
{
    pblk *b = pb_get(rt->prof, block);
    if (b && b->pending && b->twin)
        end_epoch(rt, block, b);
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
            if (p->npend == p->cappend) {
                size_t cap = p->cappend ? p->cappend * 2 : 256;
                uint32_t *v = realloc(p->pend, cap * sizeof *v);
                if (!v) {
                    end_epoch(rt, block, b); /* no memory to defer: diff now */
                    return;
                }
                p->pend = v;
                p->cappend = cap;
            }
            p->pend[p->npend++] = block;
        }
        return;
    }
    if (b->pending)
        end_epoch(rt, block, b); /* the copy is unchanged since write access went */
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

/* ---- symbolization (finalize, every node for its own addresses) ---- */

typedef struct sym {
    char *func, *file;
    unsigned line;
} sym;

static char *xstrdup(const char *s)
{
    char *r = strdup(s ? s : "");
    if (!r)
        dsm_fatal("dsm_finalize", "out of memory writing the profile");
    return r;
}

/* is_return: a return address (look up the call, one byte before).
 * The lookup itself is dsm/symbols.c's, shared with the simulator. */
static sym symbolize(uintptr_t ip, int is_return)
{
    sym s = { NULL, NULL, 0 };
    char buf[64];
    if (!ip) {
        s.func = xstrdup("(unknown)");
        s.file = xstrdup("");
        return s;
    }
    dsm_code_location loc;
    dsm_symbols_lookup(ip - (is_return ? 1 : 0), &loc);
    const char *fn = loc.function;
    if (!fn) {
        snprintf(buf, sizeof buf, "0x%lx", (unsigned long)ip);
        fn = buf;
    }
    s.func = xstrdup(fn);
    s.file = xstrdup(loc.file ? loc.file : "");
    s.line = (unsigned)loc.line;
    return s;
}

static void sym_free(sym *s)
{
    free(s->func);
    free(s->file);
}

static char *frame_label(const sym *s)
{
    char *r;
    int n = *s->file ? asprintf(&r, "%s (%s:%u)", s->func, s->file, s->line)
                     : asprintf(&r, "%s", s->func);
    if (n < 0)
        dsm_fatal("dsm_finalize", "out of memory writing the profile");
    return r;
}

/* ---- serialization ---- */

/* The serialized data being written (wbuf) is the same growable buffer as
 * what node 0 receives per node (rxbuf). */
typedef rxbuf wbuf;

static void put(wbuf *w, const void *x, size_t n)
{
    if (w->len + n > w->cap) {
        size_t cap = w->cap ? w->cap * 2 : 4096;
        while (cap < w->len + n)
            cap *= 2;
        unsigned char *v = realloc(w->p, cap);
        if (!v)
            dsm_fatal("dsm_finalize", "out of memory for the profile data");
        w->p = v;
        w->cap = cap;
    }
    memcpy(w->p + w->len, x, n);
    w->len += n;
}

static void put8(wbuf *w, uint8_t v) { put(w, &v, 1); }
static void put32(wbuf *w, uint32_t v) { put(w, &v, 4); }
static void put64(wbuf *w, uint64_t v) { put(w, &v, 8); }
static void puts_(wbuf *w, const char *s)
{
    uint32_t n = (uint32_t)strlen(s ? s : "");
    put32(w, n);
    put(w, s ? s : "", n);
}

static int cmp_ip(const void *x, const void *y)
{
    uintptr_t a = *(const uintptr_t *)x, b = *(const uintptr_t *)y;
    return (a > b) - (a < b);
}

/* Is the runtime linked into the program itself (no libdsm.so)? */
static int runtime_in_program(void)
{
    Dl_info di;
    char exe[4096], lib[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0 || !dladdr((void *)&dsm_prof_alloc, &di) || !di.dli_fname)
        return 0;
    exe[n] = '\0';
    if (!realpath(di.dli_fname, lib))
        return 0;
    return !strcmp(exe, lib);
}

/* records */
enum { R_ALLOC = 'A', R_CAUSE = 'C', R_EPOCH = 'E', R_IP = 'F', R_MISS = 'P', R_LOST = 'D',
       R_SLICES = 'T' };

void *dsm_prof_serialize(dsm_rt *rt, size_t *len)
{
    dsm_prof *p = rt->prof;
    wbuf w = { 0 };
    Dwfl *d = dsm_symbols_self();
    Dwarf_Addr self_mod_lo = 0, self_mod_hi = 0;
    Dwfl_Module *self_mod = d ? dwfl_addrmodule(d, (Dwarf_Addr)(uintptr_t)&dsm_prof_alloc) : NULL;
    if (self_mod)
        dwfl_module_info(self_mod, NULL, &self_mod_lo, &self_mod_hi, NULL, NULL, NULL, NULL);
    int static_link = runtime_in_program();

    /* allocations: node 0 ships the collective ones too (same everywhere) */
    pthread_mutex_lock(&p->reg_lock);
    for (size_t i = 0; i < p->nallocs; i++) {
        prof_alloc *a = &p->allocs[i];
        if (a->collective && rt->self != 0)
            continue;
        put8(&w, R_ALLOC);
        put64(&w, a->off);
        put64(&w, a->len);
        put8(&w, (uint8_t)a->collective);
        put32(&w, (uint32_t)i);
        if (a->name) {
            put8(&w, 0);
            puts_(&w, a->name);
            continue;
        }
        /* skip the runtime's own frames (dsm_alloc and below): those in
         * libdsm's module, or, when the runtime is linked into the program,
         * those named dsm_* */
        int f = 0;
        while (f < a->nframes) {
            Dwarf_Addr x = (Dwarf_Addr)(uintptr_t)a->frames[f];
            int ours = !static_link && self_mod && x >= self_mod_lo && x < self_mod_hi;
            if (!ours) {
                sym s = symbolize((uintptr_t)a->frames[f], 1);
                /* also backtrace itself, and a sanitizer's wrapper of it */
                int named_dsm = !strncmp(s.func, "dsm_", 4) || !strcmp(s.func, "backtrace") ||
                                !strncmp(s.func, "__interceptor_", 14);
                sym_free(&s);
                if (!named_dsm)
                    break;
            }
            f++;
        }
        int nf = a->nframes - f < PATH_FRAMES ? a->nframes - f : PATH_FRAMES;
        put8(&w, 1);
        put32(&w, (uint32_t)(nf > 0 ? nf : 0));
        for (int k = 0; k < nf; k++) {
            sym s = symbolize((uintptr_t)a->frames[f + k], 1);
            puts_(&w, s.func);
            puts_(&w, s.file);
            put32(&w, s.line);
            sym_free(&s);
        }
    }
    pthread_mutex_unlock(&p->reg_lock);

    double f = dsm_ticks_ns_factor(); /* walls were taken in ticks */
    pthread_mutex_lock(&rt->eng_lock);
    for (uint32_t ci = 0; ci < p->nchunks; ci++) {
        if (!p->chunk[ci])
            continue;
        for (uint32_t k = 0; k < PB_CHUNK; k++) {
            pblk *b = &p->chunk[ci][k];
            uint32_t block = ci * PB_CHUNK + k;
            if (b->twin)
                end_epoch(rt, block, b); /* the last write epoch: its ranges count too */
            if (!(b->cold | b->inval | b->upgrade))
                continue;
            put8(&w, R_CAUSE);
            put32(&w, block);
            put32(&w, b->cold);
            put32(&w, b->inval);
            put32(&w, b->upgrade);
            put64(&w, dsm_ticks_to_ns(b->first_tick, f));
            put64(&w, (uint64_t)((double)b->cold_wall * f));
            put64(&w, (uint64_t)((double)b->inval_wall * f));
            put64(&w, (uint64_t)((double)b->upgrade_wall * f));
        }
    }
    for (size_t i = 0; i < p->nep; i++) {
        const prof_epoch *e = &p->ep[i];
        put8(&w, R_EPOCH);
        put32(&w, e->block);
        put32(&w, (uint32_t)e->node); /* the writer: a home logs its remote writers' epochs */
        /* epochs of different nodes are ordered by time: ship nanoseconds */
        put64(&w, dsm_ticks_to_ns(e->t0, f));
        put64(&w, dsm_ticks_to_ns(e->t1, f));
        put32(&w, e->w.n);
        for (uint32_t r = 0; r < e->w.n; r++) {
            put32(&w, e->w.r[r].lo);
            put32(&w, e->w.r[r].hi);
        }
    }
    /* instructions: symbolized once each, then the (instruction, block) counts */
    uintptr_t *ips = NULL;
    size_t nips = 0;
    if (p->ipn) {
        ips = malloc(p->ipn * sizeof *ips);
        if (!ips)
            dsm_fatal("dsm_finalize", "out of memory for the profile data");
        for (size_t i = 0; i < p->ipcap; i++)
            if (p->ipt[i].used)
                ips[nips++] = p->ipt[i].ip;
    }
    pthread_mutex_unlock(&rt->eng_lock);
    /* distinct instructions, by a sort */
    qsort(ips, nips, sizeof *ips, cmp_ip);
    size_t nd = 0;
    for (size_t i = 0; i < nips; i++)
        if (!nd || ips[nd - 1] != ips[i])
            ips[nd++] = ips[i];
    for (size_t i = 0; i < nd; i++) {
        sym s = symbolize(ips[i], 0);
        put8(&w, R_IP);
        put32(&w, (uint32_t)i);
        puts_(&w, s.func);
        puts_(&w, s.file);
        put32(&w, s.line);
        sym_free(&s);
    }
    for (size_t i = 0; i < p->ipcap; i++) {
        const ip_ent *e = &p->ipt[i];
        if (!e->used)
            continue;
        size_t lo = 0, hi = nd;
        while (lo < hi) {
            size_t mid = (lo + hi) / 2;
            if (ips[mid] < e->ip)
                lo = mid + 1;
            else
                hi = mid;
        }
        put8(&w, R_MISS);
        put32(&w, (uint32_t)lo);
        put32(&w, e->block);
        put32(&w, e->reads);
        put32(&w, e->writes);
        put32(&w, e->upgrades);
        put64(&w, (uint64_t)((double)e->wall * f));
    }
    free(ips);
    pthread_mutex_lock(&rt->eng_lock);
    put8(&w, R_SLICES);
    put64(&w, p->ts_iv);
    put32(&w, (uint32_t)p->nts);
    for (size_t i = 0; i < p->nts; i++) {
        put64(&w, p->ts[i].misses);
        put64(&w, (uint64_t)((double)p->ts[i].wall * f));
        put64(&w, p->ts[i].barrier);
    }
    pthread_mutex_unlock(&rt->eng_lock);
    put8(&w, R_LOST);
    put64(&w, p->ep_dropped);
    put64(&w, p->twins_skipped);
    put8(&w, d != NULL); /* the session stays open: dsm/symbols.c keeps it */
    *len = w.len;
    return w.p;
}

void dsm_prof_receive(dsm_rt *rt, int src, const void *data, size_t len)
{
    dsm_prof *p = rt->prof;
    if (!p)
        dsm_fatal("dsm_finalize", "profile data from node %d, but DSM_PROFILE=off at node 0 "
                                  "(set it the same way on every node)", src);
    if (!p->rx && !(p->rx = calloc((size_t)rt->nnodes, sizeof *p->rx)))
        dsm_fatal("dsm_finalize", "out of memory gathering the profile");
    put(&p->rx[src], data, len);
}

/* ---- node 0: from the gathered records to the profile ---- */

typedef struct rbuf {
    const unsigned char *p;
    size_t len, at;
    int node;
} rbuf;

static void get(rbuf *r, void *x, size_t n)
{
    if (r->len - r->at < n)
        dsm_fatal("dsm_finalize", "truncated profile data from node %d", r->node);
    memcpy(x, r->p + r->at, n);
    r->at += n;
}

static uint8_t get8(rbuf *r) { uint8_t v; get(r, &v, 1); return v; }
static uint32_t get32(rbuf *r) { uint32_t v; get(r, &v, 4); return v; }
static uint64_t get64(rbuf *r) { uint64_t v; get(r, &v, 8); return v; }
static char *gets_(rbuf *r)
{
    uint32_t n = get32(r);
    if (r->len - r->at < n)
        dsm_fatal("dsm_finalize", "truncated profile data from node %d", r->node);
    char *s = malloc((size_t)n + 1);
    if (!s)
        dsm_fatal("dsm_finalize", "out of memory building the profile");
    memcpy(s, r->p + r->at, n);
    s[n] = '\0';
    r->at += n;
    return s;
}

#define VEC_PUSH(v, n, cap, x)                                                        \
    do {                                                                              \
        if ((n) == (cap)) {                                                           \
            size_t c_ = (cap) ? (cap) * 2 : 64;                                       \
            void *nv_ = realloc((v), c_ * sizeof *(v));                               \
            if (!nv_)                                                                 \
                dsm_fatal("dsm_finalize", "out of memory building the profile");      \
            (v) = nv_;                                                                \
            (cap) = c_;                                                               \
        }                                                                             \
        (v)[(n)++] = (x);                                                             \
    } while (0)

typedef struct g_alloc {
    size_t off, len;
    int node, collective;
    uint32_t seq;
    char *key;  /* bin key: "N" name or "S" path labels */
    char *name; /* named: the name; site: label of the site frame */
    sym site;
    char **path;
    size_t npath;
    int bin;
} g_alloc;

typedef struct g_cause {
    uint32_t block;
    int node;
    uint32_t cold, inval, upgrade;
    uint64_t first_ns, cold_wall, inval_wall, upgrade_wall;
} g_cause;

typedef struct g_miss {
    int proc;
    uint32_t block;
    profile_misses m;
} g_miss;

typedef struct g_ipsym {
    int proc;
    char *file;
    unsigned line;
    uint64_t misses;
} g_ipsym;

typedef struct builder {
    const dsm_stats_table *t;
    size_t bs;
    int nnodes;
    g_alloc *a;
    size_t na, capa, maxlen;
    g_cause *c;
    size_t nc, capc;
    prof_epoch *e;
    size_t ne, cape;
    g_miss *m;
    size_t nm, capm;
    profile_input in;
    size_t capproc;
    struct { uint64_t misses; } *proc_best; /* misses of the file:line kept per procedure */
    size_t nbins, unnamed;
    int32_t **bin_chunk; /* block -> bin, lazily chunked; -1: none */
    uint32_t nchunks;
    dsm_stats_pattern *pat; /* sorted by block */
    size_t npat;
    struct g_slices {
        uint64_t iv; /* ns */
        size_t n;
        tslice *s;   /* wall in ns here */
    } *sl;           /* [nnodes] */
} builder;

static int proc_index(builder *b, const char *func)
{
    for (size_t i = 0; i < b->in.nprocedures; i++)
        if (!strcmp(b->in.procedures[i].name, func))
            return (int)i;
    profile_procedure p;
    memset(&p, 0, sizeof p);
    p.name = xstrdup(func);
    p.file = xstrdup("");
    size_t cap = b->capproc;
    VEC_PUSH(b->in.procedures, b->in.nprocedures, b->capproc, p);
    if (cap != b->capproc) {
        void *v = realloc(b->proc_best, b->capproc * sizeof *b->proc_best);
        if (!v)
            dsm_fatal("dsm_finalize", "out of memory building the profile");
        b->proc_best = v;
    }
    b->proc_best[b->in.nprocedures - 1].misses = 0;
    return (int)b->in.nprocedures - 1;
}

static void parse_node(builder *b, rbuf *r, uint64_t *lost_ep, uint64_t *lost_tw, int *attrib)
{
    g_ipsym *ipv = NULL;
    size_t nip = 0, capip = 0;
    while (r->at < r->len) {
        uint8_t tag = get8(r);
        switch (tag) {
        case R_ALLOC: {
            g_alloc a;
            memset(&a, 0, sizeof a);
            a.off = get64(r);
            a.len = get64(r);
            a.collective = get8(r);
            a.seq = get32(r);
            a.node = r->node;
            if (get8(r) == 0) {
                a.name = gets_(r);
                if (asprintf(&a.key, "N%s", a.name) < 0)
                    dsm_fatal("dsm_finalize", "out of memory building the profile");
            } else {
                uint32_t nf = get32(r);
                a.path = calloc(nf ? nf : 1, sizeof *a.path);
                size_t klen = 2;
                for (uint32_t k = 0; k < nf; k++) {
                    sym s;
                    s.func = gets_(r);
                    s.file = gets_(r);
                    s.line = get32(r);
                    a.path[k] = frame_label(&s);
                    klen += strlen(a.path[k]) + 3;
                    if (k == 0)
                        a.site = s;
                    else
                        sym_free(&s);
                }
                a.npath = nf;
                a.key = malloc(klen);
                if (!a.path || !a.key)
                    dsm_fatal("dsm_finalize", "out of memory building the profile");
                strcpy(a.key, "S");
                for (uint32_t k = 0; k < nf; k++) {
                    if (k)
                        strcat(a.key, " < ");
                    strcat(a.key, a.path[k]);
                }
                a.name = xstrdup(nf ? a.path[0] : "(unknown site)");
            }
            if (a.len > b->maxlen)
                b->maxlen = a.len;
            VEC_PUSH(b->a, b->na, b->capa, a);
            break;
        }
        case R_CAUSE: {
            g_cause c;
            c.node = r->node;
            c.block = get32(r);
            c.cold = get32(r);
            c.inval = get32(r);
            c.upgrade = get32(r);
            c.first_ns = get64(r);
            c.cold_wall = get64(r);
            c.inval_wall = get64(r);
            c.upgrade_wall = get64(r);
            VEC_PUSH(b->c, b->nc, b->capc, c);
            break;
        }
        case R_EPOCH: {
            prof_epoch e;
            memset(&e, 0, sizeof e);
            e.block = get32(r);
            e.node = (int32_t)get32(r);
            if (e.node < 0 || e.node >= b->nnodes)
                dsm_fatal("dsm_finalize", "bad profile data from node %d", r->node);
            e.t0 = get64(r);
            e.t1 = get64(r);
            uint32_t n = get32(r);
            if (n > PROFILE_MAX_RANGES)
                dsm_fatal("dsm_finalize", "bad profile data from node %d", r->node);
            for (uint32_t k = 0; k < n; k++) {
                uint32_t lo = get32(r), hi = get32(r);
                profile_ranges_add(&e.w, lo, hi);
            }
            VEC_PUSH(b->e, b->ne, b->cape, e);
            break;
        }
        case R_IP: {
            uint32_t id = get32(r);
            char *func = gets_(r);
            g_ipsym s;
            s.file = gets_(r);
            s.line = get32(r);
            s.misses = 0;
            s.proc = proc_index(b, func);
            free(func);
            if (id != nip)
                dsm_fatal("dsm_finalize", "bad profile data from node %d", r->node);
            VEC_PUSH(ipv, nip, capip, s);
            break;
        }
        case R_MISS: {
            uint32_t id = get32(r);
            if (id >= nip)
                dsm_fatal("dsm_finalize", "bad profile data from node %d", r->node);
            g_miss m;
            m.proc = ipv[id].proc;
            m.block = get32(r);
            m.m.read_misses = get32(r);
            m.m.write_misses = get32(r);
            m.m.upgrades = get32(r);
            m.m.wall = get64(r);
            ipv[id].misses += m.m.read_misses + m.m.write_misses + m.m.upgrades;
            VEC_PUSH(b->m, b->nm, b->capm, m);
            break;
        }
        case R_SLICES: {
            struct g_slices *g = &b->sl[r->node];
            g->iv = get64(r);
            g->n = get32(r);
            if (!g->iv || g->n > TS_MAX || g->s)
                dsm_fatal("dsm_finalize", "bad profile data from node %d", r->node);
            g->s = calloc(g->n ? g->n : 1, sizeof *g->s);
            if (!g->s)
                dsm_fatal("dsm_finalize", "out of memory building the profile");
            for (size_t i = 0; i < g->n; i++) {
                g->s[i].misses = get64(r);
                g->s[i].wall = get64(r);
                g->s[i].barrier = get64(r);
            }
            break;
        }
        case R_LOST:
            *lost_ep += get64(r);
            *lost_tw += get64(r);
            if (!get8(r))
                *attrib = 0;
            break;
        default:
            dsm_fatal("dsm_finalize", "bad profile record %u from node %d", tag, r->node);
        }
    }
    /* each procedure's file:line: that of its instruction with most misses */
    for (size_t i = 0; i < nip; i++) {
        profile_procedure *p = &b->in.procedures[ipv[i].proc];
        if (ipv[i].misses > b->proc_best[ipv[i].proc].misses || !*p->file) {
            b->proc_best[ipv[i].proc].misses = ipv[i].misses;
            free(p->file);
            p->file = ipv[i].file;
            p->line = ipv[i].line;
        } else {
            free(ipv[i].file);
        }
    }
    free(ipv);
}

static int cmp_alloc_key(const void *x, const void *y)
{
    const g_alloc *a = *(g_alloc *const *)x, *b = *(g_alloc *const *)y;
    int c = strcmp(a->key, b->key);
    if (c)
        return c;
    return (a->off > b->off) - (a->off < b->off);
}

static int cmp_alloc_off(const void *x, const void *y)
{
    const g_alloc *a = x, *b = y;
    if (a->off != b->off)
        return (a->off > b->off) - (a->off < b->off);
    if (a->node != b->node)
        return a->node - b->node;
    return (a->seq > b->seq) - (a->seq < b->seq);
}

static int cmp_cause(const void *x, const void *y)
{
    const g_cause *a = x, *b = y;
    if (a->block != b->block)
        return (a->block > b->block) - (a->block < b->block);
    return (a->first_ns > b->first_ns) - (a->first_ns < b->first_ns);
}

static int cmp_epoch(const void *x, const void *y)
{
    const prof_epoch *a = x, *b = y;
    if (a->block != b->block)
        return (a->block > b->block) - (a->block < b->block);
    return (a->t0 > b->t0) - (a->t0 < b->t0);
}

static int cmp_pat(const void *x, const void *y)
{
    uint32_t a = ((const dsm_stats_pattern *)x)->block, b = ((const dsm_stats_pattern *)y)->block;
    return (a > b) - (a < b);
}

/* The bin of the allocation covering most of block (later allocations of a
 * reused range win ties), or -1. */
static int bin_by_overlap(builder *b, uint32_t block)
{
    size_t lo = (size_t)block * b->bs, hi = lo + b->bs;
    /* last allocation starting before hi */
    size_t l = 0, h = b->na;
    while (l < h) {
        size_t mid = (l + h) / 2;
        if (b->a[mid].off < hi)
            l = mid + 1;
        else
            h = mid;
    }
    int best = -1;
    size_t best_ov = 0;
    for (size_t i = l; i-- > 0;) {
        const g_alloc *a = &b->a[i];
        if (a->off + b->maxlen <= lo)
            break;
        size_t s = a->off > lo ? a->off : lo, e = a->off + a->len < hi ? a->off + a->len : hi;
        if (e > s && e - s >= best_ov) {
            if (e - s > best_ov || best < 0)
                best = a->bin;
            best_ov = e - s;
        }
    }
    return best;
}

static int32_t *bin_slot(builder *b, uint32_t block)
{
    uint32_t ci = block >> PB_SHIFT;
    if (ci >= b->nchunks)
        return NULL;
    if (!b->bin_chunk[ci]) {
        b->bin_chunk[ci] = malloc(PB_CHUNK * sizeof(int32_t));
        if (!b->bin_chunk[ci])
            dsm_fatal("dsm_finalize", "out of memory building the profile");
        for (uint32_t k = 0; k < PB_CHUNK; k++)
            b->bin_chunk[ci][k] = -1;
    }
    return &b->bin_chunk[ci][block & (PB_CHUNK - 1)];
}

/* Did any node count anything in the chunk of block? */
static int any_touched_chunk(const dsm_stats_table *t, uint32_t block)
{
    for (int n = 0; n < t->nnodes; n++)
        if (t->node[n] && counters_chunk_used(t->node[n], block))
            return 1;
    return 0;
}

static int bin_of(builder *b, uint32_t block)
{
    uint32_t ci = block >> PB_SHIFT;
    if (ci >= b->nchunks || !b->bin_chunk[ci])
        return -1;
    return b->bin_chunk[ci][block & (PB_CHUNK - 1)];
}

/* A touched block outside every allocation joins "(unnamed)". */
static int bin_touch(builder *b, uint32_t block)
{
    int x = bin_of(b, block);
    if (x >= 0)
        return x;
    int32_t *s = bin_slot(b, block);
    if (!s)
        return -1;
    *s = (int32_t)b->unnamed;
    return *s;
}

static const dsm_stats_pattern *pattern_of(builder *b, uint32_t block)
{
    size_t lo = 0, hi = b->npat;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (b->pat[mid].block < block)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < b->npat && b->pat[lo].block == block ? &b->pat[lo] : NULL;
}

static uint64_t block_misses(const uint64_t *v)
{
    return v[CM_STACHE_READ_MISSES] + v[CM_HOME_READ_MISSES] + v[CM_STACHE_WRITE_RO] +
           v[CM_HOME_WRITE_RO] + v[CM_STACHE_WRITE_INV] + v[CM_HOME_WRITE_INV];
}

static const profile_structure *sort_perm_s;
static int cmp_struct_perm(const void *x, const void *y)
{
    const profile_structure *a = &sort_perm_s[*(const size_t *)x],
                            *b = &sort_perm_s[*(const size_t *)y];
    uint64_t ta = a->metrics[CM_MEMORY_BLOCK_TIME], tb = b->metrics[CM_MEMORY_BLOCK_TIME];
    if (ta != tb)
        return ta < tb ? 1 : -1;
    uint64_t ma = block_misses(a->metrics), mb = block_misses(b->metrics);
    if (ma != mb)
        return ma < mb ? 1 : -1;
    return strcmp(a->name, b->name);
}

static int cmp_proc_wall(const void *x, const void *y)
{
    const profile_misses *a = x, *b = y; /* first member of both element types */
    if (a->wall != b->wall)
        return a->wall < b->wall ? 1 : -1;
    uint64_t ma = a->read_misses + a->write_misses + a->upgrades,
             mb = b->read_misses + b->write_misses + b->upgrades;
    return (ma < mb) - (ma > mb);
}

static int cmp_procedure(const void *x, const void *y)
{
    return cmp_proc_wall(&((const profile_procedure *)x)->m, &((const profile_procedure *)y)->m);
}

static int cmp_pair(const void *x, const void *y)
{
    return cmp_proc_wall(&((const profile_pair *)x)->m, &((const profile_pair *)y)->m);
}

static int cmp_pair_key(const void *x, const void *y)
{
    const g_miss *a = x, *b = y;
    if (a->proc != b->proc)
        return a->proc - b->proc;
    return (a->block > b->block) - (a->block < b->block);
}

static void misses_add(profile_misses *d, const profile_misses *s)
{
    d->read_misses += s->read_misses;
    d->write_misses += s->write_misses;
    d->upgrades += s->upgrades;
    d->wall += s->wall;
}

typedef struct fs_cand {
    uint32_t block;
    uint64_t transfers;
    profile_ranges *writers;
} fs_cand;

static int cmp_fs_cand(const void *x, const void *y)
{
    const fs_cand *a = x, *b = y;
    if (a->transfers != b->transfers)
        return a->transfers < b->transfers ? 1 : -1;
    return (a->block > b->block) - (a->block < b->block);
}

static void build(builder *b)
{
    const dsm_stats_table *t = b->t;
    int nn = b->nnodes;
    profile_input *in = &b->in;

    /* bins: one per name, one per site + call path, then "(unnamed)" */
    g_alloc **byk = malloc((b->na ? b->na : 1) * sizeof *byk);
    if (!byk)
        dsm_fatal("dsm_finalize", "out of memory building the profile");
    for (size_t i = 0; i < b->na; i++)
        byk[i] = &b->a[i];
    qsort(byk, b->na, sizeof *byk, cmp_alloc_key);
    size_t nbins = 0;
    for (size_t i = 0; i < b->na; i++) {
        if (i && !strcmp(byk[i]->key, byk[i - 1]->key))
            byk[i]->bin = byk[i - 1]->bin;
        else
            byk[i]->bin = (int)nbins++;
    }
    b->nbins = nbins + 1;
    b->unnamed = nbins;
    in->structures = calloc(b->nbins, sizeof *in->structures);
    if (!in->structures)
        dsm_fatal("dsm_finalize", "out of memory building the profile");
    in->nstructures = b->nbins;
    for (size_t i = 0; i < b->na; i++) {
        profile_structure *s = &in->structures[byk[i]->bin];
        const g_alloc *a = byk[i];
        s->bytes += a->len;
        s->allocations++;
        if (s->name)
            continue;
        if (a->key[0] == 'N') {
            s->name = xstrdup(a->name);
            s->kind = "named";
        } else {
            s->kind = "site";
            s->site_function = xstrdup(a->site.func);
            s->site_file = xstrdup(a->site.file);
            s->site_line = a->site.line;
            s->path = calloc(a->npath ? a->npath : 1, sizeof *s->path);
            if (!s->path)
                dsm_fatal("dsm_finalize", "out of memory building the profile");
            for (size_t k = 0; k < a->npath; k++)
                s->path[k] = xstrdup(a->path[k]);
            s->npath = a->npath;
            s->name = xstrdup(a->name);
        }
    }
    free(byk);
    /* the same site reached by different paths: distinct names */
    for (size_t i = 0; i < nbins; i++) {
        int dup = 0;
        for (size_t j = 0; j < i; j++)
            if (!strcmp(in->structures[j].name, in->structures[i].name))
                dup++;
        if (dup) {
            char *n;
            if (asprintf(&n, "%s [path %d]", in->structures[i].name, dup + 1) < 0)
                dsm_fatal("dsm_finalize", "out of memory building the profile");
            free(in->structures[i].name);
            in->structures[i].name = n;
        }
    }
    in->structures[b->unnamed].name = xstrdup("(unnamed)");
    in->structures[b->unnamed].kind = "unnamed";
    for (size_t i = 0; i < b->nbins; i++) {
        profile_structure *s = &in->structures[i];
        s->per_node = calloc((size_t)nn * CM_NBLOCK_METRICS, sizeof *s->per_node);
        s->causes_per_node = calloc((size_t)nn, sizeof *s->causes_per_node);
        s->fs_written = calloc((size_t)nn, sizeof *s->fs_written);
        if (!s->per_node || !s->causes_per_node || !s->fs_written)
            dsm_fatal("dsm_finalize", "out of memory building the profile");
    }

    /* block -> bin for every block of every allocation */
    qsort(b->a, b->na, sizeof *b->a, cmp_alloc_off);
    b->nchunks = (t->nblocks + PB_CHUNK - 1) / PB_CHUNK;
    b->bin_chunk = calloc(b->nchunks ? b->nchunks : 1, sizeof *b->bin_chunk);
    if (!b->bin_chunk)
        dsm_fatal("dsm_finalize", "out of memory building the profile");
    size_t *first_off = malloc(b->nbins * sizeof *first_off);
    if (!first_off)
        dsm_fatal("dsm_finalize", "out of memory building the profile");
    for (size_t i = 0; i < b->nbins; i++)
        first_off[i] = SIZE_MAX;
    for (size_t i = 0; i < b->na; i++) {
        const g_alloc *a = &b->a[i];
        if (a->off < first_off[a->bin])
            first_off[a->bin] = a->off;
        uint32_t b0 = (uint32_t)(a->off / b->bs);
        uint32_t b1 = (uint32_t)((a->off + (a->len ? a->len : 1) - 1) / b->bs);
        for (uint32_t k = b0; k <= b1 && k < t->nblocks; k++) {
            int32_t *s = bin_slot(b, k);
            if (s && *s < 0)
                *s = bin_by_overlap(b, k);
        }
    }
    /* touched blocks outside allocations */
    for (uint32_t k = 0; k < t->nblocks; k++) {
        if (!any_touched_chunk(t, k)) {
            k |= COUNTERS_CHUNK - 1;
            continue;
        }
        for (int n = 0; n < nn; n++)
            if (t->node[n] && counters_get(t->node[n], CM_PAGE_FAULTS, k)) {
                bin_touch(b, k);
                break;
            }
    }
    for (size_t i = 0; i < b->nc; i++)
        bin_touch(b, b->c[i].block);
    for (size_t i = 0; i < b->ne; i++)
        bin_touch(b, b->e[i].block);
    for (size_t i = 0; i < b->nm; i++)
        if (b->m[i].block != NO_BLOCK)
            bin_touch(b, b->m[i].block);
    size_t uo = SIZE_MAX; /* "(unnamed)" starts at its first block */

    /* per block: counters, patterns; pass 1 counts blocks per bin */
    b->npat = t->npat;
    b->pat = malloc((t->npat ? t->npat : 1) * sizeof *b->pat);
    if (!b->pat)
        dsm_fatal("dsm_finalize", "out of memory building the profile");
    memcpy(b->pat, t->pat, t->npat * sizeof *b->pat);
    qsort(b->pat, b->npat, sizeof *b->pat, cmp_pat);
    for (uint32_t ci = 0; ci < b->nchunks; ci++) {
        if (!b->bin_chunk[ci])
            continue;
        for (uint32_t k = 0; k < PB_CHUNK; k++) {
            int x = b->bin_chunk[ci][k];
            if (x < 0)
                continue;
            in->structures[x].nblocks++;
            if ((size_t)x == b->unnamed && uo == SIZE_MAX)
                uo = (size_t)(ci * PB_CHUNK + k) * b->bs;
        }
    }
    first_off[b->unnamed] = uo == SIZE_MAX ? 0 : uo;
    for (size_t i = 0; i < b->nbins; i++) {
        profile_structure *s = &in->structures[i];
        if (s->nblocks <= PROFILE_BLOCKS_LIMIT) {
            s->blocks = calloc(s->nblocks ? s->nblocks : 1, sizeof *s->blocks);
            if (!s->blocks)
                dsm_fatal("dsm_finalize", "out of memory building the profile");
        }
    }
    if (b->unnamed < b->nbins)
        in->structures[b->unnamed].bytes =
            (uint64_t)in->structures[b->unnamed].nblocks * b->bs;
    uint64_t v[CM_NBLOCK_METRICS];
    for (uint32_t ci = 0; ci < b->nchunks; ci++) {
        if (!b->bin_chunk[ci])
            continue;
        for (uint32_t k = 0; k < PB_CHUNK; k++) {
            int x = b->bin_chunk[ci][k];
            if (x < 0)
                continue;
            uint32_t blk = ci * PB_CHUNK + k;
            profile_structure *s = &in->structures[x];
            memset(v, 0, sizeof v);
            for (int n = 0; n < nn; n++) {
                const counters *c = t->node[n];
                if (!c || !counters_chunk_used(c, blk))
                    continue;
                for (int m = 0; m < CM_NBLOCK_METRICS; m++) {
                    uint64_t y = counters_get(c, m, blk);
                    v[m] += y;
                    s->per_node[(size_t)n * CM_NBLOCK_METRICS + m] += y;
                }
            }
            for (int m = 0; m < CM_NBLOCK_METRICS; m++)
                s->metrics[m] += v[m];
            const dsm_stats_pattern *pr = pattern_of(b, blk);
            int dom = pr ? (int)proto_dominant_pattern(pr->p.detections) : PP_NONE;
            s->patterns[dom]++;
            if (s->blocks) {
                profile_block *pb = &s->blocks[s->nblocks_listed++];
                pb->index = blk;
                size_t bo = (size_t)blk * b->bs;
                pb->offset = bo >= first_off[x] ? bo - first_off[x] : 0;
                pb->misses = block_misses(v);
                pb->memory_block_time = v[CM_MEMORY_BLOCK_TIME];
                pb->invalidations = v[CM_INV_RO] + v[CM_INV_RW];
                pb->dominant = dom;
                pb->group_id = pr ? pr->p.group_id : -1;
                if (pr)
                    memcpy(pb->detections, pr->p.detections, sizeof pb->detections);
            }
        }
    }

    /* miss causes; the warm bit: the earliest cold miss of a block */
    qsort(b->c, b->nc, sizeof *b->c, cmp_cause);
    uint32_t last_block = NO_BLOCK;
    for (size_t i = 0; i < b->nc; i++) {
        const g_cause *c = &b->c[i];
        int x = bin_of(b, c->block);
        if (x < 0)
            continue;
        profile_causes pc = { c->cold, 0, c->inval, c->upgrade, c->cold_wall, c->inval_wall,
                              c->upgrade_wall };
        if (c->cold && c->block != last_block) {
            pc.cold_first_touch = 1;
            last_block = c->block;
        }
        profile_structure *s = &in->structures[x];
        profile_causes_add(&s->causes, &pc);
        profile_causes_add(&s->causes_per_node[c->node], &pc);
        if (s->blocks) {
            /* listed blocks are in block order */
            size_t lo = 0, hi = s->nblocks_listed;
            while (lo < hi) {
                size_t mid = (lo + hi) / 2;
                if (s->blocks[mid].index < c->block)
                    lo = mid + 1;
                else
                    hi = mid;
            }
            if (lo < s->nblocks_listed && s->blocks[lo].index == c->block)
                profile_causes_add(&s->blocks[lo].causes, &pc);
        }
    }

    /* false sharing: consecutive write epochs of a block at different nodes */
    qsort(b->e, b->ne, sizeof *b->e, cmp_epoch);
    fs_cand **cand = calloc(b->nbins, sizeof *cand);
    size_t *ncand = calloc(b->nbins, sizeof *ncand), *capcand = calloc(b->nbins, sizeof *capcand);
    if (!cand || !ncand || !capcand)
        dsm_fatal("dsm_finalize", "out of memory building the profile");
    for (size_t i = 0; i < b->ne;) {
        size_t j = i;
        while (j < b->ne && b->e[j].block == b->e[i].block)
            j++;
        uint32_t blk = b->e[i].block;
        int x = bin_of(b, blk);
        fs_cand fc = { blk, 0, NULL };
        const prof_epoch *prev = NULL;
        for (size_t k = i; x >= 0 && k < j; k++) {
            const prof_epoch *e = &b->e[k];
            if (!e->w.n)
                continue; /* wrote nothing that changed: no evidence either way */
            if (prev && prev->node != e->node) {
                profile_structure *s = &in->structures[x];
                if (profile_ranges_overlap(&prev->w, &e->w)) {
                    s->ts_transfers++;
                } else {
                    s->fs_transfers++;
                    fc.transfers++;
                    if (!fc.writers && !(fc.writers = calloc((size_t)nn, sizeof *fc.writers)))
                        dsm_fatal("dsm_finalize", "out of memory building the profile");
                    const prof_epoch *pe[2] = { prev, e };
                    for (int q = 0; q < 2; q++)
                        for (uint32_t r = 0; r < pe[q]->w.n; r++) {
                            profile_ranges_add(&fc.writers[pe[q]->node], pe[q]->w.r[r].lo,
                                               pe[q]->w.r[r].hi);
                            profile_ranges_add(&s->fs_written[pe[q]->node], pe[q]->w.r[r].lo,
                                               pe[q]->w.r[r].hi);
                        }
                }
            }
            prev = e;
        }
        if (fc.transfers) {
            VEC_PUSH(cand[x], ncand[x], capcand[x], fc);
            profile_structure *s = &in->structures[x];
            for (size_t q = 0; s->blocks && q < s->nblocks_listed; q++)
                if (s->blocks[q].index == blk)
                    s->blocks[q].fs_transfers = fc.transfers;
        }
        i = j;
    }
    for (size_t x = 0; x < b->nbins; x++) {
        profile_structure *s = &in->structures[x];
        /* the most transferred first */
        qsort(cand[x], ncand[x], sizeof *cand[x], cmp_fs_cand);
        size_t keep = ncand[x] < PROFILE_FS_BLOCKS ? ncand[x] : PROFILE_FS_BLOCKS;
        s->fs_blocks = keep ? calloc(keep, sizeof *s->fs_blocks) : NULL;
        if (keep && !s->fs_blocks)
            dsm_fatal("dsm_finalize", "out of memory building the profile");
        for (size_t q = 0; q < keep; q++) {
            profile_fs_block *fb = &s->fs_blocks[q];
            fb->index = cand[x][q].block;
            size_t bo = (size_t)fb->index * b->bs;
            fb->offset = bo >= first_off[x] ? bo - first_off[x] : 0;
            fb->transfers = cand[x][q].transfers;
            fb->writers = cand[x][q].writers;
        }
        s->nfs_blocks = keep;
        for (size_t q = keep; q < ncand[x]; q++)
            free(cand[x][q].writers);
        free(cand[x]);
    }
    free(cand);
    free(ncand);
    free(capcand);
    free(first_off);

    /* procedures and (procedure, structure) pairs */
    for (size_t i = 0; i < b->nm; i++)
        misses_add(&in->procedures[b->m[i].proc].m, &b->m[i].m);
    for (size_t i = 0; i < b->nm; i++) /* block -> bin, so pairs group by (proc, bin) */
        b->m[i].block = b->m[i].block == NO_BLOCK ? NO_BLOCK : (uint32_t)bin_of(b, b->m[i].block);
    qsort(b->m, b->nm, sizeof *b->m, cmp_pair_key);
    size_t cappair = 0;
    for (size_t i = 0; i < b->nm; i++) {
        if (b->m[i].block == NO_BLOCK || b->m[i].block == (uint32_t)-1)
            continue;
        if (in->npairs && in->pairs[in->npairs - 1].procedure == (size_t)b->m[i].proc &&
            in->pairs[in->npairs - 1].structure == b->m[i].block) {
            misses_add(&in->pairs[in->npairs - 1].m, &b->m[i].m);
            continue;
        }
        profile_pair p = { (size_t)b->m[i].proc, b->m[i].block, b->m[i].m };
        VEC_PUSH(in->pairs, in->npairs, cappair, p);
    }

    /* orders: structures by memory blocking time; procedures and pairs by wall */
    size_t *perm = malloc(b->nbins * sizeof *perm), *inv = malloc(b->nbins * sizeof *inv);
    profile_structure *sorted = malloc(b->nbins * sizeof *sorted);
    if (!perm || !inv || !sorted)
        dsm_fatal("dsm_finalize", "out of memory building the profile");
    for (size_t i = 0; i < b->nbins; i++)
        perm[i] = i;
    sort_perm_s = in->structures;
    qsort(perm, b->nbins, sizeof *perm, cmp_struct_perm);
    for (size_t i = 0; i < b->nbins; i++) {
        sorted[i] = in->structures[perm[i]];
        inv[perm[i]] = i;
    }
    free(in->structures);
    in->structures = sorted;
    for (size_t i = 0; i < in->npairs; i++)
        in->pairs[i].structure = inv[in->pairs[i].structure];
    /* drop "(unnamed)" when nothing fell in it */
    if (in->nstructures && !in->structures[inv[b->unnamed]].nblocks) {
        size_t u = inv[b->unnamed];
        profile_structure gone = in->structures[u];
        memmove(&in->structures[u], &in->structures[u + 1],
                (in->nstructures - u - 1) * sizeof *in->structures);
        in->structures[in->nstructures - 1] = gone;
        for (size_t i = 0; i < in->npairs; i++)
            if (in->pairs[i].structure > u)
                in->pairs[i].structure--;
        in->nstructures--;
        free(gone.name);
        free(gone.per_node);
        free(gone.causes_per_node);
        free(gone.fs_written);
        free(gone.fs_blocks);
        free(gone.blocks);
        b->unnamed = SIZE_MAX;
    }
    free(perm);
    free(inv);
    size_t *pperm = malloc((in->nprocedures ? in->nprocedures : 1) * sizeof *pperm);
    profile_procedure *ps = malloc((in->nprocedures ? in->nprocedures : 1) * sizeof *ps);
    if (!pperm || !ps)
        dsm_fatal("dsm_finalize", "out of memory building the profile");
    memcpy(ps, in->procedures, in->nprocedures * sizeof *ps);
    /* sort procedures, remembering where each went (pairs refer to them) */
    for (size_t i = 0; i < in->nprocedures; i++)
        ps[i].line = (unsigned)i; /* temporarily: the old index */
    unsigned *lines = malloc((in->nprocedures ? in->nprocedures : 1) * sizeof *lines);
    if (!lines)
        dsm_fatal("dsm_finalize", "out of memory building the profile");
    for (size_t i = 0; i < in->nprocedures; i++)
        lines[i] = in->procedures[i].line;
    qsort(ps, in->nprocedures, sizeof *ps, cmp_procedure);
    for (size_t i = 0; i < in->nprocedures; i++) {
        pperm[ps[i].line] = i;
        ps[i].line = lines[ps[i].line];
    }
    free(lines);
    free(in->procedures);
    in->procedures = ps;
    for (size_t i = 0; i < in->npairs; i++)
        in->pairs[i].procedure = pperm[in->pairs[i].procedure];
    free(pperm);
    qsort(in->pairs, in->npairs, sizeof *in->pairs, cmp_pair);
}

static void builder_free(builder *b)
{
    for (size_t i = 0; i < b->na; i++) {
        g_alloc *a = &b->a[i];
        free(a->key);
        free(a->name);
        sym_free(&a->site);
        for (size_t k = 0; k < a->npath; k++)
            free(a->path[k]);
        free(a->path);
    }
    free(b->a);
    free(b->c);
    free(b->e);
    free(b->m);
    free(b->proc_best);
    for (uint32_t i = 0; b->bin_chunk && i < b->nchunks; i++)
        free(b->bin_chunk[i]);
    free(b->bin_chunk);
    free(b->pat);
    for (int n = 0; b->sl && n < b->nnodes; n++)
        free(b->sl[n].s);
    free(b->sl);
}

/* The nodes' timeslices on the coarsest interval any node ended with (each
 * is the base interval times a power of two, so slices merge exactly), up to
 * the end of the job. */
static void build_slices(builder *b, uint64_t job_ns)
{
    uint64_t iv = 0;
    int nn = b->nnodes;
    for (int n = 0; n < nn; n++)
        if (b->sl[n].iv > iv)
            iv = b->sl[n].iv;
    if (!iv)
        return;
    size_t ns = (size_t)((job_ns + iv - 1) / iv);
    for (int n = 0; n < nn; n++)
        if (b->sl[n].iv && (b->sl[n].n * b->sl[n].iv + iv - 1) / iv > ns)
            ns = (size_t)((b->sl[n].n * b->sl[n].iv + iv - 1) / iv);
    b->in.slice_seconds = (double)iv / 1e9;
    b->in.nslices = ns;
    b->in.slices = calloc((ns ? ns : 1) * (size_t)nn, sizeof *b->in.slices);
    if (!b->in.slices)
        dsm_fatal("dsm_finalize", "out of memory building the profile");
    for (int n = 0; n < nn; n++) {
        const struct g_slices *g = &b->sl[n];
        for (size_t i = 0; g->iv && i < g->n; i++) {
            profile_slice *d = &b->in.slices[(size_t)(i * g->iv / iv) * (size_t)nn + (size_t)n];
            d->misses += g->s[i].misses;
            d->memory_block_time += g->s[i].wall;
            d->barrier_wait += g->s[i].barrier;
        }
    }
}

void dsm_prof_finish(dsm_rt *rt, const dsm_stats_table *t)
{
    dsm_prof *p = rt->prof;
    builder b;
    memset(&b, 0, sizeof b);
    b.t = t;
    b.bs = rt->region.block_size;
    b.nnodes = rt->nnodes;
    b.in.nnodes = rt->nnodes;
    b.in.block_size = rt->region.block_size;
    b.in.wall_seconds = (double)(dsm_now_ns() - rt->clock_base_ns) / 1e9;
    b.in.counters_on = t->counters_on;
    b.in.patterns_on = t->patterns_on;
    b.in.code_attribution = 1;
    b.sl = calloc((size_t)rt->nnodes, sizeof *b.sl);
    if (!b.sl)
        dsm_fatal("dsm_finalize", "out of memory building the profile");
    for (int n = 0; n < rt->nnodes; n++) {
        if (!p->rx || !p->rx[n].len)
            dsm_fatal("dsm_finalize", "no profile data arrived from node %d", n);
        rbuf r = { p->rx[n].p, p->rx[n].len, 0, n };
        parse_node(&b, &r, &b.in.epochs_dropped, &b.in.twins_skipped, &b.in.code_attribution);
        free(p->rx[n].p);
        p->rx[n] = (rxbuf){ 0 };
    }
    b.in.node_metrics = calloc((size_t)rt->nnodes * CM_NMETRICS, sizeof *b.in.node_metrics);
    if (!b.in.node_metrics)
        dsm_fatal("dsm_finalize", "out of memory building the profile");
    for (int n = 0; n < rt->nnodes; n++)
        for (int m = 0; t->node[n] && m < CM_NMETRICS; m++)
            b.in.node_metrics[(size_t)n * CM_NMETRICS + m] = counters_total(t->node[n], m);
    build(&b);
    uint64_t now = dsm_now_ns();
    build_slices(&b, now > rt->clock_base_ns ? now - rt->clock_base_ns : 0);
    char err[256];
    int bad = profile_write_json(&b.in, p->path, err, sizeof err);
    if (bad)
        fprintf(stderr, "dsm: node 0: dsm_finalize: cannot write the profile DSM_PROFILE=%s: %s\n",
                p->path, err);
    if (rt->cfg.profile_summary) {
        profile_print_summary(&b.in, bad ? NULL : p->path, stderr);
        /* the first finding of the bottleneck search, from the file itself
         * so that it reads exactly as dsmprof advice would */
        json_object *prof = bad ? NULL : json_object_from_file(p->path);
        char line[1024];
        if (prof && advice_summary_line(prof, line, sizeof line) > 0)
            fprintf(stderr, "dsm profile: advice: %s\n", line);
        json_object_put(prof);
    }
    profile_input_free(&b.in);
    builder_free(&b);
}
