/* mpi_transport.h - the mpi transport (OpenMPI): a program started by
 * `mpirun -np N prog` joins as N nodes.  Built when configure found MPI
 * (HAVE_MPI); the declarations are always there so api.c can say clearly
 * that the transport is missing. */
#ifndef DSM_TRANSPORT_MPI_H
#define DSM_TRANSPORT_MPI_H

#include <stdint.h>

#include "transport.h"

/* Does the environment say this process was started by mpirun (OpenMPI's
 * OMPI_COMM_WORLD_SIZE, or PMIX_RANK)? */
int dsm_transport_mpi_launched(void);

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

/* End the whole job now (MPI_Abort); used by dsm_fatal under MPI. */
void dsm_transport_mpi_abort(int code);

#endif
