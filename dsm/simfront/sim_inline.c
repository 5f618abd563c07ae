/* sim_inline.c - the inline checks of dsmcc --sim: one function per size
 * and direction, __dsm_sim_refN_W(p), that decides a reference exactly as
 * the gcc flavour's hook __tsan_readN / __tsan_writeN does (the same path,
 * hook_path.h).  Not part of libdsm: compiled by clang into bitcode
 * (dsmsim.bc, dsm/tools/checkpass/local.mk), whose functions the pass
 * (dsm/tools/checkpass/simpass.cpp) inlines before each access of the
 * program.  What they reach in libdsm goes by the exported names hooks.c
 * gives it (libdsm's internal names are hidden). */
#define dsm_sim_hot_state __dsm_sim_hot
#define dsm_sim_access __dsm_sim_access
#define dsm_sim_private_access __dsm_sim_private_access
#define dsm_sim_quantum_end __dsm_sim_quantum_end
#define sim_fast_window __dsm_sim_window

#include "hook_path.h"

#define INLINE_REF(n, w)                                                                          \
    __attribute__((always_inline)) void __dsm_sim_ref##n##_##w(void *p);                          \
    __attribute__((always_inline)) void __dsm_sim_ref##n##_##w(void *p)                           \
    {                                                                                             \
        REF_WITH(p, n, w, ref_region(a_, n, w));                                                  \
    }
#define INLINE_REFS(n) INLINE_REF(n, 0) INLINE_REF(n, 1)
INLINE_REFS(1)
INLINE_REFS(2)
INLINE_REFS(4)
INLINE_REFS(8)
INLINE_REFS(16)
INLINE_REFS(32)
INLINE_REFS(64)
