/* progress_place.c - the progress thread leaves the node's cores when the
 * program keeps it from running there.
 *
 * A node bound to its cores (dsmrun's DSM_BIND, mpirun's binding of its
 * ranks) shares them between the program's threads and its progress
 * thread, which answers the other nodes.  Bound, 2 nodes on 2 cores run
 * most programs 5-40% faster than unbound (doc/protocol.md, "Latency on few
 * cores"): a node waiting for a reply sleeps and its core serves its own
 * progress thread at once.  But a program that spins on shared data without
 * entering the runtime (a test-and-set lock of its own, a flag it polls)
 * holds the node's core while the peers wait for its progress thread,
 * which the kernel runs only when the spinner's time slice ends: apps/sor's
 * pool lock ran 3-4 times slower bound than unbound, its progress threads
 * waiting 200-700 us to run per slice (20 ms windows), against under 100 us
 * for every other app.
 *
 * So the progress thread reads its own wait to run, the kernel's run delay
 * (/proc/thread-self/schedstat: time on the CPU, time runnable but waiting,
 * time slices), in windows of PP_WINDOW_NS.  After PP_STARVED_WINDOWS
 * windows in a row whose mean wait per slice exceeds PP_WAIT_NS (over at
 * least PP_MIN_SLICES slices), it takes every core the process may use (the
 * kernel intersects the set with the cgroup's) and stops watching: one move
 * a run, never back, as the spin policy's learning (node.c) would have
 * nothing to learn from once unbound.  The thresholds come from the app
 * windows above. */
#define _GNU_SOURCE 1 /* sched_setaffinity, CPU_* */
#include "progress_place.h"

#include <fcntl.h>
#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <unistd.h>

#define PP_WINDOW_NS 20000000u /* 20 ms */
#define PP_WAIT_NS 200000u     /* 200 us a slice */
#define PP_MIN_SLICES 8u
#define PP_STARVED_WINDOWS 3

/* The run delay (ns) and the slices so far; 0 on success. */
static int read_schedstat(int fd, uint64_t *delay, uint64_t *slices)
{
    char b[128];
    ssize_t n = pread(fd, b, sizeof b - 1, 0);
    if (n <= 0)
        return -1;
    b[n] = 0;
    uint64_t cpu;
    return sscanf(b, "%" SCNu64 " %" SCNu64 " %" SCNu64, &cpu, delay, slices) == 3 ? 0 : -1;
}

/* Every configured core: the kernel keeps those of the cgroup's set. */
static void all_cores(cpu_set_t *set)
{
    CPU_ZERO(set);
    long n = sysconf(_SC_NPROCESSORS_CONF);
    for (long c = 0; c < n && c < CPU_SETSIZE; c++)
        CPU_SET((int)c, set);
}

void dsm_progress_place_init(dsm_progress_place *pp, int enabled, uint64_t now_ns)
{
    *pp = (dsm_progress_place){ .fd = -1, .win_start_ns = now_ns };
    cpu_set_t mine;
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    if (!enabled || sched_getaffinity(0, sizeof mine, &mine) || CPU_COUNT(&mine) >= online)
        return; /* not bound: the kernel places the thread anyway */
    pp->fd = open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
    if (pp->fd >= 0 && read_schedstat(pp->fd, &pp->delay_ns, &pp->slices))
        dsm_progress_place_close(pp);
}

int dsm_progress_place_check(dsm_progress_place *pp, uint64_t now_ns)
{
    if (pp->fd < 0 || now_ns - pp->win_start_ns < PP_WINDOW_NS)
        return 0;
    uint64_t delay, slices;
    if (read_schedstat(pp->fd, &delay, &slices)) {
        dsm_progress_place_close(pp);
        return 0;
    }
    uint64_t d = delay - pp->delay_ns, s = slices - pp->slices;
    pp->win_start_ns = now_ns;
    pp->delay_ns = delay;
    pp->slices = slices;
    if (s >= PP_MIN_SLICES && d / s > PP_WAIT_NS)
        pp->starved++;
    else
        pp->starved = 0;
    if (pp->starved < PP_STARVED_WINDOWS)
        return 0;
    pp->moved_delay_ns = d / s;
    dsm_progress_place_close(pp);
    cpu_set_t all;
    all_cores(&all);
    return sched_setaffinity(0, sizeof all, &all) == 0;
}

void dsm_progress_place_close(dsm_progress_place *pp)
{
    if (pp->fd >= 0)
        close(pp->fd);
    pp->fd = -1;
}
