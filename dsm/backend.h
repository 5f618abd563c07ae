/* backend.h - who serves the calls of dsm.h.  A backend is one table of
 * the API's calls; dsm_init chooses one (backend.c: the simulation front
 * end when DSM_MACHINE is set, else the DSM runtime) and from then on every
 * call of dsm.h is one indirect call through dsm_backend_now, without a test
 * of the mode in any of them.  Before dsm_init, and after the runtime's
 * dsm_finalize, the pointer names stand-ins whose calls give the API's
 * errors ("called before dsm_init", "called after dsm_finalize").
 *
 * The backends:
 *   dsm_backend_runtime   the DSM: nodes, transports, faults (dsm/api.c)
 *   dsm_backend_sim       P simulated processors in this process, on a
 *                         simulated machine (dsm/simfront/api.c, run.c)
 * The fault path and the compiler's hooks never come here: they reach the
 * runtime (dsm_g) or the simulation (dsm_sim_hot_state) directly. */
#ifndef DSM_BACKEND_H
#define DSM_BACKEND_H

#include <stddef.h>
#include <stdint.h>

typedef struct dsm_backend {
    const char *name;
    /* Is this process meant to run on this backend?  Asked by dsm_init, in
     * the registry's order, of every backend but the last. */
    int (*wanted)(void);
    int (*init)(int *argc, char ***argv);
    void (*finalize)(void);
    int (*node)(void);
    int (*nodes)(void);
    /* site: the caller's return address (an unnamed allocation's label) */
    void *(*alloc)(size_t size, const char *name, uintptr_t site);
    void *(*malloc)(size_t size, const char *name, uintptr_t site);
    void (*free)(void *p);
    void (*barrier)(void);
    void (*lock)(unsigned id);
    void (*unlock)(unsigned id);
    double (*wtime)(void);
    size_t (*block_size)(void);
    unsigned (*lock_count)(void);
    int (*home_of)(const void *p);
    long (*block_index)(const void *p);
    void (*section_begin)(void);
    void (*section_end)(void);
    void (*checkpoint)(int id);
    /* synchronisation objects made on demand; call names the API call */
    unsigned (*sync_new)(const char *call);
    void (*barrier_n)(unsigned id, unsigned count);
    void (*cond_wait)(unsigned cond, unsigned lock);
    void (*cond_signal)(unsigned cond, int all);
    long (*atomic_add)(unsigned id, long delta);
    /* the thread model (dsm/tasks.c, dsm/simfront/tasks.c) */
    int (*init_master)(int *argc, char ***argv);
    int (*create)(void (*fn)(void *), void *arg);
    int (*join)(int task);
    void (*wait_for_end)(int ntasks);
    int (*task)(void);
} dsm_backend;

extern const dsm_backend dsm_backend_runtime;
extern const dsm_backend dsm_backend_sim;

/* The backend the calls go to now (written by dsm_init and dsm_finalize
 * only, before and after the application's threads use the API). */
extern const dsm_backend *dsm_backend_now;

/* The runtime's dsm_finalize is done: later calls are errors. */
void dsm_backend_finished(void);

#endif
