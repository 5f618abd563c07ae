/* engine_internal.h - what the transition tables and the engine that runs
 * them share: the action steps an entry may list and the directory entry. */
#ifndef DSM_ENGINE_INTERNAL_H
#define DSM_ENGINE_INTERNAL_H

#include "proto.h"

/* Action steps.  Cache-side steps act on the local copy; directory steps on
 * the directory entry at the home, for the request being served ("req"). */
enum proto_step {
    ST_END = 0,
    /* cache side */
    ST_SEND_GETS,       /* request a read copy from the home */
    ST_SEND_GETX,       /* request a writable copy from the home */
    ST_SEND_UPGRADE,    /* ask the home for write access to the read copy */
    ST_SEND_INV_ACK,    /* acknowledge an invalidation to the home */
    ST_SEND_WB_DATA,    /* send the dirty copy back to the home */
    ST_ACCESS_NONE,
    ST_ACCESS_READ,
    ST_ACCESS_WRITE,
    ST_INSTALL,         /* take the data carried by the message */
    ST_COMPLETE,        /* the block's request is done: wake waiters */
    ST_WAIT,            /* the faulting access waits for the request in flight */
    ST_DEFER,           /* keep the message until the hold ends */
    ST_REPLAY,          /* handle the deferred message, if any, in the new state */
    ST_SEND_PUTS_IF_HINTS, /* with replacement hints: tell the home a clean copy is gone */
    ST_SEND_PUTX,       /* write the evicted dirty copy back to the home */
    ST_SEND_PUTE,       /* tell the home the exclusive-clean copy is gone (no data) */
    /* directory side */
    ST_D_DATA_S,        /* send a read copy to req */
    ST_D_DATA_X,        /* send a writable copy to req */
    ST_D_UPGRADE_ACK,   /* grant write access to req, which holds the data */
    ST_D_ADD_SHARER,    /* sharers += req */
    ST_D_OWNER_REQ,     /* owner = req, sharers = {} */
    ST_D_INV_OTHERS,    /* INV to every sharer but req; acks = their number */
    ST_D_INV_ALL,       /* INV to every sharer (req holds no copy) */
    ST_D_RECALL,        /* ask the owner for its data; it keeps no copy */
    ST_D_PENDING_S,     /* remember req; grant a read copy when the data is back */
    ST_D_PENDING_X,     /* remember req; grant a writable copy when acks/data are in */
    ST_D_PENDING_UPG,   /* remember req; grant the upgrade when the acks are in */
    ST_D_QUEUE,         /* the block is busy: req waits in the home's FIFO */
    ST_D_ACK,           /* one invalidation ack in: its sender leaves the sharers */
    ST_D_INSTALL,       /* take the owner's data into home memory */
    ST_D_GRANT_DATA_X,  /* DATA_X to the pending requester, which becomes owner */
    ST_D_GRANT_UPG,     /* UPGRADE_ACK to the pending requester, which becomes owner */
    ST_D_GRANT_DATA_S,  /* DATA_S to the pending requester, the only sharer */
    ST_D_DATA_E,        /* send an exclusive-clean copy to req */
    ST_D_REMOVE_SHARER, /* sharers -= req (its replacement hint) */
    ST_D_OWNER_NONE,    /* owner := none (the owner evicted the block) */
    ST_D_PUT_ACK,       /* acknowledge req's writeback (PUT_ACK) */
    ST_D_RECALL_S,      /* ask the owner for its data; it keeps a read copy (downgrade) */
    ST_D_PENDING_SHARED, /* remember req; grant a read copy when the data is back, the
                            downgraded owner staying a sharer */
    ST_D_GRANT_DATA_S_SHARED, /* DATA_S to the pending requester, sharers := {owner, pending} */
    /* the adaptive protocol */
    ST_SEND_PUSH,       /* send the copy home, keeping a read copy (PUSH) */
    ST_SEND_FLUSH,      /* send the copy home, keeping nothing (FLUSH) */
    ST_D_PUSH_CONSUMERS, /* sharers := {owner} + the last consumers, owner := none, and
                            PUSH_DATA to each consumer */
    ST_D_GROUP_BULK,    /* each other block of req's detected group that the home can grant
                           at once (shared and not req's, unowned, or the home's own M
                           copy): its DE_GROUP_MEMBER entry */
    ST_D_GROUP_DATA,    /* send GROUP_DATA (a read copy of this block) to req */
    /* three-hop interventions (three_hop) */
    ST_SEND_FWD_DATA_S, /* owner: send a read copy to the forwarded request's requester */
    ST_SEND_FWD_DATA_X, /* owner: send the line, and ownership, to the requester */
    ST_SEND_SHWB,       /* requester: send the line the owner sent to the home */
    ST_SEND_XFER,       /* requester: tell the home the owner handed it the line */
    ST_D_FWD_S,         /* forward req's read request to the owner */
    ST_D_FWD_X,         /* forward req's write request to the owner */
    ST_D_SHARE_OWNER,   /* sharers := {owner, pending}: the owner kept a read copy */
    ST_D_OWNER_PENDING, /* owner := pending, sharers := {} */
    /* the adaptive protocol again (the numbers of the others stay) */
    ST_D_HOME_SHARE,    /* a block the home owns itself: its own copy becomes a read copy
                           (CE_GROUP_SHARE), sharers := {home}, owner := none */
    ST_NSTEPS
};

/* What the pending requester of a busy block gets.  GRANT_S_SHARED: a read
 * copy, and the recalled owner keeps one too (downgrade_on_read). */
enum dir_grant { GRANT_NONE, GRANT_S, GRANT_X, GRANT_UPG, GRANT_S_SHARED };

typedef struct dir_waiter {
    int32_t node;
    uint8_t type; /* proto_msg_type of the waiting request, | DIR_WAITER_READS */
} dir_waiter;
/* In a waiter's type: the request carried PROTO_MSG_READS (types fit in 5 bits). */
#define DIR_WAITER_READS 0x80

/* Augmentation fields of a directory entry (augment.c; section 3.1). */
typedef struct dir_aug {
    proto_block_patterns pat;
    int32_t first_node;     /* the first requester (the initialiser), -1 */
    int32_t first_writer;   /* the first node that made a write request, -1 */
    uint8_t reading;        /* the first write epoch is over: another node read */
    uint8_t written_after;  /* written after reads began: not read-only */
    uint8_t adapt;          /* the adaptive protocol's ADAPT_* bits */
    uint32_t consumers;     /* the nodes (0..31) the producer's last write invalidated,
                               while the block is producer-consumer: where a push goes
                               (32 bits keep the record within its 72 bytes) */
    int32_t next;           /* group: the block seen to follow this one (the last block
                               whose guess this one confirmed), -1; the adaptive protocol's
                               bulk fetch walks these links (adapt_group_next) */
} dir_aug;
/* ADAPT_* bits of a record: the owner got the block by a read granted
 * exclusive; the owner being recalled had; the pending read is granted
 * exclusive when the owner's data is back; the block was flushed home and
 * not requested since; its flusher was the next to request it (the flush
 * was wasted: no more flushes until another node takes the block over by
 * a recall) (augment.c). */
enum { ADAPT_OWNED = 1, ADAPT_RECALLED_OWNED = 2, ADAPT_PENDING = 4, ADAPT_FLUSHED = 8,
       ADAPT_NOFLUSH = 16 };

/* The FIFO of requests that arrived while a block was busy: a ring of cap
 * waiters, allocated at the first such request (most blocks never have one,
 * so the entry keeps only the pointer). */
typedef struct dir_queue {
    uint32_t head, len, cap;
    dir_waiter w[];
} dir_queue;

/* A block's directory entry at its home: what the protocol needs, and
 * nothing else, so that it is small (56 bytes with the bit vector of up to
 * DSM_SHARERS_INLINE_NODES nodes inside it) and the entries of neighbouring
 * blocks sit side by side in their chunk (dir_chunk).  The augmentation's
 * fields are in the chunk's separate array, allocated only when the
 * augmentation runs. */
typedef struct dir_entry {
    uint8_t state;      /* proto_dir_state */
    uint8_t grant;      /* busy states: what the pending requester gets (dir_grant) */
    uint8_t present;    /* created: the home has seen a message for the block */
    int32_t owner;      /* PD_EXCL and PD_BUSY_RECALL: the node with the dirty copy */
    int32_t pending;    /* busy states: the requester being served */
    int32_t acks;       /* PD_BUSY_INV: acks still expected */
    dir_queue *q;       /* requests that arrived while busy; NULL: none yet */
    dsm_sharers sharers;
} dir_entry;

/* Directory entries come in chunks of DIR_CHUNK consecutive blocks, the
 * entries inline: one allocation per chunk, and reaching a block's entry is
 * one load of the chunk pointer.  Small chunks, so that a home whose blocks
 * are pages spread round robin (a simulated machine's placement: 4 KiB pages
 * are 128 blocks of 32 B) allocates entries for its own pages only.  An
 * entry not yet created is all zeros (present == 0). */
#define DIR_CHUNK_SHIFT 6
#define DIR_CHUNK (1u << DIR_CHUNK_SHIFT)
typedef struct dir_chunk {
    dir_aug *aug;       /* DIR_CHUNK augmentation records, or NULL: the
                           augmentation has not served a block of the chunk */
    dir_entry entry[DIR_CHUNK];
} dir_chunk;

struct proto_engine {
    int self, nnodes;
    uint32_t nblocks;
    int evictions;          /* proto_config options, fixed at creation */
    int replacement_hints;
    int excl_clean;
    int downgrade_on_read;
    int adapt;              /* the adaptive protocol (proto_config.adapt) */
    int three_hop;          /* three-hop interventions (proto_config.three_hop) */
    unsigned prefetch;      /* proto_config.prefetch, with adapt only */
    int32_t fwd_req;        /* the requester of the forwarded request being handled */
    /* Forwarded requests deferred by a hold keep their requester here: a
     * few at most (one per held block), so a short list beside the chunks'
     * deferred types rather than a field per block. */
    struct deferred_fwd { uint32_t block; int32_t req; } *dfwd;
    size_t ndfwd, dfwd_cap;
    proto_adapt_counts adapt_counts;
    int opts;               /* the same as PROTO_NEEDS_* bits: the table entries allowed */
    const dsm_sharers_ops *sharers_ops;
    /* Per-block storage, cheap where blocks are never used (a simulated
     * machine runs one engine per processor over a region of millions of
     * blocks): the home table may be shared by the engines of one machine;
     * cache states live in chunks, every chunk of untouched blocks being one
     * shared read-only chunk of zeros (PC_I, nothing deferred); directory
     * entries live in small chunks allocated at the home on first use. */
    struct home_table *homes; /* the home table, maybe shared (refcounted) */
    int32_t *home1;         /* homes->home: per block, home + 1; 0: not allocated */
    struct cache_chunk **cchunk; /* per CACHE_CHUNK blocks; never NULL */
    dir_chunk **dchunk;     /* per DIR_CHUNK blocks: NULL, or the chunk */
    proto_msg *selfq;       /* messages to self, handled before returning */
    size_t selfq_head, selfq_len, selfq_cap;
    proto_trace_fn trace;   /* test hook: every table entry applied */
    void *trace_arg;
    int augment;            /* pattern detection on */
    int32_t *last_accessed; /* augmentation: per requesting node, the block of
                               this home it requested last (-1) */
    uint64_t self_msgs;     /* messages sent to self so far */
    uint8_t req_flags;      /* PROTO_MSG_* of the access being handled (proto_access) */
    uint8_t bulk_seq;       /* the GETS(group) being served walks the next blocks (a
                               prefetch), not the group's links: decided when classified,
                               before the request's own detection step changes the links */
    uint8_t grant_flags;    /* PROTO_MSG_PUSH/FLUSH of the write grant being sent */
    uint32_t ndeferred;     /* blocks with a message deferred by a hold */
    /* the adaptive protocol: blocks granted with PROTO_MSG_PUSH/FLUSH, to push
     * or flush at the end of this node's epoch (proto_epoch_end) */
    struct epoch_entry { uint32_t block; uint8_t flush; } *epoch;
    uint32_t epoch_n, epoch_cap;
    char err[256];
};

/* Cache-side state of CACHE_CHUNK consecutive blocks. */
#define CACHE_CHUNK_SHIFT 12
#define CACHE_CHUNK (1u << CACHE_CHUNK_SHIFT)
typedef struct cache_chunk {
    uint8_t cstate[CACHE_CHUNK];   /* proto_cache_state */
    uint8_t deferred[CACHE_CHUNK]; /* message type deferred while held, or 0 */
} cache_chunk;
/* The directory entry of `block` if it was created, or NULL. */
static inline dir_entry *engine_dir_at(const proto_engine *e, uint32_t block)
{
    dir_chunk *c = e->dchunk[block >> DIR_CHUNK_SHIFT];
    if (!c)
        return NULL;
    dir_entry *d = &c->entry[block & (DIR_CHUNK - 1)];
    return d->present ? d : NULL;
}

/* augment.c: called by the engine when the home serves a request (not when
 * it queues one), before the table entry's steps change the directory.
 * Allocates the chunk's augmentation records when they are missing (no
 * memory: the request goes undetected, the protocol is unaffected). */
void augment_request(proto_engine *e, dir_chunk *c, dir_entry *d, uint32_t block, int type,
                     int from, int flags);
void augment_init_records(dir_aug *a, size_t n);
/* The adaptive protocol (augment.c).  A read request from `from` is
 * granted exclusive: the block is detected migratory and unowned or owned by
 * another node. */
int adapt_read_exclusive(proto_engine *e, dir_chunk *c, const dir_entry *d, uint32_t block,
                         int from);
/* A read request from `from` downgrades the owner (RECALL_S: it keeps a
 * read copy) instead of recalling it: the block is detected
 * producer-consumer and owned by another node (its producer). */
int adapt_read_downgrade(proto_engine *e, dir_chunk *c, const dir_entry *d, uint32_t block,
                         int from);
/* The table served a DE_GETS_MIGRATORY: the owner is recalled. */
void adapt_read_served(proto_engine *e, dir_chunk *c, const dir_entry *d, uint32_t block,
                       int from);
/* A WB_DATA at a recall: for a reader granted exclusive that did not write
 * (PROTO_MSG_CLEAN), the pending read falls back to a shared grant (d->grant). */
void adapt_recalled(proto_engine *e, dir_chunk *c, dir_entry *d, uint32_t block, int from,
                    int flags);

/* The flags of a write grant to `to` (PROTO_MSG_PUSH, PROTO_MSG_FLUSH, or
 * 0): what the new owner does at the end of its epoch. */
uint8_t adapt_grant_flags(const proto_engine *e, uint32_t block, int to);
/* A flush or push of an owner that got the block by a read granted
 * exclusive: clean (PROTO_MSG_CLEAN), the read was not followed by a write,
 * and the block falls back to shared grants. */
void adapt_flushed(proto_engine *e, dir_chunk *c, uint32_t block, int from, int flags);

/* Whether the home can grant block (its entry d) to a read of `req` at
 * once, without recalling a third node or waiting: shared and not listing
 * req, unowned (home memory current), or owned by the home itself with its
 * copy settled M (the home's own copy becomes a read copy, CE_GROUP_SHARE).
 * The bulk fetch's missed block and members both ask (engine.c). */
int engine_group_grantable(const proto_engine *e, const dir_entry *d, uint32_t block, int req);
/* The adaptive protocol's bulk fetch (augment.c).  A read request from
 * `from` (not this home) at a shared block of a detected group brings the
 * group's other grantable blocks along (DE_GETS_GROUP). */
int adapt_read_group(const proto_engine *e, const dir_chunk *c, const dir_entry *d,
                     uint32_t block, int from);
/* The next block of `start`'s group after `cur` (start itself first), or
 * -1 at the end of the group: the links confirmed by the detection (the
 * next block's guess is cur and it was accessed in group), at most
 * ADAPT_GROUP_MAX blocks after start.  64: a bulk then carries as much as
 * DSM_PREFETCH's largest (bench_core's read miss 11.3 -> 7.2 us a page
 * against 16, doc/protocol.md). */
#define ADAPT_GROUP_MAX 64
int64_t adapt_group_next(const proto_engine *e, uint32_t start, uint32_t cur, int *steps);

/* The home of a block (-1: not allocated). */
static inline int engine_home_of(const proto_engine *e, uint32_t block)
{
    return e->home1[block] - 1;
}

#endif
