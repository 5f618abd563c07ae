/* tasks.h - the thread model on the DSM runtime (dsm_init_master,
 * dsm_create, dsm_join, dsm_wait_for_end, dsm_task) and what it needs:
 *   tasks.c           the model: the master's task table, the workers'
 *                     service, the wire messages RT_TASK_*
 *   image.c           the master's private state (writable data and bss of
 *                     the program, its brk heap) shipped to a worker
 *   shared_globals.c  DSM_SHARED globals: the program's dsm_shared section
 *                     made a window on the shared region
 *   stdin_copy.c      every node reads its own copy of the job's stdin
 *   aslr.c            the same code and data addresses on every node */
#ifndef DSM_TASKS_H
#define DSM_TASKS_H

#include <stddef.h>
#include <stdint.h>

#include "node.h"

/* --- tasks.c ------------------------------------------------------------------ */
int dsm_tasks_init_master(int *argc, char ***argv);
int dsm_tasks_create(void (*fn)(void *), void *arg);
int dsm_tasks_join(int task);
void dsm_tasks_wait_for_end(int ntasks);
int dsm_tasks_task(void);
/* The start of dsm_finalize: in the thread model the master waits for its
 * tasks and tells the workers to finalize; a task may not finalize. */
void dsm_tasks_finalize_begin(dsm_rt *rt);
/* A segmentation fault outside the region (fault.c): in a task on a worker
 * it ends the job with a line naming what dsm_create does not ship;
 * elsewhere it returns and the crash goes on. */
void dsm_tasks_crash(dsm_rt *rt, const void *addr);
/* RT_TASK_* messages (node.c hands them over). */
void dsm_tasks_handle(dsm_rt *rt, const dsm_msg_hdr *h, const void *payload);

/* --- image.c ------------------------------------------------------------------ */
/* Ship the calling process's private image to node dst as RT_TASK_IMAGE
 * messages (after RT_TASK_BEGIN, which carries the heap bounds of
 * dsm_image_heap, passed again here: sending may itself allocate): all of
 * it (full), or the pieces changed since dst was last sent it. */
void dsm_image_send(dsm_rt *rt, int dst, int full, uintptr_t heap_start, uintptr_t heap_end);
/* The part of the brk heap a create ships: [fence, sbrk(0)). */
void dsm_image_heap(uintptr_t *start, uintptr_t *end);
/* The master, after dsm_init_master's set-up: from now on its main arena
 * allocates only above the returned fence, which lies past both `below`
 * (its brk when dsm_init_master began) and its heap now, plus a margin. */
uintptr_t dsm_image_fence(uintptr_t below);
/* A worker receives an image: make the heap reach heap_end; 0, or -1
 * after a message naming why (the master's heap cannot be placed here). */
int dsm_image_prepare(uintptr_t heap_start, uintptr_t heap_end, char *why, size_t whylen);
/* Install one piece: len bytes of data at addr (data NULL: zeros);
 * 0, or -1 when [addr, addr+len) is not in the image's ranges. */
int dsm_image_install(uintptr_t addr, const void *data, size_t len);
/* Is p inside the image's data ranges? */
int dsm_image_holds(const void *p);

/* --- shared_globals.c --------------------------------------------------------- */
/* Find the program's dsm_shared section; make it a window on the region:
 * called in dsm_init after the allocator is set up and before the first
 * collective.  0, or -1 after a message. */
int dsm_shared_globals_setup(dsm_rt *rt);
/* The section [*start, *end) (both 0 when the program has none). */
void dsm_shared_globals_range(uintptr_t *start, uintptr_t *end);

/* --- stdin_copy.c ------------------------------------------------------------- */
/* Every node reads its own copy of stdin, which node 0 reads and sends
 * as it comes (DSM_STDIN); called at the end of dsm_init, every node. */
void dsm_stdin_copy(dsm_rt *rt);
void dsm_stdin_handle(dsm_rt *rt, const dsm_msg_hdr *h, const void *payload);
/* dsm_finalize began: node 0 sends no more of stdin. */
void dsm_stdin_stop(dsm_rt *rt);

/* --- aslr.c -------------------------------------------------------------------- */
/* Run without address randomisation (re-executing the program once if
 * need be), so code, data and the heap sit at the same addresses on every
 * node.  call names the API call for messages. */
void dsm_aslr_off(const char *call);

#endif
