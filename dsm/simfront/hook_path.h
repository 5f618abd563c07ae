/* hook_path.h - what a reference costs on its way into the simulated
 * machine, written once for the two places that run it: the hooks of
 * gcc's instrumentation (hooks.c, a call per load or store) and the inline
 * checks of dsmcc --sim (sim_inline.c, compiled to bitcode that the
 * compiler pass inlines into the program), so both decide every reference
 * alike.  Internal to libdsm. */
#ifndef DSM_SIM_HOOK_PATH_H
#define DSM_SIM_HOOK_PATH_H

#include "simfront.h"

#define LIKELY_OFF(x) __builtin_expect(!!(x), 0)

/* A reference in the shared region while the simulation runs, not one of
 * a batch between sampling windows: a hit in one line is handled inline
 * (sim_ref_fast: the running processor's cache, no call), with a
 * scheduling decision every quantum of references; anything else goes to
 * dsm_sim_access (simfront/run.c), which calls the machine. */
static inline __attribute__((always_inline)) void ref_region(uintptr_t a, uint32_t size,
                                                             int is_write)
{
    if (!sim_ref_fast(dsm_sim_hot_state.fast, a, size, is_write))
        dsm_sim_access(a, size, is_write);
    else if (++dsm_sim_hot_state.since_decision >= dsm_sim_hot_state.quantum)
        dsm_sim_quantum_end();
}

/* A reference: outside the region it is private (simulated on machines
 * that simulate private memory, Alewife); in it, a reference of the
 * running processor's batch between sampling windows costs one decrement
 * (sim_ref_gap), else it goes to `region` (ref_region or one of its
 * out-of-line copies). */
#define REF_WITH(p, size, is_write, region)                                                           do {                                                                                                  if (LIKELY_OFF(dsm_sim_hot_state.refs_on)) {                                                          uintptr_t a_ = (uintptr_t)(p);                                                                    if (a_ >= dsm_sim_hot_state.base && a_ < dsm_sim_hot_state.end) {                                     if (!sim_ref_gap(dsm_sim_hot_state.fast))                                                             region;                                                                                   } else if (LIKELY_OFF(dsm_sim_hot_state.private_refs)) {                                              dsm_sim_private_access(a_, size, is_write);                                                   }                                                                                             }                                                                                             } while (0)

#endif
