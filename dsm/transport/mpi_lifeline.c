/* mpi_lifeline.c - the lifelines of the mpi transport (mpi_lifeline.h): one
 * TCP connection between every two ranks, whose end without a goodbye byte
 * means the peer's process died.
 *
 * Making them: every rank listens on a port of its own (any address) and
 * publishes the port and its IPv4 addresses (MPI_Allgather); each rank
 * connects to every higher rank, trying its addresses in turn, and the two
 * exchange a handshake (a magic word, the job's cookie from rank 0, their
 * ranks), so a connection that reached another process on a reused address
 * is refused.  A rank accepts its lower peers once it has connected to its
 * higher ones: the waits form a chain, never a cycle.  All ranks agree on
 * the outcome (MPI_Allreduce): lifelines for all or for none.
 *
 * On the wire: GOODBYE before a normal end, DOORBELL after each message of
 * the transport (mpi_lifeline.h); the connections have no Nagle delay, or
 * a doorbell would wait for the peer's acknowledgement. */
#define _GNU_SOURCE 1
#include "mpi_lifeline.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdatomic.h>
#include <poll.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "error.h"

#define MAX_ADDRS 6
#define MAGIC 0x44534d4cu /* "DSML" */
#define CONNECT_MS 2000    /* per address */
#define REPLY_MS 30000     /* the peer answers once its own connections are made */
#define ACCEPT_MS 30000
#define GOODBYE 'B'
#define DOORBELL 'D'

struct dsm_lifeline {
    int n, self;
    int *fd;              /* per rank, -1: none or closed */
    unsigned char *left;  /* said goodbye */
    struct pollfd *pfd;
    int *pfd_rank;
};

/* What a rank publishes: its port, its addresses (network order). */
typedef struct {
    uint32_t port, naddr, addr[MAX_ADDRS];
} lifeline_card;

typedef struct {
    uint32_t magic, cookie, rank;
} lifeline_hello;

static int wait_fd(int fd, short ev, int ms)
{
    struct pollfd p = { fd, ev, 0 };
    int r;
    do
        r = poll(&p, 1, ms);
    while (r < 0 && errno == EINTR);
    return r > 0 && (p.revents & ev);
}

static int send_all(int fd, const void *buf, size_t len)
{
    return send(fd, buf, len, MSG_NOSIGNAL) == (ssize_t)len ? 0 : -1;
}

static int recv_hello(int fd, lifeline_hello *h, int ms)
{
    size_t got = 0;
    while (got < sizeof *h) {
        if (!wait_fd(fd, POLLIN, ms))
            return -1;
        ssize_t r = recv(fd, (char *)h + got, sizeof *h - got, 0);
        if (r <= 0)
            return -1;
        got += (size_t)r;
    }
    return 0;
}

static void my_card(lifeline_card *c, uint32_t port)
{
    memset(c, 0, sizeof *c);
    c->port = port;
    struct ifaddrs *ifs = NULL;
    if (getifaddrs(&ifs) == 0) {
        for (struct ifaddrs *i = ifs; i && c->naddr < MAX_ADDRS; i = i->ifa_next)
            if (i->ifa_addr && i->ifa_addr->sa_family == AF_INET && (i->ifa_flags & IFF_UP) &&
                !(i->ifa_flags & IFF_LOOPBACK))
                c->addr[c->naddr++] = ((struct sockaddr_in *)i->ifa_addr)->sin_addr.s_addr;
        freeifaddrs(ifs);
    }
    if (c->naddr < MAX_ADDRS) /* ranks of one host without a network */
        c->addr[c->naddr++] = htonl(INADDR_LOOPBACK);
}

/* A connection to rank `to` at one of its addresses, handshake done; -1. */
static int connect_peer(const lifeline_card *c, uint32_t cookie, int self, int to)
{
    for (uint32_t a = 0; a < c->naddr; a++) {
        int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
        if (fd < 0)
            return -1;
        struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons((uint16_t)c->port) };
        sa.sin_addr.s_addr = c->addr[a];
        int err = 0;
        socklen_t len = sizeof err;
        if (connect(fd, (struct sockaddr *)&sa, sizeof sa) < 0 &&
            (errno != EINPROGRESS || !wait_fd(fd, POLLOUT, CONNECT_MS) ||
             getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) < 0 || err)) {
            close(fd);
            continue;
        }
        lifeline_hello h = { MAGIC, cookie, (uint32_t)self }, r;
        if (send_all(fd, &h, sizeof h) == 0 && recv_hello(fd, &r, REPLY_MS) == 0 &&
            r.magic == MAGIC && r.cookie == cookie && r.rank == (uint32_t)to)
            return fd;
        close(fd);
    }
    return -1;
}

dsm_lifeline *dsm_lifeline_open(MPI_Comm comm, int self, int n, const unsigned char *want)
{
    dsm_lifeline *l = calloc(1, sizeof *l);
    lifeline_card *cards = malloc((size_t)n * sizeof *cards);
    int ok = l && cards;
    if (ok) {
        l->n = n;
        l->self = self;
        l->fd = malloc((size_t)n * sizeof *l->fd);
        l->left = calloc((size_t)n, 1);
        l->pfd = malloc((size_t)n * sizeof *l->pfd);
        l->pfd_rank = malloc((size_t)n * sizeof *l->pfd_rank);
        ok = l->fd && l->left && l->pfd && l->pfd_rank;
        for (int r = 0; ok && r < n; r++)
            l->fd[r] = -1;
    }
    int lfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_in sa = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_ANY) };
    socklen_t len = sizeof sa;
    ok = ok && lfd >= 0 && bind(lfd, (struct sockaddr *)&sa, sizeof sa) == 0 &&
         listen(lfd, n) == 0 && getsockname(lfd, (struct sockaddr *)&sa, &len) == 0;
    lifeline_card mine;
    my_card(&mine, ok ? ntohs(sa.sin_port) : 0);
    uint32_t cookie = 0;
    if (self == 0) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        cookie = (uint32_t)ts.tv_nsec ^ (uint32_t)getpid() ^ (uint32_t)ts.tv_sec << 7;
    }
    MPI_Bcast(&cookie, 1, MPI_UINT32_T, 0, comm);
    if (!cards)
        dsm_fatal("dsm_init", "out of memory for the addresses of %d ranks", n);
    int all_ok = 0;
    if (MPI_Allgather(&mine, (int)(sizeof mine / 4), MPI_UINT32_T, cards,
                      (int)(sizeof mine / 4), MPI_UINT32_T, comm) != MPI_SUCCESS)
        ok = 0;
    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, comm);
    ok = all_ok;
    /* higher ranks: connect */
    for (int r = self + 1; ok && r < n; r++)
        if (want[r] && cards[r].port == 0)
            ok = 0;
        else if (want[r] && (l->fd[r] = connect_peer(&cards[r], cookie, self, r)) < 0)
            ok = 0;
    /* lower ranks: accept (a failed connector gives up on us; our wait
     * ends with ACCEPT_MS, and the agreement below makes it none for all) */
    int lower = 0;
    for (int r = 0; r < self; r++)
        lower += want[r] != 0;
    for (int got = 0; ok && got < lower;) {
        if (!wait_fd(lfd, POLLIN, ACCEPT_MS)) {
            ok = 0;
            break;
        }
        int fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
        if (fd < 0)
            continue;
        lifeline_hello h;
        if (recv_hello(fd, &h, CONNECT_MS) == 0 && h.magic == MAGIC && h.cookie == cookie &&
            h.rank < (uint32_t)self && want[h.rank] && l->fd[h.rank] < 0) {
            lifeline_hello me = { MAGIC, cookie, (uint32_t)self };
            if (send_all(fd, &me, sizeof me) == 0) {
                l->fd[h.rank] = fd;
                got++;
                continue;
            }
        }
        close(fd);
    }
    if (lfd >= 0)
        close(lfd);
    free(cards);
    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, comm);
    if (!all_ok) {
        dsm_lifeline_close(l);
        return NULL;
    }
    int one = 1;
    for (int r = 0; r < n; r++)
        if (l->fd[r] >= 0) {
            fcntl(l->fd[r], F_SETFL, fcntl(l->fd[r], F_GETFL) | O_NONBLOCK);
            setsockopt(l->fd[r], IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        }
    return l;
}

int dsm_lifeline_check(dsm_lifeline *l, int *timed_out)
{
    int k = 0;
    for (int r = 0; r < l->n; r++)
        if (l->fd[r] >= 0) {
            l->pfd[k] = (struct pollfd){ l->fd[r], POLLIN, 0 };
            l->pfd_rank[k++] = r;
        }
    if (k == 0 || poll(l->pfd, (nfds_t)k, 0) <= 0)
        return -1;
    for (int i = 0; i < k; i++) {
        if (!l->pfd[i].revents)
            continue;
        int r = l->pfd_rank[i];
        char buf[256];
        ssize_t got = recv(l->fd[r], buf, sizeof buf, MSG_DONTWAIT);
        if (got > 0) {
            if (memchr(buf, GOODBYE, (size_t)got))
                l->left[r] = 1;
            continue;
        }
        if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
            continue;
        /* the end (or a reset): a death unless it said goodbye; a
         * doorbell unacknowledged until TCP gave up: a host unreachable */
        int err = got < 0 ? errno : 0;
        close(l->fd[r]);
        l->fd[r] = -1;
        if (!l->left[r]) {
            *timed_out = err == ETIMEDOUT || err == EHOSTUNREACH || err == ENETUNREACH;
            return r;
        }
    }
    return -1;
}

void dsm_lifeline_goodbye(dsm_lifeline *l)
{
    char b = GOODBYE; /* async-signal-safe: send only */
    for (int r = 0; r < l->n; r++)
        if (l->fd[r] >= 0)
            (void)send(l->fd[r], &b, 1, MSG_NOSIGNAL | MSG_DONTWAIT);
}

void dsm_lifeline_ring(dsm_lifeline *l, int to)
{
    char b = DOORBELL;
    int fd = l->fd[to];
    if (fd >= 0) /* a full buffer: the peer has doorbells to read already */
        (void)send(fd, &b, 1, MSG_NOSIGNAL | MSG_DONTWAIT);
}

int dsm_lifeline_wait(dsm_lifeline *l, long timeout_ns, int also_fd)
{
    /* any number of threads at once: each with its own set */
    struct pollfd pfd[l->n + 1];
    int k = 0;
    for (int r = 0; r < l->n; r++) {
        int fd = l->fd[r];
        if (fd >= 0)
            pfd[k++] = (struct pollfd){ fd, POLLIN, 0 };
    }
    if (also_fd >= 0)
        pfd[k++] = (struct pollfd){ also_fd, POLLIN, 0 };
    struct timespec ts = { timeout_ns / 1000000000L, timeout_ns % 1000000000L };
    int r = ppoll(pfd, (nfds_t)k, &ts, NULL);
    uint64_t v; /* also_fd is an eventfd: read, or it stays readable */
    if (r > 0 && also_fd >= 0 && (pfd[k - 1].revents & POLLIN) && read(also_fd, &v, sizeof v) < 0)
        v = 0; /* another waiter read it */
    return r > 0 ? 2 : 1;
}

void dsm_lifeline_close(dsm_lifeline *l)
{
    if (!l)
        return;
    for (int r = 0; l->fd && r < l->n; r++)
        if (l->fd[r] >= 0)
            close(l->fd[r]);
    free(l->fd);
    free(l->left);
    free(l->pfd);
    free(l->pfd_rank);
    free(l);
}
