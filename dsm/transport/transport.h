/* transport.h - the small interface every transport (shm, mpi, verbs)
 * implements.  A message is a fixed header plus an optional payload (block
 * data).  Guarantees a transport must give:
 *  - messages from one sender to one receiver arrive in the order sent;
 *  - send never blocks waiting for the receiver (a full queue is absorbed by
 *    a sender-side overflow list that later polls flush), so two nodes that
 *    send to each other cannot deadlock;
 *  - send and poll may be called from several threads of a node at once;
 *    poll delivers each message to exactly one caller, in order;
 *  - wait blocks (no spinning) until a message may be there or the timeout
 *    passes; after a short spin done by the caller, nodes sleep.
 * Sending to oneself is never done through a transport (the node runtime
 * handles self messages locally). */
#ifndef DSM_TRANSPORT_H
#define DSM_TRANSPORT_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#define DSM_MSG_MAGIC 0x44534d31u /* "DSM1" */

typedef struct dsm_msg_hdr {
    uint32_t magic;    /* DSM_MSG_MAGIC: catches a corrupt queue */
    uint16_t type;     /* proto_msg_type (1..31) or a runtime message (>= 64) */
    uint16_t flags;
    int32_t src;       /* sending node */
    int32_t dst;       /* receiving node */
    uint32_t block;    /* block number, lock id, ... */
    uint32_t len;      /* payload bytes following the header */
    uint64_t arg[3];   /* message-specific arguments */
} dsm_msg_hdr;

typedef void (*dsm_msg_handler)(void *ctx, const dsm_msg_hdr *h, const void *payload);

typedef struct dsm_transport dsm_transport;
struct dsm_transport {
    const char *name;
    int node, nnodes;
    size_t max_payload;  /* largest payload accepted by send (>= block size) */
    /* sends the transport had to buffer because the destination queue was
     * full (statistics: transportBufMsgs, doc/metrics.md) */
    _Atomic uint64_t buffered;
    /* Copy header and payload out; 0, or -1 with a message on stderr. */
    int (*send)(dsm_transport *t, int dst, const dsm_msg_hdr *h, const void *payload);
    /* Deliver up to max pending messages to handler (payload valid only
     * during the call); returns how many were delivered.  Also flushes
     * overflowed sends.  Never blocks. */
    int (*poll)(dsm_transport *t, dsm_msg_handler handler, void *ctx, int max);
    /* Block until a message may have arrived or timeout_ms passed. */
    void (*wait)(dsm_transport *t, int timeout_ms);
    /* Wake every thread of this node blocked in wait (for shutdown). */
    void (*wake)(dsm_transport *t);
    /* A thread of this node starts (1) or stops (0) polling in a loop:
     * meanwhile senders need not wake the node's sleepers (a wake-up costs
     * a system call per message); the last to stop wakes them if messages
     * wait.  May be NULL. */
    void (*polling)(dsm_transport *t, int on);
    void (*close)(dsm_transport *t);
    void *impl;
};

/* Transports.  Each returns NULL with a message on stderr when it cannot
 * start.  max_payload is the block size in bytes. */
dsm_transport *dsm_transport_shm_open(size_t max_payload);
/* Is this process a node started by dsmrun (shm transport)? */
int dsm_transport_shm_present(void);
/* Tell the launcher how far this node got (the launcher reports a node that
 * exits without dsm_finalize). */
enum { DSM_NODE_STARTED = 0, DSM_NODE_JOINED = 1, DSM_NODE_FINALIZED = 2 };
void dsm_transport_shm_mark(dsm_transport *t, int state);

#endif
