/* names.c - printable names of states, events, messages and steps, for
 * error messages, reports and the table generated into doc/protocol.md. */
#include <stdio.h>

#include "engine_internal.h"

#define NAME(arr, i) (((i) >= 0 && (size_t)(i) < sizeof(arr) / sizeof(arr[0]) && arr[i]) ? arr[i] : "?")

static const char *const cache_states[PC_NSTATES] = {
    [PC_I] = "I", [PC_S] = "S", [PC_M] = "M", [PC_IS] = "IS", [PC_IM] = "IM", [PC_SM] = "SM", [PC_SH] = "SH", [PC_MH] = "MH",
    [PC_E] = "E", [PC_EH] = "EH", [PC_MI] = "MI",
};
static const char *const cache_events[CE_NEVENTS] = {
    [CE_LOAD] = "Load", [CE_STORE] = "Store", [CE_DATA_S] = "DATA_S", [CE_DATA_X] = "DATA_X",
    [CE_UPGRADE_ACK] = "UPGRADE_ACK", [CE_INV] = "INV",
    [CE_RECALL] = "RECALL", [CE_RELEASE] = "Release", [CE_EVICT] = "Evict",
    [CE_DATA_E] = "DATA_E", [CE_PUT_ACK] = "PUT_ACK", [CE_RECALL_S] = "RECALL_S",
    [CE_EPOCH_PUSH] = "EpochEnd(push)", [CE_EPOCH_FLUSH] = "EpochEnd(flush)",
    [CE_PUSH_DATA] = "PUSH_DATA", [CE_GROUP_DATA] = "GROUP_DATA",
    [CE_FWD_GETS] = "FWD_GETS", [CE_FWD_GETX] = "FWD_GETX", [CE_FWD_DATA_S] = "FWD_DATA_S",
    [CE_FWD_DATA_X] = "FWD_DATA_X", [CE_GROUP_SHARE] = "GroupShare(home's own)",
};
static const char *const dir_states[PD_NSTATES] = {
    [PD_UNOWNED] = "Unowned", [PD_SHARED] = "Shared", [PD_EXCL] = "Exclusive",
    [PD_BUSY_INV] = "BusyInv", [PD_BUSY_RECALL] = "BusyRecall",
};
static const char *const dir_events[DE_NEVENTS] = {
    [DE_GETS] = "GETS", [DE_GETX] = "GETX", [DE_UPGRADE_SOLE] = "UPGRADE(sole sharer)",
    [DE_UPGRADE_OTHERS] = "UPGRADE(other sharers)", [DE_UPGRADE_STALE] = "UPGRADE(not a sharer)",
    [DE_INV_ACK_MORE] = "INV_ACK(more due)", [DE_INV_ACK_LAST_X] = "INV_ACK(last, for GETX)",
    [DE_INV_ACK_LAST_UPG] = "INV_ACK(last, for UPGRADE)", [DE_WB_DATA_S] = "WB_DATA(for GETS)",
    [DE_WB_DATA_X] = "WB_DATA(for GETX)",
    [DE_GETS_EXCL_CLEAN] = "GETS(exclusive-clean grant)",
    [DE_PUTS_LAST] = "PUTS(last sharer)", [DE_PUTS_MORE] = "PUTS(other sharers)",
    [DE_PUTS_STALE] = "PUTS(not a sharer)", [DE_PUTX_OWNER] = "PUTX(owner)",
    [DE_PUTE_OWNER] = "PUTE(owner)", [DE_PUTX_RECALLED_S] = "PUTX(crossed a recall for GETS)",
    [DE_PUTX_RECALLED_X] = "PUTX(crossed a recall for GETX)",
    [DE_PUTE_RECALLED_S] = "PUTE(crossed a recall for GETS)",
    [DE_PUTE_RECALLED_X] = "PUTE(crossed a recall for GETX)",
    [DE_GETS_DOWNGRADE] = "GETS(owner downgrades)",
    [DE_WB_DATA_SHARED] = "WB_DATA(for GETS, owner downgraded)",
    [DE_GETS_MIGRATORY] = "GETS(migratory: granted exclusive)",
    [DE_PUSH] = "PUSH(owner)", [DE_PUSH_RECALLED] = "PUSH(crossed a recall)",
    [DE_FLUSH] = "FLUSH(owner)", [DE_FLUSH_RECALLED_S] = "FLUSH(crossed a recall for GETS)",
    [DE_FLUSH_RECALLED_X] = "FLUSH(crossed a recall for GETX)",
    [DE_GETS_GROUP] = "GETS(group: the others along)",
    [DE_GROUP_MEMBER] = "GroupMember(shared, requester not listed)",
    [DE_GETS_FWD] = "GETS(owned: forwarded)", [DE_GETX_FWD] = "GETX(owned: forwarded)",
    [DE_SHWB] = "SHWB", [DE_XFER] = "XFER",
};
static const char *const msgs[PM_NTYPES] = {
    [PM_GETS] = "GETS", [PM_GETX] = "GETX", [PM_UPGRADE] = "UPGRADE", [PM_DATA_S] = "DATA_S",
    [PM_DATA_X] = "DATA_X", [PM_UPGRADE_ACK] = "UPGRADE_ACK", [PM_INV] = "INV",
    [PM_INV_ACK] = "INV_ACK", [PM_RECALL] = "RECALL",
    [PM_WB_DATA] = "WB_DATA", [PM_PUTS] = "PUTS", [PM_PUTX] = "PUTX", [PM_PUTE] = "PUTE",
    [PM_PUT_ACK] = "PUT_ACK", [PM_DATA_E] = "DATA_E", [PM_RECALL_S] = "RECALL_S",
    [PM_PUSH] = "PUSH", [PM_FLUSH] = "FLUSH", [PM_PUSH_DATA] = "PUSH_DATA",
    [PM_FWD_GETS] = "FWD_GETS", [PM_FWD_GETX] = "FWD_GETX", [PM_FWD_DATA_S] = "FWD_DATA_S",
    [PM_FWD_DATA_X] = "FWD_DATA_X", [PM_SHWB] = "SHWB", [PM_XFER] = "XFER",
    [PM_GROUP_DATA] = "GROUP_DATA",
};
static const char *const steps[ST_NSTEPS] = {
    [ST_END] = "end",
    [ST_SEND_GETS] = "send GETS to home",
    [ST_SEND_GETX] = "send GETX to home",
    [ST_SEND_UPGRADE] = "send UPGRADE to home",
    [ST_SEND_INV_ACK] = "send INV_ACK to home",
    [ST_SEND_WB_DATA] = "send WB_DATA (with data) to home",
    [ST_ACCESS_NONE] = "set access none",
    [ST_ACCESS_READ] = "set access read",
    [ST_ACCESS_WRITE] = "set access read/write",
    [ST_INSTALL] = "install data",
    [ST_COMPLETE] = "complete (wake waiters)",
    [ST_WAIT] = "wait for completion",
    [ST_DEFER] = "defer the message until the release",
    [ST_REPLAY] = "handle the deferred message",
    [ST_D_DATA_S] = "send DATA_S to requester",
    [ST_D_DATA_X] = "send DATA_X to requester",
    [ST_D_UPGRADE_ACK] = "send UPGRADE_ACK to requester",
    [ST_D_ADD_SHARER] = "add requester to sharers",
    [ST_D_OWNER_REQ] = "owner := requester, sharers := {}",
    [ST_D_INV_OTHERS] = "send INV to sharers but requester, count acks",
    [ST_D_INV_ALL] = "send INV to all sharers, count acks",
    [ST_D_RECALL] = "send RECALL to owner",
    [ST_D_PENDING_S] = "pending := requester (read)",
    [ST_D_PENDING_X] = "pending := requester (write, needs data)",
    [ST_D_PENDING_UPG] = "pending := requester (upgrade)",
    [ST_D_QUEUE] = "queue request at home",
    [ST_D_ACK] = "acks -= 1, remove sender from sharers",
    [ST_D_INSTALL] = "install data in home memory",
    [ST_D_GRANT_DATA_X] = "send DATA_X to pending, owner := pending",
    [ST_D_GRANT_UPG] = "send UPGRADE_ACK to pending, owner := pending",
    [ST_D_GRANT_DATA_S] = "send DATA_S to pending, sharers := {pending}",
    [ST_SEND_PUTS_IF_HINTS] = "send PUTS to home if replacement hints are on",
    [ST_SEND_PUTX] = "send PUTX (with data) to home",
    [ST_SEND_PUTE] = "send PUTE to home",
    [ST_D_DATA_E] = "send DATA_E to requester",
    [ST_D_REMOVE_SHARER] = "remove requester from sharers",
    [ST_D_OWNER_NONE] = "owner := none",
    [ST_D_PUT_ACK] = "send PUT_ACK to requester",
    [ST_D_RECALL_S] = "send RECALL_S to owner",
    [ST_D_PENDING_SHARED] = "pending := requester (read, the owner keeps a copy)",
    [ST_D_GRANT_DATA_S_SHARED] = "send DATA_S to pending, sharers := {owner, pending}",
    [ST_SEND_PUSH] = "send PUSH (with data) to home",
    [ST_SEND_FLUSH] = "send FLUSH (with data) to home",
    [ST_D_PUSH_CONSUMERS] = "sharers := {owner} + last consumers, owner := none, send PUSH_DATA "
                            "to each consumer",
    [ST_D_GROUP_BULK] = "each other block of the group the home can grant at once (shared and "
                        "not the requester's, unowned, or the home's own M copy): its "
                        "GroupMember entry",
    [ST_D_GROUP_DATA] = "send GROUP_DATA to requester",
    [ST_SEND_FWD_DATA_S] = "send FWD_DATA_S (with data) to the requester",
    [ST_SEND_FWD_DATA_X] = "send FWD_DATA_X (with data) to the requester",
    [ST_SEND_SHWB] = "send SHWB (with data) to home",
    [ST_SEND_XFER] = "send XFER to home",
    [ST_D_FWD_S] = "send FWD_GETS (for requester) to owner",
    [ST_D_FWD_X] = "send FWD_GETX (for requester) to owner",
    [ST_D_SHARE_OWNER] = "sharers := {owner, pending}",
    [ST_D_OWNER_PENDING] = "owner := pending, sharers := {}",
    [ST_D_HOME_SHARE] = "the home's own copy: GroupShare(home's own), sharers := {home}, "
                        "owner := none",
};

const char *proto_cache_state_name(int s) { return NAME(cache_states, s); }
const char *proto_cache_event_name(int ev) { return NAME(cache_events, ev); }
const char *proto_dir_state_name(int s) { return NAME(dir_states, s); }
const char *proto_dir_event_name(int ev) { return NAME(dir_events, ev); }
const char *proto_msg_name(int type) { return NAME(msgs, type); }
const char *proto_step_name(int step) { return NAME(steps, step); }

int proto_msg_has_data(int type)
{
    return type == PM_DATA_S || type == PM_DATA_X || type == PM_WB_DATA || type == PM_PUTX ||
           type == PM_DATA_E || type == PM_PUSH || type == PM_FLUSH || type == PM_PUSH_DATA ||
           type == PM_GROUP_DATA ||
           type == PM_FWD_DATA_S || type == PM_FWD_DATA_X || type == PM_SHWB;
}

const char *proto_needs_name(int needs)
{
    /* the PROTO_NEEDS_* bits in bit order, composed once per mask */
    static const char *const bits[] = { "evictions", "replacement_hints", "excl_clean",
                                        "downgrade_on_read", "adapt", "three_hop" };
    enum { NBITS = sizeof bits / sizeof bits[0] };
    static _Thread_local char names[1 << NBITS][96];
    if (needs < 0 || needs >= 1 << NBITS)
        return "?";
    char *out = names[needs];
    if (!out[0] && needs) {
        size_t n = 0;
        for (int b = 0; b < NBITS; b++)
            if (needs >> b & 1)
                n += (size_t)snprintf(out + n, sizeof names[0] - n, "%s%s", n ? ", " : "",
                                      bits[b]);
    }
    return out;
}
