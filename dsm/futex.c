/* futex.c - thin wrappers over the Linux futex system call. */
#include "futex.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

void dsm_futex_wait(_Atomic uint32_t *word, uint32_t expected, int timeout_ms, int shared)
{
    struct timespec ts, *tsp = NULL;
    if (timeout_ms >= 0) {
        ts.tv_sec = timeout_ms / 1000;
        ts.tv_nsec = (long)(timeout_ms % 1000) * 1000000L;
        tsp = &ts;
    }
    syscall(SYS_futex, (uint32_t *)word, shared ? FUTEX_WAIT : FUTEX_WAIT_PRIVATE, expected, tsp,
            NULL, 0);
}

void dsm_futex_wait_bits(_Atomic uint32_t *word, uint32_t expected, int timeout_ms, uint32_t bits)
{
    /* the bitset wait's timeout is a time on CLOCK_MONOTONIC, not a length;
     * below 0, none (as dsm_futex_wait's) */
    struct timespec ts;
    if (timeout_ms >= 0) {
        clock_gettime(CLOCK_MONOTONIC, &ts);
        ts.tv_sec += timeout_ms / 1000;
        ts.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
        if (ts.tv_nsec >= 1000000000L) {
            ts.tv_sec++;
            ts.tv_nsec -= 1000000000L;
        }
    }
    syscall(SYS_futex, (uint32_t *)word, FUTEX_WAIT_BITSET, expected,
            timeout_ms >= 0 ? &ts : NULL, NULL, bits);
}

void dsm_futex_wake_bits(_Atomic uint32_t *word, uint32_t bits)
{
    syscall(SYS_futex, (uint32_t *)word, FUTEX_WAKE_BITSET, INT_MAX, NULL, NULL, bits);
}

void dsm_futex_wake(_Atomic uint32_t *word, int shared)
{
    syscall(SYS_futex, (uint32_t *)word, shared ? FUTEX_WAKE : FUTEX_WAKE_PRIVATE, INT_MAX, NULL,
            NULL, 0);
}

/* Testing the common clock base across hosts (tests/tcp_clock.sh): the
 * hosts of the network test bed are namespaces of one kernel, which share
 * CLOCK_MONOTONIC; DSM_TEST_CLOCK_OFFSET_NS (signed nanoseconds) moves this
 * process's clock, so that each "host" has a clock of its own.  Read once,
 * before main: the clock must not jump during the run. */
static int64_t clock_offset_ns;

__attribute__((constructor)) static void read_clock_offset(void)
{
    const char *s = getenv("DSM_TEST_CLOCK_OFFSET_NS");
    if (s && *s)
        clock_offset_ns = strtoll(s, NULL, 10);
}

uint64_t dsm_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec + (uint64_t)clock_offset_ns;
}

int dsm_ticks_tsc;
static uint64_t ticks0, ns0;

static int cpu_has_invariant_tsc(void)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return 0;
    char line[4096];
    int constant = 0, nonstop = 0;
    while (fgets(line, sizeof line, f) && !(constant && nonstop))
        if (!strncmp(line, "flags", 5)) {
            constant = strstr(line, " constant_tsc") != NULL;
            nonstop = strstr(line, " nonstop_tsc") != NULL;
            break;
        }
    fclose(f);
    return constant && nonstop;
}

/* One clock reading and the ticks at that moment.  The ticks are read
 * before and after the clock, and of several tries the one whose two reads
 * lie closest is kept (ticks: their middle).  Read one after the other, a
 * thread preempted between the two puts milliseconds between them on a
 * loaded machine (this VM at load 20: 808 of 2 million pairs more than
 * 10 us apart, 31 more than 1 ms), and every time this node converts
 * (its profile's epochs and reads, which other nodes' times are ordered
 * against: tests/known_sharing.sh) moves by as much.  A preemption hits
 * one try, not all of them.  stall_us (testing, first try only): as if
 * preempted there. */
static void clock_pair(uint64_t *ns, uint64_t *ticks, unsigned stall_us)
{
    uint64_t best = UINT64_MAX;
    for (int i = 0; i < 8; i++) {
        uint64_t a = dsm_ticks(), n = dsm_now_ns();
        if (i == 0 && stall_us) {
            struct timespec d = { stall_us / 1000000, (long)(stall_us % 1000000) * 1000 };
            nanosleep(&d, NULL);
        }
        uint64_t b = dsm_ticks();
        if (b - a < best) {
            best = b - a;
            *ns = n;
            *ticks = a + (b - a) / 2;
        }
    }
}

void dsm_ticks_init(unsigned stall_us)
{
#if defined(__x86_64__)
    dsm_ticks_tsc = cpu_has_invariant_tsc();
#endif
    clock_pair(&ns0, &ticks0, stall_us);
}

double dsm_ticks_ns_factor(void)
{
    if (!dsm_ticks_tsc)
        return 1.0;
    uint64_t n, t;
    clock_pair(&n, &t, 0);
    uint64_t dt = t - ticks0, dn = n - ns0;
    return dt ? (double)dn / (double)dt : 1.0;
}

uint64_t dsm_ticks_to_ns(uint64_t t, double factor)
{
    if (!dsm_ticks_tsc)
        return t;
    return t >= ticks0 ? ns0 + (uint64_t)((double)(t - ticks0) * factor)
                       : ns0 - (uint64_t)((double)(ticks0 - t) * factor);
}
