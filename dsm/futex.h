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

#endif
