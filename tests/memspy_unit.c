/* memspy_unit.c - unit tests of the MemSpy collector (protocol/sim/memspy.h)
 * and of the dsm-sim/1 writer (profile/simprof.h), Check framework, fed with
 * synthetic sim_miss records (no machine is needed):
 *   - counts per (procedure, bin): read/write misses, upgrades, stall, the
 *     four causes, true/false sharing; bin, procedure and run totals;
 *   - ids -1 (unknown procedure, no bin) are counted in their own row;
 *   - the replacement matrix (evicted bin x evicting bin);
 *   - tables grown by a late large id keep what they held;
 *   - Eq. 6.1, the sampling plan, the full-run estimate and cause shares
 *     against values computed by hand;
 *   - the writer: a file written, read back with json-c, fields checked. */
#include "simprof.h"

#include "check_main.h"
#include <json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static sim_miss miss(int procedure, int bin, int is_write, sim_cause cause, sim_time latency)
{
    sim_miss m;
    memset(&m, 0, sizeof m);
    m.procedure = procedure;
    m.bin = bin;
    m.is_write = (uint8_t)is_write;
    m.cause = (uint8_t)cause;
    m.latency = latency;
    m.evicted_by_bin = -1;
    return m;
}

/* A small run: procedure 0 ("init") and 1 ("block"), bins 0 ("X"), 1 ("Y"). */
static void feed(memspy *ms)
{
    sim_miss m;
    for (int i = 0; i < 4; i++) { /* init writes X and Y cold */
        m = miss(0, i % 2, 1, SIM_CAUSE_COLD, 50);
        ck_assert_int_eq(memspy_record(ms, &m), 0);
    }
    for (int i = 0; i < 19; i++) { /* block reads Y, which Y itself evicted */
        m = miss(1, 1, 0, SIM_CAUSE_REPLACEMENT, 50);
        m.evicted_by_bin = 1;
        memspy_record(ms, &m);
    }
    m = miss(1, 1, 0, SIM_CAUSE_REPLACEMENT, 50); /* ... and once X did */
    m.evicted_by_bin = 0;
    memspy_record(ms, &m);
    m = miss(1, 0, 0, SIM_CAUSE_INVALIDATION, 85); /* X: true sharing */
    memspy_record(ms, &m);
    m = miss(1, 0, 0, SIM_CAUSE_INVALIDATION, 85); /* X: false sharing */
    m.false_sharing = 1;
    memspy_record(ms, &m);
    m = miss(1, 0, 1, SIM_CAUSE_UPGRADE, 30); /* X: upgrade, not a miss */
    m.is_upgrade = 1;
    memspy_record(ms, &m);
    m = miss(1, 0, 0, SIM_CAUSE_UNKNOWN, 50);
    memspy_record(ms, &m);
}

START_TEST(counts_per_cell)
{
    memspy *ms = memspy_create();
    ck_assert_ptr_nonnull(ms);
    feed(ms);
    ck_assert_int_eq(memspy_nprocedures(ms), 2);
    ck_assert_int_eq(memspy_nbins(ms), 2);
    ck_assert_uint_eq(memspy_get(ms, 0, 0, MS_WRITE_MISSES), 2);
    ck_assert_uint_eq(memspy_get(ms, 0, 1, MS_COLD), 2);
    ck_assert_uint_eq(memspy_get(ms, 0, 0, MS_STALL), 100);
    ck_assert_uint_eq(memspy_get(ms, 1, 1, MS_READ_MISSES), 20);
    ck_assert_uint_eq(memspy_get(ms, 1, 1, MS_REPLACEMENT), 20);
    ck_assert_uint_eq(memspy_get(ms, 1, 1, MS_STALL), 1000);
    ck_assert_uint_eq(memspy_get(ms, 1, 0, MS_READ_MISSES), 3);
    ck_assert_uint_eq(memspy_get(ms, 1, 0, MS_WRITE_MISSES), 0);
    ck_assert_uint_eq(memspy_get(ms, 1, 0, MS_UPGRADES), 1);
    ck_assert_uint_eq(memspy_get(ms, 1, 0, MS_INVALIDATION), 2);
    ck_assert_uint_eq(memspy_get(ms, 1, 0, MS_TRUE_SHARING), 1);
    ck_assert_uint_eq(memspy_get(ms, 1, 0, MS_FALSE_SHARING), 1);
    ck_assert_uint_eq(memspy_get(ms, 1, 0, MS_UNKNOWN), 1);
    ck_assert_uint_eq(memspy_get(ms, 1, 0, MS_STALL), 85 + 85 + 30 + 50);
    ck_assert_uint_eq(memspy_misses(ms, 1, 0), 3);
    /* unseen ids read 0, no crash */
    ck_assert_uint_eq(memspy_get(ms, 7, 9, MS_STALL), 0);
    ck_assert_uint_eq(memspy_get(ms, 0, 0, MS_NMETRICS), 0);
    /* views */
    ck_assert_uint_eq(memspy_bin_total(ms, 1, MS_READ_MISSES) +
                          memspy_bin_total(ms, 1, MS_WRITE_MISSES), 22);
    ck_assert_uint_eq(memspy_bin_total(ms, 0, MS_STALL), 100 + 250);
    ck_assert_uint_eq(memspy_procedure_total(ms, 1, MS_REPLACEMENT), 20);
    ck_assert_uint_eq(memspy_procedure_total(ms, 0, MS_COLD), 4);
    ck_assert_uint_eq(memspy_total(ms, MS_READ_MISSES), 23);
    ck_assert_uint_eq(memspy_total(ms, MS_WRITE_MISSES), 4);
    ck_assert_uint_eq(memspy_total(ms, MS_UPGRADES), 1);
    ck_assert_uint_eq(memspy_total(ms, MS_STALL), 200 + 1000 + 250);
    /* causes add up to the data misses */
    ck_assert_uint_eq(memspy_total(ms, MS_COLD) + memspy_total(ms, MS_REPLACEMENT) +
                          memspy_total(ms, MS_INVALIDATION) + memspy_total(ms, MS_UNKNOWN),
                      27);
    ck_assert_uint_eq(memspy_lost(ms), 0);
    memspy_free(ms);
}
END_TEST

START_TEST(unknown_ids)
{
    memspy *ms = memspy_create();
    sim_miss m = miss(-1, -1, 0, SIM_CAUSE_COLD, 10);
    memspy_record(ms, &m);
    m = miss(-5, 0, 1, SIM_CAUSE_COLD, 10); /* below -1 counts as -1 */
    memspy_record(ms, &m);
    ck_assert_int_eq(memspy_nprocedures(ms), 0);
    ck_assert_int_eq(memspy_nbins(ms), 1);
    ck_assert_uint_eq(memspy_get(ms, -1, -1, MS_READ_MISSES), 1);
    ck_assert_uint_eq(memspy_get(ms, -1, 0, MS_WRITE_MISSES), 1);
    ck_assert_uint_eq(memspy_procedure_total(ms, -1, MS_COLD), 2);
    ck_assert_uint_eq(memspy_total(ms, MS_STALL), 20);
    memspy_free(ms);
}
END_TEST

START_TEST(replacement_matrix)
{
    memspy *ms = memspy_create();
    feed(ms);
    ck_assert_uint_eq(memspy_replacements(ms, 1, 1), 19);
    ck_assert_uint_eq(memspy_replacements(ms, 1, 0), 1);
    ck_assert_uint_eq(memspy_replacements(ms, 0, 1), 0);
    ck_assert_uint_eq(memspy_replacements(ms, 1, -1), 0);
    ck_assert_uint_eq(memspy_replacements(ms, 40, 40), 0);
    /* an eviction by no bin (-1), and by a bin larger than any seen so far */
    sim_miss m = miss(1, 0, 0, SIM_CAUSE_REPLACEMENT, 50);
    memspy_record(ms, &m);
    m.evicted_by_bin = 33;
    memspy_record(ms, &m);
    ck_assert_uint_eq(memspy_replacements(ms, 0, -1), 1);
    ck_assert_uint_eq(memspy_replacements(ms, 0, 33), 1);
    ck_assert_uint_eq(memspy_replacements(ms, 1, 1), 19); /* kept across the growth */
    memspy_free(ms);
}
END_TEST

START_TEST(growth_keeps_counts)
{
    memspy *ms = memspy_create();
    feed(ms);
    sim_miss m = miss(100, 70, 0, SIM_CAUSE_COLD, 7);
    memspy_record(ms, &m);
    ck_assert_int_eq(memspy_nprocedures(ms), 101);
    ck_assert_int_eq(memspy_nbins(ms), 71);
    ck_assert_uint_eq(memspy_get(ms, 100, 70, MS_STALL), 7);
    ck_assert_uint_eq(memspy_get(ms, 1, 1, MS_READ_MISSES), 20);
    ck_assert_uint_eq(memspy_get(ms, 1, 0, MS_FALSE_SHARING), 1);
    ck_assert_uint_eq(memspy_get(ms, 0, 1, MS_COLD), 2);
    ck_assert_uint_eq(memspy_total(ms, MS_READ_MISSES), 24);
    memspy_free(ms);
}
END_TEST

START_TEST(eq61)
{
    /* Hk = 900, Mk = 80, U = 20: m' = (80 + 10) / 1000 = 0.09, bound 10 / 1000 */
    memspy_rate r = memspy_eq61(900, 80, 20);
    ck_assert_double_eq_tol(r.rate, 0.09, 1e-12);
    ck_assert_double_eq_tol(r.bound, 0.01, 1e-12);
    /* the bound spans mu = 0 .. 1: [80/1000, 100/1000] */
    ck_assert_double_eq_tol(r.rate - r.bound, 0.08, 1e-12);
    ck_assert_double_eq_tol(r.rate + r.bound, 0.10, 1e-12);
    r = memspy_eq61(50, 50, 0); /* no unknown reference: exact */
    ck_assert_double_eq_tol(r.rate, 0.5, 1e-12);
    ck_assert_double_eq_tol(r.bound, 0.0, 1e-12);
    r = memspy_eq61(0, 0, 4); /* all unknown: 0.5 +- 0.5 */
    ck_assert_double_eq_tol(r.rate, 0.5, 1e-12);
    ck_assert_double_eq_tol(r.bound, 0.5, 1e-12);
    r = memspy_eq61(0, 0, 0);
    ck_assert_double_eq_tol(r.rate, 0.0, 1e-12);
    ck_assert_double_eq_tol(r.bound, 0.0, 1e-12);
}
END_TEST

START_TEST(sampling_plan)
{
    memspy_sampling s;
    /* windows [0,100) [1000,1100) [2000,2100): 3 samples, 300 cycles of 2550 */
    memspy_sampling_plan(1000, 100, 2550, &s);
    ck_assert_uint_eq(s.samples, 3);
    ck_assert_uint_eq(s.sampled_cycles, 300);
    ck_assert_uint_eq(s.total_cycles, 2550);
    ck_assert_double_eq_tol(s.ratio, 300.0 / 2550.0, 1e-12);
    /* ends inside the third window: 50 of its cycles */
    memspy_sampling_plan(1000, 100, 2050, &s);
    ck_assert_uint_eq(s.samples, 3);
    ck_assert_uint_eq(s.sampled_cycles, 250);
    /* ends exactly on a period boundary: the next window never opened */
    memspy_sampling_plan(1000, 100, 3000, &s);
    ck_assert_uint_eq(s.samples, 3);
    ck_assert_uint_eq(s.sampled_cycles, 300);
    ck_assert_double_eq_tol(s.ratio, 0.1, 1e-12);
    /* windows placed at random (sample_offset=random): each period holds
     * one window of 100 cycles, at the offset sim_window_offset gives it;
     * the run below ends 10 cycles into the third period's window */
    uint64_t open2 = sim_window_offset(1000, 100, 1, 2);
    ck_assert_uint_le(open2, 900);
    int differs = 0;
    for (uint64_t k = 0; k < 16; k++) {
        uint64_t o = sim_window_offset(1000, 100, 1, k);
        ck_assert_uint_le(o, 900);
        ck_assert_uint_eq(o, sim_window_offset(1000, 100, 1, k)); /* repeatable */
        ck_assert_uint_eq(sim_window_offset(1000, 100, 0, k), 0);
        differs |= o != open2;
    }
    ck_assert(differs); /* not one offset for every period */
    memspy_sampling_plan_placed(1000, 100, 1, 2000 + open2 + 10, &s);
    ck_assert_uint_eq(s.samples, 3);
    ck_assert_uint_eq(s.sampled_cycles, 210);
    memspy_sampling_plan_placed(1000, 100, 1, 2000 + open2, &s); /* it never opened */
    ck_assert_uint_eq(s.samples, 2);
    ck_assert_uint_eq(s.sampled_cycles, 200);
    /* not sampled: one sample, the whole run */
    memspy_sampling_plan(0, 0, 5000, &s);
    ck_assert_uint_eq(s.samples, 1);
    ck_assert_uint_eq(s.sampled_cycles, 5000);
    ck_assert_double_eq_tol(s.ratio, 1.0, 1e-12);
}
END_TEST

START_TEST(estimates)
{
    /* 30 known misses, 10 unknown references, ratio 0.1: (30 + 5) / 0.1 +- 5 / 0.1 */
    memspy_count_estimate e = memspy_estimate_count(30, 10, 0.1);
    ck_assert_double_eq_tol(e.value, 350.0, 1e-9);
    ck_assert_double_eq_tol(e.bound, 50.0, 1e-9);
    e = memspy_estimate_count(30, 0, 1.0);
    ck_assert_double_eq_tol(e.value, 30.0, 1e-9);
    ck_assert_double_eq_tol(e.bound, 0.0, 1e-9);
    e = memspy_estimate_count(30, 0, 0.0); /* no sample at all */
    ck_assert_double_eq_tol(e.value, 0.0, 1e-9);
    /* 6 cold of 10 misses, 2 of unknown cause: between 60% and 80% */
    memspy_rate r = memspy_cause_share(6, 2, 10);
    ck_assert_double_eq_tol(r.rate, 0.7, 1e-12);
    ck_assert_double_eq_tol(r.bound, 0.1, 1e-12);
    r = memspy_cause_share(0, 0, 0);
    ck_assert_double_eq_tol(r.rate, 0.0, 1e-12);
}
END_TEST

/* ---- writer round trip ---- */

static json_object *member(json_object *o, const char *k)
{
    json_object *v = NULL;
    ck_assert_msg(json_object_object_get_ex(o, k, &v), "member \"%s\" missing", k);
    return v;
}

static uint64_t num(json_object *o, const char *k) { return json_object_get_uint64(member(o, k)); }

static json_object *find_named(json_object *arr, const char *key, const char *name)
{
    for (size_t i = 0; i < json_object_array_length(arr); i++) {
        json_object *o = json_object_array_get_idx(arr, i), *v;
        if (json_object_object_get_ex(o, key, &v) && !strcmp(json_object_get_string(v), name))
            return o;
    }
    ck_abort_msg("no entry %s=%s", key, name);
    return NULL;
}

START_TEST(writer_round_trip)
{
    memspy *ms = memspy_create();
    feed(ms);
    sim_params p;
    memset(&p, 0, sizeof p);
    snprintf(p.machine, sizeof p.machine, "uniform");
    p.nprocs = 2;
    p.line_size = 32;
    p.cache_size = 65536;
    p.assoc = 1;
    p.page_size = 4096;
    p.hit_cycles = 1;
    p.sample_period = 1000;
    p.sample_length = 100;
    sim_time cycles[2] = { 2550, 1800 };
    const char *procs[] = { "init", "block" };
    const char *bins[] = { "X", "Y", "Z" };
    simprof_run run = {
        .program = "mm", .host_seconds = 0.25, .params = &p, .cycles = cycles,
        .references = 2550, .procedure_names = procs, .nprocedures = 2,
        .bin_names = bins, .nbins = 3, .ms = ms, .flashpoint = NULL,
    };
    json_object *doc = simprof_run_to_json(&run);
    ck_assert_ptr_nonnull(doc);
    char path[] = "/tmp/memspy_unit.XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    char err[256] = "";
    ck_assert_msg(simprof_write_json(doc, path, err, sizeof err) == 0, "write: %s", err);
    json_object_put(doc);

    json_object *root = json_object_from_file(path);
    unlink(path);
    ck_assert_ptr_nonnull(root);
    ck_assert_str_eq(json_object_get_string(member(root, "schema")), "dsm-sim/1");
    ck_assert_str_eq(json_object_get_string(member(root, "program")), "mm");
    json_object *m = member(root, "machine");
    ck_assert_str_eq(json_object_get_string(member(m, "name")), "uniform");
    ck_assert_uint_eq(num(m, "cache_size"), 65536);
    ck_assert_uint_eq(num(m, "sample_period"), 1000);
    ck_assert_uint_eq(num(root, "processors"), 2);
    ck_assert_uint_eq(num(member(root, "cycles"), "max"), 2550);
    ck_assert_uint_eq(num(member(root, "cycles"), "total"), 4350);
    ck_assert_uint_eq(num(root, "references"), 2550);
    ck_assert_int_eq((int)json_object_array_length(member(root, "bins")), 3);
    ck_assert_str_eq(json_object_get_string(json_object_array_get_idx(member(root, "procedures"),
                                                                      1)), "block");
    json_object *t = member(root, "totals");
    ck_assert_uint_eq(num(t, "misses"), 27);
    ck_assert_uint_eq(num(t, "upgrades"), 1);
    ck_assert_uint_eq(num(t, "stall_cycles"), 1450);
    ck_assert_uint_eq(num(t, "false_sharing"), 1);
    /* bins: Y with its 22 misses; Z listed though it never missed */
    json_object *y = find_named(member(root, "by_bin"), "name", "Y");
    ck_assert_uint_eq(num(y, "misses"), 22);
    ck_assert_uint_eq(num(y, "replacement"), 20);
    json_object *z = find_named(member(root, "by_bin"), "name", "Z");
    ck_assert_uint_eq(num(z, "misses"), 0);
    json_object *blk = find_named(member(root, "by_procedure"), "name", "block");
    ck_assert_uint_eq(num(blk, "read_misses"), 23);
    /* pairs: only non-empty ones, (block, Y) among them */
    json_object *pairs = member(root, "pairs");
    ck_assert_int_eq((int)json_object_array_length(pairs), 4);
    int found = 0;
    for (size_t i = 0; i < json_object_array_length(pairs); i++) {
        json_object *o = json_object_array_get_idx(pairs, i);
        if (!strcmp(json_object_get_string(member(o, "procedure_name")), "block") &&
            !strcmp(json_object_get_string(member(o, "bin_name")), "Y")) {
            ck_assert_uint_eq(num(o, "stall_cycles"), 1000);
            found = 1;
        }
    }
    ck_assert(found);
    /* replacements of Y: 20, 19 self, by Y and by X */
    json_object *ry = find_named(member(root, "replacements"), "name", "Y");
    ck_assert_uint_eq(num(ry, "total"), 20);
    ck_assert_uint_eq(num(ry, "self"), 19);
    ck_assert_uint_eq(num(find_named(member(ry, "by"), "name", "X"), "count"), 1);
    /* sampling: 3 samples of 100 in 2550 cycles (the longest clock) */
    json_object *s = member(root, "sampling");
    ck_assert(json_object_get_boolean(member(s, "enabled")));
    ck_assert_uint_eq(num(s, "samples"), 3);
    ck_assert_uint_eq(num(s, "sampled_cycles"), 300);
    ck_assert_uint_eq(num(s, "known_misses"), 27);
    ck_assert_uint_eq(num(s, "unknown_causes"), 1);
    double ratio = json_object_get_double(member(s, "ratio"));
    ck_assert_double_eq_tol(ratio, 300.0 / 2550.0, 1e-9);
    json_object *est = member(member(s, "estimates"), "totals");
    ck_assert_double_eq_tol(json_object_get_double(member(member(est, "misses"), "value")),
                            27.0 / ratio, 1e-6);
    json_object *ex = find_named(member(member(s, "estimates"), "by_bin"), "name", "X");
    /* X: 5 misses (2 cold, 2 invalidation, 1 unknown): cold 50% +- 10% */
    json_object *cold = member(member(ex, "cause_shares"), "cold");
    ck_assert_double_eq_tol(json_object_get_double(member(cold, "value")), 0.5, 1e-9);
    ck_assert_double_eq_tol(json_object_get_double(member(cold, "bound")), 0.1, 1e-9);
    ck_assert_double_eq_tol(json_object_get_double(member(s, "time_ratio")), ratio, 1e-9);
    json_object_put(root);

    /* the machine counted the references inside the windows: the sampling
     * ratio is in references (section 6.2), 255 of 2550 */
    run.sampled_references = 255;
    doc = simprof_run_to_json(&run);
    s = member(doc, "sampling");
    ck_assert_double_eq_tol(json_object_get_double(member(s, "ratio")), 0.1, 1e-12);
    ck_assert_double_eq_tol(json_object_get_double(member(s, "time_ratio")), 300.0 / 2550.0,
                            1e-12);
    ck_assert_uint_eq(num(s, "sampled_references"), 255);
    ck_assert_uint_eq(num(s, "known_hits"), 255 - 27);
    /* Eq. 6.1 with U = 0: 27 / 255 exactly */
    ck_assert_double_eq_tol(json_object_get_double(member(member(s, "miss_rate"), "value")),
                            27.0 / 255.0, 1e-12);
    /* ... but the full-run estimates scale by the windows' share of the
     * time, which the sampling fixes (the references' share swings with the
     * program's phases): 27 / (300 / 2550), not 27 / 0.1 */
    est = member(member(s, "estimates"), "totals");
    ck_assert_str_eq(json_object_get_string(member(member(s, "estimates"), "scaled_by")),
                     "time_ratio");
    ck_assert_double_eq_tol(json_object_get_double(member(member(est, "misses"), "value")),
                            27.0 * 2550.0 / 300.0, 1e-9);
    ck_assert_double_eq_tol(json_object_get_double(member(est, "stall_cycles")),
                            1450.0 * 2550.0 / 300.0, 1e-9);
    json_object_put(doc);

    /* not sampled: ratio 1, one sample, estimates are the counts */
    p.sample_period = 0;
    p.sample_length = 0;
    doc = simprof_run_to_json(&run);
    s = member(doc, "sampling");
    ck_assert(!json_object_get_boolean(member(s, "enabled")));
    ck_assert_uint_eq(num(s, "samples"), 1);
    ck_assert_double_eq_tol(json_object_get_double(member(s, "ratio")), 1.0, 1e-12);
    ck_assert_double_eq_tol(json_object_get_double(member(member(s, "miss_rate"), "value")),
                            27.0 / 2550.0, 1e-12);
    json_object_put(doc);
    memspy_free(ms);
}
END_TEST

START_TEST(writer_error_names_the_path)
{
    memspy *ms = memspy_create();
    sim_params p;
    memset(&p, 0, sizeof p);
    snprintf(p.machine, sizeof p.machine, "uniform");
    p.nprocs = 1;
    sim_time c = 0;
    simprof_run run = { .params = &p, .cycles = &c, .ms = ms };
    json_object *doc = simprof_run_to_json(&run);
    char err[256] = "";
    ck_assert_int_eq(simprof_write_json(doc, "/nonexistent-dir/x.json", err, sizeof err), -1);
    ck_assert_msg(strstr(err, "/nonexistent-dir/x.json") != NULL, "err: %s", err);
    json_object_put(doc);
    memspy_free(ms);
}
END_TEST

Suite *unit_suite(void)
{
    Suite *s = suite_create("memspy");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, counts_per_cell);
    tcase_add_test(tc, unknown_ids);
    tcase_add_test(tc, replacement_matrix);
    tcase_add_test(tc, growth_keeps_counts);
    tcase_add_test(tc, eq61);
    tcase_add_test(tc, sampling_plan);
    tcase_add_test(tc, estimates);
    tcase_add_test(tc, writer_round_trip);
    tcase_add_test(tc, writer_error_names_the_path);
    suite_add_tcase(s, tc);
    return s;
}
