/* sim.h - simulated machines driven by the protocol engine.
 *
 * A sim_machine is P simulated processors, each with a cache model and a
 * node of the same coherence engine the DSM runs (protocol/proto.h): one
 * block of the engine is one cache line.  Misses, upgrades and evictions
 * become engine events; the actions the engine emits become timed messages
 * in an event queue; a network model and a timing model (per machine) turn
 * them into simulated cycles.  Pure, as protocol/ is: no I/O, no threads, no
 * clocks; data values are not modelled (the program's memory is real, the
 * front end in dsm/ lets the real access happen after the model has said
 * when).
 *
 * The front end (dsm/simfront/) drives a machine like this:
 *   m = sim_create(&params, base, bytes, err, sizeof err);
 *   sim_place(m, addr, len, home)           homes of the pages of a range
 *   bin = sim_bin(m, addr, len, "name")     a data bin (dsm_alloc names)
 *   loop: p = the runnable processor with the smallest sim_clock(m, p);
 *         sim_run_until(m, sim_clock(m, p))    deliver events up to then;
 *         r = sim_ref(m, p, addr, size, is_write, procedure)
 *             SIM_HIT: the clock of p advanced, p may go on;
 *             SIM_STALL: the reference missed: let the scheduler decide.  A
 *             miss in flight stalls p until sim_stalled(m, p) is 0 again
 *             (sim_run_until delivers the completion and sets p's clock to
 *             the completion time); on a fixed-latency machine a miss that
 *             completed at once has already moved p's clock to its
 *             completion and p is not stalled.
 *   the hit path may be inlined: sim_ref_fast(sim_fast_of(m, p), ...)
 *   before sim_ref (below).
 *   when no processor is runnable: sim_run_until(m, sim_next_event(m)).
 *   sim_set_clock / sim_add_cycles: synchronisation and busy time.
 * Ownership of this header: the machine core (sim.c and friends); extend,
 * do not change the signatures the front end uses without telling it. */
#ifndef DSM_SIM_H
#define DSM_SIM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef uint64_t sim_time;          /* processor cycles */
#define SIM_NEVER UINT64_MAX

typedef struct sim_machine sim_machine;

/* Miss causes (MemSpy 4.2.7-4.2.8): the first event that removed the line
 * from this processor's cache; UNKNOWN when that happened while statistics
 * were off (time sampling, Ch. 6). */
typedef enum sim_cause {
    SIM_CAUSE_COLD,          /* this processor never had the line */
    SIM_CAUSE_REPLACEMENT,   /* evicted by this processor's own cache */
    SIM_CAUSE_INVALIDATION,  /* taken away by another processor's write */
    SIM_CAUSE_UPGRADE,       /* write to a read-only copy (not a data miss) */
    SIM_CAUSE_UNKNOWN,
    SIM_NCAUSES
} sim_cause;

/* FlashPoint modes (000_..., section 3): off/control collect statistics at no
 * cost; DP, FP-NoProc and FP-Proc charge monitoring as handler occupancy. */
typedef enum sim_fp_mode {
    SIM_FP_CONTROL = 0,
    SIM_FP_DP,
    SIM_FP_NOPROC,
    SIM_FP_PROC,
    SIM_FP_NMODES
} sim_fp_mode;

/* One miss, as the statistics collectors see it (at its completion). */
typedef struct sim_miss {
    int proc;                /* requesting processor */
    int procedure;           /* front end's procedure id, -1: unknown */
    int bin;                 /* data bin, -1: none */
    uintptr_t addr;          /* address referenced */
    uint32_t line;           /* engine block number */
    int home;                /* home node of the line */
    uint8_t is_write;
    uint8_t is_upgrade;      /* write to a read-only copy */
    uint8_t cause;           /* sim_cause */
    uint8_t remote;          /* home != proc */
    uint8_t warm;            /* the line had been touched by some processor before
                                (FlashPoint's system-wide warm bit) */
    uint8_t false_sharing;   /* invalidation miss whose bytes the invalidating
                                writer did not touch (MemSpy true/false) */
    uint8_t in_section;      /* issued inside its processor's measured section
                                (sim_section_begin/end) */
    uint32_t invalidations;  /* INVs the home sent to serve it */
    int evicted_by_bin;      /* replacement miss: the bin whose fill evicted it */
    sim_time issue, latency; /* cycles */
} sim_miss;

#define SIM_MAX_PROCS 1024

/* sim_params.sample_unit (sample_unit=cycles|refs) */
enum { SIM_UNIT_DEFAULT = 0, SIM_UNIT_CYCLES = 1, SIM_UNIT_REFS = 2 };

/* Bounds on simulated time (doc/simulation.md, "Bounds"): every cost an
 * option sets is bounded (below and the models' set()), so one step of the
 * simulation (a reference, a message, a handler, a stretch of hits between
 * two scheduling decisions) adds less than 2^50 cycles to any time; the
 * machine ends a run with an error once a clock or an event passes
 * SIM_CLOCK_LIMIT, so no time ever comes near 2^64, and sums of stall
 * cycles over SIM_MAX_PROCS processors stay below 2^63.  sim_params_set
 * refuses values above these; sim_params_check checks them again. */
#define SIM_CLOCK_LIMIT (1ull << 52)          /* cycles: 52 days at 1 GHz */
#define SIM_MAX_COST_CYCLES 1000000ull        /* hit_cycles, the fixed machines' latencies */
#define SIM_MAX_SAMPLE_CYCLES 1000000000000ull /* sample_period, sample_length */
#define SIM_MAX_LINE_SIZE 4096u
#define SIM_MAX_CACHE_SIZE (1u << 30)         /* bytes per processor */
#define SIM_MAX_ASSOC 65536u
#define SIM_MAX_PAGE_SIZE (1u << 30)
#define SIM_MAX_OUTSTANDING 16u               /* outstanding= */
#define SIM_MAX_LOAD_USE 4096u                /* load_use= */

/* Page placement (option placement=): program (sim_place's homes, the
 * default), first_touch (a page's home is the processor whose miss touches
 * it first, as IRIX places pages), round_robin (page i on processor i mod P).
 * The two OS policies ignore sim_place for pages not yet touched. */
typedef enum sim_placement {
    SIM_PLACE_PROGRAM = 0,
    SIM_PLACE_FIRST_TOUCH,
    SIM_PLACE_ROUND_ROBIN,
} sim_placement;

/* Machine parameters; sim_params_for fills the defaults of a named machine,
 * sim_params_set overrides one by key ("cache_size=65536", ...). */
typedef struct sim_params {
    char machine[32];        /* "uniform", "numa", "flash" */
    int nprocs;
    uint32_t line_size;      /* bytes, power of two */
    uint32_t cache_size;     /* bytes per processor */
    uint32_t assoc;          /* ways; 1: direct mapped */
    uint32_t page_size;      /* home placement unit */
    sim_time hit_cycles;
    int replacement_hints;   /* clean evictions tell the home */
    int excl_clean;          /* read of an unowned line grants exclusive-clean */
    int downgrade_on_read;   /* read_recall=keep (1, the default): a read of a line
                                owned elsewhere leaves the owner a shared copy, as
                                hardware does; drop (0): the owner keeps nothing */
    int fp_mode;             /* sim_fp_mode (FLASH) */
    uint64_t sample_period;  /* time sampling: 0 = statistics always on; else */
    uint64_t sample_length;  /* statistics on for sample_length of each sample_period cycles */
    uint32_t outstanding;    /* misses a processor may have in flight (message-timed
                                machines): the one it waits for, and the stores of
                                its write buffer and loads not yet used (load_use)
                                it goes on past; 0 or 1: it waits
                                for every miss (the fixed-latency machines always) */
    uint32_t load_use;       /* with outstanding > 1: the references a processor makes
                                after a load miss before it needs the value (then it
                                waits for the miss); 0: a load miss always waits */
    int reschedule_sync;     /* reschedule=sync (1): the front end switches processors
                                only at synchronisation, as MemSpy 5.1.1 (and when a
                                processor must wait for an event); miss (0): also at
                                every miss and every --quantum references */
    int sample_warm;         /* sample_caches=warm (1): between windows every reference
                                is still simulated (caches and directory stay those of a
                                full run, statistics off); stale (0, the default):
                                fixed-latency machines do not simulate them, as MemSpy
                                Ch. 6 (caches go stale, the first misses of a window
                                have unknown cause, Eq. 6.1's U) */
    int sample_gap_hit;      /* sample_gap=hit (1): a reference between windows (stale
                                caches) costs hit_cycles; window (0, the default): the
                                cycles per reference of the processor's last window */
    int sample_unit;         /* SIM_UNIT_*: what sample_period and sample_length count:
                                each processor's cycles, or (stale caches only) the
                                references of the whole machine in the order they are
                                simulated (MemSpy's counter over the interleaved trace);
                                the default: references with stale caches, else cycles */
    int sample_random;       /* sample_offset=random (1): each window at a pseudo-random
                                place in its period (sim_window_offset); start (0): at
                                the start of each period */
    int placement;           /* sim_placement: who decides a page's home (placement=) */
    /* the machine's own timing constants live in its model (timing.h):
     * "key=value" options for it, separated by ';', in the order given
     * (sim_params_set validates and appends them; sim_create replays them) */
    char model_options[512];
} sim_params;

int sim_params_for(const char *machine, int nprocs, sim_params *out, char *err, size_t errlen);
int sim_params_set(sim_params *p, const char *key_eq_value, char *err, size_t errlen);
/* The checks sim_create makes (power-of-two line size, cache at least a
 * line, ...): 0, or -1 with a message naming the bad parameter. */
int sim_params_check(const sim_params *p, char *err, size_t errlen);
/* names of the machines, NULL-terminated */
extern const char *const sim_machine_names[];

sim_machine *sim_create(const sim_params *p, uintptr_t base, size_t bytes, char *err,
                        size_t errlen);
void sim_destroy(sim_machine *m);
const sim_params *sim_get_params(const sim_machine *m);

/* Homes of the pages in [addr, addr+len): to `home`, or round robin by page
 * when home < 0.  Every line must be placed before it is referenced. */
int sim_place(sim_machine *m, uintptr_t addr, size_t len, int home);
/* The home of addr's page: the one placed, or under placement=first_touch
 * (round_robin) the one that policy gave once the page was first missed on
 * (until then, the one placed); -1 outside the region. */
int sim_home_at(const sim_machine *m, uintptr_t addr);
/* A data bin for [addr, addr+len) named `name`; returns its id (>= 0). */
int sim_bin(sim_machine *m, uintptr_t addr, size_t len, const char *name);

enum { SIM_HIT = 0, SIM_STALL = 1 };
/* Processor proc references [addr, addr+size) (may span lines) at its clock.
 * A reference whose lines all hit costs hit_cycles; one that misses costs
 * the latencies of its misses instead.  Addresses outside the machine's
 * region cost hit_cycles and are not simulated.  Negative: an engine error
 * (sim_error says which); the machine is then unusable. */
int sim_ref(sim_machine *m, int proc, uintptr_t addr, uint32_t size, int is_write,
            int procedure);
/* A reference of proc to its private memory ([addr, addr+size) outside the
 * region: stack, private heap, file-scope data), on a machine whose timing
 * model has private_miss (sim_has_private_memory): the lines go through
 * proc's cache like shared ones (they compete for its sets; a shared victim
 * leaves through the engine), tagged apart from the region's lines, and a
 * miss is served by the processor's own memory without coherence at the
 * model's private_miss latency.  SIM_HIT (hit_cycles), SIM_STALL after a
 * miss (the processor is not stalled: its clock is at the miss's end, the
 * scheduler decides), negative on a machine error.  On other machines:
 * SIM_HIT, nothing simulated. */
int sim_ref_private(sim_machine *m, int proc, uintptr_t addr, uint32_t size, int is_write);
int sim_has_private_memory(const sim_machine *m);
/* Private references and their misses so far, all processors. */
uint64_t sim_private_references(const sim_machine *m);
uint64_t sim_private_misses(const sim_machine *m);
int sim_stalled(const sim_machine *m, int proc);
/* A fence (synchronisation, FP-Proc's procedure command): SIM_HIT when
 * proc's write buffer is empty, else SIM_STALL: proc is stalled until its
 * buffered stores complete (sim_run_until delivers them and moves its clock
 * to the last completion when that is later). */
int sim_fence(sim_machine *m, int proc);
sim_time sim_clock(const sim_machine *m, int proc);
void sim_set_clock(sim_machine *m, int proc, sim_time t);
void sim_add_cycles(sim_machine *m, int proc, sim_time n);
/* 0 while proc's clock is within SIM_CLOCK_LIMIT; past it the machine
 * fails (negative; sim_error says why).  sim_ref and the events check it
 * themselves; the front end checks a processor that only hit since. */
int sim_check_clock(sim_machine *m, int proc);
sim_time sim_next_event(const sim_machine *m);
/* Deliver every event due at or before t; 0, or a negative engine error
 * (the text is in sim_error). */
int sim_run_until(sim_machine *m, sim_time t);
const char *sim_error(const sim_machine *m);

int sim_nbins(const sim_machine *m);
const char *sim_bin_name(const sim_machine *m, int bin);
/* Is the statistics window open (time sampling: sample_period/length)? */
int sim_stats_on(const sim_machine *m);
/* References simulated so far (all processors), for progress and benchmarks. */
uint64_t sim_references(const sim_machine *m);
/* ... of which made while the statistics window was open (time sampling). */
uint64_t sim_references_sampled(const sim_machine *m);
/* ... of which, with stale caches (time sampling on a fixed-latency machine,
 * sample_caches=stale), the hits whose outcome in a full run is unknown: a
 * window's first reference to a line held since an earlier window (the
 * misses of unknown cause are the rest of Eq. 6.1's U). */
uint64_t sim_unknown_hits(const sim_machine *m);
/* 1 when time sampling leaves the references between windows unsimulated
 * (a fixed-latency machine with sample_caches=stale, the default). */
int sim_sampling_stale(const sim_machine *m);

/* Processor proc's current procedure changed to `procedure` (the front end
 * calls it at procedure entry and exit when sim_has_procedure_switch says
 * the timing model charges for it: FlashPoint's FP-Proc mode).  The model's
 * cycles are added to proc's clock, its occupancy to proc's controller.
 * 0; a repeat of the current procedure costs nothing. */
int sim_procedure_switch(sim_machine *m, int proc, int procedure);
int sim_has_procedure_switch(const sim_machine *m);

/* The measured section of a run (SPLASH-2's timed part, between the
 * program's dsm_sim_section_begin and dsm_sim_section_end): it runs from the
 * earliest clock at which a processor began it to the latest clock at which
 * one ended it.  A processor already inside ignores another begin;
 * sim_section_end on a processor that is not inside returns -1 and changes
 * nothing.  Procedure switches (sim_procedure_switch) that the model charged
 * (cycles or occupancy) on a processor inside its section are counted, with
 * the cycles they added to its clock. */
typedef struct sim_section {
    int begun, ended;             /* some processor began / ended it */
    sim_time begin, end;          /* first begin's clock, last end's clock */
    uint64_t procedure_switches;  /* charged switches inside the section */
    sim_time procedure_switch_cycles;
} sim_section;
int sim_section_begin(sim_machine *m, int proc);
int sim_section_end(sim_machine *m, int proc);
void sim_section_get(const sim_machine *m, sim_section *out);

/* ---------------- the hit path, inlined by the front end ----------------
 * A reference that stays inside one line and finds it cached with the
 * access it needs is a hit: its cost is hit_cycles and the bytes it touched
 * are recorded (true/false sharing), nothing else.  sim_ref_fast does
 * exactly what sim_ref does for such a reference, inline in the caller (no
 * call, no lookups through the machine); it returns 0 when the reference is
 * anything else, and the caller then calls sim_ref.  The structures are the
 * machine core's (protocol/sim/cache.h has the cache's functions): callers
 * only read through sim_fast_of and sim_ref_fast.  The processor must be
 * the running one, not stalled (the front end never runs a stalled one). */
typedef struct sim_line {
    uint32_t block;      /* engine block held, SIM_LINE_EMPTY: none */
    uint8_t perm;        /* PROTO_ACCESS_* (0 none, 1 read, 2 write); none with a
                            block: fill in flight */
    uint8_t window;      /* time sampling, stale caches: the window (epoch, mod 256)
                            in which this processor last referenced the line */
    uint8_t pad[2];
    int32_t bin;         /* bin of the fill, -1: none */
    uint32_t lru;        /* larger: used more recently */
    uint64_t touched[2]; /* bytes touched since the fill (cache.h) */
} sim_line;
#define SIM_LINE_EMPTY UINT32_MAX

typedef struct sim_cache {
    sim_line *lines;     /* nsets * assoc, set-major */
    uint32_t nsets, assoc, set_mask;
    uint32_t lru_clock;
    unsigned touch_shift; /* bytes per touched bit = 1 << touch_shift */
} sim_cache;

/* One processor's state that the hit path reads and writes, together. */
typedef struct sim_fast {
    sim_time clock;          /* the processor's simulated clock */
    sim_cache cache;
    uintptr_t base;          /* the machine's region [base, base + bytes) */
    uint64_t bytes;
    uint32_t line_mask;      /* line_size - 1 */
    unsigned line_shift;
    sim_time hit_cycles;
    uint64_t refs;           /* references of this processor */
    uint64_t refs_sampled;   /* ... made inside statistics windows (time sampling) */
    /* time sampling: the window state holds for clocks in
     * [win_start, win_start + win_span) */
    uint64_t period, length; /* sample_period, sample_length (0: no sampling) */
    uint64_t window_random;  /* sample_random: windows placed by sim_window_offset */
    sim_time win_start, win_span;
    uint8_t stalled;         /* a reference is in progress (a miss in flight):
                                sim_stalled, read by the scheduler */
    uint8_t in_window;       /* statistics on at the last reference */
    uint8_t track_bytes;     /* record touched bytes (off outside windows) */
    uint8_t skip_outside;    /* time sampling on a fixed-latency machine: references
                                outside the windows are not simulated (MemSpy Ch. 6) */
    uint32_t window_epoch;   /* the window last entered: its period's index + 2 (1:
                                none yet) */
    /* stale caches: what a reference between windows adds to the clock,
     * cycles in 1/65536 (the last window's memory cycles per reference,
     * sim_fast_window), and the fraction carried from one to the next */
    uint64_t gap_cost, gap_frac;
    uint64_t mem_cycles;     /* miss cycles of this processor (fixed latency) */
    uint64_t win_refs, win_mem; /* refs and mem_cycles when the window opened */
    uint8_t gap_hit;         /* sample_gap=hit: gap_cost stays hit_cycles */
    uint8_t ref_unit;        /* sample_unit=refs: every reference advances *spos */
    sim_time *spos;          /* where the window state is judged: &clock, or with
                                sample_unit=refs the machine's reference count */
    /* the TLB (sim_timing_ops.tlb_miss): the entries (region offset >>
     * tlb_shift) of this processor's last SIM_TLB_RECENT distinct
     * translations, the newest first; a reference in another entry leaves
     * the hit path.  No TLB: tlb_shift 63 and entry 0 recent, always. */
    uint64_t tlb_recent[4];
    unsigned tlb_shift;
    /* stale caches, windows in references: the references until the next
     * window change nothing but counts, so they are taken as one batch (the
     * caller's hit path then costs one decrement a reference) and counted
     * when anything reads the processor (sim_fast_settle) */
    uint64_t gap_left;       /* references of the batch not yet made */
    uint64_t gap_batch;      /* the batch's references when armed (0: none) */
    uint8_t gap_batching;    /* the caller allows batches: it makes no decision per
                                quantum of references (reschedule=sync) */
} sim_fast;

/* Where the statistics window of period k (cycles [k*period, (k+1)*period))
 * opens, from the period's start: 0 with windows at the start of each
 * period; with random placement (MemSpy 6.7.1: samples that do not keep
 * coinciding with a periodic phase of the program) a pseudo-random offset
 * in [0, period - length] that depends only on k, so runs are repeatable
 * and every period still holds exactly one window of `length` cycles. */
static inline uint64_t sim_window_offset(uint64_t period, uint64_t length, int random,
                                         uint64_t k)
{
    if (!random || length >= period)
        return 0;
    uint64_t z = k + 0x9e3779b97f4a7c15ull; /* splitmix64 of the period's index */
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return z % (period - length + 1);
}

sim_fast *sim_fast_of(sim_machine *m, int proc);
/* Count every processor's batch of references (sim_fast_settle): before
 * the caller reads a sim_fast's clock or counts itself (a scheduler). */
void sim_settle(sim_machine *m);
/* The window state of f's clock changed (internal to the hit path). */
void sim_fast_window(sim_fast *f);

/* The touched-byte mask of [off, off+len) within a line, 1 << shift bytes a
 * bit (len >= 1, inside the line).  Scalars, never an array: two 8-byte
 * stores read back as one 16-byte load stall on store forwarding, and that
 * was most of the hit path's time. */
static inline __attribute__((always_inline)) void
sim_touch_bits(unsigned shift, uint32_t off, uint32_t len, uint64_t *m0, uint64_t *m1)
{
    unsigned lo = off >> shift, hi = (off + len - 1) >> shift;
    if (hi > 127)
        hi = 127;
    uint64_t from = ~0ull << (lo & 63), upto = ~0ull >> (63 - (hi & 63));
    if (hi < 64) {
        *m0 = from & upto;
        *m1 = 0;
    } else if (lo >= 64) {
        *m0 = 0;
        *m1 = from & upto;
    } else {
        *m0 = from;
        *m1 = upto;
    }
}

/* Mark [off, off+len) of line l touched. */
static inline __attribute__((always_inline)) void sim_line_touch(sim_line *l, unsigned shift,
                                                                 uint32_t off, uint32_t len)
{
    uint64_t m0, m1;
    sim_touch_bits(shift, off, len, &m0, &m1);
    if (m0)
        l->touched[0] |= m0;
    if (m1)
        l->touched[1] |= m1;
}

/* Time sampling's bookkeeping of one reference at f's clock (or, with
 * sample_unit=refs, at the machine's count of references before it). */
static inline __attribute__((always_inline)) void sim_fast_count(sim_fast *f)
{
    f->refs++;
    if (f->period) {
        if (*f->spos - f->win_start >= f->win_span) /* also when the clock went back */
            sim_fast_window(f);
        *f->spos += f->ref_unit;
        f->refs_sampled += f->in_window;
    }
}

/* Count the references made of f's batch (as sim_ref_fast would have one
 * by one: the clock's fraction carried the same) and end the batch. */
static inline void sim_fast_settle(sim_fast *f)
{
    if (!f->gap_batch)
        return;
    uint64_t n = f->gap_batch - f->gap_left;
    f->gap_batch = f->gap_left = 0;
    *f->spos += n; /* ref_unit is 1 with batches */
    f->refs += n;
    uint64_t frac = f->gap_frac + n * f->gap_cost;
    f->clock += frac >> 16;
    f->gap_frac = frac & 0xffff;
}

/* Batches are capped so that n * gap_cost above stays far from 2^64. */
#define SIM_GAP_BATCH_MAX (1u << 24)

static inline __attribute__((always_inline)) int sim_ref_fast(sim_fast *f, uintptr_t addr,
                                                              uint32_t size, int is_write)
{
    if (__builtin_expect(f->skip_outside, 0)) {
        /* between windows the program runs as MemSpy's did with the
         * simulator off: a reference costs a hit and touches nothing (the
         * caches go stale) */
        sim_fast_settle(f);
        if (*f->spos - f->win_start >= f->win_span)
            sim_fast_window(f);
        if (!f->in_window && f->gap_batching && f->ref_unit && (f->gap_cost >> 40) == 0) {
            /* the references up to the window's opening: this one and a
             * batch of the next ones (the caller's sim_ref_gap) */
            uint64_t n = f->win_start + f->win_span - *f->spos;
            if (n > SIM_GAP_BATCH_MAX)
                n = SIM_GAP_BATCH_MAX;
            f->gap_batch = n;
            f->gap_left = n - 1;
            return 1;
        }
        if (!f->in_window) {
            *f->spos += f->ref_unit;
            f->refs++;
            f->gap_frac += f->gap_cost;
            f->clock += f->gap_frac >> 16;
            f->gap_frac &= 0xffff;
            return 1;
        }
    }
    uint64_t off = addr - f->base;
    uint32_t in_line = (uint32_t)off & f->line_mask;
    if (off >= f->bytes || in_line + size > f->line_mask + 1 || size == 0)
        return 0;
    uint64_t e = off >> f->tlb_shift; /* not a recent TLB entry: sim_ref looks it up */
    if (e != f->tlb_recent[0] && e != f->tlb_recent[1] && e != f->tlb_recent[2] &&
        e != f->tlb_recent[3])
        return 0;
    uint32_t block = (uint32_t)(off >> f->line_shift);
    sim_cache *c = &f->cache;
    sim_line *l = &c->lines[(size_t)(block & c->set_mask) * c->assoc];
    if (l->block != block) {
        uint32_t w = 1;
        while (w < c->assoc && l[w].block != block)
            w++;
        if (w >= c->assoc)
            return 0;
        l += w;
    }
    if (l->perm <= (unsigned)is_write) /* READ=1 > 0, WRITE=2 > 1 */
        return 0;
    /* a window's first reference to a line held since before it: its
     * outcome in the full run is unknown (sim_ref counts it, Eq. 6.1) */
    if (f->skip_outside && l->window != (uint8_t)f->window_epoch)
        return 0;
    sim_fast_count(f);
    if (f->track_bytes)
        sim_line_touch(l, c->touch_shift, in_line, size);
    if (c->assoc > 1)
        l->lru = ++c->lru_clock;
    f->clock += f->hit_cycles;
    return 1;
}

/* A reference of f's batch (stale caches, between windows): 1 when it is
 * one, counted later (sim_fast_settle); 0 when none is left, and the
 * reference then goes to sim_ref_fast. */
static inline __attribute__((always_inline)) int sim_ref_gap(sim_fast *f)
{
    if (!f->gap_left)
        return 0;
    f->gap_left--;
    return 1;
}

/* Statistics collectors see every miss while the statistics window is open;
 * more than one may be attached. */
typedef void (*sim_miss_fn)(void *arg, const sim_miss *miss);
int sim_on_miss(sim_machine *m, sim_miss_fn fn, void *arg);

/* Every line of every reference, as the processor's cache answers it
 * (monitoring hardware that counts hits: the Alewife CMMU's statistics).
 * One observer per machine; attaching it turns the inline hit path off for
 * the machine's processors (sim_ref_fast declines), so references cost a
 * call.  home: the line's home node
 * (SIM_HOME_PRIVATE for a private line). */
enum { SIM_REF_HIT = 0, SIM_REF_MISS = 1, SIM_REF_UPGRADE = 2 };
/* The home an observer is given for a private line (sim_ref_private). */
#define SIM_HOME_PRIVATE (-2)
typedef void (*sim_ref_fn)(void *arg, int proc, int is_write, int outcome, int home, sim_time t);
int sim_on_ref(sim_machine *m, sim_ref_fn fn, void *arg);

#ifdef __cplusplus
}
#endif
#endif
