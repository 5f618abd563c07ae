/* pm_nbody.C - a 2-D gravitational n-body step loop in PARMACS style whose
 * processes meet on a condition variable (built through dsm-parmacs).
 *
 * Positions are double-buffered: a step reads buffer s and writes buffer
 * 1-s, so a body's new state depends only on the old ones.  Processes take
 * chunks of CHUNK bodies from a shared counter under a lock; at the end of
 * a step each process arrives under that lock and either is the last (it
 * resets the counter, advances the step and CONDVARBCASTs) or CONDVARWAITs
 * until the step changes: a barrier made of a condition variable, with no
 * polling.  The master then recomputes all steps alone with the same
 * function and checks that every coordinate is bit for bit the same.
 *
 * Usage: pm_nbody [-p P] [-n N] [-s STEPS]   (default 4, 256, 4)
 * Prints "pm_nbody: result OK". */
#include <math.h>
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


#define CHUNK 16

typedef struct { double x, y, vx, vy, m; } body;

struct GlobalMemory {
    unsigned lock;
    unsigned stepped;
    long next;       /* next chunk of this step */
    long arrived;    /* processes done with this step */
    long step;
};

static struct GlobalMemory *Global;
static body *Bodies[2];
static long N = 256, P = 4, Steps = 4;

static void advance(const body *src, body *dst, long i)
{
    double ax = 0, ay = 0;
    for (long j = 0; j < N; j++) {
        if (j == i)
            continue;
        double dx = src[j].x - src[i].x, dy = src[j].y - src[i].y;
        double r2 = dx * dx + dy * dy + 1e-3;
        double f = src[j].m / (r2 * sqrt(r2));
        ax += f * dx;
        ay += f * dy;
    }
    const double dt = 1e-3;
    dst[i] = src[i];
    dst[i].vx += dt * ax;
    dst[i].vy += dt * ay;
    dst[i].x += dt * dst[i].vx;
    dst[i].y += dt * dst[i].vy;
}

static void SlaveStart(void)
{
    for (long s = 0; s < Steps; s++) {
        const body *src = Bodies[s & 1];
        body *dst = Bodies[(s + 1) & 1];
        for (;;) {
            long chunk;
            { dsm_lock(Global->lock); }
            chunk = Global->next++;
            { dsm_unlock(Global->lock); }
            if (chunk * CHUNK >= N)
                break;
            for (long i = chunk * CHUNK; i < N && i < (chunk + 1) * CHUNK; i++)
                advance(src, dst, i);
        }
        { dsm_lock(Global->lock); }
        if (++Global->arrived == P) {
            Global->arrived = 0;
            Global->next = 0;
            Global->step++;
            { dsm_cond_broadcast(Global->stepped); }
        } else {
            while (Global->step == s)
                { dsm_cond_wait((Global->stepped), (Global->lock)); }
        }
        { dsm_unlock(Global->lock); }
    }
}

int main(int argc, char **argv)
{
    int c;
    while ((c = getopt(argc, argv, "p:n:s:")) != -1) {
        if (c == 'p') P = atol(optarg);
        else if (c == 'n') N = atol(optarg);
        else if (c == 's') Steps = atol(optarg);
        else {
            fprintf(stderr, "usage: pm_nbody [-p P] [-n N] [-s STEPS]\n");
            exit(2);
        }
    }
    if (P < 1 || N < 2 || Steps < 1) {
        fprintf(stderr, "pm_nbody: need P >= 1, N >= 2, STEPS >= 1\n");
        exit(2);
    }
    {;}
    Global = (struct GlobalMemory *)dsm_parmacs_malloc_(sizeof *Global);;
    Bodies[0] = (body *)dsm_parmacs_malloc_(N * sizeof(body));;
    Bodies[1] = (body *)dsm_parmacs_malloc_(N * sizeof(body));;
    { (Global->lock) = dsm_lock_new(); }
    { (Global->stepped) = dsm_cond_new(); }
    Global->next = Global->arrived = Global->step = 0;
    body *ref[2] = { malloc(N * sizeof(body)), malloc(N * sizeof(body)) };
    unsigned long seed = 7;
    for (long i = 0; i < N; i++) {
        double v[5];
        for (int k = 0; k < 5; k++) {
            seed = seed * 6364136223846793005ul + 1442695040888963407ul;
            v[k] = (double)(seed >> 11) / 9007199254740992.0;
        }
        Bodies[0][i] = (body){ v[0], v[1], v[2] - 0.5, v[3] - 0.5, 0.5 + v[4] };
    }
    memcpy(ref[0], Bodies[0], N * sizeof(body));
    unsigned long t0, t1;
    { (t0) = dsm_parmacs_clock_(); }
    { long dsm_parmacs_i_; for (dsm_parmacs_i_ = 1; dsm_parmacs_i_ < (long)(P); dsm_parmacs_i_++) dsm_parmacs_create_((void (*)(void))(SlaveStart)); SlaveStart(); }
    { dsm_parmacs_wait_(); }
    { (t1) = dsm_parmacs_clock_(); }
    for (long s = 0; s < Steps; s++)
        for (long i = 0; i < N; i++)
            advance(ref[s & 1], ref[(s + 1) & 1], i);
    const body *got = Bodies[Steps & 1], *want = ref[Steps & 1];
    long bad = 0;
    for (long i = 0; i < N; i++)
        bad += memcmp(&got[i], &want[i], sizeof(body)) != 0;
    int ok = bad == 0 && Global->step == Steps;
    printf("pm_nbody: N=%ld P=%ld steps=%ld: %lu us, %ld bodies differ\n", N, P, Steps, t1 - t0,
           bad);
    printf("pm_nbody: result %s\n", ok ? "OK" : "WRONG");
    free(ref[0]);
    free(ref[1]);
    if (!ok)
        exit(1);
    { dsm_parmacs_end_(); exit(0); }
}
