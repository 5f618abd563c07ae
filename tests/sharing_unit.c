/* sharing_unit.c - the sharing pattern of a block as the augmented protocol
 * decides it (protocol/augment.c, doc/patterns.md), on the sequences a
 * program with known sharing produces: a producer with several consumers
 * and several blocks per home (group counts never outvote it), a table
 * initialised by read-modify-write then only read (read-only), a block
 * overwritten in turn and never read (not migratory: write-shared), the
 * fused read-modify-write that does read (migratory), a private block, and
 * the read flag surviving the home's queue.  Real engines of N nodes, FIFO
 * channels, as tests/pattern_unit.c drives them. */
#include <stdlib.h>
#include <string.h>

#define ENGINE_SYS_NBLK 16
#include "engine_sys.h"

static void setup(int home) { setup_sys_opts(1, home, 0); }
static void teardown(void) { teardown_sys(); }

static proto_block_patterns pat_at(int home, int b)
{
    proto_block_patterns p;
    ck_assert_int_eq(proto_patterns_of(E[home], (uint32_t)b, &p), PROTO_OK);
    return p;
}

static proto_pattern sharing(int home, int b)
{
    proto_block_patterns p = pat_at(home, b);
    return proto_sharing_pattern(&p);
}

/* One producer (node 0), three consumers, two blocks per home written and
 * read in a fixed order every round: producer-consumer, however many group
 * detections the fixed order collects. */
START_TEST(producer_three_consumers_two_blocks)
{
    setup(1);
    for (int round = 0; round < 10; round++) {
        W(0, 2); W(0, 3);
        for (int c = 1; c < N; c++) {
            R(c, 2); R(c, 3);
        }
    }
    for (int b = 2; b <= 3; b++) {
        proto_block_patterns p = pat_at(1, b);
        ck_assert_uint_eq(p.detections[PP_PRODUCER_CONSUMER], 9);
        ck_assert_uint_eq(p.detections[PP_MIGRATORY], 0);
        ck_assert_uint_gt(p.detections[PP_GROUP], p.detections[PP_PRODUCER_CONSUMER]);
        ck_assert_int_eq(proto_sharing_pattern(&p), PP_PRODUCER_CONSUMER);
    }
    /* they travel together all the same: one group */
    ck_assert_int_eq(pat_at(1, 3).group_id, pat_at(1, 2).group_id);
    ck_assert(pat_at(1, 3).access_in_group);
    teardown();
}
END_TEST

/* The same with one consumer, and with the consumer at the home. */
START_TEST(producer_one_consumer)
{
    setup(0);
    for (int round = 0; round < 5; round++) {
        W(2, 4);
        R(0, 4);
    }
    ck_assert_int_eq(sharing(0, 4), PP_PRODUCER_CONSUMER);
    teardown();
}
END_TEST

/* A table initialised by read-modify-write (its initialiser reads before it
 * writes), then only read: read-only.  Before the fix the initialiser's own
 * read began the reads and its write ended read-only for good. */
START_TEST(read_only_initialised_by_read_modify_write)
{
    setup(0);
    for (int b = 5; b <= 6; b++) {
        R(1, b); W(1, b);               /* t[i] += i, compiled as load then store */
    }
    RMW(1, 7);                          /* the same as one instruction */
    for (int round = 0; round < 3; round++)
        for (int c = 0; c < N; c++)
            for (int b = 5; b <= 7; b++)
                R(c, b);
    for (int b = 5; b <= 7; b++) {
        proto_block_patterns p = pat_at(0, b);
        ck_assert_msg(p.read_only, "block %d", b);
        ck_assert_int_eq(proto_sharing_pattern(&p), PP_READ_ONLY);
    }
    W(2, 5);                            /* a write after the reads began: not read-only */
    ck_assert_int_ne(sharing(0, 5), PP_READ_ONLY);
    ck_assert_int_eq(sharing(0, 6), PP_READ_ONLY);
    teardown();
}
END_TEST

/* Two writers before any reader: not read-only, whatever is read later. */
START_TEST(two_initialisers_are_not_read_only)
{
    setup(0);
    W(1, 8); W(2, 8);
    R(3, 8); R(1, 8);
    ck_assert(!pat_at(0, 8).read_only);
    ck_assert_int_eq(sharing(0, 8), PP_WRITE_SHARED);
    teardown();
}
END_TEST

/* A block overwritten in turn and never read: no migration (no read by the
 * new owner), write-shared.  Before the fix every write miss on a block
 * another node owned counted as a fused read-modify-write. */
START_TEST(overwrite_in_turn_is_not_migratory)
{
    setup(0);
    for (int round = 0; round < 6; round++)
        for (int w = 1; w < N; w++)
            W(w, 9);
    proto_block_patterns p = pat_at(0, 9);
    ck_assert_uint_eq(p.detections[PP_MIGRATORY], 0);
    ck_assert(!p.migratory);
    ck_assert_int_eq(proto_sharing_pattern(&p), PP_WRITE_SHARED);
    ck_assert_uint_eq(p.writers, 2);
    teardown();
}
END_TEST

/* The fused read-modify-write that reads: migratory, one detection per
 * move, at a remote home and at the home itself. */
START_TEST(fused_read_modify_write_is_migratory)
{
    for (int home = 0; home <= 1; home++) {
        setup(home);
        for (int round = 0; round < 4; round++)
            for (int w = 0; w < N; w++)
                RMW(w, 10);
        proto_block_patterns p = pat_at(home, 10);
        ck_assert_uint_eq(p.detections[PP_MIGRATORY], 4 * N - 1);
        ck_assert_int_eq(proto_sharing_pattern(&p), PP_MIGRATORY);
        teardown();
    }
}
END_TEST

/* The read flag of a request that waited in the home's queue (the block
 * was busy) is the flag the augmentation sees when it is served. */
START_TEST(read_flag_survives_the_queue)
{
    setup(0);
    W(1, 11);
    /* 2 and 3 ask at once: 2's GETX recalls 1's copy, 3's GETX waits */
    ck_assert_int_eq(proto_access(E[2], 11, PROTO_WRITE_READS, &acts), PROTO_OK);
    enqueue_sends();
    ck_assert_int_eq(proto_access(E[3], 11, PROTO_WRITE_READS, &acts), PROTO_OK);
    pump();
    ck_assert_int_eq(proto_release(E[2], 11, &acts), PROTO_OK);
    pump();
    for (int tries = 0; !allowed(3, 11, 1); tries++) {
        ck_assert_int_lt(tries, 3);
        ck_assert_int_eq(proto_access(E[3], 11, PROTO_WRITE_READS, &acts), PROTO_OK);
        pump();
    }
    ck_assert_int_eq(proto_release(E[3], 11, &acts), PROTO_OK);
    pump();
    ck_assert_uint_eq(pat_at(0, 11).detections[PP_MIGRATORY], 2);
    teardown();
}
END_TEST

/* Only the requests of GETX and UPGRADE carry the flag; a read never does. */
START_TEST(flag_only_on_write_requests)
{
    setup(0);
    ck_assert_int_eq(proto_access(E[1], 12, PROTO_WRITE_READS, &acts), PROTO_OK);
    int seen = 0;
    for (size_t i = 0; i < acts.n; i++)
        if (acts.v[i].kind == PA_SEND) {
            ck_assert_int_eq(acts.v[i].msg.type, PM_GETX);
            ck_assert_int_eq(acts.v[i].msg.flags, PROTO_MSG_READS);
            seen++;
        }
    ck_assert_int_eq(seen, 1);
    pump();
    ck_assert_int_eq(proto_release(E[1], 12, &acts), PROTO_OK);
    pump();
    ck_assert_int_eq(proto_access(E[2], 12, 0, &acts), PROTO_OK);
    for (size_t i = 0; i < acts.n; i++)
        if (acts.v[i].kind == PA_SEND)
            ck_assert_int_eq(acts.v[i].msg.flags, 0);
    pump();
    teardown();
}
END_TEST

/* One node alone: private, also through its own read then upgrade. */
START_TEST(private_block)
{
    setup(0);
    for (int round = 0; round < 3; round++) {
        R(2, 13); W(2, 13);
    }
    R(3, 14); W(3, 14); R(3, 14);
    ck_assert_int_eq(sharing(0, 13), PP_PRIVATE);
    ck_assert_int_eq(sharing(0, 14), PP_PRIVATE);
    ck_assert_int_eq(sharing(0, 15), PP_NONE); /* never requested */
    ck_assert_str_eq(proto_pattern_name(PP_PRIVATE), "private");
    ck_assert_str_eq(proto_pattern_name(PP_WRITE_SHARED), "write_shared");
    teardown();
}
END_TEST

/* Migration read then written (R^j W^j as two misses) needs no flag. */
START_TEST(migratory_read_then_write)
{
    setup(0);
    W(1, 1);
    for (int round = 0; round < 3; round++)
        for (int w = 1; w < N; w++) {
            R(w, 1); W(w, 1);
        }
    ck_assert_int_eq(sharing(0, 1), PP_MIGRATORY);
    teardown();
}
END_TEST

Suite *unit_suite(void)
{
    Suite *s = suite_create("sharing");
    TCase *tc = tcase_create("rules");
    tcase_add_test(tc, producer_three_consumers_two_blocks);
    tcase_add_test(tc, producer_one_consumer);
    tcase_add_test(tc, read_only_initialised_by_read_modify_write);
    tcase_add_test(tc, two_initialisers_are_not_read_only);
    tcase_add_test(tc, overwrite_in_turn_is_not_migratory);
    tcase_add_test(tc, fused_read_modify_write_is_migratory);
    tcase_add_test(tc, read_flag_survives_the_queue);
    tcase_add_test(tc, flag_only_on_write_requests);
    tcase_add_test(tc, private_block);
    tcase_add_test(tc, migratory_read_then_write);
    suite_add_tcase(s, tc);
    return s;
}
