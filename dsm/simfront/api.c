/* api.c - the dsm.h calls when the program runs simulated: the simulation
 * backend (dsm_backend_sim, dsm/backend.h), chosen by dsm_init when
 * DSM_MACHINE is set; its init and finalize are in run.c.
 *
 * The API keeps its meaning with P processors in one process:
 *   dsm_alloc     collective by call order: processor p's k-th call returns
 *                 the k-th allocation, made by the first processor to get
 *                 there (same size required, as on the DSM); page aligned,
 *                 homes by the DSM's policy (DSM_HOMES=blocked: P
 *                 contiguous runs of pages; cyclic: page round robin), one
 *                 data bin named by `name` or by the allocation site
 *   dsm_malloc    from the caller's arena (upper half of the region, homed
 *                 at the caller), one bin per call; dsm_free only checks
 *                 the pointer (memory is not reused in a simulated run)
 *   dsm_barrier   every processor's clock becomes the latest arrival plus
 *                 SIM_BARRIER_CYCLES
 *   dsm_lock      FIFO; a free lock costs SIM_LOCK_CYCLES, a lock handed
 *                 over on dsm_unlock reaches the next waiter at the
 *                 releaser's clock plus SIM_LOCK_HANDOFF_CYCLES
 *   dsm_wtime     simulated seconds: the processor's clock at 1 GHz
 * Synchronisation is not itself simulated as memory references (the lock
 * and barrier words are not in the region): its costs are the constants
 * above, as in MemSpy's and Tango-lite's synchronisation models.
 * Misuse ends the run with one line naming the processor and the call. */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "dsm.h"
#include "sim/timing.h"
#include "idmap.h"
#include "simfront.h"
#include "syncid.h"

#define SIM_BARRIER_CYCLES 100
#define SIM_LOCK_CYCLES 20
#define SIM_LOCK_HANDOFF_CYCLES 50
#define SIM_HZ 1e9

typedef struct coll_alloc {
    uintptr_t addr;
    size_t size;
} coll_alloc;

typedef struct sim_lock {
    int holder;                 /* -1: free */
    int *queue;                 /* FIFO of waiting processors */
    int qhead, qlen, qcap;
} sim_lock;

static struct {
    int nprocs;
    uintptr_t base;
    size_t bytes;
    uint32_t page, line;
    int homes_cyclic;
    /* collective allocations */
    coll_alloc *allocs;
    int nallocs, capallocs;
    int *alloc_seq;             /* per processor: calls made */
    size_t coll_next, coll_end;
    /* per-processor dsm_malloc arenas */
    size_t arena_size;
    size_t *arena_next;
    /* page homes, for dsm_home_of */
    int16_t *page_home;
    /* locks */
    unsigned nlocks;
    sim_lock *locks;
    /* barrier and finalize gathering */
    int arrived;
    unsigned char *in_gather;   /* per processor: waits in the gathering */
    const char *gathering;      /* "dsm_barrier" / "dsm_finalize" while processors wait */
    sim_time latest;
} A;

static int me(void) { return dsm_sim_hot_state.cur; }

int dsm_sim_malloc_spread;

int dsm_sim_api_start(int nprocs, uintptr_t base, size_t bytes, unsigned locks, int homes_cyclic)
{
    const sim_params *sp = sim_get_params(dsm_sim_machine);
    A.nprocs = nprocs;
    A.base = base;
    A.bytes = bytes;
    A.page = sp->page_size ? sp->page_size : 4096;
    A.line = sp->line_size;
    A.homes_cyclic = homes_cyclic;
    size_t pages = bytes / A.page;
    size_t coll_pages = pages / 2;
    size_t arena_pages = (pages - coll_pages) / (size_t)nprocs;
    if (!coll_pages || !arena_pages) {
        fprintf(stderr, "dsm: dsm_init: DSM_REGION_SIZE (%zu bytes) is too small for %d simulated "
                        "processors with %u-byte pages\n",
                bytes, nprocs, A.page);
        return -1;
    }
    A.coll_next = 0;
    A.coll_end = coll_pages * A.page;
    A.arena_size = arena_pages * A.page;
    A.alloc_seq = calloc((size_t)nprocs, sizeof *A.alloc_seq);
    A.arena_next = calloc((size_t)nprocs, sizeof *A.arena_next);
    A.page_home = malloc(pages * sizeof *A.page_home);
    A.in_gather = calloc((size_t)nprocs, 1);
    A.nlocks = locks;
    A.locks = calloc(locks, sizeof *A.locks);
    if (!A.alloc_seq || !A.arena_next || !A.page_home || !A.locks || !A.in_gather) {
        fprintf(stderr, "dsm: dsm_init: out of memory for %d simulated processors\n", nprocs);
        return -1;
    }
    for (size_t i = 0; i < pages; i++)
        A.page_home[i] = -1;
    for (unsigned i = 0; i < locks; i++)
        A.locks[i].holder = -1;
    for (int p = 0; p < nprocs; p++) {
        size_t off = A.coll_end + (size_t)p * A.arena_size;
        if (dsm_sim_malloc_spread)
            continue; /* placed page by page below */
        if (sim_place(dsm_sim_machine, base + off, A.arena_size, p)) {
            fprintf(stderr, "dsm: dsm_init: the simulated machine refused the arena of processor "
                            "%d: %s\n",
                    p, sim_error(dsm_sim_machine));
            return -1;
        }
        for (size_t i = 0; i < arena_pages; i++)
            A.page_home[off / A.page + i] = (int16_t)p;
    }
    /* DSM_MALLOC_HOMES=round-robin: the DSM's policy (alloc.c), by page */
    for (size_t i = coll_pages; dsm_sim_malloc_spread && i < coll_pages + (size_t)nprocs * arena_pages;
         i++) {
        int home = (int)(i % (size_t)nprocs);
        if (sim_place(dsm_sim_machine, base + i * A.page, A.page, home)) {
            fprintf(stderr, "dsm: dsm_init: the simulated machine refused page %zu: %s\n", i,
                    sim_error(dsm_sim_machine));
            return -1;
        }
        A.page_home[i] = (int16_t)home;
    }
    return 0;
}

static int sim_node(void)
{
    dsm_sim_need("dsm_node");
    return me();
}
static int sim_nodes(void)
{
    dsm_sim_need("dsm_nodes");
    return A.nprocs;
}
static size_t sim_block_size(void)
{
    dsm_sim_need("dsm_block_size");
    return A.line;
}
static unsigned sim_lock_count(void)
{
    dsm_sim_need("dsm_lock_count");
    return A.nlocks;
}

static int in_region(const void *p)
{
    return (uintptr_t)p >= A.base && (uintptr_t)p < A.base + A.bytes;
}

static int sim_home_of(const void *p)
{
    dsm_sim_need("dsm_home_of");
    if (!in_region(p) || A.page_home[((uintptr_t)p - A.base) / A.page] < 0)
        return -1; /* not allocated */
    /* the machine's answer: under first-touch placement it is not ours */
    return sim_home_at(dsm_sim_machine, (uintptr_t)p);
}

static long sim_block_index(const void *p)
{
    dsm_sim_need("dsm_block_index");
    return in_region(p) ? (long)(((uintptr_t)p - A.base) / A.line) : -1;
}

/* Homes of a new collective allocation of npages pages at region offset
 * off: the DSM's policy (alloc.c), by page instead of by block. */
static void place_collective(size_t off, size_t npages, int seq)
{
    size_t n = (size_t)A.nprocs, rot = (size_t)seq % n;
    for (size_t i = 0; i < npages; i++) {
        size_t home;
        if (A.homes_cyclic || npages < n)
            home = (i + rot) % n;
        else
            home = i * n / npages;
        uintptr_t a = A.base + off + i * A.page;
        if (sim_place(dsm_sim_machine, a, A.page, (int)home))
            dsm_sim_fatal("dsm_alloc", "the simulated machine refused page %#lx: %s",
                          (unsigned long)a, sim_error(dsm_sim_machine));
        A.page_home[(off / A.page) + i] = (int16_t)home;
    }
}

static void new_bin(uintptr_t addr, size_t size, const char *name, uintptr_t site,
                    const char *call)
{
    char *owned = NULL;
    if (!name || !*name)
        name = owned = dsm_sim_symbolize(site);
    if (sim_bin(dsm_sim_machine, addr, size, name) < 0)
        dsm_sim_fatal(call, "the simulated machine refused the data bin '%s': %s", name,
                      sim_error(dsm_sim_machine));
    free(owned);
}

static void *sim_alloc(size_t size, const char *name, uintptr_t site)
{
    dsm_sim_need("dsm_alloc");
    int p = me();
    int k = A.alloc_seq[p]++;
    if (k < A.nallocs) {
        if (A.allocs[k].size != size)
            dsm_sim_fatal("dsm_alloc", "allocation #%d asks for %zu bytes, but the processor that "
                                       "made it first asked for %zu (dsm_alloc is collective: "
                                       "same calls in the same order on every processor)",
                          k + 1, size, A.allocs[k].size);
        return (void *)A.allocs[k].addr;
    }
    size_t len = size ? (size + A.page - 1) / A.page * A.page : A.page;
    if (len < size || len > A.coll_end - A.coll_next)
        dsm_sim_fatal("dsm_alloc", "no room for %zu bytes: %zu of %zu bytes of the collective "
                                   "arena are in use (raise DSM_REGION_SIZE)",
                      size, A.coll_next, A.coll_end);
    if (A.nallocs == A.capallocs) {
        int c = A.capallocs ? A.capallocs * 2 : 32;
        coll_alloc *v = realloc(A.allocs, (size_t)c * sizeof *v);
        if (!v)
            dsm_sim_fatal("dsm_alloc", "out of memory");
        A.allocs = v;
        A.capallocs = c;
    }
    size_t off = A.coll_next;
    A.coll_next += len;
    place_collective(off, len / A.page, k);
    uintptr_t addr = A.base + off;
    new_bin(addr, size ? size : len, name, site, "dsm_alloc");
    A.allocs[A.nallocs++] = (coll_alloc){ addr, size };
    return (void *)addr;
}

static void *sim_malloc(size_t size, const char *name, uintptr_t site)
{
    dsm_sim_need("dsm_malloc");
    int p = me();
    size_t len = size ? (size + 15) & ~(size_t)15 : 16;
    if (len < size || len > A.arena_size - A.arena_next[p]) {
        fprintf(stderr, "dsm: processor %d: dsm_malloc: no room for %zu bytes in this "
                        "processor's arena of %zu bytes (%zu in use; the arena is "
                        "DSM_REGION_SIZE/2/processors: raise DSM_REGION_SIZE)\n",
                p, size, A.arena_size, A.arena_next[p]);
        errno = ENOMEM;
        return NULL;
    }
    uintptr_t addr = A.base + A.coll_end + (size_t)p * A.arena_size + A.arena_next[p];
    A.arena_next[p] += len;
    new_bin(addr, size ? size : len, name, site, "dsm_malloc");
    return (void *)addr;
}

static void sim_free(void *p)
{
    dsm_sim_need("dsm_free");
    if (!p)
        return;
    if (!in_region(p))
        dsm_sim_fatal("dsm_free", "%p is outside the shared region", p);
}

/* --- barriers and the finalize gathering ----------------------------------- */

/* Every processor arrives; the last one sets every clock to the latest
 * arrival plus `cost` and wakes the others.  Returns 1 in the last. */
static int gather(const char *call, sim_time cost)
{
    dsm_sim_fence(); /* the processor's stores are done before it arrives */
    int p = me();
    if (A.gathering && strcmp(A.gathering, call))
        dsm_sim_fatal(call, "called while other processors wait in %s (collective calls must "
                            "match on every processor)",
                      A.gathering);
    sim_time t = sim_clock(dsm_sim_machine, p);
    if (!A.arrived || t > A.latest)
        A.latest = t;
    if (++A.arrived < A.nprocs) {
        A.gathering = call;
        A.in_gather[p] = 1;
        dsm_sim_block(p, call);
        dsm_sim_schedule();
        return 0;
    }
    sim_time release = A.latest + cost;
    A.arrived = 0;
    A.gathering = NULL;
    for (int q = 0; q < A.nprocs; q++) {
        if (A.in_gather[q] || q == p) {
            A.in_gather[q] = 0;
            dsm_sim_wake(q);
            sim_set_clock(dsm_sim_machine, q, release);
        }
    }
    return 1;
}

static void sim_barrier(void)
{
    dsm_sim_need("dsm_barrier");
    gather("dsm_barrier", SIM_BARRIER_CYCLES);
    dsm_sim_schedule();
}

int dsm_sim_finalize_arrive(void) { return gather("dsm_finalize", 0); }

/* --- locks ------------------------------------------------------------------- */

/* Locks made by dsm_lock_new (syncid.h: the made bit and a count; one
 * process, so no node part), barriers of any count and condition
 * variables.  Records are found by id; processors run one at a time, so no
 * lock guards them. */
static struct {
    uint32_t next;              /* made ids so far */
    sim_lock *locks;            /* made lock k at index k */
    uint32_t nlocks, caplocks;
    dsm_idmap barriers, conds;  /* id -> struct sim_waitq */
    dsm_idmap atomics;          /* id -> struct sim_waitq (its value) */
} M;

typedef struct sim_waitq {
    long value;                 /* an atomic counter's */
    unsigned count, arrived;    /* a barrier's */
    sim_time latest;            /* a barrier's latest arrival */
    int *procs;                 /* waiting processors, in arrival order */
    int n, cap;
} sim_waitq;

static sim_lock *lock_of(unsigned id, const char *call)
{
    if (dsm_sync_made(id)) {
        uint32_t k = id & ~DSM_SYNC_MADE;
        if (k >= M.nlocks)
            dsm_sim_fatal(call, "lock id %u was not made by dsm_lock_new", id);
        return &M.locks[k];
    }
    if (id >= A.nlocks)
        dsm_sim_fatal(call, "lock id %u is out of range (0..%u; set DSM_LOCKS for more)", id,
                      A.nlocks - 1);
    return &A.locks[id];
}

static void sim_lock_acquire(unsigned id)
{
    dsm_sim_need("dsm_lock");
    dsm_sim_fence();
    sim_lock *l = lock_of(id, "dsm_lock");
    int p = me();
    if (l->holder == p)
        dsm_sim_fatal("dsm_lock", "lock %u is already held by this processor", id);
    if (l->holder < 0) {
        l->holder = p;
        sim_add_cycles(dsm_sim_machine, p, SIM_LOCK_CYCLES);
        dsm_sim_schedule();
        return;
    }
    if (l->qlen == l->qcap) {
        int c = l->qcap ? l->qcap * 2 : 8;
        int *v = malloc((size_t)c * sizeof *v);
        if (!v)
            dsm_sim_fatal("dsm_lock", "out of memory");
        for (int i = 0; i < l->qlen; i++)
            v[i] = l->queue[(l->qhead + i) % l->qcap];
        free(l->queue);
        l->queue = v;
        l->qhead = 0;
        l->qcap = c;
    }
    l->queue[(l->qhead + l->qlen++) % l->qcap] = p;
    dsm_sim_block(p, "dsm_lock");
    dsm_sim_schedule(); /* back once dsm_unlock handed it over */
}

/* Hand a held lock to its next waiter (or free it), without scheduling;
 * 1 when a waiter got it. */
static int unlock_hand(unsigned id, const char *call)
{
    sim_lock *l = lock_of(id, call);
    int p = me();
    if (l->holder != p)
        dsm_sim_fatal(call, "lock %u is not held by this processor", id);
    if (!l->qlen) {
        l->holder = -1;
        return 0;
    }
    int next = l->queue[l->qhead];
    l->qhead = (l->qhead + 1) % l->qcap;
    l->qlen--;
    l->holder = next;
    sim_time t = sim_clock(dsm_sim_machine, p) + SIM_LOCK_HANDOFF_CYCLES;
    if (sim_clock(dsm_sim_machine, next) < t)
        sim_set_clock(dsm_sim_machine, next, t);
    dsm_sim_wake(next);
    return 1;
}

static void sim_unlock(unsigned id)
{
    dsm_sim_need("dsm_unlock");
    dsm_sim_fence(); /* release: the critical section's stores first */
    if (unlock_hand(id, "dsm_unlock"))
        dsm_sim_schedule();
}

static unsigned sim_sync_new(const char *call)
{
    dsm_sim_need(call);
    if (M.next >= DSM_SYNC_MADE - 1u)
        dsm_sim_fatal(call, "%u synchronisation objects made, the most there can be", M.next);
    uint32_t k = M.next++;
    if (!strcmp(call, "dsm_lock_new")) {
        /* lock ids index M.locks by k: every made id below it is a lock or unused */
        if (k >= M.caplocks) {
            uint32_t cap = M.caplocks ? M.caplocks * 2 : 64;
            while (cap <= k)
                cap *= 2;
            sim_lock *v = realloc(M.locks, cap * sizeof *v);
            if (!v)
                dsm_sim_fatal(call, "out of memory");
            M.locks = v;
            M.caplocks = cap;
        }
        for (uint32_t i = M.nlocks; i <= k; i++)
            M.locks[i] = (sim_lock){ .holder = -1 };
        M.nlocks = k + 1;
    }
    return DSM_SYNC_MADE | k;
}

static sim_waitq *waitq_of(dsm_idmap *m, unsigned id, const char *call)
{
    sim_waitq *q = dsm_idmap_get(m, id);
    if (!q) {
        q = calloc(1, sizeof *q);
        if (!q || dsm_idmap_put(m, id, q))
            dsm_sim_fatal(call, "out of memory");
    }
    return q;
}

static void waitq_push(sim_waitq *q, int p, const char *call)
{
    if (q->n == q->cap) {
        int cap = q->cap ? q->cap * 2 : 8;
        int *v = realloc(q->procs, (size_t)cap * sizeof *v);
        if (!v)
            dsm_sim_fatal(call, "out of memory");
        q->procs = v;
        q->cap = cap;
    }
    q->procs[q->n++] = p;
}

/* As dsm_barrier, for `count` processors: the last arrival sets every
 * waiter's clock to the latest arrival plus SIM_BARRIER_CYCLES. */
static void sim_barrier_n(unsigned id, unsigned count)
{
    dsm_sim_need("dsm_barrier_n");
    if (count == 0)
        dsm_sim_fatal("dsm_barrier_n", "barrier %u with 0 participants", id);
    sim_waitq *q = waitq_of(&M.barriers, id, "dsm_barrier_n");
    int p = me();
    sim_time t = sim_clock(dsm_sim_machine, p);
    if (q->arrived == 0) {
        q->count = count;
        q->latest = t;
    } else if (count != q->count) {
        dsm_sim_fatal("dsm_barrier_n", "barrier %u: this processor waits for %u participants, "
                      "the others for %u", id, count, q->count);
    }
    if (t > q->latest)
        q->latest = t;
    if (++q->arrived < q->count) {
        waitq_push(q, p, "dsm_barrier_n");
        dsm_sim_block(p, "dsm_barrier_n");
        dsm_sim_schedule();
        return;
    }
    sim_time release = q->latest + SIM_BARRIER_CYCLES;
    for (int i = 0; i < q->n; i++) {
        dsm_sim_wake(q->procs[i]);
        sim_set_clock(dsm_sim_machine, q->procs[i], release);
    }
    sim_set_clock(dsm_sim_machine, p, release);
    q->n = 0;
    q->arrived = 0;
    dsm_sim_schedule();
}

static void sim_cond_wait(unsigned cond, unsigned lock)
{
    dsm_sim_need("dsm_cond_wait");
    int p = me();
    if (lock_of(lock, "dsm_cond_wait")->holder != p)
        dsm_sim_fatal("dsm_cond_wait", "lock %u is not held by this processor (wait on "
                      "condition %u with its lock held)", lock, cond);
    /* queued and blocked before the lock goes: a signal can only follow */
    waitq_push(waitq_of(&M.conds, cond, "dsm_cond_wait"), p, "dsm_cond_wait");
    unlock_hand(lock, "dsm_cond_wait");
    dsm_sim_block(p, "dsm_cond_wait");
    dsm_sim_schedule();
    sim_lock_acquire(lock);
}

static void sim_cond_signal(unsigned cond, int all)
{
    const char *call = all ? "dsm_cond_broadcast" : "dsm_cond_signal";
    dsm_sim_need(call);
    sim_waitq *q = waitq_of(&M.conds, cond, call);
    int n = all ? q->n : (q->n ? 1 : 0);
    sim_time t = sim_clock(dsm_sim_machine, me()) + SIM_LOCK_HANDOFF_CYCLES;
    for (int i = 0; i < n; i++) {
        int w = q->procs[i];
        if (sim_clock(dsm_sim_machine, w) < t)
            sim_set_clock(dsm_sim_machine, w, t);
        dsm_sim_wake(w);
    }
    memmove(q->procs, q->procs + n, (size_t)(q->n - n) * sizeof *q->procs);
    q->n -= n;
    dsm_sim_schedule();
}

/* An atomic counter: the add is done at once (processors run one at a
 * time), then the caller pays a lock handoff and lets the others run (a
 * processor spinning on a counter must not keep the machine to itself). */
static long sim_atomic_add(unsigned id, long delta)
{
    dsm_sim_need("dsm_atomic_add");
    sim_waitq *q = waitq_of(&M.atomics, id, "dsm_atomic_add");
    long old = q->value;
    q->value = (long)((unsigned long)old + (unsigned long)delta);
    int p = me();
    sim_set_clock(dsm_sim_machine, p, sim_clock(dsm_sim_machine, p) + SIM_LOCK_HANDOFF_CYCLES);
    dsm_sim_schedule();
    return old;
}

static double sim_wtime(void)
{
    dsm_sim_need("dsm_wtime");
    const sim_timing_ops *ops = sim_timing_ops_of(dsm_sim_machine);
    double hz = ops->clock_hz_of ? ops->clock_hz_of(sim_timing_model(dsm_sim_machine))
                                 : ops->clock_hz; /* the model's clock */
    return (double)sim_clock(dsm_sim_machine, me()) / (hz > 0 ? hz : SIM_HZ);
}

/* The measured section (dsm.h): only meaningful simulated (the other
 * backends do nothing).  The machine keeps the first begin and the last end
 * (sim_section_begin/end); simprof writes them in the dsm-sim/1 file. */
static void sim_measure_begin(void)
{
    dsm_sim_need("dsm_sim_section_begin");
    sim_section_begin(dsm_sim_machine, me());
}

static void sim_measure_end(void)
{
    dsm_sim_need("dsm_sim_section_end");
    if (sim_section_end(dsm_sim_machine, me()) < 0)
        dsm_sim_fatal("dsm_sim_section_end",
                      "this processor has no measured section open (call dsm_sim_section_begin "
                      "first)");
}

/* DSM_MACHINE names the machine to run on (run.c). */
static int sim_wanted(void)
{
    const char *m = getenv("DSM_MACHINE");
    return m && *m;
}

/* Every call checks that the running processor is between its own
 * dsm_init and dsm_finalize (dsm_sim_need): the processors share the
 * process, so the backend stays the same for all of them. */
const dsm_backend dsm_backend_sim = {
    .name = "simulation",
    .wanted = sim_wanted,
    .init = dsm_sim_init,
    .finalize = dsm_sim_finalize_master,
    .node = sim_node,
    .nodes = sim_nodes,
    .alloc = sim_alloc,
    .malloc = sim_malloc,
    .free = sim_free,
    .barrier = sim_barrier,
    .lock = sim_lock_acquire,
    .unlock = sim_unlock,
    .wtime = sim_wtime,
    .block_size = sim_block_size,
    .lock_count = sim_lock_count,
    .home_of = sim_home_of,
    .block_index = sim_block_index,
    .section_begin = sim_measure_begin,
    .section_end = sim_measure_end,
    .checkpoint = dsm_sim_checkpoint,
    .sync_new = sim_sync_new,
    .barrier_n = sim_barrier_n,
    .cond_wait = sim_cond_wait,
    .cond_signal = sim_cond_signal,
    .atomic_add = sim_atomic_add,
    .init_master = dsm_sim_init_master,
    .create = dsm_sim_create,
    .join = dsm_sim_join,
    .wait_for_end = dsm_sim_wait_for_end,
    .task = dsm_sim_task,
};
