/* sync.c - collectives (barrier, allocation, init, finalize) gathered at
 * node 0, and global locks served by a manager node per lock (id mod N)
 * with a FIFO of waiters.  Collectives carry their kind and argument so that
 * node 0 catches mismatched calls (a barrier against an allocation, two
 * different sizes) and ends the job with a line naming both nodes; dsm_init's
 * carries the digest of the settings that must agree (below). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "futex.h"
#include "node.h"

typedef struct lock_waiter {
    int node, slot;
} lock_waiter;

struct lock_rec {
    int holder;          /* node holding it, -1 when free */
    lock_waiter *q;      /* FIFO of waiting requests */
    unsigned qhead, qlen, qcap;
};

static const char *coll_name(int kind)
{
    switch (kind) {
    case COLL_INIT: return "dsm_init";
    case COLL_BARRIER: return "dsm_barrier";
    case COLL_ALLOC: return "dsm_alloc";
    case COLL_FINALIZE: return "dsm_finalize";
    case COLL_STATS: return "dsm_finalize";
    default: return "an unknown collective";
    }
}

int dsm_sync_init(dsm_rt *rt)
{
    unsigned managed = 0;
    for (unsigned id = (unsigned)rt->self; id < rt->cfg.locks; id += (unsigned)rt->nnodes)
        managed++;
    rt->locks = calloc(managed ? managed : 1, sizeof *rt->locks);
    /* pages of it are touched only for the locks in use */
    rt->lock_owner = calloc(rt->cfg.locks, sizeof *rt->lock_owner);
    if (!rt->locks || !rt->lock_owner)
        return -1;
    for (unsigned i = 0; i < managed; i++)
        rt->locks[i].holder = -1;
    return 0;
}

/* ---- collectives ---- */

static void describe(char *buf, size_t n, int kind, uint64_t arg)
{
    if (kind == COLL_ALLOC)
        snprintf(buf, n, "dsm_alloc(%llu)", (unsigned long long)arg);
    else if (kind == COLL_STATS)
        snprintf(buf, n, "dsm_finalize() with DSM_STATS set");
    else
        snprintf(buf, n, "%s()", coll_name(kind));
}

/* ---- dsm_init: the settings every node must agree on ----
 * Each node enters COLL_INIT with the digest of its must-agree settings
 * (settings.h).  Node 0 answers a node whose digest differs from its own
 * with its values, one message per setting (RT_COLL_DONE with arg1 =
 * COLL_DONE_SETTING, block = the row of the settings table, arg0 = how many
 * such rows, arg2 = the value), and never completes the collective; that
 * node names each variable and both values, and ends the job. */
#define COLL_DONE_SETTING 1

static void send_settings(dsm_rt *rt, int to)
{
    uint64_t nagree = 0;
    for (size_t i = 0; i < dsm_nsettings; i++)
        nagree += (dsm_settings[i].flags & DSM_SET_AGREE) != 0;
    for (size_t i = 0; i < dsm_nsettings; i++) {
        if (!(dsm_settings[i].flags & DSM_SET_AGREE))
            continue;
        dsm_msg_hdr h = { 0 };
        h.type = RT_COLL_DONE;
        h.block = (uint32_t)i;
        h.arg[0] = nagree;
        h.arg[1] = COLL_DONE_SETTING;
        h.arg[2] = dsm_setting_agree_value(&dsm_settings[i], &rt->cfg);
        dsm_rt_send(rt, to, &h);
    }
}

/* A node whose settings differ: node 0's values arrive (possibly through
 * several polling threads, in any order); the last one decides.  One
 * runtime per process, so one record. */
static struct {
    pthread_mutex_t lock;
    unsigned got;
    uint64_t value[DSM_SETTINGS_MAX];
    unsigned char have[DSM_SETTINGS_MAX];
} node0_settings = { .lock = PTHREAD_MUTEX_INITIALIZER };

static void setting_from_node0(dsm_rt *rt, const dsm_msg_hdr *h)
{
    unsigned nagree = 0;
    for (size_t i = 0; i < dsm_nsettings; i++)
        nagree += (dsm_settings[i].flags & DSM_SET_AGREE) != 0;
    if (h->arg[0] != nagree || h->block >= dsm_nsettings || h->block >= DSM_SETTINGS_MAX ||
        !(dsm_settings[h->block].flags & DSM_SET_AGREE))
        dsm_fatal("dsm_init", "the settings that must agree differ from node 0's, which "
                              "compares other ones (are the nodes running different builds "
                              "of libdsm?)");
    pthread_mutex_lock(&node0_settings.lock);
    if (!node0_settings.have[h->block]) {
        node0_settings.have[h->block] = 1;
        node0_settings.value[h->block] = h->arg[2];
        node0_settings.got++;
    }
    int all = node0_settings.got == nagree;
    pthread_mutex_unlock(&node0_settings.lock);
    if (!all)
        return;
    char why[400];
    if (dsm_config_differences(&rt->cfg, node0_settings.value, node0_settings.have, 0, why,
                               sizeof why))
        dsm_fatal("dsm_init", "%s", why);
    dsm_fatal("dsm_init", "the settings that must agree differ from node 0's, though each "
                          "value is the same (are the nodes running different builds of "
                          "libdsm?)");
}

/* node 0: one node arrived at collective seq */
static void coll_arrive(dsm_rt *rt, int from, uint64_t seq, int kind, uint64_t arg)
{
    int refuse = 0;
    pthread_mutex_lock(&rt->coll_lock);
    if (rt->cg_arrived == 0) {
        rt->cg_seq = seq;
        rt->cg_kind = kind;
        rt->cg_arg = arg;
        rt->cg_first = from;
    } else if (seq != rt->cg_seq || kind != rt->cg_kind ||
               (kind != COLL_INIT && arg != rt->cg_arg)) {
        char a[64], b[64];
        describe(a, sizeof a, kind, arg);
        describe(b, sizeof b, rt->cg_kind, rt->cg_arg);
        dsm_fatal(coll_name(kind),
                  "mismatched collective call #%llu: node %d called %s but node %d called %s",
                  (unsigned long long)seq, from, a, rt->cg_first, b);
    }
    if (kind == COLL_INIT && arg != dsm_config_digest(&rt->cfg))
        refuse = rt->cg_init_refused = 1;
    int all = ++rt->cg_arrived == rt->nnodes;
    if (all)
        rt->cg_arrived = 0;
    int release = all && !(kind == COLL_INIT && rt->cg_init_refused);
    pthread_mutex_unlock(&rt->coll_lock);
    if (refuse)
        send_settings(rt, from);
    if (!release)
        return;
    for (int n = 0; n < rt->nnodes; n++) {
        dsm_msg_hdr h = { 0 };
        h.type = RT_COLL_DONE;
        h.arg[0] = seq;
        dsm_rt_send(rt, n, &h);
    }
}

static int coll_is_done(dsm_rt *rt, void *arg)
{
    return atomic_load(&rt->coll_done) >= *(uint64_t *)arg;
}

/* dsm_finalize with a lock held would leave its waiters waiting forever:
 * a misuse, named with the locks. */
static void check_no_locks_held(dsm_rt *rt)
{
    if (!atomic_load(&rt->locks_held))
        return;
    char ids[160] = "";
    size_t len = 0;
    int n = 0;
    for (unsigned id = 0; id < rt->cfg.locks; id++) {
        if (!atomic_load(&rt->lock_owner[id]))
            continue;
        if (n++ < 8 && len < sizeof ids)
            len += (size_t)snprintf(ids + len, sizeof ids - len, "%s%u", n > 1 ? ", " : "", id);
    }
    if (!n)
        return;
    dsm_fatal("dsm_finalize", "lock%s %s%s %s still held by this node: dsm_unlock %s before "
              "dsm_finalize", n > 1 ? "s" : "", ids, n > 8 ? ", ..." : "", n > 1 ? "are" : "is",
              n > 1 ? "them" : "it");
}

void dsm_collective(dsm_rt *rt, int kind, uint64_t arg, const char *call)
{
    (void)call;
    if (kind == COLL_STATS || kind == COLL_FINALIZE) /* dsm_finalize's first collective */
        check_no_locks_held(rt);
    dsm_rt_enter();
    dsm_rt_release_mine(rt);
    pthread_mutex_lock(&rt->coll_lock);
    uint64_t seq = ++rt->coll_seq;
    pthread_mutex_unlock(&rt->coll_lock);
    dsm_msg_hdr h = { 0 };
    h.type = RT_COLL_ENTER;
    h.arg[0] = seq;
    h.arg[1] = (uint64_t)kind;
    h.arg[2] = arg;
    dsm_rt_send(rt, 0, &h);
    dsm_rt_wait(rt, coll_is_done, &seq);
    dsm_rt_leave();
}

/* ---- locks ---- */

static struct lock_rec *managed_lock(dsm_rt *rt, unsigned id)
{
    return &rt->locks[id / (unsigned)rt->nnodes];
}

static void grant(dsm_rt *rt, unsigned id, int node, int slot)
{
    dsm_msg_hdr h = { 0 };
    h.type = RT_LOCK_GRANT;
    h.block = id;
    h.arg[0] = (uint64_t)slot;
    dsm_rt_send(rt, node, &h);
}

static void lock_request(dsm_rt *rt, unsigned id, int node, int slot)
{
    pthread_mutex_lock(&rt->lock_lock);
    struct lock_rec *l = managed_lock(rt, id);
    int now = 0;
    if (l->holder < 0) {
        l->holder = node;
        now = 1;
    } else {
        if (l->qlen == l->qcap) {
            unsigned cap = l->qcap ? l->qcap * 2 : 4;
            lock_waiter *q = malloc(cap * sizeof *q);
            if (!q)
                dsm_fatal("dsm_lock", "out of memory queueing lock %u", id);
            for (unsigned i = 0; i < l->qlen; i++)
                q[i] = l->q[(l->qhead + i) % l->qcap];
            free(l->q);
            l->q = q;
            l->qhead = 0;
            l->qcap = cap;
        }
        l->q[(l->qhead + l->qlen++) % l->qcap] = (lock_waiter){ node, slot };
    }
    pthread_mutex_unlock(&rt->lock_lock);
    if (now)
        grant(rt, id, node, slot);
}

static void lock_release(dsm_rt *rt, unsigned id, int node)
{
    pthread_mutex_lock(&rt->lock_lock);
    struct lock_rec *l = managed_lock(rt, id);
    if (l->holder != node) {
        if (l->holder < 0)
            dsm_fatal("dsm_unlock", "node %d unlocked lock %u, which is not locked", node, id);
        dsm_fatal("dsm_unlock", "node %d unlocked lock %u, which node %d holds", node, id,
                  l->holder);
    }
    lock_waiter next = { -1, -1 };
    if (l->qlen) {
        next = l->q[l->qhead];
        l->qhead = (l->qhead + 1) % l->qcap;
        l->qlen--;
        l->holder = next.node;
    } else {
        l->holder = -1;
    }
    pthread_mutex_unlock(&rt->lock_lock);
    if (next.node >= 0)
        grant(rt, id, next.node, next.slot);
}

static int lock_granted(dsm_rt *rt, void *arg)
{
    return atomic_load(&rt->granted[*(int *)arg]) != 0;
}

void dsm_sync_lock(dsm_rt *rt, unsigned id)
{
    int slot = dsm_rt_thread_slot(rt);
    if (slot < 0)
        dsm_fatal("dsm_lock", "more than %d threads of this node use locks at once",
                  DSM_MAX_THREADS);
    uint32_t me = dsm_rt_thread_serial();
    /* its request would queue behind itself at the manager: a hang */
    if (atomic_load(&rt->lock_owner[id]) == me)
        dsm_fatal("dsm_lock", "lock %u is already held by this thread (locks are not recursive)",
                  id);
    /* no signal handler of the program may run while this thread holds the
     * lock records (lock_lock): a fault in it would serve messages that
     * need them (node.h) */
    dsm_rt_enter();
    dsm_rt_release_mine(rt);
    uint64_t t0 = rt->ctr ? dsm_now_ns() : 0;
    atomic_store(&rt->granted[slot], 0);
    atomic_store(&rt->lock_wanted[slot], id + 1); /* a grant must match it (dsm_sync_handle) */
    dsm_msg_hdr h = { 0 };
    h.type = RT_LOCK_REQ;
    h.block = id;
    h.arg[0] = (uint64_t)slot;
    dsm_rt_send(rt, (int)(id % (unsigned)rt->nnodes), &h);
    dsm_rt_wait(rt, lock_granted, &slot);
    atomic_store(&rt->granted[slot], 0);
    atomic_store(&rt->lock_owner[id], me);
    atomic_fetch_add(&rt->locks_held, 1);
    if (rt->ctr) {
        dsm_stats_node_add(&rt->stats, CM_LOCK_ACQUIRES, 1);
        dsm_stats_node_add(&rt->stats, CM_LOCK_WAIT_WALL, dsm_now_ns() - t0);
    }
    dsm_rt_leave();
}

void dsm_sync_unlock(dsm_rt *rt, unsigned id)
{
    /* Any thread of the holding node may unlock (the manager knows nodes,
     * not threads); a lock this node does not hold is reported by its
     * manager, naming the holder. */
    if (atomic_exchange(&rt->lock_owner[id], 0))
        atomic_fetch_sub(&rt->locks_held, 1);
    dsm_rt_enter();
    dsm_rt_release_mine(rt);
    dsm_msg_hdr h = { 0 };
    h.type = RT_UNLOCK;
    h.block = id;
    dsm_rt_send(rt, (int)(id % (unsigned)rt->nnodes), &h);
    dsm_rt_leave();
}

void dsm_sync_handle(dsm_rt *rt, const dsm_msg_hdr *h)
{
    switch (h->type) {
    case RT_COLL_ENTER:
        if (rt->self != 0)
            dsm_fatal("transport", "collective message from node %d at node %d", h->src, rt->self);
        coll_arrive(rt, h->src, h->arg[0], (int)h->arg[1], h->arg[2]);
        break;
    case RT_COLL_DONE:
        if (h->arg[1] == COLL_DONE_SETTING) {
            setting_from_node0(rt, h);
            break;
        }
        atomic_store(&rt->coll_done, h->arg[0]);
        dsm_rt_signal(rt);
        break;
    case RT_LOCK_REQ:
    case RT_UNLOCK:
        if (h->block >= rt->cfg.locks || (int)(h->block % (unsigned)rt->nnodes) != rt->self)
            dsm_fatal("transport", "lock message for lock %u from node %d at the wrong manager",
                      h->block, h->src);
        if (h->type == RT_LOCK_REQ) {
            if (h->arg[0] >= DSM_MAX_THREADS)
                dsm_fatal("transport", "lock request with a bad thread slot from node %d", h->src);
            lock_request(rt, h->block, h->src, (int)h->arg[0]);
        } else {
            lock_release(rt, h->block, h->src);
        }
        break;
    case RT_LOCK_GRANT: {
        /* msg.c checked the slot's range and that the sender manages the
         * lock; the thread in that slot must be waiting for this lock */
        uint32_t want = h->block + 1;
        if (h->arg[0] >= DSM_MAX_THREADS ||
            !atomic_compare_exchange_strong(&rt->lock_wanted[h->arg[0]], &want, 0))
            dsm_fatal("transport", "grant of lock %u from node %d to thread slot %llu, which "
                      "did not ask for it", h->block, h->src, (unsigned long long)h->arg[0]);
        atomic_store(&rt->granted[h->arg[0]], 1);
        dsm_rt_signal(rt);
        break;
    }
    }
}
