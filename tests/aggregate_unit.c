/* aggregate_unit.c - node 0's aggregation of the profile (profile/
 * aggregate.c) and the records it reads (profile/records.c), on synthetic
 * nodes whose profile is known exactly:
 *   job         3 nodes: named and site-binned allocations (the same site
 *               reached by two paths, a block two allocations share), a
 *               touched block outside them, counters at two nodes, pattern
 *               records, miss causes with the warm bit, write epochs giving
 *               false- and true-sharing transfers, code attribution with
 *               pairs, timeslices on two intervals, lost evidence.  Every
 *               record goes through the writer and the reader first.
 *   fs_ranking  a structure keeps its PROFILE_FS_BLOCKS most transferred
 *               falsely shared blocks, ties by block number
 *   minimal     one node, nothing outside the allocation: no "(unnamed)",
 *               no timeslices
 *   truncated   every prefix of a node's bytes: decoded whole or refused
 *               as truncated, never read past its end (exact-size copies,
 *               so AddressSanitizer or valgrind would see an overrun)
 *   corrupt     each field the reader checks, out of range: refused with
 *               its reason (the aggregation indexes by them)
 *   mutated     random byte changes: whatever the reader accepts, the
 *               aggregation builds without failing
 * `aggregate_unit --seed N` prints node N's bytes (tests/fuzz_records.sh). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aggregate.h"
#include "records.h"

#define BS 64
#define NBLOCKS 64
#define MS 1000000ull

/* ---- building a node's bytes ---- */

static profile_rec_alloc named(uint64_t off, uint64_t len, uint32_t seq, const char *name)
{
    profile_rec_alloc a = { off, len, 0, seq, (char *)name, NULL, 0, NULL };
    return a;
}

static profile_rec_alloc site(uint64_t off, uint64_t len, uint32_t seq, profile_frame *path,
                              uint32_t npath)
{
    profile_rec_alloc a = { off, len, 0, seq, NULL, path, npath, NULL };
    return a;
}

/* the runs the synthetic epochs point to (the writer copies them out) */
static profile_range run_pool[4096];
static size_t run_used;

static profile_rec_epoch epoch_runs(uint32_t block, int node, uint64_t t0, const profile_range *r,
                                    uint32_t n)
{
    profile_rec_epoch e;
    memset(&e, 0, sizeof e);
    e.block = block;
    e.node = node;
    e.t0 = t0;
    e.t1 = t0 + 1;
    ck_assert(run_used + n <= sizeof run_pool / sizeof run_pool[0]);
    e.w = run_pool + run_used;
    memcpy(e.w, r, n * sizeof *r);
    run_used += n;
    e.nw = n;
    return e;
}

static profile_rec_epoch epoch(uint32_t block, int node, uint64_t t0, uint32_t lo, uint32_t hi)
{
    profile_range r = { lo, hi };
    return epoch_runs(block, node, t0, &r, lo < hi);
}

static profile_frame frame(const char *fn, const char *file, uint32_t line)
{
    profile_frame f = { (char *)fn, (char *)file, line };
    return f;
}

/* The bytes of the three nodes of the job test. */
static void job_bytes(profile_wbuf w[3])
{
    memset(w, 0, 3 * sizeof *w);
    /* node 0: "grid" (blocks 0-3, collective), "a" and "b" sharing block 19 */
    profile_rec_alloc grid0 = named(0, 256, 0, "grid");
    grid0.collective = 1;
    profile_put_alloc(&w[0], &grid0);
    profile_rec_alloc a = named(1152, 96, 1, "a"), b = named(1248, 32, 2, "b");
    profile_put_alloc(&w[0], &a);
    profile_put_alloc(&w[0], &b);
    profile_rec_cause c00 = { 0, 1, 0, 0, 100, 30, 0, 0 };
    profile_put_cause(&w[0], &c00);
    profile_rec_epoch e0[] = { epoch(2, 0, 10, 0, 8), epoch(2, 0, 30, 0, 8), epoch(3, 0, 5, 0, 16),
                               epoch(8, 0, 2, 60, 64), epoch(8, 0, 3, 0, 4),
                               epoch(18, 0, 1, 0, 8) };
    for (size_t i = 0; i < sizeof e0 / sizeof e0[0]; i++)
        profile_put_epoch(&w[0], &e0[i]);
    profile_frame ip0[] = { frame("kernel", "k.c", 42), frame("kernel", "k.c", 50),
                            frame("init", "i.c", 7) };
    for (uint32_t i = 0; i < 3; i++)
        profile_put_ip(&w[0], i, &ip0[i]);
    profile_rec_miss m0[] = { { 0, 0, 3, 0, 0, 300 }, { 1, 0, 0, 1, 0, 100 },
                              { 1, 16, 5, 0, 0, 50 }, { 2, PROFILE_NO_BLOCK, 1, 0, 0, 10 } };
    for (size_t i = 0; i < 4; i++)
        profile_put_miss(&w[0], &m0[i]);
    profile_rec_slice s0[] = { { 1, 100, 0 }, { 2, 200, 5 }, { 0, 0, 7 } };
    profile_put_slices(&w[0], 10 * MS, s0, 3);
    profile_put_lost(&w[0], 0, 0, 0, 1);

    /* node 1: more of "grid" (blocks 8-9), a site reached through init */
    profile_rec_alloc grid1 = named(512, 128, 0, "grid");
    profile_put_alloc(&w[1], &grid1);
    profile_frame p1[] = { frame("make_list", "list.c", 10), frame("init", "main.c", 20) };
    profile_rec_alloc s1 = site(1088, 64, 1, p1, 2);
    profile_put_alloc(&w[1], &s1);
    profile_rec_cause c1[] = { { 0, 1, 2, 0, 50, 20, 40, 0 }, { 1, 0, 0, 2, 0, 0, 0, 1000 } };
    profile_put_cause(&w[1], &c1[0]);
    profile_put_cause(&w[1], &c1[1]);
    /* node 1 is the home logging node 2's epoch on block 3 */
    profile_rec_epoch e1[] = { epoch(2, 1, 20, 32, 40), epoch(3, 2, 15, 8, 24) };
    profile_put_epoch(&w[1], &e1[0]);
    profile_put_epoch(&w[1], &e1[1]);
    profile_frame ip1 = frame("init", "i.c", 9);
    profile_put_ip(&w[1], 0, &ip1);
    profile_rec_miss m1 = { 0, 1, 0, 0, 2, 1000 };
    profile_put_miss(&w[1], &m1);
    profile_rec_slice s1s = { 4, 400, 9 };
    profile_put_slices(&w[1], 20 * MS, &s1s, 1);
    profile_put_lost(&w[1], 2, 1, 3, 1);

    /* node 2: the same site through main; a touched block outside every
     * allocation; an epoch that changed nothing; no code symbols */
    profile_frame p2[] = { frame("make_list", "list.c", 10), frame("main", "main.c", 5) };
    profile_rec_alloc s2 = site(1024, 64, 0, p2, 2);
    profile_put_alloc(&w[2], &s2);
    profile_rec_cause c2 = { 40, 1, 0, 0, 10, 5, 0, 0 };
    profile_put_cause(&w[2], &c2);
    profile_rec_epoch e2[] = { epoch(2, 2, 25, 0, 0), epoch(8, 2, 1, 0, 4) };
    profile_put_epoch(&w[2], &e2[0]);
    profile_put_epoch(&w[2], &e2[1]);
    profile_put_lost(&w[2], 0, 0, 0, 0);
}

static int job_bytes_ok(const profile_wbuf w[3])
{
    return !w[0].failed && !w[1].failed && !w[2].failed;
}

/* The job's counters (node 2 has none) and pattern records. */
typedef struct job_stats {
    counters *c[3];
    profile_pattern pat[2];
    profile_stats st;
} job_stats;

static void job_stats_make(job_stats *j)
{
    memset(j, 0, sizeof *j);
    j->c[0] = counters_create(NBLOCKS);
    j->c[1] = counters_create(NBLOCKS);
    ck_assert(j->c[0] && j->c[1]);
    counters_add(j->c[0], CM_STACHE_READ_MISSES, 0, 3);
    counters_add(j->c[0], CM_MEMORY_BLOCK_TIME, 0, 300);
    counters_add(j->c[0], CM_PAGE_FAULTS, 0, 1);
    counters_add(j->c[0], CM_INV_RO, 2, 1);
    counters_add(j->c[0], CM_STACHE_READ_MISSES, 16, 5);
    counters_add(j->c[0], CM_MEMORY_BLOCK_TIME, 16, 50);
    counters_add(j->c[1], CM_HOME_WRITE_RO, 1, 2);
    counters_add(j->c[1], CM_MEMORY_BLOCK_TIME, 1, 1000);
    counters_add(j->c[1], CM_PAGE_FAULTS, 41, 1);
    counters_add_node(j->c[1], CM_LOCK_ACQUIRES, 7);
    /* unsorted on purpose */
    j->pat[0].block = 1;
    j->pat[0].p.detections[PP_PRODUCER_CONSUMER] = 5;
    j->pat[0].p.group_id = 1;
    j->pat[1].block = 0;
    j->pat[1].p.detections[PP_MIGRATORY] = 3;
    j->pat[1].p.group_id = 0;
    j->st = (profile_stats){ NBLOCKS, 1, 1, (const counters *const *)j->c, j->pat, 2 };
}

static void job_stats_free(job_stats *j)
{
    for (int n = 0; n < 3; n++)
        counters_destroy(j->c[n]);
}

static void parse_all(profile_wbuf *w, int nn, profile_node_records *r)
{
    char err[128];
    for (int n = 0; n < nn; n++) {
        int rc = profile_records_parse(w[n].p, w[n].len, nn, &r[n], err, sizeof err);
        ck_assert_msg(rc == 0, "node %d: %s", n, err);
    }
}

static const profile_structure *find(const profile_input *in, const char *name, size_t *at)
{
    for (size_t i = 0; i < in->nstructures; i++)
        if (!strcmp(in->structures[i].name, name)) {
            if (at)
                *at = i;
            return &in->structures[i];
        }
    ck_abort_msg("no structure %s", name);
    return NULL;
}

static void check_causes(const profile_causes *c, uint64_t cold, uint64_t first, uint64_t inval,
                         uint64_t upgrade, uint64_t cold_wall, uint64_t inval_wall,
                         uint64_t upgrade_wall)
{
    ck_assert_uint_eq(c->cold, cold);
    ck_assert_uint_eq(c->cold_first_touch, first);
    ck_assert_uint_eq(c->invalidation, inval);
    ck_assert_uint_eq(c->upgrade, upgrade);
    ck_assert_uint_eq(c->cold_wall, cold_wall);
    ck_assert_uint_eq(c->invalidation_wall, inval_wall);
    ck_assert_uint_eq(c->upgrade_wall, upgrade_wall);
}

static void check_ranges(const profile_runs *r, uint32_t n, const uint32_t *lohi)
{
    ck_assert_uint_eq(r->n, n);
    for (uint32_t i = 0; i < n; i++) {
        ck_assert_uint_eq(r->r[i].lo, lohi[2 * i]);
        ck_assert_uint_eq(r->r[i].hi, lohi[2 * i + 1]);
    }
}

static void build_job(profile_input *in, job_stats *js, profile_node_records *r)
{
    profile_wbuf w[3];
    job_bytes(w);
    ck_assert(job_bytes_ok(w));
    job_stats_make(js);
    parse_all(w, 3, r);
    for (int n = 0; n < 3; n++)
        profile_wbuf_free(&w[n]);
    profile_job job = { 3, BS, 1.5, 45 * MS };
    char err[128];
    ck_assert_int_eq(profile_aggregate(&job, &js->st, r, in, err, sizeof err), 0);
}

START_TEST(job_structures)
{
    profile_input in;
    job_stats js;
    profile_node_records r[3];
    build_job(&in, &js, r);
    ck_assert_int_eq(in.nnodes, 3);
    ck_assert_uint_eq(in.block_size, BS);
    ck_assert(in.wall_seconds == 1.5);
    ck_assert_int_eq(in.counters_on, 1);
    ck_assert_int_eq(in.patterns_on, 1);
    ck_assert_int_eq(in.code_attribution, 0); /* node 2 could not symbolize */
    ck_assert_uint_eq(in.epochs_dropped, 2);
    ck_assert_uint_eq(in.twins_skipped, 1);
    ck_assert_uint_eq(in.reads_dropped, 3);
    ck_assert_uint_eq(in.node_metrics[1 * CM_NMETRICS + CM_LOCK_ACQUIRES], 7);
    ck_assert_uint_eq(in.node_metrics[0 * CM_NMETRICS + CM_STACHE_READ_MISSES], 8);
    ck_assert_uint_eq(in.node_metrics[2 * CM_NMETRICS + CM_MEMORY_BLOCK_TIME], 0);

    /* ranked by memory blocking time, then misses, then name */
    static const char *order[] = { "grid", "make_list (list.c:10) [path 2]", "(unnamed)", "a", "b",
                                   "make_list (list.c:10)" };
    ck_assert_uint_eq(in.nstructures, 6);
    for (size_t i = 0; i < 6; i++)
        ck_assert_str_eq(in.structures[i].name, order[i]);

    const profile_structure *g = &in.structures[0];
    ck_assert_str_eq(g->kind, "named");
    ck_assert_uint_eq(g->bytes, 384);
    ck_assert_uint_eq(g->allocations, 2);
    ck_assert_uint_eq(g->nblocks, 6);
    ck_assert_uint_eq(g->metrics[CM_STACHE_READ_MISSES], 3);
    ck_assert_uint_eq(g->metrics[CM_HOME_WRITE_RO], 2);
    ck_assert_uint_eq(g->metrics[CM_MEMORY_BLOCK_TIME], 1300);
    ck_assert_uint_eq(g->metrics[CM_INV_RO], 1);
    ck_assert_uint_eq(g->per_node[0 * CM_NBLOCK_METRICS + CM_MEMORY_BLOCK_TIME], 300);
    ck_assert_uint_eq(g->per_node[1 * CM_NBLOCK_METRICS + CM_MEMORY_BLOCK_TIME], 1000);
    ck_assert_uint_eq(g->per_node[2 * CM_NBLOCK_METRICS + CM_MEMORY_BLOCK_TIME], 0);
    ck_assert_uint_eq(g->patterns[PP_MIGRATORY], 1);
    ck_assert_uint_eq(g->patterns[PP_PRODUCER_CONSUMER], 1);
    ck_assert_uint_eq(g->patterns[PP_NONE], 4);
    ck_assert_uint_eq(g->nblocks_listed, 6);
    static const uint32_t idx[] = { 0, 1, 2, 3, 8, 9 };
    for (size_t i = 0; i < 6; i++) {
        ck_assert_uint_eq(g->blocks[i].index, idx[i]);
        ck_assert_uint_eq(g->blocks[i].offset, idx[i] * BS);
    }
    ck_assert_uint_eq(g->blocks[0].misses, 3);
    ck_assert_uint_eq(g->blocks[0].memory_block_time, 300);
    ck_assert_int_eq(g->blocks[0].pattern, PP_MIGRATORY);
    ck_assert_int_eq(g->blocks[0].group_id, 0);
    ck_assert_uint_eq(g->blocks[0].detections[PP_MIGRATORY], 3);
    ck_assert_int_eq(g->blocks[1].pattern, PP_PRODUCER_CONSUMER);
    ck_assert_int_eq(g->blocks[1].group_id, 1);
    ck_assert_uint_eq(g->blocks[1].misses, 2);
    ck_assert_uint_eq(g->blocks[2].invalidations, 1);
    ck_assert_int_eq(g->blocks[2].pattern, PP_NONE);
    ck_assert_int_eq(g->blocks[2].group_id, -1);

    /* the same site through two paths: two structures, the second renamed */
    const profile_structure *s1 = find(&in, "make_list (list.c:10)", NULL);
    const profile_structure *s2 = find(&in, "make_list (list.c:10) [path 2]", NULL);
    ck_assert_str_eq(s1->kind, "site");
    ck_assert_str_eq(s1->site_function, "make_list");
    ck_assert_str_eq(s1->site_file, "list.c");
    ck_assert_uint_eq(s1->site_line, 10);
    ck_assert_uint_eq(s1->npath, 2);
    ck_assert_str_eq(s1->path[0], "make_list (list.c:10)");
    ck_assert_str_eq(s1->path[1], "init (main.c:20)");
    ck_assert_str_eq(s2->path[1], "main (main.c:5)");
    ck_assert_uint_eq(s1->nblocks, 1);
    ck_assert_uint_eq(s1->blocks[0].index, 17);
    ck_assert_uint_eq(s2->blocks[0].index, 16);
    ck_assert_uint_eq(s2->metrics[CM_STACHE_READ_MISSES], 5);

    /* block 19 is half "a", half "b": the later allocation wins the tie */
    const profile_structure *sa = find(&in, "a", NULL), *sb = find(&in, "b", NULL);
    ck_assert_uint_eq(sa->bytes, 96);
    ck_assert_uint_eq(sa->nblocks, 1);
    ck_assert_uint_eq(sa->blocks[0].index, 18);
    ck_assert_uint_eq(sb->bytes, 32);
    ck_assert_uint_eq(sb->nblocks, 1);
    ck_assert_uint_eq(sb->blocks[0].index, 19);
    ck_assert_uint_eq(sb->blocks[0].offset, 0);

    /* touched outside every allocation: a miss at 40, a page fault at 41 */
    const profile_structure *u = find(&in, "(unnamed)", NULL);
    ck_assert_str_eq(u->kind, "unnamed");
    ck_assert_uint_eq(u->nblocks, 2);
    ck_assert_uint_eq(u->bytes, 2 * BS);
    ck_assert_uint_eq(u->blocks[0].index, 40);
    ck_assert_uint_eq(u->blocks[0].offset, 0);
    ck_assert_uint_eq(u->blocks[1].index, 41);
    ck_assert_uint_eq(u->blocks[1].offset, BS);
    ck_assert_uint_eq(u->metrics[CM_PAGE_FAULTS], 1);

    profile_input_free(&in);
    for (int n = 0; n < 3; n++)
        profile_node_records_free(&r[n]);
    job_stats_free(&js);
}
END_TEST

START_TEST(job_causes)
{
    profile_input in;
    job_stats js;
    profile_node_records r[3];
    build_job(&in, &js, r);
    const profile_structure *g = find(&in, "grid", NULL);
    /* block 0: node 1's cold miss came first (50 < 100 ns): the first touch */
    check_causes(&g->causes, 2, 1, 2, 2, 50, 40, 1000);
    check_causes(&g->causes_per_node[0], 1, 0, 0, 0, 30, 0, 0);
    check_causes(&g->causes_per_node[1], 1, 1, 2, 2, 20, 40, 1000);
    check_causes(&g->causes_per_node[2], 0, 0, 0, 0, 0, 0, 0);
    check_causes(&g->blocks[0].causes, 2, 1, 2, 0, 50, 40, 0);
    check_causes(&g->blocks[1].causes, 0, 0, 0, 2, 0, 0, 1000);
    const profile_structure *u = find(&in, "(unnamed)", NULL);
    check_causes(&u->causes, 1, 1, 0, 0, 5, 0, 0);
    check_causes(&u->causes_per_node[2], 1, 1, 0, 0, 5, 0, 0);
    profile_input_free(&in);
    for (int n = 0; n < 3; n++)
        profile_node_records_free(&r[n]);
    job_stats_free(&js);
}
END_TEST

START_TEST(job_false_sharing)
{
    profile_input in;
    job_stats js;
    profile_node_records r[3];
    build_job(&in, &js, r);
    const profile_structure *g = find(&in, "grid", NULL);
    /* block 2: 0 -> 1 -> (2 wrote nothing) -> 0, disjoint: 2 false;
     * block 3: 0 -> 2 overlapping: 1 true; block 8: 2 -> 0 disjoint: 1
     * false, then 0 -> 0: none */
    ck_assert_uint_eq(g->fs_transfers, 3);
    ck_assert_uint_eq(g->ts_transfers, 1);
    static const uint32_t w0[] = { 0, 8, 60, 64 }, w1[] = { 32, 40 }, w2[] = { 0, 4 };
    ck_assert_uint_eq(g->nfs_blocks, 2);
    ck_assert_uint_eq(g->fs_blocks[0].index, 2);
    ck_assert_uint_eq(g->fs_blocks[0].offset, 2 * BS);
    ck_assert_uint_eq(g->fs_blocks[0].transfers, 2);
    check_ranges(&g->fs_blocks[0].writers[0], 1, w0);
    check_ranges(&g->fs_blocks[0].writers[1], 1, w1);
    ck_assert_uint_eq(g->fs_blocks[0].writers[2].n, 0);
    ck_assert_uint_eq(g->fs_blocks[1].index, 8);
    ck_assert_uint_eq(g->fs_blocks[1].offset, 8 * BS);
    ck_assert_uint_eq(g->fs_blocks[1].transfers, 1);
    check_ranges(&g->fs_blocks[1].writers[0], 1, w0 + 2);
    check_ranges(&g->fs_blocks[1].writers[2], 1, w2);
    ck_assert_uint_eq(g->blocks[2].fs_transfers, 2);
    ck_assert_uint_eq(g->blocks[4].fs_transfers, 1); /* block 8 */
    ck_assert_uint_eq(g->blocks[3].fs_transfers, 0);
    /* one epoch alone is no transfer */
    const profile_structure *sa = find(&in, "a", NULL);
    ck_assert_uint_eq(sa->fs_transfers + sa->ts_transfers, 0);
    ck_assert_uint_eq(sa->nfs_blocks, 0);
    profile_input_free(&in);
    for (int n = 0; n < 3; n++)
        profile_node_records_free(&r[n]);
    job_stats_free(&js);
}
END_TEST

START_TEST(job_code_and_slices)
{
    profile_input in;
    job_stats js;
    profile_node_records r[3];
    build_job(&in, &js, r);
    /* procedures by wall time; file:line of the instruction with most misses */
    ck_assert_uint_eq(in.nprocedures, 2);
    const profile_procedure *init = &in.procedures[0], *kernel = &in.procedures[1];
    ck_assert_str_eq(init->name, "init");
    ck_assert_str_eq(init->file, "i.c");
    ck_assert_uint_eq(init->line, 9);
    ck_assert_uint_eq(init->m.read_misses, 1);
    ck_assert_uint_eq(init->m.upgrades, 2);
    ck_assert_uint_eq(init->m.wall, 1010);
    ck_assert_str_eq(kernel->name, "kernel");
    ck_assert_str_eq(kernel->file, "k.c");
    ck_assert_uint_eq(kernel->line, 50);
    ck_assert_uint_eq(kernel->m.read_misses, 8);
    ck_assert_uint_eq(kernel->m.write_misses, 1);
    ck_assert_uint_eq(kernel->m.wall, 450);
    /* pairs by wall time; the miss without a block is in no pair */
    size_t grid, mk2;
    find(&in, "grid", &grid);
    find(&in, "make_list (list.c:10) [path 2]", &mk2);
    ck_assert_uint_eq(in.npairs, 3);
    ck_assert_uint_eq(in.pairs[0].procedure, 0);
    ck_assert_uint_eq(in.pairs[0].structure, grid);
    ck_assert_uint_eq(in.pairs[0].m.upgrades, 2);
    ck_assert_uint_eq(in.pairs[0].m.wall, 1000);
    ck_assert_uint_eq(in.pairs[1].procedure, 1);
    ck_assert_uint_eq(in.pairs[1].structure, grid);
    ck_assert_uint_eq(in.pairs[1].m.read_misses, 3);
    ck_assert_uint_eq(in.pairs[1].m.write_misses, 1);
    ck_assert_uint_eq(in.pairs[1].m.wall, 400);
    ck_assert_uint_eq(in.pairs[2].procedure, 1);
    ck_assert_uint_eq(in.pairs[2].structure, mk2);
    ck_assert_uint_eq(in.pairs[2].m.read_misses, 5);
    ck_assert_uint_eq(in.pairs[2].m.wall, 50);
    /* timeslices on the coarsest interval (20 ms), up to the end (45 ms) */
    ck_assert(in.slice_seconds == 0.02);
    ck_assert_uint_eq(in.nslices, 3);
    const profile_slice *s = in.slices;
    ck_assert_uint_eq(s[0 * 3 + 0].misses, 3);
    ck_assert_uint_eq(s[0 * 3 + 0].memory_block_time, 300);
    ck_assert_uint_eq(s[0 * 3 + 0].barrier_wait, 5);
    ck_assert_uint_eq(s[1 * 3 + 0].misses, 0);
    ck_assert_uint_eq(s[1 * 3 + 0].barrier_wait, 7);
    ck_assert_uint_eq(s[0 * 3 + 1].misses, 4);
    ck_assert_uint_eq(s[0 * 3 + 1].memory_block_time, 400);
    ck_assert_uint_eq(s[0 * 3 + 1].barrier_wait, 9);
    for (size_t i = 0; i < 3; i++)
        ck_assert_uint_eq(s[i * 3 + 2].misses + s[i * 3 + 2].barrier_wait, 0);
    ck_assert_uint_eq(s[2 * 3 + 0].misses + s[2 * 3 + 1].misses, 0);
    profile_input_free(&in);
    for (int n = 0; n < 3; n++)
        profile_node_records_free(&r[n]);
    job_stats_free(&js);
}
END_TEST

/* Exact false sharing, read evidence, the share, sharing patterns and
 * groups, on a 2-node job of one structure "s" (blocks 0-15, node 0):
 *   block 0  17 single bytes each, interleaved (0,2,..,32 / 1,3,..,33),
 *            written in turn 0,1,0,1: 3 false-sharing transfers (a summary
 *            of 16 ranges would have merged them into overlap)
 *   block 1  a token: node 0 writes [0,8), node 1 reads [0,8) then writes
 *            [8,16), node 0 reads [8,16) then writes [0,8): 2 transfers,
 *            true sharing though the writes are disjoint; then node 1 reads
 *            only its own bytes [8,16) and writes them: false
 *   block 2  the reader's read came before the previous epoch ended: no
 *            evidence for the transfer (false)
 *   blocks 4-7 group 4: fetched together 0, 3, 3, 9 times; block 4 private,
 *            5 write-shared, 6 read-only, 7 migratory
 * Only cold misses: the share stays at most 1 (false / all transfers). */
static void exact_job(profile_wbuf w[2])
{
    memset(w, 0, 2 * sizeof *w);
    run_used = 0;
    profile_rec_alloc a = named(0, 16 * BS, 0, "s");
    a.collective = 1;
    /* its element type, as DWARF gave it at the allocation */
    profile_field f[2] = { { (char *)"v", 0, 8 }, { (char *)"w", 8, 8 } };
    profile_type cell = { (char *)"cell", 16, f, 2 };
    a.type = &cell;
    profile_put_alloc(&w[0], &a);
    profile_range even[17], odd[17];
    for (uint32_t k = 0; k < 17; k++) {
        even[k] = (profile_range){ 2 * k, 2 * k + 1 };
        odd[k] = (profile_range){ 2 * k + 1, 2 * k + 2 };
    }
    profile_rec_epoch e0[] = { epoch_runs(0, 0, 10, even, 17), epoch_runs(0, 0, 30, even, 17),
                               epoch(1, 0, 10, 0, 8), epoch(1, 0, 30, 0, 8),
                               epoch(2, 0, 10, 0, 8) };
    for (size_t i = 0; i < sizeof e0 / sizeof e0[0]; i++)
        profile_put_epoch(&w[0], &e0[i]);
    profile_rec_epoch e1[] = { epoch_runs(0, 1, 20, odd, 17), epoch_runs(0, 1, 40, odd, 17),
                               epoch(1, 1, 20, 8, 16), epoch(1, 1, 40, 8, 16),
                               epoch(2, 1, 20, 8, 16) };
    for (size_t i = 0; i < sizeof e1 / sizeof e1[0]; i++)
        profile_put_epoch(&w[1], &e1[i]);
    /* reads: node 1 takes the token after node 0's epoch 10..11 ended */
    profile_rec_read r1[] = { { 1, 0, 8, 15 }, { 1, 8, 16, 35 }, { 2, 0, 8, 5 } };
    for (size_t i = 0; i < 3; i++)
        profile_put_read(&w[1], &r1[i]);
    profile_rec_read r0 = { 1, 8, 16, 25 };
    profile_put_read(&w[0], &r0);
    profile_rec_cause c[] = { { 0, 2, 0, 0, 1, 10, 0, 0 }, { 1, 2, 0, 0, 2, 10, 0, 0 } };
    profile_put_cause(&w[0], &c[0]);
    profile_put_cause(&w[1], &c[1]);
    profile_put_lost(&w[0], 0, 0, 0, 1);
    profile_put_lost(&w[1], 0, 0, 0, 1);
}

START_TEST(exact_sharing_and_groups)
{
    profile_wbuf w[2];
    exact_job(w);
    ck_assert(!w[0].failed && !w[1].failed);
    profile_node_records r[2];
    parse_all(w, 2, r);
    for (int n = 0; n < 2; n++)
        profile_wbuf_free(&w[n]);
    counters *cn[2] = { counters_create(NBLOCKS), counters_create(NBLOCKS) };
    ck_assert(cn[0] && cn[1]);
    for (uint32_t b = 4; b < 8; b++) { /* 2 misses of 100 ns per block */
        counters_add(cn[0], CM_STACHE_READ_MISSES, b, 2);
        counters_add(cn[0], CM_MEMORY_BLOCK_TIME, b, 200);
    }
    profile_pattern pat[4];
    memset(pat, 0, sizeof pat);
    static const uint32_t together[] = { 0, 3, 3, 2 };
    for (int i = 0; i < 4; i++) {
        pat[i].block = 4 + (uint32_t)i;
        pat[i].p.group_id = 4;
        pat[i].p.detections[PP_GROUP] = together[i];
        pat[i].p.requesters = 2;
        pat[i].p.writers = 1;
    }
    pat[0].p.requesters = 1;        /* private */
    pat[1].p.writers = 2;           /* write-shared */
    pat[2].p.detections[PP_READ_ONLY] = 4;
    pat[3].p.detections[PP_MIGRATORY] = 2;
    pat[3].p.detections[PP_GROUP] = 9; /* never outvotes the sharing pattern */
    profile_stats st = { NBLOCKS, 1, 1, (const counters *const *)cn, pat, 4 };
    profile_job job = { 2, BS, 1.0, 10 * MS };
    profile_input in;
    char err[128];
    ck_assert_int_eq(profile_aggregate(&job, &st, r, &in, err, sizeof err), 0);
    const profile_structure *s = find(&in, "s", NULL);
    ck_assert(s->has_type);
    ck_assert_str_eq(s->type.name, "cell");
    ck_assert_uint_eq(s->type.size, 16);
    ck_assert_uint_eq(s->type.nfields, 2);
    ck_assert_str_eq(s->type.fields[1].name, "w");
    ck_assert_uint_eq(s->type.fields[1].offset, 8);
    ck_assert_uint_eq(s->type.fields[1].size, 8);
    /* 3 (block 0) + 1 (block 1, the last) + 1 (block 2) false; 2 true */
    ck_assert_uint_eq(s->fs_transfers, 5);
    ck_assert_uint_eq(s->ts_transfers, 2);
    ck_assert_uint_eq(s->blocks[0].fs_transfers, 3);
    ck_assert_uint_eq(s->blocks[1].fs_transfers, 1);
    ck_assert_uint_eq(s->blocks[2].fs_transfers, 1);
    /* block 0's writers, exactly: 17 runs each, no summary */
    const profile_fs_block *fb = &s->fs_blocks[0];
    ck_assert_uint_eq(fb->index, 0);
    ck_assert_uint_eq(fb->writers[0].n, 17);
    ck_assert_uint_eq(fb->writers[1].n, 17);
    for (uint32_t k = 0; k < 17; k++) {
        ck_assert_uint_eq(fb->writers[0].r[k].lo, 2 * k);
        ck_assert_uint_eq(fb->writers[1].r[k].hi, 2 * k + 2);
    }
    ck_assert(!profile_runs_overlap(fb->writers[0].r, fb->writers[0].n, fb->writers[1].r,
                                    fb->writers[1].n));
    /* only cold misses (no coherence miss): the share is of all transfers */
    ck_assert_uint_eq(s->causes.invalidation + s->causes.upgrade, 0);
    ck_assert(profile_fs_share(s->fs_transfers, s->ts_transfers, 0) == 5.0 / 7.0);
    ck_assert(profile_fs_share(10, 0, 4) == 1.0);
    ck_assert(profile_fs_share(1, 1, 4) == 0.25);
    ck_assert(profile_fs_share(0, 0, 0) == 0.0);
    /* sharing patterns: group counts never count */
    ck_assert_uint_eq(s->patterns[PP_PRIVATE], 1);
    ck_assert_uint_eq(s->patterns[PP_WRITE_SHARED], 1);
    ck_assert_uint_eq(s->patterns[PP_READ_ONLY], 1);
    ck_assert_uint_eq(s->patterns[PP_MIGRATORY], 1);
    ck_assert_uint_eq(s->patterns[PP_GROUP], 0);
    ck_assert_int_eq(s->blocks[4].pattern, PP_PRIVATE);
    ck_assert_int_eq(s->blocks[7].pattern, PP_MIGRATORY);
    /* one group of 4 blocks: 15 misses saved at 100 ns each */
    ck_assert_uint_eq(in.ngroups, 1);
    ck_assert_uint_eq(in.ngroups_total, 1);
    const profile_group *g = &in.groups[0];
    ck_assert_int_eq(g->id, 4);
    ck_assert_uint_eq(g->blocks, 4);
    ck_assert_uint_eq(g->fetched_together, 15);
    ck_assert_uint_eq(g->gain, 1500);
    ck_assert_uint_eq(g->nruns, 1);
    ck_assert_uint_eq(g->nruns_total, 1);
    ck_assert_str_eq(in.structures[g->runs[0].structure].name, "s");
    ck_assert_uint_eq(g->runs[0].offset, 4 * BS);
    ck_assert_uint_eq(g->runs[0].first_block, 4);
    ck_assert_uint_eq(g->runs[0].blocks, 4);
    ck_assert_uint_eq(s->group_blocks, 4);
    ck_assert_uint_eq(s->ngroup_ids, 1);
    ck_assert_int_eq(s->group_ids[0], 4);
    ck_assert(s->blocks[5].in_group && !s->blocks[3].in_group);
    profile_input_free(&in);
    for (int n = 0; n < 2; n++) {
        profile_node_records_free(&r[n]);
        counters_destroy(cn[n]);
    }
}
END_TEST

START_TEST(fs_ranking)
{
    /* "v": blocks 0-9; block k sees (k % 5) + 1 false-sharing transfers */
    profile_wbuf w[2] = { { 0 }, { 0 } };
    profile_rec_alloc v = named(0, 10 * BS, 0, "v");
    profile_put_alloc(&w[0], &v);
    for (uint32_t k = 0; k < 10; k++) {
        uint32_t t = k % 5 + 1;
        for (uint32_t i = 0; i <= t; i++) {
            int node = (int)(i % 2);
            profile_rec_epoch e = epoch(k, node, 100 * k + i, (uint32_t)node, (uint32_t)node + 1);
            profile_put_epoch(&w[node], &e);
        }
    }
    profile_node_records r[2];
    parse_all(w, 2, r);
    profile_stats st = { NBLOCKS, 0, 0, (const counters *const[]){ NULL, NULL }, NULL, 0 };
    profile_job job = { 2, BS, 1.0, 0 };
    profile_input in;
    char err[128];
    ck_assert_int_eq(profile_aggregate(&job, &st, r, &in, err, sizeof err), 0);
    ck_assert_uint_eq(in.nstructures, 1);
    const profile_structure *s = &in.structures[0];
    ck_assert_uint_eq(s->fs_transfers, 30);
    ck_assert_uint_eq(s->nfs_blocks, PROFILE_FS_BLOCKS);
    static const uint32_t want[PROFILE_FS_BLOCKS][2] = { { 4, 5 }, { 9, 5 }, { 3, 4 }, { 8, 4 },
                                                         { 2, 3 }, { 7, 3 }, { 1, 2 }, { 6, 2 } };
    for (size_t i = 0; i < PROFILE_FS_BLOCKS; i++) {
        ck_assert_uint_eq(s->fs_blocks[i].index, want[i][0]);
        ck_assert_uint_eq(s->fs_blocks[i].transfers, want[i][1]);
    }
    ck_assert_uint_eq(in.nslices, 0);
    profile_input_free(&in);
    for (int n = 0; n < 2; n++) {
        profile_node_records_free(&r[n]);
        profile_wbuf_free(&w[n]);
    }
}
END_TEST

START_TEST(minimal)
{
    profile_wbuf w = { 0 };
    profile_rec_alloc v = named(0, BS, 0, "only");
    profile_put_alloc(&w, &v);
    profile_node_records r;
    parse_all(&w, 1, &r);
    ck_assert_int_eq(r.symbolized, 1); /* no R_LOST record: nothing lost */
    profile_stats st = { NBLOCKS, 1, 0, (const counters *const[]){ NULL }, NULL, 0 };
    profile_job job = { 1, BS, 0.5, 10 * MS };
    profile_input in;
    char err[128];
    ck_assert_int_eq(profile_aggregate(&job, &st, &r, &in, err, sizeof err), 0);
    ck_assert_uint_eq(in.nstructures, 1); /* no "(unnamed)" */
    ck_assert_str_eq(in.structures[0].name, "only");
    ck_assert_uint_eq(in.structures[0].nblocks, 1);
    ck_assert_int_eq(in.code_attribution, 1);
    ck_assert_uint_eq(in.nprocedures + in.npairs + in.nslices, 0);
    ck_assert_ptr_null(in.slices);
    profile_input_free(&in);
    profile_node_records_free(&r);
    profile_wbuf_free(&w);
}
END_TEST

/* ---- the reader on bad input ---- */

static int parse_copy(const void *p, size_t len, int nn, profile_node_records *r, char *err,
                      size_t errlen)
{
    /* an exact-size copy: a read past the end is a read out of bounds */
    unsigned char *c = malloc(len ? len : 1);
    ck_assert_ptr_nonnull(c);
    memcpy(c, p, len);
    int rc = profile_records_parse(c, len, nn, r, err, errlen);
    free(c);
    return rc;
}

static int is_empty(const profile_node_records *r)
{
    static const profile_node_records zero;
    return !memcmp(r, &zero, sizeof zero);
}

START_TEST(truncated)
{
    profile_wbuf w[3];
    job_bytes(w);
    ck_assert(job_bytes_ok(w));
    for (int n = 0; n < 3; n++) {
        size_t refused = 0;
        for (size_t len = 0; len < w[n].len; len++) {
            profile_node_records r;
            char err[128] = "";
            if (parse_copy(w[n].p, len, 3, &r, err, sizeof err) == 0) {
                profile_node_records_free(&r);
                continue; /* cut between two records */
            }
            ck_assert_str_eq(err, "truncated profile data");
            ck_assert(is_empty(&r));
            refused++;
        }
        ck_assert_uint_gt(refused, w[n].len / 2);
        profile_wbuf_free(&w[n]);
    }
}
END_TEST

static void put8(profile_wbuf *w, uint8_t v) { profile_wbuf_append(w, &v, 1); }
static void put32(profile_wbuf *w, uint32_t v) { profile_wbuf_append(w, &v, 4); }
static void put64(profile_wbuf *w, uint64_t v) { profile_wbuf_append(w, &v, 8); }

static void expect_refused(profile_wbuf *w, int nn, const char *why)
{
    profile_node_records r;
    char err[128] = "";
    ck_assert_int_eq(parse_copy(w->p, w->len, nn, &r, err, sizeof err), -1);
    ck_assert_str_eq(err, why);
    ck_assert(is_empty(&r));
    profile_wbuf_free(w);
}

START_TEST(corrupt)
{
    profile_wbuf w = { 0 };
    profile_frame f = frame("f", "f.c", 1);
    profile_rec_alloc ok = named(0, BS, 0, "x");

    /* an unknown record after a good one */
    profile_put_alloc(&w, &ok);
    put8(&w, 'Z');
    expect_refused(&w, 2, "bad profile record 90");
    /* an epoch's writer out of the job, either side */
    profile_rec_epoch e = epoch(0, 2, 1, 0, 8);
    profile_put_epoch(&w, &e);
    expect_refused(&w, 2, "bad profile data");
    e.node = -1;
    profile_put_epoch(&w, &e);
    expect_refused(&w, 2, "bad profile data");
    /* more runs than arrived */
    put8(&w, 'E');
    put32(&w, 0);
    put32(&w, 0);
    put64(&w, 1);
    put64(&w, 2);
    put32(&w, 3);
    put32(&w, 0);
    put32(&w, 1);
    expect_refused(&w, 2, "truncated profile data");
    /* runs out of order, overlapping, adjacent or empty */
    static const uint32_t bad_runs[][4] = { { 4, 8, 0, 2 }, { 0, 4, 2, 6 }, { 0, 4, 4, 6 },
                                            { 0, 4, 6, 6 } };
    for (size_t k = 0; k < 4; k++) {
        put8(&w, 'E');
        put32(&w, 0);
        put32(&w, 0);
        put64(&w, 1);
        put64(&w, 2);
        put32(&w, 2);
        for (int q = 0; q < 4; q++)
            put32(&w, bad_runs[k][q]);
        expect_refused(&w, 2, "bad profile data");
    }
    /* an element type of no size, a field past its end */
    profile_field bf[1] = { { (char *)"x", 12, 8 } };
    profile_type bt = { (char *)"t", 16, bf, 1 };
    profile_rec_alloc ta = named(0, BS, 0, "x");
    ta.type = &bt;
    profile_put_alloc(&w, &ta);
    expect_refused(&w, 2, "bad profile data");
    bt.size = 0;
    bt.nfields = 0;
    profile_put_alloc(&w, &ta);
    expect_refused(&w, 2, "bad profile data");
    /* a read of no bytes */
    profile_rec_read rd = { 0, 8, 8, 5 };
    profile_put_read(&w, &rd);
    expect_refused(&w, 2, "bad profile data");
    /* instructions out of order; a miss of an instruction never named */
    profile_put_ip(&w, 1, &f);
    expect_refused(&w, 2, "bad profile data");
    profile_put_ip(&w, 0, &f);
    profile_rec_miss m = { 1, 0, 1, 0, 0, 5 };
    profile_put_miss(&w, &m);
    expect_refused(&w, 2, "bad profile data");
    /* timeslices: no interval, too many, twice */
    profile_rec_slice s[1] = { { 1, 2, 3 } };
    profile_put_slices(&w, 0, s, 1);
    expect_refused(&w, 2, "bad profile data");
    put8(&w, 'T');
    put64(&w, MS);
    put32(&w, PROFILE_SLICES_MAX + 1);
    expect_refused(&w, 2, "bad profile data");
    profile_put_slices(&w, MS, s, 1);
    profile_put_slices(&w, MS, s, 1);
    expect_refused(&w, 2, "bad profile data");
    profile_rec_slice s3[3] = { { 0 } };
    profile_put_slices(&w, UINT64_MAX / 2, s3, 3); /* past the end of the clock */
    expect_refused(&w, 2, "bad profile data");
    /* an allocation whose end overflows */
    profile_rec_alloc huge = named(UINT64_MAX - 10, 100, 0, "x");
    profile_put_alloc(&w, &huge);
    expect_refused(&w, 2, "bad profile data");
    /* a string longer than what arrived */
    put8(&w, 'A');
    put64(&w, 0);
    put64(&w, BS);
    put8(&w, 0);
    put32(&w, 0);
    put8(&w, 0);
    put32(&w, UINT32_MAX);
    profile_wbuf_append(&w, "abc", 3);
    expect_refused(&w, 2, "truncated profile data");
    /* a call path of 2^31 frames: refused before any allocation for them */
    put8(&w, 'A');
    put64(&w, 0);
    put64(&w, BS);
    put8(&w, 0);
    put32(&w, 0);
    put8(&w, 1);
    put32(&w, 1u << 31);
    expect_refused(&w, 2, "truncated profile data");
    /* a record cut inside a field */
    profile_put_ip(&w, 0, &f);
    w.len -= 2;
    expect_refused(&w, 2, "truncated profile data");
}
END_TEST

START_TEST(mutated)
{
    profile_wbuf w[3];
    job_bytes(w);
    ck_assert(job_bytes_ok(w));
    job_stats js;
    job_stats_make(&js);
    profile_job job = { 3, BS, 1.0, 45 * MS };
    srand(4242);
    size_t accepted = 0;
    for (int iter = 0; iter < 3000; iter++) {
        int n = iter % 3;
        unsigned char *c = malloc(w[n].len);
        ck_assert_ptr_nonnull(c);
        memcpy(c, w[n].p, w[n].len);
        for (int k = 1 + rand() % 4; k > 0; k--)
            c[(size_t)rand() % w[n].len] = (unsigned char)rand();
        profile_node_records r[3];
        char err[128];
        int rc = profile_records_parse(c, w[n].len, 3, &r[n], err, sizeof err);
        free(c);
        if (rc)
            continue;
        accepted++;
        for (int o = 0; o < 3; o++)
            if (o != n)
                ck_assert_int_eq(profile_records_parse(w[o].p, w[o].len, 3, &r[o], err, sizeof err), 0);
        profile_input in;
        ck_assert_int_eq(profile_aggregate(&job, &js.st, r, &in, err, sizeof err), 0);
        ck_assert_uint_ge(in.nstructures, 1);
        profile_input_free(&in);
        for (int o = 0; o < 3; o++)
            profile_node_records_free(&r[o]);
    }
    ck_assert_uint_gt(accepted, 100); /* the aggregation did see odd input */
    job_stats_free(&js);
    for (int n = 0; n < 3; n++)
        profile_wbuf_free(&w[n]);
}
END_TEST

/* A structure's sharing pattern is the one its misses come from: a grid's
 * 2 producer-consumer boundary blocks with 400 misses outweigh its 50
 * read-only blocks read once each; without misses, the most blocks win. */
START_TEST(structure_pattern_by_misses)
{
    profile_structure s;
    memset(&s, 0, sizeof s);
    s.patterns[PP_READ_ONLY] = 50;
    s.pattern_misses[PP_READ_ONLY] = 50;
    s.patterns[PP_PRODUCER_CONSUMER] = 2;
    s.pattern_misses[PP_PRODUCER_CONSUMER] = 400;
    ck_assert_int_eq(profile_structure_dominant(&s), PP_PRODUCER_CONSUMER);
    memset(s.pattern_misses, 0, sizeof s.pattern_misses);
    ck_assert_int_eq(profile_structure_dominant(&s), PP_READ_ONLY);
    memset(s.patterns, 0, sizeof s.patterns);
    s.patterns[PP_NONE] = 3;
    ck_assert_int_eq(profile_structure_dominant(&s), PP_NONE);
}
END_TEST

int main(int argc, char **argv)
{
    if (argc == 3 && !strcmp(argv[1], "--seed")) {
        /* node N's bytes of the job, as a seed for tests/fuzz_records.sh */
        profile_wbuf w[3];
        job_bytes(w);
        int n = atoi(argv[2]) % 3;
        return job_bytes_ok(w) && fwrite(w[n].p, 1, w[n].len, stdout) == w[n].len ? 0 : 1;
    }
    Suite *s = suite_create("profile_aggregate");
    TCase *tc = tcase_create("aggregate");
    tcase_add_test(tc, job_structures);
    tcase_add_test(tc, job_causes);
    tcase_add_test(tc, job_false_sharing);
    tcase_add_test(tc, job_code_and_slices);
    tcase_add_test(tc, fs_ranking);
    tcase_add_test(tc, exact_sharing_and_groups);
    tcase_add_test(tc, minimal);
    tcase_add_test(tc, structure_pattern_by_misses);
    suite_add_tcase(s, tc);
    TCase *tr = tcase_create("records");
    tcase_add_test(tr, truncated);
    tcase_add_test(tr, corrupt);
    tcase_add_test(tr, mutated);
    tcase_set_timeout(tr, 60);
    suite_add_tcase(s, tr);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
