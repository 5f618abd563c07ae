/* verbs_unit.c - unit tests of the device-free parts of the verbs transport
 * (dsm/transport/verbs_plan.c, Check framework); they run on every machine, also
 * where no RDMA device exists:
 *   - connection records: a good record passes, every bad field is named;
 *   - QP numbers and PSNs fit in 24 bits;
 *   - the QP state machine RESET->INIT->RTR->RTS (and ERR from anywhere);
 *   - INIT/RTR/RTS attributes computed from both sides' records (MTU,
 *     destination QP, PSNs, GRH on RoCE, no GRH on InfiniBand);
 *   - planning: which messages go as one SEND, which as RDMA WRITE into
 *     the peer's region at the block's offset + SEND of the header;
 *   - framing of received SENDs: inline payload, placed blocks, and the
 *     malformed ones (short, wrong sender, stray payload, bad block, ...). */
#include "transport/verbs_plan.h"

#include "check_main.h"
#include <stdlib.h>
#include <string.h>

#include "proto.h"

#define BS 4096u
#define NBLOCKS 16u

static dsm_verbs_node_rec rec(int node, int eth)
{
    dsm_verbs_node_rec r;
    memset(&r, 0, sizeof r);
    r.magic = DSM_VERBS_REC_MAGIC;
    r.version = DSM_VERBS_REC_VERSION;
    r.node = node;
    r.nnodes = 4;
    r.block_size = BS;
    r.mtu = 5;
    r.lid = eth ? 0 : (uint16_t)(node + 1);
    r.port = 1;
    r.ethernet = (uint8_t)eth;
    if (eth) {
        r.gid[0] = 0xfe;
        r.gid[1] = 0x80;
        r.gid[15] = (uint8_t)(node + 1);
    }
    r.gid_index = 1;
    r.rkey = 0x1234u + (uint32_t)node;
    r.region_addr = 0x7f0000000000ull + (uint64_t)node * 0x100000000ull;
    r.region_size = (uint64_t)BS * NBLOCKS;
    return r;
}

static int bad_rec(dsm_verbs_node_rec r, int from, const char *needle)
{
    dsm_verbs_node_rec self = rec(0, 0);
    char why[256] = "";
    int rc = dsm_verbs_check_node_rec(&r, from, &self, why, sizeof why);
    ck_assert_msg(rc == -1, "accepted a record that should fail (%s)", needle);
    ck_assert_msg(strstr(why, needle), "reason \"%s\" does not mention \"%s\"", why, needle);
    return rc;
}

START_TEST(node_records)
{
    dsm_verbs_node_rec self = rec(0, 0), r = rec(2, 0);
    char why[256];
    ck_assert_int_eq(dsm_verbs_check_node_rec(&r, 2, &self, why, sizeof why), 0);
    dsm_verbs_node_rec e = rec(3, 1);
    dsm_verbs_node_rec eself = rec(0, 1);
    ck_assert_int_eq(dsm_verbs_check_node_rec(&e, 3, &eself, why, sizeof why), 0);

    r = rec(2, 0), r.magic = 0;
    bad_rec(r, 2, "magic");
    r = rec(2, 0), r.version = 99;
    bad_rec(r, 2, "version");
    r = rec(2, 0);
    bad_rec(r, 1, "claims to be node 2");
    r = rec(2, 0), r.nnodes = 8;
    bad_rec(r, 2, "8 nodes");
    r = rec(2, 0), r.block_size = 1024;
    bad_rec(r, 2, "DSM_BLOCK_SIZE");
    r = rec(2, 0), r.region_size *= 2;
    bad_rec(r, 2, "DSM_REGION_SIZE");
    /* same size as ours, but placed where it wraps around */
    r = rec(2, 0), r.region_addr = UINT64_MAX - 100;
    bad_rec(r, 2, "not a valid range");
    r = rec(2, 0), r.region_addr = 0;
    bad_rec(r, 2, "not a valid range");
    r = rec(2, 0), r.mtu = 0;
    bad_rec(r, 2, "MTU");
    r = rec(2, 0), r.mtu = 6;
    bad_rec(r, 2, "MTU");
    r = rec(2, 0), r.port = 0;
    bad_rec(r, 2, "port 0");
    r = rec(2, 0), r.lid = 0;
    bad_rec(r, 2, "LID 0");
    r = rec(2, 1);
    memset(r.gid, 0, sizeof r.gid);
    bad_rec(r, 2, "zero GID");
    r = rec(2, 0), r.gid_index = 300;
    bad_rec(r, 2, "GID index");
}
END_TEST

START_TEST(qp_records)
{
    char why[128];
    dsm_verbs_qp_rec q = { 0x11, 0x123456 };
    ck_assert_int_eq(dsm_verbs_check_qp_rec(&q, 1, why, sizeof why), 0);
    q.qpn = 0;
    ck_assert_int_eq(dsm_verbs_check_qp_rec(&q, 1, why, sizeof why), -1);
    q.qpn = 1; /* the GSI QP is never a connection */
    ck_assert_int_eq(dsm_verbs_check_qp_rec(&q, 1, why, sizeof why), -1);
    q.qpn = 0x1000000;
    ck_assert_int_eq(dsm_verbs_check_qp_rec(&q, 1, why, sizeof why), -1);
    ck_assert_ptr_nonnull(strstr(why, "node 1"));
    q.qpn = 0xffffff, q.psn = 0x1000000;
    ck_assert_int_eq(dsm_verbs_check_qp_rec(&q, 1, why, sizeof why), -1);
    ck_assert_ptr_nonnull(strstr(why, "PSN"));
}
END_TEST

START_TEST(qp_state_machine)
{
    ck_assert(dsm_verbs_qp_step_ok(DSM_VQ_RESET, DSM_VQ_INIT));
    ck_assert(dsm_verbs_qp_step_ok(DSM_VQ_INIT, DSM_VQ_RTR));
    ck_assert(dsm_verbs_qp_step_ok(DSM_VQ_RTR, DSM_VQ_RTS));
    ck_assert(!dsm_verbs_qp_step_ok(DSM_VQ_RESET, DSM_VQ_RTR)); /* no skipping */
    ck_assert(!dsm_verbs_qp_step_ok(DSM_VQ_INIT, DSM_VQ_RTS));
    ck_assert(!dsm_verbs_qp_step_ok(DSM_VQ_RTS, DSM_VQ_RTR));   /* no going back */
    ck_assert(!dsm_verbs_qp_step_ok(DSM_VQ_RTS, DSM_VQ_RTS));
    for (int s = 0; s < DSM_VQ_NSTATES; s++)
        ck_assert(dsm_verbs_qp_step_ok(s, DSM_VQ_ERR));
    ck_assert(!dsm_verbs_qp_step_ok(DSM_VQ_ERR, DSM_VQ_INIT));
    ck_assert(!dsm_verbs_qp_step_ok(-1, DSM_VQ_INIT));
    ck_assert(!dsm_verbs_qp_step_ok(DSM_VQ_RTS, DSM_VQ_NSTATES));
    ck_assert_str_eq(dsm_verbs_qp_state_name(DSM_VQ_RTR), "RTR");
    ck_assert_str_eq(dsm_verbs_qp_state_name(42), "?");
}
END_TEST

START_TEST(qp_attributes)
{
    dsm_verbs_node_rec self = rec(0, 0), peer = rec(1, 0);
    peer.mtu = 3; /* 1024 */
    dsm_verbs_init_attr ia;
    dsm_verbs_init_params(&self, &ia);
    ck_assert_uint_eq(ia.port, 1);
    ck_assert_uint_eq(ia.access, DSM_VA_LOCAL_WRITE | DSM_VA_REMOTE_WRITE);

    dsm_verbs_qp_rec peer_for_me = { 0x2a, 0x777 }, mine = { 0x2b, 0x999 };
    dsm_verbs_rtr_attr rtr;
    char why[128];
    ck_assert_int_eq(dsm_verbs_rtr_params(&self, &peer, &peer_for_me, &rtr, why, sizeof why), 0);
    ck_assert_uint_eq(rtr.path_mtu, 3); /* the smaller one */
    ck_assert_uint_eq(rtr.dest_qpn, 0x2a);
    ck_assert_uint_eq(rtr.rq_psn, 0x777);
    ck_assert_uint_eq(rtr.dlid, 2);
    ck_assert_uint_eq(rtr.is_global, 0); /* InfiniBand, same subnet: LID routing */
    ck_assert_uint_eq(rtr.port, 1);

    dsm_verbs_node_rec eself = rec(0, 1), epeer = rec(1, 1);
    ck_assert_int_eq(dsm_verbs_rtr_params(&eself, &epeer, &peer_for_me, &rtr, why, sizeof why),
                     0);
    ck_assert_uint_eq(rtr.is_global, 1); /* RoCE routes by GID */
    ck_assert_int_eq(memcmp(rtr.dgid, epeer.gid, 16), 0);
    ck_assert_uint_eq(rtr.sgid_index, 1);
    ck_assert_uint_gt(rtr.hop_limit, 0);

    ck_assert_int_eq(dsm_verbs_rtr_params(&self, &epeer, &peer_for_me, &rtr, why, sizeof why),
                     -1);
    ck_assert_ptr_nonnull(strstr(why, "cannot connect"));

    dsm_verbs_rts_attr rts;
    dsm_verbs_rts_params(&mine, &rts);
    ck_assert_uint_eq(rts.sq_psn, 0x999);
    ck_assert_uint_eq(rts.rnr_retry, 7); /* a busy receiver never fails a send */
    ck_assert_uint_gt(rts.retry_cnt, 0);
    ck_assert_uint_gt(rts.timeout, 0);
}
END_TEST

static dsm_msg_hdr hdr(unsigned type, uint32_t block, uint32_t len)
{
    dsm_msg_hdr h;
    memset(&h, 0, sizeof h);
    h.magic = DSM_MSG_MAGIC;
    h.type = (uint16_t)type;
    h.src = 1;
    h.dst = 2;
    h.block = block;
    h.len = len;
    return h;
}

START_TEST(planning)
{
    static char region[BS * NBLOCKS];
    static char buffer[BS];
    dsm_verbs_node_rec peer = rec(2, 0);
    dsm_verbs_plan p;
    char why[128];
    uint64_t size = sizeof region;

    /* a block of our region to a known peer: written in place */
    dsm_msg_hdr h = hdr(PM_DATA_S, 5, BS);
    ck_assert_int_eq(dsm_verbs_plan_msg(&h, region + 5 * BS, region, size, BS, BS, &peer, 1, &p,
                                        why, sizeof why), 0);
    ck_assert_int_eq(p.kind, DSM_VP_WRITE_SEND);
    ck_assert_uint_eq(p.local_off, 5 * BS);
    ck_assert_uint_eq(p.remote_addr, peer.region_addr + 5 * BS);
    ck_assert_uint_eq(p.write_len, BS);
    ck_assert_uint_eq(p.send_len, sizeof(dsm_msg_hdr));
    ck_assert_uint_eq(p.wire_flags, DSM_MSG_F_PLACED);
    /* also the last block, and WB_DATA / DATA_X */
    h = hdr(PM_WB_DATA, NBLOCKS - 1, BS);
    ck_assert_int_eq(dsm_verbs_plan_msg(&h, region + (NBLOCKS - 1) * BS, region, size, BS, BS,
                                        &peer, 1, &p, why, sizeof why), 0);
    ck_assert_int_eq(p.kind, DSM_VP_WRITE_SEND);
    ck_assert_uint_eq(p.remote_addr, peer.region_addr + (NBLOCKS - 1) * BS);
    h = hdr(PM_DATA_X, 0, BS);
    ck_assert_int_eq(dsm_verbs_plan_msg(&h, region, region, size, BS, BS, &peer, 1, &p, why,
                                        sizeof why), 0);
    ck_assert_int_eq(p.kind, DSM_VP_WRITE_SEND);

    /* the same message, copied to an overflow list: one SEND */
    h = hdr(PM_DATA_S, 5, BS);
    ck_assert_int_eq(dsm_verbs_plan_msg(&h, region + 5 * BS, region, size, BS, BS, &peer, 0, &p,
                                        why, sizeof why), 0);
    ck_assert_int_eq(p.kind, DSM_VP_SEND);
    ck_assert_uint_eq(p.send_len, sizeof(dsm_msg_hdr) + BS);
    ck_assert_uint_eq(p.wire_flags, 0);
    /* peer not connected yet */
    ck_assert_int_eq(dsm_verbs_plan_msg(&h, region + 5 * BS, region, size, BS, BS, NULL, 1, &p,
                                        why, sizeof why), 0);
    ck_assert_int_eq(p.kind, DSM_VP_SEND);
    /* payload outside the region (a copy), or not this block's place */
    ck_assert_int_eq(dsm_verbs_plan_msg(&h, buffer, region, size, BS, BS, &peer, 1, &p, why,
                                        sizeof why), 0);
    ck_assert_int_eq(p.kind, DSM_VP_SEND);
    ck_assert_int_eq(dsm_verbs_plan_msg(&h, region + 6 * BS, region, size, BS, BS, &peer, 1, &p,
                                        why, sizeof why), 0);
    ck_assert_int_eq(p.kind, DSM_VP_SEND);
    /* a block past our region is never read from it */
    h = hdr(PM_DATA_S, NBLOCKS, BS);
    ck_assert_int_eq(dsm_verbs_plan_msg(&h, region + NBLOCKS * BS, region, size, BS, BS, &peer,
                                        1, &p, why, sizeof why), 0);
    ck_assert_int_eq(p.kind, DSM_VP_SEND);
    /* a peer whose region would not hold the block */
    dsm_verbs_node_rec small = peer;
    small.region_size = 5 * BS;
    h = hdr(PM_DATA_S, 5, BS);
    ck_assert_int_eq(dsm_verbs_plan_msg(&h, region + 5 * BS, region, size, BS, BS, &small, 1, &p,
                                        why, sizeof why), 0);
    ck_assert_int_eq(p.kind, DSM_VP_SEND);
    /* requests carry no data: header only */
    h = hdr(PM_GETS, 5, 0);
    ck_assert_int_eq(dsm_verbs_plan_msg(&h, NULL, region, size, BS, BS, &peer, 1, &p, why,
                                        sizeof why), 0);
    ck_assert_int_eq(p.kind, DSM_VP_SEND);
    ck_assert_uint_eq(p.send_len, sizeof(dsm_msg_hdr));
    /* a runtime message with a payload from the region is still inline */
    h = hdr(100, 5, 64);
    ck_assert_int_eq(dsm_verbs_plan_msg(&h, region + 5 * BS, region, size, BS, BS, &peer, 1, &p,
                                        why, sizeof why), 0);
    ck_assert_int_eq(p.kind, DSM_VP_SEND);
    ck_assert_uint_eq(p.send_len, sizeof(dsm_msg_hdr) + 64);

    /* refused */
    h = hdr(100, 0, BS + 1);
    ck_assert_int_eq(dsm_verbs_plan_msg(&h, buffer, region, size, BS, BS, &peer, 1, &p, why,
                                        sizeof why), -1);
    h = hdr(PM_DATA_S, 5, BS);
    h.flags = DSM_MSG_F_PLACED; /* the wire flag is the transport's, not the caller's */
    ck_assert_int_eq(dsm_verbs_plan_msg(&h, region + 5 * BS, region, size, BS, BS, &peer, 1, &p,
                                        why, sizeof why), -1);
    h = hdr(100, 0, 8);
    ck_assert_int_eq(dsm_verbs_plan_msg(&h, NULL, region, size, BS, BS, &peer, 1, &p, why,
                                        sizeof why), -1);
}
END_TEST

START_TEST(framing)
{
    static char region[BS * NBLOCKS];
    unsigned char buf[sizeof(dsm_msg_hdr) + 64];
    dsm_msg_hdr h, out;
    const void *payload;
    char why[160];

    /* inline: header + exactly the payload it announces */
    h = hdr(100, 0, 64);
    memcpy(buf, &h, sizeof h);
    memset(buf + sizeof h, 0xab, 64);
    ck_assert_int_eq(dsm_verbs_decode(buf, sizeof buf, 1, region, NBLOCKS, BS, &out, &payload,
                                      why, sizeof why), 0);
    ck_assert_ptr_eq(payload, buf + sizeof h);
    ck_assert_uint_eq(out.len, 64);
    ck_assert_int_eq(dsm_verbs_decode(buf, sizeof buf - 1, 1, region, NBLOCKS, BS, &out,
                                      &payload, why, sizeof why), -1);
    /* the sender must be the peer of the QP it came on */
    ck_assert_int_eq(dsm_verbs_decode(buf, sizeof buf, 3, region, NBLOCKS, BS, &out, &payload,
                                      why, sizeof why), -1);
    ck_assert_ptr_nonnull(strstr(why, "node 1"));
    ck_assert_int_eq(dsm_verbs_decode(buf, sizeof h - 1, 1, region, NBLOCKS, BS, &out, &payload,
                                      why, sizeof why), -1);

    /* placed: the header alone, delivered with the block in place */
    h = hdr(PM_DATA_X, 7, BS);
    h.flags = DSM_MSG_F_PLACED;
    memcpy(buf, &h, sizeof h);
    ck_assert_int_eq(dsm_verbs_decode(buf, sizeof h, 1, region, NBLOCKS, BS, &out, &payload, why,
                                      sizeof why), 0);
    ck_assert_ptr_eq(payload, region + 7 * BS);
    ck_assert_uint_eq(out.flags, 0); /* msg.c's validation sees a plain message */
    ck_assert_uint_eq(out.len, BS);
    /* ... with bytes after the header */
    ck_assert_int_eq(dsm_verbs_decode(buf, sizeof h + 8, 1, region, NBLOCKS, BS, &out, &payload,
                                      why, sizeof why), -1);
    /* ... before the region is registered */
    ck_assert_int_eq(dsm_verbs_decode(buf, sizeof h, 1, NULL, NBLOCKS, BS, &out, &payload, why,
                                      sizeof why), -1);
    /* ... for a block past the region */
    h.block = NBLOCKS;
    memcpy(buf, &h, sizeof h);
    ck_assert_int_eq(dsm_verbs_decode(buf, sizeof h, 1, region, NBLOCKS, BS, &out, &payload, why,
                                      sizeof why), -1);
    ck_assert_ptr_nonnull(strstr(why, "past the last block"));
    /* ... of another length than a block */
    h = hdr(PM_DATA_S, 1, 100);
    h.flags = DSM_MSG_F_PLACED;
    memcpy(buf, &h, sizeof h);
    ck_assert_int_eq(dsm_verbs_decode(buf, sizeof h, 1, region, NBLOCKS, BS, &out, &payload, why,
                                      sizeof why), -1);
    /* ... of a type that carries no data */
    h = hdr(PM_INV, 1, BS);
    h.flags = DSM_MSG_F_PLACED;
    memcpy(buf, &h, sizeof h);
    ck_assert_int_eq(dsm_verbs_decode(buf, sizeof h, 1, region, NBLOCKS, BS, &out, &payload, why,
                                      sizeof why), -1);
    ck_assert_ptr_nonnull(strstr(why, "not a data message"));
    /* unknown flags next to PLACED */
    h = hdr(PM_DATA_S, 1, BS);
    h.flags = DSM_MSG_F_PLACED | 0x8;
    memcpy(buf, &h, sizeof h);
    ck_assert_int_eq(dsm_verbs_decode(buf, sizeof h, 1, region, NBLOCKS, BS, &out, &payload, why,
                                      sizeof why), -1);
}
END_TEST

Suite *unit_suite(void)
{
    Suite *s = suite_create("verbs");
    TCase *tc = tcase_create("plan");
    tcase_add_test(tc, node_records);
    tcase_add_test(tc, qp_records);
    tcase_add_test(tc, qp_state_machine);
    tcase_add_test(tc, qp_attributes);
    tcase_add_test(tc, planning);
    tcase_add_test(tc, framing);
    suite_add_tcase(s, tc);
    return s;
}
