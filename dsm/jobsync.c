/* jobsync.c - the collectives, atomic counters, locks and barriers in the
 * job's shared memory (jobsync.h says why).  Layout of the area:
 *
 *   0          the collective's words: arrivals, the generation waiters
 *              sleep on, how many sleep (each on a cache line of its own)
 *   CALLS      one cache line per node: its current collective call
 *   COUNTERS   the atomic counters: (id + 1, value) (32768)
 *   LOCKS      the locks: a ticket lock per id, and its holder (4096)
 *   BARRIERS   dsm_barrier_n's: count, arrivals and a generation per id
 *              (2048)
 *
 * The three tables are open-addressed by id, a slot claimed by a
 * compare-and-swap of its key (id + 1) and never freed.
 *
 * Everything starts as zeros (a fresh segment), which is the empty state. */
#include "jobsync.h"

#include <sched.h>
#include <stdlib.h>

#include "futex.h"
#include "transport/transport.h"

#define LINE 64
#define CALLS_OFFSET 4096u
#define COUNTERS_OFFSET (128u * 1024u)
#define NCOUNTERS_LOG2 15
#define NCOUNTERS (1u << NCOUNTERS_LOG2)
#define LOCKS_OFFSET (640u * 1024u)
#define NLOCKS_LOG2 12
#define BARRIERS_OFFSET (768u * 1024u)
#define NBARRIERS_LOG2 11
/* slots looked at for one id: a window full of other ids sends it to its
 * manager for good, the same on every node */
#define PROBES 64u

typedef struct coll_words {
    _Alignas(LINE) _Atomic uint32_t arrived;
    _Alignas(LINE) _Atomic uint32_t gen;
    _Atomic uint32_t sleepers;
} coll_words;

typedef struct call_entry {
    _Alignas(LINE) _Atomic uint64_t seq;
    _Atomic uint64_t kind, arg;
} call_entry;

typedef struct counter_slot {
    _Atomic uint32_t key; /* id + 1; 0: free */
    uint32_t pad;
    _Atomic uint64_t value;
} counter_slot;

_Static_assert(sizeof(coll_words) <= CALLS_OFFSET, "collective words overlap the calls");
_Static_assert(COUNTERS_OFFSET + (uint64_t)NCOUNTERS * sizeof(counter_slot) <= LOCKS_OFFSET,
               "the counters overlap the locks");
_Static_assert(LOCKS_OFFSET + ((uint64_t)32 << NLOCKS_LOG2) <= BARRIERS_OFFSET,
               "the locks overlap the barriers");
_Static_assert(BARRIERS_OFFSET + ((uint64_t)LINE << NBARRIERS_LOG2) <= DSM_JOB_AREA_BYTES,
               "the barriers do not fit the job area");

struct dsm_jobsync {
    unsigned char *area;
    int self, nnodes;
    coll_words *coll;
    call_entry *calls;
    counter_slot *counters;
};

dsm_jobsync *dsm_jobsync_open(void *area, int self, int nnodes)
{
    if (!area || nnodes < 1 || self < 0 || self >= nnodes ||
        CALLS_OFFSET + (uint64_t)nnodes * sizeof(call_entry) > COUNTERS_OFFSET)
        return NULL;
    dsm_jobsync *js = calloc(1, sizeof *js);
    if (!js)
        return NULL;
    js->area = area;
    js->self = self;
    js->nnodes = nnodes;
    js->coll = (coll_words *)js->area;
    js->calls = (call_entry *)(js->area + CALLS_OFFSET);
    js->counters = (counter_slot *)(js->area + COUNTERS_OFFSET);
    return js;
}

void dsm_jobsync_close(dsm_jobsync *js) { free(js); }

uint32_t dsm_jobsync_arrive(dsm_jobsync *js, uint64_t seq, int kind, uint64_t arg, int *last)
{
    call_entry *me = &js->calls[js->self];
    atomic_store_explicit(&me->seq, seq, memory_order_relaxed);
    atomic_store_explicit(&me->kind, (uint64_t)kind, memory_order_relaxed);
    atomic_store_explicit(&me->arg, arg, memory_order_relaxed);
    /* read before arriving: the release of this round cannot come earlier */
    uint32_t gen = atomic_load(&js->coll->gen);
    /* the arrivals are one chain of read-modify-writes: the last one sees
     * every node's call */
    *last = atomic_fetch_add(&js->coll->arrived, 1) + 1 == (uint32_t)js->nnodes;
    return gen;
}

int dsm_jobsync_mismatch(dsm_jobsync *js, uint64_t out[6])
{
    const call_entry *c0 = &js->calls[0];
    uint64_t s0 = atomic_load_explicit(&c0->seq, memory_order_relaxed);
    uint64_t k0 = atomic_load_explicit(&c0->kind, memory_order_relaxed);
    uint64_t a0 = atomic_load_explicit(&c0->arg, memory_order_relaxed);
    for (int n = 1; n < js->nnodes; n++) {
        const call_entry *c = &js->calls[n];
        uint64_t s = atomic_load_explicit(&c->seq, memory_order_relaxed);
        uint64_t k = atomic_load_explicit(&c->kind, memory_order_relaxed);
        uint64_t a = atomic_load_explicit(&c->arg, memory_order_relaxed);
        if (s != s0 || k != k0 || a != a0) {
            out[0] = s, out[1] = k, out[2] = a;
            out[3] = s0, out[4] = k0, out[5] = a0;
            return n;
        }
    }
    return -1;
}

void dsm_jobsync_release(dsm_jobsync *js)
{
    /* nobody arrives at the next round before the generation moves */
    atomic_store(&js->coll->arrived, 0);
    atomic_fetch_add(&js->coll->gen, 1);
    /* a sleeper counted itself before its last look at gen (seq_cst both
     * sides): either it sees the new generation or it is counted here */
    if (atomic_load(&js->coll->sleepers))
        dsm_futex_wake(&js->coll->gen, 1);
}

int dsm_jobsync_released(dsm_jobsync *js, uint32_t gen)
{
    return atomic_load(&js->coll->gen) != gen;
}

/* dsm_jobsync_waiter without a runtime: ctx points at the spin's
 * nanoseconds (a uint64_t); spin, yielding now and then, then sleep. */
void dsm_jobsync_wait_plain(void *spin_ns, _Atomic uint32_t *word, _Atomic uint32_t *sleepers,
                            uint32_t seen, uint32_t bits)
{
    uint64_t spin = spin_ns ? *(uint64_t *)spin_ns : 0;
    if (spin) {
        uint64_t start = dsm_now_ns();
        for (unsigned i = 1; atomic_load(word) == seen && dsm_now_ns() - start < spin; i++) {
            dsm_cpu_relax();
            if ((i & 15) == 0)
                sched_yield(); /* another node's thread may need this core */
        }
    }
    if (atomic_load(word) != seen)
        return;
    atomic_fetch_add(sleepers, 1);
    while (atomic_load(word) == seen)
        dsm_futex_wait_bits(word, seen, DSM_JOBSYNC_SLEEP_MS, bits);
    atomic_fetch_sub(sleepers, 1);
}

void dsm_jobsync_wait(dsm_jobsync *js, uint32_t gen, dsm_jobsync_waiter wait, void *ctx)
{
    wait(ctx, &js->coll->gen, &js->coll->sleepers, gen, DSM_JOBSYNC_ANY);
}

/* The slot of id in a table of n (a power of two) slots of stride bytes,
 * each starting with its key (id + 1, 0: free); claimed on first use.
 * NULL when the id's window is full of other ids. */
static void *slot_of(unsigned char *table, size_t stride, unsigned log2n, uint32_t id)
{
    if (id == UINT32_MAX)
        return NULL;
    uint32_t key = id + 1, mask = (1u << log2n) - 1;
    uint32_t h = (uint32_t)(key * 0x9E3779B1u) >> (32 - log2n);
    for (uint32_t i = 0; i < PROBES; i++) {
        unsigned char *s = table + (size_t)((h + i) & mask) * stride;
        _Atomic uint32_t *kp = (_Atomic uint32_t *)s;
        uint32_t k = atomic_load_explicit(kp, memory_order_acquire);
        if (k == 0) {
            uint32_t free_key = 0;
            if (atomic_compare_exchange_strong(kp, &free_key, key))
                return s;
            k = free_key; /* another node claimed it first: for this id? */
        }
        if (k == key)
            return s;
    }
    return NULL;
}

_Atomic uint64_t *dsm_jobsync_counter(dsm_jobsync *js, uint32_t id)
{
    counter_slot *s = slot_of((unsigned char *)js->counters, sizeof *s, NCOUNTERS_LOG2, id);
    return s ? &s->value : NULL;
}

/* ---- locks: a ticket lock per id, FIFO as the manager's queue ---- */

struct dsm_jobsync_lock {
    _Atomic uint32_t key;
    _Atomic uint32_t next;     /* the next ticket to hand out */
    _Atomic uint32_t serving;  /* the ticket that holds it; waiters sleep on it */
    _Atomic uint32_t sleepers;
    _Atomic int32_t holder;    /* node + 1; 0: free */
    uint32_t pad[3];
};
_Static_assert(sizeof(struct dsm_jobsync_lock) == 32, "lock slot size");

dsm_jobsync_lock *dsm_jobsync_lock_of(dsm_jobsync *js, uint32_t id)
{
    return slot_of(js->area + LOCKS_OFFSET, sizeof(dsm_jobsync_lock), NLOCKS_LOG2, id);
}

void dsm_jobsync_lock_acquire(dsm_jobsync *js, dsm_jobsync_lock *l, dsm_jobsync_waiter wait,
                              void *ctx)
{
    uint32_t ticket = atomic_fetch_add(&l->next, 1), now;
    /* woken only when the ticket served is ours (modulo 32): a release
     * wakes its next holder, not every waiter */
    while ((now = atomic_load(&l->serving)) != ticket)
        wait(ctx, &l->serving, &l->sleepers, now, 1u << (ticket & 31));
    atomic_store(&l->holder, js->self + 1);
}

int dsm_jobsync_lock_release(dsm_jobsync *js, dsm_jobsync_lock *l)
{
    int32_t holder = atomic_load(&l->holder);
    if (holder != js->self + 1)
        return holder - 1;
    atomic_store(&l->holder, 0);
    uint32_t next = atomic_fetch_add(&l->serving, 1) + 1;
    if (atomic_load(&l->sleepers))
        dsm_futex_wake_bits(&l->serving, 1u << (next & 31));
    return js->self;
}

/* ---- barriers of any count (dsm_barrier_n) ---- */

/* state: count << 32 | first arrival's node << 21 | arrivals */
#define ARRIVED_BITS 21
#define ARRIVED_MASK ((1u << ARRIVED_BITS) - 1)

typedef struct barrier_slot {
    _Atomic uint32_t key;
    _Atomic uint32_t gen;      /* rounds released; waiters sleep on it */
    _Atomic uint32_t sleepers;
    uint32_t pad;
    _Atomic uint64_t state;
    char line[LINE - 24];
} barrier_slot;
_Static_assert(sizeof(barrier_slot) == LINE, "barrier slot size");

int dsm_jobsync_barrier(dsm_jobsync *js, uint32_t id, uint32_t count, dsm_jobsync_waiter wait,
                        void *ctx, uint32_t other[2])
{
    barrier_slot *b = slot_of(js->area + BARRIERS_OFFSET, sizeof *b, NBARRIERS_LOG2, id);
    if (!b)
        return 1;
    if (count > ARRIVED_MASK || js->self > (int)((1u << (32 - ARRIVED_BITS)) - 1))
        return 2;
    uint64_t w = atomic_load(&b->state), nw;
    uint32_t gen;
    int last;
    do {
        /* read before the arrival is in: a release between the two fails
         * the exchange, which reads both again */
        gen = atomic_load(&b->gen);
        uint32_t arrived = (uint32_t)w & ARRIVED_MASK;
        if (arrived == 0) {
            nw = (uint64_t)count << 32 | (uint64_t)js->self << ARRIVED_BITS | 1;
        } else {
            if ((uint32_t)(w >> 32) != count) {
                other[0] = (uint32_t)(w >> ARRIVED_BITS) & ((1u << (32 - ARRIVED_BITS)) - 1);
                other[1] = (uint32_t)(w >> 32);
                return 3;
            }
            nw = w + 1;
        }
        last = arrived + 1 == count;
        if (last)
            nw = 0;
    } while (!atomic_compare_exchange_weak(&b->state, &w, nw));
    if (last) {
        atomic_fetch_add(&b->gen, 1);
        if (atomic_load(&b->sleepers))
            dsm_futex_wake(&b->gen, 1);
        return 0;
    }
    wait(ctx, &b->gen, &b->sleepers, gen, DSM_JOBSYNC_ANY);
    return 0;
}
