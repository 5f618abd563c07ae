/* hooks.c - the instrumentation runtime of programs compiled by dsmcc.
 *
 * dsmcc compiles with gcc's thread-sanitizer instrumentation
 * (-fsanitize=thread), which calls __tsan_readN / __tsan_writeN before every
 * load and store, __tsan_read_range / write_range for block copies and
 * __tsan_atomicN_* in place of atomic operations, plus -finstrument-functions,
 * which calls __cyg_profile_func_enter / exit around every function.  This
 * file defines those entry points (libtsan is never linked: dsmcc and
 * DSMCC_CFLAGS link libdsm instead), so the same binary runs:
 *   natively and on the DSM: every hook returns at once (refs_on is 0: one
 *     predictable branch; bench/bench_hooks measures it);
 *   simulated (dsmrun --machine): a reference inside the shared region
 *     becomes sim_ref by the running processor with its current procedure;
 *     one outside it (stack, private heap, file-scope data) becomes
 *     sim_ref_private on machines that simulate private memory (Alewife).
 * This file is compiled without instrumentation (it is the runtime).
 * Atomics are performed with the compiler's own builtins, sequentially
 * consistent whatever order was asked (always correct, at most slower). */
#include <config.h>

#include <stdint.h>

#include "simfront.h"
#include "hook_path.h"

#define HOOK __attribute__((visibility("default"), no_instrument_function))

/* The shared state the hooks test, aligned so it sits on one line. */
__attribute__((aligned(64))) dsm_sim_hot dsm_sim_hot_state;

/* What the inline checks of dsmcc --sim (sim_inline.c, inlined into the
 * program) reach: the state above and the calls off the hit path, exported
 * under the hooks' prefix while libdsm's own names stay hidden. */
extern dsm_sim_hot __dsm_sim_hot
    __attribute__((alias("dsm_sim_hot_state"), visibility("default")));
HOOK void __dsm_sim_access(uintptr_t a, uint32_t size, int is_write)
{
    dsm_sim_access(a, size, is_write);
}
HOOK void __dsm_sim_private_access(uintptr_t a, uint32_t size, int is_write)
{
    dsm_sim_private_access(a, size, is_write);
}
HOOK void __dsm_sim_quantum_end(void) { dsm_sim_quantum_end(); }
HOOK void __dsm_sim_window(sim_fast *f) { sim_fast_window(f); }

/* ... one function for each size and direction of the plain hooks, out of
 * line: the hooks' own path (simulation off, or a reference of a batch:
 * sim_ref_gap) then saves no register and ends in a jump here. */
#define REF_REGION_FN(n, w)                                                                           static __attribute__((noinline)) void ref_region_##n##_##w(uintptr_t a)                           {                                                                                                     ref_region(a, n, w);                                                                          }
#define REF_REGION_FNS(n) REF_REGION_FN(n, 0) REF_REGION_FN(n, 1)
REF_REGION_FNS(1)
REF_REGION_FNS(2)
REF_REGION_FNS(4)
REF_REGION_FNS(8)
REF_REGION_FNS(16)

static inline __attribute__((always_inline)) void ref(const volatile void *p, uint32_t size,
                                                      int is_write)
{
    REF_WITH(p, size, is_write, ref_region(a_, size, is_write));
}

/* --- plain loads and stores ------------------------------------------- */
HOOK void __tsan_init(void) {}

#define PLAIN_REF(p, n, w) REF_WITH(p, n, w, ref_region_##n##_##w(a_))
#define RW_HOOKS(n)                                                                               \
    HOOK void __tsan_read##n(void *p) { PLAIN_REF(p, n, 0); }                                     \
    HOOK void __tsan_write##n(void *p) { PLAIN_REF(p, n, 1); }                                    \
    HOOK void __tsan_unaligned_read##n(void *p) { PLAIN_REF(p, n, 0); }                           \
    HOOK void __tsan_unaligned_write##n(void *p) { PLAIN_REF(p, n, 1); }                          \
    HOOK void __tsan_volatile_read##n(void *p) { PLAIN_REF(p, n, 0); }                            \
    HOOK void __tsan_volatile_write##n(void *p) { PLAIN_REF(p, n, 1); }                           \
    HOOK void __tsan_unaligned_volatile_read##n(void *p) { PLAIN_REF(p, n, 0); }                  \
    HOOK void __tsan_unaligned_volatile_write##n(void *p) { PLAIN_REF(p, n, 1); }
RW_HOOKS(1)
RW_HOOKS(2)
RW_HOOKS(4)
RW_HOOKS(8)
RW_HOOKS(16)

/* Block copies (structure assignment): sim_ref splits them into lines. */
HOOK void __tsan_read_range(void *p, unsigned long size)
{
    if (size)
        ref(p, size > UINT32_MAX ? UINT32_MAX : (uint32_t)size, 0);
}
HOOK void __tsan_write_range(void *p, unsigned long size)
{
    if (size)
        ref(p, size > UINT32_MAX ? UINT32_MAX : (uint32_t)size, 1);
}

/* C++ virtual table pointers: a read / a write of one pointer. */
HOOK void __tsan_vptr_read(void **p) { ref(p, sizeof *p, 0); }
HOOK void __tsan_vptr_update(void **p, void *v)
{
    (void)v;
    ref(p, sizeof *p, 1);
}

/* The tsan function hooks carry the caller's pc, not the function: the
 * procedure stacks come from -finstrument-functions below instead. */
HOOK void __tsan_func_entry(void *caller_pc) { (void)caller_pc; }
HOOK void __tsan_func_exit(void) {}

/* --- procedures ---------------------------------------------------------- */
HOOK void __cyg_profile_func_enter(void *fn, void *call_site)
{
    (void)call_site;
    if (LIKELY_OFF(dsm_sim_hot_state.track_procs))
        dsm_sim_proc_enter(dsm_sim_hot_state.cur, fn); /* and the model's switch charge */
}

HOOK void __cyg_profile_func_exit(void *fn, void *call_site)
{
    (void)fn;
    (void)call_site;
    if (LIKELY_OFF(dsm_sim_hot_state.track_procs))
        dsm_sim_proc_exit(dsm_sim_hot_state.cur);
}

/* --- atomics --------------------------------------------------------------- */
/* Loads are reads; everything else that may write is a write, referenced
 * before the operation (as plain accesses are), then performed. */
#define SC __ATOMIC_SEQ_CST
#define ATOMIC_HOOKS(bits, T)                                                                     \
    HOOK T __tsan_atomic##bits##_load(const volatile T *a, int mo)                                \
    {                                                                                             \
        (void)mo;                                                                                 \
        ref(a, sizeof(T), 0);                                                                     \
        return __atomic_load_n(a, SC);                                                            \
    }                                                                                             \
    HOOK void __tsan_atomic##bits##_store(volatile T *a, T v, int mo)                             \
    {                                                                                             \
        (void)mo;                                                                                 \
        ref(a, sizeof(T), 1);                                                                     \
        __atomic_store_n(a, v, SC);                                                               \
    }                                                                                             \
    HOOK T __tsan_atomic##bits##_exchange(volatile T *a, T v, int mo)                             \
    {                                                                                             \
        (void)mo;                                                                                 \
        ref(a, sizeof(T), 1);                                                                     \
        return __atomic_exchange_n(a, v, SC);                                                     \
    }                                                                                             \
    HOOK T __tsan_atomic##bits##_fetch_add(volatile T *a, T v, int mo)                            \
    {                                                                                             \
        (void)mo;                                                                                 \
        ref(a, sizeof(T), 1);                                                                     \
        return __atomic_fetch_add(a, v, SC);                                                      \
    }                                                                                             \
    HOOK T __tsan_atomic##bits##_fetch_sub(volatile T *a, T v, int mo)                            \
    {                                                                                             \
        (void)mo;                                                                                 \
        ref(a, sizeof(T), 1);                                                                     \
        return __atomic_fetch_sub(a, v, SC);                                                      \
    }                                                                                             \
    HOOK T __tsan_atomic##bits##_fetch_and(volatile T *a, T v, int mo)                            \
    {                                                                                             \
        (void)mo;                                                                                 \
        ref(a, sizeof(T), 1);                                                                     \
        return __atomic_fetch_and(a, v, SC);                                                      \
    }                                                                                             \
    HOOK T __tsan_atomic##bits##_fetch_or(volatile T *a, T v, int mo)                             \
    {                                                                                             \
        (void)mo;                                                                                 \
        ref(a, sizeof(T), 1);                                                                     \
        return __atomic_fetch_or(a, v, SC);                                                       \
    }                                                                                             \
    HOOK T __tsan_atomic##bits##_fetch_xor(volatile T *a, T v, int mo)                            \
    {                                                                                             \
        (void)mo;                                                                                 \
        ref(a, sizeof(T), 1);                                                                     \
        return __atomic_fetch_xor(a, v, SC);                                                      \
    }                                                                                             \
    HOOK T __tsan_atomic##bits##_fetch_nand(volatile T *a, T v, int mo)                           \
    {                                                                                             \
        (void)mo;                                                                                 \
        ref(a, sizeof(T), 1);                                                                     \
        return __atomic_fetch_nand(a, v, SC);                                                     \
    }                                                                                             \
    HOOK int __tsan_atomic##bits##_compare_exchange_strong(volatile T *a, T *expected, T v,       \
                                                           int mo, int fail_mo)                   \
    {                                                                                             \
        (void)mo;                                                                                 \
        (void)fail_mo;                                                                            \
        ref(a, sizeof(T), 1);                                                                     \
        return __atomic_compare_exchange_n(a, expected, v, 0, SC, SC);                            \
    }                                                                                             \
    HOOK int __tsan_atomic##bits##_compare_exchange_weak(volatile T *a, T *expected, T v,         \
                                                         int mo, int fail_mo)                     \
    {                                                                                             \
        (void)mo;                                                                                 \
        (void)fail_mo;                                                                            \
        ref(a, sizeof(T), 1);                                                                     \
        return __atomic_compare_exchange_n(a, expected, v, 1, SC, SC);                            \
    }                                                                                             \
    HOOK T __tsan_atomic##bits##_compare_exchange_val(volatile T *a, T expected, T v, int mo,     \
                                                      int fail_mo)                                \
    {                                                                                             \
        (void)mo;                                                                                 \
        (void)fail_mo;                                                                            \
        ref(a, sizeof(T), 1);                                                                     \
        __atomic_compare_exchange_n(a, &expected, v, 0, SC, SC);                                  \
        return expected;                                                                          \
    }
ATOMIC_HOOKS(8, uint8_t)
ATOMIC_HOOKS(16, uint16_t)
ATOMIC_HOOKS(32, uint32_t)
ATOMIC_HOOKS(64, uint64_t)
/* 128-bit atomics are left out: they would make libdsm need libatomic. */

HOOK void __tsan_atomic_thread_fence(int mo)
{
    (void)mo;
    __atomic_thread_fence(SC);
}
HOOK void __tsan_atomic_signal_fence(int mo)
{
    (void)mo;
    __atomic_signal_fence(SC);
}
