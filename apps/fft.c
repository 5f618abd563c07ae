/* fft.c - six-step complex FFT in the manner of SPLASH-2's FFT kernel.
 *
 * The n = 2^m points are an R x R matrix (R = sqrt(n)) in row-major order,
 * each processor owning a contiguous band of rows.  With t = R*a + b and
 * k = c + R*d the DFT factors into row FFTs of length R separated by
 * transposes and one twiddle multiplication:
 *   1. trans = transpose(x)            (all-to-all communication)
 *   2. FFT of each of my rows of trans, 3. trans[b][c] *= w_n^(b*c)
 *   4. x = transpose(trans)            5. FFT of each of my rows of x
 *   6. trans = transpose(x)            -> trans holds X[k] in natural order.
 * Each step is followed by a barrier.  The transposes are where processors
 * read each other's rows (the "trans" structure dominates the misses, as in
 * Table 3 of the FlashPoint paper); the row FFTs are local.
 *
 * Check: node 0 compares a few outputs with a direct DFT, then the
 * processors copy the result back into x, run the inverse transform (same
 * code, conjugate roots) and each compares its rows of the result with the
 * input, which is regenerated from a hash.
 *
 * Usage: fft [--m=M] [--paper] [--stagger=0|1|2] [--serial-init] [--bitrev-calls=0|1]
 *   2^M points, M even (default 12; --paper: 18, the 256K points of the
 *   FlashPoint paper); --stagger: the transposes' order (transpose());
 *   --serial-init: processor 0 initialises every row, as SPLASH-2's FFT
 *   does on its main thread (the Origin profiler paper's Fig. 6);
 *   --bitrev-calls: 1 (default) one bit-reversal procedure call per element
 *   of a row, as SPLASH-2's FFT (bit_reverse), 0 an incremental loop.
 * Prints "fft: result OK". */
#include <dsm.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "app_util.h"

typedef struct { double re, im; } cplx;

/* Results of the check, written by the processors under lock 0. */
typedef struct fft_check {
    double max_inverse_error;   /* over all points, |ifft(fft(x)) - x| */
    int ok;                     /* node 0's verdict */
} fft_check;

APP_LEAF static double input_re(long t) { return 2.0 * app_unit(2 * (uint64_t)t) - 1.0; }
APP_LEAF static double input_im(long t) { return 2.0 * app_unit(2 * (uint64_t)t + 1) - 1.0; }

/* exp(-2 pi i * num / den) with num reduced first, so large products keep
 * their accuracy. */
APP_LEAF static cplx root_of_unity(long num, long den)
{
    double ang = -2.0 * M_PI * (double)(num % den) / (double)den;
    cplx w = { cos(ang), sin(ang) };
    return w;
}

/* SPLASH-2's BitReverse(M, k): the m-bit reversal of k, one call per
 * element of each row the processor transforms (its Reverse loop).  Kept a
 * procedure of its own (instrumented, not inlined) because FP-Proc's
 * procedure commands at every call and return are what costs SPLASH-2's
 * FFT its +51% in the FlashPoint paper (Table 5); it touches no shared
 * data, so the other modes see nothing of it.  --bitrev-calls=0 uses the
 * incremental loop instead (no call). */
static long bitrev_calls = 1;

__attribute__((noinline)) static long bit_reverse(long m, long k)
{
    long j = 0;
    for (long i = 0; i < m; i++, k >>= 1)
        j = 2 * j + (k & 1);
    return j;
}

/* In-place radix-2 FFT of one row of length r.  roots[k] = w_r^k, k < r/2;
 * dir = -1 forward, +1 inverse (conjugate roots). */
static void row_fft(cplx *row, long r, const cplx *roots, int dir)
{
    long logr = 0;
    while ((1L << logr) < r)
        logr++;
    for (long i = 1, j = 0; i < r; i++) {   /* bit-reversal permutation */
        if (bitrev_calls) {
            j = bit_reverse(logr, i);
        } else {
            long bit = r >> 1;
            for (; j & bit; bit >>= 1)
                j ^= bit;
            j |= bit;
        }
        if (i < j) {
            cplx t = row[i];
            row[i] = row[j];
            row[j] = t;
        }
    }
    for (long len = 2; len <= r; len <<= 1) {
        long half = len / 2, step = r / len;
        for (long s = 0; s < r; s += len)
            for (long k = 0; k < half; k++) {
                cplx w = roots[k * step];
                if (dir > 0)
                    w.im = -w.im;
                cplx *u = &row[s + k], *v = &row[s + k + half];
                double tr = v->re * w.re - v->im * w.im, ti = v->re * w.im + v->im * w.re;
                v->re = u->re - tr;
                v->im = u->im - ti;
                u->re += tr;
                u->im += ti;
            }
    }
}

/* The order in which a processor takes the other processors' columns in a
 * transpose (--stagger, the Origin profiler paper's three variants). */
enum { STAGGER_NONE = 0, STAGGER_BASIC = 1, STAGGER_SCRAMBLED = 2 };
static long stagger = STAGGER_BASIC;

/* dst rows [lo, hi) = columns of src; blocked by TILE columns so the source
 * lines fetched from another processor's rows are used several times. */
static void transpose(cplx *dst, const cplx *src, long r, long lo, long hi)
{
    /* Staggered, as SPLASH-2's FFT does: each processor starts with the
     * columns of its own band and wraps around, so at any moment the
     * processors read from different owners instead of all from the same
     * one (a hot spot at one home at a time).  --stagger=0 starts every
     * processor at column 0 (the unoptimised transpose: the hot spot);
     * --stagger=2 visits the owners in a binary-scrambled order, owner
     * me XOR k at step k (the optimised stagger). */
    enum { TILE = 8 };
    long ntiles = (r + TILE - 1) / TILE;
    long first = stagger == STAGGER_NONE ? 0 : (lo / TILE) % ntiles;
    int me = dsm_node(), nprocs = dsm_nodes();
    if (stagger == STAGGER_SCRAMBLED && !(nprocs & (nprocs - 1))) {
        for (int k = 0; k < nprocs; k++) {
            long c_lo, c_hi;
            app_band(r, me ^ k, nprocs, &c_lo, &c_hi);
            for (long c0 = c_lo; c0 < c_hi; c0 += TILE)
                for (long i = lo; i < hi; i++)
                    for (long c = c0; c < c0 + TILE && c < c_hi; c++)
                        dst[i * r + c] = src[c * r + i];
        }
        return;
    }
    for (long k = 0; k < ntiles; k++) {
        long c0 = ((first + k) % ntiles) * TILE;
        long c1 = c0 + TILE < r ? c0 + TILE : r;
        for (long i = lo; i < hi; i++)
            for (long c = c0; c < c1; c++)
                dst[i * r + c] = src[c * r + i];
    }
}

/* The six steps on the whole matrix: input in a, output in b (a is
 * overwritten).  Every processor calls it with its band [lo, hi). */
static void six_step(cplx *a, cplx *b, long r, long lo, long hi, const cplx *roots,
                     const cplx *twiddle, int dir)
{
    transpose(b, a, r, lo, hi);
    dsm_barrier();
    for (long i = lo; i < hi; i++) {
        row_fft(&b[i * r], r, roots, dir);
        for (long j = 0; j < r; j++) {
            cplx w = twiddle[i * r + j], *v = &b[i * r + j];
            if (dir > 0)
                w.im = -w.im;
            double re = v->re * w.re - v->im * w.im;
            v->im = v->re * w.im + v->im * w.re;
            v->re = re;
        }
    }
    dsm_barrier();
    transpose(a, b, r, lo, hi);
    dsm_barrier();
    for (long i = lo; i < hi; i++)
        row_fft(&a[i * r], r, roots, dir);
    dsm_barrier();
    transpose(b, a, r, lo, hi);
    dsm_barrier();
}

/* Node 0: a direct DFT of the regenerated input at a few output indices;
 * returns the largest error relative to n (the scale of the outputs). */
static double check_samples(const cplx *out, long n)
{
    double worst = 0.0;
    for (int s = 0; s < 8; s++) {
        long k = s == 0 ? 0 : s == 1 ? n - 1 : (long)(app_mix64(1000 + (uint64_t)s) % (uint64_t)n);
        double re = 0.0, im = 0.0;
        for (long t = 0; t < n; t++) {
            cplx w = root_of_unity((long)((unsigned long)t * (unsigned long)k % (unsigned long)n), n);
            double xr = input_re(t), xi = input_im(t);
            re += xr * w.re - xi * w.im;
            im += xr * w.im + xi * w.re;
        }
        double err = hypot(out[k].re - re, out[k].im - im) / (double)n;
        if (err > worst)
            worst = err;
    }
    return worst;
}

int main(int argc, char **argv)
{
    if (dsm_init(&argc, &argv) != 0) {
        perror("fft: dsm_init");
        return 1;
    }
    int me = dsm_node(), nprocs = dsm_nodes();
    long m = 12;
    long serial_init = 0;
    app_opt opts[] = {
        { "m", "log2 of the number of points, even", &m, 2, 26, 18, 0, 0 },
        { "stagger", "transpose order: 0 none, 1 basic, 2 scrambled", &stagger, 0, 2, 1, 0, 0 },
        { "serial-init", "processor 0 initialises all the data (as SPLASH-2's main thread)",
          &serial_init, 0, 1, 0, 1, 0 },
        { "bitrev-calls", "1: a bit-reversal procedure call per element (SPLASH-2), 0: a loop",
          &bitrev_calls, 0, 1, 1, 0, 0 },
    };
    int parsed = app_parse("fft", argc, argv, opts, 4, "paper", me);
    if (parsed == 0 && m % 2) {
        if (me == 0)
            fprintf(stderr, "fft: --m=%ld must be even (the points form a square matrix)\n", m);
        parsed = -1;
    }
    if (parsed != 0) {
        dsm_finalize();
        return parsed > 0 ? 0 : 2;
    }
    long n = 1L << m, r = 1L << (m / 2);
    size_t bytes = (size_t)n * sizeof(cplx);
    cplx *x = dsm_alloc(bytes, "fft.x");
    cplx *trans = dsm_alloc(bytes, "fft.trans");
    cplx *twiddle = dsm_alloc(bytes, "fft.umain2");       /* w_n^(b*c) */
    cplx *roots = dsm_alloc((size_t)r / 2 * sizeof(cplx), "fft.umain");   /* w_r^k */
    fft_check *chk = dsm_alloc(sizeof *chk, "fft.check");
    if (!x || !trans || !twiddle || !roots || !chk) {
        fprintf(stderr, "fft: node %d: dsm_alloc of %zu bytes failed\n", me, bytes);
        return 1;
    }

    long lo, hi;
    app_band(r, me, nprocs, &lo, &hi);
    long init_lo = serial_init ? (me == 0 ? 0 : r) : lo, init_hi = serial_init ? r : hi;
    for (long i = init_lo; i < init_hi; i++)
        for (long j = 0; j < r; j++) {
            long t = i * r + j;
            x[t].re = input_re(t);
            x[t].im = input_im(t);
            twiddle[t] = root_of_unity(i * j, n);
        }
    if (me == 0) {
        for (long k = 0; k < r / 2; k++)
            roots[k] = root_of_unity(k, r);
        chk->max_inverse_error = 0.0;
    }
    dsm_barrier();

    dsm_sim_section_begin(); /* the measured section of a simulated run */
    double t0 = dsm_wtime();
    six_step(x, trans, r, lo, hi, roots, twiddle, -1);
    dsm_sim_section_end();
    double elapsed = dsm_wtime() - t0;

    double sample_error = 0.0;
    if (me == 0)
        sample_error = check_samples(trans, n);
    dsm_barrier(); /* node 0 read trans before the inverse overwrites it */

    /* The inverse runs with x and trans in the same roles as the forward
     * transform (x the data, trans the transposes' target and the result),
     * so each bin's statistics keep the pattern of the forward run. */
    for (long t = lo * r; t < hi * r; t++)
        x[t] = trans[t];
    dsm_barrier();
    six_step(x, trans, r, lo, hi, roots, twiddle, +1);
    double my_error = 0.0;
    for (long t = lo * r; t < hi * r; t++) {
        double e = hypot(trans[t].re / (double)n - input_re(t),
                         trans[t].im / (double)n - input_im(t));
        if (e > my_error)
            my_error = e;
    }
    dsm_lock(0);
    if (my_error > chk->max_inverse_error)
        chk->max_inverse_error = my_error;
    dsm_unlock(0);
    dsm_barrier();

    if (me == 0) {
        /* rounding grows like log n; 1e-9 leaves a wide margin and still
         * catches any wrong index or twiddle (errors of order 1) */
        const double tolerance = 1e-9;
        double inv = chk->max_inverse_error;
        int good = sample_error <= tolerance && inv <= tolerance;
        if (sample_error > tolerance)
            fprintf(stderr, "fft: direct DFT samples differ: relative error %.3g > %.0e\n",
                    sample_error, tolerance);
        if (inv > tolerance)
            fprintf(stderr, "fft: inverse transform differs from the input: error %.3g > %.0e\n",
                    inv, tolerance);
        chk->ok = good;
        printf("fft: %d procs, %ld points (%ldx%ld), sample error %.2e, inverse error %.2e, %.3f s\n",
               nprocs, n, r, r, sample_error, inv, elapsed);
        printf("fft: result %s\n", good ? "OK" : "WRONG");
        fflush(stdout);
    }
    dsm_barrier(); /* node 0's verdict is in chk->ok */
    int good = chk->ok;
    dsm_finalize();
    return good ? 0 : 1;
}
