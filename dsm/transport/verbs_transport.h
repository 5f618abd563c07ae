/* verbs_transport.h - the verbs transport (RDMA with libibverbs): a program
 * started by `mpirun -np N prog` with DSM_TRANSPORT=verbs joins as N nodes
 * connected by reliable-connected queue pairs.  MPI is only the bootstrap
 * (rank, job size, the exchange of connection records, the clock base, and
 * ending the job on failure); messages go over the QPs.  Built when
 * configure found libibverbs and MPI (DSM_HAVE_VERBS). */
#ifndef DSM_TRANSPORT_VERBS_H
#define DSM_TRANSPORT_VERBS_H

#include <stddef.h>

#include "transport.h"

#if defined(HAVE_IBVERBS) && defined(HAVE_MPI)
#define DSM_HAVE_VERBS 1
#endif

extern const dsm_transport_ops dsm_transport_verbs_ops;

/* Start MPI, open the RDMA device (DSM_VERBS_DEVICE, else the first one;
 * port DSM_VERBS_IB_PORT, else 1; GID index DSM_VERBS_GID_INDEX, else 0),
 * create one QP per peer.  NULL after one line on stderr (every node
 * fails together, e.g. when no node has an RDMA device). */
dsm_transport *dsm_transport_verbs_open(size_t max_payload);

/* Register the region (its protocol view) for RDMA writes by the peers,
 * exchange and validate the connection records, bring every QP to RTS.
 * Collective; called once after the region is mapped, before any send.
 * 0, or ends the job after one line. */
int dsm_transport_verbs_attach(dsm_transport *t, char *region, size_t size, size_t block_size);

/* The mpi transport used as bootstrap (for its mark, clock base, abort). */
dsm_transport *dsm_transport_verbs_boot(dsm_transport *t);

#endif
