/* pattern_unit.c - the augmented protocol's pattern detection (section 3.1
 * of the Xu/Larus/Miller paper), driven through the real engines of a few
 * nodes with FIFO channels.  Each test feeds the access sequence of one of
 * the paper's regular expressions, or a clearing case, and checks the
 * detections at the home.  An access that hits (the node already has the
 * right) makes no request, as on a real machine: the home sees misses only.
 * Overlapping requests (several nodes asking before the home answers, so
 * that some wait in its queue) are detected once each, when the home serves
 * them.  The last tests run the simulated machines' downgrade_on_read
 * option. */
#include <stdlib.h>
#include <string.h>

#define ENGINE_SYS_NBLK 8
#include "engine_sys.h"

static void setup_sys(int augment, int home) { setup_sys_opts(augment, home, 0); }

/* Overlapping accesses: each node in nodes[] faults on block b at once
 * (their requests travel together, the home queues those that find the
 * block busy), then everything is delivered and every grant released, as
 * if each faulting access retried at once. */
static void overlap(const int *nodes, int n, int b, int write)
{
    for (int i = 0; i < n; i++) {
        ck_assert_int_eq(proto_access(E[nodes[i]], (uint32_t)b, write, &acts), PROTO_OK);
        enqueue_sends();
    }
    for (int round = 0; round < 2 * N; round++) {
        pump();
        for (int i = 0; i < N; i++)
            ck_assert_int_eq(proto_release(E[i], (uint32_t)b, &acts), PROTO_OK);
    }
    pump();
    for (int i = 0; i < N; i++)
        ck_assert_msg(proto_cache_settled(proto_cache_state_of(E[i], (uint32_t)b)) &&
                          !proto_cache_held(proto_cache_state_of(E[i], (uint32_t)b)),
                      "node %d's request for block %d is not done", i, b);
}

static proto_block_patterns pat(int b)
{
    proto_block_patterns p;
    ck_assert_int_eq(proto_patterns_of(E[0], (uint32_t)b, &p), PROTO_OK);
    return p;
}

static proto_pattern dominant(int b)
{
    proto_block_patterns p = pat(b);
    return proto_dominant_pattern(p.detections);
}

/* (W^i)(R^i|W^i)*(R^j)(W^j)(R^j|W^j)* : migratory, for i,j = 1,2 then 2,3 ... */
START_TEST(migratory_regex)
{
    setup_sys(1, 0);
    W(1, 0); R(1, 0); W(1, 0);          /* W^1 (R^1|W^1)* */
    R(2, 0); W(2, 0); R(2, 0); W(2, 0); /* R^2 W^2 (R^2|W^2)* */
    proto_block_patterns p = pat(0);
    ck_assert_int_eq(p.detections[PP_MIGRATORY], 1);
    ck_assert(p.migratory);
    ck_assert_int_eq(p.last_owner, 1);
    R(3, 0); W(3, 0);                   /* migrates on: 2 -> 3 */
    R(1, 0); W(1, 0);                   /* 3 -> 1 */
    p = pat(0);
    ck_assert_int_eq(p.detections[PP_MIGRATORY], 3);
    ck_assert_int_eq(p.last_owner, 3);
    ck_assert_int_eq(dominant(0), PP_MIGRATORY);
    teardown_sys();
}
END_TEST

/* R^j W^j fused into one read-modify-write instruction: it faults once, as
 * a write, and the home sees a write request for a block another node owns. */
START_TEST(migratory_fused_read_modify_write)
{
    setup_sys(1, 0);
    W(1, 0);
    RMW(2, 0);                          /* 2's x += 1 while 1 owns the block */
    RMW(3, 0);
    RMW(1, 0);
    proto_block_patterns p = pat(0);
    ck_assert_int_eq(p.detections[PP_MIGRATORY], 3);
    ck_assert(p.migratory);
    ck_assert_int_eq(p.last_owner, 3);
    ck_assert_int_eq(dominant(0), PP_MIGRATORY);
    teardown_sys();
}
END_TEST

/* Clearing: an upgrade while the sharer count is not one clears the flag. */
START_TEST(migratory_cleared_by_two_sharers)
{
    setup_sys(1, 0);
    W(1, 0);
    R(2, 0); W(2, 0);                   /* migratory */
    ck_assert(pat(0).migratory);
    R(3, 0); R(1, 0);                   /* two readers: sharers {3, 1} */
    W(3, 0);                            /* upgrade with two sharers */
    proto_block_patterns p = pat(0);
    ck_assert(!p.migratory);
    ck_assert_int_eq(p.detections[PP_MIGRATORY], 1); /* the count stays */
    teardown_sys();
}
END_TEST

/* Clearing: no last owner (a block never written) is not a migration. */
START_TEST(migratory_needs_a_last_owner)
{
    setup_sys(1, 0);
    R(1, 0); W(1, 0);                   /* upgrade, sole sharer, no previous owner */
    proto_block_patterns p = pat(0);
    ck_assert(!p.migratory);
    ck_assert_int_eq(p.detections[PP_MIGRATORY], 0);
    ck_assert_int_eq(dominant(0), PP_NONE);
    teardown_sys();
}
END_TEST

/* ---- downgrade_on_read (a simulated machine's option) ----
 * A read of a dirty block leaves its owner a read copy, so at the new
 * user's upgrade the sharers are {lastOwner, requester}: counted as the
 * one-sharer case (doc/patterns.md). */
START_TEST(migratory_with_downgrade)
{
    setup_sys_opts(1, 0, 1);
    W(1, 0); R(1, 0); W(1, 0);
    R(2, 0);                            /* 1 downgraded: sharers {1, 2} */
    ck_assert_int_eq(proto_cache_state_of(E[1], 0), PC_S);
    ck_assert_int_eq(sharers_count(proto_dir_sharers(E[0], 0)), 2);
    W(2, 0); R(2, 0); W(2, 0);
    proto_block_patterns p = pat(0);
    ck_assert_int_eq(p.detections[PP_MIGRATORY], 1);
    ck_assert(p.migratory);
    ck_assert_int_eq(p.last_owner, 1);
    R(3, 0); W(3, 0);
    R(1, 0); W(1, 0);
    p = pat(0);
    ck_assert_int_eq(p.detections[PP_MIGRATORY], 3);
    ck_assert_int_eq(dominant(0), PP_MIGRATORY);
    /* a third reader: three sharers at the upgrade clear it */
    R(2, 0); R(3, 0); W(2, 0);
    p = pat(0);
    ck_assert(!p.migratory);
    ck_assert_int_eq(p.detections[PP_MIGRATORY], 3);
    teardown_sys();
}
END_TEST

/* The difference downgrades make: the old owner's re-read hits its kept
 * copy, the home never sees it, and the new user's upgrade still finds the
 * pair {lastOwner, requester}.  Without downgrades that re-read is a miss
 * that adds a sharer, and the upgrade sees a plain two-sharer block. */
START_TEST(downgrade_hides_old_owner_reread)
{
    for (int dg = 0; dg < 2; dg++) {
        setup_sys_opts(1, 0, dg);
        W(1, 0);
        R(2, 0);
        R(1, 0);                        /* dg: a hit; else a miss, sharers {1, 2} */
        W(2, 0);
        proto_block_patterns p = pat(0);
        ck_assert_int_eq(p.detections[PP_MIGRATORY], dg ? 1u : 0u);
        ck_assert_int_eq(p.requests, dg ? 3u : 4u);
        teardown_sys();
    }
}
END_TEST

/* Producer-consumer is seen the same with downgrades: the producer's write
 * is an upgrade from its kept copy, with readers beside it. */
START_TEST(producer_consumer_with_downgrade)
{
    setup_sys_opts(1, 0, 1);
    for (int round = 0; round < 4; round++) {
        W(1, 0); R(1, 0); W(1, 0);
        R(2, 0); R(3, 0);
    }
    proto_block_patterns p = pat(0);
    ck_assert_int_eq(p.detections[PP_PRODUCER_CONSUMER], 3);
    ck_assert_int_eq(p.detections[PP_MIGRATORY], 0);
    ck_assert_int_eq(dominant(0), PP_PRODUCER_CONSUMER);
    teardown_sys();
}
END_TEST

/* (W^i(R^i|W^i)*(R^j)+)* : producer-consumer, producer 1, consumers 2 and 3 */
START_TEST(producer_consumer_regex)
{
    setup_sys(1, 0);
    for (int round = 0; round < 4; round++) {
        W(1, 0); R(1, 0); W(1, 0);      /* W^1 (R^1|W^1)* */
        R(2, 0); R(3, 0);               /* (R^j)+ */
    }
    proto_block_patterns p = pat(0);
    /* rounds 2..4: the producer's write miss finds readers and is lastOwner */
    ck_assert_int_eq(p.detections[PP_PRODUCER_CONSUMER], 3);
    ck_assert(p.producer_consumer);
    ck_assert_int_eq(p.detections[PP_MIGRATORY], 0);
    ck_assert_int_eq(dominant(0), PP_PRODUCER_CONSUMER);
    teardown_sys();
}
END_TEST

/* Clearing: a write miss on a read-shared block by another node than the
 * last owner is not the producer's. */
START_TEST(producer_consumer_cleared_by_other_writer)
{
    setup_sys(1, 0);
    W(1, 0); R(2, 0); R(3, 0); W(1, 0); /* detected */
    ck_assert(pat(0).producer_consumer);
    R(2, 0); R(3, 0); W(3, 0);          /* upgrade by 3, lastOwner is 1 */
    proto_block_patterns p = pat(0);
    ck_assert(!p.producer_consumer);
    ck_assert_int_eq(p.detections[PP_PRODUCER_CONSUMER], 1);
    teardown_sys();
}
END_TEST

/* A_i^x A_j^x : node 2 always touches blocks 1, 2, 3 in that order (node 1
 * writes them between rounds, so every touch is a miss the home sees). */
START_TEST(group_regex)
{
    setup_sys(1, 0);
    for (int round = 0; round < 4; round++) {
        for (int b = 1; b <= 3; b++)
            W(1, b);
        for (int b = 1; b <= 3; b++)
            R(2, b);
    }
    for (int b = 1; b <= 3; b++) {
        proto_block_patterns p = pat(b);
        ck_assert_msg(p.access_in_group, "block %d not in a group", b);
        ck_assert_int_eq(p.group_id, pat(1).group_id);
        ck_assert_int_ge(p.detections[PP_GROUP], 2);
    }
    /* a co-access pattern, not who shares the blocks: 1 writes, 2 reads */
    ck_assert_int_eq(dominant(2), PP_PRODUCER_CONSUMER);
    ck_assert_int_eq(dominant(3), PP_PRODUCER_CONSUMER);
    teardown_sys();
}
END_TEST

/* Clearing: a different order breaks the guess (Figure 2's else branch). */
START_TEST(group_broken_by_other_order)
{
    setup_sys(1, 0);
    for (int round = 0; round < 3; round++) {
        W(1, 4); W(1, 5);
        R(2, 4); R(2, 5);
    }
    ck_assert(pat(5).access_in_group);
    W(1, 4); W(1, 5); W(1, 6);          /* the writer keeps its order */
    R(2, 6); R(2, 5);                   /* the reader's 5 now follows 6, not 4 */
    proto_block_patterns p = pat(5);
    ck_assert(!p.access_in_group);
    ck_assert_int_eq(p.guess, 6);
    ck_assert_int_eq(p.group_id, 5);
    teardown_sys();
}
END_TEST

/* Written once, then read by several nodes: read-only; a later write
 * clears it for good. */
START_TEST(read_only_then_written)
{
    setup_sys(1, 0);
    W(1, 0); W(1, 0);                   /* the first write epoch */
    R(2, 0); R(3, 0); R(0, 0);
    proto_block_patterns p = pat(0);
    ck_assert(p.read_only);
    ck_assert_int_eq(p.detections[PP_READ_ONLY], 3);
    ck_assert_int_eq(dominant(0), PP_READ_ONLY);
    W(2, 0);                            /* written after the reads began */
    p = pat(0);
    ck_assert(!p.read_only);
    ck_assert_int_eq(p.detections[PP_READ_ONLY], 0);
    R(3, 0); R(1, 0);
    ck_assert(!pat(0).read_only);
    teardown_sys();
}
END_TEST

/* Read-only needs a read by a node other than the writer. */
START_TEST(read_only_needs_another_reader)
{
    setup_sys(1, 0);
    W(1, 0); R(1, 0);
    ck_assert(!pat(0).read_only);
    ck_assert_int_eq(dominant(0), PP_NONE);
    R(2, 0);
    ck_assert(pat(0).read_only);
    teardown_sys();
}
END_TEST

/* Three read-modify-writes at once: node 2's request recalls node 1, node
 * 3's waits in the home's queue (its read flag with it) and is served
 * after.  Each is one request, detected as a migration when served (the
 * block owned by another node, the new owner reads), never when it is only
 * queued. */
START_TEST(overlapping_writes_counted_once)
{
    setup_sys(1, 0);
    W(1, 0);
    static const int writers[] = { 2, 3 };
    overlap(writers, 2, 0, PROTO_WRITE_READS);
    proto_block_patterns p = pat(0);
    ck_assert_uint_eq(p.requests, 3);
    ck_assert_int_eq(p.detections[PP_MIGRATORY], 2);
    ck_assert_int_eq(p.last_owner, 2);
    ck_assert_int_eq(proto_cache_state_of(E[3], 0), PC_M);
    teardown_sys();
}
END_TEST

/* Two readers at once after a write: the first recalls the writer, the
 * second waits; read-only is detected once per reader's request (2), the
 * queued request not twice. */
START_TEST(overlapping_reads_counted_once)
{
    setup_sys(1, 0);
    W(1, 0);
    static const int readers[] = { 2, 3 };
    overlap(readers, 2, 0, 0);
    proto_block_patterns p = pat(0);
    ck_assert_int_eq(proto_cache_state_of(E[2], 0), PC_S);
    ck_assert_int_eq(proto_cache_state_of(E[3], 0), PC_S);
    ck_assert_uint_eq(p.requests, 3);
    ck_assert_int_eq(p.detections[PP_READ_ONLY], 2);
    ck_assert(p.read_only);
    ck_assert_int_eq(p.last_owner, 1);
    teardown_sys();
}
END_TEST

/* With the augmentation off nothing is detected or kept. */
START_TEST(augmentation_off)
{
    setup_sys(0, 0);
    W(1, 0); R(2, 0); W(2, 0);
    for (int round = 0; round < 3; round++) {
        W(1, 1); R(2, 1); R(3, 1);
    }
    for (int b = 0; b < 2; b++) {
        proto_block_patterns p = pat(b);
        for (int k = 0; k < PP_NPATTERNS; k++)
            ck_assert_int_eq(p.detections[k], 0);
        ck_assert_int_eq(p.requests, 0);
    }
    ck_assert(!proto_augment_enabled(E[0]));
    teardown_sys();
}
END_TEST

START_TEST(dominant_ties_and_none)
{
    uint32_t d[PP_NPATTERNS] = { 0 };
    ck_assert_int_eq(proto_dominant_pattern(d), PP_NONE);
    d[PP_GROUP] = 3;
    d[PP_READ_ONLY] = 3;
    ck_assert_int_eq(proto_dominant_pattern(d), PP_READ_ONLY);
    d[PP_PRODUCER_CONSUMER] = 3;
    ck_assert_int_eq(proto_dominant_pattern(d), PP_PRODUCER_CONSUMER);
    d[PP_MIGRATORY] = 3;
    ck_assert_int_eq(proto_dominant_pattern(d), PP_MIGRATORY);
    d[PP_GROUP] = 4; /* group never competes */
    ck_assert_int_eq(proto_dominant_pattern(d), PP_MIGRATORY);
    uint32_t ro[PP_NPATTERNS] = { 0 };
    ro[PP_READ_ONLY] = 2;
    ro[PP_GROUP] = 5;
    ck_assert_int_eq(proto_dominant_pattern(ro), PP_READ_ONLY);
    ck_assert_str_eq(proto_pattern_name(PP_PRODUCER_CONSUMER), "producer_consumer");
    ck_assert_str_eq(proto_pattern_name(PP_NONE), "none");
}
END_TEST

/* The home's own accesses take part like any node's (home 1 here). */
START_TEST(home_node_takes_part)
{
    setup_sys(1, 1);
    W(1, 0);                            /* the home writes */
    R(2, 0); W(2, 0);                   /* migrates away from the home */
    proto_block_patterns p;
    ck_assert_int_eq(proto_patterns_of(E[1], 0, &p), PROTO_OK);
    ck_assert_int_eq(p.detections[PP_MIGRATORY], 1);
    ck_assert_int_eq(p.last_owner, 1);
    teardown_sys();
}
END_TEST

Suite *unit_suite(void)
{
    Suite *s = suite_create("patterns");
    TCase *tc = tcase_create("section 3.1");
    tcase_add_test(tc, migratory_regex);
    tcase_add_test(tc, migratory_fused_read_modify_write);
    tcase_add_test(tc, migratory_cleared_by_two_sharers);
    tcase_add_test(tc, migratory_needs_a_last_owner);
    tcase_add_test(tc, producer_consumer_regex);
    tcase_add_test(tc, producer_consumer_cleared_by_other_writer);
    tcase_add_test(tc, group_regex);
    tcase_add_test(tc, group_broken_by_other_order);
    tcase_add_test(tc, read_only_then_written);
    tcase_add_test(tc, read_only_needs_another_reader);
    tcase_add_test(tc, augmentation_off);
    tcase_add_test(tc, dominant_ties_and_none);
    tcase_add_test(tc, home_node_takes_part);
    tcase_add_test(tc, overlapping_writes_counted_once);
    tcase_add_test(tc, overlapping_reads_counted_once);
    tcase_add_test(tc, migratory_with_downgrade);
    tcase_add_test(tc, downgrade_hides_old_owner_reread);
    tcase_add_test(tc, producer_consumer_with_downgrade);
    suite_add_tcase(s, tc);
    return s;
}
