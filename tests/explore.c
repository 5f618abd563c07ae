/* explore.c - exhaustive exploration of the coherence engine.
 *
 * Drives the real engine (one proto_engine per node, protocol/engine.c and
 * protocol/table.c as built into libdsmproto) through every reachable
 * interleaving of 3 nodes and 2 blocks: messages travel in one FIFO channel
 * per ordered pair of nodes, and a transition is either the delivery of the
 * head of one channel (proto_receive at its destination) or a step of an
 * application thread (start its next access: a read or a write of block 0 or
 * 1, at most K accesses per node; fault into the engine; wake up; retry; a
 * hold expiring), see "Threads" below.  Configurations for the simulated
 * machines' additions also let the cache of any node evict any block it holds
 * in S, E or M at any moment (proto_evict; a budget of evictions per run
 * bounds the search), with and without replacement hints, and grant reads of
 * unowned blocks exclusive-clean (excl_clean), and let a read of an owned
 * block leave the owner a read-only copy (downgrade_on_read, RECALL_S), and
 * forward requests at owned blocks to the owner, which answers the requester
 * directly (three_hop, the Origin's interventions).
 * With the adaptive protocol (--adapt) a node may also end its epoch at any
 * moment while it has blocks to push or flush (proto_epoch_end: the
 * runtime's releases), and write grants carry their PUSH/FLUSH flag.
 * States (every engine's proto_engine_save bytes, the channels and the
 * harness state) are kept in a hash set; the search is a depth-first search
 * that restores states with proto_engine_load.
 *
 * Checked at every step:
 *  1. single writer / multiple readers: the access rights set by
 *     PA_SET_ACCESS never give one node write access while another has any;
 *     and they always match the engine's cache state (I/IS/IM none, S/SM/SH
 *     read, M/MH write; E/EH read, MI none);
 *  2. every read returns the most recent write: the data is modelled as a
 *     current/stale flag per node and block; a data message carries the flag
 *     of its sender's copy, PA_INSTALL copies it into the receiver's copy, a
 *     write makes the writer's copy current and every other copy and every
 *     data message in flight stale; a read must find its copy current, and
 *     so must a write ("lost write": a store writes one word, the rest of the
 *     block must hold the latest writes, so a lost writeback or a write grant
 *     whose data was not installed shows at the store).  The home's copy is
 *     the home memory (self messages move no data), and it must be current
 *     whenever the directory is Unowned or Shared (a writeback, PUTX, carries
 *     the data home; a PUTE, none, must not be needed);
 *  3. every request completes: a state without enabled transitions must have
 *     every access done, every hold released, every channel empty, every
 *     directory idle and every cache in I, S, E or M (no deadlock); the state
 *     graph must be acyclic
 *     (with a finite budget of accesses, a cycle is a livelock);
 *  4. the engine never returns PROTO_EREJECT or PROTO_EINVAL;
 *  5. "directory": at every new quiescent state (every channel empty, every
 *     directory stable) the directory matches the caches: Exclusive, the
 *     owner alone holds M/MH/E/EH; Unowned, every cache is in I; Shared, the
 *     sharers are in S/SH and nobody else holds a copy, the list exact unless
 *     copies are dropped silently (evictions without hints: a superset); the
 *     queue is empty, nothing is pending, no cache waits for an answer;
 *  6. around every engine call at a block's home (engine_call): "queue
 *     order", the requests still waiting in its queue are the tail of those
 *     waiting before, plus at most the one the call brought; "pattern
 *     detection", the detection's request count grew by the requests the
 *     directory served (the trace: a request event in a state that is not
 *     busy), not those it queued;
 *  7. "inertness": below.
 * A violation prints the path of transitions that led to it.
 *
 * The engines' snapshots carry the pattern detection's state (so a restored
 * engine detects what the original would, and check 6 sees its real
 * counts).  Its counts never enter a state's identity (engine_key); the rest
 * of it does only with --key-patterns (one run of the suite), as it
 * multiplies the states by about ten.
 *
 * Threads, as the runtime (dsm/node.c) runs them: a thread whose access is
 * not allowed faults; it ends its own hold records (proto_release), calls
 * proto_access and sleeps until the block is settled (not IS, IM, SM, MI);
 * on waking it takes a hold record if the block is held for it (SH, MH, EH),
 * then
 * retries the access, which completes or faults again.  A hold record whose
 * access retried may expire at any time (the runtime's DSM_HOLD_US timer,
 * assumed longer than a woken thread takes to retry).  A release ends the
 * engine's hold of the block, so it voids every record of that hold (mutant
 * stale-holds keeps them: the checker then finds a livelock).  With 1 thread
 * on a node the fault and the engine call are one step, and so are the
 * wake-up and the retry (nothing else on the node can come in between);
 * with 2 threads they are separate steps, so another thread's grant, release
 * or request can come in between (Load/Store in S, M, SH, MH, IS, IM, SM).
 *
 * Every table entry the engine applies is recorded (test hook
 * proto_engine_set_trace); the default run fails if a valid entry other than
 * the documented unreachable ones is never applied.
 *
 * Self-check (--mutant): harness-level fault injection that the checker must
 * catch, each by the check named: drop one INV_ACK (deadlock), ignore
 * PA_INSTALL (stale read), ignore PA_SET_ACCESS none (two writers), deliver
 * messages out of FIFO order (rejected pair), keep void hold records
 * (livelock), drop one PUT_ACK (directory: a cache waits in MI with nothing
 * in flight), ignore the data of a PUTX at the home (stale memory), let a
 * node write a block it holds exclusive-clean without telling the engine
 * (stale memory: its PUTE brings nothing home), let an owner downgraded by
 * RECALL_S keep its write access (coherence: it writes while the reader
 * reads), ignore the data of a DATA_X (lost write), drop one PUTS
 * (directory: the home lists a node without a copy, with hints).
 * The default run (make check) runs the clean configurations and asserts
 * that each mutant is detected by its check.  The engine's own bugs are
 * planted by tests/mutants.sh, which runs --mutation against each.
 *
 * usage: explore             the whole suite (used by make check)
 *        explore --mutation  the suite's runs up to the first violation
 *        explore --help      the options of a single run
 */
#include "engine_internal.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#define NN 3        /* nodes */
#define NB 2        /* blocks */
#define MAXT 2      /* threads per node */
#define CHCAP 16    /* messages per channel */
#define EMAX 512    /* bytes of one engine snapshot */

/* Thread phases: between accesses; faulted (about to call the engine);
 * waiting for the block to settle; woken (about to retry the access). */
enum { TH_IDLE, TH_FAULTED, TH_WAITING, TH_READY };
/* Hold record of a thread: none; taken at the wake-up, the access has not
 * retried yet; the access retried (the hold may expire). */
enum { HOLD_NONE, HOLD_PRE, HOLD_POST };
enum { T_DELIVER, T_ISSUE, T_CALL, T_WAKE, T_RETRY, T_EXPIRE, T_EVICT, T_EPOCH };
enum { M_NONE, M_DROP_INV_ACK, M_NO_INSTALL, M_KEEP_ACCESS, M_NONFIFO, M_STALE_HOLDS, M_NOT_INERT,
       M_DROP_PUT_ACK, M_PUTX_NO_DATA, M_SILENT_E_WRITE, M_DOWNGRADE_KEEPS_WRITE, M_NO_INSTALL_X,
       M_DROP_PUTS, M_COUNT };
static const char *const mutant_names[M_COUNT] = {
    "none", "drop-inv-ack", "no-install", "keep-access", "nonfifo", "stale-holds", "not-inert",
    "drop-put-ack", "putx-no-data", "silent-e-write", "downgrade-keeps-write", "no-install-data-x",
    "drop-puts",
};
/* The check each injected fault must trip (start of the violation message). */
static const char *const mutant_expect[M_COUNT] = {
    "", "deadlock", "stale read", "coherence", "engine error", "livelock", "inertness",
    "directory", "stale memory", "stale memory", "coherence", "lost write", "directory",
};

typedef struct {
    uint8_t phase, block, write;
    uint8_t hold, hblock;     /* the thread's hold record (HOLD_*) and its block */
} thread_st;

/* Harness state; plain bytes, zeroed before use, so it can be hashed. */
typedef struct {
    uint8_t access[NN][NB];
    uint8_t fresh[NN][NB];    /* the node's copy of the block holds the latest write */
    uint8_t budget[NN];       /* accesses the node may still start */
    uint8_t dropped;          /* mutants drop-inv-ack, drop-put-ack, drop-puts: the message is gone */
    uint8_t evicts;           /* evictions the caches may still make */
    uint8_t cstate[NN][NB];   /* mirror of the engines' cache states (not encoded: implied) */
    thread_st th[NN][MAXT];
    uint8_t chlen[NN][NN];
    uint16_t ch[NN][NN][CHCAP]; /* type | block << 5 | fresh << 6 | flags << 8 */
    uint8_t epoch[NN];        /* the node has blocks to push or flush at its epoch's end
                                 (not encoded: implied by its engine) */
} hstate;

typedef struct {
    hstate h;
    uint16_t elen[NN];
    uint16_t plen[NN];        /* where the pattern records start in eb (engine_key) */
    uint8_t eb[NN][EMAX];
} world;

typedef struct {
    uint8_t kind, node, a, b;
} trans;

#define MSG_TYPE(c) ((c) & 31)
#define MSG_BLOCK(c) (((c) >> 5) & 1)
#define MSG_FRESH(c) (((c) >> 6) & 1)
#define MSG_FLAGS(c) ((c) >> 8)   /* a write grant's PROTO_MSG_PUSH, PROTO_MSG_FLUSH */
#define MSG_MAKE(t, b, f, fl) ((uint16_t)((t) | (b) << 5 | (f) << 6 | (fl) << 8))
/* A forwarded request (three_hop) carries no data: its bit 6 names the
 * requester, the higher (1) or lower (0) of the two nodes other than its
 * destination (the owner is never the requester). */
static int is_fwd(int type) { return type == PM_FWD_GETS || type == PM_FWD_GETX; }
static int fwd_req_bit(int dst, int req) { return req == (dst == NN - 1 ? NN - 2 : NN - 1); }
static int fwd_req_of(int dst, int bit)
{
    int lo = dst == 0 ? 1 : 0, hi = dst == NN - 1 ? NN - 2 : NN - 1;
    return bit ? hi : lo;
}

/* ---- configuration of one run ---- */
typedef struct {
    int threads[NN];  /* application threads of each node */
    int budget[NN];   /* accesses each node starts */
    int home1;        /* home of block 1 (block 0's is node 0) */
    int blocks;       /* blocks the threads access: 1 (block 0 only) or 2 */
    int mutant;
    int evicts;       /* evictions per run (any node, any block in S, E or M) */
    int hints;        /* proto_config.replacement_hints */
    int excl;         /* proto_config.excl_clean */
    int downgrade;    /* proto_config.downgrade_on_read */
    int key_patterns; /* the pattern detection's state is part of a state's identity */
    int adapt;        /* proto_config.adapt: the detection changes the grants (implies
                         key_patterns; the shadow then checks the snapshot, not inertness) */
    int prologue;     /* the search starts after the group prologue (run_prologue): nodes 0
                         and 1 read blocks 0 then 1, each access to completion (their
                         budgets include these four accesses) */
} config;
static config cfg;
/* Three-hop interventions (proto_config.three_hop): the suite's runs of
 * THREE_HOP_RUNS and --three-hop.  Beside the config rather than in it, so
 * that the configurations above need not spell it. */
static int cfg_three_hop;
/* proto_config.prefetch 2 (with adapt): a read miss brings the next block of
 * its home along (GROUP_DATA) without a known group; --prefetch and the
 * suite's PREFETCH_RUN, beside the config for the same reason */
static int cfg_prefetch;
#define cfg_threads MAXT  /* thread slots encoded per node */
#define cfg_mutant cfg.mutant
#define cfg_blocks cfg.blocks
static proto_engine *E[NN];
static int home_of[NB];

/* ---- coverage ---- */
static unsigned long cov_cache[PC_NSTATES][CE_NEVENTS], cov_dir[PD_NSTATES][DE_NEVENTS];
static unsigned long run_cov_cache[PC_NSTATES][CE_NEVENTS], run_cov_dir[PD_NSTATES][DE_NEVENTS];

static unsigned long served_now; /* requests the directory served in the engine call (below) */
static long called_plen;         /* engine_call: where the pattern records start in its result */

static int is_request_event(int ev)
{
    return ev == DE_GETS || ev == DE_GETX || ev == DE_UPGRADE_SOLE || ev == DE_UPGRADE_OTHERS ||
           ev == DE_UPGRADE_STALE || ev == DE_GETS_EXCL_CLEAN || ev == DE_GETS_DOWNGRADE ||
           ev == DE_GETS_MIGRATORY || ev == DE_GETS_FWD || ev == DE_GETX_FWD ||
           ev == DE_GETS_GROUP;
}

static void trace_hook(void *arg, int side, int state, int event)
{
    (void)arg;
    if (side == 0) {
        run_cov_cache[state][event]++;
    } else {
        run_cov_dir[state][event]++;
        served_now += is_request_event(event) && state != PD_BUSY_INV && state != PD_BUSY_RECALL;
    }
}

/* ---- state store: hash compaction ----
 * A state is remembered by a 128-bit hash of its encoding, not by the
 * encoding itself (the DFS stack keeps decoded states; the store only
 * answers "seen before?").  Two distinct states with the same 128-bit hash
 * would make the second look visited and its subtree unexplored: with n
 * states the odds are about n^2 / 2^129, below 10^-25 for the suite's
 * largest run (6 million states).  Keeping the encodings (an arena of
 * 100-200 bytes a state) made the store the run's main cost: a cache miss
 * into the arena for every transition and half a gigabyte touched. */
typedef struct {
    uint64_t hash, check;
    uint32_t id; /* 0: empty; else state id + 1 */
} slot;

static uint8_t *st_flags;  /* per state: 1 on the DFS stack */
static size_t nstates, st_cap;
static slot *table;
static size_t table_cap;

/* Two independent 64-bit hashes of p[0..n) in one pass. */
static void hash_bytes(const unsigned char *p, size_t n, uint64_t *h1, uint64_t *h2)
{
    uint64_t a = 0x9e3779b97f4a7c15ull ^ n, b = 0x6a09e667f3bcc909ull + n;
    while (n >= 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        a = (a ^ w) * 0xff51afd7ed558ccdull;
        a ^= a >> 32;
        b = (b + w) * 0x9fb21c651e98df25ull;
        b ^= b >> 29;
        p += 8;
        n -= 8;
    }
    uint64_t w = 0;
    memcpy(&w, p, n);
    a = (a ^ w) * 0xc4ceb9fe1a85ec53ull;
    a ^= a >> 29;
    a *= 0xff51afd7ed558ccdull;
    a ^= a >> 32;
    b = (b + w) * 0xc2b2ae3d27d4eb4full;
    b ^= b >> 31;
    b *= 0x94d049bb133111ebull;
    b ^= b >> 29;
    *h1 = a;
    *h2 = b;
}

static void *xrealloc(void *p, size_t n)
{
    p = realloc(p, n);
    if (!p) {
        fprintf(stderr, "explore: out of memory\n");
        exit(99);
    }
    return p;
}

/* The table is probed at a random slot for every transition: on huge pages
 * (where the kernel gives them on request) the probe's TLB miss, which a
 * virtual machine makes a two-level page walk, mostly goes away. */
static slot *table_alloc(size_t n)
{
    void *p = mmap(NULL, n * sizeof(slot), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
        fprintf(stderr, "explore: out of memory\n");
        exit(99);
    }
#ifdef MADV_HUGEPAGE
    if (n * sizeof(slot) >= (2u << 20))
        madvise(p, n * sizeof(slot), MADV_HUGEPAGE);
#endif
    return p;
}

static void table_free(slot *t, size_t n)
{
    if (t)
        munmap(t, n * sizeof(slot));
}

static void store_reset(void)
{
    free(st_flags);
    table_free(table, table_cap);
    st_flags = NULL;
    nstates = st_cap = 0;
    table_cap = 1 << 16;
    table = table_alloc(table_cap);
}

static void table_grow(void)
{
    size_t ncap = table_cap * 2;
    slot *nt = table_alloc(ncap);
    for (size_t i = 0; i < table_cap; i++) {
        if (!table[i].id)
            continue;
        size_t j = table[i].hash & (ncap - 1);
        while (nt[j].id)
            j = (j + 1) & (ncap - 1);
        nt[j] = table[i];
    }
    table_free(table, table_cap);
    table = nt;
    table_cap = ncap;
}

/* Finds or adds a state; *added = 1 when added. */
static size_t store_intern(const unsigned char *p, size_t n, int *added)
{
    uint64_t h, c;
    hash_bytes(p, n, &h, &c);
    size_t j = h & (table_cap - 1);
    while (table[j].id) {
        if (table[j].hash == h && table[j].check == c) {
            *added = 0;
            return table[j].id - 1;
        }
        j = (j + 1) & (table_cap - 1);
    }
    if (nstates == st_cap) {
        st_cap = st_cap ? st_cap * 2 : 1 << 16;
        st_flags = xrealloc(st_flags, st_cap);
    }
    st_flags[nstates] = 0;
    table[j].hash = h;
    table[j].check = c;
    table[j].id = (uint32_t)(nstates + 1);
    *added = 1;
    nstates++;
    if (nstates * 2 > table_cap)
        table_grow();
    return nstates - 1;
}

/* ---- encoding: harness state, channels, engine snapshots (minus the
 * constant home array at their start).  The DFS stack keeps decoded states,
 * so the store needs no decoder. ---- */
#define HOME_BYTES (sizeof(int32_t) * NB)

static int expected_access(int cs);

/* Length of the variable-length integer at p (protocol/engine.c's pattern
 * records). */
static size_t var_len(const unsigned char *p)
{
    size_t k = 1;
    while (p[k - 1] & 0x80)
        k++;
    return k;
}

/* An engine snapshot as a part of the state's key: its protocol state,
 * and with --key-patterns its pattern records too, but for what the
 * detection only counts or reports (the detection counts, the request
 * count, the current pattern flags): the engine never reads those back, so
 * states that differ only in them have the same continuations, and the
 * check on them (engine_call) looks at their changes, not their values;
 * keyed, they would multiply the states by every history of counts.  What
 * the rules read (last owner, group guess, first reader, reads begun,
 * written after, every node's last block) multiplies the states by about
 * ten, so the suite keys it in one configuration; elsewhere the first
 * pattern state to reach a protocol state stands for the others (the
 * snapshot restores it exactly, so every path's detection is still the one
 * the engine would make, and the checks hold along it). */
static size_t engine_key(const unsigned char *eb, size_t len, size_t plen, unsigned char *out)
{
    size_t n = 2, l = plen - HOME_BYTES;
    memcpy(out + n, eb + HOME_BYTES, l);
    n += l;
    const unsigned char *p = eb + plen, *end = eb + len;
    uint8_t aug = *p++;
    out[n++] = aug;
    if (aug && cfg.key_patterns) {
        for (int i = 0; i < NN; i++) { /* last block of every node */
            size_t k = var_len(p);
            memcpy(out + n, p, k), n += k, p += k;
        }
        while (p < end) {
            for (int k = 0; k < PP_NPATTERNS; k++) /* detections: counts */
                p += var_len(p);
            for (int k = 0; k < 3; k++) { /* last owner, group, guess */
                size_t v = var_len(p);
                memcpy(out + n, p, v), n += v, p += v;
            }
            p += var_len(p); /* requests: a count */
            size_t v = var_len(p); /* first reader */
            memcpy(out + n, p, v), n += v, p += v;
            /* two readers, reading, written after; of the flags only what
             * the adaptive protocol reads (migratory, in group) */
            out[n++] = *p++ & (cfg.adapt ? 0x77 : 0x70);
            out[n++] = *p++; /* the adaptive protocol's state */
            size_t k = var_len(p); /* its consumers */
            memcpy(out + n, p, k), n += k, p += k;
            k = var_len(p); /* the group's link (the bulk fetch follows it) */
            memcpy(out + n, p, k), n += k, p += k;
        }
    }
    out[0] = (uint8_t)(n - 2);
    out[1] = (uint8_t)((n - 2) >> 8);
    return n;
}

static size_t encode(const world *w, unsigned char *out)
{
    size_t n = 0;
    const hstate *h = &w->h;
    memcpy(out + n, h->access, sizeof h->access), n += sizeof h->access;
    /* A copy outside the home that the node cannot read (I, IS, IM) is
     * garbage whatever its flag: it must be installed before it is read. */
    for (int i = 0; i < NN; i++)
        for (int b = 0; b < NB; b++)
            out[n++] = h->fresh[i][b] && (home_of[b] == i || expected_access(h->cstate[i][b]));
    memcpy(out + n, h->budget, sizeof h->budget), n += sizeof h->budget;
    out[n++] = h->dropped;
    out[n++] = h->evicts;
    for (int i = 0; i < NN; i++)
        for (int t = 0; t < cfg_threads; t++)
            out[n++] = (uint8_t)(h->th[i][t].phase | h->th[i][t].block << 2 |
                                 h->th[i][t].write << 3 | h->th[i][t].hold << 4 |
                                 h->th[i][t].hblock << 6);
    for (int s = 0; s < NN; s++)
        for (int d = 0; d < NN; d++) {
            if (s == d)
                continue;
            out[n++] = h->chlen[s][d];
            /* a message's flags (bit 7 of its low byte says they follow):
             * one byte a message without them, as the runs without the
             * adaptive protocol always are */
            for (int k = 0; k < h->chlen[s][d]; k++) {
                uint16_t c = h->ch[s][d][k];
                out[n++] = (uint8_t)(c | (MSG_FLAGS(c) ? 0x80 : 0));
                if (MSG_FLAGS(c))
                    out[n++] = (uint8_t)MSG_FLAGS(c);
            }
        }
    for (int i = 0; i < NN; i++)
        n += engine_key(w->eb[i], w->elen[i], w->plen[i], out + n);
    return n;
}

/* ---- transitions ---- */

static int enabled(const world *w, trans *tr)
{
    int n = 0;
    const hstate *h = &w->h;
    for (int s = 0; s < NN; s++)
        for (int d = 0; d < NN; d++) {
            if (s == d || !h->chlen[s][d])
                continue;
            int k = cfg_mutant == M_NONFIFO ? h->chlen[s][d] : 1;
            for (int i = 0; i < k; i++)
                tr[n++] = (trans){ T_DELIVER, (uint8_t)d, (uint8_t)s, (uint8_t)i };
        }
    for (int i = 0; i < NN; i++)
        for (int t = 0; t < cfg.threads[i]; t++) {
            const thread_st *th = &h->th[i][t];
            if (th->phase == TH_IDLE && h->budget[i] > 0) {
                for (int op = 0; op < 2 * cfg_blocks; op++)
                    tr[n++] = (trans){ T_ISSUE, (uint8_t)i, (uint8_t)t, (uint8_t)op };
            } else if (th->phase == TH_FAULTED) {
                tr[n++] = (trans){ T_CALL, (uint8_t)i, (uint8_t)t, 0 };
            } else if (th->phase == TH_WAITING && proto_cache_settled((proto_cache_state)h->cstate[i][th->block])) {
                tr[n++] = (trans){ T_WAKE, (uint8_t)i, (uint8_t)t, 0 };
            } else if (th->phase == TH_READY) {
                tr[n++] = (trans){ T_RETRY, (uint8_t)i, (uint8_t)t, 0 };
            }
            if (th->hold == HOLD_POST)
                tr[n++] = (trans){ T_EXPIRE, (uint8_t)i, (uint8_t)t, 0 };
        }
    if (h->evicts)
        for (int i = 0; i < NN; i++)
            for (int b = 0; b < cfg_blocks; b++) {
                int cs = h->cstate[i][b];
                if (cs == PC_S || cs == PC_E || cs == PC_M)
                    tr[n++] = (trans){ T_EVICT, (uint8_t)i, (uint8_t)b, 0 };
            }
    for (int i = 0; i < NN; i++)
        if (h->epoch[i])
            for (int k = PROTO_EPOCH_PUSH; k <= 3; k += 2) /* a barrier; an unlock */
                tr[n++] = (trans){ T_EPOCH, (uint8_t)i, (uint8_t)k, 0 };
    return n;
}

static void describe(const world *w, const trans *t, char *buf, size_t cap)
{
    const hstate *h = &w->h;
    const thread_st *th = &h->th[t->node][t->a];
    switch (t->kind) {
    case T_DELIVER: {
        uint16_t c = h->ch[t->a][t->node][t->b];
        snprintf(buf, cap, "deliver %s%s%s %d->%d block %d%s", proto_msg_name(MSG_TYPE(c)),
                 MSG_FLAGS(c) == PROTO_MSG_PUSH ? "(push at the epoch's end)"
                 : MSG_FLAGS(c) == PROTO_MSG_FLUSH ? "(flush at the epoch's end)" : "",
                 proto_msg_has_data(MSG_TYPE(c)) ? (MSG_FRESH(c) ? "(current data)" : "(stale data)")
                                                 : "",
                 t->a, t->node, MSG_BLOCK(c), t->b ? " (out of FIFO order)" : "");
        break;
    }
    case T_ISSUE:
        snprintf(buf, cap, "node %d thread %d starts a %s of block %d%s", t->node, t->a,
                 (t->b & 1) ? "write" : "read", t->b >> 1,
                 cfg.threads[t->node] == 1 ? " (if it faults: proto_access at once)" : "");
        break;
    case T_CALL:
        snprintf(buf, cap, "node %d thread %d faults: %sproto_access(block %d, %s)", t->node, t->a,
                 th->hold ? "proto_release of its hold, " : "", th->block,
                 th->write ? "Store" : "Load");
        break;
    case T_WAKE:
        snprintf(buf, cap, "node %d thread %d wakes (block %d settled in %s)%s", t->node, t->a,
                 th->block, proto_cache_state_name(h->cstate[t->node][th->block]),
                 cfg.threads[t->node] == 1 ? " and retries its access" : "");
        break;
    case T_RETRY:
        snprintf(buf, cap, "node %d thread %d retries its %s of block %d", t->node, t->a,
                 th->write ? "write" : "read", th->block);
        break;
    case T_EPOCH:
        snprintf(buf, cap, "node %d ends its epoch (%s: proto_epoch_end)", t->node,
                 t->a == PROTO_EPOCH_PUSH ? "a barrier, pushes only" : "an unlock");
        break;
    case T_EVICT:
        snprintf(buf, cap, "node %d evicts block %d from state %s (proto_evict)", t->node, t->a,
                 proto_cache_state_name(h->cstate[t->node][t->a]));
        break;
    default:
        snprintf(buf, cap, "node %d: the hold of thread %d on block %d expires (proto_release)",
                 t->node, t->a, th->hblock);
    }
}

static char verr[1024];

static int fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(verr, sizeof verr, fmt, ap);
    va_end(ap);
    return -1;
}

static int permitted(const hstate *h, int node, int block, int write)
{
    /* mutant silent-e-write: a store to an exclusive-clean block performs
     * without a fault, so the engine never learns the block is dirty */
    if (cfg_mutant == M_SILENT_E_WRITE && write &&
        (h->cstate[node][block] == PC_E || h->cstate[node][block] == PC_EH))
        return 1;
    return h->access[node][block] >= (write ? PROTO_ACCESS_WRITE : PROTO_ACCESS_READ);
}

/* A thread performs its access: the completion of one operation. */
static int perform(hstate *h, int node, int t)
{
    thread_st *th = &h->th[node][t];
    int b = th->block;
    /* A store writes one word of the block: the rest of the copy must hold
     * the latest writes, or they are lost (a store to a stale copy does not
     * cover it up by making it current). */
    if (th->write && !h->fresh[node][b])
        return fail("lost write: node %d thread %d writes block %d but its copy does not hold the "
                    "latest write (a store overwrites part of the block only)", node, t, b);
    if (th->write) {
        for (int i = 0; i < NN; i++)
            h->fresh[i][b] = i == node;
        for (int s = 0; s < NN; s++)
            for (int d = 0; d < NN; d++)
                for (int k = 0; k < h->chlen[s][d]; k++) {
                    uint16_t c = h->ch[s][d][k];
                    if (MSG_BLOCK(c) == b && proto_msg_has_data(MSG_TYPE(c)))
                        h->ch[s][d][k] = MSG_MAKE(MSG_TYPE(c), b, 0, MSG_FLAGS(c));
                }
    } else if (!h->fresh[node][b]) {
        return fail("stale read: node %d thread %d reads block %d but its copy does not hold the "
                    "latest write", node, t, b);
    }
    th->phase = TH_IDLE;
    th->block = th->write = 0;  /* canonical: an idle thread has no access */
    return 0;
}

static int expected_access(int cs)
{
    switch (cs) {
    case PC_S: case PC_SM: case PC_SH: case PC_E: case PC_EH: return PROTO_ACCESS_READ;
    case PC_M: case PC_MH: return PROTO_ACCESS_WRITE;
    default: return PROTO_ACCESS_NONE;
    }
}

static proto_actions acts;

static const char *rc_name(int rc)
{
    return rc == PROTO_EREJECT ? "PROTO_EREJECT" : rc == PROTO_EINVAL ? "PROTO_EINVAL" : "error";
}

/* Performs the actions the engine of node n returned.  msg_data: the flag of
 * the data message being handled, or -1; waiter: the thread whose access
 * faulted (PA_WAIT allowed), or -1. */
static int run_actions(hstate *h, int n, int msg_data, int waiter)
{
    for (size_t i = 0; i < acts.n; i++) {
        const proto_action *a = &acts.v[i];
        int b = (int)a->block;
        if (b < 0 || b >= NB)
            return fail("actions: node %d: action on block %d", n, b);
        switch (a->kind) {
        case PA_SEND: {
            int d = a->msg.dst;
            if (d == n || d < 0 || d >= NN || a->msg.src != n || (int)a->msg.block != b)
                return fail("actions: node %d: bad PA_SEND (src %d dst %d)", n, a->msg.src, d);
            if (h->chlen[n][d] == CHCAP)
                return fail("actions: channel %d->%d overflows", n, d);
            int f = proto_msg_has_data(a->msg.type) ? h->fresh[n][b] : 0;
            if (is_fwd(a->msg.type)) {
                if (a->msg.req >= NN || a->msg.req == d)
                    return fail("actions: node %d: %s to %d names requester %d", n,
                                proto_msg_name(a->msg.type), d, a->msg.req);
                f = fwd_req_bit(d, a->msg.req);
            }
            h->ch[n][d][h->chlen[n][d]++] =
                MSG_MAKE(a->msg.type, b, f, a->msg.flags & (PROTO_MSG_PUSH | PROTO_MSG_FLUSH));
            break;
        }
        case PA_SET_ACCESS:
            if (cfg_mutant == M_KEEP_ACCESS && a->access == PROTO_ACCESS_NONE)
                break;  /* the injected fault */
            if (cfg_mutant == M_DOWNGRADE_KEEPS_WRITE && a->access == PROTO_ACCESS_READ &&
                h->access[n][b] == PROTO_ACCESS_WRITE)
                break;  /* the injected fault: a downgraded owner keeps writing */
            h->access[n][b] = a->access;
            break;
        case PA_INSTALL:
            if (msg_data == -1)
                return fail("actions: node %d: PA_INSTALL while handling no data message", n);
            if (cfg_mutant != M_NO_INSTALL && msg_data != -2)
                h->fresh[n][b] = (uint8_t)msg_data;
            break;
        case PA_COMPLETE:
            break;  /* the runtime wakes its waiters, which check whether the block settled */
        case PA_WAIT:
            if (waiter < 0 || h->th[n][waiter].block != b)
                return fail("actions: node %d: PA_WAIT outside the access that faulted", n);
            break;
        default:
            return fail("actions: node %d: unknown action kind %d", n, a->kind);
        }
    }
    acts.n = 0;
    return 0;
}

/* ---- inertness of the augmentation ----
 * Every engine call is made twice: on the node's engine (augmentation on)
 * and on a shadow copy of it with the augmentation off.  The return codes,
 * the actions and the resulting protocol state must be the same: the
 * pattern detection never changes what the protocol does.  (The protocol
 * states are compared as saved with the augmentation off: the snapshot of
 * an engine that detects patterns carries its pattern records too.) */
static proto_engine *S[NN];
static proto_actions sacts;
static unsigned long inert_calls;
enum { CALL_RECEIVE, CALL_ACCESS, CALL_RELEASE, CALL_EVICT, CALL_EPOCH };
#define CALL_FAIL (-100) /* engine_call's own check failed; verr says why */

static int same_action(const proto_action *a, const proto_action *b)
{
    if (a->kind != b->kind || a->block != b->block)
        return 0;
    if (a->kind == PA_SET_ACCESS && a->access != b->access)
        return 0;
    if (a->kind == PA_SEND && (a->msg.type != b->msg.type || a->msg.src != b->msg.src ||
                               a->msg.dst != b->msg.dst || a->msg.block != b->msg.block))
        return 0;
    return 1;
}

static size_t save_protocol(proto_engine *e, unsigned char *buf)
{
    int on = proto_augment_enabled(e);
    proto_set_augment(e, 0);
    size_t l = proto_engine_save(e, buf, EMAX);
    proto_set_augment(e, on);
    return l;
}

/* ---- the home's queue and its request count ----
 * Around every call at a block's home: the requests waiting in its queue
 * afterwards must be the last ones of those waiting before, plus at most
 * the one this call brought (a FIFO: served from the front, appended at the
 * back, never reordered); and the pattern detection's request count must
 * grow by the requests the directory served, not queued (every request in
 * a busy state is queued, every other one served: table.c). */
#define QMAX 16
typedef struct {
    uint32_t n;
    dir_waiter w[QMAX];
} qcopy;

static int queue_copy(const proto_engine *e, uint32_t b, qcopy *c)
{
    const dir_entry *d = engine_dir_at(e, b);
    c->n = d && d->q ? d->q->len : 0;
    if (c->n > QMAX)
        return fail("queue: block %u has %u requests waiting at its home", b, c->n);
    for (uint32_t i = 0; i < c->n; i++)
        c->w[i] = d->q->w[(d->q->head + i) % d->q->cap];
    return 0;
}

static int same_waiters(const dir_waiter *a, const dir_waiter *b, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        if (a[i].node != b[i].node || a[i].type != b[i].type)
            return 0;
    return 1;
}

/* after == the last after->n of before, or those and one new waiter of
 * node `newcomer` at the back */
static int queue_follows(const qcopy *before, const qcopy *after, int newcomer)
{
    uint32_t k = before->n, a = after->n;
    if (a <= k && same_waiters(before->w + (k - a), after->w, a))
        return 1;
    return a >= 1 && a - 1 <= k && same_waiters(before->w + (k - (a - 1)), after->w, a - 1) &&
           after->w[a - 1].node == newcomer;
}


/* ---- calls already checked ----
 * The engine's answer depends only on its snapshot and the call (the run's
 * options are fixed, and a state outside the snapshot that mattered would
 * fail the check above on first sight), so a (snapshot, call) pair checked
 * once in a run would pass again: an exhaustive run makes each of a few
 * hundred thousand distinct local calls tens of times, from different
 * global states.  The pair is remembered by a 128-bit hash (a collision
 * would skip one check, at odds of about 2^-100 a run) with what the check
 * computed for the caller (called_plen); a full table stops remembering. */
typedef struct {
    uint64_t a, b; /* b == 0: empty */
    long plen;
} checked_slot;
#define CHECKED_BITS 21
static checked_slot *checked;
static size_t checked_used;
static unsigned long checked_skips;

static void checked_reset(void)
{
    if (!checked && !(checked = calloc((size_t)1 << CHECKED_BITS, sizeof *checked))) {
        fprintf(stderr, "explore: out of memory\n");
        exit(99);
    }
    memset(checked, 0, ((size_t)1 << CHECKED_BITS) * sizeof *checked);
    checked_used = 0;
}

static uint64_t mix64(uint64_t h)
{
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    return h ^ (h >> 33);
}

/* The key of a call: the store's hash of the snapshot (hash_bytes), the
 * call's arguments mixed into both halves. */
static void call_key(const unsigned char *snap, size_t l, int n, int kind, const proto_msg *m,
                     uint32_t block, int write, uint64_t *ka, uint64_t *kb)
{
    uint64_t a, b;
    hash_bytes(snap, l, &a, &b);
    uint64_t args[3] = { (uint64_t)n | (uint64_t)kind << 8 | (uint64_t)(write != 0) << 16 |
                             (uint64_t)block << 32,
                         m ? (uint64_t)m->type | (uint64_t)m->flags << 8 | (uint64_t)m->req << 16 |
                                 (uint64_t)m->block << 32
                           : 0,
                         m ? (uint64_t)(uint32_t)m->src | (uint64_t)(uint32_t)m->dst << 32 : 0 };
    for (int i = 0; i < 3; i++) {
        a = mix64(a ^ args[i]);
        b = mix64(b + args[i] * 0x9fb21c651e98df25ULL);
    }
    *ka = a;
    *kb = b | 1; /* 0 marks an empty slot */
}

/* The slot of key (a, b): its own, or the empty one it would take; NULL
 * when the table is too full to look further. */
static checked_slot *checked_find(uint64_t a, uint64_t b)
{
    size_t mask = ((size_t)1 << CHECKED_BITS) - 1;
    for (size_t i = a & mask, probes = 0; probes < 64; i = (i + 1) & mask, probes++)
        if (checked[i].b == 0 || (checked[i].a == a && checked[i].b == b))
            return &checked[i];
    return NULL;
}

static int engine_call(int n, int kind, const proto_msg *m, uint32_t block, int write)
{
    static unsigned char before[EMAX], after1[EMAX], after2[EMAX];
    uint32_t b = kind == CALL_RECEIVE ? m->block : block;
    int at_home = b < NB && home_of[b] == n;
    qcopy q0, q1;
    proto_block_patterns p0, p1;
    if (at_home && (queue_copy(E[n], b, &q0) || proto_patterns_of(E[n], b, &p0)))
        return CALL_FAIL;
    size_t l = proto_engine_save(E[n], before, EMAX);
    if (l > EMAX)
        return (void)fail("harness: cannot copy node %d's engine", n), CALL_FAIL;
    uint64_t ka, kb;
    call_key(before, l, n, kind, m, block, write, &ka, &kb);
    checked_slot *seen = checked_find(ka, kb);
    int again = seen && seen->b == kb;
    if (!again && proto_engine_load(S[n], before, l) != PROTO_OK)
        return (void)fail("harness: cannot copy node %d's engine", n), CALL_FAIL;
    size_t from = acts.n;
    served_now = 0;
    int rc = kind == CALL_RECEIVE  ? proto_receive(E[n], m, &acts)
             : kind == CALL_ACCESS ? proto_access(E[n], block, write, &acts)
             : kind == CALL_EVICT  ? proto_evict(E[n], block, &acts)
             : kind == CALL_EPOCH  ? proto_epoch_end(E[n], (int)block, &acts)
                                   : proto_release(E[n], block, &acts);
    inert_calls++;
    if (again) {
        checked_skips++;
        called_plen = seen->plen;
        goto home_checks;
    }
    sacts.n = 0;
    int rc2 = kind == CALL_RECEIVE  ? proto_receive(S[n], m, &sacts)
              : kind == CALL_ACCESS ? proto_access(S[n], block, write, &sacts)
              : kind == CALL_EVICT  ? proto_evict(S[n], block, &sacts)
              : kind == CALL_EPOCH  ? proto_epoch_end(S[n], (int)block, &sacts)
                                    : proto_release(S[n], block, &sacts);
    if (cfg_mutant == M_NOT_INERT && sacts.n)
        sacts.n--; /* the injected fault: as if the augmentation had dropped an action */
    if (rc != rc2 || acts.n - from != sacts.n)
        return (void)fail("inertness: node %d: with the augmentation on the engine returned %d with "
                    "%zu actions, off %d with %zu", n, rc, acts.n - from, rc2, sacts.n), CALL_FAIL;
    for (size_t i = 0; i < sacts.n; i++)
        if (!same_action(&acts.v[from + i], &sacts.v[i]))
            return (void)fail("inertness: node %d: action %zu differs with the augmentation off", n, i), CALL_FAIL;
    size_t l1 = save_protocol(E[n], after1), l2 = proto_engine_save(S[n], after2, EMAX);
    called_plen = (long)l1 - 1; /* the protocol part, without its "no records" byte */
    if (cfg.adapt) /* the shadow detects too: the whole snapshot must agree */
        l1 = proto_engine_save(E[n], after1, EMAX);
    if (l1 != l2 || memcmp(after1, after2, l1 < EMAX ? l1 : EMAX))
        return (void)fail(cfg.adapt ? "snapshot: node %d: the state differs from a copy restored from its snapshot"
                                    : "inertness: node %d: protocol state differs with the augmentation off", n), CALL_FAIL;
    if (seen && checked_used < ((size_t)1 << CHECKED_BITS) / 4 * 3) {
        seen->a = ka;
        seen->b = kb;
        seen->plen = called_plen;
        checked_used++;
    }
home_checks:
    if (at_home && rc == PROTO_OK) {
        if (queue_copy(E[n], b, &q1) || proto_patterns_of(E[n], b, &p1))
            return CALL_FAIL;
        if (!queue_follows(&q0, &q1, kind == CALL_RECEIVE ? m->src : n))
            return (void)fail("queue order: the requests waiting at the home of block %u were "
                              "not served first come, first served", b), CALL_FAIL;
        if (p1.requests - p0.requests != served_now)
            return (void)fail("pattern detection: the home of block %u counted %u requests, but "
                              "served %lu", b, p1.requests - p0.requests, served_now), CALL_FAIL;
    }
    return rc;
}

static int release_hold(hstate *h, int n, int t)
{
    thread_st *th = &h->th[n][t];
    int rc = engine_call(n, CALL_RELEASE, NULL, th->hblock, 0);
    if (rc == CALL_FAIL)
        return -1;
    if (rc != PROTO_OK)
        return fail("engine error: %d (%s) on node %d: %s", rc, rc_name(rc), n,
                    proto_last_error(E[n]));
    /* The engine holds a block for one grant at a time and this release
     * ended it: the records other threads keep of that hold are void now.
     * Kept, they would later end the hold of a newer grant before its access
     * retried (mutant stale-holds: two threads of a node can then take a
     * block from each other for ever). */
    for (int k = 0; k < cfg.threads[n]; k++)
        if (k == t || (cfg_mutant != M_STALE_HOLDS && h->th[n][k].hold &&
                       h->th[n][k].hblock == th->hblock)) {
            if (k != t)
                h->th[n][k].hold = HOLD_NONE, h->th[n][k].hblock = 0;
        }
    th->hold = HOLD_NONE;
    th->hblock = 0;
    return run_actions(h, n, -1, -1);
}

/* The thread wakes up: it takes a hold if the grant is held for it (as the
 * runtime does), then retries its access. */
static void wake(hstate *h, int n, int t)
{
    thread_st *th = &h->th[n][t];
    int cs = h->cstate[n][th->block];
    if (proto_cache_held((proto_cache_state)cs)) {
        th->hold = HOLD_PRE;
        th->hblock = th->block;
    }
    th->phase = TH_READY;
}

static int retry(hstate *h, int n, int t)
{
    thread_st *th = &h->th[n][t];
    if (th->hold == HOLD_PRE)
        th->hold = HOLD_POST;   /* the thread left the fault handler */
    if (permitted(h, n, th->block, th->write))
        return perform(h, n, t);
    th->phase = TH_FAULTED;
    return 0;
}

/* An engine call of node n's own that no thread waits on (an eviction, the
 * epoch's end), and its actions.  0, or -1 with verr set. */
static int local_call(hstate *h, int n, int kind, uint32_t block)
{
    int rc = engine_call(n, kind, NULL, block, 0);
    if (rc == CALL_FAIL)
        return -1;
    if (rc != PROTO_OK)
        return fail("engine error: %d (%s) on node %d: %s", rc, rc_name(rc), n,
                    proto_last_error(E[n]));
    return run_actions(h, n, -1, -1);
}

/* Applies transition t to w (in place). 0, or -1 with verr set. */
static int apply(world *w, const trans *t)
{
    hstate *h = &w->h;
    int n = t->node, rc;
    thread_st *th = &h->th[n][t->a];
    if (proto_engine_load(E[n], w->eb[n], w->elen[n]) != PROTO_OK)
        return fail("harness: proto_engine_load failed on node %d", n);
    called_plen = -1;
    acts.n = 0;
    switch (t->kind) {
    case T_DELIVER: {
        int s = t->a, msg_data = -1;
        uint16_t c = h->ch[s][n][t->b];
        memmove(&h->ch[s][n][t->b], &h->ch[s][n][t->b + 1],
                (h->chlen[s][n] - t->b - 1u) * sizeof c);
        h->ch[s][n][--h->chlen[s][n]] = 0;
        if (((cfg_mutant == M_DROP_INV_ACK && MSG_TYPE(c) == PM_INV_ACK) ||
             (cfg_mutant == M_DROP_PUT_ACK && MSG_TYPE(c) == PM_PUT_ACK) ||
             (cfg_mutant == M_DROP_PUTS && MSG_TYPE(c) == PM_PUTS)) && !h->dropped) {
            h->dropped = 1;  /* the injected fault: this ack is lost */
            return 0;
        }
        proto_msg m = { MSG_TYPE(c), s, n, MSG_BLOCK(c), (uint8_t)MSG_FLAGS(c), 0 };
        if (is_fwd(m.type))
            m.req = (uint16_t)fwd_req_of(n, MSG_FRESH(c));
        if (proto_msg_has_data(m.type))
            msg_data = MSG_FRESH(c);
        /* the adaptive protocol's clean writeback, as the runtime finds it:
         * the home's memory still holds the latest write, so the owner did
         * not write since it got the block */
        if (cfg.adapt && (m.type == PM_WB_DATA || m.type == PM_FLUSH) && h->fresh[n][m.block])
            m.flags |= PROTO_MSG_CLEAN;
        if (cfg_mutant == M_PUTX_NO_DATA && m.type == PM_PUTX)
            msg_data = 0;  /* the injected fault: the writeback carries old data */
        if (cfg_mutant == M_NO_INSTALL_X && m.type == PM_DATA_X)
            msg_data = -2; /* the injected fault: the write grant's data is not installed */
        rc = engine_call(n, CALL_RECEIVE, &m, 0, 0);
        if (rc == CALL_FAIL)
            return -1;
        if (rc != PROTO_OK)
            return fail("engine error: %d (%s) on node %d: %s", rc, rc_name(rc), n,
                        proto_last_error(E[n]));
        if (run_actions(h, n, msg_data, -1))
            return -1;
        break;
    }
    case T_ISSUE:
        h->budget[n]--;
        th->block = t->b >> 1;
        th->write = t->b & 1;
        if (permitted(h, n, th->block, th->write))
            return perform(h, n, t->a);   /* no fault, no engine call */
        th->phase = TH_FAULTED;
        if (cfg.threads[n] > 1)
            return 0;                     /* the engine call is a step of its own */
        /* fall through */
    case T_CALL:
        /* The runtime first ends the holds of the faulting thread: its
         * previous access has retried. */
        if (th->hold && release_hold(h, n, t->a))
            return -1;
        rc = engine_call(n, CALL_ACCESS, NULL, (uint32_t)th->block, th->write);
        if (rc == CALL_FAIL)
            return -1;
        if (rc != PROTO_OK)
            return fail("engine error: %d (%s) on node %d: %s", rc, rc_name(rc), n,
                        proto_last_error(E[n]));
        if (run_actions(h, n, -1, t->a))
            return -1;
        th->phase = TH_WAITING;
        break;
    case T_WAKE:
        wake(h, n, t->a);
        if (cfg.threads[n] == 1 && retry(h, n, t->a))  /* nothing else can intervene */
            return -1;
        break;
    case T_RETRY:
        if (retry(h, n, t->a))
            return -1;
        break;
    case T_EXPIRE:
        if (release_hold(h, n, t->a))
            return -1;
        break;
    case T_EPOCH: /* a release of the node: its pushes and flushes go */
        if (local_call(h, n, CALL_EPOCH, t->a))
            return -1;
        break;
    case T_EVICT:
        h->evicts--;
        if (local_call(h, n, CALL_EVICT, t->a))
            return -1;
        break;
    }
    /* Invariants. */
    for (int b = 0; b < NB; b++) {
        for (int i = 0; i < NN; i++) {
            if (h->access[i][b] != PROTO_ACCESS_WRITE)
                continue;
            for (int j = 0; j < NN; j++)
                if (j != i && h->access[j][b] != PROTO_ACCESS_NONE)
                    return fail("coherence: node %d can write block %d while node %d can %s it",
                                i, b, j, h->access[j][b] == PROTO_ACCESS_WRITE ? "write" : "read");
        }
        int cs = proto_cache_state_of(E[n], (uint32_t)b);
        h->cstate[n][b] = (uint8_t)cs;
        /* (skipped for the mutants that keep rights: the end-to-end checks
         * must catch them) */
        if (cfg_mutant != M_KEEP_ACCESS && cfg_mutant != M_DOWNGRADE_KEEPS_WRITE &&
            h->access[n][b] != expected_access(cs))
            return fail("access rights: node %d block %d: access %d does not match cache state %s", n, b,
                        h->access[n][b], proto_cache_state_name(cs));
        /* Without an owner the home's memory is the data: every writeback
         * (WB_DATA, PUTX) must have brought the latest write home. */
        if (home_of[b] == n) {
            int ds = proto_dir_state_of(E[n], (uint32_t)b);
            if ((ds == PD_UNOWNED || ds == PD_SHARED) && !h->fresh[n][b])
                return fail("stale memory: block %d's directory is %s but the home's memory does "
                            "not hold the latest write", b, proto_dir_state_name(ds));
        }
    }
    h->epoch[n] = proto_epoch_pending(E[n]) > 0;
    size_t l = proto_engine_save(E[n], w->eb[n], EMAX);
    if (l > EMAX)
        return fail("harness: engine snapshot too large (%zu bytes)", l);
    w->elen[n] = (uint16_t)l;
    if (called_plen >= 0)
        w->plen[n] = (uint16_t)called_plen;
    return 0;
}

/* A state without enabled transitions must be the end of the program. */
static int check_final(const world *w)
{
    const hstate *h = &w->h;
    for (int i = 0; i < NN; i++) {
        for (int t = 0; t < cfg_threads; t++)
            if (h->th[i][t].phase != TH_IDLE)
                return fail("deadlock: node %d thread %d never completes its %s of block %d", i,
                            t, h->th[i][t].write ? "write" : "read", h->th[i][t].block);
            else if (h->th[i][t].hold)
                return fail("deadlock: node %d thread %d keeps a hold", i, t);
        if (proto_engine_load(E[i], w->eb[i], w->elen[i]) != PROTO_OK)
            return fail("harness: proto_engine_load failed on node %d", i);
        for (int b = 0; b < NB; b++) {
            int cs = proto_cache_state_of(E[i], (uint32_t)b);
            if (cs != PC_I && cs != PC_S && cs != PC_M && cs != PC_E)
                return fail("deadlock: node %d block %d stays in state %s", i, b,
                            proto_cache_state_name(cs));
            if (home_of[b] == i) {
                int ds = proto_dir_state_of(E[i], (uint32_t)b);
                if (ds == PD_BUSY_INV || ds == PD_BUSY_RECALL)
                    return fail("deadlock: the directory of block %d stays %s", b,
                                proto_dir_state_name(ds));
            }
        }
    }
    return 0;
}

/* Nothing in flight: every channel empty, every directory stable. */
static int quiescent(const world *w)
{
    for (int s = 0; s < NN; s++)
        for (int d = 0; d < NN; d++)
            if (w->h.chlen[s][d])
                return 0;
    for (int b = 0; b < NB; b++) {
        int h = home_of[b];
        if (proto_engine_load(E[h], w->eb[h], w->elen[h]) != PROTO_OK)
            return 1; /* check_directory reports it */
        int ds = proto_dir_state_of(E[h], (uint32_t)b);
        if (ds == PD_BUSY_INV || ds == PD_BUSY_RECALL)
            return 0;
    }
    return 1;
}

static int holds_copy(int cs) { return cs != PC_I; }
static int holds_owned(int cs) { return cs == PC_M || cs == PC_MH || cs == PC_E || cs == PC_EH; }
static int holds_shared(int cs) { return cs == PC_S || cs == PC_SH; }

/* At a quiescent state the directory must describe the caches: Exclusive,
 * its owner alone holds the block (M or E); Unowned, nobody holds it;
 * Shared, the sharers hold read copies and nobody else holds one, the list
 * exact unless copies are dropped silently (evictions without replacement
 * hints: the list may name nodes that dropped theirs).  Nothing may wait in
 * the home's queue, and no node may have a request in flight. */
static int check_directory(const world *w)
{
    int silent = cfg.evicts && !cfg.hints;
    for (int b = 0; b < NB; b++) {
        int h = home_of[b];
        if (proto_engine_load(E[h], w->eb[h], w->elen[h]) != PROTO_OK)
            return fail("harness: proto_engine_load failed on node %d", h);
        const dir_entry *d = engine_dir_at(E[h], (uint32_t)b);
        int ds = d ? d->state : PD_UNOWNED, nsh = d ? sharers_count(&d->sharers) : 0;
        if (d && ((d->q && d->q->len) || d->pending != -1))
            return fail("directory: block %d is %s with %s", b, proto_dir_state_name(ds),
                        d->pending != -1 ? "a pending requester" : "requests left in its queue");
        if (ds != PD_SHARED && nsh)
            return fail("directory: block %d is %s but lists %d sharers", b,
                        proto_dir_state_name(ds), nsh);
        if (ds == PD_SHARED && !nsh)
            return fail("directory: block %d is Shared with no sharers", b);
        for (int i = 0; i < NN; i++) {
            int cs = w->h.cstate[i][b];
            const char *st = proto_cache_state_name(cs);
            if (!proto_cache_settled((proto_cache_state)cs))
                return fail("directory: node %d is in %s for block %d with nothing in flight", i,
                            st, b);
            if (ds == PD_EXCL && i == d->owner) {
                if (!holds_owned(cs))
                    return fail("directory: block %d is Exclusive at node %d, which is in %s", b,
                                i, st);
            } else if (ds == PD_SHARED && sharers_contains(&d->sharers, i)) {
                if (!holds_shared(cs) && !silent)
                    return fail("directory: block %d lists node %d as a sharer, which is in %s",
                                b, i, st);
                if (holds_owned(cs))
                    return fail("directory: block %d is Shared, but node %d is in %s", b, i, st);
            } else if (holds_copy(cs)) {
                return fail("directory: block %d is %s%s, but node %d holds a copy (%s)", b,
                            proto_dir_state_name(ds), ds == PD_SHARED ? " without it" : "", i, st);
            }
        }
    }
    return 0;
}

/* ---- depth-first search ---- */
typedef struct {
    size_t id;
    world w;
    trans tr[64];
    int ntr, next;
} frame;

static frame *stack;
static size_t depth, stack_cap;

static char last_violation[1024];

static void print_path(const char *what, size_t upto, const trans *last, size_t cycle_from)
{
    char buf[256];
    snprintf(last_violation, sizeof last_violation, "%s", what);
    fprintf(stderr, "VIOLATION: %s\npath (%zu transitions):\n", what, upto + (last ? 1 : 0));
    for (size_t i = 0; i < upto; i++) {
        describe(&stack[i].w, &stack[i].tr[stack[i].next - 1], buf, sizeof buf);
        fprintf(stderr, "  %3zu. %s%s\n", i + 1, buf,
                i == cycle_from ? "   <-- the cycle starts here" : "");
    }
    if (last) {
        describe(&stack[upto].w, last, buf, sizeof buf);
        fprintf(stderr, "  %3zu. %s   <-- here\n", upto + 1, buf);
    }
}

typedef struct {
    size_t states, transitions, finals, max_depth;
    double secs;
    int violation;
} result;

static void push(size_t id, const world *w)
{
    if (depth == stack_cap) {
        stack_cap = stack_cap ? stack_cap * 2 : 256;
        stack = xrealloc(stack, stack_cap * sizeof *stack);
    }
    frame *f = &stack[depth++];
    f->id = id;
    f->w = *w;
    f->ntr = enabled(w, f->tr);
    f->next = 0;
    st_flags[id] = 1;
}

/* The group prologue (config.prologue): nodes 0 and 1 each read block 0
 * then block 1, one access after the other, each to completion (every
 * message delivered, the hold ended), through the same transitions the
 * search applies and checks.  Node 1's reads confirm the guess node 0's
 * left: the two blocks are a group when the search starts, so that it
 * spends its accesses on what the group does rather than on forming it.
 * Ops: block << 1 | write. */
static int run_prologue(world *w)
{
    static const uint8_t steps[][2] = { { 0, 0 }, { 0, 2 }, { 1, 0 }, { 1, 2 } };
    static trans tr[256];
    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
        trans t = { T_ISSUE, steps[i][0], 0, steps[i][1] };
        if (apply(w, &t))
            return -1;
        for (;;) {
            int n = enabled(w, tr), k = 0;
            while (k < n && (tr[k].kind == T_ISSUE || tr[k].kind == T_EPOCH))
                k++;
            if (k == n)
                break;
            if (apply(w, &tr[k]))
                return -1;
        }
    }
    return 0;
}

static result explore(void)
{
    result r = { 0, 0, 0, 0, 0, 0 };
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    memset(run_cov_cache, 0, sizeof run_cov_cache);
    memset(run_cov_dir, 0, sizeof run_cov_dir);
    home_of[0] = 0;
    home_of[1] = cfg.home1;
    for (int i = 0; i < NN; i++) {
        proto_config c = { .self = i, .nnodes = NN, .nblocks = NB, .evictions = cfg.evicts > 0,
                           .replacement_hints = cfg.hints, .excl_clean = cfg.excl,
                           .downgrade_on_read = cfg.downgrade, .adapt = cfg.adapt,
                           .three_hop = cfg_three_hop, .prefetch = cfg_prefetch ? 2u : 0u };
        E[i] = proto_engine_create(&c);
        if (!E[i] || proto_set_home(E[i], 0, 1, home_of[0]) || proto_set_home(E[i], 1, 1, home_of[1])) {
            fprintf(stderr, "explore: cannot create the engines\n");
            exit(99);
        }
        proto_engine_set_trace(E[i], trace_hook, NULL);
        /* the shadow has the run's options too (they are not in snapshots) */
        proto_engine_destroy(S[i]);
        S[i] = proto_engine_create(&c);
        if (!S[i]) {
            fprintf(stderr, "explore: cannot create the shadow engines\n");
            exit(99);
        }
        proto_set_augment(S[i], cfg.adapt);
        proto_set_home(S[i], 0, 1, home_of[0]);
        proto_set_home(S[i], 1, 1, home_of[1]);
    }
    store_reset();
    checked_reset();
    static world w0, w;
    static unsigned char enc[8192];
    memset(&w0, 0, sizeof w0);
    for (int i = 0; i < NN; i++) {
        w0.h.budget[i] = (uint8_t)cfg.budget[i];
        w0.h.evicts = (uint8_t)cfg.evicts;
        for (int b = 0; b < NB; b++)
            w0.h.fresh[i][b] = home_of[b] == i; /* only the home holds the initial data */
        w0.elen[i] = (uint16_t)proto_engine_save(E[i], w0.eb[i], EMAX);
        w0.plen[i] = (uint16_t)(save_protocol(E[i], enc) - 1);
    }
    if (cfg.prologue && run_prologue(&w0)) {
        printf("  VIOLATION in the prologue: %s\n", verr);
        snprintf(last_violation, sizeof last_violation, "%s", verr);
        r.violation = 1;
        for (int i = 0; i < NN; i++)
            proto_engine_destroy(E[i]);
        return r;
    }
    int added;
    size_t id0 = store_intern(enc, encode(&w0, enc), &added);
    depth = 0;
    push(id0, &w0);
    while (depth) {
        frame *f = &stack[depth - 1];
        if (depth > r.max_depth)
            r.max_depth = depth;
        if (f->ntr == 0 && f->next == 0) {
            f->next = 1; /* visited as final */
            r.finals++;
            if (check_final(&f->w)) {
                print_path(verr, depth - 1, NULL, SIZE_MAX);
                r.violation = 1;
                break;
            }
        }
        if (f->next >= f->ntr) {
            st_flags[f->id] = 0;
            depth--;
            continue;
        }
        const trans *t = &f->tr[f->next++];
        w = f->w;
        r.transitions++;
        if (apply(&w, t)) {
            print_path(verr, depth - 1, t, SIZE_MAX);
            r.violation = 1;
            break;
        }
        size_t n = encode(&w, enc);
        size_t id = store_intern(enc, n, &added);
        if (added && quiescent(&w) && check_directory(&w)) {
            print_path(verr, depth - 1, t, SIZE_MAX);
            r.violation = 1;
            break;
        }
        if (!added) {
            if (st_flags[id]) {
                size_t from = 0;
                while (stack[from].id != id)
                    from++;
                print_path("livelock: the state graph has a cycle (back to an earlier state of "
                           "this path) in which no access completes",
                           depth - 1, t, from);
                r.violation = 1;
                break;
            }
            continue;
        }
        push(id, &w);
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    r.secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    r.states = nstates;
    for (int i = 0; i < NN; i++)
        proto_engine_destroy(E[i]);
    return r;
}

static void fmt_list(const int *v, char *buf, size_t cap)
{
    snprintf(buf, cap, "%d,%d,%d", v[0], v[1], v[2]);
}

static result run(const config *c)
{
    char th[32], bu[32];
    cfg = *c;
    fmt_list(c->threads, th, sizeof th);
    fmt_list(c->budget, bu, sizeof bu);
    char opts[128];
    snprintf(opts, sizeof opts, "%s%.0d%s%s%s%s%s%s%s%s", c->evicts ? " --evicts " : "",
             c->evicts, c->hints ? " --hints" : "", c->excl ? " --excl-clean" : "",
             c->downgrade ? " --downgrade" : "", c->key_patterns ? " --key-patterns" : "",
             c->adapt ? " --adapt" : "", cfg_three_hop ? " --three-hop" : "",
             c->prologue ? " --group-prologue" : "", cfg_prefetch ? " --prefetch" : "");
    printf("explore --threads %s --budget %s --homes 0%d --blocks %d%s%s%s\n"
           "  %d nodes, block 0 homed at node 0, block 1 at node %d; threads per node %s; "
           "accesses per node %s, to %s",
           th, bu, c->home1, c->blocks, opts, c->mutant ? " --mutant " : "",
           c->mutant ? mutant_names[c->mutant] : "", NN, c->home1, th, bu,
           c->blocks == NB ? "blocks 0 and 1" : "block 0 only");
    if (c->evicts)
        printf("; %d evictions, %s replacement hints", c->evicts, c->hints ? "with" : "without");
    if (c->excl)
        printf("; exclusive-clean read grants");
    if (c->downgrade)
        printf("; reads downgrade the owner to a sharer");
    if (c->key_patterns)
        printf("; the pattern detection's state is part of a state's identity");
    if (c->adapt)
        printf("; adaptive protocol (reads of migratory blocks granted exclusive)");
    if (cfg_prefetch)
        printf("; a read miss prefetches the next block of its home");
    if (cfg_three_hop)
        printf("; three-hop interventions (the owner answers forwarded requests)");
    printf("\n");
    fflush(stdout);
    result r = explore();
    printf("  %s: %zu states, %zu transitions, %zu final states, depth %zu, %.1f s, %.0f MiB; "
           "%lu engine calls (%lu checked, the rest repeats of checked ones) %s\n",
           r.violation ? "VIOLATION" : "ok", r.states, r.transitions, r.finals, r.max_depth,
           r.secs, (double)(table_cap * sizeof(slot) + st_cap) / (1 << 20),
           inert_calls, inert_calls - checked_skips,
           cfg.adapt ? "checked against a copy restored from the snapshot"
                     : "made with the augmentation on and off, same actions");
    inert_calls = checked_skips = 0;
    fflush(stdout);
    if (!c->mutant) {
        for (int s = 0; s < PC_NSTATES; s++)
            for (int e = 0; e < CE_NEVENTS; e++)
                cov_cache[s][e] += run_cov_cache[s][e];
        for (int s = 0; s < PD_NSTATES; s++)
            for (int e = 0; e < DE_NEVENTS; e++)
                cov_dir[s][e] += run_cov_dir[s][e];
    }
    return r;
}

/* An UPGRADE always reaches the home while its sender is still in the sharer
 * set: the sender left the set only by an INV_ACK, which it sent after the
 * UPGRADE on the same FIFO channel.  So an UPGRADE that finds the block busy
 * is classified sole/others and queued; it can be UPGRADE(not a sharer) only
 * when it is taken from the queue, and the queue is served in Shared or
 * Exclusive only. */
#define UPG_WHY \
    "an UPGRADE arrives while its sender is still a sharer (its INV_ACK follows it on the same " \
    "FIFO channel); it becomes stale only while queued, and the queue is served in Shared or " \
    "Exclusive"

/* Valid entries no run can reach, and why.  Every other valid entry must be
 * applied by the suite. */
#define RELEASE_WHY \
    "a release ends the hold and voids every record of it, so the runtime releases a block " \
    "only while it is held (SH, MH or EH)"
/* A node in S is in the home's sharer set (with replacement hints every
 * drop of the copy is announced): it leaves the set only by its own PUTS, or
 * at a grant after it acknowledged an INV, and it sends that INV_ACK after
 * the PUTS on the same FIFO channel.  So a PUTS arrives while its sender is
 * a sharer, and it is stale only when it waited in the home's queue; the
 * queue is served in Shared or Exclusive, and a node's PUTS waits there
 * ahead of any later request of the same node, so the queue never brings
 * the directory to Unowned before a stale PUTS. */
#define PUTS_WHY \
    "a PUTS arrives while its sender is a sharer (an INV_ACK it owes follows it on the same FIFO " \
    "channel); it becomes stale only while queued, and the queue is served in Shared or Exclusive"

/* The adaptive protocol is the DSM runtime's, which neither evicts nor
 * grants exclusive-clean: no run combines them. */
#define ADAPT_HW_WHY \
    "no run combines the adaptive protocol with exclusive-clean grants or evictions (the " \
    "entry needs both options)"

static const struct {
    int dir, state, event;
    const char *why;
} unreachable[] = {
    { 0, PC_I, CE_RELEASE, RELEASE_WHY },
    { 0, PC_S, CE_RELEASE, RELEASE_WHY },
    { 0, PC_M, CE_RELEASE, RELEASE_WHY },
    { 0, PC_IS, CE_RELEASE, RELEASE_WHY },
    { 0, PC_IM, CE_RELEASE, RELEASE_WHY },
    { 0, PC_SM, CE_RELEASE, RELEASE_WHY },
    { 0, PC_E, CE_RELEASE, RELEASE_WHY },
    { 0, PC_MI, CE_RELEASE, RELEASE_WHY },
    { 1, PD_UNOWNED, DE_UPGRADE_STALE,
      "a node sends UPGRADE only from S, while the home lists it (a sharer leaves the set only by "
      "its PUTS or an INV_ACK, both sent after the UPGRADE would be), and a queued UPGRADE is "
      "served in Shared or Exclusive" },
    { 1, PD_UNOWNED, DE_PUTS_STALE, PUTS_WHY },
    { 1, PD_BUSY_INV, DE_PUTS_STALE, PUTS_WHY },
    /* (BusyRecall, PUTS(not a sharer)) is reached with three_hop and hints:
     * an owner that answered a forwarded read drops its read copy (PUTS)
     * before the home, waiting for the reader's SHWB, lists it */
    { 1, PD_BUSY_INV, DE_UPGRADE_STALE, UPG_WHY },
    /* (BusyRecall, UPGRADE(not a sharer)) is reached by the adaptive
     * protocol (an owner that pushed (M -> S) upgrades as the home recalls it
     * for another node) and with three_hop (an owner that answered a
     * forwarded read is a sharer before the home, waiting for the reader's
     * SHWB, lists it; its UPGRADE waits in the queue and is classified again
     * when served) */
    { 0, PC_E, CE_EPOCH_PUSH, ADAPT_HW_WHY },
    { 0, PC_E, CE_EPOCH_FLUSH, ADAPT_HW_WHY },
    { 0, PC_EH, CE_EPOCH_PUSH, ADAPT_HW_WHY },
    { 0, PC_EH, CE_EPOCH_FLUSH, ADAPT_HW_WHY },
    { 0, PC_MI, CE_EPOCH_PUSH, ADAPT_HW_WHY },
    { 0, PC_MI, CE_EPOCH_FLUSH, ADAPT_HW_WHY },
    { 1, PD_BUSY_RECALL, DE_UPGRADE_SOLE,
      "the sharer set is empty during a recall (cleared when the owner got the block), and an "
      "UPGRADE arrives while its sender is a sharer: none arrives during a recall" },
    { 1, PD_BUSY_RECALL, DE_UPGRADE_OTHERS,
      "as (BusyRecall, UPGRADE(sole sharer))" },
};

static int is_documented(int dir, int s, int e)
{
    for (size_t i = 0; i < sizeof unreachable / sizeof unreachable[0]; i++)
        if (unreachable[i].dir == dir && unreachable[i].state == s && unreachable[i].event == e)
            return 1;
    return 0;
}

static const char *entry_name(int dir, int s, int e, char *buf, size_t cap)
{
    snprintf(buf, cap, "%s (%s, %s)", dir ? "directory" : "cache",
             dir ? proto_dir_state_name(s) : proto_cache_state_name(s),
             dir ? proto_dir_event_name(e) : proto_cache_event_name(e));
    return buf;
}

/* Prints the valid entries never applied; returns how many of them are not
 * documented as unreachable (plus documented ones that were applied). */
static int report_coverage(void)
{
    int bad = 0, hit = 0, valid = 0;
    char buf[128];
    printf("table coverage:\n");
    for (int dir = 0; dir < 2; dir++) {
        int ns = dir ? PD_NSTATES : PC_NSTATES, ne = dir ? DE_NEVENTS : CE_NEVENTS;
        for (int s = 0; s < ns; s++)
            for (int e = 0; e < ne; e++) {
                const proto_table_entry *t = dir ? &proto_dir_table[s][e] : &proto_cache_table[s][e];
                if (!t->valid)
                    continue;
                valid++;
                unsigned long n = dir ? cov_dir[s][e] : cov_cache[s][e];
                int doc = is_documented(dir, s, e);
                if (n) {
                    hit++;
                    if (doc) {
                        printf("  applied although documented as unreachable: %s\n",
                               entry_name(dir, s, e, buf, sizeof buf));
                        bad++;
                    }
                } else {
                    printf("  never applied: %s%s\n", entry_name(dir, s, e, buf, sizeof buf),
                           doc ? " (unreachable, see below)" : " - NOT EXPECTED");
                    bad += !doc;
                }
            }
    }
    printf("  %d of %d valid entries applied; unreachable here:\n", hit, valid);
    for (size_t i = 0; i < sizeof unreachable / sizeof unreachable[0]; i++)
        printf("    %s: %s\n",
               entry_name(unreachable[i].dir, unreachable[i].state, unreachable[i].event, buf,
                          sizeof buf),
               unreachable[i].why);
    return bad;
}

static void usage_to(FILE *f)
{
    fprintf(f,
            "usage: explore            the suite: clean runs, coverage, self-check (make check)\n"
            "       explore --mutation the suite's runs (small ones first) until a violation,\n"
            "                          then coverage: \"caught by: CHECK\" (tests/mutants.sh)\n"
            "       explore [--threads T|T0,T1,T2] [--budget K|K0,K1,K2] [--homes 00|01]\n"
            "               [--blocks 1|2] [--evicts N] [--hints] [--excl-clean] [--downgrade]\n"
            "               [--three-hop]\n"
            "               [--key-patterns] [--adapt] [--group-prologue] [--prefetch]\n"
            "               [--mutant NAME]\n"
            "  --threads  application threads per node, 1 or 2 (default 1)\n"
            "  --budget   accesses each node starts (default 2)\n"
            "  --homes    00: both blocks homed at node 0; 01: block 1 homed at node 1 (default)\n"
            "  --blocks   blocks the threads access (default 2; with 1, block 1 stays idle)\n"
            "  --evicts   evictions the caches may make in all (default 0): any node, any\n"
            "             block it holds in S, E or M, at any moment (proto_evict)\n"
            "  --hints    replacement hints: an eviction from S tells the home (PUTS)\n"
            "  --excl-clean  reads of unowned blocks are granted exclusive-clean (E)\n"
            "  --downgrade   a read of an owned block leaves the owner a read copy\n"
            "             (downgrade_on_read: RECALL_S, M/E -> S)\n"
            "  --three-hop   requests at owned blocks are forwarded to the owner, which\n"
            "             answers the requester (three_hop: FWD_GETS/FWD_GETX, SHWB/XFER)\n"
            "  --adapt       the adaptive protocol: a read of a block detected migratory\n"
            "             is granted exclusive (implies --key-patterns)\n"
            "  --prefetch    with --adapt: a read miss of block 0 brings block 1 along\n"
            "             (GROUP_DATA) when both have the same home and no group is known\n"
            "             (proto_config.prefetch 2)\n"
            "  --group-prologue  before the search, nodes 0 and 1 read block 0 then 1 to\n"
            "             completion (4 of their accesses): the blocks start as a group\n"
            "  --key-patterns  states that differ in the pattern detection's state are\n"
            "             different states (about ten times as many)\n"
            "  --mutant   inject a fault the checker must report (exit status 1): drop-inv-ack,\n"
            "             no-install, keep-access, nonfifo, stale-holds, not-inert,\n"
            "             drop-put-ack, putx-no-data, silent-e-write, downgrade-keeps-write,\n"
            "             no-install-data-x, drop-puts\n"
            "exit status: 0 no violation, 1 violation (or suite failure), 99 usage\n");
}

static void usage(void)
{
    usage_to(stderr);
    exit(99);
}

/* "K" or "K0,K1,K2" */
static void arg_list(const char *s, int lo, int hi, int *v)
{
    for (int i = 0; i < NN; i++) {
        char *end;
        long x = strtol(s, &end, 10);
        if (end == s || x < lo || x > hi)
            usage();
        v[i] = (int)x;
        if (!*end) {
            for (int j = i + 1; j < NN; j++)
                v[j] = (int)x;
            if (i != 0 && i != NN - 1)
                usage();
            return;
        }
        if (*end != ',' || i == NN - 1)
            usage();
        s = end + 1;
    }
}

static int passed(int expect_violation, const result *r)
{
    if (r->violation && expect_violation &&
        strncmp(last_violation, mutant_expect[cfg.mutant], strlen(mutant_expect[cfg.mutant]))) {
        printf("FAIL: the injected fault %s was reported, but not as a %s\n",
               mutant_names[cfg.mutant], mutant_expect[cfg.mutant]);
        return 0;
    }
    if (r->violation == expect_violation)
        return 1;
    printf(expect_violation ? "FAIL: the injected fault went unnoticed\n"
                            : "FAIL: violation in a clean run\n");
    return 0;
}

/* The suite's runs of the hardware additions (tuned to stay within the
 * time box; see the coverage report for what they reach).  The downgrade
 * runs: one thread per node over both blocks; two threads on two nodes
 * (holds deferring a RECALL_S); evictions without hints (a PUTX crossing a
 * RECALL_S, a downgraded owner dropping its copy silently); exclusive-clean
 * with evictions (E and EH recalled for a read). */
#define EVICTION_RUNS \
        { { 1, 1, 1 }, { 2, 2, 2 }, 1, 2, M_NONE, 2, 0, 0, 0, 0, 0, 0 }, \
        { { 1, 1, 1 }, { 2, 2, 2 }, 1, 2, M_NONE, 2, 1, 0, 0, 0, 0, 0 }, \
        { { 1, 1, 1 }, { 2, 2, 2 }, 0, 2, M_NONE, 2, 1, 1, 0, 0, 0, 0 }, \
        { { 2, 2, 1 }, { 2, 2, 1 }, 0, 1, M_NONE, 2, 0, 1, 0, 0, 0, 0 }, \
        { { 1, 1, 1 }, { 3, 3, 3 }, 1, 2, M_NONE, 0, 0, 0, 1, 0, 0, 0 }, \
        { { 2, 2, 1 }, { 3, 3, 1 }, 0, 1, M_NONE, 0, 0, 0, 1, 0, 0, 0 }, \
        { { 1, 1, 1 }, { 2, 2, 2 }, 1, 2, M_NONE, 2, 0, 0, 1, 0, 0, 0 }, \
        { { 2, 2, 1 }, { 2, 2, 1 }, 0, 1, M_NONE, 2, 0, 1, 1, 0, 0, 0 },

/* The adaptive protocol's bulk fetch of a group: both blocks homed at node
 * 0.  Two nodes reading block 0 then block 1 make them a group (the second
 * confirms the guess the first left), so that a third node's read miss of
 * block 0 brings block 1 along (GROUP_DATA).  ADAPT_GROUP_RUN starts after
 * the group prologue (run_prologue: nodes 0 and 1 have read both, the
 * blocks are a group) and gives every node accesses beyond it: node 2's
 * read of block 0 is bulk-fetched, its access to block 1 that follows
 * before the copy arrives declines it (IS, IM), and nodes 0 and 1 write or
 * read across it; about 3 s.  ADAPT_GROUP_FORMING searches from the start
 * with two accesses for nodes 0 and 1 and one for node 2, so that the
 * group forms in every order the requests can take; about 17 s.  (Two
 * accesses each from the start: about 140 s and 1 GiB.) */
#define ADAPT_GROUP_RUN \
        { { 1, 1, 1 }, { 3, 3, 2 }, 0, 2, M_NONE, 0, 0, 0, 0, 1, 1, 1 },
#define ADAPT_GROUP_FORMING \
        { { 1, 1, 1 }, { 2, 2, 1 }, 0, 2, M_NONE, 0, 0, 0, 0, 1, 1, 0 },

/* The runs with three-hop interventions (cfg_three_hop): one thread per
 * node, both placements of the homes (forwards to a remote owner, the
 * owner's line to a third node, a home that is owner or requester, a held
 * MH deferring a forward); an eviction with hints (a forward crossing the
 * owner's PUTX in MI, an owner that answered a read announcing the drop of
 * its copy while the home waits for the SHWB); two threads on two nodes
 * with exclusive-clean grants and evictions (E and EH forwarded to, a PUTE
 * crossing a forward).  The last alone applies every three-hop entry; the
 * larger runs (budgets 3, 2 evictions with hints) were checked by hand. */
#define THREE_HOP_RUNS \
        { { 1, 1, 1 }, { 2, 2, 2 }, 0, 2, M_NONE, 0, 0, 0, 0, 0, 0, 0 }, \
        { { 1, 1, 1 }, { 2, 2, 2 }, 1, 2, M_NONE, 0, 0, 0, 0, 0, 0, 0 }, \
        { { 1, 1, 1 }, { 2, 2, 2 }, 1, 2, M_NONE, 1, 1, 0, 0, 0, 0, 0 }, \
        { { 2, 2, 1 }, { 2, 2, 1 }, 0, 1, M_NONE, 2, 0, 1, 0, 0, 0, 0 },
static const config three_hop_runs[] = { THREE_HOP_RUNS };

/* The prefetch (cfg_prefetch, with the adaptive protocol): both blocks
 * homed at node 0, no group prologue, so that a read miss of block 0 brings
 * block 1 along from every state the home can grant it in at once
 * (Unowned from the start, Shared, the home's own M copy, which becomes a
 * read copy) and leaves it out otherwise; node 0 accesses twice (its own
 * write makes a block its M copy), node 1 twice, node 2 once.  About 20 s,
 * 50 MiB; the run with node 0 accessing once (2.6 s) applies every
 * GROUP_DATA, GroupMember and GroupShare entry too, and is the one
 * --mutation runs. */
#define PREFETCH_RUN { { 1, 1, 1 }, { 2, 2, 1 }, 0, 2, M_NONE, 0, 0, 0, 0, 1, 1, 0 },
#define PREFETCH_QUICK_RUN { { 1, 1, 1 }, { 1, 2, 1 }, 0, 2, M_NONE, 0, 0, 0, 0, 1, 1, 0 },
static const config prefetch_runs[] = { PREFETCH_RUN };
static const config prefetch_quick_runs[] = { PREFETCH_QUICK_RUN };
#define NTHREE_HOP_RUNS (sizeof three_hop_runs / sizeof three_hop_runs[0])

/* The check that reported the last violation: its message up to the ':',
 * and for an engine error which of the engine's refusals it was. */
static const char *violation_check(void)
{
    static char check[64];
    size_t k = strcspn(last_violation, ":");
    snprintf(check, sizeof check, "%.*s", (int)(k < sizeof check ? k : sizeof check - 1),
             last_violation);
    if (!strcmp(check, "engine error")) {
        const char *why = strstr(last_violation, "only with")          ? "option off"
                          : strstr(last_violation, "not invalidated")  ? "sender"
                          : strstr(last_violation, "not the block's")  ? "sender"
                          : strstr(last_violation, "deferred for the") ? "deferred twice"
                          : strstr(last_violation, "not in the table") ? "pair"
                                                                        : "bad input";
        snprintf(check, sizeof check, "engine error (%s)", why);
    }
    return check;
}

/* The suite's first runs, the big ones (see main's clean[]). */
#define SUITE_BIG 5

/* --mutation (tests/mutants.sh, on an engine with a bug planted): small
 * runs of every option first (most bugs show within a few steps), then the
 * suite's runs, then its coverage; stops at the first violation.  Prints
 * "caught by: CHECK" and exits 1, or exits 0 when nothing saw the bug. */
static int mutation_suite(const config *suite, size_t nsuite)
{
    /* cheapest first (seconds of CPU: 2-6 each, the evictions' 14-50) */
    static const config quick[] = {
        { { 1, 1, 1 }, { 2, 2, 2 }, 0, 2, M_NONE, 0, 0, 0, 0, 0, 0, 0 },
        { { 1, 1, 1 }, { 2, 2, 2 }, 1, 2, M_NONE, 0, 0, 0, 0, 0, 0, 0 },
        { { 2, 2, 1 }, { 2, 2, 1 }, 0, 1, M_NONE, 0, 0, 0, 0, 0, 0, 0 },
        { { 1, 1, 1 }, { 2, 2, 2 }, 1, 2, M_NONE, 0, 0, 0, 1, 0, 0, 0 },
        { { 1, 1, 1 }, { 3, 2, 2 }, 0, 1, M_NONE, 0, 0, 0, 0, 1, 1, 0 }, /* adaptive */
        ADAPT_GROUP_RUN /* about 3 s; after the adaptive run, so that it still catches its bugs first */
        { { 1, 1, 1 }, { 2, 2, 2 }, 1, 2, M_NONE, 1, 0, 0, 0, 0, 0, 0 },
        { { 1, 1, 1 }, { 2, 2, 2 }, 1, 2, M_NONE, 1, 1, 0, 0, 0, 0, 0 },
        { { 1, 1, 1 }, { 2, 2, 2 }, 0, 2, M_NONE, 1, 0, 1, 0, 0, 0, 0 },
        { { 1, 1, 1 }, { 2, 2, 2 }, 1, 2, M_NONE, 1, 0, 1, 1, 0, 0, 0 },
    };
    size_t nquick = sizeof quick / sizeof quick[0];
    /* the two small three-hop runs first, the others after the quick
     * ones: a bug of theirs shows without waiting for the suite */
    size_t n3 = NTHREE_HOP_RUNS;
    for (size_t i = 0; i < nquick + n3 + nsuite; i++) {
        size_t k3 = i < 2 ? i : i - nquick; /* the three-hop run, if it is one */
        cfg_three_hop = i < 2 || (i >= nquick + 2 && i < nquick + n3);
        /* the suite's runs cheapest first: its first SUITE_BIG runs (a
         * minute or more of CPU each) after the others (seconds), so a bug
         * that only an eviction, downgrade or adaptive run shows is found
         * without exploring the big ones first */
        size_t k = i >= nquick + n3 ? i - nquick - n3 : 0;
        size_t ks = nsuite > SUITE_BIG ? (k + SUITE_BIG) % nsuite : k;
        result r = run(cfg_three_hop ? &three_hop_runs[k3]
                       : i < nquick + 2 ? &quick[i - 2]
                                        : &suite[ks]);
        if (r.violation) {
            printf("caught by: %s\n", violation_check());
            return 1;
        }
    }
    cfg_three_hop = 0;
    /* last: the bugs of the new entries show in the group runs first */
    cfg_prefetch = 1;
    result rp = run(&prefetch_quick_runs[0]);
    cfg_prefetch = 0;
    if (rp.violation) {
        printf("caught by: %s\n", violation_check());
        return 1;
    }
    if (report_coverage()) {
        printf("caught by: table coverage\n");
        return 1;
    }
    printf("caught by: nothing\n");
    return 0;
}

int main(int argc, char **argv)
{
    config c = { { 1, 1, 1 }, { 2, 2, 2 }, 1, NB, M_NONE, 0, 0, 0, 0, 0, 0, 0 };
    int single = 0, mutation = 0;
    setvbuf(stdout, NULL, _IOLBF, 0);
    proto_actions_init(&acts);
    for (int i = 1; i < argc; i++) {
        single = 1;
        if (!strcmp(argv[i], "--threads") && i + 1 < argc)
            arg_list(argv[++i], 1, MAXT, c.threads);
        else if (!strcmp(argv[i], "--budget") && i + 1 < argc)
            arg_list(argv[++i], 0, 100, c.budget);
        else if (!strcmp(argv[i], "--blocks") && i + 1 < argc) {
            int v[NN];
            arg_list(argv[++i], 1, NB, v);
            c.blocks = v[0];
        } else if (!strcmp(argv[i], "--evicts") && i + 1 < argc) {
            int v[NN];
            arg_list(argv[++i], 0, 100, v);
            c.evicts = v[0];
        } else if (!strcmp(argv[i], "--hints")) {
            c.hints = 1;
        } else if (!strcmp(argv[i], "--excl-clean")) {
            c.excl = 1;
        } else if (!strcmp(argv[i], "--downgrade")) {
            c.downgrade = 1;
        } else if (!strcmp(argv[i], "--key-patterns")) {
            c.key_patterns = 1;
        } else if (!strcmp(argv[i], "--adapt")) {
            c.adapt = c.key_patterns = 1;
        } else if (!strcmp(argv[i], "--three-hop")) {
            cfg_three_hop = 1;
        } else if (!strcmp(argv[i], "--group-prologue")) {
            c.prologue = 1;
        } else if (!strcmp(argv[i], "--prefetch")) {
            cfg_prefetch = 1;
        } else if (!strcmp(argv[i], "--mutation") && argc == 2) {
            mutation = 1;
            single = 0;
            break;
        } else if (!strcmp(argv[i], "--homes") && i + 1 < argc) {
            const char *h = argv[++i];
            if (strcmp(h, "00") && strcmp(h, "01"))
                usage();
            c.home1 = h[1] - '0';
        } else if (!strcmp(argv[i], "--mutant") && i + 1 < argc) {
            const char *m = argv[++i];
            for (c.mutant = 1; c.mutant < M_COUNT && strcmp(m, mutant_names[c.mutant]); c.mutant++)
                ;
            if (c.mutant == M_COUNT)
                usage();
        } else
            usage();   /* --help included */
    }
    if (single) {
        result r = run(&c);
        if (!c.mutant && !r.violation && report_coverage())
            printf("(coverage of this run alone; the suite covers every reachable entry)\n");
        return r.violation ? 1 : 0;
    }

    /* The suite.  One thread per node over both blocks, both placements of
     * the homes, covers the directory and the message-driven cache entries;
     * runs with two threads on some nodes cover the joins (Load/Store in
     * IS, IM, SM) and the faults that race with another thread's grant or
     * release (Load/Store in S, M, SH, MH).  The runs with evictions (with
     * and without replacement hints) and exclusive-clean grants cover the
     * hardware additions; one run keys the pattern detection's state.
     * About 4.5 CPU-minutes (the group runs: 20 s) and 1.4 GiB at most (tests/run-test.sh gives it
     * 900 s). */
    static const config clean[] = {
        /* threads, budget, home of block 1, blocks, mutant, evicts, hints, excl,
         * downgrade, key_patterns, adapt; the first SUITE_BIG are the big
         * ones (--mutation runs them last) */
        { { 1, 1, 1 }, { 4, 4, 4 }, 0, 2, M_NONE, 0, 0, 0, 0, 0, 0, 0 },
        { { 1, 1, 1 }, { 4, 4, 4 }, 1, 2, M_NONE, 0, 0, 0, 0, 0, 0, 0 },
        { { 2, 2, 2 }, { 2, 2, 2 }, 0, 1, M_NONE, 0, 0, 0, 0, 0, 0, 0 },
        { { 2, 2, 1 }, { 3, 3, 1 }, 0, 1, M_NONE, 0, 0, 0, 0, 0, 0, 0 },
        { { 1, 2, 1 }, { 2, 2, 2 }, 1, 2, M_NONE, 0, 0, 0, 0, 0, 0, 0 },
        EVICTION_RUNS
        { { 1, 1, 1 }, { 2, 2, 2 }, 0, 2, M_NONE, 0, 0, 0, 0, 1, 0, 0 },
        /* the adaptive protocol: nodes 0 and 1 read then write (migratory),
         * node 2's read is granted exclusive, node 0's third access reads
         * after a reader that did not write (the fallback); the epochs'
         * ends push and flush, crossing recalls and requests in flight
         * (node 2's third access reaches a flush crossing a RECALL_S);
         * about 20 s */
        { { 1, 1, 1 }, { 3, 2, 3 }, 0, 1, M_NONE, 0, 0, 0, 0, 1, 1, 0 },
        ADAPT_GROUP_RUN
        ADAPT_GROUP_FORMING
    };
    if (mutation)
        return mutation_suite(clean, sizeof clean / sizeof clean[0]);
    int ok = 1;
    for (size_t i = 0; i < sizeof clean / sizeof clean[0]; i++) {
        result r = run(&clean[i]);
        ok &= passed(0, &r);
    }
    for (size_t i = 0; i < NTHREE_HOP_RUNS; i++) {
        cfg_three_hop = 1;
        result r = run(&three_hop_runs[i]);
        ok &= passed(0, &r);
    }
    cfg_three_hop = 0;
    cfg_prefetch = 1;
    for (size_t i = 0; i < sizeof prefetch_runs / sizeof prefetch_runs[0]; i++) {
        result r = run(&prefetch_runs[i]);
        ok &= passed(0, &r);
    }
    cfg_prefetch = 0;
    if (report_coverage()) {
        printf("FAIL: valid table entries not applied by any run\n");
        ok = 0;
    }
    printf("self-check: each injected fault must be reported as a violation\n");
    for (int m = 1; m < M_COUNT; m++) {
        config mc = { { 1, 1, 1 }, { 2, 2, 2 }, 1, 2, m, 0, 0, 0, 0, 0, 0, 0 };
        if (m == M_STALE_HOLDS)
            mc = (config){ { 2, 2, 1 }, { 2, 3, 1 }, 0, 1, m, 0, 0, 0, 0, 0, 0, 0 };
        else if (m == M_DROP_PUT_ACK || m == M_PUTX_NO_DATA)
            mc = (config){ { 1, 1, 1 }, { 2, 2, 2 }, 1, 2, m, 1, 0, 0, 0, 0, 0, 0 };
        else if (m == M_SILENT_E_WRITE)
            mc = (config){ { 1, 1, 1 }, { 2, 2, 2 }, 1, 2, m, 1, 0, 1, 0, 0, 0, 0 };
        else if (m == M_DOWNGRADE_KEEPS_WRITE)
            mc = (config){ { 1, 1, 1 }, { 2, 2, 2 }, 1, 2, m, 0, 0, 0, 1, 0, 0, 0 };
        else if (m == M_DROP_PUTS)
            mc = (config){ { 1, 1, 1 }, { 2, 2, 2 }, 1, 2, m, 1, 1, 0, 0, 0, 0, 0 };
        result r = run(&mc);
        if (passed(1, &r))
            printf("  detected (%s), as it must be\n", mutant_expect[m]);
        else
            ok = 0;
    }
    printf(ok ? "explore: PASS\n" : "explore: FAIL\n");
    return ok ? 0 : 1;
}
