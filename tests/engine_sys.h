/* engine_sys.h - a few real protocol engines joined by one FIFO channel, in
 * one process, for the unit tests of the augmented protocol
 * (tests/pattern_unit.c, tests/sharing_unit.c): set up, pump messages until
 * quiet, and perform one access the way a faulting node does (request,
 * deliver, retry until the right is there, release).  Define
 * ENGINE_SYS_NBLK (blocks per engine) before including it. */
#ifndef ENGINE_SYS_H
#define ENGINE_SYS_H

#include "check_main.h"
#include "proto.h"

#define N 4
#define QCAP 4096

static proto_engine *E[N];
static proto_msg q[QCAP];
static size_t qh, qn;
static proto_actions acts;
/* the adaptive protocol (tests/adapt_unit.c): engines created with it, and
 * whether a WB_DATA is delivered as a clean copy (the runtime's comparison) */
static int sys_adapt, sys_clean_wb;

/* the sends of the last call, onto the channel */
static void enqueue_sends(void)
{
    for (size_t i = 0; i < acts.n; i++)
        if (acts.v[i].kind == PA_SEND) {
            ck_assert(qn < QCAP);
            q[(qh + qn++) % QCAP] = acts.v[i].msg;
        }
    acts.n = 0;
}

/* deliver until nothing is in flight; one global FIFO keeps every pair FIFO too */
static void pump(void)
{
    enqueue_sends();
    while (qn) {
        proto_msg m = q[qh];
        qh = (qh + 1) % QCAP;
        qn--;
        if (sys_clean_wb && (m.type == PM_WB_DATA || m.type == PM_FLUSH))
            m.flags |= PROTO_MSG_CLEAN;
        ck_assert_int_eq(proto_receive(E[m.dst], &m, &acts), PROTO_OK);
        enqueue_sends();
    }
}

static void setup_sys_opts(int augment, int home, int downgrade_on_read)
{
    proto_actions_init(&acts);
    qh = qn = 0;
    for (int i = 0; i < N; i++) {
        proto_config c = { .self = i, .nnodes = N, .nblocks = ENGINE_SYS_NBLK,
                           .downgrade_on_read = downgrade_on_read, .adapt = sys_adapt };
        E[i] = proto_engine_create(&c);
        ck_assert_ptr_nonnull(E[i]);
        ck_assert_int_eq(proto_set_home(E[i], 0, ENGINE_SYS_NBLK, home), PROTO_OK);
        proto_set_augment(E[i], augment);
    }
}

static void teardown_sys(void)
{
    for (int i = 0; i < N; i++)
        proto_engine_destroy(E[i]);
    proto_actions_free(&acts);
}

static int allowed(int node, int b, int write)
{
    proto_cache_state s = proto_cache_state_of(E[node], (uint32_t)b);
    if (write)
        return s == PC_M || s == PC_MH;
    return s == PC_S || s == PC_SH || s == PC_M || s == PC_MH || s == PC_SM;
}

/* One access by node to block b; returns when it has been performed. */
static void acc(int node, int b, int write)
{
    for (int tries = 0; !allowed(node, b, write); tries++) {
        ck_assert_int_lt(tries, 3);
        ck_assert_int_eq(proto_access(E[node], (uint32_t)b, write, &acts), PROTO_OK);
        pump();
    }
    ck_assert_int_eq(proto_release(E[node], (uint32_t)b, &acts), PROTO_OK); /* it retried */
    pump();
}
#define R(node, b) acc(node, b, 0)
#define W(node, b) acc(node, b, 1)
#define RMW(node, b) acc(node, b, PROTO_WRITE_READS) /* a write that also reads */

#endif
