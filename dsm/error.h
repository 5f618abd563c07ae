/* error.h - how the runtime reports misuse and internal failures: one line
 * on stderr naming the node and the call, then a non-zero exit that the
 * launcher turns into the end of the whole job. */
#ifndef DSM_ERROR_H
#define DSM_ERROR_H

#include <stdnoreturn.h>

/* "dsm: node N: call: message" and _exit(1).  The line is formatted in a
 * stack buffer and written with one write(2), so the lines of several
 * nodes never interleave; stdout is flushed first so the error comes last.
 * Not async-signal-safe (snprintf, fflush): the fault handler calls it only
 * to end the job. */
noreturn void dsm_fatal(const char *call, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* The node id used in messages; -1 before dsm_init. */
extern int dsm_error_node;

/* Set by a transport whose job must be ended another way than by the exit
 * status (mpi: MPI_Abort, so mpirun ends every rank); called with the exit
 * code after the line is written, instead of _exit. */
extern void (*dsm_fatal_exit)(int code);

#endif
