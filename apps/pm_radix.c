/* pm_radix.C - parallel radix sort in PARMACS style, with the rank prefix
 * passed along a chain of pause flags (built through dsm-parmacs).
 *
 * P processes each own N/P keys.  Per pass of RBITS bits: each process
 * counts its digits (hist[p]); then the carries run down the chain: process
 * p waits on pause flag p-1 ({ dsm_lock(().lock); while (().flag == 0) dsm_cond_wait(().cond, ().lock); }), adds process p-1's carry and
 * counts to make its own (carry[p][d] = keys of digit d in processes
 * before p), lets flag p-1 go ({ ().flag = 0; dsm_unlock(().lock); }) and sets flag p ({ dsm_lock(().lock); ().flag = 1; dsm_cond_broadcast(().cond); dsm_unlock(().lock); }):
 * nobody polls; { dsm_barrier_n((), (unsigned)()); }; every process places its keys at
 * start[d] + carry[p][d] + (its earlier keys of digit d); { dsm_barrier_n((), (unsigned)()); }; swap.
 * The master checks the result is sorted and is a permutation of the input.
 *
 * Usage: pm_radix [-p P] [-n N]   (default 4, 65536)
 * Prints "pm_radix: result OK". */
#include <string.h>
#include <getopt.h>

#include <dsm.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <malloc.h>
#include <sys/time.h>
#include <unistd.h>
#ifndef MAX_THREADS
#define MAX_THREADS 1024
#endif
#ifndef CACHE_BLOCK_SIZE
#define CACHE_BLOCK_SIZE 128
#endif
void dsm_parmacs_create_(void (*fn)(void));
void dsm_parmacs_wait_(void);
void dsm_parmacs_end_(void);
void *dsm_parmacs_malloc_(size_t size);
unsigned long dsm_parmacs_clock_(void);

static int *dsm_parmacs_tasks_;            /* tasks started, not yet joined */
static size_t dsm_parmacs_ntasks_, dsm_parmacs_captasks_;
static int dsm_parmacs_ended_;

static void dsm_parmacs_atexit_(void)
{
    dsm_parmacs_end_();
}

/* Before main: the master returns, every other node serves its tasks and
 * leaves when the master calls dsm_finalize.  glibc passes main arguments
 * to constructors. */
__attribute__((constructor)) static void dsm_parmacs_start_(int argc, char **argv)
{
    setenv("DSM_MALLOC_HOMES", "round-robin", 0);
    if (dsm_init_master(&argc, &argv) != 0) {
        perror("dsm-parmacs: dsm_init_master");
        exit(1);
    }
    atexit(dsm_parmacs_atexit_);
}

void dsm_parmacs_create_(void (*fn)(void))
{
    if (dsm_parmacs_ntasks_ == dsm_parmacs_captasks_) {
        size_t cap = dsm_parmacs_captasks_ ? 2 * dsm_parmacs_captasks_ : 64;
        int *v = realloc(dsm_parmacs_tasks_, cap * sizeof *v);
        if (!v) {
            fprintf(stderr, "dsm-parmacs: creating a task: out of memory\n");
            exit(1);
        }
        dsm_parmacs_tasks_ = v;
        dsm_parmacs_captasks_ = cap;
    }
    /* a function of no arguments, called with one: harmless in every C ABI */
    int task = dsm_create((void (*)(void *))fn, NULL);
    if (task < 1) {
        fprintf(stderr, "dsm-parmacs: creating a task: dsm_create failed\n");
        exit(1);
    }
    dsm_parmacs_tasks_[dsm_parmacs_ntasks_++] = task;
}

/* Joins every task started so far, whatever count the program gives
 * (SPLASH-2 counts the tasks, SPLASH-3 the processes). */
void dsm_parmacs_wait_(void)
{
    for (size_t i = 0; i < dsm_parmacs_ntasks_; i++)
        dsm_join(dsm_parmacs_tasks_[i]);
    dsm_parmacs_ntasks_ = 0;
}

void dsm_parmacs_end_(void)
{
    if (dsm_parmacs_ended_ || dsm_task() != 0)
        return;
    dsm_parmacs_ended_ = 1;
    dsm_parmacs_wait_();
    fflush(stdout);
    dsm_finalize();
}

void *dsm_parmacs_malloc_(size_t size)
{
    void *p = dsm_malloc(size, NULL);
    if (!p) { /* dsm_malloc said why, on stderr */
        fprintf(stderr, "dsm-parmacs: shared allocation of %zu bytes failed\n", size);
        exit(1);
    }
    return p;
}

unsigned long dsm_parmacs_clock_(void)
{
    return (unsigned long)(dsm_wtime() * 1e6);
}


#define RBITS 8
#define RADIX (1 << RBITS)
#define KEYBITS 24
#define MAXP 256

struct GlobalMemory {
    unsigned bar;
    unsigned idlock;
    long nextid;
    struct { unsigned lock, cond; volatile unsigned long flag; } done[MAXP];
    long hist[MAXP][RADIX];
    long carry[MAXP][RADIX];
};

static struct GlobalMemory *Global;
static unsigned *Key[2];
static long N = 65536, P = 4;

static void SlaveStart(void)
{
    long me;
    { dsm_lock(Global->idlock); }
    me = Global->nextid++;
    { dsm_unlock(Global->idlock); }
    long lo = me * N / P, hi = (me + 1) * N / P;
    int src = 0;
    for (int shift = 0; shift < KEYBITS; shift += RBITS, src ^= 1) {
        long *h = Global->hist[me], *cy = Global->carry[me];
        long count[RADIX] = { 0 };
        for (long i = lo; i < hi; i++)
            count[(Key[src][i] >> shift) & (RADIX - 1)]++;
        memcpy(h, count, sizeof count);
        if (me == 0) {
            memset(cy, 0, RADIX * sizeof *cy);
        } else {
            { dsm_lock((Global->done[me - 1]).lock); while ((Global->done[me - 1]).flag == 0) dsm_cond_wait((Global->done[me - 1]).cond, (Global->done[me - 1]).lock); }
            for (int d = 0; d < RADIX; d++)
                cy[d] = Global->carry[me - 1][d] + Global->hist[me - 1][d];
            { (Global->done[me - 1]).flag = 0; dsm_unlock((Global->done[me - 1]).lock); }
        }
        { dsm_lock((Global->done[me]).lock); (Global->done[me]).flag = 1; dsm_cond_broadcast((Global->done[me]).cond); dsm_unlock((Global->done[me]).lock); }
        { dsm_barrier_n((Global->bar), (unsigned)(P)); }
        /* digit starts, from the last process's carry and counts */
        long start[RADIX], pos[RADIX], s = 0;
        for (int d = 0; d < RADIX; d++) {
            start[d] = s;
            s += Global->carry[P - 1][d] + Global->hist[P - 1][d];
        }
        for (int d = 0; d < RADIX; d++)
            pos[d] = start[d] + cy[d];
        for (long i = lo; i < hi; i++) {
            unsigned k = Key[src][i];
            Key[src ^ 1][pos[(k >> shift) & (RADIX - 1)]++] = k;
        }
        { dsm_barrier_n((Global->bar), (unsigned)(P)); }
    }
}

int main(int argc, char **argv)
{
    int c;
    while ((c = getopt(argc, argv, "p:n:")) != -1) {
        if (c == 'p') P = atol(optarg);
        else if (c == 'n') N = atol(optarg);
        else {
            fprintf(stderr, "usage: pm_radix [-p P] [-n N]\n");
            exit(2);
        }
    }
    if (P < 1 || P > MAXP || N < P) {
        fprintf(stderr, "pm_radix: need 1 <= P <= %d and N >= P\n", MAXP);
        exit(2);
    }
    {;}
    Global = (struct GlobalMemory *)dsm_parmacs_malloc_(sizeof *Global);;
    Key[0] = (unsigned *)dsm_parmacs_malloc_(N * sizeof(unsigned));;
    Key[1] = (unsigned *)dsm_parmacs_malloc_(N * sizeof(unsigned));;
    { (Global->bar) = dsm_barrier_new(); }
    { (Global->idlock) = dsm_lock_new(); }
    Global->nextid = 0;
    for (long p = 0; p < P; p++)
        { (Global->done[p]).lock = dsm_lock_new(); (Global->done[p]).cond = dsm_cond_new(); (Global->done[p]).flag = 0; }
    unsigned long seed = 2024, sum = 0, sumsq = 0;
    for (long i = 0; i < N; i++) {
        seed = seed * 6364136223846793005ul + 1442695040888963407ul;
        Key[0][i] = (unsigned)(seed >> 40) & ((1u << KEYBITS) - 1);
        sum += Key[0][i];
        sumsq += (unsigned long)Key[0][i] * Key[0][i];
    }
    unsigned long t0, t1;
    { (t0) = dsm_parmacs_clock_(); }
    { long dsm_parmacs_i_; for (dsm_parmacs_i_ = 1; dsm_parmacs_i_ < (long)(P); dsm_parmacs_i_++) dsm_parmacs_create_((void (*)(void))(SlaveStart)); SlaveStart(); }
    { dsm_parmacs_wait_(); }
    { (t1) = dsm_parmacs_clock_(); }
    /* KEYBITS / RBITS passes: an odd count leaves the keys in Key[1] */
    const unsigned *out = Key[(KEYBITS / RBITS) & 1];
    int ok = 1;
    unsigned long s2 = 0, sq2 = 0;
    for (long i = 0; i < N; i++) {
        if (i && out[i - 1] > out[i])
            ok = 0;
        s2 += out[i];
        sq2 += (unsigned long)out[i] * out[i];
    }
    ok = ok && s2 == sum && sq2 == sumsq;
    printf("pm_radix: N=%ld P=%ld: %lu us\n", N, P, t1 - t0);
    printf("pm_radix: result %s\n", ok ? "OK" : "WRONG");
    if (!ok)
        exit(1);
    { dsm_parmacs_end_(); exit(0); }
}
