/* msg.h - decoding and validation of the messages that come off the wire.
 * Every message a transport delivers goes through dsm_msg_validate before it
 * touches any state (node.c handle_msg), so a corrupt or hostile message is
 * reported in one line and ends the job instead of indexing out of range. */
#ifndef DSM_MSG_H
#define DSM_MSG_H

#include <stddef.h>
#include <stdint.h>

#include "transport/transport.h"

/* Runtime (non-protocol) messages; protocol messages use proto_msg_type.
 * A new type must also be taught to dsm_msg_validate (msg.c), which
 * rejects unknown types before the runtime (node.c) sees them. */
enum {
    RT_COLL_ENTER = 64, /* node -> 0: arg0 seq, arg1 kind, arg2 argument */
    RT_COLL_DONE,       /* 0 -> node: arg0 seq; with arg1 = 1, one of node 0's
                         * settings, which differ from the node's (sync.c) */
    RT_LOCK_REQ,        /* node -> manager: block = lock id, arg0 = thread slot */
    RT_LOCK_GRANT,      /* manager -> node: block = lock id, arg0 = thread slot */
    RT_UNLOCK,          /* node -> manager: block = lock id */
    RT_FREE,            /* node -> home: arg0 = region offset */
    RT_PING,            /* probe: answered at once with RT_PONG */
    RT_PONG,
    RT_STATS_CTR,       /* node -> 0 at finalize: counter records (stats.c) */
    RT_STATS_PAT,       /* node -> 0 at finalize: a piece of the stream of a home's pattern records */
    RT_STATS_END,       /* node -> 0: arg0 = stats messages sent before this one */
    RT_PROF_DATA,       /* node -> 0 at finalize: a piece of the node's profile data (prof.c) */
    RT_SYNC_REQ,        /* node -> manager: block = barrier/condition id, arg0 = thread slot,
                         * arg1 = operation, arg2 = a barrier's count (sync.c) */
    RT_SYNC_WAKE,       /* manager -> node: block = id, arg0 = thread slot, arg1 = an
                         * atomic counter's value before the add */
    /* the thread model (tasks.c) and the copy of stdin (stdin_copy.c) */
    RT_TASK_BEGIN,      /* 0 -> node: arg0 task id, arg1..2 the master's heap [start, end) */
    RT_TASK_IMAGE,      /* 0 -> node: arg0 address; payload the bytes, or none and arg1 zeros */
    RT_TASK_GO,         /* 0 -> node: arg0 task id, arg1 function, arg2 argument */
    RT_TASK_END,        /* node -> 0: arg0 task id */
    RT_TASK_FINISH,     /* 0 -> node: the master finalizes */
    RT_STDIN_DATA,      /* 0 -> node: a piece of stdin */
    RT_STDIN_END,       /* 0 -> node: the end of stdin */
};

/* Is a runtime message of type t counted in the statistics (rtSentMsgs,
 * rtRecvMsgs)?  Not the statistics' and the profile's own, sent after the
 * counters were gathered. */
static inline int dsm_msg_rt_counted(unsigned t)
{
    return t < RT_STATS_CTR || t == RT_SYNC_REQ || t == RT_SYNC_WAKE;
}

/* What a message must fit, from the receiving node's configuration. */
typedef struct dsm_msg_limits {
    int self, nnodes;
    uint32_t nblocks;     /* blocks in the region */
    uint32_t block_size;  /* bytes: the payload of a data message */
    uint32_t locks;       /* DSM_LOCKS */
    uint64_t region_size; /* bytes: bound of region offsets (RT_FREE) */
    int downgrades;       /* DSM_ADAPT: the adaptive protocol downgrades producers (RECALL_S) */
} dsm_msg_limits;

/* Bytes of one counter record in an RT_STATS_CTR payload (stats.c). */
#define DSM_MSG_STATS_REC_SIZE 16

/* Framing: a received buffer of n bytes is a header plus exactly the
 * payload the header announces.  Fills *h (copied out: buf need not be
 * aligned) and *payload; 0, or -1 with the reason in why. */
int dsm_msg_decode(const void *buf, size_t n, dsm_msg_hdr *h, const void **payload, char *why,
                   size_t whylen);

/* Is h a message this node may act on: magic, type, sender and receiver,
 * payload length for the type, block number, lock id, thread slot,
 * collective kind, region offset?  0, or -1 with the reason in why (one
 * line, without the sender, which the caller names). */
int dsm_msg_validate(const dsm_msg_hdr *h, const dsm_msg_limits *lim, char *why, size_t whylen);

/* Format why (when given) and return -1: how the decoders report a reason. */
int dsm_msg_why(char *why, size_t whylen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
