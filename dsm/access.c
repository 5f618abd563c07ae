/* access.c - block mode, the runtime side of the inline access checks
 * (access.h; the checks themselves are emitted by dsm/tools/checkpass/).
 *
 * Page mode guards a block with mprotect and learns of accesses by faults;
 * block mode keeps the application's view of the region always writable
 * and guards a block with its byte in the state table instead.  The engine
 * is the same: where page mode calls mprotect (dsm_region_protect), block
 * mode calls dsm_blk_set; where page mode's fault handler calls
 * dsm_rt_access, the checks' slow path (__dsm_blk_miss) does.
 *
 * Taking a block away safely (doc/protocol.md, "Block mode"): a checking
 * thread stores the address it is about to access in its window slot
 * (__dsm_blk_window[0]) before it loads the state byte, and clears the slot
 * after the access.  The thread that lowers a state byte (the progress
 * thread serving an invalidation or a recall, or any thread running the
 * engine) stores the byte, then runs membarrier(PRIVATE_EXPEDITED): every
 * running thread of the process executes a full barrier, so each checking
 * thread either has its window store visible now or will load the new
 * state.  It then waits until no registered thread's window names the
 * block, and only then lets the engine send the data or acknowledge.  The
 * inline check thus needs no fence of its own, only program order. */
#define _GNU_SOURCE 1
#include "access.h"

#include <errno.h>
#include <linux/membarrier.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "error.h"
#include "futex.h"
#include "node.h"
#include "proto.h"
#include "region.h"

DSM_API struct dsm_blk_globals __dsm_blk;
DSM_API __thread __attribute__((tls_model("initial-exec"))) uintptr_t
    __dsm_blk_window[DSM_BLK_WINDOW_WORDS];

__thread struct dsm_blk_sigsave dsm_blk_sigsave;

int dsm_blk_checked;

/* ---- the registry of the threads that may hold a window ---- */

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static _Atomic(uintptr_t) *registry[DSM_MAX_THREADS];
static struct dsm_blk_sigsave *registry_saved[DSM_MAX_THREADS]; /* same thread as registry[i] */
static int nregistered;
static pthread_key_t exit_key;
static pthread_once_t key_once = PTHREAD_ONCE_INIT;
static __thread int registered; /* 1: in the registry, -1: gone (exiting) */

static void unregister_self(void *unused)
{
    (void)unused;
    pthread_mutex_lock(&registry_lock);
    for (int i = 0; i < nregistered; i++)
        if (registry[i] == (_Atomic(uintptr_t) *)__dsm_blk_window) {
            registry[i] = registry[--nregistered];
            registry_saved[i] = registry_saved[nregistered];
            break;
        }
    pthread_mutex_unlock(&registry_lock);
    registered = -1;
}

static void make_key(void)
{
    if (pthread_key_create(&exit_key, unregister_self))
        dsm_fatal("dsm_init", "block mode: no thread-specific key left");
}

static void register_self(void)
{
    if (registered)
        return;
    pthread_once(&key_once, make_key);
    pthread_mutex_lock(&registry_lock);
    if (nregistered == DSM_MAX_THREADS) {
        pthread_mutex_unlock(&registry_lock);
        dsm_fatal("block mode", "more than %d threads access shared memory", DSM_MAX_THREADS);
    }
    registry_saved[nregistered] = &dsm_blk_sigsave;
    registry[nregistered++] = (_Atomic(uintptr_t) *)__dsm_blk_window;
    pthread_mutex_unlock(&registry_lock);
    pthread_setspecific(exit_key, (void *)1); /* non-NULL: the destructor runs */
    registered = 1;
}

struct start_arg {
    void *(*start)(void *);
    void *arg;
};

static void *thread_start(void *p)
{
    struct start_arg a = *(struct start_arg *)p;
    free(p);
    register_self();
    return a.start(a.arg);
}

/* The checked program's pthread_create (the pass redirects its calls here):
 * the new thread is in the registry before its first check. */
DSM_API int __dsm_blk_pthread_create(pthread_t *thread, const pthread_attr_t *attr,
                                     void *(*start)(void *), void *arg)
{
    struct start_arg *a = malloc(sizeof *a);
    if (!a)
        return EAGAIN;
    a->start = start;
    a->arg = arg;
    int rc = pthread_create(thread, attr, thread_start, a);
    if (rc)
        free(a);
    return rc;
}

DSM_API void __dsm_blk_register(uint32_t abi)
{
    if (abi != DSM_BLK_ABI) {
        fprintf(stderr, "dsm: node ?: start-up: the program was compiled by dsmcc --dsm for block-mode "
                        "ABI %u, this libdsm speaks ABI %u: rebuild it with this dsmcc\n",
                abi, DSM_BLK_ABI);
        exit(1);
    }
    dsm_blk_checked = 1;
    register_self();
}

/* ---- the state table ---- */

int dsm_blk_table_create(dsm_region *r)
{
    size_t len = (size_t)r->nblocks + 2; /* the check's second byte may look one past */
    void *t = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                   -1, 0);
    if (t == MAP_FAILED)
        return -1;
    r->state = t;
    return 0;
}

void dsm_blk_table_destroy(dsm_region *r)
{
    if (r->state)
        munmap(r->state, (size_t)r->nblocks + 2);
    r->state = NULL;
}

/* ---- making the lowering of a state byte visible to every thread ---- */

static int use_membarrier;
/* State bytes lowered so far, counted between the store of the byte and
 * the barrier (__dsm_blk_miss_ranges: whether a range window's blocks may
 * have been taken while it was closed). */
static _Atomic uint64_t lowerings;
static char *flush_page; /* the fallback: an mprotect shoots down every CPU's TLB */

static void barrier_all_threads(void)
{
    if (use_membarrier) {
        if (syscall(__NR_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) == 0)
            return;
        dsm_fatal("block mode", "membarrier failed: %s", strerror(errno));
    }
    /* Changing a touched page's protection interrupts every CPU running a
     * thread of the process (TLB shootdown), which drains its store buffer. */
    if (mprotect(flush_page, 4096, PROT_READ | PROT_WRITE))
        dsm_fatal("block mode", "mprotect of the barrier page failed: %s", strerror(errno));
    *(volatile char *)flush_page = 1;
    if (mprotect(flush_page, 4096, PROT_NONE))
        dsm_fatal("block mode", "mprotect of the barrier page failed: %s", strerror(errno));
}

static int window_names(uintptr_t w, uintptr_t lo, uintptr_t hi)
{
    if (w == 0)
        return 0;
    if (w == DSM_BLK_WINDOW_ALL)
        return 1;
    /* a window covers at most DSM_BLK_MAX_SPAN bytes from w */
    return w < hi && w + DSM_BLK_MAX_SPAN > lo;
}

/* Whether a thread's range windows name bytes [lo, hi).  A range window's
 * lo is read before its hi and the pass stores hi first, so a hi read
 * after a non-zero lo belongs to that window or to a later one, opened
 * after the window we saw closed: either way the answer is safe. */
static int ranges_name(_Atomic(uintptr_t) *w, uintptr_t lo, uintptr_t hi)
{
    for (int r = 0; r < DSM_BLK_RANGES; r++) {
        uintptr_t rlo = atomic_load(&w[1 + 2 * r]);
        if (rlo && rlo < hi && atomic_load(&w[2 + 2 * r]) > lo)
            return 1;
    }
    return 0;
}

/* Whether any window of one thread names bytes [lo, hi). */
static int windows_name(_Atomic(uintptr_t) *w, uintptr_t lo, uintptr_t hi)
{
    return window_names(atomic_load(&w[0]), lo, hi) || ranges_name(w, lo, hi);
}

/* Whether saved level d names [lo, hi): 1 or 0; -1 when it holds a window
 * DSM_BLK_WINDOW_ALL whose bytes the wrapper did not find (it names every
 * block, and cannot be fetched back block by block). */
static int saved_names(struct dsm_blk_sigsave *sv, uint32_t d, uintptr_t lo, uintptr_t hi)
{
    _Atomic(uintptr_t) *w = sv->saved[d];
    uintptr_t a = atomic_load(&w[0]);
    if (a == DSM_BLK_WINDOW_ALL) {
        _Atomic(uintptr_t) *x = sv->saved_wide[d];
        uintptr_t l0 = atomic_load(&x[0]), l1 = atomic_load(&x[2]);
        if (!l0 && !l1)
            return -1;
        if ((l0 && l0 < hi && atomic_load(&x[1]) > lo) || (l1 && l1 < hi && atomic_load(&x[3]) > lo))
            return 1;
    } else if (window_names(a, lo, hi)) {
        return 1;
    }
    return ranges_name(w, lo, hi);
}

/* Whether one thread's windows name [lo, hi), counting those a signal
 * handler's wrapper saved (blk_signal.c).  The wrapper stores saved[d]
 * and depth before it bumps seq on entry, and restores the live windows
 * before it bumps seq on exit; the handler's own window stores come after
 * the first bump, the interrupted code's after the second.  Loads are not
 * reordered with loads nor stores with stores (x86), so when seq reads the
 * same before and after, every load between fell in one interval between
 * two bumps, in which each interrupted window is either still live (before
 * the entry bump, after the exit bump) or in saved[d] (between them).  A
 * changed seq reads as "named": the caller looks again. */
static int thread_windows_name(_Atomic(uintptr_t) *w, struct dsm_blk_sigsave *sv, uintptr_t lo,
                               uintptr_t hi)
{
    uint64_t seq = atomic_load(&sv->seq);
    if (windows_name(w, lo, hi))
        return 1;
    uint32_t depth = atomic_load(&sv->depth);
    for (uint32_t d = 0; d < depth && d < DSM_BLK_SIG_DEPTH; d++)
        if (saved_names(sv, d, lo, hi))
            return 1;
    return atomic_load(&sv->seq) != seq;
}

/* Notes in a thread's log that `block` went down from `old` while one of
 * its saved windows named it.  Any lowering thread may append. */
static void sig_log(struct dsm_blk_sigsave *sv, uint32_t block, int old)
{
    uint64_t e = ((uint64_t)block + 1) << 8 | (uint64_t)old;
    uint32_t n = atomic_load(&sv->nlog);
    for (uint32_t i = 0; i < n && i < DSM_BLK_SIG_LOG; i++) {
        uint64_t v = atomic_load(&sv->log[i]);
        if (v >> 8 == e >> 8 && (v & 0xff) >= (uint64_t)old)
            return; /* noted already, from as high a state */
    }
    uint32_t i = atomic_fetch_add(&sv->nlog, 1);
    if (i < DSM_BLK_SIG_LOG)
        atomic_store(&sv->log[i], e);
    else
        atomic_store(&sv->overflow, 1);
}

/* dsm_blk_set's look at one thread (w NULL: the caller itself, whose live
 * windows are closed in the runtime): 1 while a window holds the lowering
 * of `block` back.  A live window does.  A window a handler's wrapper saved
 * does not: the handler may be waiting for the engine lock this lowering
 * holds, or for a grant only the engine can take in, and the saved window
 * closes only after the handler returned (doc/protocol.md, "A handler over
 * an open window").  The lowering goes on and is noted in the thread's
 * log; the wrapper fetches the block back before it reopens the windows
 * (dsm_blk_sig_settle).  The note is stored before seq is read the second
 * time, with a fence, and the wrapper bumps seq before it reads the log,
 * with a fence: a lowering that finds seq unchanged is in the log the
 * wrapper reads, one that finds it moved looks again. */
static int thread_holds_back(_Atomic(uintptr_t) *w, struct dsm_blk_sigsave *sv, uintptr_t lo,
                             uintptr_t hi, uint32_t block, int old)
{
    uint64_t seq = atomic_load(&sv->seq);
    if (w && windows_name(w, lo, hi))
        return 1;
    uint32_t depth = atomic_load(&sv->depth);
    int noted = 0;
    for (uint32_t d = 0; d < depth && d < DSM_BLK_SIG_DEPTH; d++) {
        int named = saved_names(sv, d, lo, hi);
        if (named < 0 && w)
            return 1; /* a window that names every block: wait, as before */
        if (named > 0 && !noted) {
            sig_log(sv, block, old);
            noted = 1;
        }
    }
    if (noted)
        atomic_thread_fence(memory_order_seq_cst);
    return atomic_load(&sv->seq) != seq;
}

int dsm_blk_windows_name(uintptr_t lo, uintptr_t hi)
{
    int named = 0;
    pthread_mutex_lock(&registry_lock);
    for (int i = 0; i < nregistered && !named; i++)
        named = thread_windows_name(registry[i], registry_saved[i], lo, hi);
    pthread_mutex_unlock(&registry_lock);
    return named;
}

void dsm_blk_set(dsm_region *r, uint32_t block, int access)
{
    _Atomic uint8_t *s = (_Atomic uint8_t *)&r->state[block];
    int old = atomic_load_explicit(s, memory_order_relaxed);
    atomic_store_explicit(s, (uint8_t)access, memory_order_seq_cst);
    if (access >= old)
        return;
    atomic_fetch_add(&lowerings, 1);
    barrier_all_threads();
    uintptr_t lo = (uintptr_t)r->app + ((uintptr_t)block << r->block_shift);
    uintptr_t hi = lo + r->block_size;
    _Atomic(uintptr_t) *mine = (_Atomic(uintptr_t) *)__dsm_blk_window;
    pthread_mutex_lock(&registry_lock);
    for (int i = 0; i < nregistered; i++) {
        _Atomic(uintptr_t) *w = registry[i];
        if (w == mine) { /* in the runtime: this thread's live windows are closed */
            (void)thread_holds_back(NULL, registry_saved[i], lo, hi, block, old);
            continue;
        }
        /* a window is a few instructions long, a range window one loop
         * without calls and with a known trip count, unless its thread was
         * preempted inside it: then give it the CPU */
        for (unsigned spins = 0; thread_holds_back(w, registry_saved[i], lo, hi, block, old);
             spins++) {
            if (spins < 64)
                dsm_cpu_relax();
            else
                sched_yield();
        }
    }
    pthread_mutex_unlock(&registry_lock);
}

int dsm_blk_start(dsm_rt *rt)
{
    dsm_region *r = &rt->region;
    if (!r->state)
        return 0;
    if (syscall(__NR_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0) {
        use_membarrier = 1;
    } else {
        flush_page = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (flush_page == MAP_FAILED) {
            fprintf(stderr, "dsm: node %d: dsm_init: block mode: no membarrier and no page for "
                            "the fallback barrier\n", rt->self);
            return -1;
        }
    }
    register_self();
    __dsm_blk.shift = r->block_shift;
    __dsm_blk.state = r->state;
    __dsm_blk.base = (uintptr_t)r->app;
    atomic_thread_fence(memory_order_seq_cst);
    __dsm_blk.size = r->size; /* last: until now the range test fails */
    return 0;
}

/* ---- the slow path ---- */

static dsm_rt *need_rt(void)
{
    dsm_rt *rt = dsm_g;
    if (!rt)
        dsm_fatal("block mode", "shared access before dsm_init");
    return rt;
}

static int states_ok(const dsm_region *r, uint32_t b0, uint32_t b1, int need)
{
    for (uint32_t b = b0; b <= b1; b++)
        if (atomic_load((_Atomic uint8_t *)&r->state[b]) < need)
            return 0;
    return 1;
}

/* A one-node job has no other node to keep coherent with: every block is
 * at its home and nobody can take it away.  There the slow path grants a
 * miss locally, without the engine, and grants the whole aligned run of
 * LOCAL_RUN bytes around it at once, so a first touch costs one slow path
 * per run instead of an engine round trip (GETX to itself, DATA_X, hold,
 * release) per block: a radix sort at 64-byte blocks spent more on those
 * first touches than on its checks.  Nothing counts them: a one-node job's
 * counters and profile show no misses, as its unchecked build's do (doc/
 * protocol.md, "Block mode").  After dsm_finalize (stopping) the engine
 * path runs, which names the late access. */
#define LOCAL_RUN ((size_t)1 << 16)

static int local_grant(dsm_rt *rt, uint32_t block)
{
    if (rt->nnodes != 1 || atomic_load(&rt->stopping))
        return 0;
    dsm_region *r = &rt->region;
    uint32_t per = r->block_size >= LOCAL_RUN ? 1 : (uint32_t)(LOCAL_RUN >> r->block_shift);
    uint32_t lo = block & ~(per - 1);
    uint32_t hi = r->nblocks - lo < per ? r->nblocks : lo + per;
    /* forbid_stores (node.c) reads the bounds under the engine lock */
    dsm_rt_enter(); /* no handler's check may come while the lock is held */
    pthread_mutex_lock(&rt->eng_lock);
    dsm_region_note_writable(r, lo, hi);
    pthread_mutex_unlock(&rt->eng_lock);
    dsm_rt_leave();
    /* only ever raised here: no window needs waiting for */
    for (uint32_t b = lo; b < hi; b++)
        atomic_store_explicit((_Atomic uint8_t *)&r->state[b], DSM_BLK_WRITE,
                              memory_order_relaxed);
    return 1;
}

/* What a window DSM_BLK_WINDOW_ALL is about to cover, bytes [a, a + an)
 * and [b, b + bn), for the wrapper of a signal that interrupts it
 * (saved_names).  Thread-local, read by the thread's own wrapper only: the
 * window's store after it keeps the order. */
static void wide_set(uintptr_t a, size_t an, uintptr_t b, size_t bn)
{
    uintptr_t *x = dsm_blk_sigsave.wide;
    x[0] = a, x[1] = a + an, x[2] = b, x[3] = b ? b + bn : 0;
}

/* Makes blocks b0..b1 at least `need`, then opens the window `win` and
 * returns once the states are still good under it. */
static void make_present(dsm_rt *rt, uint32_t b0, uint32_t b1, int need, int reads,
                         uintptr_t win, uintptr_t addr, uint32_t len, uintptr_t ip)
{
    dsm_region *r = &rt->region;
    /* the check knows what the group does: a write group that also reads
     * is a read-modify-write (the migratory rule), and its bytes are the
     * profile's evidence of what a read took */
    int how = need == DSM_BLK_WRITE ? (reads ? PROTO_WRITE_READS : 1) : 0;
    for (;;) {
        for (uint32_t b = b0; b <= b1; b++)
            if (atomic_load((_Atomic uint8_t *)&r->state[b]) < need) {
                /* as the fault handler says it (fault.c): dsm_finalize made
                 * every block read-only at most (node.c forbid_stores) */
                if (atomic_load(&rt->stopping))
                    dsm_fatal(need == DSM_BLK_WRITE ? "write" : "read",
                              "%s shared memory at %p after dsm_finalize",
                              need == DSM_BLK_WRITE ? "store to" : "load from",
                              (void *)((uintptr_t)r->app + ((uintptr_t)b << r->block_shift)));
                if (local_grant(rt, b))
                    continue;
                dsm_prof_fault_ip = ip; /* code attribution, as the fault handler does */
                dsm_prof_fault_access = (dsm_prof_access){ addr, len, (uint8_t)reads };
                /* the program's async signals wait while the runtime is
                 * busy on this thread, as in page mode's fault handler: a
                 * handler's check missing here would find the engine lock
                 * held by its own thread */
                dsm_rt_enter();
                dsm_rt_access(rt, b, how);
                dsm_rt_leave();
                dsm_prof_fault_ip = 0;
                dsm_prof_fault_access = (dsm_prof_access){ 0, 0, 0 };
            }
        if (win == DSM_BLK_WINDOW_ALL)
            wide_set(addr, len, 0, 0);
        atomic_store(( _Atomic(uintptr_t) *)&__dsm_blk_window[0], win);
        atomic_thread_fence(memory_order_seq_cst);
        if (states_ok(r, b0, b1, need))
            return;
        atomic_store(( _Atomic(uintptr_t) *)&__dsm_blk_window[0], 0);
    }
}

/* A range window is open only over a loop without calls (the pass never
 * versions a loop with one): a thread entering the runtime with one open
 * could wait for a node whose invalidation waits for that window.  Said
 * and stopped, never a hang. */
static void no_range_window(const char *call)
{
    for (int r = 0; r < DSM_BLK_RANGES; r++)
        if (atomic_load((_Atomic(uintptr_t) *)&__dsm_blk_window[1 + 2 * r]))
            dsm_fatal(call, "block mode: range window %d is open on entry to the runtime "
                            "(a bug of the dsmcheck pass)", r);
}

DSM_API void __dsm_blk_miss(uint64_t addr, uint64_t len, uint32_t need)
{
    uintptr_t ip = (uintptr_t)__builtin_return_address(0);
    atomic_store(( _Atomic(uintptr_t) *)&__dsm_blk_window[0], 0);
    no_range_window(need == DSM_BLK_WRITE ? "write" : "read");
    if (atomic_load_explicit(&dsm_blk_sigsave.depth, memory_order_relaxed))
        dsm_blk_sig_drop_abandoned((uintptr_t)__builtin_frame_address(0));
    register_self();
    dsm_rt *rt = need_rt();
    dsm_region *r = &rt->region;
    if (len == 0)
        len = 1;
    int reads = need == DSM_BLK_READ || (need & DSM_BLK_ALSO_READS);
    need &= ~(uint32_t)DSM_BLK_ALSO_READS;
    uintptr_t off = addr - (uintptr_t)r->app;
    if (off >= r->size || len > r->size - off)
        dsm_fatal(need == DSM_BLK_WRITE ? "write" : "read",
                  "access of %llu bytes at %p runs past the end of the shared region",
                  (unsigned long long)len, (void *)(uintptr_t)addr);
    if (need != DSM_BLK_READ && need != DSM_BLK_WRITE)
        dsm_fatal("block mode", "access check asks for state %u", need);
    uint32_t b0 = (uint32_t)(off >> r->block_shift);
    uint32_t b1 = (uint32_t)((off + len - 1) >> r->block_shift);
    make_present(rt, b0, b1, (int)need, reads, len > DSM_BLK_MAX_SPAN ? DSM_BLK_WINDOW_ALL : addr,
                 (uintptr_t)addr, len > UINT32_MAX ? UINT32_MAX : (uint32_t)len, ip);
}

/* The lowerings count this thread read when it last found its range
 * windows' blocks good (+1; 0: never). */
static __thread uint64_t ranges_seen;

/* Why the count may stand for a scan of the ranges: a lowering counts
 * between its byte store and its barrier, then waits for the windows that
 * name its block.  One that this thread's range check (or last scan) did
 * not see stored its byte after that check, so it counted after it, and
 * found the windows open: it waited, and its count was visible to this
 * thread by the time the windows closed (its barrier ran on this thread
 * while they were open).  So an unchanged count, read after the windows
 * are open again, means no block of theirs was lowered meanwhile; then one
 * miss costs no scan of the loop's whole span (a scatter's first touches
 * would cost the square of the span's blocks). */
DSM_API void __dsm_blk_miss_ranges(uint64_t addr, uint64_t len, uint32_t need, uint32_t needs)
{
    uintptr_t ip = (uintptr_t)__builtin_return_address(0);
    _Atomic(uintptr_t) *w = (_Atomic(uintptr_t) *)__dsm_blk_window;
    /* the open range windows of the loop and what it needs; the range
     * check opened only spans inside the region (dsmcheck's loops.cpp) */
    struct {
        uintptr_t lo, hi;
        uint32_t b0, b1;
        int need, slot;
    } rg[DSM_BLK_RANGES];
    int nr = 0;
    for (int i = 0; i < DSM_BLK_RANGES && (needs >> (2 * i)); i++) {
        uintptr_t lo = atomic_load(&w[1 + 2 * i]), hi = atomic_load(&w[2 + 2 * i]);
        int rn = (int)((needs >> (2 * i)) & 3);
        if (lo && hi > lo && rn >= DSM_BLK_READ && rn <= DSM_BLK_WRITE) {
            rg[nr].lo = lo, rg[nr].hi = hi, rg[nr].need = rn, rg[nr].slot = i;
            nr++;
        }
    }
    /* no window may stay open while this thread waits for another node
     * (no_range_window): close them all, get the block, reopen, recheck */
    atomic_store(&w[0], 0);
    for (int k = 0; k < nr; k++)
        atomic_store(&w[1 + 2 * rg[k].slot], 0);
    register_self();
    dsm_rt *rt = need_rt();
    dsm_region *r = &rt->region;
    if (len == 0)
        len = 1;
    uintptr_t off = addr - (uintptr_t)r->app;
    if (off >= r->size || len > r->size - off)
        dsm_fatal(need == DSM_BLK_WRITE ? "write" : "read",
                  "access of %llu bytes at %p runs past the end of the shared region",
                  (unsigned long long)len, (void *)(uintptr_t)addr);
    int reads = need == DSM_BLK_READ || (need & DSM_BLK_ALSO_READS);
    need &= ~(uint32_t)DSM_BLK_ALSO_READS;
    if (need != DSM_BLK_READ && need != DSM_BLK_WRITE)
        dsm_fatal("block mode", "access check asks for state %u", need);
    for (int k = 0; k < nr; k++) {
        if (rg[k].lo < (uintptr_t)r->app || rg[k].hi > (uintptr_t)r->app + r->size)
            dsm_fatal("block mode", "range window %d [%p, %p) is outside the shared region "
                      "(a bug of the dsmcheck pass)", rg[k].slot, (void *)rg[k].lo, (void *)rg[k].hi);
        rg[k].b0 = (uint32_t)((rg[k].lo - (uintptr_t)r->app) >> r->block_shift);
        rg[k].b1 = (uint32_t)((rg[k].hi - 1 - (uintptr_t)r->app) >> r->block_shift);
    }
    uint32_t b0 = (uint32_t)(off >> r->block_shift);
    uint32_t b1 = (uint32_t)((off + len - 1) >> r->block_shift);
    uintptr_t win = len > DSM_BLK_MAX_SPAN ? DSM_BLK_WINDOW_ALL : addr;
    for (int scan = 0;; scan = 1) {
        /* returns with window 0 empty */
        make_present(rt, b0, b1, (int)need, reads, 0, (uintptr_t)addr,
                     len > UINT32_MAX ? UINT32_MAX : (uint32_t)len, ip);
        for (int k = 0; scan && k < nr; k++)
            make_present(rt, rg[k].b0, rg[k].b1, rg[k].need, rg[k].need == DSM_BLK_READ, 0,
                         rg[k].lo, (uint32_t)(rg[k].hi - rg[k].lo), ip);
        /* reopen as the pass does (hi before lo), then read the states */
        for (int k = 0; k < nr; k++) {
            atomic_store(&w[2 + 2 * rg[k].slot], rg[k].hi);
            atomic_store(&w[1 + 2 * rg[k].slot], rg[k].lo);
        }
        if (win == DSM_BLK_WINDOW_ALL)
            wide_set(addr, len, 0, 0);
        atomic_store(&w[0], win);
        atomic_thread_fence(memory_order_seq_cst);
        uint64_t seen = atomic_load(&lowerings) + 1;
        if (states_ok(r, b0, b1, (int)need)) {
            if (seen == ranges_seen)
                return;
            int ok = 1;
            for (int k = 0; ok && k < nr; k++)
                ok = states_ok(r, rg[k].b0, rg[k].b1, rg[k].need);
            if (ok) {
                ranges_seen = seen;
                return;
            }
        }
        atomic_store(&w[0], 0);
        for (int k = 0; k < nr; k++)
            atomic_store(&w[1 + 2 * rg[k].slot], 0);
    }
}

/* ---- a handler's return over an open window (blk_signal.c) ---- */

/* Block b back to `want` if saved level d names it and it is lower: 1 if
 * it was (fetch: fetched it, the level still saved and the live windows
 * closed, as in the slow path; otherwise only looked).  After dsm_finalize
 * nothing is fetched (the interrupted access would be named there). */
static int settle_block(dsm_rt *rt, struct dsm_blk_sigsave *sv, uint32_t d, uint32_t b, int want,
                        int fetch)
{
    dsm_region *r = &rt->region;
    if (b >= r->nblocks)
        return 0;
    uintptr_t lo = (uintptr_t)r->app + ((uintptr_t)b << r->block_shift);
    if (!saved_names(sv, d, lo, lo + r->block_size))
        return 0;
    if (atomic_load((_Atomic uint8_t *)&r->state[b]) >= want || atomic_load(&rt->stopping))
        return 0;
    if (fetch && !local_grant(rt, b)) {
        dsm_rt_enter();
        dsm_rt_access(rt, b, want == DSM_BLK_WRITE);
        dsm_rt_leave();
    }
    return 1;
}

/* Every block of bytes [lo, hi) to write (the log overflowed: what they
 * held is unknown, write is enough for any access). */
static int settle_bytes(dsm_rt *rt, struct dsm_blk_sigsave *sv, uint32_t d, uintptr_t lo,
                        uintptr_t hi, int fetch)
{
    dsm_region *r = &rt->region;
    uintptr_t base = (uintptr_t)r->app;
    lo = lo < base ? base : lo;
    hi = hi > base + r->size ? base + r->size : hi;
    if (lo >= hi)
        return 0;
    int n = 0;
    uint32_t b1 = (uint32_t)((hi - 1 - base) >> r->block_shift);
    for (uint32_t b = (uint32_t)((lo - base) >> r->block_shift); b <= b1; b++)
        n |= settle_block(rt, sv, d, b, DSM_BLK_WRITE, fetch);
    return n;
}

int dsm_blk_sig_settle(uint32_t d, int fetch)
{
    dsm_rt *rt = dsm_g;
    struct dsm_blk_sigsave *sv = &dsm_blk_sigsave;
    if (!rt || !rt->region.state)
        return 0;
    int n = 0;
    uint32_t k = atomic_load(&sv->nlog);
    for (uint32_t i = 0; i < k && i < DSM_BLK_SIG_LOG; i++) {
        uint64_t v = atomic_load(&sv->log[i]);
        if (v)
            n |= settle_block(rt, sv, d, (uint32_t)((v >> 8) - 1), (int)(v & 0xff), fetch);
    }
    if (atomic_load(&sv->overflow)) {
        _Atomic(uintptr_t) *w = sv->saved[d];
        uintptr_t a = atomic_load(&w[0]);
        if (a == DSM_BLK_WINDOW_ALL) {
            _Atomic(uintptr_t) *x = sv->saved_wide[d];
            n |= settle_bytes(rt, sv, d, atomic_load(&x[0]), atomic_load(&x[1]), fetch);
            n |= settle_bytes(rt, sv, d, atomic_load(&x[2]), atomic_load(&x[3]), fetch);
        } else if (a) {
            n |= settle_bytes(rt, sv, d, a, a + DSM_BLK_MAX_SPAN, fetch);
        }
        for (int r = 0; r < DSM_BLK_RANGES; r++) {
            uintptr_t lo = atomic_load(&w[1 + 2 * r]);
            if (lo)
                n |= settle_bytes(rt, sv, d, lo, atomic_load(&w[2 + 2 * r]), fetch);
        }
    }
    return n;
}

void dsm_blk_sig_log_reset(void)
{
    struct dsm_blk_sigsave *sv = &dsm_blk_sigsave;
    uint32_t k = atomic_load(&sv->nlog);
    for (uint32_t i = 0; i < k && i < DSM_BLK_SIG_LOG; i++)
        atomic_store(&sv->log[i], 0);
    atomic_store(&sv->nlog, 0);
    atomic_store(&sv->overflow, 0);
}

/* ---- memcpy, memmove, memset on possibly shared memory ---- */

/* Chunks stay inside one block of each shared operand and at most this long,
 * so a window is short. */
#define CHUNK_MAX 4096

static int overlaps_region(const dsm_region *r, const void *p, size_t n)
{
    uintptr_t a = (uintptr_t)p, base = (uintptr_t)r->app;
    return n && a < base + r->size && a + n > base;
}

/* Bytes from p (forward) or up to p (backward, p is one past) that stay in
 * p's block, or `lim` when p is not shared. */
static size_t room(const dsm_region *r, uintptr_t p, int backward, size_t lim)
{
    uintptr_t base = (uintptr_t)r->app, end = base + r->size;
    if (!dsm_region_contains(r, (const void *)(backward ? p - 1 : p))) {
        /* private bytes: up to where the region starts (or ends) */
        if (!backward && p < base && p + lim > base)
            return base - p;
        if (backward && p > end && p - lim < end)
            return p - end;
        return lim;
    }
    size_t bs = r->block_size;
    size_t in = backward ? ((p - 1) & (bs - 1)) + 1 : bs - (p & (bs - 1));
    return in < lim ? in : lim;
}

static void chunk_present(dsm_rt *rt, const void *p, size_t n, int need)
{
    dsm_region *r = &rt->region;
    if (!dsm_region_contains(r, p))
        return;
    uint32_t b = dsm_region_block_of(r, p);
    if (atomic_load((_Atomic uint8_t *)&r->state[b]) < need && !local_grant(rt, b)) {
        dsm_prof_fault_ip = (uintptr_t)__builtin_return_address(0);
        /* a copy's destination is written, not read; its source is read */
        dsm_prof_fault_access = (dsm_prof_access){ (uintptr_t)p, (uint32_t)n,
                                                   (uint8_t)(need == DSM_BLK_READ) };
        dsm_rt_enter(); /* as in make_present */
        dsm_rt_access(rt, b, need == DSM_BLK_WRITE);
        dsm_rt_leave();
        dsm_prof_fault_ip = 0;
        dsm_prof_fault_access = (dsm_prof_access){ 0, 0, 0 };
    }
}

static int chunk_ok(const dsm_region *r, const void *p, int need)
{
    return !dsm_region_contains(r, p) ||
           atomic_load((_Atomic uint8_t *)&r->state[dsm_region_block_of(r, p)]) >= need;
}

/* op: 'c' copy/move, 's' set.  Every chunk is done inside a window that
 * names every block, after both operands' states were seen good in it. */
static void chunked(char *dst, const char *src, int c, size_t n, int op)
{
    dsm_rt *rt = need_rt();
    dsm_region *r = &rt->region;
    int backward = op == 'c' && dst > src && dst < src + n;
    _Atomic(uintptr_t) *win = (_Atomic(uintptr_t) *)&__dsm_blk_window[0];
    atomic_store(win, 0);
    no_range_window(op == 's' ? "memset" : "memcpy");
    register_self();
    while (n) {
        uintptr_t d = (uintptr_t)(backward ? dst + n : dst);
        size_t len = room(r, d, backward, n < CHUNK_MAX ? n : CHUNK_MAX);
        if (op == 'c')
            len = room(r, (uintptr_t)(backward ? src + n : src), backward, len);
        char *dp = backward ? dst + n - len : dst;
        const char *sp = op == 'c' ? (backward ? src + n - len : src) : NULL;
        for (;;) {
            chunk_present(rt, dp, len, DSM_BLK_WRITE);
            if (sp)
                chunk_present(rt, sp, len, DSM_BLK_READ);
            wide_set((uintptr_t)dp, len, (uintptr_t)sp, len);
            atomic_store(win, DSM_BLK_WINDOW_ALL);
            atomic_thread_fence(memory_order_seq_cst);
            if (chunk_ok(r, dp, DSM_BLK_WRITE) && (!sp || chunk_ok(r, sp, DSM_BLK_READ)))
                break;
            atomic_store(win, 0);
        }
        if (op == 'c')
            memmove(dp, sp, len);
        else
            memset(dp, c, len);
        atomic_store(win, 0);
        n -= len;
        if (!backward) {
            dst += len;
            if (src)
                src += len;
        }
    }
}

static int shared_operands(const void *dst, const void *src, size_t n)
{
    const dsm_region *r = __dsm_blk.size && dsm_g ? &dsm_g->region : NULL;
    return r && (overlaps_region(r, dst, n) || (src && overlaps_region(r, src, n)));
}

DSM_API void __dsm_blk_memcpy(void *dst, const void *src, uint64_t n)
{
    if (shared_operands(dst, src, n))
        chunked(dst, src, 0, n, 'c');
    else
        memcpy(dst, src, n);
}

DSM_API void __dsm_blk_memmove(void *dst, const void *src, uint64_t n)
{
    if (shared_operands(dst, src, n))
        chunked(dst, src, 0, n, 'c');
    else
        memmove(dst, src, n);
}

DSM_API void __dsm_blk_memset(void *dst, int c, uint64_t n)
{
    if (shared_operands(dst, NULL, n))
        chunked(dst, NULL, c, n, 's');
    else
        memset(dst, c, n);
}

/* memcmp and bcmp of the checked program: both operands read, chunk by
 * chunk as in chunked(), each chunk compared inside a window after both
 * states were seen good.  The first chunk that differs decides. */
DSM_API int __dsm_blk_memcmp(const void *a, const void *b, uint64_t n)
{
    if (!shared_operands(a, b, n))
        return memcmp(a, b, n);
    dsm_rt *rt = need_rt();
    dsm_region *r = &rt->region;
    const char *pa = a, *pb = b;
    _Atomic(uintptr_t) *win = (_Atomic(uintptr_t) *)&__dsm_blk_window[0];
    atomic_store(win, 0);
    no_range_window("memcmp");
    register_self();
    while (n) {
        size_t len = room(r, (uintptr_t)pa, 0, n < CHUNK_MAX ? n : CHUNK_MAX);
        len = room(r, (uintptr_t)pb, 0, len);
        for (;;) {
            chunk_present(rt, pa, len, DSM_BLK_READ);
            chunk_present(rt, pb, len, DSM_BLK_READ);
            wide_set((uintptr_t)pa, len, (uintptr_t)pb, len);
            atomic_store(win, DSM_BLK_WINDOW_ALL);
            atomic_thread_fence(memory_order_seq_cst);
            if (chunk_ok(r, pa, DSM_BLK_READ) && chunk_ok(r, pb, DSM_BLK_READ))
                break;
            atomic_store(win, 0);
        }
        int d = memcmp(pa, pb, len);
        atomic_store(win, 0);
        if (d)
            return d;
        pa += len, pb += len, n -= len;
    }
    return 0;
}
