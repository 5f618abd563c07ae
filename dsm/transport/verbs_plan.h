/* verbs_plan.h - the parts of the verbs (RDMA) transport that need no
 * device, as pure functions: the connection records the nodes exchange and
 * their validation, the queue-pair state machine and the attributes of its
 * RESET->INIT->RTR->RTS steps computed from the records, the framing of a
 * message on the wire and the plan of its work requests (one SEND of header
 * and payload, or an RDMA WRITE of a block straight into the receiver's
 * region followed by a SEND of the header).  No libibverbs types in here:
 * transport/verbs.c copies these values into ibv_* structures, and
 * tests/verbs_unit.c checks them on machines without an RDMA device. */
#ifndef DSM_VERBS_PLAN_H
#define DSM_VERBS_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "transport.h"

/* Wire-only header flag: the block of this data message was already
 * RDMA-written into the receiver's region at the block's offset; the SEND
 * carries the header alone.  The receiving transport checks it, clears it
 * and delivers the message with the payload pointing at the block in place
 * (node.c's PA_INSTALL then copies nothing).  Never seen by msg.c. */
#define DSM_MSG_F_PLACED 0x1u

#define DSM_VERBS_REC_MAGIC 0x44535652u /* "DSVR" */
#define DSM_VERBS_REC_VERSION 1u

/* What every node publishes about itself (gathered from all nodes). */
typedef struct dsm_verbs_node_rec {
    uint32_t magic, version;
    int32_t node, nnodes;
    uint32_t block_size;
    uint32_t mtu;          /* active MTU of the port, IBV_MTU_* (1=256 .. 5=4096) */
    uint16_t lid;          /* InfiniBand: the port's LID */
    uint8_t port;          /* HCA port number (1..) */
    uint8_t ethernet;      /* link layer is Ethernet (RoCE): addressed by GID */
    uint8_t gid[16];
    uint32_t gid_index;
    uint32_t rkey;         /* of the region's memory registration */
    uint64_t region_addr;  /* protocol view of the region (registered) */
    uint64_t region_size;
} dsm_verbs_node_rec;

/* What node i tells node j (all-to-all): the QP i created for j. */
typedef struct dsm_verbs_qp_rec {
    uint32_t qpn; /* 24 bits */
    uint32_t psn; /* 24 bits: first packet sequence number i sends to j */
} dsm_verbs_qp_rec;

/* Is r (received from node `from`) a record this node can connect to:
 * magic and version, node id, same job size, block size and region size,
 * a region that does not wrap around, an MTU, an address (LID on
 * InfiniBand, GID on Ethernet)?  0, or -1 with the reason in why. */
int dsm_verbs_check_node_rec(const dsm_verbs_node_rec *r, int from, const dsm_verbs_node_rec *self,
                             char *why, size_t whylen);
/* QP numbers and PSNs fit in 24 bits, a QP number is never 0 (or 1, the
 * GSI QP).  0, or -1 with the reason. */
int dsm_verbs_check_qp_rec(const dsm_verbs_qp_rec *q, int from, char *why, size_t whylen);

/* ---- queue-pair state machine ---- */
enum { DSM_VQ_RESET, DSM_VQ_INIT, DSM_VQ_RTR, DSM_VQ_RTS, DSM_VQ_ERR, DSM_VQ_NSTATES };
const char *dsm_verbs_qp_state_name(int s);
/* Is from -> to a step this transport takes (RESET->INIT->RTR->RTS, and
 * any state -> ERR)?  1 or 0. */
int dsm_verbs_qp_step_ok(int from, int to);

typedef struct dsm_verbs_init_attr {
    uint8_t port;
    uint16_t pkey_index;
    unsigned access;   /* DSM_VA_* (remote write: the region is a target) */
} dsm_verbs_init_attr;
enum { DSM_VA_LOCAL_WRITE = 1, DSM_VA_REMOTE_WRITE = 2 };

typedef struct dsm_verbs_rtr_attr {
    uint32_t path_mtu;       /* the smaller of both ports' active MTU */
    uint32_t dest_qpn;       /* the peer's QP for us */
    uint32_t rq_psn;         /* the peer's first PSN towards us */
    uint8_t max_dest_rd_atomic;
    uint8_t min_rnr_timer;
    /* address vector */
    uint16_t dlid;
    uint8_t is_global;       /* GRH needed: RoCE, or a peer on another subnet */
    uint8_t dgid[16];
    uint8_t sgid_index;
    uint8_t hop_limit;
    uint8_t port;
} dsm_verbs_rtr_attr;

typedef struct dsm_verbs_rts_attr {
    uint32_t sq_psn;
    uint8_t timeout;     /* 4.096 us * 2^timeout: 14 = 67 ms per try */
    uint8_t retry_cnt;   /* transport retries before the QP fails */
    uint8_t rnr_retry;   /* 7 = retry forever when the peer has no receive posted */
    uint8_t max_rd_atomic;
} dsm_verbs_rts_attr;

void dsm_verbs_init_params(const dsm_verbs_node_rec *self, dsm_verbs_init_attr *out);
/* self and peer validated; mine_for_peer: the QP we made for the peer,
 * peer_for_me: the QP the peer made for us.  0, or -1 when the two ports
 * cannot talk (one Ethernet, one InfiniBand). */
int dsm_verbs_rtr_params(const dsm_verbs_node_rec *self, const dsm_verbs_node_rec *peer,
                         const dsm_verbs_qp_rec *peer_for_me, dsm_verbs_rtr_attr *out, char *why,
                         size_t whylen);
void dsm_verbs_rts_params(const dsm_verbs_qp_rec *mine_for_peer, dsm_verbs_rts_attr *out);

/* ---- messages ---- */
enum {
    DSM_VP_SEND = 1,   /* one SEND: header + payload from a registered send slot */
    DSM_VP_WRITE_SEND  /* RDMA WRITE of the block from our region into the peer's,
                          then a SEND of the header with DSM_MSG_F_PLACED */
};

typedef struct dsm_verbs_plan {
    int kind;
    uint32_t send_len;     /* bytes of the SEND (header, plus payload for DSM_VP_SEND) */
    uint16_t wire_flags;   /* flags of the header as sent */
    uint64_t local_off;    /* WRITE: the block's offset in our region */
    uint64_t remote_addr;  /* WRITE: its address in the peer's region */
    uint32_t write_len;
} dsm_verbs_plan;

/* Where the data of message h (payload at `payload`, in the caller's
 * memory) goes.  A protocol data message whose payload is its block in our
 * registered region (local_base, local_size) is written in place when
 * `direct` (the send is posted now, not copied to an overflow list) and the
 * peer's region is known (peer != NULL); anything else is one SEND.  0, or
 * -1 when the message cannot be sent (payload over max_payload, flags set
 * by the caller). */
int dsm_verbs_plan_msg(const dsm_msg_hdr *h, const void *payload, const char *local_base,
                       uint64_t local_size, uint32_t block_size, size_t max_payload,
                       const dsm_verbs_node_rec *peer, int direct, dsm_verbs_plan *out, char *why,
                       size_t whylen);

/* Framing of a received SEND of n bytes from node `from`: a whole header
 * claiming `from` as sender, and either exactly the payload it announces,
 * or (DSM_MSG_F_PLACED) no payload bytes, a protocol data type, a block in
 * the region and a block-sized length.  Fills *h (flags cleared for a
 * placed message: the rest of the runtime never sees the wire flag) and
 * *payload (for a placed message: the block in region_base).  0, or -1 with
 * the reason in why. */
int dsm_verbs_decode(const void *buf, size_t n, int from, const char *region_base,
                     uint32_t nblocks, uint32_t block_size, dsm_msg_hdr *h, const void **payload,
                     char *why, size_t whylen);

#endif
