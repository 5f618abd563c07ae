/* argo_core.cpp - bench_core's rows measured on ArgoDSM (built beside the
 * project, never part of it; bench/argo/run.sh builds this against it).
 * Run on exactly 2 MPI ranks: mpirun -np 2 argo_core [PAGES [ROUNDS]].
 *
 * Node 1 is the requester, node 0 the home (ArgoDSM's naive distribution
 * homes the first half of the global space on node 0; every array here lies
 * there).  Each figure is the median over ROUNDS rounds of PAGES operations,
 * timed on node 1 alone, one word per 4 KiB page:
 *   read cold    first read of a page never touched by node 1
 *   read warm    read of a page node 1 had cached, invalidated at a barrier
 *                because the home wrote it (the sharer registration is
 *                already in place: only the data fetch is left)
 *   write cold   first write of a page never touched (fetch + twin + writer
 *                registration at the home)
 *   write warm   write of a page node 1 had written, invalidated as above
 *   handoff, barrier     a counter incremented in turn by the 2 nodes; the
 *                turn passes at argo::barrier() (ArgoDSM is data-race-free
 *                consistent: a plain spin on a page never sees the other
 *                node's write without an acquire), per handoff
 *   handoff, atomics     the same counter driven by ArgoDSM's atomics:
 *                spin with backend::atomic::load, increment with
 *                backend::atomic::store, memory_order relaxed (one-sided MPI
 *                operations on the home's word, no coherence action) and
 *                acquire/release (each spin load self-invalidates, each store
 *                flushes the write buffer: the DRF idiom), per handoff
 * Probes (plain MPI, the same ranks): round trip of 8 bytes (Send/Recv) and
 * a passive-target MPI_Get of one page (lock, get, unlock).
 * Prints "argo: NAME us" lines (bench/argo/run.sh reads them). */
#include <mpi.h>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "argo.hpp"

namespace {
const std::size_t page = 4096;

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    std::size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* node 1 times op over pages [set*npages, (set+1)*npages) of base; us per op */
template<typename F>
double timed(char *base, std::size_t set, std::size_t npages, F op)
{
    double us = 0;
    argo::barrier();
    if (argo::node_id() == 1) {
        char *p = base + set * npages * page;
        double t0 = MPI_Wtime();
        for (std::size_t i = 0; i < npages; i++)
            op(reinterpret_cast<volatile long *>(p + i * page));
        us = (MPI_Wtime() - t0) * 1e6 / static_cast<double>(npages);
    }
    argo::barrier();
    return us;
}

/* the home writes one word of every page of a set: node 1's copies are
 * invalidated at the next barrier (self-invalidation of pages with a writer) */
void home_writes(char *base, std::size_t set, std::size_t npages)
{
    if (argo::node_id() == 0) {
        char *p = base + set * npages * page;
        for (std::size_t i = 0; i < npages; i++)
            reinterpret_cast<volatile long *>(p + i * page)[1] += 1;
    }
    argo::barrier();
}
}  // namespace

int main(int argc, char **argv)
{
    std::size_t npages = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 1000;
    std::size_t rounds = argc > 2 ? std::strtoul(argv[2], nullptr, 10) : 7;
    std::size_t handoffs = argc > 3 ? std::strtoul(argv[3], nullptr, 10) : 200;
    if (npages < 1 || rounds < 1 || handoffs < 2) {
        std::fprintf(stderr, "usage: argo_core [PAGES [ROUNDS [HANDOFFS]]]\n");
        return 2;
    }
    std::size_t data = 2 * rounds * npages * page + page;
    /* twice the data (node 0 homes the first half) and a cache that holds it all */
    argo::init(2 * data + (1 << 20), data + (1 << 20));
    if (argo::number_of_nodes() != 2) {
        if (argo::node_id() == 0)
            std::fprintf(stderr, "argo_core: run on exactly 2 ranks\n");
        argo::finalize();
        return 2;
    }
    int me = argo::node_id();
    char *reads = argo::conew_array<char>(rounds * npages * page);
    char *writes = argo::conew_array<char>(rounds * npages * page);
    long *ctr = argo::conew_array<long>(page / sizeof(long));
    if (me == 0) {
        /* touch everything at the home, so node 1's misses are remote data */
        for (std::size_t i = 0; i < rounds * npages; i++) {
            reads[i * page] = 1;
            writes[i * page] = 1;
        }
        ctr[0] = 0;
    }
    argo::barrier();

    std::vector<double> rc, rw, wc, ww;
    for (std::size_t r = 0; r < rounds; r++)
        rc.push_back(timed(reads, r, npages, [](volatile long *w) { (void)w[0]; }));
    for (std::size_t r = 0; r < rounds; r++)
        wc.push_back(timed(writes, r, npages, [](volatile long *w) { w[0] = 2; }));
    for (std::size_t r = 0; r < rounds; r++) {
        home_writes(reads, r, npages);
        rw.push_back(timed(reads, r, npages, [](volatile long *w) { (void)w[0]; }));
    }
    for (std::size_t r = 0; r < rounds; r++) {
        home_writes(writes, r, npages);
        ww.push_back(timed(writes, r, npages, [](volatile long *w) { w[0] = 3; }));
    }

    /* handoff at a barrier: iteration i belongs to node i % 2 */
    std::vector<double> hb;
    for (std::size_t r = 0; r < rounds; r++) {
        argo::barrier();
        double t0 = MPI_Wtime();
        for (std::size_t i = 0; i < handoffs; i++) {
            if (static_cast<int>(i % 2) == me)
                reinterpret_cast<volatile long *>(ctr)[0] += 1;
            argo::barrier();
        }
        hb.push_back((MPI_Wtime() - t0) * 1e6 / static_cast<double>(handoffs));
    }
    long want = static_cast<long>(rounds * handoffs);
    bool ok = ctr[0] == want;

    /* handoff with atomics on the counter's word */
    namespace at = argo::backend::atomic;
    using mo = argo::atomic::memory_order;
    argo::backend::global_ptr<long> gctr(&ctr[8]);
    std::vector<double> ha[2];
    const mo orders[2][2] = { { mo::relaxed, mo::relaxed }, { mo::acquire, mo::release } };
    for (int o = 0; o < 2; o++) {
        if (me == 0)
            at::store(gctr, 0L, mo::release);
        argo::barrier();
        for (std::size_t r = 0; r < rounds; r++) {
            argo::barrier();
            long base = static_cast<long>(r * handoffs);
            double t0 = MPI_Wtime();
            for (long v = base + me; v < base + static_cast<long>(handoffs); v += 2) {
                while (at::load(gctr, orders[o][0]) != v)
                    ;
                at::store(gctr, v + 1, orders[o][1]);
            }
            ha[o].push_back((MPI_Wtime() - t0) * 1e6 / static_cast<double>(handoffs));
        }
        argo::barrier();
        ok = ok && at::load(gctr, mo::acquire) == want;
        /* both have read it before node 0 resets it for the next order */
        argo::barrier();
    }

    /* probes: plain MPI on the same ranks */
    std::vector<double> rtt, get;
    std::vector<char> buf(page);
    MPI_Win win;
    std::vector<char> winmem(page);
    MPI_Win_create(winmem.data(), page, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    for (std::size_t r = 0; r < rounds; r++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        long x = 0;
        for (std::size_t i = 0; i < npages; i++) {
            if (me == 1) {
                MPI_Send(&x, 1, MPI_LONG, 0, 0, MPI_COMM_WORLD);
                MPI_Recv(&x, 1, MPI_LONG, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else {
                MPI_Recv(&x, 1, MPI_LONG, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(&x, 1, MPI_LONG, 1, 0, MPI_COMM_WORLD);
            }
        }
        rtt.push_back((MPI_Wtime() - t0) * 1e6 / static_cast<double>(npages));
        MPI_Barrier(MPI_COMM_WORLD);
        if (me == 1) {
            t0 = MPI_Wtime();
            for (std::size_t i = 0; i < npages; i++) {
                MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
                MPI_Get(buf.data(), page, MPI_BYTE, 0, 0, page, MPI_BYTE, win);
                MPI_Win_unlock(0, win);
            }
            get.push_back((MPI_Wtime() - t0) * 1e6 / static_cast<double>(npages));
        }
        MPI_Barrier(MPI_COMM_WORLD);
    }
    MPI_Win_free(&win);

    if (me == 1) {
        std::printf("argo: remote read miss cold %.2f us\n", median(rc));
        std::printf("argo: remote read miss warm %.2f us\n", median(rw));
        std::printf("argo: remote write miss cold %.2f us\n", median(wc));
        std::printf("argo: remote write miss warm %.2f us\n", median(ww));
        std::printf("argo: handoff barrier %.2f us\n", median(hb));
        std::printf("argo: handoff atomics relaxed %.2f us\n", median(ha[0]));
        std::printf("argo: handoff atomics acqrel %.2f us\n", median(ha[1]));
        std::printf("argo: probe mpi round trip %.2f us\n", median(rtt));
        std::printf("argo: probe mpi get page %.2f us\n", median(get));
        std::printf("argo: counter %s\n", ok ? "OK" : "WRONG");
        std::fflush(stdout);
    }
    argo::barrier();
    argo::finalize();
    return ok ? 0 : 1;
}
