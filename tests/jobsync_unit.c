/* jobsync_unit.c - Check: the synchronisation in the job's shared memory
 * (dsm/jobsync.c) between real processes: NPROC forked children share one
 * anonymous area as the nodes of a job share the segment's.
 *   counters: every value an add returns is returned once, the total is
 *             right, an id the table cannot take gets NULL on every call;
 *   locks:    a read-modify-write of a plain word under the lock loses no
 *             update; a release by a node that does not hold it is refused
 *             and names the holder (-1: nobody);
 *   barriers: dsm_barrier_n's rounds (a node sees every node's round
 *             number after each), a count that differs from the round's
 *             first is refused naming that node and its count;
 *   collectives: rounds as above; the last to arrive finds a call that
 *             differs from node 0's. */
#define _GNU_SOURCE 1
#include <check.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../dsm/jobsync.h"
#include "../dsm/transport/transport.h"
#include "check_main.h"

#define NPROC 4
#define ADDS 20000
#define LOCKED 5000
#define ROUNDS 300

/* the test's own shared words, beside the job area */
typedef struct scratch {
    _Atomic uint8_t seen[NPROC * ADDS];
    volatile long plain;
    _Atomic uint32_t round[NPROC];
    _Atomic int bad;
} scratch;

static void *area;
static scratch *sc;

static uint64_t no_spin = 0, spin_20us = 20000;

static void setup(void)
{
    area = mmap(NULL, DSM_JOB_AREA_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    sc = mmap(NULL, sizeof *sc, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    ck_assert_ptr_ne(area, MAP_FAILED);
    ck_assert_ptr_ne(sc, MAP_FAILED);
}

static void teardown(void)
{
    munmap(area, DSM_JOB_AREA_BYTES);
    munmap(sc, sizeof *sc);
}

/* run body(node, js) in NPROC children; each child's exit status is its
 * count of failures */
static void run_nodes(int (*body)(int node, dsm_jobsync *js))
{
    pid_t pid[NPROC];
    for (int n = 0; n < NPROC; n++) {
        pid[n] = fork();
        ck_assert_int_ge(pid[n], 0);
        if (pid[n] == 0) {
            alarm(60); /* a hang is a failure */
            dsm_jobsync *js = dsm_jobsync_open(area, n, NPROC);
            _exit(js ? body(n, js) : 100);
        }
    }
    for (int n = 0; n < NPROC; n++) {
        int st;
        ck_assert_int_eq(waitpid(pid[n], &st, 0), pid[n]);
        ck_assert_msg(WIFEXITED(st), "node %d ended by signal %d", n, WTERMSIG(st));
        ck_assert_msg(WEXITSTATUS(st) == 0, "node %d: %d failures", n, WEXITSTATUS(st));
    }
}

static int count_adds(int node, dsm_jobsync *js)
{
    (void)node;
    int bad = 0;
    for (int i = 0; i < ADDS; i++) {
        _Atomic uint64_t *c = dsm_jobsync_counter(js, 77);
        uint64_t v = atomic_fetch_add(c, 1);
        if (v >= NPROC * ADDS || atomic_fetch_add(&sc->seen[v], 1) != 0)
            bad = 1;
    }
    return bad;
}

START_TEST(counters_once_each)
{
    run_nodes(count_adds);
    dsm_jobsync *js = dsm_jobsync_open(area, 0, NPROC);
    ck_assert_uint_eq(atomic_load(dsm_jobsync_counter(js, 77)), NPROC * ADDS);
    for (int v = 0; v < NPROC * ADDS; v++)
        ck_assert_uint_eq(atomic_load(&sc->seen[v]), 1);
    dsm_jobsync_close(js);
}
END_TEST

START_TEST(counters_table_full)
{
    dsm_jobsync *js = dsm_jobsync_open(area, 0, 1);
    /* more ids than slots: some must be refused, and each id's answer
     * stays the same (the decision every node must share) */
    int refused = 0;
    for (uint32_t id = 0; id < 40000; id++) {
        _Atomic uint64_t *c = dsm_jobsync_counter(js, id);
        if (!c)
            refused++;
        else
            atomic_store(c, id);
    }
    ck_assert_int_gt(refused, 40000 - 32768 - 1);
    for (uint32_t id = 0; id < 40000; id++) {
        _Atomic uint64_t *c = dsm_jobsync_counter(js, id);
        if (c)
            ck_assert_uint_eq(atomic_load(c), id);
    }
    ck_assert_ptr_null(dsm_jobsync_counter(js, UINT32_MAX));
    dsm_jobsync_close(js);
}
END_TEST

static int locked_adds(int node, dsm_jobsync *js)
{
    (void)node;
    dsm_jobsync_lock *l = dsm_jobsync_lock_of(js, 5);
    int bad = 0;
    for (int i = 0; i < LOCKED; i++) {
        dsm_jobsync_lock_acquire(js, l, dsm_jobsync_wait_plain, i % 2 ? &spin_20us : &no_spin);
        long v = sc->plain;
        if ((i & 63) == 0)
            sched_yield(); /* let another node try meanwhile */
        sc->plain = v + 1;
        bad |= dsm_jobsync_lock_release(js, l) != node;
    }
    return bad;
}

START_TEST(locks_exclude)
{
    run_nodes(locked_adds);
    ck_assert_int_eq(sc->plain, NPROC * LOCKED);
}
END_TEST

START_TEST(lock_release_by_other)
{
    dsm_jobsync *a = dsm_jobsync_open(area, 0, 2), *b = dsm_jobsync_open(area, 1, 2);
    dsm_jobsync_lock *l = dsm_jobsync_lock_of(a, 9);
    ck_assert_ptr_eq(l, dsm_jobsync_lock_of(b, 9));
    ck_assert_int_eq(dsm_jobsync_lock_release(a, l), -1); /* not locked */
    dsm_jobsync_lock_acquire(a, l, dsm_jobsync_wait_plain, NULL);
    ck_assert_int_eq(dsm_jobsync_lock_release(b, l), 0);  /* node 0 holds it */
    ck_assert_int_eq(dsm_jobsync_lock_release(a, l), 0);
    dsm_jobsync_lock_acquire(b, l, dsm_jobsync_wait_plain, NULL);      /* free again */
    ck_assert_int_eq(dsm_jobsync_lock_release(b, l), 1);
    dsm_jobsync_close(a);
    dsm_jobsync_close(b);
}
END_TEST

/* after each round's first barrier every node must see every node's
 * round number; the second barrier keeps the next round's writes out */
static int check_round(int node, uint32_t r)
{
    int bad = 0;
    for (int m = 0; m < NPROC; m++)
        bad |= atomic_load(&sc->round[m]) != r;
    (void)node;
    return bad;
}

static int barrier_rounds(int node, dsm_jobsync *js)
{
    uint32_t other[2];
    int bad = 0;
    for (uint32_t r = 1; r <= ROUNDS; r++) {
        atomic_store(&sc->round[node], r);
        bad |= dsm_jobsync_barrier(js, 3, NPROC, dsm_jobsync_wait_plain, r % 2 ? &spin_20us : NULL, other) != 0;
        bad |= check_round(node, r);
        bad |= dsm_jobsync_barrier(js, 3, NPROC, dsm_jobsync_wait_plain, NULL, other) != 0;
    }
    return bad;
}

START_TEST(barriers_rounds)
{
    run_nodes(barrier_rounds);
}
END_TEST

START_TEST(barrier_count_mismatch)
{
    dsm_jobsync *a = dsm_jobsync_open(area, 2, 3), *b = dsm_jobsync_open(area, 1, 3);
    uint32_t other[2] = { 0, 0 };
    /* node 2 arrives first for 3; node 1 says 2: refused, naming node 2 */
    pid_t p = fork();
    if (p == 0) {
        alarm(10);
        _exit(dsm_jobsync_barrier(a, 8, 3, dsm_jobsync_wait_plain, NULL, other));
    }
    usleep(100000);
    ck_assert_int_eq(dsm_jobsync_barrier(b, 8, 2, dsm_jobsync_wait_plain, NULL, other), 3);
    ck_assert_uint_eq(other[0], 2);
    ck_assert_uint_eq(other[1], 3);
    ck_assert_int_eq(dsm_jobsync_barrier(b, 8, 1u << 22, dsm_jobsync_wait_plain, NULL, other), 2);
    kill(p, SIGKILL);
    waitpid(p, NULL, 0);
    dsm_jobsync_close(a);
    dsm_jobsync_close(b);
}
END_TEST

static int collective_rounds(int node, dsm_jobsync *js)
{
    int bad = 0;
    for (uint32_t r = 1; r <= ROUNDS; r++) {
        atomic_store(&sc->round[node], r);
        int last;
        uint32_t gen = dsm_jobsync_arrive(js, r, 2, 0, &last);
        if (last) {
            uint64_t c[6];
            bad |= dsm_jobsync_mismatch(js, c) != -1;
            dsm_jobsync_release(js);
        } else {
            dsm_jobsync_wait(js, gen, dsm_jobsync_wait_plain, r % 3 ? NULL : &spin_20us);
        }
        bad |= check_round(node, r);
        gen = dsm_jobsync_arrive(js, r, 2, 0, &last);
        if (last)
            dsm_jobsync_release(js);
        else
            dsm_jobsync_wait(js, gen, dsm_jobsync_wait_plain, NULL);
    }
    return bad;
}

START_TEST(collectives_rounds)
{
    run_nodes(collective_rounds);
}
END_TEST

START_TEST(collective_mismatch)
{
    dsm_jobsync *n0 = dsm_jobsync_open(area, 0, 3), *n1 = dsm_jobsync_open(area, 1, 3),
                *n2 = dsm_jobsync_open(area, 2, 3);
    int last;
    dsm_jobsync_arrive(n0, 4, 2, 0, &last);
    ck_assert_int_eq(last, 0);
    dsm_jobsync_arrive(n1, 4, 2, 0, &last);
    ck_assert_int_eq(last, 0);
    dsm_jobsync_arrive(n2, 4, 3, 64, &last); /* another kind of call */
    ck_assert_int_eq(last, 1);
    uint64_t c[6];
    ck_assert_int_eq(dsm_jobsync_mismatch(n2, c), 2);
    ck_assert_uint_eq(c[1], 3);
    ck_assert_uint_eq(c[2], 64);
    ck_assert_uint_eq(c[4], 2);
    dsm_jobsync_close(n0);
    dsm_jobsync_close(n1);
    dsm_jobsync_close(n2);
}
END_TEST

Suite *unit_suite(void)
{
    Suite *s = suite_create("jobsync");
    TCase *tc = tcase_create("processes");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, counters_once_each);
    tcase_add_test(tc, counters_table_full);
    tcase_add_test(tc, locks_exclude);
    tcase_add_test(tc, lock_release_by_other);
    tcase_add_test(tc, barriers_rounds);
    tcase_add_test(tc, barrier_count_mismatch);
    tcase_add_test(tc, collectives_rounds);
    tcase_add_test(tc, collective_mismatch);
    suite_add_tcase(s, tc);
    return s;
}
