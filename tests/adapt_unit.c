/* adapt_unit.c - the adaptive protocol (proto_config.adapt) on the real
 * engines of a few nodes joined by a FIFO channel: a read of a block
 * detected migratory is granted exclusive (the write that follows needs no
 * upgrade), a reader so granted that did not write makes the block fall
 * back to shared grants, a consumer's read of a producer-consumer block
 * leaves the producer a read copy, the home counts all three, the
 * adaptation's state survives a snapshot, and an engine without the option never
 * grants a read exclusive.  At the end of an epoch (proto_epoch_end) a
 * producer pushes its block to the last consumers and a migratory block's
 * owner flushes it home, also when the push or flush crosses the home's
 * recall or a consumer's read.  A read miss of a block of a detected group
 * brings the group's other blocks the home can grant at once along (bulk
 * fetch: shared, unowned, or its own M copies, which become read copies),
 * leaving out the ones owned elsewhere or held. */
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

static int nsends(int type)
{
    int n = 0;
    for (size_t i = 0; i < acts.n; i++)
        n += acts.v[i].kind == PA_SEND && (type < 0 || acts.v[i].msg.type == type);
    return n;
}

static void epoch_end(int node)
{
    ck_assert_int_eq(proto_epoch_end(E[node], PROTO_EPOCH_PUSH | PROTO_EPOCH_FLUSH, &acts), PROTO_OK);
    pump();
}

/* node `reader`'s read request for b reaches the home before what node
 * `ender`'s epoch end sends (the two cross) */
static void read_then_epoch_end(int reader, int b, int ender)
{
    ck_assert_int_eq(proto_access(E[reader], (uint32_t)b, 0, &acts), PROTO_OK);
    enqueue_sends();
    ck_assert_int_eq(proto_epoch_end(E[ender], PROTO_EPOCH_PUSH | PROTO_EPOCH_FLUSH, &acts), PROTO_OK);
    pump();
}

START_TEST(producer_pushes_to_its_consumers)
{
    W(1, 2);
    R(2, 2);
    R(3, 2);
    W(1, 2); /* producer-consumer: invalidates nodes 2 and 3, granted for a push */
    ck_assert(pat(2).producer_consumer);
    ck_assert_uint_eq(proto_epoch_pending(E[1]), 1);
    epoch_end(1);
    ck_assert_uint_eq(proto_epoch_pending(E[1]), 0);
    ck_assert_int_eq(proto_cache_state_of(E[1], 2), PC_S); /* keeps a read copy */
    ck_assert_int_eq(proto_cache_state_of(E[2], 2), PC_S);
    ck_assert_int_eq(proto_cache_state_of(E[3], 2), PC_S);
    ck_assert_int_eq(proto_dir_state_of(E[0], 2), PD_SHARED);
    ck_assert_int_eq(sharers_count(proto_dir_sharers(E[0], 2)), 3);
    ck_assert_uint_eq(counts(0).pushes, 1);
    ck_assert_uint_eq(counts(0).pushed, 2);
    /* the consumers' reads hit; the next pass pushes again */
    ck_assert_int_eq(proto_access(E[2], 2, 0, &acts), PROTO_OK);
    ck_assert_int_eq(nsends(-1), 0);
    acts.n = 0;
    W(1, 2);
    epoch_end(1);
    ck_assert_int_eq(proto_cache_state_of(E[2], 2), PC_S);
    ck_assert_uint_eq(counts(0).pushed, 4);
    /* a node that only wrote and nobody read since: no push asked */
    W(2, 5);
    ck_assert_uint_eq(proto_epoch_pending(E[2]), 0);
}
END_TEST

START_TEST(push_declined_by_a_reader_in_flight)
{
    make_producer_consumer(2);
    epoch_end(1); /* pushed: the consumer holds a copy */
    W(1, 2);      /* pass 2: the consumer is invalidated, a push is asked again */
    /* the push reaches the home before the consumer's read, and the
     * consumer while its read is in flight: it declines, its DATA_S follows */
    ck_assert_int_eq(proto_epoch_end(E[1], PROTO_EPOCH_PUSH | PROTO_EPOCH_FLUSH, &acts), PROTO_OK);
    enqueue_sends();
    ck_assert_int_eq(proto_access(E[2], 2, 0, &acts), PROTO_OK);
    pump();
    ck_assert_int_eq(proto_cache_state_of(E[2], 2), PC_SH);
    ck_assert_int_eq(proto_release(E[2], 2, &acts), PROTO_OK);
    /* listed by the push as a sharer, it acknowledges the next write's INV */
    W(1, 2);
    ck_assert_int_eq(proto_cache_state_of(E[2], 2), PC_I);
    ck_assert(writable(1, 2));
}
END_TEST

START_TEST(push_crosses_a_recall)
{
    make_producer_consumer(2);
    /* the consumer's read reaches the home first: the producer is
     * downgraded (RECALL_S) while its push is on the way */
    read_then_epoch_end(2, 2, 1);
    ck_assert_int_eq(proto_cache_state_of(E[1], 2), PC_S);
    ck_assert_int_eq(proto_cache_state_of(E[2], 2), PC_SH);
    ck_assert_int_eq(proto_dir_state_of(E[0], 2), PD_SHARED);
    ck_assert_int_eq(proto_release(E[2], 2, &acts), PROTO_OK);
    W(3, 2); /* both copies are invalidated */
    ck_assert_int_eq(proto_cache_state_of(E[1], 2), PC_I);
    ck_assert_int_eq(proto_cache_state_of(E[2], 2), PC_I);
}
END_TEST

START_TEST(migratory_owner_flushes_home)
{
    make_migratory(1);
    ck_assert_uint_eq(proto_epoch_pending(E[2]), 1);
    epoch_end(2);
    ck_assert_int_eq(proto_cache_state_of(E[2], 1), PC_I);
    ck_assert_int_eq(proto_dir_state_of(E[0], 1), PD_UNOWNED);
    ck_assert_uint_eq(counts(0).flushes, 1);
    /* the next reader is served from the home's memory, exclusive: no recall */
    ck_assert_int_eq(proto_access(E[3], 1, 0, &acts), PROTO_OK);
    pump();
    ck_assert(writable(3, 1));
    ck_assert_int_eq(proto_release(E[3], 1, &acts), PROTO_OK);
    ck_assert_uint_eq(counts(0).exclusive_reads, 1);
    W(3, 1);
    epoch_end(3); /* it wrote: still migratory */
    ck_assert(pat(1).migratory);
    /* a reader granted exclusive that does not write flushes a clean copy:
     * the block falls back to shared grants */
    R(1, 1);
    ck_assert(writable(1, 1));
    sys_clean_wb = 1;
    epoch_end(1);
    ck_assert(!pat(1).migratory);
    ck_assert_uint_eq(counts(0).fallbacks, 1);
    R(2, 1);
    ck_assert_int_eq(proto_cache_state_of(E[2], 1), PC_S);
}
END_TEST

START_TEST(wasted_flush_stops_flushing)
{
    make_migratory(1);
    epoch_end(2);
    R(2, 1); /* the flusher itself asks the block back: the flush was wasted */
    ck_assert(writable(2, 1));
    ck_assert_uint_eq(proto_epoch_pending(E[2]), 0); /* no flush asked this time */
    R(3, 1); /* another node takes it over by a recall: flushes resume */
    ck_assert(writable(3, 1));
    ck_assert_uint_eq(proto_epoch_pending(E[3]), 1);
    /* the home's own flush costs nothing: it keeps flushing */
    RMW(0, 1);
    ck_assert_uint_eq(proto_epoch_pending(E[0]), 1);
    epoch_end(0);
    R(0, 1);
    ck_assert_uint_eq(proto_epoch_pending(E[0]), 1);
}
END_TEST

START_TEST(flush_crosses_a_recall)
{
    make_migratory(1);
    /* node 3's read reaches the home first (recall of node 2), then node
     * 2's flush, taken as the recalled data; the RECALL finds node 2 in I */
    read_then_epoch_end(3, 1, 2);
    ck_assert(writable(3, 1));
    ck_assert_int_eq(proto_cache_state_of(E[2], 1), PC_I);
    ck_assert_int_eq(proto_dir_state_of(E[0], 1), PD_EXCL);
    ck_assert_int_eq(proto_dir_owner(E[0], 1), 3);
}
END_TEST

/* nodes 1 and 2 read blocks 1, 2, 3 in turn: node 2's reads confirm the
 * guesses node 1's left, so the three are a group (homed at node 0) */
static void make_group(void)
{
    for (int n = 1; n <= 2; n++)
        for (int b = 1; b <= 3; b++)
            R(n, b);
    ck_assert(pat(1).access_in_group && pat(2).access_in_group && pat(3).access_in_group);
}

START_TEST(group_read_brings_the_others)
{
    make_group();
    R(3, 1); /* one miss: DATA_S for 1, GROUP_DATA for 2 and 3 */
    ck_assert_int_eq(proto_cache_state_of(E[3], 2), PC_S);
    ck_assert_int_eq(proto_cache_state_of(E[3], 3), PC_S);
    ck_assert(sharers_contains(proto_dir_sharers(E[0], 2), 3));
    ck_assert(sharers_contains(proto_dir_sharers(E[0], 3), 3));
    ck_assert_uint_eq(counts(0).bulk_fetches, 1);
    ck_assert_uint_eq(counts(0).bulk_copies, 2);
    /* the reads of the others hit: no request */
    ck_assert_int_eq(proto_access(E[3], 2, 0, &acts), PROTO_OK);
    for (size_t i = 0; i < acts.n; i++)
        ck_assert_int_ne(acts.v[i].kind, PA_SEND);
    acts.n = 0;
    /* a write invalidates the bulk copies like any other */
    W(1, 3);
    ck_assert_int_eq(proto_cache_state_of(E[3], 3), PC_I);
}
END_TEST

START_TEST(group_leaves_out_owned_blocks)
{
    make_group();
    W(2, 3); /* node 2 owns block 3 */
    R(3, 1);
    ck_assert_int_eq(proto_cache_state_of(E[3], 2), PC_S);
    ck_assert_msg(proto_cache_state_of(E[3], 3) == PC_I, "an owned block is left out");
    ck_assert_msg(proto_cache_state_of(E[2], 3) == PC_M, "the bulk recalls nothing");
    ck_assert_uint_eq(counts(0).bulk_copies, 1);
}
END_TEST

/* The home's own blocks go along too: its M copies become read copies (no
 * message to itself, no recall of a third node), the missed one included */
START_TEST(group_takes_the_homes_own_blocks)
{
    make_group();
    for (int b = 1; b <= 3; b++)
        W(0, b); /* the home owns all three, its copies M */
    ck_assert_int_eq(proto_dir_state_of(E[0], 2), PD_EXCL);
    ck_assert_int_eq(proto_dir_owner(E[0], 2), 0);
    R(3, 1);
    for (int b = 1; b <= 3; b++) {
        ck_assert_int_eq(proto_cache_state_of(E[3], (uint32_t)b), PC_S);
        ck_assert_int_eq(proto_cache_state_of(E[0], (uint32_t)b), PC_S);
        ck_assert_int_eq(proto_dir_state_of(E[0], (uint32_t)b), PD_SHARED);
        ck_assert(sharers_contains(proto_dir_sharers(E[0], (uint32_t)b), 0));
        ck_assert(sharers_contains(proto_dir_sharers(E[0], (uint32_t)b), 3));
    }
    ck_assert_uint_eq(counts(0).bulk_fetches, 1);
    ck_assert_uint_eq(counts(0).bulk_copies, 2);
    /* the home writes again: it upgrades, invalidating the bulk copies */
    W(0, 2);
    ck_assert_int_eq(proto_cache_state_of(E[3], 2), PC_I);
}
END_TEST

/* A block the home owns but still holds for its own access (MH) is left
 * out: the home's access retries first */
START_TEST(group_leaves_out_the_homes_held_block)
{
    make_group();
    /* the home accesses the three in the group's order (its requests
     * confirm the links): block 2 becomes its M copy, block 3 its fresh
     * grant, held until its write retries (MH) */
    R(0, 1);
    W(0, 2);
    ck_assert_int_eq(proto_access(E[0], 3, 1, &acts), PROTO_OK);
    pump();
    ck_assert_int_eq(proto_cache_state_of(E[0], 3), PC_MH);
    R(3, 1); /* block 2 (the home's M) goes along, block 3 (MH) does not */
    ck_assert_int_eq(proto_cache_state_of(E[3], 2), PC_S);
    ck_assert_int_eq(proto_cache_state_of(E[0], 2), PC_S);
    ck_assert_int_eq(proto_cache_state_of(E[3], 3), PC_I);
    ck_assert_int_eq(proto_cache_state_of(E[0], 3), PC_MH);
    ck_assert_uint_eq(counts(0).bulk_copies, 1);
    ck_assert_int_eq(proto_release(E[0], 3, &acts), PROTO_OK);
    pump();
    ck_assert_int_eq(proto_cache_state_of(E[0], 3), PC_M);
}
END_TEST

/* delivers the message at the head of the channel */
static void deliver_one(void)
{
    enqueue_sends();
    ck_assert_uint_gt(qn, 0);
    proto_msg m = q[qh];
    qh = (qh + 1) % QCAP;
    qn--;
    ck_assert_int_eq(proto_receive(E[m.dst], &m, &acts), PROTO_OK);
    enqueue_sends();
}

START_TEST(group_copy_declined_by_a_request_in_flight)
{
    make_group();
    /* node 3 misses on block 1 and, once its DATA_S is in, asks for block 2
     * before the GROUP_DATA for it is delivered: the copy is declined (IS),
     * and its own read is answered after */
    ck_assert_int_eq(proto_access(E[3], 1, 0, &acts), PROTO_OK);
    deliver_one(); /* GETS at the home: DATA_S, GROUP_DATA x2 queued */
    deliver_one(); /* DATA_S */
    ck_assert_int_eq(proto_cache_state_of(E[3], 1), PC_SH);
    ck_assert_int_eq(proto_release(E[3], 1, &acts), PROTO_OK);
    ck_assert_int_eq(proto_access(E[3], 2, 0, &acts), PROTO_OK);
    ck_assert_int_eq(proto_cache_state_of(E[3], 2), PC_IS);
    deliver_one(); /* GROUP_DATA for 2: declined */
    ck_assert_int_eq(proto_cache_state_of(E[3], 2), PC_IS);
    pump();
    ck_assert_int_eq(proto_cache_state_of(E[3], 2), PC_SH);
    ck_assert_int_eq(proto_cache_state_of(E[3], 3), PC_S);
    ck_assert_int_eq(proto_release(E[3], 2, &acts), PROTO_OK);
    pump();
}
END_TEST

START_TEST(without_adapt_no_bulk)
{
    sys_adapt = 0;
    teardown_sys();
    setup_sys_opts(1, 0, 0);
    make_group();
    R(3, 1);
    ck_assert_int_eq(proto_cache_state_of(E[3], 2), PC_I);
    ck_assert_uint_eq(counts(0).bulk_copies, 0);
}
END_TEST

START_TEST(epoch_end_skips_blocks_taken_away)
{
    make_migratory(1);
    R(3, 1); /* node 2's copy is recalled before its epoch ends */
    ck_assert_int_eq(proto_epoch_end(E[2], PROTO_EPOCH_PUSH | PROTO_EPOCH_FLUSH, &acts), PROTO_OK);
    ck_assert_int_eq(nsends(-1), 0);
    acts.n = 0;
    ck_assert_int_eq(proto_cache_state_of(E[2], 1), PC_I);
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
    tcase_add_test(tc, producer_pushes_to_its_consumers);
    tcase_add_test(tc, push_declined_by_a_reader_in_flight);
    tcase_add_test(tc, push_crosses_a_recall);
    tcase_add_test(tc, migratory_owner_flushes_home);
    tcase_add_test(tc, flush_crosses_a_recall);
    tcase_add_test(tc, wasted_flush_stops_flushing);
    tcase_add_test(tc, epoch_end_skips_blocks_taken_away);
    tcase_add_test(tc, group_read_brings_the_others);
    tcase_add_test(tc, group_leaves_out_owned_blocks);
    tcase_add_test(tc, group_takes_the_homes_own_blocks);
    tcase_add_test(tc, group_leaves_out_the_homes_held_block);
    tcase_add_test(tc, group_copy_declined_by_a_request_in_flight);
    tcase_add_test(tc, without_adapt_no_bulk);
    suite_add_tcase(s, tc);
    return s;
}
