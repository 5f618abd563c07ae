/* transport.h - how the nodes of a DSM job exchange messages: the interface
 * every transport (shm, mpi, verbs) implements, in two parts.
 *
 * dsm_transport_ops: what a kind of transport is (one constant struct per
 * transport file, listed in registry.c): its name (DSM_TRANSPORT=name),
 * launch detection (was this process started by my launcher?), open, the
 * region attach (verbs registers the region for RDMA), the job's common
 * time base, the node's progress for the launcher's reports, how to end
 * the whole job, and capabilities as flags the runtime asks instead of
 * comparing names.  Adding a transport is one new file defining its ops and
 * one line in registry.c.
 *
 * dsm_transport: one open transport.  A message is a fixed header plus an
 * optional payload (block data).  Guarantees a transport must give:
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
typedef struct dsm_transport_ops dsm_transport_ops;
struct dsm_transport {
    const char *name;
    const dsm_transport_ops *ops; /* the kind of transport this is */
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
    /* 1 when the node's threads should call into the transport one at a
     * time (MPI with peers on other hosts: while a second thread runs
     * MPI's TCP progress, every send costs half as much again): the
     * progress thread then says when it polls in a loop (polling), and a
     * waiting thread that stops spinning sleeps in the node (its futex),
     * not in wait, so that the progress thread is the one caller. */
    int single_caller;
    /* DSM_JOB_AREA_BYTES of memory every node of the job maps, zeros at the
     * job's start, for synchronisation through the processor's atomics
     * (dsm/jobsync.h); NULL when the nodes share none (other hosts). */
    void *job_area;
    void *impl;
};

/* The size of dsm_transport.job_area (committed only where touched). */
#define DSM_JOB_AREA_BYTES ((uint64_t)1 << 20)

/* How far a node got, for the launcher's reports (a node that leaves after
 * JOINED without FINALIZED "exited without dsm_finalize"). */
enum { DSM_NODE_STARTED = 0, DSM_NODE_JOINED = 1, DSM_NODE_FINALIZED = 2 };

/* Capabilities (dsm_transport_ops.caps). */
enum {
    /* Data may land in the region without passing the receiving CPU
     * (RDMA WRITE): the home never sees it arrive, so it cannot diff it
     * against its memory (the profile twins at the writer instead). */
    DSM_TP_DATA_PLACED_BY_RDMA = 1u << 0,
    /* Works only in a process its launcher started (the launcher made what
     * the nodes share): without it DSM_TRANSPORT=name is an error rather
     * than a job of one node. */
    DSM_TP_NEEDS_LAUNCHER = 1u << 1,
    /* wait ends when a message comes (a doorbell, not a timer) and wake
     * ends every thread's wait: a thread waiting for a reply sleeps in
     * wait and handles the reply itself (node.c, wait_in_transport) */
    DSM_TP_WAIT_ON_MESSAGES = 1u << 2,
};

struct dsm_transport_ops {
    const char *name;     /* what DSM_TRANSPORT says */
    const char *launcher; /* how its jobs start, for messages: "dsmrun -n N" */
    unsigned caps;        /* DSM_TP_* */
    /* Launch detection, from the environment only: -1 when this process was
     * not started by this transport's launcher, else the node number the
     * launcher gave it. */
    int (*launched_as)(void);
    /* NULL after one line on stderr.  block_size bounds the payloads. */
    dsm_transport *(*open)(size_t block_size);
    /* The region (its protocol view) is mapped: collective, once, before any
     * send.  NULL when the transport needs nothing (verbs registers it). */
    int (*attach)(dsm_transport *t, char *region, size_t size, size_t block_size);
    /* The local CLOCK_MONOTONIC time (ns) of the job's time 0, the same
     * instant on every node (dsm_wtime).  NULL: this node's dsm_init. */
    uint64_t (*clock_base)(dsm_transport *t);
    /* Tell the launcher how far this node got (DSM_NODE_*). */
    void (*mark)(dsm_transport *t, int state);
    /* End the whole job now, after dsm_fatal's line (dsm_fatal_exit).  NULL:
     * the node's non-zero exit is enough, its launcher ends the others. */
    void (*abort)(int code);
};

/* --- registry.c ----------------------------------------------------------- */
/* The transports built into this library, in the order launch detection
 * asks them; NULL-terminated. */
extern const dsm_transport_ops *const dsm_transports[];
/* The transport of this process: DSM_TRANSPORT=name when set, else the
 * first built one whose launcher started the process, else none (*out =
 * NULL: a job of one node).  0, or -1 after one line on stderr (an unknown
 * or not-built name, or a name whose launcher did not start the process
 * while another's did: N separate one-node jobs must not pass as one). */
int dsm_transport_choose(const dsm_transport_ops **out);
/* "shm, mpi, verbs": the names built, for messages. */
const char *dsm_transport_names(void);

/* --- shm.c ------------------------------------------------------------------ */
/* The shm transport (nodes started by dsmrun on one machine); its pieces are
 * also used alone by tests/shm_queue_test. */
extern const dsm_transport_ops dsm_transport_shm_ops;
dsm_transport *dsm_transport_shm_open(size_t max_payload);
/* Is this process a node started by dsmrun (shm transport)? */
int dsm_transport_shm_present(void);
void dsm_transport_shm_mark(dsm_transport *t, int state);

#endif
