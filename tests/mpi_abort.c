/* mpi_abort.c - the job of tests/mpi_abort_load.sh: each node writes its pid
 * to DIR/pid.N once it joined; then node 0 waits until DIR/go exists (at
 * most 60 s) and misuses the API (a lock id out of range: dsm_fatal, which
 * under mpirun ends the job through MPI_Abort), while the other nodes wait
 * in a barrier that never completes. */
#include <dsm.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: mpi_abort DIR\n");
        return 2;
    }
    if (dsm_init(&argc, &argv))
        return 1;
    char path[4096];
    snprintf(path, sizeof path, "%s/pid.%d", argv[1], dsm_node());
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        return 1;
    }
    fprintf(f, "%ld\n", (long)getpid());
    fclose(f);
    dsm_barrier();
    if (dsm_node() == 0) {
        snprintf(path, sizeof path, "%s/go", argv[1]);
        for (int i = 0; i < 3000 && access(path, F_OK); i++)
            usleep(20000);
        dsm_lock(dsm_lock_count() + 7);
    }
    dsm_barrier();
    dsm_finalize();
    return 0;
}
