/* mpi_lifeline.h - a TCP connection between every two ranks of the mpi
 * transport, beside MPI, that carries no data: its end tells that the
 * process at the other end ended.  The kernel closes a process's sockets
 * when it dies, even by SIGKILL, so the peer sees the end at once; MPI's
 * TCP transport sees it too, but says nothing a program can act on (it
 * goes on "unpredictably", and mpirun ends the job with a message about a
 * daemon).  A rank that leaves normally says goodbye first (one byte), so
 * only an end without it is a death.  Used by mpi.c (check_alive). */
#ifndef DSM_TRANSPORT_MPI_LIFELINE_H
#define DSM_TRANSPORT_MPI_LIFELINE_H

#include <mpi.h>

typedef struct dsm_lifeline dsm_lifeline;

/* Collective over comm: lifelines to the ranks r with want[r] != 0 (want
 * must be symmetric: r wants us when we want r).  NULL when the
 * connections cannot be made (no common address, out of descriptors):
 * then only the heartbeats watch. */
dsm_lifeline *dsm_lifeline_open(MPI_Comm comm, int self, int n, const unsigned char *want);

/* A rank whose process ended without goodbye, or -1. */
int dsm_lifeline_check(dsm_lifeline *l);

/* We leave normally, or end the job with a line of our own: tell every
 * peer (async-signal-safe). */
void dsm_lifeline_goodbye(dsm_lifeline *l);

void dsm_lifeline_close(dsm_lifeline *l);

#endif
