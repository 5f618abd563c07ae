/* mpi_transport.h - the mpi transport (OpenMPI): a program started by
 * `mpirun -np N prog` joins as N nodes.  Built when configure found MPI
 * (HAVE_MPI); the declarations are always there so api.c can say clearly
 * that the transport is missing. */
#ifndef DSM_TRANSPORT_MPI_H
#define DSM_TRANSPORT_MPI_H

#include <stdint.h>
#include <stdlib.h>

#include "transport.h"

extern const dsm_transport_ops dsm_transport_mpi_ops;

/* Was this process started by mpirun?  -1 if not, else its rank, from the
 * environment (OpenMPI's OMPI_COMM_WORLD_SIZE and _RANK, or PMIX_RANK).
 * Inline: the registry asks it also where MPI is not built, to say so
 * rather than run N one-node jobs. */
static inline int dsm_transport_mpi_launched_as(void)
{
    const char *size = getenv("OMPI_COMM_WORLD_SIZE"), *pmix = getenv("PMIX_RANK");
    const char *rank = size && *size ? getenv("OMPI_COMM_WORLD_RANK") : pmix;
    if (!(size && *size) && !(pmix && *pmix))
        return -1;
    long v = rank && *rank ? strtol(rank, NULL, 10) : 0;
    return v >= 0 && v < (1L << 30) ? (int)v : 0;
}

static inline int dsm_transport_mpi_launched(void) { return dsm_transport_mpi_launched_as() >= 0; }

/* Initialise MPI and open the transport; NULL with a message on stderr.
 * max_payload is the block size in bytes. */
dsm_transport *dsm_transport_mpi_open(size_t max_payload);

/* Settings MPI reads at MPI_Init (the eager limit of OpenMPI's
 * shared-memory transport, so a block moves in one message); called by
 * open, or by a program that initialises MPI itself before dsm_init. */
void dsm_transport_mpi_tune(size_t max_payload);

/* The local CLOCK_MONOTONIC time (ns) that corresponds to rank 0's clock
 * base, estimated by ping-pong at open: dsm_wtime() is then the same clock
 * on every node, also across hosts. */
uint64_t dsm_transport_mpi_clock_base(dsm_transport *t);

/* How far this node got: after JOINED, leaving the process without
 * FINALIZED is reported ("exited without dsm_finalize") and aborts the job
 * through MPI_Abort.  Values are those of dsm_transport_shm_mark. */
void dsm_transport_mpi_mark(dsm_transport *t, int state);

/* End the whole job now (MPI_Abort, and this rank's _exit if that takes
 * more than 2 s); used by dsm_fatal under MPI. */
void dsm_transport_mpi_abort(int code);

/* Called by a waiting thread: leave when a rank on this host ended without
 * dsm_finalize and mpirun did not end the job within a second (mpi.c).
 * The verbs transport calls it with its bootstrap. */
void dsm_transport_mpi_watch_peers(dsm_transport *t);

#endif
