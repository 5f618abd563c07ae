/* shm.c - the shm transport: nodes started by dsmrun on one machine
 * exchange messages through bounded rings in the job's shared segment (layout
 * in shm_layout.h).  Each node owns one incoming queue; any thread of any
 * other node may produce into it, the threads of the owner consume from it.
 *
 * Guarantees (transport.h): FIFO per (sender, receiver), send never blocks,
 * send/poll callable from several threads, wait sleeps on a futex.
 *
 * A hole: a producer reserves a slot (the compare-and-swap of the tail)
 * before it writes and publishes it, and the consumer takes slots in order
 * only.  A sender that dies or misbehaves between the two leaves a slot that
 * is never published, and everything queued behind it waits forever.  The
 * consumer watches for it when it is about to sleep (watch_hole) and ends
 * the job with one line instead of hanging. */
#include "shm_layout.h"
#include "transport.h"
#include "error.h"
#include "futex.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23 /* Linux 5.14 */
#endif
/* the part of a node's own queue committed at open (shm_open_fd) */
#define SHM_COMMIT_MAX ((uint64_t)4 << 20)

/* A message that did not fit in the destination ring. */
typedef struct ovf_msg {
    struct ovf_msg *next;
    dsm_msg_hdr hdr;
    unsigned char payload[];
} ovf_msg;

/* Sender-local overflow towards one destination.
 *
 * Why it exists: if send blocked on a full ring, two nodes whose queues are
 * both full and that each send to the other from inside their message loop
 * would wait for each other forever.  Instead a full ring turns the message
 * into a malloc'd copy here; poll, send and wait move such copies into the
 * ring as soon as it has room.  FIFO per (sender, destination) is kept by
 * sending every message through this list while it is not empty: count is
 * only decremented after the message is in the ring, so a sender that sees
 * count == 0 knows everything older is already queued. */
typedef struct ovf_list {
    pthread_mutex_t lock;
    _Atomic uint32_t count;
    ovf_msg *head, *tail;
} __attribute__((aligned(DSM_SHM_LINE))) ovf_list;

typedef struct shm_impl {
    unsigned char *base;          /* the mapped segment */
    size_t map_size;
    int fd;
    dsm_shm_header *hdr;
    dsm_shm_node *nodes;
    uint64_t mask;                /* slots - 1 */
    uint64_t slots;
    size_t slot_size;
    size_t payload;               /* bytes of payload per slot */
    dsm_shm_queue *self_q;
    /* Only one thread consumes at a time: poll from a second thread must not
     * block, it returns 0.  Process-local is enough, only this node polls
     * its own queue. */
    _Atomic int consumer;
    _Atomic uint32_t ovf_total;   /* messages in all overflow lists */
    ovf_list *ovf;                /* one per destination */
    /* watch_hole's state (consumer only): the head position seen reserved
     * but unpublished, since when, and when last looked at */
    uint64_t hole_pos, hole_since, hole_seen;
    /* shm_wake counts here; a thread's wait ends when the count moved since
     * that thread's wait last returned (wait_epoch_seen), so every waiting
     * thread sees a wake (DSM_TP_WAIT_ON_MESSAGES), as in the mpi
     * transport over these queues */
    _Atomic uint32_t wake_epoch;
} shm_impl;

static __thread uint32_t wait_epoch_seen;

/* A slot reserved but unpublished for this long ends the job: a live
 * producer publishes within microseconds of reserving (a copy of one
 * block), and even a producer thread preempted on a crowded machine runs
 * again well within it.  Shorter when a peer is dead: it may well be the
 * sender that died mid-send. */
#define HOLE_NS (5ULL * 1000000000ULL)
#define HOLE_DEAD_NS (1ULL * 1000000000ULL)
/* Looks further apart than this start the count again: this node itself
 * did not run (stopped, or starved), so the producer may not have either. */
#define HOLE_GAP_NS (2ULL * 1000000000ULL)

static dsm_shm_queue *queue_of(shm_impl *im, int node)
{
    return (dsm_shm_queue *)(im->base + im->hdr->queue_offset + (uint64_t)node * im->hdr->queue_size);
}

static dsm_shm_slot *slot_of(shm_impl *im, dsm_shm_queue *q, uint64_t idx)
{
    return (dsm_shm_slot *)((unsigned char *)q + sizeof(dsm_shm_queue) + idx * im->slot_size);
}

/* Wake the consumer of q if it announced that it sleeps.  Dekker style, all
 * seq_cst: the producer publishes its slot then reads sleepers; the consumer
 * (shm_wait) increments sleepers then re-reads the slot.  In the single total
 * order of seq_cst operations one of the two comes first, so either the
 * consumer sees the message and does not sleep, or we see it sleeping and
 * wake it: a wake-up cannot be lost. */
static void wake_if_sleeping(dsm_shm_queue *q)
{
    if (atomic_load_explicit(&q->sleepers, memory_order_seq_cst) &&
        !atomic_load_explicit(&q->pollers, memory_order_seq_cst)) {
        atomic_fetch_add_explicit(&q->futex, 1, memory_order_seq_cst);
        dsm_futex_wake(&q->futex, 1);
    }
}

/* Put one message into dst's ring; 1, or 0 when the ring is full. */
static int try_enqueue(shm_impl *im, int dst, const dsm_msg_hdr *h, const void *payload)
{
    dsm_shm_queue *q = queue_of(im, dst);
    uint64_t pos = atomic_load_explicit(&q->tail, memory_order_relaxed);
    dsm_shm_slot *s;
    uint64_t idx;
    for (;;) {
        idx = pos & im->mask;
        s = slot_of(im, q, idx);
        uint64_t seq = atomic_load_explicit(&s->seq, memory_order_acquire) + idx;
        int64_t dif = (int64_t)(seq - pos);
        if (dif == 0) {
            if (atomic_compare_exchange_weak_explicit(&q->tail, &pos, pos + 1,
                                                      memory_order_relaxed, memory_order_relaxed))
                break;
        } else if (dif < 0) {
            return 0; /* the slot still holds the message of the previous lap */
        } else {
            pos = atomic_load_explicit(&q->tail, memory_order_relaxed);
        }
    }
    memcpy(&s->hdr, h, sizeof *h);
    if (h->len)
        memcpy(s + 1, payload, h->len);
    atomic_store_explicit(&s->seq, pos + 1 - idx, memory_order_seq_cst); /* publish */
    wake_if_sleeping(q);
    return 1;
}

/* Move as much of the overflow towards dst into its ring as fits.  Caller
 * holds the list's lock. */
static void flush_locked(shm_impl *im, ovf_list *ov, int dst)
{
    while (ov->head) {
        ovf_msg *m = ov->head;
        if (!try_enqueue(im, dst, &m->hdr, m->payload))
            return;
        ov->head = m->next;
        if (!ov->head)
            ov->tail = NULL;
        free(m);
        atomic_fetch_sub_explicit(&ov->count, 1, memory_order_release);
        atomic_fetch_sub_explicit(&im->ovf_total, 1, memory_order_relaxed);
    }
}

/* Opportunistic flush of every destination; lists busy in another thread
 * are skipped (that thread is flushing or appending to them). */
static void flush_all(shm_impl *im, int nnodes)
{
    if (!atomic_load_explicit(&im->ovf_total, memory_order_relaxed))
        return;
    for (int d = 0; d < nnodes; d++) {
        ovf_list *ov = &im->ovf[d];
        if (!atomic_load_explicit(&ov->count, memory_order_relaxed))
            continue;
        if (pthread_mutex_trylock(&ov->lock))
            continue;
        flush_locked(im, ov, d);
        pthread_mutex_unlock(&ov->lock);
    }
}

static int shm_send(dsm_transport *t, int dst, const dsm_msg_hdr *h, const void *payload)
{
    shm_impl *im = t->impl;
    if (dst < 0 || dst >= t->nnodes || dst == t->node) {
        fprintf(stderr, "dsm: node %d: shm transport: send to node %d: %s\n", t->node, dst,
                dst == t->node ? "messages to oneself are handled by the runtime, not sent"
                               : "no such node");
        return -1;
    }
    if (!h || h->len > im->payload || (h->len && !payload)) {
        fprintf(stderr, "dsm: node %d: shm transport: send to node %d: payload of %u bytes "
                        "(the limit is %zu)%s\n", t->node, dst, h ? h->len : 0, im->payload,
                h && h->len && !payload ? " given without data" : "");
        return -1;
    }
    /* The header travels as given, stamped with who sends to whom. */
    dsm_msg_hdr hh = *h;
    hh.magic = DSM_MSG_MAGIC;
    hh.src = t->node;
    hh.dst = dst;

    ovf_list *ov = &im->ovf[dst];
    if (!atomic_load_explicit(&ov->count, memory_order_acquire) && try_enqueue(im, dst, &hh, payload))
        goto sent;
    pthread_mutex_lock(&ov->lock);
    flush_locked(im, ov, dst);
    if (!atomic_load_explicit(&ov->count, memory_order_relaxed) && try_enqueue(im, dst, &hh, payload)) {
        pthread_mutex_unlock(&ov->lock);
        goto sent;
    }
    ovf_msg *m = malloc(sizeof *m + hh.len);
    if (!m) {
        pthread_mutex_unlock(&ov->lock);
        fprintf(stderr, "dsm: node %d: shm transport: out of memory for the overflow of a full "
                        "queue to node %d\n", t->node, dst);
        return -1;
    }
    m->next = NULL;
    m->hdr = hh;
    if (hh.len)
        memcpy(m->payload, payload, hh.len);
    if (ov->tail)
        ov->tail->next = m;
    else
        ov->head = m;
    ov->tail = m;
    atomic_fetch_add_explicit(&ov->count, 1, memory_order_release);
    atomic_fetch_add_explicit(&im->ovf_total, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&t->buffered, 1, memory_order_relaxed);
    pthread_mutex_unlock(&ov->lock);
    return 0;
sent:
    flush_all(im, t->nnodes);
    return 0;
}

/* Is the next message of q published?  (Any thread may ask.) */
static int queue_ready(shm_impl *im, dsm_shm_queue *q)
{
    uint64_t pos = atomic_load_explicit(&q->head, memory_order_seq_cst);
    uint64_t idx = pos & im->mask;
    dsm_shm_slot *s = slot_of(im, q, idx);
    return atomic_load_explicit(&s->seq, memory_order_seq_cst) + idx == pos + 1;
}

int dsm_transport_shm_ready(dsm_transport *t)
{
    shm_impl *im = t->impl;
    return queue_ready(im, im->self_q);
}

static void corrupt(dsm_transport *t, const dsm_msg_hdr *h, uint64_t pos)
{
    fprintf(stderr, "dsm: node %d: shm transport: corrupt message at queue position %llu "
                    "(magic %#x, src %d, dst %d, len %u)\n", t->node, (unsigned long long)pos,
            h->magic, h->src, h->dst, h->len);
    abort();
}

static int shm_poll(dsm_transport *t, dsm_msg_handler handler, void *ctx, int max)
{
    shm_impl *im = t->impl;
    dsm_shm_queue *q = im->self_q;
    int n = 0;
    flush_all(im, t->nnodes);
    if (max <= 0)
        max = INT_MAX;
    if (atomic_exchange_explicit(&im->consumer, 1, memory_order_acquire))
        return 0;
    uint64_t pos = atomic_load_explicit(&q->head, memory_order_relaxed);
    while (n < max) {
        uint64_t idx = pos & im->mask;
        dsm_shm_slot *s = slot_of(im, q, idx);
        if (atomic_load_explicit(&s->seq, memory_order_acquire) + idx != pos + 1)
            break;
        const dsm_msg_hdr *h = &s->hdr;
        if (h->magic != DSM_MSG_MAGIC || h->dst != t->node || h->src < 0 || h->src >= t->nnodes ||
            h->src == t->node || h->len > im->payload)
            corrupt(t, h, pos);
        handler(ctx, h, s + 1);
        /* Hand the slot to the producer of the next lap. */
        atomic_store_explicit(&s->seq, pos + im->slots - idx, memory_order_release);
        pos++;
        atomic_store_explicit(&q->head, pos, memory_order_release);
        n++;
    }
    /* seq_cst against a waiter's sleepers++ then its look at the flag
     * (dsm_transport_shm_wait_word): a waiter that found the flag taken
     * and slept is seen here, and woken if a message was left */
    atomic_store_explicit(&im->consumer, 0, memory_order_seq_cst);
    if (atomic_load_explicit(&q->sleepers, memory_order_seq_cst) && queue_ready(im, q)) {
        atomic_fetch_add_explicit(&q->futex, 1, memory_order_seq_cst);
        dsm_futex_wake(&q->futex, 1);
    }
    return n;
}

/* Is the process of node d gone (whatever its last state)? */
static int node_dead(shm_impl *im, int d)
{
    pid_t pid = atomic_load(&im->nodes[d].pid);
    return pid > 0 && kill(pid, 0) && errno == ESRCH;
}

/* Called by the consumer (consumer flag held) when the head of its queue is
 * not published: a producer reserved the slot (the tail is past it) and has
 * not written it yet.  Normally a matter of microseconds; past HOLE_NS
 * (HOLE_DEAD_NS when a peer is dead) it is a hole and the job ends. */
static void watch_hole(dsm_transport *t, shm_impl *im, dsm_shm_queue *q)
{
    uint64_t head = atomic_load_explicit(&q->head, memory_order_relaxed);
    uint64_t tail = atomic_load_explicit(&q->tail, memory_order_seq_cst);
    if (tail == head) {
        im->hole_since = 0;
        return;
    }
    uint64_t now = dsm_now_ns();
    if (!im->hole_since || im->hole_pos != head || now - im->hole_seen > HOLE_GAP_NS) {
        im->hole_pos = head;
        im->hole_since = im->hole_seen = now;
        return;
    }
    im->hole_seen = now;
    uint64_t stuck = now - im->hole_since;
    if (stuck < HOLE_DEAD_NS)
        return;
    char dead[160] = "";
    size_t used = 0;
    int ndead = 0;
    for (int d = 0; d < t->nnodes; d++)
        if (d != t->node && node_dead(im, d)) {
            int n = snprintf(dead + used, sizeof dead - used, "%s%d", ndead ? ", " : "", d);
            if (n > 0 && (size_t)n < sizeof dead - used)
                used += (size_t)n;
            ndead++;
        }
    if (!ndead && stuck < HOLE_NS)
        return;
    /* what waits behind it: published slots after the hole */
    uint64_t later = 0;
    for (uint64_t pos = head + 1; pos < tail && pos < head + im->slots; pos++) {
        uint64_t idx = pos & im->mask;
        if (atomic_load_explicit(&slot_of(im, q, idx)->seq, memory_order_acquire) + idx ==
            pos + 1)
            later++;
    }
    if (ndead)
        dsm_fatal("transport", "a message slot of this node's queue (position %llu) was reserved "
                  "and never written: node%s %s died, maybe in the middle of a send; %llu later "
                  "messages wait behind it", (unsigned long long)head, ndead > 1 ? "s" : "",
                  dead, (unsigned long long)later);
    dsm_fatal("transport", "a message slot of this node's queue (position %llu) was reserved "
              "%.1f s ago and never written by its sender (one of the other %d nodes, all "
              "alive); %llu later messages wait behind it", (unsigned long long)head,
              (double)stuck / 1e9, t->nnodes - 1, (unsigned long long)later);
}

/* Ends at a message or at shm_wake (the epoch): a thread waiting for its
 * reply sleeps here and handles the reply itself (node.c,
 * wait_in_transport), one wake-up per reply instead of the progress
 * thread's and then its own. */
static void shm_wait(dsm_transport *t, int timeout_ms)
{
    shm_impl *im = t->impl;
    uint32_t epoch = atomic_load(&im->wake_epoch);
    if (epoch != wait_epoch_seen) {
        wait_epoch_seen = epoch;
        return;
    }
    dsm_transport_shm_wait_word(t, timeout_ms, &im->wake_epoch, epoch);
}

void dsm_transport_shm_wait_word(dsm_transport *t, int timeout_ms, _Atomic uint32_t *word,
                                 uint32_t seen)
{
    shm_impl *im = t->impl;
    dsm_shm_queue *q = im->self_q;
    flush_all(im, t->nnodes);
    /* Our own overflow needs a poll or send to move on, and nobody wakes us
     * when the destination ring gets room: sleep in short steps then. */
    if (atomic_load_explicit(&im->ovf_total, memory_order_relaxed) &&
        (timeout_ms < 0 || timeout_ms > 1))
        timeout_ms = 1;
    uint32_t f = atomic_load_explicit(&q->futex, memory_order_seq_cst);
    /* the word moves before the futex word (the caller's wake, then t->wake):
     * a move after this look changes f, and the sleep does not start */
    if (word && atomic_load_explicit(word, memory_order_seq_cst) != seen)
        return;
    atomic_fetch_add_explicit(&q->sleepers, 1, memory_order_seq_cst);
    /* Look at the queue as its consumer (seq_cst loads: see
     * wake_if_sleeping): another thread of this node may have just consumed,
     * and without the consumer flag's acquire we could read its new slot
     * sequence with its old head, think the queue empty and sleep through a
     * message whose producer saw no sleeper.  If another thread is consuming
     * right now, it sees what arrives: do not sleep then. */
    if (!atomic_exchange_explicit(&im->consumer, 1, memory_order_acquire)) {
        int ready = queue_ready(im, q);
        if (!ready)
            watch_hole(t, im, q);
        atomic_store_explicit(&im->consumer, 0, memory_order_release);
        if (!ready)
            dsm_futex_wait(&q->futex, f, timeout_ms, 1);
    } else {
        /* Another thread of this node is consuming: returning would make
         * this one spin against it, on the core it needs (the progress
         * thread looped here at 0.1 us a turn for milliseconds while the
         * application thread, descheduled inside its poll, kept the flag;
         * doc/protocol.md, "The spin handoff").  The mpi transport's
         * waiters (DSM_TP_WAIT_ON_MESSAGES) are in the same case.  Sleep:
         * the consumer wakes a sleeper at the end of its poll when a
         * message is left (shm_poll), a handler's signal does (t->wake),
         * and the timeout bounds the rest (a hold's expiry). */
        dsm_futex_wait(&q->futex, f, timeout_ms, 1);
    }
    atomic_fetch_sub_explicit(&q->sleepers, 1, memory_order_seq_cst);
}

/* A thread of this node starts (on) or stops (off) polling the queue.  The
 * stopping thread is the one that wakes the sleepers if a message came
 * while producers relied on it: pollers-- then a look at the queue, against
 * the producers' publish then a look at pollers (seq_cst, as in
 * wake_if_sleeping). */
static void shm_polling(dsm_transport *t, int on)
{
    shm_impl *im = t->impl;
    dsm_shm_queue *q = im->self_q;
    if (on) {
        atomic_fetch_add_explicit(&q->pollers, 1, memory_order_seq_cst);
        return;
    }
    atomic_fetch_sub_explicit(&q->pollers, 1, memory_order_seq_cst);
    if (atomic_load_explicit(&q->sleepers, memory_order_seq_cst) &&
        atomic_load_explicit(&q->tail, memory_order_seq_cst) !=
            atomic_load_explicit(&q->head, memory_order_seq_cst)) {
        atomic_fetch_add_explicit(&q->futex, 1, memory_order_seq_cst);
        dsm_futex_wake(&q->futex, 1);
    }
}

/* The epoch first, then the futex word (dsm_transport_shm_wait_word's
 * order); the futex wake reaches every sleeper. */
static void shm_wake(dsm_transport *t)
{
    shm_impl *im = t->impl;
    atomic_fetch_add_explicit(&im->wake_epoch, 1, memory_order_seq_cst);
    atomic_fetch_add_explicit(&im->self_q->futex, 1, memory_order_seq_cst);
    dsm_futex_wake(&im->self_q->futex, 1);
}

static void discard(void *ctx, const dsm_msg_hdr *h, const void *payload)
{
    (void)ctx, (void)h, (void)payload;
}

static int node_gone(shm_impl *im, int d)
{
    return atomic_load(&im->nodes[d].state) == DSM_NODE_FINALIZED || node_dead(im, d);
}

/* Before unmapping, deliver what is still in the overflow lists: the last
 * messages of dsm_finalize may be there, and the peers wait for them.  While
 * doing so, drain and drop our own incoming messages: after finalize they
 * mean nothing, and a peer closing at the same time may be waiting for room
 * in our queue.  Overflow to a node that finalized or died is dropped; after
 * 30 s without the peers making room we give up with a warning. */
static void shm_close(dsm_transport *t)
{
    shm_impl *im = t->impl;
    if (!im)
        return;
    uint64_t deadline = dsm_now_ns() + 30ULL * 1000000000ULL;
    while (atomic_load(&im->ovf_total)) {
        shm_poll(t, discard, NULL, 0);
        for (int d = 0; d < t->nnodes; d++) {
            ovf_list *ov = &im->ovf[d];
            pthread_mutex_lock(&ov->lock);
            flush_locked(im, ov, d);
            int drop = ov->head && (node_gone(im, d) || dsm_now_ns() > deadline);
            if (drop) {
                if (!node_gone(im, d))
                    fprintf(stderr, "dsm: node %d: shm transport: %u messages to node %d could "
                                    "not be delivered (its queue stayed full for 30 s)\n",
                            t->node, atomic_load(&ov->count), d);
                while (ov->head) {
                    ovf_msg *m = ov->head;
                    ov->head = m->next;
                    free(m);
                    atomic_fetch_sub(&ov->count, 1);
                    atomic_fetch_sub(&im->ovf_total, 1);
                }
                ov->tail = NULL;
            }
            pthread_mutex_unlock(&ov->lock);
        }
        if (atomic_load(&im->ovf_total)) {
            struct timespec ts = {0, 200000};
            nanosleep(&ts, NULL);
        }
    }
    for (int d = 0; d < t->nnodes; d++)
        pthread_mutex_destroy(&im->ovf[d].lock);
    /* The descriptor stays open (close-on-exec): DSM_SHM_FD still names it
     * if the node opens the transport again. */
    munmap(im->base, im->map_size);
    free(im->ovf);
    free(im);
    free(t);
}

unsigned dsm_transport_shm_pending(dsm_transport *t)
{
    shm_impl *im = t->impl;
    flush_all(im, t->nnodes);
    return atomic_load(&im->ovf_total);
}

void dsm_transport_shm_mark(dsm_transport *t, int state)
{
    shm_impl *im = t->impl;
    atomic_store(&im->nodes[t->node].state, (uint32_t)state);
}

int dsm_transport_shm_present(void)
{
    const char *s = getenv("DSM_SHM_FD");
    return s && *s;
}

/* dsmrun gives each node DSM_SHM_FD and its number in DSM_NODE. */
static int shm_launched_as(void)
{
    if (!dsm_transport_shm_present())
        return -1;
    const char *s = getenv("DSM_NODE");
    char *end;
    long v = s ? strtol(s, &end, 10) : 0;
    return s && *s && !*end && v >= 0 && v < DSM_SHM_MAX_NODES ? (int)v : 0;
}

/* dsmrun's clock at the start of the job, in the segment's header (also
 * DSM_CLOCK_BASE_NS): one machine, one CLOCK_MONOTONIC. */
static uint64_t shm_clock_base(dsm_transport *t)
{
    shm_impl *im = t->impl;
    return im->hdr->clock_base_ns;
}

/* Holes in a queue never come from a live, well-behaved sender: this
 * leaves one on purpose, for tests (shm_layout.h). */
int dsm_transport_shm_reserve_only(dsm_transport *t, int dst)
{
    shm_impl *im = t->impl;
    if (dst < 0 || dst >= t->nnodes || dst == t->node)
        return -1;
    dsm_shm_queue *q = queue_of(im, dst);
    uint64_t pos = atomic_load_explicit(&q->tail, memory_order_relaxed);
    for (;;) {
        uint64_t idx = pos & im->mask;
        uint64_t seq = atomic_load_explicit(&slot_of(im, q, idx)->seq, memory_order_acquire) + idx;
        if (seq != pos)
            return -1; /* full, or taken meanwhile: the test asks on an empty queue */
        if (atomic_compare_exchange_weak_explicit(&q->tail, &pos, pos + 1, memory_order_relaxed,
                                                  memory_order_relaxed))
            return 0;
    }
}

const dsm_transport_ops dsm_transport_shm_ops = {
    .name = "shm",
    .launcher = "dsmrun -n N",
    .caps = DSM_TP_NEEDS_LAUNCHER | DSM_TP_WAIT_ON_MESSAGES,
    .launched_as = shm_launched_as,
    .open = dsm_transport_shm_open,
    .attach = NULL,
    .clock_base = shm_clock_base,
    .mark = dsm_transport_shm_mark,
    .abort = NULL, /* dsmrun ends the job when a node exits non-zero */
};

/* Parse a decimal int in [lo, hi] from the environment; 0 or -1. */
static int env_int(const char *name, long lo, long hi, long *out)
{
    const char *s = getenv(name);
    char *end;
    if (!s || !*s) {
        fprintf(stderr, "dsm: shm transport: %s is not set (start the program with "
                        "dsmrun -n N prog)\n", name);
        return -1;
    }
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || *end || v < lo || v > hi) {
        fprintf(stderr, "dsm: shm transport: %s=%s is not a number between %ld and %ld\n", name, s,
                lo, hi);
        return -1;
    }
    *out = v;
    return 0;
}

dsm_transport *dsm_transport_shm_open(size_t max_payload)
{
    long fd, nnodes, node;
    if (env_int("DSM_SHM_FD", 0, INT_MAX, &fd) ||
        env_int("DSM_NODES", 1, DSM_SHM_MAX_NODES, &nnodes) ||
        env_int("DSM_NODE", 0, DSM_SHM_MAX_NODES - 1, &node))
        return NULL;
    if (node >= nnodes) {
        fprintf(stderr, "dsm: shm transport: DSM_NODE=%ld is not below DSM_NODES=%ld\n", node,
                nnodes);
        return NULL;
    }
    return dsm_transport_shm_open_fd((int)fd, (int)node, (int)nnodes, max_payload);
}

dsm_transport *dsm_transport_shm_open_fd(int fd_, int node_, int nnodes_, size_t max_payload)
{
    long fd = fd_, nnodes = nnodes_, node = node_;
    struct stat st;
    if (fstat((int)fd, &st)) {
        fprintf(stderr, "dsm: node %ld: shm transport: DSM_SHM_FD=%ld is not an open file "
                        "descriptor (%s); was the program started by dsmrun?\n", node, fd,
                strerror(errno));
        return NULL;
    }
    if (!S_ISREG(st.st_mode) || (uint64_t)st.st_size < sizeof(dsm_shm_header)) {
        if (S_ISREG(st.st_mode))
            fprintf(stderr, "dsm: node %ld: shm transport: DSM_SHM_FD=%ld is not a dsmrun "
                            "segment (only %lld bytes)\n", node, fd, (long long)st.st_size);
        else
            fprintf(stderr, "dsm: node %ld: shm transport: DSM_SHM_FD=%ld is not a dsmrun "
                            "segment (not a regular file)\n", node, fd);
        return NULL;
    }
    dsm_shm_header h;
    if (pread((int)fd, &h, sizeof h, 0) != (ssize_t)sizeof h) {
        fprintf(stderr, "dsm: node %ld: shm transport: cannot read the segment header from "
                        "DSM_SHM_FD=%ld: %s\n", node, fd, strerror(errno));
        return NULL;
    }
    if (h.magic != DSM_SHM_MAGIC) {
        fprintf(stderr, "dsm: node %ld: shm transport: DSM_SHM_FD=%ld is not a dsmrun segment "
                        "(bad magic)\n", node, fd);
        return NULL;
    }
    if (h.version != DSM_SHM_VERSION) {
        fprintf(stderr, "dsm: node %ld: shm transport: segment version %u, this library speaks "
                        "version %u (dsmrun and libdsm come from different builds)\n", node,
                h.version, DSM_SHM_VERSION);
        return NULL;
    }
    if (h.nnodes != (uint32_t)nnodes) {
        fprintf(stderr, "dsm: node %ld: shm transport: the segment is for %u nodes but "
                        "DSM_NODES=%ld\n", node, h.nnodes, nnodes);
        return NULL;
    }
    if (h.max_payload < max_payload) {
        fprintf(stderr, "dsm: node %ld: shm transport: the segment holds payloads of %llu bytes "
                        "but the block size is %zu (was DSM_BLOCK_SIZE changed after dsmrun "
                        "started?)\n", node, (unsigned long long)h.max_payload, max_payload);
        return NULL;
    }
    dsm_shm_geometry g;
    if (dsm_shm_geometry_compute(h.nnodes, h.max_payload, h.slots, &g) ||
        g.slot_size != h.slot_size || g.node_offset != h.node_offset ||
        g.job_offset != h.job_offset ||
        g.queue_offset != h.queue_offset || g.queue_size != h.queue_size ||
        g.total_size != h.total_size || (uint64_t)st.st_size < g.total_size) {
        fprintf(stderr, "dsm: node %ld: shm transport: the segment header is inconsistent "
                        "(%u slots of %u bytes, %llu bytes in all, file of %lld bytes)\n", node,
                h.slots, h.slot_size, (unsigned long long)h.total_size, (long long)st.st_size);
        return NULL;
    }
    void *base = mmap(NULL, (size_t)g.total_size, PROT_READ | PROT_WRITE, MAP_SHARED, (int)fd, 0);
    if (base == MAP_FAILED) {
        fprintf(stderr, "dsm: node %ld: shm transport: cannot map the segment (%llu bytes): %s\n",
                node, (unsigned long long)g.total_size, strerror(errno));
        return NULL;
    }
    /* Programs the node runs (system(), exec) must not inherit the segment. */
    fcntl((int)fd, F_SETFD, FD_CLOEXEC);

    dsm_transport *t = calloc(1, sizeof *t);
    shm_impl *im = calloc(1, sizeof *im);
    ovf_list *ovf = aligned_alloc(DSM_SHM_LINE, (size_t)nnodes * sizeof(ovf_list));
    if (!t || !im || !ovf) {
        fprintf(stderr, "dsm: node %ld: shm transport: out of memory\n", node);
        munmap(base, (size_t)g.total_size);
        free(t), free(im), free(ovf);
        return NULL;
    }
    memset(ovf, 0, (size_t)nnodes * sizeof(ovf_list));
    for (long d = 0; d < nnodes; d++)
        pthread_mutex_init(&ovf[d].lock, NULL);
    im->base = base;
    im->map_size = (size_t)g.total_size;
    im->fd = (int)fd;
    im->hdr = base;
    im->nodes = (dsm_shm_node *)(im->base + h.node_offset);
    im->slots = h.slots;
    im->mask = h.slots - 1;
    im->slot_size = h.slot_size;
    im->payload = (size_t)h.max_payload;
    im->ovf = ovf;
    im->self_q = queue_of(im, (int)node);
    /* The node's own queue committed now, in one call (at most
     * SHM_COMMIT_MAX of it): its slots would otherwise be fresh pages first
     * touched by the senders' copies on the miss path, 12-18 us a page on
     * this project's VM against 3.4 us committed (doc/protocol.md, "Fresh
     * pages").  Best effort: an older kernel has no such advice. */
    (void)madvise(im->self_q, (size_t)(g.queue_size < SHM_COMMIT_MAX ? g.queue_size : SHM_COMMIT_MAX),
                  MADV_POPULATE_WRITE);
    atomic_store(&im->nodes[node].pid, (int32_t)getpid());

    t->name = "shm";
    t->ops = &dsm_transport_shm_ops;
    t->node = (int)node;
    t->nnodes = (int)nnodes;
    t->max_payload = im->payload;
    t->send = shm_send;
    t->poll = shm_poll;
    t->wait = shm_wait;
    t->wake = shm_wake;
    t->polling = shm_polling;
    t->close = shm_close;
    t->job_area = im->base + g.job_offset;
    t->impl = im;
    return t;
}
