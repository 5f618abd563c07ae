/* core_ops.c - the probes and core operations shared by bench_core and
 * bench_transport (core_ops.h). */
#define _GNU_SOURCE 1
#include "core_ops.h"
#include "bench_util.h"

#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "dsm.h"
#include "futex.h"
#include "node.h"

static char *probe_base;
static size_t probe_page_len;

static void probe_handler(int sig, siginfo_t *si, void *uc)
{
    (void)sig, (void)uc;
    char *page = (char *)((uintptr_t)si->si_addr & ~(uintptr_t)(probe_page_len - 1));
    mprotect(page, probe_page_len, PROT_READ | PROT_WRITE);
}

/* One protection fault whose handler grants access with mprotect, on the
 * odd pages of a `pages`-page mapping whose even pages are accessible: with
 * pages > 1 every grant merges and every re-protection splits the kernel's
 * memory areas, as the DSM's per-block protections do in its region; with
 * pages == 1 it is the isolated best case. */
static double probe_fault_batch(size_t page, int pages, int count)
{
    probe_page_len = page;
    size_t len = page * (size_t)(pages > 1 ? pages : 1);
    probe_base = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    memset(probe_base, 0, len);
    struct sigaction sa = { 0 }, old;
    sa.sa_sigaction = probe_handler;
    sa.sa_flags = SA_SIGINFO;
    sigaction(SIGSEGV, &sa, &old);
    uint64_t total = 0;
    for (int i = 0; i < count; i++) {
        size_t pg = pages > 1 ? (size_t)(2 * (i % (pages / 2)) + 1) : 0;
        char *p = probe_base + pg * page;
        mprotect(p, page, PROT_NONE);
        uint64_t t0 = dsm_now_ns();
        p[0]++;
        total += dsm_now_ns() - t0;
    }
    sigaction(SIGSEGV, &old, NULL);
    munmap(probe_base, len);
    return (double)total / 1e3 / count;
}

/* The home's side of a remote read miss: its own copy was written, and
 * before it sends the data it takes the write right away (an mprotect from
 * read-write to read-only of a written page), on the odd pages of a
 * `pages`-page mapping like probe_fault_batch.  Not in the limit probe
 * (fault + round trip + copy): on bare metal it costs about a system call,
 * but where the hypervisor traps page-table updates (a nested VM) it costs
 * more than the fault itself, and the read miss pays it in full. */
static double probe_downgrade_batch(size_t page, int pages, int count)
{
    size_t len = page * (size_t)pages;
    char *base = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    memset(base, 0, len);
    uint64_t total = 0;
    for (int i = 0; i < count; i++) {
        char *p = base + (size_t)(2 * (i % (pages / 2)) + 1) * page;
        p[0]++;
        uint64_t t0 = dsm_now_ns();
        mprotect(p, page, PROT_READ);
        total += dsm_now_ns() - t0;
        mprotect(p, page, PROT_READ | PROT_WRITE);
    }
    munmap(base, len);
    return (double)total / 1e3 / count;
}

double bench_probe_downgrade_us(size_t page, int count)
{
    double v[7];
    for (int i = 0; i < 7; i++)
        v[i] = probe_downgrade_batch(page, 2048, count / 7);
    return bench_median7(v);
}

/* Median of 7 batches: the machine is shared, single batches are noisy. */
double bench_median7(double v[7])
{
    return bench_median(v, 7);
}

double bench_spread(const double *v, int n)
{
    double lo = v[0], hi = v[0];
    for (int i = 1; i < n; i++) {
        lo = v[i] < lo ? v[i] : lo;
        hi = v[i] > hi ? v[i] : hi;
    }
    return lo > 0 ? hi / lo : 0;
}

double bench_probe_fault_us(size_t page, int pages, int count)
{
    double v[7];
    for (int i = 0; i < 7; i++)
        v[i] = probe_fault_batch(page, pages, count / 7);
    return bench_median7(v);
}

double bench_probe_copy_us(size_t block, int count)
{
    size_t n = 256;
    char *src = malloc(block * n), *dst = malloc(block * n);
    memset(src, 1, block * n);
    memset(dst, 2, block * n);
    uint64_t t0 = dsm_now_ns();
    for (int i = 0; i < count; i++)
        memcpy(dst + (size_t)(i % n) * block, src + (size_t)((i * 7) % n) * block, block);
    double us = (double)(dsm_now_ns() - t0) / 1e3 / count;
    volatile char sink = dst[block * (n - 1)];
    (void)sink;
    free(src);
    free(dst);
    return us;
}

char *bench_core_blocks(int nblk)
{
    int me = dsm_node();
    size_t bs = dsm_block_size();
    /* All blocks homed at node 0 (its dsm_malloc arena), block aligned. */
    char *raw = dsm_malloc(me == 0 ? (size_t)nblk * bs + bs : 1, "bench.blocks");
    char **shared_ptr = dsm_alloc(sizeof(char *), "bench.ptr");
    if (me == 0)
        *shared_ptr = (char *)(((uintptr_t)raw + bs - 1) & ~(uintptr_t)(bs - 1));
    dsm_barrier();
    char *blk = *shared_ptr;
    /* Steady state, not first touch: node 1 has used every block before, so
     * no measured miss pays the kernel's allocation of a fresh page. */
    if (me == 1)
        for (int i = 0; i < nblk; i++)
            blk[(size_t)i * bs] = 1;
    dsm_barrier();
    return blk;
}

/* Node 1 reads one byte of each block: us per read */
static double timed_reads(const char *blk, int nblk, size_t bs)
{
    volatile long sink = 0;
    double t0 = dsm_wtime();
    for (int i = 0; i < nblk; i++)
        sink += blk[(size_t)i * bs];
    return (dsm_wtime() - t0) * 1e6 / nblk;
}

void bench_core_round(char *blk, int nblk, double *read_us, double *write_us, double *upg_us)
{
    int me = dsm_node();
    size_t bs = dsm_block_size();
    volatile long sink = 0;
    /* read miss: node 0 took the blocks back (recall), node 1 reads them */
    if (me == 0)
        for (int i = 0; i < nblk; i++)
            blk[(size_t)i * bs] = 2;
    dsm_barrier();
    if (me == 1)
        *read_us = timed_reads(blk, nblk, bs);
    dsm_barrier();
    /* write miss: node 0 invalidates node 1's read copies, node 1 writes */
    if (me == 0)
        for (int i = 0; i < nblk; i++)
            blk[(size_t)i * bs] = 3;
    dsm_barrier();
    if (me == 1) {
        double t0 = dsm_wtime();
        for (int i = 0; i < nblk; i++)
            blk[(size_t)i * bs + 8] = 4;
        *write_us = (dsm_wtime() - t0) * 1e6 / nblk;
    }
    dsm_barrier();
    /* upgrade: node 0 takes the blocks back, node 1 reads them (its read
     * copy is then the only one), and writes them */
    if (me == 0)
        for (int i = 0; i < nblk; i++)
            blk[(size_t)i * bs] = 5;
    dsm_barrier();
    if (me == 1) {
        for (int i = 0; i < nblk; i++)
            sink += blk[(size_t)i * bs];
        double t0 = dsm_wtime();
        for (int i = 0; i < nblk; i++)
            blk[(size_t)i * bs + 16] = 6;
        *upg_us = (dsm_wtime() - t0) * 1e6 / nblk;
    }
    dsm_barrier();
}

void bench_core_measure(int nblk, bench_core_result *out)
{
    int me = dsm_node();
    size_t bs = dsm_block_size();
    char *blk = bench_core_blocks(nblk);
    long *mig = dsm_alloc(bs, "bench.migratory");
    /* Seven rounds of every measurement; the table shows medians (the
     * machine is shared: a round can lose its core to another process). */
    double rtt_v[7], read_v[7], write_v[7], upg_v[7];
    for (int round = 0; round < 7; round++) {
        if (me == 1)
            rtt_v[round] = dsm_rt_probe_roundtrip(dsm_g, 0, 300);
        dsm_barrier();
        bench_core_round(blk, nblk, &read_v[round], &write_v[round], &upg_v[round]);
    }
    /* the read miss again, the home computing meanwhile: it spins on a
     * flag homed at node 1, which node 1 raises when its reads are done */
    long *flag = dsm_alloc(2 * bs, "bench.busy_flag");
    if (dsm_home_of(flag) != 1)
        flag = (long *)((char *)flag + bs); /* node 1's block (DSM_HOMES) */
    double busy_v[7];
    for (int round = 0; round < 7; round++) {
        if (me == 0)
            for (int i = 0; i < nblk; i++)
                blk[(size_t)i * bs] = (char)(10 + round);
        dsm_barrier();
        if (me == 1) {
            busy_v[round] = timed_reads(blk, nblk, bs);
            flag[0] = round + 1;
        } else {
            volatile double x = 1.0;
            while (((volatile long *)flag)[0] != round + 1)
                for (int k = 0; k < 200; k++)
                    x = x * 1.000001 + 1e-9;
        }
        dsm_barrier();
    }
    /* migratory: the two nodes take turns incrementing one counter, in 7
     * rounds too (at least 10 handoffs each) */
    int rounds = nblk / 14 > 5 ? nblk / 14 : 5;
    double mig_v[7];
    for (int round = 0; round < 7; round++) {
        dsm_barrier();
        double t0 = dsm_wtime();
        for (int i = 0; i < rounds; i++) {
            while (((volatile long *)mig)[0] % 2 != me)
                sched_yield(); /* a polite spin: 2 cores carry 4 threads here */
            mig[0]++;
        }
        mig_v[round] = (dsm_wtime() - t0) * 1e6 / (2.0 * rounds);
    }
    /* the same turns at a barrier per handoff (what ArgoDSM needs:
     * bench/argo/argo_core.cpp), and through a runtime atomic counter
     * (dsm_atomic_add at its manager, node 1: no page moves) */
    long *bar = dsm_alloc(bs, "bench.barrier_handoff");
    double bar_v[7], atom_v[7];
    for (int round = 0; round < 7; round++) {
        dsm_barrier();
        double t0 = dsm_wtime();
        for (int i = 0; i < 2 * rounds; i++) {
            if (i % 2 == me)
                bar[0]++;
            dsm_barrier();
        }
        bar_v[round] = (dsm_wtime() - t0) * 1e6 / (2.0 * rounds);
        long start = dsm_atomic_load(1);
        dsm_barrier();
        t0 = dsm_wtime();
        for (int i = 0; i < rounds; i++) {
            while ((dsm_atomic_load(1) - start) % 2 != me)
                sched_yield();
            dsm_atomic_add(1, 1);
        }
        atom_v[round] = (dsm_wtime() - t0) * 1e6 / (2.0 * rounds);
        dsm_barrier();
    }
    out->barrier_handoff = bench_median(bar_v, 7);
    out->atomic_handoff = bench_median(atom_v, 7);
    out->atomic_handoff_spread = bench_spread(atom_v, 7);
    out->counters_ok = bar[0] == 7L * 2 * rounds && dsm_atomic_load(1) == 7L * 2 * rounds;
    double *res = dsm_alloc(16 * sizeof(double), "bench.results");
    if (me == 1) {
        res[0] = bench_median(rtt_v, 7);
        res[1] = bench_median(read_v, 7);
        res[2] = bench_median(write_v, 7);
        res[3] = bench_median(upg_v, 7);
        res[4] = bench_spread(rtt_v, 7);
        res[5] = bench_spread(read_v, 7);
        res[6] = bench_spread(write_v, 7);
        res[7] = bench_spread(upg_v, 7);
        res[8] = bench_median(busy_v, 7);
        res[9] = bench_spread(busy_v, 7);
    }
    dsm_barrier();
    out->rtt = res[0];
    out->read = res[1];
    out->write = res[2];
    out->upgrade = res[3];
    out->rtt_spread = res[4];
    out->read_spread = res[5];
    out->write_spread = res[6];
    out->upgrade_spread = res[7];
    out->read_busy = res[8];
    out->read_busy_spread = res[9];
    out->migratory = bench_median(mig_v, 7);
    out->migratory_spread = bench_spread(mig_v, 7);
}
