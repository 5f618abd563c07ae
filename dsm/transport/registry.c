/* registry.c - which transports this library has, and which one a process
 * uses.  One line per transport in `dsm_transports` (each transport's file
 * defines its dsm_transport_ops, transport.h); configure's conditionals
 * decide here, and only here, which are built.  A transport that is known
 * but not built has a line in `missing` instead, so that asking for it (or
 * being started by its launcher) says what to install rather than "unknown".
 *
 * The choice (dsm_transport_choose), made once by dsm_init:
 *   DSM_TRANSPORT=name   that transport; an error if it is not built, or if
 *                        another transport's launcher started the process
 *                        (DSM_TRANSPORT=mpi under dsmrun would otherwise be
 *                        N separate jobs of one node, each "succeeding")
 *   unset                the first transport whose launch detection says
 *                        this process was started by its launcher
 *   none of them         no transport: a job of one node */
#include <config.h>

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mpi_transport.h"
#include "transport.h"
#include "verbs_transport.h"

const dsm_transport_ops *const dsm_transports[] = {
    &dsm_transport_shm_ops,
#ifdef HAVE_MPI
    &dsm_transport_mpi_ops,
#endif
#ifdef DSM_HAVE_VERBS
    &dsm_transport_verbs_ops,
#endif
    NULL,
};

/* Known transports this build lacks: what to install, and (when its
 * launcher can be recognised without it) its launch detection. */
typedef struct missing_transport {
    const char *name;
    const char *needs;
    int (*launched_as)(void);
} missing_transport;

static const missing_transport missing[] = {
#ifndef HAVE_MPI
    { "mpi", "MPI (install libopenmpi-dev and reconfigure)", dsm_transport_mpi_launched_as },
#endif
#ifndef DSM_HAVE_VERBS
    { "verbs", "the verbs transport (it needs libibverbs-dev and MPI, its bootstrap; install "
               "them and reconfigure)", NULL },
#endif
    { NULL, NULL, NULL },
};

const char *dsm_transport_names(void)
{
    static char names[128];
    if (!names[0]) {
        size_t used = 0;
        for (int i = 0; dsm_transports[i]; i++) {
            int n = snprintf(names + used, sizeof names - used, "%s%s", i ? ", " : "",
                             dsm_transports[i]->name);
            if (n > 0 && (size_t)n < sizeof names - used)
                used += (size_t)n;
        }
    }
    return names;
}

static const dsm_transport_ops *built(const char *name)
{
    for (int i = 0; dsm_transports[i]; i++)
        if (!strcmp(dsm_transports[i]->name, name))
            return dsm_transports[i];
    return NULL;
}

/* The node number the first launcher that started this process gave it
 * (-1: none did); its transport in *by. */
static int launched_by(const dsm_transport_ops **by)
{
    for (int i = 0; dsm_transports[i]; i++) {
        int node = dsm_transports[i]->launched_as();
        if (node >= 0) {
            *by = dsm_transports[i];
            return node;
        }
    }
    *by = NULL;
    return -1;
}

/* The refusals below are the same on every node of the job: the launcher's
 * node 0 (or a process no launcher numbered) says it at once and fails;
 * the others give it time to, since the launcher ends the job at the first
 * node that fails (dsmrun kills the rest), so that the job says it once.
 * They say it themselves after REFUSE_WAIT_NS, should node 0 be gone. */
#define REFUSE_WAIT_NS (5ULL * 1000000000ULL)

static void refuse(int node, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void refuse(int node, const char *fmt, ...)
{
    if (node > 0) {
        struct timespec step = { 0, 100 * 1000000L };
        for (uint64_t waited = 0; waited < REFUSE_WAIT_NS; waited += 100 * 1000000ULL)
            nanosleep(&step, NULL);
    }
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    fprintf(stderr, "dsm: node ?: dsm_init: %s\n", line);
}

int dsm_transport_choose(const dsm_transport_ops **out)
{
    *out = NULL;
    const dsm_transport_ops *by;
    int node = launched_by(&by);
    const char *want = getenv("DSM_TRANSPORT");
    if (want && *want) {
        const dsm_transport_ops *tp = built(want);
        if (!tp) {
            for (const missing_transport *m = missing; m->name; m++)
                if (!strcmp(m->name, want)) {
                    refuse(node, "DSM_TRANSPORT=%s but this libdsm was built without %s; it has: %s",
                           want, m->needs, dsm_transport_names());
                    return -1;
                }
            refuse(node, "DSM_TRANSPORT=%s is not a transport of this libdsm (it has: %s)", want,
                   dsm_transport_names());
            return -1;
        }
        if (tp->launched_as() < 0) {
            if (by && strcmp(by->launcher, tp->launcher)) {
                refuse(node,
                       "DSM_TRANSPORT=%s but this process was started by %s (the %s transport's "
                       "launcher), which %s does not join: start it with %s prog, or unset "
                       "DSM_TRANSPORT",
                       want, by->launcher, by->name, want, tp->launcher);
                return -1;
            }
            if (tp->caps & DSM_TP_NEEDS_LAUNCHER) {
                refuse(node, "DSM_TRANSPORT=%s but this process was not started by %s prog", want,
                       tp->launcher);
                return -1;
            }
        }
        *out = tp;
        return 0;
    }
    if (by) {
        *out = by;
        return 0;
    }
    for (const missing_transport *m = missing; m->name; m++)
        if (m->launched_as && (node = m->launched_as()) >= 0) {
            refuse(node, "started by the %s transport's launcher but this libdsm was built "
                         "without %s", m->name, m->needs);
            return -1;
        }
    return 0;
}
