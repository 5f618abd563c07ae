/* verbs_plan.c - device-free parts of the verbs transport (verbs_plan.h):
 * connection records, the QP state machine and its attributes, framing and
 * work-request planning.  Pure functions: no libibverbs, no I/O, so they are
 * built and unit-tested (tests/verbs_unit.c) on every machine. */
#include "verbs_plan.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "msg.h"
#include "proto.h"


static int gid_zero(const uint8_t gid[16])
{
    for (int i = 0; i < 16; i++)
        if (gid[i])
            return 0;
    return 1;
}

int dsm_verbs_check_node_rec(const dsm_verbs_node_rec *r, int from, const dsm_verbs_node_rec *self,
                             char *why, size_t whylen)
{
    if (r->magic != DSM_VERBS_REC_MAGIC || r->version != DSM_VERBS_REC_VERSION)
        return dsm_msg_why(why, whylen, "connection record of node %d has magic %#x version %u, not a "
                    "verbs record of version %u (a different libdsm?)", from, r->magic,
                    r->version, DSM_VERBS_REC_VERSION);
    if (r->node != from)
        return dsm_msg_why(why, whylen, "connection record of node %d claims to be node %d", from,
                    r->node);
    if (r->nnodes != self->nnodes)
        return dsm_msg_why(why, whylen, "node %d is in a job of %d nodes, this one of %d", from,
                    r->nnodes, self->nnodes);
    if (r->block_size != self->block_size)
        return dsm_msg_why(why, whylen, "node %d uses blocks of %u bytes, this node %u (DSM_BLOCK_SIZE "
                    "must be the same everywhere)", from, r->block_size, self->block_size);
    if (r->region_size != self->region_size)
        return dsm_msg_why(why, whylen, "node %d has a region of %llu bytes, this node %llu "
                    "(DSM_REGION_SIZE must be the same everywhere)", from,
                    (unsigned long long)r->region_size, (unsigned long long)self->region_size);
    if (!r->region_addr || r->region_addr + r->region_size < r->region_addr)
        return dsm_msg_why(why, whylen, "node %d publishes a region at %#llx of %llu bytes, not a valid "
                    "range", from, (unsigned long long)r->region_addr,
                    (unsigned long long)r->region_size);
    if (r->mtu < 1 || r->mtu > 5)
        return dsm_msg_why(why, whylen, "node %d publishes MTU code %u (1..5)", from, r->mtu);
    if (!r->port)
        return dsm_msg_why(why, whylen, "node %d publishes HCA port 0", from);
    if (r->ethernet ? gid_zero(r->gid) : r->lid == 0)
        return dsm_msg_why(why, whylen, "node %d publishes no address (%s)", from,
                    r->ethernet ? "zero GID on an Ethernet port" : "LID 0 on an InfiniBand port");
    if (r->gid_index > 255)
        return dsm_msg_why(why, whylen, "node %d publishes GID index %u (0..255)", from, r->gid_index);
    return 0;
}

int dsm_verbs_check_qp_rec(const dsm_verbs_qp_rec *q, int from, char *why, size_t whylen)
{
    if (q->qpn < 2 || q->qpn > 0xffffffu)
        return dsm_msg_why(why, whylen, "node %d publishes QP number %#x (2..0xffffff)", from, q->qpn);
    if (q->psn > 0xffffffu)
        return dsm_msg_why(why, whylen, "node %d publishes PSN %#x (24 bits)", from, q->psn);
    return 0;
}

const char *dsm_verbs_qp_state_name(int s)
{
    static const char *const names[] = { "RESET", "INIT", "RTR", "RTS", "ERR" };
    return s >= 0 && s < DSM_VQ_NSTATES ? names[s] : "?";
}

int dsm_verbs_qp_step_ok(int from, int to)
{
    if (from < 0 || from >= DSM_VQ_NSTATES || to < 0 || to >= DSM_VQ_NSTATES)
        return 0;
    if (to == DSM_VQ_ERR)
        return 1;
    return from != DSM_VQ_ERR && to == from + 1;
}

void dsm_verbs_init_params(const dsm_verbs_node_rec *self, dsm_verbs_init_attr *out)
{
    memset(out, 0, sizeof *out);
    out->port = self->port;
    out->pkey_index = 0;
    /* peers RDMA-write blocks into our region; nothing reads it remotely */
    out->access = DSM_VA_LOCAL_WRITE | DSM_VA_REMOTE_WRITE;
}

int dsm_verbs_rtr_params(const dsm_verbs_node_rec *self, const dsm_verbs_node_rec *peer,
                         const dsm_verbs_qp_rec *peer_for_me, dsm_verbs_rtr_attr *out, char *why,
                         size_t whylen)
{
    memset(out, 0, sizeof *out);
    if (self->ethernet != peer->ethernet)
        return dsm_msg_why(why, whylen, "node %d's port is %s, this node's %s: they cannot connect",
                    peer->node, peer->ethernet ? "Ethernet (RoCE)" : "InfiniBand",
                    self->ethernet ? "Ethernet (RoCE)" : "InfiniBand");
    out->path_mtu = self->mtu < peer->mtu ? self->mtu : peer->mtu;
    out->dest_qpn = peer_for_me->qpn;
    out->rq_psn = peer_for_me->psn;
    out->max_dest_rd_atomic = 1;
    out->min_rnr_timer = 12; /* 0.64 ms before a sender retries a receive-not-ready */
    out->dlid = peer->lid;
    out->port = self->port;
    /* RoCE always routes by GID; on InfiniBand a GRH is needed only when
     * the peer has a global address and no LID reaches it (another subnet) */
    out->is_global = self->ethernet || (peer->lid == 0 && !gid_zero(peer->gid));
    if (out->is_global) {
        memcpy(out->dgid, peer->gid, 16);
        out->sgid_index = (uint8_t)self->gid_index;
        out->hop_limit = 64;
    }
    return 0;
}

void dsm_verbs_rts_params(const dsm_verbs_qp_rec *mine_for_peer, dsm_verbs_rts_attr *out)
{
    memset(out, 0, sizeof *out);
    out->sq_psn = mine_for_peer->psn;
    out->timeout = 14;
    out->retry_cnt = 7;
    /* send never blocks: a peer without a posted receive (busy in a long
     * handler) is retried by the HCA, not reported as an error */
    out->rnr_retry = 7;
    out->max_rd_atomic = 1;
}

static int is_data_type(unsigned type)
{
    return type > 0 && type < PM_NTYPES && proto_msg_has_data((int)type);
}

int dsm_verbs_plan_msg(const dsm_msg_hdr *h, const void *payload, const char *local_base,
                       uint64_t local_size, uint32_t block_size, size_t max_payload,
                       const dsm_verbs_node_rec *peer, int direct, dsm_verbs_plan *out, char *why,
                       size_t whylen)
{
    memset(out, 0, sizeof *out);
    if (h->flags)
        return dsm_msg_why(why, whylen, "message type %u with flags %#x set by the sender", h->type,
                    h->flags);
    if (h->len > max_payload)
        return dsm_msg_why(why, whylen, "message type %u of %u payload bytes, more than %zu", h->type,
                    h->len, max_payload);
    if (h->len && !payload)
        return dsm_msg_why(why, whylen, "message type %u announces %u payload bytes but has none",
                    h->type, h->len);
    uint64_t off = (uint64_t)h->block * block_size;
    /* In place only when the payload is the block itself in our registered
     * region (the protocol's PA_SEND of a data message): other payloads
     * (statistics, profile pieces) live in buffers that are gone after
     * send returns, and their receivers want them in a receive buffer. */
    int in_place = direct && peer && block_size && is_data_type(h->type) && h->len == block_size &&
                   local_base && (uint64_t)h->block < local_size / block_size &&
                   (const char *)payload == local_base + off && off + h->len <= peer->region_size;
    if (in_place) {
        out->kind = DSM_VP_WRITE_SEND;
        out->send_len = (uint32_t)sizeof *h;
        out->wire_flags = DSM_MSG_F_PLACED;
        out->local_off = off;
        out->remote_addr = peer->region_addr + off;
        out->write_len = h->len;
        return 0;
    }
    out->kind = DSM_VP_SEND;
    out->send_len = (uint32_t)(sizeof *h + h->len);
    out->wire_flags = 0;
    return 0;
}

int dsm_verbs_decode(const void *buf, size_t n, int from, const char *region_base,
                     uint32_t nblocks, uint32_t block_size, dsm_msg_hdr *h, const void **payload,
                     char *why, size_t whylen)
{
    if (!buf || n < sizeof *h)
        return dsm_msg_why(why, whylen, "%zu bytes, shorter than a header (%zu)", n, sizeof *h);
    memcpy(h, buf, sizeof *h);
    if (h->src != from)
        return dsm_msg_why(why, whylen, "it claims to be from node %d", h->src);
    if (!(h->flags & DSM_MSG_F_PLACED))
        return dsm_msg_decode(buf, n, h, payload, why, whylen);
    if (h->flags != DSM_MSG_F_PLACED)
        return dsm_msg_why(why, whylen, "unknown flags %#x", h->flags);
    if (n != sizeof *h)
        return dsm_msg_why(why, whylen, "placed data with %zu bytes after the header", n - sizeof *h);
    if (!is_data_type(h->type))
        return dsm_msg_why(why, whylen, "type %u placed in the region, but it is not a data message",
                    h->type);
    if (h->block >= nblocks)
        return dsm_msg_why(why, whylen, "placed data for block %u, past the last block %u", h->block,
                    nblocks ? nblocks - 1 : 0);
    if (h->len != block_size)
        return dsm_msg_why(why, whylen, "placed data of %u bytes, the block size is %u", h->len,
                    block_size);
    if (!region_base)
        return dsm_msg_why(why, whylen, "placed data before this node registered its region");
    h->flags = 0;
    *payload = region_base + (size_t)h->block * block_size;
    return 0;
}
