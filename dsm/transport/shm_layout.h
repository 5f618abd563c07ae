/* shm_layout.h - layout of the control/message segment of one dsmrun job
 * (the shm transport).  dsmrun creates, sizes and initialises the segment;
 * every node maps it through the inherited descriptor DSM_SHM_FD.  The
 * segment is the only memory the nodes share: it carries messages and the
 * runtime's synchronisation words, never application data directly.
 *
 *   header            magic, version, sizes, clock base   (dsm_shm_header)
 *   node table        one cache line per node: status, pid (dsm_shm_node)
 *   job area          DSM_JOB_AREA_BYTES, page aligned: the runtime's
 *                       synchronisation words (transport.h, job_area)
 *   queue 0 .. N-1    incoming queue of each node, page aligned:
 *                       dsm_shm_queue (tail | head | futex, sleepers)
 *                       slots[capacity], each a dsm_shm_slot + payload
 *
 * A queue is a bounded multi-producer ring in the style of D. Vyukov: each
 * slot has a sequence number telling producers and the consumer whose turn
 * it is, so producers of many processes and threads only contend on one
 * compare-and-swap of the tail.  The stored sequence is "sequence minus slot
 * index": a freshly truncated (all-zero) segment is then a valid empty ring,
 * so dsmrun never touches the slot pages and memory is only committed for
 * slots that are actually used.
 *
 * Both dsmrun and the library compute the geometry with dsm_shm_geometry()
 * so they cannot disagree; the library also checks the header against it. */
#ifndef DSM_SHM_LAYOUT_H
#define DSM_SHM_LAYOUT_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "transport.h"

#define DSM_SHM_MAGIC 0x31304d4853534d44ULL /* "DSMSHM01" read as little-endian */
#define DSM_SHM_VERSION 3u
#define DSM_SHM_MAX_NODES 1024
#define DSM_SHM_LINE 64
#define DSM_SHM_PAGE 4096
/* Slots per queue: DSM_SHM_SLOTS overrides (a power of two in this range). */
#define DSM_SHM_SLOTS_MIN 2u
#define DSM_SHM_SLOTS_MAX 65536u
#define DSM_SHM_SLOTS_DEFAULT 256u
/* The default capacity is lowered (down to DSM_SHM_SLOTS_FLOOR) while the
 * whole segment, slots * N * (block + 64), would exceed this: with 1024
 * nodes or 16 MiB blocks 256 slots per queue would be absurd. */
#define DSM_SHM_SLOTS_FLOOR 16u
#define DSM_SHM_BUDGET ((uint64_t)1 << 30)

_Static_assert(ATOMIC_LLONG_LOCK_FREE == 2 && ATOMIC_INT_LOCK_FREE == 2,
               "the shm transport needs lock-free atomics shared between processes");

typedef struct dsm_shm_header {
    uint64_t magic;          /* DSM_SHM_MAGIC */
    uint32_t version;        /* DSM_SHM_VERSION */
    uint32_t nnodes;
    uint64_t max_payload;    /* payload bytes per slot (the block size) */
    uint32_t slots;          /* capacity of each queue, a power of two */
    uint32_t slot_size;      /* bytes per slot: dsm_shm_slot + payload, line aligned */
    uint64_t node_offset;    /* offset of the node table */
    uint64_t job_offset;     /* offset of the job area */
    uint64_t queue_offset;   /* offset of queue 0 */
    uint64_t queue_size;     /* bytes per queue, page aligned */
    uint64_t total_size;     /* bytes of the whole segment */
    uint64_t clock_base_ns;  /* CLOCK_MONOTONIC at job start (also DSM_CLOCK_BASE_NS) */
    int32_t launcher_pid;
    uint32_t reserved;
} dsm_shm_header;

/* One per node, one cache line each so that status updates do not bounce. */
typedef struct dsm_shm_node {
    _Atomic uint32_t state;  /* DSM_NODE_STARTED / JOINED / FINALIZED (transport.h) */
    _Atomic int32_t pid;     /* written by dsmrun after fork and by the node itself */
    char pad[DSM_SHM_LINE - 8];
} dsm_shm_node;

/* Head of one node's incoming queue.  Producers touch tail and the wake
 * line, the consumer head and the wake line; separate cache lines keep
 * producers from slowing the consumer down. */
typedef struct dsm_shm_queue {
    _Alignas(DSM_SHM_LINE) _Atomic uint64_t tail; /* next position producers claim */
    _Alignas(DSM_SHM_LINE) _Atomic uint64_t head; /* next position to consume */
    /* Wake protocol: the consumer sleeps on futex (a counter bumped by every
     * wake) only after announcing itself in sleepers, and producers touch
     * futex only when sleepers says someone sleeps. */
    _Alignas(DSM_SHM_LINE) _Atomic uint32_t futex;
    _Atomic uint32_t sleepers;
    /* Threads of the receiving node polling this queue right now (an
     * application thread waiting on a miss): producers need not wake the
     * sleepers then; the last poller to stop wakes them if work is left. */
    _Atomic uint32_t pollers;
} dsm_shm_queue;

/* A slot: sequence word, the message header, then max_payload bytes. */
typedef struct dsm_shm_slot {
    _Atomic uint64_t seq;    /* Vyukov sequence minus the slot index */
    uint64_t reserved;
    dsm_msg_hdr hdr;
    /* payload follows, up to max_payload bytes */
} dsm_shm_slot;

_Static_assert(sizeof(dsm_msg_hdr) == 48, "dsm_msg_hdr layout changed");
_Static_assert(sizeof(dsm_shm_slot) == DSM_SHM_LINE, "slot header is one cache line");
_Static_assert(sizeof(dsm_shm_node) == DSM_SHM_LINE, "node entry is one cache line");

typedef struct dsm_shm_geometry {
    uint64_t slot_size, node_offset, job_offset, queue_offset, queue_size, total_size;
} dsm_shm_geometry;

static inline uint64_t dsm_shm_round_up(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

/* Offsets and sizes for nnodes queues of slots slots of max_payload bytes.
 * 0, or -1 when the numbers are out of range or the size overflows. */
static inline int dsm_shm_geometry_compute(uint32_t nnodes, uint64_t max_payload, uint32_t slots,
                                           dsm_shm_geometry *g)
{
    if (nnodes < 1 || nnodes > DSM_SHM_MAX_NODES || slots < DSM_SHM_SLOTS_MIN ||
        slots > DSM_SHM_SLOTS_MAX || (slots & (slots - 1)) || max_payload > ((uint64_t)1 << 30))
        return -1;
    g->slot_size = dsm_shm_round_up(sizeof(dsm_shm_slot) + max_payload, DSM_SHM_LINE);
    if (g->slot_size > UINT32_MAX)
        return -1;
    g->node_offset = dsm_shm_round_up(sizeof(dsm_shm_header), DSM_SHM_LINE);
    g->job_offset =
        dsm_shm_round_up(g->node_offset + (uint64_t)nnodes * sizeof(dsm_shm_node), DSM_SHM_PAGE);
    g->queue_offset = g->job_offset + DSM_JOB_AREA_BYTES;
    g->queue_size =
        dsm_shm_round_up(sizeof(dsm_shm_queue) + (uint64_t)slots * g->slot_size, DSM_SHM_PAGE);
    /* 2^10 nodes * (2^16 slots * 2^31 bytes) stays below 2^63. */
    g->total_size = g->queue_offset + (uint64_t)nnodes * g->queue_size;
    if ((size_t)g->total_size != g->total_size)
        return -1;
    return 0;
}

/* Default capacity for a job: 256 slots, halved while the segment would be
 * larger than DSM_SHM_BUDGET, but never below DSM_SHM_SLOTS_FLOOR (the
 * overflow lists absorb bursts; a queue only needs to cover the usual number
 * of outstanding requests). */
static inline uint32_t dsm_shm_default_slots(uint32_t nnodes, uint64_t max_payload)
{
    uint64_t slot = dsm_shm_round_up(sizeof(dsm_shm_slot) + max_payload, DSM_SHM_LINE);
    uint32_t slots = DSM_SHM_SLOTS_DEFAULT;
    while (slots > DSM_SHM_SLOTS_FLOOR && (uint64_t)nnodes * slots * slot > DSM_SHM_BUDGET)
        slots /= 2;
    return slots;
}

/* Not part of transport.h: messages of this node still waiting in its
 * sender-side overflow lists (0 when everything sent is in the destination
 * rings).  Used by tests; close() flushes them before unmapping. */
unsigned dsm_transport_shm_pending(dsm_transport *t);

/* Not part of transport.h: open the transport on a segment made by another
 * than dsmrun (the mpi transport's, for the ranks of one host: mpi_shm.c),
 * given its descriptor, this node's number and the job's size.  NULL after
 * one line on stderr.  dsm_transport_shm_open reads them from dsmrun's
 * environment and calls it. */
dsm_transport *dsm_transport_shm_open_fd(int fd, int node, int nnodes, size_t max_payload);

/* Not part of transport.h: is a message at the head of this node's queue?
 * (Any thread may ask; the mpi transport's wait, which also watches MPI.) */
int dsm_transport_shm_ready(dsm_transport *t);

/* Not part of transport.h, for the mpi transport, whose wait also ends for
 * every waiting thread when its wake counter moved: wait as t->wait does,
 * but not when *word differs from seen (read after the futex word, which
 * t->wake moves after the caller moved *word: no wake-up is lost). */
void dsm_transport_shm_wait_word(dsm_transport *t, int timeout_ms, _Atomic uint32_t *word,
                                 uint32_t seen);

/* Fill a segment's header for geometry g (dsmrun, mpi_shm.c); the magic
 * is written last, so a half-initialised segment never looks valid. */
static inline void dsm_shm_header_fill(dsm_shm_header *h, uint32_t nnodes, uint64_t max_payload,
                                       uint32_t slots, const dsm_shm_geometry *g,
                                       uint64_t clock_base, int32_t launcher_pid)
{
    h->version = DSM_SHM_VERSION;
    h->nnodes = nnodes;
    h->max_payload = max_payload;
    h->slots = slots;
    h->slot_size = (uint32_t)g->slot_size;
    h->node_offset = g->node_offset;
    h->job_offset = g->job_offset;
    h->queue_offset = g->queue_offset;
    h->queue_size = g->queue_size;
    h->total_size = g->total_size;
    h->clock_base_ns = clock_base;
    h->launcher_pid = launcher_pid;
    atomic_thread_fence(memory_order_release);
    h->magic = DSM_SHM_MAGIC;
}

/* Not part of transport.h, for tests only: reserve a slot in dst's queue and
 * never write it, as a sender that dies in the middle of a send would; the
 * receiver must end the job (shm.c, watch_hole).  0, or -1 when the slot at
 * the tail is not free. */
int dsm_transport_shm_reserve_only(dsm_transport *t, int dst);

#endif
