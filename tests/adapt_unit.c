/* adapt_unit.c - the adaptive protocol (proto_config.adapt) on the real
 * engines of a few nodes joined by a FIFO channel: a read of a block
 * detected migratory is granted exclusive (the write that follows needs no
 * upgrade), a reader so granted that did not write makes the block fall
 * back to shared grants, a consumer's read of a producer-consumer block
 * leaves the producer a read copy, the home counts all three, the
 * adaptation's state survives a snapshot, and an engine without the option never
 * grants a read exclusive. */
#include <stdlib.h>
#include <string.h>

#define ENGINE_SYS_NBLK 8
#include "engine_sys.h"

static void setup_adapt(void)
{
    sys_adapt = 1;
    sys_clean_wb = 0;
    setup_sys_opts(1, 0, 0);
}

static void teardown_adapt(void)
{
    teardown_sys();
    sys_adapt = 0;
    sys_clean_wb = 0;
}

static proto_adapt_counts counts(int node)
{
    proto_adapt_counts c;
    proto_adapt_counts_of(E[node], &c);
    return c;
}

static proto_block_patterns pat(int b)
{
    proto_block_patterns p;
    ck_assert_int_eq(proto_patterns_of(E[0], (uint32_t)b, &p), PROTO_OK);
    return p;
}

/* nodes 1 and 2 each read then write block b: migratory at node 2's upgrade */
static void make_migratory(int b)
{
    R(1, b);
    W(1, b);
    R(2, b);
    W(2, b);
    ck_assert(pat(b).migratory);
}

static int writable(int node, int b)
{
    proto_cache_state s = proto_cache_state_of(E[node], (uint32_t)b);
    return s == PC_M || s == PC_MH;
}

START_TEST(migratory_read_granted_exclusive)
{
    make_migratory(1);
    uint64_t msgs = 0;
    R(3, 1); /* one miss: recall from node 2, DATA_X to node 3 */
    ck_assert_msg(writable(3, 1), "the read of a migratory block is granted exclusive");
    ck_assert_int_eq(proto_cache_state_of(E[2], 1), PC_I);
    ck_assert_uint_eq(counts(0).exclusive_reads, 1);
    /* the write that follows hits: no message at all */
    ck_assert_int_eq(proto_access(E[3], 1, 1, &acts), PROTO_OK);
    for (size_t i = 0; i < acts.n; i++)
        msgs += acts.v[i].kind == PA_SEND;
    acts.n = 0;
    ck_assert_uint_eq(msgs, 0);
    W(3, 1);
    R(1, 1); /* node 3 wrote: the migration goes on */
    ck_assert(writable(1, 1));
    ck_assert_uint_eq(counts(0).exclusive_reads, 2);
    ck_assert_uint_eq(counts(0).fallbacks, 0);
}
END_TEST

START_TEST(reader_that_did_not_write_falls_back_to_shared)
{
    make_migratory(1);
    R(3, 1); /* granted exclusive */
    ck_assert(writable(3, 1));
    sys_clean_wb = 1; /* node 3 did not write: its copy comes back clean */
    R(1, 1);
    ck_assert_msg(!writable(1, 1), "a block read by two nodes falls back to shared grants");
    ck_assert_int_eq(proto_cache_state_of(E[1], 1), PC_S);
    proto_block_patterns p = pat(1);
    ck_assert(!p.migratory);
    ck_assert_uint_eq(counts(0).fallbacks, 1);
    R(2, 1); /* a plain shared read now: both keep their copies */
    ck_assert_int_eq(proto_cache_state_of(E[1], 1), PC_S);
    ck_assert_int_eq(proto_cache_state_of(E[2], 1), PC_S);
}
END_TEST

START_TEST(adaptation_survives_a_snapshot)
{
    make_migratory(1);
    R(3, 1);
    unsigned char buf[1 << 16];
    size_t l = proto_engine_save(E[0], buf, sizeof buf);
    ck_assert_uint_le(l, sizeof buf);
    proto_config c = { .self = 0, .nnodes = N, .nblocks = ENGINE_SYS_NBLK, .adapt = 1 };
    proto_engine *copy = proto_engine_create(&c);
    ck_assert_ptr_nonnull(copy);
    ck_assert_int_eq(proto_set_home(copy, 0, ENGINE_SYS_NBLK, 0), PROTO_OK);
    ck_assert_int_eq(proto_engine_load(copy, buf, l), PROTO_OK);
    proto_block_patterns p;
    ck_assert_int_eq(proto_patterns_of(copy, 1, &p), PROTO_OK);
    ck_assert(p.migratory);
    /* the restored home knows node 3 got the block by a read granted
     * exclusive: node 3 did not write, so node 1's read falls back */
    proto_engine_destroy(E[0]);
    E[0] = copy;
    sys_clean_wb = 1;
    R(1, 1);
    ck_assert_int_eq(proto_cache_state_of(E[1], 1), PC_S);
    ck_assert_uint_eq(counts(0).fallbacks, 1);
    ck_assert_uint_eq(counts(0).exclusive_reads, 0); /* counts of the run: not in snapshots */
}
END_TEST

/* node 1 produces block b, node 2 consumes it: producer-consumer at the
 * producer's second write */
static void make_producer_consumer(int b)
{
    W(1, b);
    R(2, b);
    W(1, b);
    ck_assert(pat(b).producer_consumer);
}

START_TEST(consumer_read_downgrades_the_producer)
{
    make_producer_consumer(2);
    R(2, 2); /* the consumer reads again: the producer keeps a read copy */
    ck_assert_int_eq(proto_cache_state_of(E[1], 2), PC_S);
    ck_assert_int_eq(proto_cache_state_of(E[2], 2), PC_S);
    ck_assert_uint_eq(counts(0).downgrades, 1);
    /* the producer's next write is an upgrade (no data), not a write miss */
    ck_assert_int_eq(proto_access(E[1], 2, 1, &acts), PROTO_OK);
    int upgrade = 0;
    for (size_t i = 0; i < acts.n; i++)
        upgrade |= acts.v[i].kind == PA_SEND && acts.v[i].msg.type == PM_UPGRADE;
    ck_assert_msg(upgrade, "the downgraded producer writes with an UPGRADE");
    pump();
    ck_assert_int_eq(proto_release(E[1], 2, &acts), PROTO_OK);
    pump();
    ck_assert(writable(1, 2));
    ck_assert_int_eq(proto_cache_state_of(E[2], 2), PC_I);
}
END_TEST

START_TEST(without_adapt_reads_stay_shared)
{
    sys_adapt = 0;
    teardown_sys();
    setup_sys_opts(1, 0, 0);
    make_migratory(1);
    R(3, 1);
    ck_assert_int_eq(proto_cache_state_of(E[3], 1), PC_S);
    ck_assert_uint_eq(counts(0).exclusive_reads, 0);
    make_producer_consumer(2);
    R(2, 2);
    ck_assert_int_eq(proto_cache_state_of(E[1], 2), PC_I); /* recalled, not downgraded */
}
END_TEST

Suite *unit_suite(void)
{
    Suite *s = suite_create("adapt");
    TCase *tc = tcase_create("adaptive protocol");
    tcase_add_checked_fixture(tc, setup_adapt, teardown_adapt);
    tcase_add_test(tc, migratory_read_granted_exclusive);
    tcase_add_test(tc, reader_that_did_not_write_falls_back_to_shared);
    tcase_add_test(tc, adaptation_survives_a_snapshot);
    tcase_add_test(tc, consumer_read_downgrades_the_producer);
    tcase_add_test(tc, without_adapt_reads_stay_shared);
    suite_add_tcase(s, tc);
    return s;
}
