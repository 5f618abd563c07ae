/* mpi_shm.c - the shm transport's segment made by the ranks of one host of
 * an mpi job (mpi_shm.h): the host's first rank creates and lays it out as
 * dsmrun would, the others open its descriptor through /proc/PID/fd. */
#define _GNU_SOURCE 1 /* memfd_create */
#include "mpi_shm.h"

#include <sys/mman.h>
#include <unistd.h>

#include "mpi_bell.h"
#include "shm_layout.h"

/* The segment for n nodes, laid out (header and node table written, the
 * queues valid as zeros); its descriptor, or -1. */
static int make_segment(int n, size_t max_payload)
{
    uint32_t slots = dsm_shm_default_slots((uint32_t)n, max_payload);
    dsm_shm_geometry g;
    if (dsm_shm_geometry_compute((uint32_t)n, max_payload, slots, &g))
        return -1;
    int fd = memfd_create("dsm-mpi-queues", MFD_CLOEXEC);
    if (fd < 0)
        return -1;
    void *p = MAP_FAILED;
    if (ftruncate(fd, (off_t)g.total_size) == 0)
        p = mmap(NULL, (size_t)g.queue_offset, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED) {
        close(fd);
        return -1;
    }
    /* no launcher: the pid of the rank that made it */
    dsm_shm_header_fill(p, (uint32_t)n, max_payload, slots, &g, 0, (int32_t)getpid());
    munmap(p, (size_t)g.queue_offset);
    return fd;
}

dsm_transport *dsm_mpi_shm_open(MPI_Comm comm, int self, int n, const uint64_t *hosts,
                                size_t max_payload, int want)
{
    int first = 0, shared = 0, all_want = 0;
    while (hosts && hosts[2 * first] != hosts[2 * self])
        first++;
    for (int r = 0; hosts && r < n; r++)
        shared |= r != self && hosts[2 * r] == hosts[2 * self];
    want = want && hosts && n <= DSM_SHM_MAX_NODES;
    if (MPI_Allreduce(&want, &all_want, 1, MPI_INT, MPI_MIN, comm) != MPI_SUCCESS || !all_want)
        return NULL;
    int fd = shared && first == self ? make_segment(n, max_payload) : -1;
    dsm_transport *t = NULL;
    int myfd = dsm_mpi_host_fd(comm, self, n, hosts, fd);
    if (myfd >= 0)
        t = dsm_transport_shm_open_fd(myfd, self, n, max_payload);
    if (myfd >= 0 && myfd != fd)
        close(myfd); /* the mapping keeps the segment */
    /* all or none: a rank without the queues would send to its host's
     * ranks through MPI, where they no longer look */
    int mine = !shared || t, all = 0;
    if (MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, comm) != MPI_SUCCESS)
        all = 0;
    /* the others have opened it: the first rank's descriptor may go */
    MPI_Barrier(comm);
    if (fd >= 0)
        close(fd);
    if (t && !all) {
        t->close(t);
        t = NULL;
    }
    return t;
}
