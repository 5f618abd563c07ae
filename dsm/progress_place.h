/* progress_place.h - where a node's progress thread runs: on the node's
 * cores while it gets them, on any core once the program keeps it waiting
 * (progress_place.c). */
#ifndef DSM_PROGRESS_PLACE_H
#define DSM_PROGRESS_PLACE_H

#include <stdint.h>

typedef struct {
    int fd;                 /* /proc/thread-self/schedstat; -1: not watching */
    uint64_t win_start_ns;  /* the current window's start */
    uint64_t delay_ns;      /* the kernel's run delay at the window's start */
    uint64_t slices;        /* and its count of time slices */
    int starved;            /* windows in a row with long waits to run */
    uint64_t moved_delay_ns; /* the mean wait per slice of the last window, when moved */
} dsm_progress_place;

/* In the progress thread, at its start: watch it when DSM_PROGRESS_MOVE is
 * on and its affinity leaves out some of the machine's cores (the node is
 * bound).  Never fails: without the kernel's statistics it does not watch. */
void dsm_progress_place_init(dsm_progress_place *pp, int enabled, uint64_t now_ns);

/* Called often by the progress thread; cheap between windows.  1 when it
 * has just moved the thread to every core (once per run), else 0. */
int dsm_progress_place_check(dsm_progress_place *pp, uint64_t now_ns);

void dsm_progress_place_close(dsm_progress_place *pp);

#endif
