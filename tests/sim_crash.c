/* sim_crash.c - a program that crashes on processor 2 of a simulated run
 * (tests/sim_crash.sh checks the line the front end prints: the processor,
 * the function and the signal).  Built with DSMCC_CFLAGS, like sim_counts.
 *
 * Modes (argv[1]), each on the processor whose dsm_node() is 2, after a
 * barrier so that every processor is running:
 *   segv      stores through a NULL pointer in store_through (SIGSEGV)
 *   fpe       divides by zero in divide (SIGFPE)
 *   abort     calls abort() in give_up (SIGABRT: the function is the
 *             procedure the processor was in, abort itself is libc's)
 *   overflow  recurses in recurse until the processor's stack overflows
 *             (SIGSEGV on the guard page: the handler needs its own stack)
 * The other processors wait at a second barrier that processor 2 never
 * reaches. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dsm.h"

/* volatile: the compiler may not see that they are NULL and zero, or it
 * would turn the crashes into traps of its own */
static int *volatile null_pointer;
static volatile int zero;

__attribute__((noinline)) static void store_through(int *p) { *p = 42; }

__attribute__((noinline)) static int divide(int a) { return a / zero; }

__attribute__((noinline)) static void give_up(void) { abort(); }

__attribute__((noinline)) static int recurse(volatile char *prev, int depth)
{
    volatile char frame[512];
    frame[0] = (char)depth;
    frame[511] = prev ? prev[0] : 0;
    if (depth > (1 << 30)) /* never: 512 GB of stack */
        return 0;
    return recurse(frame, depth + 1) + frame[511];
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "segv";
    if (strcmp(mode, "segv") && strcmp(mode, "fpe") && strcmp(mode, "abort") &&
        strcmp(mode, "overflow")) {
        fprintf(stderr, "usage: sim_crash [segv|fpe|abort|overflow]\n");
        return 2;
    }
    if (dsm_init(&argc, &argv))
        return 1;
    dsm_barrier();
    if (dsm_node() == 2) {
        if (!strcmp(mode, "segv"))
            store_through(null_pointer);
        else if (!strcmp(mode, "fpe"))
            printf("%d\n", divide(7));
        else if (!strcmp(mode, "abort"))
            give_up();
        else
            printf("%d\n", recurse(NULL, 0));
        printf("sim_crash: processor 2 did not crash\n");
    }
    dsm_barrier();
    dsm_finalize();
    return 0;
}
