/* mn_kill.c - a job that runs until one of its nodes is killed: each node
 * writes its pid to DIR/pid.N once it joined, then the nodes take a lock,
 * increment a shared counter and meet at a barrier, for at most 60 s.
 * tests/node_kill.sh kills a node mid-run and checks that the whole job
 * ends quickly, naming the node. */
#include <dsm.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: mn_kill DIR\n");
        return 2;
    }
    if (dsm_init(&argc, &argv))
        return 1;
    long *count = dsm_alloc(sizeof *count, "count");
    char path[4096];
    snprintf(path, sizeof path, "%s/pid.%d", argv[1], dsm_node());
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        return 1;
    }
    fprintf(f, "%ld\n", (long)getpid());
    fclose(f);
    double t0 = dsm_wtime();
    while (dsm_wtime() - t0 < 60) {
        dsm_lock(0);
        ++*count;
        dsm_unlock(0);
        dsm_barrier();
    }
    dsm_finalize();
    return 0;
}
