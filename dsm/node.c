/* node.c - the runtime core of one node: runs the engine for faults and
 * incoming messages, performs its actions (messages, mprotect, data copies,
 * wake-ups), and serves the network from a progress thread.
 *
 * Waiting: a thread that waits (for a block, a lock, a collective) polls the
 * transport itself for a short spin (DSM_SPIN_US), so on an idle machine the
 * reply is handled by the waiting thread without any wake-up; then it blocks
 * on the node's event word and the progress thread serves messages. */
#define _GNU_SOURCE 1 /* sched_getaffinity */
#include "node.h"

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "access.h"
#include "error.h"
#include "futex.h"
#include "misstrace.h"
#include "msg.h"
#include "progress_place.h"
#include "protect.h"
#include "sig_gate.h"
#include "tasks.h"

dsm_rt *dsm_g;

/* ---- thread slots: small numbers for lock grants, back in a free list
 * when their thread exits (a pthread key's destructor), so a node may run
 * any number of short-lived threads over its life ---- */

static pthread_once_t slot_once = PTHREAD_ONCE_INIT;
static pthread_key_t slot_key;
static int slot_key_ok;
static pthread_mutex_t slot_free_lock = PTHREAD_MUTEX_INITIALIZER;
static int slot_free[DSM_MAX_THREADS];
static int slot_nfree;
static __thread int my_slot = -1;

static void slot_release(void *v)
{
    pthread_mutex_lock(&slot_free_lock);
    if (slot_nfree < DSM_MAX_THREADS)
        slot_free[slot_nfree++] = (int)(intptr_t)v - 1;
    pthread_mutex_unlock(&slot_free_lock);
}

static void slot_key_init(void) { slot_key_ok = !pthread_key_create(&slot_key, slot_release); }

int dsm_rt_thread_slot(dsm_rt *rt)
{
    if (my_slot >= 0)
        return my_slot;
    pthread_once(&slot_once, slot_key_init);
    int s = -1;
    pthread_mutex_lock(&slot_free_lock);
    if (slot_nfree)
        s = slot_free[--slot_nfree];
    pthread_mutex_unlock(&slot_free_lock);
    if (s < 0) {
        int n = atomic_load(&rt->next_slot);
        do
            if (n >= DSM_MAX_THREADS)
                return -1; /* that many threads alive at once */
        while (!atomic_compare_exchange_weak(&rt->next_slot, &n, n + 1));
        s = n;
    }
    /* without the key (no memory for it) the slot is never given back */
    if (slot_key_ok)
        pthread_setspecific(slot_key, (void *)(intptr_t)(s + 1));
    my_slot = s;
    return s;
}

uint32_t dsm_rt_thread_serial(void)
{
    static _Atomic uint32_t next;
    static __thread uint32_t mine;
    if (!mine)
        mine = atomic_fetch_add(&next, 1) + 1;
    return mine;
}

/* ---- the program's signals (node.h) ---- */

static pthread_once_t async_once = PTHREAD_ONCE_INIT;
static sigset_t async_set;

static void async_init(void)
{
    sigfillset(&async_set);
    /* raised by the instruction that faults: blocking them would turn a
     * crash (or the fault handler itself) into a kill */
    static const int sync_sigs[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP, SIGSYS };
    for (size_t i = 0; i < sizeof sync_sigs / sizeof sync_sigs[0]; i++)
        sigdelset(&async_set, sync_sigs[i]);
}

const sigset_t *dsm_rt_async_signals(void)
{
    pthread_once(&async_once, async_init);
    return &async_set;
}

/* This thread's state: how deep in the runtime; whether it sleeps in
 * dsm_rt_wait with its own mask back (parked: it holds nothing, a handler
 * may fault); the mask to give back; whether leaving restores it (not in
 * the fault handler, whose return does); whether the section runs with the
 * program's mask because no handler of the program can run (open:
 * sig_gate.c counts it inside while it is not parked); a runtime thread,
 * masked for good. */
static __thread int sig_depth, sig_parked, sig_restore, sig_open, sig_runtime_thread;
static __thread sigset_t sig_mask;

int dsm_rt_busy(void) { return sig_runtime_thread || sig_depth; }

/* A handler of the program that enters the runtime over a sleep of its
 * thread in it (block mode's checks, in make_present; page mode's fault
 * handler takes its level in dsm_rt_fault_enter) takes a level of its own
 * too: blocked, its sleeps giving back the handler's mask, not the one of
 * the code the sleep's section interrupted (that would let the same
 * signal into its own handler's miss, over and over while it waits, and
 * another signal in while the handler's miss holds the engine lock). */
#define SIG_NEST 16
static __thread dsm_rt_sigframe sig_outer[SIG_NEST];
static __thread int sig_nest;

/* The order of the steps below matters: a signal may come between any
 * two, and its handler may fault; the thread must look busy only while the
 * signals are blocked (or no handler can run: the gate passed). */
void dsm_rt_enter(void)
{
    if (sig_runtime_thread)
        return;
    if (sig_depth && sig_parked) {
        if (sig_nest == SIG_NEST)
            dsm_fatal("signal handler", "handlers nested more than %d deep in the runtime",
                      SIG_NEST);
        dsm_rt_fault_enter(NULL, &sig_outer[sig_nest++]); /* parked: never refused */
        return;
    }
    if (!sig_depth) {
        if (dsm_sig_gate_pass()) {
            sig_open = 1;
            sig_restore = 0;
        } else {
            sigset_t old;
            pthread_sigmask(SIG_BLOCK, dsm_rt_async_signals(), &old);
            sig_mask = old;
            sig_restore = 1;
        }
    }
    sig_depth++;
}

void dsm_rt_leave(void)
{
    if (sig_runtime_thread || --sig_depth)
        return;
    if (sig_nest) {
        /* the handler's level: the sleeping one back first, then the
         * handler's mask (a signal in between finds the sleep's state) */
        dsm_rt_fault_leave(&sig_outer[--sig_nest]);
        return;
    }
    if (sig_open) {
        sig_open = 0;
        dsm_sig_gate_leave();
    } else if (sig_restore) {
        pthread_sigmask(SIG_SETMASK, &sig_mask, NULL);
    }
}

/* Around a sleep in dsm_rt_wait: the program's handlers may run.  An open
 * section leaves the gate's count while it sleeps (an installer must not
 * wait for a sleeper); coming back, it blocks the signals if the gate shut
 * meanwhile, and a blocked one stays open if no handler is left. */
static void sig_park(int on)
{
    if (sig_runtime_thread || !sig_depth)
        return;
    if (on) {
        sig_parked = 1;
        if (sig_open)
            dsm_sig_gate_leave();
        else
            pthread_sigmask(SIG_SETMASK, &sig_mask, NULL);
        return;
    }
    if (!dsm_sig_gate_pass()) {
        sigset_t old;
        pthread_sigmask(SIG_BLOCK, dsm_rt_async_signals(), &old);
        if (sig_open) {
            /* open until now: its mask was never saved, leaving restores it */
            sig_mask = old;
            sig_restore = 1;
        }
        sig_open = 0;
    } else {
        /* the mask now is sig_mask, as leaving would set it (and the fault
         * handler's return: its interrupted mask) */
        sig_open = 1;
        sig_restore = 0;
    }
    sig_parked = 0;
}

int dsm_rt_fault_enter(const sigset_t *interrupted, dsm_rt_sigframe *outer)
{
    *outer = (dsm_rt_sigframe){ sig_depth, sig_parked, sig_restore, sig_open, sig_mask };
    if (sig_runtime_thread)
        return 0;
    if (sig_depth && !sig_parked)
        return -1;
    /* a level of its own, also when it interrupted a sleep in the runtime:
     * its sleeps give back the mask of the handler that faulted.  Blocked
     * by the kernel already (fault.c's sa_mask): not open. */
    sigset_t mask;
    if (interrupted)
        mask = *interrupted;
    else
        pthread_sigmask(SIG_BLOCK, dsm_rt_async_signals(), &mask);
    sig_mask = mask;
    sig_restore = !interrupted;
    sig_parked = 0;
    sig_open = 0;
    sig_depth = 1;
    return 0;
}

void dsm_rt_fault_leave(const dsm_rt_sigframe *outer)
{
    if (sig_runtime_thread)
        return;
    int restore = sig_restore, open = sig_open;
    sigset_t mask = sig_mask;
    sig_depth = outer->depth;
    sig_parked = outer->parked;
    sig_restore = outer->restore;
    sig_open = outer->open;
    sig_mask = outer->mask;
    if (open)
        dsm_sig_gate_leave();
    else if (restore)
        pthread_sigmask(SIG_SETMASK, &mask, NULL);
}

/* this thread is one of rt->tp_waiters (wait_in_transport) */
static __thread int tp_waiting;

void dsm_rt_signal(dsm_rt *rt)
{
    atomic_fetch_add(&rt->events, 1);
    if (atomic_load(&rt->sleepers))
        dsm_futex_wake(&rt->events, 0);
    /* a thread in the transport's wait that handled the message itself is
     * awake: waking the node's sleepers for it (an eventfd write, and the
     * progress thread's wake-up) is for nothing, once per miss */
    if (atomic_load(&rt->tp_waiters) > tp_waiting)
        rt->tp->wake(rt->tp);
}

/* ---- how long a waiter spins ----
 *
 * A waiting thread spins (polling the transport itself) so that a fast
 * reply costs no wake-up; blocking costs a futex wake and a trip through
 * the scheduler, tens of microseconds, milliseconds on a loaded machine.
 * But a spinning thread holds a core: when this host runs more nodes than
 * it has cores, the waiter spins on the core its home (or the owner the
 * home recalls from) needs to answer, and every miss then waits for a time
 * slice (tests/run_mn.sh measured 8 nodes on 2 cores beside two busy
 * processes: 50 s spinning against 1 s blocking at once).  So with
 * DSM_SPIN_US=auto a node never spins when the host is oversubscribed by
 * nodes alone, and spins SPIN_AUTO_NS otherwise.  Measured on 2 cores
 * (apps/jacobi, medians of 7 paired runs): 8 nodes beside two busy
 * processes, a 10 us spin took 6.4 times as long as none; on a quiet
 * machine the 10 us spin was 0.76 of none (8 nodes) and 0.95 of 50 us (4
 * nodes), none 1.2 times 50 us (4 nodes).  Never spinning bounds the worst
 * case; the best case loses up to a quarter.  With 2 nodes on 2 cores not
 * spinning makes bench_core's read miss 7 times slower (59 us against
 * 8.5 us), so there the spin stays, but it is turned off while most waits
 * outlast it (spin_learn, below): beside other processes, 2 nodes of
 * tests/mn_counter then took 0.72 of the time with the fixed 50 us spin,
 * bench_core's read miss the same (11.4 against 11.0 us, medians of 7
 * runs).  A spin that follows
 * this node's recent reply latencies (twice a moving average) was tried
 * and measured worse on a loaded 2-core machine: barrier waits and late
 * replies pull the average up and down, and each miss that outlives the
 * shortened spin pays a wake-up (bench_core's read miss 38 us against
 * 12 us with the fixed 50 us, medians of 7 runs). */
#define SPIN_AUTO_NS 50000u
/* A node with peers on other hosts (mpi over TCP) spins longer: a round
 * trip there (a TCP message each way, its doorbell, the home's handler)
 * takes 60 to 150 us on the 2-core test VM, so with the 50 us spin nearly
 * every wait outlasted it, spin_learn turned the spin off, and every miss
 * paid a wake-up on both sides (the requester's, and the home's progress
 * thread, which spins as long after each message).  200 us covers the
 * round trip; where most waits still outlast it (a crowded machine), the
 * learning turns it off as before.  Measured on the network test bed
 * (doc/cluster.md): runtime round trip 129 us against 302 us with the
 * 50 us spin, medians of 4 paired runs at load 25-35. */
#define SPIN_REMOTE_NS 200000u

/* The home's downgrade on this machine: a read miss of a block its home
 * wrote waits for an mprotect read-write to read-only there (doc/cluster.md,
 * "Why the home's downgrade stays on the miss's path").  It costs 1-5 us on
 * bare metal and 40-55 us on the 2-core test VM (each changed page-table
 * entry trapped by the hypervisor), where the read miss's wait, about 55 us,
 * sat just past the 50 us spin: nearly every wait outlasted it, spin_learn
 * turned the spin off, and every miss paid two or three wake-ups (traced,
 * doc/protocol.md "Where a read miss's time goes, step by step": 130-400 us
 * against 79 us spinning).  Median of 5 on a page of our own, once. */
static uint64_t probe_downgrade_ns(void)
{
    long pg = sysconf(_SC_PAGESIZE);
    char *p = mmap(NULL, (size_t)pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return 0;
    uint64_t v[5];
    for (int i = 0; i < 5; i++) {
        ((volatile char *)p)[0] = (char)i;
        uint64_t t0 = dsm_now_ns();
        int rc = mprotect(p, (size_t)pg, PROT_READ);
        v[i] = dsm_now_ns() - t0;
        if (rc || mprotect(p, (size_t)pg, PROT_READ | PROT_WRITE)) {
            munmap(p, (size_t)pg);
            return 0;
        }
    }
    munmap(p, (size_t)pg);
    for (int i = 1; i < 5; i++) /* insertion sort of 5 */
        for (int j = i; j > 0 && v[j] < v[j - 1]; j--) {
            uint64_t x = v[j];
            v[j] = v[j - 1];
            v[j - 1] = x;
        }
    return v[2];
}

int dsm_rt_cores(void)
{
    cpu_set_t set;
    if (!sched_getaffinity(0, sizeof set, &set) && CPU_COUNT(&set) > 0)
        return CPU_COUNT(&set);
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

int dsm_rt_host_nodes(dsm_rt *rt)
{
    /* the launcher's count of ranks on this host (OpenMPI, MPICH); under
     * dsmrun (shm) every node runs here */
    static const char *const local_size[] = { "OMPI_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALNRANKS" };
    for (size_t i = 0; i < sizeof local_size / sizeof local_size[0]; i++) {
        const char *v = getenv(local_size[i]);
        if (v && atoi(v) > 0)
            return atoi(v);
    }
    return rt->nnodes;
}

void dsm_rt_spin_policy(dsm_rt *rt, int host_nodes, int cores)
{
    rt->spin_cap_ns = 0; /* no learning */
    if (rt->cfg.spin_us != DSM_SET_AUTO_VALUE) {
        rt->spin_ns = (uint64_t)rt->cfg.spin_us * 1000u;
    } else if (host_nodes > cores) {
        rt->spin_ns = 0;
    } else {
        /* peers on other hosts: see SPIN_REMOTE_NS */
        uint64_t cap = host_nodes < rt->nnodes ? SPIN_REMOTE_NS : SPIN_AUTO_NS + rt->downgrade_ns;
        if (cap > SPIN_REMOTE_NS)
            cap = SPIN_REMOTE_NS;
        rt->spin_ns = cap;
        rt->spin_cap_ns = cap;
    }
}

/* A core per node does not make the cores free: beside other processes a
 * waiter that spins takes the time slice the node it waits for needs, and
 * its waits outlast the spin.  So with `auto` the node looks at its waits
 * in windows of SPIN_WINDOW: when at least 3/4 outlasted the spin it
 * stops spinning, when at most half did it spins again (the wait's whole
 * duration is counted, also when it did not spin, so the choice can come
 * back).  Racy counts between threads only blur a window. */
#define SPIN_WINDOW 32u
static void spin_learn(dsm_rt *rt, uint64_t wait_ns)
{
    if (!rt->spin_cap_ns)
        return;
    uint32_t lng = wait_ns > rt->spin_cap_ns;
    if (lng)
        atomic_fetch_add_explicit(&rt->spin_long, 1, memory_order_relaxed);
    if (atomic_fetch_add_explicit(&rt->spin_waits, 1, memory_order_relaxed) + 1 < SPIN_WINDOW)
        return;
    uint32_t n = atomic_exchange_explicit(&rt->spin_long, 0, memory_order_relaxed);
    atomic_store_explicit(&rt->spin_waits, 0, memory_order_relaxed);
    if (n >= SPIN_WINDOW * 3 / 4)
        atomic_store_explicit(&rt->spin_ns, 0, memory_order_relaxed);
    else if (n <= SPIN_WINDOW / 2)
        atomic_store_explicit(&rt->spin_ns, rt->spin_cap_ns, memory_order_relaxed);
}

/* ---- performing the engine's actions (called with eng_lock held) ---- */

static __thread int in_progress_thread;

/* A message deferred by a hold is answered when the hold ends, and ending
 * expired holds is the progress thread's job: if it may be asleep (we are
 * another thread), wake it.  Rare: only while a hold defers something. */
static void kick_progress(dsm_rt *rt)
{
    if (!in_progress_thread && rt->tp && proto_deferred_messages(rt->eng))
        rt->tp->wake(rt->tp);
}

/* This thread starts or stops polling for the node (see transport.h). */
static void app_polling(dsm_rt *rt, int on)
{
    if (on)
        atomic_fetch_add(&rt->app_spinners, 1);
    if (rt->tp && rt->tp->polling)
        rt->tp->polling(rt->tp, on);
    if (!on)
        atomic_fetch_sub(&rt->app_spinners, 1);
}

/* Whether a protection change before action `end` waits on `block`. */
static int deferred_concern(const proto_actions *a, size_t end, uint32_t block)
{
    for (size_t j = 0; j < end; j++)
        if (a->v[j].kind == PA_SET_ACCESS && a->v[j].block == block)
            return 1;
    return 0;
}

/* Makes the protection changes that wait among the actions before `end`,
 * in their order, batched as dsm_protect_batch batches (only other
 * deferred changes and done actions lie between them now). */
static void protect_deferred(dsm_rt *rt, size_t end)
{
    proto_actions *a = &rt->acts;
    size_t n = a->n;
    a->n = end; /* the batch looks no further */
    for (size_t j = 0; j < end; j++)
        if (a->v[j].kind == PA_SET_ACCESS)
            dsm_protect_batch(rt, j);
    a->n = n;
}

/* h: the message being handled (NULL for a local access), payload its data */
static void run_actions(dsm_rt *rt, const dsm_msg_hdr *h_in, const void *payload,
                        uint32_t payload_len)
{
    proto_actions *a = &rt->acts;
    /* a bulk fetch's read copies wait for the ones that follow; the
     * actions of any other call come after theirs (protect.h) */
    int group_copy = h_in && h_in->type == PM_GROUP_DATA;
    if (!group_copy)
        dsm_protect_flush(rt);
    /* The program's thread is parked (park.h): the protection changes wait
     * until the sends are out, unless another action of their block needs
     * them made first. */
    int defer = h_in && !group_copy && dsm_park_defer(&rt->park);
    size_t ndeferred = 0;
    for (size_t i = 0; i < a->n; i++) {
        const proto_action *act = &a->v[i];
        char *copy = rt->region.proto + ((size_t)act->block << rt->region.block_shift);
        if (defer) {
            if (act->kind == PA_SET_ACCESS) {
                /* the profile's write epoch ends now, before the answer
                 * (its reader's time must not precede the end); the diff
                 * is taken when the copy is protected (idempotent) */
                if (rt->prof && act->access != PROTO_ACCESS_WRITE)
                    dsm_prof_set_access(rt, act->block, act->access);
                ndeferred++;
                continue;
            }
            if (ndeferred && act->kind != PA_SEND && act->kind != PA_WAIT &&
                deferred_concern(a, i, act->block)) {
                protect_deferred(rt, i);
                ndeferred = 0;
            }
        }
        switch (act->kind) {
        case PA_SEND: {
            dsm_msg_hdr h = { 0 };
            h.magic = DSM_MSG_MAGIC;
            h.type = act->msg.type;
            h.flags = act->msg.flags; /* PROTO_MSG_READS: for the home's augmentation */
            h.src = rt->self;
            h.dst = act->msg.dst;
            h.block = act->block;
            int data = proto_msg_has_data(act->msg.type);
            if (rt->prof && (act->msg.type == PM_GETS || act->msg.type == PM_GETX ||
                             act->msg.type == PM_UPGRADE || act->msg.type == PM_RECALL))
                dsm_prof_flush_block(rt, act->block); /* data for it may follow */
            if (rt->prof && (act->msg.type == PM_DATA_X || act->msg.type == PM_UPGRADE_ACK))
                dsm_prof_grant(rt, act->block, act->msg.dst); /* a remote write epoch begins */
            h.len = data ? (uint32_t)rt->region.block_size : 0;
            if (!rt->tp)
                dsm_fatal("protocol", "message to node %d on a one-node job", act->msg.dst);
            uint64_t t0 = rt->ctr && data ? dsm_ticks() : 0;
            DSM_MT(MT_SEND_IN, act->block, h.type);
            if (rt->tp->send(rt->tp, act->msg.dst, &h, data ? copy : NULL))
                dsm_fatal("protocol", "cannot send %s to node %d", proto_msg_name(h.type),
                          act->msg.dst);
            DSM_MT(MT_SEND_OUT, act->block, h.type);
            if (rt->ctr) {
                /* MsgBytes follows from these two at gathering (stats.c) */
                counters_add(rt->ctr, CM_SENT_MSGS, act->block, 1);
                if (data) {
                    counters_add(rt->ctr, CM_BULK_DATA_TRANSFERS, act->block, 1);
                    counters_add(rt->ctr, CM_BULK_DATA_TRANSFER_WALL, act->block,
                                 dsm_ticks() - t0);
                }
            }
            break;
        }
        case PA_SET_ACCESS:
            /* the profile's twin is taken before the application can write,
             * its diff after it no longer can (protect.c) */
            if (group_copy && act->access == PROTO_ACCESS_READ)
                dsm_protect_defer_read(rt, act->block);
            else
                dsm_protect_batch(rt, i);
            break;
        case PA_INSTALL:
            /* handle_msg validated it (msg.c): a data message carries one block */
            if (rt->prof) {
                dsm_prof_flush_block(rt, act->block);
                /* a remote write epoch ends: the home diffs the data coming
                 * back against its memory, which has not changed since */
                if (h_in && (h_in->type == PM_WB_DATA || h_in->type == PM_PUSH ||
                             h_in->type == PM_FLUSH) && payload != copy)
                    dsm_prof_writeback(rt, act->block, h_in->src, payload);
            }
            /* the verbs transport RDMA-writes a block straight into its
             * place and hands it over as the payload: nothing to copy */
            DSM_MT(MT_COPY_IN, act->block, 0);
            if (payload != copy) {
                dsm_region_commit(&rt->region, act->block);
                memcpy(copy, payload, payload_len);
            }
            DSM_MT(MT_COPY_OUT, act->block, 0);
            break;
        case PA_COMPLETE:
            DSM_MT(MT_SIGNAL, act->block, 0);
            dsm_rt_signal(rt);
            break;
        case PA_WAIT:
            break;
        }
    }
    if (ndeferred)
        protect_deferred(rt, a->n);
    if (h_in && !group_copy)
        dsm_park_done(&rt->park);
    a->n = 0;
    kick_progress(rt);
}

/* The request the access made or joined is done when the block is in a
 * stable state again; the access is then retried (and may fault again, e.g.
 * a write that joined a read miss). */
static int block_settled(dsm_rt *rt, void *arg)
{
    uint32_t block = *(uint32_t *)arg;
    pthread_mutex_lock(&rt->eng_lock);
    proto_cache_state st = proto_cache_state_of(rt->eng, block);
    pthread_mutex_unlock(&rt->eng_lock);
    return proto_cache_settled(st);
}

/* ---- holds: a fresh grant stays until its faulting access retried ---- */

static void release_block(dsm_rt *rt, uint32_t block)
{
    /* The engine holds one grant per block: every record of this block goes
     * with it.  A stale record left behind could later end a newer grant's
     * hold before that access retried (tests/explore --mutant stale-holds
     * shows two threads of a node taking a block from each other forever). */
    for (int j = rt->nholds - 1; j >= 0; j--)
        if (rt->holds[j].block == block)
            rt->holds[j] = rt->holds[--rt->nholds];
    rt->acts.n = 0;
    uint64_t t0 = 0;
    if (rt->ctr) {
        t0 = dsm_ticks();
        dsm_stats_call_begin(rt, block);
    }
    if (proto_release(rt->eng, block, &rt->acts))
        dsm_fatal("protocol", "%s", proto_last_error(rt->eng));
    run_actions(rt, NULL, NULL, 0);
    if (rt->ctr)
        dsm_stats_call_end(rt, t0); /* a deferred INV/RECALL replayed: an invalidation */
}

static void release_at(dsm_rt *rt, int i) { release_block(rt, rt->holds[i].block); }

/* Called with eng_lock held.  slot >= 0: that thread's holds (it is back in
 * the runtime, so its access retried); slot < 0: holds whose thread left
 * the handler more than DSM_HOLD_US ago (or all, when force). */
static void release_holds(dsm_rt *rt, int slot, int force)
{
    uint64_t now = slot < 0 && !force ? dsm_now_ns() : 0;
    uint64_t window = (uint64_t)rt->cfg.hold_us * 1000;
    for (int i = 0; i < rt->nholds;) {
        const struct dsm_hold *h = &rt->holds[i];
        int go = slot >= 0 ? h->slot == slot : force || now - h->left_ns >= window;
        if (go)
            release_at(rt, i), i = 0; /* records moved: look again from the start */
        else
            i++;
    }
}

static void add_hold(dsm_rt *rt, uint32_t block, int slot)
{
    if (rt->nholds == (int)(sizeof rt->holds / sizeof rt->holds[0]))
        release_at(rt, 0);
    rt->holds[rt->nholds++] = (struct dsm_hold){ block, slot, dsm_now_ns() };
}

/* Racy peek at the holds (checked again under the lock). */
static int holds_pending(dsm_rt *rt) { return __atomic_load_n(&rt->nholds, __ATOMIC_RELAXED); }

/* A release that would push more producer-consumer blocks than this pushes
 * none (the notes are forgotten, as a barrier forgets the flushes): the
 * pushes are made at the release, on its path (each the producer's
 * downgrade, a block sent, the consumer's install, a right taken away
 * again at the producer's next write), while the read misses they spare
 * are spread over the consumer's work.  A buffer of a few dozen blocks
 * gains (bench/bench_adapt's 16: misses per block and pass 2 -> 1); apps/fft
 * pushes about 2300 a barrier on 2 nodes and ran 1.21-1.33x the plain
 * protocol's time with them, 0.95x without (doc/protocol.md, "The adaptive
 * protocol").  As many as a group's bulk fetch sends at most. */
#define ADAPT_PUSH_MAX 64u

void dsm_rt_epoch_end(dsm_rt *rt, int unlock)
{
    if (!rt->cfg.adapt || !rt->cfg.patterns)
        return;
    pthread_mutex_lock(&rt->eng_lock);
    if (proto_epoch_pending(rt->eng)) {
        int kinds = PROTO_EPOCH_PUSH | (unlock ? PROTO_EPOCH_FLUSH : 0);
        if (proto_epoch_pending_of(rt->eng, PROTO_EPOCH_PUSH) > ADAPT_PUSH_MAX)
            kinds &= ~PROTO_EPOCH_PUSH;
        rt->acts.n = 0;
        if (proto_epoch_end(rt->eng, kinds, &rt->acts))
            dsm_fatal("protocol", "%s", proto_last_error(rt->eng));
        run_actions(rt, NULL, NULL, 0);
    }
    pthread_mutex_unlock(&rt->eng_lock);
}

void dsm_rt_release_mine(dsm_rt *rt)
{
    /* a hold of this thread was added by this thread, so it is seen here;
     * without one neither the lock nor the signal mask is needed */
    if (!holds_pending(rt))
        return;
    int slot = dsm_rt_thread_slot(rt);
    dsm_rt_enter();
    pthread_mutex_lock(&rt->eng_lock);
    if (rt->nholds)
        release_holds(rt, slot, 0);
    pthread_mutex_unlock(&rt->eng_lock);
    dsm_rt_leave();
}

/* ---- misses that a handler of the program interrupted ----
 *
 * A miss sleeps in dsm_rt_wait with the program's signals open, and its
 * grant is held (SH, MH) from its arrival until the access retried; the
 * hold is recorded (add_hold, where release_holds and the expiry find it)
 * only once the wait returns.  A handler that interrupted the sleep runs
 * before that: if it misses in turn on a block the other node holds the
 * same way (its own handler interrupted its own miss), each node's
 * handler waits for a recall the other defers, for ever.  So the blocks
 * of this thread's misses in progress are kept here, outermost first, and
 * a miss made over them (necessarily from a handler: the runtime never
 * nests a miss) gives up their held grants, on entry and at every look
 * while it waits: the interrupted access re-faults after the handler,
 * which a hold only spares it.  Thread-local, written only by the thread
 * itself and read by its handlers: a signal fence orders them. */
#define MISS_NEST 16
static __thread uint32_t miss_block[MISS_NEST];
static __thread int miss_depth; /* misses of this thread in progress */

/* Called with eng_lock held: the held grants of the misses below this one
 * (levels [0, depth - 1)), except the block this miss wants itself (its
 * grant serves both accesses; the handler's hold spares it as usual). */
static void release_interrupted(dsm_rt *rt, int depth, uint32_t own)
{
    for (int i = 0; i < depth - 1 && i < MISS_NEST; i++) {
        uint32_t b = miss_block[i];
        if (b != own && proto_cache_held(proto_cache_state_of(rt->eng, b)))
            release_block(rt, b);
    }
}

/* block_settled for a miss made from a handler over another miss */
static int nested_settled(dsm_rt *rt, void *arg)
{
    uint32_t block = *(uint32_t *)arg;
    pthread_mutex_lock(&rt->eng_lock);
    release_interrupted(rt, miss_depth, block);
    proto_cache_state st = proto_cache_state_of(rt->eng, block);
    pthread_mutex_unlock(&rt->eng_lock);
    return proto_cache_settled(st);
}

/* The miss a fault is, from the block's state before the engine sees it
 * (doc/metrics.md): the states in which the access sends a request.  -1: no
 * miss (a spurious fault, or a join of a request in flight). */
static int miss_kind(dsm_rt *rt, uint32_t block, int is_write)
{
    proto_cache_state st = proto_cache_state_of(rt->eng, block);
    int home = proto_home(rt->eng, block) == rt->self;
    if (st == PC_I && !is_write)
        return home ? CM_HOME_READ_MISSES : CM_STACHE_READ_MISSES;
    if (st == PC_I)
        return home ? CM_HOME_WRITE_INV : CM_STACHE_WRITE_INV;
    if (st == PC_S && is_write)
        return home ? CM_HOME_WRITE_RO : CM_STACHE_WRITE_RO;
    return -1;
}

void dsm_rt_access(dsm_rt *rt, uint32_t block, int is_write)
{
    uint64_t t0 = rt->ctr ? dsm_ticks() : 0; /* fault entry */
    int slot = dsm_rt_thread_slot(rt);
    /* The engine lock checks its owner: this thread holding it already
     * means a handler of a signal the runtime does not block interrupted
     * the runtime and faulted; waiting would never end. */
    if (pthread_mutex_lock(&rt->eng_lock) == EDEADLK)
        dsm_fatal(is_write ? "write" : "read", "fault on %p inside a signal handler while the "
                  "runtime was busy on this thread",
                  (void *)(rt->region.app + ((size_t)block << rt->region.block_shift)));
    DSM_MT(MT_ACCESS, block, (uint32_t)is_write);
    if (rt->nholds)
        release_holds(rt, slot, 0);
    int level = miss_depth;
    if (level < MISS_NEST)
        miss_block[level] = block;
    atomic_signal_fence(memory_order_seq_cst); /* the block before the depth, for a handler */
    miss_depth = level + 1;
    if (level)
        release_interrupted(rt, level + 1, block);
    rt->acts.n = 0;
    int kind = -1, waits = 0;
    if (rt->ctr) {
        kind = miss_kind(rt, block, is_write);
        dsm_stats_call_begin(rt, block);
    } else if (rt->prof) {
        kind = miss_kind(rt, block, is_write); /* for the profile's read evidence */
    }
    int rc = proto_access(rt->eng, block, is_write, &rt->acts);
    if (rc) {
        if (rc == PROTO_EINVAL)
            dsm_fatal(is_write ? "write" : "read", "address %p is not in any shared allocation",
                      (void *)(rt->region.app + ((size_t)block << rt->region.block_shift)));
        dsm_fatal("protocol", "%s", proto_last_error(rt->eng));
    }
    run_actions(rt, NULL, NULL, 0);
    if (rt->ctr) {
        waits = !proto_cache_settled(proto_cache_state_of(rt->eng, block));
        dsm_stats_call_end(rt, t0);
    }
    pthread_mutex_unlock(&rt->eng_lock);
    DSM_MT(MT_WAIT_IN, block, 0);
    dsm_rt_wait(rt, level ? nested_settled : block_settled, &block);
    DSM_MT(MT_WAIT_OUT, block, 0);
    pthread_mutex_lock(&rt->eng_lock);
    proto_cache_state st = proto_cache_state_of(rt->eng, block);
    if (proto_cache_held(st)) {
        add_hold(rt, block, slot);
        kick_progress(rt);
    }
    /* masked again (or no handler exists): no handler comes before the
     * access retries, and the hold is recorded */
    miss_depth = level;
    if (rt->ctr) {
        /* the access can resume now.  A miss counts only as its kind here:
         * pageFaults, pageFaultWall and memoryBlockTime get the misses'
         * counts and times added when the counters are gathered (stats.c),
         * so the fault path pays two updates, not five. */
        uint64_t wall = dsm_ticks() - t0;
        if (kind >= 0) {
            counters_add(rt->ctr, kind, block, 1);
            counters_add(rt->ctr, kind + 1, block, wall); /* its *Wall follows it */
            if (rt->prof)
                dsm_prof_miss(rt, block, kind, wall);
        } else {
            counters_add(rt->ctr, CM_PAGE_FAULTS, block, 1);
            counters_add(rt->ctr, CM_PAGE_FAULT_WALL, block, wall);
            if (waits)
                counters_add(rt->ctr, CM_MEMORY_BLOCK_TIME, block, wall);
        }
        if (rt->prof && (kind >= 0 || waits))
            dsm_prof_slice(rt, t0 + wall, kind >= 0, wall);
    } else if (rt->prof && kind >= 0) {
        dsm_prof_read(rt, block); /* counts stay zero; what a miss read still judges sharing */
    }
    pthread_mutex_unlock(&rt->eng_lock);
}

/* ---- incoming messages ---- */

static void handle_msg(void *ctx, const dsm_msg_hdr *h, const void *payload)
{
    dsm_rt *rt = ctx;
    /* everything below may trust the header: types, sizes, blocks, lock
     * ids, slots and offsets are in range (msg.c) */
    dsm_msg_limits lim = { rt->self, rt->nnodes, rt->region.nblocks,
                           (uint32_t)rt->region.block_size, rt->cfg.locks, rt->region.size,
                           rt->cfg.adapt && rt->cfg.patterns };
    char why[160];
    if (dsm_msg_validate(h, &lim, why, sizeof why))
        dsm_fatal("transport", "malformed message from node %d: %s", h->src, why);
    if (h->type > 0 && h->type < PM_NTYPES) {
        proto_msg m = { (uint8_t)h->type, h->src, h->dst, h->block,
                        (uint8_t)(h->flags & (PROTO_MSG_READS | PROTO_MSG_PUSH |
                                              PROTO_MSG_FLUSH)), 0 };
        /* the adaptive protocol: a recalled copy equal to the home's (the
         * data it granted) was not written; the engine never sees data */
        if (rt->cfg.adapt && (h->type == PM_WB_DATA || h->type == PM_FLUSH) &&
            h->len == rt->region.block_size &&
            !memcmp(payload, rt->region.proto + ((size_t)h->block << rt->region.block_shift),
                    h->len))
            m.flags |= PROTO_MSG_CLEAN;
        uint64_t t0 = rt->ctr ? dsm_ticks() : 0;
        DSM_MT(MT_RECV, h->block, h->type);
        pthread_mutex_lock(&rt->eng_lock);
        DSM_MT(MT_LOCKED, h->block, h->type);
        rt->acts.n = 0;
        if (rt->ctr)
            dsm_stats_call_begin(rt, h->block);
        int rc = proto_receive(rt->eng, &m, &rt->acts);
        if (rc)
            dsm_fatal("protocol", "%s", proto_last_error(rt->eng));
        run_actions(rt, h, payload, h->len);
        if (rt->ctr) {
            dsm_stats_call_end(rt, t0);
            counters_add(rt->ctr, CM_RECV_MSGS, h->block, 1); /* activeMessages too, at gathering */
            counters_add(rt->ctr, CM_ACTIVE_MESSAGE_WALL, h->block, dsm_ticks() - t0);
        }
        pthread_mutex_unlock(&rt->eng_lock);
        DSM_MT(MT_HANDLED, h->block, h->type);
        return;
    }
    /* runtime messages; the statistics' own are not counted (they are sent
     * after the counters were gathered) */
    if (rt->ctr && h->src != rt->self && dsm_msg_rt_counted(h->type))
        dsm_stats_node_add(&rt->stats, CM_RT_RECV_MSGS, 1);
    switch (h->type) {
    case RT_COLL_ENTER:
    case RT_COLL_DONE:
    case RT_LOCK_REQ:
    case RT_LOCK_GRANT:
    case RT_UNLOCK:
    case RT_SYNC_REQ:
    case RT_SYNC_WAKE:
        dsm_sync_handle(rt, h);
        break;
    case RT_FREE:
        dsm_alloc_handle(rt, h);
        break;
    case RT_PING: {
        dsm_msg_hdr r = { 0 };
        r.type = RT_PONG;
        dsm_rt_send(rt, h->src, &r);
        break;
    }
    case RT_PONG:
        atomic_fetch_add(&rt->pongs, 1);
        dsm_rt_signal(rt);
        break;
    case RT_STATS_CTR:
    case RT_STATS_PAT:
    case RT_STATS_END:
    case RT_PROF_DATA:
        dsm_stats_handle(rt, h, payload);
        break;
    case RT_TASK_BEGIN:
    case RT_TASK_IMAGE:
    case RT_TASK_GO:
    case RT_TASK_END:
    case RT_TASK_FINISH:
        dsm_tasks_handle(rt, h, payload);
        break;
    case RT_STDIN_DATA:
    case RT_STDIN_END:
        dsm_stdin_handle(rt, h, payload);
        break;
    default:
        dsm_fatal("transport", "unknown message type %u from node %d", h->type, h->src);
    }
}

void dsm_rt_send_data(dsm_rt *rt, int dst, dsm_msg_hdr *h, const void *payload, uint32_t len)
{
    h->magic = DSM_MSG_MAGIC;
    h->src = rt->self;
    h->dst = dst;
    h->len = len;
    if (rt->ctr && dsm_msg_rt_counted(h->type)) {
        if (dst == rt->self) {
            dsm_stats_node_add(&rt->stats, CM_RT_SELF_MSGS, 1);
        } else {
            dsm_stats_node_add(&rt->stats, CM_RT_SENT_MSGS, 1);
            dsm_stats_node_add(&rt->stats, CM_RT_MSG_BYTES, sizeof *h + len);
        }
    }
    dsm_rt_enter();
    if (dst == rt->self)
        handle_msg(rt, h, payload);
    else if (rt->tp->send(rt->tp, dst, h, len ? payload : NULL))
        dsm_fatal("transport", "cannot send a message to node %d", dst);
    dsm_rt_leave();
}

void dsm_rt_send(dsm_rt *rt, int dst, dsm_msg_hdr *h) { dsm_rt_send_data(rt, dst, h, NULL, 0); }

static int poll_once(dsm_rt *rt)
{
    if (!rt->tp)
        return 0;
    int n = rt->tp->poll(rt->tp, handle_msg, rt, 64);
    /* the read copies of a bulk fetch it delivered get their access now,
     * in one call (protect.h) */
    if (n && __atomic_load_n(&rt->pend_n, __ATOMIC_RELAXED)) {
        pthread_mutex_lock(&rt->eng_lock);
        dsm_protect_flush(rt);
        pthread_mutex_unlock(&rt->eng_lock);
    }
    if (rt->ctr) {
        /* Counted per thread and added to the node's atomics when a poll
         * delivers or every 256 polls: spinning threads of a node must not
         * bounce one cache line between cores (doc/metrics.md: Polls). */
        static __thread uint32_t polls;
        if (++polls >= 256 || n) {
            dsm_stats_node_add(&rt->stats, CM_POLLS, polls);
            polls = 0;
            if (n)
                dsm_stats_node_add(&rt->stats, CM_POLL_MSGS, (uint64_t)n);
        }
    }
    return n;
}

static void release_expired(dsm_rt *rt)
{
    if (!holds_pending(rt))
        return;
    pthread_mutex_lock(&rt->eng_lock);
    release_holds(rt, -1, 0);
    pthread_mutex_unlock(&rt->eng_lock);
}

/* Where the transport's wait ends when a message comes (transport.h,
 * DSM_TP_WAIT_ON_MESSAGES), a thread that stopped spinning sleeps there and
 * handles the reply it waits for itself: otherwise the progress thread
 * receives it and then wakes this thread, two wake-ups in a row per miss
 * (each 10 us or more on a 2-core VM).  What another thread handles ends
 * the wait too (dsm_rt_signal wakes the transport's waiters).  The
 * program's signals stay blocked in the transport (it takes locks there):
 * pending ones run between waits, at the latest every TP_WAIT_MS.  Not
 * where the transport wants one caller at a time (single_caller: MPI with
 * peers on other hosts): there a second thread in MPI's progress costs
 * each send more than the wake-up saves (doc/cluster.md, "One caller"). */
#define TP_WAIT_MS 10
static void wait_in_transport(dsm_rt *rt, int (*done)(dsm_rt *rt, void *arg), void *arg)
{
    int outer = tp_waiting; /* a signal handler's access may nest a wait */
    tp_waiting = 1;
    atomic_fetch_add(&rt->tp_waiters, 1);
    for (;;) {
        poll_once(rt);
        if (done(rt, arg))
            break;
        uint64_t t0 = dsm_now_ns();
        rt->tp->wait(rt->tp, TP_WAIT_MS);
        if (dsm_now_ns() - t0 >= TP_WAIT_MS * 1000000ULL) {
            sig_park(1);
            sig_park(0);
        }
    }
    atomic_fetch_sub(&rt->tp_waiters, 1);
    tp_waiting = outer;
}

/* The spin of a wait: this thread polls the network itself for up to
 * spin_ns (the progress thread then stays out of the way, see
 * progress_main, so a node waiting costs one busy core, not two).  1 once
 * done() holds, which is looked at when something happened (a delivery, or
 * the events counter *seen moved: done() may take the engine lock), and
 * with `always` at every turn too (a word in the job's memory moves
 * without an event here). */
static int spin_polling(dsm_rt *rt, int (*done)(dsm_rt *rt, void *arg), void *arg, int always,
                        uint64_t spin_ns, uint32_t *seen)
{
    uint64_t start = 0;
    int ok = 0;
    app_polling(rt, 1);
    for (unsigned iter = 0;;) {
        int moved = poll_once(rt) || atomic_load(&rt->events) != *seen;
        if (moved || always) {
            *seen = atomic_load(&rt->events);
            if (done(rt, arg)) {
                ok = 1;
                break;
            }
            if (moved)
                continue;
        }
        if (iter++ == 0)
            start = dsm_now_ns();
        if (dsm_now_ns() - start >= spin_ns)
            break;
        dsm_cpu_relax();
        if ((iter & 15) == 0) {
            release_expired(rt); /* the progress thread is not spinning now */
            sched_yield(); /* let another node's thread run on a crowded machine */
        }
    }
    app_polling(rt, 0);
    return ok;
}

void dsm_rt_wait(dsm_rt *rt, int (*done)(dsm_rt *rt, void *arg), void *arg)
{
    uint64_t spin_ns = atomic_load_explicit(&rt->spin_ns, memory_order_relaxed);
    uint32_t seen = atomic_load(&rt->events);
    /* done() runs before the mask: the one that takes the engine lock
     * (block_settled) is called from the fault handler, masked already */
    if (done(rt, arg))
        return;
    uint64_t wait_start = rt->spin_cap_ns ? dsm_now_ns() : 0;
    dsm_rt_enter();
    while (!spin_polling(rt, done, arg, 0, spin_ns, &seen)) {
        /* Block.  The progress thread serves the network from now on;
         * the program's signal handlers may run meanwhile (node.h). */
        DSM_MT(MT_SLEEP, UINT32_MAX, 0);
        if (rt->tp && (rt->tp->ops->caps & DSM_TP_WAIT_ON_MESSAGES) && !rt->tp->single_caller) {
            wait_in_transport(rt, done, arg);
            DSM_MT(MT_WOKE, UINT32_MAX, 1);
            break;
        }
        atomic_fetch_add(&rt->sleepers, 1);
        if (atomic_load(&rt->events) == seen && !done(rt, arg)) {
            sig_park(1);
            dsm_futex_wait(&rt->events, seen, 200, 0);
            sig_park(0);
        }
        atomic_fetch_sub(&rt->sleepers, 1);
        DSM_MT(MT_WOKE, UINT32_MAX, 0);
        seen = atomic_load(&rt->events);
        if (done(rt, arg))
            break;
    }
    if (wait_start)
        spin_learn(rt, dsm_now_ns() - wait_start);
    dsm_rt_leave();
}

struct word_wait {
    _Atomic uint32_t *word;
    uint32_t seen;
};

static int word_moved(dsm_rt *rt, void *arg)
{
    (void)rt;
    const struct word_wait *w = arg;
    return atomic_load(w->word) != w->seen;
}

void dsm_rt_wait_word(void *rt_, _Atomic uint32_t *word, _Atomic uint32_t *sleepers,
                      uint32_t seen, uint32_t bits)
{
    dsm_rt *rt = rt_;
    struct word_wait w = { word, seen };
    if (word_moved(rt, &w))
        return;
    uint64_t spin_ns = atomic_load_explicit(&rt->spin_ns, memory_order_relaxed);
    /* its length teaches the spin policy, as dsm_rt_wait's do */
    uint64_t wait_start = rt->spin_cap_ns ? dsm_now_ns() : 0;
    uint32_t events = atomic_load(&rt->events);
    dsm_rt_enter();
    /* spinning, this thread serves a request that comes meanwhile (the
     * recall of a block the other node's writer needs before it arrives
     * here), not a progress thread to wake */
    if (!spin_polling(rt, word_moved, &w, 1, spin_ns, &events)) {
        atomic_fetch_add(sleepers, 1);
        while (!word_moved(rt, &w)) {
            sig_park(1);
            dsm_futex_wait_bits(word, seen, DSM_JOBSYNC_SLEEP_MS, bits);
            sig_park(0);
        }
        atomic_fetch_sub(sleepers, 1);
    }
    if (wait_start)
        spin_learn(rt, dsm_now_ns() - wait_start);
    dsm_rt_leave();
}

static int pongs_reached(dsm_rt *rt, void *arg)
{
    return atomic_load(&rt->pongs) >= *(uint64_t *)arg;
}

double dsm_rt_probe_roundtrip(dsm_rt *rt, int peer, int count)
{
    uint64_t t0 = dsm_now_ns();
    dsm_rt_enter(); /* once, not per message */
    for (int i = 0; i < count; i++) {
        uint64_t want = atomic_load(&rt->pongs) + 1;
        dsm_msg_hdr h = { 0 };
        h.type = RT_PING;
        dsm_rt_send(rt, peer, &h);
        dsm_rt_wait(rt, pongs_reached, &want);
    }
    dsm_rt_leave();
    return (double)(dsm_now_ns() - t0) / 1e3 / count;
}

/* ---- progress thread ---- */

static void *progress_main(void *arg)
{
    dsm_rt *rt = arg;
    in_progress_thread = 1;
#ifdef DSM_MISS_TRACE
    dsm_mt_progress_thread();
#endif
    sig_runtime_thread = 1; /* created with the program's signals blocked */
    dsm_progress_place place;
    dsm_progress_place_init(&place, rt->cfg.progress_move, dsm_now_ns());
    while (!atomic_load(&rt->stopping)) {
        uint64_t spin_ns = atomic_load_explicit(&rt->spin_ns, memory_order_relaxed);
        release_expired(rt);
        if (place.fd >= 0 && dsm_progress_place_check(&place, dsm_now_ns()))
            fprintf(stderr,
                    "dsm: node %d: its progress thread waited %.2f ms a turn to run on the "
                    "node's cores (the program's threads keep them busy): it runs on any "
                    "core from now (DSM_PROGRESS_MOVE)\n",
                    rt->self, (double)place.moved_delay_ns / 1e6);
        if (poll_once(rt))
            continue;
        /* Spin while polling; while grants are held keep going (holds last
         * DSM_HOLD_US at most) so a deferred INV or RECALL is answered as
         * soon as its hold expires, not after a sleep. */
        uint64_t start = dsm_now_ns();
        int got = 0;
        unsigned iter = 0;
        /* the one caller (transport.h, single_caller): the others keep out;
         * said only when this thread will spin (not while an application
         * thread polls: in a job with peers on this host too, saying it
         * costs the bell's bookkeeping and an MPI test) */
        int say = rt->tp->single_caller && rt->tp->polling && spin_ns &&
                  !atomic_load(&rt->app_spinners);
        if (say)
            rt->tp->polling(rt->tp, 1);
        while ((dsm_now_ns() - start < spin_ns || holds_pending(rt)) &&
               !atomic_load(&rt->stopping) && !atomic_load(&rt->app_spinners)) {
            if ((got = poll_once(rt)))
                break;
            dsm_cpu_relax();
            if ((++iter & 15) == 0) {
                release_expired(rt);
                sched_yield(); /* let another node's thread run on a crowded machine */
            }
        }
        if (say)
            rt->tp->polling(rt->tp, 0);
        if (got || atomic_load(&rt->stopping))
            continue;
        /* Idle: the profile's deferred diffs now (off the reply paths). */
        if (rt->prof && dsm_prof_pending(rt)) {
            pthread_mutex_lock(&rt->eng_lock);
            dsm_prof_flush_pending(rt, 32);
            pthread_mutex_unlock(&rt->eng_lock);
            continue;
        }
        /* While an application thread polls, senders do not wake us; it
         * does when it stops, if messages wait (transport.h, polling). */
        DSM_MT(MT_SLEEP, UINT32_MAX, 0);
        rt->tp->wait(rt->tp, holds_pending(rt) ? 1 : 500);
        DSM_MT(MT_WOKE, UINT32_MAX, 0);
    }
    dsm_progress_place_close(&place);
    return NULL;
}

int dsm_rt_start(dsm_rt *rt)
{
    /* error-checking: re-entry by its owner is reported (dsm_rt_access) */
    pthread_mutexattr_t ma;
    pthread_mutexattr_init(&ma);
    pthread_mutexattr_settype(&ma, PTHREAD_MUTEX_ERRORCHECK);
    pthread_mutex_init(&rt->eng_lock, &ma);
    pthread_mutexattr_destroy(&ma);
    pthread_mutex_init(&rt->coll_lock, NULL);
    pthread_mutex_init(&rt->lock_lock, NULL);
    pthread_mutex_init(&rt->alloc_lock, NULL);
    if (rt->cfg.spin_us == DSM_SET_AUTO_VALUE)
        rt->downgrade_ns = probe_downgrade_ns();
    dsm_rt_spin_policy(rt, dsm_rt_host_nodes(rt), dsm_rt_cores());
    dsm_sig_gate_init(rt->cfg.sigmask_always);
    proto_actions_init(&rt->acts);
    /* room for the largest fan-out (an INV per node) so the fault path never grows it */
    rt->acts.cap = (size_t)rt->nnodes + 16;
    rt->acts.v = calloc(rt->acts.cap, sizeof *rt->acts.v);
    proto_config pc = { .self = rt->self, .nnodes = rt->nnodes, .nblocks = rt->region.nblocks,
                        .adapt = rt->cfg.adapt && rt->cfg.patterns,
                        .prefetch = rt->cfg.prefetch };
    rt->eng = proto_engine_create(&pc);
    if (rt->eng)
        proto_set_augment(rt->eng, rt->cfg.patterns);
    if (!rt->eng || !rt->acts.v) {
        fprintf(stderr, "dsm: node %d: dsm_init: out of memory for the protocol engine\n",
                rt->self);
        return -1;
    }
    if (dsm_alloc_init(rt) || dsm_sync_init(rt) || dsm_stats_init(rt))
        return -1;
    if (rt->tp) {
        /* the progress thread inherits a mask blocking every signal: a
         * handler of the program run there could interrupt it inside the
         * engine lock and fault on shared memory */
        sigset_t all, old;
        sigfillset(&all);
        pthread_sigmask(SIG_BLOCK, &all, &old);
        int err = pthread_create(&rt->progress, NULL, progress_main, rt);
        pthread_sigmask(SIG_SETMASK, &old, NULL);
        if (err) {
            fprintf(stderr, "dsm: node %d: dsm_init: cannot start the progress thread\n",
                    rt->self);
            return -1;
        }
        rt->progress_started = 1;
    }
    return 0;
}

/* After dsm_finalize no store may succeed unnoticed: the writable blocks
 * become read-only, so every store faults and fault.c names the cause.
 * Loads of what the node holds still work.  Only the blocks ever made
 * writable are looked at (region.h writable_lo/hi): a 64-byte block size
 * gives a 1 GiB region 16M blocks, and walking them all cost more than
 * some whole runs. */
static void forbid_stores(dsm_rt *rt)
{
    dsm_region *r = &rt->region;
    uint32_t lo = r->writable_lo, hi = r->writable_hi;
    if (r->state) {
        /* block mode: the checks see the byte, sub-page blocks too; a byte
         * is WRITE exactly when the block is writable (a grant in M, or a
         * one-node job's local grant, access.c) */
        for (uint32_t b = lo; b < hi; b++)
            if (atomic_load_explicit((_Atomic uint8_t *)&r->state[b], memory_order_relaxed) ==
                DSM_BLK_WRITE)
                atomic_store((_Atomic uint8_t *)&r->state[b], DSM_BLK_READ);
        return;
    }
    uint32_t first = 0, n = 0;
    size_t bs = r->block_size;
    for (uint32_t b = lo; b <= hi && hi; b++) {
        proto_cache_state st = b < hi ? proto_cache_state_of(rt->eng, b) : PC_I;
        if (st == PC_M || st == PC_MH) {
            if (!n++)
                first = b;
            continue;
        }
        /* best effort: if it fails, such stores go unnoticed, as before */
        if (n) {
            (void)mprotect(r->app + (size_t)first * bs, (size_t)n * bs, PROT_READ);
            (void)dsm_region_window_protect(r, first, n, PROT_READ);
        }
        n = 0;
    }
}

void dsm_rt_stop(dsm_rt *rt)
{
    atomic_store(&rt->stopping, 1);
    if (rt->progress_started) {
        rt->tp->wake(rt->tp);
        pthread_join(rt->progress, NULL);
        rt->progress_started = 0;
    }
    pthread_mutex_lock(&rt->eng_lock);
    forbid_stores(rt);
    dsm_park_free(&rt->park);
    pthread_mutex_unlock(&rt->eng_lock);
}
