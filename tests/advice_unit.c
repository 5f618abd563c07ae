/* advice_unit.c - the advisor (profile/advice.c) on a hand-written profile
 * whose findings are known (tests/data/advice_sample.json, numbers chosen
 * so each hypothesis holds or fails by a clear margin):
 *   4 nodes x 1 s; memory blocking 1400 ms = 35% of 4000 ms;
 *   part    900 ms (64.3%), false sharing 120/200 = 60%, interleaved 24-byte
 *           elements of nodes 0 and 1; 30 of 35 written blocks migratory;
 *   rxncor  300 ms (21.4%), false sharing 20/100 = 20%, per-node halves of a
 *           block; 8 of 10 written blocks producer_consumer;
 *   weight  100 ms (7.1%: not a refinement), no pattern over 50%;
 *   tiny    20 ms (0.5% of the job: under structure-min), all-bad patterns;
 *   procedures move_particles 800 ms (57.1%), sort_particles 400 (28.6%),
 *           init 50 (3.6%);
 *   barrier wait 50 / 300 / 320 / 310 ms: skew 270 ms = 27%.
 * Checks every finding, its order, the printed thresholds, and that each
 * threshold (set by name and by DSM_ADVICE_*) turns its finding off, with
 * ">" strict at the exact value.  Each check prints an "ok" or "FAIL" line;
 * the Check test fails when one of its checks did. */
#include "check_main.h"

#include <json.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "advice.h"

static int failures;

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (cond) {                                                                                \
            printf("ok   ");                                                                       \
        } else {                                                                                   \
            printf("FAIL ");                                                                       \
            failures++;                                                                            \
        }                                                                                          \
        printf(__VA_ARGS__);                                                                       \
        printf("\n");                                                                              \
    } while (0)

static json_object *profile;

typedef struct run {
    advice_finding *v;
    size_t n;
} run;

static run go(const advice_thresholds *t)
{
    run r = { NULL, 0 };
    char err[256];
    if (advice_run(profile, t, &r.v, &r.n, err, sizeof err)) {
        printf("FAIL advice_run: %s\n", err);
        failures++;
    }
    return r;
}

static void done(run *r)
{
    advice_free(r->v, r->n);
    free(r->v);
}

/* The number of findings of a kind (depth 0) with this focus ("" = any). */
static int count(const run *r, advice_kind k, int depth, const char *focus)
{
    int c = 0;
    for (size_t i = 0; i < r->n; i++)
        if (r->v[i].kind == k && r->v[i].depth == depth && (!*focus || !strcmp(r->v[i].focus, focus)))
            c++;
    return c;
}

static const advice_finding *find(const run *r, advice_kind k, int depth, const char *focus)
{
    for (size_t i = 0; i < r->n; i++)
        if (r->v[i].kind == k && r->v[i].depth == depth && !strcmp(r->v[i].focus, focus))
            return &r->v[i];
    return NULL;
}

static int has(const advice_finding *f, const char *field, const char *text)
{
    if (!f)
        return 0;
    const char *s = !strcmp(field, "headline")  ? f->headline
                    : !strcmp(field, "evidence") ? f->evidence
                                                 : f->suggestion;
    return strstr(s, text) != NULL;
}

static void with(const char *name, const char *value, advice_kind k, int depth, const char *focus,
                 int expect)
{
    advice_thresholds t;
    advice_thresholds_default(&t);
    char err[256];
    if (advice_threshold_set(&t, name, value, err, sizeof err)) {
        printf("FAIL set %s=%s: %s\n", name, value, err);
        failures++;
        return;
    }
    run r = go(&t);
    int c = count(&r, k, depth, focus);
    CHECK(c == expect, "--threshold-%s=%s: %d finding(s) of kind %d on '%s' (expected %d)", name,
          value, c, (int)k, focus, expect);
    done(&r);
}

/* ---- variations of the sample, built in place ---- */

static char sample_path[4096];

static void reload(void)
{
    json_object_put(profile);
    profile = json_object_from_file(sample_path);
}

static json_object *structure_named(const char *name)
{
    json_object *st;
    json_object_object_get_ex(profile, "structures", &st);
    for (size_t i = 0; i < json_object_array_length(st); i++) {
        json_object *s = json_object_array_get_idx(st, i), *n;
        if (json_object_object_get_ex(s, "name", &n) && !strcmp(json_object_get_string(n), name))
            return s;
    }
    return NULL;
}

static json_object *member(json_object *o, const char *k)
{
    json_object *v = NULL;
    json_object_object_get_ex(o, k, &v);
    return v;
}

static void set_u64(json_object *o, const char *k, uint64_t v)
{
    json_object_object_add(o, k, json_object_new_uint64(v));
}

/* part's most transferred falsely shared block written as w[0..n) (node, lo, hi) */
static void set_writers(const uint64_t (*w)[3], size_t n)
{
    json_object *top = json_object_array_get_idx(
        member(member(structure_named("part"), "false_sharing"), "top_blocks"), 0);
    json_object *ws = json_object_new_array();
    for (int node = 0; node < 8; node++) {
        json_object *rs = json_object_new_array();
        for (size_t i = 0; i < n; i++)
            if ((int)w[i][0] == node) {
                json_object *r = json_object_new_array();
                json_object_array_add(r, json_object_new_uint64(w[i][1]));
                json_object_array_add(r, json_object_new_uint64(w[i][2]));
                json_object_array_add(rs, r);
            }
        if (!json_object_array_length(rs)) {
            json_object_put(rs);
            continue;
        }
        json_object *x = json_object_new_object();
        json_object_object_add(x, "node", json_object_new_int(node));
        set_u64(x, "ranges_total", json_object_array_length(rs));
        json_object_object_add(x, "ranges", rs);
        json_object_array_add(ws, x);
    }
    json_object_object_add(top, "writers", ws);
}

/* The FalseSharing finding for part with these writers says want. */
static void layout_case(const char *what, const uint64_t (*w)[3], size_t n, const char *want)
{
    reload();
    set_writers(w, n);
    advice_thresholds t;
    advice_thresholds_default(&t);
    run r = go(&t);
    const advice_finding *f = find(&r, ADVICE_FALSE_SHARING, 0, "structure part");
    CHECK(has(f, "suggestion", want) || has(f, "evidence", want), "%s: \"%s\" (%s | %s)", what, want,
          f ? f->evidence : "", f ? f->suggestion : "");
    done(&r);
}

static uint64_t rows[1024][3];

/* Element sizes from each node's stride, on layouts whose answer is known
 * (the advisor before said "2 bytes" for the 56-byte particles). */
static void layouts(void)
{
    size_t n = 0;
    /* 56-byte particles of 4 owners, 48 bytes written each; some fields
     * start late or split (bytes that did not change) */
    for (uint64_t i = 0; i < 73; i++) {
        uint64_t node = (i * 7 + 3 + i / 5) % 4, b = 56 * i;
        if (i % 6 == 2) {
            rows[n][0] = node, rows[n][1] = b + 1, rows[n][2] = b + 20, n++;
            rows[n][0] = node, rows[n][1] = b + 24, rows[n][2] = b + 48, n++;
        } else {
            rows[n][0] = node, rows[n][1] = b, rows[n][2] = b + 48, n++;
        }
    }
    layout_case("56-byte particles of 4 nodes", (const uint64_t (*)[3])rows, n,
                "pad each 56-byte element of part");
    /* fields: node 0 writes +0 (8 bytes), node 1 +8 (16 bytes) of 32-byte elements */
    n = 0;
    for (uint64_t j = 0; j < 16; j++) {
        rows[n][0] = 0, rows[n][1] = 32 * j, rows[n][2] = 32 * j + 8, n++;
        rows[n][0] = 1, rows[n][1] = 32 * j + 8, rows[n][2] = 32 * j + 24, n++;
    }
    layout_case("fields of a 32-byte element", (const uint64_t (*)[3])rows, n,
                "the fields of one 32-byte element of part are written by different nodes");
    layout_case("fields named by offset", (const uint64_t (*)[3])rows, n,
                "node 0 at +0 (8 bytes), node 1 at +8 (16 bytes)");
    /* the same with the element type known (DWARF of the allocation): names */
    reload();
    set_writers((const uint64_t (*)[3])rows, n);
    json_object *et = json_object_new_object(), *fl = json_object_new_array();
    static const char *const fname[] = { "key", "val", "pad" };
    static const uint64_t foff[] = { 0, 8, 24 }, fsz[] = { 8, 16, 8 };
    for (int k = 0; k < 3; k++) {
        json_object *f = json_object_new_object();
        json_object_object_add(f, "name", json_object_new_string(fname[k]));
        set_u64(f, "offset", foff[k]);
        set_u64(f, "size", fsz[k]);
        json_object_array_add(fl, f);
    }
    json_object_object_add(et, "name", json_object_new_string("rec"));
    set_u64(et, "size", 32);
    json_object_object_add(et, "fields", fl);
    json_object_object_add(structure_named("part"), "element_type", et);
    /* part's top block is at structure offset 8192: a multiple of 32 */
    advice_thresholds t;
    advice_thresholds_default(&t);
    run r = go(&t);
    const advice_finding *f = find(&r, ADVICE_FALSE_SHARING, 0, "structure part");
    CHECK(has(f, "evidence", "fields of struct rec (32 bytes) written: node 0: key; node 1: val") &&
              has(f, "suggestion", "the colliding fields of struct rec: key (node 0), val (node 1)"),
          "fields named from the element type: %s | %s", f ? f->evidence : "", f ? f->suggestion : "");
    done(&r);
    /* 32-byte elements dealt round robin to 4 nodes (each node's stride 128) */
    n = 0;
    for (uint64_t j = 0; j < 8; j++)
        for (uint64_t k = 0; k < 4; k++)
            rows[n][0] = k, rows[n][1] = 32 * (4 * j + k), rows[n][2] = 32 * (4 * j + k) + 32, n++;
    layout_case("round-robin 32-byte elements", (const uint64_t (*)[3])rows, n,
                "pad each 32-byte element of part");
    /* one 8-byte slot per node */
    n = 0;
    for (uint64_t k = 0; k < 4; k++)
        rows[n][0] = k, rows[n][1] = 8 * k, rows[n][2] = 8 * k + 8, n++;
    layout_case("per-node slots", (const uint64_t (*)[3])rows, n,
                "give each node's slot of part a block of its own");
}

/* The exit line is the costliest finding: weight's migration (1000 ms of
 * blocking, only 100 ms of it in coherence misses) must not displace
 * part's false sharing (900 ms, 840 ms in coherence misses); read-only
 * and grouped findings with their fixes. */
static void rankings_and_new_findings(void)
{
    reload();
    json_object *w = structure_named("weight");
    set_u64(member(w, "metrics"), "memoryBlockTime", 1000000000);
    json_object *c = member(w, "causes");
    set_u64(c, "cold_wall", 900000000);
    set_u64(c, "invalidation_wall", 100000000);
    set_u64(c, "upgrade_wall", 0);
    json_object *pt = member(w, "patterns");
    set_u64(pt, "migratory", 10);
    set_u64(pt, "read_only", 0);
    set_u64(pt, "write_shared", 0);
    advice_thresholds t;
    advice_thresholds_default(&t);
    run r = go(&t);
    const advice_finding *f = find(&r, ADVICE_MIGRATORY, 0, "structure weight");
    CHECK(f && has(f, "suggestion", "reduction") && !has(f, "suggestion", "merge each read"),
          "weight's migration found, its advice without a merged read (%s)", f ? f->suggestion : "");
    char line[2048];
    CHECK(advice_first_line(r.v, r.n, line, sizeof line) == 1 &&
              !strncmp(line, "FalseSharing (structure part):", 30),
          "the costliest finding leads (part's false sharing, not weight's migration): %s", line);
    done(&r);

    reload();
    w = structure_named("weight");
    pt = member(w, "patterns");
    set_u64(pt, "read_only", 9);
    set_u64(pt, "migratory", 0);
    set_u64(pt, "write_shared", 1);
    r = go(&t);
    f = find(&r, ADVICE_READ_ONLY, 0, "structure weight");
    CHECK(has(f, "headline", "90.0% of the blocks of weight are read-only > threshold 50%") &&
              has(f, "suggestion", "replicate weight"),
          "read-only: %s / %s", f ? f->headline : "(none)", f ? f->suggestion : "");
    done(&r);

    reload();
    json_object *g = json_object_new_object(), *gs = json_object_new_array(),
                *mem = json_object_new_array(), *m = json_object_new_object();
    json_object_object_add(g, "id", json_object_new_int(11));
    set_u64(g, "blocks", 4);
    set_u64(g, "fetched_together", 30);
    set_u64(g, "misses_saved", 30);
    set_u64(g, "gain", 280000000); /* 20% of the 1400 ms of memory blocking */
    json_object_object_add(m, "structure", json_object_new_string("part"));
    set_u64(m, "offset", 4096);
    set_u64(m, "first_block", 11);
    set_u64(m, "blocks", 4);
    json_object_array_add(mem, m);
    json_object_object_add(g, "members", mem);
    set_u64(g, "members_total", 1);
    json_object_array_add(gs, g);
    json_object_object_add(profile, "groups", gs);
    r = go(&t);
    f = find(&r, ADVICE_GROUP, 0, "group 11");
    CHECK(has(f, "headline", "would save 20.0% of memory blocking time > threshold 5%") &&
              has(f, "evidence", "30 misses would be saved (280.0 ms)") &&
              has(f, "evidence", "part+4096 (4 blocks)") &&
              has(f, "suggestion", "DSM_BLOCK_SIZE=16384"),
          "group: %s / %s / %s", f ? f->headline : "(none)", f ? f->evidence : "",
          f ? f->suggestion : "");
    done(&r);
    reload();
}

START_TEST(advisor_on_the_sample)
{
    const char *srcdir = getenv("srcdir");
    snprintf(sample_path, sizeof sample_path, "%s/tests/data/advice_sample.json",
             srcdir ? srcdir : ".");
    profile = json_object_from_file(sample_path);
    ck_assert_msg(profile != NULL, "cannot read %s", sample_path);
    /* a DSM_ADVICE_* left in the caller's environment must not change the defaults below */
    for (int i = 0; i < ADVICE_NTHRESHOLDS; i++) {
        char var[64] = "DSM_ADVICE_";
        size_t k = strlen(var);
        for (const char *p = advice_threshold_names[i]; *p; p++)
            var[k++] = *p == '-' ? '_' : (char)(*p >= 'a' && *p <= 'z' ? *p - 32 : *p);
        var[k] = '\0';
        unsetenv(var);
    }

    advice_thresholds t;
    advice_thresholds_default(&t);
    run r = go(&t);

    /* the whole list, in order */
    static const struct {
        advice_kind kind;
        int depth;
        const char *focus;
        double value;
    } want[] = {
        { ADVICE_MEMORY_BLOCKING, 0, "whole program", 0.35 },
        { ADVICE_MEMORY_BLOCKING, 1, "structure part", 900.0 / 1400 },
        { ADVICE_MEMORY_BLOCKING, 1, "structure rxncor", 300.0 / 1400 },
        { ADVICE_MEMORY_BLOCKING, 1, "procedure move_particles", 800.0 / 1400 },
        { ADVICE_MEMORY_BLOCKING, 1, "procedure sort_particles", 400.0 / 1400 },
        { ADVICE_FALSE_SHARING, 0, "structure part", 0.60 },
        { ADVICE_MIGRATORY, 0, "structure part", 30.0 / 35 },
        { ADVICE_FALSE_SHARING, 0, "structure rxncor", 0.20 },
        { ADVICE_PRODUCER_CONSUMER, 0, "structure rxncor", 0.80 },
        { ADVICE_LOAD_IMBALANCE, 0, "nodes", 0.27 },
    };
    size_t nw = sizeof want / sizeof want[0];
    CHECK(r.n == nw, "default thresholds: %zu findings (expected %zu)", r.n, nw);
    for (size_t i = 0; i < nw && i < r.n; i++)
        CHECK(r.v[i].kind == want[i].kind && r.v[i].depth == want[i].depth &&
                  !strcmp(r.v[i].focus, want[i].focus) && fabs(r.v[i].value - want[i].value) < 1e-9,
              "finding %zu: %s (%s) depth %d value %.4f: %s", i + 1, r.v[i].hypothesis, r.v[i].focus,
              r.v[i].depth, r.v[i].value, r.v[i].headline);

    /* the numbers and thresholds printed with each finding */
    const advice_finding *f = find(&r, ADVICE_MEMORY_BLOCKING, 0, "whole program");
    CHECK(has(f, "headline", "memory blocking 35.0% of wall time > threshold 10%"),
          "memory blocking headline: %s", f ? f->headline : "(none)");
    f = find(&r, ADVICE_FALSE_SHARING, 0, "structure part");
    CHECK(has(f, "headline", "60.0% of the coherence misses of part > threshold 10%"),
          "false sharing headline names the structure, share and threshold");
    CHECK(has(f, "evidence", "node 0 writes bytes [0,24) [48,72)") &&
              has(f, "evidence", "node 1 writes bytes [24,48) [72,96)"),
          "false sharing evidence gives each node's written offsets in the block");
    CHECK(has(f, "evidence", "neighbouring 24-byte elements belong to different nodes (each node's "
                             "stride)"),
          "interleaved 24-byte elements seen (each node's stride 48 / 2 writers)");
    CHECK(has(f, "suggestion", "pad each 24-byte element of part to 4096 bytes"),
          "interleaved writers: pad each element to the block size (%s)", f ? f->suggestion : "");
    f = find(&r, ADVICE_FALSE_SHARING, 0, "structure rxncor");
    CHECK(has(f, "evidence", "meet at byte 2048 of the block (structure offset 14336)"),
          "per-node parts: where they meet");
    CHECK(has(f, "suggestion", "align per-node ranges to the block size"),
          "per-node parts: align per-node ranges to the block size (%s)", f ? f->suggestion : "");
    f = find(&r, ADVICE_PRODUCER_CONSUMER, 0, "structure rxncor");
    CHECK(has(f, "headline", "80.0% of the written shared blocks of rxncor are producer_consumer > "
                             "threshold 50%") &&
              has(f, "suggestion", "update protocol") && has(f, "suggestion", "larger blocks") &&
              has(f, "suggestion", "batch"),
          "producer-consumer: share, threshold, update protocol / larger blocks / batching");
    f = find(&r, ADVICE_MIGRATORY, 0, "structure part");
    CHECK(has(f, "suggestion", "the false sharing above makes part's blocks migrate"),
          "migratory caused by false sharing: fix the false sharing first (%s)",
          f ? f->suggestion : "");
    f = find(&r, ADVICE_LOAD_IMBALANCE, 0, "nodes");
    CHECK(has(f, "headline", "barrier wait skew 27.0% of wall time > threshold 10%") &&
              has(f, "evidence", "node 2 waits 320.0 ms") && has(f, "evidence", "node 0 only 50.0 ms") &&
              has(f, "suggestion", "node 0 carries the most work"),
          "load imbalance: skew, the two nodes, who to unload");
    f = find(&r, ADVICE_MEMORY_BLOCKING, 1, "structure part");
    CHECK(has(f, "evidence", "most of it in move_particles"), "refinement names the procedure of a structure");

    /* below the lines: weight (7.1% < refine, no pattern > 50%), tiny (< structure-min) */
    CHECK(!find(&r, ADVICE_MEMORY_BLOCKING, 1, "structure weight") &&
              !find(&r, ADVICE_MEMORY_BLOCKING, 1, "procedure init"),
          "weight and init are not refinements (under 10%% of memory blocking)");
    int tiny = count(&r, ADVICE_FALSE_SHARING, 0, "structure tiny") +
               count(&r, ADVICE_MIGRATORY, 0, "structure tiny") +
               count(&r, ADVICE_MEMORY_BLOCKING, 1, "structure tiny");
    CHECK(tiny == 0 && count(&r, ADVICE_MIGRATORY, 0, "structure weight") == 0,
          "tiny (0.5%% of the job < structure-min 1%%) and weight give no finding");

    /* the summary line: the concrete advice with most time at stake, false sharing first */
    char line[2048];
    CHECK(advice_first_line(r.v, r.n, line, sizeof line) == 1 &&
              !strncmp(line, "FalseSharing (structure part):", 30) &&
              strstr(line, "pad each 24-byte element"),
          "first advice line: %s", line);
    char sum[2048];
    CHECK(advice_summary_line(profile, sum, sizeof sum) == 1 && !strcmp(sum, line),
          "advice_summary_line gives the same line");
    done(&r);

    /* each threshold turns its finding off; ">" is strict at the exact value */
    with("memory-blocking", "35", ADVICE_MEMORY_BLOCKING, 0, "", 0);
    with("memory-blocking", "34.9", ADVICE_MEMORY_BLOCKING, 0, "", 1);
    with("refine", "30%", ADVICE_MEMORY_BLOCKING, 1, "", 2); /* part 64%, move_particles 57% */
    with("false-sharing", "70", ADVICE_FALSE_SHARING, 0, "", 0);
    with("false-sharing", "50", ADVICE_FALSE_SHARING, 0, "", 1);
    with("migratory", "90", ADVICE_MIGRATORY, 0, "", 0);
    with("producer-consumer", "80", ADVICE_PRODUCER_CONSUMER, 0, "", 0);
    with("producer-consumer", "79.9", ADVICE_PRODUCER_CONSUMER, 0, "", 1);
    with("imbalance", "30", ADVICE_LOAD_IMBALANCE, 0, "", 0);
    with("structure-min", "0", ADVICE_FALSE_SHARING, 0, "structure tiny", 1);
    with("structure-min", "0", ADVICE_MIGRATORY, 0, "structure tiny", 1);
    with("structure-min", "10", ADVICE_FALSE_SHARING, 0, "", 1); /* rxncor 7.5% of the job */

    /* the environment */
    advice_thresholds_default(&t);
    char err[256];
    setenv("DSM_ADVICE_IMBALANCE", "30", 1);
    setenv("DSM_ADVICE_FALSE_SHARING", "12.5%", 1);
    CHECK(advice_thresholds_from_env(&t, err, sizeof err) == 0 && fabs(t.imbalance - 0.30) < 1e-12 &&
              fabs(t.false_sharing - 0.125) < 1e-12,
          "DSM_ADVICE_IMBALANCE=30, DSM_ADVICE_FALSE_SHARING=12.5%% read");
    r = go(&t);
    CHECK(count(&r, ADVICE_LOAD_IMBALANCE, 0, "") == 0, "DSM_ADVICE_IMBALANCE=30 turns imbalance off");
    done(&r);
    setenv("DSM_ADVICE_MIGRATORY", "lots", 1);
    CHECK(advice_thresholds_from_env(&t, err, sizeof err) == -1 &&
              strstr(err, "DSM_ADVICE_MIGRATORY=lots"),
          "a bad variable is named: %s", err);
    CHECK(advice_summary_line(profile, sum, sizeof sum) == -1, "summary line refuses a bad variable");
    unsetenv("DSM_ADVICE_IMBALANCE");
    unsetenv("DSM_ADVICE_FALSE_SHARING");
    unsetenv("DSM_ADVICE_MIGRATORY");
    CHECK(advice_threshold_set(&t, "cpu-bound", "10", err, sizeof err) == -1 &&
              strstr(err, "unknown threshold"),
          "unknown threshold name refused: %s", err);
    CHECK(advice_threshold_set(&t, "refine", "150", err, sizeof err) == -1, "150%% refused: %s", err);

    /* the printout shows the thresholds and the numbered findings */
    advice_thresholds_default(&t);
    r = go(&t);
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    advice_print(m, r.v, r.n, &t);
    fclose(m);
    CHECK(buf && strstr(buf, "thresholds: memory-blocking 10%, refine 10%, structure-min 1%, "
                             "false-sharing 10%, producer-consumer 50%, migratory 50%, imbalance 10%, "
                             "read-only 50%, group 5%") &&
              strstr(buf, "\n6. LoadImbalance (nodes)") && strstr(buf, "   1.4 procedure sort_particles") &&
              strstr(buf, "     advice: pad each 24-byte element"),
          "advice_print: thresholds line, numbering, refinements, advice lines");
    free(buf);
    done(&r);

    /* nothing above the lines */
    advice_thresholds_default(&t);
    for (int i = 0; i < ADVICE_NTHRESHOLDS; i++)
        advice_threshold_set(&t, advice_threshold_names[i], "100", err, sizeof err);
    r = go(&t);
    CHECK(r.n == 0 && advice_first_line(r.v, r.n, line, sizeof line) == 0,
          "all thresholds 100%%: no finding, no summary line");
    done(&r);

    layouts();
    rankings_and_new_findings();

    /* not a profile */
    json_object_object_add(profile, "schema", json_object_new_string("dsm-profile/1"));
    advice_finding *v;
    size_t n;
    CHECK(advice_run(profile, &t, &v, &n, err, sizeof err) == -1 && strstr(err, "dsm-profile/1"),
          "another schema refused: %s", err);
    json_object_put(profile);

    fflush(stdout);
    ck_assert_msg(failures == 0, "%d check(s) failed: see the FAIL lines", failures);
}
END_TEST

Suite *unit_suite(void)
{
    Suite *s = suite_create("advice");
    TCase *tc = tcase_create("advisor");
    tcase_add_test(tc, advisor_on_the_sample);
    suite_add_tcase(s, tc);
    return s;
}
