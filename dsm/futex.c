/* futex.c - thin wrappers over the Linux futex system call. */
#include "futex.h"

#include <errno.h>
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

void dsm_futex_wake(_Atomic uint32_t *word, int shared)
{
    syscall(SYS_futex, (uint32_t *)word, shared ? FUTEX_WAKE : FUTEX_WAKE_PRIVATE, INT_MAX, NULL,
            NULL, 0);
}

uint64_t dsm_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}
