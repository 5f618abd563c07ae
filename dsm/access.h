/* access.h - block mode: the per-block state table that a program compiled
 * with `dsmcc --dsm` (the dsmcheck pass, dsm/tools/checkpass/) tests inline
 * before each shared load and store, and the runtime side of those checks
 * (access.c): the slow path, the chunked memcpy/memmove/memset, the thread
 * registry and the safe lowering of a block's state (doc/protocol.md,
 * "Block mode").
 *
 * The names starting with __dsm_blk are the compiler's interface: the pass
 * reads __dsm_blk and writes __dsm_blk_window, and calls the functions; they
 * are exported (DSM_API, dsm/libdsm.symbols) and their layout is fixed by
 * DSM_BLK_ABI. */
#ifndef DSM_ACCESS_H
#define DSM_ACCESS_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "dsm.h"

/* The layout of __dsm_blk and the meaning of the state bytes; a module
 * built for another ABI is refused at start-up. */
#define DSM_BLK_ABI 3
/* The widest group of accesses one inline check covers (dsmcheck.cpp). */
#define DSM_BLK_MAX_SPAN 64
/* Range windows per thread: the spans a versioned loop checked before it
 * started (dsm/tools/checkpass/loops.cpp). */
#define DSM_BLK_RANGES 8
#define DSM_BLK_WINDOW_WORDS (1 + 2 * DSM_BLK_RANGES)
/* A window value that names every block (wide accesses, chunked copies). */
#define DSM_BLK_WINDOW_ALL ((uintptr_t)1)

enum { DSM_BLK_INVALID = 0, DSM_BLK_READ = 1, DSM_BLK_WRITE = 2 };
/* In the slow path's need only (ABI 3): the checked group needing write
 * access also reads its bytes (a load or an atomic among its accesses). */
#define DSM_BLK_ALSO_READS 4

/* What the inline check reads.  All zero until dsm_init has set up block
 * mode, so a checked program that never joins a job (or runs in page mode)
 * fails the range test on every access and runs unchecked. */
struct dsm_blk_globals {
    uintptr_t base;    /* the region's first byte */
    uintptr_t size;    /* its length: off = addr - base is shared when off < size */
    uint64_t shift;    /* log2 of the block size */
    uint8_t *state;    /* one DSM_BLK_* byte per block (+1 byte of slack) */
};

DSM_API extern struct dsm_blk_globals __dsm_blk;
/* [0]: the address of the access(es) between a check and their end, or 0
 * (the window covers DSM_BLK_MAX_SPAN bytes from there);
 * [1 + 2r], [2 + 2r]: range window r, bytes [lo, hi) a versioned loop
 * checked before it started and accesses until it exits; lo is 0 when the
 * window is closed.  The pass stores hi before lo when it opens one. */
DSM_API extern __thread uintptr_t __dsm_blk_window[DSM_BLK_WINDOW_WORDS];

DSM_API void __dsm_blk_register(uint32_t abi);
DSM_API void __dsm_blk_miss(uint64_t addr, uint64_t len, uint32_t need);
/* The slow path of a check inside a versioned loop's fast copy, whose range
 * windows are open (an access the range check could not bound, e.g. a
 * scatter through loaded indices): `needs` holds the need of range window
 * r in bits 2r..2r+1.  Closes every window while it waits, and returns
 * with the access's window and the range windows open again and all their
 * blocks good. */
DSM_API void __dsm_blk_miss_ranges(uint64_t addr, uint64_t len, uint32_t need, uint32_t needs);
DSM_API void __dsm_blk_memcpy(void *dst, const void *src, uint64_t n);
DSM_API void __dsm_blk_memmove(void *dst, const void *src, uint64_t n);
DSM_API void __dsm_blk_memset(void *dst, int c, uint64_t n);
DSM_API int __dsm_blk_memcmp(const void *a, const void *b, uint64_t n);
DSM_API int __dsm_blk_pthread_create(pthread_t *thread, const pthread_attr_t *attr,
                                     void *(*start)(void *), void *arg);

/* ---- the runtime's side (not exported) ---- */

/* 1 when a module of the program was compiled with the checks. */
extern int dsm_blk_checked;

struct dsm_rt;
struct dsm_region;
/* Allocates the state table of a region being mapped in block mode; 0 or -1. */
int dsm_blk_table_create(struct dsm_region *r);
void dsm_blk_table_destroy(struct dsm_region *r);
/* Publishes the region to the inline checks (end of dsm_init); 0 or -1
 * after printing why. */
int dsm_blk_start(struct dsm_rt *rt);
/* The block mode counterpart of mprotect: sets the state byte; when access
 * goes down, returns only once no application thread can still be between
 * a check that saw the old state and its access. */
void dsm_blk_set(struct dsm_region *r, uint32_t block, int access);

/* Around the program's asynchronous signal handlers (blk_signal.c): the
 * windows the handler interrupted, kept visible to dsm_blk_set while the
 * handler's own checks reuse __dsm_blk_window.  saved[d] holds the windows
 * of nesting level d while depth > d; seq counts every entry and exit, so
 * a scan that read the same seq before and after saw one consistent
 * moment (doc/protocol.md, "Signal handlers in block mode").  A saved
 * window does not hold a lowering back: the lowering notes the block in
 * log, and the wrapper fetches it back before it returns ("A handler over
 * an open window"). */
#define DSM_BLK_SIG_DEPTH 8
/* Entries of the log (a block noted twice takes one; past them the
 * wrapper fetches every block its windows name, for writing). */
#define DSM_BLK_SIG_LOG 32
struct dsm_blk_sigsave {
    _Atomic uint64_t seq;
    _Atomic uint32_t depth;
    _Atomic(uintptr_t) saved[DSM_BLK_SIG_DEPTH][DSM_BLK_WINDOW_WORDS];
    /* what a window DSM_BLK_WINDOW_ALL covers, as byte ranges [lo, hi)
     * (0: none): wide for the thread's live window (access.c, wide_set),
     * saved_wide[d] for the one saved beside saved[d] */
    uintptr_t wide[4];
    _Atomic(uintptr_t) saved_wide[DSM_BLK_SIG_DEPTH][4];
    /* written by the lowering threads: (block + 1) << 8 | state before */
    _Atomic uint32_t nlog, overflow;
    _Atomic uint64_t log[DSM_BLK_SIG_LOG];
};
extern __thread struct dsm_blk_sigsave dsm_blk_sigsave;
/* A lowering does not wait for a saved window: it notes the block in the
 * log instead.  dsm_blk_sig_settle: whether a noted block that saved[d]
 * names is below the state it had (fetch: fetches each such block first);
 * the wrapper's return (blk_signal.c) runs it before and after it puts the
 * windows back.  dsm_blk_sig_log_reset: once no level is saved. */
int dsm_blk_sig_settle(uint32_t d, int fetch);
void dsm_blk_sig_log_reset(void);
/* Forgets the saved windows of handlers that left by siglongjmp (their
 * wrapper frames lie below `here`, a frame of the caller): the wrapper
 * calls it on entry, the slow path when it enters the runtime. */
void dsm_blk_sig_drop_abandoned(uintptr_t here);
/* Whether any registered thread, the caller's included, has a window,
 * live or saved by a handler's wrapper, over bytes [lo, hi) (tests). */
int dsm_blk_windows_name(uintptr_t lo, uintptr_t hi);

#endif
