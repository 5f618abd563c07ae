/* augment.c - the augmented protocol of Xu, Larus and Miller (section 3.1):
 * sharing-pattern detection at the home, on the requests it serves.  It
 * reads the directory and writes only the augmentation fields, so the
 * engine's actions are the same with it on or off (tests/explore proves it
 * in every reachable state).  The rules, as doc/patterns.md states them:
 *
 *  lastOwner  a read or write request from a node other than the block's
 *             current owner makes that owner the lastOwner.
 *  migratory  at an upgrade with exactly one sharer, a requester other than
 *             lastOwner marks the block migratory (one detection); lastOwner
 *             equal to the requester, or a sharer count other than one,
 *             clears the flag.  With downgrade_on_read (a simulated
 *             machine's option) two sharers, the requester and lastOwner
 *             (which kept a read copy), count as one.  A write request for
 *             a block another node owns is the same thing fused only when
 *             the request says its access also reads (PROTO_MSG_READS: R^j
 *             W^j of one read-modify-write instruction, which faults once,
 *             as a write); a plain overwrite is not migration.
 *  producer-  at a write request (GETX or upgrade) on a read-shared block,
 *  consumer   a requester equal to lastOwner while the sharers include other
 *             nodes (the readers) marks it; another writer clears the flag.
 *  group      Figure 2, per requesting node, over the blocks of this home;
 *             a second request for the block last requested (a read miss
 *             then its upgrade) is not a new step of the sequence.  A
 *             co-access pattern: it is counted, never a sharing pattern.
 *  read-only  the first write epoch is every request of the first node
 *             that requested the block (reads and writes: an initialisation
 *             may read-modify-write); reads begin with the first request of
 *             another node.  Each read request after reads began, with no
 *             write request since, is a read-only detection; a later write
 *             clears the flag and the block's read-only detections.
 *  private    (the sharing pattern of a block one node alone requested)
 *             needs no rule: requesters and writers are counted. */
#include <stdlib.h>
#include <string.h>

#include "engine_internal.h"

void augment_init_records(dir_aug *a, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        memset(&a[i], 0, sizeof a[i]);
        a[i].pat.last_owner = -1;
        a[i].pat.group_id = -1;
        a[i].pat.guess = -1;
        a[i].first_node = -1;
        a[i].first_writer = -1;
        a[i].next = -1;
    }
}

/* The augmentation records of a chunk, allocated at the first request the
 * augmentation serves in it (a run without pattern detection, such as a
 * simulated machine's, never pays for them); NULL when out of memory. */
static dir_aug *chunk_aug(dir_chunk *c)
{
    if (!c->aug) {
        c->aug = malloc(DIR_CHUNK * sizeof *c->aug);
        if (c->aug)
            augment_init_records(c->aug, DIR_CHUNK);
    }
    return c->aug;
}

/* The augmentation record of an existing entry's block, or NULL (no entry,
 * or no memory). */
static dir_aug *aug_of_block(proto_engine *e, uint32_t block)
{
    if (block >= e->nblocks || !engine_dir_at(e, block))
        return NULL;
    dir_aug *a = chunk_aug(e->dchunk[block >> DIR_CHUNK_SHIFT]);
    return a ? &a[block & (DIR_CHUNK - 1)] : NULL;
}

void proto_set_augment(proto_engine *e, int on)
{
    if (on && !e->last_accessed) {
        e->last_accessed = malloc(sizeof *e->last_accessed * (size_t)e->nnodes);
        if (!e->last_accessed)
            on = 0; /* no memory: run unaugmented rather than fail */
        else
            for (int n = 0; n < e->nnodes; n++)
                e->last_accessed[n] = -1;
    }
    e->augment = on;
}

int proto_augment_enabled(const proto_engine *e) { return e->augment; }

static int other_sharer(const dir_entry *d, int node)
{
    int n = sharers_count(&d->sharers);
    return n > 1 || (n == 1 && !sharers_contains(&d->sharers, node));
}

/* With downgrade_on_read the owner a reader recalled keeps a read copy, so
 * at the new user's upgrade the sharers are {lastOwner, requester}, not
 * {requester}.  Counted as the one-sharer case, as the adaptive protocols of
 * Cox/Fowler and Stenstrom count "exactly two copies, and the writer is not
 * the last writer".  Never true without downgrades (the DSM's rule is
 * unchanged). */
static int downgraded_owner_pair(const proto_engine *e, const dir_entry *d,
                                 const dir_aug *a, int from)
{
    return e->downgrade_on_read && sharers_count(&d->sharers) == 2 &&
           sharers_contains(&d->sharers, from) &&
           sharers_contains(&d->sharers, a->pat.last_owner);
}

static void detect(proto_block_patterns *p, int pattern)
{
    p->detections[pattern]++;
}

static void group_step(proto_engine *e, dir_aug *a, uint32_t block, int from)
{
    int32_t last = e->last_accessed[from];
    if (last == (int32_t)block)
        return;
    proto_block_patterns *c = &a->pat;
    dir_aug *la = last >= 0 && c->guess == last ? aug_of_block(e, (uint32_t)last) : NULL;
    if (la) {
        c->group_id = la->pat.group_id;
        c->access_in_group = 1;
        la->pat.access_in_group = 1;
        la->next = (int32_t)block; /* the link the adaptive bulk fetch follows */
        detect(c, PP_GROUP);
    } else {
        c->guess = last;
        c->group_id = (int32_t)block;
        c->access_in_group = 0;
    }
    e->last_accessed[from] = (int32_t)block;
}

/* Distinct requesting (writing) nodes, saturating at two. */
static void count_nodes(dir_aug *a, int write, int from)
{
    proto_block_patterns *p = &a->pat;
    if (a->first_node < 0) {
        a->first_node = from;
        p->requesters = 1;
    } else if (a->first_node != from) {
        p->requesters = 2;
    }
    if (write) {
        if (a->first_writer < 0) {
            a->first_writer = from;
            p->writers = 1;
        } else if (a->first_writer != from) {
            p->writers = 2;
        }
    }
}

/* Read-only: the first node's requests are the first write epoch, even its
 * reads (an initialisation by read-modify-write); another node's request
 * begins the reads, and a write from then on ends read-only for good. */
static void read_only_step(dir_aug *a, int write, int from)
{
    proto_block_patterns *p = &a->pat;
    if (!a->reading && from != a->first_node) {
        if (write) {
            a->written_after = 1; /* two writers before any reader: never read-only */
            return;
        }
        a->reading = 1;
    }
    if (write) {
        if (a->reading) {
            a->written_after = 1;
            p->read_only = 0;
            p->detections[PP_READ_ONLY] = 0;
        }
        return;
    }
    if (a->reading && !a->written_after) {
        p->read_only = 1;
        detect(p, PP_READ_ONLY);
    }
}

void augment_request(proto_engine *e, dir_chunk *c, dir_entry *d, uint32_t block, int type,
                     int from, int flags)
{
    dir_aug *chunk_records = chunk_aug(c);
    if (!chunk_records)
        return; /* no memory: undetected; the protocol does not depend on it */
    dir_aug *a = &chunk_records[block & (DIR_CHUNK - 1)];
    proto_block_patterns *p = &a->pat;
    int write = type != PM_GETS;
    p->requests++;

    if (type == PM_UPGRADE) {
        if (p->last_owner >= 0 && p->last_owner != from &&
            (sharers_count(&d->sharers) == 1 || downgraded_owner_pair(e, d, a, from))) {
            p->migratory = 1;
            detect(p, PP_MIGRATORY);
        } else {
            p->migratory = 0;
        }
    } else if (type == PM_GETX && d->state == PD_EXCL && d->owner != from) {
        /* R^j W^j fused: a read-modify-write instruction faults once, as a
         * write, so the home sees a write request for a block another node
         * owns.  Its read part would make the owner lastOwner and leave the
         * requester the only sharer: the upgrade rule then reads so.  A
         * write that does not read (the block overwritten in turn) is no
         * migration: nothing the new owner uses came with the block. */
        p->migratory = (flags & PROTO_MSG_READS) != 0;
        if (p->migratory)
            detect(p, PP_MIGRATORY);
    }
    if (write && d->state == PD_SHARED) {
        if (from == p->last_owner && other_sharer(d, from)) {
            p->producer_consumer = 1;
            detect(p, PP_PRODUCER_CONSUMER);
            /* the readers this write invalidates: where the adaptive
             * protocol pushes the producer's next copy */
            a->consumers = 0;
            SHARERS_FOREACH(&d->sharers, s)
                if (s != from && s < 32)
                    a->consumers |= 1u << s;
        } else {
            p->producer_consumer = 0;
            a->consumers = 0;
        }
    }
    /* the adaptive protocol: a flush its own flusher asks back was wasted
     * (but the home's: its flush and its request back move no data) */
    if (a->adapt & ADAPT_FLUSHED)
        a->adapt = (uint8_t)((a->adapt & ~ADAPT_FLUSHED) |
                             (from == p->last_owner && from != e->self ? ADAPT_NOFLUSH : 0));
    count_nodes(a, write, from);
    read_only_step(a, write, from);
    group_step(e, a, block, from);
    /* last: the rules above compare against the previous lastOwner */
    if (d->state == PD_EXCL && d->owner != from)
        p->last_owner = d->owner;
    /* the adaptive protocol: the owner is recalled; remember whether it got
     * the block by a read granted exclusive (adapt_recalled) */
    if (d->state == PD_EXCL)
        a->adapt = a->adapt & ADAPT_OWNED ? ADAPT_RECALLED_OWNED : 0;
}

int proto_patterns_of(const proto_engine *e, uint32_t block, proto_block_patterns *out)
{
    if (block >= e->nblocks)
        return PROTO_EINVAL;
    const dir_chunk *c = e->dchunk[block >> DIR_CHUNK_SHIFT];
    if (!engine_dir_at(e, block) || !c->aug) {
        /* a block the augmentation never served: a new record */
        dir_aug fresh;
        augment_init_records(&fresh, 1);
        *out = fresh.pat;
        return PROTO_OK;
    }
    *out = c->aug[block & (DIR_CHUNK - 1)].pat;
    return PROTO_OK;
}

static proto_pattern most_detected(const uint32_t det[PP_NPATTERNS], const proto_pattern *order,
                                   size_t n)
{
    proto_pattern best = PP_NONE;
    uint32_t most = 0;
    for (size_t i = 0; i < n; i++)
        if (det[order[i]] > most) {
            most = det[order[i]];
            best = order[i];
        }
    return best;
}

proto_pattern proto_dominant_pattern(const uint32_t det[PP_NPATTERNS])
{
    /* Group is left out: it answers another question (which blocks travel
     * together), and its count, one per request in a fixed order, would
     * outvote the one detection per write of the sharing patterns.  A
     * block with read-only detections has had no write since reads began,
     * so read-only only speaks when the writing patterns are silent. */
    static const proto_pattern order[] = { PP_MIGRATORY, PP_PRODUCER_CONSUMER };
    proto_pattern w = most_detected(det, order, 2);
    if (w != PP_NONE)
        return w;
    return det[PP_READ_ONLY] ? PP_READ_ONLY : PP_NONE;
}

proto_pattern proto_sharing_pattern(const proto_block_patterns *p)
{
    proto_pattern d = proto_dominant_pattern(p->detections);
    if (d != PP_NONE)
        return d;
    if (p->requesters == 1)
        return PP_PRIVATE;
    if (p->requesters > 1 && p->writers > 0)
        return PP_WRITE_SHARED;
    return PP_NONE; /* no request, or several readers and no writer but one reader */
}

const char *proto_pattern_name(int p)
{
    switch (p) {
    case PP_NONE: return "none";
    case PP_MIGRATORY: return "migratory";
    case PP_PRODUCER_CONSUMER: return "producer_consumer";
    case PP_GROUP: return "group";
    case PP_READ_ONLY: return "read_only";
    case PP_PRIVATE: return "private";
    case PP_WRITE_SHARED: return "write_shared";
    default: return "?";
    }
}

/* ---- the adaptive protocol (proto_config.adapt; doc/patterns.md) ----
 * What the detection above found changes the grants, as the migratory
 * protocols of Cox and Fowler and of Stenstrom et al. proposed: a read of a
 * block detected migratory is granted exclusive (DATA_X), so the reader's
 * write that follows costs no upgrade (one miss per visit instead of a read
 * miss and an upgrade).  A reader so granted that did not write before
 * another node read (its recalled copy is clean: PROTO_MSG_CLEAN) shows the
 * block read-shared: the pending reader gets a shared copy, the migratory
 * flag is cleared, and plain shared grants serve the block until the
 * upgrade rule detects migration again. */

static dir_aug *adapt_aug(dir_chunk *c, uint32_t block)
{
    dir_aug *records = chunk_aug(c);
    return records ? &records[block & (DIR_CHUNK - 1)] : NULL;
}

int adapt_read_exclusive(proto_engine *e, dir_chunk *c, const dir_entry *d, uint32_t block,
                         int from)
{
    if (!e->augment || !c->aug)
        return 0;
    const dir_aug *a = &c->aug[block & (DIR_CHUNK - 1)];
    /* unowned: flushed home at the end of its last owner's epoch */
    return a->pat.migratory && (d->state == PD_UNOWNED || (d->state == PD_EXCL && d->owner != from));
}

int adapt_read_downgrade(proto_engine *e, dir_chunk *c, const dir_entry *d, uint32_t block,
                         int from)
{
    if (!e->augment || !c->aug)
        return 0;
    const dir_aug *a = &c->aug[block & (DIR_CHUNK - 1)];
    return a->pat.producer_consumer && d->state == PD_EXCL && d->owner != from;
}

void adapt_read_served(proto_engine *e, dir_chunk *c, const dir_entry *d, uint32_t block,
                       int from)
{
    (void)from;
    dir_aug *a = adapt_aug(c, block);
    if (!a)
        return;
    if (d->state == PD_UNOWNED) { /* granted now, from the home's memory */
        a->adapt = ADAPT_OWNED | (a->adapt & ADAPT_NOFLUSH);
        e->adapt_counts.exclusive_reads++;
    } else { /* granted when the owner's data is back (adapt_recalled) */
        a->adapt |= ADAPT_PENDING;
    }
}

void adapt_recalled(proto_engine *e, dir_chunk *c, dir_entry *d, uint32_t block, int from,
                    int flags)
{
    (void)from;
    dir_aug *a = adapt_aug(c, block);
    if (!a)
        return;
    uint8_t bits = a->adapt;
    a->adapt = 0;
    if (!(bits & ADAPT_PENDING)) /* a recall for a write request or a plain read */
        return;
    if ((flags & PROTO_MSG_CLEAN) && (bits & ADAPT_RECALLED_OWNED) && d->grant == GRANT_X) {
        d->grant = GRANT_S; /* the pending read gets a shared copy */
        a->pat.migratory = 0;
        e->adapt_counts.fallbacks++;
        return;
    }
    a->adapt = ADAPT_OWNED;
    e->adapt_counts.exclusive_reads++;
}

uint8_t adapt_grant_flags(const proto_engine *e, uint32_t block, int to)
{
    const dir_chunk *c = e->dchunk[block >> DIR_CHUNK_SHIFT];
    if (!e->augment || !c || !c->aug)
        return 0;
    const dir_aug *a = &c->aug[block & (DIR_CHUNK - 1)];
    uint32_t others = a->consumers & ~(to < 32 ? 1u << to : 0u);
    if (a->pat.producer_consumer && others)
        return PROTO_MSG_PUSH;
    return a->pat.migratory && !(a->adapt & ADAPT_NOFLUSH) ? PROTO_MSG_FLUSH : 0;
}

void adapt_flushed(proto_engine *e, dir_chunk *c, uint32_t block, int from, int flags)
{
    dir_aug *a = adapt_aug(c, block);
    int push = (flags & PROTO_MSG_PUSH) != 0;
    if (push)
        e->adapt_counts.pushes++;
    else
        e->adapt_counts.flushes++;
    if (!a)
        return;
    /* a reader granted exclusive that did not write: read-shared after all */
    if ((flags & PROTO_MSG_CLEAN) && (a->adapt & ADAPT_OWNED)) {
        a->pat.migratory = 0;
        e->adapt_counts.fallbacks++;
    }
    a->adapt = 0;
    if (!push) {
        /* the flusher was the owner: the next requester's recall would have
         * made it lastOwner; if the next requester is the flusher itself,
         * the flush was wasted (augment_request) */
        a->pat.last_owner = from;
        a->adapt = ADAPT_FLUSHED;
    }
}

/* Bulk fetch of a group (Figure 2's co-access pattern): the blocks a node
 * requested one after the other, each confirming the guess of the next,
 * are missed together; the read miss of one brings the others the home can
 * grant at once (shared, the requester not listed: no recall, no wait for
 * a busy block, no copy sent twice).  The home's own misses move no data
 * and are left alone.  Only at a shared block: a block of a group was
 * requested before, so it is unowned only after a flush, a rare case the
 * plain read grant serves. */
static const dir_aug *aug_at(const proto_engine *e, uint32_t block)
{
    if (block >= e->nblocks || engine_home_of(e, block) != e->self || !engine_dir_at(e, block))
        return NULL;
    const dir_chunk *c = e->dchunk[block >> DIR_CHUNK_SHIFT];
    return c->aug ? &c->aug[block & (DIR_CHUNK - 1)] : NULL;
}

int64_t adapt_group_next(const proto_engine *e, uint32_t start, uint32_t cur, int *steps)
{
    if (++*steps > ADAPT_GROUP_MAX)
        return -1;
    const dir_aug *a = aug_at(e, cur);
    if (!a || a->next < 0 || (uint32_t)a->next == start)
        return -1; /* the end, or back at the start of a cyclic group */
    const dir_aug *n = aug_at(e, (uint32_t)a->next);
    /* a stale link (the next block's guess changed since) ends the walk;
     * a cycle can only come back to start: each block has one guess */
    if (!n || n->pat.guess != (int32_t)cur || !n->pat.access_in_group)
        return -1;
    return a->next;
}

int adapt_read_group(const proto_engine *e, const dir_chunk *c, const dir_entry *d,
                     uint32_t block, int from)
{
    if (!e->augment || !c->aug || from == e->self || !engine_group_grantable(e, d, block, from))
        return 0;
    const dir_aug *a = &c->aug[block & (DIR_CHUNK - 1)];
    int steps = 0;
    return a->pat.access_in_group && adapt_group_next(e, block, block, &steps) >= 0;
}

void proto_adapt_counts_of(const proto_engine *e, proto_adapt_counts *out)
{
    *out = e->adapt_counts;
}

void proto_set_adapt(proto_engine *e, int on)
{
    e->adapt = on != 0;
    e->opts &= ~(PROTO_NEEDS_ADAPT | PROTO_NEEDS_DOWNGRADE);
    if (e->adapt)
        e->opts |= PROTO_NEEDS_ADAPT | PROTO_NEEDS_DOWNGRADE;
    if (e->downgrade_on_read)
        e->opts |= PROTO_NEEDS_DOWNGRADE;
}
