/* pm_radix.C - parallel radix sort in PARMACS style, with the rank prefix
 * passed along a chain of pause flags (built through dsm-parmacs).
 *
 * P processes each own N/P keys.  Per pass of RBITS bits: each process
 * counts its digits (hist[p]); then the carries run down the chain: process
 * p waits on pause flag p-1 (WAITPAUSE), adds process p-1's carry and
 * counts to make its own (carry[p][d] = keys of digit d in processes
 * before p), lets flag p-1 go (CLEARPAUSE) and sets flag p (SETPAUSE):
 * nobody polls; BARRIER; every process places its keys at
 * start[d] + carry[p][d] + (its earlier keys of digit d); BARRIER; swap.
 * The master checks the result is sorted and is a permutation of the input.
 *
 * Usage: pm_radix [-p P] [-n N]   (default 4, 65536)
 * Prints "pm_radix: result OK". */
#include <string.h>
#include <getopt.h>
MAIN_ENV

#define RBITS 8
#define RADIX (1 << RBITS)
#define KEYBITS 24
#define MAXP 256

struct GlobalMemory {
    BARDEC(bar)
    LOCKDEC(idlock)
    long nextid;
    PAUSEDEC(done[MAXP])
    long hist[MAXP][RADIX];
    long carry[MAXP][RADIX];
};

static struct GlobalMemory *Global;
static unsigned *Key[2];
static long N = 65536, P = 4;

static void SlaveStart(void)
{
    long me;
    LOCK(Global->idlock)
    me = Global->nextid++;
    UNLOCK(Global->idlock)
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
            WAITPAUSE(Global->done[me - 1])
            for (int d = 0; d < RADIX; d++)
                cy[d] = Global->carry[me - 1][d] + Global->hist[me - 1][d];
            CLEARPAUSE(Global->done[me - 1])
        }
        SETPAUSE(Global->done[me])
        BARRIER(Global->bar, P)
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
        BARRIER(Global->bar, P)
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
    MAIN_INITENV(, 64000000)
    Global = (struct GlobalMemory *)G_MALLOC(sizeof *Global);
    Key[0] = (unsigned *)G_MALLOC(N * sizeof(unsigned));
    Key[1] = (unsigned *)G_MALLOC(N * sizeof(unsigned));
    BARINIT(Global->bar, P)
    LOCKINIT(Global->idlock)
    Global->nextid = 0;
    for (long p = 0; p < P; p++)
        PAUSEINIT(Global->done[p])
    unsigned long seed = 2024, sum = 0, sumsq = 0;
    for (long i = 0; i < N; i++) {
        seed = seed * 6364136223846793005ul + 1442695040888963407ul;
        Key[0][i] = (unsigned)(seed >> 40) & ((1u << KEYBITS) - 1);
        sum += Key[0][i];
        sumsq += (unsigned long)Key[0][i] * Key[0][i];
    }
    unsigned long t0, t1;
    CLOCK(t0)
    CREATE(SlaveStart, P)
    WAIT_FOR_END(P)
    CLOCK(t1)
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
    MAIN_END
}
