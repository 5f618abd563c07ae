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

/* Reads what came (doorbells, goodbyes).  A rank whose process ended
 * without goodbye, or -1; *timed_out then says whether its connection
 * timed out (the host unreachable) rather than ended. */
int dsm_lifeline_check(dsm_lifeline *l, int *timed_out);

/* We leave normally, or end the job with a line of our own: tell every
 * peer (async-signal-safe). */
void dsm_lifeline_goodbye(dsm_lifeline *l);

/* Doorbells.  MPI's TCP transport moves a message only when the receiver
 * calls into MPI, and a rank that waits cannot block in MPI without
 * spinning: it would test and sleep, and a message would wait for the end
 * of a sleep.  So after each message to a rank of another host the sender
 * rings (one byte on the lifeline), and the waiting rank sleeps in ppoll
 * on its lifelines instead: the byte wakes it as soon as it arrives.
 * ring: from any thread (a short send, never blocking). */
void dsm_lifeline_ring(dsm_lifeline *l, int to);

/* Sleep at most timeout_ns, or until a lifeline has something to read (a
 * doorbell, a goodbye, an end) or also_fd (>= 0: the transport's own wake-up
 * eventfd) is readable; the bytes are left for dsm_lifeline_check.  Any
 * number of threads at once: 2 if something came, 1 if the time ran out. */
int dsm_lifeline_wait(dsm_lifeline *l, long timeout_ns, int also_fd);

void dsm_lifeline_close(dsm_lifeline *l);

#endif
