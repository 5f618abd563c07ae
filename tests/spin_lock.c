/* spin_lock.c - a program that spins on shared data without entering the
 * runtime: a test-and-set lock of its own in DSM memory (as apps/sor's pool
 * lock), taken by every node in turn for SECONDS, each holder adding 1 to a
 * shared counter.  Each node counts its own increments; at the end the
 * shared counter must equal their sum (the lock admitted one node at a
 * time and no update was lost).  Bound to one core per node, the spinning
 * holds the core its progress thread needs (tests/progress_move.sh,
 * dsm/progress_place.c).  Prints "spin_lock: OK N" on node 0.
 * Usage: spin_lock [SECONDS] (default 0.6) */
#include <dsm.h>
#include <stdio.h>
#include <stdlib.h>

#define PAGE 4096

struct shared {
    int lock;
    char pad0[PAGE - sizeof(int)];
    long counter;
    char pad1[PAGE - sizeof(long)];
    long mine[64]; /* each node's own count, written after the spinning */
};

int main(int argc, char **argv)
{
    double seconds = argc > 1 ? atof(argv[1]) : 0.6;
    if (!(seconds > 0 && seconds < 60)) {
        fprintf(stderr, "spin_lock: SECONDS must be in (0, 60), not '%s'\n", argv[1]);
        return 2;
    }
    dsm_init(&argc, &argv);
    int me = dsm_node(), n = dsm_nodes();
    if (n > 64) {
        fprintf(stderr, "spin_lock: at most 64 nodes\n");
        dsm_finalize();
        return 2;
    }
    struct shared *s = dsm_alloc(sizeof *s, "spin_lock.shared");
    dsm_barrier();
    long done = 0;
    double end = dsm_wtime() + seconds;
    while (dsm_wtime() < end) {
        while (__atomic_exchange_n(&s->lock, 1, __ATOMIC_ACQUIRE))
            ; /* no yield: the core stays the program's */
        s->counter++;
        __atomic_store_n(&s->lock, 0, __ATOMIC_RELEASE);
        done++;
    }
    s->mine[me] = done;
    dsm_barrier();
    int rc = 0;
    if (me == 0) {
        long sum = 0;
        for (int i = 0; i < n; i++)
            sum += s->mine[i];
        if (sum != s->counter || sum < 1) {
            fprintf(stderr, "spin_lock: counter %ld, the nodes counted %ld\n", s->counter, sum);
            rc = 1;
        } else {
            printf("spin_lock: OK %ld\n", sum);
        }
    }
    dsm_barrier();
    dsm_finalize();
    return rc;
}
