/* msg.c - decoding and validation of wire messages (msg.h).  Checks only:
 * nothing here touches runtime state, so the libFuzzer target
 * (tests/fuzz_msg.c) can drive it alone. */
#include "msg.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "node.h"
#include "syncid.h"

int dsm_msg_why(char *why, size_t whylen, const char *fmt, ...)
{
    if (why && whylen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(why, whylen, fmt, ap);
        va_end(ap);
    }
    return -1;
}

int dsm_msg_decode(const void *buf, size_t n, dsm_msg_hdr *h, const void **payload, char *why,
                   size_t whylen)
{
    if (!buf || n < sizeof *h)
        return dsm_msg_why(why, whylen, "%zu bytes, shorter than a header (%zu)", n, sizeof *h);
    memcpy(h, buf, sizeof *h);
    if ((uint64_t)h->len != (uint64_t)(n - sizeof *h))
        return dsm_msg_why(why, whylen, "%zu bytes, but the header announces %u payload bytes", n,
                    h->len);
    *payload = h->len ? (const unsigned char *)buf + sizeof *h : NULL;
    return 0;
}

int dsm_msg_validate(const dsm_msg_hdr *h, const dsm_msg_limits *lim, char *why, size_t whylen)
{
    if (h->magic != DSM_MSG_MAGIC)
        return dsm_msg_why(why, whylen, "bad magic %#x", h->magic);
    if (h->src < 0 || h->src >= lim->nnodes)
        return dsm_msg_why(why, whylen, "sender %d is not a node (0..%d)", h->src, lim->nnodes - 1);
    if (h->dst != lim->self)
        return dsm_msg_why(why, whylen, "addressed to node %d, received by node %d", h->dst, lim->self);
    /* the flags: a write request whose access also reads; a write grant's
     * push or flush at the epoch's end (DSM_ADAPT) (proto.h) */
    if (h->flags && !((h->type == PM_GETX || h->type == PM_UPGRADE) && h->flags == PROTO_MSG_READS) &&
        !(lim->downgrades && (h->type == PM_DATA_X || h->type == PM_UPGRADE_ACK) &&
          (h->flags == PROTO_MSG_PUSH || h->flags == PROTO_MSG_FLUSH)))
        return dsm_msg_why(why, whylen, "type %u with unknown flags %#x", h->type, h->flags);
    unsigned t = h->type;
    /* The engine's hardware messages (evictions, exclusive-clean grants)
     * belong to the simulated machines: the runtime never evicts and never
     * grants exclusive-clean, so on the wire they are malformed.  Refused
     * here, with their name, before they reach the engine.  (RECALL_S is
     * the adaptive protocol's too: DSM_ADAPT downgrades producers; so are
     * its PUSH, FLUSH and PUSH_DATA, which follow RECALL_S.) */
    if (t >= PM_PUTS && t < PM_NTYPES && !(t >= PM_RECALL_S && lim->downgrades))
        return dsm_msg_why(why, whylen, "%s is a simulated-machine message, never sent by the DSM "
                           "runtime", proto_msg_name(t));
    /* protocol messages: a block of the region, data exactly when the type
     * carries it */
    if (t > 0 && t < PM_NTYPES) {
        if (h->block >= lim->nblocks)
            return dsm_msg_why(why, whylen, "%s for block %u, past the last block %u", proto_msg_name(t),
                        h->block, lim->nblocks - 1);
        uint32_t want = proto_msg_has_data((int)t) ? lim->block_size : 0;
        if (h->len != want)
            return dsm_msg_why(why, whylen, "%s carries %u bytes, expected %u", proto_msg_name(t), h->len,
                        want);
        return 0;
    }
    uint32_t maxlen = 0; /* payload allowed, per type */
    switch (t) {
    case RT_COLL_ENTER:
        if (lim->self != 0)
            return dsm_msg_why(why, whylen, "collective entry sent to node %d (only node 0 gathers)",
                        lim->self);
        if (h->arg[1] < COLL_INIT || h->arg[1] > COLL_STATS)
            return dsm_msg_why(why, whylen, "collective entry of unknown kind %llu",
                        (unsigned long long)h->arg[1]);
        break;
    case RT_COLL_DONE:
        if (h->src != 0)
            return dsm_msg_why(why, whylen, "collective completion from node %d (only node 0 sends it)",
                        h->src);
        break;
    case RT_LOCK_REQ:
    case RT_UNLOCK:
        if (h->block >= lim->locks && !dsm_sync_made(h->block))
            return dsm_msg_why(why, whylen, "lock message for lock %u, past the last lock %u", h->block,
                        lim->locks - 1);
        if (dsm_sync_manager(h->block, lim->nnodes) != lim->self)
            return dsm_msg_why(why, whylen, "lock %u is managed by node %d, not by node %d", h->block,
                        dsm_sync_manager(h->block, lim->nnodes), lim->self);
        if (t == RT_LOCK_REQ && h->arg[0] >= DSM_MAX_THREADS)
            return dsm_msg_why(why, whylen, "lock request for thread slot %llu (0..%d)",
                        (unsigned long long)h->arg[0], DSM_MAX_THREADS - 1);
        break;
    case RT_LOCK_GRANT:
        if (h->block >= lim->locks && !dsm_sync_made(h->block))
            return dsm_msg_why(why, whylen, "grant of lock %u, past the last lock %u", h->block,
                        lim->locks - 1);
        if (h->arg[0] >= DSM_MAX_THREADS)
            return dsm_msg_why(why, whylen, "lock grant for thread slot %llu (0..%d)",
                        (unsigned long long)h->arg[0], DSM_MAX_THREADS - 1);
        /* only the lock's manager grants it (whether the slot asked for
         * it is runtime state: sync.c checks) */
        if (dsm_sync_manager(h->block, lim->nnodes) != h->src)
            return dsm_msg_why(why, whylen, "grant of lock %u by node %d, which does not manage it "
                        "(node %d does)", h->block, h->src, dsm_sync_manager(h->block, lim->nnodes));
        break;
    case RT_SYNC_REQ:
        if (dsm_sync_manager(h->block, lim->nnodes) != lim->self)
            return dsm_msg_why(why, whylen, "synchronisation object %u is managed by node %d, not "
                        "by node %d", h->block, dsm_sync_manager(h->block, lim->nnodes), lim->self);
        if (h->arg[0] >= DSM_MAX_THREADS)
            return dsm_msg_why(why, whylen, "synchronisation request for thread slot %llu (0..%d)",
                        (unsigned long long)h->arg[0], DSM_MAX_THREADS - 1);
        if (h->arg[1] < 1 || h->arg[1] > 5)
            return dsm_msg_why(why, whylen, "synchronisation request of unknown operation %llu",
                        (unsigned long long)h->arg[1]);
        break;
    case RT_SYNC_WAKE:
        if (h->arg[0] >= DSM_MAX_THREADS)
            return dsm_msg_why(why, whylen, "wake of thread slot %llu (0..%d)",
                        (unsigned long long)h->arg[0], DSM_MAX_THREADS - 1);
        if (dsm_sync_manager(h->block, lim->nnodes) != h->src)
            return dsm_msg_why(why, whylen, "wake for object %u from node %d, which does not "
                        "manage it", h->block, h->src);
        break;
    case RT_FREE:
        if (h->arg[0] >= lim->region_size)
            return dsm_msg_why(why, whylen, "free of region offset %#llx, past the region (%#llx bytes)",
                        (unsigned long long)h->arg[0], (unsigned long long)lim->region_size);
        break;
    case RT_PING:
    case RT_PONG:
    case RT_STATS_END:
        break;
    case RT_PROF_DATA: /* a piece of a byte stream, parsed by prof.c */
        if (lim->self != 0)
            return dsm_msg_why(why, whylen, "profile data sent to node %d (only node 0 gathers)",
                        lim->self);
        maxlen = lim->block_size;
        break;
    case RT_STATS_PAT: /* a piece of a stream of pattern records (stats.c joins them) */
        if (lim->self != 0)
            return dsm_msg_why(why, whylen, "statistics message sent to node %d (only node 0 gathers)",
                        lim->self);
        maxlen = lim->block_size;
        break;
    case RT_STATS_CTR: {
        if (lim->self != 0)
            return dsm_msg_why(why, whylen, "statistics message sent to node %d (only node 0 gathers)",
                        lim->self);
        uint32_t rec = DSM_MSG_STATS_REC_SIZE;
        if (h->len % rec)
            return dsm_msg_why(why, whylen, "statistics message of %u bytes, not whole %u-byte records",
                        h->len, rec);
        maxlen = lim->block_size;
        break;
    }
    case RT_TASK_BEGIN:
    case RT_TASK_IMAGE:
    case RT_TASK_GO:
    case RT_TASK_FINISH:
    case RT_STDIN_DATA:
    case RT_STDIN_END:
        if (h->src != 0)
            return dsm_msg_why(why, whylen, "message type %u from node %d (only node 0 sends it)",
                               t, h->src);
        if (t == RT_TASK_IMAGE || t == RT_STDIN_DATA)
            maxlen = lim->block_size;
        break;
    case RT_TASK_END:
        if (lim->self != 0)
            return dsm_msg_why(why, whylen, "end of a task sent to node %d (only node 0 keeps "
                               "them)", lim->self);
        break;
    default:
        return dsm_msg_why(why, whylen, "unknown message type %u", t);
    }
    if (h->len > maxlen)
        return dsm_msg_why(why, whylen, "message type %u carries %u bytes, at most %u allowed", t, h->len,
                    maxlen);
    return 0;
}
