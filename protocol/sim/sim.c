/* sim.c - the machine core: P simulated processors, each a cache model
 * (cache.h) in front of one node of the coherence engine (proto.h), an
 * event queue (evq.h) and the machine's timing model (timing.h).  See sim.h
 * for how the front end drives it and doc/simulation.md for the model.
 *
 * A hit is handled here without the engine (the cache line keeps the access
 * right the engine last gave).  A miss or an upgrade picks a victim way,
 * evicts the victim through the engine (proto_evict, when the engine has
 * it), and asks the engine (proto_access).  The actions the engine returns
 * are performed here: PA_SEND becomes a message (fixed-latency machines:
 * delivered at once, in FIFO order, within the same call; message-timed
 * machines: an event after net_delay, handled after the receiving
 * controller's queue), PA_SET_ACCESS updates the cache line (NONE from an
 * INV or RECALL removes it: an invalidation), PA_COMPLETE for the block a
 * processor is stalled on fills the line, performs the access (its bytes
 * are touched) and releases the engine's hold at once.
 *
 * Miss causes (MemSpy 4.2.7): each processor keeps, per line it ever held,
 * why the line last left its cache: replaced (with the bin whose fill
 * evicted it, 4.2.8), invalidated (with the true/false sharing verdict), or
 * unknown (it left while the statistics window was closed).  A line never
 * held is a cold miss.
 *
 * False sharing (MemSpy 4.2.7, as the thesis defines it): when another
 * processor's request takes a line away, the invalidation is false sharing
 * if none of the bytes that request references (the requester's reference
 * that missed: address and size) was touched by this processor since the
 * line entered its cache; otherwise true sharing.  The verdict is decided at
 * the invalidation and reported with the next miss on that line.
 *
 * Pure: no I/O, no threads, no clocks. */
#include "sim/sim.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "growable.h"
#include "proto.h"
#include "sim/cache.h"
#include "sim/evq.h"
#include "sim/timing.h"


/* Why a line last left a processor's cache (departure record). */
enum { DEP_NEVER = 0, DEP_REPLACED, DEP_INVALIDATED, DEP_UNKNOWN };
/* A departure record packs why (bits 0-2), false sharing (bit 4) and the
 * evicting bin + 1 (bits 8-31); kept in chunks allocated on first use. */
#define DEP_CHUNK_SHIFT 12
#define DEP_CHUNK (1u << DEP_CHUNK_SHIFT)
#define DEP_FS 0x10u

#define SIM_MAX_DEPTH 16
#define SIM_MAX_COLLECTORS 8

/* One miss in flight of a processor: the one it stalls on, or one it went
 * on past (message-timed machines, sim_params.outstanding > 1): a store the
 * write buffer holds, or a load whose value is not needed yet (load_use). */
typedef struct sim_pending {
    uint8_t active;          /* a miss in flight on `block` */
    uint8_t is_write;
    uint8_t posted;          /* the processor did not wait for it (a buffered store, or
                                a load not yet used) */
    uint64_t use_by;         /* the processor needs the line's value at its reference
                                number use_by (sim_fast.refs): a posted load, or a
                                store a later load joined; 0: never (a store) */
    int done;                /* the miss has been granted */
    int served;              /* the home has sent the grant */
    uint64_t req_seq;        /* order in which its request reached the home (0: not yet) */
    uint32_t block;          /* line missed */
    uintptr_t miss_addr;     /* bytes of the reference in that line */
    uint32_t miss_len;
    sim_miss miss;           /* record of the miss */
} sim_pending;

#define SIM_MAX_POSTED ((int)SIM_MAX_OUTSTANDING - 1)
/* wait_block of a processor at a fence: until the write buffer is empty */
#define WAIT_DRAIN (SIM_LINE_EMPTY - 1)

typedef struct sim_proc {
    sim_fast f;              /* clock, cache and counters: what the hit path uses */
    proto_engine *eng;
    uint64_t **dep;          /* departure records, per chunk of blocks (dep_set) */
    sim_pending stall;       /* the miss the processor waits for */
    sim_pending posted[SIM_MAX_POSTED]; /* stores in the write buffer */
    int nposted;             /* active entries of posted[] */
    int nuse;                /* ... of which with a use_by */
    uint32_t wait_block;     /* stalled until the buffered store to this line
                                completes (SIM_LINE_EMPTY: not waiting on one) */
    int had_miss;            /* the reference in progress missed at least once */
    uint64_t unknown_hits;   /* sim_unknown_hits */
    /* the reference in progress: what remains of it, and the line missed */
    uintptr_t rest_addr;
    uint32_t rest_size;
    uint8_t is_write;
    int procedure;
    int last_procedure;      /* procedure of the previous reference (switch detection) */
    int in_section;          /* between its sim_section_begin and sim_section_end */
    uint64_t private_refs, private_misses; /* sim_ref_private */
} sim_proc;

typedef struct sim_bin_range {
    uintptr_t start, end;
    int id;
} sim_bin_range;

typedef struct sim_collector {
    sim_miss_fn fn;
    void *arg;
} sim_collector;

struct sim_machine {
    sim_params p;
    const sim_timing_ops *ops;
    void *model;
    int fixed;
    sim_time sample_refs;    /* sample_unit=refs: references simulated or skipped so far */
    uintptr_t base;
    size_t bytes;
    uint32_t nblocks;
    unsigned line_shift, page_shift; /* page_shift: log2 of lines per page */
    int nprocs;
    sim_proc *procs;
    sim_evq q;
    proto_actions acts[SIM_MAX_DEPTH];
    int depth;
    proto_msg *inq;          /* fixed latency: messages not yet delivered */
    size_t inq_head, inq_len, inq_cap;
    int inline_requester;    /* fixed latency: the processor whose miss is being served */
    uint64_t home_seq;
    sim_time *pair_last;     /* message timed: last arrival per (src, dst) */
    sim_time *ctrl_busy;     /* message timed: controller busy until */
    uint8_t *warm;           /* per block: some processor has touched it */
    int32_t *page_home;      /* per page: its home (never placed: round robin) */
    uint8_t *page_live;      /* per page: the engines know its home */
    uint64_t npages;
    char **bin_names;
    sim_bin_range *bins;     /* sorted by start */
    int nbins;
    size_t bins_cap, names_cap;
    sim_collector collectors[SIM_MAX_COLLECTORS];
    int ncollectors;
    sim_ref_fn ref_fn;       /* sim_on_ref: every line of every reference */
    void *ref_arg;
    sim_time now;
    sim_section section;     /* the measured section (sim_section_begin/end) */
    int inside_section;      /* processors between their begin and end */
    int failed;
    char err[256];
};

static void fast_path_update(const sim_machine *m, sim_proc *pr);

static void fail(sim_machine *m, int rc, const char *fmt, ...)
{
    if (m->failed)
        return;
    m->failed = rc ? rc : PROTO_EINVAL;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(m->err, sizeof m->err, fmt, ap);
    va_end(ap);
}

/* Simulated time past SIM_CLOCK_LIMIT ends the run (sim.h: the bound that
 * keeps every time far from wrapping); 1 when it did. */
static int past_clock_limit(sim_machine *m, sim_time t, int proc)
{
    if (t <= SIM_CLOCK_LIMIT)
        return 0;
    fail(m, PROTO_EINVAL,
         "simulated time passed %llu cycles (2^52, the limit) on processor %d: the run is "
         "too long for the machine's costs",
         (unsigned long long)SIM_CLOCK_LIMIT, proc);
    return 1;
}

/* Queue an event; its time is checked against the limit. */
static void push_event(sim_machine *m, const sim_event *ev)
{
    if (past_clock_limit(m, ev->time, ev->node))
        return;
    if (sim_evq_push(&m->q, ev))
        fail(m, PROTO_ENOMEM, "out of memory queueing an event");
}

static inline int stats_on_at(const sim_machine *m, sim_time t)
{
    if (!m->p.sample_period)
        return 1;
    if (m->procs[0].f.ref_unit) /* windows in references: the last one counted's */
        t = m->sample_refs ? m->sample_refs - 1 : 0;
    uint64_t k = t / m->p.sample_period;
    uint64_t into = t - k * m->p.sample_period;
    uint64_t open = sim_window_offset(m->p.sample_period, m->p.sample_length, m->p.sample_random, k);
    return into >= open && into - open < m->p.sample_length;
}

static inline int log2u(uint64_t v)
{
    int s = 0;
    while ((1ull << s) < v)
        s++;
    return s;
}

/* ---------------- parameters, creation ---------------- */

sim_machine *sim_create(const sim_params *p, uintptr_t base, size_t bytes, char *err,
                        size_t errlen)
{
    if (!p) {
        snprintf(err, errlen, "no machine parameters");
        return NULL;
    }
    return sim_create_model(p, sim_timing_find(p->machine), base, bytes, err, errlen);
}

sim_machine *sim_create_model(const sim_params *p, const sim_timing_ops *ops, uintptr_t base,
                              size_t bytes, char *err, size_t errlen)
{
    if (!p) {
        snprintf(err, errlen, "no machine parameters");
        return NULL;
    }
    if (!ops || sim_params_check_shape(p, err, errlen)) {
        if (!ops)
            snprintf(err, errlen, "unknown machine '%s'", p->machine);
        return NULL;
    }
    if (bytes == 0) {
        snprintf(err, errlen, "machine '%s': the simulated region is empty", p->machine);
        return NULL;
    }
    uint64_t nblocks = (bytes + p->line_size - 1) / p->line_size;
    if (nblocks > UINT32_MAX - 1) {
        snprintf(err, errlen, "machine '%s': a region of %zu bytes has too many %u-byte lines",
                 p->machine, bytes, p->line_size);
        return NULL;
    }
    if (p->sample_unit == SIM_UNIT_REFS && (!ops->fixed_latency || p->sample_warm)) {
        snprintf(err, errlen, "machine '%s': sample_unit=refs needs stale caches on a "
                              "fixed-latency machine (uniform, numa)", p->machine);
        return NULL;
    }
    sim_machine *m = calloc(1, sizeof *m);
    if (!m) {
        snprintf(err, errlen, "out of memory creating machine '%s'", p->machine);
        return NULL;
    }
    m->p = *p;
    m->ops = ops;
    m->fixed = m->ops->fixed_latency;
    m->base = base;
    m->bytes = bytes;
    m->nblocks = (uint32_t)nblocks;
    m->line_shift = (unsigned)log2u(p->line_size);
    m->page_shift = (unsigned)log2u(p->page_size) - m->line_shift;
    m->nprocs = p->nprocs;
    m->inline_requester = -1;
    sim_evq_init(&m->q);
    for (int i = 0; i < SIM_MAX_DEPTH; i++)
        proto_actions_init(&m->acts[i]);

    m->model = m->ops->create(p, err, errlen);
    if (!m->model)
        goto fail_quiet;
    /* replay the model's options in the order they were given */
    char opts[sizeof p->model_options];
    memcpy(opts, p->model_options, sizeof opts);
    opts[sizeof opts - 1] = 0;
    for (char *save = NULL, *kv = strtok_r(opts, ";", &save); kv;
         kv = strtok_r(NULL, ";", &save)) {
        char *eq = strchr(kv, '=');
        if (!eq) {
            snprintf(err, errlen, "machine option '%s' is not key=value", kv);
            goto fail_quiet;
        }
        *eq = 0;
        char merr[200];
        if (m->ops->set(m->model, kv, eq + 1, merr, sizeof merr)) {
            snprintf(err, errlen, "machine '%s': %s", p->machine, merr);
            goto fail_quiet;
        }
    }

    m->procs = calloc((size_t)m->nprocs, sizeof *m->procs);
    m->warm = calloc(m->nblocks, 1);
    m->npages = (((uint64_t)m->nblocks - 1) >> m->page_shift) + 1;
    m->page_home = malloc(m->npages * sizeof *m->page_home);
    m->page_live = calloc(m->npages, 1);
    if (!m->procs || !m->warm || !m->page_home || !m->page_live)
        goto fail_nomem;
    for (uint64_t pg = 0; pg < m->npages; pg++) /* the default: round robin by page */
        m->page_home[pg] = (int32_t)(pg % (uint64_t)m->nprocs);
    uint32_t nsets = p->cache_size / p->line_size / p->assoc;
    size_t nchunks = ((size_t)m->nblocks + DEP_CHUNK - 1) >> DEP_CHUNK_SHIFT;
    for (int i = 0; i < m->nprocs; i++) {
        sim_proc *pr = &m->procs[i];
        pr->procedure = pr->last_procedure = -1;
        pr->wait_block = SIM_LINE_EMPTY;
        if (sim_cache_init(&pr->f.cache, nsets, p->assoc, p->line_size))
            goto fail_nomem;
        pr->f.base = base;
        pr->f.bytes = bytes;
        pr->f.line_mask = p->line_size - 1;
        pr->f.line_shift = m->line_shift;
        pr->f.hit_cycles = p->hit_cycles;
        pr->f.period = p->sample_period;
        pr->f.length = p->sample_length;
        pr->f.window_random = (uint64_t)p->sample_random;
        pr->f.in_window = pr->f.track_bytes = 1;
        pr->f.skip_outside = m->fixed && !p->sample_warm && p->sample_period &&
                             p->sample_length < p->sample_period;
        pr->f.window_epoch = 1;
        pr->f.gap_cost = (uint64_t)p->hit_cycles << 16;
        pr->f.gap_hit = (uint8_t)p->sample_gap_hit;
        pr->f.ref_unit = (uint8_t)(pr->f.skip_outside && p->sample_unit != SIM_UNIT_CYCLES);
        pr->f.spos = pr->f.ref_unit ? &m->sample_refs : &pr->f.clock;
        pr->f.tlb_shift = m->ops->tlb_shift && m->ops->tlb_miss ? m->ops->tlb_shift(m->model) : 0;
        if (!pr->f.tlb_shift || pr->f.tlb_shift > 63)
            pr->f.tlb_shift = 63; /* no TLB: every offset is in entry 0 */
        for (int k = 0; k < 4; k++) /* none yet (UINT64_MAX is no entry), or entry 0 always */
            pr->f.tlb_recent[k] = pr->f.tlb_shift < 63 ? UINT64_MAX : 0;
        if (pr->f.period) {
            pr->f.in_window = 0; /* the first window counts as entered */
            sim_fast_window(&pr->f);
        }
        pr->dep = calloc(nchunks, sizeof *pr->dep);
        proto_config cfg = {.self = i, .nnodes = m->nprocs, .nblocks = m->nblocks};
        cfg.evictions = 1; /* every cache replaces lines */
        cfg.replacement_hints = p->replacement_hints;
        cfg.excl_clean = p->excl_clean;
        cfg.downgrade_on_read = p->downgrade_on_read;
        cfg.sharers_ops = m->ops->sharers_ops;
        if (m->ops->engine_config)
            m->ops->engine_config(m->model, &cfg);
        /* one home table for all the processors' engines (place_lines) */
        pr->eng = proto_engine_create_shared(&cfg, i ? m->procs[0].eng : NULL);
        if (!pr->dep || !pr->eng)
            goto fail_nomem;
        proto_set_augment(pr->eng, 0); /* pattern detection is the DSM's, not needed here */
    }
    if (!m->fixed) {
        m->pair_last = calloc((size_t)m->nprocs * m->nprocs, sizeof *m->pair_last);
        m->ctrl_busy = calloc((size_t)m->nprocs, sizeof *m->ctrl_busy);
        if (!m->pair_last || !m->ctrl_busy)
            goto fail_nomem;
    }
    return m;

fail_nomem:
    snprintf(err, errlen,
             "out of memory creating machine '%s' (%d processors, %u lines of %u bytes)",
             p->machine, p->nprocs, m->nblocks, p->line_size);
fail_quiet:
    sim_destroy(m);
    return NULL;
}

void sim_destroy(sim_machine *m)
{
    if (!m)
        return;
    if (m->procs) {
        size_t nchunks = ((size_t)m->nblocks + DEP_CHUNK - 1) >> DEP_CHUNK_SHIFT;
        for (int i = 0; i < m->nprocs; i++) {
            sim_proc *pr = &m->procs[i];
            sim_cache_free(&pr->f.cache);
            if (pr->dep)
                for (size_t c = 0; c < nchunks; c++)
                    free(pr->dep[c]);
            free(pr->dep);
            proto_engine_destroy(pr->eng);
        }
        free(m->procs);
    }
    if (m->model)
        m->ops->destroy(m->model);
    for (int i = 0; i < SIM_MAX_DEPTH; i++)
        proto_actions_free(&m->acts[i]);
    sim_evq_free(&m->q);
    for (int i = 0; i < m->nbins; i++)
        free(m->bin_names[i]);
    free(m->bin_names);
    free(m->bins);
    free(m->inq);
    free(m->pair_last);
    free(m->ctrl_busy);
    free(m->warm);
    free(m->page_home);
    free(m->page_live);
    free(m);
}

const sim_params *sim_get_params(const sim_machine *m) { return &m->p; }
void *sim_timing_model(const sim_machine *m) { return m->model; }
const sim_timing_ops *sim_timing_ops_of(const sim_machine *m) { return m->ops; }
const char *sim_error(const sim_machine *m) { return m->failed ? m->err : NULL; }
int sim_stalled(const sim_machine *m, int proc) { return m->procs[proc].f.stalled; }
/* Whatever reads or sets a processor's clock or counts first counts the
 * references of its batch (sim_fast_settle): the machine state is then
 * what reference-by-reference counting gives. */
static void settle_all(const sim_machine *m)
{
    for (int i = 0; i < m->nprocs; i++)
        sim_fast_settle(&m->procs[i].f);
}
void sim_settle(sim_machine *m) { settle_all(m); }
int sim_check_clock(sim_machine *m, int proc)
{
    sim_fast_settle(&m->procs[proc].f);
    if (!m->failed)
        past_clock_limit(m, m->procs[proc].f.clock, proc);
    return m->failed;
}
sim_time sim_clock(const sim_machine *m, int proc)
{
    sim_fast_settle(&m->procs[proc].f);
    return m->procs[proc].f.clock;
}
void sim_set_clock(sim_machine *m, int proc, sim_time t)
{
    sim_fast_settle(&m->procs[proc].f);
    m->procs[proc].f.clock = t;
}
void sim_add_cycles(sim_machine *m, int proc, sim_time n)
{
    sim_fast_settle(&m->procs[proc].f);
    m->procs[proc].f.clock += n;
}
uint64_t sim_references(const sim_machine *m)
{
    uint64_t n = 0;
    settle_all(m);
    for (int i = 0; i < m->nprocs; i++)
        n += m->procs[i].f.refs;
    return n;
}
uint64_t sim_references_sampled(const sim_machine *m)
{
    uint64_t n = 0;
    settle_all(m);
    for (int i = 0; i < m->nprocs; i++)
        n += m->procs[i].f.refs_sampled;
    return n;
}

int sim_sampling_stale(const sim_machine *m) { return m->procs[0].f.skip_outside; }

uint64_t sim_unknown_hits(const sim_machine *m)
{
    uint64_t n = 0;
    for (int i = 0; i < m->nprocs; i++)
        n += m->procs[i].unknown_hits;
    return n;
}
sim_fast *sim_fast_of(sim_machine *m, int proc) { return &m->procs[proc].f; }
int sim_has_procedure_switch(const sim_machine *m) { return m->ops->procedure_switch != NULL; }

/* The sampling window state of f's clock: [kN+o, kN+o+L) is on (o:
 * sim_window_offset, 0 unless windows are placed at random), the rest of
 * each period off (stats_on_at).  The state holds until the clock leaves
 * the window, or the stretch before or after it, that it is in.  Entering a window, the lines this
 * processor holds get every byte marked touched: outside windows the hit
 * path records no bytes, so a line held since before the window is judged
 * true sharing when it is taken (doc/simulation.md, "Time sampling"). */
void sim_fast_window(sim_fast *f)
{
    sim_time pos = *f->spos;
    uint64_t index = pos / f->period;
    sim_time k = index * f->period;
    sim_time open = k + sim_window_offset(f->period, f->length, (int)f->window_random, index);
    int was = f->in_window;
    if (pos < open) {
        f->in_window = 0;
        f->win_start = k;
        f->win_span = open - k;
    } else if (pos - open < f->length) {
        f->in_window = 1;
        f->win_start = open;
        f->win_span = f->length;
    } else {
        f->in_window = 0;
        f->win_start = open + f->length;
        f->win_span = k + f->period - f->win_start;
    }
    f->track_bytes = f->in_window;
    /* Stale caches: the references until the next window are not
     * simulated, and each moves the clock by the cycles per reference of
     * the window just closed (hits and misses, not synchronisation), so the
     * windows fall every `period` cycles of the program's estimated time:
     * at hit_cycles alone the gaps would be counted in references while a
     * window holds fewer references the more it misses, and miss-heavy
     * phases would be sampled less than their share (doc/simulation.md). */
    if (was && !f->in_window && f->refs > f->win_refs && !f->gap_hit)
        f->gap_cost = ((f->hit_cycles * (f->refs - f->win_refs) + f->mem_cycles - f->win_mem)
                       << 16) /
                      (f->refs - f->win_refs);
    if (!was && f->in_window) {
        f->win_refs = f->refs;
        f->win_mem = f->mem_cycles;
    }
    /* the window entered is period index's (a processor's clock may jump
     * from one window to a later one without a reference between) */
    uint32_t epoch = (uint32_t)index + 2;
    if (f->in_window && (!was || f->window_epoch != epoch)) {
        f->window_epoch = epoch;
        sim_cache *c = &f->cache;
        for (size_t i = 0; i < (size_t)c->nsets * c->assoc; i++)
            if (c->lines[i].block != SIM_LINE_EMPTY)
                c->lines[i].touched[0] = c->lines[i].touched[1] = ~0ull;
    }
}
int sim_stats_on(const sim_machine *m)
{
    settle_all(m);
    return stats_on_at(m, m->now);
}
int sim_nbins(const sim_machine *m) { return m->nbins; }

const char *sim_bin_name(const sim_machine *m, int bin)
{
    return bin >= 0 && bin < m->nbins ? m->bin_names[bin] : NULL;
}

sim_time sim_next_event(const sim_machine *m)
{
    const sim_event *e = sim_evq_peek(&m->q);
    return e ? e->time : SIM_NEVER;
}

int sim_on_miss(sim_machine *m, sim_miss_fn fn, void *arg)
{
    if (!fn || m->ncollectors >= SIM_MAX_COLLECTORS)
        return -1;
    m->collectors[m->ncollectors++] = (sim_collector){fn, arg};
    return 0;
}

int sim_on_ref(sim_machine *m, sim_ref_fn fn, void *arg)
{
    if (!fn || m->ref_fn)
        return -1;
    m->ref_fn = fn;
    m->ref_arg = arg;
    for (int p = 0; p < m->nprocs; p++)
        fast_path_update(m, &m->procs[p]); /* the inline hit path declines: all come here */
    return 0;
}

/* ---------------- placement and bins ---------------- */

/* The engines share one home table (proto_engine_create_shared): setting
 * it through one engine sets it for all. */
static int place_lines(sim_machine *m, uint32_t first, uint32_t count, int home)
{
    int rc = proto_set_home(m->procs[0].eng, first, count, home);
    return rc < 0 ? rc : 0;
}

/* Homes are kept per page here and given to the engines when a line of the
 * page is first missed on (page_live): placing a large range (sim_api's
 * arenas, half the region) then costs a table write per page, not a write
 * per line in every engine. */
static int page_tell_engines(sim_machine *m, uint64_t page)
{
    uint64_t first = page << m->page_shift;
    uint64_t count = 1ull << m->page_shift;
    if (first >= m->nblocks)
        return 0;
    if (first + count > m->nblocks)
        count = m->nblocks - first;
    int rc = place_lines(m, (uint32_t)first, (uint32_t)count, m->page_home[page]);
    if (rc >= 0)
        m->page_live[page] = 1;
    return rc;
}

/* The home of `page`, the engines told: 0, or a negative engine error. */
static inline int page_live_home(sim_machine *m, uint64_t page, int *home)
{
    *home = m->page_home[page];
    return m->page_live[page] ? 0 : page_tell_engines(m, page);
}

int sim_place(sim_machine *m, uintptr_t addr, size_t len, int home)
{
    if (home >= m->nprocs) {
        fail(m, PROTO_EINVAL, "sim_place: home %d, but the machine has %d processors", home,
             m->nprocs);
        return -1;
    }
    if (len == 0)
        return 0;
    if (addr < m->base || addr - m->base >= m->bytes || len > m->bytes - (addr - m->base)) {
        fail(m, PROTO_EINVAL, "sim_place: range %#lx+%zu is outside the simulated region",
             (unsigned long)addr, len);
        return -1;
    }
    uint64_t off = addr - m->base;
    uint64_t page_first = off >> (m->page_shift + m->line_shift);
    uint64_t page_last = (off + len - 1) >> (m->page_shift + m->line_shift);
    for (uint64_t pg = page_first; pg <= page_last; pg++) {
        int rc = 0;
        m->page_home[pg] = home >= 0 ? home : (int32_t)(pg % (uint64_t)m->nprocs);
        if (m->page_live[pg]) /* already in use: the engines learn it now */
            rc = page_tell_engines(m, pg);
        if (rc < 0) {
            fail(m, rc, "sim_place: the engine refused page %llu", (unsigned long long)pg);
            return -1;
        }
    }
    return 0;
}

int sim_home_at(const sim_machine *m, uintptr_t addr)
{
    if (addr < m->base || addr - m->base >= m->bytes)
        return -1;
    return m->page_home[(addr - m->base) >> (m->page_shift + m->line_shift)];
}

int sim_bin(sim_machine *m, uintptr_t addr, size_t len, const char *name)
{
    if (GROWABLE_RESERVE(m->bins, m->bins_cap, (size_t)m->nbins + 1) ||
        GROWABLE_RESERVE(m->bin_names, m->names_cap, (size_t)m->nbins + 1))
        return -1;
    char *copy = strdup(name ? name : "");
    if (!copy)
        return -1;
    int id = m->nbins;
    m->bin_names[id] = copy;
    /* insert keeping the ranges sorted by start (a later bin with the same
     * start goes after: lookups find the latest) */
    int i = m->nbins;
    while (i > 0 && m->bins[i - 1].start > addr) {
        m->bins[i] = m->bins[i - 1];
        i--;
    }
    m->bins[i] = (sim_bin_range){addr, addr + len, id};
    m->nbins++;
    return id;
}

static int bin_of(const sim_machine *m, uintptr_t addr)
{
    int lo = 0, hi = m->nbins - 1, found = -1;
    while (lo <= hi) { /* last range whose start <= addr */
        int mid = (lo + hi) / 2;
        if (m->bins[mid].start <= addr)
            found = mid, lo = mid + 1;
        else
            hi = mid - 1;
    }
    /* nested or overlapping ranges: look a few ranges back, no further (a
     * lookup stays cheap when many bins precede an unbinned address) */
    for (int i = found, n = 0; i >= 0 && n < 8; i--, n++)
        if (addr < m->bins[i].end)
            return m->bins[i].id;
    return -1;
}

/* ---------------- departure records ---------------- */

/* A departure record, with in its high half the window epoch it was made in
 * (time sampling: a record from an earlier window says nothing of what the
 * unsimulated references between did). */
static uint64_t dep_get_full(const sim_proc *pr, uint32_t block)
{
    const uint64_t *chunk = pr->dep[block >> DEP_CHUNK_SHIFT];
    return chunk ? chunk[block & (DEP_CHUNK - 1)] : DEP_NEVER;
}

static void dep_set(sim_machine *m, sim_proc *pr, uint32_t block, uint32_t rec)
{
    uint64_t **chunk = &pr->dep[block >> DEP_CHUNK_SHIFT];
    if (!*chunk) {
        *chunk = calloc(DEP_CHUNK, sizeof **chunk);
        if (!*chunk) {
            fail(m, PROTO_ENOMEM, "out of memory for the miss-cause records");
            return;
        }
    }
    (*chunk)[block & (DEP_CHUNK - 1)] = rec | (uint64_t)pr->f.window_epoch << 32;
}

static uint32_t dep_record(int why, int false_sharing, int bin)
{
    uint32_t b = bin < 0 || bin >= 0xFFFFFF ? 0 : (uint32_t)bin + 1;
    return (uint32_t)why | (false_sharing ? DEP_FS : 0) | b << 8;
}

/* ---------------- performing the engine's actions ---------------- */

static void run_actions(sim_machine *m, int node, const proto_actions *a, sim_time t);

enum { CALL_ACCESS, CALL_RECEIVE, CALL_RELEASE, CALL_EVICT };
/* walk_ref's third outcome (beside SIM_HIT and SIM_STALL): a fixed-latency
 * miss completed at once and ended the reference. */
enum { MISS_DONE = 2 };
/* ... and its fourth: a store went to the write buffer (the processor goes
 * on as after a hit). */
enum { SIM_POSTED = 3 };

/* One engine call on node's engine, its actions performed at time t. */
static int engine_call(sim_machine *m, int node, int kind, uint32_t block, int is_write,
                       const proto_msg *msg, sim_time t)
{
    if (m->failed)
        return m->failed;
    if (m->depth >= SIM_MAX_DEPTH) {
        fail(m, PROTO_EINVAL, "engine actions nested deeper than %d", SIM_MAX_DEPTH);
        return m->failed;
    }
    proto_actions *a = &m->acts[m->depth++];
    a->n = 0;
    proto_engine *e = m->procs[node].eng;
    int rc = PROTO_OK;
    switch (kind) {
    case CALL_ACCESS: rc = proto_access(e, block, is_write, a); break;
    case CALL_RECEIVE: rc = proto_receive(e, msg, a); break;
    case CALL_RELEASE: rc = proto_release(e, block, a); break;
    case CALL_EVICT: rc = proto_evict(e, block, a); break;
    default: break;
    }
    if (rc < 0)
        fail(m, rc, "engine error on node %d, line %u: %s", node, block, proto_last_error(e));
    else
        run_actions(m, node, a, t);
    m->depth--;
    return m->failed;
}

/* p's miss in flight on `block` (the one it stalls on, or a buffered
 * store), or NULL. */
static sim_pending *pending_of(sim_proc *pr, uint32_t block)
{
    if (pr->stall.active && pr->stall.block == block)
        return &pr->stall;
    for (int i = 0; i < SIM_MAX_POSTED && pr->nposted; i++)
        if (pr->posted[i].active && pr->posted[i].block == block)
            return &pr->posted[i];
    return NULL;
}

/* The miss the home is serving for `block`: of the requests not yet
 * granted, the one that reached the home first; its processor in *proc. */
static sim_pending *find_requester(sim_machine *m, uint32_t block, int *proc)
{
    if (m->inline_requester >= 0) {
        *proc = m->inline_requester;
        return &m->procs[*proc].stall;
    }
    sim_pending *best = NULL;
    *proc = -1;
    for (int i = 0; i < m->nprocs; i++) {
        sim_pending *q = pending_of(&m->procs[i], block);
        if (q && !q->done && !q->served && q->req_seq && (!best || q->req_seq < best->req_seq)) {
            best = q;
            *proc = i;
        }
    }
    return best;
}

/* A message copied field by field: the engine has just written it with
 * narrow stores, and one 16-byte load of it would stall on store
 * forwarding (perf showed it on the miss path). */
static inline void msg_copy(proto_msg *restrict d, const volatile proto_msg *restrict s)
{
    d->type = s->type;
    d->src = s->src;
    d->dst = s->dst;
    d->block = s->block;
    d->req = s->req;
}

/* The ring's capacity is a power of two: an index is masked, not divided. */
static void inq_push(sim_machine *m, const proto_msg *msg)
{
    if (m->inq_len == m->inq_cap) {
        size_t cap = m->inq_cap ? m->inq_cap * 2 : 64;
        proto_msg *q = malloc(cap * sizeof *q);
        if (!q) {
            fail(m, PROTO_ENOMEM, "out of memory queueing a message");
            return;
        }
        for (size_t i = 0; i < m->inq_len; i++)
            q[i] = m->inq[(m->inq_head + i) & (m->inq_cap - 1)];
        free(m->inq);
        m->inq = q;
        m->inq_head = 0;
        m->inq_cap = cap;
    }
    msg_copy(&m->inq[(m->inq_head + m->inq_len++) & (m->inq_cap - 1)], msg);
}

/* Fixed latency: deliver every queued message, in order, at time t. */
static void inq_drain(sim_machine *m, sim_time t)
{
    while (m->inq_len && !m->failed) {
        proto_msg msg;
        msg_copy(&msg, &m->inq[m->inq_head]);
        m->inq_head = (m->inq_head + 1) & (m->inq_cap - 1);
        m->inq_len--;
        engine_call(m, msg.dst, CALL_RECEIVE, msg.block, 0, &msg, t);
    }
}

static int is_grant(int type)
{
    return type == PM_DATA_S || type == PM_DATA_X || type == PM_UPGRADE_ACK || type == PM_DATA_E ||
           type == PM_FWD_DATA_S || type == PM_FWD_DATA_X;
}

static int is_request(int type)
{
    return type == PM_GETS || type == PM_GETX || type == PM_UPGRADE;
}

static void send_msg(sim_machine *m, const proto_msg *msg, sim_time t)
{
    if (msg->dst < 0 || msg->dst >= m->nprocs || msg->src < 0 || msg->src >= m->nprocs) {
        fail(m, PROTO_EINVAL, "engine sent %s from %d to %d", proto_msg_name(msg->type),
             msg->src, msg->dst);
        return;
    }
    if (msg->type == PM_INV) {
        int r;
        sim_pending *q = find_requester(m, msg->block, &r);
        if (q)
            q->miss.invalidations++;
    } else if (is_grant(msg->type)) {
        sim_pending *q = pending_of(&m->procs[msg->dst], msg->block);
        if (q)
            q->served = 1;
    }
    if (m->fixed) {
        inq_push(m, msg);
        return;
    }
    uint32_t bytes = sim_msg_bytes(msg->type, m->p.line_size);
    sim_time arrival = t + m->ops->net_delay(m->model, msg, bytes, t);
    sim_time *last = &m->pair_last[(size_t)msg->src * m->nprocs + msg->dst];
    if (arrival < *last) /* FIFO per pair: never overtake an earlier message */
        arrival = *last;
    *last = arrival;
    sim_event ev = {.time = arrival, .kind = SIM_EV_ARRIVE, .node = msg->dst, .msg = *msg};
    push_event(m, &ev);
}

/* The line `block` left processor node's cache because of another
 * processor's request (INV or RECALL). */
static void line_taken(sim_machine *m, int node, sim_line *l, sim_time t)
{
    sim_proc *pr = &m->procs[node];
    int fs = 0;
    int r;
    sim_pending *w = find_requester(m, l->block, &r);
    /* no bytes recorded (outside a sampling window): judged true sharing */
    if (w && r != node && pr->f.track_bytes) {
        uint32_t off = (uint32_t)((w->miss_addr - m->base) & (m->p.line_size - 1));
        fs = !sim_line_touched_any(&pr->f.cache, l, off, w->miss_len);
    }
    /* the home's own read copy goes without a message (proto.h: messages to
     * self stay in the engine); it counts as an invalidation all the same */
    if (w && r != node && l->perm == PROTO_ACCESS_READ && proto_home(pr->eng, l->block) == node)
        w->miss.invalidations++;
    int on = stats_on_at(m, t);
    sim_pending *own = pending_of(pr, l->block);
    if (own && !own->done) {
        /* an upgrade overtaken by the invalidation: it becomes a write miss */
        own->miss.is_upgrade = 0;
        own->miss.cause = on ? SIM_CAUSE_INVALIDATION : SIM_CAUSE_UNKNOWN;
        own->miss.false_sharing = (uint8_t)(on && fs);
        l->perm = PROTO_ACCESS_NONE;
        l->touched[0] = l->touched[1] = 0;
        return;
    }
    dep_set(m, pr, l->block, dep_record(on ? DEP_INVALIDATED : DEP_UNKNOWN, on && fs, -1));
    l->block = SIM_LINE_EMPTY;
    l->perm = PROTO_ACCESS_NONE;
}

static void finish_miss(sim_machine *m, int p, sim_pending *q, sim_time t);
static void retry_access(sim_machine *m, int p, sim_pending *q, sim_time t);

static void line_granted(sim_machine *m, int p, sim_pending *q)
{
    sim_proc *pr = &m->procs[p];
    sim_line *l = sim_cache_find(&pr->f.cache, q->block);
    if (pr->f.track_bytes) {
        uint32_t off = (uint32_t)((q->miss_addr - m->base) & (m->p.line_size - 1));
        sim_line_touch(l, pr->f.cache.touch_shift, off, q->miss_len);
    }
    if (pr->f.cache.assoc > 1)
        sim_line_use(&pr->f.cache, l);
    m->warm[q->block] = 1;
    q->done = 1;
}

static void on_complete(sim_machine *m, int node, uint32_t block, sim_time t)
{
    sim_proc *pr = &m->procs[node];
    sim_pending *q = pending_of(pr, block);
    if (!q || q->done)
        return; /* e.g. the end of an eviction nobody waits for */
    sim_line *l = sim_cache_find(&pr->f.cache, block);
    int need = q->is_write ? PROTO_ACCESS_WRITE : PROTO_ACCESS_READ;
    if (!l || l->perm < need) {
        /* the request we waited for was not ours (an eviction in flight):
         * ask again now */
        retry_access(m, node, q, t);
        return;
    }
    /* the access retries at once: its bytes are touched before the hold
     * ends (a deferred INV may take the line right away) */
    line_granted(m, node, q);
    engine_call(m, node, CALL_RELEASE, block, 0, NULL, t);
    if (!m->fixed)
        finish_miss(m, node, q, t);
}

static void set_access(sim_machine *m, int node, uint32_t block, int access, sim_time t)
{
    sim_proc *pr = &m->procs[node];
    sim_line *l = sim_cache_find(&pr->f.cache, block);
    if (!l)
        return; /* not cached here (left silently, or being evicted) */
    if (access == PROTO_ACCESS_NONE) {
        if (l->perm != PROTO_ACCESS_NONE)
            line_taken(m, node, l, t);
        return;
    }
    l->perm = (uint8_t)access;
}

static void run_actions(sim_machine *m, int node, const proto_actions *a, sim_time t)
{
    for (size_t i = 0; i < a->n && !m->failed; i++) {
        const proto_action *x = &a->v[i];
        switch (x->kind) {
        case PA_SEND: send_msg(m, &x->msg, t); break;
        case PA_SET_ACCESS: set_access(m, node, x->block, x->access, t); break;
        case PA_COMPLETE: on_complete(m, node, x->block, t); break;
        default: break; /* PA_INSTALL: data values are not modelled; PA_WAIT */
        }
    }
}

/* ---------------- misses ---------------- */

static int engine_grants(const sim_machine *m, int p, uint32_t block, int is_write)
{
    proto_cache_state s = proto_cache_state_of(m->procs[p].eng, block);
    if (s == PC_M || s == PC_MH)
        return 1;
    if (s == PC_E || s == PC_EH)
        return !is_write;
    return !is_write && (s == PC_S || s == PC_SH);
}

/* Ask the engine for the line (again); fixed latency: inline, at time t. */
static void retry_access(sim_machine *m, int p, sim_pending *q, sim_time t)
{
    sim_proc *pr = &m->procs[p];
    if (engine_grants(m, p, q->block, q->is_write)) {
        /* the engine still holds the line (it left our cache silently):
         * memory serves it without a protocol transaction */
        sim_line *l = sim_cache_find(&pr->f.cache, q->block);
        proto_cache_state s = proto_cache_state_of(pr->eng, q->block);
        l->perm = s == PC_M || s == PC_MH ? PROTO_ACCESS_WRITE : PROTO_ACCESS_READ;
        q->served = 1;
        line_granted(m, p, q);
        if (!m->fixed)
            finish_miss(m, p, q, t);
        return;
    }
    engine_call(m, p, CALL_ACCESS, q->block, q->is_write, NULL, t);
}

static void report_miss(sim_machine *m, const sim_pending *q)
{
    if (!stats_on_at(m, q->miss.issue))
        return;
    for (int i = 0; i < m->ncollectors; i++)
        m->collectors[i].fn(m->collectors[i].arg, &q->miss);
}

static int walk_ref(sim_machine *m, int p, sim_time t);

/* The rest of p's reference (after its miss, or after the buffered store
 * it waited for) at time t; the processor goes on unless it stalls again. */
static void resume_ref(sim_machine *m, int p, sim_time t)
{
    sim_proc *pr = &m->procs[p];
    pr->f.clock = t;
    int r = walk_ref(m, p, t);
    if (r == SIM_HIT || r == SIM_POSTED)
        pr->f.stalled = 0; /* MISS_DONE has unstalled it too */
}

/* The miss q of p is done at time t: report it; a miss p stalled on lets
 * it go on with the rest of its reference, a buffered store frees its
 * entry (and resumes p if p waits for that line). */
static void finish_miss(sim_machine *m, int p, sim_pending *q, sim_time t)
{
    sim_proc *pr = &m->procs[p];
    q->miss.latency = t - q->miss.issue;
    report_miss(m, q);
    q->active = 0;
    if (!q->posted) {
        resume_ref(m, p, t);
        return;
    }
    q->posted = 0;
    pr->nposted--;
    if (q->use_by) {
        q->use_by = 0;
        pr->nuse--;
        fast_path_update(m, pr);
    }
    if (pr->wait_block == q->block || (pr->wait_block == WAIT_DRAIN && !pr->nposted)) {
        pr->wait_block = SIM_LINE_EMPTY;
        resume_ref(m, p, t > pr->f.clock ? t : pr->f.clock);
    }
}

/* A private line's tag in the cache: bit 31 keeps it apart from the
 * region's blocks (fewer than 2^31), the low bits are the line's address
 * (so its set is the address's, as a physically indexed cache would place
 * it); lines 2^31 lines apart alias, never SIM_LINE_EMPTY. */
#define PRIVATE_TAG 0x80000000u
static inline uint32_t private_tag(uint64_t line)
{
    uint32_t tag = PRIVATE_TAG | (uint32_t)(line & 0x7fffffffu);
    return tag == SIM_LINE_EMPTY ? tag ^ 0x40000000u : tag;
}

/* Evict the occupant of way l (to make room for a fill of bin `bin`). */
static sim_time handler_cost(sim_machine *m, int node, const proto_msg *msg, int is_home,
                             int from_local, sim_time arrival, sim_time start, sim_time *occ);

/* Message timed (ops->local_evictions): processor p's eviction of a line
 * whose home is its own node is a handler on its controller, queued behind
 * the handlers there; the processor does not wait for it. */
static void local_eviction_handler(sim_machine *m, int p, uint32_t block, proto_cache_state s,
                                   sim_time t)
{
    proto_msg put = {.type = (uint8_t)(s == PC_M ? PM_PUTX : s == PC_E ? PM_PUTE : PM_PUTS),
                     .src = p, .dst = p, .block = block};
    sim_time start = t > m->ctrl_busy[p] ? t : m->ctrl_busy[p];
    sim_time occ = 1;
    handler_cost(m, p, &put, 1, 1, t, start, &occ);
    m->ctrl_busy[p] = start + (occ ? occ : 1);
}

static void evict_line(sim_machine *m, int p, sim_line *l, int bin, sim_time t)
{
    sim_proc *pr = &m->procs[p];
    uint32_t victim = l->block;
    if (victim & PRIVATE_TAG) { /* private (sim_ref_private): back to local memory */
        l->block = SIM_LINE_EMPTY;
        l->perm = PROTO_ACCESS_NONE;
        return;
    }
    int on = stats_on_at(m, t);
    dep_set(m, pr, victim, dep_record(on ? DEP_REPLACED : DEP_UNKNOWN, 0, on ? bin : -1));
    l->block = SIM_LINE_EMPTY;
    l->perm = PROTO_ACCESS_NONE;
    proto_cache_state s = proto_cache_state_of(pr->eng, victim);
    if (s != PC_S && s != PC_M && s != PC_E)
        return;
    if (!m->fixed && m->ops->local_evictions && proto_home(pr->eng, victim) == p &&
        (s == PC_M || m->p.replacement_hints))
        local_eviction_handler(m, p, victim, s, t);
    engine_call(m, p, CALL_EVICT, victim, 0, NULL, t);
}

/* Why processor p misses on `block` (MemSpy 4.2.7): from its departure
 * record, or an upgrade of the read-only copy it holds. */
static void classify_miss(const sim_proc *pr, uint32_t block, int upgrade, sim_miss *ms)
{
    if (upgrade) {
        ms->is_upgrade = 1;
        ms->cause = SIM_CAUSE_UPGRADE;
        return;
    }
    uint64_t full = dep_get_full(pr, block);
    uint32_t rec = (uint32_t)full;
    if (pr->f.skip_outside &&
        (rec == DEP_NEVER ? pr->f.refs != pr->f.refs_sampled
                          : (uint32_t)(full >> 32) != pr->f.window_epoch)) {
        /* the line's history lies in references that were not simulated:
         * never held (but perhaps referenced between windows), or it left
         * in an earlier window (and may have come and gone since) */
        ms->cause = SIM_CAUSE_UNKNOWN;
        return;
    }
    switch (rec & 7) {
    case DEP_NEVER: ms->cause = SIM_CAUSE_COLD; break;
    case DEP_REPLACED:
        ms->cause = SIM_CAUSE_REPLACEMENT;
        ms->evicted_by_bin = (int)(rec >> 8) - 1;
        break;
    case DEP_INVALIDATED:
        ms->cause = SIM_CAUSE_INVALIDATION;
        ms->false_sharing = !!(rec & DEP_FS);
        break;
    default: ms->cause = SIM_CAUSE_UNKNOWN; break;
    }
}

/* The record of p's miss on `block`, issued at t (completed later). */
static void open_miss_record(sim_machine *m, int p, sim_pending *q, uint32_t block,
                             uintptr_t addr, int home, int bin, int upgrade, sim_time t)
{
    sim_proc *pr = &m->procs[p];
    sim_miss *ms = &q->miss;
    memset(ms, 0, sizeof *ms);
    ms->proc = p;
    ms->procedure = pr->procedure;
    ms->bin = bin;
    ms->addr = addr;
    ms->line = block;
    ms->home = home;
    ms->is_write = pr->is_write;
    ms->remote = home != p;
    ms->warm = m->warm[block];
    ms->evicted_by_bin = -1;
    ms->in_section = (uint8_t)pr->in_section;
    ms->issue = t;
    classify_miss(pr, block, upgrade, ms);
}

/* Miss q of p on `block`, for the bytes [addr, addr+len) of its
 * reference, is in flight (p stalls on it unless q is a buffered store). */
static void pending_start(sim_proc *pr, sim_pending *q, uint32_t block, uintptr_t addr,
                          uint32_t len)
{
    q->active = 1;
    q->is_write = pr->is_write;
    q->posted = q != &pr->stall;
    q->done = q->served = 0;
    q->req_seq = 0;
    q->use_by = 0;
    q->block = block;
    q->miss_addr = addr;
    q->miss_len = len;
    if (q->posted)
        pr->nposted++;
    else
        pr->f.stalled = 1;
    pr->had_miss = 1;
}

/* A way of p's cache for `block` (a fill of bin `bin`), its occupant
 * evicted; the line waits for the grant (no access yet). */
static void claim_way(sim_machine *m, int p, sim_line *l, uint32_t block, int bin, sim_time t)
{
    sim_proc *pr = &m->procs[p];
    if (l->block != SIM_LINE_EMPTY)
        evict_line(m, p, l, bin, t);
    l->block = block;
    l->perm = PROTO_ACCESS_NONE;
    l->bin = bin;
    l->window = (uint8_t)pr->f.window_epoch;
    l->touched[0] = l->touched[1] = 0;
    if (pr->f.cache.assoc > 1)
        sim_line_use(&pr->f.cache, l);
}

/* The way a fill of `block` takes in p's cache: an empty way, else the
 * least recently used of those whose fill is not in flight (a buffered
 * store's line stays until its grant); NULL when every way is in flight. */
static sim_line *victim_way(sim_proc *pr, uint32_t block)
{
    if (!pr->nposted)
        return sim_cache_victim(&pr->f.cache, block);
    sim_cache *c = &pr->f.cache;
    sim_line *set = &c->lines[(size_t)(block & c->set_mask) * c->assoc], *best = NULL;
    for (uint32_t w = 0; w < c->assoc; w++) {
        if (set[w].block == SIM_LINE_EMPTY)
            return &set[w];
        if (pending_of(pr, set[w].block))
            continue;
        if (!best || set[w].lru < best->lru)
            best = &set[w];
    }
    return best;
}

/* Fixed latency: the whole transaction now, at t; the processor resumes
 * at t + the model's latency.  MISS_DONE when that ends the reference,
 * SIM_STALL when more lines remain (walked at the resume event). */
static int serve_fixed_miss(sim_machine *m, int p, int home, sim_time t)
{
    sim_proc *pr = &m->procs[p];
    sim_pending *q = &pr->stall;
    sim_miss *ms = &q->miss;
    int owner = -1;
    proto_engine *he = m->procs[home].eng;
    if (proto_dir_state_of(he, q->block) == PD_EXCL)
        owner = proto_dir_owner(he, q->block);
    m->inline_requester = p;
    q->req_seq = ++m->home_seq;
    inq_drain(m, t); /* eviction messages first, in order */
    retry_access(m, p, q, t);
    inq_drain(m, t);
    m->inline_requester = -1;
    if (m->failed)
        return m->failed;
    if (!q->done) {
        fail(m, PROTO_EINVAL, "fixed-latency machine: the miss of processor %d on line %u "
                              "did not complete",
             p, q->block);
        return m->failed;
    }
    sim_time lat = m->ops->miss_latency(m->model, p, home, owner, ms->is_write,
                                        ms->is_upgrade, ms->invalidations);
    ms->latency = lat;
    pr->f.mem_cycles += lat;
    report_miss(m, q);
    q->active = 0;
    if (!pr->rest_size) {
        /* the reference is complete: no event, the processor resumes at
         * the end of its miss (the scheduler runs it when its clock is
         * the smallest, as it would after the event) */
        pr->f.clock = t + lat;
        pr->f.stalled = 0;
        return MISS_DONE;
    }
    /* more lines to go: they are walked at the completion, in time order */
    sim_event ev = {.time = t + lat, .kind = SIM_EV_RESUME, .node = p};
    push_event(m, &ev);
    return m->failed ? m->failed : SIM_STALL;
}

/* The timing model's cost of `msg` handled at `node` (message timed). */
static sim_time handler_cost(sim_machine *m, int node, const proto_msg *msg, int is_home,
                             int from_local, sim_time arrival, sim_time start, sim_time *occ)
{
    if (!m->ops->handler_dir)
        return m->ops->handler(m->model, node, msg, is_home, from_local, arrival, start, occ);
    sim_dir_view dir = {0};
    if (is_home) {
        const proto_engine *he = m->procs[node].eng;
        dir.at_home = 1;
        dir.state = proto_dir_state_of(he, msg->block);
        if (dir.state == PD_EXCL) {
            int owner = proto_dir_owner(he, msg->block);
            dir.source_listed = owner == msg->src;
            dir.sharers = owner >= 0 && owner != msg->src;
            dir.home_copy = dir.sharers && owner == node;
        } else {
            const dsm_sharers *s = proto_dir_sharers(he, msg->block);
            if (s) {
                dir.source_listed = msg->src >= 0 && sharers_contains(s, msg->src);
                dir.sharers = sharers_count(s) - dir.source_listed;
                dir.home_copy = msg->src != node && sharers_contains(s, node);
            }
        }
    }
    return m->ops->handler_dir(m->model, node, msg, is_home, from_local, arrival, start, &dir,
                               occ);
}

/* Message timed: the request is first a handler on p's own controller,
 * queued behind the handlers already there. */
static int issue_request(sim_machine *m, int p, sim_pending *q, int home, sim_time t)
{
    proto_msg req = {.type = (uint8_t)(q->miss.is_upgrade ? PM_UPGRADE
                                       : q->is_write       ? PM_GETX
                                                           : PM_GETS),
                     .src = p, .dst = home, .block = q->block};
    sim_time start = t > m->ctrl_busy[p] ? t : m->ctrl_busy[p];
    sim_time occ = 1;
    sim_time lat = handler_cost(m, p, &req, home == p, 1, t, start, &occ);
    m->ctrl_busy[p] = start + (occ ? occ : 1);
    sim_event ev = {.time = start, .kind = SIM_EV_REQUEST, .node = p, .latency = lat,
                    .msg = req};
    push_event(m, &ev);
    return m->failed ? m->failed : q->posted ? SIM_POSTED : SIM_STALL;
}

/* The inline hit path declines while a posted miss awaits its use (every
 * reference must then count toward its deadline in sim_ref) or while an
 * observer sees every reference (sim_on_ref). */
static void fast_path_update(const sim_machine *m, sim_proc *pr)
{
    pr->f.bytes = m->ref_fn || pr->nuse ? 0 : m->bytes;
}

/* The processor needs the value of posted miss q load_use references from
 * now (the reference in progress counted), unless an earlier load already
 * set an earlier deadline. */
static void need_value(sim_machine *m, sim_proc *pr, sim_pending *q)
{
    if (q->use_by)
        return;
    q->use_by = pr->f.refs + m->p.load_use;
    pr->nuse++;
    fast_path_update(m, pr);
}

/* The posted miss whose value the processor needs by now (the earliest
 * deadline at or before its reference count), or NULL. */
static sim_pending *value_due(sim_proc *pr)
{
    sim_pending *due = NULL;
    for (int i = 0; i < SIM_MAX_POSTED; i++) {
        sim_pending *q = &pr->posted[i];
        if (q->active && q->use_by && q->use_by <= pr->f.refs &&
            (!due || q->use_by < due->use_by))
            due = q;
    }
    return due;
}

/* Processor p misses (or upgrades: l is its read-only copy) on `block` at
 * time t, for the bytes [addr, addr+len) of its reference. */
static int start_miss(sim_machine *m, int p, uint32_t block, uintptr_t addr, uint32_t len,
                      sim_line *l, sim_line *way, sim_time t)
{
    sim_proc *pr = &m->procs[p];
    int home;
    uint64_t page = block >> m->page_shift;
    if (!m->page_live[page] && m->p.placement != SIM_PLACE_PROGRAM) /* the OS's policy */
        m->page_home[page] = m->p.placement == SIM_PLACE_FIRST_TOUCH
                                 ? p
                                 : (int32_t)(page % (uint64_t)m->nprocs);
    int rc = page_live_home(m, page, &home);
    if (rc < 0 || home < 0) {
        fail(m, PROTO_EINVAL, "line %u has no home", block);
        return m->failed;
    }
    /* a miss that ends its reference is one the processor goes on past when
     * an entry is free (message timed: a fixed-latency miss is over at
     * once): a store into the write buffer, a load until its value is
     * needed (load_use references later) */
    sim_pending *q = &pr->stall;
    if (!m->fixed && (pr->is_write || m->p.load_use) && !pr->rest_size &&
        pr->nposted < (int)m->p.outstanding - 1)
        for (int i = 0; i < SIM_MAX_POSTED; i++)
            if (!pr->posted[i].active) {
                q = &pr->posted[i];
                break;
            }
    int bin = bin_of(m, addr);
    open_miss_record(m, p, q, block, addr, home, bin, l != NULL, t);
    pending_start(pr, q, block, addr, len);
    if (q->posted && !pr->is_write)
        need_value(m, pr, q);
    if (!l)
        claim_way(m, p, way, block, bin, t);
    return m->fixed ? serve_fixed_miss(m, p, home, t) : issue_request(m, p, q, home, t);
}

/* p cannot go on before its buffered store to `block` completes: the
 * reference resumes at [addr, addr + len) then. */
static int wait_for_posted(sim_proc *pr, uint32_t block, uint32_t len)
{
    pr->rest_addr -= len;
    pr->rest_size += len;
    pr->wait_block = block;
    pr->f.stalled = 1;
    return SIM_STALL;
}

/* Go on with what remains of p's reference at time t: SIM_HIT when it is
 * all done, SIM_STALL when a miss started, MISS_DONE when a miss completed
 * at once (fixed latency) and ended the reference; negative: failed. */
static int walk_ref(sim_machine *m, int p, sim_time t)
{
    sim_proc *pr = &m->procs[p];
    while (pr->rest_size && !m->failed) {
        uintptr_t addr = pr->rest_addr;
        uint64_t off = addr - m->base;
        uint32_t block = (uint32_t)(off >> m->line_shift);
        uint32_t in_line = (uint32_t)(off & (m->p.line_size - 1));
        uint32_t len = m->p.line_size - in_line;
        if (len > pr->rest_size)
            len = pr->rest_size;
        if (off >= m->bytes) { /* runs off the region's end: not simulated */
            pr->rest_size = 0;
            break;
        }
        pr->rest_addr += len;
        pr->rest_size -= len;
        sim_line *l = sim_cache_find(&pr->f.cache, block);
        int need = pr->is_write ? PROTO_ACCESS_WRITE : PROTO_ACCESS_READ;
        if (l && need == PROTO_ACCESS_WRITE && l->perm == PROTO_ACCESS_READ &&
            proto_cache_state_of(pr->eng, block) == PC_E) {
            /* exclusive clean: the store upgrades silently, like a hit */
            if (engine_call(m, p, CALL_ACCESS, block, 1, NULL, t))
                return m->failed;
        }
        if (m->ref_fn) {
            int home = -1, outcome = l && l->perm >= need ? SIM_REF_HIT
                                     : l && l->perm != PROTO_ACCESS_NONE ? SIM_REF_UPGRADE
                                                                         : SIM_REF_MISS;
            page_live_home(m, block >> m->page_shift, &home);
            m->ref_fn(m->ref_arg, p, pr->is_write, outcome, home, t);
        }
        if (l && l->perm >= need) {
            if (pr->f.skip_outside && l->window != (uint8_t)pr->f.window_epoch) {
                l->window = (uint8_t)pr->f.window_epoch;
                pr->unknown_hits++;
            }
            if (pr->f.track_bytes)
                sim_line_touch(l, pr->f.cache.touch_shift, in_line, len);
            if (pr->f.cache.assoc > 1)
                sim_line_use(&pr->f.cache, l);
            continue;
        }
        /* a line whose miss the processor went on past is in flight: a
         * reference it serves joins it (a store to a buffered store's line,
         * a load when loads go on: the value is needed load_use references
         * from now at the latest); a store to a line a load is fetching
         * waits for it (it then asks for the write) */
        sim_pending *inflight = pr->nposted ? pending_of(pr, block) : NULL;
        if (inflight) {
            if (!inflight->posted || (pr->is_write && !inflight->is_write) ||
                (!pr->is_write && !m->p.load_use))
                return wait_for_posted(pr, block, len);
            if (!pr->is_write)
                need_value(m, pr, inflight);
            if (pr->f.track_bytes && l)
                sim_line_touch(l, pr->f.cache.touch_shift, in_line, len);
            continue;
        }
        sim_line *upgrade = l && l->perm != PROTO_ACCESS_NONE ? l : NULL, *way = NULL;
        if (!upgrade && !(way = victim_way(pr, block))) {
            /* every way of the set waits for a buffered store: the oldest */
            const sim_cache *c = &pr->f.cache;
            return wait_for_posted(pr, c->lines[(size_t)(block & c->set_mask) * c->assoc].block,
                                   len);
        }
        /* every miss takes time: SIM_STALL, SIM_POSTED for a buffered store,
         * or MISS_DONE when it completed at once */
        return start_miss(m, p, block, addr, len, upgrade, way, t);
    }
    return m->failed ? m->failed : SIM_HIT;
}

/* proc's procedure is now `procedure`: the model's charge, if it has one. */
static void procedure_changed(sim_machine *m, int proc, int procedure)
{
    sim_proc *pr = &m->procs[proc];
    pr->last_procedure = procedure;
    if (m->ops->procedure_switch) {
        sim_time occ = 0;
        sim_time stall = m->ops->procedure_switch(m->model, proc, procedure, pr->f.clock, &occ);
        pr->f.clock += stall;
        if (pr->in_section && (stall || occ)) { /* a charged switch (not a free mode) */
            m->section.procedure_switches++;
            m->section.procedure_switch_cycles += stall;
        }
        if (occ && !m->fixed) {
            sim_time from = m->ctrl_busy[proc] > pr->f.clock ? m->ctrl_busy[proc] : pr->f.clock;
            m->ctrl_busy[proc] = from + occ;
        }
    }
}

int sim_procedure_switch(sim_machine *m, int proc, int procedure)
{
    if (proc < 0 || proc >= m->nprocs) {
        fail(m, PROTO_EINVAL, "sim_procedure_switch: processor %d, but the machine has %d", proc,
             m->nprocs);
        return m->failed;
    }
    sim_fast_settle(&m->procs[proc].f);
    if (procedure != m->procs[proc].last_procedure)
        procedure_changed(m, proc, procedure);
    return 0;
}

/* The measured section: the first begin to the last end, by the processors'
 * clocks; procedure switches are counted while their processor is inside. */
int sim_section_begin(sim_machine *m, int proc)
{
    if (proc < 0 || proc >= m->nprocs) {
        fail(m, PROTO_EINVAL, "sim_section_begin: processor %d, but the machine has %d", proc,
             m->nprocs);
        return m->failed;
    }
    sim_proc *pr = &m->procs[proc];
    sim_fast_settle(&pr->f);
    if (pr->in_section)
        return 0; /* already inside: the section began earlier */
    pr->in_section = 1;
    if (m->inside_section++ == 0 && m->ops->section)
        m->ops->section(m->model, 1);
    if (!m->section.begun || pr->f.clock < m->section.begin)
        m->section.begin = pr->f.clock;
    m->section.begun = 1;
    return 0;
}

int sim_section_end(sim_machine *m, int proc)
{
    if (proc < 0 || proc >= m->nprocs) {
        fail(m, PROTO_EINVAL, "sim_section_end: processor %d, but the machine has %d", proc,
             m->nprocs);
        return m->failed;
    }
    sim_proc *pr = &m->procs[proc];
    sim_fast_settle(&pr->f);
    if (!pr->in_section)
        return -1; /* no begin on this processor: the caller reports it */
    pr->in_section = 0;
    if (--m->inside_section == 0 && m->ops->section)
        m->ops->section(m->model, 0);
    if (!m->section.ended || pr->f.clock > m->section.end)
        m->section.end = pr->f.clock;
    m->section.ended = 1;
    return 0;
}

void sim_section_get(const sim_machine *m, sim_section *out) { *out = m->section; }

int sim_fence(sim_machine *m, int proc)
{
    if (proc < 0 || proc >= m->nprocs) {
        fail(m, PROTO_EINVAL, "sim_fence: processor %d, but the machine has %d", proc, m->nprocs);
        return m->failed;
    }
    sim_proc *pr = &m->procs[proc];
    sim_fast_settle(&pr->f);
    if (m->failed)
        return m->failed;
    if (!pr->nposted || pr->f.stalled)
        return SIM_HIT;
    pr->wait_block = WAIT_DRAIN;
    pr->f.stalled = 1;
    return SIM_STALL;
}

int sim_ref(sim_machine *m, int proc, uintptr_t addr, uint32_t size, int is_write,
            int procedure)
{
    sim_proc *pr = &m->procs[proc];
    sim_fast_settle(&pr->f);
    if (m->failed)
        return m->failed;
    if (pr->f.stalled)
        return SIM_STALL;
    if (past_clock_limit(m, pr->f.clock, proc))
        return m->failed;
    is_write = !!is_write;
    if (procedure != pr->last_procedure)
        procedure_changed(m, proc, procedure);
    m->now = pr->f.clock;
    /* a hit in one line: the front end's inline path does the same */
    if (sim_ref_fast(&pr->f, addr, size, is_write))
        return SIM_HIT;
    sim_fast_count(&pr->f);
    uint64_t entry = (addr - m->base) >> pr->f.tlb_shift, *recent = pr->f.tlb_recent;
    if (addr >= m->base && addr - m->base < m->bytes && entry != recent[0] &&
        entry != recent[1] && entry != recent[2] && entry != recent[3]) {
        /* the TLB, looked up by every reference (the recent entries are
         * in it: the hit path took them); the refill comes first */
        memmove(recent + 1, recent, 3 * sizeof *recent);
        recent[0] = entry;
        pr->f.clock += m->ops->tlb_miss(m->model, proc, entry, pr->f.clock);
        m->now = pr->f.clock;
    }
    if (pr->nuse) {
        /* a posted load's value is used by now (every reference counts,
         * in the region or not): the processor waits for it and makes
         * this reference then (R10000: the load is at the head of the
         * address queue, which the references after it have filled) */
        if (sim_next_event(m) <= pr->f.clock && sim_run_until(m, pr->f.clock))
            return m->failed;
        m->now = pr->f.clock;
        sim_pending *due = value_due(pr);
        if (due) {
            pr->rest_addr = addr;
            pr->rest_size = size;
            pr->is_write = (uint8_t)is_write;
            pr->procedure = procedure;
            pr->had_miss = 0;
            pr->wait_block = due->block;
            pr->f.stalled = 1;
            return SIM_STALL;
        }
    }
    uint64_t off = addr - m->base;
    if (addr < m->base || off >= m->bytes || size == 0) {
        pr->f.clock += m->p.hit_cycles;
        return SIM_HIT;
    }
    /* Message timed: what happened before this reference in simulated time
     * happens before it here too.  The processor may have run ahead of
     * the event queue on hits (up to --quantum references); a miss or an
     * eviction reserves controllers and links, so the messages due by now
     * are handled first, else a processor running ahead would take a
     * protocol processor before earlier requests (and a result would
     * depend on the quantum). */
    if (!m->fixed && sim_next_event(m) <= pr->f.clock) {
        if (sim_run_until(m, pr->f.clock))
            return m->failed;
        m->now = pr->f.clock; /* events only take lines away: still a miss */
    }
    pr->rest_addr = addr;
    pr->rest_size = size;
    pr->is_write = (uint8_t)is_write;
    pr->procedure = procedure;
    pr->had_miss = 0;
    int r = walk_ref(m, proc, pr->f.clock);
    if (r == SIM_POSTED) /* the store retires into the write buffer */
        r = SIM_HIT;
    if (r == SIM_HIT)
        pr->f.clock += m->p.hit_cycles;
    else if (r == MISS_DONE) /* fixed latency, complete: the clock is at its end */
        r = pr->f.period && !pr->f.in_window ? SIM_HIT : SIM_STALL;
    return r;
}

/* ---------------- private memory ---------------- */

/* (a region of 2^31 lines or more leaves no tags for private lines) */
int sim_has_private_memory(const sim_machine *m)
{
    return m->ops->private_miss != NULL && m->nblocks < PRIVATE_TAG;
}

int sim_ref_private(sim_machine *m, int proc, uintptr_t addr, uint32_t size, int is_write)
{
    sim_proc *pr = &m->procs[proc];
    sim_fast_settle(&pr->f);
    if (m->failed)
        return m->failed;
    if (pr->f.stalled)
        return SIM_STALL;
    if (!sim_has_private_memory(m) || size == 0)
        return SIM_HIT;
    if (past_clock_limit(m, pr->f.clock, proc))
        return m->failed;
    m->now = pr->f.clock;
    pr->private_refs++;
    sim_time t = pr->f.clock;
    int missed = 0;
    uint64_t first = addr >> m->line_shift, last = ((uint64_t)addr + size - 1) >> m->line_shift;
    for (uint64_t line = first; line <= last && !m->failed; line++) {
        uint32_t tag = private_tag(line);
        sim_line *l = sim_cache_find(&pr->f.cache, tag);
        if (m->ref_fn)
            m->ref_fn(m->ref_arg, proc, is_write, l ? SIM_REF_HIT : SIM_REF_MISS,
                      SIM_HOME_PRIVATE, t);
        if (l) {
            if (pr->f.cache.assoc > 1)
                sim_line_use(&pr->f.cache, l);
            continue;
        }
        l = sim_cache_victim(&pr->f.cache, tag);
        if (l->block != SIM_LINE_EMPTY && !(l->block & PRIVATE_TAG))
            evict_line(m, proc, l, -1, t); /* a shared line leaves through the engine */
        /* a private victim goes back to local memory: no message, no record */
        l->block = tag;
        l->perm = PROTO_ACCESS_WRITE;
        l->bin = -1;
        l->touched[0] = l->touched[1] = 0;
        if (pr->f.cache.assoc > 1)
            sim_line_use(&pr->f.cache, l);
        sim_time occ = 0, start = t;
        sim_time lat = m->ops->private_miss(m->model, proc, is_write, t, &occ);
        if (!m->fixed) { /* behind the handlers already on its controller */
            if (m->ctrl_busy[proc] > start)
                start = m->ctrl_busy[proc];
            if (occ)
                m->ctrl_busy[proc] = start + occ;
        }
        t = start + lat;
        pr->private_misses++;
        missed = 1;
    }
    if (m->failed)
        return m->failed;
    if (!missed) {
        pr->f.clock += m->p.hit_cycles;
        return SIM_HIT;
    }
    pr->f.clock = t;
    return SIM_STALL;
}

uint64_t sim_private_references(const sim_machine *m)
{
    uint64_t n = 0;
    for (int i = 0; i < m->nprocs; i++)
        n += m->procs[i].private_refs;
    return n;
}

uint64_t sim_private_misses(const sim_machine *m)
{
    uint64_t n = 0;
    for (int i = 0; i < m->nprocs; i++)
        n += m->procs[i].private_misses;
    return n;
}

/* ---------------- events ---------------- */

/* Message timed: node's controller starts handling msg at `start`; what it
 * sends leaves, and a completed miss resumes, at start + latency. */
static void handle_msg(sim_machine *m, const proto_msg *msg, sim_time start, sim_time latency)
{
    if (is_request(msg->type)) {
        sim_pending *q = pending_of(&m->procs[msg->src], msg->block);
        if (q && !q->req_seq)
            q->req_seq = ++m->home_seq;
    }
    engine_call(m, msg->dst, CALL_RECEIVE, msg->block, 0, msg, start + latency);
}

static void dispatch(sim_machine *m, const sim_event *ev)
{
    switch (ev->kind) {
    case SIM_EV_RESUME: {
        resume_ref(m, ev->node, ev->time);
        break;
    }
    case SIM_EV_ARRIVE: {
        int node = ev->msg.dst;
        int is_home = proto_home(m->procs[node].eng, ev->msg.block) == node;
        sim_time start = ev->time > m->ctrl_busy[node] ? ev->time : m->ctrl_busy[node];
        sim_time occ = 1;
        sim_time lat = handler_cost(m, node, &ev->msg, is_home, 0, ev->time, start, &occ);
        m->ctrl_busy[node] = start + (occ ? occ : 1);
        if (start == ev->time) {
            handle_msg(m, &ev->msg, start, lat);
        } else {
            sim_event h = *ev;
            h.kind = SIM_EV_HANDLE;
            h.time = start;
            h.latency = lat;
            push_event(m, &h);
        }
        break;
    }
    case SIM_EV_HANDLE: handle_msg(m, &ev->msg, ev->time, ev->latency); break;
    case SIM_EV_REQUEST: {
        int p = ev->node;
        sim_pending *q = pending_of(&m->procs[p], ev->msg.block);
        if (!q)
            break; /* cannot happen: a request's miss stays until its grant */
        sim_time t = ev->time + ev->latency;
        if (ev->msg.dst == p)
            q->req_seq = ++m->home_seq;
        retry_access(m, p, q, t);
        break;
    }
    default: break;
    }
}

int sim_run_until(sim_machine *m, sim_time t)
{
    sim_event ev;
    settle_all(m);
    while (!m->failed) {
        const sim_event *next = sim_evq_peek(&m->q);
        if (!next || next->time > t)
            break;
        sim_evq_pop(&m->q, &ev);
        m->now = ev.time;
        dispatch(m, &ev);
    }
    return m->failed;
}
