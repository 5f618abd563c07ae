/* mpi_bell.h - doorbells between the ranks of the mpi transport that share a
 * host: a page of futex words shared by them, one cache line per rank.
 *
 * MPI gives no way to block until a message comes without spinning a core
 * (OpenMPI's blocking calls spin), so a waiting rank used to test and sleep
 * in turn: a request to a rank that slept waited for the end of its sleep
 * (10-50 us, a wake-up each time, even when nothing came).  With a bell the
 * waiting thread sleeps on its futex word and a sender on the same host
 * bumps it after the message: the sleeper wakes when the message is there,
 * and sleeps undisturbed otherwise.  Like the shm transport's queues, a
 * sender wakes only when a thread of the receiver sleeps and none polls
 * (the polling thread will see the message; the last to stop polling wakes
 * the sleepers if a message waits).  Ranks on other hosts ring their
 * lifelines instead (mpi_lifeline.h). */
#ifndef DSM_TRANSPORT_MPI_BELL_H
#define DSM_TRANSPORT_MPI_BELL_H

#include <mpi.h>
#include <stdint.h>

typedef struct dsm_bell dsm_bell;

/* Collective over comm.  hosts[2r] identifies rank r's host and
 * hosts[2r+1] is its pid (mpi.c's gather_hosts): the first rank of each host makes the page (a memfd), the others
 * open it through /proc.  NULL on every rank when some rank could not map
 * it (then the ranks sleep in short naps, as before), or when no two ranks
 * share a host. */
dsm_bell *dsm_bell_open(MPI_Comm comm, int self, int n, const uint64_t *hosts);

/* Collective over comm: the first rank of each host shares descriptor fd
 * (-1: none) with the other ranks of its host, which open it through
 * /proc/PID/fd (no name to clean up if a rank dies).  Returns the
 * descriptor this rank maps: fd on the first rank, a new one (the caller
 * closes it) on the others, -1 when none or no other rank shares the host.
 * Used for the bells and for the queues (mpi_shm.c). */
int dsm_mpi_host_fd(MPI_Comm comm, int self, int n, const uint64_t *hosts, int fd);

/* After a message to rank `to` (on this host): wake it if it sleeps and no
 * thread of it polls. */
void dsm_bell_ring(dsm_bell *b, int to);

/* A thread of this rank is about to sleep: counted as a sleeper from now
 * on; returns the word to sleep on, read before the caller looks for
 * messages (a message sent after the look changes it). */
uint32_t dsm_bell_arm(dsm_bell *b);
/* Sleep until the word differs from seen or timeout_ns passed, then no
 * longer a sleeper.  disarm: the same without sleeping. */
void dsm_bell_sleep(dsm_bell *b, uint32_t seen, long timeout_ns);
void dsm_bell_disarm(dsm_bell *b);

/* A thread of this rank starts (1) or stops (0) polling in a loop; returns
 * on stopping whether sleepers are there (the caller then looks for a
 * waiting message and calls dsm_bell_wake_self if there is one). */
int dsm_bell_polling(dsm_bell *b, int on);
/* Wake every sleeping thread of this rank. */
void dsm_bell_wake_self(dsm_bell *b);

void dsm_bell_close(dsm_bell *b);

#endif
