/* dsm.h - public API of the DSM runtime.  Link with -ldsm (pkg-config dsm).
 *
 * Unmodified shared-memory code runs on N nodes that share no memory: memory
 * returned by dsm_alloc / dsm_malloc is kept sequentially consistent by a
 * home-based directory protocol driven by access faults.  Start a job with
 * `dsmrun -n N prog args...` (one machine) or, later, `mpirun -np N prog`.
 *
 * Errors in use (a mismatched collective call, a pointer outside the region,
 * a lock id out of range, a call before dsm_init) print one line on stderr
 * naming the node and the call, and end the whole job with a non-zero exit. */
#ifndef DSM_H
#define DSM_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

int    dsm_init(int *argc, char ***argv);      /* join the job; 0, or -1 with errno set */
void   dsm_finalize(void);                     /* collective: flush, write the profile, leave */
int    dsm_node(void);                         /* 0 .. dsm_nodes()-1 */
int    dsm_nodes(void);
void  *dsm_alloc(size_t size, const char *name);   /* collective: same call order on every node,
                                                      same address everywhere; name labels the
                                                      data structure in profiles (NULL: by site) */
void  *dsm_malloc(size_t size, const char *name);  /* any node, any time; home is the caller */
void   dsm_free(void *p);
void   dsm_barrier(void);
void   dsm_lock(unsigned id);                  /* global locks by number */
void   dsm_unlock(unsigned id);
double dsm_wtime(void);                        /* seconds, same clock base on all nodes */

/* Extensions (not renamed parts of the agreed API) */
size_t dsm_block_size(void);                   /* coherence unit in bytes */
unsigned dsm_lock_count(void);                 /* valid lock ids are 0 .. dsm_lock_count()-1 */
int    dsm_home_of(const void *p);             /* home node of the block holding p, or -1 */
long   dsm_block_index(const void *p);         /* block number of p in the region (as in the
                                                  statistics), or -1 outside the region */
/* The measured section of a run on a simulated machine (dsmrun --machine):
 * from the first processor's begin to the last processor's end, by simulated
 * time; FlashPoint's parallel time (dsmprof flashpoint, Table 2) is its
 * length.  Natively and on the DSM they do nothing. */
void   dsm_sim_section_begin(void);
void   dsm_sim_section_end(void);

#ifdef __cplusplus
}
#endif
#endif
