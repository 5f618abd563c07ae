/* quickstep_unit.c - the simulated Alewife and QuickStep's pieces, without
 * a program: the mesh numbering of Fig. 4.1 (16 and 64 nodes) and its hops,
 * the CMMU's counters and histogram registers (masks of every class,
 * software overflow past 32 and 20 bits, timeslices, checkpoints), the
 * configuration language (every keyword and operation; errors name file
 * and line), the resource allocator (3.2.3's example), and the LimitLESS
 * traps and packet classes on a machine. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sharers_limitless.h"
#include "sim/alewife.h"
#include "sim/quickstep.h"
#include "sim/timing.h"

Suite *unit_suite(void);

START_TEST(test_numbering_16)
{
    /* Fig. 4.1, the bottom four rows and columns, row y = 0 first */
    static const int rows[4][4] = {
        {0x00, 0x01, 0x04, 0x05},
        {0x02, 0x03, 0x06, 0x07},
        {0x08, 0x09, 0x0C, 0x0D},
        {0x0A, 0x0B, 0x0E, 0x0F},
    };
    for (int y = 0; y < 4; y++)
        for (int x = 0; x < 4; x++) {
            ck_assert_int_eq(sim_alewife_node_at(x, y), rows[y][x]);
            int cx, cy;
            sim_alewife_coords(rows[y][x], &cx, &cy);
            ck_assert_int_eq(cx, x);
            ck_assert_int_eq(cy, y);
        }
    /* section 4.2.2's distances from node 0 */
    static const int hops[16] = {0, 1, 1, 2, 2, 3, 3, 4, 2, 3, 3, 4, 4, 5, 5, 6};
    for (int n = 0; n < 16; n++)
        ck_assert_int_eq(sim_alewife_hops(0, n), hops[n]);
    ck_assert_int_eq(sim_alewife_hops(5, 10), 6);
}
END_TEST

START_TEST(test_numbering_64)
{
    /* Fig. 4.1, rows y = 4 and y = 7 of the 8 x 8 mesh */
    static const int row4[8] = {0x20, 0x21, 0x24, 0x25, 0x30, 0x31, 0x34, 0x35};
    static const int row7[8] = {0x2A, 0x2B, 0x2E, 0x2F, 0x3A, 0x3B, 0x3E, 0x3F};
    static const int row0[8] = {0x00, 0x01, 0x04, 0x05, 0x10, 0x11, 0x14, 0x15};
    for (int x = 0; x < 8; x++) {
        ck_assert_int_eq(sim_alewife_node_at(x, 4), row4[x]);
        ck_assert_int_eq(sim_alewife_node_at(x, 7), row7[x]);
        ck_assert_int_eq(sim_alewife_node_at(x, 0), row0[x]);
    }
    ck_assert_int_eq(sim_alewife_hops(0, 0x3F), 14);
    int seen[64] = {0};
    for (int y = 0; y < 8; y++)
        for (int x = 0; x < 8; x++)
            seen[sim_alewife_node_at(x, y)]++;
    for (int n = 0; n < 64; n++)
        ck_assert_int_eq(seen[n], 1);
}
END_TEST

START_TEST(test_cache_masks)
{
    qs_monitor *q = qs_create(2);
    qs_set_counter(q, 0, 0x2002FF20u, 1); /* cached reads */
    qs_set_counter(q, 1, 0x2002FF3Fu, 1); /* reads */
    qs_set_counter(q, 2, 0x201EF93Fu, 1); /* remote-global data accesses */
    qs_set_counter(q, 3, 0x201EF520u, 1); /* cached local-global */
    qs_access(q, 0, 0, 0, QS_CACHED, 0);
    qs_access(q, 0, 0, 0, QS_LOCAL_MISS, 0);
    qs_access(q, 0, 0, 1, QS_CACHED, 0);      /* a write: not a read */
    qs_access(q, 0, 0, 0, QS_REMOTE_MISS, 1);
    qs_access(q, 0, 0, 1, QS_UPGRADE, 1);
    ck_assert_uint_eq(qs_counter(q, 0, 0, 0), 1);
    ck_assert_uint_eq(qs_counter(q, 0, 0, 1), 3);
    ck_assert_uint_eq(qs_counter(q, 0, 0, 2), 2);
    ck_assert_uint_eq(qs_counter(q, 0, 0, 3), 2);
    ck_assert_uint_eq(qs_counter(q, 1, 0, 1), 0);
    /* a disabled counter counts nothing; another class's events neither */
    qs_set_counter(q, 1, 0x2002FF3Fu, 0);
    qs_access(q, 0, 0, 0, QS_CACHED, 0);
    qs_packet(q, 0, 0, QS_RREQ, 2, 0);
    ck_assert_uint_eq(qs_counter(q, 0, 0, 1), 3);
    ck_assert_uint_eq(qs_counter(q, 0, 0, 0), 2);
    qs_destroy(q);
}
END_TEST

START_TEST(test_network_and_histogram)
{
    qs_monitor *q = qs_create(4);
    qs_set_counter(q, 0, 0x90010FFFu, 1); /* every packet sent */
    qs_set_counter(q, 1, 0x90020008u, 1); /* RDATA received */
    qs_set_histogram(q, 0x90010001u, 1);  /* RREQ sent, by hops */
    qs_packet(q, 1, 0, QS_RREQ, 3, 0);
    qs_packet(q, 0, 5, QS_RREQ, 3, 1);
    qs_packet(q, 0, 9, QS_RDATA, 3, 0);
    qs_packet(q, 1, 12, QS_RDATA, 3, 1);
    qs_packet(q, 2, 12, QS_RREQ, 40, 0);  /* far: the last register */
    ck_assert_uint_eq(qs_counter(q, 1, 0, 0), 1);
    ck_assert_uint_eq(qs_counter(q, 0, 0, 0), 1);
    ck_assert_uint_eq(qs_counter(q, 1, 0, 1), 1);
    ck_assert_uint_eq(qs_counter(q, 0, 0, 1), 0);
    ck_assert_uint_eq(qs_histogram(q, 1, 0, 3), 1);
    ck_assert_uint_eq(qs_histogram(q, 0, 0, 3), 0);
    ck_assert_uint_eq(qs_histogram(q, 2, 0, 15), 1);
    qs_destroy(q);
}
END_TEST

START_TEST(test_overflow_to_software)
{
    qs_monitor *q = qs_create(1);
    qs_set_counter(q, 0, 0x71060002u, 1); /* remote latency, accumulated */
    qs_set_counter(q, 1, 0x70060002u, 1); /* remote transactions */
    qs_transaction(q, 0, 0, 0, 1, 0xFFFFFFF0ull);
    ck_assert_uint_eq(qs_overflow_traps(q, 0), 0);
    qs_transaction(q, 0, 0, 1, 1, 0x20ull);
    ck_assert_uint_eq(qs_counter(q, 0, 0, 0), 0x100000010ull);
    ck_assert_uint_eq(qs_counter(q, 0, 0, 1), 2);
    ck_assert_uint_eq(qs_overflow_traps(q, 0), 1);
    qs_transaction(q, 0, 0, 0, 0, 7); /* local: neither */
    ck_assert_uint_eq(qs_counter(q, 0, 0, 1), 2);
    /* a 20-bit histogram register */
    qs_set_histogram(q, 0x90020008u, 1);
    for (uint32_t i = 0; i < (1u << 20) + 3; i++)
        qs_packet(q, 0, 0, QS_RDATA, 2, 1);
    ck_assert_uint_eq(qs_histogram(q, 0, 0, 2), (1u << 20) + 3);
    ck_assert_uint_eq(qs_overflow_traps(q, 0), 2);
    qs_destroy(q);
}
END_TEST

START_TEST(test_timeslices)
{
    qs_monitor *q = qs_create(2);
    qs_set_counter(q, 0, 0x201EFF3Fu, 1);
    qs_set_slice(q, 100);
    qs_access(q, 1, 50, 0, QS_CACHED, 0);
    qs_access(q, 1, 99, 0, QS_CACHED, 0);
    qs_access(q, 1, 100, 0, QS_CACHED, 0);
    qs_access(q, 0, 350, 1, QS_CACHED, 0);
    ck_assert_int_eq(qs_nslices(q), 4);
    ck_assert_uint_eq(qs_counter(q, 1, 0, 0), 2);
    ck_assert_uint_eq(qs_counter(q, 1, 1, 0), 1);
    ck_assert_uint_eq(qs_counter(q, 1, 3, 0), 0);
    ck_assert_uint_eq(qs_counter(q, 0, 3, 0), 1);
    ck_assert_uint_eq(qs_counter(q, 0, 2, 0), 0);
    qs_destroy(q);
}
END_TEST

START_TEST(test_checkpoints)
{
    qs_monitor *q = qs_create(1);
    qs_set_counter(q, 0, 0x10000020u, 1); /* classwise: group 2 */
    qs_set_counter(q, 1, 0x10001021u, 1); /* single: group 2, index 1 */
    qs_set_histogram(q, 0x10000030u, 1); /* histogram of group 3 */
    qs_checkpoint(q, 0, 0, 0x20);
    qs_checkpoint(q, 0, 0, 0x21);
    qs_checkpoint(q, 0, 0, 0x21);
    qs_checkpoint(q, 0, 0, 0x31);
    qs_checkpoint(q, 0, 0, 0x3F);
    qs_checkpoint(q, 0, 0, 0x121); /* group 0x12: not group 2 */
    ck_assert_uint_eq(qs_counter(q, 0, 0, 0), 3);
    ck_assert_uint_eq(qs_counter(q, 0, 0, 1), 2);
    ck_assert_uint_eq(qs_histogram(q, 0, 0, 1), 1);
    ck_assert_uint_eq(qs_histogram(q, 0, 0, 15), 1);
    ck_assert_uint_eq(qs_histogram(q, 0, 0, 0), 0);
    qs_destroy(q);
}
END_TEST

/* Fig. 3.6's records (with the EndRecord the printed figure lost before
 * its last record), a group, every operation and the histogram keywords. */
static const char *const good_config =
    "; a comment\n"
    "Name \"Cache_Statistics.Data_Cache_Hit_Ratio\"\n"
    "CounterMasks #x201EFF20 #x201EFF3F\n"
    "CounterOperation Value 0 Value 1 DivMul 100 0 1\n"
    "HeaderStrings \"#ofCachedDataAcc\" \"#ofDataAcc\" \"DCache-HR\"\n"
    "TimeFlag 1\n"
    "Help \"Offers 3 figures: Number of Cached Data Accesses,\n"
    "   Number of Total Data Accesses, and\n"
    "   Data Cache Hit Ratio\"\n"
    "EndRecord\n"
    "Name \"Cache_Statistics.Cached_Local_Local_Data_Accesses\"\n"
    "CounterMasks #x201EF320 #x201EF33F\n"
    "CounterOperation Value 0 Value 1 DivMul 100 0 1\n"
    "HeaderStrings \"Cached Local-Local-Data Accesses\"\n"
    "    \"Total Local-Local-Data Accesses\"\n"
    "    \"Cached-Local-Local-Data\"\n"
    "TimeFlag 1\n"
    "EndRecord\n"
    "Name \"Cache_Statistics.Cached_Local_Global_Data_Accesses\"\n"
    "CounterMasks #x201EF520 #x201EF53F\n"
    "CounterOperation Value 0 Value 1 DivMul 100 0 1\n"
    "HeaderStrings \"a\" \"b\" \"c\"\n"
    "EndRecord\n"
    "Name \"Cache_Statistics.Cached_Remote_Global_Data_Accesses\"\n"
    "CounterMasks #x201EF920 #x201EF93F\n"
    "CounterOperation Value 0 Value 1 DivMul 100 0 1\n"
    "HeaderStrings \"a\" \"b\" \"c\"\n"
    "EndRecord\n"
    "Name \"Ops\"\n"
    "CounterMasks #x201EF920 #x201EF93F #x201EF520 #x201EF53F\n"
    "CounterOperation Div 0 1 Sum 0 1 2 3 Mul 1 2 3 Sub 3 0 Value 2\n"
    "HeaderStrings \"div\" \"sum\" \"mul\" \"sub\" \"value\"\n"
    "Accumulator 0\n"
    "EndRecord\n"
    "Name \"Hops\"\n"
    "HistogramMask #x90020008\n"
    "HistogramHeaderStrings \"RDATA hops\"\n"
    "HistogramOperation Histogram\n"
    "TimeFlag 1\n"
    "EndRecord\n"
    "GroupNames \"Cache\"\n"
    "StatisticsNames \"Cache_Statistics.Data_Cache_Hit_Ratio\"\n"
    "  \"Cache_Statistics.Cached_Local_Local_Data_Accesses\"\n"
    "  \"Cache_Statistics.Cached_Local_Global_Data_Accesses\"\n"
    "  \"Cache_Statistics.Cached_Remote_Global_Data_Accesses\"\n"
    "EndRecord\n"
    "EndOfFile\n";

START_TEST(test_config_good)
{
    qs_config c;
    char err[256] = "";
    ck_assert_msg(qs_config_parse(good_config, "good.qs", &c, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(c.n, 7);
    const qs_record *r = qs_config_find(&c, "Cache_Statistics.Data_Cache_Hit_Ratio");
    ck_assert_ptr_nonnull(r);
    ck_assert_int_eq(r->nmasks, 2);
    ck_assert_uint_eq(r->mask[0], 0x201EFF20u);
    ck_assert_int_eq(r->nops, 3);
    ck_assert_str_eq(r->header[2], "DCache-HR");
    ck_assert_int_eq(r->timeflag, 1);
    ck_assert_str_eq(r->help, "Offers 3 figures: Number of Cached Data Accesses, Number of Total "
                              "Data Accesses, and Data Cache Hit Ratio");
    uint64_t cv[4] = {331, 332, 0, 0};
    double res[QS_MAX_OPS];
    qs_evaluate(r, cv, res);
    ck_assert(res[0] == 331 && res[1] == 332);
    ck_assert(fabs(res[2] - 99.69879518072288) < 1e-9); /* Fig. 3.9's first row */
    const qs_record *ops = qs_config_find(&c, "Ops");
    uint64_t v4[4] = {6, 3, 4, 10};
    qs_evaluate(ops, v4, res);
    ck_assert(res[0] == 2 && res[1] == 23 && res[2] == 120 && res[3] == 4 && res[4] == 4);
    uint64_t zero[4] = {6, 0, 4, 10};
    qs_evaluate(ops, zero, res);
    ck_assert(isnan(res[0]));
    const qs_record *h = qs_config_find(&c, "Hops");
    ck_assert(h->has_hist && h->hist_mask == 0x90020008u && h->nops == 0);
    ck_assert_ptr_null(qs_config_find(&c, "Cache")); /* a group, not a statistic */
    qs_config_free(&c);
}
END_TEST

START_TEST(test_allocator)
{
    qs_config c;
    char err[256] = "";
    ck_assert_int_eq(qs_config_parse(good_config, "good.qs", &c, err, sizeof err), 0);
    qs_plan *pl = malloc(sizeof *pl);
    /* 3.2.3's example: four statistics of two events each, eight events: two
     * runs, the first two statistics in the first */
    ck_assert_msg(qs_plan_make(&c, "Cache", pl, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(pl->nselected, 4);
    ck_assert_int_eq(pl->nruns, 2);
    ck_assert_int_eq(pl->run[0].ncounters, 4);
    ck_assert_int_eq(pl->run_of[0], 0);
    ck_assert_int_eq(pl->run_of[1], 0);
    ck_assert_int_eq(pl->run_of[2], 1);
    ck_assert_int_eq(pl->run_of[3], 1);
    ck_assert_uint_eq(pl->run[1].counter[pl->slot[3][1]], 0x201EF93Fu);
    /* duplicate events are counted once: Ops shares its four masks with the
     * last two statistics */
    ck_assert_int_eq(qs_plan_make(&c, "Cache_Statistics.Cached_Local_Global_Data_Accesses,"
                                      "Cache_Statistics.Cached_Remote_Global_Data_Accesses,Ops,"
                                      "Hops",
                                  pl, err, sizeof err),
                     0);
    ck_assert_int_eq(pl->nruns, 1);
    ck_assert_int_eq(pl->run[0].ncounters, 4);
    ck_assert(pl->run[0].has_hist);
    /* everything: 8 distinct events (Ops shares its masks) and a histogram,
     * which goes with the first run */
    ck_assert_int_eq(qs_plan_make(&c, NULL, pl, err, sizeof err), 0);
    ck_assert_int_eq(pl->nselected, 6);
    ck_assert_int_eq(pl->nruns, 2);
    ck_assert_int_eq(pl->run_of[4], 1);
    ck_assert_int_eq(pl->run_of[5], 0);
    ck_assert(pl->run[0].has_hist && !pl->run[1].has_hist);
    /* an unknown name */
    ck_assert_int_eq(qs_plan_make(&c, "Nope", pl, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "Nope"));
    free(pl);
    qs_config_free(&c);
}
END_TEST

/* One bad file: the error must name file and line and say `what`. */
static void bad_config(const char *text, int line, const char *what)
{
    qs_config c;
    char err[256] = "", want[64];
    ck_assert_int_eq(qs_config_parse(text, "bad.qs", &c, err, sizeof err), -1);
    snprintf(want, sizeof want, "bad.qs:%d: ", line);
    ck_assert_msg(!strncmp(err, want, strlen(want)), "'%s' does not start with '%s'", err, want);
    ck_assert_msg(strstr(err, what) != NULL, "'%s' does not say '%s'", err, what);
}

START_TEST(test_config_errors)
{
    bad_config("Name \"a\"\nCounterMasks #x1\nFrobnicate 3\nEndRecord\nEndOfFile\n", 3,
               "unknown keyword 'Frobnicate'");
    bad_config("Name \"a\"\nCounterMasks #x1\nCounterOperation Value 0\nHeaderStrings \"x\"\n"
               "EndOfFile\n",
               5, "missing EndRecord");
    bad_config("Name \"a\"\nCounterMasks #x1\nCounterOperation Value 0\nHeaderStrings \"x\"\n"
               "EndRecord\n",
               6, "no EndOfFile");
    bad_config("Name \"a\"\nCounterMasks #xZZ\nEndRecord\nEndOfFile\n", 2, "#xZZ");
    bad_config("\n\nName \"a\"\nCounterMasks #x1 #x2\nCounterOperation Div 0 2\n"
               "HeaderStrings \"x\"\nEndRecord\nEndOfFile\n",
               3, "counter 2");
    bad_config("Name \"a\"\nCounterMasks #x1\nCounterOperation Value 0 Value 0\n"
               "HeaderStrings \"x\"\nEndRecord\nEndOfFile\n",
               1, "2 operations but 1 HeaderStrings");
    bad_config("Name \"a\"\nHelp \"never closed\nEndRecord\nEndOfFile\n", 2, "not closed");
    bad_config("GroupNames \"g\"\nStatisticsNames \"missing\"\nEndRecord\nEndOfFile\n", 1,
               "no statistic named 'missing'");
    bad_config("Name \"a\"\nCounterMasks #x1 #x2 #x3 #x4 #x5\nEndRecord\nEndOfFile\n", 2,
               "more than 4 CounterMasks");
    bad_config("Name \"a\"\nCounterMasks #x1\nCounterOperation Value 7\nHeaderStrings \"x\"\n"
               "EndRecord\nEndOfFile\n",
               3, "not a counter number");
    bad_config("Name \"a\"\nHistogramMask #x90020008\nHistogramOperation Average\nEndRecord\n"
               "EndOfFile\n",
               3, "only Histogram");
    bad_config("Name \"a\"\nCounterMasks #x1\nTimeFlag 2\nEndRecord\nEndOfFile\n", 3,
               "TimeFlag takes 0 or 1");
    bad_config("Name \"a\"\nCounterMasks #x1\nName \"b\"\nEndRecord\nEndOfFile\n", 3,
               "before the EndRecord");
    bad_config("Name \"a\"\nEndRecord\nEndOfFile\n", 1, "neither CounterMasks");
    bad_config("EndOfFile\nName \"a\"\n", 2, "after EndOfFile");
    bad_config("CounterMasks #x1\n", 1, "outside a record");
    bad_config("\nName \"lat\"\nCounterMasks #x70060002 #x71060002\nCounterOperation Div 0 1\n"
               "HeaderStrings \"x\"\nAccumulator 1\nEndRecord\nEndOfFile\n",
               2, "Accumulator 1 needs counter 0");
}
END_TEST

/* The LimitLESS representation against the bit vector: random adds,
 * removes and clears on 16 and 64 nodes give the same members in the same
 * next() order; the sixth member traps and frees the hardware pointers. */
START_TEST(test_limitless_sets)
{
    for (int nn = 16; nn <= 64; nn += 48) {
        dsm_sharers ll, bv;
        ck_assert_int_eq(dsm_sharers_init_with(&ll, nn, &dsm_sharers_limitless), 0);
        ck_assert_int_eq(dsm_sharers_init(&bv, nn), 0);
        uint64_t x = 12345;
        for (int step = 0; step < 20000; step++) {
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            int node = (int)((x >> 33) % (uint64_t)nn), op = (int)((x >> 20) % 16);
            if (op < 9) {
                sharers_add(&ll, node);
                sharers_add(&bv, node);
            } else if (op < 15) {
                sharers_remove(&ll, node);
                sharers_remove(&bv, node);
            } else {
                sharers_clear(&ll);
                sharers_clear(&bv);
            }
            ck_assert_int_eq(sharers_count(&ll), sharers_count(&bv));
            ck_assert_int_eq(sharers_contains(&ll, node), sharers_contains(&bv, node));
            int a = sharers_next(&ll, 0), b = sharers_next(&bv, 0);
            while (a >= 0 || b >= 0) {
                ck_assert_int_eq(a, b);
                a = sharers_next(&ll, a + 1);
                b = sharers_next(&bv, b + 1);
            }
            ck_assert_int_le(dsm_sharers_limitless_hardware(&ll), DSM_LIMITLESS_POINTERS);
        }
        ck_assert_uint_gt(dsm_sharers_limitless_traps(&ll), 0);
        dsm_sharers_destroy(&ll);
        dsm_sharers_destroy(&bv);
    }
    dsm_sharers s;
    ck_assert_int_eq(dsm_sharers_init_with(&s, 64, &dsm_sharers_limitless), 0);
    for (int node = 63; node > 58; node--)
        sharers_add(&s, node);
    sharers_add(&s, 60); /* already there: no pointer, no trap */
    ck_assert_uint_eq(dsm_sharers_limitless_traps(&s), 0);
    ck_assert_int_eq(dsm_sharers_limitless_hardware(&s), 5);
    sharers_add(&s, 3);
    ck_assert_uint_eq(dsm_sharers_limitless_traps(&s), 1);
    ck_assert_int_eq(dsm_sharers_limitless_hardware(&s), 1);
    ck_assert_int_eq(sharers_count(&s), 6);
    ck_assert_int_eq(sharers_next(&s, 0), 3);
    ck_assert_int_eq(sharers_next(&s, 4), 59);
    for (int node = 10; node < 15; node++)
        sharers_add(&s, node);
    ck_assert_uint_eq(dsm_sharers_limitless_traps(&s), 2);
    dsm_sharers_destroy(&s);
}
END_TEST

/* Seven processors read one line homed at node 0: the sixth pointer traps
 * to software (5 hardware pointers), and the packets are RREQ and RDATA with
 * their mesh hops. */
START_TEST(test_limitless_on_machine)
{
    const uintptr_t base = 0x10000000;
    const size_t bytes = 1 << 20;
    sim_params p;
    char err[256];
    ck_assert_int_eq(sim_params_for("alewife", 8, &p, err, sizeof err), 0);
    ck_assert_int_eq(p.line_size, 16);
    ck_assert_int_eq(p.cache_size, 65536);
    ck_assert_int_eq(p.assoc, 1);
    ck_assert(sim_timing_alewife.clock_hz == 33e6); /* dsm_wtime's seconds at 33 MHz */
    ck_assert_int_eq(sim_params_set(&p, "qs_hist=90010001", err, sizeof err), 0);
    ck_assert_int_eq(sim_params_set(&p, "limitless_trap=500", err, sizeof err), 0);
    ck_assert_int_eq(sim_params_set(&p, "qs9=1", err, sizeof err), -1);
    ck_assert_int_eq(sim_params_set(&p, "qs0=nothex", err, sizeof err), -1);
    sim_machine *m = sim_create(&p, base, bytes, err, sizeof err);
    ck_assert_msg(m != NULL, "%s", err);
    ck_assert_int_eq(sim_place(m, base, bytes, 0), 0);
    void *model = sim_timing_model(m);
    sim_time lat[8] = {0};
    for (int proc = 1; proc < 8; proc++) {
        sim_set_clock(m, proc, (sim_time)proc * 10000); /* one at a time: no queuing at the home */
        sim_time t0 = sim_clock(m, proc);
        ck_assert_int_eq(sim_ref(m, proc, base, 4, 0, -1), SIM_STALL);
        for (int guard = 0; sim_stalled(m, proc) && guard < 1000; guard++)
            ck_assert_int_eq(sim_run_until(m, sim_next_event(m)), 0);
        ck_assert(!sim_stalled(m, proc));
        lat[proc] = sim_clock(m, proc) - t0;
    }
    ck_assert_uint_eq(sim_alewife_limitless_traps(model), 1);
    ck_assert_uint_eq(sim_alewife_packets(model, QS_RREQ), 7);
    ck_assert_uint_eq(sim_alewife_packets(model, QS_RDATA), 7);
    /* the sixth reader (processor 6) paid the trap; processor 1 (1 hop) and
     * processor 5 (3 hops) differ by the hops both ways */
    ck_assert_uint_eq(lat[6] - lat[2], 500 + 2 * (sim_alewife_hops(0, 6) - 1));
    ck_assert_uint_eq(lat[5] - lat[1], 2 * 2);
    /* alewife.c's arithmetic: a clean read 1 hop away costs 37 cycles, 2 hops
     * 39, each + 2 of the processor's instructions before it (instr) */
    ck_assert_uint_eq(lat[1], 37 + 2);
    ck_assert_uint_eq(lat[3], 39 + 2);
    /* a local miss of node 0 costs local_miss (11) + instr */
    sim_set_clock(m, 0, 100000);
    sim_time t0 = sim_clock(m, 0);
    ck_assert_int_eq(sim_ref(m, 0, base + 4096, 4, 0, -1), SIM_STALL);
    while (sim_stalled(m, 0))
        ck_assert_int_eq(sim_run_until(m, sim_next_event(m)), 0);
    ck_assert_uint_eq(sim_clock(m, 0) - t0, 11 + 2);
    /* RREQ by hops, at the senders */
    qs_monitor *q = sim_alewife_monitor(model);
    for (int proc = 1; proc < 8; proc++)
        ck_assert_uint_eq(qs_histogram(q, proc, 0, sim_alewife_hops(0, proc)), 1);
    /* a write to the overflowed line is served by software too */
    sim_set_clock(m, 1, 200000);
    ck_assert_int_eq(sim_ref(m, 1, base, 4, 1, -1), SIM_STALL);
    while (sim_stalled(m, 1))
        ck_assert_int_eq(sim_run_until(m, sim_next_event(m)), 0);
    ck_assert_uint_eq(sim_alewife_limitless_traps(model), 2);
    ck_assert_uint_eq(sim_alewife_packets(model, QS_INVR), 6);
    sim_destroy(m);
    /* 65 nodes are refused */
    ck_assert_int_eq(sim_params_for("alewife", 65, &p, err, sizeof err), 0);
    ck_assert_ptr_null(sim_create(&p, base, bytes, err, sizeof err));
    ck_assert_ptr_nonnull(strstr(err, "1 .. 64"));
}
END_TEST

/* Private memory on the Alewife (sim_ref_private): a miss is served by the
 * processor's own memory in local_miss cycles, a hit costs hit_cycles, the
 * line shares the direct-mapped cache with the shared lines (here both map
 * onto set 0, so each evicts the other), and the reference observer sees it
 * with home SIM_HOME_PRIVATE.  Machines without private_miss ignore it. */
static int private_seen, private_missed;
static void count_private(void *arg, int proc, int is_write, int outcome, int home, sim_time t)
{
    (void)arg;
    (void)proc;
    (void)is_write;
    (void)t;
    if (home == SIM_HOME_PRIVATE) {
        private_seen++;
        private_missed += outcome == SIM_REF_MISS;
    }
}

static sim_time shared_ref(sim_machine *m, int proc, uintptr_t a)
{
    sim_time t0 = sim_clock(m, proc);
    int r = sim_ref(m, proc, a, 4, 0, -1);
    ck_assert_int_ge(r, 0);
    for (int guard = 0; sim_stalled(m, proc) && guard < 1000; guard++)
        ck_assert_int_eq(sim_run_until(m, sim_next_event(m)), 0);
    ck_assert(!sim_stalled(m, proc));
    return sim_clock(m, proc) - t0;
}

START_TEST(test_private_memory)
{
    const uintptr_t base = 0x10000000, priv = 0x7f0000000000; /* both at set 0 */
    const size_t bytes = 1 << 20;
    sim_params p;
    char err[256];
    ck_assert_int_eq(sim_params_for("alewife", 2, &p, err, sizeof err), 0);
    sim_machine *m = sim_create(&p, base, bytes, err, sizeof err);
    ck_assert_msg(m != NULL, "%s", err);
    ck_assert_int_eq(sim_place(m, base, bytes, 0), 0);
    ck_assert(sim_has_private_memory(m));
    ck_assert_int_eq(sim_on_ref(m, count_private, NULL), 0);
    /* every reference also pays instr = 2 cycles of instructions */
    ck_assert_uint_eq(shared_ref(m, 0, base), 11 + 2); /* a local shared miss */
    ck_assert_uint_eq(shared_ref(m, 0, base), 1 + 2);
    sim_time t0 = sim_clock(m, 0);
    ck_assert_int_eq(sim_ref_private(m, 0, priv, 8, 0), SIM_STALL); /* a miss: decide */
    ck_assert(!sim_stalled(m, 0));
    ck_assert_uint_eq(sim_clock(m, 0) - t0, 11 + 2);
    ck_assert_int_eq(sim_ref_private(m, 0, priv + 4, 4, 1), SIM_HIT);
    ck_assert_uint_eq(sim_clock(m, 0) - t0, 13 + 3);
    /* the private line took set 0: the shared line misses again, and back */
    ck_assert_uint_eq(shared_ref(m, 0, base), 11 + 2);
    t0 = sim_clock(m, 0);
    ck_assert_int_eq(sim_ref_private(m, 0, priv + 12, 8, 0), SIM_STALL); /* two lines */
    ck_assert_uint_eq(sim_clock(m, 0) - t0, 2 * (11 + 2));
    ck_assert_uint_eq(sim_private_references(m), 3);
    ck_assert_uint_eq(sim_private_misses(m), 3);
    ck_assert_int_eq(private_seen, 4);
    ck_assert_int_eq(private_missed, 3);
    /* the other processor's cache is its own */
    ck_assert_int_eq(sim_ref_private(m, 1, priv, 8, 0), SIM_STALL);
    sim_destroy(m);
    /* other machines simulate shared memory only */
    ck_assert_int_eq(sim_params_for("uniform", 2, &p, err, sizeof err), 0);
    m = sim_create(&p, base, bytes, err, sizeof err);
    ck_assert_msg(m != NULL, "%s", err);
    ck_assert(!sim_has_private_memory(m));
    t0 = sim_clock(m, 0);
    ck_assert_int_eq(sim_ref_private(m, 0, priv, 8, 0), SIM_HIT);
    ck_assert_uint_eq(sim_clock(m, 0), t0);
    ck_assert_uint_eq(sim_private_references(m), 0);
    sim_destroy(m);
}
END_TEST

/* A QuickStep register that wraps traps to software on its node, and the
 * trap's cycles (overflow_trap) are paid by the node's next handler: its
 * next miss, shared or private, is that much longer; nothing is paid twice. */
START_TEST(test_overflow_trap_charged)
{
    const uintptr_t base = 0x10000000;
    const size_t bytes = 1 << 20;
    sim_params p;
    char err[256];
    ck_assert_int_eq(sim_params_for("alewife", 2, &p, err, sizeof err), 0);
    ck_assert_int_eq(sim_params_set(&p, "overflow_trap=300", err, sizeof err), 0);
    ck_assert_int_eq(sim_params_set(&p, "overflow_trap=100001", err, sizeof err), -1);
    sim_machine *m = sim_create(&p, base, bytes, err, sizeof err);
    ck_assert_msg(m != NULL, "%s", err);
    ck_assert_int_eq(sim_place(m, base, bytes, 0), 0);
    qs_monitor *q = sim_alewife_monitor(sim_timing_model(m));
    qs_set_histogram(q, 0x90020008u, 1); /* RDATA received, by hops */
    ck_assert_uint_eq(shared_ref(m, 0, base), 13); /* local_miss + instr */
    for (uint32_t i = 0; i < (1u << 20); i++) /* the 20-bit register wraps once */
        qs_packet(q, 0, 0, QS_RDATA, 2, 1);
    ck_assert_uint_eq(qs_overflow_traps(q, 0), 1);
    ck_assert_uint_eq(shared_ref(m, 0, base + 16), 13 + 300);
    ck_assert_uint_eq(shared_ref(m, 0, base + 32), 13);
    sim_set_clock(m, 1, 10000); /* node 0's controller is idle by then */
    ck_assert_uint_eq(shared_ref(m, 1, base + 48), 39); /* node 1 took no trap */
    for (uint32_t i = 0; i < (1u << 20); i++)
        qs_packet(q, 0, 0, QS_RDATA, 2, 1);
    sim_set_clock(m, 0, 20000); /* after node 0 served processor 1 */
    sim_time t0 = sim_clock(m, 0);
    ck_assert_int_eq(sim_ref_private(m, 0, 0x7f0000000000, 8, 0), SIM_STALL);
    ck_assert_uint_eq(sim_clock(m, 0) - t0, 13 + 300);
    sim_destroy(m);
}
END_TEST

/* Instruction time (alewife.c): every reference pays instr = hit_cycles - 1
 * cycles of the processor's instructions, hit or miss; hit_cycles=1 turns
 * it off (the miss costs its memory system alone), hit_cycles=5 doubles it.
 * The instructions are the processor's: they do not occupy the CMMU, so a
 * request from another node reaching it meanwhile is not delayed. */
START_TEST(test_instruction_time)
{
    const uintptr_t base = 0x10000000;
    const size_t bytes = 1 << 20;
    static const struct {
        const char *opt;
        sim_time hit, local, remote;
    } cases[] = {{NULL, 3, 13, 39}, {"hit_cycles=1", 1, 11, 37}, {"hit_cycles=5", 5, 15, 41}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        sim_params p;
        char err[256];
        ck_assert_int_eq(sim_params_for("alewife", 2, &p, err, sizeof err), 0);
        if (cases[c].opt)
            ck_assert_int_eq(sim_params_set(&p, cases[c].opt, err, sizeof err), 0);
        sim_machine *m = sim_create(&p, base, bytes, err, sizeof err);
        ck_assert_msg(m != NULL, "%s", err);
        ck_assert_int_eq(sim_place(m, base, bytes, 0), 0);
        ck_assert_uint_eq(shared_ref(m, 0, base), cases[c].local);
        ck_assert_uint_eq(shared_ref(m, 0, base), cases[c].hit);
        sim_set_clock(m, 1, 10000);
        ck_assert_uint_eq(shared_ref(m, 1, base + 16), cases[c].remote);
        sim_destroy(m);
    }
}
END_TEST

/* The host at node 15 (the last node of a smaller machine) in timesliced
 * collection with host_reports=1: at the start of slice k node k mod P reports the records
 * buffered since its last report, one MSG packet of 8 + 160 B a slice, its
 * hops to the host's node + 1 (the host link); its SPARCLE pays
 * report_trap + the wire time at its next handler. */
START_TEST(test_host_reports)
{
    const uintptr_t base = 0x10000000;
    const size_t bytes = 1 << 20;
    sim_params p;
    char err[256];
    ck_assert_int_eq(sim_params_for("alewife", 4, &p, err, sizeof err), 0);
    ck_assert_int_eq(sim_params_set(&p, "qs_slice=1000", err, sizeof err), 0);
    ck_assert_int_eq(sim_params_set(&p, "qs_hist=90011000", err, sizeof err), 0);
    ck_assert_int_eq(sim_params_set(&p, "host_reports=1", err, sizeof err), 0);
    ck_assert_int_eq(sim_params_set(&p, "host_reports=2", err, sizeof err), -1);
    sim_machine *m = sim_create(&p, base, bytes, err, sizeof err);
    ck_assert_msg(m != NULL, "%s", err);
    ck_assert_int_eq(sim_place(m, base, bytes, 0), 0);
    void *model = sim_timing_model(m);
    int host;
    uint64_t reports, nbytes;
    sim_alewife_host_reports(model, &host, &reports, &nbytes);
    ck_assert_int_eq(host, 3);
    ck_assert_uint_eq(reports, 0);
    sim_set_clock(m, 0, 5500); /* slices 1-5 began: nodes 1, 2, 3, 0, 1 report */
    ck_assert_uint_eq(shared_ref(m, 0, base), 11 + 2 + 50 + (8 + 4 * 160) / 2);
    sim_alewife_host_reports(model, &host, &reports, &nbytes);
    ck_assert_uint_eq(reports, 5);
    ck_assert_uint_eq(nbytes, 5 * 8 + (1 + 2 + 3 + 4 + 4) * 160);
    ck_assert_uint_eq(sim_alewife_packets(model, QS_MSG), 5);
    qs_monitor *q = sim_alewife_monitor(model);
    /* node 1 is 1 hop from node 3: 2 with the host link, in slices 1 and 5 */
    ck_assert_uint_eq(qs_histogram(q, 1, 1, 2), 1);
    ck_assert_uint_eq(qs_histogram(q, 1, 5, 2), 1);
    ck_assert_uint_eq(qs_histogram(q, 3, 3, 1), 1); /* the host's own node */
    ck_assert_uint_eq(shared_ref(m, 0, base + 16), 13); /* paid once */
    sim_destroy(m);
    /* overall collection sends nothing during the run; a host off the machine is refused */
    ck_assert_int_eq(sim_params_for("alewife", 16, &p, err, sizeof err), 0);
    ck_assert_int_eq(sim_params_set(&p, "host_node=20", err, sizeof err), 0);
    ck_assert_ptr_null(sim_create(&p, base, bytes, err, sizeof err));
    ck_assert_ptr_nonnull(strstr(err, "host_node"));
    ck_assert_int_eq(sim_params_for("alewife", 16, &p, err, sizeof err), 0);
    m = sim_create(&p, base, bytes, err, sizeof err);
    ck_assert_msg(m != NULL, "%s", err);
    ck_assert_int_eq(sim_place(m, base, bytes, 0), 0);
    sim_set_clock(m, 0, 5500);
    ck_assert_uint_eq(shared_ref(m, 0, base), 13);
    sim_alewife_host_reports(sim_timing_model(m), &host, &reports, &nbytes);
    ck_assert_int_eq(host, 15);
    ck_assert_uint_eq(reports, 0);
    sim_destroy(m);
}
END_TEST

/* A read of a line another cache holds dirty invalidates the owner, as
 * Alewife's protocol does (alewife.c): the home sends the owner an INV
 * (class INVW), the owner gives the line up, and its next read of it
 * misses.  read_recall=keep (the other machines' default) leaves it a
 * copy: the same read then hits. */
static int ref_done(sim_machine *m, int proc, uintptr_t a, int is_write)
{
    int r = sim_ref(m, proc, a, 4, is_write, -1);
    ck_assert_int_ge(r, 0);
    for (int guard = 0; sim_stalled(m, proc) && guard < 1000; guard++)
        ck_assert_int_eq(sim_run_until(m, sim_next_event(m)), 0);
    ck_assert(!sim_stalled(m, proc));
    return r;
}

START_TEST(test_read_invalidates_owner)
{
    const uintptr_t base = 0x10000000;
    const size_t bytes = 1 << 20;
    for (int keep = 0; keep < 2; keep++) {
        sim_params p;
        char err[256];
        ck_assert_int_eq(sim_params_for("alewife", 4, &p, err, sizeof err), 0);
        ck_assert_int_eq(p.downgrade_on_read, 0);
        if (keep)
            ck_assert_int_eq(sim_params_set(&p, "read_recall=keep", err, sizeof err), 0);
        sim_machine *m = sim_create(&p, base, bytes, err, sizeof err);
        ck_assert_msg(m != NULL, "%s", err);
        ck_assert_int_eq(sim_place(m, base, bytes, 0), 0);
        void *model = sim_timing_model(m);
        ck_assert_int_eq(ref_done(m, 1, base, 1), SIM_STALL); /* processor 1 owns it dirty */
        sim_set_clock(m, 2, sim_clock(m, 1) + 1000);
        ck_assert_int_eq(ref_done(m, 2, base, 0), SIM_STALL); /* processor 2 reads it */
        ck_assert_uint_eq(sim_alewife_packets(model, QS_INVW), 1);
        sim_set_clock(m, 1, sim_clock(m, 2) + 1000);
        ck_assert_int_eq(ref_done(m, 1, base, 0), keep ? SIM_HIT : SIM_STALL);
        ck_assert_uint_eq(sim_alewife_packets(model, QS_RREQ), keep ? 1 : 2);
        sim_destroy(m);
    }
}
END_TEST

Suite *unit_suite(void)
{
    Suite *s = suite_create("quickstep");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_numbering_16);
    tcase_add_test(tc, test_numbering_64);
    tcase_add_test(tc, test_cache_masks);
    tcase_add_test(tc, test_network_and_histogram);
    tcase_add_test(tc, test_overflow_to_software);
    tcase_add_test(tc, test_timeslices);
    tcase_add_test(tc, test_checkpoints);
    tcase_add_test(tc, test_config_good);
    tcase_add_test(tc, test_allocator);
    tcase_add_test(tc, test_config_errors);
    tcase_add_test(tc, test_limitless_sets);
    tcase_add_test(tc, test_limitless_on_machine);
    tcase_add_test(tc, test_private_memory);
    tcase_add_test(tc, test_overflow_trap_charged);
    tcase_add_test(tc, test_instruction_time);
    tcase_add_test(tc, test_host_reports);
    tcase_add_test(tc, test_read_invalidates_owner);
    suite_add_tcase(s, tc);
    return s;
}
