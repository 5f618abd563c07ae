/* mpi.c - the mpi transport: nodes are the ranks of an OpenMPI job
 * (`mpirun -np N prog`), messages are MPI point-to-point messages on a
 * private duplicate of MPI_COMM_WORLD.
 *
 * Design (transport.h guarantees, and latency):
 *  - Receives are preposted: a ring of RING MPI_Irecv of the largest message
 *    (header + block).  MPI matches messages to posted receives in posting
 *    order and keeps order per (sender, communicator, tag), so testing only
 *    the oldest posted receive and reposting at the tail delivers every
 *    sender's messages in the order sent.  (MPI_Testsome over the whole
 *    ring would return completions by index, not by arrival.)
 *  - send copies the message into a pooled buffer and starts MPI_Isend; it
 *    never waits for the receiver.  Pending sends are completed by later
 *    sends, polls and waits (MPI_Testsome).
 *  - All MPI calls are serialised by one mutex, held only around the MPI
 *    call itself (never around a handler, which sends).  MPI is initialised
 *    with MPI_THREAD_MULTIPLE when available, so that MPI_Abort from any
 *    thread (dsm_fatal, the atexit check) is legal too.
 *  - One thread consumes at a time (like shm): a poll that finds another
 *    thread consuming returns 0, so each message goes to one caller, in
 *    order.
 *  - wait never calls a blocking MPI function: OpenMPI's blocking calls spin
 *    at 100% of a core.  When every peer is on this host, it sleeps on the
 *    rank's bell (mpi_bell.h), which the peers ring after a message: woken
 *    when a message is there, not by a timer.  Otherwise it tests the
 *    oldest receive and sleeps in between,
 *    with an exponential back-off from 10 us to 50 us while the node is
 *    active (a message in the last 20 ms: a peer's request must not wait
 *    long), to 1 ms when idle (about 1000 wake-ups a second: 0.4% of a core
 *    measured), and 20 us while a send is pending (MPI rendezvous needs the
 *    sender's progress calls).  A message another thread is consuming does
 *    not end the wait, or the caller would spin against that thread.
 *  - dsm_wtime: rank 0's clock base, translated into each host's monotonic
 *    clock by a ping-pong offset estimate at open (the fastest of 16 round
 *    trips, one host at a time, shared by the ranks of a host), so the base
 *    is the same across hosts.
 *  - Liveness across hosts (check_alive, from a thread of its own while in
 *    the job): a heartbeat to every peer on
 *    another host each 0.25 s; such a peer silent for 2 s while in the job
 *    ends it with one line naming it.  A host cut off from the network
 *    breaks no connection: without this the job would wait for TCP to give
 *    up (minutes).  A dead process on another host ends its lifelines
 *    (mpi_lifeline.h): named at once.
 *  - Doorbells (mpi_lifeline.h): after a message to a rank on another host
 *    one byte on its lifeline; a waiting rank sleeps in ppoll on its
 *    lifelines, so such a message ends the sleep when it arrives.
 *  - Ending the job must not depend on mpirun being quick.  MPI_Abort asks
 *    mpirun (PMIx_Abort waits for its answer) to kill every rank; on a
 *    crowded machine mpirun may answer late, or not before it is scheduled
 *    again, and meanwhile the aborting rank and its peers sit there.  So
 *    the abort is bounded: ABORT_GRACE_S after MPI_Abort began the rank
 *    leaves by itself (_exit), and the ranks on the same host watch each
 *    other (their pids are exchanged at open): a rank that sees a peer gone
 *    without dsm_finalize leaves PEER_GRACE_NS later if mpirun has not ended
 *    it by then, with one line.  mpirun still reports and cleans up; it no
 *    longer holds the job's end. */
#define _GNU_SOURCE 1
#include "mpi_transport.h"

#include <mpi.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include "error.h"
#include "futex.h"
#include "msg.h"
#include "mpi_bell.h"
#include "mpi_lifeline.h"
#include "mpi_shm.h"
#include "settings.h"
#include "shm_layout.h"

#define RING 64         /* preposted receives */
#define TAG 0x4453      /* every transport message; FIFO holds per tag */
#define TAG_CLOCK 0x4454
#define TAG_ALIVE 0x4455 /* heartbeats: a word, 1 when the sender leaves the job */
#define POOL_MAX 256    /* free send buffers kept for reuse */
#define SEND_PAUSE 20000 /* ns between tests while a send is pending */
#define ACTIVE_NS 20000000ULL /* a node that saw a message this recently is active */
/* A doorbell goes to a peer on another host only when we sent it nothing
 * for this long: one we sent to more recently saw a message since ACTIVE_NS
 * (ours), so its naps are short (mpi_wait) and it finds ours within one;
 * the doorbell's own TCP send (about 10 us a message on the test bed) is
 * then spared (doc/cluster.md, "Doorbells only to idle ranks"). */
#define RING_AFTER_NS (ACTIVE_NS / 2)
#define ABORT_GRACE_S 2 /* MPI_Abort may take this long before the rank leaves by itself */
#define PEER_GRACE_NS 1000000000ULL /* a dead local peer: mpirun's time to end us first */
#define WATCH_NS 100000000ULL /* how often an idle rank looks at its local peers */
/* A peer on another host silent for LOST_NS is lost.  It must name the node
 * before TCP gives up on a connection to the cut-off host: MPI's own (about
 * 3 s after its first unanswered segment at tcp_retries2=2, as on the test
 * bed; the rank then dies with OpenMPI's message, naming no node) and
 * mpirun's to its daemon (keepalive: 3 s idle, then 3 probes 1 s apart);
 * and the job's end, LOST_NS + a beat + mpirun's wait for its daemon (about
 * 3 s), must stay well under the 10 s of doc/cluster.md.  It must exceed
 * the silence of a live peer: 8 beats, so a crowded machine's late
 * scheduling or a slow link's queue (tests/tcp_faults.sh) is not a loss. */
#define BEAT_NS 250000000ULL /* a heartbeat to every peer on another host this often */
#define LOST_NS 2000000000ULL
#define LIFELINE_NS 200000ULL /* how often a polling thread looks at the lifelines */
#define MPI_HDR_SLACK 64 /* room for MPI's own header in its eager limit */

/* A rank on this host: its pid tells whether it is still there. */
typedef struct local_peer {
    int rank;
    pid_t pid;
} local_peer;

typedef struct mpi_impl {
    MPI_Comm comm;
    int we_init;                /* we called MPI_Init_thread, so we finalize */
    size_t msg_max;             /* header + max payload */
    pthread_mutex_t lock;       /* serialises every MPI call below */
    /* receive ring */
    MPI_Request rreq[RING];
    unsigned char *rbuf[RING];
    int rhead;
    int head_done;              /* rreq[rhead] completed in wait, not yet delivered */
    MPI_Status head_st;
    /* pending sends */
    MPI_Request *sreq;
    unsigned char **sbuf;
    int *sidx;                  /* scratch for MPI_Testsome */
    int nsend, capsend;
    unsigned char *pool[POOL_MAX];
    int npool;
    _Atomic int consumer;
    /* threads polling in a loop (polling; counted with peers on other
     * hosts): while one does, the others' waits keep out of MPI */
    _Atomic int pollers;
    /* mpi_wake counts here; each thread's wait ends when the count moved
     * since that thread's wait last returned (wait_epoch_seen): every
     * waiting thread sees a wake, not only the first to look */
    _Atomic uint32_t wake_epoch;
    int wake_fd;                /* an eventfd in the doorbell ppoll, written by mpi_wake */
    _Atomic uint64_t last_activity; /* dsm_now_ns() of the last message in or out */
    int state;                  /* DSM_NODE_STARTED / JOINED / FINALIZED */
    uint64_t clock_base;
    /* the other ranks on this host, watched while we wait (watch_peers) */
    local_peer *locals;
    int nlocals;
    _Atomic uint64_t next_watch;
    uint64_t peer_gone_at;      /* when a dead peer was first seen (0: none) */
    /* liveness across hosts (check_alive) */
    MPI_Request alive_req;      /* the preposted receive of TAG_ALIVE */
    uint64_t alive_buf;
    _Atomic uint64_t *heard;    /* per rank: dsm_now_ns() of its last message */
    _Atomic uint64_t *sent_at;  /* per rank: dsm_now_ns() of our last message to it, 0: none */
    unsigned char *left;        /* per rank: it said it leaves the job */
    unsigned char *remote;      /* per rank: on another host (only those are watched) */
    int nremote;
    uint64_t joined_at;
    _Atomic uint64_t next_beat;
    pthread_t beat_thread;      /* beat_main, while in the job */
    int beating;
    pthread_mutex_t beat_lock;
    pthread_cond_t beat_cond;
    int beat_stop;
    dsm_lifeline *lifeline;     /* to the ranks on other hosts (mpi_lifeline.h) */
    _Atomic int lifeline_busy;
    _Atomic uint64_t next_lifeline;
    int doorbells;              /* ring and sleep on the lifelines (off: measuring) */
    dsm_bell *bell;             /* to the ranks on this host (mpi_bell.h), or NULL */
    /* the shm transport's queues to the ranks on this host (mpi_shm.h), or
     * NULL (DSM_MPI_SHM=off, or no rank shares our host): when there, the
     * messages to those ranks go through it, and the bell is not used */
    dsm_transport *shm;
} mpi_impl;

static dsm_transport *the_mpi; /* for the atexit check and dsm_fatal */
static __thread uint32_t wait_epoch_seen;

static void mpi_fail(const char *what, int rc)
{
    char err[MPI_MAX_ERROR_STRING];
    int len = 0;
    if (MPI_Error_string(rc, err, &len) != MPI_SUCCESS)
        snprintf(err, sizeof err, "error %d", rc);
    dsm_fatal("transport", "%s failed: %s", what, err);
}

static unsigned char *buf_get(mpi_impl *im)
{
    if (im->npool)
        return im->pool[--im->npool];
    unsigned char *b = malloc(im->msg_max);
    if (!b)
        dsm_fatal("transport", "out of memory for a message buffer");
    return b;
}

static void buf_put(mpi_impl *im, unsigned char *b)
{
    if (im->npool < POOL_MAX)
        im->pool[im->npool++] = b;
    else
        free(b);
}

/* Complete finished sends (lock held). */
static void reap_sends(mpi_impl *im)
{
    if (!im->nsend)
        return;
    int out = 0;
    int rc = MPI_Testsome(im->nsend, im->sreq, &out, im->sidx, MPI_STATUSES_IGNORE);
    if (rc != MPI_SUCCESS)
        mpi_fail("MPI_Testsome", rc);
    if (out == MPI_UNDEFINED || out == 0)
        return;
    for (int i = 0; i < out; i++) {
        buf_put(im, im->sbuf[im->sidx[i]]);
        im->sbuf[im->sidx[i]] = NULL;
    }
    int k = 0;
    for (int i = 0; i < im->nsend; i++)
        if (im->sbuf[i]) {
            im->sreq[k] = im->sreq[i];
            im->sbuf[k++] = im->sbuf[i];
        }
    im->nsend = k;
}

/* Room for one more pending send (lock held). */
static void send_room(mpi_impl *im)
{
    if (im->nsend == im->capsend) {
        int cap = im->capsend ? 2 * im->capsend : 64;
        MPI_Request *r = realloc(im->sreq, (size_t)cap * sizeof *r);
        if (r)
            im->sreq = r;
        unsigned char **b = realloc(im->sbuf, (size_t)cap * sizeof *b);
        if (b)
            im->sbuf = b;
        int *x = realloc(im->sidx, (size_t)cap * sizeof *x);
        if (x)
            im->sidx = x;
        if (!r || !b || !x)
            dsm_fatal("transport", "out of memory for %d pending sends", cap);
        im->capsend = cap;
    }
}

static int mpi_send(dsm_transport *t, int dst, const dsm_msg_hdr *h, const void *payload)
{
    mpi_impl *im = t->impl;
    if (dst < 0 || dst >= t->nnodes || dst == t->node || h->len > t->max_payload) {
        fprintf(stderr, "dsm: node %d: transport: bad send to node %d (%u payload bytes)\n",
                t->node, dst, h->len);
        return -1;
    }
    if (im->shm && !im->remote[dst])
        return im->shm->send(im->shm, dst, h, payload);
    pthread_mutex_lock(&im->lock);
    send_room(im);
    unsigned char *b = buf_get(im);
    memcpy(b, h, sizeof *h);
    if (h->len)
        memcpy(b + sizeof *h, payload, h->len);
    int rc = MPI_Isend(b, (int)(sizeof *h + h->len), MPI_BYTE, dst, TAG, im->comm,
                       &im->sreq[im->nsend]);
    if (rc != MPI_SUCCESS)
        mpi_fail("MPI_Isend", rc);
    im->sbuf[im->nsend++] = b;
    if (im->nsend >= 32)
        reap_sends(im);
    pthread_mutex_unlock(&im->lock);
    if (im->bell && !im->remote[dst])
        dsm_bell_ring(im->bell, dst);
    else if (im->lifeline && im->doorbells) {
        uint64_t now = dsm_now_ns(), last = atomic_exchange(&im->sent_at[dst], now);
        if (!last || now - last >= RING_AFTER_NS)
            dsm_lifeline_ring(im->lifeline, dst);
    }
    return 0;
}

/* Is the oldest receive complete?  (lock held) */
static int head_ready(mpi_impl *im)
{
    if (im->head_done)
        return 1;
    int flag = 0;
    int rc = MPI_Test(&im->rreq[im->rhead], &flag, &im->head_st);
    if (rc != MPI_SUCCESS)
        mpi_fail("MPI_Test", rc);
    im->head_done = flag;
    return flag;
}

/* A heartbeat (0) or the word that we leave (1) to every peer (lock
 * held); completed with the other sends. */
static void send_alive(dsm_transport *t, uint64_t word)
{
    mpi_impl *im = t->impl;
    for (int r = 0; r < t->nnodes; r++) {
        if (!im->remote[r] || im->left[r])
            continue;
        send_room(im);
        unsigned char *b = buf_get(im);
        memcpy(b, &word, sizeof word);
        int rc = MPI_Isend(b, 1, MPI_UINT64_T, r, TAG_ALIVE, im->comm, &im->sreq[im->nsend]);
        if (rc != MPI_SUCCESS)
            mpi_fail("MPI_Isend", rc);
        im->sbuf[im->nsend++] = b;
    }
}

/* Liveness across hosts.  A host that is cut off (its link down) or gone
 * (powered off) breaks no connection on our side: TCP retries for minutes
 * and MPI waits with it.  So every rank sends a heartbeat to every peer on
 * another host each BEAT_NS (from whichever thread polls or waits: the
 * progress thread's waits sleep at most 1 ms at a time), and such a peer
 * of which nothing came for LOST_NS while we are in the job ends it, with one line naming it.  A peer that
 * leaves (dsm_finalize) says so first and is no longer watched.  Any
 * thread may call it; one every BEAT_NS does the work. */
static void check_alive(dsm_transport *t)
{
    mpi_impl *im = t->impl;
    if (!im->heard || !im->nremote)
        return;
    uint64_t now = dsm_now_ns(), next = atomic_load(&im->next_beat);
    if (now < next || !atomic_compare_exchange_strong(&im->next_beat, &next, now + BEAT_NS))
        return;
    pthread_mutex_lock(&im->lock);
    for (;;) {
        int done = 0;
        MPI_Status st;
        int rc = MPI_Test(&im->alive_req, &done, &st);
        if (rc != MPI_SUCCESS)
            mpi_fail("MPI_Test", rc);
        if (!done)
            break;
        if (st.MPI_SOURCE >= 0 && st.MPI_SOURCE < t->nnodes) {
            atomic_store(&im->heard[st.MPI_SOURCE], now);
            if (im->alive_buf == 1)
                im->left[st.MPI_SOURCE] = 1;
        }
        rc = MPI_Irecv(&im->alive_buf, 1, MPI_UINT64_T, MPI_ANY_SOURCE, TAG_ALIVE, im->comm,
                       &im->alive_req);
        if (rc != MPI_SUCCESS)
            mpi_fail("MPI_Irecv", rc);
    }
    if (im->state != DSM_NODE_FINALIZED)
        send_alive(t, 0);
    pthread_mutex_unlock(&im->lock);
    if (im->state != DSM_NODE_JOINED)
        return;
    for (int r = 0; r < t->nnodes; r++) {
        if (!im->remote[r] || im->left[r])
            continue;
        uint64_t last = atomic_load(&im->heard[r]);
        if (last < im->joined_at)
            last = im->joined_at;
        if (now > last + LOST_NS) {
            /* once: while the first thread's MPI_Abort waits for mpirun
             * (seconds, to a cut-off host), the next beat must not say it
             * again (tests/tcp_faults.sh saw three lines) */
            static _Atomic int said;
            if (atomic_exchange(&said, 1))
                return;
            dsm_fatal("transport", "lost node %d: nothing came from it for %.1f s (its host is "
                      "down, or the network to it is cut)", r, (double)(now - last) / 1e9);
        }
    }
}

/* The heartbeats have a thread of their own while the rank is in the job:
 * the runtime's threads may be busy or blocked for seconds (node 0 gathering
 * and writing the profile at dsm_finalize while a handler waits for its
 * lock), and a peer must not take that for a lost host.  Async signals are
 * blocked: the program's handlers never run here. */
static void *beat_main(void *arg)
{
    dsm_transport *t = arg;
    mpi_impl *im = t->impl;
    pthread_mutex_lock(&im->beat_lock);
    while (!im->beat_stop) {
        pthread_mutex_unlock(&im->beat_lock);
        check_alive(t);
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        ts.tv_nsec += (long)(BEAT_NS / 2);
        if (ts.tv_nsec >= 1000000000L) {
            ts.tv_sec++;
            ts.tv_nsec -= 1000000000L;
        }
        pthread_mutex_lock(&im->beat_lock);
        if (!im->beat_stop)
            pthread_cond_timedwait(&im->beat_cond, &im->beat_lock, &ts);
    }
    pthread_mutex_unlock(&im->beat_lock);
    return NULL;
}

static void beat_start(dsm_transport *t)
{
    mpi_impl *im = t->impl;
    if (!im->heard || !im->nremote || im->beating)
        return;
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    im->beat_stop = 0;
    /* without it, the waiting and polling threads still beat */
    im->beating = pthread_create(&im->beat_thread, NULL, beat_main, t) == 0;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
}

static void beat_end(mpi_impl *im)
{
    if (!im->beating)
        return;
    pthread_mutex_lock(&im->beat_lock);
    im->beat_stop = 1;
    pthread_cond_signal(&im->beat_cond);
    pthread_mutex_unlock(&im->beat_lock);
    pthread_join(im->beat_thread, NULL);
    im->beating = 0;
}

/* A rank on another host whose process died (its lifeline ended without
 * goodbye) ends the job at once, with one line; the ranks of this host are
 * watched by their pids (watch_peers), which leaves mpirun time to name
 * them itself. */
static void check_lifelines(dsm_transport *t)
{
    mpi_impl *im = t->impl;
    int expect = 0;
    if (!im->lifeline)
        return;
    /* a thread that spins polls often: one look (a poll system call) every
     * LIFELINE_NS is enough; the waiting thread looks after each sleep */
    uint64_t now = dsm_now_ns();
    if (now < atomic_load(&im->next_lifeline) ||
        !atomic_compare_exchange_strong(&im->lifeline_busy, &expect, 1))
        return;
    atomic_store(&im->next_lifeline, now + LIFELINE_NS);
    int timed_out = 0, r = dsm_lifeline_check(im->lifeline, &timed_out);
    if (r >= 0 && im->state == DSM_NODE_JOINED)
        dsm_fatal("transport", "lost node %d: %s", r,
                  timed_out ? "the connection to it timed out (its host is down, or the network "
                              "to it is cut)"
                            : "its process ended (killed, or crashed with its host)");
    atomic_store(&im->lifeline_busy, 0);
}

static int mpi_poll(dsm_transport *t, dsm_msg_handler handler, void *ctx, int max)
{
    mpi_impl *im = t->impl;
    int expect = 0;
    if (!atomic_compare_exchange_strong(&im->consumer, &expect, 1))
        return 0;
    int n = 0;
    /* one consumer for both: the handlers of a node never run twice at once */
    if (im->shm) {
        n = im->shm->poll(im->shm, handler, ctx, max);
        if (n && im->nremote) /* the naps of mpi_wait stay short while active */
            atomic_store(&im->last_activity, dsm_now_ns());
        if (!im->nremote) {
            atomic_store(&im->consumer, 0);
            return n;
        }
    }
    check_alive(t);
    check_lifelines(t);
    while (n < max) {
        pthread_mutex_lock(&im->lock);
        reap_sends(im);
        if (!head_ready(im)) {
            pthread_mutex_unlock(&im->lock);
            break;
        }
        int count = 0;
        MPI_Get_count(&im->head_st, MPI_BYTE, &count);
        int from = im->head_st.MPI_SOURCE;
        unsigned char *b = im->rbuf[im->rhead];
        /* repost the slot with a fresh buffer at the tail of the ring */
        im->rbuf[im->rhead] = buf_get(im);
        int rc = MPI_Irecv(im->rbuf[im->rhead], (int)im->msg_max, MPI_BYTE, MPI_ANY_SOURCE, TAG,
                           im->comm, &im->rreq[im->rhead]);
        if (rc != MPI_SUCCESS)
            mpi_fail("MPI_Irecv", rc);
        im->rhead = (im->rhead + 1) % RING;
        im->head_done = 0;
        pthread_mutex_unlock(&im->lock);
        /* Framing (dsm_msg_decode): the header must be whole, its length
         * must be what came, and it must claim the rank that sent it.  The
         * rest is checked by dsm_msg_validate in the node's handler. */
        dsm_msg_hdr h;
        const void *payload;
        char why[128];
        if (dsm_msg_decode(b, count < 0 ? 0 : (size_t)count, &h, &payload, why, sizeof why))
            dsm_fatal("transport", "malformed message from node %d: %s", from, why);
        if (h.src != from)
            dsm_fatal("transport", "malformed message from node %d: it claims to be from node %d",
                      from, h.src);
        uint64_t now = dsm_now_ns();
        atomic_store(&im->last_activity, now);
        if (im->heard)
            atomic_store(&im->heard[from], now);
        handler(ctx, &h, payload);
        pthread_mutex_lock(&im->lock);
        buf_put(im, b);
        pthread_mutex_unlock(&im->lock);
        n++;
    }
    atomic_store(&im->consumer, 0);
    return n;
}

static void sleep_ns(long ns)
{
    struct timespec ts = { 0, ns };
    nanosleep(&ts, NULL);
}

/* Has the process pid ended?  A rank that ended stays a zombie until
 * mpirun reaps it, which on a crowded machine may take long: so the state
 * in /proc, not kill(pid, 0). */
static int process_ended(pid_t pid)
{
    char path[64], buf[256];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 1;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0)
        return 1;
    buf[n] = 0;
    const char *p = strrchr(buf, ')'); /* the command name may hold anything */
    return p && p[1] == ' ' && (p[2] == 'Z' || p[2] == 'X');
}

/* While this rank is in the job, a local peer that ended without
 * dsm_finalize (its own line, or mpirun's report, says why) means the job
 * is over: mpirun ends it normally within milliseconds; if it has not after
 * PEER_GRACE_NS, leave on our own (head of the file).  Any waiting thread
 * may call it; every WATCH_NS one does the looking. */
void dsm_transport_mpi_watch_peers(dsm_transport *t)
{
    mpi_impl *im = t->impl;
    if (!im->nlocals || im->state != DSM_NODE_JOINED)
        return;
    uint64_t now = dsm_now_ns(), next = atomic_load(&im->next_watch);
    if (now < next || !atomic_compare_exchange_strong(&im->next_watch, &next, now + WATCH_NS))
        return;
    for (int i = 0; i < im->nlocals; i++) {
        if (!process_ended(im->locals[i].pid))
            continue;
        if (!im->peer_gone_at) {
            im->peer_gone_at = now;
            return;
        }
        if (now - im->peer_gone_at < PEER_GRACE_NS)
            return;
        fflush(stdout);
        fprintf(stderr, "dsm: node %d: node %d (pid %d, on this host) ended without dsm_finalize "
                        "and mpirun has not ended the job %.1f s later: leaving\n",
                t->node, im->locals[i].rank, (int)im->locals[i].pid,
                (double)(now - im->peer_gone_at) / 1e9);
        fflush(stderr);
        _exit(1);
    }
}

/* Every peer on this host, the queues shared (mpi_shm.h): the shm
 * transport's wait, ended by a message or by mpi_wake, and the local peers
 * watched at least every WATCH_NS. */
static void wait_shm(dsm_transport *t, int timeout_ms)
{
    mpi_impl *im = t->impl;
    uint32_t epoch = atomic_load(&im->wake_epoch);
    if (epoch != wait_epoch_seen) {
        wait_epoch_seen = epoch;
        return;
    }
    dsm_transport_mpi_watch_peers(t);
    int cap = (int)(WATCH_NS / 1000000ULL);
    dsm_transport_shm_wait_word(im->shm, timeout_ms < 0 || timeout_ms > cap ? cap : timeout_ms,
                                &im->wake_epoch, epoch);
}

static void mpi_wait(dsm_transport *t, int timeout_ms)
{
    mpi_impl *im = t->impl;
    if (im->shm && !im->nremote) {
        wait_shm(t, timeout_ms);
        return;
    }
    /* nanosleep(10 us) would last 60 us with the default 50 us timer slack */
    static __thread int slack_set;
    if (!slack_set) {
        prctl(PR_SET_TIMERSLACK, 1000UL, 0, 0, 0);
        slack_set = 1;
    }
    uint64_t end = dsm_now_ns() + (uint64_t)timeout_ms * 1000000ULL;
    long pause = 10000;
    const long pause_max = 1000000, pause_active = 50000; /* ns: idle, active node */
    int short_naps = 0; /* rounds of short sleeps left after a doorbell */
    /* every peer on this host: sleep on the bell, woken by the messages */
    int bell = im->bell && !im->nremote;
    for (;;) {
        /* armed before the look for messages (and for mpi_wake's flag),
         * so that a message sent after the look ends the sleep */
        uint32_t seen = bell ? dsm_bell_arm(im->bell) : 0;
        uint32_t epoch = atomic_load(&im->wake_epoch);
        if (epoch != wait_epoch_seen) {
            wait_epoch_seen = epoch;
            if (bell)
                dsm_bell_disarm(im->bell);
            return;
        }
        dsm_transport_mpi_watch_peers(t);
        /* Another thread polls MPI in a loop: it takes what comes (and
         * wakes the waits it ends); a second caller in MPI's TCP progress
         * would only slow its sends.  Nap as an active node does until it
         * stops (a poller's spin lasts at most a few hundred us). */
        if (im->nremote && atomic_load(&im->pollers)) {
            uint64_t now = dsm_now_ns();
            if (now >= end)
                return;
            sleep_ns(pause_active);
            continue;
        }
        check_alive(t);
        check_lifelines(t);
        pthread_mutex_lock(&im->lock);
        reap_sends(im);
        /* a message another thread is consuming is not ours to wait for:
         * returning would make the caller spin against that thread */
        int ready = (head_ready(im) && !atomic_load(&im->consumer)) ||
                    (im->shm && dsm_transport_shm_ready(im->shm));
        int sending = im->nsend > 0;
        pthread_mutex_unlock(&im->lock);
        uint64_t now = dsm_now_ns();
        if (ready || now >= end) {
            if (bell)
                dsm_bell_disarm(im->bell);
            return;
        }
        if (bell) {
            /* a pending send may need our progress calls (see below);
             * otherwise wake for the local peers' watch at the latest */
            uint64_t nap = sending ? SEND_PAUSE : WATCH_NS;
            dsm_bell_sleep(im->bell, seen, (long)(end - now < nap ? end - now : nap));
            continue;
        }
        /* A send bigger than MPI's eager limit (rendezvous) only moves on
         * when the sender calls into MPI after the receiver matched it:
         * while one is pending, keep calling often. */
        if (sending && pause > SEND_PAUSE)
            pause = SEND_PAUSE;
        /* Ranks of other hosts ring (mpi_lifeline.h): their messages end
         * the sleep, which may then be long when no rank of this host
         * (whose messages do not ring), no pending send, and no peer that
         * sends without ringing (an active node: RING_AFTER_NS) needs us to
         * look.  Short sleeps still for a few rounds after a doorbell: its
         * message, on another connection, may come just after it. */
        int rung = 0;
        if (im->lifeline && im->doorbells) {
            int active = now - atomic_load(&im->last_activity) < ACTIVE_NS;
            long nap = im->nlocals || sending || active || short_naps > 0 ? pause : pause_max;
            rung = dsm_lifeline_wait(im->lifeline, nap, im->wake_fd);
            if (rung == 2) {
                atomic_store(&im->next_lifeline, 0); /* read the doorbells now */
                short_naps = 4;
                pause = 10000;
                continue;
            }
            short_naps--;
        }
        if (!rung)
            sleep_ns(pause);
        /* Back off to 1 ms only when the node has been quiet for a while:
         * during a computation phase a request from a peer (an INV for a
         * block the application spins on, a lock grant) must not wait for
         * a long sleep, but an idle node must not burn its core either. */
        long cap = dsm_now_ns() - atomic_load(&im->last_activity) < ACTIVE_NS ? pause_active
                                                                              : pause_max;
        if (pause < cap)
            pause *= 2;
        if (pause > cap)
            pause = cap;
    }
}

static void mpi_wake(dsm_transport *t)
{
    mpi_impl *im = t->impl;
    atomic_fetch_add(&im->wake_epoch, 1);
    if (im->shm)
        im->shm->wake(im->shm); /* after the epoch: see wait_shm */
    if (im->bell)
        dsm_bell_wake_self(im->bell);
    if (im->wake_fd >= 0) {
        uint64_t one = 1;
        ssize_t w = write(im->wake_fd, &one, sizeof one);
        (void)w;
    }
}

/* A thread polls in a loop (on) or stops (transport.h): meanwhile the
 * peers on this host need not wake our sleepers; the last to stop wakes
 * them if a message waits (mpi_bell.h). */
static void mpi_polling(dsm_transport *t, int on)
{
    mpi_impl *im = t->impl;
    if (im->nremote)
        atomic_fetch_add(&im->pollers, on ? 1 : -1);
    if (im->shm)
        im->shm->polling(im->shm, on);
    if (!im->bell || !dsm_bell_polling(im->bell, on))
        return;
    pthread_mutex_lock(&im->lock);
    int ready = head_ready(im);
    pthread_mutex_unlock(&im->lock);
    if (ready)
        dsm_bell_wake_self(im->bell);
}

static void discard(void *ctx, const dsm_msg_hdr *h, const void *payload)
{
    (void)ctx, (void)h, (void)payload;
}

static void mpi_close(dsm_transport *t)
{
    mpi_impl *im = t->impl;
    beat_end(im); /* closed without dsm_finalize's mark */
    if (im->shm) {
        /* delivers what its overflow lists hold; what comes to us later
         * lands in the segment, which the peers' mappings keep */
        dsm_transport *shm = im->shm;
        im->shm = NULL;
        shm->close(shm);
    }
    /* Let our last sends (the finalize collective's) complete: the peers
     * are still receiving until they leave their own close.  Bounded, in
     * case a peer is gone. */
    uint64_t end = dsm_now_ns() + 10ULL * 1000000000ULL;
    while (dsm_now_ns() < end) {
        pthread_mutex_lock(&im->lock);
        reap_sends(im);
        int left = im->nsend;
        pthread_mutex_unlock(&im->lock);
        if (!left)
            break;
        mpi_poll(t, discard, NULL, 64);
        sleep_ns(20000);
    }
    pthread_mutex_lock(&im->lock);
    for (int i = 0; i < RING; i++) {
        if (!(i == im->rhead && im->head_done)) {
            MPI_Cancel(&im->rreq[i]);
            MPI_Wait(&im->rreq[i], MPI_STATUS_IGNORE);
        }
        free(im->rbuf[i]);
    }
    if (im->heard) {
        MPI_Cancel(&im->alive_req);
        MPI_Wait(&im->alive_req, MPI_STATUS_IGNORE);
    }
    for (int i = 0; i < im->nsend; i++)
        MPI_Request_free(&im->sreq[i]); /* only after the timeout: a peer is gone */
    for (int i = 0; i < im->npool; i++)
        free(im->pool[i]);
    im->npool = 0;
    pthread_mutex_unlock(&im->lock);
    /* Everyone has left the runtime: a barrier (short, so its spinning does
     * not matter) keeps a fast rank from finalizing while a slow one still
     * completes its sends to it. */
    MPI_Barrier(im->comm);
    MPI_Comm_free(&im->comm);
    im->state = DSM_NODE_FINALIZED;
    if (im->we_init)
        MPI_Finalize();
    free(im->sreq);
    free(im->sbuf);
    free(im->sidx);
    free(im->locals);
    free((void *)im->heard);
    free((void *)im->sent_at);
    free(im->left);
    free(im->remote);
    dsm_lifeline_close(im->lifeline);
    dsm_bell_close(im->bell);
    if (im->wake_fd >= 0)
        close(im->wake_fd);
    the_mpi = NULL;
    free(im);
    free(t);
}

static volatile sig_atomic_t abort_code = 1;

static void abort_timed_out(int sig)
{
    (void)sig;
    _exit(abort_code);
}

/* May run in a signal handler (dsm_fatal from the fault handler): alarm and
 * sigaction are async-signal-safe, a thread would not be. */
void dsm_transport_mpi_abort(int code)
{
    abort_code = code ? code : 1;
    /* our own line says why: the peers must not add "lost node" */
    if (the_mpi && ((mpi_impl *)the_mpi->impl)->lifeline)
        dsm_lifeline_goodbye(((mpi_impl *)the_mpi->impl)->lifeline);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = abort_timed_out;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGALRM, &sa, NULL);
    alarm(ABORT_GRACE_S);
    int init = 0, fin = 0;
    MPI_Initialized(&init);
    MPI_Finalized(&fin);
    if (init && !fin)
        MPI_Abort(MPI_COMM_WORLD, code);
    _exit(code);
}

/* A crash (abort, bus error, ...) of a node: one line naming the node, then
 * the default action, which mpirun notices and ends the job with.  SIGSEGV
 * belongs to the fault handler (fault.c); a fault outside the region dies
 * by the default action and mpirun names the rank. */
static void on_crash(int sig)
{
    char buf[128];
    const char *name = sig == SIGABRT ? "SIGABRT" : sig == SIGBUS ? "SIGBUS"
                     : sig == SIGFPE ? "SIGFPE" : sig == SIGILL ? "SIGILL" : "?";
    int n = snprintf(buf, sizeof buf, "dsm: node %d killed by signal %d (%s)\n",
                     the_mpi ? the_mpi->node : -1, sig, name);
    if (n > 0) {
        ssize_t w = write(STDERR_FILENO, buf, (size_t)n);
        (void)w;
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

/* SIGTERM: mpirun ends the job.  When a whole host was killed (its daemon
 * with its ranks), mpirun sees its daemon go and ends the job before our
 * lifelines are looked at, naming only the host: name the node in that
 * case, then die of the signal as before.  Installed only where the
 * program left SIGTERM alone. */
static void on_term(int sig)
{
    dsm_transport *t = the_mpi;
    mpi_impl *im = t ? t->impl : NULL;
    int expect = 0;
    if (im && im->lifeline && im->state == DSM_NODE_JOINED &&
        atomic_compare_exchange_strong(&im->lifeline_busy, &expect, 1)) {
        int timed_out = 0, r = dsm_lifeline_check(im->lifeline, &timed_out);
        if (r >= 0) {
            char buf[200];
            int n = snprintf(buf, sizeof buf, "dsm: node %d: transport: lost node %d: %s\n",
                             t->node, r,
                             timed_out ? "the connection to it timed out (its host is down, or "
                                         "the network to it is cut)"
                                       : "its process ended (killed, or crashed with its host)");
            if (n > 0) {
                ssize_t w = write(STDERR_FILENO, buf, (size_t)n);
                (void)w;
            }
        }
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

/* atexit: a node that joined the job and leaves without dsm_finalize ends
 * the job now, with one line; otherwise mpirun would only notice at the
 * next collective of the others, or print its own multi-line banner. */
static void at_exit_check(void)
{
    dsm_transport *t = the_mpi;
    if (!t || ((mpi_impl *)t->impl)->state != DSM_NODE_JOINED)
        return;
    fflush(stdout);
    fprintf(stderr, "dsm: node %d exited without dsm_finalize\n", t->node);
    fflush(stderr);
    dsm_transport_mpi_abort(1);
}

void dsm_transport_mpi_mark(dsm_transport *t, int state)
{
    mpi_impl *im = t->impl;
    if (state == DSM_NODE_JOINED)
        im->joined_at = dsm_now_ns();
    if (state == DSM_NODE_FINALIZED)
        beat_end(im);
    if (state == DSM_NODE_FINALIZED && im->heard && im->nremote) {
        /* our heartbeats stop: the peers must not take us for lost */
        pthread_mutex_lock(&im->lock);
        send_alive(t, 1);
        pthread_mutex_unlock(&im->lock);
    }
    if (state == DSM_NODE_FINALIZED && im->lifeline)
        dsm_lifeline_goodbye(im->lifeline);
    if (im->shm) /* its close drops what waits for a finalized peer */
        dsm_transport_shm_mark(im->shm, state);
    im->state = state;
    if (state == DSM_NODE_JOINED)
        beat_start(t);
}

uint64_t dsm_transport_mpi_clock_base(dsm_transport *t)
{
    return ((mpi_impl *)t->impl)->clock_base;
}

/* Where pids mean the same process and the clock is the same, as one
 * number on every rank there: the host name, the kernel's boot id
 * (containers on two machines may share a name), the pid namespace and the
 * network namespace (the hosts of the network test bed, tests/netns.sh, are
 * network namespaces of one kernel: each is a host of its own). */
static uint64_t host_id(void)
{
    char buf[400] = "";
    gethostname(buf, 255);
    size_t len = strlen(buf);
    int fd = open("/proc/sys/kernel/random/boot_id", O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        ssize_t r = read(fd, buf + len, 64);
        if (r > 0)
            len += (size_t)r;
        close(fd);
    }
    ssize_t r = readlink("/proc/self/ns/pid", buf + len, 64);
    if (r > 0)
        len += (size_t)r;
    r = readlink("/proc/self/ns/net", buf + len, 64);
    if (r > 0)
        len += (size_t)r;
    uint64_t h = 0xcbf29ce484222325ULL; /* FNV-1a */
    for (size_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)buf[i]) * 0x100000001b3ULL;
    return h;
}

/* Every rank's (host id, pid), 2 words a rank; NULL when out of memory. */
static uint64_t *gather_hosts(mpi_impl *im, int n)
{
    uint64_t mine[2] = { host_id(), (uint64_t)getpid() };
    uint64_t *all = malloc((size_t)n * sizeof mine);
    if (all && MPI_Allgather(mine, 2, MPI_UINT64_T, all, 2, MPI_UINT64_T, im->comm) != MPI_SUCCESS) {
        free(all);
        all = NULL;
    }
    return all;
}

/* The pids of the other ranks on this host (for watch_peers).  Without
 * them (out of memory) the job's end is left to mpirun, as before. */
static void find_local_peers(mpi_impl *im, int self, int n, const uint64_t *all)
{
    im->locals = all ? malloc((size_t)n * sizeof *im->locals) : NULL;
    if (!im->locals)
        return;
    for (int r = 0; r < n; r++)
        if (r != self && all[2 * r] == all[2 * self])
            im->locals[im->nlocals++] = (local_peer){ r, (pid_t)all[2 * r + 1] };
}

/* Wait for one message of TAG_CLOCK without spinning: a blocking MPI_Recv
 * would take a core per waiting rank while rank 0 measures another one,
 * and the round trips measured would be those of a crowded machine. */
static void recv_clock_idle(mpi_impl *im, void *x, int count, int from)
{
    MPI_Request rq;
    int done = 0;
    MPI_Irecv(x, count, MPI_UINT64_T, from, TAG_CLOCK, im->comm, &rq);
    while (MPI_Test(&rq, &done, MPI_STATUS_IGNORE) == MPI_SUCCESS && !done)
        sleep_ns(100000);
}

#define CLOCK_ROUNDS 16 /* round trips per host; the fastest one counts */

/* Rank 0's clock base in this rank's clock (see the head of the file).
 * One clock per host: rank 0 measures the offset of the first rank of each
 * other host, one host at a time (so that only those two ranks are busy),
 * by the fastest of CLOCK_ROUNDS round trips (the error is at most half of
 * it); that rank passes it on to the other ranks of its host, and the
 * ranks on rank 0's host take no offset at all.  Without the host ids (out
 * of memory) every rank is measured. */
static void sync_clock(mpi_impl *im, int self, int n, const uint64_t *all)
{
    uint64_t base = dsm_now_ns();
    MPI_Bcast(&base, 1, MPI_UINT64_T, 0, im->comm);
#define HOST(r) (all ? all[2 * (r)] : (uint64_t)(r))
    int first = 0; /* the first rank of our host */
    while (HOST(first) != HOST(self))
        first++;
    if (self == 0) {
        for (int r = 1; r < n; r++) {
            int q = 0;
            while (HOST(q) != HOST(r))
                q++;
            if (q != r || HOST(r) == HOST(0))
                continue; /* not the first rank of a host other than ours */
            uint64_t x = 0;
            MPI_Send(&x, 1, MPI_UINT64_T, r, TAG_CLOCK, im->comm); /* your turn */
            for (int k = 0; k < CLOCK_ROUNDS; k++) {
                MPI_Recv(&x, 1, MPI_UINT64_T, r, TAG_CLOCK, im->comm, MPI_STATUS_IGNORE);
                x = dsm_now_ns();
                MPI_Send(&x, 1, MPI_UINT64_T, r, TAG_CLOCK, im->comm);
            }
        }
        im->clock_base = base;
        return;
    }
    int64_t offset = 0; /* rank 0's clock minus ours */
    if (HOST(self) == HOST(0)) {
        /* the same clock */
    } else if (first == self) {
        uint64_t x = 0, best_rtt = UINT64_MAX;
        recv_clock_idle(im, &x, 1, 0);
        for (int k = 0; k < CLOCK_ROUNDS; k++) {
            uint64_t t0 = dsm_now_ns();
            MPI_Send(&x, 1, MPI_UINT64_T, 0, TAG_CLOCK, im->comm);
            MPI_Recv(&x, 1, MPI_UINT64_T, 0, TAG_CLOCK, im->comm, MPI_STATUS_IGNORE);
            uint64_t t1 = dsm_now_ns();
            if (t1 - t0 < best_rtt) {
                best_rtt = t1 - t0;
                offset = (int64_t)(x - (t0 + (t1 - t0) / 2));
            }
        }
        for (int r = self + 1; r < n; r++)
            if (HOST(r) == HOST(self))
                MPI_Send(&offset, 1, MPI_UINT64_T, r, TAG_CLOCK, im->comm);
    } else {
        recv_clock_idle(im, &offset, 1, first);
    }
#undef HOST
    im->clock_base = (uint64_t)((int64_t)base - offset);
}

void dsm_transport_mpi_tune(size_t max_payload)
{
    /* OpenMPI's shared-memory transport (vader) sends up to 4 KiB eagerly
     * and larger messages by rendezvous, which costs a round trip and
     * progress calls from the sender: let a header and a block of up to
     * 28 KiB go eagerly (the limit is at most its 32 KiB fragment).  The
     * limit counts MPI's own match header too (32 bytes in OpenMPI 4.1):
     * header + 4 KiB block exactly at the limit still went by rendezvous,
     * a 4 KiB round trip 11 us instead of 2.9 us on the 2-core test VM.
     * An explicit setting of the user wins. */
    size_t want = sizeof(dsm_msg_hdr) + max_payload + MPI_HDR_SLACK;
    if (want > 4096 && want <= 32768 && !getenv("OMPI_MCA_btl_vader_eager_limit")) {
        char v[32];
        snprintf(v, sizeof v, "%zu", want);
        setenv("OMPI_MCA_btl_vader_eager_limit", v, 0);
    }
}

dsm_transport *dsm_transport_mpi_open(size_t max_payload)
{
    int init = 0, provided = 0;
    MPI_Initialized(&init);
    mpi_impl *im = calloc(1, sizeof *im);
    dsm_transport *t = calloc(1, sizeof *t);
    if (!im || !t) {
        fprintf(stderr, "dsm: node ?: dsm_init: out of memory for the mpi transport\n");
        free(im), free(t);
        return NULL;
    }
    if (!init) {
        dsm_transport_mpi_tune(max_payload);
        /* MPI's own threads inherit the mask: none of them may run the
         * program's signal handlers, which may fault on shared memory */
        sigset_t all, old;
        sigfillset(&all);
        pthread_sigmask(SIG_BLOCK, &all, &old);
        int rc = MPI_Init_thread(NULL, NULL, MPI_THREAD_MULTIPLE, &provided);
        pthread_sigmask(SIG_SETMASK, &old, NULL);
        if (rc != MPI_SUCCESS) {
            fprintf(stderr, "dsm: node ?: dsm_init: MPI_Init_thread failed\n");
            free(im), free(t);
            return NULL;
        }
        im->we_init = 1;
    } else {
        MPI_Query_thread(&provided);
    }
    int self = 0, n = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &self);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    /* our own mutex serialises the calls; SERIALIZED is the least we need */
    if (provided < MPI_THREAD_SERIALIZED) {
        fprintf(stderr,
                "dsm: node %d: dsm_init: this MPI gives thread level %d, the mpi transport needs "
                "MPI_THREAD_SERIALIZED or more\n",
                self, provided);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Comm_dup(MPI_COMM_WORLD, &im->comm);
    /* errors come back as codes, and are reported by us in one line */
    MPI_Comm_set_errhandler(im->comm, MPI_ERRORS_RETURN);
    im->msg_max = sizeof(dsm_msg_hdr) + max_payload;
    pthread_mutex_init(&im->lock, NULL);
    pthread_mutex_init(&im->beat_lock, NULL);
    pthread_condattr_t ca; /* the beat's waits: not moved by the wall clock */
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&im->beat_cond, &ca);
    pthread_condattr_destroy(&ca);
    for (int i = 0; i < RING; i++) {
        im->rbuf[i] = malloc(im->msg_max);
        if (!im->rbuf[i]) {
            fprintf(stderr, "dsm: node %d: dsm_init: out of memory for receive buffers\n", self);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        int rc = MPI_Irecv(im->rbuf[i], (int)im->msg_max, MPI_BYTE, MPI_ANY_SOURCE, TAG, im->comm,
                           &im->rreq[i]);
        if (rc != MPI_SUCCESS) {
            fprintf(stderr, "dsm: node %d: dsm_init: MPI_Irecv failed\n", self);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
    }
    im->heard = calloc((size_t)n, sizeof *im->heard);
    im->sent_at = calloc((size_t)n, sizeof *im->sent_at);
    if (!im->sent_at)
        dsm_fatal("dsm_init", "out of memory for %d ranks", n);
    im->left = calloc((size_t)n, 1);
    if (!im->heard || !im->left || MPI_Irecv(&im->alive_buf, 1, MPI_UINT64_T, MPI_ANY_SOURCE,
                                             TAG_ALIVE, im->comm, &im->alive_req) != MPI_SUCCESS) {
        free((void *)im->heard); /* no liveness checks: the job's end is left to mpirun */
        free(im->left);
        im->heard = NULL;
        im->left = NULL;
    }
    uint64_t *hosts = gather_hosts(im, n);
    sync_clock(im, self, n, hosts);
    find_local_peers(im, self, n, hosts);
    unsigned char *remote = calloc((size_t)n, 1);
    if (!remote)
        dsm_fatal("dsm_init", "out of memory for %d ranks", n);
    int any = 0, some = 0;
    for (int r = 0; hosts && r < n; r++) {
        remote[r] = hosts[2 * r] != hosts[2 * self];
        any |= remote[r];
        im->nremote += remote[r];
    }
    t->single_caller = im->nremote > 0;
    /* collective: made only when some rank is on another host than some
     * other (all on one host: the pids are watched) */
    MPI_Allreduce(&any, &some, 1, MPI_INT, MPI_MAX, im->comm);
    if (some)
        im->lifeline = dsm_lifeline_open(im->comm, self, n, remote);
    im->wake_fd = im->lifeline ? eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC) : -1;
    im->remote = remote; /* the heartbeats' peers: a host of ours is not cut off */
    /* bench/bench_tcp.sh measures with and without them */
    const char *nodb = getenv("DSM_TEST_NO_DOORBELLS");
    im->doorbells = !(nodb && *nodb && strcmp(nodb, "0"));
    /* collective; without doorbells (measuring) the bells are not used */
    im->bell = dsm_bell_open(im->comm, self, n, hosts);
    /* collective, all ranks or none */
    const char *use_shm = dsm_setting_raw("DSM_MPI_SHM");
    im->shm = dsm_mpi_shm_open(im->comm, self, n, hosts, max_payload,
                               !(use_shm && !strcmp(use_shm, "off")));
    if (!im->doorbells || im->shm) {
        dsm_bell_close(im->bell);
        im->bell = NULL;
    }
    free(hosts);
    t->name = "mpi";
    t->ops = &dsm_transport_mpi_ops;
    t->node = self;
    t->nnodes = n;
    t->max_payload = max_payload;
    t->send = mpi_send;
    t->poll = mpi_poll;
    t->wait = mpi_wait;
    t->wake = mpi_wake;
    t->polling = mpi_polling;
    t->close = mpi_close;
    /* every rank on this host: its segment is the job's */
    t->job_area = im->shm && !some ? im->shm->job_area : NULL;
    t->impl = im;
    im->state = DSM_NODE_STARTED;
    the_mpi = t;
    dsm_fatal_exit = dsm_transport_mpi_abort;
    static int registered;
    if (!registered) {
        /* installed after MPI_Init: they replace OpenMPI's backtrace printer */
        static const int crash_sigs[] = { SIGABRT, SIGBUS, SIGFPE, SIGILL };
        for (size_t i = 0; i < sizeof crash_sigs / sizeof crash_sigs[0]; i++) {
            struct sigaction sa;
            memset(&sa, 0, sizeof sa);
            sa.sa_handler = on_crash;
            sigemptyset(&sa.sa_mask);
            sigaction(crash_sigs[i], &sa, NULL);
        }
        struct sigaction old;
        if (sigaction(SIGTERM, NULL, &old) == 0 && old.sa_handler == SIG_DFL &&
            !(old.sa_flags & SA_SIGINFO)) {
            struct sigaction sa;
            memset(&sa, 0, sizeof sa);
            sa.sa_handler = on_term;
            sigemptyset(&sa.sa_mask);
            sigaction(SIGTERM, &sa, NULL);
        }
        atexit(at_exit_check);
        registered = 1;
    }
    return t;
}

const dsm_transport_ops dsm_transport_mpi_ops = {
    .name = "mpi",
    .launcher = "mpirun -np N",
    .caps = DSM_TP_WAIT_ON_MESSAGES,
    .launched_as = dsm_transport_mpi_launched_as,
    .open = dsm_transport_mpi_open,
    .attach = NULL,
    .clock_base = dsm_transport_mpi_clock_base,
    .mark = dsm_transport_mpi_mark,
    .abort = dsm_transport_mpi_abort,
};
