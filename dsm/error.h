/* error.h - how the runtime reports misuse and internal failures: one line
 * on stderr naming the node and the call, then a non-zero exit that the
 * launcher turns into the end of the whole job. */
#ifndef DSM_ERROR_H
#define DSM_ERROR_H

#include <stdnoreturn.h>

/* "dsm: node N: call: message" and _exit(1).  Safe enough to call from the
 * fault handler (writes with write(2), no stdio). */
noreturn void dsm_fatal(const char *call, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* The node id used in messages; -1 before dsm_init. */
extern int dsm_error_node;

/* Set by a transport whose job must be ended another way than by the exit
 * status (mpi: MPI_Abort, so mpirun ends every rank); called with the exit
 * code after the line is written, instead of _exit. */
extern void (*dsm_fatal_exit)(int code);

#endif
