/* mpi_shm.h - the shm transport's queues under the mpi transport, for the
 * ranks that share a host.
 *
 * A message between two ranks of one host through OpenMPI costs its
 * shared-memory transport's copies and matching plus our own ring of
 * preposted receives, and a waiting rank is woken through a bell after the
 * message (mpi_bell.h): a read miss cost about twice the shm transport's.
 * The ranks of a host need no MPI for that: they make the same segment
 * dsmrun makes (shm_layout.h) and run the shm transport on it, so messages
 * and block data go through the same rings and futex wake-ups as under
 * dsmrun.  Ranks on other hosts keep MPI (mpi.c decides per destination). */
#ifndef DSM_TRANSPORT_MPI_SHM_H
#define DSM_TRANSPORT_MPI_SHM_H

#include <mpi.h>
#include <stdint.h>

#include "transport.h"

/* Collective over comm.  hosts[2r] identifies rank r's host, hosts[2r+1]
 * is its pid (mpi.c's gather_hosts); want: this rank would use the queues
 * (DSM_MPI_SHM).  The first rank of each host makes a segment for n nodes
 * (a memfd: nothing left behind if a rank dies), the others open it
 * through /proc, and every rank opens the shm transport on it as node
 * self.  All or none: NULL on every rank when some rank does not want it
 * or could not open it, or when no two ranks share a host. */
dsm_transport *dsm_mpi_shm_open(MPI_Comm comm, int self, int n, const uint64_t *hosts,
                                size_t max_payload, int want);

#endif
