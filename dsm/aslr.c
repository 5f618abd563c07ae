/* aslr.c - the same addresses on every node.  A function pointer stored in
 * shared memory, a pointer into the master's globals or heap handed to a
 * task (dsm_create) are only meaningful if the program, its libraries, its
 * heap and its stack sit at the same addresses on every node: address
 * space layout randomisation must be off.  dsmrun turns it off for the
 * nodes it starts (personality(2), inherited); under mpirun (or a program
 * run alone) dsm_init turns it off and re-executes the program once, with
 * the arguments it was started with (kept at load, before main could
 * change them).  DSM_ASLR=keep leaves it on. */
#define _GNU_SOURCE 1
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>
#include <unistd.h>

#include "settings.h"
#include "tasks.h"

static char **load_argv;

/* glibc passes (argc, argv, envp) to the constructors of shared objects. */
__attribute__((constructor)) static void aslr_at_load(int argc, char **argv, char **envp)
{
    (void)envp;
    if (argc <= 0 || !argv)
        return;
    load_argv = calloc((size_t)argc + 1, sizeof *load_argv);
    for (int i = 0; load_argv && i < argc; i++)
        if (!(load_argv[i] = strdup(argv[i] ? argv[i] : "")))
            load_argv = NULL;
}

static int randomising(void)
{
    FILE *f = fopen("/proc/sys/kernel/randomize_va_space", "r");
    int v = 2;
    if (f) {
        if (fscanf(f, "%d", &v) != 1)
            v = 2;
        fclose(f);
    }
    return v != 0;
}

void dsm_aslr_off(const char *call)
{
    const char *keep = dsm_setting_raw("DSM_ASLR");
    if (keep && !strcmp(keep, "keep"))
        return;
    int p = personality(0xffffffff);
    if (p == -1 || (p & ADDR_NO_RANDOMIZE) || !randomising())
        return;
    /* the flag is inherited by the exec: the second run finds it set */
    if (personality((unsigned long)p | ADDR_NO_RANDOMIZE) == -1 || !load_argv) {
        fprintf(stderr, "dsm: node ?: %s: cannot turn address randomisation off (%s): function "
                        "pointers and private data do not have the same addresses on every node; "
                        "start the job with dsmrun, or run `setarch -R mpirun ...`\n",
                call, load_argv ? strerror(errno) : "no arguments seen at load");
        return;
    }
    /* unflushed output is dropped, as the new run prints it again */
    execv("/proc/self/exe", load_argv);
    fprintf(stderr, "dsm: node ?: %s: cannot re-execute the program without address "
                    "randomisation: %s\n",
            call, strerror(errno));
    personality((unsigned long)p);
}
