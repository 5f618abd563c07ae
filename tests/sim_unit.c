/* sim_unit.c - unit tests of the simulator's machine core (protocol/sim:
 * sim.h, timing.h), Check framework.  Small deterministic reference streams
 * are driven straight through sim_ref / sim_run_until and the misses the
 * machine reports are compared with hand-computed values:
 *   - uniform machine: cold misses and hits, replacement with the evicting
 *     bin, a conflict in the direct-mapped cache, invalidation and upgrade,
 *     two processors ping-ponging a line, packed per-processor words (false
 *     sharing) against writes to the same bytes (true sharing);
 *   - numa machine: latency per mesh hop distance, dirty lines served by
 *     their owner;
 *   - message-timed machines (a test model with random network delays):
 *     FIFO delivery per pair, exact latency of a simple miss, determinism;
 *   - time sampling: no callbacks while statistics are off, causes UNKNOWN
 *     after a line left during an off window;
 *   - bad parameters give clear errors; every time and size option has a
 *     maximum (2^64 - 1 is refused naming the option and the range), the
 *     cache geometry is checked, time past SIM_CLOCK_LIMIT ends the run.
 * The region is never dereferenced (data values are not modelled), so a
 * made-up base address is used. */
#include "check_main.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim.h"
#include "sim/timing.h"

#define BASE ((uintptr_t)0x10000000u)
#define MAXREC 4096

typedef struct recorder {
    sim_miss v[MAXREC];
    int n;
} recorder;

static void record(void *arg, const sim_miss *ms)
{
    recorder *r = arg;
    if (r->n < MAXREC)
        r->v[r->n++] = *ms;
}

static sim_machine *make(const char *machine, int nprocs, size_t bytes, recorder *rec,
                         const char *const *opts)
{
    sim_params p;
    char err[256];
    ck_assert_msg(sim_params_for(machine, nprocs, &p, err, sizeof err) == 0, "%s", err);
    for (int i = 0; opts && opts[i]; i++)
        ck_assert_msg(sim_params_set(&p, opts[i], err, sizeof err) == 0, "%s", err);
    sim_machine *m = sim_create(&p, BASE, bytes, err, sizeof err);
    ck_assert_msg(m != NULL, "%s", err);
    ck_assert_int_eq(sim_place(m, BASE, bytes, -1), 0);
    if (rec) {
        rec->n = 0;
        ck_assert_int_eq(sim_on_miss(m, record, rec), 0);
    }
    return m;
}

/* One reference by proc, run to its completion. */
static void ref(sim_machine *m, int proc, uintptr_t addr, uint32_t size, int is_write)
{
    ck_assert_int_eq(sim_run_until(m, sim_clock(m, proc)), 0);
    int r = sim_ref(m, proc, addr, size, is_write, 7);
    ck_assert_msg(r == SIM_HIT || r == SIM_STALL, "sim_ref: %d %s", r,
                  sim_error(m) ? sim_error(m) : "");
    while (sim_stalled(m, proc)) {
        sim_time t = sim_next_event(m);
        ck_assert_msg(t != SIM_NEVER, "processor %d stalled with no event pending", proc);
        ck_assert_int_eq(sim_run_until(m, t), 0);
    }
}

START_TEST(cold_and_hits)
{
    recorder *rec = calloc(1, sizeof *rec);
    sim_machine *m = make("uniform", 1, 1 << 20, rec, NULL);
    int bin = sim_bin(m, BASE, 4096, "array");
    ref(m, 0, BASE + 8, 8, 0);
    ck_assert_int_eq(rec->n, 1);
    ck_assert_int_eq(rec->v[0].cause, SIM_CAUSE_COLD);
    ck_assert_int_eq(rec->v[0].latency, 50);
    ck_assert_int_eq(rec->v[0].bin, bin);
    ck_assert_int_eq(rec->v[0].procedure, 7);
    ck_assert_int_eq(rec->v[0].is_write, 0);
    ck_assert_int_eq(rec->v[0].warm, 0);
    ck_assert_uint_eq(sim_clock(m, 0), 50);
    ref(m, 0, BASE + 16, 8, 0);  /* same line: hit, 1 cycle */
    /* a single processor's write to a line no other cache holds: MemSpy's
     * machine has nothing to invalidate, a hit (the uniform machine grants
     * an unshared read line exclusive clean), not a 50-cycle upgrade */
    ref(m, 0, BASE + 24, 8, 1);
    ck_assert_int_eq(rec->n, 1);
    ref(m, 0, BASE + 0, 32, 1);  /* writable: hit */
    ck_assert_int_eq(rec->n, 1);
    ck_assert_uint_eq(sim_clock(m, 0), 50 + 1 + 1 + 1);
    /* a reference spanning two lines: one miss for the second line only */
    ref(m, 0, BASE + 28, 8, 0);
    ck_assert_int_eq(rec->n, 2);
    ck_assert_uint_eq(rec->v[1].line, 1);
    ck_assert_uint_eq(sim_references(m), 5);
    sim_destroy(m);
    free(rec);
}
END_TEST

START_TEST(replacement_with_evicting_bin)
{
    recorder *rec = calloc(1, sizeof *rec);
    sim_machine *m = make("uniform", 1, 1 << 20, rec, NULL);
    int x = sim_bin(m, BASE, 65536, "X");
    int y = sim_bin(m, BASE + 65536, 65536, "Y");
    ref(m, 0, BASE, 4, 0);         /* X cold */
    ref(m, 0, BASE + 65536, 4, 0); /* Y cold: same set, evicts X's line */
    ref(m, 0, BASE, 4, 0);         /* X: replacement by Y */
    ck_assert_int_eq(rec->n, 3);
    ck_assert_int_eq(rec->v[1].cause, SIM_CAUSE_COLD);
    ck_assert_int_eq(rec->v[1].bin, y);
    ck_assert_int_eq(rec->v[2].cause, SIM_CAUSE_REPLACEMENT);
    ck_assert_int_eq(rec->v[2].bin, x);
    ck_assert_int_eq(rec->v[2].evicted_by_bin, y);
    ck_assert_int_eq(rec->v[2].warm, 1);
    sim_destroy(m);
    free(rec);
}
END_TEST

START_TEST(direct_mapped_conflict)
{
    /* 10 alternations of two lines 64 KB apart: 2 cold, 18 replacement; a
     * 2-way cache of the same size keeps both: 2 cold only */
    recorder *rec = calloc(1, sizeof *rec);
    sim_machine *m = make("uniform", 1, 1 << 20, rec, NULL);
    for (int i = 0; i < 10; i++) {
        ref(m, 0, BASE + 64, 8, 0);
        ref(m, 0, BASE + 65536 + 64, 8, 0);
    }
    int cold = 0, repl = 0;
    for (int i = 0; i < rec->n; i++)
        cold += rec->v[i].cause == SIM_CAUSE_COLD, repl += rec->v[i].cause == SIM_CAUSE_REPLACEMENT;
    ck_assert_int_eq(cold, 2);
    ck_assert_int_eq(repl, 18);
    ck_assert_uint_eq(sim_clock(m, 0), 20 * 50);
    sim_destroy(m);

    const char *const assoc2[] = {"assoc=2", NULL};
    m = make("uniform", 1, 1 << 20, rec, assoc2);
    for (int i = 0; i < 10; i++) {
        ref(m, 0, BASE + 64, 8, 0);
        ref(m, 0, BASE + 65536 + 64, 8, 0);
    }
    ck_assert_int_eq(rec->n, 2);
    /* LRU: a third line of the set evicts the least recently used (the first) */
    ref(m, 0, BASE + 2 * 65536 + 64, 8, 0);
    ref(m, 0, BASE + 65536 + 64, 8, 0); /* still there */
    ck_assert_int_eq(rec->n, 3);
    ref(m, 0, BASE + 64, 8, 0);
    ck_assert_int_eq(rec->n, 4);
    ck_assert_int_eq(rec->v[3].cause, SIM_CAUSE_REPLACEMENT);
    sim_destroy(m);
    free(rec);
}
END_TEST

START_TEST(invalidation_and_upgrade)
{
    recorder *rec = calloc(1, sizeof *rec);
    sim_machine *m = make("uniform", 3, 1 << 20, rec, NULL);
    uintptr_t a = BASE + 4096 + 32;
    ref(m, 0, a, 4, 0);
    ref(m, 1, a, 4, 0);
    ref(m, 2, a, 4, 0);
    ref(m, 0, a, 4, 1); /* upgrade: two other copies invalidated */
    ck_assert_int_eq(rec->n, 4);
    ck_assert_int_eq(rec->v[3].is_upgrade, 1);
    ck_assert_int_eq(rec->v[3].invalidations, 2);
    ck_assert_int_eq(rec->v[3].latency, 50);
    ck_assert_int_eq(rec->v[3].home, 1); /* page 1, round robin */
    ck_assert_int_eq(rec->v[3].remote, 1);
    ref(m, 1, a, 4, 0); /* invalidation miss, same bytes: true sharing */
    ck_assert_int_eq(rec->n, 5);
    ck_assert_int_eq(rec->v[4].cause, SIM_CAUSE_INVALIDATION);
    ck_assert_int_eq(rec->v[4].false_sharing, 0);
    ck_assert_int_eq(rec->v[4].remote, 0);
    ref(m, 1, a, 4, 0); /* hit */
    ck_assert_int_eq(rec->n, 5);
    sim_destroy(m);
    free(rec);
}
END_TEST

START_TEST(ping_pong)
{
    recorder *rec = calloc(1, sizeof *rec);
    sim_machine *m = make("uniform", 2, 1 << 20, rec, NULL);
    uintptr_t a = BASE + 128;
    for (int i = 0; i < 10; i++) {
        ref(m, 0, a, 8, 1);
        ref(m, 1, a, 8, 1);
    }
    ck_assert_int_eq(rec->n, 20);
    ck_assert_int_eq(rec->v[0].cause, SIM_CAUSE_COLD);
    ck_assert_int_eq(rec->v[1].cause, SIM_CAUSE_COLD);
    for (int i = 2; i < 20; i++) {
        ck_assert_int_eq(rec->v[i].cause, SIM_CAUSE_INVALIDATION);
        ck_assert_int_eq(rec->v[i].false_sharing, 0);
        ck_assert_int_eq(rec->v[i].is_write, 1);
        ck_assert_int_eq(rec->v[i].is_upgrade, 0);
        ck_assert_int_eq(rec->v[i].proc, i % 2);
    }
    ck_assert_uint_eq(sim_clock(m, 0), 10 * 50);
    sim_destroy(m);
    free(rec);
}
END_TEST

START_TEST(packed_words_false_sharing)
{
    /* 8 processors, each writes its own 4-byte slot of one 32-byte line
     * (LocusRoute's per-processor free lists): after the first round every
     * miss is an invalidation by another processor's different word */
    recorder *rec = calloc(1, sizeof *rec);
    sim_machine *m = make("uniform", 8, 1 << 20, rec, NULL);
    int slots = sim_bin(m, BASE + 256, 32, "slots");
    for (int round = 0; round < 5; round++)
        for (int p = 0; p < 8; p++) {
            ref(m, p, BASE + 256 + 4 * p, 4, 0);
            ref(m, p, BASE + 256 + 4 * p, 4, 1);
        }
    int inval = 0, fs = 0, cold = 0;
    for (int i = 0; i < rec->n; i++) {
        ck_assert_int_eq(rec->v[i].bin, slots);
        if (rec->v[i].is_upgrade)
            continue;
        cold += rec->v[i].cause == SIM_CAUSE_COLD;
        inval += rec->v[i].cause == SIM_CAUSE_INVALIDATION;
        fs += rec->v[i].false_sharing;
    }
    ck_assert_int_eq(cold, 8);
    ck_assert_int_eq(inval, 32);
    ck_assert_int_eq(fs, 32);
    sim_destroy(m);

    /* the same with every processor on the same word: true sharing */
    m = make("uniform", 8, 1 << 20, rec, NULL);
    for (int round = 0; round < 5; round++)
        for (int p = 0; p < 8; p++) {
            ref(m, p, BASE + 256, 4, 0);
            ref(m, p, BASE + 256, 4, 1);
        }
    inval = fs = 0;
    for (int i = 0; i < rec->n; i++) {
        inval += rec->v[i].cause == SIM_CAUSE_INVALIDATION;
        fs += rec->v[i].false_sharing;
    }
    ck_assert_int_eq(inval, 32);
    ck_assert_int_eq(fs, 0);
    sim_destroy(m);
    free(rec);
}
END_TEST

START_TEST(numa_hops)
{
    /* 16 processors on a 4x4 mesh: 34 local, 85 one hop, +5 per further hop */
    int w, h;
    sim_mesh_dims(16, &w, &h);
    ck_assert_int_eq(w, 4);
    ck_assert_int_eq(h, 4);
    sim_mesh_dims(6, &w, &h);
    ck_assert_int_eq(w, 3);
    ck_assert_int_eq(h, 2);
    ck_assert_int_eq(sim_mesh_hops(16, 0, 15), 6);
    ck_assert_int_eq(sim_mesh_hops(16, 5, 6), 1);

    recorder *rec = calloc(1, sizeof *rec);
    sim_machine *m = make("numa", 16, 1 << 20, rec, NULL);
    /* line k*4096 homed at node 0 (all placed there) */
    ck_assert_int_eq(sim_place(m, BASE, 1 << 20, 0), 0);
    int procs[] = {0, 1, 5, 15, 3};
    sim_time want[] = {34, 85, 90, 110, 95};
    for (int i = 0; i < 5; i++) {
        ref(m, procs[i], BASE + 4096 * (i + 1), 4, 0);
        ck_assert_int_eq(rec->n, i + 1);
        ck_assert_msg(rec->v[i].latency == want[i], "proc %d: latency %llu, want %llu",
                      procs[i], (unsigned long long)rec->v[i].latency,
                      (unsigned long long)want[i]);
    }
    /* a dirty line is served by its owner: 15 writes a line homed at 0
     * (6 hops: 110), 14 reads it from 15 (1 hop: 85), then 13 reads it from
     * the home (the recalled owner kept no copy; 4 hops: 100) */
    ref(m, 15, BASE + 65536, 4, 1);
    ck_assert_int_eq(rec->v[rec->n - 1].latency, 110);
    ref(m, 14, BASE + 65536, 4, 0);
    ck_assert_int_eq(rec->v[rec->n - 1].latency, 85);
    ref(m, 13, BASE + 65536, 4, 0);
    ck_assert_int_eq(rec->v[rec->n - 1].latency, 100);
    sim_destroy(m);

    const char *const wb[] = {"write_buffer=1", NULL};
    m = make("numa", 4, 1 << 20, rec, wb);
    ref(m, 3, BASE, 4, 1);
    ck_assert_int_eq(rec->v[0].latency, 1);
    sim_destroy(m);
    free(rec);
}
END_TEST

/* ---- a message-timed test model: random network delays ---- */

typedef struct pair_log {
    uint8_t sent[64][4096];
    int nsent[64];
    uint8_t handled[64][4096];
    int nhandled[64];
} pair_log;

typedef struct test_model {
    uint64_t rng;
    int random;
    int nprocs;
    pair_log *log;
} test_model;

static pair_log *g_log;
static int g_random;

static void tm_defaults(sim_params *p)
{
    p->line_size = 32;
    p->cache_size = 1024;
    p->assoc = 1;
    p->page_size = 256;
    p->hit_cycles = 1;
}
static void *tm_create(const sim_params *p, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    test_model *t = calloc(1, sizeof *t);
    t->rng = 12345;
    t->random = g_random;
    t->nprocs = p->nprocs;
    t->log = g_log;
    return t;
}
static void tm_destroy(void *m) { free(m); }
static int tm_set(void *m, const char *k, const char *v, char *err, size_t errlen)
{
    (void)m, (void)v;
    snprintf(err, errlen, "unknown option '%s'", k);
    return -1;
}
static sim_time tm_net(void *model, const proto_msg *msg, uint32_t bytes, sim_time t)
{
    (void)bytes, (void)t;
    test_model *tm = model;
    if (tm->log) {
        int pair = msg->src * tm->nprocs + msg->dst;
        if (tm->log->nsent[pair] < 4096)
            tm->log->sent[pair][tm->log->nsent[pair]++] = (uint8_t)(msg->type * 16 + msg->block);
    }
    if (!tm->random)
        return 10;
    tm->rng = tm->rng * 6364136223846793005ull + 1442695040888963407ull;
    return 1 + (tm->rng >> 33) % 200;
}
static sim_time tm_handler(void *model, int node, const proto_msg *msg, int is_home, int local,
                           sim_time arrival, sim_time start, sim_time *occ)
{
    (void)node, (void)is_home, (void)arrival, (void)start;
    test_model *tm = model;
    if (tm->log && !local) {
        int pair = msg->src * tm->nprocs + msg->dst;
        if (tm->log->nhandled[pair] < 4096)
            tm->log->handled[pair][tm->log->nhandled[pair]++] =
                (uint8_t)(msg->type * 16 + msg->block);
    }
    *occ = 3;
    return 5;
}
static const sim_timing_ops test_timed = {
    .name = "test-timed",
    .defaults = tm_defaults,
    .create = tm_create,
    .destroy = tm_destroy,
    .set = tm_set,
    .fixed_latency = 0,
    .net_delay = tm_net,
    .handler = tm_handler,
};

static int g_switches;
static sim_time tm_switch(void *model, int proc, int procedure, sim_time t, sim_time *occ)
{
    (void)model, (void)proc, (void)procedure, (void)t;
    g_switches++;
    *occ = 2;
    return 7;
}

static sim_machine *make_timed(int nprocs, recorder *rec)
{
    sim_params p;
    memset(&p, 0, sizeof p);
    snprintf(p.machine, sizeof p.machine, "test-timed");
    p.nprocs = nprocs;
    tm_defaults(&p);
    char err[256];
    sim_machine *m = sim_create_model(&p, &test_timed, BASE, 4096, err, sizeof err);
    ck_assert_msg(m != NULL, "%s", err);
    ck_assert_int_eq(sim_place(m, BASE, 4096, -1), 0);
    rec->n = 0;
    sim_on_miss(m, record, rec);
    return m;
}

START_TEST(timed_latency)
{
    recorder *rec = calloc(1, sizeof *rec);
    g_log = NULL;
    g_random = 0;
    sim_machine *m = make_timed(2, rec);
    /* line 8 (page 1) homed at node 1; processor 0 reads it:
     * local handler 5, network 10, home handler 5, network 10, local handler 5 */
    ref(m, 0, BASE + 256, 4, 0);
    ck_assert_int_eq(rec->n, 1);
    ck_assert_int_eq(rec->v[0].latency, 35);
    ck_assert_uint_eq(sim_clock(m, 0), 35);
    /* a local line: one handler */
    ref(m, 0, BASE, 4, 0);
    ck_assert_int_eq(rec->v[1].latency, 5);
    sim_destroy(m);
    free(rec);
}
END_TEST

/* Random stream on P processors with the scheduler's rule (smallest clock
 * first); returns a hash of every miss record. */
static uint64_t random_run(sim_machine *m, int nprocs, int nrefs, uint32_t span, uint64_t seed)
{
    uint64_t rng = seed, hash = 1469598103934665603ull;
    int left[64];
    for (int p = 0; p < nprocs; p++)
        left[p] = nrefs;
    for (;;) {
        int best = -1;
        for (int p = 0; p < nprocs; p++)
            if (left[p] && !sim_stalled(m, p) &&
                (best < 0 || sim_clock(m, p) < sim_clock(m, best)))
                best = p;
        if (best < 0) {
            sim_time t = sim_next_event(m);
            if (t == SIM_NEVER)
                break;
            ck_assert_int_eq(sim_run_until(m, t), 0);
            continue;
        }
        ck_assert_int_eq(sim_run_until(m, sim_clock(m, best)), 0);
        if (sim_stalled(m, best))
            continue;
        rng = rng * 6364136223846793005ull + 1442695040888963407ull;
        uint32_t off = (uint32_t)(rng >> 20) % span & ~3u;
        int w = (rng >> 60) & 1;
        int r = sim_ref(m, best, BASE + off, 4, w, 0);
        ck_assert_msg(r >= 0, "engine error: %s", sim_error(m));
        left[best]--;
        hash = (hash ^ sim_clock(m, best)) * 1099511628211ull;
    }
    for (int p = 0; p < nprocs; p++) {
        ck_assert_int_eq(sim_stalled(m, p), 0);
        hash = (hash ^ sim_clock(m, p)) * 1099511628211ull;
    }
    return hash;
}

static uint64_t hash_misses(const recorder *rec)
{
    uint64_t h = 1469598103934665603ull;
    for (int i = 0; i < rec->n; i++) {
        const sim_miss *x = &rec->v[i];
        uint64_t f[] = {(uint64_t)x->proc, x->line, x->cause, x->is_upgrade, x->latency,
                        x->issue, x->invalidations, x->false_sharing};
        for (size_t k = 0; k < sizeof f / sizeof f[0]; k++)
            h = (h ^ f[k]) * 1099511628211ull;
    }
    return h ^ (uint64_t)rec->n;
}

START_TEST(fifo_per_pair_random_delays)
{
    recorder *rec = calloc(1, sizeof *rec);
    g_log = calloc(1, sizeof *g_log);
    g_random = 1;
    sim_machine *m = make_timed(4, rec);
    random_run(m, 4, 2000, 4096, 99); /* 4 times the cache: evictions */
    ck_assert_ptr_null(sim_error(m));
    int total = 0;
    for (int pair = 0; pair < 16; pair++) {
        ck_assert_int_eq(g_log->nsent[pair], g_log->nhandled[pair]);
        ck_assert_msg(memcmp(g_log->sent[pair], g_log->handled[pair],
                             (size_t)g_log->nsent[pair]) == 0,
                      "pair %d: messages handled out of send order", pair);
        total += g_log->nsent[pair];
    }
    ck_assert_int_gt(total, 500); /* the stream did make traffic */
    ck_assert_int_gt(rec->n, 200);
    sim_destroy(m);
    free(g_log);
    g_log = NULL;
    free(rec);
}
END_TEST

START_TEST(determinism)
{
    recorder *a = calloc(1, sizeof *a), *b = calloc(1, sizeof *b);
    g_log = NULL;
    g_random = 1;
    sim_machine *m1 = make_timed(4, a);
    uint64_t h1 = random_run(m1, 4, 1000, 2048, 7);
    sim_machine *m2 = make_timed(4, b);
    uint64_t h2 = random_run(m2, 4, 1000, 2048, 7);
    ck_assert_uint_eq(h1, h2);
    ck_assert_int_eq(a->n, b->n);
    ck_assert_uint_eq(hash_misses(a), hash_misses(b));
    sim_destroy(m1);
    sim_destroy(m2);

    m1 = make("uniform", 4, 1 << 16, a, NULL);
    m2 = make("uniform", 4, 1 << 16, b, NULL);
    ck_assert_uint_eq(random_run(m1, 4, 3000, 4096, 3), random_run(m2, 4, 3000, 4096, 3));
    ck_assert_int_gt(a->n, 100);
    ck_assert_int_eq(a->n, b->n);
    ck_assert_uint_eq(hash_misses(a), hash_misses(b));
    sim_destroy(m1);
    sim_destroy(m2);
    free(a);
    free(b);
}
END_TEST

START_TEST(sampling_windows)
{
    recorder *rec = calloc(1, sizeof *rec);
    /* warm caches: references between windows are still simulated */
    const char *const opts[] = {"sample_period=1000", "sample_length=100", "sample_caches=warm",
                                NULL};
    sim_machine *m = make("uniform", 2, 1 << 20, rec, opts);
    uintptr_t a = BASE + 64;
    ref(m, 0, a, 4, 0);                 /* t=0: on, cold */
    ref(m, 1, a, 4, 0);                 /* t=0: on, cold */
    ck_assert_int_eq(rec->n, 2);
    ck_assert_int_eq(sim_stats_on(m), 1);
    sim_set_clock(m, 0, 500);
    sim_set_clock(m, 1, 600);
    ref(m, 0, a, 4, 1);                 /* t=500: off: no callback; 1's copy goes, unknown */
    ck_assert_int_eq(rec->n, 2);
    ck_assert_int_eq(sim_stats_on(m), 0);
    ref(m, 0, BASE + 64 + 65536, 4, 0); /* off: evicts 0's line, unknown too */
    ck_assert_int_eq(rec->n, 2);
    sim_set_clock(m, 0, 2000);
    sim_set_clock(m, 1, 2010);
    ref(m, 1, a, 4, 0);                 /* t=2010: on; the line left while off */
    ck_assert_int_eq(rec->n, 3);
    ck_assert_int_eq(rec->v[2].cause, SIM_CAUSE_UNKNOWN);
    ref(m, 0, a, 4, 0);
    ck_assert_int_eq(rec->n, 4);
    ck_assert_int_eq(rec->v[3].cause, SIM_CAUSE_UNKNOWN);
    ck_assert_int_eq(rec->v[3].evicted_by_bin, -1);
    ck_assert_uint_eq(sim_references(m), 6);
    ck_assert_uint_eq(sim_references_sampled(m), 4);
    sim_destroy(m);
    free(rec);
}
END_TEST

/* MemSpy's sampling (sample_caches=stale, the default on a fixed-latency
 * machine): between windows a reference costs a hit and is not simulated,
 * so the caches go stale; in the next window a line's history is unknown:
 * a miss on a line never held (after unsimulated references) or one that
 * left in an earlier window has unknown cause, and the first hit on a line
 * held from before is an unknown reference (Eq. 6.1's U). */
START_TEST(sampling_stale_caches)
{
    recorder *rec = calloc(1, sizeof *rec);
    const char *const opts[] = {"sample_period=1000", "sample_length=100", "sample_gap=hit",
                                "sample_unit=cycles", NULL};
    sim_machine *m = make("uniform", 2, 1 << 20, rec, opts);
    ck_assert_int_eq(sim_sampling_stale(m), 1);
    uintptr_t a = BASE + 64, c = BASE + 4096;
    ref(m, 0, a, 4, 0); /* t=0, in the first window: cold */
    ref(m, 1, a, 4, 0);
    ck_assert_int_eq(rec->n, 2);
    ck_assert_int_eq(rec->v[0].cause, SIM_CAUSE_COLD);
    sim_set_clock(m, 0, 500);
    sim_set_clock(m, 1, 600);
    /* outside: processor 0's store is not simulated: a hit's cycle, and
     * processor 1 keeps its (now stale) copy */
    ck_assert_int_eq(sim_ref(m, 0, a, 4, 1, 7), SIM_HIT);
    ck_assert_uint_eq(sim_clock(m, 0), 501);
    ck_assert_int_eq(sim_ref(m, 0, c, 4, 0, 7), SIM_HIT); /* not even a miss */
    ck_assert_int_eq(rec->n, 2);
    sim_set_clock(m, 0, 2000);
    sim_set_clock(m, 1, 2010);
    /* the next window: processor 1's first reference to its stale line is
     * a hit whose outcome in a full run is unknown */
    ref(m, 1, a, 4, 0);
    ck_assert_int_eq(rec->n, 2);
    ck_assert_uint_eq(sim_unknown_hits(m), 1);
    ref(m, 1, a, 4, 0); /* the second is a known hit */
    ck_assert_uint_eq(sim_unknown_hits(m), 1);
    /* a line never held, but references went unsimulated: unknown cause */
    ref(m, 0, c, 4, 0);
    ck_assert_int_eq(rec->n, 3);
    ck_assert_int_eq(rec->v[2].cause, SIM_CAUSE_UNKNOWN);
    /* inside the window the history is known again: 0's store takes 1's
     * copy, and 1's next read is an invalidation miss */
    ref(m, 0, a, 4, 1);
    ref(m, 1, a, 4, 0);
    ck_assert_int_eq(rec->v[rec->n - 1].proc, 1);
    ck_assert_int_eq(rec->v[rec->n - 1].cause, SIM_CAUSE_INVALIDATION);
    ck_assert_uint_eq(sim_references(m), 9);
    sim_destroy(m);
    /* sample_caches=warm simulates them: no stale line, no unknown hit */
    const char *const warm[] = {"sample_period=1000", "sample_length=100", "sample_caches=warm",
                                NULL};
    m = make("uniform", 2, 1 << 20, rec, warm);
    ck_assert_int_eq(sim_sampling_stale(m), 0);
    sim_destroy(m);
    free(rec);
}
END_TEST

/* Stale caches, sample_gap=window (the default): a reference between
 * windows moves the clock by the closed window's memory cycles per
 * reference (hits and misses), so the windows keep falling every period of
 * the program's estimated time rather than every period of references. */
START_TEST(sampling_gap_cost)
{
    const char *const opts[] = {"sample_period=1000", "sample_length=100", "sample_unit=cycles",
                                NULL};
    sim_machine *m = make("uniform", 1, 1 << 20, NULL, opts);
    ref(m, 0, BASE, 4, 0);      /* t=0: a cold miss, 50 cycles */
    ref(m, 0, BASE + 4, 4, 0);  /* t=50: a hit */
    ref(m, 0, BASE + 8, 4, 0);  /* t=51: a hit */
    ref(m, 0, BASE + 12, 4, 0); /* t=52: a hit, then t=53 */
    sim_set_clock(m, 0, 500);   /* past the window: (4 x 1 + 50) / 4 = 13.5 cycles a reference */
    ck_assert_int_eq(sim_ref(m, 0, BASE + 4096, 4, 1, 7), SIM_HIT);
    ck_assert_uint_eq(sim_clock(m, 0), 513);
    ck_assert_int_eq(sim_ref(m, 0, BASE + 4096, 4, 1, 7), SIM_HIT);
    ck_assert_uint_eq(sim_clock(m, 0), 527);
    ck_assert_int_eq(sim_ref(m, 0, BASE + 8192, 4, 0, 7), SIM_HIT);
    ck_assert_uint_eq(sim_clock(m, 0), 540);
    sim_destroy(m);
}
END_TEST

/* sample_unit=refs: the windows are counted in the machine's references,
 * all processors together in the order they are simulated (MemSpy's
 * sampling counter over the interleaved trace), whatever the clocks say. */
START_TEST(sampling_unit_refs)
{
    recorder *rec = calloc(1, sizeof *rec);
    const char *const opts[] = {"sample_period=10", "sample_length=3", "sample_unit=refs", NULL};
    sim_machine *m = make("uniform", 2, 1 << 20, rec, opts);
    ref(m, 0, BASE, 4, 0);         /* reference 0: in the window, a cold miss */
    ref(m, 1, BASE + 4096, 4, 0);  /* 1: in */
    ref(m, 0, BASE + 64, 4, 0);    /* 2: in */
    ck_assert_int_eq(rec->n, 3);
    for (int i = 3; i < 10; i++)   /* 3..9: out, processor 1's clock at 50 */
        ck_assert_int_eq(sim_ref(m, 1, BASE + 8192 + 64 * (uintptr_t)i, 4, 1, 7), SIM_HIT);
    ck_assert_int_eq(rec->n, 3);
    ck_assert_uint_eq(sim_references_sampled(m), 3);
    ref(m, 0, BASE + 128, 4, 0);   /* 10: the next window, processor 0's clock at 100 */
    ck_assert_int_eq(rec->n, 4);
    ck_assert_uint_eq(sim_references(m), 11);
    ck_assert_uint_eq(sim_references_sampled(m), 4);
    sim_destroy(m);
    free(rec);
    /* only where references can go unsimulated: not with warm caches, not
     * on a message-timed machine */
    char err[256];
    sim_params p;
    const char *const refused[][2] = {{"uniform", "sample_caches=warm"}, {"flash", NULL}};
    for (int i = 0; i < 2; i++) {
        ck_assert_int_eq(sim_params_for(refused[i][0], 2, &p, err, sizeof err), 0);
        ck_assert_int_eq(sim_params_set(&p, "sample_period=10", err, sizeof err), 0);
        ck_assert_int_eq(sim_params_set(&p, "sample_length=3", err, sizeof err), 0);
        ck_assert_int_eq(sim_params_set(&p, "sample_unit=refs", err, sizeof err), 0);
        if (refused[i][1])
            ck_assert_int_eq(sim_params_set(&p, refused[i][1], err, sizeof err), 0);
        ck_assert_ptr_null(sim_create(&p, BASE, 1 << 20, err, sizeof err));
        ck_assert_msg(strstr(err, "sample_unit=refs") != NULL, "%s", err);
    }
    ck_assert_int_eq(sim_params_set(&p, "sample_unit=lines", err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "sample_unit"));
    ck_assert_int_eq(sim_params_set(&p, "sample_gap=free", err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "sample_gap"));
}
END_TEST

/* The inline hit path (sim_ref_fast, what the front end's hooks run) must
 * decide exactly what the full path decides: the same stream of references
 * on a machine whose inline path is off (an observer attached: every
 * reference goes through walk_ref) gives the same misses, causes, clocks
 * and counts, with all statistics, with stale sampling in references and
 * in cycles, and with a 2-way cache. */
static void count_ref(void *arg, int proc, int is_write, int outcome, int home, sim_time t)
{
    (void)proc, (void)is_write, (void)outcome, (void)home, (void)t;
    ++*(uint64_t *)arg;
}

START_TEST(inline_hits_exact)
{
    const char *const configs[][5] = {
        {NULL},
        {"sample_period=2000", "sample_length=300", NULL},
        {"sample_period=2000", "sample_length=300", "sample_unit=cycles", NULL},
        {"assoc=2", "cache_size=4k", NULL},
    };
    recorder *rec[2] = {calloc(1, sizeof(recorder)), calloc(1, sizeof(recorder))};
    for (size_t c = 0; c < sizeof configs / sizeof configs[0]; c++) {
        sim_machine *m[2];
        uint64_t observed = 0;
        for (int k = 0; k < 2; k++)
            m[k] = make("uniform", 4, 1 << 20, rec[k], configs[c]);
        ck_assert_int_eq(sim_on_ref(m[1], count_ref, &observed), 0);
        uint64_t x = 12345;
        for (int i = 0; i < 8000; i++) {
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            int proc = (int)(x >> 62);
            /* mostly the processor's own 4 KB, else 1 KB everybody shares;
             * now and then 64 KB further: conflicts */
            uintptr_t a = (x >> 50) & 7 ? BASE + (uintptr_t)proc * 4096 + ((x >> 20) % 1024) * 4
                                        : BASE + 16384 + ((x >> 20) % 256) * 4;
            a += (uintptr_t)(((x >> 56) & 15) == 0) << 16;
            uint32_t size = (x >> 40) & 1 ? 8 : 4;
            int w = ((x >> 44) & 7) < 2;
            for (int k = 0; k < 2; k++)
                ref(m[k], proc, a & ~(uintptr_t)(size - 1), size, w);
        }
        ck_assert_uint_gt(observed, 0);
        ck_assert_int_eq(rec[0]->n, rec[1]->n);
        for (int i = 0; i < rec[0]->n; i++) {
            ck_assert_int_eq(rec[0]->v[i].proc, rec[1]->v[i].proc);
            ck_assert_uint_eq(rec[0]->v[i].line, rec[1]->v[i].line);
            ck_assert_int_eq(rec[0]->v[i].cause, rec[1]->v[i].cause);
            ck_assert_int_eq(rec[0]->v[i].is_write, rec[1]->v[i].is_write);
            ck_assert_int_eq(rec[0]->v[i].false_sharing, rec[1]->v[i].false_sharing);
        }
        for (int p = 0; p < 4; p++)
            ck_assert_uint_eq(sim_clock(m[0], p), sim_clock(m[1], p));
        ck_assert_uint_eq(sim_references(m[0]), sim_references(m[1]));
        ck_assert_uint_eq(sim_references_sampled(m[0]), sim_references_sampled(m[1]));
        ck_assert_uint_eq(sim_unknown_hits(m[0]), sim_unknown_hits(m[1]));
        ck_assert_msg(rec[0]->n > 100 && rec[0]->n < MAXREC, "config %zu: %d misses", c,
                      rec[0]->n);
        for (int k = 0; k < 2; k++)
            sim_destroy(m[k]);
    }
    free(rec[0]);
    free(rec[1]);
}
END_TEST

/* Between stale-cache windows in references the front end's hooks take
 * the references as batches (sim_ref_gap: one decrement each, counted by
 * sim_fast_settle when something reads the processor).  The same stream,
 * in runs of one processor as the scheduler gives them, with barrier-like
 * clock reads and sets, must give what reference-by-reference counting
 * gives: misses, causes, clocks, references, sampled references. */
START_TEST(gap_batches_exact)
{
    const char *const opts[] = {"sample_period=2000", "sample_length=300", NULL};
    recorder *rec[2] = {calloc(1, sizeof(recorder)), calloc(1, sizeof(recorder))};
    sim_machine *m[2];
    for (int k = 0; k < 2; k++)
        m[k] = make("uniform", 4, 1 << 20, rec[k], opts);
    for (int p = 0; p < 4; p++)
        sim_fast_of(m[0], p)->gap_batching = 1;
    uint64_t x = 777, batched = 0;
    int proc = 0;
    for (int i = 0; i < 40000; i++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        if (((x >> 33) & 63) == 0) { /* the scheduler switches: it settles first */
            sim_fast_settle(sim_fast_of(m[0], proc));
            proc = (int)(x >> 62);
        }
        if (((x >> 27) & 511) == 0) /* a barrier: clocks read and set */
            for (int k = 0; k < 2; k++)
                sim_set_clock(m[k], proc, sim_clock(m[k], proc) + 10);
        uintptr_t a = (x >> 50) & 7 ? BASE + (uintptr_t)proc * 4096 + ((x >> 20) % 1024) * 4
                                    : BASE + 16384 + ((x >> 20) % 256) * 4;
        int w = ((x >> 44) & 7) < 2;
        sim_fast *f = sim_fast_of(m[0], proc);
        if (sim_ref_gap(f))
            batched++;
        else if (!sim_ref_fast(f, a, 4, w))
            ref(m[0], proc, a, 4, w);
        if (!sim_ref_fast(sim_fast_of(m[1], proc), a, 4, w))
            ref(m[1], proc, a, 4, w);
    }
    ck_assert_uint_gt(batched, 10000);
    ck_assert_int_eq(rec[0]->n, rec[1]->n);
    ck_assert_int_gt(rec[0]->n, 100);
    for (int i = 0; i < rec[0]->n; i++) {
        ck_assert_int_eq(rec[0]->v[i].proc, rec[1]->v[i].proc);
        ck_assert_uint_eq(rec[0]->v[i].line, rec[1]->v[i].line);
        ck_assert_int_eq(rec[0]->v[i].cause, rec[1]->v[i].cause);
    }
    for (int p = 0; p < 4; p++)
        ck_assert_uint_eq(sim_clock(m[0], p), sim_clock(m[1], p));
    ck_assert_uint_eq(sim_references(m[0]), sim_references(m[1]));
    ck_assert_uint_eq(sim_references_sampled(m[0]), sim_references_sampled(m[1]));
    ck_assert_uint_eq(sim_unknown_hits(m[0]), sim_unknown_hits(m[1]));
    for (int k = 0; k < 2; k++) {
        sim_destroy(m[k]);
        free(rec[k]);
    }
}
END_TEST

START_TEST(sampling_windows_random)
{
    /* sample_offset=random: period k's window is [k*1000 + o, +100) with o
     * from sim_window_offset; misses count only inside it, references are
     * counted as sampled only inside it */
    recorder *rec = calloc(1, sizeof *rec);
    const char *const opts[] = {"sample_period=1000", "sample_length=100", "sample_offset=random",
                                "sample_unit=cycles", NULL};
    sim_machine *m = make("uniform", 1, 1 << 20, rec, opts);
    uint64_t o = sim_window_offset(1000, 100, 1, 1);
    uintptr_t a = BASE;
    if (o > 0) {
        sim_set_clock(m, 0, 1000 + o - 1);
        ref(m, 0, a += 64, 4, 0); /* just before the window: not counted */
        ck_assert_int_eq(rec->n, 0);
    }
    sim_set_clock(m, 0, 1000 + o);
    ref(m, 0, a += 64, 4, 0); /* the window's first cycle */
    ck_assert_int_eq(rec->n, 1);
    sim_set_clock(m, 0, 1000 + o + 99);
    ref(m, 0, a += 64, 4, 0); /* its last */
    ck_assert_int_eq(rec->n, 2);
    sim_set_clock(m, 0, 1000 + o + 100);
    ref(m, 0, a += 64, 4, 0); /* closed */
    ck_assert_int_eq(rec->n, 2);
    ck_assert_uint_eq(sim_references_sampled(m), 2);
    sim_destroy(m);
    char err[256];
    sim_params p;
    ck_assert_int_eq(sim_params_for("uniform", 1, &p, err, sizeof err), 0);
    ck_assert_int_eq(sim_params_set(&p, "sample_offset=middle", err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "sample_offset"));
    free(rec);
}
END_TEST

START_TEST(procedure_switch_hook)
{
    /* the model's procedure_switch runs when the procedure id changes, and
     * its cycles stall the processor */
    sim_timing_ops ops = test_timed;
    ops.procedure_switch = tm_switch;
    sim_params p;
    memset(&p, 0, sizeof p);
    snprintf(p.machine, sizeof p.machine, "test-switch");
    p.nprocs = 1;
    tm_defaults(&p);
    char err[256];
    g_log = NULL;
    g_random = 0;
    g_switches = 0;
    sim_machine *m = sim_create_model(&p, &ops, BASE, 4096, err, sizeof err);
    ck_assert_ptr_nonnull(m);
    sim_place(m, BASE, 4096, 0);
    ck_assert_int_eq(sim_ref(m, 0, BASE - 64, 4, 0, 3), SIM_HIT); /* outside: still a switch */
    ck_assert_int_eq(sim_ref(m, 0, BASE - 64, 4, 0, 3), SIM_HIT);
    ck_assert_int_eq(sim_ref(m, 0, BASE - 64, 4, 0, 4), SIM_HIT);
    ck_assert_int_eq(g_switches, 2);
    ck_assert_uint_eq(sim_clock(m, 0), 2 * 7 + 3);
    sim_destroy(m);
}
END_TEST

START_TEST(procedure_switch_calls)
{
    /* sim_procedure_switch, as the front end calls it at procedure entry and
     * exit: the model's hook runs once per change of procedure (not for a
     * repeated id), the processor's clock moves by the hook's cycles, and
     * only the switches inside the processor's measured section count
     * there */
    sim_timing_ops ops = test_timed;
    ops.procedure_switch = tm_switch;
    sim_params p;
    memset(&p, 0, sizeof p);
    snprintf(p.machine, sizeof p.machine, "test-switch");
    p.nprocs = 2;
    tm_defaults(&p);
    char err[256];
    g_log = NULL;
    g_random = 0;
    g_switches = 0;
    sim_machine *m = sim_create_model(&p, &ops, BASE, 4096, err, sizeof err);
    ck_assert_msg(m != NULL, "%s", err);
    ck_assert_int_eq(sim_has_procedure_switch(m), 1);
    ck_assert_int_eq(sim_procedure_switch(m, 0, 5), 0);
    ck_assert_int_eq(g_switches, 1);
    ck_assert_uint_eq(sim_clock(m, 0), 7);
    ck_assert_int_eq(sim_procedure_switch(m, 0, 5), 0); /* the same id: free */
    ck_assert_int_eq(g_switches, 1);
    ck_assert_uint_eq(sim_clock(m, 0), 7);
    ck_assert_uint_eq(sim_clock(m, 1), 0); /* the other processor is untouched */
    ck_assert_int_eq(sim_section_begin(m, 0), 0);
    ck_assert_int_eq(sim_procedure_switch(m, 0, 6), 0);
    ck_assert_int_eq(sim_procedure_switch(m, 0, 5), 0); /* back to the caller: a change */
    ck_assert_int_eq(sim_procedure_switch(m, 1, 6), 0); /* outside its section */
    ck_assert_int_eq(g_switches, 4);
    ck_assert_uint_eq(sim_clock(m, 0), 3 * 7);
    ck_assert_uint_eq(sim_clock(m, 1), 7);
    ck_assert_int_eq(sim_section_end(m, 1), -1); /* processor 1 never began one */
    ck_assert_int_eq(sim_section_end(m, 0), 0);
    ck_assert_int_eq(sim_procedure_switch(m, 0, 7), 0); /* after the section */
    sim_section sec;
    sim_section_get(m, &sec);
    ck_assert(sec.begun && sec.ended);
    ck_assert_uint_eq(sec.begin, 7);
    ck_assert_uint_eq(sec.end, 3 * 7);
    ck_assert_uint_eq(sec.procedure_switches, 2);
    ck_assert_uint_eq(sec.procedure_switch_cycles, 2 * 7);
    ck_assert_int_lt(sim_procedure_switch(m, 2, 1), 0); /* no such processor */
    sim_destroy(m);

    /* a model without the hook: nothing to call, nothing charged */
    recorder *rec = calloc(1, sizeof *rec);
    ck_assert_ptr_nonnull(rec);
    m = make("uniform", 2, 4096, rec, NULL);
    ck_assert_int_eq(sim_has_procedure_switch(m), 0);
    for (int id = 0; id < 10; id++)
        ck_assert_int_eq(sim_procedure_switch(m, 0, id), 0);
    ck_assert_uint_eq(sim_clock(m, 0), 0);
    sim_destroy(m);

    /* FLASH: FP-Proc pays 12 system cycles (24 processor cycles) for an
     * uncontended procedure command, the other modes nothing */
    static const char *const modes[] = { "fp_mode=proc", "fp_mode=noproc", "fp_mode=control" };
    static const sim_time want[] = { 24, 0, 0 };
    for (int i = 0; i < 3; i++) {
        sim_params fp;
        ck_assert_int_eq(sim_params_for("flash", 2, &fp, err, sizeof err), 0);
        ck_assert_msg(sim_params_set(&fp, modes[i], err, sizeof err) == 0, "%s", err);
        m = sim_create(&fp, BASE, 1 << 20, err, sizeof err);
        ck_assert_msg(m != NULL, "%s", err);
        ck_assert_int_eq(sim_procedure_switch(m, 1, 3), 0);
        ck_assert_int_eq(sim_procedure_switch(m, 1, 3), 0);
        ck_assert_msg(sim_clock(m, 1) == want[i], "%s: clock %llu, want %llu", modes[i],
                      (unsigned long long)sim_clock(m, 1), (unsigned long long)want[i]);
        ck_assert_uint_eq(sim_clock(m, 0), 0);
        sim_destroy(m);
    }
    free(rec);
}
END_TEST

START_TEST(evictions_and_exclusive_clean)
{
    /* a dirty line evicted by a conflict is written back (the engine's PUTX),
     * so the next writer on another processor is not a 3-hop miss: on numa
     * the home serves it */
    recorder *rec = calloc(1, sizeof *rec);
    sim_machine *m = make("numa", 16, 1 << 20, rec, NULL);
    ck_assert_int_eq(sim_place(m, BASE, 1 << 20, 0), 0);
    ref(m, 15, BASE + 128, 4, 1);          /* 15 owns the line */
    ref(m, 15, BASE + 128 + 65536, 4, 0);  /* conflict: the dirty line is evicted */
    ref(m, 14, BASE + 128, 4, 0);          /* served by the home (5 hops), not by 15 */
    ck_assert_int_eq(rec->v[rec->n - 1].latency, 85 + 5 * 4);
    ck_assert_int_eq(rec->v[rec->n - 1].cause, SIM_CAUSE_COLD);
    ref(m, 15, BASE + 128, 4, 0);          /* 15's miss: a replacement by the other line */
    ck_assert_int_eq(rec->v[rec->n - 1].cause, SIM_CAUSE_REPLACEMENT);
    sim_destroy(m);

    /* exclusive clean: a read of an unowned line is granted in E and the
     * first store is a hit (no upgrade) */
    /* read_recall=drop: the recall below leaves 0 no copy (with keep, its next read would hit) */
    const char *const ec[] = {"excl_clean=1", "replacement_hints=1", "read_recall=drop", NULL};
    m = make("uniform", 2, 1 << 20, rec, ec);
    ref(m, 0, BASE + 64, 4, 0);
    ref(m, 0, BASE + 64, 4, 1);
    ck_assert_int_eq(rec->n, 1);
    ck_assert_uint_eq(sim_clock(m, 0), 51);
    ref(m, 1, BASE + 64, 4, 0);            /* recalls 0's (now dirty) copy */
    ck_assert_int_eq(rec->n, 2);
    ref(m, 0, BASE + 64, 4, 0);
    ck_assert_int_eq(rec->v[2].cause, SIM_CAUSE_INVALIDATION);
    /* clean evictions with replacement hints: no engine error, and the
     * evicted reader gets no INV later (it is no longer a sharer) */
    ref(m, 1, BASE + 64 + 65536, 4, 0);    /* evicts 1's copy of the line */
    ref(m, 0, BASE + 64, 4, 1);            /* upgrade: nobody left to invalidate */
    ck_assert_int_eq(rec->v[rec->n - 1].is_upgrade, 1);
    ck_assert_int_eq(rec->v[rec->n - 1].invalidations, 0);
    sim_destroy(m);
    free(rec);
}
END_TEST

START_TEST(registered_machines_run)
{
    /* every registered machine (flash too, when built) runs a random stream
     * with conflicts on 4 processors without an engine error */
    recorder *rec = calloc(1, sizeof *rec);
    for (int i = 0; sim_machine_names[i]; i++) {
        const char *const small[] = {"cache_size=4096", NULL};
        sim_machine *m = make(sim_machine_names[i], 4, 1 << 16, rec, small);
        random_run(m, 4, 3000, 32768, 11 + (uint64_t)i);
        ck_assert_msg(sim_error(m) == NULL, "%s: %s", sim_machine_names[i], sim_error(m));
        ck_assert_int_gt(rec->n, 1000);
        sim_destroy(m);
    }
    free(rec);
}
END_TEST

START_TEST(bad_params)
{
    sim_params p;
    char err[256];
    ck_assert_int_eq(sim_params_for("vax", 4, &p, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "unknown machine 'vax'"));
    ck_assert_ptr_nonnull(strstr(err, "uniform"));
    ck_assert_int_eq(sim_params_for("uniform", 0, &p, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "processors"));
    ck_assert_int_eq(sim_params_for("uniform", 4, &p, err, sizeof err), 0);
    ck_assert_int_eq(p.line_size, 32);
    ck_assert_int_eq(p.cache_size, 65536);
    ck_assert_int_eq(p.assoc, 1);
    ck_assert_int_eq(sim_params_set(&p, "colour=blue", err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "colour"));
    ck_assert_int_eq(sim_params_set(&p, "line_size", err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "key=value"));
    ck_assert_int_eq(sim_params_set(&p, "cache_size=lots", err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "cache_size"));
    ck_assert_int_eq(sim_params_set(&p, "hop_cycles=3", err, sizeof err), -1); /* numa's */
    ck_assert_int_eq(sim_params_set(&p, "miss_cycles=60", err, sizeof err), 0);
    ck_assert_int_eq(sim_params_set(&p, "cache_size=128k", err, sizeof err), 0);
    ck_assert_int_eq(p.cache_size, 131072);

    sim_params q = p;
    ck_assert_int_eq(sim_params_set(&q, "line_size=48", err, sizeof err), 0);
    ck_assert_ptr_null(sim_create(&q, BASE, 4096, err, sizeof err));
    ck_assert_ptr_nonnull(strstr(err, "line_size 48"));
    ck_assert_ptr_nonnull(strstr(err, "power of two"));
    q = p;
    sim_params_set(&q, "cache_size=16", err, sizeof err);
    ck_assert_ptr_null(sim_create(&q, BASE, 4096, err, sizeof err));
    ck_assert_ptr_nonnull(strstr(err, "smaller than one line"));
    q = p;
    sim_params_set(&q, "sample_period=100", err, sizeof err);
    sim_params_set(&q, "sample_length=200", err, sizeof err);
    ck_assert_ptr_null(sim_create(&q, BASE, 4096, err, sizeof err));
    ck_assert_ptr_nonnull(strstr(err, "sample_length"));
    q = p;
    snprintf(q.machine, sizeof q.machine, "vax");
    ck_assert_ptr_null(sim_create(&q, BASE, 4096, err, sizeof err));
    ck_assert_ptr_nonnull(strstr(err, "unknown machine"));

    /* the machine option reaches the model: 60-cycle misses */
    recorder *rec = calloc(1, sizeof *rec);
    sim_machine *m = sim_create(&p, BASE, 1 << 16, err, sizeof err);
    ck_assert_ptr_nonnull(m);
    sim_on_miss(m, record, rec);
    ref(m, 0, BASE, 4, 0);
    ck_assert_int_eq(rec->v[0].latency, 60);
    ck_assert_int_eq(sim_place(m, BASE, 16, 9), -1);
    ck_assert_ptr_nonnull(strstr(sim_error(m), "home 9"));
    sim_destroy(m);
    free(rec);
}
END_TEST


/* Every option that is a time or a size has a documented maximum; a value
 * past it, up to 2^64 - 1 and beyond, is refused with a message naming the
 * option and the range (doc/simulation.md, "Bounds"). */
START_TEST(option_bounds)
{
    static const struct {
        const char *machine, *key, *max;
    } opts[] = {
        {"uniform", "hit_cycles", "1000000"},     {"uniform", "miss_cycles", "1000000"},
        {"uniform", "sample_period", "1000000000000"},
        {"uniform", "sample_length", "1000000000000"},
        {"uniform", "line_size", "4096"},         {"uniform", "cache_size", "1073741824"},
        {"uniform", "assoc", "65536"},            {"uniform", "page_size", "1073741824"},
        {"numa", "local_cycles", "1000000"},      {"numa", "hop1_cycles", "1000000"},
        {"numa", "hop_cycles", "1000000"},        {"numa", "write_cycles", "1000000"},
        {"numa", "write_buffer", "1"},            {"flash", "hit_cycles", "1000000"},
        {"flash", "cpu_ratio", "64"},             {"flash", "pi_in", "100000"},
        {"flash", "pi_out", "100000"},            {"flash", "pi_word", "100000"},
        {"flash", "fence", "100000"},             {"flash", "intervention", "100000"},
        {"flash", "net_fixed", "100000"},         {"flash", "hop", "100000"},
        {"flash", "link_bytes", "4096"},          {"flash", "inv_send", "100000"},
        {"flash", "outstanding", "16"},           {"flash", "load_use", "4096"},
    };
    static const char *const huge[] = {"18446744073709551615", "18446744073709551616",
                                       "99999999999999999999999", "17592186044416m"};
    char err[256], kv[128];
    for (size_t i = 0; i < sizeof opts / sizeof opts[0]; i++) {
        sim_params p;
        ck_assert_int_eq(sim_params_for(opts[i].machine, 4, &p, err, sizeof err), 0);
        snprintf(kv, sizeof kv, "%s=%s", opts[i].key, opts[i].max);
        ck_assert_msg(sim_params_set(&p, kv, err, sizeof err) == 0, "%s: %s", kv, err);
        unsigned long long over = strtoull(opts[i].max, NULL, 10) + 1;
        snprintf(kv, sizeof kv, "%s=%llu", opts[i].key, over);
        ck_assert_msg(sim_params_set(&p, kv, err, sizeof err) == -1, "%s accepted", kv);
        ck_assert_msg(strstr(err, opts[i].key) && strstr(err, "out of range") &&
                          strstr(err, opts[i].max),
                      "%s: %s", kv, err);
        for (size_t h = 0; h < sizeof huge / sizeof huge[0]; h++) {
            snprintf(kv, sizeof kv, "%s=%s", opts[i].key, huge[h]);
            ck_assert_msg(sim_params_set(&p, kv, err, sizeof err) == -1, "%s accepted", kv);
            ck_assert_msg(strstr(err, opts[i].key) && strstr(err, "out of range") &&
                              strstr(err, opts[i].max),
                          "%s: %s", kv, err);
        }
    }
    /* a handler class of the FLASH model: LATENCY/OCCUPANCY */
    sim_params p;
    ck_assert_int_eq(sim_params_for("flash", 4, &p, err, sizeof err), 0);
    ck_assert_int_eq(sim_params_set(&p, "PILocalGet=100000/100000", err, sizeof err), 0);
    const char *const bad_pairs[] = {"PILocalGet=18446744073709551615/11",
                                     "PILocalGet=9/18446744073709551615", "PILocalGet=100001/11",
                                     "PILocalGet=-1/11", "PILocalGet=9/0"};
    for (size_t i = 0; i < sizeof bad_pairs / sizeof bad_pairs[0]; i++) {
        ck_assert_msg(sim_params_set(&p, bad_pairs[i], err, sizeof err) == -1, "%s accepted",
                      bad_pairs[i]);
        ck_assert_msg(strstr(err, "PILocalGet") && strstr(err, "range 0 .. 100000"), "%s: %s",
                      bad_pairs[i], err);
    }
    /* fields set directly are checked again */
    ck_assert_int_eq(sim_params_for("uniform", 4, &p, err, sizeof err), 0);
    p.hit_cycles = UINT64_MAX;
    ck_assert_int_eq(sim_params_check(&p, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "hit_cycles"));
    ck_assert_ptr_null(sim_create(&p, BASE, 4096, err, sizeof err));
    ck_assert_int_eq(sim_params_for("uniform", 4, &p, err, sizeof err), 0);
    p.sample_period = UINT64_MAX;
    p.sample_length = 1;
    ck_assert_int_eq(sim_params_check(&p, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "sample_period"));
}
END_TEST

/* The cache geometry is refused by sim_params_check (which dsmrun calls
 * before the program runs), with the parameter named. */
START_TEST(bad_geometry)
{
    static const struct {
        const char *opts[3];
        const char *says;
    } cases[] = {
        {{"cache_size=0", NULL}, "cache_size 0"},
        {{"line_size=0", NULL}, "line_size 0"},
        {{"line_size=48", NULL}, "line_size 48"},
        {{"line_size=2", NULL}, "line_size 2"},
        {{"assoc=0", NULL}, "assoc 0"},
        {{"page_size=0", NULL}, "page_size 0"},
        {{"page_size=3000", NULL}, "page_size 3000"},
        {{"page_size=16", NULL}, "page_size 16"},            /* smaller than a line */
        {{"line_size=128", "cache_size=64", NULL}, "cache_size 64"}, /* line larger than cache */
        {{"cache_size=65520", NULL}, "cache_size 65520"},   /* not a multiple of the line */
        {{"assoc=3", NULL}, "assoc 3"},                     /* 2048 lines in 3 ways */
        {{"cache_size=96k", NULL}, "cache_size 98304"},     /* 3072 sets */
        {{"assoc=4096", NULL}, "assoc 4096"},               /* more ways than lines */
        {{"sample_period=100", "sample_length=0", NULL}, "sample_length 0"},
    };
    char err[256];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        sim_params p;
        ck_assert_int_eq(sim_params_for("uniform", 4, &p, err, sizeof err), 0);
        for (int k = 0; cases[i].opts[k]; k++)
            ck_assert_msg(sim_params_set(&p, cases[i].opts[k], err, sizeof err) == 0, "%s: %s",
                          cases[i].opts[k], err);
        ck_assert_msg(sim_params_check(&p, err, sizeof err) == -1, "case %zu (%s) accepted", i,
                      cases[i].opts[0]);
        ck_assert_msg(strstr(err, cases[i].says), "case %zu: '%s' lacks '%s'", i, err,
                      cases[i].says);
    }
    sim_params p;
    ck_assert_int_eq(sim_params_for("uniform", 4, &p, err, sizeof err), 0);
    ck_assert_int_eq(sim_params_set(&p, "assoc=2048", err, sizeof err), 0); /* fully associative */
    ck_assert_msg(sim_params_check(&p, err, sizeof err) == 0, "%s", err);
}
END_TEST

/* Time past SIM_CLOCK_LIMIT ends the run with an error instead of going on
 * towards a wrap: at a reference, at an event, and for a processor that
 * only hit (sim_check_clock, the front end's check). */
START_TEST(clock_limit)
{
    char err[256];
    recorder *rec = calloc(1, sizeof *rec);
    sim_params p;
    ck_assert_int_eq(sim_params_for("uniform", 2, &p, err, sizeof err), 0);
    ck_assert_int_eq(sim_params_set(&p, "miss_cycles=1000000", err, sizeof err), 0);
    sim_machine *m = sim_create(&p, BASE, 1 << 16, err, sizeof err);
    ck_assert_ptr_nonnull(m);
    sim_set_clock(m, 0, SIM_CLOCK_LIMIT - 10);
    ck_assert_int_eq(sim_check_clock(m, 0), 0);
    ref(m, 0, BASE, 4, 0); /* a miss that ends past the limit */
    ck_assert_uint_eq(sim_clock(m, 0), SIM_CLOCK_LIMIT - 10 + 1000000);
    ck_assert_int_lt(sim_ref(m, 0, BASE, 4, 0, 7), 0);
    ck_assert_ptr_nonnull(sim_error(m));
    ck_assert_msg(strstr(sim_error(m), "simulated time passed 4503599627370496 cycles"), "%s",
                  sim_error(m));
    sim_destroy(m);

    m = make("uniform", 1, 1 << 16, NULL, NULL);
    sim_set_clock(m, 0, SIM_CLOCK_LIMIT + 1);
    ck_assert_int_lt(sim_check_clock(m, 0), 0);
    ck_assert_ptr_nonnull(strstr(sim_error(m), "on processor 0"));
    sim_destroy(m);

    /* message timed: the events of a miss issued just below the limit */
    m = make("flash", 4, 1 << 20, rec, NULL);
    sim_set_clock(m, 1, SIM_CLOCK_LIMIT - 5);
    int r = sim_ref(m, 1, BASE, 4, 0, 7); /* home: processor 0, remote */
    while (r >= 0 && sim_next_event(m) != SIM_NEVER) /* the load may go on: its events */
        r = sim_run_until(m, sim_next_event(m));
    ck_assert_int_lt(r, 0);
    ck_assert_msg(strstr(sim_error(m), "simulated time passed"), "%s", sim_error(m));
    sim_destroy(m);
    free(rec);
}
END_TEST

Suite *unit_suite(void)
{
    Suite *s = suite_create("sim");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 20);
    tcase_add_test(tc, cold_and_hits);
    tcase_add_test(tc, replacement_with_evicting_bin);
    tcase_add_test(tc, direct_mapped_conflict);
    tcase_add_test(tc, invalidation_and_upgrade);
    tcase_add_test(tc, ping_pong);
    tcase_add_test(tc, packed_words_false_sharing);
    tcase_add_test(tc, numa_hops);
    tcase_add_test(tc, timed_latency);
    tcase_add_test(tc, fifo_per_pair_random_delays);
    tcase_add_test(tc, determinism);
    tcase_add_test(tc, sampling_windows);
    tcase_add_test(tc, sampling_stale_caches);
    tcase_add_test(tc, sampling_gap_cost);
    tcase_add_test(tc, sampling_unit_refs);
    tcase_add_test(tc, inline_hits_exact);
    tcase_add_test(tc, gap_batches_exact);
    tcase_add_test(tc, sampling_windows_random);
    tcase_add_test(tc, procedure_switch_hook);
    tcase_add_test(tc, procedure_switch_calls);
    tcase_add_test(tc, evictions_and_exclusive_clean);
    tcase_add_test(tc, registered_machines_run);
    tcase_add_test(tc, bad_params);
    tcase_add_test(tc, option_bounds);
    tcase_add_test(tc, bad_geometry);
    tcase_add_test(tc, clock_limit);
    suite_add_tcase(s, tc);
    return s;
}
