/* blk_signal_unit.c - Check: block mode's wrapper around the program's
 * signal handlers (dsm/blk_signal.c).  A deterministic harness of the race
 * it closes: the test opens an access window as an inline check does,
 * raises a signal (as if it arrived between the check and its access),
 * and the handler does what a checked handler's own check does to the
 * thread's window (stores its address, then closes it).  Inside the
 * handler the interrupted window must still be seen by the scan a lowering
 * runs (dsm_blk_windows_name), and after it the window must be open again.
 * The same harness with the handler installed through libc's sigaction
 * (the wrapper bypassed, as before the fix) sees the window lost, which
 * shows the harness can fail.  Also: SA_SIGINFO and plain handlers,
 * SA_RESETHAND, SA_NODEFER nesting, and the old action reported as the
 * program's own, from sigaction and signal. */
#define _GNU_SOURCE 1
#include <check.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>

#include "../dsm/access.h"
#include "check_main.h"

/* addresses only compared, never touched */
#define INTERRUPTED ((uintptr_t)0x10000000)
#define HANDLERS ((uintptr_t)0x20000000)
#define RANGE_LO ((uintptr_t)0x30000000)
#define RANGE_HI ((uintptr_t)0x30010000)
#define BLOCK 64

static volatile int seen_interrupted, seen_range, seen_own, seen_other, calls, signo, depth_max;

static int named(uintptr_t a)
{
    return dsm_blk_windows_name(a, a + BLOCK);
}

/* what a checked handler's access does to the thread's window */
static void handler_check_and_access(void)
{
    __dsm_blk_window[0] = HANDLERS;
    seen_own = named(HANDLERS);
    __dsm_blk_window[0] = 0; /* the access done, the window closed */
    seen_interrupted = named(INTERRUPTED);
    seen_range = named(RANGE_LO + 2 * BLOCK);
    seen_other = named(0x50000000);
}

static void plain_handler(int sig)
{
    signo = sig;
    calls++;
    handler_check_and_access();
}

static void info_handler(int sig, siginfo_t *info, void *uctx)
{
    (void)uctx;
    signo = info ? info->si_signo : -sig;
    calls++;
    handler_check_and_access();
}

static void setup(void)
{
    __dsm_blk_register(DSM_BLK_ABI); /* block mode on, this thread registered */
    seen_interrupted = seen_range = seen_own = seen_other = calls = signo = depth_max = 0;
}

/* the interrupted code: a check's window and a versioned loop's range
 * window open when the signal arrives */
static void interrupted_access(int sig)
{
    __dsm_blk_window[2] = RANGE_HI;
    __dsm_blk_window[1] = RANGE_LO;
    __dsm_blk_window[0] = INTERRUPTED;
    raise(sig);
}

static void close_windows(void)
{
    __dsm_blk_window[0] = 0;
    __dsm_blk_window[1] = 0;
}

START_TEST(test_window_kept_plain)
{
    setup();
    ck_assert_ptr_eq(signal(SIGUSR1, plain_handler), SIG_DFL);
    interrupted_access(SIGUSR1);
    ck_assert_int_eq(calls, 1);
    ck_assert_int_eq(signo, SIGUSR1);
    ck_assert_msg(seen_own, "the handler's own window is not seen");
    ck_assert_msg(seen_interrupted, "the interrupted access's window was not visible to a lowering "
                                    "while the handler ran");
    ck_assert_msg(seen_range, "the interrupted loop's range window was not visible");
    ck_assert_msg(!seen_other, "a window names a block nobody accesses");
    ck_assert_msg(__dsm_blk_window[0] == INTERRUPTED, "window 0 not restored after the handler");
    ck_assert_msg(__dsm_blk_window[1] == RANGE_LO && __dsm_blk_window[2] == RANGE_HI,
                  "range window not restored");
    close_windows();
    ck_assert_msg(!named(INTERRUPTED), "a saved window outlived its handler");
    /* signal reports the program's handler, not the wrapper */
    ck_assert_ptr_eq(signal(SIGUSR1, SIG_DFL), plain_handler);
}
END_TEST

START_TEST(test_window_kept_siginfo)
{
    setup();
    struct sigaction act, old;
    memset(&act, 0, sizeof act);
    act.sa_sigaction = info_handler;
    act.sa_flags = SA_SIGINFO;
    sigemptyset(&act.sa_mask);
    ck_assert_int_eq(sigaction(SIGUSR2, &act, NULL), 0);
    interrupted_access(SIGUSR2);
    ck_assert_int_eq(calls, 1);
    ck_assert_int_eq(signo, SIGUSR2);
    ck_assert(seen_interrupted && seen_range && seen_own && !seen_other);
    ck_assert(__dsm_blk_window[0] == INTERRUPTED);
    close_windows();
    ck_assert_int_eq(sigaction(SIGUSR2, NULL, &old), 0);
    ck_assert_msg((old.sa_flags & SA_SIGINFO) && old.sa_sigaction == info_handler,
                  "sigaction reports the wrapper, not the program's handler");
    /* replacing it returns the previous one as the program's */
    act.sa_handler = plain_handler;
    act.sa_flags = 0;
    ck_assert_int_eq(sigaction(SIGUSR2, &act, &old), 0);
    ck_assert(old.sa_sigaction == info_handler);
    ck_assert_int_eq(sigaction(SIGUSR2, NULL, &old), 0);
    ck_assert(!(old.sa_flags & SA_SIGINFO) && old.sa_handler == plain_handler);
}
END_TEST

/* Before the fix (the handler installed without the wrapper) the same
 * sequence loses the interrupted window: the harness detects the race. */
START_TEST(test_without_wrapper_window_lost)
{
    setup();
    int (*libc_sigaction)(int, const struct sigaction *, struct sigaction *) =
        (int (*)(int, const struct sigaction *, struct sigaction *))dlsym(RTLD_NEXT, "sigaction");
    ck_assert_ptr_nonnull(libc_sigaction);
    ck_assert_ptr_ne(libc_sigaction, sigaction);
    struct sigaction act;
    memset(&act, 0, sizeof act);
    act.sa_handler = plain_handler;
    sigemptyset(&act.sa_mask);
    ck_assert_int_eq(libc_sigaction(SIGUSR1, &act, NULL), 0);
    interrupted_access(SIGUSR1);
    ck_assert_int_eq(calls, 1);
    ck_assert_msg(!seen_interrupted, "unwrapped: the race is not reproduced by the harness");
    ck_assert_msg(__dsm_blk_window[0] == 0, "unwrapped: the handler's close should stay");
    close_windows();
}
END_TEST

START_TEST(test_resethand)
{
    setup();
    struct sigaction act, old;
    memset(&act, 0, sizeof act);
    act.sa_handler = plain_handler;
    act.sa_flags = SA_RESETHAND;
    sigemptyset(&act.sa_mask);
    ck_assert_int_eq(sigaction(SIGUSR1, &act, NULL), 0);
    interrupted_access(SIGUSR1);
    close_windows();
    ck_assert_int_eq(calls, 1);
    ck_assert(seen_interrupted);
    ck_assert_int_eq(sigaction(SIGUSR1, NULL, &old), 0);
    ck_assert_msg(old.sa_handler == SIG_DFL, "SA_RESETHAND: the handler is still installed");
}
END_TEST

/* SA_NODEFER: the handler interrupts itself once; both levels' windows
 * stay visible while the inner one runs */
static volatile int inner_saw_outer, inner_saw_first;

static void nested_handler(int sig)
{
    int level = ++calls;
    if (level == 1) {
        __dsm_blk_window[0] = HANDLERS; /* the outer handler between check and access */
        raise(sig);
        ck_assert_msg(__dsm_blk_window[0] == HANDLERS, "outer handler's window not restored");
        __dsm_blk_window[0] = 0;
    } else {
        __dsm_blk_window[0] = 0x40000000;
        __dsm_blk_window[0] = 0;
        inner_saw_outer = named(HANDLERS);
        inner_saw_first = named(INTERRUPTED);
    }
}

START_TEST(test_nodefer_nesting)
{
    setup();
    struct sigaction act;
    memset(&act, 0, sizeof act);
    act.sa_handler = nested_handler;
    act.sa_flags = SA_NODEFER;
    sigemptyset(&act.sa_mask);
    ck_assert_int_eq(sigaction(SIGUSR1, &act, NULL), 0);
    interrupted_access(SIGUSR1);
    ck_assert_int_eq(calls, 2);
    ck_assert_msg(inner_saw_outer, "nested: the outer handler's window was lost");
    ck_assert_msg(inner_saw_first, "nested: the first interrupted window was lost");
    ck_assert(__dsm_blk_window[0] == INTERRUPTED);
    close_windows();
    ck_assert(!named(INTERRUPTED) && !named(HANDLERS));
}
END_TEST

/* A handler that leaves by siglongjmp: its saved window must not hold a
 * lowering back for ever; the next signal (or slow path) forgets it. */
static sigjmp_buf escape;

static void escaping_handler(int sig)
{
    (void)sig;
    calls++;
    siglongjmp(escape, 1);
}

START_TEST(test_siglongjmp_forgotten)
{
    setup();
    ck_assert_ptr_eq(signal(SIGUSR1, escaping_handler), SIG_DFL);
    if (sigsetjmp(escape, 1) == 0)
        interrupted_access(SIGUSR1);
    ck_assert_int_eq(calls, 1);
    close_windows(); /* the code after the jump goes on with its own windows */
    /* left behind until the next signal: the interrupted access never resumes */
    ck_assert_int_eq(dsm_blk_sigsave.depth, 1);
    ck_assert_ptr_eq(signal(SIGUSR1, plain_handler), escaping_handler);
    raise(SIGUSR1);
    ck_assert_int_eq(calls, 2);
    ck_assert_int_eq(dsm_blk_sigsave.depth, 0);
    ck_assert_msg(!named(INTERRUPTED), "the window of a handler left by siglongjmp is still saved");
}
END_TEST

/* The seqlock under fire: one thread keeps a window open (an access that
 * is never done) and takes signal after signal, whose handler moves and
 * closes the live window; another thread scans as a lowering does and must
 * find the window named every time.  Bounded by a count of scans. */
#define SCANS 200000
static atomic_int scanning, misses;

static void churning_handler(int sig)
{
    (void)sig;
    __dsm_blk_window[0] = HANDLERS;
    __asm__ volatile("" ::: "memory");
    __dsm_blk_window[0] = 0;
}

static void *scanner(void *unused)
{
    (void)unused;
    while (atomic_load(&scanning) == 0)
        ;
    for (int i = 0; i < SCANS; i++)
        if (!named(INTERRUPTED))
            atomic_fetch_add(&misses, 1);
    atomic_store(&scanning, 2);
    return NULL;
}

START_TEST(test_concurrent_scan)
{
    setup();
    ck_assert_ptr_eq(signal(SIGUSR1, churning_handler), SIG_DFL);
    __dsm_blk_window[0] = INTERRUPTED;
    pthread_t t;
    ck_assert_int_eq(pthread_create(&t, NULL, scanner, NULL), 0);
    long raised = 0;
    atomic_store(&scanning, 1);
    while (atomic_load(&scanning) == 1) {
        raise(SIGUSR1);
        raised++;
    }
    pthread_join(t, NULL);
    ck_assert_msg(atomic_load(&misses) == 0, "%d of %d scans missed the open window (%ld signals)",
                  atomic_load(&misses), SCANS, raised);
    ck_assert_msg(__dsm_blk_window[0] == INTERRUPTED, "window not restored");
    close_windows();
}
END_TEST

/* Nothing open, nothing saved: handlers nest deeply while a handler's miss
 * sleeps in the runtime with its windows closed, and must not use up levels. */
static volatile int depth_in_handler = -1;

static void depth_handler(int sig)
{
    (void)sig;
    calls++;
    depth_in_handler = (int)dsm_blk_sigsave.depth;
}

START_TEST(test_closed_window_no_level)
{
    setup();
    ck_assert_ptr_eq(signal(SIGUSR1, depth_handler), SIG_DFL);
    raise(SIGUSR1);
    ck_assert_int_eq(calls, 1);
    ck_assert_int_eq(depth_in_handler, 0);
    __dsm_blk_window[0] = INTERRUPTED;
    raise(SIGUSR1);
    ck_assert_int_eq(depth_in_handler, 1);
    close_windows();
}
END_TEST

Suite *unit_suite(void)
{
    Suite *s = suite_create("blk_signal");
    TCase *tc = tcase_create("wrapper");
    tcase_add_test(tc, test_window_kept_plain);
    tcase_add_test(tc, test_window_kept_siginfo);
    tcase_add_test(tc, test_without_wrapper_window_lost);
    tcase_add_test(tc, test_resethand);
    tcase_add_test(tc, test_nodefer_nesting);
    tcase_add_test(tc, test_siglongjmp_forgotten);
    tcase_add_test(tc, test_concurrent_scan);
    tcase_add_test(tc, test_closed_window_no_level);
    suite_add_tcase(s, tc);
    return s;
}
