/* parmacs_all.C - every macro of dsm-parmacs, used once the way SPLASH
 * programs use them, each with a check of what it did (tests/parmacs_all.sh
 * runs it natively, on 2 and 3 nodes and simulated).
 *   CLOCK before MAIN_INITENV (the job started before main), CREATE(fn) and
 *   CREATE(fn, P), WAIT_FOR_END, GET_PID, GET_HOME, G_MALLOC/NU_MALLOC(_F),
 *   G_FREE/NU_FREE, free() of G_MALLOC memory, LOCK, NLOCK, SPINLOCK, ALOCK/AGETL, BARRIER, GETSUB
 *   (and NU_), PAUSE flags, CONDVARs, semaphores, the no-op hooks.
 * Prints "parmacs_all: result OK". */
#include <string.h>
MAIN_ENV

#define P 3
#define NLOCKS 2000

struct G {
    LOCKDEC(lock)
    NLOCKDEC(nlock)
    SPINLOCKDEC(spin)
    ALOCKDEC(locks, NLOCKS)
    BARDEC(bar)
    GSDEC(gs)
    NU_GSDEC(nugs)
    PAUSEDEC(flag)
    CONDVARDEC(cv)
    SEMDEC(sem)
    ADEC(a)
    long counter, ncounter, scounter, fsubs[64], nfsubs, fsem, perlock[NLOCKS], subs[64], nsubs, pids, single, cvstate, semtaken;
};
static struct G *g;
static long errors;
/* file-scope, private to each node: their changing part is shared all the same */
static GSDEC(FileGs)
static PAUSEDEC(FilePause)
static SEMDEC(FileSem)

static void fail(const char *what)
{
    fprintf(stderr, "parmacs_all: %s\n", what);
    errors++;
}

static void Single(void)
{
    long pid;
    GET_PID(pid)
    LOCK(g->lock)
    g->single = pid;
    UNLOCK(g->lock)
}

static void Worker(void)
{
    long pid, home, s;
    GET_PID(pid)
    GET_HOME(home)
    (void)home;
    LOCK(g->lock) g->counter++; g->pids += pid; UNLOCK(g->lock)
    NLOCK(g->nlock) g->ncounter++; NUNLOCK(g->nlock)
    SPINLOCK(g->spin) g->scounter++; SPINUNLOCK(g->spin)
    for (long i = 0; i < NLOCKS; i += 7) {
        ALOCK(g->locks, i)
        g->perlock[i]++;
        AULOCK(g->locks, i)
    }
    BARRIER(g->bar, P)
    /* every process takes subscripts until -1: each of 0..40 exactly once */
    for (;;) {
        GETSUB(g->gs, s, 40, P)
        if (s < 0)
            break;
        LOCK(g->lock) g->subs[s]++; g->nsubs++; UNLOCK(g->lock)
    }
    BARRIER(g->bar, P)
    for (;;) {
        GETSUB(FileGs, s, 20, P)
        if (s < 0)
            break;
        LOCK(g->lock) g->fsubs[s]++; g->nfsubs++; UNLOCK(g->lock)
    }
    if (pid == 0) {
        SETPAUSE(FilePause)
    } else {
        WAITPAUSE(FilePause)
        UNLOCK(FilePause.lock)
    }
    SEMP(FileSem)
    LOCK(g->lock) g->fsem++; UNLOCK(g->lock)
    BARRIER(g->bar, P)
    /* process 0 sets the flag after the others waited; they see it set */
    if (pid == 0) {
        SETPAUSE(g->flag)
    } else {
        WAITPAUSE(g->flag)
        if (*g->flag.flag != 1)
            fail("the pause wait returned with the flag clear");
        UNLOCK(g->flag.lock)
    }
    BARRIER(g->bar, P)
    /* a condition variable: the others wait until process 0 moves the state */
    LOCK(g->lock)
    if (pid == 0) {
        g->cvstate = 1;
        CONDVARBCAST(g->cv)
    } else {
        while (g->cvstate == 0)
            CONDVARWAIT(g->cv, g->lock)
    }
    UNLOCK(g->lock)
    /* the semaphore starts at 1: each process takes and gives it back */
    SEMP(g->sem)
    LOCK(g->lock) g->semtaken++; UNLOCK(g->lock)
    SEMV(g->sem)
    BARRIER(g->bar, P)
    AUG_ON AUG_OFF TRACE_ON TRACE_OFF REF_TRACE_ON REF_TRACE_OFF
    DYN_TRACE_ON DYN_TRACE_OFF DYN_REF_TRACE_ON DYN_REF_TRACE_OFF DYN_SIM_ON DYN_SIM_OFF
    DYN_SCHED_ON DYN_SCHED_OFF AUG_SET_LOLIMIT AUG_SET_HILIMIT
    MENTER DELAY CONTINUE MEXIT MONINIT EVENT(g->flag) PAUSE(g->flag) ST_LOG SET_HOME
    BAREXCLUDE(g->bar) BARINCLUDE(g->bar) PROBEND(g->a)
}

int main(void)
{
    unsigned long t0, t1;
    CLOCK(t0)
    MAIN_INITENV(, 1000000)
    g = (struct G *)G_MALLOC(sizeof *g);
    memset(g, 0, sizeof *g);
    LOCKINIT(g->lock)
    NLOCKINIT(g->nlock)
    SPINLOCKINIT(g->spin)
    ALOCKINIT(g->locks, NLOCKS)
    BARINIT(g->bar, P)
    GSINIT(g->gs)
    NU_GSINIT(g->nugs)
    PAUSEINIT(g->flag)
    CONDVARINIT(g->cv)
    SEMINIT(g->sem, 1)
    GSINIT(FileGs)
    PAUSEINIT(FilePause)
    SEMINIT(FileSem, P)
    AINIT(g->a)
    if (AGETL(g->locks, 0) == AGETL(g->locks, 1))
        fail("the lock array holds one lock twice");
    long s;
    NU_GETSUB(g->nugs, s, 5, P)
    if (s != 0)
        fail("the NU_ global subscript did not start at 0");
    double *nu = (double *)NU_MALLOC(64 * sizeof(double));
    double *gf = (double *)G_MALLOC_F(64 * sizeof(double));
    double *nf = (double *)NU_MALLOC_F(64 * sizeof(double));
    if (!nu || !gf || !nf)
        fail("an allocation failed");
    nu[63] = gf[63] = nf[63] = 1;
    G_FREE(gf)
    NU_FREE(nf)
    /* free() of shared memory (natively G_MALLOC is malloc), and of private */
    double *sh = (double *)G_MALLOC(32 * sizeof(double));
    char *priv = malloc(100);
    sh[0] = 1;
    free(sh);
    free(priv);
    void (*release)(void *) = free; /* free as a value: the C library's */
    release(malloc(10));

    CREATE(Single)
    WAIT_FOR_END(1)
    if (g->single < 1)
        fail("the single task's id was not a task id");
    CREATE(Worker, P)
    WAIT_FOR_END(P)
    CLOCK(t1)

    if (g->counter != P || g->ncounter != P || g->scounter != P)
        fail("a lock, N-lock or spin lock lost a count");
    for (long i = 0; i < NLOCKS; i += 7)
        if (g->perlock[i] != P) {
            fail("a lock of the array lost a count");
            break;
        }
    for (long i = 0; i <= 40; i++)
        if (g->subs[i] != 1) {
            fail("global subscript: one was handed out twice or never");
            break;
        }
    if (g->nsubs != 41)
        fail("global subscript: not 41 of them");
    for (long i = 0; i <= 20; i++)
        if (g->fsubs[i] != 1) {
            fail("a file-scope global subscript was handed out twice or never");
            break;
        }
    if (g->nfsubs != 21 || g->fsem != P)
        fail("a file-scope global subscript or semaphore lost a process");
    if (g->semtaken != P)
        fail("the semaphore lost a process");
    if (t1 < t0)
        fail("the clock went back");
    /* microseconds, as SPLASH reads them (not on a simulated machine, whose
     * clock is simulated time) */
    if (!getenv("DSM_MACHINE")) {
        unsigned long c0, c1;
        CLOCK(c0)
        usleep(200000);
        CLOCK(c1)
        if (c1 - c0 < 150000 || c1 - c0 > 5000000)
            fail("the clock is not in microseconds");
    }
    printf("parmacs_all: %ld us, %s\n", t1 - t0, errors ? "errors" : "no error");
    printf("parmacs_all: result %s\n", errors ? "WRONG" : "OK");
    if (errors)
        exit(1);
    MAIN_END
}
