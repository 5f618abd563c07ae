/* sync.c - collectives (barrier, allocation, init, finalize) gathered at
 * node 0, and global locks served by a manager node per lock (id mod N)
 * with a FIFO of waiters.  Collectives carry their kind and argument so that
 * node 0 catches mismatched calls (a barrier against an allocation, two
 * different sizes) and ends the job with a line naming both nodes; dsm_init's
 * carries the digest of the settings that must agree (below).  When the
 * whole job is on one host the collectives after dsm_init's, the locks,
 * dsm_barrier_n and the atomic counters use the job's shared memory
 * instead (jobsync.h), with the same checks. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "futex.h"
#include "idmap.h"
#include "node.h"
#include "syncid.h"

typedef struct lock_waiter {
    int node, slot;
} lock_waiter;

struct lock_rec {
    int holder;          /* node holding it, -1 when free */
    lock_waiter *q;      /* FIFO of waiting requests */
    unsigned qhead, qlen, qcap;
};

/* The objects made on demand (syncid.h): their records at the manager
 * (under rt->lock_lock), and which made locks this node holds (under
 * owner_lock: taken by application threads only). */
struct dsm_sync_made {
    dsm_idmap lock_recs;   /* id -> struct lock_rec */
    dsm_idmap barriers;    /* id -> struct sync_obj */
    dsm_idmap conds;       /* id -> struct sync_obj */
    dsm_idmap atomics;     /* id -> struct sync_obj (its value) */
    pthread_mutex_t owner_lock;
    dsm_idmap owners;      /* id -> (void *)(uintptr_t) serial of the holding thread */
    _Atomic uint32_t next; /* made ids so far by this node */
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
    rt->made = calloc(1, sizeof *rt->made);
    if (!rt->made)
        return -1;
    pthread_mutex_init(&rt->made->owner_lock, NULL);
    return 0;
}

/* ---- collectives ---- */

/* A wait of the program's thread for a collective, a lock or a wake: it
 * is parked meanwhile (park.h) and comes back through dsm_park_leave. */
static void park_wait(dsm_rt *rt, int (*done)(dsm_rt *rt, void *arg), void *arg)
{
    dsm_park_enter(&rt->park);
    dsm_rt_wait(rt, done, arg);
    dsm_park_leave(&rt->park, &rt->eng_lock);
}

/* The same for a wait in the job's shared memory (jobsync.h's waiter,
 * ctx: the dsm_rt). */
static void park_wait_word(void *rt_, _Atomic uint32_t *word, _Atomic uint32_t *sleepers,
                           uint32_t seen, uint32_t bits)
{
    dsm_rt *rt = rt_;
    dsm_park_enter(&rt->park);
    dsm_rt_wait_word(rt, word, sleepers, seen, bits);
    dsm_park_leave(&rt->park, &rt->eng_lock);
}

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
    pthread_mutex_lock(&rt->made->owner_lock);
    for (size_t i = 0; i < rt->made->owners.cap; i++) {
        uint32_t id;
        if (!dsm_idmap_slot(&rt->made->owners, i, &id))
            continue;
        if (n++ < 8 && len < sizeof ids)
            len += (size_t)snprintf(ids + len, sizeof ids - len, "%s%u", n > 1 ? ", " : "", id);
    }
    pthread_mutex_unlock(&rt->made->owner_lock);
    if (!n)
        return;
    dsm_fatal("dsm_finalize", "lock%s %s%s %s still held by this node: dsm_unlock %s before "
              "dsm_finalize", n > 1 ? "s" : "", ids, n > 8 ? ", ..." : "", n > 1 ? "are" : "is",
              n > 1 ? "them" : "it");
}

/* A collective in the job's shared memory (jobsync.h): the last node to
 * arrive compares the calls, as node 0 does with the messages. */
static void shared_collective(dsm_rt *rt, uint64_t seq, int kind, uint64_t arg)
{
    int last;
    uint32_t gen = dsm_jobsync_arrive(rt->jobsync, seq, kind, arg, &last);
    if (last) {
        uint64_t c[6];
        int n = dsm_jobsync_mismatch(rt->jobsync, c);
        if (n >= 0) {
            char a[64], b[64];
            describe(a, sizeof a, (int)c[1], c[2]);
            describe(b, sizeof b, (int)c[4], c[5]);
            dsm_fatal(coll_name(kind), "mismatched collective call #%llu: node %d called %s "
                      "but node 0 called %s", (unsigned long long)c[0], n, a, b);
        }
        dsm_jobsync_release(rt->jobsync);
        return;
    }
    dsm_jobsync_wait(rt->jobsync, gen, park_wait_word, rt);
}

void dsm_collective(dsm_rt *rt, int kind, uint64_t arg, const char *call)
{
    (void)call;
    if (kind == COLL_STATS || kind == COLL_FINALIZE) /* dsm_finalize's first collective */
        check_no_locks_held(rt);
    dsm_rt_enter();
    dsm_rt_release_mine(rt);
    dsm_rt_epoch_end(rt, 0);
    pthread_mutex_lock(&rt->coll_lock);
    uint64_t seq = ++rt->coll_seq;
    pthread_mutex_unlock(&rt->coll_lock);
    /* dsm_finalize's also goes through node 0's messages, after: the
     * statistics shipped before it must reach node 0 first (FIFO per pair) */
    if (rt->jobsync && kind != COLL_INIT) {
        shared_collective(rt, seq, kind, arg);
        if (kind != COLL_FINALIZE) {
            dsm_rt_leave();
            return;
        }
    }
    dsm_msg_hdr h = { 0 };
    h.type = RT_COLL_ENTER;
    h.arg[0] = seq;
    h.arg[1] = (uint64_t)kind;
    h.arg[2] = arg;
    dsm_rt_send(rt, 0, &h);
    park_wait(rt, coll_is_done, &seq);
    dsm_rt_leave();
}

/* ---- locks ---- */

/* Under lock_lock.  A made lock's record is made at its first request. */
static struct lock_rec *managed_lock(dsm_rt *rt, unsigned id)
{
    if (!dsm_sync_made(id))
        return &rt->locks[id / (unsigned)rt->nnodes];
    struct lock_rec *l = dsm_idmap_get(&rt->made->lock_recs, id);
    if (l)
        return l;
    l = calloc(1, sizeof *l);
    if (!l || dsm_idmap_put(&rt->made->lock_recs, id, l))
        dsm_fatal("dsm_lock", "out of memory for the record of lock %u", id);
    l->holder = -1;
    return l;
}

/* Which thread of this node holds lock id (its serial), 0 for none; and
 * set it (serial 0: released).  Fixed ids have an array, made ids a map. */
static uint32_t owner_of(dsm_rt *rt, unsigned id)
{
    if (!dsm_sync_made(id))
        return atomic_load(&rt->lock_owner[id]);
    pthread_mutex_lock(&rt->made->owner_lock);
    uint32_t who = (uint32_t)(uintptr_t)dsm_idmap_get(&rt->made->owners, id);
    pthread_mutex_unlock(&rt->made->owner_lock);
    return who;
}

/* returns the serial that held it */
static uint32_t set_owner(dsm_rt *rt, unsigned id, uint32_t serial)
{
    if (!dsm_sync_made(id))
        return atomic_exchange(&rt->lock_owner[id], serial);
    pthread_mutex_lock(&rt->made->owner_lock);
    uint32_t was = (uint32_t)(uintptr_t)dsm_idmap_get(&rt->made->owners, id);
    int rc = 0;
    if (serial)
        rc = dsm_idmap_put(&rt->made->owners, id, (void *)(uintptr_t)serial);
    else
        dsm_idmap_del(&rt->made->owners, id);
    pthread_mutex_unlock(&rt->made->owner_lock);
    if (rc)
        dsm_fatal("dsm_lock", "out of memory recording lock %u", id);
    return was;
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

static void unlock_misuse(int node, unsigned id, int holder)
{
    if (holder < 0)
        dsm_fatal("dsm_unlock", "node %d unlocked lock %u, which is not locked", node, id);
    dsm_fatal("dsm_unlock", "node %d unlocked lock %u, which node %d holds", node, id, holder);
}

static void lock_release(dsm_rt *rt, unsigned id, int node)
{
    pthread_mutex_lock(&rt->lock_lock);
    struct lock_rec *l = managed_lock(rt, id);
    if (l->holder != node)
        unlock_misuse(node, id, l->holder);
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
    if (owner_of(rt, id) == me)
        dsm_fatal("dsm_lock", "lock %u is already held by this thread (locks are not recursive)",
                  id);
    /* no signal handler of the program may run while this thread holds the
     * lock records (lock_lock): a fault in it would serve messages that
     * need them (node.h) */
    dsm_rt_enter();
    dsm_rt_release_mine(rt);
    uint64_t t0 = rt->ctr ? dsm_now_ns() : 0;
    dsm_jobsync_lock *jl = rt->jobsync ? dsm_jobsync_lock_of(rt->jobsync, id) : NULL;
    if (jl) {
        dsm_jobsync_lock_acquire(rt->jobsync, jl, park_wait_word, rt);
    } else {
        atomic_store(&rt->granted[slot], 0);
        atomic_store(&rt->lock_wanted[slot], id + 1); /* a grant must match it (dsm_sync_handle) */
        dsm_msg_hdr h = { 0 };
        h.type = RT_LOCK_REQ;
        h.block = id;
        h.arg[0] = (uint64_t)slot;
        dsm_rt_send(rt, dsm_sync_manager(id, rt->nnodes), &h);
        park_wait(rt, lock_granted, &slot);
        atomic_store(&rt->granted[slot], 0);
    }
    set_owner(rt, id, me);
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
    if (set_owner(rt, id, 0))
        atomic_fetch_sub(&rt->locks_held, 1);
    dsm_rt_enter();
    dsm_rt_release_mine(rt);
    dsm_rt_epoch_end(rt, 1);
    dsm_jobsync_lock *jl = rt->jobsync ? dsm_jobsync_lock_of(rt->jobsync, id) : NULL;
    if (jl) {
        int holder = dsm_jobsync_lock_release(rt->jobsync, jl);
        if (holder != rt->self)
            unlock_misuse(rt->self, id, holder);
    } else {
        dsm_msg_hdr h = { 0 };
        h.type = RT_UNLOCK;
        h.block = id;
        dsm_rt_send(rt, dsm_sync_manager(id, rt->nnodes), &h);
    }
    dsm_rt_leave();
}


/* ---- objects made on demand; barriers of any count; condition variables ----
 * A barrier or a condition variable lives at its manager (syncid.h) as a
 * FIFO of waiting threads (node, thread slot).  A thread asks with
 * RT_SYNC_REQ and sleeps on its slot's wake count (sync_wakes) until the
 * manager's RT_SYNC_WAKE: no polling of shared memory, so any number of
 * waiters costs no core.  Every operation is answered, also a signal: the
 * signaller goes on only once the manager has acted, so a waiter that
 * arrives after it (having seen its writes under the lock) is never woken
 * by it. */

enum { SYNC_BARRIER = 1, SYNC_COND_WAIT, SYNC_COND_SIGNAL, SYNC_COND_BROADCAST, SYNC_ATOMIC_ADD };

struct sync_obj {
    unsigned count, arrived;   /* a barrier: its participants, arrived so far */
    int first;                 /* a barrier: the node that set count */
    lock_waiter *q;            /* waiting threads, FIFO */
    unsigned qhead, qlen, qcap;
    int64_t value;             /* an atomic counter */
};

unsigned dsm_sync_new(dsm_rt *rt, const char *call)
{
    uint32_t k = atomic_fetch_add(&rt->made->next, 1);
    if (k >= dsm_sync_make_max(rt->nnodes))
        dsm_fatal(call, "this node made %u synchronisation objects, the most it can", k);
    return dsm_sync_make(k, rt->self, rt->nnodes);
}

static void obj_push(struct sync_obj *o, int node, int slot, const char *call)
{
    if (o->qlen == o->qcap) {
        unsigned cap = o->qcap ? o->qcap * 2 : 8;
        lock_waiter *q = malloc(cap * sizeof *q);
        if (!q)
            dsm_fatal(call, "out of memory queueing a waiter");
        for (unsigned i = 0; i < o->qlen; i++)
            q[i] = o->q[(o->qhead + i) % o->qcap];
        free(o->q);
        o->q = q;
        o->qhead = 0;
        o->qcap = cap;
    }
    o->q[(o->qhead + o->qlen++) % o->qcap] = (lock_waiter){ node, slot };
}

static lock_waiter obj_pop(struct sync_obj *o)
{
    lock_waiter w = o->q[o->qhead];
    o->qhead = (o->qhead + 1) % o->qcap;
    o->qlen--;
    return w;
}

static void wake(dsm_rt *rt, unsigned id, lock_waiter w, uint64_t value)
{
    dsm_msg_hdr h = { 0 };
    h.type = RT_SYNC_WAKE;
    h.block = id;
    h.arg[0] = (uint64_t)w.slot;
    h.arg[1] = value;
    dsm_rt_send(rt, w.node, &h);
}

/* The manager: one request.  Wakes are sent after lock_lock is let go (a
 * wake to this node is handled at once, by the same thread). */
static void sync_request(dsm_rt *rt, const dsm_msg_hdr *h)
{
    unsigned id = h->block;
    int op = (int)h->arg[1];
    lock_waiter me = { h->src, (int)h->arg[0] };
    const char *call = op == SYNC_BARRIER ? "dsm_barrier_n" : op == SYNC_COND_WAIT ? "dsm_cond_wait"
                       : op == SYNC_COND_SIGNAL ? "dsm_cond_signal"
                       : op == SYNC_ATOMIC_ADD ? "dsm_atomic_add" : "dsm_cond_broadcast";
    lock_waiter *out = NULL;
    unsigned nout = 0;
    uint64_t value = 0;
    pthread_mutex_lock(&rt->lock_lock);
    dsm_idmap *m = op == SYNC_BARRIER ? &rt->made->barriers
                   : op == SYNC_ATOMIC_ADD ? &rt->made->atomics : &rt->made->conds;
    struct sync_obj *o = dsm_idmap_get(m, id);
    if (!o) {
        o = calloc(1, sizeof *o);
        if (!o || dsm_idmap_put(m, id, o))
            dsm_fatal(call, "out of memory for the record of object %u", id);
    }
    switch (op) {
    case SYNC_BARRIER: {
        unsigned count = (unsigned)h->arg[2];
        if (o->arrived == 0) {
            o->count = count;
            o->first = h->src;
        } else if (count != o->count) {
            dsm_fatal("dsm_barrier_n", "barrier %u: node %d waits for %u participants but node %d "
                      "for %u", id, h->src, count, o->first, o->count);
        }
        obj_push(o, me.node, me.slot, call);
        if (++o->arrived == o->count) {
            nout = o->qlen;
            out = malloc(nout * sizeof *out);
            if (!out)
                dsm_fatal(call, "out of memory releasing barrier %u", id);
            for (unsigned i = 0; i < nout; i++)
                out[i] = obj_pop(o);
            o->arrived = 0;
        }
        break;
    }
    case SYNC_COND_WAIT:
        obj_push(o, me.node, me.slot, call);
        nout = 1;
        out = malloc(sizeof *out);
        if (!out)
            dsm_fatal(call, "out of memory");
        out[0] = me; /* queued: the waiter may now let its lock go */
        break;
    case SYNC_COND_SIGNAL:
    case SYNC_COND_BROADCAST: {
        unsigned n = op == SYNC_COND_SIGNAL ? (o->qlen ? 1 : 0) : o->qlen;
        nout = n + 1;
        out = malloc(nout * sizeof *out);
        if (!out)
            dsm_fatal(call, "out of memory");
        for (unsigned i = 0; i < n; i++)
            out[i] = obj_pop(o);
        out[n] = me; /* the signaller's answer, last */
        break;
    }
    case SYNC_ATOMIC_ADD:
        /* done here, in the manager's one order; the answer carries the
         * value before (wrapping as an unsigned add: no overflow trap) */
        value = (uint64_t)o->value;
        o->value = (int64_t)(value + h->arg[2]);
        nout = 1;
        out = malloc(sizeof *out);
        if (!out)
            dsm_fatal(call, "out of memory");
        out[0] = me;
        break;
    }
    pthread_mutex_unlock(&rt->lock_lock);
    for (unsigned i = 0; i < nout; i++)
        wake(rt, id, out[i], value);
    free(out);
}

struct wake_wait {
    int slot;
    uint32_t target;
};

static int woken(dsm_rt *rt, void *arg)
{
    struct wake_wait *w = arg;
    return (int32_t)(atomic_load(&rt->sync_wakes[w->slot]) - w->target) >= 0;
}

/* Send one request for this thread and wait for `answers` wakes; with
 * between != NULL, run it after the first (a condition wait lets its lock
 * go there) and wait for one more. */
static void sync_call(dsm_rt *rt, unsigned id, int op, uint64_t arg, const char *call,
                      void (*between)(dsm_rt *, unsigned), unsigned between_arg)
{
    int slot = dsm_rt_thread_slot(rt);
    if (slot < 0)
        dsm_fatal(call, "more than %d threads of this node synchronise at once", DSM_MAX_THREADS);
    dsm_rt_enter();
    dsm_rt_release_mine(rt);
    dsm_rt_epoch_end(rt, 0);
    struct wake_wait w = { slot, atomic_load(&rt->sync_wakes[slot]) + 1 };
    dsm_msg_hdr h = { 0 };
    h.type = RT_SYNC_REQ;
    h.block = id;
    h.arg[0] = (uint64_t)slot;
    h.arg[1] = (uint64_t)op;
    h.arg[2] = arg;
    dsm_rt_send(rt, dsm_sync_manager(id, rt->nnodes), &h);
    park_wait(rt, woken, &w);
    dsm_rt_leave();
    if (!between)
        return;
    between(rt, between_arg);
    dsm_rt_enter();
    w.target++;
    park_wait(rt, woken, &w);
    dsm_rt_leave();
}

/* dsm_barrier_n in the job's shared memory; 0 when its table cannot take
 * id (then the manager keeps it, for every node alike) */
static int shared_barrier_n(dsm_rt *rt, unsigned id, unsigned count)
{
    uint32_t other[2];
    dsm_rt_enter();
    dsm_rt_release_mine(rt);
    dsm_rt_epoch_end(rt, 0);
    int rc = dsm_jobsync_barrier(rt->jobsync, id, count, park_wait_word, rt, other);
    dsm_rt_leave();
    if (rc == 2)
        dsm_fatal("dsm_barrier_n", "barrier %u waits for %u participants, more than can exist "
                  "(at most %u)", id, count, (1u << 21) - 1);
    if (rc == 3)
        dsm_fatal("dsm_barrier_n", "barrier %u: node %d waits for %u participants but node %u "
                  "for %u", id, rt->self, count, other[0], other[1]);
    return rc != 1;
}

void dsm_sync_barrier_n(dsm_rt *rt, unsigned id, unsigned count)
{
    if (count == 0)
        dsm_fatal("dsm_barrier_n", "barrier %u with 0 participants", id);
    uint64_t t0 = rt->ctr ? dsm_now_ns() : 0;
    if (!rt->jobsync || !shared_barrier_n(rt, id, count))
        sync_call(rt, id, SYNC_BARRIER, count, "dsm_barrier_n", NULL, 0);
    if (rt->ctr) {
        dsm_stats_node_add(&rt->stats, CM_TARGET_BARRIER, 1);
        dsm_stats_node_add(&rt->stats, CM_TARGET_BARRIER_WALL, dsm_now_ns() - t0);
    }
}

static void cond_unlock(dsm_rt *rt, unsigned lock) { dsm_sync_unlock(rt, lock); }

void dsm_sync_cond_wait(dsm_rt *rt, unsigned cond, unsigned lock)
{
    if (owner_of(rt, lock) != dsm_rt_thread_serial())
        dsm_fatal("dsm_cond_wait", "lock %u is not held by this thread (wait on condition %u "
                  "with its lock held)", lock, cond);
    sync_call(rt, cond, SYNC_COND_WAIT, 0, "dsm_cond_wait", cond_unlock, lock);
    dsm_sync_lock(rt, lock);
}

void dsm_sync_cond_signal(dsm_rt *rt, unsigned cond, int all)
{
    sync_call(rt, cond, all ? SYNC_COND_BROADCAST : SYNC_COND_SIGNAL, 0,
              all ? "dsm_cond_broadcast" : "dsm_cond_signal", NULL, 0);
}

/* An atomic counter is a synchronisation object like the others: one
 * request to its manager, answered with the value before the add (a spin
 * on it costs round trips, no page moves: bench/bench_handoff); in the
 * job's shared memory when it has some (jobsync.h). */
long dsm_sync_atomic_add(dsm_rt *rt, unsigned id, long delta)
{
    _Atomic uint64_t *c = rt->jobsync ? dsm_jobsync_counter(rt->jobsync, id) : NULL;
    if (c) {
        /* what a sync_call does before its request, then one locked add
         * (wrapping as unsigned, as the manager's) */
        dsm_rt_enter();
        dsm_rt_release_mine(rt);
        dsm_rt_epoch_end(rt, 0);
        dsm_rt_leave();
        return (long)atomic_fetch_add(c, (uint64_t)delta);
    }
    sync_call(rt, id, SYNC_ATOMIC_ADD, (uint64_t)delta, "dsm_atomic_add", NULL, 0);
    int slot = dsm_rt_thread_slot(rt);
    return (long)atomic_load(&rt->sync_value[slot]);
}

void dsm_sync_handle(dsm_rt *rt, const dsm_msg_hdr *h)
{
    switch (h->type) {
    case RT_SYNC_REQ:
        if (dsm_sync_manager(h->block, rt->nnodes) != rt->self || h->arg[0] >= DSM_MAX_THREADS ||
            h->arg[1] < SYNC_BARRIER || h->arg[1] > SYNC_ATOMIC_ADD)
            dsm_fatal("transport", "malformed synchronisation request from node %d", h->src);
        sync_request(rt, h);
        break;
    case RT_SYNC_WAKE:
        if (h->arg[0] >= DSM_MAX_THREADS)
            dsm_fatal("transport", "wake of a bad thread slot from node %d", h->src);
        atomic_store(&rt->sync_value[h->arg[0]], h->arg[1]); /* before the wake is seen */
        atomic_fetch_add(&rt->sync_wakes[h->arg[0]], 1);
        dsm_rt_signal(rt);
        break;
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
        if ((h->block >= rt->cfg.locks && !dsm_sync_made(h->block)) ||
            dsm_sync_manager(h->block, rt->nnodes) != rt->self)
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
