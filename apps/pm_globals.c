/* pm_globals.C - a PARMACS program whose shared state lives in file-scope
 * globals, as FMM and VOLREND keep theirs (built through dsm-parmacs).
 *
 * The shared globals carry DSM_SHARED (dsm.h): the histogram the processes
 * fill, the lock and barrier ids, the id counter, a total.  The private
 * globals (the sizes, the seed) are written by the master before { dsm_parmacs_create_((void (*)(void))()); }
 * and seen by every process as they were then.  Each process histograms
 * its share of a pseudo-random sequence privately, adds it into the shared
 * histogram under the lock, meets the others at the barrier and checks
 * that the histogram is then complete; the master checks it against its
 * own count.
 *
 * Usage: pm_globals [-p P] [-n N]   (default 4, 100000)
 * Prints "pm_globals: result OK". */
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


#define BINS 64

DSM_SHARED static long Hist[BINS];
DSM_SHARED static unsigned HistLock;
DSM_SHARED static unsigned Bar;
DSM_SHARED static long NextId;
DSM_SHARED static long Complete;   /* processes that saw the full histogram */

static long N = 100000, P = 4;     /* private, set by the master before { dsm_parmacs_create_((void (*)(void))()); } */
static unsigned long Seed;

static unsigned bin_of(unsigned long i)
{
    unsigned long x = (i + Seed) * 0x9E3779B97F4A7C15ul;
    x ^= x >> 29;
    return (unsigned)(x % BINS);
}

static void SlaveStart(void)
{
    long me, local[BINS] = { 0 };
    { dsm_lock(HistLock); }
    me = NextId++;
    { dsm_unlock(HistLock); }
    for (long i = me * N / P; i < (me + 1) * N / P; i++)
        local[bin_of((unsigned long)i)]++;
    { dsm_lock(HistLock); }
    for (int b = 0; b < BINS; b++)
        Hist[b] += local[b];
    { dsm_unlock(HistLock); }
    { dsm_barrier_n((Bar), (unsigned)(P)); }
    long sum = 0;
    for (int b = 0; b < BINS; b++)
        sum += Hist[b];
    if (sum == N) {
        { dsm_lock(HistLock); }
        Complete++;
        { dsm_unlock(HistLock); }
    } else {
        fprintf(stderr, "pm_globals: process %ld sees %ld of %ld values after the barrier\n", me,
                sum, N);
    }
}

int main(int argc, char **argv)
{
    int c;
    while ((c = getopt(argc, argv, "p:n:")) != -1) {
        if (c == 'p') P = atol(optarg);
        else if (c == 'n') N = atol(optarg);
        else {
            fprintf(stderr, "usage: pm_globals [-p P] [-n N]\n");
            exit(2);
        }
    }
    if (P < 1 || N < P) {
        fprintf(stderr, "pm_globals: need P >= 1 and N >= P\n");
        exit(2);
    }
    {;}
    { (HistLock) = dsm_lock_new(); }
    { (Bar) = dsm_barrier_new(); }
    Seed = 0x5eed;
    { long dsm_parmacs_i_; for (dsm_parmacs_i_ = 1; dsm_parmacs_i_ < (long)(P); dsm_parmacs_i_++) dsm_parmacs_create_((void (*)(void))(SlaveStart)); SlaveStart(); }
    { dsm_parmacs_wait_(); }
    long want[BINS] = { 0 };
    for (long i = 0; i < N; i++)
        want[bin_of((unsigned long)i)]++;
    int ok = memcmp(want, Hist, sizeof want) == 0 && Complete == P;
    printf("pm_globals: N=%ld P=%ld: %ld processes saw the whole histogram\n", N, P, Complete);
    printf("pm_globals: result %s\n", ok ? "OK" : "WRONG");
    if (!ok)
        exit(1);
    { dsm_parmacs_end_(); exit(0); }
}
