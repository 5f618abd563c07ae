/* mp3d.c - a particle-in-cell wind tunnel in the manner of SPLASH's MP3D,
 * in the three versions of QuickStep's first case study (section 5.1):
 * particles fly through a tunnel of X x Y x Z unit cells, flowing along x
 * (periodic) and drifting slowly across (walls reflect); each move leaves
 * one cell and enters another (atomic counts) and may collide with the
 * cell's earlier visitor, which turns the particle's transverse velocity.
 *   orig    particles are spread over the whole tunnel, each processor
 *           moving a block of them; every move also updates statistics that
 *           nobody reads (the cell's move count, x momentum and energy
 *           flux), as the original program's "variables updated but never
 *           read"
 *   mp3d    the same without the unread statistics
 *   mmp3d   mp3d with the particles partitioned by space: a processor's
 *           particles start in its own columns of the tunnel (y, z, across
 *           the flow), and they rarely drift out; only the particles'
 *           assignment changes, not where the cells live
 * Cells are 64 B, laid out as the C array cells[x][y][z] (x major), so the
 * blocked homes of the cell array give each node two x planes: a column's
 * cells are spread over every node, and mmp3d's cell references are as
 * remote as mp3d's (Table 5.2: the two versions' distributions are the
 * same, 4-5% remote shared).  The result is checked: after every run the
 * cell counts sum to the number of particles, and every particle is in the
 * cell its position says.
 *
 * Usage: mp3d orig|mp3d|mmp3d [PARTICLES [STEPS [X Y Z]]]   (default 18000
 * 6, as the paper ran it, in a 32 x 8 x 8 tunnel).
 * Built without optimisation (the pragma below): every reference the
 * source makes to memory other than its local variables is made, as the
 * paper's compiler made them (its bench1 re-reads a global in a loop at
 * every iteration, while locals stay in SPARCLE's registers; dsmcc's hooks
 * do not see local variables whose address is not taken). */
#pragma GCC optimize("O0")
#include <dsm.h>
#include <float.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The tunnel's geometry: program parameters in file-scope variables, as
 * SPLASH's MP3D keeps the geometry it reads from its input (private to
 * each process there; read-only here), so moving a particle reads them. */
static int tunnel_x = 32, tunnel_y = 8, tunnel_z = 8;
#define TX tunnel_x
#define TY tunnel_y
#define TZ tunnel_z
#define NCELLS (TX * TY * TZ)

/* Single precision, as SPLASH's MP3D keeps its particles and cells: a
 * particle is 32 B, two lines. */
typedef float real;

typedef struct cell {
    int count;       /* particles in the cell */
    int visits;      /* moves into it so far: the collision partner's turn */
    int moves;       /* orig: moves through it, never read */
    int pad0;
    real flux[2];    /* orig: x momentum and energy carried through it,
                        never read (the cell's next 16 B line) */
    int pad[10];
} cell;

typedef struct particle {
    real x, y, z, vx, vy, vz;
    int cell;
    int pad;
} particle;

/* The shared arrays, reached through file-scope pointers as SPLASH's
 * programs reach theirs (each process's private copy of the pointer that
 * G_MALLOC returned; here every simulated processor stores the same
 * value). */
static cell *cells;
static particle *parts;

/* An unread statistic's update: a load and a store of the shared word,
 * nothing else (relaxed atomics on its bits, so that processors racing on
 * it in a native run stay defined; nobody reads the sum).  The sum is
 * kept in a union local whose address is never taken, as SPARCLE kept it
 * in a register: the paper's unread code made shared references only. */
static void accumulate(real *sum, real v)
{
    union {
        uint32_t bits;
        real value;
    } w;
    w.bits = __atomic_load_n((uint32_t *)sum, __ATOMIC_RELAXED);
    w.value += v;
    __atomic_store_n((uint32_t *)sum, w.bits, __ATOMIC_RELAXED);
}

static int cell_of(real x, real y, real z)
{
    int cx = (int)x, cy = (int)y, cz = (int)z;
    return (cx * TY + cy) * TZ + cz;
}

/* A deterministic pseudo-random number in [0, 1) for (seed, k). */
static double rnd(uint64_t seed, uint64_t k)
{
    uint64_t z = seed * 0x9e3779b97f4a7c15ull + k + 1;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return (double)(z >> 11) / 9007199254740992.0;
}

/* v, kept below hi (single precision rounds 8 - 1e-9 up to 8) */
static real below(real v, real hi) { return v < hi ? v : hi - hi * FLT_EPSILON; }

static real reflect(real v, real *pos, real lo, real hi)
{
    if (*pos < lo) {
        *pos = 2 * lo - *pos;
        return -v;
    }
    if (*pos >= hi) {
        *pos = below(2 * hi - *pos, hi);
        return -v;
    }
    return v;
}

int main(int argc, char **argv)
{
    if (dsm_init(&argc, &argv))
        return 1;
    int me = dsm_node(), np = dsm_nodes();
    const char *version = argc > 1 ? argv[1] : "orig";
    int n = argc > 2 ? atoi(argv[2]) : 18000, steps = argc > 3 ? atoi(argv[3]) : 6;
    if (argc > 6) { /* the geometry, as MP3D reads it from its input */
        tunnel_x = atoi(argv[4]);
        tunnel_y = atoi(argv[5]);
        tunnel_z = atoi(argv[6]);
    }
    int kind = !strcmp(version, "orig") ? 0 : !strcmp(version, "mp3d") ? 1
               : !strcmp(version, "mmp3d") ? 2 : -1;
    if (kind < 0 || n < np || steps < 1 || TX < 1 || TY < 1 || TZ < 1 || TX > 1024 ||
        TY > 1024 || TZ > 1024 || np > TY * TZ) {
        if (me == 0)
            fprintf(stderr, "usage: mp3d orig|mp3d|mmp3d [PARTICLES>=P [STEPS>=1 [X Y Z]]] "
                            "(1 .. 1024 cells each way) on at most Y x Z processors\n");
        dsm_finalize();
        return 2;
    }
    cells = dsm_alloc(NCELLS * sizeof(cell), "cells");
    parts = dsm_alloc((size_t)n * sizeof(particle), "particles");
    if (!cells || !parts) {
        fprintf(stderr, "mp3d: out of shared memory\n");
        return 1;
    }
    int lo = (int)((long)n * me / np), hi = (int)((long)n * (me + 1) / np);
    int ncols = TY * TZ, col_lo = ncols * me / np, col_hi = ncols * (me + 1) / np;
    for (int c = NCELLS * me / np; c < NCELLS * (me + 1) / np; c++)
        memset(&cells[c], 0, sizeof cells[c]);
    dsm_barrier();
    for (int k = lo; k < hi; k++) {
        particle *p = &parts[k];
        if (kind == 2) { /* in one of my columns */
            int col = col_lo + (int)(rnd(1, (uint64_t)k) * (col_hi - col_lo));
            p->y = below((real)(col / TZ + rnd(2, (uint64_t)k)), (real)(col / TZ + 1));
            p->z = below((real)(col % TZ + rnd(3, (uint64_t)k)), (real)(col % TZ + 1));
        } else {
            p->y = below((real)(rnd(2, (uint64_t)k) * TY), (real)TY);
            p->z = below((real)(rnd(3, (uint64_t)k) * TZ), (real)TZ);
        }
        p->x = below((real)(rnd(4, (uint64_t)k) * TX), (real)TX);
        p->vx = 0.5 + rnd(5, (uint64_t)k);
        p->vy = (rnd(6, (uint64_t)k) - 0.5) * 0.1;
        p->vz = (rnd(7, (uint64_t)k) - 0.5) * 0.1;
        p->cell = cell_of(p->x, p->y, p->z);
        __atomic_fetch_add(&cells[p->cell].count, 1, __ATOMIC_SEQ_CST);
    }
    dsm_barrier();
    dsm_sim_section_begin();
    for (int s = 0; s < steps; s++) {
        for (int k = lo; k < hi; k++) {
            particle *p = &parts[k];
            real x = p->x + p->vx, y = p->y + p->vy, z = p->z + p->vz;
            if (x >= TX)
                x -= TX;
            p->vy = reflect(p->vy, &y, 0, TY);
            p->vz = reflect(p->vz, &z, 0, TZ);
            p->x = x;
            p->y = y;
            p->z = z;
            int c = cell_of(x, y, z);
            if (c != p->cell) {
                __atomic_fetch_sub(&cells[p->cell].count, 1, __ATOMIC_SEQ_CST);
                __atomic_fetch_add(&cells[c].count, 1, __ATOMIC_SEQ_CST);
                p->cell = c;
                /* every other visitor collides: its transverse velocity turns */
                if (__atomic_fetch_add(&cells[c].visits, 1, __ATOMIC_SEQ_CST) & 1) {
                    real t = p->vy;
                    p->vy = -p->vz;
                    p->vz = t;
                }
            }
            if (kind == 0) { /* updated, never read: per cell, no global */
                cell *cp = &cells[c]; /* the cell's address in a register */
                __atomic_fetch_add(&cp->moves, 1, __ATOMIC_SEQ_CST);
                accumulate(&cp->flux[0], p->vx);
                accumulate(&cp->flux[1], p->vx * p->vx + p->vy * p->vy + p->vz * p->vz);
            }
        }
        dsm_barrier();
    }
    dsm_sim_section_end();
    if (me == 0) {
        long total = 0;
        int ok = 1;
        for (int c = 0; c < NCELLS; c++)
            total += cells[c].count;
        for (int k = 0; k < n && ok; k++)
            ok = parts[k].cell == cell_of(parts[k].x, parts[k].y, parts[k].z);
        if (total != n)
            ok = 0;
        printf("mp3d %s: %d particles, %d steps on %d processors\n", version, n, steps, np);
        printf("mp3d: result %s\n", ok ? "OK" : "WRONG");
        if (!ok)
            return 1;
    }
    dsm_finalize();
    return 0;
}
