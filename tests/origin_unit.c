/* origin_unit.c - Check unit tests of the simulated SGI Origin 2000
 * (protocol/sim/origin.c) and the profiler paper's measurements, each run
 * on a whole simulated machine driven here directly (no program, no front
 * end) so that they stay small:
 *   - the shape: Hubs, routers, hops of the bristled hypercube and across
 *     the metarouter above 64 processors; options and their errors;
 *   - remote/local latency about 2 for the nearest remote node (the paper:
 *     "almost twice");
 *   - Fig. 4: one thread summing a local unit-stride array of doubles moves
 *     about 280 MB/s at 66% memory utilisation, two threads on the node
 *     about 412 MB/s at 85%;
 *   - Fig. 5: remote readers of one node's memory drive it to 100% at
 *     620 MB/s (+-5%), its outgoing link near 95% and the incoming one near
 *     a ninth of that (one request packet per nine reply packets);
 *   - the profiler's counters: local ratio, hops, transaction mix
 *     (unowned, invalidate with the number of sharers, exclusive), samples;
 *   - 3-hop interventions against the engine's 4 messages, the TLB, page
 *     placement, the clock limit.
 * Bounds are the paper's figures with a tolerance: the model's parameters
 * come from the machine's description (origin.c), not from these numbers. */
#include "check_main.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/origin.h"
#include "sim/sim.h"
#include "sim/timing.h"

#define BASE ((uintptr_t)0x100000000ull)
#define BYTES ((size_t)64 << 20)
#define MB (1u << 20)

static sim_machine *origin_machine(int nprocs, const char *option)
{
    sim_params p;
    char err[256];
    ck_assert_int_eq(sim_params_for("origin", nprocs, &p, err, sizeof err), 0);
    ck_assert_int_eq(p.placement, SIM_PLACE_FIRST_TOUCH); /* IRIX's default */
    /* the tests place their data themselves, as the paper's programs
     * placed it by touching it first from the chosen node */
    ck_assert_int_eq(sim_params_set(&p, "placement=program", err, sizeof err), 0);
    char opts[256];
    snprintf(opts, sizeof opts, "%s", option ? option : "");
    for (char *save = NULL, *o = strtok_r(opts, ",", &save); o; o = strtok_r(NULL, ",", &save))
        ck_assert_msg(sim_params_set(&p, o, err, sizeof err) == 0, "%s", err); /* a,b: each */
    sim_machine *m = sim_create(&p, BASE, BYTES, err, sizeof err);
    ck_assert_msg(m != NULL, "%s", err);
    return m;
}

/* A thread streaming reads: processor proc reads [from, from + len) with
 * `size`-byte references every `stride` bytes. */
typedef struct stream {
    int proc;
    uintptr_t from, at;
    size_t len;
    uint32_t stride;
    int done;
} stream;

/* Run the streams to their end, smallest clock first; returns the time
 * (processor cycles) the last one finished. */
static sim_time run_streams(sim_machine *m, stream *s, int n)
{
    for (int i = 0; i < n; i++)
        s[i].at = s[i].from;
    for (long guard = 0; guard < 100000000; guard++) {
        int best = -1;
        for (int i = 0; i < n; i++)
            if (!s[i].done && !sim_stalled(m, s[i].proc) &&
                (best < 0 || sim_clock(m, s[i].proc) < sim_clock(m, s[best].proc)))
                best = i;
        if (best < 0) {
            int any = 0;
            for (int i = 0; i < n; i++)
                any |= !s[i].done;
            if (!any)
                break;
            ck_assert_int_eq(sim_run_until(m, sim_next_event(m)), 0);
            continue;
        }
        stream *t = &s[best];
        ck_assert_int_eq(sim_run_until(m, sim_clock(m, t->proc)), 0);
        ck_assert_int_ge(sim_ref(m, t->proc, t->at, 8, 0, -1), 0);
        t->at += t->stride;
        if (t->at >= t->from + t->len)
            t->done = 1;
    }
    ck_assert_int_eq(sim_run_until(m, SIM_NEVER - 1), 0);
    sim_time end = 0;
    for (int i = 0; i < n; i++)
        if (sim_clock(m, s[i].proc) > end)
            end = sim_clock(m, s[i].proc);
    return end;
}

static double mbs(const sim_machine *m, uint64_t bytes, sim_time cycles)
{
    void *o = sim_timing_model(m);
    double seconds = (double)cycles / (sim_origin_cpu_mhz(o) * 1e6);
    return bytes / seconds / 1e6;
}

static double mem_utilisation(const sim_machine *m, int node)
{
    void *o = sim_timing_model(m);
    sim_origin_node n;
    ck_assert_int_eq(sim_origin_node_stats(o, node, &n), 0);
    uint64_t total = n.mem_ps[0] + n.mem_ps[1] + n.mem_ps[2] + n.mem_ps[3];
    return 1.0 - (double)n.mem_ps[SO_MEM_IDLE] / (double)total;
}

static double link_utilisation(const sim_machine *m, int link)
{
    void *o = sim_timing_model(m);
    sim_origin_link l;
    ck_assert_int_eq(sim_origin_link_stats(o, link, &l), 0);
    return (double)l.busy_ps / (double)sim_origin_elapsed_ps(o);
}

/* ---- shape ---- */

START_TEST(shape_and_hops)
{
    sim_machine *m = origin_machine(16, NULL);
    void *o = sim_timing_model(m);
    ck_assert_int_eq(sim_origin_nodes(o), 8);
    ck_assert_int_eq(sim_origin_routers(o), 4);
    ck_assert_int_eq(sim_origin_node_of(o, 5), 2);
    ck_assert_int_eq(sim_origin_hops(o, 0, 1), 0); /* two nodes on one router */
    ck_assert_int_eq(sim_origin_hops(o, 0, 2), 1);
    ck_assert_int_eq(sim_origin_hops(o, 0, 6), 2); /* router 0 to router 3 */
    ck_assert_int_eq(sim_get_params(m)->line_size, 128);
    ck_assert_int_eq(sim_get_params(m)->page_size, 16384);
    sim_destroy(m);
    m = origin_machine(128, NULL); /* Fig. 3: four 32-processor cubes, metarouters */
    o = sim_timing_model(m);
    ck_assert_int_eq(sim_origin_routers(o), 32);
    ck_assert_int_eq(sim_origin_metarouters(o), 8); /* one per corner of a cube */
    ck_assert_int_eq(sim_origin_hops(o, 0, 15), 3); /* routers 0 and 7, one cube */
    ck_assert_int_eq(sim_origin_hops(o, 0, 16), 2); /* corner 0 of cubes 0 and 1 */
    ck_assert_int_eq(sim_origin_hops(o, 0, 62), 5); /* corner 0 of cube 0, 7 of cube 3 */
    ck_assert_int_eq(sim_origin_hops(o, 2, 22), 3); /* corners 1 and 3: one cube hop */
    ck_assert_int_eq(sim_origin_hops(o, 2, 20), 4); /* corners 1 and 2: two */
    ck_assert_int_eq(sim_origin_hops(o, 62, 0), 5);
    ck_assert_int_eq(sim_origin_hops(o, 48, 31), 5); /* corner 0 of cube 3, 7 of cube 1 */
    int max = 0;
    for (int a = 0; a < 64; a++)
        for (int b = 0; b < 64; b++) {
            int h = sim_origin_hops(o, a, b);
            ck_assert_int_eq(h, sim_origin_hops(o, b, a));
            max = h > max ? h : max;
        }
    ck_assert_int_eq(max, 5); /* 3 in the cube, up and down: the diameter */
    sim_destroy(m);
    m = origin_machine(512, NULL); /* 16 cubes: each plane a 2-D cube of metarouters */
    o = sim_timing_model(m);
    ck_assert_int_eq(sim_origin_metarouters(o), 32);
    ck_assert_int_eq(sim_origin_hops(o, 0, 16), 2);  /* cubes 0 and 1: one metarouter */
    ck_assert_int_eq(sim_origin_hops(o, 0, 64), 3);  /* cube 4: the next metarouter */
    ck_assert_int_eq(sim_origin_hops(o, 0, 254), 7); /* corner 7 of cube 15 */
    sim_destroy(m);
}
END_TEST

/* A line of node 62's memory read by processor 0 on a 128-processor
 * machine: the request and its reply cross the route's links, each
 * direction its own: node out, 3 cube links to the destination's corner,
 * up into that corner's metarouter, down into the destination's router,
 * node in; 1 and 9 packets on each. */
START_TEST(metarouter_route)
{
    sim_machine *m = origin_machine(128, NULL);
    void *o = sim_timing_model(m);
    ck_assert_int_eq(sim_place(m, BASE, BYTES, 124), 0);
    stream s = {.proc = 0, .from = BASE, .len = 8, .stride = 8};
    run_streams(m, &s, 1);
    int used = 0, to_meta = 0, from_meta = 0;
    for (int l = 0; l < sim_origin_links(o); l++) {
        sim_origin_link k;
        ck_assert_int_eq(sim_origin_link_stats(o, l, &k), 0);
        if (!k.packets)
            continue;
        used++;
        ck_assert_msg(k.packets == 1 || k.packets == 9, "link %d: %llu packets", l,
                      (unsigned long long)k.packets);
        if (k.to_kind == SO_END_META) {
            to_meta++; /* the request turns at corner 7, the reply at corner 0 */
            ck_assert_msg(k.to == (k.packets == 1 ? 7 : 0), "up %llu packets into %d",
                          (unsigned long long)k.packets, k.to);
        }
        if (k.from_kind == SO_END_META)
            from_meta++;
    }
    ck_assert_int_eq(used, 14);
    ck_assert_int_eq(to_meta, 2);
    ck_assert_int_eq(from_meta, 2);
    sim_origin_thread t;
    ck_assert_int_eq(sim_origin_thread_of(o, 0, &t), 0);
    ck_assert_uint_eq(t.hops[5], 1);
    sim_destroy(m);
}
END_TEST

START_TEST(options)
{
    sim_params p;
    char err[256];
    ck_assert_int_eq(sim_params_for("origin", 4, &p, err, sizeof err), 0);
    ck_assert_int_eq(sim_params_set(&p, "mem_mbs=700", err, sizeof err), 0);
    ck_assert_int_eq(sim_params_set(&p, "hub_sample_us=100", err, sizeof err), 0);
    ck_assert_int_eq(sim_params_set(&p, "mem_mbs=0", err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "mem_mbs"));
    ck_assert_int_eq(sim_params_set(&p, "warp=9", err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "warp"));
    ck_assert_int_eq(sim_params_set(&p, "tlb_entries=2", err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "at least 4"));
    ck_assert_int_eq(sim_params_set(&p, "tlb_entries=4", err, sizeof err), 0);
}
END_TEST

/* A clock whose picoseconds pass the model's range ends the run with the
 * core's clock-limit error, never with times that stop growing. */
START_TEST(clock_limit)
{
    sim_machine *m = origin_machine(4, NULL);
    ck_assert_int_eq(sim_place(m, BASE, BYTES, 2), 0);
    sim_set_clock(m, 0, 1ull << 51); /* 2^51 cycles at 195 MHz: past 2^62 ps */
    int rc = sim_ref(m, 0, BASE, 8, 0, -1);
    if (rc >= 0)
        rc = sim_run_until(m, SIM_NEVER - 1);
    ck_assert_int_lt(rc, 0);
    ck_assert_msg(strstr(sim_error(m), "limit") != NULL, "%s", sim_error(m));
    sim_destroy(m);
}
END_TEST

/* The R10000's TLB: 64 entries of two 16 KB pages; a refill delays the
 * miss it belongs to. */
static uint64_t tlb_run(const char *option, sim_time *end)
{
    sim_machine *m = origin_machine(2, option);
    ck_assert_int_eq(sim_place(m, BASE, BYTES, 0), 0);
    const uintptr_t pair = 2 * 16384;
    for (int i = 0; i <= 64; i++) { /* 65 pairs: the first is evicted */
        stream s = {.proc = 0, .from = BASE + (uintptr_t)i * pair, .len = 8, .stride = 8};
        run_streams(m, &s, 1);
    }
    stream again = {.proc = 0, .from = BASE + 128, .len = 8, .stride = 8};  /* pair 0 */
    stream near = {.proc = 0, .from = BASE + 64 * pair + 256, .len = 8, .stride = 8};
    run_streams(m, &again, 1);
    run_streams(m, &near, 1);
    sim_origin_thread t;
    ck_assert_int_eq(sim_origin_thread_of(sim_timing_model(m), 0, &t), 0);
    ck_assert_uint_eq(t.misses, 67);
    *end = sim_clock(m, 0);
    sim_destroy(m);
    return t.tlb_misses;
}

START_TEST(tlb)
{
    sim_time with, without;
    ck_assert_uint_eq(tlb_run(NULL, &with), 66);
    ck_assert_uint_eq(tlb_run("tlb_entries=0", &without), 0);
    /* 66 refills of 150 ns at 195 MHz: 29 cycles each */
    ck_assert_uint_ge(with - without, 66 * 29);
    ck_assert_uint_le(with - without, 66 * 31);
}
END_TEST

/* The TLB is looked up by every reference, hits in the cache too: a line
 * still cached whose page pair left the TLB costs a refill. */
START_TEST(tlb_on_cache_hits)
{
    sim_machine *m = origin_machine(2, NULL);
    ck_assert_int_eq(sim_place(m, BASE, BYTES, 0), 0);
    const uintptr_t pair = 2 * 16384;
    for (int i = 0; i <= 64; i++) { /* 65 pairs, a line each: pair 0 leaves the TLB */
        stream s = {.proc = 0, .from = BASE + (uintptr_t)i * pair, .len = 8, .stride = 8};
        run_streams(m, &s, 1);
    }
    void *o = sim_timing_model(m);
    sim_origin_thread t;
    ck_assert_int_eq(sim_origin_thread_of(o, 0, &t), 0);
    ck_assert_uint_eq(t.tlb_misses, 65);
    sim_time before = sim_clock(m, 0);
    stream hit = {.proc = 0, .from = BASE + 8, .len = 8, .stride = 8}; /* line 0: cached */
    run_streams(m, &hit, 1);
    ck_assert_int_eq(sim_origin_thread_of(o, 0, &t), 0);
    ck_assert_uint_eq(t.misses, 65);     /* a cache hit ... */
    ck_assert_uint_eq(t.tlb_misses, 66); /* ... and a TLB miss: 150 ns, 30 cycles */
    ck_assert_uint_ge(sim_clock(m, 0) - before, 30);
    ck_assert_uint_le(sim_clock(m, 0) - before, 31);
    before = sim_clock(m, 0);
    stream same = {.proc = 0, .from = BASE + 16, .len = 64, .stride = 8}; /* same pair */
    run_streams(m, &same, 1);
    ck_assert_int_eq(sim_origin_thread_of(o, 0, &t), 0);
    ck_assert_uint_eq(t.tlb_misses, 66);
    ck_assert_uint_eq(sim_clock(m, 0) - before, 8); /* 8 hits of a cycle */
    before = sim_clock(m, 0);
    for (int k = 0; k < 4; k++) { /* two entries in turn, both held: hits */
        stream a = {.proc = 0, .from = BASE + 32, .len = 8, .stride = 8};
        stream b = {.proc = 0, .from = BASE + 64 * pair + 32, .len = 8, .stride = 8};
        run_streams(m, &a, 1);
        run_streams(m, &b, 1);
    }
    ck_assert_int_eq(sim_origin_thread_of(o, 0, &t), 0);
    ck_assert_uint_eq(t.tlb_misses, 66);
    ck_assert_uint_eq(t.misses, 65);
    ck_assert_uint_eq(sim_clock(m, 0) - before, 8);
    sim_destroy(m);
}
END_TEST

/* ---- latency ---- */

typedef struct last_miss {
    sim_time latency;
    int n;
} last_miss;
static void on_miss(void *arg, const sim_miss *ms)
{
    last_miss *l = arg;
    l->latency = ms->latency;
    l->n++;
}

static sim_time one_read(int proc, int home)
{
    sim_machine *m = origin_machine(8, NULL);
    ck_assert_int_eq(sim_place(m, BASE, BYTES, home), 0);
    last_miss l = {0, 0};
    sim_on_miss(m, on_miss, &l);
    /* a first miss in the same pages fills the TLB: the latency measured is
     * the memory's, as a benchmark's warmed-up loop sees it */
    stream warm = {.proc = proc, .from = BASE + 2048, .len = 8, .stride = 8};
    stream s = {.proc = proc, .from = BASE, .len = 8, .stride = 8};
    run_streams(m, &warm, 1);
    run_streams(m, &s, 1);
    ck_assert_int_eq(l.n, 2);
    sim_destroy(m);
    return l.latency;
}

START_TEST(remote_local_ratio)
{
    sim_time local = one_read(0, 0);
    sim_time near = one_read(2, 0); /* node 1: the other node of router 0 */
    sim_time far = one_read(6, 0);  /* node 3: one router hop */
    double ratio = (double)near / (double)local;
    printf("origin latency: local %llu, nearest remote %llu (ratio %.2f), one hop %llu cycles\n",
           (unsigned long long)local, (unsigned long long)near, ratio,
           (unsigned long long)far);
    ck_assert_msg(ratio > 1.7 && ratio < 2.3, "remote/local %.2f, the paper: almost 2", ratio);
    ck_assert_uint_gt(far, near);
}
END_TEST

/* A dirty line at processor 2 (node 1), home node 6 (two router hops
 * away), read by processor 0 (node 0, on the owner's router): the latency
 * of that read, and of a clean read of the same home. */
static sim_time dirty_read(const char *three_hop, sim_time *clean)
{
    sim_machine *m = origin_machine(16, three_hop);
    ck_assert_int_eq(sim_place(m, BASE, BYTES, 12), 0);
    last_miss l = {0, 0};
    sim_on_miss(m, on_miss, &l);
    stream warm = {.proc = 0, .from = BASE + 8192, .len = 8, .stride = 8}; /* the TLB */
    stream c = {.proc = 0, .from = BASE + 4096, .len = 8, .stride = 8};
    run_streams(m, &warm, 1);
    run_streams(m, &c, 1);
    *clean = l.latency;
    sim_set_clock(m, 2, sim_clock(m, 0));
    ck_assert_int_ge(sim_ref(m, 2, BASE, 8, 1, -1), 0);
    ck_assert_int_eq(sim_run_until(m, SIM_NEVER - 1), 0);
    sim_set_clock(m, 0, sim_clock(m, 2) + 1000);
    stream r = {.proc = 0, .from = BASE, .len = 8, .stride = 8};
    run_streams(m, &r, 1);
    sim_origin_thread t;
    ck_assert_int_eq(sim_origin_thread_of(sim_timing_model(m), 0, &t), 0);
    ck_assert_uint_eq(t.txn[SO_TXN_DIRTY_EXCLUSIVE], 1);
    sim_destroy(m);
    return l.latency;
}

START_TEST(three_hop_intervention)
{
    sim_time clean, clean4;
    sim_time three = dirty_read(NULL, &clean), four = dirty_read("three_hop=0", &clean4);
    printf("origin intervention: clean remote read %llu, dirty read 3-hop %llu, as 4 messages "
           "%llu cycles\n",
           (unsigned long long)clean, (unsigned long long)three, (unsigned long long)four);
    ck_assert_uint_eq(clean, clean4);
    /* the owner answers from the requester's own router instead of sending
     * the line back across the machine to the home first */
    ck_assert_uint_lt(three, four * 9 / 10);
    ck_assert_msg(three < clean * 7 / 4, "3-hop %llu against clean %llu",
                  (unsigned long long)three, (unsigned long long)clean);
    ck_assert_msg(four > clean * 19 / 10, "4-hop %llu against clean %llu",
                  (unsigned long long)four, (unsigned long long)clean);
}
END_TEST

/* System activity (preempt_us, preempt_ns): a processor streaming 1 MB
 * from its memory is taken away for 5 us about every 100 us; it loses that
 * time (counted per thread), the run grows by it, and runs repeat. */
static sim_time preempted_run(const char *option, uint64_t *lost)
{
    sim_machine *m = origin_machine(2, option);
    ck_assert_int_eq(sim_place(m, BASE, BYTES, 0), 0);
    stream s = {.proc = 0, .from = BASE, .len = MB, .stride = 128};
    sim_time end = run_streams(m, &s, 1);
    sim_origin_thread t;
    ck_assert_int_eq(sim_origin_thread_of(sim_timing_model(m), 0, &t), 0);
    *lost = t.preempted_ps;
    sim_destroy(m);
    return end;
}

START_TEST(preemption)
{
    uint64_t none, lost, again;
    sim_time quiet = preempted_run(NULL, &none);
    sim_time busy = preempted_run("preempt_us=100", &lost); /* preempt_ns=0: still off */
    ck_assert_uint_eq(lost, 0);
    ck_assert_uint_eq(busy, quiet);
    ck_assert_uint_eq(none, 0);
    char err[256];
    sim_params p;
    ck_assert_int_eq(sim_params_for("origin", 2, &p, err, sizeof err), 0);
    ck_assert_int_eq(sim_params_set(&p, "preempt_ns=-5", err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "preempt_ns"));
    busy = preempted_run("preempt_us=100,preempt_ns=5000", &lost);
    double us = (double)quiet / 195.0, lost_us = (double)lost / 1e6;
    printf("origin preemption: %.0f us quiet, %.0f us with 5 us every 100 us (%.1f us lost)\n",
           us, (double)busy / 195.0, lost_us);
    /* about one preemption per 100 us of the run */
    ck_assert_msg(lost_us > 5 * (us / 100) * 0.6 && lost_us < 5 * (us / 100 + 2) * 1.4,
                  "%.1f us lost in %.0f us", lost_us, us);
    double grew = (double)(busy - quiet) / 195.0;
    ck_assert_msg(grew > lost_us * 0.9 && grew < lost_us * 1.1, "grew %.1f us, lost %.1f", grew,
                  lost_us);
    sim_time twice = preempted_run("preempt_us=100,preempt_ns=5000", &again);
    ck_assert_uint_eq(twice, busy);
    ck_assert_uint_eq(again, lost);
}
END_TEST

/* ---- Fig. 4: local reduction loop ---- */

static void fig4(int threads, double want_mbs, double want_util)
{
    sim_machine *m = origin_machine(8, NULL);
    ck_assert_int_eq(sim_place(m, BASE, BYTES, 0), 0);
    stream s[2];
    for (int i = 0; i < threads; i++)
        s[i] = (stream){.proc = i, .from = BASE + (uintptr_t)i * 8 * MB, .len = 2 * MB,
                        .stride = 8};
    sim_time end = run_streams(m, s, threads);
    double bw = mbs(m, (uint64_t)threads * 2 * MB, end), util = mem_utilisation(m, 0);
    printf("origin fig4 %dP: %.0f MB/s (paper %.0f), memory utilisation %.1f%% (paper %.0f%%)\n",
           threads, bw, want_mbs, 100 * util, 100 * want_util);
    /* two threads: what holds them to about 412 MB/s is the multiplexed
     * SysAD bus carrying one transaction at a time (a request waits for
     * the other processor's line), not a bandwidth: SysAD would carry
     * 507 MB/s of lines (doc/simulation.md) */
    ck_assert_msg(bw > want_mbs * 0.9 && bw < want_mbs * 1.1, "%.0f MB/s", bw);
    ck_assert_msg(util > want_util - 0.05 && util < want_util + 0.05, "%.3f", util);
    sim_destroy(m);
}

START_TEST(fig4_one_thread) { fig4(1, 280, 0.66); }
END_TEST
START_TEST(fig4_two_threads) { fig4(2, 412, 0.85); }
END_TEST

/* ---- Fig. 5: remote readers of one node ---- */

START_TEST(fig5_remote_readers)
{
    /* memory on node 0; readers on nodes 1, 2, 3, one element of each line
     * (bw-read).  Our processors block on a miss where the R10000 keeps up
     * to four in flight: each reader node runs both its processors, which
     * offers the memory what the paper's one R10000 per node did. */
    sim_machine *m = origin_machine(8, NULL);
    ck_assert_int_eq(sim_place(m, BASE, BYTES, 0), 0);
    stream s[6];
    for (int i = 0; i < 6; i++)
        s[i] = (stream){.proc = 2 + i, .from = BASE + (uintptr_t)i * 4 * MB, .len = 2 * MB,
                        .stride = 128};
    sim_time end = run_streams(m, s, 6);
    double bw = mbs(m, 6ull * 2 * MB, end), util = mem_utilisation(m, 0);
    double out = link_utilisation(m, 0), in = link_utilisation(m, 1);
    printf("origin fig5: %.0f MB/s (paper 620-623), memory %.1f%% (paper 100%%), outgoing link "
           "%.1f%% (paper ~95%%), incoming %.1f%% (paper ~10.5%%)\n",
           bw, 100 * util, 100 * out, 100 * in);
    ck_assert_msg(bw > 620 * 0.95 && bw < 620 * 1.05, "%.0f MB/s", bw);
    ck_assert_msg(util > 0.97, "memory utilisation %.3f", util);
    /* a packet holds a link for its share of the sustained line rate
     * (693 MB/s): 620/693 = 89.5% out; the paper's 95% is 658 MB/s through
     * the link, which it blames on snbench's own bandwidth figure (4.1).
     * Counting packets at the 800 MB/s peak gave 87% */
    ck_assert_msg(out > 0.88 && out < 1.0, "outgoing link %.3f", out);
    ck_assert_msg(in > 0.095 && in < 0.125, "incoming link %.3f", in);
    ck_assert_msg(out / in > 8.5 && out / in < 9.5, "packet ratio %.2f", out / in);
    sim_destroy(m);
}
END_TEST

/* ---- the profiler's counters ---- */

START_TEST(thread_counters)
{
    sim_machine *m = origin_machine(8, "hub_sample_us=10");
    void *o = sim_timing_model(m);
    ck_assert_int_eq(sim_place(m, BASE, MB, 0), 0);
    ck_assert_int_eq(sim_place(m, BASE + MB, MB, 7), 0); /* node 3 */
    /* processor 2 reads 4 lines at node 0 and 2 at node 3 */
    stream r[2] = {{.proc = 2, .from = BASE, .len = 512, .stride = 128},
                   {.proc = 2, .from = BASE + MB, .len = 256, .stride = 128}};
    run_streams(m, &r[0], 1);
    run_streams(m, &r[1], 1);
    /* processors 4 and 6 read the first line too, then processor 0 writes
     * it: an invalidation of three sharers */
    stream s4 = {.proc = 4, .from = BASE, .len = 8, .stride = 8};
    stream s6 = {.proc = 6, .from = BASE, .len = 8, .stride = 8};
    run_streams(m, &s4, 1);
    run_streams(m, &s6, 1);
    sim_set_clock(m, 0, sim_clock(m, 6));
    ck_assert_int_ge(sim_ref(m, 0, BASE, 8, 1, -1), 0);
    ck_assert_int_eq(sim_run_until(m, SIM_NEVER - 1), 0);
    /* processor 2 writes a line processor 6 holds exclusive (node 3's
     * second line, read first by 6 alone) */
    stream s6b = {.proc = 6, .from = BASE + MB + 1024, .len = 8, .stride = 8};
    run_streams(m, &s6b, 1);
    sim_set_clock(m, 2, sim_clock(m, 6) > sim_clock(m, 2) ? sim_clock(m, 6) : sim_clock(m, 2));
    ck_assert_int_ge(sim_ref(m, 2, BASE + MB + 1024, 8, 1, -1), 0);
    ck_assert_int_eq(sim_run_until(m, SIM_NEVER - 1), 0);

    sim_origin_thread t;
    ck_assert_int_eq(sim_origin_thread_of(o, 2, &t), 0);
    ck_assert_uint_eq(t.misses, 7);
    ck_assert_uint_eq(t.local, 0);
    ck_assert_uint_eq(t.hops[0], 4); /* node 1 to node 0: one router */
    ck_assert_uint_eq(t.hops[1], 3); /* node 1 to node 3 */
    ck_assert_uint_eq(t.txn[SO_TXN_UNOWNED], 6);
    ck_assert_uint_eq(t.txn[SO_TXN_CLEAN_EXCLUSIVE] + t.txn[SO_TXN_DIRTY_EXCLUSIVE], 1);
    ck_assert_uint_eq(t.txn[SO_TXN_CLEAN_EXCLUSIVE], 1); /* 6 had it exclusive-clean */
    ck_assert_int_eq(sim_origin_thread_of(o, 0, &t), 0);
    ck_assert_uint_eq(t.local, t.misses);
    ck_assert_uint_eq(t.txn[SO_TXN_INVALIDATE], 1);
    ck_assert_uint_eq(t.inv_by_sharers[2], 1); /* three sharers */
    /* samples: 10 us periods, the run is longer than one */
    ck_assert_int_gt(sim_origin_hub_samples(o), 0);
    uint64_t mem[SO_MEM_NSTATES], bus, ni, bytes, total = 0;
    for (int k = 0; k < sim_origin_hub_samples(o); k++) {
        ck_assert_int_eq(sim_origin_hub_sample(o, 0, k, mem, &bus, &ni, &bytes), 0);
        total += bytes;
    }
    sim_origin_node n;
    ck_assert_int_eq(sim_origin_node_stats(o, 0, &n), 0);
    ck_assert_uint_eq(total, n.mem_bytes);
    ck_assert_uint_gt(n.ni_out_busy_ps, 0);
    sim_destroy(m);
}
END_TEST

/* First touch (the default) puts a page where it is first missed on,
 * whatever the program placed; round robin spreads pages over processors. */
static int home_after_touch(const char *placement, int proc, uintptr_t addr)
{
    sim_params p;
    char err[256];
    ck_assert_int_eq(sim_params_for("origin", 8, &p, err, sizeof err), 0);
    if (placement)
        ck_assert_int_eq(sim_params_set(&p, placement, err, sizeof err), 0);
    sim_machine *m = sim_create(&p, BASE, BYTES, err, sizeof err);
    ck_assert_ptr_nonnull(m);
    ck_assert_int_eq(sim_place(m, BASE, BYTES, 0), 0);
    int home = -1;
    last_miss l = {0, 0};
    sim_on_miss(m, on_miss, &l);
    stream s = {.proc = proc, .from = addr, .len = 8, .stride = 8};
    run_streams(m, &s, 1);
    sim_origin_thread t;
    ck_assert_int_eq(sim_origin_thread_of(sim_timing_model(m), proc, &t), 0);
    ck_assert_uint_eq(t.misses, 1);
    home = t.local ? proc / 2 : -1;
    sim_destroy(m);
    return home;
}

START_TEST(page_placement)
{
    {   /* sim_home_at follows the policy: placed until touched, then the toucher */
        sim_params p;
        char err[256];
        ck_assert_int_eq(sim_params_for("origin", 8, &p, err, sizeof err), 0);
        sim_machine *m = sim_create(&p, BASE, BYTES, err, sizeof err);
        ck_assert_ptr_nonnull(m);
        ck_assert_int_eq(sim_place(m, BASE, BYTES, 0), 0);
        ck_assert_int_eq(sim_home_at(m, BASE + 5 * 16384 + 8), 0);
        stream s = {.proc = 5, .from = BASE + 5 * 16384, .len = 8, .stride = 8};
        run_streams(m, &s, 1);
        ck_assert_int_eq(sim_home_at(m, BASE + 5 * 16384 + 8), 5);
        ck_assert_int_eq(sim_home_at(m, BASE + 6 * 16384), 0);
        ck_assert_int_eq(sim_home_at(m, BASE - 1), -1);
        sim_destroy(m);
    }
    ck_assert_int_eq(home_after_touch(NULL, 5, BASE + 3 * 16384), 2); /* first touch: local */
    ck_assert_int_eq(home_after_touch("placement=program", 5, BASE), -1);   /* node 0 */
    /* round robin: page 3 on processor 3 (node 1), page 2 on processor 2 */
    ck_assert_int_eq(home_after_touch("placement=round_robin", 3, BASE + 3 * 16384), 1);
    ck_assert_int_eq(home_after_touch("placement=round_robin", 5, BASE + 3 * 16384), -1);
    sim_params p;
    char err[256];
    ck_assert_int_eq(sim_params_for("origin", 8, &p, err, sizeof err), 0);
    ck_assert_int_eq(sim_params_set(&p, "placement=nearest", err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "first_touch"));
}
END_TEST

Suite *unit_suite(void)
{
    Suite *s = suite_create("origin");
    TCase *tc = tcase_create("origin");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, shape_and_hops);
    tcase_add_test(tc, metarouter_route);
    tcase_add_test(tc, preemption);
    tcase_add_test(tc, options);
    tcase_add_test(tc, clock_limit);
    tcase_add_test(tc, tlb);
    tcase_add_test(tc, remote_local_ratio);
    tcase_add_test(tc, three_hop_intervention);
    tcase_add_test(tc, tlb_on_cache_hits);
    tcase_add_test(tc, fig4_one_thread);
    tcase_add_test(tc, fig4_two_threads);
    tcase_add_test(tc, fig5_remote_readers);
    tcase_add_test(tc, thread_counters);
    tcase_add_test(tc, page_placement);
    suite_add_tcase(s, tc);
    return s;
}
