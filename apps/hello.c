/* hello.c - the smallest DSM program: a shared array, a barrier, a lock. */
#include <dsm.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    if (dsm_init(&argc, &argv) != 0) return 1;
    int me = dsm_node(), n = dsm_nodes();
    double t0 = dsm_wtime();
    long *slot = dsm_alloc(n * sizeof *slot, "slots");  /* same address on every node */
    long *count = dsm_alloc(sizeof *count, "count");    /* zero-filled */
    slot[me] = me + 1;                                   /* plain stores */
    dsm_lock(0); ++*count; dsm_unlock(0);
    dsm_barrier();                                       /* every slot is written */
    long sum = 0;
    for (int i = 0; i < n; i++) sum += slot[i];
    int ok = sum == (long)n * (n + 1) / 2 && *count == n;
    if (me == 0)
        printf("hello: %d nodes, sum %ld, count %ld, %.3f s\nhello: result %s\n",
               n, sum, *count, dsm_wtime() - t0, ok ? "OK" : "WRONG");
    dsm_finalize();
    return !ok;
}
