/* qs_bench.c - QuickStep's validation programs (QuickStep, Appendix A) for
 * the simulated Alewife, built with the dsmcc instrumentation:
 *   qs_bench bench1 MISSPROB LOOP   A.2: LOOP reads of num, MISSPROB% of them
 *                                   after a softflush (cached read ratio)
 *   qs_bench bench5 MISSPROB LOOP   A.3: MISSPROB% x LOOP reads of tmp->d1 on
 *                                   node 0, each after a softflush, then local
 *                                   writes (remote accesses, hop histograms)
 *   qs_bench bench11 MISSPROB LOOP  A.4: local writes, remote reads, local
 *                                   writes, remote reads (timeslices)
 *   qs_bench proc1 MISSPROB LOOP    A.1: Proc1's checkpoints
 *   qs_bench checkpoint ID 0        dsm_checkpoint(ID) once (bad ids)
 * As on Alewife, `num` is each processor's own datum (its local memory:
 * dsm_malloc), and DUMMY is allocated once, on node 0 (the first dsm_alloc
 * has its home on node 0).  softflush(p) has no counterpart in dsm.h; it is
 * a store to a line of the processor's own memory that maps onto p's line
 * of the 64 KB direct-mapped cache, which evicts p's line (a store: the
 * statistics of reads are not disturbed; a local line: no packets).  Shared
 * references go through volatile pointers so every load and store of the
 * paper's C is made. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dsm.h"

#define CACHE_BYTES 65536 /* Alewife's cache: the alias distance of softflush */

typedef struct dummy {
    unsigned d1, d2, d3, d4, d5;
} DUMMY;

/* Each processor's own pointers (file-scope variables are shared by the
 * simulated processors, one process), passed by value: the benchmarks keep
 * them in registers, as the paper's SPARCLE code kept its locals (register
 * windows), so the loops make only the paper's references (the simulated
 * Alewife counts private references too). */
typedef struct mine {
    volatile int *num;
    volatile int *flush_line; /* aliases num's cache line */
    volatile int *flush_tmp;  /* aliases tmp's cache line */
} mine;

/* A word of buf (2 x CACHE_BYTES long) in the same cache line as p. */
static volatile int *alias_of(const volatile void *p, char *buf)
{
    uintptr_t a = (uintptr_t)p, b = (uintptr_t)buf;
    uintptr_t at = b > a ? a + (b - a + CACHE_BYTES - 1) / CACHE_BYTES * CACHE_BYTES
                         : a - (a - b) / CACHE_BYTES * CACHE_BYTES;
    return (volatile int *)at;
}

static void softflush(volatile int *alias) { *alias = 0; }

static int k_of(int missprob, int loopbound)
{
    return (int)((float)missprob * 0.01f * (float)loopbound + 0.5f);
}

static void bench1(mine me, int missprob, int loopbound)
{
    int k = k_of(missprob, loopbound), l = loopbound - k, j = 0;
    for (int i = 0; i < k; i++) {
        softflush(me.flush_line);
        j += *me.num;
    }
    for (int i = 0; i < l; i++)
        j += *me.num;
    (void)j;
}

static void bench5(mine me, volatile DUMMY *tmp, int missprob, int loopbound)
{
    int k = k_of(missprob, loopbound), l = loopbound - k;
    unsigned j = 0;
    for (int i = 0; i < k; i++) {
        softflush(me.flush_tmp);
        j += tmp->d1;
    }
    for (int i = 0; i < l; i++)
        *me.num = i;
    (void)j;
}

static void bench11(mine me, volatile DUMMY *tmp, int missprob, int loopbound)
{
    int k = k_of(missprob, loopbound), l = loopbound - k;
    unsigned j = 0;
    for (int i = 0; i < l; i++)
        *me.num = i;
    for (int i = 0; i < k; i++) {
        softflush(me.flush_tmp);
        j += tmp->d1;
    }
    for (int i = 0; i < l; i++)
        *me.num = i;
    for (int i = 0; i < k; i++) {
        softflush(me.flush_tmp);
        j += tmp->d1;
    }
    (void)j;
}

/* Checkgr2 is group 2, Checkgr3 group 3; CheckN is index N - 1 (the
 * histogram ids of Table 2.2). */
static void proc1(mine me, int miss_prob, int loopbound)
{
    int k = miss_prob * dsm_node(), l = loopbound - k;
    dsm_checkpoint(DSM_CHECKPOINT(2, 0));
    for (int i = 0; i < k; i++) {
        dsm_checkpoint(DSM_CHECKPOINT(2, 1));
        softflush(me.flush_line);
        *me.num = i;
    }
    dsm_checkpoint(DSM_CHECKPOINT(2, 2));
    dsm_checkpoint(DSM_CHECKPOINT(3, 0));
    for (int i = 0; i < l; i++) {
        dsm_checkpoint(DSM_CHECKPOINT(3, 1));
        *me.num = i;
    }
    dsm_checkpoint(DSM_CHECKPOINT(3, 2));
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: qs_bench bench1|bench5|bench11|proc1 MISSPROB LOOPBOUND\n");
        return 2;
    }
    if (dsm_init(&argc, &argv))
        return 1;
    const char *mode = argv[1];
    int missprob = atoi(argv[2]), loopbound = atoi(argv[3]);
    volatile DUMMY *tmp = dsm_alloc(sizeof(DUMMY), "dummy");
    if (dsm_node() == 0) {
        tmp->d1 = 1;
        tmp->d2 = 2;
        tmp->d3 = 3;
        tmp->d4 = 4;
        tmp->d5 = 5;
    }
    mine m;
    mine *me = &m;
    me->num = dsm_malloc(sizeof *me->num, "num");
    char *buf = dsm_malloc(2 * CACHE_BYTES, "flush");
    if (!me->num || !buf) {
        fprintf(stderr, "qs_bench: out of shared memory\n");
        return 1;
    }
    me->flush_line = alias_of(me->num, buf);
    me->flush_tmp = alias_of(tmp, buf);
    dsm_barrier();
    if (!strcmp(mode, "bench1"))
        bench1(*me, missprob, loopbound);
    else if (!strcmp(mode, "bench5"))
        bench5(*me, tmp, missprob, loopbound);
    else if (!strcmp(mode, "bench11"))
        bench11(*me, tmp, missprob, loopbound);
    else if (!strcmp(mode, "proc1"))
        proc1(*me, missprob, loopbound);
    else if (!strcmp(mode, "checkpoint")) /* misuse: dsm_checkpoint(MISSPROB) */
        dsm_checkpoint(missprob);
    else {
        fprintf(stderr, "qs_bench: unknown program '%s'\n", mode);
        return 2;
    }
    dsm_barrier();
    if (dsm_node() == 0)
        printf("qs_bench %s: done on %d processors\n", mode, dsm_nodes());
    dsm_finalize();
    return 0;
}
