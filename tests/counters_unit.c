/* counters_unit.c - unit tests of the vectorized per-block counters
 * (protocol/counters.h, Check framework):
 *   - lazy allocation: nothing allocated at creation, one chunk per metric
 *     and chunk touched, memory independent of the region's size;
 *   - O(1) update: the cost of an update does not grow with the number of
 *     monitored blocks (10 vs 10^5 blocks, generous bound against noise);
 *   - per-node totals == sums over blocks, also after merging;
 *   - out-of-range blocks and metrics change nothing but `dropped`;
 *   - names: every metric has its paper name, times are recognised. */
#include "counters.h"

#include "check_main.h"
#include <stdlib.h>
#include <string.h>
#include <time.h>

START_TEST(lazy_allocation)
{
    counters *c = counters_create(1u << 28); /* a 1 TiB region of 4 KiB blocks */
    ck_assert_ptr_nonnull(c);
    ck_assert_uint_eq(c->chunks_allocated, 0);
    ck_assert_int_eq(counters_chunk_used(c, 12345), 0);
    ck_assert_int_eq(counters_add(c, CM_PAGE_FAULTS, 5, 1), 0);
    ck_assert_uint_eq(c->chunks_allocated, 1);
    ck_assert_int_eq(counters_add(c, CM_PAGE_FAULTS, COUNTERS_CHUNK - 1, 1), 0); /* same chunk */
    ck_assert_uint_eq(c->chunks_allocated, 1);
    ck_assert_int_eq(counters_add(c, CM_PAGE_FAULT_WALL, 5, 10), 0); /* other metric */
    ck_assert_uint_eq(c->chunks_allocated, 2);
    ck_assert_int_eq(counters_add(c, CM_PAGE_FAULTS, (1u << 28) - 1, 1), 0); /* last block */
    ck_assert_uint_eq(c->chunks_allocated, 3);
    ck_assert_int_eq(counters_chunk_used(c, 0), 1);
    ck_assert_int_eq(counters_chunk_used(c, COUNTERS_CHUNK), 0);
    ck_assert_uint_eq(counters_get(c, CM_PAGE_FAULTS, 5), 1);
    ck_assert_uint_eq(counters_get(c, CM_PAGE_FAULTS, 6), 0);
    ck_assert_uint_eq(counters_get(c, CM_INV_RO, 5), 0); /* never touched: no chunk, reads 0 */
    counters_reset(c);
    ck_assert_uint_eq(c->chunks_allocated, 0);
    ck_assert_uint_eq(counters_total(c, CM_PAGE_FAULTS), 0);
    counters_destroy(c);
    ck_assert_ptr_null(counters_create(0));
}
END_TEST

static double ns_per_update(counters *c, uint32_t nblocks, long updates)
{
    /* stride through the monitored blocks so that every one is updated */
    struct timespec a, b;
    uint32_t blk = 0;
    clock_gettime(CLOCK_MONOTONIC, &a);
    for (long i = 0; i < updates; i++) {
        counters_add(c, CM_SENT_MSGS, blk, 1);
        blk = (blk + 7919) % nblocks; /* the same division for every size */
    }
    clock_gettime(CLOCK_MONOTONIC, &b);
    return ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec)) / updates;
}

START_TEST(constant_update_cost)
{
    const long updates = 2000000;
    double best[2] = { 1e9, 1e9 };
    const uint32_t sizes[2] = { 10, 100000 };
    for (int k = 0; k < 2; k++) {
        counters *c = counters_create(1u << 20);
        ns_per_update(c, sizes[k], updates / 4); /* allocate the chunks first */
        for (int rep = 0; rep < 5; rep++) {
            double v = ns_per_update(c, sizes[k], updates);
            if (v < best[k])
                best[k] = v;
        }
        ck_assert_uint_eq(counters_total(c, CM_SENT_MSGS), (uint64_t)updates / 4 + 5 * updates);
        counters_destroy(c);
    }
    /* The same instructions per update; 10^5 blocks only adds cache misses
     * on 800 KB of counters.  A search would be 10^4 times slower. */
    ck_assert_msg(best[1] < best[0] * 8 + 20,
                  "update cost grows with the monitored blocks: %.1f ns (10) vs %.1f ns (10^5)",
                  best[0], best[1]);
}
END_TEST

START_TEST(totals_are_sums)
{
    counters *a = counters_create(50000), *b = counters_create(50000);
    unsigned seed = 1;
    for (int i = 0; i < 200000; i++) {
        seed = seed * 1103515245u + 12345u;
        int m = (int)((seed >> 8) % CM_NBLOCK_METRICS);
        uint32_t blk = (seed >> 3) % 50000;
        ck_assert_int_eq(counters_add(i & 1 ? a : b, m, blk, seed & 0xff), 0);
    }
    counters_add_node(a, CM_POLLS, 7);
    counters_add_node(b, CM_POLLS, 5);
    for (int m = 0; m < CM_NBLOCK_METRICS; m++) {
        ck_assert_uint_eq(counters_total(a, m), counters_sum_blocks(a, m));
        ck_assert_uint_eq(counters_total(b, m), counters_sum_blocks(b, m));
    }
    uint64_t before[CM_NMETRICS];
    for (int m = 0; m < CM_NMETRICS; m++)
        before[m] = counters_total(a, m) + counters_total(b, m);
    ck_assert_int_eq(counters_merge(a, b), 0);
    for (int m = 0; m < CM_NMETRICS; m++)
        ck_assert_uint_eq(counters_total(a, m), before[m]);
    for (int m = 0; m < CM_NBLOCK_METRICS; m++)
        ck_assert_uint_eq(counters_total(a, m), counters_sum_blocks(a, m));
    ck_assert_uint_eq(counters_total(a, CM_POLLS), 12);
    counters *c = counters_create(49999);
    ck_assert_int_eq(counters_merge(c, a), -1); /* different sizes */
    counters_destroy(a);
    counters_destroy(b);
    counters_destroy(c);
}
END_TEST

START_TEST(out_of_range)
{
    counters *c = counters_create(100);
    ck_assert_int_eq(counters_add(c, CM_PAGE_FAULTS, 100, 1), -1);
    ck_assert_int_eq(counters_add(c, CM_PAGE_FAULTS, UINT32_MAX, 1), -1);
    ck_assert_int_eq(counters_add(c, CM_NBLOCK_METRICS, 0, 1), -1); /* a per-node metric */
    ck_assert_int_eq(counters_add(c, -1, 0, 1), -1);
    ck_assert_int_eq(counters_add_node(c, CM_PAGE_FAULTS, 1), -1); /* a per-block metric */
    ck_assert_int_eq(counters_add_node(c, CM_NMETRICS, 1), -1);
    ck_assert_uint_eq(c->dropped, 6);
    ck_assert_uint_eq(c->chunks_allocated, 0);
    for (int m = 0; m < CM_NMETRICS; m++)
        ck_assert_uint_eq(counters_total(c, m), 0);
    ck_assert_uint_eq(counters_get(c, CM_PAGE_FAULTS, 100), 0);
    ck_assert_uint_eq(counters_total(c, CM_NMETRICS), 0);
    ck_assert_int_eq(counters_add(c, CM_PAGE_FAULTS, 99, 3), 0); /* the last block is fine */
    ck_assert_uint_eq(counters_total(c, CM_PAGE_FAULTS), 3);
    counters_destroy(c);
}
END_TEST

START_TEST(names)
{
    static const char *paper[] = {
        "stacheReadMisses", "homeReadMisses", "stacheWriteRO", "homeWriteRO", "stacheWriteInv",
        "homeWriteInv", "invRO", "invRW", "memoryBlockTime", "pageFaults", "targetBarrier",
        "targetBarrierWall", "SentMsgs", "RecvMsgs", "SelfMsgs", "Acks", "MsgBytes", "BufMsgs",
        "Polls", "PollMsgs", "activeMessages", "activeMessageWall", "bulkDataTransfers",
        "bulkDataTransferWall", "pageFaultWall", "stacheReadMissWall",
    };
    for (size_t i = 0; i < sizeof paper / sizeof paper[0]; i++) {
        int found = 0;
        for (int m = 0; m < CM_NMETRICS; m++)
            found |= !strcmp(counters_metric_name(m), paper[i]);
        ck_assert_msg(found, "no metric named %s", paper[i]);
    }
    for (int m = 0; m < CM_NMETRICS; m++)
        for (int k = m + 1; k < CM_NMETRICS; k++)
            ck_assert_str_ne(counters_metric_name(m), counters_metric_name(k));
    ck_assert_ptr_null(counters_metric_name(CM_NMETRICS));
    ck_assert_int_eq(counters_metric_is_time(CM_INV_RO_WALL), 1);
    ck_assert_int_eq(counters_metric_is_time(CM_MEMORY_BLOCK_TIME), 1);
    ck_assert_int_eq(counters_metric_is_time(CM_INV_RO), 0);
    ck_assert_int_eq(counters_metric_is_time(CM_LOCK_WAIT_WALL), 1);
}
END_TEST

Suite *unit_suite(void)
{
    Suite *s = suite_create("counters");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, lazy_allocation);
    tcase_add_test(tc, constant_update_cost);
    tcase_add_test(tc, totals_are_sums);
    tcase_add_test(tc, out_of_range);
    tcase_add_test(tc, names);
    suite_add_tcase(s, tc);
    return s;
}
