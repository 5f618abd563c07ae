/* proto_unit.c - unit tests of the coherence engine (Check framework):
 *   - sharer sets (bit vector) for 1, 64, 65, 1024 and 4096 nodes;
 *   - single transitions and the exact actions they emit (remote read miss,
 *     home-local misses completing inside one call, holds and the deferred
 *     INV replayed at the release);
 *   - rejected pairs (PROTO_EREJECT, with a message naming state and event)
 *     and bad inputs (PROTO_EINVAL);
 *   - requests queued at a busy home and served in order, also when the
 *     queue grows after it wrapped around;
 *   - what the home accepts only from the right node (INV_ACK from a node it
 *     invalidated, WB_DATA from the owner it recalled), one deferred message
 *     per held block, and the table narrowed by the options (the entries of
 *     evictions, hints, exclusive-clean grants refused without them);
 *   - snapshot save/load round trip;
 *   - 1024 nodes reading one block, then one writer invalidating all;
 *   - the simulated machines' additions: dirty eviction (PUTX/PUT_ACK, also
 *     crossing a recall), silent clean eviction then an INV in I, IS, IM,
 *     replacement hints (PUTS, stale PUTS), exclusive-clean grants (DATA_E,
 *     silent upgrade, recall and PUTE), rejected evictions, a sharer-set
 *     representation with its own storage behind dsm_sharers_ops, and
 *     downgrades on read (RECALL_S from M, MH, E, EH, crossing a PUTX, at
 *     the home; refused when the option is off), three-hop interventions
 *     (FWD_GETS answered by the owner, SHWB; a held owner deferring FWD_GETX
 *     with its requester through a snapshot, XFER; refused when off).
 * The exhaustive interleavings are tests/explore's job. */
#include "proto.h"

#include "check_main.h"
#include <stdlib.h>
#include <string.h>

/* ---- helpers ---- */

static proto_engine *mk(int self, int nnodes, uint32_t nblocks)
{
    proto_config c = { .self = self, .nnodes = nnodes, .nblocks = nblocks };
    proto_engine *e = proto_engine_create(&c);
    ck_assert_msg(e != NULL, "proto_engine_create(%d, %d, %u) failed", self, nnodes, nblocks);
    return e;
}

/* An engine with every block homed at node `home`. */
static proto_engine *mk_home(int self, int nnodes, uint32_t nblocks, int home)
{
    proto_engine *e = mk(self, nnodes, nblocks);
    ck_assert_int_eq(proto_set_home(e, 0, nblocks, home), PROTO_OK);
    return e;
}

static proto_msg msg(int type, int src, int dst, uint32_t block)
{
    proto_msg m = { (uint8_t)type, src, dst, block, 0, 0 };
    return m;
}

static int recv_msg(proto_engine *e, int type, int src, int dst, uint32_t block,
                    proto_actions *a)
{
    proto_msg m = msg(type, src, dst, block);
    a->n = 0;
    return proto_receive(e, &m, a);
}

static int access_blk(proto_engine *e, uint32_t block, int is_write, proto_actions *a)
{
    a->n = 0;
    return proto_access(e, block, is_write, a);
}

static int release_blk(proto_engine *e, uint32_t block, proto_actions *a)
{
    a->n = 0;
    return proto_release(e, block, a);
}

static void is_send(const proto_actions *a, size_t i, int type, int src, int dst, uint32_t block)
{
    ck_assert_msg(i < a->n, "action %zu missing (only %zu)", i, a->n);
    const proto_action *x = &a->v[i];
    ck_assert_msg(x->kind == PA_SEND, "action %zu: kind %d, expected PA_SEND", i, x->kind);
    ck_assert_msg(x->msg.type == type, "action %zu: sends %s, expected %s", i,
                  proto_msg_name(x->msg.type), proto_msg_name(type));
    ck_assert_int_eq(x->msg.src, src);
    ck_assert_int_eq(x->msg.dst, dst);
    ck_assert_int_eq(x->msg.block, block);
    ck_assert_int_eq(x->block, block);
}

static void is_kind(const proto_actions *a, size_t i, int kind, uint32_t block)
{
    ck_assert_msg(i < a->n, "action %zu missing (only %zu)", i, a->n);
    ck_assert_msg(a->v[i].kind == kind, "action %zu: kind %d, expected %d", i, a->v[i].kind,
                  kind);
    ck_assert_int_eq(a->v[i].block, block);
}

static void is_access(const proto_actions *a, size_t i, int access, uint32_t block)
{
    is_kind(a, i, PA_SET_ACCESS, block);
    ck_assert_int_eq(a->v[i].access, access);
}

static int evict_blk_plain(proto_engine *e, uint32_t block, proto_actions *a)
{
    a->n = 0;
    return proto_evict(e, block, a);
}

static size_t count_kind(const proto_actions *a, int kind)
{
    size_t n = 0;
    for (size_t i = 0; i < a->n; i++)
        n += a->v[i].kind == kind;
    return n;
}

/* ---- sharer sets ---- */

/* 128 and 129: the last size whose words are inside the set, the first
 * whose words are allocated (DSM_SHARERS_INLINE_NODES). */
static const int sizes[] = { 1, 64, 65, 128, 129, 1024, 4096 };

START_TEST(sharers_sizes)
{
    int n = sizes[_i];
    dsm_sharers s;
    ck_assert_int_eq(dsm_sharers_init(&s, n), 0);
    ck_assert_int_eq(dsm_sharers_words(n), (n + 63) / 64);
    ck_assert_int_eq(sharers_count(&s), 0);
    ck_assert_int_eq(sharers_next(&s, 0), -1);

    /* Members: the ends, the word boundaries, one in the middle. */
    int cand[] = { 0, 1, 62, 63, 64, 65, 127, 128, n / 2, n - 2, n - 1 };
    int ncand = (int)(sizeof cand / sizeof cand[0]);
    char *in = calloc((size_t)n, 1);
    ck_assert(in != NULL);
    int members = 0;
    for (int i = 0; i < ncand; i++) {
        int v = cand[i];
        if (v < 0 || v >= n)
            continue;
        sharers_add(&s, v);
        sharers_add(&s, v); /* twice: still one member */
        if (!in[v])
            members++;
        in[v] = 1;
    }
    ck_assert_int_eq(sharers_count(&s), members);
    for (int v = 0; v < n; v++)
        ck_assert_int_eq(sharers_contains(&s, v), in[v]);
    ck_assert_int_eq(sharers_contains(&s, -1), 0);
    ck_assert_int_eq(sharers_contains(&s, n), 0);

    /* next visits the members in increasing order, from any point. */
    int seen = 0, prev = -1;
    SHARERS_FOREACH(&s, v) {
        ck_assert_int_gt(v, prev);
        ck_assert_int_lt(v, n);
        ck_assert(in[v]);
        prev = v;
        seen++;
    }
    ck_assert_int_eq(seen, members);
    for (int from = 0; from < n; from++) {
        int want = -1;
        for (int v = from; v < n; v++)
            if (in[v]) {
                want = v;
                break;
            }
        ck_assert_int_eq(sharers_next(&s, from), want);
        /* the ops table (other callers) agrees with the engine's inline calls */
        ck_assert_int_eq(s.ops->next(&s, from), want);
        ck_assert_int_eq(s.ops->contains(&s, from), in[from]);
    }
    ck_assert_int_eq(sharers_next(&s, -5), sharers_next(&s, 0));
    ck_assert_int_eq(dsm_sharers_heap_bytes(&s),
                     n > DSM_SHARERS_INLINE_NODES ? dsm_sharers_words(n) * 8 : 0);
    ck_assert_int_eq(sharers_next(&s, n), -1);
    ck_assert_int_eq(sharers_next(&s, n + 100), -1);

    /* remove: twice, and a non-member. */
    sharers_remove(&s, n - 1);
    sharers_remove(&s, n - 1);
    members--;
    in[n - 1] = 0;
    if (n > 3 && !in[3])
        sharers_remove(&s, 3);
    ck_assert_int_eq(sharers_count(&s), members);
    ck_assert_int_eq(sharers_contains(&s, n - 1), 0);
    ck_assert_int_eq(sharers_next(&s, n - 1), -1);

    /* every node */
    for (int v = 0; v < n; v++)
        sharers_add(&s, v);
    ck_assert_int_eq(sharers_count(&s), n);
    ck_assert_int_eq(sharers_next(&s, n - 1), n - 1);

    sharers_clear(&s);
    ck_assert_int_eq(sharers_count(&s), 0);
    ck_assert_int_eq(sharers_next(&s, 0), -1);
    for (int v = 0; v < n; v++)
        ck_assert_int_eq(sharers_contains(&s, v), 0);
    free(in);
    dsm_sharers_destroy(&s);
}
END_TEST

/* ---- single transitions ---- */

/* Node 1 reads block 0 homed at node 0: GETS, DATA_S, install. */
START_TEST(remote_read_miss)
{
    proto_engine *home = mk_home(0, 3, 2, 0), *n1 = mk_home(1, 3, 2, 0);
    proto_actions a;
    proto_actions_init(&a);

    ck_assert_int_eq(access_blk(n1, 0, 0, &a), PROTO_OK);
    ck_assert_int_eq(a.n, 2);
    is_send(&a, 0, PM_GETS, 1, 0, 0);
    is_kind(&a, 1, PA_WAIT, 0);
    ck_assert_int_eq(proto_cache_state_of(n1, 0), PC_IS);

    ck_assert_int_eq(proto_dir_state_of(home, 0), PD_UNOWNED);
    ck_assert_int_eq(recv_msg(home, PM_GETS, 1, 0, 0, &a), PROTO_OK);
    ck_assert_int_eq(a.n, 1);
    is_send(&a, 0, PM_DATA_S, 0, 1, 0);
    ck_assert_int_eq(proto_dir_state_of(home, 0), PD_SHARED);
    ck_assert_int_eq(sharers_count(proto_dir_sharers(home, 0)), 1);
    ck_assert(sharers_contains(proto_dir_sharers(home, 0), 1));
    ck_assert_int_eq(proto_dir_owner(home, 0), -1);

    ck_assert_int_eq(recv_msg(n1, PM_DATA_S, 0, 1, 0, &a), PROTO_OK);
    ck_assert_int_eq(a.n, 3);
    is_kind(&a, 0, PA_INSTALL, 0);
    is_access(&a, 1, PROTO_ACCESS_READ, 0);
    is_kind(&a, 2, PA_COMPLETE, 0);
    ck_assert_int_eq(proto_cache_state_of(n1, 0), PC_SH); /* held until the retry */

    ck_assert_int_eq(release_blk(n1, 0, &a), PROTO_OK);
    ck_assert_int_eq(a.n, 0);
    ck_assert_int_eq(proto_cache_state_of(n1, 0), PC_S);
    /* a second read needs no request */
    ck_assert_int_eq(access_blk(n1, 0, 0, &a), PROTO_OK);
    ck_assert_int_eq(a.n, 1);
    is_kind(&a, 0, PA_COMPLETE, 0);
    /* the other block is untouched */
    ck_assert_int_eq(proto_cache_state_of(n1, 1), PC_I);
    ck_assert_int_eq(proto_dir_state_of(home, 1), PD_UNOWNED);

    proto_actions_free(&a);
    proto_engine_destroy(home);
    proto_engine_destroy(n1);
}
END_TEST

/* The home's own misses complete inside one proto_access: the messages to
 * itself never leave the engine and move no data. */
START_TEST(home_local_miss)
{
    proto_engine *home = mk_home(0, 3, 2, 0);
    proto_actions a;
    proto_actions_init(&a);

    ck_assert_int_eq(access_blk(home, 0, 0, &a), PROTO_OK);
    ck_assert_int_eq(count_kind(&a, PA_SEND), 0);
    ck_assert_int_eq(count_kind(&a, PA_INSTALL), 0);
    ck_assert_int_eq(a.n, 3);
    is_kind(&a, 0, PA_WAIT, 0);
    is_access(&a, 1, PROTO_ACCESS_READ, 0);
    is_kind(&a, 2, PA_COMPLETE, 0);
    ck_assert_int_eq(proto_cache_state_of(home, 0), PC_SH);
    ck_assert_int_eq(proto_dir_state_of(home, 0), PD_SHARED);
    ck_assert(sharers_contains(proto_dir_sharers(home, 0), 0));

    ck_assert_int_eq(access_blk(home, 1, 1, &a), PROTO_OK);
    ck_assert_int_eq(count_kind(&a, PA_SEND), 0);
    ck_assert_int_eq(count_kind(&a, PA_INSTALL), 0);
    ck_assert_int_eq(a.n, 3);
    is_kind(&a, 0, PA_WAIT, 1);
    is_access(&a, 1, PROTO_ACCESS_WRITE, 1);
    is_kind(&a, 2, PA_COMPLETE, 1);
    ck_assert_int_eq(proto_cache_state_of(home, 1), PC_MH);
    ck_assert_int_eq(proto_dir_state_of(home, 1), PD_EXCL);
    ck_assert_int_eq(proto_dir_owner(home, 1), 0);

    /* upgrade of the home's read copy, no other sharer: also local */
    ck_assert_int_eq(release_blk(home, 0, &a), PROTO_OK);
    ck_assert_int_eq(access_blk(home, 0, 1, &a), PROTO_OK);
    ck_assert_int_eq(count_kind(&a, PA_SEND), 0);
    ck_assert_int_eq(a.n, 3);
    is_kind(&a, 0, PA_WAIT, 0);
    is_access(&a, 1, PROTO_ACCESS_WRITE, 0);
    is_kind(&a, 2, PA_COMPLETE, 0);
    ck_assert_int_eq(proto_cache_state_of(home, 0), PC_MH);

    proto_actions_free(&a);
    proto_engine_destroy(home);
}
END_TEST

/* A remote owner recalled for a read: RECALL, WB_DATA, install at the home,
 * DATA_S; the old owner keeps nothing, the reader is the only sharer. */
START_TEST(recall_through_home)
{
    proto_engine *home = mk_home(0, 3, 1, 0), *n1 = mk_home(1, 3, 1, 0);
    proto_actions a;
    proto_actions_init(&a);

    ck_assert_int_eq(access_blk(n1, 0, 1, &a), PROTO_OK);
    is_send(&a, 0, PM_GETX, 1, 0, 0);
    ck_assert_int_eq(recv_msg(home, PM_GETX, 1, 0, 0, &a), PROTO_OK);
    ck_assert_int_eq(a.n, 1);
    is_send(&a, 0, PM_DATA_X, 0, 1, 0);
    ck_assert_int_eq(recv_msg(n1, PM_DATA_X, 0, 1, 0, &a), PROTO_OK);
    ck_assert_int_eq(a.n, 3);
    is_kind(&a, 0, PA_INSTALL, 0);
    is_access(&a, 1, PROTO_ACCESS_WRITE, 0);
    is_kind(&a, 2, PA_COMPLETE, 0);
    ck_assert_int_eq(release_blk(n1, 0, &a), PROTO_OK);
    ck_assert_int_eq(proto_cache_state_of(n1, 0), PC_M);

    ck_assert_int_eq(recv_msg(home, PM_GETS, 2, 0, 0, &a), PROTO_OK);
    ck_assert_int_eq(a.n, 1);
    is_send(&a, 0, PM_RECALL, 0, 1, 0);
    ck_assert_int_eq(proto_dir_state_of(home, 0), PD_BUSY_RECALL);
    ck_assert_int_eq(proto_dir_owner(home, 0), 1);

    ck_assert_int_eq(recv_msg(n1, PM_RECALL, 0, 1, 0, &a), PROTO_OK);
    ck_assert_int_eq(a.n, 2);
    is_access(&a, 0, PROTO_ACCESS_NONE, 0);
    is_send(&a, 1, PM_WB_DATA, 1, 0, 0);
    ck_assert_int_eq(proto_cache_state_of(n1, 0), PC_I);

    ck_assert_int_eq(recv_msg(home, PM_WB_DATA, 1, 0, 0, &a), PROTO_OK);
    ck_assert_int_eq(a.n, 2);
    is_kind(&a, 0, PA_INSTALL, 0);
    is_send(&a, 1, PM_DATA_S, 0, 2, 0);
    ck_assert_int_eq(proto_dir_state_of(home, 0), PD_SHARED);
    ck_assert_int_eq(sharers_count(proto_dir_sharers(home, 0)), 1);
    ck_assert(!sharers_contains(proto_dir_sharers(home, 0), 1));
    ck_assert(sharers_contains(proto_dir_sharers(home, 0), 2));

    proto_actions_free(&a);
    proto_engine_destroy(home);
    proto_engine_destroy(n1);
}
END_TEST

/* A held grant defers an INV; the release replays it. */
START_TEST(hold_defers_inv)
{
    proto_engine *n1 = mk_home(1, 3, 1, 0);
    proto_actions a;
    proto_actions_init(&a);
    ck_assert_int_eq(access_blk(n1, 0, 0, &a), PROTO_OK);
    ck_assert_int_eq(recv_msg(n1, PM_DATA_S, 0, 1, 0, &a), PROTO_OK);
    ck_assert_int_eq(proto_cache_state_of(n1, 0), PC_SH);

    ck_assert_int_eq(recv_msg(n1, PM_INV, 0, 1, 0, &a), PROTO_OK);
    ck_assert_int_eq(a.n, 0);
    ck_assert_int_eq(proto_cache_state_of(n1, 0), PC_SH);

    ck_assert_int_eq(release_blk(n1, 0, &a), PROTO_OK);
    ck_assert_int_eq(a.n, 2);
    is_access(&a, 0, PROTO_ACCESS_NONE, 0);
    is_send(&a, 1, PM_INV_ACK, 1, 0, 0);
    ck_assert_int_eq(proto_cache_state_of(n1, 0), PC_I);
    proto_actions_free(&a);
    proto_engine_destroy(n1);
}
END_TEST

/* ---- rejected pairs and bad inputs ---- */

START_TEST(rejected_pairs)
{
    proto_engine *home = mk_home(0, 3, 1, 0), *n1 = mk_home(1, 3, 1, 0);
    proto_actions a;
    proto_actions_init(&a);
    const char *err;

    /* cache side: DATA_S with no request in flight */
    ck_assert_int_eq(recv_msg(n1, PM_DATA_S, 0, 1, 0, &a), PROTO_EREJECT);
    err = proto_last_error(n1);
    ck_assert_msg(strstr(err, "state I ") && strstr(err, "DATA_S"), "unclear error: %s", err);
    ck_assert_msg(strstr(err, proto_cache_table[PC_I][CE_DATA_S].why), "no reason: %s", err);
    ck_assert_int_eq(proto_cache_state_of(n1, 0), PC_I); /* unchanged */

    /* cache side: a RECALL for a node that owns nothing */
    ck_assert_int_eq(recv_msg(n1, PM_RECALL, 0, 1, 0, &a), PROTO_EREJECT);
    err = proto_last_error(n1);
    ck_assert_msg(strstr(err, "state I ") && strstr(err, "RECALL"), "unclear error: %s", err);

    /* cache side: an INV for a node that holds nothing; only a cache that
     * drops copies (evictions) may be sent one (options_narrow_table) */
    ck_assert_int_eq(recv_msg(n1, PM_INV, 0, 1, 0, &a), PROTO_EREJECT);
    err = proto_last_error(n1);
    ck_assert_msg(strstr(err, "state I ") && strstr(err, "evictions"), "unclear error: %s", err);
    ck_assert_int_eq(a.n, 0);

    /* directory side: an INV_ACK with no invalidation in progress */
    ck_assert_int_eq(recv_msg(home, PM_INV_ACK, 1, 0, 0, &a), PROTO_EREJECT);
    err = proto_last_error(home);
    ck_assert_msg(strstr(err, "Unowned") && strstr(err, "INV_ACK"), "unclear error: %s", err);
    ck_assert_int_eq(proto_dir_state_of(home, 0), PD_UNOWNED);

    /* directory side: WB_DATA with no recall in progress */
    ck_assert_int_eq(recv_msg(home, PM_WB_DATA, 2, 0, 0, &a), PROTO_EREJECT);
    err = proto_last_error(home);
    ck_assert_msg(strstr(err, "Unowned") && strstr(err, "WB_DATA"), "unclear error: %s", err);

    proto_actions_free(&a);
    proto_engine_destroy(home);
    proto_engine_destroy(n1);
}
END_TEST

START_TEST(bad_inputs)
{
    /* 4 blocks, only blocks 0 and 1 allocated (homed at node 0) */
    proto_engine *home = mk(0, 3, 4), *n1 = mk(1, 3, 4);
    ck_assert_int_eq(proto_set_home(home, 0, 2, 0), PROTO_OK);
    ck_assert_int_eq(proto_set_home(n1, 0, 2, 0), PROTO_OK);
    proto_actions a;
    proto_actions_init(&a);

    /* block out of range, unallocated block */
    ck_assert_int_eq(access_blk(n1, 4, 0, &a), PROTO_EINVAL);
    ck_assert_int_eq(access_blk(n1, 1000000, 1, &a), PROTO_EINVAL);
    ck_assert_int_eq(access_blk(n1, 3, 0, &a), PROTO_EINVAL);
    ck_assert_msg(strstr(proto_last_error(n1), "not allocated"), "%s", proto_last_error(n1));
    ck_assert_int_eq(recv_msg(home, PM_GETS, 1, 0, 4, &a), PROTO_EINVAL);
    ck_assert_int_eq(recv_msg(home, PM_GETS, 1, 0, 2, &a), PROTO_EINVAL);
    ck_assert_int_eq(release_blk(n1, 7, &a), PROTO_EINVAL);

    /* src == dst, src out of range, dst not this node */
    ck_assert_int_eq(recv_msg(home, PM_GETS, 0, 0, 0, &a), PROTO_EINVAL);
    ck_assert_int_eq(recv_msg(home, PM_GETS, 3, 0, 0, &a), PROTO_EINVAL);
    ck_assert_int_eq(recv_msg(home, PM_GETS, -1, 0, 0, &a), PROTO_EINVAL);
    ck_assert_int_eq(recv_msg(home, PM_GETS, 1, 2, 0, &a), PROTO_EINVAL);

    /* unknown message types */
    ck_assert_int_eq(recv_msg(n1, 0, 0, 1, 0, &a), PROTO_EINVAL);
    ck_assert_int_eq(recv_msg(n1, PM_NTYPES, 0, 1, 0, &a), PROTO_EINVAL);
    ck_assert_int_eq(recv_msg(n1, 200, 0, 1, 0, &a), PROTO_EINVAL);

    /* a request to a node that is not the block's home; a reply from a node
     * that is not the block's home */
    ck_assert_int_eq(recv_msg(n1, PM_GETS, 2, 1, 0, &a), PROTO_EINVAL);
    ck_assert_int_eq(recv_msg(n1, PM_DATA_S, 2, 1, 0, &a), PROTO_EINVAL);

    /* nothing changed, nothing emitted */
    ck_assert_int_eq(a.n, 0);
    ck_assert_int_eq(proto_dir_state_of(home, 0), PD_UNOWNED);
    ck_assert_int_eq(proto_cache_state_of(n1, 0), PC_I);

    /* bad configurations and homes */
    proto_config bad[] = { { .self = 0, .nnodes = 0, .nblocks = 1 },
                           { .self = 3, .nnodes = 3, .nblocks = 1 },
                           { .self = -1, .nnodes = 3, .nblocks = 1 },
                           { .self = 0, .nnodes = 3, .nblocks = 0 },
                           { .self = 0, .nnodes = PROTO_MAX_NODES + 1, .nblocks = 1 } };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        ck_assert(proto_engine_create(&bad[i]) == NULL);
    ck_assert_int_eq(proto_set_home(n1, 0, 1, 3), PROTO_EINVAL);
    ck_assert_int_eq(proto_set_home(n1, 0, 1, -1), PROTO_EINVAL);
    ck_assert_int_eq(proto_set_home(n1, 3, 2, 0), PROTO_EINVAL);
    ck_assert_int_eq(proto_set_home(n1, 4, 1, 0), PROTO_EINVAL);

    proto_actions_free(&a);
    proto_engine_destroy(home);
    proto_engine_destroy(n1);
}
END_TEST

/* ---- queueing at a busy home ---- */

/* Home 0 of 4 nodes.  Node 1 owns the block; node 2 reads (recall), node 3
 * writes and node 1 upgrades meanwhile: both wait in the home's FIFO and are
 * served in order when the recall is done. */
static void build_queue(proto_engine *home, proto_actions *a)
{
    ck_assert_int_eq(recv_msg(home, PM_GETX, 1, 0, 0, a), PROTO_OK);
    is_send(a, 0, PM_DATA_X, 0, 1, 0);
    ck_assert_int_eq(recv_msg(home, PM_GETS, 2, 0, 0, a), PROTO_OK);
    ck_assert_int_eq(a->n, 1);
    is_send(a, 0, PM_RECALL, 0, 1, 0);
    ck_assert_int_eq(proto_dir_state_of(home, 0), PD_BUSY_RECALL);
    ck_assert_int_eq(recv_msg(home, PM_GETX, 3, 0, 0, a), PROTO_OK);
    ck_assert_int_eq(a->n, 0); /* queued */
    ck_assert_int_eq(proto_dir_state_of(home, 0), PD_BUSY_RECALL);
}

START_TEST(queue_at_busy_home)
{
    proto_engine *home = mk_home(0, 4, 1, 0);
    proto_actions a;
    proto_actions_init(&a);
    build_queue(home, &a);

    /* The data comes back: DATA_S to node 2, then the queued GETX of node 3
     * finds Shared {2} (the recalled owner kept nothing): node 2 is
     * invalidated. */
    ck_assert_int_eq(recv_msg(home, PM_WB_DATA, 1, 0, 0, &a), PROTO_OK);
    ck_assert_int_eq(a.n, 3);
    is_kind(&a, 0, PA_INSTALL, 0);
    is_send(&a, 1, PM_DATA_S, 0, 2, 0);
    is_send(&a, 2, PM_INV, 0, 2, 0);
    ck_assert_int_eq(proto_dir_state_of(home, 0), PD_BUSY_INV);

    /* Another request while invalidating: queued too. */
    ck_assert_int_eq(recv_msg(home, PM_GETS, 1, 0, 0, &a), PROTO_OK);
    ck_assert_int_eq(a.n, 0);
    ck_assert_int_eq(proto_dir_state_of(home, 0), PD_BUSY_INV);
    /* Last ack: DATA_X to node 3, then node 1's GETS recalls it at once. */
    ck_assert_int_eq(recv_msg(home, PM_INV_ACK, 2, 0, 0, &a), PROTO_OK);
    ck_assert_int_eq(a.n, 2);
    is_send(&a, 0, PM_DATA_X, 0, 3, 0);
    is_send(&a, 1, PM_RECALL, 0, 3, 0);
    ck_assert_int_eq(proto_dir_state_of(home, 0), PD_BUSY_RECALL);
    ck_assert_int_eq(proto_dir_owner(home, 0), 3);

    ck_assert_int_eq(recv_msg(home, PM_WB_DATA, 3, 0, 0, &a), PROTO_OK);
    ck_assert_int_eq(a.n, 2);
    is_kind(&a, 0, PA_INSTALL, 0);
    is_send(&a, 1, PM_DATA_S, 0, 1, 0);
    ck_assert_int_eq(proto_dir_state_of(home, 0), PD_SHARED);
    ck_assert_int_eq(sharers_count(proto_dir_sharers(home, 0)), 1);

    proto_actions_free(&a);
    proto_engine_destroy(home);
}
END_TEST

/* The FIFO is a ring: served from its head, it wraps around, and it grows
 * (twice the room) when full.  Here it grows while wrapped, and the
 * requests must still be served first come, first served.  Ten nodes, home
 * 0: every node writes once, the first one owning the block and the others
 * waiting; a recall serves one at a time. */
START_TEST(queue_grows_after_wrap)
{
    enum { N = 10 };
    proto_engine *home = mk_home(0, N, 1, 0);
    proto_actions a;
    proto_actions_init(&a);
    ck_assert_int_eq(recv_msg(home, PM_GETX, 1, 0, 0, &a), PROTO_OK);
    is_send(&a, 0, PM_DATA_X, 0, 1, 0);
    ck_assert_int_eq(recv_msg(home, PM_GETX, 2, 0, 0, &a), PROTO_OK);
    is_send(&a, 0, PM_RECALL, 0, 1, 0);
    for (int n = 3; n <= 5; n++) { /* queued: 3 4 5 (room for 4) */
        ck_assert_int_eq(recv_msg(home, PM_GETX, n, 0, 0, &a), PROTO_OK);
        ck_assert_int_eq(a.n, 0);
    }
    /* 1's data: DATA_X to 2, then 3 is served (a recall of 2): 4 5 left,
     * from the ring's second slot */
    ck_assert_int_eq(recv_msg(home, PM_WB_DATA, 1, 0, 0, &a), PROTO_OK);
    ck_assert_int_eq(a.n, 3);
    is_send(&a, 1, PM_DATA_X, 0, 2, 0);
    is_send(&a, 2, PM_RECALL, 0, 2, 0);
    /* 6 and 7 fill it, 7 in the first slot (wrapped); 8 and 9 make it grow */
    for (int n = 6; n < N; n++) {
        ck_assert_int_eq(recv_msg(home, PM_GETX, n, 0, 0, &a), PROTO_OK);
        ck_assert_int_eq(a.n, 0);
        ck_assert_int_eq(proto_dir_state_of(home, 0), PD_BUSY_RECALL);
    }
    /* each owner's data: DATA_X to the next in arrival order, whose recall
     * serves the one after */
    for (int owner = 2; owner < N - 1; owner++) {
        ck_assert_int_eq(recv_msg(home, PM_WB_DATA, owner, 0, 0, &a), PROTO_OK);
        ck_assert_msg(a.n >= 2 && a.v[1].kind == PA_SEND && a.v[1].msg.type == PM_DATA_X,
                      "no write grant after node %d's data", owner);
        ck_assert_msg(a.v[1].msg.dst == owner + 1,
                      "node %d's data went to node %d, not to node %d (first come, first served)",
                      owner, a.v[1].msg.dst, owner + 1);
        if (owner + 1 < N - 1) {
            ck_assert_int_eq(a.n, 3);
            is_send(&a, 2, PM_RECALL, 0, owner + 1, 0);
        } else {
            ck_assert_int_eq(a.n, 2);
        }
    }
    ck_assert_int_eq(proto_dir_state_of(home, 0), PD_EXCL);
    ck_assert_int_eq(proto_dir_owner(home, 0), N - 1);
    proto_actions_free(&a);
    proto_engine_destroy(home);
}
END_TEST

/* The home counts an INV_ACK only from a node it invalidated and has not
 * heard from yet (never from the upgrading requester, which it did not
 * invalidate), and takes WB_DATA only from the owner it recalled: anything
 * else is a protocol bug, refused like a pair outside the table, and the
 * directory is left as it was. */
START_TEST(home_checks_senders)
{
    proto_engine *home = mk_home(0, 4, 1, 0);
    proto_actions a;
    proto_actions_init(&a);
    const char *err;
    ck_assert_int_eq(recv_msg(home, PM_GETS, 1, 0, 0, &a), PROTO_OK);
    ck_assert_int_eq(recv_msg(home, PM_GETS, 2, 0, 0, &a), PROTO_OK);
    ck_assert_int_eq(recv_msg(home, PM_GETX, 3, 0, 0, &a), PROTO_OK);
    ck_assert_int_eq(a.n, 2); /* INV to 1 and 2 */
    ck_assert_int_eq(recv_msg(home, PM_INV_ACK, 3, 0, 0, &a), PROTO_EREJECT);
    err = proto_last_error(home);
    ck_assert_msg(strstr(err, "BusyInv") && strstr(err, "not invalidated"), "unclear: %s", err);
    ck_assert_int_eq(recv_msg(home, PM_INV_ACK, 1, 0, 0, &a), PROTO_OK);
    ck_assert_int_eq(a.n, 0);
    ck_assert(!sharers_contains(proto_dir_sharers(home, 0), 1)); /* acked: off the list */
    ck_assert_int_eq(recv_msg(home, PM_INV_ACK, 1, 0, 0, &a), PROTO_EREJECT); /* twice */
    ck_assert_int_eq(proto_dir_state_of(home, 0), PD_BUSY_INV);
    ck_assert_int_eq(recv_msg(home, PM_INV_ACK, 2, 0, 0, &a), PROTO_OK);
    is_send(&a, 0, PM_DATA_X, 0, 3, 0);

    /* a recall: WB_DATA from another node than the owner */
    ck_assert_int_eq(recv_msg(home, PM_GETS, 1, 0, 0, &a), PROTO_OK);
    is_send(&a, 0, PM_RECALL, 0, 3, 0);
    ck_assert_int_eq(recv_msg(home, PM_WB_DATA, 2, 0, 0, &a), PROTO_EREJECT);
    ck_assert_msg(strstr(proto_last_error(home), "not the block's owner"), "unclear: %s",
                  proto_last_error(home));
    ck_assert_int_eq(proto_dir_state_of(home, 0), PD_BUSY_RECALL);
    ck_assert_int_eq(recv_msg(home, PM_WB_DATA, 3, 0, 0, &a), PROTO_OK);
    is_send(&a, 1, PM_DATA_S, 0, 1, 0);

    /* an upgrade: the requester itself was not invalidated */
    ck_assert_int_eq(recv_msg(home, PM_GETS, 2, 0, 0, &a), PROTO_OK);
    ck_assert_int_eq(recv_msg(home, PM_UPGRADE, 1, 0, 0, &a), PROTO_OK);
    ck_assert_int_eq(a.n, 1);
    is_send(&a, 0, PM_INV, 0, 2, 0);
    ck_assert_int_eq(recv_msg(home, PM_INV_ACK, 1, 0, 0, &a), PROTO_EREJECT);
    ck_assert_int_eq(recv_msg(home, PM_INV_ACK, 2, 0, 0, &a), PROTO_OK);
    is_send(&a, 0, PM_UPGRADE_ACK, 0, 1, 0);
    proto_actions_free(&a);
    proto_engine_destroy(home);
}
END_TEST

/* A held block keeps one deferred message: a second one would overwrite
 * it and the home would wait for its answer for ever. */
START_TEST(second_deferred_message)
{
    proto_engine *n1 = mk_home(1, 3, 1, 0);
    proto_actions a;
    proto_actions_init(&a);
    ck_assert_int_eq(access_blk(n1, 0, 1, &a), PROTO_OK);
    ck_assert_int_eq(recv_msg(n1, PM_DATA_X, 0, 1, 0, &a), PROTO_OK);
    ck_assert_int_eq(proto_cache_state_of(n1, 0), PC_MH);
    ck_assert_int_eq(recv_msg(n1, PM_RECALL, 0, 1, 0, &a), PROTO_OK);
    ck_assert_int_eq(proto_deferred_messages(n1), 1);
    ck_assert_int_eq(recv_msg(n1, PM_RECALL, 0, 1, 0, &a), PROTO_EREJECT);
    ck_assert_msg(strstr(proto_last_error(n1), "deferred"), "unclear: %s", proto_last_error(n1));
    ck_assert_int_eq(proto_deferred_messages(n1), 1);
    ck_assert_int_eq(release_blk(n1, 0, &a), PROTO_OK); /* the first one is still answered */
    is_send(&a, 1, PM_WB_DATA, 1, 0, 0);
    proto_actions_free(&a);
    proto_engine_destroy(n1);
}
END_TEST

/* The options narrow the table: the entries only an option's inputs reach
 * (an INV for a copy dropped by an eviction, the eviction itself, a PUTS,
 * a DATA_E) are refused by an engine created without it, naming the
 * option; with it they are taken. */
START_TEST(options_narrow_table)
{
    proto_actions a;
    proto_actions_init(&a);
    for (int ev = 0; ev < 2; ev++) {
        proto_config c = { .self = 1, .nnodes = 3, .nblocks = 1, .evictions = ev };
        proto_engine *n1 = proto_engine_create(&c);
        ck_assert_ptr_nonnull(n1);
        ck_assert_int_eq(proto_set_home(n1, 0, 1, 0), PROTO_OK);
        /* INV in I, IS, IM */
        ck_assert_int_eq(recv_msg(n1, PM_INV, 0, 1, 0, &a), ev ? PROTO_OK : PROTO_EREJECT);
        ck_assert_int_eq(access_blk(n1, 0, 0, &a), PROTO_OK);
        ck_assert_int_eq(recv_msg(n1, PM_INV, 0, 1, 0, &a), ev ? PROTO_OK : PROTO_EREJECT);
        if (!ev)
            ck_assert_msg(strstr(proto_last_error(n1), "only with evictions"), "unclear: %s",
                          proto_last_error(n1));
        ck_assert_int_eq(proto_cache_state_of(n1, 0), PC_IS);
        /* DATA_E without excl_clean */
        ck_assert_int_eq(recv_msg(n1, PM_DATA_E, 0, 1, 0, &a), PROTO_EREJECT);
        ck_assert_msg(strstr(proto_last_error(n1), "excl_clean"), "unclear: %s",
                      proto_last_error(n1));
        ck_assert_int_eq(recv_msg(n1, PM_DATA_S, 0, 1, 0, &a), PROTO_OK);
        ck_assert_int_eq(release_blk(n1, 0, &a), PROTO_OK);
        ck_assert_int_eq(evict_blk_plain(n1, 0, &a), ev ? PROTO_OK : PROTO_EREJECT);
        ck_assert_int_eq(proto_cache_state_of(n1, 0), ev ? PC_I : PC_S);
        proto_engine_destroy(n1);
    }
    /* a PUTS needs replacement hints, at the home too */
    proto_config hc = { .self = 0, .nnodes = 3, .nblocks = 1, .evictions = 1 };
    proto_engine *h = proto_engine_create(&hc);
    ck_assert_int_eq(proto_set_home(h, 0, 1, 0), PROTO_OK);
    ck_assert_int_eq(recv_msg(h, PM_GETS, 1, 0, 0, &a), PROTO_OK);
    ck_assert_int_eq(recv_msg(h, PM_PUTS, 1, 0, 0, &a), PROTO_EREJECT);
    ck_assert_msg(strstr(proto_last_error(h), "replacement_hints"), "unclear: %s",
                  proto_last_error(h));
    ck_assert(sharers_contains(proto_dir_sharers(h, 0), 1));
    proto_engine_destroy(h);
    /* every entry that needs an option is a valid one, and names it */
    for (int s = 0; s < PC_NSTATES; s++)
        for (int e = 0; e < CE_NEVENTS; e++)
            if (proto_cache_table[s][e].needs)
                ck_assert(proto_cache_table[s][e].valid &&
                          *proto_needs_name(proto_cache_table[s][e].needs));
    for (int s = 0; s < PD_NSTATES; s++)
        for (int e = 0; e < DE_NEVENTS; e++)
            if (proto_dir_table[s][e].needs)
                ck_assert(proto_dir_table[s][e].valid &&
                          *proto_needs_name(proto_dir_table[s][e].needs));
    ck_assert_str_eq(proto_needs_name(PROTO_NEEDS_EVICTIONS | PROTO_NEEDS_HINTS),
                     "evictions, replacement_hints");
    proto_actions_free(&a);
}
END_TEST

/* ---- snapshots ---- */

START_TEST(save_load_round_trip)
{
    proto_engine *home = mk_home(0, 4, 3, 0), *copy = mk_home(0, 4, 3, 0);
    proto_actions a, b;
    proto_actions_init(&a);
    proto_actions_init(&b);
    build_queue(home, &a); /* busy, with a queue */
    ck_assert_int_eq(access_blk(home, 2, 0, &a), PROTO_OK); /* held, home-local */

    size_t need = proto_engine_save(home, NULL, 0);
    ck_assert_int_gt(need, 0);
    unsigned char *s1 = malloc(need), *s2 = malloc(need);
    ck_assert(s1 && s2);
    ck_assert_int_eq(proto_engine_save(home, s1, need), need);
    ck_assert_int_eq(proto_engine_load(copy, s1, need), PROTO_OK);
    ck_assert_int_eq(proto_engine_save(copy, s2, need), need);
    ck_assert(memcmp(s1, s2, need) == 0);
    ck_assert_int_eq(proto_dir_state_of(copy, 0), PD_BUSY_RECALL);
    ck_assert_int_eq(proto_dir_owner(copy, 0), 1);
    ck_assert_int_eq(proto_cache_state_of(copy, 2), PC_SH);
    /* the pattern records came through: the served requests, not the queued one */
    proto_block_patterns p0, p1;
    ck_assert_int_eq(proto_patterns_of(home, 0, &p0), PROTO_OK);
    ck_assert_int_eq(proto_patterns_of(copy, 0, &p1), PROTO_OK);
    ck_assert_uint_eq(p0.requests, 2);
    ck_assert(memcmp(&p0, &p1, sizeof p0) == 0);

    /* Both go on identically (the queue came through). */
    ck_assert_int_eq(recv_msg(home, PM_WB_DATA, 1, 0, 0, &a), PROTO_OK);
    ck_assert_int_eq(recv_msg(copy, PM_WB_DATA, 1, 0, 0, &b), PROTO_OK);
    ck_assert_int_eq(a.n, b.n);
    ck_assert_int_eq(a.n, 3); /* install, DATA_S to 2, INV to 2 for the queued GETX */
    for (size_t i = 0; i < a.n; i++) /* field by field: actions are filled in place, their
                                        padding is whatever the buffer held */
        ck_assert(a.v[i].kind == b.v[i].kind && a.v[i].access == b.v[i].access &&
                  a.v[i].block == b.v[i].block && a.v[i].msg.type == b.v[i].msg.type &&
                  a.v[i].msg.src == b.v[i].msg.src && a.v[i].msg.dst == b.v[i].msg.dst &&
                  a.v[i].msg.block == b.v[i].msg.block);

    /* Restore an earlier state into an engine that moved on. */
    ck_assert_int_eq(proto_engine_load(home, s1, need), PROTO_OK);
    ck_assert_int_eq(proto_dir_state_of(home, 0), PD_BUSY_RECALL);
    ck_assert_int_eq(proto_engine_save(home, s2, need), need);
    ck_assert(memcmp(s1, s2, need) == 0);

    /* Truncated or oversized snapshots are refused. */
    ck_assert_int_eq(proto_engine_load(copy, s1, need - 1), PROTO_EINVAL);
    unsigned char *big = calloc(need + 1, 1);
    memcpy(big, s1, need);
    ck_assert_int_eq(proto_engine_load(copy, big, need + 1), PROTO_EINVAL);

    /* A fresh engine snapshots to a fresh engine's bytes. */
    proto_engine *f1 = mk_home(0, 4, 3, 0), *f2 = mk_home(0, 4, 3, 0);
    size_t fn = proto_engine_save(f1, NULL, 0);
    unsigned char *fs = malloc(fn), *fs2 = malloc(fn);
    proto_engine_save(f1, fs, fn);
    ck_assert_int_eq(proto_engine_load(home, fs, fn), PROTO_OK);
    ck_assert_int_eq(proto_engine_save(home, fs2, fn), fn);
    ck_assert(memcmp(fs, fs2, fn) == 0);
    ck_assert_int_eq(proto_dir_state_of(home, 0), PD_UNOWNED);

    free(fs);
    free(fs2);
    free(big);
    free(s1);
    free(s2);
    proto_engine_destroy(f1);
    proto_engine_destroy(f2);
    proto_actions_free(&a);
    proto_actions_free(&b);
    proto_engine_destroy(home);
    proto_engine_destroy(copy);
}
END_TEST

/* ---- scale ---- */

/* 1024 nodes read one block (the home too), then the home writes it: 1023
 * INVs, and the write is granted after the last ack only. */
START_TEST(wide_sharing_1024)
{
    enum { N = 1024 };
    proto_engine *home = mk_home(0, N, 1, 0);
    proto_actions a;
    proto_actions_init(&a);

    ck_assert_int_eq(access_blk(home, 0, 0, &a), PROTO_OK);
    ck_assert_int_eq(release_blk(home, 0, &a), PROTO_OK);
    for (int n = 1; n < N; n++) {
        ck_assert_int_eq(recv_msg(home, PM_GETS, n, 0, 0, &a), PROTO_OK);
        ck_assert_int_eq(a.n, 1);
        is_send(&a, 0, PM_DATA_S, 0, n, 0);
    }
    ck_assert_int_eq(proto_dir_state_of(home, 0), PD_SHARED);
    ck_assert_int_eq(sharers_count(proto_dir_sharers(home, 0)), N);

    ck_assert_int_eq(access_blk(home, 0, 1, &a), PROTO_OK);
    ck_assert_int_eq(a.n, 1 + (N - 1));
    is_kind(&a, 0, PA_WAIT, 0);
    for (int n = 1; n < N; n++)
        is_send(&a, (size_t)n, PM_INV, 0, n, 0);
    ck_assert_int_eq(proto_dir_state_of(home, 0), PD_BUSY_INV);
    ck_assert_int_eq(proto_cache_state_of(home, 0), PC_SM);

    /* acks in any order: here from the top down */
    for (int n = N - 1; n >= 2; n--) {
        ck_assert_int_eq(recv_msg(home, PM_INV_ACK, n, 0, 0, &a), PROTO_OK);
        ck_assert_int_eq(a.n, 0);
        ck_assert_int_eq(proto_dir_state_of(home, 0), PD_BUSY_INV);
    }
    ck_assert_int_eq(recv_msg(home, PM_INV_ACK, 1, 0, 0, &a), PROTO_OK);
    ck_assert_int_eq(a.n, 2);
    is_access(&a, 0, PROTO_ACCESS_WRITE, 0);
    is_kind(&a, 1, PA_COMPLETE, 0);
    ck_assert_int_eq(proto_dir_state_of(home, 0), PD_EXCL);
    ck_assert_int_eq(proto_dir_owner(home, 0), 0);
    ck_assert_int_eq(sharers_count(proto_dir_sharers(home, 0)), 0);
    ck_assert_int_eq(proto_cache_state_of(home, 0), PC_MH);

    /* and a remote writer among 1023 sharers: GETX from a non-sharer after
     * they all read again */
    ck_assert_int_eq(release_blk(home, 0, &a), PROTO_OK);
    for (int n = 1; n < N; n++)
        ck_assert_int_eq(recv_msg(home, PM_GETS, n, 0, 0, &a), PROTO_OK);
    /* the first GETS recalled the home's own dirty copy inside the call;
     * the home keeps no copy after a recall */
    ck_assert_int_eq(proto_dir_state_of(home, 0), PD_SHARED);
    ck_assert_int_eq(sharers_count(proto_dir_sharers(home, 0)), N - 1);
    ck_assert_int_eq(recv_msg(home, PM_UPGRADE, 7, 0, 0, &a), PROTO_OK);
    /* INV to the 1022 remote sharers other than 7 */
    ck_assert_int_eq(count_kind(&a, PA_SEND), N - 2);
    ck_assert_int_eq(proto_cache_state_of(home, 0), PC_I);
    for (int n = 1; n < N; n++) {
        if (n == 7)
            continue;
        ck_assert_int_eq(recv_msg(home, PM_INV_ACK, n, 0, 0, &a), PROTO_OK);
        if (n != N - 1)
            ck_assert_int_eq(a.n, 0);
    }
    ck_assert_int_eq(a.n, 1);
    is_send(&a, 0, PM_UPGRADE_ACK, 0, 7, 0);
    ck_assert_int_eq(proto_dir_owner(home, 0), 7);

    proto_actions_free(&a);
    proto_engine_destroy(home);
}
END_TEST

/* ---- the tables themselves ---- */

START_TEST(tables_well_formed)
{
    for (int s = 0; s < PC_NSTATES; s++)
        for (int e = 0; e < CE_NEVENTS; e++) {
            const proto_table_entry *t = &proto_cache_table[s][e];
            if (t->valid)
                ck_assert_int_lt(t->next, PC_NSTATES);
            else
                ck_assert_msg(t->why && *t->why, "cache (%s, %s): rejected without a reason",
                              proto_cache_state_name(s), proto_cache_event_name(e));
            ck_assert_str_ne(proto_cache_state_name(s), "?");
            ck_assert_str_ne(proto_cache_event_name(e), "?");
            for (int i = 0; i < PROTO_MAX_STEPS && t->steps[i]; i++)
                ck_assert_str_ne(proto_step_name(t->steps[i]), "?");
        }
    for (int s = 0; s < PD_NSTATES; s++)
        for (int e = 0; e < DE_NEVENTS; e++) {
            const proto_table_entry *t = &proto_dir_table[s][e];
            if (t->valid)
                ck_assert_int_lt(t->next, PD_NSTATES);
            else
                ck_assert_msg(t->why && *t->why, "directory (%s, %s): rejected without a reason",
                              proto_dir_state_name(s), proto_dir_event_name(e));
            ck_assert_str_ne(proto_dir_state_name(s), "?");
            ck_assert_str_ne(proto_dir_event_name(e), "?");
            for (int i = 0; i < PROTO_MAX_STEPS && t->steps[i]; i++)
                ck_assert_str_ne(proto_step_name(t->steps[i]), "?");
        }
    for (int m = 1; m < PM_NTYPES; m++)
        ck_assert_str_ne(proto_msg_name(m), "?");
    ck_assert(proto_msg_has_data(PM_DATA_S) && proto_msg_has_data(PM_DATA_X) &&
              proto_msg_has_data(PM_WB_DATA));
    ck_assert(!proto_msg_has_data(PM_GETS) && !proto_msg_has_data(PM_INV) &&
              !proto_msg_has_data(PM_UPGRADE_ACK));
    ck_assert(proto_msg_has_data(PM_PUTX) && proto_msg_has_data(PM_DATA_E));
    ck_assert(!proto_msg_has_data(PM_PUTS) && !proto_msg_has_data(PM_PUTE) &&
              !proto_msg_has_data(PM_PUT_ACK));
    ck_assert_int_le(PM_NTYPES, 32); /* tests/explore packs a type in 5 bits */
    /* evictions: valid exactly in S, E and M */
    for (int s = 0; s < PC_NSTATES; s++)
        ck_assert_int_eq(proto_cache_table[s][CE_EVICT].valid,
                         s == PC_S || s == PC_E || s == PC_M);
    for (int s = 0; s < PC_NSTATES; s++)
        ck_assert_int_eq(proto_cache_held((proto_cache_state)s),
                         s == PC_SH || s == PC_MH || s == PC_EH);
}
END_TEST

/* ---- hardware additions: evictions, replacement hints, exclusive-clean ---- */

/* An engine with the simulated machines' options, every block homed at
 * `home`. */
static proto_engine *mk_hw(int self, int nnodes, uint32_t nblocks, int home, int hints, int excl)
{
    proto_config c = { .self = self, .nnodes = nnodes, .nblocks = nblocks, .evictions = 1,
                       .replacement_hints = hints, .excl_clean = excl };
    proto_engine *e = proto_engine_create(&c);
    ck_assert_msg(e != NULL, "proto_engine_create failed");
    ck_assert_int_eq(proto_set_home(e, 0, nblocks, home), PROTO_OK);
    return e;
}

static int evict_blk(proto_engine *e, uint32_t block, proto_actions *a)
{
    a->n = 0;
    return proto_evict(e, block, a);
}

/* Node `n` (engine c) gets a read copy of block 0 from home h (node 0). */
static void read_copy(proto_engine *h, proto_engine *c, int n, proto_actions *a)
{
    ck_assert_int_eq(access_blk(c, 0, 0, a), PROTO_OK);
    is_send(a, 0, PM_GETS, n, 0, 0);
    ck_assert_int_eq(recv_msg(h, PM_GETS, n, 0, 0, a), PROTO_OK);
    ck_assert_int_eq(a->n, 1);
    int type = a->v[0].msg.type;
    ck_assert_int_eq(recv_msg(c, type, 0, n, 0, a), PROTO_OK);
    ck_assert_int_eq(release_blk(c, 0, a), PROTO_OK);
}

/* Node `n` gets a writable copy of block 0 (no other copies exist). */
static void write_copy(proto_engine *h, proto_engine *c, int n, proto_actions *a)
{
    ck_assert_int_eq(access_blk(c, 0, 1, a), PROTO_OK);
    is_send(a, 0, PM_GETX, n, 0, 0);
    ck_assert_int_eq(recv_msg(h, PM_GETX, n, 0, 0, a), PROTO_OK);
    is_send(a, 0, PM_DATA_X, 0, n, 0);
    ck_assert_int_eq(recv_msg(c, PM_DATA_X, 0, n, 0, a), PROTO_OK);
    ck_assert_int_eq(release_blk(c, 0, a), PROTO_OK);
    ck_assert_int_eq(proto_cache_state_of(c, 0), PC_M);
}

/* ---- downgrade_on_read ---- */

static proto_engine *mk_dg(int self, int nnodes, uint32_t nblocks, int home, int excl,
                           int downgrade)
{
    proto_config c = { .self = self, .nnodes = nnodes, .nblocks = nblocks, .evictions = 1,
                       .excl_clean = excl, .downgrade_on_read = downgrade };
    proto_engine *e = proto_engine_create(&c);
    ck_assert_msg(e != NULL, "proto_engine_create failed");
    ck_assert_int_eq(proto_set_home(e, 0, nblocks, home), PROTO_OK);
    return e;
}

static void both_share(const proto_engine *h, int a, int b)
{
    ck_assert_int_eq(proto_dir_state_of(h, 0), PD_SHARED);
    ck_assert_int_eq(proto_dir_owner(h, 0), -1);
    ck_assert_int_eq(sharers_count(proto_dir_sharers(h, 0)), 2);
    ck_assert(sharers_contains(proto_dir_sharers(h, 0), a));
    ck_assert(sharers_contains(proto_dir_sharers(h, 0), b));
}

/* A read of a dirty block: RECALL_S, the owner goes M -> S (read access)
 * sending its data, the home lists both; the old owner's write is then an
 * upgrade that invalidates the reader. */
START_TEST(downgrade_m_to_s)
{
    proto_engine *h = mk_dg(0, 3, 1, 0, 0, 1), *n1 = mk_dg(1, 3, 1, 0, 0, 1);
    proto_actions a;
    proto_actions_init(&a);
    write_copy(h, n1, 1, &a);

    ck_assert_int_eq(recv_msg(h, PM_GETS, 2, 0, 0, &a), PROTO_OK);
    ck_assert_int_eq(a.n, 1);
    is_send(&a, 0, PM_RECALL_S, 0, 1, 0);
    ck_assert(!proto_msg_has_data(PM_RECALL_S));
    ck_assert_int_eq(proto_dir_state_of(h, 0), PD_BUSY_RECALL);

    ck_assert_int_eq(recv_msg(n1, PM_RECALL_S, 0, 1, 0, &a), PROTO_OK);
    ck_assert_int_eq(a.n, 2);
    is_access(&a, 0, PROTO_ACCESS_READ, 0);
    is_send(&a, 1, PM_WB_DATA, 1, 0, 0);
    ck_assert_int_eq(proto_cache_state_of(n1, 0), PC_S);

    ck_assert_int_eq(recv_msg(h, PM_WB_DATA, 1, 0, 0, &a), PROTO_OK);
    ck_assert_int_eq(a.n, 2);
    is_kind(&a, 0, PA_INSTALL, 0);
    is_send(&a, 1, PM_DATA_S, 0, 2, 0);
    both_share(h, 1, 2);

    /* the old owner writes again: an upgrade with another sharer */
    ck_assert_int_eq(access_blk(n1, 0, 1, &a), PROTO_OK);
    is_send(&a, 0, PM_UPGRADE, 1, 0, 0);
    ck_assert_int_eq(recv_msg(h, PM_UPGRADE, 1, 0, 0, &a), PROTO_OK);
    ck_assert_int_eq(a.n, 1);
    is_send(&a, 0, PM_INV, 0, 2, 0);
    ck_assert_int_eq(proto_dir_state_of(h, 0), PD_BUSY_INV);

    proto_actions_free(&a);
    proto_engine_destroy(h);
    proto_engine_destroy(n1);
}
END_TEST

/* A held grant (MH, EH) defers RECALL_S like RECALL; the release replays it.
 * From E the copy is clean and readable already: only the data goes home. */
START_TEST(downgrade_held_and_exclusive_clean)
{
    for (int excl = 0; excl < 2; excl++) {
        proto_engine *h = mk_dg(0, 3, 1, 0, excl, 1), *n1 = mk_dg(1, 3, 1, 0, excl, 1);
        proto_actions a;
        proto_actions_init(&a);
        ck_assert_int_eq(access_blk(n1, 0, excl ? 0 : 1, &a), PROTO_OK);
        ck_assert_int_eq(recv_msg(h, excl ? PM_GETS : PM_GETX, 1, 0, 0, &a), PROTO_OK);
        is_send(&a, 0, excl ? PM_DATA_E : PM_DATA_X, 0, 1, 0);
        ck_assert_int_eq(recv_msg(n1, excl ? PM_DATA_E : PM_DATA_X, 0, 1, 0, &a), PROTO_OK);
        ck_assert_int_eq(proto_cache_state_of(n1, 0), excl ? PC_EH : PC_MH);

        ck_assert_int_eq(recv_msg(h, PM_GETS, 2, 0, 0, &a), PROTO_OK);
        is_send(&a, 0, PM_RECALL_S, 0, 1, 0);
        ck_assert_int_eq(recv_msg(n1, PM_RECALL_S, 0, 1, 0, &a), PROTO_OK);
        ck_assert_int_eq(a.n, 0);
        ck_assert_int_eq(proto_deferred_messages(n1), 1);

        ck_assert_int_eq(release_blk(n1, 0, &a), PROTO_OK);
        ck_assert_int_eq(proto_deferred_messages(n1), 0);
        if (excl) {
            ck_assert_int_eq(a.n, 1); /* E -> S: read access already */
            is_send(&a, 0, PM_WB_DATA, 1, 0, 0);
        } else {
            ck_assert_int_eq(a.n, 2);
            is_access(&a, 0, PROTO_ACCESS_READ, 0);
            is_send(&a, 1, PM_WB_DATA, 1, 0, 0);
        }
        ck_assert_int_eq(proto_cache_state_of(n1, 0), PC_S);
        ck_assert_int_eq(recv_msg(h, PM_WB_DATA, 1, 0, 0, &a), PROTO_OK);
        is_send(&a, 1, PM_DATA_S, 0, 2, 0);
        both_share(h, 1, 2);
        proto_actions_free(&a);
        proto_engine_destroy(h);
        proto_engine_destroy(n1);
    }
}
END_TEST

/* The owner evicts as the RECALL_S comes: it drops the RECALL_S in MI, its
 * PUTX is the recalled data, and the reader is the only sharer (the evicted
 * copy is gone, downgrade or not). */
START_TEST(downgrade_crossing_eviction)
{
    proto_engine *h = mk_dg(0, 3, 1, 0, 0, 1), *n1 = mk_dg(1, 3, 1, 0, 0, 1);
    proto_actions a;
    proto_actions_init(&a);
    write_copy(h, n1, 1, &a);
    ck_assert_int_eq(recv_msg(h, PM_GETS, 2, 0, 0, &a), PROTO_OK);
    is_send(&a, 0, PM_RECALL_S, 0, 1, 0);
    ck_assert_int_eq(evict_blk(n1, 0, &a), PROTO_OK);
    is_send(&a, 1, PM_PUTX, 1, 0, 0);
    ck_assert_int_eq(recv_msg(n1, PM_RECALL_S, 0, 1, 0, &a), PROTO_OK);
    ck_assert_int_eq(a.n, 0);
    ck_assert_int_eq(proto_cache_state_of(n1, 0), PC_MI);
    ck_assert_int_eq(recv_msg(h, PM_PUTX, 1, 0, 0, &a), PROTO_OK);
    ck_assert_int_eq(a.n, 3);
    is_kind(&a, 0, PA_INSTALL, 0);
    is_send(&a, 1, PM_PUT_ACK, 0, 1, 0);
    is_send(&a, 2, PM_DATA_S, 0, 2, 0);
    ck_assert_int_eq(proto_dir_state_of(h, 0), PD_SHARED);
    ck_assert_int_eq(sharers_count(proto_dir_sharers(h, 0)), 1);
    ck_assert(sharers_contains(proto_dir_sharers(h, 0), 2));
    proto_actions_free(&a);
    proto_engine_destroy(h);
    proto_engine_destroy(n1);
}
END_TEST

/* The home itself owns the block: the RECALL_S to itself is handled inside
 * the call; the home keeps read access and both share. */
START_TEST(downgrade_home_owner)
{
    proto_engine *h = mk_dg(0, 3, 1, 0, 0, 1);
    proto_actions a;
    proto_actions_init(&a);
    ck_assert_int_eq(access_blk(h, 0, 1, &a), PROTO_OK);
    ck_assert_int_eq(release_blk(h, 0, &a), PROTO_OK);
    ck_assert_int_eq(proto_cache_state_of(h, 0), PC_M);
    ck_assert_int_eq(recv_msg(h, PM_GETS, 1, 0, 0, &a), PROTO_OK);
    ck_assert_int_eq(a.n, 2);
    is_access(&a, 0, PROTO_ACCESS_READ, 0);
    is_send(&a, 1, PM_DATA_S, 0, 1, 0);
    ck_assert_int_eq(proto_cache_state_of(h, 0), PC_S);
    both_share(h, 0, 1);
    proto_actions_free(&a);
    proto_engine_destroy(h);
}
END_TEST

/* Off (the DSM): a read recalls with RECALL, and a RECALL_S is refused as a
 * bad input rather than downgrading the owner. */
START_TEST(downgrade_off_refuses_recall_s)
{
    proto_engine *h = mk_dg(0, 3, 1, 0, 0, 0), *n1 = mk_dg(1, 3, 1, 0, 0, 0);
    proto_actions a;
    proto_actions_init(&a);
    write_copy(h, n1, 1, &a);
    ck_assert_int_eq(recv_msg(n1, PM_RECALL_S, 0, 1, 0, &a), PROTO_EINVAL);
    ck_assert_ptr_nonnull(strstr(proto_last_error(n1), "RECALL_S"));
    ck_assert_int_eq(proto_cache_state_of(n1, 0), PC_M);
    ck_assert_int_eq(recv_msg(h, PM_GETS, 2, 0, 0, &a), PROTO_OK);
    is_send(&a, 0, PM_RECALL, 0, 1, 0);
    proto_actions_free(&a);
    proto_engine_destroy(h);
    proto_engine_destroy(n1);
}
END_TEST

/* ---- memory for many engines ---- */

/* Engines of one machine share one home table; it lives until the last of
 * them is destroyed; configurations that disagree on the region are refused. */
START_TEST(shared_home_table)
{
    proto_config c0 = { .self = 0, .nnodes = 4, .nblocks = 1000 };
    proto_config c1 = { .self = 1, .nnodes = 4, .nblocks = 1000 };
    proto_config bad = { .self = 1, .nnodes = 4, .nblocks = 999 };
    proto_engine *e0 = proto_engine_create(&c0);
    ck_assert_ptr_nonnull(e0);
    proto_engine *e1 = proto_engine_create_shared(&c1, e0);
    ck_assert_ptr_nonnull(e1);
    ck_assert_ptr_null(proto_engine_create_shared(&bad, e0));
    bad.nblocks = 1000;
    bad.nnodes = 5;
    ck_assert_ptr_null(proto_engine_create_shared(&bad, e0));

    ck_assert_int_eq(proto_home(e1, 10), -1);
    ck_assert_int_eq(proto_set_home(e1, 0, 500, 0), PROTO_OK);
    ck_assert_int_eq(proto_set_home(e0, 500, 500, 1), PROTO_OK);
    ck_assert_int_eq(proto_home(e0, 10), 0);
    ck_assert_int_eq(proto_home(e1, 600), 1);

    /* a read miss of node 1 on a block of node 0, through the shared table */
    proto_actions a;
    proto_actions_init(&a);
    ck_assert_int_eq(access_blk(e1, 10, 0, &a), PROTO_OK);
    is_send(&a, 0, PM_GETS, 1, 0, 10);
    ck_assert_int_eq(recv_msg(e0, PM_GETS, 1, 0, 10, &a), PROTO_OK);
    is_send(&a, 0, PM_DATA_S, 0, 1, 10);

    size_t h0 = 0, h1 = 0;
    proto_engine_footprint(e0, &h0);
    proto_engine_footprint(e1, &h1);
    ck_assert_uint_eq(h0, h1);
    ck_assert_uint_ge(h0, 4000);
    proto_engine_destroy(e0); /* e1 keeps the table */
    ck_assert_int_eq(proto_home(e1, 600), 1);
    ck_assert_int_eq(recv_msg(e1, PM_DATA_S, 0, 1, 10, &a), PROTO_OK);
    ck_assert_int_eq(proto_cache_state_of(e1, 10), PC_SH);
    proto_actions_free(&a);
    proto_engine_destroy(e1);
}
END_TEST

/* Per-block state costs nothing for blocks never used: 4M blocks take no
 * chunk until one is touched, then one cache chunk (4096 blocks) and, at
 * the home, one small chunk of 64 directory entries (56 bytes each), with
 * the augmentation on also the chunk's 64 pattern records. */
START_TEST(lazy_per_block_state)
{
    const uint32_t nblocks = 4u << 20;
    proto_engine *h = mk_home(0, 2, nblocks, 0);
    size_t home_bytes = 0, fresh = proto_engine_footprint(h, &home_bytes);
    ck_assert_uint_ge(home_bytes, 4u * nblocks);
    ck_assert_uint_lt(home_bytes, 4u * nblocks + 4096);
    ck_assert_uint_lt(fresh, nblocks / 6); /* chunk tables only: about 1/8 byte per block */
    ck_assert_int_eq(proto_cache_state_of(h, nblocks - 1), PC_I);
    ck_assert_int_eq(proto_dir_state_of(h, nblocks - 1), PD_UNOWNED);
    ck_assert_ptr_null(proto_dir_sharers(h, nblocks - 1));

    proto_actions a;
    proto_actions_init(&a);
    /* a remote read: a directory entry, no cache chunk (the home's copy stays I) */
    ck_assert_int_eq(recv_msg(h, PM_GETS, 1, 0, nblocks - 1, &a), PROTO_OK);
    size_t after_dir = proto_engine_footprint(h, NULL);
    ck_assert_uint_gt(after_dir, fresh);
    /* one entry chunk (64 entries of 56 bytes), its 64 pattern records of
     * 72 bytes: 8200 bytes */
    ck_assert_uint_lt(after_dir - fresh, 8192 + 256);
    ck_assert_int_eq(proto_cache_state_of(h, nblocks - 1), PC_I);
    /* without the augmentation (a simulated machine): the entry chunk only */
    proto_engine *plain = mk_home(0, 2, nblocks, 0);
    proto_set_augment(plain, 0);
    size_t plain_fresh = proto_engine_footprint(plain, NULL);
    ck_assert_int_eq(recv_msg(plain, PM_GETS, 1, 0, nblocks - 1, &a), PROTO_OK);
    ck_assert_uint_gt(proto_engine_footprint(plain, NULL), plain_fresh);
    ck_assert_uint_lt(proto_engine_footprint(plain, NULL) - plain_fresh, 4096);
    /* the pattern record of a block the augmentation never served: a new one */
    proto_block_patterns p;
    ck_assert_int_eq(proto_patterns_of(plain, nblocks - 1, &p), PROTO_OK);
    ck_assert_int_eq(p.last_owner, -1);
    ck_assert_int_eq(p.group_id, -1);
    ck_assert_int_eq(p.guess, -1);
    ck_assert_uint_eq(p.requests, 0);
    proto_engine_destroy(plain);

    ck_assert_int_eq(access_blk(h, 7, 1, &a), PROTO_OK); /* the home writes block 7 */
    ck_assert_int_eq(proto_cache_state_of(h, 7), PC_MH);
    ck_assert_int_eq(proto_cache_state_of(h, 8), PC_I);
    size_t after_write = proto_engine_footprint(h, NULL);
    /* one cache chunk, and the directory entry chunk of block 7 with its
     * pattern records (8200 bytes, as above) */
    ck_assert_uint_ge(after_write - after_dir, 2 * 4096);
    ck_assert_uint_lt(after_write - after_dir, 2 * 4096 + 8192 + 256);
    proto_actions_free(&a);
    proto_engine_destroy(h);
}
END_TEST

/* A dirty eviction with no recall: PUTX, the home installs it and acks. */
START_TEST(evict_dirty)
{
    proto_engine *h = mk_hw(0, 3, 1, 0, 0, 0), *n1 = mk_hw(1, 3, 1, 0, 0, 0);
    proto_actions a;
    proto_actions_init(&a);
    write_copy(h, n1, 1, &a);

    ck_assert_int_eq(evict_blk(n1, 0, &a), PROTO_OK);
    ck_assert_int_eq(a.n, 2);
    is_access(&a, 0, PROTO_ACCESS_NONE, 0);
    is_send(&a, 1, PM_PUTX, 1, 0, 0);
    ck_assert(proto_msg_has_data(PM_PUTX));
    ck_assert_int_eq(proto_cache_state_of(n1, 0), PC_MI);
    ck_assert(!proto_cache_settled(PC_MI));
    /* an access meanwhile waits for the PUT_ACK */
    ck_assert_int_eq(access_blk(n1, 0, 0, &a), PROTO_OK);
    ck_assert_int_eq(a.n, 1);
    is_kind(&a, 0, PA_WAIT, 0);

    ck_assert_int_eq(recv_msg(h, PM_PUTX, 1, 0, 0, &a), PROTO_OK);
    ck_assert_int_eq(a.n, 2);
    is_kind(&a, 0, PA_INSTALL, 0);
    is_send(&a, 1, PM_PUT_ACK, 0, 1, 0);
    ck_assert_int_eq(proto_dir_state_of(h, 0), PD_UNOWNED);
    ck_assert_int_eq(proto_dir_owner(h, 0), -1);

    ck_assert_int_eq(recv_msg(n1, PM_PUT_ACK, 0, 1, 0, &a), PROTO_OK);
    ck_assert_int_eq(a.n, 1);
    is_kind(&a, 0, PA_COMPLETE, 0);
    ck_assert_int_eq(proto_cache_state_of(n1, 0), PC_I);

    /* the home's own dirty eviction stays inside the engine, moves no data */
    ck_assert_int_eq(access_blk(h, 0, 1, &a), PROTO_OK);
    ck_assert_int_eq(release_blk(h, 0, &a), PROTO_OK);
    ck_assert_int_eq(proto_cache_state_of(h, 0), PC_M);
    ck_assert_int_eq(evict_blk(h, 0, &a), PROTO_OK);
    ck_assert_int_eq(a.n, 2);
    is_access(&a, 0, PROTO_ACCESS_NONE, 0);
    is_kind(&a, 1, PA_COMPLETE, 0);
    ck_assert_int_eq(proto_cache_state_of(h, 0), PC_I);
    ck_assert_int_eq(proto_dir_state_of(h, 0), PD_UNOWNED);

    proto_actions_free(&a);
    proto_engine_destroy(h);
    proto_engine_destroy(n1);
}
END_TEST

/* The owner evicts while a RECALL is on its way: it drops the RECALL in MI,
 * and the home serves the pending request from the PUTX (for a read and for
 * a write request). */
START_TEST(evict_crossing_recall)
{
    for (int want_write = 0; want_write < 2; want_write++) {
        proto_engine *h = mk_hw(0, 3, 1, 0, 0, 0), *n1 = mk_hw(1, 3, 1, 0, 0, 0);
        proto_actions a;
        proto_actions_init(&a);
        write_copy(h, n1, 1, &a);

        ck_assert_int_eq(recv_msg(h, want_write ? PM_GETX : PM_GETS, 2, 0, 0, &a), PROTO_OK);
        is_send(&a, 0, PM_RECALL, 0, 1, 0);
        ck_assert_int_eq(proto_dir_state_of(h, 0), PD_BUSY_RECALL);

        ck_assert_int_eq(evict_blk(n1, 0, &a), PROTO_OK);
        is_send(&a, 1, PM_PUTX, 1, 0, 0);
        ck_assert_int_eq(recv_msg(n1, PM_RECALL, 0, 1, 0, &a), PROTO_OK);
        ck_assert_int_eq(a.n, 0); /* dropped: the PUTX is the answer */
        ck_assert_int_eq(proto_cache_state_of(n1, 0), PC_MI);

        ck_assert_int_eq(recv_msg(h, PM_PUTX, 1, 0, 0, &a), PROTO_OK);
        ck_assert_int_eq(a.n, 3);
        is_kind(&a, 0, PA_INSTALL, 0);
        is_send(&a, 1, PM_PUT_ACK, 0, 1, 0);
        is_send(&a, 2, want_write ? PM_DATA_X : PM_DATA_S, 0, 2, 0);
        if (want_write) {
            ck_assert_int_eq(proto_dir_state_of(h, 0), PD_EXCL);
            ck_assert_int_eq(proto_dir_owner(h, 0), 2);
        } else {
            ck_assert_int_eq(proto_dir_state_of(h, 0), PD_SHARED);
            ck_assert_int_eq(sharers_count(proto_dir_sharers(h, 0)), 1);
            ck_assert(sharers_contains(proto_dir_sharers(h, 0), 2));
        }
        ck_assert_int_eq(recv_msg(n1, PM_PUT_ACK, 0, 1, 0, &a), PROTO_OK);
        ck_assert_int_eq(proto_cache_state_of(n1, 0), PC_I);
        proto_actions_free(&a);
        proto_engine_destroy(h);
        proto_engine_destroy(n1);
    }
}
END_TEST

/* Without replacement hints a clean eviction is silent; the home's later
 * INV finds the node in I, or in IS after it asked again, and is acked. */
START_TEST(silent_evict_then_inv)
{
    proto_engine *h = mk_hw(0, 4, 1, 0, 0, 0), *n1 = mk_hw(1, 4, 1, 0, 0, 0);
    proto_actions a;
    proto_actions_init(&a);
    read_copy(h, n1, 1, &a);
    ck_assert_int_eq(proto_cache_state_of(n1, 0), PC_S);

    ck_assert_int_eq(evict_blk(n1, 0, &a), PROTO_OK);
    ck_assert_int_eq(a.n, 1);
    is_access(&a, 0, PROTO_ACCESS_NONE, 0); /* no message */
    ck_assert_int_eq(proto_cache_state_of(n1, 0), PC_I);
    ck_assert(sharers_contains(proto_dir_sharers(h, 0), 1)); /* the home does not know */

    /* node 2 writes: the INV reaches node 1 in I */
    ck_assert_int_eq(recv_msg(h, PM_GETX, 2, 0, 0, &a), PROTO_OK);
    is_send(&a, 0, PM_INV, 0, 1, 0);
    ck_assert_int_eq(recv_msg(n1, PM_INV, 0, 1, 0, &a), PROTO_OK);
    ck_assert_int_eq(a.n, 1);
    is_send(&a, 0, PM_INV_ACK, 1, 0, 0);
    ck_assert_int_eq(proto_cache_state_of(n1, 0), PC_I);
    ck_assert_int_eq(recv_msg(h, PM_INV_ACK, 1, 0, 0, &a), PROTO_OK);
    is_send(&a, 0, PM_DATA_X, 0, 2, 0);

    /* again, with node 1 reading anew before the INV arrives (IS) */
    proto_engine *h2 = mk_hw(0, 4, 1, 0, 0, 0), *m1 = mk_hw(1, 4, 1, 0, 0, 0);
    read_copy(h2, m1, 1, &a);
    ck_assert_int_eq(evict_blk(m1, 0, &a), PROTO_OK);
    ck_assert_int_eq(recv_msg(h2, PM_GETX, 3, 0, 0, &a), PROTO_OK); /* INV to 1 in flight */
    is_send(&a, 0, PM_INV, 0, 1, 0);
    ck_assert_int_eq(access_blk(m1, 0, 0, &a), PROTO_OK);
    is_send(&a, 0, PM_GETS, 1, 0, 0);
    ck_assert_int_eq(recv_msg(m1, PM_INV, 0, 1, 0, &a), PROTO_OK);
    ck_assert_int_eq(a.n, 1);
    is_send(&a, 0, PM_INV_ACK, 1, 0, 0);
    ck_assert_int_eq(proto_cache_state_of(m1, 0), PC_IS);
    /* at the home: the GETS waits behind the write, which recalls for it */
    ck_assert_int_eq(recv_msg(h2, PM_GETS, 1, 0, 0, &a), PROTO_OK);
    ck_assert_int_eq(a.n, 0);
    ck_assert_int_eq(recv_msg(h2, PM_INV_ACK, 1, 0, 0, &a), PROTO_OK);
    ck_assert_int_eq(a.n, 2);
    is_send(&a, 0, PM_DATA_X, 0, 3, 0);
    is_send(&a, 1, PM_RECALL, 0, 3, 0);

    /* and in IM: the node dropped its copy and now writes */
    proto_engine *h3 = mk_hw(0, 4, 1, 0, 0, 0), *k1 = mk_hw(1, 4, 1, 0, 0, 0);
    read_copy(h3, k1, 1, &a);
    ck_assert_int_eq(evict_blk(k1, 0, &a), PROTO_OK);
    ck_assert_int_eq(access_blk(k1, 0, 1, &a), PROTO_OK);
    is_send(&a, 0, PM_GETX, 1, 0, 0);
    /* the home still lists node 1: its GETX invalidates node 1 itself */
    ck_assert_int_eq(recv_msg(h3, PM_GETX, 1, 0, 0, &a), PROTO_OK);
    ck_assert_int_eq(a.n, 1);
    is_send(&a, 0, PM_INV, 0, 1, 0);
    ck_assert_int_eq(recv_msg(k1, PM_INV, 0, 1, 0, &a), PROTO_OK);
    is_send(&a, 0, PM_INV_ACK, 1, 0, 0);
    ck_assert_int_eq(proto_cache_state_of(k1, 0), PC_IM);
    ck_assert_int_eq(recv_msg(h3, PM_INV_ACK, 1, 0, 0, &a), PROTO_OK);
    is_send(&a, 0, PM_DATA_X, 0, 1, 0);
    ck_assert_int_eq(recv_msg(k1, PM_DATA_X, 0, 1, 0, &a), PROTO_OK);
    ck_assert_int_eq(proto_cache_state_of(k1, 0), PC_MH);

    proto_actions_free(&a);
    proto_engine_destroy(h);
    proto_engine_destroy(n1);
    proto_engine_destroy(h2);
    proto_engine_destroy(m1);
    proto_engine_destroy(h3);
    proto_engine_destroy(k1);
}
END_TEST

/* With replacement hints: PUTS removes the sharer (the last one leaves the
 * block Unowned); a PUTS that waited in the queue behind a write that
 * invalidated its sender is stale and changes nothing. */
START_TEST(replacement_hints)
{
    proto_engine *h = mk_hw(0, 4, 1, 0, 1, 0), *n1 = mk_hw(1, 4, 1, 0, 1, 0),
                 *n2 = mk_hw(2, 4, 1, 0, 1, 0);
    proto_actions a;
    proto_actions_init(&a);
    read_copy(h, n1, 1, &a);
    read_copy(h, n2, 2, &a);
    ck_assert_int_eq(sharers_count(proto_dir_sharers(h, 0)), 2);

    ck_assert_int_eq(evict_blk(n1, 0, &a), PROTO_OK);
    ck_assert_int_eq(a.n, 2);
    is_access(&a, 0, PROTO_ACCESS_NONE, 0);
    is_send(&a, 1, PM_PUTS, 1, 0, 0);
    ck_assert(!proto_msg_has_data(PM_PUTS));
    ck_assert_int_eq(recv_msg(h, PM_PUTS, 1, 0, 0, &a), PROTO_OK);
    ck_assert_int_eq(a.n, 0);
    ck_assert_int_eq(proto_dir_state_of(h, 0), PD_SHARED);
    ck_assert(!sharers_contains(proto_dir_sharers(h, 0), 1));

    ck_assert_int_eq(evict_blk(n2, 0, &a), PROTO_OK);
    ck_assert_int_eq(recv_msg(h, PM_PUTS, 2, 0, 0, &a), PROTO_OK);
    ck_assert_int_eq(a.n, 0);
    ck_assert_int_eq(proto_dir_state_of(h, 0), PD_UNOWNED);
    ck_assert_int_eq(sharers_count(proto_dir_sharers(h, 0)), 0);

    /* stale: node 1 reads again, node 3 writes (INV to 1 in flight), node 1
     * evicts; its PUTS waits at the busy home, then finds node 3 owning */
    read_copy(h, n1, 1, &a);
    ck_assert_int_eq(recv_msg(h, PM_GETX, 3, 0, 0, &a), PROTO_OK);
    is_send(&a, 0, PM_INV, 0, 1, 0);
    ck_assert_int_eq(evict_blk(n1, 0, &a), PROTO_OK);
    is_send(&a, 1, PM_PUTS, 1, 0, 0);
    ck_assert_int_eq(recv_msg(h, PM_PUTS, 1, 0, 0, &a), PROTO_OK);
    ck_assert_int_eq(a.n, 0); /* queued */
    ck_assert_int_eq(proto_dir_state_of(h, 0), PD_BUSY_INV);
    ck_assert_int_eq(recv_msg(n1, PM_INV, 0, 1, 0, &a), PROTO_OK);
    is_send(&a, 0, PM_INV_ACK, 1, 0, 0);
    ck_assert_int_eq(recv_msg(h, PM_INV_ACK, 1, 0, 0, &a), PROTO_OK);
    ck_assert_int_eq(a.n, 1); /* DATA_X only: the drained PUTS is a no-op */
    is_send(&a, 0, PM_DATA_X, 0, 3, 0);
    ck_assert_int_eq(proto_dir_state_of(h, 0), PD_EXCL);
    ck_assert_int_eq(proto_dir_owner(h, 0), 3);

    proto_actions_free(&a);
    proto_engine_destroy(h);
    proto_engine_destroy(n1);
    proto_engine_destroy(n2);
}
END_TEST

/* excl_clean: a read of an unowned block is granted in E; the first store
 * upgrades silently; the owner is recalled like M; PUTE brings no data. */
START_TEST(exclusive_clean)
{
    proto_engine *h = mk_hw(0, 3, 1, 0, 0, 1), *n1 = mk_hw(1, 3, 1, 0, 0, 1);
    proto_actions a;
    proto_actions_init(&a);

    ck_assert_int_eq(access_blk(n1, 0, 0, &a), PROTO_OK);
    is_send(&a, 0, PM_GETS, 1, 0, 0);
    ck_assert_int_eq(recv_msg(h, PM_GETS, 1, 0, 0, &a), PROTO_OK);
    ck_assert_int_eq(a.n, 1);
    is_send(&a, 0, PM_DATA_E, 0, 1, 0);
    ck_assert(proto_msg_has_data(PM_DATA_E));
    ck_assert_int_eq(proto_dir_state_of(h, 0), PD_EXCL);
    ck_assert_int_eq(proto_dir_owner(h, 0), 1);
    ck_assert_int_eq(recv_msg(n1, PM_DATA_E, 0, 1, 0, &a), PROTO_OK);
    ck_assert_int_eq(a.n, 3);
    is_kind(&a, 0, PA_INSTALL, 0);
    is_access(&a, 1, PROTO_ACCESS_READ, 0);
    is_kind(&a, 2, PA_COMPLETE, 0);
    ck_assert_int_eq(proto_cache_state_of(n1, 0), PC_EH);
    ck_assert(proto_cache_held(PC_EH));

    /* held: a RECALL waits for the release */
    ck_assert_int_eq(recv_msg(h, PM_GETS, 2, 0, 0, &a), PROTO_OK);
    is_send(&a, 0, PM_RECALL, 0, 1, 0);
    ck_assert_int_eq(recv_msg(n1, PM_RECALL, 0, 1, 0, &a), PROTO_OK);
    ck_assert_int_eq(a.n, 0);
    ck_assert_int_eq(proto_deferred_messages(n1), 1);
    /* a store while held upgrades silently (still held) */
    ck_assert_int_eq(access_blk(n1, 0, 1, &a), PROTO_OK);
    ck_assert_int_eq(a.n, 2);
    is_access(&a, 0, PROTO_ACCESS_WRITE, 0);
    is_kind(&a, 1, PA_COMPLETE, 0);
    ck_assert_int_eq(proto_cache_state_of(n1, 0), PC_MH);
    /* the release replays the recall from M: the written data goes home */
    ck_assert_int_eq(release_blk(n1, 0, &a), PROTO_OK);
    ck_assert_int_eq(a.n, 2);
    is_access(&a, 0, PROTO_ACCESS_NONE, 0);
    is_send(&a, 1, PM_WB_DATA, 1, 0, 0);
    ck_assert_int_eq(proto_cache_state_of(n1, 0), PC_I);
    ck_assert_int_eq(recv_msg(h, PM_WB_DATA, 1, 0, 0, &a), PROTO_OK);
    is_send(&a, 1, PM_DATA_S, 0, 2, 0); /* a recalled read is granted shared */
    ck_assert_int_eq(proto_dir_state_of(h, 0), PD_SHARED);

    /* E: the store needs no message at all */
    proto_engine *h2 = mk_hw(0, 3, 1, 0, 0, 1), *m1 = mk_hw(1, 3, 1, 0, 0, 1);
    read_copy(h2, m1, 1, &a);
    ck_assert_int_eq(proto_cache_state_of(m1, 0), PC_E);
    ck_assert_int_eq(access_blk(m1, 0, 0, &a), PROTO_OK); /* a read fault that lost a race */
    ck_assert_int_eq(a.n, 1);
    is_kind(&a, 0, PA_COMPLETE, 0);
    ck_assert_int_eq(access_blk(m1, 0, 1, &a), PROTO_OK);
    ck_assert_int_eq(a.n, 2);
    is_access(&a, 0, PROTO_ACCESS_WRITE, 0);
    is_kind(&a, 1, PA_COMPLETE, 0);
    ck_assert_int_eq(count_kind(&a, PA_SEND), 0);
    ck_assert_int_eq(proto_cache_state_of(m1, 0), PC_M);

    /* E recalled: WB_DATA (clean, but the home cannot know) */
    proto_engine *h3 = mk_hw(0, 3, 1, 0, 0, 1), *k1 = mk_hw(1, 3, 1, 0, 0, 1);
    read_copy(h3, k1, 1, &a);
    ck_assert_int_eq(recv_msg(h3, PM_GETX, 2, 0, 0, &a), PROTO_OK);
    is_send(&a, 0, PM_RECALL, 0, 1, 0);
    ck_assert_int_eq(recv_msg(k1, PM_RECALL, 0, 1, 0, &a), PROTO_OK);
    ck_assert_int_eq(a.n, 2);
    is_access(&a, 0, PROTO_ACCESS_NONE, 0);
    is_send(&a, 1, PM_WB_DATA, 1, 0, 0);
    ck_assert_int_eq(proto_cache_state_of(k1, 0), PC_I);

    /* E evicted: PUTE, no data, the home memory is current */
    proto_engine *h4 = mk_hw(0, 3, 1, 0, 0, 1), *j1 = mk_hw(1, 3, 1, 0, 0, 1);
    read_copy(h4, j1, 1, &a);
    ck_assert_int_eq(evict_blk(j1, 0, &a), PROTO_OK);
    ck_assert_int_eq(a.n, 2);
    is_access(&a, 0, PROTO_ACCESS_NONE, 0);
    is_send(&a, 1, PM_PUTE, 1, 0, 0);
    ck_assert(!proto_msg_has_data(PM_PUTE));
    ck_assert_int_eq(proto_cache_state_of(j1, 0), PC_MI);
    ck_assert_int_eq(recv_msg(h4, PM_PUTE, 1, 0, 0, &a), PROTO_OK);
    ck_assert_int_eq(a.n, 1);
    is_send(&a, 0, PM_PUT_ACK, 0, 1, 0);
    ck_assert_int_eq(count_kind(&a, PA_INSTALL), 0);
    ck_assert_int_eq(proto_dir_state_of(h4, 0), PD_UNOWNED);
    ck_assert_int_eq(recv_msg(j1, PM_PUT_ACK, 0, 1, 0, &a), PROTO_OK);
    ck_assert_int_eq(proto_cache_state_of(j1, 0), PC_I);
    /* a PUTE crossing a recall serves the pending write from memory */
    read_copy(h4, j1, 1, &a);
    ck_assert_int_eq(recv_msg(j1, PM_PUT_ACK, 0, 1, 0, &a), PROTO_EREJECT); /* nothing in flight */
    ck_assert_int_eq(recv_msg(h4, PM_GETX, 2, 0, 0, &a), PROTO_OK);
    is_send(&a, 0, PM_RECALL, 0, 1, 0);
    ck_assert_int_eq(evict_blk(j1, 0, &a), PROTO_OK);
    ck_assert_int_eq(recv_msg(j1, PM_RECALL, 0, 1, 0, &a), PROTO_OK);
    ck_assert_int_eq(a.n, 0);
    ck_assert_int_eq(recv_msg(h4, PM_PUTE, 1, 0, 0, &a), PROTO_OK);
    ck_assert_int_eq(a.n, 2);
    is_send(&a, 0, PM_PUT_ACK, 0, 1, 0);
    is_send(&a, 1, PM_DATA_X, 0, 2, 0);
    ck_assert_int_eq(proto_dir_owner(h4, 0), 2);

    /* without excl_clean the same read is granted shared */
    proto_engine *h5 = mk_hw(0, 3, 1, 0, 0, 0), *i1 = mk_hw(1, 3, 1, 0, 0, 0);
    read_copy(h5, i1, 1, &a);
    ck_assert_int_eq(proto_cache_state_of(i1, 0), PC_S);
    ck_assert_int_eq(proto_dir_state_of(h5, 0), PD_SHARED);

    proto_actions_free(&a);
    proto_engine *all[] = { h, n1, h2, m1, h3, k1, h4, j1, h5, i1 };
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        proto_engine_destroy(all[i]);
}
END_TEST

/* Evictions outside S, E, M and writebacks from non-owners are rejected
 * with the table's reason. */
START_TEST(evict_rejected)
{
    proto_engine *h = mk_hw(0, 3, 1, 0, 1, 0), *n1 = mk_hw(1, 3, 1, 0, 1, 0);
    proto_actions a;
    proto_actions_init(&a);
    const char *err;

    ck_assert_int_eq(evict_blk(n1, 0, &a), PROTO_EREJECT); /* I */
    err = proto_last_error(n1);
    ck_assert_msg(strstr(err, "Evict") && strstr(err, "state I "), "unclear error: %s", err);
    ck_assert_int_eq(access_blk(n1, 0, 0, &a), PROTO_OK);
    ck_assert_int_eq(evict_blk(n1, 0, &a), PROTO_EREJECT); /* IS */
    ck_assert_msg(strstr(proto_last_error(n1), proto_cache_table[PC_IS][CE_EVICT].why), "%s",
                  proto_last_error(n1));
    ck_assert_int_eq(recv_msg(n1, PM_DATA_S, 0, 1, 0, &a), PROTO_OK);
    ck_assert_int_eq(evict_blk(n1, 0, &a), PROTO_EREJECT); /* SH */
    ck_assert_msg(strstr(proto_last_error(n1), "held"), "%s", proto_last_error(n1));
    ck_assert_int_eq(proto_cache_state_of(n1, 0), PC_SH);
    ck_assert_int_eq(evict_blk(n1, 5, &a), PROTO_EINVAL);

    /* a PUTX from a node that owns nothing, a PUTX from a non-owner */
    ck_assert_int_eq(recv_msg(h, PM_PUTX, 2, 0, 0, &a), PROTO_EREJECT);
    ck_assert_msg(strstr(proto_last_error(h), "Unowned"), "%s", proto_last_error(h));
    ck_assert_int_eq(recv_msg(h, PM_GETX, 1, 0, 0, &a), PROTO_OK);
    ck_assert_int_eq(recv_msg(h, PM_PUTX, 2, 0, 0, &a), PROTO_EREJECT);
    ck_assert_msg(strstr(proto_last_error(h), "not the block's owner"), "%s", proto_last_error(h));
    ck_assert_int_eq(proto_dir_owner(h, 0), 1);

    proto_actions_free(&a);
    proto_engine_destroy(h);
    proto_engine_destroy(n1);
}
END_TEST

/* ---- a sharer-set representation with its own storage ----
 * A tiny sorted array behind dsm_sharers_ops, with init/destroy hooks: the
 * engine's directory uses it through proto_config.sharers_ops, and its
 * snapshot (member lists) loads into a bit-vector engine and back. */
typedef struct {
    int n;
    int node[64];
} arr_set;
static int arr_inits, arr_destroys;

static arr_set *arr(const dsm_sharers *s) { return (arr_set *)s->u.impl; }
static int arr_find(const dsm_sharers *s, int node)
{
    for (int i = 0; i < arr(s)->n; i++)
        if (arr(s)->node[i] == node)
            return i;
    return -1;
}
static void arr_add(dsm_sharers *s, int node)
{
    arr_set *a = arr(s);
    if (arr_find(s, node) >= 0)
        return;
    int i = a->n++;
    while (i > 0 && a->node[i - 1] > node) {
        a->node[i] = a->node[i - 1];
        i--;
    }
    a->node[i] = node;
}
static void arr_remove(dsm_sharers *s, int node)
{
    int i = arr_find(s, node);
    if (i < 0)
        return;
    arr_set *a = arr(s);
    memmove(&a->node[i], &a->node[i + 1], (size_t)(a->n - i - 1) * sizeof a->node[0]);
    a->n--;
}
static int arr_contains(const dsm_sharers *s, int node) { return arr_find(s, node) >= 0; }
static int arr_count(const dsm_sharers *s) { return arr(s)->n; }
static void arr_clear(dsm_sharers *s) { arr(s)->n = 0; }
static int arr_next(const dsm_sharers *s, int from)
{
    for (int i = 0; i < arr(s)->n; i++)
        if (arr(s)->node[i] >= from)
            return arr(s)->node[i];
    return -1;
}
static int arr_init(dsm_sharers *s, int nnodes)
{
    if (nnodes > 64)
        return -1;
    s->u.impl = calloc(1, sizeof(arr_set));
    arr_inits++;
    return s->u.impl ? 0 : -1;
}
static void arr_destroy(dsm_sharers *s)
{
    free(s->u.impl);
    arr_destroys++;
}
static const dsm_sharers_ops arr_ops = {
    .name = "test-array", .add = arr_add, .remove = arr_remove, .contains = arr_contains,
    .count = arr_count, .clear = arr_clear, .next = arr_next, .init = arr_init,
    .destroy = arr_destroy,
};

START_TEST(sharers_representation)
{
    dsm_sharers s;
    arr_inits = arr_destroys = 0;
    ck_assert_int_eq(dsm_sharers_init_with(&s, 8, &arr_ops), 0);
    ck_assert_int_eq(arr_inits, 1);
    ck_assert(s.u.impl != NULL);
    sharers_add(&s, 5);
    sharers_add(&s, 2);
    ck_assert_int_eq(sharers_next(&s, 0), 2);
    ck_assert_int_eq(sharers_next(&s, 3), 5);
    dsm_sharers_destroy(&s);
    ck_assert_int_eq(arr_destroys, 1);
    ck_assert(s.u.impl == NULL);
    ck_assert_int_eq(dsm_sharers_init_with(&s, 100, &arr_ops), -1); /* its own limit */
    ck_assert_int_eq(dsm_sharers_init_with(&s, 100, NULL), 0);      /* NULL: bit vector */
    /* 100 nodes: the words are inside the set, nothing allocated */
    ck_assert(s.ops == &dsm_sharers_bitvector && dsm_sharers_heap_bytes(&s) == 0);
    dsm_sharers_destroy(&s);

    /* an engine whose directory uses it */
    proto_config c = { .self = 0, .nnodes = 8, .nblocks = 2, .sharers_ops = &arr_ops };
    proto_engine *h = proto_engine_create(&c), *bv = mk_home(0, 8, 2, 0);
    ck_assert(h != NULL);
    /* without pattern records, the snapshot ends with the last entry */
    proto_set_augment(h, 0);
    proto_set_augment(bv, 0);
    ck_assert_int_eq(proto_set_home(h, 0, 2, 0), PROTO_OK);
    proto_actions a;
    proto_actions_init(&a);
    for (int n = 7; n >= 3; n -= 2)
        ck_assert_int_eq(recv_msg(h, PM_GETS, n, 0, 1, &a), PROTO_OK);
    const dsm_sharers *sh = proto_dir_sharers(h, 1);
    ck_assert(sh->ops == &arr_ops);
    ck_assert_int_eq(sharers_count(sh), 3);
    /* a write invalidates in ascending node order, as with the bit vector */
    ck_assert_int_eq(recv_msg(h, PM_GETX, 1, 0, 1, &a), PROTO_OK);
    ck_assert_int_eq(a.n, 3);
    is_send(&a, 0, PM_INV, 0, 3, 1);
    is_send(&a, 1, PM_INV, 0, 5, 1);
    is_send(&a, 2, PM_INV, 0, 7, 1);

    /* snapshots carry member lists: same bytes whatever the representation */
    size_t need = proto_engine_save(h, NULL, 0);
    unsigned char *s1 = malloc(need), *s2 = malloc(need);
    ck_assert(s1 && s2);
    ck_assert_int_eq(proto_engine_save(h, s1, need), need);
    ck_assert_int_eq(proto_engine_load(bv, s1, need), PROTO_OK);
    ck_assert_int_eq(proto_engine_save(bv, s2, need), need);
    ck_assert(memcmp(s1, s2, need) == 0);
    ck_assert_int_eq(sharers_count(proto_dir_sharers(bv, 1)), 3);
    ck_assert(sharers_contains(proto_dir_sharers(bv, 1), 5));
    ck_assert_int_eq(proto_engine_load(h, s2, need), PROTO_OK);
    ck_assert_int_eq(sharers_count(proto_dir_sharers(h, 1)), 3);
    /* a member outside the node range is refused.  The snapshot ends with
     * block 1's entry: its members 3, 5, 7, then its empty queue's length;
     * then the empty list of blocks to push at the epoch's end and the byte
     * saying no pattern records follow. */
    int32_t last, bad = 8;
    memcpy(&last, s1 + need - 13, 4);
    ck_assert_int_eq(last, 7);
    ck_assert_int_eq(s1[need - 1], 0);
    memcpy(s2, s1, need);
    memcpy(s2 + need - 13, &bad, 4);
    ck_assert_int_eq(proto_engine_load(bv, s2, need), PROTO_EINVAL);
    ck_assert_int_eq(proto_engine_load(bv, s1, need), PROTO_OK);

    free(s1);
    free(s2);
    proto_actions_free(&a);
    int before = arr_destroys;
    proto_engine_destroy(h);
    ck_assert_int_eq(arr_destroys - before, 1); /* one directory entry was created */
    proto_engine_destroy(bv);
}
END_TEST

/* ---- three-hop interventions ---- */

static proto_engine *mk_3hop(int self, int three_hop)
{
    proto_config c = { .self = self, .nnodes = 3, .nblocks = 2, .evictions = 1,
                       .three_hop = three_hop };
    proto_engine *e = proto_engine_create(&c);
    ck_assert_msg(e != NULL, "proto_engine_create failed");
    ck_assert_int_eq(proto_set_home(e, 0, 2, 0), PROTO_OK);
    return e;
}

/* Delivers action i of a (a PA_SEND) to engine e. */
static int deliver_action(proto_engine *e, const proto_actions *a, size_t i, proto_actions *out)
{
    proto_msg m = a->v[i].msg;
    out->n = 0;
    return proto_receive(e, &m, out);
}

START_TEST(three_hop_read_and_write)
{
    proto_engine *e[3] = { mk_3hop(0, 1), mk_3hop(1, 1), mk_3hop(2, 1) };
    proto_actions a, b;
    proto_actions_init(&a);
    proto_actions_init(&b);
    /* node 1 owns block 0 (M) */
    ck_assert_int_eq(access_blk(e[1], 0, 1, &a), PROTO_OK);
    ck_assert_int_eq(deliver_action(e[0], &a, 0, &b), PROTO_OK);
    is_send(&b, 0, PM_DATA_X, 0, 1, 0);
    ck_assert_int_eq(deliver_action(e[1], &b, 0, &a), PROTO_OK);
    ck_assert_int_eq(release_blk(e[1], 0, &a), PROTO_OK);
    ck_assert_int_eq(proto_cache_state_of(e[1], 0), PC_M);
    /* node 2 reads: the home forwards to the owner, naming node 2 */
    ck_assert_int_eq(access_blk(e[2], 0, 0, &a), PROTO_OK);
    ck_assert_int_eq(deliver_action(e[0], &a, 0, &b), PROTO_OK);
    ck_assert_uint_eq(b.n, 1);
    is_send(&b, 0, PM_FWD_GETS, 0, 1, 0);
    ck_assert_int_eq(b.v[0].msg.req, 2);
    ck_assert_int_eq(proto_dir_state_of(e[0], 0), PD_BUSY_RECALL);
    /* the owner answers node 2 itself and keeps a read copy */
    ck_assert_int_eq(deliver_action(e[1], &b, 0, &a), PROTO_OK);
    is_access(&a, 0, PROTO_ACCESS_READ, 0);
    is_send(&a, 1, PM_FWD_DATA_S, 1, 2, 0);
    ck_assert_int_eq(proto_cache_state_of(e[1], 0), PC_S);
    /* the reader installs it and tells the home (sharing write-back) */
    ck_assert_int_eq(deliver_action(e[2], &a, 1, &b), PROTO_OK);
    is_kind(&b, 0, PA_INSTALL, 0);
    is_send(&b, 3, PM_SHWB, 2, 0, 0);
    ck_assert_int_eq(proto_cache_state_of(e[2], 0), PC_SH);
    ck_assert_int_eq(deliver_action(e[0], &b, 3, &a), PROTO_OK);
    ck_assert_int_eq(proto_dir_state_of(e[0], 0), PD_SHARED);
    ck_assert(sharers_contains(proto_dir_sharers(e[0], 0), 1) &&
              sharers_contains(proto_dir_sharers(e[0], 0), 2));
    /* block 1: node 2 holds it in MH when node 1's write is forwarded */
    ck_assert_int_eq(access_blk(e[2], 1, 1, &a), PROTO_OK);
    ck_assert_int_eq(deliver_action(e[0], &a, 0, &b), PROTO_OK);
    ck_assert_int_eq(deliver_action(e[2], &b, 0, &a), PROTO_OK);
    ck_assert_int_eq(proto_cache_state_of(e[2], 1), PC_MH);
    ck_assert_int_eq(access_blk(e[1], 1, 1, &a), PROTO_OK);
    ck_assert_int_eq(deliver_action(e[0], &a, 0, &b), PROTO_OK);
    is_send(&b, 0, PM_FWD_GETX, 0, 2, 1);
    ck_assert_int_eq(deliver_action(e[2], &b, 0, &a), PROTO_OK);
    ck_assert_uint_eq(a.n, 0); /* deferred by the hold */
    ck_assert_uint_eq(proto_deferred_messages(e[2]), 1);
    /* the requester it names survives a snapshot */
    size_t need = proto_engine_save(e[2], NULL, 0);
    unsigned char *snap = malloc(need);
    ck_assert_uint_eq(proto_engine_save(e[2], snap, need), need);
    proto_engine_destroy(e[2]);
    e[2] = mk_3hop(2, 1);
    ck_assert_int_eq(proto_engine_load(e[2], snap, need), PROTO_OK);
    free(snap);
    ck_assert_int_eq(release_blk(e[2], 1, &a), PROTO_OK);
    is_access(&a, 0, PROTO_ACCESS_NONE, 1);
    is_send(&a, 1, PM_FWD_DATA_X, 2, 1, 1);
    ck_assert_int_eq(deliver_action(e[1], &a, 1, &b), PROTO_OK);
    ck_assert_int_eq(proto_cache_state_of(e[1], 1), PC_MH);
    is_send(&b, 3, PM_XFER, 1, 0, 1);
    ck_assert_int_eq(deliver_action(e[0], &b, 3, &a), PROTO_OK);
    ck_assert_int_eq(proto_dir_state_of(e[0], 1), PD_EXCL);
    ck_assert_int_eq(proto_dir_owner(e[0], 1), 1);
    for (int i = 0; i < 3; i++)
        proto_engine_destroy(e[i]);
    proto_actions_free(&a);
    proto_actions_free(&b);
}
END_TEST

START_TEST(three_hop_off_refuses)
{
    proto_engine *e = mk_3hop(1, 0);
    proto_actions a;
    proto_actions_init(&a);
    proto_msg m = msg(PM_FWD_GETS, 0, 1, 0);
    m.req = 2;
    ck_assert_int_eq(proto_receive(e, &m, &a), PROTO_EINVAL);
    ck_assert_ptr_nonnull(strstr(proto_last_error(e), "three-hop"));
    ck_assert_int_eq(recv_msg(e, PM_FWD_DATA_S, 2, 1, 0, &a), PROTO_EINVAL);
    proto_engine_destroy(e);
    /* on, a forward must not name the owner itself */
    e = mk_3hop(1, 1);
    m.req = 1;
    ck_assert_int_eq(proto_receive(e, &m, &a), PROTO_EINVAL);
    proto_engine_destroy(e);
    /* not combined with the recalls of downgrade_on_read and adapt */
    proto_config c = { .self = 0, .nnodes = 3, .nblocks = 2, .three_hop = 1,
                       .downgrade_on_read = 1 };
    ck_assert_ptr_null(proto_engine_create(&c));
    proto_actions_free(&a);
}
END_TEST

Suite *unit_suite(void)
{
    Suite *s = suite_create("protocol");
    TCase *tc = tcase_create("sharers");
    tcase_add_loop_test(tc, sharers_sizes, 0, (int)(sizeof sizes / sizeof sizes[0]));
    suite_add_tcase(s, tc);

    tc = tcase_create("transitions");
    tcase_add_test(tc, remote_read_miss);
    tcase_add_test(tc, home_local_miss);
    tcase_add_test(tc, recall_through_home);
    tcase_add_test(tc, hold_defers_inv);
    tcase_add_test(tc, tables_well_formed);
    suite_add_tcase(s, tc);

    tc = tcase_create("errors");
    tcase_add_test(tc, rejected_pairs);
    tcase_add_test(tc, bad_inputs);
    suite_add_tcase(s, tc);

    tc = tcase_create("home");
    tcase_add_test(tc, queue_at_busy_home);
    tcase_add_test(tc, queue_grows_after_wrap);
    tcase_add_test(tc, home_checks_senders);
    tcase_add_test(tc, second_deferred_message);
    tcase_add_test(tc, options_narrow_table);
    tcase_add_test(tc, save_load_round_trip);
    tcase_add_test(tc, wide_sharing_1024);
    tcase_set_timeout(tc, 60);
    suite_add_tcase(s, tc);

    tc = tcase_create("hardware");
    tcase_add_test(tc, evict_dirty);
    tcase_add_test(tc, evict_crossing_recall);
    tcase_add_test(tc, silent_evict_then_inv);
    tcase_add_test(tc, replacement_hints);
    tcase_add_test(tc, exclusive_clean);
    tcase_add_test(tc, evict_rejected);
    tcase_add_test(tc, sharers_representation);
    tcase_add_test(tc, downgrade_m_to_s);
    tcase_add_test(tc, downgrade_held_and_exclusive_clean);
    tcase_add_test(tc, downgrade_crossing_eviction);
    tcase_add_test(tc, downgrade_home_owner);
    tcase_add_test(tc, downgrade_off_refuses_recall_s);
    tcase_add_test(tc, shared_home_table);
    tcase_add_test(tc, lazy_per_block_state);
    tcase_add_test(tc, three_hop_read_and_write);
    tcase_add_test(tc, three_hop_off_refuses);
    suite_add_tcase(s, tc);
    return s;
}
