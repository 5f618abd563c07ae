/* table.c - the protocol, as two explicit transition tables: for every
 * (state, event) pair either an action list and a next state, or a reason why
 * the pair cannot happen (the engine rejects it loudly).  doc/protocol.md is
 * generated from these tables (tests/proto_table_doc checks it is current).
 *
 * Ordering assumption: FIFO per pair of nodes.  That is why, for example, a
 * node waiting for DATA_S can never see an INV: the home adds it to the
 * sharers only when it sends the DATA_S, and the INV would come after it. */
#include "engine_internal.h"

#define OK(nx, ...) { 1, nx, { __VA_ARGS__ }, NULL }
#define NO(reason) { 0, 0, { 0 }, reason }

const proto_table_entry proto_cache_table[PC_NSTATES][CE_NEVENTS] = {
    [PC_I] = {
        [CE_LOAD] = OK(PC_IS, ST_SEND_GETS, ST_WAIT),
        [CE_STORE] = OK(PC_IM, ST_SEND_GETX, ST_WAIT),
        [CE_DATA_S] = NO("no read request is in flight"),
        [CE_DATA_X] = NO("no write request is in flight"),
        [CE_UPGRADE_ACK] = NO("no upgrade is in flight"),
        [CE_INV] = NO("the home invalidates sharers only, and FIFO delivery brings a grant before an INV"),
        [CE_RECALL] = NO("the home recalls only from the owner"),
        [CE_RELEASE] = OK(PC_I, ST_END),  /* nothing held (already released) */
    },
    [PC_S] = {
        [CE_LOAD] = OK(PC_S, ST_COMPLETE),   /* a thread faulted before another's grant: retry */
        [CE_STORE] = OK(PC_SM, ST_SEND_UPGRADE, ST_WAIT),
        [CE_DATA_S] = NO("no read request is in flight"),
        [CE_DATA_X] = NO("no write request is in flight"),
        [CE_UPGRADE_ACK] = NO("no upgrade is in flight"),
        [CE_INV] = OK(PC_I, ST_ACCESS_NONE, ST_SEND_INV_ACK),
        [CE_RECALL] = NO("a sharer is not an owner"),
        [CE_RELEASE] = OK(PC_S, ST_END),  /* nothing held (already released) */
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
    },
    [PC_IS] = {
        [CE_LOAD] = OK(PC_IS, ST_WAIT),
        [CE_STORE] = OK(PC_IS, ST_WAIT),     /* retried after the read grant: then an upgrade */
        [CE_DATA_S] = OK(PC_SH, ST_INSTALL, ST_ACCESS_READ, ST_COMPLETE),
        [CE_DATA_X] = NO("a read request is answered with DATA_S"),
        [CE_UPGRADE_ACK] = NO("a read request is answered with DATA_S"),
        [CE_INV] = NO("FIFO delivery brings the DATA_S before any INV"),
        [CE_RECALL] = NO("not an owner"),
        [CE_RELEASE] = OK(PC_IS, ST_END),  /* nothing held (already released) */
    },
    [PC_IM] = {
        [CE_LOAD] = OK(PC_IM, ST_WAIT),
        [CE_STORE] = OK(PC_IM, ST_WAIT),
        [CE_DATA_S] = NO("a write request is answered with DATA_X"),
        [CE_DATA_X] = OK(PC_MH, ST_INSTALL, ST_ACCESS_WRITE, ST_COMPLETE),
        [CE_UPGRADE_ACK] = NO("the home answers an upgrade from a non-sharer with DATA_X"),
        [CE_INV] = NO("not a sharer: it was removed when it was invalidated"),
        [CE_RECALL] = NO("not an owner yet"),
        [CE_RELEASE] = OK(PC_IM, ST_END),  /* nothing held (already released) */
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
    },
    [PC_SM] = {
        [CE_LOAD] = OK(PC_SM, ST_COMPLETE),  /* still readable */
        [CE_STORE] = OK(PC_SM, ST_WAIT),
        [CE_DATA_S] = NO("an upgrade is answered with UPGRADE_ACK or DATA_X"),
        [CE_DATA_X] = NO("the upgrade became a write miss only after an INV (state IM)"),
        [CE_UPGRADE_ACK] = OK(PC_MH, ST_ACCESS_WRITE, ST_COMPLETE),
        [CE_INV] = OK(PC_IM, ST_ACCESS_NONE, ST_SEND_INV_ACK),  /* another writer won */
        [CE_RECALL] = NO("not an owner"),
        [CE_RELEASE] = OK(PC_SM, ST_END),  /* nothing held (already released) */
    },
};

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
    },
};
