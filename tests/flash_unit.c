/* flash_unit.c - Check unit tests of the FLASH machine and FlashPoint:
 *   - the pointer-list sharer sets (protocol/sharers_list.c) against the bit
 *     vector on the same random operation sequences, up to 4096 nodes,
 *     next() order included, and the walk lengths they count;
 *   - the handler classes (protocol/sim/flash.c) from message type, is-home
 *     and from-local-processor, and their costs as the sum of each handler's
 *     work and the directory state (noproc/proc add FlashPoint's steps,
 *     control and dp none), with step costs no default has;
 *   - the network delay (hops, message size, link contention);
 *   - FP-Proc's procedure command (flash.c, procedure_switch): its stall and
 *     occupancy in proc mode, nothing in the other modes, waiting for a busy
 *     PP, its options;
 *   - on a whole simulated machine: one local and one remote read miss cost
 *     what the constants add up to, and two reads at one home queue: the
 *     second waits for the first handler's occupancy; a procedure change
 *     stalls the processor in proc mode only, a request reaching a PP busy
 *     with a procedure command waits, and FP-Proc costs more than FP-NoProc
 *     on a run that switches procedures;
 *   - the FlashPoint collector (protocol/sim/flashpoint.c) on synthetic
 *     misses, and its JSON section (profile/flashpoint_json.c): Table 3's
 *     invalidation misses, the measured section's tables and Table 4;
 *   - the write buffer (outstanding=4): stores overlap, a full buffer, a
 *     load of a buffered line and a fence wait, stores to a line join;
 *   - overlapped loads (load_use=16): loads go on until their value is
 *     used, a load joins a line in flight, a store to it, the limit and a
 *     fence wait, and overlapped loads finish sooner than waited ones. */
#include "check_main.h"
#include <json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flashpoint_json.h"
#include "sharers_list.h"
#include "sim/flash.h"
#include "sim/flashpoint.h"
#include "sim/sim.h"
#include "sim/timing.h"

/* ---- sharer sets ---- */

static uint64_t rng_state = 88172645463325252ull;
static uint64_t rng(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static void assert_same_sets(const dsm_sharers *a, const dsm_sharers *b)
{
    ck_assert_int_eq(sharers_count(a), sharers_count(b));
    int x = sharers_next(a, 0), y = sharers_next(b, 0);
    while (x >= 0 || y >= 0) {
        ck_assert_int_eq(x, y);
        x = sharers_next(a, x + 1);
        y = sharers_next(b, y + 1);
    }
}

START_TEST(pointer_list_matches_bit_vector)
{
    static const int sizes[] = {1, 2, 7, 64, 65, 300, 1024, 4096};
    int nnodes = sizes[_i];
    dsm_sharers bv, pl;
    ck_assert_int_eq(dsm_sharers_init_with(&bv, nnodes, NULL), 0);
    ck_assert_int_eq(dsm_sharers_init_with(&pl, nnodes, &dsm_sharers_pointer_list), 0);
    ck_assert_str_eq(pl.ops->name, "pointer_list");
    int ops = nnodes >= 1024 ? 6000 : 3000;
    for (int i = 0; i < ops; i++) {
        /* bias towards adds so that large sets build up, with clears now and
         * then as a write's invalidations do */
        int node = (int)(rng() % (uint64_t)nnodes);
        unsigned op = (unsigned)(rng() % 100);
        if (op < 55) {
            sharers_add(&bv, node);
            sharers_add(&pl, node);
        } else if (op < 90) {
            sharers_remove(&bv, node);
            sharers_remove(&pl, node);
        } else if (op < 92) {
            sharers_clear(&bv);
            sharers_clear(&pl);
        } else {
            int from = (int)(rng() % (uint64_t)(nnodes + 2)) - 1;
            ck_assert_int_eq(sharers_next(&bv, from), sharers_next(&pl, from));
        }
        ck_assert_int_eq(sharers_contains(&bv, node), sharers_contains(&pl, node));
        ck_assert_int_eq(sharers_contains(&pl, -1), 0);
        ck_assert_int_eq(sharers_contains(&pl, nnodes), 0);
        if (i % 97 == 0 || nnodes <= 64)
            assert_same_sets(&bv, &pl);
    }
    assert_same_sets(&bv, &pl);
    ck_assert_uint_gt(dsm_sharers_list_walk_steps(&pl), 0);
    ck_assert_uint_eq(dsm_sharers_list_walk_steps(&bv), 0);
    dsm_sharers_destroy(&bv);
    dsm_sharers_destroy(&pl);
}
END_TEST

/* A SHARERS_FOREACH over n members walks n entries (the cursor), and the
 * pool reuses freed entries instead of growing. */
START_TEST(pointer_list_walk_lengths)
{
    dsm_sharers pl;
    ck_assert_int_eq(dsm_sharers_init_with(&pl, 4096, &dsm_sharers_pointer_list), 0);
    for (int node = 0; node < 4096; node += 8)
        sharers_add(&pl, node);
    ck_assert_int_eq(sharers_count(&pl), 512);
    uint64_t before = dsm_sharers_list_walk_steps(&pl);
    int seen = 0, last = -1;
    SHARERS_FOREACH(&pl, node)
    {
        ck_assert_int_gt(node, last);
        last = node;
        seen++;
    }
    ck_assert_int_eq(seen, 512);
    ck_assert_uint_eq(dsm_sharers_list_walk_steps(&pl) - before, 512);
    /* contains of the last member walks the whole list */
    before = dsm_sharers_list_walk_steps(&pl);
    ck_assert(sharers_contains(&pl, 4088));
    ck_assert_uint_eq(dsm_sharers_list_walk_steps(&pl) - before, 512);
    uint32_t pool = dsm_sharers_list_pool_entries(&pl);
    ck_assert_uint_ge(pool, 512);
    for (int round = 0; round < 10; round++) {
        sharers_clear(&pl);
        ck_assert_int_eq(sharers_count(&pl), 0);
        ck_assert_int_eq(sharers_next(&pl, 0), -1);
        for (int node = 4095; node >= 0; node -= 8)
            sharers_add(&pl, node);
    }
    ck_assert_uint_eq(dsm_sharers_list_pool_entries(&pl), pool);
    dsm_sharers_destroy(&pl);
}
END_TEST

/* The engine's outcome does not depend on the sharer-set representation:
 * the same random accesses and evictions on 6 nodes, each message delivered
 * before the next access, give the same action stream with pointer lists as
 * with bit vectors (INVs in the same order included). */
#define EQ_NODES 6
#define EQ_BLOCKS 4

typedef struct eq_world {
    proto_engine *e[EQ_NODES];
    proto_msg queue[4096];
    int head, tail;
    uint32_t trace[200000];
    int ntrace;
} eq_world;

static void eq_record(eq_world *w, int node, const proto_actions *a)
{
    for (size_t i = 0; i < a->n; i++) {
        const proto_action *x = &a->v[i];
        ck_assert_int_lt(w->ntrace, 200000);
        w->trace[w->ntrace++] = (uint32_t)node << 24 | (uint32_t)x->kind << 20 |
                                (uint32_t)x->msg.type << 14 | (uint32_t)x->msg.dst << 8 |
                                (uint32_t)x->access << 4 | x->block;
        if (x->kind == PA_SEND) {
            ck_assert_int_lt(w->tail, 4096);
            w->queue[w->tail++] = x->msg;
        }
    }
}

static void eq_apply(eq_world *w, int node, proto_actions *a)
{
    eq_record(w, node, a);
    for (size_t i = 0; i < a->n; i++)
        if (a->v[i].kind == PA_COMPLETE) {
            proto_actions r;
            proto_actions_init(&r);
            ck_assert_int_eq(proto_release(w->e[node], a->v[i].block, &r), 0);
            eq_apply(w, node, &r);
            proto_actions_free(&r);
        }
}

static void eq_run(eq_world *w, const dsm_sharers_ops *ops, uint64_t seed)
{
    memset(w, 0, sizeof *w);
    for (int n = 0; n < EQ_NODES; n++) {
        proto_config cfg;
        memset(&cfg, 0, sizeof cfg);
        cfg.self = n;
        cfg.nnodes = EQ_NODES;
        cfg.nblocks = EQ_BLOCKS;
        cfg.evictions = 1;
        cfg.replacement_hints = 1;
        cfg.sharers_ops = ops;
        w->e[n] = proto_engine_create(&cfg);
        ck_assert_ptr_nonnull(w->e[n]);
        for (uint32_t b = 0; b < EQ_BLOCKS; b++)
            ck_assert_int_eq(proto_set_home(w->e[n], b, 1, (int)(b % EQ_NODES)), 0);
    }
    rng_state = seed;
    for (int step = 0; step < 3000; step++) {
        int node = (int)(rng() % EQ_NODES);
        uint32_t block = (uint32_t)(rng() % EQ_BLOCKS);
        unsigned op = (unsigned)(rng() % 10);
        proto_cache_state st = proto_cache_state_of(w->e[node], block);
        proto_actions a;
        proto_actions_init(&a);
        if (op < 2 && (st == PC_S || st == PC_M))
            ck_assert_int_eq(proto_evict(w->e[node], block, &a), 0);
        else if (st == PC_I || st == PC_S)
            ck_assert_int_eq(proto_access(w->e[node], block, op >= 8, &a), 0);
        eq_apply(w, node, &a);
        proto_actions_free(&a);
        while (w->head < w->tail) {
            proto_msg m = w->queue[w->head++];
            proto_actions r;
            proto_actions_init(&r);
            ck_assert_int_eq(proto_receive(w->e[m.dst], &m, &r), 0);
            eq_apply(w, m.dst, &r);
            proto_actions_free(&r);
        }
        w->head = w->tail = 0;
    }
    for (int n = 0; n < EQ_NODES; n++)
        proto_engine_destroy(w->e[n]);
}

START_TEST(engine_outcome_independent_of_sharers)
{
    static eq_world a, b;
    eq_run(&a, NULL, 12345 + (uint64_t)_i);
    eq_run(&b, &dsm_sharers_pointer_list, 12345 + (uint64_t)_i);
    ck_assert_int_gt(a.ntrace, 1000);
    ck_assert_int_eq(a.ntrace, b.ntrace);
    for (int i = 0; i < a.ntrace; i++)
        ck_assert_msg(a.trace[i] == b.trace[i], "action %d differs", i);
    int invs = 0;
    for (int i = 0; i < a.ntrace; i++)
        invs += ((a.trace[i] >> 20) & 15) == PA_SEND && ((a.trace[i] >> 14) & 63) == PM_INV;
    ck_assert_int_gt(invs, 10);
}
END_TEST

/* ---- handler classes and costs ---- */

static proto_msg msg(int type, int src, int dst)
{
    proto_msg m = {.type = (uint8_t)type, .src = src, .dst = dst, .block = 0};
    return m;
}

START_TEST(handler_classes)
{
    static const struct {
        int type, is_home, local;
        const char *cls;
    } cases[] = {
        {PM_GETS, 1, 1, "PILocalGet"},         {PM_GETX, 1, 1, "PILocalGetX"},
        {PM_UPGRADE, 1, 1, "PILocalUpgrade"},  {PM_PUTX, 1, 1, "PILocalPut"},
        {PM_GETS, 0, 1, "PIRemoteGet"},        {PM_GETX, 0, 1, "PIRemoteGetX"},
        {PM_UPGRADE, 0, 1, "PIRemoteUpgrade"}, {PM_PUTS, 0, 1, "PIRemotePut"},
        {PM_GETS, 1, 0, "NILocalGet"},         {PM_GETX, 1, 0, "NILocalGetX"},
        {PM_UPGRADE, 1, 0, "NILocalUpgrade"},  {PM_PUTE, 1, 0, "NILocalPut"},
        {PM_INV_ACK, 1, 0, "NIInvalAck"},      {PM_WB_DATA, 1, 0, "NILocalWriteback"},
        {PM_DATA_S, 0, 0, "NIRemotePut"},      {PM_DATA_E, 0, 0, "NIRemotePut"},
        {PM_DATA_X, 0, 0, "NIRemotePutX"},     {PM_UPGRADE_ACK, 0, 0, "NIRemoteUpgradeAck"},
        {PM_INV, 0, 0, "NIInval"},             {PM_RECALL, 0, 0, "NIRemoteRecall"},
        {PM_PUT_ACK, 0, 0, "NIPutAck"},        {PM_GETS, 0, 0, "Other"},
        {PM_DATA_S, 0, 1, "Other"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        proto_msg m = msg(cases[i].type, 1, 0);
        int cls = sim_flash_classify(&m, cases[i].is_home, cases[i].local);
        ck_assert_msg(!strcmp(sim_flash_handler_name(cls), cases[i].cls),
                      "case %zu: %s, got %s", i, cases[i].cls, sim_flash_handler_name(cls));
        ck_assert_int_eq(sim_flash_handler_by_name(cases[i].cls), cls);
    }
    ck_assert_ptr_null(sim_flash_handler_name(FH_NCLASSES));
    ck_assert_int_eq(sim_flash_handler_by_name("NoSuchHandler"), -1);
}
END_TEST

static void *make_model(int nprocs, int mode)
{
    sim_params p;
    char err[256];
    ck_assert_int_eq(sim_params_for("flash", nprocs, &p, err, sizeof err), 0);
    p.fp_mode = mode;
    void *model = sim_timing_flash.create(&p, err, sizeof err);
    ck_assert_msg(model != NULL, "%s", err);
    return model;
}

/* Each call of run_handler(_dir) arrives long after the previous one, so
 * that no call waits for an earlier one's memory access: the costs below
 * are of single handlers. */
static sim_time next_arrival(void)
{
    static sim_time t = 100;
    return t += 1000000;
}

/* handler latency and occupancy in processor cycles */
static sim_time run_handler(void *model, int type, int is_home, int local, sim_time *occ)
{
    proto_msg m = msg(type, 1, 0);
    sim_time t = next_arrival();
    return sim_timing_flash.handler(model, 0, &m, is_home, local, t, t, occ);
}

/* handler_dir with a directory entry at the home (state, other sharers) */
static sim_time run_handler_dir(void *model, int type, int is_home, int local, int state,
                                int others, sim_time *occ)
{
    proto_msg m = msg(type, 1, 0);
    sim_dir_view dir = {.at_home = is_home, .state = state, .sharers = others};
    sim_time t = next_arrival();
    return sim_timing_flash.handler_dir(model, 0, &m, is_home, local, t, t, &dir, occ);
}

/* A handler at node 0, arriving at `arrival` and starting at `start`. */
static sim_time handler_at(void *model, int type, int local, sim_time arrival, sim_time start,
                           sim_time *occ)
{
    proto_msg m = msg(type, 1, 0);
    sim_dir_view dir = {.at_home = 1, .state = PD_UNOWNED};
    return sim_timing_flash.handler_dir(model, 0, &m, 1, local, arrival, start, &dir, occ);
}


static void set_options(void *model, const char *const *kv)
{
    char err[256];
    for (; *kv; kv += 2)
        ck_assert_msg(sim_timing_flash.set(model, kv[0], kv[1], err, sizeof err) == 0, "%s", err);
}

/* Handler costs are the sum of the handler's work (flash.c, "Handler
 * costs"), so Table 4 is an output: they follow the directory state and
 * the FlashPoint code the mode adds.  Step costs set to values no default
 * has, so the expectations below follow the composition, not a table. */
START_TEST(handler_costs_follow_the_work)
{
    static const char *const steps[] = {
        "cpu_ratio", "1", "pi_in", "0", "pi_out", "0", "pp_dispatch", "1", "pp_addr", "3", "pp_header", "5",
        "pp_test", "1", "pp_send", "3", "pp_update", "2", "pp_list", "7", "inv_send", "9",
        "fp_header", "4", "fp_warm", "6", "fp_record", "11", NULL,
    };
    for (int mode = 0; mode < SIM_FP_NMODES; mode++) {
        int fp = mode == SIM_FP_NOPROC || mode == SIM_FP_PROC;
        void *model = make_model(4, mode);
        set_options(model, steps);
        sim_time occ = 0;
        /* PILocalGet: dispatch 1 + address 3 + header 5 + two tests
         * (Pending, Dirty) 2 + send 3 = 14 to the send, then the header
         * update 2; FlashPoint records after the send (+11 occupancy, no
         * latency).  A local sharer is a bit of the header: no HeadPtr
         * test, no pointer, whatever the other sharers. */
        for (int others = 0; others < 4; others += 3) {
            ck_assert_uint_eq(run_handler_dir(model, PM_GETS, 1, 1,
                                              others ? PD_SHARED : PD_UNOWNED, others, &occ),
                              14);
            ck_assert_uint_eq(occ, 16 + (fp ? 11 : 0));
        }
        /* NILocalGet: a third test (HeadPtr), 15 to the send; a remote
         * sharer takes a pointer (7) after it; FlashPoint fills the reply
         * header first (+4) and sets the warm bit after (+6) */
        ck_assert_uint_eq(run_handler_dir(model, PM_GETS, 1, 0, PD_UNOWNED, 0, &occ),
                          15 + (fp ? 4 : 0));
        ck_assert_uint_eq(occ, 24 + (fp ? 10 : 0));
        /* ... the line dirty elsewhere: forward a recall after the Dirty
         * test, no HeadPtr test, no pointer */
        ck_assert_uint_eq(run_handler_dir(model, PM_GETS, 1, 0, PD_EXCL, 1, &occ),
                          14 + (fp ? 4 : 0));
        ck_assert_uint_eq(occ, 16 + (fp ? 10 : 0));
        /* PILocalGetX with 3 other sharers: three tests, one list step (7)
         * and the first INV (3) before the first send, two more steps of
         * inv_send 9, the update; the grant comes with the last ack, the
         * record is charged here */
        ck_assert_uint_eq(run_handler_dir(model, PM_GETX, 1, 1, PD_SHARED, 3, &occ), 22);
        ck_assert_uint_eq(occ, 22 + 2 * 9 + 2 + (fp ? 11 : 0));
        /* ... on an unowned line: the grant at once, recorded after */
        ck_assert_uint_eq(run_handler_dir(model, PM_GETX, 1, 1, PD_UNOWNED, 0, &occ), 15);
        ck_assert_uint_eq(occ, 17 + (fp ? 11 : 0));
        /* NIRemotePut: a pass-through (dispatch + send), the record after */
        ck_assert_uint_eq(run_handler_dir(model, PM_DATA_S, 0, 0, 0, 0, &occ), 4);
        ck_assert_uint_eq(occ, 4 + (fp ? 11 : 0));
        /* invalidations carry no FlashPoint code in any mode */
        ck_assert_uint_eq(run_handler_dir(model, PM_INV, 0, 0, 0, 0, &occ), 4);
        ck_assert_uint_eq(occ, 7);
        /* Table 4's latency is the handler's own: the bus times the
         * processor sees are not in the statistics */
        set_options(model, (const char *const[]){"pi_in", "2", "pi_out", "11", NULL});
        ck_assert_uint_eq(run_handler_dir(model, PM_GETS, 1, 1, PD_UNOWNED, 0, &occ), 14 + 13);
        sim_flash_handler_stat st;
        ck_assert_int_eq(sim_flash_stats_of(model, FH_PI_LOCAL_GET, &st), 0);
        ck_assert_uint_eq(st.count, 3);
        ck_assert_uint_eq(st.latency, 3 * 14);
        sim_timing_flash.destroy(model);
    }
}
END_TEST

START_TEST(options)
{
    char err[256];
    sim_params p;
    ck_assert_int_eq(sim_params_for("flash", 4, &p, err, sizeof err), 0);
    ck_assert_uint_eq(p.line_size, 128);
    void *model = sim_timing_flash.create(&p, err, sizeof err);
    ck_assert_ptr_nonnull(model);
    ck_assert_int_eq(sim_timing_flash.set(model, "PILocalGet", "20/30", err, sizeof err), 0);
    ck_assert_int_eq(sim_timing_flash.set(model, "cpu_ratio", "1", err, sizeof err), 0);
    sim_time occ;
    ck_assert_uint_eq(run_handler(model, PM_GETS, 1, 1, &occ), 20 + 13);
    ck_assert_uint_eq(occ, 30);
    ck_assert_int_eq(sim_timing_flash.set(model, "PILocalGet", "20", err, sizeof err), -1);
    ck_assert_msg(strstr(err, "PILocalGet") != NULL, "%s", err);
    ck_assert_int_eq(sim_timing_flash.set(NULL, "cpu_ratio", "0", err, sizeof err), -1);
    ck_assert_msg(strstr(err, "cpu_ratio") != NULL, "%s", err);
    ck_assert_int_eq(sim_timing_flash.set(NULL, "warp_speed", "9", err, sizeof err), -1);
    ck_assert_msg(strstr(err, "warp_speed") != NULL, "%s", err);
    ck_assert_int_eq(sim_timing_flash.set(NULL, "contention", "2", err, sizeof err), -1);
    sim_timing_flash.destroy(model);
    /* through the machine's own option parser */
    ck_assert_int_eq(sim_params_set(&p, "fp_mode=noproc", err, sizeof err), 0);
    ck_assert_int_eq(p.fp_mode, SIM_FP_NOPROC);
    ck_assert_int_eq(sim_params_set(&p, "hop=9", err, sizeof err), 0);
    ck_assert_int_ne(sim_params_set(&p, "hop=lots", err, sizeof err), 0);
    ck_assert_int_eq(sim_flash_parse_mode("FP-NoProc"), SIM_FP_NOPROC);
    ck_assert_int_eq(sim_flash_parse_mode("sometimes"), -1);
}
END_TEST

/* FP-Proc's procedure command (flash.c): fence 4 + pi_in 2 +
 * PIProcedureSwitch's latency (dispatch 1 + send 2) + pi_word 3 = 12 system
 * cycles of stall, occupancy 4 (the shift and add after the send); nothing
 * in the other modes. */
START_TEST(procedure_switch_per_mode)
{
    for (int mode = 0; mode < SIM_FP_NMODES; mode++) {
        void *model = make_model(4, mode);
        sim_time occ = 0;
        sim_time stall = sim_timing_flash.procedure_switch(model, 1, 7, 1000, &occ);
        sim_flash_handler_stat st;
        ck_assert_int_eq(sim_flash_stats_of(model, FH_PI_PROCEDURE_SWITCH, &st), 0);
        if (mode == SIM_FP_PROC) {
            ck_assert_uint_eq(stall, 12 * 2);
            ck_assert_uint_eq(occ, 4 * 2);
            ck_assert_uint_eq(st.count, 1);
            ck_assert_uint_eq(st.latency, 12 * 2);
            ck_assert_uint_eq(st.occupancy, 4 * 2);
            ck_assert_uint_eq(st.queued, 0);
        } else {
            ck_assert_msg(stall == 0 && occ == 0, "mode %s: stall %llu occupancy %llu",
                          sim_flash_mode_name(mode), (unsigned long long)stall,
                          (unsigned long long)occ);
            ck_assert_uint_eq(st.count, 0);
        }
        sim_timing_flash.destroy(model);
    }
    ck_assert_str_eq(sim_flash_handler_name(FH_PI_PROCEDURE_SWITCH), "PIProcedureSwitch");
}
END_TEST

/* The command is a PP handler: issued while a handler still occupies its
 * node's PP, it waits for it; the next command waits for this one. */
START_TEST(procedure_switch_waits_for_the_pp)
{
    void *model = make_model(4, SIM_FP_PROC);
    proto_msg m = msg(PM_GETS, 1, 1);
    sim_time occ = 0;
    /* PILocalGet at node 1 from 1000 on an unowned line: occupancy
     * (dispatch 1 + address 2 + header 3 + tests 2 + send 2 + update 2 +
     * record 10) x 2 = 44 */
    sim_timing_flash.handler(model, 1, &m, 1, 1, 1000, 1000, &occ);
    ck_assert_uint_eq(occ, 44);
    /* the command reaches the PP at 1000 + (4 + 2) x 2 = 1012, starts at
     * 1044, the reply is back (3 + 3) x 2 later */
    sim_time stall = sim_timing_flash.procedure_switch(model, 1, 3, 1000, &occ);
    ck_assert_uint_eq(stall, 44 + 12);
    ck_assert_uint_eq(occ, 8);
    /* another node's PP is free */
    ck_assert_uint_eq(sim_timing_flash.procedure_switch(model, 2, 3, 1000, &occ), 24);
    /* right after the reply, node 1's PP still runs the shift and add:
     * busy until 1044 + 8 = 1052, the command issued at 1040 arrives at
     * 1052 and does not wait; issued at 1036 it waits 4 */
    ck_assert_uint_eq(sim_timing_flash.procedure_switch(model, 1, 4, 1036, &occ), 4 + 24);
    sim_flash_handler_stat st;
    ck_assert_int_eq(sim_flash_stats_of(model, FH_PI_PROCEDURE_SWITCH, &st), 0);
    ck_assert_uint_eq(st.count, 3);
    ck_assert_uint_eq(st.queued, 32 + 0 + 4);
    sim_timing_flash.destroy(model);
}
END_TEST

START_TEST(procedure_switch_options)
{
    void *model = make_model(2, SIM_FP_PROC);
    char err[256];
    ck_assert_int_eq(sim_timing_flash.set(model, "PIProcedureSwitch", "6/9", err, sizeof err), 0);
    ck_assert_int_eq(sim_timing_flash.set(model, "fence", "0", err, sizeof err), 0);
    ck_assert_int_eq(sim_timing_flash.set(model, "pi_word", "1", err, sizeof err), 0);
    sim_time occ = 0;
    ck_assert_uint_eq(sim_timing_flash.procedure_switch(model, 0, 1, 0, &occ), (2 + 6 + 1) * 2);
    ck_assert_uint_eq(occ, 9 * 2);
    ck_assert_int_eq(sim_timing_flash.set(NULL, "fence", "-1", err, sizeof err), -1);
    ck_assert_msg(strstr(err, "fence") != NULL, "%s", err);
    ck_assert_int_eq(sim_timing_flash.set(NULL, "PIProcedureSwitch", "3/0", err, sizeof err), -1);
    ck_assert_msg(strstr(err, "PIProcedureSwitch") != NULL, "%s", err);
    sim_timing_flash.destroy(model);
}
END_TEST

START_TEST(network_delay)
{
    void *model = make_model(16, SIM_FP_CONTROL); /* 4 x 4 mesh */
    char err[256];
    /* no contention: net_fixed 16 + hops x 4 + ceil(bytes / 8), x2 */
    ck_assert_int_eq(sim_timing_flash.set(model, "contention", "0", err, sizeof err), 0);
    proto_msg m = msg(PM_GETS, 0, 15); /* (0,0) -> (3,3): 6 hops */
    ck_assert_uint_eq(sim_timing_flash.net_delay(model, &m, 8, 1000), (16 + 24 + 1) * 2);
    m = msg(PM_DATA_S, 0, 1);
    ck_assert_uint_eq(sim_timing_flash.net_delay(model, &m, 136, 1000), (16 + 4 + 17) * 2);
    /* contention: two data messages over the same link at once: the second
     * waits for the first's serialisation */
    ck_assert_int_eq(sim_timing_flash.set(model, "contention", "1", err, sizeof err), 0);
    sim_time a = sim_timing_flash.net_delay(model, &m, 136, 5000);
    sim_time b = sim_timing_flash.net_delay(model, &m, 136, 5000);
    ck_assert_uint_eq(a, (16 + 4 + 17) * 2);
    ck_assert_uint_eq(b, a + 17 * 2);
    /* INVs of one handler leave one pointer-list step and a send (inv_send
     * = pp_list 4 + pp_send 2) apart */
    proto_msg inv1 = msg(PM_INV, 0, 4), inv2 = msg(PM_INV, 0, 8);
    sim_time i1 = sim_timing_flash.net_delay(model, &inv1, 8, 9000);
    sim_time i2 = sim_timing_flash.net_delay(model, &inv2, 8, 9000);
    ck_assert_uint_eq(i2, i1 + 4 * 2 + 6 * 2); /* one more hop, one step later */
    sim_timing_flash.destroy(model);
}
END_TEST

/* ---- a whole machine ---- */

#define BASE ((uintptr_t)0x10000000)
#define BYTES ((size_t)1 << 20)

typedef struct miss_log {
    int n;
    sim_miss v[16];
} miss_log;

static void log_miss(void *arg, const sim_miss *miss)
{
    miss_log *log = arg;
    if (log->n < 16)
        log->v[log->n++] = *miss;
}

/* A flash machine in FlashPoint mode `mode`, with more options (NULL:
 * none; "key=value,key=value"), all memory homed at node 0, misses logged. */
static sim_machine *machine_with(int nprocs, const char *mode, const char *option,
                                 miss_log *log)
{
    sim_params p;
    char err[256], opt[64];
    ck_assert_int_eq(sim_params_for("flash", nprocs, &p, err, sizeof err), 0);
    snprintf(opt, sizeof opt, "fp_mode=%s", mode);
    ck_assert_int_eq(sim_params_set(&p, opt, err, sizeof err), 0);
    /* the processor waits for every miss unless a test asks for the write
     * buffer: the hand-computed latencies below are of single misses */
    ck_assert_int_eq(sim_params_set(&p, "outstanding=1", err, sizeof err), 0);
    char opts[256];
    snprintf(opts, sizeof opts, "%s", option ? option : "");
    for (char *save = NULL, *kv = strtok_r(opts, ",", &save); kv; kv = strtok_r(NULL, ",", &save))
        ck_assert_msg(sim_params_set(&p, kv, err, sizeof err) == 0, "%s", err);
    sim_machine *m = sim_create(&p, BASE, BYTES, err, sizeof err);
    ck_assert_msg(m != NULL, "%s", err);
    ck_assert_int_eq(sim_place(m, BASE, BYTES, 0), 0);
    memset(log, 0, sizeof *log);
    ck_assert_int_eq(sim_on_miss(m, log_miss, log), 0);
    return m;
}

static sim_machine *machine(int nprocs, const char *mode, miss_log *log)
{
    return machine_with(nprocs, mode, NULL, log);
}

static void run_to_completion(sim_machine *m, int nprocs)
{
    for (int guard = 0; guard < 10000; guard++) {
        int stalled = 0;
        for (int p = 0; p < nprocs; p++)
            stalled |= sim_stalled(m, p);
        if (!stalled)
            return;
        ck_assert_int_eq(sim_run_until(m, sim_next_event(m)), 0);
    }
    ck_abort_msg("misses never completed");
}

static const sim_miss *miss_of(const miss_log *log, int proc)
{
    for (int i = 0; i < log->n; i++)
        if (log->v[i].proc == proc)
            return &log->v[i];
    ck_abort_msg("no miss recorded for processor %d", proc);
    return NULL;
}

START_TEST(local_and_remote_read_latency)
{
    miss_log log;
    sim_machine *m = machine(2, "control", &log); /* 2 x 1 mesh, home 0 */
    ck_assert_int_eq(sim_ref(m, 0, BASE, 8, 0, -1), SIM_STALL);
    run_to_completion(m, 2);
    ck_assert_int_eq(sim_ref(m, 1, BASE + 4096, 8, 0, -1), SIM_STALL);
    run_to_completion(m, 2);
    const sim_miss *local = miss_of(&log, 0), *remote = miss_of(&log, 1);
    ck_assert_int_eq(local->remote, 0);
    ck_assert_int_eq(remote->remote, 1);
    ck_assert_int_eq(local->warm, 0);
    /* local clean read: pi_in 2 + PILocalGet (dispatch 1 + address 2 +
     * header 3 + tests 2 + send 2) + pi_out 11 = 23 */
    ck_assert_uint_eq(local->latency, 23 * 2);
    /* remote clean read, one hop: pi_in 2 + PIRemoteGet (dispatch 1 +
     * send 2), GETS 16+4+1, NILocalGet 11 (three tests), DATA 16+4+17,
     * NIRemotePut 3 + pi_out 11 = 88 */
    ck_assert_uint_eq(remote->latency, 88 * 2);
    sim_destroy(m);
}
END_TEST

/* A remote read of a line dirty in the home's own processor cache: the
 * home's engine recalls its own copy without a message (proto.h), but on
 * FLASH the home's PP must intervene in its processor's cache all the same
 * (the same intervention as at a remote owner), and the line that comes
 * back down the bus is a handler of its own (PIInterventionReply, the
 * recalled owner's data as NILocalWriteback's work) that sends the reply
 * and writes the memory. */
START_TEST(remote_read_of_a_line_dirty_at_the_home)
{
    static const char *const modes[] = {"control", "noproc"};
    for (int k = 0; k < 2; k++) {
        int fp = k == 1;
        miss_log log;
        sim_machine *m = machine(2, modes[k], &log); /* 2 x 1 mesh, home 0 */
        ck_assert_int_eq(sim_ref(m, 0, BASE, 8, 1, -1), SIM_STALL); /* dirty at the home */
        run_to_completion(m, 2);
        sim_flash_memory_stat before;
        sim_flash_memory_stats_of(sim_timing_model(m), 0, &before);
        ck_assert_int_eq(sim_ref(m, 1, BASE, 8, 0, -1), SIM_STALL);
        run_to_completion(m, 2);
        const sim_miss *remote = miss_of(&log, 1);
        ck_assert_int_eq(remote->remote, 1);
        /* pi_in 2 + PIRemoteGet 3, GETS 16+4+1, NILocalGet to the
         * intervention's send 10 (dispatch 1 + address 2 + header 3 +
         * Pending, Dirty 2 + send 2; FlashPoint: the reply header 2), the
         * processor cache's answer (intervention 15), PIInterventionReply 9
         * (dispatch 1 + address 2 + header 3 + Pending 1 + send 2;
         * FlashPoint: the reply header 2), DATA 16+4+17, NIRemotePut 3 +
         * pi_out 11 = 111 (the clean line's: 88) */
        ck_assert_uint_eq(remote->latency, (111 + (fp ? 4 : 0)) * 2);
        sim_flash_handler_stat st;
        ck_assert_int_eq(sim_flash_stats_of(sim_timing_model(m), FH_PI_INTERVENTION_REPLY, &st),
                         0);
        ck_assert_uint_eq(st.count, 1);
        ck_assert_uint_eq(st.latency, (9 + (fp ? 2 : 0)) * 2);
        ck_assert_uint_eq(st.occupancy, (11 + (fp ? 4 : 0)) * 2);
        sim_flash_memory_stat after;
        sim_flash_memory_stats_of(sim_timing_model(m), 0, &after);
        ck_assert_uint_eq(after.accesses - before.accesses, 1); /* the sharing writeback */
        sim_destroy(m);
    }
    /* a remote write of a line only the home's processor shares: its copy
     * is invalidated on the bus, no ack to wait for, the line goes at once:
     * pi_in 2 + PIRemoteGetX 3, GETX 21, NILocalGetX 17 (dispatch 1 +
     * address 2 + header 3 + three tests 3 + a list step 4 + the bus INV 2
     * + the reply 2), DATA 37, NIRemotePutX 3 + pi_out 11 = 94 */
    miss_log log;
    sim_machine *m = machine(2, "control", &log);
    ck_assert_int_eq(sim_ref(m, 0, BASE, 8, 0, -1), SIM_STALL);
    run_to_completion(m, 2);
    ck_assert_int_eq(sim_ref(m, 1, BASE, 8, 1, -1), SIM_STALL);
    run_to_completion(m, 2);
    ck_assert_uint_eq(miss_of(&log, 1)->latency, 94 * 2);
    sim_destroy(m);
}
END_TEST

/* Two processors read two lines of one home at the same time: the home's
 * second NILocalGet starts when the first one's occupancy ends. */
static sim_time queued_difference(const char *mode)
{
    miss_log log;
    sim_machine *m = machine(4, mode, &log); /* 2 x 2 mesh, home 0 */
    ck_assert_int_eq(sim_ref(m, 1, BASE, 8, 0, -1), SIM_STALL);
    ck_assert_int_eq(sim_ref(m, 2, BASE + 4096, 8, 0, -1), SIM_STALL);
    run_to_completion(m, 4);
    sim_time a = miss_of(&log, 1)->latency, b = miss_of(&log, 2)->latency;
    sim_destroy(m);
    return a > b ? a - b : b - a;
}

START_TEST(occupancy_queuing_at_the_home)
{
    /* NILocalGet on an unowned line: 11 to the send, a pointer 4 and the
     * update 2 after; FlashPoint: the reply header 2 before, the warm bit
     * 2 after */
    ck_assert_uint_eq(queued_difference("control"), 17 * 2);
    ck_assert_uint_eq(queued_difference("dp"), 17 * 2);
    ck_assert_uint_eq(queued_difference("noproc"), 21 * 2);
    ck_assert_uint_eq(queued_difference("proc"), 21 * 2);
}
END_TEST

/* On a machine: the core calls the hook when a processor's procedure
 * changes; in proc mode the processor stalls, elsewhere it does not.  An
 * address outside the region is a 1-cycle hit. */
START_TEST(procedure_switch_on_machine)
{
    static const char *const modes[] = {"control", "dp", "noproc", "proc"};
    for (size_t i = 0; i < 4; i++) {
        miss_log log;
        sim_machine *m = machine(2, modes[i], &log);
        uintptr_t outside = BASE - 64;
        sim_time per_switch = !strcmp(modes[i], "proc") ? 24 : 0;
        ck_assert_int_eq(sim_ref(m, 0, outside, 8, 0, 5), SIM_HIT);
        ck_assert_uint_eq(sim_clock(m, 0), per_switch + 1);
        ck_assert_int_eq(sim_ref(m, 0, outside, 8, 0, 5), SIM_HIT);   /* no switch */
        ck_assert_uint_eq(sim_clock(m, 0), per_switch + 2);
        ck_assert_int_eq(sim_ref(m, 0, outside, 8, 0, 6), SIM_HIT);
        ck_assert_uint_eq(sim_clock(m, 0), 2 * per_switch + 3);
        sim_destroy(m);
    }
}
END_TEST

/* A request that reaches a PP while a procedure command occupies it waits:
 * processor 1 reads a line of home 0 while processor 0 switches procedure
 * with a 100-cycle (system) command occupancy.  The GETS reaches node 0 at
 * (2 + 3 + 16 + 4 + 1) x 2 = 52; the PP is busy until at least 200 (the
 * occupancy counted from the switch) and at most 224 (counted from the end
 * of the 24-cycle stall), so the read is 148 to 172 cycles late. */
static sim_time remote_read_latency(int switch_first)
{
    miss_log log;
    sim_machine *m = machine_with(2, "proc", "PIProcedureSwitch=3/100", &log);
    if (switch_first)
        ck_assert_int_eq(sim_ref(m, 0, BASE - 64, 8, 0, 5), SIM_HIT);
    ck_assert_int_eq(sim_ref(m, 1, BASE, 8, 0, -1), SIM_STALL);
    run_to_completion(m, 2);
    sim_time latency = miss_of(&log, 1)->latency;
    sim_destroy(m);
    return latency;
}

START_TEST(handler_queued_behind_a_switch)
{
    sim_time alone = remote_read_latency(0), behind = remote_read_latency(1);
    /* proc mode adds NILocalGet's reply header (fp_header 2) to the 88 of
     * control */
    ck_assert_uint_eq(alone, 90 * 2);
    ck_assert_msg(behind >= alone + 148 && behind <= alone + 172,
                  "remote read behind a procedure command: %llu, alone %llu",
                  (unsigned long long)behind, (unsigned long long)alone);
}
END_TEST

/* One processor alternating between two procedures over local misses: FP-Proc
 * costs at least 24 cycles a switch more than FP-NoProc, which costs the same
 * as before; DP the same as control. */
static sim_time alternating_run(const char *mode)
{
    miss_log log;
    sim_machine *m = machine(2, mode, &log);
    for (int i = 0; i < 20; i++) {
        int r = sim_ref(m, 0, BASE + (uintptr_t)i * 128, 8, i % 3 == 0, i % 2);
        ck_assert_msg(r == SIM_HIT || r == SIM_STALL, "sim_ref: %d", r);
        run_to_completion(m, 2);
    }
    sim_time t = sim_clock(m, 0);
    sim_destroy(m);
    return t;
}

START_TEST(proc_costs_more_than_noproc)
{
    sim_time control = alternating_run("control"), dp = alternating_run("dp");
    sim_time noproc = alternating_run("noproc"), proc = alternating_run("proc");
    ck_assert_uint_eq(control, dp);
    ck_assert_uint_ge(noproc, control);
    ck_assert_uint_ge(proc, noproc + 20 * 24);
}
END_TEST

/* ---- FlashPoint collector and its JSON ---- */

static sim_miss fake(int proc, int procedure, int bin, int is_write, int remote, int warm,
                     sim_time latency, uint32_t invalidations)
{
    sim_miss m;
    memset(&m, 0, sizeof m);
    m.proc = proc;
    m.procedure = procedure;
    m.bin = bin;
    m.is_write = (uint8_t)is_write;
    m.remote = (uint8_t)remote;
    m.warm = (uint8_t)warm;
    m.latency = latency;
    m.invalidations = invalidations;
    m.cause = warm ? SIM_CAUSE_INVALIDATION : SIM_CAUSE_COLD;
    return m;
}

START_TEST(collector_metrics)
{
    sim_flashpoint *fp = sim_flashpoint_new();
    ck_assert_ptr_nonnull(fp);
    sim_miss v[] = {
        fake(0, 0, 0, 0, 0, 0, 44, 0),  /* cold local read */
        fake(1, 0, 0, 0, 1, 1, 184, 0), /* warm remote read */
        fake(1, 1, 0, 1, 1, 1, 300, 2), /* remote write, 2 invalidations */
        fake(0, 1, 3, 1, 0, 0, 60, 0),  /* local write to bin 3 */
        fake(2, -1, -1, 0, 0, 0, 40, 0), /* unknown procedure, no bin */
        fake(2, 40, 20, 0, 1, 1, 200, 0), /* grows both dimensions */
    };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        ck_assert_int_eq(sim_flashpoint_record(fp, &v[i]), 0);
    const sim_fp_record *r = sim_flashpoint_get(fp, 0, 0);
    ck_assert_ptr_nonnull(r);
    ck_assert_uint_eq(r->v[FPM_READ_MISS_LOCAL], 1);
    ck_assert_uint_eq(r->v[FPM_READ_LATENCY_LOCAL], 44);
    ck_assert_uint_eq(r->v[FPM_READ_MISS_REMOTE], 1);
    ck_assert_uint_eq(r->v[FPM_READ_LATENCY_REMOTE], 184);
    ck_assert_uint_eq(r->v[FPM_COLD_MISSES], 1);
    ck_assert_ptr_null(sim_flashpoint_get(fp, 0, 3));
    sim_fp_record t;
    sim_flashpoint_bin_total(fp, 0, &t);
    ck_assert_uint_eq(t.v[FPM_WRITE_MISS_REMOTE], 1);
    ck_assert_uint_eq(t.v[FPM_WRITE_LATENCY_REMOTE], 300);
    ck_assert_uint_eq(t.v[FPM_INVALIDATION_MISSES], 2); /* the two warm misses */
    ck_assert_uint_eq(t.invalidations_sent, 2);
    sim_flashpoint_procedure_total(fp, 1, &t);
    ck_assert_uint_eq(t.v[FPM_WRITE_MISS_LOCAL] + t.v[FPM_WRITE_MISS_REMOTE], 2);
    sim_flashpoint_total(fp, &t);
    ck_assert_uint_eq(t.v[FPM_READ_MISS_LOCAL] + t.v[FPM_READ_MISS_REMOTE] +
                          t.v[FPM_WRITE_MISS_LOCAL] + t.v[FPM_WRITE_MISS_REMOTE],
                      6);
    ck_assert_uint_eq(t.v[FPM_COLD_MISSES], 3);
    ck_assert_int_eq(sim_flashpoint_nprocedures(fp), 41);
    ck_assert_int_eq(sim_flashpoint_nbins(fp), 21);
    ck_assert_ptr_nonnull(sim_flashpoint_get(fp, -1, -1));
    ck_assert_ptr_nonnull(sim_flashpoint_get(fp, 40, 20));
    ck_assert_uint_eq(sim_flashpoint_dropped(fp), 0);

    const char *names[] = {"main", "transpose"};
    json_object *o = flashpoint_to_json(fp, NULL, names, 2);
    ck_assert_ptr_nonnull(o);
    json_object *v1, *bins, *totals;
    ck_assert(json_object_object_get_ex(o, "schema", &v1));
    ck_assert_str_eq(json_object_get_string(v1), FLASHPOINT_SCHEMA);
    ck_assert(json_object_object_get_ex(o, "totals", &totals));
    ck_assert(json_object_object_get_ex(totals, "cold_misses", &v1));
    ck_assert_int_eq(json_object_get_int(v1), 3);
    ck_assert(json_object_object_get_ex(o, "bins", &bins));
    /* unbinned, bins 0..20 */
    ck_assert_int_eq((int)json_object_array_length(bins), 22);
    json_object *b0 = json_object_array_get_idx(bins, 1), *procs, *p1;
    ck_assert(json_object_object_get_ex(b0, "name", &v1));
    ck_assert_str_eq(json_object_get_string(v1), "bin#0");
    ck_assert(json_object_object_get_ex(b0, "procedures", &procs));
    ck_assert_int_eq((int)json_object_array_length(procs), 2);
    p1 = json_object_array_get_idx(procs, 1);
    ck_assert(json_object_object_get_ex(p1, "name", &v1));
    ck_assert_str_eq(json_object_get_string(v1), "transpose");
    ck_assert(json_object_object_get_ex(p1, "invalidation_misses", &v1));
    ck_assert_int_eq(json_object_get_int(v1), 1);
    ck_assert(json_object_object_get_ex(p1, "invalidations_sent", &v1));
    ck_assert_int_eq(json_object_get_int(v1), 2);
    /* no machine, no section: the whole run is the scope */
    ck_assert(json_object_object_get_ex(o, "scope", &v1));
    ck_assert_str_eq(json_object_get_string(v1), "run");
    json_object_put(o);
    sim_flashpoint_free(fp);
}
END_TEST

/* Attached to a machine: the misses arrive, bins carry dsm_alloc names. */
START_TEST(collector_on_machine)
{
    miss_log log;
    sim_machine *m = machine(2, "noproc", &log);
    int bin = sim_bin(m, BASE, 8192, "trans");
    ck_assert_int_ge(bin, 0);
    sim_flashpoint *fp = sim_flashpoint_attach(m);
    ck_assert_ptr_nonnull(fp);
    ck_assert_int_eq(sim_ref(m, 1, BASE, 8, 0, 0), SIM_STALL);
    run_to_completion(m, 2);
    ck_assert_int_eq(sim_ref(m, 0, BASE, 8, 1, 0), SIM_STALL);
    run_to_completion(m, 2);
    sim_fp_record t;
    sim_flashpoint_bin_total(fp, bin, &t);
    ck_assert_uint_eq(t.v[FPM_READ_MISS_REMOTE], 1);
    ck_assert_uint_eq(t.v[FPM_WRITE_MISS_LOCAL], 1);
    ck_assert_uint_eq(t.v[FPM_COLD_MISSES], 1);     /* the write found it warm */
    /* Table 3's last row counts invalidation misses: none yet (the write
     * was processor 0's first miss there), though one INV was sent */
    ck_assert_uint_eq(t.v[FPM_INVALIDATION_MISSES], 0);
    ck_assert_uint_eq(t.invalidations_sent, 1);      /* processor 1's copy */
    ck_assert_int_eq(sim_ref(m, 1, BASE, 8, 0, 0), SIM_STALL); /* its copy was taken */
    run_to_completion(m, 2);
    sim_flashpoint_bin_total(fp, bin, &t);
    ck_assert_uint_eq(t.v[FPM_INVALIDATION_MISSES], 1);
    ck_assert_uint_eq(t.invalidations_sent, 1);
    json_object *o = flashpoint_to_json(fp, m, NULL, 0), *v, *bins, *b;
    ck_assert_ptr_nonnull(o);
    ck_assert(json_object_object_get_ex(o, "mode", &v));
    ck_assert_str_eq(json_object_get_string(v), "noproc");
    ck_assert(json_object_object_get_ex(o, "parallel_cycles", &v));
    ck_assert_int_gt(json_object_get_int64(v), 0);
    ck_assert(json_object_object_get_ex(o, "bins", &bins));
    b = json_object_array_get_idx(bins, 0);
    ck_assert(json_object_object_get_ex(b, "name", &v));
    ck_assert_str_eq(json_object_get_string(v), "trans");
    json_object_put(o);
    sim_flashpoint_free(fp);
    sim_destroy(m);
}
END_TEST

/* Statistics of the measured section only: misses issued outside it (the
 * set-up, the self-checks) are in the run's totals, not in the tables, and
 * the handlers of Table 4 count only while the section is open. */
START_TEST(collector_counts_the_section)
{
    miss_log log;
    sim_machine *m = machine(2, "noproc", &log);
    ck_assert_int_ge(sim_bin(m, BASE, 8192, "trans"), 0);
    sim_flashpoint *fp = sim_flashpoint_attach(m);
    ck_assert_ptr_nonnull(fp);
    ck_assert_int_eq(sim_ref(m, 1, BASE, 8, 0, 0), SIM_STALL); /* before: set-up */
    run_to_completion(m, 2);
    ck_assert_ptr_null(sim_flashpoint_section(fp));
    ck_assert_int_eq(sim_section_begin(m, 0), 0);
    ck_assert_int_eq(sim_ref(m, 0, BASE + 256, 8, 1, 0), SIM_STALL); /* inside */
    run_to_completion(m, 2);
    ck_assert_int_eq(sim_section_end(m, 0), 0);
    ck_assert_int_eq(sim_ref(m, 1, BASE + 512, 8, 0, 0), SIM_STALL); /* after: a check */
    run_to_completion(m, 2);
    sim_fp_record t;
    sim_flashpoint_total(fp, &t);
    ck_assert_uint_eq(t.v[FPM_READ_MISS_REMOTE] + t.v[FPM_READ_MISS_LOCAL], 2);
    ck_assert_uint_eq(t.v[FPM_WRITE_MISS_LOCAL] + t.v[FPM_WRITE_MISS_REMOTE], 1);
    const sim_flashpoint *sec = sim_flashpoint_section(fp);
    ck_assert_ptr_nonnull(sec);
    sim_flashpoint_total(sec, &t);
    ck_assert_uint_eq(t.v[FPM_READ_MISS_REMOTE] + t.v[FPM_READ_MISS_LOCAL], 0);
    ck_assert_uint_eq(t.v[FPM_WRITE_MISS_LOCAL] + t.v[FPM_WRITE_MISS_REMOTE], 1);
    /* the file's tables are the section's; the run's totals beside them */
    json_object *o = flashpoint_to_json(fp, m, NULL, 0), *v, *tot, *h;
    ck_assert_ptr_nonnull(o);
    ck_assert(json_object_object_get_ex(o, "scope", &v));
    ck_assert_str_eq(json_object_get_string(v), "section");
    ck_assert(json_object_object_get_ex(o, "totals", &tot));
    ck_assert(json_object_object_get_ex(tot, "read_miss_remote", &v));
    ck_assert_int_eq(json_object_get_int(v), 0);
    ck_assert(json_object_object_get_ex(o, "run_totals", &tot));
    ck_assert(json_object_object_get_ex(tot, "read_miss_remote", &v));
    ck_assert_int_eq(json_object_get_int(v), 2);
    /* Table 4: the section saw processor 0's local write (PILocalGetX at
     * its own node, home 0) and not the reads' PIRemoteGet */
    ck_assert(json_object_object_get_ex(o, "handlers", &h));
    int getx = 0, remote_get = 0;
    for (size_t i = 0; i < json_object_array_length(h); i++) {
        json_object *e = json_object_array_get_idx(h, i), *name, *count;
        ck_assert(json_object_object_get_ex(e, "name", &name));
        ck_assert(json_object_object_get_ex(e, "count", &count));
        if (!strcmp(json_object_get_string(name), "PILocalGetX"))
            getx = json_object_get_int(count);
        if (!strcmp(json_object_get_string(name), "PIRemoteGet"))
            remote_get = json_object_get_int(count);
    }
    ck_assert_int_eq(getx, 1);
    ck_assert_int_eq(remote_get, 0);
    json_object_put(o);
    sim_flashpoint_free(fp);
    sim_destroy(m);
}
END_TEST

/* The R10000's overlapped stores (outstanding=4: the miss it waits for and
 * three buffered stores): a store miss that ends its reference goes to the
 * write buffer and the processor goes on; a fourth store waits; a load of a
 * line whose store is in flight waits for it; a fence waits for them all.
 * The burst queues at the processors' PP and at the home, so later stores
 * of the burst take longer (the paper's bursty writes, Table 2). */
START_TEST(write_buffer_overlaps_stores)
{
    miss_log log;
    /* loads wait for their misses (load_use=0): only the stores overlap */
    sim_machine *m = machine_with(2, "control", "outstanding=4,load_use=0", &log); /* home 0 */
    ck_assert_uint_eq(sim_get_params(m)->outstanding, 4);
    for (int i = 0; i < 3; i++) {
        ck_assert_int_eq(sim_ref(m, 1, BASE + (uintptr_t)i * 128, 8, 1, -1), SIM_HIT);
        ck_assert_int_eq(sim_stalled(m, 1), 0);
    }
    ck_assert_uint_eq(sim_clock(m, 1), 3); /* three hits' worth */
    ck_assert_int_eq(log.n, 0);            /* nothing completed yet */
    /* the fourth store finds the buffer full: the processor waits for it */
    ck_assert_int_eq(sim_ref(m, 1, BASE + 3 * 128, 8, 1, -1), SIM_STALL);
    run_to_completion(m, 2);
    ck_assert_int_eq(log.n, 4);
    /* queued behind each other at node 1's PP and at the home */
    ck_assert_uint_gt(log.v[2].latency, log.v[0].latency);
    /* a load of a line whose buffered store is in flight waits for it */
    ck_assert_int_eq(sim_ref(m, 1, BASE + 8 * 128, 8, 1, -1), SIM_HIT);
    ck_assert_int_eq(sim_ref(m, 1, BASE + 8 * 128 + 8, 8, 0, -1), SIM_STALL);
    run_to_completion(m, 2);
    ck_assert_int_eq(log.n, 5); /* the store's miss; the load then hit */
    ck_assert_uint_ge(sim_clock(m, 1), log.v[4].issue + log.v[4].latency);
    /* a fence waits for the buffer to drain, and not when it is empty */
    ck_assert_int_eq(sim_ref(m, 1, BASE + 9 * 128, 8, 1, -1), SIM_HIT);
    ck_assert_int_eq(sim_fence(m, 1), SIM_STALL);
    run_to_completion(m, 2);
    ck_assert_int_eq(log.n, 6);
    ck_assert_uint_eq(sim_clock(m, 1), log.v[5].issue + log.v[5].latency);
    ck_assert_int_eq(sim_fence(m, 1), SIM_HIT);
    /* stores to a line whose buffered store is in flight join it */
    ck_assert_int_eq(sim_ref(m, 1, BASE + 10 * 128, 8, 1, -1), SIM_HIT);
    ck_assert_int_eq(sim_ref(m, 1, BASE + 10 * 128 + 8, 8, 1, -1), SIM_HIT);
    ck_assert_int_eq(sim_fence(m, 1), SIM_STALL);
    run_to_completion(m, 2);
    ck_assert_int_eq(log.n, 7); /* one miss for the two stores */
    sim_destroy(m);
    /* outstanding=1: every store miss waits */
    m = machine_with(2, "control", "outstanding=1", &log);
    ck_assert_int_eq(sim_ref(m, 1, BASE, 8, 1, -1), SIM_STALL);
    run_to_completion(m, 2);
    sim_destroy(m);
}
END_TEST

/* References that hit without touching the region (outside it): the
 * processor's clock and reference count move as for hits. */
static void other_references(sim_machine *m, int proc, int n)
{
    for (int i = 0; i < n; i++)
        ck_assert_int_eq(sim_ref(m, proc, BASE - 4096, 8, 0, -1), SIM_HIT);
}

/* The R10000's overlapped loads (load_use, flash's default 16, with
 * outstanding=4): a load miss that ends its reference is issued and the
 * processor goes on; a load of the line in flight joins it; the processor
 * waits for the load at the load_use-th reference after it, when a store
 * needs the line the load fetches, when the misses in flight are at the
 * limit, and at a fence.  Two overlapped remote loads complete closer
 * together than two that wait for each other. */
START_TEST(loads_overlap_until_used)
{
    miss_log log;
    sim_machine *m = machine_with(2, "control", "outstanding=4", &log); /* home 0 */
    ck_assert_uint_eq(sim_get_params(m)->load_use, 16);
    ck_assert_int_eq(sim_ref(m, 1, BASE, 8, 0, -1), SIM_HIT);
    ck_assert_int_eq(sim_ref(m, 1, BASE + 128, 8, 0, -1), SIM_HIT);
    ck_assert_int_eq(sim_ref(m, 1, BASE + 8, 8, 0, -1), SIM_HIT); /* joins the first */
    ck_assert_int_eq(sim_stalled(m, 1), 0);
    other_references(m, 1, 13); /* the first load and 15 references after it */
    ck_assert_int_eq(log.n, 0);
    sim_time before = sim_clock(m, 1);
    ck_assert_uint_eq(before, 16);
    /* the 16th reference after the first load needs its value */
    ck_assert_int_eq(sim_ref(m, 1, BASE - 4096, 8, 0, -1), SIM_STALL);
    run_to_completion(m, 2);
    ck_assert_int_ge(log.n, 1);
    ck_assert_uint_eq(log.v[0].addr, BASE);
    ck_assert_uint_eq(log.v[0].issue, 0);
    ck_assert_uint_ge(sim_clock(m, 1), log.v[0].latency);
    ck_assert_uint_gt(log.v[0].latency, before); /* it did wait */
    ck_assert_int_eq(sim_fence(m, 1), log.n == 2 ? SIM_HIT : SIM_STALL);
    run_to_completion(m, 2);
    ck_assert_int_eq(log.n, 2); /* two misses for the three loads */
    /* both in flight at once: the second issued before the first completed */
    ck_assert_uint_lt(log.v[1].issue, log.v[0].issue + log.v[0].latency);
    sim_time overlapped = log.v[1].issue + log.v[1].latency;
    /* a store to a line a load is fetching waits for the load */
    ck_assert_int_eq(sim_ref(m, 1, BASE + 2 * 128, 8, 0, -1), SIM_HIT);
    ck_assert_int_eq(sim_ref(m, 1, BASE + 2 * 128, 8, 1, -1), SIM_STALL);
    run_to_completion(m, 2);
    ck_assert_int_eq(sim_fence(m, 1), SIM_STALL); /* the store went on as an upgrade */
    run_to_completion(m, 2);
    /* four loads: three go on, the fourth (the limit) waits */
    int n = log.n;
    for (int i = 0; i < 3; i++)
        ck_assert_int_eq(sim_ref(m, 1, BASE + (uintptr_t)(4 + i) * 128, 8, 0, -1), SIM_HIT);
    ck_assert_int_eq(sim_ref(m, 1, BASE + 7 * 128, 8, 0, -1), SIM_STALL);
    run_to_completion(m, 2);
    if (sim_fence(m, 1) == SIM_STALL)
        run_to_completion(m, 2);
    ck_assert_int_eq(sim_fence(m, 1), SIM_HIT);
    ck_assert_int_eq(log.n, n + 4);
    sim_destroy(m);
    /* load_use=0: the same two loads wait for each other */
    m = machine_with(2, "control", "outstanding=4,load_use=0", &log);
    ck_assert_int_eq(sim_ref(m, 1, BASE, 8, 0, -1), SIM_STALL);
    run_to_completion(m, 2);
    ck_assert_int_eq(sim_ref(m, 1, BASE + 128, 8, 0, -1), SIM_STALL);
    run_to_completion(m, 2);
    ck_assert_int_eq(log.n, 2);
    ck_assert_uint_ge(log.v[1].issue, log.v[0].issue + log.v[0].latency);
    ck_assert_uint_gt(log.v[1].issue + log.v[1].latency, overlapped);
    sim_destroy(m);
}
END_TEST

/* The node's memory is one data path (doc/simulation.md, "Memory"): a
 * line's read begins when the request reaches MAGIC, or when the transfer
 * before it ends; the reply cannot leave before its first data (mem_access
 * after the read begins).  A writeback's line takes the data path too. */
START_TEST(memory_queues_line_accesses)
{
    void *model = make_model(2, SIM_FP_CONTROL);
    /* system cycles = processor cycles; a line's transfer 128 / 4 = 32 */
    set_options(model, (const char *const[]){"cpu_ratio", "1", "pi_in", "0", "pi_out", "0",
                                             "mem_access", "6", "mem_bytes", "4", NULL});
    sim_time occ;
    /* NILocalGet: 11 to the send (dispatch 1, address 2, header 3, tests
     * 3, send 2), occupancy 17 (a pointer 4, the update 2); the data at
     * 1006 */
    ck_assert_uint_eq(handler_at(model, PM_GETS, 0, 1000, 1000, &occ), 11);
    ck_assert_uint_eq(occ, 17);
    /* the second read of the burst begins at 1032, its data at 1038: the
     * PP would send at 1017 + 11 */
    ck_assert_uint_eq(handler_at(model, PM_GETS, 0, 1000, 1017, &occ), 1038 - 1017);
    /* the third at 1064 + 6 */
    ck_assert_uint_eq(handler_at(model, PM_GETS, 0, 1000, 1034, &occ), 1070 - 1034);
    sim_flash_memory_stat ms;
    sim_flash_memory_stats_of(model, 0, &ms);
    ck_assert_uint_eq(ms.accesses, 3);
    ck_assert_uint_eq(ms.busy, 3 * 32);
    ck_assert_uint_eq(ms.queued, 32 + 64);
    /* a writeback from the processor (PILocalPut) takes the data path from
     * 2000 to 2032: a read arriving at 2001 begins at 2032 */
    handler_at(model, PM_PUTX, 1, 2000, 2000, &occ);
    sim_time start = 2000 + occ;
    ck_assert_uint_eq(handler_at(model, PM_GETS, 0, 2001, start, &occ), 2038 - start);
    /* a clean hint writes nothing; with the default 16 B a cycle (8 per
     * line) and the access overlapped, memory is not what a single
     * uncontended read waits for */
    handler_at(model, PM_PUTS, 1, 3000, 3000, &occ);
    set_options(model, (const char *const[]){"mem_bytes", "16", NULL});
    ck_assert_uint_eq(handler_at(model, PM_GETS, 0, 3000, 3000, &occ), 11);
    sim_flash_memory_stats_of(model, 0, &ms);
    ck_assert_uint_eq(ms.accesses, 6);
    sim_timing_flash.destroy(model);
}
END_TEST

/* A processor's eviction of a line of its own node (no message: the
 * engine of the home handles it) is a PILocalPut handler on its PP all the
 * same, and a dirty line's writeback takes the memory. */
START_TEST(local_eviction_is_a_handler)
{
    miss_log log;
    /* a 1 KB direct-mapped cache: BASE and BASE + 1 KB share a set */
    sim_machine *m = machine_with(1, "control", "cache_size=1k,assoc=1", &log);
    ck_assert_int_eq(sim_ref(m, 0, BASE, 8, 1, -1), SIM_STALL);
    run_to_completion(m, 1);
    ck_assert_int_eq(sim_ref(m, 0, BASE + 1024, 8, 1, -1), SIM_STALL);
    run_to_completion(m, 1);
    ck_assert_int_eq(log.n, 2);
    sim_flash_handler_stat st;
    ck_assert_int_eq(sim_flash_stats_of(sim_timing_model(m), FH_PI_LOCAL_PUT, &st), 0);
    ck_assert_uint_eq(st.count, 1);
    ck_assert_uint_gt(st.occupancy, 0);
    sim_flash_memory_stat ms;
    sim_flash_memory_stats_of(sim_timing_model(m), 0, &ms);
    ck_assert_uint_eq(ms.accesses, 3); /* two reads, one writeback */
    sim_destroy(m);
}
END_TEST

Suite *unit_suite(void)
{
    Suite *s = suite_create("flash");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, pointer_list_matches_bit_vector, 0, 8);
    tcase_add_test(tc, pointer_list_walk_lengths);
    tcase_add_loop_test(tc, engine_outcome_independent_of_sharers, 0, 3);
    tcase_add_test(tc, handler_classes);
    tcase_add_test(tc, handler_costs_follow_the_work);
    tcase_add_test(tc, options);
    tcase_add_test(tc, procedure_switch_per_mode);
    tcase_add_test(tc, procedure_switch_waits_for_the_pp);
    tcase_add_test(tc, procedure_switch_options);
    tcase_add_test(tc, network_delay);
    tcase_add_test(tc, local_and_remote_read_latency);
    tcase_add_test(tc, remote_read_of_a_line_dirty_at_the_home);
    tcase_add_test(tc, occupancy_queuing_at_the_home);
    tcase_add_test(tc, procedure_switch_on_machine);
    tcase_add_test(tc, handler_queued_behind_a_switch);
    tcase_add_test(tc, proc_costs_more_than_noproc);
    tcase_add_test(tc, collector_metrics);
    tcase_add_test(tc, collector_on_machine);
    tcase_add_test(tc, collector_counts_the_section);
    tcase_add_test(tc, write_buffer_overlaps_stores);
    tcase_add_test(tc, loads_overlap_until_used);
    tcase_add_test(tc, memory_queues_line_accesses);
    tcase_add_test(tc, local_eviction_is_a_handler);
    suite_add_tcase(s, tc);
    return s;
}
