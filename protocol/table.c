/* table.c - the protocol, as two explicit transition tables: for every
 * (state, event) pair either an action list and a next state, or a reason why
 * the pair cannot happen (the engine rejects it loudly).  doc/protocol.md is
 * generated from these tables (tests/proto_table_doc checks it is current).
 *
 * Ordering assumption: FIFO per pair of nodes.  That is why, for example, a
 * node waiting for DATA_S can never see an INV: the home adds it to the
 * sharers only when it sends the DATA_S, and the INV would come after it.
 *
 * Evictions (CE_EVICT, proto_evict) are made by a simulated cache, which
 * chooses its victims among settled, unheld blocks only: S, E and M.  A
 * block with a request in flight (IS, IM, SM) or a writeback in flight (MI)
 * is not a line the cache could replace yet, and a held grant (SH, MH, EH)
 * must first serve the access that faulted for it (the hold is what makes
 * that access progress).  Without replacement hints a dropped S copy stays in
 * the home's sharer set, so an INV can find its node in I, IS or IM: the INV
 * was sent before the home served the node's new request (FIFO per pair
 * would have brought a grant first otherwise), so it concerns the dropped
 * copy and is simply acknowledged.  (With replacement hints too: the PUTS
 * may cross the INV.)  Without evictions these entries are refused: an INV
 * then always finds the copy it invalidates.
 *
 * Downgrade on read (downgrade_on_read): a GETS at an Exclusive block sends
 * RECALL_S; the owner answers WB_DATA and keeps a read copy (M/E -> S), and
 * the home lists both as sharers.  A PUTX/PUTE crossing it is served as for
 * a RECALL (the evicted copy is gone: the reader is the only sharer).
 *
 * Three-hop interventions (three_hop, the columns at the end of each table):
 * a request at an owned block is forwarded to the owner (FWD_GETS/FWD_GETX,
 * naming the requester); the owner answers the requester directly
 * (FWD_DATA_S, keeping a read copy; FWD_DATA_X, keeping nothing), and the
 * requester, once it has the line, tells the home (SHWB with the line, the
 * sharing write-back; XFER, the ownership transfer).  The home stays busy
 * (BusyRecall) until then, so none of its later INVs or forwards can
 * overtake the owner's data at the requester (they travel on another pair's
 * channel).  A forward crossing the owner's PUTX/PUTE is dropped by the
 * owner in MI, and the home answers the requester from the writeback, as
 * for a recall. */
#include "engine_internal.h"

#define OK(nx, ...) { 1, nx, { __VA_ARGS__ }, NULL, 0 }
#define NO(reason) { 0, 0, { 0 }, reason, 0 }
/* An entry only the inputs of hardware options can reach: refused by an
 * engine created without them (proto.h, PROTO_NEEDS_*). */
#define OPT(needs, nx, ...) { 1, nx, { __VA_ARGS__ }, NULL, needs, 0 }
/* Valid with the options `needs`, or with the options `or_needs`. */
#define OPT_OR(needs, or_needs, nx, ...) { 1, nx, { __VA_ARGS__ }, NULL, needs, or_needs }
#define EVICTIONS PROTO_NEEDS_EVICTIONS
#define HINTS (PROTO_NEEDS_EVICTIONS | PROTO_NEEDS_HINTS)
#define EXCL PROTO_NEEDS_EXCL_CLEAN
#define DOWNGRADE PROTO_NEEDS_DOWNGRADE
#define ADAPT PROTO_NEEDS_ADAPT
#define THREE PROTO_NEEDS_THREE_HOP

#define EVICT_IN_FLIGHT \
    "the cache evicts only settled blocks (S, E, M), never one with a request or writeback in flight"
#define EVICT_HELD \
    "a held grant must first serve the access that faulted for it; the cache evicts S, E, M only"
#define NO_WRITEBACK "no writeback is in flight"
#define NOT_READING "no read request is in flight"
#define FWD_NOT_WRITING "no write request is in flight"
#define FWD_NOT_OWNER "the home forwards requests to the owner only"
#define FWD_NOT_OWNER_I \
    "the home forwards to the owner only, and an evicting owner waits in MI until its PUT_ACK, " \
    "which FIFO delivery brings after any forward"
#define FWD_NOT_OWNER_YET \
    "not an owner yet: the home forwards to a new owner only after its XFER, sent once the " \
    "line is in"
/* The home shares its own block along a group only from a settled M copy
 * (engine_group_grantable checks the state before choosing the entry). */
#define HOME_SHARES_M \
    "the home shares along a group only a block it owns itself, from a settled M copy"
#define DROPPED_INV_ACK OPT(EVICTIONS, PC_I, ST_SEND_INV_ACK) /* see the header: a dropped copy */
/* The adaptive protocol's epoch end (proto_epoch_end): only an owner with a
 * modified copy (M) pushes or flushes; in any other state the block was
 * taken away or is still held for its grant's access, and the push is
 * skipped. */
#define EPOCH_SKIP(st) OPT(ADAPT, st, ST_END)
#define PUSH_TO_SHARER "the home pushes only to nodes it does not list as sharers or owner"
#define GROUP_TO_LISTED \
    "the home sends a group's copies only to nodes it does not list as sharers or owner"
/* A push, or a group's copy (bulk fetch), reaches a node with a request in
 * flight (its request had not reached the home yet): the node declines it,
 * as a copy dropped silently; the home lists it, and its INV is
 * acknowledged from IS or IM. */
#define PUSH_DECLINED(st) OPT(ADAPT, st, ST_END)
/* A flush crossed the home's RECALL (the home took it as the recalled
 * data): the RECALL finds the flushed node in I, or in IS or IM when it
 * asked again since (its request follows the flush, so the home answers it
 * after the RECALL). */
#define FLUSH_CROSSED(st) OPT(ADAPT, st, ST_END)

const proto_table_entry proto_cache_table[PC_NSTATES][CE_NEVENTS] = {
    [PC_I] = {
        [CE_LOAD] = OK(PC_IS, ST_SEND_GETS, ST_WAIT),
        [CE_STORE] = OK(PC_IM, ST_SEND_GETX, ST_WAIT),
        [CE_DATA_S] = NO("no read request is in flight"),
        [CE_DATA_X] = NO("no write request is in flight"),
        [CE_UPGRADE_ACK] = NO("no upgrade is in flight"),
        /* the copy was dropped silently: the home still lists this node */
        [CE_INV] = DROPPED_INV_ACK,
        [CE_RECALL] = FLUSH_CROSSED(PC_I),  /* else: the home recalls only from the owner, and an evicting owner is in MI until its PUT_ACK */
        [CE_RELEASE] = OK(PC_I, ST_END),  /* nothing held (already released) */
        [CE_EVICT] = NO("nothing to evict: the cache evicts only blocks in S, E or M"),
        [CE_DATA_E] = NO(NOT_READING),
        [CE_PUT_ACK] = NO(NO_WRITEBACK),
        [CE_RECALL_S] = FLUSH_CROSSED(PC_I),
        [CE_EPOCH_PUSH] = EPOCH_SKIP(PC_I),
        [CE_EPOCH_FLUSH] = EPOCH_SKIP(PC_I),
        [CE_PUSH_DATA] = OPT(ADAPT, PC_S, ST_INSTALL, ST_ACCESS_READ),  /* a read miss spared */
        [CE_GROUP_DATA] = OPT(ADAPT, PC_S, ST_INSTALL, ST_ACCESS_READ),  /* a read miss spared */
    },
    [PC_S] = {
        [CE_LOAD] = OK(PC_S, ST_COMPLETE),   /* a thread faulted before another's grant: retry */
        [CE_STORE] = OK(PC_SM, ST_SEND_UPGRADE, ST_WAIT),
        [CE_DATA_S] = NO("no read request is in flight"),
        [CE_DATA_X] = NO("no write request is in flight"),
        [CE_UPGRADE_ACK] = NO("no upgrade is in flight"),
        [CE_INV] = OK(PC_I, ST_ACCESS_NONE, ST_SEND_INV_ACK),
        /* the owner pushed (M -> S) as the home recalled it: the home took the
         * push as a copy and waits for this answer */
        [CE_RECALL] = OPT(ADAPT, PC_I, ST_ACCESS_NONE, ST_SEND_WB_DATA),
        [CE_RELEASE] = OK(PC_S, ST_END),  /* nothing held (already released) */
        /* silent without replacement hints: the home keeps listing us */
        [CE_EVICT] = OPT(EVICTIONS, PC_I, ST_ACCESS_NONE, ST_SEND_PUTS_IF_HINTS),
        [CE_DATA_E] = NO(NOT_READING),
        [CE_PUT_ACK] = NO(NO_WRITEBACK),
        [CE_RECALL_S] = OPT(ADAPT, PC_S, ST_SEND_WB_DATA),  /* as RECALL, keeping the copy */
        [CE_EPOCH_PUSH] = EPOCH_SKIP(PC_S),
        [CE_EPOCH_FLUSH] = EPOCH_SKIP(PC_S),
        [CE_PUSH_DATA] = NO(PUSH_TO_SHARER),
        [CE_GROUP_DATA] = NO(GROUP_TO_LISTED),
    },
    [PC_M] = {
        [CE_LOAD] = OK(PC_M, ST_COMPLETE),
        [CE_STORE] = OK(PC_M, ST_COMPLETE),
        [CE_DATA_S] = NO("no read request is in flight"),
        [CE_DATA_X] = NO("no write request is in flight"),
        [CE_UPGRADE_ACK] = NO("no upgrade is in flight"),
        [CE_INV] = NO("the owner is recalled, never invalidated"),
        [CE_RECALL] = OK(PC_I, ST_ACCESS_NONE, ST_SEND_WB_DATA),
        [CE_RELEASE] = OK(PC_M, ST_END),  /* nothing held (already released) */
        [CE_EVICT] = OPT(EVICTIONS, PC_MI, ST_ACCESS_NONE, ST_SEND_PUTX),
        [CE_DATA_E] = NO(NOT_READING),
        [CE_PUT_ACK] = NO(NO_WRITEBACK),
        [CE_RECALL_S] = OPT(DOWNGRADE, PC_S, ST_ACCESS_READ, ST_SEND_WB_DATA),  /* keep a read copy */
        [CE_EPOCH_PUSH] = OPT(ADAPT, PC_S, ST_ACCESS_READ, ST_SEND_PUSH),
        [CE_EPOCH_FLUSH] = OPT(ADAPT, PC_I, ST_ACCESS_NONE, ST_SEND_FLUSH),
        [CE_PUSH_DATA] = NO(PUSH_TO_SHARER),
        [CE_GROUP_DATA] = NO(GROUP_TO_LISTED),
    },
    [PC_IS] = {
        [CE_LOAD] = OK(PC_IS, ST_WAIT),
        [CE_STORE] = OK(PC_IS, ST_WAIT),     /* retried after the read grant: then an upgrade */
        [CE_DATA_S] = OK(PC_SH, ST_INSTALL, ST_ACCESS_READ, ST_COMPLETE),
        /* adaptive protocol: a read of a migratory block granted exclusive */
        [CE_DATA_X] = OPT(ADAPT, PC_MH, ST_INSTALL, ST_ACCESS_WRITE, ST_COMPLETE),
        [CE_UPGRADE_ACK] = NO("a read request is answered with DATA_S"),
        /* sent before the home served our GETS (an INV sent after it
         * would follow the DATA_S): it is for the copy dropped silently */
        [CE_INV] = OPT_OR(EVICTIONS, ADAPT, PC_IS, ST_SEND_INV_ACK),  /* or a declined push */
        [CE_RECALL] = FLUSH_CROSSED(PC_IS),
        [CE_RELEASE] = OK(PC_IS, ST_END),  /* nothing held (already released) */
        [CE_EVICT] = NO(EVICT_IN_FLIGHT),
        [CE_DATA_E] = OPT(EXCL, PC_EH, ST_INSTALL, ST_ACCESS_READ, ST_COMPLETE),
        [CE_PUT_ACK] = NO(NO_WRITEBACK),
        [CE_RECALL_S] = FLUSH_CROSSED(PC_IS),
        [CE_EPOCH_PUSH] = EPOCH_SKIP(PC_IS),
        [CE_EPOCH_FLUSH] = EPOCH_SKIP(PC_IS),
        [CE_PUSH_DATA] = PUSH_DECLINED(PC_IS),  /* its DATA_S follows */
        [CE_GROUP_DATA] = PUSH_DECLINED(PC_IS),  /* the request of its own for the block: answered after */
    },
    [PC_IM] = {
        [CE_LOAD] = OK(PC_IM, ST_WAIT),
        [CE_STORE] = OK(PC_IM, ST_WAIT),
        [CE_DATA_S] = NO("a write request is answered with DATA_X"),
        [CE_DATA_X] = OK(PC_MH, ST_INSTALL, ST_ACCESS_WRITE, ST_COMPLETE),
        [CE_UPGRADE_ACK] = NO("the home answers an upgrade from a non-sharer with DATA_X"),
        /* as in IS: for a copy dropped silently before the GETX (a node
         * that came from SM was invalidated once and is no sharer now) */
        [CE_INV] = OPT_OR(EVICTIONS, ADAPT, PC_IM, ST_SEND_INV_ACK),  /* or a declined push */
        [CE_RECALL] = FLUSH_CROSSED(PC_IM),
        [CE_RELEASE] = OK(PC_IM, ST_END),  /* nothing held (already released) */
        [CE_EVICT] = NO(EVICT_IN_FLIGHT),
        [CE_DATA_E] = NO("a write request is answered with DATA_X"),
        [CE_PUT_ACK] = NO(NO_WRITEBACK),
        [CE_RECALL_S] = FLUSH_CROSSED(PC_IM),
        [CE_EPOCH_PUSH] = EPOCH_SKIP(PC_IM),
        [CE_EPOCH_FLUSH] = EPOCH_SKIP(PC_IM),
        [CE_PUSH_DATA] = PUSH_DECLINED(PC_IM),  /* its DATA_X follows */
        [CE_GROUP_DATA] = PUSH_DECLINED(PC_IM),  /* its DATA_X follows */
    },
    [PC_SH] = {
        [CE_LOAD] = OK(PC_SH, ST_COMPLETE),
        [CE_STORE] = OK(PC_SH, ST_WAIT),     /* upgrades after the release */
        [CE_DATA_S] = NO("no read request is in flight"),
        [CE_DATA_X] = NO("no write request is in flight"),
        [CE_UPGRADE_ACK] = NO("no upgrade is in flight"),
        [CE_INV] = OK(PC_SH, ST_DEFER),
        [CE_RECALL] = NO("a sharer is not an owner"),
        [CE_RELEASE] = OK(PC_S, ST_REPLAY),
        [CE_EVICT] = NO(EVICT_HELD),
        [CE_DATA_E] = NO(NOT_READING),
        [CE_PUT_ACK] = NO(NO_WRITEBACK),
        [CE_RECALL_S] = NO("a sharer is not an owner"),
        [CE_EPOCH_PUSH] = EPOCH_SKIP(PC_SH),
        [CE_EPOCH_FLUSH] = EPOCH_SKIP(PC_SH),
        [CE_PUSH_DATA] = NO(PUSH_TO_SHARER),
        [CE_GROUP_DATA] = NO(GROUP_TO_LISTED),
    },
    [PC_MH] = {
        [CE_LOAD] = OK(PC_MH, ST_COMPLETE),
        [CE_STORE] = OK(PC_MH, ST_COMPLETE),
        [CE_DATA_S] = NO("no read request is in flight"),
        [CE_DATA_X] = NO("no write request is in flight"),
        [CE_UPGRADE_ACK] = NO("no upgrade is in flight"),
        [CE_INV] = NO("the owner is recalled, never invalidated"),
        [CE_RECALL] = OK(PC_MH, ST_DEFER),
        [CE_RELEASE] = OK(PC_M, ST_REPLAY),
        [CE_EVICT] = NO(EVICT_HELD),
        [CE_DATA_E] = NO(NOT_READING),
        [CE_PUT_ACK] = NO(NO_WRITEBACK),
        [CE_RECALL_S] = OPT(DOWNGRADE, PC_MH, ST_DEFER),
        [CE_EPOCH_PUSH] = EPOCH_SKIP(PC_MH),
        [CE_EPOCH_FLUSH] = EPOCH_SKIP(PC_MH),
        [CE_PUSH_DATA] = NO(PUSH_TO_SHARER),
        [CE_GROUP_DATA] = NO(GROUP_TO_LISTED),
    },
    [PC_SM] = {
        [CE_LOAD] = OK(PC_SM, ST_COMPLETE),  /* still readable */
        [CE_STORE] = OK(PC_SM, ST_WAIT),
        [CE_DATA_S] = NO("an upgrade is answered with UPGRADE_ACK or DATA_X"),
        [CE_DATA_X] = NO("the upgrade became a write miss only after an INV (state IM)"),
        [CE_UPGRADE_ACK] = OK(PC_MH, ST_ACCESS_WRITE, ST_COMPLETE),
        [CE_INV] = OK(PC_IM, ST_ACCESS_NONE, ST_SEND_INV_ACK),  /* another writer won */
        /* pushed, then upgrading, as the home recalled: answer, and the upgrade
         * becomes a write miss */
        [CE_RECALL] = OPT(ADAPT, PC_IM, ST_ACCESS_NONE, ST_SEND_WB_DATA),
        [CE_RELEASE] = OK(PC_SM, ST_END),  /* nothing held (already released) */
        [CE_EVICT] = NO(EVICT_IN_FLIGHT),
        [CE_DATA_E] = NO("an upgrade is answered with UPGRADE_ACK or DATA_X"),
        [CE_PUT_ACK] = NO(NO_WRITEBACK),
        [CE_RECALL_S] = OPT(ADAPT, PC_SM, ST_SEND_WB_DATA),
        [CE_EPOCH_PUSH] = EPOCH_SKIP(PC_SM),
        [CE_EPOCH_FLUSH] = EPOCH_SKIP(PC_SM),
        [CE_PUSH_DATA] = NO(PUSH_TO_SHARER),
        [CE_GROUP_DATA] = NO(GROUP_TO_LISTED),
    },
    /* exclusive clean: the owner with read access; the home cannot tell it
     * from M, so it recalls it like M (the WB_DATA is clean, harmless) */
    [PC_E] = {
        [CE_LOAD] = OPT(EXCL, PC_E, ST_COMPLETE),   /* a thread faulted before another's grant */
        [CE_STORE] = OPT(EXCL, PC_M, ST_ACCESS_WRITE, ST_COMPLETE),  /* silent upgrade: no message */
        [CE_DATA_S] = NO(NOT_READING),
        [CE_DATA_X] = NO("no write request is in flight"),
        [CE_UPGRADE_ACK] = NO("no upgrade is in flight"),
        [CE_INV] = NO("the owner is recalled, never invalidated"),
        [CE_RECALL] = OPT(EXCL, PC_I, ST_ACCESS_NONE, ST_SEND_WB_DATA),
        [CE_RELEASE] = OPT(EXCL, PC_E, ST_END),  /* nothing held (already released) */
        [CE_EVICT] = OPT(EVICTIONS | EXCL, PC_MI, ST_ACCESS_NONE, ST_SEND_PUTE),
        [CE_DATA_E] = NO(NOT_READING),
        [CE_PUT_ACK] = NO(NO_WRITEBACK),
        [CE_RECALL_S] = OPT(DOWNGRADE | EXCL, PC_S, ST_SEND_WB_DATA),  /* read access already */
        [CE_EPOCH_PUSH] = OPT(ADAPT | EXCL, PC_E, ST_END),
        [CE_EPOCH_FLUSH] = OPT(ADAPT | EXCL, PC_E, ST_END),
        [CE_PUSH_DATA] = NO(PUSH_TO_SHARER),
        [CE_GROUP_DATA] = NO(GROUP_TO_LISTED),
    },
    [PC_EH] = {
        [CE_LOAD] = OPT(EXCL, PC_EH, ST_COMPLETE),
        [CE_STORE] = OPT(EXCL, PC_MH, ST_ACCESS_WRITE, ST_COMPLETE),  /* silent upgrade, still held */
        [CE_DATA_S] = NO(NOT_READING),
        [CE_DATA_X] = NO("no write request is in flight"),
        [CE_UPGRADE_ACK] = NO("no upgrade is in flight"),
        [CE_INV] = NO("the owner is recalled, never invalidated"),
        [CE_RECALL] = OPT(EXCL, PC_EH, ST_DEFER),
        [CE_RELEASE] = OPT(EXCL, PC_E, ST_REPLAY),
        [CE_EVICT] = NO(EVICT_HELD),
        [CE_DATA_E] = NO(NOT_READING),
        [CE_PUT_ACK] = NO(NO_WRITEBACK),
        [CE_RECALL_S] = OPT(DOWNGRADE | EXCL, PC_EH, ST_DEFER),
        [CE_EPOCH_PUSH] = OPT(ADAPT | EXCL, PC_EH, ST_END),
        [CE_EPOCH_FLUSH] = OPT(ADAPT | EXCL, PC_EH, ST_END),
        [CE_PUSH_DATA] = NO(PUSH_TO_SHARER),
        [CE_GROUP_DATA] = NO(GROUP_TO_LISTED),
    },
    /* writeback in flight: the evicted copy is on its way home (PUTX/PUTE) */
    [PC_MI] = {
        [CE_LOAD] = OPT(EVICTIONS, PC_MI, ST_WAIT),   /* asks again after the PUT_ACK */
        [CE_STORE] = OPT(EVICTIONS, PC_MI, ST_WAIT),
        [CE_DATA_S] = NO("no request is in flight: an access in MI waits for the PUT_ACK first"),
        [CE_DATA_X] = NO("no request is in flight: an access in MI waits for the PUT_ACK first"),
        [CE_UPGRADE_ACK] = NO("no upgrade is in flight"),
        [CE_INV] = NO("an owner is recalled, never invalidated"),
        /* the recall crossed our PUTX/PUTE, which the home takes as the
         * recalled data: nothing to send */
        [CE_RECALL] = OPT(EVICTIONS, PC_MI, ST_END),
        [CE_RELEASE] = OPT(EVICTIONS, PC_MI, ST_END),  /* nothing held (already released) */
        [CE_EVICT] = NO(EVICT_IN_FLIGHT),
        [CE_DATA_E] = NO("no request is in flight: an access in MI waits for the PUT_ACK first"),
        [CE_PUT_ACK] = OPT(EVICTIONS, PC_I, ST_COMPLETE),  /* waiting accesses retry, and miss */
        [CE_RECALL_S] = OPT(EVICTIONS | DOWNGRADE, PC_MI, ST_END),  /* crossed our PUTX/PUTE */
        [CE_EPOCH_PUSH] = OPT(ADAPT | EVICTIONS, PC_MI, ST_END),
        [CE_EPOCH_FLUSH] = OPT(ADAPT | EVICTIONS, PC_MI, ST_END),
        [CE_PUSH_DATA] = NO("the home pushes only to nodes it does not list, and an evicting owner is listed until its PUT_ACK"),
        [CE_GROUP_DATA] = NO("the home sends a group's copies only to nodes it does not list, and an evicting owner is listed until its PUT_ACK"),
    },
    /* ---- three-hop interventions (three_hop): see the header ---- */
    [PC_I][CE_FWD_GETS] = NO(FWD_NOT_OWNER_I),
    [PC_I][CE_FWD_GETX] = NO(FWD_NOT_OWNER_I),
    [PC_I][CE_FWD_DATA_S] = NO(NOT_READING),
    [PC_I][CE_FWD_DATA_X] = NO(FWD_NOT_WRITING),
    [PC_S][CE_FWD_GETS] = NO(FWD_NOT_OWNER),
    [PC_S][CE_FWD_GETX] = NO(FWD_NOT_OWNER),
    [PC_S][CE_FWD_DATA_S] = NO(NOT_READING),
    [PC_S][CE_FWD_DATA_X] = NO(FWD_NOT_WRITING),
    /* the owner answers the requester itself and keeps a read copy */
    [PC_M][CE_FWD_GETS] = OPT(THREE, PC_S, ST_ACCESS_READ, ST_SEND_FWD_DATA_S),
    [PC_M][CE_FWD_GETX] = OPT(THREE, PC_I, ST_ACCESS_NONE, ST_SEND_FWD_DATA_X),
    [PC_M][CE_FWD_DATA_S] = NO(NOT_READING),
    [PC_M][CE_FWD_DATA_X] = NO(FWD_NOT_WRITING),
    [PC_IS][CE_FWD_GETS] = NO(FWD_NOT_OWNER),
    [PC_IS][CE_FWD_GETX] = NO(FWD_NOT_OWNER),
    /* the owner's answer; the home, still busy, learns it from us */
    [PC_IS][CE_FWD_DATA_S] = OPT(THREE, PC_SH, ST_INSTALL, ST_ACCESS_READ, ST_COMPLETE,
                                 ST_SEND_SHWB),
    [PC_IS][CE_FWD_DATA_X] = NO("a read request is answered with a read copy"),
    [PC_IM][CE_FWD_GETS] = NO(FWD_NOT_OWNER_YET),
    [PC_IM][CE_FWD_GETX] = NO(FWD_NOT_OWNER_YET),
    [PC_IM][CE_FWD_DATA_S] = NO("a write request is answered with DATA_X or FWD_DATA_X"),
    [PC_IM][CE_FWD_DATA_X] = OPT(THREE, PC_MH, ST_INSTALL, ST_ACCESS_WRITE, ST_COMPLETE,
                                 ST_SEND_XFER),
    [PC_SH][CE_FWD_GETS] = NO(FWD_NOT_OWNER),
    [PC_SH][CE_FWD_GETX] = NO(FWD_NOT_OWNER),
    [PC_SH][CE_FWD_DATA_S] = NO(NOT_READING),
    [PC_SH][CE_FWD_DATA_X] = NO(FWD_NOT_WRITING),
    [PC_MH][CE_FWD_GETS] = OPT(THREE, PC_MH, ST_DEFER),
    [PC_MH][CE_FWD_GETX] = OPT(THREE, PC_MH, ST_DEFER),
    [PC_MH][CE_FWD_DATA_S] = NO(NOT_READING),
    [PC_MH][CE_FWD_DATA_X] = NO(FWD_NOT_WRITING),
    [PC_SM][CE_FWD_GETS] = NO(FWD_NOT_OWNER),
    [PC_SM][CE_FWD_GETX] = NO(FWD_NOT_OWNER),
    [PC_SM][CE_FWD_DATA_S] = NO("an upgrade is answered with UPGRADE_ACK or DATA_X"),
    [PC_SM][CE_FWD_DATA_X] = NO("the upgrade became a write miss only after an INV (state IM)"),
    [PC_E][CE_FWD_GETS] = OPT(THREE | EXCL, PC_S, ST_SEND_FWD_DATA_S),  /* read access already */
    [PC_E][CE_FWD_GETX] = OPT(THREE | EXCL, PC_I, ST_ACCESS_NONE, ST_SEND_FWD_DATA_X),
    [PC_E][CE_FWD_DATA_S] = NO(NOT_READING),
    [PC_E][CE_FWD_DATA_X] = NO(FWD_NOT_WRITING),
    [PC_EH][CE_FWD_GETS] = OPT(THREE | EXCL, PC_EH, ST_DEFER),
    [PC_EH][CE_FWD_GETX] = OPT(THREE | EXCL, PC_EH, ST_DEFER),
    [PC_EH][CE_FWD_DATA_S] = NO(NOT_READING),
    [PC_EH][CE_FWD_DATA_X] = NO(FWD_NOT_WRITING),
    /* the forward crossed our PUTX/PUTE: the home answers from it */
    [PC_MI][CE_FWD_GETS] = OPT(THREE | EVICTIONS, PC_MI, ST_END),
    [PC_MI][CE_FWD_GETX] = OPT(THREE | EVICTIONS, PC_MI, ST_END),
    [PC_MI][CE_FWD_DATA_S] = NO("no request is in flight: an access in MI waits for the PUT_ACK first"),
    [PC_MI][CE_FWD_DATA_X] = NO("no request is in flight: an access in MI waits for the PUT_ACK first"),
    /* ---- the adaptive protocol: the home's own block granted to a read of its group ---- */
    /* as RECALL_S would, in the same call: the grant sends home memory, this copy */
    [PC_M][CE_GROUP_SHARE] = OPT(ADAPT, PC_S, ST_ACCESS_READ),
    [PC_I][CE_GROUP_SHARE] = NO(HOME_SHARES_M),
    [PC_S][CE_GROUP_SHARE] = NO(HOME_SHARES_M),
    [PC_IS][CE_GROUP_SHARE] = NO(HOME_SHARES_M),
    [PC_IM][CE_GROUP_SHARE] = NO(HOME_SHARES_M),
    [PC_SM][CE_GROUP_SHARE] = NO(HOME_SHARES_M),
    [PC_SH][CE_GROUP_SHARE] = NO(HOME_SHARES_M),
    [PC_MH][CE_GROUP_SHARE] = NO("a held grant first serves the home's own access: the read of "
                                 "the group is served the plain way (RECALL_S, deferred)"),
    [PC_E][CE_GROUP_SHARE] = NO("the adaptive protocol grants no exclusive-clean copies; with them "
                                "a home's E copy is read the plain way"),
    [PC_EH][CE_GROUP_SHARE] = NO(HOME_SHARES_M),
    [PC_MI][CE_GROUP_SHARE] = NO(HOME_SHARES_M),
};

#define NO_RECALL "no recall in progress"
#define FWD_OWNED \
    "forwarded only at an owned block (Exclusive); a request that finds the block busy waits in " \
    "the queue and is classified again when served"
#define NO_FWD "no forwarded request in progress (its requester answers it in BusyRecall only)"
#define NO_OWNER_UNOWNED \
    "no owner when unowned (an owner's writeback is acknowledged only after the home took it)"
#define EXCL_CLEAN_UNOWNED "a read request is granted exclusive-clean only at an unowned block"
#define DOWNGRADE_OWNED \
    "a read request downgrades the owner only at an owned block (Exclusive); one that finds the " \
    "block busy waits in the queue as a GETS and is classified again when served"

#define MIGRATORY_SHARED \
    "a read of a shared block is a plain GETS: with other readers the block is read-shared, " \
    "and shared grants serve it (the adaptive protocol's fallback)"
#define GROUP_BUSY \
    "a read of a block of a group brings the others along only at a block the home can grant " \
    "at once: a busy block's read waits in the queue as a GETS and is classified again when " \
    "served"
#define MEMBER_BUSY \
    "a block of the group goes along only when the home can grant it at once: busy blocks are " \
    "left out (no wait)"
#define MIGRATORY_BUSY \
    "a read that finds the block busy waits in the queue as a GETS and is classified again " \
    "when served"

const proto_table_entry proto_dir_table[PD_NSTATES][DE_NEVENTS] = {
    [PD_UNOWNED] = {
        [DE_GETS] = OK(PD_SHARED, ST_D_ADD_SHARER, ST_D_DATA_S),
        [DE_GETX] = OK(PD_EXCL, ST_D_OWNER_REQ, ST_D_DATA_X),
        [DE_UPGRADE_SOLE] = NO("no sharers when unowned"),
        [DE_UPGRADE_OTHERS] = NO("no sharers when unowned"),
        [DE_UPGRADE_STALE] = OK(PD_EXCL, ST_D_OWNER_REQ, ST_D_DATA_X),
        [DE_INV_ACK_MORE] = NO("no invalidation in progress"),
        [DE_INV_ACK_LAST_X] = NO("no invalidation in progress"),
        [DE_INV_ACK_LAST_UPG] = NO("no invalidation in progress"),
        [DE_WB_DATA_S] = NO("no recall in progress"),
        [DE_WB_DATA_X] = NO("no recall in progress"),
        [DE_GETS_EXCL_CLEAN] = OPT(EXCL, PD_EXCL, ST_D_OWNER_REQ, ST_D_DATA_E),
        [DE_PUTS_LAST] = NO("no sharers when unowned"),
        [DE_PUTS_MORE] = NO("no sharers when unowned"),
        [DE_PUTS_STALE] = OPT(HINTS, PD_UNOWNED, ST_END),  /* the hint's sharer was already removed */
        [DE_PUTX_OWNER] = NO(NO_OWNER_UNOWNED),
        [DE_PUTE_OWNER] = NO(NO_OWNER_UNOWNED),
        [DE_PUTX_RECALLED_S] = NO(NO_RECALL),
        [DE_PUTX_RECALLED_X] = NO(NO_RECALL),
        [DE_PUTE_RECALLED_S] = NO(NO_RECALL),
        [DE_PUTE_RECALLED_X] = NO(NO_RECALL),
        [DE_GETS_DOWNGRADE] = NO(DOWNGRADE_OWNED),
        [DE_WB_DATA_SHARED] = NO(NO_RECALL),
        /* ---- the adaptive protocol ---- */
        /* flushed home at the end of its last owner's epoch */
        [DE_GETS_MIGRATORY] = OPT(ADAPT, PD_EXCL, ST_D_OWNER_REQ, ST_D_DATA_X),
        [DE_PUSH] = NO(NO_OWNER_UNOWNED),
        [DE_PUSH_RECALLED] = NO(NO_RECALL),
        [DE_FLUSH] = NO(NO_OWNER_UNOWNED),
        [DE_FLUSH_RECALLED_S] = NO(NO_RECALL),
        [DE_FLUSH_RECALLED_X] = NO(NO_RECALL),
        /* a read of a block of a group: home memory is current, granted
         * as a GETS would be, and the group's other blocks go along */
        [DE_GETS_GROUP] = OPT(ADAPT, PD_SHARED, ST_D_ADD_SHARER, ST_D_DATA_S, ST_D_GROUP_BULK),
        [DE_GROUP_MEMBER] = OPT(ADAPT, PD_SHARED, ST_D_ADD_SHARER, ST_D_GROUP_DATA),
    },
    [PD_SHARED] = {
        [DE_GETS] = OK(PD_SHARED, ST_D_ADD_SHARER, ST_D_DATA_S),
        [DE_GETX] = OK(PD_BUSY_INV, ST_D_PENDING_X, ST_D_INV_ALL),
        [DE_UPGRADE_SOLE] = OK(PD_EXCL, ST_D_OWNER_REQ, ST_D_UPGRADE_ACK),
        [DE_UPGRADE_OTHERS] = OK(PD_BUSY_INV, ST_D_PENDING_UPG, ST_D_INV_OTHERS),
        [DE_UPGRADE_STALE] = OK(PD_BUSY_INV, ST_D_PENDING_X, ST_D_INV_ALL),
        [DE_INV_ACK_MORE] = NO("no invalidation in progress"),
        [DE_INV_ACK_LAST_X] = NO("no invalidation in progress"),
        [DE_INV_ACK_LAST_UPG] = NO("no invalidation in progress"),
        [DE_WB_DATA_S] = NO("no recall in progress"),
        [DE_WB_DATA_X] = NO("no recall in progress"),
        [DE_GETS_EXCL_CLEAN] = NO(EXCL_CLEAN_UNOWNED),
        [DE_PUTS_LAST] = OPT(HINTS, PD_UNOWNED, ST_D_REMOVE_SHARER),
        [DE_PUTS_MORE] = OPT(HINTS, PD_SHARED, ST_D_REMOVE_SHARER),
        [DE_PUTS_STALE] = OPT(HINTS, PD_SHARED, ST_END),
        [DE_PUTX_OWNER] = NO("no owner while shared"),
        [DE_PUTE_OWNER] = NO("no owner while shared"),
        [DE_PUTX_RECALLED_S] = NO(NO_RECALL),
        [DE_PUTX_RECALLED_X] = NO(NO_RECALL),
        [DE_PUTE_RECALLED_S] = NO(NO_RECALL),
        [DE_PUTE_RECALLED_X] = NO(NO_RECALL),
        [DE_GETS_DOWNGRADE] = NO(DOWNGRADE_OWNED),
        [DE_WB_DATA_SHARED] = NO(NO_RECALL),
        /* ---- the adaptive protocol ---- */
        [DE_GETS_MIGRATORY] = NO(MIGRATORY_SHARED),
        [DE_PUSH] = NO("no owner while shared"),
        [DE_PUSH_RECALLED] = NO(NO_RECALL),
        [DE_FLUSH] = NO("no owner while shared"),
        [DE_FLUSH_RECALLED_S] = NO(NO_RECALL),
        [DE_FLUSH_RECALLED_X] = NO(NO_RECALL),
        /* a read miss of a block of a detected group: the group's other blocks
         * the home can grant at once go along, each by its own entry
         * (DE_GROUP_MEMBER) */
        [DE_GETS_GROUP] = OPT(ADAPT, PD_SHARED, ST_D_ADD_SHARER, ST_D_DATA_S, ST_D_GROUP_BULK),
        [DE_GROUP_MEMBER] = OPT(ADAPT, PD_SHARED, ST_D_ADD_SHARER, ST_D_GROUP_DATA),
    },
    [PD_EXCL] = {
        [DE_GETS] = OK(PD_BUSY_RECALL, ST_D_PENDING_S, ST_D_RECALL),
        [DE_GETX] = OK(PD_BUSY_RECALL, ST_D_PENDING_X, ST_D_RECALL),
        [DE_UPGRADE_SOLE] = NO("no sharers while a node owns the block"),
        [DE_UPGRADE_OTHERS] = NO("no sharers while a node owns the block"),
        [DE_UPGRADE_STALE] = OK(PD_BUSY_RECALL, ST_D_PENDING_X, ST_D_RECALL),
        [DE_INV_ACK_MORE] = NO("no invalidation in progress"),
        [DE_INV_ACK_LAST_X] = NO("no invalidation in progress"),
        [DE_INV_ACK_LAST_UPG] = NO("no invalidation in progress"),
        [DE_WB_DATA_S] = NO("no recall in progress"),
        [DE_WB_DATA_X] = NO("no recall in progress"),
        [DE_GETS_EXCL_CLEAN] = NO(EXCL_CLEAN_UNOWNED),
        [DE_PUTS_LAST] = NO("no sharers while a node owns the block"),
        [DE_PUTS_MORE] = NO("no sharers while a node owns the block"),
        [DE_PUTS_STALE] = OPT(HINTS, PD_EXCL, ST_END),
        [DE_PUTX_OWNER] = OPT(EVICTIONS, PD_UNOWNED, ST_D_INSTALL, ST_D_OWNER_NONE, ST_D_PUT_ACK),
        [DE_PUTE_OWNER] = OPT(EVICTIONS | EXCL, PD_UNOWNED, ST_D_OWNER_NONE, ST_D_PUT_ACK),  /* memory is current */
        [DE_PUTX_RECALLED_S] = NO(NO_RECALL),
        [DE_PUTX_RECALLED_X] = NO(NO_RECALL),
        [DE_PUTE_RECALLED_S] = NO(NO_RECALL),
        [DE_PUTE_RECALLED_X] = NO(NO_RECALL),
        [DE_GETS_DOWNGRADE] = OPT(DOWNGRADE, PD_BUSY_RECALL, ST_D_PENDING_SHARED, ST_D_RECALL_S),
        [DE_WB_DATA_SHARED] = NO(NO_RECALL),
        /* ---- the adaptive protocol: the owner's copy moves on, as for a write ---- */
        [DE_GETS_MIGRATORY] = OPT(ADAPT, PD_BUSY_RECALL, ST_D_PENDING_X, ST_D_RECALL),
        /* the end of the owner's epoch: a producer's copy goes on to the
         * consumers, a migratory block home, so that its next user's miss
         * does not wait for the owner */
        [DE_PUSH] = OPT(ADAPT, PD_SHARED, ST_D_INSTALL, ST_D_PUSH_CONSUMERS),
        [DE_PUSH_RECALLED] = NO(NO_RECALL),
        [DE_FLUSH] = OPT(ADAPT, PD_UNOWNED, ST_D_INSTALL, ST_D_OWNER_NONE),
        [DE_FLUSH_RECALLED_S] = NO(NO_RECALL),
        [DE_FLUSH_RECALLED_X] = NO(NO_RECALL),
        /* only the home's own block, its copy settled M (engine_group_grantable;
         * owned by another node, the read recalls as a GETS does, and a
         * member is left out): the home keeps a read copy, as a downgrade
         * would leave it, without recalling itself */
        [DE_GETS_GROUP] = OPT(ADAPT, PD_SHARED, ST_D_HOME_SHARE, ST_D_ADD_SHARER, ST_D_DATA_S,
                              ST_D_GROUP_BULK),
        [DE_GROUP_MEMBER] = OPT(ADAPT, PD_SHARED, ST_D_HOME_SHARE, ST_D_ADD_SHARER,
                                ST_D_GROUP_DATA),
    },
    [PD_BUSY_INV] = {
        [DE_GETS] = OK(PD_BUSY_INV, ST_D_QUEUE),
        [DE_GETX] = OK(PD_BUSY_INV, ST_D_QUEUE),
        [DE_UPGRADE_SOLE] = OK(PD_BUSY_INV, ST_D_QUEUE),
        [DE_UPGRADE_OTHERS] = OK(PD_BUSY_INV, ST_D_QUEUE),
        [DE_UPGRADE_STALE] = OK(PD_BUSY_INV, ST_D_QUEUE),
        [DE_INV_ACK_MORE] = OK(PD_BUSY_INV, ST_D_ACK),
        [DE_INV_ACK_LAST_X] = OK(PD_EXCL, ST_D_ACK, ST_D_GRANT_DATA_X),
        [DE_INV_ACK_LAST_UPG] = OK(PD_EXCL, ST_D_ACK, ST_D_GRANT_UPG),
        [DE_WB_DATA_S] = NO("no recall in progress"),
        [DE_WB_DATA_X] = NO("no recall in progress"),
        [DE_GETS_EXCL_CLEAN] = NO(EXCL_CLEAN_UNOWNED),
        /* hints wait in the FIFO like requests: keeps each node's order */
        [DE_PUTS_LAST] = OPT(HINTS, PD_BUSY_INV, ST_D_QUEUE),
        [DE_PUTS_MORE] = OPT(HINTS, PD_BUSY_INV, ST_D_QUEUE),
        [DE_PUTS_STALE] = OPT(HINTS, PD_BUSY_INV, ST_D_QUEUE),
        [DE_PUTX_OWNER] = NO("no owner while invalidating sharers (BusyInv comes from Shared)"),
        [DE_PUTE_OWNER] = NO("no owner while invalidating sharers (BusyInv comes from Shared)"),
        [DE_PUTX_RECALLED_S] = NO(NO_RECALL),
        [DE_PUTX_RECALLED_X] = NO(NO_RECALL),
        [DE_PUTE_RECALLED_S] = NO(NO_RECALL),
        [DE_PUTE_RECALLED_X] = NO(NO_RECALL),
        [DE_GETS_DOWNGRADE] = NO(DOWNGRADE_OWNED),
        [DE_WB_DATA_SHARED] = NO(NO_RECALL),
        /* ---- the adaptive protocol ---- */
        [DE_GETS_MIGRATORY] = NO(MIGRATORY_BUSY),
        [DE_PUSH] = NO("no owner while invalidating sharers (BusyInv comes from Shared)"),
        [DE_PUSH_RECALLED] = NO(NO_RECALL),
        [DE_FLUSH] = NO("no owner while invalidating sharers (BusyInv comes from Shared)"),
        [DE_FLUSH_RECALLED_S] = NO(NO_RECALL),
        [DE_FLUSH_RECALLED_X] = NO(NO_RECALL),
        [DE_GETS_GROUP] = NO(GROUP_BUSY),
        [DE_GROUP_MEMBER] = NO(MEMBER_BUSY),
    },
    [PD_BUSY_RECALL] = {
        [DE_GETS] = OK(PD_BUSY_RECALL, ST_D_QUEUE),
        [DE_GETX] = OK(PD_BUSY_RECALL, ST_D_QUEUE),
        [DE_UPGRADE_SOLE] = OK(PD_BUSY_RECALL, ST_D_QUEUE),
        [DE_UPGRADE_OTHERS] = OK(PD_BUSY_RECALL, ST_D_QUEUE),
        [DE_UPGRADE_STALE] = OK(PD_BUSY_RECALL, ST_D_QUEUE),
        [DE_INV_ACK_MORE] = NO("a recall collects no invalidation acks"),
        [DE_INV_ACK_LAST_X] = NO("a recall collects no invalidation acks"),
        [DE_INV_ACK_LAST_UPG] = NO("a recall collects no invalidation acks"),
        [DE_WB_DATA_S] = OK(PD_SHARED, ST_D_INSTALL, ST_D_GRANT_DATA_S),
        [DE_WB_DATA_X] = OK(PD_EXCL, ST_D_INSTALL, ST_D_GRANT_DATA_X),
        [DE_GETS_EXCL_CLEAN] = NO(EXCL_CLEAN_UNOWNED),
        [DE_PUTS_LAST] = NO("the sharer set is empty during a recall (cleared when the owner got the block)"),
        [DE_PUTS_MORE] = NO("the sharer set is empty during a recall (cleared when the owner got the block)"),
        [DE_PUTS_STALE] = OPT(HINTS, PD_BUSY_RECALL, ST_D_QUEUE),
        [DE_PUTX_OWNER] = NO("a PUTX during a recall is the recalled data: PUTX(crossed a recall ...)"),
        [DE_PUTE_OWNER] = NO("a PUTE during a recall is the recalled data: PUTE(crossed a recall ...)"),
        /* the owner evicted the block as the RECALL was on its way (it
         * drops the RECALL in MI): its PUTX/PUTE is the recalled data,
         * served as WB_DATA would be, and acknowledged */
        [DE_PUTX_RECALLED_S] = OPT(EVICTIONS, PD_SHARED, ST_D_INSTALL, ST_D_PUT_ACK, ST_D_GRANT_DATA_S),
        [DE_PUTX_RECALLED_X] = OPT(EVICTIONS, PD_EXCL, ST_D_INSTALL, ST_D_PUT_ACK, ST_D_GRANT_DATA_X),
        [DE_PUTE_RECALLED_S] = OPT(EVICTIONS | EXCL, PD_SHARED, ST_D_PUT_ACK, ST_D_GRANT_DATA_S),
        [DE_PUTE_RECALLED_X] = OPT(EVICTIONS | EXCL, PD_EXCL, ST_D_PUT_ACK, ST_D_GRANT_DATA_X),
        [DE_GETS_DOWNGRADE] = NO(DOWNGRADE_OWNED),
        /* the old owner went to S as it sent the data: both share the block */
        [DE_WB_DATA_SHARED] = OPT(DOWNGRADE, PD_SHARED, ST_D_INSTALL, ST_D_GRANT_DATA_S_SHARED),
        /* ---- the adaptive protocol ---- */
        [DE_GETS_MIGRATORY] = NO(MIGRATORY_BUSY),
        [DE_PUSH] = NO("a push during a recall crossed it: PUSH(crossed a recall)"),
        /* the owner kept a read copy: its answer to the RECALL follows and is
         * served as usual; the pushed data is only installed */
        [DE_PUSH_RECALLED] = OPT(ADAPT, PD_BUSY_RECALL, ST_D_INSTALL),
        [DE_FLUSH] = NO("a flush during a recall crossed it: FLUSH(crossed a recall ...)"),
        /* the flushed copy is the recalled data (the owner drops the RECALL) */
        [DE_FLUSH_RECALLED_S] = OPT(ADAPT, PD_SHARED, ST_D_INSTALL, ST_D_GRANT_DATA_S),
        [DE_FLUSH_RECALLED_X] = OPT(ADAPT, PD_EXCL, ST_D_INSTALL, ST_D_GRANT_DATA_X),
        [DE_GETS_GROUP] = NO(GROUP_BUSY),
        [DE_GROUP_MEMBER] = NO(MEMBER_BUSY),
    },
    /* ---- three-hop interventions (three_hop): see the header ---- */
    [PD_UNOWNED][DE_GETS_FWD] = NO(FWD_OWNED),
    [PD_UNOWNED][DE_GETX_FWD] = NO(FWD_OWNED),
    [PD_UNOWNED][DE_SHWB] = NO(NO_FWD),
    [PD_UNOWNED][DE_XFER] = NO(NO_FWD),
    [PD_SHARED][DE_GETS_FWD] = NO(FWD_OWNED),
    [PD_SHARED][DE_GETX_FWD] = NO(FWD_OWNED),
    [PD_SHARED][DE_SHWB] = NO(NO_FWD),
    [PD_SHARED][DE_XFER] = NO(NO_FWD),
    [PD_EXCL][DE_GETS_FWD] = OPT(THREE, PD_BUSY_RECALL, ST_D_PENDING_S, ST_D_FWD_S),
    [PD_EXCL][DE_GETX_FWD] = OPT(THREE, PD_BUSY_RECALL, ST_D_PENDING_X, ST_D_FWD_X),
    [PD_EXCL][DE_SHWB] = NO(NO_FWD),
    [PD_EXCL][DE_XFER] = NO(NO_FWD),
    [PD_BUSY_INV][DE_GETS_FWD] = NO(FWD_OWNED),
    [PD_BUSY_INV][DE_GETX_FWD] = NO(FWD_OWNED),
    [PD_BUSY_INV][DE_SHWB] = NO(NO_FWD),
    [PD_BUSY_INV][DE_XFER] = NO(NO_FWD),
    [PD_BUSY_RECALL][DE_GETS_FWD] = NO(FWD_OWNED),
    [PD_BUSY_RECALL][DE_GETX_FWD] = NO(FWD_OWNED),
    /* the requester has the owner's line: the owner kept a read copy */
    [PD_BUSY_RECALL][DE_SHWB] = OPT(THREE, PD_SHARED, ST_D_INSTALL, ST_D_SHARE_OWNER),
    [PD_BUSY_RECALL][DE_XFER] = OPT(THREE, PD_EXCL, ST_D_OWNER_PENDING),
};
