/* stdin_copy.c - standard input as in one process: every node reads all of
 * it, from its own offset.  Without this the nodes that dsmrun starts share
 * one open file (what one node reads the others miss) and mpirun gives
 * stdin to rank 0 only.
 *
 * From the end of dsm_init (DSM_STDIN=copy, or auto unless node 0's stdin
 * is a terminal, which dsmrun's nodes share anyway) every node's fd 0 is
 * the read end of a pipe of its own.  On node 0 a reader thread reads the
 * real stdin as it comes and sends each piece to every node
 * (RT_STDIN_DATA, block-size pieces; RT_STDIN_END at its end); on every
 * node a feeder thread writes what came into the node's pipe.  Nothing
 * waits for the end of the input: a producer that keeps the pipe open, or
 * a terminal behind mpirun, only means no end of file yet, as in one
 * process.  What a node has not read yet waits in its memory; node 0 reads
 * at most READ_AHEAD beyond what its own program took.  The reader
 * stops sending when node 0 enters dsm_finalize (dsm_stdin_stop). */
#define _GNU_SOURCE 1
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "error.h"
#include "tasks.h"

enum { STDIN_AUTO, STDIN_COPY, STDIN_KEEP };

#define FEED_PIECE 65536
/* Node 0 reads ahead at most this much more than its own program took, so
 * an endless producer nobody reads (`yes | dsmrun ...`) is held back by the
 * pipe as in one process, not buffered without end. */
#define READ_AHEAD (16u << 20)

static struct {
    pthread_mutex_t lock;       /* the pending bytes and the flags */
    pthread_cond_t more;
    pthread_cond_t drained;     /* the feeder took a piece */
    char *buf;
    size_t head, len, cap;      /* pending: buf[head, len) */
    int eof;
    pthread_mutex_t send_lock;  /* node 0: a piece being sent to the nodes */
    int stopping;               /* node 0: dsm_finalize began */
    int src;                    /* node 0: the real stdin */
    int wfd;                    /* this node's pipe, write end */
    dsm_rt *rt;
} S = { .lock = PTHREAD_MUTEX_INITIALIZER, .more = PTHREAD_COND_INITIALIZER,
        .drained = PTHREAD_COND_INITIALIZER,
        .send_lock = PTHREAD_MUTEX_INITIALIZER, .src = -1, .wfd = -1 };

static void append(const void *p, size_t n, int eof)
{
    pthread_mutex_lock(&S.lock);
    if (S.head == S.len)
        S.head = S.len = 0;
    if (S.len + n > S.cap) {
        size_t c = S.cap ? S.cap : FEED_PIECE;
        while (c < S.len + n)
            c *= 2;
        char *b = realloc(S.buf, c);
        if (!b)
            dsm_fatal("stdin", "out of memory for %zu bytes of stdin not yet read", S.len + n);
        S.buf = b;
        S.cap = c;
    }
    if (n)
        memcpy(S.buf + S.len, p, n);
    S.len += n;
    S.eof |= eof;
    pthread_cond_signal(&S.more);
    pthread_mutex_unlock(&S.lock);
}

void dsm_stdin_handle(dsm_rt *rt, const dsm_msg_hdr *h, const void *payload)
{
    (void)rt;
    append(payload, h->len, h->type == RT_STDIN_END);
}

/* Every node: what came goes into the node's pipe, blocking while the
 * program does not read. */
static void *feeder(void *arg)
{
    (void)arg;
    char *piece = malloc(FEED_PIECE);
    if (!piece)
        dsm_fatal("stdin", "out of memory");
    for (;;) {
        pthread_mutex_lock(&S.lock);
        while (S.head == S.len && !S.eof)
            pthread_cond_wait(&S.more, &S.lock);
        size_t n = S.len - S.head < FEED_PIECE ? S.len - S.head : FEED_PIECE;
        memcpy(piece, S.buf + S.head, n);
        S.head += n;
        pthread_cond_signal(&S.drained);
        int done = !n && S.eof;
        pthread_mutex_unlock(&S.lock);
        if (done)
            break;
        for (size_t off = 0; off < n;) {
            ssize_t w = write(S.wfd, piece + off, n - off);
            if (w < 0 && errno == EINTR)
                continue;
            if (w <= 0) /* the program closed its stdin (EPIPE): nobody reads */
                goto out;
            off += (size_t)w;
        }
    }
out:
    close(S.wfd);
    free(piece);
    return NULL;
}

/* Node 0: the real stdin, piece by piece to every node. */
static void *reader(void *arg)
{
    (void)arg;
    dsm_rt *rt = S.rt;
    size_t piece = rt->region.block_size < FEED_PIECE ? rt->region.block_size : FEED_PIECE;
    char *buf = malloc(piece);
    if (!buf)
        dsm_fatal("stdin", "out of memory");
    for (;;) {
        pthread_mutex_lock(&S.lock);
        while (S.len - S.head > READ_AHEAD)
            pthread_cond_wait(&S.drained, &S.lock);
        pthread_mutex_unlock(&S.lock);
        ssize_t n = read(S.src, buf, piece);
        if (n < 0 && errno == EINTR)
            continue;
        pthread_mutex_lock(&S.send_lock);
        if (S.stopping) {
            pthread_mutex_unlock(&S.send_lock);
            break;
        }
        for (int k = 1; k < rt->nnodes; k++) {
            dsm_msg_hdr h = { 0 };
            h.type = n > 0 ? RT_STDIN_DATA : RT_STDIN_END;
            dsm_rt_send_data(rt, k, &h, buf, n > 0 ? (uint32_t)n : 0);
        }
        pthread_mutex_unlock(&S.send_lock);
        append(buf, n > 0 ? (size_t)n : 0, n <= 0);
        if (n <= 0)
            break;
    }
    free(buf);
    return NULL;
}

static void start(void *(*fn)(void *))
{
    /* the program's handlers never run on these threads */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    pthread_attr_t a;
    pthread_attr_init(&a);
    pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
    int err = pthread_create(&(pthread_t){ 0 }, &a, fn, NULL);
    pthread_attr_destroy(&a);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (err)
        dsm_fatal("dsm_init", "cannot start a thread to copy stdin: %s", strerror(err));
}

void dsm_stdin_copy(dsm_rt *rt)
{
    int mode = rt->cfg.stdin_mode;
    if (rt->nnodes < 2 || mode == STDIN_KEEP)
        return;
    /* every node must know whether node 0 copies: a terminal is only seen
     * by dsmrun's nodes, which share it (mpirun gives ranks a pipe) */
    if (mode == STDIN_AUTO && isatty(0))
        return;
    int p[2];
    if (pipe2(p, O_CLOEXEC)) /* a child the program starts must not hold the write end */
        dsm_fatal("dsm_init", "cannot make a pipe for stdin: %s", strerror(errno));
    S.rt = rt;
    S.wfd = p[1];
    if (rt->self == 0 && (S.src = fcntl(0, F_DUPFD_CLOEXEC, 3)) < 0)
        S.src = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (dup2(p[0], 0) < 0)
        dsm_fatal("dsm_init", "cannot give stdin its copy: %s", strerror(errno));
    close(p[0]);
    clearerr(stdin);
    start(feeder);
    if (rt->self == 0)
        start(reader);
}

void dsm_stdin_stop(dsm_rt *rt)
{
    if (rt->self != 0)
        return;
    pthread_mutex_lock(&S.send_lock);
    S.stopping = 1;
    pthread_mutex_unlock(&S.send_lock);
}
