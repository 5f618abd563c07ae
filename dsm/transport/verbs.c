/* verbs.c - the verbs transport: RDMA with libibverbs over
 * reliable-connected (RC) queue pairs, one per peer.
 *
 * Bootstrap: MPI.  The job is started by mpirun (DSM_TRANSPORT=verbs), the
 * mpi transport is opened underneath for what it already does right (MPI
 * initialisation, rank and size, the common clock base, ending the whole
 * job through MPI_Abort when a node dies or leaves without dsm_finalize)
 * and its communicator stays idle; the connection records (LID/GID, MTU,
 * the region's address and rkey, one QP number and PSN per pair) are
 * exchanged with MPI_Allgather/MPI_Alltoall.  This avoids a second launcher
 * and a TCP rendezvous, at the price of needing MPI where verbs runs.
 *
 * Data path (verbs_plan.c decides, per message):
 *  - small messages and payloads that are not a block of the region: one
 *    SEND of header + payload from a registered send slot into a preposted
 *    receive buffer (depth per peer, reposted after delivery);
 *  - a protocol data message (DATA_S, DATA_X, WB_DATA) whose payload is its
 *    block in our registered region: an RDMA WRITE from our region into
 *    the peer's region at the block's offset, then a SEND of the header
 *    with DSM_MSG_F_PLACED on the same QP.  RC executes both in order, so
 *    when the receiver sees the header the block is in place; it is
 *    delivered with the payload pointing at the block itself and node.c's
 *    PA_INSTALL copies nothing.  No copy on either side.
 *    Why writing the receiver's region early is safe: the protocol sends
 *    DATA_S/DATA_X only to a node in IS/IM (no access, the block waits for
 *    exactly this data) and WB_DATA only to a home in BUSY_RECALL (its copy
 *    is stale and waits for it); and the sender's block cannot change
 *    before the HCA has read it: any change needs a message that is
 *    causally after the receiver got this one (doc/protocol.md).
 *  - the region is registered once (attach) for remote write; peers can
 *    write anywhere in it, so the transport trusts the peers' HCAs the way
 *    RDMA always does, and validates every header it receives.
 *  - send never blocks: a send that finds no free slot or a full send
 *    queue (or earlier messages to that peer still waiting) is copied to
 *    that peer's overflow list, flushed in order by later sends, polls and
 *    waits; it then goes as a plain SEND (the copy is the data).  A peer
 *    with no receive posted makes the HCA retry (rnr_retry 7), the sender
 *    is not held up.
 *  - poll: one consumer at a time (like shm and mpi); completions of the
 *    receive CQ are taken in order into a pending list, which keeps every
 *    QP's (so every sender's) order.
 *  - wait: arms the receive CQ (and the send CQ while sends overflow) on a
 *    completion channel and blocks in poll(2) on the channel's fd and an
 *    eventfd for wake, with the timeout: idle nodes sleep in the kernel. */
#define _GNU_SOURCE 1
#include <config.h>

#include "verbs_transport.h"

#include <errno.h>
#include <fcntl.h>
#include <infiniband/verbs.h>
#include <mpi.h>
#include <poll.h>
#include <stdarg.h>
#include <stdnoreturn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "error.h"
#include "futex.h"
#include "mpi_transport.h"
#include "settings.h"
#include "verbs_plan.h"

/* Receives preposted and send slots (each message: one slot, <= 2 WRs)
 * per peer: up to MAX_DEPTH, fewer for big blocks, so that the registered
 * buffers stay near BUF_BYTES per peer and direction. */
#define MAX_DEPTH 64
#define MIN_DEPTH 4
#define BUF_BYTES (2u << 20)

typedef struct ovf {
    struct ovf *next;
    dsm_msg_hdr h;
    unsigned char payload[];
} ovf;

typedef struct vpeer {
    struct ibv_qp *qp;
    int state;                 /* DSM_VQ_* */
    dsm_verbs_node_rec rec;    /* the peer's, from attach */
    int wrs;                   /* send WRs posted, not yet completed */
    int free_slots[MAX_DEPTH];
    int nfree;
    uint8_t slot_wrs[MAX_DEPTH];   /* WRs the message in a slot used */
    ovf *ovf_head, *ovf_tail;
} vpeer;

typedef struct verbs_impl {
    dsm_transport *boot;       /* the mpi transport underneath */
    struct ibv_device **devs;
    struct ibv_context *ctx;
    struct ibv_pd *pd;
    struct ibv_comp_channel *chan;
    struct ibv_cq *rcq, *scq;
    vpeer *peers;
    dsm_verbs_node_rec self;
    size_t slot;               /* header + max payload */
    int depth;                 /* receives and send slots per peer */
    unsigned char *rbuf, *sbuf;
    struct ibv_mr *rmr, *smr, *region_mr;
    char *region;
    uint64_t region_size;
    uint32_t nblocks, block_size;
    pthread_mutex_t slock;     /* send side: slots, overflow, post_send, send CQ */
    pthread_mutex_t rlock;     /* receive CQ, pending list, channel events */
    struct ibv_wc *pend;       /* receive completions taken, not delivered */
    int npend, pend_head, pend_cap;
    _Atomic int consumer;
    _Atomic int sleepers;
    _Atomic int novf;          /* messages in overflow lists */
    int wake_fd;
    int closing;
} verbs_impl;

/* One line naming the node, then the job ends (MPI_Abort through the mpi
 * transport's dsm_fatal_exit). */
static noreturn void vfatal(dsm_transport *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static noreturn void vfatal(dsm_transport *t, const char *fmt, ...)
{
    (void)t;
    char buf[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    dsm_fatal("transport", "verbs: %s", buf);
}

/* ---- send side (slock held) ---- */

static void post_recv(verbs_impl *im, int peer, int idx)
{
    uint64_t id = (uint64_t)peer * (uint64_t)im->depth + (uint64_t)idx;
    struct ibv_sge sge = { (uintptr_t)(im->rbuf + id * im->slot), (uint32_t)im->slot,
                           im->rmr->lkey };
    struct ibv_recv_wr wr = { 0 }, *bad = NULL;
    wr.wr_id = id;
    wr.sg_list = &sge;
    wr.num_sge = 1;
    int rc = ibv_post_recv(im->peers[peer].qp, &wr, &bad);
    if (rc)
        dsm_fatal("transport", "verbs: ibv_post_recv for node %d failed: %s", peer, strerror(rc));
}

static void reap_sends(dsm_transport *t)
{
    verbs_impl *im = t->impl;
    struct ibv_wc wc[32];
    int n;
    while ((n = ibv_poll_cq(im->scq, 32, wc)) > 0) {
        for (int i = 0; i < n; i++) {
            int peer = (int)(wc[i].wr_id >> 32), slot = (int)(wc[i].wr_id & 0xffffffffu);
            if (wc[i].status != IBV_WC_SUCCESS)
                vfatal(t, "send to node %d failed: %s (is node %d gone?)", peer,
                       ibv_wc_status_str(wc[i].status), peer);
            vpeer *p = &im->peers[peer];
            p->wrs -= p->slot_wrs[slot];
            p->free_slots[p->nfree++] = slot;
        }
    }
    if (n < 0)
        vfatal(t, "ibv_poll_cq of the send queue failed");
}

/* Post h (+ payload) to peer now; the caller checked there is room.
 * direct: the payload is still the caller's, so a block may go in place. */
static void post_msg(dsm_transport *t, int dst, const dsm_msg_hdr *h, const void *payload,
                     int direct)
{
    verbs_impl *im = t->impl;
    vpeer *p = &im->peers[dst];
    dsm_verbs_plan plan;
    char why[160];
    if (dsm_verbs_plan_msg(h, payload, im->region, im->region_size, im->block_size,
                           t->max_payload, p->state == DSM_VQ_RTS ? &p->rec : NULL, direct, &plan,
                           why, sizeof why))
        vfatal(t, "cannot send to node %d: %s", dst, why);
    int slot = p->free_slots[--p->nfree];
    unsigned char *b = im->sbuf + ((size_t)dst * (size_t)im->depth + (size_t)slot) * im->slot;
    dsm_msg_hdr wh = *h;
    wh.flags = plan.wire_flags;
    memcpy(b, &wh, sizeof wh);
    if (plan.kind == DSM_VP_SEND && h->len)
        memcpy(b + sizeof wh, payload, h->len);
    struct ibv_sge ssge = { (uintptr_t)b, plan.send_len, im->smr->lkey };
    struct ibv_send_wr send = { 0 }, write = { 0 }, *bad = NULL;
    send.wr_id = (uint64_t)dst << 32 | (uint32_t)slot;
    send.sg_list = &ssge;
    send.num_sge = 1;
    send.opcode = IBV_WR_SEND;
    send.send_flags = IBV_SEND_SIGNALED;
    struct ibv_send_wr *first = &send;
    struct ibv_sge wsge;
    p->slot_wrs[slot] = 1;
    if (plan.kind == DSM_VP_WRITE_SEND) {
        wsge = (struct ibv_sge){ (uintptr_t)(im->region + plan.local_off), plan.write_len,
                                 im->region_mr->lkey };
        write.wr_id = send.wr_id;
        write.sg_list = &wsge;
        write.num_sge = 1;
        write.opcode = IBV_WR_RDMA_WRITE;
        write.send_flags = 0; /* completed by the SEND's completion */
        write.wr.rdma.remote_addr = plan.remote_addr;
        write.wr.rdma.rkey = p->rec.rkey;
        write.next = &send;
        first = &write;
        p->slot_wrs[slot] = 2;
    }
    int rc = ibv_post_send(p->qp, first, &bad);
    if (rc)
        vfatal(t, "ibv_post_send to node %d failed: %s", dst, strerror(rc));
    p->wrs += p->slot_wrs[slot];
}

static int room(const verbs_impl *im, const vpeer *p)
{
    return p->nfree > 0 && p->wrs + 2 <= 2 * im->depth;
}

static void flush_overflow(dsm_transport *t)
{
    verbs_impl *im = t->impl;
    if (!atomic_load(&im->novf))
        return;
    for (int d = 0; d < t->nnodes; d++) {
        vpeer *p = &im->peers[d];
        while (p->ovf_head && room(im, p)) {
            ovf *o = p->ovf_head;
            post_msg(t, d, &o->h, o->h.len ? o->payload : NULL, 0);
            p->ovf_head = o->next;
            if (!p->ovf_head)
                p->ovf_tail = NULL;
            free(o);
            atomic_fetch_sub(&im->novf, 1);
        }
    }
}

static int verbs_send(dsm_transport *t, int dst, const dsm_msg_hdr *h, const void *payload)
{
    verbs_impl *im = t->impl;
    if (dst < 0 || dst >= t->nnodes || dst == t->node || h->len > t->max_payload) {
        fprintf(stderr, "dsm: node %d: transport: bad send to node %d (%u payload bytes)\n",
                t->node, dst, h->len);
        return -1;
    }
    pthread_mutex_lock(&im->slock);
    reap_sends(t);
    flush_overflow(t);
    vpeer *p = &im->peers[dst];
    if (!p->ovf_head && room(im, p)) {
        post_msg(t, dst, h, payload, 1);
    } else {
        /* keep the order: everything after an overflowed message waits too */
        ovf *o = malloc(sizeof *o + h->len);
        if (!o)
            vfatal(t, "out of memory for a buffered message to node %d", dst);
        o->next = NULL;
        o->h = *h;
        if (h->len)
            memcpy(o->payload, payload, h->len);
        if (p->ovf_tail)
            p->ovf_tail->next = o;
        else
            p->ovf_head = o;
        p->ovf_tail = o;
        atomic_fetch_add(&im->novf, 1);
        atomic_fetch_add(&t->buffered, 1);
    }
    pthread_mutex_unlock(&im->slock);
    return 0;
}

/* ---- receive side ---- */

/* Take receive completions into the pending list (rlock held); how many. */
static int take_recvs(dsm_transport *t)
{
    verbs_impl *im = t->impl;
    if (im->npend == im->pend_cap)
        return 0;
    struct ibv_wc wc[16];
    int want = im->pend_cap - im->npend;
    int n = ibv_poll_cq(im->rcq, want < 16 ? want : 16, wc);
    if (n < 0)
        vfatal(t, "ibv_poll_cq of the receive queue failed");
    for (int i = 0; i < n; i++)
        im->pend[(im->pend_head + im->npend++) % im->pend_cap] = wc[i];
    return n;
}

static int verbs_poll(dsm_transport *t, dsm_msg_handler handler, void *ctx, int max)
{
    verbs_impl *im = t->impl;
    int expect = 0;
    if (!atomic_compare_exchange_strong(&im->consumer, &expect, 1))
        return 0;
    /* send completions free slots; buffered sends go out as room appears */
    pthread_mutex_lock(&im->slock);
    reap_sends(t);
    flush_overflow(t);
    pthread_mutex_unlock(&im->slock);
    int n = 0;
    while (n < max) {
        pthread_mutex_lock(&im->rlock);
        if (!im->npend)
            take_recvs(t);
        if (!im->npend) {
            pthread_mutex_unlock(&im->rlock);
            break;
        }
        struct ibv_wc wc = im->pend[im->pend_head];
        im->pend_head = (im->pend_head + 1) % im->pend_cap;
        im->npend--;
        pthread_mutex_unlock(&im->rlock);
        int from = (int)(wc.wr_id / (uint64_t)im->depth), idx = (int)(wc.wr_id % (uint64_t)im->depth);
        if (wc.status != IBV_WC_SUCCESS) {
            if (im->closing)
                continue; /* flushed receives of a QP going down */
            vfatal(t, "receive from node %d failed: %s (is node %d gone?)", from,
                   ibv_wc_status_str(wc.status), from);
        }
        if (from < 0 || from >= t->nnodes || from == t->node ||
            wc.qp_num != im->peers[from].qp->qp_num)
            vfatal(t, "a receive completion that belongs to no peer (wr_id %llu, QP %#x)",
                   (unsigned long long)wc.wr_id, wc.qp_num);
        const unsigned char *b = im->rbuf + wc.wr_id * im->slot;
        dsm_msg_hdr h;
        const void *payload = NULL;
        char why[160];
        if (dsm_verbs_decode(b, wc.byte_len, from, im->region, im->nblocks, im->block_size, &h,
                             &payload, why, sizeof why))
            dsm_fatal("transport", "malformed message from node %d: %s", from, why);
        handler(ctx, &h, payload);
        pthread_mutex_lock(&im->slock); /* post_recv shares the QP with the senders */
        post_recv(im, from, idx);
        pthread_mutex_unlock(&im->slock);
        n++;
    }
    atomic_store(&im->consumer, 0);
    return n;
}

static void verbs_wait(dsm_transport *t, int timeout_ms)
{
    verbs_impl *im = t->impl;
    dsm_transport_mpi_watch_peers(im->boot);
    pthread_mutex_lock(&im->rlock);
    /* arm first, then look: a completion that arrives after the look
     * raises an event on the channel, so the sleep below cannot miss it */
    if (ibv_req_notify_cq(im->rcq, 0))
        vfatal(t, "ibv_req_notify_cq failed");
    int novf = atomic_load(&im->novf);
    if (novf && ibv_req_notify_cq(im->scq, 0))
        vfatal(t, "ibv_req_notify_cq failed");
    take_recvs(t);
    int ready = im->npend > 0 && !atomic_load(&im->consumer);
    pthread_mutex_unlock(&im->rlock);
    if (ready)
        return;
    struct pollfd fds[2] = { { im->chan->fd, POLLIN, 0 }, { im->wake_fd, POLLIN, 0 } };
    atomic_fetch_add(&im->sleepers, 1);
    int rc = poll(fds, 2, timeout_ms);
    atomic_fetch_sub(&im->sleepers, 1);
    if (rc <= 0)
        return;
    if (fds[1].revents & POLLIN) {
        uint64_t v;
        ssize_t r = read(im->wake_fd, &v, sizeof v); /* one token (EFD_SEMAPHORE) */
        (void)r;
    }
    if (fds[0].revents & POLLIN) {
        pthread_mutex_lock(&im->rlock);
        struct ibv_cq *cq;
        void *cq_ctx;
        /* the fd is non-blocking: several sleepers may have woken for one
         * event; those that find none just return */
        while (ibv_get_cq_event(im->chan, &cq, &cq_ctx) == 0)
            ibv_ack_cq_events(cq, 1);
        pthread_mutex_unlock(&im->rlock);
    }
}

static void verbs_wake(dsm_transport *t)
{
    verbs_impl *im = t->impl;
    int n = atomic_load(&im->sleepers);
    uint64_t v = n > 0 ? (uint64_t)n : 1;
    ssize_t r = write(im->wake_fd, &v, sizeof v);
    (void)r;
}

static void discard(void *ctx, const dsm_msg_hdr *h, const void *payload)
{
    (void)ctx, (void)h, (void)payload;
}

static void destroy(verbs_impl *im, int npeers)
{
    if (im->peers)
        for (int i = 0; i < npeers; i++) {
            if (im->peers[i].qp)
                ibv_destroy_qp(im->peers[i].qp);
            for (ovf *o = im->peers[i].ovf_head, *nx; o; o = nx) {
                nx = o->next;
                free(o);
            }
        }
    if (im->region_mr)
        ibv_dereg_mr(im->region_mr);
    if (im->rmr)
        ibv_dereg_mr(im->rmr);
    if (im->smr)
        ibv_dereg_mr(im->smr);
    if (im->rcq)
        ibv_destroy_cq(im->rcq);
    if (im->scq)
        ibv_destroy_cq(im->scq);
    if (im->chan)
        ibv_destroy_comp_channel(im->chan);
    if (im->pd)
        ibv_dealloc_pd(im->pd);
    if (im->ctx)
        ibv_close_device(im->ctx);
    if (im->devs)
        ibv_free_device_list(im->devs);
    if (im->wake_fd >= 0)
        close(im->wake_fd);
    free(im->rbuf);
    free(im->sbuf);
    free(im->pend);
    free(im->peers);
}

static void verbs_close(dsm_transport *t)
{
    verbs_impl *im = t->impl;
    /* our last sends (the finalize collective's) must complete before the
     * QPs go: bounded, in case a peer is gone */
    uint64_t end = dsm_now_ns() + 10ULL * 1000000000ULL;
    while (dsm_now_ns() < end) {
        pthread_mutex_lock(&im->slock);
        reap_sends(t);
        flush_overflow(t);
        int left = atomic_load(&im->novf);
        for (int i = 0; i < t->nnodes; i++)
            left += im->peers[i].wrs;
        pthread_mutex_unlock(&im->slock);
        if (!left)
            break;
        verbs_poll(t, discard, NULL, 64);
        verbs_wait(t, 1);
    }
    /* no peer writes into our region or sends to our QPs past this point */
    MPI_Barrier(MPI_COMM_WORLD);
    im->closing = 1;
    destroy(im, t->nnodes);
    dsm_transport *boot = im->boot;
    free(im);
    free(t);
    boot->close(boot); /* MPI's barrier and MPI_Finalize */
}

dsm_transport *dsm_transport_verbs_boot(dsm_transport *t) { return ((verbs_impl *)t->impl)->boot; }

/* MPI, the bootstrap, gives the clock base and watches the node for the
 * launcher, exactly as for the mpi transport. */
static uint64_t verbs_clock_base(dsm_transport *t)
{
    return dsm_transport_mpi_clock_base(dsm_transport_verbs_boot(t));
}

static void verbs_mark(dsm_transport *t, int state)
{
    dsm_transport_mpi_mark(dsm_transport_verbs_boot(t), state);
}

/* ---- opening ---- */

static int env_num(const char *name, int dflt, int lo, int hi)
{
    const char *s = dsm_setting_raw(name);
    if (!s || !*s)
        return dflt;
    char *end;
    long v = strtol(s, &end, 10);
    return *end || v < lo || v > hi ? -1 : (int)v;
}

static int to_state(struct ibv_qp *qp, vpeer *p, int to, struct ibv_qp_attr *a, int mask)
{
    if (!dsm_verbs_qp_step_ok(p->state, to))
        return EINVAL;
    int rc = ibv_modify_qp(qp, a, mask);
    if (!rc)
        p->state = to;
    return rc;
}

/* Everything local: device, port, PD, CQs, QPs in INIT with receives
 * posted, send slots.  0, or -1 with the reason in why. */
static int open_local(dsm_transport *t, verbs_impl *im, char *why, size_t whylen)
{
    int ndev = 0;
    im->devs = ibv_get_device_list(&ndev);
    if (!im->devs || ndev == 0) {
        if (im->devs)
            snprintf(why, whylen, "no RDMA device (ibv_get_device_list lists none)");
        else
            snprintf(why, whylen, "no RDMA device (ibv_get_device_list failed: %s)",
                     strerror(errno));
        return -1;
    }
    const char *want = dsm_setting_raw("DSM_VERBS_DEVICE");
    struct ibv_device *dev = NULL;
    for (int i = 0; i < ndev && !dev; i++)
        if (!want || !*want || !strcmp(ibv_get_device_name(im->devs[i]), want))
            dev = im->devs[i];
    if (!dev) {
        snprintf(why, whylen, "DSM_VERBS_DEVICE=%s: no such RDMA device", want);
        return -1;
    }
    const char *dname = ibv_get_device_name(dev);
    int port = env_num("DSM_VERBS_IB_PORT", 1, 1, 255);
    int gidx = env_num("DSM_VERBS_GID_INDEX", 0, 0, 255);
    if (port < 0 || gidx < 0) {
        snprintf(why, whylen, "DSM_VERBS_IB_PORT must be 1..255 and DSM_VERBS_GID_INDEX 0..255");
        return -1;
    }
    im->ctx = ibv_open_device(dev);
    if (!im->ctx) {
        snprintf(why, whylen, "cannot open RDMA device %s: %s", dname, strerror(errno));
        return -1;
    }
    struct ibv_port_attr pa;
    if (ibv_query_port(im->ctx, (uint8_t)port, &pa)) {
        snprintf(why, whylen, "RDMA device %s has no port %d", dname, port);
        return -1;
    }
    if (pa.state != IBV_PORT_ACTIVE) {
        snprintf(why, whylen, "port %d of RDMA device %s is not active (state %s)", port, dname,
                 ibv_port_state_str(pa.state));
        return -1;
    }
    dsm_verbs_node_rec *s = &im->self;
    s->magic = DSM_VERBS_REC_MAGIC;
    s->version = DSM_VERBS_REC_VERSION;
    s->node = t->node;
    s->nnodes = t->nnodes;
    s->mtu = (uint32_t)pa.active_mtu;
    s->lid = pa.lid;
    s->port = (uint8_t)port;
    s->ethernet = pa.link_layer == IBV_LINK_LAYER_ETHERNET;
    s->gid_index = (uint32_t)gidx;
    union ibv_gid gid;
    if (ibv_query_gid(im->ctx, (uint8_t)port, gidx, &gid) == 0)
        memcpy(s->gid, gid.raw, 16);
    im->pd = ibv_alloc_pd(im->ctx);
    im->chan = ibv_create_comp_channel(im->ctx);
    int n = t->nnodes;
    im->slot = sizeof(dsm_msg_hdr) + t->max_payload;
    size_t d = BUF_BYTES / im->slot;
    im->depth = d > MAX_DEPTH ? MAX_DEPTH : d < MIN_DEPTH ? MIN_DEPTH : (int)d;
    im->rcq = im->chan ? ibv_create_cq(im->ctx, im->depth * n, NULL, im->chan, 0) : NULL;
    im->scq = im->chan ? ibv_create_cq(im->ctx, 2 * im->depth * n, NULL, im->chan, 0) : NULL;
    if (!im->pd || !im->chan || !im->rcq || !im->scq) {
        snprintf(why, whylen, "cannot set up RDMA device %s (protection domain, completion "
                 "queues): %s", dname, strerror(errno));
        return -1;
    }
    int fl = fcntl(im->chan->fd, F_GETFL);
    fcntl(im->chan->fd, F_SETFL, fl | O_NONBLOCK);
    im->rbuf = calloc((size_t)n * (size_t)im->depth, im->slot);
    im->sbuf = calloc((size_t)n * (size_t)im->depth, im->slot);
    im->pend_cap = im->depth * n;
    im->pend = calloc((size_t)im->pend_cap, sizeof *im->pend);
    im->peers = calloc((size_t)n, sizeof *im->peers);
    if (!im->rbuf || !im->sbuf || !im->pend || !im->peers) {
        snprintf(why, whylen, "out of memory for %d x %d message buffers", n, 2 * im->depth);
        return -1;
    }
    im->rmr = ibv_reg_mr(im->pd, im->rbuf, (size_t)n * (size_t)im->depth * im->slot,
                         IBV_ACCESS_LOCAL_WRITE);
    im->smr = ibv_reg_mr(im->pd, im->sbuf, (size_t)n * (size_t)im->depth * im->slot, 0);
    if (!im->rmr || !im->smr) {
        snprintf(why, whylen, "cannot register message buffers with %s: %s (ulimit -l?)", dname,
                 strerror(errno));
        return -1;
    }
    dsm_verbs_init_attr ia;
    dsm_verbs_init_params(s, &ia);
    for (int i = 0; i < n; i++) {
        if (i == t->node)
            continue;
        vpeer *p = &im->peers[i];
        struct ibv_qp_init_attr qa = { 0 };
        qa.send_cq = im->scq;
        qa.recv_cq = im->rcq;
        qa.qp_type = IBV_QPT_RC;
        qa.cap.max_send_wr = (uint32_t)(2 * im->depth);
        qa.cap.max_recv_wr = (uint32_t)im->depth;
        qa.cap.max_send_sge = 1;
        qa.cap.max_recv_sge = 1;
        p->qp = ibv_create_qp(im->pd, &qa);
        if (!p->qp) {
            snprintf(why, whylen, "cannot create a queue pair on %s: %s", dname, strerror(errno));
            return -1;
        }
        struct ibv_qp_attr a = { 0 };
        a.qp_state = IBV_QPS_INIT;
        a.port_num = ia.port;
        a.pkey_index = ia.pkey_index;
        a.qp_access_flags = (ia.access & DSM_VA_LOCAL_WRITE ? IBV_ACCESS_LOCAL_WRITE : 0) |
                            (ia.access & DSM_VA_REMOTE_WRITE ? IBV_ACCESS_REMOTE_WRITE : 0);
        int rc = to_state(p->qp, p, DSM_VQ_INIT, &a,
                          IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS);
        if (rc) {
            snprintf(why, whylen, "queue pair to node %d: RESET->INIT failed: %s", i,
                     strerror(rc));
            return -1;
        }
        for (int k = 0; k < im->depth; k++)
            post_recv(im, i, k);
        for (int k = 0; k < im->depth; k++)
            p->free_slots[p->nfree++] = im->depth - 1 - k;
    }
    return 0;
}

dsm_transport *dsm_transport_verbs_open(size_t max_payload)
{
    dsm_transport *boot = dsm_transport_mpi_open(max_payload);
    if (!boot)
        return NULL;
    verbs_impl *im = calloc(1, sizeof *im);
    dsm_transport *t = calloc(1, sizeof *t);
    if (!im || !t) {
        fprintf(stderr, "dsm: node %d: dsm_init: out of memory for the verbs transport\n",
                boot->node);
        dsm_transport_mpi_abort(1);
    }
    im->boot = boot;
    im->wake_fd = eventfd(0, EFD_NONBLOCK | EFD_SEMAPHORE | EFD_CLOEXEC);
    pthread_mutex_init(&im->slock, NULL);
    pthread_mutex_init(&im->rlock, NULL);
    t->name = "verbs";
    t->ops = &dsm_transport_verbs_ops;
    t->node = boot->node;
    t->nnodes = boot->nnodes;
    t->max_payload = max_payload;
    t->impl = im;
    char why[200] = "";
    int ok = im->wake_fd >= 0 && open_local(t, im, why, sizeof why) == 0;
    if (im->wake_fd < 0)
        snprintf(why, sizeof why, "eventfd: %s", strerror(errno));
    /* every node learns whether all could open: they fail together, and
     * only the first failing node says why (all ranks of one host usually
     * fail for the same reason) */
    int *oks = calloc((size_t)t->nnodes, sizeof *oks);
    if (!oks || MPI_Allgather(&ok, 1, MPI_INT, oks, 1, MPI_INT, MPI_COMM_WORLD) != MPI_SUCCESS) {
        fprintf(stderr, "dsm: node %d: dsm_init: verbs transport bootstrap (MPI_Allgather) "
                "failed\n", t->node);
        dsm_transport_mpi_abort(1);
    }
    int first_bad = -1, nbad = 0;
    for (int i = 0; i < t->nnodes; i++)
        if (!oks[i]) {
            nbad++;
            if (first_bad < 0)
                first_bad = i;
        }
    free(oks);
    if (nbad) {
        if (t->node == first_bad)
            fprintf(stderr, "dsm: node %d: dsm_init: DSM_TRANSPORT=verbs: %s%s\n", t->node, why,
                    nbad > 1 ? " (and on other nodes)" : "");
        destroy(im, t->nnodes);
        free(im);
        free(t);
        boot->close(boot);
        return NULL;
    }
    t->send = verbs_send;
    t->poll = verbs_poll;
    t->wait = verbs_wait;
    t->wake = verbs_wake;
    t->polling = NULL;
    t->close = verbs_close;
    return t;
}

int dsm_transport_verbs_attach(dsm_transport *t, char *region, size_t size, size_t block_size)
{
    verbs_impl *im = t->impl;
    int n = t->nnodes;
    im->region_mr = ibv_reg_mr(im->pd, region, size,
                               IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
    if (!im->region_mr)
        vfatal(t, "cannot register the region (%zu bytes) with the RDMA device: %s (ulimit -l? "
               "DSM_REGION_SIZE?)", size, strerror(errno));
    im->region = region;
    im->region_size = size;
    im->block_size = (uint32_t)block_size;
    im->nblocks = (uint32_t)(size / block_size);
    im->self.block_size = (uint32_t)block_size;
    im->self.region_addr = (uintptr_t)region;
    im->self.region_size = size;
    im->self.rkey = im->region_mr->rkey;
    dsm_verbs_node_rec *recs = calloc((size_t)n, sizeof *recs);
    dsm_verbs_qp_rec *mine = calloc((size_t)n, sizeof *mine),
                     *theirs = calloc((size_t)n, sizeof *theirs);
    if (!recs || !mine || !theirs)
        vfatal(t, "out of memory for %d connection records", n);
    unsigned seed = (unsigned)dsm_now_ns() ^ (unsigned)getpid();
    for (int i = 0; i < n; i++)
        if (i != t->node) {
            mine[i].qpn = im->peers[i].qp->qp_num;
            mine[i].psn = (unsigned)rand_r(&seed) & 0xffffffu;
        }
    if (MPI_Allgather(&im->self, (int)sizeof im->self, MPI_BYTE, recs, (int)sizeof *recs,
                      MPI_BYTE, MPI_COMM_WORLD) != MPI_SUCCESS ||
        MPI_Alltoall(mine, (int)sizeof *mine, MPI_BYTE, theirs, (int)sizeof *theirs, MPI_BYTE,
                     MPI_COMM_WORLD) != MPI_SUCCESS)
        vfatal(t, "exchange of connection records (MPI) failed");
    char why[256];
    for (int i = 0; i < n; i++) {
        if (i == t->node)
            continue;
        vpeer *p = &im->peers[i];
        dsm_verbs_rtr_attr rtr;
        dsm_verbs_rts_attr rts;
        if (dsm_verbs_check_node_rec(&recs[i], i, &im->self, why, sizeof why) ||
            dsm_verbs_check_qp_rec(&theirs[i], i, why, sizeof why) ||
            dsm_verbs_rtr_params(&im->self, &recs[i], &theirs[i], &rtr, why, sizeof why))
            vfatal(t, "cannot connect to node %d: %s", i, why);
        p->rec = recs[i];
        dsm_verbs_rts_params(&mine[i], &rts);
        struct ibv_qp_attr a = { 0 };
        a.qp_state = IBV_QPS_RTR;
        a.path_mtu = (enum ibv_mtu)rtr.path_mtu;
        a.dest_qp_num = rtr.dest_qpn;
        a.rq_psn = rtr.rq_psn;
        a.max_dest_rd_atomic = rtr.max_dest_rd_atomic;
        a.min_rnr_timer = rtr.min_rnr_timer;
        a.ah_attr.dlid = rtr.dlid;
        a.ah_attr.port_num = rtr.port;
        a.ah_attr.is_global = rtr.is_global;
        if (rtr.is_global) {
            memcpy(a.ah_attr.grh.dgid.raw, rtr.dgid, 16);
            a.ah_attr.grh.sgid_index = rtr.sgid_index;
            a.ah_attr.grh.hop_limit = rtr.hop_limit;
        }
        int rc = to_state(p->qp, p, DSM_VQ_RTR, &a,
                          IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
                              IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER);
        if (rc)
            vfatal(t, "queue pair to node %d: INIT->RTR failed: %s", i, strerror(rc));
        memset(&a, 0, sizeof a);
        a.qp_state = IBV_QPS_RTS;
        a.sq_psn = rts.sq_psn;
        a.timeout = rts.timeout;
        a.retry_cnt = rts.retry_cnt;
        a.rnr_retry = rts.rnr_retry;
        a.max_rd_atomic = rts.max_rd_atomic;
        rc = to_state(p->qp, p, DSM_VQ_RTS, &a,
                      IBV_QP_STATE | IBV_QP_SQ_PSN | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT |
                          IBV_QP_RNR_RETRY | IBV_QP_MAX_QP_RD_ATOMIC);
        if (rc)
            vfatal(t, "queue pair to node %d: RTR->RTS failed: %s", i, strerror(rc));
    }
    free(recs);
    free(mine);
    free(theirs);
    /* a peer still in INIT would drop our first messages: start together */
    MPI_Barrier(MPI_COMM_WORLD);
    return 0;
}

const dsm_transport_ops dsm_transport_verbs_ops = {
    .name = "verbs",
    .launcher = "mpirun -np N",
    /* blocks come by RDMA WRITE straight into the region */
    .caps = DSM_TP_DATA_PLACED_BY_RDMA,
    .launched_as = dsm_transport_mpi_launched_as, /* MPI is the bootstrap */
    .open = dsm_transport_verbs_open,
    .attach = dsm_transport_verbs_attach,
    .clock_base = verbs_clock_base,
    .mark = verbs_mark,
    .abort = dsm_transport_mpi_abort,
};
