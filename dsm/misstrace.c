/* misstrace.c - the trace of misspath steps (misstrace.h), compiled to
 * nothing unless DSM_MISS_TRACE is defined.  Events go to a fixed array
 * (one atomic add each, no lock, so the trace perturbs the times it takes
 * by a clock read and a store) and are written out at exit. */
#include "misstrace.h"

#ifdef DSM_MISS_TRACE
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include "futex.h"
#include "node.h"

#define MT_CAP (1u << 20)

struct mt_rec {
    uint64_t t;
    uint32_t block;
    uint16_t event, detail;
    uint8_t progress;
};

static struct mt_rec *recs;
static _Atomic uint32_t nrecs;
static _Atomic int armed;
static __thread uint8_t is_progress;

void dsm_mt_progress_thread(void) { is_progress = 1; }

static void dump(void)
{
    dsm_rt *rt = dsm_g;
    char path[64];
    snprintf(path, sizeof path, "/tmp/dsm-misstrace.%d", rt ? rt->self : -1);
    FILE *f = fopen(path, "w");
    if (!f)
        return;
    uint32_t n = atomic_load(&nrecs);
    if (n > MT_CAP)
        n = MT_CAP;
    for (uint32_t i = 0; i < n; i++)
        fprintf(f, "%llu %u %u %u %u\n", (unsigned long long)recs[i].t, recs[i].event,
                recs[i].block, recs[i].detail, recs[i].progress);
    fclose(f);
}

void dsm_mt(int event, uint32_t block, uint32_t detail)
{
    if (!atomic_load_explicit(&armed, memory_order_acquire)) {
        static _Atomic int once;
        if (atomic_exchange(&once, 1) == 0) {
            recs = calloc(MT_CAP, sizeof *recs);
            if (recs)
                atexit(dump);
            atomic_store_explicit(&armed, recs ? 1 : -1, memory_order_release);
        }
        while (!atomic_load_explicit(&armed, memory_order_acquire))
            ;
    }
    if (atomic_load_explicit(&armed, memory_order_relaxed) < 0)
        return;
    uint64_t t = dsm_now_ns();
    uint32_t i = atomic_fetch_add_explicit(&nrecs, 1, memory_order_relaxed);
    if (i < MT_CAP)
        recs[i] = (struct mt_rec){ t, block, (uint16_t)event, (uint16_t)detail, is_progress };
}
#else
typedef int dsm_misstrace_empty; /* ISO C: a translation unit declares something */
#endif
