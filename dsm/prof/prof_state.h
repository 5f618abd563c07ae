/* prof_state.h - the per-node state of the profile's runtime side, shared
 * by the recording while the program runs (prof.c) and the shipping at
 * dsm_finalize (ship.c).  Internal to dsm/prof/. */
#ifndef DSM_PROF_STATE_H
#define DSM_PROF_STATE_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "prof.h"
#include "profile.h"
#include "records.h"

#define PB_SHIFT 12
#define PB_CHUNK (1u << PB_SHIFT)
#define MAX_FRAMES 16        /* raw frames captured at an allocation */
#define PATH_FRAMES 4        /* frames of the call path kept (site included) */
#define EPOCH_MAX (1u << 16) /* write epochs logged per node */
#define TWIN_BYTES_MAX ((size_t)64 << 20) /* twins alive per node */
#define IP_MAX (1u << 20)    /* (instruction, block) entries per node */
#define NO_BLOCK PROFILE_NO_BLOCK
/* Runs of written bytes kept per node over all its epochs (exact: an
 * epoch that does not fit is dropped and counted, never summarised). */
#define RUN_POOL_MAX ((size_t)1 << 22)
#define READS_MAX (1u << 18) /* read evidence records per node */
/* Timeslices kept per node: past that the interval doubles (pairs merge),
 * so a long run costs at most this many slices. */
#define TS_MAX PROFILE_SLICES_MAX

typedef struct pblk {
    uint32_t cold, inval, upgrade;
    uint8_t had;      /* this node had a copy before */
    uint8_t lost;     /* a copy of it was taken away from this node (INV, RECALL) */
    uint64_t first_tick; /* fault entry of its first miss (ticks; ns when shipped) */
    uint64_t cold_wall, inval_wall, upgrade_wall; /* ticks (dsm_ticks) */
    unsigned char *twin;
    uint64_t twin_t0; /* ticks (dsm_ticks), as in prof_epoch until serialized */
    uint64_t t1;      /* pending: when write access went (the epoch's end), ticks */
    uint8_t pending;  /* the epoch ended; its diff waits (dsm_prof_flush_block) */
    uint8_t remote_writer; /* home: a remote node's write epoch was seen */
    int32_t rowner;   /* home: the remote node in a write epoch (while rt0 != 0) */
    uint64_t rt0;     /* home: when that epoch was granted, ticks; 0: none open */
} pblk;

typedef struct prof_alloc {
    size_t off, len;
    char *name;
    void *frames[MAX_FRAMES];
    int nframes, collective;
} prof_alloc;

/* A write epoch; its runs are pool[first .. first + n); times in ticks
 * (dsm_ticks) until serialized. */
typedef struct prof_epoch {
    uint32_t block;
    int32_t node;
    uint64_t t0, t1;
    size_t first;
    uint32_t n;
} prof_epoch;

typedef struct ip_ent {
    uintptr_t ip;
    uint32_t block, used;
    uint32_t reads, writes, upgrades;
    uint64_t wall;
} ip_ent;

typedef struct tslice {
    uint64_t misses, wall, barrier; /* wall: ticks (dsm_ticks); barrier: ns */
} tslice;

struct dsm_prof {
    char *path;
    size_t bs;
    pblk **chunk;
    uint32_t nchunks;
    pthread_mutex_t reg_lock; /* the registry: allocations run outside eng_lock */
    prof_alloc *allocs;
    size_t nallocs, capallocs;
    prof_epoch *ep;
    size_t nep, capep;
    uint64_t ep_dropped, twins_skipped;
    profile_range *pool;  /* every epoch's exact runs, back to back */
    size_t npool, cappool;
    profile_rec_read *rd; /* read evidence: t in ticks until serialized */
    size_t nrd, caprd;
    uint64_t reads_dropped;
    size_t twin_bytes;
    unsigned char *twin_free[1024]; /* recycled twins: no malloc per write grant */
    int ntwin_free;
    profile_range *runs; /* a diff's changed runs, PROF_DIFF_MAX_RUNS(bs) (under eng_lock) */
    ip_ent *ipt;
    size_t ipcap, ipn;
    profile_wbuf *rx; /* node 0: serialized data per node */
    /* timeslices: slice i covers job time [i, i + 1) * ts_iv ns from
     * clock_base (the job's start, the same at every node) */
    tslice *ts;
    size_t nts, capts;
    uint64_t ts_iv, clock_base;
    size_t ts_cur;         /* the slice of the last fault */
    /* blocks whose write epoch ended and whose diff is deferred, so that
     * it is off the path of the INV/RECALL reply (may hold stale entries) */
    uint32_t *pend; /* grows with the twins alive: never a forced flush of many */
    size_t npend, cappend;
    uint64_t ts_end_ticks; /* when it ends, in ticks (estimated; 0: unknown) */
    int recording; /* 0: no new misses, slices or twins (bench/bench_profile_miss) */
    /* Remote write epochs are diffed at the home, against its memory, when
     * the data comes back (no twin at the writer: a 4 KiB copy on every
     * write grant was most of the profile's cost per miss); only the
     * home's own epochs take twins.  Off for a transport that places data
     * in memory itself (verbs): then every writer twins. */
    int home_diff;
};

/* The write epoch of block (its twin) ends: diffed and logged now
 * (eng_lock held). */
void prof_end_epoch(dsm_rt *rt, uint32_t block, pblk *b);

#endif
