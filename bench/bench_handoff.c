/* bench_handoff.c - where the time of a spin handoff goes (bench_core's
 * "migratory handoff": two nodes take turns incrementing a counter, each
 * spinning on it with sched_yield until its turn), with the counts of what
 * one handoff takes (misses, invalidations, messages, both nodes summed,
 * per handoff) beside its time, and the same counter handed over at a
 * barrier instead (dsm_barrier after every increment, as ArgoDSM needs:
 * bench/argo/argo_core.cpp's "handoff barrier"), and through one of the
 * runtime's atomic counters instead of shared memory (spin with
 * dsm_atomic_load, increment with dsm_atomic_add: a synchronisation object
 * at its manager node, as ArgoDSM's "handoff atomics" rows use its atomics
 * on the home's word; no page moves).
 * Settings compared within one run, rounds alternated (A B B A A B ...) so
 * the machine's drift falls on all alike: each argument is one setting,
 * comma-separated key=value among
 *   hold=US      the hold window (DSM_HOLD_US) for these rounds
 *   adapt=0|1    the adaptive protocol's grants (needs DSM_PATTERNS=on)
 *   spin=US      the waiters' spin (DSM_SPIN_US; the learned value otherwise)
 *   base         the run's own settings
 * Run: dsmrun -n 2 bench/bench_handoff [-h HANDOFFS] [-r ROUNDS] [SETTING...]
 * (prints one table, node 0; default one setting, "base"). */
#define _GNU_SOURCE 1
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_util.h"
#include "counters.h"
#include "dsm.h"
#include "node.h"

#define MAX_SET 4
#define MAX_ROUNDS 64

typedef struct setting {
    const char *name;
    long hold_us, spin_us; /* -1: the run's own */
    int adapt;             /* -1: the run's own */
} setting;

/* counted per handoff: what one takes */
enum { K_READ, K_UPG, K_WRITE, K_INV, K_MSGS, K_FAULTS, NK };
static const char *const kname[NK] = { "read misses", "upgrades", "write misses",
                                       "invalidations", "messages", "faults" };

static void counts_now(double *out)
{
    memset(out, 0, NK * sizeof *out);
    if (!dsm_g->ctr)
        return;
    pthread_mutex_lock(&dsm_g->eng_lock);
    counters *c = dsm_g->ctr;
    out[K_READ] = (double)(counters_total(c, CM_STACHE_READ_MISSES) +
                           counters_total(c, CM_HOME_READ_MISSES));
    out[K_UPG] = (double)(counters_total(c, CM_STACHE_WRITE_RO) +
                          counters_total(c, CM_HOME_WRITE_RO));
    out[K_WRITE] = (double)(counters_total(c, CM_STACHE_WRITE_INV) +
                            counters_total(c, CM_HOME_WRITE_INV));
    out[K_INV] = (double)(counters_total(c, CM_INV_RO) + counters_total(c, CM_INV_RW));
    out[K_MSGS] = (double)counters_total(c, CM_SENT_MSGS);
    out[K_FAULTS] = (double)counters_total(c, CM_PAGE_FAULTS) + out[K_READ] + out[K_UPG] +
                    out[K_WRITE];
    pthread_mutex_unlock(&dsm_g->eng_lock);
}

static int parse_setting(char *arg, setting *s)
{
    s->name = strdup(arg);
    s->hold_us = s->spin_us = s->adapt = -1;
    if (strcmp(arg, "base") == 0)
        return 0;
    for (char *tok = strtok(arg, ","); tok; tok = strtok(NULL, ",")) {
        char *eq = strchr(tok, '=');
        char *end;
        long v = eq ? strtol(eq + 1, &end, 10) : -1;
        if (!eq || end == eq + 1 || *end || v < 0) {
            fprintf(stderr, "bench_handoff: bad setting '%s' (want hold=US, adapt=0|1, spin=US "
                    "or base)\n", tok);
            return -1;
        }
        *eq = 0;
        if (strcmp(tok, "hold") == 0)
            s->hold_us = v;
        else if (strcmp(tok, "spin") == 0)
            s->spin_us = v;
        else if (strcmp(tok, "adapt") == 0 && v <= 1)
            s->adapt = (int)v;
        else {
            fprintf(stderr, "bench_handoff: unknown setting '%s'\n", tok);
            return -1;
        }
    }
    return 0;
}

/* collective: apply s between barriers (every node the same) */
static void apply(const setting *s, const setting *own)
{
    dsm_barrier();
    pthread_mutex_lock(&dsm_g->eng_lock);
    dsm_g->cfg.hold_us = (unsigned)(s->hold_us >= 0 ? s->hold_us : own->hold_us);
    long spin = s->spin_us >= 0 ? s->spin_us : own->spin_us;
    atomic_store(&dsm_g->spin_ns, (uint64_t)spin * 1000u);
    if (dsm_g->cfg.adapt || s->adapt > 0) {
        dsm_g->cfg.adapt = 1; /* the runtime's part stays on once used */
        proto_set_adapt(dsm_g->eng, s->adapt >= 0 ? s->adapt : own->adapt);
    }
    pthread_mutex_unlock(&dsm_g->eng_lock);
    dsm_barrier();
}

int main(int argc, char **argv)
{
    if (dsm_init(&argc, &argv))
        return 1;
    int me = dsm_node();
    long handoffs = 200;
    int rounds = 14;
    setting set[MAX_SET];
    int nset = 0;
    for (int i = 1; i < argc; i++) {
        if ((strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "-r") == 0) && i + 1 < argc) {
            long v = atol(argv[i + 1]);
            if (v < 2 || (argv[i][1] == 'r' && v > MAX_ROUNDS)) {
                fprintf(stderr, "bench_handoff: %s wants a number from 2%s, not '%s'\n", argv[i],
                        argv[i][1] == 'r' ? " to 64" : "", argv[i + 1]);
                return 2;
            }
            if (argv[i][1] == 'h')
                handoffs = v;
            else
                rounds = (int)v;
            i++;
        } else if (nset == MAX_SET) {
            fprintf(stderr, "bench_handoff: at most %d settings\n", MAX_SET);
            return 2;
        } else if (parse_setting(argv[i], &set[nset++])) {
            return 2;
        }
    }
    if (nset == 0)
        parse_setting(strdup("base"), &set[nset++]);
    if (dsm_nodes() != 2) {
        if (me == 0)
            fprintf(stderr, "bench_handoff: run on exactly 2 nodes (dsmrun -n 2)\n");
        dsm_finalize();
        return 2;
    }
    setting own = { "own", (long)dsm_g->cfg.hold_us,
                    (long)(atomic_load(&dsm_g->spin_ns) / 1000u), dsm_g->cfg.adapt };
    for (int i = 0; i < nset; i++)
        if (set[i].adapt > 0 && !proto_augment_enabled(dsm_g->eng)) {
            if (me == 0)
                fprintf(stderr, "bench_handoff: adapt=1 needs DSM_PATTERNS=on\n");
            dsm_finalize();
            return 2;
        }
    size_t bs = dsm_block_size();
    long *ctr = dsm_alloc(bs, "bench.handoff_counter");
    long *bctr = dsm_alloc(bs, "bench.barrier_counter");
    /* per setting and round: us per handoff (spin, barrier), then the counts */
    enum { COLS = 3 + NK };
    const unsigned atom = 1; /* managed by node 1 (syncid.h: id mod nodes) */
    double *res = dsm_alloc((size_t)MAX_SET * MAX_ROUNDS * COLS * sizeof(double), "bench.res");
    int per[MAX_SET] = { 0 };
    for (int r = 0; r < rounds; r++) {
        /* alternate: 0 1 1 0 0 1 ... for two settings, round-robin beyond */
        int k = nset == 2 ? (r & 1) ^ ((r >> 1) & 1) : r % nset;
        apply(&set[k], &own);
        double c0[NK], c1[NK];
        long start = ctr[0];
        dsm_barrier();
        counts_now(c0);
        double t0 = dsm_wtime();
        for (long i = 0; i < handoffs / 2; i++) {
            while ((((volatile long *)ctr)[0] - start) % 2 != me)
                sched_yield(); /* a polite spin: 2 cores carry 4 threads here */
            ctr[0]++;
        }
        double t_spin = (dsm_wtime() - t0) * 1e6 / (double)(handoffs / 2 * 2);
        counts_now(c1);
        dsm_barrier();
        double tb = dsm_wtime();
        for (long i = 0; i < handoffs; i++) {
            if (i % 2 == me)
                ((volatile long *)bctr)[0] += 1;
            dsm_barrier();
        }
        double t_bar = (dsm_wtime() - tb) * 1e6 / (double)handoffs;
        long astart = dsm_atomic_load(atom);
        dsm_barrier();
        double ta = dsm_wtime();
        for (long i = 0; i < handoffs / 2; i++) {
            while ((dsm_atomic_load(atom) - astart) % 2 != me)
                sched_yield();
            dsm_atomic_add(atom, 1);
        }
        double t_atom = (dsm_wtime() - ta) * 1e6 / (double)(handoffs / 2 * 2);
        dsm_barrier();
        double *row = res + ((size_t)k * MAX_ROUNDS + (size_t)per[k]) * COLS;
        for (int n = 0; n < 2; n++) { /* node 0's times, both nodes' counts */
            if (me == n) {
                if (n == 0) {
                    row[0] = t_spin;
                    row[1] = t_bar;
                    row[2] = t_atom;
                    for (int j = 0; j < NK; j++)
                        row[3 + j] = 0;
                }
                for (int j = 0; j < NK; j++)
                    row[3 + j] += (c1[j] - c0[j]) / (double)(handoffs / 2 * 2);
            }
            dsm_barrier();
        }
        per[k]++;
    }
    if (bctr[0] != (long)rounds * handoffs && me == 0)
        printf("bench_handoff: barrier counter WRONG: %ld, want %ld\n", bctr[0],
               (long)rounds * handoffs);
    long afinal = dsm_atomic_load(atom);
    if (afinal != (long)rounds * (handoffs / 2 * 2) && me == 0)
        printf("bench_handoff: atomic counter WRONG: %ld, want %ld\n", afinal,
               (long)rounds * (handoffs / 2 * 2));
    if (me == 0) {
        printf("bench_handoff: 2 nodes, %ld handoffs per round, medians of the rounds of each "
               "setting (alternated); spread = slowest round / fastest; counts per handoff, both "
               "nodes\n", handoffs);
        printf("%-22s %6s %9s %7s %9s %7s %9s %7s", "setting", "rounds", "spin us", "spread",
               "barrier", "spread", "atomic", "spread");
        for (int j = 0; j < NK; j++)
            printf(" %8.8s", kname[j]);
        printf("\n");
        for (int k = 0; k < nset; k++) {
            double v[MAX_ROUNDS];
            printf("%-22s %6d", set[k].name, per[k]);
            for (int c = 0; c < COLS; c++) {
                for (int i = 0; i < per[k]; i++)
                    v[i] = res[((size_t)k * MAX_ROUNDS + (size_t)i) * COLS + (size_t)c];
                double lo = v[0], hi = v[0];
                for (int i = 1; i < per[k]; i++)
                    lo = v[i] < lo ? v[i] : lo, hi = v[i] > hi ? v[i] : hi;
                double spread = lo > 0 ? hi / lo : 0;
                double m = bench_median(v, per[k]);
                if (c < 3)
                    printf(" %9.2f %7.2f", m, spread);
                else
                    printf(" %8.2f", m);
            }
            printf("\n");
        }
    }
    dsm_finalize();
    return 0;
}
