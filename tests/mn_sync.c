/* mn_sync.c - the synchronisation objects made on demand, with more
 * threads than nodes: T threads on every node take part.
 *
 *   locks     node 0 makes LOCKS locks with dsm_lock_new (more than the
 *             1024 DSM_LOCKS ids) and stores the ids in shared memory;
 *             every thread adds 1 to counter i under lock i, for every i,
 *             ROUNDS times; each counter must end at nodes * T * ROUNDS
 *             (a lock that admitted two threads at once loses updates)
 *   barrier   dsm_barrier_n over nodes * T threads: each round every
 *             thread adds 1 under a lock, waits, and checks the total is
 *             exactly round * nodes * T (one early leaver sees less)
 *   cond      a bounded queue of 4 slots with a made condition variable
 *             and lock: thread 0 of node 0 produces ITEMS numbers, the
 *             other threads consume; the consumed sum and count must match
 *             (a lost wake-up hangs, which the test's timeout turns into
 *             a failure)
 *   atomic    every thread adds 1 to a made atomic counter (dsm_atomic_add)
 *             ATOM_ADDS times a round: the counter must end at the number
 *             of adds and every value before an add must be returned
 *             exactly once (one order at the manager); and message
 *             passing: thread 0 of node 0 writes a word, then adds 1 to a
 *             second counter; a thread that loads (dsm_atomic_load) the
 *             count k must then read a word of at least k (sequential
 *             consistency across the counter and shared memory)
 *   idle      (argv[1] = idle) every node's thread but node 0's waits on a
 *             condition and then at a barrier while node 0 sleeps 1 s
 *             before it signals: each waiter's own CPU time over the wait
 *             must stay under 0.2 s (waiting blocks; a poll would burn the
 *             whole second)
 * Misuse (argv[1]):
 *   barrier-mismatch   two nodes give one barrier different counts
 *   cond-unlocked      dsm_cond_wait without its lock held
 *   lock-bad           a lock id neither fixed nor made
 * Usage: mn_sync [THREADS [ROUNDS]] | mn_sync MISUSE
 * Prints "mn_sync: locks/barrier/cond: OK" on node 0. */
#include <dsm.h>
#include <pthread.h>
#include <sched.h>
#include <time.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LOCKS 1500
#define ITEMS 400
#define QCAP 4
#define ATOM_ADDS 20
#define ATOM_MAX 4096 /* adds of a run: nodes * threads * rounds * ATOM_ADDS */
#define MP_STEPS 10

struct shared {
    unsigned locks[LOCKS];
    long count[LOCKS];
    unsigned total_lock, barrier;
    long total;
    /* the queue */
    unsigned qlock, not_empty, not_full;
    long q[QCAP];
    int qhead, qlen, done;
    long consumed_sum, consumed_n;
    int errors;
    /* atomic counters */
    unsigned atomic, mp_flag;
    long mp_data;
    char atomic_seen[ATOM_MAX];
};

static struct shared *S;
static int nodes, me, T, rounds;

static void fail(const char *what, long got, long want)
{
    fprintf(stderr, "mn_sync: node %d: %s: %ld, expected %ld\n", me, what, got, want);
    dsm_lock(S->total_lock);
    S->errors++;
    dsm_unlock(S->total_lock);
}

static void *worker(void *arg)
{
    int t = (int)(long)arg;
    unsigned all = (unsigned)(nodes * T);
    for (int r = 0; r < rounds; r++)
        for (int i = 0; i < LOCKS; i += 1 + (i % 3)) {
            dsm_lock(S->locks[i]);
            S->count[i]++;
            dsm_unlock(S->locks[i]);
        }
    for (int r = 1; r <= 5; r++) {
        dsm_lock(S->total_lock);
        S->total++;
        dsm_unlock(S->total_lock);
        dsm_barrier_n(S->barrier, all);
        long seen = S->total;
        if (seen != (long)r * all)
            fail("barrier: total after the round", seen, (long)r * all);
        dsm_barrier_n(S->barrier, all);
    }
    long adds = (long)all * rounds * ATOM_ADDS;
    for (int r = 0; r < rounds * ATOM_ADDS && adds <= ATOM_MAX; r++) {
        long old = dsm_atomic_add(S->atomic, 1);
        if (old < 0 || old >= adds)
            fail("atomic: a value before an add", old, adds);
        else if (S->atomic_seen[old]++)
            fail("atomic: a value returned twice", old, -1);
    }
    if (me == 0 && t == 0) {
        for (long k = 1; k <= MP_STEPS; k++) {
            S->mp_data = k;
            dsm_atomic_add(S->mp_flag, 1);
        }
    } else {
        for (long k = 1; k <= MP_STEPS; k++) {
            long seen;
            while ((seen = dsm_atomic_load(S->mp_flag)) < k)
                sched_yield();
            long data = S->mp_data;
            if (data < seen)
                fail("atomic: message passing, the word after the count", data, seen);
        }
    }
    dsm_barrier_n(S->barrier, all);
    if (me == 0 && t == 0) { /* the producer */
        for (long v = 1; v <= ITEMS; v++) {
            dsm_lock(S->qlock);
            while (S->qlen == QCAP)
                dsm_cond_wait(S->not_full, S->qlock);
            S->q[(S->qhead + S->qlen++) % QCAP] = v;
            dsm_cond_signal(S->not_empty);
            dsm_unlock(S->qlock);
        }
        dsm_lock(S->qlock);
        S->done = 1;
        dsm_cond_broadcast(S->not_empty);
        dsm_unlock(S->qlock);
    } else if (all > 1) {
        for (;;) {
            dsm_lock(S->qlock);
            while (S->qlen == 0 && !S->done)
                dsm_cond_wait(S->not_empty, S->qlock);
            if (S->qlen == 0) {
                dsm_unlock(S->qlock);
                break;
            }
            long v = S->q[S->qhead];
            S->qhead = (S->qhead + 1) % QCAP;
            S->qlen--;
            S->consumed_sum += v;
            S->consumed_n++;
            dsm_cond_signal(S->not_full);
            dsm_unlock(S->qlock);
        }
    }
    return NULL;
}

int main(int argc, char **argv)
{
    if (dsm_init(&argc, &argv)) {
        perror("mn_sync: dsm_init");
        return 1;
    }
    me = dsm_node();
    nodes = dsm_nodes();
    const char *misuse = argc > 1 && (argv[1][0] < '0' || argv[1][0] > '9') ? argv[1] : NULL;
    T = argc > 1 && !misuse ? atoi(argv[1]) : 3;
    rounds = argc > 2 ? atoi(argv[2]) : 2;
    if (T < 1 || rounds < 1) {
        fprintf(stderr, "usage: mn_sync [THREADS [ROUNDS]] | mn_sync MISUSE\n");
        return 2;
    }
    S = dsm_alloc(sizeof *S, "mn_sync");
    if (me == 0) {
        for (int i = 0; i < LOCKS; i++) {
            S->locks[i] = dsm_lock_new();
            for (int j = 0; j < i; j += 97) /* ids are unique */
                if (S->locks[j] == S->locks[i])
                    fail("dsm_lock_new returned an id twice", (long)S->locks[i], -1);
        }
        S->total_lock = dsm_lock_new();
        S->barrier = dsm_barrier_new();
        S->qlock = dsm_lock_new();
        S->not_empty = dsm_cond_new();
        S->not_full = dsm_cond_new();
        S->atomic = dsm_lock_new(); /* any made id names an atomic counter too */
        S->mp_flag = dsm_lock_new();
    }
    dsm_barrier();
    if (misuse && !strcmp(misuse, "idle")) {
        struct timespec c0, c1;
        double w0 = dsm_wtime();
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c0);
        if (me == 0) {
            sleep(1);
            dsm_lock(S->qlock);
            S->done = 1;
            dsm_cond_broadcast(S->not_empty);
            dsm_unlock(S->qlock);
        } else {
            dsm_lock(S->qlock);
            while (!S->done)
                dsm_cond_wait(S->not_empty, S->qlock);
            dsm_unlock(S->qlock);
        }
        dsm_barrier_n(S->barrier, (unsigned)nodes);
        if (me == 0)
            sleep(1); /* the others wait at the barrier meanwhile */
        dsm_barrier_n(S->barrier, (unsigned)nodes);
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c1);
        double cpu = (double)(c1.tv_sec - c0.tv_sec) + (double)(c1.tv_nsec - c0.tv_nsec) / 1e9;
        double wall = dsm_wtime() - w0;
        int bad = me != 0 && cpu >= 0.2;
        printf("mn_sync: idle: node %d waited %.2f s using %.3f s of CPU%s\n", me, wall, cpu,
               bad ? ": too much, it polls" : "");
        if (bad) {
            dsm_lock(S->total_lock);
            S->errors++;
            dsm_unlock(S->total_lock);
        }
        dsm_barrier();
        int ok = S->errors == 0;
        if (me == 0 && ok)
            printf("mn_sync: idle waiting on %d nodes: OK\n", nodes);
        dsm_barrier();
        dsm_finalize();
        return ok ? 0 : 1;
    }
    if (misuse) {
        if (!strcmp(misuse, "barrier-mismatch")) {
            dsm_barrier_n(S->barrier, me == 0 ? (unsigned)nodes : (unsigned)nodes + 1);
        } else if (!strcmp(misuse, "cond-unlocked")) {
            if (me == nodes - 1)
                dsm_cond_wait(S->not_empty, S->qlock);
        } else if (!strcmp(misuse, "lock-bad")) {
            if (me == nodes - 1)
                dsm_lock(0x40000000u);
        }
        dsm_barrier();
        dsm_finalize();
        return 0;
    }
    pthread_t *th = calloc((size_t)T, sizeof *th);
    for (int t = 0; t < T; t++)
        if (pthread_create(&th[t], NULL, worker, (void *)(long)t)) {
            perror("mn_sync: pthread_create");
            return 1;
        }
    for (int t = 0; t < T; t++)
        pthread_join(th[t], NULL);
    dsm_barrier();
    int ok = 1;
    if (me == 0) {
        long want = (long)nodes * T * rounds;
        for (int i = 0; i < LOCKS; i += 1 + (i % 3))
            if (S->count[i] != want) {
                fail("locks: a counter", S->count[i], want);
                break;
            }
        long adds = (long)nodes * T * rounds * ATOM_ADDS;
        if (adds <= ATOM_MAX) {
            if (dsm_atomic_load(S->atomic) != adds)
                fail("atomic: the counter at the end", dsm_atomic_load(S->atomic), adds);
            for (long i = 0; i < adds; i++)
                if (S->atomic_seen[i] != 1) {
                    fail("atomic: times a value was returned", S->atomic_seen[i], 1);
                    break;
                }
        }
        long items = nodes * T > 1 ? ITEMS : 0;
        if (nodes * T > 1 && (S->consumed_n != items || S->consumed_sum != items * (items + 1) / 2))
            fail("cond: items consumed", S->consumed_n, items);
        ok = S->errors == 0;
        if (ok)
            printf("mn_sync: locks/barrier/atomic/cond on %d nodes x %d threads: OK\n", nodes, T);
    }
    dsm_barrier();
    free(th);
    dsm_finalize();
    return ok ? 0 : 1;
}
