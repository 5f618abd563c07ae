/* particles.c - the case study of Xu, Larus and Miller (PPoPP 1997, section 4):
 * a weighted-ensemble Brownian dynamics code in the spirit of their protein
 * folding application, in the three versions the paper tuned.
 *
 * Shared structures (one dsm_alloc each, named as in the paper):
 *   part    particles: position, velocity, weight (56 bytes, not a divisor of
 *           the block, so block boundaries cut particles)
 *   rxncor  the reaction coordinate of every particle (distance to the site)
 *   tmpl    versions 2 and 3: which node owns each particle
 *   params  the simulation constants, written once by node 0
 *   counts  reactions per node, written once at the end
 *
 * Each step has a move phase (every node moves the particles it owns:
 * Brownian sub-steps, then rxncor := |position|), a barrier, a reaction
 * phase (the particles are sorted by reaction coordinate and visited in that
 * order; a particle that reached the site reacts: it is re-inserted at the
 * start radius with half its weight; the others are only read; every
 * particle's rxncor is written back) and a barrier.
 *   --version 1  particles are owned in contiguous index ranges and the
 *                reaction phase is serial on node 0 over all particles: part
 *                and rxncor bounce between node 0 and the others every step
 *                (section 4.1: migratory / producer-consumer blocks).
 *   --version 2  the reaction phase is parallel; as in the paper's
 *                restructuring (4.2) particles are partitioned by reaction
 *                coordinate (tmpl), so a node's particles are scattered over
 *                the array and every block holds particles of several nodes:
 *                false sharing in both phases.
 *   --version 3  as version 2, with each node's particles stored together in a
 *                block-aligned, padded segment (the paper's version 3a: no
 *                block holds particles of two owners).
 * The partition of versions 2 and 3 is fixed at the start (the paper's 3b
 * kept a static partition too); particles never change owner.
 *
 * Every particle's update uses only that particle and the constants, so the
 * result does not depend on who computes it: node 0 repeats the whole run
 * privately with the same functions and compares bit for bit.
 *
 * Usage: particles [--version 1|2|3] [N [STEPS [INNER]]]   N particles (default
 * 4096), STEPS steps (default 20), INNER Brownian sub-steps per move
 * (default 16).  Node 0 prints "structure NAME FIRST LAST" (block range, for
 * scripts reading DSM_STATS), the loop time and "particles: result OK". */
#include <dsm.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* 7 doubles: 56 bytes, so a 4 KiB block holds 73 particles and a fraction. */
struct particle {
    double pos[3];
    double vel[3];
    double weight; /* statistical weight of the ensemble member */
};

struct params {
    double dt, gamma, kappa, sigma;
    double r_react, r_start, r_out, w_min;
    long seed;
};

/* splitmix64: a counter-based generator, so the noise of (particle, step,
 * sub-step) is the same on whichever node, or in whichever order, it is
 * drawn. */
static uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

static double uniform(uint64_t key) { return (double)(mix(key) >> 11) * 0x1p-53; }

static uint64_t key_of(long seed, long p, long step, long k, int axis)
{
    return mix(mix(mix((uint64_t)seed ^ (uint64_t)p * 0x100000001b3ULL) ^ (uint64_t)step) ^
               ((uint64_t)k << 2 | (uint64_t)axis));
}

/* A unit direction from four uniforms of the key (for placing particles). */
static void direction(uint64_t key, double d[3])
{
    double z = 2.0 * uniform(key) - 1.0, phi = 6.283185307179586 * uniform(key + 1);
    double s = sqrt(1.0 - z * z);
    d[0] = s * cos(phi);
    d[1] = s * sin(phi);
    d[2] = z;
}

static double norm3(const double v[3]) { return sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]); }

/* The initial state of particle p: at a radius between the reaction radius
 * and the outer wall, at rest, weight 1.  Every node can compute it. */
static void init_particle(const struct params *c, long p, struct particle *q, double *rc)
{
    double d[3];
    direction(key_of(c->seed, p, -1, 0, 0), d);
    double r = c->r_react + 0.5 + (c->r_out - c->r_react - 0.5) * uniform(key_of(c->seed, p, -1, 1, 0));
    for (int a = 0; a < 3; a++) {
        q->pos[a] = r * d[a];
        q->vel[a] = 0.0;
    }
    q->weight = 1.0;
    *rc = norm3(q->pos);
}

/* The move phase for one particle.  noinline: the shared run and node 0's
 * private check must execute the same machine code (no different
 * contraction or reassociation when inlined in two places), so their
 * results are equal bit for bit. */
__attribute__((noinline)) static void move_particle(const struct params *c, long p, long step,
                                                    int inner, struct particle *q, double *rc)
{
    for (int k = 0; k < inner; k++) {
        for (int a = 0; a < 3; a++) {
            uint64_t key = key_of(c->seed, p, step, k, a);
            /* sum of four uniforms: mean 2, variance 1/3 -> unit variance */
            double g = (uniform(key) + uniform(key + 7) + uniform(key + 13) + uniform(key + 29) - 2.0) *
                       1.7320508075688772;
            double f = -c->kappa * q->pos[a];
            q->vel[a] = q->vel[a] * (1.0 - c->gamma * c->dt) + f * c->dt + c->sigma * g;
            q->pos[a] += q->vel[a] * c->dt;
        }
        double r = norm3(q->pos);
        if (r > c->r_out) { /* reflecting outer wall */
            double s = (2.0 * c->r_out - r) / r;
            for (int a = 0; a < 3; a++) {
                q->pos[a] *= s;
                q->vel[a] = -q->vel[a];
            }
        }
    }
    *rc = norm3(q->pos);
}

/* The reaction phase for one particle: reads its reaction coordinate and the
 * particle, writes the coordinate back, and rewrites the particle only if it
 * reacted.  Returns 1 if it
 * reacted.  noinline: see
 * move_particle. */
__attribute__((noinline)) static int react_particle(const struct params *c, long p, long step,
                                                    struct particle *q, double *rc)
{
    double r = *rc;
    /* A member whose weight has become negligible no longer splits (the
     * weighted ensemble's floor): the phase reads every particle. */
    if (q->weight > c->w_min && r < c->r_react) {
        double d[3];
        direction(key_of(c->seed, p, step, -1, 0), d);
        for (int a = 0; a < 3; a++) {
            q->pos[a] = c->r_start * d[a];
            q->vel[a] = 0.0;
        }
        q->weight *= 0.5; /* split: the reacted half leaves the ensemble */
        *rc = c->r_start;
        return 1;
    }
    /* Not reacted: the particle is only read; its coordinate is stored back
     * (the phase rewrites the whole coordinate array, as the paper's serial
     * sort did). */
    *rc = r;
    return 0;
}

/* Particle indices ordered by reaction coordinate, *sort_key[p] being that
 * of particle p; ties by index, a total order, so every node computes the
 * same partition from the initial state. */
static double *const *sort_key;
static int by_rc(const void *a, const void *b)
{
    long i = *(const long *)a, j = *(const long *)b;
    double x = *sort_key[i], y = *sort_key[j];
    if (x != y)
        return x < y ? -1 : 1;
    return (i > j) - (i < j);
}

static size_t round_up(size_t x, size_t b) { return (x + b - 1) / b * b; }

static void print_range(const char *name, const void *p, size_t bytes)
{
    printf("structure %s %ld %ld\n", name, dsm_block_index(p),
           dsm_block_index((const char *)p + bytes - 1));
}

int main(int argc, char **argv)
{
    if (dsm_init(&argc, &argv) != 0) {
        perror("particles: dsm_init");
        return 1;
    }
    int me = dsm_node(), nodes = dsm_nodes();
    int version = 1;
    int ai = 1;
    if (ai < argc && strcmp(argv[ai], "--version") == 0) { /* --version V */
        version = ai + 1 < argc ? atoi(argv[ai + 1]) : 0;
        ai += 2;
    } else if (ai < argc && strncmp(argv[ai], "--version=", 10) == 0) {
        version = atoi(argv[ai] + 10);
        ai++;
    }
    long n = ai < argc ? atol(argv[ai]) : 4096;
    long steps = ai + 1 < argc ? atol(argv[ai + 1]) : 20;
    int inner = ai + 2 < argc ? atoi(argv[ai + 2]) : 16;
    if (version < 1 || version > 3 || n < 1 || steps < 0 || inner < 1) {
        if (me == 0)
            fprintf(stderr, "usage: particles [--version 1|2|3] [N [STEPS [INNER]]]"
                            "  (N >= 1, STEPS >= 0, INNER >= 1)\n");
        dsm_finalize();
        return 2;
    }
    size_t bsz = dsm_block_size();
    const struct params cst = { .dt = 0.05, .gamma = 0.5, .kappa = 0.08, .sigma = 0.12,
                                .r_react = 1.0, .r_start = 4.0, .r_out = 8.0, .w_min = 1e-6,
                                .seed = 1997 };

    /* Ownership, computed identically on every node from the initial state
     * (no shared reads needed): version 1 contiguous ranges; versions 2 and 3
     * by rank of the initial reaction coordinate, nodes getting equal shares
     * of the coordinate's range of ranks (the paper's partition by reaction
     * coordinate), which scatters each node's particles over the indices. */
    int *owner = malloc((size_t)n * sizeof *owner);
    long *rank = malloc((size_t)n * sizeof *rank);   /* position among the owner's */
    long *count = calloc((size_t)nodes, sizeof *count);
    struct particle *p0 = malloc((size_t)n * sizeof *p0); /* node 0's private run */
    double *r0 = malloc((size_t)n * sizeof *r0);
    long *order = malloc((size_t)n * sizeof *order); /* sorting buffer */
    double **r0p = malloc((size_t)n * sizeof *r0p);
    if (!owner || !rank || !count || !p0 || !r0 || !order || !r0p) {
        fprintf(stderr, "particles: node %d: out of memory\n", me);
        return 1;
    }
    for (long p = 0; p < n; p++) {
        init_particle(&cst, p, &p0[p], &r0[p]);
        r0p[p] = &r0[p];
    }
    if (version == 1) {
        for (int k = 0; k < nodes; k++)
            for (long p = n * k / nodes; p < n * (k + 1) / nodes; p++)
                owner[p] = k;
    } else {
        for (long p = 0; p < n; p++)
            order[p] = p;
        sort_key = r0p;
        qsort(order, (size_t)n, sizeof *order, by_rc);
        for (long i = 0; i < n; i++)
            owner[order[i]] = (int)(i * nodes / n);
    }
    for (long p = 0; p < n; p++)
        rank[p] = count[owner[p]]++;
    long maxc = 0;
    for (int k = 0; k < nodes; k++)
        maxc = count[k] > maxc ? count[k] : maxc;

    /* Layout.  Versions 1 and 2: particle p at index p.  Version 3: node k's
     * particles (in index order) in segment k; a segment is a whole number of
     * blocks, and with the default blocked homes segment k is homed at node
     * k, since every segment has the same size. */
    size_t pseg = round_up((size_t)maxc * sizeof(struct particle), bsz);
    size_t rseg = round_up((size_t)maxc * sizeof(double), bsz);
    size_t pbytes = version == 3 ? pseg * (size_t)nodes : (size_t)n * sizeof(struct particle);
    size_t rbytes = version == 3 ? rseg * (size_t)nodes : (size_t)n * sizeof(double);
    struct params *par = dsm_alloc(sizeof *par, "params");
    char *part = dsm_alloc(pbytes, "part");
    char *rxncor = dsm_alloc(rbytes, "rxncor");
    int *tmpl = version == 1 ? NULL : dsm_alloc((size_t)n * sizeof *tmpl, "tmpl");
    long *counts = dsm_alloc((size_t)nodes * sizeof *counts, "counts");
    if (!par || !part || !rxncor || (version != 1 && !tmpl) || !counts) {
        fprintf(stderr, "particles: node %d: dsm_alloc failed\n", me);
        return 1;
    }
    struct particle **pp = malloc((size_t)n * sizeof *pp); /* where particle p lives */
    double **rp = malloc((size_t)n * sizeof *rp);
    long *mine = malloc((size_t)(count[me] > 0 ? count[me] : 1) * sizeof *mine);
    if (!pp || !rp || !mine) {
        fprintf(stderr, "particles: node %d: out of memory\n", me);
        return 1;
    }
    for (long p = 0; p < n; p++) {
        size_t po = version == 3 ? (size_t)owner[p] * pseg + (size_t)rank[p] * sizeof(struct particle)
                                 : (size_t)p * sizeof(struct particle);
        size_t ro = version == 3 ? (size_t)owner[p] * rseg + (size_t)rank[p] * sizeof(double)
                                 : (size_t)p * sizeof(double);
        pp[p] = (struct particle *)(part + po);
        rp[p] = (double *)(rxncor + ro);
    }

    /* Node 0 publishes the constants and the owner table (tmpl); every node
     * then builds its particle list from tmpl, as the paper's version 2 did,
     * and initializes its own particles (owner-computes, first touch). */
    if (me == 0) {
        *par = cst;
        if (tmpl)
            for (long p = 0; p < n; p++)
                tmpl[p] = owner[p];
        print_range("part", part, pbytes);
        print_range("rxncor", rxncor, rbytes);
        if (tmpl)
            print_range("tmpl", tmpl, (size_t)n * sizeof *tmpl);
        print_range("params", par, sizeof *par);
        print_range("counts", counts, (size_t)nodes * sizeof *counts);
        fflush(stdout);
    }
    dsm_barrier();
    long nmine = 0;
    for (long p = 0; p < n; p++)
        if ((tmpl ? tmpl[p] : owner[p]) == me)
            mine[nmine++] = p;
    if (nmine != count[me]) {
        fprintf(stderr, "particles: node %d: tmpl gives %ld particles, expected %ld\n", me, nmine,
                count[me]);
        return 1;
    }
    const struct params *c = par;
    for (long i = 0; i < nmine; i++)
        init_particle(c, mine[i], pp[mine[i]], rp[mine[i]]);
    dsm_barrier();

    long reacted = 0;
    double tmove = 0.0, treact = 0.0;
    double t0 = dsm_wtime();
    for (long s = 0; s < steps; s++) {
        double ta = dsm_wtime();
        for (long i = 0; i < nmine; i++)
            move_particle(c, mine[i], s, inner, pp[mine[i]], rp[mine[i]]);
        dsm_barrier(); /* the reaction phase reads the moved particles */
        double tb = dsm_wtime();
        /* As the paper's serial code, sort the particles by reaction
         * coordinate, then react them in that order.  Version 1: node 0
         * alone over all particles (section 4.1's sequential bottleneck);
         * versions 2 and 3: every node over its own. */
        long nlist = version == 1 ? (me == 0 ? n : 0) : nmine;
        for (long i = 0; i < nlist; i++)
            order[i] = version == 1 ? i : mine[i];
        sort_key = rp;
        qsort(order, (size_t)nlist, sizeof *order, by_rc);
        for (long i = 0; i < nlist; i++)
            reacted += react_particle(c, order[i], s, pp[order[i]], rp[order[i]]);
        dsm_barrier(); /* the next move phase reads the reacted particles */
        double tc = dsm_wtime();
        tmove += tb - ta;
        treact += tc - tb;
    }
    double t = dsm_wtime() - t0;
    counts[me] = reacted;
    dsm_barrier(); /* node 0 reads every node's count and every particle */

    int bad = 0;
    if (me == 0) {
        /* The private serial run: the same functions, in index order (the
         * reactions of different particles are independent, so the order
         * of the reaction phase does not change the result). */
        long total = 0, expect = 0;
        for (int k = 0; k < nodes; k++)
            total += counts[k];
        for (long s = 0; s < steps; s++) {
            for (long p = 0; p < n; p++)
                move_particle(&cst, p, s, inner, &p0[p], &r0[p]);
            for (long p = 0; p < n; p++)
                expect += react_particle(&cst, p, s, &p0[p], &r0[p]);
        }
        long nbad = 0, first = -1;
        double wsum = 0.0;
        for (long p = 0; p < n; p++) {
            wsum += p0[p].weight;
            if (memcmp(pp[p], &p0[p], sizeof p0[p]) != 0 || memcmp(rp[p], &r0[p], sizeof r0[p]) != 0) {
                if (nbad++ == 0)
                    first = p;
            }
        }
        if (nbad)
            fprintf(stderr, "particles: %ld particles differ, first %ld: shared pos %.17g rxncor %.17g,"
                            " private pos %.17g rxncor %.17g\n",
                    nbad, first, pp[first]->pos[0], *rp[first], p0[first].pos[0], r0[first]);
        if (total != expect)
            fprintf(stderr, "particles: %ld reactions counted, private run %ld\n", total, expect);
        bad = nbad != 0 || total != expect;
        printf("particles: version %d, %d nodes, %ld particles of %zu bytes, %ld steps x %d sub-steps,"
               " %ld reactions, total weight %.6f\n",
               version, nodes, n, sizeof(struct particle), steps, inner, total, wsum);
        printf("particles: time %.6f s (move phase %.6f s, reaction phase %.6f s, node 0)\n", t, tmove,
               treact);
        printf("particles: result %s\n", bad ? "WRONG" : "OK");
        fflush(stdout);
        counts[0] = bad ? -1 : total; /* the verdict, for the other nodes' exit status */
    }
    dsm_barrier();
    int good = counts[0] >= 0;
    dsm_finalize();
    return good ? 0 : 1;
}
