/* futex.h - blocking waits on a 32-bit word, shared between processes (the
 * shm queues) or private to a node (threads waiting for a block).  Waiting
 * never burns a core: callers spin for a short, configured time, then block
 * here. */
#ifndef DSM_FUTEX_H
#define DSM_FUTEX_H

#include <stdatomic.h>
#include <stdint.h>

/* Block while *word == expected, at most timeout_ms (< 0: no limit). */
void dsm_futex_wait(_Atomic uint32_t *word, uint32_t expected, int timeout_ms, int shared);
void dsm_futex_wake(_Atomic uint32_t *word, int shared);
/* The same on a word shared between processes, for the sleepers whose
 * bits meet the waker's (FUTEX_WAIT_BITSET / FUTEX_WAKE_BITSET): a waker
 * can wake one kind of sleeper without the others (a ticket lock's next
 * holder).  dsm_futex_wake wakes them all. */
void dsm_futex_wait_bits(_Atomic uint32_t *word, uint32_t expected, int timeout_ms, uint32_t bits);
void dsm_futex_wake_bits(_Atomic uint32_t *word, uint32_t bits);

static inline void dsm_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

/* Monotonic nanoseconds. */
uint64_t dsm_now_ns(void);

/* Ticks for the counters' wall times on hot paths: the time-stamp counter
 * where it is invariant (x86-64 with constant_tsc and nonstop_tsc: a few
 * nanoseconds a read, against tens for clock_gettime in a VM), else
 * nanoseconds.  dsm_ticks_ns_factor converts, calibrated over the run. */
extern int dsm_ticks_tsc;
void dsm_ticks_init(unsigned stall_us);
double dsm_ticks_ns_factor(void);
/* A tick reading as CLOCK_MONOTONIC nanoseconds (for ordering events of
 * different processes; factor from dsm_ticks_ns_factor). */
uint64_t dsm_ticks_to_ns(uint64_t t, double factor);
static inline uint64_t dsm_ticks(void)
{
#if defined(__x86_64__)
    if (dsm_ticks_tsc)
        return __builtin_ia32_rdtsc();
#endif
    return dsm_now_ns();
}

#endif
