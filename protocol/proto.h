/* proto.h - the coherence engine: a home-based directory protocol written as
 * explicit transition tables (one for the cache side of every node, one for
 * the directory side at each block's home).
 *
 * The engine is pure: it consumes events (a local access that faulted, an
 * incoming protocol message) and appends actions (send a message, change the
 * access rights of a block, install the data carried by the message being
 * handled, wake the threads waiting for a block).  The caller performs the
 * actions: the DSM runtime with real messages and mprotect, a simulated
 * machine with timed events, the exhaustive exploration test with modelled
 * channels.  No I/O, no threads, no clocks in here.
 *
 * Ordering assumption: messages between one pair of nodes are delivered in
 * the order they were sent (FIFO per pair).  All transports provide that.
 *
 * A dirty block is reached by recall through the home (4 hops): the home
 * asks the owner for the data, installs it, then answers the requester.
 * The owner keeps no copy, also when the request was a read (unless the
 * hardware option downgrade_on_read is on, below): a block that migrates
 * then has one sharer when its new user upgrades, which is what section 3.1
 * of the Xu/Larus/Miller paper relies on to see migration.  The
 * home serialises all requests for a block; requests that arrive while the
 * block is busy wait in a per-block FIFO at the home.  See doc/protocol.md.
 *
 * Forward progress: a grant that answers a fault is held (states SH, MH)
 * until the caller says the faulting access has retried (proto_release); an
 * INV or RECALL arriving meanwhile is deferred and replayed at the release.
 * Without it two writers of one block (or a home and a remote writer) can
 * take the block from each other between grant and retry forever.
 *
 * Messages a node sends to itself (the home's own accesses) never leave the
 * engine: they are queued inside it and handled before the call returns, and
 * they move no data (the home's memory is the node's memory), so no
 * PA_INSTALL is emitted for them.  PA_SEND actions always have dst != self.
 *
 * Hardware additions (simulated machines, protocol/sim/; the DSM runtime
 * uses none of them and behaves as without them).  Each is a proto_config
 * option, and the table entries that only its inputs can reach are refused
 * (PROTO_EREJECT) when it is off, so that the DSM's engine does not quietly
 * accept, say, an INV for a copy it never dropped:
 *  - evictions (proto_evict, proto_config.evictions): a cache that replaces a block in S drops it,
 *    silently or with a PUTS replacement hint to the home; in M (or E) it
 *    writes it back with PUTX (PUTE: clean, no data) and waits in MI for the
 *    home's PUT_ACK.  A silently dropped sharer may still be sent an INV,
 *    which it acknowledges in whatever state it is in by then (I, IS, IM).
 *  - exclusive-clean grant (proto_config.excl_clean): a read of an unowned
 *    block is answered DATA_E; the reader holds it in E (read access) and
 *    its first store upgrades silently to M.  The directory treats it as the
 *    owner (EXCL), so another reader recalls it.
 *  - three-hop interventions (proto_config.three_hop): see proto_config and
 *    doc/protocol.md, "Three-hop interventions".
 *  - downgrade on read (proto_config.downgrade_on_read): a read request at a
 *    block another node owns recalls it with RECALL_S instead of RECALL; the
 *    owner sends its data and keeps a read-only copy (M or E -> S, the held
 *    MH/EH defer it like a RECALL), and the home lists both the old owner and
 *    the reader as sharers.  The migratory rule of section 3.1 then sees two
 *    sharers at the new user's upgrade (augment.c and doc/patterns.md say how
 *    it counts them).
 * See doc/protocol.md, "Evictions and exclusive-clean" and "Downgrade on
 * read".
 */
#ifndef DSM_PROTO_H
#define DSM_PROTO_H

#include <stddef.h>
#include <stdint.h>

#include "sharers.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- cache side (every node, every block) ---- */
typedef enum proto_cache_state {
    PC_I,   /* invalid: no access */
    PC_S,   /* shared: read access */
    PC_M,   /* modified: read and write access, this node is the owner */
    PC_IS,  /* read miss in flight (GETS sent) */
    PC_IM,  /* write miss in flight (GETX sent, or UPGRADE overtaken by an INV) */
    PC_SM,  /* upgrade in flight (UPGRADE sent), still readable */
    PC_SH,  /* shared, held: just granted, the faulting access has not retried yet */
    PC_MH,  /* modified, held: just granted, the faulting access has not retried yet */
    PC_E,   /* exclusive clean (excl_clean): read access, the owner; a store makes it M */
    PC_EH,  /* exclusive clean, held: just granted, the faulting access has not retried yet */
    PC_MI,  /* writeback in flight (PUTX or PUTE sent after an eviction): no access */
    PC_NSTATES
} proto_cache_state;

typedef enum proto_cache_event {
    CE_LOAD,        /* local read fault */
    CE_STORE,       /* local write fault */
    CE_DATA_S,      /* read grant with data */
    CE_DATA_X,      /* write grant with data */
    CE_UPGRADE_ACK, /* write grant, the local copy is current */
    CE_INV,         /* home invalidates this sharer */
    CE_RECALL,      /* home recalls the dirty copy; the owner keeps nothing */
    CE_RELEASE,     /* the faulting access retried: a held grant may be taken away */
    CE_EVICT,       /* the local cache replaces the block (proto_evict) */
    CE_DATA_E,      /* exclusive-clean read grant with data (excl_clean) */
    CE_PUT_ACK,     /* the home took the written-back (or clean) evicted copy */
    CE_RECALL_S,    /* home recalls the dirty copy for a reader (downgrade_on_read): the
                       owner keeps a read-only copy */
    /* the adaptive protocol (proto_config.adapt; proto_epoch_end) */
    CE_EPOCH_PUSH,  /* this node's epoch ended (a release): a producer-consumer block it
                       writes is sent home and on to its consumers; it keeps a read copy */
    CE_EPOCH_FLUSH, /* this node's epoch ended: a migratory block it owns goes home */
    CE_PUSH_DATA,   /* the home pushes a read copy the node did not ask for */
    CE_GROUP_DATA,  /* the home sends a read copy of a block of the group whose read miss
                       it is serving (bulk fetch), along with the missed block's DATA_S */
    /* three-hop interventions (three_hop) */
    CE_FWD_GETS,    /* the home forwards a read request to this owner */
    CE_FWD_GETX,    /* the home forwards a write request to this owner */
    CE_FWD_DATA_S,  /* read grant with data, straight from the previous owner */
    CE_FWD_DATA_X,  /* write grant with data, straight from the previous owner */
    /* the adaptive protocol again (after the three-hop events: the numbers
     * of the others stay) */
    CE_GROUP_SHARE, /* the home grants a block it owns itself to a read of its group (the
                       missed block or one brought along): its own copy becomes a read copy,
                       as its own RECALL_S would make it, without the message to itself */
    CE_NEVENTS
} proto_cache_event;

/* ---- directory side (at the home of a block) ---- */
typedef enum proto_dir_state {
    PD_UNOWNED,     /* no node holds a copy; home memory is current */
    PD_SHARED,      /* one or more read-only copies; home memory is current */
    PD_EXCL,        /* one owner with write access; home memory may be stale */
    PD_BUSY_INV,    /* waiting for invalidation acks before a write grant */
    PD_BUSY_RECALL, /* waiting for the owner's data before a grant */
    PD_NSTATES
} proto_dir_state;

/* Directory events are messages refined by the directory's contents, the way
 * SLICC triggers events, so that every table entry has one action list and
 * one next state. */
typedef enum proto_dir_event {
    DE_GETS,             /* read request */
    DE_GETX,             /* write request from a node without a copy */
    DE_UPGRADE_SOLE,     /* upgrade; the requester is the only sharer */
    DE_UPGRADE_OTHERS,   /* upgrade; other sharers must be invalidated */
    DE_UPGRADE_STALE,    /* upgrade from a node no longer a sharer: a GETX */
    DE_INV_ACK_MORE,     /* invalidation ack, more to come */
    DE_INV_ACK_LAST_X,   /* last ack; the requester needs the data */
    DE_INV_ACK_LAST_UPG, /* last ack; the requester kept its copy (upgrade) */
    DE_WB_DATA_S,        /* the recalled owner's data, for a read request */
    DE_WB_DATA_X,        /* the recalled owner's data, for a write request */
    DE_GETS_EXCL_CLEAN,  /* read request at an unowned block, excl_clean on */
    DE_PUTS_LAST,        /* replacement hint from the only sharer */
    DE_PUTS_MORE,        /* replacement hint from one of several sharers */
    DE_PUTS_STALE,       /* replacement hint from a node no longer a sharer */
    DE_PUTX_OWNER,       /* dirty eviction by the owner, no recall in progress */
    DE_PUTE_OWNER,       /* clean eviction by the exclusive-clean owner */
    DE_PUTX_RECALLED_S,  /* PUTX crossed a recall made for a read request */
    DE_PUTX_RECALLED_X,  /* PUTX crossed a recall made for a write request */
    DE_PUTE_RECALLED_S,  /* PUTE crossed a recall made for a read request */
    DE_PUTE_RECALLED_X,  /* PUTE crossed a recall made for a write request */
    DE_GETS_DOWNGRADE,   /* read request at an owned block, downgrade_on_read on */
    DE_WB_DATA_SHARED,   /* the downgraded owner's data, for a read request: both share */
    /* the adaptive protocol (proto_config.adapt) */
    DE_GETS_MIGRATORY,   /* read request for a block detected migratory, unowned or owned
                            by another node: granted exclusive (DATA_X) */
    DE_PUSH,             /* the owner's pushed copy: it and the consumers share the block */
    DE_PUSH_RECALLED,    /* a push that crossed a recall: the owner answers the recall too */
    DE_FLUSH,            /* the owner's flushed copy: the block is unowned */
    DE_FLUSH_RECALLED_S, /* a flush that crossed a recall for a read request */
    DE_FLUSH_RECALLED_X, /* a flush that crossed a recall for a write request */
    DE_GETS_GROUP,       /* read request from another node for a block of a detected group
                            that the home can grant at once (shared, unowned, or owned by
                            the home itself with a settled M copy): the group's other
                            blocks the home can grant at once go along (DE_GROUP_MEMBER) */
    DE_GROUP_MEMBER,     /* another block of that group, the requester not listed, shared,
                            unowned or owned by the home itself (settled M): granted along
                            (GROUP_DATA); the blocks not so are left out */
    /* three-hop interventions (proto_config.three_hop) */
    DE_GETS_FWD,         /* read request at an owned block: forwarded to the owner */
    DE_GETX_FWD,         /* write request (or stale upgrade) at an owned block: forwarded */
    DE_SHWB,             /* the reader served by the owner: sharing write-back */
    DE_XFER,             /* the writer served by the owner: ownership transfer */
    DE_NEVENTS
} proto_dir_event;

/* ---- messages ---- */
typedef enum proto_msg_type {
    PM_GETS = 1,    /* cache -> home */
    PM_GETX,        /* cache -> home */
    PM_UPGRADE,     /* cache -> home */
    PM_DATA_S,      /* home -> cache, carries data */
    PM_DATA_X,      /* home -> cache, carries data */
    PM_UPGRADE_ACK, /* home -> cache */
    PM_INV,         /* home -> sharer */
    PM_INV_ACK,     /* sharer -> home */
    PM_RECALL,      /* home -> owner: send the data back, keep no copy */
    PM_WB_DATA,     /* owner -> home, carries data */
    PM_PUTS,        /* sharer -> home: replacement hint (clean copy dropped) */
    PM_PUTX,        /* owner -> home: eviction of a dirty copy, carries data */
    PM_PUTE,        /* exclusive-clean owner -> home: eviction, no data */
    PM_PUT_ACK,     /* home -> evicting owner: the writeback is done */
    PM_DATA_E,      /* home -> cache: exclusive-clean read grant, carries data */
    PM_RECALL_S,    /* home -> owner (downgrade_on_read): send the data back, keep a
                       read-only copy */
    PM_PUSH,        /* owner -> home (adapt): the data at the end of the owner's epoch; it
                       keeps a read copy, the home forwards it to the consumers */
    PM_FLUSH,       /* owner -> home (adapt): the data at the end of the owner's epoch; it
                       keeps nothing */
    PM_PUSH_DATA,   /* home -> consumer (adapt): a read copy it did not ask for */
    PM_FWD_GETS,    /* home -> owner (three_hop): a read request, answer it (req) */
    PM_FWD_GETX,    /* home -> owner (three_hop): a write request, answer it (req) */
    PM_FWD_DATA_S,  /* owner -> requester: read grant, carries data */
    PM_FWD_DATA_X,  /* owner -> requester: write grant, carries data */
    PM_SHWB,        /* requester -> home: sharing write-back of the line the owner sent,
                       carries data */
    PM_XFER,        /* requester -> home: the owner handed it the line (no data) */
    PM_GROUP_DATA,  /* home -> requester (adapt): a read copy of another block of the group
                       whose read miss the home serves (bulk fetch), carries data */
    PM_NTYPES       /* 27: message types fit in 5 bits (tests/explore relies on it) */
} proto_msg_type;

typedef struct proto_msg {
    uint8_t type;     /* proto_msg_type */
    int32_t src;
    int32_t dst;
    uint32_t block;
    uint8_t flags;    /* PROTO_MSG_*: what the request tells the augmentation */
    uint16_t req;     /* FWD_GETS/FWD_GETX: the requester the owner answers */
} proto_msg;

/* A write request (GETX, UPGRADE) whose access also reads the block (a
 * read-modify-write instruction, an atomic): the migratory rule needs the
 * new owner's read.  Meaningless to the protocol itself. */
#define PROTO_MSG_READS 1
/* On a WB_DATA (adaptive protocol): the owner's copy equals what the home
 * sent it, so a reader granted exclusive did not write (the runtime compares
 * the data; the engine never sees data).  The block falls back to shared
 * grants. */
#define PROTO_MSG_CLEAN 2
/* On a write grant (DATA_X, UPGRADE_ACK; adaptive protocol): at the end of
 * its epoch (proto_epoch_end) the new owner pushes the block to the home,
 * which forwards it to the block's last consumers (a producer-consumer
 * block), or flushes it home (a migratory block). */
#define PROTO_MSG_PUSH 4
#define PROTO_MSG_FLUSH 8

/* Access rights of the application's view of a block. */
enum { PROTO_ACCESS_NONE = 0, PROTO_ACCESS_READ = 1, PROTO_ACCESS_WRITE = 2 };

typedef enum proto_action_kind {
    PA_SEND,        /* send msg; data messages carry the local copy of the block */
    PA_SET_ACCESS,  /* set the application's access to the block */
    PA_INSTALL,     /* copy the data of the message being handled into local memory */
    PA_COMPLETE,    /* the block's request is done: wake its waiting threads */
    PA_WAIT         /* the access joins a request in flight: wait for its COMPLETE */
} proto_action_kind;

typedef struct proto_action {
    uint8_t kind;     /* proto_action_kind */
    uint8_t access;   /* PA_SET_ACCESS */
    uint32_t block;
    proto_msg msg;    /* PA_SEND */
} proto_action;

/* Growable action list owned by the caller; the engine appends. */
typedef struct proto_actions {
    proto_action *v;
    size_t n, cap;
} proto_actions;

void proto_actions_init(proto_actions *a);
void proto_actions_free(proto_actions *a);

/* Errors returned by the engine (negative). */
enum {
    PROTO_OK = 0,
    PROTO_EREJECT = -1,  /* (state, event) pair outside the table: a protocol bug */
    PROTO_EINVAL = -2,   /* bad block number, node id or message type */
    PROTO_ENOMEM = -3
};

typedef struct proto_config {
    int self;          /* this node */
    int nnodes;        /* 1 .. PROTO_MAX_NODES */
    uint32_t nblocks;  /* blocks in the shared region */
    /* Hardware options; zero/NULL is the DSM runtime's protocol.  Every node
     * of a machine must be given the same values. */
    int evictions;          /* the cache replaces blocks (proto_evict); 0: proto_evict and
                               the INVs a dropped copy may still get are refused */
    int replacement_hints;  /* an eviction from S sends PUTS to the home (with evictions) */
    int excl_clean;         /* a read of an unowned block is granted in E */
    int downgrade_on_read;  /* a read of a block owned elsewhere leaves the owner a
                               read-only copy (M/E -> S, RECALL_S), as MSI/MESI
                               hardware does; 0: the owner keeps nothing */
    int adapt;              /* the adaptive protocol: a read of a block the augmentation
                               detected migratory is granted exclusive, one detected
                               producer-consumer downgrades its producer (RECALL_S)
                               rather than recalling it (needs the augmentation on;
                               doc/patterns.md) */
    unsigned prefetch;      /* with adapt: a read of a block the home can grant at once
                               and whose group is not known brings along the next
                               prefetch - 1 blocks of this home it can grant at once (the
                               group's GROUP_DATA), as ArgoDSM's cold fetch of several pages
                               does; 0 or 1: off (at most PROTO_PREFETCH_MAX) */
    int three_hop;          /* three-hop interventions (the SGI Origin's): a request at an
                               owned block is forwarded to the owner (FWD_GETS/FWD_GETX),
                               which answers the requester itself (FWD_DATA_S/FWD_DATA_X);
                               the requester then tells the home (SHWB with the line /
                               XFER).  Not with downgrade_on_read or adapt (their owner
                               recalls go through the home) */
    const dsm_sharers_ops *sharers_ops; /* directory sharer sets; NULL: bit vector */
} proto_config;

#define PROTO_MAX_NODES 65536
#define PROTO_PREFETCH_MAX 64

typedef struct proto_engine proto_engine;

proto_engine *proto_engine_create(const proto_config *cfg);
/* As proto_engine_create, but the new engine shares the home table of
 * `homes_from` (NULL: a table of its own), as the engines of one simulated
 * machine can: proto_set_home on any of them sets the homes of all.  The
 * configurations must agree on nblocks and nnodes (else NULL).  The table
 * is freed with the last engine using it; engines sharing a table are
 * created, destroyed and given homes from one thread.  Saves the machine
 * 4 bytes per block per engine. */
proto_engine *proto_engine_create_shared(const proto_config *cfg, proto_engine *homes_from);
void proto_engine_destroy(proto_engine *e);
/* Bytes the engine has allocated (its chunks of per-block state, directory
 * entries, queues), for reports and memory tests; *home_table_bytes (if not
 * NULL) gets the size of its home table, which may be shared and is not in
 * the result. */
size_t proto_engine_footprint(const proto_engine *e, size_t *home_table_bytes);

/* Homes: every node must be told the same homes for the same blocks (a
 * shared home table is told once).  proto_engine_load restores the homes
 * too, into a shared table as well. */
int proto_set_home(proto_engine *e, uint32_t first_block, uint32_t count, int home);
int proto_home(const proto_engine *e, uint32_t block);

/* A local access to `block` faulted (or must be checked).  is_write: 0 a
 * read, non-zero a write; PROTO_WRITE_READS: a write that also reads the
 * block (its request carries PROTO_MSG_READS). */
#define PROTO_WRITE_READS 2
int proto_access(proto_engine *e, uint32_t block, int is_write, proto_actions *out);
/* A message arrived for this node (m->dst == self). */
int proto_receive(proto_engine *e, const proto_msg *m, proto_actions *out);
/* The access that faulted on block has been retried: end the hold of its
 * grant (replaying a deferred INV/RECALL).  Harmless when nothing is held. */
int proto_release(proto_engine *e, uint32_t block, proto_actions *out);
/* The local cache replaces the block (a simulated cache chose it as its
 * victim).  Only with proto_config.evictions, and valid in S, E and M only:
 * the caller never evicts a block with a request or a writeback in flight,
 * nor a held grant (PROTO_EREJECT).  From
 * S the block goes to I (PUTS to the home with replacement_hints); from M and
 * E to MI (PUTX with the data / PUTE) until the home's PUT_ACK. */
int proto_evict(proto_engine *e, uint32_t block, proto_actions *out);
/* Is the block in a state where no request (or writeback) is in flight? */
static inline int proto_cache_settled(proto_cache_state s)
{
    return s != PC_IS && s != PC_IM && s != PC_SM && s != PC_MI;
}
/* Is the block held (SH, MH, EH): granted, its faulting access not retried? */
static inline int proto_cache_held(proto_cache_state s)
{
    return s == PC_SH || s == PC_MH || s == PC_EH;
}

/* Read-only views, for the runtime's fast paths, tests and reports. */
proto_cache_state proto_cache_state_of(const proto_engine *e, uint32_t block);
proto_dir_state proto_dir_state_of(const proto_engine *e, uint32_t block);
/* Sharers / owner recorded at the home (valid at the home only). */
const dsm_sharers *proto_dir_sharers(const proto_engine *e, uint32_t block);
int proto_dir_owner(const proto_engine *e, uint32_t block);
/* Error detail of the last rejected event, for a clear message. */
const char *proto_last_error(const proto_engine *e);

/* ---- augmentation: sharing-pattern detection at the home (section 3.1) ----
 * Observationally inert: it reads the directory and writes only its own
 * fields, so the engine emits the same actions with it on or off. */
typedef enum proto_pattern {
    PP_NONE,
    PP_MIGRATORY,
    PP_PRODUCER_CONSUMER,
    PP_GROUP,           /* a co-access pattern, not a sharing pattern: never a block's
                           sharing pattern (doc/patterns.md) */
    PP_READ_ONLY,
    PP_PRIVATE,         /* sharing pattern only (no detections): one node requested it */
    PP_WRITE_SHARED,    /* sharing pattern only: written and shared, no pattern above */
    PP_NPATTERNS
} proto_pattern;

typedef struct proto_block_patterns {
    uint32_t detections[PP_NPATTERNS]; /* times each pattern was detected ([PP_NONE],
                                          [PP_PRIVATE], [PP_WRITE_SHARED] unused);
                                          [PP_GROUP]: requests that followed the block's
                                          guess (fetched together with it) */
    int32_t last_owner;                /* -1: none yet */
    int32_t group_id;                  /* block number naming the block's group, -1: none */
    int32_t guess;                     /* Figure 2's guess: the block expected before it, or -1 */
    uint8_t migratory, producer_consumer, access_in_group, read_only; /* current flags */
    uint32_t requests;                 /* requests the home saw for the block */
    uint8_t requesters;                /* distinct requesting nodes, saturating at 2 */
    uint8_t writers;                   /* distinct nodes that made write requests, at most 2 */
} proto_block_patterns;

/* The adaptive protocol's work at this home so far: reads granted
 * exclusive (each saves the upgrade that would have followed), reads
 * that fell back to a shared grant (the reader granted exclusive before
 * had not written), and downgrades of producers.  Counts of the run, not
 * kept in snapshots. */
typedef struct proto_adapt_counts {
    uint64_t exclusive_reads, fallbacks;
    uint64_t downgrades; /* reads of producer-consumer blocks that left the producer a
                            read copy (RECALL_S) instead of recalling it */
    uint64_t pushes;     /* producers' pushes served (DE_PUSH) */
    uint64_t pushed;     /* copies pushed to consumers (each a read miss spared if read) */
    uint64_t flushes;    /* migratory blocks flushed home at an epoch's end (DE_FLUSH) */
    uint64_t bulk_fetches; /* read misses of a group's blocks that brought other blocks of
                              the group along (DE_GETS_GROUP with at least one member) */
    uint64_t bulk_copies;  /* copies those bulk fetches sent (GROUP_DATA): each a read miss
                              spared if the requester reads it before it changes */
} proto_adapt_counts;
void proto_adapt_counts_of(const proto_engine *e, proto_adapt_counts *out);
/* Turns the adaptive protocol on or off in a running engine (a benchmark
 * alternating both in one run); only while no request is in flight
 * anywhere (between barriers), on every node alike. */
void proto_set_adapt(proto_engine *e, int on);
/* The end of this node's epoch (a release: unlock, barrier), adaptive
 * protocol: every block granted with PROTO_MSG_PUSH or PROTO_MSG_FLUSH since
 * the last call and still owned and modified is pushed or flushed home
 * (CE_EPOCH_PUSH, CE_EPOCH_FLUSH), if `kinds` asks for it; the other notes
 * are forgotten (the block stays where it is).  The runtime flushes at a
 * lock's release only: a migratory block is a lock-protected record, and at
 * a barrier the writer often goes on using its blocks.
 * proto_epoch_pending: how many notes wait; proto_epoch_pending_of: how
 * many of the given kinds. */
enum { PROTO_EPOCH_PUSH = 1, PROTO_EPOCH_FLUSH = 2 };
int proto_epoch_end(proto_engine *e, int kinds, proto_actions *out);
uint32_t proto_epoch_pending(const proto_engine *e);
uint32_t proto_epoch_pending_of(const proto_engine *e, int kinds);

/* On by default; off: the engine keeps no pattern state and spends nothing. */
void proto_set_augment(proto_engine *e, int on);
int proto_augment_enabled(const proto_engine *e);
/* The block's pattern record (meaningful at its home); 0, or PROTO_EINVAL. */
int proto_patterns_of(const proto_engine *e, uint32_t block, proto_block_patterns *out);
/* The dominant detected sharing pattern of a block from its detection
 * counts: migratory or producer-consumer, whichever was detected more often
 * (migratory on a tie), else read-only when detected; PP_NONE when none of
 * them was.  The group count never takes part: being fetched together says
 * nothing about who shares a block. */
proto_pattern proto_dominant_pattern(const uint32_t detections[PP_NPATTERNS]);
/* The sharing pattern of a block from its record: the dominant detected
 * pattern, else PP_PRIVATE (one node requested it), PP_WRITE_SHARED
 * (several nodes, written), PP_NONE (no request seen). */
proto_pattern proto_sharing_pattern(const proto_block_patterns *p);
/* "none", "migratory", "producer_consumer", "group", "read_only", "private", "write_shared" */
const char *proto_pattern_name(int p);

/* Messages this engine sent to itself so far (they never leave it): the
 * caller attributes the difference around a call to the call's block. */
uint64_t proto_self_messages(const proto_engine *e);

/* Blocks whose INV or RECALL waits for the end of a hold: while there are
 * any, somebody must be there to end the holds (the runtime's progress
 * thread), or the requester waits. */
uint32_t proto_deferred_messages(const proto_engine *e);

/* Observation hook: called with side 0 (cache) or 1 (directory), the state
 * and the table event of every entry the engine applies, before its steps.
 * For instrumentation (the runtime's counters) and tests; NULL: none. */
typedef void (*proto_trace_fn)(void *arg, int side, int state, int event);
void proto_engine_set_trace(proto_engine *e, proto_trace_fn fn, void *arg);

/* Snapshot of all mutable state (for exhaustive exploration and checkpoints):
 * proto_engine_save returns the number of bytes needed / written. */
size_t proto_engine_save(const proto_engine *e, void *buf, size_t cap);
int proto_engine_load(proto_engine *e, const void *buf, size_t len);

/* Names, for reports, errors and the generated table in doc/. */
const char *proto_cache_state_name(int s);
const char *proto_cache_event_name(int ev);
const char *proto_dir_state_name(int s);
const char *proto_dir_event_name(int ev);
const char *proto_msg_name(int type);
int proto_msg_has_data(int type);

/* The transition tables themselves, exported for documentation and tests.
 * An entry with valid == 0 is rejected on purpose.  A valid entry whose
 * `needs` names an option the engine was created without is rejected too:
 * only that option's inputs (an eviction, a PUTS, a DATA_E, a RECALL_S) can
 * bring the pair about. */
#define PROTO_MAX_STEPS 6
enum {
    PROTO_NEEDS_EVICTIONS = 1,  /* proto_config.evictions */
    PROTO_NEEDS_HINTS = 2,      /* proto_config.replacement_hints */
    PROTO_NEEDS_EXCL_CLEAN = 4, /* proto_config.excl_clean */
    PROTO_NEEDS_DOWNGRADE = 8,  /* proto_config.downgrade_on_read */
    PROTO_NEEDS_ADAPT = 16,     /* proto_config.adapt */
    PROTO_NEEDS_THREE_HOP = 32  /* proto_config.three_hop */
};
typedef struct proto_table_entry {
    uint8_t valid;
    uint8_t next;                       /* next state */
    uint8_t steps[PROTO_MAX_STEPS];     /* action steps, 0-terminated */
    const char *why;                    /* for rejected pairs: why it cannot happen */
    uint8_t needs;                      /* PROTO_NEEDS_* the entry is valid with only */
    uint8_t or_needs;                   /* non-zero: valid with these options too */
} proto_table_entry;

extern const proto_table_entry proto_cache_table[PC_NSTATES][CE_NEVENTS];
extern const proto_table_entry proto_dir_table[PD_NSTATES][DE_NEVENTS];
const char *proto_step_name(int step);
/* The options of a `needs` mask, as "evictions, replacement_hints", for
 * errors and the generated table ("" for none). */
const char *proto_needs_name(int needs);

#ifdef __cplusplus
}
#endif
#endif
