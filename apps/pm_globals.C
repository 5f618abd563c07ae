/* pm_globals.C - a PARMACS program whose shared state lives in file-scope
 * globals, as FMM and VOLREND keep theirs (built through dsm-parmacs).
 *
 * The shared globals carry DSM_SHARED (dsm.h): the histogram the processes
 * fill, the lock and barrier ids, the id counter, a total.  The private
 * globals (the sizes, the seed) are written by the master before CREATE
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
MAIN_ENV

#define BINS 64

DSM_SHARED static long Hist[BINS];
DSM_SHARED static LOCKDEC(HistLock)
DSM_SHARED static BARDEC(Bar)
DSM_SHARED static long NextId;
DSM_SHARED static long Complete;   /* processes that saw the full histogram */

static long N = 100000, P = 4;     /* private, set by the master before CREATE */
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
    LOCK(HistLock)
    me = NextId++;
    UNLOCK(HistLock)
    for (long i = me * N / P; i < (me + 1) * N / P; i++)
        local[bin_of((unsigned long)i)]++;
    LOCK(HistLock)
    for (int b = 0; b < BINS; b++)
        Hist[b] += local[b];
    UNLOCK(HistLock)
    BARRIER(Bar, P)
    long sum = 0;
    for (int b = 0; b < BINS; b++)
        sum += Hist[b];
    if (sum == N) {
        LOCK(HistLock)
        Complete++;
        UNLOCK(HistLock)
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
    MAIN_INITENV(, 1000000)
    LOCKINIT(HistLock)
    BARINIT(Bar, P)
    Seed = 0x5eed;
    CREATE(SlaveStart, P)
    WAIT_FOR_END(P)
    long want[BINS] = { 0 };
    for (long i = 0; i < N; i++)
        want[bin_of((unsigned long)i)]++;
    int ok = memcmp(want, Hist, sizeof want) == 0 && Complete == P;
    printf("pm_globals: N=%ld P=%ld: %ld processes saw the whole histogram\n", N, P, Complete);
    printf("pm_globals: result %s\n", ok ? "OK" : "WRONG");
    if (!ok)
        exit(1);
    MAIN_END
}
