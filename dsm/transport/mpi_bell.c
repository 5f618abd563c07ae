/* mpi_bell.c - doorbells between the ranks of one host (mpi_bell.h): a
 * memfd page made by the host's first rank, opened by the others through
 * /proc/PID/fd (no name to clean up if a rank dies), one cache line of
 * futex words per rank of the job. */
#define _GNU_SOURCE 1 /* memfd_create */
#include "mpi_bell.h"

#include <fcntl.h>
#include <limits.h>
#include <linux/futex.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* One rank's words, alone on a cache line: senders write seq, the rank's
 * own threads the counts. */
typedef struct bell_line {
    _Atomic uint32_t seq;      /* bumped by each ring: the futex word */
    _Atomic uint32_t sleepers; /* threads of the rank sleeping (or about to) */
    _Atomic uint32_t pollers;  /* threads of the rank polling in a loop */
    char pad[64 - 3 * sizeof(uint32_t)];
} bell_line;

struct dsm_bell {
    bell_line *line; /* n lines, indexed by rank */
    size_t len;
    int self;
};

int dsm_mpi_host_fd(MPI_Comm comm, int self, int n, const uint64_t *hosts, int fd)
{
    int first = 0, shared = 0;
    while (hosts && hosts[2 * first] != hosts[2 * self])
        first++;
    for (int r = 0; hosts && r < n; r++)
        shared |= r != self && hosts[2 * r] == hosts[2 * self];
    /* every rank learns the descriptor number of its host's first rank */
    int *fds = malloc((size_t)n * sizeof *fds);
    int ok = fds && MPI_Allgather(&fd, 1, MPI_INT, fds, 1, MPI_INT, comm) == MPI_SUCCESS;
    int myfd = ok && shared ? fd : -1;
    if (ok && shared && first != self && fds[first] >= 0) {
        char path[64];
        snprintf(path, sizeof path, "/proc/%d/fd/%d", (int)hosts[2 * first + 1], fds[first]);
        myfd = open(path, O_RDWR | O_CLOEXEC);
    }
    free(fds);
    return myfd;
}

dsm_bell *dsm_bell_open(MPI_Comm comm, int self, int n, const uint64_t *hosts)
{
    int first = 0, shared = 0;
    while (hosts && hosts[2 * first] != hosts[2 * self])
        first++;
    for (int r = 0; hosts && r < n; r++)
        shared |= r != self && hosts[2 * r] == hosts[2 * self];
    size_t len = ((size_t)n * sizeof(bell_line) + 4095) & ~(size_t)4095;
    int fd = -1;
    if (shared && first == self) {
        fd = memfd_create("dsm-mpi-bells", MFD_CLOEXEC);
        if (fd >= 0 && ftruncate(fd, (off_t)len)) {
            close(fd);
            fd = -1;
        }
    }
    void *map = MAP_FAILED;
    int myfd = dsm_mpi_host_fd(comm, self, n, hosts, fd);
    if (myfd >= 0)
        map = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, myfd, 0);
    if (myfd >= 0 && myfd != fd)
        close(myfd);
    /* all or none: a rank without the page would not ring, and its peers
     * would sleep through its messages */
    int mine = !shared || map != MAP_FAILED, all = 0;
    if (MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, comm) != MPI_SUCCESS)
        all = 0;
    /* the others have opened it: the first rank's descriptor may go */
    MPI_Barrier(comm);
    if (fd >= 0)
        close(fd);
    dsm_bell *b = NULL;
    if (all && shared && map != MAP_FAILED && (b = calloc(1, sizeof *b))) {
        b->line = map;
        b->len = len;
        b->self = self;
        return b;
    }
    if (map != MAP_FAILED)
        munmap(map, len);
    return NULL;
}

static void futex_wake_all(_Atomic uint32_t *w)
{
    syscall(SYS_futex, (uint32_t *)w, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
}

void dsm_bell_ring(dsm_bell *b, int to)
{
    bell_line *l = &b->line[to];
    atomic_fetch_add_explicit(&l->seq, 1, memory_order_seq_cst);
    /* seq_cst against arm (sleepers++, then seq read, then the look for
     * messages): either the sleeper sees the new seq, or we see it */
    if (atomic_load_explicit(&l->sleepers, memory_order_seq_cst) &&
        !atomic_load_explicit(&l->pollers, memory_order_seq_cst))
        futex_wake_all(&l->seq);
}

uint32_t dsm_bell_arm(dsm_bell *b)
{
    bell_line *l = &b->line[b->self];
    atomic_fetch_add_explicit(&l->sleepers, 1, memory_order_seq_cst);
    return atomic_load_explicit(&l->seq, memory_order_seq_cst);
}

void dsm_bell_disarm(dsm_bell *b)
{
    atomic_fetch_sub_explicit(&b->line[b->self].sleepers, 1, memory_order_seq_cst);
}

void dsm_bell_sleep(dsm_bell *b, uint32_t seen, long timeout_ns)
{
    bell_line *l = &b->line[b->self];
    struct timespec ts = { timeout_ns / 1000000000L, timeout_ns % 1000000000L };
    syscall(SYS_futex, (uint32_t *)&l->seq, FUTEX_WAIT, seen, &ts, NULL, 0);
    dsm_bell_disarm(b);
}

int dsm_bell_polling(dsm_bell *b, int on)
{
    bell_line *l = &b->line[b->self];
    if (on) {
        atomic_fetch_add_explicit(&l->pollers, 1, memory_order_seq_cst);
        return 0;
    }
    /* pollers-- then a look at the sleepers (and the caller's look for a
     * message), against ring's seq++ then its look at pollers */
    atomic_fetch_sub_explicit(&l->pollers, 1, memory_order_seq_cst);
    return atomic_load_explicit(&l->sleepers, memory_order_seq_cst) != 0;
}

void dsm_bell_wake_self(dsm_bell *b)
{
    bell_line *l = &b->line[b->self];
    atomic_fetch_add_explicit(&l->seq, 1, memory_order_seq_cst);
    futex_wake_all(&l->seq);
}

void dsm_bell_close(dsm_bell *b)
{
    if (!b)
        return;
    munmap(b->line, b->len);
    free(b);
}
