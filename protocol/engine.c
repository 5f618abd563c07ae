/* engine.c - runs the transition tables of table.c for one node: classifies
 * an input into a table event, looks the (state, event) pair up, performs
 * the entry's steps (emitting actions for the caller) and moves to the next
 * state.  Messages to this node itself are handled inside, after the event
 * that produced them, so a home's own accesses need no transport. */
#include "engine_internal.h"
#include "growable.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


void proto_actions_init(proto_actions *a) { memset(a, 0, sizeof *a); }

void proto_actions_free(proto_actions *a)
{
    free(a->v);
    memset(a, 0, sizeof *a);
}

/* The next action of the list, to be filled in place, or NULL (no memory).
 * Filled in place rather than copied from a local: a copy reloaded the
 * local's freshly stored bytes as one wide load, which stalls (store
 * forwarding) and was a third of a simulated machine's time. */
static proto_action *emit_slot(proto_actions *out)
{
    if (out->n == out->cap && GROWABLE_RESERVE(out->v, out->cap, out->n + 1))
        return NULL;
    return &out->v[out->n++];
}

/* The home table, shared by the engines of one simulated machine
 * (proto_engine_create_shared) or owned by one engine.  Counted references:
 * the engines may be destroyed in any order.  Engines sharing a table are
 * created and destroyed from one thread (the engine has no locks). */
struct home_table {
    int32_t *home;  /* per block: home + 1; 0: not allocated (calloc) */
    uint32_t nblocks;
    int nnodes;
    int refs;
};

/* Every chunk of blocks never touched is this one: all PC_I, nothing
 * deferred.  Read-only (a write through it would fault, not corrupt other
 * engines); cache_chunk_for_write replaces it before any store. */
static const cache_chunk zero_chunk;

static cache_chunk *zero_chunk_ptr(void) { return (cache_chunk *)(uintptr_t)&zero_chunk; }

static size_t cache_chunks(uint32_t nblocks)
{
    return ((size_t)nblocks + CACHE_CHUNK - 1) >> CACHE_CHUNK_SHIFT;
}

static size_t dir_chunks(uint32_t nblocks)
{
    return ((size_t)nblocks + DIR_CHUNK - 1) >> DIR_CHUNK_SHIFT;
}

/* The chunk of `block`, writable (allocated on the first write); NULL when
 * out of memory. */
static cache_chunk *cache_chunk_for_write(proto_engine *e, uint32_t block)
{
    cache_chunk **slot = &e->cchunk[block >> CACHE_CHUNK_SHIFT];
    if (*slot == &zero_chunk) {
        cache_chunk *c = calloc(1, sizeof *c);  /* PC_I == 0 */
        if (!c)
            return NULL;
        *slot = c;
    }
    return *slot;
}

static inline uint8_t cstate_get(const proto_engine *e, uint32_t block)
{
    return e->cchunk[block >> CACHE_CHUNK_SHIFT]->cstate[block & (CACHE_CHUNK - 1)];
}

static inline uint8_t deferred_get(const proto_engine *e, uint32_t block)
{
    return e->cchunk[block >> CACHE_CHUNK_SHIFT]->deferred[block & (CACHE_CHUNK - 1)];
}

static int cstate_set(proto_engine *e, uint32_t block, uint8_t st)
{
    if (cstate_get(e, block) == st)
        return PROTO_OK;  /* no chunk needed for I -> I */
    cache_chunk *c = cache_chunk_for_write(e, block);
    if (!c)
        return PROTO_ENOMEM;
    c->cstate[block & (CACHE_CHUNK - 1)] = st;
    return PROTO_OK;
}

static int deferred_set(proto_engine *e, uint32_t block, uint8_t type)
{
    if (deferred_get(e, block) == type)
        return PROTO_OK;
    cache_chunk *c = cache_chunk_for_write(e, block);
    if (!c)
        return PROTO_ENOMEM;
    c->deferred[block & (CACHE_CHUNK - 1)] = type;
    return PROTO_OK;
}

static void home_table_unref(struct home_table *h)
{
    if (h && --h->refs == 0) {
        free(h->home);
        free(h);
    }
}

static struct home_table *home_table_new(uint32_t nblocks, int nnodes)
{
    struct home_table *h = calloc(1, sizeof *h);
    if (!h)
        return NULL;
    /* home + 1 per block, 0: not allocated.  calloc'd: a region of which a
     * program uses little (a simulated machine's 1 GiB region has 32M
     * lines) costs no writes and no memory where nothing is placed */
    h->home = calloc(nblocks, sizeof *h->home);
    if (!h->home) {
        free(h);
        return NULL;
    }
    h->nblocks = nblocks;
    h->nnodes = nnodes;
    h->refs = 1;
    return h;
}

proto_engine *proto_engine_create_shared(const proto_config *cfg, proto_engine *homes_from)
{
    if (!cfg || cfg->nnodes < 1 || cfg->nnodes > PROTO_MAX_NODES || cfg->self < 0 ||
        cfg->self >= cfg->nnodes || cfg->nblocks == 0)
        return NULL;
    /* the homes are node ids of blocks: same region, same nodes */
    if (homes_from &&
        (homes_from->nblocks != cfg->nblocks || homes_from->nnodes != cfg->nnodes))
        return NULL;
    proto_engine *e = calloc(1, sizeof *e);
    if (!e)
        return NULL;
    e->self = cfg->self;
    e->nnodes = cfg->nnodes;
    e->nblocks = cfg->nblocks;
    e->evictions = cfg->evictions != 0;
    e->replacement_hints = cfg->replacement_hints != 0;
    e->excl_clean = cfg->excl_clean != 0;
    e->downgrade_on_read = cfg->downgrade_on_read != 0;
    e->adapt = cfg->adapt != 0;
    e->three_hop = cfg->three_hop != 0;
    e->prefetch = !e->adapt || cfg->prefetch < 2 ? 0
                  : cfg->prefetch > PROTO_PREFETCH_MAX ? PROTO_PREFETCH_MAX
                                                       : cfg->prefetch;
    /* a forwarded request leaves the owner a read copy or nothing, decided by
     * the owner's table rows: the recalls of downgrade_on_read and of the
     * adaptive protocol go through the home, and the two are not combined */
    if (e->three_hop && (e->downgrade_on_read || e->adapt)) {
        free(e);
        return NULL;
    }
    e->fwd_req = -1;
    /* the adaptive protocol downgrades the producer of a producer-consumer
     * block when a consumer reads: the downgrade entries are its too */
    e->opts = (e->adapt ? PROTO_NEEDS_ADAPT | PROTO_NEEDS_DOWNGRADE : 0) |
              (e->evictions ? PROTO_NEEDS_EVICTIONS : 0) |
              (e->replacement_hints ? PROTO_NEEDS_HINTS : 0) |
              (e->excl_clean ? PROTO_NEEDS_EXCL_CLEAN : 0) |
              (e->downgrade_on_read ? PROTO_NEEDS_DOWNGRADE : 0) |
              (e->three_hop ? PROTO_NEEDS_THREE_HOP : 0);
    e->sharers_ops = cfg->sharers_ops;
    if (homes_from) {
        e->homes = homes_from->homes;
        e->homes->refs++;
    } else {
        e->homes = home_table_new(cfg->nblocks, cfg->nnodes);
    }
    e->cchunk = malloc(sizeof *e->cchunk * cache_chunks(cfg->nblocks));
    e->dchunk = calloc(dir_chunks(cfg->nblocks), sizeof *e->dchunk);
    if (!e->homes || !e->cchunk || !e->dchunk) {
        proto_engine_destroy(e);
        return NULL;
    }
    e->home1 = e->homes->home;
    for (size_t c = 0; c < cache_chunks(cfg->nblocks); c++)
        e->cchunk[c] = zero_chunk_ptr();
    proto_set_augment(e, 1);
    return e;
}

proto_engine *proto_engine_create(const proto_config *cfg)
{
    return proto_engine_create_shared(cfg, NULL);
}

/* Entry i of chunk c back to "not created": all zeros, and its
 * augmentation record (if the chunk has them) as new. */
static void dir_clear(dir_chunk *c, uint32_t i)
{
    dir_entry *d = &c->entry[i];
    if (!d->present)
        return;
    dsm_sharers_destroy(&d->sharers);
    free(d->q);
    memset(d, 0, sizeof *d);
    if (c->aug)
        augment_init_records(&c->aug[i], 1);
}

void proto_engine_destroy(proto_engine *e)
{
    if (!e)
        return;
    if (e->dchunk) {
        for (size_t c = 0; c < dir_chunks(e->nblocks); c++) {
            if (!e->dchunk[c])
                continue;
            for (uint32_t i = 0; i < DIR_CHUNK; i++)
                dir_clear(e->dchunk[c], i);
            free(e->dchunk[c]->aug);
            free(e->dchunk[c]);
        }
        free(e->dchunk);
    }
    if (e->cchunk) {
        for (size_t c = 0; c < cache_chunks(e->nblocks); c++)
            if (e->cchunk[c] != &zero_chunk)
                free(e->cchunk[c]);
        free(e->cchunk);
    }
    home_table_unref(e->homes);
    free(e->last_accessed);
    free(e->selfq);
    free(e->epoch);
    free(e->dfwd);
    free(e);
}

size_t proto_engine_footprint(const proto_engine *e, size_t *home_table_bytes)
{
    size_t n = sizeof *e + sizeof *e->cchunk * cache_chunks(e->nblocks) +
               sizeof *e->dchunk * dir_chunks(e->nblocks) + e->selfq_cap * sizeof *e->selfq +
               e->dfwd_cap * sizeof *e->dfwd;
    if (e->last_accessed)
        n += sizeof *e->last_accessed * (size_t)e->nnodes;
    for (size_t c = 0; c < cache_chunks(e->nblocks); c++)
        if (e->cchunk[c] != &zero_chunk)
            n += sizeof(cache_chunk);
    for (size_t c = 0; c < dir_chunks(e->nblocks); c++) {
        const dir_chunk *dc = e->dchunk[c];
        if (!dc)
            continue;
        n += sizeof *dc;
        if (dc->aug)
            n += DIR_CHUNK * sizeof *dc->aug;
        for (uint32_t i = 0; i < DIR_CHUNK; i++) {
            const dir_entry *d = &dc->entry[i];
            if (!d->present)
                continue;
            n += dsm_sharers_heap_bytes(&d->sharers);
            if (d->q)
                n += sizeof *d->q + d->q->cap * sizeof d->q->w[0];
        }
    }
    if (home_table_bytes)
        *home_table_bytes = sizeof *e->homes + sizeof *e->home1 * e->nblocks;
    return n;
}

int proto_set_home(proto_engine *e, uint32_t first, uint32_t count, int home)
{
    if (home < 0 || home >= e->nnodes || first >= e->nblocks || count > e->nblocks - first)
        return PROTO_EINVAL;
    for (uint32_t b = first; b < first + count; b++)
        e->home1[b] = home + 1;
    return PROTO_OK;
}

int proto_home(const proto_engine *e, uint32_t block)
{
    return block < e->nblocks ? engine_home_of(e, block) : -1;
}

/* On the runtime's and the simulator's paths: two dependent loads, the
 * chunk table being small (nblocks / 4096 pointers) and hot. */
proto_cache_state proto_cache_state_of(const proto_engine *e, uint32_t block)
{
    return block < e->nblocks ? (proto_cache_state)cstate_get(e, block) : PC_I;
}

proto_dir_state proto_dir_state_of(const proto_engine *e, uint32_t block)
{
    const dir_entry *d = block < e->nblocks ? engine_dir_at(e, block) : NULL;
    return d ? (proto_dir_state)d->state : PD_UNOWNED;
}

const dsm_sharers *proto_dir_sharers(const proto_engine *e, uint32_t block)
{
    dir_entry *d = block < e->nblocks ? engine_dir_at(e, block) : NULL;
    return d ? &d->sharers : NULL;
}

int proto_dir_owner(const proto_engine *e, uint32_t block)
{
    const dir_entry *d = block < e->nblocks ? engine_dir_at(e, block) : NULL;
    if (!d)
        return -1;
    return (d->state == PD_EXCL || d->state == PD_BUSY_RECALL) ? d->owner : -1;
}

const char *proto_last_error(const proto_engine *e) { return e->err; }

uint64_t proto_self_messages(const proto_engine *e) { return e->self_msgs; }

uint32_t proto_deferred_messages(const proto_engine *e) { return e->ndeferred; }

void proto_engine_set_trace(proto_engine *e, proto_trace_fn fn, void *arg)
{
    e->trace = fn;
    e->trace_arg = arg;
}

/* The directory entry of `block`, created (and its chunk allocated) on
 * first use; *chunk_out: its chunk.  NULL when out of memory. */
static dir_entry *dir_get(proto_engine *e, uint32_t block, dir_chunk **chunk_out)
{
    dir_chunk *c = e->dchunk[block >> DIR_CHUNK_SHIFT];
    if (!c) {
        c = calloc(1, sizeof *c);  /* every entry not created: zeros */
        if (!c)
            return NULL;
        e->dchunk[block >> DIR_CHUNK_SHIFT] = c;
    }
    *chunk_out = c;
    dir_entry *d = &c->entry[block & (DIR_CHUNK - 1)];
    if (d->present)
        return d;
    if (dsm_sharers_init_with(&d->sharers, e->nnodes, e->sharers_ops))
        return NULL;
    d->state = PD_UNOWNED;
    d->owner = d->pending = -1;
    d->present = 1;
    return d;
}

/* ---- sending: to others through actions, to self through the self queue ---- */

/* A queued message's source and destination are written and read back as
 * one 8-byte word: the compiler merges the two 4-byte reads into one load,
 * which cannot be served from two 4-byte stores still in the store buffer
 * (a store-forwarding stall on every self message: a third of a simulated
 * machine's time).  Written and read the same way, whatever the byte order. */
_Static_assert(offsetof(proto_msg, dst) == offsetof(proto_msg, src) + 4,
               "src and dst are adjacent 32-bit fields");
static inline void selfq_put_ends(proto_msg *q, int32_t src, int32_t dst)
{
    uint64_t w = (uint64_t)(uint32_t)src | (uint64_t)(uint32_t)dst << 32;
    memcpy(&q->src, &w, sizeof w);
}

static inline void selfq_get_ends(const proto_msg *q, int32_t *src, int32_t *dst)
{
    uint64_t w;
    memcpy(&w, &q->src, sizeof w);
    *src = (int32_t)(uint32_t)w;
    *dst = (int32_t)(uint32_t)(w >> 32);
}

/* A request carries what the access tells the augmentation; a write grant
 * what the adaptive protocol asks of the new owner (dir_step sets it). */
static uint8_t msg_flags(const proto_engine *e, int type)
{
    if (type == PM_GETX || type == PM_UPGRADE)
        return e->req_flags;
    return type == PM_DATA_X || type == PM_UPGRADE_ACK ? e->grant_flags : 0;
}

static int send_msg_req(proto_engine *e, proto_actions *out, int type, int dst, uint32_t block,
                        int req)
{
    if (dst == e->self) {
        e->self_msgs++;
        if (e->selfq_len == e->selfq_cap) {
            /* a power of two: the ring index is a mask */
            size_t cap = e->selfq_cap ? e->selfq_cap * 2 : 8;
            proto_msg *q = malloc(cap * sizeof *q);
            if (!q)
                return PROTO_ENOMEM;
            for (size_t i = 0; i < e->selfq_len; i++)
                q[i] = e->selfq[(e->selfq_head + i) & (e->selfq_cap - 1)];
            free(e->selfq);
            e->selfq = q;
            e->selfq_head = 0;
            e->selfq_cap = cap;
        }
        proto_msg *q = &e->selfq[(e->selfq_head + e->selfq_len++) & (e->selfq_cap - 1)];
        q->type = (uint8_t)type;
        selfq_put_ends(q, e->self, dst);
        q->block = block;
        q->flags = msg_flags(e, type);
        q->req = (uint16_t)req;
        return PROTO_OK;
    }
    proto_action *a = emit_slot(out);
    if (!a)
        return PROTO_ENOMEM;
    a->kind = PA_SEND;
    a->access = 0;
    a->block = block;
    a->msg.type = (uint8_t)type;
    a->msg.src = e->self;
    a->msg.dst = dst;
    a->msg.block = block;
    a->msg.flags = msg_flags(e, type);
    a->msg.req = (uint16_t)req;
    return PROTO_OK;
}

static int send_msg(proto_engine *e, proto_actions *out, int type, int dst, uint32_t block)
{
    return send_msg_req(e, out, type, dst, block, 0);
}

/* ---- forwarded requests deferred by a hold: their requesters ---- */

static int dfwd_push(proto_engine *e, uint32_t block, int32_t req)
{
    if (e->ndfwd == e->dfwd_cap && GROWABLE_RESERVE(e->dfwd, e->dfwd_cap, e->ndfwd + 1))
        return PROTO_ENOMEM;
    e->dfwd[e->ndfwd++] = (struct deferred_fwd){ block, req };
    return PROTO_OK;
}

/* The requester deferred for `block` (removed from the list), or -1. */
static int32_t dfwd_take(proto_engine *e, uint32_t block)
{
    for (size_t i = 0; i < e->ndfwd; i++)
        if (e->dfwd[i].block == block) {
            int32_t req = e->dfwd[i].req;
            e->dfwd[i] = e->dfwd[--e->ndfwd];
            return req;
        }
    return -1;
}

static int simple_action(proto_actions *out, int kind, uint32_t block, int access)
{
    proto_action *a = emit_slot(out);
    if (!a)
        return PROTO_ENOMEM;
    a->kind = (uint8_t)kind;
    a->access = (uint8_t)access;
    a->block = block;
    memset(&a->msg, 0, sizeof a->msg);
    return PROTO_OK;
}

static int reject(proto_engine *e, const char *side, const char *state, const char *event,
                  uint32_t block, int from, const char *why)
{
    snprintf(e->err, sizeof e->err,
             "protocol: node %d, block %u: %s event %s (from node %d) in state %s is not in the "
             "table: %s",
             e->self, block, side, event, from, state, why ? why : "");
    return PROTO_EREJECT;
}

/* An entry of the table that this engine's options leave out (the pair can
 * only come from an option's inputs: a bug, or a machine whose nodes
 * disagree on the options). */
/* A valid entry's options are all on (or its alternative ones are). */
static int entry_allowed(const proto_engine *e, const proto_table_entry *t)
{
    return !(t->needs & ~e->opts) || (t->or_needs && !(t->or_needs & ~e->opts));
}

static int reject_needs(proto_engine *e, const char *side, const char *state, const char *event,
                        uint32_t block, int from, int needs)
{
    char why[160];
    snprintf(why, sizeof why, "only with %s (proto_config), off in this engine",
             proto_needs_name(needs & ~e->opts));
    return reject(e, side, state, event, block, from, why);
}

/* ---- cache side ---- */

static int cache_event(proto_engine *e, uint32_t block, int ev, int from, proto_actions *out);
static int cache_event_of(int type);

static int cache_step(proto_engine *e, int step, uint32_t block, int msg_src, int ev,
                      proto_actions *out)
{
    int home = engine_home_of(e, block);
    switch (step) {
    case ST_SEND_GETS: return send_msg(e, out, PM_GETS, home, block);
    case ST_SEND_GETX: return send_msg(e, out, PM_GETX, home, block);
    case ST_SEND_UPGRADE: return send_msg(e, out, PM_UPGRADE, home, block);
    case ST_SEND_INV_ACK: return send_msg(e, out, PM_INV_ACK, home, block);
    case ST_SEND_WB_DATA: return send_msg(e, out, PM_WB_DATA, home, block);
    case ST_SEND_PUTS_IF_HINTS:
        /* without hints the home keeps us as a sharer: its INV will be
         * acknowledged from whatever state we are in by then */
        return e->replacement_hints ? send_msg(e, out, PM_PUTS, home, block) : PROTO_OK;
    case ST_SEND_PUTX: return send_msg(e, out, PM_PUTX, home, block);
    case ST_SEND_PUTE: return send_msg(e, out, PM_PUTE, home, block);
    case ST_SEND_PUSH: return send_msg(e, out, PM_PUSH, home, block);
    case ST_SEND_FLUSH: return send_msg(e, out, PM_FLUSH, home, block);
    case ST_SEND_FWD_DATA_S: return send_msg(e, out, PM_FWD_DATA_S, e->fwd_req, block);
    case ST_SEND_FWD_DATA_X: return send_msg(e, out, PM_FWD_DATA_X, e->fwd_req, block);
    case ST_SEND_SHWB: return send_msg(e, out, PM_SHWB, home, block);
    case ST_SEND_XFER: return send_msg(e, out, PM_XFER, home, block);
    case ST_ACCESS_NONE: return simple_action(out, PA_SET_ACCESS, block, PROTO_ACCESS_NONE);
    case ST_ACCESS_READ: return simple_action(out, PA_SET_ACCESS, block, PROTO_ACCESS_READ);
    case ST_ACCESS_WRITE: return simple_action(out, PA_SET_ACCESS, block, PROTO_ACCESS_WRITE);
    case ST_INSTALL:
        /* data from self is already in this node's memory */
        return msg_src == e->self ? PROTO_OK : simple_action(out, PA_INSTALL, block, 0);
    case ST_COMPLETE: return simple_action(out, PA_COMPLETE, block, 0);
    case ST_WAIT: return simple_action(out, PA_WAIT, block, 0);
    case ST_DEFER:
        /* one at most: the home is busy with this block until we answer.
         * A second one would be lost, and the home would wait for ever. */
        if (deferred_get(e, block))
            return reject(e, "cache", proto_cache_state_name(cstate_get(e, block)),
                          proto_cache_event_name(ev), block, msg_src,
                          "a message is deferred for the block already (the home sends a held "
                          "block one INV or RECALL, and waits for its answer)");
        if (deferred_set(e, block,
                         ev == CE_INV        ? PM_INV
                         : ev == CE_RECALL_S ? PM_RECALL_S
                         : ev == CE_FWD_GETS ? PM_FWD_GETS
                         : ev == CE_FWD_GETX ? PM_FWD_GETX
                                             : PM_RECALL))
            return PROTO_ENOMEM;
        if ((ev == CE_FWD_GETS || ev == CE_FWD_GETX) && dfwd_push(e, block, e->fwd_req))
            return PROTO_ENOMEM;
        e->ndeferred++;
        return PROTO_OK;
    case ST_REPLAY: {
        int type = deferred_get(e, block);
        if (!type)
            return PROTO_OK;
        deferred_set(e, block, 0);  /* the chunk exists: it holds the type */
        e->ndeferred--;
        if (type == PM_FWD_GETS || type == PM_FWD_GETX)
            e->fwd_req = dfwd_take(e, block);
        return cache_event(e, block, cache_event_of(type), home, out);
    }
    default:
        snprintf(e->err, sizeof e->err, "protocol: step %d is not a cache-side step", step);
        return PROTO_EREJECT;
    }
}

static int cache_event(proto_engine *e, uint32_t block, int ev, int from, proto_actions *out)
{
    /* the chunk is looked up once for the read and the write of the state */
    cache_chunk *c = e->cchunk[block >> CACHE_CHUNK_SHIFT];
    uint8_t *state = &c->cstate[block & (CACHE_CHUNK - 1)];
    int st = *state;
    const proto_table_entry *t = &proto_cache_table[st][ev];
    if (!t->valid)
        return reject(e, "cache", proto_cache_state_name(st), proto_cache_event_name(ev), block,
                      from, t->why);
    if (!entry_allowed(e, t))
        return reject_needs(e, "cache", proto_cache_state_name(st), proto_cache_event_name(ev),
                            block, from, t->needs);
    if (e->trace)
        e->trace(e->trace_arg, 0, st, ev);
    if (t->next != st) {
        if (c == &zero_chunk) {
            if (cstate_set(e, block, t->next))  /* allocates the chunk */
                return PROTO_ENOMEM;
        } else {
            *state = t->next;
        }
    }
    for (int i = 0; i < PROTO_MAX_STEPS && t->steps[i]; i++) {
        int rc = cache_step(e, t->steps[i], block, from, ev, out);
        if (rc)
            return rc;
    }
    return PROTO_OK;
}

/* ---- directory side ---- */

static int dir_classify(proto_engine *e, dir_chunk *c, const dir_entry *d, uint32_t block,
                        int type, int from)
{
    switch (type) {
    case PM_GETS:
        if (e->adapt && adapt_read_exclusive(e, c, d, block, from))
            return DE_GETS_MIGRATORY;
        /* before the downgrade: at the home's own block a group's read
         * downgrades the home's copy as the downgrade would, and brings the
         * others along */
        if (e->adapt && adapt_read_group(e, c, d, block, from)) {
            e->bulk_seq = 0;
            return DE_GETS_GROUP;
        }
        /* no group known: the next blocks of this home go along instead */
        if (e->adapt && e->prefetch && from != e->self &&
            engine_group_grantable(e, d, block, from)) {
            e->bulk_seq = 1;
            return DE_GETS_GROUP;
        }
        if (e->adapt && adapt_read_downgrade(e, c, d, block, from))
            return DE_GETS_DOWNGRADE;
        if (e->excl_clean && d->state == PD_UNOWNED)
            return DE_GETS_EXCL_CLEAN;
        if (e->three_hop && d->state == PD_EXCL)
            return DE_GETS_FWD;
        return e->downgrade_on_read && d->state == PD_EXCL ? DE_GETS_DOWNGRADE : DE_GETS;
    case PM_GETX: return e->three_hop && d->state == PD_EXCL ? DE_GETX_FWD : DE_GETX;
    case PM_UPGRADE:
        if (!sharers_contains(&d->sharers, from))
            return e->three_hop && d->state == PD_EXCL ? DE_GETX_FWD : DE_UPGRADE_STALE;
        return sharers_count(&d->sharers) == 1 ? DE_UPGRADE_SOLE : DE_UPGRADE_OTHERS;
    case PM_INV_ACK:
        if (d->acks > 1)
            return DE_INV_ACK_MORE;
        return d->grant == GRANT_UPG ? DE_INV_ACK_LAST_UPG : DE_INV_ACK_LAST_X;
    case PM_WB_DATA:
        return d->grant == GRANT_S          ? DE_WB_DATA_S
               : d->grant == GRANT_S_SHARED ? DE_WB_DATA_SHARED
                                            : DE_WB_DATA_X;
    case PM_PUSH:
        return d->state == PD_BUSY_RECALL ? DE_PUSH_RECALLED : DE_PUSH;
    case PM_FLUSH:
        if (d->state != PD_BUSY_RECALL)
            return DE_FLUSH;
        /* the flushed node keeps nothing: a downgrade's reader is the only sharer */
        return d->grant == GRANT_S || d->grant == GRANT_S_SHARED ? DE_FLUSH_RECALLED_S
                                                                 : DE_FLUSH_RECALLED_X;
    case PM_PUTS:
        if (!sharers_contains(&d->sharers, from))
            return DE_PUTS_STALE;
        return sharers_count(&d->sharers) == 1 ? DE_PUTS_LAST : DE_PUTS_MORE;
    case PM_PUTX:
    case PM_PUTE: {
        int x = type == PM_PUTX;
        if (d->state != PD_BUSY_RECALL)
            return x ? DE_PUTX_OWNER : DE_PUTE_OWNER;
        /* for a downgrade too: the evicting owner keeps nothing, so the
         * reader becomes the only sharer, as without downgrades */
        if (d->grant == GRANT_S || d->grant == GRANT_S_SHARED)
            return x ? DE_PUTX_RECALLED_S : DE_PUTE_RECALLED_S;
        return x ? DE_PUTX_RECALLED_X : DE_PUTE_RECALLED_X;
    }
    case PM_SHWB: return DE_SHWB;
    case PM_XFER: return DE_XFER;
    default: return -1;
    }
}

static int dir_send_to_sharers(proto_engine *e, dir_entry *d, uint32_t block, int except,
                               proto_actions *out)
{
    int n = 0;
    SHARERS_FOREACH(&d->sharers, s) {
        if (s == except)
            continue;
        int rc = send_msg(e, out, PM_INV, s, block);
        if (rc)
            return rc;
        n++;
    }
    d->acks = n;
    return PROTO_OK;
}

static int queue_push(dir_entry *d, int node, int type)
{
    dir_queue *q = d->q;
    if (!q || q->len == q->cap) {
        uint32_t cap = q ? q->cap * 2 : 4;
        dir_queue *nq = malloc(sizeof *nq + cap * sizeof nq->w[0]);
        if (!nq)
            return PROTO_ENOMEM;
        nq->head = 0;
        nq->len = q ? q->len : 0;
        nq->cap = cap;
        for (uint32_t i = 0; i < nq->len; i++)
            nq->w[i] = q->w[(q->head + i) % q->cap];
        free(q);
        d->q = q = nq;
    }
    q->w[(q->head + q->len++) % q->cap] = (dir_waiter){ node, (uint8_t)type };
    return PROTO_OK;
}

/* A write grant, with what the adaptive protocol asks of the new owner at
 * the end of its epoch (PROTO_MSG_PUSH, PROTO_MSG_FLUSH). */
static int send_grant(proto_engine *e, proto_actions *out, int type, int to, uint32_t block)
{
    e->grant_flags = e->adapt ? adapt_grant_flags(e, block, to) : 0;
    int rc = send_msg(e, out, type, to, block);
    e->grant_flags = 0;
    return rc;
}

/* The owner's pushed copy is in: it keeps a read copy, and the block's last
 * consumers (the sharers its write invalidated) get one each. */
static int push_consumers(proto_engine *e, dir_entry *d, uint32_t block, proto_actions *out)
{
    const dir_chunk *c = e->dchunk[block >> DIR_CHUNK_SHIFT];
    uint32_t consumers = c->aug ? c->aug[block & (DIR_CHUNK - 1)].consumers : 0;
    int owner = d->owner;
    sharers_clear(&d->sharers);
    sharers_add(&d->sharers, owner);
    d->owner = -1;
    for (int n = 0; n < 32 && n < e->nnodes; n++) {
        if (!(consumers >> n & 1) || n == owner)
            continue;
        sharers_add(&d->sharers, n);
        e->adapt_counts.pushed++;
        int rc = send_msg(e, out, PM_PUSH_DATA, n, block);
        if (rc)
            return rc;
    }
    return PROTO_OK;
}

static int group_bulk(proto_engine *e, uint32_t block, int req, proto_actions *out);

static int dir_step(proto_engine *e, dir_entry *d, int step, uint32_t block, int req, int type,
                    proto_actions *out)
{
    switch (step) {
    case ST_D_DATA_S: return send_msg(e, out, PM_DATA_S, req, block);
    case ST_D_DATA_X: return send_grant(e, out, PM_DATA_X, req, block);
    case ST_D_UPGRADE_ACK: return send_grant(e, out, PM_UPGRADE_ACK, req, block);
    case ST_D_ADD_SHARER: sharers_add(&d->sharers, req); return PROTO_OK;
    case ST_D_OWNER_REQ:
        sharers_clear(&d->sharers);
        d->owner = req;
        return PROTO_OK;
    case ST_D_INV_OTHERS: return dir_send_to_sharers(e, d, block, req, out);
    case ST_D_INV_ALL: return dir_send_to_sharers(e, d, block, -1, out);
    case ST_D_RECALL: return send_msg(e, out, PM_RECALL, d->owner, block);
    case ST_D_PENDING_S: d->pending = req; d->grant = GRANT_S; return PROTO_OK;
    case ST_D_PENDING_X: d->pending = req; d->grant = GRANT_X; return PROTO_OK;
    case ST_D_PENDING_UPG: d->pending = req; d->grant = GRANT_UPG; return PROTO_OK;
    case ST_D_QUEUE: /* the request's PROTO_MSG_READS rides in the type's spare bit */
        return queue_push(d, req, type | (e->req_flags ? DIR_WAITER_READS : 0));
    case ST_D_ACK:
        /* dir_event checked that req was invalidated and has not acked yet */
        d->acks--;
        sharers_remove(&d->sharers, req);
        return PROTO_OK;
    case ST_D_INSTALL:
        return req == e->self ? PROTO_OK : simple_action(out, PA_INSTALL, block, 0);
    case ST_D_GRANT_DATA_X:
    case ST_D_GRANT_UPG: {
        int to = d->pending;
        sharers_clear(&d->sharers);
        d->owner = to;
        d->pending = -1;
        d->grant = GRANT_NONE;
        return send_grant(e, out, step == ST_D_GRANT_UPG ? PM_UPGRADE_ACK : PM_DATA_X, to, block);
    }
    case ST_D_GRANT_DATA_S: {
        int to = d->pending;
        sharers_clear(&d->sharers);
        sharers_add(&d->sharers, to);
        d->owner = -1;
        d->pending = -1;
        d->grant = GRANT_NONE;
        return send_msg(e, out, PM_DATA_S, to, block);
    }
    case ST_D_DATA_E: return send_msg(e, out, PM_DATA_E, req, block);
    case ST_D_REMOVE_SHARER: sharers_remove(&d->sharers, req); return PROTO_OK;
    case ST_D_OWNER_NONE: d->owner = -1; return PROTO_OK;
    case ST_D_PUT_ACK: return send_msg(e, out, PM_PUT_ACK, req, block);
    case ST_D_RECALL_S: return send_msg(e, out, PM_RECALL_S, d->owner, block);
    case ST_D_PENDING_SHARED: d->pending = req; d->grant = GRANT_S_SHARED; return PROTO_OK;
    case ST_D_GRANT_DATA_S_SHARED: {
        int to = d->pending;
        sharers_clear(&d->sharers);
        sharers_add(&d->sharers, d->owner);  /* it went M (or E) -> S */
        sharers_add(&d->sharers, to);
        d->owner = -1;
        d->pending = -1;
        d->grant = GRANT_NONE;
        return send_msg(e, out, PM_DATA_S, to, block);
    }
    case ST_D_PUSH_CONSUMERS: return push_consumers(e, d, block, out);
    case ST_D_GROUP_BULK: return group_bulk(e, block, req, out);
    case ST_D_GROUP_DATA:
        e->adapt_counts.bulk_copies++;
        return send_msg(e, out, PM_GROUP_DATA, req, block);
    case ST_D_FWD_S: return send_msg_req(e, out, PM_FWD_GETS, d->owner, block, req);
    case ST_D_FWD_X: return send_msg_req(e, out, PM_FWD_GETX, d->owner, block, req);
    case ST_D_SHARE_OWNER:
        sharers_clear(&d->sharers);
        sharers_add(&d->sharers, d->owner);  /* it answered the read and kept a copy */
        sharers_add(&d->sharers, d->pending);
        d->owner = -1;
        d->pending = -1;
        d->grant = GRANT_NONE;
        return PROTO_OK;
    case ST_D_OWNER_PENDING:
        sharers_clear(&d->sharers);
        d->owner = d->pending;
        d->pending = -1;
        d->grant = GRANT_NONE;
        return PROTO_OK;
    case ST_D_HOME_SHARE: {
        /* the owner is the home itself (engine_group_grantable): its copy
         * goes M -> S through its own table entry, as a RECALL_S would
         * take it, but in this call: the grant that follows sends home
         * memory, which is that copy */
        if (d->owner != e->self)
            return reject(e, "directory", proto_dir_state_name(d->state), "GroupShare", block, req,
                          "the home shares along a group only a block it owns itself");
        int rc = cache_event(e, block, CE_GROUP_SHARE, e->self, out);
        if (rc)
            return rc;
        sharers_clear(&d->sharers);
        sharers_add(&d->sharers, e->self);
        d->owner = -1;
        return PROTO_OK;
    }
    default:
        snprintf(e->err, sizeof e->err, "protocol: step %d is not a directory step", step);
        return PROTO_EREJECT;
    }
}

static int dir_is_busy(int st) { return st == PD_BUSY_INV || st == PD_BUSY_RECALL; }

int engine_group_grantable(const proto_engine *e, const dir_entry *d, uint32_t block, int req)
{
    switch (d->state) {
    case PD_SHARED: return !sharers_contains(&d->sharers, req);
    case PD_UNOWNED: return 1;
    /* held (MH), the home's own access has not retried yet: the plain way */
    case PD_EXCL: return d->owner == e->self && d->owner != req && cstate_get(e, block) == PC_M;
    default: return 0;
    }
}

/* The bulk fetch of a group (ST_D_GROUP_BULK): every other block of the
 * missed block's group that the home can grant at once
 * (engine_group_grantable: shared and not req's, unowned, or the home's own
 * settled M copy) goes through its own (state, GROUP_MEMBER) entry, in the
 * same call, so its directory lists req as it sends the copy.  A block owned
 * by another node, busy or already req's is left out: the bulk never
 * recalls a third node, invalidates or waits (and a shared block's queue is
 * empty: the queue is drained until busy). */
/* The next block a bulk fetch of `start` looks at after `cur`, or -1: the
 * group's links when the group is known, else (a prefetch) the next block
 * of this home, at most prefetch - 1 after start. */
static int64_t bulk_next(const proto_engine *e, uint32_t start, uint32_t cur, int *steps,
                         int seq)
{
    if (!seq)
        return adapt_group_next(e, start, cur, steps);
    if ((unsigned)++*steps >= e->prefetch || cur + 1 >= e->nblocks ||
        engine_home_of(e, cur + 1) != e->self)
        return -1;
    return cur + 1;
}

static int group_bulk(proto_engine *e, uint32_t block, int req, proto_actions *out)
{
    int steps = 0, sent = 0;
    int64_t last = -1;
    int seq = e->bulk_seq; /* dir_classify's choice */
    for (int64_t m = bulk_next(e, block, block, &steps, seq); m >= 0;
         m = bulk_next(e, block, (uint32_t)m, &steps, seq)) {
        /* a block nobody asked for yet has no entry: unowned, created now */
        dir_entry *md = engine_dir_at(e, (uint32_t)m);
        dir_chunk *mc;
        if (md && !engine_group_grantable(e, md, (uint32_t)m, req))
            continue;
        if (!md && !(md = dir_get(e, (uint32_t)m, &mc)))
            return PROTO_ENOMEM;
        int st = md->state;
        const proto_table_entry *t = &proto_dir_table[st][DE_GROUP_MEMBER];
        if (!t->valid)
            return reject(e, "directory", proto_dir_state_name(st),
                          proto_dir_event_name(DE_GROUP_MEMBER), (uint32_t)m, req, t->why);
        if (!entry_allowed(e, t))
            return reject_needs(e, "directory", proto_dir_state_name(st),
                                proto_dir_event_name(DE_GROUP_MEMBER), (uint32_t)m, req,
                                t->needs);
        if (e->trace)
            e->trace(e->trace_arg, 1, st, DE_GROUP_MEMBER);
        md->state = t->next;
        for (int i = 0; i < PROTO_MAX_STEPS && t->steps[i]; i++) {
            int rc = dir_step(e, md, t->steps[i], (uint32_t)m, req, PM_GETS, out);
            if (rc)
                return rc;
        }
        sent++;
        last = m;
    }
    if (sent)
        e->adapt_counts.bulk_fetches++;
    /* the requester reads the copies in the group's order, without a
     * request the detection sees: its next miss follows the last copy, so
     * that miss confirms the group's next link instead of breaking it */
    if (last >= 0 && e->last_accessed)
        e->last_accessed[req] = (int32_t)last;
    return PROTO_OK;
}

static int dir_event(proto_engine *e, dir_chunk *c, dir_entry *d, uint32_t block, int type,
                     int from, int flags, proto_actions *out)
{
    if (e->adapt && (type == PM_WB_DATA || type == PM_FLUSH) && d->state == PD_BUSY_RECALL &&
        from == d->owner)
        adapt_recalled(e, c, d, block, from, flags);
    else if (e->adapt && (type == PM_FLUSH || type == PM_PUSH) && d->state == PD_EXCL &&
             from == d->owner)
        adapt_flushed(e, c, block, from, flags | (type == PM_PUSH ? PROTO_MSG_PUSH : 0));
    int ev = dir_classify(e, c, d, block, type, from);
    int st = d->state;
    if (ev < 0)
        return reject(e, "directory", proto_dir_state_name(st), proto_msg_name(type), block, from,
                      "not a request or reply for the home");
    /* only the owner has a copy to write back or to answer a recall with;
     * the table's entries assume the sender is the one recorded */
    int writeback = type == PM_PUTX || type == PM_PUTE || type == PM_WB_DATA ||
                    type == PM_PUSH || type == PM_FLUSH;
    if (writeback && (st == PD_EXCL || st == PD_BUSY_RECALL) && from != d->owner)
        return reject(e, "directory", proto_dir_state_name(st), proto_dir_event_name(ev), block,
                      from, "the sender is not the block's owner");
    /* the news of a forwarded request comes from its requester only */
    if ((type == PM_SHWB || type == PM_XFER) && st == PD_BUSY_RECALL && from != d->pending)
        return reject(e, "directory", proto_dir_state_name(st), proto_dir_event_name(ev), block,
                      from, "the sender is not the forwarded request's requester");
    /* An ack counts only from a node the home invalidated and has not heard
     * from: the sharers still listed (each ack removes its sender), but the
     * upgrading requester, which was not sent an INV.  Counting any ack
     * would let a stray one stand for a copy still readable. */
    if (type == PM_INV_ACK && st == PD_BUSY_INV &&
        (!sharers_contains(&d->sharers, from) || (d->grant == GRANT_UPG && from == d->pending)))
        return reject(e, "directory", proto_dir_state_name(st), proto_dir_event_name(ev), block,
                      from, "the sender was not invalidated, or acknowledged already");
    const proto_table_entry *t = &proto_dir_table[st][ev];
    if (!t->valid)
        return reject(e, "directory", proto_dir_state_name(st), proto_dir_event_name(ev), block,
                      from, t->why);
    if (!entry_allowed(e, t))
        return reject_needs(e, "directory", proto_dir_state_name(st), proto_dir_event_name(ev),
                            block, from, t->needs);
    if (e->trace)
        e->trace(e->trace_arg, 1, st, ev);
    /* the augmentation looks at requests the home serves, before the
     * entry's steps change the directory; it never emits anything */
    if (e->augment && t->steps[0] != ST_D_QUEUE &&
        (type == PM_GETS || type == PM_GETX || type == PM_UPGRADE))
        augment_request(e, c, d, block, type, from, flags);
    if (ev == DE_GETS_MIGRATORY)
        adapt_read_served(e, c, d, block, from);
    else if (ev == DE_GETS_DOWNGRADE && !e->downgrade_on_read)
        e->adapt_counts.downgrades++;
    d->state = t->next;
    uint8_t caller_flags = e->req_flags; /* the request's flags, for ST_D_QUEUE */
    e->req_flags = (uint8_t)(flags & PROTO_MSG_READS);
    for (int i = 0; i < PROTO_MAX_STEPS && t->steps[i]; i++) {
        int rc = dir_step(e, d, t->steps[i], block, from, type, out);
        if (rc) {
            e->req_flags = caller_flags;
            return rc;
        }
    }
    e->req_flags = caller_flags;
    return PROTO_OK;
}

/* Serve requests that waited while the block was busy, until it is busy again. */
static int dir_drain(proto_engine *e, dir_chunk *c, dir_entry *d, uint32_t block,
                     proto_actions *out)
{
    while (d->q && d->q->len && !dir_is_busy(d->state)) {
        dir_queue *q = d->q;
        dir_waiter w = q->w[q->head];
        q->head = (q->head + 1) % q->cap;
        q->len--;
        int rc = dir_event(e, c, d, block, w.type & ~DIR_WAITER_READS, w.node,
                           w.type & DIR_WAITER_READS ? PROTO_MSG_READS : 0, out);
        if (rc)
            return rc;
    }
    return PROTO_OK;
}

static int is_home_msg(int type)
{
    return type == PM_GETS || type == PM_GETX || type == PM_UPGRADE || type == PM_INV_ACK ||
           type == PM_WB_DATA || type == PM_PUTS || type == PM_PUTX || type == PM_PUTE ||
           type == PM_PUSH || type == PM_FLUSH ||
           type == PM_SHWB || type == PM_XFER;
}

static int cache_event_of(int type)
{
    switch (type) {
    case PM_DATA_S: return CE_DATA_S;
    case PM_DATA_X: return CE_DATA_X;
    case PM_UPGRADE_ACK: return CE_UPGRADE_ACK;
    case PM_INV: return CE_INV;
    case PM_RECALL: return CE_RECALL;
    case PM_DATA_E: return CE_DATA_E;
    case PM_PUT_ACK: return CE_PUT_ACK;
    case PM_RECALL_S: return CE_RECALL_S;
    case PM_PUSH_DATA: return CE_PUSH_DATA;
    case PM_GROUP_DATA: return CE_GROUP_DATA;
    case PM_FWD_GETS: return CE_FWD_GETS;
    case PM_FWD_GETX: return CE_FWD_GETX;
    case PM_FWD_DATA_S: return CE_FWD_DATA_S;
    case PM_FWD_DATA_X: return CE_FWD_DATA_X;
    default: return -1;
    }
}

static int adapt_off(proto_engine *e, const proto_msg *m)
{
    snprintf(e->err, sizeof e->err,
             "protocol: node %d got %s for block %u from node %d, but the adaptive protocol is off",
             e->self, proto_msg_name(m->type), m->block, m->src);
    return PROTO_EINVAL;
}

/* Remembers a block to push (flush: 0) or flush (1) at the end of the
 * epoch.  A full list drops the note: the block is then only not pushed. */
#define EPOCH_MAX 65536u
static int epoch_note(proto_engine *e, uint32_t block, int flush)
{
    if (e->epoch_n == e->epoch_cap) {
        if (e->epoch_cap >= EPOCH_MAX)
            return PROTO_OK;
        uint32_t cap = e->epoch_cap ? e->epoch_cap * 2 : 16;
        struct epoch_entry *v = realloc(e->epoch, cap * sizeof *v);
        if (!v)
            return PROTO_ENOMEM;
        e->epoch = v;
        e->epoch_cap = cap;
    }
    e->epoch[e->epoch_n++] = (struct epoch_entry){ block, (uint8_t)flush };
    return PROTO_OK;
}

static int dispatch(proto_engine *e, const proto_msg *m, proto_actions *out)
{
    if (is_home_msg(m->type)) {
        if (engine_home_of(e, m->block) != e->self) {
            snprintf(e->err, sizeof e->err,
                     "protocol: node %d got %s for block %u from node %d but is not its home",
                     e->self, proto_msg_name(m->type), m->block, m->src);
            return PROTO_EINVAL;
        }
        dir_chunk *c;
        dir_entry *d = dir_get(e, m->block, &c);
        if (!d)
            return PROTO_ENOMEM;
        if ((m->type == PM_PUSH || m->type == PM_FLUSH) && !e->adapt)
            return adapt_off(e, m);
        int rc = dir_event(e, c, d, m->block, m->type, m->src,
                           m->flags & (PROTO_MSG_READS | PROTO_MSG_CLEAN), out);
        if (rc)
            return rc;
        return dir_drain(e, c, d, m->block, out);
    }
    int ev = cache_event_of(m->type);
    if (ev == CE_RECALL_S && !e->downgrade_on_read && !e->adapt) {
        snprintf(e->err, sizeof e->err,
                 "protocol: node %d got RECALL_S for block %u from node %d, but downgrades on "
                 "read are off",
                 e->self, m->block, m->src);
        return PROTO_EINVAL;
    }
    if (ev < 0) {
        snprintf(e->err, sizeof e->err, "protocol: node %d got unknown message type %d", e->self,
                 m->type);
        return PROTO_EINVAL;
    }
    int fwd = ev == CE_FWD_GETS || ev == CE_FWD_GETX;
    int from_owner = ev == CE_FWD_DATA_S || ev == CE_FWD_DATA_X;
    if ((fwd || from_owner) && !e->three_hop) {
        snprintf(e->err, sizeof e->err,
                 "protocol: node %d got %s for block %u from node %d, but three-hop "
                 "interventions are off",
                 e->self, proto_msg_name(m->type), m->block, m->src);
        return PROTO_EINVAL;
    }
    if (fwd) {
        if (m->req >= e->nnodes || m->req == e->self) {
            snprintf(e->err, sizeof e->err,
                     "protocol: node %d got %s for block %u naming requester %d", e->self,
                     proto_msg_name(m->type), m->block, m->req);
            return PROTO_EINVAL;
        }
        e->fwd_req = m->req;
    }
    /* the owner's answer to a forwarded request comes from the owner */
    if (!from_owner && m->src != engine_home_of(e, m->block)) {
        snprintf(e->err, sizeof e->err,
                 "protocol: node %d got %s for block %u from node %d, which is not its home",
                 e->self, proto_msg_name(m->type), m->block, m->src);
        return PROTO_EINVAL;
    }
    if ((ev == CE_PUSH_DATA || ev == CE_GROUP_DATA) && !e->adapt)
        return adapt_off(e, m);
    int rc = cache_event(e, m->block, ev, m->src, out);
    /* a write grant asking for a push or a flush at the end of the epoch */
    if (!rc && e->adapt && (ev == CE_DATA_X || ev == CE_UPGRADE_ACK) &&
        (m->flags & (PROTO_MSG_PUSH | PROTO_MSG_FLUSH)))
        rc = epoch_note(e, m->block, (m->flags & PROTO_MSG_PUSH) == 0);
    return rc;
}

static int run_self_queue(proto_engine *e, proto_actions *out)
{
    while (e->selfq_len) {
        /* field by field: one wide load of a message just written with
         * narrower stores stalls on store forwarding */
        const proto_msg *q = &e->selfq[e->selfq_head];
        proto_msg m;
        m.type = q->type;
        selfq_get_ends(q, &m.src, &m.dst);
        m.block = q->block;
        m.flags = q->flags;
        m.req = q->req;
        e->selfq_head = (e->selfq_head + 1) & (e->selfq_cap - 1);
        e->selfq_len--;
        int rc = dispatch(e, &m, out);
        if (rc)
            return rc;
    }
    return PROTO_OK;
}

static int check_block(proto_engine *e, uint32_t block, const char *what)
{
    if (block >= e->nblocks || engine_home_of(e, block) < 0) {
        snprintf(e->err, sizeof e->err, "protocol: node %d: %s for block %u, which is %s", e->self,
                 what, block, block >= e->nblocks ? "outside the region" : "not allocated");
        return PROTO_EINVAL;
    }
    return PROTO_OK;
}

int proto_access(proto_engine *e, uint32_t block, int is_write, proto_actions *out)
{
    int rc = check_block(e, block, is_write ? "write access" : "read access");
    if (rc)
        return rc;
    e->req_flags = is_write == PROTO_WRITE_READS ? PROTO_MSG_READS : 0;
    rc = cache_event(e, block, is_write ? CE_STORE : CE_LOAD, e->self, out);
    if (!rc)
        rc = run_self_queue(e, out);
    e->req_flags = 0;
    return rc;
}

int proto_release(proto_engine *e, uint32_t block, proto_actions *out)
{
    int rc = check_block(e, block, "release");
    if (rc)
        return rc;
    rc = cache_event(e, block, CE_RELEASE, e->self, out);
    if (rc)
        return rc;
    return run_self_queue(e, out);
}

int proto_evict(proto_engine *e, uint32_t block, proto_actions *out)
{
    int rc = check_block(e, block, "eviction");
    if (rc)
        return rc;
    rc = cache_event(e, block, CE_EVICT, e->self, out);
    if (rc)
        return rc;
    return run_self_queue(e, out);
}

int proto_epoch_end(proto_engine *e, int kinds, proto_actions *out)
{
    /* the list is taken out: a grant to this node served meanwhile (its
     * own home's) starts the next epoch's */
    struct epoch_entry *list = e->epoch;
    uint32_t n = e->epoch_n, cap = e->epoch_cap;
    e->epoch = NULL;
    e->epoch_n = e->epoch_cap = 0;
    int rc = PROTO_OK;
    for (uint32_t i = 0; e->adapt && i < n && !rc; i++) { /* off since: nothing pushed */
        if (!(kinds & (list[i].flush ? PROTO_EPOCH_FLUSH : PROTO_EPOCH_PUSH)))
            continue; /* forgotten */
        rc = cache_event(e, list[i].block, list[i].flush ? CE_EPOCH_FLUSH : CE_EPOCH_PUSH,
                         e->self, out);
        if (!rc)
            rc = run_self_queue(e, out);
    }
    if (!e->epoch) { /* keep the allocation */
        e->epoch = list;
        e->epoch_cap = cap;
    } else {
        free(list);
    }
    return rc;
}

uint32_t proto_epoch_pending(const proto_engine *e) { return e->epoch_n; }

uint32_t proto_epoch_pending_of(const proto_engine *e, int kinds)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < e->epoch_n; i++)
        n += (kinds & (e->epoch[i].flush ? PROTO_EPOCH_FLUSH : PROTO_EPOCH_PUSH)) != 0;
    return n;
}

int proto_receive(proto_engine *e, const proto_msg *m, proto_actions *out)
{
    if (m->dst != e->self || m->src < 0 || m->src >= e->nnodes || m->src == e->self) {
        snprintf(e->err, sizeof e->err,
                 "protocol: node %d got a message with source %d and destination %d", e->self,
                 m->src, m->dst);
        return PROTO_EINVAL;
    }
    int rc = check_block(e, m->block, proto_msg_name(m->type));
    if (rc)
        return rc;
    rc = dispatch(e, m, out);
    if (rc)
        return rc;
    return run_self_queue(e, out);
}

/* ---- snapshot ---- */

typedef struct {
    unsigned char *p;
    size_t n, cap;
} wbuf;

static void put(wbuf *w, const void *src, size_t len)
{
    if (w->n + len <= w->cap)
        memcpy(w->p + w->n, src, len);
    w->n += len;
}

/* The pattern records are saved as variable-length integers (7 bits a
 * byte, signed ones zigzagged): their values are small, and the
 * exploration keeps millions of snapshots. */
static void put_var(wbuf *w, uint64_t v)
{
    do {
        uint8_t b = (uint8_t)(v & 0x7f);
        v >>= 7;
        if (v)
            b |= 0x80;
        put(w, &b, 1);
    } while (v);
}

static void put_svar(wbuf *w, int64_t v)
{
    put_var(w, v < 0 ? ((uint64_t)(-(v + 1)) << 1) | 1 : (uint64_t)v << 1);
}

/* The flags of a pattern record, one bit each. */
static uint8_t aug_flags(const dir_aug *a)
{
    const proto_block_patterns *p = &a->pat;
    return (uint8_t)((p->migratory != 0) | (p->producer_consumer != 0) << 1 |
                     (p->access_in_group != 0) << 2 | (p->read_only != 0) << 3 |
                     (a->reading != 0) << 4 | (a->written_after != 0) << 5);
}

static void put_aug(wbuf *w, const dir_aug *a)
{
    for (int k = 0; k < PP_NPATTERNS; k++)
        put_var(w, a->pat.detections[k]);
    put_svar(w, a->pat.last_owner);
    put_svar(w, a->pat.group_id);
    put_svar(w, a->pat.guess);
    put_var(w, a->pat.requests);
    put_svar(w, a->first_node);
    put_svar(w, a->first_writer);
    put(w, &a->pat.requesters, 1);
    put(w, &a->pat.writers, 1);
    uint8_t f = aug_flags(a);
    put(w, &f, 1);
    put(w, &a->adapt, 1); /* the adaptive protocol's state */
    put_var(w, a->consumers);
    put_svar(w, a->next); /* the group's link (the bulk fetch) */
}

/* Sharer sets are saved as their member lists (count, then the nodes in
 * ascending order), so that any representation can be saved and restored. */
size_t proto_engine_save(const proto_engine *e, void *buf, size_t cap)
{
    wbuf w = { buf, 0, cap };
    put(&w, e->home1, sizeof *e->home1 * e->nblocks);
    for (int which = 0; which < 2; which++)
        for (uint32_t b = 0; b < e->nblocks; b += CACHE_CHUNK) {
            const cache_chunk *c = e->cchunk[b >> CACHE_CHUNK_SHIFT];
            uint32_t n = e->nblocks - b < CACHE_CHUNK ? e->nblocks - b : CACHE_CHUNK;
            put(&w, which ? c->deferred : c->cstate, n);
        }
    for (uint32_t b = 0; b < e->nblocks; b++) {
        const dir_entry *d = engine_dir_at(e, b);
        uint8_t present = d != NULL;
        put(&w, &present, 1);
        if (!d)
            continue;
        put(&w, &d->state, 1);
        put(&w, &d->owner, sizeof d->owner);
        put(&w, &d->pending, sizeof d->pending);
        put(&w, &d->acks, sizeof d->acks);
        put(&w, &d->grant, 1);
        int32_t nsharers = sharers_count(&d->sharers);
        put(&w, &nsharers, sizeof nsharers);
        SHARERS_FOREACH(&d->sharers, s) {
            int32_t node = s;
            put(&w, &node, sizeof node);
        }
        uint32_t qlen = d->q ? d->q->len : 0;
        put(&w, &qlen, sizeof qlen);
        for (uint32_t i = 0; i < qlen; i++) {
            const dir_waiter *wt = &d->q->w[(d->q->head + i) % d->q->cap];
            put(&w, &wt->node, sizeof wt->node);
            put(&w, &wt->type, sizeof wt->type);
        }
    }
    /* the blocks to push or flush at the end of the epoch (adaptive) */
    put(&w, &e->epoch_n, sizeof e->epoch_n);
    for (uint32_t i = 0; i < e->epoch_n; i++) {
        put(&w, &e->epoch[i].block, sizeof e->epoch[i].block);
        put(&w, &e->epoch[i].flush, 1);
    }
    /* The pattern detection's state, when it runs: it is state like the
     * rest (a restored engine must detect what the original would), and
     * the exploration must tell apart states that differ only in it. */
    uint8_t aug = e->augment && e->last_accessed;
    put(&w, &aug, 1);
    if (aug) {
        for (int n = 0; n < e->nnodes; n++)
            put_svar(&w, e->last_accessed[n]);
        dir_aug fresh;
        augment_init_records(&fresh, 1);
        for (uint32_t b = 0; b < e->nblocks; b++) {
            if (!engine_dir_at(e, b))
                continue;
            const dir_aug *a = e->dchunk[b >> DIR_CHUNK_SHIFT]->aug;
            put_aug(&w, a ? &a[b & (DIR_CHUNK - 1)] : &fresh);
        }
    }
    /* The requesters of forwarded requests deferred by holds (three_hop),
     * by block so that equal states save equal bytes; nothing at all when
     * there are none, so snapshots without them read as before. */
    if (e->ndfwd) {
        put_var(&w, e->ndfwd);
        uint32_t last = 0;
        for (size_t k = 0; k < e->ndfwd; k++) {
            const struct deferred_fwd *next = NULL;
            for (size_t i = 0; i < e->ndfwd; i++)
                if ((k == 0 || e->dfwd[i].block > last) &&
                    (!next || e->dfwd[i].block < next->block))
                    next = &e->dfwd[i];
            put_var(&w, next->block);
            put_var(&w, (uint64_t)next->req);
            last = next->block;
        }
    }
    return w.n;
}

/* Reading side of put_var/put_svar: 0, or -1 (truncated, too long). */
static int get_var(const unsigned char **pp, const unsigned char *end, uint64_t *v)
{
    *v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        if (*pp == end)
            return -1;
        uint8_t b = *(*pp)++;
        *v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80))
            return 0;
    }
    return -1;
}

static int get_svar32(const unsigned char **pp, const unsigned char *end, int32_t *v)
{
    uint64_t u;
    if (get_var(pp, end, &u))
        return -1;
    int64_t x = (u & 1) ? -(int64_t)(u >> 1) - 1 : (int64_t)(u >> 1);
    if (x < INT32_MIN || x > INT32_MAX)
        return -1;
    *v = (int32_t)x;
    return 0;
}

static int get_var32(const unsigned char **pp, const unsigned char *end, uint32_t *v)
{
    uint64_t u;
    if (get_var(pp, end, &u) || u > UINT32_MAX)
        return -1;
    *v = (uint32_t)u;
    return 0;
}

static int get_aug(const unsigned char **pp, const unsigned char *end, dir_aug *a)
{
    augment_init_records(a, 1);
    for (int k = 0; k < PP_NPATTERNS; k++)
        if (get_var32(pp, end, &a->pat.detections[k]))
            return -1;
    if (get_svar32(pp, end, &a->pat.last_owner) || get_svar32(pp, end, &a->pat.group_id) ||
        get_svar32(pp, end, &a->pat.guess) || get_var32(pp, end, &a->pat.requests) ||
        get_svar32(pp, end, &a->first_node) || get_svar32(pp, end, &a->first_writer) ||
        end - *pp < 3)
        return -1;
    a->pat.requesters = *(*pp)++;
    a->pat.writers = *(*pp)++;
    if (a->pat.requesters > 2 || a->pat.writers > 2)
        return -1;
    uint8_t f = *(*pp)++;
    if (f >> 6)
        return -1;
    a->pat.migratory = f & 1;
    a->pat.producer_consumer = f >> 1 & 1;
    a->pat.access_in_group = f >> 2 & 1;
    a->pat.read_only = f >> 3 & 1;
    a->reading = f >> 4 & 1;
    a->written_after = f >> 5 & 1;
    if (end - *pp < 1 || **pp > 31)
        return -1;
    a->adapt = *(*pp)++;
    return get_var32(pp, end, &a->consumers) || get_svar32(pp, end, &a->next) ? -1 : 0;
}

int proto_engine_load(proto_engine *e, const void *buf, size_t len)
{
    const unsigned char *p = buf, *end = p + len;
#define GET(dst, n)                 \
    do {                            \
        if ((size_t)(end - p) < (n)) \
            return PROTO_EINVAL;    \
        memcpy((dst), p, (n));      \
        p += (n);                   \
    } while (0)
    GET(e->home1, sizeof *e->home1 * e->nblocks);
    /* cache states, then deferred types: a chunk is allocated only for
     * blocks that are not I with nothing deferred */
    if ((size_t)(end - p) < 2 * (size_t)e->nblocks)
        return PROTO_EINVAL;
    e->ndeferred = 0;
    for (int which = 0; which < 2; which++)
        for (uint32_t b = 0; b < e->nblocks; b++, p++) {
            if (which ? deferred_set(e, b, *p) : cstate_set(e, b, *p))
                return PROTO_ENOMEM;
            e->ndeferred += which && *p;
        }
    for (uint32_t b = 0; b < e->nblocks; b++) {
        uint8_t present;
        GET(&present, 1);
        if (!present) {
            dir_chunk *c = e->dchunk[b >> DIR_CHUNK_SHIFT];
            if (c)
                dir_clear(c, b & (DIR_CHUNK - 1));
            continue;
        }
        dir_chunk *c;
        dir_entry *d = dir_get(e, b, &c);
        if (!d)
            return PROTO_ENOMEM;
        GET(&d->state, 1);
        GET(&d->owner, sizeof d->owner);
        GET(&d->pending, sizeof d->pending);
        GET(&d->acks, sizeof d->acks);
        GET(&d->grant, 1);
        int32_t nsharers;
        GET(&nsharers, sizeof nsharers);
        if (nsharers < 0 || nsharers > e->nnodes)
            return PROTO_EINVAL;
        sharers_clear(&d->sharers);
        for (int32_t i = 0; i < nsharers; i++) {
            int32_t node;
            GET(&node, sizeof node);
            if (node < 0 || node >= e->nnodes)
                return PROTO_EINVAL;
            sharers_add(&d->sharers, node);
        }
        uint32_t qlen;
        GET(&qlen, sizeof qlen);
        if (d->q)
            d->q->head = d->q->len = 0;
        for (uint32_t i = 0; i < qlen; i++) {
            dir_waiter wt;
            GET(&wt.node, sizeof wt.node);
            GET(&wt.type, sizeof wt.type);
            if (queue_push(d, wt.node, wt.type))
                return PROTO_ENOMEM;
        }
    }
    uint32_t nepoch;
    GET(&nepoch, sizeof nepoch);
    e->epoch_n = 0;
    for (uint32_t i = 0; i < nepoch; i++) {
        uint32_t block;
        uint8_t flush;
        GET(&block, sizeof block);
        GET(&flush, 1);
        if (block >= e->nblocks || flush > 1)
            return PROTO_EINVAL;
        if (epoch_note(e, block, flush))
            return PROTO_ENOMEM;
    }
    /* the pattern records: kept if this engine detects patterns, else
     * read past; a snapshot without them leaves fresh records */
    uint8_t aug;
    GET(&aug, 1);
    if (aug > 1)
        return PROTO_EINVAL;
    int keep = e->augment && e->last_accessed;
    for (int n = 0; n < e->nnodes; n++) {
        int32_t last = -1;
        if (aug && get_svar32(&p, end, &last))
            return PROTO_EINVAL;
        if (keep)
            e->last_accessed[n] = last;
    }
    for (uint32_t b = 0; b < e->nblocks; b++) {
        if (!engine_dir_at(e, b))
            continue;
        dir_aug a;
        if (aug ? get_aug(&p, end, &a) : (augment_init_records(&a, 1), 0))
            return PROTO_EINVAL;
        if (!keep)
            continue;
        dir_chunk *c = e->dchunk[b >> DIR_CHUNK_SHIFT];
        if (!c->aug) {
            c->aug = malloc(DIR_CHUNK * sizeof *c->aug);
            if (!c->aug)
                return PROTO_ENOMEM;
            augment_init_records(c->aug, DIR_CHUNK);
        }
        c->aug[b & (DIR_CHUNK - 1)] = a;
    }
#undef GET
    e->ndfwd = 0;
    if (p < end) {
        uint32_t n;
        if (get_var32(&p, end, &n) || n == 0 || n > e->ndeferred) /* written only when some */
            return PROTO_EINVAL;
        for (uint32_t k = 0; k < n; k++) {
            uint32_t block, req;
            if (get_var32(&p, end, &block) || get_var32(&p, end, &req) || block >= e->nblocks ||
                req >= (uint32_t)e->nnodes)
                return PROTO_EINVAL;
            if (dfwd_push(e, block, (int32_t)req))
                return PROTO_ENOMEM;
        }
    }
    e->selfq_len = e->selfq_head = 0;
    return p == end ? PROTO_OK : PROTO_EINVAL;
}
