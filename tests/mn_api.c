/* mn_api.c - every call of dsm.h, checked across the nodes of a job.
 *
 *  - dsm_node/dsm_nodes: in range, stable, each id claimed by exactly one node,
 *    the same node count everywhere; dsm_block_size/dsm_lock_count agree.
 *  - dsm_alloc: same address on every node (node 0 publishes its addresses in
 *    shared memory, the others compare), block aligned, disjoint, zero-filled,
 *    sizes from 1 byte to several blocks, NULL names; then all nodes write
 *    interleaved pieces of every allocation and all check the whole.
 *  - dsm_malloc on every node: home is the caller (dsm_home_of), other nodes
 *    read it and write into it through pointers passed in shared memory,
 *    then dsm_free, and a new dsm_malloc after the free.
 *  - dsm_home_of: in range for shared memory, -1 outside the region.
 *  - dsm_barrier: nobody leaves a phase before everybody has entered it.
 *  - dsm_lock/dsm_unlock: mutual exclusion on several ids incl. the last.
 *  - dsm_wtime: seconds, monotonic, and one time base (a time read after a
 *    barrier is not before any time read before it, on any node).
 *
 * Usage: mn_api [ROUNDS]   (barrier and lock rounds, default 200)
 * Every failed check prints a line naming the node; exit 0 only if none. */
#include <dsm.h>
#include <math.h>
#include <sched.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAXN 256  /* nodes this test supports */
#define NALLOC 9
#define NMAL 3
#define NLOCK 4

struct ctl {
    void *self;                /* node 0's address of this struct */
    void *addr[NALLOC];        /* node 0's addresses of the test allocations */
    int claimed[MAXN];         /* how many nodes said they are node k */
    int nodes_seen[MAXN];      /* dsm_nodes() on node k */
    size_t block_size[MAXN];
    unsigned lock_count[MAXN];
    void *volatile mptr[MAXN][NMAL]; /* dsm_malloc buffers published by their owner */
    volatile int phase[MAXN];  /* barrier test */
    volatile int in_cs[NLOCK]; /* lock test */
    volatile long entries[NLOCK];
    volatile double wt[MAXN];
    int failures[MAXN];
};

static int me, nodes, failures;
static double tphase[6]; /* dsm_wtime at the start of each phase, for the summary */

static void fail(int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "mn_api: node %d: FAIL (mn_api.c:%d): ", me, line);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    failures++;
}
#define CHECK(cond, ...) do { if (!(cond)) fail(__LINE__, __VA_ARGS__); } while (0)

static uint64_t rng;
static unsigned rnd(unsigned n)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (unsigned)(rng % n);
}

/* The byte every node expects at offset i of test allocation k, and which
 * node writes it: pieces of `chunk` bytes dealt round-robin, so blocks are
 * written by several nodes at once (false sharing). */
static unsigned char pattern(int k, size_t i) { return (unsigned char)(k * 31 + i * 7 + 1); }
static int writer_of(size_t i, size_t chunk) { return (int)(i / chunk % (size_t)nodes); }

/* dsm_malloc buffers: written by the owner, then the odd bytes by its
 * successor (me+1 mod nodes). */
static unsigned char own_byte(int owner, int k, size_t i) { return (unsigned char)(owner * 13 + k * 5 + i + 3); }
static unsigned char succ_byte(int writer, int k, size_t i) { return (unsigned char)(0x80 ^ (writer * 17 + k * 3 + i)); }

int main(int argc, char **argv)
{
    if (dsm_init(&argc, &argv) != 0) {
        perror("mn_api: dsm_init");
        return 1;
    }
    me = dsm_node();
    nodes = dsm_nodes();
    int rounds = argc > 1 ? atoi(argv[1]) : 200;
    rng = 0x9E3779B97F4A7C15ull * (uint64_t)(me + 1);

    /* --- dsm_node, dsm_nodes, sizes ------------------------------------- */
    if (nodes < 1 || nodes > MAXN || me < 0 || me >= nodes) {
        fprintf(stderr, "mn_api: node %d: FAIL dsm_node()=%d dsm_nodes()=%d (test supports up to %d)\n",
                me, me, nodes, MAXN);
        return 1;
    }
    CHECK(dsm_node() == me && dsm_nodes() == nodes, "dsm_node/dsm_nodes changed between calls");
    size_t bs = dsm_block_size();
    long page = sysconf(_SC_PAGESIZE);
    CHECK(bs >= 8 && (bs & (bs - 1)) == 0, "dsm_block_size() = %zu is not a power of two", bs);
    CHECK(bs % (size_t)page == 0 || bs < (size_t)page, "dsm_block_size() = %zu vs page %ld", bs, page);
    unsigned nlocks = dsm_lock_count();
    CHECK(nlocks >= 1, "dsm_lock_count() = %u", nlocks);
    if (bs < 8 || (bs & (bs - 1)) || nlocks < 1)
        return 1;

    /* --- dsm_alloc ------------------------------------------------------- */
    tphase[0] = dsm_wtime();
    struct ctl *ctl = dsm_alloc(sizeof *ctl, "mn_api.ctl");
    size_t sizes[NALLOC] = { 1, 8, 100, bs - 1, bs, bs + 1, 3 * bs + 5, 64 * 1024 + 3, 1 };
    unsigned char *p[NALLOC];
    if (!ctl) {
        fprintf(stderr, "mn_api: node %d: FAIL dsm_alloc(%zu, \"mn_api.ctl\") returned NULL\n", me, sizeof *ctl);
        return 1;
    }
    for (int k = 0; k < NALLOC; k++) {
        p[k] = dsm_alloc(sizes[k], k % 2 ? NULL : "mn_api.alloc");
        if (!p[k]) {
            fprintf(stderr, "mn_api: node %d: FAIL dsm_alloc(%zu) #%d returned NULL\n", me, sizes[k], k);
            return 1;
        }
    }
    CHECK((uintptr_t)ctl % bs == 0, "dsm_alloc returned %p, not aligned to the block size %zu", (void *)ctl, bs);
    for (int k = 0; k < NALLOC; k++) {
        CHECK((uintptr_t)p[k] % bs == 0, "dsm_alloc #%d returned %p, not block aligned", k, (void *)p[k]);
        int h0 = dsm_home_of(p[k]), h1 = dsm_home_of(p[k] + sizes[k] - 1);
        CHECK(h0 >= 0 && h0 < nodes && h1 >= 0 && h1 < nodes,
              "dsm_home_of on dsm_alloc #%d (%p, %zu bytes) gave %d and %d", k, (void *)p[k], sizes[k], h0, h1);
        /* disjoint from the others and from ctl */
        uintptr_t a = (uintptr_t)p[k], ae = a + sizes[k];
        CHECK(ae <= (uintptr_t)ctl || a >= (uintptr_t)ctl + sizeof *ctl, "dsm_alloc #%d overlaps the first", k);
        for (int j = 0; j < k; j++) {
            uintptr_t b = (uintptr_t)p[j], be = b + sizes[j];
            CHECK(ae <= b || a >= be, "dsm_alloc #%d [%p,+%zu) overlaps #%d [%p,+%zu)", k, (void *)p[k],
                  sizes[k], j, (void *)p[j], sizes[j]);
        }
    }
    for (int k = 0; k < NALLOC; k++) {
        size_t nz = 0;
        for (size_t i = 0; i < sizes[k]; i++)
            nz += p[k][i] != 0;
        CHECK(nz == 0, "dsm_alloc #%d (%zu bytes): %zu bytes not zero", k, sizes[k], nz);
    }
    {
        size_t nz = 0;
        for (size_t i = 0; i < sizeof *ctl; i++)
            nz += ((unsigned char *)ctl)[i] != 0;
        CHECK(nz == 0, "dsm_alloc of %zu bytes: %zu bytes not zero", sizeof *ctl, nz);
    }
    int h = dsm_home_of(&rounds);
    CHECK(h == -1, "dsm_home_of(stack address) = %d, expected -1", h);
    h = dsm_home_of(NULL);
    CHECK(h == -1, "dsm_home_of(NULL) = %d, expected -1", h);
    dsm_barrier(); /* everybody has checked the zeros before anybody writes */

    if (me == 0) {
        ctl->self = ctl;
        for (int k = 0; k < NALLOC; k++)
            ctl->addr[k] = p[k];
    }
    dsm_lock(0);
    ctl->claimed[me]++;
    dsm_unlock(0);
    ctl->nodes_seen[me] = nodes;
    ctl->block_size[me] = bs;
    ctl->lock_count[me] = nlocks;
    for (int k = 0; k < NALLOC; k++) {
        size_t chunk = sizes[k] > 4 * bs ? bs / 2 : 8;
        for (size_t i = 0; i < sizes[k]; i++)
            if (writer_of(i, chunk) == me)
                p[k][i] = pattern(k, i);
    }
    dsm_barrier();

    CHECK(ctl->self == (void *)ctl, "dsm_alloc #0: node 0 got %p, this node %p", ctl->self, (void *)ctl);
    for (int k = 0; k < NALLOC; k++)
        CHECK(ctl->addr[k] == (void *)p[k], "dsm_alloc #%d (%zu bytes): node 0 got %p, this node %p",
              k + 1, sizes[k], ctl->addr[k], (void *)p[k]);
    for (int n = 0; n < nodes; n++) {
        CHECK(ctl->claimed[n] == 1, "%d nodes have dsm_node() == %d", ctl->claimed[n], n);
        CHECK(ctl->nodes_seen[n] == nodes, "node %d has dsm_nodes() = %d, this node %d", n,
              ctl->nodes_seen[n], nodes);
        CHECK(ctl->block_size[n] == bs, "node %d has dsm_block_size() = %zu, this node %zu", n,
              ctl->block_size[n], bs);
        CHECK(ctl->lock_count[n] == nlocks, "node %d has dsm_lock_count() = %u, this node %u", n,
              ctl->lock_count[n], nlocks);
    }
    for (int k = 0; k < NALLOC; k++) {
        size_t chunk = sizes[k] > 4 * bs ? bs / 2 : 8, bad = 0, first = 0;
        for (size_t i = 0; i < sizes[k]; i++)
            if (p[k][i] != pattern(k, i) && bad++ == 0)
                first = i;
        CHECK(bad == 0, "dsm_alloc #%d: %zu bytes wrong, first at offset %zu = %u, expected %u (written by node %d)",
              k + 1, bad, first, p[k][first], pattern(k, first), writer_of(first, chunk));
    }

    /* --- dsm_malloc, dsm_home_of, dsm_free ------------------------------- */
    tphase[1] = dsm_wtime();
    size_t msz[NMAL] = { 1, 64, bs + 100 };
    unsigned char *m[NMAL];
    for (int k = 0; k < NMAL; k++) {
        m[k] = dsm_malloc(msz[k], k == 1 ? NULL : "mn_api.malloc");
        if (!m[k]) {
            fprintf(stderr, "mn_api: node %d: FAIL dsm_malloc(%zu) returned NULL\n", me, msz[k]);
            return 1;
        }
        int h0 = dsm_home_of(m[k]), h1 = dsm_home_of(m[k] + msz[k] - 1);
        CHECK(h0 == me && h1 == me, "dsm_malloc(%zu) = %p: dsm_home_of gives %d and %d, expected %d",
              msz[k], (void *)m[k], h0, h1, me);
        for (size_t i = 0; i < msz[k]; i++)
            m[k][i] = own_byte(me, k, i);
        ctl->mptr[me][k] = m[k];
    }
    dsm_barrier();
    int succ = (me + 1) % nodes, pred = (me + nodes - 1) % nodes;
    for (int n = 0; n < nodes; n++)
        for (int k = 0; k < NMAL; k++) {
            unsigned char *q = ctl->mptr[n][k];
            int hq = dsm_home_of(q);
            CHECK(hq == n, "dsm_home_of(%p) = %d for node %d's dsm_malloc", (void *)q, hq, n);
            if (!q || hq < 0)
                continue;
            size_t bad = 0;
            for (size_t i = 0; i < msz[k]; i++)
                bad += q[i] != own_byte(n, k, i);
            CHECK(bad == 0, "node %d's dsm_malloc(%zu) at %p: %zu bytes differ from what it wrote",
                  n, msz[k], (void *)q, bad);
        }
    dsm_barrier(); /* all have read the owners' bytes */
    for (int k = 0; k < NMAL; k++) {
        unsigned char *q = ctl->mptr[succ][k];
        if (nodes > 1 && q && dsm_home_of(q) == succ)
            for (size_t i = 1; i < msz[k]; i += 2)
                q[i] = succ_byte(me, k, i);
    }
    dsm_barrier();
    for (int k = 0; k < NMAL; k++) {
        size_t bad = 0;
        for (size_t i = 0; i < msz[k]; i++)
            bad += m[k][i] != (nodes > 1 && i % 2 ? succ_byte(pred, k, i) : own_byte(me, k, i));
        CHECK(bad == 0, "dsm_malloc(%zu) at %p after node %d wrote its odd bytes: %zu bytes wrong",
              msz[k], (void *)m[k], pred, bad);
    }
    dsm_barrier(); /* nobody touches the buffers any more */
    for (int k = 0; k < NMAL; k++) {
        dsm_free(m[k]);
        ctl->mptr[me][k] = NULL;
    }
    for (int k = 0; k < 4; k++) {
        unsigned char *q = dsm_malloc(100 + (size_t)k * bs, "mn_api.again");
        CHECK(q != NULL && dsm_home_of(q) == me, "dsm_malloc after dsm_free: %p home %d", (void *)q,
              dsm_home_of(q));
        if (q) {
            memset(q, 0x5a, 100);
            CHECK(q[99] == 0x5a, "dsm_malloc after dsm_free: memory not writable");
            dsm_free(q);
        }
    }

    /* --- dsm_barrier ------------------------------------------------------ */
    tphase[2] = dsm_wtime();
    for (int r = 1; r <= rounds; r++) {
        if (rnd(4) == 0)
            usleep(rnd(200)); /* stagger the arrivals */
        ctl->phase[me] = r;
        dsm_barrier();
        for (int n = 0; n < nodes; n++)
            if (ctl->phase[n] != r) {
                fail(__LINE__, "barrier round %d: node %d is at phase %d", r, n, ctl->phase[n]);
                break;
            }
        dsm_barrier(); /* nobody writes round r+1 before all have checked r */
    }

    /* --- dsm_lock / dsm_unlock ------------------------------------------- */
    tphase[3] = dsm_wtime();
    /* With few locks some ids repeat: slots with the same id are then
     * protected by the same lock, which is still correct. */
    unsigned ids[NLOCK] = { 0, nlocks > 1 ? 1 : 0, nlocks / 2, nlocks - 1 };
    for (int r = 0; r < rounds; r++) {
        int l = (int)rnd(NLOCK);
        dsm_lock(ids[l]);
        int in = ++ctl->in_cs[l];
        if (in != 1)
            fail(__LINE__, "lock %u: %d nodes inside the critical section", ids[l], in);
        ctl->entries[l]++;
        if (rnd(8) == 0)
            sched_yield(); /* let another node try to get in */
        ctl->in_cs[l]--;
        dsm_unlock(ids[l]);
    }
    dsm_barrier();
    long total = 0;
    for (int l = 0; l < NLOCK; l++) {
        CHECK(ctl->in_cs[l] == 0, "lock %u: in_cs = %d after the test", ids[l], ctl->in_cs[l]);
        total += ctl->entries[l];
    }
    CHECK(total == (long)nodes * rounds, "lock test: %ld critical sections recorded, expected %ld",
          total, (long)nodes * rounds);

    /* --- dsm_wtime --------------------------------------------------------- */
    tphase[4] = dsm_wtime();
    double t0 = dsm_wtime(), prev = t0;
    CHECK(isfinite(t0) && t0 >= 0, "dsm_wtime() = %g", t0);
    for (int i = 0; i < 10000; i++) {
        double t = dsm_wtime();
        if (t < prev) {
            fail(__LINE__, "dsm_wtime went back from %.9f to %.9f", prev, t);
            break;
        }
        prev = t;
    }
    usleep(20000);
    double t1 = dsm_wtime();
    CHECK(t1 - t0 >= 0.019 && t1 - t0 < 5.0, "dsm_wtime: 20 ms of sleep measured as %g s", t1 - t0);
    ctl->wt[me] = dsm_wtime();
    dsm_barrier();
    double after = dsm_wtime();
    for (int n = 0; n < nodes; n++)
        CHECK(after >= ctl->wt[n] - 1e-3, "dsm_wtime: %.6f read after a barrier is before node %d's %.6f"
              " read before it (clock bases differ)", after, n, ctl->wt[n]);

    /* --- gather the verdict ------------------------------------------------ */
    tphase[5] = dsm_wtime();
    ctl->failures[me] = failures;
    dsm_barrier();
    if (me == 0) {
        int bad_nodes = 0;
        for (int n = 0; n < nodes; n++)
            bad_nodes += ctl->failures[n] != 0;
        if (bad_nodes)
            printf("mn_api: %d nodes: %d of them failed checks (see the FAIL lines)\n", nodes, bad_nodes);
        else
            printf("mn_api: %d nodes, block %zu, %u locks: all checks passed\n", nodes, bs, nlocks);
        printf("mn_api: seconds in alloc %.2f, malloc %.2f, barrier %.2f, lock %.2f, wtime %.2f\n",
               tphase[1] - tphase[0], tphase[2] - tphase[1], tphase[3] - tphase[2],
               tphase[4] - tphase[3], tphase[5] - tphase[4]);
        fflush(stdout);
    }
    dsm_barrier();
    dsm_finalize();
    return failures ? 1 : 0;
}
