/* hello.c - the smallest DSM program: a shared array, a barrier, a lock. */
#include <dsm.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    if (dsm_init(&argc, &argv) != 0) return 1;
    int me = dsm_node(), n = dsm_nodes();
    long *slot = dsm_alloc(n * sizeof *slot, "slots");  /* same address everywhere */
    long *count = dsm_alloc(sizeof *count, "count");    /* zero-filled */
    slot[me] = me + 1;                                   /* plain stores */
    dsm_lock(0); ++*count; dsm_unlock(0);                /* global lock 0 */
    dsm_barrier();                                       /* every slot is written */
    long sum = 0;
    for (int i = 0; i < n; i++) sum += slot[i];
    int ok = sum == (long)n * (n + 1) / 2 && *count == n;
    if (me == 0) printf("hello: %d nodes, sum %ld\nhello: result %s\n", n, sum, ok ? "OK" : "WRONG");
    dsm_finalize();
    return !ok;
}
