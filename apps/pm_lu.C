/* pm_lu.C - blocked dense LU factorisation (no pivoting) in PARMACS style,
 * built through dsm-parmacs (m4 at build time).  The master allocates the
 * matrix with G_MALLOC, block-contiguous (a B x B block is one run of
 * memory), makes it diagonally dominant so no pivoting is needed, CREATEs
 * P-1 processes and takes part itself; block (I, J) belongs to process
 * (I + J * nb) mod P.  Each step K: the owner factors the diagonal block;
 * BARRIER; the owners of row K and column K solve their blocks against it;
 * BARRIER; every owner updates its trailing blocks; BARRIER.
 * The master checks L * U against a private copy of A.
 *
 * Usage: pm_lu [-p P] [-n N] [-b B]   (N a multiple of B; default 4, 128, 16)
 * Prints "pm_lu: result OK" when max |LU - A| <= 1e-9 * max |A|. */
#include <math.h>
#include <string.h>
#include <getopt.h>
MAIN_ENV

struct GlobalMemory {
    BARDEC(step)
    LOCKDEC(idlock)
    long nextid;
};

static struct GlobalMemory *Global;
static double *A;          /* shared, block-contiguous */
static long N = 128, B = 16, P = 4, nb;

static double *blk(long I, long J) { return A + (I * nb + J) * B * B; }
static long owner(long I, long J) { return (I + J * nb) % P; }

static void factor_diag(double *a)
{
    for (long k = 0; k < B; k++)
        for (long i = k + 1; i < B; i++) {
            a[i * B + k] /= a[k * B + k];
            for (long j = k + 1; j < B; j++)
                a[i * B + j] -= a[i * B + k] * a[k * B + j];
        }
}

/* row block: A_KJ = L_KK^-1 A_KJ (L unit lower) */
static void solve_row(const double *d, double *a)
{
    for (long k = 0; k < B; k++)
        for (long i = k + 1; i < B; i++)
            for (long j = 0; j < B; j++)
                a[i * B + j] -= d[i * B + k] * a[k * B + j];
}

/* column block: A_IK = A_IK U_KK^-1 */
static void solve_col(const double *d, double *a)
{
    for (long k = 0; k < B; k++)
        for (long i = 0; i < B; i++) {
            a[i * B + k] /= d[k * B + k];
            for (long j = k + 1; j < B; j++)
                a[i * B + j] -= a[i * B + k] * d[k * B + j];
        }
}

static void update(double *c, const double *l, const double *u)
{
    for (long i = 0; i < B; i++)
        for (long k = 0; k < B; k++) {
            double lik = l[i * B + k];
            for (long j = 0; j < B; j++)
                c[i * B + j] -= lik * u[k * B + j];
        }
}

static void SlaveStart(void)
{
    long me;
    LOCK(Global->idlock)
    me = Global->nextid++;
    UNLOCK(Global->idlock)
    for (long K = 0; K < nb; K++) {
        if (owner(K, K) == me)
            factor_diag(blk(K, K));
        BARRIER(Global->step, P)
        for (long J = K + 1; J < nb; J++) {
            if (owner(K, J) == me)
                solve_row(blk(K, K), blk(K, J));
            if (owner(J, K) == me)
                solve_col(blk(K, K), blk(J, K));
        }
        BARRIER(Global->step, P)
        for (long I = K + 1; I < nb; I++)
            for (long J = K + 1; J < nb; J++)
                if (owner(I, J) == me)
                    update(blk(I, J), blk(I, K), blk(K, J));
        BARRIER(Global->step, P)
    }
}

static double elem(const double *m, long i, long j)
{
    return m[((i / B) * nb + j / B) * B * B + (i % B) * B + j % B];
}

int main(int argc, char **argv)
{
    int c;
    while ((c = getopt(argc, argv, "p:n:b:")) != -1) {
        if (c == 'p') P = atol(optarg);
        else if (c == 'n') N = atol(optarg);
        else if (c == 'b') B = atol(optarg);
        else {
            fprintf(stderr, "usage: pm_lu [-p P] [-n N] [-b B]\n");
            exit(2);
        }
    }
    if (P < 1 || B < 1 || N < B || N % B) {
        fprintf(stderr, "pm_lu: need P >= 1 and N a multiple of B\n");
        exit(2);
    }
    MAIN_INITENV(, 64000000)
    nb = N / B;
    Global = (struct GlobalMemory *)G_MALLOC(sizeof *Global);
    A = (double *)G_MALLOC(N * N * sizeof *A);
    double *orig = malloc(N * N * sizeof *orig);
    BARINIT(Global->step, P)
    LOCKINIT(Global->idlock)
    Global->nextid = 0;
    unsigned long seed = 12345;
    for (long i = 0; i < N * N; i++) {
        seed = seed * 6364136223846793005ul + 1442695040888963407ul;
        A[i] = (double)(seed >> 11) / 9007199254740992.0 - 0.5;
    }
    for (long i = 0; i < N; i++) /* diagonally dominant */
        A[((i / B) * nb + i / B) * B * B + (i % B) * B + i % B] += (double)N;
    memcpy(orig, A, N * N * sizeof *A);
    unsigned long t0, t1;
    CLOCK(t0)
    CREATE(SlaveStart, P)
    WAIT_FOR_END(P)
    CLOCK(t1)
    double maxerr = 0, maxa = 0;
    for (long i = 0; i < N; i++)
        for (long j = 0; j < N; j++) {
            double s = 0;
            for (long k = 0; k <= (i < j ? i : j); k++)
                s += (k == i ? 1.0 : elem(A, i, k)) * elem(A, k, j);
            double e = fabs(s - elem(orig, i, j));
            if (e > maxerr) maxerr = e;
            if (fabs(elem(orig, i, j)) > maxa) maxa = fabs(elem(orig, i, j));
        }
    printf("pm_lu: N=%ld B=%ld P=%ld: %lu us, max |LU-A| = %.3g\n", N, B, P, t1 - t0, maxerr);
    int ok = maxerr <= 1e-9 * maxa;
    printf("pm_lu: result %s\n", ok ? "OK" : "WRONG");
    free(orig);
    if (!ok)
        exit(1);
    MAIN_END
}
