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
MAIN_ENV

#define CHUNK 16

typedef struct { double x, y, vx, vy, m; } body;

struct GlobalMemory {
    LOCKDEC(lock)
    CONDVARDEC(stepped)
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
            LOCK(Global->lock)
            chunk = Global->next++;
            UNLOCK(Global->lock)
            if (chunk * CHUNK >= N)
                break;
            for (long i = chunk * CHUNK; i < N && i < (chunk + 1) * CHUNK; i++)
                advance(src, dst, i);
        }
        LOCK(Global->lock)
        if (++Global->arrived == P) {
            Global->arrived = 0;
            Global->next = 0;
            Global->step++;
            CONDVARBCAST(Global->stepped)
        } else {
            while (Global->step == s)
                CONDVARWAIT(Global->stepped, Global->lock)
        }
        UNLOCK(Global->lock)
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
    MAIN_INITENV(, 64000000)
    Global = (struct GlobalMemory *)G_MALLOC(sizeof *Global);
    Bodies[0] = (body *)G_MALLOC(N * sizeof(body));
    Bodies[1] = (body *)G_MALLOC(N * sizeof(body));
    LOCKINIT(Global->lock)
    CONDVARINIT(Global->stepped)
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
    CLOCK(t0)
    CREATE(SlaveStart, P)
    WAIT_FOR_END(P)
    CLOCK(t1)
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
    MAIN_END
}
