/* shm_queue_test.c - stress test of the shm transport, run as the nodes of a
 * job: `dsmrun -n 4 tests/shm_queue_test` (see tests/dsmrun_queue.sh).
 *
 * Every node sends COUNT messages from each of 2 threads to every other node,
 * in bursts larger than a queue so that the sender-side overflow is used,
 * while the same threads poll and wait for incoming messages.  The receiver
 * checks header fields, FIFO order per (sending node, sending thread) and
 * every payload byte.  Then wait/wake and argument checks.  Any error gives a
 * line on stderr and a non-zero exit.
 *
 *   shm_queue_test [--count N] [--burst N]   the stress test (default 3000, 300)
 *     --expect-overflow                      fail if no send ever overflowed
 *   shm_queue_test --no-finalize             join, then exit 0 without finalizing
 *   shm_queue_test --open                    only open the transport (env checks)
 *   shm_queue_test --hole                    node 1 reserves a slot of node 0's
 *                                            queue and never writes it, then sends
 *                                            3 messages behind it and stays alive
 *   shm_queue_test --hole-dead               the same, then node 1 leaves (marked
 *                                            finalized, exit 0): a dead sender
 *   In both, node 0 receives until the transport ends the job (one line, exit
 *   1); it exits 3 if it ever gets a message or 20 s pass (tests/shm_hole.sh). */
#include "error.h"
#include "settings.h"
#include "futex.h"
#include "transport/shm_layout.h"
#include "transport/transport.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define THREADS 2
#define TYPE_DATA 64

static dsm_transport *T;
static int me, nn;
static long count = 3000, burst = 300;
static _Atomic long received, errors;
static _Atomic unsigned max_pending; /* most messages seen in overflow at once */
static long (*next_seq)[THREADS]; /* [src][thread]: only touched by the handler */
static unsigned char *scratch;     /* expected payload, handler only */
static uint64_t deadline;

static void fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "shm_queue_test: node %d: ", me);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    atomic_fetch_add(&errors, 1);
}

/* Payload of message seq from (src, thread): a cheap generator seeded by all
 * three, so a misplaced or mixed message shows. */
static uint32_t fill(unsigned char *p, int src, int dst, int thread, long seq)
{
    uint64_t x = 0x9e3779b97f4a7c15ULL ^ ((uint64_t)src << 48) ^ ((uint64_t)dst << 36) ^
                 ((uint64_t)thread << 32) ^ (uint64_t)seq;
    uint32_t len = (uint32_t)((seq * 977 + (long)src * 131 + thread * 17) % ((long)T->max_payload + 1));
    for (uint32_t i = 0; i < len; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        p[i] = (unsigned char)x;
    }
    return len;
}

static void handler(void *ctx, const dsm_msg_hdr *h, const void *payload)
{
    (void)ctx;
    if (h->type != TYPE_DATA || h->dst != me || h->src < 0 || h->src >= nn || h->src == me ||
        h->arg[0] >= THREADS) {
        fail("bad header: type %u src %d dst %d arg0 %llu", h->type, h->src, h->dst,
             (unsigned long long)h->arg[0]);
        return;
    }
    int th = (int)h->arg[0];
    long seq = (long)h->arg[1];
    if (seq != next_seq[h->src][th]) {
        fail("from node %d thread %d: got message %ld, expected %ld (FIFO broken)", h->src, th,
             seq, next_seq[h->src][th]);
        next_seq[h->src][th] = seq;
    }
    next_seq[h->src][th]++;
    uint32_t len = fill(scratch, h->src, me, th, seq);
    if (h->len != len || h->block != (uint32_t)seq || h->arg[2] != ~(uint64_t)seq ||
        memcmp(payload, scratch, len))
        fail("from node %d thread %d: message %ld has a corrupt header or payload (len %u, "
             "expected %u)", h->src, th, seq, h->len, len);
    atomic_fetch_add(&received, 1);
}

/* Poll until nothing is there; a short spin, then sleep in wait. */
static void drain(void)
{
    int idle = 0;
    while (1) {
        int n = T->poll(T, handler, NULL, 32);
        if (n > 0) {
            idle = 0;
            continue;
        }
        if (++idle > 8)
            return;
        dsm_cpu_relax();
    }
}

static void *worker(void *arg)
{
    int th = (int)(long)arg;
    unsigned char *buf = malloc(T->max_payload);
    long expect = (long)(nn - 1) * THREADS * count;
    for (long base = 0; base < count; base += burst) {
        long end = base + burst < count ? base + burst : count;
        /* Destinations in a different order per node, so that queues fill
         * from several sides at once. */
        for (int k = 1; k < nn; k++) {
            int dst = (me + k) % nn;
            for (long seq = base; seq < end; seq++) {
                dsm_msg_hdr h = {.type = TYPE_DATA, .block = (uint32_t)seq};
                h.len = fill(buf, me, dst, th, seq);
                h.arg[0] = (uint64_t)th;
                h.arg[1] = (uint64_t)seq;
                h.arg[2] = ~(uint64_t)seq;
                if (T->send(T, dst, &h, buf))
                    fail("send to node %d failed", dst);
            }
        }
        unsigned p = dsm_transport_shm_pending(T), m = atomic_load(&max_pending);
        while (p > m && !atomic_compare_exchange_weak(&max_pending, &m, p))
            ;
        drain();
    }
    /* Everything is sent (some of it maybe still in overflow): receive the
     * rest, sleeping in wait when idle. */
    while (atomic_load(&received) < expect && !atomic_load(&errors)) {
        if (T->poll(T, handler, NULL, 64))
            continue;
        for (int i = 0; i < 100; i++)
            dsm_cpu_relax();
        if (!T->poll(T, handler, NULL, 64))
            T->wait(T, 20);
        if (dsm_now_ns() > deadline) {
            fail("timed out with %ld of %ld messages received, %u still in overflow",
                 atomic_load(&received), expect, dsm_transport_shm_pending(T));
            break;
        }
    }
    free(buf);
    return NULL;
}

static _Atomic int waiter_done;
static void *waiter(void *arg)
{
    (void)arg;
    while (!atomic_load(&waiter_done)) {
        T->wait(T, 10000);
        atomic_store(&waiter_done, 1);
    }
    return NULL;
}

/* A hole in node 0's queue (see the head of the file). */
static int hole(int dead)
{
    if (me == 1) {
        if (dsm_transport_shm_reserve_only(T, 0)) {
            fprintf(stderr, "shm_queue_test: node 1: could not reserve a slot of node 0's queue\n");
            return 2;
        }
        for (int k = 0; k < 3; k++) {
            dsm_msg_hdr h = {.type = TYPE_DATA, .block = (uint32_t)k};
            if (T->send(T, 0, &h, NULL))
                return 2;
        }
        if (dead) {
            dsm_transport_shm_mark(T, DSM_NODE_FINALIZED);
            return 0;
        }
        for (;;)
            pause(); /* alive, as a stuck sender; dsmrun ends us */
    }
    if (me != 0)
        for (;;)
            pause();
    uint64_t end = dsm_now_ns() + 20ULL * 1000000000ULL;
    while (dsm_now_ns() < end) {
        if (T->poll(T, handler, NULL, 64)) {
            fprintf(stderr, "shm_queue_test: node 0: a message came past the hole\n");
            return 3;
        }
        T->wait(T, 500); /* as the progress thread does */
    }
    fprintf(stderr, "shm_queue_test: node 0: the hole was not noticed in 20 s\n");
    return 3;
}

/* Bad calls must be refused with -1 (their messages go to /dev/null). */
static void check_refusals(void)
{
    int saved = dup(2), null = open("/dev/null", O_WRONLY);
    if (saved < 0 || null < 0)
        return;
    dup2(null, 2);
    dsm_msg_hdr h = {.type = TYPE_DATA};
    unsigned char b[8] = {0};
    int r1 = T->send(T, me, &h, NULL);
    int r2 = T->send(T, nn, &h, NULL);
    int r3 = T->send(T, -1, &h, NULL);
    h.len = (uint32_t)T->max_payload + 1;
    int r4 = nn > 1 ? T->send(T, (me + 1) % nn, &h, b) : -1;
    dup2(saved, 2);
    close(saved);
    close(null);
    if (r1 != -1 || r2 != -1 || r3 != -1 || r4 != -1)
        fail("a send to oneself, to a node out of range or with a payload too large was "
             "accepted (%d %d %d %d)", r1, r2, r3, r4);
}

int main(int argc, char **argv)
{
    int no_finalize = 0, open_only = 0, want_overflow = 0, hole_mode = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--no-finalize"))
            no_finalize = 1;
        else if (!strcmp(argv[i], "--open"))
            open_only = 1;
        else if (!strcmp(argv[i], "--expect-overflow"))
            want_overflow = 1;
        else if (!strcmp(argv[i], "--hole"))
            hole_mode = 1;
        else if (!strcmp(argv[i], "--hole-dead"))
            hole_mode = 2;
        else if (!strcmp(argv[i], "--count") && i + 1 < argc)
            count = atol(argv[++i]);
        else if (!strcmp(argv[i], "--burst") && i + 1 < argc)
            burst = atol(argv[++i]);
        else {
            fprintf(stderr, "usage: %s [--count N] [--burst N] [--expect-overflow] [--no-finalize] "
                            "[--open] [--hole] [--hole-dead]\n", argv[0]);
            return 2;
        }
    }
    if (count < 1 || burst < 1) {
        fprintf(stderr, "shm_queue_test: --count and --burst must be positive\n");
        return 2;
    }
    dsm_config cfg;
    if (dsm_config_load(&cfg, "shm_queue_test"))
        return 1;
    if (!dsm_transport_shm_present()) {
        fprintf(stderr, "shm_queue_test: DSM_SHM_FD is not set; run me under dsmrun\n");
        return 1;
    }
    T = dsm_transport_shm_open(cfg.block_size);
    if (!T)
        return 1;
    me = T->node;
    nn = T->nnodes;
    dsm_error_node = me;
    if (open_only)
        return 0;
    dsm_transport_shm_mark(T, DSM_NODE_JOINED);
    if (no_finalize)
        return 0;
    if (hole_mode) {
        if (nn < 2) {
            fprintf(stderr, "shm_queue_test: --hole needs 2 nodes or more\n");
            return 2;
        }
        next_seq = calloc((size_t)nn, sizeof *next_seq);
        scratch = malloc(T->max_payload);
        return hole(hole_mode == 2);
    }
    if (T->max_payload < cfg.block_size)
        fail("max_payload %zu is below the block size %zu", T->max_payload, cfg.block_size);

    next_seq = calloc((size_t)nn, sizeof *next_seq);
    scratch = malloc(T->max_payload);
    deadline = dsm_now_ns() + 50ULL * 1000000000ULL;
    check_refusals();

    pthread_t th[THREADS];
    for (long i = 0; i < THREADS; i++)
        pthread_create(&th[i], NULL, worker, (void *)i);
    for (int i = 0; i < THREADS; i++)
        pthread_join(th[i], NULL);

    long expect = (long)(nn - 1) * THREADS * count;
    if (atomic_load(&received) != expect)
        fail("received %ld messages, expected %ld", atomic_load(&received), expect);
    for (int s = 0; s < nn; s++)
        for (int k = 0; s != me && k < THREADS; k++)
            if (next_seq[s][k] != count)
                fail("from node %d thread %d: %ld messages, expected %ld", s, k, next_seq[s][k],
                     count);

    /* wait with nothing to receive sleeps about as long as asked ... */
    unsigned pending = dsm_transport_shm_pending(T); /* wait naps 1 ms while overflow remains */
    uint64_t t0 = dsm_now_ns();
    T->wait(T, 100);
    uint64_t dt = (dsm_now_ns() - t0) / 1000000;
    if (!pending && (dt < 50 || dt > 5000))
        fail("wait(100 ms) on an empty queue returned after %llu ms", (unsigned long long)dt);
    /* ... and wake ends a long wait at once. */
    pthread_t w;
    pthread_create(&w, NULL, waiter, NULL);
    t0 = dsm_now_ns();
    while (!atomic_load(&waiter_done) && dsm_now_ns() - t0 < 5000000000ULL) {
        T->wake(T);
        usleep(1000);
    }
    atomic_store(&waiter_done, 1);
    T->wake(T);
    pthread_join(w, NULL);
    dt = (dsm_now_ns() - t0) / 1000000;
    if (dt > 2000)
        fail("wake took %llu ms to end a wait", (unsigned long long)dt);

    if (want_overflow && nn > 1 && !atomic_load(&max_pending))
        fail("the overflow path was never used");
    long errs = atomic_load(&errors);
    dsm_transport_shm_mark(T, DSM_NODE_FINALIZED);
    T->close(T); /* flushes what is still in overflow to the peers */
    if (errs)
        return 1;
    printf("shm_queue_test: node %d of %d: %ld messages received in order, %zu-byte payloads, "
           "up to %u in overflow\n", me, nn, expect, cfg.block_size, atomic_load(&max_pending));
    return 0;
}
